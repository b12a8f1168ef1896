/*
 * dates.c - validates catalog dates against the Gregorian calendar and
 * converts them to a day count, so a date can be compared with "now"
 * (which the caller passes in; nothing here reads the clock).
 */
#include "ec2fit/dates.h"

#include <string.h>

static bool leap(long y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days from 1970-01-01 to y-m-d (Howard Hinnant's days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
    long era, yoe, doy, doe;
    y -= m <= 2;
    era = y / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

bool ecf_date_parse(const char *s, long *days_out)
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
    long y = 0, m, d;
    int i;

    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return false;
    for (i = 0; i < 4; i++)
        y = y * 10 + (s[i] - '0');
    m = (s[5] - '0') * 10 + (s[6] - '0');
    d = (s[8] - '0') * 10 + (s[9] - '0');
    if (y < 1970 || m < 1 || m > 12 || d < 1)
        return false;
    if (d > mdays[m - 1] + (m == 2 && leap(y)))
        return false;
    if (days_out)
        *days_out = days_from_civil(y, m, d);
    return true;
}
