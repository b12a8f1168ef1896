/* recommend_render.h - the output formats of `ec2fit recommend`. */
#ifndef EC2FIT_RECOMMEND_RENDER_H
#define EC2FIT_RECOMMEND_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "ec2fit/catalog.h"
#include "ec2fit/estimate.h"
#include "ec2fit/images.h"
#include "ec2fit/recommend.h"
#include "ec2fit/result.h"
#include "ec2fit/rules.h"
#include "ec2fit/zoo.h"

/* The result struct of ec2fit/result.h (its fields, under the renderers'
 * historical name). */
typedef ecf_result rr_view;

/** Computes the Lambda / Lightsail alternatives (serving only). */
void ecf_rr_light_alternatives(rr_view *v);

void ecf_rr_print_table(FILE *f, const rr_view *v);
/** Serving: rank 1's purchase options and Auto Scaling group as an HTML
 *  section (render_fleet.c; --output html). */
void ecf_rr_print_fleet_html(FILE *f, const rr_view *v);
void ecf_rr_print_json(FILE *f, const rr_view *v);
/** The --output json object, the caller's (cJSON_Delete): batch mode
 *  prints it compact on one line. */
struct cJSON *ecf_rr_json(const rr_view *v);
/** Adds the "ranges" object of ec2fit/ranges.h to a cJSON object
 *  (`ec2fit estimate`'s output; render_ranges.c). */
void ecf_rr_json_ranges_tree(struct cJSON *o, const ecf_ranges *rg);
/** The same object as compact text (ecf_json_print of ecf_rr_json), written
 *  without a tree: malloc'd, the caller's (each --batch line). */
char *ecf_rr_json_text(const rr_view *v);
void ecf_rr_print_csv(FILE *f, const rr_view *v);
void ecf_rr_print_markdown(FILE *f, const rr_view *v);
void ecf_rr_print_tfvars(FILE *f, const rr_view *v);
/** Karpenter NodePool spec.template.spec.requirements (YAML): the top
 *  --top feasible types, deduplicated, and the capacity types among them.
 *  Needs at least one plan (render_karpenter.c). */
void ecf_rr_print_karpenter(FILE *f, const rr_view *v);
/** One self-contained HTML page (no external assets, no script): the
 *  workload, the ranked table, a cost-versus-time SVG scatter, the top
 *  plan's memory breakdown, assumptions and catalog date (render_html.c). */
void ecf_rr_print_html(FILE *f, const rr_view *v);
/** --output ecs: ECS RegisterTaskDefinition, CreateCapacityProvider and
 *  CreateService inputs for the rank-1 serving plan (render_ecs.c).
 *  Returns 0; 3 after a message on `errf` when one replica of rank 1
 *  spans several instances (an ECS task runs on one); 1 after a message
 *  when the plan has no ECS image. Needs at least one plan. */
int ecf_rr_print_ecs(FILE *f, FILE *errf, const rr_view *v);
/** --output cloudwatch: PutMetricAlarm and EventBridge PutRule inputs for
 *  the rank-1 serving plan (render_cloudwatch.c). Needs a plan. */
void ecf_rr_print_cloudwatch(FILE *f, const rr_view *v);
/** `tf-external`'s object: rank 1, every value a string. Needs at least
 *  one plan (render_tf_external.c). */
void ecf_rr_print_tf_external(FILE *f, const rr_view *v);
/** One line on stderr for machine formats when no plan exists, naming the
 *  command the user ran (`cmd`: "recommend", or "tf-external", which runs
 *  the recommend pipeline). */
void ecf_rr_print_no_plan_stderr(FILE *f, const rr_view *v, const char *cmd);

#endif
