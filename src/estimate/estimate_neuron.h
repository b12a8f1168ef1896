/*
 * estimate_neuron.h - Neuron (Inferentia / Trainium) serving topology,
 * internal to src/model: the NeuronCore as the serving device, the
 * tensor-parallel group sizes NeuronX libraries form, the cost of the
 * attention heads they pad and of the runtime's collectives between cores
 * (docs/estimation.md 7, "AWS Neuron").
 */
#ifndef EC2FIT_MODEL_ESTIMATE_NEURON_H
#define EC2FIT_MODEL_ESTIMATE_NEURON_H

#include <stdbool.h>

#include "estimate_internal.h"

/* NeuronCores a Neuron chip exposes to the runtime, by catalog generation:
 * neuron-v1 (Inferentia) 4, neuron-v2 (Inferentia2, Trainium) 2,
 * neuron-v3 (Trainium2) 4 logical (8 physical, LNC=2 by default); 1 for
 * anything else. */
int ecf_est_neuron_cores_per_chip(const char *generation);

/* ecf_est_neuron_core_view (declared in estimate_internal.h, which
 * estimate.c includes): serving on Neuron, the device is the NeuronCore;
 * count x cores, memory, bandwidth and link / cores, *peak / cores. */

/* The next tensor-parallel group size after `tp`: doubling, and on Neuron
 * the whole core count when it is not a power of two (24 on
 * inf2.48xlarge, 12 on inf2.24xlarge). */
static inline int serve_tp_next(const devinfo *d, int tp)
{
    if (d->gen == GEN_NEURON && tp < d->count && tp * 2 > d->count)
        return d->count;
    return tp * 2;
}

/* Whether a transformer can be split over `tp` devices: the group must
 * divide the devices; on GPUs it must divide the heads too, while NeuronX
 * libraries pad the query heads up to a multiple of tp and replicate the
 * KV heads (transformers-neuronx / NxD Inference). */
static inline bool serve_tp_ok(const ecf_model *m, const devinfo *d, int tp)
{
    if (tp <= 1)
        return true;
    if (d->count % tp != 0)
        return false;
    if (d->gen == GEN_NEURON)
        return true;
    return m->heads > 0 && m->heads % tp == 0;
}

/* Weights per core after head padding, relative to an even split:
 * query/output projections padded to ceil(heads / tp) heads per core, KV
 * heads replicated up to one per core. *kv_factor: the KV cache a decode
 * step reads per core relative to an even split, once per query head
 * (the NeuronX attention broadcasts K and V to the query heads, repeat_kv,
 * before both matmuls). 1 off Neuron. */
double ecf_est_neuron_pad_factor(const ecf_model *m, const devinfo *d,
                                 int tp, double *kv_factor);

/* All-reduce of `bytes` over `n` NeuronCores with the algorithm the Neuron
 * runtime picks by message size (docs/estimation.md 7, "Collectives
 * between cores"): Mesh under 1 MB (two routed hops whatever n), RDH to
 * 56 MB (2 log2 n hops), KangaRing above (n - 1 hops); each pays the
 * measured time of a small two-hop all-reduce, hops beyond two d's
 * per-hop latency, and the ring's bytes at d's link bandwidth, at most
 * the measured all-reduce bus bandwidth of a NeuronCore (56.7 GB/s). */
double ecf_est_neuron_allreduce_s(const devinfo *d, double bytes, int n);

/* Compiled-shape buckets (transformers-neuronx / NxD Inference default
 * bucketing: powers of two from 128, the last one the compiled sequence
 * length): a prompt of `s_in` tokens runs the context-encoding graph of the
 * smallest bucket that holds it, and a decode step attends over the whole
 * token-generation bucket of its position. */
double ecf_est_neuron_bucket(double tokens, double max_tokens);

/* Tokens the prefill of an `s_in`-token prompt computes: on Neuron its
 * context-encoding bucket (within the compiled s_in + s_out), else s_in. */
static inline double
ecf_est_neuron_prompt_tokens(const devinfo *d, double s_in, double s_out)
{
    if (d->gen != GEN_NEURON || s_in <= 0)
        return s_in;
    return ecf_est_neuron_bucket(s_in, s_in + (s_out > 0 ? s_out : 0));
}

/* Mean KV-cache context a decode step reads over `s_out` steps after an
 * `s_in`-token prompt when each step reads its whole token-generation
 * bucket, over the mean actual context s_in + s_out / 2. */
double ecf_est_neuron_kv_bucket_ratio(double s_in, double s_out);

/* The KV read of a decode step relative to the actual context: the
 * bucket ratio on Neuron, 1 elsewhere. */
static inline double
ecf_est_neuron_kv_bucket_factor(const devinfo *d, double s_in, double s_out)
{
    if (d->gen != GEN_NEURON || s_out < 1 || s_in < 0)
        return 1.0;
    return ecf_est_neuron_kv_bucket_ratio(s_in, s_out);
}

/* The tensor-parallel all-reduce of a serving step: the Neuron runtime's
 * algorithms on Neuron, the node's link (link_allreduce_s) elsewhere. */
static inline double serve_allreduce_s(const devinfo *d, double bytes, int n)
{
    if (d->gen == GEN_NEURON)
        return ecf_est_neuron_allreduce_s(d, bytes, n);
    return link_allreduce_s(d, bytes, n);
}

#endif
