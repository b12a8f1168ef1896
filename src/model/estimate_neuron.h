/*
 * estimate_neuron.h - Neuron (Inferentia / Trainium) serving topology,
 * internal to src/model: the NeuronCore as the serving device, the
 * tensor-parallel group sizes NeuronX libraries form, and the cost of the
 * attention heads they pad (docs/estimation.md 7, "AWS Neuron").
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

/* Weights (and KV cache) per core after head padding, relative to an even
 * split: query/output projections padded to ceil(heads / tp) heads per
 * core, KV heads replicated up to one per core. 1 off Neuron. */
double ecf_est_neuron_pad_factor(const ecf_model *m, const devinfo *d,
                                 int tp, double *kv_factor);

#endif
