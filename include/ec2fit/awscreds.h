/**
 * ec2fit/awscreds.h - static AWS credentials from the environment or the
 * shared credentials/config files (the AWS CLI's first two providers).
 *
 * The module never reads the environment itself: the CLI copies the
 * variables into an ecf_awscreds_env, so the resolution order is testable
 * without setenv. Secrets are copied into the result and wiped by
 * ecf_awscreds_dispose; nothing here prints them.
 */
#ifndef EC2FIT_AWSCREDS_H
#define EC2FIT_AWSCREDS_H

#include <stddef.h>

#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Inputs, all borrowed and optional (NULL or "" = unset). */
typedef struct {
    const char *access_key_id;           /* AWS_ACCESS_KEY_ID */
    const char *secret_access_key;       /* AWS_SECRET_ACCESS_KEY */
    const char *session_token;           /* AWS_SESSION_TOKEN */
    const char *profile;                 /* AWS_PROFILE, else "default" */
    const char *shared_credentials_file; /* AWS_SHARED_CREDENTIALS_FILE */
    const char *config_file;             /* AWS_CONFIG_FILE */
    const char *home;                    /* HOME, for ~/.aws/... */
} ecf_awscreds_env;

/** Resolved credentials; caller-owned, release with ecf_awscreds_dispose. */
typedef struct {
    char *access_key_id;
    char *secret_access_key;
    char *session_token; /* NULL when not temporary */
    char *source;        /* where they came from, for messages: "environment",
                            "/home/u/.aws/credentials [profile dev]" */
} ecf_awscreds;

#define ECF_AWSCREDS_INIT {NULL, NULL, NULL, NULL}

/** Maximum size of a credentials or config file. */
#define ECF_AWSCREDS_MAX_FILE_BYTES (1u << 20)

/**
 * Resolves credentials in the AWS CLI's order:
 *  1. AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN);
 *  2. the shared credentials file (AWS_SHARED_CREDENTIALS_FILE, else
 *     ~/.aws/credentials), section [PROFILE];
 *  3. the config file (AWS_CONFIG_FILE, else ~/.aws/config), section
 *     [profile PROFILE] ([default] for the default profile).
 * Keys: aws_access_key_id, aws_secret_access_key, aws_session_token.
 * On success `out` is filled (dispose it); on failure it is left empty.
 * Errors: ECF_ENOTFOUND (no credentials anywhere, or the named profile has
 * none; the message says where it looked), ECF_EINVAL (only one of the two
 * key variables set; a profile with a key id but no secret), ECF_EIO
 * (a file exists but cannot be read).
 */
int ecf_awscreds_resolve(ecf_awscreds *out, const ecf_awscreds_env *env,
                         ecf_err *err);

void ecf_awscreds_dispose(ecf_awscreds *creds);

/**
 * The "region" key of the profile's section in the AWS config file
 * (AWS_CONFIG_FILE, else ~/.aws/config; [profile PROFILE], [default] for
 * the default profile), as the AWS CLI reads it after AWS_REGION and
 * AWS_DEFAULT_REGION. Only env->profile, config_file and home are used.
 * Returns 1 with `out` set, 0 when there is none (no file, no section, no
 * key, a value longer than n - 1), <0 as ecf_awscreds_resolve would fail
 * on the same files: a file that exists but cannot be read (over 1 MiB,
 * not regular), ECF_EPARSE "FILE:LINE: reason" for a file the AWS CLI
 * would refuse, and ECF_EPARSE "AWS_PROFILE: the profile 'P' could not be
 * found in ..." when a named profile is in neither file.
 */
int ecf_awscreds_region(char *out, size_t n, const ecf_awscreds_env *env,
                        ecf_err *err);

/** Refuses credentials holding a CR, LF or other control character
 *  (C0 or DEL): they would break the request's header lines. Call after
 *  ecf_awscreds_resolve, before any request. Errors: ECF_EINVAL
 *  "AWS_SESSION_TOKEN contains a line break", or "FILE [PROFILE]:
 *  aws_secret_access_key contains a control character" for a file. */
int ecf_awscreds_check(const ecf_awscreds *c, ecf_err *err);

#ifdef __cplusplus
}
#endif

#endif
