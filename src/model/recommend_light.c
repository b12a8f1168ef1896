/*
 * recommend_light.c - the Lambda and Lightsail alternatives to a serving
 * recommendation: a CPU-only pseudo-instance the estimator runs on, the
 * monthly cost at the workload's request rate, and the comparison with the
 * best EC2 plan (docs/light.md). Pure: no I/O.
 */
#include "ec2fit/recommend.h"

#include <fnmatch.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h> /* snprintf only: the scorer does no I/O */
#include <stdlib.h>
#include <string.h>

#include "ec2fit/light.h"
#include "ec2fit/satconv.h"

#include "recommend_internal.h"

/* ------------------------------------------------------------------ */
/* Light alternatives                                                  */
/* ------------------------------------------------------------------ */


/* A CPU-only pseudo-instance the estimator can run on. */
static void synth_instance(ecf_instance *in, char *type, double vcpus,
                           double memory_gib)
{
    memset(in, 0, sizeof(*in));
    in->type = type;
    in->family = type;
    in->vcpu = vcpus < 1 ? 1 : (int)floor(vcpus + 1e-9);
    in->memory_gib = memory_gib;
    in->arch = ECF_ARCH_X86_64;
    in->accel_fraction = 1;
    in->network_gbps = 1;
}

static double requests_per_month(const ecf_workload *w)
{
    return (w->qps > 0 ? w->qps : 1) * 3600.0 * HOURS_PER_MONTH;
}

static double per_million(const ecf_model *m, const ecf_workload *w,
                          double monthly)
{
    double units = requests_per_month(w);
    if (ecf_model_kind_is_llm(m->kind))
        units *= w->output_tokens > 0 ? w->output_tokens : 1;
    return units > 0 ? monthly / units * 1e6 : 0;
}

/* The cheapest EC2 plan's monthly cost; INFINITY when there is none, and
 * then no alternative is "cheaper": an alternative is offered in place of
 * a plan, so without one there is nothing it is cheaper than (a CPU
 * Lightsail fleet for an LLM no EC2 type can serve is not an answer). */
static double best_ec2_monthly(const ecf_recommendation *rec)
{
    size_t i;
    double best = INFINITY;
    if (!rec)
        return best;
    for (i = 0; i < rec->n_plans; i++)
        if (rec->plans[i].monthly_usd > 0 && rec->plans[i].monthly_usd < best)
            best = rec->plans[i].monthly_usd;
    return best;
}

static void lambda_option(ecf_light_option *o, const ecf_lambda_pricing *p,
                          const ecf_model *m, const ecf_workload *w,
                          double ec2)
{
    /* Memory sizes at whole vCPU steps (1769 MB each) up to the maximum:
     * more memory buys proportionally more CPU, so these are the sizes
     * worth comparing. */
    double mb;
    bool found = false;
    char type[32] = "lambda";

    memset(o, 0, sizeof(*o));
    snprintf(o->kind, sizeof(o->kind), "lambda");
    snprintf(o->reason, sizeof(o->reason),
             "does not fit %d MB of Lambda memory", p->max_memory_mb);
    for (mb = p->mb_per_vcpu; mb <= p->max_memory_mb + p->mb_per_vcpu - 1;
         mb += p->mb_per_vcpu) {
        double mem = mb > p->max_memory_mb ? p->max_memory_mb : mb;
        ecf_instance in;
        ecf_estimate e;
        double secs, monthly;
        synth_instance(&in, type, ecf_lambda_vcpus(p, mem), mem / 1024.0);
        if (ecf_estimate_run_quiet(&e, m, w, &in, 1, NULL) != 0 || !e.fits ||
            e.host_ram_needed_gib > in.memory_gib)
            continue;
        secs = e.latency_ms / 1000.0;
        if (!ecf_lambda_fits(p, secs, mem)) {
            snprintf(o->reason, sizeof(o->reason),
                     "a request takes %.0f s at %.0f MB, over Lambda's %d s "
                     "limit",
                     secs, mem, p->max_timeout_s);
            continue;
        }
        if (w->latency_target_ms > 0 && e.latency_ms > w->latency_target_ms) {
            snprintf(o->reason, sizeof(o->reason),
                     "latency %.0f ms at %.0f MB, target %.0f ms",
                     e.latency_ms, mem, w->latency_target_ms);
            continue;
        }
        monthly = ecf_lambda_monthly_usd(p, requests_per_month(w), secs, mem,
                                         false, false);
        if (!found || monthly < o->monthly_usd) {
            found = true;
            o->feasible = true;
            o->reason[0] = '\0';
            snprintf(o->name, sizeof(o->name), "lambda-x86 %.0f MB", mem);
            o->memory_gib = mem / 1024.0;
            o->vcpus = ecf_lambda_vcpus(p, mem);
            o->latency_ms = e.latency_ms;
            o->capacity_qps = secs > 0 ? 1 / secs : 0;
            o->instances =
                ecf_sat_int(ceil((w->qps > 0 ? w->qps : 1) * secs - 1e-9));
            o->monthly_usd = monthly;
            o->usd_per_million = per_million(m, w, monthly);
        }
        if (mem >= p->max_memory_mb)
            break;
    }
    if (!found)
        snprintf(o->name, sizeof(o->name), "lambda");
    o->cheaper = o->feasible && isfinite(ec2) && o->monthly_usd < ec2;
}

static void lightsail_option(ecf_light_option *o, const ecf_light *light,
                             const ecf_model *m, const ecf_workload *w,
                             double ec2)
{
    size_t i;
    bool found = false;
    char type[32] = "lightsail";

    memset(o, 0, sizeof(*o));
    snprintf(o->kind, sizeof(o->kind), "lightsail");
    snprintf(o->name, sizeof(o->name), "lightsail");
    snprintf(o->reason, sizeof(o->reason),
             "does not fit the memory of any Lightsail bundle");
    for (i = 0; i < ecf_light_bundle_count(light); i++) {
        const ecf_lightsail_bundle *b = ecf_light_bundle_at(light, i);
        ecf_instance in;
        ecf_estimate e;
        double sustained, n, monthly;
        synth_instance(&in, type, b->vcpu, b->memory_gb * 1e9 / 1073741824.0);
        if (ecf_estimate_run_quiet(&e, m, w, &in, 1, NULL) != 0 || !e.fits ||
            e.host_ram_needed_gib > in.memory_gib)
            continue;
        if (w->latency_target_ms > 0 && e.latency_ms > w->latency_target_ms) {
            snprintf(o->reason, sizeof(o->reason),
                     "latency %.0f ms on %s, target %.0f ms", e.latency_ms,
                     b->id, w->latency_target_ms);
            continue;
        }
        /* burstable: sustained throughput at the CPU baseline */
        sustained = e.max_qps_per_replica * (e.replicas > 0 ? e.replicas : 1) *
                    b->baseline_cpu_pct_per_vcpu / 100.0;
        if (sustained <= 0)
            continue;
        n = ceil((w->qps > 0 ? w->qps : 1) / sustained - 1e-9);
        if (n < 1)
            n = 1;
        monthly = n * b->usd_per_month;
        if (!found || monthly < o->monthly_usd) {
            found = true;
            o->feasible = true;
            o->reason[0] = '\0';
            snprintf(o->name, sizeof(o->name), "lightsail %s", b->id);
            o->memory_gib = in.memory_gib;
            o->vcpus = b->vcpu;
            o->latency_ms = e.latency_ms;
            o->capacity_qps = sustained;
            o->instances = ecf_sat_int(n);
            o->monthly_usd = monthly;
            o->usd_per_million = per_million(m, w, monthly);
        }
    }
    o->cheaper = o->feasible && isfinite(ec2) && o->monthly_usd < ec2;
}

size_t ecf_recommend_light(ecf_light_option *out, size_t max,
                           const struct ecf_light *light, const ecf_model *m,
                           const ecf_workload *w,
                           const ecf_recommendation *rec)
{
    ecf_workload ww = *w;
    double ec2 = best_ec2_monthly(rec);
    size_t n = 0;

    if (!light || max == 0 || w->task != ECF_TASK_INFER)
        return 0;
    if (!ww.resolved && ecf_workload_resolve(&ww, m, NULL) != 0)
        return 0;
    lambda_option(&out[n++], ecf_light_lambda(light), m, &ww, ec2);
    if (n < max)
        lightsail_option(&out[n++], light, m, &ww, ec2);
    /* Lambda prices are one region's (light.json lambda.region); the
     * Lightsail bundle prices were gathered from us-east-1 pages. Another
     * region is priced with them, and says so. */
    if (rec) {
        size_t i, k;
        for (k = 0; k < n; k++) {
            const char *home = strcmp(out[k].kind, "lambda") == 0
                                   ? ecf_light_lambda(light)->region
                                   : "us-east-1";
            out[k].price_estimated = false;
            for (i = 0; i < rec->opts.n_regions; i++)
                if (strcmp(rec->opts.regions[i], home) != 0)
                    out[k].price_estimated = true;
        }
    }
    return n;
}
