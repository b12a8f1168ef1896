/*
 * render_markdown.c - the recommendation as a Markdown report section.
 */
#include "recommend_render.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "recommend_render_internal.h"
#include "ec2fit/textsafe.h"
#include "ec2fit/light.h"

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
    rr_print_fleet_text(f, v, true);
    rr_print_spot_caveat(f, v);
    fprintf(f, "\nEstimates from ec2fit's analytical model (memory, roofline "
               "time, scaling); see docs/estimation.md for the formulas and "
               "their sources.\n");
}
