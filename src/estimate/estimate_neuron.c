/*
 * estimate_neuron.c - Neuron (Inferentia / Trainium) serving topology: the
 * NeuronCores per chip, the per-core device a compiled graph runs on, and
 * the weight cost of the attention heads NeuronX libraries pad for tensor
 * parallelism, and the all-reduce algorithms the Neuron runtime picks by
 * message size (docs/estimation.md 7, "AWS Neuron", has the sources).
 */
#include "estimate_neuron.h"

#include <string.h>

/* A small all-reduce on one Trn1 instance takes 58 us from 1 KiB to 256
 * KiB (2 ranks; 68 us at 1 MiB): nccom-test user guide, single-instance
 * example, Neuron SDK 2.10 (aws-neuron/aws-neuron-sdk
 * tools/neuron-sys-tools/nccom-test.rst). Its two steps (reduce-scatter,
 * all-gather) are the hops of a Mesh all-reduce at any rank count. */
#define NEURON_CC_SMALL_AR_S 58e-6
/* The same sweep's bandwidth: the 2-rank all-reduce's bus bandwidth
 * (2(n - 1)/n x size / time, the guide's "busbw") levels off at 52.83
 * GiB/s = 56.7 GB/s (47.1 GiB/s at 16 MiB, 51.5 at 64 MiB, 52.8 at 1
 * GiB), below the core's NeuronLink share x LINK_EFFICIENCY (Trn1 134
 * GB/s, Inf2 72 GB/s). The guide defines busbw as independent of the
 * rank count, so it caps the transfer term at any n. */
#define NEURON_CC_BUSBW_BYTES_S 56.7e9
/* The runtime's algorithm ranges, "sweet range (empirically)": Mesh under
 * 1 MB, RDH 1-56 MB, KangaRing above (Neuron docs, intra-node collective
 * communication, algorithm summary). */
#define NEURON_MESH_MAX_BYTES 1e6
#define NEURON_RDH_MAX_BYTES  56e6
/* Smallest default bucket: "powers of 2 starting from 128 tokens"
 * (transformers-neuronx developer guide, bucketing, Neuron 2.18; NxD
 * Inference feature guide, automatic bucketing). */
#define NEURON_BUCKET_MIN 128.0

int ecf_est_neuron_cores_per_chip(const char *generation)
{
    if (!generation)
        return 1;
    if (strcmp(generation, "neuron-v1") == 0)
        return 4; /* Inferentia: four NeuronCore-v1 */
    if (strcmp(generation, "neuron-v2") == 0)
        return 2; /* Inferentia2, Trainium: two NeuronCore-v2 */
    if (strcmp(generation, "neuron-v3") == 0)
        return 4; /* Trainium2: eight NeuronCore-v3, LNC=2 by default */
    return 1;
}

int ecf_estimate_neuron_cores(const ecf_instance *inst)
{
    return inst && inst->accel
               ? ecf_est_neuron_cores_per_chip(inst->accel->generation)
               : 1;
}

int ecf_est_neuron_core_view(devinfo *d, const ecf_instance *inst,
                             double *peak)
{
    int cores;
    if (d->gen != GEN_NEURON || !inst->accel)
        return 1;
    cores = ecf_est_neuron_cores_per_chip(inst->accel->generation);
    if (cores <= 1)
        return 1;
    d->count *= cores;
    d->mem_gib /= cores;
    d->bw_gbytes_s /= cores;
    *peak /= cores;
    if (inst->accel_count > 1) {
        /* the chip's NeuronLink ports are shared by its cores */
        d->link_gbytes_s /= cores;
    } else {
        /* one chip: its cores exchange through the chip's own
         * collectives engine, not PCIe */
        d->link_gbytes_s = LINK_NEURON_GBYTES_S;
    }
    d->alpha_link = ALPHA_NEURON_CORE; /* ranks are cores: core hops */
    return cores;
}

double ecf_est_neuron_pad_factor(const ecf_model *m, const devinfo *d,
                                 int tp, double *kv_factor)
{
    double qo, kv, fq, fkv, extra;
    int heads = m->heads, kvh = m->kv_heads > 0 ? m->kv_heads : m->heads;
    int qh_core, kvh_core;

    if (kv_factor)
        *kv_factor = 1.0;
    if (d->gen != GEN_NEURON || heads <= 0 || m->head_dim <= 0 ||
        m->params <= 0 || m->kv_dim_per_layer > 0)
        return 1.0;
    if (tp < 1)
        tp = 1;
    /* query heads rounded up to a multiple of tp; KV heads replicated so
     * that every core holds at least one */
    qh_core = (heads + tp - 1) / tp;
    kvh_core = (kvh + tp - 1) / tp;
    fq = (double)qh_core * tp / heads;
    fkv = (double)kvh_core * tp / kvh;
    qo = 2.0 * m->hidden * (double)heads * m->head_dim;
    kv = 2.0 * m->hidden * (double)kvh * m->head_dim;
    extra = m->layers * (qo * (fq - 1.0) + kv * (fkv - 1.0));
    /* decode attention reads K and V once per query head: both NeuronX
     * libraries broadcast the cache to the rank's query heads before the
     * score and context matmuls (transformers-neuronx hlo.repeat_kv in
     * layers/attention.py score / context; NxD Inference
     * attention_base.py compute_for_token_gen, repeat_kv by
     * num_key_value_groups) */
    if (kv_factor)
        *kv_factor = (double)qh_core * tp / kvh;
    return 1.0 + extra / m->params;
}

double ecf_est_neuron_allreduce_s(const devinfo *d, double bytes, int n)
{
    double hops = 2.0; /* Mesh: one routed step each way, O(1) in n */
    double bw;
    int k = 0;
    if (n <= 1 || d->link_gbytes_s <= 0)
        return 0;
    if (bytes >= NEURON_RDH_MAX_BYTES) {
        hops = n - 1.0; /* KangaRing: the ring's 2(n - 1) hops halved */
    } else if (bytes >= NEURON_MESH_MAX_BYTES) {
        while ((1 << k) < n && k < 30)
            k++;
        hops = 2.0 * k; /* RDH: ceil(log2 n) steps each way */
    }
    if (hops < 2.0)
        hops = 2.0;
    bw = d->link_gbytes_s * 1e9 * LINK_EFFICIENCY;
    if (bw > NEURON_CC_BUSBW_BYTES_S)
        bw = NEURON_CC_BUSBW_BYTES_S; /* the measured bus bandwidth */
    return NEURON_CC_SMALL_AR_S + (hops - 2.0) * d->alpha_link +
           2.0 * (n - 1) / n * bytes / bw;
}

double ecf_est_neuron_bucket(double tokens, double max_tokens)
{
    double b = NEURON_BUCKET_MIN;
    while (b < tokens)
        b *= 2.0;
    if (max_tokens >= tokens && b > max_tokens)
        b = max_tokens; /* the last bucket is the sequence length */
    return b;
}

double ecf_est_neuron_kv_bucket_ratio(double s_in, double s_out)
{
    /* positions s_in + 1 .. s_in + s_out, summed bucket by bucket: every
     * position in (lo, hi] reads bucket hi; the last bucket is n */
    double first = s_in + 1.0, n = s_in + s_out, sum = 0, lo = 0, hi, a, z;
    if (s_out < 1 || s_in < 0)
        return 1.0;
    for (hi = NEURON_BUCKET_MIN; lo < n; lo = hi, hi *= 2.0) {
        if (hi > n)
            hi = n;
        if (hi < first)
            continue;
        a = first > lo + 1.0 ? first : lo + 1.0;
        z = n < hi ? n : hi;
        sum += (z - a + 1.0) * hi;
    }
    return sum / s_out / (s_in + s_out / 2.0);
}
