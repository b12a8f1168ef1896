/*
 * fleet.c - purchase options (rates, break-even) and Auto Scaling group
 * sizing for serving plans (ec2fit/fleet.h). Pure: no I/O. The formulas
 * and their sources are in docs/rules.md ("Purchase options", "Auto
 * Scaling").
 */
#include "ec2fit/fleet.h"
#include "ec2fit/satconv.h"

#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846

/* The diurnal profile's shape at the middle of each hour,
 * (1 - cos(2 pi (h + 0.5) / 24)) / 2 for h = 0..23: a table, because
 * every serving candidate of a run evaluates it (24 cos calls each were a
 * fifth of a serving run's instructions). */
static const double day_shape[24] = {
    0.004277569313094809, 0.03806023374435663, 0.10332332985438242,
    0.19561928549563967, 0.3086582838174551, 0.43473690388997416,
    0.5652630961100258, 0.6913417161825448, 0.8043807145043603,
    0.8966766701456175, 0.9619397662556434, 0.9957224306869052,
    0.9957224306869052, 0.9619397662556435, 0.8966766701456176,
    0.8043807145043604, 0.6913417161825448, 0.5652630961100258,
    0.4347369038899744, 0.3086582838174554, 0.19561928549564006,
    0.10332332985438253, 0.038060233744356575, 0.004277569313094809};

static const char *const purchase_names[] = {
    "auto",        "on-demand",       "spot",
    "reserved-1y", "savings-plan-1y", "savings-plan-3y",
    "capacity-block"};

int ecf_purchase_parse(const char *s)
{
    int i;
    for (i = 0; i < (int)(sizeof(purchase_names) / sizeof(*purchase_names));
         i++)
        if (strcmp(s, purchase_names[i]) == 0)
            return i;
    return -1;
}

const char *ecf_purchase_name(ecf_purchase p)
{
    return (unsigned)p < sizeof(purchase_names) / sizeof(*purchase_names)
               ? purchase_names[p]
               : "?";
}

double ecf_purchase_rate(const ecf_price *pr, ecf_purchase p,
                         bool *estimated)
{
    bool est = false;
    double r = -1;
    if (pr) {
        switch (p) {
        case ECF_PURCHASE_SPOT:
            r = pr->spot_usd_per_hour;
            est = true; /* from the Spot Advisor savings band */
            break;
        case ECF_PURCHASE_RESERVED_1Y:
            r = pr->reserved_1y_usd_per_hour;
            break;
        case ECF_PURCHASE_SP_1Y:
            /* a published Savings Plan rate, else the 1-year reserved
             * rate as its estimate (docs/rules.md "Purchase options") */
            r = pr->savings_plan_1y_usd_per_hour;
            if (!(r > 0)) {
                r = pr->reserved_1y_usd_per_hour;
                est = true;
            }
            break;
        case ECF_PURCHASE_CAPACITY_BLOCK:
            r = pr->capacity_block_usd_per_hour;
            break;
        case ECF_PURCHASE_SP_3Y:
            r = pr->savings_plan_3y_usd_per_hour;
            if (r > 0)
                break;
            r = pr->ondemand_usd_per_hour > 0
                    ? pr->ondemand_usd_per_hour *
                          (1 - ECF_SP_COMPUTE_MAX_DISCOUNT)
                    : -1;
            est = true;
            break;
        default:
            r = pr->ondemand_usd_per_hour;
            break;
        }
    }
    if (r <= 0)
        r = -1;
    if (estimated)
        *estimated = est;
    return r;
}

int ecf_capacity_block_window(int *blocks_out, double hours, int nodes)
{
    double d;
    int days, blocks, rest;

    if (blocks_out)
        *blocks_out = 0;
    /* the 1e-9 keeps a job of exactly N days (N x 24 h, as a double
     * product) in N days */
    if (!(hours > 0) || nodes < 1 || nodes > ECF_CB_MAX_INSTANCES)
        return 0;
    d = ceil(hours / 24.0 - 1e-9);
    if (d > ECF_CB_MAX_DAYS)
        return 0;
    days = d < 1 ? 1 : (int)d;
    if (days > ECF_CB_DAILY_MAX_DAYS)
        days = (days + 6) / 7 * 7;
    if (days > ECF_CB_MAX_DAYS)
        return 0;
    blocks = nodes / ECF_CB_MAX_BLOCK;
    for (rest = nodes % ECF_CB_MAX_BLOCK; rest; rest &= rest - 1)
        blocks++;
    if (blocks_out)
        *blocks_out = blocks;
    return days;
}

double ecf_purchase_break_even(double commit_usd_per_hour,
                               double ondemand_usd_per_hour)
{
    if (commit_usd_per_hour <= 0 || ondemand_usd_per_hour <= 0)
        return 0;
    return commit_usd_per_hour / ondemand_usd_per_hour;
}

static int groups_for(double qps, double per_group)
{
    double g = ceil(qps / per_group - 1e-9);
    if (g < 1)
        g = 1;
    if (g > 1e6)
        g = 1e6;
    return (int)g;
}

void ecf_asg_size(ecf_asg_fleet *out, double qps, double peak,
                  bool peak_given, double cap_group, double utilization,
                  double start_s)
{
    double per = cap_group * (utilization > 0 ? utilization : 1);
    int h;

    memset(out, 0, sizeof(*out));
    out->min_groups = out->max_groups = 1;
    out->expected_groups = 1;
    out->avg_qps = qps > 0 ? qps : 0;
    if (qps <= 0 || per <= 0)
        return;
    if (peak < qps)
        peak = qps;
    out->min_groups = groups_for(qps, per);
    out->max_groups = groups_for(peak, per);
    if (out->max_groups < out->min_groups)
        out->max_groups = out->min_groups;
    if (peak_given && peak > qps) {
        /* 24 hourly steps, each at the load of its middle */
        double sum = 0;
        for (h = 0; h < 24; h++) {
            double load = qps + (peak - qps) * day_shape[h];
            sum += groups_for(load, per);
        }
        out->expected_groups = sum / 24;
        out->avg_qps = (qps + peak) / 2;
    } else {
        out->expected_groups = out->min_groups;
    }
    {
        /* steepest ramp of the profile, requests/s per second, times the
         * start time: the load that arrives while a new instance boots */
        double ramp = (peak - qps) * PI / (24 * 3600.0);
        double need = ramp * (start_s > 0 ? start_s : ECF_ASG_START_S);
        out->warm_groups =
            need > 0 ? ecf_sat_int(ceil(need / per - 1e-9)) : 0;
        if (out->warm_groups > out->max_groups - out->min_groups)
            out->warm_groups = out->max_groups - out->min_groups;
    }
}
