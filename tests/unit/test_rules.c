/* test_rules.c - the rules file loader and one accepted + one rejected case
 * per rule, each with its exact reason. Estimates are built by hand here,
 * so these tests pin the rules, not the estimator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <math.h>
#include <string.h>

#include "ec2fit/rules.h"

static ecf_rules rules;
static ecf_catalog *cat;

static int setup(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    (void)state;
    if (ecf_rules_embedded(&rules, &err) != 0)
        return -1;
    return ecf_catalog_load_buffer(&cat, data, len, "embedded", &err);
}

static int teardown(void **state)
{
    (void)state;
    ecf_catalog_free(cat);
    return 0;
}

typedef struct {
    ecf_model m;
    ecf_workload w;
    ecf_estimate e;
    ecf_rule_input in;
} fixture;

/* A passing baseline: 7B-ish training on one node of `type`. */
static void base(fixture *f, const char *type, ecf_task task)
{
    memset(f, 0, sizeof(*f));
    snprintf(f->m.name, sizeof(f->m.name), "llama-2-7b");
    f->m.kind = ECF_KIND_DECODER;
    f->w.task = task;
    f->e.fits = true;
    f->e.peak_tflops = 100;
    f->e.devices = 1;
    f->e.parallelism = ECF_PAR_SINGLE;
    f->e.memory.total_per_device_gib = 10;
    f->e.memory.available_per_device_gib = 22.4;
    f->e.host_ram_needed_gib = 16;
    f->e.host_ram_available_gib = 64;
    f->e.vcpus_per_accel = 8;
    f->e.latency_ms = 100;
    f->e.max_qps_per_replica = 5;
    f->e.replicas = 1;
    f->in.inst = ecf_catalog_find(cat, type);
    assert_non_null(f->in.inst);
    f->in.model = &f->m;
    f->in.w = &f->w;
    f->in.est = &f->e;
    f->in.nodes = 1;
    f->in.nodes_per_group = 1;
    f->in.interruption_band = -1;
    f->in.max_nodes = 16;
    f->in.checkpoint_hours = 0.5;
}

static void expect_pass(fixture *f, int penalties)
{
    ecf_rule_result r;
    ecf_rules_eval(&r, &rules, &f->in);
    if (!r.pass)
        fail_msg("unexpected rejection by %s: %s", ecf_rule_name(r.failed),
                 r.reason);
    assert_int_equal(r.n_penalties, penalties);
}

static void expect_fail(fixture *f, ecf_rule_id id, const char *reason)
{
    ecf_rule_result r;
    ecf_rules_eval(&r, &rules, &f->in);
    assert_false(r.pass);
    assert_string_equal(ecf_rule_name(r.failed), ecf_rule_name(id));
    assert_string_equal(r.reason, reason);
}

static void expect_penalty(fixture *f, ecf_rule_id id, double weight,
                           const char *reason)
{
    ecf_rule_result r;
    ecf_rules_eval(&r, &rules, &f->in);
    assert_true(r.pass);
    assert_int_equal(r.n_penalties, 1);
    assert_string_equal(ecf_rule_name(r.penalties[0].id), ecf_rule_name(id));
    assert_string_equal(r.penalties[0].reason, reason);
    assert_true(r.penalty == weight);
}

static void test_rules__accelerator_support(void **state)
{
    fixture f;
    (void)state;
    base(&f, "inf2.xlarge", ECF_TASK_INFER);
    f.e.peak_tflops = 190;
    expect_pass(&f, 1); /* the neuron-support caveat only */
    f.w.task = ECF_TASK_TRAIN;
    expect_fail(&f, ECF_RULE_ACCEL_SUPPORT,
                "Inferentia2 (NeuronCore-v2 x2): an inference accelerator, it "
                "cannot train");
    base(&f, "dl1.24xlarge", ECF_TASK_TRAIN);
    f.e.peak_tflops = 0; /* accelerators.csv has no Gaudi TFLOPS */
    expect_fail(&f, ECF_RULE_ACCEL_SUPPORT,
                "Gaudi HL-205: no published compute figure for this "
                "precision, so no time can be estimated");
}

static void test_rules__memory_fit(void **state)
{
    fixture f;
    (void)state;
    base(&f, "g5.2xlarge", ECF_TASK_INFER);
    f.e.memory.total_per_device_gib = 20.3; /* x1.1 = 22.33 <= 22.4 */
    expect_pass(&f, 0);
    f.e.memory.total_per_device_gib = 28.4; /* x1.1 = 31.24 */
    expect_fail(&f, ECF_RULE_MEMORY_FIT,
                "needs 31.2 GiB per device (28.4 + 10% headroom, single on 1 "
                "device(s) x 1 node(s)), has 22.4 GiB");
}

static void test_rules__host_ram(void **state)
{
    fixture f;
    (void)state;
    base(&f, "g5.2xlarge", ECF_TASK_INFER);
    f.e.host_ram_needed_gib = 64;
    expect_pass(&f, 0);
    f.e.host_ram_needed_gib = 140.25;
    expect_fail(&f, ECF_RULE_HOST_RAM,
                "needs 140.2 GiB host RAM, has 64.0 GiB");
}

static void test_rules__vcpus_per_accelerator(void **state)
{
    fixture f;
    (void)state;
    base(&f, "g5.xlarge", ECF_TASK_TRAIN);
    f.e.vcpus_per_accel = 4;
    expect_pass(&f, 0);
    f.e.vcpus_per_accel_needed = 6; /* the estimator asks for more */
    expect_penalty(&f, ECF_RULE_VCPUS_PER_ACCEL, 0.1,
                   "4 vCPUs per accelerator, 6 needed to decode and augment "
                   "input");
}

static void test_rules__deadline(void **state)
{
    fixture f;
    (void)state;
    base(&f, "p4d.24xlarge", ECF_TASK_TRAIN);
    f.in.deadline_hours = 24;
    f.in.time_hours = 23.9;
    expect_pass(&f, 0);
    f.in.time_hours = 30.5;
    f.in.nodes = 2;
    expect_fail(&f, ECF_RULE_DEADLINE,
                "takes 30.5 h on 2 node(s), deadline 24 h");
}

/* The plan-free constraints decided once (ecf_rules_plan_free_fail) give
 * ecf_rules_eval_quiet's verdict, and the rest from there
 * (ecf_rules_eval_quiet_past_plan_free) gives the same result. */
static void test_rules__plan_free(void **state)
{
    fixture f;
    ecf_rule_result full, past;
    double ratio = 0;
    (void)state;
    base(&f, "g5.2xlarge", ECF_TASK_TRAIN);
    f.in.deadline_hours = 24;
    f.in.time_hours = 30.5; /* the deadline fails too, later in id order */
    f.e.memory.total_per_device_gib = 28.4; /* x1.1 = 31.24 > 22.4 */
    assert_int_equal(ecf_rules_plan_free_fail(&rules, &f.in, &ratio),
                     ECF_RULE_MEMORY_FIT);
    ecf_rules_eval_quiet(&full, &rules, &f.in);
    assert_false(full.pass);
    assert_int_equal(full.failed, ECF_RULE_MEMORY_FIT);
    assert_true(ratio == full.miss_ratio);
    assert_true(fabs(ratio - 31.24 / 22.4) < 1e-12);

    f.e.memory.total_per_device_gib = 10; /* fits: the deadline decides */
    assert_int_equal(ecf_rules_plan_free_fail(&rules, &f.in, &ratio),
                     ECF_RULE_NO_PRICE);
    assert_true(ratio == 1);
    ecf_rules_eval_quiet(&full, &rules, &f.in);
    ecf_rules_eval_quiet_past_plan_free(&past, &rules, &f.in);
    assert_int_equal(full.failed, ECF_RULE_DEADLINE);
    assert_int_equal(past.failed, ECF_RULE_DEADLINE);
    assert_true(past.miss_ratio == full.miss_ratio);

    f.in.time_hours = 20; /* passes, with the vCPU penalty */
    f.e.vcpus_per_accel_needed = 12;
    ecf_rules_eval_quiet(&full, &rules, &f.in);
    ecf_rules_eval_quiet_past_plan_free(&past, &rules, &f.in);
    assert_true(full.pass && past.pass);
    assert_int_equal(past.n_penalties, 1);
    assert_int_equal(past.penalties[0].id, ECF_RULE_VCPUS_PER_ACCEL);
    assert_int_equal(full.n_penalties, past.n_penalties);
    assert_true(full.penalty == past.penalty);
}

/* The rules prepared for a run's targets (ecf_rules_prepare) decide every
 * input with those targets as the unprepared calls do: a prepared set
 * built for other targets (a deadline, budget, latency or qps that is not
 * set) would skip a rule that fires here. Every combination of targets,
 * tasks and plan figures around each threshold, on the embedded rules and
 * on a rules file that turns kinds around. */
static void expect_prepared_same(const ecf_rules *rs, const fixture *f)
{
    ecf_rules_prepared prep;
    ecf_rule_result full, past;
    double r1 = 0, r2 = 0;
    ecf_rule_id a, b;
    int i;

    ecf_rules_prepare(&prep, rs, &f->in);
    a = ecf_rules_plan_free_fail(rs, &f->in, &r1);
    b = ecf_rules_plan_free_fail_prepared(&prep, &f->in, &r2);
    assert_int_equal(a, b);
    assert_true(r1 == r2);
    if (a != ECF_RULE_NO_PRICE)
        return;
    ecf_rules_eval_quiet_past_plan_free(&full, rs, &f->in);
    ecf_rules_eval_quiet_past_plan_free_prepared(&past, &prep, &f->in);
    assert_int_equal(full.pass, past.pass);
    assert_int_equal(full.failed, past.failed);
    assert_true(full.miss_ratio == past.miss_ratio);
    assert_true(full.penalty == past.penalty);
    assert_int_equal(full.n_penalties, past.n_penalties);
    for (i = 0; i < full.n_penalties; i++)
        assert_int_equal(full.penalties[i].id, past.penalties[i].id);
}

static void test_rules__prepared(void **state)
{
    static const ecf_task tasks[] = {ECF_TASK_TRAIN, ECF_TASK_LORA,
                                     ECF_TASK_INFER, ECF_TASK_BATCH};
    ecf_rules turned = rules;
    const ecf_rules *sets[2];
    fixture f;
    unsigned t, bits, lo, s;
    int fired[ECF_RULE_COUNT] = {0};
    (void)state;

    /* a --rules file may make any rule either kind or disable it */
    turned.rules[ECF_RULE_DEADLINE].kind = ECF_RULE_PENALTY;
    turned.rules[ECF_RULE_VCPUS_PER_ACCEL].kind = ECF_RULE_CONSTRAINT;
    turned.rules[ECF_RULE_DATA_BOUND].kind = ECF_RULE_CONSTRAINT;
    turned.rules[ECF_RULE_BUDGET].enabled = false;
    sets[0] = &rules;
    sets[1] = &turned;
    for (s = 0; s < 2; s++)
        for (t = 0; t < sizeof(tasks) / sizeof(tasks[0]); t++)
            for (bits = 0; bits < 256; bits++)
                for (lo = 0; lo < 4; lo++) {
                    /* lo & 1: every plan figure under its target, else
                     * over; lo & 2: the model fits in memory */
                    unsigned under = lo & 1, fit = lo & 2;
                    double k = under ? 0.5 : 2;
                    /* g4dn.12xlarge: four T4s on PCIe */
                    base(&f, bits & 128 ? "g4dn.12xlarge" : "p4d.24xlarge",
                         tasks[t]);
                    f.in.deadline_hours = bits & 1 ? 24 : 0;
                    f.in.budget_usd = bits & 2 ? 500 : 0;
                    f.in.budget_hourly_usd = bits & 4 ? 10 : 0;
                    f.in.latency_ms = bits & 8 ? 100 : 0;
                    f.in.qps = bits & 16 ? 50 : 0;
                    f.w.ttft_target_ms = bits & 32 ? 200 : 0;
                    f.w.tpot_target_ms = bits & 64 ? 20 : 0;
                    f.in.spot = bits & 128;
                    f.in.max_nodes = 4;
                    f.in.time_hours = 24 * k;
                    f.in.total_usd = 500 * k;
                    f.in.hourly_usd = 10 * k;
                    f.e.latency_ms = 100 * k;
                    f.e.ttft_ms = 200 * k;
                    f.e.per_token_ms = 20 * k;
                    f.in.instances_needed = under ? 2 : 8;
                    f.in.nodes = f.in.nodes_per_group = under ? 1 : 2;
                    f.e.devices = under ? 1 : 4;
                    f.e.vcpus_per_accel_needed = under ? 0 : 12;
                    f.e.data_rate_required_mbytes_s = 1000 * k;
                    f.e.data_rate_available_mbytes_s = 1250;
                    f.in.expected_interruptions = under ? 0 : 3;
                    f.e.memory.total_per_device_gib = fit ? 10 : 40;
                    expect_prepared_same(sets[s], &f);
                    {
                        ecf_rule_result r;
                        ecf_rules_eval_quiet(&r, sets[s], &f.in);
                        fired[r.pass ? ECF_RULE_NO_PRICE : r.failed]++;
                        for (int i = 0; i < r.n_penalties; i++)
                            fired[r.penalties[i].id]++;
                    }
                }
    /* the grid reaches every rule the fixture can trip */
    assert_true(fired[ECF_RULE_NO_PRICE] > 0);
    assert_true(fired[ECF_RULE_MEMORY_FIT] > 0);
    assert_true(fired[ECF_RULE_DEADLINE] > 0);
    assert_true(fired[ECF_RULE_BUDGET] > 0);
    assert_true(fired[ECF_RULE_BUDGET_HOURLY] > 0);
    assert_true(fired[ECF_RULE_LATENCY] > 0);
    assert_true(fired[ECF_RULE_THROUGHPUT] > 0);
    assert_true(fired[ECF_RULE_TTFT] > 0);
    assert_true(fired[ECF_RULE_TPOT] > 0);
    assert_true(fired[ECF_RULE_VCPUS_PER_ACCEL] > 0);
    assert_true(fired[ECF_RULE_PCIE_MULTI_GPU] > 0);
    assert_true(fired[ECF_RULE_DATA_BOUND] > 0);
    assert_true(fired[ECF_RULE_SPOT_INTERRUPTION] > 0);
}

static void test_rules__budget(void **state)
{
    fixture f;
    (void)state;
    base(&f, "p4d.24xlarge", ECF_TASK_LORA);
    f.in.budget_usd = 500;
    f.in.total_usd = 499.99;
    expect_pass(&f, 0);
    f.in.total_usd = 658.73;
    expect_fail(&f, ECF_RULE_BUDGET,
                "costs $658.73 on 1 node(s), budget $500.00");
    /* serving: --budget is monthly (docs/rules.md) and so is the cost the
     * rule compares with it; the message says so, as budget-hourly says
     * /h (before: "costs $6846.99 on 8 node(s), budget $100.00") */
    base(&f, "g6e.xlarge", ECF_TASK_INFER);
    f.in.budget_usd = 100;
    f.in.total_usd = 6846.99;
    f.in.nodes = 8;
    expect_fail(&f, ECF_RULE_BUDGET,
                "costs $6846.99/month on 8 node(s), budget $100.00/month");
}

static void test_rules__budget_hourly(void **state)
{
    fixture f;
    (void)state;
    base(&f, "p4d.24xlarge", ECF_TASK_TRAIN);
    f.in.budget_hourly_usd = 25;
    f.in.hourly_usd = 21.957642;
    expect_pass(&f, 0);
    f.in.budget_hourly_usd = 10;
    expect_fail(&f, ECF_RULE_BUDGET_HOURLY,
                "costs $21.9576/h on 1 node(s), budget $10.0000/h");
}

static void test_rules__latency(void **state)
{
    fixture f;
    (void)state;
    base(&f, "g5.xlarge", ECF_TASK_INFER);
    f.in.latency_ms = 100;
    expect_pass(&f, 0);
    f.e.latency_ms = 250;
    expect_fail(&f, ECF_RULE_LATENCY,
                "latency 250 ms per request, target 100 ms");
    /* training jobs have no request latency */
    f.w.task = ECF_TASK_TRAIN;
    expect_pass(&f, 0);
}

static void test_rules__throughput(void **state)
{
    fixture f;
    (void)state;
    base(&f, "g5.xlarge", ECF_TASK_INFER);
    f.in.qps = 50;
    f.in.instances_needed = 10;
    f.in.max_nodes = 10;
    expect_pass(&f, 0);
    f.in.max_nodes = 8;
    expect_fail(&f, ECF_RULE_THROUGHPUT,
                "needs 10 instances for 50 req/s (5 req/s each), limit 8 "
                "(--max-nodes)");
}

static void test_rules__multi_node_no_efa(void **state)
{
    fixture f;
    (void)state;
    base(&f, "p4d.24xlarge", ECF_TASK_TRAIN);
    f.in.nodes = f.in.nodes_per_group = 4; /* p4d has EFA */
    expect_pass(&f, 0);
    base(&f, "g5.4xlarge", ECF_TASK_TRAIN); /* 10 Gbps, no EFA */
    f.in.nodes = f.in.nodes_per_group = 2;
    expect_fail(&f, ECF_RULE_MULTI_NODE_NO_EFA,
                "2 nodes without EFA: collectives over 10 Gbps TCP");
}

static void test_rules__pcie_multi_gpu_training(void **state)
{
    fixture f;
    (void)state;
    base(&f, "p4d.24xlarge", ECF_TASK_TRAIN); /* NVSwitch */
    f.e.devices = 8;
    expect_pass(&f, 0);
    base(&f, "g5.12xlarge", ECF_TASK_TRAIN); /* 4x A10G over PCIe */
    f.e.devices = 4;
    expect_penalty(&f, ECF_RULE_PCIE_MULTI_GPU, 0.15,
                   "4 GPUs exchange gradients over PCIe (no NVLink)");
    f.w.task = ECF_TASK_INFER; /* serving replicas do not all-reduce */
    expect_pass(&f, 0);
}

static void test_rules__data_bound(void **state)
{
    fixture f;
    (void)state;
    base(&f, "g5.xlarge", ECF_TASK_TRAIN);
    f.e.data_rate_required_mbytes_s = 200;
    f.e.data_rate_available_mbytes_s = 312.5; /* 80% = 250 */
    f.e.data_source = "network";
    expect_pass(&f, 0);
    f.e.data_rate_required_mbytes_s = 300;
    expect_penalty(&f, ECF_RULE_DATA_BOUND, 0.2,
                   "input needs 300 MB/s, network gives 312 MB/s");
}

static void test_rules__spot_interruption(void **state)
{
    fixture f;
    (void)state;
    base(&f, "p4d.24xlarge", ECF_TASK_TRAIN);
    f.in.spot = true;
    f.in.interruption_band = 4;
    f.in.time_hours = 10;
    f.in.expected_interruptions = 0.4;
    expect_pass(&f, 0);
    f.in.expected_interruptions = 3.1;
    expect_penalty(&f, ECF_RULE_SPOT_INTERRUPTION, 0.2,
                   "spot interruption band 4 (>20%/month): about 3.1 "
                   "interruptions over 10 h with 1 node(s), checkpoint every "
                   "0.5 h");
}

/* spot-capacity: a multi-node training job on spot for a day or more, on
 * a capacity-scarce type (p5-class), names the Capacity Block that would
 * hold it: 5 x p5en.48xlarge for 26.3 days (631 h) at the published
 * $54.92/h: 28 d x 5 x 24 x 54.92 = $184,531. */
static void test_rules__spot_capacity(void **state)
{
    fixture f;
    (void)state;
    base(&f, "p5en.48xlarge", ECF_TASK_TRAIN);
    f.in.spot = true;
    f.in.interruption_band = 0;
    f.in.nodes = f.in.nodes_per_group = 5;
    f.in.time_hours = 631.2;
    f.e.time_hours = 631.2;
    f.in.expected_interruptions = 0.5;
    f.in.cb_usd_per_hour = 54.92;
    expect_penalty(&f, ECF_RULE_SPOT_CAPACITY, 0.2,
                   "5 x p5en.48xlarge on spot for 26.3 days: a multi-node "
                   "job needs all its nodes at once, and spot capacity for "
                   "this type is scarce and reclaimed (Spot Advisor "
                   "<5%/month); it holds no capacity; a Capacity Block holds "
                   "it: 28 d x 5 nodes, $184531 for the window (--purchase "
                   "capacity-block)");
    /* no published rate: the note without a block */
    f.in.cb_usd_per_hour = 0;
    expect_penalty(&f, ECF_RULE_SPOT_CAPACITY, 0.2,
                   "5 x p5en.48xlarge on spot for 26.3 days: a multi-node "
                   "job needs all its nodes at once, and spot capacity for "
                   "this type is scarce and reclaimed (Spot Advisor "
                   "<5%/month); it holds no capacity");
    /* under a day, one node, on-demand, or a type whose capacity is not
     * scarce: no penalty */
    f.in.time_hours = 23.9;
    expect_pass(&f, 0);
    f.in.time_hours = 631.2;
    f.in.nodes = f.in.nodes_per_group = 1;
    expect_pass(&f, 0);
    f.in.nodes = f.in.nodes_per_group = 5;
    f.in.spot = false;
    expect_pass(&f, 0);
    base(&f, "p4d.24xlarge", ECF_TASK_TRAIN);
    f.in.spot = true;
    f.in.interruption_band = 0;
    f.in.nodes = f.in.nodes_per_group = 5;
    f.in.time_hours = 631.2;
    f.in.expected_interruptions = 0.5;
    expect_pass(&f, 0);
}

static void test_rules__neuron_support(void **state)
{
    fixture f;
    ecf_stack_verdict v;
    (void)state;
    /* without a stack table: any Neuron accelerator gets the note */
    base(&f, "inf2.xlarge", ECF_TASK_INFER);
    expect_penalty(&f, ECF_RULE_NEURON_SUPPORT, 0.1,
                   "the AWS Neuron SDK on Inferentia2 (NeuronCore-v2 x2): "
                   "model coverage varies by architecture; check that "
                   "llama-2-7b runs (source: https://awsdocs-neuron."
                   "readthedocs-hosted.com/en/latest/general/arch/"
                   "model-architecture-fit.html)");
    /* with one: only a stack its source does not list as tested */
    memset(&v, 0, sizeof(v));
    v.status = ECF_STACK_UNVERIFIED;
    v.platform = "AWS Trainium (trn1)";
    v.stack = "JAX";
    v.source = "https://example.org/jax";
    snprintf(v.why, sizeof(v.why), "JAX on Neuron (jax-neuronx) is in beta");
    base(&f, "trn1.2xlarge", ECF_TASK_TRAIN);
    f.in.stack = &v;
    expect_penalty(&f, ECF_RULE_NEURON_SUPPORT, 0.1,
                   "JAX on AWS Trainium (trn1): JAX on Neuron (jax-neuronx) "
                   "is in beta; check that llama-2-7b runs (source: "
                   "https://example.org/jax)");
    v.status = ECF_STACK_SUPPORTED;
    base(&f, "inf2.xlarge", ECF_TASK_INFER);
    f.in.stack = &v;
    expect_pass(&f, 0);
}

/* Volta with CUDA 13 and Inf1 with current Neuron (issue 25): stated with
 * its published source and costed the rule's weight (0.1, data/rules.json;
 * docs/rules.md); current generations never. */
static void test_rules__end_of_support(void **state)
{
    static const char *const eos[] = {"p3.2xlarge", "p3dn.24xlarge",
                                      "g3.4xlarge", "inf1.xlarge"};
    static const char *const current[] = {"g4dn.xlarge", "g5.xlarge",
                                          "p4d.24xlarge", "inf2.xlarge",
                                          "trn1.2xlarge", "c7i.large"};
    fixture f;
    ecf_stack_verdict v;
    const char *src;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(eos) / sizeof(eos[0]); i++) {
        const ecf_instance *in = ecf_catalog_find(cat, eos[i]);
        assert_non_null(in);
        assert_non_null(ecf_rules_end_of_support(in, &src));
        assert_non_null(src);
    }
    for (i = 0; i < sizeof(current) / sizeof(current[0]); i++) {
        const ecf_instance *in = ecf_catalog_find(cat, current[i]);
        assert_non_null(in);
        assert_null(ecf_rules_end_of_support(in, &src));
        assert_null(src);
    }
    base(&f, "p3.2xlarge", ECF_TASK_INFER);
    expect_penalty(&f, ECF_RULE_END_OF_SUPPORT, 0.1,
                   "V100 SXM2 16GB (volta) is past its software's support: "
                   "CUDA 13 removed Volta (sm_70), so current CUDA 13 builds "
                   "of PyTorch and vLLM do not run; it runs only on a CUDA "
                   "12 stack (the proprietary-driver DLAMI) (source: CUDA "
                   "Toolkit 13.0 release notes, Deprecated Architectures, "
                   "docs.nvidia.com/cuda/archive/13.0.0/"
                   "cuda-toolkit-release-notes)");
    /* Inf1 with a supported stack verdict: the end of support alone */
    memset(&v, 0, sizeof(v));
    v.status = ECF_STACK_SUPPORTED;
    base(&f, "inf1.xlarge", ECF_TASK_INFER);
    f.in.stack = &v;
    expect_penalty(&f, ECF_RULE_END_OF_SUPPORT, 0.1,
                   "Inferentia (NeuronCore-v1 x4) (neuron-v1) is past its "
                   "software's support: Neuron DLAMIs from 2.26.1 on no "
                   "longer support Inf1 and Neuron drivers above 2.24 support "
                   "non-Inf1 instances only; it runs only on the last Inf1 "
                   "release line (source: awsdocs-neuron.readthedocs-hosted."
                   "com/en/latest/dlami/index.html)");
    base(&f, "g5.xlarge", ECF_TASK_INFER);
    expect_pass(&f, 0);
}

/* A rules file written before end-of-support existed still loads, with
 * the rule off (its ranking unchanged); every other rule stays required. */
static void test_rules__end_of_support_optional_in_old_files(void **state)
{
    ecf_rules old;
    ecf_err err = ECF_ERR_INIT;
    fixture f;
    ecf_rule_result r;
    (void)state;
    assert_int_equal(ecf_rules_load_file(&old, ECF_FIXTURES
                                         "/rules_no_headroom.json", &err),
                     0);
    assert_false(old.rules[ECF_RULE_END_OF_SUPPORT].enabled);
    assert_true(rules.rules[ECF_RULE_END_OF_SUPPORT].enabled);
    assert_true(rules.rules[ECF_RULE_END_OF_SUPPORT].kind == ECF_RULE_PENALTY);
    base(&f, "p3.2xlarge", ECF_TASK_INFER);
    ecf_rules_eval(&r, &old, &f.in);
    assert_true(r.pass);
    assert_int_equal(r.n_penalties, 0);
}

static void test_rules__stack(void **state)
{
    fixture f;
    ecf_stack_verdict v;
    (void)state;
    memset(&v, 0, sizeof(v));
    v.status = ECF_STACK_UNSUPPORTED;
    v.platform = "AMD Radeon Pro V520 (g4ad)";
    v.stack = "PyTorch";
    v.source = "https://example.org/rocm";
    snprintf(v.why, sizeof(v.why), "no supported ML stack");
    base(&f, "g4ad.xlarge", ECF_TASK_INFER);
    f.in.stack = &v;
    expect_fail(&f, ECF_RULE_STACK,
                "PyTorch on AMD Radeon Pro V520 (g4ad): no supported ML "
                "stack (source: https://example.org/rocm)");
    /* an unverified stack runs (with the note), a NULL one is unchecked */
    v.status = ECF_STACK_UNVERIFIED;
    expect_penalty(&f, ECF_RULE_NEURON_SUPPORT, 0.1,
                   "PyTorch on AMD Radeon Pro V520 (g4ad): no supported ML "
                   "stack; check that llama-2-7b runs (source: "
                   "https://example.org/rocm)");
    f.in.stack = NULL;
    expect_pass(&f, 0);
}

static void test_rules__disabled_rule_and_threshold(void **state)
{
    char rules_json[8192] = "", doc[9000];
    ecf_rules custom;
    ecf_err err = ECF_ERR_INIT;
    fixture f;
    int i;
    (void)state;
    /* every rule as embedded, but memory-fit with 0% headroom and
     * deadline disabled */
    for (i = 0; i < ECF_RULE_COUNT; i++) {
        char one[512];
        const ecf_rule *r = &rules.rules[i];
        if (i == ECF_RULE_MEMORY_FIT)
            snprintf(one, sizeof(one),
                     "{\"id\":\"memory-fit\",\"kind\":\"constraint\","
                     "\"params\":{\"headroom_pct\":0},\"message\":\"x "
                     "{required_gib}\"}");
        else if (i == ECF_RULE_DEADLINE)
            snprintf(one, sizeof(one),
                     "{\"id\":\"deadline\",\"kind\":\"constraint\","
                     "\"enabled\":false,\"message\":\"late\"}");
        else
            snprintf(one, sizeof(one),
                     "{\"id\":\"%s\",\"kind\":\"%s\",\"weight\":%g,"
                     "\"message\":\"m\"}",
                     ecf_rule_name((ecf_rule_id)i),
                     r->kind == ECF_RULE_PENALTY ? "penalty" : "constraint",
                     r->weight);
        if (i)
            strcat(rules_json, ",");
        strcat(rules_json, one);
    }
    snprintf(doc, sizeof(doc), "{\"schema_version\":1,\"rules\":[%s]}",
             rules_json);
    assert_int_equal(ecf_rules_load_buffer(&custom, doc, strlen(doc), "r.json",
                                           &err),
                     0);
    base(&f, "g5.2xlarge", ECF_TASK_INFER);
    f.e.memory.total_per_device_gib = 22.0; /* fails with 10%, passes 0% */
    {
        ecf_rule_result r;
        ecf_rules_eval(&r, &custom, &f.in);
        assert_true(r.pass);
        ecf_rules_eval(&r, &rules, &f.in);
        assert_false(r.pass);
    }
    f.w.task = ECF_TASK_TRAIN;
    f.in.deadline_hours = 1;
    f.in.time_hours = 100;
    {
        ecf_rule_result r;
        ecf_rules_eval(&r, &custom, &f.in);
        assert_true(r.pass);
    }
}

static void expect_load_error(const char *doc, const char *msg)
{
    ecf_rules r;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_rules_load_buffer(&r, doc, strlen(doc), "rules.json",
                                           &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, msg);
}

static void test_rules__rejects_bad_files(void **state)
{
    (void)state;
    expect_load_error("{\"schema_version\":1,\"rules\":[",
                      "rules.json: invalid JSON at byte offset 28");
    expect_load_error("{\"schema_version\":2,\"rules\":[]}",
                      "rules.json: schema_version: expected 1");
    expect_load_error("{\"schema_version\":1,\"rules\":[]}",
                      "rules.json: rules: missing rule \"no-price\" (set "
                      "\"enabled\": false to turn it off)");
    expect_load_error("{\"schema_version\":1,\"rules\":[{\"id\":\"speed\"}]}",
                      "rules.json: rules[0].id: unknown rule \"speed\"");
    expect_load_error("{\"schema_version\":1,\"rules\":[{\"id\":\"deadline\","
                      "\"kind\":\"hard\"}]}",
                      "rules.json: rules[0].kind: expected \"constraint\" or "
                      "\"penalty\"");
    expect_load_error("{\"schema_version\":1,\"rules\":[{\"id\":\"memory-fit\","
                      "\"kind\":\"constraint\",\"params\":{\"headroom_pct\":"
                      "-5},\"message\":\"m\"}]}",
                      "rules.json: rules[0].params.headroom_pct: expected a "
                      "number from 0 to 100");
    expect_load_error("{\"schema_version\":1,\"rules\":[{\"id\":\"memory-fit\","
                      "\"kind\":\"constraint\",\"params\":{\"headroom\":5},"
                      "\"message\":\"m\"}]}",
                      "rules.json: rules[0].params.headroom: unknown "
                      "parameter for rule memory-fit");
    expect_load_error("{\"schema_version\":1,\"rules\":[{\"id\":\"deadline\","
                      "\"kind\":\"constraint\",\"message\":\"{time_hours}\"}]}",
                      "rules.json: rules[0].message: unknown placeholder "
                      "{time_hours} for rule deadline");
    expect_load_error("{\"schema_version\":1,\"rules\":[{\"id\":\"no-price\","
                      "\"kind\":\"constraint\",\"enabled\":false,"
                      "\"message\":\"m\"}]}",
                      "rules.json: rules[0]: rule no-price must stay an "
                      "enabled constraint (nothing ranks on an unknown "
                      "price)");
    expect_load_error("{\"schema_version\":1,\"rules\":[{\"id\":\"deadline\","
                      "\"kind\":\"penalty\",\"weight\":0,\"message\":\"m\"}]}",
                      "rules.json: rules[0].weight: a penalty needs a "
                      "positive weight");
    expect_load_error("{\"schema_version\":1,\"rules\":[{\"id\":\"deadline\","
                      "\"kind\":\"constraint\",\"message\":\"m\"},{\"id\":"
                      "\"deadline\",\"kind\":\"constraint\",\"message\":"
                      "\"m\"}]}",
                      "rules.json: rules[1].id: rule \"deadline\" listed "
                      "twice");
}

static void test_rules__format(void **state)
{
    char out[64];
    const char *names[] = {"a", "bb"};
    const char *values[] = {"1", "two"};
    (void)state;
    ecf_rules_format(out, sizeof(out), "{a}+{bb}={c} {", names, values, 2);
    assert_string_equal(out, "1+two={c} {");
    ecf_rules_format(out, 6, "{bb}{bb}{bb}", names, values, 2);
    assert_string_equal(out, "twotw");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules__accelerator_support),
        cmocka_unit_test(test_rules__memory_fit),
        cmocka_unit_test(test_rules__host_ram),
        cmocka_unit_test(test_rules__vcpus_per_accelerator),
        cmocka_unit_test(test_rules__deadline),
        cmocka_unit_test(test_rules__plan_free),
        cmocka_unit_test(test_rules__budget),
        cmocka_unit_test(test_rules__budget_hourly),
        cmocka_unit_test(test_rules__latency),
        cmocka_unit_test(test_rules__throughput),
        cmocka_unit_test(test_rules__multi_node_no_efa),
        cmocka_unit_test(test_rules__pcie_multi_gpu_training),
        cmocka_unit_test(test_rules__data_bound),
        cmocka_unit_test(test_rules__spot_interruption),
        cmocka_unit_test(test_rules__spot_capacity),
        cmocka_unit_test(test_rules__neuron_support),
        cmocka_unit_test(test_rules__stack),
        cmocka_unit_test(test_rules__end_of_support),
        cmocka_unit_test(test_rules__end_of_support_optional_in_old_files),
        cmocka_unit_test(test_rules__disabled_rule_and_threshold),
        cmocka_unit_test(test_rules__rejects_bad_files),
        cmocka_unit_test(test_rules__format),
        cmocka_unit_test(test_rules__prepared),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
