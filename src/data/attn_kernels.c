/*
 * attn_kernels.c - the attention kernels of training stacks and their
 * measured speed on Hopper (ec2fit/attn_kernels.h; docs/estimation.md 5.3,
 * "Attention kernel"). Pure lookups over a constant table; no I/O.
 */
#include "ec2fit/attn_kernels.h"

#include <math.h>
#include <string.h>

static const char *const names[ECF_ATTN_COUNT] = {"auto", "flash2", "cudnn",
                                                  "flash3"};

#define NSEQ 6
/* Shah et al. 2024, FlashAttention-3 (arXiv 2407.08608), H100 80GB SXM5,
 * BF16/FP16, head dim 128, at sequence 512, 1k, 2k, 4k, 8k, 16k (batch x
 * seq = 16k, hidden 2048): fig. 4 "Attention forward speed", causal mask
 * panel (TFLOPS/s, causal FLOPs halved) and fig. 5 "Attention backward
 * speed" (TFLOPS/s in the paper's count, 2.5 x the forward's FLOPs; the
 * paper's backward figure has no causal panel). Index ECF_ATTN_*. */
static const double fwd_tflops[ECF_ATTN_COUNT][NSEQ] = {
    {0, 0, 0, 0, 0, 0},
    {191, 260, 298, 319, 333, 335}, /* FlashAttention-2 */
    {315, 410, 484, 518, 529, 539}, /* cuDNN */
    {292, 423, 521, 579, 602, 616}, /* FlashAttention-3 */
};
static const double bwd_tflops[ECF_ATTN_COUNT][NSEQ] = {
    {0, 0, 0, 0, 0, 0},
    {214, 260, 291, 310, 318, 322},
    {305, 408, 465, 499, 518, 516},
    {316, 424, 501, 542, 559, 561},
};
/* The H100 SXM5's dense BF16 peak the paper's "75% utilization" at 740
 * TFLOPS/s refers to (catalog: 989.5). */
#define H100_BF16_TFLOPS 989.5

const char *ecf_attn_kernel_name(int kernel)
{
    return kernel >= 0 && kernel < ECF_ATTN_COUNT ? names[kernel] : "unknown";
}

int ecf_attn_kernel_parse(const char *s)
{
    int i;
    for (i = 0; i < ECF_ATTN_COUNT; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* Forward + backward in model FLOPs (backward = 2 x forward, as the
 * estimator counts it): 3 units of forward work take 1 / fwd + 2.5 / bwd
 * (the kernel's backward recomputes the scores: 2.5 x forward FLOPs). */
static double eff_at(int k, int i)
{
    return 3.0 / (1.0 / fwd_tflops[k][i] + 2.5 / bwd_tflops[k][i]) /
           H100_BF16_TFLOPS;
}

double ecf_attn_kernel_hopper_eff(int kernel, double seq)
{
    double x;
    int i;
    if (kernel <= ECF_ATTN_AUTO || kernel >= ECF_ATTN_COUNT || seq <= 0)
        return 0;
    x = log2(seq / 512.0); /* 0 at 512, 5 at 16k */
    if (x <= 0)
        return eff_at(kernel, 0);
    if (x >= NSEQ - 1)
        return eff_at(kernel, NSEQ - 1);
    i = (int)x;
    return eff_at(kernel, i) +
           (x - i) * (eff_at(kernel, i + 1) - eff_at(kernel, i));
}
