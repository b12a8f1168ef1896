/*
 * engine_images.c - load and validate data/engine_images.json
 * (ec2fit/engine_images.h): the serving engines' container images pinned
 * to a release, with the families each release runs on. Strict: an
 * unknown key, a missing field, an untagged or ":latest" image, or a
 * family listed twice in one group is an error naming the entry.
 */
#include "ec2fit/engine_images.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/stacks.h"
#include "json_check.h"

#ifdef ECF_HAVE_EMBEDDED_ENGINE_IMAGES
extern const char ecf_embedded_engine_images[];
extern const char ecf_embedded_engine_images_end[];
#endif

bool ecf_engine_image_pinned(const char *image)
{
    const char *slash = strrchr(image, '/');
    const char *colon = strrchr(slash ? slash : image, ':');
    if (strchr(image, '@'))
        return true; /* a digest pins it */
    return colon && colon[1] && strcmp(colon + 1, "latest") != 0 &&
           !strpbrk(colon + 1, " \t/");
}

static int str_field(char *dst, size_t n, const cJSON *it, const char *key,
                     const char *name, size_t i, ecf_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, key);
    if (!cJSON_IsString(v) || !v->valuestring[0] ||
        strlen(v->valuestring) >= n)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].%s: expected a string of 1 to "
                           "%zu bytes",
                           name, i, key, n - 1);
    memcpy(dst, v->valuestring, strlen(v->valuestring) + 1);
    return 0;
}

static const char *const keys[] = {
    "engine", "models", "stack", "arch", "image", "version", "families",
    "port", "health_path", "source", "as_of"};

static int load_one(ecf_engine_image *im, const cJSON *it, const char *name,
                    size_t i, ecf_err *err)
{
    const cJSON *v, *f;
    char buf[16];
    size_t k;
    int rc, s;

    if (!cJSON_IsObject(it))
        return ecf_err_set(err, ECF_EPARSE, "%s: images[%zu]: expected an "
                           "object", name, i);
    for (v = it->child; v; v = v->next) {
        for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
            if (strcmp(v->string, keys[k]) == 0)
                break;
        if (k == sizeof(keys) / sizeof(keys[0]))
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: images[%zu]: unknown key \"%s\"", name,
                               i, v->string);
    }
    if ((rc = str_field(im->engine, sizeof(im->engine), it, "engine", name,
                        i, err)))
        return rc;
    if (ecf_engine_parse(im->engine) <= 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].engine: unknown engine \"%s\"",
                           name, i, im->engine);
    if ((rc = str_field(buf, sizeof(buf), it, "models", name, i, err)))
        return rc;
    if (strcmp(buf, "llm") != 0 && strcmp(buf, "other") != 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].models: expected llm or other",
                           name, i);
    im->llm = strcmp(buf, "llm") == 0;
    if ((rc = str_field(buf, sizeof(buf), it, "stack", name, i, err)))
        return rc;
    for (s = 0; s < ECF_STACK_COUNT; s++)
        if (strcmp(buf, ecf_stack_name((ecf_stack)s)) == 0)
            break;
    if (s == ECF_STACK_COUNT)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].stack: expected cpu, nvidia or "
                           "neuron",
                           name, i);
    im->stack = (ecf_stack)s;
    if ((rc = str_field(buf, sizeof(buf), it, "arch", name, i, err)))
        return rc;
    if (strcmp(buf, "x86_64") == 0)
        im->arch = ECF_ARCH_X86_64;
    else if (strcmp(buf, "arm64") == 0)
        im->arch = ECF_ARCH_ARM64;
    else
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].arch: expected x86_64 or arm64",
                           name, i);
    if ((rc = str_field(im->image, sizeof(im->image), it, "image", name, i,
                        err)) ||
        (rc = str_field(im->version, sizeof(im->version), it, "version",
                        name, i, err)) ||
        (rc = str_field(im->health_path, sizeof(im->health_path), it,
                        "health_path", name, i, err)) ||
        (rc = str_field(im->source, sizeof(im->source), it, "source", name,
                        i, err)) ||
        (rc = str_field(im->as_of, sizeof(im->as_of), it, "as_of", name, i,
                        err)))
        return rc;
    if (!ecf_engine_image_pinned(im->image))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].image: expected a tag (no "
                           ":latest): \"%s\"",
                           name, i, im->image);
    if (im->health_path[0] != '/')
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].health_path: expected a path "
                           "starting with '/'",
                           name, i);
    if (strlen(im->as_of) != 10)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].as_of: expected YYYY-MM-DD",
                           name, i);
    v = cJSON_GetObjectItemCaseSensitive(it, "port");
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > 65535 ||
        v->valuedouble != (int)v->valuedouble)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].port: expected 1 to 65535", name,
                           i);
    im->port = (int)v->valuedouble;
    v = cJSON_GetObjectItemCaseSensitive(it, "families");
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 ||
        cJSON_GetArraySize(v) > ECF_ENGINE_IMAGE_FAMILIES_MAX)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].families: expected 1 to %d "
                           "families",
                           name, i, ECF_ENGINE_IMAGE_FAMILIES_MAX);
    cJSON_ArrayForEach(f, v)
    {
        if (!cJSON_IsString(f) || !f->valuestring[0] ||
            strlen(f->valuestring) >= sizeof(im->families[0]))
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: images[%zu].families: expected family "
                               "names",
                               name, i);
        if (strcmp(f->valuestring, "*") == 0)
            im->any_family = true;
        else
            memcpy(im->families[im->n_families++], f->valuestring,
                   strlen(f->valuestring) + 1);
    }
    if (im->any_family && im->n_families)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: images[%zu].families: \"*\" stands alone",
                           name, i);
    return 0;
}

static bool same_group(const ecf_engine_image *a, const ecf_engine_image *b)
{
    return strcmp(a->engine, b->engine) == 0 && a->llm == b->llm &&
           a->stack == b->stack && a->arch == b->arch;
}

/* The family both list, "*" when both are the group's fallback, or NULL. */
static const char *overlap(const ecf_engine_image *a,
                           const ecf_engine_image *b)
{
    size_t x, y;
    if (a->any_family && b->any_family)
        return "*";
    for (x = 0; x < a->n_families; x++)
        for (y = 0; y < b->n_families; y++)
            if (strcmp(a->families[x], b->families[y]) == 0)
                return a->families[x];
    return NULL;
}

static int load(bool trusted, ecf_engine_images *out, const char *data,
                size_t len, const char *name, ecf_err *err)
{
    cJSON *root = NULL;
    const cJSON *arr = NULL, *it;
    size_t i = 0, k;
    int rc;

    memset(out, 0, sizeof(*out));
    rc = (trusted ? ecf_json_parse_trusted : ecf_json_parse)(
        &root, data, len, ECF_ENGINE_IMAGES_MAX_BYTES, "", name, ECF_EPARSE,
        err);
    if (rc)
        return rc;
    if ((rc = ecf_json_data_head(root, name, ECF_ENGINE_IMAGES_SCHEMA_VERSION, out->as_of,
                                 "images", &arr, err)))
        goto out;
    cJSON_ArrayForEach(it, arr)
    {
        ecf_engine_image *im;
        if (i >= ECF_ENGINE_IMAGES_MAX) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "%s: images: more than %d entries", name,
                             ECF_ENGINE_IMAGES_MAX);
            goto out;
        }
        im = &out->images[i];
        if ((rc = load_one(im, it, name, i, err)))
            goto out;
        for (k = 0; k < i; k++) {
            const char *fam;
            if (!same_group(&out->images[k], im))
                continue;
            fam = overlap(&out->images[k], im);
            if (fam) {
                rc = ecf_err_set(err, ECF_EPARSE,
                                 "%s: images[%zu]: %s family \"%s\" listed "
                                 "twice (first at images[%zu])",
                                 name, i, im->engine, fam, k);
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

int ecf_engine_images_load_buffer(ecf_engine_images *out, const char *data,
                                  size_t len, const char *name, ecf_err *err)
{
    return load(false, out, data, len, name, err);
}

int ecf_engine_images_embedded(ecf_engine_images *out, ecf_err *err)
{
#ifdef ECF_HAVE_EMBEDDED_ENGINE_IMAGES
    return load(true, out, ecf_embedded_engine_images,
                (size_t)(ecf_embedded_engine_images_end -
                         ecf_embedded_engine_images),
                "engine_images.json", err);
#else
    memset(out, 0, sizeof(*out));
    return ecf_err_set(err, ECF_ENOTFOUND,
                       "engine_images.json: not embedded in this build");
#endif
}

const ecf_engine_image *ecf_engine_images_for(const ecf_engine_images *e,
                                              const char *engine, bool llm,
                                              const ecf_instance *inst)
{
    const ecf_engine_image *any = NULL;
    ecf_stack st = ecf_images_stack(inst);
    size_t i, k;

    for (i = 0; i < e->n_images; i++) {
        const ecf_engine_image *im = &e->images[i];
        if (strcmp(im->engine, engine) != 0 || im->llm != llm ||
            im->stack != st || im->arch != inst->arch)
            continue;
        if (im->any_family && !any)
            any = im;
        for (k = 0; k < im->n_families; k++)
            if (strcmp(im->families[k], inst->family) == 0)
                return im;
    }
    return any;
}
