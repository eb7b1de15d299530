/* term.h — text on its way to a terminal.  Whatever gpuwise shows comes partly from outside (a
 * plugin, a dump, a server, a file name, the KB), and a terminal obeys some characters instead
 * of showing them; this is the one place that decides which, and how a table cell is cut. */
#ifndef GW_TERM_H
#define GW_TERM_H

#include <stddef.h>

#include "buf.h"

/* What gw_term_text leaves as it is, besides what a field keeps. */
enum {
    GW_TERM_FIELD = 0,         /* one value: every control is shown escaped, newlines too */
    GW_TERM_LINES = 1 << 0,    /* gpuwise's own lines: '\n' and '\t' stay */
    GW_TERM_COLOUR = 1 << 1    /* gpuwise's own colours: SGR sequences of colour and bold only */
};

/* Appends s[0..n) to out as a terminal should show it: printable UTF-8 as it is, and as
 * backslash escapes what a terminal would act on or what would mislead a reader —
 *   C0 controls and DEL ("\n", "\t", "\r", "\x1b": so no escape sequence ever starts),
 *   C1 controls U+0080-U+009F ("\u009b"), bidirectional marks, embeddings, overrides and
 *   isolates (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line and paragraph
 *   separators U+2028 and U+2029 ("\u202e"), and each byte of invalid UTF-8 ("\xff").
 * A backslash stays a backslash: the result is for eyes, not for parsing back.  flags keep
 * gpuwise's own line breaks or colours where the text is its own (GW_TERM_LINES, _COLOUR). */
void gw_term_text(gw_buf *out, const char *s, size_t n, unsigned flags);

/* 1 when gw_term_text(out, s, n, flags) would append s[0..n) as it is: nothing to escape. */
int gw_term_text_unchanged(const char *s, size_t n, unsigned flags);

/* gw_term_text of the string s (NULL: nothing) as one field. */
void gw_term_field(gw_buf *out, const char *s);

/* s as one field, for a printf argument: the text is scratch's (reset first) and lives until
 * scratch is next used or freed.  NULL gives "". */
const char *gw_term_safe(gw_buf *scratch, const char *s);

/* The columns s[0..n) takes on a terminal once shown as gw_term_text with flags would show it:
 * East Asian wide and fullwidth characters and emoji count 2, combining marks and zero-width
 * characters 0, an escape its length. */
size_t gw_term_width(const char *s, size_t n, unsigned flags);

/* Appends s (NULL: nothing) as one field, cut to at most max_cols columns on a character (or
 * escape) boundary, never inside one; returns the columns appended. */
size_t gw_term_field_cut(gw_buf *out, const char *s, size_t max_cols);

/* Appends s[0..n) as one field, as much as fits in max_bytes bytes, whole characters and
 * escapes only (a fixed-size message); returns the bytes appended. */
size_t gw_term_field_bytes(gw_buf *out, const char *s, size_t n, size_t max_bytes);

/* Appends s (NULL: nothing) as one field in a cell at least width columns wide: padded with
 * spaces on the right, or on the left when right_aligned; a wider one is written whole. */
void gw_term_cell(gw_buf *out, const char *s, size_t width, int right_aligned);

#endif
