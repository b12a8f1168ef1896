/*
 * recommend_internal.h - what the scorer's files share (recommend.c,
 * recommend_light.c). Internal to src/model.
 */
#ifndef EC2FIT_MODEL_RECOMMEND_INTERNAL_H
#define EC2FIT_MODEL_RECOMMEND_INTERNAL_H

#define HOURS_PER_MONTH 730.0 /* AWS's billing convention: 24 x 365 / 12 */

#endif
