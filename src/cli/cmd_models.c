/*
 * cmd_models.c - `ec2fit models`: the built-in model zoo as a table or
 * JSON. Holds no logic beyond formatting; the zoo is ecf_zoo_embedded().
 */
#include <getopt.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "render_common.h"
#include "cli_fields.h"
#include "cmd.h"
#include "ec2fit/units.h"
#include "ec2fit/zoo.h"

static void usage(FILE *f)
{
    fputs("usage: ec2fit models [--output table|json]\n\n"
          "Lists the built-in model zoo: kind, parameters (active for "
          "MoE),\narchitecture, forward GFLOPs per sample and defaults.\n\n"
          "  -o, --output FMT   table (default) or json\n"
          CLI_OUTPUT_FILE_HELP
          "  --fields LIST      --output json: keep only these fields "
          "(a.b.c,\n"
          "                     comma-separated; arrays are crossed: "
          "models.name)\n"
          "  -h, --help         this help\n"
          "Examples:\n"
          "  ec2fit models\n"
          "  ec2fit models -o json --fields models.name,models.kind\n",
          f);
}

static void print_table(const ecf_zoo *zoo)
{
    size_t i, n = ecf_zoo_count(zoo);

    printf("%-20s %-9s %7s %7s %6s %6s %5s %4s %7s %10s %5s\n", "MODEL", "KIND",
           "PARAMS", "ACTIVE", "LAYERS", "HIDDEN", "HEADS", "KV", "CONTEXT",
           "GFLOP/SMP", "BATCH");
    for (i = 0; i < n; i++) {
        const ecf_model *m = ecf_zoo_at(zoo, i);
        char p[16], a[16], l[16], h[16], hd[16], kv[16], ctx[16], gf[16];
        ecf_units_format_count(p, sizeof(p), m->params);
        ecf_units_format_count(a, sizeof(a), m->active_params);
        snprintf(l, sizeof(l), "%d", m->layers);
        snprintf(h, sizeof(h), "%d", m->hidden);
        snprintf(hd, sizeof(hd), "%d", m->heads);
        snprintf(kv, sizeof(kv), "%d", m->kv_heads);
        if (m->max_context > 0)
            snprintf(ctx, sizeof(ctx), "%d", m->max_context);
        else
            snprintf(ctx, sizeof(ctx), "-");
        /* transformers without a published figure: 2 x active params x
         * default tokens */
        snprintf(gf, sizeof(gf), "%.1f",
                 m->fwd_gflops_per_sample > 0
                     ? m->fwd_gflops_per_sample
                     : 2.0 * m->active_params * m->default_seq_len / 1e9);
        printf("%-20s %-9s %7s %7s %6s %6s %5s %4s %7s %10s %5d\n", m->name,
               ecf_model_kind_name(m->kind), p, a, m->layers ? l : "-",
               m->hidden ? h : "-", m->heads ? hd : "-", m->kv_heads ? kv : "-",
               ctx, gf, m->default_batch);
    }
}

static void add_int(cJSON *o, const char *key, int v)
{
    if (v > 0)
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static int print_json(const ecf_zoo *zoo, const cli_fields *fields)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *arr;
    size_t i, k, n = ecf_zoo_count(zoo);

    cJSON_AddNumberToObject(root, "schema_version", 1);
    arr = cJSON_AddArrayToObject(root, "models");

    for (i = 0; i < n; i++) {
        const ecf_model *m = ecf_zoo_at(zoo, i);
        cJSON *o = cJSON_CreateObject(), *al;
        cJSON_AddStringToObject(o, "name", m->name);
        cJSON_AddStringToObject(o, "display", m->display);
        al = cJSON_AddArrayToObject(o, "aliases");
        for (k = 0; k < ECF_MODEL_MAX_ALIASES; k++)
            if (m->aliases[k][0])
                cJSON_AddItemToArray(al, cJSON_CreateString(m->aliases[k]));
        cJSON_AddStringToObject(o, "kind", ecf_model_kind_name(m->kind));
        cJSON_AddNumberToObject(o, "params", m->params);
        cJSON_AddNumberToObject(o, "active_params", m->active_params);
        add_int(o, "layers", m->layers);
        add_int(o, "hidden", m->hidden);
        add_int(o, "heads", m->heads);
        add_int(o, "kv_heads", m->kv_heads);
        add_int(o, "intermediate", m->intermediate);
        add_int(o, "vocab", m->vocab);
        add_int(o, "max_context", m->max_context);
        add_int(o, "experts", m->experts);
        add_int(o, "experts_per_tok", m->experts_per_tok);
        add_int(o, "kv_dim_per_layer", m->kv_dim_per_layer);
        if (m->fwd_gflops_per_sample > 0)
            ecf_render_json_add_num(o, "fwd_gflops_per_sample",
                             m->fwd_gflops_per_sample, 3);
        else
            cJSON_AddNullToObject(o, "fwd_gflops_per_sample");
        cJSON_AddNumberToObject(o, "input_bytes_per_sample",
                                m->input_bytes_per_sample);
        cJSON_AddNumberToObject(o, "default_batch", m->default_batch);
        add_int(o, "default_seq_len", m->default_seq_len);
        add_int(o, "image_size", m->image_size);
        add_int(o, "diffusion_steps", m->diffusion_steps);
        if (m->kind == ECF_KIND_DIFFUSION)
            cJSON_AddNumberToObject(o, "cfg_passes", ecf_model_cfg_passes(m));
        else
            cJSON_AddNullToObject(o, "cfg_passes");
        cJSON_AddStringToObject(o, "source", m->source);
        cJSON_AddItemToArray(arr, o);
    }
    return cli_fields_print(stdout, root, fields, "models");
}

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"output-file", required_argument, NULL, 'O'},
    {"fields", required_argument, NULL, 'F'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};
const cli_flagset cli_flags_models = {longopts, ":ho:", NULL};

int cmd_models(int argc, char **argv)
{
    ecf_err err = ECF_ERR_INIT;
    cli_output out = CLI_OUT_TABLE;
    ecf_zoo *zoo = NULL;
    const char *output_file = NULL;
    int c;
    cli_fields fields;
    bool fields_given = false;

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_flags_models.optstring, longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case 'o':
            if (cli_parse_output(&out, optarg,
                                 CLI_OUT_BIT(CLI_OUT_TABLE) |
                                     CLI_OUT_BIT(CLI_OUT_JSON),
                                 &err))
                return cli_usage_error("models", "%s", err.msg);
            break;
        case 'O':
            output_file = optarg;
            break;
        case 'F':
            if (cli_fields_parse(&fields, optarg, &err) != 0)
                return cli_usage_error("models", "%s", err.msg);
            fields_given = true;
            break;
        default:
            return cli_bad_option("models", c, argc, argv, longopts);
        }
    }
    if (optind < argc)
        return cli_usage_error("models", "unexpected argument '%s'",
                               argv[optind]);
    if (fields_given && out != CLI_OUT_JSON)
        return cli_usage_error("models", "--fields: selects from --output "
                                         "json only");
    if (output_file && cli_output_begin(output_file, &err) != 0)
        return cli_fail(&err);
    if (ecf_zoo_embedded(&zoo, &err) < 0)
        return cli_fail(&err);
    if (out == CLI_OUT_JSON)
        c = print_json(zoo, fields_given ? &fields : NULL);
    else
        print_table(zoo);
    ecf_zoo_free(zoo);
    return out == CLI_OUT_JSON ? c : 0;
}
