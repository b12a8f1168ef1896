/**
 * ec2fit/engine_images.h - the serving engine's container image, pinned to
 * a stated release, for each (engine, model class, stack, architecture)
 * and the EC2 families the release runs on (data/engine_images.json;
 * sources in docs/deploy.md#engine-images). `--output ecs` writes the
 * image of the rank-1 plan's engine from it, never ":latest".
 *
 * ecf_engine_images is a plain value struct (fixed arrays, no heap): load
 * it once, copy it, drop it. The loader validates completely; the lookup
 * is pure.
 */
#ifndef EC2FIT_ENGINE_IMAGES_H
#define EC2FIT_ENGINE_IMAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"
#include "ec2fit/err.h"
#include "ec2fit/images.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_ENGINE_IMAGES_SCHEMA_VERSION 1
#define ECF_ENGINE_IMAGES_MAX_BYTES (64u * 1024u)
#define ECF_ENGINE_IMAGES_MAX 24
#define ECF_ENGINE_IMAGE_FAMILIES_MAX 24

typedef struct {
    char engine[16];     /* ecf_engine_name: "vllm", "tgi", "triton", ... */
    bool llm;            /* true: decoder / MoE models; false: every other
                            kind */
    ecf_stack stack;
    ecf_arch arch;
    char image[192];     /* "vllm/vllm-openai:v0.28.0": always tagged */
    char version[48];    /* the engine release the tag carries */
    char families[ECF_ENGINE_IMAGE_FAMILIES_MAX][16]; /* or "*" */
    size_t n_families;
    bool any_family;
    int port;            /* the port the command below makes it listen on */
    char health_path[48];/* "/health", "/v2/health/ready" */
    char source[768];
    char as_of[16];      /* YYYY-MM-DD */
} ecf_engine_image;

typedef struct {
    char as_of[16];
    ecf_engine_image images[ECF_ENGINE_IMAGES_MAX];
    size_t n_images;
} ecf_engine_images;

/** Parses and validates an engine-images document (`name` prefixes the
 *  messages: "engine_images.json: images[2].image: expected a tag (no
 *  :latest)"). Every image carries an explicit tag other than "latest";
 *  within an (engine, models, stack, arch) a family is listed once and "*"
 *  at most once. ECF_EPARSE on bad data. */
int ecf_engine_images_load_buffer(ecf_engine_images *out, const char *data,
                                  size_t len, const char *name, ecf_err *err);

/** The copy of data/engine_images.json built into the binary. */
int ecf_engine_images_embedded(ecf_engine_images *out, ecf_err *err);

/** The image of `engine` (an ecf_engine_name) for a model of class `llm`
 *  on `inst`: the entry of the instance's stack and architecture that
 *  lists its family, else that group's "*" entry, else NULL (no pinned
 *  release runs there). Pure. */
const ecf_engine_image *ecf_engine_images_for(const ecf_engine_images *e,
                                              const char *engine, bool llm,
                                              const ecf_instance *inst);

/** Whether an image reference carries an explicit tag that is not
 *  "latest" ("repo/name:tag", registry ports aside). Pure. */
bool ecf_engine_image_pinned(const char *image);

#ifdef __cplusplus
}
#endif

#endif
