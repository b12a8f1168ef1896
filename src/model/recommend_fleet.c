/*
 * recommend_fleet.c - the scorer's serving fleet: a serving plan's cost as
 * the Auto Scaling group it describes (min at the target utilisation, the
 * expected fleet, the commitment rate for the always-on part) and rank 1's
 * scaling policy and CPU fallback. Pure. docs/rules.md "Auto Scaling".
 */
#include "ec2fit/recommend.h"

#include <math.h>
#include <string.h>

#include "ec2fit/fleet.h"

#include "recommend_internal.h"

/* The commitment a serving plan's always-on instances are bought with and
 * its hourly rate (*rate_out): --purchase, or under auto the 1-year
 * reserved rate when the catalog has one (24/7 instances run 100% of the
 * hours, above any break-even below 1), else a published (not estimated)
 * 1-year Savings Plan rate; on-demand otherwise, and when the rate is
 * unknown or not below on-demand. */
static ecf_purchase serving_commitment(double *rate_out,
                                       const ecf_recommend_opts *o,
                                       const ecf_price *pr)
{
    ecf_purchase want = o->purchase;
    double r;
    *rate_out = pr->ondemand_usd_per_hour;
    if (want == ECF_PURCHASE_AUTO)
        want = pr->reserved_1y_usd_per_hour <= 0 &&
                       pr->savings_plan_1y_usd_per_hour > 0
                   ? ECF_PURCHASE_SP_1Y
                   : ECF_PURCHASE_RESERVED_1Y;
    if (want == ECF_PURCHASE_SPOT || want == ECF_PURCHASE_ON_DEMAND)
        return ECF_PURCHASE_ON_DEMAND;
    r = ecf_purchase_rate(pr, want, NULL);
    if (r <= 0 || ecf_purchase_break_even(r, pr->ondemand_usd_per_hour) >= 1)
        return ECF_PURCHASE_ON_DEMAND;
    *rate_out = r;
    return want;
}

void ecf_recommend_cost_serving(ecf_plan *p, ecf_rule_input *in,
                                const ecf_model *m, const ecf_workload *w,
                                const ecf_recommend_opts *o,
                                const ecf_estimate *e, const ecf_price *price,
                                bool spot, int group_nodes)
{
    double od = price->ondemand_usd_per_hour;
    double cap_group = e->max_qps_per_replica * (e->replicas > 0 ? e->replicas : 1);
    double qps = w->qps, commit_rate, extra_rate, qps_eff;
    double u = o->target_utilization > 0 ? o->target_utilization
                                            : ECF_ASG_TARGET_UTILIZATION;
    double peak = o->peak_qps > 0 ? o->peak_qps
                                     : qps * ECF_ASG_PEAK_FACTOR;
    bool llm = ecf_model_kind_is_llm(m->kind);
    ecf_asg_fleet fl;

    /* Scale in whole replica groups, sized so each runs at the target
     * utilisation (docs/rules.md "Auto Scaling"). */
    ecf_asg_size(&fl, qps, peak, o->peak_qps > 0, cap_group, u,
                 o->start_time_s);
    if ((double)fl.max_groups * group_nodes > 1e6)
        fl.max_groups = fl.min_groups = (int)(1e6 / group_nodes);
    p->spot = spot;
    if (spot) {
        p->purchase_option = ECF_PURCHASE_SPOT;
        commit_rate = price->spot_usd_per_hour;
    } else {
        p->purchase_option = serving_commitment(&commit_rate, o, price);
    }
    extra_rate = spot ? price->spot_usd_per_hour : od;
    p->nodes_per_group = group_nodes;
    p->nodes = fl.min_groups * group_nodes;
    p->asg_min = p->nodes;
    p->asg_max = fl.max_groups * group_nodes;
    /* EC2 Auto Scaling refuses a warm pool on a group whose launch
     * template requests Spot Instances (PutWarmPool, API reference), so a
     * spot fleet has none: its new instances boot cold */
    p->asg_warm_pool = spot ? 0 : fl.warm_groups * group_nodes;
    p->asg_expected = fl.expected_groups * group_nodes;
    p->capacity_qps = cap_group * fl.min_groups;
    p->usd_per_hour_instance = commit_rate;
    /* the always-on minimum at the commitment rate, the instances above
     * it (part of the day) on-demand */
    p->hourly_usd = commit_rate * p->nodes +
                    extra_rate * (p->asg_expected - p->nodes);
    /* A burstable type (docs/estimation.md "Burstable CPUs"): its mean
     * load per vCPU is the mean request rate over the expected fleet's
     * full-speed capacity. In unlimited mode the load above the baseline
     * is billed as surplus credits (credits are earned at the baseline
     * rate and spent at the load, so the bill follows the mean); standard
     * mode's capacity is the baseline already, so its load stays within. */
    p->burst_baseline = e->burst_baseline;
    p->burst_unlimited = e->burst_usd_per_hour_per_load > 0;
    p->burst_load = 0;
    p->burst_surcharge_usd_per_hour = 0;
    if (e->burst_baseline > 0 && cap_group > 0 && fl.expected_groups > 0) {
        double cap_full = cap_group * fl.expected_groups /
                          (p->burst_unlimited ? 1.0 : e->burst_baseline);
        double avg = qps > 0 ? fl.avg_qps : 0;
        p->burst_load = avg / cap_full;
        if (p->burst_unlimited && p->burst_load > e->burst_baseline)
            p->burst_surcharge_usd_per_hour =
                e->burst_usd_per_hour_per_load *
                (p->burst_load - e->burst_baseline) * p->asg_expected;
        p->hourly_usd += p->burst_surcharge_usd_per_hour;
    }
    p->startup_s = e->startup_s;
    p->compile_s = e->compile_s;
    p->monthly_usd = p->hourly_usd * HOURS_PER_MONTH;
    p->interruption_band = spot ? price->interruption_band : -1;
    qps_eff = qps > 0 ? fl.avg_qps : cap_group;
    if (qps_eff > 0) {
        double units = qps_eff * 3600.0;
        int out_tokens = w->output_tokens > 0 ? w->output_tokens : 1;
        if (llm)
            units *= out_tokens;
        p->usd_per_million = p->hourly_usd / units * 1e6;
    }

    /* every member is written here or by the scorer's fill_targets(),
     * which follows: no clearing pass per plan */
    in->nodes = p->nodes;
    in->nodes_per_group = group_nodes;
    in->spot = spot;
    in->interruption_band = p->interruption_band;
    in->hourly_usd = p->hourly_usd;
    in->total_usd = p->monthly_usd; /* --budget is monthly for serving */
    in->instances_needed = p->nodes;
    in->checkpoint_hours = o->checkpoint_hours;
    in->cb_usd_per_hour = price ? price->capacity_block_usd_per_hour : 0;
    in->time_hours = 0; /* serving: no job time */
    in->expected_interruptions = 0;
}

/* Rank 1's Auto Scaling group and the scaling policy's target value
 * (docs/rules.md "Auto Scaling"), and the --fallback cpu group. */
void ecf_recommend_fleet_summary(ecf_recommendation *r, const ecf_recommend_opts *o)
{
    const ecf_plan *top = &r->plans[0];
    double per_inst = top->capacity_qps / (top->nodes > 0 ? top->nodes : 1);
    double u = o->target_utilization > 0 ? o->target_utilization
                                         : ECF_ASG_TARGET_UTILIZATION;
    double wait = o->max_wait_s > 0 ? o->max_wait_s : ECF_ASG_MAX_WAIT_S;
    size_t i;

    r->asg_min = top->asg_min;
    r->asg_max = top->asg_max;
    r->asg_expected = top->asg_expected;
    r->asg_warm_pool = top->asg_warm_pool;
    r->asg_utilization = u;
    r->peak_defaulted = !(o->peak_qps > 0) && r->workload.qps > 0;
    r->asg_target_qps_per_instance = per_inst * u;
    /* ALBRequestCountPerTarget counts requests per target per minute; the
     * SQS backlog target is what one instance clears in the acceptable
     * wait at the target utilisation */
    r->asg_target_value = o->async ? per_inst * u * wait : per_inst * u * 60;
    if (o->fallback_cpu)
        for (i = 0; i < r->n_plans; i++)
            if (r->plans[i].inst->accel_count == 0) {
                r->fallback_index = (long)i;
                break;
            }
}

/* A job's burstable fields: a job is a full load (load 1) in unlimited
 * mode, which pays the estimate's surcharge per node; standard mode runs
 * at the baseline (docs/estimation.md "Burstable CPUs"). */
void ecf_rec_burst_job(ecf_plan *p, const ecf_estimate *e, int nodes)
{
    p->burst_baseline = e->burst_baseline;
    p->burst_unlimited = e->burst_usd_per_hour_per_load > 0;
    p->burst_load = e->burst_baseline <= 0 ? 0
                    : p->burst_unlimited   ? 1.0
                                           : e->burst_baseline;
    p->burst_surcharge_usd_per_hour = e->burst_surcharge_usd_per_hour * nodes;
}
