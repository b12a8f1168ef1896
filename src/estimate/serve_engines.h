/*
 * serve_engines.h - the serving engines' performance table (internal to
 * src/model): per-step overheads, kernel efficiencies and prefill chunk
 * per --engine, read from data/engines.json (ec2fit/engines.h), and the
 * engine a plan uses when none is given. Sources in docs/estimation.md
 * 5.5, "Serving engines".
 */
#ifndef EC2FIT_MODEL_SERVE_ENGINES_H
#define EC2FIT_MODEL_SERVE_ENGINES_H

#include <stdbool.h>

#include "ec2fit/engines.h"
#include "ec2fit/estimate.h"

/* One engine's figures: the row of data/engines.json (ec2fit/engines.h
 * names and documents the fields). */
typedef ecf_engine_perf serve_engine;

/* The device class an engine is picked for. */
typedef enum {
    SERVE_DEV_OTHER = 0, /* a CPU host, or an accelerator neither below */
    SERVE_DEV_NEURON,    /* Inferentia / Trainium */
    SERVE_DEV_NVIDIA     /* an NVIDIA GPU */
} serve_dev;

/* The engine a plan on device class `dev` uses: w->engine when set, else
 * Neuron on Inferentia/Trainium, vLLM for LLMs, TF Serving for
 * --framework tensorflow, on an NVIDIA GPU TensorRT for a convnet,
 * encoder, ViT or diffusion model and Hugging Face Transformers for
 * speech (ecf_engine_nvidia_default), Triton otherwise
 * (ecf_stacks_engine's order). */
int ecf_serve_engine_pick(const ecf_model *m, const ecf_workload *w,
                      serve_dev dev);
/* The table row of `engine` (an ecf_engine); never NULL. */
const serve_engine *ecf_serve_engine_get(int engine);

/* Bytes the whole model's weights cost one forward of `rows` tokens per
 * step (a decode step: rows = the batch; a prefill pass: its tokens),
 * as if read at `bw` (the device's bytes/s at the engine's bw_eff), under
 * the engine's int4 kernel description (int4_col_gweights_s ...; docs/
 * estimation.md 5.5, "Weight-only kernels"): column-parallel projections
 * at int4_col_gweights_s (their time, as bytes at `bw`), row-parallel
 * ones at int4_row_bytes x rows below int4_recons_rows and
 * int4_recons_bytes from there, the embeddings and LM head at 2 bytes
 * (kept 16-bit). 0 when the engine describes no int4 kernel or the model
 * is not a dense transformer with the shapes to split: the caller keeps
 * params x bytes / int4_bw_eff. */
double ecf_serve_int4_weight_bytes(const ecf_model *m, const serve_engine *eng,
                               double rows, double bw);

#endif
