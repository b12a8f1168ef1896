/*
 * render_report.h - what the human reports (render_html.c,
 * render_markdown.c) share with each other and with --output json: the
 * notes of a plan, numbers with thousands separators, the parameter count
 * in words, and what the costs leave out (render_report.c).
 */
#ifndef EC2FIT_RENDER_REPORT_H
#define EC2FIT_RENDER_REPORT_H

#include <stddef.h>

#include "recommend_render.h"

/* "rule: " + a rule reason, or "estimate: " + an estimator warning */
#define RR_NOTE_LEN (ECF_RULE_MSG_LEN + ECF_EST_NOTE_LEN + 32)
#define RR_MAX_NOTES 64

/** Every note and warning of --output json, read from its tree (rr_json)
 *  so that the reports list exactly what the JSON does: the "warnings" of
 *  the first `top` recommendations (plan_out[i] = the plan's index) and
 *  any top-level "notes" / "warnings" (plan_out[i] = (size_t)-1). Each is
 *  written "rule: reason" (or the bare string) to out[i]; returns the
 *  count (at most max). */
size_t rr_report_notes(char out[][RR_NOTE_LEN], size_t *plan_out, size_t max,
                       const rr_view *v, size_t top);

/** x with `decimals` decimals and a comma every three digits
 *  ("1,358.53", "45,800"); "-" for a negative or non-finite x. */
void rr_fmt_num(char *buf, size_t n, double x, int decimals);

/** "$" + rr_fmt_num; "-" for x <= 0. */
void rr_fmt_money(char *buf, size_t n, double x, int decimals);

/** Decimals for a column of dollar amounts: 4 when its smallest positive
 *  value is below $1 (a cent is then a large share), else 2. */
int rr_money_decimals(const double *x, size_t n);

/** "25.6 million", "8.03 billion" (three significant digits). */
void rr_fmt_params(char *buf, size_t n, double params);

/** What every cost in the reports leaves out. */
extern const char rr_cost_excludes[];

#endif
