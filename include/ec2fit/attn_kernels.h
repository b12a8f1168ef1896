/**
 * ec2fit/attn_kernels.h - the attention kernel a training stack runs and
 * its measured forward + backward speed (docs/estimation.md 5.3,
 * "Attention kernel"): the data of src/data/attn_kernels.c.
 */
#ifndef EC2FIT_ATTN_KERNELS_H
#define EC2FIT_ATTN_KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

/** --attention flash2|cudnn|flash3 (training). AUTO: not said; the
 *  attention core runs at the linear layers' rate (sdpa/eager keep
 *  their serving/memory meaning and leave the kernel AUTO). */
typedef enum {
    ECF_ATTN_AUTO = 0,
    ECF_ATTN_FLASH2, /* Dao-AILab flash-attn 2.x (llm-foundry, HF) */
    ECF_ATTN_CUDNN,  /* cuDNN fused attention (Transformer Engine:
                        NeMo, Megatron-LM) */
    ECF_ATTN_FLASH3, /* flash-attn 3 (Hopper) */
    ECF_ATTN_COUNT
} ecf_attn_kernel;

/** "auto", "flash2", "cudnn", "flash3"; "unknown" out of range. */
const char *ecf_attn_kernel_name(int kernel);

/** The kernel named s, or -1. */
int ecf_attn_kernel_parse(const char *s);

/** Model-FLOP rate of the kernel's causal forward + backward at sequence
 *  seq on an H100 SXM5, as a fraction of its dense 16-bit peak (989.5
 *  TFLOPS): 3 / (1 / fwd + 2.5 / bwd) / 989.5 from the FlashAttention-3
 *  paper's head-dim-128 measurements, interpolated in log2(seq) between
 *  512 and 16k and held flat outside. 0 for AUTO (not a measured kernel).
 *  Applies to Hopper parts only; the caller decides. */
double ecf_attn_kernel_hopper_eff(int kernel, double seq);

#ifdef __cplusplus
}
#endif

#endif
