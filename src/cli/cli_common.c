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

/* The long names of `longopts` that begin with `prefix` (len bytes), one per
 * option value (glibc's getopt_long does not call aliases of one option
 * ambiguous). */
static size_t prefix_matches(const char **out, size_t max,
                             const struct option *longopts,
                             const char *prefix, size_t len)
{
    size_t n = 0, i, k;
    for (i = 0; longopts[i].name; i++) {
        bool seen = false;
        if (strncmp(longopts[i].name, prefix, len) != 0)
            continue;
        for (k = 0; k < i; k++)
            if (strncmp(longopts[k].name, prefix, len) == 0 &&
                longopts[k].val == longopts[i].val &&
                longopts[k].flag == longopts[i].flag)
                seen = true;
        if (!seen && n < max)
            out[n] = longopts[i].name;
        if (!seen)
            n++;
    }
    return n;
}

/* ecf_parse_suggest allows 2 edits even in a 4-letter word, which turns
 * instance-selector's --gpus into "did you mean --qps?". A short word
 * (4 letters or fewer) gets a suggestion only one edit away, or when it has
 * the suggestion's letters in another order (--tsak for --task). */
static bool close_enough(const char *typed, const char *name)
{
    size_t n = strlen(typed), i;
    int counts[256] = {0};
    if (n > 4 || ecf_parse_edit_distance(typed, name) <= 1)
        return true;
    if (strlen(name) != n)
        return false;
    for (i = 0; i < n; i++) {
        counts[(unsigned char)typed[i]]++;
        counts[(unsigned char)name[i]]--;
    }
    for (i = 0; i < 256; i++)
        if (counts[i] != 0)
            return false;
    return true;
}

/* The hint after "unknown flag": "did you mean --region?" (closest long
 * name by edit distance, ecf_parse_suggest's limit), "could be --max-price,
 * --max-results" (an ambiguous abbreviation) or the command's --help. */
static void flag_hint(char *hint, size_t size, const char *cmd,
                      const char *flag, const struct option *longopts)
{
    const char *names[256];
    const char *sugg[8];
    size_t n = 0, k, ns;

    snprintf(hint, size, "see 'ec2fit %s%s--help'", cmd ? cmd : "",
             cmd ? " " : "");
    if (!longopts || flag[0] != '-' || flag[1] != '-' || !flag[2])
        return;
    k = prefix_matches(names, 4, longopts, flag + 2, strlen(flag + 2));
    if (k >= 2) {
        size_t len = (size_t)snprintf(hint, size, "could be --%s, --%s",
                                      names[0], names[1]);
        if (k > 2 && len < size)
            snprintf(hint + len, size - len, "%s--%s%s",
                     k == 3 ? " or " : ", ", names[2], k > 3 ? ", ..." : "");
        return;
    }
    while (n < sizeof(names) / sizeof(names[0]) && longopts[n].name) {
        names[n] = longopts[n].name;
        n++;
    }
    /* the best match that is close enough (--sotr: --spot and --sort are
     * both 2 edits away; only --sort has its letters) */
    ns = ecf_parse_suggest(sugg, 8, flag + 2, names, n);
    for (k = 0; k < ns; k++) {
        if (close_enough(flag + 2, sugg[k])) {
            snprintf(hint, size, "did you mean --%s?", sugg[k]);
            break;
        }
    }
}

int cli_bad_option(const char *cmd, int c, int argc, char **argv,
                   const struct option *longopts)
{
    /* getopt_long leaves the offending element at argv[optind - 1] for
     * unknown long options and missing values; optopt holds the character
     * of a short option. Optstrings start with ':' so that a missing value
     * comes back as ':' rather than '?'. */
    const char *arg = (optind > 0 && optind - 1 < argc) ? argv[optind - 1] : "";
    char flag[128], hint[160];
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
    if (c == ':') {
        fprintf(stderr, "ec2fit: %s%s%s: missing value\n", cmd ? cmd : "",
                cmd ? ": " : "", flag);
        return 2;
    }
    flag_hint(hint, sizeof(hint), cmd, flag, longopts);
    fprintf(stderr, "ec2fit: %s%s%s: %s flag (%s)\n", cmd ? cmd : "",
            cmd ? ": " : "", flag,
            strncmp(hint, "could be", 8) == 0 ? "ambiguous" : "unknown", hint);
    return 2;
}

static const char *const output_names[] = {
    "table", "json", "csv", "markdown", "tfvars", "karpenter", "html",
    "ecs", "cloudwatch"};

int cli_parse_output(cli_output *out, const char *s, unsigned allowed,
                     ecf_err *err)
{
    char list[160] = "";
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
    /* Terraform's external data source is a command that reads its query
     * on stdin, not a format of another command's result */
    if (strcmp(s, "tf-external") == 0)
        return ecf_err_set(err, ECF_EINVAL,
                           "--output: tf-external is a command, not a "
                           "format: pipe the query JSON to 'ec2fit "
                           "tf-external' (expected %s)",
                           list);
    return ecf_err_set(err, ECF_EINVAL, "--output: expected %s, got '%s'",
                       list, s);
}

unsigned cli_output_all(void)
{
    return (1u << (sizeof(output_names) / sizeof(output_names[0]))) - 1u;
}

bool cli_use_color(FILE *f)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc)
        return false;
    return isatty(fileno(f)) != 0;
}

/* ---- --output-file: write a temporary, fsync, rename ---- */

/* The pending --output-file, if any. For a regular file (or a new one)
 * stdout has been pointed at `out_tmp` (a mkstemp file in the target's
 * directory, so rename(2) is atomic) and cli_finish_stdout renames it to
 * `out_path` (the target with symlinks followed) or removes it. For a FIFO,
 * device or socket, stdout is the target itself (`out_direct`): there is
 * nothing to rename, and renaming over it would replace it. */
static char *out_path;
static char *out_tmp;
static bool out_direct;
static bool out_existed;
static bool out_complete; /* cli_output_complete: commit on 2 and 3 too */
static int stdout_errno; /* first write error seen (cli_note_stdout_error) */

void cli_note_stdout_error(void)
{
    if (!stdout_errno && ferror(stdout))
        stdout_errno = errno ? errno : EIO;
}

/* Follows symlinks in `path` (the last component only, as often as it
 * takes, like open(2) would) to the name the file really has, so that the
 * rename replaces the target and not the link. A dangling link names the
 * file to create, as `cp` and `tee` do. Returns a malloc'd path or NULL
 * with errno set (ELOOP after 40 links). */
static char *follow_links(const char *path)
{
    char *cur = ecf_xstrdup(path);
    int hops;

    for (hops = 0; hops < 40; hops++) {
        struct stat st;
        char target[4096];
        ssize_t n;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        n = readlink(cur, target, sizeof(target) - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        target[n] = '\0';
        if (target[0] == '/') {
            free(cur);
            cur = ecf_xstrdup(target);
        } else {
            const char *slash = strrchr(cur, '/');
            size_t dl = slash ? (size_t)(slash - cur) + 1 : 0;
            char *next = ecf_xmalloc(dl + (size_t)n + 1);
            memcpy(next, cur, dl);
            memcpy(next + dl, target, (size_t)n + 1);
            free(cur);
            cur = next;
        }
    }
    free(cur);
    errno = ELOOP;
    return NULL;
}

static int output_fail(const char *path, int e, ecf_err *err)
{
    cli_tmp_forget(out_tmp);
    free(out_tmp);
    free(out_path);
    out_tmp = out_path = NULL;
    out_direct = false;
    return ecf_err_set(err, ECF_EIO, "--output-file: %s: %s", path,
                       strerror(e));
}

int cli_output_not_input(const char *output_file, const char *input,
                         const char *flag, ecf_err *err)
{
    struct stat o, i;
    if (!output_file || !input || strcmp(input, "-") == 0 ||
        stat(output_file, &o) != 0 || stat(input, &i) != 0)
        return 0;
    /* the same file under any name (hard link, symlink, ./c.json) */
    if (o.st_dev == i.st_dev && o.st_ino == i.st_ino)
        return ecf_err_set(err, ECF_EINVAL,
                           "--output-file: %s is also the %s input; write "
                           "to another file",
                           output_file, flag);
    return 0;
}

int cli_output_begin(const char *path, ecf_err *err)
{
    const char *slash;
    size_t dir_len, n;
    struct stat st;
    mode_t mode;
    int fd;

    if (out_tmp || out_direct)
        return ecf_err_set(err, ECF_EINVAL, "--output-file: given twice");
    slash = strrchr(path, '/');
    if (!*path || (slash && !slash[1]))
        return ecf_err_set(err, ECF_EINVAL,
                           "--output-file: expected a file name, got '%s'",
                           path);
    out_path = follow_links(path);
    if (!out_path)
        return output_fail(path, errno, err);
    out_existed = false;
    if (stat(out_path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return output_fail(path, EISDIR, err);
        if (!S_ISREG(st.st_mode)) {
            /* FIFO, terminal, /dev/null, socket: write straight to it,
             * as `tee` would. A FIFO waits for its reader here. */
            fd = open(out_path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
            if (fd < 0 || fflush(stdout) != 0 ||
                dup2(fd, STDOUT_FILENO) < 0) {
                int e = errno;
                if (fd >= 0)
                    close(fd);
                return output_fail(path, e, err);
            }
            close(fd);
            out_direct = true;
            return 0;
        }
        out_existed = true;
    }
    /* "DIR/.NAME.XXXXXX": hidden, next to the target. */
    slash = strrchr(out_path, '/');
    dir_len = slash ? (size_t)(slash - out_path) + 1 : 0;
    n = strlen(out_path) + 16;
    out_tmp = ecf_xmalloc(n);
    snprintf(out_tmp, n, "%.*s.%s.XXXXXX", (int)dir_len, out_path,
             out_path + dir_len);
    fd = mkstemp(out_tmp);
    if (fd < 0)
        return output_fail(path, errno, err);
    /* From here on SIGINT/SIGTERM/SIGHUP remove the temporary. */
    cli_tmp_remember(out_tmp);
    /* mkstemp makes 0600: keep the mode of the file being replaced, or
     * give a new file the mode fopen would. */
    if (out_existed) {
        mode = st.st_mode & 07777;
    } else {
        mode = umask(0);
        umask(mode);
        mode = 0666 & ~mode;
    }
    if (fchmod(fd, mode) != 0 || fflush(stdout) != 0 ||
        dup2(fd, STDOUT_FILENO) < 0) {
        int e = errno;
        close(fd);
        unlink(out_tmp);
        return output_fail(path, e, err);
    }
    close(fd);
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

void cli_output_complete(void)
{
    out_complete = true;
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
        /* The first failing write's errno (ENOSPC, EBADF ...): a later
         * flush of an already failed stream has none to give. */
        if (stdout_errno)
            e = stdout_errno;
        fprintf(stderr, "ec2fit: error writing output: %s\n",
                strerror(e ? e : EIO));
        /* A write error is exit 1 whatever the result was: a caller that
         * sees 3 ("no plan") would trust a document it never got. */
        status = 1;
    }
    if (out_tmp) {
        /* Exit 3 renders its document (docs/exit-codes.md): a new file
         * gets it, but an existing file is left as it was, so a
         * terraform -var-file keeps its last good plan. Any other failure
         * leaves no file behind. */
        bool whole = out_complete && (status == 2 || status == 3);
        if (bad || (status != 0 && status != 3 && !whole) ||
            (status == 3 && out_existed && !whole)) {
            unlink(out_tmp);
            if (!bad && status == 3)
                fprintf(stderr, "ec2fit: --output-file: %s left unchanged "
                                "(no plan)\n",
                        out_path);
        } else if (rename(out_tmp, out_path) != 0) {
            fprintf(stderr, "ec2fit: --output-file: %s: %s\n", out_path,
                    strerror(errno));
            unlink(out_tmp);
            status = 1;
        } else {
            sync_dir_of(out_path);
        }
        cli_tmp_forget(out_tmp);
        free(out_tmp);
        out_tmp = NULL;
    }
    free(out_path);
    out_path = NULL;
    out_direct = false;
    out_complete = false;
    return status;
}
