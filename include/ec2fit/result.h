/**
 * ec2fit/result.h - a recommendation with what it was computed from: the
 * one struct every renderer takes (ec2fit/render.h), for `recommend`,
 * each `--batch` line and `tf-external` alike. All pointers are borrowed.
 */
#ifndef EC2FIT_RESULT_H
#define EC2FIT_RESULT_H

#include "ec2fit/images.h"
#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"
#include "ec2fit/estimate.h"
#include "ec2fit/light.h"
#include "ec2fit/ranges.h"
#include "ec2fit/recommend.h"
#include "ec2fit/rules.h"
#include "ec2fit/zoo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const ecf_catalog *cat;
    const char *catalog_label; /* "embedded", a path */
    long now; /* Unix seconds of "today", for the catalog's age
                 (ecf_catalog_age_days); 0 = unknown: age_days is null */
    const ecf_model *model;
    const ecf_workload *w;
    const ecf_recommend_opts *opts;
    const ecf_rules *rules;
    const ecf_recommendation *rec;
    int top;       /* plans shown */
    bool explain;  /* rejected types with reasons */
    bool color;    /* ANSI colour in the table */
    ecf_light_option light[2]; /* Lambda / Lightsail alternatives */
    size_t n_light;
    const ecf_images *images; /* image per stack (data/images.json); NULL:
                                 plans carry no image */
    const char *node_class;      /* karpenter: nodeClassRef name; NULL =
                                    "default" */
    const char *node_class_spec; /* karpenter: also an EC2NodeClass with this
                                    AMI alias family ("al2023",
                                    "bottlerocket"); NULL = none */
    const ecf_range_table *ranges; /* likely ranges of each figure
                                      (ecf_ranges_embedded); NULL: none */
    ecf_recommend_memo *memo; /* --batch: the thread's memo, which keeps
                                 the shown plans' estimator warnings;
                                 NULL = none */
} ecf_result;

#ifdef __cplusplus
}
#endif

#endif
