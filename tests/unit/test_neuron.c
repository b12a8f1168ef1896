/*
 * test_neuron.c - Neuron serving topology (src/estimate/estimate_neuron.c):
 * the NeuronCore as the serving device (per-core peak, HBM and bandwidth,
 * one replica per core), tensor parallelism over NeuronCore counts that are
 * not powers of two, no per-forward dispatch, the chip view kept for
 * training, the runtime's all-reduce algorithms by message size and the
 * default compiled-shape buckets. Instances are built from the
 * Inferentia2 / Trainium datasheet (Neuron docs: 2 NeuronCore-v2, 190 bf16
 * TFLOPS, 32 GiB, 820 GB/s each).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/estimate.h"
#include "ec2fit/zoo.h"
#include "estimate_fx.h"
#include "estimate_neuron.h"

typedef struct {
    ecf_zoo *zoo;
    ecf_accel inf2, trn1, a100;
    ecf_instance inf2_xl, inf2_48xl, trn1_32xl, trn1_efa, p4d;
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
         16, 100, 0);
    host(&f->inf2_48xl, "inf2.48xlarge", &f->inf2, 12, 32,
         ECF_LINK_NEURONLINK, 206.2, 192, 768, 100, 0);
    host(&f->trn1_32xl, "trn1.32xlarge", &f->trn1, 16, 32,
         ECF_LINK_NEURONLINK, 384, 128, 512, 100, 0);
    /* with the datasheet's 800 Gbps of EFA, as the published runs had */
    host(&f->trn1_efa, "trn1.32xlarge", &f->trn1, 16, 32,
         ECF_LINK_NEURONLINK, 384, 128, 512, 800, 800);
    host(&f->p4d, "p4d.24xlarge", &f->a100, 8, 80, ECF_LINK_NVSWITCH, 600, 96,
         1152, 100, 0);
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
    return zoo_model(((fx *)*state)->zoo, name);
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
    run_ok(&e, m, &w, &f->inf2_xl, 1);
    /* 190 TFLOPS / 2 cores; 32 GiB / 2; one chip, two replicas */
    assert_float_equal(e.peak_tflops, 95.0, 1e-12);
    assert_int_equal(e.devices, 1);
    assert_int_equal(e.tp_degree, 1);
    assert_int_equal(e.replicas, 2);
    assert_true(e.fits);
    /* The forward by hand: matmul params (the embedding table is a
     * lookup) x 2 x 128 tokens + attention 4 x L x s x heads x head_dim
     * per token; GEMM efficiency the Neuron page's published Trn1 MFU
     * (NEURON_MFU 0.276) x U_INFER 0.60 / U_TRAIN 0.56, whatever the width;
     * weights read at U_BW 0.70 of 410 GB/s; no per-forward dispatch.
     * Latency = max(compute, weight reads). */
    emb = (double)m->vocab * m->hidden;
    flops = (2.0 * (m->active_params - emb) +
             4.0 * m->layers * s * m->heads * m->head_dim) *
            s;
    u = 0.276 * 0.60 / 0.56;
    compute_s = flops / (95e12 * u);
    mem_s = m->params * 2.0 / (410e9 * 0.70);
    assert_true(compute_s > mem_s);
    assert_float_equal(e.latency_ms, compute_s * 1e3, 1e-9);
    /* 0.81 ms against the Neuron performance page's 1.00 ms (P50) */
    assert_true(e.latency_ms > 0.75 && e.latency_ms < 1.0);
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
    run_ok(&e, m, &w, &f->inf2_48xl, 1);
    assert_true(e.fits);
    assert_int_equal(e.tp_degree, 24);
    assert_int_equal(e.replicas, 1);
    assert_int_equal(e.devices, 12);
    /* 32 query heads padded to 48 (2 per core) and 8 KV heads replicated
     * to 24: each core reads more than 1/24 of the weights, so TP 24 is
     * slower per token than 24/8 = 3x TP 8 */
    w.tensor_parallel = 8;
    run_ok(&e8, m, &w, &f->inf2_48xl, 1);
    assert_int_equal(e8.tp_degree, 8);
    assert_int_equal(e8.replicas, 3);
    assert_true(e.per_token_ms < e8.per_token_ms);
    assert_true(e.per_token_ms > e8.per_token_ms / 3.0);
    /* GPUs form power-of-two groups that divide the heads: none of 24 */
    w.tensor_parallel = 24;
    run_ok(&e, m, &w, &f->p4d, 1);
    assert_false(e.fits);
    /* odd groups are no NeuronCore count */
    w.tensor_parallel = 3;
    assert_int_equal(ecf_estimate_run(&e, m, &w, &f->inf2_48xl, 1, &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg,
                        "--tensor-parallel: expected a power of two or an "
                        "even NeuronCore count from 1 to 1024, got 3");
}

/* Training runs one worker per NeuronCore, as serving does (PyTorch-
 * NeuronX: two per Trainium chip): 32 cores of 95 TFLOPS and 16 GiB on
 * trn1.32xlarge; e->devices stays the 16 chips. */
static void test_neuron__training_per_core(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;

    w.task = ECF_TASK_TRAIN;
    w.precision = ECF_PREC_BF16;
    w.batch_size = 8;
    w.seq_len = 512;
    run_ok(&e, model(state, "bert-large"), &w, &f->trn1_32xl, 1);
    assert_float_equal(e.peak_tflops, 95.0, 1e-12);
    assert_float_equal(e.memory.available_per_device_gib, 16.0, 1e-9);
    assert_int_equal(e.devices, 16);
    assert_int_equal(e.dp_degree * e.tp_degree * e.pp_degree, 32);
    /* Trn1 training GEMMs run at NEURON_TRAIN_GEMM, derived from the MFUs
     * the Neuron performance page publishes (below), with no width term:
     * BERT-large (h 1024) and Llama 2 70B (h 8192) get the same 30.5% */
    assert_float_equal(e.utilization, 0.305, 1e-12);
    w.batch_size = 1;
    w.seq_len = 4096;
    run_ok(&e, model(state, "llama-2-70b"), &w, &f->trn1_32xl, 32);
    assert_float_equal(e.utilization, 0.305, 1e-12);
    assert_int_equal(e.parallelism, ECF_PAR_NXD);
}

/* A GPT-3-style decoder (4h GELU MLP, learned positions, tied
 * embeddings, vocabulary 50,257) of the given shape. */
static ecf_model gpt3(int layers, int hidden, int heads)
{
    ecf_model c;
    memset(&c, 0, sizeof(c));
    snprintf(c.name, sizeof(c.name), "gpt3-%dL", layers);
    c.kind = ECF_KIND_DECODER;
    c.layers = layers;
    c.hidden = hidden;
    c.heads = c.kv_heads = heads;
    c.head_dim = hidden / heads;
    c.intermediate = 4 * hidden;
    c.vocab = 50257;
    c.max_context = 2048;
    c.tie_embeddings = true;
    c.params = c.active_params = ecf_model_transformer_params(
        &c, ECF_TF_LINEAR_BIAS | ECF_TF_LEARNED_POS | ECF_TF_LAYERNORM, NULL);
    c.default_batch = 1;
    c.default_seq_len = 2048;
    return c;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* NEURON_TRAIN_GEMM re-derived (docs/estimation.md 5.3, "Neuron"): the
 * ten bf16 Trn1 MFUs of trn1_trn1n_nlp_data.csv (SDK 2.13-2.15) are end
 * to end; for each, u_i = MFU_i x u / (the estimator's own model-FLOPs
 * utilisation of that run at u), the GEMM efficiency at which the step
 * the estimator builds (its exposed communication, attention-score
 * traffic) reproduces MFU_i. Their median must be the constant: a change
 * to those terms moves it and this test says so. */
static void test_neuron__train_gemm_from_published_mfu(void **state)
{
    fx *f = *state;
    static const struct {
        const char *model; /* zoo name, or NULL: GPT-3 of `layers` */
        int layers, hidden, heads, nodes, batch, seq;
        double mfu;
    } rows[10] = {
        /* BERT-large ph1/ph2 (micro-batch per NeuronCore) */
        {"bert-large", 0, 0, 0, 16, 16, 128, 25.83},
        {"bert-large", 0, 0, 0, 16, 2, 512, 15.5},
        {"bert-large", 0, 0, 0, 1, 16, 128, 27.49},
        {"bert-large", 0, 0, 0, 1, 16, 128, 29.07},
        /* NeMo GPT-3 23B / 46B (neuronx-nemo-megatron gpt_23b.sh,
         * gpt_46b.sh: 28 / 56 layers, h 8192, 64 heads) and 175B */
        {NULL, 28, 8192, 64, 32, 1, 2048, 29.65},
        {NULL, 56, 8192, 64, 32, 1, 2048, 27.7},
        {NULL, 96, 12288, 96, 32, 1, 2048, 33.14},
        /* Llama 2 7B / 13B NeMo, 7B NxD */
        {"llama-2-7b", 0, 0, 0, 32, 1, 4096, 14.8},
        {"llama-2-13b", 0, 0, 0, 32, 1, 4096, 20.7},
        {"llama-2-7b", 0, 0, 0, 16, 1, 4096, 30.8},
    };
    double u[10], med;
    int i;

    for (i = 0; i < 10; i++) {
        ecf_workload w = ECF_WORKLOAD_INIT;
        ecf_estimate e;
        ecf_model g;
        const ecf_model *m = rows[i].model ? model(state, rows[i].model)
                                           : &g;
        double mfu_est;
        if (!rows[i].model)
            g = gpt3(rows[i].layers, rows[i].hidden, rows[i].heads);
        w.task = ECF_TASK_TRAIN;
        w.precision = ECF_PREC_BF16;
        w.batch_size = rows[i].batch;
        w.seq_len = rows[i].seq;
        run_ok(&e, m, &w, &f->trn1_efa, rows[i].nodes);
        /* model FLOPs: recomputation's extra forward is not counted */
        mfu_est = e.flops_per_step * (e.activation_checkpointing ? 0.75 : 1) /
                  e.step_time_s /
                  ((double)e.tp_degree * e.dp_degree * e.pp_degree *
                   e.peak_tflops * 1e12);
        u[i] = rows[i].mfu / 100.0 * e.utilization / mfu_est;
    }
    qsort(u, 10, sizeof(u[0]), cmp_double);
    med = 0.5 * (u[4] + u[5]);
    assert_true(fabs(med - 0.305) < 0.003);
}

/* A NeuronCore of trn1.32xlarge as serving sees it: 384 GB/s of
 * NeuronLink per chip shared by its 2 cores, 2 us per core hop. */
static devinfo trn1_core(void)
{
    devinfo d;
    memset(&d, 0, sizeof(d));
    d.gen = GEN_NEURON;
    d.count = 32;
    d.link_gbytes_s = 192.0;
    d.alpha_link = 2e-6;
    return d;
}

/* The runtime's algorithm by size (intra-node collective communication:
 * Mesh < 1 MB, RDH 1-56 MB, KangaRing above), each paying the 58 us the
 * nccom-test guide measured for a small all-reduce on one Trn1 instance,
 * extra hops at 2 us, and the ring's bytes at the same guide's measured
 * all-reduce bus bandwidth (52.83 GiB/s = 56.7 GB/s), below 70% of a Trn1
 * core's link share (134 GB/s). */
static void test_neuron__allreduce_by_message_size(void **state)
{
    devinfo d = trn1_core(), gpu = trn1_core(), slow = trn1_core();
    double bytes_s = 56.7e9, b;
    (void)state;
    /* Mesh: a decode step's 8 KiB (batch 1 x h 4096 x 2 bytes) costs
     * the measured small all-reduce at any rank count: O(1) steps */
    b = 8192;
    assert_float_equal(ecf_est_neuron_allreduce_s(&d, b, 32),
                       58e-6 + 2.0 * 31 / 32 * b / bytes_s, 1e-12);
    assert_float_equal(ecf_est_neuron_allreduce_s(&d, b, 2),
                       58e-6 + b / bytes_s, 1e-12);
    assert_true(ecf_est_neuron_allreduce_s(&d, b, 32) -
                    ecf_est_neuron_allreduce_s(&d, b, 2) <
                1e-6); /* the bytes' 2(n - 1)/n only: 0.14 us */
    /* RDH: 4 MiB over 32 ranks, log2 32 = 5 hops each way */
    b = 4194304;
    assert_float_equal(ecf_est_neuron_allreduce_s(&d, b, 32),
                       58e-6 + 8 * 2e-6 + 2.0 * 31 / 32 * b / bytes_s,
                       1e-12);
    /* KangaRing: 64 MiB, the ring's 62 hops halved to 31 */
    b = 67108864;
    assert_float_equal(ecf_est_neuron_allreduce_s(&d, b, 32),
                       58e-6 + 29 * 2e-6 + 2.0 * 31 / 32 * b / bytes_s,
                       1e-12);
    /* the guide's own 2-rank sweep: 1 GiB took 18,930 us */
    b = 1073741824;
    assert_true(fabs(ecf_est_neuron_allreduce_s(&d, b, 2) - 18930e-6) <
                0.01 * 18930e-6);
    /* a link slower than the measured bus bandwidth still limits it */
    slow.link_gbytes_s = 40.0;
    b = 4194304;
    assert_float_equal(ecf_est_neuron_allreduce_s(&slow, b, 32),
                       58e-6 + 8 * 2e-6 + 2.0 * 31 / 32 * b / 28e9, 1e-12);
    /* one rank, nothing to reduce */
    assert_float_equal(ecf_est_neuron_allreduce_s(&d, b, 1), 0, 0);
    /* off Neuron the serving step keeps the ring: 2(n - 1) hops */
    gpu.gen = GEN_HOPPER;
    b = 8192;
    assert_float_equal(serve_allreduce_s(&gpu, b, 8),
                       2.0 * 7 / 8 * b / (192e9 * 0.7) + 14 * 2e-6, 1e-12);
}

/* Default buckets (transformers-neuronx / NxD Inference: powers of two
 * from 128, the last the compiled sequence length). */
static void test_neuron__buckets(void **state)
{
    devinfo d = trn1_core(), gpu = trn1_core();
    (void)state;
    gpu.gen = GEN_AMPERE;
    assert_float_equal(ecf_est_neuron_bucket(100, 4096), 128, 0);
    assert_float_equal(ecf_est_neuron_bucket(128, 4096), 128, 0);
    assert_float_equal(ecf_est_neuron_bucket(129, 4096), 256, 0);
    assert_float_equal(ecf_est_neuron_bucket(3000, 4000), 4000, 0);
    /* a prompt runs the context-encoding graph of its bucket */
    assert_float_equal(ecf_est_neuron_prompt_tokens(&d, 1000, 24), 1024, 0);
    assert_float_equal(ecf_est_neuron_prompt_tokens(&d, 4096, 4096), 4096, 0);
    assert_float_equal(ecf_est_neuron_prompt_tokens(&gpu, 1000, 24), 1000, 0);
    /* 128 in + 3968 out: decode positions 129..4096 read buckets 256..4096,
     * sum 128 x 256 + 256 x 512 + 512 x 1024 + 1024 x 2048 + 2048 x 4096 =
     * 11,173,888 = 3968 x 2816 tokens, over the mean context 2112 */
    assert_float_equal(ecf_est_neuron_kv_bucket_factor(&d, 128, 3968),
                       2816.0 / 2112.0, 1e-12);
    assert_float_equal(ecf_est_neuron_kv_bucket_factor(&gpu, 128, 3968), 1.0,
                       0);
}

/* The KV cache a decode step reads is read once per query head (the
 * NeuronX attention broadcasts K and V to the query heads, repeat_kv):
 * Llama 3.1 8B (32 query, 8 KV heads) at TP 24 pads to 48 query heads, 2
 * per core, so the cores read 48 heads' worth of KV, 6x the 8 KV heads;
 * at TP 32, 1 query head per core: 4x; at TP 1 the 4 query heads of each
 * group: 4x. Llama 2 7B (MHA, 32 + 32) at TP 24: 48 / 32 = 1.5x. Weights:
 * q and o padded to 48 heads (+50%), k and v replicated to 24 (x3). */
static void test_neuron__kv_read_per_query_head(void **state)
{
    const ecf_model *m8 = model(state, "llama-3.1-8b");
    const ecf_model *m7 = model(state, "llama-2-7b");
    devinfo d = trn1_core(), gpu = trn1_core();
    double kv, w, qo, kvw;
    gpu.gen = GEN_HOPPER;
    w = ecf_est_neuron_pad_factor(m8, &d, 24, &kv);
    assert_float_equal(kv, 6.0, 1e-12);
    qo = 2.0 * m8->hidden * 32 * m8->head_dim;
    kvw = 2.0 * m8->hidden * 8 * m8->head_dim;
    assert_float_equal(w, 1.0 + m8->layers * (qo * 0.5 + kvw * 2.0) /
                                     m8->params,
                       1e-12);
    ecf_est_neuron_pad_factor(m8, &d, 32, &kv);
    assert_float_equal(kv, 4.0, 1e-12);
    assert_float_equal(ecf_est_neuron_pad_factor(m8, &d, 1, &kv), 1.0, 0);
    assert_float_equal(kv, 4.0, 1e-12);
    ecf_est_neuron_pad_factor(m7, &d, 24, &kv);
    assert_float_equal(kv, 1.5, 1e-12);
    assert_float_equal(ecf_est_neuron_pad_factor(m8, &gpu, 24, &kv), 1.0, 0);
    assert_float_equal(kv, 1.0, 0);
}

/* Llama 3 8B, int8 weights, batch 1, 128 + 3968 tokens, TP 32 on
 * trn1.32xlarge: the Neuron performance page measures 5.86 ms per output
 * token (transformers-neuronx, Neuron 2.18.1). 64 Mesh all-reduces of
 * 58 us each are 3.7 ms of it; the ring (62 hops x 2 us) charged 7.9 ms. */
static void test_neuron__trn1_tp32_decode(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;

    w.task = ECF_TASK_INFER;
    w.precision = ECF_PREC_INT8;
    w.batch_size = 1;
    w.input_tokens = 128;
    w.output_tokens = 3968;
    w.tensor_parallel = 32;
    run_ok(&e, model(state, "llama-3.1-8b"), &w, &f->trn1_32xl, 1);
    assert_int_equal(e.tp_degree, 32);
    /* int8 weight storage, bf16 matmuls (transformers-neuronx
     * QuantizationConfig): a core's bf16 rate, not its int8 one */
    assert_float_equal(e.peak_tflops, 190.0 / 2, 1e-9);
    assert_float_equal(e.serve.allreduce_ms,
                       64 * (58e-3 + 2.0 * 31 / 32 * 8192 / 56.7e6), 1e-9);
    assert_true(e.per_token_ms > 5.86 * 0.8 && e.per_token_ms < 5.86 * 1.2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neuron__encoder_runs_on_one_core),
        cmocka_unit_test(test_neuron__tensor_parallel_over_24_cores),
        cmocka_unit_test(test_neuron__training_per_core),
        cmocka_unit_test(test_neuron__allreduce_by_message_size),
        cmocka_unit_test(test_neuron__buckets),
        cmocka_unit_test(test_neuron__kv_read_per_query_head),
        cmocka_unit_test(test_neuron__trn1_tp32_decode),
        cmocka_unit_test(test_neuron__train_gemm_from_published_mfu),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
