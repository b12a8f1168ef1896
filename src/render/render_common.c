/* render_common.c - JSON/CSV helpers shared by the commands. */
#include "render_common.h"

#include <stdbool.h>

#include "ec2fit/region_name.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/textsafe.h"

double ecf_render_json_round(double v, int decimals)
{
    double scale = pow(10, decimals);
    double t = v * scale, r = round(t);
    /* The product can round onto a half (52.924999... x 100 = 5292.5):
     * decide on the exact value, as printf's "%.2f" in the table does, so
     * JSON and the table never disagree in the last shown digit. fma gives
     * the product's rounding error exactly; an exact tie goes to even,
     * glibc printf's rule. */
    if (fabs(t - r) == 0.5) {
        double e = fma(v, scale, -t);
        r = e > 0 ? ceil(t) : e < 0 ? floor(t) : nearbyint(t);
    }
    r /= scale;
    if (r == 0)
        r = 0; /* no "-0" */
    return r;
}

cJSON *ecf_render_json_add_num(cJSON *obj, const char *key, double v, int decimals)
{
    return cJSON_AddNumberToObject(obj, key, ecf_render_json_round(v, decimals));
}

cJSON *ecf_render_json_catalog_meta(const ecf_catalog *cat, const char *label,
                                    long now)
{
    cJSON *o = cJSON_CreateObject();
    long age = ecf_catalog_age_days(cat, now);
    cJSON_AddStringToObject(o, "source", label);
    cJSON_AddStringToObject(o, "as_of", ecf_catalog_as_of(cat));
    if (age >= 0)
        cJSON_AddNumberToObject(o, "age_days", (double)age);
    else
        cJSON_AddNullToObject(o, "age_days");
    cJSON_AddStringToObject(o, "generated_at", ecf_catalog_generated_at(cat));
    return o;
}

cJSON *ecf_render_json_accelerator(const ecf_instance *in)
{
    cJSON *a;
    if (!in->accel)
        return cJSON_CreateNull();
    a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "id", in->accel->id);
    cJSON_AddStringToObject(a, "model", in->accel->name);
    cJSON_AddStringToObject(a, "kind", ecf_accel_kind_name(in->accel->kind));
    cJSON_AddNumberToObject(a, "count", in->accel_count);
    ecf_render_json_add_num(a, "memory_gib", in->accel_memory_gib, 4);
    ecf_render_json_add_num(a, "total_memory_gib",
                     in->accel_memory_gib * in->accel_count, 4);
    ecf_render_json_add_num(a, "fraction", in->accel_fraction, 4);
    cJSON_AddStringToObject(a, "interconnect", ecf_link_name(in->link));
    ecf_render_json_add_num(a, "interconnect_gbytes_s", in->link_gbytes_s, 3);
    return a;
}

static void add_opt(cJSON *o, const char *key, double v, int decimals)
{
    if (v < 0)
        cJSON_AddNullToObject(o, key);
    else
        ecf_render_json_add_num(o, key, v, decimals);
}

void ecf_render_json_add_location(cJSON *o, const char *location)
{
    char parent[64];
    bool zone = ecf_region_parent(parent, sizeof(parent), location);
    cJSON_AddStringToObject(o, "region", parent);
    if (zone)
        cJSON_AddStringToObject(o, "zone_group", location);
}

cJSON *ecf_render_json_price(const ecf_price *p)
{
    cJSON *o = cJSON_CreateObject();
    ecf_render_json_add_num(o, "ondemand_usd_per_hour", p->ondemand_usd_per_hour, 6);
    add_opt(o, "reserved_1y_usd_per_hour", p->reserved_1y_usd_per_hour, 6);
    add_opt(o, "spot_usd_per_hour", p->spot_usd_per_hour, 6);
    cJSON_AddBoolToObject(o, "spot_estimated", p->spot_usd_per_hour >= 0);
    if (p->spot_usd_per_hour >= 0)
        cJSON_AddNumberToObject(o, "spot_savings_pct", p->spot_savings_pct);
    else
        cJSON_AddNullToObject(o, "spot_savings_pct");
    if (p->interruption_band >= 0)
        cJSON_AddNumberToObject(o, "interruption_band", p->interruption_band);
    else
        cJSON_AddNullToObject(o, "interruption_band");
    /* only where AWS publishes a Capacity Blocks for ML rate (additive) */
    if (p->capacity_block_usd_per_hour > 0)
        ecf_render_json_add_num(o, "capacity_block_usd_per_hour",
                                p->capacity_block_usd_per_hour, 6);
    /* only where a Savings Plan rate is published (additive) */
    if (p->savings_plan_1y_usd_per_hour > 0)
        ecf_render_json_add_num(o, "savings_plan_1y_usd_per_hour",
                                p->savings_plan_1y_usd_per_hour, 6);
    if (p->savings_plan_3y_usd_per_hour > 0)
        ecf_render_json_add_num(o, "savings_plan_3y_usd_per_hour",
                                p->savings_plan_3y_usd_per_hour, 6);
    return o;
}

cJSON *ecf_render_json_instance(const ecf_instance *in)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "instance_type", in->type);
    cJSON_AddStringToObject(o, "family", in->family);
    cJSON_AddNumberToObject(o, "vcpu", in->vcpu);
    ecf_render_json_add_num(o, "memory_gib", in->memory_gib, 4);
    cJSON_AddStringToObject(o, "arch", ecf_arch_name(in->arch));
    cJSON_AddItemToObject(o, "accelerator", ecf_render_json_accelerator(in));
    ecf_render_json_add_num(o, "network_gbps", in->network_gbps, 3);
    cJSON_AddBoolToObject(o, "efa", in->efa);
    ecf_render_json_add_num(o, "efa_gbps", in->efa_gbps, 3);
    ecf_render_json_add_num(o, "ebs_gbps", in->ebs_gbps, 3);
    ecf_render_json_add_num(o, "nvme_gb", in->nvme_gb, 1);
    return o;
}

void ecf_render_json_print(FILE *f, cJSON *root)
{
    /* cJSON indents with tabs and writes ":\t"; strings escape their own
     * tabs, so every raw tab is formatting: render jq-style (2 spaces). */
    char *s = cJSON_Print(root);
    if (s) {
        const char *p;
        for (p = s; *p; p++) {
            if (*p != '\t')
                fputc(*p, f);
            else if (p > s && p[-1] == ':')
                fputc(' ', f);
            else
                fputs("  ", f);
        }
        fputc('\n', f);
        cJSON_free(s);
    }
    cJSON_Delete(root);
}

void ecf_render_accel_label(char *buf, size_t n, const ecf_instance *in)
{
    /* The datasheet name up to any parenthesis ("Trainium (NeuronCore-v2
     * x2)" -> "Trainium"): `show` prints the full name. */
    const char *name = in->accel ? in->accel->name : "";
    const char *paren = strstr(name, " (");
    int len = paren ? (int)(paren - name) : (int)strlen(name);
    if (!in->accel)
        snprintf(buf, n, "-");
    else if (in->accel_fraction < 1)
        snprintf(buf, n, "%gx %.*s (1/%g)", (double)in->accel_count, len,
                 name, round(1 / in->accel_fraction));
    else
        snprintf(buf, n, "%dx %.*s", in->accel_count, len, name);
    if (ecf_textsafe_needed(buf)) {
        char *safe = ecf_textsafe_dup(buf);
        ecf_textsafe(buf, n, safe); /* already safe: copies and cuts */
        free(safe);
    }
}

void ecf_render_csv_field(FILE *f, const char *s, int last)
{
    /* CSV goes to terminals too: control characters are escaped like
     * everywhere else (ecf_textsafe), so a field never holds ESC or a
     * line break. */
    char *safe = NULL;
    if (ecf_textsafe_needed(s))
        s = safe = ecf_textsafe_dup(s);
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    free(safe);
    fputc(last ? '\n' : ',', f);
}
