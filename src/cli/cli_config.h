/*
 * cli_config.h - user defaults from $XDG_CONFIG_HOME/ec2fit/config.json
 * (else ~/.config/ec2fit/config.json): region, spot policy, output format
 * rules file and framework. Precedence is flag > environment > config file >
 * built-in (docs/config.md). The file is read once, by main, before a
 * command runs; the commands ask the getters below. The loaded values live
 * in static storage for the life of the process (no ownership to track).
 */
#ifndef EC2FIT_CLI_CONFIG_H
#define EC2FIT_CLI_CONFIG_H

#include "cmd.h"

typedef struct {
    char path[4096];   /* the file read; "" when none existed */
    char region[64];   /* "" = unset */
    int spot;          /* -1 unset, 0 false, 1 true */
    char output[16];   /* "" = unset; one of the --output names */
    char rules[4096];  /* "" = unset; relative paths resolved against the
                          config file's directory */
    int framework;     /* -1 unset, else ecf_framework (--framework) */
} cli_config;

/** The config file's path from XDG_CONFIG_HOME / HOME, into `out` (size
 *  n). Returns 0, or ECF_ENOTFOUND when neither variable is set. */
int cli_config_path(char *out, size_t n);

/** Reads the config file (a missing file is no error: every value stays
 *  unset). Errors (exit 1): ECF_EIO unreadable, ECF_EPARSE malformed JSON,
 *  a value of the wrong type, or an unknown key; the message starts with
 *  the file's path. Idempotent: a second call re-reads the file. */
int cli_config_load(ecf_err *err);

/** The loaded values (all unset before cli_config_load). Never NULL. */
const cli_config *cli_config_get(void);

/** Sets *out from the config's "output" when the command accepts that
 *  format (`allowed`, a CLI_OUT_BIT mask); otherwise leaves it alone, so a
 *  config meant for recommend (html) does not break `list`. */
void cli_config_default_output(cli_output *out, unsigned allowed);

/** Default region: AWS_REGION, then AWS_DEFAULT_REGION, then the config
 *  file's "region" (above), then us-east-1. */
const char *cli_default_region(void);

/** cli_default_region for the commands that price (recommend, estimate,
 *  --batch): when it would consult the AWS config and that file cannot be
 *  used (malformed, over 1 MiB, not a regular file) or AWS_PROFILE names
 *  a profile in neither file, this is an error, as `update` treats the
 *  same files, instead of a warning and a price in us-east-1 (issue 28).
 *  Returns 0 with *out set (static or environment storage), else the
 *  negative code with `err` set ("FILE:LINE: reason", "AWS_PROFILE: ..."). */
int cli_default_region_strict(const char **out, ecf_err *err);

#endif
