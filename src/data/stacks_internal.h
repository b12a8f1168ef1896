/* stacks_internal.h - the in-memory form of data/stacks.json, shared by the
 * loader (stacks_load.c) and the pure lookup (stacks.c). Internal to the
 * core: every name is a bit so a lookup never compares strings. */
#ifndef EC2FIT_STACKS_TABLE_H
#define EC2FIT_STACKS_TABLE_H

#include "ec2fit/stacks.h"

/* Stack ids: the frameworks, then the engines (ECF_ENGINE_AUTO is not a
 * stack and has no id). */
#define STACK_ID_FW(fw) (fw)
#define STACK_ID_ENGINE(e) (ECF_FW_COUNT + (e) - 1)
#define STACK_ID_COUNT (ECF_FW_COUNT + ECF_ENGINE_COUNT - 1)

typedef struct {
    char *id;           /* "inf1" */
    char *name;         /* "AWS Inferentia (inf1)" */
    char **accels;      /* catalog accelerator ids; NULL-terminated */
    char *vendor;       /* accelerator vendor, or NULL */
    int cpu_arch;       /* -1, or ecf_arch for accelerator-less types */
    int default_engine; /* ECF_ENGINE_AUTO = none */
    char *why;          /* when nothing is listed for it, or NULL */
    const char *source; /* borrowed from ecf_stacks.sources */
    const char *as_of;
} stacks_platform;

typedef struct {
    unsigned platforms; /* bit per platform index */
    unsigned stacks;    /* bit per stack id */
    unsigned tasks;     /* bit per ecf_task */
    unsigned kinds;     /* bit per ecf_model_kind */
    ecf_stack_status status;
    char *why;          /* unsupported/unverified: the reason, or NULL */
    const char *source; /* borrowed from ecf_stacks.sources */
    const char *as_of;
} stacks_entry;

/* One cited page: entries name it by key, so a URL is written once. */
typedef struct {
    char *key; /* "neuron-model-fit" */
    char *url;
    char *as_of; /* YYYY-MM-DD the page was read */
} stacks_source;

#define STACKS_MAX_SOURCES 64

struct ecf_stacks {
    char *as_of;
    char *source;       /* the file's default source */
    stacks_source sources[STACKS_MAX_SOURCES];
    int n_sources;
    stacks_platform platforms[ECF_STACKS_MAX_PLATFORMS];
    int n_platforms;
    stacks_entry *entries;
    int n_entries;
};

extern const char *const ecf_stack_display[STACK_ID_COUNT];

#endif
