/*
 * pricing_sp.c - parsing the AWS Savings Plans API's
 * DescribeSavingsPlansOfferingRates pages into published no-upfront
 * Savings Plan rates per (region, instance type, term). Text in, table
 * out: the CLI does the HTTP (docs/update.md, "Savings Plans").
 *
 * Why this API and not the AWSComputeSavingsPlan bulk price list: the
 * bulk file of one region lists every plan rate of every EC2, Fargate and
 * Lambda usage type, all payment options and OSes, which is far past the
 * 64 MiB response cap; the API filters on the server (region, Linux/UNIX,
 * shared tenancy, No Upfront, EC2) and pages 1000 rates at a time, signed
 * with the same credentials as GetProducts.
 *
 * Shapes (botocore savingsplans/2019-06-28 service-2.json):
 *   {"searchResults": [{"savingsPlanOffering": {"offeringId", "paymentOption",
 *     "planType", "durationSeconds", "currency", "planDescription"},
 *     "rate": "23.77728", "unit": "Hrs", "productType": "EC2",
 *     "serviceCode": "AmazonEC2", "usageType": "BoxUsage:p5.48xlarge",
 *     "operation": "RunInstances", "properties": [{"name": "region",
 *     "value": "us-east-1"}, {"name": "instanceType", ...}, ...]}],
 *    "nextToken": "..."}
 */
#include "ec2fit/pricing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pricing_internal.h"

typedef struct {
    char *region;
    char *type;
    int years;   /* 1 or 3 */
    double usd;  /* > 0 */
} sp_entry;

struct ecf_sp_table {
    sp_entry *v;
    size_t n, cap;
    bool finished;
};

ecf_sp_table *ecf_sp_table_new(void)
{
    return ecf_xcalloc(1, sizeof(ecf_sp_table));
}

void ecf_sp_table_free(ecf_sp_table *t)
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

static void add_filter(cJSON *arr, const char *name, const char *value)
{
    cJSON *f = cJSON_CreateObject();
    cJSON *vals;
    cJSON_AddStringToObject(f, "name", name);
    vals = cJSON_AddArrayToObject(f, "values");
    cJSON_AddItemToArray(vals, cJSON_CreateString(value));
    cJSON_AddItemToArray(arr, f);
}

static void add_list(cJSON *root, const char *key, const char *a,
                     const char *b)
{
    cJSON *arr = cJSON_AddArrayToObject(root, key);
    cJSON_AddItemToArray(arr, cJSON_CreateString(a));
    if (b)
        cJSON_AddItemToArray(arr, cJSON_CreateString(b));
}

void ecf_sp_rates_request(ecf_buf *out, const char *region,
                          const char *next_token)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *filters;
    char *text;

    add_list(root, "products", "EC2", NULL);
    add_list(root, "serviceCodes", "AmazonEC2", NULL);
    add_list(root, "savingsPlanTypes", "Compute", "EC2Instance");
    add_list(root, "savingsPlanPaymentOptions", "No Upfront", NULL);
    filters = cJSON_AddArrayToObject(root, "filters");
    add_filter(filters, "region", region);
    add_filter(filters, "tenancy", "shared");
    add_filter(filters, "productDescription", "Linux/UNIX");
    cJSON_AddNumberToObject(root, "maxResults", 1000);
    if (next_token && *next_token)
        cJSON_AddStringToObject(root, "nextToken", next_token);
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

static bool str_is(const char *s, const char *want)
{
    return s && strcmp(s, want) == 0;
}

/* The value of properties[].name == `name`, or NULL. */
static const char *property(const cJSON *props, const char *name)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, props)
    {
        if (str_is(get_str(p, "name"), name))
            return get_str(p, "value");
    }
    return NULL;
}

/* "BoxUsage:TYPE", with or without a region prefix ("USW2-"): a running
 * instance's hours, not an unused reservation's or a dedicated host's. */
static bool box_usage(const char *usage, const char *type)
{
    const char *p;
    if (!usage) /* not listed: the filters already chose the product */
        return true;
    p = strstr(usage, "BoxUsage:");
    return p && strcmp(p + strlen("BoxUsage:"), type) == 0;
}

/* One search result. Returns <0 on a malformed one, 0 otherwise (kept or
 * skipped). */
static int parse_rate(ecf_sp_table *t, const char *region, const cJSON *it,
                      size_t idx, ecf_err *err)
{
    const cJSON *off, *props, *dur;
    const char *rate, *type, *rcode, *plan;
    double usd, secs;
    int years;
    sp_entry *e;

    if (!cJSON_IsObject(it))
        return ecf_err_set(err, ECF_EPARSE,
                           "searchResults[%zu]: expected an object", idx);
    off = cJSON_GetObjectItemCaseSensitive(it, "savingsPlanOffering");
    props = cJSON_GetObjectItemCaseSensitive(it, "properties");
    rate = get_str(it, "rate");
    if (!cJSON_IsObject(off) || !cJSON_IsArray(props) || !rate)
        return ecf_err_set(err, ECF_EPARSE,
                           "searchResults[%zu]: expected \"savingsPlanOffering\", "
                           "\"rate\" and \"properties\"",
                           idx);
    type = property(props, "instanceType");
    if (!type || !*type)
        return 0; /* not an instance rate */
    rcode = property(props, "region");
    if (rcode && strcmp(rcode, region) != 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "searchResults[%zu]: %s is priced for region %s, "
                           "not %s",
                           idx, type, rcode, region);
    if (parse_decimal(&usd, rate) < 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "searchResults[%zu]: %s: rate \"%.40s\" is not a "
                           "decimal number",
                           idx, type, rate);
    plan = get_str(off, "planType");
    dur = cJSON_GetObjectItemCaseSensitive(off, "durationSeconds");
    secs = cJSON_IsNumber(dur) ? dur->valuedouble : 0;
    years = secs == ECF_SP_1Y_SECONDS ? 1 : secs == ECF_SP_3Y_SECONDS ? 3 : 0;
    if (!(str_is(plan, "Compute") || str_is(plan, "EC2Instance")) ||
        !str_is(get_str(off, "paymentOption"), "No Upfront") ||
        !str_is(get_str(off, "currency"), "USD") || years == 0 ||
        !str_is(get_str(it, "unit"), "Hrs") ||
        !str_is(get_str(it, "productType"), "EC2") ||
        !str_is(property(props, "productDescription"), "Linux/UNIX") ||
        !str_is(property(props, "tenancy"), "shared") ||
        !box_usage(get_str(it, "usageType"), type) || !(usd > 0))
        return 0;
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->v = ecf_xrealloc(t->v, t->cap * sizeof(*t->v));
    }
    e = &t->v[t->n++];
    e->region = ecf_xstrdup(region);
    e->type = ecf_xstrdup(type);
    e->years = years;
    e->usd = usd;
    t->finished = false;
    return 0;
}

int ecf_sp_parse_rates(char **next_token_out, ecf_sp_table *t,
                       const char *region, const char *data, size_t len,
                       ecf_err *err)
{
    cJSON *root = NULL;
    const cJSON *list, *it, *tok;
    size_t idx = 0;
    int rc = 0;

    *next_token_out = NULL;
    rc = ecf_pricing_parse_reply(&root, data, len, err);
    if (rc < 0)
        goto out;
    list = ecf_pricing_reply_list(root, "searchResults", err);
    if (!list) {
        rc = ECF_EPARSE;
        goto out;
    }
    cJSON_ArrayForEach(it, list)
    {
        rc = parse_rate(t, region, it, idx, err);
        if (rc < 0)
            goto out;
        idx++;
    }
    tok = cJSON_GetObjectItemCaseSensitive(root, "nextToken");
    if (tok && !cJSON_IsNull(tok) && !cJSON_IsString(tok)) {
        rc = ecf_err_set(err, ECF_EPARSE, "nextToken: expected a string");
        goto out;
    }
    if (cJSON_IsString(tok) && tok->valuestring && *tok->valuestring)
        *next_token_out = ecf_xstrdup(tok->valuestring);
out:
    cJSON_Delete(root);
    return rc;
}

static int sp_cmp(const void *a, const void *b)
{
    const sp_entry *x = a, *y = b;
    int c = strcmp(x->region, y->region);
    if (c)
        return c;
    c = strcmp(x->type, y->type);
    if (c)
        return c;
    if (x->years != y->years)
        return x->years - y->years;
    return (x->usd > y->usd) - (x->usd < y->usd);
}

void ecf_sp_table_finish(ecf_sp_table *t)
{
    size_t i, w = 0;
    if (t->finished)
        return;
    if (t->n) /* qsort(NULL, 0) is undefined */
        qsort(t->v, t->n, sizeof(*t->v), sp_cmp);
    /* sorted by rate within a key: the first of each run is the lowest */
    for (i = 0; i < t->n; i++) {
        if (w > 0 && strcmp(t->v[w - 1].region, t->v[i].region) == 0 &&
            strcmp(t->v[w - 1].type, t->v[i].type) == 0 &&
            t->v[w - 1].years == t->v[i].years) {
            free(t->v[i].region);
            free(t->v[i].type);
            continue;
        }
        t->v[w++] = t->v[i];
    }
    t->n = w;
    t->finished = true;
}

size_t ecf_sp_table_count(const ecf_sp_table *t)
{
    return t ? t->n : 0;
}

double ecf_sp_table_get(const ecf_sp_table *t, const char *region,
                        const char *type, int years)
{
    size_t lo = 0, hi;
    if (!t || !t->finished)
        return -1;
    /* binary search on (region, type, years): one entry per key after
     * finish */
    hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const sp_entry *e = &t->v[mid];
        int c = strcmp(region, e->region);
        if (!c)
            c = strcmp(type, e->type);
        if (!c)
            c = years - e->years;
        if (c == 0)
            return e->usd;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

static bool in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

bool ecf_sp_access_denied(char *type_out, size_t type_size, long status,
                          const char *body, size_t len)
{
    /* signing and clock faults: a bug or a skewed clock, not the policy */
    static const char *const not_policy[] = {
        "InvalidSignatureException", "SignatureDoesNotMatch",
        "IncompleteSignature", "ExpiredTokenException", "RequestExpired",
        NULL};
    static const char *const denied_400[] = {
        "AccessDeniedException", "AccessDenied", "UnauthorizedOperation",
        "UnrecognizedClientException", "NotAuthorized", NULL};
    char type[128] = "";
    cJSON *root = NULL;
    bool denied = false;

    if (body && len > 0)
        root = cJSON_ParseWithLengthOpts(body, len, NULL, 0);
    if (cJSON_IsObject(root)) {
        const char *t = get_str(root, "__type");
        const char *hash;
        size_t n;
        if (!t)
            t = get_str(root, "code");
        if (!t)
            t = get_str(root, "Code");
        if (t) {
            /* "aws.protocols#AccessDeniedException:http://..." */
            hash = strrchr(t, '#');
            if (hash)
                t = hash + 1;
            n = strcspn(t, ":");
            if (n >= sizeof(type))
                n = sizeof(type) - 1;
            memcpy(type, t, n);
            type[n] = '\0';
        }
    }
    cJSON_Delete(root);
    if (status == 403)
        denied = !in_list(type, not_policy);
    else if (status == 400)
        denied = in_list(type, denied_400);
    if (type_size > 0)
        snprintf(type_out, type_size, "%s", type);
    return denied;
}
