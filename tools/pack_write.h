/*
 * pack_write.h - the build-time packers' (pack_catalog, pack_zoo) one way
 * to write their output: OUT.tmp, then rename, so an interrupted build
 * never leaves a half-written blob that make would consider up to date.
 */
#ifndef EC2FIT_TOOLS_PACK_WRITE_H
#define EC2FIT_TOOLS_PACK_WRITE_H

#include <stddef.h>

/* Writes `len` bytes to `path` through `path`.tmp; 0, or -1 with a message
 * on stderr prefixed by `tool`. */
int ecf_tool_write_file(const char *tool, const char *path, const void *data,
                        size_t len);

#endif
