/*
 * zoo_unet.c - the "unet" block of a diffusion model in data/models.json:
 * the UNet's channels and attention heads per resolution level and the VAE
 * decoder's width, as the published configurations give them
 * (data/sources/diffusion, docs/estimation.md 4.3 "Diffusion UNets").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "zoo_internal.h"

/* Reads array `key` of 1..ECF_UNET_MAX_LEVELS integers in [min, max]
 * into out; returns its length, or -1 with err set. */
static int get_levels(int *out,
                      const cJSON *u,
                      const char *key,
                      int min,
                      int max,
                      const char *where,
                      ecf_err *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(u, key), *v = NULL;
    int n = 0;

    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1 ||
        cJSON_GetArraySize(a) > ECF_UNET_MAX_LEVELS)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"unet\": \"%s\": expected 1 to %d integers",
                           where, key, ECF_UNET_MAX_LEVELS);
    cJSON_ArrayForEach (v, a) {
        if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
            v->valuedouble < min || v->valuedouble > max)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: \"unet\": \"%s\"[%d]: expected an "
                               "integer from %d to %d",
                               where, key, n, min, max);
        out[n++] = (int)v->valuedouble;
    }
    return n;
}

int ecf_zoo_load_unet(ecf_model *m,
                      const cJSON *o,
                      const char *where,
                      ecf_err *err)
{
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(o, "unet"), *v;
    int n, nh;

    if (!u)
        return 0;
    if (m->kind != ECF_KIND_DIFFUSION || !cJSON_IsObject(u))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"unet\": expected an object on a diffusion "
                           "model",
                           where);
    n = get_levels(m->unet_channels, u, "channels", 1, 100000, where, err);
    if (n < 0)
        return n;
    nh = get_levels(m->unet_attn_heads, u, "attn_heads", 0, 1024, where, err);
    if (nh < 0)
        return nh;
    if (nh != n)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"unet\": \"attn_heads\" has %d levels, "
                           "\"channels\" %d",
                           where, nh, n);
    /* transformer blocks per attention level (SDXL's transformer_depth
     * [1, 2, 10]); absent: 1 per level, as SD 1.x's transformer_depth 1 */
    for (nh = 0; nh < n; nh++)
        m->unet_tf_depth[nh] = 1;
    if (cJSON_GetObjectItemCaseSensitive(u, "tf_depth")) {
        nh = get_levels(m->unet_tf_depth, u, "tf_depth", 1, 1024, where, err);
        if (nh < 0)
            return nh;
        if (nh != n)
            return ecf_err_set(err, ECF_EPARSE,
                               "%s: \"unet\": \"tf_depth\" has %d levels, "
                               "\"channels\" %d",
                               where, nh, n);
    }
    v = cJSON_GetObjectItemCaseSensitive(u, "vae_channels");
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < 1 || v->valuedouble > 100000)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"unet\": \"vae_channels\": expected an "
                           "integer from 1 to 100000",
                           where);
    m->vae_channels = (int)v->valuedouble;
    v = cJSON_GetObjectItemCaseSensitive(u, "vae_fp32");
    if (v && !cJSON_IsBool(v))
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"unet\": \"vae_fp32\": expected true or "
                           "false",
                           where);
    m->vae_fp32 = v && cJSON_IsTrue(v);
    if (m->image_size < 64)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: \"unet\" needs \"image_size\" (pixels, at "
                           "least 64)",
                           where);
    m->unet_levels = n;
    return 0;
}
