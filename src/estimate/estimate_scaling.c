/*
 * estimate_scaling.c - the data and host side of a plan across its nodes
 * (input pipeline, storage, host RAM) that bounds its throughput; the
 * communication formulas (ring all-reduce, gradient sync) are inline in
 * estimate_internal.h, but for the latency of the network stage (below).
 */
#include "ec2fit/estimate.h"
#include "ec2fit/attn_kernels.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "estimate_internal.h"

/* Latency of the network stage of an all-reduce over n nodes. NCCL runs
 * a ring (2(n-1) network steps, one alpha each) or double binary trees
 * (a reduce up and a broadcast down: 2 x floor(log2 n) network levels),
 * whichever its cost model rates faster; at hundreds of nodes the tree's
 * latency is a small fraction of the ring's (docs/estimation.md 6,
 * "Latency across many nodes"). Per tree level: NCCL's hwLat NET Tree
 * Simple, 28 us (NVIDIA/nccl v2.14.3-1 and v2.21.5-1,
 * src/graph/tuning.cc), or the network's own step latency where that is
 * longer (plain TCP). The bandwidth term stays the ring's (grad_sync_s):
 * a tree moves the same 2(n-1)/n x bytes per rank. */
#define NCCL_NET_TREE_LEVEL_S 28e-6

double ecf_est_net_ar_latency_s(int n, double alpha)
{
    double level = alpha > NCCL_NET_TREE_LEVEL_S ? alpha
                                                 : NCCL_NET_TREE_LEVEL_S;
    double ring = 2.0 * (n - 1) * alpha,
           tree = 2.0 * floor(log2((double)n)) * level;
    if (n <= 1)
        return 0;
    return tree < ring ? tree : ring;
}

/* ================================================================ */
/* Data and host                                                     */
/* ================================================================ */

void data_and_host(ecf_estimate *e,
                          const ecf_model *m,
                          const ecf_workload *w,
                          const ecf_instance *inst,
                          const devinfo *d,
                          int nodes)
{
    double per_node_sps = e->samples_per_s / nodes;
    double need = per_node_sps * w->bytes_per_sample / 1e6; /* MB/s */
    double best = storage_path(e, w, inst, nodes);
    double slow = 1;

    e->data_rate_required_mbytes_s = need;
    e->data_rate_available_mbytes_s = best;
    e->decode_slowdown = 1;
    if (need > best && best > 0 && w->task != ECF_TASK_INFER) {
        slow = need / best;
        warn(e,
             "input pipeline needs %.0f MB/s per node but %s gives ~%.0f "
             "MB/s: data-bound, %.1fx slower",
             need, e->data_source, best, slow);
        if (e->storage == ECF_STORAGE_GP3 &&
            e->storage_mbytes_s < GP3_MAX_MBYTES_S)
            warn(e, "provision gp3 throughput (--storage-throughput, up to "
                    "%.0f MB/s) or use --storage fsx",
                 GP3_MAX_MBYTES_S);
    }
    /* JPEG decode + augmentation on host cores: too few vCPUs per device
     * slow the step as surely as a slow disk. */
    e->vcpus_per_accel = (double)inst->vcpu / d->count;
    if (is_vision(m) && m->kind != ECF_KIND_DIFFUSION &&
        w->task != ECF_TASK_INFER && !w->gpu_decode) {
        double per_dev = e->samples_per_s / slow / nodes / d->count;
        e->vcpus_per_accel_needed = per_dev / DECODE_IMAGES_PER_VCPU;
        if (e->vcpus_per_accel_needed > e->vcpus_per_accel &&
            e->vcpus_per_accel > 0) {
            double ds = e->vcpus_per_accel_needed / e->vcpus_per_accel;
            warn(e,
                 "decoding %.0f images/s per device needs ~%.1f vCPUs each "
                 "at %.0f images/s/vCPU; the instance has %.1f: "
                 "decode-bound, %.1fx slower (GPU decoding such as DALI "
                 "lifts it)",
                 per_dev, e->vcpus_per_accel_needed, DECODE_IMAGES_PER_VCPU,
                 e->vcpus_per_accel, ds);
            e->decode_slowdown = ds;
            slow *= ds;
        }
    }
    if (slow > 1) {
        e->step_time_s *= slow;
        e->samples_per_s /= slow;
        e->tokens_per_s /= slow;
        e->throughput /= slow;
        e->time_hours *= slow;
        e->time_samples_per_s /= slow;
        e->data_s = e->step_time_s;
        e->bottleneck = ECF_BN_DATA;
    }
    /* Host RAM: a copy of this node's weights while loading, pinned
     * buffers per device, and the OS/framework. */
    e->host_ram_available_gib = inst->memory_gib;
    if (d->cpu)
        e->host_ram_needed_gib =
            e->memory.total_per_device_gib +
            (inst->memory_gib * CPU_OS_RESERVE_FRAC > CPU_OS_RESERVE_MIN_GIB
                 ? inst->memory_gib * CPU_OS_RESERVE_FRAC
                 : CPU_OS_RESERVE_MIN_GIB);
    else {
        /* Serving engines stream memory-mapped safetensors to the devices
         * shard by shard, so the host holds one shard at a time (Hugging
         * Face writes shards of at most 5 GB); training stages the whole
         * copy (optimizer and sharded-state set-up). */
        double staged = e->memory.weights_gib * e->devices;
        if (!ecf_task_is_training(w->task) && staged > HOST_SHARD_GIB)
            staged = HOST_SHARD_GIB;
        /* pinned buffers per accelerator (per chip: a Neuron serving
         * plan counts NeuronCores in e->devices) */
        e->host_ram_needed_gib =
            staged + HOST_PER_DEVICE_GIB * inst->accel_count +
            HOST_RESERVE_GIB +
            e->memory.host_offload_gib * e->devices; /* --offload */
    }
    if (w->offload == ECF_OFFLOAD_OPTIMIZER && e->memory.host_offload_gib <= 0 &&
        ecf_task_is_training(w->task))
        assume(e, "--offload optimizer: not applied on %s (DeepSpeed, FSDP "
                  "and bitsandbytes offload from CUDA devices)",
               d->label);
    /* --attention flash2|cudnn|flash3 (docs/estimation.md 5.3, "Attention
     * kernel"): say where the kernel's measured rate was used, and where it
     * was not, so the flag is never silently ignored */
    if (w->attn_kernel != ECF_ATTN_AUTO && ecf_task_is_training(w->task)) {
        int s = w->packing && w->mean_seq_len > 0 ? w->mean_seq_len
                                                  : w->seq_len;
        bool used = d->gen == GEN_HOPPER && !d->cpu &&
                    (e->precision == ECF_PREC_BF16 ||
                     e->precision == ECF_PREC_FP16 ||
                     e->precision == ECF_PREC_FP8);
        if (used)
            assume(e,
                   "--attention %s: the attention core at the kernel's "
                   "measured H100 rate, %.0f%% of the 16-bit peak at %d "
                   "tokens (FlashAttention-3 paper, figs. 4-5)",
                   ecf_attn_kernel_name(w->attn_kernel),
                   100.0 * ecf_attn_kernel_hopper_eff(w->attn_kernel, s), s);
        else
            assume(e,
                   "--attention %s: not applied on %s in %s (the kernel "
                   "figures are H100 measurements); the attention core "
                   "keeps the GEMM rate",
                   ecf_attn_kernel_name(w->attn_kernel), d->label,
                   ecf_precision_name(e->precision));
    }
    if (e->memory.host_offload_gib > 0)
        assume(e,
               "--offload optimizer: %.1f GiB of optimizer state per device "
               "in host RAM (%.0f GiB on the node); the host-side Adam step "
               "and the weights' return over PCIe add %.2f s per step",
               e->memory.host_offload_gib,
               e->memory.host_offload_gib * e->devices,
               offload_step_s(&e->memory, w, e->precision, d));
    /* Below the need it is a warning (safetensors are memory-mapped, so
     * loading still works, slowly); below half of it, checkpoint loading
     * and pinned staging swap, and the host is the bottleneck. */
    if (!d->cpu && e->host_ram_needed_gib > e->host_ram_available_gib) {
        warn(e,
             "host RAM %.0f GiB is below the ~%.0f GiB needed to stage "
             "weights and pinned buffers",
             e->host_ram_available_gib, e->host_ram_needed_gib);
        if (e->host_ram_available_gib < 0.5 * e->host_ram_needed_gib &&
            e->bottleneck != ECF_BN_DATA)
            e->bottleneck = ECF_BN_HOST_MEMORY;
    }
}
