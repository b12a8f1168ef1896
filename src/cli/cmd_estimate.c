/*
 * cmd_estimate.c - `ec2fit estimate`: the full breakdown of one workload
 * on one instance type x N nodes (memory per device, step time,
 * throughput, dataset time, serving latency, bottleneck, assumptions).
 *
 * Exit status: 0 when the workload fits, 3 when it does not (the
 * breakdown is still printed, so the user sees by how much), 2 for usage
 * errors, 1 for runtime errors.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "render_common.h"
#include "recommend_render.h"
#include "render_explain.h"
#include "workload_flags.h"
#include "cli_config.h"
#include "cli_fields.h"
#include "cmd.h"
#include "ec2fit/estimate.h"
#include "ec2fit/ranges.h"
#include "ec2fit/stacks.h"
#include "ec2fit/stacks_resolve.h"
#include "ec2fit/units.h"

static void usage(FILE *f)
{
    fputs("usage: ec2fit estimate (-m NAME | --params N | "
          "--model-config FILE)\n"
          "                       -t T -i TYPE [-n N] [workload flags]\n"
          "                       [-r R] [-c FILE] [-o table|json] "
          "[--explain]\n\n"
          "Memory per device, step time, throughput, time for the dataset, "
          "serving\nlatency and the bottleneck of a workload on one "
          "instance type.\nExit status 3 when it does not fit (the "
          "breakdown is still printed).\n\n",
          f);
    cli_workload_usage(f);
    fputs("Placement:\n"
          "  -i, --instance TYPE     EC2 instance type, e.g. p4d.24xlarge\n"
          "  -n, --nodes N           instances (default 1)\n"
          "  -r, --region R          region for the cost line (default: "
          "AWS_REGION or us-east-1)\n"
          "  -c, --catalog FILE      catalog file, or 'embedded'\n"
          "  -o, --output FMT        table (default) or json\n"
          CLI_OUTPUT_FILE_HELP
          "  --fields LIST           --output json: keep only these fields "
          "(a.b.c,\n"
          "                          comma-separated; arrays are crossed)\n"
          "      --explain           training: the plans the search tried "
          "and why the\n"
          "                          chosen one won; serving: the engine, "
          "the terms of one\n"
          "                          step, TTFT's parts and what set the "
          "batch\n"
          "  -h, --help              this help\n"
          "Examples:\n"
          "  ec2fit estimate -m llama-3.1-8b -t infer -i g6e.xlarge --qps 5\n"
          "  ec2fit estimate -m llama-3.1-70b -t lora -i p5.48xlarge -n 2 "
          "--explain\n"
          "  ec2fit estimate -m resnet50 -t train -i g6.xlarge --dataset "
          "1.28M -o json\n",
          f);
}

/* Prints an error with the exit status its code maps to: usage errors
 * (exit 2) name the command, like every other usage error. */
static int fail(const ecf_err *err)
{
    if (ecf_err_exit_status(err->code) == 2)
        return cli_usage_error("estimate", "%s", err->msg);
    return cli_fail(err);
}

static void fmt_time(char *buf, size_t n, double hours)
{
    if (hours <= 0)
        snprintf(buf, n, "-");
    else if (hours < 1.0 / 60.0)
        snprintf(buf, n, "%.0f s", hours * 3600);
    else if (hours < 1)
        snprintf(buf, n, "%.1f min", hours * 60);
    else if (hours < 48)
        snprintf(buf, n, "%.1f h", hours);
    else
        snprintf(buf, n, "%.1f days", hours / 24);
}

static const char *const stack_status[] = {"supported", "unverified",
                                           "unsupported"};

/* One node's on-demand $/h, with a burstable type's unlimited-mode
 * surplus credits for a job's full load (docs/estimation.md "Burstable
 * CPUs"; 0 elsewhere), as the plan search prices it. */
static double node_rate(const ecf_price *price, const ecf_estimate *e)
{
    return price->ondemand_usd_per_hour + e->burst_surcharge_usd_per_hour;
}

/* The likely ranges of the estimate (docs/estimation.md "Ranges"); the
 * cost is the on-demand job's, as the "Cost" line and cost.total_usd. */
static void estimate_ranges(ecf_ranges *rg, const ecf_estimate *e,
                            const ecf_model *m, const ecf_workload *w,
                            const ecf_instance *in, const ecf_price *price)
{
    double total = price && e->time_hours > 0
                       ? node_rate(price, e) * e->nodes * e->time_hours
                       : 0;
    ecf_ranges_for_estimate(rg, ecf_ranges_embedded(), m, w, in, e, total);
}

/* " (likely low-high)" of a set range, "" otherwise */
static const char *span(char *buf, size_t n, const ecf_fig_range *r,
                        const char *unit)
{
    buf[0] = '\0';
    if (r->set)
        snprintf(buf, n, " (likely %.4g-%.4g%s)", r->low, r->high, unit);
    return buf;
}

static void print_table(const ecf_estimate *e,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const ecf_instance *in,
                        const ecf_price *price,
                        const char *region,
                        const ecf_stack_verdict *sv,
                        bool explain)
{
    char acc[96], t[32], cnt[32], strat[48], sp[64];
    ecf_ranges rg;
    int i;

    estimate_ranges(&rg, e, m, w, in, price);
    ecf_render_accel_label(acc, sizeof(acc), in);
    printf("%s (%s, %s params), %s, %s on %d x %s (%s)\n", m->name,
           ecf_model_kind_name(m->kind),
           ecf_units_format_count(cnt, sizeof(cnt), m->params),
           ecf_task_name(w->task), ecf_precision_name(e->precision), e->nodes,
           in->type, e->cpu_only ? "CPU only" : acc);
    printf("\nMemory per device (GiB)\n");
    printf("  weights        %9.2f\n", e->memory.weights_gib);
    printf("  gradients      %9.2f\n", e->memory.gradients_gib);
    printf("  optimizer      %9.2f\n", e->memory.optimizer_gib);
    printf("  activations    %9.2f\n", e->memory.activations_gib);
    if (!ecf_task_is_training(w->task) && ecf_model_kind_is_llm(m->kind))
        /* the element type; the capacity has its own line below */
        printf("  kv cache       %9.2f  %s\n", e->memory.kv_cache_gib,
               ecf_kv_dtype_name(e->memory.kv_cache_dtype));
    else
        printf("  kv cache       %9.2f\n", e->memory.kv_cache_gib);
    printf("  lora adapters  %9.2f\n", e->memory.lora_gib);
    printf("  overhead       %9.2f\n", e->memory.overhead_gib);
    printf("  total          %9.2f of %.2f available: %s\n",
           e->memory.total_per_device_gib, e->memory.available_per_device_gib,
           e->fits ? "fits" : "DOES NOT FIT");
    printf("\nParallelism      %s (tp %d, dp %d, pp %d), batch %d per "
           "%s%s\n",
           ecf_strategy_label(strat, sizeof(strat), e->parallelism,
                              e->tp_degree, e->pp_degree),
           e->tp_degree, e->dp_degree, e->pp_degree, e->batch_size,
           ecf_task_is_training(w->task) ? "device" : "replica",
           e->activation_checkpointing ? ", activation checkpointing" : "");
    if (ecf_task_is_training(w->task) && e->global_batch > 0)
        printf("Global batch     %d per optimizer step (batch %d x %d "
               "replica%s x %d micro-batch%s)\n",
               e->global_batch, e->batch_size, e->dp_degree,
               e->dp_degree == 1 ? "" : "s", e->grad_accum_steps,
               e->grad_accum_steps == 1 ? "" : "es");
    printf("Compute          %.1f TFLOPS peak per device, %.0f%% achieved "
           "in GEMMs\n",
           e->peak_tflops, e->utilization * 100);
    if (!e->fits) {
        /* a plan that does not fit runs no step: no time, no cost */
        printf("%s - (does not fit)\n", ecf_task_is_training(w->task)
                                            ? "Step time       "
                                            : "Latency         ");
    } else if (ecf_task_is_training(w->task)) {
        printf("Step time        %.3f s (compute %.3f s, memory %.3f s, "
               "exposed communication %.3f s)\n",
               e->step_time_s, e->compute_s, e->memory_s, e->comm_s);
    } else {
        printf("Latency          %.1f ms per request batch", e->latency_ms);
        if (e->ttft_ms > 0)
            printf(" (first token %.1f ms, then %.2f ms/token)", e->ttft_ms,
                   e->per_token_ms);
        printf("\nMax QPS          %.2f requests/s per replica, %d "
               "replica%s\n",
               e->max_qps_per_replica, e->replicas,
               e->replicas == 1 ? "" : "s");
        /* the room the fit leaves the KV cache: vLLM's '# GPU blocks' x
         * 16 (docs/estimation.md, "KV capacity") */
        if (ecf_model_kind_is_llm(m->kind))
            ecf_rr_print_kv_capacity(stdout, e, "");
    }
    if (e->fits)
        printf("Throughput       %.4g %s%s\n", e->throughput,
               e->throughput_unit, span(sp, sizeof(sp), &rg.throughput, ""));
    else
        printf("Throughput       - (does not fit)\n");
    fmt_time(t, sizeof(t), e->time_hours);
    if (!e->fits)
        printf("Time             - (does not fit)\n");
    else if (e->time_hours > 0 && e->compile_s > 0)
        printf("Time             %s for %s %s x %g epoch%s (incl. %.1f min "
               "start-up, incl. %.0f min first-run compile; cached runs skip "
               "it)%s\n",
               t, ecf_units_format_count(cnt, sizeof(cnt), w->dataset_amount),
               ecf_dataset_unit_name(w->dataset_unit), w->epochs,
               w->epochs == 1 ? "" : "s", e->startup_s / 60,
               e->compile_s / 60, span(sp, sizeof(sp), &rg.time_hours, " h"));
    else if (e->time_hours > 0)
        printf("Time             %s for %s %s x %g epoch%s (incl. %.1f min "
               "start-up)%s\n",
               t, ecf_units_format_count(cnt, sizeof(cnt), w->dataset_amount),
               ecf_dataset_unit_name(w->dataset_unit), w->epochs,
               w->epochs == 1 ? "" : "s", e->startup_s / 60,
               span(sp, sizeof(sp), &rg.time_hours, " h"));
    else
        printf("Time             - (no --dataset)\n");
    if (price && !e->fits)
        printf("Cost             - (does not fit)\n");
    else if (price && e->time_hours > 0)
        printf("Cost             $%.2f on-demand in %s ($%.4g/h x %d "
               "node%s)\n",
               node_rate(price, e) * e->nodes *
                   (e->time_hours > ECF_MIN_BILLED_S / 3600
                        ? e->time_hours
                        : ECF_MIN_BILLED_S / 3600),
               region,
               node_rate(price, e), e->nodes,
               e->nodes == 1 ? "" : "s");
    else if (!price && e->fits && e->time_hours > 0)
        /* a job time without a cost: say why rather than drop the line */
        printf("Cost             - (the catalog has no %s price for %s; "
               "'ec2fit update --regions %s' fetches it, 'ec2fit show %s' "
               "lists where it is priced)\n",
               region, in->type, region, in->type);
    printf("Bottleneck       %s\n", ecf_bottleneck_name(e->bottleneck));
    printf("Input data       %.1f MB/s needed per node, %s gives ~%.0f "
           "MB/s\n",
           e->data_rate_required_mbytes_s, e->data_source,
           e->data_rate_available_mbytes_s);
    printf("Host RAM         ~%.0f GiB needed of %.0f GiB; %.1f vCPUs per "
           "device\n",
           e->host_ram_needed_gib, e->host_ram_available_gib,
           e->vcpus_per_accel);
    if (sv->status != ECF_STACK_SUPPORTED)
        printf("Stack            %s on %s: %s: %s (source: %s)\n",
               sv->stack, sv->platform, stack_status[sv->status], sv->why,
               sv->source ? sv->source : "");
    if (e->n_warnings > 0) {
        printf("\nWarnings\n");
        for (i = 0; i < e->n_warnings; i++)
            printf("  - %s\n", e->warnings[i]);
    }
    printf("\nAssumptions\n");
    for (i = 0; i < e->n_assumptions; i++)
        printf("  - %s\n", e->assumptions[i]);
    printf("  - formulas and constants: docs/estimation.md\n");
    if (explain) {
        ecf_rr_print_plans_tried(stdout, e, in->type, e->nodes);
        ecf_rr_print_serve_terms(stdout, e, in->type, e->nodes);
    }
}

static void
add_or_null(cJSON *o, const char *key, double v, int dec, bool present)
{
    if (present)
        ecf_render_json_add_num(o, key, v, dec);
    else
        cJSON_AddNullToObject(o, key);
}

static int print_json(const ecf_estimate *e,
                      const ecf_model *m,
                      const ecf_workload *w,
                      const ecf_instance *in,
                      const ecf_price *price,
                      const char *region,
                      const ecf_stack_verdict *sv,
                      bool explain,
                      const cli_fields *fields,
                      const ecf_catalog *cat,
                      const char *cat_label)
{
    cJSON *root = cJSON_CreateObject(), *o, *arr;
    char strat[48];
    bool infer = !ecf_task_is_training(w->task);
    bool llm_serving = infer && ecf_model_kind_is_llm(m->kind);
    int i;

    cJSON_AddNumberToObject(root, "schema_version", 1);
    /* the prices' date and age, as recommend and list show them */
    cJSON_AddItemToObject(root, "catalog",
                          ecf_render_json_catalog_meta(cat, cat_label,
                                                       cli_now()));
    o = cJSON_AddObjectToObject(root, "model");
    cJSON_AddStringToObject(o, "name", m->name);
    cJSON_AddStringToObject(o, "kind", ecf_model_kind_name(m->kind));
    cJSON_AddNumberToObject(o, "params", m->params);
    cJSON_AddNumberToObject(o, "active_params", m->active_params);
    cJSON_AddStringToObject(root, "task", ecf_task_name(w->task));
    cJSON_AddStringToObject(root, "precision",
                            ecf_precision_name(e->precision));
    cJSON_AddStringToObject(root, "instance", in->type);
    cJSON_AddBoolToObject(root, "fits", e->fits);
    cJSON_AddNumberToObject(root, "devices", e->devices);
    cJSON_AddNumberToObject(root, "nodes", e->nodes);
    cJSON_AddStringToObject(root, "parallelism",
                            ecf_parallelism_name(e->parallelism));
    cJSON_AddStringToObject(root, "strategy",
                            ecf_strategy_label(strat, sizeof(strat),
                                               e->parallelism, e->tp_degree,
                                               e->pp_degree));
    cJSON_AddNumberToObject(root, "tp_degree", e->tp_degree);
    cJSON_AddNumberToObject(root, "dp_degree", e->dp_degree);
    cJSON_AddNumberToObject(root, "pp_degree", e->pp_degree);
    cJSON_AddNumberToObject(root, "batch_size", e->batch_size);
    if (!infer && e->global_batch > 0) {
        cJSON_AddNumberToObject(root, "global_batch", e->global_batch);
        cJSON_AddNumberToObject(root, "grad_accum_steps",
                                e->grad_accum_steps);
    } else {
        cJSON_AddNullToObject(root, "global_batch");
        cJSON_AddNullToObject(root, "grad_accum_steps");
    }
    if (e->seq_len > 0)
        cJSON_AddNumberToObject(root, "seq_len", e->seq_len);
    else
        cJSON_AddNullToObject(root, "seq_len");
    cJSON_AddBoolToObject(root, "activation_checkpointing",
                          e->activation_checkpointing);
    o = cJSON_AddObjectToObject(root, "memory");
    ecf_render_json_add_num(o, "weights_gib", e->memory.weights_gib, 3);
    ecf_render_json_add_num(o, "gradients_gib", e->memory.gradients_gib, 3);
    ecf_render_json_add_num(o, "optimizer_gib", e->memory.optimizer_gib, 3);
    ecf_render_json_add_num(o, "activations_gib", e->memory.activations_gib, 3);
    ecf_render_json_add_num(o, "kv_cache_gib", e->memory.kv_cache_gib, 3);
    ecf_render_json_add_num(o, "lora_gib", e->memory.lora_gib, 3);
    ecf_render_json_add_num(o, "overhead_gib", e->memory.overhead_gib, 3);
    ecf_render_json_add_num(o, "total_per_device_gib", e->memory.total_per_device_gib,
                     3);
    ecf_render_json_add_num(o, "available_per_device_gib",
                     e->memory.available_per_device_gib, 3);
    if (!ecf_task_is_training(w->task) && ecf_model_kind_is_llm(m->kind)) {
        cJSON_AddStringToObject(
            o, "kv_cache_dtype",
            ecf_kv_dtype_name(e->memory.kv_cache_dtype));
        cJSON_AddNumberToObject(o, "kv_capacity_tokens",
                                (double)(long long)e->memory.kv_capacity_tokens);
    } else {
        cJSON_AddNullToObject(o, "kv_cache_dtype");
        cJSON_AddNullToObject(o, "kv_capacity_tokens");
    }
    ecf_render_json_add_num(root, "peak_tflops", e->peak_tflops, 2);
    ecf_render_json_add_num(root, "utilization", e->utilization, 3);
    /* a plan that does not fit runs no step: time and cost are null */
    add_or_null(root, "step_time_s", e->step_time_s, 6, e->fits);
    ecf_render_json_add_num(root, "compute_s", e->compute_s, 6);
    ecf_render_json_add_num(root, "memory_s", e->memory_s, 6);
    ecf_render_json_add_num(root, "communication_s", e->comm_s, 6);
    o = cJSON_AddObjectToObject(root, "throughput");
    add_or_null(o, "value", e->throughput, 3, e->fits);
    cJSON_AddStringToObject(o, "unit", e->throughput_unit);
    add_or_null(root, "samples_per_s", e->samples_per_s, 3, e->fits);
    add_or_null(root, "tokens_per_s", e->tokens_per_s, 3,
                e->fits && e->tokens_per_s > 0);
    add_or_null(root, "time_hours", e->time_hours, 4, e->fits);
    ecf_render_json_add_num(root, "startup_s", e->startup_s, 1);
    if (e->compile_s > 0) /* Neuron training; additive, optional */
        ecf_render_json_add_num(root, "compile_s", e->compile_s, 1);
    add_or_null(root, "latency_ms", e->latency_ms, 3, infer && e->fits);
    add_or_null(root, "ttft_ms", e->ttft_ms, 3, llm_serving && e->fits);
    add_or_null(root, "per_token_ms", e->per_token_ms, 4,
                llm_serving && e->fits);
    {
        double slo_ttft, slo_tpot;
        if (ecf_estimate_service_level(&slo_ttft, &slo_tpot, m, w)) {
            cJSON *sl = cJSON_AddObjectToObject(root, "service_level");
            ecf_render_json_add_num(sl, "ttft_ms", slo_ttft, 3);
            ecf_render_json_add_num(sl, "tpot_ms", slo_tpot, 3);
        } else {
            cJSON_AddNullToObject(root, "service_level");
        }
    }
    add_or_null(root, "max_qps_per_replica", e->max_qps_per_replica, 4,
                infer && e->fits);
    if (infer)
        cJSON_AddNumberToObject(root, "replicas", e->replicas);
    else
        cJSON_AddNullToObject(root, "replicas");
    cJSON_AddStringToObject(root, "bottleneck",
                            ecf_bottleneck_name(e->bottleneck));
    o = cJSON_AddObjectToObject(root, "data");
    ecf_render_json_add_num(o, "required_mbytes_s", e->data_rate_required_mbytes_s, 2);
    ecf_render_json_add_num(o, "available_mbytes_s", e->data_rate_available_mbytes_s,
                     2);
    cJSON_AddStringToObject(o, "source", e->data_source);
    ecf_render_json_add_num(o, "dataset_gb", e->storage_gb, 3);
    ecf_render_json_add_num(o, "capacity_gb", e->storage_capacity_gb, 3);
    ecf_render_json_add_num(o, "provisioned_mbytes_s", e->storage_mbytes_s, 3);
    ecf_render_json_add_num(o, "decode_slowdown", e->decode_slowdown, 3);
    o = cJSON_AddObjectToObject(root, "host");
    ecf_render_json_add_num(o, "ram_needed_gib", e->host_ram_needed_gib, 2);
    ecf_render_json_add_num(o, "ram_available_gib", e->host_ram_available_gib, 2);
    ecf_render_json_add_num(o, "vcpus_per_accelerator", e->vcpus_per_accel, 2);
    ecf_render_json_add_num(o, "vcpus_per_accelerator_needed",
                     e->vcpus_per_accel_needed, 2);
    if (price) {
        o = cJSON_AddObjectToObject(root, "cost");
        ecf_render_json_add_location(o, region);
        ecf_render_json_add_num(o, "ondemand_usd_per_hour",
                         node_rate(price, e) * e->nodes, 4);
        add_or_null(o, "total_usd",
                    node_rate(price, e) * e->nodes * e->time_hours, 2,
                    e->fits && e->time_hours > 0);
        /* a burstable type's: included in the two above (additive) */
        if (e->burst_baseline > 0)
            ecf_render_json_add_num(o, "burst_surcharge_usd_per_hour",
                                    e->burst_surcharge_usd_per_hour *
                                        e->nodes,
                                    4);
    } else {
        cJSON_AddNullToObject(root, "cost");
    }
    o = cJSON_AddObjectToObject(root, "stack");
    cJSON_AddStringToObject(o, "framework", ecf_framework_name(w->framework));
    if (w->task == ECF_TASK_INFER)
        cJSON_AddStringToObject(o, "engine", ecf_engine_name(sv->engine));
    else
        cJSON_AddNullToObject(o, "engine");
    cJSON_AddStringToObject(o, "platform", sv->platform);
    cJSON_AddStringToObject(o, "status", stack_status[sv->status]);
    cJSON_AddStringToObject(o, "reason", sv->why);
    cJSON_AddStringToObject(o, "source", sv->source ? sv->source : "");
    {
        /* docs/estimation.md "Ranges": beside the figures above */
        ecf_ranges rg;
        estimate_ranges(&rg, e, m, w, in, price);
        ecf_rr_json_ranges_tree(root, &rg);
    }
    arr = cJSON_AddArrayToObject(root, "warnings");
    for (i = 0; i < e->n_warnings; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(e->warnings[i]));
    arr = cJSON_AddArrayToObject(root, "assumptions");
    for (i = 0; i < e->n_assumptions; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(e->assumptions[i]));
    if (explain)
        ecf_rr_json_explain(root, e);
    return cli_fields_print(stdout, root, fields, "estimate");
}

static const struct option longopts[] = {
    CLI_WORKLOAD_LONGOPTS,
    {"instance", required_argument, NULL, 'i'},
    {"nodes", required_argument, NULL, 'n'},
    {"region", required_argument, NULL, 'r'},
    {"catalog", required_argument, NULL, 'c'},
    {"output", required_argument, NULL, 'o'},
    {"output-file", required_argument, NULL, 'O'},
    {"fields", required_argument, NULL, 'F'},
    {"explain", no_argument, NULL, 'X'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};
static const cli_short shorts[] = {
    {'m', CLI_WL_MODEL}, {'t', CLI_WL_TASK}, {0, 0}};
const cli_flagset cli_flags_estimate = {longopts, ":hm:t:i:n:r:c:o:",
                                        shorts};

int cmd_estimate(int argc, char **argv)
{
    ecf_err err = ECF_ERR_INIT;
    cli_workload wl = CLI_WORKLOAD_INIT;
    cli_catalog_opts copts = {NULL};
    cli_output out = CLI_OUT_TABLE;
    ecf_catalog *cat = NULL;
    const char *cat_label = "embedded";
    const ecf_instance *in;
    const ecf_price *price = NULL;
    const char *type = NULL, *region = NULL, *output_file = NULL;
    ecf_model model;
    ecf_estimate est;
    ecf_stacks *stacks = NULL;
    ecf_stack_verdict sv;
    int c, nodes = 1, status = 0, r;
    bool explain = false, fields_given = false;
    cli_fields fields;

    optind = 0;
    opterr = 0;
    wl.default_framework = cli_config_get()->framework;
    while ((c = getopt_long(argc, argv, cli_flags_estimate.optstring,
                            longopts, NULL)) != -1) {
        c = cli_short_id(&cli_flags_estimate, c, NULL);
        r = ecf_workload_option(&wl, c, optarg, &err);
        if (r < 0)
            return fail(&err);
        if (r > 0)
            continue;
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case 'i':
            type = optarg;
            break;
        case 'n':
            if (ecf_parse_int(&nodes, "--nodes", optarg, 1, 4096, &err) < 0)
                return fail(&err);
            break;
        case 'r':
            region = optarg;
            break;
        case 'c':
            copts.path = optarg;
            break;
        case 'o':
            if (cli_parse_output(&out, optarg,
                                 CLI_OUT_BIT(CLI_OUT_TABLE) |
                                     CLI_OUT_BIT(CLI_OUT_JSON),
                                 &err))
                return fail(&err);
            break;
        case 'O':
            output_file = optarg;
            break;
        case 'F':
            if (cli_fields_parse(&fields, optarg, &err) != 0)
                return fail(&err);
            fields_given = true;
            break;
        case 'X':
            explain = true;
            break;
        default:
            return cli_bad_option("estimate", c, argc, argv, longopts);
        }
    }
    if (optind < argc)
        return cli_usage_error("estimate", "unexpected argument '%s'",
                               argv[optind]);
    if (ecf_workload_finish(&wl, &model, true, &err) < 0)
        return fail(&err);
    if (!type)
        return cli_usage_error("estimate",
                               "missing --instance TYPE (e.g. --instance "
                               "g5.xlarge)");
    if (fields_given && out != CLI_OUT_JSON)
        return cli_usage_error("estimate", "--fields: selects from --output "
                                           "json only");
    if (output_file && cli_output_begin(output_file, &err) != 0)
        return cli_fail(&err);
    if (cli_open_catalog(&cat, &copts, &cat_label, &err) != 0)
        return cli_fail(&err);
    in = ecf_catalog_find(cat, type);
    if (!in) {
        size_t n = ecf_catalog_count(cat), i;
        const char **names = ecf_xcalloc(n ? n : 1, sizeof(*names));
        const char *sugg[1];
        for (i = 0; i < n; i++)
            names[i] = ecf_catalog_at(cat, i)->type;
        if (ecf_parse_suggest(sugg, 1, type, names, n) == 1)
            status = cli_usage_error("estimate",
                                     "--instance: unknown instance type '%s' "
                                     "(did you mean %s?)",
                                     type, sugg[0]);
        else
            status = cli_usage_error(
                "estimate",
                "--instance: unknown instance type '%s' (see 'ec2fit list')",
                type);
        free(names);
        goto out;
    }
    if (region) {
        if (ecf_region_check(cat, region, cli_region_origin(region),
                             &err) != 0) {
            status = fail(&err);
            goto out;
        }
    } else if (cli_default_region_strict(&region, &err) != 0) {
        ecf_err_prefix(&err, "estimate");
        status = cli_fail(&err);
        goto out;
    }
    price = ecf_instance_price(in, region);
    if (ecf_estimate_run(&est, &model, &wl.w, in, nodes, &err) < 0) {
        status = fail(&err);
        goto out;
    }
    if (ecf_stacks_embedded(&stacks, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }
    ecf_stacks_resolve(&sv, stacks, ecf_stacks_platform(stacks, in), &model,
                       &wl.w);
    if (out == CLI_OUT_JSON &&
        print_json(&est, &model, &wl.w, in, price, region, &sv, explain,
                   fields_given ? &fields : NULL, cat, cat_label) != 0) {
        status = 2; /* --fields: an unknown field, nothing printed */
        goto out;
    }
    if (out != CLI_OUT_JSON)
        print_table(&est, &model, &wl.w, in, price, region, &sv, explain);
    status = est.fits ? 0 : 3;
out:
    ecf_stacks_free(stacks);
    ecf_catalog_free(cat);
    return status;
}
