/*
 * units.c - strict parsers for counts, dataset sizes, durations and dollar
 * amounts (grammar in ec2fit/units.h and docs/estimation.md).
 *
 * Numbers are scanned by hand instead of with strtod so that the grammar is
 * exactly what the header says: strtod would accept signs, exponents, hex,
 * "inf", "nan" and leading spaces, all of which are rejected here.
 */
#include "ec2fit/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 2^53: beyond this a double no longer holds every integer. */
#define MAX_EXACT 9007199254740992.0

const char *ecf_dataset_unit_name(ecf_dataset_unit u)
{
    switch (u) {
    case ECF_DATASET_ITEMS:
        return "items";
    case ECF_DATASET_SAMPLES:
        return "samples";
    case ECF_DATASET_TOKENS:
        return "tokens";
    case ECF_DATASET_BYTES:
        return "bytes";
    case ECF_DATASET_NONE:
    default:
        return "none";
    }
}

/* Scans `number` = digits ["." digits] | "." digits at *p. Returns 0 and
 * advances *p, or -1 when there is no well-formed number. At most 30
 * characters, so the value cannot overflow before the range check. */
static int scan_number(double *out, const char **p)
{
    const char *s = *p;
    char tmp[32];
    size_t n = 0, digits = 0;
    char *end = NULL;
    double v;

    while (*s >= '0' && *s <= '9') {
        s++;
        digits++;
    }
    if (*s == '.') {
        s++;
        if (!(*s >= '0' && *s <= '9'))
            return -1; /* "7." */
        while (*s >= '0' && *s <= '9') {
            s++;
            digits++;
        }
    }
    if (digits == 0)
        return -1;
    n = (size_t)(s - *p);
    if (n >= sizeof(tmp))
        return -1;
    memcpy(tmp, *p, n);
    tmp[n] = '\0';
    v = strtod(tmp, &end);
    if (*end || !isfinite(v))
        return -1;
    *out = v;
    *p = s;
    return 0;
}

/* Scale suffix of a count at *p: K M B T in either case ("7b" as "7B",
 * as users type it). Returns the multiplier and advances, or 1 when there
 * is none. */
static double scan_scale(const char **p)
{
    switch (**p) {
    case 'K':
    case 'k':
        (*p)++;
        return 1e3;
    case 'M':
    case 'm':
        (*p)++;
        return 1e6;
    case 'B':
    case 'b':
        (*p)++;
        return 1e9;
    case 'T':
    case 't':
        (*p)++;
        return 1e12;
    default:
        return 1.0;
    }
}

static int bad_count(const char *flag, const char *s, ecf_err *err)
{
    return ecf_err_set(err, ECF_EINVAL,
                       "%s: expected a count like 7B, 1.28M, 350k or 2T "
                       "(suffixes K, M, B, T in either case), got '%s'",
                       flag, s);
}

int ecf_units_parse_count(double *out,
                          const char *flag,
                          const char *s,
                          ecf_err *err)
{
    const char *p = s;
    double v, mul;

    if (scan_number(&v, &p) < 0)
        return bad_count(flag, s, err);
    mul = scan_scale(&p);
    if (*p)
        return bad_count(flag, s, err);
    v *= mul;
    if (!isfinite(v) || v > MAX_EXACT)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: '%s' is too large (at most 9P)", flag, s);
    *out = v;
    return 0;
}

static const struct {
    const char *suffix;
    double bytes;
} byte_units[] = {
    {"KiB", 1024.0},
    {"MiB", 1048576.0},
    {"GiB", 1073741824.0},
    {"TiB", 1099511627776.0},
    {"PiB", 1125899906842624.0},
    {"KB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
    {"PB", 1e15},
};

static int bad_dataset(const char *flag, const char *s, ecf_err *err)
{
    return ecf_err_set(err, ECF_EINVAL,
                       "%s: expected a count like 1.28M, tokens like 2Ttok "
                       "or bytes like 150GB or 500GiB, got '%s'",
                       flag, s);
}

int ecf_units_parse_dataset(double *amount_out,
                            ecf_dataset_unit *unit_out,
                            const char *flag,
                            const char *s,
                            ecf_err *err)
{
    const char *p = s;
    double v, mul = 1.0;
    ecf_dataset_unit unit = ECF_DATASET_ITEMS;
    size_t i;

    if (scan_number(&v, &p) < 0)
        return bad_dataset(flag, s, err);
    for (i = 0; i < sizeof(byte_units) / sizeof(byte_units[0]); i++) {
        if (strcmp(p, byte_units[i].suffix) == 0) {
            mul = byte_units[i].bytes;
            unit = ECF_DATASET_BYTES;
            p += strlen(p);
            break;
        }
    }
    if (unit != ECF_DATASET_BYTES) {
        mul = scan_scale(&p);
        if (strcmp(p, "tok") == 0 || strcmp(p, "tokens") == 0)
            unit = ECF_DATASET_TOKENS;
        else if (strcmp(p, "samples") == 0 || strcmp(p, "seq") == 0)
            unit = ECF_DATASET_SAMPLES;
        else if (*p)
            return bad_dataset(flag, s, err);
    }
    v *= mul;
    if (!isfinite(v) || v > MAX_EXACT * 1e3)
        return ecf_err_set(err, ECF_EINVAL, "%s: '%s' is too large", flag, s);
    if (v <= 0)
        return ecf_err_set(err, ECF_EINVAL, "%s: must be more than zero", flag);
    *amount_out = v;
    *unit_out = unit;
    return 0;
}

int ecf_units_parse_duration(double *hours_out,
                             const char *flag,
                             const char *s,
                             ecf_err *err)
{
    /* Units must appear in descending order, each at most once, so "1h30m"
     * is fine and "30m1h" or "1h1h" is a typo worth reporting. */
    static const struct {
        char c;
        double hours;
    } units[] = {{'w', 168.0},
                 {'d', 24.0},
                 {'h', 1.0},
                 {'m', 1.0 / 60.0},
                 {'s', 1.0 / 3600.0}};
    const char *p = s;
    double total = 0;
    size_t next = 0, i;
    int parts = 0;

    while (*p) {
        double v;
        if (scan_number(&v, &p) < 0)
            goto bad;
        for (i = next; i < sizeof(units) / sizeof(units[0]); i++)
            if (*p == units[i].c)
                break;
        if (i == sizeof(units) / sizeof(units[0]))
            goto bad;
        p++;
        total += v * units[i].hours;
        next = i + 1;
        parts++;
    }
    if (parts == 0)
        goto bad;
    if (!isfinite(total) || total > 1e9)
        return ecf_err_set(err, ECF_EINVAL, "%s: '%s' is too long", flag, s);
    if (total <= 0)
        return ecf_err_set(err, ECF_EINVAL, "%s: must be more than zero", flag);
    *hours_out = total;
    return 0;
bad:
    return ecf_err_set(err, ECF_EINVAL,
                       "%s: expected a duration like 24h, 90m, 2d, 30s or "
                       "1h30m, got '%s'",
                       flag, s);
}

int ecf_units_parse_usd(double *out,
                        const char *flag,
                        const char *s,
                        ecf_err *err)
{
    const char *p = s;
    double v, mul = 1.0;

    if (*p == '$')
        p++;
    if (scan_number(&v, &p) < 0)
        goto bad;
    if (*p == 'k' || *p == 'K') {
        mul = 1e3;
        p++;
    } else if (*p == 'M') {
        mul = 1e6;
        p++;
    }
    if (*p)
        goto bad;
    v *= mul;
    if (!isfinite(v) || v > 1e12)
        return ecf_err_set(err, ECF_EINVAL, "%s: '%s' is too large", flag, s);
    *out = v;
    return 0;
bad:
    return ecf_err_set(err, ECF_EINVAL,
                       "%s: expected a dollar amount like $500, 500 or "
                       "1.5k, got '%s'",
                       flag, s);
}

char *ecf_units_format_count(char *buf, size_t size, double v)
{
    static const struct {
        double scale;
        char suffix;
    } scales[] = {{1e12, 'T'}, {1e9, 'B'}, {1e6, 'M'}, {1e3, 'K'}};
    size_t i;

    if (size == 0)
        return buf;
    for (i = 0; i < sizeof(scales) / sizeof(scales[0]); i++) {
        if (v >= scales[i].scale * 0.9995) {
            snprintf(buf, size, "%.3g%c", v / scales[i].scale,
                     scales[i].suffix);
            return buf;
        }
    }
    snprintf(buf, size, "%.3g", v);
    return buf;
}
