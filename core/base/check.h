/* check.h — small checks shared by every reader of user text: how far a typo is from a real
 * name (for "did you mean"), whether a date is written as the KB writes dates, and numbers as
 * people type them (decimal only: no hex, inf or nan); and the clocks they are judged by: one
 * "today" for dates, one monotonic clock for deadlines. */
#ifndef GW_CHECK_H
#define GW_CHECK_H

#include <stddef.h>
#include <time.h>

#include "error.h"

/* Edit distance counting a swap of two neighbours as one edit ("3900" is one from "3090", "fromat"
 * one from "format").  Only the first 64 bytes of each string count. */
size_t gw_edit_distance(const char *a, const char *b);

/* The candidate closest to word, when it is near enough to be a typo of it (at most a third of
 * its length, and at most 3, edits away); NULL otherwise.  candidates ends with NULL. */
const char *gw_closest(const char *word, const char *const *candidates);

/* 1 when s is YYYY-MM or YYYY-MM-DD with a real month and day of month. */
int gw_valid_date(const char *s);

/* Days from 1970-01-01 to the date s (YYYY-MM counts as its first day, so an age is never
 * understated); -1 when s is not a valid date. */
long gw_date_days(const char *s);

/* ---- the one "today" and the one clock ----------------------------------------------------
 * Every document date and every price age is judged by gw_today: SOURCE_DATE_EPOCH (limits.h's
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

/* 1 when s, whole, is a decimal number — an optional sign, digits with at most one '.', and an
 * optional exponent ("-12", "0.5", ".5", "2.5e3") — whose value is finite; *out gets it.  Hex
 * ("0x10"), "inf", "nan", blanks and anything after the number are refused (0). */
int gw_parse_decimal(const char *s, double *out);

/* 1 when s, whole, is a count: digits only (no sign, point or blank), at least 1 and at most
 * max; *out gets it.  0 otherwise. */
int gw_parse_count(const char *s, unsigned long max, unsigned long *out);

#endif
