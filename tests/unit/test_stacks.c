/* test_stacks.c - data/stacks.json as embedded: the verdict (status,
 * reason, source) for the plans issue 13 names, the default serving
 * engine, and the loader's refusals. Catalog instances are real ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ec2fit/stacks.h"
#include "ec2fit/stacks_resolve.h"

#define FIT                                                                    \
    "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/"   \
    "model-architecture-fit.html"

static ecf_stacks *stacks;
static ecf_catalog *cat;
static ecf_zoo *zoo;

static int setup(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    (void)state;
    if (ecf_stacks_embedded(&stacks, &err) != 0 ||
        ecf_zoo_embedded(&zoo, &err) != 0)
        return -1;
    return ecf_catalog_load_buffer(&cat, data, len, "embedded", &err);
}

static int teardown(void **state)
{
    (void)state;
    ecf_stacks_free(stacks);
    ecf_zoo_free(zoo);
    ecf_catalog_free(cat);
    return 0;
}

static ecf_stack_verdict resolve(const char *type, const char *model,
                                 ecf_task task, int fw, int engine)
{
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_stack_verdict v;
    const ecf_instance *inst = ecf_catalog_find(cat, type);
    const ecf_model *m = ecf_zoo_find(zoo, model);
    assert_non_null(inst);
    assert_non_null(m);
    w.task = task;
    w.framework = fw;
    w.engine = engine;
    ecf_stacks_resolve(&v, stacks, ecf_stacks_platform(stacks, inst), m, &w);
    return v;
}

static void test_stacks__names(void **state)
{
    (void)state;
    assert_int_equal(ecf_framework_parse("tensorflow"), ECF_FW_TENSORFLOW);
    assert_int_equal(ecf_framework_parse("TensorFlow"), -1);
    assert_int_equal(ecf_engine_parse("tf-serving"), ECF_ENGINE_TF_SERVING);
    assert_int_equal(ecf_engine_parse("auto"), ECF_ENGINE_AUTO);
    assert_int_equal(ecf_engine_parse("onnx"), -1);
    assert_string_equal(ecf_engine_name(ECF_ENGINE_TRTLLM), "trtllm");
    assert_string_equal(ecf_framework_name(ECF_FW_JAX), "jax");
    assert_string_equal(ecf_stacks_as_of(stacks), "2026-12-01");
}

/* ResNet-50 training on Trainium: CNN training with torch-neuronx is a
 * "roadmap item" in the Neuron model-fit table, so it is not offered. */
static void test_stacks__cnn_training_on_trainium(void **state)
{
    ecf_stack_verdict v =
        resolve("trn1.32xlarge", "resnet50", ECF_TASK_TRAIN, ECF_FW_PYTORCH, 0);
    (void)state;
    assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
    assert_string_equal(v.platform, "AWS Trainium (trn1)");
    assert_string_equal(v.stack, "PyTorch");
    assert_string_equal(v.source, FIT);
    /* a decoder trains there with PyTorch */
    v = resolve("trn1.32xlarge", "llama-3.1-8b", ECF_TASK_TRAIN,
                ECF_FW_PYTORCH, 0);
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
    v = resolve("trn2.48xlarge", "bert-base", ECF_TASK_FINETUNE,
                ECF_FW_PYTORCH, 0);
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
}

static void test_stacks__tensorflow_never_trains_on_neuron(void **state)
{
    const char *const types[] = {"trn1.2xlarge", "trn1n.32xlarge",
                                 "trn2.48xlarge"};
    size_t i;
    (void)state;
    for (i = 0; i < 3; i++) {
        ecf_stack_verdict v = resolve(types[i], "bert-base", ECF_TASK_TRAIN,
                                      ECF_FW_TENSORFLOW, 0);
        assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
        assert_string_equal(v.stack, "TensorFlow");
        assert_string_equal(v.why,
                            "Neuron trains with PyTorch (torch-neuronx / NxD "
                            "Training) or JAX; TensorFlow Neuron is inference "
                            "only");
    }
    /* JAX on Neuron is beta: runs, with a note */
    assert_int_equal(resolve("trn1.32xlarge", "llama-3.1-8b", ECF_TASK_TRAIN,
                             ECF_FW_JAX, 0)
                         .status,
                     ECF_STACK_UNVERIFIED);
}

static void test_stacks__inferentia1_no_decoders(void **state)
{
    ecf_stack_verdict v = resolve("inf1.6xlarge", "llama-3.1-8b",
                                  ECF_TASK_INFER, ECF_FW_PYTORCH, 0);
    (void)state;
    assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
    assert_int_equal(v.engine, ECF_ENGINE_NEURON);
    assert_non_null(strstr(v.why, "neuron-cc"));
    /* the CNN and encoder models neuron-cc supports */
    assert_int_equal(resolve("inf1.xlarge", "resnet50", ECF_TASK_INFER,
                             ECF_FW_TENSORFLOW, 0)
                         .status,
                     ECF_STACK_SUPPORTED);
    assert_int_equal(resolve("inf1.xlarge", "distilbert", ECF_TASK_INFER,
                             ECF_FW_PYTORCH, 0)
                         .status,
                     ECF_STACK_SUPPORTED);
    /* Inferentia2 serves Llama through NxD Inference */
    v = resolve("inf2.8xlarge", "llama-3.1-8b", ECF_TASK_INFER,
                ECF_FW_PYTORCH, 0);
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
    assert_int_equal(v.engine, ECF_ENGINE_NEURON);
    /* ... and not through TensorRT-LLM */
    v = resolve("inf2.8xlarge", "llama-3.1-8b", ECF_TASK_INFER,
                ECF_FW_PYTORCH, ECF_ENGINE_TRTLLM);
    assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
    assert_string_equal(v.stack, "TensorRT-LLM");
}

/* Whisper on Inferentia2 runs through optimum-neuron's Whisper export: a
 * supported verdict citing that page, with no "roadmap item" note. TF
 * Neuron (encoders only) still refuses it. */
static void test_stacks__whisper_on_inferentia2(void **state)
{
    ecf_stack_verdict v = resolve("inf2.xlarge", "whisper-large-v3",
                                  ECF_TASK_INFER, ECF_FW_PYTORCH, 0);
    (void)state;
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
    assert_int_equal(v.engine, ECF_ENGINE_NEURON);
    assert_string_equal(v.source, "https://huggingface.co/docs/optimum-neuron/"
                                  "model_doc/transformers/whisper");
    assert_string_equal(v.why, "");
    v = resolve("trn1.2xlarge", "whisper-large-v3", ECF_TASK_BATCH,
                ECF_FW_PYTORCH, 0);
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
    v = resolve("inf2.xlarge", "whisper-large-v3", ECF_TASK_INFER,
                ECF_FW_TENSORFLOW, 0);
    assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
    assert_non_null(strstr(v.why, "roadmap"));
}

static void test_stacks__g4ad_never(void **state)
{
    const ecf_task tasks[] = {ECF_TASK_TRAIN, ECF_TASK_INFER, ECF_TASK_BATCH};
    int fw, t;
    (void)state;
    for (fw = 0; fw < ECF_FW_COUNT; fw++)
        for (t = 0; t < 3; t++) {
            ecf_stack_verdict v = resolve("g4ad.xlarge", "efficientnet_b0",
                                          tasks[t], fw, 0);
            assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
            assert_string_equal(v.platform, "AMD Radeon Pro V520 (g4ad)");
            assert_non_null(strstr(v.why, "no supported ML stack"));
        }
}

static void test_stacks__gaudi_pytorch_only(void **state)
{
    (void)state;
    assert_int_equal(resolve("dl1.24xlarge", "resnet50", ECF_TASK_TRAIN,
                             ECF_FW_PYTORCH, 0)
                         .status,
                     ECF_STACK_SUPPORTED);
    assert_int_equal(resolve("dl1.24xlarge", "resnet50", ECF_TASK_TRAIN,
                             ECF_FW_TENSORFLOW, 0)
                         .status,
                     ECF_STACK_UNSUPPORTED);
    assert_int_equal(resolve("dl1.24xlarge", "resnet50", ECF_TASK_TRAIN,
                             ECF_FW_JAX, 0)
                         .status,
                     ECF_STACK_UNSUPPORTED);
}

static void test_stacks__default_engines(void **state)
{
    ecf_stack_verdict v;
    (void)state;
    v = resolve("g5.xlarge", "llama-3.1-8b", ECF_TASK_INFER, ECF_FW_PYTORCH,
                0);
    assert_int_equal(v.engine, ECF_ENGINE_VLLM);
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
    v = resolve("g5.xlarge", "resnet50", ECF_TASK_INFER, ECF_FW_TENSORFLOW, 0);
    assert_int_equal(v.engine, ECF_ENGINE_TF_SERVING);
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
    /* a compiled graph on an NVIDIA GPU, Triton on a CPU host, whose
     * platform has no TensorRT */
    v = resolve("g5.xlarge", "resnet50", ECF_TASK_INFER, ECF_FW_PYTORCH, 0);
    assert_int_equal(v.engine, ECF_ENGINE_TENSORRT);
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
    v = resolve("c7i.large", "resnet50", ECF_TASK_INFER, ECF_FW_PYTORCH, 0);
    assert_int_equal(v.engine, ECF_ENGINE_TRITON);
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
    v = resolve("c7i.large", "resnet50", ECF_TASK_INFER, ECF_FW_PYTORCH,
                ECF_ENGINE_TENSORRT);
    assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
    /* speech: Hugging Face Transformers (an eager decoder loop) on a
     * GPU, Triton on a CPU host */
    v = resolve("g5.xlarge", "whisper-large-v3", ECF_TASK_INFER,
                ECF_FW_PYTORCH, 0);
    assert_int_equal(v.engine, ECF_ENGINE_HF);
    assert_int_equal(v.status, ECF_STACK_SUPPORTED);
    v = resolve("c7i.large", "whisper-large-v3", ECF_TASK_INFER,
                ECF_FW_PYTORCH, 0);
    assert_int_equal(v.engine, ECF_ENGINE_TRITON);
    /* TF Serving needs a TensorFlow model */
    v = resolve("c7i.large", "resnet50", ECF_TASK_INFER, ECF_FW_PYTORCH,
                ECF_ENGINE_TF_SERVING);
    assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
    assert_string_equal(v.why, "TF Serving serves TensorFlow SavedModels, "
                               "and the framework is PyTorch (--framework)");
    /* vLLM does not serve a CNN */
    v = resolve("g5.xlarge", "resnet50", ECF_TASK_INFER, ECF_FW_PYTORCH,
                ECF_ENGINE_VLLM);
    assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
    /* QLoRA is a PyTorch (bitsandbytes) path */
    v = resolve("g5.xlarge", "llama-3.1-8b", ECF_TASK_QLORA, ECF_FW_JAX, 0);
    assert_int_equal(v.status, ECF_STACK_UNSUPPORTED);
    /* CPUs: x86 and Graviton run the frameworks */
    assert_int_equal(resolve("c7g.large", "distilbert", ECF_TASK_INFER,
                             ECF_FW_PYTORCH, 0)
                         .status,
                     ECF_STACK_SUPPORTED);
}

static void expect_load_error(const char *doc, const char *msg)
{
    ecf_stacks *s = NULL;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_stacks_load_buffer(&s, doc, strlen(doc), "t.json",
                                            &err),
                     ECF_EPARSE);
    assert_null(s);
    assert_string_equal(err.msg, msg);
}

#define HEAD                                                                   \
    "{\"schema_version\":1,\"as_of\":\"2026-12-01\",\"source\":\"x\","     \
    "\"sources\":{\"a\":{\"url\":\"https://a\",\"as_of\":\"2026-12-01\"}}," \
    "\"platforms\":[{\"id\":\"nv\",\"name\":\"NVIDIA\",\"vendor\":"         \
    "\"NVIDIA\",\"source\":\"a\"}],"

#define ENTRY(platform, task, status, source)                                  \
    "\"support\":[{\"platforms\":[\"" platform "\"],\"stacks\":"            \
    "[\"pytorch\"],\"tasks\":[\"" task "\"],\"models\":[\"*\"],"            \
    "\"status\":\"" status "\"" source "}]}"

static void test_stacks__loader_refuses(void **state)
{
    (void)state;
    expect_load_error(HEAD ENTRY("nv", "trian", "supported",
                                 ",\"source\":\"a\""),
                      "t.json: support[0].tasks[0]: unknown task \"trian\"");
    expect_load_error(HEAD ENTRY("nv", "train", "supported", ""),
                      "t.json: support[0].source: expected the key of one "
                      "of \"sources\"");
    expect_load_error(HEAD ENTRY("nv", "train", "supported",
                                 ",\"source\":\"my notes\""),
                      "t.json: support[0].source: unknown source \"my "
                      "notes\"");
    expect_load_error(HEAD ENTRY("amd", "train", "supported",
                                 ",\"source\":\"a\""),
                      "t.json: support[0].platforms[0]: unknown platform "
                      "\"amd\"");
    expect_load_error(HEAD ENTRY("nv", "train", "unsupported",
                                 ",\"source\":\"a\""),
                      "t.json: support[0].why: an unsupported entry needs "
                      "its reason");
    expect_load_error("{\"schema_version\":1,\"as_of\":\"2026-12-01\","
                      "\"source\":\"x\",\"sources\":{\"a\":{\"url\":"
                      "\"notes.txt\",\"as_of\":\"2026-12-01\"}}}",
                      "t.json: sources.a.url: expected an http(s) URL");
    expect_load_error("{\"schema_version\":1,\"as_of\":\"2026-12-01\","
                      "\"source\":\"x\",\"sources\":{\"a\":{\"url\":"
                      "\"https://a\",\"as_of\":\"last year\"}}}",
                      "t.json: sources.a.as_of: expected a YYYY-MM-DD date");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stacks__names),
        cmocka_unit_test(test_stacks__cnn_training_on_trainium),
        cmocka_unit_test(test_stacks__tensorflow_never_trains_on_neuron),
        cmocka_unit_test(test_stacks__inferentia1_no_decoders),
        cmocka_unit_test(test_stacks__whisper_on_inferentia2),
        cmocka_unit_test(test_stacks__g4ad_never),
        cmocka_unit_test(test_stacks__gaudi_pytorch_only),
        cmocka_unit_test(test_stacks__default_engines),
        cmocka_unit_test(test_stacks__loader_refuses),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
