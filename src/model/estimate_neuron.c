/*
 * estimate_neuron.c - Neuron (Inferentia / Trainium) serving topology: the
 * NeuronCores per chip, the per-core device a compiled graph runs on, and
 * the weight cost of the attention heads NeuronX libraries pad for tensor
 * parallelism (docs/estimation.md 7, "AWS Neuron", has the sources).
 */
#include "estimate_neuron.h"

#include <string.h>

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
    if (d->gen != GEN_NEURON || tp <= 1 || heads <= 0 || m->head_dim <= 0 ||
        m->params <= 0 || m->kv_dim_per_layer > 0)
        return 1.0;
    /* query heads rounded up to a multiple of tp; KV heads replicated so
     * that every core holds at least one */
    qh_core = (heads + tp - 1) / tp;
    kvh_core = (kvh + tp - 1) / tp;
    fq = (double)qh_core * tp / heads;
    fkv = (double)kvh_core * tp / kvh;
    qo = 2.0 * m->hidden * (double)heads * m->head_dim;
    kv = 2.0 * m->hidden * (double)kvh * m->head_dim;
    extra = m->layers * (qo * (fq - 1.0) + kv * (fkv - 1.0));
    if (kv_factor)
        *kv_factor = fkv;
    return 1.0 + extra / m->params;
}
