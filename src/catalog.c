/*
 * catalog.c - load and validate the instance catalog.
 *
 * The JSON is parsed once with cJSON, every field is checked (type, range,
 * required keys, cross references) and copied into plain structs; the cJSON
 * tree is deleted before returning, so nothing downstream sees JSON.
 * Invariants after a successful load: instance types are unique; every
 * accelerator reference resolves; every number is finite and non-negative
 * (spot savings may be negative: spot can cost more than a freshly cut
 * on-demand price); region names are interned and sorted.
 */
#include "ec2fit/catalog.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/buf.h"

struct ecf_catalog {
    int schema_version;
    char *generated_at;
    char *as_of;
    ecf_source *sources;
    size_t n_sources;
    ecf_accel *accels;
    size_t n_accels;
    ecf_instance *instances;
    size_t n_instances;
    const ecf_instance **by_type; /* sorted by type, for bsearch */
    char **regions;               /* sorted, distinct, owned */
    size_t n_regions;
};

#ifdef ECF_HAVE_EMBEDDED_CATALOG
extern const char ecf_embedded_catalog[];
extern const char ecf_embedded_catalog_end[];
#endif

const char *ecf_catalog_embedded(size_t *len_out)
{
#ifdef ECF_HAVE_EMBEDDED_CATALOG
    *len_out = (size_t)(ecf_embedded_catalog_end - ecf_embedded_catalog);
    return ecf_embedded_catalog;
#else
    *len_out = 0;
    return NULL;
#endif
}

/* ------------------------------------------------------------------ */
/* Enum names                                                         */
/* ------------------------------------------------------------------ */

static const char *const prec_names[ECF_PREC_COUNT] = {
    "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4"};
static const char *const kind_names[] = {"none", "gpu", "neuron", "other"};
static const char *const link_names[] = {"none",       "pcie",
                                         "nvlink",     "nvswitch",
                                         "neuronlink", "other"};
static const char *const arch_names[] = {"x86_64", "arm64"};

const char *ecf_precision_name(ecf_precision p)
{
    return (unsigned)p < ECF_PREC_COUNT ? prec_names[p] : "?";
}

static int name_index(const char *const *names, size_t n, const char *s)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

int ecf_precision_parse(const char *s)
{
    return name_index(prec_names, ECF_PREC_COUNT, s);
}

const char *ecf_accel_kind_name(ecf_accel_kind k)
{
    return (unsigned)k < 4 ? kind_names[k] : "?";
}

const char *ecf_link_name(ecf_link l)
{
    return (unsigned)l < 6 ? link_names[l] : "?";
}

const char *ecf_arch_name(ecf_arch a)
{
    return (unsigned)a < 2 ? arch_names[a] : "?";
}

/* ------------------------------------------------------------------ */
/* Validation helpers: each reports "NAME: PATH: reason"              */
/* ------------------------------------------------------------------ */

typedef struct {
    const char *name; /* file name for messages */
    ecf_err *err;
    char path[256];   /* JSON path of the object being read */
} ctx;

static int fail(ctx *c, const char *key, const char *fmt, ...)
    ECF_PRINTF(3, 4);

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

static const cJSON *member(ctx *c, const cJSON *obj, const char *key,
                           bool required, int *rc)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *rc = 0;
    if (!v && required)
        *rc = fail(c, key, "missing required key");
    return v;
}

static int get_string(ctx *c, char **out, const cJSON *obj, const char *key,
                      bool required)
{
    int rc;
    const cJSON *v = member(c, obj, key, required, &rc);
    *out = NULL;
    if (rc)
        return rc;
    if (!v || cJSON_IsNull(v)) {
        if (required)
            return fail(c, key, "expected a string");
        return 0;
    }
    if (!cJSON_IsString(v) || !v->valuestring)
        return fail(c, key, "expected a string");
    if (strlen(v->valuestring) > 4096)
        return fail(c, key, "string longer than 4096 bytes");
    *out = ecf_xstrdup(v->valuestring);
    return 0;
}

/* A non-negative finite number. When nullable, absent/null yields `dflt`. */
static int get_number(ctx *c, double *out, const cJSON *obj, const char *key,
                      bool required, bool nullable, double dflt)
{
    int rc;
    const cJSON *v = member(c, obj, key, required && !nullable, &rc);
    *out = dflt;
    if (rc)
        return rc;
    if (!v || cJSON_IsNull(v)) {
        if (!nullable)
            return fail(c, key, "expected a non-negative number");
        return 0;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
        v->valuedouble < 0)
        return fail(c, key, "expected a non-negative number");
    *out = v->valuedouble;
    return 0;
}

static int get_int(ctx *c, int *out, const cJSON *obj, const char *key,
                   bool required, bool nullable, int dflt, int min)
{
    int rc;
    const cJSON *v = member(c, obj, key, required && !nullable, &rc);
    *out = dflt;
    if (rc)
        return rc;
    if (!v || cJSON_IsNull(v)) {
        if (!nullable)
            return fail(c, key, min < 0 ? "expected an integer"
                                        : "expected a non-negative integer");
        return 0;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
        v->valuedouble != floor(v->valuedouble) || v->valuedouble < min ||
        v->valuedouble > INT_MAX)
        return fail(c, key, min < 0 ? "expected an integer"
                                    : "expected a non-negative integer");
    *out = (int)v->valuedouble;
    return 0;
}

static int get_enum(ctx *c, int *out, const cJSON *obj, const char *key,
                    const char *const *names, size_t n)
{
    char *s = NULL;
    int rc = get_string(c, &s, obj, key, true);
    if (rc)
        return rc;
    *out = name_index(names, n, s);
    if (*out < 0) {
        char list[128] = "";
        size_t i;
        for (i = 0; i < n; i++) {
            if (i)
                strncat(list, "|", sizeof(list) - strlen(list) - 1);
            strncat(list, names[i], sizeof(list) - strlen(list) - 1);
        }
        rc = fail(c, key, "expected one of %s, got \"%s\"", list, s);
    }
    free(s);
    return rc;
}

static void push_path(ctx *c, char *saved, size_t saved_len, const char *fmt,
                      ...) ECF_PRINTF(4, 5);

static void push_path(ctx *c, char *saved, size_t saved_len, const char *fmt,
                      ...)
{
    char part[160];
    va_list ap;
    snprintf(saved, saved_len, "%s", c->path);
    va_start(ap, fmt);
    vsnprintf(part, sizeof(part), fmt, ap);
    va_end(ap);
    if (c->path[0] && part[0] != '[')
        snprintf(c->path, sizeof(c->path), "%s.%s", saved, part);
    else
        snprintf(c->path, sizeof(c->path), "%s%s", saved, part);
}

static void pop_path(ctx *c, const char *saved)
{
    snprintf(c->path, sizeof(c->path), "%s", saved);
}

/* ------------------------------------------------------------------ */
/* Freeing                                                            */
/* ------------------------------------------------------------------ */

static void accel_dispose(ecf_accel *a)
{
    free(a->id);
    free(a->name);
    free(a->vendor);
    free(a->generation);
    free(a->confidence);
    free(a->source);
}

static void instance_dispose(ecf_instance *in)
{
    free(in->type);
    free(in->family);
    free(in->prices);
}

void ecf_catalog_free(ecf_catalog *cat)
{
    size_t i;
    if (!cat)
        return;
    free(cat->generated_at);
    free(cat->as_of);
    for (i = 0; i < cat->n_sources; i++) {
        free(cat->sources[i].id);
        free(cat->sources[i].origin);
        free(cat->sources[i].as_of);
    }
    free(cat->sources);
    for (i = 0; i < cat->n_accels; i++)
        accel_dispose(&cat->accels[i]);
    free(cat->accels);
    for (i = 0; i < cat->n_instances; i++)
        instance_dispose(&cat->instances[i]);
    free(cat->instances);
    free(cat->by_type);
    for (i = 0; i < cat->n_regions; i++)
        free(cat->regions[i]);
    free(cat->regions);
    free(cat);
}

/* ------------------------------------------------------------------ */
/* Sections                                                           */
/* ------------------------------------------------------------------ */

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

static int load_sources(ctx *c, ecf_catalog *cat, const cJSON *arr)
{
    const cJSON *it;
    char saved[256];
    int rc = 0;
    size_t i = 0, n;

    if (!cJSON_IsArray(arr))
        return fail(c, "sources", "expected an array");
    n = (size_t)cJSON_GetArraySize(arr);
    if (n > 1000)
        return fail(c, "sources", "more than 1000 entries");
    cat->sources = ecf_xcalloc(n, sizeof(*cat->sources));
    cJSON_ArrayForEach(it, arr)
    {
        ecf_source *s = &cat->sources[i];
        push_path(c, saved, sizeof(saved), "sources[%zu]", i);
        cat->n_sources = ++i;
        if (!cJSON_IsObject(it))
            rc = fail(c, NULL, "expected an object");
        if (!rc)
            rc = get_string(c, &s->id, it, "id", true);
        if (!rc)
            rc = get_string(c, &s->origin, it, "origin", true);
        if (!rc)
            rc = get_string(c, &s->as_of, it, "as_of", true);
        if (!rc && !is_date(s->as_of))
            rc = fail(c, "as_of", "expected a date YYYY-MM-DD");
        pop_path(c, saved);
        if (rc)
            return rc;
    }
    return 0;
}

static int load_accels(ctx *c, ecf_catalog *cat, const cJSON *arr)
{
    const cJSON *it;
    char saved[256];
    int rc = 0;
    size_t i = 0, n;

    if (!cJSON_IsArray(arr))
        return fail(c, "accelerators", "expected an array");
    n = (size_t)cJSON_GetArraySize(arr);
    if (n > ECF_CATALOG_MAX_ACCELERATORS)
        return ecf_err_set(c->err, ECF_EINVAL,
                           "%s: accelerators: %zu entries exceed the limit "
                           "of %d",
                           c->name, n, ECF_CATALOG_MAX_ACCELERATORS);
    cat->accels = ecf_xcalloc(n, sizeof(*cat->accels));
    cJSON_ArrayForEach(it, arr)
    {
        ecf_accel *a = &cat->accels[i];
        const cJSON *tf;
        int kind = 0, p;
        size_t j;

        push_path(c, saved, sizeof(saved), "accelerators[%zu]", i);
        cat->n_accels = ++i;
        if (!cJSON_IsObject(it))
            rc = fail(c, NULL, "expected an object");
        if (!rc)
            rc = get_string(c, &a->id, it, "id", true);
        if (!rc)
            for (j = 0; j + 1 < i; j++)
                if (strcmp(cat->accels[j].id, a->id) == 0) {
                    rc = fail(c, "id", "duplicate accelerator id \"%s\"",
                              a->id);
                    break;
                }
        if (!rc)
            rc = get_string(c, &a->name, it, "name", true);
        if (!rc)
            rc = get_string(c, &a->vendor, it, "vendor", true);
        if (!rc)
            rc = get_string(c, &a->generation, it, "generation", false);
        if (!rc)
            rc = get_enum(c, &kind, it, "kind", kind_names + 1, 3);
        a->kind = (ecf_accel_kind)(kind + 1);
        if (!rc)
            rc = get_number(c, &a->memory_gb, it, "memory_gb", true, false,
                            0);
        if (!rc)
            rc = get_number(c, &a->memory_bw_gbytes_s, it,
                            "memory_bw_gbytes_s", false, true, 0);
        if (!rc)
            rc = get_number(c, &a->tdp_w, it, "tdp_w", false, true, 0);
        if (!rc)
            rc = get_string(c, &a->confidence, it, "confidence", false);
        if (!rc)
            rc = get_string(c, &a->source, it, "source", false);
        if (!rc) {
            tf = cJSON_GetObjectItemCaseSensitive(it, "tflops");
            if (!tf)
                rc = fail(c, "tflops", "missing required key");
            else if (!cJSON_IsObject(tf))
                rc = fail(c, "tflops", "expected an object");
        }
        for (p = 0; !rc && p < ECF_PREC_COUNT; p++) {
            char saved2[256];
            push_path(c, saved2, sizeof(saved2), "tflops");
            rc = get_number(c, &a->tflops[p], tf, prec_names[p], false, true,
                            0);
            pop_path(c, saved2);
        }
        pop_path(c, saved);
        if (rc)
            return rc;
    }
    return 0;
}

static int region_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Interns region names: collected during instance loading (with
 * duplicates), then sorted and deduplicated, and price entries are
 * re-pointed at the interned copies. */
static const char *intern_lookup(const ecf_catalog *cat, const char *name)
{
    char *const *hit = bsearch(&name, cat->regions, cat->n_regions,
                               sizeof(char *), region_cmp);
    return hit ? *hit : NULL;
}

static int load_price(ctx *c, ecf_price *p, const cJSON *v)
{
    int rc = 0, bad;
    const cJSON *est;

    if (!cJSON_IsObject(v))
        return fail(c, NULL, "expected an object");
    rc = get_number(c, &p->ondemand_usd_per_hour, v, "ondemand_usd_per_hour",
                    true, false, 0);
    if (!rc && p->ondemand_usd_per_hour <= 0)
        rc = fail(c, "ondemand_usd_per_hour", "expected a positive number");
    if (!rc)
        rc = get_number(c, &p->reserved_1y_usd_per_hour, v,
                        "reserved_1y_usd_per_hour", false, true,
                        ECF_PRICE_UNKNOWN);
    if (!rc)
        rc = get_number(c, &p->spot_usd_per_hour, v, "spot_usd_per_hour",
                        false, true, ECF_PRICE_UNKNOWN);
    if (!rc)
        rc = get_int(c, &p->spot_savings_pct, v, "spot_savings_pct", false,
                     true, 0, -1000);
    if (!rc && p->spot_savings_pct >= 100)
        rc = fail(c, "spot_savings_pct", "expected a percentage below 100");
    if (!rc)
        rc = get_int(c, &p->interruption_band, v, "interruption_band", false,
                     true, -1, 0);
    if (!rc && p->interruption_band > 4)
        rc = fail(c, "interruption_band", "expected an integer from 0 to 4");
    if (!rc) {
        est = cJSON_GetObjectItemCaseSensitive(v, "spot_estimated");
        bad = est && !cJSON_IsBool(est) && !cJSON_IsNull(est);
        if (bad)
            rc = fail(c, "spot_estimated", "expected true or false");
    }
    return rc;
}

static int load_accel_ref(ctx *c, const ecf_catalog *cat, ecf_instance *in,
                          const cJSON *acc)
{
    char *id = NULL;
    int rc, link = 0;

    in->accel_fraction = 1.0;
    if (!acc || cJSON_IsNull(acc))
        return 0;
    if (!cJSON_IsObject(acc))
        return fail(c, "accelerator", "expected an object or null");
    {
        char saved[256];
        push_path(c, saved, sizeof(saved), "accelerator");
        rc = get_string(c, &id, acc, "id", true);
        if (!rc) {
            in->accel = ecf_catalog_accel_find(cat, id);
            if (!in->accel)
                rc = fail(c, "id", "unknown accelerator id \"%s\"", id);
        }
        if (!rc)
            rc = get_int(c, &in->accel_count, acc, "count", true, false, 0,
                         0);
        if (!rc && (in->accel_count < 1 || in->accel_count > 1024))
            rc = fail(c, "count", "expected an integer from 1 to 1024");
        if (!rc)
            rc = get_number(c, &in->accel_memory_gib, acc, "memory_gib", true,
                            false, 0);
        if (!rc)
            rc = get_number(c, &in->accel_fraction, acc, "fraction", false,
                            true, 1.0);
        if (!rc && (in->accel_fraction <= 0 || in->accel_fraction > 1))
            rc = fail(c, "fraction", "expected a number in (0, 1]");
        if (!rc)
            rc = get_enum(c, &link, acc, "interconnect", link_names, 6);
        in->link = (ecf_link)link;
        if (!rc)
            rc = get_number(c, &in->link_gbytes_s, acc,
                            "interconnect_gbytes_s", false, true, 0);
        pop_path(c, saved);
    }
    free(id);
    return rc;
}

static int load_instance(ctx *c, ecf_catalog *cat, ecf_instance *in,
                         const cJSON *it)
{
    int rc = 0, arch = 0;
    const cJSON *prices, *pv;
    size_t n, j = 0;

    if (!cJSON_IsObject(it))
        return fail(c, NULL, "expected an object");
    rc = get_string(c, &in->type, it, "type", true);
    if (!rc && !in->type[0])
        rc = fail(c, "type", "expected a non-empty string");
    if (!rc)
        rc = get_string(c, &in->family, it, "family", true);
    if (!rc)
        rc = get_int(c, &in->vcpu, it, "vcpu", true, false, 0, 0);
    if (!rc)
        rc = get_number(c, &in->memory_gib, it, "memory_gib", true, false, 0);
    if (!rc)
        rc = get_enum(c, &arch, it, "arch", arch_names, 2);
    in->arch = (ecf_arch)arch;
    if (!rc) {
        const cJSON *acc = cJSON_GetObjectItemCaseSensitive(it, "accelerator");
        if (!acc)
            rc = fail(c, "accelerator", "missing required key");
        else
            rc = load_accel_ref(c, cat, in, acc);
    }
    if (!rc)
        rc = get_number(c, &in->network_gbps, it, "network_gbps", false, true,
                        0);
    if (!rc)
        rc = get_int(c, &in->efa_interfaces, it, "efa_interfaces", false,
                     true, 0, 0);
    if (!rc)
        rc = get_number(c, &in->efa_gbps, it, "efa_gbps", false, true, 0);
    in->efa = in->efa_interfaces > 0;
    if (!rc)
        rc = get_number(c, &in->ebs_gbps, it, "ebs_gbps", false, true, 0);
    if (!rc)
        rc = get_number(c, &in->nvme_gb, it, "nvme_gb", false, true, 0);
    if (rc)
        return rc;

    prices = cJSON_GetObjectItemCaseSensitive(it, "prices");
    if (!prices)
        return fail(c, "prices", "missing required key");
    if (!cJSON_IsObject(prices))
        return fail(c, "prices", "expected an object keyed by region");
    n = (size_t)cJSON_GetArraySize(prices);
    if (n > ECF_CATALOG_MAX_REGIONS)
        return ecf_err_set(c->err, ECF_EINVAL,
                           "%s: %s.prices: %zu regions exceed the limit of %d",
                           c->name, c->path, n, ECF_CATALOG_MAX_REGIONS);
    in->prices = ecf_xcalloc(n, sizeof(ecf_price));
    cJSON_ArrayForEach(pv, prices)
    {
        char saved[256];
        size_t k;
        if (!pv->string || !pv->string[0] || strlen(pv->string) > 64)
            return fail(c, "prices", "expected region names as keys");
        for (k = 0; k < j; k++)
            if (strcmp(in->prices[k].region, pv->string) == 0)
                return fail(c, "prices", "duplicate region \"%s\"",
                            pv->string);
        /* temporarily borrow the cJSON key; re-pointed after interning */
        in->prices[j].region = pv->string;
        push_path(c, saved, sizeof(saved), "prices.%s", pv->string);
        rc = load_price(c, &in->prices[j], pv);
        pop_path(c, saved);
        in->n_prices = ++j;
        if (rc)
            return rc;
    }
    return 0;
}

static int price_cmp(const void *a, const void *b)
{
    return strcmp(((const ecf_price *)a)->region,
                  ((const ecf_price *)b)->region);
}

static int type_cmp(const void *a, const void *b)
{
    return strcmp((*(const ecf_instance *const *)a)->type,
                  (*(const ecf_instance *const *)b)->type);
}

static int load_instances(ctx *c, ecf_catalog *cat, const cJSON *arr)
{
    const cJSON *it;
    char saved[256];
    size_t i = 0, n, total = 0, k, r;
    int rc = 0;

    if (!cJSON_IsArray(arr))
        return fail(c, "instances", "expected an array");
    n = (size_t)cJSON_GetArraySize(arr);
    if (n > ECF_CATALOG_MAX_INSTANCES)
        return ecf_err_set(c->err, ECF_EINVAL,
                           "%s: instances: %zu entries exceed the limit of %d",
                           c->name, n, ECF_CATALOG_MAX_INSTANCES);
    cat->instances = ecf_xcalloc(n, sizeof(ecf_instance));
    cJSON_ArrayForEach(it, arr)
    {
        push_path(c, saved, sizeof(saved), "instances[%zu]", i);
        cat->n_instances = i + 1;
        rc = load_instance(c, cat, &cat->instances[i], it);
        pop_path(c, saved);
        if (rc)
            return rc;
        total += cat->instances[i].n_prices;
        i++;
    }

    /* unique types */
    cat->by_type = ecf_xcalloc(n, sizeof(*cat->by_type));
    for (i = 0; i < n; i++)
        cat->by_type[i] = &cat->instances[i];
    qsort(cat->by_type, n, sizeof(*cat->by_type), type_cmp);
    for (i = 1; i < n; i++)
        if (strcmp(cat->by_type[i - 1]->type, cat->by_type[i]->type) == 0) {
            size_t idx = (size_t)(cat->by_type[i] - cat->instances);
            size_t first = (size_t)(cat->by_type[i - 1] - cat->instances);
            if (first > idx)
                idx = first;
            return ecf_err_set(c->err, ECF_EPARSE,
                               "%s: instances[%zu].type: duplicate instance "
                               "type \"%s\"",
                               c->name, idx, cat->by_type[i]->type);
        }

    /* intern regions */
    cat->regions = ecf_xcalloc(total, sizeof(char *));
    for (i = 0, r = 0; i < n; i++)
        for (k = 0; k < cat->instances[i].n_prices; k++)
            cat->regions[r++] = (char *)cat->instances[i].prices[k].region;
    qsort(cat->regions, total, sizeof(char *), region_cmp);
    for (i = 0, r = 0; i < total; i++)
        if (r == 0 || strcmp(cat->regions[r - 1], cat->regions[i]) != 0)
            cat->regions[r++] = cat->regions[i];
    for (i = 0; i < r; i++)
        cat->regions[i] = ecf_xstrdup(cat->regions[i]);
    cat->n_regions = r;
    for (i = 0; i < n; i++) {
        ecf_instance *in = &cat->instances[i];
        for (k = 0; k < in->n_prices; k++)
            in->prices[k].region = intern_lookup(cat, in->prices[k].region);
        qsort(in->prices, in->n_prices, sizeof(ecf_price), price_cmp);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                       */
/* ------------------------------------------------------------------ */

static void drop_borrowed_regions(ecf_catalog *cat)
{
    /* On failure before interning, price regions still point into the
     * cJSON tree; they are never freed individually, so nothing to do but
     * make sure no dangling pointer survives. */
    size_t i, k;
    for (i = 0; i < cat->n_instances; i++)
        for (k = 0; k < cat->instances[i].n_prices; k++)
            cat->instances[i].prices[k].region = NULL;
}

int ecf_catalog_load_buffer(ecf_catalog **out, const char *data, size_t len,
                            const char *name, ecf_err *err)
{
    cJSON *root = NULL;
    const char *end = NULL;
    ecf_catalog *cat = NULL;
    ctx c;
    int rc = 0;
    const cJSON *v;

    *out = NULL;
    c.name = name;
    c.err = err;
    c.path[0] = '\0';
    if (len > ECF_CATALOG_MAX_BYTES)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: %zu bytes exceed the catalog size limit of "
                           "%u bytes",
                           name, len, ECF_CATALOG_MAX_BYTES);
    root = cJSON_ParseWithLengthOpts(data, len, &end, 0);
    if (!root) {
        size_t off = end ? (size_t)(end - data) : 0;
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: invalid JSON at byte offset %zu", name, off);
    }
    cat = ecf_xcalloc(1, sizeof(*cat));
    if (!cJSON_IsObject(root)) {
        rc = fail(&c, NULL, "expected a JSON object");
        goto out;
    }
    rc = get_int(&c, &cat->schema_version, root, "schema_version", true,
                 false, 0, 0);
    if (!rc && cat->schema_version != ECF_CATALOG_SCHEMA_VERSION)
        rc = fail(&c, "schema_version",
                  "unsupported version %d (this ec2fit reads version %d)",
                  cat->schema_version, ECF_CATALOG_SCHEMA_VERSION);
    if (!rc)
        rc = get_string(&c, &cat->generated_at, root, "generated_at", true);
    if (!rc)
        rc = get_string(&c, &cat->as_of, root, "as_of", true);
    if (!rc && !is_date(cat->as_of))
        rc = fail(&c, "as_of", "expected a date YYYY-MM-DD");
    if (!rc) {
        v = member(&c, root, "sources", true, &rc);
        if (!rc)
            rc = load_sources(&c, cat, v);
    }
    if (!rc) {
        v = member(&c, root, "accelerators", true, &rc);
        if (!rc)
            rc = load_accels(&c, cat, v);
    }
    if (!rc) {
        v = member(&c, root, "instances", true, &rc);
        if (!rc)
            rc = load_instances(&c, cat, v);
    }
out:
    if (rc) {
        if (cat && !cat->regions)
            drop_borrowed_regions(cat);
        ecf_catalog_free(cat);
        cat = NULL;
    }
    cJSON_Delete(root);
    *out = cat;
    return rc;
}

int ecf_catalog_load_file(ecf_catalog **out, const char *path, ecf_err *err)
{
    ecf_buf b = ECF_BUF_INIT;
    const char *base = strrchr(path, '/');
    int rc;

    *out = NULL;
    rc = ecf_buf_read_file(&b, path, ECF_CATALOG_MAX_BYTES, err);
    if (rc == 0)
        rc = ecf_catalog_load_buffer(out, b.data, b.len,
                                     base ? base + 1 : path, err);
    ecf_buf_dispose(&b);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Getters                                                            */
/* ------------------------------------------------------------------ */

size_t ecf_catalog_count(const ecf_catalog *cat)
{
    return cat->n_instances;
}

const ecf_instance *ecf_catalog_at(const ecf_catalog *cat, size_t i)
{
    return i < cat->n_instances ? &cat->instances[i] : NULL;
}

const ecf_instance *ecf_catalog_find(const ecf_catalog *cat, const char *type)
{
    ecf_instance key;
    const ecf_instance *kp = &key;
    const ecf_instance *const *hit;
    key.type = (char *)type;
    hit = bsearch(&kp, cat->by_type, cat->n_instances, sizeof(*cat->by_type),
                  type_cmp);
    return hit ? *hit : NULL;
}

size_t ecf_catalog_accel_count(const ecf_catalog *cat)
{
    return cat->n_accels;
}

const ecf_accel *ecf_catalog_accel_at(const ecf_catalog *cat, size_t i)
{
    return i < cat->n_accels ? &cat->accels[i] : NULL;
}

const ecf_accel *ecf_catalog_accel_find(const ecf_catalog *cat, const char *id)
{
    size_t i;
    for (i = 0; i < cat->n_accels; i++)
        if (cat->accels[i].id && strcmp(cat->accels[i].id, id) == 0)
            return &cat->accels[i];
    return NULL;
}

size_t ecf_catalog_region_count(const ecf_catalog *cat)
{
    return cat->n_regions;
}

const char *ecf_catalog_region_at(const ecf_catalog *cat, size_t i)
{
    return i < cat->n_regions ? cat->regions[i] : NULL;
}

bool ecf_catalog_has_region(const ecf_catalog *cat, const char *region)
{
    return intern_lookup(cat, region) != NULL;
}

const char *ecf_catalog_as_of(const ecf_catalog *cat)
{
    return cat->as_of;
}

const char *ecf_catalog_generated_at(const ecf_catalog *cat)
{
    return cat->generated_at;
}

size_t ecf_catalog_source_count(const ecf_catalog *cat)
{
    return cat->n_sources;
}

const ecf_source *ecf_catalog_source_at(const ecf_catalog *cat, size_t i)
{
    return i < cat->n_sources ? &cat->sources[i] : NULL;
}

const ecf_price *ecf_instance_price(const ecf_instance *inst,
                                    const char *region)
{
    size_t lo = 0, hi = inst->n_prices;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(inst->prices[mid].region, region);
        if (c == 0)
            return &inst->prices[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
