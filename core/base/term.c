/* term.c — the terminal sanitizer and display widths (term.h).  Widths come from a small table
 * of their own, not wcwidth(): that depends on the locale, and the C locale (tests, pipes,
 * cron) counts every non-ASCII character as unprintable. */
#include "term.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct { uint32_t first, last; } cp_range;

/* East Asian Wide and Fullwidth blocks, and the emoji blocks, which terminals draw 2 wide. */
static const cp_range wide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F260, 0x1F265},
    {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F900, 0x1F9FF},
    {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

/* Combining marks, joiners and variation selectors: drawn on the character before them. */
static const cp_range zero_width[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF},
    {0x05C1, 0x05C2}, {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A},
    {0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06DC}, {0x06DF, 0x06E4},
    {0x1160, 0x11FF}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200D},
    {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0x302A, 0x302D}, {0x3099, 0x309A},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0000, 0xE0FFF},
};

/* Characters shown as "\uXXXX" though they are valid: C1 controls, and the marks that reorder
 * or break the line around them (a U+202E makes "gpj.exe" read "exe.jpg"). */
static const cp_range shown_escaped[] = {
    {0x0080, 0x009F}, {0x061C, 0x061C}, {0x200E, 0x200F},
    {0x2028, 0x202E}, {0x2066, 0x2069},
};

static int in_ranges(uint32_t cp, const cp_range *r, size_t n)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < r[mid].first)
            hi = mid;
        else if (cp > r[mid].last)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

#define IN(cp, table) in_ranges((cp), (table), sizeof(table) / sizeof(table)[0])

/* The UTF-8 character at s (n > 0 bytes left): its length with *cp set, or 0 when the bytes are
 * not one (a stray continuation byte, a truncated sequence, an overlong form, a surrogate or a
 * code point past U+10FFFF). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;   /* the second byte's range */
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    } else if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        len = 2, *cp = s[0] & 0x1F;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        len = 3, *cp = s[0] & 0x0F;
        lo = s[0] == 0xE0 ? 0xA0 : 0x80;
        hi = s[0] == 0xED ? 0x9F : 0xBF;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        len = 4, *cp = s[0] & 0x07;
        lo = s[0] == 0xF0 ? 0x90 : 0x80;
        hi = s[0] == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (s[i] & 0x3F);
    }
    return len;
}

/* The length of one of gpuwise's own colour sequences at s ("\033[1;31m": ESC [ params m, each
 * parameter reset, bold or a foreground colour), or 0.  Nothing else passes as colour: no
 * cursor movement, no conceal, no title or hyperlink. */
static size_t colour_length(const char *s, size_t n)
{
    int param = 0, digits = 0;
    if (n < 3 || s[0] != '\033' || s[1] != '[')
        return 0;
    for (size_t i = 2; i < n && i < 16; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            param = param * 10 + (s[i] - '0');
            if (++digits > 2)
                return 0;
            continue;
        }
        if (s[i] != ';' && s[i] != 'm')
            return 0;
        if (digits && !(param == 0 || param == 1 || (param >= 30 && param <= 37)))
            return 0;
        if (s[i] == 'm')
            return i + 1;
        param = digits = 0;
    }
    return 0;
}

/* One unit of shown text: a run of bytes kept as they are, or an escape written into esc. */
typedef struct term_unit {
    size_t bytes;        /* of the input */
    const char *shown;   /* what is written: the input itself or esc */
    size_t shown_len;
    size_t cols;
    char esc[8];
} term_unit;

static void unit_escape(term_unit *u, const char *fmt, unsigned value)
{
    int len = snprintf(u->esc, sizeof u->esc, fmt, value);
    u->shown = u->esc;
    u->shown_len = (size_t)len;
    u->cols = (size_t)len;
}

/* The unit at s[0..n), n > 0. */
static void unit_at(const char *s, size_t n, unsigned flags, term_unit *u)
{
    uint32_t cp = 0;
    unsigned char c = (unsigned char)s[0];
    u->shown = s;
    u->bytes = u->shown_len = u->cols = 1;
    if (c >= 0x20 && c < 0x7F)   /* printable ASCII, most of any text: no tables to search */
        return;
    size_t len = utf8_decode((const unsigned char *)s, n, &cp);
    size_t colour = (flags & GW_TERM_COLOUR) ? colour_length(s, n) : 0;
    u->bytes = u->shown_len = len ? len : 1;
    if (!len) {
        unit_escape(u, "\\x%02x", c);
    } else if ((flags & GW_TERM_LINES) && (c == '\n' || c == '\t')) {
        u->cols = c == '\t' ? 8 : 0;   /* at most: a tab goes to the next stop */
    } else if (colour) {
        u->bytes = u->shown_len = colour;
        u->cols = 0;
    } else if (cp < 0x20 || cp == 0x7F) {
        u->bytes = 1;
        unit_escape(u, c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : "\\x%02x", c);
    } else if (IN(cp, shown_escaped)) {
        unit_escape(u, "\\u%04x", cp);
    } else if (IN(cp, zero_width)) {
        u->cols = 0;
    } else if (IN(cp, wide)) {
        u->cols = 2;
    }
}

/* 1 when the 8 bytes at s are all printable ASCII (0x20-0x7E), tested together: no byte
 * below 0x20, none above 0x7E (the bit tricks of "Bit Twiddling Hacks", exact for "any"). */
static int printable8(const char *s)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    uint64_t x;
    memcpy(&x, s, sizeof x);
    return ((x - ones * 0x20) & ~x & highs) == 0 && (((x + ones * (127 - 0x7E)) | x) & highs) == 0;
}

void gw_term_text(gw_buf *out, const char *s, size_t n, unsigned flags)
{
    term_unit u;
    for (size_t i = 0; i < n; i += u.bytes) {
        size_t plain = i;   /* a run of printable ASCII goes in one append */
        while (plain + 8 <= n && printable8(s + plain))
            plain += 8;
        while (plain < n && (unsigned char)s[plain] >= 0x20 && (unsigned char)s[plain] < 0x7F)
            plain++;
        if (plain > i) {
            buf_append(out, s + i, plain - i);
            if (plain == n)
                break;
            i = plain;
        }
        unit_at(s + i, n - i, flags, &u);
        buf_append(out, u.shown, u.shown_len);
    }
}

int gw_term_text_unchanged(const char *s, size_t n, unsigned flags)
{
    term_unit u;
    for (size_t i = 0; i < n; i += u.bytes) {
        while (i + 8 <= n && printable8(s + i))   /* most text is plain: 8 bytes a step */
            i += 8;
        while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7F)
            i++;
        if (i == n)
            break;
        unit_at(s + i, n - i, flags, &u);
        if (u.shown != s + i)   /* escaped: unit_escape wrote it elsewhere */
            return 0;
    }
    return 1;
}

void gw_term_field(gw_buf *out, const char *s)
{
    if (s)
        gw_term_text(out, s, strlen(s), GW_TERM_FIELD);
}

const char *gw_term_safe(gw_buf *scratch, const char *s)
{
    buf_reset(scratch);
    gw_term_field(scratch, s);
    return buf_cstr(scratch);
}

/* The length of the run of printable ASCII that s[0..n) starts with: a byte and a column
 * each, found 8 bytes a step.  Measuring and cutting table cells one unit at a time was a
 * third of `offers`' text table (100,000 offers: 1.8 G of 5.7 G instructions). */
static size_t plain_run(const char *s, size_t n)
{
    size_t i = 0;
    while (i + 8 <= n && printable8(s + i))
        i += 8;
    while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7F)
        i++;
    return i;
}

size_t gw_term_width(const char *s, size_t n, unsigned flags)
{
    term_unit u;
    size_t cols = 0;
    for (size_t i = 0; i < n; i += u.bytes) {
        size_t plain = plain_run(s + i, n - i);
        cols += plain;
        if ((i += plain) == n)
            break;
        unit_at(s + i, n - i, flags, &u);
        cols += u.cols;
    }
    return cols;
}

/* Appends s[0..n) as one field, whole units only, while their columns (or, by_bytes, the bytes
 * appended) stay within limit; returns the columns or bytes appended. */
static size_t field_within(gw_buf *out, const char *s, size_t n, size_t limit, int by_bytes)
{
    term_unit u;
    size_t used = 0;
    for (size_t i = 0; i < n; i += u.bytes) {
        size_t plain = plain_run(s + i, n - i), take = plain < limit - used ? plain : limit - used;
        buf_append(out, s + i, take);   /* a byte and a column each */
        used += take;
        if (take < plain || (i += plain) == n)
            break;
        unit_at(s + i, n - i, GW_TERM_FIELD, &u);
        size_t cost = by_bytes ? u.shown_len : u.cols;
        if (used + cost > limit)
            break;
        buf_append(out, u.shown, u.shown_len);
        used += cost;
    }
    return used;
}

size_t gw_term_field_cut(gw_buf *out, const char *s, size_t max_cols)
{
    return field_within(out, s, s ? strlen(s) : 0, max_cols, 0);
}

size_t gw_term_field_bytes(gw_buf *out, const char *s, size_t n, size_t max_bytes)
{
    return field_within(out, s, n, max_bytes, 1);
}

/* n spaces, in a few appends. */
static void put_spaces(gw_buf *out, size_t n)
{
    static const char spaces[] = "                                ";
    while (n > 0) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        buf_append(out, spaces, k);
        n -= k;
    }
}

void gw_term_cell(gw_buf *out, const char *s, size_t width, int right_aligned)
{
    size_t cols = s ? gw_term_width(s, strlen(s), GW_TERM_FIELD) : 0;
    size_t pad = cols < width ? width - cols : 0;
    if (right_aligned)
        put_spaces(out, pad);
    gw_term_field(out, s);
    if (!right_aligned)
        put_spaces(out, pad);
}
