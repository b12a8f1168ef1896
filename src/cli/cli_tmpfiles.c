/*
 * cli_tmpfiles.c - removes the temporary files of --output-file if the
 * process is interrupted (SIGINT, SIGTERM, SIGHUP) before they are renamed
 * into place, then dies of the same signal so the caller sees 130/143.
 * (SIGKILL cannot be caught: `update` sweeps stale cache temporaries.)
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

#define SLOTS 4
#define PATH_CAP 4096

/* A slot is written only while its `used` flag is 0 and published by
 * setting it to 1 last; the handler reads only published slots. */
static char paths[SLOTS][PATH_CAP];
static volatile sig_atomic_t used[SLOTS];
static int installed;

static void on_signal(int sig)
{
    int i;
    for (i = 0; i < SLOTS; i++)
        if (used[i])
            unlink(paths[i]); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa, old;
    size_t i;

    installed = 1;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        /* A signal the parent set to "ignore" (nohup) stays ignored. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

void cli_tmp_remember(const char *path)
{
    int i;
    if (!path || strlen(path) >= PATH_CAP)
        return;
    if (!installed)
        install();
    for (i = 0; i < SLOTS; i++) {
        if (!used[i]) {
            memcpy(paths[i], path, strlen(path) + 1);
            used[i] = 1;
            return;
        }
    }
}

void cli_tmp_forget(const char *path)
{
    int i;
    if (!path)
        return;
    for (i = 0; i < SLOTS; i++)
        if (used[i] && strcmp(paths[i], path) == 0)
            used[i] = 0;
}
