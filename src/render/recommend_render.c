/*
 * recommend_render.c - what the recommendation renderers share: number and
 * label formatting, the workload line, the closest misses, the Lambda and
 * Lightsail alternatives and the no-plan message on stderr. One file per
 * format: render_table.c, render_json.c, render_csv.c, render_markdown.c,
 * render_tfvars.c.
 */
#include "recommend_render.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "recommend_render_internal.h"
#include "ec2fit/textsafe.h"
#include "ec2fit/light.h"


/* ------------------------------------------------------------------ */
/* Small formatting helpers                                            */
/* ------------------------------------------------------------------ */

const char *purchase(const ecf_plan *p)
{
    if (p->spot)
        return "spot";
    return p->purchase_option == ECF_PURCHASE_AUTO ? "on-demand"
                                            : ecf_purchase_name(p->purchase_option);
}

void ecf_rr_purchase_label(char *buf, size_t n, const ecf_plan *p)
{
    if (!p->spot && p->purchase_option == ECF_PURCHASE_CAPACITY_BLOCK &&
        p->cb_days > 0)
        snprintf(buf, n, "capacity block %d d x %d node%s", p->cb_days,
                 p->nodes, p->nodes == 1 ? "" : "s");
    else
        snprintf(buf, n, "%s", purchase(p));
}

void ecf_rr_cb_note(char *buf, size_t n, const ecf_plan *p)
{
    char label[64];
    buf[0] = '\0';
    if (p->spot || p->purchase_option != ECF_PURCHASE_CAPACITY_BLOCK ||
        p->cb_days <= 0)
        return;
    ecf_rr_purchase_label(label, sizeof(label), p);
    snprintf(buf, n,
             "%s (%d block%s): $%.2f for the reserved window at $%.2f/h "
             "per instance, paid up front, for a job of %.1f days; the "
             "capacity is held, not interrupted",
             label, p->cb_blocks, p->cb_blocks == 1 ? "" : "s",
             p->usd_per_hour_instance * p->nodes * 24.0 * p->cb_days,
             p->usd_per_hour_instance, p->time_hours / 24.0);
}

size_t ecf_rr_cb_rank(const ecf_recommendation *r, size_t n,
                      const ecf_plan *p)
{
    size_t i;
    for (i = 0; i < n && i < r->n_plans; i++) {
        const ecf_plan *q = &r->plans[i];
        if (q->inst == p->inst && q->region == p->region && !q->spot &&
            q->purchase_option == ECF_PURCHASE_CAPACITY_BLOCK &&
            q->cb_days > 0)
            return i + 1;
    }
    return 0;
}

void marks_str(char *buf, size_t n, unsigned marks)
{
    buf[0] = '\0';
    if (marks & ECF_MARK_CHEAPEST)
        strncat(buf, "cheapest", n - strlen(buf) - 1);
    if (marks & ECF_MARK_FASTEST)
        strncat(buf, buf[0] ? ",fastest" : "fastest", n - strlen(buf) - 1);
    if (marks & ECF_MARK_BEST_VALUE)
        strncat(buf, buf[0] ? ",best-value" : "best-value",
                n - strlen(buf) - 1);
}

bool ecf_rr_llm_latency(const ecf_recommendation *r)
{
    return r->serving && r->n_plans > 0 && r->plans[0].per_token_ms > 0 &&
           r->plans[0].ttft_ms > 0;
}

/* "113": milliseconds, one decimal below 10 */
static void fmt_ms(char *buf, size_t n, double ms)
{
    snprintf(buf, n, ms < 10 ? "%.1f" : "%.0f", ms);
}

void ecf_rr_llm_cell(char *buf, size_t n, const ecf_plan *p)
{
    char a[32], b[32];
    fmt_ms(a, sizeof(a), p->ttft_ms);
    fmt_ms(b, sizeof(b), p->per_token_ms);
    snprintf(buf, n, "%s / %s ms", a, b);
}

void ecf_rr_llm_request_line(char *buf, size_t n, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p;
    ecf_ranges rg;
    char a[32], b[32], sa[48], sb[48], sc[48];
    buf[0] = '\0';
    if (!ecf_rr_llm_latency(r))
        return;
    p = &r->plans[0];
    ecf_rr_plan_ranges(&rg, v, p);
    fmt_ms(a, sizeof(a), p->ttft_ms);
    fmt_ms(b, sizeof(b), p->per_token_ms);
    ecf_rr_fmt_span(sa, sizeof(sa), &rg.ttft_ms, 1);
    ecf_rr_fmt_span(sb, sizeof(sb), &rg.per_token_ms, 1);
    ecf_rr_fmt_span(sc, sizeof(sc), &rg.latency_ms, 1000);
    snprintf(buf, n,
             "Latency (rank 1): the first token after %s ms%s, then %s ms%s "
             "per output token; a whole answer of %d tokens takes %.1f s%s "
             "end to end",
             a, sa, b, sb, r->workload.output_tokens, p->latency_ms / 1000,
             sc);
}

int ecf_rr_ms_decimals(double ms)
{
    return ms < 1 ? 2 : ms < 10 ? 1 : 0;
}

void ecf_rr_rank_note(char *buf, size_t n, const ecf_plan *p)
{
    size_t l = strlen(buf);
    if (p->penalty > 0 && l < n)
        snprintf(buf + l, n - l, "%sranked +%.0f%%", l ? " " : "",
                 100 * p->penalty);
}

void fmt_hours(char *buf, size_t n, double h)
{
    if (h <= 0)
        snprintf(buf, n, "-");
    else if (h < 1)
        snprintf(buf, n, "%.0f min", h * 60);
    else if (h < 72)
        snprintf(buf, n, "%.1f h", h);
    else
        snprintf(buf, n, "%.1f d", h / 24);
}

void fmt_usd(char *buf, size_t n, double usd)
{
    if (usd <= 0)
        snprintf(buf, n, "-");
    else if (usd < 10)
        snprintf(buf, n, "$%.4f", usd);
    else if (usd < 100000)
        snprintf(buf, n, "$%.2f", usd);
    else
        snprintf(buf, n, "$%.0f", usd);
}

void fmt_count(char *buf, size_t n, double x)
{
    if (x >= 1e12)
        snprintf(buf, n, "%.3gT", x / 1e12);
    else if (x >= 1e9)
        snprintf(buf, n, "%.3gB", x / 1e9);
    else if (x >= 1e6)
        snprintf(buf, n, "%.3gM", x / 1e6);
    else if (x >= 1e4)
        snprintf(buf, n, "%.3gk", x / 1e3);
    else if (x >= 100)
        snprintf(buf, n, "%.0f", x);
    else
        snprintf(buf, n, "%.3g", x);
}

size_t shown(const rr_view *v)
{
    size_t n = v->rec->n_plans;
    return (size_t)v->top < n ? (size_t)v->top : n;
}

const char *cost_basis_name(ecf_cost_basis b)
{
    static const char *const names[] = {"total", "per_million", "monthly"};
    return names[b];
}

void ecf_rr_light_alternatives(rr_view *v)
{
    ecf_light *light = NULL;
    ecf_err err = ECF_ERR_INIT;
    v->n_light = 0;
    if (v->w->task != ECF_TASK_INFER)
        return;
    if (ecf_light_embedded(&light, &err) != 0)
        return; /* a build without light data simply shows none */
    v->n_light = ecf_recommend_light(v->light, 2, light, v->model, v->w,
                                     v->rec);
    ecf_light_free(light);
}

void workload_line(char *buf, size_t n, const rr_view *v)
{
    const ecf_workload *w = v->w;
    char params[32], ds[96] = "";
    fmt_count(params, sizeof(params), v->model->params);
    if (w->dataset_samples > 0) {
        char amt[32];
        fmt_count(amt, sizeof(amt), w->dataset_samples);
        snprintf(ds, sizeof(ds), ", dataset %s samples x %g epoch%s", amt,
                 w->epochs > 0 ? w->epochs : 1, w->epochs == 1 ? "" : "s");
    }
    if (w->task == ECF_TASK_INFER)
        snprintf(ds, sizeof(ds), "%s%g req/s", w->qps > 0 ? ", " : "",
                 w->qps);
    if (w->task == ECF_TASK_INFER && w->qps <= 0)
        snprintf(ds, sizeof(ds), ", no --qps (one replica, ranked by $ per "
                                 "1M)");
    {
        char batch[32];
        if (w->batch_explicit || w->task != ECF_TASK_INFER)
            snprintf(batch, sizeof(batch), "batch %d", w->batch_size);
        else
            snprintf(batch, sizeof(batch), "batch auto");
        snprintf(buf, n, "%s (%s params), %s, %s, %s%s", v->model->name,
                 params, ecf_task_name(w->task),
                 ecf_precision_name((ecf_precision)(w->precision >= 0
                                                        ? w->precision
                                                        : ECF_PREC_BF16)),
                 batch, ds);
    }
}

/* The rejections closest to passing. Misses of the user's own limits
 * (deadline, budgets, latency, throughput) come first: those candidates
 * passed everything else, so they are the plans one relaxed flag away.
 * Then the smallest ratio of need to limit; no-price and duplicate spot
 * rows of a type already listed are skipped. */
static bool user_limit(ecf_rule_id id)
{
    return id == ECF_RULE_DEADLINE || id == ECF_RULE_BUDGET ||
           id == ECF_RULE_BUDGET_HOURLY || id == ECF_RULE_LATENCY ||
           id == ECF_RULE_TTFT || id == ECF_RULE_TPOT ||
           id == ECF_RULE_THROUGHPUT;
}

static bool closer(const ecf_rejection *a, const ecf_rejection *b)
{
    int c;
    if (user_limit(a->rule) != user_limit(b->rule))
        return user_limit(a->rule);
    if (a->miss_ratio != b->miss_ratio)
        return a->miss_ratio < b->miss_ratio;
    if (a->rule != b->rule)
        return a->rule < b->rule;
    c = strcmp(a->inst->type, b->inst->type);
    if (c)
        return c < 0;
    c = strcmp(a->region, b->region);
    return c ? c < 0 : (!a->spot && b->spot);
}

size_t closest(const ecf_rejection **out, size_t max,
                      const ecf_recommendation *r)
{
    size_t n = 0, i, k;
    for (i = 0; i < r->n_rejected; i++) {
        const ecf_rejection *x = &r->rejected[i];
        size_t d;
        if (x->rule == ECF_RULE_NO_PRICE)
            continue;
        /* one row per type and region: keep its closer purchase option */
        for (d = 0; d < n; d++)
            if (out[d]->inst == x->inst &&
                strcmp(out[d]->region, x->region) == 0)
                break;
        if (d < n) {
            if (!closer(x, out[d]))
                continue;
            for (k = d; k + 1 < n; k++)
                out[k] = out[k + 1];
            n--;
        }
        for (k = n; k > 0 && closer(x, out[k - 1]); k--)
            if (k < max)
                out[k] = out[k - 1];
        if (k < max) {
            out[k] = x;
            if (n < max)
                n++;
        }
    }
    return n;
}

void ecf_rr_print_no_plan_stderr(FILE *f, const rr_view *v, const char *cmd)
{
    const ecf_rejection *cl[1] = {NULL};
    if (closest(cl, 1, v->rec) == 1 && cl[0]) {
        char reason[ECF_RULE_MSG_LEN], ty[256], safe[4 * ECF_RULE_MSG_LEN];
        ecf_recommend_rejection_reason(reason, sizeof(reason), v->rec, cl[0]);
        fprintf(f, "ec2fit: %s: no instance type satisfies the "
                   "constraints; closest: %s (%s): %s\n",
                cmd, ecf_textsafe(ty, sizeof(ty), cl[0]->inst->type),
                ecf_rule_name(cl[0]->rule),
                ecf_textsafe(safe, sizeof(safe), reason));
    }
    else
        fprintf(f, "ec2fit: %s: no instance type satisfies the "
                   "constraints\n",
                cmd);
}
