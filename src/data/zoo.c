/*
 * zoo.c - the model zoo loader (data/models.json), lookups, and the two
 * custom-model paths: --params (Llama-shaped defaults) and --model-config
 * (a Hugging Face config.json).
 *
 * Invariants: every model in a loaded zoo has params > 0, a kind, and, for
 * transformer kinds, layers/hidden/heads/kv_heads > 0 with heads % kv_heads
 * == 0; CNN and diffusion models have fwd_gflops and act_mib_per_sample.
 * Names and aliases are unique after normalisation (lowercase, with '-',
 * '_' and '.' removed), so ecf_zoo_find can never be ambiguous.
 */
#include "ec2fit/zoo.h"

#include <ctype.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ec2fit/units.h"
#include "zoo_internal.h"
#include "json_check.h"
#include "parse.h"

#ifdef ECF_HAVE_EMBEDDED_MODELS
extern const char ecf_embedded_models[];
extern const char ecf_embedded_models_end[];
#endif

static const char *const kind_names[ECF_KIND_COUNT] = {
    "cnn", "vit", "encoder", "decoder", "moe", "speech", "diffusion"};

const char *ecf_model_kind_name(ecf_model_kind k)
{
    return (unsigned)k < ECF_KIND_COUNT ? kind_names[k] : "unknown";
}

int ecf_model_kind_parse(const char *s)
{
    int i;
    for (i = 0; i < ECF_KIND_COUNT; i++)
        if (strcmp(s, kind_names[i]) == 0)
            return i;
    return -1;
}

bool ecf_model_kind_is_llm(ecf_model_kind k)
{
    return k == ECF_KIND_DECODER || k == ECF_KIND_MOE;
}

bool ecf_model_kind_is_transformer(ecf_model_kind k)
{
    return k == ECF_KIND_VIT || k == ECF_KIND_ENCODER ||
           k == ECF_KIND_DECODER || k == ECF_KIND_MOE || k == ECF_KIND_SPEECH;
}

/* ---------------------------------------------------------------- */
/* Parameter counting                                                */
/* ---------------------------------------------------------------- */

double ecf_model_transformer_params(const ecf_model *m,
                                    unsigned int traits,
                                    double *active_out)
{
    double h = m->hidden, L = m->layers, V = m->vocab, I = m->intermediate;
    double hd = m->head_dim > 0 ? m->head_dim : (double)m->hidden / m->heads;
    double q = m->heads * hd, kv = m->kv_heads * hd;
    double norm_w = (traits & ECF_TF_LAYERNORM) ? 2.0 : 1.0;
    double emb, head, attn, mlp, mlp_active, router = 0, norms, total;

    emb = V * h;
    if (traits & ECF_TF_LEARNED_POS)
        emb += (double)m->max_context * h;
    head = m->tie_embeddings ? 0.0 : V * h;
    /* q, k, v and output projections (GQA: k and v have kv_heads). */
    attn = h * q + 2.0 * h * kv + q * h;
    if (traits & (ECF_TF_QKV_BIAS | ECF_TF_LINEAR_BIAS))
        attn += q + 2.0 * kv;
    if (traits & ECF_TF_LINEAR_BIAS)
        attn += h;
    mlp = ((traits & ECF_TF_GATED_MLP) ? 3.0 : 2.0) * h * I;
    if (traits & (ECF_TF_LINEAR_BIAS | ECF_TF_MLP_BIAS))
        mlp += ((traits & ECF_TF_GATED_MLP) ? 2.0 * I : I) + h;
    mlp_active = mlp;
    if (m->experts > 0) {
        mlp_active = mlp * m->experts_per_tok;
        mlp *= m->experts;
        router = h * m->experts;
    }
    norms = ((traits & ECF_TF_SANDWICH) ? 4.0 : 2.0) * norm_w * h;
    if (traits & ECF_TF_QK_NORM)
        norms += 2.0 * hd;
    total = emb + head + L * (attn + mlp + router + norms) + norm_w * h;
    if (traits & ECF_TF_BERT_EXTRAS)
        total += 2.0 * h + h * h + h; /* token types (2) + pooler */
    if (active_out)
        *active_out = total - L * (mlp - mlp_active);
    return total;
}

/* ---------------------------------------------------------------- */
/* Zoo loading                                                       */
/* ---------------------------------------------------------------- */

/* Lowercase with '-', '_' and '.' removed: the key ecf_zoo_find compares. */
static void normalise(char *out, size_t size, const char *s)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++) {
        if (*s == '-' || *s == '_' || *s == '.')
            continue;
        out[n++] = (char)tolower((unsigned char)*s);
    }
    out[n] = '\0';
}

static int get_string(char *dst,
                      size_t size,
                      const cJSON *obj,
                      const char *key,
                      bool required,
                      const char *where,
                      ecf_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (!required)
            return 0;
        return ecf_err_set(err, ECF_EPARSE, "%s: missing \"%s\"", where, key);
    }
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"%s\": expected a non-empty string", where,
                           key);
    if (strlen(v->valuestring) >= size)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"%s\": longer than %zu characters", where, key,
                           size - 1);
    memcpy(dst, v->valuestring, strlen(v->valuestring) + 1);
    return 0;
}

/* A number >= min (and <= max); absent keys leave *out unchanged. */
static int get_number(double *out,
                      const cJSON *obj,
                      const char *key,
                      bool required,
                      double min,
                      double max,
                      const char *where,
                      ecf_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v)) {
        if (!required)
            return 0;
        return ecf_err_set(err, ECF_EPARSE, "%s: missing \"%s\"", where, key);
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
        v->valuedouble < min || v->valuedouble > max)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"%s\": expected a number from %g to %g", where,
                           key, min, max);
    *out = v->valuedouble;
    return 0;
}

static int get_int(int *out,
                   const cJSON *obj,
                   const char *key,
                   bool required,
                   int min,
                   int max,
                   const char *where,
                   ecf_err *err)
{
    double d = *out;
    int rc = get_number(&d, obj, key, required, min, max, where, err);
    if (rc < 0)
        return rc;
    if (d != floor(d))
        return ecf_err_set(err, ECF_EPARSE, "%s: \"%s\": expected an integer",
                           where, key);
    *out = (int)d;
    return 0;
}

/* Checks the architecture of a transformer model; `where` names it. */
static int
check_transformer(ecf_model *m, const char *where, ecf_code code, ecf_err *err)
{
    if (m->layers < 1 || m->hidden < 1 || m->heads < 1)
        return ecf_err_set(err, code, "%s: a %s needs layers, hidden and heads",
                           where, ecf_model_kind_name(m->kind));
    if (m->kv_heads == 0)
        m->kv_heads = m->heads;
    if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0)
        return ecf_err_set(err, code,
                           "%s: %d attention heads are not a multiple of %d "
                           "key/value heads",
                           where, m->heads, m->kv_heads);
    if (m->head_dim == 0) {
        if (m->hidden % m->heads != 0)
            return ecf_err_set(err, code,
                               "%s: hidden size %d is not a multiple of %d "
                               "heads",
                               where, m->hidden, m->heads);
        m->head_dim = m->hidden / m->heads;
    }
    if (m->experts > 0 &&
        (m->experts_per_tok < 1 || m->experts_per_tok > m->experts))
        return ecf_err_set(err, code,
                           "%s: experts per token must be from 1 to %d", where,
                           m->experts);
    if (m->sliding_layers > m->layers)
        return ecf_err_set(err, code, "%s: %d sliding-window layers of %d",
                           where, m->sliding_layers, m->layers);
    return 0;
}

int ecf_zoo_check_transformer(ecf_model *m, const char *where, ecf_err *err)
{
    return check_transformer(m, where, ECF_EINVAL, err);
}

/* The numeric keys of a zoo entry: where each goes, whether it is
 * required, and its range. */
typedef struct {
    const char *key;
    size_t offset;
    bool is_int, required;
    double min, max;
} model_field;

static const model_field model_fields[] = {
    {"params", offsetof(ecf_model, params), false, true, 1e3, 1e14},
    {"active_params", offsetof(ecf_model, active_params), false, false, 1e3,
     1e14},
    {"layers", offsetof(ecf_model, layers), true, false, 1, 10000},
    {"hidden", offsetof(ecf_model, hidden), true, false, 1, 1000000},
    {"heads", offsetof(ecf_model, heads), true, false, 1, 10000},
    {"kv_heads", offsetof(ecf_model, kv_heads), true, false, 1, 10000},
    {"head_dim", offsetof(ecf_model, head_dim), true, false, 1, 100000},
    {"intermediate", offsetof(ecf_model, intermediate), true, false, 1,
     10000000},
    {"vocab", offsetof(ecf_model, vocab), true, false, 0, 10000000},
    {"max_context", offsetof(ecf_model, max_context), true, false, 0,
     100000000},
    {"experts", offsetof(ecf_model, experts), true, false, 0, 100000},
    {"experts_per_tok", offsetof(ecf_model, experts_per_tok), true, false, 0,
     100000},
    {"fwd_gflops", offsetof(ecf_model, fwd_gflops_per_sample), false, false, 0,
     1e9},
    {"act_mib_per_sample", offsetof(ecf_model, act_mib_per_sample), false,
     false, 0, 1e7},
    {"winograd_frac", offsetof(ecf_model, winograd_frac), false, false, 0, 1},
    {"input_bytes", offsetof(ecf_model, input_bytes_per_sample), false, true, 1,
     1e12},
    {"default_batch", offsetof(ecf_model, default_batch), true, true, 1,
     1000000},
    {"default_seq_len", offsetof(ecf_model, default_seq_len), true, false, 0,
     100000000},
    {"image_size", offsetof(ecf_model, image_size), true, false, 0, 100000},
    {"eager_kernels", offsetof(ecf_model, eager_kernels), true, false, 0,
     1000000},
    {"diffusion_steps", offsetof(ecf_model, diffusion_steps), true, false, 0,
     100000},
    {"cfg_passes", offsetof(ecf_model, cfg_passes), true, false, 0, 2},
    {"kv_dim_per_layer", offsetof(ecf_model, kv_dim_per_layer), true, false, 0,
     1000000},
    {"sliding_window", offsetof(ecf_model, sliding_window), true, false, 0,
     100000000},
    {"sliding_layers", offsetof(ecf_model, sliding_layers), true, false, 0,
     10000},
};

static int load_model(
    ecf_model *m, const cJSON *o, size_t idx, const char *file, ecf_err *err)
{
    char where[128];
    char kind[32];
    const cJSON *aliases;
    size_t f;
    int k, rc;

    memset(m, 0, sizeof(*m));
    snprintf(where, sizeof(where), "%s: models[%zu]", file, idx);
    if (!cJSON_IsObject(o))
        return ecf_err_set(err, ECF_EPARSE, "%s: expected an object", where);
    rc = get_string(m->name, sizeof(m->name), o, "name", true, where, err);
    if (rc < 0)
        return rc;
    snprintf(where, sizeof(where), "%s: model '%s'", file, m->name);
    rc = get_string(m->display, sizeof(m->display), o, "display", false, where,
                    err);
    if (rc == 0)
        rc = get_string(kind, sizeof(kind), o, "kind", true, where, err);
    if (rc == 0)
        rc = get_string(m->source, sizeof(m->source), o, "source", true, where,
                        err);
    if (rc < 0)
        return rc;
    if (!m->display[0])
        memcpy(m->display, m->name, sizeof(m->name));
    k = ecf_model_kind_parse(kind);
    if (k < 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"kind\": unknown kind '%s' (expected cnn, "
                           "vit, encoder, decoder, moe, speech or diffusion)",
                           where, kind);
    m->kind = (ecf_model_kind)k;
    aliases = cJSON_GetObjectItemCaseSensitive(o, "aliases");
    if (aliases) {
        const cJSON *a = NULL;
        int n = 0;
        if (!cJSON_IsArray(aliases))
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: \"aliases\": expected an array", where);
        cJSON_ArrayForEach (a, aliases) {
            if (n >= ECF_MODEL_MAX_ALIASES)
                return ecf_err_set(err, ECF_EPARSE,
                                   "%s: \"aliases\": more than %d", where,
                                   ECF_MODEL_MAX_ALIASES);
            if (!cJSON_IsString(a) || !a->valuestring[0] ||
                strlen(a->valuestring) >= sizeof(m->aliases[0]))
                return ecf_err_set(err, ECF_EPARSE,
                                   "%s: \"aliases\"[%d]: expected a short "
                                   "string",
                                   where, n);
            memcpy(m->aliases[n], a->valuestring, strlen(a->valuestring) + 1);
            n++;
        }
    }
    for (f = 0; f < sizeof(model_fields) / sizeof(model_fields[0]); f++) {
        const model_field *mf = &model_fields[f];
        char *dst = (char *)m + mf->offset;
        if (mf->is_int)
            rc = get_int((int *)(void *)dst, o, mf->key, mf->required,
                         (int)mf->min, (int)mf->max, where, err);
        else
            rc = get_number((double *)(void *)dst, o, mf->key, mf->required,
                            mf->min, mf->max, where, err);
        if (rc < 0)
            return rc;
    }
    {
        const cJSON *t =
            cJSON_GetObjectItemCaseSensitive(o, "tie_word_embeddings");
        if (t && !cJSON_IsBool(t))
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: \"tie_word_embeddings\": expected true "
                               "or false",
                               where);
        m->tie_embeddings = t && cJSON_IsTrue(t);
    }
    if (m->active_params <= 0)
        m->active_params = m->params;
    if (m->active_params > m->params)
        return ecf_err_set(err, ECF_EPARSE, "%s: active_params exceeds params",
                           where);
    if (ecf_model_kind_is_transformer(m->kind)) {
        rc = check_transformer(m, where, ECF_EPARSE, err);
        if (rc < 0)
            return rc;
        if (m->default_seq_len < 1)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: missing \"default_seq_len\"", where);
        if (m->kind == ECF_KIND_MOE && m->experts < 1)
            return ecf_err_set(err, ECF_EPARSE, "%s: a moe needs \"experts\"",
                               where);
    } else if (m->fwd_gflops_per_sample <= 0 || m->act_mib_per_sample <= 0) {
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: a %s needs \"fwd_gflops\" and "
                           "\"act_mib_per_sample\"",
                           where, kind);
    }
    if (m->kind == ECF_KIND_DIFFUSION && m->diffusion_steps < 1)
        m->diffusion_steps = 50;
    return ecf_zoo_load_unet(m, o, where, err);
}

/* No two models may share a name or alias after normalisation (a model
 * may list spellings of its own name, e.g. "resnet-18" for "resnet18"). */
static int check_unique(const ecf_model *models, size_t n, const char *file,
                        char (**keys)[64], ecf_err *err)
{
    enum { K = ECF_MODEL_MAX_ALIASES + 1 };
    size_t i, j, a, b;
    char (*norm)[64] = ecf_xcalloc(n * K, sizeof(*norm));
    int rc = 0;

    /* Normalise each name once (n * K keys), then compare in the same
     * order as before, so the first clash reported is unchanged. */
    for (i = 0; i < n; i++)
        for (a = 0; a < K; a++) {
            const char *na = a == 0 ? models[i].name : models[i].aliases[a - 1];
            if (na[0])
                normalise(norm[i * K + a], sizeof(norm[0]), na);
        }
    for (i = 0; i < n && !rc; i++) {
        for (a = 0; a < K && !rc; a++) {
            const char *na = a == 0 ? models[i].name : models[i].aliases[a - 1];
            if (!na[0])
                continue;
            for (j = i + 1; j < n && !rc; j++) {
                for (b = 0; b < K; b++) {
                    const char *nb =
                        b == 0 ? models[j].name : models[j].aliases[b - 1];
                    if (!nb[0])
                        continue;
                    if (strcmp(norm[i * K + a], norm[j * K + b]) == 0) {
                        rc = ecf_err_set(err, ECF_EPARSE,
                                         "%s: '%s' (%s) and '%s' (%s) "
                                         "name the same model",
                                         file, na, models[i].name, nb,
                                         models[j].name);
                        break;
                    }
                }
            }
        }
    }
    *keys = norm; /* the zoo's (ecf_zoo_find) */
    return rc;
}

/* trusted: the embedded copy of a data/ file, already checked by the
 * strict path in tests/unit/test_embedded_data.c, so the document-wide
 * ecf_json_check is skipped. */
static int load_buffer_(bool trusted,
    ecf_zoo **out, const char *data, size_t len, const char *name, ecf_err *err)
{
    cJSON *root = NULL;
    const cJSON *models, *m = NULL, *ver;
    ecf_zoo *zoo = NULL;
    size_t n = 0, i = 0;
    int rc = 0;

    *out = NULL;
    rc = (trusted ? ecf_json_parse_trusted : ecf_json_parse)(
        &root, data, len, ECF_ZOO_MAX_BYTES, "models ", name,
        ECF_EPARSE, err);
    if (rc)
        goto out;
    ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!cJSON_IsNumber(ver) || ver->valuedouble != 1) {
        rc = ecf_err_set(err, ECF_EPARSE, "%s: \"schema_version\": expected 1",
                         name);
        goto out;
    }
    models = cJSON_GetObjectItemCaseSensitive(root, "models");
    if (!cJSON_IsArray(models)) {
        rc = ecf_err_set(err, ECF_EPARSE, "%s: \"models\": expected an array",
                         name);
        goto out;
    }
    n = (size_t)cJSON_GetArraySize(models);
    if (n == 0 || n > ECF_ZOO_MAX_MODELS) {
        rc = ecf_err_set(err, ECF_EINVAL,
                         "%s: \"models\": expected 1 to %d models, got %zu",
                         name, ECF_ZOO_MAX_MODELS, n);
        goto out;
    }
    zoo = ecf_xcalloc(1, sizeof(*zoo));
    zoo->models = ecf_xcalloc(n, sizeof(ecf_model));
    cJSON_ArrayForEach (m, models) {
        rc = load_model(&zoo->models[i], m, i, name, err);
        if (rc < 0)
            goto out;
        i++;
    }
    zoo->n = n;
    rc = check_unique(zoo->models, n, name, &zoo->norm, err);
    if (rc < 0)
        goto out;
    *out = zoo;
    zoo = NULL;
out:
    cJSON_Delete(root);
    ecf_zoo_free(zoo);
    return rc;
}

int ecf_zoo_load_buffer(ecf_zoo **out, const char *data, size_t len, const char *name,
                        ecf_err *err)
{
    return load_buffer_(false, out, data, len, name, err);
}

int ecf_zoo_embedded(ecf_zoo **out, ecf_err *err)
{
#ifdef ECF_HAVE_EMBEDDED_MODELS_PACKED
    /* the packed copy the build made from the same file (zoo_packed.c):
     * no JSON parse per run; none in a build that cannot run the packer */
    size_t plen = (size_t)(ecf_embedded_models_packed_end -
                           ecf_embedded_models_packed);
    if (plen > 0)
        return ecf_zoo_load_packed(out, ecf_embedded_models_packed, plen,
                                   "embedded models", err);
#endif
#ifdef ECF_HAVE_EMBEDDED_MODELS
    return load_buffer_(
        true, out, ecf_embedded_models,
        (size_t)(ecf_embedded_models_end - ecf_embedded_models),
        "embedded models.json", err);
#else
    *out = NULL;
    return ecf_err_set(err, ECF_EIO, "this build has no embedded model zoo");
#endif
}

void ecf_zoo_free(ecf_zoo *zoo)
{
    if (!zoo)
        return;
    free(zoo->models);
    free(zoo->norm);
    free(zoo);
}

size_t ecf_zoo_count(const ecf_zoo *zoo)
{
    return zoo ? zoo->n : 0;
}

const ecf_model *ecf_zoo_at(const ecf_zoo *zoo, size_t i)
{
    return zoo && i < zoo->n ? &zoo->models[i] : NULL;
}

const ecf_model *ecf_zoo_find(const ecf_zoo *zoo, const char *name)
{
    char want[64];
    size_t i, a;

    if (!zoo || !name || strlen(name) >= sizeof(want))
        return NULL;
    normalise(want, sizeof(want), name);
    if (!want[0])
        return NULL;
    /* an unused alias's key is "", which `want` is not */
    for (i = 0; i < zoo->n; i++)
        for (a = 0; a <= ECF_MODEL_MAX_ALIASES; a++)
            if (strcmp(want, zoo->norm[i * (ECF_MODEL_MAX_ALIASES + 1) + a]) ==
                0)
                return &zoo->models[i];
    return NULL;
}

size_t ecf_zoo_suggest(const char **out,
                       size_t max,
                       const ecf_zoo *zoo,
                       const char *name)
{
    /* Up to a third of the name's length in edits (at least 2), measured
     * on normalised names so "llama3-8b" is close to "llama-3.1-8b". */
    char want[64], have[64];
    size_t best[8], count = 0, i, k, limit;

    if (!zoo || strlen(name) >= sizeof(want) || max == 0)
        return 0;
    if (max > 8)
        max = 8;
    normalise(want, sizeof(want), name);
    limit = strlen(want) / 3 < 2 ? 2 : strlen(want) / 3;
    for (i = 0; i < zoo->n; i++) {
        size_t d;
        normalise(have, sizeof(have), zoo->models[i].name);
        d = ecf_parse_edit_distance(want, have);
        if (d > limit)
            continue;
        for (k = count; k > 0 && best[k - 1] > d; k--) {
            if (k < max) {
                best[k] = best[k - 1];
                out[k] = out[k - 1];
            }
        }
        if (k < max) {
            best[k] = d;
            out[k] = zoo->models[i].name;
            if (count < max)
                count++;
        }
    }
    return count;
}

/* ---------------------------------------------------------------- */
/* Custom models                                                     */
/* ---------------------------------------------------------------- */

int ecf_model_from_params(ecf_model *out, double params, ecf_err *err)
{
    /* Widths and head counts of published dense decoders (GPT-2 small,
     * GPT-2 medium, TinyLlama/GPT-Neo 1.3B, Phi-2 2.7B, Llama 7B/13B/33B/
     * 70B, GPT-3 175B, Llama 3.1 405B, and a 1T extrapolation). The
     * depth is then chosen so that 12·L·h² + 2·V·h matches `params`. */
    static const struct {
        int hidden, heads;
        double params;
    } shapes[] = {
        {768, 12, 124e6},    {1024, 16, 350e6},  {2048, 16, 1.3e9},
        {2560, 32, 2.7e9},   {4096, 32, 6.7e9},  {5120, 40, 13e9},
        {6656, 52, 32.5e9},  {8192, 64, 69e9},   {12288, 96, 175e9},
        {16384, 128, 405e9}, {25600, 160, 1e12},
    };
    const double vocab = 32000;
    size_t i, pick = 0;
    double best = 1e300, h, L;
    char count[32];

    if (!(params >= 1e6 && params <= 1e13))
        return ecf_err_set(err, ECF_EINVAL,
                           "--params: expected a count from 1M to 10T");
    for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        double d = fabs(log(params / shapes[i].params));
        if (d < best) {
            best = d;
            pick = i;
        }
    }
    h = shapes[pick].hidden;
    L = floor((params - 2.0 * vocab * h) / (12.0 * h * h) + 0.5);
    if (L < 1)
        L = 1;
    memset(out, 0, sizeof(*out));
    snprintf(out->name, sizeof(out->name), "custom-%s",
             ecf_units_format_count(count, sizeof(count), params));
    snprintf(out->display, sizeof(out->display),
             "custom %s-parameter "
             "decoder",
             count);
    out->kind = ECF_KIND_DECODER;
    out->params = params;
    out->active_params = params;
    out->hidden = (int)h;
    out->layers = (int)L;
    out->heads = shapes[pick].heads;
    out->kv_heads = shapes[pick].heads; /* no GQA: the larger KV cache */
    out->head_dim = (int)h / shapes[pick].heads;
    /* SwiGLU width 8h/3 rounded up to 256 keeps 12·h² per layer. */
    out->intermediate = (int)(ceil(8.0 * h / 3.0 / 256.0) * 256.0);
    out->vocab = (int)vocab;
    out->max_context = 4096;
    out->default_batch = 4;
    out->default_seq_len = 2048;
    out->input_bytes_per_sample = 4.0 * 2048;
    snprintf(out->source, sizeof(out->source),
             "--params %s with Llama-like defaults: %d layers x %d hidden, "
             "%d heads, vocab 32000, context 4096 (docs/estimation.md)",
             count, out->layers, out->hidden, out->heads);
    return 0;
}

/* One Hugging Face key style: which keys hold which field. */
typedef struct {
    const char *model_type;
    ecf_model_kind kind;
    unsigned int traits;
    const char *hidden, *layers, *heads, *kv_heads, *intermediate, *ctx;
    double default_tie; /* tie_word_embeddings when the key is absent */
} hf_style;

static const hf_style hf_styles[] = {
    {"llama", ECF_KIND_DECODER, ECF_TF_GATED_MLP, "hidden_size",
     "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
     "intermediate_size", "max_position_embeddings", 0},
    {"mistral", ECF_KIND_DECODER, ECF_TF_GATED_MLP, "hidden_size",
     "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
     "intermediate_size", "max_position_embeddings", 0},
    {"qwen2", ECF_KIND_DECODER, ECF_TF_GATED_MLP | ECF_TF_QKV_BIAS,
     "hidden_size", "num_hidden_layers", "num_attention_heads",
     "num_key_value_heads", "intermediate_size", "max_position_embeddings", 0},
    {"mixtral", ECF_KIND_MOE, ECF_TF_GATED_MLP, "hidden_size",
     "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
     "intermediate_size", "max_position_embeddings", 0},
    {"gpt2", ECF_KIND_DECODER,
     ECF_TF_LINEAR_BIAS | ECF_TF_LEARNED_POS | ECF_TF_LAYERNORM, "n_embd",
     "n_layer", "n_head", NULL, "n_inner", "n_positions", 1},
    {"bert", ECF_KIND_ENCODER,
     ECF_TF_LINEAR_BIAS | ECF_TF_LEARNED_POS | ECF_TF_LAYERNORM |
         ECF_TF_BERT_EXTRAS,
     "hidden_size", "num_hidden_layers", "num_attention_heads", NULL,
     "intermediate_size", "max_position_embeddings", 1},
    {"roberta", ECF_KIND_ENCODER,
     ECF_TF_LINEAR_BIAS | ECF_TF_LEARNED_POS | ECF_TF_LAYERNORM |
         ECF_TF_BERT_EXTRAS,
     "hidden_size", "num_hidden_layers", "num_attention_heads", NULL,
     "intermediate_size", "max_position_embeddings", 1},
    {"distilbert", ECF_KIND_ENCODER,
     ECF_TF_LINEAR_BIAS | ECF_TF_LEARNED_POS | ECF_TF_LAYERNORM, "dim",
     "n_layers", "n_heads", NULL, "hidden_dim", "max_position_embeddings", 1},
};

/* Reads an integer key of a config.json; `required` keys must exist. */
static int hf_int(int *out,
                  const cJSON *root,
                  const char *key,
                  bool required,
                  int min,
                  int max,
                  const char *name,
                  ecf_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!v || cJSON_IsNull(v)) {
        if (required)
            return ecf_err_set(err, ECF_EINVAL, "%s: missing \"%s\"", name,
                               key);
        return 0;
    }
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < min || v->valuedouble > max)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: \"%s\": expected an integer from %d to %d",
                           name, key, min, max);
    *out = (int)v->valuedouble;
    return 0;
}

static const hf_style *
hf_detect(const cJSON *root, const char *name, ecf_err *err)
{
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(root, "model_type");
    size_t i;

    if (cJSON_IsString(mt)) {
        for (i = 0; i < sizeof(hf_styles) / sizeof(hf_styles[0]); i++)
            if (strcmp(mt->valuestring, hf_styles[i].model_type) == 0)
                return &hf_styles[i];
        ecf_err_set(err, ECF_EINVAL,
                    "%s: unsupported model_type '%.40s' (supported: llama, "
                    "mistral, qwen2, mixtral, gpt2, bert, roberta, "
                    "distilbert, " ECF_HF_ARCH_TYPES ")",
                    name, mt->valuestring);
        return NULL;
    }
    if (mt) {
        ecf_err_set(err, ECF_EINVAL, "%s: \"model_type\": expected a string",
                    name);
        return NULL;
    }
    /* No model_type: guess from the key style. */
    if (cJSON_GetObjectItemCaseSensitive(root, "n_embd"))
        return &hf_styles[4];
    if (cJSON_GetObjectItemCaseSensitive(root, "num_local_experts"))
        return &hf_styles[3];
    if (cJSON_GetObjectItemCaseSensitive(root, "type_vocab_size"))
        return &hf_styles[5];
    if (cJSON_GetObjectItemCaseSensitive(root, "hidden_size"))
        return &hf_styles[0];
    ecf_err_set(err, ECF_EINVAL,
                "%s: not a Hugging Face transformer config (no model_type, "
                "hidden_size or n_embd)",
                name);
    return NULL;
}

int ecf_model_from_hf_config(ecf_model *out,
                             const char *json,
                             size_t len,
                             const char *name,
                             ecf_err *err)
{
    cJSON *root = NULL;
    const hf_style *st;
    const cJSON *tie;
    ecf_model m;
    int type_vocab = 2, rc = 0;
    double active = 0;

    memset(&m, 0, sizeof(m));
    rc = ecf_json_parse(&root, json, len, ECF_HF_CONFIG_MAX_BYTES, "config ",
                        name, ECF_EINVAL, err);
    if (rc)
        goto out;
    if (!cJSON_IsObject(root)) {
        rc = ecf_err_set(err, ECF_EINVAL, "%s: expected a JSON object", name);
        goto out;
    }
    /* gemma2/3, qwen3, phi3, deepseek_v3 and the refused multimodal types
     * (hf_arch.c); 1 = none of those. */
    rc = ecf_hf_arch_config(out, root, name, err);
    if (rc <= 0)
        goto out;
    rc = 0;
    st = hf_detect(root, name, err);
    if (!st) {
        rc = err ? (int)err->code : ECF_EINVAL;
        goto out;
    }
    m.kind = st->kind;
    /* Required keys first, in the order a reader checks them. The
     * context is optional for rotary decoders (default 4096). */
    rc = hf_int(&m.hidden, root, st->hidden, true, 1, 1000000, name, err);
    if (rc == 0)
        rc = hf_int(&m.layers, root, st->layers, true, 1, 10000, name, err);
    if (rc == 0)
        rc = hf_int(&m.heads, root, st->heads, true, 1, 10000, name, err);
    if (rc == 0)
        rc = hf_int(&m.vocab, root, "vocab_size", true, 1, 10000000, name, err);
    if (rc == 0)
        rc = hf_int(&m.max_context, root, st->ctx,
                    st->kind != ECF_KIND_DECODER ||
                        (st->traits & ECF_TF_LEARNED_POS),
                    1, 100000000, name, err);
    if (rc == 0 && st->kv_heads)
        rc =
            hf_int(&m.kv_heads, root, st->kv_heads, false, 1, 10000, name, err);
    if (rc == 0)
        rc = hf_int(&m.head_dim, root, "head_dim", false, 1, 100000, name, err);
    /* gpt2's n_inner is null for the default 4 x n_embd. */
    if (rc == 0)
        rc =
            hf_int(&m.intermediate, root, st->intermediate,
                   strcmp(st->model_type, "gpt2") != 0, 1, 10000000, name, err);
    if (rc == 0 && st->kind == ECF_KIND_MOE)
        rc = hf_int(&m.experts, root, "num_local_experts", true, 1, 100000,
                    name, err);
    if (rc == 0 && st->kind == ECF_KIND_MOE)
        rc = hf_int(&m.experts_per_tok, root, "num_experts_per_tok", true, 1,
                    100000, name, err);
    if (rc == 0 && (st->traits & ECF_TF_BERT_EXTRAS))
        rc = hf_int(&type_vocab, root, "type_vocab_size", false, 0, 1000, name,
                    err);
    if (rc < 0)
        goto out;
    if (m.intermediate == 0)
        m.intermediate = 4 * m.hidden;
    if (!m.max_context)
        m.max_context = 4096;
    tie = cJSON_GetObjectItemCaseSensitive(root, "tie_word_embeddings");
    if (tie && !cJSON_IsBool(tie)) {
        rc = ecf_err_set(err, ECF_EINVAL,
                         "%s: \"tie_word_embeddings\": expected true or "
                         "false",
                         name);
        goto out;
    }
    m.tie_embeddings = tie ? cJSON_IsTrue(tie) : st->default_tie != 0;
    if (st->kind == ECF_KIND_ENCODER)
        m.tie_embeddings = true; /* no LM head counted for encoders */
    rc = check_transformer(&m, name, ECF_EINVAL, err);
    if (rc < 0)
        goto out;
    m.params = ecf_model_transformer_params(&m, st->traits, &active);
    /* The formula's BERT extras assume two token types (bert); roberta has
     * one. */
    if (st->traits & ECF_TF_BERT_EXTRAS)
        m.params += (type_vocab - 2.0) * m.hidden;
    m.active_params = st->kind == ECF_KIND_MOE ? active : m.params;
    rc = ecf_hf_window(&m, root, st->model_type, "", name, err);
    if (rc < 0)
        goto out;
    snprintf(m.name, sizeof(m.name), "%s", name);
    snprintf(m.display, sizeof(m.display), "%s (%s config)", name,
             st->model_type);
    m.default_seq_len = m.max_context < 2048 ? m.max_context : 2048;
    if (st->kind == ECF_KIND_ENCODER && m.default_seq_len > 128)
        m.default_seq_len = 128;
    m.default_batch = st->kind == ECF_KIND_ENCODER ? 32 : 4;
    m.input_bytes_per_sample = 4.0 * m.default_seq_len;
    snprintf(m.source, sizeof(m.source),
             "%s (Hugging Face %s config); parameter count derived from the "
             "architecture",
             name, st->model_type);
    *out = m;
out:
    cJSON_Delete(root);
    /* the cap --params has (ecf_model_from_params): a config whose sizes
     * each pass their range can still multiply out to "5e+04T params" */
    if (rc == 0 && !(out->params >= 1 && out->params <= 1e13))
        rc = ecf_err_set(err, ECF_EINVAL,
                         "%s: the architecture gives %.3g parameters, "
                         "outside 1 to 10T (the range of --params)",
                         name, out->params);
    return rc;
}
