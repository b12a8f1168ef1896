/*
 * textsafe.c - escapes control characters (C0, DEL, C1 and therefore every
 * ESC/CSI/OSC sequence) and invalid UTF-8 in untrusted text before it
 * reaches a terminal or an error message. Owns nothing else; libc only.
 * The callers are the diagnostics in src/cli/cli_common.c, the --verbose
 * trace and the table renderers (docs/security.md).
 */
#include "ec2fit/textsafe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/err.h"

size_t ecf_utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n, i;
    unsigned long cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 1;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 2;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 3;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (i = 1; i <= n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return n + 1;
}

/* The escape for the character at s into esc (>= 8 bytes); returns the
 * number of input bytes it covers, and esc[0] == 0 when s[0..n) is safe. */
static size_t classify(char esc[8], const unsigned char *s)
{
    size_t n = ecf_utf8_len(s);
    esc[0] = '\0';
    if (n == 0) {
        snprintf(esc, 8, "\\x%02x", s[0]);
        return 1;
    }
    if (n == 1 && (s[0] < 0x20 || s[0] == 0x7f))
        snprintf(esc, 8, "\\x%02x", s[0]);
    else if (n == 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
        snprintf(esc, 8, "\\u%04x", (unsigned)s[1]);
    return n;
}

bool ecf_textsafe_needed(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    char esc[8];
    while (*p) {
        p += classify(esc, p);
        if (esc[0])
            return true;
    }
    return false;
}

/* Bytes the escaped form of src takes, without the NUL. */
static size_t escaped_len(const unsigned char *p)
{
    size_t n = 0;
    char esc[8];
    while (*p) {
        size_t k = classify(esc, p);
        n += esc[0] ? strlen(esc) : k;
        p += k;
    }
    return n;
}

char *ecf_textsafe(char *dst, size_t size, const char *src)
{
    const unsigned char *p = (const unsigned char *)src;
    size_t w = 0, room;
    bool cut;
    char esc[8];

    if (size == 0)
        return dst;
    /* Whole pieces only (a character or an escape), and when the result
     * does not fit, "..." after the last piece that fits before it. */
    cut = escaped_len(p) + 1 > size;
    room = cut ? (size >= 4 ? size - 4 : 0) : size - 1;
    while (*p) {
        size_t n = classify(esc, p);
        const char *piece = esc[0] ? esc : (const char *)p;
        size_t len = esc[0] ? strlen(esc) : n;
        if (w + len > room)
            break;
        memcpy(dst + w, piece, len);
        w += len;
        p += n;
    }
    if (cut && size >= 4) {
        memcpy(dst + w, "...", 3);
        w += 3;
    }
    dst[w] = '\0';
    return dst;
}

char *ecf_textsafe_dup(const char *src)
{
    /* Worst case: every byte becomes four ("\xHH"). */
    size_t size = strlen(src) * 4 + 1;
    char *d = ecf_xmalloc(size);
    return ecf_textsafe(d, size, src);
}

bool ecf_ident_valid(const char *s, size_t max_len, const char *punct)
{
    size_t i;
    for (i = 0; s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (i >= max_len || !(alnum || (i > 0 && strchr(punct, c))))
            return false;
    }
    return i > 0;
}
