/*
 * cmd_recommend_batch.h - `ec2fit recommend --batch FILE`: JSON Lines of
 * workload profiles in, one compact JSON result per line out, with the
 * catalog, rules, zoo and light data loaded once (docs/output-schema.md,
 * "Batch mode"). The CLI side: flags, loading, opening the input; the
 * engine is the library's ecf_recommend_batch (ec2fit/batch.h).
 */
#ifndef EC2FIT_CLI_RECOMMEND_BATCH_H
#define EC2FIT_CLI_RECOMMEND_BATCH_H

#include <stdio.h>

/** Runs a batch. `argv` is recommend's whole argument vector (it holds
 *  --batch); only --catalog, --rules, --top, --explain, --output json
 *  and --output-file may accompany it, every other flag is a field of each
 *  line. Returns the exit status: 0 every line has a plan, 2 a line was
 *  bad (or a usage error), 3 a line has no plan, 1 an I/O or load error
 *  (the worst wins: 1, then 2, then 3). */
int cli_recommend_batch(int argc, char **argv);

/** The help text of the batch fields (for `recommend --help`). */
void cli_recommend_batch_usage(FILE *f);

#endif
