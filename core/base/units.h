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

/* A share of one card as the simple fraction num/den (den up to UNITS_FRACTION_MAX_DEN, the
 * smallest) it stands for: catalogues write a sixth of a card to three decimals (0.167), so any
 * such fraction lies within half of the last digit.  Returns 1 with num/den set, 0 for a whole
 * card, a share outside (0, 1) or one no simple fraction explains. */
#define UNITS_FRACTION_MAX_DEN 16   /* MIG's sevenths and eighths, a cloud's sixths, and room */
int units_fraction_parts(double fraction, int *num, int *den);
/* fraction read as units_fraction_parts reads it: num/den, else the figure itself. */
double units_fraction_exact(double fraction);
/* A share in words: "1/6", else the figure to three digits ("0.35"). */
void units_fraction_words(gw_buf *out, double fraction);

/* ISO 4217 code check: three upper-case ASCII letters. */
int units_is_currency(const char *code);

#endif
