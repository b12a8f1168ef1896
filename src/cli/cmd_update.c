/*
 * cmd_update.c - `ec2fit update`: refresh on-demand prices (Pricing API,
 * signed with SigV4) and spot savings (Spot Advisor feed, public) into the
 * catalog cache. docs/update.md is the user-facing description.
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

typedef struct {
    bool progress; /* stderr is a TTY and --quiet is off */
    bool verbose;
    char label[128];
    size_t last_kib;
    bool drawn;
} ui_state;

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
        "from the public Spot Advisor feed; on-demand prices from the AWS\n"
        "Pricing API (GetProducts), which needs AWS credentials and is\n"
        "skipped, with a warning, without them. Other commands use the cache\n"
        "when it is valid and newer than the built-in catalog.\n"
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
        "Endpoints for tests: AWS_ENDPOINT_URL_STS, AWS_ENDPOINT_URL_SSO,\n"
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

typedef struct {
    char **v;
    size_t n;
} strlist;

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

/* Has this run seen the token on any earlier page, of any region? A
 * linear scan: a run has about 10 pages per region, and a server that
 * keeps inventing tokens stops at ECF_PRICING_MAX_PAGES per region. */
static bool seen_before(const strlist *l, const char *token)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        if (strcmp(l->v[i], token) == 0)
            return true;
    return false;
}

/* Adds the service's own message to an HTTP error: "HTTP 403: The request
 * signature we calculated does not match ...". */
static void add_service_message(ecf_err *err, const ecf_http_response *res)
{
    char *m = ecf_pricing_error_message(res->body.data, res->body.len);
    if (m) {
        size_t l = strlen(err->msg);
        snprintf(err->msg + l, sizeof(err->msg) - l, ": %s", m);
        free(m);
    }
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
        add_service_message(err, &res);
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

typedef struct {
    char *url;
    char *host; /* Host header value, signed */
    char *path;
    char *shown; /* url with any password redacted: messages, cache */
} endpoint;

static int post_signed(ecf_http_response *res, const endpoint *ep,
                       const ecf_buf *body, const ecf_awscreds *creds,
                       const ecf_http_opts *hopts, ecf_err *err)
{
    char amz_date[17];
    ecf_sigv4_header sh[5];
    ecf_http_header hh[6];
    ecf_sigv4_result sig = ECF_SIGV4_RESULT_INIT;
    ecf_sigv4_creds sc;
    ecf_sigv4_request sr;
    ecf_http_request hr;
    size_t n = 0, i;
    int rc;

    /* SigV4 needs the real clock (AWS rejects more than 5 minutes of
     * skew), so EC2FIT_NOW does not apply here. */
    ecf_sigv4_format_date(amz_date, time(NULL));
    sh[n++] = (ecf_sigv4_header){"Host", ep->host};
    sh[n++] = (ecf_sigv4_header){"X-Amz-Date", amz_date};
    sh[n++] = (ecf_sigv4_header){"X-Amz-Target", ECF_PRICING_TARGET};
    sh[n++] = (ecf_sigv4_header){"Content-Type", ECF_PRICING_CONTENT_TYPE};
    if (creds->session_token)
        sh[n++] = (ecf_sigv4_header){"X-Amz-Security-Token",
                                     creds->session_token};
    sc.access_key_id = creds->access_key_id;
    sc.secret_access_key = creds->secret_access_key;
    sc.session_token = creds->session_token;
    memset(&sr, 0, sizeof(sr));
    sr.method = "POST";
    sr.path = ep->path;
    sr.headers = sh;
    sr.n_headers = n;
    sr.payload = body->data;
    sr.payload_len = body->len;
    sr.region = ECF_PRICING_REGION;
    sr.service = ECF_PRICING_SERVICE;
    sr.amz_date = amz_date;
    sr.flags = ECF_SIGV4_NORMALIZE_PATH;
    rc = ecf_sigv4_sign(&sig, &sr, &sc, err);
    if (rc < 0)
        return rc;
    for (i = 0; i < n; i++) {
        hh[i].name = sh[i].name;
        hh[i].value = sh[i].value;
    }
    hh[n].name = "Authorization";
    hh[n].value = sig.authorization;
    hr.method = "POST";
    hr.url = ep->url;
    hr.headers = hh;
    hr.n_headers = n + 1;
    hr.body = body->data;
    hr.body_len = body->len;
    rc = ecf_http_send(res, &hr, hopts, err);
    if (rc == ECF_EHTTP)
        add_service_message(err, res);
    ecf_sigv4_result_dispose(&sig);
    return rc;
}

static int fetch_ondemand(ecf_pricing_table *t, size_t *pages_out,
                          const endpoint *ep, const strlist *regions,
                          const ecf_awscreds *creds,
                          const ecf_http_opts *hopts, ui_state *ui,
                          ecf_err *err)
{
    ecf_buf body = ECF_BUF_INIT;
    ecf_http_response res = ECF_HTTP_RESPONSE_INIT;
    char *token = NULL, *next = NULL;
    strlist seen = {NULL, 0}; /* every NextToken of this run */
    size_t r;
    int rc = 0, page = 0;

    *pages_out = 0;
    for (r = 0; r < regions->n; r++) {
        const char *region = regions->v[r];
        free(token);
        token = NULL;
        for (page = 1;; page++) {
            if (page > ECF_PRICING_MAX_PAGES) {
                rc = ecf_err_set(err, ECF_EPARSE,
                                 "more than %d pages; giving up",
                                 ECF_PRICING_MAX_PAGES);
                goto out;
            }
            ui_begin(ui, "GetProducts %s (%zu/%zu) page %d", region, r + 1,
                     regions->n, page);
            ecf_pricing_products_request(&body, region, token);
            rc = post_signed(&res, ep, &body, creds, hopts, err);
            if (rc < 0)
                goto out;
            rc = ecf_pricing_parse_products(&next, t, region, res.body.data,
                                            res.body.len, err);
            if (rc < 0)
                goto out;
            (*pages_out)++;
            if (next && seen_before(&seen, next)) {
                rc = ecf_err_set(err, ECF_EPARSE,
                                 "NextToken repeats a token of an earlier "
                                 "page; giving up");
                goto out;
            }
            if (next)
                strlist_add(&seen, next, strlen(next));
            free(token);
            token = next;
            next = NULL;
            if (!token)
                break;
        }
    }
out:
    if (rc < 0) {
        if (page > 1)
            ecf_err_prefix(err, "update: GetProducts %s page %d",
                           regions->v[r], page);
        else
            ecf_err_prefix(err, "update: GetProducts %s", regions->v[r]);
    }
    free(token);
    free(next);
    strlist_dispose(&seen);
    ecf_buf_dispose(&body);
    ecf_http_response_dispose(&res);
    return rc;
}

static int resolve_endpoint(endpoint *ep, const char *flag, ecf_err *err)
{
    const char *url = flag;
    const char *ignore = env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
    int rc;

    memset(ep, 0, sizeof(*ep));
    if (!url && !(ignore && strcmp(ignore, "true") == 0)) {
        url = env("AWS_ENDPOINT_URL_PRICING");
        if (!url)
            url = env("AWS_ENDPOINT_URL");
    }
    if (!url)
        url = "https://" ECF_PRICING_HOST "/";
    rc = ecf_http_check_url(url, err);
    if (rc == 0)
        rc = ecf_http_split_url(&ep->host, &ep->path, url, err);
    if (rc < 0) {
        ecf_err_prefix(err, "update: endpoint");
        return ECF_EINVAL;
    }
    ep->url = ecf_xstrdup(url);
    ep->shown = ecf_http_redact_url(url);
    return 0;
}

static void endpoint_dispose(endpoint *ep)
{
    free(ep->shown);
    free(ep->url);
    free(ep->host);
    free(ep->path);
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
    ui_state ui;
    char *dir = NULL, *merged = NULL, *spot_shown = NULL;
    char today[11], spot_as_of[11], generated_at[21];
    const char *label = NULL, *spot_url;
    bool have_creds = false;
    size_t pages = 0, i;
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
        rc = resolve_endpoint(&ep, o.endpoint_url, &err);
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
        rc = fetch_ondemand(od, &pages, &ep, &regions, &creds, &hopts, &ui,
                            &err);
        if (rc < 0) {
            ui_clear(&ui);
            status = fail(&err);
            goto out;
        }
        ecf_pricing_table_finish(od);
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
        ecf_cache_source srcs[2];
        ecf_cache_meta meta;
        size_t ns = 0;
        srcs[ns++] = (ecf_cache_source){"spot_advisor", spot_shown,
                                        spot_as_of};
        if (od)
            srcs[ns++] = (ecf_cache_source){"pricing_api", ep.shown, today};
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
    endpoint_dispose(&ep);
    free(merged);
    free(dir);
    free(spot_shown);
    ecf_http_global_cleanup();
    return status;
}
