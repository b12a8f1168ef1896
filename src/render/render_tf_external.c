/*
 * render_tf_external.c - the output of `ec2fit tf-external`: rank 1 as one
 * flat JSON object whose values are all strings (Terraform's external data
 * source protocol, docs/terraform.md). Needs at least one plan.
 */
#include <cjson/cJSON.h>
#include <stdio.h>

#include "recommend_render.h"

#include "ec2fit/region_name.h"
#include "render_common.h"
#include "recommend_render_internal.h"
#include "render_deploy.h"
#include "ec2fit/images.h"

static void put_num(cJSON *o, const char *key, double v, int decimals)
{
    char buf[64] = "";
    if (v > 0)
        snprintf(buf, sizeof(buf), "%.*f", decimals, v);
    cJSON_AddStringToObject(o, key, buf);
}

static void put_int(cJSON *o, const char *key, int v)
{
    char buf[16];
    snprintf(buf, sizeof(buf), "%d", v);
    cJSON_AddStringToObject(o, key, buf);
}

/* Rank 1, every value a string (the protocol's rule); one key set for
 * every task, "" where a key does not apply (docs/terraform.md). */
void ecf_rr_print_tf_external(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p = &r->plans[0];
    bool serving = r->serving;
    rd_placement place;
    cJSON *o = cJSON_CreateObject();
    char count[16];

    ecf_deploy_placement_init(&place, v, p);
    snprintf(count, sizeof(count), "%d", p->nodes);
    cJSON_AddStringToObject(o, "schema_version", "1");
    cJSON_AddStringToObject(o, "instance_type", p->inst->type);
    cJSON_AddStringToObject(o, "instance_count", count);
    cJSON_AddStringToObject(o, "use_spot", p->spot ? "true" : "false");
    {
        char parent[64];
        bool zone = ecf_region_parent(parent, sizeof(parent), p->region);
        cJSON_AddStringToObject(o, "region", parent);
        cJSON_AddStringToObject(o, "zone_group", zone ? p->region : "");
    }
    put_num(o, "hourly_usd", p->hourly_usd, 6);
    put_num(o, "node_hourly_usd", p->usd_per_hour_instance, 6);
    put_num(o, "fleet_hourly_usd", p->hourly_usd, 6);
    put_num(o, "monthly_usd", serving ? p->monthly_usd : 0, 2);
    put_num(o, "total_usd", serving ? 0 : p->total_usd, 2);
    {
        /* the high ends of the likely ranges (docs/estimation.md
         * "Ranges"), "" where the figure has none */
        ecf_ranges rg;
        ecf_rr_plan_ranges(&rg, v, p);
        put_num(o, "monthly_usd_high",
                rg.monthly_usd.set ? rg.monthly_usd.high : 0, 2);
        put_num(o, "total_usd_high", rg.total_usd.set ? rg.total_usd.high : 0,
                2);
        put_num(o, "time_hours_high",
                rg.time_hours.set ? rg.time_hours.high : 0, 4);
    }
    cJSON_AddStringToObject(o, "purchase", purchase(p));
    if (serving) {
        put_int(o, "asg_min_size", r->asg_min);
        put_int(o, "asg_max_size", r->asg_max);
        put_int(o, "asg_desired_capacity", r->asg_min);
        cJSON_AddStringToObject(o, "scaling_policy",
                                r->opts.async ? "sqs-backlog-per-instance"
                                              : "alb-request-count-per-target");
        put_num(o, "target_value", r->asg_target_value, 3);
        put_int(o, "warm_pool_size", r->asg_warm_pool);
    } else {
        static const char *const asg[] = {
            "asg_min_size",   "asg_max_size", "asg_desired_capacity",
            "scaling_policy", "target_value", "warm_pool_size"};
        size_t i;
        for (i = 0; i < sizeof(asg) / sizeof(asg[0]); i++)
            cJSON_AddStringToObject(o, asg[i], "");
    }
    if (place.efa_interfaces > 0)
        put_int(o, "efa_interfaces", place.efa_interfaces);
    else
        cJSON_AddStringToObject(o, "efa_interfaces", "");
    cJSON_AddStringToObject(o, "placement_group_strategy",
                            place.cluster_placement ? "cluster" : "");
    cJSON_AddStringToObject(o, "single_availability_zone",
                            place.single_az ? "true" : "false");
    cJSON_AddStringToObject(o, "availability_zone", place.zone);
    {
        /* the image follows the plan: a GPU -> Neuron flip changes it */
        const ecf_image *im =
            ecf_images_for(v->images, ECF_IMAGE_USE_INSTANCE, p->inst);
        cJSON_AddStringToObject(o, "ami_ssm_parameter",
                                im ? im->ssm_parameter : "");
    }
    cJSON_AddStringToObject(o, "catalog_as_of", ecf_catalog_as_of(v->cat));
    {
        /* its age in days on the day of the run ("" when unknown) */
        long age = ecf_catalog_age_days(v->cat, v->now);
        if (age >= 0)
            put_int(o, "catalog_age_days", (int)(age > 999999 ? 999999 : age));
        else
            cJSON_AddStringToObject(o, "catalog_age_days", "");
    }
    ecf_render_json_print(f, o);
}
