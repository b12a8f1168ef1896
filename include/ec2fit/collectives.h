/**
 * ec2fit/collectives.h - measured all-reduce time by message size on one
 * NVSwitch node (docs/estimation.md 6, "All-reduce by message size"): the
 * data of src/data/collectives.c.
 */
#ifndef EC2FIT_COLLECTIVES_H
#define EC2FIT_COLLECTIVES_H

#ifdef __cplusplus
extern "C" {
#endif

/** A published single-node sweep of NCCL all_reduce, 8 GPUs. NONE: no
 *  curve (the caller keeps its link formula). */
typedef enum {
    ECF_AR_CURVE_NONE = 0,
    ECF_AR_CURVE_A100_NVSWITCH, /* 8x A100 SXM, NVLink 3, NVSwitch (p4d) */
    ECF_AR_CURVE_HOPPER_NVSWITCH, /* 8x H100 / H200 SXM, NVLink 4,
                                     NVSwitch, NVLS (p5, p5e, p5en) */
    ECF_AR_CURVE_COUNT
} ecf_ar_curve;

/** Bus bandwidth (GB/s, nccl-tests' busbw) the curve measured for an
 *  all-reduce of `bytes`: the 8-GPU time interpolated linearly in size
 *  between the published payloads, 2 x 7/8 x bytes over it. Below the
 *  smallest payload (32 KiB) the time is held (latency floor), above the
 *  largest (16 GiB) the bus bandwidth is. 0 for NONE or bytes <= 0. */
double ecf_ar_curve_busbw_gbytes_s(int curve, double bytes);

/** Seconds for an all-reduce of `bytes` over n ranks of the node:
 *  2 (n - 1) / n x bytes / busbw(bytes) (busbw is the rank-count-free
 *  figure, nccl-tests doc/PERFORMANCE.md). 0 when n <= 1, bytes <= 0 or
 *  curve NONE. */
double ecf_ar_curve_allreduce_s(int curve, double bytes, int n);

#ifdef __cplusplus
}
#endif

#endif
