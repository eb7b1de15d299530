/* check.h — small checks shared by every reader of user text: how far a typo is from a real
 * name (for "did you mean"), whether a date is written as the KB writes dates, and numbers as
 * people type them (decimal only: no hex, inf or nan).  The clocks are clock.h's. */
#ifndef GW_CHECK_H
#define GW_CHECK_H

#include <stddef.h>

#include "error.h"

/* Edit distance counting a swap of two neighbours as one edit ("3900" is one from "3090", "fromat"
 * one from "format").  Only the first 64 bytes of each string count. */
size_t gw_edit_distance(const char *a, const char *b);

/* The candidate closest to word, when it is near enough to be a typo of it (at most a third of
 * its length, and at most 3, edits away); NULL otherwise.  candidates ends with NULL. */
const char *gw_closest(const char *word, const char *const *candidates);

/* 1 when s is YYYY-MM or YYYY-MM-DD of the Gregorian calendar: a real month, and a day that
 * month has (2024-02-29 yes, 2023-02-29 and 2023-02-31 no). */
int gw_valid_date(const char *s);

/* Days from 1970-01-01 to the date s (YYYY-MM counts as its first day, so an age is never
 * understated); -1 when s is not a valid date. */
long gw_date_days(const char *s);

/* 1 when s, whole, is a decimal number — an optional sign, digits with at most one '.', and an
 * optional exponent ("-12", "0.5", ".5", "2.5e3") — whose value is finite; *out gets it.  Hex
 * ("0x10"), "inf", "nan", blanks and anything after the number are refused (0). */
int gw_parse_decimal(const char *s, double *out);

/* d truncated toward zero when it is a number from min to max; fallback otherwise (NaN, the
 * infinities, anything out of range).  Converting a double out of an integer type's range is
 * undefined behaviour, so every double from outside (a plugin, the worker, a file) becomes an
 * integer through this.  min and max lie within +-2^53, where every integer is a double. */
long long gw_double_to_ll(double d, long long min, long long max, long long fallback);

/* 1 when s, whole, is a count: digits only (no sign, point or blank), at least 1 and at most
 * max; *out gets it.  0 otherwise. */
int gw_parse_count(const char *s, unsigned long max, unsigned long *out);

#endif
