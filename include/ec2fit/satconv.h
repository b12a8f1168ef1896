/*
 * ec2fit/satconv.h - saturating double-to-integer conversions.
 *
 * C11 6.3.1.4: converting a double whose integral part does not fit the
 * target type is undefined behaviour (x86 yields INT_MIN, which is how a
 * 1e9 req/s peak once printed "warm_pool_size": -2147483648). Every
 * conversion of a computed double to an integer goes through these: NaN
 * becomes 0, values beyond the range clamp to its ends, and the rest
 * truncate toward zero as a cast would. GCC/clang's
 * -fsanitize=float-cast-overflow (CI's sanitizer build) reports any cast
 * left behind.
 */
#ifndef EC2FIT_SATCONV_H
#define EC2FIT_SATCONV_H

#ifdef __cplusplus
extern "C" {
#endif

/** (int)v, clamped to [INT_MIN, INT_MAX]; NaN gives 0. */
int ecf_sat_int(double v);

/** (long long)v, clamped to [LLONG_MIN, LLONG_MAX]; NaN gives 0. */
long long ecf_sat_ll(double v);

/** (long)v, clamped to [LONG_MIN, LONG_MAX]; NaN gives 0. */
long ecf_sat_long(double v);

#ifdef __cplusplus
}
#endif

#endif
