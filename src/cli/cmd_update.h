/*
 * cmd_update.h - what cmd_update.c (the command) and cmd_update_fetch.c
 * (the signed, paged AWS listings) share: the progress line, the region
 * list and the endpoints. Internal to `ec2fit update`.
 */
#ifndef EC2FIT_CLI_CMD_UPDATE_H
#define EC2FIT_CLI_CMD_UPDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/awscreds.h"
#include "ec2fit/err.h"
#include "ec2fit/http.h"
#include "ec2fit/pricing.h"

typedef struct {
    bool progress; /* stderr is a TTY and --quiet is off */
    bool verbose;
    char label[128];
    size_t last_kib;
    bool drawn;
} ui_state;

typedef struct {
    char **v;
    size_t n;
} strlist;

typedef struct {
    char *url;
    char *host; /* Host header value, signed */
    char *path;
    char *shown; /* url with any password redacted: messages, cache */
} endpoint;

/* cmd_update.c */
void cli_update_ui_begin(ui_state *ui, const char *label);
void cli_update_strlist_add(strlist *l, const char *s, size_t n);
void cli_update_strlist_dispose(strlist *l);

/* cmd_update_fetch.c */

/** Appends the service's own message to an HTTP error: "HTTP 403: The
 *  request signature we calculated does not match ...". */
void cli_update_add_service_message(ecf_err *err,
                                    const ecf_http_response *res);

/** An API endpoint: `flag` (a command-line URL), else `specific` (the
 *  value of AWS_ENDPOINT_URL_<SERVICE>, or NULL), else AWS_ENDPOINT_URL
 *  (both unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true), else
 *  `fallback`; `suffix`
 *  (NULL for none) is appended as the path of a rest-json operation.
 *  Errors (ECF_EINVAL) are prefixed "update: WHAT". Dispose with
 *  cli_update_endpoint_dispose. */
int cli_update_resolve_endpoint(endpoint *ep, const char *flag,
                                const char *specific, const char *fallback,
                                const char *suffix, const char *what,
                                ecf_err *err);
void cli_update_endpoint_dispose(endpoint *ep);

/** GetProducts for every region, page by page, into `t` (not finished). */
int cli_update_fetch_ondemand(ecf_pricing_table *t, size_t *pages_out,
                              const endpoint *ep, const strlist *regions,
                              const ecf_awscreds *creds,
                              const ecf_http_opts *hopts, ui_state *ui,
                              ecf_err *err);

/** Why a Savings Plans listing failed, when it was an authorisation
 *  refusal (ecf_sp_access_denied): the caller goes on without the rates. */
typedef struct {
    bool denied;
    long status;   /* HTTP status of the refusal */
    char type[64]; /* its error type, "" when the reply named none */
} sp_refusal;

/** DescribeSavingsPlansOfferingRates for every region, page by page, into
 *  `t`, finished on success. On failure `refusal` (optional) says whether
 *  the reply was an access denial; the error is set either way. */
int cli_update_fetch_savings_plans(ecf_sp_table *t, size_t *pages_out,
                                   sp_refusal *refusal, const endpoint *ep,
                                   const strlist *regions,
                                   const ecf_awscreds *creds,
                                   const ecf_http_opts *hopts, ui_state *ui,
                                   ecf_err *err);

#endif
