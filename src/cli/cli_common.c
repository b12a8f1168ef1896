/*
 * cli_common.c - helpers shared by the cmd_*.c files: diagnostics, strict
 * flag parsing, output-format parsing, catalog selection, suggestions,
 * and the end of stdout (write errors, --output-file).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cmd.h"
#include "cli_config.h"
#include "ec2fit/textsafe.h"

/* Every diagnostic goes through ecf_textsafe (docs/security.md): the
 * messages quote file contents, server replies and argv, and none of
 * those may move the cursor or recolour the terminal. */
static void put_safe(const char *s)
{
    char *safe = ecf_textsafe_dup(s);
    fputs(safe, stderr);
    free(safe);
}

int cli_fail(const ecf_err *err)
{
    fputs("ec2fit: ", stderr);
    put_safe(err->msg[0] ? err->msg : "unknown error");
    fputc('\n', stderr);
    return ecf_err_exit_status(err->code);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    /* Messages quote what the user typed; a 100 KB argument must not make
     * a 100 KB line. Cut at 1 KiB and say so with "...". */
    char msg[1024];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof(msg))
        memcpy(msg + sizeof(msg) - 4, "...", 4);
    fprintf(stderr, "ec2fit: %s%s", cmd ? cmd : "", cmd ? ": " : "");
    put_safe(msg);
    fputc('\n', stderr);
    return 2;
}

void cli_warn(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof(msg))
        memcpy(msg + sizeof(msg) - 4, "...", 4);
    fputs("ec2fit: warning: ", stderr);
    put_safe(msg);
    fputc('\n', stderr);
}

int cli_bad_option(const char *cmd, int c, int argc, char **argv)
{
    /* getopt_long leaves the offending element at argv[optind - 1] for
     * unknown long options and missing values; optopt holds the character
     * of a short option. Optstrings start with ':' so that a missing value
     * comes back as ':' rather than '?'. */
    const char *arg = (optind > 0 && optind - 1 < argc) ? argv[optind - 1] : "";
    char flag[128];
    const char *eq;

    /* For long options optopt holds the option's `val`, often > 255. */
    if (optopt > ' ' && optopt < 127 && !(arg[0] == '-' && arg[1] == '-'))
        snprintf(flag, sizeof(flag), "-%c", optopt);
    else {
        eq = strchr(arg, '=');
        snprintf(flag, sizeof(flag), "%.*s",
                 eq ? (int)(eq - arg) : (int)strlen(arg), arg);
    }
    {
        char safe[128];
        ecf_textsafe(safe, sizeof(safe), flag);
        memcpy(flag, safe, sizeof(flag));
    }
    if (c == ':')
        fprintf(stderr, "ec2fit: %s%s%s: missing value\n", cmd ? cmd : "",
                cmd ? ": " : "", flag);
    else if (cmd)
        fprintf(stderr,
                "ec2fit: %s: %s: unknown flag (see 'ec2fit %s --help')\n",
                cmd, flag, cmd);
    else
        fprintf(stderr, "ec2fit: %s: unknown flag (see 'ec2fit --help')\n",
                flag);
    return 2;
}

int cli_parse_int(int *out, const char *flag, const char *s, long min,
                  long max, ecf_err *err)
{
    char *end = NULL;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (!*s || *end || errno == ERANGE || v < min || v > max)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: expected an integer from %ld to %ld, got '%s'",
                           flag, min, max, s);
    *out = (int)v;
    return 0;
}

int cli_parse_double(double *out, const char *flag, const char *s,
                     double min, double max, ecf_err *err)
{
    char *end = NULL;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (!*s || *end || errno == ERANGE || !isfinite(v) || v < min ||
        (max >= min && v > max)) {
        if (max >= min)
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: expected a number from %g to %g, got '%s'",
                               flag, min, max, s);
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: expected a number >= %g, got '%s'", flag, min,
                           s);
    }
    *out = v;
    return 0;
}

static const char *const output_names[] = {
    "table", "json", "csv", "markdown", "tfvars", "karpenter", "html"};

int cli_parse_output(cli_output *out, const char *s, unsigned allowed,
                     ecf_err *err)
{
    char list[128] = "";
    size_t i;

    for (i = 0; i < sizeof(output_names) / sizeof(output_names[0]); i++) {
        if (!(allowed & CLI_OUT_BIT(i)))
            continue;
        if (strcmp(s, output_names[i]) == 0) {
            *out = (cli_output)i;
            return 0;
        }
        if (list[0])
            strncat(list, "|", sizeof(list) - strlen(list) - 1);
        strncat(list, output_names[i], sizeof(list) - strlen(list) - 1);
    }
    return ecf_err_set(err, ECF_EINVAL, "--output: expected %s, got '%s'",
                       list, s);
}

const char *cli_default_region(void)
{
    const char *r = getenv("AWS_REGION");
    if (r && *r)
        return r;
    r = getenv("AWS_DEFAULT_REGION");
    if (r && *r)
        return r;
    if (cli_config_get()->region[0])
        return cli_config_get()->region;
    return "us-east-1";
}

int cli_check_region(const ecf_catalog *cat, const char *region,
                     const char *flag, ecf_err *err)
{
    const char *names[ECF_CATALOG_MAX_REGIONS];
    const char *sugg[1];
    size_t n = ecf_catalog_region_count(cat), i;

    if (ecf_catalog_has_region(cat, region))
        return 0;
    if (n > ECF_CATALOG_MAX_REGIONS)
        n = ECF_CATALOG_MAX_REGIONS;
    for (i = 0; i < n; i++)
        names[i] = ecf_catalog_region_at(cat, i);
    if (cli_suggest(sugg, 1, region, names, n) > 0)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: unknown region '%s' (did you mean %s?)", flag,
                           region, sugg[0]);
    return ecf_err_set(err, ECF_EINVAL,
                       "%s: unknown region '%s' (the catalog has prices for "
                       "%zu regions; see 'ec2fit show TYPE')",
                       flag, region, n);
}

/* Damerau-free Levenshtein distance, case-insensitive, capped lengths. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), i, j;
    size_t row[65], prev;

    if (la > 64 || lb > 64)
        return 1000;
    for (j = 0; j <= lb; j++)
        row[j] = j;
    for (i = 1; i <= la; i++) {
        prev = row[0];
        row[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t cur = row[j];
            char ca = a[i - 1], cb = b[j - 1];
            size_t cost;
            if (ca >= 'A' && ca <= 'Z')
                ca = (char)(ca - 'A' + 'a');
            if (cb >= 'A' && cb <= 'Z')
                cb = (char)(cb - 'A' + 'a');
            cost = ca == cb ? 0 : 1;
            row[j] = prev + cost;
            if (row[j - 1] + 1 < row[j])
                row[j] = row[j - 1] + 1;
            if (cur + 1 < row[j])
                row[j] = cur + 1;
            prev = cur;
        }
    }
    return row[lb];
}

size_t cli_suggest(const char **out, size_t max, const char *s,
                   const char *const *names, size_t n)
{
    /* Accept up to a third of the word's length in edits (at least 2), and
     * return the best matches first. */
    size_t limit = strlen(s) / 3 < 2 ? 2 : strlen(s) / 3;
    size_t best[8];
    size_t count = 0, i, k;

    if (max > 8)
        max = 8;
    for (i = 0; i < n; i++) {
        size_t d = edit_distance(s, names[i]);
        if (d > limit)
            continue;
        /* insertion sort into the top `max` */
        for (k = count; k > 0 && best[k - 1] > d; k--) {
            if (k < max) {
                best[k] = best[k - 1];
                out[k] = out[k - 1];
            }
        }
        if (k < max) {
            best[k] = d;
            out[k] = names[i];
            if (count < max)
                count++;
        }
    }
    return count;
}

bool cli_use_color(FILE *f)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc)
        return false;
    return isatty(fileno(f)) != 0;
}

/* ---- --output-file: write a temporary, fsync, rename ---- */

/* The pending --output-file, if any: stdout has been pointed at `tmp`
 * (a mkstemp file in the target's directory, so rename(2) is atomic) and
 * cli_finish_stdout renames it to `path` or removes it. */
static char *out_path;
static char *out_tmp;

int cli_output_begin(const char *path, ecf_err *err)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n;
    mode_t mask;
    int fd;

    if (out_tmp)
        return ecf_err_set(err, ECF_EINVAL, "--output-file: given twice");
    if (!*path || (slash && !slash[1]))
        return ecf_err_set(err, ECF_EINVAL,
                           "--output-file: expected a file name, got '%s'",
                           path);
    /* "DIR/.NAME.XXXXXX": hidden, next to the target. */
    n = strlen(path) + 16;
    out_tmp = ecf_xmalloc(n);
    snprintf(out_tmp, n, "%.*s.%s.XXXXXX", (int)dir_len, path,
             path + dir_len);
    fd = mkstemp(out_tmp);
    if (fd < 0) {
        int e = errno;
        free(out_tmp);
        out_tmp = NULL;
        return ecf_err_set(err, ECF_EIO, "--output-file: %s: %s", path,
                           strerror(e));
    }
    /* mkstemp makes 0600; give the file the mode fopen would. */
    mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || fflush(stdout) != 0 ||
        dup2(fd, STDOUT_FILENO) < 0) {
        int e = errno;
        close(fd);
        unlink(out_tmp);
        free(out_tmp);
        out_tmp = NULL;
        return ecf_err_set(err, ECF_EIO, "--output-file: %s: %s", path,
                           strerror(e));
    }
    close(fd);
    out_path = ecf_xstrdup(path);
    return 0;
}

/* Makes the rename durable: fsync the directory that holds `path`. */
static void sync_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? ecf_xstrdup(path) : ecf_xstrdup(".");
    int fd;

    if (slash)
        dir[slash == path ? 1 : (size_t)(slash - path)] = '\0';
    fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd); /* best effort: some filesystems refuse it */
        close(fd);
    }
    free(dir);
}

int cli_finish_stdout(int status)
{
    int bad = 0, e = 0;

    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        bad = 1;
        e = errno;
    }
    if (!bad && out_tmp && fsync(STDOUT_FILENO) != 0) {
        bad = 1;
        e = errno;
    }
    errno = 0;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        fprintf(stderr, "ec2fit: error writing output: %s\n",
                strerror(e ? e : EIO));
        if (!status)
            status = 1;
    }
    if (out_tmp) {
        /* Exit 3 still renders its document (docs/exit-codes.md), so it
         * is kept; any other failure leaves no file behind. */
        if (bad || (status != 0 && status != 3)) {
            unlink(out_tmp);
        } else if (rename(out_tmp, out_path) != 0) {
            fprintf(stderr, "ec2fit: --output-file: %s: %s\n", out_path,
                    strerror(errno));
            unlink(out_tmp);
            status = 1;
        } else {
            sync_dir_of(out_path);
        }
        free(out_tmp);
        free(out_path);
        out_tmp = out_path = NULL;
    }
    return status;
}
