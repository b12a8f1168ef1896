/*
 * render_api.c - the library's rendering entry points (ec2fit/render.h):
 * one switch over the formats of recommend_render.c, render_html.c,
 * render_karpenter.c and render_tf_external.c.
 */
#include "ec2fit/render.h"

#include "recommend_render.h"

void ecf_render_light_alternatives(ecf_result *r)
{
    ecf_rr_light_alternatives(r);
}

struct cJSON *ecf_render_json_tree(const ecf_result *r)
{
    return ecf_rr_json(r);
}

char *ecf_render_json_text(const ecf_result *r)
{
    return ecf_rr_json_text(r);
}

int ecf_render(FILE *f, const ecf_result *r, ecf_render_format fmt,
               ecf_err *err)
{
    switch (fmt) {
    case ECF_RENDER_TABLE:
        ecf_rr_print_table(f, r);
        return 0;
    case ECF_RENDER_JSON:
        ecf_rr_print_json(f, r);
        return 0;
    case ECF_RENDER_CSV:
        ecf_rr_print_csv(f, r);
        return 0;
    case ECF_RENDER_MARKDOWN:
        ecf_rr_print_markdown(f, r);
        return 0;
    case ECF_RENDER_TFVARS:
        if (r->rec->n_plans > 0)
            ecf_rr_print_tfvars(f, r);
        return 0;
    case ECF_RENDER_KARPENTER:
        if (r->rec->n_plans > 0)
            ecf_rr_print_karpenter(f, r);
        return 0;
    case ECF_RENDER_HTML:
        ecf_rr_print_html(f, r);
        return 0;
    case ECF_RENDER_TF_EXTERNAL:
        if (r->rec->n_plans > 0)
            ecf_rr_print_tf_external(f, r);
        return 0;
    }
    return ecf_err_set(err, ECF_EINVAL, "unknown output format %d", (int)fmt);
}
