/*
 * test_json_write.c - ecf_json_print against cJSON_PrintUnformatted (the
 * linked cJSON 1.7.15) on tricky numbers and strings, plus the expected
 * text written out so a change in both cannot pass unnoticed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/json_write.h"

/* Both printers on `item`: equal, and equal to `want` (NULL: both fail). */
static void check(cJSON *item, const char *want)
{
    char *a = ecf_json_print(item);
    char *b = cJSON_PrintUnformatted(item);
    if (want) {
        assert_non_null(a);
        assert_non_null(b);
        assert_string_equal(b, want);
        assert_string_equal(a, want);
    } else {
        assert_null(a);
        assert_null(b);
    }
    free(a);
    cJSON_free(b);
    cJSON_Delete(item);
}

static void test_numbers(void **state)
{
    (void)state;
    check(cJSON_CreateNumber(0.1), "0.1");
    check(cJSON_CreateNumber(1e300), "1e+300");
    check(cJSON_CreateNumber(-0.0), "-0");
    check(cJSON_CreateNumber(123456789012.0), "123456789012");
    check(cJSON_CreateNumber(1.5), "1.5");
    check(cJSON_CreateNumber(NAN), "null");
    check(cJSON_CreateNumber(INFINITY), "null");
    check(cJSON_CreateNumber(-INFINITY), "null");
    check(cJSON_CreateNumber(1.0 / 3.0), "0.33333333333333331"); /* %1.17g */
    /* within cJSON's compare_double tolerance (max * DBL_EPSILON): "%1.15g" */
    check(cJSON_CreateNumber(0.1 + 0.2), "0.3");
    check(cJSON_CreateNumber(5e-324), "4.94065645841247e-324");
    /* "%1.15g" reads back as inf, and inf - d <= inf * DBL_EPSILON holds */
    check(cJSON_CreateNumber(1.7976931348623157e308), "1.79769313486232e+308");
    check(cJSON_CreateNumber(2147483648.0), "2147483648");
    check(cJSON_CreateNumber(-42.0), "-42");
    check(cJSON_CreateNumber(1e15), "1e+15");
    check(cJSON_CreateNumber(32.768), "32.768");
    /* the printf-free path's edges: %g's fixed range is [1e-4, 1e15) */
    check(cJSON_CreateNumber(0.0001), "0.0001");
    check(cJSON_CreateNumber(0.00012345), "0.00012345");
    check(cJSON_CreateNumber(1e-5), "1e-05");
    check(cJSON_CreateNumber(123456789012345.0), "123456789012345");
    check(cJSON_CreateNumber(999999999999999.0), "999999999999999");
    check(cJSON_CreateNumber(-0.070242), "-0.070242");
    check(cJSON_CreateNumber(22.78656), "22.78656");
    check(cJSON_CreateNumber(100.0), "100");
    check(cJSON_CreateNumber(0.1 * 3), "0.3");
}

/* ecf_json_print formats most numbers without printf (json_write.c,
 * fast_g15): it must give cJSON's text for every double. Rounded values
 * of every magnitude (what the renderers print), integers, and raw bit
 * patterns; xorshift64, fixed seed. */
static void test_numbers_random(void **state)
{
    uint64_t s = 88172645463325252u;
    long i, bad = 0;
    (void)state;
    for (i = 0; i < 200000; i++) {
        double d;
        uint64_t r;
        cJSON *item;
        char *a, *b;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        r = s;
        switch (i % 4) {
        case 0:
            memcpy(&d, &r, sizeof(d));
            break;
        case 1: /* k decimals, k = 0..11 */
            d = (double)(r % 100000000) / pow(10, (double)((r >> 40) % 12));
            break;
        case 2: /* signed integers x 10^-20 .. 10^19 */
            d = ((double)(int64_t)(r % 2000001) - 1000000) *
                pow(10, (double)((int)((r >> 32) % 40) - 20));
            break;
        default: /* 53 random bits, 1e-10 .. 1e19 */
            d = (double)(r >> 11) / 9007199254740992.0 *
                pow(10, (double)((int)((r >> 3) % 30) - 10));
            break;
        }
        item = cJSON_CreateNumber(d);
        a = ecf_json_print(item);
        b = cJSON_PrintUnformatted(item);
        if (!a || !b || strcmp(a, b) != 0)
            bad++;
        free(a);
        cJSON_free(b);
        cJSON_Delete(item);
    }
    assert_int_equal(bad, 0);
}

static void test_strings(void **state)
{
    (void)state;
    check(cJSON_CreateString("a\"b\\c/d"), "\"a\\\"b\\\\c/d\"");
    check(cJSON_CreateString("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
    check(cJSON_CreateString("x\x01y\x1f\x7f"), "\"x\\u0001y\\u001f\x7f\"");
    check(cJSON_CreateString("\x1b[0m"), "\"\\u001b[0m\"");
    check(cJSON_CreateString("H100 \xc2\xb5s \xe2\x80\x94 \xf0\x9f\x9a\x80"),
          "\"H100 \xc2\xb5s \xe2\x80\x94 \xf0\x9f\x9a\x80\"");
    check(cJSON_CreateString(""), "\"\"");
}

static void test_tree(void **state)
{
    cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();
    (void)state;
    cJSON_AddItemToArray(a, cJSON_CreateNumber(1));
    cJSON_AddItemToArray(a, cJSON_CreateNull());
    cJSON_AddItemToArray(a, cJSON_CreateObject());
    cJSON_AddItemToArray(a, cJSON_CreateArray());
    cJSON_AddItemToObject(o, "k\n\"", a);
    cJSON_AddTrueToObject(o, "t");
    cJSON_AddFalseToObject(o, "f");
    cJSON_AddRawToObject(o, "raw", "{\"x\": 1}");
    cJSON_AddStringToObject(o, "s", "v");
    check(o, "{\"k\\n\\\"\":[1,null,{},[]],\"t\":true,\"f\":false,"
             "\"raw\":{\"x\": 1},\"s\":\"v\"}");
    check(cJSON_CreateObject(), "{}");
    check(cJSON_CreateArray(), "[]");
}

static void test_failures(void **state)
{
    cJSON *r = cJSON_CreateRaw("1");
    cJSON *o = cJSON_CreateObject();
    cJSON *n = cJSON_CreateNumber(1);
    (void)state;
    free(r->valuestring);
    r->valuestring = NULL; /* raw item without text */
    check(r, NULL);
    n->type = 0;
    cJSON_AddItemToObject(o, "bad", n);
    check(o, NULL); /* an item of no known type */
    assert_null(ecf_json_print(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_numbers_random),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
