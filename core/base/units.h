/* units.h — reading quantities with units ("24576 MiB", "35.15 W", "16x", "N/A") and writing
 * money and figures for people.  One parser serves the C core and the Lua `gw.units` module. */
#ifndef GW_UNITS_H
#define GW_UNITS_H

#include "buf.h"

typedef struct units_value {
    double value;
    char unit[24];   /* as written after the number ("MiB", "W", "x", "%", "" when bare) */
} units_value;

/* Parses a number followed by an optional unit.  Returns 1 on success; 0 for text that holds no
 * quantity ("N/A", "Not Active", "[N/A]", "Requested functionality has been deprecated", "",
 * garbage).  Leading/trailing space is ignored; "1,234.5" thousands separators are accepted. */
int units_parse(const char *text, units_value *out);

/* Converts a memory size to GB (10^9 bytes) / GiB from any of B, KB, KiB, MB, MiB, GB, GiB, TB,
 * TiB.  Returns NaN for an unknown unit. */
double units_to_gb(double value, const char *unit);
double units_to_gib(double value, const char *unit);

/* Money: "$2,750", "CNY 16,000", "€1,234.50".  decimals < 0 picks 0 for >= 100, else 2. */
void units_format_money(gw_buf *out, double amount, const char *currency, int decimals);

/* ISO 4217 code check: three upper-case ASCII letters. */
int units_is_currency(const char *code);

#endif
