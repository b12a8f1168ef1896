/*
 * render_karpenter.c - `recommend --output karpenter`: complete Karpenter
 * NodePools (karpenter.sh/v1), one per device plugin (NVIDIA, Neuron, CPU,
 * other), that let an EKS cluster provision exactly the instance types
 * ec2fit ranked, and with --node-class-spec the EC2NodeClass they point
 * at. Every field and value is explained in docs/karpenter.md.
 */
#include "recommend_render.h"

#include <ctype.h>
#include <string.h>

#include "render_escape.h"
#include "recommend_render_internal.h"
#include "ec2fit/images.h"

/* The pools, in the order their best plan ranks. */
typedef struct {
    ecf_stack stack;   /* ECF_STACK_COUNT: Gaudi, Qualcomm (no plugin here) */
    size_t plans[64];  /* indexes into rec->plans */
    size_t n;
} pool;

static const char *stack_word(ecf_stack s)
{
    switch (s) {
    case ECF_STACK_NVIDIA:
        return "nvidia";
    case ECF_STACK_NEURON:
        return "neuron";
    case ECF_STACK_CPU:
        return "cpu";
    default:
        return "accel";
    }
}

/* The extended resource the device plugin advertises, also the taint key
 * (Karpenter docs, concepts/scheduling.md "Accelerators/GPU Resources"). */
static const char *device_resource(ecf_stack s)
{
    switch (s) {
    case ECF_STACK_NVIDIA:
        return "nvidia.com/gpu";
    case ECF_STACK_NEURON:
        return "aws.amazon.com/neuron";
    default:
        return NULL;
    }
}

/* metadata.name: "ec2fit-<model>-<stack>", an RFC 1123 label of at most
 * 63 characters because Karpenter copies it into the karpenter.sh/nodepool
 * label, whose values are limited to 63. */
static void pool_name(char *out, size_t n, const char *model, ecf_stack s)
{
    const char *w = stack_word(s);
    size_t k = 0, room = 63 - strlen(w) - 1;
    const char *p;
    if (n < 64)
        return;
    k = (size_t)snprintf(out, n, "ec2fit-");
    for (p = model; *p && k < room; p++) {
        char c = (char)tolower((unsigned char)*p);
        if (!isalnum((unsigned char)c))
            c = '-';
        if (c == '-' && out[k - 1] == '-')
            continue;
        out[k++] = c;
    }
    while (k > 0 && out[k - 1] == '-')
        k--;
    snprintf(out + k, n - k, "-%s", w);
}

static void print_values(FILE *f, const char *const *v, size_t n)
{
    size_t i;
    fprintf(f, "          values:\n");
    for (i = 0; i < n; i++) {
        fputs("            - ", f);
        rr_yaml_str(f, v[i]);
        fputc('\n', f);
    }
}

static void print_pool(FILE *f, const rr_view *v, const pool *pl)
{
    const ecf_recommendation *r = v->rec;
    const char *types[64], *caps[2], *arches[2];
    size_t nt = 0, nc = 0, na = 0, i, k;
    bool spot = false, od = false, amd64 = false, arm64 = false;
    bool first_spot = r->plans[pl->plans[0]].spot;
    double cpu = 0, mem = 0, dev = 0;
    const char *res = device_resource(pl->stack);
    char name[96];
    bool serving = r->serving;

    for (i = 0; i < pl->n; i++) {
        const ecf_plan *p = &r->plans[pl->plans[i]];
        /* the limits must admit the largest plan of the pool; rank 1 of
         * a serving fleet may grow to the Auto Scaling maximum */
        int nodes = p->nodes;
        if (serving && pl->plans[i] == 0 && r->asg_max > nodes)
            nodes = r->asg_max;
        for (k = 0; k < nt; k++)
            if (strcmp(types[k], p->inst->type) == 0)
                break;
        if (k == nt)
            types[nt++] = p->inst->type;
        if (p->inst->arch == ECF_ARCH_ARM64)
            arm64 = true;
        else
            amd64 = true;
        if (p->spot)
            spot = true;
        else
            od = true;
        if (nodes * (double)p->inst->vcpu > cpu)
            cpu = nodes * (double)p->inst->vcpu;
        if (nodes * p->inst->memory_gib > mem)
            mem = nodes * p->inst->memory_gib;
        if (nodes * (double)p->inst->accel_count > dev)
            dev = nodes * (double)p->inst->accel_count;
    }
    /* rank 1's purchase option first (for the reader: Karpenter prefers
     * spot whenever both are allowed) */
    if (spot && first_spot)
        caps[nc++] = "spot";
    if (od)
        caps[nc++] = "on-demand";
    if (spot && !first_spot)
        caps[nc++] = "spot";
    if (amd64)
        arches[na++] = "amd64";
    if (arm64)
        arches[na++] = "arm64";

    pool_name(name, sizeof(name), v->model->name, pl->stack);
    fprintf(f, "---\napiVersion: karpenter.sh/v1\nkind: NodePool\n"
               "metadata:\n  name: %s\nspec:\n", name);
    fprintf(f, "  template:\n    spec:\n      nodeClassRef:\n"
               "        group: karpenter.k8s.aws\n"
               "        kind: EC2NodeClass\n        name: %s\n",
            v->node_class ? v->node_class : "default");
    fprintf(f, "      requirements:\n"
               "        - key: node.kubernetes.io/instance-type\n"
               "          operator: In\n");
    print_values(f, types, nt);
    fprintf(f, "        - key: karpenter.sh/capacity-type\n"
               "          operator: In\n");
    print_values(f, caps, nc);
    fprintf(f, "        - key: kubernetes.io/arch\n"
               "          operator: In\n");
    print_values(f, arches, na);
    if (res)
        fprintf(f, "      taints:\n        - key: %s\n"
                   "          value: \"true\"\n"
                   "          effect: NoSchedule\n",
                res);
    /* A job is not cut by node expiry (default 720h) nor moved by drift
     * or consolidation while it runs; a serving fleet keeps Karpenter's
     * defaults and is consolidated when under-used (docs/karpenter.md). */
    if (serving)
        fprintf(f, "      expireAfter: 720h\n"
                   "  disruption:\n"
                   "    consolidationPolicy: WhenEmptyOrUnderutilized\n"
                   "    consolidateAfter: 1m\n"
                   "    budgets:\n      - nodes: \"10%%\"\n");
    else
        fprintf(f, "      expireAfter: Never\n"
                   "  disruption:\n"
                   "    consolidationPolicy: WhenEmpty\n"
                   "    consolidateAfter: 1m\n"
                   "    budgets:\n      - nodes: \"0\"\n"
                   "        reasons:\n          - \"Drifted\"\n"
                   "      - nodes: \"10%%\"\n");
    fprintf(f, "  limits:\n    cpu: \"%.0f\"\n    memory: \"%.0fGi\"\n", cpu,
            mem);
    if (res)
        fprintf(f, "    %s: \"%.0f\"\n", res, dev);
}

static void print_node_class(FILE *f, const rr_view *v, const pool *pools,
                             size_t np)
{
    bool br = v->node_class_spec &&
              strcmp(v->node_class_spec, "bottlerocket") == 0;
    size_t i;

    fprintf(f, "---\n# The AMI alias lets Karpenter pick the variant each "
               "type needs:\n");
    for (i = 0; i < np; i++) {
        const ecf_plan *p = &v->rec->plans[pools[i].plans[0]];
        const ecf_image *im =
            v->images && pools[i].stack != ECF_STACK_COUNT
                ? ecf_images_find(v->images,
                                  br ? ECF_IMAGE_USE_BOTTLEROCKET
                                     : ECF_IMAGE_USE_EKS,
                                  pools[i].stack, p->inst->arch)
                : NULL;
        if (im)
            fprintf(f, "#   %s: %s (%s)\n", stack_word(pools[i].stack),
                    im->family, im->ssm_parameter);
        else
            fprintf(f, "#   %s: no %s image for this accelerator; use "
                       "amiSelectorTerms with your own AMI\n",
                    stack_word(pools[i].stack), br ? "Bottlerocket" : "AL2023");
    }
    fprintf(f, "# Pin a release (%s) in production: @latest drifts "
               "nodes when AWS publishes one.\n"
               "# ${CLUSTER_NAME}: your cluster (envsubst), as in "
               "Karpenter's getting-started guide.\n",
            br ? "bottlerocket@v1.10.0" : "al2023@v20240625");
    fprintf(f, "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
               "metadata:\n  name: %s\nspec:\n"
               "  amiSelectorTerms:\n    - alias: \"%s@latest\"\n"
               "  role: \"KarpenterNodeRole-${CLUSTER_NAME}\"\n"
               "  subnetSelectorTerms:\n    - tags:\n"
               "        karpenter.sh/discovery: \"${CLUSTER_NAME}\"\n"
               "  securityGroupSelectorTerms:\n    - tags:\n"
               "        karpenter.sh/discovery: \"${CLUSTER_NAME}\"\n",
            v->node_class ? v->node_class : "default",
            br ? "bottlerocket" : "al2023");
}

void rr_print_karpenter(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    size_t n = shown(v), i, k, np = 0;
    pool pools[ECF_STACK_COUNT + 1];

    if (n > 64)
        n = 64;
    for (i = 0; i < n; i++) {
        ecf_stack s = ecf_images_stack(r->plans[i].inst);
        for (k = 0; k < np; k++)
            if (pools[k].stack == s)
                break;
        if (k == np) {
            pools[np].stack = s;
            pools[np].n = 0;
            np++;
        }
        pools[k].plans[pools[k].n++] = i;
    }
    fputs("# Karpenter NodePools from ec2fit for ", f);
    rr_yaml_comment(f, v->model->name);
    fprintf(f, " (%s); the top %zu plan%s, catalog prices as of %s.\n",
            ecf_task_name(v->w->task), n, n == 1 ? "" : "s",
            ecf_catalog_as_of(v->cat));
    fprintf(f, "# One NodePool per device plugin; ranked in region");
    for (i = 0; i < v->opts->n_regions; i++)
        fprintf(f, "%s %s", i ? "," : "", v->opts->regions[i]);
    fprintf(f, ".\n# Pods tolerate the NodePool's taint and request its "
               "device resource; job pods\n# should also carry "
               "karpenter.sh/do-not-disrupt: \"true\" (docs/karpenter.md).\n");
    for (k = 0; k < np; k++)
        print_pool(f, v, &pools[k]);
    if (v->node_class_spec)
        print_node_class(f, v, pools, np);
}
