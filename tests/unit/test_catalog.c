/* test_catalog.c - the catalog loader: the embedded catalog against facts
 * copied by hand from data/sources, and invalid catalogs, each with
 * its exact message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/catalog.h"
#include "ec2fit/dates.h"
#include "ec2fit/fleet.h"

static ecf_catalog *embedded(void)
{
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;
    assert_non_null(data);
    assert_int_equal(ecf_catalog_load_buffer(&cat, data, len, "embedded", &err),
                     0);
    return cat;
}

static void test_catalog__embedded_is_complete(void **state)
{
    ecf_catalog *cat = embedded();
    (void)state;
    /* instance_extras.csv has 1382 types; 1365 have a price and 2 more
     * (p5e, trn2) are accelerator types without a public price. */
    assert_int_equal(ecf_catalog_count(cat), 1367);
    assert_int_equal(ecf_catalog_accel_count(cat), 25);
    assert_string_equal(ecf_catalog_as_of(cat), "2026-07-20");
    /* + cpu_families, + ondemand_by_region, + capacity_blocks,
     * + savings_plans */
    assert_int_equal(ecf_catalog_source_count(cat), 9);
    assert_true(ecf_catalog_has_region(cat, "us-east-1"));
    assert_true(ecf_catalog_has_region(cat, "eu-west-1"));
    assert_false(ecf_catalog_has_region(cat, "us-east-7"));
    ecf_catalog_free(cat);
}

static void test_catalog__p4d_facts_match_reference(void **state)
{
    ecf_catalog *cat = embedded();
    const ecf_instance *in = ecf_catalog_find(cat, "p4d.24xlarge");
    const ecf_price *p;
    (void)state;
    assert_non_null(in);
    /* instance_extras.csv: p4d.24xlarge,p4d,96,1179648 MiB,... 8 a100
     * 40960 MiB, network 400000 Mbps, efa 4, 19000 Mbps EBS, 8000 GB */
    assert_string_equal(in->family, "p4d");
    assert_int_equal(in->vcpu, 96);
    assert_true(in->memory_gib == 1152.0);
    assert_int_equal(in->arch, ECF_ARCH_X86_64);
    assert_non_null(in->accel);
    assert_string_equal(in->accel->id, "a100-40gb");
    assert_int_equal(in->accel_count, 8);
    assert_true(in->accel_memory_gib == 40.0);
    assert_int_equal(in->link, ECF_LINK_NVSWITCH);
    assert_true(in->link_gbytes_s == 600);
    assert_true(in->efa);
    assert_true(in->efa_gbps == 400);
    assert_true(in->network_gbps == 400);
    assert_true(in->nvme_gb == 8000);
    /* accelerators.csv: A100 SXM4 40GB 1555 GB/s, fp32 19.5, tf32 156,
     * fp16/bf16 312, no fp8, int8 624 */
    assert_true(in->accel->memory_bw_gbytes_s == 1555);
    assert_true(in->accel->tflops[ECF_PREC_BF16] == 312);
    assert_true(in->accel->tflops[ECF_PREC_TF32] == 156);
    assert_true(in->accel->tflops[ECF_PREC_FP8] == 0);
    /* ec2_ondemand_us-east-1.csv: p4d.24xlarge,p4d,us-east-1,21.957642 */
    p = ecf_instance_price(in, "us-east-1");
    assert_non_null(p);
    assert_true(fabs(p->ondemand_usd_per_hour - 21.957642) < 1e-9);
    /* spot_advisor us-east-1 Linux p4d.24xlarge: s 67, r 2 */
    assert_int_equal(p->spot_savings_pct, 67);
    assert_int_equal(p->interruption_band, 2);
    assert_true(fabs(p->spot_usd_per_hour - 21.957642 * 0.33) < 1e-6);
    /* ec2_gpu_prices_by_region.csv: p4d.24xlarge,eu-west-1,23.71569 */
    p = ecf_instance_price(in, "eu-west-1");
    assert_non_null(p);
    assert_true(fabs(p->ondemand_usd_per_hour - 23.71569) < 1e-9);
    /* ec2_capacity_blocks.csv (the Capacity Blocks for ML pricing page,
     * 2026-07-22): p4d.24xlarge us-east-1 $11.80; none in eu-west-1 */
    assert_true(ecf_instance_price(in, "us-east-1")
                    ->capacity_block_usd_per_hour == 11.8);
    assert_false(p->capacity_block_usd_per_hour > 0);
    ecf_catalog_free(cat);
}

/* The published Savings Plan rates as packed (AWS Price List bulk files of
 * 2026-09-25 read into nativ-x/fsku @9751637f, data/sources/
 * ec2_savings_plans.csv), and what the purchase options then charge:
 * the published rate, not estimated; a type without one keeps the
 * estimates (the 1-year reserved rate; on-demand x 0.34). */
static void test_catalog__savings_plan_rates(void **state)
{
    ecf_catalog *cat = embedded();
    static const struct {
        const char *type;
        double y1, y3;
    } rows[] = {
        {"p4de.24xlarge", 17.40137, 11.71777},
        {"p5.48xlarge", 34.6752, 23.77728},
        {"p5en.48xlarge", 39.87648, 27.34387},
        {"p6-b200.48xlarge", 89.72208, 49.21897},
        {"p6-b300.48xlarge", 112.1526, 61.52371},
    };
    const ecf_price *p;
    bool est = true;
    size_t i, n_rated = 0;
    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        p = ecf_instance_price(ecf_catalog_find(cat, rows[i].type),
                               "us-east-1");
        assert_non_null(p);
        assert_true(p->savings_plan_1y_usd_per_hour == rows[i].y1);
        assert_true(p->savings_plan_3y_usd_per_hour == rows[i].y3);
        assert_true(ecf_purchase_rate(p, ECF_PURCHASE_SP_1Y, &est) ==
                    rows[i].y1);
        assert_false(est);
        assert_true(ecf_purchase_rate(p, ECF_PURCHASE_SP_3Y, &est) ==
                    rows[i].y3);
        assert_false(est);
    }
    /* p5.48xlarge has no 1-year reserved rate: reserved-1y stays absent */
    p = ecf_instance_price(ecf_catalog_find(cat, "p5.48xlarge"), "us-east-1");
    assert_true(ecf_purchase_rate(p, ECF_PURCHASE_RESERVED_1Y, NULL) < 0);
    /* only us-east-1 is published: p5.48xlarge us-east-2 (on-demand 55.04,
     * no reserved rate) keeps the estimate, on-demand x (1 - 0.66) */
    p = ecf_instance_price(ecf_catalog_find(cat, "p5.48xlarge"), "us-east-2");
    assert_non_null(p);
    assert_false(p->savings_plan_3y_usd_per_hour > 0);
    assert_true(fabs(ecf_purchase_rate(p, ECF_PURCHASE_SP_3Y, &est) -
                     p->ondemand_usd_per_hour * 0.34) < 1e-9);
    assert_true(est);
    assert_true(ecf_purchase_rate(p, ECF_PURCHASE_SP_1Y, NULL) < 0);
    /* g5.xlarge us-east-1: savings-plan-1y is its reserved rate, estimated */
    p = ecf_instance_price(ecf_catalog_find(cat, "g5.xlarge"), "us-east-1");
    assert_true(ecf_purchase_rate(p, ECF_PURCHASE_SP_1Y, &est) ==
                p->reserved_1y_usd_per_hour);
    assert_true(est);
    for (i = 0; i < ecf_catalog_count(cat); i++) {
        const ecf_instance *in = ecf_catalog_at(cat, i);
        size_t k;
        for (k = 0; k < in->n_prices; k++)
            n_rated += in->prices[k].savings_plan_1y_usd_per_hour > 0;
    }
    assert_int_equal(n_rated, 5);
    ecf_catalog_free(cat);
}

/* The published Capacity Blocks for ML rates as packed (the pricing page's
 * "Effective Instance Hourly Rate", 2026-07-22): a pair AWS lists has its
 * rate; a pair it does not list has none. */
static void test_catalog__capacity_block_rates(void **state)
{
    ecf_catalog *cat = embedded();
    static const struct {
        const char *type, *region;
        double rate; /* <= 0: none published */
    } rows[] = {
        {"p5.48xlarge", "us-east-1", 41.528},
        {"p5.48xlarge", "us-east-2", 41.528},
        {"p5.48xlarge", "ap-northeast-1", 37.76},
        {"p5en.48xlarge", "us-east-1", 54.92},
        {"p5en.48xlarge", "ap-south-1", 49.928},
        {"trn1.32xlarge", "us-east-1", 9.532},
        {"p6-b200.48xlarge", "us-east-1", 98.84},
        {"p4de.24xlarge", "us-west-2", 17.712},
        {"p5.48xlarge", "eu-central-1", 0}, /* not on the page */
        {"g5.xlarge", "us-east-1", 0},    /* not a Capacity Blocks type */
        {"p4d.24xlarge", "eu-west-1", 0}, /* p4d: us-east-1/2, us-west-2 */
    };
    size_t i, n_rated = 0;
    (void)state;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const ecf_instance *in = ecf_catalog_find(cat, rows[i].type);
        const ecf_price *p;
        assert_non_null(in);
        p = ecf_instance_price(in, rows[i].region);
        if (rows[i].rate > 0) {
            assert_non_null(p);
            assert_true(p->capacity_block_usd_per_hour == rows[i].rate);
        } else {
            assert_false(p && p->capacity_block_usd_per_hour > 0);
        }
    }
    /* 42 of the page's 69 rows price a (type, region) the catalog has */
    for (i = 0; i < ecf_catalog_count(cat); i++) {
        const ecf_instance *in = ecf_catalog_at(cat, i);
        size_t k;
        for (k = 0; k < in->n_prices; k++)
            n_rated += in->prices[k].capacity_block_usd_per_hour > 0;
    }
    assert_int_equal(n_rated, 42);
    ecf_catalog_free(cat);
}

/* Spot Advisor savings at the feed's 90 % ceiling give no spot price:
 * p4de.24xlarge ap-northeast-1 and eu-central-1 (s 90, r 0) were priced
 * 90 % below on-demand ($3.76/h, $3.43/h) and ranked 1 for training. A
 * row below the ceiling keeps its estimate: p4de us-east-1, s 65. */
static void test_catalog__spot_ceiling_is_no_estimate(void **state)
{
    ecf_catalog *cat = embedded();
    const ecf_instance *in = ecf_catalog_find(cat, "p4de.24xlarge");
    const char *const capped[] = {"ap-northeast-1", "eu-central-1"};
    const ecf_price *p;
    size_t i;
    (void)state;
    assert_non_null(in);
    for (i = 0; i < 2; i++) {
        p = ecf_instance_price(in, capped[i]);
        assert_non_null(p);
        assert_true(p->ondemand_usd_per_hour > 30);
        assert_int_equal(p->spot_savings_pct, 90);
        assert_int_equal(p->interruption_band, 0);
        assert_true(p->spot_usd_per_hour == ECF_PRICE_UNKNOWN);
    }
    p = ecf_instance_price(in, "us-east-1");
    assert_non_null(p);
    assert_int_equal(p->spot_savings_pct, 65);
    assert_true(fabs(p->spot_usd_per_hour - p->ondemand_usd_per_hour * 0.35) <
                1e-5);
    ecf_catalog_free(cat);
}

static void test_catalog__unpriced_and_cpu_types(void **state)
{
    ecf_catalog *cat = embedded();
    const ecf_instance *in;
    (void)state;
    /* p5e.48xlarge: no public on-demand price (SOURCES.md, gaps) */
    in = ecf_catalog_find(cat, "p5e.48xlarge");
    assert_non_null(in);
    assert_int_equal(in->n_prices, 0);
    assert_int_equal(in->accel_count, 8);
    assert_string_equal(in->accel->id, "h200");
    /* c8i.large: newer than the SkyPilot snapshot; its 17 regions come
     * from anycloud-sh/catalog aws/vms.csv (SOURCES.md 9a, session 11,
     * h11b), eu-west-1 0.10055 */
    in = ecf_catalog_find(cat, "c8i.large");
    assert_non_null(in);
    assert_null(in->accel);
    assert_int_equal(in->accel_count, 0);
    assert_int_equal(in->n_prices, 17);
    assert_true(fabs(ecf_instance_price(in, "eu-west-1")->ondemand_usd_per_hour -
                     0.10055) < 1e-12);
    /* a type whose source row disagrees with the us-east-1 file is left
     * out of the regional rows: us-east-1 only (no invented regional
     * prices); c8i.metal-48xl's anycloud us-east-1 row is 8.99616 against
     * the file's 9.89578 */
    in = ecf_catalog_find(cat, "c8i.metal-48xl");
    assert_non_null(in);
    assert_int_equal(in->n_prices, 1);
    assert_string_equal(in->prices[0].region, "us-east-1");
    /* r7i.large: the 18 regions the SkyPilot snapshot offers it in
     * (SOURCES.md 9a) and ap-southeast-4, eu-south-2 from anycloud
     * (session 11, h11i); eu-west-1 0.14805; none in af-south-1 */
    in = ecf_catalog_find(cat, "r7i.large");
    assert_non_null(in);
    assert_int_equal(in->n_prices, 20);
    assert_true(fabs(ecf_instance_price(in, "eu-west-1")->ondemand_usd_per_hour -
                     0.14805) < 1e-9);
    assert_null(ecf_instance_price(in, "af-south-1"));
    /* m7i.large: the 16 regions the SkyPilot snapshot offers it in
     * (SOURCES.md 9a) and 7 more from anycloud (session 11, h11i),
     * eu-west-1 0.11235; af-south-1, where the SkyPilot snapshot lists no
     * offering, is priced 0.13335 from anycloud */
    in = ecf_catalog_find(cat, "m7i.large");
    assert_non_null(in);
    assert_int_equal(in->n_prices, 23);
    assert_true(fabs(ecf_instance_price(in, "eu-west-1")->ondemand_usd_per_hour -
                     0.11235) < 1e-9);
    assert_true(fabs(ecf_instance_price(in, "af-south-1")->ondemand_usd_per_hour -
                     0.13335) < 1e-9);
    /* c7i.large: 15 regions from SkyPilot, 8 more from anycloud (session
     * 11, h11i); eu-west-1 0.09576 (SkyPilot vms.csv row) */
    in = ecf_catalog_find(cat, "c7i.large");
    assert_non_null(in);
    assert_int_equal(in->n_prices, 23);
    assert_true(fabs(ecf_instance_price(in, "eu-west-1")->ondemand_usd_per_hour -
                     0.09576) < 1e-9);
    assert_true(fabs(ecf_instance_price(in, "us-east-1")->ondemand_usd_per_hour -
                     0.08925) < 1e-9);
    /* ec2_ondemand_us-east-1.csv: t3.micro 0.010400 */
    in = ecf_catalog_find(cat, "t3.micro");
    assert_non_null(in);
    assert_true(fabs(ecf_instance_price(in, "us-east-1")->ondemand_usd_per_hour -
                     0.0104) < 1e-9);
    /* g6f.large: an eighth of an L4 (2861 MiB partition) */
    in = ecf_catalog_find(cat, "g6f.large");
    assert_non_null(in);
    assert_true(in->accel_fraction == 0.125);
    assert_null(ecf_catalog_find(cat, "p4d.24XLARGE"));
    ecf_catalog_free(cat);
}

/* ---- invalid catalogs ---- */

static const char *const base_head =
    "{\"schema_version\":1,\"generated_at\":\"2026-07-20T00:00:00Z\","
    "\"as_of\":\"2026-07-20\",\"sources\":[{\"id\":\"x\",\"origin\":\"o\","
    "\"as_of\":\"2026-07-20\"}],";
static const char *const good_accels =
    "\"accelerators\":[{\"id\":\"t4\",\"name\":\"T4\",\"vendor\":\"NVIDIA\","
    "\"kind\":\"gpu\",\"memory_gb\":16,\"memory_bw_gbytes_s\":320,"
    "\"tflops\":{\"fp32\":8.1,\"fp16\":65}}],";

static void expect_error(const char *json, ecf_code code, const char *msg)
{
    ecf_catalog *cat = (ecf_catalog *)0x1;
    ecf_err err = ECF_ERR_INIT;
    int rc = ecf_catalog_load_buffer(&cat, json, strlen(json), "catalog.json",
                                     &err);
    if (rc != (int)code || strcmp(err.msg, msg) != 0)
        fail_msg("for %s\n got rc %d: %s\nwant rc %d: %s", json, rc, err.msg,
                 (int)code, msg);
    assert_null(cat);
}

static char *with_instance(const char *instance)
{
    static char buf[4096];
    snprintf(buf, sizeof(buf), "%s%s\"instances\":[%s]}", base_head,
             good_accels, instance);
    return buf;
}

#define GOOD_INSTANCE_PREFIX \
    "{\"type\":\"g4dn.xlarge\",\"family\":\"g4dn\",\"vcpu\":4," \
    "\"memory_gib\":16,\"arch\":\"x86_64\","

static void test_catalog__accepts_minimal(void **state)
{
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;
    const char *json = with_instance(
        GOOD_INSTANCE_PREFIX "\"accelerator\":{\"id\":\"t4\",\"count\":1,"
                             "\"memory_gib\":15,\"interconnect\":\"none\"},"
                             "\"prices\":{\"us-east-1\":{"
                             "\"ondemand_usd_per_hour\":0.526}}}");
    (void)state;
    assert_int_equal(ecf_catalog_load_buffer(&cat, json, strlen(json), "c",
                                             &err),
                     0);
    assert_int_equal(ecf_catalog_count(cat), 1);
    assert_true(ecf_catalog_at(cat, 0)->prices[0].spot_usd_per_hour < 0);
    assert_int_equal(ecf_catalog_at(cat, 0)->prices[0].interruption_band, -1);
    ecf_catalog_free(cat);
}

static void test_catalog__rejects_invalid(void **state)
{
    char buf[4096];
    (void)state;
    expect_error("{\"schema_version\":1,", ECF_EPARSE,
                 "catalog.json: invalid JSON at byte offset 19");
    expect_error("[1,2]", ECF_EPARSE,
                 "catalog.json: (top level): expected a JSON object");
    expect_error("{\"schema_version\":2}", ECF_EPARSE,
                 "catalog.json: schema_version: unsupported version 2 (this "
                 "ec2fit reads version 1)");
    expect_error("{\"schema_version\":1}", ECF_EPARSE,
                 "catalog.json: generated_at: missing required key");
    snprintf(buf, sizeof(buf), "%s\"instances\":[]}", base_head);
    expect_error(buf, ECF_EPARSE,
                 "catalog.json: accelerators: missing required key");
    snprintf(buf, sizeof(buf),
             "%s\"accelerators\":[{\"id\":\"t4\",\"name\":\"T4\",\"vendor\":"
             "\"N\",\"kind\":\"tpu\",\"memory_gb\":16,\"tflops\":{}}],"
             "\"instances\":[]}",
             base_head);
    expect_error(buf, ECF_EPARSE,
                 "catalog.json: accelerators[0].kind: expected one of "
                 "gpu|neuron|other, got \"tpu\"");
    snprintf(buf, sizeof(buf),
             "%s\"accelerators\":[{\"id\":\"t4\",\"name\":\"T4\",\"vendor\":"
             "\"N\",\"kind\":\"gpu\",\"memory_gb\":16,\"tflops\":{\"fp16\":"
             "\"65\"}}],\"instances\":[]}",
             base_head);
    expect_error(buf, ECF_EPARSE,
                 "catalog.json: accelerators[0].tflops.fp16: expected a "
                 "non-negative number");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":{\"id\":\"t4\",\"count\":-1,"
                               "\"memory_gib\":15,\"interconnect\":\"none\"},"
                               "\"prices\":{}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].accelerator.count: expected a "
                 "non-negative integer");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":{\"id\":\"t4\",\"count\":1.5,"
                               "\"memory_gib\":15,\"interconnect\":\"none\"},"
                               "\"prices\":{}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].accelerator.count: expected a "
                 "non-negative integer");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":{\"id\":\"h900\",\"count\":1,"
                               "\"memory_gib\":15,\"interconnect\":\"none\"},"
                               "\"prices\":{}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].accelerator.id: unknown "
                 "accelerator id \"h900\"");
    expect_error(with_instance("{\"type\":\"g4dn.xlarge\",\"family\":\"g4dn\","
                               "\"memory_gib\":16,\"arch\":\"x86_64\","
                               "\"accelerator\":null,\"prices\":{}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].vcpu: missing required key");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":null,\"prices\":{\"us-east-1\":"
                               "{\"ondemand_usd_per_hour\":-0.5}}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].prices.us-east-1."
                 "ondemand_usd_per_hour: expected a non-negative number");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":null,\"prices\":{\"us-east-1\":"
                               "{\"ondemand_usd_per_hour\":0}}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].prices.us-east-1."
                 "ondemand_usd_per_hour: expected a positive number");
    /* cJSON parses the literal NaN as invalid JSON; 1e999 overflows to inf */
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":null,\"prices\":{\"us-east-1\":"
                               "{\"ondemand_usd_per_hour\":1e999}}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].prices.us-east-1."
                 "ondemand_usd_per_hour: expected a non-negative number");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":null,\"prices\":{\"us-east-1\":"
                               "{\"ondemand_usd_per_hour\":0.5,"
                               "\"interruption_band\":7}}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].prices.us-east-1."
                 "interruption_band: expected an integer from 0 to 4");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":null,\"prices\":{}},"
                               GOOD_INSTANCE_PREFIX
                               "\"accelerator\":null,\"prices\":{}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[1].type: duplicate instance type "
                 "\"g4dn.xlarge\"");
    expect_error(with_instance("{\"type\":\"g4dn.xlarge\",\"family\":\"g4dn\","
                               "\"vcpu\":4,\"memory_gib\":16,\"arch\":\"riscv\","
                               "\"accelerator\":null,\"prices\":{}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].arch: expected one of "
                 "x86_64|arm64, got \"riscv\"");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX "\"accelerator\":null}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].prices: missing required key");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":null,\"prices\":[]}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].prices: expected an object keyed "
                 "by region");
    expect_error(with_instance(GOOD_INSTANCE_PREFIX
                               "\"accelerator\":{\"id\":\"t4\",\"count\":1,"
                               "\"memory_gib\":15,\"interconnect\":\"pigeon\"},"
                               "\"prices\":{}}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].accelerator.interconnect: "
                 "expected one of none|pcie|nvlink|nvswitch|neuronlink|other, "
                 "got \"pigeon\"");
    expect_error(with_instance("{\"type\":\"\",\"family\":\"g4dn\"}"),
                 ECF_EPARSE,
                 "catalog.json: instances[0].type: expected a non-empty "
                 "string");
    expect_error(with_instance("42"), ECF_EPARSE,
                 "catalog.json: instances[0]: expected an object");
    snprintf(buf, sizeof(buf),
             "{\"schema_version\":1,\"generated_at\":\"2026-07-20\","
             "\"as_of\":\"July 2026\"}");
    expect_error(buf, ECF_EPARSE,
                 "catalog.json: as_of: expected a date YYYY-MM-DD");
    /* Real calendar dates only: no 30 February, no month 13; 2028 is a
     * leap year, 2100 is not (Gregorian rule). */
    snprintf(buf, sizeof(buf),
             "{\"schema_version\":1,\"generated_at\":\"2026-07-20\","
             "\"as_of\":\"2026-02-30\"}");
    expect_error(buf, ECF_EPARSE,
                 "catalog.json: as_of: expected a date YYYY-MM-DD");
    snprintf(buf, sizeof(buf),
             "{\"schema_version\":1,\"generated_at\":\"x\",\"as_of\":"
             "\"2026-07-20\"}");
    expect_error(buf, ECF_EPARSE,
                 "catalog.json: generated_at: expected a date YYYY-MM-DD or "
                 "YYYY-MM-DDTHH:MM:SSZ");
    snprintf(buf, sizeof(buf),
             "{\"schema_version\":1,\"generated_at\":\"2026-13-01T00:00:00Z\","
             "\"as_of\":\"2026-07-20\"}");
    expect_error(buf, ECF_EPARSE,
                 "catalog.json: generated_at: expected a date YYYY-MM-DD or "
                 "YYYY-MM-DDTHH:MM:SSZ");
}

static void test_catalog__dates(void **state)
{
    long d = 0;
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    (void)state;

    assert_true(ecf_date_parse("1970-01-01", &d));
    assert_int_equal(d, 0);
    assert_true(ecf_date_parse("2026-07-20", &d));
    assert_int_equal(d, 20654); /* `date -ud 2026-07-20 +%s` / 86400 */
    assert_true(ecf_date_parse("2028-02-29", NULL));
    assert_false(ecf_date_parse("2026-02-29", NULL));
    assert_false(ecf_date_parse("2100-02-29", NULL));
    assert_true(ecf_date_parse("2000-02-29", NULL));
    assert_false(ecf_date_parse("2026-04-31", NULL));
    assert_false(ecf_date_parse("2026-00-10", NULL));
    assert_false(ecf_date_parse("2026-01-00", NULL));
    assert_false(ecf_date_parse("2026-1-010", NULL));

    /* The embedded catalog is generated 2026-09-25 (generated_at at
     * 00:00Z, its newest source: the published Savings Plan rates; as_of,
     * the prices' date, 2026-07-20): fine a day before, an error 1 s
     * earlier. */
    if (!data)
        skip();
    assert_int_equal(ecf_catalog_load_buffer(&cat, data, len, "embedded",
                                             &err),
                     0);
    assert_int_equal(ecf_catalog_check_dates(cat, "embedded",
                                             20721L * 86400 - 86400, &err),
                     0);
    assert_int_equal(ecf_catalog_check_dates(cat, "embedded",
                                             20721L * 86400 - 86401, &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "embedded: generated_at: 2026-09-25 is in "
                                 "the future (more than a day ahead of "
                                 "today)");

    /* Its age in whole days (issue 26): 0 all of 2026-07-20 and the day of
     * skew before it, 1 from 2026-07-21T00:00Z, 134 on 2026-12-01
     * (`date -ud 2026-12-01T12:00Z +%s` = 1796126400); -1 when "now" is
     * unknown. */
    assert_int_equal(ecf_catalog_age_days(cat, 20654L * 86400), 0);
    assert_int_equal(ecf_catalog_age_days(cat, 20655L * 86400 - 1), 0);
    assert_int_equal(ecf_catalog_age_days(cat, 20654L * 86400 - 3600), 0);
    assert_int_equal(ecf_catalog_age_days(cat, 20655L * 86400), 1);
    assert_int_equal(ecf_catalog_age_days(cat, 1796126400L), 134);
    assert_int_equal(ecf_catalog_age_days(cat, 0), -1);
    assert_int_equal(ecf_catalog_age_days(NULL, 1796126400L), -1);
    ecf_catalog_free(cat);
}

static void test_catalog__rejects_oversized(void **state)
{
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    /* The size check happens before parsing: no need for real data. */
    assert_int_equal(ecf_catalog_load_buffer(&cat, "{}",
                                             ECF_CATALOG_MAX_BYTES + 1u, "big",
                                             &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "big: 67108865 bytes exceed the catalog size "
                                 "limit of 67108864 bytes");
}

static void test_catalog__load_file_errors(void **state)
{
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_catalog_load_file(&cat, "/nonexistent/c.json", &err),
                     ECF_EIO);
    assert_string_equal(err.msg,
                        "/nonexistent/c.json: No such file or directory");
    assert_null(cat);
}

static void test_catalog__enum_names(void **state)
{
    (void)state;
    assert_int_equal(ecf_precision_parse("bf16"), ECF_PREC_BF16);
    assert_int_equal(ecf_precision_parse("BF16"), -1);
    assert_string_equal(ecf_precision_name(ECF_PREC_FP8), "fp8");
    assert_string_equal(ecf_link_name(ECF_LINK_NVSWITCH), "nvswitch");
    assert_string_equal(ecf_accel_kind_name(ECF_ACCEL_NEURON), "neuron");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalog__embedded_is_complete),
        cmocka_unit_test(test_catalog__capacity_block_rates),
        cmocka_unit_test(test_catalog__savings_plan_rates),
        cmocka_unit_test(test_catalog__p4d_facts_match_reference),
        cmocka_unit_test(test_catalog__spot_ceiling_is_no_estimate),
        cmocka_unit_test(test_catalog__unpriced_and_cpu_types),
        cmocka_unit_test(test_catalog__accepts_minimal),
        cmocka_unit_test(test_catalog__rejects_invalid),
        cmocka_unit_test(test_catalog__dates),
        cmocka_unit_test(test_catalog__rejects_oversized),
        cmocka_unit_test(test_catalog__load_file_errors),
        cmocka_unit_test(test_catalog__enum_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
