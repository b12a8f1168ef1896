/*
 * main.c - ec2fit's entry point: global flags, then dispatch through the
 * subcommand table (libgit2's shape). curl_global_init happens here, once,
 * through ecf_http_global_init when the update command needs it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_config.h"
#include "cmd.h"

static int cmd_help(int argc, char **argv);

static const ecf_cmd cmds[] = {
    {"recommend", cmd_recommend, "Rank instance types for an ML workload"},
    {"estimate", cmd_estimate, "Memory, time and throughput of a workload on one instance type"},
    {"list", cmd_list, "List and filter instance types"},
    {"show", cmd_show, "Every fact about one instance type"},
    {"models", cmd_models, "List the built-in model zoo"},
    {"update", cmd_update, "Refresh prices from AWS into the local cache"},
    {"tf-external", cmd_tf_external, "Terraform external data source (JSON on stdin)"},
    {"completion", cmd_completion, "Print a bash, zsh or fish completion script"},
    {"help", cmd_help, "Show this help, or a command's: ec2fit help COMMAND"},
};

const ecf_cmd *cli_commands(size_t *n_out)
{
    *n_out = sizeof(cmds) / sizeof(cmds[0]);
    return cmds;
}

static void usage(FILE *f)
{
    size_t i;
    fprintf(f, "usage: ec2fit [--version] [--help] [--quiet] <command> "
               "[<args>]\n\n"
               "Which EC2 instance (and how many) should run this ML "
               "workload, how long\nwill it take, and what will it cost?\n\n"
               "Commands:\n");
    for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
        fprintf(f, "  %-12s %s\n", cmds[i].name, cmds[i].summary);
    fprintf(f, "\nOptions:\n"
               "  -h, --help     this help\n"
               "  -V, --version  the version and the catalog in use\n"
               "  -q, --quiet    no warning that the catalog's prices are over 30 days\n"
               "                 old (EC2FIT_STALE_DAYS sets the limit, 0 turns it off)\n"
               "\nRun 'ec2fit <command> --help' for a command's flags.\n"
               "Exit status: 0 ok, 1 runtime error, 2 usage error, "
               "3 nothing satisfies the constraints.\n");
}

/* `ec2fit help [COMMAND]`: the overview, or `COMMAND --help` (as git). */
static int cmd_help(int argc, char **argv)
{
    size_t i;
    char *args[3];
    if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (argc > 2)
        return cli_usage_error("help", "unexpected argument '%s'", argv[2]);
    for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
        if (strcmp(argv[1], cmds[i].name) == 0) {
            args[0] = argv[1];
            args[1] = (char *)"--help";
            args[2] = NULL;
            return cmds[i].fn(2, args);
        }
    return cli_usage_error("help", "unknown command '%s' (see 'ec2fit --help')",
                           argv[1]);
}

static int version(void)
{
    ecf_catalog *cat = NULL;
    const char *label = NULL;
    ecf_err err = ECF_ERR_INIT;
    cli_catalog_opts copts = {NULL};

    printf("ec2fit %s\n", ECF_VERSION);
    if (cli_open_catalog(&cat, &copts, &label, &err) == 0) {
        printf("catalog: %s (prices as of %s)\n", label,
               ecf_catalog_as_of(cat));
        ecf_catalog_free(cat);
    } else {
        printf("catalog: unavailable (%s)\n", err.msg);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int c;
    size_t i;

    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_flags_main.optstring,
                            cli_flags_main.longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'q':
            cli_quiet = true;
            break;
        case 'h':
            usage(stdout);
            return cli_finish_stdout(0);
        case 'V':
            return cli_finish_stdout(version());
        default:
            return cli_bad_option(NULL, c, argc, argv,
                                  cli_flags_main.longopts);
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return 2;
    }
    /* before the config file: a broken one must not break completion */
    if (strcmp(argv[optind], "__complete") == 0)
        return cmd_complete(argc - optind, argv + optind);
    {
        /* User defaults (docs/config.md) are read once, here, so every
         * command sees the same values and a broken file is reported the
         * same way whichever command runs. */
        ecf_err err = ECF_ERR_INIT;
        if (cli_config_load(&err) != 0)
            return cli_finish_stdout(cli_fail(&err));
    }
    for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        if (strcmp(argv[optind], cmds[i].name) == 0)
            return cli_finish_stdout(
                cmds[i].fn(argc - optind, argv + optind));
    }
    {
        const char *names[sizeof(cmds) / sizeof(cmds[0])];
        const char *sugg[1];
        for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
            names[i] = cmds[i].name;
        /* cli_usage_error escapes control characters (ecf_textsafe). */
        if (ecf_parse_suggest(sugg, 1, argv[optind], names, i) > 0)
            cli_usage_error(NULL, "unknown command '%s' (did you mean %s?)",
                            argv[optind], sugg[0]);
        else
            cli_usage_error(NULL, "unknown command '%s' (see 'ec2fit "
                                  "--help')",
                            argv[optind]);
    }
    return 2;
}
