/**
 * ec2fit/zoo.h - the model zoo (data/models.json, embedded at build time)
 * and the two ways to describe a custom model: a parameter count with
 * transformer defaults, or a Hugging Face config.json.
 *
 * ecf_model is a transparent value struct with fixed-size strings, so the
 * estimator and `recommend` copy it freely and never free anything. The
 * zoo itself is opaque and owns its models; ecf_zoo_at/ecf_zoo_find return
 * borrowed pointers valid until ecf_zoo_free().
 *
 * FLOPs convention: 2 FLOPs per multiply-accumulate everywhere. torchvision's
 * published "GFLOPS" are MACs and are doubled when the zoo is written.
 */
#ifndef EC2FIT_ZOO_H
#define EC2FIT_ZOO_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_ZOO_MAX_BYTES     (4u * 1024u * 1024u)
#define ECF_ZOO_MAX_MODELS    1000
#define ECF_MODEL_MAX_ALIASES 4
/** Resolution levels of a diffusion UNet the zoo can describe. */
#define ECF_UNET_MAX_LEVELS 4
/* A Hugging Face config.json larger than this is refused unread. */
#define ECF_HF_CONFIG_MAX_BYTES (1u * 1024u * 1024u)

typedef enum {
    ECF_KIND_CNN = 0,   /* convolutional vision model */
    ECF_KIND_VIT,       /* vision transformer (encoder over patches) */
    ECF_KIND_ENCODER,   /* BERT-style text encoder */
    ECF_KIND_DECODER,   /* dense causal LM */
    ECF_KIND_MOE,       /* mixture-of-experts causal LM */
    ECF_KIND_SPEECH,    /* Whisper-style encoder-decoder over audio */
    ECF_KIND_DIFFUSION, /* latent diffusion (UNet + text encoder + VAE) */
    ECF_KIND_COUNT
} ecf_model_kind;

/** "cnn", "vit", "encoder", "decoder", "moe", "speech", "diffusion". */
const char *ecf_model_kind_name(ecf_model_kind k);
/** Parses a kind name; -1 when unknown. */
int ecf_model_kind_parse(const char *s);
/** True for kinds whose workloads are measured in tokens (decoder, moe). */
bool ecf_model_kind_is_llm(ecf_model_kind k);
/** True for kinds built from transformer blocks (everything but cnn). */
bool ecf_model_kind_is_transformer(ecf_model_kind k);

/** One model. Zero means "not applicable" for every architecture field
 *  (a CNN has no layers/hidden/heads here; a dense model no experts). */
typedef struct {
    char name[64];                           /* canonical, "llama-3.1-8b" */
    char aliases[ECF_MODEL_MAX_ALIASES][64]; /* "" = unused */
    char display[96];                        /* "Llama 3.1 8B" */
    ecf_model_kind kind;
    double params;        /* total parameters */
    double active_params; /* per token (MoE); == params for dense */
    int layers;           /* transformer blocks (decoder side for speech) */
    int hidden;           /* model width d_model */
    int heads;            /* attention heads */
    int kv_heads;         /* key/value heads (GQA); == heads without GQA */
    int head_dim;         /* hidden / heads unless the config says else */
    int intermediate;     /* MLP width (per expert for MoE) */
    int vocab;            /* vocabulary size */
    int max_context;      /* max positions; 0 = fixed-size input */
    int experts;          /* MoE experts per layer; 0 = dense */
    int experts_per_tok;  /* MoE experts routed per token */
    bool tie_embeddings;  /* input and output embeddings shared */
    double fwd_gflops_per_sample;  /* forward GFLOPs (2/MAC) for one sample
                                      at the default input; for diffusion one
                                      UNet denoising step; 0 = derive from
                                      params x tokens (transformers) */
    double act_mib_per_sample;     /* CNN/diffusion: 16-bit activations kept
                                      for the backward pass per sample at the
                                      default input, MiB; transformers use the
                                      formula in docs/estimation.md instead */
    double winograd_frac;          /* CNN: share of the forward FLOPs in
                                      dense 3x3 stride-1 convolutions (the
                                      ones cuDNN's Winograd algorithms run),
                                      counted from the architecture; 0 =
                                      none (docs/estimation.md 5.4) */
    double input_bytes_per_sample; /* encoded bytes read from storage per
                                      sample (JPEG, audio, tokens) */
    int default_batch;   /* per-device batch used when --batch-size absent */
    int default_seq_len; /* tokens per sample (transformers); patches+1
                            for ViT; 0 for CNN */
    int image_size;      /* input resolution in pixels (vision), 0 = n/a */
    int eager_kernels;   /* CNN: kernels one eval-mode eager forward
                            launches, counted from torchvision's modules
                            (docs/estimation.md 5.5); 0 = unknown */
    int diffusion_steps; /* denoising steps per generated image */
    int cfg_passes;      /* diffusion: forward passes per step, 2 with
                            classifier-free guidance (0 means 2), 1 when
                            guidance-distilled (FLUX.1-dev) */
    int kv_dim_per_layer; /* KV-cache elements per token per layer when not
                             2 x kv_heads x head_dim: the compressed latent
                             of multi-head latent attention (DeepSeek-V3:
                             kv_lora_rank + qk_rope_head_dim = 576); 0 = GQA */
    int sliding_window;  /* tokens a local (sliding-window or chunked)
                            attention layer keeps in its KV cache; 0 = none */
    int sliding_layers;  /* how many of the layers are local (Gemma 3 27B:
                            52 of 62); 0 with a window = all of them */
    /* Diffusion UNet (zoo key "unet"; data/sources/diffusion), used for
     * the inference activations of docs/estimation.md 4.3. 0 levels = not
     * a UNet (the DiT models keep act_mib_per_sample). */
    int unet_levels;
    int unet_channels[ECF_UNET_MAX_LEVELS];   /* block_out_channels */
    int unet_attn_heads[ECF_UNET_MAX_LEVELS]; /* transformer heads at the
                                                 level, 0 = no attention */
    int unet_tf_depth[ECF_UNET_MAX_LEVELS]; /* transformer blocks per
                                               attention level (the
                                               config's transformer_depth;
                                               1 when not given) */
    int vae_channels; /* VAE decoder width at full resolution (ddconfig ch) */
    bool vae_fp32;    /* the pipeline decodes in fp32 (SDXL force_upcast) */
    char source[512];    /* where every number comes from */
} ecf_model;

typedef struct ecf_zoo ecf_zoo;

/** Parses and validates a zoo held in memory (schema: docs/estimation.md).
 *  `name` prefixes error messages. On success *out is the caller's, freed
 *  with ecf_zoo_free(); NULL on failure.
 *  Errors: ECF_EPARSE (syntax with byte offset, or schema), ECF_EINVAL
 *  (over a limit). */
int ecf_zoo_load_buffer(ecf_zoo **out,
                        const char *data,
                        size_t len,
                        const char *name,
                        ecf_err *err);

/** Loads the zoo embedded at build time: the packed copy when the build
 *  made one (ecf_zoo_load_packed), else the JSON. Errors: ECF_EIO when
 *  this build has none, else as ecf_zoo_load_buffer/ecf_zoo_load_packed. */
int ecf_zoo_embedded(ecf_zoo **out, ecf_err *err);

/** The packed form of a loaded zoo (build tool tools/pack_zoo.c): its
 *  models and lookup keys as bytes, read back by ecf_zoo_load_packed in a
 *  build for the same ABI without a JSON parse. *blob is the caller's
 *  (free()). Errors: ECF_EINVAL (NULL zoo). */
int ecf_zoo_pack(void **blob, size_t *len, const ecf_zoo *zoo, ecf_err *err);

/** Loads a blob made by ecf_zoo_pack. Checks its header (format, byte
 *  order, record sizes, count), its length, and each model's strings and
 *  kind; the models themselves were validated by the JSON loader when the
 *  blob was made. Errors: ECF_EPARSE "NAME: packed zoo: ...". */
int ecf_zoo_load_packed(ecf_zoo **out, const void *blob, size_t len,
                        const char *name, ecf_err *err);

void ecf_zoo_free(ecf_zoo *zoo);

size_t ecf_zoo_count(const ecf_zoo *zoo);
/** Borrowed; NULL when i is out of range. Models keep file order. */
const ecf_model *ecf_zoo_at(const ecf_zoo *zoo, size_t i);
/** Case-insensitive lookup by name or alias, ignoring '-', '_' and '.'
 *  differences ("Llama3.1-8B" finds "llama-3.1-8b"). Borrowed; NULL when
 *  absent. */
const ecf_model *ecf_zoo_find(const ecf_zoo *zoo, const char *name);

/** Fills up to `max` borrowed names close to `name` (for "did you mean"),
 *  best first. */
size_t ecf_zoo_suggest(const char **out,
                       size_t max,
                       const ecf_zoo *zoo,
                       const char *name);

/** A dense decoder with `params` parameters and Llama-like shape: the
 *  width is picked from a table of common sizes so that 12·L·h² + 2·V·h is
 *  close to `params` (docs/estimation.md, "Custom models"). The name is
 *  "custom-<count>". Errors: ECF_EINVAL unless 1e6 <= params <= 1e13. */
int ecf_model_from_params(ecf_model *out, double params, ecf_err *err);

/** Reads a Hugging Face config.json (llama, mistral, qwen2, mixtral, gpt2,
 *  bert, roberta, distilbert key styles; gemma2, gemma3, qwen3, qwen3_moe,
 *  phi3 and deepseek_v3 in hf_arch.c) and derives the parameter count
 *  from the architecture. Vision-language configs (mllama, llava, ...)
 *  are refused as not supported yet. `name` labels the model and error
 *  messages.
 *  Errors: ECF_EINVAL "NAME: ..." for malformed JSON (with byte offset),
 *  missing or out-of-range keys, or an unsupported architecture. User
 *  files are user input, so this is EINVAL (exit 2), not EPARSE. */
int ecf_model_from_hf_config(ecf_model *out,
                             const char *json,
                             size_t len,
                             const char *name,
                             ecf_err *err);

/* Architecture traits for ecf_model_transformer_params. */
#define ECF_TF_GATED_MLP   (1u << 0) /* SwiGLU: 3 MLP matrices (llama) */
#define ECF_TF_QKV_BIAS    (1u << 1) /* biases on q, k, v only (qwen2) */
#define ECF_TF_LINEAR_BIAS (1u << 2) /* biases on every linear (gpt2, bert) */
#define ECF_TF_LEARNED_POS (1u << 3) /* learned position table, ctx x h */
#define ECF_TF_LAYERNORM   (1u << 4) /* LayerNorm (weight+bias), not RMSNorm */
#define ECF_TF_BERT_EXTRAS (1u << 5) /* token-type table (2 x h) + pooler */
#define ECF_TF_MLP_BIAS                                                        \
    (1u << 6) /* biases on the MLP and out-proj only                           \
                 (gpt-j) */
#define ECF_TF_QK_NORM  (1u << 7) /* q and k RMSNorms, head_dim each (qwen3) */
#define ECF_TF_SANDWICH (1u << 8) /* 4 norms per block, pre + post (gemma) */

/** Parameter count of a decoder/encoder transformer from m's architecture
 *  fields and `traits` (ECF_TF_*): embeddings, the LM head unless tied,
 *  attention (GQA aware, head_dim may differ from hidden/heads), the MLP
 *  (times experts plus the router for MoE) and norms. Writes the per-token
 *  active count (top-k experts only) to *active_out when non-NULL. */
double ecf_model_transformer_params(const ecf_model *m,
                                    unsigned int traits,
                                    double *active_out);

/** KV-cache elements per token of context, whole model (all layers):
 *  layers x kv_dim_per_layer for latent attention (MLA), else
 *  2 x layers x kv_heads x head_dim. 0 for non-LLM kinds. */
double ecf_model_kv_elems_per_token(const ecf_model *m);

/** Tokens of KV cache a request with `ctx` tokens of context holds, per
 *  layer on average: (global layers x ctx + local layers x min(ctx,
 *  sliding_window)) / layers; `ctx` when the model has no local layers.
 *  Multiply by ecf_model_kv_elems_per_token for the elements. */
double ecf_model_kv_context(const ecf_model *m, double ctx);

/** Forward passes per denoising step: 1 for guidance-distilled models
 *  (cfg_passes = 1), else 2 (classifier-free guidance). */
int ecf_model_cfg_passes(const ecf_model *m);

/** Applies --steps and --resolution to a diffusion model: steps (0 = keep)
 *  replaces diffusion_steps; width x height (0 = keep) scales the
 *  per-step GFLOPs, activations and input bytes by the pixel ratio to the
 *  model's image_size^2 (compute ~ latent tokens, docs/estimation.md).
 *  Errors: ECF_EINVAL naming the flag when m is not a diffusion model or a
 *  side is not a multiple of 8 from 64 to 8192. */
int ecf_model_diffusion_scale(
    ecf_model *m, int steps, int width, int height, ecf_err *err);

#ifdef __cplusplus
}
#endif

#endif
