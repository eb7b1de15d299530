/* clock.c — the one "today" (SOURCE_DATE_EPOCH from limits.h's table, else the system clock) and
 * the one monotonic clock (clock.h). */
#include "clock.h"

#include <math.h>
#include <time.h>

#include "limits.h"

int gw_today(time_t *now, gw_error *err)
{
    double pinned;
    int rc = gw_env_number(GW_ENV_SOURCE_DATE_EPOCH, &pinned, err);
    *now = rc == GW_OK && !isnan(pinned) ? (time_t)pinned : time(NULL);
    return rc;
}

long gw_today_days(void)
{
    time_t now;
    gw_today(&now, NULL);
    return (long)(now / 86400);
}

void gw_today_date(char out[11])
{
    time_t now;
    struct tm tm;
    gw_today(&now, NULL);
    if (!gmtime_r(&now, &tm) || !strftime(out, 11, "%Y-%m-%d", &tm))
        out[0] = '\0';   /* a clock past year 9999 */
}

double gw_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
