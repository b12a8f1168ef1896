/*
 * images.c - load data/images.json (the SSM parameter of each image family)
 * into the plain ecf_images value, and the pure lookups from an instance
 * type to its stack and image. Sources of the data: docs/deploy.md#images.
 */
#include "ec2fit/images.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "json_check.h"

#ifdef ECF_HAVE_EMBEDDED_IMAGES
extern const char ecf_embedded_images[];
extern const char ecf_embedded_images_end[];
#endif

static const char *const stack_names[ECF_STACK_COUNT] = {"cpu", "nvidia",
                                                         "neuron"};
static const char *const use_names[ECF_IMAGE_USE_COUNT] = {
    "instance", "ecs", "eks", "bottlerocket"};

const char *ecf_stack_name(ecf_stack s)
{
    return s < ECF_STACK_COUNT ? stack_names[s] : "none";
}

const char *ecf_image_use_name(ecf_image_use u)
{
    return u < ECF_IMAGE_USE_COUNT ? use_names[u] : "none";
}

static int parse_name(const char *s, const char *const *names, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* Copies a required string member into dst (size n): empty, missing, not a
 * string or too long is an error naming the path. */
static int get_str(char *dst, size_t n, const cJSON *obj, const char *key,
                   const char *name, size_t i, ecf_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    size_t len;
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].%s: expected a non-empty string",
                           name, i, key);
    len = strlen(v->valuestring);
    if (len >= n)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].%s: longer than %zu bytes", name,
                           i, key, n - 1);
    memcpy(dst, v->valuestring, len + 1);
    return 0;
}

/* Copies the string array `key` (optional when max_n is for exceptions)
 * into dst; each element a non-empty string shorter than w. */
static int get_list(char *dst, size_t w, size_t max_n, size_t *n_out,
                    const cJSON *obj, const char *key, bool required,
                    const char *name, size_t i, ecf_err *err)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key), *e;
    size_t n = 0;
    *n_out = 0;
    if (!arr && !required)
        return 0;
    if (!cJSON_IsArray(arr) || (required && !arr->child))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].%s: expected a non-empty array "
                           "of strings",
                           name, i, key);
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsString(e) || !e->valuestring[0] ||
            strlen(e->valuestring) >= w)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: images[%zu].%s[%zu]: expected a "
                               "non-empty string shorter than %zu bytes",
                               name, i, key, n, w);
        if (n >= max_n)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: images[%zu].%s: more than %zu entries",
                               name, i, key, max_n);
        memcpy(dst + n * w, e->valuestring, strlen(e->valuestring) + 1);
        n++;
    }
    *n_out = n;
    return 0;
}

/* The support matrix: "families" (required; ["*"] alone is the
 * fallback), "except_types" and "note" (optional). */
static int load_matrix(ecf_image *im, const cJSON *it, const char *name,
                       size_t i, ecf_err *err)
{
    const cJSON *note = cJSON_GetObjectItemCaseSensitive(it, "note");
    size_t k;
    if (get_list(&im->families[0][0], sizeof(im->families[0]),
                 ECF_IMAGE_FAMILIES_MAX, &im->n_families, it, "families",
                 true, name, i, err) ||
        get_list(&im->except_types[0][0], sizeof(im->except_types[0]),
                 ECF_IMAGE_EXCEPT_MAX, &im->n_except, it, "except_types",
                 false, name, i, err))
        return err->code;
    for (k = 0; k < im->n_families; k++)
        if (strcmp(im->families[k], "*") == 0)
            im->any_family = true;
    if (im->any_family && (im->n_families != 1 || im->n_except))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].families: \"*\" stands alone "
                           "(no other family, no except_types)",
                           name, i);
    if (note && (!cJSON_IsString(note) ||
                 strlen(note->valuestring) >= sizeof(im->note)))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].note: expected a string shorter "
                           "than %zu bytes",
                           name, i, sizeof(im->note));
    if (note)
        memcpy(im->note, note->valuestring, strlen(note->valuestring) + 1);
    return 0;
}

static bool lists_family(const ecf_image *im, const char *family)
{
    size_t k;
    for (k = 0; k < im->n_families; k++)
        if (strcmp(im->families[k], family) == 0)
            return true;
    return false;
}

/* The first family of b also in a, or "*" when both are fallbacks. */
static const char *overlap(const ecf_image *a, const ecf_image *b)
{
    size_t k;
    if (a->any_family || b->any_family)
        return a->any_family && b->any_family ? "*" : NULL;
    for (k = 0; k < b->n_families; k++)
        if (lists_family(a, b->families[k]))
            return b->families[k];
    return NULL;
}

static int load_image(ecf_image *im, const cJSON *it, const char *name,
                      size_t i, ecf_err *err)
{
    char use[16], stack[16], arch[16];
    int u, s;
    if (!cJSON_IsObject(it))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu]: expected an object", name, i);
    if (get_str(use, sizeof(use), it, "use", name, i, err) ||
        get_str(stack, sizeof(stack), it, "stack", name, i, err) ||
        get_str(arch, sizeof(arch), it, "arch", name, i, err) ||
        get_str(im->family, sizeof(im->family), it, "family", name, i, err) ||
        get_str(im->ssm_parameter, sizeof(im->ssm_parameter), it,
                "ssm_parameter", name, i, err) ||
        get_str(im->source, sizeof(im->source), it, "source", name, i, err))
        return err->code;
    u = parse_name(use, use_names, ECF_IMAGE_USE_COUNT);
    if (u < 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].use: expected instance, ecs, eks "
                           "or bottlerocket, got \"%s\"",
                           name, i, use);
    s = parse_name(stack, stack_names, ECF_STACK_COUNT);
    if (s < 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].stack: expected cpu, nvidia or "
                           "neuron, got \"%s\"",
                           name, i, stack);
    if (strcmp(arch, "x86_64") == 0)
        im->arch = ECF_ARCH_X86_64;
    else if (strcmp(arch, "arm64") == 0)
        im->arch = ECF_ARCH_ARM64;
    else
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].arch: expected x86_64 or arm64, "
                           "got \"%s\"",
                           name, i, arch);
    if (im->ssm_parameter[0] != '/')
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].ssm_parameter: expected a "
                           "parameter path starting with '/'",
                           name, i);
    im->use = (ecf_image_use)u;
    im->stack = (ecf_stack)s;
    return load_matrix(im, it, name, i, err);
}

/* trusted: the embedded copy of a data/ file, already checked by the
 * strict path in tests/unit/test_embedded_data.c, so the document-wide
 * ecf_json_check is skipped. */
static int load_buffer_(bool trusted, ecf_images *out, const char *data, size_t len,
                           const char *name, ecf_err *err)
{
    cJSON *root = NULL;
    const cJSON *arr = NULL, *it;
    size_t i = 0, k;
    int rc;

    memset(out, 0, sizeof(*out));
    rc = (trusted ? ecf_json_parse_trusted : ecf_json_parse)(
        &root, data, len, ECF_IMAGES_MAX_BYTES, "", name,
        ECF_EPARSE, err);
    if (rc)
        return rc;
    if ((rc = ecf_json_data_head(root, name, ECF_IMAGES_SCHEMA_VERSION, out->as_of,
                                 "images", &arr, err)))
        goto out;
    cJSON_ArrayForEach(it, arr)
    {
        ecf_image *im;
        if (i >= ECF_IMAGES_MAX) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "%s: images: more than %d entries", name,
                             ECF_IMAGES_MAX);
            goto out;
        }
        im = &out->images[i];
        rc = load_image(im, it, name, i, err);
        if (rc)
            goto out;
        for (k = 0; k < i; k++) {
            const char *fam;
            if (out->images[k].use != im->use ||
                out->images[k].stack != im->stack ||
                out->images[k].arch != im->arch)
                continue;
            fam = overlap(&out->images[k], im);
            if (fam) {
                rc = ecf_err_set(err, ECF_EPARSE,
                                 "%s: images[%zu]: %s/%s/%s family \"%s\" "
                                 "listed twice (first at images[%zu])",
                                 name, i, ecf_image_use_name(im->use),
                                 ecf_stack_name(im->stack),
                                 ecf_arch_name(im->arch), fam, k);
                goto out;
            }
        }
        i++;
    }
    out->n_images = i;
out:
    cJSON_Delete(root);
    if (rc)
        memset(out, 0, sizeof(*out));
    return rc;
}

int ecf_images_load_buffer(ecf_images *out, const char *data, size_t len, const char *name,
                           ecf_err *err)
{
    return load_buffer_(false, out, data, len, name, err);
}

int ecf_images_embedded(ecf_images *out, ecf_err *err)
{
#ifdef ECF_HAVE_EMBEDDED_IMAGES
    return load_buffer_(
        true, out, ecf_embedded_images,
        (size_t)(ecf_embedded_images_end - ecf_embedded_images),
        "images.json", err);
#else
    memset(out, 0, sizeof(*out));
    return ecf_err_set(err, ECF_ENOTFOUND,
                       "images.json: not embedded in this build");
#endif
}

ecf_stack ecf_images_stack(const ecf_instance *inst)
{
    if (!inst->accel || inst->accel_count == 0)
        return ECF_STACK_CPU;
    if (inst->accel->kind == ECF_ACCEL_NEURON)
        return ECF_STACK_NEURON;
    if (inst->accel->kind == ECF_ACCEL_GPU && inst->accel->vendor &&
        strcmp(inst->accel->vendor, "NVIDIA") == 0)
        return ECF_STACK_NVIDIA;
    return ECF_STACK_COUNT; /* AMD GPU, Gaudi, Qualcomm: no stack here */
}

const ecf_image *ecf_images_find(const ecf_images *imgs, ecf_image_use use,
                                 ecf_stack stack, ecf_arch arch)
{
    size_t i;
    if (!imgs)
        return NULL;
    for (i = 0; i < imgs->n_images; i++)
        if (imgs->images[i].use == use && imgs->images[i].stack == stack &&
            imgs->images[i].arch == arch)
            return &imgs->images[i];
    return NULL;
}

bool ecf_image_supports(const ecf_image *im, const ecf_instance *inst)
{
    size_t k;
    if (!im || !inst)
        return false;
    if (im->any_family)
        return true;
    if (!inst->family || !lists_family(im, inst->family))
        return false;
    for (k = 0; k < im->n_except; k++)
        if (strcmp(im->except_types[k], inst->type) == 0)
            return false;
    return true;
}

const ecf_image *ecf_images_for(const ecf_images *imgs, ecf_image_use use,
                                const ecf_instance *inst)
{
    const ecf_image *fallback = NULL;
    ecf_stack s = ecf_images_stack(inst);
    size_t i;
    if (!imgs || s == ECF_STACK_COUNT)
        return NULL;
    for (i = 0; i < imgs->n_images; i++) {
        const ecf_image *im = &imgs->images[i];
        if (im->use != use || im->stack != s || im->arch != inst->arch)
            continue;
        if (im->any_family)
            fallback = im;
        else if (lists_family(im, inst->family ? inst->family : ""))
            /* a listed family whose type is excepted has no image: the
             * fallback would not support it either */
            return ecf_image_supports(im, inst) ? im : NULL;
    }
    return fallback;
}
