/* test_catalog_pack.c - the packed catalog: a pack/load round trip of the
 * embedded JSON catalog compared field by field with the JSON load, the
 * embedded packed copy, and corrupt blobs, each with its exact message.
 * Run it under ASan (ECF_SANITIZE=address,undefined): the corruption and
 * bit-flip cases are there to prove the loader never reads out of bounds.
 *
 * The corruption cases poke the documented layout (the comment of
 * src/data/catalog_packed.c) by offset, so a layout change without a version bump
 * fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/catalog.h"

/* Header and record layout, version 4 (version 2 added the host CPU
 * figures to each instance record, version 3 the Capacity Blocks rate to
 * each price record, version 4 the published Savings Plan rates). */
#define HDR_SIZE 96
#define HDR_VERSION 8
#define HDR_BYTE_ORDER 12
#define HDR_SEC(i) (40 + 8 * (i)) /* {uint32 offset, uint32 count} */
enum { SOURCES, ACCELS, INSTANCES, ORDER, PRICES, REGIONS, STRINGS };
#define INSTANCE_SIZE 136
#define INSTANCE_ACCEL 16 /* int32 index */

typedef struct {
    ecf_catalog *json;   /* the embedded JSON, loaded by the JSON loader */
    unsigned char *blob; /* json packed */
    size_t len;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof(*f));
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    ecf_err err = ECF_ERR_INIT;
    void *blob = NULL;

    if (!f || !data)
        return -1;
    if (ecf_catalog_load_buffer(&f->json, data, len, "catalog.json", &err) ||
        ecf_catalog_pack(&blob, &f->len, f->json, &err)) {
        fprintf(stderr, "setup: %s\n", err.msg);
        return -1;
    }
    f->blob = blob;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    ecf_catalog_free(f->json);
    free(f->blob);
    free(f);
    return 0;
}

static uint32_t get_u32(const unsigned char *blob, size_t off)
{
    uint32_t v;
    memcpy(&v, blob + off, sizeof(v));
    return v;
}

static void put_u32(unsigned char *blob, size_t off, uint32_t v)
{
    memcpy(blob + off, &v, sizeof(v));
}

/* ---- exhaustive comparison ---- */

static void same_str(const char *a, const char *b)
{
    if (!a || !b)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

/* Exact equality: the packed form stores the loader's doubles verbatim. */
static void same_num(double a, double b)
{
    assert_memory_equal(&a, &b, sizeof(a));
}

static void same_accel(const ecf_accel *a, const ecf_accel *b)
{
    int p;
    same_str(a->id, b->id);
    same_str(a->name, b->name);
    same_str(a->vendor, b->vendor);
    same_str(a->generation, b->generation);
    assert_int_equal(a->kind, b->kind);
    same_num(a->memory_gb, b->memory_gb);
    same_num(a->memory_bw_gbytes_s, b->memory_bw_gbytes_s);
    for (p = 0; p < ECF_PREC_COUNT; p++)
        same_num(a->tflops[p], b->tflops[p]);
    same_num(a->tdp_w, b->tdp_w);
    same_str(a->confidence, b->confidence);
    same_str(a->source, b->source);
}

static void same_price(const ecf_price *a, const ecf_price *b)
{
    same_str(a->region, b->region);
    same_num(a->ondemand_usd_per_hour, b->ondemand_usd_per_hour);
    same_num(a->reserved_1y_usd_per_hour, b->reserved_1y_usd_per_hour);
    same_num(a->spot_usd_per_hour, b->spot_usd_per_hour);
    same_num(a->capacity_block_usd_per_hour, b->capacity_block_usd_per_hour);
    same_num(a->savings_plan_1y_usd_per_hour, b->savings_plan_1y_usd_per_hour);
    same_num(a->savings_plan_3y_usd_per_hour, b->savings_plan_3y_usd_per_hour);
    assert_int_equal(a->spot_savings_pct, b->spot_savings_pct);
    assert_int_equal(a->interruption_band, b->interruption_band);
}

/* The catalog's own copy of a region name: prices point at it. */
static const char *interned(const ecf_catalog *cat, const char *region)
{
    size_t j;
    for (j = 0; j < ecf_catalog_region_count(cat); j++)
        if (strcmp(ecf_catalog_region_at(cat, j), region) == 0)
            return ecf_catalog_region_at(cat, j);
    return NULL;
}

static void same_instance(const ecf_catalog *ca, const ecf_instance *a,
                          const ecf_catalog *cb, const ecf_instance *b)
{
    size_t k;
    same_str(a->type, b->type);
    same_str(a->family, b->family);
    assert_int_equal(a->vcpu, b->vcpu);
    same_num(a->memory_gib, b->memory_gib);
    assert_int_equal(a->arch, b->arch);
    if (!a->accel || !b->accel) {
        assert_ptr_equal(a->accel, b->accel);
    } else {
        /* the same slot in each catalog, not just an equal record */
        assert_ptr_equal(a->accel, ecf_catalog_accel_at(
                                       ca, (size_t)(a->accel -
                                                    ecf_catalog_accel_at(ca, 0))));
        assert_int_equal(a->accel - ecf_catalog_accel_at(ca, 0),
                         b->accel - ecf_catalog_accel_at(cb, 0));
        same_str(a->accel->id, b->accel->id);
    }
    assert_int_equal(a->accel_count, b->accel_count);
    same_num(a->accel_memory_gib, b->accel_memory_gib);
    same_num(a->accel_fraction, b->accel_fraction);
    assert_int_equal(a->link, b->link);
    same_num(a->link_gbytes_s, b->link_gbytes_s);
    same_num(a->network_gbps, b->network_gbps);
    assert_int_equal(a->efa, b->efa);
    assert_int_equal(a->efa_interfaces, b->efa_interfaces);
    same_num(a->efa_gbps, b->efa_gbps);
    same_num(a->ebs_gbps, b->ebs_gbps);
    same_num(a->nvme_gb, b->nvme_gb);
    assert_int_equal(a->n_prices, b->n_prices);
    for (k = 0; k < a->n_prices; k++) {
        same_price(&a->prices[k], &b->prices[k]);
        /* lookups go through the sorted prices and interned regions */
        assert_ptr_equal(ecf_instance_price(b, a->prices[k].region),
                         &b->prices[k]);
        assert_ptr_equal(b->prices[k].region,
                         interned(cb, b->prices[k].region));
    }
}

static void same_catalog(const ecf_catalog *a, const ecf_catalog *b)
{
    size_t i;
    same_str(ecf_catalog_as_of(a), ecf_catalog_as_of(b));
    same_str(ecf_catalog_generated_at(a), ecf_catalog_generated_at(b));

    assert_int_equal(ecf_catalog_source_count(a), ecf_catalog_source_count(b));
    for (i = 0; i < ecf_catalog_source_count(a); i++) {
        const ecf_source *sa = ecf_catalog_source_at(a, i);
        const ecf_source *sb = ecf_catalog_source_at(b, i);
        same_str(sa->id, sb->id);
        same_str(sa->origin, sb->origin);
        same_str(sa->as_of, sb->as_of);
    }
    assert_null(ecf_catalog_source_at(b, i));

    assert_int_equal(ecf_catalog_accel_count(a), ecf_catalog_accel_count(b));
    for (i = 0; i < ecf_catalog_accel_count(a); i++) {
        const ecf_accel *aa = ecf_catalog_accel_at(a, i);
        same_accel(aa, ecf_catalog_accel_at(b, i));
        assert_ptr_equal(ecf_catalog_accel_find(b, aa->id),
                         ecf_catalog_accel_at(b, i));
    }
    assert_null(ecf_catalog_accel_at(b, i));

    assert_int_equal(ecf_catalog_region_count(a), ecf_catalog_region_count(b));
    for (i = 0; i < ecf_catalog_region_count(a); i++) {
        same_str(ecf_catalog_region_at(a, i), ecf_catalog_region_at(b, i));
        assert_true(ecf_catalog_has_region(b, ecf_catalog_region_at(a, i)));
    }
    assert_null(ecf_catalog_region_at(b, i));
    assert_false(ecf_catalog_has_region(b, "xx-nowhere-1"));

    assert_int_equal(ecf_catalog_count(a), ecf_catalog_count(b));
    for (i = 0; i < ecf_catalog_count(a); i++) {
        const ecf_instance *ia = ecf_catalog_at(a, i);
        const ecf_instance *ib = ecf_catalog_at(b, i);
        same_instance(a, ia, b, ib);
        assert_ptr_equal(ecf_catalog_find(b, ia->type), ib);
    }
    assert_null(ecf_catalog_at(b, i));
    assert_null(ecf_catalog_find(b, "zz9.nonexistent"));
}

/* ---- round trips ---- */

static void test_catalog_pack__round_trip_matches_json(void **state)
{
    fixture *f = *state;
    ecf_catalog *packed = NULL;
    ecf_err err = ECF_ERR_INIT;
    void *again = NULL;
    size_t again_len = 0;

    assert_int_equal(memcmp(f->blob, "ECFCAT1", 8), 0);
    assert_int_equal(
        ecf_catalog_load_packed(&packed, f->blob, f->len, "p", &err), 0);
    same_catalog(f->json, packed);

    /* packing is a pure function of the catalog: a packed-then-loaded
     * catalog packs to the same bytes (reproducible builds) */
    assert_int_equal(ecf_catalog_pack(&again, &again_len, packed, &err), 0);
    assert_int_equal(again_len, f->len);
    assert_memory_equal(again, f->blob, f->len);
    free(again);
    ecf_catalog_free(packed);
}

static void test_catalog_pack__blob_not_referenced_after_load(void **state)
{
    fixture *f = *state;
    ecf_catalog *packed = NULL;
    ecf_err err = ECF_ERR_INIT;
    /* an unaligned private copy, freed before the catalog is used */
    unsigned char *copy = malloc(f->len + 1);

    assert_non_null(copy);
    memcpy(copy + 1, f->blob, f->len);
    assert_int_equal(
        ecf_catalog_load_packed(&packed, copy + 1, f->len, "p", &err), 0);
    memset(copy, 0xa5, f->len + 1);
    free(copy);
    same_catalog(f->json, packed);
    ecf_catalog_free(packed);
}

static void test_catalog_pack__embedded_matches_json(void **state)
{
    fixture *f = *state;
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;

    assert_int_equal(ecf_catalog_load_embedded(&cat, &err), 0);
    same_catalog(f->json, cat);
    ecf_catalog_free(cat);
    /* the JSON text stays available: `ec2fit update` starts from it */
    {
        size_t len = 0;
        const char *json = ecf_catalog_embedded(&len);
        assert_non_null(json);
        assert_true(len > 0);
        assert_int_equal(json[0], '{');
    }
}

/* ---- corrupt blobs ---- */

static void expect_packed_error(const unsigned char *blob, size_t len,
                                const char *msg)
{
    ecf_catalog *cat = (ecf_catalog *)0x1;
    ecf_err err = ECF_ERR_INIT;
    int rc = ecf_catalog_load_packed(&cat, blob, len, "t", &err);
    if (rc != ECF_EPARSE || strcmp(err.msg, msg) != 0)
        fail_msg(" got rc %d: %s\nwant rc %d: %s", rc, err.msg, ECF_EPARSE,
                 msg);
    assert_null(cat);
}

static unsigned char *copy_of(const fixture *f)
{
    unsigned char *b = malloc(f->len);
    assert_non_null(b);
    memcpy(b, f->blob, f->len);
    return b;
}

static void test_catalog_pack__rejects_truncated(void **state)
{
    fixture *f = *state;
    const size_t cuts[] = {0, 1, 8, HDR_SIZE - 1, HDR_SIZE, HDR_SIZE + 1,
                           f->len / 2, f->len - 1};
    char want[256];
    size_t i;

    for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
        /* a heap copy of exactly the cut length, so ASan sees any overread */
        unsigned char *b = malloc(cuts[i] ? cuts[i] : 1);
        assert_non_null(b);
        memcpy(b, f->blob, cuts[i]);
        if (cuts[i] < HDR_SIZE)
            snprintf(want, sizeof(want),
                     "t: packed catalog: truncated: %zu bytes, the header "
                     "alone is 96",
                     cuts[i]);
        else
            snprintf(want, sizeof(want),
                     "t: packed catalog: truncated or padded: %zu bytes, the "
                     "header says %zu",
                     cuts[i], f->len);
        expect_packed_error(b, cuts[i], want);
        free(b);
    }
    expect_packed_error(NULL, 0,
                        "t: packed catalog: truncated: 0 bytes, the header "
                        "alone is 96");
}

static void test_catalog_pack__rejects_bad_header(void **state)
{
    fixture *f = *state;
    unsigned char *b = copy_of(f);
    char want[256];

    b[3] ^= 0x20; /* "ECFcAT1" */
    expect_packed_error(b, f->len, "t: packed catalog: bad magic");
    memcpy(b, f->blob, f->len);

    put_u32(b, HDR_VERSION, 1);
    expect_packed_error(b, f->len,
                        "t: packed catalog: unsupported format version 1 "
                        "(this ec2fit reads version 4)");
    memcpy(b, f->blob, f->len);

    put_u32(b, HDR_BYTE_ORDER, 0x04030201u);
    expect_packed_error(b, f->len,
                        "t: packed catalog: byte order mismatch (packed on "
                        "another kind of host)");
    memcpy(b, f->blob, f->len);

    /* a count over the catalog limit, caught before any allocation */
    put_u32(b, HDR_SEC(INSTANCES) + 4, UINT32_MAX);
    expect_packed_error(b, f->len,
                        "t: packed catalog: instances: 4294967295 entries "
                        "exceed the limit of 200000");
    memcpy(b, f->blob, f->len);

    /* a count within the limit but past the end of the blob */
    put_u32(b, HDR_SEC(INSTANCES) + 4, 200000);
    snprintf(want, sizeof(want),
             "t: packed catalog: instances: section at offset %lu (200000 "
             "entries) runs past the end of the %zu-byte blob",
             (unsigned long)get_u32(f->blob, HDR_SEC(INSTANCES)), f->len);
    expect_packed_error(b, f->len, want);
    memcpy(b, f->blob, f->len);

    /* an offset past the end */
    put_u32(b, HDR_SEC(PRICES), (uint32_t)f->len + 8);
    snprintf(want, sizeof(want),
             "t: packed catalog: prices: section at offset %zu (%lu entries) "
             "runs past the end of the %zu-byte blob",
             f->len + 8, (unsigned long)get_u32(f->blob, HDR_SEC(PRICES) + 4),
             f->len);
    expect_packed_error(b, f->len, want);
    memcpy(b, f->blob, f->len);

    /* a string table whose last string has no terminator */
    b[get_u32(b, HDR_SEC(STRINGS)) + get_u32(b, HDR_SEC(STRINGS) + 4) - 1] =
        'x';
    expect_packed_error(b, f->len,
                        "t: packed catalog: string table is not "
                        "NUL-terminated");
    free(b);
}

static void test_catalog_pack__rejects_bad_references(void **state)
{
    fixture *f = *state;
    unsigned char *b = copy_of(f);
    const size_t inst0 = get_u32(f->blob, HDR_SEC(INSTANCES));
    const size_t price0 = get_u32(f->blob, HDR_SEC(PRICES));
    const size_t order0 = get_u32(f->blob, HDR_SEC(ORDER));
    char want[256];

    put_u32(b, inst0, 0xfffffff0u); /* instances[0].type */
    expect_packed_error(b, f->len,
                        "t: packed catalog: instances[0].type: string offset "
                        "4294967280 out of range");
    memcpy(b, f->blob, f->len);

    put_u32(b, inst0 + INSTANCE_ACCEL, 25);
    expect_packed_error(b, f->len,
                        "t: packed catalog: instances[0].accelerator: index "
                        "25 out of range");
    memcpy(b, f->blob, f->len);

    put_u32(b, price0, 9999); /* prices[0].region */
    expect_packed_error(b, f->len,
                        "t: packed catalog: prices[0].region: index 9999 out "
                        "of range");
    memcpy(b, f->blob, f->len);

    /* two order entries swapped: types no longer sorted */
    put_u32(b, order0, get_u32(f->blob, order0 + 4));
    put_u32(b, order0 + 4, get_u32(f->blob, order0));
    snprintf(want, sizeof(want), "t: packed catalog: order[1]: \"%s\" out of "
             "order",
             ecf_catalog_at(f->json, get_u32(f->blob, order0))->type);
    expect_packed_error(b, f->len, want);
    free(b);
}

/* Not a fuzzer, but the cheap half of one: flip bytes all over a valid
 * blob and check that every load either succeeds or fails cleanly. Under
 * ASan this is what shows that no field is trusted before it is checked. */
static void test_catalog_pack__survives_byte_flips(void **state)
{
    fixture *f = *state;
    unsigned char *b = copy_of(f);
    uint32_t seed = 12345;
    size_t i, failures = 0;

    for (i = 0; i < 3000; i++) {
        ecf_catalog *cat = NULL;
        ecf_err err = ECF_ERR_INIT;
        size_t pos;
        unsigned char old;
        int rc;

        seed = seed * 1103515245u + 12345u;
        /* every header byte once, then random positions */
        pos = i < HDR_SIZE ? i : (seed >> 8) % f->len;
        old = b[pos];
        b[pos] = (unsigned char)(old ^ (1u << (seed >> 28 & 7)) ^
                                 (i % 7 == 0 ? 0xff : 0));
        rc = ecf_catalog_load_packed(&cat, b, f->len, "t", &err);
        if (rc) {
            assert_int_equal(rc, ECF_EPARSE);
            assert_int_equal(strncmp(err.msg, "t: packed catalog: ", 19), 0);
            assert_null(cat);
            failures++;
        } else {
            assert_non_null(cat);
            ecf_catalog_free(cat);
        }
        b[pos] = old;
    }
    /* most flips land in numbers or string bytes and still load; the
     * header ones must not */
    assert_true(failures >= 50);
    free(b);
}

static void test_catalog_pack__free_null(void **state)
{
    (void)state;
    ecf_catalog_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalog_pack__round_trip_matches_json),
        cmocka_unit_test(test_catalog_pack__blob_not_referenced_after_load),
        cmocka_unit_test(test_catalog_pack__embedded_matches_json),
        cmocka_unit_test(test_catalog_pack__rejects_truncated),
        cmocka_unit_test(test_catalog_pack__rejects_bad_header),
        cmocka_unit_test(test_catalog_pack__rejects_bad_references),
        cmocka_unit_test(test_catalog_pack__survives_byte_flips),
        cmocka_unit_test(test_catalog_pack__free_null),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
