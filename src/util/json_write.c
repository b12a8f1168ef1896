/* json_write.c - owns ecf_json_print: cJSON_PrintUnformatted's output
 * (cJSON 1.7.15, cJSON.c print_value/print_number/print_string_ptr/
 * print_array/print_object) written into one growing buffer, with strtod
 * instead of sscanf("%lg") for the round-trip check of "%1.15g" (same
 * glibc conversion). tests/unit/test_json_write.c compares the two. */
#include "ec2fit/json_write.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef ecf_jw jw;

static char *jw_reserve(jw *w, size_t n)
{
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (w->len + n + 1 > cap)
            cap *= 2;
        w->p = realloc(w->p, cap);
        if (!w->p) {
            fputs("ec2fit: out of memory\n", stderr);
            abort();
        }
        w->cap = cap;
    }
    return w->p + w->len;
}

static void jw_put(jw *w, const char *s, size_t n)
{
    memcpy(jw_reserve(w, n), s, n);
    w->len += n;
}

/* cJSON's compare_double. */
static bool same_double(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= m * DBL_EPSILON;
}

/* Powers of ten that are exact doubles (10^22 is the last). */
static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                     1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16};

/* "%1.15g" of d without printf, for the common case; false: not handled
 * (the caller then runs printf). It looks for an integer m < 10^15 and a
 * k <= 16 with m / 10^k == d. m and 10^k are exact doubles and IEEE
 * division rounds correctly, so d is the double nearest the decimal
 * D = m x 10^-k, which has at most 15 significant digits; such a decimal
 * survives decimal -> double -> 15 digits unchanged (DBL_DIG = 15), so
 * "%1.15g" prints D, and strtod gives d back, so the "%1.17g" retry is
 * not taken. Only D in [1e-4, 1e15) is handled: "%g"'s fixed notation,
 * which is D's digits with the point placed and trailing zeros dropped.
 * tests/unit/test_json_write.c compares it with printf on a million
 * values. */
static int fast_g15(char *out, double d)
{
    char dig[24];
    double a = d < 0 ? -d : d, m = 0;
    unsigned long long u;
    int k, nd = 0, x, n = 0, i, last;

    if (!(a >= 1e-4 && a < 1e15))
        return 0;
    for (k = 0; k <= 16; k++) {
        double v = a * pow10_exact[k];
        if (v >= 1e15)
            return 0;
        m = nearbyint(v);
        if (m / pow10_exact[k] == a)
            break;
    }
    if (k > 16 || m < 1)
        return 0;
    for (u = (unsigned long long)m; u; u /= 10)
        dig[nd++] = (char)('0' + u % 10); /* reversed */
    x = nd - 1 - k;                       /* D's decimal exponent */
    if (x < -4 || x >= 15)
        return 0;
    /* last significant digit (trailing zeros of the fraction drop) */
    for (last = 0; last < k && dig[last] == '0'; last++)
        ;
    if (d < 0)
        out[n++] = '-';
    if (x < 0) {
        out[n++] = '0';
        out[n++] = '.';
        for (i = -1; i > x; i--)
            out[n++] = '0';
        for (i = nd - 1; i >= last; i--)
            out[n++] = dig[i];
    } else {
        for (i = nd - 1; i >= k; i--)
            out[n++] = dig[i];
        if (last < k) {
            out[n++] = '.';
            for (i = k - 1; i >= last; i--)
                out[n++] = dig[i];
        }
    }
    out[n] = '\0';
    return n;
}

static bool put_number(jw *w, double d, char point)
{
    char nb[32];
    int n, i;
    if (isnan(d) || isinf(d)) {
        jw_put(w, "null", 4);
        return true;
    }
    /* "%1.15g" of a zero is "0" or "-0", which strtod reads back: the
     * commonest number of a --batch line, not worth a printf */
    if (d == 0) {
        if (signbit(d))
            jw_put(w, "-0", 2);
        else
            jw_put(w, "0", 1);
        return true;
    }
    if (point == '.' && (n = fast_g15(nb, d)) > 0) {
        jw_put(w, nb, (size_t)n);
        return true;
    }
    n = snprintf(nb, sizeof(nb), "%1.15g", d);
    if (!same_double(strtod(nb, NULL), d))
        n = snprintf(nb, sizeof(nb), "%1.17g", d);
    if (n < 0 || n > 25) /* cJSON's 26-byte number buffer */
        return false;
    for (i = 0; i < n; i++)
        if (nb[i] == point)
            nb[i] = '.';
    jw_put(w, nb, (size_t)n);
    return true;
}

/* 1 for the bytes a JSON string holds as they are (not a control
 * character, '"' or '\\'): one table load per byte in the scans below
 * instead of three compares. */
static const unsigned char jw_plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

static void put_string(jw *w, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *q = (const unsigned char *)(s ? s : "");
    const unsigned char *run = q;
    size_t n = 0;
    /* most strings need no escape: one reserve and one copy */
    while (jw_plain[q[n]])
        n++;
    if (q[n] == 0) {
        char *d = jw_reserve(w, n + 2);
        d[0] = '"';
        memcpy(d + 1, q, n);
        d[n + 1] = '"';
        w->len += n + 2;
        return;
    }
    jw_put(w, "\"", 1);
    for (;; q++) {
        unsigned char c = *q;
        char e[6];
        size_t k = 2;
        if (c >= 32 && c != '"' && c != '\\')
            continue;
        jw_put(w, (const char *)run, (size_t)(q - run));
        if (c == 0)
            break;
        run = q + 1;
        e[0] = '\\';
        switch (c) {
        case '"': e[1] = '"'; break;
        case '\\': e[1] = '\\'; break;
        case '\b': e[1] = 'b'; break;
        case '\f': e[1] = 'f'; break;
        case '\n': e[1] = 'n'; break;
        case '\r': e[1] = 'r'; break;
        case '\t': e[1] = 't'; break;
        default:
            memcpy(e + 1, "u00", 3);
            e[4] = hex[c >> 4];
            e[5] = hex[c & 15];
            k = 6;
        }
        jw_put(w, e, k);
    }
    jw_put(w, "\"", 1);
}

static bool put_value(jw *w, const cJSON *it, char point)
{
    const cJSON *c;
    switch (it->type & 0xFF) {
    case cJSON_NULL: jw_put(w, "null", 4); return true;
    case cJSON_False: jw_put(w, "false", 5); return true;
    case cJSON_True: jw_put(w, "true", 4); return true;
    case cJSON_Number: return put_number(w, it->valuedouble, point);
    case cJSON_Raw:
        if (!it->valuestring)
            return false;
        jw_put(w, it->valuestring, strlen(it->valuestring));
        return true;
    case cJSON_String: put_string(w, it->valuestring); return true;
    case cJSON_Array:
    case cJSON_Object: {
        bool obj = (it->type & 0xFF) == cJSON_Object;
        jw_put(w, obj ? "{" : "[", 1);
        for (c = it->child; c; c = c->next) {
            if (obj) {
                put_string(w, c->string);
                jw_put(w, ":", 1);
            }
            if (!put_value(w, c, point))
                return false;
            if (c->next)
                jw_put(w, ",", 1);
        }
        jw_put(w, obj ? "}" : "]", 1);
        return true;
    }
    default: return false;
    }
}

char *ecf_json_print(const cJSON *item)
{
    jw w = {NULL, 0, 0, '.', false};
    /* the locale's decimal point, read once per document */
    char point = localeconv()->decimal_point[0];
    if (!item || !put_value(&w, item, point)) {
        free(w.p);
        return NULL;
    }
    jw_reserve(&w, 0);
    w.p[w.len] = '\0';
    return w.p;
}

/* ------------------------------------------------------------------ */
/* Streaming: the same text written member by member, without a tree   */
/* ------------------------------------------------------------------ */

void ecf_jw_init(ecf_jw *w)
{
    w->p = NULL;
    w->len = w->cap = 0;
    w->point = localeconv()->decimal_point[0];
    w->comma = false;
}

void ecf_jw_key(ecf_jw *w, const char *key)
{
    if (key) { /* a key with nothing to escape: one reserve, one copy */
        const unsigned char *q = (const unsigned char *)key;
        size_t n = 0, i = 0;
        char *d;
        while (jw_plain[q[n]])
            n++;
        if (q[n] == 0) {
            d = jw_reserve(w, n + 4);
            if (w->comma)
                d[i++] = ',';
            d[i++] = '"';
            memcpy(d + i, key, n);
            i += n;
            d[i++] = '"';
            d[i++] = ':';
            w->len += i;
            w->comma = true;
            return;
        }
    }
    if (w->comma)
        jw_put(w, ",", 1);
    if (key) {
        put_string(w, key);
        jw_put(w, ":", 1);
    }
    w->comma = true;
}

void ecf_jw_begin(ecf_jw *w, char open)
{
    jw_put(w, &open, 1);
    w->comma = false;
}

void ecf_jw_end(ecf_jw *w, char close)
{
    jw_put(w, &close, 1);
    w->comma = true;
}

void ecf_jw_string(ecf_jw *w, const char *s)
{
    put_string(w, s);
}

void ecf_jw_number(ecf_jw *w, double d)
{
    put_number(w, d, w->point); /* at most 24 bytes: never false */
}

void ecf_jw_literal(ecf_jw *w, const char *text)
{
    jw_put(w, text, strlen(text));
}

bool ecf_jw_value(ecf_jw *w, const cJSON *item)
{
    return item && put_value(w, item, w->point);
}

char *ecf_jw_finish(ecf_jw *w)
{
    char *s;
    jw_reserve(w, 0);
    w->p[w->len] = '\0';
    s = w->p;
    w->p = NULL;
    w->len = w->cap = 0;
    return s;
}
