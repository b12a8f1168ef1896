/* test_storage.c - issue 15 items 3 and 4: the data path per --storage
 * (published rates: S3 100 Gb/s per instance, gp3 125/1000 MB/s, FSx
 * Lustre 125 MB/s per TiB, EFS 1,500 MiB/s per client, NVMe 2 GB/s per
 * TB), the JPEG-decode vCPU cap, storage prices and their cost in a plan,
 * and the missing-price notes and estimates per region. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ec2fit/light.h"
#include "ec2fit/recommend.h"
#include "ec2fit/storage_prices.h"

#include "embedded_fx.h"

/* resnet50 on ImageNet-1k: 1.28M samples of 110,000 bytes = 140.8 GB. */
static ecf_workload imagenet(int storage, double mbytes_s)
{
    ecf_workload w = ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_TRAIN;
    w.dataset_amount = 1.28e6;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.epochs = 90;
    w.storage = storage;
    w.storage_mbytes_s = mbytes_s;
    return w;
}

static void est(fx *f, ecf_estimate *e, const char *type, ecf_workload w,
                int nodes)
{
    ecf_err err = ECF_ERR_INIT;
    const ecf_instance *in = ecf_catalog_find(f->cat, type);
    assert_non_null(in);
    if (ecf_estimate_run(e, ecf_zoo_find(f->zoo, "resnet50"), &w, in, nodes,
                         &err) != 0)
        fail_msg("%s", err.msg);
}

static void test_storage__names_round_trip(void **state)
{
    (void)state;
    assert_int_equal(ecf_storage_parse("gp3"), ECF_STORAGE_GP3);
    assert_int_equal(ecf_storage_parse("fsx"), ECF_STORAGE_FSX);
    assert_int_equal(ecf_storage_parse("ebs"), -1);
    assert_string_equal(ecf_storage_name(ECF_STORAGE_NVME), "nvme");
    assert_string_equal(ecf_storage_name(ECF_STORAGE_AUTO), "auto");
}

static void test_storage__gp3_baseline_is_125_and_slows_p5(void **state)
{
    fx *f = *state;
    ecf_estimate base, gp3;
    double slow;

    est(f, &base, "p5.48xlarge", imagenet(ECF_STORAGE_NVME, 0), 1);
    est(f, &gp3, "p5.48xlarge", imagenet(ECF_STORAGE_GP3, 0), 1);
    assert_string_equal(gp3.data_source, "gp3");
    assert_float_equal(gp3.data_rate_available_mbytes_s, 125.0, 1e-9);
    assert_float_equal(gp3.storage_gb, 140.8, 1e-9);
    assert_float_equal(gp3.storage_mbytes_s, 125.0, 1e-9);
    assert_int_equal(gp3.bottleneck, ECF_BN_DATA);
    /* NVMe (60,800 MB/s on 30.4 TB) keeps up with the data (the host's
     * decode cores bind there); on gp3 the step waits for the volume, so
     * the images read per second are exactly what 125 MB/s carries and
     * the dataset time follows from them */
    assert_float_equal(base.data_rate_available_mbytes_s, 60800.0, 1e-6);
    assert_true(base.data_rate_required_mbytes_s < 60800.0);
    slow = gp3.data_rate_required_mbytes_s / 125.0;
    assert_true(slow > 20);
    assert_float_equal(gp3.samples_per_s * 110000 / 1e6, 125.0, 1e-9);
    assert_float_equal(gp3.decode_slowdown, 1.0, 0);
    /* the job time is the dataset time plus the node's start-up */
    assert_float_equal(gp3.time_hours,
                       1.28e6 * 90 / gp3.samples_per_s / 3600.0 +
                           gp3.startup_s / 3600.0,
                       1e-9);
    assert_true(gp3.time_hours > 20 * base.time_hours / base.decode_slowdown);
    assert_string_equal(gp3.warnings[gp3.n_warnings - 1],
                        "provision gp3 throughput (--storage-throughput, up "
                        "to 1000 MB/s) or use --storage fsx");
}

static void test_storage__gp3_provisioned_capped_by_instance_ebs(void **state)
{
    fx *f = *state;
    ecf_estimate e;
    /* p5: 80 Gb/s of EBS = 10,000 MB/s, so the volume's 1,000 binds */
    est(f, &e, "p5.48xlarge", imagenet(ECF_STORAGE_GP3, 1000), 1);
    assert_float_equal(e.data_rate_available_mbytes_s, 1000.0, 1e-9);
    /* p3.2xlarge: 1.75 Gb/s of EBS = 218.75 MB/s */
    est(f, &e, "p3.2xlarge", imagenet(ECF_STORAGE_GP3, 1000), 1);
    assert_float_equal(e.data_rate_available_mbytes_s, 218.75, 1e-9);
}

static void test_storage__s3_is_nic_capped_at_100_gbps(void **state)
{
    fx *f = *state;
    ecf_estimate e;
    est(f, &e, "p5.48xlarge", imagenet(ECF_STORAGE_S3, 0), 1);
    assert_float_equal(e.data_rate_available_mbytes_s, 12500.0, 1e-9);
    est(f, &e, "g5.xlarge", imagenet(ECF_STORAGE_S3, 0), 1);
    assert_float_equal(e.data_rate_available_mbytes_s, 312.5, 1e-9);
}

static void test_storage__fsx_sizes_and_shares_its_throughput(void **state)
{
    fx *f = *state;
    ecf_estimate e;
    /* 140.8 GB fits the minimum 1.2 TiB: 150 MB/s for the file system */
    est(f, &e, "p5.48xlarge", imagenet(ECF_STORAGE_FSX, 0), 1);
    assert_float_equal(e.storage_mbytes_s, 150.0, 1e-9);
    assert_float_equal(e.storage_capacity_gb, 1200.0, 1e-9);
    assert_float_equal(e.data_rate_available_mbytes_s, 150.0, 1e-9);
    /* 1,200 MB/s needs 9.6 TiB (4 x 2.4), shared by 2 nodes */
    est(f, &e, "p5.48xlarge", imagenet(ECF_STORAGE_FSX, 1200), 2);
    assert_float_equal(e.storage_capacity_gb, 9600.0, 1e-9);
    assert_float_equal(e.storage_mbytes_s, 1200.0, 1e-9);
    assert_float_equal(e.data_rate_available_mbytes_s, 600.0, 1e-9);
}

static void test_storage__efs_per_client_limit(void **state)
{
    fx *f = *state;
    ecf_estimate e;
    est(f, &e, "p5.48xlarge", imagenet(ECF_STORAGE_EFS, 0), 1);
    assert_float_equal(e.data_rate_available_mbytes_s, 1572.864, 1e-9);
}

static void test_storage__nvme_without_instance_store_falls_back(void **state)
{
    fx *f = *state;
    ecf_estimate e;
    est(f, &e, "p3.2xlarge", imagenet(ECF_STORAGE_NVME, 0), 1);
    assert_string_equal(e.data_source, "s3");
    assert_string_equal(e.warnings[0], "p3.2xlarge: no instance store "
                                       "(NVMe); the dataset streams from S3 "
                                       "instead");
    /* auto picks S3 there and NVMe where the dataset fits */
    est(f, &e, "p3.2xlarge", imagenet(ECF_STORAGE_AUTO, 0), 1);
    assert_string_equal(e.data_source, "s3");
    est(f, &e, "g5.xlarge", imagenet(ECF_STORAGE_AUTO, 0), 1);
    assert_string_equal(e.data_source, "nvme"); /* 250 GB >= 140.8 GB */
}

static void test_storage__p6_b200_is_decode_bound(void **state)
{
    fx *f = *state;
    ecf_estimate e;
    est(f, &e, "p6-b200.48xlarge", imagenet(ECF_STORAGE_AUTO, 0), 1);
    assert_float_equal(e.vcpus_per_accel, 24.0, 1e-9);
    assert_true(e.vcpus_per_accel_needed > 68 &&
                e.vcpus_per_accel_needed < 69);
    assert_float_equal(e.decode_slowdown, e.vcpus_per_accel_needed / 24.0,
                       1e-9);
    assert_int_equal(e.bottleneck, ECF_BN_DATA);
    /* after the slowdown, decoding exactly keeps up: 150 images/s/vCPU */
    assert_float_equal(e.samples_per_s / 8 / 150.0, 24.0, 1e-6);
}

static void test_storage__gpu_decode_lifts_the_vcpu_cap(void **state)
{
    /* the same job with its images decoded on the GPUs (DALI): no
     * decode cap, the GPUs' own rate, 68.x / 24 = 2.8x faster */
    fx *f = *state;
    ecf_estimate host, gpu;
    ecf_workload w = imagenet(ECF_STORAGE_AUTO, 0);
    est(f, &host, "p6-b200.48xlarge", w, 1);
    w.gpu_decode = true;
    est(f, &gpu, "p6-b200.48xlarge", w, 1);
    assert_float_equal(gpu.decode_slowdown, 1.0, 0);
    assert_float_equal(gpu.vcpus_per_accel_needed, 0.0, 0);
    assert_true(gpu.bottleneck != ECF_BN_DATA);
    assert_float_equal(gpu.samples_per_s,
                       host.samples_per_s * host.decode_slowdown, 1e-6);
}

static void test_storage__resolve_rejects_bad_throughput(void **state)
{
    fx *f = *state;
    ecf_err err = ECF_ERR_INIT;
    const ecf_model *m = ecf_zoo_find(f->zoo, "resnet50");
    ecf_workload w = imagenet(ECF_STORAGE_S3, 500);
    assert_int_equal(ecf_workload_resolve(&w, m, &err), ECF_EINVAL);
    assert_string_equal(err.msg, "--storage-throughput: only with --storage "
                                 "gp3 or fsx");
    w = imagenet(ECF_STORAGE_GP3, 1500);
    assert_int_equal(ecf_workload_resolve(&w, m, &err), ECF_EINVAL);
    assert_string_equal(err.msg, "--storage-throughput: a gp3 volume "
                                 "provisions 125 to 1000 MB/s, got 1500");
}

static void test_storage__prices_load_and_validate(void **state)
{
    fx *f = *state;
    ecf_storage_prices *sp = NULL;
    ecf_err err = ECF_ERR_INIT;
    const ecf_storage_price *p = ecf_storage_prices_find(f->sp, "us-east-1");
    static const char bad[] =
        "{\"as_of\":\"2026-12-01\",\"regions\":{\"us-east-1\":{"
        "\"s3_standard_usd_per_gb_month\":0.023,\"gp3_usd_per_gb_month\":0}}}";

    assert_non_null(p);
    assert_float_equal(p->gp3_usd_per_gb_month, 0.08, 1e-12);
    assert_float_equal(p->gp3_usd_per_mbytes_s_month, 0.04, 1e-12);
    assert_float_equal(p->fsx_usd_per_gb_month, 0.145, 1e-12);
    assert_float_equal(p->s3_usd_per_gb_month, 0.023, 1e-12);
    assert_float_equal(p->efs_usd_per_gb_month, 0.30, 1e-12);
    assert_float_equal(p->efs_read_usd_per_gb, 0.03, 1e-12);
    assert_null(ecf_storage_prices_find(f->sp, "eu-west-1"));
    assert_string_equal(ecf_storage_prices_as_of(f->sp), "2026-12-01");
    assert_int_equal(ecf_storage_prices_load_buffer(&sp, bad, strlen(bad),
                                                    "s.json", &err),
                     ECF_EPARSE);
    assert_null(sp);
    assert_string_equal(err.msg, "s.json: regions.us-east-1."
                                 "gp3_usd_per_gb_month: expected a number > "
                                 "0");
}

static ecf_recommendation *rec(fx *f, const char *model, ecf_workload *w,
                               ecf_recommend_opts *o)
{
    ecf_recommendation *r = NULL;
    ecf_err err = ECF_ERR_INIT;
    const ecf_model *m = ecf_zoo_find(f->zoo, model);
    o->storage_prices = f->sp;
    if (o->n_regions == 0)
        o->regions[o->n_regions++] = "us-east-1";
    assert_int_equal(ecf_workload_resolve(w, m, &err), 0);
    if (ecf_recommend_run(&r, f->cat, m, w, &f->rules, o, &err) != 0)
        fail_msg("%s", err.msg);
    return r;
}

static void test_storage__gp3_volume_enters_the_total(void **state)
{
    fx *f = *state;
    static const char *const fam[] = {"p5", NULL};
    ecf_workload w = imagenet(ECF_STORAGE_GP3, 1000);
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *r;
    const ecf_plan *p;

    o.spot = ECF_SPOT_NO;
    o.families = fam;
    r = rec(f, "resnet50", &w, &o);
    assert_true(r->n_plans > 0);
    p = &r->plans[0];
    assert_int_equal(p->storage, ECF_STORAGE_GP3);
    /* one 140.8 GB volume per node at $0.08/GB-month + 875 MB/s over the
     * free 125 at $0.04/MB/s-month */
    assert_float_equal(p->storage_monthly_usd,
                       p->nodes * (140.8 * 0.08 + 875 * 0.04), 1e-9);
    assert_float_equal(p->storage_usd,
                       p->storage_monthly_usd * p->time_hours / 730.0, 1e-9);
    assert_float_equal(p->total_usd,
                       p->hourly_usd * p->time_hours + p->storage_usd, 1e-9);
    assert_false(p->storage_price_estimated);
    ecf_recommendation_free(r);
}

static void test_storage__eu_west_1_no_missing_families(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *r;

    w.task = ECF_TASK_INFER;
    w.qps = 2;
    o.regions[o.n_regions++] = "eu-west-1";
    r = rec(f, "distilbert", &w, &o);
    /* No family is priced in us-east-1 only any more: the 39 families the
     * SkyPilot snapshot predates (c8a, c8i, m8i, r8i, c9g, g7, i8ge, x8i,
     * u7i-12tb, ...) have regional rows from anycloud-sh/catalog since
     * session 11 (SOURCES.md 9a), so eu-west-1 has no missing-price note
     * (recomputed from data/catalog.json in Python, a copy of scan_region:
     * 0 families without an eu-west-1 price, 142 priced in both regions).
     * Families the source lists elsewhere but not in eu-west-1 (c9g, m8ine,
     * ...) are not offered there, not a data gap. */
    assert_int_equal(r->n_missing, 0);
    /* a CPU type with a real eu-west-1 price wins, not an accelerator:
     * t3.small ($0.0228/h, SkyPilot vms.csv row, SOURCES.md 9a). At 2
     * requests/s its mean load is 35.7% per vCPU, above its 20% baseline,
     * so unlimited mode's surplus credits are priced ($0.05 x 2 vCPUs x
     * the load above the baseline = $0.0157/h, docs/estimation.md
     * "Burstable CPUs"); with them it still costs less than the
     * fixed-performance c7g.medium ($0.0388/h) */
    assert_null(r->plans[0].inst->accel);
    assert_string_equal(r->plans[0].inst->type, "t3.small");
    assert_float_equal(r->plans[0].usd_per_hour_instance, 0.0228, 1e-12);
    assert_float_equal(r->plans[0].burst_surcharge_usd_per_hour, 0.015681,
                       1e-6);
    assert_true(r->plans[0].hourly_usd < 0.0388);
    assert_false(r->plans[0].price_estimated);
    ecf_recommendation_free(r);
}

/* A region the catalog's regional prices do not cover (sa-east-1: no row
 * in SkyPilot's snapshot, SOURCES.md 9a; only 10 accelerated families
 * are priced there from the GPU source): every family with a us-east-1
 * price and none there is a data gap and is named, c7i and t3 with the
 * us-east-1-only ones. Before, only the 39 us-east-1-only families were
 * named ("the catalog prices them in us-east-1 only") and a small model
 * moved to a GPU with c7i, m7i, t3 ... silently left out. The 169 is
 * recomputed from data/catalog.json in Python: families whose every type
 * has a us-east-1 price and none has a sa-east-1 price. */
static void test_storage__uncovered_region_names_every_family(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *r;
    char note[1024];
    size_t k;
    bool c7i = false, t3 = false, c8a = false, g5 = false;

    w.task = ECF_TASK_INFER;
    w.qps = 5;
    o.regions[o.n_regions++] = "sa-east-1";
    r = rec(f, "bert-base", &w, &o);
    assert_int_equal(r->n_missing, 1);
    assert_true(r->missing[0].uncovered);
    assert_int_equal(r->missing[0].n_families, 169);
    assert_int_equal(r->missing[0].n_ratio_families, 10);
    for (k = 0; k < r->missing[0].n_families; k++) {
        c7i |= strcmp(r->missing[0].families[k], "c7i") == 0;
        t3 |= strcmp(r->missing[0].families[k], "t3") == 0;
        c8a |= strcmp(r->missing[0].families[k], "c8a") == 0;
        g5 |= strcmp(r->missing[0].families[k], "g5") == 0;
    }
    assert_true(c7i);
    assert_true(t3);
    assert_true(c8a);
    assert_false(g5); /* priced in sa-east-1 */
    ecf_recommend_missing_note(note, sizeof(note), r, 0);
    assert_string_equal(
        note, "no sa-east-1 price for a1, c1, c3, c4, c5, c5a, c5ad, c5d, "
              "c5n, c6a, c6g, c6gd and 157 more (the catalog's regional "
              "prices do not cover sa-east-1: it prices no CPU type there): "
              "left out; `ec2fit update --regions sa-east-1` fetches them, "
              "or --estimate-missing-prices prices them from the region's "
              "median ratio");
    ecf_recommendation_free(r);

    /* with --estimate-missing-prices a family priced in other regions
     * (c7i, t3) is estimated too, from its us-east-1 price */
    o.estimate_missing_prices = true;
    r = rec(f, "bert-base", &w, &o);
    assert_null(r->plans[0].inst->accel);
    assert_true(r->plans[0].price_estimated);
    ecf_recommendation_free(r);

    /* eu-west-1 is covered: a family priced elsewhere but not there is
     * not listed, and no family is us-east-1 only (the test above) */
    o.estimate_missing_prices = false;
    o.regions[0] = "eu-west-1";
    r = rec(f, "bert-base", &w, &o);
    assert_int_equal(r->n_missing, 0);
    ecf_recommendation_free(r);
}

static void test_storage__estimated_cpu_plan_wins_marked(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *r;
    ecf_light_option light[2];
    const ecf_instance *r6g = ecf_catalog_find(f->cat, "r6g.medium");
    size_t n, k;

    w.task = ECF_TASK_INFER;
    w.qps = 2;
    /* sa-east-1: no CPU family has a price there (eu-west-1 has c7* rows) */
    o.regions[o.n_regions++] = "sa-east-1";
    o.estimate_missing_prices = true;
    r = rec(f, "distilbert", &w, &o);
    /* a CPU type wins once its price is estimated (the winner is the
     * cheapest CPU plan that meets the load; which one depends on the
     * Auto Scaling target, so the price check names the plan's own type) */
    assert_null(r->plans[0].inst->accel);
    assert_true(r->plans[0].price_estimated);
    assert_float_equal(r->missing[0].ratio, 1.6998, 1e-4);
    assert_float_equal(r->plans[0].usd_per_hour_instance,
                       ecf_instance_price(r->plans[0].inst, "us-east-1")
                               ->ondemand_usd_per_hour *
                           r->missing[0].ratio,
                       1e-12);
    (void)r6g;
    /* Lambda and Lightsail were priced from us-east-1 pages */
    n = ecf_recommend_light(light, 2, f->light,
                            ecf_zoo_find(f->zoo, "distilbert"), &w, r);
    assert_int_equal(n, 2);
    for (k = 0; k < n; k++)
        assert_true(light[k].price_estimated);
    ecf_recommendation_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_storage__names_round_trip),
        cmocka_unit_test(test_storage__gp3_baseline_is_125_and_slows_p5),
        cmocka_unit_test(test_storage__gp3_provisioned_capped_by_instance_ebs),
        cmocka_unit_test(test_storage__s3_is_nic_capped_at_100_gbps),
        cmocka_unit_test(test_storage__fsx_sizes_and_shares_its_throughput),
        cmocka_unit_test(test_storage__efs_per_client_limit),
        cmocka_unit_test(test_storage__nvme_without_instance_store_falls_back),
        cmocka_unit_test(test_storage__p6_b200_is_decode_bound),
        cmocka_unit_test(test_storage__gpu_decode_lifts_the_vcpu_cap),
        cmocka_unit_test(test_storage__resolve_rejects_bad_throughput),
        cmocka_unit_test(test_storage__prices_load_and_validate),
        cmocka_unit_test(test_storage__gp3_volume_enters_the_total),
        cmocka_unit_test(test_storage__eu_west_1_no_missing_families),
        cmocka_unit_test(test_storage__estimated_cpu_plan_wins_marked),
        cmocka_unit_test(test_storage__uncovered_region_names_every_family),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
