/* test_metamorphic.c - properties every plan search must keep (issue 24,
 * "Acceptance"), checked over generated workloads (a fixed generator: the
 * same 320 workloads on every run) on the embedded catalog, zoo and
 * rules, through the library (no CLI, no network):
 *  (a) serving: the cheapest plan with no target costs no more than with
 *      any target, and a looser target no more than a tighter one
 *      (docs/estimation.md 5.4, "Default service level");
 *  (b) jobs: a larger budget or a later deadline never gives a worse rank
 *      1 by the objective (--optimize cost: its score);
 *  (c) `estimate` of rank 1 on its instance and node count reproduces rank
 *      1's memory per device, time (job hours, or serving latency) and
 *      cost (job instance cost, or serving capacity);
 *  (d) no plan needs more memory than the unit that runs one worker: its
 *      own available memory, a GPU's memory, a NeuronCore's 16 GiB on
 *      trn1 and inf2;
 *  (e) no burstable (t-family) plan runs above its baseline without the
 *      surcharge priced: in unlimited mode (t3's default) a serving
 *      fleet's mean load per vCPU (the mean request rate over the fleet's
 *      full-speed capacity) above the baseline b pays $0.05 x vCPUs x
 *      (load - b) per instance-hour, a job (load 1) $0.05 x vCPUs x
 *      (1 - b) per node-hour, both in the plan's $/h; a fleet within its
 *      baseline pays none (docs/estimation.md "Burstable CPUs").
 *  (f) a capacity-block plan's window covers its job's time with the
 *      shortest allowed duration, holds its nodes, and costs at least the
 *      window's days x 24 x nodes x the published rate (issue 26).
 * Each property prints its checks and violations on stdout (one line
 * each, "metamorphic (x): N checks, V violations"), and fails on any
 * violation. Plans are on-demand (no spot: (c) compares times without
 * spot rework) over GPU, Neuron and CPU families. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/recommend.h"

#include "embedded_fx.h"

#define N_WORKLOADS 320

/* GPU (NVIDIA of three generations), Neuron, x86 and Arm CPU, burstable */
static const char *const families[] = {"g5",  "g6e", "p4d", "inf2", "trn1",
                                       "c7i", "m7i", "c7g", "t3",   NULL};

typedef enum { K_LLM_SERVE, K_SERVE, K_TRAIN, K_TUNE, K_BATCH, K_COUNT } kind;

typedef struct {
    size_t checks, violations;
    size_t strict; /* (a), (b): checks where the constraint cost something;
                      (e): plans above their baseline, surcharge due */
    char first[256]; /* the first violation, for the failure message */
} tally;

static tally T[6]; /* (a) .. (f) */

static void note(int prop, bool ok, const char *fmt, ...) ECF_PRINTF(3, 4);

static void note(int prop, bool ok, const char *fmt, ...)
{
    tally *t = &T[prop];
    t->checks++;
    if (ok)
        return;
    if (t->violations++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->first, sizeof(t->first), fmt, ap);
        va_end(ap);
    }
}

/* A 64-bit LCG (Knuth's MMIX constants): deterministic, no libc rand. */
static uint64_t rng = 0x2400c0ffeeULL;

static size_t pick(size_t n)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (size_t)((rng >> 33) % n);
}

#define PICK(a) ((a)[pick(sizeof(a) / sizeof((a)[0]))])

typedef struct {
    kind k;
    const char *model;
    ecf_workload w; /* unresolved */
} job;

static void gen(job *j)
{
    static const char *const llms[] = {"llama-3.2-1b", "llama-3.1-8b",
                                       "qwen3-8b",     "mistral-7b",
                                       "qwen3-30b-a3b", "mixtral-8x7b"};
    static const char *const others[] = {"resnet50", "bert-base",
                                         "distilbert", "vit_b_16",
                                         "efficientnet_b0"};
    static const char *const train[] = {"resnet18", "resnet50", "bert-base",
                                        "vit_b_16", "gpt2", "distilbert"};
    static const char *const tune[] = {"bert-base", "distilbert",
                                       "llama-3.2-1b", "llama-3.1-8b",
                                       "efficientnet_b0"};
    static const char *const batch[] = {"resnet50", "bert-base",
                                        "llama-3.1-8b", "llama-3.2-1b",
                                        "stable-diffusion-1.5"};
    static const double qps[] = {0.5, 1, 2, 5, 10, 20};
    static const int in_tok[] = {256, 512, 1000, 2000};
    static const int out_tok[] = {64, 128, 256, 500};
    static const double samples[] = {5e4, 2e5, 1e6, 5e6};
    static const double epochs[] = {1, 3, 10};
    ecf_workload w = ECF_WORKLOAD_INIT;

    j->k = (kind)pick(K_COUNT);
    switch (j->k) {
    case K_LLM_SERVE:
        j->model = PICK(llms);
        w.task = ECF_TASK_INFER;
        w.qps = PICK(qps);
        w.input_tokens = PICK(in_tok);
        w.output_tokens = PICK(out_tok);
        break;
    case K_SERVE:
        j->model = PICK(others);
        w.task = ECF_TASK_INFER;
        w.qps = PICK(qps) * 20;
        break;
    case K_TRAIN:
        j->model = PICK(train);
        w.task = ECF_TASK_TRAIN;
        w.dataset_amount = PICK(samples);
        w.dataset_unit = ECF_DATASET_SAMPLES;
        w.epochs = PICK(epochs);
        break;
    case K_TUNE:
        j->model = PICK(tune);
        w.task = strncmp(j->model, "llama", 5) == 0 && pick(2)
                     ? ECF_TASK_LORA
                     : ECF_TASK_FINETUNE;
        w.dataset_amount = PICK(samples) / 10;
        w.dataset_unit = ECF_DATASET_SAMPLES;
        w.epochs = PICK(epochs);
        break;
    default:
        j->model = PICK(batch);
        w.task = ECF_TASK_BATCH;
        w.dataset_amount = PICK(samples) / 10;
        w.dataset_unit = ECF_DATASET_SAMPLES;
        break;
    }
    j->w = w;
}

/* One run; NULL (counted nowhere) when the library refuses the workload:
 * the generator only builds valid ones, so that fails the test. */
/* --purchase of the runs (auto; (f) also runs every job with
 * capacity-block) */
static ecf_purchase run_purchase = ECF_PURCHASE_AUTO;

static ecf_recommendation *run(fx *f, const job *j, const ecf_workload *tw,
                               double deadline_h, double budget_usd,
                               ecf_workload *resolved)
{
    const ecf_model *m = ecf_zoo_find(f->zoo, j->model);
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *r = NULL;
    ecf_err err = ECF_ERR_INIT;
    ecf_workload w = *tw;

    if (!m)
        fail_msg("%s: not in the zoo", j->model);
    o.regions[o.n_regions++] = "us-east-1";
    o.stacks = f->stacks;
    o.storage_prices = f->sp;
    o.families = families;
    o.spot = ECF_SPOT_NO;
    o.purchase = run_purchase;
    o.deadline_hours = deadline_h;
    o.budget_usd = budget_usd;
    if (ecf_workload_resolve(&w, m, &err) != 0)
        fail_msg("%s: %s", j->model, err.msg);
    if (ecf_recommend_run(&r, f->cat, m, &w, &f->rules, &o, &err) != 0)
        fail_msg("%s: %s", j->model, err.msg);
    if (resolved)
        *resolved = w;
    return r;
}

static double cheapest_monthly(const ecf_recommendation *r)
{
    double best = INFINITY;
    size_t i;
    for (i = 0; i < r->n_plans; i++)
        if (r->plans[i].monthly_usd > 0 && r->plans[i].monthly_usd < best)
            best = r->plans[i].monthly_usd;
    return best;
}

static double rank1_score(const ecf_recommendation *r)
{
    return r->n_plans ? r->plans[0].score : INFINITY;
}

/* no more than, up to rounding of the cents */
static bool le(double a, double b)
{
    return a <= b * (1 + 1e-9) + 1e-9;
}

static bool close_to(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-9;
}

static bool neuron_core_16(const ecf_instance *in)
{
    return strcmp(in->family, "trn1") == 0 ||
           strcmp(in->family, "trn1n") == 0 || strcmp(in->family, "inf2") == 0;
}

/* The published baseline per vCPU of a burstable type (as estimate.c
 * burst_baseline: aws.amazon.com/ec2/instance-types/t3/); 0 otherwise. */
static double baseline(const ecf_instance *in)
{
    static const struct {
        const char *size;
        double b;
    } t3[] = {{"nano", 0.05},   {"micro", 0.10},  {"small", 0.20},
              {"medium", 0.20}, {"large", 0.30},  {"xlarge", 0.40},
              {"2xlarge", 0.40}};
    const char *dot = strchr(in->type, '.');
    size_t i;
    if (strcmp(in->family, "t3") != 0 || !dot)
        return 0;
    for (i = 0; i < sizeof(t3) / sizeof(t3[0]); i++)
        if (strcmp(dot + 1, t3[i].size) == 0)
            return t3[i].b;
    return 0;
}

/* (d) and (e) over every plan of a run. */
/* (f): a capacity-block plan's window covers the job's time, is the
 * shortest allowed duration that does (1..14 days, then multiples of 7 to
 * 182), holds exactly its nodes (<= 256), and the plan costs at least the
 * window's days x 24 x nodes x the published rate (docs/rules.md,
 * "Capacity Blocks for ML"). */
static void capacity_block_plan(const job *j, const ecf_plan *p)
{
    const ecf_price *pr = ecf_instance_price(p->inst, p->region);
    double rate = pr ? pr->capacity_block_usd_per_hour : -1;
    int d = p->cb_days, prev = d <= 14 ? d - 1 : d - 7;
    double window = d * 24.0 * p->nodes * rate;
    bool ok = rate > 0 && p->usd_per_hour_instance == rate && !p->spot &&
              d >= 1 && d <= 182 && (d <= 14 || d % 7 == 0) &&
              p->nodes >= 1 && p->nodes <= 256 &&
              d * 24.0 >= p->time_hours && prev * 24.0 < p->time_hours &&
              p->total_usd >= window * (1 - 1e-12) &&
              fabs(p->total_usd - p->storage_usd - window) <= 0.011;
    note(5, ok,
         "%s on %d x %s: capacity block %d d, job %.2f h, $%.2f for a "
         "window of $%.2f at %.4f/h",
         j->model, p->nodes, p->inst->type, d, p->time_hours, p->total_usd,
         window, rate);
}

static void every_plan(fx *f, const job *j, const ecf_recommendation *r,
                       const ecf_workload *w)
{
    const ecf_model *m = ecf_zoo_find(f->zoo, j->model);
    size_t i;
    for (i = 0; i < r->n_plans; i++) {
        const ecf_plan *p = &r->plans[i];
        const ecf_instance *in = p->inst;
        double unit = p->available_per_device_gib, b = baseline(in);
        if (in->accel && in->accel_memory_gib > 0)
            unit = fmin(unit, in->accel_memory_gib);
        if (neuron_core_16(in))
            unit = fmin(unit, 16.0);
        if (p->purchase_option == ECF_PURCHASE_CAPACITY_BLOCK)
            capacity_block_plan(j, p);
        note(3, le(p->required_per_device_gib, unit),
             "%s %s on %s: %.2f GiB per worker, unit %.2f", j->model,
             ecf_task_name(w->task), in->type, p->required_per_device_gib,
             unit);
        if (b <= 0)
            continue;
        if (r->serving) {
            ecf_estimate e;
            ecf_err err = ECF_ERR_INIT;
            double full, load, want;
            if (ecf_estimate_run_quiet(&e, m, w, in, p->nodes_per_group,
                                       &err) != 0 ||
                e.latency_ms <= 0)
                continue;
            /* full speed: every replica's batch per request time */
            full = e.replicas * e.batch_size / (e.latency_ms / 1e3) /
                   p->nodes_per_group;
            load = w->qps / p->asg_expected / full;
            want = load > b ? 0.05 * in->vcpu * (load - b) * p->asg_expected
                            : 0;
            T[4].strict += want > 0;
            note(4,
                 fabs(p->burst_load - load) <= 1e-9 * load &&
                     fabs(p->burst_surcharge_usd_per_hour - want) <=
                         1e-9 * (want + 1e-9) &&
                     p->hourly_usd >= want,
                 "%s serving on %d x %s: %.1f%% mean load (plan: %.1f%%), "
                 "baseline %.0f%%: surplus $%.6f/h priced, $%.6f/h due",
                 j->model, p->nodes, in->type, 100 * load,
                 100 * p->burst_load, 100 * b,
                 p->burst_surcharge_usd_per_hour, want);
        } else {
            /* A job is a full load at full speed (its twin: the instance
             * under a non-burstable family name, the same rate): it pays
             * the surplus above the baseline on every node-hour. */
            ecf_estimate e, full;
            ecf_instance twin = *in;
            ecf_err err = ECF_ERR_INIT;
            double want = 0.05 * in->vcpu * (1 - b) * p->nodes;
            twin.family = (char *)"m5";
            T[4].strict++;
            if (ecf_estimate_run_quiet(&e, m, w, in, p->nodes_per_group,
                                       &err) != 0 ||
                ecf_estimate_run_quiet(&full, m, w, &twin,
                                       p->nodes_per_group, &err) != 0 ||
                full.samples_per_s <= 0)
                continue;
            note(4,
                 le(e.samples_per_s, full.samples_per_s * (1 + 1e-9)) &&
                     fabs(p->burst_surcharge_usd_per_hour - want) <=
                         1e-9 * want &&
                     p->hourly_usd >= want,
                 "%s %s on %d x %s: %.4g samples/s (full speed %.4g), "
                 "surplus $%.6f/h priced, $%.6f/h due",
                 j->model, ecf_task_name(w->task), p->nodes, in->type,
                 e.samples_per_s, full.samples_per_s,
                 p->burst_surcharge_usd_per_hour, want);
        }
    }
}

/* (c): estimate of rank 1 */
static void rank1_estimate(fx *f, const job *j, const ecf_recommendation *r,
                           const ecf_workload *w)
{
    const ecf_model *m = ecf_zoo_find(f->zoo, j->model);
    const ecf_plan *p;
    ecf_estimate e;
    ecf_err err = ECF_ERR_INIT;
    int nodes;
    bool ok;

    if (r->n_plans == 0)
        return;
    p = &r->plans[0];
    nodes = r->serving ? p->nodes_per_group : p->nodes;
    if (ecf_estimate_run_quiet(&e, m, w, p->inst, nodes, &err) != 0) {
        note(2, false, "%s on %s: estimate refused: %s", j->model,
             p->inst->type, err.msg);
        return;
    }
    ok = e.fits &&
         close_to(e.memory.total_per_device_gib, p->required_per_device_gib,
                  1e-6);
    if (r->serving) {
        double groups = (double)p->nodes / p->nodes_per_group;
        ok = ok && close_to(e.latency_ms, p->latency_ms, 1e-6) &&
             close_to(e.max_qps_per_replica * e.replicas * groups,
                      p->capacity_qps, 1e-6);
        note(2, ok,
             "%s serving on %d x %s: estimate %.3f GiB %.1f ms %.3f req/s, "
             "plan %.3f GiB %.1f ms %.3f req/s",
             j->model, p->nodes, p->inst->type,
             e.memory.total_per_device_gib, e.latency_ms,
             e.max_qps_per_replica * e.replicas * groups,
             p->required_per_device_gib, p->latency_ms, p->capacity_qps);
    } else {
        /* EC2 bills each node at least 60 s */
        double hours = fmax(e.time_hours, 60.0 / 3600);
        double inst_usd = p->total_usd - p->storage_usd;
        /* a capacity block costs its window, (f) checks it */
        if (p->purchase_option == ECF_PURCHASE_CAPACITY_BLOCK)
            hours = p->cb_days * 24.0;
        ok = ok && close_to(e.time_hours, p->time_hours, 1e-6) &&
             (p->total_usd <= 0 ||
              fabs(hours * p->hourly_usd - inst_usd) <= 0.011);
        note(2, ok,
             "%s %s on %d x %s: estimate %.3f GiB %.4f h $%.2f, plan %.3f "
             "GiB %.4f h $%.2f",
             j->model, ecf_task_name(w->task), p->nodes, p->inst->type,
             e.memory.total_per_device_gib, e.time_hours,
             hours * p->hourly_usd, p->required_per_device_gib, p->time_hours,
             inst_usd);
    }
}

/* (a): no target <= looser <= tighter, one target flag at a time */
static void serving_targets(fx *f, const job *j, double base_cost)
{
    static const double tight_llm[] = {30, 50, 80, 120, 250};
    static const double tight_other[] = {5, 10, 20, 50, 200};
    static const double looser[] = {1.5, 2, 4};
    int flag = j->k == K_LLM_SERVE ? (int)pick(3) : 0;
    double t1, t2, c1, c2;
    ecf_workload w1 = j->w, w2 = j->w;
    ecf_recommendation *r;

    t1 = j->k == K_LLM_SERVE ? PICK(tight_llm) : PICK(tight_other);
    if (j->k == K_LLM_SERVE && flag == 0)
        t1 *= 20; /* TTFT in the hundreds of ms to seconds */
    if (j->k == K_LLM_SERVE && flag == 2)
        t1 *= j->w.output_tokens; /* a whole request */
    t2 = t1 * PICK(looser);
    if (j->k != K_LLM_SERVE || flag == 2) {
        w1.latency_target_ms = t1;
        w2.latency_target_ms = t2;
    } else if (flag == 0) {
        w1.ttft_target_ms = t1;
        w2.ttft_target_ms = t2;
    } else {
        w1.tpot_target_ms = t1;
        w2.tpot_target_ms = t2;
    }
    r = run(f, j, &w1, 0, 0, NULL);
    c1 = cheapest_monthly(r);
    ecf_recommendation_free(r);
    r = run(f, j, &w2, 0, 0, NULL);
    c2 = cheapest_monthly(r);
    ecf_recommendation_free(r);
    note(0, le(base_cost, c2),
         "%s qps %g: no target $%.2f/month > %s %g ms $%.2f", j->model,
         j->w.qps, base_cost, flag == 0 ? "ttft" : flag == 1 ? "tpot"
                                                             : "latency",
         t2, c2);
    T[0].strict += (base_cost < c2 * (1 - 1e-9)) + (c2 < c1 * (1 - 1e-9));
    note(0, le(c2, c1), "%s qps %g: %s %g ms $%.2f/month > %g ms $%.2f",
         j->model, j->w.qps,
         flag == 0 ? "ttft" : flag == 1 ? "tpot" : "latency", t2, c2, t1,
         c1);
}

/* (b): a later deadline, a larger budget: rank 1 no worse */
static void job_constraints(fx *f, const job *j)
{
    static const double deadline[] = {1, 4, 24, 72, 336};
    static const double budget[] = {2, 20, 100, 1000, 10000};
    static const double more[] = {1.5, 2, 5};
    double d1 = PICK(deadline), d2 = d1 * PICK(more);
    double b1 = PICK(budget), b2 = b1 * PICK(more);
    double s1, s2;
    ecf_recommendation *r;

    r = run(f, j, &j->w, d1, 0, NULL);
    s1 = rank1_score(r);
    ecf_recommendation_free(r);
    r = run(f, j, &j->w, d2, 0, NULL);
    s2 = rank1_score(r);
    ecf_recommendation_free(r);
    T[1].strict += s2 < s1 * (1 - 1e-9);
    note(1, le(s2, s1), "%s %s: deadline %g h score %.4f > %g h %.4f",
         j->model, ecf_task_name(j->w.task), d2, s2, d1, s1);
    r = run(f, j, &j->w, 0, b1, NULL);
    s1 = rank1_score(r);
    ecf_recommendation_free(r);
    r = run(f, j, &j->w, 0, b2, NULL);
    s2 = rank1_score(r);
    ecf_recommendation_free(r);
    T[1].strict += s2 < s1 * (1 - 1e-9);
    note(1, le(s2, s1), "%s %s: budget $%g score %.4f > $%g %.4f", j->model,
         ecf_task_name(j->w.task), b2, s2, b1, s1);
}

static void run_all(fx *f)
{
    static bool done = false;
    size_t i, n_serving = 0;
    if (done)
        return;
    done = true;
    for (i = 0; i < N_WORKLOADS; i++) {
        job j;
        ecf_workload w;
        ecf_recommendation *r;
        gen(&j);
        r = run(f, &j, &j.w, 0, 0, &w);
        every_plan(f, &j, r, &w);
        rank1_estimate(f, &j, r, &w);
        n_serving += r->serving;
        if (r->serving)
            serving_targets(f, &j, cheapest_monthly(r));
        else
            job_constraints(f, &j);
        if (!r->serving) {
            /* (f) over every plan of --purchase capacity-block: all of
             * them are capacity blocks */
            ecf_recommendation *cb;
            size_t k;
            run_purchase = ECF_PURCHASE_CAPACITY_BLOCK;
            cb = run(f, &j, &j.w, 0, 0, NULL);
            run_purchase = ECF_PURCHASE_AUTO;
            for (k = 0; k < cb->n_plans; k++)
                capacity_block_plan(&j, &cb->plans[k]);
            ecf_recommendation_free(cb);
        }
        ecf_recommendation_free(r);
    }
    printf("metamorphic: %d workloads (%zu serving, %zu jobs)\n",
           N_WORKLOADS, n_serving, N_WORKLOADS - n_serving);
    for (i = 0; i < 6; i++) {
        char strict[64] = "";
        if (i < 2)
            snprintf(strict, sizeof(strict),
                     " (%zu where the tighter side cost more)", T[i].strict);
        if (i == 4)
            snprintf(strict, sizeof(strict),
                     " (%zu above the baseline, surcharge priced)",
                     T[i].strict);
        printf("metamorphic (%c): %zu checks, %zu violations%s%s%s\n",
               (char)('a' + i), T[i].checks, T[i].violations, strict,
               T[i].violations ? "; first: " : "", T[i].first);
    }
    fflush(stdout);
}

static void check_prop(void **state, int prop)
{
    run_all(*state);
    assert_true(T[prop].checks > 0);
    if (T[prop].violations)
        fail_msg("(%c) %zu of %zu violated; first: %s", 'a' + prop,
                 T[prop].violations, T[prop].checks, T[prop].first);
}

static void test_metamorphic__no_target_never_costs_more(void **state)
{
    check_prop(state, 0);
}

static void test_metamorphic__more_budget_or_time_never_worse(void **state)
{
    check_prop(state, 1);
}

static void test_metamorphic__estimate_reproduces_rank1(void **state)
{
    check_prop(state, 2);
}

static void test_metamorphic__worker_memory_within_unit(void **state)
{
    check_prop(state, 3);
}

static void test_metamorphic__burstable_within_baseline(void **state)
{
    check_prop(state, 4);
}

static void test_metamorphic__capacity_block_window(void **state)
{
    check_prop(state, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metamorphic__no_target_never_costs_more),
        cmocka_unit_test(test_metamorphic__more_budget_or_time_never_worse),
        cmocka_unit_test(test_metamorphic__estimate_reproduces_rank1),
        cmocka_unit_test(test_metamorphic__worker_memory_within_unit),
        cmocka_unit_test(test_metamorphic__burstable_within_baseline),
        cmocka_unit_test(test_metamorphic__capacity_block_window),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
