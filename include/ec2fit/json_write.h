/**
 * ec2fit/json_write.h - compact JSON text of a cJSON tree, byte for byte
 * what cJSON 1.7.15's cJSON_PrintUnformatted gives, but faster (the batch
 * output's hot path: docs in src/util/json_write.c).
 */
#ifndef EC2FIT_JSON_WRITE_H
#define EC2FIT_JSON_WRITE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** malloc'd text (free() it), or NULL where cJSON_PrintUnformatted would
 *  give NULL (an item of no known type, a raw item without text). Aborts
 *  on out of memory. */
char *ecf_json_print(const cJSON *item);

/** The same compact text written as it goes, without a tree: a renderer
 *  calls ecf_jw_key before each member (key) or array element (NULL),
 *  then writes its value. Byte for byte what ecf_json_print gives for the
 *  tree holding the same members in the same order. */
typedef struct ecf_jw {
    char *p;
    size_t len, cap;
    char point; /* the locale's decimal point (read once) */
    bool comma; /* a member precedes: the next key writes ',' first */
} ecf_jw;

void ecf_jw_init(ecf_jw *w);
/** ',' when a member precedes, then "key": (key NULL: an array element). */
void ecf_jw_key(ecf_jw *w, const char *key);
/** '{' or '[' */
void ecf_jw_begin(ecf_jw *w, char open);
/** '}' or ']' */
void ecf_jw_end(ecf_jw *w, char close);
void ecf_jw_string(ecf_jw *w, const char *s);
/** cJSON's number text (null for NaN and infinities). */
void ecf_jw_number(ecf_jw *w, double d);
/** Text as is: true, false, null. */
void ecf_jw_literal(ecf_jw *w, const char *text);
/** A whole cJSON value (false: one ecf_json_print would refuse). */
bool ecf_jw_value(ecf_jw *w, const cJSON *item);
/** The text, malloc'd (the caller frees it); `w` is empty after. */
char *ecf_jw_finish(ecf_jw *w);

#ifdef __cplusplus
}
#endif

#endif
