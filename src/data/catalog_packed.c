/*
 * catalog_packed.c - the packed catalog: the build packs data/catalog.json
 * into a binary form that ecf_catalog_load_embedded reads without cJSON,
 * since a JSON load of the embedded catalog costs ~14 ms of a run that
 * should take a few. Both loaders produce the same structs and the same
 * invariants (catalog_load_json.c).
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

/* ------------------------------------------------------------------ */
/* Packed form                                                        */
/* ------------------------------------------------------------------ */

/*
 * The packed catalog is what the build embeds: tools/pack_catalog.c loads
 * data/catalog.json with ecf_catalog_load_buffer (so the build fails on a
 * bad catalog) and lays the result out as fixed-size records, so a run
 * loads it without parsing JSON or allocating per field. Layout, in host
 * byte order (recorded in the header); offsets count from the blob start:
 *
 *   pk_header                          magic, version, length, sections
 *   sources    pk_source[n]
 *   accels     pk_accel[n]
 *   instances  pk_instance[n]          prices as a [first, first + n) range
 *   order      uint32_t[n_instances]   instance indices sorted by type
 *   prices     pk_price[n]             region as an index into regions
 *   regions    uint32_t[n]             string offsets, sorted, distinct
 *   strings    char[n]                 NUL-terminated, deduplicated
 *
 * Strings are byte offsets into the string table; PK_NONE stands for NULL.
 * Records are copied out with memcpy, so the blob needs no alignment. The
 * loader trusts nothing: the header, every count and every section range
 * is checked against the blob length and the catalog limits before
 * anything is allocated, every offset and index before it is followed, and
 * every value invariant the JSON loader establishes (finite non-negative
 * numbers, enum ranges, sorted distinct regions and types, resolving
 * accelerator references) is checked again, because the same loader is fed
 * arbitrary bytes by the tests and possibly by a future cache.
 */

#define PK_MAGIC "ECFCAT1" /* 8 bytes with its NUL */
#define PK_VERSION 4u
#define PK_BYTE_ORDER 0x01020304u
#define PK_NONE UINT32_MAX
#define PK_MAX_SOURCES 1000u /* as load_sources */
#define PK_MAX_PRICES                                                        \
    ((uint32_t)ECF_CATALOG_MAX_INSTANCES * (uint32_t)ECF_CATALOG_MAX_REGIONS)

enum {
    PK_SOURCES,
    PK_ACCELS,
    PK_INSTANCES,
    PK_ORDER,
    PK_PRICES,
    PK_REGIONS,
    PK_STRINGS,
    PK_NSECTIONS
};

typedef struct {
    uint32_t offset; /* bytes from the start of the blob */
    uint32_t count;  /* records; bytes for the string table */
} pk_section;

typedef struct {
    char magic[8];           /* PK_MAGIC */
    uint32_t version;        /* PK_VERSION: bump on any layout change */
    uint32_t byte_order;     /* PK_BYTE_ORDER in the packer's byte order */
    uint32_t header_size;    /* sizeof(pk_header) */
    uint32_t total_len;      /* the whole blob, bytes */
    uint32_t schema_version; /* of the JSON it was packed from */
    uint32_t generated_at;   /* string */
    uint32_t as_of;          /* string */
    uint32_t reserved;       /* 0 */
    pk_section sec[PK_NSECTIONS];
} pk_header;

typedef struct {
    uint32_t id, origin, as_of; /* strings */
} pk_source;

typedef struct {
    uint32_t id, name, vendor, generation, confidence, source; /* strings */
    uint32_t kind;                                             /* ecf_accel_kind */
    uint32_t reserved;
    double memory_gb;
    double memory_bw_gbytes_s;
    double tflops[ECF_PREC_COUNT];
    double tdp_w;
} pk_accel;

typedef struct {
    uint32_t type, family; /* strings */
    int32_t vcpu;
    uint32_t arch;  /* ecf_arch */
    int32_t accel;  /* index into accels; -1 for CPU-only */
    int32_t accel_count;
    uint32_t link; /* ecf_link */
    int32_t efa_interfaces;
    uint32_t first_price, n_prices; /* range in the prices section */
    double memory_gib;
    double accel_memory_gib;
    double accel_fraction;
    double link_gbytes_s;
    double network_gbps;
    double efa_gbps;
    double ebs_gbps;
    double nvme_gb;
    double cpu_gflops_fp32, cpu_gflops_bf16, cpu_gflops_int8;
    double cpu_mem_gbytes_s;
} pk_instance;

typedef struct {
    uint32_t region; /* index into regions */
    int32_t spot_savings_pct;
    int32_t interruption_band;
    uint32_t reserved;
    double ondemand_usd_per_hour;
    double reserved_1y_usd_per_hour;
    double spot_usd_per_hour;
    double capacity_block_usd_per_hour;
    double savings_plan_1y_usd_per_hour;
    double savings_plan_3y_usd_per_hour;
} pk_price;

/* Every byte of a record is a named field, so records hold no padding and
 * the layout is the same under any ABI with 8-byte IEEE doubles. */
_Static_assert(sizeof(double) == 8, "packed catalog needs 8-byte doubles");
_Static_assert(sizeof(pk_header) == 96, "pk_header layout");
_Static_assert(sizeof(pk_source) == 12, "pk_source layout");
_Static_assert(sizeof(pk_accel) == 112, "pk_accel layout");
_Static_assert(sizeof(pk_instance) == 136, "pk_instance layout");
_Static_assert(sizeof(pk_price) == 64, "pk_price layout");

static const struct {
    const char *name;
    size_t size;    /* of one record */
    uint32_t limit; /* most records accepted */
} pk_sections[PK_NSECTIONS] = {
    {"sources", sizeof(pk_source), PK_MAX_SOURCES},
    {"accelerators", sizeof(pk_accel), ECF_CATALOG_MAX_ACCELERATORS},
    {"instances", sizeof(pk_instance), ECF_CATALOG_MAX_INSTANCES},
    {"order", sizeof(uint32_t), ECF_CATALOG_MAX_INSTANCES},
    {"prices", sizeof(pk_price), PK_MAX_PRICES},
    {"regions", sizeof(uint32_t), PK_MAX_PRICES},
    {"strings", 1, ECF_CATALOG_MAX_BYTES},
};

static size_t pk_align(size_t n)
{
    return (n + 7u) & ~(size_t)7u;
}

/* ---- packing ---- */

/* A string table under construction: bytes plus an open-addressing hash
 * set of offsets (stored + 1, so 0 is empty) for deduplication. */
typedef struct {
    ecf_buf bytes;
    uint32_t *slots;
    size_t n_slots; /* a power of two, at least twice the strings added */
} pk_strtab;

static uint32_t pk_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static uint32_t pk_intern(pk_strtab *t, const char *s)
{
    size_t i, off;
    if (!s)
        return PK_NONE;
    for (i = pk_hash(s) & (t->n_slots - 1); t->slots[i];
         i = (i + 1) & (t->n_slots - 1))
        if (strcmp(t->bytes.data + t->slots[i] - 1, s) == 0)
            return t->slots[i] - 1;
    off = t->bytes.len;
    ecf_buf_append(&t->bytes, s, strlen(s) + 1);
    /* offsets past 4 GiB wrap here but are refused by the size check in
     * ecf_catalog_pack before anything is written */
    t->slots[i] = (uint32_t)off + 1;
    return (uint32_t)off;
}

static void pk_put(unsigned char *blob, const pk_section *sec, size_t i,
                   const void *rec, size_t size)
{
    memcpy(blob + sec->offset + i * size, rec, size);
}

static size_t region_index(const ecf_catalog *cat, const char *region)
{
    char *const *hit = bsearch(&region, cat->regions, cat->n_regions,
                               sizeof(char *), region_cmp);
    return hit ? (size_t)(hit - cat->regions) : SIZE_MAX;
}

int ecf_catalog_pack(void **blob_out, size_t *len_out, const ecf_catalog *cat,
                     ecf_err *err)
{
    pk_strtab st = {ECF_BUF_INIT, NULL, 0};
    pk_header h;
    unsigned char *blob = NULL;
    size_t counts[PK_NSECTIONS];
    size_t i, k, n_prices = 0, n_strings, total, p;
    int rc = 0;

    *blob_out = NULL;
    *len_out = 0;
    for (i = 0; i < cat->n_instances; i++)
        n_prices += cat->instances[i].n_prices;

    /* Intern every string first: the table's size decides the layout. */
    n_strings = 2 + 3 * cat->n_sources + 6 * cat->n_accels +
                2 * cat->n_instances + cat->n_regions;
    for (st.n_slots = 16; st.n_slots < 2 * n_strings;)
        st.n_slots *= 2;
    st.slots = ecf_xcalloc(st.n_slots, sizeof(*st.slots));
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, PK_MAGIC, sizeof(h.magic));
    h.version = PK_VERSION;
    h.byte_order = PK_BYTE_ORDER;
    h.header_size = sizeof(h);
    h.schema_version = (uint32_t)cat->schema_version;
    h.generated_at = pk_intern(&st, cat->generated_at);
    h.as_of = pk_intern(&st, cat->as_of);
    for (i = 0; i < cat->n_sources; i++) {
        pk_intern(&st, cat->sources[i].id);
        pk_intern(&st, cat->sources[i].origin);
        pk_intern(&st, cat->sources[i].as_of);
    }
    for (i = 0; i < cat->n_accels; i++) {
        const ecf_accel *a = &cat->accels[i];
        pk_intern(&st, a->id);
        pk_intern(&st, a->name);
        pk_intern(&st, a->vendor);
        pk_intern(&st, a->generation);
        pk_intern(&st, a->confidence);
        pk_intern(&st, a->source);
    }
    for (i = 0; i < cat->n_instances; i++) {
        pk_intern(&st, cat->instances[i].type);
        pk_intern(&st, cat->instances[i].family);
    }
    for (i = 0; i < cat->n_regions; i++)
        pk_intern(&st, cat->regions[i]);

    counts[PK_SOURCES] = cat->n_sources;
    counts[PK_ACCELS] = cat->n_accels;
    counts[PK_INSTANCES] = cat->n_instances;
    counts[PK_ORDER] = cat->n_instances;
    counts[PK_PRICES] = n_prices;
    counts[PK_REGIONS] = cat->n_regions;
    counts[PK_STRINGS] = st.bytes.len;
    total = sizeof(h);
    for (i = 0; i < PK_NSECTIONS; i++) {
        if (counts[i] > pk_sections[i].limit) {
            rc = ecf_err_set(err, ECF_EINVAL,
                             "packed catalog: %zu %s exceed the limit of %lu",
                             counts[i], pk_sections[i].name,
                             (unsigned long)pk_sections[i].limit);
            goto out;
        }
        total = pk_align(total);
        h.sec[i].offset = (uint32_t)total;
        h.sec[i].count = (uint32_t)counts[i];
        total += counts[i] * pk_sections[i].size;
    }
    if (total > ECF_CATALOG_MAX_BYTES) {
        rc = ecf_err_set(err, ECF_EINVAL,
                         "packed catalog: %zu bytes exceed the catalog size "
                         "limit of %u bytes",
                         total, ECF_CATALOG_MAX_BYTES);
        goto out;
    }
    h.total_len = (uint32_t)total;

    /* calloc: padding between sections is zero, so the output is a pure
     * function of the catalog and the build is reproducible */
    blob = ecf_xcalloc(1, total);
    memcpy(blob, &h, sizeof(h));
    for (i = 0; i < cat->n_sources; i++) {
        pk_source r;
        r.id = pk_intern(&st, cat->sources[i].id);
        r.origin = pk_intern(&st, cat->sources[i].origin);
        r.as_of = pk_intern(&st, cat->sources[i].as_of);
        pk_put(blob, &h.sec[PK_SOURCES], i, &r, sizeof(r));
    }
    for (i = 0; i < cat->n_accels; i++) {
        const ecf_accel *a = &cat->accels[i];
        pk_accel r;
        memset(&r, 0, sizeof(r));
        r.id = pk_intern(&st, a->id);
        r.name = pk_intern(&st, a->name);
        r.vendor = pk_intern(&st, a->vendor);
        r.generation = pk_intern(&st, a->generation);
        r.confidence = pk_intern(&st, a->confidence);
        r.source = pk_intern(&st, a->source);
        r.kind = (uint32_t)a->kind;
        r.memory_gb = a->memory_gb;
        r.memory_bw_gbytes_s = a->memory_bw_gbytes_s;
        memcpy(r.tflops, a->tflops, sizeof(r.tflops));
        r.tdp_w = a->tdp_w;
        pk_put(blob, &h.sec[PK_ACCELS], i, &r, sizeof(r));
    }
    for (i = 0, p = 0; i < cat->n_instances; i++) {
        const ecf_instance *in = &cat->instances[i];
        pk_instance r;
        memset(&r, 0, sizeof(r));
        r.type = pk_intern(&st, in->type);
        r.family = pk_intern(&st, in->family);
        r.vcpu = in->vcpu;
        r.arch = (uint32_t)in->arch;
        r.accel = in->accel ? (int32_t)(in->accel - cat->accels) : -1;
        r.accel_count = in->accel_count;
        r.link = (uint32_t)in->link;
        r.efa_interfaces = in->efa_interfaces;
        r.first_price = (uint32_t)p;
        r.n_prices = (uint32_t)in->n_prices;
        r.memory_gib = in->memory_gib;
        r.accel_memory_gib = in->accel_memory_gib;
        r.accel_fraction = in->accel_fraction;
        r.link_gbytes_s = in->link_gbytes_s;
        r.network_gbps = in->network_gbps;
        r.efa_gbps = in->efa_gbps;
        r.ebs_gbps = in->ebs_gbps;
        r.nvme_gb = in->nvme_gb;
        r.cpu_gflops_fp32 = in->cpu_gflops_fp32;
        r.cpu_gflops_bf16 = in->cpu_gflops_bf16;
        r.cpu_gflops_int8 = in->cpu_gflops_int8;
        r.cpu_mem_gbytes_s = in->cpu_mem_gbytes_s;
        pk_put(blob, &h.sec[PK_INSTANCES], i, &r, sizeof(r));
        for (k = 0; k < in->n_prices; k++, p++) {
            const ecf_price *src = &in->prices[k];
            size_t ri = region_index(cat, src->region);
            pk_price pr;
            if (ri == SIZE_MAX) {
                rc = ecf_err_set(err, ECF_ERR,
                                 "packed catalog: region \"%s\" of %s is "
                                 "not interned",
                                 src->region, in->type);
                goto out;
            }
            memset(&pr, 0, sizeof(pr));
            pr.region = (uint32_t)ri;
            pr.spot_savings_pct = src->spot_savings_pct;
            pr.interruption_band = src->interruption_band;
            pr.ondemand_usd_per_hour = src->ondemand_usd_per_hour;
            pr.reserved_1y_usd_per_hour = src->reserved_1y_usd_per_hour;
            pr.spot_usd_per_hour = src->spot_usd_per_hour;
            pr.capacity_block_usd_per_hour = src->capacity_block_usd_per_hour;
            pr.savings_plan_1y_usd_per_hour =
                src->savings_plan_1y_usd_per_hour;
            pr.savings_plan_3y_usd_per_hour =
                src->savings_plan_3y_usd_per_hour;
            pk_put(blob, &h.sec[PK_PRICES], p, &pr, sizeof(pr));
        }
    }
    for (i = 0; i < cat->n_instances; i++) {
        uint32_t idx = (uint32_t)(cat->by_type[i] - cat->instances);
        pk_put(blob, &h.sec[PK_ORDER], i, &idx, sizeof(idx));
    }
    for (i = 0; i < cat->n_regions; i++) {
        uint32_t off = pk_intern(&st, cat->regions[i]);
        pk_put(blob, &h.sec[PK_REGIONS], i, &off, sizeof(off));
    }
    if (st.bytes.len)
        memcpy(blob + h.sec[PK_STRINGS].offset, st.bytes.data, st.bytes.len);
out:
    if (rc) {
        free(blob);
        blob = NULL;
        total = 0;
    }
    free(st.slots);
    ecf_buf_dispose(&st.bytes);
    *blob_out = blob;
    *len_out = total;
    return rc;
}

/* ---- loading ---- */

typedef struct {
    const char *name; /* for messages */
    ecf_err *err;
    const unsigned char *blob;
    const pk_header *h;
    const char *strings; /* the catalog's copy of the string table */
} pk_ctx;

static int pk_fail(const pk_ctx *p, const char *fmt, ...) ECF_PRINTF(2, 3);

static int pk_fail(const pk_ctx *p, const char *fmt, ...)
{
    char reason[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    return ecf_err_set(p->err, ECF_EPARSE, "%s: packed catalog: %s", p->name,
                       reason);
}

/* Copies record i of a section out of the blob; the caller has checked
 * the section range once, so i < count is all it needs. */
static void pk_get(const pk_ctx *p, int sec, size_t i, void *rec, size_t size)
{
    memcpy(rec, p->blob + p->h->sec[sec].offset + i * size, size);
}

static int pk_header_check(const pk_ctx *p, pk_header *h, size_t len)
{
    size_t i;
    if (len < sizeof(*h))
        return pk_fail(p, "truncated: %zu bytes, the header alone is %zu", len,
                       sizeof(*h));
    memcpy(h, p->blob, sizeof(*h));
    if (memcmp(h->magic, PK_MAGIC, sizeof(h->magic)) != 0)
        return pk_fail(p, "bad magic");
    if (h->byte_order != PK_BYTE_ORDER)
        return pk_fail(p, "byte order mismatch (packed on another kind of "
                          "host)");
    if (h->version != PK_VERSION)
        return pk_fail(p, "unsupported format version %lu (this ec2fit reads "
                          "version %u)",
                       (unsigned long)h->version, PK_VERSION);
    if (h->header_size != sizeof(*h))
        return pk_fail(p, "bad header size %lu", (unsigned long)h->header_size);
    if (len > ECF_CATALOG_MAX_BYTES)
        return pk_fail(p, "%zu bytes exceed the catalog size limit of %u bytes",
                       len, ECF_CATALOG_MAX_BYTES);
    if (h->total_len != len)
        return pk_fail(p, "truncated or padded: %zu bytes, the header says %lu",
                       len, (unsigned long)h->total_len);
    if (h->schema_version != ECF_CATALOG_SCHEMA_VERSION)
        return pk_fail(p, "unsupported schema version %lu (this ec2fit reads "
                          "version %d)",
                       (unsigned long)h->schema_version,
                       ECF_CATALOG_SCHEMA_VERSION);
    for (i = 0; i < PK_NSECTIONS; i++) {
        const pk_section *s = &h->sec[i];
        if (s->count > pk_sections[i].limit)
            return pk_fail(p, "%s: %lu entries exceed the limit of %lu",
                           pk_sections[i].name, (unsigned long)s->count,
                           (unsigned long)pk_sections[i].limit);
        /* count <= 64 Mi and size <= 112, so the product cannot overflow */
        if (s->offset < sizeof(*h) || s->offset > len ||
            (size_t)s->count * pk_sections[i].size > len - s->offset)
            return pk_fail(p, "%s: section at offset %lu (%lu entries) "
                              "runs past the end of the %zu-byte blob",
                           pk_sections[i].name, (unsigned long)s->offset,
                           (unsigned long)s->count, len);
    }
    if (h->sec[PK_ORDER].count != h->sec[PK_INSTANCES].count)
        return pk_fail(p, "order: %lu entries for %lu instances",
                       (unsigned long)h->sec[PK_ORDER].count,
                       (unsigned long)h->sec[PK_INSTANCES].count);
    if (h->sec[PK_STRINGS].count == 0 ||
        p->blob[h->sec[PK_STRINGS].offset + h->sec[PK_STRINGS].count - 1])
        return pk_fail(p, "string table is not NUL-terminated");
    return 0;
}

/* Resolves a string offset; `what`/`i`/`field` name it in messages like
 * the JSON path would ("instances[3].type"). Since the table ends in a NUL
 * (checked with the header), any in-range offset is a terminated string. */
static int pk_string(const pk_ctx *p, char **out, uint32_t off, bool required,
                     const char *what, size_t i, const char *field)
{
    *out = NULL;
    if (off == PK_NONE && !required)
        return 0;
    if (off >= p->h->sec[PK_STRINGS].count)
        return pk_fail(p, "%s[%zu].%s: string offset %lu out of range", what,
                       i, field, (unsigned long)off);
    *out = (char *)p->strings + off;
    return 0;
}

static int pk_number(const pk_ctx *p, double v, const char *what, size_t i,
                     const char *field)
{
    if (!isfinite(v) || v < 0)
        return pk_fail(p, "%s[%zu].%s: expected a non-negative number", what,
                       i, field);
    return 0;
}

/* Carves the catalog, its arrays and the string table copy out of one
 * allocation. Sizes are bounded by the header checks: every record needs
 * bytes in a blob of at most ECF_CATALOG_MAX_BYTES. */
static ecf_catalog *pk_alloc(const pk_header *h, ecf_price **prices_out,
                             char **strings_out)
{
    enum { SOURCES, ACCELS, INSTANCES, PRICES, BY_TYPE, REGIONS, STRINGS, N };
    const size_t align = _Alignof(max_align_t);
    const size_t size[N] = {
        h->sec[PK_SOURCES].count * sizeof(ecf_source),
        h->sec[PK_ACCELS].count * sizeof(ecf_accel),
        h->sec[PK_INSTANCES].count * sizeof(ecf_instance),
        h->sec[PK_PRICES].count * sizeof(ecf_price),
        h->sec[PK_ORDER].count * sizeof(ecf_instance *),
        h->sec[PK_REGIONS].count * sizeof(char *),
        h->sec[PK_STRINGS].count,
    };
    size_t off[N], total = sizeof(ecf_catalog), i;
    unsigned char *block;
    ecf_catalog *cat;

    for (i = 0; i < N; i++) {
        total = (total + align - 1) / align * align;
        off[i] = total;
        total += size[i];
    }
    block = ecf_xcalloc(1, total);
    /* the casts are safe: every offset is a multiple of max_align_t */
    cat = (ecf_catalog *)(void *)block;
    cat->packed = true;
    cat->sources = (ecf_source *)(void *)(block + off[SOURCES]);
    cat->accels = (ecf_accel *)(void *)(block + off[ACCELS]);
    cat->instances = (ecf_instance *)(void *)(block + off[INSTANCES]);
    cat->by_type = (const ecf_instance **)(void *)(block + off[BY_TYPE]);
    cat->regions = (char **)(void *)(block + off[REGIONS]);
    *prices_out = (ecf_price *)(void *)(block + off[PRICES]);
    *strings_out = (char *)(block + off[STRINGS]);
    return cat;
}

static int pk_load_sources(const pk_ctx *p, ecf_catalog *cat)
{
    size_t i;
    int rc = 0;
    for (i = 0; !rc && i < p->h->sec[PK_SOURCES].count; i++) {
        ecf_source *s = &cat->sources[i];
        pk_source r;
        pk_get(p, PK_SOURCES, i, &r, sizeof(r));
        rc = pk_string(p, &s->id, r.id, true, "sources", i, "id");
        if (!rc)
            rc = pk_string(p, &s->origin, r.origin, true, "sources", i,
                           "origin");
        if (!rc)
            rc = pk_string(p, &s->as_of, r.as_of, true, "sources", i, "as_of");
        if (!rc && !is_date(s->as_of))
            rc = pk_fail(p, "sources[%zu].as_of: expected a date YYYY-MM-DD",
                         i);
        cat->n_sources = i + 1;
    }
    return rc;
}

static int pk_load_accels(const pk_ctx *p, ecf_catalog *cat)
{
    static const char *const what = "accelerators";
    size_t i, j;
    int rc = 0, k;
    for (i = 0; !rc && i < p->h->sec[PK_ACCELS].count; i++) {
        ecf_accel *a = &cat->accels[i];
        pk_accel r;
        pk_get(p, PK_ACCELS, i, &r, sizeof(r));
        rc = pk_string(p, &a->id, r.id, true, what, i, "id");
        for (j = 0; !rc && j < i; j++)
            if (strcmp(cat->accels[j].id, a->id) == 0)
                rc = pk_fail(p, "%s[%zu].id: duplicate accelerator id \"%s\"",
                             what, i, a->id);
        if (!rc)
            rc = pk_string(p, &a->name, r.name, true, what, i, "name");
        if (!rc)
            rc = pk_string(p, &a->vendor, r.vendor, true, what, i, "vendor");
        if (!rc)
            rc = pk_string(p, &a->generation, r.generation, false, what, i,
                           "generation");
        if (!rc)
            rc = pk_string(p, &a->confidence, r.confidence, false, what, i,
                           "confidence");
        if (!rc)
            rc = pk_string(p, &a->source, r.source, false, what, i, "source");
        if (!rc && (r.kind < ECF_ACCEL_GPU || r.kind > ECF_ACCEL_OTHER))
            rc = pk_fail(p, "%s[%zu].kind: bad value %lu", what, i,
                         (unsigned long)r.kind);
        a->kind = (ecf_accel_kind)r.kind;
        a->memory_gb = r.memory_gb;
        a->memory_bw_gbytes_s = r.memory_bw_gbytes_s;
        a->tdp_w = r.tdp_w;
        if (!rc)
            rc = pk_number(p, a->memory_gb, what, i, "memory_gb");
        if (!rc)
            rc = pk_number(p, a->memory_bw_gbytes_s, what, i,
                           "memory_bw_gbytes_s");
        if (!rc)
            rc = pk_number(p, a->tdp_w, what, i, "tdp_w");
        for (k = 0; !rc && k < ECF_PREC_COUNT; k++) {
            a->tflops[k] = r.tflops[k];
            rc = pk_number(p, a->tflops[k], what, i, prec_names[k]);
        }
        cat->n_accels = i + 1;
    }
    return rc;
}

static int pk_load_regions(const pk_ctx *p, ecf_catalog *cat)
{
    size_t i;
    int rc = 0;
    for (i = 0; !rc && i < p->h->sec[PK_REGIONS].count; i++) {
        uint32_t off;
        pk_get(p, PK_REGIONS, i, &off, sizeof(off));
        rc = pk_string(p, &cat->regions[i], off, true, "regions", i, "name");
        if (!rc && !cat->regions[i][0])
            rc = pk_fail(p, "regions[%zu]: empty region name", i);
        /* sorted and distinct, as ecf_catalog_has_region's bsearch needs */
        if (!rc && i > 0 && strcmp(cat->regions[i - 1], cat->regions[i]) >= 0)
            rc = pk_fail(p, "regions[%zu]: \"%s\" out of order", i,
                         cat->regions[i]);
        cat->n_regions = i + 1;
    }
    return rc;
}

static int pk_load_prices(const pk_ctx *p, ecf_catalog *cat,
                          ecf_price *prices)
{
    static const char *const what = "prices";
    size_t i;
    int rc = 0;
    for (i = 0; !rc && i < p->h->sec[PK_PRICES].count; i++) {
        ecf_price *pr = &prices[i];
        pk_price r;
        pk_get(p, PK_PRICES, i, &r, sizeof(r));
        if (r.region >= cat->n_regions)
            return pk_fail(p, "%s[%zu].region: index %lu out of range", what,
                           i, (unsigned long)r.region);
        pr->region = cat->regions[r.region];
        pr->ondemand_usd_per_hour = r.ondemand_usd_per_hour;
        pr->reserved_1y_usd_per_hour = r.reserved_1y_usd_per_hour;
        pr->spot_usd_per_hour = r.spot_usd_per_hour;
        pr->capacity_block_usd_per_hour = r.capacity_block_usd_per_hour;
        pr->savings_plan_1y_usd_per_hour = r.savings_plan_1y_usd_per_hour;
        pr->savings_plan_3y_usd_per_hour = r.savings_plan_3y_usd_per_hour;
        pr->spot_savings_pct = r.spot_savings_pct;
        pr->interruption_band = r.interruption_band;
        rc = pk_number(p, pr->ondemand_usd_per_hour, what, i,
                       "ondemand_usd_per_hour");
        if (!rc && pr->ondemand_usd_per_hour <= 0)
            rc = pk_fail(p, "%s[%zu].ondemand_usd_per_hour: expected a "
                            "positive number",
                         what, i);
        /* ECF_PRICE_UNKNOWN is the only negative value allowed */
        if (!rc && pr->reserved_1y_usd_per_hour != ECF_PRICE_UNKNOWN)
            rc = pk_number(p, pr->reserved_1y_usd_per_hour, what, i,
                           "reserved_1y_usd_per_hour");
        if (!rc && pr->spot_usd_per_hour != ECF_PRICE_UNKNOWN)
            rc = pk_number(p, pr->spot_usd_per_hour, what, i,
                           "spot_usd_per_hour");
        if (!rc && pr->capacity_block_usd_per_hour != ECF_PRICE_UNKNOWN)
            rc = pk_number(p, pr->capacity_block_usd_per_hour, what, i,
                           "capacity_block_usd_per_hour");
        if (!rc && pr->savings_plan_1y_usd_per_hour != ECF_PRICE_UNKNOWN)
            rc = pk_number(p, pr->savings_plan_1y_usd_per_hour, what, i,
                           "savings_plan_1y_usd_per_hour");
        if (!rc && pr->savings_plan_3y_usd_per_hour != ECF_PRICE_UNKNOWN)
            rc = pk_number(p, pr->savings_plan_3y_usd_per_hour, what, i,
                           "savings_plan_3y_usd_per_hour");
        if (!rc && (pr->spot_savings_pct < -1000 || pr->spot_savings_pct >= 100))
            rc = pk_fail(p, "%s[%zu].spot_savings_pct: %d out of range", what,
                         i, pr->spot_savings_pct);
        if (!rc && (pr->interruption_band < -1 || pr->interruption_band > 4))
            rc = pk_fail(p, "%s[%zu].interruption_band: %d out of range", what,
                         i, pr->interruption_band);
    }
    return rc;
}

static int pk_load_instance(const pk_ctx *p, ecf_catalog *cat,
                            ecf_price *prices, size_t i)
{
    static const char *const what = "instances";
    const uint32_t n_prices = p->h->sec[PK_PRICES].count;
    ecf_instance *in = &cat->instances[i];
    pk_instance r;
    size_t k;
    int rc;

    pk_get(p, PK_INSTANCES, i, &r, sizeof(r));
    rc = pk_string(p, &in->type, r.type, true, what, i, "type");
    if (!rc && !in->type[0])
        rc = pk_fail(p, "%s[%zu].type: expected a non-empty string", what, i);
    if (!rc)
        rc = pk_string(p, &in->family, r.family, true, what, i, "family");
    if (rc)
        return rc;
    if (r.vcpu < 0)
        return pk_fail(p, "%s[%zu].vcpu: %ld out of range", what, i,
                       (long)r.vcpu);
    if (r.arch > ECF_ARCH_ARM64)
        return pk_fail(p, "%s[%zu].arch: bad value %lu", what, i,
                       (unsigned long)r.arch);
    if (r.link > ECF_LINK_OTHER)
        return pk_fail(p, "%s[%zu].link: bad value %lu", what, i,
                       (unsigned long)r.link);
    if (r.efa_interfaces < 0)
        return pk_fail(p, "%s[%zu].efa_interfaces: %ld out of range", what, i,
                       (long)r.efa_interfaces);
    if (r.accel < -1 || r.accel >= (int32_t)cat->n_accels)
        return pk_fail(p, "%s[%zu].accelerator: index %ld out of range", what,
                       i, (long)r.accel);
    if (r.accel < 0 ? r.accel_count != 0
                    : (r.accel_count < 1 || r.accel_count > 1024))
        return pk_fail(p, "%s[%zu].accelerator.count: %ld out of range", what,
                       i, (long)r.accel_count);
    if (!(r.accel_fraction > 0 && r.accel_fraction <= 1))
        return pk_fail(p, "%s[%zu].accelerator.fraction: out of range", what,
                       i);
    in->vcpu = r.vcpu;
    in->arch = (ecf_arch)r.arch;
    in->accel = r.accel < 0 ? NULL : &cat->accels[r.accel];
    in->accel_count = r.accel_count;
    in->link = (ecf_link)r.link;
    in->efa_interfaces = r.efa_interfaces;
    in->efa = r.efa_interfaces > 0;
    in->memory_gib = r.memory_gib;
    in->accel_memory_gib = r.accel_memory_gib;
    in->accel_fraction = r.accel_fraction;
    in->link_gbytes_s = r.link_gbytes_s;
    in->network_gbps = r.network_gbps;
    in->efa_gbps = r.efa_gbps;
    in->ebs_gbps = r.ebs_gbps;
    in->nvme_gb = r.nvme_gb;
    in->cpu_gflops_fp32 = r.cpu_gflops_fp32;
    in->cpu_gflops_bf16 = r.cpu_gflops_bf16;
    in->cpu_gflops_int8 = r.cpu_gflops_int8;
    in->cpu_mem_gbytes_s = r.cpu_mem_gbytes_s;
    rc = pk_number(p, in->memory_gib, what, i, "memory_gib");
    if (!rc)
        rc = pk_number(p, in->accel_memory_gib, what, i, "accel_memory_gib");
    if (!rc)
        rc = pk_number(p, in->link_gbytes_s, what, i, "link_gbytes_s");
    if (!rc)
        rc = pk_number(p, in->network_gbps, what, i, "network_gbps");
    if (!rc)
        rc = pk_number(p, in->efa_gbps, what, i, "efa_gbps");
    if (!rc)
        rc = pk_number(p, in->ebs_gbps, what, i, "ebs_gbps");
    if (!rc)
        rc = pk_number(p, in->nvme_gb, what, i, "nvme_gb");
    if (!rc)
        rc = pk_number(p, in->cpu_gflops_fp32, what, i, "cpu.gflops.fp32");
    if (!rc)
        rc = pk_number(p, in->cpu_gflops_bf16, what, i, "cpu.gflops.bf16");
    if (!rc)
        rc = pk_number(p, in->cpu_gflops_int8, what, i, "cpu.gflops.int8");
    if (!rc)
        rc = pk_number(p, in->cpu_mem_gbytes_s, what, i,
                       "cpu.memory_bw_gbytes_s");
    if (rc)
        return rc;

    if (r.first_price > n_prices || r.n_prices > n_prices - r.first_price ||
        r.n_prices > ECF_CATALOG_MAX_REGIONS)
        return pk_fail(p, "%s[%zu].prices: range %lu+%lu out of range", what,
                       i, (unsigned long)r.first_price,
                       (unsigned long)r.n_prices);
    in->prices = r.n_prices ? prices + r.first_price : NULL;
    in->n_prices = r.n_prices;
    /* sorted by region, as ecf_instance_price's binary search needs; the
     * regions section is sorted and distinct, so increasing indices are
     * increasing names */
    for (k = 1; k < in->n_prices; k++) {
        pk_price a, b;
        pk_get(p, PK_PRICES, r.first_price + k - 1, &a, sizeof(a));
        pk_get(p, PK_PRICES, r.first_price + k, &b, sizeof(b));
        if (a.region >= b.region)
            return pk_fail(p, "%s[%zu].prices: regions out of order", what, i);
    }
    return 0;
}

static int pk_load_order(const pk_ctx *p, ecf_catalog *cat)
{
    size_t i;
    /* strictly increasing types make the indices distinct, so n in-range
     * indices are a permutation and every type is unique */
    for (i = 0; i < cat->n_instances; i++) {
        uint32_t idx;
        pk_get(p, PK_ORDER, i, &idx, sizeof(idx));
        if (idx >= cat->n_instances)
            return pk_fail(p, "order[%zu]: index %lu out of range", i,
                           (unsigned long)idx);
        cat->by_type[i] = &cat->instances[idx];
        if (i > 0 &&
            strcmp(cat->by_type[i - 1]->type, cat->by_type[i]->type) >= 0)
            return pk_fail(p, "order[%zu]: \"%s\" out of order", i,
                           cat->by_type[i]->type);
    }
    return 0;
}

int ecf_catalog_load_packed(ecf_catalog **out, const void *blob, size_t len,
                            const char *name, ecf_err *err)
{
    pk_ctx p;
    pk_header h;
    ecf_catalog *cat = NULL;
    ecf_price *prices = NULL;
    char *strings = NULL;
    size_t i;
    int rc;

    *out = NULL;
    p.name = name;
    p.err = err;
    p.blob = blob;
    p.h = &h;
    p.strings = NULL;
    if (!blob)
        len = 0;
    rc = pk_header_check(&p, &h, len);
    if (rc)
        return rc;

    cat = pk_alloc(&h, &prices, &strings);
    memcpy(strings, p.blob + h.sec[PK_STRINGS].offset, h.sec[PK_STRINGS].count);
    p.strings = strings;
    cat->schema_version = (int)h.schema_version;
    rc = pk_string(&p, &cat->generated_at, h.generated_at, true, "header", 0,
                   "generated_at");
    if (!rc)
        rc = pk_string(&p, &cat->as_of, h.as_of, true, "header", 0, "as_of");
    if (!rc && !is_date(cat->as_of))
        rc = pk_fail(&p, "as_of: expected a date YYYY-MM-DD");
    if (!rc)
        rc = pk_load_sources(&p, cat);
    if (!rc)
        rc = pk_load_accels(&p, cat);
    if (!rc)
        rc = pk_load_regions(&p, cat);
    if (!rc)
        rc = pk_load_prices(&p, cat, prices);
    for (i = 0; !rc && i < h.sec[PK_INSTANCES].count; i++) {
        rc = pk_load_instance(&p, cat, prices, i);
        cat->n_instances = i + 1;
    }
    if (!rc)
        rc = pk_load_order(&p, cat);
    if (rc) {
        ecf_catalog_free(cat);
        cat = NULL;
    }
    *out = cat;
    return rc;
}

int ecf_catalog_load_embedded(ecf_catalog **out, ecf_err *err)
{
    const char *json;
    size_t len = 0;
#ifdef ECF_HAVE_EMBEDDED_CATALOG_PACKED
    len = (size_t)(ecf_embedded_catalog_packed_end -
                   ecf_embedded_catalog_packed);
    if (len > 0)
        return ecf_catalog_load_packed(out, ecf_embedded_catalog_packed, len,
                                       "embedded catalog", err);
#endif
    json = ecf_catalog_embedded(&len);
    if (!json) {
        *out = NULL;
        return ecf_err_set(err, ECF_EIO, "this build has no embedded catalog");
    }
    return ecf_catalog_load_buffer(out, json, len, "embedded catalog", err);
}
