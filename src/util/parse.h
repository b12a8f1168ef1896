/*
 * parse.h - strict number parsing of flag-spelled text and name
 * suggestions (util). The cli_ prefix is historical: the CLI's flags and
 * the batch engine's fields share these.
 */
#ifndef EC2FIT_UTIL_PARSE_H
#define EC2FIT_UTIL_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/err.h"

/* ---- strict number parsing for flags (errno, end pointer, range) ---- */

/** The one number syntax of every flag (issue 28): an optional '-', digits,
 *  and for a non-integer an optional fraction and exponent ("1.5",
 *  "1e9", ".5"). No '+', no leading or trailing space, no hex ("0x10"), no
 *  "inf"/"nan": what the unit parsers (units.c) already refused, strtol
 *  and strtod accept. */
bool ecf_parse_plain_number(const char *s, bool integer);

/** "--flag: expected an integer from MIN to MAX, got 'ten'" on failure. */
int ecf_parse_int(int *out, const char *flag, const char *s, long min,
                  long max, ecf_err *err);
/** Finite, >= min (and <= max unless max < min). */
int ecf_parse_double(double *out, const char *flag, const char *s,
                     double min, double max, ecf_err *err);

/** Closest names by edit distance: fills up to `max` borrowed pointers
 *  from `names` (n of them) within a small distance of `s`. */
size_t ecf_parse_suggest(const char **out, size_t max, const char *s,
                   const char *const *names, size_t n);

/** Case-insensitive Levenshtein distance (1000 past 64 bytes). */
size_t ecf_parse_edit_distance(const char *a, const char *b);

#endif
