/* test_train_variants.c - issue 14's training variants on the embedded
 * catalog and zoo: the LM head's logits at the loss (--cross-entropy),
 * ZeRO-1/2 in the plan search, and sequence packing (--packing
 * --mean-seq-len); docs/estimation.md 4.1, 5.1 and 6. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ec2fit/estimate.h"

#include "embedded_fx.h"

#define GIB 1073741824.0

static const ecf_train_try *tried(const ecf_estimate *e, ecf_parallelism p,
                                  int batch, bool ckpt)
{
    int i;
    for (i = 0; i < e->n_tried; i++)
        if (e->tried[i].parallelism == p && e->tried[i].batch == batch &&
            e->tried[i].checkpointing == ckpt)
            return &e->tried[i];
    return NULL;
}

/* Llama-3.1-8B (vocab 128,256, hidden 4096, 32 layers) fine-tuned at
 * sequence 8192, batch 1, with recomputation, on one H100 of p5. The
 * activations are the checkpointed layer inputs, 32 x 2 x 8192 x 4096 =
 * 2,147,483,648 B, one layer's full set, 8192 x 4096 x 34 =
 * 1,140,850,688 B, and the logits at the loss: 8192 x 128,256 x 10 B
 * (bf16 logits + fp32 log-probabilities + fp32 gradient) =
 * 10,506,731,520 B; 13,795,065,856 B = 12.847656 GiB in all. torchtune's
 * chunked loss keeps 3 B (bf16 + one fp32 chunk in 8 of 8 B), a fused
 * kernel 4 B (bf16 logits and gradient). torchtitan measured the chunked
 * loss lowering Llama-3-8B's peak at sequence 8192 by 7.32 GiB
 * (pytorch/torchtitan#996: 49.58 -> 42.26 GiB); the model's 7 B x 8192 x
 * 128,256 = 6.85 GiB is within 7% of it. */
static void test_train_variants__logits_at_the_loss(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate full, chunked, fused;
    double saved;

    w.task = ECF_TASK_FINETUNE;
    w.batch_size = 1;
    w.seq_len = 8192;
    w.activation_checkpointing = ECF_CKPT_ON;
    fx_est(&full, f, "llama-3.1-8b", &w, "p5.48xlarge", 1);
    assert_int_equal(full.tp_degree, 1);
    assert_float_equal(full.memory.activations_gib, 12.847656, 1e-5);

    w.cross_entropy = ECF_CE_CHUNKED;
    fx_est(&chunked, f, "llama-3.1-8b", &w, "p5.48xlarge", 1);
    assert_int_equal(chunked.tp_degree, 1);
    saved = full.memory.activations_gib - chunked.memory.activations_gib;
    assert_float_equal(saved, 7.0 * 8192 * 128256 / GIB, 1e-6);
    assert_true(fabs(saved - 7.32) / 7.32 < 0.07);

    w.cross_entropy = ECF_CE_FUSED;
    fx_est(&fused, f, "llama-3.1-8b", &w, "p5.48xlarge", 1);
    assert_float_equal(full.memory.activations_gib -
                           fused.memory.activations_gib,
                       6.0 * 8192 * 128256 / GIB, 1e-6);
    /* the loss form changes memory only, not the FLOPs */
    assert_float_equal(fused.flops_per_step / fused.samples_per_step,
                       full.flops_per_step / full.samples_per_step, 1.0);
}

/* BERT-large fine-tuned at `batch` x 512 tokens without recomputation,
 * the workload the single-V100 (p3.2xlarge) tests below share: Hugging
 * Face's Trainer of the "model memory anatomy" page (transformers v4.27,
 * whose BertSelfAttention stores its scores: --attention eager). */
static void bert_ft(ecf_workload *w, ecf_precision p, int batch)
{
    w->task = ECF_TASK_FINETUNE;
    w->precision = p;
    w->batch_size = batch;
    w->seq_len = 512;
    w->activation_checkpointing = ECF_CKPT_OFF;
    w->naive_attention = true;
}

/* --master-weights amp: torch.amp autocast over fp32 weights (the
 * Hugging Face Trainer's fp16=True). BERT-large at batch 4 x 512 on a
 * V100: the gradients are fp32 (4 B/param instead of 2), the 2-byte
 * weights term is autocast's cached fp16 copy and the fp32 weights are the
 * 4-byte master: 2 + 4 + 12 = 18 B/param, Hugging Face's "model memory
 * anatomy" figure for mixed precision with AdamW. softmax runs in fp32
 * under autocast, 2 more bytes a score: 4 x 2 x 16 heads x 512^2 x 24
 * layers = 805,306,368 B = 0.75 GiB. docs/estimation.md 4.1. */
static void test_train_variants__amp_master_weights(void **state)
{
    fx *f = *state;
    const ecf_model *m = fx_model(f, "bert-large");
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate mixed, amp;

    bert_ft(&w, ECF_PREC_FP16, 4);
    fx_est(&mixed, f, "bert-large", &w, "p3.2xlarge", 1);
    w.master_weights = ECF_MASTER_AMP;
    fx_est(&amp, f, "bert-large", &w, "p3.2xlarge", 1);
    assert_float_equal(mixed.memory.gradients_gib, m->params * 2.0 / GIB,
                       1e-9);
    assert_float_equal(amp.memory.gradients_gib, m->params * 4.0 / GIB, 1e-9);
    assert_float_equal(amp.memory.weights_gib, mixed.memory.weights_gib,
                       1e-12);
    assert_float_equal(amp.memory.optimizer_gib, m->params * 12.0 / GIB,
                       1e-9);
    assert_float_equal(amp.memory.activations_gib -
                           mixed.memory.activations_gib,
                       0.75, 1e-9);
    assert_float_equal(ecf_estimate_min_total_gib(m, &w),
                       m->params * 18.0 / GIB, 1e-9);
    /* fp32 training is untouched by the flag */
    w.precision = ECF_PREC_FP32;
    fx_est(&amp, f, "bert-large", &w, "p3.2xlarge", 1);
    assert_float_equal(amp.memory.gradients_gib, m->params * 4.0 / GIB, 1e-9);
    assert_float_equal(amp.memory.optimizer_gib, m->params * 8.0 / GIB, 1e-9);
}

/* Model states per device against the ZeRO paper's Figure 1 (Psi = 7.5B,
 * K = 12, Nd = 64): baseline (2 + 2 + K) Psi = 120 GB, P_os 2 Psi + 2 Psi
 * + K Psi / Nd = 31.4, P_os+g 2 Psi + (2 + K) Psi / Nd = 16.6, P_os+g+p
 * (2 + 2 + K) Psi / Nd = 1.9 (Rajbhandari et al. 2020). */
static void test_train_variants__zero_model_states(void **state)
{
    ecf_model m;
    ecf_workload w = ECF_WORKLOAD_INIT;
    (void)state;

    memset(&m, 0, sizeof(m));
    m.kind = ECF_KIND_DECODER;
    m.params = m.active_params = 7.5e9;
    w.task = ECF_TASK_TRAIN;
    w.precision = ECF_PREC_FP16;
    assert_float_equal(ecf_estimate_model_state_gib(&m, &w, ECF_PAR_DP, 64) *
                           GIB,
                       120e9, 1);
    assert_float_equal(
        ecf_estimate_model_state_gib(&m, &w, ECF_PAR_ZERO1, 64) * GIB,
        31.40625e9, 1);
    assert_float_equal(
        ecf_estimate_model_state_gib(&m, &w, ECF_PAR_ZERO2, 64) * GIB,
        16.640625e9, 1);
    assert_float_equal(ecf_estimate_model_state_gib(&m, &w, ECF_PAR_FSDP, 64) *
                           GIB,
                       1.875e9, 1);
}

/* ZeRO-1/2 (Rajbhandari et al. 2020): llama-2-7b (6,738,415,616 params)
 * fine-tuned on 2 x p4de.24xlarge (16 A100-80GB). Data parallel needs 16
 * B/param = 100.4 GiB; ZeRO-1 keeps bf16 weights and gradients whole
 * (12.551277 GiB each) and shards the 12 B/param of fp32 master + Adam
 * over the 16 ranks (4.706729 GiB); ZeRO-2 shards the gradients too
 * (0.784452 GiB). (On 4 nodes TP8 x PP2 now beats ZeRO-1 by 4%: the A100's
 * faster LLM compute, docs/estimation.md 5.3 "Width term by part", leaves
 * more of the gradient all-reduce exposed.) Both move one all-reduce of the gradients per step,
 * FSDP 1.5x (two all-gathers and a reduce-scatter), so at the same batch
 * ZeRO is never slower than FSDP, and it wins the search. */
static void test_train_variants__zero_stages(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    const ecf_train_try *z1, *z2, *fs, *dp;
    double P = 6738415616.0;

    w.task = ECF_TASK_FINETUNE;
    w.batch_size = 1;
    w.seq_len = 2048;
    w.activation_checkpointing = ECF_CKPT_ON;
    fx_est(&e, f, "llama-2-7b", &w, "p4de.24xlarge", 2);
    assert_int_equal(e.parallelism, ECF_PAR_ZERO1);
    assert_string_equal(ecf_parallelism_name(e.parallelism), "zero-1");
    assert_float_equal(e.memory.weights_gib, 2.0 * P / GIB, 1e-6);
    assert_float_equal(e.memory.gradients_gib, 2.0 * P / GIB, 1e-6);
    assert_float_equal(e.memory.optimizer_gib, 12.0 * P / 16 / GIB, 1e-6);
    assert_float_equal(e.memory.optimizer_gib, 4.706729, 1e-5);

    dp = tried(&e, ECF_PAR_DP, 1, true);
    z1 = tried(&e, ECF_PAR_ZERO1, 1, true);
    z2 = tried(&e, ECF_PAR_ZERO2, 1, true);
    fs = tried(&e, ECF_PAR_FSDP, 1, true);
    assert_non_null(dp);
    assert_non_null(z1);
    assert_non_null(z2);
    assert_non_null(fs);
    assert_false(dp->fits);
    assert_true(z1->fits && z2->fits && fs->fits);
    /* ZeRO-2 holds 2 B/param of gradients less, less 1/16 */
    assert_float_equal(z1->mem_gib - z2->mem_gib,
                       2.0 * P * (1 - 1.0 / 16) / GIB * 1.05, 1e-4);
    assert_true(z1->step_time_s <= fs->step_time_s);
    assert_true(z2->step_time_s <= fs->step_time_s);
    assert_non_null(strstr(ecf_parallelism_name(ECF_PAR_ZERO2), "zero-2"));
}

/* Where a full replica fits, data parallel stays the plan: BERT-large at
 * batch 32 x 512 on p4d (issue 14's acceptance keeps DP on p5). */
static void test_train_variants__dp_when_it_fits(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_TRAIN;
    w.batch_size = 32;
    w.seq_len = 512;
    fx_est(&e, f, "bert-large", &w, "p4d.24xlarge", 1);
    assert_int_equal(e.parallelism, ECF_PAR_DP);
    assert_null(tried(&e, ECF_PAR_ZERO1, 32, false));
}

/* Packing (Krell et al. 2021: Wikipedia at sequence 512 is over 50%
 * padding; packing it gives BERT 2x the sequences/s): rows of 512 tokens
 * holding samples of 256 on average hold 2 samples, the memory of a row is
 * unchanged, and with attention per sample the throughput rises a little
 * over 2x (bert-large: 2 x (2 x 302M + 4 x 24 x 512 x 1024) /
 * (2 x 302M + 4 x 24 x 256 x 1024) = 2.08 in the forward FLOPs, the
 * ratio under the default fused attention (SDPA); with eager attention
 * the materialised scores of encoder training (docs 5.4) are per sample
 * too, a quarter of the padded row's per sample, which takes the estimate
 * to 2.32x: 581.9 -> 1349.4 samples/s on p4d.24xlarge). */
static void test_train_variants__packing_bert(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate pad, pack;
    double ratio;

    w.task = ECF_TASK_TRAIN;
    w.batch_size = 32;
    w.seq_len = 512;
    w.dataset_amount = 2.4e6;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.startup_set = true; /* time of the training itself */
    w.startup_s = 0;
    fx_est(&pad, f, "bert-large", &w, "p4d.24xlarge", 1);
    w.packing = true;
    w.mean_seq_len = 256;
    fx_est(&pack, f, "bert-large", &w, "p4d.24xlarge", 1);
    assert_int_equal(pack.parallelism, pad.parallelism);
    assert_int_equal(pack.batch_size, pad.batch_size);
    assert_float_equal(pack.memory.total_per_device_gib,
                       pad.memory.total_per_device_gib, 1e-9);
    assert_float_equal(pack.samples_per_step, 2.0 * pad.samples_per_step,
                       1e-9);
    ratio = pack.samples_per_s / pad.samples_per_s;
    assert_true(ratio > 2.07 && ratio < 2.09);
    assert_float_equal(pack.time_hours * ratio, pad.time_hours, 1e-3);
    /* eager attention: the scores' traffic shrinks 4x per sample too */
    w.naive_attention = true;
    w.packing = false;
    w.mean_seq_len = 0;
    fx_est(&pad, f, "bert-large", &w, "p4d.24xlarge", 1);
    w.packing = true;
    w.mean_seq_len = 256;
    fx_est(&pack, f, "bert-large", &w, "p4d.24xlarge", 1);
    ratio = pack.samples_per_s / pad.samples_per_s;
    assert_true(ratio > 2.2 && ratio < 2.4);
}

/* Packed LLM rows: tokens/s counts real tokens (samples/s x the mean
 * length), and a token dataset is that many real tokens. */
static void test_train_variants__packing_llm_tokens(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_FINETUNE;
    w.seq_len = 8192;
    w.packing = true;
    w.mean_seq_len = 512;
    w.dataset_amount = 1e9;
    w.dataset_unit = ECF_DATASET_TOKENS;
    fx_est(&e, f, "llama-3.1-8b", &w, "p5.48xlarge", 1);
    assert_float_equal(e.tokens_per_s, e.samples_per_s * 512, 1e-6);
    assert_float_equal(e.samples_per_step,
                       16.0 * e.batch_size * e.dp_degree, 1e-9);
}

/* fp8 training runs only the linear layers in fp8 (Transformer Engine's
 * te.Linear / LayerNormLinear / LayerNormMLP); the attention core (QK^T
 * and PV) stays in bf16. Llama-3.1-8B at 8192 tokens on p5 (H100: bf16
 * 989.5, fp8 1979 TFLOPS): the attention core is 0.5 x 4 x 32 layers x
 * 8192 x 32 heads x 128 = 2^35 FLOPs per token forward; the rest (the
 * linear layers) speeds up by 2 x U_FP8 = 1.7 and the attention core not
 * at all, so compute(fp8) / compute(bf16) = (1 - x) / 1.7 + x, x the
 * attention share. Same plan in both (FSDP, batch 1, recomputation). */
static void test_train_variants__fp8_attention_core_bf16(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate bf, f8;
    double per_tok, x;

    w.task = ECF_TASK_FINETUNE;
    w.batch_size = 1;
    w.batch_explicit = true;
    w.seq_len = 8192;
    w.activation_checkpointing = ECF_CKPT_ON;
    w.precision = ECF_PREC_BF16;
    fx_est(&bf, f, "llama-3.1-8b", &w, "p5.48xlarge", 1);
    w.precision = ECF_PREC_FP8;
    w.precision_explicit = true;
    fx_est(&f8, f, "llama-3.1-8b", &w, "p5.48xlarge", 1);
    assert_int_equal(bf.parallelism, f8.parallelism);
    assert_int_equal(bf.batch_size, f8.batch_size);
    assert_true(bf.activation_checkpointing && f8.activation_checkpointing);
    assert_float_equal(bf.flops_per_step, f8.flops_per_step, 1.0);
    /* forward FLOPs per token: flops_per_step / (4 x samples x 8192) */
    per_tok = bf.flops_per_step / (4.0 * bf.samples_per_step * 8192.0);
    x = 0.5 * 4.0 * 32 * 8192.0 * 32 * 128 / per_tok;
    assert_true(x > 0.12 && x < 0.13); /* 2^35 of ~2.71e11 */
    assert_float_equal(f8.compute_s / bf.compute_s, (1.0 - x) / 1.7 + x,
                       1e-9);
}

/* The width term of LLM-decoder training scales with the part's 16-bit
 * FLOPS : bytes ratio over the H100's (989.5 TFLOPS / 3,350 GB/s): on
 * p4d (A100-40GB, 312 / 1,555) the half-width is 1024 x (312 / 1555) /
 * (989.5 / 3350) = 695.6, so Llama-3.1-8B (h 4096) trains at 0.56 x
 * (0.859 / 0.801) x 4096 / (4096 + 695.6) of peak; on p5 (the anchor)
 * at 0.56 x 4096 / 5120. An encoder (BERT-large, h 1024) keeps 1024 on
 * both (docs/estimation.md 5.3, "Width term by part"). */
static void test_train_variants__width_term_by_part(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate a, h, b;
    double half = 1024.0 * (312.0 / 1555.0) / (989.5 / 3350.0);

    w.task = ECF_TASK_FINETUNE;
    w.seq_len = 2048;
    w.precision = ECF_PREC_BF16;
    fx_est(&a, f, "llama-3.1-8b", &w, "p4d.24xlarge", 1);
    fx_est(&h, f, "llama-3.1-8b", &w, "p5.48xlarge", 1);
    assert_float_equal(half, 695.59, 0.01);
    assert_float_equal(a.utilization,
                       0.56 * (0.859 / 0.801) * 4096.0 / (4096.0 + half),
                       1e-12);
    assert_float_equal(h.utilization, 0.56 * 4096.0 / 5120.0, 1e-12);
    w.seq_len = 512;
    fx_est(&b, f, "bert-large", &w, "p4d.24xlarge", 1);
    assert_float_equal(b.utilization, 0.56 * (0.859 / 0.801) * 0.5, 1e-12);
}

/* --grad-accum N: N micro-batches, then one optimizer step. BERT-large
 * fine-tuned in fp32 at batch 1 x 512 tokens on one V100 (p3.2xlarge):
 * unset, the optimizer's pass over weights, gradients and Adam states
 * (4 + 4 + 8 B/param, read and written) is taken as amortised and the
 * step is the compute alone (max); given, the step is the compute plus
 * that pass over N, and the memory term is the pass over N plus, on
 * N - 1 of the N micro-batches, the accumulation pass: the fp32
 * gradient buffer and the new gradient read, the buffer written (3 x 4
 * B/param; TensorFlow's fp32 accumulator variables the same)
 * (docs/estimation.md 5.4). Serving has no optimizer step. */
static void test_train_variants__grad_accum(void **state)
{
    fx *f = *state;
    const ecf_model *m = fx_model(f, "bert-large");
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate unset, one, four, tf4;
    ecf_err err = ECF_ERR_INIT;
    double pass, acc;

    bert_ft(&w, ECF_PREC_FP32, 1);
    fx_est(&unset, f, "bert-large", &w, "p3.2xlarge", 1);
    w.grad_accum = 1;
    fx_est(&one, f, "bert-large", &w, "p3.2xlarge", 1);
    w.grad_accum = 4;
    fx_est(&four, f, "bert-large", &w, "p3.2xlarge", 1);
    w.framework = ECF_FW_TENSORFLOW;
    fx_est(&tf4, f, "bert-large", &w, "p3.2xlarge", 1);
    w.framework = ECF_FW_PYTORCH;
    pass = m->params * 16.0 * 2.0 / (900e9 * 0.70);
    acc = 3.0 * 4.0 * m->params * 3.0 / 4.0 / (900e9 * 0.70);
    assert_float_equal(unset.memory_s, pass, pass * 0.01);
    assert_float_equal(unset.step_time_s, unset.compute_s, 1e-12);
    assert_float_equal(one.step_time_s, one.compute_s + unset.memory_s,
                       1e-12);
    assert_float_equal(four.memory_s, unset.memory_s / 4.0 + acc,
                       acc * 0.01);
    assert_float_equal(tf4.memory_s, four.memory_s, acc * 0.01);
    assert_float_equal(four.step_time_s, four.compute_s + four.memory_s,
                       1e-12);
    assert_float_equal(four.compute_s, unset.compute_s, 1e-12);

    w.task = ECF_TASK_INFER;
    w.resolved = false;
    assert_int_equal(ecf_workload_resolve(&w, m, &err), ECF_EINVAL);
    assert_string_equal(err.msg, "--grad-accum: counts micro-batches per "
                                 "optimizer step of a training run; --task "
                                 "infer has none");
}

/* llama-2-70b at batch 1 x 4096 with recomputation, pinned to TP 4 x PP 4
 * (the layout the two pipeline tests below share). */
static void pin_tp4_pp4(ecf_workload *w)
{
    w->task = ECF_TASK_TRAIN;
    w->precision = ECF_PREC_BF16;
    w->batch_size = 1;
    w->seq_len = 4096;
    w->activation_checkpointing = ECF_CKPT_ON;
    w->tensor_parallel = 4;
    w->pipeline_parallel = 4;
}

/* --tensor-parallel / --pipeline-parallel pin the Megatron layout (TP 4
 * in half a node, 4 stages), and --virtual-stages v runs the interleaved
 * 1F1B schedule: bubble (p - 1) / (v m) instead of (p - 1) / m (Narayanan
 * et al. 2021, sec. 2.2.2), first-stage activations x (1 + (p - 1) /
 * (p v)) (Megatron-LM interleaved_schedule_memory_penalty); docs/
 * estimation.md 6, "Pipeline". */
static void test_train_variants__pinned_interleaved_pipeline(void **state)
{
    fx *f = *state;
    const ecf_model *m = fx_model(f, "llama-2-70b");
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate plain, inter, own;
    ecf_err err = ECF_ERR_INIT;
    /* the global batch is batch 1 x 64 GPUs: 4 replicas run m = 16 */
    double mb = 64.0 / 4;

    pin_tp4_pp4(&w);
    fx_est(&plain, f, "llama-2-70b", &w, "p5.48xlarge", 8);
    assert_true(plain.plan_pinned);
    assert_int_equal(plain.parallelism, ECF_PAR_TP_PP);
    assert_int_equal(plain.tp_degree, 4);
    assert_int_equal(plain.pp_degree, 4);
    assert_int_equal(plain.dp_degree, 4);
    assert_int_equal(plain.global_batch, 64);
    assert_int_equal(plain.grad_accum_steps, 16);
    w.virtual_stages = 20;
    fx_est(&inter, f, "llama-2-70b", &w, "p5.48xlarge", 8);
    assert_float_equal(inter.compute_s / plain.compute_s,
                       (1.0 + 3.0 / (20.0 * mb)) / (1.0 + 3.0 / mb), 1e-9);
    assert_float_equal(inter.memory.activations_gib /
                           plain.memory.activations_gib,
                       1.0 + 3.0 / (4.0 * 20.0), 1e-9);
    assert_true(inter.step_time_s < plain.step_time_s);

    /* a layout the cluster cannot take (40 stages x TP 4 = 160 devices
     * on 64): the search's own plan */
    w.virtual_stages = 0;
    w.pipeline_parallel = 40;
    fx_est(&own, f, "llama-2-70b", &w, "p5.48xlarge", 8);
    assert_false(own.plan_pinned);
    assert_true(own.fits);

    /* a layout no cluster can take (80 layers in 3 stages) is a usage
     * error (issue 28), no longer a warning only JSON showed */
    w.pipeline_parallel = 3;
    w.resolved = false;
    assert_int_equal(ecf_workload_resolve(&w, m, &err), ECF_EINVAL);
    assert_string_equal(err.msg, "--pipeline-parallel 3: llama-2-70b has 80 "
                                 "layers, which do not split into 3 equal "
                                 "stages");

    /* interleaving needs a pipeline */
    err = (ecf_err)ECF_ERR_INIT;
    w.pipeline_parallel = 0;
    w.virtual_stages = 2;
    w.resolved = false;
    assert_int_equal(ecf_workload_resolve(&w, m, &err), ECF_EINVAL);
}

/* --global-batch G sets the micro-batches per step: Megatron-LM's
 * num_microbatches = G / (micro-batch x data-parallel replicas). The
 * pinned TP 4 x PP 4 llama-2-70b layout on 8 nodes has 4 replicas: not
 * given, G is batch 1 x 64 GPUs = 64 (m = 16, the same step as
 * --global-batch 64); G = 128 gives m = 32, G = 16 gives m = 4 and the
 * 1F1B bubble (p - 1) / m. Without a pipeline the count is
 * the --grad-accum one: BERT-large on one V100 at G = 4 steps as
 * --grad-accum 4; both flags must agree (docs/estimation.md 6). */
static void test_train_variants__global_batch(void **state)
{
    fx *f = *state;
    const ecf_model *m = fx_model(f, "bert-large");
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate dflt, g128, g16, accum, gbs;
    ecf_err err = ECF_ERR_INIT;

    pin_tp4_pp4(&w);
    fx_est(&dflt, f, "llama-2-70b", &w, "p5.48xlarge", 8);
    assert_int_equal(dflt.global_batch, 64);
    w.global_batch = 64;
    fx_est(&g128, f, "llama-2-70b", &w, "p5.48xlarge", 8);
    assert_float_equal(g128.step_time_s, dflt.step_time_s, 1e-12);
    w.global_batch = 128;
    fx_est(&g128, f, "llama-2-70b", &w, "p5.48xlarge", 8);
    assert_int_equal(g128.dp_degree, 4);
    assert_int_equal(g128.global_batch, 128);
    assert_float_equal(g128.samples_per_step, 128.0, 1e-9);
    w.global_batch = 16;
    fx_est(&g16, f, "llama-2-70b", &w, "p5.48xlarge", 8);
    assert_float_equal(g16.samples_per_step, 16.0, 1e-9);
    assert_float_equal((g16.compute_s / 4.0) / (g128.compute_s / 32.0),
                       (1.0 + 3.0 / 4.0) / (1.0 + 3.0 / 32.0), 1e-9);

    w = (ecf_workload)ECF_WORKLOAD_INIT;
    bert_ft(&w, ECF_PREC_FP32, 1);
    w.grad_accum = 4;
    fx_est(&accum, f, "bert-large", &w, "p3.2xlarge", 1);
    w.grad_accum = 0;
    w.global_batch = 4;
    fx_est(&gbs, f, "bert-large", &w, "p3.2xlarge", 1);
    assert_float_equal(gbs.step_time_s, accum.step_time_s, 1e-12);
    assert_float_equal(gbs.memory_s, accum.memory_s, 1e-12);

    w.grad_accum = 3;
    w.resolved = false;
    assert_int_equal(ecf_workload_resolve(&w, m, &err), ECF_EINVAL);
    assert_string_equal(err.msg, "--global-batch 4 and --grad-accum 3 "
                                 "disagree: the global batch is --grad-accum "
                                 "x batch x data-parallel replicas");
}

/* Diffusion training activations from the UNet's shape (issue 24;
 * docs/estimation.md 4.3, "Diffusion training"): SD 1.5 at 512x512 saves
 * 488.24 M elements per sample (ResBlocks 3 ci + 3 co channel-planes,
 * transformer blocks 30c + 3c, the down/upsampler inputs), 931.25 MiB in
 * 16-bit; SDXL at 1024x1024 with transformer_depth [1, 2, 10] 6,930 MiB.
 * SD 1.5 at 64 images per GPU then fits an 80 GB A100 without
 * recomputation, as MLPerf Training v4.0's Stable Diffusion runs at 64 per
 * H100 80GB (LambdaLabsML/training_results_v4.0 config_1cc_01x08x64.sh).
 * Eager attention saves each self-attention's softmax output on top. */
static void test_train_variants__unet_training_activations(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    double sdpa, eager;

    w.task = ECF_TASK_TRAIN;
    w.precision = ECF_PREC_BF16;
    w.batch_size = 64; /* recomputation left to the search (auto) */
    fx_est(&e, f, "stable-diffusion-1.5", &w, "p4de.24xlarge", 1);
    sdpa = e.memory.activations_gib;
    assert_float_equal(sdpa, 64 * 931.25 / 1024.0, 1e-9);
    assert_true(e.memory.total_per_device_gib < 80.0 * 0.9);
    assert_false(e.activation_checkpointing);
    w.naive_attention = true;
    w.activation_checkpointing = ECF_CKPT_OFF;
    fx_est(&e, f, "stable-diffusion-1.5", &w, "p4de.24xlarge", 1);
    eager = e.memory.activations_gib;
    /* softmax outputs: 8 heads x (4096^2 x 5 + 1024^2 x 5 + 256^2 x 5 +
     * 64^2 x 1) elements x 2 B per sample */
    assert_float_equal((eager - sdpa) * 1024.0 * 1024.0 * 1024.0 / 64.0,
                       8.0 * 2.0 *
                           (5.0 * 4096.0 * 4096 + 5.0 * 1024 * 1024 +
                            5.0 * 256 * 256 + 64.0 * 64),
                       1.0);
    w.naive_attention = false;
    w.batch_size = 1;
    fx_est(&e, f, "sdxl", &w, "p5.48xlarge", 1);
    assert_float_equal(e.memory.activations_gib, 6930.0 / 1024.0, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_train_variants__logits_at_the_loss),
        cmocka_unit_test(test_train_variants__zero_stages),
        cmocka_unit_test(test_train_variants__amp_master_weights),
        cmocka_unit_test(test_train_variants__zero_model_states),
        cmocka_unit_test(test_train_variants__dp_when_it_fits),
        cmocka_unit_test(test_train_variants__packing_bert),
        cmocka_unit_test(test_train_variants__packing_llm_tokens),
        cmocka_unit_test(test_train_variants__fp8_attention_core_bf16),
        cmocka_unit_test(test_train_variants__width_term_by_part),
        cmocka_unit_test(test_train_variants__grad_accum),
        cmocka_unit_test(test_train_variants__pinned_interleaved_pipeline),
        cmocka_unit_test(test_train_variants__global_batch),
        cmocka_unit_test(test_train_variants__unet_training_activations),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
