/*
 * render_tfvars.c - the recommendation as Terraform variables
 * (--output tfvars, a *.auto.tfvars.json file; docs/terraform.md).
 */
#include "recommend_render.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_common.h"
#include "recommend_render_internal.h"
#include "render_deploy.h"
#include "ec2fit/images.h"
#include "ec2fit/textsafe.h"
#include "ec2fit/light.h"
#include "ec2fit/region_name.h"

/* A number, or null when not applicable (<= 0). */
static void add_num_or_null(cJSON *o, const char *key, double v, int decimals)
{
    if (v > 0)
        ecf_render_json_add_num(o, key, v, decimals);
    else
        cJSON_AddNullToObject(o, key);
}

static void add_int_or_null(cJSON *o, const char *key, bool have, int v)
{
    if (have)
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

/* One key set for every task, in one order: a module declares each
 * variable once; a key that does not apply to the task is null
 * (docs/terraform.md "Variables"). */
void ecf_rr_print_tfvars(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p = &r->plans[0];
    bool serving = r->serving;
    rd_placement place;
    cJSON *o = cJSON_CreateObject();

    ecf_deploy_placement_init(&place, v, p);
    cJSON_AddStringToObject(o, "instance_type", p->inst->type);
    cJSON_AddNumberToObject(o, "instance_count", p->nodes);
    cJSON_AddBoolToObject(o, "use_spot", p->spot);
    {
        /* a zone group is not a region: `provider "aws" { region = ... }`
         * takes the parent, the subnet's availability zone the group */
        char parent[64];
        bool zone = ecf_region_parent(parent, sizeof(parent), p->region);
        cJSON_AddStringToObject(o, "region", parent);
        if (zone)
            cJSON_AddStringToObject(o, "zone_group", p->region);
        else
            cJSON_AddNullToObject(o, "zone_group");
    }
    /* hourly_usd is the whole plan's (kept for compatibility: it equals
     * fleet_hourly_usd); node_hourly_usd one instance's */
    ecf_render_json_add_num(o, "hourly_usd", p->hourly_usd, 6);
    ecf_render_json_add_num(o, "node_hourly_usd", p->usd_per_hour_instance, 6);
    ecf_render_json_add_num(o, "fleet_hourly_usd", p->hourly_usd, 6);
    cJSON_AddStringToObject(o, "purchase", purchase(p));
    if (p->purchase_option == ECF_PURCHASE_CAPACITY_BLOCK && p->cb_days > 0) {
        /* the reservation to buy (docs/terraform.md): its window */
        cJSON_AddNumberToObject(o, "capacity_block_days", p->cb_days);
        cJSON_AddNumberToObject(o, "capacity_block_instances", p->nodes);
    }
    add_num_or_null(o, "monthly_usd", serving ? p->monthly_usd : 0, 2);
    add_num_or_null(o, "total_usd", serving ? 0 : p->total_usd, 2);
    /* the Auto Scaling group (docs/terraform.md), null for a job */
    add_int_or_null(o, "asg_min_size", serving, r->asg_min);
    add_int_or_null(o, "asg_max_size", serving, r->asg_max);
    add_int_or_null(o, "asg_desired_capacity", serving, r->asg_min);
    if (serving)
        cJSON_AddStringToObject(o, "scaling_policy",
                                r->opts.async ? "sqs-backlog-per-instance"
                                              : "alb-request-count-per-target");
    else
        cJSON_AddNullToObject(o, "scaling_policy");
    add_num_or_null(o, "target_value", serving ? r->asg_target_value : 0, 3);
    add_int_or_null(o, "warm_pool_size", serving, r->asg_warm_pool);
    /* placement (docs/terraform.md "Placement") */
    add_int_or_null(o, "efa_interfaces", place.efa_interfaces > 0,
                    place.efa_interfaces);
    if (place.cluster_placement)
        cJSON_AddStringToObject(o, "placement_group_strategy", "cluster");
    else
        cJSON_AddNullToObject(o, "placement_group_strategy");
    cJSON_AddBoolToObject(o, "single_availability_zone", place.single_az);
    if (place.zone[0])
        cJSON_AddStringToObject(o, "availability_zone", place.zone);
    else
        cJSON_AddNullToObject(o, "availability_zone");
    {
        /* the high end of the likely range (docs/estimation.md "Ranges"):
         * what a budget should hold */
        ecf_ranges rg;
        ecf_rr_plan_ranges(&rg, v, p);
        /* every key in every task (one module declares them once),
         * null where the figure has no range */
        add_num_or_null(o, "monthly_usd_high",
                        rg.monthly_usd.set ? rg.monthly_usd.high : 0, 2);
        add_num_or_null(o, "time_hours_high",
                        rg.time_hours.set ? rg.time_hours.high : 0, 4);
        add_num_or_null(o, "total_usd_high",
                        rg.total_usd.set ? rg.total_usd.high : 0, 2);
    }
    {
        /* for `data "aws_ssm_parameter"` (docs/terraform.md) */
        const ecf_image *im =
            ecf_images_for(v->images, ECF_IMAGE_USE_INSTANCE, p->inst);
        if (im)
            cJSON_AddStringToObject(o, "ami_ssm_parameter", im->ssm_parameter);
        else
            cJSON_AddNullToObject(o, "ami_ssm_parameter");
    }
    /* the date the plan's prices are from (a CI pipeline can refuse or
     * flag a plan priced from an old catalog: docs/terraform.md) */
    cJSON_AddStringToObject(o, "prices_as_of", ecf_catalog_as_of(v->cat));
    {
        /* its age in days on the day of the run (issue 26) */
        long age = ecf_catalog_age_days(v->cat, v->now);
        if (age >= 0)
            cJSON_AddNumberToObject(o, "prices_age_days", (double)age);
        else
            cJSON_AddNullToObject(o, "prices_age_days");
    }
    ecf_render_json_print(f, o);
}
