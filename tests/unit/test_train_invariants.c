/* test_train_invariants.c - properties every training plan must have, over
 * many generated workloads on the embedded catalog and zoo (issue 24,
 * points 2 and 7; docs/estimation.md 6, "Global batch", and 7, "AWS
 * Neuron"):
 *
 * - a Neuron plan is sized per NeuronCore, the unit that runs one worker
 *   (PyTorch-NeuronX: one per core, two per Trainium chip): no plan that
 *   `estimate` or `recommend` lists exceeds 16 GiB per core on trn1 (24
 *   GiB per logical core on trn2, LNC=2), and Neuron plans are NeuronX
 *   Distributed (TP, PP, ZeRO-1) or data parallel, never FSDP;
 * - the global batch is an input the search keeps: every plan's micro-batch
 *   x replicas x micro-batches per step equals --global-batch, or the
 *   per-device batch x every device (x --grad-accum), whatever its TP and
 *   PP degrees.
 *
 * Each test prints how many workloads it checked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ec2fit/estimate.h"
#include "ec2fit/recommend.h"

#include "embedded_fx.h"

/* The models issue 24 names for Neuron training, and more of each kind. */
static const char *const models[] = {
    "vit_b_16",     "bert-large",    "llama-3.2-1b",  "llama-3.1-8b",
    "llama-3.1-70b", "mixtral-8x7b", "qwen3-30b-a3b", "whisper-large-v3",
    "resnet50",     "bert-base",     "gpt2-xl",       "mistral-7b",
    "llama-2-13b",  "qwen2.5-7b",
};
#define N_MODELS (sizeof(models) / sizeof(models[0]))

static const ecf_task tasks[] = {ECF_TASK_TRAIN, ECF_TASK_FINETUNE,
                                 ECF_TASK_LORA, ECF_TASK_QLORA};

/* Resolves `w` for `m`; false when the combination is refused (LoRA on a
 * convnet, a sequence beyond the model's context, ...). */
static bool resolves(ecf_workload *w, const ecf_model *m)
{
    ecf_err err = ECF_ERR_INIT;
    w->resolved = false;
    return ecf_workload_resolve(w, m, &err) == 0;
}

/* The per-device memory a Neuron plan has: 16 GiB per NeuronCore-v2
 * (Trainium: 32 GiB, 2 cores), 24 GiB per logical NeuronCore-v3
 * (Trainium2: 96 GiB, 8 physical cores as 4 logical at LNC=2). */
static double core_gib(const ecf_instance *in)
{
    return in->accel_memory_gib / ecf_estimate_neuron_cores(in);
}

static void check_neuron_plan(const ecf_estimate *e, const ecf_instance *in,
                              const char *what)
{
    int i;
    assert_float_equal(e->memory.available_per_device_gib, core_gib(in),
                       1e-9);
    if (strncmp(in->type, "trn1", 4) == 0)
        assert_float_equal(e->memory.available_per_device_gib, 16.0, 1e-9);
    if (e->fits &&
        e->memory.total_per_device_gib > e->memory.available_per_device_gib)
        fail_msg("%s: %.2f of %.2f GiB per NeuronCore", what,
                 e->memory.total_per_device_gib,
                 e->memory.available_per_device_gib);
    assert_true(e->parallelism == ECF_PAR_NXD ||
                e->parallelism == ECF_PAR_DP ||
                e->parallelism == ECF_PAR_SINGLE);
    assert_int_equal(e->tp_degree * e->dp_degree * e->pp_degree,
                     e->devices * ecf_estimate_neuron_cores(in) * e->nodes);
    for (i = 0; i < e->n_tried; i++) {
        const ecf_train_try *t = &e->tried[i];
        assert_true(t->parallelism == ECF_PAR_NXD ||
                    t->parallelism == ECF_PAR_DP ||
                    t->parallelism == ECF_PAR_SINGLE);
        if (t->fits && t->mem_gib > core_gib(in))
            fail_msg("%s: tried plan %d: %.2f GiB per NeuronCore", what, i,
                     t->mem_gib);
    }
}

/* estimate: every Neuron training plan over models x tasks x sequence x
 * batch x nodes x Trainium types fits its NeuronCore. */
static void test_train_invariants__neuron_per_core_estimate(void **state)
{
    fx *f = *state;
    static const char *const types[] = {"trn1.32xlarge", "trn1.2xlarge",
                                        "trn1n.32xlarge", "trn2.48xlarge"};
    static const int seqs[] = {512, 2048, 4096};
    static const int batches[] = {0, 1, 8};
    static const int nodes[] = {1, 4};
    size_t mi, ti, ii, si, bi, ni, n = 0, fit = 0;

    for (mi = 0; mi < N_MODELS; mi++)
        for (ti = 0; ti < sizeof(tasks) / sizeof(tasks[0]); ti++)
            for (si = 0; si < 3; si++)
                for (bi = 0; bi < 3; bi++)
                    for (ii = 0; ii < 4; ii++)
                        for (ni = 0; ni < 2; ni++) {
                            const ecf_model *m = fx_model(f, models[mi]);
                            const ecf_instance *in = fx_inst(f, types[ii]);
                            ecf_workload w = ECF_WORKLOAD_INIT;
                            ecf_estimate e;
                            ecf_err err = ECF_ERR_INIT;
                            char what[160];
                            w.task = tasks[ti];
                            w.seq_len = m->kind == ECF_KIND_CNN ||
                                                m->kind == ECF_KIND_VIT
                                            ? 0
                                            : seqs[si];
                            w.batch_size = batches[bi];
                            if (!resolves(&w, m))
                                continue;
                            if (ecf_estimate_run(&e, m, &w, in, nodes[ni],
                                                 &err) != 0)
                                fail_msg("%s: %s", models[mi], err.msg);
                            snprintf(what, sizeof(what),
                                     "%s %s seq %d batch %d on %d x %s",
                                     models[mi], ecf_task_name(tasks[ti]),
                                     w.seq_len, w.batch_size, nodes[ni],
                                     types[ii]);
                            check_neuron_plan(&e, in, what);
                            n++;
                            fit += e.fits;
                        }
    printf("neuron per-core (estimate): %zu workloads, %zu fit, 0 over "
           "the NeuronCore's memory\n",
           n, fit);
    assert_true(n >= 1000);
    assert_true(fit >= n / 2);
}

/* The acceptance case: Llama 3.1 8B LoRA at 4,096 tokens on one
 * trn1.32xlarge is an NxD plan within 16 GiB per NeuronCore, its
 * strategy label says so, and the compile note is among the
 * assumptions. */
static void test_train_invariants__llama8b_lora_trn1(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    char lbl[48], want[48];
    int i, compile = 0;

    w.task = ECF_TASK_LORA;
    w.seq_len = 4096;
    w.dataset_amount = 100e6;
    w.dataset_unit = ECF_DATASET_TOKENS;
    fx_est(&e, f, "llama-3.1-8b", &w, "trn1.32xlarge", 1);
    assert_true(e.fits);
    assert_int_equal(e.parallelism, ECF_PAR_NXD);
    assert_int_equal(e.devices, 16);
    assert_int_equal(e.tp_degree * e.dp_degree * e.pp_degree, 32);
    assert_float_equal(e.memory.available_per_device_gib, 16.0, 1e-9);
    assert_true(e.memory.total_per_device_gib <= 16.0);
    assert_true(e.time_hours > 0);
    snprintf(want, sizeof(want), "nxd tp%d pp%d zero1", e.tp_degree,
             e.pp_degree);
    assert_string_equal(
        ecf_strategy_label(lbl, sizeof(lbl), e.parallelism, e.tp_degree,
                           e.pp_degree),
        want);
    for (i = 0; i < e.n_assumptions; i++)
        compile += strstr(e.assumptions[i], "compiles the step's graphs") !=
                   NULL;
    assert_int_equal(compile, 1);
}

/* recommend: every Neuron plan listed (rank 1 or any other) fits the
 * NeuronCore, for the training workloads issue 24 found rank 1 on trn1
 * at 32 GiB. */
static void test_train_invariants__neuron_per_core_recommend(void **state)
{
    fx *f = *state;
    static const struct {
        const char *model;
        ecf_task task;
        int seq;
    } jobs[] = {
        {"vit_b_16", ECF_TASK_FINETUNE, 0},
        {"bert-large", ECF_TASK_TRAIN, 512},
        {"llama-3.2-1b", ECF_TASK_FINETUNE, 2048},
        {"llama-3.1-8b", ECF_TASK_LORA, 4096},
        {"llama-3.1-70b", ECF_TASK_LORA, 2048},
        {"mixtral-8x7b", ECF_TASK_LORA, 2048},
        {"qwen3-30b-a3b", ECF_TASK_LORA, 2048},
        {"whisper-large-v3", ECF_TASK_FINETUNE, 0},
    };
    size_t j, i, plans = 0, neuron = 0;

    for (j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
        const ecf_model *m = fx_model(f, jobs[j].model);
        ecf_workload w = ECF_WORKLOAD_INIT;
        ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
        ecf_recommendation *r = NULL;
        ecf_err err = ECF_ERR_INIT;
        w.task = jobs[j].task;
        w.seq_len = jobs[j].seq;
        w.dataset_amount = 1e5;
        w.dataset_unit = ECF_DATASET_SAMPLES;
        assert_true(resolves(&w, m));
        o.regions[o.n_regions++] = "us-east-1";
        o.stacks = f->stacks;
        if (ecf_recommend_run(&r, f->cat, m, &w, &f->rules, &o, &err) != 0)
            fail_msg("%s: %s", jobs[j].model, err.msg);
        for (i = 0; i < r->n_plans; i++) {
            const ecf_plan *p = &r->plans[i];
            plans++;
            if (!p->inst->accel || p->inst->accel->kind != ECF_ACCEL_NEURON)
                continue;
            neuron++;
            assert_float_equal(p->available_per_device_gib,
                               core_gib(p->inst), 1e-9);
            if (p->required_per_device_gib > p->available_per_device_gib)
                fail_msg("%s rank %zu %s: %.2f of %.2f GiB per NeuronCore",
                         jobs[j].model, i + 1, p->inst->type,
                         p->required_per_device_gib,
                         p->available_per_device_gib);
            assert_true(p->parallelism == ECF_PAR_NXD ||
                        p->parallelism == ECF_PAR_DP ||
                        p->parallelism == ECF_PAR_SINGLE);
        }
        ecf_recommendation_free(r);
    }
    printf("neuron per-core (recommend): %zu jobs, %zu plans, %zu on "
           "Neuron, 0 over the NeuronCore's memory\n",
           sizeof(jobs) / sizeof(jobs[0]), plans, neuron);
    assert_true(neuron >= 8);
}

/* The global batch of every plan equals the requested one over models x
 * tasks x batch x --global-batch / --grad-accum x recomputation x GPU and
 * Neuron types x nodes: batch x dp x micro-batches = --global-batch, else
 * batch x every device x --grad-accum. */
static void test_train_invariants__global_batch_kept(void **state)
{
    fx *f = *state;
    static const char *const types[] = {"p5.48xlarge", "p4d.24xlarge",
                                        "g5.12xlarge", "g6e.xlarge",
                                        "trn1.32xlarge"};
    static const int batches[] = {0, 1, 96};
    static const int gbs[] = {0, 1024};
    static const int accums[] = {0, 4};
    static const int ckpts[] = {ECF_CKPT_AUTO, ECF_CKPT_OFF};
    static const int nodes[] = {1, 2};
    size_t mi, ti, ii, bi, gi, ai, ci, ni, n = 0, changed = 0, kept = 0;

    for (mi = 0; mi < N_MODELS; mi++)
        for (ti = 0; ti < 4; ti++)
            for (ii = 0; ii < 5; ii++)
                for (bi = 0; bi < 3; bi++)
                    for (gi = 0; gi < 2; gi++)
                        for (ai = 0; ai < 2; ai++)
                            for (ci = 0; ci < 2; ci++)
                                for (ni = 0; ni < 2; ni++) {
        const ecf_model *m = fx_model(f, models[mi]);
        const ecf_instance *in = fx_inst(f, types[ii]);
        ecf_workload w = ECF_WORKLOAD_INIT;
        ecf_estimate e;
        ecf_err err = ECF_ERR_INIT;
        long want, devs;
        if (gbs[gi] > 0 && accums[ai] > 0)
            continue; /* both flags must agree: one at a time */
        w.task = tasks[ti];
        w.batch_size = batches[bi];
        w.global_batch = gbs[gi];
        w.grad_accum = accums[ai];
        w.activation_checkpointing = ckpts[ci];
        if (!resolves(&w, m))
            continue;
        if (ecf_estimate_run(&e, m, &w, in, nodes[ni], &err) != 0)
            fail_msg("%s on %s: %s", models[mi], types[ii], err.msg);
        devs = (long)e.devices * nodes[ni] *
               (in->accel && in->accel->kind == ECF_ACCEL_NEURON
                    ? ecf_estimate_neuron_cores(in)
                    : 1);
        want = gbs[gi] > 0 ? gbs[gi]
                           : (long)w.batch_size * devs *
                                 (accums[ai] > 0 ? accums[ai] : 1);
        n++;
        /* every plan reports what it runs ... */
        assert_int_equal(e.global_batch,
                         (long)e.batch_size * e.dp_degree *
                             e.grad_accum_steps);
        /* ... and keeps the user's global batch, TP and PP included */
        if (want % e.dp_degree != 0)
            continue; /* replicas that cannot divide it: warned */
        if (e.global_batch != want)
            fail_msg("%s %s batch %d gbs %d accum %d on %d x %s: %s tp%d "
                     "pp%d dp%d b%d x%d = %d, want %ld",
                     models[mi], ecf_task_name(tasks[ti]), batches[bi],
                     gbs[gi], accums[ai], nodes[ni], types[ii],
                     ecf_parallelism_name(e.parallelism), e.tp_degree,
                     e.pp_degree, e.dp_degree, e.batch_size,
                     e.grad_accum_steps, e.global_batch, want);
        if (e.pp_degree > 1)
            assert_float_equal(e.samples_per_step, (double)want, 1e-6);
        kept++;
        changed += e.tp_degree * e.pp_degree > 1 || e.batch_size != w.batch_size;
    }
    printf("global batch: %zu workloads, %zu checked, %zu with TP/PP or a "
           "lowered micro-batch, 0 changed the global batch\n",
           n, kept, changed);
    assert_true(n >= 1000);
    assert_true(changed >= 50);
}

/* Issue 24, point 7: BERT-large without recomputation at batch 96 x 512
 * on p5.48xlarge keeps the global batch of 96 x 8 GPUs = 768 whatever
 * the plan (it was TP 8 with one replica of 96). */
static void test_train_invariants__bert_large_p5_768(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;

    w.task = ECF_TASK_TRAIN;
    w.batch_size = 96;
    w.seq_len = 512;
    w.activation_checkpointing = ECF_CKPT_OFF;
    fx_est(&e, f, "bert-large", &w, "p5.48xlarge", 1);
    assert_int_equal(e.global_batch, 768);
    assert_int_equal(e.batch_size * e.dp_degree * e.grad_accum_steps, 768);
    assert_false(e.activation_checkpointing);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_train_invariants__neuron_per_core_estimate),
        cmocka_unit_test(test_train_invariants__llama8b_lora_trn1),
        cmocka_unit_test(test_train_invariants__neuron_per_core_recommend),
        cmocka_unit_test(test_train_invariants__global_batch_kept),
        cmocka_unit_test(test_train_invariants__bert_large_p5_768),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
