/*
 * ec2fit/stacks_resolve.h - the software stack of one plan (model layer):
 * the serving engine and the verdict from data/stacks.json's table
 * (ec2fit/stacks.h) for a model and workload. Pure.
 */
#ifndef EC2FIT_STACKS_RESOLVE_H
#define EC2FIT_STACKS_RESOLVE_H

#include "ec2fit/estimate.h"
#include "ec2fit/stacks.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The engine a serving plan on `platform` uses: w->engine when set, else
 *  the platform's default (neuron on Inferentia/Trainium), else vLLM for
 *  decoder/MoE LLMs, TF Serving for --framework tensorflow, else Triton. */
ecf_engine ecf_stacks_engine(const ecf_stacks *s, int platform,
                             const ecf_model *m, const ecf_workload *w);

/** Resolves the stack of a plan: the framework for training and batch
 *  jobs, the framework and the engine for serving; the worst outcome wins.
 *  A platform of -1 gives "unverified". Pure. */
void ecf_stacks_resolve(ecf_stack_verdict *out, const ecf_stacks *s,
                        int platform, const ecf_model *m,
                        const ecf_workload *w);

#ifdef __cplusplus
}
#endif

#endif
