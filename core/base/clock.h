/* clock.h — the one "today" for dates and the one monotonic clock for deadlines.  Every document
 * date and every price age is judged by gw_today; every deadline by gw_now_seconds. */
#ifndef GW_CLOCK_H
#define GW_CLOCK_H

#include <time.h>

#include "error.h"

/* Every document date and every price age is judged by gw_today: SOURCE_DATE_EPOCH (limits.h's
 * table: decimal digits only, in range) pins it for tests and reproducible documents. */

/* Now, as seconds since 1970-01-01 UTC: SOURCE_DATE_EPOCH when it is set, else the system
 * clock.  GW_OK, or GW_EUSAGE naming the variable when it is malformed (*now is then the
 * clock's). */
int gw_today(time_t *now, gw_error *err);
/* gw_today as days from 1970-01-01, and as "YYYY-MM-DD" (out holds 11 bytes).  They cannot fail:
 * main.c refuses a malformed SOURCE_DATE_EPOCH before any command runs (gw_env_check). */
long gw_today_days(void);
void gw_today_date(char out[11]);

/* Seconds on the monotonic clock, for deadlines and time limits (not a date). */
double gw_now_seconds(void);

#endif
