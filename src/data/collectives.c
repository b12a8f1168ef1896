/*
 * collectives.c - published single-node all-reduce sweeps (time by message
 * size, 8 GPUs) and the all-reduce time they give at any size and rank
 * count (ec2fit/collectives.h; docs/estimation.md 6, "All-reduce by
 * message size"). Pure lookups over constant tables; no I/O.
 */
#include "ec2fit/collectives.h"

#define KIB 1024.0
#define MIB (1024.0 * KIB)
#define GIB (1024.0 * MIB)

typedef struct {
    double bytes;
    double us; /* one all_reduce over 8 GPUs */
} ar_point;

/* 8x A100 (NVLink 3, NVSwitch): nccl-tests `all_reduce_perf -b 32k -e 16G
 * -f 2 -g 8 -n 50` on one A100 node, the time column as printed
 * (stas00/ml-engineering network/README.md, "Real network throughput",
 * @744d01e1, 2026-08-22). busbw 234.89 GB/s at 16 GiB. */
static const ar_point a100[] = {
    {32 * KIB, 43.83},   {64 * KIB, 46.80},   {128 * KIB, 51.76},
    {256 * KIB, 61.38},  {512 * KIB, 80.40},  {1 * MIB, 101.9},
    {2 * MIB, 101.4},    {4 * MIB, 101.5},    {8 * MIB, 133.5},
    {16 * MIB, 276.6},   {32 * MIB, 424.0},   {64 * MIB, 684.6},
    {128 * MIB, 1327.6}, {256 * MIB, 2420.6}, {512 * MIB, 4218.4},
    {1 * GIB, 8203.9},   {2 * GIB, 16240},    {4 * GIB, 32136},
    {8 * GIB, 64074},    {16 * GIB, 127997},
};

/* 8x Hopper (NVLink 4, 18 links, NVSwitch; NCCL reduces in the switch,
 * NVLS, from 2 MiB). To 16 MiB: 8x H100 intra-node, NCCL through
 * torch.distributed (ByteDance-Seed/Triton-distributed issue #57,
 * 2025-07-14, "NCCL (us)" column, its KB/MB payloads read as the powers
 * of two they are; its 2 MiB entry, 290.73 us between
 * 32.42 at 1 MiB and 59.43 at 4 MiB, is a one-off stall and is left out).
 * From 32 MiB: 8x H200 SXM, NV18, torch 2.9.1 + NCCL 2.27.7, payload /
 * algbw (stas00/ml-engineering network/benchmarks/results/
 * all-reduce-8xH200.md @c53741b8, measured 2026-08-04; its 16 MiB point,
 * 133.52 us, meets the H100 sweep's 135.68). busbw 482.26 GB/s at 16 GiB,
 * past the 450 GB/s unidirectional link: the switch does the reduction. */
static const ar_point hopper[] = {
    {32 * KIB, 22.65},   {64 * KIB, 23.05},   {128 * KIB, 23.71},
    {256 * KIB, 24.76},  {512 * KIB, 25.24},  {1 * MIB, 32.42},
    {4 * MIB, 59.43},    {8 * MIB, 90.51},    {16 * MIB, 135.68},
    {32 * MIB, 212.88},  {64 * MIB, 338.92},  {128 * MIB, 584.39},
    {256 * MIB, 1077.06}, {512 * MIB, 2086.48}, {1 * GIB, 4053.39},
    {2 * GIB, 8010.01},  {4 * GIB, 15887.3},  {8 * GIB, 31484.6},
    {16 * GIB, 62340.8},
};

static const struct {
    const ar_point *pts;
    int n;
} curves[ECF_AR_CURVE_COUNT] = {
    [ECF_AR_CURVE_NONE] = {0, 0},
    [ECF_AR_CURVE_A100_NVSWITCH] = {a100, (int)(sizeof a100 / sizeof *a100)},
    [ECF_AR_CURVE_HOPPER_NVSWITCH] = {hopper,
                                      (int)(sizeof hopper / sizeof *hopper)},
};

double ecf_ar_curve_busbw_gbytes_s(int curve, double bytes)
{
    const ar_point *p;
    double us;
    int i, n;
    if (curve <= ECF_AR_CURVE_NONE || curve >= ECF_AR_CURVE_COUNT ||
        bytes <= 0)
        return 0;
    p = curves[curve].pts;
    n = curves[curve].n;
    if (bytes >= p[n - 1].bytes) /* past the sweep: its last busbw */
        return 1.75 * p[n - 1].bytes / (p[n - 1].us * 1e3);
    if (bytes <= p[0].bytes) {
        us = p[0].us; /* latency floor */
    } else {
        for (i = 1; i < n - 1 && bytes > p[i].bytes; i++)
            ;
        us = p[i - 1].us + (bytes - p[i - 1].bytes) /
                               (p[i].bytes - p[i - 1].bytes) *
                               (p[i].us - p[i - 1].us);
    }
    return 1.75 * bytes / (us * 1e3);
}

double ecf_ar_curve_allreduce_s(int curve, double bytes, int n)
{
    double busbw;
    if (n <= 1)
        return 0;
    busbw = ecf_ar_curve_busbw_gbytes_s(curve, bytes);
    if (busbw <= 0)
        return 0;
    return 2.0 * (n - 1) / n * bytes / (busbw * 1e9);
}
