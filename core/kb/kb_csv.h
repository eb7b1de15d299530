/* kb_csv.h — the one CSV reader of text bound for the KB: table CSVs, exports, and the files an
 * importer plugin is handed in batches.  libcsv alone decides where records and fields end
 * (RFC 4180: no trimming of spaces, a record ends at CR, LF or CRLF outside quotes); this adds
 * what the KB's text form needs around it: a byte order mark, '#' comment lines between
 * records, line numbers, and the refusal of bytes that are not text (invalid UTF-8, control
 * characters other than tab, CR and LF) with file:line:column.  It reads a file in fixed-size
 * chunks, so memory does not grow with the file. */
#ifndef GW_KB_CSV_H
#define GW_KB_CSV_H

#include <stdio.h>

#include "base/error.h"

/* One record, valid during the callback only. */
typedef struct kb_csv_rec {
    char **f;           /* the fields, each NUL-terminated (a field may hold a newline) */
    const size_t *len;  /* their lengths in bytes */
    size_t n;
    size_t line;        /* the file line it starts on */
    int may_be_header;  /* the first record of the text, or the first after a comment line
                         * or a blank line */
    size_t offset;      /* bytes of the input read so far (for progress) */
} kb_csv_rec;

/* Called for each record; a non-zero return stops the reading, which returns it. */
typedef int (*kb_csv_fn)(const kb_csv_rec *r, void *arg);

/* Where the text comes from: an open file read from where it stands (f), or text in memory. */
typedef struct kb_csv_in {
    const char *name;   /* for messages */
    FILE *f;
    const char *text;
    size_t len;
} kb_csv_in;

/* How to read: KB_CSV_COMMENTS: a line that starts with '#' while no record is under way is a
 * comment (the KB's own text; another program's CSV has none). */
enum { KB_CSV_COMMENTS = 1 };

/* Reads every record of in, in order (opts: the flags above).  The reading is strict: a quote
 * inside an unquoted field, or anything but a comma or a line end after a closing quote, is an
 * error naming the line.  RFC 4180 allows neither, and readers disagree on them (libcsv's lenient
 * mode reads '"b"c,d' as one field where Python's csv reads two), so no guess is stored.
 * Errors are GW_EDATA
 * "name:line: problem" (":line:column" for bytes that are not text), GW_ENOINPUT for a read
 * error; or the callback's own non-zero return. */
int kb_csv_read(const kb_csv_in *in, unsigned opts, kb_csv_fn fn, void *arg, gw_error *err);

/* 1 when s (n bytes) is UTF-8 text without control characters other than tab and newline;
 * otherwise 0, with *at the byte offset of the first bad character. */
int kb_text_valid(const char *s, size_t n, size_t *at);

/* A copy of s (caller frees) with every byte that is not part of a UTF-8 character replaced by
 * U+FFFD: what a read hands on from a KB written by other means, so that no output, JSON above
 * all, carries bytes that are not text. */
char *kb_text_repair(const char *s);

#endif
