/*
 * recommend_capacity.c - EC2 Capacity Blocks for ML as a job's purchase
 * option: the cost of the reserved window, when --purchase auto offers
 * one, and why a --purchase capacity-block candidate has none. Pure: no
 * I/O. docs/rules.md ("Capacity Blocks for ML") has the rules and
 * their sources.
 */
#include "ec2fit/fleet.h"
#include "ec2fit/recommend.h"

#include <stdio.h> /* snprintf only */

#include "recommend_internal.h"

void ecf_rec_cb_cost(ecf_plan *p)
{
    int blocks = 0;
    int days = p->time_hours > 0
                   ? ecf_capacity_block_window(&blocks, p->time_hours,
                                               p->nodes)
                   : 0;
    p->cb_days = days;
    p->cb_blocks = blocks;
    /* the reservation fee is charged for the whole window, used or not
     * (the Capacity Blocks pricing page: "charged up front") */
    if (days > 0)
        p->total_usd = p->hourly_usd * 24.0 * days;
}

bool ecf_rec_cb_auto_wanted(const ecf_plan *od, const ecf_price *price)
{
    return od->inst && od->inst->accel_count > 0 &&
           ecf_purchase_rate(price, ECF_PURCHASE_CAPACITY_BLOCK, NULL) > 0 &&
           od->time_hours >= ECF_CB_AUTO_MIN_HOURS;
}

bool ecf_rec_cb_drop(ecf_recommendation *r, size_t at, int *nodes_out)
{
    if (r->plans[at].cb_days > 0)
        return false;
    *nodes_out = r->plans[at].nodes;
    if (at + 1 == r->n_plans)
        r->n_plans--;
    return true;
}

void ecf_rec_cb_reason(char *out, size_t n, const ecf_instance *inst,
                       const char *region, const ecf_price *price,
                       double hours, int nodes)
{
    if (ecf_purchase_rate(price, ECF_PURCHASE_CAPACITY_BLOCK, NULL) <= 0)
        snprintf(out, n,
                 "no Capacity Blocks for ML rate for %s in %s (AWS "
                 "publishes them for some accelerated types and regions)",
                 inst->type, region);
    else if (hours <= 0)
        snprintf(out, n,
                 "%s in %s: a Capacity Block needs the job's run time "
                 "(--dataset)",
                 inst->type, region);
    else if (nodes > ECF_CB_MAX_INSTANCES)
        snprintf(out, n,
                 "%s in %s: %d nodes, more than the %d instances an account "
                 "holds in Capacity Blocks",
                 inst->type, region, nodes, ECF_CB_MAX_INSTANCES);
    else
        snprintf(out, n,
                 "%s in %s: the job runs %.1f days on %d node%s, longer than "
                 "a Capacity Block (at most %d days)",
                 inst->type, region, hours / 24, nodes, nodes == 1 ? "" : "s",
                 ECF_CB_MAX_DAYS);
}
