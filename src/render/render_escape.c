/*
 * render_escape.c - YAML and Markdown escaping (render_escape.h). The
 * terminal, JSON, CSV and HTML boundaries live where they were first
 * written; the header lists all six.
 */
#include "render_escape.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/textsafe.h"

void ecf_rr_yaml_str(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    fputc('"', f);
    while (*p) {
        size_t n = ecf_utf8_len(p);
        if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f)) ||
            (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f)) {
            /* not UTF-8, or a control character: one escape per byte
             * (a C1 character is U+0080..U+009F: \x80..\x9f) */
            fprintf(f, "\\x%02x", n == 2 ? p[1] : p[0]);
            p += n ? n : 1;
            continue;
        }
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fwrite(p, 1, n, f);
        p += n;
    }
    fputc('"', f);
}

void ecf_rr_yaml_comment(FILE *f, const char *s)
{
    char *safe = ecf_textsafe_dup(s ? s : "");
    fputs(safe, f);
    free(safe);
}

void ecf_rr_md_text(FILE *f, const char *s)
{
    char *safe = ecf_textsafe_dup(s ? s : "");
    const char *p;
    for (p = safe; *p; p++) {
        bool word_us = *p == '_' && p > safe && p[1] &&
                       isalnum((unsigned char)p[-1]) &&
                       isalnum((unsigned char)p[1]);
        if (strchr("\\`*_|<>[]&", *p) && !word_us)
            fputc('\\', f);
        fputc(*p, f);
    }
    free(safe);
}
