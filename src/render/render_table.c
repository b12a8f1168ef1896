/*
 * render_table.c - the recommendation as a text table for a terminal
 * (ranked plans, notes, closest misses and --explain groups).
 */
#include "recommend_render.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "render_report.h"
#include "recommend_render_internal.h"
#include "ec2fit/textsafe.h"
#include "ec2fit/light.h"

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




/* The time (latency when serving; throughput without a dataset) and
 * cost cells of a plan, each with its likely range: "8.4 h (7.1-10.2)". */
static void plan_cells(char *c1, char *c3, size_t n, const rr_view *v,
                       const ecf_plan *p)
{
    const ecf_recommendation *r = v->rec;
    ecf_ranges rg;
    char s1[48], s3[48];
    size_t l;

    ecf_rr_plan_ranges(&rg, v, p);
    if (r->serving && ecf_rr_llm_latency(r)) {
        /* TTFT / TPOT; the ranges and the whole request: the line under
         * the table */
        ecf_rr_llm_cell(c1, n, p);
        s1[0] = '\0';
        fmt_usd(c3, n, p->monthly_usd);
        ecf_rr_fmt_span(s3, sizeof(s3), &rg.monthly_usd, 1);
    } else if (r->serving) {
        snprintf(c1, n, "%.*f ms", ecf_rr_ms_decimals(p->latency_ms),
                 p->latency_ms);
        ecf_rr_fmt_span(s1, sizeof(s1), &rg.latency_ms, 1);
        fmt_usd(c3, n, p->monthly_usd);
        ecf_rr_fmt_span(s3, sizeof(s3), &rg.monthly_usd, 1);
    } else if (r->basis == ECF_COST_TOTAL) {
        fmt_hours(c1, n, p->time_hours);
        ecf_rr_fmt_span(s1, sizeof(s1), &rg.time_hours,
                    ecf_rr_hours_scale(p->time_hours));
        fmt_usd(c3, n, p->total_usd);
        ecf_rr_fmt_span(s3, sizeof(s3), &rg.total_usd, 1);
    } else {
        char t[24];
        fmt_count(t, sizeof(t), p->throughput);
        snprintf(c1, n, "%s/s", t);
        s1[0] = '\0';
        fmt_usd(c3, n, p->usd_per_million);
        s3[0] = '\0';
    }
    l = strlen(c1);
    snprintf(c1 + l, n - l, "%s", s1);
    l = strlen(c3);
    snprintf(c3 + l, n - l, "%s", s3);
}

void ecf_rr_print_table(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    char wl[256], mk[80];
    size_t i, n = shown(v);
    const char *bold = v->color ? "\033[1m" : "";
    const char *green = v->color ? "\033[32m" : "";
    const char *reset = v->color ? "\033[0m" : "";
    int tw = 8, aw = 11, rw = 0; /* rw: REGION column, multi-region only */
    int lw = 10, cw = 11;        /* time/latency and cost columns */
    int pw = 11; /* serving PURCHASE: "savings-plan-1y" is 15 wide */
    char rc[72];

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
        ecf_render_accel_label(acc, sizeof(acc), r->plans[i].inst);
        if ((int)strlen(r->plans[i].inst->type) > tw)
            tw = (int)strlen(r->plans[i].inst->type);
        if ((int)strlen(acc) > aw)
            aw = (int)strlen(acc);
        if (v->opts->n_regions > 1 && (int)strlen(r->plans[i].region) > rw)
            rw = (int)strlen(r->plans[i].region);
        if ((int)strlen(purchase(&r->plans[i])) > pw)
            pw = (int)strlen(purchase(&r->plans[i]));
    }
    rc[0] = '\0';
    if (rw > 0)
        snprintf(rc, sizeof(rc), "%-*s ", rw, "REGION");

    /* the likely ranges widen the time/latency and cost columns */
    for (i = 0; i < n; i++) {
        char c1[64], c3[64];
        plan_cells(c1, c3, sizeof(c1), v, &r->plans[i]);
        if ((int)strlen(c1) > lw)
            lw = (int)strlen(c1);
        if ((int)strlen(c3) > cw)
            cw = (int)strlen(c3);
    }
    if (n > 0) {
        if (r->serving)
            fprintf(f, "%s%-4s %-*s %s%5s %-*s %-*s %13s %*s %9s %10s %*s "
                       "%11s %-16s %s%s\n",
                    bold, "RANK", tw, "INSTANCE", rc, "NODES", pw, "PURCHASE", aw,
                    "ACCELERATOR", "MEM_GiB/DEV", lw,
                    ecf_rr_llm_latency(r) ? "TTFT / TPOT" : "LATENCY", "CAP_QPS",
                    "$/HOUR", cw, "MONTHLY",
                    strcmp(r->per_million_unit, "tokens") == 0 ? "$/1M_TOK"
                                                               : "$/1M_REQ",
                    "BOTTLENECK", "NOTE",
                    reset);
        else
            fprintf(f, "%s%-4s %-*s %s%5s %-9s %-*s %13s %*s %11s %*s "
                       "%-16s %s%s\n",
                    bold, "RANK", tw, "INSTANCE", rc, "NODES", "PURCHASE", aw,
                    "ACCELERATOR", "MEM_GiB/DEV", lw,
                    r->basis == ECF_COST_TOTAL ? "TIME" : "THROUGHPUT",
                    "$/HOUR", cw,
                    r->basis == ECF_COST_TOTAL ? "TOTAL" : "$/1M",
                    "BOTTLENECK", "NOTE", reset);
    }
    for (i = 0; i < n; i++) {
        const ecf_plan *p = &r->plans[i];
        char acc[96], mem[32], c1[64], c2[32], c3[64], c4[32];
        ecf_render_accel_label(acc, sizeof(acc), p->inst);
        snprintf(mem, sizeof(mem), "%.1f/%.1f", p->required_per_device_gib,
                 p->available_per_device_gib);
        marks_str(mk, sizeof(mk), p->marks);
        ecf_rr_rank_note(mk, sizeof(mk), p);
        if (p->price_estimated) {
            size_t l = strlen(mk);
            snprintf(mk + l, sizeof(mk) - l, "%sprice-estimated",
                     l ? " " : "");
        }
        fmt_usd(c2, sizeof(c2), p->hourly_usd);
        if (rw > 0)
            snprintf(rc, sizeof(rc), "%-*s ", rw, p->region);
        plan_cells(c1, c3, sizeof(c1), v, p);
        if (r->serving) {
            snprintf(c4, sizeof(c4), "%.3g", p->capacity_qps);
            {
                char c5[32];
                fmt_usd(c5, sizeof(c5), p->usd_per_million);
                fprintf(f,
                        "%-4zu %-*s %s%5d %-*s %-*s %13s %*s %9s %10s %*s "
                        "%11s %-16s %s%s%s\n",
                        i + 1, tw, ecf_textsafe(ty, sizeof(ty), p->inst->type), rc, p->nodes, pw, purchase(p), aw,
                        acc,
                        mem, lw, c1, c4, c2, cw, c3, c5,
                        ecf_bottleneck_name(p->bottleneck), green, mk, reset);
            }
        } else {
            fprintf(f,
                    "%-4zu %-*s %s%5d %-9s %-*s %13s %*s %11s %*s %-16s "
                    "%s%s%s\n",
                    i + 1, tw, ecf_textsafe(ty, sizeof(ty), p->inst->type), rc, p->nodes,
                    /* the column is 9 wide: the window is in the Notes */
                    p->purchase_option == ECF_PURCHASE_CAPACITY_BLOCK
                        ? "cap-block"
                        : purchase(p),
                    aw, acc, mem,
                    lw, c1, c2, cw, c3, ecf_bottleneck_name(p->bottleneck), green, mk,
                    reset);
        }
    }
    if (n > 0 && ecf_rr_llm_latency(r)) {
        char line[320];
        ecf_rr_llm_request_line(line, sizeof(line), v);
        fprintf(f, "\n%s.\n", line);
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
            {
                char cb[320];
                ecf_rr_cb_note(cb, sizeof(cb), &r->plans[i]);
                if (cb[0]) {
                    if (!header) {
                        fprintf(f, "\nNotes\n");
                        header = true;
                    }
                    fprintf(f, "  %zu. %s (capacity block): %s\n", i + 1,
                            r->plans[i].inst->type, cb);
                }
            }
            if (ecf_estimate_capacity_note(r->plans[i].inst) &&
                r->plans[i].purchase_option != ECF_PURCHASE_CAPACITY_BLOCK) {
                size_t cbr = ecf_rr_cb_rank(r, n, &r->plans[i]);
                if (!header) {
                    fprintf(f, "\nNotes\n");
                    header = true;
                }
                fprintf(f, "  %zu. %s (capacity): %s", i + 1,
                        r->plans[i].inst->type,
                        ecf_estimate_capacity_note(r->plans[i].inst));
                if (cbr > 0)
                    fprintf(f, "; the Capacity Block plan is rank %zu", cbr);
                fputc('\n', f);
            }
            if (r->plans[i].compile_s > 0) {
                /* docs/estimation.md 7, "Graph compilation" */
                if (!header) {
                    fprintf(f, "\nNotes\n");
                    header = true;
                }
                fprintf(f,
                        "  %zu. %s (compile): the first run compiles the "
                        "step's graphs, %.0f min, included in TIME and cost; "
                        "cached runs skip it\n",
                        i + 1, r->plans[i].inst->type,
                        r->plans[i].compile_s / 60);
            }
            if (r->plans[i].burst_baseline > 0) {
                /* docs/estimation.md "Burstable CPUs" */
                const ecf_plan *p = &r->plans[i];
                if (!header) {
                    fprintf(f, "\nNotes\n");
                    header = true;
                }
                if (!p->burst_unlimited)
                    fprintf(f,
                            "  %zu. %s (burstable): standard credit mode "
                            "(the %s default): sustained load held at the "
                            "%.4g%% baseline per vCPU\n",
                            i + 1, p->inst->type, p->inst->family,
                            p->burst_baseline * 100);
                else if (p->burst_surcharge_usd_per_hour > 0)
                    fprintf(f,
                            "  %zu. %s (burstable): unlimited credit mode "
                            "(the %s default): mean load %.1f%% per vCPU, "
                            "above the %.4g%% baseline: surplus credits "
                            "$%.4f/h, included in $/HOUR\n",
                            i + 1, p->inst->type, p->inst->family,
                            p->burst_load * 100, p->burst_baseline * 100,
                            p->burst_surcharge_usd_per_hour);
                else
                    fprintf(f,
                            "  %zu. %s (burstable): unlimited credit mode "
                            "(the %s default): mean load %.1f%% per vCPU, "
                            "within the %.4g%% baseline: no surplus "
                            "credits\n",
                            i + 1, p->inst->type, p->inst->family,
                            p->burst_load * 100, p->burst_baseline * 100);
            }
        }
    }
    for (i = 0; i < r->n_missing; i++) {
        char buf[1024];
        ecf_recommend_missing_note(buf, sizeof(buf), r, i);
        if (buf[0])
            fprintf(f, "\nPrices: %s\n", buf);
    }
    if (!r->serving && n > 0 && r->plans[0].storage_usd > 0) {
        const ecf_plan *p = &r->plans[0];
        fprintf(f,
                "\nStorage (rank 1): %s, $%.2f/month, $%.2f over the job "
                "(included in TOTAL)%s\n",
                ecf_storage_name((ecf_storage)p->storage),
                p->storage_monthly_usd, p->storage_usd,
                p->storage_price_estimated ? "; priced at us-east-1 rates"
                                           : "");
    }
    if (n > 0 && r->basis == ECF_COST_TOTAL)
        fprintf(f, "\nTimes include each node's start-up (rank 1: %.1f min of "
                   "boot, image pull and weights;\n--startup to change); EC2 "
                   "bills each node at least 60 s.\n",
                r->plans[0].startup_s / 60);
    ecf_rr_print_fleet_text(f, v, false);
    ecf_rr_print_spot_caveat(f, v);
    /* Light alternatives are shown when feasible and cheaper than rank 1
     * (JSON lists them all, with the reason when not feasible). */
    {
        bool header = false;
        for (i = 0; i < v->n_light; i++) {
            const ecf_light_option *o = &v->light[i];
            if (!ecf_rr_light_offered(o))
                continue;
            if (!header) {
                fprintf(f, "\nCheaper light alternatives (CPU only)\n");
                header = true;
            }
            fprintf(f, "  %-24s %6.0f ms  $%.2f/month  $%.4f per 1M %s%s\n",
                    o->name, o->latency_ms, o->monthly_usd,
                    o->usd_per_million, r->per_million_unit,
                    o->price_estimated ? "  (us-east-1 price)" : "");
        }
    }
    {
        char counts[256];
        ecf_rr_counts_text(counts, sizeof(counts), r, false);
        fprintf(f, "\n%s%s\n", counts,
                v->explain ? "" : " (--explain lists them by rule)");
    }
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
    if (v->explain) {
        ecf_rr_print_train_plans(f, v);
        ecf_rr_print_ranges_explain(f, v);
    }
    if (v->explain && r->n_rejected > 0) {
        fprintf(f, "\nRejected, by rule:\n");
        print_rejected_grouped(f, v, 10);
    }
}
