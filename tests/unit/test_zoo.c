/*
 * test_zoo.c - the embedded model zoo, lookups and suggestions, parameter
 * counting, --params defaults and Hugging Face config import (fixtures in
 * tests/fixtures/hf/, written from the public config.json files).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/buf.h"
#include "ec2fit/zoo.h"

static int setup(void **state)
{
    ecf_zoo *zoo = NULL;
    ecf_err err = ECF_ERR_INIT;
    if (ecf_zoo_embedded(&zoo, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    *state = zoo;
    return 0;
}

static int teardown(void **state)
{
    ecf_zoo_free(*state);
    return 0;
}

static void test_zoo__has_every_model_the_issue_lists(void **state)
{
    static const char *const names[] = {"resnet18",
                                        "resnet50",
                                        "resnet101",
                                        "resnet152",
                                        "mobilenet_v2",
                                        "efficientnet_b0",
                                        "efficientnet_b7",
                                        "vit_b_16",
                                        "vit_l_16",
                                        "bert-base",
                                        "bert-large",
                                        "distilbert",
                                        "roberta-base",
                                        "gpt2",
                                        "gpt2-xl",
                                        "llama-2-7b",
                                        "llama-2-13b",
                                        "llama-2-70b",
                                        "llama-3.1-8b",
                                        "llama-3.1-70b",
                                        "llama-3.1-405b",
                                        "mistral-7b",
                                        "mixtral-8x7b",
                                        "qwen2.5-7b",
                                        "qwen2.5-72b",
                                        "whisper-large-v3",
                                        "stable-diffusion-1.5",
                                        "sdxl"};
    const ecf_zoo *zoo = *state;
    size_t i;

    assert_true(ecf_zoo_count(zoo) >= 30);
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const ecf_model *m = ecf_zoo_find(zoo, names[i]);
        if (!m)
            fail_msg("missing %s", names[i]);
        assert_true(m->params > 0);
        assert_true(m->source[0] != '\0');
        assert_true(m->default_batch > 0);
    }
    assert_null(ecf_zoo_at(zoo, ecf_zoo_count(zoo)));
}

static void test_zoo__find_ignores_case_and_separators(void **state)
{
    const ecf_zoo *zoo = *state;
    const ecf_model *m = ecf_zoo_find(zoo, "llama-3.1-8b");
    assert_non_null(m);
    assert_ptr_equal(ecf_zoo_find(zoo, "Llama3.1-8B"), m);
    assert_ptr_equal(ecf_zoo_find(zoo, "LLAMA_3.1_8B"), m);
    assert_ptr_equal(ecf_zoo_find(zoo, "meta-llama-3.1-8b"), m); /* alias */
    assert_string_equal(ecf_zoo_find(zoo, "ResNet-50")->name, "resnet50");
    assert_string_equal(ecf_zoo_find(zoo, "octocoder")->name, "starcoder");
    assert_null(ecf_zoo_find(zoo, "resnet5"));
    assert_null(ecf_zoo_find(zoo, ""));
    assert_null(ecf_zoo_find(zoo, "---"));
}

static void test_zoo__suggests_close_names(void **state)
{
    const char *s[3];
    size_t n = ecf_zoo_suggest(s, 3, *state, "resnet5");
    assert_true(n >= 1);
    assert_string_equal(s[0], "resnet50");
    n = ecf_zoo_suggest(s, 3, *state, "mistral7b");
    assert_true(n >= 1);
    assert_string_equal(s[0], "mistral-7b");
    assert_int_equal(ecf_zoo_suggest(s, 3, *state, "zzzzzzzzzzzz"), 0);
}

static void test_zoo__torchvision_facts(void **state)
{
    /* calibration set: torchvision num_params and _ops (GMACs, x2) */
    const ecf_zoo *zoo = *state;
    const ecf_model *m = ecf_zoo_find(zoo, "resnet50");
    assert_float_equal(m->params, 25557032, 0.5);
    assert_float_equal(m->fwd_gflops_per_sample, 2 * 4.089, 1e-9);
    assert_int_equal(m->kind, ECF_KIND_CNN);
    m = ecf_zoo_find(zoo, "vit_l_16");
    assert_float_equal(m->params, 304326632, 0.5);
    assert_float_equal(m->fwd_gflops_per_sample, 2 * 61.555, 1e-9);
    m = ecf_zoo_find(zoo, "efficientnet_b0");
    assert_float_equal(m->fwd_gflops_per_sample, 2 * 0.386, 1e-9);
}

static void check_arch(const ecf_zoo *zoo,
                       const char *name,
                       int hidden,
                       int layers,
                       int heads,
                       int kv,
                       int vocab,
                       int ctx)
{
    const ecf_model *m = ecf_zoo_find(zoo, name);
    assert_non_null(m);
    assert_int_equal(m->hidden, hidden);
    assert_int_equal(m->layers, layers);
    assert_int_equal(m->heads, heads);
    assert_int_equal(m->kv_heads, kv);
    assert_int_equal(m->vocab, vocab);
    if (ctx)
        assert_int_equal(m->max_context, ctx);
}

static void test_zoo__llama_architectures_match_the_model_cards(void **state)
{
    /* calibration rows fact-*-arch (model cards / sku_list.py) */
    const ecf_zoo *zoo = *state;
    check_arch(zoo, "llama-2-7b", 4096, 32, 32, 32, 32000, 4096);
    check_arch(zoo, "llama-2-13b", 5120, 40, 40, 40, 32000, 4096);
    check_arch(zoo, "llama-2-70b", 8192, 80, 64, 8, 32000, 4096);
    check_arch(zoo, "llama-3.1-8b", 4096, 32, 32, 8, 128256, 0);
    check_arch(zoo, "llama-3.1-70b", 8192, 80, 64, 8, 128256, 0);
    check_arch(zoo, "llama-3.1-405b", 16384, 126, 128, 8, 128256, 0);
    check_arch(zoo, "mistral-7b", 4096, 32, 32, 8, 32000, 0);
    assert_int_equal(ecf_zoo_find(zoo, "mistral-7b")->intermediate, 14336);
}

static void test_zoo__mixtral_active_params(void **state)
{
    /* Mixtral paper: 47B total, 13B active per token */
    const ecf_model *m = ecf_zoo_find(*state, "mixtral-8x7b");
    assert_int_equal(m->kind, ECF_KIND_MOE);
    assert_int_equal(m->experts, 8);
    assert_int_equal(m->experts_per_tok, 2);
    assert_true(fabs(m->params / 47e9 - 1) < 0.01);
    assert_true(fabs(m->active_params / 13e9 - 1) < 0.01);
}

static void test_zoo__zoo_counts_agree_with_the_formula(void **state)
{
    /* The stored counts of Llama-style models equal the architecture
     * formula exactly (they were derived the same way from config.json). */
    const ecf_model *m = ecf_zoo_find(*state, "llama-2-70b");
    assert_float_equal(ecf_model_transformer_params(m, ECF_TF_GATED_MLP, NULL),
                       68976648192.0, 0.5);
    m = ecf_zoo_find(*state, "qwen2.5-72b");
    assert_float_equal(ecf_model_transformer_params(
                           m, ECF_TF_GATED_MLP | ECF_TF_QKV_BIAS, NULL),
                       72706203648.0, 0.5);
}

static void test_zoo__transformer_params_by_hand(void **state)
{
    /* L=2, h=8, heads=2 (head_dim 4), kv=1, I=16, V=10, gated, untied:
     *   embeddings 10*8 = 80, LM head 80
     *   attention q 8*8 + k,v 2*8*4 + o 8*8 = 64+64+64 = 192
     *   MLP 3*8*16 = 384, norms 2*8 = 16  -> 592 per layer, x2 = 1184
     *   final norm 8                      -> total 1352 */
    ecf_model m;
    double active = 0;
    (void)state;
    memset(&m, 0, sizeof(m));
    m.layers = 2;
    m.hidden = 8;
    m.heads = 2;
    m.kv_heads = 1;
    m.intermediate = 16;
    m.vocab = 10;
    assert_float_equal(
        ecf_model_transformer_params(&m, ECF_TF_GATED_MLP, &active), 1352, 0);
    assert_float_equal(active, 1352, 0);
    /* MoE with 4 experts, top-1: MLP 4*384 + router 8*4 = 1568 per layer;
     * total = 1352 + 2*(1568-384) = 3720; active = 3720 - 2*(1536-384) =
     * 1416 (the router always runs) */
    m.experts = 4;
    m.experts_per_tok = 1;
    assert_float_equal(
        ecf_model_transformer_params(&m, ECF_TF_GATED_MLP, &active), 3720, 0);
    assert_float_equal(active, 1416, 0);
}

static void load_hf(ecf_model *m, const char *file, int want_rc, ecf_err *err)
{
    char path[512];
    ecf_buf buf = ECF_BUF_INIT;
    snprintf(path, sizeof(path), "%s/hf/%s", ECF_FIXTURES, file);
    assert_int_equal(ecf_buf_read_file(&buf, path, 1 << 20, err), 0);
    assert_int_equal(ecf_model_from_hf_config(m, buf.data, buf.len, file, err),
                     want_rc);
    ecf_buf_dispose(&buf);
}

static void within_1pct(double got, double published)
{
    if (fabs(got / published - 1.0) > 0.01)
        fail_msg("%.0f is not within 1%% of %.0f", got, published);
}

static void test_zoo__hf_configs_give_published_parameter_counts(void **state)
{
    ecf_model m;
    ecf_err err = ECF_ERR_INIT;
    (void)state;

    /* Published counts: model cards / HF "Model size" */
    load_hf(&m, "llama-3.1-8b.json", 0, &err);
    within_1pct(m.params, 8.03e9); /* exact: 8,030,261,248 */
    assert_float_equal(m.params, 8030261248.0, 0.5);
    assert_int_equal(m.kind, ECF_KIND_DECODER);
    assert_int_equal(m.kv_heads, 8);
    assert_int_equal(m.max_context, 131072);

    load_hf(&m, "mistral-7b-v0.1.json", 0, &err);
    within_1pct(m.params, 7.24e9); /* 7,241,732,096 */

    load_hf(&m, "mixtral-8x7b-v0.1.json", 0, &err);
    within_1pct(m.params, 46.7e9);        /* 46,702,792,704 */
    within_1pct(m.active_params, 12.9e9); /* paper: "13B active" */
    assert_int_equal(m.kind, ECF_KIND_MOE);

    load_hf(&m, "qwen2.5-7b.json", 0, &err);
    within_1pct(m.params, 7.61e9); /* model card: 7.61B */

    load_hf(&m, "gpt2.json", 0, &err);
    within_1pct(m.params, 124e6);              /* 124,439,808 */
    assert_int_equal(m.intermediate, 4 * 768); /* n_inner absent */
    assert_int_equal(m.max_context, 1024);

    load_hf(&m, "bert-base-uncased.json", 0, &err);
    within_1pct(m.params, 109.48e6); /* 109,482,240 (published "110M") */
    assert_int_equal(m.kind, ECF_KIND_ENCODER);
}

static void test_zoo__hf_newer_architectures(void **state)
{
    ecf_model m;
    ecf_err err = ECF_ERR_INIT;
    (void)state;

    /* Gemma 2 report (arXiv 2408.00118) Table 1, 9B: 917,504,000
     * embedding + 8,324,201,984 non-embedding parameters: exact. */
    load_hf(&m, "gemma-2-9b.json", 0, &err);
    assert_float_equal(m.params, 917504000.0 + 8324201984.0, 0.5);
    assert_int_equal(m.head_dim, 256);
    assert_true(m.tie_embeddings); /* Gemma2Config default */

    /* Gemma 3 report Table 1, 27B: 417M vision encoder + 1,416M embedding
     * + 25,600M non-embedding = 27.43B; text_config omits vocab_size and
     * max_position_embeddings (Gemma3TextConfig defaults 262208, 131072) */
    load_hf(&m, "gemma-3-27b-it.json", 0, &err);
    within_1pct(m.params, 417e6 + 1416e6 + 25600e6);
    assert_int_equal(m.vocab, 262208);
    assert_int_equal(m.max_context, 131072);
    assert_int_equal(m.layers, 62);

    /* Qwen3-8B model card: 8.2B total, 6.95B non-embedding */
    load_hf(&m, "qwen3-8b.json", 0, &err);
    within_1pct(m.params, 8.2e9);
    within_1pct(m.params - 2.0 * 151936 * 4096, 6.95e9);

    /* Qwen3-30B-A3B model card: 30.5B total, 3.3B activated, 128 experts,
     * 8 activated */
    load_hf(&m, "qwen3-30b-a3b.json", 0, &err);
    assert_int_equal(m.kind, ECF_KIND_MOE);
    assert_int_equal(m.experts, 128);
    assert_int_equal(m.experts_per_tok, 8);
    assert_int_equal(m.intermediate, 768);
    within_1pct(m.params, 30.5e9);
    within_1pct(m.params - 2.0 * 151936 * 2048, 29.9e9); /* non-embedding */
    /* the card's "3.3B" activated is given to two figures: 3,353,032,704
     * by the formula (attention, router, 8 experts, embeddings) */
    assert_float_equal(m.active_params, 3353032704.0, 0.5);
    assert_true(m.active_params >= 3.25e9 && m.active_params < 3.36e9);

    /* Phi-3 report (arXiv 2404.14219): phi-3-mini 3.8B; phi-4: 14.7B on
     * huggingface.co/microsoft/phi-4 (the report rounds to 14B) */
    load_hf(&m, "phi-3-mini-4k-instruct.json", 0, &err);
    within_1pct(m.params, 3.8e9);
    load_hf(&m, "phi-4.json", 0, &err);
    within_1pct(m.params, 14.7e9);
    assert_int_equal(m.kv_heads, 10);

    /* DeepSeek-V3 report (arXiv 2412.19437): 671B total; README_WEIGHTS:
     * 36.6B activated in the main model, which leaves out the 0.93B input
     * embedding our active count (like every model's) includes. */
    load_hf(&m, "deepseek-v3.json", 0, &err);
    assert_int_equal(m.kind, ECF_KIND_MOE);
    within_1pct(m.params, 671e9);
    within_1pct(m.active_params - 129280.0 * 7168, 36.6e9);
    assert_int_equal(m.experts, 256);
    assert_int_equal(m.experts_per_tok, 8);
    assert_int_equal(m.intermediate, 2048);
    /* MLA: the cache is kv_lora_rank + qk_rope_head_dim per token per
     * layer, 61 x (512 + 64) x 2 bytes = 70,272 bytes/token at bf16, not
     * 2 x 61 x 128 heads x 192 */
    assert_int_equal(m.kv_dim_per_layer, 512 + 64);
    assert_float_equal(ecf_model_kv_elems_per_token(&m) * 2.0, 70272.0, 0);
}

static void test_zoo__hf_multimodal_is_refused(void **state)
{
    ecf_model m;
    ecf_err err = ECF_ERR_INIT;
    const char *cfg = "{\"model_type\": \"llava\", \"text_config\": {}}";
    const char *vis = "{\"model_type\": \"qwen2\", \"vision_config\": {}}";
    (void)state;

    load_hf(&m, "mllama-3.2-11b-vision.json", ECF_EINVAL, &err);
    assert_string_equal(err.msg,
                        "mllama-3.2-11b-vision.json: model_type 'mllama' is a "
                        "vision/multimodal config, not supported yet (give "
                        "the text model's config.json, or --params)");
    assert_int_equal(
        ecf_model_from_hf_config(&m, cfg, strlen(cfg), "l.json", &err),
        ECF_EINVAL);
    assert_non_null(strstr(err.msg, "'llava' is a vision/multimodal"));
    assert_int_equal(
        ecf_model_from_hf_config(&m, vis, strlen(vis), "v.json", &err),
        ECF_EINVAL);
    assert_non_null(strstr(err.msg, "'qwen2' is a vision/multimodal"));
    assert_int_equal(ecf_model_from_hf_config(
                         &m, "{\"hidden_size\": 8, \"vision_config\": {}}",
                         strlen("{\"hidden_size\": 8, \"vision_config\": {}}"),
                         "n.json", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "n.json: a vision/multimodal config "
                                 "(\"vision_config\"), not supported yet");
}

static void test_zoo__new_zoo_models_match_their_configs(void **state)
{
    /* The zoo entries carry the same counts the HF import derives, and the
     * published figures (model cards / reports) within 1%. */
    static const struct {
        const char *name;
        double published, active;
    } want[] = {
        {"llama-3.2-1b", 1.23e9, 0},  {"llama-3.2-3b", 3.21e9, 0},
        {"llama-3.3-70b", 70.6e9, 0}, {"qwen3-8b", 8.2e9, 0},
        {"qwen3-32b", 32.8e9, 0},     {"qwen3-30b-a3b", 30.5e9, 0},
        {"deepseek-v3", 671e9, 0},    {"deepseek-r1", 671e9, 0},
        {"gemma-2-9b", 9.24e9, 0},    {"gemma-3-27b", 27.43e9, 0},
        {"phi-3-mini", 3.8e9, 0},     {"phi-4", 14.7e9, 0},
        {"sd3-medium", 7.66e9, 0},    {"flux-1-dev", 16.97e9, 0},
    };
    static const struct {
        const char *name, *file;
    } pairs[] = {
        {"deepseek-v3", "deepseek-v3.json"},
        {"gemma-2-9b", "gemma-2-9b.json"},
        {"gemma-3-27b", "gemma-3-27b-it.json"},
        {"qwen3-8b", "qwen3-8b.json"},
        {"qwen3-30b-a3b", "qwen3-30b-a3b.json"},
        {"phi-3-mini", "phi-3-mini-4k-instruct.json"},
        {"phi-4", "phi-4.json"},
    };
    ecf_err err = ECF_ERR_INIT;
    ecf_model hf;
    const ecf_model *m;
    size_t i;

    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        m = ecf_zoo_find(*state, want[i].name);
        assert_non_null(m);
        within_1pct(m->params, want[i].published);
        if (want[i].active > 0)
            within_1pct(m->active_params, want[i].active);
    }
    for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        m = ecf_zoo_find(*state, pairs[i].name);
        load_hf(&hf, pairs[i].file, 0, &err);
        assert_float_equal(m->params, hf.params, 0.5);
        assert_float_equal(m->active_params, hf.active_params, 0.5);
        assert_float_equal(ecf_model_kv_elems_per_token(m),
                           ecf_model_kv_elems_per_token(&hf), 0);
    }
    /* Llama 3.2/3.3 and Qwen3-32B have no fixture: the formula */
    m = ecf_zoo_find(*state, "llama-3.2-1b");
    assert_float_equal(ecf_model_transformer_params(m, ECF_TF_GATED_MLP, NULL),
                       m->params, 0.5);
    m = ecf_zoo_find(*state, "qwen3-32b");
    assert_float_equal(ecf_model_transformer_params(
                           m, ECF_TF_GATED_MLP | ECF_TF_QK_NORM, NULL),
                       m->params, 0.5);
    /* R1 is V3's architecture */
    assert_float_equal(ecf_zoo_find(*state, "deepseek-r1")->params,
                       ecf_zoo_find(*state, "deepseek-v3")->params, 0);
}

static void test_zoo__diffusion_steps_and_resolution(void **state)
{
    ecf_model m = *ecf_zoo_find(*state, "sd3-medium");
    ecf_err err = ECF_ERR_INIT;
    double gflops = m.fwd_gflops_per_sample;

    /* model cards: SD3 Medium 28 steps with CFG, FLUX.1-dev 50 steps,
     * guidance-distilled (one pass per step), both 1024x1024 */
    assert_int_equal(m.diffusion_steps, 28);
    assert_int_equal(m.image_size, 1024);
    assert_int_equal(ecf_model_cfg_passes(&m), 2);
    assert_int_equal(ecf_zoo_find(*state, "flux-1-dev")->diffusion_steps, 50);
    assert_int_equal(ecf_model_cfg_passes(ecf_zoo_find(*state, "flux-1-dev")),
                     1);
    /* 512x512 is a quarter of the pixels: a quarter of the compute */
    assert_int_equal(ecf_model_diffusion_scale(&m, 40, 512, 512, &err), 0);
    assert_int_equal(m.diffusion_steps, 40);
    assert_float_equal(m.fwd_gflops_per_sample, gflops / 4.0, 1e-9);
    assert_int_equal(m.image_size, 512);
    assert_int_equal(ecf_model_diffusion_scale(&m, 0, 1020, 512, &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "--resolution: each side must be a multiple "
                                 "of 8 from 64 to 8192, got 1020x512");
    m = *ecf_zoo_find(*state, "llama-3.1-8b");
    assert_int_equal(ecf_model_diffusion_scale(&m, 20, 0, 0, &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "--steps: only for diffusion models; "
                                 "llama-3.1-8b is a decoder");
}

static void test_zoo__hf_config_errors_name_the_file(void **state)
{
    ecf_model m;
    ecf_err err = ECF_ERR_INIT;
    (void)state;

    load_hf(&m, "malformed.json", ECF_EINVAL, &err);
    assert_non_null(strstr(err.msg, "malformed.json: invalid JSON at byte"));
    load_hf(&m, "missing-layers.json", ECF_EINVAL, &err);
    assert_string_equal(err.msg,
                        "missing-layers.json: missing \"num_hidden_layers\"");
    load_hf(&m, "unsupported-t5.json", ECF_EINVAL, &err);
    assert_string_equal(err.msg,
                        "unsupported-t5.json: unsupported model_type 't5' "
                        "(supported: llama, mistral, qwen2, mixtral, gpt2, "
                        "bert, roberta, distilbert, gemma2, gemma3, "
                        "gemma3_text, qwen3, qwen3_moe, phi3, deepseek_v3)");
    assert_int_equal(ecf_model_from_hf_config(&m, "[1]", 3, "x.json", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "x.json: expected a JSON object");
    assert_int_equal(
        ecf_model_from_hf_config(
            &m,
            "{\"model_type\":\"llama\",\"hidden_size\":4096,"
            "\"num_hidden_layers\":32,\"num_attention_heads\":30,"
            "\"intermediate_size\":11008,\"vocab_size\":32000}",
            strlen("{\"model_type\":\"llama\",\"hidden_size\":4096,"
                   "\"num_hidden_layers\":32,\"num_attention_heads\":30,"
                   "\"intermediate_size\":11008,\"vocab_size\":32000}"),
            "odd.json", &err),
        ECF_EINVAL);
    assert_string_equal(err.msg,
                        "odd.json: hidden size 4096 is not a multiple of 30 "
                        "heads");
}

static void test_zoo__params_defaults(void **state)
{
    ecf_model m;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    /* 7B: nearest shape h=4096, 32 heads; L = round((7e9 - 2*32000*4096) /
     * (12*4096^2)) = round(6737856000 / 201326592) = round(33.47) = 33 */
    assert_int_equal(ecf_model_from_params(&m, 7e9, &err), 0);
    assert_string_equal(m.name, "custom-7B");
    assert_int_equal(m.hidden, 4096);
    assert_int_equal(m.layers, 33);
    assert_int_equal(m.heads, 32);
    assert_int_equal(m.kv_heads, 32);
    assert_int_equal(m.intermediate, 11008); /* ceil(8*4096/3/256)*256 */
    assert_float_equal(m.params, 7e9, 0);
    assert_int_equal(m.kind, ECF_KIND_DECODER);
    assert_int_equal(ecf_model_from_params(&m, 100, &err), ECF_EINVAL);
    assert_string_equal(err.msg, "--params: expected a count from 1M to 10T");
}

static void test_zoo__loader_rejects_bad_files(void **state)
{
    ecf_zoo *zoo = NULL;
    ecf_err err = ECF_ERR_INIT;
    const char *dup =
        "{\"schema_version\":1,\"models\":["
        "{\"name\":\"a-1\",\"kind\":\"cnn\",\"params\":1e6,\"fwd_gflops\":1,"
        "\"act_mib_per_sample\":1,\"input_bytes\":1,\"default_batch\":1,"
        "\"source\":\"s\"},"
        "{\"name\":\"A_1\",\"kind\":\"cnn\",\"params\":1e6,\"fwd_gflops\":1,"
        "\"act_mib_per_sample\":1,\"input_bytes\":1,\"default_batch\":1,"
        "\"source\":\"s\"}]}";
    const char *kind =
        "{\"schema_version\":1,\"models\":[{\"name\":\"x\",\"kind\":\"rnn\","
        "\"params\":1e6,\"input_bytes\":1,\"default_batch\":1,"
        "\"source\":\"s\"}]}";
    (void)state;

    /* the offset cJSON stops at: the '}' where a value was expected */
    assert_int_equal(ecf_zoo_load_buffer(&zoo, "{\"a\":}", 6, "m.json", &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "m.json: invalid JSON at byte offset 5");
    assert_null(zoo);
    assert_int_equal(
        ecf_zoo_load_buffer(&zoo, "{\"schema_version\":2}", 20, "m.json", &err),
        ECF_EPARSE);
    assert_string_equal(err.msg, "m.json: \"schema_version\": expected 1");
    assert_int_equal(
        ecf_zoo_load_buffer(&zoo, dup, strlen(dup), "m.json", &err),
        ECF_EPARSE);
    assert_string_equal(err.msg, "m.json: 'a-1' (a-1) and 'A_1' (A_1) name "
                                 "the same model");
    assert_int_equal(
        ecf_zoo_load_buffer(&zoo, kind, strlen(kind), "m.json", &err),
        ECF_EPARSE);
    assert_string_equal(err.msg,
                        "m.json: model 'x': \"kind\": unknown kind 'rnn' "
                        "(expected cnn, vit, encoder, decoder, moe, speech or "
                        "diffusion)");
    assert_null(zoo);
}

/* Limits and document checks (docs/security.md): the size cap is checked
 * before parsing; duplicate keys, invalid UTF-8 and trailing data are
 * rejected in both the zoo and the HF config import. */
static void test_zoo__rejects_over_limit_and_duplicates(void **state)
{
    ecf_zoo *zoo = NULL;
    ecf_model m;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_zoo_load_buffer(&zoo, "{}", ECF_ZOO_MAX_BYTES + 1u,
                                         "big", &err),
                     ECF_EINVAL);
    assert_null(zoo);
    assert_int_equal(ecf_zoo_load_buffer(
                         &zoo, "{\"schema_version\": 1, \"models\": [], "
                               "\"models\": []}",
                         49, "z.json", &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "z.json: duplicate key \"models\"");
    assert_int_equal(ecf_model_from_hf_config(&m, "{}",
                                              ECF_HF_CONFIG_MAX_BYTES + 1u,
                                              "c.json", &err),
                     ECF_EINVAL);
    assert_int_equal(ecf_model_from_hf_config(
                         &m, "{\"a\": {\"b\": 1, \"b\": 2}}", 23, "c.json",
                         &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "c.json: a: duplicate key \"b\"");
    assert_int_equal(ecf_model_from_hf_config(&m, "{\"x\": \"\xc0\xaf\"}",
                                              11, "c.json", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "c.json: x: invalid UTF-8 in a string");
    assert_int_equal(ecf_model_from_hf_config(&m, "{} []", 5, "c.json", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "c.json: unexpected data after the JSON "
                                 "value at byte offset 3");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zoo__has_every_model_the_issue_lists),
        cmocka_unit_test(test_zoo__find_ignores_case_and_separators),
        cmocka_unit_test(test_zoo__suggests_close_names),
        cmocka_unit_test(test_zoo__torchvision_facts),
        cmocka_unit_test(test_zoo__llama_architectures_match_the_model_cards),
        cmocka_unit_test(test_zoo__mixtral_active_params),
        cmocka_unit_test(test_zoo__zoo_counts_agree_with_the_formula),
        cmocka_unit_test(test_zoo__transformer_params_by_hand),
        cmocka_unit_test(test_zoo__hf_configs_give_published_parameter_counts),
        cmocka_unit_test(test_zoo__hf_config_errors_name_the_file),
        cmocka_unit_test(test_zoo__hf_newer_architectures),
        cmocka_unit_test(test_zoo__hf_multimodal_is_refused),
        cmocka_unit_test(test_zoo__new_zoo_models_match_their_configs),
        cmocka_unit_test(test_zoo__diffusion_steps_and_resolution),
        cmocka_unit_test(test_zoo__params_defaults),
        cmocka_unit_test(test_zoo__loader_rejects_bad_files),
        cmocka_unit_test(test_zoo__rejects_over_limit_and_duplicates),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
