/*
 * estimate_train.h - internal to src/model: one training plan candidate
 * and the pieces of the plan search (estimate_train.c) that the
 * NeuronX Distributed layouts and the global batch
 * (estimate_train_plans.c) share with it (docs/estimation.md 6).
 */
#ifndef EC2FIT_MODEL_ESTIMATE_TRAIN_H
#define EC2FIT_MODEL_ESTIMATE_TRAIN_H

#include <stdbool.h>

#include "estimate_internal.h"

/* One candidate plan and its step time: the search evaluates many and
 * keeps the fastest that fits. */
typedef struct {
    plan pl;
    int micro; /* micro-batches per optimizer step (pipeline), else 1 */
    int vp;    /* model chunks per pipeline device (interleaved), else 1 */
    int accum; /* micro-batches per optimizer step on each replica that
                  keep the global batch (ecf_train_plan_accum) */
    ecf_memory mem;
    double mult, u, compute_s, memory_s, comm_s, step_s;
    double samples_per_step, flops_per_step, sps;
    bool fits, roomy; /* fits; fits with TRAIN_HEADROOM */
} cand;

/* The samples of one optimizer step the user asked for, over all
 * replicas (docs/estimation.md 6, "Global batch"): --global-batch; else
 * the per-device micro-batch on every device of `nodes` x d->count (the
 * step of plain data parallel) x --grad-accum (1 when not given). Every
 * plan the search evaluates keeps it, whatever its TP and PP degrees. */
long ecf_train_global_batch(const ecf_workload *w, const devinfo *d, int nodes);

/* The micro-batch a plan of `dp` replicas runs, tried at `batch`: the
 * largest divisor of G / dp not above `batch`, so that micro-batch x dp x
 * micro-batches = G exactly, even below a pinned --batch-size (`pinned`:
 * the caller says so in its warning); `batch` itself when dp does not
 * divide G. */
int ecf_train_keep_batch(long global, int dp, int batch, bool pinned);

/* Micro-batches per optimizer step on each replica of plan `pl`:
 * G / (micro-batch x dp), at least 1. */
int ecf_train_plan_accum(long global, const plan *pl);

/* Evaluates `c->pl` (estimate_train.c): memory, fit and, when it fits or
 * `timed`, the step time. */
void ecf_train_eval_cand(cand *c,
                     const ecf_model *m,
                     const ecf_workload *w,
                     ecf_precision p,
                     const devinfo *d,
                     int nodes,
                     double peak,
                     bool timed);

/* Better of two evaluated candidates (fits with headroom, then fits,
 * then throughput by more than PLAN_TIE). */
bool ecf_train_cand_better(const cand *a, const cand *b);

/* Appends `c` to e's tried table (not when quiet or full). */
void ecf_train_record_try(ecf_estimate *e, const cand *c);

/* Neuron (NeuronX Distributed): whether tensor-parallel degree `tp` and
 * `pp` pipeline stages make a layout of `nodes` x d->count NeuronCores
 * for `m`: TP inside a node dividing its cores and the heads, stages
 * dividing the layers, the pipeline spanning whole nodes or lying in
 * one. Transformers only beyond tp = pp = 1. */
bool ecf_train_nxd_layout_ok(const ecf_model *m,
                         const devinfo *d,
                         int nodes,
                         int tp,
                         int pp);

/* Neuron: the leanest NxD plan (most TP, most stages, recomputing
 * unless told not to, micro-batch 1 or the pinned one) into *x, its
 * memory only; returns whether it fits. Every NxD layout is one of the
 * search's candidates, so the search finds a fit exactly when it does. */
bool ecf_train_nxd_lean(cand *x,
                    const ecf_model *m,
                    const ecf_workload *w,
                    ecf_precision p,
                    const devinfo *d,
                    int nodes);

/* Neuron: evaluates the plans NeuronX Distributed runs at micro-batch
 * `batch` (kept to the global batch `global`) and recomputation `ckpt`:
 * plain data parallel (torch-neuronx DDP; not under a pinned layout),
 * then each NxD layout, TP 1, 2, 4 ... up to a node's NeuronCores x
 * pipeline stages 1, 2, 4 ..., ZeRO-1 over the replicas (`tpn`, `ppn`:
 * a pinned --tensor-parallel / --pipeline-parallel, 0 = any). Keeps the
 * better in *best (*have: *best holds one); sets *plain_fits when a
 * plan with replicated weights fits without recomputation. */
void ecf_train_search_nxd(cand *best,
                      bool *have,
                      bool *plain_fits,
                      ecf_estimate *e,
                      const ecf_model *m,
                      const ecf_workload *w,
                      ecf_precision p,
                      const devinfo *d,
                      int nodes,
                      double peak,
                      long global,
                      int batch,
                      bool ckpt,
                      int tpn,
                      int ppn);

#endif
