/*
 * pack_write.c - see pack_write.h.
 */
#include "pack_write.h"

#include <stdio.h>

int ecf_tool_write_file(const char *tool, const char *path, const void *data,
                        size_t len)
{
    char tmp[4096];
    FILE *f = NULL;
    int ok;

    if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
        fprintf(stderr, "%s: %s: path too long\n", tool, path);
        return -1;
    }
    f = fopen(tmp, "wb");
    if (!f) {
        perror(tmp);
        return -1;
    }
    ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        perror(ok ? path : tmp);
        remove(tmp);
        return -1;
    }
    return 0;
}
