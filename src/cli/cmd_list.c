/*
 * cmd_list.c - `ec2fit list`: filter and sort instance types with ML-aware
 * flags (accelerator model, per-device and total accelerator memory, EFA).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "cli_config.h"
#include "cmd.h"
#include "ec2fit/filter.h"

static void usage(FILE *f)
{
    fputs(
        "usage: ec2fit list [flags]\n\n"
        "List instance types, filtered and sorted with ML-aware flags.\n\n"
        "Filters:\n"
        "  --accelerator NAME          a100, h100, l4, trainium, inferentia2, ...\n"
        "                              (case-insensitive; also gpu|neuron|other)\n"
        "  --min-accelerators N        at least N accelerators\n"
        "  --min-accel-memory GIB      at least GIB memory per accelerator\n"
        "  --min-total-accel-memory GIB  at least GIB accelerator memory in all\n"
        "  --min-vcpus N               at least N vCPUs\n"
        "  --min-memory GIB            at least GIB host memory\n"
        "  --efa                       only types with EFA\n"
        "  --arch x86_64|arm64         CPU architecture\n"
        "  --family LIST               comma-separated families (p5,g6e)\n"
        "  --region R                  prices from region R (default: AWS_REGION,\n"
        "                              AWS_DEFAULT_REGION, then us-east-1)\n"
        "  --max-price USD             at most USD per hour (on-demand, or spot\n"
        "                              with --spot); drops unpriced types\n"
        "  --spot                      use estimated spot prices\n"
        "Output:\n"
        "  --sort price|accel-memory|vcpus|name|price-per-accel   (default price)\n"
        "  --output table|json|csv     (default table)\n"
        CLI_OUTPUT_FILE_HELP
        "  --catalog FILE|embedded     catalog to read (default: embedded, or\n"
        "                              EC2FIT_CATALOG, or the update cache)\n"
        "  -h, --help                  this help\n\n"
        "Exit status: 0 ok (also when nothing matches), 1 runtime error, 2 usage.\n",
        f);
}

enum {
    O_ACCEL = 256, O_MIN_ACCELS, O_MIN_ACCEL_MEM, O_MIN_TOTAL_MEM,
    O_MIN_VCPUS, O_MIN_MEM, O_EFA, O_ARCH, O_FAMILY, O_REGION, O_MAX_PRICE,
    O_SPOT, O_SORT, O_OUTPUT, O_CATALOG, O_OUTPUT_FILE
};

static const struct option longopts[] = {
    {"accelerator", required_argument, NULL, O_ACCEL},
    {"min-accelerators", required_argument, NULL, O_MIN_ACCELS},
    {"min-accel-memory", required_argument, NULL, O_MIN_ACCEL_MEM},
    {"min-total-accel-memory", required_argument, NULL, O_MIN_TOTAL_MEM},
    {"min-vcpus", required_argument, NULL, O_MIN_VCPUS},
    {"min-memory", required_argument, NULL, O_MIN_MEM},
    {"efa", no_argument, NULL, O_EFA},
    {"arch", required_argument, NULL, O_ARCH},
    {"family", required_argument, NULL, O_FAMILY},
    {"families", required_argument, NULL, O_FAMILY},
    {"region", required_argument, NULL, O_REGION},
    {"max-price", required_argument, NULL, O_MAX_PRICE},
    {"spot", no_argument, NULL, O_SPOT},
    {"sort", required_argument, NULL, O_SORT},
    {"output", required_argument, NULL, O_OUTPUT},
    {"catalog", required_argument, NULL, O_CATALOG},
    {"output-file", required_argument, NULL, O_OUTPUT_FILE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

/* Splits a comma list in place into a NULL-terminated vector. */
static const char **split_list(char *s, size_t *n_out)
{
    size_t n = 1, i = 0;
    char *p;
    const char **v;
    for (p = s; *p; p++)
        if (*p == ',')
            n++;
    v = ecf_xcalloc(n + 1, sizeof(*v));
    for (p = strtok(s, ","); p; p = strtok(NULL, ","))
        if (*p)
            v[i++] = p;
    v[i] = NULL;
    *n_out = i;
    return v;
}

static void print_table(const ecf_instance **v, size_t n,
                        const ecf_filter *f)
{
    size_t i;
    int tw = 4, aw = 11;
    for (i = 0; i < n; i++) {
        char acc[96];
        cli_accel_label(acc, sizeof(acc), v[i]);
        if ((int)strlen(v[i]->type) > tw)
            tw = (int)strlen(v[i]->type);
        if ((int)strlen(acc) > aw)
            aw = (int)strlen(acc);
    }
    printf("%-*s  %-*s %9s %5s %9s %8s %4s %11s\n", tw, "TYPE", aw, "ACCELERATOR",
           "ACC_GiB", "VCPU", "MEM_GiB", "NET_Gbps", "EFA",
           f->spot ? "SPOT_$/h" : "OD_$/h");
    for (i = 0; i < n; i++) {
        char acc[96], mem[16], price[16], net[16];
        double p = ecf_filter_price(f, v[i]);
        cli_accel_label(acc, sizeof(acc), v[i]);
        if (v[i]->accel)
            snprintf(mem, sizeof(mem), "%.1f", v[i]->accel_memory_gib);
        else
            snprintf(mem, sizeof(mem), "-");
        if (p >= 0)
            snprintf(price, sizeof(price), "%.4f", p);
        else
            snprintf(price, sizeof(price), "-");
        if (v[i]->network_gbps > 0)
            snprintf(net, sizeof(net), "%g", v[i]->network_gbps);
        else
            snprintf(net, sizeof(net), "-");
        printf("%-*s  %-*s %9s %5d %9.1f %8s %4s %11s\n", tw, v[i]->type, aw, acc,
               mem, v[i]->vcpu, v[i]->memory_gib, net,
               v[i]->efa ? "yes" : "no", price);
    }
    printf("%zu instance type%s, prices in %s%s\n", n, n == 1 ? "" : "s",
           f->region, f->spot ? " (spot, estimated)" : " (on-demand, Linux)");
}

static void print_csv(const ecf_instance **v, size_t n, const ecf_filter *f)
{
    size_t i;
    printf("instance_type,family,accelerator,accelerator_count,"
           "accel_memory_gib,vcpu,memory_gib,arch,network_gbps,efa,region,"
           "ondemand_usd_per_hour,spot_usd_per_hour,interruption_band\n");
    for (i = 0; i < n; i++) {
        const ecf_price *p = ecf_instance_price(v[i], f->region);
        char num[64];
        cli_csv_field(stdout, v[i]->type, 0);
        cli_csv_field(stdout, v[i]->family, 0);
        cli_csv_field(stdout, v[i]->accel ? v[i]->accel->id : "", 0);
        printf("%d,", v[i]->accel_count);
        if (v[i]->accel)
            printf("%g,", v[i]->accel_memory_gib);
        else
            printf(",");
        printf("%d,%g,%s,%g,%s,", v[i]->vcpu, v[i]->memory_gib,
               ecf_arch_name(v[i]->arch), v[i]->network_gbps,
               v[i]->efa ? "true" : "false");
        cli_csv_field(stdout, f->region, 0);
        num[0] = '\0';
        if (p)
            snprintf(num, sizeof(num), "%.6f", p->ondemand_usd_per_hour);
        printf("%s,", num);
        num[0] = '\0';
        if (p && p->spot_usd_per_hour >= 0)
            snprintf(num, sizeof(num), "%.6f", p->spot_usd_per_hour);
        printf("%s,", num);
        if (p && p->interruption_band >= 0)
            printf("%d\n", p->interruption_band);
        else
            printf("\n");
    }
}

static void print_json(const ecf_instance **v, size_t n, const ecf_filter *f,
                       const ecf_catalog *cat, const char *label)
{
    cJSON *root = cJSON_CreateObject(), *arr;
    size_t i;
    cJSON_AddNumberToObject(root, "schema_version", 1);
    cJSON_AddItemToObject(root, "catalog", cli_json_catalog_meta(cat, label));
    cJSON_AddStringToObject(root, "region", f->region);
    cJSON_AddStringToObject(root, "purchase", f->spot ? "spot" : "on-demand");
    cJSON_AddNumberToObject(root, "count", (double)n);
    arr = cJSON_AddArrayToObject(root, "instances");
    for (i = 0; i < n; i++) {
        cJSON *o = cli_json_instance(v[i]);
        const ecf_price *p = ecf_instance_price(v[i], f->region);
        cJSON_AddItemToObject(o, "price",
                              p ? cli_json_price(p) : cJSON_CreateNull());
        cJSON_AddItemToArray(arr, o);
    }
    cli_json_print(stdout, root);
}

int cmd_list(int argc, char **argv)
{
    ecf_filter f = ECF_FILTER_INIT;
    ecf_err err = ECF_ERR_INIT;
    ecf_catalog *cat = NULL;
    cli_catalog_opts copts = {NULL};
    cli_output out = CLI_OUT_TABLE;
    const ecf_instance **v = NULL;
    const char **families = NULL;
    char *family_arg = NULL;
    const char *label = NULL, *output_file = NULL;
    size_t n = 0, i, nfam = 0;
    int sort = ECF_SORT_PRICE, c, status = 0;

    f.region = cli_default_region();
    cli_config_default_output(&out, CLI_OUT_BIT(CLI_OUT_TABLE) |
                                        CLI_OUT_BIT(CLI_OUT_JSON) |
                                        CLI_OUT_BIT(CLI_OUT_CSV));
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'h':
            usage(stdout);
            goto out;
        case O_ACCEL:
            if (!*optarg)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--accelerator: expected a name, got ''");
            f.accelerator = optarg;
            break;
        case O_MIN_ACCELS:
            rc = cli_parse_int(&f.min_accelerators, "--min-accelerators",
                               optarg, 0, 1024, &err);
            break;
        case O_MIN_ACCEL_MEM:
            rc = cli_parse_double(&f.min_accel_memory_gib,
                                  "--min-accel-memory", optarg, 0, 1e6, &err);
            break;
        case O_MIN_TOTAL_MEM:
            rc = cli_parse_double(&f.min_total_accel_memory_gib,
                                  "--min-total-accel-memory", optarg, 0, 1e7,
                                  &err);
            break;
        case O_MIN_VCPUS:
            rc = cli_parse_int(&f.min_vcpus, "--min-vcpus", optarg, 0, 100000,
                               &err);
            break;
        case O_MIN_MEM:
            rc = cli_parse_double(&f.min_memory_gib, "--min-memory", optarg, 0,
                                  1e7, &err);
            break;
        case O_EFA:
            f.efa = true;
            break;
        case O_ARCH:
            if (strcmp(optarg, "x86_64") == 0 || strcmp(optarg, "amd64") == 0)
                f.arch = ECF_ARCH_X86_64;
            else if (strcmp(optarg, "arm64") == 0 ||
                     strcmp(optarg, "aarch64") == 0)
                f.arch = ECF_ARCH_ARM64;
            else
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--arch: expected x86_64 or arm64, got '%s'",
                                 optarg);
            break;
        case O_FAMILY:
            free(family_arg);
            free(families);
            family_arg = ecf_xstrdup(optarg);
            families = split_list(family_arg, &nfam);
            if (nfam == 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--family: expected a comma-separated list "
                                 "of families, got '%s'",
                                 optarg);
            f.families = families;
            break;
        case O_REGION:
            f.region = optarg;
            break;
        case O_MAX_PRICE:
            rc = cli_parse_double(&f.max_price_usd, "--max-price", optarg, 0,
                                  1e6, &err);
            break;
        case O_SPOT:
            f.spot = true;
            break;
        case O_SORT:
            sort = ecf_sort_parse(optarg);
            if (sort < 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--sort: expected price|accel-memory|vcpus|"
                                 "name|price-per-accel, got '%s'",
                                 optarg);
            break;
        case O_OUTPUT:
            rc = cli_parse_output(&out, optarg,
                                  CLI_OUT_BIT(CLI_OUT_TABLE) |
                                      CLI_OUT_BIT(CLI_OUT_JSON) |
                                      CLI_OUT_BIT(CLI_OUT_CSV),
                                  &err);
            break;
        case O_CATALOG:
            copts.path = optarg;
            break;
        case O_OUTPUT_FILE:
            output_file = optarg;
            break;
        default:
            status = cli_bad_option("list", c, argc, argv);
            goto out;
        }
        if (rc) {
            status = cli_usage_error("list", "%s", err.msg);
            goto out;
        }
    }
    if (optind < argc) {
        status = cli_usage_error("list", "unexpected argument '%s'",
                                 argv[optind]);
        goto out;
    }
    if (output_file && cli_output_begin(output_file, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }
    if (cli_open_catalog(&cat, &copts, &label, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }
    if (cli_check_region(cat, f.region, "--region", &err) != 0) {
        status = cli_usage_error("list", "%s", err.msg);
        goto out;
    }
    if (f.accelerator && !ecf_accel_name_known(cat, f.accelerator)) {
        const char *names[ECF_CATALOG_MAX_ACCELERATORS];
        const char *sugg[1];
        size_t na = ecf_catalog_accel_count(cat);
        for (i = 0; i < na; i++)
            names[i] = ecf_catalog_accel_at(cat, i)->id;
        if (cli_suggest(sugg, 1, f.accelerator, names, na))
            status = cli_usage_error(
                "list", "--accelerator: unknown accelerator '%s' (did you "
                        "mean %s?)",
                f.accelerator, sugg[0]);
        else
            status = cli_usage_error(
                "list", "--accelerator: unknown accelerator '%s'",
                f.accelerator);
        goto out;
    }

    v = ecf_xcalloc(ecf_catalog_count(cat), sizeof(*v));
    for (i = 0; i < ecf_catalog_count(cat); i++) {
        const ecf_instance *in = ecf_catalog_at(cat, i);
        if (ecf_filter_match(&f, in))
            v[n++] = in;
    }
    ecf_filter_sort(v, n, (ecf_sort)sort, &f);
    switch (out) {
    case CLI_OUT_JSON:
        print_json(v, n, &f, cat, label);
        break;
    case CLI_OUT_CSV:
        print_csv(v, n, &f);
        break;
    default:
        print_table(v, n, &f);
        break;
    }
out:
    free(v);
    free(families);
    free(family_arg);
    ecf_catalog_free(cat);
    return status;
}
