/*
 * render_serve_explain.c - `--explain` for a serving plan (recommend's
 * rank 1, estimate's plan): the engine and why, the terms of one step
 * (host time, dispatch, bytes read and their bandwidth time, compute,
 * all-reduce), TTFT's parts, TPOT, and what set the batch; text and JSON
 * (docs/estimation.md, "LLM serving").
 */
#include "render_explain.h"

#include <math.h>
#include <stdio.h>

#include "render_common.h"
#include "render_report.h"

/* JSON names of ecf_batch_limit (NULL: not computed). */
static const char *const limit_names[ECF_BATCH_LIMIT_COUNT] = {
    NULL,      "batch-size", "model-default", "memory",   "latency-ms",
    "ttft-ms", "tpot-ms",    "knee",          "max-batch", "throughput"};

static const char *limit_name(ecf_batch_limit l)
{
    return l >= 0 && l < ECF_BATCH_LIMIT_COUNT ? limit_names[l] : NULL;
}

/* One sentence on what set the batch. */
static void
limit_text(char *buf, size_t n, const ecf_estimate *e, const ecf_serve_terms *x)
{
    switch (x->limit) {
    case ECF_BATCH_LIMIT_EXPLICIT:
        snprintf(buf, n, "set by --batch-size");
        break;
    case ECF_BATCH_LIMIT_MODEL:
        snprintf(buf, n, "the model's batch (offline job)");
        break;
    case ECF_BATCH_LIMIT_MEMORY:
        snprintf(buf, n,
                 "%s: batch %d needs %.2f GiB per device with headroom, "
                 "%.2f available",
                 e->fits ? "memory limits it" : "does not fit", x->next_batch,
                 x->next_gib, e->memory.available_per_device_gib);
        break;
    case ECF_BATCH_LIMIT_LATENCY:
        snprintf(buf, n,
                 "the target limits it: batch %d takes %.1f ms per request, "
                 "over --latency-ms %g",
                 x->next_batch, x->next_ms, x->target_ms);
        break;
    case ECF_BATCH_LIMIT_TTFT:
        if (x->slo_default) {
            snprintf(buf, n,
                     "the default service level limits it: batch %d has a "
                     "%.1f ms TTFT, over %g ms",
                     x->next_batch, x->next_ms, x->target_ms);
            break;
        }
        snprintf(buf, n,
                 "the target limits it: batch %d has a %.1f ms TTFT, over "
                 "--ttft-ms %g",
                 x->next_batch, x->next_ms, x->target_ms);
        break;
    case ECF_BATCH_LIMIT_TPOT:
        if (x->slo_default) {
            snprintf(buf, n,
                     "the default service level limits it: batch %d takes "
                     "%.2f ms per output token, over %g ms",
                     x->next_batch, x->next_ms, x->target_ms);
            break;
        }
        snprintf(buf, n,
                 "the target limits it: batch %d takes %.2f ms per output "
                 "token, over --tpot-ms %g",
                 x->next_batch, x->next_ms, x->target_ms);
        break;
    case ECF_BATCH_LIMIT_KNEE:
        snprintf(buf, n,
                 "the default service level limits it (latency within 2x a "
                 "lone request's): batch %d takes %.1f ms per request, over "
                 "%.1f ms",
                 x->next_batch, x->next_ms, x->knee_ms);
        break;
    case ECF_BATCH_LIMIT_CAP:
        if (x->admit_limit > 0 && e->batch_size >= x->admit_limit)
            snprintf(buf, n, "the engine's admission limit (%d requests)",
                     x->admit_limit);
        else
            snprintf(buf, n, "the largest batch tried");
        break;
    case ECF_BATCH_LIMIT_THROUGHPUT:
        snprintf(buf, n,
                 "the cheapest per request within the service level: batch "
                 "%d serves fewer requests/s (%.1f ms per request)",
                 x->next_batch, x->next_ms);
        break;
    default:
        snprintf(buf, n, "-");
        break;
    }
}

void ecf_rr_print_kv_capacity(FILE *f, const ecf_estimate *e, const char *indent)
{
    char kv[32];

    if (e->memory.kv_capacity_tokens < 1) {
        fprintf(f,
                "%sKV capacity      none: the weights and workspace leave "
                "no room\n",
                indent);
        return;
    }
    ecf_rr_fmt_num(kv, sizeof(kv), floor(e->memory.kv_capacity_tokens), 0);
    fprintf(f,
            "%sKV capacity      %s tokens per replica beside the weights "
            "and workspace\n",
            indent, kv);
}

/* One roofline line of a decode step: its time, the bytes it reads, and
 * which side bounds it. */
static void roofline_line(FILE *f,
                          const char *label,
                          double ms,
                          double bytes,
                          const char *what,
                          double bw,
                          bool mem_bound,
                          int pp)
{
    fprintf(f, "  %-16s %.3f ms: %.2f GB of %s per device at %.0f GB/s, %s",
            label, ms, bytes / 1e9, what, bw,
            mem_bound ? "the reads outlast the FLOPs"
                      : "the FLOPs outlast the reads");
    if (pp > 1)
        fprintf(f, ", over %d stages", pp);
    fputc('\n', f);
}

/* LLM decode: the terms TPOT adds, one line each, then TPOT as their sum
 * (docs/estimation.md 5.4: GEMMs and attention are separate kernels with
 * their own rooflines; the host's launches replace them when slower). */
static void
print_decode_terms(FILE *f, const ecf_estimate *e, const ecf_serve_terms *x)
{
    double device = x->gemm_ms + x->attn_ms;

    roofline_line(f, "GEMMs", x->gemm_ms, x->weight_bytes, "weights",
                  x->bw_gbytes_s, x->gemm_mem_bound, e->pp_degree);
    roofline_line(f, "attention", x->attn_ms, x->kv_bytes, "KV cache",
                  x->bw_gbytes_s, x->attn_mem_bound, e->pp_degree);
    if (x->layer_dispatch_ms > 0)
        fprintf(f,
                "  launches         %.3f ms (%.2f ms per layer), %s the "
                "kernels' %.3f ms\n",
                x->dispatch_ms, x->layer_dispatch_ms,
                x->launch_bound ? "set the pace: slower than"
                                : "hidden behind",
                device);
    else
        fprintf(f, "  launches         none per layer (graph replay)\n");
    fprintf(f, "  all-reduce       %.3f ms\n", x->allreduce_ms);
    fprintf(f, "  host time        %.3f ms per step\n", x->step_host_ms);
    if (e->pp_degree > 1)
        fprintf(f, "  pipeline hops    %.3f ms (%d between stages)\n",
                x->hop_ms, e->pp_degree - 1);
    fprintf(f,
            "  others' prefill  %.3f ms per step (continuous batching)\n",
            x->interleave_ms);
    fprintf(f, "  TPOT             %.3f ms per output token = ",
            e->per_token_ms);
    if (x->launch_bound)
        fprintf(f, "%.3f", x->dispatch_ms);
    else
        fprintf(f, "%.3f + %.3f", x->gemm_ms, x->attn_ms);
    fprintf(f, " + %.3f + %.3f", x->allreduce_ms, x->step_host_ms);
    if (e->pp_degree > 1)
        fprintf(f, " + %.3f", x->hop_ms);
    fprintf(f, " + %.3f\n", x->interleave_ms);
}

void ecf_rr_print_serve_terms(FILE *f,
                          const ecf_estimate *e,
                          const char *type,
                          int nodes)
{
    const ecf_serve_terms *x = &e->serve;
    char lim[256];

    if (!x->set)
        return;
    fprintf(f,
            "\nServing terms for %s x %d (one replica, tp %d, pp %d, "
            "batch %d; one %s):\n",
            type, nodes, e->tp_degree, e->pp_degree, e->batch_size,
            x->llm ? "decode step" : "forward of the batch");
    fprintf(f, "  engine           %s: %s\n", e->engine, x->engine_why);
    if (x->llm)
        print_decode_terms(f, e, x);
    else {
        fprintf(f, "  dispatch         %.2f ms per forward call\n",
                x->fwd_overhead_ms);
        fprintf(f,
                "  reads            %.3f GB per device at %.0f GB/s = "
                "%.3f ms\n",
                x->weight_bytes / 1e9, x->bw_gbytes_s, x->memory_ms);
        fprintf(f, "  compute          %.3f ms\n", x->compute_ms);
        fprintf(f, "  all-reduce       %.3f ms\n", x->allreduce_ms);
    }
    if (x->llm) {
        fprintf(f,
                "  TTFT             %.1f ms = own prefill %.1f + join "
                "%.1f + queueing %.1f\n",
                e->ttft_ms, x->prefill_ms, x->join_ms, x->queue_ms);
        ecf_rr_print_kv_capacity(f, e, "  ");
    }
    limit_text(lim, sizeof(lim), e, x);
    fprintf(f, "  batch            %d %s: %s\n", e->batch_size,
            !x->llm              ? "per forward"
            : e->batch_size == 1 ? "request in flight"
                                 : "requests in flight",
            lim);
}

static void
num_or_null(cJSON *o, const char *key, double v, int dec, bool present)
{
    if (present)
        ecf_render_json_add_num(o, key, v, dec);
    else
        cJSON_AddNullToObject(o, key);
}

void ecf_rr_json_serve_terms(cJSON *o, const ecf_estimate *e)
{
    const ecf_serve_terms *x = &e->serve;
    const char *lim = limit_name(x->limit);
    cJSON *s = cJSON_AddObjectToObject(o, "serving_breakdown"), *t;
    bool next = x->next_batch > 0;

    cJSON_AddStringToObject(s, "engine", e->engine ? e->engine : "");
    cJSON_AddStringToObject(s, "engine_reason",
                            x->engine_why ? x->engine_why : "");
    cJSON_AddStringToObject(s, "step", x->llm ? "decode" : "forward");
    num_or_null(s, "host_ms_per_step", x->step_host_ms, 4, x->llm);
    num_or_null(s, "layer_dispatch_ms", x->layer_dispatch_ms, 4, x->llm);
    num_or_null(s, "dispatch_ms", x->dispatch_ms, 4, x->llm);
    num_or_null(s, "forward_overhead_ms", x->fwd_overhead_ms, 4, !x->llm);
    ecf_render_json_add_num(s, "read_gb", x->weight_bytes / 1e9, 4);
    num_or_null(s, "kv_read_gb", x->kv_bytes / 1e9, 4, x->llm);
    ecf_render_json_add_num(s, "bandwidth_gbytes_s", x->bw_gbytes_s, 2);
    ecf_render_json_add_num(s, "memory_ms", x->memory_ms, 4);
    ecf_render_json_add_num(s, "compute_ms", x->compute_ms, 4);
    ecf_render_json_add_num(s, "allreduce_ms", x->allreduce_ms, 4);
    num_or_null(s, "gemm_ms", x->gemm_ms, 4, x->llm);
    num_or_null(s, "attention_ms", x->attn_ms, 4, x->llm);
    if (x->llm) {
        cJSON_AddStringToObject(s, "gemm_bound",
                                x->gemm_mem_bound ? "memory" : "compute");
        cJSON_AddStringToObject(s, "attention_bound",
                                x->attn_mem_bound ? "memory" : "compute");
        cJSON_AddBoolToObject(s, "launch_bound", x->launch_bound);
    } else {
        cJSON_AddNullToObject(s, "gemm_bound");
        cJSON_AddNullToObject(s, "attention_bound");
        cJSON_AddNullToObject(s, "launch_bound");
    }
    num_or_null(s, "pipeline_hops_ms", x->hop_ms, 4, x->llm);
    num_or_null(s, "prefill_interleave_ms", x->interleave_ms, 4, x->llm);
    num_or_null(s, "tpot_ms", e->per_token_ms, 4, x->llm);
    if (x->llm) {
        t = cJSON_AddObjectToObject(s, "ttft");
        ecf_render_json_add_num(t, "prefill_ms", x->prefill_ms, 3);
        ecf_render_json_add_num(t, "join_ms", x->join_ms, 3);
        ecf_render_json_add_num(t, "queue_ms", x->queue_ms, 3);
        ecf_render_json_add_num(t, "total_ms", e->ttft_ms, 3);
    } else {
        cJSON_AddNullToObject(s, "ttft");
    }
    if (x->llm)
        cJSON_AddNumberToObject(s, "kv_capacity_tokens",
                                floor(e->memory.kv_capacity_tokens));
    else
        cJSON_AddNullToObject(s, "kv_capacity_tokens");
    cJSON_AddNumberToObject(s, "batch", e->batch_size);
    if (lim)
        cJSON_AddStringToObject(s, "batch_limited_by", lim);
    else
        cJSON_AddNullToObject(s, "batch_limited_by");
    num_or_null(s, "knee_ms", x->knee_ms, 3, x->knee_ms > 0);
    if (x->llm && x->slo_ttft_ms > 0) {
        t = cJSON_AddObjectToObject(s, "service_level");
        ecf_render_json_add_num(t, "ttft_ms", x->slo_ttft_ms, 3);
        ecf_render_json_add_num(t, "tpot_ms", x->slo_tpot_ms, 3);
        cJSON_AddNumberToObject(t, "admission_limit", x->admit_limit);
    } else {
        cJSON_AddNullToObject(s, "service_level");
    }
    num_or_null(s, "target_ms", x->target_ms, 3, x->target_ms > 0);
    if (next)
        cJSON_AddNumberToObject(s, "next_batch", x->next_batch);
    else
        cJSON_AddNullToObject(s, "next_batch");
    num_or_null(s, "next_batch_gib_per_device", x->next_gib, 3, next);
    num_or_null(s, "next_batch_ms", x->next_ms, 3, x->next_ms > 0);
}
