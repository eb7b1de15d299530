/* kb_names_count.c — a GPU count in a name, for the resolver (kb_names.c): "8x H100", "8xH100",
 * "2 x RTX 3090", "H100 x8", "H100x8", "4090x2", and counts written wrong ("-2x", "1.5x"). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "kb_names_count.h"

/* ---- counts: "8x H100", "8xH100", "2 x RTX 3090", "H100 x8", "H100x8", "4090x2" ----
 * An x glued to or beside a whole number, in front of the name or behind it, is a count; an x
 * inside a product name ("MI300X", "Titan X", "RTX 6000 Ada") is not, as no number follows it. */

#define COUNT_DIGITS_MAX 4   /* counts of 1 to 9999 */

/* 1 when the len characters at s are a count's digits. */
static int is_count(const char *s, size_t len)
{
    if (len == 0 || len > COUNT_DIGITS_MAX)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* 1 when name ends with a count written other than as plain digits: "x1.5", "x -2", "× +2",
 * "H100x-2". */
static int trailing_count_malformed(const char *name)
{
    const unsigned char *s = (const unsigned char *)name, *p = s + strlen(name);
    while (p > s && isspace(p[-1]))
        p--;
    const unsigned char *end = p;
    while (p > s && isdigit(p[-1]))
        p--;
    if (p == end)
        return 0;
    int point = 0, sign = 0;
    if (p - s >= 2 && (p[-1] == '.' || p[-1] == ',') && isdigit(p[-2]))
        for (point = 1, p--; p > s && isdigit(p[-1]); p--)
            ;
    while (p > s && p[-1] == ' ')
        p--;
    if (p > s && (p[-1] == '-' || p[-1] == '+'))
        for (sign = 1, p--; p > s && p[-1] == ' '; p--)
            ;
    size_t times = 0;   /* the x's bytes: 1, or 2 for U+00D7 */
    if (p > s && (p[-1] == 'x' || p[-1] == 'X'))
        times = 1;
    else if (p - s >= 2 && p[-2] == 0xC3 && p[-1] == 0x97)
        times = 2;
    if (!times || !(sign || point))
        return 0;
    p -= times;   /* a count's x stands alone or after a number: "rtx-3090" has none */
    return p == s || isspace(p[-1]) || isdigit(p[-1]);
}

/* 1 when name begins or ends with a count written other than as plain digits: "-2x", "+2 x",
 * "1.5x", "H100 x1.5".  Splitting the name into words drops the sign and the point, which
 * would leave a count of 2 or 5 where none was meant; counts are whole numbers of at least 1. */
int kb_names_count_malformed(const char *name)
{
    const unsigned char *p = (const unsigned char *)name;
    while (isspace(*p))
        p++;
    int sign = *p == '-' || *p == '+';
    if (sign)
        for (p++; isspace(*p); p++)
            ;
    if (!isdigit(*p))
        return trailing_count_malformed(name);   /* "-" before a name is the name's business */
    int point = 0;
    while (isdigit(*p))
        p++;
    if ((*p == '.' || *p == ',') && isdigit(p[1]))
        for (point = 1, p++; isdigit(*p); p++)
            ;
    while (*p == ' ')
        p++;
    int times = *p == 'x' || *p == 'X' || (p[0] == 0xC3 && p[1] == 0x97);   /* x, X, U+00D7 */
    return (times && (sign || point)) || trailing_count_malformed(name);
}

void kb_names_reading_free(count_reading *r)
{
    kb_strlist_free(r->card.v, r->card.n);
    memset(r, 0, sizeof *r);
}

static void push_words(kb_strlist *out, char *const *v, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        kb_strlist_push(out, gw_xstrdup(v[i]));
}

/* The count in front: "8x" "h100", "8xh100", "8" "x" "h100".  1 and *r filled when there is
 * one. */
static int leading_count(const kb_strlist *t, count_reading *r)
{
    const char *first = t->v[0];
    size_t digits = strspn(first, "0123456789");
    memset(r, 0, sizeof *r);
    if (!is_count(first, digits))
        return 0;
    if (first[digits] == 'x') {
        r->count = atol(first);
        if (first[digits + 1])
            kb_strlist_push(&r->card, gw_xstrdup(first + digits + 1));
        push_words(&r->card, t->v, 1, t->n);
        return 1;
    }
    if (!first[digits] && t->n > 1 && strcmp(t->v[1], "x") == 0) {
        r->count = atol(first);
        push_words(&r->card, t->v, 2, t->n);
        return 1;
    }
    return 0;
}

/* 1 when the x at s[x] is glued behind a model number or a size: "h100x", "4090x",
 * "mi300xx" (the MI300X's own x first), "80gbx"; not "gx" ("9800 GX2" is a name). */
static int glued_count_follows(const char *s, size_t x)
{
    return (x >= 1 && isdigit((unsigned char)s[x - 1])) ||
           (x >= 2 && s[x - 1] == 'x' && isdigit((unsigned char)s[x - 2])) ||
           (x >= 3 && s[x - 2] == 'g' && s[x - 1] == 'b' && isdigit((unsigned char)s[x - 3]));
}

/* The count behind: "h100" "x8", "h100" "x" "8", "h100x8".  1 and *r filled when there is
 * one. */
/* 1 when one of the n words holds a digit. */
static int words_have_digit(char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (const char *c = v[i]; *c; c++)
            if (isdigit((unsigned char)*c))
                return 1;
    return 0;
}

static int trailing_count(const kb_strlist *t, count_reading *r)
{
    const char *last = t->v[t->n - 1];
    size_t len = strlen(last), digits = 0;
    memset(r, 0, sizeof *r);
    if (last[0] == 'x' && is_count(last + 1, len - 1)) {
        r->count = atol(last + 1);
        push_words(&r->card, t->v, 0, t->n - 1);
        return 1;
    }
    /* a lone "x" before the number is a count only after a name with a digit in it ("4090 x
     * 4"): after letters alone it may be the product's own X ("Titan X 2" is no TITAN RTX) */
    if (t->n > 1 && strcmp(t->v[t->n - 2], "x") == 0 && is_count(last, len) &&
        (t->n == 2 || words_have_digit(t->v, t->n - 2))) {
        r->count = atol(last);
        push_words(&r->card, t->v, 0, t->n - 2);
        return 1;
    }
    while (digits < len && isdigit((unsigned char)last[len - 1 - digits]))
        digits++;
    if (digits == 0 || digits + 1 >= len || !is_count(last + len - digits, digits))
        return 0;
    size_t x = len - digits - 1;
    if (last[x] != 'x' || !glued_count_follows(last, x))
        return 0;
    r->count = atol(last + x + 1);
    push_words(&r->card, t->v, 0, t->n - 1);
    kb_strlist_push(&r->card, gw_xstrndup(last, x));
    return 1;
}

/* The readings of t as a count and a card, into r: none, one, or two where one number can be
 * either ("2x4090", "4 x 4090").  -1 when the name has a count at both ends ("2x H100 x8"). */
int kb_names_count_readings(const kb_strlist *t, count_reading r[2])
{
    int n = 0;
    memset(r, 0, 2 * sizeof *r);
    if (t->n == 0)
        return 0;
    if (leading_count(t, &r[0])) {
        n = 1;
        if (r[0].card.n > 0 && trailing_count(&r[0].card, &r[1])) {
            kb_names_reading_free(&r[0]);
            kb_names_reading_free(&r[1]);
            return -1;
        }
    }
    if (trailing_count(t, &r[n]))
        n++;
    return n;
}

