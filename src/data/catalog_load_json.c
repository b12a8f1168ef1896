/*
 * catalog_load_json.c - load and validate the instance catalog from JSON.
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/buf.h"
#include "ec2fit/textsafe.h"
#include "json_check.h"

#include "catalog_internal.h"
#include "ec2fit/dates.h"

/* ------------------------------------------------------------------ */
/* Enum names                                                         */
/* ------------------------------------------------------------------ */

const char *const prec_names[ECF_PREC_COUNT] = {
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

/* The JSON path of the object being read is kept as a stack of components
 * and formatted only when an error is reported: formatting it eagerly for
 * every object and field cost about 15% of a load in snprintf. A component
 * renders as KEY[.SUB][[INDEX]] and components are joined with '.', which
 * reproduces "instances[3].prices.us-east-1.spot_usd_per_hour". */
#define PATH_MAX_DEPTH 8

typedef struct {
    const char *key; /* static, or borrowed from the cJSON tree */
    const char *sub; /* NULL, or a second key joined with '.' (prices.REGION) */
    size_t index;
    bool has_index;
} path_part;

typedef struct {
    const char *name; /* file name for messages */
    ecf_err *err;
    path_part parts[PATH_MAX_DEPTH];
    size_t depth; /* may exceed PATH_MAX_DEPTH; deeper parts are dropped */
} ctx;

static void path_push(ctx *c, const char *key, const char *sub, size_t index,
                      bool has_index)
{
    if (c->depth < PATH_MAX_DEPTH) {
        path_part *p = &c->parts[c->depth];
        p->key = key;
        p->sub = sub;
        p->index = index;
        p->has_index = has_index;
    }
    c->depth++;
}

static void path_pop(ctx *c)
{
    c->depth--;
}

static void path_append(char *buf, size_t size, const char *s)
{
    size_t n = strlen(buf);
    if (n + 1 < size)
        snprintf(buf + n, size - n, "%s", s);
}

/* Formats the current path into buf ("" at the top level). */
static const char *path_format(const ctx *c, char *buf, size_t size)
{
    size_t i;
    buf[0] = '\0';
    for (i = 0; i < c->depth && i < PATH_MAX_DEPTH; i++) {
        const path_part *p = &c->parts[i];
        if (buf[0])
            path_append(buf, size, ".");
        path_append(buf, size, p->key);
        if (p->sub) {
            path_append(buf, size, ".");
            path_append(buf, size, p->sub);
        }
        if (p->has_index) {
            char idx[32];
            snprintf(idx, sizeof(idx), "[%zu]", p->index);
            path_append(buf, size, idx);
        }
    }
    return buf;
}

static int fail(ctx *c, const char *key, const char *fmt, ...)
    ECF_PRINTF(3, 4);

/* The message for a name that breaks docs/catalog.md "Identifiers"; the
 * name itself is not echoed (it may hold anything). */
#define IDENT_RULE(what, punct)                                                \
    "expected " what " of 1 to 63 characters: lowercase letters, digits "    \
    "and '" punct "', starting with a letter or digit"

static int fail(ctx *c, const char *key, const char *fmt, ...)
{
    char reason[256];
    char path[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    path_format(c, path, sizeof(path));
    if (key && path[0])
        return ecf_err_set(c->err, ECF_EPARSE, "%s: %s.%s: %s", c->name,
                           path, key, reason);
    if (key)
        return ecf_err_set(c->err, ECF_EPARSE, "%s: %s: %s", c->name, key,
                           reason);
    return ecf_err_set(c->err, ECF_EPARSE, "%s: %s: %s", c->name,
                       path[0] ? path : "(top level)", reason);
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
                      bool required, bool nullable, double dflt, double max)
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
    /* docs/catalog.md "Limits": far above any real value, so a quotient
     * or product of two catalog numbers stays finite and in range */
    if (v->valuedouble > max)
        return fail(c, key, "%g exceeds the limit of %g", v->valuedouble,
                    max);
    if (v->valuedouble > 0 && v->valuedouble < ECF_CATALOG_MIN_POSITIVE)
        return fail(c, key, "%g is below the smallest non-zero value, %g",
                    v->valuedouble, ECF_CATALOG_MIN_POSITIVE);
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

/* ------------------------------------------------------------------ */
/* Sections                                                           */
/* ------------------------------------------------------------------ */

bool is_date(const char *s)
{
    /* YYYY-MM-DD, and a day that exists (ecf_date_parse). */
    return ecf_date_parse(s, NULL);
}

/* generated_at: a real date, alone or followed by "T" and a time. */
static bool is_timestamp(const char *s)
{
    char day[11];
    if (strlen(s) < 10 || (s[10] != '\0' && s[10] != 'T'))
        return false;
    memcpy(day, s, 10);
    day[10] = '\0';
    return ecf_date_parse(day, NULL);
}

static int load_sources(ctx *c, ecf_catalog *cat, const cJSON *arr)
{
    const cJSON *it;
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
        path_push(c, "sources", NULL, i, true);
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
        path_pop(c);
        if (rc)
            return rc;
    }
    return 0;
}

static int load_accels(ctx *c, ecf_catalog *cat, const cJSON *arr)
{
    const cJSON *it;
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

        path_push(c, "accelerators", NULL, i, true);
        cat->n_accels = ++i;
        if (!cJSON_IsObject(it))
            rc = fail(c, NULL, "expected an object");
        if (!rc)
            rc = get_string(c, &a->id, it, "id", true);
        if (!rc && !ecf_ident_valid(a->id, ECF_CATALOG_MAX_TYPE_LEN, "-"))
            rc = fail(c, "id", "%s", IDENT_RULE("an accelerator id", "-"));
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
                            0, ECF_CATALOG_MAX_DEVICE_MEM_GB);
        if (!rc)
            rc = get_number(c, &a->memory_bw_gbytes_s, it,
                            "memory_bw_gbytes_s", false, true, 0,
                            ECF_CATALOG_MAX_BW_GBYTES_S);
        if (!rc)
            rc = get_number(c, &a->tdp_w, it, "tdp_w", false, true, 0,
                            ECF_CATALOG_MAX_TDP_W);
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
            path_push(c, "tflops", NULL, 0, false);
            rc = get_number(c, &a->tflops[p], tf, prec_names[p], false, true,
                            0, ECF_CATALOG_MAX_TFLOPS);
            path_pop(c);
        }
        path_pop(c);
        if (rc)
            return rc;
    }
    return 0;
}

static int load_price(ctx *c, ecf_price *p, const cJSON *v)
{
    int rc = 0, bad;
    const cJSON *est;

    if (!cJSON_IsObject(v))
        return fail(c, NULL, "expected an object");
    rc = get_number(c, &p->ondemand_usd_per_hour, v, "ondemand_usd_per_hour",
                    true, false, 0, ECF_CATALOG_MAX_USD_PER_HOUR);
    if (!rc && p->ondemand_usd_per_hour <= 0)
        rc = fail(c, "ondemand_usd_per_hour", "expected a positive number");
    if (!rc)
        rc = get_number(c, &p->reserved_1y_usd_per_hour, v,
                        "reserved_1y_usd_per_hour", false, true,
                        ECF_PRICE_UNKNOWN, ECF_CATALOG_MAX_USD_PER_HOUR);
    if (!rc)
        rc = get_number(c, &p->spot_usd_per_hour, v, "spot_usd_per_hour",
                        false, true, ECF_PRICE_UNKNOWN,
                        ECF_CATALOG_MAX_USD_PER_HOUR);
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
    if (!rc)
        rc = get_number(c, &p->capacity_block_usd_per_hour, v,
                        "capacity_block_usd_per_hour", false, true,
                        ECF_PRICE_UNKNOWN, ECF_CATALOG_MAX_USD_PER_HOUR);
    if (!rc)
        rc = get_number(c, &p->savings_plan_1y_usd_per_hour, v,
                        "savings_plan_1y_usd_per_hour", false, true,
                        ECF_PRICE_UNKNOWN, ECF_CATALOG_MAX_USD_PER_HOUR);
    if (!rc)
        rc = get_number(c, &p->savings_plan_3y_usd_per_hour, v,
                        "savings_plan_3y_usd_per_hour", false, true,
                        ECF_PRICE_UNKNOWN, ECF_CATALOG_MAX_USD_PER_HOUR);
    if (!rc) {
        est = cJSON_GetObjectItemCaseSensitive(v, "spot_estimated");
        bad = est && !cJSON_IsBool(est) && !cJSON_IsNull(est);
        if (bad)
            rc = fail(c, "spot_estimated", "expected true or false");
    }
    /* A Spot Advisor savings at the feed's ceiling is censored ("90% or
     * more", or too few spot hours to price): no spot estimate is made
     * from it (docs/catalog.md "Spot prices are estimates"). The savings
     * and band stay for `show`. */
    if (!rc && p->spot_savings_pct >= ECF_SPOT_SAVINGS_CEILING_PCT)
        p->spot_usd_per_hour = ECF_PRICE_UNKNOWN;
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
        path_push(c, "accelerator", NULL, 0, false);
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
                            false, 0, ECF_CATALOG_MAX_DEVICE_MEM_GB);
        if (!rc)
            rc = get_number(c, &in->accel_fraction, acc, "fraction", false,
                            true, 1.0, 1.0);
        if (!rc && (in->accel_fraction <= 0 || in->accel_fraction > 1))
            rc = fail(c, "fraction", "expected a number in (0, 1]");
        if (!rc)
            rc = get_enum(c, &link, acc, "interconnect", link_names, 6);
        in->link = (ecf_link)link;
        if (!rc)
            rc = get_number(c, &in->link_gbytes_s, acc,
                            "interconnect_gbytes_s", false, true, 0,
                            ECF_CATALOG_MAX_BW_GBYTES_S);
        path_pop(c);
    }
    free(id);
    return rc;
}

/* Optional "cpu" object of a CPU-only type (null = unknown). */
static int load_cpu(ctx *c, ecf_instance *in, const cJSON *cpu)
{
    const cJSON *g;
    int rc = 0;

    if (!cpu || cJSON_IsNull(cpu))
        return 0;
    if (!cJSON_IsObject(cpu))
        return fail(c, "cpu", "expected an object or null");
    path_push(c, "cpu", NULL, 0, false);
    g = cJSON_GetObjectItemCaseSensitive(cpu, "gflops");
    if (!cJSON_IsObject(g))
        rc = fail(c, "gflops", "expected an object");
    if (!rc) {
        path_push(c, "gflops", NULL, 0, false);
        rc = get_number(c, &in->cpu_gflops_fp32, g, "fp32", true, false, 0,
                        ECF_CATALOG_MAX_CPU_GFLOPS);
        if (!rc)
            rc = get_number(c, &in->cpu_gflops_bf16, g, "bf16", true, false,
                            0, ECF_CATALOG_MAX_CPU_GFLOPS);
        if (!rc)
            rc = get_number(c, &in->cpu_gflops_int8, g, "int8", true, false,
                            0, ECF_CATALOG_MAX_CPU_GFLOPS);
        path_pop(c);
    }
    if (!rc)
        rc = get_number(c, &in->cpu_mem_gbytes_s, cpu, "memory_bw_gbytes_s",
                        true, false, 0, ECF_CATALOG_MAX_BW_GBYTES_S);
    if (!rc && !(in->cpu_gflops_fp32 > 0 && in->cpu_gflops_bf16 > 0 &&
                 in->cpu_gflops_int8 > 0 && in->cpu_mem_gbytes_s > 0))
        rc = fail(c, NULL, "gflops and memory_bw_gbytes_s must be positive");
    path_pop(c);
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
    if (!rc && !ecf_ident_valid(in->type, ECF_CATALOG_MAX_TYPE_LEN, "-."))
        rc = fail(c, "type", "%s", IDENT_RULE("an instance type", "-."));
    if (!rc)
        rc = get_string(c, &in->family, it, "family", true);
    if (!rc && !ecf_ident_valid(in->family, ECF_CATALOG_MAX_TYPE_LEN, "-"))
        rc = fail(c, "family", "%s", IDENT_RULE("a family", "-"));
    if (!rc)
        rc = get_int(c, &in->vcpu, it, "vcpu", true, false, 0, 0);
    if (!rc && in->vcpu > ECF_CATALOG_MAX_VCPU)
        rc = fail(c, "vcpu", "%d exceeds the limit of %d", in->vcpu,
                  ECF_CATALOG_MAX_VCPU);
    if (!rc)
        rc = get_number(c, &in->memory_gib, it, "memory_gib", true, false, 0,
                        ECF_CATALOG_MAX_MEMORY_GIB);
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
        rc = load_cpu(c, in, cJSON_GetObjectItemCaseSensitive(it, "cpu"));
    if (!rc)
        rc = get_number(c, &in->network_gbps, it, "network_gbps", false, true,
                        0, ECF_CATALOG_MAX_NET_GBPS);
    if (!rc)
        rc = get_int(c, &in->efa_interfaces, it, "efa_interfaces", false,
                     true, 0, 0);
    if (!rc && in->efa_interfaces > ECF_CATALOG_MAX_EFA_INTERFACES)
        rc = fail(c, "efa_interfaces", "%d exceeds the limit of %d",
                  in->efa_interfaces, ECF_CATALOG_MAX_EFA_INTERFACES);
    if (!rc)
        rc = get_number(c, &in->efa_gbps, it, "efa_gbps", false, true, 0,
                        ECF_CATALOG_MAX_NET_GBPS);
    in->efa = in->efa_interfaces > 0;
    if (!rc)
        rc = get_number(c, &in->ebs_gbps, it, "ebs_gbps", false, true, 0,
                        ECF_CATALOG_MAX_NET_GBPS);
    if (!rc)
        rc = get_number(c, &in->nvme_gb, it, "nvme_gb", false, true, 0,
                        ECF_CATALOG_MAX_NVME_GB);
    if (rc)
        return rc;

    prices = cJSON_GetObjectItemCaseSensitive(it, "prices");
    if (!prices)
        return fail(c, "prices", "missing required key");
    if (!cJSON_IsObject(prices))
        return fail(c, "prices", "expected an object keyed by region");
    n = (size_t)cJSON_GetArraySize(prices);
    if (n > ECF_CATALOG_MAX_REGIONS) {
        char path[256];
        return ecf_err_set(c->err, ECF_EINVAL,
                           "%s: %s.prices: %zu regions exceed the limit of %d",
                           c->name, path_format(c, path, sizeof(path)), n,
                           ECF_CATALOG_MAX_REGIONS);
    }
    in->prices = ecf_xcalloc(n, sizeof(ecf_price));
    cJSON_ArrayForEach(pv, prices)
    {
        size_t k;
        if (!pv->string || !pv->string[0] || strlen(pv->string) > 64)
            return fail(c, "prices", "expected region names as keys");
        if (!ecf_ident_valid(pv->string, ECF_CATALOG_MAX_REGION_LEN, "-"))
            return fail(c, "prices", "%s", IDENT_RULE("a region key", "-"));
        for (k = 0; k < j; k++)
            if (strcmp(in->prices[k].region, pv->string) == 0)
                return fail(c, "prices", "duplicate region \"%s\"",
                            pv->string);
        /* temporarily borrow the cJSON key; re-pointed after interning */
        in->prices[j].region = pv->string;
        path_push(c, "prices", pv->string, 0, false);
        rc = load_price(c, &in->prices[j], pv);
        path_pop(c);
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


static int load_instances(ctx *c, ecf_catalog *cat, const cJSON *arr)
{
    const cJSON *it;
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
        path_push(c, "instances", NULL, i, true);
        cat->n_instances = i + 1;
        rc = load_instance(c, cat, &cat->instances[i], it);
        path_pop(c);
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
        if (in->n_prices > 1) /* prices is NULL when there are none */
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
    ecf_catalog *cat = NULL;
    ctx c;
    int rc = 0;
    const cJSON *v;

    *out = NULL;
    c.name = name;
    c.err = err;
    c.depth = 0;
    rc = ecf_json_parse(&root, data, len, ECF_CATALOG_MAX_BYTES, "catalog ",
                        name, ECF_EPARSE, err);
    if (rc)
        return rc;
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
    if (!rc && !is_timestamp(cat->generated_at))
        rc = fail(&c, "generated_at",
                  "expected a date YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ");
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
    int rc;

    /* Messages name the path as the user gave it. */
    *out = NULL;
    rc = ecf_buf_read_file(&b, path, ECF_CATALOG_MAX_BYTES, err);
    if (rc == 0)
        rc = ecf_catalog_load_buffer(out, b.data, b.len, path, err);
    ecf_buf_dispose(&b);
    return rc;
}
