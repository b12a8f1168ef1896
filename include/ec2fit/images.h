/**
 * ec2fit/images.h - the machine image of each software stack, named by the
 * public AWS Systems Manager parameter that points at its current AMI
 * (data/images.json; sources in docs/deploy.md#images). ec2fit never prints
 * an AMI id: ids differ per region and change with every release, the
 * parameters do not.
 *
 * ecf_images is a plain value struct (fixed arrays, no heap): load it once,
 * copy it, drop it. The loader validates completely; the lookups are pure.
 */
#ifndef EC2FIT_IMAGES_H
#define EC2FIT_IMAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"
#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_IMAGES_SCHEMA_VERSION 1
#define ECF_IMAGES_MAX_BYTES (256u * 1024u)

/** What runs the accelerators: the driver stack an image must carry. */
typedef enum {
    ECF_STACK_CPU = 0, /* no accelerator */
    ECF_STACK_NVIDIA,  /* NVIDIA GPU: driver + CUDA */
    ECF_STACK_NEURON,  /* AWS Inferentia / Trainium: Neuron driver */
    ECF_STACK_COUNT
} ecf_stack;

/** Where the image is used. */
typedef enum {
    ECF_IMAGE_USE_INSTANCE = 0, /* a plain EC2 instance / Auto Scaling group */
    ECF_IMAGE_USE_ECS,          /* an ECS container instance */
    ECF_IMAGE_USE_EKS,          /* an EKS node, Amazon Linux 2023 */
    ECF_IMAGE_USE_BOTTLEROCKET, /* an EKS node, Bottlerocket */
    ECF_IMAGE_USE_COUNT
} ecf_image_use;

/* Several entries may share a (use, stack, arch) when their support
 * matrices differ (the proprietary-driver DLAMI for Volta beside the
 * OSS-driver one for Turing and later); a family is in at most one of
 * them, and at most one of them is the "*" fallback. */
#define ECF_IMAGES_MAX 40
#define ECF_IMAGE_FAMILIES_MAX 24 /* families listed per image */
#define ECF_IMAGE_EXCEPT_MAX 4    /* types excluded from a listed family */

typedef struct {
    ecf_image_use use;
    ecf_stack stack;
    ecf_arch arch;
    char family[128];        /* "Deep Learning Base Neuron AMI (AL2023)" */
    char ssm_parameter[160]; /* may hold {kubernetes_version} (EKS) */
    char source[640];        /* page(s) the parameter was read from */
    /* The support matrix, as published for this image (release notes,
     * user guide; docs/deploy.md#images): EC2 families ("p3dn",
     * "g6e"). any_family: "*" in the data, the image serves every type of
     * its stack and architecture that no other entry lists (AWS publishes
     * no narrower list for it). */
    char families[ECF_IMAGE_FAMILIES_MAX][16];
    size_t n_families;
    bool any_family;
    char except_types[ECF_IMAGE_EXCEPT_MAX][32]; /* "g3.16xlarge" */
    size_t n_except;
    char note[320]; /* end-of-support facts stated with the plan, or "" */
} ecf_image;

typedef struct {
    char as_of[16]; /* YYYY-MM-DD the sources were read */
    ecf_image images[ECF_IMAGES_MAX];
    size_t n_images;
} ecf_images;

/** Parses and validates an images document (`name` prefixes messages:
 *  "images.json: images[3].arch: expected x86_64 or arm64"). Every entry
 *  carries a non-empty "families" list (or ["*"]); within a (use, stack,
 *  arch) a family is listed once and "*" at most once. ECF_EPARSE on bad
 *  data. */
int ecf_images_load_buffer(ecf_images *out, const char *data, size_t len,
                           const char *name, ecf_err *err);

/** The copy of data/images.json built into the binary. */
int ecf_images_embedded(ecf_images *out, ecf_err *err);

/** The stack an instance type needs. Pure. Types whose accelerator is
 *  neither NVIDIA nor Neuron (Gaudi, Qualcomm) have no stack here and
 *  return ECF_STACK_COUNT. */
ecf_stack ecf_images_stack(const ecf_instance *inst);

/** The first image listed for (use, stack, arch), whatever its support
 *  matrix, or NULL when the data has none (an ECS GPU AMI for arm64 is not
 *  published, for one). To pick an image for a type use ecf_images_for.
 *  Pure. */
const ecf_image *ecf_images_find(const ecf_images *imgs, ecf_image_use use,
                                 ecf_stack stack, ecf_arch arch);

/** The image for the instance's own stack and architecture whose support
 *  matrix lists its family (and does not except its type), else the "*"
 *  entry of that (use, stack, arch), else NULL: a type no published image
 *  supports (p2, the fractional g6f) gets no image rather than one that
 *  cannot boot its driver. Pure. */
const ecf_image *ecf_images_for(const ecf_images *imgs, ecf_image_use use,
                                const ecf_instance *inst);

/** Whether `im`'s support matrix covers the instance type (family listed
 *  and type not excepted, or "*"). Pure. */
bool ecf_image_supports(const ecf_image *im, const ecf_instance *inst);

/** "cpu", "nvidia", "neuron"; "instance", "ecs", "eks", "bottlerocket". */
const char *ecf_stack_name(ecf_stack s);
const char *ecf_image_use_name(ecf_image_use u);

#ifdef __cplusplus
}
#endif

#endif
