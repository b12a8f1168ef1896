/*
 * render_explain.h - `--explain` for one plan, shared by `recommend` (rank
 * 1) and `estimate`: the training plans the search tried with the chosen
 * one's reason (render_train_plans.c), or the serving terms behind the
 * latency and the batch (render_serve_explain.c); as text and as JSON.
 */
#ifndef EC2FIT_RENDER_EXPLAIN_H
#define EC2FIT_RENDER_EXPLAIN_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "ec2fit/estimate.h"

/** One sentence on why the chosen training strategy won. */
const char *ecf_rr_chosen_reason(const ecf_estimate *e);
/** The "Training plans tried for TYPE x NODES" table and its "Chosen:"
 *  line; nothing when `e` tried no plans (serving, quiet estimates). */
void ecf_rr_print_plans_tried(FILE *f,
                          const ecf_estimate *e,
                          const char *type,
                          int nodes);
/** The "KV capacity" line (LLM serving): `indent`, the label padded to 17
 *  columns, then the tokens one replica's KV pool holds with thousands
 *  separators (docs/estimation.md, "KV capacity"). */
void ecf_rr_print_kv_capacity(FILE *f, const ecf_estimate *e, const char *indent);
/** The "Serving terms for TYPE x NODES" block; nothing for training or a
 *  quiet estimate. */
void ecf_rr_print_serve_terms(FILE *f,
                          const ecf_estimate *e,
                          const char *type,
                          int nodes);
/** Adds "serving_breakdown" (render_serve_explain.c). */
void ecf_rr_json_serve_terms(cJSON *o, const ecf_estimate *e);
/** Adds `--explain`'s keys to a plan's JSON object: "plans_tried" and
 *  "chosen_reason" (training), or "serving_breakdown" (serving). */
void ecf_rr_json_explain(cJSON *o, const ecf_estimate *e);

#endif
