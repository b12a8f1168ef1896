/* test_kv_window.c - issue 24 point 5 on the embedded catalog and zoo:
 * weight-only int4 decode reads its real bytes on vLLM (Marlin), and the
 * local-attention layers of Gemma 2/3 and Mistral 7B v0.1 keep only their
 * window of KV cache, from data/models.json and from --model-config keys
 * (docs/estimation.md 4.3 "Sliding-window and chunked attention" and 5.5
 * "Weight-only int4"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "embedded_fx.h"

#define GIB 1073741824.0

static double kv_split(const ecf_estimate *e, int kv_heads)
{
    return e->tp_degree < kv_heads ? e->tp_degree : kv_heads;
}

/* (global x ctx + local x min(ctx, window)) / layers */
static void test_kv_window__context_per_layer(void **state)
{
    fx *f = *state;
    const ecf_model *g3 = fx_model(f, "gemma-3-27b");
    const ecf_model *g2 = fx_model(f, "gemma-2-9b");
    const ecf_model *mi = fx_model(f, "mistral-7b");
    const ecf_model *ll = fx_model(f, "llama-3.1-8b");

    assert_int_equal(g3->sliding_window, 1024);
    assert_int_equal(g3->sliding_layers, 52);
    assert_float_equal(ecf_model_kv_context(g3, 32000),
                       (10 * 32000.0 + 52 * 1024.0) / 62, 1e-9);
    assert_float_equal(ecf_model_kv_context(g3, 800), 800, 1e-12);
    assert_float_equal(ecf_model_kv_context(g2, 8192),
                       (21 * 8192.0 + 21 * 4096.0) / 42, 1e-9);
    assert_int_equal(mi->sliding_layers, 0); /* every layer */
    assert_float_equal(ecf_model_kv_context(mi, 32768), 4096, 1e-12);
    assert_float_equal(ecf_model_kv_context(ll, 32768), 32768, 1e-12);
}

/* recommend --model gemma-3-27b --task infer --input-tokens 32000: the KV
 * cache of one request is 2 x 62 x 16 x 128 x 2 B = 507,904 B per token of
 * whole-model context times (10 x held + 52 x 1024) / 62 tokens, and the
 * plan is one node, not ten p4d.24xlarge */
static void test_kv_window__gemma3_32k_counts_local_layers(void **state)
{
    fx *f = *state;
    const ecf_model *m = fx_model(f, "gemma-3-27b");
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    ecf_err err = ECF_ERR_INIT;
    double held, want;

    w.task = ECF_TASK_INFER;
    w.input_tokens = 32000;
    w.batch_size = 1;
    assert_int_equal(ecf_workload_resolve(&w, m, &err), 0);
    assert_float_equal(ecf_model_kv_elems_per_token(m) * 2, 507904, 1e-9);
    fx_est(&e, f, "gemma-3-27b", &w, "p4de.24xlarge", 1);
    assert_true(e.fits);
    /* vLLM's paged pool: the prompt and half the output on average */
    held = w.input_tokens + 0.5 * w.output_tokens;
    want = 507904.0 * (10 * held + 52 * 1024.0) / 62 / kv_split(&e, 16) /
           GIB;
    assert_float_equal(e.memory.kv_cache_gib, want, 1e-9);
    /* 5.3x less than the 62 full layers the zoo used to count */
    assert_true(e.memory.kv_cache_gib <
                507904.0 * held / kv_split(&e, 16) / GIB / 5);
    /* the minimum memory is weights + one request's window-aware cache:
     * it fits one 80 GB GPU's worth, so no 10-node plan is needed */
    assert_true(ecf_estimate_min_total_gib(m, &w) <
                (m->params * 2 + 507904.0 * 6100) / GIB);
}

/* --model-config: the window keys of Hugging Face configs */
static void cfg(ecf_model *m, const char *json)
{
    ecf_err err = ECF_ERR_INIT;
    if (ecf_model_from_hf_config(m, json, strlen(json), "cfg", &err) != 0)
        fail_msg("%s", err.msg);
}

#define DEC_KEYS(TYPE, LAYERS)                                                 \
    "{\"model_type\":\"" TYPE "\",\"hidden_size\":2048,"                       \
    "\"num_hidden_layers\":" #LAYERS ",\"num_attention_heads\":16,"           \
    "\"num_key_value_heads\":8,\"head_dim\":128,\"vocab_size\":32000,"         \
    "\"intermediate_size\":8192,\"max_position_embeddings\":32768"

static void test_kv_window__model_config_keys(void **state)
{
    ecf_model m;
    ecf_err err = ECF_ERR_INIT;
    static const char bad[] =
        DEC_KEYS("gemma3_text", 4) ",\"sliding_window\":512,"
                                   "\"layer_types\":[\"sliding_attention\"]}";
    (void)state;

    /* Gemma 3: every 6th layer global */
    cfg(&m, DEC_KEYS("gemma3_text", 62) ",\"sliding_window\":1024,"
                                        "\"sliding_window_pattern\":6}");
    assert_int_equal(m.sliding_window, 1024);
    assert_int_equal(m.sliding_layers, 52);
    /* Gemma 2: alternating, even layers local */
    cfg(&m, DEC_KEYS("gemma2", 42) ",\"sliding_window\":4096}");
    assert_int_equal(m.sliding_window, 4096);
    assert_int_equal(m.sliding_layers, 21);
    /* Mistral 7B v0.1 (llama-style keys in zoo.c): every layer */
    cfg(&m, DEC_KEYS("mistral", 32) ",\"sliding_window\":4096}");
    assert_int_equal(m.sliding_window, 4096);
    assert_int_equal(m.sliding_layers, 32);
    assert_float_equal(ecf_model_kv_context(&m, 32768), 4096, 1e-12);
    /* Mistral v0.2+: null window; Qwen: window given but switched off */
    cfg(&m, DEC_KEYS("mistral", 32) ",\"sliding_window\":null}");
    assert_int_equal(m.sliding_window, 0);
    cfg(&m, DEC_KEYS("qwen3", 36) ",\"sliding_window\":32768,"
                                  "\"use_sliding_window\":false}");
    assert_int_equal(m.sliding_window, 0);
    assert_float_equal(ecf_model_kv_context(&m, 100000), 100000, 1e-12);
    /* layer_types counts the local layers; chunked attention takes
     * attention_chunk_size as its window (Llama 4's 3 of 4 layers) */
    cfg(&m, DEC_KEYS("gemma3_text", 4)
            ",\"sliding_window\":512,\"layer_types\":[\"sliding_attention\","
            "\"full_attention\",\"sliding_attention\",\"full_attention\"]}");
    assert_int_equal(m.sliding_layers, 2);
    assert_int_equal(m.sliding_window, 512);
    cfg(&m, DEC_KEYS("qwen3", 4)
            ",\"attention_chunk_size\":8192,\"layer_types\":["
            "\"chunked_attention\",\"chunked_attention\","
            "\"chunked_attention\",\"full_attention\"]}");
    assert_int_equal(m.sliding_layers, 3);
    assert_int_equal(m.sliding_window, 8192);
    /* a layer_types list that does not match the layers is refused */
    assert_int_equal(ecf_model_from_hf_config(&m, bad, strlen(bad), "cfg",
                                              &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg,
                        "cfg: \"layer_types\": 1 entries for 4 layers");
}

/* recommend --model llama-3.1-70b --task infer --precision int4 --qps 1:
 * at batch 1 on vLLM a decode step reads the int4 weights at their real
 * 0.53125 B (4 bits + fp16 scale and zero per 128; the untied input
 * embedding is a lookup), within 1.15x of the weights it holds */
static void test_kv_window__int4_decode_reads_real_bytes(void **state)
{
    fx *f = *state;
    const ecf_model *m = fx_model(f, "llama-3.1-70b");
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    double held, tp;

    w.task = ECF_TASK_INFER;
    w.precision = ECF_PREC_INT4;
    w.precision_explicit = true;
    w.batch_size = 1;
    fx_est(&e, f, "llama-3.1-70b", &w, "g6e.12xlarge", 1);
    assert_true(e.serve.set);
    tp = e.tp_degree;
    held = m->params * 0.53125 / tp;
    assert_float_equal(e.serve.weight_bytes,
                       (m->params - (double)m->vocab * m->hidden) * 0.53125 /
                           tp,
                       1.0);
    assert_true(e.serve.weight_bytes <= 1.15 * held);
    fx_est(&e, f, "llama-3.1-70b", &w, "p4de.24xlarge", 1);
    assert_true(e.serve.weight_bytes <= 1.15 * m->params * 0.53125 /
                                             e.tp_degree);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kv_window__context_per_layer),
        cmocka_unit_test(test_kv_window__gemma3_32k_counts_local_layers),
        cmocka_unit_test(test_kv_window__model_config_keys),
        cmocka_unit_test(test_kv_window__int4_decode_reads_real_bytes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
