/*
 * render_report.c - shared pieces of the HTML and Markdown reports
 * (render_report.h): plan notes as --output json lists them, number
 * formatting with thousands separators, the cost-exclusion sentence.
 */
#include "render_report.h"
#include "recommend_render_internal.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char ecf_rr_cost_excludes[] =
    "Costs are EC2 instance hours only (Linux, shared tenancy): they exclude "
    "EBS volumes and snapshots, S3, data transfer, other AWS services, "
    "support plans and taxes.";

/* One note: "rule: reason" for an object, the string itself for a string. */
static bool note_text(char *out, const cJSON *item)
{
    const cJSON *rule, *reason;
    if (cJSON_IsString(item)) {
        snprintf(out, RR_NOTE_LEN, "%s", item->valuestring);
        return true;
    }
    reason = cJSON_GetObjectItemCaseSensitive(item, "reason");
    if (!cJSON_IsString(reason)) {
        reason = cJSON_GetObjectItemCaseSensitive(item, "message");
        if (!cJSON_IsString(reason))
            return false;
    }
    rule = cJSON_GetObjectItemCaseSensitive(item, "rule");
    if (cJSON_IsString(rule))
        snprintf(out, RR_NOTE_LEN, "%s: %s", rule->valuestring,
                 reason->valuestring);
    else
        snprintf(out, RR_NOTE_LEN, "%s", reason->valuestring);
    return true;
}

/* The end of a flag's name and value in a hint: "--purchase
 * capacity-block" is one flag and its value, "--max-nodes" a flag alone;
 * a value is one lowercase word after the flag. */
static size_t flag_len(const char *s)
{
    size_t i = 2;
    while (s[i] && (islower((unsigned char)s[i]) ||
                    isdigit((unsigned char)s[i]) || s[i] == '-'))
        i++;
    if (s[i] == ' ' && islower((unsigned char)s[i + 1])) {
        size_t j = i + 1;
        while (s[j] && (islower((unsigned char)s[j]) ||
                        isdigit((unsigned char)s[j]) || s[j] == '-'))
            j++;
        if (s[j] == ')')
            i = j;
    }
    return i;
}

void ecf_rr_customer_text(char *s)
{
    char *p = s;
    while ((p = strstr(p, "(--")) != NULL) {
        size_t fl = flag_len(p + 1);
        char *after = p + 1 + fl;
        if (*after == ')') { /* "(--flag)" or "(--flag value)": drop it */
            char *from = p > s && p[-1] == ' ' ? p - 1 : p;
            memmove(from, after + 1, strlen(after + 1) + 1);
            p = from;
        } else if (after[0] == ',' && after[1] == ' ') {
            /* "(--flag, more)": "(more)" */
            memmove(p + 1, after + 2, strlen(after + 2) + 1);
            p++;
        } else {
            p += 3;
        }
    }
}

static size_t add_notes(char out[][RR_NOTE_LEN], size_t *plan_out, size_t n,
                        size_t max, const cJSON *arr, size_t plan)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        if (n >= max)
            break;
        if (note_text(out[n], it)) {
            ecf_rr_customer_text(out[n]);
            plan_out[n++] = plan;
        }
    }
    return n;
}

size_t ecf_rr_report_notes(char out[][RR_NOTE_LEN], size_t *plan_out, size_t max,
                       const rr_view *v, size_t top)
{
    static const char *const general[] = {"notes", "warnings"};
    cJSON *root = ecf_rr_json(v);
    const cJSON *recs, *p;
    size_t n = 0, i = 0, k;

    if (!root)
        return 0;
    for (k = 0; k < 2; k++)
        n = add_notes(out, plan_out, n, max,
                      cJSON_GetObjectItemCaseSensitive(root, general[k]),
                      (size_t)-1);
    recs = cJSON_GetObjectItemCaseSensitive(root, "recommendations");
    cJSON_ArrayForEach(p, recs)
    {
        if (i >= top)
            break;
        for (k = 0; k < 2; k++)
            n = add_notes(out, plan_out, n, max,
                          cJSON_GetObjectItemCaseSensitive(p, general[1 - k]),
                          i);
        i++;
    }
    cJSON_Delete(root);
    return n;
}

void ecf_rr_fmt_num(char *buf, size_t n, double x, int decimals)
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

void ecf_rr_fmt_money(char *buf, size_t n, double x, int decimals)
{
    char num[64];
    if (!(x > 0)) {
        snprintf(buf, n, "-");
        return;
    }
    ecf_rr_fmt_num(num, sizeof(num), x, decimals);
    snprintf(buf, n, "$%s", num);
}

int ecf_rr_money_decimals(const double *x, size_t n)
{
    double lo = INFINITY;
    size_t i;
    for (i = 0; i < n; i++)
        if (x[i] > 0 && x[i] < lo)
            lo = x[i];
    return lo < 1 ? 4 : 2;
}

void ecf_rr_fmt_params(char *buf, size_t n, double params)
{
    if (params >= 1e12)
        snprintf(buf, n, "%.3g trillion", params / 1e12);
    else if (params >= 1e9)
        snprintf(buf, n, "%.3g billion", params / 1e9);
    else if (params >= 1e6)
        snprintf(buf, n, "%.3g million", params / 1e6);
    else
        ecf_rr_fmt_num(buf, n, params, 0);
}

void ecf_rr_counts_text(char *buf, size_t n, const ecf_recommendation *r,
                    bool report)
{
    char c[32], o[32], pl[32], rejc[32];
    size_t opts = r->n_plans + r->n_rejected;
    if (report) {
        ecf_rr_fmt_num(c, sizeof(c), (double)r->n_candidates, 0);
        ecf_rr_fmt_num(o, sizeof(o), (double)opts, 0);
        ecf_rr_fmt_num(pl, sizeof(pl), (double)r->n_plans, 0);
        ecf_rr_fmt_num(rejc, sizeof(rejc), (double)r->n_rejected, 0);
    } else {
        snprintf(c, sizeof(c), "%zu", r->n_candidates);
        snprintf(o, sizeof(o), "%zu", opts);
        snprintf(pl, sizeof(pl), "%zu", r->n_plans);
        snprintf(rejc, sizeof(rejc), "%zu", r->n_rejected);
    }
    bool cb = false, spot = r->spot_considered;
    size_t i;
    for (i = 0; i < r->n_plans && !cb; i++)
        cb = r->plans[i].purchase_option == ECF_PURCHASE_CAPACITY_BLOCK;
    /* spot is priced as an option of its own beside on-demand, and so is a
     * Capacity Block (--purchase auto, jobs of a day or more): then a
     * candidate gives two or three plans or rejections */
    if (opts != r->n_candidates)
        snprintf(buf, n, "%s candidate%s (types %s regions) priced as %s "
                         "options (%s): %s feasible plan%s, %s rejected",
                 c, r->n_candidates == 1 ? "" : "s", report ? "\xc3\x97" : "x",
                 o,
                 cb && spot ? "on-demand, spot and capacity blocks"
                 : cb       ? "on-demand and capacity blocks"
                            : "on-demand and spot",
                 pl, r->n_plans == 1 ? "" : "s", rejc);
    else
        snprintf(buf, n, "%s candidate%s (types %s regions): %s feasible "
                         "plan%s, %s rejected",
                 c, r->n_candidates == 1 ? "" : "s", report ? "\xc3\x97" : "x",
                 pl, r->n_plans == 1 ? "" : "s", rejc);
}

bool ecf_rr_light_offered(const ecf_light_option *o)
{
    return o->feasible && o->cheaper;
}

void ecf_rr_fallback_text(char *buf, size_t n, const ecf_recommendation *r)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    if (!r->serving || r->n_plans == 0 || !r->opts.fallback_cpu)
        return;
    if (r->fallback_index >= 0) {
        const ecf_plan *fb = &r->plans[r->fallback_index];
        snprintf(buf, n, "%s, min %d, max %d (%.3g req/s per instance), "
                         "$%.2f/month if it carried the load",
                 fb->inst->type, fb->asg_min, fb->asg_max,
                 fb->capacity_qps / (fb->nodes > 0 ? fb->nodes : 1),
                 fb->monthly_usd);
    } else {
        snprintf(buf, n, "no CPU-only type meets the targets");
    }
}

void ecf_rr_missing_customer_note(char *buf, size_t n,
                              const ecf_recommendation *r, size_t i)
{
    size_t len = 0;
    const size_t show = 12;
    if (n == 0)
        return;
    buf[0] = '\0';
    if (i >= r->n_missing || r->missing[i].n_families == 0)
        return;
    len = (size_t)snprintf(buf, n, "The built-in catalog has no %s price "
                                    "for the instance families ",
                           r->missing[i].region);
    len = ecf_recommend_missing_families(buf, n, len, r, i, show);
    if (len >= n)
        return;
    if (r->missing[i].uncovered)
        len += (size_t)snprintf(buf + len, n - len,
                                " (its regional prices do not cover %s)",
                                r->missing[i].region);
    else
        len += (size_t)snprintf(buf + len, n - len,
                                " (it prices them in us-east-1 only)");
    if (len >= n)
        return;
    if (r->missing[i].estimated)
        snprintf(buf + len, n - len,
                 ": they are priced at the "
                 "us-east-1 price times %.3f, the region's median price "
                 "ratio over %zu families, and marked \"price estimated\". "
                 "Refreshing the catalog with %s prices replaces the "
                 "estimates.",
                 r->missing[i].ratio, r->missing[i].n_ratio_families,
                 r->missing[i].region);
    else
        snprintf(buf + len, n - len,
                 ": they are left out of "
                 "this comparison. Refreshing the catalog with %s prices, "
                 "or estimating them from the region's median price ratio, "
                 "includes them.",
                 r->missing[i].region);
}

bool ecf_rr_capacity_meets_load(const ecf_workload *w, const ecf_plan *p,
                            bool serving)
{
    return serving && w->qps > 0 && p->capacity_qps >= w->qps;
}

void ecf_rr_capacity_note(char *buf, size_t n, const ecf_workload *w,
                      const ecf_plan *p)
{
    int per = p->nodes_per_group > 0 ? p->nodes_per_group : 1;
    int groups = p->nodes / per > 0 ? p->nodes / per : 1;
    char load[32];
    ecf_rr_fmt_num(load, sizeof(load), w->qps, w->qps == floor(w->qps) ? 0 : 2);
    if (per == 1)
        snprintf(buf, n, "each instance sustains %.2f requests/s; %d "
                         "instance%s meet%s the %s requests/s load with "
                         "%.2f requests/s",
                 p->capacity_qps / groups, groups, groups == 1 ? "" : "s",
                 groups == 1 ? "s" : "", load, p->capacity_qps);
    else
        snprintf(buf, n, "each group of %d instances (one model replica) "
                         "sustains %.2f requests/s; %d group%s (%d "
                         "instances) meet%s the %s requests/s load with "
                         "%.2f requests/s",
                 per, p->capacity_qps / groups, groups,
                 groups == 1 ? "" : "s", p->nodes, groups == 1 ? "s" : "",
                 load, p->capacity_qps);
}

void ecf_rr_figure_cell(char *buf, size_t n, const ecf_recommendation *r,
                        const ecf_plan *p, const ecf_ranges *rg)
{
    char num[48], sp[48];
    if (r->serving && ecf_rr_llm_latency(r)) {
        ecf_rr_llm_cell(buf, n, p);
    } else if (r->serving) {
        ecf_rr_fmt_num(num, sizeof(num), p->latency_ms,
                       ecf_rr_ms_decimals(p->latency_ms));
        ecf_rr_fmt_span(sp, sizeof(sp), &rg->latency_ms, 1);
        snprintf(buf, n, "%s ms%s", num, sp);
    } else if (r->basis == ECF_COST_TOTAL) {
        ecf_rr_fmt_num(num, sizeof(num), p->time_hours, 1);
        ecf_rr_fmt_span(sp, sizeof(sp), &rg->time_hours, 1);
        snprintf(buf, n, "%s h%s", num, sp);
    } else {
        ecf_rr_fmt_num(num, sizeof(num), p->throughput, 0);
        snprintf(buf, n, "%s %s", num,
                 p->throughput_unit ? p->throughput_unit : "");
    }
}
