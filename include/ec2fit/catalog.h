/**
 * ec2fit/catalog.h - the instance catalog: load, validate, look up.
 *
 * The catalog is loaded once from JSON (the embedded copy, a cache written by
 * `ec2fit update`, or a user file), validated completely, and copied into
 * plain structs; no cJSON leaves the loader. A loaded catalog is immutable,
 * so every consumer takes `const ecf_catalog *`. Every pointer a getter
 * returns is borrowed and valid until ecf_catalog_free().
 *
 * Units are in the field names: _gib = 2^30 bytes, _gb = 10^9 bytes,
 * _gbps = gigabits per second, _gbytes_s = gigabytes per second.
 */
#ifndef EC2FIT_CATALOG_H
#define EC2FIT_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_CATALOG_SCHEMA_VERSION 1
/* Hard limits enforced by the loader (see docs/catalog.md). */
#define ECF_CATALOG_MAX_BYTES (64u * 1024u * 1024u)
#define ECF_CATALOG_MAX_INSTANCES 200000 /* 100x the embedded catalog (bench/) */
#define ECF_CATALOG_MAX_REGIONS 200
#define ECF_CATALOG_MAX_ACCELERATORS 500
/* Upper bounds on catalog numbers (docs/catalog.md "Limits"): 10x or more
 * above the largest value in data/catalog.json (2026 data), low enough that
 * products and quotients of catalog numbers stay finite and every integer
 * derived from them fits its type. A non-zero number is also at least
 * ECF_CATALOG_MIN_POSITIVE, so nothing divides by a denormal. */
#define ECF_CATALOG_MAX_VCPU 8192             /* catalog max: 896 */
#define ECF_CATALOG_MAX_MEMORY_GIB 262144.0   /* catalog max: 32,768 */
#define ECF_CATALOG_MAX_DEVICE_MEM_GB 16384.0 /* catalog max: 288 */
#define ECF_CATALOG_MAX_BW_GBYTES_S 1e6       /* catalog max: 8,000 */
#define ECF_CATALOG_MAX_TDP_W 100000.0        /* catalog max: 1,200 */
#define ECF_CATALOG_MAX_TFLOPS 1e6            /* catalog max: 5,000 */
#define ECF_CATALOG_MAX_CPU_GFLOPS 1e9        /* catalog max: 1.74e6 */
#define ECF_CATALOG_MAX_NET_GBPS 1e6          /* catalog max: 6,400 */
#define ECF_CATALOG_MAX_NVME_GB 1e8           /* catalog max: 335,520 */
#define ECF_CATALOG_MAX_EFA_INTERFACES 256    /* catalog max: 32 */
#define ECF_CATALOG_MAX_USD_PER_HOUR 100000.0 /* catalog max: 361 */
#define ECF_CATALOG_MIN_POSITIVE 1e-6
/* Identifiers (docs/catalog.md "Identifiers"): the characters AWS uses,
 * so a name can be written into YAML, HCL, Markdown, HTML, CSV and a
 * terminal without quoting surprises. */
#define ECF_CATALOG_MAX_TYPE_LEN 63
#define ECF_CATALOG_MAX_REGION_LEN 63

/** Numeric precisions. Index of ecf_accel.tflops. */
typedef enum {
    ECF_PREC_FP32 = 0,
    ECF_PREC_TF32,
    ECF_PREC_FP16,
    ECF_PREC_BF16,
    ECF_PREC_FP8,
    ECF_PREC_INT8,
    ECF_PREC_INT4,
    ECF_PREC_COUNT
} ecf_precision;

typedef enum {
    ECF_ACCEL_NONE = 0, /* CPU-only instance */
    ECF_ACCEL_GPU,
    ECF_ACCEL_NEURON, /* AWS Inferentia / Trainium */
    ECF_ACCEL_OTHER   /* Habana Gaudi, Qualcomm AI 100, ... */
} ecf_accel_kind;

typedef enum {
    ECF_LINK_NONE = 0,   /* single device */
    ECF_LINK_PCIE,       /* devices talk over PCIe (no NVLink) */
    ECF_LINK_NVLINK,     /* point-to-point NVLink (p3 hybrid cube mesh) */
    ECF_LINK_NVSWITCH,   /* all-to-all NVLink through NVSwitch */
    ECF_LINK_NEURONLINK, /* AWS NeuronLink */
    ECF_LINK_OTHER       /* e.g. Gaudi on-chip RoCE */
} ecf_link;

typedef enum { ECF_ARCH_X86_64 = 0, ECF_ARCH_ARM64 } ecf_arch;

/** One accelerator model (datasheet figures, dense, per device). */
typedef struct {
    char *id;            /* "a100-40gb" */
    char *name;          /* "A100 SXM4 40GB" */
    char *vendor;        /* "NVIDIA" */
    char *generation;    /* "ampere", "hopper", "neuron-v2", ... */
    ecf_accel_kind kind;
    double memory_gb;    /* datasheet memory, 10^9 bytes */
    double memory_bw_gbytes_s; /* peak memory bandwidth, GB/s; 0 = unknown */
    double tflops[ECF_PREC_COUNT]; /* dense peak; 0 = not supported/unknown */
    double tdp_w;        /* 0 = unknown */
    char *confidence;    /* high | medium | low */
    char *source;
} ecf_accel;

#define ECF_PRICE_UNKNOWN (-1.0)
/* The AWS Spot Instance Advisor's savings scale tops out at 90 % (AWS:
 * spot saves "up to 90%" off on-demand; the 2025-06-28 feed's maximum is
 * 90, on 209 Linux rows). A value at the ceiling is censored, and
 * p5en.48xlarge us-west-1 (s = 90) traded at its on-demand price, $79.12,
 * in dstack PR #4110 (2026-08-06): such rows get no spot estimate. */
#define ECF_SPOT_SAVINGS_CEILING_PCT 90

/** Prices of one instance type in one region. */
typedef struct {
    const char *region;             /* "us-east-1" (interned in the catalog) */
    double ondemand_usd_per_hour;   /* Linux, shared tenancy */
    double reserved_1y_usd_per_hour;/* 1-yr standard no-upfront; <0 unknown */
    double spot_usd_per_hour;       /* estimated from savings; <0 unknown */
    int spot_savings_pct;           /* vs on-demand; may be negative */
    int interruption_band;          /* 0..4 spot-advisor range; -1 unknown */
    double capacity_block_usd_per_hour; /* Capacity Blocks for ML: the
                                       published effective instance hourly
                                       rate of a reservation; <= 0 none
                                       (docs/rules.md, "Capacity
                                       Blocks for ML") */
    double savings_plan_1y_usd_per_hour; /* the lowest no-upfront 1-year
                                       Savings Plan rate AWS publishes
                                       (EC2 Instance, else Compute); <= 0
                                       none: savings-plan-1y is then the
                                       1-year reserved rate, estimated */
    double savings_plan_3y_usd_per_hour; /* the same, 3-year; <= 0 none:
                                       on-demand x (1 -
                                       ECF_SP_COMPUTE_MAX_DISCOUNT),
                                       estimated */
} ecf_price;

typedef struct {
    char *type;      /* "p4d.24xlarge" */
    char *family;    /* "p4d" */
    int vcpu;
    double memory_gib;
    ecf_arch arch;
    /* accelerator: accel == NULL and accel_count == 0 for CPU-only types */
    const ecf_accel *accel;
    int accel_count;
    double accel_memory_gib;  /* usable per device as EC2 reports it */
    double accel_fraction;    /* 1 = whole devices; <1 = a fractional GPU
                                 partition (g6f), which scales compute */
    ecf_link link;
    double link_gbytes_s;     /* per device, 0 when unknown / PCIe */
    /* Host CPU of a CPU-only type (catalog "cpu", from cpu_families.csv:
     * vCPUs x FLOPs/cycle x sustained clock, x the ISA's bf16/int8
     * multiplier); 0 = unknown (the estimator's generic figures apply). */
    double cpu_gflops_fp32, cpu_gflops_bf16, cpu_gflops_int8;
    double cpu_mem_gbytes_s;  /* DRAM peak share of these vCPUs */
    double network_gbps;      /* baseline */
    bool efa;
    int efa_interfaces;
    double efa_gbps;
    double ebs_gbps;
    double nvme_gb;           /* total local instance store, 0 = none */
    ecf_price *prices;        /* sorted by region name */
    size_t n_prices;
} ecf_instance;

/** One data source recorded in the catalog metadata. */
typedef struct {
    char *id;
    char *origin;
    char *as_of;  /* YYYY-MM-DD */
} ecf_source;

typedef struct ecf_catalog ecf_catalog;

/** Parses and validates a catalog held in memory. `name` is used in error
 *  messages ("catalog.json: instances[12].vcpu: expected ..."). On success
 *  *out is the caller's, freed with ecf_catalog_free(); NULL on failure.
 *  Errors: ECF_EPARSE (syntax, with byte offset, or schema), ECF_EINVAL
 *  (over a limit). */
int ecf_catalog_load_buffer(ecf_catalog **out, const char *data, size_t len,
                            const char *name, ecf_err *err);

/** Dates may lie at most this far ahead of "now" (clock skew between the
 *  machine that wrote a catalog and this one; docs/security.md). */
#define ECF_CATALOG_MAX_FUTURE_S 86400L

/** The clock half of date validation (the loader checks the calendar):
 *  as_of, generated_at's date and every source's as_of may not be more
 *  than a day after `now` (Unix seconds, passed in: the core reads no
 *  clock). Errors: ECF_EPARSE "NAME: as_of: 2099-01-01 is in the future
 *  (more than a day ahead of today)". */
int ecf_catalog_check_dates(const ecf_catalog *cat, const char *name,
                            long now, ecf_err *err);

/** The catalog's age in whole days: the date of `now` (Unix seconds,
 *  passed in: the core reads no clock) minus as_of. 0 when as_of is today
 *  or (within the clock skew ecf_catalog_check_dates allows) tomorrow; -1
 *  when now <= 0 (unknown) or as_of is not a date. Shown as `age_days`
 *  beside `as_of` (docs/output-schema.md). */
long ecf_catalog_age_days(const ecf_catalog *cat, long now);

/** Reads a file and calls ecf_catalog_load_buffer. Errors also ECF_EIO. */
int ecf_catalog_load_file(ecf_catalog **out, const char *path, ecf_err *err);

/** The catalog embedded at build time, or NULL in a build without one. */
const char *ecf_catalog_embedded(size_t *len_out);

/** Loads the catalog embedded at build time: the packed copy made from
 *  data/catalog.json by tools/pack_catalog.c when the build has one (no
 *  JSON parse; about 100x cheaper), else the embedded JSON. Messages name
 *  it "embedded catalog". On success *out is the caller's, freed with
 *  ecf_catalog_free(); NULL on failure. Errors: ECF_EIO (no embedded
 *  catalog in this build), else as ecf_catalog_load_packed() or
 *  ecf_catalog_load_buffer(). */
int ecf_catalog_load_embedded(ecf_catalog **out, ecf_err *err);

/** Serialises a loaded catalog into one self-contained blob, the format
 *  ecf_catalog_load_packed() reads (layout: "Packed form" in catalog.c).
 *  The blob is in this host's byte order and records it; it is a pure
 *  function of the catalog, so builds are reproducible. On success
 *  *blob_out is the caller's, freed with free(), and *len_out its size in
 *  bytes; NULL and 0 on failure. Errors: ECF_EINVAL (the blob would exceed
 *  ECF_CATALOG_MAX_BYTES or a limit), ECF_ERR (inconsistent catalog). */
int ecf_catalog_pack(void **blob_out, size_t *len_out, const ecf_catalog *cat,
                     ecf_err *err);

/** Loads a blob made by ecf_catalog_pack(). Nothing in the blob is
 *  trusted: the header, every count, offset and index are checked against
 *  `len` and the catalog limits, and values against the same invariants
 *  ecf_catalog_load_buffer() enforces, so any bytes are safe to pass. The
 *  blob needs no alignment, and it is not referenced after the call: the
 *  catalog is a single allocation that includes a copy of the string table
 *  (one memcpy), so the blob may be freed at once. On success *out is the
 *  caller's, freed with ecf_catalog_free(); NULL on failure. Errors:
 *  ECF_EPARSE "NAME: packed catalog: REASON" for a truncated, corrupt or
 *  foreign (other format version or byte order) blob. */
int ecf_catalog_load_packed(ecf_catalog **out, const void *blob, size_t len,
                            const char *name, ecf_err *err);

void ecf_catalog_free(ecf_catalog *cat);

size_t ecf_catalog_count(const ecf_catalog *cat);
const ecf_instance *ecf_catalog_at(const ecf_catalog *cat, size_t i);
/** Exact, case-sensitive lookup; NULL when absent. */
const ecf_instance *ecf_catalog_find(const ecf_catalog *cat, const char *type);

size_t ecf_catalog_accel_count(const ecf_catalog *cat);
const ecf_accel *ecf_catalog_accel_at(const ecf_catalog *cat, size_t i);
const ecf_accel *ecf_catalog_accel_find(const ecf_catalog *cat, const char *id);

/** Sorted, distinct region names that have any price. */
size_t ecf_catalog_region_count(const ecf_catalog *cat);
const char *ecf_catalog_region_at(const ecf_catalog *cat, size_t i);
bool ecf_catalog_has_region(const ecf_catalog *cat, const char *region);

/** Metadata. as_of is the newest price source date (YYYY-MM-DD). */
const char *ecf_catalog_as_of(const ecf_catalog *cat);
const char *ecf_catalog_generated_at(const ecf_catalog *cat);
size_t ecf_catalog_source_count(const ecf_catalog *cat);
const ecf_source *ecf_catalog_source_at(const ecf_catalog *cat, size_t i);

/** The price of `inst` in `region`, or NULL when it has none there. */
const ecf_price *ecf_instance_price(const ecf_instance *inst,
                                    const char *region);

/** Short names for enums, as used in JSON and tables. */
const char *ecf_precision_name(ecf_precision p);
/** Parses "fp32", "bf16", ...; returns -1 for an unknown name. */
int ecf_precision_parse(const char *s);
const char *ecf_accel_kind_name(ecf_accel_kind k);
const char *ecf_link_name(ecf_link l);
const char *ecf_arch_name(ecf_arch a);

#ifdef __cplusplus
}
#endif

#endif
