/*
 * estimate_gemm.h - per-GEMM roofline terms of transformer inference,
 * internal to src/model: the activation bytes (A read, C written) of a
 * layer stack's GEMMs at M tokens (docs/estimation.md 5.3, 5.4).
 */
#ifndef EC2FIT_MODEL_ESTIMATE_GEMM_H
#define EC2FIT_MODEL_ESTIMATE_GEMM_H

#include "ec2fit/zoo.h"

/* Bytes one token moves through the GEMMs of the whole layer stack on one
 * of `tp` tensor-parallel ranks, elements of `elem` bytes: every linear
 * layer reads its input row and writes its output row (the A and C of a
 * GEMM; B, the weights, is counted once per pass by the caller).
 * Column-parallel layers (QKV, MLP up/gate) read the full input and write
 * 1/tp of the output; row-parallel ones (attention out, MLP down) read
 * 1/tp and write the full width. 0 for models without layer shapes. */
double ecf_est_gemm_act_bytes_per_token(const ecf_model *m, int tp,
                                        double elem);

/* Bytes per token that one of `tp` tensor-parallel ranks of an LLM moves
 * in element-wise kernels beyond its 1/tp share (docs/estimation.md 5.3,
 * "Replicated element-wise work under tensor parallelism"): the two fused
 * residual-add + RMSNorm passes of every layer run on the full width on
 * every rank (each reads the input and the residual and writes both,
 * 4 h elements), so of their layers x 8 h elements x `elem` bytes per
 * token, (1 - 1/tp) is what a split would have saved and the single
 * device's figures do not charge. 0 at tp 1 and without layer shapes. */
double ecf_est_tp_replicated_bytes(const ecf_model *m, int tp, double elem);

/* Measured fraction of an H100 SXM's dense 16-bit peak that an inference
 * GEMM of M tokens reaches where it is compute-bound (docs/estimation.md
 * 5.3, "Compute efficiency by M"): interpolated linearly in M between
 * the published sweep's points, flat outside them. */
double ecf_est_gemm_eff_tokens(double M);

#endif
