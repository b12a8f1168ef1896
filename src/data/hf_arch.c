/*
 * hf_arch.c - Hugging Face config.json import for gemma2, gemma3 (text
 * decoder plus its SigLIP vision tower), qwen3, qwen3_moe, phi3 and
 * deepseek_v3 (multi-head latent attention + DeepSeekMoE), and the
 * one-line refusal of vision-language configs (mllama, llava, ...).
 * Counting formulas and their sources: docs/estimation.md section 2.3.
 */
#include "zoo_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef enum { FAM_DECODER, FAM_GEMMA3, FAM_DEEPSEEK } family;

/* One architecture: its key defaults are those of the transformers
 * configuration class (configuration_<type>.py) when a key is absent. */
typedef struct {
    const char *model_type;
    family fam;
    ecf_model_kind kind;
    unsigned int traits;
    int default_head_dim; /* 0 = hidden / heads */
    int default_vocab;    /* 0 = vocab_size required */
    int default_ctx;      /* 0 = 4096 when absent */
    bool default_tie;
    const char *experts_key;  /* NULL = dense */
    const char *expert_width; /* MLP width per expert */
} arch;

static const arch archs[] = {
    {"gemma2", FAM_DECODER, ECF_KIND_DECODER,
     ECF_TF_GATED_MLP | ECF_TF_SANDWICH, 256, 0, 8192, true, NULL, NULL},
    {"gemma3", FAM_GEMMA3, ECF_KIND_DECODER,
     ECF_TF_GATED_MLP | ECF_TF_SANDWICH | ECF_TF_QK_NORM, 256, 262208, 131072,
     true, NULL, NULL},
    {"gemma3_text", FAM_DECODER, ECF_KIND_DECODER,
     ECF_TF_GATED_MLP | ECF_TF_SANDWICH | ECF_TF_QK_NORM, 256, 262208, 131072,
     true, NULL, NULL},
    {"qwen3", FAM_DECODER, ECF_KIND_DECODER,
     ECF_TF_GATED_MLP | ECF_TF_QK_NORM, 128, 0, 32768, false, NULL, NULL},
    {"qwen3_moe", FAM_DECODER, ECF_KIND_MOE,
     ECF_TF_GATED_MLP | ECF_TF_QK_NORM, 128, 0, 32768, false, "num_experts",
     "moe_intermediate_size"},
    {"phi3", FAM_DECODER, ECF_KIND_DECODER, ECF_TF_GATED_MLP, 0, 0, 0, false,
     NULL, NULL},
    {"deepseek_v3", FAM_DEEPSEEK, ECF_KIND_MOE, ECF_TF_GATED_MLP, 0, 0, 0,
     false, NULL, NULL},
};

/* Vision-language and speech types refused with a clear message; any
 * other config carrying a "vision_config" (except gemma3) is too. */
static const char *const multimodal[] = {
    "mllama",     "llava",         "llava_next", "llava_onevision",
    "qwen2_vl",   "qwen2_5_vl",    "idefics2",   "idefics3",
    "paligemma",  "pixtral",       "mistral3",   "llama4",
    "phi3_v",     "phi4_multimodal", "gemma3n",  "internvl_chat",
    "blip-2",     "clip",          "siglip",     "qwen2_audio",
    "whisper",    "mllama_text_model",
};

/* An integer key of object `o` (`pfx` names its parent in messages). */
static int get_int(int *out,
                   const cJSON *o,
                   const char *key,
                   bool required,
                   int min,
                   int max,
                   const char *pfx,
                   const char *name,
                   ecf_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v || cJSON_IsNull(v)) {
        if (required)
            return ecf_err_set(err, ECF_EINVAL, "%s: missing \"%s%s\"", name,
                               pfx, key);
        return 0;
    }
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < min || v->valuedouble > max)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: \"%s%s\": expected an integer from %d to %d",
                           name, pfx, key, min, max);
    *out = (int)v->valuedouble;
    return 0;
}

static int get_tie(bool *out,
                   const cJSON *o,
                   bool dflt,
                   const char *name,
                   ecf_err *err)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "tie_word_embeddings");
    if (t && !cJSON_IsBool(t))
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: \"tie_word_embeddings\": expected true or "
                           "false",
                           name);
    *out = t ? cJSON_IsTrue(t) : dflt;
    return 0;
}

/* The llama-style keys every supported decoder shares. */
static int read_common(ecf_model *m,
                       const cJSON *o,
                       const arch *a,
                       const char *pfx,
                       const char *name,
                       ecf_err *err)
{
    int rc;
    m->kind = a->kind;
    m->vocab = a->default_vocab;
    m->max_context = a->default_ctx;
    m->head_dim = a->default_head_dim;
    rc = get_int(&m->hidden, o, "hidden_size", true, 1, 1000000, pfx, name,
                 err);
    if (rc == 0)
        rc = get_int(&m->layers, o, "num_hidden_layers", true, 1, 10000, pfx,
                     name, err);
    if (rc == 0)
        rc = get_int(&m->heads, o, "num_attention_heads", true, 1, 10000, pfx,
                     name, err);
    if (rc == 0)
        rc = get_int(&m->vocab, o, "vocab_size", a->default_vocab == 0, 1,
                     10000000, pfx, name, err);
    if (rc == 0)
        rc = get_int(&m->max_context, o, "max_position_embeddings", false, 1,
                     100000000, pfx, name, err);
    if (rc == 0)
        rc = get_int(&m->kv_heads, o, "num_key_value_heads", false, 1, 10000,
                     pfx, name, err);
    if (rc == 0)
        rc = get_int(&m->head_dim, o, "head_dim", false, 1, 100000, pfx, name,
                     err);
    if (rc == 0)
        rc = get_tie(&m->tie_embeddings, o, a->default_tie, name, err);
    if (m->max_context == 0)
        m->max_context = 4096;
    return rc;
}

static int read_decoder(ecf_model *m,
                        const cJSON *o,
                        const arch *a,
                        const char *pfx,
                        const char *name,
                        ecf_err *err)
{
    int rc = read_common(m, o, a, pfx, name, err), step = 1;
    const cJSON *only;

    if (rc == 0 && !a->experts_key)
        rc = get_int(&m->intermediate, o, "intermediate_size", true, 1,
                     10000000, pfx, name, err);
    if (rc == 0 && a->experts_key)
        rc = get_int(&m->intermediate, o, a->expert_width, true, 1, 10000000,
                     pfx, name, err);
    if (rc == 0 && a->experts_key)
        rc = get_int(&m->experts, o, a->experts_key, true, 1, 100000, pfx,
                     name, err);
    if (rc == 0 && a->experts_key)
        rc = get_int(&m->experts_per_tok, o, "num_experts_per_tok", true, 1,
                     100000, pfx, name, err);
    if (rc == 0 && a->experts_key)
        rc = get_int(&step, o, "decoder_sparse_step", false, 1, 10000, pfx,
                     name, err);
    if (rc < 0)
        return rc;
    /* Every layer an MoE layer is all the count supports (Qwen3 MoE
     * checkpoints all are). */
    only = cJSON_GetObjectItemCaseSensitive(o, "mlp_only_layers");
    if (step != 1 || (cJSON_IsArray(only) && cJSON_GetArraySize(only) > 0))
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: dense layers between MoE layers "
                           "(decoder_sparse_step, mlp_only_layers) are not "
                           "supported yet",
                           name);
    return 0;
}

/* SigLIP vision tower + Gemma 3 projector, from vision_config: per layer
 * q, k, v, o with biases, a 2-matrix GELU MLP with biases and two
 * LayerNorms; patch convolution, learned positions, post-LayerNorm; the
 * projector is vision_hidden x text_hidden plus an RMSNorm. */
static int siglip_params(double *out,
                         const cJSON *v,
                         int text_hidden,
                         const char *name,
                         ecf_err *err)
{
    const char *pfx = "vision_config.";
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(v, "model_type");
    int h = 0, L = 0, I = 0, patch = 0, img = 0, rc;
    double hh, per_layer, grid;

    if (cJSON_IsString(mt) && strcmp(mt->valuestring, "siglip_vision_model"))
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: vision tower '%.40s' is not supported yet "
                           "(siglip_vision_model is)",
                           name, mt->valuestring);
    rc = get_int(&h, v, "hidden_size", true, 1, 1000000, pfx, name, err);
    if (rc == 0)
        rc = get_int(&L, v, "num_hidden_layers", true, 1, 10000, pfx, name,
                     err);
    if (rc == 0)
        rc = get_int(&I, v, "intermediate_size", true, 1, 10000000, pfx, name,
                     err);
    if (rc == 0)
        rc = get_int(&patch, v, "patch_size", true, 1, 10000, pfx, name, err);
    if (rc == 0)
        rc = get_int(&img, v, "image_size", true, 1, 100000, pfx, name, err);
    if (rc < 0)
        return rc;
    hh = h;
    per_layer = 4.0 * hh * hh + 4.0 * hh + 2.0 * hh * I + I + hh + 4.0 * hh;
    grid = (double)(img / patch) * (img / patch);
    *out = L * per_layer + 3.0 * patch * patch * hh + hh + grid * hh +
           2.0 * hh + hh * text_hidden + hh;
    return 0;
}

/* DeepSeek-V3 (modeling_deepseek.py): MLA attention with low-rank q and
 * a compressed KV latent, first_k_dense_replace dense layers, then MoE
 * layers of n_routed_experts + n_shared_experts SwiGLU experts and a
 * sigmoid router with a per-expert bias. The multi-token-prediction
 * module (num_nextn_predict_layers) is not part of the published 671B. */
static int read_deepseek(ecf_model *m,
                         const cJSON *o,
                         const arch *a,
                         const char *name,
                         ecf_err *err)
{
    int I = 0, E = 0, S = 0, K = 0, dense = 0, freq = 1, qr = 0, kvr = 0,
        nope = 0, rope = 0, vd = 0, rc;
    double h, H, attn, norms, expert, moe, dense_mlp, total, L;

    rc = read_common(m, o, a, "", name, err);
    if (rc == 0)
        rc = get_int(&I, o, "intermediate_size", true, 1, 10000000, "", name,
                     err);
    if (rc == 0)
        rc = get_int(&m->intermediate, o, "moe_intermediate_size", true, 1,
                     10000000, "", name, err);
    if (rc == 0)
        rc = get_int(&E, o, "n_routed_experts", true, 1, 100000, "", name, err);
    if (rc == 0)
        rc = get_int(&S, o, "n_shared_experts", false, 0, 100000, "", name,
                     err);
    if (rc == 0)
        rc = get_int(&K, o, "num_experts_per_tok", true, 1, 100000, "", name,
                     err);
    if (rc == 0)
        rc = get_int(&dense, o, "first_k_dense_replace", false, 0, 10000, "",
                     name, err);
    if (rc == 0)
        rc = get_int(&freq, o, "moe_layer_freq", false, 1, 10000, "", name,
                     err);
    if (rc == 0)
        rc = get_int(&qr, o, "q_lora_rank", false, 1, 1000000, "", name, err);
    if (rc == 0)
        rc = get_int(&kvr, o, "kv_lora_rank", true, 1, 1000000, "", name, err);
    if (rc == 0)
        rc = get_int(&nope, o, "qk_nope_head_dim", true, 0, 100000, "", name,
                     err);
    if (rc == 0)
        rc = get_int(&rope, o, "qk_rope_head_dim", true, 0, 100000, "", name,
                     err);
    if (rc == 0)
        rc = get_int(&vd, o, "v_head_dim", true, 1, 100000, "", name, err);
    if (rc < 0)
        return rc;
    if (freq != 1)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: \"moe_layer_freq\" %d: only 1 (every layer "
                           "after the dense ones) is supported yet",
                           name, freq);
    if (K > E)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: experts per token must be from 1 to %d", name,
                           E);
    if (nope + rope < 1)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: qk_nope_head_dim + qk_rope_head_dim must be "
                           "at least 1",
                           name);
    if (dense > m->layers)
        dense = m->layers;
    h = m->hidden;
    H = m->heads;
    L = m->layers;
    m->kv_heads = m->heads; /* MLA: every head reads the shared latent */
    m->head_dim = nope + rope;
    m->kv_dim_per_layer = kvr + rope;
    m->experts = E;
    m->experts_per_tok = K;
    /* q: h x q_lora_rank, its RMSNorm, q_lora_rank x H x (nope + rope), or
     * h x H x (nope + rope) without compression; kv: h x (kv_lora_rank +
     * rope) and its RMSNorm, kv_lora_rank x H x (nope + v); o: H x v x h */
    attn = qr > 0 ? h * qr + qr + (double)qr * H * (nope + rope)
                  : h * H * (nope + rope);
    attn += h * (kvr + rope) + kvr + (double)kvr * H * (nope + vd) +
            H * vd * h;
    norms = 2.0 * h;
    dense_mlp = 3.0 * h * I;
    expert = 3.0 * h * m->intermediate;
    moe = (double)(E + S) * expert + h * E + E; /* router weight + bias */
    total = m->vocab * h * (m->tie_embeddings ? 1.0 : 2.0) +
            dense * (attn + norms + dense_mlp) +
            (L - dense) * (attn + norms + moe) + h;
    m->params = total;
    m->active_params = total - (L - dense) * (double)(E - K) * expert;
    return 0;
}

int ecf_hf_window(ecf_model *m,
                  const cJSON *o,
                  const char *model_type,
                  const char *pfx,
                  const char *name,
                  ecf_err *err)
{
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(o, "layer_types");
    const cJSON *use = cJSON_GetObjectItemCaseSensitive(o, "use_sliding_window");
    const cJSON *t;
    int win = 0, chunk = 0, pattern = 0, local = 0, chunked = 0, rc;

    rc = get_int(&win, o, "sliding_window", false, 1, 100000000, pfx, name,
                 err);
    if (rc == 0)
        rc = get_int(&chunk, o, "attention_chunk_size", false, 1, 100000000,
                     pfx, name, err);
    if (rc == 0)
        rc = get_int(&pattern, o, "sliding_window_pattern", false, 1, 10000,
                     pfx, name, err);
    if (rc < 0)
        return rc;
    if (cJSON_IsArray(types)) {
        if (cJSON_GetArraySize(types) != m->layers)
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: \"%slayer_types\": %d entries for %d "
                               "layers",
                               name, pfx, cJSON_GetArraySize(types),
                               m->layers);
        cJSON_ArrayForEach(t, types)
        {
            if (!cJSON_IsString(t))
                return ecf_err_set(err, ECF_EINVAL,
                                   "%s: \"%slayer_types\": expected strings",
                                   name, pfx);
            if (strcmp(t->valuestring, "sliding_attention") == 0)
                local++;
            else if (strcmp(t->valuestring, "chunked_attention") == 0)
                chunked++;
        }
        if (chunked > 0 && local == 0 && chunk > 0) {
            local = chunked;
            win = chunk;
        }
        if (local == 0 || win == 0)
            return 0;
    } else if (cJSON_IsFalse(use) || win == 0) {
        return 0;
    } else if (pattern > 0) {
        /* Gemma 3: layer i is global when (i + 1) % pattern == 0 */
        local = m->layers - m->layers / pattern;
    } else if (strcmp(model_type, "gemma2") == 0) {
        /* Gemma 2: even layers local, odd global */
        local = (m->layers + 1) / 2;
    } else {
        local = m->layers; /* Mistral 7B v0.1, Phi-3: every layer */
    }
    m->sliding_window = win;
    m->sliding_layers = local;
    return 0;
}

static void finish(ecf_model *m, const char *name, const char *type,
                   const char *note)
{
    snprintf(m->name, sizeof(m->name), "%s", name);
    snprintf(m->display, sizeof(m->display), "%s (%s config)", name, type);
    m->default_seq_len = m->max_context < 2048 ? m->max_context : 2048;
    m->default_batch = 4;
    m->input_bytes_per_sample = 4.0 * m->default_seq_len;
    snprintf(m->source, sizeof(m->source),
             "%s (Hugging Face %s config); parameter count derived from the "
             "architecture%s",
             name, type, note);
}

int ecf_hf_arch_config(ecf_model *out,
                       const cJSON *root,
                       const char *name,
                       ecf_err *err)
{
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(root, "model_type");
    const cJSON *text, *vision;
    const arch *a = NULL;
    const char *note = "";
    double active = 0, vision_params = 0;
    ecf_model m;
    size_t i;
    int rc;

    vision = cJSON_GetObjectItemCaseSensitive(root, "vision_config");
    if (!cJSON_IsString(mt)) {
        if (!mt && vision)
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: a vision/multimodal config "
                               "(\"vision_config\"), not supported yet",
                               name);
        return 1;
    }
    for (i = 0; i < sizeof(multimodal) / sizeof(multimodal[0]); i++)
        if (strcmp(mt->valuestring, multimodal[i]) == 0)
            break;
    if (i < sizeof(multimodal) / sizeof(multimodal[0]) ||
        (vision && strcmp(mt->valuestring, "gemma3") != 0))
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: model_type '%.40s' is a vision/multimodal "
                           "config, not supported yet (give the text "
                           "model's config.json, or --params)",
                           name, mt->valuestring);
    for (i = 0; i < sizeof(archs) / sizeof(archs[0]); i++)
        if (strcmp(mt->valuestring, archs[i].model_type) == 0)
            a = &archs[i];
    if (!a)
        return 1;

    memset(&m, 0, sizeof(m));
    if (a->fam == FAM_DEEPSEEK) {
        rc = read_deepseek(&m, root, a, name, err);
        if (rc == 0)
            rc = ecf_zoo_check_transformer(&m, name, err);
        if (rc < 0)
            return rc;
        finish(&m, name, a->model_type,
               "; MLA KV cache: kv_lora_rank + qk_rope_head_dim per token "
               "per layer");
        *out = m;
        return 0;
    }
    text = root;
    if (a->fam == FAM_GEMMA3) {
        text = cJSON_GetObjectItemCaseSensitive(root, "text_config");
        if (!cJSON_IsObject(text))
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: gemma3: missing \"text_config\" object",
                               name);
    }
    rc = read_decoder(&m, text, a, text == root ? "" : "text_config.", name,
                      err);
    if (rc == 0)
        rc = ecf_zoo_check_transformer(&m, name, err);
    if (rc == 0)
        rc = ecf_hf_window(&m, text, a->model_type,
                           text == root ? "" : "text_config.", name, err);
    if (rc == 0 && a->fam == FAM_GEMMA3 && vision) {
        if (!cJSON_IsObject(vision))
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: \"vision_config\": expected an object",
                               name);
        rc = siglip_params(&vision_params, vision, m.hidden, name, err);
        note = "; SigLIP vision tower included";
    }
    if (rc < 0)
        return rc;
    m.params = ecf_model_transformer_params(&m, a->traits, &active);
    m.active_params = a->kind == ECF_KIND_MOE ? active : m.params;
    m.params += vision_params;
    m.active_params += vision_params;
    finish(&m, name, a->model_type, note);
    *out = m;
    return 0;
}
