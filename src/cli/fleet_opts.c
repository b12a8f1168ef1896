/*
 * fleet_opts.c - recommend's purchase and fleet flags (--purchase,
 * --target-utilization, --async, --max-wait, --start-time, --fallback,
 * --max-interruption): parsing and usage lines. docs/rules.md has what
 * they do.
 */
#include "recommend_opts.h"

#include <stdlib.h>
#include <string.h>

#include "ec2fit/fleet.h"
#include "ec2fit/units.h"
#include "parse.h"

static const char *const bands[] = {"<5%", "5-10%", "10-15%", "15-20%",
                                    ">20%"};

/* "<5%", "5-10%", ... or the band index 0..4. */
static int parse_band(const char *s)
{
    int i;
    for (i = 0; i < 5; i++)
        if (strcmp(s, bands[i]) == 0)
            return i;
    if (s[0] >= '0' && s[0] <= '4' && s[1] == '\0')
        return s[0] - '0';
    return -1;
}

int cli_fleet_option(ecf_recommend_opts *o, int id, const char *arg,
                     ecf_err *err)
{
    int k;
    double v;
    switch (id) {
    case O_PURCHASE:
        k = ecf_purchase_parse(arg);
        if (k < 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--purchase: expected auto, on-demand, spot, "
                               "reserved-1y, savings-plan-1y, "
                               "savings-plan-3y or capacity-block, got '%s'",
                               arg);
        o->purchase = (ecf_purchase)k;
        return 1;
    case O_TARGET_UTIL: {
        /* a fraction (0.7) or a percentage (70, 70%); one message for
         * every way to miss (1.5, -1, 101, 3%, x) */
        char buf[32];
        size_t n = strlen(arg);
        bool pct = n > 0 && n < sizeof(buf) && arg[n - 1] == '%';
        ecf_err ignored = ECF_ERR_INIT;
        if (pct) {
            memcpy(buf, arg, n - 1);
            buf[n - 1] = '\0';
        }
        if (ecf_parse_double(&v, "--target-utilization", pct ? buf : arg, 0,
                             100, &ignored) == 0 &&
            (pct || v > 1))
            v /= 100;
        else if (ignored.code != 0)
            v = -1;
        if (!(v >= 0.05 && v <= 1))
            return ecf_err_set(err, ECF_EINVAL,
                               "--target-utilization: expected 5%% to 100%% "
                               "(0.05 to 1, or 5 to 100), got '%s'",
                               arg);
        o->target_utilization = v;
        return 1;
    }
    case O_ASYNC:
        o->async = true;
        return 1;
    case O_MAX_WAIT:
        if (ecf_units_parse_duration(&v, "--max-wait", arg, err) < 0)
            return err->code;
        if (v <= 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--max-wait: must be positive, got '%s'", arg);
        o->max_wait_s = v * 3600;
        return 1;
    case O_START_TIME:
        if (ecf_units_parse_duration(&v, "--start-time", arg, err) < 0)
            return err->code;
        if (v <= 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--start-time: must be positive, got '%s'",
                               arg);
        o->start_time_s = v * 3600;
        return 1;
    case O_FALLBACK:
        if (strcmp(arg, "cpu") != 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--fallback: expected cpu, got '%s'", arg);
        o->fallback_cpu = true;
        return 1;
    case O_MAX_INTERRUPTION:
        k = parse_band(arg);
        if (k < 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--max-interruption: expected a Spot Advisor "
                               "band (<5%%, 5-10%%, 10-15%%, 15-20%%, >20%%) "
                               "or 0-4, got '%s'",
                               arg);
        /* at most this band: plans in a higher band are dropped */
        o->max_interruption_band = k + 1;
        return 1;
    default:
        return 0;
    }
}

void cli_fleet_usage(FILE *f)
{
    fputs("Purchase and fleet:\n"
          "  --purchase OPT          auto|on-demand|spot|reserved-1y|savings-plan-1y|\n"
          "                          savings-plan-3y|capacity-block (auto: spot for\n"
          "                          jobs, plus a Capacity Block for accelerated jobs\n"
          "                          of a day or more; 1-year reserved for 24/7\n"
          "                          serving)\n"
          "  --target-utilization U  serving: Auto Scaling target (default 70%)\n"
          "  --async                 serving: scale on SQS backlog per instance\n"
          "  --max-wait DUR          --async: acceptable queue wait (default 10s)\n"
          "  --start-time DUR        instance start for the warm pool (default 5m)\n"
          "  --fallback cpu          serving: also size a CPU fallback group\n"
          "  --max-interruption BAND drop spot plans above a Spot Advisor band\n"
          "                          (<5%, 5-10%, 10-15%, 15-20%, >20%)\n",
          f);
}
