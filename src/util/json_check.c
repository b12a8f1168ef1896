/*
 * json_check.c - checks on a parsed cJSON tree: nothing after the value,
 * every key and string valid UTF-8, no duplicate keys. Small objects
 * (the usual case) are checked pairwise; larger ones (the Spot Advisor's
 * per-region maps run to hundreds of keys) sort a copy of their key
 * pointers, so the check stays O(n log n) per object. Recursion depth is
 * bounded by cJSON's own nesting limit (CJSON_NESTING_LIMIT, 1000).
 */
#include "json_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/err.h"
#include "ec2fit/textsafe.h"

#define PAIRWISE_MAX 16

/* RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF.
 * cJSON copies string bytes through unchecked (it only decodes \u
 * escapes), so this is where invalid text stops. */
static bool utf8_valid(const unsigned char *s)
{
    while (*s) {
        size_t n = ecf_utf8_len(s);
        if (n == 0)
            return false;
        s += n;
    }
    return true;
}

static int key_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *dup_in(const cJSON *obj)
{
    const cJSON *a, *b;
    const char **keys = NULL;
    const char *hit = NULL;
    size_t n = 0, i;

    for (a = obj->child; a; a = a->next)
        n++;
    if (n <= PAIRWISE_MAX) {
        for (a = obj->child; a; a = a->next)
            for (b = a->next; b; b = b->next)
                if (a->string && b->string && strcmp(a->string, b->string) == 0)
                    return a->string;
        return NULL;
    }
    keys = ecf_xcalloc(n, sizeof(*keys));
    for (a = obj->child, i = 0; a; a = a->next)
        keys[i++] = a->string ? a->string : "";
    qsort(keys, n, sizeof(*keys), key_cmp);
    for (i = 1; i < n && !hit; i++)
        if (strcmp(keys[i - 1], keys[i]) == 0)
            hit = keys[i];
    free(keys);
    return hit;
}

/* Appends the path step for `c`, a member of `node`, at path[len]. */
static size_t step(char *path, size_t size, size_t len, const cJSON *node,
                   const cJSON *c, size_t i)
{
    int w;
    if (cJSON_IsArray(node))
        w = snprintf(path + len, size - len, "[%zu]", i);
    else
        w = snprintf(path + len, size - len, "%s%s", len ? "." : "",
                     c->string ? c->string : "");
    if (w < 0 || (size_t)w >= size - len)
        w = (int)(size - len - 1); /* truncated: keep what fits */
    return len + (size_t)w;
}

/* Depth-first: sets *key_out to a duplicate key, or *bad_utf8 when a key
 * or string value is not UTF-8 (path then names that member). */
static bool walk(char *path, size_t size, size_t len, const char **key_out,
                 bool *bad_utf8, const cJSON *node)
{
    const cJSON *c;
    size_t i = 0;

    if (cJSON_IsObject(node)) {
        const char *k = dup_in(node);
        if (k) {
            *key_out = k;
            return true;
        }
    } else if (!cJSON_IsArray(node)) {
        return false;
    }
    for (c = node->child; c; c = c->next, i++) {
        size_t end;
        if ((c->string && !utf8_valid((const unsigned char *)c->string)) ||
            (cJSON_IsString(c) && c->valuestring &&
             !utf8_valid((const unsigned char *)c->valuestring))) {
            if (c->string && !utf8_valid((const unsigned char *)c->string))
                c = NULL; /* don't echo an invalid key into the path */
            if (c)
                step(path, size, len, node, c, i);
            *bad_utf8 = true;
            return true;
        }
        if (!cJSON_IsObject(c) && !cJSON_IsArray(c))
            continue;
        end = step(path, size, len, node, c, i);
        if (walk(path, size, end, key_out, bad_utf8, c))
            return true;
        path[len] = '\0';
    }
    return false;
}

/* RFC 8259 section 7: a string may not hold an unescaped U+0000-U+001F,
 * and cJSON copies such bytes through. And cJSON decodes "\u0000" into
 * a NUL that ends its C string, so "hidden_size\u0000x" would read as
 * hidden_size. Both are refused on the raw text, which cJSON has already
 * accepted as JSON (so quotes and escapes pair up). Returns 0, or the
 * error with the byte offset. */
/* Is the string that contains data[i] an object key? Looks past its
 * closing quote for ':'. */
static bool in_key(const char *data, size_t len, size_t i)
{
    size_t k = i;
    while (k < len && data[k] != '"')
        k += data[k] == '\\' ? 2 : 1;
    for (k++; k < len && (data[k] == ' ' || data[k] == '\t' ||
                          data[k] == '\n' || data[k] == '\r');
         k++)
        ;
    return k < len && data[k] == ':';
}

static int raw_scan(const char *data, size_t len, const char *name,
                    ecf_code code, ecf_err *err)
{
    size_t i;
    bool in_str = false;

    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)data[i];
        if (!in_str) {
            in_str = c == '"';
            continue;
        }
        if (c == '"') {
            in_str = false;
        } else if (c < 0x20) {
            return ecf_err_set(err, code,
                               "%s: control character U+%04X in a %s at "
                               "byte offset %zu",
                               name, c,
                               in_key(data, len, i) ? "key" : "string", i);
        } else if (c == '\\') {
            if (i + 5 < len && memcmp(data + i + 1, "u0000", 5) == 0)
                return ecf_err_set(err, code,
                                   "%s: \\u0000 in a %s at byte offset %zu",
                                   name,
                                   in_key(data, len, i) ? "key" : "string",
                                   i);
            i++; /* the escaped character */
        }
    }
    return 0;
}

int ecf_json_check(const cJSON *root, const char *data, size_t len,
                   const char *parse_end, const char *name, ecf_code code,
                   ecf_err *err)
{
    char path[128];
    const char *key = NULL;
    bool bad_utf8 = false;

    if (data && parse_end) {
        const char *p = parse_end;
        while (p < data + len &&
               (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            p++;
        if (p < data + len)
            return ecf_err_set(err, code,
                               "%s: unexpected data after the JSON value at "
                               "byte offset %zu",
                               name, (size_t)(p - data));
    }
    if (data && parse_end) {
        int rc = raw_scan(data, (size_t)(parse_end - data), name, code, err);
        if (rc)
            return rc;
    }
    path[0] = '\0';
    if (!walk(path, sizeof(path), 0, &key, &bad_utf8, root))
        return 0;
    if (bad_utf8)
        return ecf_err_set(err, code, "%s: %s%sinvalid UTF-8 in a string",
                           name, path, path[0] ? ": " : "");
    return ecf_err_set(err, code, "%s: %s%sduplicate key \"%.64s\"", name,
                       path, path[0] ? ": " : "", key);
}

static int parse(cJSON **root_out, const char *data, size_t len,
                 size_t max_bytes, const char *what, const char *name,
                 ecf_code code, bool strict, ecf_err *err)
{
    const char *end = NULL;
    cJSON *root;
    int rc;

    *root_out = NULL;
    if (len > max_bytes)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: %zu bytes exceed the %ssize limit of %zu "
                           "bytes",
                           name, len, what, max_bytes);
    root = cJSON_ParseWithLengthOpts(data, len, &end, 0);
    if (!root)
        return ecf_err_set(err, code, "%s: invalid JSON at byte offset %zu",
                           name, end ? (size_t)(end - data) : (size_t)0);
    rc = strict ? ecf_json_check(root, data, len, end, name, code, err) : 0;
    if (rc) {
        cJSON_Delete(root);
        return rc;
    }
    *root_out = root;
    return 0;
}

int ecf_json_parse(cJSON **root_out, const char *data, size_t len,
                   size_t max_bytes, const char *what, const char *name,
                   ecf_code code, ecf_err *err)
{
    return parse(root_out, data, len, max_bytes, what, name, code, true, err);
}

int ecf_json_parse_trusted(cJSON **root_out, const char *data, size_t len,
                           size_t max_bytes, const char *what,
                           const char *name, ecf_code code, ecf_err *err)
{
    return parse(root_out, data, len, max_bytes, what, name, code, false,
                 err);
}

int ecf_json_data_head(const cJSON *root, const char *name, int version,
                       char as_of[11], const char *array_key,
                       const cJSON **arr, ecf_err *err)
{
    const cJSON *v;
    if (!cJSON_IsObject(root))
        return ecf_err_set(err, ECF_EPARSE, "%s: expected a JSON object", name);
    v = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!cJSON_IsNumber(v) || v->valuedouble != version)
        return ecf_err_set(err, ECF_EPARSE, "%s: schema_version: expected %d",
                           name, version);
    v = cJSON_GetObjectItemCaseSensitive(root, "as_of");
    if (!cJSON_IsString(v) || strlen(v->valuestring) != 10)
        return ecf_err_set(err, ECF_EPARSE, "%s: as_of: expected YYYY-MM-DD",
                           name);
    memcpy(as_of, v->valuestring, 11);
    *arr = cJSON_GetObjectItemCaseSensitive(root, array_key);
    if (!cJSON_IsArray(*arr))
        return ecf_err_set(err, ECF_EPARSE, "%s: %s: expected an array", name,
                           array_key);
    return 0;
}
