/*
 * stacks_resolve.c - the software stack of one plan (ec2fit/stacks_resolve.h):
 * the serving engine it uses and the verdict, the worst of its framework's
 * and its engine's support on the platform. Pure: no I/O, no allocation.
 */
#include "ec2fit/stacks_resolve.h"

#include <stdio.h>
#include <string.h>

#include "stacks_internal.h"

ecf_engine ecf_stacks_engine(const ecf_stacks *s, int platform,
                             const ecf_model *m, const ecf_workload *w)
{
    if (w->engine > ECF_ENGINE_AUTO && w->engine < ECF_ENGINE_COUNT)
        return (ecf_engine)w->engine;
    if (platform >= 0 && platform < s->n_platforms &&
        s->platforms[platform].default_engine != ECF_ENGINE_AUTO)
        return (ecf_engine)s->platforms[platform].default_engine;
    if (ecf_model_kind_is_llm(m->kind))
        return ECF_ENGINE_VLLM;
    if (w->framework == ECF_FW_TENSORFLOW)
        return ECF_ENGINE_TF_SERVING;
    if (platform >= 0 && platform < s->n_platforms &&
        s->platforms[platform].vendor &&
        strcmp(s->platforms[platform].vendor, "NVIDIA") == 0 &&
        ecf_engine_nvidia_default(m->kind, w->framework) != ECF_ENGINE_AUTO)
        return ecf_engine_nvidia_default(m->kind, w->framework);
    return ECF_ENGINE_TRITON;
}

/* One stack on one platform: the first entry that covers it decides. */
static void check(ecf_stack_verdict *v, const ecf_stacks *s, int p, int id,
                  ecf_task task, ecf_model_kind kind)
{
    const stacks_platform *pl = &s->platforms[p];
    int i;

    v->stack = ecf_stack_display[id];
    for (i = 0; i < s->n_entries; i++) {
        const stacks_entry *e = &s->entries[i];
        if (!(e->platforms & (1u << p)) || !(e->stacks & (1u << id)) ||
            !(e->tasks & (1u << task)) || !(e->kinds & (1u << kind)))
            continue;
        v->status = e->status;
        v->source = e->source;
        v->as_of = e->as_of;
        if (e->status != ECF_STACK_SUPPORTED)
            snprintf(v->why, sizeof(v->why), "%s",
                     e->why ? e->why : "not listed as tested");
        return;
    }
    v->status = ECF_STACK_UNSUPPORTED;
    v->source = pl->source ? pl->source : s->source;
    v->as_of = pl->as_of ? pl->as_of : s->as_of;
    if (pl->why)
        snprintf(v->why, sizeof(v->why), "%s", pl->why);
    else
        snprintf(v->why, sizeof(v->why),
                 "no supported path for %s of %s models", ecf_task_name(task),
                 ecf_model_kind_name(kind));
}

void ecf_stacks_resolve(ecf_stack_verdict *out, const ecf_stacks *s,
                        int platform, const ecf_model *m,
                        const ecf_workload *w)
{
    ecf_task task = w->task;
    int fw = w->framework >= 0 && w->framework < ECF_FW_COUNT
                 ? w->framework
                 : ECF_FW_PYTORCH;

    memset(out, 0, sizeof(*out));
    out->engine = ECF_ENGINE_AUTO;
    if (platform < 0 || platform >= s->n_platforms) {
        out->status = ECF_STACK_UNVERIFIED;
        out->platform = "this accelerator";
        out->stack = ecf_stack_display[STACK_ID_FW(fw)];
        out->source = s->source;
        out->as_of = s->as_of;
        snprintf(out->why, sizeof(out->why),
                 "not in the stack table (data/stacks.json)");
        return;
    }
    out->platform = s->platforms[platform].name;
    check(out, s, platform, STACK_ID_FW(fw), task, m->kind);
    /* an offline job's --engine (vLLM's offline class, trtllm-bench) has
     * the support its engine has for serving on the platform */
    if (task == ECF_TASK_INFER ||
        (task == ECF_TASK_BATCH && w->engine > ECF_ENGINE_AUTO)) {
        ecf_stack_verdict e;
        out->engine = ecf_stacks_engine(s, platform, m, w);
        memset(&e, 0, sizeof(e));
        check(&e, s, platform, STACK_ID_ENGINE(out->engine), ECF_TASK_INFER,
              m->kind);
        if (out->engine == ECF_ENGINE_TF_SERVING && fw != ECF_FW_TENSORFLOW &&
            e.status != ECF_STACK_UNSUPPORTED) {
            e.status = ECF_STACK_UNSUPPORTED;
            snprintf(e.why, sizeof(e.why),
                     "TF Serving serves TensorFlow SavedModels, and the "
                     "framework is %s (--framework)",
                     ecf_stack_display[STACK_ID_FW(fw)]);
        }
        if (e.status > out->status) {
            e.platform = out->platform;
            e.engine = out->engine;
            *out = e;
        }
    }
}
