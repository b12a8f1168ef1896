/*
 * render_json.c - the recommendation as JSON (--output json, each --batch
 * line, and the library's ECF_RENDER_JSON). The schema is documented field
 * by field in docs/output-schema.md and docs/schema/recommend.schema.json;
 * change them together. Written once for two sinks: a cJSON tree
 * (ecf_rr_json: --output json, the library) and the compact text of a --batch
 * line (ecf_rr_json_text, through ecf_jw: no tree, same bytes).
 */
#include "recommend_render.h"

#include "ec2fit/json_write.h"
#include "ec2fit/region_name.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "render_report.h"
#include "recommend_render_internal.h"
#include "render_deploy.h"
#include "render_sink.h"
#include "ec2fit/textsafe.h"
#include "render_explain.h"
#include "ec2fit/light.h"
#include "ec2fit/satconv.h"

/* The shared cJSON helpers (render_fleet.c, render_train_plans.c) add
 * members to an object: the tree sink gives its own, the text sink a
 * scratch object whose members rj_merge then writes and frees. */
static cJSON *rj_scratch(rj *j)
{
    return j->w ? cJSON_CreateObject() : j->o;
}

static void rj_merge(rj *j, cJSON *scratch)
{
    const cJSON *c;
    if (!j->w)
        return;
    for (c = scratch->child; c; c = c->next) {
        ecf_jw_key(j->w, c->string);
        ecf_jw_value(j->w, c);
    }
    cJSON_Delete(scratch);
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */
/* ------------------------------------------------------------------ */

/* "region" is always a region (the provider's argument); a Local Zone or
 * Wavelength location adds its "zone_group" (docs/output-schema.md). */
static void add_location(rj *o, const char *location)
{
    char parent[64];
    bool zone = ecf_region_parent(parent, sizeof(parent), location);
    rj_str(o, "region", parent);
    if (zone)
        rj_str(o, "zone_group", location);
}

static void add_opt_num(rj *o, const char *key, double v, int decimals)
{
    if (v > 0)
        rj_numr(o, key, v, decimals);
    else
        rj_null(o, key);
}

static void json_workload(rj *o, const rr_view *v)
{
    const ecf_workload *w = v->w;
    rj regions;
    size_t i;
    rj_str(o, "model", v->model->name);
    rj_str(o, "model_kind", ecf_model_kind_name(v->model->kind));
    rj_num(o, "params", v->model->params);
    rj_str(o, "task", ecf_task_name(w->task));
    rj_str(o, "precision",
           ecf_precision_name((ecf_precision)(w->precision >= 0
                                                  ? w->precision
                                                  : ECF_PREC_BF16)));
    rj_num(o, "batch_size", w->batch_size);
    if (w->seq_len > 0)
        rj_num(o, "seq_len", w->seq_len);
    else
        rj_null(o, "seq_len");
    if (w->task == ECF_TASK_INFER && ecf_model_kind_is_llm(v->model->kind)) {
        rj_num(o, "input_tokens", w->input_tokens);
        rj_num(o, "output_tokens", w->output_tokens);
    }
    add_opt_num(o, "dataset_samples", w->dataset_samples, 0);
    rj_numr(o, "epochs", w->epochs > 0 ? w->epochs : 1, 4);
    add_opt_num(o, "qps", w->qps, 4);
    add_opt_num(o, "peak_qps", v->opts->peak_qps, 4);
    add_opt_num(o, "latency_ms", w->latency_target_ms, 3);
    add_opt_num(o, "ttft_ms", w->ttft_target_ms, 3);
    add_opt_num(o, "tpot_ms", w->tpot_target_ms, 3);
    {
        double slo_ttft, slo_tpot;
        if (ecf_estimate_service_level(&slo_ttft, &slo_tpot, v->model, w)) {
            rj sl = rj_open(o, "service_level", '{');
            rj_numr(&sl, "ttft_ms", slo_ttft, 3);
            rj_numr(&sl, "tpot_ms", slo_tpot, 3);
            rj_close(&sl, '}');
        } else {
            rj_null(o, "service_level");
        }
    }
    add_opt_num(o, "deadline_hours", v->opts->deadline_hours, 4);
    add_opt_num(o, "budget_usd", v->opts->budget_usd, 2);
    add_opt_num(o, "budget_hourly_usd", v->opts->budget_hourly_usd, 4);
    regions = rj_open(o, "regions", '[');
    for (i = 0; i < v->opts->n_regions; i++)
        rj_str(&regions, NULL, v->opts->regions[i]);
    rj_close(&regions, ']');
    rj_bool(o, "spot_considered", v->rec->spot_considered);
    rj_num(o, "max_nodes", v->rec->max_nodes);
    rj_str(o, "optimize", ecf_optimize_name(v->opts->optimize));
    rj_str(o, "storage", ecf_storage_name((ecf_storage)w->storage));
    add_opt_num(o, "storage_throughput_mbytes_s", w->storage_mbytes_s, 3);
    rj_bool(o, "estimate_missing_prices", v->opts->estimate_missing_prices);
}

static void json_plan(rj *o, const rr_view *v, const ecf_plan *p,
                      size_t rank)
{
    const ecf_recommendation *r = v->rec;
    rj acc, mem, thr, warn, marks;
    ecf_estimate e;
    int k;
    bool meets_load = ecf_rr_capacity_meets_load(v->w, p, r->serving);

    rj_num(o, "rank", (double)rank);
    rj_str(o, "instance_type", p->inst->type);
    rj_str(o, "family", p->inst->family);
    rj_num(o, "nodes", p->nodes);
    rj_num(o, "nodes_per_replica", p->nodes_per_group);
    rj_str(o, "purchase", purchase(p));
    add_location(o, p->region);
    if (p->inst->accel) {
        acc = rj_open(o, "accelerator", '{');
        rj_str(&acc, "model", p->inst->accel->name);
        rj_str(&acc, "id", p->inst->accel->id);
        rj_num(&acc, "count", p->inst->accel_count);
        rj_numr(&acc, "memory_gib", p->inst->accel_memory_gib, 4);
        rj_num(&acc, "used_per_node", p->devices_per_node);
        rj_close(&acc, '}');
    } else {
        rj_null(o, "accelerator");
    }
    rj_str(o, "parallelism", ecf_parallelism_name(p->parallelism));
    {
        /* The AMI family for the plan's stack, as its public SSM
         * parameter (docs/deploy.md#images); null for an accelerator
         * ec2fit has no image for (AMD, Gaudi, Qualcomm). */
        const ecf_image *im =
            ecf_images_for(v->images, ECF_IMAGE_USE_INSTANCE, p->inst);
        if (im) {
            rj img = rj_open(o, "image", '{'), fams;
            size_t fk;
            rj_str(&img, "family", im->family);
            rj_str(&img, "ssm_parameter", im->ssm_parameter);
            /* the image's published support matrix (data/images.json),
             * ["*"] when none narrower was published */
            fams = rj_open(&img, "supported_families", '[');
            for (fk = 0; fk < im->n_families; fk++)
                rj_str(&fams, NULL, im->families[fk]);
            rj_close(&fams, ']');
            if (im->note[0])
                rj_str(&img, "note", im->note);
            else
                rj_null(&img, "note");
            rj_close(&img, '}');
        } else {
            rj_null(o, "image");
        }
    }
    {
        /* placement, as tfvars and tf-external (render_deploy.c) */
        rd_placement place;
        rj pl;
        ecf_deploy_placement_init(&place, v, p);
        pl = rj_open(o, "placement", '{');
        if (place.efa_interfaces > 0)
            rj_num(&pl, "efa_interfaces", place.efa_interfaces);
        else
            rj_null(&pl, "efa_interfaces");
        if (place.cluster_placement)
            rj_str(&pl, "placement_group_strategy", "cluster");
        else
            rj_null(&pl, "placement_group_strategy");
        rj_bool(&pl, "single_availability_zone", place.single_az);
        if (place.zone[0])
            rj_str(&pl, "availability_zone", place.zone);
        else
            rj_null(&pl, "availability_zone");
        rj_close(&pl, '}');
    }
    mem = rj_open(o, "memory", '{');
    rj_numr(&mem, "required_per_device_gib", p->required_per_device_gib, 3);
    rj_numr(&mem, "available_per_device_gib", p->available_per_device_gib,
            3);
    rj_numr(&mem, "headroom_pct", p->headroom * 100, 1);
    /* as estimate's memory.kv_capacity_tokens: what a fleet is sized by */
    if (!ecf_task_is_training(r->workload.task) &&
        ecf_model_kind_is_llm(v->model->kind))
        rj_num(&mem, "kv_capacity_tokens",
               (double)ecf_sat_ll(p->kv_capacity_tokens));
    else
        rj_null(&mem, "kv_capacity_tokens");
    rj_close(&mem, '}');
    add_opt_num(o, "time_hours", p->time_hours, 4);
    rj_numr(o, "startup_s", p->startup_s, 1);
    if (p->compile_s > 0) /* Neuron training; additive, optional */
        rj_numr(o, "compile_s", p->compile_s, 1);
    {
        const char *cap = ecf_estimate_capacity_note(p->inst);
        if (cap)
            rj_str(o, "capacity", cap);
        else
            rj_null(o, "capacity");
    }
    if (p->burst_baseline > 0) {
        /* docs/estimation.md "Burstable CPUs"; additive, optional */
        rj bu = rj_open(o, "burstable", '{');
        rj_str(&bu, "credit_mode", p->burst_unlimited ? "unlimited"
                                                      : "standard");
        rj_numr(&bu, "baseline_pct_per_vcpu", p->burst_baseline * 100, 3);
        rj_numr(&bu, "load_pct_per_vcpu", p->burst_load * 100, 1);
        rj_numr(&bu, "surcharge_usd_per_hour",
                p->burst_surcharge_usd_per_hour, 6);
        rj_close(&bu, '}');
    }
    rj_numr(o, "hourly_usd", p->hourly_usd, 6);
    if (!p->spot && p->purchase_option == ECF_PURCHASE_CAPACITY_BLOCK &&
        p->cb_days > 0) {
        /* the reserved window (docs/output-schema.md): total_usd is its
         * cost, plus storage */
        rj cbw = rj_open(o, "capacity_block", '{');
        rj_num(&cbw, "days", p->cb_days);
        rj_num(&cbw, "instances", p->nodes);
        rj_num(&cbw, "blocks", p->cb_blocks);
        rj_numr(&cbw, "usd_per_hour", p->usd_per_hour_instance, 6);
        rj_numr(&cbw, "window_usd",
                p->usd_per_hour_instance * p->nodes * 24.0 * p->cb_days, 2);
        rj_close(&cbw, '}');
    }
    add_opt_num(o, "total_usd", p->total_usd, 2);
    add_opt_num(o, "monthly_usd", p->monthly_usd, 2);
    add_opt_num(o, "usd_per_million", p->usd_per_million, 6);
    rj_str(o, "per_million_unit", r->per_million_unit);
    rj_bool(o, "price_estimated", p->price_estimated);
    if (!r->serving) {
        rj st = rj_open(o, "storage", '{');
        rj cb;
        rj_str(&st, "kind", ecf_storage_name((ecf_storage)p->storage));
        rj_numr(&st, "monthly_usd", p->storage_monthly_usd, 2);
        rj_bool(&st, "price_estimated", p->storage_price_estimated);
        rj_close(&st, '}');
        cb = rj_open(o, "cost_breakdown", '{');
        if (p->total_usd > 0) {
            rj_numr(&cb, "instances_usd", p->total_usd - p->storage_usd, 2);
            rj_numr(&cb, "storage_usd", p->storage_usd, 2);
        } else {
            rj_null(&cb, "instances_usd");
            rj_null(&cb, "storage_usd");
        }
        rj_close(&cb, '}');
    }
    thr = rj_open(o, "throughput", '{');
    rj_numr(&thr, "value", p->throughput, 3);
    rj_str(&thr, "unit", p->throughput_unit ? p->throughput_unit : "");
    rj_close(&thr, '}');
    if (r->serving) {
        rj_numr(o, "latency_ms", p->latency_ms, 3);
        add_opt_num(o, "ttft_ms", p->ttft_ms, 3);
        add_opt_num(o, "per_token_ms", p->per_token_ms, 3);
        rj_numr(o, "capacity_qps", p->capacity_qps, 3);
        ecf_rr_json_fleet_plan(o, p);
    }
    {
        /* docs/estimation.md "Ranges": beside the figures above */
        ecf_ranges rg;
        ecf_rr_plan_ranges(&rg, v, p);
        ecf_rr_json_ranges(o, &rg);
    }
    rj_str(o, "bottleneck", ecf_bottleneck_name(p->bottleneck));
    if (p->spot) {
        if (p->interruption_band >= 0)
            rj_num(o, "interruption_band", p->interruption_band);
        else
            rj_null(o, "interruption_band");
        rj_numr(o, "expected_interruptions", p->expected_interruptions, 3);
        ecf_rr_json_spot_risk(o, v, p); /* render_fleet.c */
        /* Spot Advisor's integer figure, as in list/show (schema 2); the
         * plan's own saving, rework included, is plan_savings_pct. */
        const ecf_price *pr = ecf_instance_price(p->inst, p->region);
        if (pr && pr->spot_usd_per_hour >= 0)
            rj_num(o, "spot_savings_pct", pr->spot_savings_pct);
        else
            rj_null(o, "spot_savings_pct");
        rj_numr(o, "plan_savings_pct", p->spot_savings_pct, 1);
    }
    rj_numr(o, "score", p->score, 6);
    marks = rj_open(o, "marks", '[');
    if (p->marks & ECF_MARK_CHEAPEST)
        rj_str(&marks, NULL, "cheapest");
    if (p->marks & ECF_MARK_FASTEST)
        rj_str(&marks, NULL, "fastest");
    if (p->marks & ECF_MARK_BEST_VALUE)
        rj_str(&marks, NULL, "best-value");
    rj_close(&marks, ']');
    warn = rj_open(o, "warnings", '[');
    {
        ecf_rule_hit hits[ECF_PLAN_MAX_PENALTIES];
        int nh = ecf_recommend_plan_penalties(hits, ECF_PLAN_MAX_PENALTIES,
                                              r, p);
        for (k = 0; k < nh; k++) {
            rj h = rj_open(&warn, NULL, '{');
            rj_str(&h, "rule", ecf_rule_name(hits[k].id));
            rj_str(&h, "reason", hits[k].reason);
            rj_close(&h, '}');
        }
    }
    /* the estimator's own warnings for this plan (re-run: plans keep no
     * estimate to stay small; a batch keeps them per model and workload) */
    if (ecf_recommend_memo_warnings(v->memo, &e, v->model, v->w, p->inst,
                                    p->nodes_per_group) == 0) {
        for (k = 0; k < e.n_warnings; k++) {
            rj h;
            /* the estimator times one replica: its "below --qps" is no
             * warning for a fleet whose replicas meet the load (a note
             * says so, below) */
            if (meets_load && strncmp(e.warnings[k], "sustains ", 9) == 0)
                continue;
            h = rj_open(&warn, NULL, '{');
            rj_str(&h, "rule", "estimate");
            rj_str(&h, "reason", e.warnings[k]);
            rj_close(&h, '}');
        }
    }
    rj_close(&warn, ']');
    if (meets_load) {
        rj nt = rj_open(o, "notes", '[');
        char buf[256];
        ecf_rr_capacity_note(buf, sizeof(buf), v->w, p);
        rj_str(&nt, NULL, buf);
        rj_close(&nt, ']');
    } else {
        char buf[320];
        ecf_rr_cb_note(buf, sizeof(buf), p);
        if (buf[0]) {
            rj nt = rj_open(o, "notes", '[');
            rj_str(&nt, NULL, buf);
            rj_close(&nt, ']');
        }
    }
    /* --explain: rank 1's plans tried or serving terms, from the workload
     * the plans were scored with (it carries the rules' headroom) */
    if (v->explain && rank == 1 &&
        ecf_estimate_run(&e, v->model, &r->workload, p->inst,
                         p->nodes_per_group, NULL) == 0) {
        cJSON *t = rj_scratch(o);
        ecf_rr_json_explain(t, &e);
        rj_merge(o, t);
    }
}

static void json_rejection(rj *o, const ecf_recommendation *r,
                           const ecf_rejection *x)
{
    char reason[ECF_RULE_MSG_LEN];
    ecf_recommend_rejection_reason(reason, sizeof(reason), r, x);
    rj_str(o, "instance_type", x->inst->type);
    add_location(o, x->region);
    rj_str(o, "purchase", x->spot ? "spot" : "on-demand");
    rj_str(o, "rule", ecf_rule_name(x->rule));
    rj_str(o, "reason", reason);
}

void ecf_rr_print_json(FILE *f, const rr_view *v)
{
    ecf_render_json_print(f, ecf_rr_json(v));
}

/* The document's members, into an open object. */
static void json_root(rj *root, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    rj arr, sum, obj;
    size_t i, n = shown(v);

    rj_num(root, "schema_version", RR_SCHEMA_VERSION);
    obj = rj_open(root, "catalog", '{'); /* ecf_render_json_catalog_meta */
    rj_str(&obj, "source", v->catalog_label);
    rj_str(&obj, "as_of", ecf_catalog_as_of(v->cat));
    {
        long age = ecf_catalog_age_days(v->cat, v->now);
        if (age >= 0)
            rj_num(&obj, "age_days", (double)age);
        else
            rj_null(&obj, "age_days");
    }
    rj_str(&obj, "generated_at", ecf_catalog_generated_at(v->cat));
    rj_close(&obj, '}');
    rj_str(root, "rules", v->rules->source);
    obj = rj_open(root, "workload", '{');
    json_workload(&obj, v);
    rj_close(&obj, '}');
    rj_str(root, "cost_basis", cost_basis_name(r->basis));
    {
        rj notes = rj_open(root, "notes", '[');
        char buf[1024];
        for (i = 0; i < r->n_missing; i++) {
            ecf_recommend_missing_note(buf, sizeof(buf), r, i);
            if (buf[0])
                rj_str(&notes, NULL, buf);
        }
        rj_close(&notes, ']');
        notes = rj_open(root, "missing_prices", '[');
        for (i = 0; i < r->n_missing; i++) {
            rj m = rj_open(&notes, NULL, '{'), fam;
            size_t k;
            add_location(&m, r->missing[i].region);
            fam = rj_open(&m, "families", '[');
            for (k = 0; k < r->missing[i].n_families; k++)
                rj_str(&fam, NULL, r->missing[i].families[k]);
            rj_close(&fam, ']');
            if (r->missing[i].ratio > 0)
                rj_numr(&m, "median_ratio", r->missing[i].ratio, 4);
            else
                rj_null(&m, "median_ratio");
            rj_num(&m, "ratio_families",
                   (double)r->missing[i].n_ratio_families);
            rj_bool(&m, "estimated", r->missing[i].estimated);
            {
                char fix[96];
                snprintf(fix, sizeof(fix), "ec2fit update --regions %s",
                         r->missing[i].region);
                rj_str(&m, "fix", fix);
            }
            rj_close(&m, '}');
        }
        rj_close(&notes, ']');
    }
    arr = rj_open(root, "recommendations", '[');
    for (i = 0; i < n; i++) {
        rj pl = rj_open(&arr, NULL, '{');
        json_plan(&pl, v, &r->plans[i], i + 1);
        rj_close(&pl, '}');
    }
    rj_close(&arr, ']');
    if (r->serving && r->n_plans > 0) {
        rj a = rj_open(root, "autoscaling", '{');
        cJSON *t;
        rj_num(&a, "min_instances", r->asg_min);
        rj_num(&a, "max_instances", r->asg_max);
        rj_numr(&a, "target_qps_per_instance",
                r->asg_target_qps_per_instance, 3);
        t = rj_scratch(&a);
        ecf_rr_json_fleet_summary(t, v);
        rj_merge(&a, t);
        rj_close(&a, '}');
    }
    if (v->w->task == ECF_TASK_INFER) {
        rj alt = rj_open(root, "alternatives", '[');
        for (i = 0; i < v->n_light; i++) {
            const ecf_light_option *o = &v->light[i];
            rj a = rj_open(&alt, NULL, '{');
            rj_str(&a, "kind", o->kind);
            rj_str(&a, "name", o->name);
            rj_bool(&a, "feasible", o->feasible);
            if (o->feasible) {
                rj_numr(&a, "memory_gib", o->memory_gib, 3);
                rj_numr(&a, "vcpus", o->vcpus, 3);
                rj_numr(&a, "latency_ms", o->latency_ms, 3);
                rj_num(&a, "instances", o->instances);
                rj_numr(&a, "monthly_usd", o->monthly_usd, 2);
                rj_numr(&a, "usd_per_million", o->usd_per_million, 6);
                rj_bool(&a, "cheaper_than_rank_1", o->cheaper);
                rj_bool(&a, "price_estimated", o->price_estimated);
            } else {
                rj_str(&a, "reason", o->reason);
            }
            rj_close(&a, '}');
        }
        rj_close(&alt, ']');
    }
    sum = rj_open(root, "summary", '{');
    rj_num(&sum, "candidates", (double)r->n_candidates);
    rj_num(&sum, "plans", (double)r->n_plans);
    rj_num(&sum, "rejected", (double)r->n_rejected);
    {
        /* additive (issue 26): the capacity-block plans among `plans`,
         * only when there are some (the counts line names them) */
        size_t ip, n_cb = 0;
        for (ip = 0; ip < r->n_plans; ip++)
            n_cb += r->plans[ip].purchase_option ==
                    ECF_PURCHASE_CAPACITY_BLOCK;
        if (n_cb)
            rj_num(&sum, "capacity_block_plans", (double)n_cb);
    }
    rj_close(&sum, '}');
    if (r->n_plans == 0) {
        const ecf_rejection *cl[MAX_CLOSEST];
        size_t k, m = closest(cl, MAX_CLOSEST, r);
        rj c = rj_open(root, "closest_misses", '[');
        for (k = 0; k < m; k++) {
            rj x = rj_open(&c, NULL, '{');
            json_rejection(&x, r, cl[k]);
            rj_close(&x, '}');
        }
        rj_close(&c, ']');
    }
    if (v->explain) {
        rj rej = rj_open(root, "rejected", '[');
        for (i = 0; i < r->n_rejected; i++) {
            rj x = rj_open(&rej, NULL, '{');
            json_rejection(&x, r, &r->rejected[i]);
            rj_close(&x, '}');
        }
        rj_close(&rej, ']');
    }
}

cJSON *ecf_rr_json(const rr_view *v)
{
    rj root = {cJSON_CreateObject(), NULL};
    json_root(&root, v);
    return root.o;
}

char *ecf_rr_json_text(const rr_view *v)
{
    ecf_jw w;
    rj root = {NULL, &w};
    ecf_jw_init(&w);
    ecf_jw_begin(&w, '{');
    json_root(&root, v);
    ecf_jw_end(&w, '}');
    return ecf_jw_finish(&w);
}
