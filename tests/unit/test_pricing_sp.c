/*
 * test_pricing_sp.c - the Savings Plans API parser
 * (DescribeSavingsPlansOfferingRates pages, pricing_sp.c) and the merge's
 * commitment rules (pricing_sanity.c): a fetched or kept reserved or
 * Savings Plan rate not below on-demand, or a 3-year Savings Plan rate
 * above the 1-year one, is dropped with its note. Fixtures:
 * fixtures/pricing (gen_fixtures.py). No network.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ec2fit/buf.h"
#include "ec2fit/catalog.h"
#include "ec2fit/pricing.h"

#define FIX ECF_FIXTURES "/pricing/"

static ecf_buf slurp(const char *name)
{
    ecf_buf b = ECF_BUF_INIT;
    ecf_buf path = ECF_BUF_INIT;
    ecf_err err = ECF_ERR_INIT;
    ecf_buf_printf(&path, FIX "%s", name);
    if (ecf_buf_read_file(&b, path.data, 1 << 24, &err) != 0)
        fail_msg("%s", err.msg);
    ecf_buf_dispose(&path);
    return b;
}

/* A DescribeSavingsPlansOfferingRates page built in memory: EC2Instance
 * No Upfront rates of us-east-1, `years` 1 or 3 each. */
static char *sp_page(const char *const *types, const int *years,
                     const char *const *rates, size_t n)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(root, "searchResults");
    char *out, *copy;
    size_t i;
    for (i = 0; i < n; i++) {
        char buf[1024];
        snprintf(buf, sizeof(buf),
                 "{\"savingsPlanOffering\":{\"planType\":\"EC2Instance\","
                 "\"paymentOption\":\"No Upfront\",\"durationSeconds\":%d,"
                 "\"currency\":\"USD\"},\"rate\":\"%s\",\"unit\":\"Hrs\","
                 "\"productType\":\"EC2\",\"usageType\":\"BoxUsage:%s\","
                 "\"properties\":[{\"name\":\"region\",\"value\":"
                 "\"us-east-1\"},{\"name\":\"instanceType\",\"value\":\"%s\"},"
                 "{\"name\":\"productDescription\",\"value\":\"Linux/UNIX\"},"
                 "{\"name\":\"tenancy\",\"value\":\"shared\"}]}",
                 years[i] == 3 ? ECF_SP_3Y_SECONDS : ECF_SP_1Y_SECONDS,
                 rates[i], types[i], types[i]);
        cJSON_AddItemToArray(list, cJSON_Parse(buf));
    }
    out = cJSON_PrintUnformatted(root);
    copy = strdup(out);
    cJSON_free(out);
    cJSON_Delete(root);
    return copy;
}

static ecf_sp_table *sp_table_of(const char *const *types, const int *years,
                                 const char *const *rates, size_t n)
{
    ecf_sp_table *t = ecf_sp_table_new();
    ecf_err err = ECF_ERR_INIT;
    char *next = NULL;
    char *page = sp_page(types, years, rates, n);
    if (ecf_sp_parse_rates(&next, t, "us-east-1", page, strlen(page), &err))
        fail_msg("%s", err.msg);
    assert_null(next);
    free(page);
    ecf_sp_table_finish(t);
    return t;
}

/* The base catalog's us-east-1 on-demand prices, p4d.24xlarge at `p4d`. */
static ecf_pricing_table *ondemand_east(const char *p4d)
{
    static const char *const types[] = {
        "c5.large", "c5.xlarge", "g5.xlarge", "inf2.xlarge",
        "m5.large", "p4d.24xlarge", "r5.large", "t3.micro"};
    const char *prices[] = {"0.085", "0.17",  "1.006", "0.7582",
                            "0.096", p4d,     "0.126", "0.0104"};
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_buf page = ECF_BUF_INIT;
    ecf_err err = ECF_ERR_INIT;
    char *next = NULL;
    size_t i;
    ecf_buf_puts(&page, "{\"PriceList\":[");
    for (i = 0; i < 8; i++) {
        cJSON *s;
        char doc[512], *enc;
        snprintf(doc, sizeof(doc),
                 "{\"product\":{\"attributes\":{\"instanceType\":\"%s\","
                 "\"regionCode\":\"us-east-1\"},\"sku\":\"S%zu\"},\"terms\":"
                 "{\"OnDemand\":{\"T\":{\"priceDimensions\":{\"D\":{\"unit\":"
                 "\"Hrs\",\"pricePerUnit\":{\"USD\":\"%s\"}}}}}}}",
                 types[i], i, prices[i]);
        s = cJSON_CreateString(doc);
        enc = cJSON_PrintUnformatted(s);
        ecf_buf_printf(&page, "%s%s", i ? "," : "", enc);
        cJSON_free(enc);
        cJSON_Delete(s);
    }
    ecf_buf_puts(&page, "]}");
    if (ecf_pricing_parse_products(&next, t, "us-east-1", page.data, page.len,
                                   &err))
        fail_msg("%s", err.msg);
    ecf_buf_dispose(&page);
    ecf_pricing_table_finish(t);
    return t;
}

/* The base catalog with p4d.24xlarge us-east-1 carrying the given rates
 * (a negative one: the field is left out or null). */
static char *base_with(double ri, double sp1, double sp3)
{
    ecf_buf b = slurp("base_catalog.json");
    cJSON *root = cJSON_ParseWithLength(b.data, b.len), *inst;
    char *out, *copy;
    cJSON_ArrayForEach(inst, cJSON_GetObjectItem(root, "instances"))
    {
        cJSON *e;
        if (strcmp(cJSON_GetObjectItem(inst, "type")->valuestring,
                   "p4d.24xlarge") != 0)
            continue;
        e = cJSON_GetObjectItem(cJSON_GetObjectItem(inst, "prices"),
                                "us-east-1");
        cJSON_DeleteItemFromObject(e, "reserved_1y_usd_per_hour");
        if (ri > 0)
            cJSON_AddNumberToObject(e, "reserved_1y_usd_per_hour", ri);
        else
            cJSON_AddNullToObject(e, "reserved_1y_usd_per_hour");
        if (sp1 > 0)
            cJSON_AddNumberToObject(e, "savings_plan_1y_usd_per_hour", sp1);
        if (sp3 > 0)
            cJSON_AddNumberToObject(e, "savings_plan_3y_usd_per_hour", sp3);
    }
    out = cJSON_PrintUnformatted(root);
    copy = strdup(out);
    cJSON_free(out);
    cJSON_Delete(root);
    ecf_buf_dispose(&b);
    return copy;
}

static const char *const r_east[] = {"us-east-1"};

static void opts_init(ecf_pricing_merge_opts *o, const ecf_pricing_table *od,
                      const ecf_sp_table *sp)
{
    memset(o, 0, sizeof(*o));
    o->regions = r_east;
    o->n_regions = 1;
    o->ondemand = od;
    o->savings_plans = sp;
    o->generated_at = "2026-12-07T10:00:00Z";
    o->ondemand_as_of = "2026-12-07";
    o->ondemand_origin = "test";
    o->sp_as_of = "2026-12-07";
    o->sp_origin = "test-sp";
}

static const ecf_price *p4d_east(const ecf_catalog *cat)
{
    return ecf_instance_price(ecf_catalog_find(cat, "p4d.24xlarge"),
                              "us-east-1");
}

static ecf_catalog *load_merged(const char *text)
{
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;
    if (ecf_catalog_load_buffer(&cat, text, strlen(text), "merged", &err))
        fail_msg("merged catalog does not load: %s", err.msg);
    return cat;
}

static bool has_note(const ecf_pricing_report *r, const char *want)
{
    size_t i;
    for (i = 0; i < r->n_notes; i++)
        if (strcmp(r->notes[i], want) == 0)
            return true;
    return false;
}

/* ---- request and parser ------------------------------------------------- */

static void test_pricing_sp__request_body(void **state)
{
    ecf_buf b = ECF_BUF_INIT;
    (void)state;
    ecf_sp_rates_request(&b, "eu-west-1", NULL);
    assert_string_equal(
        b.data,
        "{\"products\":[\"EC2\"],\"serviceCodes\":[\"AmazonEC2\"],"
        "\"savingsPlanTypes\":[\"Compute\",\"EC2Instance\"],"
        "\"savingsPlanPaymentOptions\":[\"No Upfront\"],\"filters\":["
        "{\"name\":\"region\",\"values\":[\"eu-west-1\"]},"
        "{\"name\":\"tenancy\",\"values\":[\"shared\"]},"
        "{\"name\":\"productDescription\",\"values\":[\"Linux/UNIX\"]}],"
        "\"maxResults\":1000}");
    ecf_sp_rates_request(&b, "eu-west-1", "c3AtdG9rLTE=");
    assert_non_null(strstr(b.data, ",\"nextToken\":\"c3AtdG9rLTE=\"}"));
    ecf_buf_dispose(&b);
}

/* sp_rates_p1.json: p4d.24xlarge's EC2 Instance plan (14.1423 / 9.6) is
 * below its Compute plan (15.2 / 10.9) and is kept; the "UnusedBox" row at
 * 0.001, a Partial Upfront row and a Windows row are skipped. */
static void test_pricing_sp__parses_page(void **state)
{
    ecf_buf b = slurp("sp_rates_p1.json");
    ecf_sp_table *t = ecf_sp_table_new();
    ecf_err err = ECF_ERR_INIT;
    char *next = NULL;
    (void)state;
    assert_int_equal(ecf_sp_parse_rates(&next, t, "us-east-1", b.data, b.len,
                                        &err),
                     0);
    assert_string_equal(next, "c3AtdG9rLTE=");
    free(next);
    ecf_sp_table_finish(t);
    ecf_sp_table_finish(t); /* idempotent */
    assert_int_equal(ecf_sp_table_count(t), 3);
    assert_true(ecf_sp_table_get(t, "us-east-1", "p4d.24xlarge", 1) ==
                14.1423);
    assert_true(ecf_sp_table_get(t, "us-east-1", "p4d.24xlarge", 3) == 9.6);
    assert_true(ecf_sp_table_get(t, "us-east-1", "g5.xlarge", 1) == 0.7242);
    assert_true(ecf_sp_table_get(t, "us-east-1", "g5.xlarge", 3) == -1);
    assert_true(ecf_sp_table_get(t, "us-west-2", "p4d.24xlarge", 1) == -1);
    ecf_sp_table_free(t);
    ecf_buf_dispose(&b);
}

static void expect_parse_error(const char *body, const char *want)
{
    ecf_sp_table *t = ecf_sp_table_new();
    ecf_err err = ECF_ERR_INIT;
    char *next = NULL;
    assert_int_equal(ecf_sp_parse_rates(&next, t, "us-east-1", body,
                                        strlen(body), &err),
                     ECF_EPARSE);
    assert_null(next);
    assert_string_equal(err.msg, want);
    ecf_sp_table_free(t);
}

static void test_pricing_sp__rejects_bad_pages(void **state)
{
    static const char *const types[] = {"p4d.24xlarge"};
    static const int one[] = {1};
    static const char *const bad_rate[] = {"1e3"};
    char *page;
    (void)state;
    expect_parse_error("{\"searchResults\": [", "invalid JSON at byte offset 18");
    expect_parse_error("{\"results\": []}", "reply has no searchResults array");
    expect_parse_error("{\"searchResults\": [7]}",
                       "searchResults[0]: expected an object");
    expect_parse_error("{\"searchResults\": [{\"rate\": \"1\"}]}",
                       "searchResults[0]: expected \"savingsPlanOffering\", "
                       "\"rate\" and \"properties\"");
    expect_parse_error("{\"searchResults\": [], \"nextToken\": 5}",
                       "nextToken: expected a string");
    page = sp_page(types, one, bad_rate, 1);
    expect_parse_error(page, "searchResults[0]: p4d.24xlarge: rate \"1e3\" "
                             "is not a decimal number");
    free(page);
    {
        ecf_sp_table *t = ecf_sp_table_new();
        ecf_err err = ECF_ERR_INIT;
        char *next = NULL;
        ecf_buf b = slurp("sp_rates_p1.json");
        assert_int_equal(ecf_sp_parse_rates(&next, t, "eu-west-1", b.data,
                                            b.len, &err),
                         ECF_EPARSE);
        assert_string_equal(err.msg, "searchResults[0]: p4d.24xlarge is "
                                     "priced for region us-east-1, not "
                                     "eu-west-1");
        ecf_buf_dispose(&b);
        ecf_sp_table_free(t);
    }
    {
        /* an empty page: nothing listed, and lookups on it are safe */
        ecf_sp_table *t = ecf_sp_table_new();
        ecf_err err = ECF_ERR_INIT;
        char *next = NULL;
        assert_int_equal(ecf_sp_parse_rates(&next, t, "us-east-1",
                                            "{\"searchResults\":[]}", 20,
                                            &err),
                         0);
        ecf_sp_table_finish(t);
        assert_int_equal(ecf_sp_table_count(t), 0);
        assert_true(ecf_sp_table_get(t, "us-east-1", "m5.large", 1) == -1);
        ecf_sp_table_free(t);
    }
}

/* ---- merge -------------------------------------------------------------- */

/* Fetched rates land on their pairs, with a sources entry. */
static void test_pricing_sp__merge_sets_rates(void **state)
{
    static const char *const types[] = {"p4d.24xlarge", "p4d.24xlarge",
                                        "g5.xlarge", "c6i.large"};
    static const int years[] = {1, 3, 1, 1};
    static const char *const rates[] = {"14.1423", "9.6", "0.7242", "0.06"};
    ecf_pricing_table *od = ondemand_east("21.957642");
    ecf_sp_table *sp = sp_table_of(types, years, rates, 4);
    ecf_pricing_report rep = ECF_PRICING_REPORT_INIT;
    ecf_pricing_merge_opts o;
    ecf_err err = ECF_ERR_INIT;
    ecf_buf base = slurp("base_catalog.json");
    ecf_catalog *cat;
    const ecf_price *p;
    char *out = NULL;
    (void)state;
    opts_init(&o, od, sp);
    assert_int_equal(ecf_pricing_merge(&out, &rep, base.data, base.len, &o,
                                       &err),
                     0);
    assert_int_equal(rep.savings_plan_updated, 2);
    assert_int_equal(rep.commitment_dropped, 0);
    assert_non_null(strstr(out, "\"id\":\t\"savings_plans_api\""));
    assert_non_null(strstr(out, "\"origin\":\t\"test-sp\""));
    cat = load_merged(out);
    p = p4d_east(cat);
    assert_true(p->savings_plan_1y_usd_per_hour == 14.1423);
    assert_true(p->savings_plan_3y_usd_per_hour == 9.6);
    p = ecf_instance_price(ecf_catalog_find(cat, "g5.xlarge"), "us-east-1");
    assert_true(p->savings_plan_1y_usd_per_hour == 0.7242);
    assert_true(p->savings_plan_3y_usd_per_hour == ECF_PRICE_UNKNOWN);
    ecf_catalog_free(cat);
    free(out);
    ecf_pricing_report_dispose(&rep);
    ecf_buf_dispose(&base);
    ecf_sp_table_free(sp);
    ecf_pricing_table_free(od);
}

/* A fetched 1-year rate at or above on-demand, and a fetched 3-year rate
 * above the 1-year one, are dropped with their notes; the pair keeps what
 * the catalog had (here: nothing). */
static void test_pricing_sp__merge_drops_fetched(void **state)
{
    static const char *const types[] = {"p4d.24xlarge", "g5.xlarge",
                                        "g5.xlarge"};
    static const int years[] = {1, 1, 3};
    static const char *const rates[] = {"25", "0.7", "0.72"};
    ecf_pricing_table *od = ondemand_east("21.957642");
    ecf_sp_table *sp = sp_table_of(types, years, rates, 3);
    ecf_pricing_report rep = ECF_PRICING_REPORT_INIT;
    ecf_pricing_merge_opts o;
    ecf_err err = ECF_ERR_INIT;
    ecf_buf base = slurp("base_catalog.json");
    ecf_catalog *cat;
    const ecf_price *p;
    char *out = NULL;
    (void)state;
    opts_init(&o, od, sp);
    assert_int_equal(ecf_pricing_merge(&out, &rep, base.data, base.len, &o,
                                       &err),
                     0);
    assert_true(has_note(&rep, "p4d.24xlarge us-east-1: 1-year Savings Plan "
                               "rate 25 is not below on-demand 21.9576; "
                               "dropped"));
    assert_true(has_note(&rep, "g5.xlarge us-east-1: 3-year Savings Plan "
                               "rate 0.72 is above the 1-year rate 0.7; "
                               "dropped"));
    assert_int_equal(rep.commitment_dropped, 2);
    assert_int_equal(rep.savings_plan_updated, 1); /* g5's 1-year */
    cat = load_merged(out);
    p = p4d_east(cat);
    assert_true(p->savings_plan_1y_usd_per_hour == ECF_PRICE_UNKNOWN);
    p = ecf_instance_price(ecf_catalog_find(cat, "g5.xlarge"), "us-east-1");
    assert_true(p->savings_plan_1y_usd_per_hour == 0.7);
    assert_true(p->savings_plan_3y_usd_per_hour == ECF_PRICE_UNKNOWN);
    ecf_catalog_free(cat);
    free(out);
    ecf_pricing_report_dispose(&rep);
    ecf_buf_dispose(&base);
    ecf_sp_table_free(sp);
    ecf_pricing_table_free(od);
}

/* Rates kept from the catalog (the refresh lists none for the pair) against
 * a fetched on-demand price cut to 12: the 1-year reserved 13.921094 and
 * the 1-year Savings Plan 13.9 are dropped with the "kept" wording; the
 * 3-year 9.5 stays. */
static void test_pricing_sp__merge_drops_kept(void **state)
{
    ecf_pricing_table *od = ondemand_east("12.0");
    ecf_sp_table *sp = ecf_sp_table_new();
    ecf_pricing_report rep = ECF_PRICING_REPORT_INIT;
    ecf_pricing_merge_opts o;
    ecf_err err = ECF_ERR_INIT;
    char *base = base_with(13.921094, 13.9, 9.5);
    ecf_catalog *cat;
    const ecf_price *p;
    char *out = NULL;
    (void)state;
    ecf_sp_table_finish(sp);
    opts_init(&o, od, sp);
    assert_int_equal(ecf_pricing_merge(&out, &rep, base, strlen(base), &o,
                                       &err),
                     0);
    assert_true(has_note(&rep, "p4d.24xlarge us-east-1: kept 1-year reserved "
                               "rate 13.9211 is now at or above the fetched "
                               "on-demand 12; dropped"));
    assert_true(has_note(&rep, "p4d.24xlarge us-east-1: kept 1-year Savings "
                               "Plan rate 13.9 is now at or above the "
                               "fetched on-demand 12; dropped"));
    assert_int_equal(rep.commitment_dropped, 2);
    cat = load_merged(out);
    p = p4d_east(cat);
    assert_true(p->ondemand_usd_per_hour == 12.0);
    assert_true(p->reserved_1y_usd_per_hour == ECF_PRICE_UNKNOWN);
    assert_true(p->savings_plan_1y_usd_per_hour == ECF_PRICE_UNKNOWN);
    assert_true(p->savings_plan_3y_usd_per_hour == 9.5);
    ecf_catalog_free(cat);
    free(out);
    ecf_pricing_report_dispose(&rep);
    free(base);
    ecf_sp_table_free(sp);
    ecf_pricing_table_free(od);
}

/* A kept 3-year rate above a fetched 1-year one goes. */
static void test_pricing_sp__merge_drops_kept_3y_above_fetched_1y(void **state)
{
    static const char *const types[] = {"p4d.24xlarge"};
    static const int years[] = {1};
    static const char *const rates[] = {"9"};
    ecf_pricing_table *od = ondemand_east("21.957642");
    ecf_sp_table *sp = sp_table_of(types, years, rates, 1);
    ecf_pricing_report rep = ECF_PRICING_REPORT_INIT;
    ecf_pricing_merge_opts o;
    ecf_err err = ECF_ERR_INIT;
    char *base = base_with(13.921094, 14.1, 9.5);
    ecf_catalog *cat;
    char *out = NULL;
    (void)state;
    opts_init(&o, od, sp);
    assert_int_equal(ecf_pricing_merge(&out, &rep, base, strlen(base), &o,
                                       &err),
                     0);
    assert_true(has_note(&rep, "p4d.24xlarge us-east-1: kept 3-year Savings "
                               "Plan rate 9.5 is now above the fetched "
                               "1-year rate 9; dropped"));
    cat = load_merged(out);
    assert_true(p4d_east(cat)->savings_plan_1y_usd_per_hour == 9.0);
    assert_true(p4d_east(cat)->savings_plan_3y_usd_per_hour ==
                ECF_PRICE_UNKNOWN);
    ecf_catalog_free(cat);
    free(out);
    ecf_pricing_report_dispose(&rep);
    free(base);
    ecf_sp_table_free(sp);
    ecf_pricing_table_free(od);
}

/* The invariant over generated cases: whatever the catalog kept and the
 * refresh fetched, after the merge the refreshed pair has reserved, 1- and
 * 3-year Savings Plan and spot rates below on-demand, and the 3-year rate
 * at most the 1-year one; and a fetched rate that obeys the rules is the
 * one the pair carries. 400 cases from a fixed LCG. */
static unsigned long lcg(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return *s >> 33;
}

static double pick(unsigned long *s, double od)
{
    /* a third absent, else 0.3x-1.3x on-demand, rounded to 4 decimals */
    unsigned long r = lcg(s) % 300;
    if (r < 100)
        return -1;
    return (double)(long)((0.3 + (double)(r - 100) / 200.0) * od * 1e4) /
           1e4;
}

static void test_pricing_sp__merge_invariants(void **state)
{
    unsigned long seed = 26;
    size_t i, checked = 0, taken = 0, dropped = 0;
    (void)state;
    for (i = 0; i < 400; i++) {
        double od = 5.0 + (double)(lcg(&seed) % 2000) / 100.0;
        double k_ri = pick(&seed, od), k1 = pick(&seed, od),
               k3 = pick(&seed, od), f1 = pick(&seed, od),
               f3 = pick(&seed, od);
        char ods[32], r1[32], r3[32];
        const char *types[2] = {"p4d.24xlarge", "p4d.24xlarge"};
        int years[2];
        const char *rates[2];
        size_t n = 0;
        ecf_pricing_table *t;
        ecf_sp_table *sp;
        ecf_pricing_report rep = ECF_PRICING_REPORT_INIT;
        ecf_pricing_merge_opts o;
        ecf_err err = ECF_ERR_INIT;
        char *base, *out = NULL;
        ecf_catalog *cat;
        const ecf_price *p;

        /* the kept catalog obeys the rules against its own price (22) */
        if (k_ri >= 22)
            k_ri = -1;
        if (k1 >= 22)
            k1 = -1;
        if (k3 >= 22 || (k1 > 0 && k3 > k1))
            k3 = -1;
        /* compare with what the parsers read from the decimal strings */
        snprintf(ods, sizeof(ods), "%.2f", od);
        snprintf(r1, sizeof(r1), "%.4f", f1);
        snprintf(r3, sizeof(r3), "%.4f", f3);
        od = strtod(ods, NULL);
        if (f1 > 0)
            f1 = strtod(r1, NULL);
        if (f3 > 0)
            f3 = strtod(r3, NULL);
        if (f1 > 0) {
            years[n] = 1;
            rates[n++] = r1;
        }
        if (f3 > 0) {
            years[n] = 3;
            rates[n++] = r3;
        }
        t = ondemand_east(ods);
        sp = sp_table_of(types, years, rates, n);
        base = base_with(k_ri, k1, k3);
        opts_init(&o, t, sp);
        if (ecf_pricing_merge(&out, &rep, base, strlen(base), &o, &err))
            fail_msg("case %zu: %s", i, err.msg);
        cat = load_merged(out);
        p = p4d_east(cat);
        assert_true(p->ondemand_usd_per_hour == od);
        if (p->reserved_1y_usd_per_hour != ECF_PRICE_UNKNOWN)
            assert_true(p->reserved_1y_usd_per_hour < od);
        if (p->savings_plan_1y_usd_per_hour != ECF_PRICE_UNKNOWN)
            assert_true(p->savings_plan_1y_usd_per_hour < od);
        if (p->savings_plan_3y_usd_per_hour != ECF_PRICE_UNKNOWN) {
            assert_true(p->savings_plan_3y_usd_per_hour < od);
            if (p->savings_plan_1y_usd_per_hour != ECF_PRICE_UNKNOWN)
                assert_true(p->savings_plan_3y_usd_per_hour <=
                            p->savings_plan_1y_usd_per_hour);
        }
        if (p->spot_usd_per_hour != ECF_PRICE_UNKNOWN)
            assert_true(p->spot_usd_per_hour < od);
        if (f1 > 0 && f1 < od) {
            assert_true(p->savings_plan_1y_usd_per_hour == f1);
            taken++;
        }
        /* the 3-year rate is judged against the 1-year one it met: the
         * fetched one when that was taken, else a kept one (none here) */
        if (f3 > 0 && f3 < od &&
            (f1 > 0 && f1 < od ? f3 <= f1 : k1 <= 0)) {
            assert_true(p->savings_plan_3y_usd_per_hour == f3);
            taken++;
        }
        dropped += rep.commitment_dropped;
        checked++;
        ecf_catalog_free(cat);
        free(out);
        free(base);
        ecf_pricing_report_dispose(&rep);
        ecf_sp_table_free(sp);
        ecf_pricing_table_free(t);
    }
    printf("merge invariants: %zu cases, %zu fetched rates taken, %zu rates "
           "dropped\n",
           checked, taken, dropped);
    assert_int_equal(checked, 400);
    assert_true(taken > 100 && dropped > 100); /* both paths exercised */
}

/* Which error replies are a refused permission (docs/update.md
 * "Permissions"): the update goes on without Savings Plan rates for
 * those, and fails for every other. */
static void test_pricing_sp__access_denied(void **state)
{
    static const struct {
        long status;
        const char *body;
        bool denied;
        const char *type;
    } cases[] = {
        /* IAM denial as rest-json services send it: 403, the type in the
         * x-amzn-ErrorType header, only a Message in the body */
        {403, "{\"Message\":\"User: arn:aws:iam::123456789012:user/ci is "
              "not authorized to perform: "
              "savingsplans:DescribeSavingsPlansOfferingRates\"}",
         true, ""},
        {403, "{\"__type\":\"AccessDeniedException\",\"message\":\"no\"}",
         true, "AccessDeniedException"},
        {403, "", true, ""},
        {403, "<html>forbidden</html>", true, ""},
        {400, "{\"__type\":\"AccessDeniedException\"}", true,
         "AccessDeniedException"},
        {400,
         "{\"__type\":\"com.amazon.coral.service#"
         "UnrecognizedClientException:http://internal.amazon.com/\"}",
         true, "UnrecognizedClientException"},
        {400, "{\"code\":\"UnauthorizedOperation\"}", true,
         "UnauthorizedOperation"},
        {400, "{\"Code\":\"AccessDenied\"}", true, "AccessDenied"},
        /* signing or clock faults: not the policy, stay fatal */
        {403, "{\"__type\":\"InvalidSignatureException\",\"message\":"
              "\"The request signature we calculated does not match\"}",
         false, "InvalidSignatureException"},
        {403, "{\"__type\":\"ExpiredTokenException\"}", false,
         "ExpiredTokenException"},
        {400, "{\"__type\":\"RequestExpired\"}", false, "RequestExpired"},
        /* faults of the request or the service */
        {400, "{\"__type\":\"ValidationException\",\"message\":\"bad\"}",
         false, "ValidationException"},
        {400, "{\"message\":\"bad request\"}", false, ""},
        {500, "{\"__type\":\"InternalServerException\"}", false,
         "InternalServerException"},
        {503, "{\"__type\":\"AccessDeniedException\"}", false,
         "AccessDeniedException"},
        {404, "{\"__type\":\"AccessDeniedException\"}", false,
         "AccessDeniedException"},
    };
    char type[64];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        bool got = ecf_sp_access_denied(type, sizeof(type), cases[i].status,
                                        cases[i].body, strlen(cases[i].body));
        if (got != cases[i].denied || strcmp(type, cases[i].type) != 0)
            fail_msg("case %zu (HTTP %ld %s): denied %d type '%s'", i,
                     cases[i].status, cases[i].body, (int)got, type);
    }
    /* NULL body; a type longer than the buffer is cut, not overrun */
    assert_true(ecf_sp_access_denied(type, sizeof(type), 403, NULL, 0));
    assert_string_equal(type, "");
    assert_false(ecf_sp_access_denied(
        type, 8, 400, "{\"__type\":\"AccessDeniedException\"}", 32));
    assert_true(ecf_sp_access_denied(
        type, 8, 400, "{\"__type\":\"AccessDeniedException\"}", 34));
    assert_string_equal(type, "AccessD");
    assert_true(ecf_sp_access_denied(NULL, 0, 403, "{}", 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pricing_sp__request_body),
        cmocka_unit_test(test_pricing_sp__parses_page),
        cmocka_unit_test(test_pricing_sp__rejects_bad_pages),
        cmocka_unit_test(test_pricing_sp__merge_sets_rates),
        cmocka_unit_test(test_pricing_sp__merge_drops_fetched),
        cmocka_unit_test(test_pricing_sp__merge_drops_kept),
        cmocka_unit_test(test_pricing_sp__merge_drops_kept_3y_above_fetched_1y),
        cmocka_unit_test(test_pricing_sp__merge_invariants),
        cmocka_unit_test(test_pricing_sp__access_denied),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
