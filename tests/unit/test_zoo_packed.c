/* test_zoo_packed.c - the packed model zoo (src/data/zoo_packed.c,
 * tools/pack_zoo.c): the zoo the binary embeds is data/models.json as the
 * JSON loader reads it, model for model and lookup for lookup (a stale or
 * mis-packed blob fails here), and the packed loader refuses a blob that
 * is cut short, from another format or ABI, or has a bad model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/err.h"
#include "ec2fit/zoo.h"

#include "data_file.h"

/* header: magic[8], order, model size, key size, count (uint32 each) */
#define HDR 24

static ecf_zoo *json_zoo(void)
{
    size_t len;
    char *t = read_data("models.json", &len);
    ecf_zoo *zoo = NULL;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_zoo_load_buffer(&zoo, t, len, "models.json", &err),
                     0);
    free(t);
    return zoo;
}

static void test_zoo_packed__embedded_is_the_json_zoo(void **state)
{
    ecf_zoo *want = json_zoo(), *got = NULL;
    ecf_err err = ECF_ERR_INIT;
    size_t i, a;
    (void)state;
    assert_int_equal(ecf_zoo_embedded(&got, &err), 0);
    assert_true(ecf_zoo_count(want) >= 40); /* 45 in data/models.json */
    assert_int_equal(ecf_zoo_count(got), ecf_zoo_count(want));
    for (i = 0; i < ecf_zoo_count(want); i++) {
        const ecf_model *w = ecf_zoo_at(want, i), *g = ecf_zoo_at(got, i);
        assert_string_equal(g->name, w->name);
        if (memcmp(g, w, sizeof(*g)) != 0)
            fail_msg("%s differs from data/models.json", w->name);
        /* every name and alias finds the same model */
        assert_ptr_equal(ecf_zoo_find(got, w->name), g);
        for (a = 0; a < ECF_MODEL_MAX_ALIASES; a++)
            if (w->aliases[a][0])
                assert_string_equal(ecf_zoo_find(got, w->aliases[a])->name,
                                    ecf_zoo_find(want, w->aliases[a])->name);
    }
    /* normalised lookups as the JSON zoo's: case and separators */
    assert_ptr_equal(ecf_zoo_find(got, "ResNet-50"),
                     ecf_zoo_find(got, "resnet50"));
    assert_string_equal(ecf_zoo_find(got, "llama-3.1-8b")->name,
                        "llama-3.1-8b");
    assert_null(ecf_zoo_find(got, "no-such-model"));
    ecf_zoo_free(got);
    ecf_zoo_free(want);
}

/* Packs the JSON zoo; *len its length. */
static unsigned char *packed(size_t *len, size_t *n)
{
    ecf_zoo *zoo = json_zoo();
    void *blob = NULL;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_zoo_pack(&blob, len, zoo, &err), 0);
    *n = ecf_zoo_count(zoo);
    ecf_zoo_free(zoo);
    return blob;
}

static void expect_refused(const unsigned char *b, size_t len,
                           const char *msg)
{
    ecf_zoo *zoo = (ecf_zoo *)(uintptr_t)1;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_zoo_load_packed(&zoo, b, len, "z", &err),
                     ECF_EPARSE);
    assert_null(zoo);
    assert_string_equal(err.msg, msg);
}

static void test_zoo_packed__round_trip_and_refusals(void **state)
{
    size_t len, n;
    unsigned char *b = packed(&len, &n);
    unsigned char *bad = malloc(len);
    ecf_zoo *zoo = NULL;
    ecf_err err = ECF_ERR_INIT;
    char msg[160];
    uint32_t u;
    ecf_model m;
    (void)state;
    assert_non_null(bad);
    assert_int_equal(len, HDR + n * (sizeof(ecf_model) +
                                     (ECF_MODEL_MAX_ALIASES + 1) * 64));
    assert_int_equal(ecf_zoo_load_packed(&zoo, b, len, "z", &err), 0);
    assert_int_equal(ecf_zoo_count(zoo), n);
    assert_string_equal(ecf_zoo_find(zoo, "resnet50")->name, "resnet50");
    ecf_zoo_free(zoo);

    expect_refused(b, 10, "z: packed zoo: 10 bytes, shorter than its header");
    expect_refused(NULL, 0, "z: packed zoo: 0 bytes, shorter than its header");
    snprintf(msg, sizeof(msg),
             "z: packed zoo: %zu bytes, expected %zu for %zu models", len - 1,
             len, n);
    expect_refused(b, len - 1, msg);

    memcpy(bad, b, len);
    bad[0] = 'X';
    expect_refused(bad, len, "z: packed zoo: not a packed zoo");

    memcpy(bad, b, len);
    u = (uint32_t)sizeof(ecf_model) + 8; /* another ABI's record */
    memcpy(bad + 12, &u, 4);
    expect_refused(bad, len,
                   "z: packed zoo: packed for another ABI (byte order or "
                   "record size)");

    memcpy(bad, b, len);
    u = 0x04030201u; /* the other byte order */
    memcpy(bad + 8, &u, 4);
    expect_refused(bad, len,
                   "z: packed zoo: packed for another ABI (byte order or "
                   "record size)");

    memcpy(bad, b, len);
    u = 0;
    memcpy(bad + 20, &u, 4);
    expect_refused(bad, len, "z: packed zoo: expected 1 to 1000 models, got 0");

    /* the second model's name without its NUL, then its kind past the
     * last */
    memcpy(bad, b, len);
    memcpy(&m, bad + HDR + sizeof(ecf_model), sizeof(m));
    memset(m.name, 'a', sizeof(m.name));
    memcpy(bad + HDR + sizeof(ecf_model), &m, sizeof(m));
    expect_refused(bad, len,
                   "z: packed zoo: model 1: bad kind or an unterminated name");
    memcpy(bad, b, len);
    memcpy(&m, bad + HDR + sizeof(ecf_model), sizeof(m));
    m.kind = ECF_KIND_COUNT;
    memcpy(bad + HDR + sizeof(ecf_model), &m, sizeof(m));
    expect_refused(bad, len,
                   "z: packed zoo: model 1: bad kind or an unterminated name");

    assert_int_equal(ecf_zoo_pack((void **)&zoo, &len, NULL, &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "packed zoo: no zoo");
    free(bad);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zoo_packed__embedded_is_the_json_zoo),
        cmocka_unit_test(test_zoo_packed__round_trip_and_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
