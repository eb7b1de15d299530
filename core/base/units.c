/* units.c — quantities with units, and money formatting (see units.h). */
#include "units.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "view.h"

int units_parse(const char *text, units_value *out)
{
    char digits[64];
    size_t nd = 0;
    const char *p = text;

    out->value = NAN;
    out->unit[0] = '\0';
    if (!text)
        return 0;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '+' || *p == '-')
        digits[nd++] = *p++;
    int seen_digit = 0, seen_dot = 0, seen_exp = 0;
    /* room for the two characters an exponent takes and the final NUL */
    for (; *p && nd < sizeof digits - 2; p++) {
        if (isdigit((unsigned char)*p)) {
            digits[nd++] = *p;
            seen_digit = 1;
        } else if (*p == '.' && !seen_dot && !seen_exp) {
            digits[nd++] = *p;
            seen_dot = 1;
        } else if (*p == ',' && seen_digit && !seen_dot && isdigit((unsigned char)p[1]) &&
                   isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) &&
                   !isdigit((unsigned char)p[4])) {
            continue; /* thousands separator */
        } else if ((*p == 'e' || *p == 'E') && seen_digit && !seen_exp &&
                   (isdigit((unsigned char)p[1]) ||
                    ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2])))) {
            digits[nd++] = *p++;
            digits[nd++] = *p;
            seen_exp = 1;
        } else {
            break;
        }
    }
    if (!seen_digit)
        return 0;
    digits[nd] = '\0';
    char *end;
    double v = strtod(digits, &end);
    if (*end || !isfinite(v))
        return 0;
    while (isspace((unsigned char)*p))
        p++;
    size_t ul = strlen(p);
    while (ul && isspace((unsigned char)p[ul - 1]))
        ul--;
    if (ul >= sizeof out->unit || (ul && (isdigit((unsigned char)p[0]) || p[0] == '.')))
        return 0;
    for (size_t i = 0; i < ul; i++)
        if (isspace((unsigned char)p[i]) && !(i + 1 < ul && isalpha((unsigned char)p[i + 1])))
            return 0;
    memcpy(out->unit, p, ul);
    out->unit[ul] = '\0';
    out->value = v;
    return 1;
}

static double bytes_per(const char *unit)
{
    static const struct { const char *unit; double bytes; } table[] = {
        {"B", 1}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
        {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcasecmp(unit, table[i].unit) == 0)
            return table[i].bytes;
    return NAN;
}

double units_to_gb(double value, const char *unit) { return value * bytes_per(unit) / 1e9; }
double units_to_gib(double value, const char *unit) { return value * bytes_per(unit) / 1073741824.0; }

int units_is_currency(const char *code)
{
    return code && strlen(code) == 3 && isupper((unsigned char)code[0]) &&
           isupper((unsigned char)code[1]) && isupper((unsigned char)code[2]);
}

void units_format_money(gw_buf *out, double amount, const char *currency, int decimals)
{
    static const struct { const char *code, *symbol; } symbols[] = {
        {"USD", "$"}, {"EUR", "\xe2\x82\xac"}, {"GBP", "\xc2\xa3"},
    };
    const char *symbol = NULL;
    if (!isfinite(amount)) {
        buf_puts(out, "n/a");
        return;
    }
    if (decimals < 0)
        decimals = fabs(amount) >= 100 ? 0 : 2;
    for (size_t i = 0; currency && i < sizeof symbols / sizeof symbols[0]; i++)
        if (strcmp(currency, symbols[i].code) == 0)
            symbol = symbols[i].symbol;
    if (amount < 0)
        buf_putc(out, '-');
    if (symbol)
        buf_puts(out, symbol);
    else if (currency && *currency) {
        buf_puts(out, currency);
        buf_putc(out, ' ');
    }
    view_format_number(out, fabs(amount), decimals);
}

/* Half of the last of three decimals: SkyPilot's Azure AcceleratorCount 0.167 is 1/6. */
#define FRACTION_ROUNDING 0.0005

int units_fraction_parts(double fraction, int *num, int *den)
{
    if (!(fraction > 0 && fraction < 1))
        return 0;
    for (int d = 2; d <= UNITS_FRACTION_MAX_DEN; d++) {
        long n = lround(fraction * d);
        if (n >= 1 && n < d && fabs(fraction - (double)n / d) <= FRACTION_ROUNDING + 1e-12) {
            *num = (int)n;
            *den = d;
            return 1;
        }
    }
    return 0;
}

double units_fraction_exact(double fraction)
{
    int num, den;
    return units_fraction_parts(fraction, &num, &den) ? (double)num / den : fraction;
}

void units_fraction_words(gw_buf *out, double fraction)
{
    int num, den;
    if (units_fraction_parts(fraction, &num, &den))
        buf_printf(out, "%d/%d", num, den);
    else
        buf_printf(out, "%.3g", fraction);
}
