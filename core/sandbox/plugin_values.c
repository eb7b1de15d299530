/* plugin_values.c — what a worker sends back, distrusted: every value a plugin returned is
 * checked again here (the worker is not trusted), and every text it wrote is escaped before it
 * reaches a terminal, a log or the KB.  Plain C over views; no Lua state. */
#include "plugin_values.h"

#include <math.h>
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

/* Checks a value a plugin returned, as the worker should have (luaapi_to_view): finite
 * numbers, valid UTF-8 without NUL or control characters (tab and newline aside), bounded
 * depth, size and string length.  GW_EDATA naming label and the place. */
static int check_value(const view *v, int depth, size_t *items, gw_buf *path, const char *label,
                       gw_error *err)
{
    if (++*items > LUAAPI_MAX_ITEMS)
        return gw_error_set(err, GW_EDATA, "%s: more than %d values", label, LUAAPI_MAX_ITEMS);
    if (depth > LUAAPI_MAX_DEPTH)
        return gw_error_set(err, GW_EDATA, "%s%s: nested deeper than %d levels", label,
                            buf_cstr(path), LUAAPI_MAX_DEPTH);
    switch (view_kind(v)) {
    case VIEW_NUMBER:
        if (!isfinite(view_num(v)))
            return gw_error_set(err, GW_EDATA, "%s%s: expected a finite number", label,
                                buf_cstr(path));
        return GW_OK;
    case VIEW_STRING: {
        const unsigned char *s = (const unsigned char *)view_str(v);
        size_t n = view_str_len(v);
        if (n > LUAAPI_MAX_STRING)
            return gw_error_set(err, GW_EDATA, "%s%s: a string over %d bytes", label,
                                buf_cstr(path), LUAAPI_MAX_STRING);
        for (size_t i = 0; i < n;) {
            size_t len = utf8_seq(s + i, n - i);
            if (!len)
                return gw_error_set(err, GW_EDATA, "%s%s: invalid UTF-8", label, buf_cstr(path));
            if (is_control(s + i, len, "\t\n")) {
                unsigned c = len == 1 ? s[i] : s[i + 1];
                return gw_error_set(err, GW_EDATA,
                                    "%s%s: control character U+%04X in a string (terminal "
                                    "escapes and control characters are refused)",
                                    label, buf_cstr(path), c);
            }
            i += len;
        }
        return GW_OK;
    }
    case VIEW_LIST:
    case VIEW_MAP: {
        int map = view_kind(v) == VIEW_MAP;
        for (size_t i = 0; i < view_len(v); i++) {
            size_t at = path->len;
            int rc = GW_OK;
            if (map) {
                const char *k = view_map_key_at(v, i);
                if (!luaapi_utf8_valid(k, strlen(k)))
                    rc = gw_error_set(err, GW_EDATA, "%s%s: a key is not UTF-8", label,
                                      buf_cstr(path));
                for (const unsigned char *c = (const unsigned char *)k; *c && rc == GW_OK; c++)
                    if (*c < 0x20 || *c == 0x7f)
                        rc = gw_error_set(err, GW_EDATA, "%s%s: control character in a key",
                                          label, buf_cstr(path));
                if (rc == GW_OK)
                    buf_printf(path, ".%s", k);
            } else
                buf_printf(path, "[%zu]", i + 1);
            view *item = map ? view_map_value_at(v, i) : view_list_at(v, i);
            if (rc == GW_OK)
                rc = check_value(item, depth + 1, items, path, label, err);
            path->len = at;
            if (path->data)
                path->data[at] = '\0';
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
    gw_buf path = GW_BUF_INIT;
    size_t items = 0;
    int rc = check_value(v, 0, &items, &path, label, err);
    buf_free(&path);
    return rc;
}
