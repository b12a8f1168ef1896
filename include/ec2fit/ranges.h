/**
 * ec2fit/ranges.h - likely ranges around the estimator's point figures,
 * from the calibration residuals (measured / predicted) of the nearest
 * workload class (docs/estimation.md, "Ranges").
 *
 * A range table is data: the build computes it from
 * tests/fixtures/calibration.json with tools/calib_report.c (the same row
 * evaluation the calibration gate runs) and compiles it into the library
 * (ecf_ranges_embedded), so it moves whenever the estimator or the
 * calibration set does. The functions here are pure: no I/O, no globals;
 * everything they return points into the table or is static.
 */
#ifndef EC2FIT_RANGES_H
#define EC2FIT_RANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"
#include "ec2fit/estimate.h"
#include "ec2fit/recommend.h"
#include "ec2fit/zoo.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The calibration kinds a range is read from (docs/calibration.md). */
typedef enum {
    ECF_RANGE_TRAIN_THROUGHPUT = 0,
    ECF_RANGE_TIME_TO_TRAIN,
    ECF_RANGE_INFER_THROUGHPUT,
    ECF_RANGE_INFER_LATENCY,
    ECF_RANGE_MEMORY,
    ECF_RANGE_KIND_COUNT
} ecf_range_kind;

/** Coarsening levels, finest first: a class is used when it holds at
 *  least the table's min_rows rows, else the next level is tried. */
typedef enum {
    ECF_RANGE_LEVEL_CLASS = 0, /* family x task x generation x engine */
    ECF_RANGE_LEVEL_ENGINE,    /* family x task x engine */
    ECF_RANGE_LEVEL_TASK,      /* family x task */
    ECF_RANGE_LEVEL_FAMILY,    /* family */
    ECF_RANGE_LEVEL_KIND,      /* every row of the kind */
    ECF_RANGE_LEVEL_COUNT
} ecf_range_level;

/** A workload's class. The strings are static or borrowed from the
 *  instance's accelerator. */
typedef struct {
    const char *family;     /* ecf_model_kind_name: "decoder", "cnn", ... */
    const char *task;       /* "train", "finetune", "lora" (qlora too),
                               "infer", "batch" */
    const char *generation; /* accelerator generation ("hopper"), "cpu" */
    const char *engine;     /* serving: ecf_engine_name of the engine the
                               estimator picks; training: the framework */
} ecf_range_key;

/** One row of a range table: the factors a figure is multiplied by.
 *  Factors are for durations (measured / predicted time, latency or
 *  memory); a throughput's range is its value divided by them. */
typedef struct {
    ecf_range_kind kind;
    ecf_range_level level;
    const char *family, *task, *generation, *engine; /* NULL: any */
    double low, high; /* low <= 1 <= high */
    int rows;         /* calibration rows behind it */
} ecf_range_class;

typedef struct {
    const ecf_range_class *classes;
    size_t n;
    int min_rows;        /* rows a class needs before it is used */
    double lo_pct, hi_pct; /* the percentiles the factors come from */
    const char *source;  /* "tests/fixtures/calibration.json" */
} ecf_range_table;

/** The table the build computed (never NULL; n = 0 in a build that could
 *  not run the generator, and then no range is set). */
const ecf_range_table *ecf_ranges_embedded(void);

/** "train_throughput", "time_to_train", ... (the calibration kind). */
const char *ecf_range_kind_name(ecf_range_kind k);

/** The class of `m` under `w` (a resolved workload) on `inst`. */
void ecf_range_key_of(ecf_range_key *out, const ecf_model *m,
                      const ecf_workload *w, const ecf_instance *inst);

/** The finest class of `kind` in `t` that matches `key` (borrowed from
 *  `t`), or NULL when the table has no row of that kind. */
const ecf_range_class *ecf_range_lookup(const ecf_range_table *t,
                                        ecf_range_kind kind,
                                        const ecf_range_key *key);

/** Writes "decoder/infer/hopper/vllm" (the class's fields, "*" for any)
 *  into buf; returns buf. */
char *ecf_range_class_label(char *buf, size_t len, const ecf_range_class *c);

/** One figure's range. set = false: none (the figure is absent, or the
 *  table has no class for it). */
typedef struct {
    bool set;
    double value, low, high; /* low <= value <= high */
    const ecf_range_class *basis;
    /* total_usd of a capacity-block plan only: the high bound's time needs
     * more than the longest Capacity Block (ECF_CB_MAX_DAYS), so `high` is
     * that block's cost and the range is open above it */
    bool high_past_block;
} ecf_fig_range;

/** The ranges of one plan or estimate. */
typedef struct {
    ecf_fig_range time_hours;
    ecf_fig_range throughput;
    ecf_fig_range latency_ms;
    ecf_fig_range ttft_ms;
    ecf_fig_range per_token_ms;
    ecf_fig_range memory_gib; /* required per device */
    ecf_fig_range total_usd;
    ecf_fig_range monthly_usd;
} ecf_ranges;

/** Ranges of a ranked plan of `m` under the resolved workload `w`.
 *  `serving`: the recommendation's (ecf_recommendation.serving). */
void ecf_ranges_for_plan(ecf_ranges *out, const ecf_range_table *t,
                         const ecf_model *m, const ecf_workload *w,
                         bool serving, const ecf_plan *p);

/** Ranges of one estimate (`ec2fit estimate`); total_usd is the job's
 *  cost (0: none). */
void ecf_ranges_for_estimate(ecf_ranges *out, const ecf_range_table *t,
                             const ecf_model *m, const ecf_workload *w,
                             const ecf_instance *inst, const ecf_estimate *e,
                             double total_usd);

#ifdef __cplusplus
}
#endif

#endif
