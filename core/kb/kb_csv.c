/* kb_csv.c — the one CSV reader of KB text (kb_csv.h): libcsv decides every record and field
 * boundary; around it, a byte order mark, '#' comment lines between records, line numbers and
 * the check that the bytes are text.  The input is read in chunks of CHUNK bytes and each record's
 * fields live in one buffer reused for the next, so memory stays flat however long the file. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "base/buf.h"
#include "kb_csv.h"

#define CHUNK (64 * 1024)

typedef struct reader {
    const kb_csv_in *in;
    kb_csv_fn fn;
    void *arg;
    int stop;             /* the callback's non-zero return, once given */
    size_t line;          /* the line being fed to the parser (1-based) */
    size_t column;        /* characters already seen on it */
    size_t start_line;    /* where the record being read began */
    int after_comment;    /* no record since the start or the last comment line */
    size_t offset;        /* bytes read */
    unsigned need;        /* UTF-8 continuation bytes still expected */
    unsigned cp;          /* the code point being decoded */
    unsigned char lo, hi; /* the range the next continuation byte must be in */
    unsigned char lead;   /* the first byte of the character being decoded */
    gw_buf fields;        /* the record's fields, each NUL-terminated, back to back */
    size_t *ends;         /* where each ends in fields */
    size_t n, cap;
    char **ptrs;
    size_t *lens;
    size_t ptr_cap;
} reader;

/* ---- text ---------------------------------------------------------------------------------- */

/* One byte of UTF-8: 0 fine (or more bytes needed), 1 invalid, 2 a control character complete.
 * Overlong forms, surrogates and code points past U+10FFFF are invalid (RFC 3629). */
static int utf8_byte(reader *r, unsigned char b)
{
    if (r->need) {
        if (b < r->lo || b > r->hi)
            return 1;
        r->cp = (r->cp << 6) | (b & 0x3F);
        r->lo = 0x80;
        r->hi = 0xBF;
        if (--r->need)
            return 0;
        return r->cp >= 0x80 && r->cp <= 0x9F ? 2 : 0;   /* the C1 controls */
    }
    r->lead = b;
    if (b < 0x80)
        return (b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7F ? 2 : 0;
    r->lo = 0x80;
    r->hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
        r->need = 1;
        r->cp = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
        r->need = 2;
        r->cp = b & 0x0F;
        if (b == 0xE0)
            r->lo = 0xA0;
        else if (b == 0xED)
            r->hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        r->need = 3;
        r->cp = b & 0x07;
        if (b == 0xF0)
            r->lo = 0x90;
        else if (b == 0xF4)
            r->hi = 0x8F;
    } else {
        return 1;
    }
    return 0;
}

int kb_text_valid(const char *s, size_t n, size_t *at)
{
    reader r;
    size_t start = 0;
    memset(&r, 0, sizeof r);
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)s[i];
        if (!r.need)
            start = i;
        if (b == '\r' || utf8_byte(&r, b)) {
            *at = start;
            return 0;
        }
    }
    if (r.need) {
        *at = start;
        return 0;
    }
    return 1;
}

/* The length of the UTF-8 character at s (at most n bytes), 0 when it is not one. */
static size_t utf8_length(const char *s, size_t n)
{
    reader r;
    memset(&r, 0, sizeof r);
    for (size_t i = 0; i < n && i < 4; i++) {
        if (utf8_byte(&r, (unsigned char)s[i]) == 1)
            return 0;
        if (!r.need)
            return i + 1;
    }
    return 0;
}

char *kb_text_repair(const char *s)
{
    size_t n = strlen(s), i = 0;
    for (uint64_t word; i + 8 <= n; i += 8) {   /* ASCII, 8 bytes a step: every read text */
        memcpy(&word, s + i, sizeof word);
        if (word & 0x8080808080808080u)
            break;
    }
    while (i < n) {   /* the usual case: all of it text, copied to the byte */
        size_t len = (unsigned char)s[i] < 0x80 ? 1 : utf8_length(s + i, n - i);
        if (!len)
            break;
        i += len;
    }
    if (i == n)
        return gw_xstrndup(s, n);   /* its length known: not measured again */
    gw_buf out = GW_BUF_INIT;
    buf_append(&out, s, i);
    while (i < n) {
        size_t len = utf8_length(s + i, n - i);
        if (len) {
            buf_append(&out, s + i, len);
            i += len;
        } else {
            buf_puts(&out, "\xEF\xBF\xBD");   /* U+FFFD REPLACEMENT CHARACTER */
            i++;
        }
    }
    return buf_detach(&out);
}

/* Checks the bytes about to be parsed; the error names the line and character column. */
static int check_text(reader *r, const char *s, size_t n, gw_error *err)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)s[i];
        if (!r->need && b >= 0x20 && b < 0x7F) {   /* the usual case, at once */
            r->column++;
            continue;
        }
        int bad = utf8_byte(r, b);
        if (bad == 1)
            return gw_error_set(err, GW_EDATA, "%s:%zu:%zu: invalid UTF-8 (byte 0x%02X): not "
                                "text", r->in->name, r->line, r->column + 1, r->lead);
        if (bad == 2)
            return gw_error_set(err, GW_EDATA, "%s:%zu:%zu: a control character (U+%04X); "
                                "only tab and newline may be in a field", r->in->name, r->line,
                                r->column + 1, b < 0x80 ? b : r->cp);
        if (!r->need)
            r->column++;
    }
    return GW_OK;
}

/* ---- records ------------------------------------------------------------------------------ */

static void on_field(void *data, size_t len, void *arg)
{
    reader *r = arg;
    if (r->stop)
        return;
    if (data)
        buf_append(&r->fields, data, len);
    buf_putc(&r->fields, '\0');
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 32;
        r->ends = gw_xrealloc(r->ends, r->cap * sizeof *r->ends);
    }
    r->ends[r->n++] = r->fields.len;
}

static void on_record(int c, void *arg)
{
    reader *r = arg;
    (void)c;
    if (!r->stop && r->n) {
        if (r->n > r->ptr_cap) {
            r->ptr_cap = r->cap;
            r->ptrs = gw_xrealloc(r->ptrs, r->ptr_cap * sizeof *r->ptrs);
            r->lens = gw_xrealloc(r->lens, r->ptr_cap * sizeof *r->lens);
        }
        for (size_t i = 0, from = 0; i < r->n; i++) {
            r->ptrs[i] = r->fields.data + from;
            r->lens[i] = r->ends[i] - from - 1;
            from = r->ends[i];
        }
        kb_csv_rec rec = {r->ptrs, r->lens, r->n, r->start_line, r->after_comment, r->offset};
        r->after_comment = 0;
        r->stop = r->fn(&rec, r->arg);
    }
    buf_reset(&r->fields);
    r->n = 0;
    r->start_line = r->line;
}

/* libcsv reads every byte as data: nothing is a space to trim (RFC 4180). */
static int no_space(unsigned char c)
{
    (void)c;
    return 0;
}

/* Feeds one chunk of the input: whole lines and the start of the next.  A '#' that begins a
 * line while no record is under way starts a comment, which runs to the end of that line. */
typedef struct feed {
    struct csv_parser p;
    int comments;   /* KB_CSV_COMMENTS */
    int at_line_start, in_comment;
} feed;

/* libcsv's state between records (ROW_NOT_BEGUN in libcsv.c: the struct is public, the name
 * is not). */
static int between_records(const feed *fd)
{
    return fd->p.pstate == 0;
}

static int feed_chunk(reader *r, feed *fd, const char *s, size_t len, gw_error *err)
{
    size_t pos = 0;
    while (pos < len && !r->stop) {
        const char *nl = memchr(s + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - s) + 1 : len;
        if (fd->comments && fd->at_line_start && !fd->in_comment && s[pos] == '#' &&
            between_records(fd))
            fd->in_comment = 1;
        /* a blank line between records ends a section as a comment does */
        if (fd->at_line_start && between_records(fd) &&
            (s[pos] == '\n' || (s[pos] == '\r' && end - pos == 2)))
            r->after_comment = 1;
        if (!fd->in_comment) {
            int rc = check_text(r, s + pos, end - pos, err);
            if (rc)
                return rc;
            if (between_records(fd))
                r->start_line = r->line;
            if (csv_parse(&fd->p, s + pos, end - pos, on_field, on_record, r) != end - pos)
                return gw_error_set(err, GW_EDATA, "%s:%zu: broken CSV quoting: %s",
                                    r->in->name, r->line, csv_error(&fd->p) == CSV_EPARSE ?
                                    "a quote inside an unquoted field, or text after a closing "
                                    "quote (quote the whole field and double each quote in it)"
                                    : csv_strerror(csv_error(&fd->p)));
        }
        fd->at_line_start = nl != NULL;
        if (nl) {
            if (fd->in_comment)
                r->after_comment = 1;
            fd->in_comment = 0;
            r->line++;
            r->column = 0;
        }
        pos = end;
    }
    return GW_OK;
}

static void reader_free(reader *r)
{
    buf_free(&r->fields);
    free(r->ends);
    free(r->ptrs);
    free(r->lens);
}

int kb_csv_read(const kb_csv_in *in, unsigned opts, kb_csv_fn fn, void *arg, gw_error *err)
{
    reader r;
    feed fd;
    memset(&r, 0, sizeof r);
    memset(&fd, 0, sizeof fd);
    r.in = in;
    r.fn = fn;
    r.arg = arg;
    r.line = r.start_line = 1;
    r.after_comment = 1;
    fd.at_line_start = 1;
    fd.comments = (opts & KB_CSV_COMMENTS) != 0;
    if (csv_init(&fd.p, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI) != 0)
        return gw_error_set(err, GW_ESOFTWARE, "CSV parser: out of memory");
    csv_set_space_func(&fd.p, no_space);
    int rc = GW_OK;
    char *chunk = in->f ? gw_xmalloc(CHUNK) : NULL;
    int first = 1;
    for (;;) {
        const char *s = in->text;
        size_t n = in->len;
        if (in->f) {
            n = fread(chunk, 1, CHUNK, in->f);
            s = chunk;
            if (n == 0 && ferror(in->f)) {
                rc = gw_error_set(err, GW_ENOINPUT, "%s: %s", in->name, strerror(errno));
                break;
            }
        }
        r.offset += n;
        if (first && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
            s += 3;
            n -= 3;
        }
        first = 0;
        if (n == 0)
            break;
        if ((rc = feed_chunk(&r, &fd, s, n, err)) != GW_OK || r.stop || !in->f)
            break;
    }
    /* before csv_fini, which hands on the last record */
    if (rc == GW_OK && !r.stop && r.need)
        rc = gw_error_set(err, GW_EDATA, "%s:%zu:%zu: invalid UTF-8 (the text ends inside a "
                          "character): not text", in->name, r.line, r.column + 1);
    if (rc == GW_OK && !r.stop && csv_fini(&fd.p, on_field, on_record, &r) != 0)
        rc = gw_error_set(err, GW_EDATA, "%s:%zu: broken CSV quoting: a quoted field is not "
                          "closed", in->name, r.start_line);
    if (rc == GW_OK && r.stop)
        rc = r.stop;
    csv_free(&fd.p);
    free(chunk);
    reader_free(&r);
    return rc;
}
