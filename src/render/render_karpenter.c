/*
 * render_karpenter.c - `recommend --output karpenter`: the requirements
 * block of a Karpenter NodePool (karpenter.sh/v1), so an EKS cluster
 * provisions exactly the instance types ec2fit ranked. Karpenter picks
 * among the allowed types itself (cheapest that fits the pending pods), so
 * the block lists the top --top types, not only rank 1; the capacity
 * types are those the listed plans use (spot when a spot plan ranked).
 */
#include "recommend_render.h"

#include <string.h>

static size_t shown(const rr_view *v)
{
    size_t n = v->rec->n_plans;
    return (size_t)v->top < n ? (size_t)v->top : n;
}

void rr_print_karpenter(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t n = shown(v), i, k;
    bool spot_first = n > 0 && r->plans[0].spot, spot = false, od = false;
    bool amd64 = false, arm64 = false;

    fprintf(f, "# Karpenter NodePool requirements from ec2fit for %s "
               "(%s); catalog prices as of %s.\n",
            v->model->name, ecf_task_name(v->w->task),
            ecf_catalog_as_of(v->cat));
    fprintf(f, "# Merge into a NodePool (karpenter.sh/v1) in region");
    for (i = 0; i < v->opts->n_regions; i++)
        fprintf(f, "%s %s", i ? "," : "", v->opts->regions[i]);
    fprintf(f, ".\nspec:\n  template:\n    spec:\n      requirements:\n"
               "        - key: node.kubernetes.io/instance-type\n"
               "          operator: In\n          values:\n");
    for (i = 0; i < n; i++) {
        const char *t = r->plans[i].inst->type;
        for (k = 0; k < i; k++)
            if (strcmp(r->plans[k].inst->type, t) == 0)
                break;
        if (k == i)
            fprintf(f, "            - \"%s\"\n", t);
        if (r->plans[i].inst->arch == ECF_ARCH_ARM64)
            arm64 = true;
        else
            amd64 = true;
        if (r->plans[i].spot)
            spot = true;
        else
            od = true;
    }
    fprintf(f, "        - key: karpenter.sh/capacity-type\n"
               "          operator: In\n          values:\n");
    /* Rank 1's purchase option first; Karpenter prefers spot when both
     * are allowed whatever the order, so the order is for the reader. */
    if (spot && spot_first)
        fprintf(f, "            - \"spot\"\n");
    if (od)
        fprintf(f, "            - \"on-demand\"\n");
    if (spot && !spot_first)
        fprintf(f, "            - \"spot\"\n");
    /* The architectures the types imply: a no-op for Karpenter, but it
     * shows at a glance that the container image must be multi-arch when
     * a Graviton type (g5g) ranked. */
    fprintf(f, "        - key: kubernetes.io/arch\n"
               "          operator: In\n          values:\n");
    if (amd64)
        fprintf(f, "            - \"amd64\"\n");
    if (arm64)
        fprintf(f, "            - \"arm64\"\n");
}
