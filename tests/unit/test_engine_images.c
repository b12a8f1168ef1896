/* test_engine_images.c - data/engine_images.json: the embedded copy, the
 * lookup of an engine's pinned image for catalog types (NVIDIA Turing+ and
 * Volta, Neuron by SDK line, CPU, arm64 without an image), the pinned-tag
 * test, and every loader rejection with its exact message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/engine_images.h"

static ecf_catalog *cat;
static ecf_engine_images *imgs;

static int setup(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    (void)state;
    imgs = calloc(1, sizeof(*imgs));
    if (!imgs || ecf_engine_images_embedded(imgs, &err) != 0)
        return -1;
    return ecf_catalog_load_buffer(&cat, data, len, "embedded", &err);
}

static int teardown(void **state)
{
    (void)state;
    ecf_catalog_free(cat);
    free(imgs);
    return 0;
}

static const char *image(const char *engine, bool llm, const char *type)
{
    const ecf_instance *in = ecf_catalog_find(cat, type);
    const ecf_engine_image *im;
    assert_non_null(in);
    im = ecf_engine_images_for(imgs, engine, llm, in);
    return im ? im->image : NULL;
}

static void test_engine_images__embedded(void **state)
{
    (void)state;
    assert_string_equal(imgs->as_of, "2026-12-07");
    assert_int_equal(imgs->n_images, 7);
    for (size_t i = 0; i < imgs->n_images; i++) {
        assert_true(ecf_engine_image_pinned(imgs->images[i].image));
        assert_int_equal(imgs->images[i].port, 8000);
    }
}

static void test_engine_images__lookup(void **state)
{
    (void)state;
    assert_string_equal(image("vllm", true, "g6e.xlarge"),
                        "vllm/vllm-openai:v0.28.0");
    assert_string_equal(image("vllm", true, "p3.2xlarge"),
                        "vllm/vllm-openai:v0.28.0");
    assert_string_equal(image("tgi", true, "p5.48xlarge"),
                        "ghcr.io/huggingface/text-generation-inference:3.3.5");
    /* TGI lists no Volta; Triton 26.06 needs compute capability 7.5 */
    assert_null(image("tgi", true, "p3.2xlarge"));
    assert_string_equal(image("triton", false, "p3.2xlarge"),
                        "nvcr.io/nvidia/tritonserver:24.06-py3");
    assert_string_equal(image("triton", false, "g4dn.xlarge"),
                        "nvcr.io/nvidia/tritonserver:26.06-py3");
    assert_string_equal(image("triton", false, "c7i.large"),
                        "nvcr.io/nvidia/tritonserver:26.06-py3");
    /* arm64 CPU: no entry; Maxwell g3 and Kepler p2: none */
    assert_null(image("triton", false, "c7g.large"));
    assert_null(image("vllm", true, "g3.4xlarge"));
    assert_null(image("vllm", true, "p2.xlarge"));
    /* Neuron: the DLC by SDK line; no vLLM DLC for Inf1, none for
     * non-LLMs */
    assert_string_equal(image("neuron", true, "inf2.xlarge"),
                        "public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:"
                        "0.16.0-neuronx-py312-sdk2.31.1-ubuntu24.04");
    assert_string_equal(image("neuron", true, "trn2.48xlarge"),
                        "public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:"
                        "0.24.0.1.1.0-neuronx-py313-sdk2.32.0-ubuntu24.04");
    assert_null(image("neuron", true, "inf1.xlarge"));
    assert_null(image("neuron", false, "inf2.xlarge"));
    /* the model class matters: vLLM serves LLMs only */
    assert_null(image("vllm", false, "g6e.xlarge"));
}

static void test_engine_images__pinned(void **state)
{
    (void)state;
    assert_true(ecf_engine_image_pinned("vllm/vllm-openai:v0.28.0"));
    assert_true(ecf_engine_image_pinned("registry:5000/team/img:1.2"));
    assert_true(ecf_engine_image_pinned("img@sha256:abcd"));
    assert_false(ecf_engine_image_pinned("vllm/vllm-openai:latest"));
    assert_false(ecf_engine_image_pinned("vllm/vllm-openai"));
    assert_false(ecf_engine_image_pinned("registry:5000/team/img"));
    assert_false(ecf_engine_image_pinned("img:"));
}

/* One entry with `field` replaced, loaded as "e.json". */
static int load_with(const char *entry, ecf_err *err)
{
    char doc[2048];
    ecf_engine_images *o = calloc(1, sizeof(*o));
    int rc;
    assert_non_null(o);
    snprintf(doc, sizeof(doc),
             "{\"schema_version\": 1, \"as_of\": \"2026-12-07\", "
             "\"images\": [%s]}",
             entry);
    rc = ecf_engine_images_load_buffer(o, doc, strlen(doc), "e.json", err);
    free(o);
    return rc;
}

#define ENTRY(image, families, extra)                                         \
    "{\"engine\": \"vllm\", \"models\": \"llm\", \"stack\": \"nvidia\", "     \
    "\"arch\": \"x86_64\", \"image\": \"" image "\", \"version\": \"1\", "   \
    "\"families\": " families ", \"port\": 8000, \"health_path\": "          \
    "\"/health\", \"source\": \"s\", \"as_of\": \"2026-12-07\"" extra "}"

static void test_engine_images__rejects(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(load_with(ENTRY("a/b:1", "[\"g5\"]", ""), &err), 0);
    assert_int_equal(load_with(ENTRY("a/b:latest", "[\"g5\"]", ""), &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "e.json: images[0].image: expected a tag "
                                 "(no :latest): \"a/b:latest\"");
    assert_int_equal(load_with(ENTRY("a/b", "[\"g5\"]", ""), &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "e.json: images[0].image: expected a tag "
                                 "(no :latest): \"a/b\"");
    assert_int_equal(load_with(ENTRY("a/b:1", "[\"g5\"]", ", \"x\": 1"), &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "e.json: images[0]: unknown key \"x\"");
    assert_int_equal(load_with(ENTRY("a/b:1", "[\"*\", \"g5\"]", ""), &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg,
                        "e.json: images[0].families: \"*\" stands alone");
    assert_int_equal(load_with(ENTRY("a/b:1", "[]", ""), &err), ECF_EPARSE);
    assert_string_equal(err.msg, "e.json: images[0].families: expected 1 to "
                                 "24 families");
    assert_int_equal(
        load_with(ENTRY("a/b:1", "[\"g5\"]", "") ", " ENTRY("a/c:2", "[\"g5\"]", ""),
                  &err),
        ECF_EPARSE);
    assert_string_equal(err.msg, "e.json: images[1]: vllm family \"g5\" "
                                 "listed twice (first at images[0])");
    assert_int_equal(
        load_with("{\"engine\": \"vlm\", \"models\": \"llm\"}", &err),
        ECF_EPARSE);
    assert_string_equal(err.msg,
                        "e.json: images[0].engine: unknown engine \"vlm\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_images__embedded),
        cmocka_unit_test(test_engine_images__lookup),
        cmocka_unit_test(test_engine_images__pinned),
        cmocka_unit_test(test_engine_images__rejects),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
