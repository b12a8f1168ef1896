/*
 * batch_internal.h - internal to the batch engine (batch.c): its result
 * cache, canonical profile text -> compact JSON and status, bounded by
 * RB_CACHE_MAX_BYTES (batch_cache.c), and the reading of a line's fields
 * (batch_fields.c), with the bounded line reader and the strict parse.
 */
#ifndef EC2FIT_MODEL_BATCH_INTERNAL_H
#define EC2FIT_MODEL_BATCH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "ec2fit/err.h"

#define RB_CACHE_MAX_BYTES (64u << 20) /* results kept for reuse */

typedef struct {
    char *key;
    char *json; /* the result object without "line" */
    int status; /* 0 or 3 */
} rb_entry;

typedef struct {
    rb_entry *slots; /* open addressing, power-of-two size */
    size_t cap, n, bytes;
} rb_cache;

#define RB_MAX_FIELDS 64 /* fields in one profile */

typedef struct {
    char name[32];  /* field name, '_' read as '-' */
    char text[256]; /* the value as a flag argument */
    bool is_bool, bval;
} rb_field;

#define read_fields ecf_batch_read_fields_

/** Reads a line's fields (a JSON object) as flag arguments: strings as
 *  they are, numbers in the shortest form that reads back exactly, lists
 *  comma-joined; sorted by name, '_' read as '-' (batch_fields.c). */
int read_fields(rb_field *out, size_t *n_out, const cJSON *root,
                ecf_err *err);

#define parse_line ecf_batch_parse_line_
#define read_line ecf_batch_read_line_

/** Parses one line as strictly as every other loader (json_check.h):
 *  nothing after the object ({A}{B}, {A} junk), no duplicate key, no
 *  \u0000 or raw control character in a string, valid UTF-8 only. The
 *  tree is the caller's (cJSON_Delete); NULL with "malformed JSON at byte
 *  N" or "JSON: ..." in err. */
cJSON *parse_line(const char *text, size_t len, ecf_err *err);

/** Reads one line (its newline included) into *buf (*cap bytes, grown to
 *  max + 2 once), never holding more than max + 1 bytes: a longer line is
 *  consumed to its end without being stored, *too_long is set and its
 *  full length returned. Returns the length, 0 at the end of the input,
 *  or -1 on a read error (errno set): unlike getline, whose ENOMEM looked
 *  like the end of the input. */
long long read_line(char **buf, size_t *cap, FILE *in, size_t max,
                    bool *too_long);

#define pack_fields ecf_batch_pack_fields_
#define unpack_fields ecf_batch_unpack_fields_

/** read_fields' output in one allocated string, so that a line is parsed
 *  once (when it is grouped), not again when it runs: per field a flags
 *  byte (never 0), the name and the text, each NUL-terminated; a 0 byte
 *  ends the list. */
char *pack_fields(const rb_field *f, size_t n);
/** The fields pack_fields packed, into `out` (RB_MAX_FIELDS): their
 *  count. */
size_t unpack_fields(rb_field *out, const char *packed);

#define cache_slot ecf_batch_cache_slot_
#define cache_put ecf_batch_cache_put_
#define cache_free ecf_batch_cache_free_

/** The slot of `key`: its entry, or the empty slot where it would go;
 *  NULL while the cache is empty. */
rb_entry *cache_slot(rb_cache *c, const char *key);
/** Keeps a copy of (key, json, status) unless the byte bound is reached.
 *  Returns the kept document (the cache's, unchanged until cache_free:
 *  a chunk's records point to it instead of copying it), or NULL when
 *  the bound is reached. */
const char *cache_put(rb_cache *c, const char *key, const char *json,
                      int status);
void cache_free(rb_cache *c);

#endif
