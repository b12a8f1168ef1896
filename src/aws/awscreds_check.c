/*
 * awscreds_check.c - resolved credentials must be plain text: a CR, LF or
 * other control character in a key or token would split or forge an HTTP
 * header line (the key id and token travel in headers), so it is an error
 * before any request is made. Never prints a secret, only its name.
 */
#include "ec2fit/awscreds.h"

#include <stdbool.h>
#include <string.h>

static int check_one(const char *value, const char *env_name,
                     const char *file_key, const ecf_awscreds *c,
                     ecf_err *err)
{
    const unsigned char *p = (const unsigned char *)value;
    bool from_env = !c->source || strcmp(c->source, "environment") == 0;
    if (!p)
        return 0;
    for (; *p; p++) {
        const char *what;
        if (*p >= 0x20 && *p != 0x7f)
            continue;
        what = (*p == '\r' || *p == '\n') ? "a line break"
                                          : "a control character";
        if (from_env)
            return ecf_err_set(err, ECF_EINVAL, "%s contains %s", env_name,
                               what);
        return ecf_err_set(err, ECF_EINVAL, "%s: %s contains %s", c->source,
                           file_key, what);
    }
    return 0;
}

int ecf_awscreds_check(const ecf_awscreds *c, ecf_err *err)
{
    int rc = check_one(c->access_key_id, "AWS_ACCESS_KEY_ID",
                       "aws_access_key_id", c, err);
    if (!rc)
        rc = check_one(c->secret_access_key, "AWS_SECRET_ACCESS_KEY",
                       "aws_secret_access_key", c, err);
    if (!rc)
        rc = check_one(c->session_token, "AWS_SESSION_TOKEN",
                       "aws_session_token", c, err);
    return rc;
}
