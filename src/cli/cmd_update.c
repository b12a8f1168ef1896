/*
 * cmd_update.c - `ec2fit update`: refresh on-demand and 1-year reserved
 * prices (Pricing API), Savings Plan rates (Savings Plans API; both signed
 * with SigV4, cmd_update_fetch.c) and spot savings (Spot Advisor feed,
 * public) into the catalog cache. docs/update.md is the user-facing
 * description.
 *
 * The command only wires modules together: awscreds resolves credentials,
 * http fetches, sigv4 signs, pricing parses and merges, the catalog loader
 * validates the result, and cache writes it atomically under a lock. Any
 * failure returns before ecf_cache_write, so the previous cache is left
 * byte for byte.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_update.h"
#include "ec2fit/awscreds.h"
#include "ec2fit/buf.h"
#include "ec2fit/cache.h"
#include "ec2fit/credchain.h"
#include "ec2fit/http.h"
#include "ec2fit/pricing.h"
#include "ec2fit/sigv4.h"
#include "ec2fit/textsafe.h"

#define CMD "update"
#define MAX_REGION_LEN 64

typedef struct {
    const char *catalog;
    const char *regions;
    const char *endpoint_url;
    const char *spot_url;
    double timeout_s;
    int retries;
    bool force, quiet, verbose, dry_run;
} update_opts;

/* ---- terminal output: progress line and trace ---------------------------- */

static void ui_clear(ui_state *ui)
{
    if (ui->drawn) {
        fputs("\r\033[K", stderr);
        ui->drawn = false;
    }
}

static void ui_draw(ui_state *ui, size_t received, size_t total)
{
    if (!ui->progress)
        return;
    if (total)
        fprintf(stderr, "\r\033[Kec2fit: update: %s: %zu/%zu KiB", ui->label,
                received / 1024, total / 1024);
    else
        fprintf(stderr, "\r\033[Kec2fit: update: %s: %zu KiB", ui->label,
                received / 1024);
    fflush(stderr);
    ui->drawn = true;
}

static void ui_begin(ui_state *ui, const char *fmt, ...) ECF_PRINTF(2, 3);

static void ui_begin(ui_state *ui, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->label, sizeof(ui->label), fmt, ap);
    va_end(ap);
    ui->last_kib = 0;
    ui_draw(ui, 0, 0);
}

void cli_update_ui_begin(ui_state *ui, const char *label)
{
    ui_begin(ui, "%s", label);
}

static void on_progress(void *ctx, size_t received, size_t total)
{
    ui_state *ui = ctx;
    if (received / 1024 == ui->last_kib)
        return;
    ui->last_kib = received / 1024;
    ui_draw(ui, received, total);
}

static void on_trace(void *ctx, const char *line)
{
    ui_state *ui = ctx;
    char *safe = ecf_textsafe_dup(line);
    ui_clear(ui);
    fprintf(stderr, "ec2fit: update: %s\n", safe);
    free(safe);
}

/* ---- helpers ------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
        "usage: ec2fit update [--regions LIST] [--force] [--dry-run]\n"
        "                     [--endpoint-url URL] [--spot-advisor-url URL]\n"
        "                     [--timeout SECONDS] [--retries N]\n"
        "                     [--catalog FILE|embedded] [--quiet] [--verbose]\n"
        "\n"
        "Refresh prices into the cache ($XDG_CACHE_HOME/ec2fit/catalog.json,\n"
        "else ~/.cache/ec2fit/). Spot savings and interruption bands come\n"
        "from the public Spot Advisor feed; on-demand and 1-year reserved\n"
        "prices from the AWS Pricing API (GetProducts), and 1- and 3-year\n"
        "No Upfront Savings Plan rates from the Savings Plans API\n"
        "(DescribeSavingsPlansOfferingRates). Both need AWS credentials and\n"
        "are skipped, with a warning, without them; an IAM policy without\n"
        "savingsplans:DescribeSavingsPlansOfferingRates keeps the catalog's\n"
        "Savings Plan rates, with a warning. A reserved, Savings Plan\n"
        "or spot rate not below on-demand, or a 3-year Savings Plan rate\n"
        "above the 1-year one, is dropped with a warning. Other commands use\n"
        "the cache when it is valid and newer than the built-in catalog.\n"
        "\n"
        "  --regions LIST        comma-separated regions to refresh\n"
        "                        (default: every region of the catalog)\n"
        "  --force               accept price moves over 5x, new prices\n"
        "                        outside 0.2x-5x of their family, spot\n"
        "                        moves over 30 points, and a refresh\n"
        "                        that covers fewer (type, region) pairs\n"
        "  --dry-run             print the refreshed catalog on stdout\n"
        "                        instead of writing the cache\n"
        "  --endpoint-url URL    Pricing API endpoint (also\n"
        "                        AWS_ENDPOINT_URL_PRICING, AWS_ENDPOINT_URL)\n"
        "  --spot-advisor-url URL  Spot Advisor feed location\n"
        "  --timeout SECONDS     per-request time limit (default 60)\n"
        "  --retries N           retries after 429, 5xx, timeouts (default 3)\n"
        "  -c, --catalog FILE|embedded\n"
        "                        catalog to update (default: the one\n"
        "                        other commands would use)\n"
        "  -q, --quiet           no progress line or summary\n"
        "  -v, --verbose         trace requests (secrets redacted)\n"
        "  -h, --help            show this help\n"
        "\n"
        "Credentials: the AWS SDKs' default chain, first match wins:\n"
        "  1. AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN\n"
        "  2. AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN (STS\n"
        "     AssumeRoleWithWebIdentity; AWS_ROLE_SESSION_NAME)\n"
        "  3. the profile (AWS_PROFILE, else default) in ~/.aws/config and\n"
        "     ~/.aws/credentials: role_arn + source_profile (STS AssumeRole),\n"
        "     sso_session (after aws sso login), static keys,\n"
        "     credential_process\n"
        "  4. AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or _FULL_URI (ECS, EKS)\n"
        "  5. the instance role via IMDSv2 (AWS_EC2_METADATA_DISABLED=true skips it)\n"
        "Endpoints for tests: AWS_ENDPOINT_URL_SAVINGSPLANS,\n"
        "AWS_ENDPOINT_URL_STS, AWS_ENDPOINT_URL_SSO,\n"
        "AWS_EC2_METADATA_SERVICE_ENDPOINT. See docs/update.md.\n"
        "AWS_CA_BUNDLE names a CA file. Exit status: 0 ok, 1 network, parse\n"
        "or validation failure (the previous cache is kept), 2 usage.\n");
}

/* Prints the error; runtime failures exit 1 whatever their code (a
 * missing HOME is not a usage error here), bad input exits 2. */
static int fail(const ecf_err *err)
{
    cli_fail(err);
    return err->code == ECF_EINVAL ? 2 : 1;
}

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static void date_of(char out[11], long t)
{
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(out, 11, "%Y-%m-%d", &tm);
}

static bool region_ok(const char *s, size_t n)
{
    size_t i;
    if (n == 0 || n > MAX_REGION_LEN)
        return false;
    for (i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '-'))
            return false;
    return true;
}

static void strlist_add(strlist *l, const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        if (strlen(l->v[i]) == n && strncmp(l->v[i], s, n) == 0)
            return;
    l->v = ecf_xrealloc(l->v, (l->n + 1) * sizeof(char *));
    l->v[l->n] = ecf_xmalloc(n + 1);
    memcpy(l->v[l->n], s, n);
    l->v[l->n][n] = '\0';
    l->n++;
}

static void strlist_dispose(strlist *l)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

void cli_update_strlist_add(strlist *l, const char *s, size_t n)
{
    strlist_add(l, s, n);
}

void cli_update_strlist_dispose(strlist *l)
{
    strlist_dispose(l);
}

static int parse_regions(strlist *out, const char *arg, ecf_err *err)
{
    const char *p = arg;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        while (n > 0 && *p == ' ') {
            p++;
            n--;
        }
        while (n > 0 && p[n - 1] == ' ')
            n--;
        if (!region_ok(p, n))
            return ecf_err_set(err, ECF_EINVAL,
                               "update: --regions: '%.*s' is not a region "
                               "name (e.g. us-east-1)",
                               (int)(n > MAX_REGION_LEN ? MAX_REGION_LEN : n),
                               p);
        if (out->n >= ECF_CATALOG_MAX_REGIONS)
            return ecf_err_set(err, ECF_EINVAL,
                               "update: --regions: more than %d regions",
                               ECF_CATALOG_MAX_REGIONS);
        strlist_add(out, p, n);
        if (!comma)
            break;
        p = comma + 1;
    }
    if (out->n == 0)
        return ecf_err_set(err, ECF_EINVAL, "update: --regions: empty list");
    return 0;
}

/* ---- sources ------------------------------------------------------------- */

static int fetch_spot(ecf_spot_table **out, char as_of[11], const char *url,
                      const strlist *regions, const ecf_http_opts *hopts,
                      ui_state *ui, long now, ecf_err *err)
{
    ecf_http_request req = {"GET", url, NULL, 0, NULL, 0};
    ecf_http_response res = ECF_HTTP_RESPONSE_INIT;
    int rc;

    ui_begin(ui, "spot advisor");
    rc = ecf_http_send(&res, &req, hopts, err);
    if (rc == ECF_EHTTP)
        cli_update_add_service_message(err, &res);
    if (rc == 0)
        rc = ecf_spot_parse(out, res.body.data, res.body.len,
                            (const char *const *)regions->v, regions->n, err);
    if (rc < 0) {
        char *safe = ecf_http_redact_url(url);
        ecf_err_prefix(err, "update: spot advisor %s", safe);
        free(safe);
    }
    /* The feed's own date is its Last-Modified, else today; a date in
     * the future (clock skew) counts as today. */
    date_of(as_of, res.last_modified > 0 && res.last_modified < now
                       ? (long)res.last_modified
                       : now);
    ecf_http_response_dispose(&res);
    return rc;
}


/* ---- credentials ----------------------------------------------------------- */

/* AWS_ENDPOINT_URL_<SERVICE>, else AWS_ENDPOINT_URL, unless
 * AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true (the SDKs' service-specific
 * endpoints). */
static const char *service_endpoint(const char *specific)
{
    const char *ignore = env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
    if (ignore && strcmp(ignore, "true") == 0)
        return NULL;
    return specific ? specific : env("AWS_ENDPOINT_URL");
}

static int resolve_creds(ecf_awscreds *creds, const ecf_http_opts *hopts,
                         ecf_err *err)
{
    ecf_credchain_env ce;
    const char *v;
    int rc;

    memset(&ce, 0, sizeof(ce));
    ce.files.access_key_id = env("AWS_ACCESS_KEY_ID");
    ce.files.secret_access_key = env("AWS_SECRET_ACCESS_KEY");
    ce.files.session_token = env("AWS_SESSION_TOKEN");
    ce.files.profile = env("AWS_PROFILE");
    ce.files.shared_credentials_file = env("AWS_SHARED_CREDENTIALS_FILE");
    ce.files.config_file = env("AWS_CONFIG_FILE");
    ce.files.home = env("HOME");
    ce.web_identity_token_file = env("AWS_WEB_IDENTITY_TOKEN_FILE");
    ce.role_arn = env("AWS_ROLE_ARN");
    ce.role_session_name = env("AWS_ROLE_SESSION_NAME");
    ce.region = env("AWS_REGION");
    if (!ce.region)
        ce.region = env("AWS_DEFAULT_REGION");
    ce.sts_endpoint = service_endpoint(env("AWS_ENDPOINT_URL_STS"));
    ce.sso_endpoint = service_endpoint(env("AWS_ENDPOINT_URL_SSO"));
    ce.container_relative_uri = env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
    ce.container_full_uri = env("AWS_CONTAINER_CREDENTIALS_FULL_URI");
    ce.container_token = env("AWS_CONTAINER_AUTHORIZATION_TOKEN");
    ce.container_token_file = env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
    ce.imds_endpoint = env("AWS_EC2_METADATA_SERVICE_ENDPOINT");
    v = env("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE");
    ce.imds_ipv6 = v && strcasecmp(v, "IPv6") == 0;
    v = env("AWS_EC2_METADATA_DISABLED");
    ce.imds_disabled = v && strcasecmp(v, "true") == 0;
    /* expiry is judged on the real clock, as the signature is */
    ce.now = (long long)time(NULL);
    rc = ecf_credchain_resolve(creds, &ce, hopts, err);
    if (rc == 0)
        rc = ecf_awscreds_check(creds, err);
    return rc;
}

/* ---- the command --------------------------------------------------------- */

/* The values are letters, but only -c, -q, -v and -h are short flags
 * (optstring): -r, -t and -n mean --region, --task and --nodes elsewhere. */
static const struct option longopts[] = {
    {"regions", required_argument, NULL, 'r'},
    {"force", no_argument, NULL, 'f'},
    {"dry-run", no_argument, NULL, 'n'},
    {"endpoint-url", required_argument, NULL, 'E'},
    {"spot-advisor-url", required_argument, NULL, 'S'},
    {"timeout", required_argument, NULL, 't'},
    {"retries", required_argument, NULL, 'R'},
    {"catalog", required_argument, NULL, 'c'},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};
const cli_flagset cli_flags_update = {longopts, ":hc:qv", NULL};

static int parse_args(update_opts *o, int argc, char **argv)
{
    ecf_err err = ECF_ERR_INIT;
    int c;

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, cli_flags_update.optstring, longopts,
                            NULL)) != -1) {
        switch (c) {
        case 'r':
            o->regions = optarg;
            break;
        case 'f':
            o->force = true;
            break;
        case 'n':
            o->dry_run = true;
            break;
        case 'E':
            o->endpoint_url = optarg;
            break;
        case 'S':
            o->spot_url = optarg;
            break;
        case 't':
            if (ecf_parse_double(&o->timeout_s, "--timeout", optarg, 0.1,
                                 3600, &err) < 0)
                return cli_usage_error(CMD, "%s", err.msg);
            break;
        case 'R':
            if (ecf_parse_int(&o->retries, "--retries", optarg, 0, 10,
                              &err) < 0)
                return cli_usage_error(CMD, "%s", err.msg);
            break;
        case 'c':
            o->catalog = optarg;
            break;
        case 'q':
            o->quiet = true;
            break;
        case 'v':
            o->verbose = true;
            break;
        case 'h':
            usage(stdout);
            return -1;
        default:
            return cli_bad_option(CMD, c, argc, argv, longopts);
        }
    }
    if (optind < argc)
        return cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    return 0;
}

int cmd_update(int argc, char **argv)
{
    update_opts o = {NULL, NULL, NULL, NULL, 60.0, -1,
                     false, false, false, false};
    ecf_err err = ECF_ERR_INIT;
    ecf_buf base = ECF_BUF_INIT;
    ecf_catalog *cat = NULL;
    ecf_awscreds creds = ECF_AWSCREDS_INIT;
    ecf_http_opts hopts = ECF_HTTP_OPTS_INIT;
    ecf_pricing_table *od = NULL;
    ecf_spot_table *spot = NULL;
    ecf_pricing_merge_opts mo;
    ecf_pricing_report rep = ECF_PRICING_REPORT_INIT;
    cli_catalog_opts copts = {NULL};
    strlist regions = {NULL, 0};
    endpoint ep = {NULL, NULL, NULL, NULL};
    endpoint sp_ep = {NULL, NULL, NULL, NULL};
    ecf_sp_table *sp = NULL;
    ui_state ui;
    char *dir = NULL, *merged = NULL, *spot_shown = NULL;
    char today[11], spot_as_of[11], generated_at[21];
    const char *label = NULL, *spot_url;
    bool have_creds = false;
    size_t pages = 0, sp_pages = 0, i;
    int lock_fd = -1, status = 0, rc;
    long now;

    rc = parse_args(&o, argc, argv);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    spot_url = o.spot_url ? o.spot_url : ECF_SPOT_ADVISOR_URL;
    spot_shown = ecf_http_redact_url(spot_url);

    memset(&ui, 0, sizeof(ui));
    ui.progress = !o.quiet && isatty(STDERR_FILENO);
    ui.verbose = o.verbose;

    hopts.timeout_ms = (long)(o.timeout_s * 1000);
    hopts.retries = o.retries;
    hopts.ca_bundle = env("AWS_CA_BUNDLE");
    if (hopts.ca_bundle && *hopts.ca_bundle) {
        /* checked here: curl's "error setting certificate file" came out
         * under the first URL fetched (the Spot Advisor's) */
        FILE *ca = fopen(hopts.ca_bundle, "r");
        if (!ca) {
            ecf_err_set(&err, ECF_EIO, "update: AWS_CA_BUNDLE: %s: %s",
                        hopts.ca_bundle, strerror(errno));
            status = cli_fail(&err);
            goto out;
        }
        fclose(ca);
    }
    hopts.ctx = &ui;
    hopts.progress = ui.progress ? on_progress : NULL;
    hopts.trace = o.verbose ? on_trace : NULL;
    {
        /* Testing hook (docs/update.md): lower the response cap. */
        const char *cap = env("EC2FIT_HTTP_MAX_BYTES");
        if (cap) {
            int v = 0;
            if (ecf_parse_int(&v, "EC2FIT_HTTP_MAX_BYTES", cap, 1, 0x7fffffff,
                              &err) < 0) {
                free(spot_shown);
                return cli_usage_error(CMD, "%s", err.msg);
            }
            hopts.max_bytes = (size_t)v;
        }
    }
    if (spot_url && ecf_http_check_url(spot_url, &err) < 0) {
        ecf_err_prefix(&err, "update: --spot-advisor-url");
        free(spot_shown);
        return fail(&err);
    }
    if (o.regions && parse_regions(&regions, o.regions, &err) < 0) {
        status = fail(&err);
        goto out;
    }
    rc = ecf_http_global_init(&err);
    if (rc < 0) {
        status = fail(&err);
        goto out;
    }

    now = cli_now();
    date_of(today, now);
    {
        time_t tt = (time_t)now;
        struct tm tm;
        gmtime_r(&tt, &tm);
        strftime(generated_at, sizeof(generated_at), "%Y-%m-%dT%H:%M:%SZ",
                 &tm);
    }

    /* Serialise with concurrent updates before reading the base, so a
     * second update builds on the first one's result. */
    rc = ecf_cache_dir(&dir, getenv("XDG_CACHE_HOME"), getenv("HOME"), &err);
    if (rc < 0 && o.dry_run)
        rc = 0; /* --dry-run writes nothing: no cache directory needed */
    if (rc == 0 && !o.dry_run) {
        bool waited = false;
        rc = ecf_cache_lock(&lock_fd, dir, &waited, &err);
        if (rc == 0 && waited && !o.quiet)
            fprintf(stderr, "ec2fit: update: waited for another update to "
                            "finish\n");
    }
    if (rc < 0) {
        ecf_err_prefix(&err, "update");
        status = fail(&err);
        goto out;
    }
    if (lock_fd >= 0) {
        /* A killed update (SIGKILL, power loss) can leave a temporary;
         * under the lock, one older than an hour is nobody's. */
        size_t swept = 0;
        if (ecf_cache_sweep(&swept, dir, (long)time(NULL), 3600) == 0 &&
            swept && !o.quiet)
            fprintf(stderr,
                    "ec2fit: update: removed %zu stale temporary file%s "
                    "from %s\n",
                    swept, swept == 1 ? "" : "s", dir);
    }

    copts.path = o.catalog;
    rc = cli_catalog_text(&base, &label, &copts, &err);
    if (rc == 0)
        rc = ecf_catalog_load_buffer(&cat, base.data, base.len, label, &err);
    if (rc < 0) {
        ecf_err_prefix(&err, "update");
        status = fail(&err);
        goto out;
    }
    /* Same rule as every other command: a region the catalog has no
     * price for is a usage error, not a refresh that finds nothing. */
    for (i = 0; i < regions.n; i++) {
        if (ecf_region_check(cat, regions.v[i], "--regions", &err) != 0) {
            status = cli_usage_error("update", "%s", err.msg);
            goto out;
        }
    }
    if (regions.n == 0) {
        for (i = 0; i < ecf_catalog_region_count(cat); i++) {
            const char *r = ecf_catalog_region_at(cat, i);
            strlist_add(&regions, r, strlen(r));
        }
    }

    /* Credentials decide whether the on-demand source can be refreshed:
     * the SDKs' default chain (credchain.h, docs/update.md). */
    rc = resolve_creds(&creds, &hopts, &err);
    if (rc == 0) {
        have_creds = true;
        if (o.verbose) {
            char *safe = ecf_textsafe_dup(creds.source ? creds.source : "");
            ui_clear(&ui);
            fprintf(stderr, "ec2fit: update: credentials: %s\n", safe);
            free(safe);
        }
        rc = cli_update_resolve_endpoint(&ep, o.endpoint_url,
                                         env("AWS_ENDPOINT_URL_PRICING"),
                                         "https://" ECF_PRICING_HOST "/",
                                         NULL, "endpoint", &err);
        if (rc == 0) /* the Savings Plans API: no flag, as the SDKs */
            rc = cli_update_resolve_endpoint(
                &sp_ep, NULL, env("AWS_ENDPOINT_URL_SAVINGSPLANS"),
                "https://" ECF_SP_HOST, ECF_SP_PATH, "savings plans endpoint",
                &err);
        if (rc < 0) {
            status = fail(&err);
            goto out;
        }
    } else if (rc == ECF_ENOTFOUND) {
        ui_clear(&ui);
        cli_warn("update: skipped on-demand prices (Pricing API): %s",
                 err.msg);
    } else {
        ecf_err_prefix(&err, "update: credentials");
        status = fail(&err);
        goto out;
    }

    rc = fetch_spot(&spot, spot_as_of, spot_url, &regions, &hopts, &ui, now,
                    &err);
    if (rc < 0) {
        ui_clear(&ui);
        status = fail(&err);
        goto out;
    }
    if (have_creds) {
        od = ecf_pricing_table_new();
        rc = cli_update_fetch_ondemand(od, &pages, &ep, &regions, &creds,
                                       &hopts, &ui, &err);
        if (rc == 0) {
            sp_refusal refusal;
            ecf_pricing_table_finish(od);
            sp = ecf_sp_table_new();
            rc = cli_update_fetch_savings_plans(sp, &sp_pages, &refusal,
                                                &sp_ep, &regions, &creds,
                                                &hopts, &ui, &err);
            if (rc < 0 && refusal.denied) {
                /* A policy with pricing:GetProducts only (all an update
                 * needed before the Savings Plans API was used): the
                 * on-demand refresh still lands, the catalog's rates are
                 * kept (and judged against the new on-demand prices), and
                 * no savings_plans_api source claims a refresh. */
                ui_clear(&ui);
                cli_warn("update: savings plans: access denied (HTTP %ld%s%s;"
                         " the policy needs "
                         "savingsplans:DescribeSavingsPlansOfferingRates); "
                         "Savings Plan rates not refreshed",
                         refusal.status, refusal.type[0] ? " " : "",
                         refusal.type);
                ecf_sp_table_free(sp);
                sp = NULL;
                sp_pages = 0;
                rc = 0;
            }
        }
        if (rc < 0) {
            ui_clear(&ui);
            status = fail(&err);
            goto out;
        }
    }
    ui_clear(&ui);

    memset(&mo, 0, sizeof(mo));
    mo.regions = (const char *const *)regions.v;
    mo.n_regions = regions.n;
    mo.ondemand = od;
    mo.spot = spot;
    mo.force = o.force;
    mo.generated_at = generated_at;
    mo.ondemand_as_of = today;
    mo.ondemand_origin = ep.shown;
    mo.spot_as_of = spot_as_of;
    mo.spot_origin = spot_shown;
    mo.savings_plans = sp;
    mo.sp_as_of = today;
    mo.sp_origin = sp_ep.shown;
    rc = ecf_pricing_merge(&merged, &rep, base.data, base.len, &mo, &err);
    for (i = 0; i < rep.n_notes; i++)
        cli_warn("update: %s", rep.notes[i]);
    if (rep.n_notes_total > rep.n_notes)
        cli_warn("update: ... and %zu more", rep.n_notes_total - rep.n_notes);
    if (rc < 0) {
        ecf_err_prefix(&err, "update");
        status = fail(&err);
        goto out;
    }

    /* The refreshed catalog passes the same loader as the embedded one. */
    ecf_catalog_free(cat);
    cat = NULL;
    rc = ecf_catalog_load_buffer(&cat, merged, strlen(merged),
                                 "refreshed catalog", &err);
    if (rc == 0)
        rc = ecf_catalog_check_dates(cat, "refreshed catalog", now, &err);
    if (rc < 0) {
        ecf_err_prefix(&err, "update");
        status = fail(&err);
        goto out;
    }

    if (o.dry_run) {
        fputs(merged, stdout);
        fputc('\n', stdout);
    } else {
        ecf_cache_source srcs[3];
        ecf_cache_meta meta;
        size_t ns = 0;
        srcs[ns++] = (ecf_cache_source){"spot_advisor", spot_shown,
                                        spot_as_of};
        if (od)
            srcs[ns++] = (ecf_cache_source){"pricing_api", ep.shown, today};
        if (sp)
            srcs[ns++] = (ecf_cache_source){"savings_plans_api", sp_ep.shown,
                                            today};
        meta.written_at = generated_at;
        meta.as_of = ecf_catalog_as_of(cat);
        meta.sources = srcs;
        meta.n_sources = ns;
        {
            /* The temporaries exist only inside ecf_cache_write, which
             * renames or removes them: hold SIGINT/SIGTERM/SIGHUP until
             * it returns, so an interrupt cannot strand one. A signal
             * that arrived meanwhile is delivered at the unblock. */
            sigset_t block, old;
            sigemptyset(&block);
            sigaddset(&block, SIGINT);
            sigaddset(&block, SIGTERM);
            sigaddset(&block, SIGHUP);
            sigprocmask(SIG_BLOCK, &block, &old);
            rc = ecf_cache_write(dir, merged, strlen(merged), &meta, &err);
            sigprocmask(SIG_SETMASK, &old, NULL);
        }
        if (rc < 0) {
            ecf_err_prefix(&err, "update");
            status = fail(&err);
            goto out;
        }
    }
    if (!o.quiet) {
        if (od)
            fprintf(stderr,
                    "ec2fit: update: on-demand: %zu regions, %zu pages, %zu "
                    "prices changed, %zu added, %zu removed, %zu kept; "
                    "1-year reserved: %zu set\n",
                    regions.n, pages, rep.ondemand_updated,
                    rep.ondemand_added, rep.ondemand_removed,
                    rep.ondemand_kept, rep.reserved_updated);
        if (sp)
            fprintf(stderr,
                    "ec2fit: update: savings plans: %zu regions, %zu pages, "
                    "%zu rates listed, %zu pairs set, %zu commitment rates "
                    "dropped\n",
                    regions.n, sp_pages, ecf_sp_table_count(sp),
                    rep.savings_plan_updated, rep.commitment_dropped);
        fprintf(stderr,
                "ec2fit: update: spot: %zu entries updated, %zu removed\n",
                rep.spot_updated, rep.spot_removed);
        if (!o.dry_run)
            fprintf(stderr,
                    "ec2fit: update: wrote %s/%s (prices as of %s)\n", dir,
                    ECF_CACHE_CATALOG, ecf_catalog_as_of(cat));
    }
out:
    ui_clear(&ui);
    if (lock_fd >= 0)
        ecf_cache_unlock(lock_fd);
    ecf_pricing_report_dispose(&rep);
    ecf_pricing_table_free(od);
    ecf_spot_table_free(spot);
    ecf_awscreds_dispose(&creds);
    ecf_catalog_free(cat);
    ecf_buf_dispose(&base);
    strlist_dispose(&regions);
    cli_update_endpoint_dispose(&ep);
    cli_update_endpoint_dispose(&sp_ep);
    ecf_sp_table_free(sp);
    free(merged);
    free(dir);
    free(spot_shown);
    ecf_http_global_cleanup();
    return status;
}
