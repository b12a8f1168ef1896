/*
 * zoo_packed.c - the packed model zoo: the build loads data/models.json
 * with the JSON loader (zoo.c, which validates every field) and packs the
 * loaded models and their lookup keys as bytes (tools/pack_zoo.c); a run
 * copies them back instead of parsing 34 KB of JSON, which was a quarter
 * of the main job's instructions (bench/results.md, "Session 9").
 *
 * Layout (host byte order; the header says which, and the record sizes,
 * so a blob from another ABI is refused rather than misread):
 *   header  magic "ECFZOO1\0", order 0x01020304, sizeof(ecf_model),
 *           key bytes per model, model count (uint32 each)
 *   models  count x ecf_model
 *   keys    count x (ECF_MODEL_MAX_ALIASES + 1) x 64 bytes
 * The records are ecf_model's bytes, so ecf_model must stay a plain value
 * (fixed-size strings, no pointers: ec2fit/zoo.h); a field added to it is
 * packed with no change here (test_zoo_packed compares every model with
 * the JSON loader's). Pure: no I/O.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/err.h"
#include "ec2fit/zoo.h"
#include "zoo_internal.h"

#define ZOO_MAGIC "ECFZOO1"
#define ZOO_ORDER 0x01020304u
#define ZOO_KEYS (ECF_MODEL_MAX_ALIASES + 1)

typedef struct {
    char magic[8];
    uint32_t order, model_size, key_size, n;
} zoo_hdr;

int ecf_zoo_pack(void **blob, size_t *len, const ecf_zoo *zoo, ecf_err *err)
{
    zoo_hdr h;
    unsigned char *b;
    size_t models_len, keys_len;

    *blob = NULL;
    *len = 0;
    if (!zoo)
        return ecf_err_set(err, ECF_EINVAL, "packed zoo: no zoo");
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, ZOO_MAGIC, sizeof(ZOO_MAGIC));
    h.order = ZOO_ORDER;
    h.model_size = (uint32_t)sizeof(ecf_model);
    h.key_size = (uint32_t)(ZOO_KEYS * sizeof(zoo->norm[0]));
    h.n = (uint32_t)zoo->n;
    models_len = zoo->n * sizeof(ecf_model);
    keys_len = zoo->n * h.key_size;
    b = ecf_xmalloc(sizeof(h) + models_len + keys_len);
    memcpy(b, &h, sizeof(h));
    memcpy(b + sizeof(h), zoo->models, models_len);
    memcpy(b + sizeof(h) + models_len, zoo->norm, keys_len);
    *blob = b;
    *len = sizeof(h) + models_len + keys_len;
    return 0;
}

/* A fixed-size string field holds its NUL. */
static bool terminated(const char *s, size_t size)
{
    return memchr(s, '\0', size) != NULL;
}

static bool model_ok(const ecf_model *m, const char *keys)
{
    size_t a;
    if ((unsigned)m->kind >= ECF_KIND_COUNT || !m->name[0] ||
        !terminated(m->name, sizeof(m->name)) ||
        !terminated(m->display, sizeof(m->display)) ||
        !terminated(m->source, sizeof(m->source)))
        return false;
    for (a = 0; a < ECF_MODEL_MAX_ALIASES; a++)
        if (!terminated(m->aliases[a], sizeof(m->aliases[a])))
            return false;
    for (a = 0; a < ZOO_KEYS; a++)
        if (!terminated(keys + a * 64, 64))
            return false;
    return true;
}

int ecf_zoo_load_packed(ecf_zoo **out, const void *blob, size_t len,
                        const char *name, ecf_err *err)
{
    const unsigned char *b = blob;
    zoo_hdr h;
    ecf_zoo *zoo;
    size_t i, models_len, keys_len;

    *out = NULL;
    if (!b || len < sizeof(h))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: packed zoo: %zu bytes, shorter than its "
                           "header",
                           name, b ? len : 0);
    memcpy(&h, b, sizeof(h));
    if (memcmp(h.magic, ZOO_MAGIC, sizeof(ZOO_MAGIC)) != 0)
        return ecf_err_set(err, ECF_EPARSE, "%s: packed zoo: not a packed zoo",
                           name);
    if (h.order != ZOO_ORDER || h.model_size != sizeof(ecf_model) ||
        h.key_size != ZOO_KEYS * 64u)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: packed zoo: packed for another ABI (byte "
                           "order or record size)",
                           name);
    if (h.n == 0 || h.n > ECF_ZOO_MAX_MODELS)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: packed zoo: expected 1 to %d models, got %lu",
                           name, ECF_ZOO_MAX_MODELS, (unsigned long)h.n);
    models_len = (size_t)h.n * sizeof(ecf_model);
    keys_len = (size_t)h.n * h.key_size;
    if (len != sizeof(h) + models_len + keys_len)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: packed zoo: %zu bytes, expected %zu for %lu "
                           "models",
                           name, len, sizeof(h) + models_len + keys_len,
                           (unsigned long)h.n);
    zoo = ecf_xcalloc(1, sizeof(*zoo));
    zoo->n = h.n;
    zoo->models = ecf_xmalloc(models_len);
    zoo->norm = ecf_xmalloc(keys_len);
    memcpy(zoo->models, b + sizeof(h), models_len);
    memcpy(zoo->norm, b + sizeof(h) + models_len, keys_len);
    for (i = 0; i < zoo->n; i++)
        if (!model_ok(&zoo->models[i], zoo->norm[i * ZOO_KEYS])) {
            ecf_zoo_free(zoo);
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: packed zoo: model %zu: bad kind or an "
                               "unterminated name",
                               name, i);
        }
    *out = zoo;
    return 0;
}
