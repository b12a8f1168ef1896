/*
 * batch_fields.c - the batch engine's reading of one profile line: its
 * JSON fields as flag arguments, sorted by name (batch_internal.h); the
 * checks of each field are batch.c's, the flags' own.
 */
#include "batch_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int field_cmp(const void *a, const void *b)
{
    return strcmp(((const rb_field *)a)->name, ((const rb_field *)b)->name);
}

/* Reads the line's fields as flag arguments: strings as they are, numbers
 * in the shortest form that reads back exactly, lists comma-joined. */
int read_fields(rb_field *out, size_t *n_out, const cJSON *root,
                ecf_err *err)
{
    const cJSON *it;
    size_t n = 0, i;

    if (!cJSON_IsObject(root))
        return ecf_err_set(err, ECF_EINVAL,
                           "expected a JSON object of recommend's flags");
    cJSON_ArrayForEach(it, root)
    {
        rb_field *f = &out[n];
        char *p;
        if (n == RB_MAX_FIELDS)
            return ecf_err_set(err, ECF_EINVAL, "more than %d fields",
                               RB_MAX_FIELDS);
        memset(f, 0, sizeof(*f));
        if ((size_t)snprintf(f->name, sizeof(f->name), "%s", it->string) >=
            sizeof(f->name))
            return ecf_err_set(err, ECF_EINVAL, "unknown field \"%.40s\"",
                               it->string);
        for (p = f->name; *p; p++)
            if (*p == '_')
                *p = '-';
        if (cJSON_IsBool(it)) {
            f->is_bool = true;
            f->bval = cJSON_IsTrue(it);
            snprintf(f->text, sizeof(f->text), "%s",
                     f->bval ? "true" : "false");
        } else if (cJSON_IsString(it)) {
            if ((size_t)snprintf(f->text, sizeof(f->text), "%s",
                                 it->valuestring) >= sizeof(f->text))
                return ecf_err_set(err, ECF_EINVAL,
                                   "\"%s\": value longer than %zu bytes",
                                   f->name, sizeof(f->text) - 1);
        } else if (cJSON_IsNumber(it)) {
            snprintf(f->text, sizeof(f->text), "%.15g", it->valuedouble);
            if (strtod(f->text, NULL) != it->valuedouble)
                snprintf(f->text, sizeof(f->text), "%.17g", it->valuedouble);
        } else if (cJSON_IsArray(it)) {
            const cJSON *el;
            size_t len = 0;
            cJSON_ArrayForEach(el, it)
            {
                int k;
                if (!cJSON_IsString(el))
                    return ecf_err_set(err, ECF_EINVAL,
                                       "\"%s\": expected an array of "
                                       "strings",
                                       f->name);
                k = snprintf(f->text + len, sizeof(f->text) - len, "%s%s",
                             len ? "," : "", el->valuestring);
                if (k < 0 || (size_t)k >= sizeof(f->text) - len)
                    return ecf_err_set(err, ECF_EINVAL,
                                       "\"%s\": list longer than %zu bytes",
                                       f->name, sizeof(f->text) - 1);
                len += (size_t)k;
            }
        } else {
            return ecf_err_set(err, ECF_EINVAL,
                               "\"%s\": expected a string, number, boolean "
                               "or array of strings",
                               f->name);
        }
        n++;
    }
    qsort(out, n, sizeof(*out), field_cmp);
    for (i = 1; i < n; i++)
        if (strcmp(out[i - 1].name, out[i].name) == 0)
            return ecf_err_set(err, ECF_EINVAL, "duplicate field \"%s\"",
                               out[i].name);
    *n_out = n;
    return 0;
}
