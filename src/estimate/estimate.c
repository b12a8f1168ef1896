/*
 * estimate.c - the analytical estimator's entry points, device description
 * and notes (docs/estimation.md has every formula with its source; the
 * constants, model arithmetic and utilisation are estimate_internal.h's).
 * The phases are estimate_workload.c, estimate_memory.c,
 * estimate_scaling.c, estimate_train.c and estimate_serve.c.
 *
 * Pure: no I/O, no globals, no allocation. One call evaluates a workload on
 * one instance type x N nodes: it resolves the workload, describes the
 * devices (or the host, for CPU-only types), picks a sharding that fits,
 * then computes memory, step time (compute / memory / communication / data
 * rooflines), throughput, dataset time and serving latency.
 *
 * Invariants: every ecf_estimate field is written on success; warnings and
 * assumptions never overflow (extra notes are dropped, the last slot says
 * so); times are finite and non-negative.
 */
#include "ec2fit/estimate.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "estimate_internal.h"

/* ================================================================ */
/* Devices                                                           */
/* ================================================================ */

static bool has_word(const char *s, const char *w)
{
    return s && strstr(s, w) != NULL;
}

static gen_class classify(const ecf_accel *a)
{
    const char *g = a->generation;
    if (a->kind == ECF_ACCEL_NEURON || has_word(g, "neuron"))
        return GEN_NEURON;
    if (a->kind == ECF_ACCEL_OTHER)
        return GEN_OTHER;
    if (has_word(g, "volta"))
        return GEN_VOLTA;
    if (has_word(g, "turing"))
        return GEN_TURING;
    if (has_word(g, "ampere"))
        return GEN_AMPERE;
    if (has_word(g, "ada"))
        return GEN_ADA;
    if (has_word(g, "hopper"))
        return GEN_HOPPER;
    if (has_word(g, "blackwell"))
        return GEN_BLACKWELL;
    if (has_word(g, "kepler") || has_word(g, "maxwell") ||
        has_word(g, "pascal"))
        return GEN_OLD;
    return GEN_OTHER;
}

/* Baseline CPU utilization per vCPU of the burstable families, by size.
 * t3, t3a, t4g (aws.amazon.com/ec2/instance-types/t3/ and /t4/): nano 5%,
 * micro 10%, small and medium 20%, large 30%, xlarge and 2xlarge 40%.
 * t2 (aws.amazon.com/ec2/instance-types/t2/, per vCPU): nano 5%, micro
 * 10%, small 20%, medium 20%, large 30%, xlarge 22.5%, 2xlarge 16.875%.
 * t1.micro has no published baseline: the lowest published one (5%) is
 * assumed. Above it a standard-mode instance spends credits and falls back
 * to the baseline; unlimited mode bills the surplus. 0 = not burstable. */
/* Unlimited mode is the launch default of t3, t3a and t4g; t2 (and t1)
 * launch in standard mode (RunInstances CreditSpecification: "Default:
 * standard (T2 instances) or unlimited (T3/T3a/T4g instances)",
 * docs.aws.amazon.com/AWSEC2/latest/APIReference/API_RunInstances.html).
 * Above the baseline an unlimited instance runs at full speed and pays
 * surplus credits: Linux $0.05 per vCPU-hour on T3/T3a, $0.04 on T4g
 * (aws.amazon.com/ec2/pricing/on-demand/, "T2/T3/T4g Unlimited Mode
 * Pricing"; docs/estimation.md "Burstable CPUs"). 0 = standard mode. */
static double burst_surplus_usd_vcpu_h(const ecf_instance *inst)
{
    if (!inst->family)
        return 0;
    if (strcmp(inst->family, "t4g") == 0)
        return 0.04;
    if (strcmp(inst->family, "t3") == 0 || strcmp(inst->family, "t3a") == 0)
        return 0.05;
    return 0;
}

static double burst_baseline(const ecf_instance *inst)
{
    static const struct {
        const char *size;
        double t3, t2;
    } sizes[] = {{"nano", 0.05, 0.05},    {"micro", 0.10, 0.10},
                 {"small", 0.20, 0.20},   {"medium", 0.20, 0.20},
                 {"large", 0.30, 0.30},   {"xlarge", 0.40, 0.225},
                 {"2xlarge", 0.40, 0.16875}};
    const char *dot;
    bool t2;
    size_t i;

    if (!inst->family || inst->family[0] != 't') /* all of them: t... */
        return 0;
    if (strcmp(inst->family, "t1") == 0)
        return 0.05;
    t2 = strcmp(inst->family, "t2") == 0;
    if (!t2 && strcmp(inst->family, "t3") != 0 &&
        strcmp(inst->family, "t3a") != 0 && strcmp(inst->family, "t4g") != 0)
        return 0;
    dot = strchr(inst->type, '.');
    if (!dot)
        return 0;
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(dot + 1, sizes[i].size) == 0)
            return t2 ? sizes[i].t2 : sizes[i].t3;
    return 0;
}

/* What has been measured on a part (docs/estimation.md 5.3 and 6): its
 * tensor-core matmul ceiling (MAMF_*; 0 = unmeasured, the H200 is the
 * H100: Hopper, gemm_scale 1), its fp32 matmul ceiling (FP32_MM_*; 0 =
 * unmeasured) and its NCCL all-reduce busbw over PCIe (GB/s; 0 = the link
 * at LINK_EFFICIENCY). Matched by id prefix; NULL when nothing is. */
typedef struct {
    const char *prefix;
    double mamf, fp32_mm, pcie_busbw;
} part_figures;

static const part_figures *measured(const char *id)
{
    static const part_figures parts[] = {
        {"a100", MAMF_A100, 0, 0},
        {"rtx-4090", MAMF_RTX4090, 0, 0},
        {"a10g", MAMF_A10G, FP32_MM_A10G, A10G_NCCL_BUSBW_GBYTES_S},
        {"l40s", MAMF_L40S, 0, 0},
        {"v100", MAMF_V100, 0, 0}};
    size_t i;
    for (i = 0; id && i < sizeof(parts) / sizeof(parts[0]); i++)
        if (id[0] == parts[i].prefix[0] && /* most ids: no strncmp */
            strncmp(id, parts[i].prefix, strlen(parts[i].prefix)) == 0)
            return &parts[i];
    return NULL;
}

static void describe(devinfo *d, const ecf_instance *inst)
{
    memset(d, 0, sizeof(*d));
    d->gemm_scale = 1.0;
    d->host_gbytes_s = inst->cpu_mem_gbytes_s > 0
                           ? inst->cpu_mem_gbytes_s * CPU_STREAM_EFF
                           : inst->vcpu * CPU_GBYTES_S_PER_VCPU;
    if (!inst->accel || inst->accel_count < 1) {
        d->cpu = true;
        d->cpu_matrix_bf16 = inst->cpu_gflops_fp32 > 0 &&
                             inst->cpu_gflops_bf16 >= 8.0 * inst->cpu_gflops_fp32;
        d->burst_baseline = burst_baseline(inst);
        if (d->burst_baseline > 0)
            d->burst_usd_vcpu_h = burst_surplus_usd_vcpu_h(inst);
        d->gen = GEN_CPU;
        d->label = "host CPU";
        d->count = 1;
        /* OS reserve proportional to RAM; the memory plan's fixed
         * CUDA-context charge does not exist on a CPU, so it is credited
         * back here. */
        {
            double os = inst->memory_gib * CPU_OS_RESERVE_FRAC;
            if (os < CPU_OS_RESERVE_MIN_GIB)
                os = CPU_OS_RESERVE_MIN_GIB;
            d->mem_gib = inst->memory_gib - os + RUNTIME_OVERHEAD_GIB;
            if (d->mem_gib < RUNTIME_OVERHEAD_GIB)
                d->mem_gib = RUNTIME_OVERHEAD_GIB;
        }
        d->bw_gbytes_s = inst->cpu_mem_gbytes_s > 0
                             ? inst->cpu_mem_gbytes_s * CPU_STREAM_EFF
                             : inst->vcpu * CPU_GBYTES_S_PER_VCPU;
        d->link_gbytes_s = 0;
        d->alpha_link = 0;
    } else {
        const ecf_accel *a = inst->accel;
        const part_figures *pf = measured(a->id);
        d->gen = classify(a);
        d->label = a->name ? a->name : a->id;
        if (pf)
            d->gemm_scale = pf->mamf / MAMF_H100; /* 5.3 */
        if (pf && pf->fp32_mm > 0)
            d->fp32_scale = pf->fp32_mm / FP32_MM_V100; /* 5.3 */
        d->gemm_measured = pf || d->gen == GEN_HOPPER;
        d->count = inst->accel_count;
        d->mem_gib = inst->accel_memory_gib > 0 ? inst->accel_memory_gib
                                                : a->memory_gb * 1e9 / GIB;
        d->bw_gbytes_s =
            a->memory_bw_gbytes_s > 0 ? a->memory_bw_gbytes_s : 300.0;
        /* A fractional GPU (g6f/gr6f: 1/8, 1/4, 1/2 of an L4) gets that
         * share of the SMs and of the memory bandwidth (NVIDIA vGPU time
         * slicing / partitioning); memory is already the partition's. */
        if (inst->accel_fraction > 0 && inst->accel_fraction < 1)
            d->bw_gbytes_s *= inst->accel_fraction;
        d->power_limited = a->tdp_w > 0 && a->tdp_w <= POWER_LIMITED_W;
        d->link_gbytes_s = inst->link_gbytes_s;
        {
            /* PCIe (and a lone device) always take the PCIe figure: the
             * catalog publishes no PCIe bandwidth. */
            unsigned l = (unsigned)inst->link <= ECF_LINK_OTHER
                             ? (unsigned)inst->link
                             : (unsigned)ECF_LINK_PCIE;
            d->alpha_link = link_defaults[l].alpha_s;
            if (l == ECF_LINK_NONE || l == ECF_LINK_PCIE ||
                d->link_gbytes_s <= 0)
                d->link_gbytes_s = link_defaults[l].gbytes_s;
            /* a Hopper NVSwitch node all-reduces at its measured NCCL
             * time by message size. A100's sweep stays data only: at
             * 0.1-4 MiB it is 2-3x what gpt-fast's decode and the custom
             * all-reduce kernels measure there (docs/estimation.md 6,
             * "All-reduce by message size") */
            if (l == ECF_LINK_NVSWITCH && d->gen == GEN_HOPPER)
                d->ar_curve = ECF_AR_CURVE_HOPPER_NVSWITCH;
            /* PCIe: NCCL's ring model at the part's measured busbw (the
             * A10G's; others the link at LINK_EFFICIENCY): docs/
             * estimation.md 6, "All-reduce on PCIe nodes" */
            if (l == ECF_LINK_NONE || l == ECF_LINK_PCIE)
                d->pcie_busbw_gbytes_s =
                    pf && pf->pcie_busbw > 0
                        ? pf->pcie_busbw
                        : d->link_gbytes_s * LINK_EFFICIENCY;
        }
    }
    if (inst->efa && inst->efa_gbps > 0) {
        d->net_gbytes_s = inst->efa_gbps / 8.0;
        d->alpha_net = ALPHA_EFA;
    } else {
        d->net_gbytes_s =
            (inst->network_gbps > 0 ? inst->network_gbps : 1.0) / 8.0;
        d->alpha_net = ALPHA_TCP;
    }
}

static double cpu_precision_factor(ecf_precision p)
{
    switch (p) {
    case ECF_PREC_FP16:
    case ECF_PREC_BF16:
    case ECF_PREC_FP8:
        return 2.0;
    case ECF_PREC_INT8:
    case ECF_PREC_INT4:
        return 4.0;
    default:
        return 1.0;
    }
}

/* An explicit bf16 request on a CPU without bf16 arithmetic (bf16_x = 1 in
 * cpu_families.csv: Skylake/Cascade Lake, Ice Lake, Zen 1-3, Graviton1/2):
 * PyTorch's CPU autocast still casts to bf16 and oneDNN emulates it, bf16
 * operands converted to fp32 around fp32 FMAs, slower than plain fp32:
 * BERT inference on an AVX-512 Xeon without AVX512_BF16 took 924 ms in
 * IPEX bf16 against 558 ms in IPEX fp32 and 477 ms in stock fp32
 * (intel/intel-extension-for-pytorch#178: 0.60 / 0.52 of the fp32 rate);
 * pytorch/pytorch#86270 "Autocast with BF16 on CPU slows down model more
 * than 2X" (BERT). Half the fp32 rate (docs/estimation.md 7, "bf16 on a
 * CPU without bf16"). */
#define CPU_BF16_EMULATED_X 0.5

double ecf_estimate_peak_tflops(const ecf_instance *inst,
                                ecf_precision p,
                                ecf_precision *ran_out)
{
    /* Fallback chains: what a framework actually runs when the hardware
     * lacks the requested format. */
    static const ecf_precision chain[ECF_PREC_COUNT][4] = {
        [ECF_PREC_FP32] = {ECF_PREC_FP32, ECF_PREC_FP32, ECF_PREC_FP32,
                           ECF_PREC_FP32},
        [ECF_PREC_TF32] = {ECF_PREC_TF32, ECF_PREC_FP32, ECF_PREC_FP32,
                           ECF_PREC_FP32},
        [ECF_PREC_FP16] = {ECF_PREC_FP16, ECF_PREC_BF16, ECF_PREC_FP32,
                           ECF_PREC_FP32},
        [ECF_PREC_BF16] = {ECF_PREC_BF16, ECF_PREC_FP16, ECF_PREC_FP32,
                           ECF_PREC_FP32},
        [ECF_PREC_FP8] = {ECF_PREC_FP8, ECF_PREC_BF16, ECF_PREC_FP16,
                          ECF_PREC_FP32},
        [ECF_PREC_INT8] = {ECF_PREC_INT8, ECF_PREC_FP16, ECF_PREC_BF16,
                           ECF_PREC_FP32},
        /* int4 is weight-only quantisation: compute in 16-bit */
        [ECF_PREC_INT4] = {ECF_PREC_FP16, ECF_PREC_BF16, ECF_PREC_FP32,
                           ECF_PREC_FP32},
    };
    size_t i;

    if ((unsigned)p >= ECF_PREC_COUNT)
        p = ECF_PREC_FP32;
    if (!inst->accel || inst->accel_count < 1) {
        if (ran_out)
            *ran_out = p == ECF_PREC_TF32 ? ECF_PREC_FP32 : p;
        if (inst->cpu_gflops_fp32 > 0) {
            /* the catalog's ISA figures (cpu_families.csv) */
            double g = inst->cpu_gflops_fp32;
            ecf_precision r = ECF_PREC_FP32;
            if ((p == ECF_PREC_FP16 || p == ECF_PREC_BF16 ||
                 p == ECF_PREC_FP8 || p == ECF_PREC_INT4) &&
                inst->cpu_gflops_bf16 > g) {
                g = inst->cpu_gflops_bf16;
                r = ECF_PREC_BF16;
            } else if (p == ECF_PREC_INT8 && inst->cpu_gflops_int8 > g) {
                g = inst->cpu_gflops_int8;
                r = ECF_PREC_INT8;
            }
            if (ran_out)
                *ran_out = r;
            return g / 1000.0;
        }
        return inst->vcpu * CPU_GFLOPS_PER_VCPU * cpu_precision_factor(p) /
               1000.0;
    }
    for (i = 0; i < 4; i++) {
        double t = inst->accel->tflops[chain[p][i]];
        if (inst->accel_fraction > 0 && inst->accel_fraction < 1)
            t *= inst->accel_fraction;
        if (t > 0) {
            if (ran_out)
                *ran_out = chain[p][i];
            return t;
        }
    }
    if (ran_out)
        *ran_out = p;
    return 0;
}

double ecf_estimate_weight_bytes(ecf_precision p)
{
    switch (p) {
    case ECF_PREC_FP32:
    case ECF_PREC_TF32:
        return 4.0;
    case ECF_PREC_FP8:
        return 1.0;
    case ECF_PREC_INT8:
        return 1.0 + 2.0 / QUANT_GROUP;
    case ECF_PREC_INT4:
        return 0.5 + 4.0 / QUANT_GROUP;
    case ECF_PREC_FP16:
    case ECF_PREC_BF16:
    default:
        return 2.0;
    }
}

/* ================================================================ */
/* Notes                                                             */
/* ================================================================ */

static void
note(char (*arr)[ECF_EST_NOTE_LEN], int *n, const char *fmt, va_list ap)
    ECF_PRINTF(3, 0);

static void
note(char (*arr)[ECF_EST_NOTE_LEN], int *n, const char *fmt, va_list ap)
{
    if (*n >= ECF_EST_MAX_NOTES)
        return;
    vsnprintf(arr[*n], ECF_EST_NOTE_LEN, fmt, ap);
    (*n)++;
}

void warn(ecf_estimate *e, const char *fmt, ...)
{
    va_list ap;
    if (e->quiet)
        return;
    va_start(ap, fmt);
    note(e->warnings, &e->n_warnings, fmt, ap);
    va_end(ap);
}

void ecf_est_assume_(ecf_estimate *e, const char *fmt, ...)
{
    va_list ap;
    if (e->quiet)
        return;
    va_start(ap, fmt);
    note(e->assumptions, &e->n_assumptions, fmt, ap);
    va_end(ap);
}

/* ================================================================ */
/* Entry points                                                      */
/* ================================================================ */

static int estimate(ecf_estimate *out,
                    const ecf_model *m,
                    const ecf_workload *w_in,
                    const ecf_instance *inst,
                    int nodes,
                    bool quiet,
                    bool assumptions,
                    ecf_err *err);

int ecf_estimate_run(ecf_estimate *out,
                     const ecf_model *m,
                     const ecf_workload *w,
                     const ecf_instance *inst,
                     int nodes,
                     ecf_err *err)
{
    return estimate(out, m, w, inst, nodes, false, true, err);
}

int ecf_estimate_run_quiet(ecf_estimate *out,
                           const ecf_model *m,
                           const ecf_workload *w,
                           const ecf_instance *inst,
                           int nodes,
                           ecf_err *err)
{
    return estimate(out, m, w, inst, nodes, true, false, err);
}

int ecf_estimate_run_warnings(ecf_estimate *out,
                              const ecf_model *m,
                              const ecf_workload *w,
                              const ecf_instance *inst,
                              int nodes,
                              ecf_err *err)
{
    /* the notes start full, so assume() skips them (estimate_internal.h) */
    int rc = estimate(out, m, w, inst, nodes, false, false, err);
    out->n_assumptions = 0;
    return rc;
}

static int estimate(ecf_estimate *out,
                    const ecf_model *m,
                    const ecf_workload *w_in,
                    const ecf_instance *inst,
                    int nodes,
                    bool quiet,
                    bool assumptions,
                    ecf_err *err)
{
    ecf_workload w = *w_in;
    devinfo d;
    ecf_precision ran = ECF_PREC_BF16, want;
    double peak;
    int rc, cores = 1;
    bool cpu_emulated = false;

    /* Zero everything but the note texts (most of the struct's 5 KB):
     * n_warnings and n_assumptions say how many of them are valid, and the
     * scorer calls this for every candidate. */
    memset(out, 0, offsetof(ecf_estimate, warnings));
    out->n_assumptions = assumptions ? 0 : ECF_EST_MAX_NOTES;
    out->n_tried = 0;
    out->quiet = quiet;
    if (nodes < 1)
        return ecf_err_set(err, ECF_EINVAL,
                           "--nodes: must be at least 1, got %d", nodes);
    rc = ecf_workload_resolve(&w, m, err);
    if (rc < 0)
        return rc;
    describe(&d, inst);
    if (w.naive_attention && !w.attention_set &&
        (w.framework_version > 0 || w.transformers_version > 0))
    {
        /* the version that made it eager (ecf_workload_resolve) */
        bool torch = w.framework_version > 0 && w.framework_version < 200;
        int v = torch ? w.framework_version : w.transformers_version;
        assume(out,
               "attention: score matrices stored (%s %d.%d runs eager "
               "attention; --attention sdpa for a stack that has SDPA)",
               torch ? "PyTorch" : "transformers", v / 100, v % 100);
    }
    ecf_est_cpu_runtime(&d, m, &w);
    want = (ecf_precision)w.precision;
    peak = ecf_estimate_peak_tflops(inst, want, &ran);
    /* NeuronX LLM serving stores int8 weights and dequantises them to the
     * 16-bit compute type before each matmul (transformers-neuronx int8
     * weight storage, NxD Inference model weight quantization;
     * docs/estimation.md 7): the arithmetic runs at the 16-bit rate. */
    if (d.gen == GEN_NEURON && want == ECF_PREC_INT8 &&
        !ecf_task_is_training(w.task)) {
        peak = ecf_estimate_peak_tflops(inst, ECF_PREC_BF16, NULL);
        assume(out, "Neuron int8 is weight storage: weights dequantised "
                    "to bf16, matmuls at the bf16 rate");
    }
    /* fp8 on a GPU without fp8 math (Turing, Ampere): an engine with an
     * fp8 weight-only kernel (vLLM's FP8 Marlin) reads the fp8 weights
     * at 1 byte and multiplies in the 16-bit type (docs/estimation.md
     * 5.5, "Weight-only fp8"); LLM serving, dense and MoE alike (vLLM's
     * fused Marlin MoE takes fp8 experts, block-wise scales included:
     * prepare_moe_fp8_layer_for_marlin). */
    if (want == ECF_PREC_FP8 && ran != want &&
        !ecf_task_is_training(w.task) && ecf_model_kind_is_llm(m->kind) &&
        (d.gen == GEN_TURING || d.gen == GEN_AMPERE) &&
        ecf_est_engine_fp8_weight_only(m, &w, &d)) {
        d.wo_weight_bytes = ecf_estimate_weight_bytes(ECF_PREC_FP8);
        w.precision = ran;
        assume(out, "%s has no fp8 math: fp8 weights served weight-only "
                    "(FP8 Marlin), 1 byte per weight read, %s math",
               d.label, ecf_precision_name(ran));
    }
    /* Stored weights follow the request (int8/int4 weights run with
     * 16-bit math); arithmetic follows what the hardware has. */
    else if (ran != want && want != ECF_PREC_INT4) {
        /* A CPU without bf16 arithmetic: the default (no --precision) is
         * the plan an engineer runs there, fp32; an explicit bf16 is what
         * PyTorch's autocast does on it, bf16 emulated by conversions
         * around fp32 FMAs at CPU_BF16_EMULATED_X of the fp32 rate, with
         * the fp32 weights autocast keeps (docs/estimation.md 7, "bf16 on
         * a CPU without bf16"). */
        cpu_emulated = d.cpu && want == ECF_PREC_BF16 &&
                       ran == ECF_PREC_FP32 && w.precision_explicit;
        if (cpu_emulated) {
            peak *= CPU_BF16_EMULATED_X;
            warn(&out[0],
                 "%s host CPU has no bf16 arithmetic: --precision bf16 is "
                 "emulated (fp32 FMAs around conversions) at %.1fx the "
                 "fp32 rate; without --precision it runs as fp32",
                 inst->family ? inst->family : "this", CPU_BF16_EMULATED_X);
        } else if (d.cpu && (w.precision_explicit || ran == ECF_PREC_FP32))
            warn(&out[0], "%s host CPU has no %s: runs as %s",
                 inst->family ? inst->family : "this",
                 ecf_precision_name(want), ecf_precision_name(ran));
        else if (w.precision_explicit || ran == ECF_PREC_FP32)
            warn(&out[0], "%s has no %s: runs as %s", d.label,
                 ecf_precision_name(want), ecf_precision_name(ran));
        if (want != ECF_PREC_INT8)
            w.precision = ran;
    }
    /* Neuron: the device is the NeuronCore, serving and training alike
     * (estimate_neuron.c; PyTorch-NeuronX runs one worker per core);
     * e->devices stays the chips (renderers map /dev/neuronN per chip). */
    if ((cores = ecf_est_neuron_core_view(&d, inst, &peak)) > 1 &&
        ecf_task_is_training(w.task) && inst->accel_count > 1)
        /* a training collective's ring over all the node's cores puts a
         * chip's two cores next to each other: each chip-to-chip edge
         * carries one rank's chunk per step, at the chip's full link */
        d.link_gbytes_s *= cores;
    if (cores > 1)
        assume(out,
               ecf_task_is_training(w.task)
                   ? "Neuron: one training worker per NeuronCore; %d cores "
                     "of %.0f TFLOPS, %.1f GiB and %.0f GB/s each"
                   : "Neuron: a compiled graph runs on one NeuronCore; %d "
                     "cores of %.0f TFLOPS, %.1f GiB and %.0f GB/s each "
                     "serve replicas or one tensor-parallel group",
               d.count, peak, d.mem_gib, d.bw_gbytes_s);
    out->precision = (ecf_precision)w.precision;
    out->cpu_only = d.cpu;
    out->nodes = nodes;
    out->devices = d.count / cores;
    out->seq_len = w.seq_len;
    out->peak_tflops = peak;
    out->throughput_unit = "samples/s";
    out->data_source = "s3";
    if (peak <= 0)
        warn(out, "no %s TFLOPS figure for %s: compute time unknown",
             ecf_precision_name(want), d.label);
    if (d.cpu) {
        assume(out,
               "CPU-only: %d vCPUs, %.0f GFLOPS peak (%s) at %.0f%%, %.0f "
               "GB/s DRAM",
               inst->vcpu, peak * 1000,
               cpu_emulated ? "bf16 emulated" : ecf_precision_name(ran),
               (ecf_task_is_training(w.task) && d.cpu_matrix_bf16 &&
                        ran == ECF_PREC_BF16
                    ? U_CPU_AMX_TRAIN
                    : U_CPU) *
                   100,
               d.bw_gbytes_s);
        if (ecf_task_is_training(w.task))
            warn(out, "training on CPU cores is slow; any GPU instance is "
                      "far faster");
    }
    if (ecf_task_is_training(w.task))
        run_train(out, m, &w, &d, nodes, (ecf_precision)w.precision, peak);
    else
        run_infer(out, m, &w, &d, nodes, (ecf_precision)w.precision, ran, peak);
    if (d.cpu && d.burst_baseline > 0) {
        out->burst_baseline = d.burst_baseline;
        out->burst_usd_per_hour_per_load = d.burst_usd_vcpu_h * inst->vcpu;
    }
    if (d.cpu && d.burst_usd_vcpu_h > 0 &&
        (ecf_task_is_training(w.task) || w.task == ECF_TASK_BATCH) &&
        out->step_time_s > 0) {
        /* Unlimited mode: a job (training, offline batch) keeps every vCPU
         * busy (load 1), runs at full speed and pays the surplus above the
         * baseline. */
        out->burst_surcharge_usd_per_hour =
            out->burst_usd_per_hour_per_load * (1 - d.burst_baseline);
        assume(out,
               "burstable CPU, unlimited mode (the %s default): full speed, "
               "the load above the %.0f%% baseline per vCPU billed as "
               "surplus credits at $%.2f per vCPU-hour: +$%.4f/h per node",
               inst->family, d.burst_baseline * 100, d.burst_usd_vcpu_h,
               out->burst_surcharge_usd_per_hour);
    } else if (d.cpu && d.burst_baseline > 0 && ecf_task_is_training(w.task) &&
        out->step_time_s > 0) {
        /* A training job is a sustained load: on a burstable type it runs
         * at the baseline share of its vCPUs (standard credits; docs/
         * estimation.md "Burstable CPUs"), as serving capacity does. */
        double b = d.burst_baseline;
        out->step_time_s /= b;
        out->compute_s /= b;
        out->memory_s /= b;
        out->samples_per_s *= b;
        out->tokens_per_s *= b;
        out->throughput *= b;
        out->time_samples_per_s *= b;
        if (w.dataset_samples > 0 && out->time_samples_per_s > 0)
            out->time_hours = w.dataset_samples * w.epochs /
                              out->time_samples_per_s / 3600.0;
        assume(out,
               "burstable CPU, standard mode (the %s default): a training "
               "job is a sustained load, timed at the %.0f%% baseline per "
               "vCPU",
               inst->family,
               b * 100);
    }
    if (d.cpu) {
        /* The memory plans charge every device a CUDA context; a CPU has
         * none. describe() credited it to the available side and
         * ecf_est_cpu_runtime() took the runtime's own RAM off it, so the fit and
         * batch choice are right; for the report the context leaves both
         * sides and the runtime shows as overhead (the comparison is
         * unchanged). */
        double adj = d.runtime_gib - RUNTIME_OVERHEAD_GIB;
        out->memory.overhead_gib += adj;
        out->memory.total_per_device_gib += adj;
        out->memory.available_per_device_gib += adj;
        if (d.runtime)
            assume(out, "CPU-only: the %s runtime holds %.2f GiB of host "
                        "RAM before the model",
                   d.runtime, d.runtime_gib);
    }
    if (nodes > 1 && !d.cpu && !(inst->efa && inst->efa_gbps > 0))
        warn(out,
             "%d nodes without EFA: inter-node traffic uses %.0f Gbps "
             "plain networking",
             nodes, inst->network_gbps);
    data_and_host(out, m, &w, inst, &d, nodes);
    ecf_startup_apply(out, m, &w, inst, d.count, d.wo_weight_bytes);
    if (!out->fits) {
        out->bottleneck = ECF_BN_DEVICE_MEMORY;
        warn(out, "needs %.1f GiB per device, %.1f GiB available",
             out->memory.total_per_device_gib,
             out->memory.available_per_device_gib);
    }
    return 0;
}

int ecf_estimate_min_nodes(const ecf_model *m,
                           const ecf_workload *w,
                           const ecf_instance *inst,
                           int max_nodes)
{
    return ecf_estimate_min_nodes_keep(m, w, inst, max_nodes, NULL, NULL);
}

int ecf_estimate_min_nodes_keep(const ecf_model *m,
                                const ecf_workload *w,
                                const ecf_instance *inst,
                                int max_nodes,
                                ecf_estimate *last,
                                int *last_n)
{
    double need = ecf_estimate_min_total_gib(m, w);
    devinfo d;
    ecf_workload tw = *w;
    bool train = false;
    int n;

    if (last_n)
        *last_n = 0;
    describe(&d, inst);
    ecf_est_cpu_runtime(&d, m, w);
    /* Training: the estimate fits exactly when the plan search's leanest
     * plan does (train_lean_fits), on the workload and precision estimate()
     * hands run_train; the full estimate is not needed. */
    if (ecf_workload_resolve(&tw, m, NULL) == 0 &&
        ecf_task_is_training(tw.task)) {
        ecf_precision ran = ECF_PREC_BF16,
                      want = (ecf_precision)tw.precision;
        double peak = ecf_estimate_peak_tflops(inst, want, &ran);
        /* the device estimate() trains on: the NeuronCore on Neuron */
        ecf_est_neuron_core_view(&d, inst, &peak);
        if (ran != want && want != ECF_PREC_INT4 && want != ECF_PREC_INT8)
            tw.precision = ran;
        train = true;
    }
    for (n = 1; n <= max_nodes; n++) {
        ecf_estimate e;
        /* cheap reject before the full estimate */
        if (d.mem_gib * d.count * n < need)
            continue;
        if (train) {
            if (train_lean_fits(m, &tw, &d, n, (ecf_precision)tw.precision))
                return n;
            continue;
        }
        if (ecf_estimate_run_quiet(last ? last : &e, m, w, inst, n,
                                   NULL) != 0) {
            if (last_n)
                *last_n = 0; /* `last` may hold part of it: not kept */
            continue;
        }
        if (last_n)
            *last_n = n;
        if ((last ? last : &e)->fits)
            return n;
    }
    return 0;
}
