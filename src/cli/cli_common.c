/*
 * cli_common.c - helpers shared by the cmd_*.c files: diagnostics,
 * output-format parsing, colour, and the end of stdout (write errors,
 * --output-file). Strict number parsing and suggestions are src/util/parse.c.
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

int cli_fail(const ecf_err *err)
{
    fprintf(stderr, "ec2fit: %s\n", err->msg[0] ? err->msg : "unknown error");
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
    fprintf(stderr, "ec2fit: %s%s%s\n", cmd ? cmd : "", cmd ? ": " : "", msg);
    return 2;
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ec2fit: warning: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
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
