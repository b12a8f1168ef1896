/*
 * pricing.c - parsing the two price sources (the merge into a catalog
 * document is pricing_merge.c).
 *
 * Sources (docs/update.md):
 *  - Pricing API GetProducts (JSON 1.1). Quirk: every PriceList element is
 *    itself a JSON document serialised into a string, so each element is
 *    parsed twice; prices are decimal strings ("21.9576420000").
 *  - Spot Advisor feed: savings in percent and an interruption band per
 *    region, OS and type; no absolute spot prices, so spot prices are
 *    estimated as on-demand * (1 - savings / 100) and marked
 *    spot_estimated.
 *
 * The merge treats a refreshed source as authoritative for the regions it
 * covered, but guards against a bad refresh: a price moving more than 5x
 * keeps the old value unless forced, and a refresh that covers fewer
 * (type, region) pairs than the catalog did is refused unless forced.
 * cJSON never leaves these files (style rule 4): the merge is text to text.
 */
#include "ec2fit/pricing.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pricing_internal.h"

/* ===================================================================== */
/* on-demand table                                                        */
/* ===================================================================== */

ecf_pricing_table *ecf_pricing_table_new(void)
{
    return ecf_xcalloc(1, sizeof(ecf_pricing_table));
}

void ecf_pricing_table_free(ecf_pricing_table *t)
{
    size_t i;
    if (!t)
        return;
    for (i = 0; i < t->n; i++) {
        free(t->v[i].region);
        free(t->v[i].type);
        free(t->v[i].sku);
    }
    for (i = 0; i < t->n_cb; i++) {
        free(t->cb[i].region);
        free(t->cb[i].type);
        free(t->cb[i].sku);
    }
    free(t->v);
    free(t->cb);
    free(t);
}

/* A new zeroed entry at the end of an array (the on-demand rows or the
 * Capacity Block rows), owning copies of its names. */
static od_entry *entry_push(od_entry **v, size_t *n, size_t *cap,
                            size_t first_cap, const char *region,
                            const char *type, const char *sku)
{
    od_entry *e;
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : first_cap;
        *v = ecf_xrealloc(*v, *cap * sizeof(**v));
    }
    e = &(*v)[(*n)++];
    memset(e, 0, sizeof(*e));
    e->region = ecf_xstrdup(region);
    e->type = ecf_xstrdup(type);
    e->sku = ecf_xstrdup(sku ? sku : "?");
    return e;
}

static od_entry *od_push(ecf_pricing_table *t, const char *region,
                         const char *type, const char *sku)
{
    t->finished = false;
    return entry_push(&t->v, &t->n, &t->cap, 256, region, type, sku);
}

static int od_cmp(const void *a, const void *b)
{
    const od_entry *x = a, *y = b;
    int c = strcmp(x->region, y->region);
    if (c)
        return c;
    c = strcmp(x->type, y->type);
    if (c)
        return c;
    return strcmp(x->sku, y->sku);
}

void ecf_pricing_table_finish(ecf_pricing_table *t)
{
    size_t i, j, w = 0;
    if (t->finished)
        return;
    /* An empty page leaves v NULL, and qsort(NULL, 0) is undefined
     * (found by fuzz/fuzz_pricing). */
    if (t->n)
        qsort(t->v, t->n, sizeof(*t->v), od_cmp);
    for (i = 0; i < t->n; i = j) {
        size_t first_ok = (size_t)-1;
        bool ambiguous = false;
        for (j = i; j < t->n && strcmp(t->v[j].region, t->v[i].region) == 0 &&
                    strcmp(t->v[j].type, t->v[i].type) == 0;
             j++) {
            if (t->v[j].reason[0])
                continue;
            if (first_ok == (size_t)-1)
                first_ok = j;
            else if (t->v[j].usd != t->v[first_ok].usd && !ambiguous) {
                ambiguous = true;
                snprintf(t->v[i].reason, sizeof(t->v[i].reason),
                         "ambiguous: SKU %.24s says %g, SKU %.24s says %g",
                         t->v[first_ok].sku, t->v[first_ok].usd,
                         t->v[j].sku, t->v[j].usd);
            }
        }
        /* Keep one entry per pair: the accepted one, or the first
         * rejection (whose reason explains it). */
        {
            size_t keep = i;
            if (ambiguous) {
                t->v[i].usd = -1;
            } else if (first_ok != (size_t)-1) {
                keep = first_ok;
            }
            if (keep != i) {
                od_entry tmp = t->v[i];
                t->v[i] = t->v[keep];
                t->v[keep] = tmp;
            }
        }
        for (size_t k = i + 1; k < j; k++) {
            free(t->v[k].region);
            free(t->v[k].type);
            free(t->v[k].sku);
        }
        if (w != i)
            t->v[w] = t->v[i];
        w++;
    }
    t->n = w;
    t->finished = true;
}

size_t ecf_pricing_table_count(const ecf_pricing_table *t)
{
    size_t i, n = 0;
    for (i = 0; i < t->n; i++)
        if (!t->v[i].reason[0])
            n++;
    return n;
}

static int od_key_cmp(const void *key, const void *elem)
{
    const char *const *k = key;
    const od_entry *e = elem;
    int c = strcmp(k[0], e->region);
    return c ? c : strcmp(k[1], e->type);
}

double ecf_pricing_table_get(const ecf_pricing_table *t, const char *region,
                             const char *type, const char **reason_out)
{
    const char *key[2] = {region, type};
    const od_entry *e;
    if (reason_out)
        *reason_out = NULL;
    if (!t->finished || t->n == 0) /* bsearch(NULL, 0) is undefined */
        return -1;
    e = bsearch(key, t->v, t->n, sizeof(*t->v), od_key_cmp);
    if (!e)
        return -1;
    if (e->reason[0]) {
        if (reason_out)
            *reason_out = e->reason;
        return -1;
    }
    return e->usd;
}

double ecf_pricing_table_get_capacity_block(const ecf_pricing_table *t,
                                            const char *region,
                                            const char *type)
{
    double v = -1;
    size_t i;
    for (i = 0; i < t->n_cb; i++) {
        const od_entry *e = &t->cb[i];
        if (strcmp(e->region, region) != 0 || strcmp(e->type, type) != 0)
            continue;
        if (v > 0 && e->usd != v)
            return -1; /* two products disagree: neither is taken */
        v = e->usd;
    }
    return v;
}

double ecf_pricing_table_get_reserved(const ecf_pricing_table *t,
                                      const char *region, const char *type)
{
    const char *key[2] = {region, type};
    const od_entry *e;
    if (!t->finished || t->n == 0)
        return -1;
    e = bsearch(key, t->v, t->n, sizeof(*t->v), od_key_cmp);
    return e && !e->reason[0] && e->reserved_1y_usd > 0 ? e->reserved_1y_usd
                                                         : -1;
}

/* ===================================================================== */
/* GetProducts                                                            */
/* ===================================================================== */

static void add_filter(cJSON *arr, const char *field, const char *value)
{
    cJSON *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "Type", "TERM_MATCH");
    cJSON_AddStringToObject(f, "Field", field);
    cJSON_AddStringToObject(f, "Value", value);
    cJSON_AddItemToArray(arr, f);
}

void ecf_pricing_products_request(ecf_buf *out, const char *region,
                                  const char *next_token)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *filters;
    char *text;

    cJSON_AddStringToObject(root, "ServiceCode", "AmazonEC2");
    cJSON_AddStringToObject(root, "FormatVersion", "aws_v1");
    cJSON_AddNumberToObject(root, "MaxResults", 100);
    filters = cJSON_AddArrayToObject(root, "Filters");
    add_filter(filters, "regionCode", region);
    add_filter(filters, "operatingSystem", "Linux");
    add_filter(filters, "tenancy", "Shared");
    add_filter(filters, "preInstalledSw", "NA");
    add_filter(filters, "capacitystatus", "Used");
    add_filter(filters, "licenseModel", "No License required");
    if (next_token && *next_token)
        cJSON_AddStringToObject(root, "NextToken", next_token);
    text = cJSON_PrintUnformatted(root);
    if (!text) {
        fputs("ec2fit: out of memory\n", stderr);
        abort();
    }
    ecf_buf_clear(out);
    ecf_buf_puts(out, text);
    cJSON_free(text);
    cJSON_Delete(root);
}

/* A price dimension billed per hour in USD: true with its rate in *v. */
static bool dim_hourly_usd(const cJSON *dim, double *v)
{
    const char *unit = get_str(dim, "unit");
    const char *usd =
        get_str(cJSON_GetObjectItemCaseSensitive(dim, "pricePerUnit"), "USD");
    return unit && strcmp(unit, "Hrs") == 0 && usd && parse_decimal(v, usd) == 0;
}

/* The hourly rate of the 1-year Standard, No Upfront reservation among a
 * product's Reserved terms (the catalog's reserved_1y_usd_per_hour), or
 * -1. A No Upfront term has one "Hrs" dimension and no upfront fee. */
static double reserved_1y(const cJSON *reserved)
{
    const cJSON *term, *dim;
    double best = -1;
    cJSON_ArrayForEach(term, reserved)
    {
        const cJSON *ta =
            cJSON_GetObjectItemCaseSensitive(term, "termAttributes");
        const char *len = get_str(ta, "LeaseContractLength");
        const char *cls = get_str(ta, "OfferingClass");
        const char *opt = get_str(ta, "PurchaseOption");
        if (!len || !cls || !opt || strcmp(len, "1yr") != 0 ||
            strcmp(cls, "standard") != 0 || strcmp(opt, "No Upfront") != 0)
            continue;
        cJSON_ArrayForEach(
            dim, cJSON_GetObjectItemCaseSensitive(term, "priceDimensions"))
        {
            double v;
            if (dim_hourly_usd(dim, &v) && v > 0)
                best = v;
        }
    }
    return best;
}

/* A Capacity Blocks for ML product: its one hourly USD rate, kept in
 * t->cb (never with the on-demand prices); a product without exactly one
 * positive rate is skipped. */
static void capacity_block_product(ecf_pricing_table *t, const char *region,
                                   const char *type, const char *sku,
                                   const cJSON *doc, size_t *skipped)
{
    const cJSON *term, *dim;
    double rate = -1;
    int n = 0;
    od_entry *e;
    cJSON_ArrayForEach(term, cJSON_GetObjectItemCaseSensitive(
                                 cJSON_GetObjectItemCaseSensitive(doc, "terms"),
                                 "OnDemand"))
    {
        cJSON_ArrayForEach(
            dim, cJSON_GetObjectItemCaseSensitive(term, "priceDimensions"))
        {
            double v;
            if (dim_hourly_usd(dim, &v)) {
                rate = v;
                n++;
            }
        }
    }
    if (n != 1 || !(rate > 0)) {
        (*skipped)++;
        return;
    }
    e = entry_push(&t->cb, &t->n_cb, &t->cap_cb, 16, region, type, sku);
    e->usd = rate;
}

/* One PriceList element (already parsed). Returns <0 on a malformed
 * element, 0 otherwise (accepted, rejected or skipped). */
static int parse_product(ecf_pricing_table *t, const char *region,
                         const cJSON *doc, size_t idx, size_t *skipped,
                         ecf_err *err)
{
    const cJSON *product, *attrs, *ondemand, *term, *dims, *dim;
    const char *type, *rcode, *sku;
    double price = -1;
    bool several = false;
    size_t n_prices = 0;
    od_entry *e;

    product = cJSON_GetObjectItemCaseSensitive(doc, "product");
    attrs = cJSON_GetObjectItemCaseSensitive(product, "attributes");
    if (!cJSON_IsObject(product) || !cJSON_IsObject(attrs))
        return ecf_err_set(err, ECF_EPARSE,
                           "PriceList[%zu]: missing product.attributes", idx);
    type = get_str(attrs, "instanceType");
    if (!type || !*type) {
        (*skipped)++;
        return 0;
    }
    rcode = get_str(attrs, "regionCode");
    if (rcode && strcmp(rcode, region) != 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "PriceList[%zu]: %s is priced for region %s, not "
                           "%s",
                           idx, type, rcode, region);
    sku = get_str(product, "sku");
    /* the Price List lists Capacity Blocks for ML as products of their
     * own (vantage-sh/ec2instances.info 07a565ec skips them): their rate
     * is a reservation fee, not the on-demand price */
    {
        const char *market = get_str(attrs, "marketoption");
        if (market && strcmp(market, "CapacityBlock") == 0) {
            capacity_block_product(t, region, type, sku, doc, skipped);
            return 0;
        }
    }
    e = od_push(t, region, type, sku);

    ondemand = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "terms"), "OnDemand");
    if (!cJSON_IsObject(ondemand))
        ondemand = NULL;
    cJSON_ArrayForEach(term, ondemand)
    {
        dims = cJSON_GetObjectItemCaseSensitive(term, "priceDimensions");
        if (!cJSON_IsObject(dims))
            continue;
        cJSON_ArrayForEach(dim, dims)
        {
            const char *unit = get_str(dim, "unit");
            const char *usd = get_str(
                cJSON_GetObjectItemCaseSensitive(dim, "pricePerUnit"), "USD");
            double v;
            if (!unit || strcmp(unit, "Hrs") != 0 || !usd)
                continue;
            if (parse_decimal(&v, usd) < 0) {
                snprintf(e->reason, sizeof(e->reason), "invalid price");
                return ecf_err_set(err, ECF_EPARSE,
                                   "PriceList[%zu]: %s: price \"%.40s\" is "
                                   "not a decimal number",
                                   idx, type, usd);
            }
            if (n_prices > 0 && v != price)
                several = true;
            price = v;
            n_prices++;
        }
    }
    e->reserved_1y_usd = reserved_1y(
        cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(doc, "terms"), "Reserved"));
    if (n_prices == 0)
        snprintf(e->reason, sizeof(e->reason),
                 "SKU %.40s has no hourly USD on-demand price", e->sku);
    else if (several)
        snprintf(e->reason, sizeof(e->reason),
                 "SKU %.40s has several different hourly prices", e->sku);
    else if (price <= 0)
        snprintf(e->reason, sizeof(e->reason), "SKU %.40s is priced at zero",
                 e->sku);
    else
        e->usd = price;
    return 0;
}

int ecf_pricing_parse_reply(cJSON **root_out, const char *data, size_t len,
                            ecf_err *err)
{
    const char *end = NULL;
    *root_out = cJSON_ParseWithLengthOpts(data, len, &end, 0);
    if (!*root_out)
        return ecf_err_set(err, ECF_EPARSE, "invalid JSON at byte offset %zu",
                           end ? (size_t)(end - data) : (size_t)0);
    return 0;
}

const cJSON *ecf_pricing_reply_list(const cJSON *root, const char *key,
                                    ecf_err *err)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!cJSON_IsObject(root) || !cJSON_IsArray(list)) {
        ecf_err_set(err, ECF_EPARSE, "reply has no %s array", key);
        return NULL;
    }
    return list;
}

int ecf_pricing_parse_products(char **next_token_out, ecf_pricing_table *t,
                               const char *region, const char *data,
                               size_t len, ecf_err *err)
{
    cJSON *root = NULL, *inner = NULL;
    const cJSON *list, *it, *tok;
    size_t idx = 0, skipped = 0;
    int rc = 0;

    *next_token_out = NULL;
    rc = ecf_pricing_parse_reply(&root, data, len, err);
    if (rc < 0)
        goto out;
    list = ecf_pricing_reply_list(root, "PriceList", err);
    if (!list) {
        rc = ECF_EPARSE;
        goto out;
    }
    cJSON_ArrayForEach(it, list)
    {
        const char *iend = NULL;
        if (!cJSON_IsString(it) || !it->valuestring) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "PriceList[%zu]: expected a JSON string", idx);
            goto out;
        }
        inner = cJSON_ParseWithLengthOpts(it->valuestring,
                                          strlen(it->valuestring), &iend, 0);
        if (!inner || !cJSON_IsObject(inner)) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "PriceList[%zu]: invalid JSON at byte offset %zu", idx,
                             iend ? (size_t)(iend - it->valuestring)
                                  : (size_t)0);
            goto out;
        }
        rc = parse_product(t, region, inner, idx, &skipped, err);
        cJSON_Delete(inner);
        inner = NULL;
        if (rc < 0)
            goto out;
        idx++;
    }
    tok = cJSON_GetObjectItemCaseSensitive(root, "NextToken");
    if (tok && !cJSON_IsNull(tok) && !cJSON_IsString(tok)) {
        rc = ecf_err_set(err, ECF_EPARSE, "NextToken: expected a string");
        goto out;
    }
    if (cJSON_IsString(tok) && tok->valuestring && *tok->valuestring)
        *next_token_out = ecf_xstrdup(tok->valuestring);
out:
    cJSON_Delete(inner);
    cJSON_Delete(root);
    return rc;
}

char *ecf_pricing_error_message(const char *data, size_t len)
{
    cJSON *root;
    const char *m;
    char *out = NULL;
    size_t i, n;

    if (!data || len == 0)
        return NULL;
    root = cJSON_ParseWithLengthOpts(data, len, NULL, 0);
    if (!root)
        return NULL;
    m = get_str(root, "message");
    if (!m)
        m = get_str(root, "Message");
    if (m && *m) {
        n = strlen(m);
        if (n > 200)
            n = 200;
        out = ecf_xmalloc(n + 1);
        for (i = 0; i < n; i++)
            out[i] = ((unsigned char)m[i] < ' ' || m[i] == 0x7f) ? ' ' : m[i];
        out[n] = '\0';
    }
    cJSON_Delete(root);
    return out;
}

/* ===================================================================== */
/* Spot Advisor                                                           */
/* ===================================================================== */

void ecf_spot_table_free(ecf_spot_table *t)
{
    size_t i;
    if (!t)
        return;
    for (i = 0; i < t->n; i++) {
        free(t->v[i].region);
        free(t->v[i].type);
    }
    free(t->v);
    free(t);
}

static int spot_cmp(const void *a, const void *b)
{
    const spot_entry *x = a, *y = b;
    int c = strcmp(x->region, y->region);
    return c ? c : strcmp(x->type, y->type);
}

static bool as_int(const cJSON *v, int min, int max, int *out)
{
    double d;
    if (!cJSON_IsNumber(v))
        return false;
    d = v->valuedouble;
    if (!isfinite(d) || d != floor(d) || d < min || d > max)
        return false;
    *out = (int)d;
    return true;
}

int ecf_spot_parse(ecf_spot_table **out, const char *data, size_t len,
                   const char *const *regions, size_t n_regions,
                   ecf_err *err)
{
    cJSON *root = NULL;
    const cJSON *ranges, *adv, *reg, *os, *it;
    ecf_spot_table *t = ecf_xcalloc(1, sizeof(*t));
    int max_band = 4, rc = 0;

    *out = NULL;
    rc = ecf_pricing_parse_reply(&root, data, len, err);
    if (rc < 0)
        goto out;
    ranges = cJSON_GetObjectItemCaseSensitive(root, "ranges");
    adv = cJSON_GetObjectItemCaseSensitive(root, "spot_advisor");
    if (!cJSON_IsObject(root) || !cJSON_IsObject(adv)) {
        rc = ecf_err_set(err, ECF_EPARSE, "missing \"spot_advisor\" object");
        goto out;
    }
    /* Bands index "ranges"; the catalog allows 0..4 (five buckets). */
    if (cJSON_IsArray(ranges) && cJSON_GetArraySize(ranges) > 0 &&
        cJSON_GetArraySize(ranges) < 5)
        max_band = cJSON_GetArraySize(ranges) - 1;
    cJSON_ArrayForEach(reg, adv)
    {
        if (!reg->string || !wanted(reg->string, regions, n_regions))
            continue;
        if (!cJSON_IsObject(reg)) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "spot_advisor.%s: expected an object",
                             reg->string);
            goto out;
        }
        os = cJSON_GetObjectItemCaseSensitive(reg, "Linux");
        if (!os)
            continue;
        if (!cJSON_IsObject(os)) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "spot_advisor.%s.Linux: expected an object",
                             reg->string);
            goto out;
        }
        cJSON_ArrayForEach(it, os)
        {
            int s, r;
            spot_entry *e;
            if (!cJSON_IsObject(it) ||
                !as_int(cJSON_GetObjectItemCaseSensitive(it, "s"), -1000, 99,
                        &s) ||
                !as_int(cJSON_GetObjectItemCaseSensitive(it, "r"), 0,
                        max_band, &r)) {
                rc = ecf_err_set(err, ECF_EPARSE,
                                 "spot_advisor.%s.Linux.%.64s: expected "
                                 "{\"s\": savings %% below 100, \"r\": band "
                                 "0..%d}",
                                 reg->string, it->string ? it->string : "?",
                                 max_band);
                goto out;
            }
            if (t->n == t->cap) {
                t->cap = t->cap ? t->cap * 2 : 1024;
                t->v = ecf_xrealloc(t->v, t->cap * sizeof(*t->v));
            }
            e = &t->v[t->n++];
            e->region = ecf_xstrdup(reg->string);
            e->type = ecf_xstrdup(it->string ? it->string : "");
            e->savings = s;
            e->band = r;
        }
    }
    if (t->n) /* v is NULL when nothing was kept */
        qsort(t->v, t->n, sizeof(*t->v), spot_cmp);
    *out = t;
    t = NULL;
out:
    ecf_spot_table_free(t);
    cJSON_Delete(root);
    return rc;
}

size_t ecf_spot_table_count(const ecf_spot_table *t)
{
    return t ? t->n : 0;
}

bool ecf_spot_table_get(const ecf_spot_table *t, const char *region,
                        const char *type, int *savings_pct_out, int *band_out)
{
    spot_entry key, *e;
    key.region = (char *)region;
    key.type = (char *)type;
    if (t->n == 0) /* v is NULL: bsearch(NULL, 0) is undefined */
        return false;
    e = bsearch(&key, t->v, t->n, sizeof(*t->v), spot_cmp);
    if (!e)
        return false;
    *savings_pct_out = e->savings;
    *band_out = e->band;
    return true;
}

