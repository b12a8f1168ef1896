/*
 * render_html.c - `recommend --output html`: one self-contained page for
 * pre-sales (no external assets, no script; it prints and mails as one
 * file). Sections: the workload, the ranked table, a cost-versus-time
 * scatter of the shown plans in inline SVG (cheapest / fastest / best
 * value highlighted), the memory breakdown of rank 1 (the estimator is run
 * again for that plan: the scorer keeps only totals), the assumptions and
 * the catalog date. Every text from the catalog or the user is escaped.
 */
#include "recommend_render.h"

#include <math.h>
#include <string.h>

#include "render_common.h"

/* Plot area of the scatter, in SVG user units. */
#define PW 760.0
#define PH 380.0
#define PL 80.0 /* left margin: y tick labels */
#define PB 50.0 /* bottom margin: x tick labels and title */
#define PT 20.0

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

static size_t shown(const rr_view *v)
{
    size_t n = v->rec->n_plans;
    return (size_t)v->top < n ? (size_t)v->top : n;
}

static void usd(char *buf, size_t n, double x)
{
    if (x <= 0)
        snprintf(buf, n, "&ndash;");
    else if (x < 10)
        snprintf(buf, n, "$%.4f", x);
    else
        snprintf(buf, n, "$%.2f", x);
}

/* The two axes of the scatter, by cost basis: a job with a dataset plots
 * total cost against hours; serving plots monthly cost against latency; a
 * job without a dataset plots $ per 1M units against hours per 1M. */
static double x_of(const ecf_recommendation *r, const ecf_plan *p)
{
    if (r->serving)
        return p->latency_ms;
    if (r->basis == ECF_COST_TOTAL)
        return p->time_hours;
    return p->throughput > 0 ? 1e6 / p->throughput / 3600 : 0;
}

static double y_of(const ecf_recommendation *r, const ecf_plan *p)
{
    if (r->basis == ECF_COST_TOTAL)
        return p->total_usd;
    if (r->basis == ECF_COST_MONTHLY)
        return p->monthly_usd;
    return p->usd_per_million;
}

static const char *x_title(const ecf_recommendation *r)
{
    if (r->serving)
        return "latency per request (ms)";
    return r->basis == ECF_COST_TOTAL ? "job time (hours)"
                                      : "hours per 1M units";
}

static const char *y_title(const ecf_recommendation *r)
{
    if (r->basis == ECF_COST_TOTAL)
        return "total cost (USD)";
    return r->basis == ECF_COST_MONTHLY ? "monthly cost (USD)"
                                        : "USD per 1M units";
}

/* Log axes when the values span more than a decade (they usually do:
 * one 8-GPU node against a single small GPU). */
typedef struct {
    double lo, hi;
    bool log;
} axis;

static axis make_axis(double lo, double hi)
{
    axis a;
    if (lo <= 0)
        lo = hi > 0 ? hi / 10 : 1;
    if (hi <= lo)
        hi = lo * 2;
    a.log = hi / lo > 10;
    if (a.log) {
        a.lo = pow(10, floor(log10(lo)));
        a.hi = pow(10, ceil(log10(hi)));
    } else {
        a.lo = lo * 0.9;
        a.hi = hi * 1.1;
    }
    return a;
}

static double frac(const axis *a, double v)
{
    if (v <= 0)
        v = a->lo;
    if (a->log)
        return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    return (v - a->lo) / (a->hi - a->lo);
}

static void tick_label(char *buf, size_t n, double v)
{
    if (v >= 1e6)
        snprintf(buf, n, "%.3gM", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, n, "%.3gk", v / 1e3);
    else
        snprintf(buf, n, "%.3g", v);
}

static void scatter(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t n = shown(v), i;
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    axis ax, ay;
    int k;

    for (i = 0; i < r->n_plans; i++) {
        double x = x_of(r, &r->plans[i]), y = y_of(r, &r->plans[i]);
        if (i >= n && !r->plans[i].marks)
            continue;
        if (x > 0 && x < xlo)
            xlo = x;
        if (x > xhi)
            xhi = x;
        if (y > 0 && y < ylo)
            ylo = y;
        if (y > yhi)
            yhi = y;
    }
    ax = make_axis(isfinite(xlo) ? xlo : 0, xhi);
    ay = make_axis(isfinite(ylo) ? ylo : 0, yhi);
    fprintf(f, "<svg class=\"scatter\" viewBox=\"0 0 %.0f %.0f\" "
               "width=\"%.0f\" height=\"%.0f\" role=\"img\" "
               "aria-label=\"cost versus time of the ranked plans\" "
               "xmlns=\"http://www.w3.org/2000/svg\">\n",
            PL + PW + 20, PT + PH + PB, PL + PW + 20, PT + PH + PB);
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
               "class=\"plot\"/>\n",
            PL, PT, PW, PH);
    /* grid and ticks: decades on log axes, five steps on linear ones */
    for (k = 0; k <= 8; k++) {
        double fx, fy, vx, vy;
        char lx[32], ly[32];
        int steps = 4;
        if (ax.log)
            steps = (int)lround(log10(ax.hi) - log10(ax.lo));
        if (k <= steps && steps > 0) {
            fx = (double)k / steps;
            vx = ax.log ? ax.lo * pow(10, k) : ax.lo + fx * (ax.hi - ax.lo);
            tick_label(lx, sizeof(lx), ax.log ? vx : round(vx * 100) / 100);
            fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.0f\" "
                       "x2=\"%.1f\" y2=\"%.0f\"/><text class=\"tick\" "
                       "x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s"
                       "</text>\n",
                    PL + fx * PW, PT, PL + fx * PW, PT + PH, PL + fx * PW,
                    PT + PH + 16, lx);
        }
        steps = 4;
        if (ay.log)
            steps = (int)lround(log10(ay.hi) - log10(ay.lo));
        if (k <= steps && steps > 0) {
            fy = (double)k / steps;
            vy = ay.log ? ay.lo * pow(10, k) : ay.lo + fy * (ay.hi - ay.lo);
            tick_label(ly, sizeof(ly), ay.log ? vy : round(vy * 100) / 100);
            fprintf(f, "<line class=\"grid\" x1=\"%.0f\" y1=\"%.1f\" "
                       "x2=\"%.0f\" y2=\"%.1f\"/><text class=\"tick\" "
                       "x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s%s</text>\n",
                    PL, PT + PH - fy * PH, PL + PW, PT + PH - fy * PH, PL - 6,
                    PT + PH - fy * PH + 4,
                    r->basis == ECF_COST_PER_MILLION ? "" : "$", ly);
        }
    }
    fprintf(f, "<text class=\"axis\" x=\"%.0f\" y=\"%.0f\" "
               "text-anchor=\"middle\">%s%s</text>\n",
            PL + PW / 2, PT + PH + 40, x_title(r), ax.log ? ", log scale" : "");
    fprintf(f, "<text class=\"axis\" transform=\"translate(16 %.0f) "
               "rotate(-90)\" text-anchor=\"middle\">%s%s</text>\n",
            PT + PH / 2, y_title(r), ay.log ? ", log scale" : "");
    /* points: ordinary plans first, marked ones on top */
    for (k = 0; k < 2; k++) {
        for (i = 0; i < r->n_plans; i++) {
            const ecf_plan *p = &r->plans[i];
            double cx = PL + frac(&ax, x_of(r, p)) * PW;
            double cy = PT + PH - frac(&ay, y_of(r, p)) * PH;
            bool marked = p->marks != 0;
            /* the shown plans, and a marked plan ranked below --top */
            if (marked != (k == 1) || (i >= n && !marked))
                continue;
            fprintf(f, "<circle class=\"plan%s%s%s%s\" cx=\"%.1f\" "
                       "cy=\"%.1f\" r=\"%d\"><title>#%zu ",
                    p->spot ? " spot" : "",
                    (p->marks & ECF_MARK_CHEAPEST) ? " cheapest" : "",
                    (p->marks & ECF_MARK_FASTEST) ? " fastest" : "",
                    (p->marks & ECF_MARK_BEST_VALUE) ? " best-value" : "", cx,
                    cy, marked ? 8 : 5, i + 1);
            esc(f, p->inst->type);
            fprintf(f, " x%d %s</title></circle>\n", p->nodes,
                    p->spot ? "spot" : "on-demand");
            if (marked || i == 0) {
                fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\">#%zu ",
                        cx + 10, cy - 8, i + 1);
                esc(f, p->inst->type);
                if (p->marks & ECF_MARK_CHEAPEST)
                    fputs(" &middot; cheapest", f);
                if (p->marks & ECF_MARK_FASTEST)
                    fputs(" &middot; fastest", f);
                if (p->marks & ECF_MARK_BEST_VALUE)
                    fputs(" &middot; best value", f);
                fputs("</text>\n", f);
            }
        }
    }
    fputs("</svg>\n", f);
}

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
        fputs("<li>", f);
        esc(f, est.assumptions[i]);
        fputs("</li>\n", f);
    }
}

static void table(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t i, n = shown(v);
    fprintf(f, "<table>\n<thead><tr><th>#</th><th>Instance</th>"
               "<th>Nodes</th><th>Purchase</th><th>Region</th>"
               "<th>Accelerator</th><th>Memory GiB/device</th><th>%s</th>"
               "<th>$/hour</th><th>%s</th><th>Note</th></tr></thead>\n"
               "<tbody>\n",
            r->serving ? "Latency" : (r->basis == ECF_COST_TOTAL
                                          ? "Time"
                                          : "Throughput"),
            r->basis == ECF_COST_TOTAL
                ? "Total"
                : (r->basis == ECF_COST_MONTHLY ? "Monthly" : "$/1M"));
    for (i = 0; i < n; i++) {
        const ecf_plan *p = &r->plans[i];
        char acc[96], c1[48], c2[32], c3[32];
        cli_accel_label(acc, sizeof(acc), p->inst);
        usd(c2, sizeof(c2), p->hourly_usd);
        usd(c3, sizeof(c3), y_of(r, p));
        if (r->serving)
            snprintf(c1, sizeof(c1), "%.0f ms", p->latency_ms);
        else if (r->basis == ECF_COST_TOTAL)
            snprintf(c1, sizeof(c1), "%.1f h", p->time_hours);
        else
            snprintf(c1, sizeof(c1), "%.3g %s", p->throughput,
                     p->throughput_unit ? p->throughput_unit : "");
        fprintf(f, "<tr%s><td>%zu</td><td><code>", p->marks ? " class=\"marked\"" : "",
                i + 1);
        esc(f, p->inst->type);
        fprintf(f, "</code></td><td>%d</td><td>%s</td><td>", p->nodes,
                p->spot ? "spot" : "on-demand");
        esc(f, p->region);
        fputs("</td><td>", f);
        esc(f, acc);
        fprintf(f, "</td><td>%.1f / %.1f</td><td>", p->required_per_device_gib,
                p->available_per_device_gib);
        esc(f, c1);
        fprintf(f, "</td><td>%s</td><td>%s</td><td>%s%s%s</td></tr>\n", c2,
                c3, (p->marks & ECF_MARK_CHEAPEST) ? "cheapest " : "",
                (p->marks & ECF_MARK_FASTEST) ? "fastest " : "",
                (p->marks & ECF_MARK_BEST_VALUE) ? "best value" : "");
    }
    fputs("</tbody>\n</table>\n", f);
}

void rr_print_html(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_workload *w = &r->workload;
    size_t i;
    char batch[96];

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
          "text-align:left}th{background:#f3f5f8}"
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
          "@media print{body{margin:0}}\n"
          "</style>\n</head>\n<body>\n<h1>EC2 recommendation: ",
          f);
    esc(f, v->model->name);
    fprintf(f, "</h1>\n<p class=\"sub\">%s, optimized for %s. Prices as of "
               "%s.</p>\n<h2>Workload</h2>\n<dl>\n<dt>Model</dt><dd>",
            ecf_task_name(w->task), ecf_optimize_name(v->opts->optimize),
            ecf_catalog_as_of(v->cat));
    if (w->task == ECF_TASK_INFER && !w->batch_explicit)
        snprintf(batch, sizeof(batch), "automatic (requests batched up to "
                                       "the latency target or roofline knee)");
    else
        snprintf(batch, sizeof(batch), "%d per device", w->batch_size);
    esc(f, v->model->name);
    fprintf(f, " (%s, %.3g B parameters)</dd>\n<dt>Task</dt><dd>%s</dd>\n"
               "<dt>Precision</dt><dd>%s</dd>\n<dt>Batch</dt><dd>%s</dd>\n",
            ecf_model_kind_name(v->model->kind), v->model->params / 1e9,
            ecf_task_name(w->task),
            ecf_precision_name((ecf_precision)(w->precision >= 0
                                                   ? w->precision
                                                   : ECF_PREC_BF16)),
            batch);
    if (w->dataset_samples > 0)
        fprintf(f, "<dt>Dataset</dt><dd>%.0f samples &times; %g epoch(s)"
                   "</dd>\n",
                w->dataset_samples, w->epochs > 0 ? w->epochs : 1);
    if (r->serving)
        fprintf(f, "<dt>Load</dt><dd>%g requests/s</dd>\n", w->qps);
    if (v->opts->budget_usd > 0)
        fprintf(f, "<dt>Budget</dt><dd>$%.2f</dd>\n", v->opts->budget_usd);
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
    if (r->n_plans == 0) {
        fprintf(f, "<p><strong>No instance type satisfies every "
                   "constraint</strong> (%zu candidates, %zu rejected). Run "
                   "<code>ec2fit recommend --explain</code> for the reasons."
                   "</p>\n",
                r->n_candidates, r->n_rejected);
    } else {
        table(f, v);
        fprintf(f, "<p class=\"sub\">%zu candidates (types &times; regions), "
                   "%zu feasible plans, %zu rejected.</p>\n",
                r->n_candidates, r->n_plans, r->n_rejected);
        rr_print_fleet_html(f, v); /* serving only; render_fleet.c */
        fputs("<h2>Cost versus time</h2>\n<p class=\"key\">"
              "<span><i class=\"dot\" style=\"background:#59a14f\"></i>"
              "cheapest</span><span><i class=\"dot\" "
              "style=\"background:#e15759\"></i>fastest</span><span>"
              "<i class=\"dot\" style=\"background:#f28e2b\"></i>best value"
              "</span><span><i class=\"dot\" style=\"background:#4e79a7\">"
              "</i>on-demand</span><span><i class=\"dot\" "
              "style=\"background:#76b7b2\"></i>spot</span></p>\n",
              f);
        scatter(f, v);
        fputs("<h2>Memory of the top plan</h2>\n", f);
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
               "<li>Serving months are 730 hours.</li>\n</ul>\n"
               "<footer>Generated by ec2fit %s. Catalog: ",
            ecf_catalog_as_of(v->cat), ECF_VERSION);
    esc(f, v->catalog_label);
    fprintf(f, ", prices as of %s.</footer>\n</body>\n</html>\n",
            ecf_catalog_as_of(v->cat));
}
