/**
 * ec2fit/render.h - the output formats of a recommendation. A renderer
 * takes a result (ec2fit/result.h) and a FILE * and nothing else: these
 * are the bytes `ec2fit recommend --output FORMAT` prints, and
 * ecf_render_json_tree is each `--batch` line's object.
 */
#ifndef EC2FIT_RENDER_H
#define EC2FIT_RENDER_H

#include <stdio.h>

#include "ec2fit/err.h"
#include "ec2fit/result.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

typedef enum {
    ECF_RENDER_TABLE = 0,
    ECF_RENDER_JSON,
    ECF_RENDER_CSV,
    ECF_RENDER_MARKDOWN,
    ECF_RENDER_TFVARS,    /* needs a plan: prints nothing without one */
    ECF_RENDER_KARPENTER, /* needs a plan: prints nothing without one */
    ECF_RENDER_HTML,
    ECF_RENDER_TF_EXTERNAL /* `tf-external`: rank 1 as a flat object of
                              strings; needs a plan: nothing without one */
} ecf_render_format;

/** Fills r->light (the Lambda / Lightsail alternatives of a serving
 *  workload) from the embedded light data, as `recommend` does before it
 *  renders; r->n_light is 0 for other tasks. */
void ecf_render_light_alternatives(ecf_result *r);

/** Writes `r` to `f` in `fmt`. Returns 0, or ECF_EINVAL (unknown format). */
int ecf_render(FILE *f, const ecf_result *r, ecf_render_format fmt,
               ecf_err *err);

/** The `--output json` object (the caller's: cJSON_Delete). */
struct cJSON *ecf_render_json_tree(const ecf_result *r);
/** That object as compact one-line text (what ecf_json_print gives for
 *  the tree), written without building it: malloc'd, the caller frees
 *  it. A --batch line's document. */
char *ecf_render_json_text(const ecf_result *r);

#ifdef __cplusplus
}
#endif

#endif
