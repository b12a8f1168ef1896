/* test_embedded_data.c - the data/ files the binary embeds, through the
 * strict path: the embedded loaders skip the document-wide check
 * (duplicate keys, UTF-8, control characters) for speed, so this test
 * holds each data file (models, stacks, rules, storage, images, light,
 * engines)
 * to it and to its public loader, and checks the embedded loaders still
 * load. A bad data file fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/engines.h"
#include "ec2fit/err.h"
#include "ec2fit/images.h"
#include "ec2fit/light.h"
#include "ec2fit/rules_set.h"
#include "ec2fit/stacks.h"
#include "ec2fit/storage_prices.h"
#include "ec2fit/zoo.h"
#include "json_check.h"

#include "data_file.h"

static void strict_ok(const char *file)
{
    size_t len;
    char *text = read_data(file, &len);
    cJSON *root = NULL;
    ecf_err err = ECF_ERR_INIT;
    int rc = ecf_json_parse(&root, text, len, (size_t)64 << 20, "", file,
                            ECF_EPARSE, &err);
    if (rc)
        fail_msg("%s: %s", file, err.msg);
    assert_non_null(root);
    cJSON_Delete(root);
    free(text);
}

static void test_embedded_data__every_file_passes_strict_check(void **state)
{
    static const char *const files[] = {"models.json", "stacks.json",
                                        "rules.json",  "storage.json",
                                        "images.json", "light.json",
                                        "engines.json", "engine_images.json"};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        strict_ok(files[i]);
}

/* The strict path is still the public one: a duplicate key in a copy of
 * a data file is refused with its path. */
static void test_embedded_data__public_loader_is_strict(void **state)
{
    const char *doc = "{\"schema_version\": 1, \"schema_version\": 1, "
                      "\"models\": []}";
    ecf_zoo *zoo = NULL;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_zoo_load_buffer(&zoo, doc, strlen(doc), "m.json",
                                         &err),
                     ECF_EPARSE);
    assert_null(zoo);
    assert_string_equal(err.msg, "m.json: duplicate key \"schema_version\"");
}

static void test_embedded_data__public_loaders_accept_data(void **state)
{
    size_t len;
    char *t;
    ecf_err err = ECF_ERR_INIT;
    ecf_zoo *zoo = NULL;
    ecf_stacks *stacks = NULL;
    ecf_storage_prices *sp = NULL;
    ecf_light *light = NULL;
    ecf_engines *engines = NULL;
    ecf_rules *rules = calloc(1, sizeof(*rules));
    ecf_images *images = calloc(1, sizeof(*images));
    (void)state;
    assert_non_null(rules);
    assert_non_null(images);

    t = read_data("models.json", &len);
    assert_int_equal(ecf_zoo_load_buffer(&zoo, t, len, "models.json", &err), 0);
    free(t);
    t = read_data("stacks.json", &len);
    assert_int_equal(ecf_stacks_load_buffer(&stacks, t, len, "s", &err), 0);
    free(t);
    t = read_data("storage.json", &len);
    assert_int_equal(ecf_storage_prices_load_buffer(&sp, t, len, "s", &err),
                     0);
    free(t);
    t = read_data("light.json", &len);
    assert_int_equal(ecf_light_load_buffer(&light, t, len, "l", &err), 0);
    free(t);
    t = read_data("rules.json", &len);
    assert_int_equal(ecf_rules_load_buffer(rules, t, len, "r", &err), 0);
    free(t);
    t = read_data("images.json", &len);
    assert_int_equal(ecf_images_load_buffer(images, t, len, "i", &err), 0);
    free(t);
    t = read_data("engines.json", &len);
    assert_int_equal(ecf_engines_load_buffer(&engines, t, len, "e", &err), 0);
    free(t);
    ecf_engines_free(engines);
    ecf_zoo_free(zoo);
    ecf_stacks_free(stacks);
    ecf_storage_prices_free(sp);
    ecf_light_free(light);
    free(rules);
    free(images);
}

static void test_embedded_data__embedded_loaders_load(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_zoo *zoo = NULL;
    ecf_stacks *stacks = NULL;
    ecf_storage_prices *sp = NULL;
    ecf_light *light = NULL;
    ecf_engines *engines = NULL;
    ecf_rules *rules = calloc(1, sizeof(*rules));
    ecf_images *images = calloc(1, sizeof(*images));
    (void)state;
    assert_int_equal(ecf_zoo_embedded(&zoo, &err), 0);
    assert_int_equal(ecf_stacks_embedded(&stacks, &err), 0);
    assert_int_equal(ecf_storage_prices_embedded(&sp, &err), 0);
    assert_int_equal(ecf_light_embedded(&light, &err), 0);
    assert_int_equal(ecf_rules_embedded(rules, &err), 0);
    assert_int_equal(ecf_images_embedded(images, &err), 0);
    assert_int_equal(ecf_engines_embedded(&engines, &err), 0);
    ecf_engines_free(engines);
    assert_non_null(ecf_engines_builtin());
    assert_non_null(ecf_zoo_find(zoo, "resnet50"));
    ecf_zoo_free(zoo);
    ecf_stacks_free(stacks);
    ecf_storage_prices_free(sp);
    ecf_light_free(light);
    free(rules);
    free(images);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded_data__every_file_passes_strict_check),
        cmocka_unit_test(test_embedded_data__public_loader_is_strict),
        cmocka_unit_test(test_embedded_data__public_loaders_accept_data),
        cmocka_unit_test(test_embedded_data__embedded_loaders_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
