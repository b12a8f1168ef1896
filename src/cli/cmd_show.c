/*
 * cmd_show.c - `ec2fit show TYPE`: every fact the catalog holds about one
 * instance type, with its prices in every region (or one).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "ec2fit/region_name.h"
#include "cli_config.h"
#include "cli_fields.h"
#include "cmd.h"
#include "ec2fit/textsafe.h"

static void usage(FILE *f)
{
    fputs("usage: ec2fit show TYPE [-r R] [-o table|json] [-c FILE]\n\n"
          "Every fact about one instance type: accelerator, host, network,\n"
          "storage, and Linux prices (on-demand, 1-year reserved, estimated\n"
          "spot with savings and interruption band) in every region, or in R.\n\n"
          "  -r, --region R          only region R\n"
          "  -o, --output table|json (default table)\n"
          "  -c, --catalog FILE|embedded\n"
          "                          catalog to read\n"
          CLI_OUTPUT_FILE_HELP
          "  --fields LIST           --output json: keep only these fields "
          "(a.b.c,\n"
          "                          comma-separated; arrays are crossed)\n"
          "  -h, --help              this help\n"
          "Examples:\n"
          "  ec2fit show p5.48xlarge\n"
          "  ec2fit show g6e.xlarge -r eu-west-1 -o json\n\n"
          "Exit status: 0 ok, 1 runtime error, 2 usage or unknown type.\n",
          f);
}

/* Spot Advisor interruption-frequency ranges (feed's "ranges"). */
static const char *band_label(int band)
{
    static const char *const labels[] = {"<5%", "5-10%", "10-15%", "15-20%",
                                         ">20%"};
    return band >= 0 && band <= 4 ? labels[band] : "-";
}

static void print_table(const ecf_instance *in, const char *region,
                        const ecf_catalog *cat)
{
    char acc[96];
    size_t i, shown = 0;

    char safe[256], safe2[256];

    /* Catalog strings are untrusted: ecf_textsafe (docs/security.md). */
    ecf_render_accel_label(acc, sizeof(acc), in);
    printf("%s\n", ecf_textsafe(safe, sizeof(safe), in->type));
    printf("  family            %s\n",
           ecf_textsafe(safe, sizeof(safe), in->family));
    printf("  vcpu              %d\n", in->vcpu);
    printf("  memory            %.1f GiB\n", in->memory_gib);
    printf("  arch              %s\n", ecf_arch_name(in->arch));
    printf("  accelerator       %s\n", acc);
    if (in->accel) {
        const ecf_accel *a = in->accel;
        printf("    kind            %s (%s, %s)\n", ecf_accel_kind_name(a->kind),
               ecf_textsafe(safe, sizeof(safe), a->vendor),
               ecf_textsafe(safe2, sizeof(safe2),
                            a->generation ? a->generation : "-"));
        printf("    memory          %.1f GiB per device, %.1f GiB total\n",
               in->accel_memory_gib, in->accel_memory_gib * in->accel_count);
        if (a->memory_bw_gbytes_s > 0)
            printf("    memory bw       %g GB/s per device\n",
                   a->memory_bw_gbytes_s);
        printf("    dense TFLOPS    fp32 %g, tf32 %g, fp16 %g, bf16 %g, fp8 "
               "%g, int8 %g (0 = not supported)\n",
               a->tflops[ECF_PREC_FP32], a->tflops[ECF_PREC_TF32],
               a->tflops[ECF_PREC_FP16], a->tflops[ECF_PREC_BF16],
               a->tflops[ECF_PREC_FP8], a->tflops[ECF_PREC_INT8]);
        if (in->link_gbytes_s > 0)
            printf("    interconnect    %s, %g GB/s per device\n",
                   ecf_link_name(in->link), in->link_gbytes_s);
        else
            printf("    interconnect    %s\n", ecf_link_name(in->link));
        if (a->tdp_w > 0)
            printf("    tdp             %g W\n", a->tdp_w);
    } else if (in->cpu_gflops_fp32 > 0) {
        printf("  cpu peak          fp32 %g, bf16 %g, int8 %g GFLOPS; DRAM "
               "%g GB/s\n",
               in->cpu_gflops_fp32, in->cpu_gflops_bf16, in->cpu_gflops_int8,
               in->cpu_mem_gbytes_s);
    }
    if (in->network_gbps > 0)
        printf("  network           %g Gbps baseline\n", in->network_gbps);
    else
        printf("  network           unknown\n");
    if (in->efa)
        printf("  efa               yes, %d interface%s, %g Gbps\n",
               in->efa_interfaces, in->efa_interfaces == 1 ? "" : "s",
               in->efa_gbps);
    else
        printf("  efa               no\n");
    if (in->ebs_gbps > 0)
        printf("  ebs bandwidth     %g Gbps\n", in->ebs_gbps);
    if (in->nvme_gb > 0)
        printf("  local nvme        %g GB\n", in->nvme_gb);
    else
        printf("  local nvme        none (EBS only)\n");
    printf("\n  %-16s %12s %12s %12s %8s %8s\n", "REGION", "ONDEMAND_$/h",
           "RI_1Y_$/h", "SPOT_$/h*", "SAVINGS", "INTERR");
    for (i = 0; i < in->n_prices; i++) {
        const ecf_price *p = &in->prices[i];
        char ri[24] = "-", spot[24] = "-", sav[16] = "-";
        if (region && strcmp(region, p->region) != 0)
            continue;
        if (p->reserved_1y_usd_per_hour >= 0)
            snprintf(ri, sizeof(ri), "%.4f", p->reserved_1y_usd_per_hour);
        if (p->spot_usd_per_hour >= 0) {
            snprintf(spot, sizeof(spot), "%.4f", p->spot_usd_per_hour);
            snprintf(sav, sizeof(sav), "%d%%", p->spot_savings_pct);
        } else if (p->spot_savings_pct >= ECF_SPOT_SAVINGS_CEILING_PCT) {
            snprintf(sav, sizeof(sav), ">=%d%%", p->spot_savings_pct);
        }
        printf("  %-16s %12.4f %12s %12s %8s %8s\n",
               ecf_textsafe(safe, sizeof(safe), p->region),
               p->ondemand_usd_per_hour, ri, spot, sav,
               band_label(p->interruption_band));
        shown++;
    }
    if (shown == 0)
        printf("  (no public price%s%s)\n", region ? " in " : "",
               region ? region : "");
    printf("\n  * spot = on-demand x (1 - savings), estimated from the AWS "
           "Spot Advisor;\n    prices as of %s (Linux, shared tenancy). "
           "Savings >=%d%%: the Advisor's ceiling,\n    no spot estimate.\n",
           ecf_catalog_as_of(cat), ECF_SPOT_SAVINGS_CEILING_PCT);
}

static int print_json(const ecf_instance *in, const char *region,
                      const ecf_catalog *cat, const char *label,
                      const cli_fields *fields)
{
    cJSON *root = cJSON_CreateObject(), *o, *prices;
    size_t i;

    cJSON_AddNumberToObject(root, "schema_version", 1);
    cJSON_AddItemToObject(root, "catalog", ecf_render_json_catalog_meta(cat, label, cli_now()));
    o = ecf_render_json_instance(in);
    if (in->accel) {
        const ecf_accel *a = in->accel;
        cJSON *acc = cJSON_GetObjectItemCaseSensitive(o, "accelerator");
        cJSON *tf = cJSON_CreateObject();
        int p;
        cJSON_AddStringToObject(acc, "vendor", a->vendor);
        cJSON_AddStringToObject(acc, "generation",
                                a->generation ? a->generation : "");
        ecf_render_json_add_num(acc, "memory_bw_gbytes_s", a->memory_bw_gbytes_s, 3);
        for (p = 0; p < ECF_PREC_COUNT; p++) {
            if (a->tflops[p] > 0)
                ecf_render_json_add_num(tf, ecf_precision_name((ecf_precision)p),
                                 a->tflops[p], 3);
            else
                cJSON_AddNullToObject(tf, ecf_precision_name((ecf_precision)p));
        }
        cJSON_AddItemToObject(acc, "tflops", tf);
        ecf_render_json_add_num(acc, "tdp_w", a->tdp_w, 1);
        cJSON_AddNullToObject(o, "cpu");
    } else if (in->cpu_gflops_fp32 > 0) {
        cJSON *cpu = cJSON_AddObjectToObject(o, "cpu");
        cJSON *g = cJSON_AddObjectToObject(cpu, "gflops");
        ecf_render_json_add_num(g, "fp32", in->cpu_gflops_fp32, 1);
        ecf_render_json_add_num(g, "bf16", in->cpu_gflops_bf16, 1);
        ecf_render_json_add_num(g, "int8", in->cpu_gflops_int8, 1);
        ecf_render_json_add_num(cpu, "memory_bw_gbytes_s", in->cpu_mem_gbytes_s, 2);
    } else {
        cJSON_AddNullToObject(o, "cpu");
    }
    prices = cJSON_AddObjectToObject(o, "prices");
    for (i = 0; i < in->n_prices; i++) {
        cJSON *pj;
        char parent[64];
        if (region && strcmp(region, in->prices[i].region) != 0)
            continue;
        pj = ecf_render_json_price(&in->prices[i]);
        /* the key is the location; a zone group's entry also names its
         * parent region, as every other output does */
        if (ecf_region_parent(parent, sizeof(parent), in->prices[i].region))
            ecf_render_json_add_location(pj, in->prices[i].region);
        if (in->prices[i].interruption_band >= 0)
            cJSON_AddStringToObject(pj, "interruption_range",
                                    band_label(in->prices[i].interruption_band));
        cJSON_AddItemToObject(prices, in->prices[i].region, pj);
    }
    cJSON_AddItemToObject(root, "instance", o);
    return cli_fields_print(stdout, root, fields, "show");
}

static const struct option longopts[] = {
    {"region", required_argument, NULL, 'r'},
    {"output", required_argument, NULL, 'o'},
    {"catalog", required_argument, NULL, 'c'},
    {"output-file", required_argument, NULL, 'O'},
    {"fields", required_argument, NULL, 'F'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};
const cli_flagset cli_flags_show = {longopts, ":hr:c:o:", NULL};

int cmd_show(int argc, char **argv)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_catalog *cat = NULL;
    cli_catalog_opts copts = {NULL};
    cli_output out = CLI_OUT_TABLE;
    const char *region = NULL, *label = NULL, *type, *output_file = NULL;
    const ecf_instance *in;
    int c, status = 0;
    cli_fields fields;
    bool fields_given = false;

    cli_config_default_output(&out, CLI_OUT_BIT(CLI_OUT_TABLE) |
                                        CLI_OUT_BIT(CLI_OUT_JSON));
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_flags_show.optstring, longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case 'r':
            region = optarg;
            break;
        case 'o':
            if (cli_parse_output(&out, optarg,
                                 CLI_OUT_BIT(CLI_OUT_TABLE) |
                                     CLI_OUT_BIT(CLI_OUT_JSON),
                                 &err))
                return cli_usage_error("show", "%s", err.msg);
            break;
        case 'c':
            copts.path = optarg;
            break;
        case 'O':
            output_file = optarg;
            break;
        case 'F':
            if (cli_fields_parse(&fields, optarg, &err) != 0)
                return cli_usage_error("show", "%s", err.msg);
            fields_given = true;
            break;
        default:
            return cli_bad_option("show", c, argc, argv, longopts);
        }
    }
    if (optind >= argc)
        return cli_usage_error("show", "missing instance type (e.g. ec2fit "
                                       "show p4d.24xlarge)");
    if (optind + 1 < argc)
        return cli_usage_error("show", "unexpected argument '%s'",
                               argv[optind + 1]);
    type = argv[optind];
    if (fields_given && out != CLI_OUT_JSON)
        return cli_usage_error("show", "--fields: selects from --output json "
                                       "only");
    if (output_file && cli_output_begin(output_file, &err) != 0)
        return cli_fail(&err);
    if (cli_open_catalog(&cat, &copts, &label, &err) != 0)
        return cli_fail(&err);
    in = ecf_catalog_find(cat, type);
    if (!in) {
        size_t n = ecf_catalog_count(cat), i, k;
        const char **names = ecf_xcalloc(n, sizeof(*names));
        const char *sugg[3];
        for (i = 0; i < n; i++)
            names[i] = ecf_catalog_at(cat, i)->type;
        k = ecf_parse_suggest(sugg, 3, type, names, n);
        if (k == 0)
            status = cli_usage_error("show", "unknown instance type '%s'",
                                     type);
        else if (k == 1)
            status = cli_usage_error(
                "show", "unknown instance type '%s' (did you mean %s?)", type,
                sugg[0]);
        else if (k == 2)
            status = cli_usage_error(
                "show", "unknown instance type '%s' (did you mean %s or %s?)",
                type, sugg[0], sugg[1]);
        else
            status = cli_usage_error("show",
                                     "unknown instance type '%s' (did you "
                                     "mean %s, %s or %s?)",
                                     type, sugg[0], sugg[1], sugg[2]);
        free(names);
        goto out;
    }
    if (region && ecf_region_check(cat, region, "--region", &err) != 0) {
        status = cli_usage_error("show", "%s", err.msg);
        goto out;
    }
    if (out == CLI_OUT_JSON)
        status = print_json(in, region, cat, label,
                            fields_given ? &fields : NULL);
    else
        print_table(in, region, cat);
out:
    ecf_catalog_free(cat);
    return status;
}
