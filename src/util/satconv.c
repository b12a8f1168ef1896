/*
 * satconv.c - saturating double-to-integer conversions (ec2fit/satconv.h).
 * The comparisons are made in the double domain against bounds that are
 * exactly representable (2^31, 2^63), so no comparison itself rounds a
 * value into range.
 */
#include "ec2fit/satconv.h"

#include <limits.h>
#include <math.h>

int ecf_sat_int(double v)
{
    if (isnan(v))
        return 0;
    if (v >= 2147483648.0) /* 2^31 */
        return INT_MAX;
    if (v <= -2147483649.0)
        return INT_MIN;
    return (int)v;
}

long long ecf_sat_ll(double v)
{
    if (isnan(v))
        return 0;
    if (v >= 9223372036854775808.0) /* 2^63 */
        return LLONG_MAX;
    if (v < -9223372036854775808.0)
        return LLONG_MIN;
    return (long long)v;
}

long ecf_sat_long(double v)
{
    long long x = ecf_sat_ll(v);
    if (x > LONG_MAX)
        return LONG_MAX;
    if (x < LONG_MIN)
        return LONG_MIN;
    return (long)x;
}
