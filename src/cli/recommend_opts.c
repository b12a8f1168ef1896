/*
 * recommend_opts.c - recommend's getopt_long table, shared by `recommend`
 * (cmd_recommend.c), its --batch mode (cmd_recommend_batch.c) and
 * `tf-external`, so none of them includes another.
 */
#include "recommend_opts.h"

#include "cmd.h"
#include "workload_flags.h"

static const struct option longopts[] = {
    CLI_WORKLOAD_LONGOPTS,
    {"deadline", required_argument, NULL, O_DEADLINE},
    {"budget", required_argument, NULL, O_BUDGET},
    {"budget-hourly", required_argument, NULL, O_BUDGET_HOURLY},
    {"peak-qps", required_argument, NULL, O_PEAK_QPS},
    {"max-nodes", required_argument, NULL, O_MAX_NODES},
    {"spot", no_argument, NULL, O_SPOT},
    {"no-spot", no_argument, NULL, O_NO_SPOT},
    {"checkpoint-every", required_argument, NULL, O_CHECKPOINT},
    {"region", required_argument, NULL, O_REGION},
    {"regions", required_argument, NULL, O_REGIONS},
    {"families", required_argument, NULL, O_FAMILIES},
    {"exclude-families", required_argument, NULL, O_EXCLUDE},
    {"optimize", required_argument, NULL, O_OPTIMIZE},
    {"top", required_argument, NULL, O_TOP},
    {"explain", no_argument, NULL, O_EXPLAIN},
    {"output", required_argument, NULL, O_OUTPUT},
    {"rules", required_argument, NULL, O_RULES},
    {"catalog", required_argument, NULL, O_CATALOG},
    {"batch", required_argument, NULL, O_BATCH},
    {"output-file", required_argument, NULL, O_OUTPUT_FILE},
    {"node-class", required_argument, NULL, O_NODE_CLASS},
    {"node-class-spec", optional_argument, NULL, O_NODE_CLASS_SPEC},
    {"estimate-missing-prices", no_argument, NULL, O_ESTIMATE_MISSING},
    {"purchase", required_argument, NULL, O_PURCHASE},
    {"target-utilization", required_argument, NULL, O_TARGET_UTIL},
    {"async", no_argument, NULL, O_ASYNC},
    {"max-wait", required_argument, NULL, O_MAX_WAIT},
    {"start-time", required_argument, NULL, O_START_TIME},
    {"fallback", required_argument, NULL, O_FALLBACK},
    {"max-interruption", required_argument, NULL, O_MAX_INTERRUPTION},
    {"fields", required_argument, NULL, O_FIELDS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

static const cli_short shorts[] = {{'m', CLI_WL_MODEL},
                                   {'t', CLI_WL_TASK},
                                   {'r', O_REGION},
                                   {'c', O_CATALOG},
                                   {'o', O_OUTPUT},
                                   {0, 0}};
const cli_flagset cli_flags_recommend = {longopts, ":hm:t:r:c:o:", shorts};

const struct option *cli_recommend_longopts(void)
{
    return longopts;
}
