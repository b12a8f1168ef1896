/*
 * render_csv.c - the recommendation as CSV, one row per plan.
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

static void num_or_empty(FILE *f, double x, int decimals, int last)
{
    if (x > 0)
        fprintf(f, "%.*f", decimals, x);
    fputc(last ? '\n' : ',', f);
}

void ecf_rr_print_csv(FILE *f, const rr_view *v)
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
        ecf_render_csv_field(f, p->inst->type, 0);
        fprintf(f, "%d,%s,", p->nodes, purchase(p));
        ecf_render_csv_field(f, p->region, 0);
        ecf_render_csv_field(f, p->inst->accel ? p->inst->accel->id : "", 0);
        fprintf(f, "%d,%.3f,%.3f,", p->inst->accel_count,
                p->required_per_device_gib, p->available_per_device_gib);
        num_or_empty(f, p->time_hours, 4, 0);
        fprintf(f, "%.6f,", p->hourly_usd);
        num_or_empty(f, p->total_usd, 2, 0);
        num_or_empty(f, p->monthly_usd, 2, 0);
        num_or_empty(f, p->usd_per_million, 6, 0);
        fprintf(f, "%s,%.3f,", r->per_million_unit, p->throughput);
        ecf_render_csv_field(f, p->throughput_unit ? p->throughput_unit : "", 0);
        num_or_empty(f, r->serving ? p->latency_ms : 0, 3, 0);
        fprintf(f, "%s,", ecf_bottleneck_name(p->bottleneck));
        ecf_render_csv_field(f, mk, 1);
    }
}
