/* plugin_values.c — what a worker sends back, distrusted: every value a plugin returned is
 * checked again here (the worker is not trusted), and every text it wrote is escaped before it
 * reaches a terminal, a log or the KB.  Plain C over views; no Lua state. */
#include "plugin_values.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "luaapi.h"

/* The length of the UTF-8 sequence at s (n bytes left) when it is valid, else 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3
                 : s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
    if (!len || len > n || !luaapi_utf8_valid((const char *)s, len))
        return 0;
    return len;
}

/* A character a terminal may act on: C0 controls but those in keep, DEL, and the C1 controls
 * (U+0080 to U+009F; 0x9b is a CSI on some terminals).  s points at a valid sequence of len. */
static int is_control(const unsigned char *s, size_t len, const char *keep)
{
    if (len == 1)
        return (s[0] < 0x20 && !(s[0] && strchr(keep, s[0]))) || s[0] == 0x7f;
    return len == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

/* Appends s (n bytes) to out with control characters other than those in keep, and bytes that
 * are not UTF-8, written as \xNN (C1 controls as \u{NN}): what a plugin wrote reaches a
 * terminal or a log as text, never as an escape sequence. */
void plugin_values_escape(gw_buf *out, const char *s, size_t n, const char *keep)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        size_t len = utf8_seq(p, (size_t)(end - p));
        if (!len)
            buf_printf(out, "\\x%02x", *p++);
        else if (is_control(p, len, keep)) {
            if (len == 1)
                buf_printf(out, "\\x%02x", *p);
            else
                buf_printf(out, "\\u{%x}", p[1]);
            p += len;
        } else {
            buf_append(out, (const char *)p, len);
            p += len;
        }
    }
}

/* Where a value lies in what a plugin returned: one step per level, on the stack, so that the
 * text of the place (".rows[3].name") is written only for an error.  Writing it for every
 * value took 1.5 M of the 2.0 M instructions checking a report's 1,470 rule verdicts cost. */
typedef struct place {
    const struct place *up;   /* NULL at the top */
    const char *key;          /* a map's key, or NULL for a list's item */
    size_t index;             /* a list's item, from 1 */
} place;

static void place_text(const place *at, gw_buf *out)
{
    if (!at)
        return;
    place_text(at->up, out);
    if (at->key)
        buf_printf(out, ".%s", at->key);
    else
        buf_printf(out, "[%zu]", at->index);
}

/* The error "LABEL.PLACE: what", fmt giving the ": what". */
static int place_error(gw_error *err, const place *at, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int place_error(gw_error *err, const place *at, const char *label, const char *fmt, ...)
{
    gw_buf where = GW_BUF_INIT;
    buf_puts(&where, label);
    place_text(at, &where);
    va_list ap;
    va_start(ap, fmt);
    char what[256];
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int rc = gw_error_set(err, GW_EDATA, "%s%s", buf_cstr(&where), what);
    buf_free(&where);
    return rc;
}

/* Checks a value a plugin returned, as the worker should have (luaapi_to_view): finite
 * numbers, valid UTF-8 without NUL or control characters (tab and newline aside), bounded
 * depth, size and string length.  GW_EDATA naming label and the place. */
static int check_value(const view *v, int depth, size_t *items, const place *at,
                       const char *label, gw_error *err)
{
    if (++*items > LUAAPI_MAX_ITEMS)
        return gw_error_set(err, GW_EDATA, "%s: more than %d values", label, LUAAPI_MAX_ITEMS);
    if (depth > LUAAPI_MAX_DEPTH)
        return place_error(err, at, label, ": nested deeper than %d levels", LUAAPI_MAX_DEPTH);
    switch (view_kind(v)) {
    case VIEW_NUMBER:
        if (!isfinite(view_num(v)))
            return place_error(err, at, label, ": expected a finite number");
        return GW_OK;
    case VIEW_STRING: {
        const unsigned char *s = (const unsigned char *)view_str(v);
        size_t n = view_str_len(v);
        if (n > LUAAPI_MAX_STRING)
            return place_error(err, at, label, ": a string over %d bytes", LUAAPI_MAX_STRING);
        for (size_t i = 0; i < n;) {
            if (s[i] >= 0x20 && s[i] < 0x7f) {   /* printable ASCII, most of any sentence */
                i++;
                continue;
            }
            size_t len = utf8_seq(s + i, n - i);
            if (!len)
                return place_error(err, at, label, ": invalid UTF-8");
            if (is_control(s + i, len, "\t\n")) {
                unsigned c = len == 1 ? s[i] : s[i + 1];
                return place_error(err, at, label,
                                   ": control character U+%04X in a string (terminal escapes "
                                   "and control characters are refused)", c);
            }
            i += len;
        }
        return GW_OK;
    }
    case VIEW_LIST:
    case VIEW_MAP: {
        int map = view_kind(v) == VIEW_MAP;
        for (size_t i = 0; i < view_len(v); i++) {
            place here = {at, map ? view_map_key_at(v, i) : NULL, i + 1};
            int rc = GW_OK;
            if (map) {
                const char *k = here.key;
                if (!luaapi_utf8_valid(k, strlen(k)))
                    rc = place_error(err, at, label, ": a key is not UTF-8");
                for (const unsigned char *c = (const unsigned char *)k; *c && rc == GW_OK; c++)
                    if (*c < 0x20 || *c == 0x7f)
                        rc = place_error(err, at, label, ": control character in a key");
            }
            view *item = map ? view_map_value_at(v, i) : view_list_at(v, i);
            if (rc == GW_OK)
                rc = check_value(item, depth + 1, items, &here, label, err);
            /* A record that says the input line it came from (an importer's) is named by it,
             * as the KB's own checks of records name it. */
            const view *line = !map && err && view_kind(item) == VIEW_MAP
                                   ? view_map_get(item, "line") : NULL;
            if (rc != GW_OK && line && view_kind(line) == VIEW_NUMBER && view_num(line) > 0 &&
                !strstr(err->msg, " (line ")) {
                size_t len = strlen(err->msg);
                snprintf(err->msg + len, sizeof err->msg - len, " (line %.0f)", view_num(line));
            }
            if (rc != GW_OK)
                return rc;
        }
        return GW_OK;
    }
    default:
        return GW_OK;
    }
}

int plugin_values_check(const view *v, const char *label, gw_error *err)
{
    size_t items = 0;
    return check_value(v, 0, &items, NULL, label, err);
}
