/* plugin_values.h — private to the plugin host (plugin.c): what a worker sends back, checked and
 * escaped in gpuwise's own process, since the worker is not trusted. */
#ifndef GW_PLUGIN_VALUES_H
#define GW_PLUGIN_VALUES_H

#include <stddef.h>

#include "base/buf.h"
#include "base/error.h"
#include "base/view.h"

/* Appends s (n bytes) to out with control characters other than those in keep, and bytes that
 * are not UTF-8, written as \xNN (C1 controls as \u{NN}): what a plugin wrote reaches a
 * terminal or a log as text, never as an escape sequence. */
void plugin_values_escape(gw_buf *out, const char *s, size_t n, const char *keep);

/* Checks a value a plugin returned, as the worker should have (luaapi_to_view): finite
 * numbers, valid UTF-8 without NUL or control characters (tab and newline aside), bounded
 * depth, size and string length.  GW_EDATA naming label and the place (and the input line of
 * a record that gives one). */
int plugin_values_check(const view *v, const char *label, gw_error *err);

#endif
