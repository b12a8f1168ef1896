/*
 * units_range.c - memory sizes ("16gb", "40GiB") and ranges ("8-32",
 * "16-64GiB", "8-", "-32") for `list`'s filters, written the way
 * amazon-ec2-instance-selector users type them. Grammar in ec2fit/units.h.
 */
#include "ec2fit/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *suffix;
    double gib;
} gib_units[] = {
    {"", 1.0},
    {"GiB", 1.0},
    {"TiB", 1024.0},
    {"MiB", 1.0 / 1024.0},
    {"GB", 1e9 / 1073741824.0},
    {"TB", 1e12 / 1073741824.0},
    {"MB", 1e6 / 1073741824.0},
};

/* digits ["." digits]: the number at the start of s (length in *len), or
 * -1. At most 30 characters, so no overflow before the range check. */
static int scan(double *out, size_t *len, const char *s)
{
    size_t i = 0, digits = 0;
    char tmp[32], *end = NULL;
    while (s[i] >= '0' && s[i] <= '9') {
        i++;
        digits++;
    }
    if (s[i] == '.') {
        i++;
        if (!(s[i] >= '0' && s[i] <= '9'))
            return -1;
        while (s[i] >= '0' && s[i] <= '9') {
            i++;
            digits++;
        }
    }
    if (digits == 0 || i >= sizeof(tmp))
        return -1;
    memcpy(tmp, s, i);
    tmp[i] = '\0';
    *out = strtod(tmp, &end);
    *len = i;
    return *end || !isfinite(*out) ? -1 : 0;
}

/* The GiB factor of unit text `u` (n bytes), or -1 when unknown. */
static double unit_factor(const char *u, size_t n)
{
    size_t i;
    for (i = 0; i < sizeof(gib_units) / sizeof(gib_units[0]); i++)
        if (strlen(gib_units[i].suffix) == n &&
            strncasecmp(gib_units[i].suffix, u, n) == 0)
            return gib_units[i].gib;
    return -1;
}

/* One bound: number and (gib) optional unit, from s[0..n). *has_unit says
 * whether a unit was written. */
static int bound(double *out, bool *has_unit, bool gib, const char *s,
                 size_t n)
{
    size_t len = 0;
    double v, f = 1.0;
    if (scan(&v, &len, s) < 0 || len > n)
        return -1;
    if (gib) {
        f = unit_factor(s + len, n - len);
        if (f < 0)
            return -1;
    } else if (len != n || v != floor(v)) {
        return -1;
    }
    *has_unit = len != n;
    *out = v * f;
    return 0;
}

int ecf_units_parse_gib(double *gib_out, const char *flag, const char *s,
                        ecf_err *err)
{
    bool u;
    if (bound(gib_out, &u, true, s, strlen(s)) < 0 || *gib_out > 1e9)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: expected a memory size like 16, 16GiB, 16gb "
                           "or 1.5TiB (no unit = GiB), got '%s'",
                           flag, s);
    return 0;
}

int ecf_units_parse_range(ecf_range *out, bool gib, const char *flag,
                          const char *s, ecf_err *err)
{
    const char *dash = strchr(s, '-');
    size_t n = strlen(s);
    bool lo_unit = false, hi_unit = false;
    ecf_range r = {0, -1};

    if (!*s || (dash && strchr(dash + 1, '-')) || (dash && n == 1))
        goto bad;
    if (!dash) {
        if (bound(&r.lo, &lo_unit, gib, s, n) < 0)
            goto bad;
        r.hi = r.lo;
    } else {
        if (dash > s && bound(&r.lo, &lo_unit, gib, s, (size_t)(dash - s)) < 0)
            goto bad;
        if (dash[1] && bound(&r.hi, &hi_unit, gib, dash + 1,
                             n - (size_t)(dash - s) - 1) < 0)
            goto bad;
        /* "16-64GiB": the unit of the upper bound covers the lower one */
        if (gib && dash > s && dash[1] && !lo_unit && hi_unit) {
            double f = 1.0;
            size_t len = 0;
            double v;
            if (scan(&v, &len, dash + 1) == 0)
                f = unit_factor(dash + 1 + len, strlen(dash + 1 + len));
            r.lo *= f;
        }
    }
    if (r.lo > 1e9 || r.hi > 1e9)
        goto bad;
    if (r.hi >= 0 && r.lo > r.hi)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: the lower bound of '%s' is above the upper one",
                           flag, s);
    *out = r;
    return 0;
bad:
    return ecf_err_set(err, ECF_EINVAL,
                       gib ? "%s: expected a size or a range like 16GiB, "
                             "16-64GiB, 16gb- or -64 (no unit = GiB), got '%s'"
                           : "%s: expected a whole number or a range like 8, "
                             "8-32, 8- or -32, got '%s'",
                       flag, s);
}
