/*
 * recommend_internal.h - what the scorer's files share (recommend.c,
 * recommend_light.c). Internal to src/model.
 */
#ifndef EC2FIT_MODEL_RECOMMEND_INTERNAL_H
#define EC2FIT_MODEL_RECOMMEND_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/recommend.h"

#define HOURS_PER_MONTH 730.0 /* AWS's billing convention: 24 x 365 / 12 */

/* recommend_scale.c: true when plan `p` (more nodes) shortens the job by a
 * larger fraction than it adds to the cost of plan `b`. */
bool ecf_recommend_scale_out_pays_(const ecf_plan *b, const ecf_plan *p);
/* recommend_scale.c: whether to go on to n + 1 nodes when every wanted
 * purchase option k already has its plan, plans[at[k]]. */
bool ecf_recommend_scale_on_(bool scale, int n, int limit,
                             const ecf_plan *plans, const bool want[2],
                             const size_t at[2]);

#endif
