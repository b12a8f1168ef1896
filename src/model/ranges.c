/*
 * ranges.c - a likely range around each point figure: the figure times
 * the calibration factors (measured / predicted) of the nearest workload
 * class that has enough rows, falling back from family x task x
 * generation x engine to coarser classes and to the whole kind
 * (docs/estimation.md, "Ranges"). The table is data the build computes
 * (tools/calib_ranges.c); this file only looks it up. Pure.
 */
#include "ec2fit/ranges.h"

#include <stdio.h>
#include <string.h>

#include "ec2fit/fleet.h"
#include "ec2fit/stacks.h"
#include "ec2fit/task.h"

#include "recommend_internal.h" /* HOURS_PER_MONTH */
#include "serve_engines.h"

static const char *const kind_names[ECF_RANGE_KIND_COUNT] = {
    "train_throughput", "time_to_train", "infer_throughput", "infer_latency",
    "memory"};

const char *ecf_range_kind_name(ecf_range_kind k)
{
    return (unsigned)k < ECF_RANGE_KIND_COUNT ? kind_names[k] : "?";
}

void ecf_range_key_of(ecf_range_key *out, const ecf_model *m,
                      const ecf_workload *w, const ecf_instance *inst)
{
    const ecf_accel *a = inst ? inst->accel : NULL;
    bool neuron = a && (a->kind == ECF_ACCEL_NEURON ||
                        (a->generation && strstr(a->generation, "neuron")));

    out->family = ecf_model_kind_name(m->kind);
    /* QLoRA's few rows pool with LoRA's: the same frozen-base step */
    out->task = w->task == ECF_TASK_QLORA ? "lora" : ecf_task_name(w->task);
    out->generation = !a ? "cpu" : a->generation ? a->generation : "unknown";
    /* Serving: the engine the estimator itself picks for this device
     * (ecf_serve_engine_pick); training: the framework. */
    out->engine = ecf_task_is_training(w->task)
                      ? ecf_framework_name(w->framework)
                      : ecf_engine_name(ecf_serve_engine_pick(
                            m, w,
                            neuron ? SERVE_DEV_NEURON
                            : a && a->kind == ECF_ACCEL_GPU && a->vendor &&
                                    strcmp(a->vendor, "NVIDIA") == 0
                                ? SERVE_DEV_NVIDIA
                                : SERVE_DEV_OTHER));
}

static bool field_ok(const char *want, const char *have)
{
    return !want || (have && strcmp(want, have) == 0);
}

const ecf_range_class *ecf_range_lookup(const ecf_range_table *t,
                                        ecf_range_kind kind,
                                        const ecf_range_key *key)
{
    int level;
    size_t i;

    if (!t)
        return NULL;
    /* Tables hold a few hundred classes at most: a scan per level costs
     * less than formatting the figure it qualifies. */
    for (level = 0; level < ECF_RANGE_LEVEL_COUNT; level++)
        for (i = 0; i < t->n; i++) {
            const ecf_range_class *c = &t->classes[i];
            if (c->kind == kind && (int)c->level == level &&
                field_ok(c->family, key->family) &&
                field_ok(c->task, key->task) &&
                field_ok(c->generation, key->generation) &&
                field_ok(c->engine, key->engine))
                return c;
        }
    return NULL;
}

/* snprintf(buf, len, "%s/%s/%s/%s", ...) without the printf: every JSON
 * range names its class, and the format pass was 1.4% of a batch. The
 * same bytes, truncated the same way (at most len - 1 and a NUL). */
char *ecf_range_class_label(char *buf, size_t len, const ecf_range_class *c)
{
    const char *part[4];
    size_t o = 0, i, k;

    part[0] = c->family ? c->family : "*";
    part[1] = c->task ? c->task : "*";
    part[2] = c->generation ? c->generation : "*";
    part[3] = c->engine ? c->engine : "*";
    if (len == 0)
        return buf;
    for (i = 0; i < 4; i++) {
        if (i > 0 && o + 1 < len)
            buf[o++] = '/';
        for (k = 0; part[i][k] && o + 1 < len; k++)
            buf[o++] = part[i][k];
    }
    buf[o] = '\0';
    return buf;
}

/* A duration-like figure (time, latency, memory, cost): value x factors. */
static void scale(ecf_fig_range *r, const ecf_range_class *c, double v)
{
    memset(r, 0, sizeof(*r));
    if (!c || !(v > 0))
        return;
    r->set = true;
    r->value = v;
    r->low = v * c->low;
    r->high = v * c->high;
    r->basis = c;
}

/* A rate (throughput): a duration factor d means a rate of v / d. */
static void scale_rate(ecf_fig_range *r, const ecf_range_class *c, double v)
{
    memset(r, 0, sizeof(*r));
    if (!c || !(v > 0))
        return;
    r->set = true;
    r->value = v;
    r->low = v / c->high;
    r->high = v / c->low;
    r->basis = c;
}

/* The figures all plans and estimates share. */
static void common(ecf_ranges *out, const ecf_range_table *t,
                   const ecf_range_key *key, const ecf_workload *w,
                   bool serving, double throughput, double time_hours,
                   double memory_gib, double total_usd, double monthly_usd)
{
    bool train = ecf_task_is_training(w->task);
    const ecf_range_class *thr = ecf_range_lookup(
        t, train ? ECF_RANGE_TRAIN_THROUGHPUT : ECF_RANGE_INFER_THROUGHPUT,
        key);
    /* A training job's time is read from the time-to-train rows; an
     * offline batch job's is its dataset over the serving throughput, so
     * the same throughput rows bound it. */
    const ecf_range_class *tim =
        train ? ecf_range_lookup(t, ECF_RANGE_TIME_TO_TRAIN, key) : thr;

    memset(out, 0, sizeof(*out));
    scale_rate(&out->throughput, thr, throughput);
    scale(&out->memory_gib, ecf_range_lookup(t, ECF_RANGE_MEMORY, key),
          memory_gib);
    if (!serving) {
        scale(&out->time_hours, tim, time_hours);
        /* instances x hours (+ storage over the same hours) */
        scale(&out->total_usd, tim, total_usd);
    } else {
        /* a fleet is sized by the throughput one replica sustains: fewer
         * requests per instance, proportionally more instances */
        scale(&out->monthly_usd, thr, monthly_usd);
    }
}

/* The cost of a capacity-block plan whose job runs `hours`: the window
 * those hours need (whole days 1-14, then 7-day steps), plus the
 * dataset's storage over the same hours; 0 past the longest block. */
static double cb_cost_at(const ecf_plan *p, double hours)
{
    int days = ecf_capacity_block_window(NULL, hours, p->nodes);

    if (days <= 0)
        return 0;
    return p->hourly_usd * 24.0 * days + p->storage_usd +
           p->storage_monthly_usd * (hours - p->time_hours) / HOURS_PER_MONTH;
}

/* A Capacity Block is bought whole (docs/rules.md, "Capacity Blocks for
 * ML"): each bound of the cost range is the window its bound of the time
 * range needs, not the window's cost scaled by the time factors. A high
 * time past the longest block (ECF_CB_MAX_DAYS) has no one-block price:
 * the high bound is then the longest block's cost and high_past_block is
 * set, so the range reads "more than one block" rather than a price. */
static void cb_cost_range(ecf_fig_range *r, const ecf_fig_range *time,
                          const ecf_plan *p)
{
    double hi;

    if (!r->set || !time->set || p->cb_days <= 0)
        return;
    r->low = cb_cost_at(p, time->low);
    hi = cb_cost_at(p, time->high);
    if (hi <= 0) {
        hi = cb_cost_at(p, ECF_CB_MAX_DAYS * 24.0);
        r->high_past_block = true;
    }
    r->high = hi;
}

void ecf_ranges_for_plan(ecf_ranges *out, const ecf_range_table *t,
                         const ecf_model *m, const ecf_workload *w,
                         bool serving, const ecf_plan *p)
{
    ecf_range_key key;

    ecf_range_key_of(&key, m, w, p->inst);
    common(out, t, &key, w, serving, p->throughput, p->time_hours,
           p->required_per_device_gib, p->total_usd, p->monthly_usd);
    if (!serving)
        cb_cost_range(&out->total_usd, &out->time_hours, p);
    if (serving) {
        const ecf_range_class *lat =
            ecf_range_lookup(t, ECF_RANGE_INFER_LATENCY, &key);
        scale(&out->latency_ms, lat, p->latency_ms);
        scale(&out->ttft_ms, lat, p->ttft_ms);
        scale(&out->per_token_ms, lat, p->per_token_ms);
    }
}

void ecf_ranges_for_estimate(ecf_ranges *out, const ecf_range_table *t,
                             const ecf_model *m, const ecf_workload *w,
                             const ecf_instance *inst, const ecf_estimate *e,
                             double total_usd)
{
    ecf_range_key key;

    ecf_range_key_of(&key, m, w, inst);
    common(out, t, &key, w, false, e->throughput, e->time_hours,
           e->memory.total_per_device_gib, total_usd, 0);
    if (!ecf_task_is_training(w->task)) {
        const ecf_range_class *lat =
            ecf_range_lookup(t, ECF_RANGE_INFER_LATENCY, &key);
        scale(&out->latency_ms, lat, e->latency_ms);
        scale(&out->ttft_ms, lat, e->ttft_ms);
        scale(&out->per_token_ms, lat, e->per_token_ms);
    }
}
