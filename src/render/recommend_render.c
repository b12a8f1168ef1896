/*
 * recommend_render.c - table, JSON, CSV, Markdown and Terraform-variables
 * renderings of a recommendation. The JSON schema is documented field by
 * field in docs/output-schema.md; change both together.
 */
#include "recommend_render.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "ec2fit/textsafe.h"
#include "ec2fit/light.h"

#define RR_SCHEMA_VERSION 2
#define MAX_CLOSEST 5

/* ------------------------------------------------------------------ */
/* Small formatting helpers                                            */
/* ------------------------------------------------------------------ */

static const char *purchase(const ecf_plan *p)
{
    return p->spot ? "spot" : "on-demand";
}

static void marks_str(char *buf, size_t n, unsigned marks)
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

static void fmt_hours(char *buf, size_t n, double h)
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

static void fmt_usd(char *buf, size_t n, double usd)
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

static void fmt_count(char *buf, size_t n, double x)
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

static size_t shown(const rr_view *v)
{
    size_t n = v->rec->n_plans;
    return (size_t)v->top < n ? (size_t)v->top : n;
}

static const char *cost_basis_name(ecf_cost_basis b)
{
    static const char *const names[] = {"total", "per_million", "monthly"};
    return names[b];
}

void rr_light_alternatives(rr_view *v)
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

static void workload_line(char *buf, size_t n, const rr_view *v)
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

/* ------------------------------------------------------------------ */
/* Table                                                               */
/* ------------------------------------------------------------------ */

static void print_rejected_grouped(FILE *f, const rr_view *v, size_t limit)
{
    const ecf_recommendation *r = v->rec;
    size_t i = 0;
    while (i < r->n_rejected) {
        ecf_rule_id rule = r->rejected[i].rule;
        size_t j = i, k;
        while (j < r->n_rejected && r->rejected[j].rule == rule)
            j++;
        fprintf(f, "  %s (%zu):\n", ecf_rule_name(rule), j - i);
        for (k = i; k < j && k < i + limit; k++) {
            char reason[ECF_RULE_MSG_LEN];
            ecf_recommend_rejection_reason(reason, sizeof(reason), r,
                                           &r->rejected[k]);
            fprintf(f, "    %s%s %s: %s\n", r->rejected[k].inst->type,
                    r->rejected[k].spot ? " (spot)" : "",
                    r->rejected[k].region, reason);
        }
        if (j - i > limit)
            fprintf(f, "    ... %zu more (--output json lists all)\n",
                    j - i - limit);
        i = j;
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

static size_t closest(const ecf_rejection **out, size_t max,
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

void rr_print_table(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    char wl[256], mk[48];
    size_t i, n = shown(v);
    const char *bold = v->color ? "\033[1m" : "";
    const char *green = v->color ? "\033[32m" : "";
    const char *reset = v->color ? "\033[0m" : "";
    int tw = 8, aw = 11;

    char lbl[512], ty[256];

    workload_line(wl, sizeof(wl), v);
    fprintf(f, "%sWorkload%s  %s\n", bold, reset,
            ecf_textsafe(lbl, sizeof(lbl), wl));
    fprintf(f, "%sCatalog%s   %s, prices as of %s; %zu region%s (%s%s); "
               "optimize %s; spot %s\n\n",
            bold, reset, ecf_textsafe(lbl, sizeof(lbl), v->catalog_label),
            ecf_catalog_as_of(v->cat),
            v->opts->n_regions, v->opts->n_regions == 1 ? "" : "s",
            v->opts->regions[0], v->opts->n_regions > 1 ? ", ..." : "",
            ecf_optimize_name(v->opts->optimize),
            r->spot_considered ? "considered (estimated prices)" : "off");
    for (i = 0; i < n; i++) {
        char acc[96];
        cli_accel_label(acc, sizeof(acc), r->plans[i].inst);
        if ((int)strlen(r->plans[i].inst->type) > tw)
            tw = (int)strlen(r->plans[i].inst->type);
        if ((int)strlen(acc) > aw)
            aw = (int)strlen(acc);
    }

    if (n > 0) {
        if (r->serving)
            fprintf(f, "%s%-4s %-*s %5s %-9s %-*s %13s %10s %9s %10s %11s "
                       "%11s %-16s %s%s\n",
                    bold, "RANK", tw, "INSTANCE", "NODES", "PURCHASE", aw,
                    "ACCELERATOR", "MEM_GiB/DEV", "LATENCY", "CAP_QPS",
                    "$/HOUR", "MONTHLY",
                    strcmp(r->per_million_unit, "tokens") == 0 ? "$/1M_TOK"
                                                               : "$/1M_REQ",
                    "BOTTLENECK", "NOTE",
                    reset);
        else
            fprintf(f, "%s%-4s %-*s %5s %-9s %-*s %13s %10s %11s %11s "
                       "%-16s %s%s\n",
                    bold, "RANK", tw, "INSTANCE", "NODES", "PURCHASE", aw,
                    "ACCELERATOR", "MEM_GiB/DEV",
                    r->basis == ECF_COST_TOTAL ? "TIME" : "THROUGHPUT",
                    "$/HOUR",
                    r->basis == ECF_COST_TOTAL ? "TOTAL" : "$/1M",
                    "BOTTLENECK", "NOTE", reset);
    }
    for (i = 0; i < n; i++) {
        const ecf_plan *p = &r->plans[i];
        char acc[96], mem[32], c1[32], c2[32], c3[32], c4[32];
        cli_accel_label(acc, sizeof(acc), p->inst);
        snprintf(mem, sizeof(mem), "%.1f/%.1f", p->required_per_device_gib,
                 p->available_per_device_gib);
        marks_str(mk, sizeof(mk), p->marks);
        fmt_usd(c2, sizeof(c2), p->hourly_usd);
        if (r->serving) {
            snprintf(c1, sizeof(c1), "%.0f ms", p->latency_ms);
            snprintf(c3, sizeof(c3), "%.3g", p->capacity_qps);
            fmt_usd(c4, sizeof(c4), p->monthly_usd);
            {
                char c5[32];
                fmt_usd(c5, sizeof(c5), p->usd_per_million);
                fprintf(f,
                        "%-4zu %-*s %5d %-9s %-*s %13s %10s %9s %10s %11s "
                        "%11s %-16s %s%s%s\n",
                        i + 1, tw, ecf_textsafe(ty, sizeof(ty), p->inst->type), p->nodes, purchase(p), aw,
                        acc,
                        mem, c1, c3, c2, c4, c5,
                        ecf_bottleneck_name(p->bottleneck), green, mk, reset);
            }
        } else {
            if (r->basis == ECF_COST_TOTAL) {
                fmt_hours(c1, sizeof(c1), p->time_hours);
                fmt_usd(c3, sizeof(c3), p->total_usd);
            } else {
                char t[24];
                fmt_count(t, sizeof(t), p->throughput);
                snprintf(c1, sizeof(c1), "%s/s", t);
                fmt_usd(c3, sizeof(c3), p->usd_per_million);
            }
            fprintf(f,
                    "%-4zu %-*s %5d %-9s %-*s %13s %10s %11s %11s %-16s "
                    "%s%s%s\n",
                    i + 1, tw, ecf_textsafe(ty, sizeof(ty), p->inst->type), p->nodes, purchase(p), aw, acc,
                    mem,
                    c1, c2, c3, ecf_bottleneck_name(p->bottleneck), green, mk,
                    reset);
        }
    }
    if (n > 0 && r->basis == ECF_COST_PER_MILLION && !r->serving)
        fprintf(f, "\nNo --dataset: costs are per 1M %s, throughput in %s. "
                   "Pass --dataset and --epochs for\ntime and total cost.\n",
                r->per_million_unit,
                r->plans[0].throughput_unit ? r->plans[0].throughput_unit
                                            : "samples/s");
    /* notes: penalties of the shown plans */
    {
        bool header = false;
        for (i = 0; i < n; i++) {
            ecf_rule_hit hits[ECF_PLAN_MAX_PENALTIES];
            int k, nh = ecf_recommend_plan_penalties(
                       hits, ECF_PLAN_MAX_PENALTIES, r, &r->plans[i]);
            for (k = 0; k < nh; k++) {
                if (!header) {
                    fprintf(f, "\nNotes\n");
                    header = true;
                }
                fprintf(f, "  %zu. %s (%s): %s\n", i + 1,
                        r->plans[i].inst->type, ecf_rule_name(hits[k].id),
                        hits[k].reason);
            }
        }
    }
    if (r->serving && r->n_plans > 0)
        fprintf(f, "\nAuto Scaling (rank 1): min %d, max %d instances; target "
                   "%.3g req/s per instance (%.0f%% of capacity)\n",
                r->asg_min, r->asg_max, r->asg_target_qps_per_instance, 70.0);
    /* Light alternatives are shown when feasible and cheaper than rank 1
     * (JSON lists them all, with the reason when not feasible). */
    {
        bool header = false;
        for (i = 0; i < v->n_light; i++) {
            const ecf_light_option *o = &v->light[i];
            if (!o->feasible || !(o->cheaper || r->n_plans == 0))
                continue;
            if (!header) {
                fprintf(f, "\nCheaper light alternatives (CPU only)\n");
                header = true;
            }
            fprintf(f, "  %-24s %6.0f ms  $%.2f/month  $%.4f per 1M %s\n",
                    o->name, o->latency_ms, o->monthly_usd,
                    o->usd_per_million, r->per_million_unit);
        }
    }
    fprintf(f, "\n%zu candidate%s (types x regions), %zu plan%s, %zu "
               "rejected%s\n",
            r->n_candidates, r->n_candidates == 1 ? "" : "s", r->n_plans,
            r->n_plans == 1 ? "" : "s", r->n_rejected,
            v->explain ? "" : " (--explain lists them by rule)");
    if (r->n_plans == 0) {
        const ecf_rejection *cl[MAX_CLOSEST];
        size_t k, m = closest(cl, MAX_CLOSEST, r);
        fprintf(f, "\nNo instance type satisfies every constraint. Closest "
                   "misses:\n");
        for (k = 0; k < m; k++) {
            char reason[ECF_RULE_MSG_LEN];
            ecf_recommend_rejection_reason(reason, sizeof(reason), r, cl[k]);
            fprintf(f, "  %s%s %s (%s): %s\n", cl[k]->inst->type,
                    cl[k]->spot ? " (spot)" : "", cl[k]->region,
                    ecf_rule_name(cl[k]->rule), reason);
        }
    }
    if (v->explain && r->n_rejected > 0) {
        fprintf(f, "\nRejected, by rule:\n");
        print_rejected_grouped(f, v, 10);
    }
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

static void add_opt_num(cJSON *o, const char *key, double v, int decimals)
{
    if (v > 0)
        cli_json_add_num(o, key, v, decimals);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *json_workload(const rr_view *v)
{
    const ecf_workload *w = v->w;
    cJSON *o = cJSON_CreateObject(), *regions;
    size_t i;
    cJSON_AddStringToObject(o, "model", v->model->name);
    cJSON_AddStringToObject(o, "model_kind",
                            ecf_model_kind_name(v->model->kind));
    cJSON_AddNumberToObject(o, "params", v->model->params);
    cJSON_AddStringToObject(o, "task", ecf_task_name(w->task));
    cJSON_AddStringToObject(
        o, "precision",
        ecf_precision_name((ecf_precision)(w->precision >= 0 ? w->precision
                                                             : ECF_PREC_BF16)));
    cJSON_AddNumberToObject(o, "batch_size", w->batch_size);
    if (w->seq_len > 0)
        cJSON_AddNumberToObject(o, "seq_len", w->seq_len);
    else
        cJSON_AddNullToObject(o, "seq_len");
    if (w->task == ECF_TASK_INFER && ecf_model_kind_is_llm(v->model->kind)) {
        cJSON_AddNumberToObject(o, "input_tokens", w->input_tokens);
        cJSON_AddNumberToObject(o, "output_tokens", w->output_tokens);
    }
    add_opt_num(o, "dataset_samples", w->dataset_samples, 0);
    cli_json_add_num(o, "epochs", w->epochs > 0 ? w->epochs : 1, 4);
    add_opt_num(o, "qps", w->qps, 4);
    add_opt_num(o, "peak_qps", v->opts->peak_qps, 4);
    add_opt_num(o, "latency_ms", w->latency_target_ms, 3);
    add_opt_num(o, "deadline_hours", v->opts->deadline_hours, 4);
    add_opt_num(o, "budget_usd", v->opts->budget_usd, 2);
    add_opt_num(o, "budget_hourly_usd", v->opts->budget_hourly_usd, 4);
    regions = cJSON_AddArrayToObject(o, "regions");
    for (i = 0; i < v->opts->n_regions; i++)
        cJSON_AddItemToArray(regions,
                             cJSON_CreateString(v->opts->regions[i]));
    cJSON_AddBoolToObject(o, "spot_considered", v->rec->spot_considered);
    cJSON_AddNumberToObject(o, "max_nodes", v->rec->max_nodes);
    cJSON_AddStringToObject(o, "optimize",
                            ecf_optimize_name(v->opts->optimize));
    return o;
}

static cJSON *json_plan(const rr_view *v, const ecf_plan *p, size_t rank)
{
    const ecf_recommendation *r = v->rec;
    cJSON *o = cJSON_CreateObject(), *acc, *mem, *thr, *warn, *marks;
    ecf_estimate e;
    int k;

    cJSON_AddNumberToObject(o, "rank", (double)rank);
    cJSON_AddStringToObject(o, "instance_type", p->inst->type);
    cJSON_AddStringToObject(o, "family", p->inst->family);
    cJSON_AddNumberToObject(o, "nodes", p->nodes);
    cJSON_AddNumberToObject(o, "nodes_per_replica", p->nodes_per_group);
    cJSON_AddStringToObject(o, "purchase", purchase(p));
    cJSON_AddStringToObject(o, "region", p->region);
    if (p->inst->accel) {
        acc = cJSON_AddObjectToObject(o, "accelerator");
        cJSON_AddStringToObject(acc, "model", p->inst->accel->name);
        cJSON_AddStringToObject(acc, "id", p->inst->accel->id);
        cJSON_AddNumberToObject(acc, "count", p->inst->accel_count);
        cli_json_add_num(acc, "memory_gib", p->inst->accel_memory_gib, 4);
        cJSON_AddNumberToObject(acc, "used_per_node", p->devices_per_node);
    } else {
        cJSON_AddNullToObject(o, "accelerator");
    }
    cJSON_AddStringToObject(o, "parallelism",
                            ecf_parallelism_name(p->parallelism));
    {
        /* The AMI family for the plan's stack, as its public SSM
         * parameter (docs/deploy.md#images); null for an accelerator
         * ec2fit has no image for (AMD, Gaudi, Qualcomm). */
        const ecf_image *im =
            ecf_images_for(v->images, ECF_IMAGE_USE_INSTANCE, p->inst);
        if (im) {
            cJSON *img = cJSON_AddObjectToObject(o, "image");
            cJSON_AddStringToObject(img, "family", im->family);
            cJSON_AddStringToObject(img, "ssm_parameter", im->ssm_parameter);
        } else {
            cJSON_AddNullToObject(o, "image");
        }
    }
    mem = cJSON_AddObjectToObject(o, "memory");
    cli_json_add_num(mem, "required_per_device_gib",
                     p->required_per_device_gib, 3);
    cli_json_add_num(mem, "available_per_device_gib",
                     p->available_per_device_gib, 3);
    cli_json_add_num(mem, "headroom_pct", p->headroom * 100, 1);
    add_opt_num(o, "time_hours", p->time_hours, 4);
    cli_json_add_num(o, "hourly_usd", p->hourly_usd, 6);
    add_opt_num(o, "total_usd", p->total_usd, 2);
    add_opt_num(o, "monthly_usd", p->monthly_usd, 2);
    add_opt_num(o, "usd_per_million", p->usd_per_million, 6);
    cJSON_AddStringToObject(o, "per_million_unit", r->per_million_unit);
    thr = cJSON_AddObjectToObject(o, "throughput");
    cli_json_add_num(thr, "value", p->throughput, 3);
    cJSON_AddStringToObject(thr, "unit",
                            p->throughput_unit ? p->throughput_unit : "");
    if (r->serving) {
        cli_json_add_num(o, "latency_ms", p->latency_ms, 3);
        add_opt_num(o, "ttft_ms", p->ttft_ms, 3);
        add_opt_num(o, "per_token_ms", p->per_token_ms, 3);
        cli_json_add_num(o, "capacity_qps", p->capacity_qps, 3);
    }
    cJSON_AddStringToObject(o, "bottleneck",
                            ecf_bottleneck_name(p->bottleneck));
    if (p->spot) {
        if (p->interruption_band >= 0)
            cJSON_AddNumberToObject(o, "interruption_band",
                                    p->interruption_band);
        else
            cJSON_AddNullToObject(o, "interruption_band");
        cli_json_add_num(o, "expected_interruptions",
                         p->expected_interruptions, 3);
        /* Spot Advisor's integer figure, as in list/show (schema 2); the
         * plan's own saving, rework included, is plan_savings_pct. */
        const ecf_price *pr = ecf_instance_price(p->inst, p->region);
        if (pr && pr->spot_usd_per_hour >= 0)
            cJSON_AddNumberToObject(o, "spot_savings_pct",
                                    pr->spot_savings_pct);
        else
            cJSON_AddNullToObject(o, "spot_savings_pct");
        cli_json_add_num(o, "plan_savings_pct", p->spot_savings_pct, 1);
    }
    cli_json_add_num(o, "score", p->score, 6);
    marks = cJSON_AddArrayToObject(o, "marks");
    if (p->marks & ECF_MARK_CHEAPEST)
        cJSON_AddItemToArray(marks, cJSON_CreateString("cheapest"));
    if (p->marks & ECF_MARK_FASTEST)
        cJSON_AddItemToArray(marks, cJSON_CreateString("fastest"));
    if (p->marks & ECF_MARK_BEST_VALUE)
        cJSON_AddItemToArray(marks, cJSON_CreateString("best-value"));
    warn = cJSON_AddArrayToObject(o, "warnings");
    {
        ecf_rule_hit hits[ECF_PLAN_MAX_PENALTIES];
        int nh = ecf_recommend_plan_penalties(hits, ECF_PLAN_MAX_PENALTIES,
                                              r, p);
        for (k = 0; k < nh; k++) {
            cJSON *h = cJSON_CreateObject();
            cJSON_AddStringToObject(h, "rule", ecf_rule_name(hits[k].id));
            cJSON_AddStringToObject(h, "reason", hits[k].reason);
            cJSON_AddItemToArray(warn, h);
        }
    }
    /* the estimator's own warnings for this plan (re-run: plans keep no
     * estimate to stay small) */
    if (ecf_estimate_run(&e, v->model, v->w, p->inst, p->nodes_per_group,
                         NULL) == 0)
        for (k = 0; k < e.n_warnings; k++) {
            cJSON *h = cJSON_CreateObject();
            cJSON_AddStringToObject(h, "rule", "estimate");
            cJSON_AddStringToObject(h, "reason", e.warnings[k]);
            cJSON_AddItemToArray(warn, h);
        }
    return o;
}

static cJSON *json_rejection(const ecf_recommendation *r,
                             const ecf_rejection *x)
{
    cJSON *o = cJSON_CreateObject();
    char reason[ECF_RULE_MSG_LEN];
    ecf_recommend_rejection_reason(reason, sizeof(reason), r, x);
    cJSON_AddStringToObject(o, "instance_type", x->inst->type);
    cJSON_AddStringToObject(o, "region", x->region);
    cJSON_AddStringToObject(o, "purchase", x->spot ? "spot" : "on-demand");
    cJSON_AddStringToObject(o, "rule", ecf_rule_name(x->rule));
    cJSON_AddStringToObject(o, "reason", reason);
    return o;
}

void rr_print_json(FILE *f, const rr_view *v)
{
    cli_json_print(f, rr_json(v));
}

cJSON *rr_json(const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    cJSON *root = cJSON_CreateObject(), *arr, *sum;
    size_t i, n = shown(v);

    cJSON_AddNumberToObject(root, "schema_version", RR_SCHEMA_VERSION);
    cJSON_AddItemToObject(root, "catalog",
                          cli_json_catalog_meta(v->cat, v->catalog_label));
    cJSON_AddStringToObject(root, "rules", v->rules->source);
    cJSON_AddItemToObject(root, "workload", json_workload(v));
    cJSON_AddStringToObject(root, "cost_basis", cost_basis_name(r->basis));
    arr = cJSON_AddArrayToObject(root, "recommendations");
    for (i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, json_plan(v, &r->plans[i], i + 1));
    if (r->serving && r->n_plans > 0) {
        cJSON *a = cJSON_AddObjectToObject(root, "autoscaling");
        cJSON_AddNumberToObject(a, "min_instances", r->asg_min);
        cJSON_AddNumberToObject(a, "max_instances", r->asg_max);
        cli_json_add_num(a, "target_qps_per_instance",
                         r->asg_target_qps_per_instance, 3);
    }
    if (v->w->task == ECF_TASK_INFER) {
        cJSON *alt = cJSON_AddArrayToObject(root, "alternatives");
        for (i = 0; i < v->n_light; i++) {
            const ecf_light_option *o = &v->light[i];
            cJSON *a = cJSON_CreateObject();
            cJSON_AddStringToObject(a, "kind", o->kind);
            cJSON_AddStringToObject(a, "name", o->name);
            cJSON_AddBoolToObject(a, "feasible", o->feasible);
            if (o->feasible) {
                cli_json_add_num(a, "memory_gib", o->memory_gib, 3);
                cli_json_add_num(a, "vcpus", o->vcpus, 3);
                cli_json_add_num(a, "latency_ms", o->latency_ms, 3);
                cJSON_AddNumberToObject(a, "instances", o->instances);
                cli_json_add_num(a, "monthly_usd", o->monthly_usd, 2);
                cli_json_add_num(a, "usd_per_million", o->usd_per_million, 6);
                cJSON_AddBoolToObject(a, "cheaper_than_rank_1", o->cheaper);
            } else {
                cJSON_AddStringToObject(a, "reason", o->reason);
            }
            cJSON_AddItemToArray(alt, a);
        }
    }
    sum = cJSON_AddObjectToObject(root, "summary");
    cJSON_AddNumberToObject(sum, "candidates", (double)r->n_candidates);
    cJSON_AddNumberToObject(sum, "plans", (double)r->n_plans);
    cJSON_AddNumberToObject(sum, "rejected", (double)r->n_rejected);
    if (r->n_plans == 0) {
        const ecf_rejection *cl[MAX_CLOSEST];
        size_t k, m = closest(cl, MAX_CLOSEST, r);
        cJSON *c = cJSON_AddArrayToObject(root, "closest_misses");
        for (k = 0; k < m; k++)
            cJSON_AddItemToArray(c, json_rejection(r, cl[k]));
    }
    if (v->explain) {
        cJSON *rej = cJSON_AddArrayToObject(root, "rejected");
        for (i = 0; i < r->n_rejected; i++)
            cJSON_AddItemToArray(rej, json_rejection(r, &r->rejected[i]));
    }
    return root;
}

/* ------------------------------------------------------------------ */
/* CSV, Markdown, tfvars                                               */
/* ------------------------------------------------------------------ */

static void num_or_empty(FILE *f, double x, int decimals, int last)
{
    if (x > 0)
        fprintf(f, "%.*f", decimals, x);
    fputc(last ? '\n' : ',', f);
}

void rr_print_csv(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t i, n = shown(v);
    fprintf(f, "rank,instance_type,nodes,purchase,region,accelerator,"
               "accelerator_count,required_per_device_gib,"
               "available_per_device_gib,time_hours,hourly_usd,total_usd,"
               "monthly_usd,usd_per_million,per_million_unit,throughput,"
               "throughput_unit,latency_ms,bottleneck,marks\n");
    for (i = 0; i < n; i++) {
        const ecf_plan *p = &r->plans[i];
        char mk[48];
        marks_str(mk, sizeof(mk), p->marks);
        fprintf(f, "%zu,", i + 1);
        cli_csv_field(f, p->inst->type, 0);
        fprintf(f, "%d,%s,", p->nodes, purchase(p));
        cli_csv_field(f, p->region, 0);
        cli_csv_field(f, p->inst->accel ? p->inst->accel->id : "", 0);
        fprintf(f, "%d,%.3f,%.3f,", p->inst->accel_count,
                p->required_per_device_gib, p->available_per_device_gib);
        num_or_empty(f, p->time_hours, 4, 0);
        fprintf(f, "%.6f,", p->hourly_usd);
        num_or_empty(f, p->total_usd, 2, 0);
        num_or_empty(f, p->monthly_usd, 2, 0);
        num_or_empty(f, p->usd_per_million, 6, 0);
        fprintf(f, "%s,%.3f,", r->per_million_unit, p->throughput);
        cli_csv_field(f, p->throughput_unit ? p->throughput_unit : "", 0);
        num_or_empty(f, r->serving ? p->latency_ms : 0, 3, 0);
        fprintf(f, "%s,", ecf_bottleneck_name(p->bottleneck));
        cli_csv_field(f, mk, 1);
    }
}

void rr_print_markdown(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    char wl[256];
    size_t i, n = shown(v);

    char lbl[512], ty[256];

    workload_line(wl, sizeof(wl), v);
    fprintf(f, "## EC2 recommendation: %s\n\n",
            ecf_textsafe(lbl, sizeof(lbl), v->model->name));
    fprintf(f, "- **Workload:** %s\n", ecf_textsafe(lbl, sizeof(lbl), wl));
    fprintf(f, "- **Prices:** %s catalog, as of %s (Linux on-demand; spot "
               "prices are estimates from the AWS Spot Advisor)\n",
            ecf_textsafe(lbl, sizeof(lbl), v->catalog_label),
            ecf_catalog_as_of(v->cat));
    fprintf(f, "- **Regions:** ");
    for (i = 0; i < v->opts->n_regions; i++)
        fprintf(f, "%s%s", i ? ", " : "", v->opts->regions[i]);
    fprintf(f, "; optimized for %s\n\n", ecf_optimize_name(v->opts->optimize));
    if (n == 0) {
        fprintf(f, "No instance type satisfies every constraint.\n");
        return;
    }
    if (r->serving)
        fprintf(f, "| # | Instance | Nodes | Purchase | Accelerator | Memory "
                   "(GiB/device) | Latency | $/hour | $/month | $/1M %s | "
                   "Note |\n|---|---|---:|---|---|---:|---:|---:|---:|---:|---|"
                   "\n",
                r->per_million_unit);
    else
        fprintf(f, "| # | Instance | Nodes | Purchase | Accelerator | Memory "
                   "(GiB/device) | %s | $/hour | %s | Note |\n"
                   "|---|---|---:|---|---|---:|---:|---:|---:|---|\n",
                r->basis == ECF_COST_TOTAL ? "Time" : "Throughput",
                r->basis == ECF_COST_TOTAL ? "Total" : "$/1M");
    for (i = 0; i < n; i++) {
        const ecf_plan *p = &r->plans[i];
        char acc[96], mk[48], c1[32], c2[32], c3[32];
        cli_accel_label(acc, sizeof(acc), p->inst);
        marks_str(mk, sizeof(mk), p->marks);
        fmt_usd(c2, sizeof(c2), p->hourly_usd);
        if (r->serving) {
            char c4[32];
            snprintf(c1, sizeof(c1), "%.0f ms", p->latency_ms);
            fmt_usd(c3, sizeof(c3), p->monthly_usd);
            fmt_usd(c4, sizeof(c4), p->usd_per_million);
            fprintf(f, "| %zu | `%s` | %d | %s | %s | %.1f / %.1f | %s | %s | "
                       "%s | %s | %s |\n",
                    i + 1, ecf_textsafe(ty, sizeof(ty), p->inst->type), p->nodes, purchase(p), acc,
                    p->required_per_device_gib, p->available_per_device_gib,
                    c1, c2, c3, c4, mk);
        } else {
            if (r->basis == ECF_COST_TOTAL) {
                fmt_hours(c1, sizeof(c1), p->time_hours);
                fmt_usd(c3, sizeof(c3), p->total_usd);
            } else {
                char t[24];
                fmt_count(t, sizeof(t), p->throughput);
                snprintf(c1, sizeof(c1), "%s %s", t,
                         p->throughput_unit ? p->throughput_unit : "");
                fmt_usd(c3, sizeof(c3), p->usd_per_million);
            }
            fprintf(f, "| %zu | `%s` | %d | %s | %s | %.1f / %.1f | %s | %s | "
                       "%s | %s |\n",
                    i + 1, ecf_textsafe(ty, sizeof(ty), p->inst->type), p->nodes, purchase(p), acc,
                    p->required_per_device_gib, p->available_per_device_gib,
                    c1, c2, c3, mk);
        }
    }
    fprintf(f, "\nEstimates from ec2fit's analytical model (memory, roofline "
               "time, scaling); see docs/estimation.md for the formulas and "
               "their sources.\n");
}

void rr_print_tfvars(FILE *f, const rr_view *v)
{
    const ecf_plan *p = &v->rec->plans[0];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "instance_type", p->inst->type);
    cJSON_AddNumberToObject(o, "instance_count", p->nodes);
    cJSON_AddBoolToObject(o, "use_spot", p->spot);
    cJSON_AddStringToObject(o, "region", p->region);
    cli_json_add_num(o, "hourly_usd", p->hourly_usd, 6);
    {
        /* for `data "aws_ssm_parameter"` (docs/terraform.md) */
        const ecf_image *im =
            ecf_images_for(v->images, ECF_IMAGE_USE_INSTANCE, p->inst);
        if (im)
            cJSON_AddStringToObject(o, "ami_ssm_parameter", im->ssm_parameter);
        else
            cJSON_AddNullToObject(o, "ami_ssm_parameter");
    }
    cli_json_print(f, o);
}

void rr_print_no_plan_stderr(FILE *f, const rr_view *v)
{
    const ecf_rejection *cl[1] = {NULL};
    if (closest(cl, 1, v->rec) == 1 && cl[0]) {
        char reason[ECF_RULE_MSG_LEN], ty[256], safe[4 * ECF_RULE_MSG_LEN];
        ecf_recommend_rejection_reason(reason, sizeof(reason), v->rec, cl[0]);
        fprintf(f, "ec2fit: recommend: no instance type satisfies the "
                   "constraints; closest: %s (%s): %s\n",
                ecf_textsafe(ty, sizeof(ty), cl[0]->inst->type),
                ecf_rule_name(cl[0]->rule),
                ecf_textsafe(safe, sizeof(safe), reason));
    }
    else
        fprintf(f, "ec2fit: recommend: no instance type satisfies the "
                   "constraints\n");
}
