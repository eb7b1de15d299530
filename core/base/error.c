/* error.c — filling gw_error values (see error.h). */
#include "error.h"

#include <stdio.h>
#include <string.h>

#include "term.h"

/* Copies raw into msg (size bytes) as the terminal sanitizer shows one field: a message names
 * files, URLs, plugin output and server headers, and main.c prints it to a terminal, so an
 * escape sequence or a line break in any of them is shown, never obeyed.  A message cut to fit
 * ends on a character boundary. */
static void message_copy(char *msg, size_t size, const char *raw)
{
    gw_buf shown = GW_BUF_INIT;
    size_t raw_len = strlen(raw);
    while (raw_len && (raw[raw_len - 1] == '\n' || raw[raw_len - 1] == '\r'))
        raw_len--;   /* the end of a library's message line (libxml2's) is not part of it */
    gw_term_text(&shown, raw, raw_len, GW_TERM_FIELD);
    size_t n = shown.len;
    if (n >= size) {
        n = size - 1;
        while (n > 0 && ((unsigned char)shown.data[n] & 0xC0) == 0x80)
            n--;
    }
    if (n)
        memcpy(msg, shown.data, n);
    msg[n] = '\0';
    buf_free(&shown);
}

int gw_error_vset(gw_error *err, int code, const char *fmt, va_list ap)
{
    if (err) {
        char raw[sizeof err->msg];
        err->code = code;
        vsnprintf(raw, sizeof raw, fmt, ap);
        message_copy(err->msg, sizeof err->msg, raw);
    }
    return code;
}

int gw_error_set(gw_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gw_error_vset(err, code, fmt, ap);
    va_end(ap);
    return code;
}

void gw_error_prefix(gw_error *err, const char *fmt, ...)
{
    char raw[512], prefix[512], old[sizeof err->msg];
    va_list ap;
    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    message_copy(prefix, sizeof prefix, raw);
    memcpy(old, err->msg, sizeof old);
    size_t n = strlen(prefix);
    if (n + 2 >= sizeof err->msg)
        n = sizeof err->msg - 3;
    memcpy(err->msg, prefix, n);
    memcpy(err->msg + n, ": ", 2);
    size_t room = sizeof err->msg - n - 3;
    size_t old_len = strnlen(old, room);
    memcpy(err->msg + n + 2, old, old_len);
    err->msg[n + 2 + old_len] = '\0';
}

void gw_error_clear(gw_error *err)
{
    if (err) {
        err->code = GW_OK;
        err->msg[0] = '\0';
    }
}
