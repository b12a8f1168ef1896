/*
 * cmd_recommend.c - `ec2fit recommend`: parse the workload and constraints,
 * run the scorer over the catalog, and render the ranked plans. No
 * business logic here: the core decides, this file only asks and prints.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "render_common.h"
#include "workload_flags.h"
#include "cmd.h"
#include "ec2fit/images.h"
#include "ec2fit/recommend.h"
#include "ec2fit/rules.h"
#include "ec2fit/storage_prices.h"
#include "ec2fit/units.h"
#include "cli_config.h"
#include "cli_fields.h"
#include "cmd_recommend.h"
#include "recommend_opts.h"
#include "cmd_recommend_batch.h"
#include "recommend_render.h"

static void usage(FILE *f)
{
    fputs("usage: ec2fit recommend (-m NAME | --params N | --model-config "
          "FILE) -t TASK [flags]\n\n"
          "Rank EC2 instance types (and node counts) for an ML workload: memory\n"
          "fit, time, $/h and total or monthly cost, with the reasons behind\n"
          "every rejection.\n\n",
          f);
    cli_workload_usage(f);
    fputs("Constraints:\n"
          "  --deadline DUR          finish within DUR (24h, 90m, 2d); needs --dataset\n"
          "  --budget USD            total cost at most USD ($500, 1.5k); serving: monthly\n"
          "  --budget-hourly USD     all nodes together at most USD per hour\n"
          "  --peak-qps N            serving: peak load for the Auto Scaling maximum\n"
          "  --max-nodes N           at most N nodes (default 16 for jobs, 64 for serving)\n"
          "  --spot | --no-spot      consider spot (default: for train/batch jobs only)\n"
          "  --checkpoint-every DUR  checkpoint interval for spot rework (default 30m)\n"
          "  -r, --region R          default AWS_REGION, AWS_DEFAULT_REGION, config,\n"
          "                          us-east-1\n"
          "  --regions all|LIST      compare several regions (comma-separated)\n"
          "  --estimate-missing-prices\n"
          "                          price types with no price in the region\n"
          "                          from its median ratio to us-east-1 (marked)\n"
          "  --families LIST         only these families (globs: p5,g6*)\n"
          "  --exclude-families LIST skip these families\n"
          "Ranking and output:\n"
          "  --optimize cost|time|balanced\n"
          "                          what rank 1 is best at (default cost)\n"
          "  --top N                 show N plans (default 5)\n"
          "  --explain               list rejected candidates grouped by rule, and\n"
          "                          rank 1's training plans tried or serving terms\n"
          "  -o, --output FORMAT     table|json|csv|markdown|tfvars|karpenter|html|\n"
          "                          ecs|cloudwatch (ecs, cloudwatch: --task infer)\n"
          "                          (default table, or the config file's);\n"
          "                          Terraform's external data source is the\n"
          "                          command 'ec2fit tf-external < query.json'\n"
          "  --fields LIST           --output json: keep only these fields "
          "(a.b.c, comma-\n"
          "                          separated; arrays are crossed: "
          "plans.instance_type)\n"
          "  --rules FILE            replace the embedded rules (data/rules.json)\n"
          "  -c, --catalog FILE|embedded\n"
          "                          catalog to read\n"
          "  --output-file FILE      write the output to FILE atomically\n"
          "  --node-class NAME       karpenter: every NodePool's nodeClassRef\n"
          "                          (default: one EC2NodeClass per pool, named\n"
          "                          like it)\n"
          "  --node-class-spec[=al2023|bottlerocket]\n"
          "                          karpenter: also print those EC2NodeClasses\n"
          "  -h, --help              this help\n",
          f);
    cli_fleet_usage(f);
    cli_recommend_batch_usage(f);
    fputs("Examples:\n"
          "  ec2fit recommend -m resnet50 -t train --dataset 1.28M --epochs 90\n"
          "  ec2fit recommend -m llama-3.1-8b -t infer --qps 20 --tpot-ms 50 "
          "-o json\n"
          "  ec2fit recommend -m llama-3.1-70b -t lora --deadline 24h "
          "--dataset 100M --spot\n"
          "  ec2fit recommend --params 7B -t infer --qps 5 --regions "
          "us-east-1,eu-west-1\n"
          "\nExit status: 0 a plan exists, 3 nothing satisfies the constraints (the\n"
          "closest misses are printed), 2 usage error, 1 runtime error.\n",
          f);
}

/* Splits a comma list into a NULL-terminated vector of pointers into a
 * copy the caller frees (*store). */
static const char **split(const char *s, char **store, size_t *n_out)
{
    size_t n = 1, i = 0;
    char *p, *save = NULL;
    const char **v;
    *store = ecf_xstrdup(s);
    for (p = *store; *p; p++)
        if (*p == ',')
            n++;
    v = ecf_xcalloc(n + 1, sizeof(*v));
    for (p = strtok_r(*store, ",", &save); p; p = strtok_r(NULL, ",", &save))
        if (*p)
            v[i++] = p;
    *n_out = i;
    return v;
}

/* RFC 1123 subdomain, as Kubernetes checks metadata.name */
static bool valid_k8s_name(const char *s)
{
    size_t n = strlen(s), i;
    if (n == 0 || n > 253 || !isalnum((unsigned char)s[0]) ||
        !isalnum((unsigned char)s[n - 1]))
        return false;
    for (i = 0; i < n; i++)
        if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) ||
              s[i] == '-' || s[i] == '.'))
            return false;
    return true;
}

/* A pinned layout (--tensor-parallel, --pipeline-parallel) that a shown
 * plan could not use, so the search chose its own: the estimator's warning
 * reached only the JSON output's per-plan warnings. It goes to stderr in
 * every format (issue 28), once per shown plan, naming the type. */
static void warn_pinned_layout(const ecf_result *v)
{
    static const char pin[] = "pinned layout";
    size_t i, shown;
    int k;
    if (v->w->tensor_parallel <= 0 && v->w->pipeline_parallel <= 0)
        return;
    shown = v->top > 0 && (size_t)v->top < v->rec->n_plans
                ? (size_t)v->top
                : v->rec->n_plans;
    for (i = 0; i < shown; i++) {
        const ecf_plan *p = &v->rec->plans[i];
        ecf_estimate e;
        if (ecf_estimate_run_warnings(&e, v->model, v->w, p->inst,
                                      p->nodes_per_group, NULL) < 0)
            continue;
        for (k = 0; k < e.n_warnings; k++)
            if (strncmp(e.warnings[k], pin, sizeof(pin) - 1) == 0)
                cli_warn("%s: %s", p->inst->type, e.warnings[k]);
    }
}

/* ecf_asg_size caps a group count at 1,000,000 (an int, and far beyond
 * any Auto Scaling group's real quota): a max at the cap is the cap, not
 * the load's need, and says so on stderr in every format (issue 28). */
#define ASG_CAP 1000000
static void warn_asg_cap(const ecf_plan *p, const char *what)
{
    if (p->asg_max <= 0 || p->asg_max + p->nodes_per_group <= ASG_CAP)
        return;
    cli_warn("%s%s: max_instances %d is ec2fit's cap, not what the peak "
             "load needs (more instances than that); lower --peak-qps or "
             "--qps, or choose a larger instance type",
             what, p->inst->type, p->asg_max);
}

int cmd_recommend(int argc, char **argv)
{
    return cli_recommend_main(argc, argv, NULL);
}

int cli_recommend_main(int argc, char **argv, rr_printer printer)
{
    /* Messages name the command that called (tf-external reuses this). */
    const char *me = argc > 0 ? argv[0] : "recommend";
    const unsigned outputs =
        CLI_OUT_BIT(CLI_OUT_TABLE) | CLI_OUT_BIT(CLI_OUT_JSON) |
        CLI_OUT_BIT(CLI_OUT_CSV) | CLI_OUT_BIT(CLI_OUT_MARKDOWN) |
        CLI_OUT_BIT(CLI_OUT_TFVARS) | CLI_OUT_BIT(CLI_OUT_KARPENTER) |
        CLI_OUT_BIT(CLI_OUT_HTML) | CLI_OUT_BIT(CLI_OUT_ECS) |
        CLI_OUT_BIT(CLI_OUT_CLOUDWATCH);
    cli_workload wl = CLI_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    cli_catalog_opts copts = {NULL};
    bool batch = false;
    rr_view view;
    ecf_err err = ECF_ERR_INIT;
    ecf_catalog *cat = NULL;
    ecf_recommendation *rec = NULL;
    ecf_rules rules;
    ecf_stacks *stacks = NULL;
    ecf_storage_prices *storage = NULL;
    ecf_images images;
    ecf_model model;
    cli_output out = CLI_OUT_TABLE;
    const char *region = NULL, *regions_arg = NULL, *rules_path = NULL;
    const char *batch_path = NULL;
    const char *label = NULL, *output_file = NULL;
    const char *node_class = NULL, *node_class_spec = NULL;
    const char **fam = NULL, **exfam = NULL, **regv = NULL;
    char *fam_store = NULL, *exfam_store = NULL, *reg_store = NULL;
    size_t nfam = 0, nex = 0, nreg = 0, i;
    int c, status = 0, top = 5;
    bool explain = false, want_images = false, out_given = false;
    cli_fields fields;
    bool fields_given = false, ckpt_given = false;

    memset(&view, 0, sizeof(view));
    /* User defaults (docs/config.md): any flag below overrides them. */
    cli_config_default_output(&out, outputs);
    if (cli_config_get()->spot >= 0)
        o.spot = cli_config_get()->spot ? ECF_SPOT_YES : ECF_SPOT_NO;
    if (cli_config_get()->rules[0])
        rules_path = cli_config_get()->rules;
    optind = 0;
    opterr = 0;
    wl.default_framework = cli_config_get()->framework;
    while ((c = getopt_long(argc, argv, cli_flags_recommend.optstring,
                            cli_recommend_longopts(), NULL)) != -1) {
        c = cli_short_id(&cli_flags_recommend, c, NULL);
        int rc = ecf_workload_option(&wl, c, optarg, &err);
        if (rc < 0) {
            status = cli_usage_error(me, "%s", err.msg);
            goto out;
        }
        if (rc > 0)
            continue;
        rc = cli_fleet_option(&o, c, optarg, &err);
        if (rc < 0) {
            status = cli_usage_error(me, "%s", err.msg);
            goto out;
        }
        if (rc > 0)
            continue;
        rc = 0;
        switch (c) {
        case 'h':
            usage(stdout);
            goto out;
        case O_DEADLINE:
            rc = ecf_units_parse_duration(&o.deadline_hours, "--deadline",
                                          optarg, &err);
            if (!rc && o.deadline_hours <= 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--deadline: must be positive, got '%s'",
                                 optarg);
            break;
        case O_BUDGET:
            rc = ecf_units_parse_usd(&o.budget_usd, "--budget", optarg, &err);
            if (!rc && o.budget_usd <= 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--budget: must be positive, got '%s'",
                                 optarg);
            break;
        case O_BUDGET_HOURLY:
            rc = ecf_units_parse_usd(&o.budget_hourly_usd, "--budget-hourly",
                                     optarg, &err);
            if (!rc && o.budget_hourly_usd <= 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--budget-hourly: must be positive, got '%s'",
                                 optarg);
            break;
        case O_PEAK_QPS:
            rc = ecf_parse_double(&o.peak_qps, "--peak-qps", optarg, 0, 1e9,
                                  &err);
            break;
        case O_MAX_NODES:
            rc = ecf_parse_int(&o.max_nodes, "--max-nodes", optarg, 1, 4096,
                               &err);
            break;
        case O_SPOT:
            o.spot = ECF_SPOT_YES;
            break;
        case O_NO_SPOT:
            o.spot = ECF_SPOT_NO;
            break;
        case O_CHECKPOINT:
            ckpt_given = true;
            rc = ecf_units_parse_duration(&o.checkpoint_hours,
                                          "--checkpoint-every", optarg, &err);
            if (!rc && o.checkpoint_hours <= 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--checkpoint-every: must be positive, got "
                                 "'%s'",
                                 optarg);
            break;
        case O_REGION:
            region = optarg;
            break;
        case O_REGIONS:
            regions_arg = optarg;
            break;
        case O_FAMILIES:
            free(fam);
            free(fam_store);
            fam = split(optarg, &fam_store, &nfam);
            if (nfam == 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--families: expected a comma-separated "
                                 "list, got '%s'",
                                 optarg);
            break;
        case O_EXCLUDE:
            free(exfam);
            free(exfam_store);
            exfam = split(optarg, &exfam_store, &nex);
            if (nex == 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--exclude-families: expected a "
                                 "comma-separated list, got '%s'",
                                 optarg);
            break;
        case O_OPTIMIZE: {
            int v = ecf_optimize_parse(optarg);
            if (v < 0)
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--optimize: expected cost|time|balanced, "
                                 "got '%s'",
                                 optarg);
            else
                o.optimize = (ecf_optimize)v;
            break;
        }
        case O_TOP:
            rc = ecf_parse_int(&top, "--top", optarg, 1, 10000, &err);
            break;
        case O_EXPLAIN:
            explain = true;
            break;
        case O_ESTIMATE_MISSING:
            o.estimate_missing_prices = true;
            break;
        case 'o':
        case O_OUTPUT:
            rc = cli_parse_output(&out, optarg, outputs, &err);
            out_given = true;
            break;
        case O_RULES:
            rules_path = optarg;
            break;
        case O_CATALOG:
            copts.path = optarg;
            break;
        case O_BATCH:
            batch = true;
            batch_path = optarg;
            break;
        case O_FIELDS:
            rc = cli_fields_parse(&fields, optarg, &err);
            fields_given = true;
            break;
        case O_OUTPUT_FILE:
            output_file = optarg;
            break;
        case O_NODE_CLASS:
            /* a Kubernetes object name (RFC 1123 subdomain) */
            if (!valid_k8s_name(optarg))
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--node-class: expected a Kubernetes name "
                                 "(lowercase letters, digits, '-' and '.', "
                                 "at most 253), got '%s'",
                                 optarg);
            node_class = optarg;
            break;
        case O_NODE_CLASS_SPEC:
            if (!optarg || strcmp(optarg, "al2023") == 0)
                node_class_spec = "al2023";
            else if (strcmp(optarg, "bottlerocket") == 0)
                node_class_spec = "bottlerocket";
            else
                rc = ecf_err_set(&err, ECF_EINVAL,
                                 "--node-class-spec: expected al2023 or "
                                 "bottlerocket, got '%s'",
                                 optarg);
            break;
        default:
            status =
                cli_bad_option(me, c, argc, argv, cli_recommend_longopts());
            goto out;
        }
        if (rc) {
            status = cli_usage_error(me, "%s", err.msg);
            goto out;
        }
    }
    if (optind < argc) {
        /* "--params --top 1": --params took "--top" as its value, and
         * getopt moved the stray "1" to the end */
        int k, taken = 0;
        for (k = 1; k + 1 < optind && !taken; k++) {
            const struct option *lo = cli_recommend_longopts();
            if (strncmp(argv[k], "--", 2) != 0 || strchr(argv[k], '=') ||
                argv[k + 1][0] != '-' || !argv[k + 1][1])
                continue;
            for (; lo->name; lo++)
                if (lo->has_arg == required_argument &&
                    strcmp(lo->name, argv[k] + 2) == 0)
                    taken = k;
        }
        if (taken)
            status = cli_usage_error(
                me, "unexpected argument '%s': %s took '%s' as its value "
                    "(give %s a value)",
                argv[optind], argv[taken], argv[taken + 1], argv[taken]);
        else
            status = cli_usage_error(me, "unexpected argument '%s'",
                                     argv[optind]);
        goto out;
    }
    if (cli_output_not_input(output_file, copts.path, "--catalog", &err) != 0) {
        status = cli_usage_error(me, "%s", err.msg);
        goto out;
    }
    if (cli_output_not_input(output_file, rules_path, "--rules", &err) != 0) {
        status = cli_usage_error(me, "%s", err.msg);
        goto out;
    }
    if (cli_output_not_input(output_file, wl.model_config, "--model-config", &err) != 0) {
        status = cli_usage_error(me, "%s", err.msg);
        goto out;
    }
    if (cli_output_not_input(output_file, batch_path, "--batch", &err) != 0) {
        status = cli_usage_error(me, "%s", err.msg);
        goto out;
    }
    if (output_file && cli_output_begin(output_file, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }
    if (batch) {
        status = cli_recommend_batch(argc, argv);
        goto out;
    }
    if (region && regions_arg) {
        status = cli_usage_error(me,
                                 "--region and --regions are exclusive");
        goto out;
    }
    /* serving runs 24/7 at a request rate: a job's length, end and
     * checkpoints mean nothing to it, and were dropped silently (checked
     * before ecf_workload_finish, which resolves epochs 0 to 1) */
    if (wl.task_set && wl.w.task == ECF_TASK_INFER &&
        (o.deadline_hours > 0 || wl.w.dataset_amount > 0 ||
         wl.w.epochs > 0 || ckpt_given)) {
        status = cli_usage_error(
            me, "%s: --task infer serves --qps around the clock; an "
                "offline pass over a dataset is --task batch",
            o.deadline_hours > 0       ? "--deadline"
            : wl.w.dataset_amount > 0 ? "--dataset"
            : wl.w.epochs > 0         ? "--epochs"
                                      : "--checkpoint-every");
        goto out;
    }
    if (ecf_workload_finish(&wl, &model, true, &err) != 0) {
        status = err.code == ECF_EIO ? cli_fail(&err)
                                     : cli_usage_error(me, "%s",
                                                       err.msg);
        goto out;
    }
    if (wl.w.task != ECF_TASK_INFER && wl.w.dataset_samples <= 0) {
        if (o.deadline_hours > 0) {
            status = cli_usage_error(
                me, "--deadline: needs --dataset (a job's length is "
                             "unknown without it)");
            goto out;
        }
        if (o.budget_usd > 0) {
            status = cli_usage_error(
                me, "--budget: needs --dataset (a job's total cost "
                             "is unknown without it; see --budget-hourly)");
            goto out;
        }
    }
    if (wl.w.task != ECF_TASK_INFER &&
        (o.target_utilization > 0 || o.async || o.fallback_cpu)) {
        status = cli_usage_error(
            me, "%s: only for --task infer",
            o.async ? "--async"
                    : o.fallback_cpu ? "--fallback" : "--target-utilization");
        goto out;
    }
    if (o.start_time_s > 0 && wl.w.task != ECF_TASK_INFER) {
        status = cli_usage_error(me, "--start-time: sizes the warm pool of "
                                     "--task infer; --task %s has none",
                                 ecf_task_name(wl.w.task));
        goto out;
    }
    if (o.peak_qps > 0 && wl.w.task != ECF_TASK_INFER) {
        status = cli_usage_error(me,
                                 "--peak-qps: only for --task infer");
        goto out;
    }
    /* config.json's "output": "ecs" (or "cloudwatch") is a serving
     * default: a training run keeps the table (docs/config.md) */
    if ((out == CLI_OUT_ECS || out == CLI_OUT_CLOUDWATCH) && !printer &&
        wl.w.task != ECF_TASK_INFER && !out_given)
        out = CLI_OUT_TABLE;
    if (fields_given && (printer || out != CLI_OUT_JSON)) {
        status = cli_usage_error(me, "--fields: selects from --output json "
                                     "only");
        goto out;
    }
    if (o.peak_qps > 0 && o.peak_qps < wl.w.qps) {
        /* was raised to --qps silently */
        status = cli_usage_error(me, "--peak-qps: %g is below --qps %g",
                                 o.peak_qps, wl.w.qps);
        goto out;
    }
    if ((out == CLI_OUT_ECS || out == CLI_OUT_CLOUDWATCH) && !printer &&
        wl.w.task != ECF_TASK_INFER) {
        status = cli_usage_error(
            me, "--output %s: only for --task infer (it deploys and watches "
                "a serving fleet)",
            out == CLI_OUT_ECS ? "ecs" : "cloudwatch");
        goto out;
    }

    if (rules_path) {
        if (ecf_rules_load_file(&rules, rules_path, &err) != 0) {
            /* name the flag or config key too (issue 28) */
            ecf_err named = ECF_ERR_INIT;
            ecf_err_set(&named, err.code, "%s: %s",
                        cli_rules_origin(rules_path), err.msg);
            status = cli_fail(&named);
            goto out;
        }
    } else if (ecf_rules_embedded(&rules, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }
    if (ecf_stacks_embedded(&stacks, &err) != 0 ||
        ecf_storage_prices_embedded(&storage, &err) != 0 ||
        cli_open_catalog(&cat, &copts, &label, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }
    o.stacks = stacks;
    o.storage_prices = storage;
    /* Only the machine outputs name images: the table skips the parse. */
    want_images = printer || out == CLI_OUT_JSON || out == CLI_OUT_TFVARS ||
                  out == CLI_OUT_KARPENTER ||
                  out == CLI_OUT_ECS || out == CLI_OUT_CLOUDWATCH;
    if (want_images && ecf_images_embedded(&images, &err) != 0) {
        status = cli_fail(&err);
        goto out;
    }

    /* regions */
    if (regions_arg && strcmp(regions_arg, "all") == 0) {
        for (i = 0; i < ecf_catalog_region_count(cat) &&
                    o.n_regions < ECF_RECOMMEND_MAX_REGIONS;
             i++)
            o.regions[o.n_regions++] = ecf_catalog_region_at(cat, i);
    } else if (regions_arg) {
        regv = split(regions_arg, &reg_store, &nreg);
        if (nreg == 0 || nreg > ECF_RECOMMEND_MAX_REGIONS) {
            status = cli_usage_error(me,
                                     "--regions: expected all or a list of "
                                     "1 to %d regions, got '%s'",
                                     ECF_RECOMMEND_MAX_REGIONS, regions_arg);
            goto out;
        }
        for (i = 0; i < nreg; i++) {
            if (ecf_region_check(cat, regv[i], "--regions", &err) != 0) {
                status = cli_usage_error(me, "%s", err.msg);
                goto out;
            }
            o.regions[o.n_regions++] = regv[i];
        }
    } else {
        if (!region &&
            cli_default_region_strict(&region, &err) != 0) {
            ecf_err_prefix(&err, "%s", me);
            status = cli_fail(&err);
            goto out;
        }
        if (ecf_region_check(cat, region, cli_region_origin(region),
                             &err) != 0) {
            status = cli_usage_error(me, "%s", err.msg);
            goto out;
        }
        o.regions[o.n_regions++] = region;
    }
    if (cli_check_families(cat, fam, true, "--families", &err) != 0) {
        status = cli_usage_error(me, "%s", err.msg);
        goto out;
    }
    o.families = fam;
    o.exclude_families = exfam;

    if (ecf_recommend_run(&rec, cat, &model, &wl.w, &rules, &o, &err) != 0) {
        status = err.code == ECF_EINVAL
                     ? cli_usage_error(me, "%s", err.msg)
                     : cli_fail(&err);
        goto out;
    }

    view.cat = cat;
    view.catalog_label = label;
    view.now = cli_now();
    view.model = &model;
    view.w = &wl.w;
    view.opts = &o;
    view.rules = &rules;
    view.rec = rec;
    view.top = top;
    view.explain = explain;
    view.images = want_images ? &images : NULL;
    view.node_class = node_class;
    view.node_class_spec = node_class_spec;
    view.ranges = ecf_ranges_embedded();
    if (explain)
        ecf_recommend_sort_rejected(rec);
    view.color = out == CLI_OUT_TABLE && cli_use_color(stdout);
    ecf_rr_light_alternatives(&view);
    if (printer) {
        if (rec->n_plans > 0)
            printer(stdout, &view);
    } else {
        switch (out) {
        case CLI_OUT_JSON:
            if (fields_given) {
                status = cli_fields_print(stdout, ecf_rr_json(&view), &fields,
                                          me);
            } else {
                ecf_rr_print_json(stdout, &view);
            }
            break;
        case CLI_OUT_CSV:
            ecf_rr_print_csv(stdout, &view);
            break;
        case CLI_OUT_MARKDOWN:
            ecf_rr_print_markdown(stdout, &view);
            break;
        case CLI_OUT_TFVARS:
            if (rec->n_plans > 0)
                ecf_rr_print_tfvars(stdout, &view);
            break;
        case CLI_OUT_KARPENTER:
            if (rec->n_plans > 0)
                ecf_rr_print_karpenter(stdout, &view);
            break;
        case CLI_OUT_HTML:
            ecf_rr_print_html(stdout, &view);
            break;
        case CLI_OUT_ECS:
            if (rec->n_plans > 0) {
                int rc = ecf_rr_print_ecs(stdout, stderr, &view);
                if (rc != 0)
                    status = rc;
            }
            break;
        case CLI_OUT_CLOUDWATCH:
            if (rec->n_plans > 0)
                ecf_rr_print_cloudwatch(stdout, &view);
            break;
        default:
            ecf_rr_print_table(stdout, &view);
            break;
        }
    }
    if (fields_given && status != 0)
        goto out; /* --fields named an unknown field: nothing printed */
    warn_pinned_layout(&view);
    if (rec->n_plans > 0) {
        warn_asg_cap(&rec->plans[0], "");
        if (rec->fallback_index >= 0)
            warn_asg_cap(&rec->plans[rec->fallback_index],
                         "--fallback cpu: ");
    }
    if (rec->n_plans == 0) {
        if (out != CLI_OUT_TABLE || printer)
            ecf_rr_print_no_plan_stderr(stderr, &view, me);
        status = 3;
    }
out:
    ecf_recommendation_free(rec);
    ecf_stacks_free(stacks);
    ecf_storage_prices_free(storage);
    ecf_catalog_free(cat);
    free(fam);
    free(fam_store);
    free(exfam);
    free(exfam_store);
    free(regv);
    free(reg_store);
    return status;
}
