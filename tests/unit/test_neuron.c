/*
 * test_neuron.c - Neuron serving topology (src/model/estimate_neuron.c):
 * the NeuronCore as the serving device (per-core peak, HBM and bandwidth,
 * one replica per core), tensor parallelism over NeuronCore counts that are
 * not powers of two, no per-forward dispatch, and the chip view kept for
 * training. Instances are built from the Inferentia2 / Trainium datasheet
 * (Neuron docs: 2 NeuronCore-v2, 190 bf16 TFLOPS, 32 GiB, 820 GB/s each).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/estimate.h"
#include "ec2fit/zoo.h"

typedef struct {
    ecf_zoo *zoo;
    ecf_accel inf2, trn1, a100;
    ecf_instance inf2_xl, inf2_48xl, trn1_32xl, p4d;
} fx;

static void chip(ecf_accel *a, const char *id, const char *name,
                 const char *gen, ecf_accel_kind kind, double bf16, double bw,
                 double mem_gb)
{
    memset(a, 0, sizeof(*a));
    a->id = (char *)id;
    a->name = (char *)name;
    a->generation = (char *)gen;
    a->kind = kind;
    a->memory_gb = mem_gb;
    a->memory_bw_gbytes_s = bw;
    a->tflops[ECF_PREC_BF16] = bf16;
    a->tflops[ECF_PREC_FP16] = bf16;
}

static void host(ecf_instance *in, const char *type, const ecf_accel *a,
                 int n, double mem_gib, ecf_link link, double link_gbs,
                 int vcpu, double ram)
{
    memset(in, 0, sizeof(*in));
    in->type = (char *)type;
    in->family = (char *)type;
    in->accel = a;
    in->accel_count = n;
    in->accel_memory_gib = mem_gib;
    in->link = link;
    in->link_gbytes_s = link_gbs;
    in->vcpu = vcpu;
    in->memory_gib = ram;
    in->network_gbps = 100;
}

static int setup(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    fx *f = calloc(1, sizeof(*f));
    if (!f || ecf_zoo_embedded(&f->zoo, &err) != 0)
        return -1;
    chip(&f->inf2, "inferentia2", "Inferentia2 (NeuronCore-v2 x2)",
         "neuron-v2", ECF_ACCEL_NEURON, 190, 820, 32);
    chip(&f->trn1, "trainium", "Trainium (NeuronCore-v2 x2)", "neuron-v2",
         ECF_ACCEL_NEURON, 190, 820, 32);
    chip(&f->a100, "a100", "A100", "ampere", ECF_ACCEL_GPU, 312, 2039, 80);
    host(&f->inf2_xl, "inf2.xlarge", &f->inf2, 1, 32, ECF_LINK_NONE, 0, 4,
         16);
    host(&f->inf2_48xl, "inf2.48xlarge", &f->inf2, 12, 32,
         ECF_LINK_NEURONLINK, 206.2, 192, 768);
    host(&f->trn1_32xl, "trn1.32xlarge", &f->trn1, 16, 32,
         ECF_LINK_NEURONLINK, 384, 128, 512);
    host(&f->p4d, "p4d.24xlarge", &f->a100, 8, 80, ECF_LINK_NVSWITCH, 600, 96,
         1152);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    ecf_zoo_free(f->zoo);
    free(f);
    return 0;
}

static const ecf_model *model(void **state, const char *name)
{
    const ecf_model *m = ecf_zoo_find(((fx *)*state)->zoo, name);
    assert_non_null(m);
    return m;
}

static void run_ok(ecf_estimate *e, const ecf_model *m, ecf_workload *w,
                   const ecf_instance *in)
{
    ecf_err err = ECF_ERR_INIT;
    if (ecf_estimate_run(e, m, w, in, 1, &err) != 0)
        fail_msg("estimate failed: %s", err.msg);
}

/* bert-base, batch 1, sequence 128, bf16 on inf2.xlarge: one NeuronCore
 * runs the compiled graph, the chip's two cores serve two replicas. */
static void test_neuron__encoder_runs_on_one_core(void **state)
{
    fx *f = *state;
    const ecf_model *m = model(state, "bert-base");
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    double s = 128, emb, flops, u, compute_s, mem_s;

    w.task = ECF_TASK_INFER;
    w.precision = ECF_PREC_BF16;
    w.batch_size = 1;
    w.seq_len = 128;
    run_ok(&e, m, &w, &f->inf2_xl);
    /* 190 TFLOPS / 2 cores; 32 GiB / 2; one chip, two replicas */
    assert_float_equal(e.peak_tflops, 95.0, 1e-12);
    assert_int_equal(e.devices, 1);
    assert_int_equal(e.tp_degree, 1);
    assert_int_equal(e.replicas, 2);
    assert_true(e.fits);
    /* The forward by hand: matmul params (the embedding table is a
     * lookup) x 2 x 128 tokens + attention 4 x L x s x heads x head_dim
     * per token; GEMM efficiency U_INFER 0.60 x h / (h + 1024) x U_NEURON
     * 0.80 at h = 768; weights read at U_BW 0.70 of 410 GB/s; no
     * per-forward dispatch. Latency = max(compute, weight reads). */
    emb = (double)m->vocab * m->hidden;
    flops = (2.0 * (m->active_params - emb) +
             4.0 * m->layers * s * m->heads * m->head_dim) *
            s;
    u = 0.60 * 768.0 / (768.0 + 1024.0) * 0.80;
    compute_s = flops / (95e12 * u);
    mem_s = m->params * 2.0 / (410e9 * 0.70);
    assert_true(compute_s > mem_s);
    assert_float_equal(e.latency_ms, compute_s * 1e3, 1e-9);
    /* 1.16 ms against the Neuron performance page's 1.00 ms (P50) */
    assert_true(e.latency_ms > 1.0 && e.latency_ms < 1.3);
    /* two replicas: throughput = 2 / latency */
    assert_float_equal(e.samples_per_s, 2.0 / compute_s, 1e-6);
}

/* Llama 3.1 8B on inf2.48xlarge with the 24 NeuronCores of its 12 chips
 * in one tensor-parallel group (the Neuron performance page's setup). */
static void test_neuron__tensor_parallel_over_24_cores(void **state)
{
    fx *f = *state;
    const ecf_model *m = model(state, "llama-3.1-8b");
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e, e8;
    ecf_err err = ECF_ERR_INIT;

    w.task = ECF_TASK_INFER;
    w.precision = ECF_PREC_BF16;
    w.batch_size = 1;
    w.input_tokens = 128;
    w.output_tokens = 128;
    w.tensor_parallel = 24;
    run_ok(&e, m, &w, &f->inf2_48xl);
    assert_true(e.fits);
    assert_int_equal(e.tp_degree, 24);
    assert_int_equal(e.replicas, 1);
    assert_int_equal(e.devices, 12);
    /* 32 query heads padded to 48 (2 per core) and 8 KV heads replicated
     * to 24: each core reads more than 1/24 of the weights, so TP 24 is
     * slower per token than 24/8 = 3x TP 8 */
    w.tensor_parallel = 8;
    run_ok(&e8, m, &w, &f->inf2_48xl);
    assert_int_equal(e8.tp_degree, 8);
    assert_int_equal(e8.replicas, 3);
    assert_true(e.per_token_ms < e8.per_token_ms);
    assert_true(e.per_token_ms > e8.per_token_ms / 3.0);
    /* GPUs form power-of-two groups that divide the heads: none of 24 */
    w.tensor_parallel = 24;
    run_ok(&e, m, &w, &f->p4d);
    assert_false(e.fits);
    /* odd groups are no NeuronCore count */
    w.tensor_parallel = 3;
    assert_int_equal(ecf_estimate_run(&e, m, &w, &f->inf2_48xl, 1, &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg,
                        "--tensor-parallel: expected a power of two or an "
                        "even NeuronCore count from 1 to 1024, got 3");
}

/* Training keeps the chip as the device (the training model's Neuron
 * rows are calibrated that way): 16 Trainium chips of 190 TFLOPS. */
static void test_neuron__training_keeps_chips(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;

    w.task = ECF_TASK_TRAIN;
    w.precision = ECF_PREC_BF16;
    w.batch_size = 8;
    w.seq_len = 512;
    run_ok(&e, model(state, "bert-large"), &w, &f->trn1_32xl);
    assert_float_equal(e.peak_tflops, 190.0, 1e-12);
    assert_int_equal(e.devices, 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neuron__encoder_runs_on_one_core),
        cmocka_unit_test(test_neuron__tensor_parallel_over_24_cores),
        cmocka_unit_test(test_neuron__training_keeps_chips),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
