/*
 * render_report.c - shared pieces of the HTML and Markdown reports
 * (render_report.h): plan notes as --output json lists them, number
 * formatting with thousands separators, the cost-exclusion sentence.
 */
#include "render_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char rr_cost_excludes[] =
    "Costs are EC2 instance hours only (Linux, shared tenancy): they exclude "
    "EBS volumes and snapshots, S3, data transfer, other AWS services, "
    "support plans and taxes.";

size_t rr_plan_notes(char out[][RR_NOTE_LEN], size_t max, const rr_view *v,
                     const ecf_plan *p)
{
    const ecf_recommendation *r = v->rec;
    ecf_rule_hit hits[ECF_PLAN_MAX_PENALTIES];
    ecf_estimate e;
    size_t n = 0;
    int k, nh = ecf_recommend_plan_penalties(hits, ECF_PLAN_MAX_PENALTIES, r,
                                             p);
    for (k = 0; k < nh && n < max; k++)
        snprintf(out[n++], RR_NOTE_LEN, "%s: %s", ecf_rule_name(hits[k].id),
                 hits[k].reason);
    /* the estimator's own warnings, re-run as render_json.c does */
    if (ecf_estimate_run(&e, v->model, v->w, p->inst, p->nodes_per_group,
                         NULL) == 0)
        for (k = 0; k < e.n_warnings && n < max; k++)
            snprintf(out[n++], RR_NOTE_LEN, "estimate: %s", e.warnings[k]);
    return n;
}

void rr_fmt_num(char *buf, size_t n, double x, int decimals)
{
    char raw[64], *dot;
    size_t len, ilen, i, o = 0;
    if (!isfinite(x) || x < 0 || n == 0) {
        snprintf(buf, n, "-");
        return;
    }
    snprintf(raw, sizeof(raw), "%.*f", decimals, x);
    dot = strchr(raw, '.');
    len = strlen(raw);
    ilen = dot ? (size_t)(dot - raw) : len;
    for (i = 0; i < len && o + 1 < n; i++) {
        if (i > 0 && i < ilen && (ilen - i) % 3 == 0) {
            buf[o++] = ',';
            if (o + 1 >= n)
                break;
        }
        buf[o++] = raw[i];
    }
    buf[o] = '\0';
}

void rr_fmt_money(char *buf, size_t n, double x, int decimals)
{
    char num[64];
    if (!(x > 0)) {
        snprintf(buf, n, "-");
        return;
    }
    rr_fmt_num(num, sizeof(num), x, decimals);
    snprintf(buf, n, "$%s", num);
}

int rr_money_decimals(const double *x, size_t n)
{
    double lo = INFINITY;
    size_t i;
    for (i = 0; i < n; i++)
        if (x[i] > 0 && x[i] < lo)
            lo = x[i];
    return lo < 1 ? 4 : 2;
}

void rr_fmt_params(char *buf, size_t n, double params)
{
    if (params >= 1e12)
        snprintf(buf, n, "%.3g trillion", params / 1e12);
    else if (params >= 1e9)
        snprintf(buf, n, "%.3g billion", params / 1e9);
    else if (params >= 1e6)
        snprintf(buf, n, "%.3g million", params / 1e6);
    else
        rr_fmt_num(buf, n, params, 0);
}
