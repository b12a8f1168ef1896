/*
 * region_check.h - is a region priced in the catalog (data). The cli_
 * prefix is historical: the CLI's flags and the batch engine share it.
 */
#ifndef EC2FIT_DATA_REGION_CHECK_H
#define EC2FIT_DATA_REGION_CHECK_H

#include "ec2fit/catalog.h"
#include "ec2fit/err.h"

/** Exit-2 error unless `region` has prices in the catalog. */
int ecf_region_check(const ecf_catalog *cat, const char *region,
                     const char *flag, ecf_err *err);

#endif
