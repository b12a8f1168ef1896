/*
 * render_markdown.c - the recommendation as a Markdown report section: the
 * ranked table (with a Region column when several regions were compared),
 * every plan note and warning, the Auto Scaling plan, the Lambda /
 * Lightsail options, what the costs exclude; with no plan, the closest
 * misses.
 */
#include "recommend_render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "render_report.h"
#include "recommend_render_internal.h"
#include "ec2fit/textsafe.h"
#include "render_escape.h"
#include "ec2fit/light.h"

/* A table cell: Markdown text (render_escape.h), so '|' cannot end it. */
static void cell(FILE *f, const char *s)
{
    ecf_rr_md_text(f, s);
}

static void closest_misses(FILE *f, const rr_view *v)
{
    const ecf_rejection *cl[MAX_CLOSEST];
    size_t k, m = closest(cl, MAX_CLOSEST, v->rec);
    if (m == 0)
        return;
    fprintf(f, "Closest misses:\n\n| Instance | Purchase | Region | Rule | "
               "Why it misses |\n|---|---|---|---|---|\n");
    for (k = 0; k < m; k++) {
        char reason[ECF_RULE_MSG_LEN];
        ecf_recommend_rejection_reason(reason, sizeof(reason), v->rec, cl[k]);
        ecf_rr_customer_text(reason);
        fputs("| `", f);
        cell(f, cl[k]->inst->type);
        fprintf(f, "` | %s | ", cl[k]->spot ? "spot" : "on-demand");
        cell(f, cl[k]->region);
        fprintf(f, " | %s | ", ecf_rule_name(cl[k]->rule));
        cell(f, reason);
        fputs(" |\n", f);
    }
}

/* A missing-price note names the command and flags that fix it; the
 * report words it for a customer (ecf_rr_missing_customer_note), as the
 * HTML page does. False when `note` is not one. */
static bool customer_note(char *out, size_t n, const rr_view *v,
                          const char *note)
{
    char buf[1024];
    size_t i;
    for (i = 0; i < v->rec->n_missing; i++) {
        ecf_recommend_missing_note(buf, sizeof(buf), v->rec, i);
        ecf_rr_customer_text(buf); /* as ecf_rr_report_notes words it */
        if (buf[0] && strcmp(buf, note) == 0) {
            ecf_rr_missing_customer_note(out, n, v->rec, i);
            return out[0] != '\0';
        }
    }
    return false;
}

static void notes(FILE *f, const rr_view *v, size_t n)
{
    char cn[1024];
    /* heap, not static: renderers may run on several threads */
    char (*nt)[RR_NOTE_LEN] = malloc(RR_MAX_NOTES * sizeof(*nt));
    char ty[256];
    size_t plan[RR_MAX_NOTES], k,
        m = nt ? ecf_rr_report_notes(nt, plan, RR_MAX_NOTES, v, n) : 0;
    if (m == 0) {
        free(nt);
        return;
    }
    fprintf(f, "\n**Notes and warnings**\n\n");
    for (k = 0; k < m; k++) {
        if (plan[k] == (size_t)-1 && customer_note(cn, sizeof(cn), v, nt[k])) {
            fputs("- ", f);
            ecf_rr_md_text(f, cn);
            fputc('\n', f);
            continue; /* customer wording, as the HTML page */
        }
        if (plan[k] == (size_t)-1)
            fputs("- ", f);
        else
            fprintf(f, "- #%zu `%s`: ", plan[k] + 1,
                    ecf_textsafe(ty, sizeof(ty),
                                 v->rec->plans[plan[k]].inst->type));
        ecf_rr_md_text(f, nt[k]);
        fputc('\n', f);
    }
    free(nt);
}

static void serving_extras(FILE *f, const rr_view *v)
{
    size_t i;
    /* The Auto Scaling group is one bullet list (ecf_rr_print_fleet_text,
     * after the notes), not repeated here. */
    for (i = 0; i < v->n_light && !ecf_rr_light_offered(&v->light[i]); i++)
        ;
    if (i == v->n_light)
        return; /* only an option cheaper than rank 1 is offered */
    fprintf(f, "\n**Cheaper CPU-only alternatives (Lambda, Lightsail)**\n\n"
               "| Option | Latency | Instances | Monthly | $/1M | Verdict |\n"
               "|---|---:|---:|---:|---:|---|\n");
    for (i = 0; i < v->n_light; i++) {
        const ecf_light_option *o = &v->light[i];
        if (!ecf_rr_light_offered(o))
            continue;
        fputs("| ", f);
        cell(f, o->name);
        if (o->feasible) {
            char a[48], b[48], c[48], d[48];
            ecf_rr_fmt_num(a, sizeof(a), o->latency_ms, 0);
            ecf_rr_fmt_num(b, sizeof(b), o->instances, 0);
            ecf_rr_fmt_money(c, sizeof(c), o->monthly_usd, 2);
            ecf_rr_fmt_money(d, sizeof(d), o->usd_per_million, 4);
            fprintf(f, " | %s ms | %s | %s | %s | %s%s |\n", a, b, c, d,
                    o->cheaper ? "cheaper than rank 1" : "dearer than rank 1",
                    o->price_estimated ? " (at us-east-1 prices)" : "");
        } else {
            fputs(" | - | - | - | - | not feasible: ", f);
            cell(f, o->reason);
            fputs(" |\n", f);
        }
    }
}

void ecf_rr_print_markdown(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    char wl[256], ty[256], counts[256];
    size_t i, n = shown(v);
    bool multi = v->opts->n_regions > 1;
    double hourly[64], cost[64];
    int dh = 2, dc = 2;

    workload_line(wl, sizeof(wl), v);
    fputs("## EC2 recommendation: ", f);
    ecf_rr_md_text(f, v->model->name);
    fputs("\n\n- **Workload:** ", f);
    ecf_rr_md_text(f, wl);
    fputs("\n- **Prices:** ", f);
    ecf_rr_md_text(f, v->catalog_label);
    fprintf(f, " catalog, as of %s (Linux on-demand; spot "
               "prices are estimates from the AWS Spot Advisor)\n",
            ecf_catalog_as_of(v->cat));
    fprintf(f, "- **Regions:** ");
    for (i = 0; i < v->opts->n_regions; i++)
        fprintf(f, "%s%s", i ? ", " : "", v->opts->regions[i]);
    fprintf(f, "; optimized for %s\n\n", ecf_optimize_name(v->opts->optimize));
    ecf_rr_counts_text(counts, sizeof(counts), r, true);
    if (n == 0) {
        fprintf(f, "No instance type satisfies every constraint (%s).\n\n",
                counts);
        closest_misses(f, v);
        serving_extras(f, v);
        return;
    }
    for (i = 0; i < n && i < 64; i++) {
        const ecf_plan *p = &r->plans[i];
        hourly[i] = p->hourly_usd;
        cost[i] = r->serving ? p->monthly_usd
                  : r->basis == ECF_COST_TOTAL ? p->total_usd
                                               : p->usd_per_million;
    }
    dh = ecf_rr_money_decimals(hourly, i);
    dc = ecf_rr_money_decimals(cost, i);
    fprintf(f, "| # | Instance |%s Nodes | Purchase | Accelerator | Memory "
               "(GiB/device) | %s | $/hour | %s |%s Note |\n"
               "|---:|---|%s---:|---|---|---:|---:|---:|---:|%s---|\n",
            multi ? " Region |" : "",
            ecf_rr_llm_latency(r) ? "TTFT / TPOT"
            : r->serving          ? "Latency"
                       : (r->basis == ECF_COST_TOTAL ? "Time" : "Throughput"),
            r->serving ? "$/month"
                       : (r->basis == ECF_COST_TOTAL ? "Total" : "$/1M"),
            r->serving ? (strcmp(r->per_million_unit, "tokens") == 0
                              ? " $/1M tokens |"
                              : " $/1M requests |")
                       : "",
            multi ? "---|" : "", r->serving ? "---:|" : "");
    for (i = 0; i < n; i++) {
        const ecf_plan *p = &r->plans[i];
        char acc[96], mk[48], c1[112], c2[48], c3[112], sp[48];
        int d = i < 64 ? 0 : 1; /* beyond the sampled rows: 2 decimals */
        ecf_ranges rg;
        ecf_render_accel_label(acc, sizeof(acc), p->inst);
        /* the likely range after the figure, as the table and the HTML
         * report print it (docs/estimation.md "Ranges") */
        ecf_rr_plan_ranges(&rg, v, p);
        marks_str(mk, sizeof(mk), p->marks);
        ecf_rr_rank_note(mk, sizeof(mk), p);
        ecf_rr_fmt_money(c2, sizeof(c2), p->hourly_usd, d ? 2 : dh);
        ecf_rr_figure_cell(c1, sizeof(c1), r, p, &rg);
        if (r->serving) {
            ecf_rr_fmt_money(c3, sizeof(c3), p->monthly_usd, d ? 2 : dc);
            ecf_rr_fmt_span(sp, sizeof(sp), &rg.monthly_usd, 1);
            snprintf(c3 + strlen(c3), sizeof(c3) - strlen(c3), "%s", sp);
        } else if (r->basis == ECF_COST_TOTAL) {
            ecf_rr_fmt_money(c3, sizeof(c3), p->total_usd, d ? 2 : dc);
            ecf_rr_fmt_span(sp, sizeof(sp), &rg.total_usd, 1);
            snprintf(c3 + strlen(c3), sizeof(c3) - strlen(c3), "%s", sp);
        } else {
            ecf_rr_fmt_money(c3, sizeof(c3), p->usd_per_million, d ? 2 : dc);
        }
        fprintf(f, "| %zu | `%s` |", i + 1,
                ecf_textsafe(ty, sizeof(ty), p->inst->type));
        if (multi)
            fprintf(f, " %s |", p->region);
        {
            char pl[64];
            ecf_rr_purchase_label(pl, sizeof(pl), p);
            fprintf(f, " %d | %s | ", p->nodes, pl);
        }
        ecf_rr_md_text(f, acc);
        fprintf(f, " | %.1f / %.1f | %s | %s | %s |",
                p->required_per_device_gib,
                p->available_per_device_gib, c1, c2, c3);
        if (r->serving) {
            char c4[48];
            ecf_rr_fmt_money(c4, sizeof(c4), p->usd_per_million, 4);
            fprintf(f, " %s |", c4);
        }
        fprintf(f, " %s |\n", mk);
    }
    fprintf(f, "\n%s.\n", counts);
    if (ecf_rr_llm_latency(r)) {
        char line[320];
        ecf_rr_llm_request_line(line, sizeof(line), v);
        fprintf(f, "\n%s.\n", line);
    }
    notes(f, v, n);
    serving_extras(f, v);
    ecf_rr_print_fleet_text(f, v, true);
    ecf_rr_print_spot_caveat(f, v);
    fprintf(f, "\n%s Estimates from ec2fit's analytical model (memory, "
               "roofline time, scaling); see docs/estimation.md for the "
               "formulas and their sources.\n",
            ecf_rr_cost_excludes);
}
