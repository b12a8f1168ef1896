/*
 * credproc.c - runs a profile's credential_process: posix_spawnp with the
 * words botocore would build (no shell), stdout captured up to
 * ECF_CRED_MAX_BYTES, stderr's first line kept for the error message
 * (the SDKs show the process's stderr when it fails). Both pipes are read
 * with poll(), so a process that fills one while we wait on the other
 * cannot deadlock. The output holds secrets: it is wiped by the caller.
 */
#include "credchain_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ec2fit/textsafe.h"

extern char **environ;

#define STDERR_KEEP 512

int ecf_cred_run_process(ecf_buf *out, char *const *words, ecf_err *err)
{
    int po[2] = {-1, -1}, pe[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    char errtext[STDERR_KEEP + 1], prog[96];
    size_t errlen = 0;
    bool too_big = false, fa_init = false;
    pid_t pid = -1;
    int rc = 0, status = 0, sp;

    ecf_buf_clear(out);
    ecf_textsafe(prog, sizeof(prog), words[0]);
    if (pipe(po) != 0 || pipe(pe) != 0) {
        rc = ecf_err_set(err, ECF_EIO, "cannot run '%s': pipe: %s", prog,
                         strerror(errno));
        goto out;
    }
    fcntl(po[0], F_SETFD, FD_CLOEXEC);
    fcntl(pe[0], F_SETFD, FD_CLOEXEC);
    if (posix_spawn_file_actions_init(&fa) != 0) {
        rc = ecf_err_set(err, ECF_EIO, "cannot run '%s'", prog);
        goto out;
    }
    fa_init = true;
    posix_spawn_file_actions_adddup2(&fa, po[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, pe[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&fa, po[1]);
    posix_spawn_file_actions_addclose(&fa, pe[1]);
    sp = posix_spawnp(&pid, words[0], &fa, NULL, words, environ);
    if (sp != 0) {
        rc = ecf_err_set(err, ECF_EIO, "cannot run '%s': %s", prog,
                         strerror(sp));
        pid = -1;
        goto out;
    }
    close(po[1]);
    close(pe[1]);
    po[1] = pe[1] = -1;

    {
        struct pollfd fds[2];
        int open_fds = 2;
        fds[0].fd = po[0];
        fds[1].fd = pe[0];
        fds[0].events = fds[1].events = POLLIN;
        while (open_fds > 0) {
            int i;
            if (poll(fds, 2, -1) < 0) {
                if (errno == EINTR)
                    continue;
                break;
            }
            for (i = 0; i < 2; i++) {
                char buf[4096];
                ssize_t r;
                if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP)))
                    continue;
                r = read(fds[i].fd, buf, sizeof(buf));
                if (r < 0 && errno == EINTR)
                    continue;
                if (r <= 0) {
                    fds[i].fd = -1;
                    open_fds--;
                    continue;
                }
                if (i == 0) {
                    if (out->len + (size_t)r > ECF_CRED_MAX_BYTES)
                        too_big = true;
                    else
                        ecf_buf_append(out, buf, (size_t)r);
                } else if (errlen < STDERR_KEEP) {
                    size_t take = (size_t)r;
                    if (take > STDERR_KEEP - errlen)
                        take = STDERR_KEEP - errlen;
                    memcpy(errtext + errlen, buf, take);
                    errlen += take;
                }
            }
        }
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    pid = -1;
    errtext[errlen] = '\0';
    errtext[strcspn(errtext, "\r\n")] = '\0';
    if (WIFSIGNALED(status)) {
        rc = ecf_err_set(err, ECF_ERR, "'%s' was killed by signal %d", prog,
                         WTERMSIG(status));
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        char shown[160];
        ecf_textsafe(shown, sizeof(shown), errtext);
        rc = ecf_err_set(err, ECF_ERR, "'%s' exited with status %d%s%s",
                         prog, WEXITSTATUS(status), *shown ? ": " : "",
                         shown);
    } else if (too_big) {
        rc = ecf_err_set(err, ECF_EPARSE, "'%s': output larger than %u bytes",
                         prog, ECF_CRED_MAX_BYTES);
    }
out:
    if (pid > 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    if (fa_init)
        posix_spawn_file_actions_destroy(&fa);
    if (po[0] >= 0)
        close(po[0]);
    if (po[1] >= 0)
        close(po[1]);
    if (pe[0] >= 0)
        close(pe[0]);
    if (pe[1] >= 0)
        close(pe[1]);
    if (rc < 0 && out->data) {
        memset(out->data, 0, out->len);
        ecf_buf_clear(out);
    }
    return rc;
}
