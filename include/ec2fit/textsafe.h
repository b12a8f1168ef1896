/**
 * ec2fit/textsafe.h - the one sanitizer for untrusted text on its way to a
 * terminal or into an error message (docs/security.md, "Terminal output").
 *
 * Whatever the origin (a server reply, a catalog, a config file, argv),
 * a string is passed through ecf_textsafe before it is printed, so an
 * ESC sequence cannot recolour, move the cursor, retitle the window or
 * hide text, and a CR/LF cannot forge a second line. libc only.
 */
#ifndef EC2FIT_TEXTSAFE_H
#define EC2FIT_TEXTSAFE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** True when `s` holds a byte or code point that ecf_textsafe would
 *  escape: C0 controls U+0000-U+001F (TAB, CR and LF included), DEL
 *  U+007F, C1 controls U+0080-U+009F (UTF-8 C2 80..C2 9F), or a byte that
 *  is not part of valid UTF-8 (a lone 0x9B is CSI to an 8-bit terminal). */
bool ecf_textsafe_needed(const char *s);

/**
 * Copies `src` into `dst` (`size` bytes, always NUL-terminated when
 * size > 0) with every byte above escaped: a C0 control or DEL becomes
 * "\xHH" (ESC is "\x1b", so "\x1b[31m" prints as the literal text
 * \x1b[31m), a C1 control "\u0080".."\u009f", an invalid UTF-8 byte
 * "\xHH". Valid UTF-8 text is copied unchanged. Output that does not fit
 * is cut at a character boundary and ends in "...". Returns dst.
 */
char *ecf_textsafe(char *dst, size_t size, const char *src);

/** As ecf_textsafe into a new heap string sized to fit (caller frees). */
char *ecf_textsafe_dup(const char *src);

/** Length of the valid UTF-8 sequence at `s` (RFC 3629: no overlong
 *  forms, no surrogates, nothing above U+10FFFF), 0 when invalid. Reads
 *  at most 4 bytes and stops at a NUL (which is never a continuation). */
size_t ecf_utf8_len(const unsigned char *s);

/** True when `s` is an identifier: 1 to `max_len` bytes, the first a
 *  lowercase ASCII letter or digit, the others lowercase letters, digits
 *  or one of the characters in `punct` (e.g. "-." for instance types).
 *  The loaders check catalog names with it (docs/catalog.md
 *  "Identifiers"), so a name needs no quoting in any output language. */
bool ecf_ident_valid(const char *s, size_t max_len, const char *punct);

#ifdef __cplusplus
}
#endif

#endif
