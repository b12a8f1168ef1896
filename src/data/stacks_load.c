/*
 * stacks_load.c - load and validate data/stacks.json into ecf_stacks.
 * Every name (platform, framework/engine, task, model kind) becomes a bit
 * here, and every entry must carry a source URL and an as-of date, so the
 * table cannot hold an unsourced claim or a silently ignored typo.
 */
#include "ec2fit/stacks.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "ec2fit/task.h"
#include "stacks_internal.h"

#ifdef ECF_HAVE_EMBEDDED_STACKS
extern const char ecf_embedded_stacks[];
extern const char ecf_embedded_stacks_end[];
#endif

void ecf_stacks_free(ecf_stacks *s)
{
    int i;
    char **a;
    if (!s)
        return;
    for (i = 0; i < s->n_platforms; i++) {
        stacks_platform *p = &s->platforms[i];
        for (a = p->accels; a && *a; a++)
            free(*a);
        free(p->accels);
        free(p->id);
        free(p->name);
        free(p->vendor);
        free(p->why);
    }
    for (i = 0; i < s->n_entries; i++)
        free(s->entries[i].why);
    for (i = 0; i < s->n_sources; i++) {
        free(s->sources[i].key);
        free(s->sources[i].url);
        free(s->sources[i].as_of);
    }
    free(s->entries);
    free(s->as_of);
    free(s->source);
    free(s);
}

/* A string member: required (non-empty) or optional (NULL when absent). */
static int get_str(char **out, const cJSON *obj, const char *key,
                   bool required, const char *name, const char *where,
                   ecf_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!v && !required)
        return 0;
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s.%s: expected a non-empty string", name,
                           where, key);
    if (strlen(v->valuestring) >= 1024)
        return ecf_err_set(err, ECF_EPARSE, "%s: %s.%s: longer than 1023 "
                           "bytes", name, where, key);
    *out = ecf_xstrdup(v->valuestring);
    return 0;
}

static bool is_date(const char *s)
{
    int i;
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return false;
    return true;
}

static int check_sourced(const char *url, const char *as_of,
                         const char *name, const char *where, ecf_err *err)
{
    if (strncmp(url, "https://", 8) != 0 && strncmp(url, "http://", 7) != 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s.url: expected an http(s) URL", name,
                           where);
    if (!is_date(as_of))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s.as_of: expected a YYYY-MM-DD date", name,
                           where);
    return 0;
}

/* obj.source names one of the file's "sources": borrow its URL and date. */
static int get_source(const char **url, const char **as_of,
                      const ecf_stacks *s, const cJSON *obj,
                      const char *name, const char *where, ecf_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "source");
    int i;
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s.source: expected the key of one of "
                           "\"sources\"",
                           name, where);
    for (i = 0; i < s->n_sources; i++)
        if (strcmp(s->sources[i].key, v->valuestring) == 0) {
            *url = s->sources[i].url;
            *as_of = s->sources[i].as_of;
            return 0;
        }
    return ecf_err_set(err, ECF_EPARSE,
                       "%s: %s.source: unknown source \"%.64s\"", name,
                       where, v->valuestring);
}

static int load_sources(ecf_stacks *s, const cJSON *obj, const char *name,
                        ecf_err *err)
{
    const cJSON *it;
    int rc;
    if (!cJSON_IsObject(obj) || cJSON_GetArraySize(obj) < 1 ||
        cJSON_GetArraySize(obj) > STACKS_MAX_SOURCES)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: sources: expected an object of 1 to %d "
                           "sources",
                           name, STACKS_MAX_SOURCES);
    cJSON_ArrayForEach(it, obj)
    {
        stacks_source *src = &s->sources[s->n_sources++];
        char where[96];
        snprintf(where, sizeof(where), "sources.%.64s", it->string);
        src->key = ecf_xstrdup(it->string);
        if (!cJSON_IsObject(it))
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: %s: expected an object", name, where);
        if ((rc = get_str(&src->url, it, "url", true, name, where, err)) ||
            (rc = get_str(&src->as_of, it, "as_of", true, name, where,
                          err)) ||
            (rc = check_sourced(src->url, src->as_of, name, where, err)))
            return rc;
    }
    return 0;
}

typedef int (*name_parser)(const ecf_stacks *s, const char *v);

static int parse_platform(const ecf_stacks *s, const char *v)
{
    int i;
    for (i = 0; i < s->n_platforms; i++)
        if (strcmp(s->platforms[i].id, v) == 0)
            return i;
    return -1;
}

static int parse_stack(const ecf_stacks *s, const char *v)
{
    int r = ecf_framework_parse(v);
    (void)s;
    if (r >= 0)
        return STACK_ID_FW(r);
    r = ecf_engine_parse(v);
    return r > ECF_ENGINE_AUTO ? STACK_ID_ENGINE(r) : -1;
}

static int parse_task(const ecf_stacks *s, const char *v)
{
    (void)s;
    return ecf_task_parse(v);
}

static int parse_kind(const ecf_stacks *s, const char *v)
{
    (void)s;
    return ecf_model_kind_parse(v);
}

/* An array of names -> a bit set; "*" (alone) means every value < all. */
static int get_bits(unsigned *out, const cJSON *obj, const char *key,
                    name_parser parse, int all, const ecf_stacks *s,
                    const char *what, const char *name, const char *where,
                    ecf_err *err)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key), *it;
    int i = 0;

    *out = 0;
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s.%s: expected a non-empty array of names",
                           name, where, key);
    cJSON_ArrayForEach(it, arr)
    {
        int v;
        if (!cJSON_IsString(it))
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: %s.%s[%d]: expected a string", name,
                               where, key, i);
        if (strcmp(it->valuestring, "*") == 0 && all > 0) {
            *out |= (all >= 32 ? ~0u : (1u << all) - 1);
            i++;
            continue;
        }
        v = parse(s, it->valuestring);
        if (v < 0)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: %s.%s[%d]: unknown %s \"%.64s\"", name,
                               where, key, i, what, it->valuestring);
        *out |= 1u << v;
        i++;
    }
    return 0;
}

static int load_platform(ecf_stacks *s, const cJSON *it, int i,
                         const char *name, ecf_err *err)
{
    stacks_platform *p = &s->platforms[s->n_platforms];
    const cJSON *acc, *a, *cpu, *eng;
    char where[48];
    int rc, n = 0;

    snprintf(where, sizeof(where), "platforms[%d]", i);
    memset(p, 0, sizeof(*p));
    p->cpu_arch = -1;
    s->n_platforms++; /* freed by ecf_stacks_free from here on */
    if (!cJSON_IsObject(it))
        return ecf_err_set(err, ECF_EPARSE, "%s: %s: expected an object",
                           name, where);
    if ((rc = get_str(&p->id, it, "id", true, name, where, err)) ||
        (rc = get_str(&p->name, it, "name", true, name, where, err)) ||
        (rc = get_str(&p->vendor, it, "vendor", false, name, where, err)) ||
        (rc = get_str(&p->why, it, "why", false, name, where, err)) ||
        (rc = get_source(&p->source, &p->as_of, s, it, name, where, err)))
        return rc;
    if (parse_platform(s, p->id) != s->n_platforms - 1)
        return ecf_err_set(err, ECF_EPARSE, "%s: %s.id: \"%s\" listed twice",
                           name, where, p->id);
    acc = cJSON_GetObjectItemCaseSensitive(it, "accelerators");
    if (acc) {
        if (!cJSON_IsArray(acc))
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: %s.accelerators: expected an array of "
                               "catalog accelerator ids",
                               name, where);
        p->accels = ecf_xcalloc((size_t)cJSON_GetArraySize(acc) + 1,
                                sizeof(char *));
        cJSON_ArrayForEach(a, acc)
        {
            if (!cJSON_IsString(a) || !a->valuestring[0])
                return ecf_err_set(err, ECF_EPARSE,
                                   "%s: %s.accelerators[%d]: expected a "
                                   "string",
                                   name, where, n);
            p->accels[n++] = ecf_xstrdup(a->valuestring);
        }
    }
    cpu = cJSON_GetObjectItemCaseSensitive(it, "cpu");
    if (cpu) {
        if (!cJSON_IsString(cpu) || (strcmp(cpu->valuestring, "x86_64") &&
                                     strcmp(cpu->valuestring, "arm64")))
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: %s.cpu: expected \"x86_64\" or \"arm64\"",
                               name, where);
        p->cpu_arch = strcmp(cpu->valuestring, "arm64") == 0 ? ECF_ARCH_ARM64
                                                             : ECF_ARCH_X86_64;
    }
    if (!p->accels && !p->vendor && p->cpu_arch < 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s: needs \"accelerators\", \"vendor\" or "
                           "\"cpu\" to match instances",
                           name, where);
    eng = cJSON_GetObjectItemCaseSensitive(it, "default_engine");
    p->default_engine = ECF_ENGINE_AUTO;
    if (eng) {
        int e = cJSON_IsString(eng) ? ecf_engine_parse(eng->valuestring) : -1;
        if (e <= ECF_ENGINE_AUTO)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: %s.default_engine: unknown engine", name,
                               where);
        p->default_engine = e;
    }
    return 0;
}

static int load_entry(ecf_stacks *s, const cJSON *it, int i,
                      const char *name, ecf_err *err)
{
    stacks_entry *e = &s->entries[s->n_entries];
    const cJSON *st;
    char where[48];
    int rc;

    snprintf(where, sizeof(where), "support[%d]", i);
    memset(e, 0, sizeof(*e));
    s->n_entries++;
    if (!cJSON_IsObject(it))
        return ecf_err_set(err, ECF_EPARSE, "%s: %s: expected an object",
                           name, where);
    if ((rc = get_bits(&e->platforms, it, "platforms", parse_platform,
                       s->n_platforms, s, "platform", name, where, err)) ||
        (rc = get_bits(&e->stacks, it, "stacks", parse_stack, 0, s,
                       "framework or engine", name, where, err)) ||
        (rc = get_bits(&e->tasks, it, "tasks", parse_task, ECF_TASK_COUNT, s,
                       "task", name, where, err)) ||
        (rc = get_bits(&e->kinds, it, "models", parse_kind, ECF_KIND_COUNT,
                       s, "model kind", name, where, err)) ||
        (rc = get_str(&e->why, it, "why", false, name, where, err)) ||
        (rc = get_source(&e->source, &e->as_of, s, it, name, where, err)))
        return rc;
    st = cJSON_GetObjectItemCaseSensitive(it, "status");
    if (!cJSON_IsString(st))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s.status: expected \"supported\", "
                           "\"unverified\" or \"unsupported\"",
                           name, where);
    if (strcmp(st->valuestring, "supported") == 0)
        e->status = ECF_STACK_SUPPORTED;
    else if (strcmp(st->valuestring, "unverified") == 0)
        e->status = ECF_STACK_UNVERIFIED;
    else if (strcmp(st->valuestring, "unsupported") == 0)
        e->status = ECF_STACK_UNSUPPORTED;
    else
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s.status: expected \"supported\", "
                           "\"unverified\" or \"unsupported\"",
                           name, where);
    if (e->status != ECF_STACK_SUPPORTED && !e->why)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s.why: an %s entry needs its reason", name,
                           where, st->valuestring);
    return 0;
}

/* trusted: the embedded copy of a data/ file, already checked by the
 * strict path in tests/unit/test_embedded_data.c, so the document-wide
 * ecf_json_check is skipped. */
static int load_buffer_(bool trusted, ecf_stacks **out, const char *data, size_t len,
                           const char *name, ecf_err *err)
{
    cJSON *root = NULL;
    const cJSON *ver, *arr, *it;
    ecf_stacks *s = NULL;
    int rc, i;

    *out = NULL;
    rc = (trusted ? ecf_json_parse_trusted : ecf_json_parse)(
        &root, data, len, ECF_STACKS_MAX_BYTES, "stacks ",
        name, ECF_EPARSE, err);
    if (rc)
        return rc;
    s = ecf_xcalloc(1, sizeof(*s));
    if (!cJSON_IsObject(root)) {
        rc = ecf_err_set(err, ECF_EPARSE, "%s: expected a JSON object", name);
        goto out;
    }
    ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!cJSON_IsNumber(ver) ||
        ver->valuedouble != ECF_STACKS_SCHEMA_VERSION) {
        rc = ecf_err_set(err, ECF_EPARSE, "%s: schema_version: expected %d",
                         name, ECF_STACKS_SCHEMA_VERSION);
        goto out;
    }
    if ((rc = get_str(&s->as_of, root, "as_of", true, name, "(top)", err)) ||
        (rc = get_str(&s->source, root, "source", true, name, "(top)",
                      err)))
        goto out;
    if (!is_date(s->as_of)) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: as_of: expected a YYYY-MM-DD date", name);
        goto out;
    }
    if ((rc = load_sources(s, cJSON_GetObjectItemCaseSensitive(root,
                                                               "sources"),
                           name, err)) != 0)
        goto out;
    arr = cJSON_GetObjectItemCaseSensitive(root, "platforms");
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1 ||
        cJSON_GetArraySize(arr) > ECF_STACKS_MAX_PLATFORMS) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: platforms: expected an array of 1 to %d "
                         "platforms",
                         name, ECF_STACKS_MAX_PLATFORMS);
        goto out;
    }
    i = 0;
    cJSON_ArrayForEach(it, arr)
    {
        if ((rc = load_platform(s, it, i++, name, err)) != 0)
            goto out;
    }
    arr = cJSON_GetObjectItemCaseSensitive(root, "support");
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1 ||
        cJSON_GetArraySize(arr) > ECF_STACKS_MAX_ENTRIES) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: support: expected an array of 1 to %d entries",
                         name, ECF_STACKS_MAX_ENTRIES);
        goto out;
    }
    s->entries =
        ecf_xcalloc((size_t)cJSON_GetArraySize(arr), sizeof(stacks_entry));
    i = 0;
    cJSON_ArrayForEach(it, arr)
    {
        if ((rc = load_entry(s, it, i++, name, err)) != 0)
            goto out;
    }
out:
    cJSON_Delete(root);
    if (rc) {
        ecf_stacks_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

int ecf_stacks_load_buffer(ecf_stacks **out, const char *data, size_t len, const char *name,
                           ecf_err *err)
{
    return load_buffer_(false, out, data, len, name, err);
}

int ecf_stacks_embedded(ecf_stacks **out, ecf_err *err)
{
#ifdef ECF_HAVE_EMBEDDED_STACKS
    return load_buffer_(
        true, out, ecf_embedded_stacks,
        (size_t)(ecf_embedded_stacks_end - ecf_embedded_stacks), "embedded",
        err);
#else
    *out = NULL;
    return ecf_err_set(err, ECF_EIO, "this build has no embedded stacks");
#endif
}
