/**
 * ec2fit/region_name.h - tells a region ("us-west-2") from a Local Zone or
 * Wavelength zone group ("us-west-2-lax-1", "us-east-1-wl1-bos1"), which
 * the catalog prices like regions but Terraform's provider and the AWS
 * API do not accept as a region (docs/terraform.md).
 */
#ifndef EC2FIT_REGION_NAME_H
#define EC2FIT_REGION_NAME_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The parent region of `location`: the name up to and including its first
 * all-digit part ("us-gov-west-1", "us-west-2"). Writes it to `out` (at
 * most n - 1 bytes) and returns true when `location` is a zone group (it
 * has parts after that), false (out = location) for a region.
 */
bool ecf_region_parent(char *out, size_t n, const char *location);

#ifdef __cplusplus
}
#endif

#endif
