/*
 * cmd.h - the CLI's subcommand table and the helpers every cmd_*.c shares.
 *
 * Only the CLI reads argv and the environment, prints, or decides exit
 * statuses. Each command is a main-like `int cmd_x(int argc, char **argv)`
 * that returns the process exit status (0 ok, 1 runtime, 2 usage, 3 no fit).
 * Each command parses with getopt_long and sets `optind = 0` first (glibc:
 * optind = 1 would keep the global '+' ordering).
 */
#ifndef EC2FIT_CLI_CMD_H
#define EC2FIT_CLI_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "ec2fit/buf.h"
#include "ec2fit/catalog.h"
#include "ec2fit/err.h"
#include "parse.h"        /* ecf_parse_int/double, ecf_parse_suggest (util) */
#include "region_check.h" /* ecf_region_check (data) */

typedef int (*ecf_cmd_fn)(int argc, char **argv);

typedef struct {
    const char *name;
    ecf_cmd_fn fn;
    const char *summary;
} ecf_cmd;

int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_recommend(int argc, char **argv);
int cmd_update(int argc, char **argv);
int cmd_tf_external(int argc, char **argv);
int cmd_completion(int argc, char **argv);
/** Hidden: `ec2fit __complete KIND [PREFIX]`, run by the completion
 *  scripts (cmd_complete.c). */
int cmd_complete(int argc, char **argv);
/** The subcommand table of main.c (for `completion`). */
const ecf_cmd *cli_commands(size_t *n_out);

/* ---- diagnostics ---- */

/** Prints "ec2fit: <msg>" on stderr and returns the exit status for the
 *  error's code. */
int cli_fail(const ecf_err *err);
/** Prints "ec2fit: <cmd>: <formatted>" on stderr and returns 2 (usage). */
int cli_usage_error(const char *cmd, const char *fmt, ...) ECF_PRINTF(2, 3);
/** Prints "ec2fit: warning: <formatted>" on stderr. */
void cli_warn(const char *fmt, ...) ECF_PRINTF(1, 2);
struct option;
/** getopt_long's own messages are suppressed (opterr = 0) and optstrings
 *  start with ':'; this turns its '?' (unknown flag) and ':' (missing
 *  value) results `c` into one line naming the flag. An unknown long flag
 *  gets the closest of `longopts` (the command's table, NULL for none) by
 *  edit distance: "--regoin: unknown flag (did you mean --region?)"; an
 *  ambiguous abbreviation names the flags it could be. Returns 2. */
int cli_bad_option(const char *cmd, int c, int argc, char **argv,
                   const struct option *longopts);

/* ---- output formats ---- */
typedef enum {
    CLI_OUT_TABLE = 0,
    CLI_OUT_JSON,
    CLI_OUT_CSV,
    CLI_OUT_MARKDOWN,
    CLI_OUT_TFVARS,
    CLI_OUT_KARPENTER,
    CLI_OUT_HTML,
    CLI_OUT_ECS,
    CLI_OUT_CLOUDWATCH
} cli_output;
/** Parses --output for a command that accepts the formats in `allowed`
 *  (a bit per cli_output). */
int cli_parse_output(cli_output *out, const char *s, unsigned allowed,
                     ecf_err *err);
#define CLI_OUT_BIT(x) (1u << (x))
/** Every format some command prints (the `allowed` of config.json's
 *  "output", which each command then narrows to its own). */
unsigned cli_output_all(void);

/* ---- catalog selection ---- */

typedef struct {
    const char *path; /* --catalog: a file, or "embedded"; NULL = default */
} cli_catalog_opts;

/** Opens the catalog: --catalog FILE | "embedded", else $EC2FIT_CATALOG,
 *  else the cache written by `ec2fit update` when valid and newer, else the
 *  embedded one. `label_out` (optional) receives a borrowed description of
 *  which was used ("embedded", a path). */
int cli_open_catalog(ecf_catalog **out, const cli_catalog_opts *opts,
                     const char **label_out, ecf_err *err);

/** The JSON text of the catalog cli_open_catalog would use (the base of
 *  an `update`), with its label. */
int cli_catalog_text(ecf_buf *text_out, const char **label_out,
                     const cli_catalog_opts *opts, ecf_err *err);
/** `ec2fit --quiet COMMAND`: no catalog staleness warning (cli_catalog.c). */
extern bool cli_quiet;

/** Seconds since the epoch; EC2FIT_NOW pins it in tests (docs/update.md). */
long cli_now(void);

/** What to name in an error about `region`: "AWS_REGION",
 *  "AWS_DEFAULT_REGION" or "CONFIG: \"region\"" when it is the very string
 *  cli_default_region returned from there, else "--region". Static storage,
 *  valid until the next call. (cli_config.c) */
const char *cli_region_origin(const char *region);
/** Where a rules file came from, for its error messages: "--rules", or
 *  "CONFIG: \"rules\"" when `path` is config.json's (same pointer).
 *  Static storage, overwritten by the next call. */
const char *cli_rules_origin(const char *path);

/** Exit-2 error "FLAG: no family matches 'X' (did you mean A, B, C?)"
 *  unless every entry of the NULL-terminated `pats` matches at least one
 *  family in the catalog: as a glob (ecf_family_matches) when `glob`,
 *  else by case-insensitive name. Suggestions come from cli_families.c:
 *  longest common prefix, then edit distance. */
int cli_check_families(const ecf_catalog *cat, const char *const *pats,
                       bool glob, const char *flag, ecf_err *err);

/** True when colour may be used on `f` (a TTY, and NO_COLOR unset). */
bool cli_use_color(FILE *f);

/** Flushes and closes stdout, reporting a write error (full disk, closed
 *  pipe) as exit 1, as jq does. With a pending --output-file it fsyncs the
 *  temporary and renames it over the target when `status` is 0 or 3, and
 *  removes it otherwise. Returns the final exit status. */
int cli_finish_stdout(int status);

/** Marks the pending --output-file as a complete answer whatever the exit
 *  status: cli_finish_stdout then also commits it on 2 and 3. `--batch`
 *  calls it once every line is answered (a bad line and a line without a
 *  plan are records of the output, not a failed command). */
void cli_output_complete(void);

/** --output-file FILE: points stdout at a new temporary file next to
 *  `path` (mkstemp, same directory, so the final rename is atomic). The
 *  command then prints as usual; cli_finish_stdout commits or removes it,
 *  so FILE is either the whole output or untouched. A symlink is followed
 *  to its target (which is replaced, not the link). A FIFO, device or
 *  socket is opened and written directly (no temporary, no rename). With
 *  exit 3 an existing FILE is left unchanged. Call it after flag
 *  validation. Errors: ECF_EIO (cannot create the temporary, a directory),
 *  ECF_EINVAL (empty name, given twice). */
int cli_output_begin(const char *path, ecf_err *err);
/** Refuses an --output-file that is also an input (`flag` names it:
 *  "--catalog", "--rules", "--model-config", "--batch"): compared by
 *  st_dev/st_ino, so another name for the same file is caught too. The
 *  input would otherwise be replaced by the output of reading it. 0 when
 *  either is unset, "-" or does not exist yet; ECF_EINVAL (exit 2)
 *  "--output-file: F is also the --catalog input; write to another
 *  file". */
int cli_output_not_input(const char *output_file, const char *input,
                         const char *flag, ecf_err *err);
/** Records the errno of a failed write to stdout (call right after an
 *  fwrite whose result is not checked), so cli_finish_stdout reports the
 *  real cause (ENOSPC, EBADF) instead of a generic EIO. */
void cli_note_stdout_error(void);

/** Temporary files removed if SIGINT, SIGTERM or SIGHUP arrives before
 *  they are renamed (cli_tmpfiles.c). `path` is copied; at most 4 at a
 *  time; forgetting an unknown path (or NULL) does nothing. */
void cli_tmp_remember(const char *path);
void cli_tmp_forget(const char *path);
#define CLI_OUTPUT_FILE_HELP                                                 \
    "  --output-file FILE          write the output to FILE atomically "     \
    "(a temporary\n                              file, fsync, rename)\n"

/* ---- flag tables ----
 * Each command's getopt_long table and short letters, so that the help
 * and man page checks (tests/scripts/test_flag_table.sh, through the
 * hidden `__complete flags:CMD`) compare against what the parser really
 * accepts. Short letters mean the same in every command (docs/cli.md
 * "Short flags"): -m model, -t task, -i instance, -n nodes, -r region,
 * -c catalog, -o output, -q quiet, -v verbose, -h help. */
typedef struct {
    int letter; /* the short flag */
    int id;     /* the long option's getopt value it stands for */
} cli_short;
typedef struct {
    const struct option *longopts; /* NULL-name terminated */
    const char *optstring;         /* getopt's (":ho:" ...) */
    const cli_short *shorts;       /* letters whose id is not the letter
                                      itself; {0, 0} ends; NULL none */
} cli_flagset;
extern const cli_flagset cli_flags_recommend, cli_flags_estimate,
    cli_flags_list, cli_flags_show, cli_flags_models, cli_flags_update,
    cli_flags_tf_external, cli_flags_completion, cli_flags_main;
/** The flag set of command `cmd` ("main" for the global flags), NULL for
 *  none. (cmd_complete.c) */
const cli_flagset *cli_flagset_find(const char *cmd);
/** getopt_long's result `c`, with a short letter of fs->shorts turned into
 *  its long option's id; when `idx` is given it is set to that option's
 *  index in fs->longopts (getopt_long leaves it alone for a short flag). */
int cli_short_id(const cli_flagset *fs, int c, int *idx);
/** The long name of a short letter of `fs` (without dashes), or NULL. */
const char *cli_short_long(const cli_flagset *fs, int letter);

/** Prints the workload flags' help lines (workload_flags.h), two-space
 *  indented (cli_workload_help.c). */
void cli_workload_usage(FILE *f);

#endif
