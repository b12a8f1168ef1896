/*
 * ini.c - AWS config/credentials file syntax shared by awscreds.c and
 * credchain.c (ini.h).
 */
#include "ini.h"

#include <stdlib.h>
#include <string.h>

#include "ec2fit/err.h"

char *ecf_ini_trimmed(const char *s, size_t n)
{
    char *out;
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    out = ecf_xmalloc(n + 1);
    memcpy(out, s, n);
    out[n] = '\0';
    return out;
}

bool ecf_ini_section_is(const char *inside, size_t n, const char *want)
{
    char *name = ecf_ini_trimmed(inside, n), *a = name;
    const char *b = want;
    bool eq;
    for (;;) {
        if ((*a == ' ' || *a == '\t') && (*b == ' ' || *b == '\t')) {
            while (*a == ' ' || *a == '\t')
                a++;
            while (*b == ' ' || *b == '\t')
                b++;
            continue;
        }
        if (*a != *b || !*a)
            break;
        a++;
        b++;
    }
    eq = !*a && !*b;
    free(name);
    return eq;
}
