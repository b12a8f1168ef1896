/*
 * test_pricing.c - GetProducts and Spot Advisor parsing, and the merge's
 * safety rules (5x moves, coverage), on fixtures/pricing. No network: the
 * parsers take bodies, and the merged catalog goes through the real loader.
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
#include "pricing_sanity.h"

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

static int parse_file(ecf_pricing_table *t, const char *name, char **next,
                      ecf_err *err)
{
    ecf_buf b = slurp(name);
    int rc = ecf_pricing_parse_products(next, t, "us-east-1", b.data, b.len,
                                        err);
    ecf_buf_dispose(&b);
    return rc;
}

/* A GetProducts page built in memory: one hourly price per type. */
static char *make_page(const char *region, const char *const *types,
                       const char *const *prices, size_t n)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(root, "PriceList");
    char *out, *copy;
    size_t i;
    for (i = 0; i < n; i++) {
        char buf[1024];
        snprintf(buf, sizeof(buf),
                 "{\"product\":{\"attributes\":{\"instanceType\":\"%s\","
                 "\"regionCode\":\"%s\"},\"sku\":\"S%zu\"},\"terms\":{"
                 "\"OnDemand\":{\"T\":{\"priceDimensions\":{\"D\":{\"unit\":"
                 "\"Hrs\",\"pricePerUnit\":{\"USD\":\"%s\"}}}}}}}",
                 types[i], region, i, prices[i]);
        cJSON_AddItemToArray(list, cJSON_CreateString(buf));
    }
    out = cJSON_PrintUnformatted(root);
    copy = strdup(out);
    cJSON_free(out);
    cJSON_Delete(root);
    return copy;
}

static ecf_pricing_table *table_of(const char *region,
                                   const char *const *types,
                                   const char *const *prices, size_t n)
{
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_err err = ECF_ERR_INIT;
    char *next = NULL;
    char *page = make_page(region, types, prices, n);
    assert_int_equal(ecf_pricing_parse_products(&next, t, region, page,
                                                strlen(page), &err),
                     0);
    assert_null(next);
    free(page);
    ecf_pricing_table_finish(t);
    return t;
}

static void test_pricing__request_body(void **state)
{
    ecf_buf b = ECF_BUF_INIT;
    (void)state;
    ecf_pricing_products_request(&b, "eu-west-1", NULL);
    assert_non_null(strstr(b.data, "\"ServiceCode\":\"AmazonEC2\""));
    assert_non_null(strstr(b.data, "\"FormatVersion\":\"aws_v1\""));
    assert_non_null(strstr(b.data, "{\"Type\":\"TERM_MATCH\",\"Field\":"
                                   "\"regionCode\",\"Value\":\"eu-west-1\"}"));
    assert_non_null(strstr(b.data, "\"Field\":\"capacitystatus\",\"Value\":"
                                   "\"Used\""));
    assert_non_null(strstr(b.data, "\"Value\":\"No License required\""));
    assert_null(strstr(b.data, "NextToken"));
    ecf_pricing_products_request(&b, "eu-west-1", "abc\"def");
    assert_non_null(strstr(b.data, "\"NextToken\":\"abc\\\"def\""));
    ecf_buf_dispose(&b);
}

static void test_pricing__parses_pages(void **state)
{
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_err err = ECF_ERR_INIT;
    char *next = NULL;
    (void)state;
    assert_int_equal(parse_file(t, "products_p1.json", &next, &err), 0);
    assert_string_equal(next, "tok-1");
    free(next);
    assert_int_equal(parse_file(t, "products_p2.json", &next, &err), 0);
    assert_null(next);
    ecf_pricing_table_finish(t);
    assert_int_equal(ecf_pricing_table_count(t), 9);
    assert_true(ecf_pricing_table_get(t, "us-east-1", "m5.large", NULL) ==
                0.097);
    assert_true(ecf_pricing_table_get(t, "us-east-1", "p4d.24xlarge", NULL) ==
                21.957642);
    assert_true(ecf_pricing_table_get(t, "us-west-2", "m5.large", NULL) < 0);
    ecf_pricing_table_free(t);
}

static void test_pricing__rejects_ambiguous_and_zero(void **state)
{
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_err err = ECF_ERR_INIT;
    const char *reason = NULL;
    char *next = NULL;
    (void)state;
    assert_int_equal(parse_file(t, "products_ambiguous.json", &next, &err),
                     0);
    ecf_pricing_table_finish(t);
    assert_true(ecf_pricing_table_get(t, "us-east-1", "m5.large", &reason) <
                0);
    assert_non_null(reason);
    assert_non_null(strstr(reason, "ambiguous: SKU SKUA says 0.096, SKU SKUB "
                                   "says 0.192"));
    assert_true(ecf_pricing_table_get(t, "us-east-1", "t3.micro", &reason) <
                0);
    assert_non_null(strstr(reason, "SKU SKUZ is priced at zero"));
    /* Two SKUs with the same price are not ambiguous. */
    assert_true(ecf_pricing_table_get(t, "us-east-1", "c5.large", &reason) ==
                0.085);
    assert_null(reason);
    assert_int_equal(ecf_pricing_table_count(t), 1);
    ecf_pricing_table_free(t);
}

static void test_pricing__rejects_bad_pages(void **state)
{
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_err err = ECF_ERR_INIT;
    char *next = NULL;
    (void)state;
    assert_int_equal(parse_file(t, "products_bad_inner.json", &next, &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "PriceList[1]: invalid JSON at byte offset 26");
    assert_int_equal(parse_file(t, "products_bad_price.json", &next, &err),
                     ECF_EPARSE);
    assert_non_null(strstr(err.msg, "\"-1.5e3\" is not a decimal number"));
    assert_int_equal(parse_file(t, "products_other_region.json", &next, &err),
                     ECF_EPARSE);
    assert_non_null(strstr(err.msg, "priced for region eu-west-1"));
    assert_int_equal(ecf_pricing_parse_products(&next, t, "us-east-1",
                                                "{\"PriceList\": [", 15, &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "invalid JSON at byte offset 14");
    assert_int_equal(ecf_pricing_parse_products(&next, t, "us-east-1",
                                                "{\"PriceList\": [1]}", 18,
                                                &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "PriceList[0]: expected a JSON string");
    assert_int_equal(
        ecf_pricing_parse_products(&next, t, "us-east-1", "[]", 2, &err),
        ECF_EPARSE);
    assert_null(next);
    ecf_pricing_table_free(t);
}

/* Found by fuzz/fuzz_pricing: a page that yields no price left the table
 * empty (v == NULL), and finish/get called qsort/bsearch on NULL, which
 * UBSan reports. An empty spot table had the same bsearch. */
static void test_pricing__empty_tables(void **state)
{
    static const char page[] =
        "{\"PriceList\": [\"{\\\"product\\\":{\\\"attributes\\\":{}}}\"]}";
    static const char feed[] =
        "{\"ranges\": [], \"spot_advisor\": {}}";
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_spot_table *s = NULL;
    ecf_err err = ECF_ERR_INIT;
    const char *regions[] = {"us-east-1"};
    char *next = NULL;
    int pct, band;
    (void)state;
    assert_int_equal(ecf_pricing_parse_products(&next, t, "us-east-1", page,
                                                sizeof(page) - 1, &err),
                     0);
    ecf_pricing_table_finish(t);
    assert_int_equal(ecf_pricing_table_count(t), 0);
    assert_true(ecf_pricing_table_get(t, "us-east-1", "m5.large", NULL) < 0);
    ecf_pricing_table_free(t);
    if (ecf_spot_parse(&s, feed, sizeof(feed) - 1, regions, 1, &err) == 0) {
        assert_int_equal(ecf_spot_table_count(s), 0);
        assert_false(ecf_spot_table_get(s, "us-east-1", "m5.large", &pct,
                                        &band));
        ecf_spot_table_free(s);
    }
}

static void test_pricing__spot_feed(void **state)
{
    ecf_buf b = slurp("spot.json");
    ecf_spot_table *s = NULL;
    ecf_err err = ECF_ERR_INIT;
    const char *regions[] = {"us-east-1"};
    int pct, band;
    (void)state;
    assert_int_equal(ecf_spot_parse(&s, b.data, b.len, regions, 1, &err), 0);
    assert_int_equal(ecf_spot_table_count(s), 8);
    assert_true(ecf_spot_table_get(s, "us-east-1", "p4d.24xlarge", &pct,
                                   &band));
    assert_int_equal(pct, 25);
    assert_int_equal(band, 2);
    assert_false(ecf_spot_table_get(s, "us-west-2", "m5.large", &pct, &band));
    ecf_spot_table_free(s);
    /* All regions when none are named. */
    assert_int_equal(ecf_spot_parse(&s, b.data, b.len, NULL, 0, &err), 0);
    assert_int_equal(ecf_spot_table_count(s), 13);
    ecf_spot_table_free(s);
    ecf_buf_dispose(&b);
}

static void test_pricing__spot_feed_rejects_bad_values(void **state)
{
    static const char *bad[] = {
        "{\"spot_advisor\": {\"r1\": {\"Linux\": {\"a.b\": {\"s\": 100, "
        "\"r\": 0}}}}}",
        "{\"spot_advisor\": {\"r1\": {\"Linux\": {\"a.b\": {\"s\": 5.5, "
        "\"r\": 0}}}}}",
        "{\"spot_advisor\": {\"r1\": {\"Linux\": {\"a.b\": {\"s\": 5, "
        "\"r\": 5}}}}}",
        "{\"spot_advisor\": {\"r1\": {\"Linux\": {\"a.b\": {\"s\": 5}}}}}",
        "{\"spot_advisor\": []}",
        "{\"spot_advisor\": {\"r1\": {\"Linux\": [1]}}}",
        "not json",
    };
    ecf_spot_table *s = NULL;
    ecf_err err = ECF_ERR_INIT;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (ecf_spot_parse(&s, bad[i], strlen(bad[i]), NULL, 0, &err) !=
            ECF_EPARSE)
            fail_msg("accepted: %s", bad[i]);
        assert_null(s);
    }
}

static void test_pricing__error_message(void **state)
{
    const char *body = "{\"__type\":\"InvalidSignatureException\","
                       "\"message\":\"The request signature we calculated "
                       "does not match\\nthe signature\"}";
    char *m;
    (void)state;
    m = ecf_pricing_error_message(body, strlen(body));
    assert_string_equal(m, "The request signature we calculated does not "
                           "match the signature");
    free(m);
    assert_null(ecf_pricing_error_message("<html>", 6));
    assert_null(ecf_pricing_error_message("{}", 2));
}

/* ---- merge -------------------------------------------------------------- */

typedef struct {
    ecf_buf base;
    char *out;
    ecf_pricing_report rep;
} merge_fx;

static int merge_setup(void **state)
{
    merge_fx *m = calloc(1, sizeof(*m));
    m->base = slurp("base_catalog.json");
    *state = m;
    return 0;
}

static int merge_teardown(void **state)
{
    merge_fx *m = *state;
    ecf_buf_dispose(&m->base);
    free(m->out);
    ecf_pricing_report_dispose(&m->rep);
    free(m);
    return 0;
}

static ecf_catalog *load_merged(const char *text)
{
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;
    if (ecf_catalog_load_buffer(&cat, text, strlen(text), "merged", &err) !=
        0)
        fail_msg("merged catalog does not load: %s", err.msg);
    return cat;
}

static const char *const r_east[] = {"us-east-1"};
static const char *const r_both[] = {"us-east-1", "us-west-2"};

static void test_pricing__merge_updates_adds_and_validates(void **state)
{
    merge_fx *m = *state;
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_err err = ECF_ERR_INIT;
    ecf_pricing_merge_opts o;
    ecf_catalog *cat;
    const ecf_price *p;
    char *next = NULL;

    assert_int_equal(parse_file(t, "products_p1.json", &next, &err), 0);
    free(next);
    assert_int_equal(parse_file(t, "products_p2.json", &next, &err), 0);
    ecf_pricing_table_finish(t);
    memset(&o, 0, sizeof(o));
    o.regions = r_east;
    o.n_regions = 1;
    o.ondemand = t;
    o.generated_at = "2026-11-29T10:00:00Z";
    o.ondemand_as_of = "2026-11-29";
    o.ondemand_origin = "test";
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     0);
    assert_int_equal(m->rep.ondemand_updated, 1); /* m5.large */
    assert_int_equal(m->rep.ondemand_unchanged, 7);
    assert_int_equal(m->rep.ondemand_not_in_catalog, 1); /* c6i.large */
    assert_int_equal(m->rep.coverage_before, 8);
    assert_int_equal(m->rep.coverage_after, 8);
    cat = load_merged(m->out);
    assert_string_equal(ecf_catalog_as_of(cat), "2026-11-29");
    assert_string_equal(ecf_catalog_generated_at(cat), "2026-11-29T10:00:00Z");
    p = ecf_instance_price(ecf_catalog_find(cat, "m5.large"), "us-east-1");
    assert_non_null(p);
    assert_true(p->ondemand_usd_per_hour == 0.097);
    /* spot re-estimated from the kept savings: 0.097 * (1 - 0.66) */
    assert_true(p->spot_usd_per_hour > 0.03297 &&
                p->spot_usd_per_hour < 0.03299);
    /* us-west-2 was not refreshed: untouched. */
    p = ecf_instance_price(ecf_catalog_find(cat, "g5.xlarge"), "us-west-2");
    assert_true(p->spot_savings_pct == 63);
    ecf_catalog_free(cat);
    ecf_pricing_table_free(t);
}

/* One Reserved term of a GetProducts element. */
#define RT(code, len, cls, opt, usd)                                          \
    "\"" code "\":{\"priceDimensions\":{\"R\":{\"unit\":\"Hrs\","           \
    "\"pricePerUnit\":{\"USD\":\"" usd "\"}}},\"termAttributes\":{"          \
    "\"LeaseContractLength\":\"" len "\",\"OfferingClass\":\"" cls "\","     \
    "\"PurchaseOption\":\"" opt "\"}}"
#define PRODUCT(type, od, reserved)                                           \
    "{\"product\":{\"attributes\":{\"instanceType\":\"" type "\","           \
    "\"regionCode\":\"us-east-1\"},\"sku\":\"S-" type "\"},\"terms\":{"      \
    "\"OnDemand\":{\"T\":{\"priceDimensions\":{\"D\":{\"unit\":\"Hrs\","     \
    "\"pricePerUnit\":{\"USD\":\"" od "\"}}}}},\"Reserved\":{" reserved "}}}"

/* Reserved terms ride on the same GetProducts pages: only the 1-year
 * Standard No Upfront hourly rate is taken, and only below on-demand. */
static void test_pricing__merge_reserved_1y(void **state)
{
    merge_fx *m = *state;
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_err err = ECF_ERR_INIT;
    ecf_pricing_merge_opts o;
    ecf_catalog *cat;
    const ecf_price *p;
    char *next = NULL, *page;
    cJSON *root = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(root, "PriceList");

    cJSON_AddItemToArray(
        list, cJSON_CreateString(PRODUCT(
                  "g5.xlarge", "1.006",
                  RT("A", "1yr", "convertible", "No Upfront", "0.7") ","
                  RT("B", "3yr", "standard", "No Upfront", "0.4") ","
                  RT("C", "1yr", "standard", "All Upfront", "0") ","
                  RT("D", "1yr", "standard", "No Upfront", "0.6"))));
    cJSON_AddItemToArray(
        list, cJSON_CreateString(PRODUCT(
                  "m5.large", "0.096",
                  RT("E", "1yr", "standard", "No Upfront", "0.2"))));
    page = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    assert_int_equal(ecf_pricing_parse_products(&next, t, "us-east-1", page,
                                                strlen(page), &err),
                     0);
    cJSON_free(page);
    assert_null(next);
    ecf_pricing_table_finish(t);
    assert_true(ecf_pricing_table_get_reserved(t, "us-east-1", "g5.xlarge") ==
                0.6);
    assert_true(ecf_pricing_table_get_reserved(t, "us-east-1", "m5.large") ==
                0.2);
    assert_true(ecf_pricing_table_get_reserved(t, "us-west-2", "g5.xlarge") ==
                -1);
    memset(&o, 0, sizeof(o));
    o.regions = r_east;
    o.n_regions = 1;
    o.ondemand = t;
    o.generated_at = "2026-11-29T10:00:00Z";
    o.ondemand_as_of = "2026-11-29";
    o.ondemand_origin = "test";
    o.force = true; /* the page prices two types: the others go */
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     0);
    assert_int_equal(m->rep.reserved_updated, 1); /* g5.xlarge only */
    cat = load_merged(m->out);
    p = ecf_instance_price(ecf_catalog_find(cat, "g5.xlarge"), "us-east-1");
    assert_true(p->reserved_1y_usd_per_hour == 0.6);
    /* 0.2 is above m5.large's 0.096 on-demand: not a discount, not taken */
    p = ecf_instance_price(ecf_catalog_find(cat, "m5.large"), "us-east-1");
    assert_true(p->reserved_1y_usd_per_hour < 0);
    ecf_catalog_free(cat);
    ecf_pricing_table_free(t);
}

/* The Price List's Capacity Blocks for ML products (attribute marketoption
 * "CapacityBlock", as vantage-sh/ec2instances.info 07a565ec found them
 * beside the on-demand product of the same type): kept as the type's
 * capacity-block rate, never as on-demand, so p5.48xlarge's on-demand
 * 55.04 is not made ambiguous by the block's 41.528 (the AWS page's rate,
 * 2026-07-22). */
#define CB_PRODUCT(type, usd)                                                 \
    "{\"product\":{\"attributes\":{\"instanceType\":\"" type "\","           \
    "\"regionCode\":\"us-east-1\",\"marketoption\":\"CapacityBlock\"},"       \
    "\"sku\":\"CB-" type "\"},\"terms\":{\"OnDemand\":{\"T\":{"              \
    "\"priceDimensions\":{\"D\":{\"unit\":\"Hrs\",\"pricePerUnit\":{"      \
    "\"USD\":\"" usd "\"}}}}}}}"

static void test_pricing__merge_capacity_block(void **state)
{
    merge_fx *m = *state;
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_err err = ECF_ERR_INIT;
    ecf_pricing_merge_opts o;
    ecf_catalog *cat;
    const ecf_price *p;
    const char *reason = NULL;
    char *next = NULL, *page;
    cJSON *root = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(root, "PriceList");

    cJSON_AddItemToArray(list, cJSON_CreateString(
                                   PRODUCT("p4d.24xlarge", "21.957642", "")));
    cJSON_AddItemToArray(list, cJSON_CreateString(
                                   CB_PRODUCT("p4d.24xlarge", "11.8")));
    /* a block product of a type with no on-demand product: no price */
    cJSON_AddItemToArray(list, cJSON_CreateString(
                                   CB_PRODUCT("p5.48xlarge", "41.528")));
    page = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    assert_int_equal(ecf_pricing_parse_products(&next, t, "us-east-1", page,
                                                strlen(page), &err),
                     0);
    cJSON_free(page);
    ecf_pricing_table_finish(t);
    assert_true(ecf_pricing_table_get(t, "us-east-1", "p4d.24xlarge",
                                      &reason) == 21.957642);
    assert_null(reason);
    assert_true(ecf_pricing_table_get(t, "us-east-1", "p5.48xlarge",
                                      NULL) < 0);
    assert_int_equal(ecf_pricing_table_count(t), 1);
    assert_true(ecf_pricing_table_get_capacity_block(t, "us-east-1",
                                                     "p5.48xlarge") == 41.528);
    assert_true(ecf_pricing_table_get_capacity_block(t, "us-east-1",
                                                     "p4d.24xlarge") == 11.8);
    assert_true(ecf_pricing_table_get_capacity_block(t, "us-east-1",
                                                     "g5.xlarge") < 0);
    memset(&o, 0, sizeof(o));
    o.regions = r_east;
    o.n_regions = 1;
    o.ondemand = t;
    o.generated_at = "2026-11-29T10:00:00Z";
    o.ondemand_as_of = "2026-11-29";
    o.ondemand_origin = "test";
    o.force = true;
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     0);
    cat = load_merged(m->out);
    assert_int_equal(m->rep.capacity_block_updated, 1);
    p = ecf_instance_price(ecf_catalog_find(cat, "p4d.24xlarge"), "us-east-1");
    assert_non_null(p);
    assert_true(p->ondemand_usd_per_hour == 21.957642);
    assert_true(p->capacity_block_usd_per_hour == 11.8);
    /* a type without the block's product has none */
    p = ecf_instance_price(ecf_catalog_find(cat, "g5.xlarge"), "us-east-1");
    assert_false(p && p->capacity_block_usd_per_hour > 0);
    ecf_catalog_free(cat);
    ecf_pricing_table_free(t);
}

static void test_pricing__merge_keeps_big_moves_unless_forced(void **state)
{
    merge_fx *m = *state;
    static const char *const types[] = {"p4d.24xlarge", "g5.xlarge",
                                        "inf2.xlarge", "m5.large"};
    static const char *const prices[] = {"219.57642", "1.006", "0.7582",
                                         "0.096"};
    ecf_pricing_table *t = table_of("us-west-2", types, prices, 4);
    ecf_err err = ECF_ERR_INIT;
    ecf_pricing_merge_opts o;
    ecf_catalog *cat;
    const ecf_price *p;

    memset(&o, 0, sizeof(o));
    o.regions = r_both + 1;
    o.n_regions = 1;
    o.ondemand = t;
    o.ondemand_as_of = "2026-11-29";
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     0);
    assert_int_equal(m->rep.ondemand_kept, 1);
    assert_int_equal(m->rep.ondemand_added, 1); /* m5.large us-west-2 */
    assert_int_equal(m->rep.n_notes, 1);
    assert_string_equal(m->rep.notes[0],
                        "p4d.24xlarge us-west-2: on-demand price moved 10.0x "
                        "(21.9576 -> 219.576); kept 21.9576 (use --force to "
                        "accept)");
    cat = load_merged(m->out);
    p = ecf_instance_price(ecf_catalog_find(cat, "p4d.24xlarge"), "us-west-2");
    assert_true(p->ondemand_usd_per_hour == 21.95764);
    p = ecf_instance_price(ecf_catalog_find(cat, "m5.large"), "us-west-2");
    assert_non_null(p);
    assert_true(p->spot_usd_per_hour < 0); /* no spot data for a new pair */
    ecf_catalog_free(cat);
    free(m->out);
    ecf_pricing_report_dispose(&m->rep);

    o.force = true;
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     0);
    assert_non_null(strstr(m->rep.notes[0], "accepted because of --force"));
    cat = load_merged(m->out);
    p = ecf_instance_price(ecf_catalog_find(cat, "p4d.24xlarge"), "us-west-2");
    assert_true(p->ondemand_usd_per_hour == 219.57642);
    ecf_catalog_free(cat);
    ecf_pricing_table_free(t);
}

static void test_pricing__merge_refuses_shrinking_ondemand(void **state)
{
    merge_fx *m = *state;
    static const char *const types[] = {"m5.large", "t3.micro"};
    static const char *const prices[] = {"0.096", "0.0104"};
    ecf_pricing_table *t = table_of("us-east-1", types, prices, 2);
    ecf_err err = ECF_ERR_INIT;
    ecf_pricing_merge_opts o;

    memset(&o, 0, sizeof(o));
    o.regions = r_east;
    o.n_regions = 1;
    o.ondemand = t;
    o.ondemand_as_of = "2026-11-29";
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     ECF_ERR);
    assert_null(m->out);
    assert_string_equal(err.msg, "on-demand prices: coverage would shrink "
                                 "from 8 to 2 (type, region) pairs; use "
                                 "--force to accept");
    ecf_pricing_report_dispose(&m->rep);
    o.force = true;
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     0);
    assert_int_equal(m->rep.ondemand_removed, 6);
    ecf_catalog_free(load_merged(m->out));
    ecf_pricing_table_free(t);
}

static void test_pricing__merge_spot_and_coverage(void **state)
{
    merge_fx *m = *state;
    ecf_buf full = slurp("spot.json"), half = slurp("spot_half.json");
    ecf_spot_table *s = NULL;
    ecf_err err = ECF_ERR_INIT;
    ecf_pricing_merge_opts o;
    ecf_catalog *cat;
    const ecf_price *p;

    memset(&o, 0, sizeof(o));
    o.regions = r_both;
    o.n_regions = 2;
    o.spot_as_of = "2026-11-28";
    assert_int_equal(ecf_spot_parse(&s, full.data, full.len, r_both, 2, &err),
                     0);
    o.spot = s;
    /* p4d.24xlarge us-east-1 moves from 67% to 25%: 42 points, over the
     * 30-point limit, so it is kept and reported unless forced. */
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     0);
    assert_int_equal(m->rep.spot_updated, 10);
    assert_int_equal(m->rep.spot_kept, 1);
    assert_int_equal(m->rep.n_notes, 1);
    assert_string_equal(m->rep.notes[0],
                        "p4d.24xlarge us-east-1: spot savings moved 42 points "
                        "(67% -> 25%); kept 67% (use --force to accept)");
    cat = load_merged(m->out);
    p = ecf_instance_price(ecf_catalog_find(cat, "p4d.24xlarge"), "us-east-1");
    assert_int_equal(p->spot_savings_pct, 67);
    ecf_catalog_free(cat);
    free(m->out);
    ecf_pricing_report_dispose(&m->rep);

    o.force = true;
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     0);
    o.force = false;
    assert_int_equal(m->rep.spot_updated, 11);
    assert_int_equal(m->rep.spot_forced, 1);
    assert_string_equal(m->rep.notes[0],
                        "p4d.24xlarge us-east-1: spot savings moved 42 points "
                        "(67% -> 25%); accepted because of --force");
    cat = load_merged(m->out);
    assert_string_equal(ecf_catalog_as_of(cat), "2026-11-28");
    p = ecf_instance_price(ecf_catalog_find(cat, "p4d.24xlarge"), "us-east-1");
    /* 25% off the 21.957642 on-demand price */
    assert_int_equal(p->spot_savings_pct, 25);
    assert_float_equal(p->spot_usd_per_hour, 21.957642 * 0.75, 1e-6);
    assert_int_equal(p->interruption_band, 2);
    ecf_catalog_free(cat);
    ecf_spot_table_free(s);
    free(m->out);
    ecf_pricing_report_dispose(&m->rep);

    assert_int_equal(ecf_spot_parse(&s, half.data, half.len, r_both, 2, &err),
                     0);
    o.spot = s;
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     ECF_ERR);
    assert_string_equal(err.msg, "spot advisor: coverage would shrink from 11 "
                                 "to 6 (type, region) pairs; use --force to "
                                 "accept");
    ecf_pricing_report_dispose(&m->rep);
    o.force = true;
    assert_int_equal(ecf_pricing_merge(&m->out, &m->rep, m->base.data,
                                       m->base.len, &o, &err),
                     0);
    assert_int_equal(m->rep.spot_removed, 5);
    cat = load_merged(m->out);
    p = ecf_instance_price(ecf_catalog_find(cat, "t3.micro"), "us-east-1");
    assert_true(p->spot_usd_per_hour < 0);
    assert_int_equal(p->interruption_band, -1);
    ecf_catalog_free(cat);
    ecf_spot_table_free(s);
    ecf_buf_dispose(&full);
    ecf_buf_dispose(&half);
}

static void test_pricing__merge_rejects_non_catalog(void **state)
{
    ecf_pricing_report rep = ECF_PRICING_REPORT_INIT;
    ecf_pricing_merge_opts o;
    ecf_err err = ECF_ERR_INIT;
    char *out = NULL;
    (void)state;
    memset(&o, 0, sizeof(o));
    assert_int_equal(ecf_pricing_merge(&out, &rep, "[1]", 3, &o, &err),
                     ECF_EPARSE);
    assert_int_equal(ecf_pricing_merge(&out, &rep, "{", 1, &o, &err),
                     ECF_EPARSE);
    assert_null(out);
    ecf_pricing_report_dispose(&rep);
}

/* The family reference: per vCPU for plain types, per accelerator
 * (count x fraction) for accelerated ones; bounds 0.2x and 5x inclusive. */
static void test_pricing__new_price_family_median(void **state)
{
    static const char *const doc =
        "[{\"type\":\"g6.xlarge\",\"family\":\"g6\",\"vcpu\":4,"
        "\"accelerator\":{\"count\":1},\"prices\":{"
        "\"us-east-1\":{\"ondemand_usd_per_hour\":0.8},"
        "\"us-west-2\":{\"ondemand_usd_per_hour\":1.0}}},"
        "{\"type\":\"g6.12xlarge\",\"family\":\"g6\",\"vcpu\":48,"
        "\"accelerator\":{\"count\":4},\"prices\":{"
        "\"us-east-1\":{\"ondemand_usd_per_hour\":4.8}}},"
        "{\"type\":\"g6f.large\",\"family\":\"g6\",\"vcpu\":2,"
        "\"accelerator\":{\"count\":1,\"fraction\":0.125},\"prices\":{}},"
        "{\"type\":\"c7.large\",\"family\":\"c7\",\"vcpu\":2,"
        "\"accelerator\":null,\"prices\":{}}]";
    cJSON *arr = cJSON_Parse(doc);
    pricing_medians *m;
    char msg[512] = "";
    (void)state;

    assert_non_null(arr);
    m = ecf_pricing_medians_new(arr);
    /* g6 per accelerator: 0.8, 1.0, 1.2 -> median 1.0. g6f.large has an
     * eighth of one: 1.0/8 = 0.125 $/h is exactly on the median. */
    assert_int_equal(ecf_pricing_check_new_price(msg, sizeof(msg), m,
                                             cJSON_GetArrayItem(arr, 2),
                                             "g6f.large", "eu-west-1", 0.125,
                                             false),
                     PRICING_OK);
    /* 5x is allowed, more is not; 0.2x is allowed, less is not */
    assert_int_equal(ecf_pricing_check_new_price(msg, sizeof(msg), m,
                                             cJSON_GetArrayItem(arr, 2),
                                             "g6f.large", "eu-west-1", 0.625,
                                             false),
                     PRICING_OK);
    assert_int_equal(ecf_pricing_check_new_price(msg, sizeof(msg), m,
                                             cJSON_GetArrayItem(arr, 2),
                                             "g6f.large", "eu-west-1", 0.63,
                                             false),
                     PRICING_REJECTED);
    assert_string_equal(msg, "g6f.large eu-west-1: new on-demand price 0.63 "
                             "is 5.04x the g6 median of 1 per accelerator "
                             "(allowed 0.2x-5x); not added (use --force to "
                             "accept)");
    assert_int_equal(ecf_pricing_check_new_price(msg, sizeof(msg), m,
                                             cJSON_GetArrayItem(arr, 0),
                                             "g6.xlarge", "eu-west-1", 0.2,
                                             false),
                     PRICING_OK);
    assert_int_equal(ecf_pricing_check_new_price(msg, sizeof(msg), m,
                                             cJSON_GetArrayItem(arr, 0),
                                             "g6.xlarge", "eu-west-1", 0.19,
                                             true),
                     PRICING_FORCED);
    assert_non_null(strstr(msg, "accepted because of --force"));
    /* no priced c7: nothing to compare with */
    assert_int_equal(ecf_pricing_check_new_price(msg, sizeof(msg), m,
                                             cJSON_GetArrayItem(arr, 3),
                                             "c7.large", "us-east-1", 1000,
                                             false),
                     PRICING_OK);
    ecf_pricing_medians_free(m);
    cJSON_Delete(arr);
}

/* Spot savings: -100..95 always; a move over 30 points needs force. */
static void test_pricing__spot_bounds(void **state)
{
    cJSON *e = cJSON_Parse("{\"spot_savings_pct\":60}");
    cJSON *none = cJSON_Parse("{\"spot_savings_pct\":null}");
    char msg[512] = "";
    (void)state;

    assert_int_equal(ecf_pricing_check_spot(msg, sizeof(msg), e, "t", "r", 90,
                                        false),
                     PRICING_OK); /* exactly 30 points */
    assert_int_equal(ecf_pricing_check_spot(msg, sizeof(msg), e, "t", "r", 29,
                                        false),
                     PRICING_REJECTED);
    assert_string_equal(msg, "t r: spot savings moved 31 points (60% -> "
                             "29%); kept 60% (use --force to accept)");
    assert_int_equal(ecf_pricing_check_spot(msg, sizeof(msg), e, "t", "r", 29,
                                        true),
                     PRICING_FORCED);
    assert_int_equal(ecf_pricing_check_spot(msg, sizeof(msg), none, "t", "r", 95,
                                        false),
                     PRICING_OK);
    assert_int_equal(ecf_pricing_check_spot(msg, sizeof(msg), none, "t", "r", 96,
                                        true),
                     PRICING_REJECTED);
    assert_string_equal(msg, "t r: spot savings 96% outside 1..95%; "
                             "rejected, kept the previous spot data");
    assert_int_equal(ecf_pricing_check_spot(msg, sizeof(msg), none, "t", "r",
                                        1, false),
                     PRICING_OK);
    /* spot at or above on-demand (savings <= 0) is dropped, naming the row:
     * the Spot Advisor's ca-central-1 p5.48xlarge -62% (issue 26) */
    assert_int_equal(ecf_pricing_check_spot(msg, sizeof(msg), none, "p5.48xlarge",
                                        "ca-central-1", -62, true),
                     PRICING_REJECTED);
    assert_string_equal(msg, "p5.48xlarge ca-central-1: spot savings -62% "
                             "outside 1..95%; rejected, kept the previous "
                             "spot data");
    assert_int_equal(ecf_pricing_check_spot(msg, sizeof(msg), none, "t", "r", 0,
                                        false),
                     PRICING_REJECTED);
    assert_int_equal(ecf_pricing_check_spot(msg, sizeof(msg), none, "t", "r",
                                        -101, true),
                     PRICING_REJECTED);
    cJSON_Delete(e);
    cJSON_Delete(none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pricing__request_body),
        cmocka_unit_test(test_pricing__parses_pages),
        cmocka_unit_test(test_pricing__rejects_ambiguous_and_zero),
        cmocka_unit_test(test_pricing__rejects_bad_pages),
        cmocka_unit_test(test_pricing__empty_tables),
        cmocka_unit_test(test_pricing__spot_feed),
        cmocka_unit_test(test_pricing__spot_feed_rejects_bad_values),
        cmocka_unit_test(test_pricing__error_message),
        cmocka_unit_test(test_pricing__new_price_family_median),
        cmocka_unit_test(test_pricing__spot_bounds),
        cmocka_unit_test_setup_teardown(
            test_pricing__merge_updates_adds_and_validates, merge_setup,
            merge_teardown),
        cmocka_unit_test_setup_teardown(
            test_pricing__merge_keeps_big_moves_unless_forced, merge_setup,
            merge_teardown),
        cmocka_unit_test_setup_teardown(
            test_pricing__merge_refuses_shrinking_ondemand, merge_setup,
            merge_teardown),
        cmocka_unit_test_setup_teardown(test_pricing__merge_spot_and_coverage,
                                        merge_setup, merge_teardown),
        cmocka_unit_test(test_pricing__merge_rejects_non_catalog),
        cmocka_unit_test_setup_teardown(test_pricing__merge_reserved_1y,
                                        merge_setup, merge_teardown),
        cmocka_unit_test_setup_teardown(test_pricing__merge_capacity_block,
                                        merge_setup, merge_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
