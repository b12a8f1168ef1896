/**
 * ec2fit/units.h - strict parsing of the human-friendly quantities every
 * command accepts: counts (7B, 1.28M), dataset sizes (1.28M, 2Ttok, 150GB),
 * durations (24h, 1h30m) and dollar amounts ($500, 1.5k).
 *
 * Grammar (docs/estimation.md, "Units", repeats it for users):
 *
 *   number   = digits ["." digits] | "." digits      (no sign, no exponent)
 *   count    = number [scale]
 *   scale    = "K" | "k" | "M" | "B" | "T"          (10^3 10^3 10^6 10^9 10^12)
 *   dataset  = count                                 items: tokens for decoder
 *                                                    and MoE LLMs, samples for
 *                                                    every other model kind
 *            | count ("tok" | "tokens")              tokens
 *            | count ("samples" | "seq")             samples
 *            | number bytes                          bytes
 *   bytes    = "KB" | "MB" | "GB" | "TB" | "PB"      (decimal, 10^3n)
 *            | "KiB" | "MiB" | "GiB" | "TiB" | "PiB" (binary, 2^10n)
 *   duration = 1*(number ("s" | "m" | "h" | "d" | "w"))   units descending,
 *                                                    e.g. 1h30m; a bare number
 *                                                    is rejected
 *   usd      = ["$"] number ["k" | "K" | "M"]
 *
 * Lowercase m, b and t are rejected on purpose: "7b" could be bits or bytes
 * and "5m" minutes or milli, so only the uppercase forms are scales. Spaces,
 * signs, exponents, repeated suffixes ("7BB"), NaN, infinity and values that
 * overflow a double's exact integer range (> 2^53) are rejected.
 *
 * Every parser writes nothing on failure and returns ECF_EINVAL with one line
 * naming the flag: "--params: expected a count like 7B, 1.28M, 350k, got
 * '7 B'". Pure functions: no I/O, no allocation.
 */
#ifndef EC2FIT_UNITS_H
#define EC2FIT_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a --dataset amount counts. */
typedef enum {
    ECF_DATASET_NONE = 0, /* no dataset given */
    ECF_DATASET_ITEMS,    /* bare count: resolved per model kind */
    ECF_DATASET_SAMPLES,  /* images, sequences, clips */
    ECF_DATASET_TOKENS,   /* LLM tokens */
    ECF_DATASET_BYTES     /* raw bytes on storage */
} ecf_dataset_unit;

/** "none", "items", "samples", "tokens", "bytes". */
const char *ecf_dataset_unit_name(ecf_dataset_unit u);

/** Parses a count ("7B", "1.28M", "350k", "2T", "42"). The result is > 0
 *  unless the text is exactly a zero ("0", "0.0"), which is returned as 0 so
 *  the caller can word its own range message.
 *  Errors: ECF_EINVAL naming `flag`. */
int ecf_units_parse_count(double *out,
                          const char *flag,
                          const char *s,
                          ecf_err *err);

/** Parses a dataset size (see the grammar above). *amount_out is in the
 *  unit written to *unit_out (bytes for byte sizes). Zero is rejected.
 *  Errors: ECF_EINVAL naming `flag`. */
int ecf_units_parse_dataset(double *amount_out,
                            ecf_dataset_unit *unit_out,
                            const char *flag,
                            const char *s,
                            ecf_err *err);

/** Parses a duration ("24h", "90m", "2d", "30s", "1h30m", "1.5h") into
 *  hours. Zero is rejected. Errors: ECF_EINVAL naming `flag`. */
int ecf_units_parse_duration(double *hours_out,
                             const char *flag,
                             const char *s,
                             ecf_err *err);

/** Parses a dollar amount ("$500", "500", "1.5k", "$2M") into USD. Zero is
 *  accepted (a budget of nothing is the caller's to refuse).
 *  Errors: ECF_EINVAL naming `flag`. */
int ecf_units_parse_usd(double *out,
                        const char *flag,
                        const char *s,
                        ecf_err *err);

/** Parses a memory size into GiB: a number with an optional unit, any case:
 *  none or GiB/TiB/MiB (binary: 2^30, 2^40, 2^20 bytes) or GB/TB/MB (SI:
 *  10^9, 10^12, 10^6 bytes). "16gb" = 14.90 GiB, "40GiB" = 40. Zero is
 *  accepted. Errors: ECF_EINVAL naming `flag`. (src/units_range.c) */
int ecf_units_parse_gib(double *gib_out,
                        const char *flag,
                        const char *s,
                        ecf_err *err);

/** A closed interval; lo = 0 and hi < 0 when a side is open. */
typedef struct {
    double lo, hi;
} ecf_range;

/** Parses a range as amazon-ec2-instance-selector writes them: "8" (exactly
 *  8), "8-32", "8-" (at least 8) or "-32" (at most 32). `gib` selects
 *  memory sizes (ecf_units_parse_gib: "16-64GiB", "16gb-1tb"; a unit on
 *  the upper bound alone applies to both) instead of whole numbers. The
 *  lower bound may not exceed the upper one. Errors: ECF_EINVAL naming
 *  `flag`. */
int ecf_units_parse_range(ecf_range *out,
                          bool gib,
                          const char *flag,
                          const char *s,
                          ecf_err *err);

/** Formats a count compactly with 3 significant digits ("7.24B", "350K",
 *  "124M", "12"). Always NUL-terminates; returns `buf`. */
char *ecf_units_format_count(char *buf, size_t size, double v);

#ifdef __cplusplus
}
#endif

#endif
