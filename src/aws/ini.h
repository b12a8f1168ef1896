/*
 * ini.h - the two pieces of AWS's shared config/credentials file syntax
 * that awscreds.c (static keys, the region) and credchain.c (roles, SSO,
 * credential_process) both read: a trimmed copy of a value, and whether a
 * section header names a profile (docs/update.md, "Credentials").
 */
#ifndef ECF_AWS_INI_H
#define ECF_AWS_INI_H

#include <stdbool.h>
#include <stddef.h>

/* A malloc'd copy of s[0..n) without leading blanks and trailing blanks
 * or CR (never NULL: ecf_xmalloc). */
char *ecf_ini_trimmed(const char *s, size_t n);

/* Does the header text inside "[ ... ]" name `want`? Blanks around it are
 * insignificant and runs of blanks inside compare equal ("profile   dev"
 * is "profile dev"), as in the AWS CLI. */
bool ecf_ini_section_is(const char *inside, size_t n, const char *want);

#endif
