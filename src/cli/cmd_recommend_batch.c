/*
 * cmd_recommend_batch.c - `ec2fit recommend --batch FILE|-`, the CLI side
 * of the batch engine: the flags that may accompany --batch, loading the
 * catalog, rules, zoo and light data once, opening the input; the engine
 * is ecf_recommend_batch (src/model/batch.c).
 */
#include "cmd_recommend_batch.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cli_config.h"
#include "recommend_opts.h"
#include "ec2fit/batch.h"
#include "ec2fit/buf.h"
#include "ec2fit/images.h"
#include "ec2fit/stacks.h"
#include "ec2fit/storage_prices.h"
#include "ec2fit/light.h"
#include "ec2fit/render.h"
#include "ec2fit/rules.h"
#include "ec2fit/zoo.h"

int cli_recommend_batch(int argc, char **argv)
{
    const struct option *longopts = cli_recommend_longopts();
    cli_catalog_opts copts = {NULL};
    ecf_batch_opts b = ECF_BATCH_OPTS_INIT;
    ecf_err err = ECF_ERR_INIT;
    ecf_catalog *cat = NULL;
    ecf_zoo *zoo = NULL;
    ecf_light *light = NULL;
    ecf_stacks *stacks = NULL;
    ecf_storage_prices *storage = NULL;
    ecf_rules rules;
    ecf_images images;
    int write_errno = 0;
    const char *path = NULL, *rules_path = NULL;
    FILE *in = NULL;
    int c, idx, status = 0;

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_flags_recommend.optstring,
                            longopts, &idx)) != -1) {
        c = cli_short_id(&cli_flags_recommend, c, &idx);
        const char *name = c == 'o'                           ? "output"
                           : c == '?' || c == ':' || c == 'h' ? NULL
                                                              : longopts[idx].name;
        if (!name)
            return cli_bad_option("recommend", c, argc, argv, longopts);
        if (strcmp(name, "batch") == 0) {
            path = optarg;
        } else if (strcmp(name, "output-file") == 0) {
            /* the command already pointed stdout at it */
        } else if (strcmp(name, "catalog") == 0) {
            copts.path = optarg;
        } else if (strcmp(name, "rules") == 0) {
            rules_path = optarg;
        } else if (strcmp(name, "explain") == 0) {
            b.explain = true;
        } else if (strcmp(name, "top") == 0) {
            if (ecf_parse_int(&b.top, "--top", optarg, 1, 10000, &err) < 0)
                return cli_usage_error("recommend", "%s", err.msg);
        } else if (strcmp(name, "output") == 0) {
            if (strcmp(optarg, "json") != 0)
                return cli_usage_error("recommend",
                                       "--batch: output is JSON Lines; "
                                       "--output %s is not available",
                                       optarg);
        } else if (strcmp(name, "fields") == 0) {
            return cli_usage_error("recommend",
                                   "--fields: not with --batch (each line "
                                   "prints its whole object; select with "
                                   "jq)");
        } else {
            return cli_usage_error("recommend",
                                   "--%s: give it as a field of each --batch "
                                   "line (\"%s\": ...)",
                                   name, name);
        }
    }
    if (!path)
        return cli_usage_error("recommend", "--batch: missing FILE");

    if (rules_path ? ecf_rules_load_file(&rules, rules_path, &err)
                   : ecf_rules_embedded(&rules, &err)) {
        ecf_err named = ECF_ERR_INIT;
        if (rules_path) /* name the flag too (issue 28) */
            ecf_err_set(&named, err.code, "--rules: %s", err.msg);
        status = cli_fail(rules_path ? &named : &err);
        goto out;
    }
    if (cli_open_catalog(&cat, &copts, &b.catalog_label, &err) != 0 ||
        ecf_zoo_embedded(&zoo, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }
    if (ecf_light_embedded(&light, &err) != 0)
        light = NULL; /* a build without light data shows none */
    if (ecf_stacks_embedded(&stacks, &err) != 0 ||
        ecf_images_embedded(&images, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }
    b.stacks = stacks;
    if (ecf_storage_prices_embedded(&storage, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }
    b.storage_prices = storage;
    b.images = &images;
    b.ranges = ecf_ranges_embedded();
    b.cat = cat;
    b.now = cli_now();
    b.rules = &rules;
    b.zoo = zoo;
    b.light = light;

    if (strcmp(path, "-") == 0) {
        in = stdin;
    } else {
        /* A regular file only: a FIFO or device could block forever
         * (use "-" to stream into stdin). */
        int fd = ecf_buf_open_regular(path, &err);
        in = fd >= 0 ? fdopen(fd, "r") : NULL;
        if (!in) {
            if (fd >= 0) {
                ecf_err_set(&err, ECF_EIO, "%s: %s", path, strerror(errno));
                close(fd);
            }
            ecf_err_prefix(&err, "--batch");
            status = cli_fail(&err);
            goto out;
        }
    }
    if (cli_default_region_strict(&b.default_region, &err) != 0) {
        ecf_err_prefix(&err, "recommend");
        status = cli_fail(&err);
        goto out;
    }
    b.default_region_origin = cli_region_origin(b.default_region);
    b.write_errno = &write_errno;
    b.default_framework = cli_config_get()->framework;
    b.render = ecf_render_json_tree;
    b.render_text = ecf_render_json_text;
    status = ecf_recommend_batch(in, stdout, stderr, &b);
    if (write_errno) {
        errno = write_errno; /* the real cause: ENOSPC, EBADF, ... */
        cli_note_stdout_error();
    }
    if (ferror(in)) {
        ecf_err_set(&err, ECF_EIO, "--batch: %s: read error",
                    in == stdin ? "stdin" : path);
        status = cli_fail(&err);
    } else if (!write_errno && status != 1) {
        /* every line was answered: exit 2 and 3 sum up lines, each of
         * which says its own error or lack of plan, so --output-file gets
         * the whole answer as stdout would */
        cli_output_complete();
    }
out:
    if (in && in != stdin)
        fclose(in);
    ecf_light_free(light);
    ecf_stacks_free(stacks);
    ecf_storage_prices_free(storage);
    ecf_zoo_free(zoo);
    ecf_catalog_free(cat);
    return status;
}

void cli_recommend_batch_usage(FILE *f)
{
    fputs("Batch (JSON Lines):\n"
          "  --batch FILE|-          one workload per line, a JSON object "
          "whose fields are\n"
          "                          the flags above without dashes: "
          "model, params,\n"
          "                          model-config, task, precision, "
          "batch-size, seq-len,\n"
          "                          input-tokens, output-tokens, dataset, "
          "epochs, lora-rank,\n"
          "                          latency-ms, qps, sample-bytes, "
          "tensor-parallel, steps,\n"
          "                          resolution, framework, engine, startup,\n"
          "                          storage, storage-throughput,\n"
          "                          estimate-missing-prices,\n"
          "                          deadline, budget, budget-hourly, "
          "peak-qps, max-nodes,\n"
          "                          checkpoint-every, region, regions, "
          "families,\n"
          "                          exclude-families, optimize (strings "
          "or numbers; '_'\n"
          "                          may replace '-'); spot, "
          "activation-checkpointing,\n"
          "                          optimizer-8bit: true|false. Prints one "
          "compact\n"
          "                          --output json object per line, with "
          "\"line\"; a bad line\n"
          "                          prints {\"line\":N,\"error\":...,"
          "\"exit_code\":2} and the\n"
          "                          rest go on. Only --catalog, --rules, "
          "--top, --explain\n"
          "                          and --output-file may be given with "
          "it. Exit: 0 all ok,\n"
          "                          2 a bad line, 3 a line without a plan, "
          "1 I/O.\n",
          f);
}
