/*
 * render_json.c - the recommendation as JSON (--output json, each --batch
 * line, and the library's ECF_RENDER_JSON). The schema is documented field
 * by field in docs/output-schema.md and docs/schema/recommend.schema.json;
 * change them together.
 */
#include "recommend_render.h"

#include "ec2fit/region_name.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "recommend_render_internal.h"
#include "ec2fit/textsafe.h"
#include "render_explain.h"
#include "ec2fit/light.h"

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

/* "region" is always a region (the provider's argument); a Local Zone or
 * Wavelength location adds its "zone_group" (docs/output-schema.md). */
static void add_location(cJSON *o, const char *location)
{
    char parent[64];
    bool zone = ecf_region_parent(parent, sizeof(parent), location);
    cJSON_AddStringToObject(o, "region", parent);
    if (zone)
        cJSON_AddStringToObject(o, "zone_group", location);
}

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
    add_opt_num(o, "ttft_ms", w->ttft_target_ms, 3);
    add_opt_num(o, "tpot_ms", w->tpot_target_ms, 3);
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
    cJSON_AddStringToObject(o, "storage",
                            ecf_storage_name((ecf_storage)w->storage));
    add_opt_num(o, "storage_throughput_mbytes_s", w->storage_mbytes_s, 3);
    cJSON_AddBoolToObject(o, "estimate_missing_prices",
                          v->opts->estimate_missing_prices);
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
    add_location(o, p->region);
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
    cli_json_add_num(o, "startup_s", p->startup_s, 1);
    {
        const char *cap = ecf_estimate_capacity_note(p->inst);
        if (cap)
            cJSON_AddStringToObject(o, "capacity", cap);
        else
            cJSON_AddNullToObject(o, "capacity");
    }
    cli_json_add_num(o, "hourly_usd", p->hourly_usd, 6);
    add_opt_num(o, "total_usd", p->total_usd, 2);
    add_opt_num(o, "monthly_usd", p->monthly_usd, 2);
    add_opt_num(o, "usd_per_million", p->usd_per_million, 6);
    cJSON_AddStringToObject(o, "per_million_unit", r->per_million_unit);
    cJSON_AddBoolToObject(o, "price_estimated", p->price_estimated);
    if (!r->serving) {
        cJSON *st = cJSON_AddObjectToObject(o, "storage");
        cJSON *cb = cJSON_AddObjectToObject(o, "cost_breakdown");
        cJSON_AddStringToObject(st, "kind",
                                ecf_storage_name((ecf_storage)p->storage));
        cli_json_add_num(st, "monthly_usd", p->storage_monthly_usd, 2);
        cJSON_AddBoolToObject(st, "price_estimated",
                              p->storage_price_estimated);
        if (p->total_usd > 0) {
            cli_json_add_num(cb, "instances_usd",
                             p->total_usd - p->storage_usd, 2);
            cli_json_add_num(cb, "storage_usd", p->storage_usd, 2);
        } else {
            cJSON_AddNullToObject(cb, "instances_usd");
            cJSON_AddNullToObject(cb, "storage_usd");
        }
    }
    thr = cJSON_AddObjectToObject(o, "throughput");
    cli_json_add_num(thr, "value", p->throughput, 3);
    cJSON_AddStringToObject(thr, "unit",
                            p->throughput_unit ? p->throughput_unit : "");
    if (r->serving) {
        cli_json_add_num(o, "latency_ms", p->latency_ms, 3);
        add_opt_num(o, "ttft_ms", p->ttft_ms, 3);
        add_opt_num(o, "per_token_ms", p->per_token_ms, 3);
        cli_json_add_num(o, "capacity_qps", p->capacity_qps, 3);
        rr_json_fleet_plan(o, p);
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
        rr_json_spot_risk(o, v, p); /* render_fleet.c */
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
                         NULL) == 0) {
        for (k = 0; k < e.n_warnings; k++) {
            cJSON *h = cJSON_CreateObject();
            cJSON_AddStringToObject(h, "rule", "estimate");
            cJSON_AddStringToObject(h, "reason", e.warnings[k]);
            cJSON_AddItemToArray(warn, h);
        }
    }
    /* --explain: rank 1's plans tried or serving terms, from the workload
     * the plans were scored with (it carries the rules' headroom) */
    if (v->explain && rank == 1 &&
        ecf_estimate_run(&e, v->model, &r->workload, p->inst,
                         p->nodes_per_group, NULL) == 0)
        rr_json_explain(o, &e);
    return o;
}

static cJSON *json_rejection(const ecf_recommendation *r,
                             const ecf_rejection *x)
{
    cJSON *o = cJSON_CreateObject();
    char reason[ECF_RULE_MSG_LEN];
    ecf_recommend_rejection_reason(reason, sizeof(reason), r, x);
    cJSON_AddStringToObject(o, "instance_type", x->inst->type);
    add_location(o, x->region);
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
    {
        cJSON *notes = cJSON_AddArrayToObject(root, "notes");
        char buf[1024];
        for (i = 0; i < r->n_missing; i++) {
            ecf_recommend_missing_note(buf, sizeof(buf), r, i);
            if (buf[0])
                cJSON_AddItemToArray(notes, cJSON_CreateString(buf));
        }
        notes = cJSON_AddArrayToObject(root, "missing_prices");
        for (i = 0; i < r->n_missing; i++) {
            cJSON *m = cJSON_CreateObject(), *fam;
            size_t k;
            cJSON_AddStringToObject(m, "region", r->missing[i].region);
            fam = cJSON_AddArrayToObject(m, "families");
            for (k = 0; k < r->missing[i].n_families; k++)
                cJSON_AddItemToArray(
                    fam, cJSON_CreateString(r->missing[i].families[k]));
            if (r->missing[i].ratio > 0)
                cli_json_add_num(m, "median_ratio", r->missing[i].ratio, 4);
            else
                cJSON_AddNullToObject(m, "median_ratio");
            cJSON_AddNumberToObject(m, "ratio_families",
                                    (double)r->missing[i].n_ratio_families);
            cJSON_AddBoolToObject(m, "estimated", r->missing[i].estimated);
            {
                char fix[96];
                snprintf(fix, sizeof(fix), "ec2fit update --regions %s",
                         r->missing[i].region);
                cJSON_AddStringToObject(m, "fix", fix);
            }
            cJSON_AddItemToArray(notes, m);
        }
    }
    arr = cJSON_AddArrayToObject(root, "recommendations");
    for (i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, json_plan(v, &r->plans[i], i + 1));
    if (r->serving && r->n_plans > 0) {
        cJSON *a = cJSON_AddObjectToObject(root, "autoscaling");
        cJSON_AddNumberToObject(a, "min_instances", r->asg_min);
        cJSON_AddNumberToObject(a, "max_instances", r->asg_max);
        cli_json_add_num(a, "target_qps_per_instance",
                         r->asg_target_qps_per_instance, 3);
        rr_json_fleet_summary(a, v);
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
                cJSON_AddBoolToObject(a, "price_estimated",
                                      o->price_estimated);
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
