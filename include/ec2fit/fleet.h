/**
 * ec2fit/fleet.h - how a serving plan is bought and run: purchase options
 * (on-demand, spot, 1-year reserved, Savings Plans) with their break-even,
 * and the Auto Scaling group (min/max at a target utilisation, the
 * expected fleet over a diurnal profile, warm pool). Pure; docs/rules.md
 * ("Purchase options", "Auto Scaling") has the formulas and sources.
 */
#ifndef EC2FIT_FLEET_H
#define EC2FIT_FLEET_H

#include <stdbool.h>

#include "ec2fit/catalog.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ECF_PURCHASE_AUTO = 0,
    ECF_PURCHASE_ON_DEMAND,
    ECF_PURCHASE_SPOT,
    ECF_PURCHASE_RESERVED_1Y,
    ECF_PURCHASE_SP_1Y,
    ECF_PURCHASE_SP_3Y,
    ECF_PURCHASE_CAPACITY_BLOCK /* EC2 Capacity Blocks for ML (jobs) */
} ecf_purchase;

/* Defaults (docs/rules.md "Auto Scaling"). */
#define ECF_ASG_TARGET_UTILIZATION 0.7 /* AWS target-tracking examples */
#define ECF_ASG_PEAK_FACTOR 2.0        /* --peak-qps default: 2 x --qps */
#define ECF_ASG_START_S 300.0   /* EC2 Auto Scaling default cooldown and
                                   instance warm-up, 300 s */
#define ECF_ASG_MAX_WAIT_S 10.0 /* AWS SQS-backlog example: 10 s latency */
#define ECF_ASG_COOLDOWN_S 300  /* EC2 Auto Scaling default cooldown */

/* Compute Savings Plans: published maximum discount (3-year, all
 * upfront), https://aws.amazon.com/savingsplans/faqs, as of 2026-12-01:
 * the 3-year bound of a (type, region) without a published rate
 * (ecf_price.savings_plan_3y_usd_per_hour; see ecf_purchase_rate). */
#define ECF_SP_COMPUTE_MAX_DISCOUNT 0.66

/** "auto", "on-demand", "spot", "reserved-1y", "savings-plan-1y",
 *  "savings-plan-3y", "capacity-block"; -1 when unknown. */
int ecf_purchase_parse(const char *s);
const char *ecf_purchase_name(ecf_purchase p);

/** The hourly rate of `p` for one instance, or < 0 when the catalog has
 *  no such price. Savings Plans are bounds, not rates
 *  (*estimated = true): savings-plan-1y takes the 1-year reserved rate
 *  (EC2 Instance Savings Plans price like Standard RIs; a Compute
 *  Savings Plan discounts less), savings-plan-3y the published maximum
 *  Compute Savings Plan discount (66%) off on-demand. */
double ecf_purchase_rate(const ecf_price *pr, ecf_purchase p,
                         bool *estimated);

/* EC2 Capacity Blocks for ML (docs/rules.md, "Capacity Blocks for
 * ML"; EC2 User Guide, "Find and purchase Capacity Blocks"): durations in
 * 1-day increments up to 14 days, then 7-day increments up to 182 days;
 * 1, 2, 4, 8, 16, 32 or 64 instances per block, and at most 256
 * instances across an account's blocks. */
#define ECF_CB_MAX_DAYS 182
#define ECF_CB_DAILY_MAX_DAYS 14
#define ECF_CB_MAX_BLOCK 64
#define ECF_CB_MAX_INSTANCES 256

/** The reserved window of a job of `hours` wall time on `nodes`
 *  instances: the shortest allowed duration that covers it (whole days;
 *  past 14 days, a multiple of 7), in days, and the blocks that hold the
 *  nodes (*blocks_out: the fewest allowed block sizes that add up to
 *  exactly `nodes`, i.e. its binary digits below 64 plus one block per
 *  64). Returns 0 (no window) when the job is longer than 182 days,
 *  `nodes` is outside 1..256 or `hours` is not positive. */
int ecf_capacity_block_window(int *blocks_out, double hours, int nodes);

/** Break-even utilisation of a commitment: the fraction of the hours an
 *  instance must run for `commit_usd_per_hour` paid every hour to cost
 *  less than on-demand paid only when it runs. 0 when unknown. */
double ecf_purchase_break_even(double commit_usd_per_hour,
                               double ondemand_usd_per_hour);

/* The Auto Scaling group of one serving plan, in replica groups. */
typedef struct {
    int min_groups, max_groups, warm_groups;
    double expected_groups; /* mean over the diurnal profile */
    double avg_qps;         /* mean load over the profile */
} ecf_asg_fleet;

/** Sizes the group: min = ceil(qps / (cap x u)), max = ceil(peak /
 *  (cap x u)) (peak 0: 2 x qps, and the fleet stays at min), the
 *  expected fleet the mean of the hourly sizes over the diurnal profile
 *  load(h) = qps + (peak - qps)(1 - cos(2 pi h / 24)) / 2 when
 *  `peak_given`, and the warm pool the groups the steepest ramp of that
 *  profile needs during one start time. `cap_group` is a replica's
 *  sustained requests/s at 100%; qps <= 0 gives one group. */
void ecf_asg_size(ecf_asg_fleet *out, double qps, double peak,
                  bool peak_given, double cap_group, double utilization,
                  double start_s);

#ifdef __cplusplus
}
#endif

#endif
