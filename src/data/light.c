/*
 * light.c - load and validate data/light.json (AWS Lambda pricing and
 * limits, Lightsail bundles) and price light inference on them.
 *
 * The loader follows catalog.c: cJSON parses once, every field is checked
 * (type, range, required keys) and copied into value structs, and the tree
 * is deleted before returning. Invariants after a successful load: every
 * price is finite and > 0; min_memory_mb <= max_memory_mb; at least one
 * bundle; bundle ids are unique and bundles are sorted by price, then id.
 * The cost helpers at the bottom are pure and never touch cJSON.
 */
#include "ec2fit/light.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_check.h"

struct ecf_light {
    ecf_lambda_pricing lambda;
    ecf_lightsail_meta lightsail;
    ecf_lightsail_bundle *bundles;
    size_t n_bundles;
};

#ifdef ECF_HAVE_EMBEDDED_LIGHT
extern const char ecf_embedded_light[];
extern const char ecf_embedded_light_end[];
#endif

/* ------------------------------------------------------------------ */
/* Validation helpers: each reports "NAME: PATH: reason"              */
/* ------------------------------------------------------------------ */

typedef struct {
    const char *name; /* file name for messages */
    ecf_err *err;
    char path[128]; /* JSON path of the object being read */
} ctx;

static int fail(ctx *c, const char *key, const char *fmt, ...) ECF_PRINTF(3, 4);

static int fail(ctx *c, const char *key, const char *fmt, ...)
{
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    if (key && c->path[0])
        return ecf_err_set(c->err, ECF_EPARSE, "%s: %s.%s: %s", c->name,
                           c->path, key, reason);
    if (key)
        return ecf_err_set(c->err, ECF_EPARSE, "%s: %s: %s", c->name, key,
                           reason);
    return ecf_err_set(c->err, ECF_EPARSE, "%s: %s: %s", c->name,
                       c->path[0] ? c->path : "(top level)", reason);
}

static const cJSON *
member(ctx *c, const cJSON *obj, const char *key, bool required, int *rc)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *rc = 0;
    if (!v && required)
        *rc = fail(c, key, "missing required key");
    return v;
}

/* Copies a string into a fixed array. Optional strings absent or null
 * leave "" behind. */
static int get_string(ctx *c,
                      char *out,
                      size_t size,
                      const cJSON *obj,
                      const char *key,
                      bool required)
{
    int rc;
    const cJSON *v = member(c, obj, key, required, &rc);
    out[0] = '\0';
    if (rc)
        return rc;
    if (!v || (!required && cJSON_IsNull(v)))
        return 0;
    if (!cJSON_IsString(v) || !v->valuestring)
        return fail(c, key, "expected a string");
    if (strlen(v->valuestring) >= size)
        return fail(c, key, "string longer than %zu bytes", size - 1);
    if (required && v->valuestring[0] == '\0')
        return fail(c, key, "expected a non-empty string");
    memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
    return 0;
}

/* A required finite number, > 0 when `positive`, else >= 0. */
static int get_number(
    ctx *c, double *out, const cJSON *obj, const char *key, bool positive)
{
    int rc;
    const cJSON *v = member(c, obj, key, true, &rc);
    *out = 0;
    if (rc)
        return rc;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 ||
        (positive && v->valuedouble == 0))
        return fail(c, key,
                    positive ? "expected a positive number"
                             : "expected a non-negative number");
    *out = v->valuedouble;
    return 0;
}

/* A required integer >= 1. */
static int get_posint(ctx *c, int *out, const cJSON *obj, const char *key)
{
    int rc;
    const cJSON *v = member(c, obj, key, true, &rc);
    *out = 0;
    if (rc)
        return rc;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
        v->valuedouble != floor(v->valuedouble) || v->valuedouble < 1 ||
        v->valuedouble > INT_MAX)
        return fail(c, key, "expected a positive integer");
    *out = (int)v->valuedouble;
    return 0;
}

static int get_bool(ctx *c, bool *out, const cJSON *obj, const char *key)
{
    int rc;
    const cJSON *v = member(c, obj, key, true, &rc);
    *out = false;
    if (rc)
        return rc;
    if (!cJSON_IsBool(v))
        return fail(c, key, "expected true or false");
    *out = cJSON_IsTrue(v);
    return 0;
}

static bool is_date(const char *s)
{
    /* YYYY-MM-DD */
    int i;
    if (strlen(s) != 10)
        return false;
    for (i = 0; i < 10; i++) {
        if (i == 4 || i == 7) {
            if (s[i] != '-')
                return false;
        } else if (s[i] < '0' || s[i] > '9') {
            return false;
        }
    }
    return true;
}

/* The metadata both sections carry. */
static int get_meta(ctx *c,
                    const cJSON *obj,
                    char *as_of,
                    size_t as_of_size,
                    char *note,
                    size_t note_size,
                    char *source,
                    size_t source_size,
                    char *notes,
                    size_t notes_size)
{
    int rc = get_string(c, as_of, as_of_size, obj, "as_of", true);
    if (!rc && !is_date(as_of))
        rc = fail(c, "as_of", "expected a date YYYY-MM-DD");
    if (!rc)
        rc = get_string(c, note, note_size, obj, "as_of_note", false);
    if (!rc)
        rc = get_string(c, source, source_size, obj, "source", true);
    if (!rc)
        rc = get_string(c, notes, notes_size, obj, "notes", false);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Sections                                                           */
/* ------------------------------------------------------------------ */

static int load_lambda(ctx *c, ecf_lambda_pricing *p, const cJSON *obj)
{
    int rc = 0;

    snprintf(c->path, sizeof(c->path), "lambda");
    if (!cJSON_IsObject(obj))
        return fail(c, NULL, "expected an object");
    rc = get_string(c, p->region, sizeof(p->region), obj, "region", true);
    if (!rc)
        rc = get_meta(c, obj, p->as_of, sizeof(p->as_of), p->as_of_note,
                      sizeof(p->as_of_note), p->source, sizeof(p->source),
                      p->notes, sizeof(p->notes));
    /* Prices must be > 0: a zero price would make Lambda look free. */
    if (!rc)
        rc = get_number(c, &p->request_usd_per_million, obj,
                        "request_usd_per_million", true);
    if (!rc)
        rc = get_number(c, &p->gb_second_usd_x86, obj, "gb_second_usd_x86",
                        true);
    if (!rc)
        rc = get_number(c, &p->gb_second_usd_arm64, obj, "gb_second_usd_arm64",
                        true);
    if (!rc)
        rc = get_number(c, &p->free_requests_per_month, obj,
                        "free_requests_per_month", false);
    if (!rc)
        rc = get_number(c, &p->free_gb_seconds_per_month, obj,
                        "free_gb_seconds_per_month", false);
    if (!rc)
        rc = get_posint(c, &p->min_memory_mb, obj, "min_memory_mb");
    if (!rc)
        rc = get_posint(c, &p->max_memory_mb, obj, "max_memory_mb");
    if (!rc && p->max_memory_mb < p->min_memory_mb)
        rc = fail(c, "max_memory_mb", "%d is less than min_memory_mb %d",
                  p->max_memory_mb, p->min_memory_mb);
    if (!rc)
        rc = get_posint(c, &p->max_timeout_s, obj, "max_timeout_s");
    if (!rc)
        rc = get_number(c, &p->mb_per_vcpu, obj, "mb_per_vcpu", true);
    if (!rc)
        rc = get_posint(c, &p->max_vcpus, obj, "max_vcpus");
    if (!rc)
        rc = get_posint(c, &p->ephemeral_storage_max_mb, obj,
                        "ephemeral_storage_max_mb");
    if (!rc)
        rc = get_posint(c, &p->billing_granularity_ms, obj,
                        "billing_granularity_ms");
    if (!rc)
        rc = get_bool(c, &p->gpu, obj, "gpu");
    c->path[0] = '\0';
    return rc;
}

static int load_bundle(ctx *c, ecf_lightsail_bundle *b, const cJSON *it)
{
    int rc = 0;

    if (!cJSON_IsObject(it))
        return fail(c, NULL, "expected an object");
    rc = get_string(c, b->id, sizeof(b->id), it, "id", true);
    if (!rc)
        rc = get_number(c, &b->usd_per_month, it, "usd_per_month", true);
    if (!rc)
        rc = get_posint(c, &b->vcpu, it, "vcpu");
    if (!rc)
        rc = get_number(c, &b->memory_gb, it, "memory_gb", true);
    if (!rc)
        rc = get_number(c, &b->ssd_gb, it, "ssd_gb", false);
    if (!rc)
        rc = get_number(c, &b->transfer_tb_month, it, "transfer_tb_month",
                        false);
    if (!rc)
        rc = get_number(c, &b->baseline_cpu_pct_per_vcpu, it,
                        "baseline_cpu_pct_per_vcpu", true);
    if (!rc && b->baseline_cpu_pct_per_vcpu > 100)
        rc = fail(c, "baseline_cpu_pct_per_vcpu", "%g is over 100",
                  b->baseline_cpu_pct_per_vcpu);
    if (!rc)
        rc = get_string(c, b->confidence, sizeof(b->confidence), it,
                        "confidence", false);
    if (!rc)
        rc = get_string(c, b->notes, sizeof(b->notes), it, "notes", false);
    return rc;
}

static int bundle_cmp(const void *a, const void *b)
{
    const ecf_lightsail_bundle *x = a, *y = b;
    if (x->usd_per_month != y->usd_per_month)
        return x->usd_per_month < y->usd_per_month ? -1 : 1;
    return strcmp(x->id, y->id);
}

static int load_lightsail(ctx *c, ecf_light *light, const cJSON *obj)
{
    ecf_lightsail_meta *m = &light->lightsail;
    const cJSON *arr = NULL, *it;
    int rc = 0;
    size_t i = 0, j, n;

    snprintf(c->path, sizeof(c->path), "lightsail");
    if (!cJSON_IsObject(obj))
        return fail(c, NULL, "expected an object");
    rc = get_meta(c, obj, m->as_of, sizeof(m->as_of), m->as_of_note,
                  sizeof(m->as_of_note), m->source, sizeof(m->source), m->notes,
                  sizeof(m->notes));
    if (!rc)
        arr = member(c, obj, "bundles", true, &rc);
    if (rc)
        return rc;
    if (!cJSON_IsArray(arr))
        return fail(c, "bundles", "expected an array");
    n = (size_t)cJSON_GetArraySize(arr);
    if (n == 0)
        return fail(c, "bundles", "expected at least one bundle");
    if (n > ECF_LIGHT_MAX_BUNDLES)
        return ecf_err_set(c->err, ECF_EINVAL,
                           "%s: lightsail.bundles: %zu entries exceed the "
                           "limit of %d",
                           c->name, n, ECF_LIGHT_MAX_BUNDLES);
    light->bundles = ecf_xcalloc(n, sizeof(*light->bundles));
    cJSON_ArrayForEach (it, arr) {
        ecf_lightsail_bundle *b = &light->bundles[i];
        snprintf(c->path, sizeof(c->path), "lightsail.bundles[%zu]", i);
        rc = load_bundle(c, b, it);
        for (j = 0; !rc && j < i; j++)
            if (strcmp(light->bundles[j].id, b->id) == 0)
                rc = fail(c, "id", "duplicate bundle id \"%s\"", b->id);
        if (rc)
            return rc;
        light->n_bundles = ++i;
    }
    qsort(light->bundles, light->n_bundles, sizeof(*light->bundles),
          bundle_cmp);
    c->path[0] = '\0';
    return 0;
}

/* ------------------------------------------------------------------ */
/* Loading                                                            */
/* ------------------------------------------------------------------ */

/* trusted: the embedded copy of a data/ file, already checked by the
 * strict path in tests/unit/test_embedded_data.c, so the document-wide
 * ecf_json_check is skipped. */
static int load_buffer_(bool trusted, ecf_light **out,
                          const char *data,
                          size_t len,
                          const char *name,
                          ecf_err *err)
{
    cJSON *root = NULL;
    ecf_light *light = NULL;
    const cJSON *v = NULL;
    int version = 0;
    int rc = 0;
    ctx c;

    *out = NULL;
    c.name = name;
    c.err = err;
    c.path[0] = '\0';
    rc = (trusted ? ecf_json_parse_trusted : ecf_json_parse)(
        &root, data, len, ECF_LIGHT_MAX_BYTES, "", name,
        ECF_EPARSE, err);
    if (rc)
        return rc;
    light = ecf_xcalloc(1, sizeof(*light));
    if (!cJSON_IsObject(root)) {
        rc = fail(&c, NULL, "expected a JSON object");
        goto out;
    }
    rc = get_posint(&c, &version, root, "schema_version");
    if (!rc && version != ECF_LIGHT_SCHEMA_VERSION)
        rc = fail(&c, "schema_version",
                  "unsupported version %d (this ec2fit reads version %d)",
                  version, ECF_LIGHT_SCHEMA_VERSION);
    if (!rc)
        v = member(&c, root, "lambda", true, &rc);
    if (!rc)
        rc = load_lambda(&c, &light->lambda, v);
    if (!rc)
        v = member(&c, root, "lightsail", true, &rc);
    if (!rc)
        rc = load_lightsail(&c, light, v);
out:
    if (rc) {
        ecf_light_free(light);
        light = NULL;
    }
    cJSON_Delete(root);
    *out = light;
    return rc;
}

int ecf_light_load_buffer(ecf_light **out, const char *data, size_t len, const char *name,
                          ecf_err *err)
{
    return load_buffer_(false, out, data, len, name, err);
}

int ecf_light_embedded(ecf_light **out, ecf_err *err)
{
#ifdef ECF_HAVE_EMBEDDED_LIGHT
    return load_buffer_(
        true, out, ecf_embedded_light,
        (size_t)(ecf_embedded_light_end - ecf_embedded_light), "light.json",
        err);
#else
    *out = NULL;
    return ecf_err_set(err, ECF_ENOTFOUND,
                       "light.json: not embedded in this build");
#endif
}

void ecf_light_free(ecf_light *light)
{
    if (!light)
        return;
    free(light->bundles);
    free(light);
}

const ecf_lambda_pricing *ecf_light_lambda(const ecf_light *light)
{
    return &light->lambda;
}

const ecf_lightsail_meta *ecf_light_lightsail(const ecf_light *light)
{
    return &light->lightsail;
}

size_t ecf_light_bundle_count(const ecf_light *light)
{
    return light->n_bundles;
}

const ecf_lightsail_bundle *ecf_light_bundle_at(const ecf_light *light,
                                                size_t i)
{
    return i < light->n_bundles ? &light->bundles[i] : NULL;
}

const ecf_lightsail_bundle *ecf_light_bundle_find(const ecf_light *light,
                                                  const char *id)
{
    size_t i;
    for (i = 0; i < light->n_bundles; i++)
        if (strcmp(light->bundles[i].id, id) == 0)
            return &light->bundles[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Pure cost helpers                                                  */
/* ------------------------------------------------------------------ */

static bool bad_arg(double x)
{
    return !isfinite(x) || x < 0;
}

/* Memory as Lambda configures it: whole MB within the account limits. */
static double lambda_memory_mb(const ecf_lambda_pricing *p, double memory_mb)
{
    double mb = ceil(memory_mb);
    if (mb < p->min_memory_mb)
        mb = p->min_memory_mb;
    if (mb > p->max_memory_mb)
        mb = p->max_memory_mb;
    return mb;
}

double ecf_lambda_monthly_usd(const ecf_lambda_pricing *p,
                              double requests_per_month,
                              double seconds_per_request,
                              double memory_mb,
                              bool arm64,
                              bool apply_free_tier)
{
    double step_ms, billed_ms, billed_s, gb, gb_s, requests, price;

    if (!p || bad_arg(requests_per_month) || bad_arg(seconds_per_request) ||
        bad_arg(memory_mb) || p->billing_granularity_ms < 1)
        return NAN;
    /* Duration is rounded up to the billing step (1 ms). The 1e-6 ms slack
     * keeps a duration that is a whole number of steps in decimal, such as
     * 0.1 + 0.2 s, from being pushed up a step by binary rounding error.
     * Every invocation is billed at least one step. */
    step_ms = p->billing_granularity_ms;
    billed_ms = ceil(seconds_per_request * 1000.0 / step_ms - 1e-6) * step_ms;
    if (billed_ms < step_ms)
        billed_ms = step_ms;
    billed_s = billed_ms / 1000.0;
    /* Lambda's GB is 1024 MB: its pricing page prices 128 MB as 0.125 GB. */
    gb = lambda_memory_mb(p, memory_mb) / 1024.0;
    gb_s = requests_per_month * billed_s * gb;
    requests = requests_per_month;
    if (apply_free_tier) {
        requests = fmax(0.0, requests - p->free_requests_per_month);
        gb_s = fmax(0.0, gb_s - p->free_gb_seconds_per_month);
    }
    price = arm64 ? p->gb_second_usd_arm64 : p->gb_second_usd_x86;
    return requests * p->request_usd_per_million / 1e6 + gb_s * price;
}

double ecf_lambda_vcpus(const ecf_lambda_pricing *p, double memory_mb)
{
    double v;
    if (!p || bad_arg(memory_mb) || !(p->mb_per_vcpu > 0))
        return NAN;
    v = memory_mb / p->mb_per_vcpu;
    return v > p->max_vcpus ? (double)p->max_vcpus : v;
}

bool ecf_lambda_fits(const ecf_lambda_pricing *p,
                     double seconds_per_request,
                     double memory_mb)
{
    if (!p || bad_arg(seconds_per_request) || bad_arg(memory_mb))
        return false;
    return seconds_per_request <= p->max_timeout_s &&
           ceil(memory_mb) <= p->max_memory_mb;
}

double ecf_lightsail_hourly_usd(const ecf_lightsail_bundle *b)
{
    if (!b || bad_arg(b->usd_per_month))
        return NAN;
    return b->usd_per_month / ECF_LIGHTSAIL_BILLING_HOURS;
}
