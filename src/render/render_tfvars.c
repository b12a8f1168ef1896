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
#include "ec2fit/textsafe.h"
#include "ec2fit/light.h"
#include "ec2fit/region_name.h"

void rr_print_tfvars(FILE *f, const rr_view *v)
{
    const ecf_plan *p = &v->rec->plans[0];
    cJSON *o = cJSON_CreateObject();
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
    cli_json_add_num(o, "hourly_usd", p->hourly_usd, 6);
    cJSON_AddStringToObject(o, "purchase", purchase(p));
    if (v->rec->serving) {
        /* the Auto Scaling group (docs/terraform.md) */
        const ecf_recommendation *r = v->rec;
        cJSON_AddNumberToObject(o, "asg_min_size", r->asg_min);
        cJSON_AddNumberToObject(o, "asg_max_size", r->asg_max);
        cJSON_AddNumberToObject(o, "asg_desired_capacity", r->asg_min);
        cJSON_AddStringToObject(o, "scaling_policy",
                                r->opts.async ? "sqs-backlog-per-instance"
                                              : "alb-request-count-per-target");
        cli_json_add_num(o, "target_value", r->asg_target_value, 3);
        cJSON_AddNumberToObject(o, "warm_pool_size", r->asg_warm_pool);
        cli_json_add_num(o, "monthly_usd", p->monthly_usd, 2);
    }
    {
        /* the high end of the likely range (docs/estimation.md "Ranges"):
         * what a budget should hold */
        ecf_ranges rg;
        rr_plan_ranges(&rg, v, p);
        if (rg.monthly_usd.set)
            cli_json_add_num(o, "monthly_usd_high", rg.monthly_usd.high, 2);
        if (rg.time_hours.set)
            cli_json_add_num(o, "time_hours_high", rg.time_hours.high, 4);
        if (rg.total_usd.set)
            cli_json_add_num(o, "total_usd_high", rg.total_usd.high, 2);
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
    cli_json_print(f, o);
}
