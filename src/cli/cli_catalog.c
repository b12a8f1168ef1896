/*
 * cli_catalog.c - which catalog a command uses.
 *
 * Order: --catalog FILE (or "embedded"), $EC2FIT_CATALOG, the cache that
 * `ec2fit update` writes when it is valid and newer than the embedded copy,
 * then the embedded copy. The embedded copy is validated like any file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static int open_embedded(ecf_catalog **out, const char **label_out,
                         ecf_err *err)
{
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    if (!data)
        return ecf_err_set(err, ECF_EIO,
                           "this build has no embedded catalog; pass "
                           "--catalog FILE or set EC2FIT_CATALOG");
    if (label_out)
        *label_out = "embedded";
    return ecf_catalog_load_buffer(out, data, len, "embedded catalog", err);
}

int cli_open_catalog(ecf_catalog **out, const cli_catalog_opts *opts,
                     const char **label_out, ecf_err *err)
{
    const char *path = opts ? opts->path : NULL;

    *out = NULL;
    if (!path || !*path) {
        const char *env = getenv("EC2FIT_CATALOG");
        if (env && *env)
            path = env;
    }
    if (path && strcmp(path, "embedded") == 0)
        return open_embedded(out, label_out, err);
    if (path) {
        if (label_out)
            *label_out = path;
        return ecf_catalog_load_file(out, path, err);
    }
    return open_embedded(out, label_out, err);
}
