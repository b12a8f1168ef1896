/**
 * ec2fit/dates.h - calendar dates as catalogs write them (YYYY-MM-DD,
 * proleptic Gregorian, UTC). Pure: "now" is always passed in.
 */
#ifndef EC2FIT_DATES_H
#define EC2FIT_DATES_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Parses exactly "YYYY-MM-DD" (years 1970-9999) and checks that the day
 *  exists (2026-02-30 and 2026-13-01 do not; 2028-02-29 does). On success
 *  *days_out (may be NULL) is the number of days since 1970-01-01. */
bool ecf_date_parse(const char *s, long *days_out);

#ifdef __cplusplus
}
#endif

#endif
