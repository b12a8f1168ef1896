/*
 * batch_fields.c - the batch engine's reading of one profile line: its
 * JSON fields as flag arguments, sorted by name (batch_internal.h); the
 * checks of each field are batch.c's, the flags' own. Also the bounded
 * line reader and the strict parse of a line.
 */
#include "batch_internal.h"

#include "ec2fit/buf.h"
#include "json_check.h"

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
        if (ecf_str_put(f->name, sizeof(f->name), 0, it->string) >=
            sizeof(f->name))
            return ecf_err_set(err, ECF_EINVAL, "unknown field \"%.40s\"",
                               it->string);
        for (p = f->name; *p; p++)
            if (*p == '_')
                *p = '-';
        if (cJSON_IsBool(it)) {
            f->is_bool = true;
            f->bval = cJSON_IsTrue(it);
            ecf_str_put(f->text, sizeof(f->text), 0, f->bval ? "true" : "false");
        } else if (cJSON_IsString(it)) {
            if (ecf_str_put(f->text, sizeof(f->text), 0, it->valuestring) >=
                sizeof(f->text))
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

char *pack_fields(const rb_field *f, size_t n)
{
    size_t i, len = 1, k = 0;
    char *s;

    for (i = 0; i < n; i++)
        len += 3 + strlen(f[i].name) + strlen(f[i].text);
    s = ecf_xmalloc(len);
    for (i = 0; i < n; i++) {
        size_t a = strlen(f[i].name) + 1, b = strlen(f[i].text) + 1;
        s[k++] = (char)(1 + f[i].is_bool + 2 * f[i].bval);
        memcpy(s + k, f[i].name, a);
        memcpy(s + k + a, f[i].text, b);
        k += a + b;
    }
    s[k] = '\0';
    return s;
}

size_t unpack_fields(rb_field *out, const char *packed)
{
    size_t n = 0;

    while (*packed && n < RB_MAX_FIELDS) {
        rb_field *f = &out[n++];
        size_t a, b;
        memset(f, 0, sizeof(*f));
        f->is_bool = (*packed - 1) & 1;
        f->bval = (*packed - 1) >> 1;
        packed++;
        a = strlen(packed) + 1;
        memcpy(f->name, packed, a);
        b = strlen(packed + a) + 1;
        memcpy(f->text, packed + a, b);
        packed += a + b;
    }
    return n;
}

/* Parses one line as strictly as every other loader (json_check.h):
 * nothing after the object ({A}{B} or {A} junk), no duplicate key, no
 * \u0000 or raw control character in a string, valid UTF-8 only. NULL
 * with the message in err. */
cJSON *parse_line(const char *text, size_t len, ecf_err *err)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        ecf_err_set(err, ECF_EINVAL, "malformed JSON at byte %ld",
                    end ? (long)(end - text) : 0L);
        return NULL;
    }
    if (ecf_json_check(root, text, len, end, "JSON", ECF_EINVAL, err) != 0) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* Reads one line (its newline included) into *buf, never holding more
 * than max + 1 bytes: a longer line is consumed to its end without being
 * stored, *too_long is set, and its length is still returned. Returns the
 * length, 0 at the end of input, or -1 on a read error (errno set), so an
 * I/O failure is never mistaken for the end of the input (getline's
 * ENOMEM was). */
long long read_line(char **buf, size_t *cap, FILE *in, size_t max,
                           bool *too_long)
{
    long long n = 0;
    int c;

    *too_long = false;
    if (*cap < max + 2) {
        free(*buf);
        *cap = max + 2;
        *buf = ecf_xmalloc(*cap);
    }
    while ((c = getc(in)) != EOF) {
        if ((size_t)n < max + 1)
            (*buf)[n] = (char)c;
        else
            *too_long = true;
        n++;
        if (c == '\n')
            break;
    }
    if (c == EOF && ferror(in))
        return -1;
    if ((size_t)n > max)
        *too_long = true;
    (*buf)[(size_t)n < max + 1 ? (size_t)n : max + 1] = '\0';
    return n;
}
