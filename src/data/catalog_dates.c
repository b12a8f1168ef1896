/*
 * catalog_dates.c - a loaded catalog's dates against "now": as_of, every
 * source's as_of and the date of generated_at may not lie more than a day
 * ahead (ECF_CATALOG_MAX_FUTURE_S). The loader checks that each is a real
 * calendar date; this check needs the clock, which the caller passes in.
 */
#include "ec2fit/catalog.h"

#include <stdio.h>
#include <string.h>

#include "ec2fit/dates.h"

static int future(const char *what, const char *date, long now,
                  const char *name, ecf_err *err)
{
    long days;
    char day[11];
    if (!date || strlen(date) < 10)
        return 0;
    memcpy(day, date, 10);
    day[10] = '\0';
    if (!ecf_date_parse(day, &days))
        return 0; /* the loader reports it */
    if (days * 86400L > now + ECF_CATALOG_MAX_FUTURE_S)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: %s: %s is in the future (more than a day "
                           "ahead of today)",
                           name, what, day);
    return 0;
}

int ecf_catalog_check_dates(const ecf_catalog *cat, const char *name,
                            long now, ecf_err *err)
{
    size_t i;
    int rc = future("as_of", ecf_catalog_as_of(cat), now, name, err);
    if (!rc)
        rc = future("generated_at", ecf_catalog_generated_at(cat), now, name,
                    err);
    for (i = 0; !rc && i < ecf_catalog_source_count(cat); i++) {
        char what[64];
        const ecf_source *s = ecf_catalog_source_at(cat, i);
        snprintf(what, sizeof(what), "sources[%zu].as_of", i);
        rc = future(what, s->as_of, now, name, err);
    }
    return rc;
}

long ecf_catalog_age_days(const ecf_catalog *cat, long now)
{
    long days, age;
    const char *as_of = cat ? ecf_catalog_as_of(cat) : NULL;
    if (now <= 0 || !as_of || !ecf_date_parse(as_of, &days))
        return -1;
    age = now / 86400 - days;
    return age < 0 ? 0 : age;
}
