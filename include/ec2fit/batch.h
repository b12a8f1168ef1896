/**
 * ec2fit/batch.h - many recommendations in one call: JSON Lines of workload
 * profiles in (each line an object whose fields are `ec2fit recommend`'s
 * flags without the dashes), one compact JSON result per line out, in
 * input order (docs/output-schema.md, "Batch mode"; docs/library.md).
 *
 * The catalog, rules, zoo and light data are the caller's, loaded once.
 * Identical profiles are computed once; profiles that differ only in
 * fields the estimator does not read share their estimates; groups run on
 * up to 8 threads and the output does not depend on the scheduling.
 */
#ifndef EC2FIT_BATCH_H
#define EC2FIT_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ec2fit/catalog.h"
#include "ec2fit/estimate.h"
#include "ec2fit/light.h"
#include "ec2fit/recommend.h"
#include "ec2fit/result.h"
#include "ec2fit/rules.h"
#include "ec2fit/images.h"
#include "ec2fit/stacks.h"
#include "ec2fit/zoo.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

/** Turns one result into the JSON object printed for its line (without
 *  "line"); the engine prints it compact, then deletes it. The `recommend
 *  --output json` object is ecf_render_json_tree (ec2fit/render.h). */
typedef struct cJSON *(*ecf_batch_render_fn)(const ecf_result *r);
/** The same object as compact text, malloc'd (ecf_render_json_text):
 *  when set, the engine prints it instead of printing `render`'s tree. */
typedef char *(*ecf_batch_render_text_fn)(const ecf_result *r);

typedef struct {
    const ecf_catalog *cat;    /* required */
    const char *catalog_label; /* "embedded", a path: in each result */
    const ecf_rules *rules;    /* required */
    const ecf_zoo *zoo;        /* required: --model names are looked up here */
    const ecf_light *light;    /* NULL: no Lambda/Lightsail alternatives */
    int top;                   /* plans per line (recommend's --top) */
    bool explain;              /* rejected types with reasons */
    const char *default_region; /* for lines without "region"/"regions" */
    ecf_batch_render_fn render; /* required */
    int threads;               /* 0: one per core (at most 8) */
    const ecf_stacks *stacks;  /* NULL: the stack rule is not checked */
    const ecf_images *images;  /* NULL: plans carry no image */
    const char *default_region_origin; /* named in an error about
                                          default_region; NULL: "--region" */
    int *write_errno;          /* optional out: errno of the first failed
                                  write to `out`, 0 if none */
    int default_framework;     /* for lines without "framework" (the
                                  config file's), -1: pytorch */
    const struct ecf_storage_prices *storage_prices; /* NULL: storage is
                                  not costed */
    ecf_batch_render_text_fn render_text; /* optional: NULL prints
                                  render's tree */
    const ecf_range_table *ranges; /* likely ranges (ecf_ranges_embedded);
                                      NULL: plans carry none */
    long now; /* Unix seconds, for the catalog's age in each result; 0 =
                 unknown: age_days null (ecf_result.now) */
} ecf_batch_opts;

#define ECF_BATCH_OPTS_INIT                                                    \
    {                                                                          \
        NULL, "embedded", NULL, NULL, NULL, 5, false, "us-east-1", NULL, 0,    \
            NULL, NULL, NULL, NULL, -1, NULL, NULL, NULL, 0                    \
    }

/** Reads profiles from `in` to its end; writes one line per non-blank input
 *  line to `out`: the result object with "line" (its 1-based line number)
 *  first, or {"line":N,"error":"...","exit_code":2} for a bad line, whose
 *  message also goes to `diag` as "ec2fit: recommend: line N: ...".
 *  Returns the worst line status: 0 every line has a plan, 2 a line was
 *  bad, 3 a line has no plan (1 beats 2 beats 3 beats 0). A read error is
 *  the caller's to see (ferror(in)). */
int ecf_recommend_batch(FILE *in, FILE *out, FILE *diag,
                        const ecf_batch_opts *opts);

#ifdef __cplusplus
}
#endif

#endif
