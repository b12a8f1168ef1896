/*
 * parse.c - strict number parsing for flag-spelled text (the syntax of
 * ecf_parse_plain_number, then errno, end pointer and range) and "did you mean" suggestions by edit distance. Used by
 * the CLI's flags and by the batch engine's fields, so both give the same
 * messages. No I/O.
 */
#include "parse.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

bool ecf_parse_plain_number(const char *s, bool integer)
{
    const char *p = s;
    bool digits = false;

    if (*p == '-')
        p++;
    for (; *p >= '0' && *p <= '9'; p++)
        digits = true;
    if (integer)
        return digits && !*p;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits = true;
    if (!digits)
        return false;
    if (*p == 'e' || *p == 'E') {
        bool exp_digits = false;
        p++;
        if (*p == '+' || *p == '-')
            p++;
        for (; *p >= '0' && *p <= '9'; p++)
            exp_digits = true;
        if (!exp_digits)
            return false;
    }
    return !*p;
}

int ecf_parse_int(int *out, const char *flag, const char *s, long min,
                  long max, ecf_err *err)
{
    char *end = NULL;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (!ecf_parse_plain_number(s, true) || *end || errno == ERANGE || v < min ||
        v > max)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: expected an integer from %ld to %ld, got '%s'",
                           flag, min, max, s);
    *out = (int)v;
    return 0;
}

int ecf_parse_double(double *out, const char *flag, const char *s,
                     double min, double max, ecf_err *err)
{
    char *end = NULL;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (!ecf_parse_plain_number(s, false) || *end || errno == ERANGE ||
        !isfinite(v) || v < min ||
        (max >= min && v > max)) {
        if (max >= min)
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: expected a number from %g to %g, got '%s'",
                               flag, min, max, s);
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: expected a number >= %g, got '%s'", flag, min,
                           s);
    }
    *out = v;
    return 0;
}

/* Damerau-free Levenshtein distance, case-insensitive, capped lengths. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), i, j;
    size_t row[65], prev;

    if (la > 64 || lb > 64)
        return 1000;
    for (j = 0; j <= lb; j++)
        row[j] = j;
    for (i = 1; i <= la; i++) {
        prev = row[0];
        row[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t cur = row[j];
            char ca = a[i - 1], cb = b[j - 1];
            size_t cost;
            if (ca >= 'A' && ca <= 'Z')
                ca = (char)(ca - 'A' + 'a');
            if (cb >= 'A' && cb <= 'Z')
                cb = (char)(cb - 'A' + 'a');
            cost = ca == cb ? 0 : 1;
            row[j] = prev + cost;
            if (row[j - 1] + 1 < row[j])
                row[j] = row[j - 1] + 1;
            if (cur + 1 < row[j])
                row[j] = cur + 1;
            prev = cur;
        }
    }
    return row[lb];
}

size_t ecf_parse_suggest(const char **out, size_t max, const char *s,
                   const char *const *names, size_t n)
{
    /* Accept up to a third of the word's length in edits (at least 2), and
     * return the best matches first. */
    size_t limit = strlen(s) / 3 < 2 ? 2 : strlen(s) / 3;
    size_t best[8];
    size_t count = 0, i, k;

    if (max > 8)
        max = 8;
    for (i = 0; i < n; i++) {
        size_t d = edit_distance(s, names[i]);
        if (d > limit)
            continue;
        /* insertion sort into the top `max` */
        for (k = count; k > 0 && best[k - 1] > d; k--) {
            if (k < max) {
                best[k] = best[k - 1];
                out[k] = out[k - 1];
            }
        }
        if (k < max) {
            best[k] = d;
            out[k] = names[i];
            if (count < max)
                count++;
        }
    }
    return count;
}

size_t ecf_parse_edit_distance(const char *a, const char *b)
{
    return edit_distance(a, b);
}
