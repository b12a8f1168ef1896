/**
 * ec2fit/ec2fit.h - the umbrella header of libec2fit, the advisor behind
 * the `ec2fit` command: load the data, describe a workload, estimate,
 * recommend and render (docs/library.md). The AWS price refresh headers
 * (http, crypto, sigv4, awscreds, pricing, cache) are installed too but
 * not included here: they serve `ec2fit update`.
 */
#ifndef EC2FIT_EC2FIT_H
#define EC2FIT_EC2FIT_H

#include "ec2fit/err.h"
#include "ec2fit/task.h"
#include "ec2fit/buf.h"
#include "ec2fit/units.h"
#include "ec2fit/catalog.h"
#include "ec2fit/zoo.h"
#include "ec2fit/light.h"
#include "ec2fit/stacks.h"
#include "ec2fit/images.h"
#include "ec2fit/stacks_resolve.h"
#include "ec2fit/rules.h"
#include "ec2fit/estimate.h"
#include "ec2fit/filter.h"
#include "ec2fit/recommend.h"
#include "ec2fit/result.h"
#include "ec2fit/render.h"
#include "ec2fit/batch.h"

#endif
