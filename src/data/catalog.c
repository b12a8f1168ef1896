/*
 * catalog.c - the instance catalog's enum names, freeing and queries (the
 * getters of ec2fit/catalog.h). Loading is catalog_load_json.c (JSON,
 * validated) and catalog_packed.c (the packed form the build embeds);
 * the struct is catalog_internal.h.
 */
#include "ec2fit/catalog.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/buf.h"

#include "catalog_internal.h"

const char *ecf_catalog_embedded(size_t *len_out)
{
#ifdef ECF_HAVE_EMBEDDED_CATALOG
    *len_out = (size_t)(ecf_embedded_catalog_end - ecf_embedded_catalog);
    return ecf_embedded_catalog;
#else
    *len_out = 0;
    return NULL;
#endif
}

/* ------------------------------------------------------------------ */
/* Freeing                                                            */
/* ------------------------------------------------------------------ */

static void accel_dispose(ecf_accel *a)
{
    free(a->id);
    free(a->name);
    free(a->vendor);
    free(a->generation);
    free(a->confidence);
    free(a->source);
}

static void instance_dispose(ecf_instance *in)
{
    free(in->type);
    free(in->family);
    free(in->prices);
}

void ecf_catalog_free(ecf_catalog *cat)
{
    size_t i;
    if (!cat)
        return;
    if (cat->packed) {
        free(cat);
        return;
    }
    free(cat->generated_at);
    free(cat->as_of);
    for (i = 0; i < cat->n_sources; i++) {
        free(cat->sources[i].id);
        free(cat->sources[i].origin);
        free(cat->sources[i].as_of);
    }
    free(cat->sources);
    for (i = 0; i < cat->n_accels; i++)
        accel_dispose(&cat->accels[i]);
    free(cat->accels);
    for (i = 0; i < cat->n_instances; i++)
        instance_dispose(&cat->instances[i]);
    free(cat->instances);
    free(cat->by_type);
    for (i = 0; i < cat->n_regions; i++)
        free(cat->regions[i]);
    free(cat->regions);
    free(cat);
}

/* ------------------------------------------------------------------ */
/* Getters                                                            */
/* ------------------------------------------------------------------ */

size_t ecf_catalog_count(const ecf_catalog *cat)
{
    return cat->n_instances;
}

const ecf_instance *ecf_catalog_at(const ecf_catalog *cat, size_t i)
{
    return i < cat->n_instances ? &cat->instances[i] : NULL;
}

const ecf_instance *ecf_catalog_find(const ecf_catalog *cat, const char *type)
{
    ecf_instance key;
    const ecf_instance *kp = &key;
    const ecf_instance *const *hit;
    key.type = (char *)type;
    hit = bsearch(&kp, cat->by_type, cat->n_instances, sizeof(*cat->by_type),
                  type_cmp);
    return hit ? *hit : NULL;
}

size_t ecf_catalog_accel_count(const ecf_catalog *cat)
{
    return cat->n_accels;
}

const ecf_accel *ecf_catalog_accel_at(const ecf_catalog *cat, size_t i)
{
    return i < cat->n_accels ? &cat->accels[i] : NULL;
}

const ecf_accel *ecf_catalog_accel_find(const ecf_catalog *cat, const char *id)
{
    size_t i;
    for (i = 0; i < cat->n_accels; i++)
        if (cat->accels[i].id && strcmp(cat->accels[i].id, id) == 0)
            return &cat->accels[i];
    return NULL;
}

size_t ecf_catalog_region_count(const ecf_catalog *cat)
{
    return cat->n_regions;
}

const char *ecf_catalog_region_at(const ecf_catalog *cat, size_t i)
{
    return i < cat->n_regions ? cat->regions[i] : NULL;
}

bool ecf_catalog_has_region(const ecf_catalog *cat, const char *region)
{
    return intern_lookup(cat, region) != NULL;
}

const char *ecf_catalog_as_of(const ecf_catalog *cat)
{
    return cat->as_of;
}

const char *ecf_catalog_generated_at(const ecf_catalog *cat)
{
    return cat->generated_at;
}

size_t ecf_catalog_source_count(const ecf_catalog *cat)
{
    return cat->n_sources;
}

const ecf_source *ecf_catalog_source_at(const ecf_catalog *cat, size_t i)
{
    return i < cat->n_sources ? &cat->sources[i] : NULL;
}

const ecf_price *ecf_instance_price(const ecf_instance *inst,
                                    const char *region)
{
    size_t lo = 0, hi = inst->n_prices;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(inst->prices[mid].region, region);
        if (c == 0)
            return &inst->prices[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
