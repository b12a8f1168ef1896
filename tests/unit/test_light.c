/* test_light.c - the light-inference data (Lambda, Lightsail): the embedded
 * data against values copied by hand from data/sources, the cost
 * helpers against hand-computed bills, and invalid documents, each with its
 * exact message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/light.h"

#include "data_file.h"

static ecf_light *embedded(void)
{
    ecf_light *light = NULL;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_light_embedded(&light, &err), 0);
    assert_non_null(light);
    return light;
}

/* Replaces the first `from` in the embedded document with `to`, loads the
 * result and checks it fails with `code` and exactly `msg`. */
static void
expect_error(const char *from, const char *to, ecf_code code, const char *msg)
{
    char *text = read_data("light.json", NULL);
    char *at = strstr(text, from);
    char *doc;
    size_t head, len;
    ecf_light *light = NULL;
    ecf_err err = ECF_ERR_INIT;

    if (!at)
        fail_msg("\"%s\" not found in data/light.json", from);
    head = (size_t)(at - text);
    len = strlen(text) - strlen(from) + strlen(to);
    doc = malloc(len + 1);
    assert_non_null(doc);
    memcpy(doc, text, head);
    memcpy(doc + head, to, strlen(to));
    strcpy(doc + head + strlen(to), at + strlen(from));
    assert_int_equal(
        ecf_light_load_buffer(&light, doc, len, "light.json", &err), code);
    assert_null(light);
    assert_int_equal(err.code, code);
    assert_string_equal(err.msg, msg);
    free(doc);
    free(text);
}

static void expect_error_doc(const char *doc, const char *msg)
{
    ecf_light *light = NULL;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(
        ecf_light_load_buffer(&light, doc, strlen(doc), "light.json", &err),
        ECF_EPARSE);
    assert_null(light);
    assert_string_equal(err.msg, msg);
}

/* ------------------------------------------------------------------ */
/* Embedded data = the reference CSVs                                 */
/* ------------------------------------------------------------------ */

static void test_light__lambda_matches_reference(void **state)
{
    ecf_light *light = embedded();
    const ecf_lambda_pricing *p = ecf_light_lambda(light);
    (void)state;
    /* lambda_pricing.csv: request_price 0.20 USD per 1M requests;
     * duration_price_x86_tier1 0.0000166667 and duration_price_arm_tier1
     * 0.0000133334 USD per GB-second (us-east-1); free tier 1000000
     * requests and 400000 GB-seconds; memory 128..10240 MB; timeout 900 s;
     * "1 vCPU at 1769 MB"; vcpu_max 6; ephemeral_storage_max 10240 MB;
     * billing_granularity 1 ms; gpu_support none. */
    assert_string_equal(p->region, "us-east-1");
    assert_string_equal(p->as_of, "2026-11-29");
    assert_non_null(strstr(p->as_of_note, "2025-2026"));
    assert_string_equal(p->source, "https://aws.amazon.com/lambda/pricing/");
    assert_non_null(strstr(p->notes, "max_vcpus (vcpu_max) is medium"));
    assert_true(p->request_usd_per_million == 0.20);
    assert_true(p->gb_second_usd_x86 == 0.0000166667);
    assert_true(p->gb_second_usd_arm64 == 0.0000133334);
    assert_true(p->free_requests_per_month == 1000000.0);
    assert_true(p->free_gb_seconds_per_month == 400000.0);
    assert_int_equal(p->min_memory_mb, 128);
    assert_int_equal(p->max_memory_mb, 10240);
    assert_int_equal(p->max_timeout_s, 900);
    assert_true(p->mb_per_vcpu == 1769.0);
    assert_int_equal(p->max_vcpus, 6);
    assert_int_equal(p->ephemeral_storage_max_mb, 10240);
    assert_int_equal(p->billing_granularity_ms, 1);
    assert_false(p->gpu);
    ecf_light_free(light);
}

static void test_light__lightsail_matches_reference(void **state)
{
    ecf_light *light = embedded();
    const ecf_lightsail_bundle *b;
    size_t i;
    (void)state;
    /* lightsail_bundles.csv, Linux dual-stack price column:
     * nano_3_0,linux,5,...,2 vCPU,0.5 GB,20 GB SSD,1 TB,5 % baseline */
    assert_string_equal(ecf_light_lightsail(light)->source,
                        "https://docs.aws.amazon.com/lightsail/latest/"
                        "userguide/baseline-cpu-performance.html");
    assert_string_equal(ecf_light_lightsail(light)->as_of, "2026-11-29");
    assert_non_null(strstr(ecf_light_lightsail(light)->notes, "dual-stack"));
    assert_int_equal(ecf_light_bundle_count(light), 8);
    b = ecf_light_bundle_at(light, 0);
    assert_string_equal(b->id, "nano_3_0");
    assert_true(b->usd_per_month == 5.0);
    assert_int_equal(b->vcpu, 2);
    assert_true(b->memory_gb == 0.5);
    assert_true(b->ssd_gb == 20.0);
    assert_true(b->transfer_tb_month == 1.0);
    assert_true(b->baseline_cpu_pct_per_vcpu == 5.0);
    assert_non_null(strstr(b->notes, "$0.0067/hour"));
    assert_non_null(strstr(b->confidence, "medium (ipv6 price + transfer)"));
    /* 4xlarge_3_0,linux,384,,,16,64,1280,8,40 */
    b = ecf_light_bundle_find(light, "4xlarge_3_0");
    assert_non_null(b);
    assert_ptr_equal(b, ecf_light_bundle_at(light, 7));
    assert_true(b->usd_per_month == 384.0);
    assert_int_equal(b->vcpu, 16);
    assert_true(b->memory_gb == 64.0);
    assert_true(b->ssd_gb == 1280.0);
    assert_true(b->transfer_tb_month == 8.0);
    assert_true(b->baseline_cpu_pct_per_vcpu == 40.0);
    /* small_3_0,linux,12 (not the IPv6-only 10 or the Windows 22) */
    assert_true(ecf_light_bundle_find(light, "small_3_0")->usd_per_month ==
                12.0);
    assert_null(ecf_light_bundle_find(light, "nano_2_0"));
    assert_null(ecf_light_bundle_at(light, 8));
    for (i = 1; i < ecf_light_bundle_count(light); i++)
        assert_true(ecf_light_bundle_at(light, i - 1)->usd_per_month <=
                    ecf_light_bundle_at(light, i)->usd_per_month);
    ecf_light_free(light);
    ecf_light_free(NULL);
}

/* ------------------------------------------------------------------ */
/* Cost helpers                                                       */
/* ------------------------------------------------------------------ */

static void test_light__lambda_cost_by_hand(void **state)
{
    ecf_light *light = embedded();
    const ecf_lambda_pricing *p = ecf_light_lambda(light);
    (void)state;
    /* 1M requests/month, 200 ms, 2048 MB, x86, no free tier:
     *   requests  1e6 / 1e6 * 0.20                   = 0.20
     *   duration  1e6 * 0.2 s * 2 GB = 400,000 GB-s
     *             400,000 * 0.0000166667             = 6.66668
     *   total                                        = 6.866680 */
    assert_float_equal(ecf_lambda_monthly_usd(p, 1e6, 0.2, 2048, false, false),
                       6.86668, 1e-9);
    /* arm64: 0.20 + 400,000 * 0.0000133334 = 0.20 + 5.33336 = 5.53336 */
    assert_float_equal(ecf_lambda_monthly_usd(p, 1e6, 0.2, 2048, true, false),
                       5.53336, 1e-9);
    /* Rounding: 10.1 ms bills as 11 ms; 100 MB runs at the 128 MB minimum
     * (0.125 GB): 1e6 * 0.011 s * 0.125 GB = 1,375 GB-s
     *   1,375 * 0.0000166667 = 0.0229167125; + 0.20 = 0.2229167125 */
    assert_float_equal(
        ecf_lambda_monthly_usd(p, 1e6, 0.0101, 100, false, false), 0.2229167125,
        1e-12);
    /* 1000.2 MB is configured as 1001 MB: 1e6 * 0.1 s * 1001/1024 GB
     *   = 97,753.90625 GB-s * 0.0000166667 = 1.62923502..; + 0.20 */
    assert_float_equal(
        ecf_lambda_monthly_usd(p, 1e6, 0.1, 1000.2, false, false),
        0.20 + 97753.90625 * 0.0000166667, 1e-12);
    /* 20,000 MB is clamped to 10,240 MB = 10 GB:
     *   1e6 * 0.1 * 10 = 1e6 GB-s * 0.0000166667 = 16.6667; + 0.20 */
    assert_float_equal(ecf_lambda_monthly_usd(p, 1e6, 0.1, 20000, false, false),
                       16.8667, 1e-9);
    /* 0.1 + 0.2 s is 300 ms, not 301 (binary rounding of the sum):
     *   1e6 * 0.3 * 1 GB * 0.0000166667 = 5.00001; + 0.20 */
    assert_float_equal(
        ecf_lambda_monthly_usd(p, 1e6, 0.1 + 0.2, 1024, false, false), 5.20001,
        1e-9);
    /* 0 s still bills 1 ms: 1e6 * 0.001 * 1 GB = 1,000 GB-s = 0.0166667 */
    assert_float_equal(ecf_lambda_monthly_usd(p, 1e6, 0, 1024, false, false),
                       0.2166667, 1e-12);
    assert_true(ecf_lambda_monthly_usd(p, 0, 0.2, 2048, false, false) == 0);
    assert_true(isnan(ecf_lambda_monthly_usd(p, -1, 0.2, 2048, false, false)));
    assert_true(isnan(ecf_lambda_monthly_usd(p, 1, NAN, 2048, false, false)));
    assert_true(isnan(ecf_lambda_monthly_usd(NULL, 1, 1, 2048, false, false)));
    ecf_light_free(light);
}

static void test_light__lambda_free_tier(void **state)
{
    ecf_light *light = embedded();
    const ecf_lambda_pricing *p = ecf_light_lambda(light);
    (void)state;
    /* 1M requests, 200 ms, 2 GB = 400,000 GB-s: exactly the free tier. */
    assert_true(ecf_lambda_monthly_usd(p, 1e6, 0.2, 2048, false, true) == 0);
    /* 3M requests, 200 ms, 2 GB:
     *   requests (3e6 - 1e6) / 1e6 * 0.20                = 0.40
     *   duration 3e6 * 0.2 * 2 = 1,200,000 - 400,000 GB-s
     *            800,000 * 0.0000166667                  = 13.33336
     *   total                                            = 13.73336 */
    assert_float_equal(ecf_lambda_monthly_usd(p, 3e6, 0.2, 2048, false, true),
                       13.73336, 1e-9);
    /* Requests over, compute under: 2M requests, 10 ms, 128 MB:
     *   (2e6 - 1e6) / 1e6 * 0.20 = 0.20; 2,500 GB-s < 400,000 -> 0 */
    assert_float_equal(ecf_lambda_monthly_usd(p, 2e6, 0.01, 128, false, true),
                       0.20, 1e-12);
    ecf_light_free(light);
}

static void test_light__lambda_vcpus_and_fit(void **state)
{
    ecf_light *light = embedded();
    const ecf_lambda_pricing *p = ecf_light_lambda(light);
    (void)state;
    assert_true(ecf_lambda_vcpus(p, 1769) == 1.0);
    assert_true(ecf_lambda_vcpus(p, 3538) == 2.0);
    /* 10240 / 1769 = 5.788..., below the quoted 6: the rule errs low */
    assert_float_equal(ecf_lambda_vcpus(p, 10240), 10240.0 / 1769.0, 1e-12);
    assert_true(ecf_lambda_vcpus(p, 20000) == 6.0);
    assert_true(isnan(ecf_lambda_vcpus(p, -5)));
    assert_true(ecf_lambda_fits(p, 900, 10240));
    assert_false(ecf_lambda_fits(p, 900.5, 1024));
    assert_false(ecf_lambda_fits(p, 1, 10240.5));
    assert_false(ecf_lambda_fits(p, -1, 1024));
    ecf_light_free(light);
}

static void test_light__lightsail_hourly(void **state)
{
    ecf_light *light = embedded();
    const ecf_lightsail_bundle *nano = ecf_light_bundle_find(light, "nano_3_0");
    double h = ecf_lightsail_hourly_usd(nano);
    (void)state;
    /* $5 / 744 h = 0.00672043..., which AWS publishes as "$0.0067/hour"
     * (5 / 730 = 0.00685 would round to 0.0068). */
    assert_float_equal(h, 5.0 / 744.0, 1e-15);
    assert_float_equal(round(h * 1e4) / 1e4, 0.0067, 1e-12);
    assert_float_equal(
        ecf_lightsail_hourly_usd(ecf_light_bundle_find(light, "4xlarge_3_0")),
        384.0 / 744.0, 1e-15);
    assert_true(isnan(ecf_lightsail_hourly_usd(NULL)));
    ecf_light_free(light);
}

/* ------------------------------------------------------------------ */
/* Invalid documents                                                  */
/* ------------------------------------------------------------------ */

static void test_light__rejects_missing_key(void **state)
{
    (void)state;
    expect_error("\"max_timeout_s\": 900,", "", ECF_EPARSE,
                 "light.json: lambda.max_timeout_s: missing required key");
    expect_error("\"lightsail\": {", "\"lightsale\": {", ECF_EPARSE,
                 "light.json: lightsail: missing required key");
    expect_error("\"id\":\"micro_3_0\",", "", ECF_EPARSE,
                 "light.json: lightsail.bundles[1].id: missing required key");
}

static void test_light__rejects_bad_price(void **state)
{
    (void)state;
    expect_error("\"request_usd_per_million\": 0.2",
                 "\"request_usd_per_million\": -0.2", ECF_EPARSE,
                 "light.json: lambda.request_usd_per_million: expected a "
                 "positive number");
    expect_error("\"gb_second_usd_arm64\": 0.0000133334",
                 "\"gb_second_usd_arm64\": 0", ECF_EPARSE,
                 "light.json: lambda.gb_second_usd_arm64: expected a positive "
                 "number");
    expect_error("\"usd_per_month\":24,", "\"usd_per_month\":-24,", ECF_EPARSE,
                 "light.json: lightsail.bundles[3].usd_per_month: expected a "
                 "positive number");
}

static void test_light__rejects_wrong_type(void **state)
{
    (void)state;
    expect_error("\"gpu\": false", "\"gpu\": 0", ECF_EPARSE,
                 "light.json: lambda.gpu: expected true or false");
    expect_error("\"max_memory_mb\": 10240", "\"max_memory_mb\": \"10240\"",
                 ECF_EPARSE,
                 "light.json: lambda.max_memory_mb: expected a positive "
                 "integer");
    expect_error("\"vcpu\":2,", "\"vcpu\":2.5,", ECF_EPARSE,
                 "light.json: lightsail.bundles[0].vcpu: expected a positive "
                 "integer");
    expect_error("\"region\": \"us-east-1\"", "\"region\": null", ECF_EPARSE,
                 "light.json: lambda.region: expected a string");
    expect_error("\"as_of\": \"2026-11-29\"", "\"as_of\": \"Nov 2026\"",
                 ECF_EPARSE,
                 "light.json: lambda.as_of: expected a date YYYY-MM-DD");
    expect_error("\"schema_version\": 1", "\"schema_version\": 2", ECF_EPARSE,
                 "light.json: schema_version: unsupported version 2 (this "
                 "ec2fit reads version 1)");
    expect_error_doc("[]", "light.json: (top level): expected a JSON object");
}

static void test_light__rejects_bad_json_with_offset(void **state)
{
    (void)state;
    /* {"lambda": {"x": tru}}
     * 0         1111111
     * 0123456789 0123456  -> "tru" starts at byte 17 */
    expect_error_doc("{\"lambda\": {\"x\": tru}}",
                     "light.json: invalid JSON at byte offset 17");
}

static void test_light__rejects_max_below_min_memory(void **state)
{
    (void)state;
    expect_error("\"max_memory_mb\": 10240", "\"max_memory_mb\": 100",
                 ECF_EPARSE,
                 "light.json: lambda.max_memory_mb: 100 is less than "
                 "min_memory_mb 128");
}

static void test_light__rejects_bad_bundle_list(void **state)
{
    char *text = read_data("light.json", NULL);
    char *cut = strstr(text, "\"bundles\": [");
    char doc[8192];
    (void)state;
    assert_non_null(cut);
    /* Everything up to the list, then an empty list. */
    assert_true((size_t)(cut - text) + 64 < sizeof(doc));
    snprintf(doc, sizeof(doc), "%.*s\"bundles\": []}}", (int)(cut - text),
             text);
    expect_error_doc(doc, "light.json: lightsail.bundles: expected at least "
                          "one bundle");
    snprintf(doc, sizeof(doc), "%.*s\"bundles\": {}}}", (int)(cut - text),
             text);
    expect_error_doc(doc, "light.json: lightsail.bundles: expected an array");
    free(text);
    expect_error("\"id\":\"micro_3_0\"", "\"id\":\"nano_3_0\"", ECF_EPARSE,
                 "light.json: lightsail.bundles[1].id: duplicate bundle id "
                 "\"nano_3_0\"");
    expect_error("\"baseline_cpu_pct_per_vcpu\":5,",
                 "\"baseline_cpu_pct_per_vcpu\":500,", ECF_EPARSE,
                 "light.json: lightsail.bundles[0].baseline_cpu_pct_per_vcpu: "
                 "500 is over 100");
}

static void test_light__rejects_oversized_input(void **state)
{
    ecf_light *light = NULL;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_light_load_buffer(
                         &light, "{}", ECF_LIGHT_MAX_BYTES + 1u, "big", &err),
                     ECF_EINVAL);
    assert_null(light);
    assert_string_equal(err.msg, "big: 1048577 bytes exceed the size limit "
                                 "of 1048576 bytes");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_light__lambda_matches_reference),
        cmocka_unit_test(test_light__lightsail_matches_reference),
        cmocka_unit_test(test_light__lambda_cost_by_hand),
        cmocka_unit_test(test_light__lambda_free_tier),
        cmocka_unit_test(test_light__lambda_vcpus_and_fit),
        cmocka_unit_test(test_light__lightsail_hourly),
        cmocka_unit_test(test_light__rejects_missing_key),
        cmocka_unit_test(test_light__rejects_bad_price),
        cmocka_unit_test(test_light__rejects_wrong_type),
        cmocka_unit_test(test_light__rejects_bad_json_with_offset),
        cmocka_unit_test(test_light__rejects_max_below_min_memory),
        cmocka_unit_test(test_light__rejects_bad_bundle_list),
        cmocka_unit_test(test_light__rejects_oversized_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
