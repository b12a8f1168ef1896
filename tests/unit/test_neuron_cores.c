/*
 * test_neuron_cores.c - one count of NeuronCores per Neuron device for the
 * estimator and the deploy manifests (ecf_estimate_neuron_cores): the
 * embedded catalog's Inferentia, Inferentia2, Trainium and Trainium2 types,
 * the serving plans the estimator forms over those cores, and the
 * TENSOR_PARALLEL_SIZE that render_deploy.c gives vLLM for them. Trainium2
 * counts 4 logical cores per chip (8 physical NeuronCore-v3, LNC=2 by
 * default): "a Trn2.48xlarge instance presents 64 available NeuronCores"
 * (Neuron docs, Logical NeuronCore configuration); "With LNC=2, you can set
 * a TP degree up to 64" (NxD Inference, "Deploying Llama3.1 405B (Trn2)").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ec2fit/ec2fit.h"
#include "render_deploy.h"

#include "embedded_fx.h"

/* The cores each generation's chip exposes (Neuron architecture pages:
 * Inferentia 4 NeuronCore-v1, Inferentia2 and Trainium 2 NeuronCore-v2,
 * Trainium2 8 NeuronCore-v3 shown as 4 at LNC=2); GPUs and CPUs 1. */
static void test_neuron_cores__per_device(void **state)
{
    static const struct {
        const char *type;
        int chips, cores;
    } rows[] = {{"inf1.xlarge", 1, 4},     {"inf2.xlarge", 1, 2},
                {"inf2.48xlarge", 12, 2},  {"trn1.32xlarge", 16, 2},
                {"trn2.48xlarge", 16, 4},  {"p4d.24xlarge", 8, 1},
                {"m7i.xlarge", 0, 1}};
    size_t i;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const ecf_instance *in = fx_inst(*state, rows[i].type);
        assert_int_equal(in->accel_count, rows[i].chips);
        assert_int_equal(ecf_estimate_neuron_cores(in), rows[i].cores);
    }
    /* the catalog's name says 8 (physical) for Trainium2: the count is
     * not read from it */
    assert_non_null(strstr(fx_inst(*state, "trn2.48xlarge")->accel->name, "x8"));
    assert_int_equal(ecf_estimate_neuron_cores(NULL), 1);
}

/* The serving plan on a whole Neuron instance spans every visible core
 * (tp x replicas), and the ECS task's TENSOR_PARALLEL_SIZE for a plan on
 * that instance is the same count: 64 on trn2.48xlarge (was 128 from the
 * catalog's "NeuronCore-v3 x8"), 24 on inf2.48xlarge. */
static void test_neuron_cores__estimate_and_deploy_agree(void **state)
{
    fx *f = *state;
    static const struct {
        const char *type;
        int cores;
    } rows[] = {{"trn2.48xlarge", 64}, {"inf2.48xlarge", 24}};
    const ecf_model *m = ecf_zoo_find(f->zoo, "llama-3.1-8b");
    size_t i;

    assert_non_null(m);
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const ecf_instance *in = fx_inst(*state, rows[i].type);
        ecf_workload w = ECF_WORKLOAD_INIT;
        ecf_err err = ECF_ERR_INIT;
        ecf_estimate e;
        ecf_plan plan;
        ecf_recommendation rec;
        ecf_result v;
        rd_names nm;

        w.task = ECF_TASK_INFER;
        if (ecf_estimate_run(&e, m, &w, in, 1, &err) != 0)
            fail_msg("%s: %s", rows[i].type, err.msg);
        assert_int_equal(e.tp_degree * e.dp_degree, rows[i].cores);
        assert_int_equal(in->accel_count * ecf_estimate_neuron_cores(in),
                         rows[i].cores);
        /* one TP group of every core is a plan the estimator accepts */
        w.tensor_parallel = rows[i].cores;
        if (ecf_estimate_run(&e, m, &w, in, 1, &err) != 0)
            fail_msg("%s tp %d: %s", rows[i].type, rows[i].cores, err.msg);
        assert_int_equal(e.tp_degree, rows[i].cores);

        memset(&plan, 0, sizeof(plan));
        memset(&rec, 0, sizeof(rec));
        memset(&v, 0, sizeof(v));
        plan.inst = in;
        plan.nodes = 1;
        plan.devices_per_node = e.devices;
        plan.capacity_qps = 1;
        rec.plans = &plan;
        rec.n_plans = 1;
        v.rec = &rec;
        v.model = m;
        v.w = &w;
        ecf_deploy_names_init(&nm, &v);
        assert_int_equal(nm.tensor_parallel, rows[i].cores);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neuron_cores__per_device),
        cmocka_unit_test(test_neuron_cores__estimate_and_deploy_agree),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
