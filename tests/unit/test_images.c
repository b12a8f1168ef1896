/* test_images.c - the images.json loader (every rejection with its exact
 * message) and the stack lookups against catalog types: NVIDIA, Neuron,
 * CPU-only, Graviton, and accelerators without an image (AMD). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ec2fit/images.h"

static ecf_catalog *cat;
static ecf_images imgs;

static int setup(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    (void)state;
    if (ecf_images_embedded(&imgs, &err) != 0)
        return -1;
    return ecf_catalog_load_buffer(&cat, data, len, "embedded", &err);
}

static int teardown(void **state)
{
    (void)state;
    ecf_catalog_free(cat);
    return 0;
}

static const char *param(ecf_image_use use, const char *type)
{
    const ecf_instance *in = ecf_catalog_find(cat, type);
    const ecf_image *im;
    assert_non_null(in);
    im = ecf_images_for(&imgs, use, in);
    return im ? im->ssm_parameter : NULL;
}

static void test_embedded(void **state)
{
    (void)state;
    assert_string_equal(imgs.as_of, "2026-12-07");
    assert_int_equal(imgs.n_images, 21);
}

static void test_stacks(void **state)
{
    (void)state;
    assert_int_equal(ecf_images_stack(ecf_catalog_find(cat, "p5.48xlarge")),
                     ECF_STACK_NVIDIA);
    assert_int_equal(ecf_images_stack(ecf_catalog_find(cat, "inf2.xlarge")),
                     ECF_STACK_NEURON);
    assert_int_equal(ecf_images_stack(ecf_catalog_find(cat, "trn1.32xlarge")),
                     ECF_STACK_NEURON);
    assert_int_equal(ecf_images_stack(ecf_catalog_find(cat, "c7g.large")),
                     ECF_STACK_CPU);
    /* AMD Radeon Pro V520: no image family here */
    assert_int_equal(ecf_images_stack(ecf_catalog_find(cat, "g4ad.xlarge")),
                     ECF_STACK_COUNT);
    assert_null(param(ECF_IMAGE_USE_INSTANCE, "g4ad.xlarge"));
}

static void test_parameters(void **state)
{
    (void)state;
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "g6e.xlarge"),
                        "/aws/service/deeplearning/ami/x86_64/"
                        "base-oss-nvidia-driver-gpu-amazon-linux-2023/latest/"
                        "ami-id");
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "g5g.xlarge"),
                        "/aws/service/deeplearning/ami/arm64/"
                        "base-oss-nvidia-driver-gpu-amazon-linux-2023/latest/"
                        "ami-id");
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "inf2.xlarge"),
                        "/aws/service/neuron/dlami/base/amazon-linux-2023/"
                        "latest/image_id");
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "m7i.large"),
                        "/aws/service/ami-amazon-linux-latest/"
                        "al2023-ami-kernel-default-x86_64");
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "c7g.large"),
                        "/aws/service/ami-amazon-linux-latest/"
                        "al2023-ami-kernel-default-arm64");
    assert_string_equal(param(ECF_IMAGE_USE_ECS, "g6e.xlarge"),
                        "/aws/service/ecs/optimized-ami/amazon-linux-2023/gpu/"
                        "recommended/image_id");
    assert_string_equal(param(ECF_IMAGE_USE_ECS, "inf2.xlarge"),
                        "/aws/service/ecs/optimized-ami/amazon-linux-2023/inf/"
                        "recommended/image_id");
    /* Volta: the OSS-driver AL2023 DLAMI lists G4dn..P6 only; P3 and
     * P3dn get the proprietary-driver DLAMI (release notes 71.6) */
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "p3.2xlarge"),
                        "/aws/service/deeplearning/ami/x86_64/"
                        "base-proprietary-nvidia-driver-amazon-linux-2/"
                        "latest/ami-id");
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "p3dn.24xlarge"),
                        "/aws/service/deeplearning/ami/x86_64/"
                        "base-proprietary-nvidia-driver-amazon-linux-2/"
                        "latest/ami-id");
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "g3.8xlarge"),
                        "/aws/service/deeplearning/ami/x86_64/"
                        "base-proprietary-nvidia-driver-amazon-linux-2/"
                        "latest/ami-id");
    /* "G3 (G3.16x not supported)", and no other image lists g3 */
    assert_null(param(ECF_IMAGE_USE_INSTANCE, "g3.16xlarge"));
    /* Kepler (p2): no published DLAMI lists it */
    assert_null(param(ECF_IMAGE_USE_INSTANCE, "p2.xlarge"));
    /* Neuron DLAMIs since 2.26.1 dropped Inf1 */
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "inf1.xlarge"),
                        "/aws/service/neuron/dlami/pytorch-1.13-inf1/"
                        "ubuntu-22.04/latest/image_id");
    assert_string_equal(param(ECF_IMAGE_USE_INSTANCE, "trn1.32xlarge"),
                        "/aws/service/neuron/dlami/base/amazon-linux-2023/"
                        "latest/image_id");
    /* AWS publishes no ECS GPU AMI for arm64 */
    assert_null(param(ECF_IMAGE_USE_ECS, "g5g.xlarge"));
    assert_string_equal(param(ECF_IMAGE_USE_BOTTLEROCKET, "inf2.xlarge"),
                        "/aws/service/bottlerocket/aws-k8s-{kubernetes_version}"
                        "/x86_64/latest/image_id");
    assert_string_equal(param(ECF_IMAGE_USE_EKS, "g5g.xlarge"),
                        "/aws/service/eks/optimized-ami/{kubernetes_version}/"
                        "amazon-linux-2023/arm64/nvidia/recommended/image_id");
}

static void expect_error(const char *json, const char *msg)
{
    ecf_images out;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_images_load_buffer(&out, json, strlen(json),
                                            "t.json", &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, msg);
    assert_int_equal(out.n_images, 0);
}

#define HEAD "{\"schema_version\":1,\"as_of\":\"2026-12-01\",\"images\":["
#define ONEF(use, stack, arch, ssm, fams)                                     \
    "{\"use\":\"" use "\",\"stack\":\"" stack "\",\"arch\":\"" arch          \
    "\",\"family\":\"F\",\"ssm_parameter\":\"" ssm "\",\"families\":[" fams \
    "],\"source\":\"S\"}"
#define ONE(use, stack, arch, ssm) ONEF(use, stack, arch, ssm, "\"*\"")

static void test_rejects(void **state)
{
    (void)state;
    expect_error("{\"schema_version\":2}",
                 "t.json: schema_version: expected 1");
    expect_error(HEAD ONE("instance", "nvidia", "sparc", "/a") "]}",
                 "t.json: images[0].arch: expected x86_64 or arm64, got "
                 "\"sparc\"");
    expect_error(HEAD ONE("lambda", "nvidia", "arm64", "/a") "]}",
                 "t.json: images[0].use: expected instance, ecs, eks or "
                 "bottlerocket, got \"lambda\"");
    expect_error(HEAD ONE("ecs", "amd", "arm64", "/a") "]}",
                 "t.json: images[0].stack: expected cpu, nvidia or neuron, "
                 "got \"amd\"");
    expect_error(HEAD ONE("ecs", "cpu", "arm64", "ami-123") "]}",
                 "t.json: images[0].ssm_parameter: expected a parameter path "
                 "starting with '/'");
    expect_error(HEAD ONE("ecs", "cpu", "arm64", "/a") ","
                      ONE("ecs", "cpu", "arm64", "/b") "]}",
                 "t.json: images[1]: ecs/cpu/arm64 family \"*\" listed twice "
                 "(first at images[0])");
    expect_error(HEAD ONEF("instance", "nvidia", "x86_64", "/a",
                           "\"p3\",\"g5\"") ","
                      ONEF("instance", "nvidia", "x86_64", "/b",
                           "\"g6\",\"g5\"") "]}",
                 "t.json: images[1]: instance/nvidia/x86_64 family \"g5\" "
                 "listed twice (first at images[0])");
    expect_error(HEAD ONEF("ecs", "cpu", "arm64", "/a", "") "]}",
                 "t.json: images[0].families: expected a non-empty array of "
                 "strings");
    expect_error(HEAD ONEF("ecs", "cpu", "arm64", "/a", "\"*\",\"c7g\"") "]}",
                 "t.json: images[0].families: \"*\" stands alone (no other "
                 "family, no except_types)");
    expect_error(HEAD ONEF("ecs", "cpu", "arm64", "/a", "\"\"") "]}",
                 "t.json: images[0].families[0]: expected a non-empty string "
                 "shorter than 16 bytes");
    expect_error(HEAD "{\"use\":\"ecs\"}]}",
                 "t.json: images[0].stack: expected a non-empty string");
}

/* ECF_IMAGES_MAX entries (distinct families of one use/stack/arch) fill
 * the table; one more element is refused by count before it is read. */
static void test_too_many(void **state)
{
    static char json[16384];
    ecf_images out;
    ecf_err err = ECF_ERR_INIT;
    size_t n = 0, k;
    (void)state;
    n += (size_t)snprintf(json + n, sizeof(json) - n, "%s", HEAD);
    for (k = 0; k < ECF_IMAGES_MAX; k++)
        n += (size_t)snprintf(
            json + n, sizeof(json) - n,
            "%s{\"use\":\"eks\",\"stack\":\"nvidia\",\"arch\":\"x86_64\","
            "\"family\":\"F\",\"ssm_parameter\":\"/p\",\"families\":"
            "[\"f%zu\"],\"source\":\"S\"}",
            k ? "," : "", k);
    snprintf(json + n, sizeof(json) - n, "]}");
    assert_int_equal(ecf_images_load_buffer(&out, json, strlen(json),
                                            "t.json", &err),
                     0);
    assert_int_equal(out.n_images, ECF_IMAGES_MAX);
    assert_int_equal(ECF_IMAGES_MAX, 40);
    snprintf(json + n, sizeof(json) - n, ",{}]}");
    expect_error(json, "t.json: images: more than 40 entries");
}

static void test_accepts(void **state)
{
    ecf_images out;
    ecf_err err = ECF_ERR_INIT;
    const char *json = HEAD ONE("ecs", "cpu", "arm64", "/a") "]}";
    (void)state;
    assert_int_equal(ecf_images_load_buffer(&out, json, strlen(json),
                                            "t.json", &err),
                     0);
    assert_int_equal(out.n_images, 1);
    assert_non_null(ecf_images_find(&out, ECF_IMAGE_USE_ECS, ECF_STACK_CPU,
                                    ECF_ARCH_ARM64));
    assert_null(ecf_images_find(&out, ECF_IMAGE_USE_ECS, ECF_STACK_CPU,
                                ECF_ARCH_X86_64));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded),   cmocka_unit_test(test_stacks),
        cmocka_unit_test(test_parameters), cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_accepts),    cmocka_unit_test(test_too_many),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
