/*
 * render_fleet.c - the purchase options and Auto Scaling group of serving
 * plans as the renderers show them: per-option monthly cost and
 * break-even (JSON purchase_options), and the table/markdown footer lines
 * (the option chosen, the monthly saving, min/max/desired/target, warm
 * pool, --async and --fallback cpu). docs/rules.md has the formulas.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/fleet.h"
#include "recommend_render.h"
#include "recommend_render_internal.h"
#include "render_common.h"
#include "render_report.h"
#include "render_html_chart.h"

#define HOURS_PER_MONTH 730.0

void ecf_rr_purchase_rows(rr_purchase_row out[RR_PURCHASE_ROWS],
                      const ecf_plan *p)
{
    static const ecf_purchase opts[RR_PURCHASE_ROWS] = {
        ECF_PURCHASE_ON_DEMAND, ECF_PURCHASE_RESERVED_1Y, ECF_PURCHASE_SP_1Y,
        ECF_PURCHASE_SP_3Y};
    const ecf_price *pr = ecf_instance_price(p->inst, p->region);
    double od = pr ? pr->ondemand_usd_per_hour : -1;
    double extra = p->asg_expected - p->asg_min;
    int i;

    if (extra < 0)
        extra = 0;
    for (i = 0; i < RR_PURCHASE_ROWS; i++) {
        rr_purchase_row *x = &out[i];
        x->option = opts[i];
        x->usd_per_hour = ecf_purchase_rate(pr, opts[i], &x->estimated);
        x->monthly_usd = -1;
        x->break_even_pct = 0;
        if (x->usd_per_hour > 0 && od > 0) {
            /* a burstable plan's surplus credits cost the same under
             * every purchase option (docs/estimation.md "Burstable CPUs") */
            x->monthly_usd = (p->asg_min * x->usd_per_hour + extra * od +
                              p->burst_surcharge_usd_per_hour) *
                             HOURS_PER_MONTH;
            x->break_even_pct =
                100 * ecf_purchase_break_even(x->usd_per_hour, od);
        }
    }
}

/* An On-Demand Capacity Reservation for a serving plan on a type whose
 * on-demand capacity is scarce (ecf_estimate_capacity_note): it holds the
 * always-on instances at the on-demand rate, used or not, and Savings
 * Plans and regional RIs discount it (EC2 User Guide, "Capacity
 * Reservation pricing and billing"; docs/rules.md "On-Demand Capacity
 * Reservations"). Returns false for other plans. */
static bool odcr_row(rr_purchase_row *x, const ecf_plan *p)
{
    const ecf_price *pr;
    double extra = p->asg_expected - p->asg_min;
    if (p->spot || !ecf_estimate_capacity_note(p->inst))
        return false;
    pr = ecf_instance_price(p->inst, p->region);
    if (!pr || pr->ondemand_usd_per_hour <= 0)
        return false;
    if (extra < 0)
        extra = 0;
    x->option = ECF_PURCHASE_ON_DEMAND;
    x->usd_per_hour = pr->ondemand_usd_per_hour;
    x->monthly_usd =
        (p->asg_min + extra) * pr->ondemand_usd_per_hour * HOURS_PER_MONTH;
    x->break_even_pct = 100;
    x->estimated = false;
    return true;
}

double ecf_rr_purchase_saving(const ecf_plan *p)
{
    rr_purchase_row rows[RR_PURCHASE_ROWS];
    double s;
    ecf_rr_purchase_rows(rows, p);
    if (rows[0].monthly_usd <= 0)
        return 0;
    s = rows[0].monthly_usd - p->monthly_usd;
    return s > 0 ? s : 0;
}

void ecf_rr_print_fleet_text(FILE *f, const rr_view *v, bool markdown)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p;
    const char *li = markdown ? "- " : "  ";
    double u = r->asg_utilization > 0 ? r->asg_utilization : 0.7;

    if (!r->serving || r->n_plans == 0)
        return;
    p = &r->plans[0];
    fprintf(f, "\n%sPurchase (rank 1): %s", markdown ? "- " : "",
            purchase(p));
    if (!p->spot && p->purchase_option != ECF_PURCHASE_ON_DEMAND) {
        const ecf_price *pr = ecf_instance_price(p->inst, p->region);
        double be = pr ? 100 * ecf_purchase_break_even(
                                   p->usd_per_hour_instance,
                                   pr->ondemand_usd_per_hour)
                       : 0;
        fprintf(f, " for the %d always-on instances, on-demand above; saves "
                   "$%.2f/month against on-demand (break-even at %.0f%% "
                   "utilisation)",
                p->asg_min, ecf_rr_purchase_saving(p), be);
    }
    fprintf(f, "\n");
    {
        rr_purchase_row odcr;
        if (odcr_row(&odcr, p)) {
            fprintf(f,
                    "%sCapacity (rank 1): on-demand %s capacity is scarce: an "
                    "On-Demand Capacity Reservation holds the %d always-on "
                    "instance%s at the on-demand rate, $%.2f/month, charged "
                    "whether %s or not; Savings Plans and regional Reserved "
                    "Instances apply to it",
                    li, p->inst->type, p->asg_min,
                    p->asg_min == 1 ? "" : "s", odcr.monthly_usd,
                    p->asg_min == 1 ? "it runs" : "they run");
            if (p->purchase_option != ECF_PURCHASE_ON_DEMAND)
                fprintf(f, " (the %s plan's $%.2f/month holds it)",
                        purchase(p), p->monthly_usd);
            fputc('\n', f);
        }
    }
    if (markdown) /* customer wording, as the HTML page */
        fprintf(f, "- Auto Scaling: minimum %d, maximum %d instances "
                   "(desired %d%s); expected %.2f over the day\n",
                r->asg_min, r->asg_max, r->asg_min,
                r->peak_defaulted ? "; the maximum serves twice the expected "
                                    "load: no peak load was given"
                                  : "",
                r->asg_expected);
    else
        fprintf(f, "%sAuto Scaling: min %d, desired %d, max %d instances%s; "
                   "expected %.2f over the day\n",
                li, r->asg_min, r->asg_min, r->asg_max,
                r->peak_defaulted ? " (max for 2x --qps: no --peak-qps)" : "",
                r->asg_expected);
    if (r->opts.async)
        fprintf(f, "%sScaling policy: SQS backlog per instance, target %.3g "
                   "messages (%.3g req/s x %.0f s wait at %.0f%%); "
                   "cooldowns %d s\n",
                li, r->asg_target_value, r->asg_target_qps_per_instance,
                r->asg_target_qps_per_instance > 0
                    ? r->asg_target_value / r->asg_target_qps_per_instance
                    : 0,
                100 * u, ECF_ASG_COOLDOWN_S);
    else
        fprintf(f, "%sScaling policy: ALBRequestCountPerTarget, target %.4g "
                   "requests per minute (%.3g req/s per instance, %.0f%% of "
                   "capacity)\n",
                li, r->asg_target_value, r->asg_target_qps_per_instance,
                100 * u);
    if (r->n_plans > 0 && r->plans[0].spot)
        fprintf(f, "%sWarm pool: none (EC2 Auto Scaling keeps no warm pool "
                   "for a group that launches Spot Instances)\n", li);
    else
        fprintf(f, "%sWarm pool: %d instance(s)\n", li, r->asg_warm_pool);
    {
        char fb[256];
        ecf_rr_fallback_text(fb, sizeof(fb), r);
        if (fb[0])
            fprintf(f, "%sCPU fallback group: %s\n", li, fb);
    }
}

void ecf_rr_json_fleet_plan(rj *o, const ecf_plan *p)
{
    rr_purchase_row rows[RR_PURCHASE_ROWS];
    rj po, a;
    int i;

    ecf_rr_purchase_rows(rows, p);
    po = rj_open(o, "purchase_options", '{');
    for (i = 0; i < RR_PURCHASE_ROWS; i++) {
        rj x = rj_open(&po, ecf_purchase_name(rows[i].option), '{');
        if (rows[i].usd_per_hour > 0)
            rj_numr(&x, "usd_per_hour", rows[i].usd_per_hour, 6);
        else
            rj_null(&x, "usd_per_hour");
        if (rows[i].monthly_usd > 0) {
            rj_numr(&x, "monthly_usd", rows[i].monthly_usd, 2);
            rj_numr(&x, "break_even_utilization_pct",
                    rows[i].break_even_pct, 1);
        } else {
            rj_null(&x, "monthly_usd");
            rj_null(&x, "break_even_utilization_pct");
        }
        rj_bool(&x, "estimated", rows[i].estimated);
        rj_close(&x, '}');
    }
    {
        rr_purchase_row odcr;
        if (odcr_row(&odcr, p)) {
            /* additive: only on capacity-scarce types */
            rj x = rj_open(&po, "capacity-reservation", '{');
            rj_numr(&x, "usd_per_hour", odcr.usd_per_hour, 6);
            rj_numr(&x, "monthly_usd", odcr.monthly_usd, 2);
            rj_numr(&x, "break_even_utilization_pct", odcr.break_even_pct, 1);
            rj_bool(&x, "estimated", false);
            rj_num(&x, "reserved_instances", p->asg_min);
            rj_bool(&x, "discounts_apply", true);
            rj_close(&x, '}');
        }
    }
    rj_str(&po, "chosen", purchase(p));
    rj_numr(&po, "monthly_saving_usd", ecf_rr_purchase_saving(p), 2);
    rj_close(&po, '}');
    a = rj_open(o, "auto_scaling", '{');
    rj_num(&a, "min_instances", p->asg_min);
    rj_num(&a, "desired_instances", p->asg_min);
    rj_num(&a, "max_instances", p->asg_max);
    rj_numr(&a, "expected_instances", p->asg_expected, 3);
    rj_num(&a, "warm_pool_size", p->asg_warm_pool);
    rj_close(&a, '}');
}

void ecf_rr_json_fleet_summary(cJSON *a, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    cJSON_AddNumberToObject(a, "desired_instances", r->asg_min);
    ecf_render_json_add_num(a, "expected_instances", r->asg_expected, 3);
    ecf_render_json_add_num(a, "target_utilization_pct", 100 * r->asg_utilization,
                     1);
    cJSON_AddBoolToObject(a, "peak_qps_defaulted", r->peak_defaulted);
    cJSON_AddStringToObject(a, "policy", r->opts.async
                                             ? "sqs-backlog-per-instance"
                                             : "alb-request-count-per-target");
    ecf_render_json_add_num(a, "target_value", r->asg_target_value, 3);
    if (r->opts.async)
        ecf_render_json_add_num(a, "max_wait_s",
                         r->opts.max_wait_s > 0 ? r->opts.max_wait_s
                                                : ECF_ASG_MAX_WAIT_S,
                         3);
    cJSON_AddNumberToObject(a, "scale_out_cooldown_s", ECF_ASG_COOLDOWN_S);
    cJSON_AddNumberToObject(a, "scale_in_cooldown_s", ECF_ASG_COOLDOWN_S);
    cJSON_AddNumberToObject(a, "warm_pool_size", r->asg_warm_pool);
    ecf_render_json_add_num(a, "start_time_s",
                     r->opts.start_time_s > 0 ? r->opts.start_time_s
                                              : ECF_ASG_START_S,
                     3);
    if (r->opts.fallback_cpu) {
        if (r->fallback_index >= 0) {
            const ecf_plan *fb = &r->plans[r->fallback_index];
            cJSON *x = cJSON_AddObjectToObject(a, "fallback_cpu");
            cJSON_AddStringToObject(x, "instance_type", fb->inst->type);
            cJSON_AddNumberToObject(x, "min_instances", fb->asg_min);
            cJSON_AddNumberToObject(x, "max_instances", fb->asg_max);
            ecf_render_json_add_num(x, "capacity_qps_per_instance",
                             fb->capacity_qps /
                                 (fb->nodes > 0 ? fb->nodes : 1),
                             3);
            ecf_render_json_add_num(x, "monthly_usd", fb->monthly_usd, 2);
        } else {
            cJSON_AddNullToObject(a, "fallback_cpu");
        }
    }
}

void ecf_rr_print_fleet_html(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p;
    rr_purchase_row rows[RR_PURCHASE_ROWS];
    int i;

    if (!r->serving || r->n_plans == 0)
        return;
    p = &r->plans[0];
    ecf_rr_purchase_rows(rows, p);
    fputs("<h2>Purchase and Auto Scaling (rank 1)</h2>\n<div class=\"wide\">"
          "<table>\n<tr>"
          "<th>Purchase option</th><th>$/hour per instance</th>"
          "<th>$/month</th><th>Break-even utilisation</th></tr>\n",
          f);
    for (i = 0; i < RR_PURCHASE_ROWS; i++) {
        fprintf(f, "<tr><td>%s%s%s</td>", ecf_purchase_name(rows[i].option),
                rows[i].estimated ? " (bound)" : "",
                strcmp(ecf_purchase_name(rows[i].option), purchase(p)) == 0
                    ? " &#10003;"
                    : "");
        if (rows[i].monthly_usd > 0)
            fprintf(f, "<td>$%.4f</td><td>$%.2f</td><td>%.0f%%</td></tr>\n",
                    rows[i].usd_per_hour, rows[i].monthly_usd,
                    rows[i].break_even_pct);
        else
            fputs("<td>n/a</td><td>n/a</td><td>n/a</td></tr>\n", f);
    }
    fprintf(f, "</table></div>\n<dl>\n<dt>Instances</dt><dd>min %d, desired %d, "
               "max %d%s; expected %.2f over the day</dd>\n"
               "<dt>Scaling policy</dt><dd>%s, target value %.4g</dd>\n"
               "<dt>Warm pool</dt><dd>%d instance(s)</dd>\n",
            r->asg_min, r->asg_min, r->asg_max,
            r->peak_defaulted ? " (for 2&times; the load: no peak load given)"
                              : "",
            r->asg_expected,
            r->opts.async ? "SQS backlog per instance"
                          : "ALBRequestCountPerTarget (per minute)",
            r->asg_target_value, r->asg_warm_pool);
    {
        char fb[256];
        ecf_rr_fallback_text(fb, sizeof(fb), r);
        if (fb[0]) { /* as the table and Markdown state it */
            fputs("<dt>CPU fallback group</dt><dd>", f);
            ecf_rr_html_esc(f, fb);
            fputs("</dd>\n", f);
        }
    }
    fputs("</dl>\n", f);
}

/* Spot Advisor's bands describe how often capacity was reclaimed, not
 * how much there is: a deep-discount pick found by comparing many regions
 * is where capacity may be shortest (docs/rules.md "Spot risk"). */
static const char spot_caveat[] =
    "spot capacity is not guaranteed: a type picked across several regions "
    "for its discount may have little spare capacity there; check the Spot "
    "placement score (aws ec2 get-spot-placement-scores) or keep an "
    "on-demand fallback";

void ecf_rr_json_spot_risk(rj *o, const rr_view *v, const ecf_plan *p)
{
    if (!v->rec->serving && p->expected_interruptions > 0)
        rj_numr(o, "interruption_probability",
                1 - exp(-p->expected_interruptions), 4);
    if (v->opts->n_regions > 1)
        rj_str(o, "capacity_caveat", spot_caveat);
}

void ecf_rr_print_spot_caveat(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t i, n = shown(v);
    for (i = 0; i < n; i++)
        if (r->plans[i].spot && v->opts->n_regions > 1) {
            fprintf(f, "\nSpot across %zu regions: %s.\n",
                    v->opts->n_regions, spot_caveat);
            return;
        }
}
