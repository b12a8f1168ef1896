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
    ecf_price pr = {"us-east-1", 1.861, 1.17243, 0.65135, 65, 0, -1, -1, -1};
    ecf_price none = {"us-east-1", 1.861, -1, -1, 0, -1, -1, -1, -1};
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
    /* published Savings Plan rates replace both estimates: p5.48xlarge
     * us-east-1, EC2 Instance Savings Plans no upfront, $34.6752 (1 year)
     * and $23.77728 (3 years), AWS Price List of 2026-09-25
     * (data/sources/ec2_savings_plans.csv); no reserved rate */
    {
        ecf_price p5 = {"us-east-1", 55.04, -1, 26.4192, 52, 4, 41.528,
                        34.6752, 23.77728};
        assert_true(ecf_purchase_rate(&p5, ECF_PURCHASE_SP_1Y, &est) ==
                    34.6752);
        assert_false(est);
        assert_true(ecf_purchase_rate(&p5, ECF_PURCHASE_SP_3Y, &est) ==
                    23.77728);
        assert_false(est);
        assert_true(ecf_purchase_rate(&p5, ECF_PURCHASE_RESERVED_1Y, NULL) <
                    0);
    }
    /* 1.17243 / 1.861 = 0.63: a reservation pays from 63% of the hours */
    assert_true(fabs(ecf_purchase_break_even(1.17243, 1.861) - 0.63) < 1e-6);
    assert_true(ecf_purchase_break_even(-1, 1.861) == 0);
}

/* Capacity Blocks for ML: the published rate of p5.48xlarge in us-east-1
 * (data/sources/ec2_capacity_blocks.csv, the AWS pricing page as of
 * 2026-07-22: $41.528/h, $5.191 per H100), and the window rules of the
 * EC2 User Guide ("Find and purchase Capacity Blocks"). */
static void test_fleet__capacity_block_rate(void **state)
{
    ecf_price p5 = {"us-east-1", 55.04, -1, 26.4192, 52, 4, 41.528, -1, -1};
    ecf_price none = {"us-east-1", 55.04, -1, 26.4192, 52, 4, -1, -1, -1};
    bool est = true;
    (void)state;
    assert_int_equal(ecf_purchase_parse("capacity-block"),
                     ECF_PURCHASE_CAPACITY_BLOCK);
    assert_string_equal(ecf_purchase_name(ECF_PURCHASE_CAPACITY_BLOCK),
                        "capacity-block");
    /* a published rate, not an estimate */
    assert_true(ecf_purchase_rate(&p5, ECF_PURCHASE_CAPACITY_BLOCK, &est) ==
                41.528);
    assert_false(est);
    /* no published rate: no option, never on-demand's */
    assert_true(ecf_purchase_rate(&none, ECF_PURCHASE_CAPACITY_BLOCK, NULL) <
                0);
}

static void test_fleet__capacity_block_window(void **state)
{
    int blocks = -1;
    (void)state;
    /* days: whole days up to 14, then multiples of 7 up to 182 */
    assert_int_equal(ecf_capacity_block_window(&blocks, 3.2 * 24, 1), 4);
    assert_int_equal(blocks, 1);
    assert_int_equal(ecf_capacity_block_window(NULL, 1.0, 1), 1);
    assert_int_equal(ecf_capacity_block_window(NULL, 24.0, 1), 1);
    assert_int_equal(ecf_capacity_block_window(NULL, 24.01, 1), 2);
    assert_int_equal(ecf_capacity_block_window(NULL, 14 * 24.0, 1), 14);
    assert_int_equal(ecf_capacity_block_window(NULL, 14.1 * 24, 1), 21);
    assert_int_equal(ecf_capacity_block_window(NULL, 15 * 24.0, 1), 21);
    assert_int_equal(ecf_capacity_block_window(NULL, 21 * 24.0, 1), 21);
    assert_int_equal(ecf_capacity_block_window(NULL, 22 * 24.0, 1), 28);
    assert_int_equal(ecf_capacity_block_window(NULL, 176 * 24.0, 1), 182);
    assert_int_equal(ecf_capacity_block_window(NULL, 182 * 24.0, 1), 182);
    /* past 182 days, or no time: no window */
    assert_int_equal(ecf_capacity_block_window(&blocks, 183 * 24.0, 1), 0);
    assert_int_equal(blocks, 0);
    assert_int_equal(ecf_capacity_block_window(NULL, 182.01 * 24, 1), 0);
    assert_int_equal(ecf_capacity_block_window(NULL, 0, 1), 0);
    /* instances: exactly the nodes, in the fewest blocks of 1..64
     * (20 = 16 + 4; 100 = 64 + 32 + 4; 256 = 4 x 64) */
    assert_int_equal(ecf_capacity_block_window(&blocks, 24, 16), 1);
    assert_int_equal(blocks, 1);
    assert_int_equal(ecf_capacity_block_window(&blocks, 24, 20), 1);
    assert_int_equal(blocks, 2);
    assert_int_equal(ecf_capacity_block_window(&blocks, 24, 100), 1);
    assert_int_equal(blocks, 3);
    assert_int_equal(ecf_capacity_block_window(&blocks, 24, 63), 1);
    assert_int_equal(blocks, 6);
    assert_int_equal(ecf_capacity_block_window(&blocks, 24, 256), 1);
    assert_int_equal(blocks, 4);
    /* more than the account's 256 instances: none */
    assert_int_equal(ecf_capacity_block_window(&blocks, 24, 257), 0);
    assert_int_equal(ecf_capacity_block_window(NULL, 24, 0), 0);
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
        cmocka_unit_test(test_fleet__capacity_block_rate),
        cmocka_unit_test(test_fleet__capacity_block_window),
        cmocka_unit_test(test_fleet__asg_with_peak),
        cmocka_unit_test(test_fleet__asg_without_peak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
