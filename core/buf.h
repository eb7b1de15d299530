/* buf.h — a growable byte buffer, always NUL-terminated.  Allocation failure aborts: the
 * program cannot do anything useful without memory, and every caller stays simple. */
#ifndef GW_BUF_H
#define GW_BUF_H

#include <stddef.h>

typedef struct gw_buf {
    char *data;   /* NUL-terminated; NULL until the first append */
    size_t len;
    size_t cap;
} gw_buf;

#define GW_BUF_INIT {NULL, 0, 0}

void buf_append(gw_buf *b, const char *s, size_t n);
void buf_puts(gw_buf *b, const char *s);
void buf_putc(gw_buf *b, char c);
void buf_printf(gw_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_reset(gw_buf *b);                 /* len = 0, keeps memory */
const char *buf_cstr(const gw_buf *b);     /* "" when empty; owned by b */
char *buf_detach(gw_buf *b);               /* caller frees; b is left empty */
void buf_free(gw_buf *b);

/* Allocation helpers that abort on failure (see above). */
void *gw_xmalloc(size_t n);
void *gw_xcalloc(size_t count, size_t n);
void *gw_xrealloc(void *p, size_t n);
char *gw_xstrdup(const char *s);
char *gw_xstrndup(const char *s, size_t n);

/* Reads a whole file (caller frees *out).  Returns 0, or an errno value. */
int gw_read_file(const char *path, char **out, size_t *len);

/* Writes data to path atomically: a temporary file beside it, then rename, so a reader (or a
 * run stopped half-way) sees the old file or the new one, never part of one.  Not fsynced:
 * what gpuwise writes this way (documents, charts, exports) is made again by running the
 * command again, and waiting for the disk cost more than the rest of a report; the KB keeps
 * SQLite's own durability.  Returns 0, or an errno value (the temporary file is removed on
 * failure). */
int gw_write_file_atomic(const char *path, const char *data, size_t len);

/* One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote or a line
 * break, starts or ends with a space (which readers trim) or starts with '#' (a comment to some
 * readers); as it is otherwise. */
void buf_put_csv_field(gw_buf *out, const char *s);

#endif
