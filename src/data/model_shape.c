/*
 * model_shape.c - per-model quantities the estimator and the CLI share:
 * KV-cache elements per token (grouped-query heads, or the compressed
 * latent of multi-head latent attention), classifier-free-guidance passes,
 * and the --steps / --resolution rescaling of diffusion models. Pure.
 */
#include <math.h>

#include "ec2fit/zoo.h"

double ecf_model_kv_elems_per_token(const ecf_model *m)
{
    if (!ecf_model_kind_is_llm(m->kind))
        return 0;
    /* MLA (DeepSeek-V2 paper, section 2.1.2): the cache holds the latent
     * c_KV (kv_lora_rank) and the shared rotary key (qk_rope_head_dim) per
     * layer, not K and V per head. */
    if (m->kv_dim_per_layer > 0)
        return (double)m->layers * m->kv_dim_per_layer;
    return 2.0 * m->layers * m->kv_heads * (double)m->head_dim;
}

double ecf_model_kv_context(const ecf_model *m, double ctx)
{
    double local, win;

    if (m->sliding_window <= 0 || m->layers <= 0 || ctx <= m->sliding_window)
        return ctx;
    local = m->sliding_layers > 0 && m->sliding_layers < m->layers
                ? m->sliding_layers
                : m->layers;
    win = m->sliding_window;
    return ((m->layers - local) * ctx + local * win) / m->layers;
}

int ecf_model_cfg_passes(const ecf_model *m)
{
    return m->cfg_passes == 1 ? 1 : 2;
}

int ecf_model_diffusion_scale(
    ecf_model *m, int steps, int width, int height, ecf_err *err)
{
    double ratio;

    if (steps == 0 && width == 0 && height == 0)
        return 0;
    if (m->kind != ECF_KIND_DIFFUSION)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: only for diffusion models; %s is a %s",
                           steps ? "--steps" : "--resolution", m->name,
                           ecf_model_kind_name(m->kind));
    if (steps < 0 || steps > 10000)
        return ecf_err_set(err, ECF_EINVAL,
                           "--steps: expected 1 to 10000, got %d", steps);
    if (width || height) {
        /* the VAE downsamples by 8: the latent needs whole pixels */
        if (width < 64 || width > 8192 || height < 64 || height > 8192 ||
            width % 8 || height % 8)
            return ecf_err_set(err, ECF_EINVAL,
                               "--resolution: each side must be a multiple of "
                               "8 from 64 to 8192, got %dx%d",
                               width, height);
        if (m->image_size < 1)
            return ecf_err_set(err, ECF_EINVAL,
                               "--resolution: %s has no default resolution "
                               "to scale from",
                               m->name);
        /* compute, activations and encoded image bytes ~ pixels (latent
         * tokens); docs/estimation.md 5.1 */
        ratio = (double)width * height /
                ((double)m->image_size * m->image_size);
        m->fwd_gflops_per_sample *= ratio;
        m->act_mib_per_sample *= ratio;
        m->input_bytes_per_sample *= ratio;
        m->image_size = (int)lround(sqrt((double)width * height));
    }
    if (steps > 0)
        m->diffusion_steps = steps;
    return 0;
}
