/*
 * recommend_names.c - the scorer's small public helpers: names of the
 * --optimize objectives and the expected spot interruptions of a job from
 * its Spot Advisor band (docs/rules.md, spot-interruption).
 */
#include "ec2fit/recommend.h"

#include <math.h>
#include <string.h>

#include "recommend_internal.h"

/* Spot Advisor interruption-frequency ranges ("<5%", "5-10%", "10-15%",
 * "15-20%", ">20%" of instances interrupted per month). We take the
 * midpoint of each range and 25% for the open-ended last one. */
static const double band_month_fraction[5] = {0.025, 0.075, 0.125, 0.175,
                                              0.25};

double ecf_spot_lambda(int band)
{
    if (band < 0 || band > 4)
        band = 4; /* unknown: assume the worst range */
    /* per node-hour rate of a Poisson process with P(>=1 in a month) = p */
    return -log(1 - band_month_fraction[band]) / HOURS_PER_MONTH;
}

double ecf_spot_expected_interruptions(int band, int nodes, double hours)
{
    return ecf_spot_lambda(band) * nodes * hours;
}

int ecf_optimize_parse(const char *s)
{
    if (strcmp(s, "cost") == 0)
        return ECF_OPT_COST;
    if (strcmp(s, "time") == 0)
        return ECF_OPT_TIME;
    if (strcmp(s, "balanced") == 0)
        return ECF_OPT_BALANCED;
    return -1;
}

const char *ecf_optimize_name(ecf_optimize o)
{
    static const char *const names[] = {"cost", "time", "balanced"};
    return (unsigned)o < 3 ? names[o] : "?";
}
