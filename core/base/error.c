/* error.c — filling gw_error values (see error.h). */
#include "error.h"

#include <stdio.h>
#include <string.h>

#include "term.h"

/* Copies raw into msg (size bytes) as the terminal sanitizer shows one field: a message names
 * files, URLs, plugin output and server headers, and main.c prints it to a terminal, so an
 * escape sequence or a line break in any of them is shown, never obeyed.  A message cut to fit
 * ends on a whole character or escape. */
static void message_copy(char *msg, size_t size, const char *raw)
{
    gw_buf shown = GW_BUF_INIT;
    size_t raw_len = strlen(raw);
    while (raw_len && (raw[raw_len - 1] == '\n' || raw[raw_len - 1] == '\r'))
        raw_len--;   /* the end of a library's message line (libxml2's) is not part of it */
    size_t n = gw_term_field_bytes(&shown, raw, raw_len, size - 1);
    if (n)
        memcpy(msg, shown.data, n);
    msg[n] = '\0';
    buf_free(&shown);
}

int gw_error_vset(gw_error *err, int code, const char *fmt, va_list ap)
{
    if (err) {
        char raw[2 * sizeof err->msg];   /* room to cut after escaping, not before */
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
    char prefix[512], joined[sizeof prefix + 2 + sizeof err->msg];
    va_list ap;
    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    /* the message is shown already: showing it again changes nothing (term.h) */
    snprintf(joined, sizeof joined, "%s: %s", prefix, err->msg);
    message_copy(err->msg, sizeof err->msg, joined);
}

void gw_error_clear(gw_error *err)
{
    if (err) {
        err->code = GW_OK;
        err->msg[0] = '\0';
    }
}
