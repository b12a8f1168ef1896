/* estimate_fx.h - hand-built hardware and the estimator calls the
 * estimator's unit tests share (test_estimate, test_serve_fit, test_neuron,
 * test_gemm_tokens): a GPU from its datasheet figures, an instance around
 * it, a zoo model that must exist, and an estimate that must succeed.
 * Instances are built from datasheets so the tests do not depend on
 * data/catalog.json. Included by one .c file each (after cmocka.h), so
 * the functions are static inline (a file uses what it needs). */
#ifndef EC2FIT_TESTS_ESTIMATE_FX_H
#define EC2FIT_TESTS_ESTIMATE_FX_H

#include <string.h>

#include "ec2fit/estimate.h"
#include "ec2fit/zoo.h"

#define GIB 1073741824.0

/* A GPU: dense datasheet TFLOPS per precision (0 = not supported), memory
 * bandwidth in GB/s and board power in W; id doubles as the name. */
static inline void gpu(ecf_accel *a,
                const char *id,
                const char *gen,
                double bw,
                double fp32,
                double tf32,
                double fp16,
                double bf16,
                double fp8,
                double tdp)
{
    memset(a, 0, sizeof(*a));
    a->id = (char *)id;
    a->name = (char *)id;
    a->generation = (char *)gen;
    a->kind = ECF_ACCEL_GPU;
    a->memory_bw_gbytes_s = bw;
    a->tflops[ECF_PREC_FP32] = fp32;
    a->tflops[ECF_PREC_TF32] = tf32;
    a->tflops[ECF_PREC_FP16] = fp16;
    a->tflops[ECF_PREC_BF16] = bf16;
    a->tflops[ECF_PREC_FP8] = fp8;
    a->tdp_w = tdp;
}

/* An instance of `n` x `a` (NULL: CPU only) with `mem_gib` per device, its
 * device link, vCPUs, RAM (GiB), network and EFA (Gbps; 0 = no EFA), 19
 * Gbps of EBS and 8 TB of NVMe; the family is the type. */
static inline void host(ecf_instance *in,
                 const char *type,
                 const ecf_accel *a,
                 int n,
                 double mem_gib,
                 ecf_link link,
                 double link_gbs,
                 int vcpu,
                 double ram,
                 double net,
                 double efa)
{
    memset(in, 0, sizeof(*in));
    in->type = (char *)type;
    in->family = (char *)type;
    in->accel = a;
    in->accel_count = a ? n : 0;
    in->accel_memory_gib = mem_gib;
    in->link = link;
    in->link_gbytes_s = link_gbs;
    in->vcpu = vcpu;
    in->memory_gib = ram;
    in->network_gbps = net;
    in->efa = efa > 0;
    in->efa_gbps = efa;
    in->ebs_gbps = 19;
    in->nvme_gb = 8000;
}

/* A100 SXM4 80GB (dense datasheet) and p4de.24xlarge: 8 of them on
 * NVSwitch (600 GB/s), 96 vCPUs, 1152 GiB, 400 Gbps with EFA. */
static inline void a100_80gb(ecf_accel *a)
{
    gpu(a, "a100-80gb", "ampere", 2039, 19.5, 156, 312, 312, 0, 400);
}

static inline void p4de(ecf_instance *in, const ecf_accel *a100)
{
    host(in, "p4de.24xlarge", a100, 8, 80, ECF_LINK_NVSWITCH, 600, 96, 1152,
         400, 400);
}

/* The zoo's model `name`; fails the test when the zoo has none. */
static inline const ecf_model *zoo_model(const ecf_zoo *zoo, const char *name)
{
    const ecf_model *m = ecf_zoo_find(zoo, name);
    assert_non_null(m);
    return m;
}

/* ecf_estimate_run that must succeed. */
static inline void run_ok(ecf_estimate *e,
                   const ecf_model *m,
                   ecf_workload *w,
                   const ecf_instance *in,
                   int nodes)
{
    ecf_err err = ECF_ERR_INIT;
    if (ecf_estimate_run(e, m, w, in, nodes, &err) != 0)
        fail_msg("estimate failed: %s", err.msg);
}

#endif
