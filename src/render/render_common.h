/* render_common.h - output helpers shared by list/show/recommend. */
#ifndef EC2FIT_CLI_RENDER_H
#define EC2FIT_CLI_RENDER_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "ec2fit/catalog.h"

/** {"source":LABEL, "as_of":..., "age_days":N, "generated_at":...};
 *  age_days from `now` (Unix seconds; 0 = unknown: null). */
cJSON *ecf_render_json_catalog_meta(const ecf_catalog *cat, const char *label,
                                    long now);
/** The accelerator of an instance as JSON (null for CPU-only types). */
cJSON *ecf_render_json_accelerator(const ecf_instance *in);
/** One price entry as JSON. */
cJSON *ecf_render_json_price(const ecf_price *p);
/** Hardware facts of an instance (no prices). */
cJSON *ecf_render_json_instance(const ecf_instance *in);
/** The one location representation of every JSON output (docs/
 *  output-schema.md "Regions and zone groups"): "region" is always the
 *  parent region, and a Local Zone or Wavelength location adds
 *  "zone_group" (us-west-2-lax-1 -> region us-west-2, zone_group
 *  us-west-2-lax-1), as recommend's plans and rejections print it. */
void ecf_render_json_add_location(cJSON *o, const char *location);
/** Prints a cJSON tree (formatted) followed by a newline and deletes it. */
void ecf_render_json_print(FILE *f, cJSON *root);
/** Adds a number rounded to `decimals` places (keeps JSON free of
 *  float noise such as 0.30000000000000004). */
cJSON *ecf_render_json_add_num(cJSON *obj, const char *key, double v, int decimals);
/** The value ecf_render_json_add_num stores. */
double ecf_render_json_round(double v, int decimals);
/** "8x A100 SXM4 40GB", "-" for CPU-only. */
void ecf_render_accel_label(char *buf, size_t n, const ecf_instance *in);
/** Writes a CSV field (quoted when needed). */
void ecf_render_csv_field(FILE *f, const char *s, int last);

#endif
