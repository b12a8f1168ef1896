/**
 * ec2fit/stacks.h - which software stack (framework, serving engine) runs
 * on which accelerator platform, for which task and model kind: the data
 * of data/stacks.json (embedded; docs/stacks.md has the table and sources)
 * and the pure lookup the scorer's `stack` rule uses.
 *
 * Ownership: ecf_stacks is opaque and owns its strings; a verdict borrows
 * them and is valid until ecf_stacks_free(). Resolution is pure and
 * allocation-free: the loader turns every name into a bit, so a lookup is
 * a scan of bitmask tests (the scorer resolves once per accelerator per
 * run, not per candidate).
 */
#ifndef EC2FIT_STACKS_H
#define EC2FIT_STACKS_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"
#include "ec2fit/err.h"
#include "ec2fit/zoo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_STACKS_SCHEMA_VERSION 1
#define ECF_STACKS_MAX_BYTES (1u * 1024u * 1024u)
#define ECF_STACKS_MAX_PLATFORMS 32
#define ECF_STACKS_MAX_ENTRIES 256
#define ECF_STACK_WHY_LEN 200

/** Training framework (--framework). 0 is the default, PyTorch. */
typedef enum {
    ECF_FW_PYTORCH = 0,
    ECF_FW_TENSORFLOW,
    ECF_FW_JAX,
    ECF_FW_COUNT
} ecf_framework;

/** Serving engine (--engine). 0 = chosen from the model, framework and
 *  platform (ecf_stacks_engine). */
typedef enum {
    ECF_ENGINE_AUTO = 0,
    ECF_ENGINE_VLLM,
    ECF_ENGINE_TGI,
    ECF_ENGINE_TRTLLM,
    ECF_ENGINE_HF,
    ECF_ENGINE_TF_SERVING,
    ECF_ENGINE_TRITON,
    ECF_ENGINE_NEURON,
    ECF_ENGINE_TENSORRT, /* compiled graph: TensorRT, Triton's TensorRT
                            backend, ONNX Runtime's TensorRT provider */
    ECF_ENGINE_COUNT
} ecf_engine;

/** "pytorch", "tensorflow", "jax". */
const char *ecf_framework_name(int fw);
/** -1 when unknown. */
int ecf_framework_parse(const char *s);
/** --framework NAME[@VERSION]: NAME pytorch, tensorflow, jax or
 *  transformers (PyTorch with Hugging Face transformers at VERSION);
 *  VERSION MAJOR[.MINOR[.anything]] ("1.13", "1.11.0a0", "4.27.2").
 *  Sets *fw_out, *version_out (major x 100 + minor, 0 when no version)
 *  and *transformers_out (NAME is transformers). Returns 0, or -1 when
 *  NAME is unknown or VERSION malformed (outputs untouched). */
int ecf_framework_spec_parse(int *fw_out,
                             int *version_out,
                             bool *transformers_out,
                             const char *s);
/** "auto", "vllm", "tgi", "trtllm", "hf", "tf-serving", "triton",
 *  "neuron", "tensorrt". */
const char *ecf_engine_name(int engine);
/** -1 when unknown ("auto" parses to ECF_ENGINE_AUTO). */
int ecf_engine_parse(const char *s);
/** The engine a model of `kind` served from `framework` (an
 *  ecf_framework) defaults to on an NVIDIA GPU, or ECF_ENGINE_AUTO when
 *  the general rule applies (vLLM for LLMs, TF Serving for TensorFlow,
 *  Triton otherwise): ECF_ENGINE_TENSORRT (a compiled graph) for
 *  convnets, encoders, ViTs and diffusion models exported from PyTorch or
 *  JAX; ECF_ENGINE_HF for speech (openai-whisper and transformers'
 *  pipeline both decode eagerly, layer by layer). docs/estimation.md 5.5,
 *  "Compiled graphs" and "Eager speech decoders". */
ecf_engine ecf_engine_nvidia_default(ecf_model_kind kind, int framework);

typedef enum {
    ECF_STACK_SUPPORTED = 0, /* listed as supported by its source */
    ECF_STACK_UNVERIFIED,    /* runs, but the source does not list it as
                                tested for this model kind: a note */
    ECF_STACK_UNSUPPORTED    /* does not run: the `stack` rule rejects */
} ecf_stack_status;

/** The outcome for one (platform, model kind, task, framework, engine). */
typedef struct {
    ecf_stack_status status;
    const char *platform; /* "AWS Inferentia (inf1)"; borrowed */
    const char *stack;    /* what decided it: "PyTorch", "vLLM"; borrowed */
    const char *source;   /* URL of the deciding entry; borrowed */
    const char *as_of;    /* YYYY-MM-DD of that entry; borrowed */
    ecf_engine engine;    /* the serving engine the plan uses (infer) */
    char why[ECF_STACK_WHY_LEN]; /* "TensorFlow does not train on
                                    Trainium: ..." (empty when supported) */
} ecf_stack_verdict;

typedef struct ecf_stacks ecf_stacks;

/** Parses and validates a stacks document (schema: docs/stacks.md). Every
 *  entry needs a source URL and an as-of date; names must be known
 *  frameworks, engines, tasks and model kinds. Errors: ECF_EPARSE "NAME:
 *  support[3].tasks[1]: unknown task \"trian\"". */
int ecf_stacks_load_buffer(ecf_stacks **out, const char *data, size_t len,
                           const char *name, ecf_err *err);
/** The stacks embedded at build time (data/stacks.json). */
int ecf_stacks_embedded(ecf_stacks **out, ecf_err *err);
void ecf_stacks_free(ecf_stacks *s);
/** The file's as-of date. */
const char *ecf_stacks_as_of(const ecf_stacks *s);

/** The platform an instance belongs to (by accelerator id, then vendor,
 *  then CPU architecture); -1 when none matches. Pure. */
int ecf_stacks_platform(const ecf_stacks *s, const ecf_instance *inst);



#ifdef __cplusplus
}
#endif

#endif
