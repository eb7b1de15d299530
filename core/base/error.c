/* error.c — filling gw_error values (see error.h). */
#include "error.h"

#include <stdio.h>
#include <string.h>

int gw_error_vset(gw_error *err, int code, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
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
    char prefix[512], old[sizeof err->msg];
    va_list ap;
    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
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
