/* Temporary weak definitions for commands still being written. */
#include <stdio.h>
#include "cmd.h"
#define PENDING(fn) \
    __attribute__((weak)) int fn(int argc, char **argv) \
    { (void)argc; fprintf(stderr, "ec2fit: %s: not implemented yet\n", argv[0]); return 1; }
PENDING(cmd_estimate)
PENDING(cmd_models)
PENDING(cmd_update)
