/*
 * cli_fields.h - `--fields a,b.c`: keep only some members of a command's
 * --output json document (docs/cli.md "Field selection"). A path is keys
 * joined by '.'; an array on the way is crossed, the rest of the path
 * applied to each element (as JMESPath's `plans[*].instance_type`), so
 * `plans.instance_type` keeps the array of plans, each with that one key.
 * The pruned document keeps the original order and formatting.
 */
#ifndef EC2FIT_CLI_FIELDS_H
#define EC2FIT_CLI_FIELDS_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "ec2fit/err.h"

#define CLI_FIELDS_MAX 64
#define CLI_FIELDS_DEPTH 8

typedef struct {
    size_t n;
    char text[1024];                  /* the --fields value, split in place */
    const char *path[CLI_FIELDS_MAX]; /* "plans.instance_type" */
} cli_fields;

/** Parses the --fields value: 1 to 64 comma-separated paths of 1 to 8
 *  keys of letters, digits, '_' and '-'. ECF_EINVAL (exit 2) "--fields:
 *  ..." naming the bad path. */
int cli_fields_parse(cli_fields *out, const char *arg, ecf_err *err);

/** Replaces *root (a JSON document, which it deletes) by the document
 *  pruned to `f`'s paths. A path that matches nothing is ECF_EINVAL
 *  "--fields: unknown field 'P'" with the closest key where it stopped
 *  ("did you mean plans.instance_type?"); *root is left as it was. A
 *  path that stops at a null or at an empty array cannot be checked and
 *  is kept (null) or yields the empty array. */
int cli_fields_apply(cJSON **root, const cli_fields *f, ecf_err *err);

/** For the commands' print_json: prints `root` (and deletes it) through
 *  ecf_render_json_print, pruned to `f` when it is not NULL. Returns 0, or 2
 *  after printing "ec2fit: CMD: --fields: ..." (nothing on stdout). */
int cli_fields_print(FILE *out, cJSON *root, const cli_fields *f,
                     const char *cmd);

#endif
