/*
 * cmd_recommend.h - the `recommend` pipeline (parse flags into options,
 * run the scorer, render) for commands that reuse it with their own
 * output, such as `tf-external`.
 */
#ifndef EC2FIT_CLI_CMD_RECOMMEND_H
#define EC2FIT_CLI_CMD_RECOMMEND_H

#include <getopt.h>
#include <stdio.h>

#include "recommend_opts.h" /* cli_recommend_longopts */
#include "recommend_render.h"

/** Renders a recommendation that has at least one plan. */
typedef void (*rr_printer)(FILE *f, const rr_view *v);

/** `ec2fit recommend` with argv[0] naming the command in messages. When
 *  `printer` is non-NULL it replaces the --output renderer; with no plan
 *  it prints nothing on stdout and one line on stderr (exit 3). Returns
 *  the exit status. */
int cli_recommend_main(int argc, char **argv, rr_printer printer);

#endif
