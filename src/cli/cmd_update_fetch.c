/*
 * cmd_update_fetch.c - the signed AWS JSON listings `ec2fit update` pages
 * through: the Pricing API's GetProducts (JSON 1.1, X-Amz-Target) and the
 * Savings Plans API's DescribeSavingsPlansOfferingRates (rest-json, the
 * operation in the path). Both are POSTs signed with SigV4 for us-east-1,
 * paged by a token, per region; pricing.h parses the pages.
 * docs/update.md describes both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd_update.h"
#include "ec2fit/buf.h"
#include "ec2fit/sigv4.h"

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
void cli_update_add_service_message(ecf_err *err,
                                    const ecf_http_response *res)
{
    char *m = ecf_pricing_error_message(res->body.data, res->body.len);
    if (m) {
        size_t l = strlen(err->msg);
        snprintf(err->msg + l, sizeof(err->msg) - l, ": %s", m);
        free(m);
    }
}

/* How one signed JSON API is called. */
typedef struct {
    const char *service;      /* SigV4 service name */
    const char *region;       /* SigV4 region */
    const char *target;       /* X-Amz-Target, or NULL (rest-json) */
    const char *content_type;
} signed_api;

static const signed_api get_products = {ECF_PRICING_SERVICE,
                                        ECF_PRICING_REGION,
                                        ECF_PRICING_TARGET,
                                        ECF_PRICING_CONTENT_TYPE};
static const signed_api sp_offering_rates = {ECF_SP_SERVICE, ECF_SP_REGION,
                                             NULL, ECF_SP_CONTENT_TYPE};

static int post_signed(ecf_http_response *res, const signed_api *api,
                       const endpoint *ep, const ecf_buf *body,
                       const ecf_awscreds *creds, const ecf_http_opts *hopts,
                       ecf_err *err)
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
    if (api->target)
        sh[n++] = (ecf_sigv4_header){"X-Amz-Target", api->target};
    sh[n++] = (ecf_sigv4_header){"Content-Type", api->content_type};
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
    sr.region = api->region;
    sr.service = api->service;
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
        cli_update_add_service_message(err, res);
    ecf_sigv4_result_dispose(&sig);
    return rc;
}

/* One paged, signed listing: how to ask for a region's page and how to
 * read it into the caller's table. `token_name` is how the API spells
 * its page token, for messages. */
typedef struct {
    const char *name; /* operation, for the progress line and errors */
    const char *token_name;
    const signed_api *api;
    void (*request)(ecf_buf *out, const char *region, const char *token);
    int (*parse)(char **next_out, void *table, const char *region,
                 const char *data, size_t len, ecf_err *err);
} listing;

static int fetch_pages(void *table, size_t *pages_out, sp_refusal *refusal,
                       const listing *l, const endpoint *ep, const strlist *regions,
                       const ecf_awscreds *creds, const ecf_http_opts *hopts,
                       ui_state *ui, ecf_err *err)
{
    ecf_buf body = ECF_BUF_INIT;
    ecf_http_response res = ECF_HTTP_RESPONSE_INIT;
    char *token = NULL, *next = NULL;
    strlist seen = {NULL, 0}; /* every page token of this run */
    char label[128];
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
            snprintf(label, sizeof(label), "%s %s (%zu/%zu) page %d",
                     l->name, region, r + 1, regions->n, page);
            cli_update_ui_begin(ui, label);
            l->request(&body, region, token);
            rc = post_signed(&res, l->api, ep, &body, creds, hopts, err);
            if (rc == ECF_EHTTP && refusal) {
                refusal->status = res.status;
                refusal->denied = ecf_sp_access_denied(
                    refusal->type, sizeof(refusal->type), res.status,
                    res.body.data, res.body.len);
            }
            if (rc < 0)
                goto out;
            rc = l->parse(&next, table, region, res.body.data, res.body.len,
                          err);
            if (rc < 0)
                goto out;
            (*pages_out)++;
            if (next && seen_before(&seen, next)) {
                rc = ecf_err_set(err, ECF_EPARSE,
                                 "%s repeats a token of an earlier page; "
                                 "giving up",
                                 l->token_name);
                goto out;
            }
            if (next)
                cli_update_strlist_add(&seen, next, strlen(next));
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
            ecf_err_prefix(err, "update: %s %s page %d", l->name,
                           regions->v[r], page);
        else
            ecf_err_prefix(err, "update: %s %s", l->name, regions->v[r]);
    }
    free(token);
    free(next);
    cli_update_strlist_dispose(&seen);
    ecf_buf_dispose(&body);
    ecf_http_response_dispose(&res);
    return rc;
}

static int parse_products(char **next_out, void *table, const char *region,
                          const char *data, size_t len, ecf_err *err)
{
    return ecf_pricing_parse_products(next_out, table, region, data, len,
                                      err);
}

static int parse_sp_rates(char **next_out, void *table, const char *region,
                          const char *data, size_t len, ecf_err *err)
{
    return ecf_sp_parse_rates(next_out, table, region, data, len, err);
}

int cli_update_fetch_ondemand(ecf_pricing_table *t, size_t *pages_out,
                              const endpoint *ep, const strlist *regions,
                              const ecf_awscreds *creds,
                              const ecf_http_opts *hopts, ui_state *ui,
                              ecf_err *err)
{
    static const listing l = {"GetProducts", "NextToken", &get_products,
                              ecf_pricing_products_request, parse_products};
    return fetch_pages(t, pages_out, NULL, &l, ep, regions, creds, hopts, ui,
                       err);
}

int cli_update_fetch_savings_plans(ecf_sp_table *t, size_t *pages_out,
                                   sp_refusal *refusal, const endpoint *ep,
                                   const strlist *regions,
                                   const ecf_awscreds *creds,
                                   const ecf_http_opts *hopts, ui_state *ui,
                                   ecf_err *err)
{
    static const listing l = {"DescribeSavingsPlansOfferingRates",
                              "nextToken", &sp_offering_rates,
                              ecf_sp_rates_request, parse_sp_rates};
    int rc;
    if (refusal)
        memset(refusal, 0, sizeof(*refusal));
    rc = fetch_pages(t, pages_out, refusal, &l, ep, regions, creds, hopts, ui,
                     err);
    if (rc == 0)
        ecf_sp_table_finish(t);
    return rc;
}

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

int cli_update_resolve_endpoint(endpoint *ep, const char *flag,
                                const char *specific, const char *fallback,
                                const char *suffix, const char *what,
                                ecf_err *err)
{
    const char *url = flag;
    const char *ignore = env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
    ecf_buf full = ECF_BUF_INIT;
    int rc;

    memset(ep, 0, sizeof(*ep));
    if (!url && !(ignore && strcmp(ignore, "true") == 0)) {
        url = specific;
        if (!url)
            url = env("AWS_ENDPOINT_URL");
    }
    if (!url)
        url = fallback;
    ecf_buf_puts(&full, url);
    if (suffix) { /* rest-json: the operation is the path */
        while (full.len > 0 && full.data[full.len - 1] == '/')
            full.data[--full.len] = '\0';
        ecf_buf_puts(&full, suffix);
    }
    rc = ecf_http_check_url(full.data, err);
    if (rc == 0)
        rc = ecf_http_split_url(&ep->host, &ep->path, full.data, err);
    if (rc < 0) {
        ecf_err_prefix(err, "update: %s", what);
        ecf_buf_dispose(&full);
        return ECF_EINVAL;
    }
    ep->url = ecf_buf_detach(&full);
    ep->shown = ecf_http_redact_url(ep->url);
    return 0;
}

void cli_update_endpoint_dispose(endpoint *ep)
{
    free(ep->shown);
    free(ep->url);
    free(ep->host);
    free(ep->path);
}
