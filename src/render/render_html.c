/*
 * render_html.c - `recommend --output html`: one self-contained page for
 * pre-sales (no external assets, no script; it prints and mails as one
 * file). Sections: the workload, the ranked table, a cost-versus-time
 * scatter of the shown plans in inline SVG (cheapest / fastest / best
 * value highlighted), the memory breakdown of rank 1 (the estimator is run
 * again for that plan: the scorer keeps only totals), the assumptions and
 * the catalog date; every plan note, the Auto Scaling plan and the Lambda /
 * Lightsail options; with no plan, the closest misses. The chart is
 * render_html_chart.c's. Every text from the catalog or the user is escaped.
 */
#include "recommend_render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "render_html_chart.h"
#include "render_report.h"
#include "recommend_render_internal.h"

#define esc ecf_rr_html_esc
#define y_of ecf_rr_html_y_of

/* Rank 1's memory per device, split by what holds it, as one stacked bar
 * against the device's capacity. */
static void memory_bar(FILE *f, const rr_view *v)
{
    static const char *const names[] = {"weights",     "gradients",
                                        "optimizer",   "activations",
                                        "KV cache",    "LoRA adapters",
                                        "overhead"};
    static const char *const colors[] = {"#4e79a7", "#f28e2b", "#e15759",
                                         "#76b7b2", "#59a14f", "#b07aa1",
                                         "#9c755f"};
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p = &r->plans[0];
    ecf_estimate est;
    ecf_err err = ECF_ERR_INIT;
    double parts[7], cap, scale, x = 0;
    size_t i;
    const double W = 760;

    if (ecf_estimate_run(&est, v->model, &r->workload, p->inst,
                         r->serving ? p->nodes_per_group : p->nodes,
                         &err) != 0) {
        fputs("<p class=\"note\">Memory breakdown unavailable: ", f);
        esc(f, err.msg);
        fputs("</p>\n", f);
        return;
    }
    parts[0] = est.memory.weights_gib;
    parts[1] = est.memory.gradients_gib;
    parts[2] = est.memory.optimizer_gib;
    parts[3] = est.memory.activations_gib;
    parts[4] = est.memory.kv_cache_gib;
    parts[5] = est.memory.lora_gib;
    parts[6] = est.memory.overhead_gib;
    cap = est.memory.available_per_device_gib;
    if (est.memory.total_per_device_gib > cap)
        cap = est.memory.total_per_device_gib;
    scale = cap > 0 ? W / cap : 0;
    fprintf(f, "<p>Rank 1, <code>");
    esc(f, p->inst->type);
    fprintf(f, "</code>: %.1f GiB needed of %.1f GiB per %s.</p>\n",
            est.memory.total_per_device_gib,
            est.memory.available_per_device_gib,
            est.cpu_only ? "host" : "device");
    fprintf(f, "<svg class=\"membar\" viewBox=\"0 0 %.0f 56\" width=\"%.0f\" "
               "height=\"56\" role=\"img\" aria-label=\"memory breakdown\" "
               "xmlns=\"http://www.w3.org/2000/svg\">\n"
               "<rect x=\"0\" y=\"4\" width=\"%.0f\" height=\"32\" "
               "class=\"capacity\"/>\n",
            W + 2, W + 2, W);
    for (i = 0; i < 7; i++) {
        if (parts[i] <= 0)
            continue;
        fprintf(f, "<rect class=\"mem\" x=\"%.1f\" y=\"4\" width=\"%.1f\" "
                   "height=\"32\" fill=\"%s\"><title>%s %.2f GiB</title>"
                   "</rect>\n",
                x, parts[i] * scale, colors[i], names[i], parts[i]);
        x += parts[i] * scale;
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"40\" "
               "class=\"limit\"/><text class=\"tick\" x=\"%.1f\" y=\"52\" "
               "text-anchor=\"end\">capacity %.1f GiB</text>\n</svg>\n"
               "<ul class=\"legend\">\n",
            est.memory.available_per_device_gib * scale,
            est.memory.available_per_device_gib * scale,
            est.memory.available_per_device_gib * scale,
            est.memory.available_per_device_gib);
    for (i = 0; i < 7; i++)
        if (parts[i] > 0)
            fprintf(f, "<li><span class=\"swatch\" style=\"background:%s\">"
                       "</span>%s %.2f GiB</li>\n",
                    colors[i], names[i], parts[i]);
    fputs("</ul>\n<h2>Assumptions</h2>\n<ul>\n", f);
    for (i = 0; i < (size_t)est.n_assumptions; i++) {
        ecf_rr_customer_text(est.assumptions[i]);
        fputs("<li>", f);
        esc(f, est.assumptions[i]);
        fputs("</li>\n", f);
    }
}

static void table(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t i, n = shown(v);
    double hourly[64], cost[64];
    int dh, dc;

    for (i = 0; i < n && i < 64; i++) {
        hourly[i] = r->plans[i].hourly_usd;
        cost[i] = y_of(r, &r->plans[i]);
    }
    dh = ecf_rr_money_decimals(hourly, i);
    dc = ecf_rr_money_decimals(cost, i);
    fprintf(f, "<div class=\"wide\"><table class=\"plans\">\n<thead><tr><th class=\"num\">#</th>"
               "<th>Instance</th><th class=\"num\">Nodes</th><th>Purchase</th>"
               "<th>Region</th><th>Accelerator</th><th class=\"num\">Memory "
               "GiB/device</th><th class=\"num\">%s</th>"
               "<th class=\"num\">$/hour</th><th class=\"num\">%s</th>"
               "<th>Note</th></tr></thead>\n<tbody>\n",
            ecf_rr_llm_latency(r) ? "TTFT / TPOT"
            : r->serving          ? "Latency"
                                  : (r->basis == ECF_COST_TOTAL
                                          ? "Time"
                                          : "Throughput"),
            r->basis == ECF_COST_TOTAL
                ? "Total"
                : (r->basis == ECF_COST_MONTHLY ? "Monthly" : "$/1M"));
    for (i = 0; i < n; i++) {
        const ecf_plan *p = &r->plans[i];
        char acc[96], c1[112], c2[48], c3[112], sp[48], rk[32];
        ecf_ranges rg;
        ecf_render_accel_label(acc, sizeof(acc), p->inst);
        ecf_rr_plan_ranges(&rg, v, p);
        ecf_rr_fmt_money(c2, sizeof(c2), p->hourly_usd, i < 64 ? dh : 2);
        ecf_rr_fmt_money(c3, sizeof(c3), y_of(r, p), i < 64 ? dc : 2);
        /* the likely range after the figure (docs/estimation.md
         * "Ranges"), as the table prints it */
        ecf_rr_fmt_span(sp, sizeof(sp),
                    r->serving ? &rg.monthly_usd
                    : r->basis == ECF_COST_TOTAL ? &rg.total_usd
                                                 : &rg.throughput,
                    1);
        if (r->serving || r->basis == ECF_COST_TOTAL)
            snprintf(c3 + strlen(c3), sizeof(c3) - strlen(c3), "%s", sp);
        ecf_rr_figure_cell(c1, sizeof(c1), r, p, &rg);
        fprintf(f, "<tr%s><td class=\"num\">%zu</td><td class=\"nw\"><code>",
                p->marks ? " class=\"marked\"" : "", i + 1);
        esc(f, p->inst->type);
        {
            char pl[64];
            ecf_rr_purchase_label(pl, sizeof(pl), p);
            fprintf(f, "</code></td><td class=\"num\">%d</td><td class=\"nw\">%s"
                       "</td><td class=\"nw\">",
                    p->nodes, pl);
        }
        esc(f, p->region);
        fputs("</td><td>", f);
        esc(f, acc);
        fprintf(f, "</td><td class=\"num\">%.1f / %.1f</td><td class=\"num\">",
                p->required_per_device_gib, p->available_per_device_gib);
        esc(f, c1);
        /* "ranked +N%" as the table and Markdown say it: the order is
         * the score's (issue 24, point 6), which a penalty lifts above
         * the cost column */
        rk[0] = '\0';
        ecf_rr_rank_note(rk, sizeof(rk), p);
        fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
                   "<td>%s%s%s%s%s%s</td></tr>\n",
                c2, c3, (p->marks & ECF_MARK_CHEAPEST) ? "cheapest " : "",
                (p->marks & ECF_MARK_FASTEST) ? "fastest " : "",
                (p->marks & ECF_MARK_BEST_VALUE) ? "best value " : "", rk,
                rk[0] ? " " : "",
                p->price_estimated ? "<em>price estimated</em>" : "");
    }
    fputs("</tbody>\n</table></div>\n", f);
    if (ecf_rr_llm_latency(r)) {
        char line[320];
        ecf_rr_llm_request_line(line, sizeof(line), v);
        fputs("<p>", f);
        esc(f, line);
        fputs(".</p>\n", f);
    }
}

/* Whether `note` is one of the JSON's missing-price notes (which name the
 * command and flags that fix them: the page words them for a customer,
 * ecf_rr_missing_customer_note). */
static bool missing_note(const ecf_recommendation *r, const char *note)
{
    char buf[1024];
    size_t i;
    for (i = 0; i < r->n_missing; i++) {
        ecf_recommend_missing_note(buf, sizeof(buf), r, i);
        ecf_rr_customer_text(buf); /* as ecf_rr_report_notes words it */
        if (buf[0] && strcmp(buf, note) == 0)
            return true;
    }
    return false;
}

/* Every note and warning of --output json for the shown plans. */
static void notes(FILE *f, const rr_view *v)
{
    /* heap, not static: renderers may run on several threads */
    char (*nt)[RR_NOTE_LEN] = malloc(RR_MAX_NOTES * sizeof(*nt));
    size_t plan[RR_MAX_NOTES], k,
        m = nt ? ecf_rr_report_notes(nt, plan, RR_MAX_NOTES, v, shown(v)) : 0;
    if (m == 0) {
        free(nt);
        return;
    }
    fputs("<h2>Notes and warnings</h2>\n<ul class=\"notes\">\n", f);
    for (k = 0; k < m; k++) {
        if (plan[k] == (size_t)-1 && missing_note(v->rec, nt[k]))
            continue; /* above the table, in customer wording */
        fputs("<li class=\"note\">", f);
        if (plan[k] != (size_t)-1) {
            fprintf(f, "<strong>#%zu <code>", plan[k] + 1);
            esc(f, v->rec->plans[plan[k]].inst->type);
            fputs("</code></strong> ", f);
        }
        esc(f, nt[k]);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
    free(nt);
}

/* The Auto Scaling plan of rank 1 and the Lambda / Lightsail options. */
static void serving_extras(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t i;
    if (r->serving && r->n_plans > 0) {
        char t[48];
        ecf_rr_fmt_num(t, sizeof(t), r->asg_target_qps_per_instance, 2);
        fprintf(f, "<h2>Auto Scaling</h2>\n<p class=\"autoscaling\">Rank 1 "
                   "(<code>");
        esc(f, r->plans[0].inst->type);
        fprintf(f, "</code>): minimum %d, maximum %d instances; target "
                   "tracking at %s requests/s per instance (%.0f%% of its "
                   "capacity).</p>\n",
                r->asg_min, r->asg_max, t, r->asg_utilization * 100);
    }
    for (i = 0; i < v->n_light && !ecf_rr_light_offered(&v->light[i]); i++)
        ;
    if (i == v->n_light)
        return; /* only an option cheaper than rank 1 is offered */
    fputs("<h2>Cheaper CPU-only alternatives (Lambda, Lightsail)</h2>\n"
          "<div class=\"wide\"><table class=\"alternatives\">\n<thead><tr><th>Option</th>"
          "<th class=\"num\">Latency</th><th class=\"num\">Instances</th>"
          "<th class=\"num\">Monthly</th><th class=\"num\">$/1M</th>"
          "<th>Verdict</th></tr></thead>\n<tbody>\n", f);
    for (i = 0; i < v->n_light; i++) {
        const ecf_light_option *o = &v->light[i];
        if (!ecf_rr_light_offered(o))
            continue;
        fputs("<tr><td class=\"nw\">", f);
        esc(f, o->name);
        if (o->feasible) {
            char a[48], b[48], c[48], d[48];
            ecf_rr_fmt_num(a, sizeof(a), o->latency_ms, 0);
            ecf_rr_fmt_num(b, sizeof(b), o->instances, 0);
            ecf_rr_fmt_money(c, sizeof(c), o->monthly_usd, 2);
            ecf_rr_fmt_money(d, sizeof(d), o->usd_per_million, 4);
            fprintf(f, "</td><td class=\"num\">%s ms</td><td class=\"num\">"
                       "%s</td><td class=\"num\">%s</td><td class=\"num\">%s"
                       "</td><td>%s%s</td></tr>\n",
                    a, b, c, d,
                    o->cheaper ? "cheaper than rank 1" : "dearer than rank 1",
                    o->price_estimated ? " (at us-east-1 prices)" : "");
        } else {
            fputs("</td><td class=\"num\">-</td><td class=\"num\">-</td>"
                  "<td class=\"num\">-</td><td class=\"num\">-</td><td>"
                  "not feasible: ", f);
            esc(f, o->reason);
            fputs("</td></tr>\n", f);
        }
    }
    fputs("</tbody>\n</table></div>\n", f);
}

/* With no plan: the rejections closest to passing, as the table shows. */
static void closest_misses(FILE *f, const rr_view *v)
{
    const ecf_rejection *cl[MAX_CLOSEST];
    size_t k, m = closest(cl, MAX_CLOSEST, v->rec);
    if (m == 0)
        return;
    fputs("<h2>Closest misses</h2>\n<div class=\"wide\"><table class=\"misses\">\n<thead><tr>"
          "<th>Instance</th><th>Purchase</th><th>Region</th><th>Rule</th>"
          "<th>Why it misses</th></tr></thead>\n<tbody>\n", f);
    for (k = 0; k < m; k++) {
        char reason[ECF_RULE_MSG_LEN];
        ecf_recommend_rejection_reason(reason, sizeof(reason), v->rec, cl[k]);
        ecf_rr_customer_text(reason);
        fputs("<tr><td class=\"nw\"><code>", f);
        esc(f, cl[k]->inst->type);
        fprintf(f, "</code></td><td class=\"nw\">%s</td><td class=\"nw\">",
                cl[k]->spot ? "spot" : "on-demand");
        esc(f, cl[k]->region);
        fprintf(f, "</td><td>%s</td><td>", ecf_rule_name(cl[k]->rule));
        esc(f, reason);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table></div>\n", f);
}

/* The chart key's label of the plain (not spot) points: the purchase
 * options of the plotted plans, as the table's Purchase column names
 * them ("reserved-1y", "on-demand"); "on-demand" when all are spot. */
static void legend_purchases(char *buf, size_t n, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t i, len = 0, nshown = shown(v);
    buf[0] = '\0';
    for (i = 0; i < r->n_plans && len < n; i++) {
        const ecf_plan *p = &r->plans[i];
        const char *name = purchase(p);
        if ((i >= nshown && !p->marks) || p->spot || strstr(buf, name))
            continue;
        len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "",
                                name);
    }
    if (!buf[0])
        snprintf(buf, n, "on-demand");
}

void ecf_rr_print_html(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_workload *w = &r->workload;
    size_t i;
    char batch[128], params[48], num[48], counts[256], other[64];

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>EC2 recommendation: ", f);
    esc(f, v->model->name);
    fputs("</title>\n<style>\n"
          "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,"
          "'DejaVu Sans',sans-serif;color:#1d2430;margin:2rem auto;"
          "max-width:1100px;padding:0 1.5rem}\n"
          "h1{font-size:1.6rem;margin:0 0 .3rem}h2{font-size:1.15rem;"
          "margin:2rem 0 .6rem;border-bottom:1px solid #d8dee9;"
          "padding-bottom:.2rem}\n"
          ".sub{color:#5b6472;margin:0 0 1rem}\n"
          "dl{display:grid;grid-template-columns:max-content auto;"
          "gap:.2rem 1.2rem;margin:0}dt{color:#5b6472}dd{margin:0}\n"
          "table{border-collapse:collapse;width:100%;font-size:.9rem}"
          "th,td{padding:.35rem .5rem;border-bottom:1px solid #e5e9f0;"
          "text-align:left;vertical-align:top}th{background:#f3f5f8}"
          "th.num,td.num{text-align:right;font-variant-numeric:tabular-nums}"
          "td.num{white-space:nowrap}td.nw{white-space:nowrap}"
          ".wide{overflow-x:auto;max-width:100%}\n"
          "svg.membar{max-width:100%;height:auto}"
          "line.leader{stroke:#5b6472;stroke-width:1}\n"
          "svg.scatter{width:100%;max-width:868px;height:auto}"
          ".chart{break-inside:avoid;page-break-inside:avoid}"
          "h2{break-after:avoid;page-break-after:avoid}"
          ".notes li{margin:.2rem 0}\n"
          "tr.marked td{background:#eef7ee}\n"
          "svg text{font:12px system-ui,'DejaVu Sans',sans-serif;"
          "fill:#1d2430}.plot{fill:#fbfcfd;stroke:#c9d1dc}"
          ".grid{stroke:#e5e9f0}.tick{fill:#5b6472}.axis{font-weight:600}\n"
          "circle.plan{fill:#4e79a7;fill-opacity:.75;stroke:#fff}"
          "circle.spot{fill:#76b7b2}"
          "circle.cheapest{fill:#59a14f;stroke:#1d2430}"
          "circle.fastest{fill:#e15759;stroke:#1d2430}"
          "circle.best-value{fill:#f28e2b;stroke:#1d2430}\n"
          ".label{font-weight:600}.capacity{fill:#eef1f5;stroke:#c9d1dc}"
          ".limit{stroke:#1d2430;stroke-width:2;stroke-dasharray:4 3}\n"
          ".legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;"
          "gap:.4rem 1.2rem}.swatch{display:inline-block;width:.8rem;"
          "height:.8rem;margin-right:.35rem;vertical-align:-1px}\n"
          ".key span{margin-right:1.2rem}.dot{display:inline-block;"
          "width:.7rem;height:.7rem;border-radius:50%;margin-right:.3rem;"
          "vertical-align:-1px}\n"
          "footer{margin-top:2.5rem;color:#5b6472;font-size:.85rem}\n"
          "@media print{body{margin:0;max-width:none}"
          "table{font-size:.72rem}th,td{padding:.2rem .3rem}"
          ".wide{overflow:visible}}\n"
          "</style>\n</head>\n<body>\n<h1>EC2 recommendation: ",
          f);
    esc(f, v->model->name);
    fprintf(f, "</h1>\n<p class=\"sub\">%s, optimized for %s. Prices as of "
               "%s.</p>\n<h2>Workload</h2>\n<dl>\n<dt>Model</dt><dd>",
            ecf_task_name(w->task), ecf_optimize_name(v->opts->optimize),
            ecf_catalog_as_of(v->cat));
    /* customer wording; the LLM rule is docs/estimation.md 5.4's
     * "Default service level" (it said "roofline knee" for every model) */
    if (w->task == ECF_TASK_INFER && !w->batch_explicit &&
        ecf_model_kind_is_llm(v->model->kind))
        snprintf(batch, sizeof(batch), "automatic (as many requests at once "
                                       "as the service level allows, up to "
                                       "the engine's limit)");
    else if (w->task == ECF_TASK_INFER && !w->batch_explicit)
        snprintf(batch, sizeof(batch), "automatic (requests grouped up to "
                                       "the latency target, or until a "
                                       "larger batch adds no throughput)");
    else
        snprintf(batch, sizeof(batch), "%d per device", w->batch_size);
    esc(f, v->model->name);
    ecf_rr_fmt_params(params, sizeof(params), v->model->params);
    fprintf(f, " (%s, %s parameters)</dd>\n<dt>Task</dt><dd>%s</dd>\n"
               "<dt>Precision</dt><dd>%s</dd>\n<dt>Batch</dt><dd>%s</dd>\n",
            ecf_model_kind_name(v->model->kind), params,
            ecf_task_name(w->task),
            ecf_precision_name((ecf_precision)(w->precision >= 0
                                                   ? w->precision
                                                   : ECF_PREC_BF16)),
            batch);
    if (w->dataset_samples > 0) {
        double ep = w->epochs > 0 ? w->epochs : 1;
        ecf_rr_fmt_num(num, sizeof(num), w->dataset_samples, 0);
        fprintf(f, "<dt>Dataset</dt><dd>%s samples &times; %g epoch%s</dd>\n",
                num, ep, ep == 1 ? "" : "s");
    }
    if (r->serving) {
        ecf_rr_fmt_num(num, sizeof(num), w->qps,
                   w->qps == floor(w->qps) ? 0 : 2);
        fprintf(f, "<dt>Load</dt><dd>%s requests/s</dd>\n", num);
    }
    if (v->opts->budget_usd > 0) {
        ecf_rr_fmt_money(num, sizeof(num), v->opts->budget_usd, 2);
        fprintf(f, "<dt>Budget</dt><dd>%s</dd>\n", num);
    }
    if (v->opts->deadline_hours > 0)
        fprintf(f, "<dt>Deadline</dt><dd>%.1f h</dd>\n",
                v->opts->deadline_hours);
    fputs("<dt>Regions</dt><dd>", f);
    for (i = 0; i < v->opts->n_regions; i++) {
        fputs(i ? ", " : "", f);
        esc(f, v->opts->regions[i]);
    }
    fprintf(f, "</dd>\n<dt>Spot</dt><dd>%s</dd>\n</dl>\n",
            r->spot_considered ? "considered (estimated prices)" : "off");

    fputs("<h2>Ranked plans</h2>\n", f);
    for (i = 0; i < r->n_missing; i++) {
        char note[1024];
        ecf_rr_missing_customer_note(note, sizeof(note), r, i);
        if (!note[0])
            continue;
        fputs("<p class=\"note\">", f);
        esc(f, note);
        fputs("</p>\n", f);
    }
    ecf_rr_counts_text(counts, sizeof(counts), r, true);
    if (r->n_plans == 0) {
        fputs("<p><strong>No instance type satisfies every "
              "constraint</strong> (", f);
        esc(f, counts);
        fputs(").</p>\n", f);
        closest_misses(f, v);
        serving_extras(f, v);
    } else {
        table(f, v);
        fputs("<p class=\"sub\">", f);
        esc(f, counts);
        fprintf(f, ". %s</p>\n", ecf_rr_cost_excludes);
        notes(f, v);
        serving_extras(f, v);
        ecf_rr_print_fleet_html(f, v); /* purchase options; render_fleet.c */
        fputs("<section class=\"chart\">\n<h2>Cost versus time</h2>\n"
              "<p class=\"key\">"
              "<span><i class=\"dot\" style=\"background:#59a14f\"></i>"
              "cheapest</span><span><i class=\"dot\" "
              "style=\"background:#e15759\"></i>fastest</span><span>"
              "<i class=\"dot\" style=\"background:#f28e2b\"></i>best value"
              "</span><span><i class=\"dot\" style=\"background:#4e79a7\">"
              "</i>", f);
        legend_purchases(other, sizeof(other), v);
        fprintf(f, "%s</span><span><i class=\"dot\" "
                   "style=\"background:#76b7b2\"></i>spot</span></p>\n",
                other);
        ecf_rr_html_scatter(f, v);
        fputs("</section>\n<h2>Memory of the top plan</h2>\n", f);
        memory_bar(f, v); /* opens the assumptions list */
    }
    if (r->n_plans == 0)
        fputs("<h2>Assumptions</h2>\n<ul>\n", f);
    fputs("<li>Prices: Linux on-demand, shared tenancy, from the ", f);
    esc(f, v->catalog_label);
    fprintf(f, " catalog as of %s; spot prices are estimates from the AWS "
               "Spot Advisor savings band, and spot job times include "
               "expected interruption rework.</li>\n"
               "<li>Times and memory come from ec2fit's analytical model "
               "(roofline time, documented utilization, scaling "
               "efficiency), not from a benchmark of this model.</li>\n"
               "<li>Serving months are 730 hours.</li>\n<li>%s</li>\n"
               "</ul>\n"
               "<footer>Generated by ec2fit %s. Catalog: ",
            ecf_catalog_as_of(v->cat), ecf_rr_cost_excludes, ECF_VERSION);
    esc(f, v->catalog_label);
    fprintf(f, ", prices as of %s.</footer>\n</body>\n</html>\n",
            ecf_catalog_as_of(v->cat));
}
