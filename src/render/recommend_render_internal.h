/*
 * recommend_render_internal.h - helpers shared by the recommendation
 * renderers (render_table.c, render_json.c, render_csv.c,
 * render_markdown.c, render_tfvars.c), defined in recommend_render.c.
 */
#ifndef EC2FIT_RENDER_RECOMMEND_RENDER_INTERNAL_H
#define EC2FIT_RENDER_RECOMMEND_RENDER_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "recommend_render.h"

#include <cjson/cJSON.h>
#include "ec2fit/fleet.h"
#include "render_sink.h"

#define RR_SCHEMA_VERSION 2
#define MAX_CLOSEST 5

#define purchase ecf_rr_purchase_
#define marks_str ecf_rr_marks_str_
#define fmt_hours ecf_rr_fmt_hours_
#define fmt_usd ecf_rr_fmt_usd_
#define fmt_count ecf_rr_fmt_count_
#define shown ecf_rr_shown_
#define cost_basis_name ecf_rr_cost_basis_name_
#define workload_line ecf_rr_workload_line_
#define closest ecf_rr_closest_

const char *purchase(const ecf_plan *p);
/* The purchase as a reader sees it, in the table, Markdown and HTML:
 * purchase(p), or a capacity-block plan's window, "capacity block 14 d x
 * 16 nodes". */
void ecf_rr_purchase_label(char *buf, size_t n, const ecf_plan *p);
/* A capacity-block plan's note: the window, its blocks, what it costs
 * and that it is paid up front; "" for other plans. */
void ecf_rr_cb_note(char *buf, size_t n, const ecf_plan *p);
/* The rank (1-based) of the capacity-block plan of p's type and region
 * among the first `n` plans, 0 when none. */
size_t ecf_rr_cb_rank(const ecf_recommendation *r, size_t n,
                      const ecf_plan *p);
void marks_str(char *buf, size_t n, unsigned marks);
/* Appends "ranked +20%" to a NOTE cell when penalty rules weigh the
 * plan's score (score = the objective column x (1 + penalty),
 * recommend_rank.c), so the order is explainable from shown columns: a
 * cheaper plan listed below a dearer one says by how much it was
 * weighed. The Notes section names the rules. */
/** Decimals of a latency in ms as every format prints it: 2 below 1 ms,
 *  1 below 10 ms, else none, so a sub-millisecond latency never reads
 *  "0 ms" (its likely range has the same digits, ecf_rr_fmt_span). */
int ecf_rr_ms_decimals(double ms);

void ecf_rr_rank_note(char *buf, size_t n, const ecf_plan *p);
/* LLM serving (docs/cli.md "Tables"): the latency column shows time to
 * first token and time per output token, "113 / 105 ms"; the whole
 * request (latency_ms) goes to one line under the table. */
bool ecf_rr_llm_latency(const ecf_recommendation *r);
void ecf_rr_llm_cell(char *buf, size_t n, const ecf_plan *p);
/** "Latency (rank 1): the first token after 113 ms (90-300), then 105 ms
 *  ... per output token; a whole answer of 256 tokens takes 26.8 s
 *  (22.7-78.6) end to end"; "" when not an LLM recommendation. */
void ecf_rr_llm_request_line(char *buf, size_t n, const rr_view *v);
void fmt_hours(char *buf, size_t n, double h);
void fmt_usd(char *buf, size_t n, double usd);
void fmt_count(char *buf, size_t n, double x);
size_t shown(const rr_view *v);
const char *cost_basis_name(ecf_cost_basis b);
void workload_line(char *buf, size_t n, const rr_view *v);
size_t closest(const ecf_rejection **out, size_t max,
                      const ecf_recommendation *r);
/* render_ranges.c: the likely ranges (ec2fit/ranges.h) of a plan; all
 * zero (none set) when v->ranges is NULL. */
void ecf_rr_plan_ranges(ecf_ranges *out, const rr_view *v, const ecf_plan *p);
/** Adds the "ranges" object (nothing when no figure has a range). */
void ecf_rr_json_ranges(rj *o, const ecf_ranges *rg);
/** " (7.1-10.2)": the range in the unit of `scale` (the figure / scale);
 *  "" when r is not set. */
void ecf_rr_fmt_span(char *buf, size_t n, const ecf_fig_range *r, double scale);
/** The unit fmt_hours picks for h: 1/60 (minutes), 1 (hours), 24 (days). */
double ecf_rr_hours_scale(double h);
/** --explain: rank 1's ranges, with the class and rows behind each. */
void ecf_rr_print_ranges_explain(FILE *f, const rr_view *v);
/* render_train_plans.c: --explain, the training plans tried for rank 1. */
void ecf_rr_print_train_plans(FILE *f, const rr_view *v);

/* render_fleet.c: purchase options and the Auto Scaling group. */
typedef struct {
    ecf_purchase option;
    double usd_per_hour;   /* per instance; < 0 unknown */
    double monthly_usd;    /* the plan's fleet at this option; < 0 unknown */
    double break_even_pct; /* utilisation above which it beats on-demand */
    bool estimated;        /* a bound, not a catalog rate */
} rr_purchase_row;

#define RR_PURCHASE_ROWS 4
/** On-demand, reserved-1y, savings-plan-1y, savings-plan-3y for the
 *  plan's fleet: asg_min instances at the option's rate, the rest of the
 *  expected fleet on-demand. */
void ecf_rr_purchase_rows(rr_purchase_row out[RR_PURCHASE_ROWS],
                      const ecf_plan *p);
/** The plan's monthly saving against all on-demand (0 when none). */
double ecf_rr_purchase_saving(const ecf_plan *p);
/** Adds a serving plan's purchase_options and auto_scaling objects. */
void ecf_rr_json_fleet_plan(rj *o, const ecf_plan *p);
/** Adds the rest of the top-level "autoscaling" object. */
void ecf_rr_json_fleet_summary(cJSON *a, const rr_view *v);
/** A spot plan's interruption probability (jobs) and, when several
 *  regions were compared, the capacity caveat. */
void ecf_rr_json_spot_risk(rj *o, const rr_view *v, const ecf_plan *p);
/** The table/markdown note for the capacity caveat, when it applies. */
void ecf_rr_print_spot_caveat(FILE *f, const rr_view *v);
/** The purchase/fleet footer lines of the table and markdown outputs. */
void ecf_rr_print_fleet_text(FILE *f, const rr_view *v, bool markdown);


#endif
