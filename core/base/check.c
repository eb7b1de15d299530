/* check.c — edit distance, the closest of a list of names, date checks and strict numbers
 * (check.h). */
#include "check.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEN 64

size_t gw_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t d[MAX_LEN + 1][MAX_LEN + 1];
    if (la > MAX_LEN)
        la = MAX_LEN;
    if (lb > MAX_LEN)
        lb = MAX_LEN;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const char *gw_closest(const char *word, const char *const *candidates)
{
    size_t limit = strlen(word) / 3;
    if (limit < 1)
        limit = 1;
    if (limit > 3)
        limit = 3;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (size_t i = 0; candidates[i]; i++) {
        size_t d = gw_edit_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best;
}

/* Days in month m (1-12) of year y, leap years by the Gregorian rule. */
static int month_days(int y, int m)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    return days[m - 1] + (m == 2 && leap);
}

int gw_valid_date(const char *s)
{
    size_t n = strlen(s);
    if (n != 7 && n != 10)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((i == 4 || i == 7) ? s[i] != '-' : !isdigit((unsigned char)s[i]))
            return 0;
    int y = atoi(s), m = atoi(s + 5);
    if (m < 1 || m > 12)
        return 0;
    return n == 7 || (atoi(s + 8) >= 1 && atoi(s + 8) <= month_days(y, m));
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (Howard Hinnant's
 * days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

long gw_date_days(const char *s)
{
    if (!s || !gw_valid_date(s))
        return -1;
    return days_from_civil(atol(s), atol(s + 5), strlen(s) == 10 ? atol(s + 8) : 1);
}

int gw_parse_decimal(const char *s, double *out)
{
    const char *p = s;
    size_t digits = 0;
    if (*p == '+' || *p == '-')
        p++;
    for (; isdigit((unsigned char)*p); p++)
        digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++;
    if (!digits)
        return 0;   /* "", "-", ".", "inf", "nan", "0x" all stop here or below */
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return 0;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p)
        return 0;
    /* only what was checked above reaches strtod, so it cannot read hex or words */
    double v = strtod(s, NULL);
    if (!isfinite(v))
        return 0;
    *out = v;
    return 1;
}

long long gw_double_to_ll(double d, long long min, long long max, long long fallback)
{
    /* NaN fails both comparisons */
    return d >= (double)min && d <= (double)max ? (long long)d : fallback;
}

int gw_parse_count(const char *s, unsigned long max, unsigned long *out)
{
    unsigned long v = 0;
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return 0;
        unsigned d = (unsigned)(*p - '0');
        if (d > max || v > (max - d) / 10)
            return 0;   /* past max, and never past what an unsigned long holds */
        v = v * 10 + d;
    }
    if (v < 1)
        return 0;
    *out = v;
    return 1;
}
