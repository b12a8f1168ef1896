/*
 * estimate_diffusion.c - inference activations of UNet diffusion
 * pipelines (Stable Diffusion 1.x, SDXL) from the UNet's channels and
 * attention heads per level and the VAE decoder's width, at the image's
 * latent resolution (docs/estimation.md 4.3, "Diffusion UNets").
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
