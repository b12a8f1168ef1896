/* test_fleet.c - purchase options and Auto Scaling sizing (fleet.c):
 * values worked by hand from the formulas in docs/rules.md ("Purchase
 * options", "Auto Scaling") and the catalog's g6e.xlarge us-east-1 rates
 * (on-demand 1.861, reserved_1y 1.17243). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "ec2fit/fleet.h"

static void test_fleet__names(void **state)
{
    (void)state;
    assert_int_equal(ecf_purchase_parse("auto"), ECF_PURCHASE_AUTO);
    assert_int_equal(ecf_purchase_parse("reserved-1y"),
                     ECF_PURCHASE_RESERVED_1Y);
    assert_int_equal(ecf_purchase_parse("savings-plan-3y"),
                     ECF_PURCHASE_SP_3Y);
    assert_int_equal(ecf_purchase_parse("reserved"), -1);
    assert_string_equal(ecf_purchase_name(ECF_PURCHASE_SP_1Y),
                        "savings-plan-1y");
}

static void test_fleet__rates_and_break_even(void **state)
{
    ecf_price pr = {"us-east-1", 1.861, 1.17243, 0.65135, 65, 0};
    ecf_price none = {"us-east-1", 1.861, -1, -1, 0, -1};
    bool est = true;
    (void)state;
    assert_true(ecf_purchase_rate(&pr, ECF_PURCHASE_ON_DEMAND, &est) == 1.861);
    assert_false(est);
    assert_true(ecf_purchase_rate(&pr, ECF_PURCHASE_RESERVED_1Y, &est) ==
                1.17243);
    assert_false(est);
    /* the 1-year Savings Plan bound is the reserved rate, marked */
    assert_true(ecf_purchase_rate(&pr, ECF_PURCHASE_SP_1Y, &est) == 1.17243);
    assert_true(est);
    /* the 3-year bound: the published 66% maximum off on-demand */
    assert_true(fabs(ecf_purchase_rate(&pr, ECF_PURCHASE_SP_3Y, &est) -
                     1.861 * 0.34) < 1e-12);
    assert_true(est);
    assert_true(ecf_purchase_rate(&none, ECF_PURCHASE_RESERVED_1Y, NULL) < 0);
    assert_true(ecf_purchase_rate(&none, ECF_PURCHASE_SPOT, NULL) < 0);
    assert_true(ecf_purchase_rate(NULL, ECF_PURCHASE_ON_DEMAND, NULL) < 0);
    /* 1.17243 / 1.861 = 0.63: a reservation pays from 63% of the hours */
    assert_true(fabs(ecf_purchase_break_even(1.17243, 1.861) - 0.63) < 1e-6);
    assert_true(ecf_purchase_break_even(-1, 1.861) == 0);
}

static void test_fleet__asg_with_peak(void **state)
{
    ecf_asg_fleet f;
    (void)state;
    /* capacity 10 req/s at 50%: 5 req/s per group. qps 20 -> 4, peak 200
     * -> 40; the 24 hourly sizes ceil((20 + 180 shape(h)) / 5) sum to 540,
     * so 22.5 on average; the steepest ramp 180 pi / 86400 req/s per s
     * over 300 s is 1.96 req/s -> 1 warm group. */
    ecf_asg_size(&f, 20, 200, true, 10, 0.5, 300);
    assert_int_equal(f.min_groups, 4);
    assert_int_equal(f.max_groups, 40);
    assert_true(fabs(f.expected_groups - 22.5) < 1e-12);
    assert_int_equal(f.warm_groups, 1);
    assert_true(f.avg_qps == 110);
    /* min x capacity x target covers the trough, max the peak */
    assert_true(f.min_groups * 10 * 0.5 >= 20);
    assert_true(f.max_groups * 10 * 0.5 >= 200);
    /* a start time 30x longer: 59 req/s arrive -> 12 warm groups */
    ecf_asg_size(&f, 20, 200, true, 10, 0.5, 9000);
    assert_int_equal(f.warm_groups, 12);
}

static void test_fleet__asg_without_peak(void **state)
{
    ecf_asg_fleet f;
    (void)state;
    /* peak defaulted by the caller to 2 x qps: the fleet stays at min */
    ecf_asg_size(&f, 20, 40, false, 10, 0.7, 0);
    assert_int_equal(f.min_groups, 3); /* 20 / 7 = 2.86 */
    assert_int_equal(f.max_groups, 6); /* 40 / 7 = 5.71 */
    assert_true(f.expected_groups == 3);
    assert_true(f.avg_qps == 20);
    /* an exact fit is not rounded up: 21 / 7 = 3 */
    ecf_asg_size(&f, 21, 42, false, 10, 0.7, 0);
    assert_int_equal(f.min_groups, 3);
    /* no --qps: one replica */
    ecf_asg_size(&f, 0, 0, false, 10, 0.7, 0);
    assert_int_equal(f.min_groups, 1);
    assert_int_equal(f.max_groups, 1);
    assert_int_equal(f.warm_groups, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fleet__names),
        cmocka_unit_test(test_fleet__rates_and_break_even),
        cmocka_unit_test(test_fleet__asg_with_peak),
        cmocka_unit_test(test_fleet__asg_without_peak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
