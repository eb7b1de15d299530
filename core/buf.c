/* buf.c — growable buffers, checked allocation and whole-file I/O (see buf.h). */
#include "buf.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void out_of_memory(size_t n)
{
    fprintf(stderr, "gpuwise: out of memory (asked for %zu bytes)\n", n);
    abort();
}

void *gw_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *gw_xcalloc(size_t count, size_t n)
{
    void *p = calloc(count ? count : 1, n ? n : 1);
    if (!p)
        out_of_memory(count * n);
    return p;
}

void *gw_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *gw_xstrndup(const char *s, size_t n)
{
    char *p = gw_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *gw_xstrdup(const char *s)
{
    return gw_xstrndup(s, strlen(s));
}

static void buf_grow(gw_buf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    b->data = gw_xrealloc(b->data, cap);
    b->cap = cap;
}

void buf_append(gw_buf *b, const char *s, size_t n)
{
    buf_grow(b, n);
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void buf_puts(gw_buf *b, const char *s)
{
    buf_append(b, s, strlen(s));
}

void buf_putc(gw_buf *b, char c)
{
    buf_append(b, &c, 1);
}

void buf_printf(gw_buf *b, const char *fmt, ...)
{
    /* Formatted straight into the room left; a second pass only when that was too small. */
    va_list ap;
    buf_grow(b, 0);
    size_t room = b->cap - b->len;
    va_start(ap, fmt);
    int n = vsnprintf(b->data + b->len, room, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->data[b->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        buf_grow(b, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

void buf_reset(gw_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

const char *buf_cstr(const gw_buf *b)
{
    return b->data ? b->data : "";
}

char *buf_detach(gw_buf *b)
{
    char *p = b->data ? b->data : gw_xstrdup("");
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

void buf_free(gw_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

int gw_read_file(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    gw_buf b = GW_BUF_INIT;
    char chunk[65536];
    size_t n;
    int rc = 0;

    *out = NULL;
    if (len)
        *len = 0;
    if (!f)
        return errno;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return EISDIR;
    }
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&b, chunk, n);
    if (ferror(f))
        rc = errno ? errno : EIO;
    fclose(f);
    if (rc) {
        buf_free(&b);
        return rc;
    }
    if (len)
        *len = b.len;
    *out = buf_detach(&b);
    return 0;
}

int gw_write_file_atomic(const char *path, const char *data, size_t len)
{
    size_t plen = strlen(path);
    char *tmp = gw_xmalloc(plen + 16);
    int fd, rc = 0;

    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        rc = errno;
        free(tmp);
        return rc;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            rc = errno;
            break;
        }
        off += (size_t)w;
    }
    if (!rc && fchmod(fd, 0644) != 0)
        rc = errno;
    if (close(fd) != 0 && !rc)   /* where a network file system reports a failed write */
        rc = errno;
    if (!rc && rename(tmp, path) != 0)
        rc = errno;
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

void buf_put_csv_field(gw_buf *out, const char *s)
{
    size_t n = strlen(s);
    int quote = n > 0 && (strpbrk(s, ",\"\r\n") || isspace((unsigned char)s[0]) ||
                          isspace((unsigned char)s[n - 1]) || s[0] == '#');
    if (!quote) {
        buf_append(out, s, n);
        return;
    }
    buf_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"')
            buf_putc(out, '"');
        buf_putc(out, *s);
    }
    buf_putc(out, '"');
}
