/*
 * estimate_startup.c - fixed per-node overheads of a job: start time
 * (boot + container image pull + reading the weights from storage) and
 * the Capacity Blocks note for the types AWS sells mostly that way, and a
 * Neuron training run's first-run graph compile.
 * Every figure and its source: docs/estimation.md "Fixed overheads".
 */
#include "ec2fit/estimate.h"

#include <string.h>

#include "estimate_internal.h"

/* Neuron training: the first run compiles the step's graphs with
 * neuronx-cc (neuron_parallel_compile ahead of time, as the tutorials run
 * it); the Neuron persistent cache makes later runs skip it. The two
 * published durations of a training graph's compile (docs/estimation.md
 * 7, "Graph compilation"): BERT-Large pre-training on trn1.32xlarge,
 * "~13 minutes ... using the pre-compilation script (compare to ~40
 * minute if not" (aws-neuron/aws-neuron-sdk archive/nxd-training/
 * bert.rst); Llama 2 7B fine-tune, TP 8 on trn1.32xlarge, "Compiling
 * without a cache can take ~40 minutes" (huggingface/optimum-neuron
 * notebooks/ec2/text-generation/llama2-7b-fine-tuning.ipynb). A model
 * takes the figure of the nearer of the two by parameter count on a log
 * scale: the boundary is their geometric mean, sqrt(0.335 x 6.74) B. */
#define NEURON_COMPILE_S_SMALL   (13.0 * 60.0)
#define NEURON_COMPILE_S_LARGE   (40.0 * 60.0)
#define NEURON_COMPILE_SPLIT_PARAMS 1.5e9

static double min_pos(double a, double b)
{
    return b > 0 && b < a ? b : a;
}

double ecf_estimate_startup_s(const ecf_instance *inst, double weight_bytes)
{
    /* The image is pulled from ECR onto the root EBS gp3 volume: its
     * baseline throughput, capped by the instance's EBS and network
     * bandwidth. The weights are downloaded from S3 at S3_NET_EFF of the
     * network bandwidth onto local NVMe when the type has it (NVMe write
     * speed per TB), else onto the same gp3 volume. */
    double net = inst->network_gbps * 1e9 / 8;
    double gp3 = min_pos(min_pos(STARTUP_GP3_MBYTES_S * 1e6,
                                 inst->ebs_gbps * 1e9 / 8),
                         net);
    double disk = inst->nvme_gb > 0
                      ? inst->nvme_gb / 1000 * NVME_GBYTES_S_PER_TB * 1e9
                      : gp3;
    double wrate = min_pos(disk, net * STARTUP_S3_NET_EFF);
    double image = (inst->accel && inst->accel_count > 0)
                       ? STARTUP_IMAGE_GB_ACCEL
                       : STARTUP_IMAGE_GB_CPU;

    if (weight_bytes < 0)
        weight_bytes = 0;
    return STARTUP_BOOT_S + image * 1e9 / gp3 + weight_bytes / wrate;
}

double ecf_estimate_image_gb(const ecf_instance *inst)
{
    return (inst->accel && inst->accel_count > 0) ? STARTUP_IMAGE_GB_ACCEL
                                                   : STARTUP_IMAGE_GB_CPU;
}

const char *ecf_estimate_capacity_note(const ecf_instance *inst)
{
    static const char *const fam[] = {"p5", "p5e", "p5en", "p6-b200",
                                      "p6-b300", "p6e-gb200", "p6e-gb300",
                                      "trn2", "trn2u"};
    size_t i;

    if (!inst->family)
        return NULL;
    /* every family listed starts with 'p' or 't': most types stop here */
    if (inst->family[0] != 'p' && inst->family[0] != 't')
        return NULL;
    for (i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
        if (strcmp(inst->family, fam[i]) == 0)
            return "usually bought through EC2 Capacity Blocks for ML or a "
                   "capacity reservation (on-demand capacity is scarce)";
    return NULL;
}

void ecf_startup_apply(ecf_estimate *e, const ecf_model *m, const ecf_workload *w,
                   const ecf_instance *inst, int devices, double wo_weight_bytes)
{
    double wb = 0;
    const char *cap = ecf_estimate_capacity_note(inst);

    /* Weights read at start: this node's devices' share, at most the
     * whole model; training from scratch reads none. A weight-only
     * checkpoint (fp8 served by FP8 Marlin on a GPU without fp8 math:
     * wo_weight_bytes > 0) is downloaded and loaded at its own bytes, 1
     * per weight, not at the 16-bit math type's (docs/estimation.md 8a). */
    if (w->task != ECF_TASK_TRAIN) {
        double whole = m->params * (ecf_task_is_training(w->task) ? 2.0
                                    : wo_weight_bytes > 0
                                        ? wo_weight_bytes
                                        : ecf_estimate_weight_bytes(
                                              (ecf_precision)w->precision));
        wb = e->memory.weights_gib * GIB * (devices > 0 ? devices : 1);
        if (wb > whole || wb <= 0)
            wb = whole;
    }
    if (w->startup_set) {
        e->startup_s = w->startup_s;
        assume(e, "start-up %.0f s per node (--startup)", e->startup_s);
    } else {
        e->startup_s = ecf_estimate_startup_s(inst, wb);
        assume(e,
               "start-up %.1f min per node: %.0f s boot, %.1f GB image from "
               "EBS gp3, %.1f GB weights from S3",
               e->startup_s / 60, STARTUP_BOOT_S,
               (inst->accel && inst->accel_count > 0) ? STARTUP_IMAGE_GB_ACCEL
                                                       : STARTUP_IMAGE_GB_CPU,
               wb / 1e9);
    }
    if (e->time_hours > 0)
        e->time_hours += e->startup_s / 3600.0;
    /* Neuron training: the first run's graph compile (docs/estimation.md
     * 7, "Graph compilation"). An explicit --startup is the whole start
     * and is taken to include it (a cached run: --startup 0). */
    e->compile_s = 0;
    if (ecf_task_is_training(w->task) && inst->accel &&
        inst->accel->kind == ECF_ACCEL_NEURON) {
        if (w->startup_set) {
            assume(e, "Neuron: the first run compiles the step's graphs; "
                      "--startup is taken to include the compile");
        } else {
            bool large = m->params > NEURON_COMPILE_SPLIT_PARAMS;
            e->compile_s =
                large ? NEURON_COMPILE_S_LARGE : NEURON_COMPILE_S_SMALL;
            assume(e,
                   "Neuron: the first run compiles the step's graphs, %.0f "
                   "min (as published for %s on trn1.32xlarge), in the "
                   "time; cached runs skip it",
                   e->compile_s / 60,
                   large ? "Llama 2 7B" : "BERT-Large");
            if (e->time_hours > 0)
                e->time_hours += e->compile_s / 3600.0;
        }
    }
    if (cap)
        assume(e, "capacity: %s %s", inst->type, cap);
}
