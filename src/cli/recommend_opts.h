/*
 * recommend_opts.h - recommend's option ids and getopt_long table
 * (recommend_opts.c); the workload flags' ids are workload_flags.h's.
 */
#ifndef EC2FIT_CLI_RECOMMEND_OPTS_H
#define EC2FIT_CLI_RECOMMEND_OPTS_H

#include <getopt.h>
#include <stdio.h>

#include "ec2fit/err.h"
#include "ec2fit/recommend.h"

enum {
    O_DEADLINE = 256, O_BUDGET, O_BUDGET_HOURLY, O_PEAK_QPS, O_MAX_NODES,
    O_SPOT, O_NO_SPOT, O_CHECKPOINT, O_REGION, O_REGIONS, O_FAMILIES,
    O_EXCLUDE, O_OPTIMIZE, O_TOP, O_EXPLAIN, O_OUTPUT, O_RULES, O_CATALOG,
    O_BATCH, O_OUTPUT_FILE, O_NODE_CLASS, O_NODE_CLASS_SPEC, O_ESTIMATE_MISSING,
    /* purchase and fleet flags (fleet_opts.c) */
    O_PURCHASE, O_TARGET_UTIL, O_ASYNC, O_MAX_WAIT, O_START_TIME,
    O_FALLBACK, O_MAX_INTERRUPTION,
    O_FIELDS /* --fields (cli_fields.h) */
};

/** Applies one of the purchase/fleet flags (O_PURCHASE..) to `o` (its
 *  ecf_recommend_opts). Returns 1 when `id` is one of them, 0 when it
 *  is not, a negative ecf_code with `err` set on a bad value. */
int cli_fleet_option(ecf_recommend_opts *o, int id, const char *arg,
                     ecf_err *err);

/** The usage lines of those flags. */
void cli_fleet_usage(FILE *f);

/** recommend's getopt_long table (terminated by a NULL name), for
 *  commands that translate other input into its flags. */
const struct option *cli_recommend_longopts(void);

#endif
