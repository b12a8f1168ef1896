/**
 * ec2fit/credchain.h - the AWS SDKs' default credential provider chain,
 * for `ec2fit update` (docs/update.md "Credentials").
 *
 * Order, as the AWS SDKs and Tools reference guide's "standardized
 * credential providers" page and botocore's chain have it:
 *  1. AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN);
 *  2. web identity: AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN
 *     (+ AWS_ROLE_SESSION_NAME) -> STS AssumeRoleWithWebIdentity, unsigned;
 *  3. the profile (AWS_PROFILE, else default) of ~/.aws/config and
 *     ~/.aws/credentials: role_arn + source_profile -> STS AssumeRole
 *     signed with the source profile's credentials; sso_session (or the
 *     legacy sso_start_url) -> the SSO token cache and the portal's
 *     GetRoleCredentials; static keys; credential_process;
 *  4. ECS/EKS container credentials: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI
 *     (on 169.254.170.2) or AWS_CONTAINER_CREDENTIALS_FULL_URI, with
 *     AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE or _TOKEN;
 *  5. IMDSv2 (unless AWS_EC2_METADATA_DISABLED=true): PUT a session token,
 *     then the instance profile's role credentials.
 * The first provider that applies decides: its failure is an error, not a
 * fall-through (as in the SDKs), except that an unreachable IMDS means "no
 * credentials".
 *
 * The module never reads the environment: the CLI fills ecf_credchain_env.
 * Secrets are copied into the result and never appear in a message.
 */
#ifndef EC2FIT_CREDCHAIN_H
#define EC2FIT_CREDCHAIN_H

#include <stdbool.h>

#include "ec2fit/awscreds.h"
#include "ec2fit/err.h"
#include "ec2fit/http.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Inputs, all borrowed; NULL or "" = unset. */
typedef struct {
    ecf_awscreds_env files;              /* static keys, profile, files */
    const char *web_identity_token_file; /* AWS_WEB_IDENTITY_TOKEN_FILE */
    const char *role_arn;                /* AWS_ROLE_ARN */
    const char *role_session_name;       /* AWS_ROLE_SESSION_NAME */
    const char *region;         /* AWS_REGION, else AWS_DEFAULT_REGION:
                                   the STS endpoint and signing region */
    const char *sts_endpoint;   /* AWS_ENDPOINT_URL_STS (else the global
                                   one): https://sts[.REGION].amazonaws.com */
    const char *sso_endpoint;   /* AWS_ENDPOINT_URL_SSO: else
                                   https://portal.sso.REGION.amazonaws.com */
    const char *container_relative_uri; /* ..._CREDENTIALS_RELATIVE_URI */
    const char *container_full_uri;     /* ..._CREDENTIALS_FULL_URI */
    const char *container_token;        /* ..._AUTHORIZATION_TOKEN */
    const char *container_token_file;   /* ..._AUTHORIZATION_TOKEN_FILE */
    const char *imds_endpoint;  /* AWS_EC2_METADATA_SERVICE_ENDPOINT */
    bool imds_ipv6;             /* ..._ENDPOINT_MODE=IPv6 */
    bool imds_disabled;         /* AWS_EC2_METADATA_DISABLED=true */
    long long now;              /* seconds since the epoch (expiry checks) */
} ecf_credchain_env;

/** Longest source_profile chain followed (a cycle ends here too). */
#define ECF_CREDCHAIN_MAX_DEPTH 5

/**
 * Resolves credentials through the chain above. `hopts` is used for STS,
 * SSO and container requests; IMDS gets a 1 s timeout and no retry (the
 * SDKs' defaults). On success `out` is filled (ecf_awscreds_dispose it)
 * and out->source names the provider ("web identity (ROLE_ARN)",
 * "instance role NAME (IMDSv2)", ...).
 * Errors: ECF_ENOTFOUND (no provider applies; the message says what was
 * tried), ECF_EINVAL (half-set variables, a profile that cannot work),
 * ECF_EIO (a token file or the SSO cache cannot be read), ECF_EHTTP (a
 * provider's endpoint refused: "HTTP 403: AccessDenied: ..."),
 * ECF_EPARSE (a malformed or expired answer).
 */
int ecf_credchain_resolve(ecf_awscreds *out, const ecf_credchain_env *env,
                          const ecf_http_opts *hopts, ecf_err *err);

#ifdef __cplusplus
}
#endif

#endif
