/*
 * credchain_internal.h - the parsers and the process runner behind
 * ecf_credchain_resolve, split out so unit tests reach them without a
 * server (tests/unit/test_credchain.c).
 */
#ifndef EC2FIT_CREDCHAIN_INTERNAL_H
#define EC2FIT_CREDCHAIN_INTERNAL_H

#include <stddef.h>

#include "ec2fit/awscreds.h"
#include "ec2fit/buf.h"
#include "ec2fit/err.h"

/* Largest answer taken from a credential endpoint or credential_process. */
#define ECF_CRED_MAX_BYTES (64u * 1024u)

/* "2026-12-07T09:00:00Z", with optional fractional seconds and a "Z" or
 * "+HH:MM"/"-HH:MM" offset, to seconds since the epoch. Returns 0, or
 * ECF_EPARSE (no message set). */
int ecf_cred_parse_time(long long *out, const char *s);

/* Credentials from a JSON object, the shape IMDS, the container endpoint
 * and credential_process share: AccessKeyId, SecretAccessKey, Token (or
 * SessionToken), Expiration (ISO 8601, optional). `what` prefixes the
 * messages. An Expiration at or before `now` is ECF_EPARSE "WHAT: the
 * credentials expired at EXPIRATION". When `version` is set, "Version"
 * must be 1 (credential_process). */
int ecf_cred_from_json(ecf_awscreds *out, const char *body, size_t len,
                       const char *what, int version, long long now,
                       ecf_err *err);

/* The SSO portal's GetRoleCredentials answer: {"roleCredentials":
 * {accessKeyId, secretAccessKey, sessionToken, expiration (ms)}}. */
int ecf_cred_from_sso_json(ecf_awscreds *out, const char *body, size_t len,
                           const char *what, long long now, ecf_err *err);

/* An STS Query API answer (AssumeRole, AssumeRoleWithWebIdentity):
 * <Credentials> AccessKeyId, SecretAccessKey, SessionToken, Expiration. */
int ecf_cred_from_sts_xml(ecf_awscreds *out, const char *body,
                          const char *what, long long now, ecf_err *err);

/* Appends ": CODE: MESSAGE" from an STS <Error> document (or a JSON
 * {"message"}/{"Message"}) to err->msg, made printable. */
void ecf_cred_add_service_message(ecf_err *err, const char *body);

/* The command line of credential_process split as botocore does
 * (shlex.split, POSIX rules: blanks separate, '...' literal, "..." with
 * \" \\ \$ \` escapes, \x outside quotes). NULL-terminated, caller frees
 * each string and the array. Errors: ECF_EINVAL "unterminated quote",
 * "empty command". */
int ecf_cred_split_command(char ***words_out, const char *cmd, ecf_err *err);
void ecf_cred_free_words(char **words);

/* Runs words[0] (PATH search, no shell) with stdout captured (at most
 * ECF_CRED_MAX_BYTES) and stderr's first line kept for the message.
 * Errors: ECF_EIO "cannot run 'PROG': STRERROR", ECF_ERR "'PROG' exited
 * with status N: FIRST STDERR LINE" / "'PROG' was killed by signal N",
 * ECF_EPARSE "output larger than N bytes". */
int ecf_cred_run_process(ecf_buf *out, char *const *words, ecf_err *err);

#endif
