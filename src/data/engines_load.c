/*
 * engines_load.c - load and validate data/engines.json (ec2fit/engines.h):
 * every serving engine's per-step overhead and kernel efficiencies, with
 * its source and as-of date. Strict: an unknown key, a missing field, a
 * figure out of its physical range or a missing engine is an error that
 * names the file, the engine and the field.
 */
#include "ec2fit/engines.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/stacks.h"
#include "json_check.h"

#ifdef ECF_HAVE_EMBEDDED_ENGINES
extern const char ecf_embedded_engines[];
extern const char ecf_embedded_engines_end[];
#endif

struct ecf_engines {
    ecf_engine_perf rows[ECF_ENGINE_COUNT]; /* indexed by ecf_engine */
};

/* One numeric field: its JSON key, where it goes, and its range. */
typedef struct {
    const char *key;
    size_t off;
    double lo, hi;
    bool integer;
} num_field;

#define NUM(k, f, lo, hi) {k, offsetof(ecf_engine_perf, f), lo, hi, false}
static const num_field num_fields[] = {
    NUM("host_step_s", step_s, 0, 0.1),
    NUM("layer_dispatch_s", layer_dispatch_s, 0, 0.01),
    NUM("op_dispatch_s", op_dispatch_s, 0, 0.001),
    NUM("bw_eff", bw_eff, 0.01, 1),
    NUM("int4_bw_eff", int4_bw_eff, 0.01, 1),
    NUM("int8_bw_eff", int8_bw_eff, 0.01, 1),
    NUM("int4_col_gweights_s", int4_col_gweights_s, 0, 100000),
    NUM("int4_row_bytes", int4_row_bytes, 0, 16),
    {"int4_recons_rows", offsetof(ecf_engine_perf, int4_recons_rows), 0,
     1048576, true},
    NUM("int4_recons_bytes", int4_recons_bytes, 0, 16),
    NUM("int4_col_launch_s", int4_col_launch_s, 0, 0.001),
    NUM("gemm_factor", gemm_factor, 0.01, 4),
    {"prefill_chunk_tokens", offsetof(ecf_engine_perf, chunk_tokens), 0,
     1048576, true},
    NUM("fwd_overhead_s", fwd_overhead_s, 0, 1),
    NUM("conv_factor", conv_factor, 0.01, 4),
    {"max_batch_requests", offsetof(ecf_engine_perf, max_batch), 0, 1048576,
     true},
};
#undef NUM
#define N_NUM (sizeof(num_fields) / sizeof(num_fields[0]))

/* The other keys an entry must carry. */
static const char *const other_keys[] = {"name", "paged_kv",
                                         "prefill_fused", "kv_reserve_full",
                                         "fp8_kv_auto", "fused_graph",
                                         "fp8_weight_only", "source",
                                         "as_of"};
#define N_OTHER (sizeof(other_keys) / sizeof(other_keys[0]))

static bool is_date(const char *s)
{
    int i;
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return false;
    return true;
}

static bool known_key(const char *k)
{
    size_t i;
    for (i = 0; i < N_NUM; i++)
        if (strcmp(k, num_fields[i].key) == 0)
            return true;
    for (i = 0; i < N_OTHER; i++)
        if (strcmp(k, other_keys[i]) == 0)
            return true;
    return false;
}

static int load_entry(ecf_engines *t, bool *seen, const cJSON *it, int i,
                      const char *name, ecf_err *err)
{
    const cJSON *v, *kv;
    char where[64];
    ecf_engine_perf row;
    size_t f;
    int e;

    memset(&row, 0, sizeof(row));
    if (!cJSON_IsObject(it))
        return ecf_err_set(err, ECF_EPARSE, "%s: engines[%d]: expected an "
                           "object", name, i);
    v = cJSON_GetObjectItemCaseSensitive(it, "name");
    if (!cJSON_IsString(v))
        return ecf_err_set(err, ECF_EPARSE, "%s: engines[%d]: missing "
                           "\"name\"", name, i);
    e = ecf_engine_parse(v->valuestring);
    if (e <= ECF_ENGINE_AUTO)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: engines[%d]: name: unknown engine \"%.32s\"",
                           name, i, v->valuestring);
    snprintf(where, sizeof(where), "engines[%d] (%s)", i, ecf_engine_name(e));
    if (seen[e])
        return ecf_err_set(err, ECF_EPARSE, "%s: %s: name: listed twice",
                           name, where);
    seen[e] = true;
    snprintf(row.name, sizeof(row.name), "%s", ecf_engine_name(e));
    cJSON_ArrayForEach(kv, it)
    {
        if (!known_key(kv->string))
            return ecf_err_set(err, ECF_EPARSE, "%s: %s: unknown key "
                               "\"%.32s\"", name, where, kv->string);
    }
    for (f = 0; f < N_NUM; f++) {
        const num_field *nf = &num_fields[f];
        v = cJSON_GetObjectItemCaseSensitive(it, nf->key);
        if (!v)
            return ecf_err_set(err, ECF_EPARSE, "%s: %s: missing \"%s\"",
                               name, where, nf->key);
        if (!cJSON_IsNumber(v))
            return ecf_err_set(err, ECF_EPARSE, "%s: %s: %s: expected a "
                               "number", name, where, nf->key);
        if (!(v->valuedouble >= nf->lo && v->valuedouble <= nf->hi))
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: %s: %s: %g is outside [%g, %g]", name,
                               where, nf->key, v->valuedouble, nf->lo,
                               nf->hi);
        if (nf->integer) {
            if (v->valuedouble != (double)(int)v->valuedouble)
                return ecf_err_set(err, ECF_EPARSE, "%s: %s: %s: expected "
                                   "a whole number", name, where, nf->key);
            *(int *)(void *)((char *)&row + nf->off) = (int)v->valuedouble;
        } else {
            double d = v->valuedouble;
            memcpy((char *)&row + nf->off, &d, sizeof(d));
        }
    }
    /* an int4 kernel description is all four figures or none */
    {
        int set = (row.int4_col_gweights_s > 0) + (row.int4_row_bytes > 0) +
                  (row.int4_recons_rows > 0) + (row.int4_recons_bytes > 0);
        if (set != 0 && set != 4)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: %s: int4_col_gweights_s, int4_row_bytes, "
                               "int4_recons_rows, int4_recons_bytes: give "
                               "all four (a kernel description) or none",
                               name, where);
    }
    for (size_t b = 0; b < 6; b++) {
        static const char *const bools[] = {"paged_kv", "prefill_fused",
                                            "kv_reserve_full", "fp8_kv_auto",
                                            "fused_graph", "fp8_weight_only"};
        const char *key = bools[b];
        v = cJSON_GetObjectItemCaseSensitive(it, key);
        if (!v)
            return ecf_err_set(err, ECF_EPARSE, "%s: %s: missing \"%s\"",
                               name, where, key);
        if (!cJSON_IsBool(v))
            return ecf_err_set(err, ECF_EPARSE, "%s: %s: %s: expected "
                               "true or false", name, where, key);
        if (b == 5)
            row.fp8_weight_only = cJSON_IsTrue(v);
        else if (b == 4)
            row.fused_graph = cJSON_IsTrue(v);
        else if (b == 3)
            row.fp8_kv_auto = cJSON_IsTrue(v);
        else if (b == 2)
            row.kv_reserve_full = cJSON_IsTrue(v);
        else if (b == 1)
            row.prefill_fused = cJSON_IsTrue(v);
        else
            row.paged_kv = cJSON_IsTrue(v);
    }
    v = cJSON_GetObjectItemCaseSensitive(it, "source");
    if (!v)
        return ecf_err_set(err, ECF_EPARSE, "%s: %s: missing \"source\"",
                           name, where);
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return ecf_err_set(err, ECF_EPARSE, "%s: %s: source: expected a "
                           "non-empty string", name, where);
    v = cJSON_GetObjectItemCaseSensitive(it, "as_of");
    if (!v)
        return ecf_err_set(err, ECF_EPARSE, "%s: %s: missing \"as_of\"",
                           name, where);
    if (!cJSON_IsString(v) || !is_date(v->valuestring))
        return ecf_err_set(err, ECF_EPARSE, "%s: %s: as_of: expected a "
                           "YYYY-MM-DD date", name, where);
    t->rows[e] = row;
    return 0;
}

static int load_root(ecf_engines *t, const cJSON *root, const char *name,
                     ecf_err *err)
{
    static const char *const top[] = {"schema_version", "about", "as_of",
                                      "engines"};
    bool seen[ECF_ENGINE_COUNT] = {false};
    const cJSON *v, *arr, *it;
    size_t k;
    int i, rc;

    if (!cJSON_IsObject(root))
        return ecf_err_set(err, ECF_EPARSE, "%s: expected a JSON object",
                           name);
    cJSON_ArrayForEach(v, root)
    {
        for (k = 0; k < sizeof(top) / sizeof(top[0]); k++)
            if (strcmp(v->string, top[k]) == 0)
                break;
        if (k == sizeof(top) / sizeof(top[0]))
            return ecf_err_set(err, ECF_EPARSE, "%s: unknown key \"%.32s\"",
                               name, v->string);
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!cJSON_IsNumber(v) || v->valuedouble != ECF_ENGINES_SCHEMA_VERSION)
        return ecf_err_set(err, ECF_EPARSE, "%s: schema_version: expected "
                           "%d", name, ECF_ENGINES_SCHEMA_VERSION);
    v = cJSON_GetObjectItemCaseSensitive(root, "as_of");
    if (!cJSON_IsString(v) || !is_date(v->valuestring))
        return ecf_err_set(err, ECF_EPARSE, "%s: as_of: expected a "
                           "YYYY-MM-DD date", name);
    arr = cJSON_GetObjectItemCaseSensitive(root, "engines");
    if (!cJSON_IsArray(arr))
        return ecf_err_set(err, ECF_EPARSE, "%s: engines: expected an array",
                           name);
    i = 0;
    cJSON_ArrayForEach(it, arr)
    {
        if ((rc = load_entry(t, seen, it, i++, name, err)) != 0)
            return rc;
    }
    for (i = ECF_ENGINE_AUTO + 1; i < ECF_ENGINE_COUNT; i++)
        if (!seen[i])
            return ecf_err_set(err, ECF_EPARSE, "%s: engines: no entry for "
                               "\"%s\"", name, ecf_engine_name(i));
    /* --engine auto resolves before the table is read; its row is vLLM's
     * so a stray lookup still gets real figures */
    t->rows[ECF_ENGINE_AUTO] = t->rows[ECF_ENGINE_VLLM];
    return 0;
}

/* trusted: the embedded copy, held to the strict path by
 * tests/unit/test_embedded_data.c, skips the document-wide check. */
static int load_buffer_(bool trusted, ecf_engines **out, const char *data,
                        size_t len, const char *name, ecf_err *err)
{
    cJSON *root = NULL;
    ecf_engines *t;
    int rc;

    *out = NULL;
    rc = (trusted ? ecf_json_parse_trusted : ecf_json_parse)(
        &root, data, len, ECF_ENGINES_MAX_BYTES, "engines ", name,
        ECF_EPARSE, err);
    if (rc)
        return rc;
    t = ecf_xcalloc(1, sizeof(*t));
    rc = load_root(t, root, name, err);
    cJSON_Delete(root);
    if (rc) {
        free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int ecf_engines_load_buffer(ecf_engines **out, const char *data, size_t len,
                            const char *name, ecf_err *err)
{
    return load_buffer_(false, out, data, len, name, err);
}

int ecf_engines_embedded(ecf_engines **out, ecf_err *err)
{
#ifdef ECF_HAVE_EMBEDDED_ENGINES
    return load_buffer_(
        true, out, ecf_embedded_engines,
        (size_t)(ecf_embedded_engines_end - ecf_embedded_engines),
        "embedded engines.json", err);
#else
    *out = NULL;
    return ecf_err_set(err, ECF_EIO, "this build has no embedded engines");
#endif
}

void ecf_engines_free(ecf_engines *e)
{
    free(e);
}

const ecf_engine_perf *ecf_engines_get(const ecf_engines *e, int engine)
{
    if (engine < 0 || engine >= ECF_ENGINE_COUNT)
        engine = ECF_ENGINE_AUTO;
    return &e->rows[engine];
}

/* The embedded table, parsed once per process (the estimator is pure and
 * runs on the batch engine's threads: pthread_once makes the one load
 * race-free). It is never freed: it lives as long as the program. */
static ecf_engines *builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void load_builtin(void)
{
    ecf_err err = ECF_ERR_INIT;
    if (ecf_engines_embedded(&builtin, &err))
        builtin = NULL;
}

const ecf_engines *ecf_engines_builtin(void)
{
    pthread_once(&builtin_once, load_builtin);
    return builtin;
}
