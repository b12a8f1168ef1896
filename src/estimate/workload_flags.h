/*
 * workload_flags.h - the workload flags shared by `estimate`, `recommend`
 * and the batch engine (model selection + workload profile), so all accept
 * exactly the same spelling and report exactly the same errors. The cli_
 * prefix is historical (the names predate the library).
 *
 * Use:
 *     static const struct option longopts[] = {
 *         CLI_WORKLOAD_LONGOPTS,
 *         {"instance", required_argument, NULL, 'i'},
 *         ...
 *         {NULL, 0, NULL, 0}};
 *     cli_workload wl = CLI_WORKLOAD_INIT;
 *     while ((c = getopt_long(...)) != -1) {
 *         int r = ecf_workload_option(&wl, c, optarg, &err);
 *         if (r < 0) return cli_fail(&err);
 *         if (r > 0) continue;
 *         switch (c) { ... the command's own flags ... }
 *     }
 *     if (ecf_workload_finish(&wl, &model, &err) < 0) return cli_fail(&err);
 *     ... wl.w is resolved against model ...
 *
 * The option values are >= CLI_WL_BASE (0x1000), so they never collide with
 * a command's short-option characters.
 */
#ifndef EC2FIT_CLI_WORKLOAD_H
#define EC2FIT_CLI_WORKLOAD_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "ec2fit/err.h"
#include "ec2fit/estimate.h"
#include "ec2fit/zoo.h"

enum {
    CLI_WL_BASE = 0x1000,
    CLI_WL_MODEL = CLI_WL_BASE,
    CLI_WL_PARAMS,
    CLI_WL_MODEL_CONFIG,
    CLI_WL_TASK,
    CLI_WL_PRECISION,
    CLI_WL_BATCH_SIZE,
    CLI_WL_SEQ_LEN,
    CLI_WL_INPUT_TOKENS,
    CLI_WL_OUTPUT_TOKENS,
    CLI_WL_DATASET,
    CLI_WL_EPOCHS,
    CLI_WL_CKPT,
    CLI_WL_NO_CKPT,
    CLI_WL_OPTIM_8BIT,
    CLI_WL_MASTER_WEIGHTS,
    CLI_WL_LORA_RANK,
    CLI_WL_LATENCY_MS,
    CLI_WL_QPS,
    CLI_WL_SAMPLE_BYTES,
    CLI_WL_TENSOR_PARALLEL,
    CLI_WL_STEPS,
    CLI_WL_RESOLUTION,
    CLI_WL_FRAMEWORK,
    CLI_WL_TTFT_MS,
    CLI_WL_TPOT_MS,
    CLI_WL_ENGINE,
    CLI_WL_STORAGE,
    CLI_WL_STORAGE_THROUGHPUT,
    CLI_WL_STARTUP,
    CLI_WL_PACKING,
    CLI_WL_MEAN_SEQ_LEN,
    CLI_WL_CROSS_ENTROPY,
    CLI_WL_OFFLOAD,
    CLI_WL_DATA_LOADER,
    CLI_WL_ATTENTION,
    CLI_WL_CONV_KERNELS,
    CLI_WL_KV_CACHE_DTYPE,
    CLI_WL_GRAD_ACCUM,
    CLI_WL_PIPELINE_PARALLEL,
    CLI_WL_VIRTUAL_STAGES,
    CLI_WL_GLOBAL_BATCH,
    CLI_WL_END
};

/* A fragment of a `struct option[]` initializer (no terminator). */
#define CLI_WORKLOAD_LONGOPTS                                                  \
    {"model", required_argument, NULL, CLI_WL_MODEL},                          \
        {"params", required_argument, NULL, CLI_WL_PARAMS},                    \
        {"model-config", required_argument, NULL, CLI_WL_MODEL_CONFIG},        \
        {"task", required_argument, NULL, CLI_WL_TASK},                        \
        {"precision", required_argument, NULL, CLI_WL_PRECISION},              \
        {"batch-size", required_argument, NULL, CLI_WL_BATCH_SIZE},            \
        {"seq-len", required_argument, NULL, CLI_WL_SEQ_LEN},                  \
        {"input-tokens", required_argument, NULL, CLI_WL_INPUT_TOKENS},        \
        {"output-tokens", required_argument, NULL, CLI_WL_OUTPUT_TOKENS},      \
        {"dataset", required_argument, NULL, CLI_WL_DATASET},                  \
        {"epochs", required_argument, NULL, CLI_WL_EPOCHS},                    \
        {"activation-checkpointing", no_argument, NULL, CLI_WL_CKPT},          \
        {"no-activation-checkpointing", no_argument, NULL, CLI_WL_NO_CKPT},    \
        {"optimizer-8bit", no_argument, NULL, CLI_WL_OPTIM_8BIT},              \
        {"master-weights", required_argument, NULL, CLI_WL_MASTER_WEIGHTS},    \
        {"lora-rank", required_argument, NULL, CLI_WL_LORA_RANK},              \
        {"latency-ms", required_argument, NULL, CLI_WL_LATENCY_MS},            \
        {"ttft-ms", required_argument, NULL, CLI_WL_TTFT_MS},                  \
        {"tpot-ms", required_argument, NULL, CLI_WL_TPOT_MS},                  \
        {"qps", required_argument, NULL, CLI_WL_QPS},                          \
        {"sample-bytes", required_argument, NULL, CLI_WL_SAMPLE_BYTES},       \
        {"tensor-parallel", required_argument, NULL, CLI_WL_TENSOR_PARALLEL},  \
        {"steps", required_argument, NULL, CLI_WL_STEPS},                      \
        {"resolution", required_argument, NULL, CLI_WL_RESOLUTION},            \
        {"framework", required_argument, NULL, CLI_WL_FRAMEWORK},              \
        {"engine", required_argument, NULL, CLI_WL_ENGINE},                    \
        {"storage", required_argument, NULL, CLI_WL_STORAGE},                  \
        {"storage-throughput", required_argument, NULL,                        \
         CLI_WL_STORAGE_THROUGHPUT},                                  \
        {"startup", required_argument, NULL, CLI_WL_STARTUP},                  \
        {"packing", no_argument, NULL, CLI_WL_PACKING},                        \
        {"mean-seq-len", required_argument, NULL, CLI_WL_MEAN_SEQ_LEN},        \
        {"cross-entropy", required_argument, NULL, CLI_WL_CROSS_ENTROPY},      \
        {"offload", required_argument, NULL, CLI_WL_OFFLOAD},                  \
        {"data-loader", required_argument, NULL, CLI_WL_DATA_LOADER},          \
        {"attention", required_argument, NULL, CLI_WL_ATTENTION},              \
        {"conv-kernels", required_argument, NULL, CLI_WL_CONV_KERNELS},        \
        {"kv-cache-dtype", required_argument, NULL, CLI_WL_KV_CACHE_DTYPE},    \
        {"grad-accum", required_argument, NULL, CLI_WL_GRAD_ACCUM},            \
        {"pipeline-parallel", required_argument, NULL,                         \
         CLI_WL_PIPELINE_PARALLEL},                                            \
        {"virtual-stages", required_argument, NULL, CLI_WL_VIRTUAL_STAGES},    \
        {"global-batch", required_argument, NULL, CLI_WL_GLOBAL_BATCH}

typedef struct {
    const char *model;        /* --model NAME */
    const char *params;       /* --params COUNT (text, parsed at finish) */
    const char *model_config; /* --model-config FILE */
    bool task_set;
    ecf_workload w;
    int steps;                /* --steps (diffusion), 0 = the model's */
    int res_w, res_h;         /* --resolution WxH (diffusion), 0 = default */
    bool framework_set; /* --framework given (else the config file's) */
    int default_framework; /* the config file's framework, -1 none (the
                              caller sets it: this layer reads no file) */
} cli_workload;

#define CLI_WORKLOAD_INIT                                                      \
    {                                                                          \
        NULL, NULL, NULL, false, ECF_WORKLOAD_INIT, 0, 0, 0, false, -1         \
    }

/** Handles one getopt_long result. Returns 1 when `c` is a workload flag
 *  and `arg` was valid, 0 when `c` is not a workload flag (the command
 *  handles it), or ECF_EINVAL with `err` naming the flag. */
int ecf_workload_option(cli_workload *wl, int c, const char *arg, ecf_err *err);

/** After the option loop: requires exactly one of --model/--params/
 *  --model-config and (when `need_task`) --task; loads the model into
 *  *model_out (the zoo is opened and freed here) and resolves wl->w
 *  against it. Errors: ECF_EINVAL / ECF_ENOTFOUND (exit 2) with one line,
 *  "unknown model 'resnet5' (did you mean resnet50?)"; ECF_EIO for an
 *  unreadable config file. */
int ecf_workload_finish(cli_workload *wl,
                        ecf_model *model_out,
                        bool need_task,
                        ecf_err *err);

/** As ecf_workload_finish, with the model looked up in `zoo` (borrowed;
 *  NULL = load the embedded zoo for this call), so a batch of profiles
 *  parses the zoo once. */
int ecf_workload_finish_zoo(cli_workload *wl,
                            ecf_model *model_out,
                            bool need_task,
                            const ecf_zoo *zoo,
                            ecf_err *err);

#endif
