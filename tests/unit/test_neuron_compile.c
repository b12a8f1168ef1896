/*
 * test_neuron_compile.c - a Neuron training run's first-run graph compile
 * as a start-up term (ecf_startup_apply, estimate_startup.c;
 * docs/estimation.md 7, "Graph compilation"). The two published durations
 * of a training graph's compile with neuron_parallel_compile on
 * trn1.32xlarge: BERT-Large pre-training "~13 minutes" (aws-neuron-sdk
 * archive/nxd-training/bert.rst) and a Llama 2 7B fine-tune (TP 8) "~40
 * minutes" (optimum-neuron notebooks/ec2/text-generation/
 * llama2-7b-fine-tuning.ipynb). A model takes the figure of the nearer of
 * the two by parameter count on a log scale, the time includes it, and an
 * explicit --startup (a cached run: --startup 0) is taken to include it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ec2fit/ec2fit.h"

#include "embedded_fx.h"

static double samples; /* the last run's dataset, samples */

static void run(ecf_estimate *e, fx *f, const char *model, ecf_task task,
                double amount, ecf_dataset_unit unit, const char *type,
                int nodes, bool startup_set, double startup_s)
{
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_err err = ECF_ERR_INIT;
    const ecf_model *m = ecf_zoo_find(f->zoo, model);

    assert_non_null(m);
    w.task = task;
    w.dataset_amount = amount;
    w.dataset_unit = unit;
    w.startup_set = startup_set;
    w.startup_s = startup_s;
    if (task == ECF_TASK_LORA)
        w.seq_len = 4096;
    assert_int_equal(ecf_workload_resolve(&w, m, &err), 0);
    samples = w.dataset_samples * w.epochs;
    if (ecf_estimate_run(e, m, &w, fx_inst(f, type), nodes, &err) != 0)
        fail_msg("%s on %s: %s", model, type, err.msg);
    assert_true(e->fits);
}

/* the dataset part of the time, s: what remains without start-up and
 * compile */
static double dataset_s(const ecf_estimate *e)
{
    return e->time_hours * 3600.0 - e->startup_s - e->compile_s;
}

static bool has_assumption(const ecf_estimate *e, const char *needle)
{
    int i;
    for (i = 0; i < e->n_assumptions; i++)
        if (strstr(e->assumptions[i], needle))
            return true;
    return false;
}

/* Llama 3.1 8B (8.03B parameters, above the 1.5B boundary) takes the
 * Llama 2 7B figure, 40 min, and the time holds it beside the start-up;
 * on 2 nodes the nodes compile at once, so the term is the same. */
static void test_neuron_compile__llm_takes_the_llama_figure(void **state)
{
    static ecf_estimate e;
    int nodes;

    for (nodes = 1; nodes <= 2; nodes++) {
        run(&e, *state, "llama-3.1-8b", ECF_TASK_LORA, 100e6,
            ECF_DATASET_TOKENS, "trn1.32xlarge", nodes, false, 0);
        assert_float_equal(e.compile_s, 2400.0, 1e-9);
        assert_true(e.startup_s > 0);
        /* what remains is the dataset at the step's rate */
        assert_true(e.time_samples_per_s > 0);
        assert_float_equal(dataset_s(&e), samples / e.time_samples_per_s,
                           1e-6);
        assert_true(has_assumption(&e, "40 min (as published for Llama 2 7B"));
    }
}

/* BERT-Large (335M) and BERT-base take the BERT-Large figure, 13 min. */
static void test_neuron_compile__encoder_takes_the_bert_figure(void **state)
{
    static const char *const models[] = {"bert-large", "bert-base"};
    static ecf_estimate e;
    size_t i;

    for (i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
        run(&e, *state, models[i], ECF_TASK_FINETUNE, 1e6,
            ECF_DATASET_SAMPLES, "trn1.32xlarge", 1, false, 0);
        assert_float_equal(e.compile_s, 780.0, 1e-9);
        assert_true(has_assumption(&e, "13 min (as published for BERT-Large"));
    }
}

/* The time without the term is the cached run's: adding 13 min to it is
 * exactly the first run's, which is what --startup leaves out. */
static void test_neuron_compile__startup_flag_includes_it(void **state)
{
    static ecf_estimate first, cached;
    double base;

    run(&first, *state, "bert-large", ECF_TASK_FINETUNE, 1e6,
        ECF_DATASET_SAMPLES, "trn1.32xlarge", 1, false, 0);
    run(&cached, *state, "bert-large", ECF_TASK_FINETUNE, 1e6,
        ECF_DATASET_SAMPLES, "trn1.32xlarge", 1, true, 0);
    assert_float_equal(cached.compile_s, 0.0, 0);
    assert_float_equal(cached.startup_s, 0.0, 0);
    assert_true(has_assumption(&cached, "--startup is taken to include"));
    base = cached.time_hours * 3600.0;
    assert_float_equal(first.time_hours * 3600.0,
                       base + first.startup_s + 780.0, 1e-6);
}

/* No compile term off Neuron training: GPU training, Neuron serving and
 * batch inference, CPU training. */
static void test_neuron_compile__only_neuron_training(void **state)
{
    static ecf_estimate e;

    run(&e, *state, "bert-large", ECF_TASK_FINETUNE, 1e6,
        ECF_DATASET_SAMPLES, "p4d.24xlarge", 1, false, 0);
    assert_float_equal(e.compile_s, 0.0, 0);
    run(&e, *state, "bert-base", ECF_TASK_BATCH, 1e6, ECF_DATASET_SAMPLES,
        "inf2.xlarge", 1, false, 0);
    assert_float_equal(e.compile_s, 0.0, 0);
    run(&e, *state, "distilbert", ECF_TASK_FINETUNE, 1e5,
        ECF_DATASET_SAMPLES, "m7i.4xlarge", 1, false, 0);
    assert_float_equal(e.compile_s, 0.0, 0);
    assert_false(has_assumption(&e, "compiles the step's graphs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neuron_compile__llm_takes_the_llama_figure),
        cmocka_unit_test(test_neuron_compile__encoder_takes_the_bert_figure),
        cmocka_unit_test(test_neuron_compile__startup_flag_includes_it),
        cmocka_unit_test(test_neuron_compile__only_neuron_training),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
