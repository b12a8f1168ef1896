/*
 * render_ranges.c - the likely ranges (ec2fit/ranges.h) in every format:
 * the JSON "ranges" object beside the point figures, the "(low-high)"
 * suffix of the table, the --explain lines naming the class and its rows,
 * and the *_high keys of tfvars / tf-external. A view without a range
 * table (v->ranges NULL, as a library caller that sets none) shows none.
 */
#include "recommend_render_internal.h"

#include <stdio.h>
#include <string.h>

static const char *const level_names[ECF_RANGE_LEVEL_COUNT] = {
    "class", "family-task-engine", "family-task", "family", "kind"};

void ecf_rr_plan_ranges(ecf_ranges *out, const rr_view *v, const ecf_plan *p)
{
    memset(out, 0, sizeof(*out));
    if (v->ranges)
        ecf_ranges_for_plan(out, v->ranges, v->model, &v->rec->workload,
                            v->rec->serving, p);
}

static void json_one(rj *o, const char *key, const ecf_fig_range *r,
                     int decimals)
{
    char label[160];
    rj x;

    if (!r->set)
        return;
    x = rj_open(o, key, '{');
    /* rounded as the point figure is, so low <= value <= high holds in
     * the printed numbers too */
    rj_numr(&x, "low", r->low, decimals);
    rj_numr(&x, "high", r->high, decimals);
    if (r->high_past_block) /* high: the longest block's cost; open above */
        rj_bool(&x, "high_past_block", true);
    rj_num(&x, "basis_rows", r->basis->rows);
    rj_str(&x, "basis_kind", ecf_range_kind_name(r->basis->kind));
    rj_str(&x, "basis_class",
           ecf_range_class_label(label, sizeof(label), r->basis));
    rj_str(&x, "basis_level", level_names[r->basis->level]);
    rj_close(&x, '}');
}

void ecf_rr_json_ranges(rj *o, const ecf_ranges *rg)
{
    rj x;

    if (!rg->throughput.set && !rg->time_hours.set && !rg->memory_gib.set &&
        !rg->latency_ms.set)
        return;
    x = rj_open(o, "ranges", '{');
    json_one(&x, "time_hours", &rg->time_hours, 4);
    json_one(&x, "throughput", &rg->throughput, 3);
    json_one(&x, "latency_ms", &rg->latency_ms, 3);
    json_one(&x, "ttft_ms", &rg->ttft_ms, 3);
    json_one(&x, "per_token_ms", &rg->per_token_ms, 3);
    json_one(&x, "memory_per_device_gib", &rg->memory_gib, 3);
    json_one(&x, "total_usd", &rg->total_usd, 2);
    json_one(&x, "monthly_usd", &rg->monthly_usd, 2);
    rj_close(&x, '}');
}

void ecf_rr_json_ranges_tree(struct cJSON *o, const ecf_ranges *rg)
{
    rj x = {o, NULL};
    ecf_rr_json_ranges(&x, rg);
}

void ecf_rr_fmt_span(char *buf, size_t n, const ecf_fig_range *r, double scale)
{
    double lo, hi;
    int d;

    if (!r->set) {
        buf[0] = '\0';
        return;
    }
    lo = r->low / scale;
    hi = r->high / scale;
    /* three significant figures at most, as the point figures */
    d = hi >= 100 ? 0 : hi >= 10 ? 1 : 2;
    if (d == 2 && lo >= 1)
        d = 1;
    /* "+": past the longest Capacity Block, more than one block's cost */
    snprintf(buf, n, " (%.*f-%.*f%s)", d, lo, d, hi,
             r->high_past_block ? "+" : "");
}

double ecf_rr_hours_scale(double h)
{
    return h < 1 ? 1.0 / 60 : h < 72 ? 1 : 24;
}

void ecf_rr_print_ranges_explain(FILE *f, const rr_view *v)
{
    static const char *const names[] = {"time",       "throughput",
                                        "latency",    "ttft",
                                        "per-token",  "memory",
                                        "total cost", "monthly cost"};
    ecf_ranges rg;
    const ecf_fig_range *figs[8];
    size_t i;

    if (!v->ranges || v->rec->n_plans == 0)
        return;
    ecf_rr_plan_ranges(&rg, v, &v->rec->plans[0]);
    /* in the order of names[] */
    figs[0] = &rg.time_hours;
    figs[1] = &rg.throughput;
    figs[2] = &rg.latency_ms;
    figs[3] = &rg.ttft_ms;
    figs[4] = &rg.per_token_ms;
    figs[5] = &rg.memory_gib;
    figs[6] = &rg.total_usd;
    figs[7] = &rg.monthly_usd;
    fprintf(f, "\nRanges (rank 1; docs/estimation.md \"Ranges\": P%.0f-P%.0f "
               "of measured/predicted in %s, nearest class with >= %d rows)\n",
            v->ranges->lo_pct, v->ranges->hi_pct, v->ranges->source,
            v->ranges->min_rows);
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const ecf_fig_range *r = figs[i];
        char label[160];
        if (!r->set)
            continue;
        fprintf(f, "  %-12s %.4g .. %.4g (x%.2f .. x%.2f of %.4g): %s "
                   "%s, %s level, %d rows\n",
                names[i], r->low, r->high, r->low / r->value,
                r->high / r->value, r->value,
                ecf_range_kind_name(r->basis->kind),
                ecf_range_class_label(label, sizeof(label), r->basis),
                level_names[r->basis->level], r->basis->rows);
        if (r->high_past_block)
            fprintf(f, "  %-12s the high time needs more than one %d-day "
                       "Capacity Block: %.4g is the longest block's cost\n",
                    "", ECF_CB_MAX_DAYS, r->high);
    }
}
