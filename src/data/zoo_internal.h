/*
 * zoo_internal.h - internal: the Hugging Face config.json architectures beyond
 * the llama/gpt2/bert key styles of zoo.c (gemma2, gemma3, qwen3,
 * qwen3_moe, phi3, deepseek_v3) and the multimodal types refused as not
 * supported yet (called by ecf_model_from_hf_config only), and the zoo's
 * diffusion "unet" block reader (zoo_unet.c).
 */
#ifndef EC2FIT_HF_ARCH_H
#define EC2FIT_HF_ARCH_H

#include <cjson/cJSON.h>

#include "ec2fit/err.h"
#include "ec2fit/zoo.h"

/* The zoo (opaque in ec2fit/zoo.h): zoo.c loads it from JSON,
 * zoo_packed.c from the packed form the build embeds. */
struct ecf_zoo {
    ecf_model *models;
    size_t n;
    /* each model's name and aliases normalised (check_unique's keys,
     * ECF_MODEL_MAX_ALIASES + 1 per model, "" unused): ecf_zoo_find runs
     * per --batch line */
    char (*norm)[64];
};

#ifdef ECF_HAVE_EMBEDDED_MODELS_PACKED
/* tools/pack_zoo's output (cmake/embed_packed.S.in); zero length in the
 * tools that make the packed blobs */
extern const unsigned char ecf_embedded_models_packed[];
extern const unsigned char ecf_embedded_models_packed_end[];
#endif

/* The model_type values handled here, for the "supported:" list. */
#define ECF_HF_ARCH_TYPES                                                      \
    "gemma2, gemma3, gemma3_text, qwen3, qwen3_moe, phi3, deepseek_v3"

/** Builds *out from a parsed config when its model_type is one of
 *  ECF_HF_ARCH_TYPES (returns 0) or a vision/multimodal type (returns
 *  ECF_EINVAL "NAME: model_type 'mllama' (vision-language) is not supported
 *  yet ..."). Returns 1, touching nothing, for any other config. */
int ecf_hf_arch_config(ecf_model *out,
                       const cJSON *root,
                       const char *name,
                       ecf_err *err);

/** The local-attention layers of a decoder config `o` (its text object;
 *  `pfx` names it in messages) into m->sliding_window / sliding_layers:
 *  "layer_types" ("sliding_attention" / "chunked_attention" entries),
 *  else "sliding_window_pattern" (every N-th layer global: Gemma 3), else
 *  gemma2's alternation, else "sliding_window" on every layer unless
 *  "use_sliding_window" is false; "attention_chunk_size" for chunked
 *  layers (Llama 4). Needs m->layers. ECF_EINVAL naming `name`. */
int ecf_hf_window(ecf_model *m,
                  const cJSON *o,
                  const char *model_type,
                  const char *pfx,
                  const char *name,
                  ecf_err *err);

/** zoo.c's architecture check (kv_heads and head_dim defaults, GQA and
 *  expert ranges), ECF_EINVAL naming `where`. */
int ecf_zoo_check_transformer(ecf_model *m, const char *where, ecf_err *err);

/** Reads the optional "unet" block of zoo entry `o` (a diffusion model)
 *  into m->unet_* and m->vae_* (zoo_unet.c). Needs m->kind and
 *  m->image_size. ECF_EPARSE naming `where` on a bad block. */
int ecf_zoo_load_unet(ecf_model *m,
                      const cJSON *o,
                      const char *where,
                      ecf_err *err);

#endif
