/*
 * estimate_diffusion.c - inference and training activations of UNet
 * diffusion pipelines (Stable Diffusion 1.x, SDXL) from the UNet's
 * channels, attention heads and transformer depth per level and the VAE
 * decoder's width, at the image's latent resolution (docs/estimation.md
 * 4.3, "Diffusion UNets" and "Diffusion training").
 */
#include "ec2fit/estimate.h"

#include "estimate_internal.h"

/* Channel-planes live in the widest op of a level, per unit of the level's
 * width c: a transformer level peaks in its GEGLU feed-forward (diffusers
 * FeedForward, mult 4: residual c + LayerNorm output c + projection 8c +
 * GELU(gate) 4c + product 4c = 18c); a resnet-only level in an up-block
 * resnet, whose input is the concatenated skip (2c) held beside its
 * GroupNorm and SiLU outputs (3 x 2c = 6c). */
#define UNET_FF_PLANES     18.0
#define UNET_RESNET_PLANES 6.0
/* The VAE decoder peaks in the first resnet of its full-resolution block:
 * the upsampled input (2 ch), its GroupNorm output and its SiLU output
 * (3 x 2 ch = 6 ch channel-planes at the image's pixels). */
#define VAE_DECODE_PLANES 6.0
/* The VAE downsamples the image 8x per side to the latent (three
 * downsampling stages of ch_mult 1, 2, 4, 4). */
#define LATENT_FACTOR 8.0

/* Elements alive in one UNet forward of one sample at latent side s0. */
static double unet_sample_elems(const ecf_model *m, double s0, bool naive)
{
    double skips, peak = 0, s = s0;
    int l, L = m->unet_levels;

    /* skip connections held for the up path: conv_in, then per level two
     * block outputs and the downsampler's (not after the last level) */
    skips = m->unet_channels[0] * s0 * s0;
    for (l = 0; l < L; l++) {
        double c = m->unet_channels[l], area = s * s, work;
        skips += 2.0 * c * area;
        if (l + 1 < L)
            skips += c * area / 4.0;
        if (m->unet_attn_heads[l] > 0) {
            work = UNET_FF_PLANES * c * area;
            /* scores and softmax probabilities, heads x tokens^2 each */
            if (naive)
                work += 2.0 * m->unet_attn_heads[l] * area * area;
        } else {
            work = UNET_RESNET_PLANES * c * area;
        }
        if (work > peak)
            peak = work;
        s /= 2.0;
    }
    return skips + peak;
}

double ecf_estimate_unet_infer_act_gib(const ecf_model *m,
                                       int images,
                                       double elem_bytes,
                                       bool naive_attention)
{
    double px, unet, vae;

    if (m->unet_levels < 1 || m->image_size < 1 || images < 1)
        return 0;
    px = (double)m->image_size * m->image_size;
    unet = (double)images * ecf_model_cfg_passes(m) *
           unet_sample_elems(m, m->image_size / LATENT_FACTOR,
                             naive_attention) *
           elem_bytes;
    vae = (double)images * VAE_DECODE_PLANES * m->vae_channels * px *
          (m->vae_fp32 ? 4.0 : elem_bytes);
    return (unet > vae ? unet : vae) / GIB;
}

/* ---------------------------------------------------------------- */
/* Training: the tensors one forward saves for its backward          */
/* ---------------------------------------------------------------- */

/* ResBlocks per level on the down path (the up path has one more): the
 * configurations' num_res_blocks, 2 in both (data/sources/diffusion). */
#define UNET_RES_BLOCKS 2
/* Channel-planes a transformer block (diffusers BasicTransformerBlock)
 * saves, per unit of its width c: self-attention 7c (LayerNorm input and
 * output, q, k and v, the SDPA output and its head-merged copy), cross-
 * attention 5c (LayerNorm input and output, q, the output and its merged
 * copy; k and v span the 77 text tokens), GEGLU feed-forward 18c
 * (UNET_FF_PLANES): 30c. The Transformer2DModel around the blocks saves
 * its GroupNorm input, proj_in's input and proj_out's input: 3c. */
#define UNET_TF_BLOCK_PLANES 30.0
#define UNET_TF_WRAP_PLANES  3.0
/* A ResBlock from ci to co channels saves GroupNorm, SiLU and conv inputs
 * on both halves: 3 ci + 3 co channel-planes (the 1x1 skip convolution
 * reads the block input GroupNorm already saved). */
#define UNET_RB_PLANES 3.0

static double rb_elems(double ci, double co, double area)
{
    return UNET_RB_PLANES * (ci + co) * area;
}

/* A transformer level's saved elements; eager attention adds each
 * self-attention's softmax output, heads x area^2 (the scores it is
 * computed from are freed by the softmax, which saves its output). */
static double tf_elems(double c, int heads, int depth, double area,
                       bool naive)
{
    double e = (UNET_TF_WRAP_PLANES + UNET_TF_BLOCK_PLANES * depth) * c *
               area;
    if (naive)
        e += (double)depth * heads * area * area;
    return e;
}

double ecf_est_unet_train_bytes(const ecf_model *m, double elem_bytes,
                                bool naive)
{
    double area[ECF_UNET_MAX_LEVELS], s0, e = 0, h;
    int l, r, L = m->unet_levels, last = -1;

    if (L < 1 || m->image_size < 1)
        return 0;
    s0 = m->image_size / LATENT_FACTOR;
    for (l = 0; l < L; l++) {
        area[l] = s0 * s0;
        s0 /= 2.0;
        if (m->unet_attn_heads[l] > 0)
            last = l;
    }
    /* down path: ResBlocks (+ transformers), then the stride-2 conv */
    for (l = 0; l < L; l++) {
        double c = m->unet_channels[l],
               cp = m->unet_channels[l > 0 ? l - 1 : 0];
        for (r = 0; r < UNET_RES_BLOCKS; r++) {
            e += rb_elems(r == 0 ? cp : c, c, area[l]);
            if (m->unet_attn_heads[l] > 0)
                e += tf_elems(c, m->unet_attn_heads[l],
                              m->unet_tf_depth[l], area[l], naive);
        }
        if (l + 1 < L)
            e += c * area[l];
    }
    /* middle: ResBlock, transformer (the deepest attention level's heads
     * and depth: SD 1.x 8 x 1, SDXL 20 x 10), ResBlock */
    h = m->unet_channels[L - 1];
    e += 2.0 * rb_elems(h, h, area[L - 1]);
    if (last >= 0)
        e += tf_elems(h, m->unet_attn_heads[last], m->unet_tf_depth[last],
                      area[L - 1], naive);
    /* up path: one more ResBlock per level, each reading the current
     * tensor concatenated with a skip (the level's two block outputs,
     * then the level below's downsampler output or conv_in's), then the
     * upsampler's conv at the next level's area */
    for (l = L - 1; l >= 0; l--) {
        double c = m->unet_channels[l];
        for (r = 0; r <= UNET_RES_BLOCKS; r++) {
            double skip = r < UNET_RES_BLOCKS
                              ? c
                              : m->unet_channels[l > 0 ? l - 1 : 0];
            e += rb_elems(h + skip, c, area[l]);
            h = c;
            if (m->unet_attn_heads[l] > 0)
                e += tf_elems(c, m->unet_attn_heads[l],
                              m->unet_tf_depth[l], area[l], naive);
        }
        if (l > 0)
            e += c * area[l - 1];
    }
    /* out: GroupNorm, SiLU and conv_out inputs */
    e += UNET_RB_PLANES * m->unet_channels[0] * area[0];
    return e * elem_bytes;
}
