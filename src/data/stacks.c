/*
 * stacks.c - pure lookups over the software-stack table (ec2fit/stacks.h):
 * names and the platform of an instance (the default serving engine and
 * the verdict for one plan: model/stacks_resolve.c). No I/O, no allocation; data/stacks.json is parsed
 * by stacks_load.c.
 */
#include "ec2fit/stacks.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "stacks_internal.h"

static const char *const fw_names[ECF_FW_COUNT] = {"pytorch", "tensorflow",
                                                   "jax"};
static const char *const engine_names[ECF_ENGINE_COUNT] = {
    "auto", "vllm",   "tgi",    "trtllm",  "hf",
    "tf-serving", "triton", "neuron", "tensorrt"};

const char *const ecf_stack_display[STACK_ID_COUNT] = {
    "PyTorch",
    "TensorFlow",
    "JAX",
    "vLLM",
    "TGI",
    "TensorRT-LLM",
    "Hugging Face Transformers",
    "TF Serving",
    "Triton",
    "Neuron (NxD Inference / transformers-neuronx / torch-neuron)",
    "TensorRT (Triton TensorRT backend / ONNX Runtime TensorRT EP)"};

const char *ecf_framework_name(int fw)
{
    return fw >= 0 && fw < ECF_FW_COUNT ? fw_names[fw] : "unknown";
}

int ecf_framework_parse(const char *s)
{
    int i;
    for (i = 0; i < ECF_FW_COUNT; i++)
        if (strcmp(s, fw_names[i]) == 0)
            return i;
    return -1;
}

/* MAJOR[.MINOR[rest]]: digits, then optionally '.' and digits; the rest
 * (".0a0+b6df043" of an NGC build, "rc1", ".post1") is not read. */
static int parse_version(int *out, const char *v)
{
    int major = 0, minor = 0, n = 0;
    const char *p = v;
    while (*p >= '0' && *p <= '9' && n < 4)
        major = major * 10 + (*p++ - '0'), n++;
    if (n == 0 || (*p >= '0' && *p <= '9'))
        return -1;
    if (*p == '.') {
        p++;
        n = 0;
        while (*p >= '0' && *p <= '9' && n < 2)
            minor = minor * 10 + (*p++ - '0'), n++;
        if (n == 0 || (*p >= '0' && *p <= '9'))
            return -1;
        if (*p && *p != '.' && *p != '+' && !isalpha((unsigned char)*p))
            return -1;
    } else if (*p) {
        return -1;
    }
    if (major == 0 && minor == 0)
        return -1;
    *out = major * 100 + minor;
    return 0;
}

int ecf_framework_spec_parse(int *fw_out,
                             int *version_out,
                             bool *transformers_out,
                             const char *s)
{
    char name[32];
    const char *at = strchr(s, '@');
    size_t len = at ? (size_t)(at - s) : strlen(s);
    int fw, version = 0;
    bool hf = false;

    if (len == 0 || len >= sizeof(name))
        return -1;
    memcpy(name, s, len);
    name[len] = '\0';
    if (strcmp(name, "transformers") == 0) {
        fw = ECF_FW_PYTORCH;
        hf = true;
    } else if ((fw = ecf_framework_parse(name)) < 0) {
        return -1;
    }
    if (at && parse_version(&version, at + 1) < 0)
        return -1;
    *fw_out = fw;
    *version_out = version;
    *transformers_out = hf;
    return 0;
}

const char *ecf_engine_name(int engine)
{
    return engine >= 0 && engine < ECF_ENGINE_COUNT ? engine_names[engine]
                                                    : "unknown";
}

int ecf_engine_parse(const char *s)
{
    int i;
    for (i = 0; i < ECF_ENGINE_COUNT; i++)
        if (strcmp(s, engine_names[i]) == 0)
            return i;
    return -1;
}

ecf_engine ecf_engine_nvidia_default(ecf_model_kind kind, int framework)
{
    if (framework == ECF_FW_TENSORFLOW)
        return ECF_ENGINE_AUTO;
    if (kind == ECF_KIND_CNN || kind == ECF_KIND_ENCODER ||
        kind == ECF_KIND_VIT || kind == ECF_KIND_DIFFUSION)
        return ECF_ENGINE_TENSORRT;
    if (kind == ECF_KIND_SPEECH)
        return ECF_ENGINE_HF;
    return ECF_ENGINE_AUTO;
}

const char *ecf_stacks_as_of(const ecf_stacks *s)
{
    return s->as_of;
}

int ecf_stacks_platform(const ecf_stacks *s, const ecf_instance *inst)
{
    int i;
    char **a;
    const ecf_accel *acc = inst->accel_count > 0 ? inst->accel : NULL;

    if (!acc) {
        for (i = 0; i < s->n_platforms; i++)
            if (s->platforms[i].cpu_arch == (int)inst->arch)
                return i;
        return -1;
    }
    for (i = 0; i < s->n_platforms; i++)
        for (a = s->platforms[i].accels; a && *a; a++)
            if (strcmp(*a, acc->id) == 0)
                return i;
    for (i = 0; i < s->n_platforms; i++)
        if (s->platforms[i].vendor && acc->vendor &&
            strcmp(s->platforms[i].vendor, acc->vendor) == 0)
            return i;
    return -1;
}
