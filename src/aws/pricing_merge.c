/*
 * pricing_merge.c - merging refreshed on-demand, reserved, Savings Plan
 * and spot prices into a catalog document (text to text). A refreshed source is authoritative for
 * the regions it covered, with guards against a bad refresh: a price moving
 * more than 5x keeps the old value unless forced, and a refresh covering
 * fewer (type, region) pairs than the catalog did is refused unless forced.
 */
#include "ec2fit/pricing.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pricing_internal.h"
#include "pricing_sanity.h"

/* ===================================================================== */
/* merge                                                                  */
/* ===================================================================== */

void ecf_pricing_report_dispose(ecf_pricing_report *r)
{
    size_t i;
    if (!r)
        return;
    for (i = 0; i < r->n_notes; i++)
        free(r->notes[i]);
    free(r->notes);
    memset(r, 0, sizeof(*r));
}

static void vnote(ecf_pricing_report *r, bool always, const char *fmt,
                  va_list ap) ECF_PRINTF(3, 0);

static void vnote(ecf_pricing_report *r, bool always, const char *fmt,
                  va_list ap)
{
    ecf_buf b = ECF_BUF_INIT;
    char tmp[512];

    r->n_notes_total++;
    if (r->n_notes >= ECF_PRICING_MAX_NOTES && !always)
        return;
    vsnprintf(tmp, sizeof(tmp), fmt, ap);
    ecf_buf_puts(&b, tmp);
    r->notes = ecf_xrealloc(r->notes, (r->n_notes + 1) * sizeof(char *));
    r->notes[r->n_notes++] = ecf_buf_detach(&b);
}

static void note(ecf_pricing_report *r, const char *fmt, ...)
    ECF_PRINTF(2, 3);

static void note(ecf_pricing_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(r, false, fmt, ap);
    va_end(ap);
}

/* A rejected or forced value: reported whatever the cap. */
static void note_value(ecf_pricing_report *r, const char *fmt, ...)
    ECF_PRINTF(2, 3);

static void note_value(ecf_pricing_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(r, true, fmt, ap);
    va_end(ap);
}

/* A newly priced pair: may its price be taken (pricing_sanity.c)?
 * Every rejected or forced value gets its note. */
static bool new_price_ok(ecf_pricing_report *rep, const pricing_medians *m,
                         const cJSON *inst, const char *type,
                         const char *region, double newp, bool force)
{
    char msg[512];
    pricing_verdict v = ecf_pricing_check_new_price(msg, sizeof(msg), m, inst,
                                                type, region, newp, force);
    if (v == PRICING_FORCED)
        rep->ondemand_new_forced++;
    else if (v == PRICING_REJECTED)
        rep->ondemand_new_rejected++;
    if (v != PRICING_OK)
        note_value(rep, "%s", msg);
    return v != PRICING_REJECTED;
}

/* A commitment rate against its pair's on-demand price
 * (pricing_sanity.c): false, with its note, when it must be dropped. */
static bool commitment_ok(ecf_pricing_report *rep, const char *type,
                          const char *region, const char *term, double rate,
                          double ondemand, bool fetched)
{
    char msg[512];
    if (ecf_pricing_check_commitment(msg, sizeof(msg), type, region, term,
                                     rate, ondemand, fetched) == PRICING_OK)
        return true;
    note_value(rep, "%s", msg);
    rep->commitment_dropped++;
    return false;
}

static bool sp_terms_ok(ecf_pricing_report *rep, const char *type,
                        const char *region, double sp3, double sp1,
                        bool fetched)
{
    char msg[512];
    if (ecf_pricing_check_sp_terms(msg, sizeof(msg), type, region, sp3, sp1,
                                   fetched) == PRICING_OK)
        return true;
    note_value(rep, "%s", msg);
    rep->commitment_dropped++;
    return false;
}

static double num_or(const cJSON *obj, const char *key, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static void set_number(cJSON *obj, const char *key, double v)
{
    cJSON *n = cJSON_CreateNumber(v);
    if (cJSON_GetObjectItemCaseSensitive(obj, key))
        cJSON_ReplaceItemInObjectCaseSensitive(obj, key, n);
    else
        cJSON_AddItemToObject(obj, key, n);
}

static void set_null(cJSON *obj, const char *key)
{
    cJSON *n = cJSON_CreateNull();
    if (cJSON_GetObjectItemCaseSensitive(obj, key))
        cJSON_ReplaceItemInObjectCaseSensitive(obj, key, n);
    else
        cJSON_AddItemToObject(obj, key, n);
}

static void set_bool(cJSON *obj, const char *key, bool v)
{
    cJSON *n = cJSON_CreateBool(v);
    if (cJSON_GetObjectItemCaseSensitive(obj, key))
        cJSON_ReplaceItemInObjectCaseSensitive(obj, key, n);
    else
        cJSON_AddItemToObject(obj, key, n);
}

static double round6(double v)
{
    return round(v * 1e6) / 1e6;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool has_spot(const cJSON *entry)
{
    return cJSON_IsNumber(
        cJSON_GetObjectItemCaseSensitive(entry, "spot_savings_pct"));
}

static size_t count_pairs(const cJSON *instances, const ecf_pricing_merge_opts
                                                      *o,
                          bool spot_only)
{
    const cJSON *inst, *entry;
    size_t n = 0;
    cJSON_ArrayForEach(inst, instances)
    {
        cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(inst,
                                                                   "prices"))
        {
            if (!entry->string ||
                !wanted(entry->string, o->regions, o->n_regions))
                continue;
            if (!spot_only || has_spot(entry))
                n++;
        }
    }
    return n;
}

/* One (type, region) price entry of a refreshed region: `entry` is NULL
 * where the catalog has no price for the type there. */
typedef struct {
    cJSON *inst, *prices, *entry;
    const char *type, *region;
} price_pair;

typedef void (*pair_fn)(const price_pair *p, ecf_pricing_report *rep,
                        const ecf_pricing_merge_opts *o, const void *ctx);

/* Calls `fn` for every catalog type with a prices object and every
 * refreshed region (the merge steps below; `fn` may add or delete the
 * region's entry, never another type's). */
static void each_pair(cJSON *instances, ecf_pricing_report *rep,
                      const ecf_pricing_merge_opts *o, pair_fn fn,
                      const void *ctx)
{
    cJSON *inst;
    size_t r;
    cJSON_ArrayForEach(inst, instances)
    {
        price_pair p;
        p.inst = inst;
        p.type = get_str(inst, "type");
        p.prices = cJSON_GetObjectItemCaseSensitive(inst, "prices");
        if (!p.type || !cJSON_IsObject(p.prices))
            continue;
        for (r = 0; r < o->n_regions; r++) {
            p.region = o->regions[r];
            p.entry = cJSON_GetObjectItemCaseSensitive(p.prices, p.region);
            fn(&p, rep, o, ctx);
        }
    }
}

static void ondemand_pair(const price_pair *p, ecf_pricing_report *rep,
                          const ecf_pricing_merge_opts *o, const void *ctx)
{
    const pricing_medians *medians = ctx;
    cJSON *inst = p->inst, *prices = p->prices, *entry = p->entry;
    const char *type = p->type, *region = p->region;
    const char *reason = NULL;
    double newp =
        ecf_pricing_table_get(o->ondemand, region, type, &reason);
    cJSON *oldv;
    double oldp, ratio;

    if (!entry) {
        if (newp > 0 && new_price_ok(rep, medians, inst, type,
                                     region, newp, o->force)) {
            entry = cJSON_CreateObject();
            set_number(entry, "ondemand_usd_per_hour", newp);
            set_null(entry, "reserved_1y_usd_per_hour");
            set_null(entry, "spot_usd_per_hour");
            set_bool(entry, "spot_estimated", false);
            set_null(entry, "spot_savings_pct");
            set_null(entry, "interruption_band");
            cJSON_AddItemToObject(prices, region, entry);
            rep->ondemand_added++;
        }
        return;
    }
    if (newp <= 0 && reason) {
        rep->ondemand_kept++;
        note(rep, "%s %s: kept the old on-demand price: %s", type,
             region, reason);
        return;
    }
    if (newp <= 0) {
        /* No longer priced: the region goes (coverage is checked
         * by the caller of this function). */
        cJSON_DeleteItemFromObjectCaseSensitive(prices, region);
        rep->ondemand_removed++;
        note(rep, "%s %s: no longer priced by the Pricing API; "
                  "removed", type, region);
        return;
    }
    oldv = cJSON_GetObjectItemCaseSensitive(entry,
                                            "ondemand_usd_per_hour");
    oldp = cJSON_IsNumber(oldv) ? oldv->valuedouble : 0;
    if (oldp <= 0) {
        if (!new_price_ok(rep, medians, inst, type, region, newp,
                          o->force)) {
            rep->ondemand_kept++;
            return;
        }
        set_number(entry, "ondemand_usd_per_hour", newp);
        rep->ondemand_updated++;
        return;
    }
    ratio = newp > oldp ? newp / oldp : oldp / newp;
    if (ratio > ECF_PRICING_MAX_MOVE) {
        if (o->force) {
            note(rep, "%s %s: on-demand price moved %.1fx (%g -> %g); "
                      "accepted because of --force",
                 type, region, ratio, oldp, newp);
            set_number(entry, "ondemand_usd_per_hour", newp);
            rep->ondemand_updated++;
        } else {
            note(rep, "%s %s: on-demand price moved %.1fx (%g -> %g); "
                      "kept %g (use --force to accept)",
                 type, region, ratio, oldp, newp, oldp);
            rep->ondemand_kept++;
        }
        return;
    }
    if (newp != oldp) {
        set_number(entry, "ondemand_usd_per_hour", newp);
        rep->ondemand_updated++;
    } else {
        rep->ondemand_unchanged++;
    }
}

/* The 1-year reserved rate from the same GetProducts pages, where the
 * entry has an on-demand price and the reservation is cheaper than it (a
 * rate at or above on-demand is a bad term, not a discount). */
static void reserved_pair(const price_pair *p, ecf_pricing_report *rep,
                          const ecf_pricing_merge_opts *o, const void *ctx)
{
    cJSON *entry = p->entry;
    const char *type = p->type, *region = p->region;
    (void)ctx;
    cJSON *od = cJSON_GetObjectItemCaseSensitive(
        entry, "ondemand_usd_per_hour");
    cJSON *old = cJSON_GetObjectItemCaseSensitive(
        entry, "reserved_1y_usd_per_hour");
    cJSON *old_cb = cJSON_GetObjectItemCaseSensitive(
        entry, "capacity_block_usd_per_hour");
    double v = ecf_pricing_table_get_reserved(o->ondemand,
                                              region, type);
    double cb = ecf_pricing_table_get_capacity_block(
        o->ondemand, region, type);
    /* a Capacity Block rate: its own field, never the on-demand
     * price (docs/update.md) */
    if (entry && cb > 0 && cJSON_IsNumber(od) &&
        !(cJSON_IsNumber(old_cb) && old_cb->valuedouble == cb)) {
        set_number(entry, "capacity_block_usd_per_hour", cb);
        rep->capacity_block_updated++;
    }
    if (!entry || v <= 0 || !cJSON_IsNumber(od))
        return;
    if (!commitment_ok(rep, type, region, "1-year reserved",
                       v, od->valuedouble, true))
        return;
    if (cJSON_IsNumber(old) && old->valuedouble == v)
        return;
    set_number(entry, "reserved_1y_usd_per_hour", v);
    rep->reserved_updated++;
}

#define SP1 "savings_plan_1y_usd_per_hour"
#define SP3 "savings_plan_3y_usd_per_hour"

/* Published Savings Plan rates (DescribeSavingsPlansOfferingRates) where
 * the entry has an on-demand price: each must be below it, and the 3-year
 * rate may not exceed the 1-year one (fetched, or kept when the listing
 * has no 1-year rate). A dropped rate leaves the catalog's value, which
 * kept_pair then judges. */
static void savings_plan_pair(const price_pair *p, ecf_pricing_report *rep,
                              const ecf_pricing_merge_opts *o,
                              const void *ctx)
{
    cJSON *entry = p->entry;
    const char *type = p->type, *region = p->region;
    (void)ctx;
    double od = num_or(entry, "ondemand_usd_per_hour", -1);
    double v1 = ecf_sp_table_get(o->savings_plans, region, type, 1);
    double v3 = ecf_sp_table_get(o->savings_plans, region, type, 3);
    double cur1;
    bool changed = false;
    if (!entry || !(od > 0))
        return;
    if (v1 > 0 && commitment_ok(rep, type, region,
                                "1-year Savings Plan", v1, od,
                                true) &&
        num_or(entry, SP1, -1) != v1) {
        set_number(entry, SP1, v1);
        changed = true;
    }
    cur1 = num_or(entry, SP1, -1);
    if (v3 > 0 &&
        commitment_ok(rep, type, region, "3-year Savings Plan", v3,
                      od, true) &&
        (cur1 <= 0 || sp_terms_ok(rep, type, region, v3, cur1,
                                  true)) &&
        num_or(entry, SP3, -1) != v3) {
        set_number(entry, SP3, v3);
        changed = true;
    }
    if (changed)
        rep->savings_plan_updated++;
}

/* After the merge, in the refreshed regions, the rates the refresh did
 * not bring (kept from the catalog) against a freshly fetched on-demand
 * price: a kept reserved, Savings Plan or absolute spot rate at or above
 * it, or a kept 3-year Savings Plan above a fetched 1-year one, is
 * dropped with its note. A kept rate equal to the fetched one that was
 * just dropped has had its note. */
static void kept_pair(const price_pair *p, ecf_pricing_report *rep,
                      const ecf_pricing_merge_opts *o, const void *ctx)
{
    cJSON *entry = p->entry;
    const char *type = p->type, *region = p->region;
    (void)ctx;
    double od = num_or(entry, "ondemand_usd_per_hour", -1);
    double ri = num_or(entry, "reserved_1y_usd_per_hour", -1);
    double s1 = num_or(entry, SP1, -1), s3 = num_or(entry, SP3, -1);
    double spot = num_or(entry, "spot_usd_per_hour", -1);
    double f_ri = ecf_pricing_table_get_reserved(o->ondemand, region,
                                                 type);
    double f1 = ecf_sp_table_get(o->savings_plans, region, type, 1);
    double f3 = ecf_sp_table_get(o->savings_plans, region, type, 3);
    if (!entry || !(od > 0) ||
        ecf_pricing_table_get(o->ondemand, region, type, NULL) != od)
        return; /* the on-demand price is not a fetched one */
    if (ri > 0 && ri != f_ri &&
        !commitment_ok(rep, type, region, "1-year reserved", ri, od,
                       false))
        set_null(entry, "reserved_1y_usd_per_hour");
    else if (ri > 0 && ri == f_ri && ri >= od)
        set_null(entry, "reserved_1y_usd_per_hour");
    if (s1 > 0 && (s1 == f1 ? s1 >= od
                            : !commitment_ok(rep, type, region,
                                             "1-year Savings Plan",
                                             s1, od, false))) {
        cJSON_DeleteItemFromObjectCaseSensitive(entry, SP1);
        s1 = -1;
    }
    if (s3 > 0 && (s3 == f3 ? s3 >= od
                            : !commitment_ok(rep, type, region,
                                             "3-year Savings Plan",
                                             s3, od, false))) {
        cJSON_DeleteItemFromObjectCaseSensitive(entry, SP3);
        s3 = -1;
    }
    if (s3 > 0 && s3 != f3 && s1 > 0 && s1 == f1 &&
        !sp_terms_ok(rep, type, region, s3, s1, false))
        cJSON_DeleteItemFromObjectCaseSensitive(entry, SP3);
    /* spot from savings was re-estimated below on-demand; an
     * absolute spot price without savings was not */
    if (spot > 0 && !has_spot(entry) &&
        !commitment_ok(rep, type, region, "spot", spot, od, false))
        set_null(entry, "spot_usd_per_hour");
}

static void merge_spot(cJSON *instances, ecf_pricing_report *rep,
                       const ecf_pricing_merge_opts *o)
{
    cJSON *inst, *entry;

    cJSON_ArrayForEach(inst, instances)
    {
        const char *type = get_str(inst, "type");
        cJSON *prices = cJSON_GetObjectItemCaseSensitive(inst, "prices");
        if (!type || !cJSON_IsObject(prices))
            continue;
        cJSON_ArrayForEach(entry, prices)
        {
            int s, band;
            if (!entry->string ||
                !wanted(entry->string, o->regions, o->n_regions))
                continue;
            if (ecf_spot_table_get(o->spot, entry->string, type, &s, &band)) {
                char msg[512];
                pricing_verdict v = ecf_pricing_check_spot(
                    msg, sizeof(msg), entry, type, entry->string, s,
                    o->force);
                if (v != PRICING_OK)
                    note_value(rep, "%s", msg);
                if (v == PRICING_REJECTED) {
                    if (s < ECF_SPOT_SAVINGS_MIN || s > ECF_SPOT_SAVINGS_MAX)
                        rep->spot_rejected++;
                    else
                        rep->spot_kept++;
                    continue;
                }
                if (v == PRICING_FORCED)
                    rep->spot_forced++;
                set_number(entry, "spot_savings_pct", s);
                set_number(entry, "interruption_band", band);
                set_bool(entry, "spot_estimated", true);
                rep->spot_updated++;
            } else if (has_spot(entry)) {
                set_null(entry, "spot_savings_pct");
                set_null(entry, "interruption_band");
                set_null(entry, "spot_usd_per_hour");
                set_bool(entry, "spot_estimated", false);
                rep->spot_removed++;
            }
        }
    }
}

/* spot = on-demand * (1 - savings/100), wherever savings are known in the
 * refreshed regions, so a new on-demand price carries over to spot. */
static void reestimate_spot(cJSON *instances, const ecf_pricing_merge_opts *o)
{
    cJSON *inst, *entry;
    cJSON_ArrayForEach(inst, instances)
    {
        cJSON_ArrayForEach(entry,
                           cJSON_GetObjectItemCaseSensitive(inst, "prices"))
        {
            const cJSON *od, *s;
            if (!entry->string ||
                !wanted(entry->string, o->regions, o->n_regions))
                continue;
            od = cJSON_GetObjectItemCaseSensitive(entry,
                                                  "ondemand_usd_per_hour");
            s = cJSON_GetObjectItemCaseSensitive(entry, "spot_savings_pct");
            if (!cJSON_IsNumber(od) || !cJSON_IsNumber(s))
                continue;
            set_number(entry, "spot_usd_per_hour",
                       round6(od->valuedouble *
                              (1.0 - s->valuedouble / 100.0)));
            set_bool(entry, "spot_estimated", true);
        }
    }
}

static void upsert_source(cJSON *sources, const char *id, const char *file,
                          const char *origin, const char *as_of)
{
    cJSON *src, *found = NULL;
    cJSON_ArrayForEach(src, sources)
    {
        const char *sid = get_str(src, "id");
        if (sid && strcmp(sid, id) == 0)
            found = src;
    }
    if (!found) {
        found = cJSON_CreateObject();
        cJSON_AddStringToObject(found, "id", id);
        cJSON_AddItemToArray(sources, found);
    }
    cJSON_DeleteItemFromObjectCaseSensitive(found, "file");
    cJSON_DeleteItemFromObjectCaseSensitive(found, "origin");
    cJSON_DeleteItemFromObjectCaseSensitive(found, "as_of");
    cJSON_AddStringToObject(found, "file", file);
    cJSON_AddStringToObject(found, "origin", origin);
    cJSON_AddStringToObject(found, "as_of", as_of);
}

static void count_not_in_catalog(ecf_pricing_report *rep,
                                 const cJSON *instances,
                                 const ecf_pricing_table *t)
{
    const char **types;
    const cJSON *inst;
    size_t n = 0, i;

    types = ecf_xcalloc((size_t)cJSON_GetArraySize(instances) + 1,
                        sizeof(char *));
    cJSON_ArrayForEach(inst, instances)
    {
        const char *type = get_str(inst, "type");
        if (type)
            types[n++] = type;
    }
    qsort(types, n, sizeof(char *), cmp_str);
    for (i = 0; i < t->n; i++) {
        const char *key = t->v[i].type;
        if (!t->v[i].reason[0] &&
            !bsearch(&key, types, n, sizeof(char *), cmp_str))
            rep->ondemand_not_in_catalog++;
    }
    free(types);
}

int ecf_pricing_merge(char **json_out, ecf_pricing_report *report,
                      const char *catalog, size_t len,
                      const ecf_pricing_merge_opts *o, ecf_err *err)
{
    cJSON *root = NULL, *instances, *sources, *src, *v;
    const char *end = NULL, *newest = NULL;
    char *text = NULL;
    int rc = 0;

    *json_out = NULL;
    memset(report, 0, sizeof(*report));
    root = cJSON_ParseWithLengthOpts(catalog, len, &end, 0);
    if (!root) {
        rc = ecf_err_set(err, ECF_EPARSE, "catalog: invalid JSON at byte offset %zu",
                         end ? (size_t)(end - catalog) : (size_t)0);
        goto out;
    }
    instances = cJSON_GetObjectItemCaseSensitive(root, "instances");
    sources = cJSON_GetObjectItemCaseSensitive(root, "sources");
    if (!cJSON_IsObject(root) || !cJSON_IsArray(instances) ||
        !cJSON_IsArray(sources)) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "catalog: expected an object with \"instances\" and "
                         "\"sources\" arrays");
        goto out;
    }

    report->coverage_before = count_pairs(instances, o, false);
    report->spot_coverage_before = count_pairs(instances, o, true);
    if (o->ondemand) {
        pricing_medians *m = ecf_pricing_medians_new(instances);
        each_pair(instances, report, o, ondemand_pair, m);
        each_pair(instances, report, o, reserved_pair, NULL);
        ecf_pricing_medians_free(m);
        count_not_in_catalog(report, instances, o->ondemand);
    }
    if (o->savings_plans)
        each_pair(instances, report, o, savings_plan_pair, NULL);
    if (o->spot)
        merge_spot(instances, report, o);
    reestimate_spot(instances, o);
    if (o->ondemand)
        each_pair(instances, report, o, kept_pair, NULL);
    report->coverage_after = count_pairs(instances, o, false);
    report->spot_coverage_after = count_pairs(instances, o, true);

    if (!o->force && report->coverage_after < report->coverage_before) {
        rc = ecf_err_set(err, ECF_ERR,
                         "on-demand prices: coverage would shrink from %zu to "
                         "%zu (type, region) pairs; use --force to accept",
                         report->coverage_before, report->coverage_after);
        goto out;
    }
    if (!o->force &&
        report->spot_coverage_after < report->spot_coverage_before) {
        rc = ecf_err_set(err, ECF_ERR,
                         "spot advisor: coverage would shrink from %zu to %zu "
                         "(type, region) pairs; use --force to accept",
                         report->spot_coverage_before,
                         report->spot_coverage_after);
        goto out;
    }

    if (o->ondemand)
        upsert_source(sources, "pricing_api", "GetProducts",
                      o->ondemand_origin ? o->ondemand_origin
                                         : "AWS Price List Query API",
                      o->ondemand_as_of);
    if (o->savings_plans)
        upsert_source(sources, "savings_plans_api",
                      "DescribeSavingsPlansOfferingRates",
                      o->sp_origin ? o->sp_origin : "AWS Savings Plans API",
                      o->sp_as_of);
    if (o->spot)
        upsert_source(sources, "spot_advisor", "spot-advisor-data.json",
                      o->spot_origin ? o->spot_origin : ECF_SPOT_ADVISOR_URL,
                      o->spot_as_of);
    /* as_of is the newest source date (catalog.h). */
    cJSON_ArrayForEach(src, sources)
    {
        const char *d = get_str(src, "as_of");
        if (d && (!newest || strcmp(d, newest) > 0))
            newest = d;
    }
    if (newest) {
        v = cJSON_CreateString(newest);
        cJSON_ReplaceItemInObjectCaseSensitive(root, "as_of", v);
    }
    if (o->generated_at) {
        v = cJSON_CreateString(o->generated_at);
        if (cJSON_GetObjectItemCaseSensitive(root, "generated_at"))
            cJSON_ReplaceItemInObjectCaseSensitive(root, "generated_at", v);
        else
            cJSON_AddItemToObject(root, "generated_at", v);
    }
    text = cJSON_Print(root);
    if (!text) {
        fputs("ec2fit: out of memory\n", stderr);
        abort();
    }
    *json_out = ecf_xstrdup(text);
    cJSON_free(text);
out:
    cJSON_Delete(root);
    return rc;
}
