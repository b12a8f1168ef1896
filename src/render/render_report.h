/*
 * render_report.h - what the human reports (render_html.c,
 * render_markdown.c) share with each other and with --output json: the
 * notes of a plan, numbers with thousands separators, the parameter count
 * in words, and what the costs leave out (render_report.c).
 */
#ifndef EC2FIT_RENDER_REPORT_H
#define EC2FIT_RENDER_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/light.h"

#include "recommend_render.h"

/* "rule: " + a rule reason, or "estimate: " + an estimator warning */
#define RR_NOTE_LEN (ECF_RULE_MSG_LEN + ECF_EST_NOTE_LEN + 32)
#define RR_MAX_NOTES 64

/** Every note and warning of --output json, read from its tree (ecf_rr_json)
 *  so that the reports list exactly what the JSON does: the "warnings" of
 *  the first `top` recommendations (plan_out[i] = the plan's index) and
 *  any top-level "notes" / "warnings" (plan_out[i] = (size_t)-1). Each is
 *  written "rule: reason" (or the bare string) to out[i], in customer
 *  wording (ecf_rr_customer_text); returns the count (at most max). */
size_t ecf_rr_report_notes(char out[][RR_NOTE_LEN], size_t *plan_out, size_t max,
                       const rr_view *v, size_t top);

/** Rewords `s` in place for a customer report (HTML, Markdown): a flag
 *  hint in parentheses, written for the command line, is dropped ("...
 *  for the window (--purchase capacity-block)" ends at "window"; "limit
 *  16 (--max-nodes)" at "16"), and a hint that leads a longer
 *  parenthesis loses only the flag ("(--storage-throughput, up to ...)"
 *  becomes "(up to ...)"). The JSON and the table keep the hints. */
void ecf_rr_customer_text(char *s);

/** x with `decimals` decimals and a comma every three digits
 *  ("1,358.53", "45,800"); "-" for a negative or non-finite x. */
void ecf_rr_fmt_num(char *buf, size_t n, double x, int decimals);

/** The Markdown and HTML tables' time-or-latency cell of a plan with its
 *  likely range: "4.8 ms (3.9-8.1)" (TTFT / TPOT for an LLM), "8.4 h
 *  (7.1-10.2)" for a job with a dataset, else the throughput. */
void ecf_rr_figure_cell(char *buf, size_t n, const ecf_recommendation *r,
                        const ecf_plan *p, const ecf_ranges *rg);

/** "$" + ecf_rr_fmt_num; "-" for x <= 0. */
void ecf_rr_fmt_money(char *buf, size_t n, double x, int decimals);

/** Decimals for a column of dollar amounts: 4 when its smallest positive
 *  value is below $1 (a cent is then a large share), else 2. */
int ecf_rr_money_decimals(const double *x, size_t n);

/** "25.6 million", "8.03 billion" (three significant digits). */
void ecf_rr_fmt_params(char *buf, size_t n, double params);

/* One source for each fact the table, Markdown, HTML (and JSON where it
 * applies) all state, so that the formats cannot disagree (issue 25). */

/** The candidate counts: "1,367 candidates (types x regions): 235
 *  feasible plans, 1,132 rejected", and when spot is priced beside
 *  on-demand (two options per candidate) "... priced as 2,261 options
 *  (on-demand and spot): 2,198 feasible plans, 63 rejected", so that the
 *  numbers add up (plans + rejected = options). `report`: thousands
 *  separators and a multiplication sign (HTML, Markdown); else plain
 *  digits and "x" (table). */
void ecf_rr_counts_text(char *buf, size_t n, const ecf_recommendation *r,
                    bool report);

/** Whether a Lambda / Lightsail alternative is offered: feasible and
 *  cheaper than rank 1 (JSON lists them all with cheaper_than_rank_1; the
 *  table, Markdown and HTML show only these). */
bool ecf_rr_light_offered(const ecf_light_option *o);

/** The --fallback cpu group as every format states it: "c8i.32xlarge,
 *  min 14, max 28 (5.13 req/s per instance), $61293.84/month if it
 *  carried the load", or "no CPU-only type meets the targets"; "" when
 *  the run has no fallback group. */
void ecf_rr_fallback_text(char *buf, size_t n, const ecf_recommendation *r);

/** The missing-price note of r->missing[i] in customer wording (no
 *  command line, no flags): the same facts as
 *  ecf_recommend_missing_note. "" when there is none. */
void ecf_rr_missing_customer_note(char *buf, size_t n,
                              const ecf_recommendation *r, size_t i);

/** Whether a serving plan's fleet meets the workload's --qps (the
 *  estimator's "sustains ... below --qps" then concerns one replica only
 *  and is replaced by ecf_rr_capacity_note). */
bool ecf_rr_capacity_meets_load(const ecf_workload *w, const ecf_plan *p,
                            bool serving);

/** "each replica (1 instance) sustains 9.55 requests/s; 8 replicas (8
 *  instances) meet the 50 requests/s load with 76.44 requests/s". */
void ecf_rr_capacity_note(char *buf, size_t n, const ecf_workload *w,
                      const ecf_plan *p);

/** What every cost in the reports leaves out. */
extern const char ecf_rr_cost_excludes[];

#endif
