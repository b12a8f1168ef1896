/*
 * catalog_internal.h - the catalog's struct and the helpers its files
 * share (catalog.c: names, freeing, queries; catalog_load_json.c: the JSON
 * loader; catalog_packed.c: the packed form). Internal to src/data.
 */
#ifndef EC2FIT_DATA_CATALOG_INTERNAL_H
#define EC2FIT_DATA_CATALOG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/catalog.h"

struct ecf_catalog {
    int schema_version;
    char *generated_at;
    char *as_of;
    ecf_source *sources;
    size_t n_sources;
    ecf_accel *accels;
    size_t n_accels;
    ecf_instance *instances;
    size_t n_instances;
    const ecf_instance **by_type; /* sorted by type, for bsearch */
    char **regions;               /* sorted, distinct, owned */
    size_t n_regions;
    /* Set by ecf_catalog_load_packed: the catalog, its arrays and a copy of
     * the string table are one allocation starting at the catalog itself,
     * so free(cat) releases everything and no field is freed alone. */
    bool packed;
};

#ifdef ECF_HAVE_EMBEDDED_CATALOG
extern const char ecf_embedded_catalog[];
extern const char ecf_embedded_catalog_end[];
#endif
/* data/catalog.json packed at build time by tools/pack_catalog.c (see
 * catalog_packed.c). The pack tool itself links a zero-length stand-in,
 * so an empty range means "no packed copy". */
#ifdef ECF_HAVE_EMBEDDED_CATALOG_PACKED
extern const unsigned char ecf_embedded_catalog_packed[];
extern const unsigned char ecf_embedded_catalog_packed_end[];
#endif

/* Shared by the loaders and the queries (small: inlined in each). */
static inline int region_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Interns region names: collected during instance loading (with
 * duplicates), then sorted and deduplicated, and price entries are
 * re-pointed at the interned copies. */
static inline const char *intern_lookup(const ecf_catalog *cat,
                                        const char *name)
{
    char *const *hit = bsearch(&name, cat->regions, cat->n_regions,
                               sizeof(char *), region_cmp);
    return hit ? *hit : NULL;
}

static inline int type_cmp(const void *a, const void *b)
{
    return strcmp((*(const ecf_instance *const *)a)->type,
                  (*(const ecf_instance *const *)b)->type);
}

/* Defined in catalog_load_json.c, used by catalog_packed.c too; the
 * macros give them library-wide names and keep the short ones in the code. */
#define prec_names ecf_catalog_prec_names_
#define is_date ecf_catalog_is_date_
extern const char *const prec_names[ECF_PREC_COUNT];
bool is_date(const char *s);

#endif
