/*
 * render_karpenter.c - `recommend --output karpenter`: complete Karpenter
 * NodePools (karpenter.sh/v1), one per ranked choice and weighted by rank,
 * so that Karpenter launches rank 1's type, and with --node-class-spec the
 * EC2NodeClasses they point at (root volume sized for the image and the
 * weights; EFA and a placement group for multi-node training). Every
 * field and value is explained in docs/karpenter.md.
 */
#include "recommend_render.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "recommend_render_internal.h"
#include "render_escape.h"
#include "render_deploy.h"
#include "ec2fit/estimate.h"
#include "ec2fit/images.h"
#include "ec2fit/region_name.h"

/* Karpenter's default root volume for AL2023 and Bottlerocket's data
 * volume, GiB (Karpenter docs, concepts/nodeclasses.md
 * "spec.blockDeviceMappings"): what the OS, kubelet and a small image
 * are given when nothing is set. */
#define KARPENTER_OS_GIB 20.0

/* One NodePool per ranked choice: a plan's (type, capacity type,
 * location), in rank order, each pinned to its one type and weighted
 * 100, 99, ... so Karpenter, which tries the pools by descending weight
 * and launches the cheapest type a pool allows, starts rank 1's type and
 * falls back to rank 2 only when rank 1 cannot launch. Karpenter's weight
 * is 1..100 (karpenter.sh_nodepools CRD), hence at most 100 pools. */
#define MAX_POOLS 100

typedef struct {
    size_t plan;     /* index into rec->plans of the pool's best plan */
    const char *cap; /* karpenter.sh/capacity-type */
    char name[64];
} pool;

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

/* Reserved instances and savings plans are billing, not capacity: the
 * node is launched on-demand. A Capacity Block is an EC2 capacity
 * reservation, Karpenter's "reserved" capacity type (Karpenter v1.6+,
 * ReservedCapacity feature gate; karpenter.sh/docs/tasks/odcrs): launched
 * on-demand instead, rank 1 would run outside the block it paid for, at
 * the on-demand rate, on the capacity that is scarce. */
static const char *capacity_type(const ecf_plan *p)
{
    if (p->purchase_option == ECF_PURCHASE_CAPACITY_BLOCK)
        return "reserved";
    return p->spot ? "spot" : "on-demand";
}

static bool is_block(const pool *pl)
{
    return strcmp(pl->cap, "reserved") == 0;
}

/* Appends `s` lowercased, runs of other characters as one '-', to out
 * (length *k, at most `room`). */
static void put_label(char *out, size_t *k, size_t room, const char *s)
{
    for (; *s && *k < room; s++) {
        char c = (char)tolower((unsigned char)*s);
        if (!isalnum((unsigned char)c))
            c = '-';
        if (c == '-' && *k > 0 && out[*k - 1] == '-')
            continue;
        out[(*k)++] = c;
    }
    out[*k] = '\0';
}

/* metadata.name "ec2fit-<model>-<type>[-spot][-<zone group suffix>]", an
 * RFC 1123 label of at most 63 characters (Karpenter copies it into the
 * karpenter.sh/nodepool label, whose values are limited to 63); the model
 * part is cut first. The same name is the pool's own EC2NodeClass. */
static void pool_name(char out[64], const char *model, const ecf_plan *p,
                      const char *parent)
{
    char tail[64];
    size_t k = 0, t = 0;
    tail[0] = '\0';
    put_label(tail, &t, 40, "-");
    put_label(tail, &t, 40, p->inst->type);
    if (p->spot)
        put_label(tail, &t, 50, "-spot");
    else if (p->purchase_option == ECF_PURCHASE_CAPACITY_BLOCK)
        put_label(tail, &t, 50, "-block");
    if (strcmp(parent, p->region) != 0) /* a zone group: its own suffix */
        put_label(tail, &t, 62, p->region + strlen(parent));
    put_label(out, &k, 63 - t, "ec2fit-");
    put_label(out, &k, 63 - t, model);
    while (k > 0 && out[k - 1] == '-')
        k--;
    out[k] = '\0';
    snprintf(out + k, 64 - k, "%s", tail);
    k = strlen(out);
    while (k > 0 && out[k - 1] == '-')
        out[--k] = '\0';
}

/* The root volume (GiB) a node of plan p needs (docs/karpenter.md "Root
 * volume"): Karpenter's own AL2023 default of 20 GiB for the OS and
 * kubelet, twice the container image (containerd keeps the pulled layers
 * and their unpacked snapshot), and the model file the node holds (the
 * whole model at the workload's precision; 2 bytes/parameter for a
 * training checkpoint), rounded up to 10 GiB. */
static int root_volume_gib(const rr_view *v, const ecf_plan *p)
{
    const ecf_workload *w = &v->rec->workload;
    double bytes_per_param =
        ecf_task_is_training(w->task)
            ? 2.0
            : ecf_estimate_weight_bytes(w->precision == ECF_PREC_AUTO
                                            ? ECF_PREC_BF16
                                            : (ecf_precision)w->precision);
    double gib = KARPENTER_OS_GIB +
                 2 * ecf_estimate_image_gb(p->inst) * 1e9 / 1073741824.0 +
                 v->model->params * bytes_per_param / 1073741824.0;
    return (int)(ceil(gib / 10.0) * 10);
}

static bool needs_efa(const rr_view *v, const ecf_plan *p)
{
    rd_placement pl;
    ecf_deploy_placement_init(&pl, v, p);
    return pl.efa_interfaces > 0;
}

static void print_req(FILE *f, const char *key, const char *value)
{
    fprintf(f, "        - key: %s\n          operator: In\n"
               "          values:\n            - ",
            key);
    ecf_rr_yaml_str(f, value);
    fputc('\n', f);
}

static void print_pool(FILE *f, const rr_view *v, const pool *pl,
                       int weight)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p = &r->plans[pl->plan];
    const char *res = device_resource(ecf_images_stack(p->inst));
    rd_placement place;
    bool serving = r->serving;
    /* the limits admit the plan's largest fleet: a serving plan may grow
     * to its Auto Scaling maximum */
    int nodes = serving && p->asg_max > p->nodes ? p->asg_max : p->nodes;

    fprintf(f, "---\napiVersion: karpenter.sh/v1\nkind: NodePool\n"
               "metadata:\n  name: %s\nspec:\n  weight: %d\n",
            pl->name, weight);
    fprintf(f, "  template:\n    spec:\n      nodeClassRef:\n"
               "        group: karpenter.k8s.aws\n"
               "        kind: EC2NodeClass\n        name: %s\n",
            v->node_class ? v->node_class : pl->name);
    fprintf(f, "      requirements:\n");
    print_req(f, "node.kubernetes.io/instance-type", p->inst->type);
    print_req(f, "karpenter.sh/capacity-type", pl->cap);
    if (is_block(pl)) /* a Capacity Block, not any reservation */
        print_req(f, "karpenter.k8s.aws/capacity-reservation-type",
                  "capacity-block");
    print_req(f, "kubernetes.io/arch",
              p->inst->arch == ECF_ARCH_ARM64 ? "arm64" : "amd64");
    ecf_deploy_placement_init(&place, v, p);
    if (place.zone[0])
        print_req(f, "topology.kubernetes.io/zone", place.zone);
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
    fprintf(f, "  limits:\n    cpu: \"%.0f\"\n    memory: \"%.0fGi\"\n",
            nodes * (double)p->inst->vcpu, nodes * p->inst->memory_gib);
    if (res)
        fprintf(f, "    %s: \"%.0f\"\n", res,
                nodes * (double)p->inst->accel_count);
}

/* One EC2NodeClass for the pools pl[0..np-1] (one pool, or every pool
 * when --node-class names a shared class); `p` is the plan whose EFA
 * interfaces it carries (multi-node training), or NULL. */
static void print_node_class(FILE *f, const rr_view *v, const char *name,
                             const pool *pl, size_t np, const ecf_plan *p,
                             int root_gib, bool br)
{
    size_t i;
    bool efa = p != NULL;

    fprintf(f, "---\n");
    for (i = 0; i < np; i++) {
        const ecf_instance *in = v->rec->plans[pl[i].plan].inst;
        const ecf_image *im =
            v->images ? ecf_images_for(v->images,
                                       br ? ECF_IMAGE_USE_BOTTLEROCKET
                                          : ECF_IMAGE_USE_EKS,
                                       in)
                      : NULL;
        if (im)
            fprintf(f, "# %s: %s (%s)\n", in->type, im->family,
                    im->ssm_parameter);
        else
            fprintf(f, "# %s: no %s image lists this type; use "
                       "amiSelectorTerms with your own AMI\n",
                    in->type, br ? "Bottlerocket" : "EKS AL2023");
    }
    fprintf(f, "# The AMI alias lets Karpenter pick the variant the type "
               "needs; pin a release (%s)\n# in production: @latest drifts "
               "nodes when AWS publishes one. ${CLUSTER_NAME}: your\n"
               "# cluster (envsubst), as in Karpenter's getting-started "
               "guide.\n",
            br ? "bottlerocket@v1.10.0" : "al2023@v20240625");
    if (efa)
        fprintf(f, "# Multi-node training: create the cluster placement "
                   "group once,\n#   aws ec2 create-placement-group "
                   "--group-name %s --strategy cluster\n# and let the pods "
                   "request vpc.amazonaws.com/efa (the EFA device plugin).\n",
                name);
    for (i = 0; i < np; i++)
        if (is_block(&pl[i])) {
            const ecf_plan *b = &v->rec->plans[pl[i].plan];
            fprintf(f, "# Capacity Block: buy it before the job (%d d x %d "
                       "nodes of %s, %d block%s of 1 to 64)\n# with the tag "
                       "the selector below reads (Karpenter v1.6+, "
                       "ReservedCapacity feature gate):\n#   aws ec2 "
                       "describe-capacity-block-offerings --instance-type %s "
                       "--instance-count COUNT --capacity-duration-hours %d\n"
                       "#   aws ec2 purchase-capacity-block "
                       "--capacity-block-offering-id ID --instance-platform "
                       "Linux/UNIX --tag-specifications "
                       "'ResourceType=capacity-reservation,Tags=[{Key=ec2fit/"
                       "node-class,Value=%s}]'\n",
                    b->cb_days, b->nodes, b->inst->type, b->cb_blocks,
                    b->cb_blocks == 1 ? "" : "s", b->inst->type,
                    24 * b->cb_days, name);
            break;
        }
    fprintf(f, "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
               "metadata:\n  name: %s\nspec:\n"
               "  amiSelectorTerms:\n    - alias: \"%s@latest\"\n"
               "  role: \"KarpenterNodeRole-${CLUSTER_NAME}\"\n"
               "  subnetSelectorTerms:\n    - tags:\n"
               "        karpenter.sh/discovery: \"${CLUSTER_NAME}\"\n"
               "  securityGroupSelectorTerms:\n    - tags:\n"
               "        karpenter.sh/discovery: \"${CLUSTER_NAME}\"\n",
            name, br ? "bottlerocket" : "al2023");
    /* Bottlerocket keeps the OS on /dev/xvda (4 GiB) and images and the
     * kubelet on the data volume /dev/xvdb; AL2023 has one root volume
     * (Karpenter docs, concepts/nodeclasses.md "blockDeviceMappings"). */
    fprintf(f, "  blockDeviceMappings:\n");
    if (br)
        fprintf(f, "    - deviceName: /dev/xvda\n      ebs:\n"
                   "        volumeSize: 4Gi\n        volumeType: gp3\n"
                   "        encrypted: true\n"
                   "        deleteOnTermination: true\n");
    fprintf(f, "    - deviceName: %s\n      rootVolume: true\n      ebs:\n"
               "        volumeSize: %dGi\n        volumeType: gp3\n"
               "        encrypted: true\n        deleteOnTermination: true\n",
            br ? "/dev/xvdb" : "/dev/xvda", root_gib);
    for (i = 0; i < np; i++)
        if (is_block(&pl[i])) {
            /* the block is bought with this tag (the comment above) */
            fprintf(f, "  capacityReservationSelectorTerms:\n"
                       "    - tags:\n        ec2fit/node-class: %s\n",
                    name);
            break;
        }
    if (efa) {
        int k;
        fprintf(f, "  placementGroupSelector:\n    name: %s\n", name);
        /* the primary ENA interface, then one EFA-only interface per
         * network card (card 0 takes it at device index 1) */
        fprintf(f, "  networkInterfaces:\n"
                   "    - networkCardIndex: 0\n      deviceIndex: 0\n"
                   "      interfaceType: interface\n");
        for (k = 0; k < p->inst->efa_interfaces; k++)
            fprintf(f, "    - networkCardIndex: %d\n      deviceIndex: %d\n"
                       "      interfaceType: efa-only\n",
                    k, k == 0 ? 1 : 0);
    }
}

void ecf_rr_print_karpenter(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p1 = &r->plans[0];
    size_t n = shown(v), i, k, np = 0, nother = 0;
    static pool pools[MAX_POOLS];
    char parent1[64], parent[64];
    bool br = v->node_class_spec &&
              strcmp(v->node_class_spec, "bottlerocket") == 0;

    ecf_region_parent(parent1, sizeof(parent1), p1->region);
    for (i = 0; i < n && np < MAX_POOLS; i++) {
        const ecf_plan *p = &r->plans[i];
        ecf_region_parent(parent, sizeof(parent), p->region);
        /* a cluster lives in one region: plans ranked elsewhere are named
         * in a comment, not pooled */
        if (strcmp(parent, parent1) != 0) {
            nother++;
            continue;
        }
        for (k = 0; k < np; k++) {
            const ecf_plan *q = &r->plans[pools[k].plan];
            if (q->inst == p->inst && q->spot == p->spot &&
                strcmp(pools[k].cap, capacity_type(p)) == 0 &&
                strcmp(q->region, p->region) == 0)
                break;
        }
        if (k < np)
            continue; /* same launch as a better plan */
        pools[np].plan = i;
        pools[np].cap = capacity_type(p);
        pool_name(pools[np].name, v->model->name, p, parent);
        np++;
    }
    fputs("# Karpenter NodePools from ec2fit for ", f);
    ecf_rr_yaml_comment(f, v->model->name);
    fprintf(f, " (%s); the top %zu plan%s, catalog prices as of %s.\n",
            ecf_task_name(v->w->task), n, n == 1 ? "" : "s",
            ecf_catalog_as_of(v->cat));
    fprintf(f, "# One NodePool per ranked choice, pinned to its type and "
               "weighted by rank, so\n# Karpenter launches rank 1 (%s) and "
               "falls back in rank order (docs/karpenter.md).\n"
               "# Region %s", p1->inst->type, parent1);
    if (strcmp(parent1, p1->region) != 0)
        fprintf(f, ", zone group %s", p1->region);
    fprintf(f, ".\n");
    if (nother) {
        fprintf(f, "# Ranked in other regions (a cluster there needs its "
                   "own pools):");
        for (i = 0; i < n; i++) {
            ecf_region_parent(parent, sizeof(parent), r->plans[i].region);
            if (strcmp(parent, parent1) != 0)
                fprintf(f, " #%zu %s %s;", i + 1, r->plans[i].inst->type,
                        r->plans[i].region);
        }
        fprintf(f, "\n");
    }
    if (p1->nodes_per_group > 1 && !r->serving)
        fprintf(f, "# Multi-node job: rank 1 runs %d nodes as one job "
                   "(JobSet, PyTorchJob); with\n# --node-class-spec its "
                   "EC2NodeClass carries EFA and a cluster placement "
                   "group.\n",
                p1->nodes);
    else if (p1->nodes_per_group > 1)
        fprintf(f, "# WARNING: one replica of rank 1 spans %d nodes "
                   "(%s). Karpenter places\n# pods, not replicas: run each "
                   "replica as a group of %d pods (LeaderWorkerSet,\n# "
                   "JobSet) that each request a whole node's devices, or "
                   "the replica never starts.\n",
                p1->nodes_per_group,
                ecf_parallelism_name(p1->parallelism), p1->nodes_per_group);
    fprintf(f, "# Pods tolerate the NodePool's taint and request its "
               "device resource; job pods\n# should also carry "
               "karpenter.sh/do-not-disrupt: \"true\" (docs/karpenter.md).\n");
    /* without the classes, a pool whose class is missing never launches
     * (Karpenter marks it not ready): say so where kubectl users read */
    if (!v->node_class_spec && v->node_class)
    {
        fputs("# Every NodePool refers to the EC2NodeClass ", f);
        ecf_rr_yaml_comment(f, v->node_class);
        fputs(", which must exist in the\n# cluster (--node-class-spec "
              "prints one).\n", f);
    }
    else if (!v->node_class_spec)
        fprintf(f, "# Each NodePool refers to an EC2NodeClass of its own "
                   "name, not printed here:\n# add --node-class-spec to "
                   "print them, or --node-class NAME to use an\n# existing "
                   "one; a pool without its class launches nothing.\n");
    for (k = 0; k < np; k++)
        print_pool(f, v, &pools[k], (int)(MAX_POOLS - k));
    if (!v->node_class_spec)
        return;
    if (v->node_class) {
        /* one class for every pool: the largest root volume; EFA
         * interfaces are per type, so only a single pool gets them */
        int root = 0;
        for (k = 0; k < np; k++) {
            int g = root_volume_gib(v, &r->plans[pools[k].plan]);
            if (g > root)
                root = g;
        }
        print_node_class(f, v, v->node_class, pools, np,
                         np == 1 && needs_efa(v, p1) ? p1 : NULL, root, br);
        return;
    }
    for (k = 0; k < np; k++) {
        const ecf_plan *p = &r->plans[pools[k].plan];
        print_node_class(f, v, pools[k].name, &pools[k], 1,
                         needs_efa(v, p) ? p : NULL, root_volume_gib(v, p),
                         br);
    }
}
