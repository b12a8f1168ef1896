/*
 * cmd_list.c - `ec2fit list`: filter and sort instance types with ML-aware
 * flags (accelerator model, per-device and total accelerator memory, EFA).
 */
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "cli_config.h"
#include "cli_fields.h"
#include "cmd.h"
#include "ec2fit/textsafe.h"
#include "ec2fit/filter.h"
#include "ec2fit/units.h"

static void usage(FILE *f)
{
    fputs(
        "usage: ec2fit list [flags]\n\n"
        "List instance types, filtered and sorted with ML-aware flags.\n\n"
        "Filters:\n"
        "  --accelerator NAME          a100, h100, l4, trainium, inferentia2, ...\n"
        "                              (case-insensitive; also gpu|neuron|other)\n"
        "  --accelerators RANGE        accelerators per instance: N (exactly),\n"
        "                              MIN-MAX, MIN- or -MAX (0 = CPU only)\n"
        "  --accel-memory RANGE        memory per accelerator, 24-80GiB, 40GiB-\n"
        "  --total-accel-memory RANGE  accelerator memory in all\n"
        "  --vcpus RANGE               vCPUs: 8, 8-32, 8-, -32\n"
        "  --memory RANGE              host memory: 16GiB-, 16gb-64gb, -512\n"
        "  --min-accelerators N, --max-accelerators N\n"
        "  --min-accel-memory SIZE, --max-accel-memory SIZE\n"
        "  --min-total-accel-memory SIZE, --max-total-accel-memory SIZE\n"
        "  --min-vcpus N, --max-vcpus N\n"
        "  --min-memory SIZE, --max-memory SIZE\n"
        "                              one side of a range. SIZE: no unit = GiB;\n"
        "                              GiB, TiB, MiB, or GB, TB, MB (10^9 bytes\n"
        "                              ...), any case: 16gb, 40GiB\n"
        "  --efa                       only types with EFA\n"
        "  --arch x86_64|arm64         CPU architecture\n"
        "  --family LIST, --families LIST\n"
        "                              comma-separated families or globs (p5,g6*)\n"
        "  --allow-list REGEX          only types whose name matches (POSIX ERE,\n"
        "                              unanchored: 'p5|g6e', '^g6\\.')\n"
        "  --deny-list REGEX           drop types whose name matches\n"
        "  -r, --region R|all          prices from region R (default: AWS_REGION,\n"
        "                              AWS_DEFAULT_REGION, then us-east-1); all:\n"
        "                              one row per region with a price\n"
        "  --max-price USD             at most USD per hour (on-demand, or spot\n"
        "                              with --spot); drops unpriced types\n"
        "  --spot                      use estimated spot prices\n"
        "Output:\n"
        "  --sort KEY                  price (default), price-per-accel,\n"
        "                              accel-memory, accelerators, vcpus, memory,\n"
        "                              interruption, savings, name\n"
        "  --order asc|desc            (default: asc for price, price-per-accel,\n"
        "                              interruption, name; desc for the others)\n"

        "  --max-results N             print at most N rows\n"
        "  -o, --output table|json|csv (default table)\n"
        CLI_OUTPUT_FILE_HELP
        "  --fields LIST               --output json: keep only these fields\n"
        "                              (a.b.c, comma-separated; arrays are\n"
        "                              crossed: instances.instance_type)\n"
        "  -c, --catalog FILE|embedded catalog to read (default: embedded, or\n"
        "                              EC2FIT_CATALOG, or the update cache)\n"
        "  -h, --help                  this help\n"
        "amazon-ec2-instance-selector spellings (docs/coming-from.md):\n"
        "  --gpus RANGE                GPUs per instance, at least 1 (sets\n"
        "                              --accelerator gpu unless given)\n"
        "  --gpus-min N, --gpus-max N  one side of --gpus\n"
        "  --vcpus-min N, --vcpus-max N\n"
        "                              as --min-vcpus, --max-vcpus\n"
        "  --memory-min SIZE, --memory-max SIZE\n"
        "                              as --min-memory, --max-memory\n"
        "  --gpu-memory-total RANGE    as --total-accel-memory\n"
        "  --cpu-architecture A        as --arch\n"
        "  --efa-support               as --efa\n"
        "  --sort-by KEY               instance-type, vcpus, memory, gpus,\n"
        "                              price-per-hour (or a --sort key);\n"
        "                              ascending unless --sort-direction desc\n"
        "  --sort-direction asc|desc   as --order (also ascending, descending)\n"
        "Examples:\n"
        "  ec2fit list --accelerator h100 --sort price-per-accel\n"
        "  ec2fit list --accelerators 8 --accel-memory 80GiB- -r us-west-2 -o csv\n"
        "  ec2fit list --gpus 1-4 --cpu-architecture arm64 --max-results 5\n"
        "\n"
        "Exit status: 0 ok (also when nothing matches), 1 runtime error, 2 usage.\n",
        f);
}

enum {
    O_ACCEL = 256, O_MIN_ACCELS, O_MIN_ACCEL_MEM, O_MIN_TOTAL_MEM,
    O_MIN_VCPUS, O_MIN_MEM, O_EFA, O_ARCH, O_FAMILY, O_REGION, O_MAX_PRICE,
    O_SPOT, O_SORT, O_OUTPUT, O_CATALOG, O_OUTPUT_FILE, O_FIELDS,
    /* ranges and upper bounds (list_range below) */
    O_ACCELS, O_ACCEL_MEM, O_TOTAL_MEM, O_VCPUS, O_MEM,
    O_MAX_ACCELS, O_MAX_ACCEL_MEM, O_MAX_TOTAL_MEM, O_MAX_VCPUS, O_MAX_MEM,
    O_ORDER, O_MAX_RESULTS,
    /* amazon-ec2-instance-selector spellings with their own handling */
    O_GPUS, O_GPUS_MIN, O_GPUS_MAX, O_ALLOW, O_DENY, O_SORT_BY
};

static const struct option longopts[] = {
    {"accelerator", required_argument, NULL, O_ACCEL},
    {"min-accelerators", required_argument, NULL, O_MIN_ACCELS},
    {"min-accel-memory", required_argument, NULL, O_MIN_ACCEL_MEM},
    {"min-total-accel-memory", required_argument, NULL, O_MIN_TOTAL_MEM},
    {"min-vcpus", required_argument, NULL, O_MIN_VCPUS},
    {"min-memory", required_argument, NULL, O_MIN_MEM},
    {"accelerators", required_argument, NULL, O_ACCELS},
    {"accel-memory", required_argument, NULL, O_ACCEL_MEM},
    {"total-accel-memory", required_argument, NULL, O_TOTAL_MEM},
    {"vcpus", required_argument, NULL, O_VCPUS},
    {"memory", required_argument, NULL, O_MEM},
    {"max-accelerators", required_argument, NULL, O_MAX_ACCELS},
    {"max-accel-memory", required_argument, NULL, O_MAX_ACCEL_MEM},
    {"max-total-accel-memory", required_argument, NULL, O_MAX_TOTAL_MEM},
    {"max-vcpus", required_argument, NULL, O_MAX_VCPUS},
    {"max-memory", required_argument, NULL, O_MAX_MEM},
    /* amazon-ec2-instance-selector's spellings */
    {"vcpus-min", required_argument, NULL, O_MIN_VCPUS},
    {"vcpus-max", required_argument, NULL, O_MAX_VCPUS},
    {"memory-min", required_argument, NULL, O_MIN_MEM},
    {"memory-max", required_argument, NULL, O_MAX_MEM},
    {"gpu-memory-total", required_argument, NULL, O_TOTAL_MEM},
    {"gpus", required_argument, NULL, O_GPUS},
    {"gpus-min", required_argument, NULL, O_GPUS_MIN},
    {"gpus-max", required_argument, NULL, O_GPUS_MAX},
    {"cpu-architecture", required_argument, NULL, O_ARCH},
    {"efa-support", no_argument, NULL, O_EFA},
    {"allow-list", required_argument, NULL, O_ALLOW},
    {"deny-list", required_argument, NULL, O_DENY},
    {"sort-by", required_argument, NULL, O_SORT_BY},
    {"sort-direction", required_argument, NULL, O_ORDER},
    {"order", required_argument, NULL, O_ORDER},
    {"max-results", required_argument, NULL, O_MAX_RESULTS},
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
    {"fields", required_argument, NULL, O_FIELDS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};
static const cli_short shorts[] = {
    {'r', O_REGION}, {'c', O_CATALOG}, {'o', O_OUTPUT}, {0, 0}};
const cli_flagset cli_flags_list = {longopts, ":hr:c:o:", shorts};

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

/* Spot Advisor's interruption ranges, as `show` labels them */
static const char *band_label(int band)
{
    static const char *const labels[] = {"<5%", "5-10%", "10-15%", "15-20%",
                                         ">20%"};
    return band >= 0 && band < 5 ? labels[band] : "-";
}

/* spot_cols: SAVINGS and INTERRUPT columns (--sort savings|interruption) */
static void print_table(const ecf_filter_row *v, size_t n, size_t total,
                        const ecf_filter *f, bool all_regions, bool spot_cols)
{
    size_t i;
    int tw = 4, aw = 11, rw = 6;
    for (i = 0; i < n; i++) {
        char acc[96];
        ecf_render_accel_label(acc, sizeof(acc), v[i].in);
        char ty[256];
        ecf_textsafe(ty, sizeof(ty), v[i].in->type);
        if ((int)strlen(ty) > tw)
            tw = (int)strlen(ty);
        if ((int)strlen(acc) > aw)
            aw = (int)strlen(acc);
        if ((int)strlen(v[i].region) > rw)
            rw = (int)strlen(v[i].region);
    }
    printf("%-*s  ", tw, "TYPE");
    if (all_regions)
        printf("%-*s  ", rw, "REGION");
    printf("%-*s %9s %5s %9s %8s %4s %11s", aw, "ACCELERATOR", "ACC_GiB",
           "VCPU", "MEM_GiB", "NET_Gbps", "EFA", f->spot ? "SPOT_$/h" : "OD_$/h");
    if (spot_cols)
        printf(" %7s %9s", "SAVINGS", "INTERRUPT");
    putchar('\n');
    for (i = 0; i < n; i++) {
        const ecf_instance *in = v[i].in;
        const ecf_price *pr = ecf_instance_price(in, v[i].region);
        char acc[96], mem[16], price[16], net[16], ty[256];
        double p = !pr ? -1
                       : f->spot ? pr->spot_usd_per_hour
                                 : pr->ondemand_usd_per_hour;
        ecf_textsafe(ty, sizeof(ty), in->type);
        ecf_render_accel_label(acc, sizeof(acc), in);
        if (in->accel)
            snprintf(mem, sizeof(mem), "%.1f", in->accel_memory_gib);
        else
            snprintf(mem, sizeof(mem), "-");
        if (p >= 0)
            snprintf(price, sizeof(price), "%.4f", p);
        else
            snprintf(price, sizeof(price), "-");
        if (in->network_gbps > 0)
            snprintf(net, sizeof(net), "%g", in->network_gbps);
        else
            snprintf(net, sizeof(net), "-");
        printf("%-*s  ", tw, ty);
        if (all_regions)
            printf("%-*s  ", rw, v[i].region);
        printf("%-*s %9s %5d %9.1f %8s %4s %11s", aw, acc, mem, in->vcpu,
               in->memory_gib, net, in->efa ? "yes" : "no", price);
        if (spot_cols) {
            char sav[16] = "-";
            if (pr && pr->spot_usd_per_hour >= 0)
                snprintf(sav, sizeof(sav), "%d%%", pr->spot_savings_pct);
            printf(" %7s %9s", sav, band_label(pr ? pr->interruption_band : -1));
        }
        putchar('\n');
    }
    if (n < total)
        printf("%zu of %zu", n, total);
    else
        printf("%zu", n);
    printf(" %s%s, prices in %s%s\n", all_regions ? "row" : "instance type",
           total == 1 ? "" : "s", all_regions ? "all regions" : f->region,
           f->spot ? " (spot, estimated)" : " (on-demand, Linux)");
}

static void print_csv(const ecf_filter_row *v, size_t n, const ecf_filter *f)
{
    size_t i;
    printf("instance_type,family,accelerator,accelerator_count,"
           "accel_memory_gib,vcpu,memory_gib,arch,network_gbps,efa,region,"
           "ondemand_usd_per_hour,spot_usd_per_hour,interruption_band\n");
    (void)f;
    for (i = 0; i < n; i++) {
        const ecf_instance *in = v[i].in;
        const ecf_price *p = ecf_instance_price(in, v[i].region);
        char num[64];
        ecf_render_csv_field(stdout, in->type, 0);
        ecf_render_csv_field(stdout, in->family, 0);
        ecf_render_csv_field(stdout, in->accel ? in->accel->id : "", 0);
        printf("%d,", in->accel_count);
        if (in->accel)
            printf("%g,", in->accel_memory_gib);
        else
            printf(",");
        printf("%d,%g,%s,%g,%s,", in->vcpu, in->memory_gib,
               ecf_arch_name(in->arch), in->network_gbps,
               in->efa ? "true" : "false");
        ecf_render_csv_field(stdout, v[i].region, 0);
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

static int print_json(const ecf_filter_row *v, size_t n, const ecf_filter *f,
                      bool all_regions, const ecf_catalog *cat,
                      const char *label, const cli_fields *fields)
{
    cJSON *root = cJSON_CreateObject(), *arr;
    size_t i;
    cJSON_AddNumberToObject(root, "schema_version", 1);
    cJSON_AddItemToObject(root, "catalog", ecf_render_json_catalog_meta(cat, label, cli_now()));
    cJSON_AddStringToObject(root, "region", all_regions ? "all" : f->region);
    cJSON_AddStringToObject(root, "purchase", f->spot ? "spot" : "on-demand");
    cJSON_AddNumberToObject(root, "count", (double)n);
    arr = cJSON_AddArrayToObject(root, "instances");
    for (i = 0; i < n; i++) {
        cJSON *o = ecf_render_json_instance(v[i].in);
        const ecf_price *p = ecf_instance_price(v[i].in, v[i].region);
        if (all_regions)
            ecf_render_json_add_location(o, v[i].region);
        cJSON_AddItemToObject(o, "price",
                              p ? ecf_render_json_price(p) : cJSON_CreateNull());
        cJSON_AddItemToArray(arr, o);
    }
    return cli_fields_print(stdout, root, fields, "list");
}

/* The range flags and the one-sided bounds: --vcpus 8-32, --max-memory
 * 64GiB, --min-accel-memory 40gb ... `flag` is the spelling used. */
static int list_range(ecf_filter *f, int opt, const char *flag,
                      const char *arg, ecf_err *err)
{
    ecf_range r = {0, -1};
    double v = 0;
    int rc = 0;
    bool gib = !(opt == O_ACCELS || opt == O_VCPUS || opt == O_MAX_ACCELS ||
                 opt == O_MAX_VCPUS || opt == O_MIN_ACCELS ||
                 opt == O_MIN_VCPUS);
    switch (opt) {
    case O_ACCELS: case O_ACCEL_MEM: case O_TOTAL_MEM: case O_VCPUS:
    case O_MEM:
        rc = ecf_units_parse_range(&r, gib, flag, arg, err);
        break;
    default:
        if (gib) {
            rc = ecf_units_parse_gib(&v, flag, arg, err);
        } else {
            int iv = 0;
            bool accels = opt == O_MIN_ACCELS || opt == O_MAX_ACCELS;
            rc = ecf_parse_int(&iv, flag, arg, 0, accels ? 1024 : 100000,
                               err);
            v = iv;
        }
        break;
    }
    if (rc)
        return rc;
    switch (opt) {
    case O_ACCELS:
        f->min_accelerators = (int)r.lo;
        f->max_accelerators = (int)r.hi;
        break;
    case O_VCPUS:
        f->min_vcpus = (int)r.lo;
        f->max_vcpus = (int)r.hi;
        break;
    case O_ACCEL_MEM:
        f->min_accel_memory_gib = r.lo;
        f->max_accel_memory_gib = r.hi;
        break;
    case O_TOTAL_MEM:
        f->min_total_accel_memory_gib = r.lo;
        f->max_total_accel_memory_gib = r.hi;
        break;
    case O_MEM:
        f->min_memory_gib = r.lo;
        f->max_memory_gib = r.hi;
        break;
    case O_MIN_ACCELS: f->min_accelerators = (int)v; break;
    case O_MIN_VCPUS: f->min_vcpus = (int)v; break;
    case O_MIN_ACCEL_MEM: f->min_accel_memory_gib = v; break;
    case O_MIN_TOTAL_MEM: f->min_total_accel_memory_gib = v; break;
    case O_MIN_MEM: f->min_memory_gib = v; break;
    case O_MAX_ACCELS: f->max_accelerators = (int)v; break;
    case O_MAX_VCPUS: f->max_vcpus = (int)v; break;
    case O_MAX_ACCEL_MEM: f->max_accel_memory_gib = v; break;
    case O_MAX_TOTAL_MEM: f->max_total_accel_memory_gib = v; break;
    case O_MAX_MEM: f->max_memory_gib = v; break;
    default: break;
    }
    return 0;
}

/* instance-selector's --sort-by keys (its quantity flags and the JSON paths
 * of the same fields, README of aws/amazon-ec2-instance-selector v2.4) that
 * have an ec2fit --sort key of the same meaning; any --sort key also goes. */
static int sort_by_parse(const char *s)
{
    static const struct {
        const char *is, *ecf;
    } map[] = {{"instance-type", "name"},
               {".InstanceType", "name"},
               {"vcpus", "vcpus"},
               {".VCpuInfo.DefaultVCpus", "vcpus"},
               {"memory", "memory"},
               {".MemoryInfo.SizeInMiB", "memory"},
               {"gpus", "accelerators"},
               {"price-per-hour", "price"},
               {".OndemandPricePerHour", "price"}};
    size_t i;
    for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(s, map[i].is) == 0)
            return ecf_sort_parse(map[i].ecf);
    return ecf_sort_parse(s);
}

/* --allow-list / --deny-list: a POSIX extended regex, unanchored like Go's
 * regexp.MatchString that instance-selector uses. RE2-only syntax (Perl
 * classes \d \D, (?flags), lazy *?) means something else or nothing in
 * POSIX ERE, so it is refused rather than silently matched differently. */
static int list_regex(regex_t *re, bool *have, const char *flag,
                      const char *s, ecf_err *err)
{
    char why[128];
    int rc;
    if (strstr(s, "\\d") || strstr(s, "\\D") || strstr(s, "(?") ||
        strstr(s, "*?") || strstr(s, "+?"))
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: '%s': RE2-only syntax (\\d, (?...), lazy "
                           "quantifiers) is not supported; use POSIX "
                           "extended syntax such as [0-9]",
                           flag, s);
    if (*have)
        regfree(re);
    *have = false;
    rc = regcomp(re, s, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        regerror(rc, re, why, sizeof(why));
        regfree(re);
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: invalid regular expression '%s': %s", flag,
                           s, why);
    }
    *have = true;
    return 0;
}

/* Exit-2 message unless every family pattern matches some family. */
int cmd_list(int argc, char **argv)
{
    ecf_filter f = ECF_FILTER_INIT;
    ecf_err err = ECF_ERR_INIT;
    ecf_catalog *cat = NULL;
    cli_catalog_opts copts = {NULL};
    cli_output out = CLI_OUT_TABLE;
    ecf_filter_row *v = NULL;
    const char **families = NULL;
    char *family_arg = NULL;
    const char *label = NULL, *output_file = NULL;
    size_t n = 0, i, nfam = 0, shown;
    int sort = ECF_SORT_PRICE, c, status = 0, order = -1, max_results = 0;
    int idx = 0;
    bool all_regions = false, gpus = false, sort_by = false;
    bool have_allow = false, have_deny = false, fields_given = false;
    cli_fields fields;
    regex_t allow, deny;
    const char *gpus_flag = NULL;

    f.region = cli_default_region();
    cli_config_default_output(&out, CLI_OUT_BIT(CLI_OUT_TABLE) |
                                        CLI_OUT_BIT(CLI_OUT_JSON) |
                                        CLI_OUT_BIT(CLI_OUT_CSV));
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_flags_list.optstring, longopts,
                            &idx)) != -1) {
        int rc = 0;
        char flag[48];
        c = cli_short_id(&cli_flags_list, c, &idx);
        snprintf(flag, sizeof(flag), "--%s", longopts[idx].name);
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
        case O_MIN_ACCELS: case O_MIN_ACCEL_MEM: case O_MIN_TOTAL_MEM:
        case O_MIN_VCPUS: case O_MIN_MEM: case O_ACCELS: case O_ACCEL_MEM:
        case O_TOTAL_MEM: case O_VCPUS: case O_MEM: case O_MAX_ACCELS:
        case O_MAX_ACCEL_MEM: case O_MAX_TOTAL_MEM: case O_MAX_VCPUS:
        case O_MAX_MEM:
            rc = list_range(&f, c, flag, optarg, &err);
            break;
        case O_GPUS: case O_GPUS_MIN: case O_GPUS_MAX:
            /* instance-selector counts GPUs only: the accelerator count of
             * the GPU kind, from at least 1 (a range from 0 would also
             * take CPU-only and Neuron types there, and cannot be said
             * with --accelerator gpu) */
            rc = list_range(&f, c == O_GPUS ? O_ACCELS
                                : c == O_GPUS_MIN ? O_MIN_ACCELS
                                                  : O_MAX_ACCELS,
                            flag, optarg, &err);
            gpus = true;
            gpus_flag = longopts[idx].name;
            break;
        case O_ALLOW:
            rc = list_regex(&allow, &have_allow, flag, optarg, &err);
            break;
        case O_DENY:
            rc = list_regex(&deny, &have_deny, flag, optarg, &err);
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
                                 "%s: expected x86_64 or arm64, got '%s'",
                                 flag, optarg);
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
            rc = ecf_parse_double(&f.max_price_usd, "--max-price", optarg, 0,
                                  1e6, &err);
            break;
        case O_SPOT:
            f.spot = true;
            break;
        case O_SORT:
            sort = ecf_sort_parse(optarg);
            if (sort < 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--sort: expected %s, got '%s'",
                                 ecf_sort_names(), optarg);
            sort_by = false;
            break;
        case O_SORT_BY:
            sort = sort_by_parse(optarg);
            if (sort < 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--sort-by: expected instance-type, vcpus, "
                                 "memory, gpus, price-per-hour or %s, got "
                                 "'%s'",
                                 ecf_sort_names(), optarg);
            sort_by = true;
            break;
        case O_ORDER:
            /* instance-selector's --sort-direction also spells them out */
            if (strcmp(optarg, "asc") == 0 || strcmp(optarg, "desc") == 0 ||
                strcmp(optarg, "ascending") == 0 ||
                strcmp(optarg, "descending") == 0)
                order = optarg[0] == 'd';
            else
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "%s: expected asc or desc, got '%s'", flag,
                                 optarg);
            break;
        case O_MAX_RESULTS:
            rc = ecf_parse_int(&max_results, "--max-results", optarg, 1,
                               1000000, &err);
            break;
        case 'o':
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
        case O_FIELDS:
            rc = cli_fields_parse(&fields, optarg, &err);
            fields_given = true;
            break;
        default:
            status = cli_bad_option("list", c, argc, argv, longopts);
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
    if (gpus && f.min_accelerators < 1) {
        status = cli_usage_error(
            "list",
            "--%s: a GPU count range from 0 is not supported (it would "
            "take CPU-only and Neuron types too): use --accelerators RANGE "
            "(0 = CPU only), or add --gpus-min 1",
            gpus_flag);
        goto out;
    }
    if (gpus && !f.accelerator)
        f.accelerator = "gpu";
    /* instance-selector sorts ascending unless told otherwise */
    if (sort_by && order < 0)
        order = 0;
    if (cli_output_not_input(output_file, copts.path, "--catalog", &err) != 0) {
        status = cli_usage_error("list", "%s", err.msg);
        goto out;
    }
    if (fields_given && out != CLI_OUT_JSON) {
        status = cli_usage_error("list", "--fields: selects from --output "
                                         "json only");
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
    all_regions = strcmp(f.region, "all") == 0;
    if (!all_regions && ecf_region_check(cat, f.region,
                                         cli_region_origin(f.region), &err) != 0) {
        status = cli_usage_error("list", "%s", err.msg);
        goto out;
    }
    if (cli_check_families(cat, f.families, true, "--family", &err) != 0) {
        status = cli_usage_error("list", "%s", err.msg);
        goto out;
    }
    if (f.accelerator && !ecf_accel_name_known(cat, f.accelerator)) {
        const char *names[ECF_CATALOG_MAX_ACCELERATORS];
        const char *sugg[1];
        size_t na = ecf_catalog_accel_count(cat);
        for (i = 0; i < na; i++)
            names[i] = ecf_catalog_accel_at(cat, i)->id;
        if (ecf_parse_suggest(sugg, 1, f.accelerator, names, na))
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

    {
        size_t cap = 0;
        for (i = 0; i < ecf_catalog_count(cat); i++)
            cap += all_regions ? ecf_catalog_at(cat, i)->n_prices : 1;
        v = ecf_xcalloc(cap ? cap : 1, sizeof(*v));
    }
    for (i = 0; i < ecf_catalog_count(cat); i++) {
        const ecf_instance *in = ecf_catalog_at(cat, i);
        size_t k;
        if ((have_allow && regexec(&allow, in->type, 0, NULL, 0) != 0) ||
            (have_deny && regexec(&deny, in->type, 0, NULL, 0) == 0))
            continue;
        if (!all_regions) {
            if (ecf_filter_match(&f, in)) {
                v[n].in = in;
                v[n++].region = f.region;
            }
            continue;
        }
        /* one row per region the type has a price in */
        for (k = 0; k < in->n_prices; k++) {
            ecf_filter fr = f;
            fr.region = in->prices[k].region;
            if (ecf_filter_match(&fr, in)) {
                v[n].in = in;
                v[n++].region = fr.region;
            }
        }
    }
    ecf_filter_sort_rows(v, n, (ecf_sort)sort,
                         order < 0 ? ecf_sort_default_desc((ecf_sort)sort)
                                   : order == 1,
                         &f);
    shown = max_results > 0 && (size_t)max_results < n ? (size_t)max_results
                                                        : n;
    switch (out) {
    case CLI_OUT_JSON:
        status = print_json(v, shown, &f, all_regions, cat, label,
                            fields_given ? &fields : NULL);
        break;
    case CLI_OUT_CSV:
        print_csv(v, shown, &f);
        break;
    default:
        print_table(v, shown, n, &f, all_regions,
                    sort == ECF_SORT_INTERRUPTION || sort == ECF_SORT_SAVINGS);
        break;
    }
out:
    if (have_allow)
        regfree(&allow);
    if (have_deny)
        regfree(&deny);
    free(v);
    free(families);
    free(family_arg);
    ecf_catalog_free(cat);
    return status;
}
