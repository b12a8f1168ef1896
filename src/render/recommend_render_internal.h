/*
 * recommend_render_internal.h - helpers shared by the recommendation
 * renderers (render_table.c, render_json.c, render_csv.c,
 * render_markdown.c, render_tfvars.c), defined in recommend_render.c.
 */
#ifndef EC2FIT_RENDER_RECOMMEND_RENDER_INTERNAL_H
#define EC2FIT_RENDER_RECOMMEND_RENDER_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "recommend_render.h"

#define RR_SCHEMA_VERSION 2
#define MAX_CLOSEST 5

#define purchase rr_purchase_
#define marks_str rr_marks_str_
#define fmt_hours rr_fmt_hours_
#define fmt_usd rr_fmt_usd_
#define fmt_count rr_fmt_count_
#define shown rr_shown_
#define cost_basis_name rr_cost_basis_name_
#define workload_line rr_workload_line_
#define closest rr_closest_

const char *purchase(const ecf_plan *p);
void marks_str(char *buf, size_t n, unsigned marks);
void fmt_hours(char *buf, size_t n, double h);
void fmt_usd(char *buf, size_t n, double usd);
void fmt_count(char *buf, size_t n, double x);
size_t shown(const rr_view *v);
const char *cost_basis_name(ecf_cost_basis b);
void workload_line(char *buf, size_t n, const rr_view *v);
size_t closest(const ecf_rejection **out, size_t max,
                      const ecf_recommendation *r);
/* render_train_plans.c: --explain, the training plans tried for rank 1. */
void rr_print_train_plans(FILE *f, const rr_view *v);

#endif
