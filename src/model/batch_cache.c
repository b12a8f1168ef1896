/*
 * batch_cache.c - the batch engine's result cache: open addressing over
 * FNV-1a hashes of the canonical profile text (batch_internal.h).
 */
#include "batch_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/buf.h"

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211u;
    }
    return h;
}

rb_entry *cache_slot(rb_cache *c, const char *key)
{
    size_t i;
    if (c->cap == 0)
        return NULL;
    for (i = fnv1a(key) & (c->cap - 1);; i = (i + 1) & (c->cap - 1))
        if (!c->slots[i].key || strcmp(c->slots[i].key, key) == 0)
            return &c->slots[i];
}

const char *cache_put(rb_cache *c, const char *key, const char *json,
                      int status)
{
    rb_entry *e;
    size_t add = strlen(key) + strlen(json) + 2;
    if (c->bytes + add > RB_CACHE_MAX_BYTES)
        return NULL;
    if ((c->n + 1) * 2 > c->cap) {
        rb_entry *old = c->slots;
        size_t i, oldcap = c->cap;
        c->cap = c->cap ? c->cap * 2 : 256;
        c->slots = ecf_xcalloc(c->cap, sizeof(*c->slots));
        for (i = 0; i < oldcap; i++)
            if (old[i].key)
                *cache_slot(c, old[i].key) = old[i];
        free(old);
    }
    e = cache_slot(c, key);
    if (e->key)
        return e->json;
    e->key = ecf_xstrdup(key);
    e->json = ecf_xstrdup(json);
    e->status = status;
    c->n++;
    c->bytes += add;
    return e->json;
}

void cache_free(rb_cache *c)
{
    size_t i;
    for (i = 0; i < c->cap; i++) {
        free(c->slots[i].key);
        free(c->slots[i].json);
    }
    free(c->slots);
}
