/*
 * render_sink.h - where the recommendation's JSON members go (render_json.c,
 * render_fleet.c): a cJSON object or array (--output json, the library's
 * tree) or the compact text writer (each --batch line, ecf_jw), so one
 * function writes both, member for member in the same order.
 */
#ifndef EC2FIT_RENDER_RENDER_SINK_H
#define EC2FIT_RENDER_RENDER_SINK_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "ec2fit/json_write.h"
#include "render_common.h"

/* ------------------------------------------------------------------ */
/* The sink: a cJSON object/array (o) or the text writer (w)           */
/* ------------------------------------------------------------------ */

typedef struct {
    cJSON *o;  /* tree: the object or array members go into */
    ecf_jw *w; /* text: the writer (o unused) */
} rj;

/* A key of NULL adds an array element, as cJSON_AddItemToArray. */
static inline void rj_item(rj *j, const char *key, cJSON *item)
{
    if (key)
        cJSON_AddItemToObject(j->o, key, item);
    else
        cJSON_AddItemToArray(j->o, item);
}

static inline void rj_num(rj *j, const char *key, double v)
{
    if (j->w) {
        ecf_jw_key(j->w, key);
        ecf_jw_number(j->w, v);
    } else {
        rj_item(j, key, cJSON_CreateNumber(v));
    }
}

/* ecf_render_json_add_num */
static inline void rj_numr(rj *j, const char *key, double v, int decimals)
{
    rj_num(j, key, ecf_render_json_round(v, decimals));
}

/* A NULL string adds nothing, as cJSON_AddStringToObject. */
static inline void rj_str(rj *j, const char *key, const char *s)
{
    if (!s)
        return;
    if (j->w) {
        ecf_jw_key(j->w, key);
        ecf_jw_string(j->w, s);
    } else {
        rj_item(j, key, cJSON_CreateString(s));
    }
}

static inline void rj_null(rj *j, const char *key)
{
    if (j->w) {
        ecf_jw_key(j->w, key);
        ecf_jw_literal(j->w, "null");
    } else {
        rj_item(j, key, cJSON_CreateNull());
    }
}

static inline void rj_bool(rj *j, const char *key, bool b)
{
    if (j->w) {
        ecf_jw_key(j->w, key);
        ecf_jw_literal(j->w, b ? "true" : "false");
    } else {
        rj_item(j, key, cJSON_CreateBool(b));
    }
}

/* Opens an object ('{') or array ('[') member; rj_close ends it. */
static inline rj rj_open(rj *j, const char *key, char open)
{
    rj c = {NULL, j->w};
    if (j->w) {
        ecf_jw_key(j->w, key);
        ecf_jw_begin(j->w, open);
    } else {
        c.o = open == '{' ? cJSON_CreateObject() : cJSON_CreateArray();
        rj_item(j, key, c.o);
    }
    return c;
}

static inline void rj_close(rj *c, char close)
{
    if (c->w)
        ecf_jw_end(c->w, close);
}

#endif
