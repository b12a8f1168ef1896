/*
 * recommend_internal.h - what the scorer's files share (recommend.c,
 * recommend_light.c). Internal to src/model.
 */
#ifndef EC2FIT_MODEL_RECOMMEND_INTERNAL_H
#define EC2FIT_MODEL_RECOMMEND_INTERNAL_H

#define HOURS_PER_MONTH 730.0 /* AWS's billing convention: 24 x 365 / 12 */

#include "ec2fit/recommend.h"
#include "ec2fit/rules.h"

/* recommend_fleet.c: fills a serving plan and its rule input. */
void ecf_recommend_cost_serving(ecf_plan *p, ecf_rule_input *in,
                                const ecf_model *m, const ecf_workload *w,
                                const ecf_recommend_opts *o,
                                const ecf_estimate *e, const ecf_price *price,
                                bool spot, int group_nodes);
/* recommend_fleet.c: rank 1's Auto Scaling summary and CPU fallback. */
void ecf_recommend_fleet_summary(ecf_recommendation *r,
                                 const ecf_recommend_opts *o);

#endif
