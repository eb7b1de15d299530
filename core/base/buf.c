/* buf.c — growable buffers, checked allocation, whole-file reads within a limit the caller gives,
 * and atomic writes that respect what the target is (see buf.h).  signals.h is included for one
 * thing: a read that waits stops when SIGINT or SIGTERM is pending. */
#include "buf.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "signals.h"

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

/* ---- reading input ------------------------------------------------------------------------ */

/* Reads fd to its end or one byte past max, whichever comes first, into b (straight into its
 * memory: an import may be gigabytes).  Returns 0 or an errno value (EFBIG past max).  A read
 * that SIGINT/SIGTERM interrupts stops (EINTR) so the command can honour the signal; any other
 * interruption is retried. */
static int read_bounded(int fd, size_t max, gw_buf *b)
{
    for (;;) {
        if (b->cap - b->len < 4097) {
            buf_grow(b, 65536);
            b->data[b->len] = '\0';   /* still a string if nothing more comes */
        }
        size_t room = b->cap - b->len - 1;
        size_t want = max - b->len + 1;   /* b->len <= max here: one byte past it at most */
        if (gw_signal_pending())
            return EINTR;   /* a signal that came before the read would not interrupt it */
        ssize_t n = read(fd, b->data + b->len, want < room ? want : room);
        if (n == 0)
            return 0;
        if (n < 0) {
            if (errno == EINTR && !gw_signal_pending())
                continue;
            return errno;
        }
        b->len += (size_t)n;
        b->data[b->len] = '\0';
        if (b->len > max)
            return EFBIG;
    }
}

int gw_read_file_max(const char *path, size_t max, char **out, size_t *len)
{
    *out = NULL;
    if (len)
        *len = 0;
    /* "-" is standard input itself (a socket cannot be opened again by name); O_NONBLOCK
     * only for the open: a FIFO opens at once, without waiting for a writer (one that nobody
     * writes then reads as empty); the reads themselves block as usual. */
    int own = strcmp(path, "-") != 0;
    int fd = own ? open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
                 : fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return errno;
    struct stat st;
    int rc = 0, flags = fcntl(fd, F_GETFL);
    if (fstat(fd, &st) != 0 || flags < 0 ||
        (own && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0))
        rc = errno ? errno : EIO;
    else if (S_ISDIR(st.st_mode))
        rc = EISDIR;
    else if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max)
        rc = EFBIG;   /* refused before reading a byte */
    gw_buf b = GW_BUF_INIT;
    if (!rc) {
        if (S_ISREG(st.st_mode) && st.st_size > 0) {
            buf_grow(&b, (size_t)st.st_size + 1);   /* one allocation for a file's known size */
            b.data[0] = '\0';
        }
        rc = read_bounded(fd, max, &b);
    }
    close(fd);
    if (rc) {
        buf_free(&b);
        return rc;
    }
    if (len)
        *len = b.len;
    *out = buf_detach(&b);
    return 0;
}

int gw_read_file(const char *path, char **out, size_t *len)
{
    return gw_read_file_max(path, GW_READ_FILE_MAX, out, len);
}

/* ---- writing output ----------------------------------------------------------------------- */

/* The file a write to path lands on: path itself, or the last of its chain of symbolic links
 * (which need not exist yet).  Returns 0 with *out set (caller frees), or an errno value. */
static int follow_links(const char *path, char **out)
{
    char *cur = gw_xstrdup(path);
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
            *out = cur;
            return 0;
        }
        char target[PATH_MAX];
        ssize_t n = hops < 40 ? readlink(cur, target, sizeof target - 1) : -1;
        if (n < 0) {
            int e = hops < 40 ? errno : ELOOP;
            free(cur);
            return e;
        }
        target[n] = '\0';
        const char *slash = strrchr(cur, '/');
        gw_buf next = GW_BUF_INIT;
        if (target[0] != '/' && slash)   /* relative to the link's own folder */
            buf_append(&next, cur, (size_t)(slash - cur) + 1);
        buf_puts(&next, target);
        free(cur);
        cur = buf_detach(&next);
    }
}

/* What a file that is not a regular file or a folder is, for messages. */
static const char *special_kind(mode_t mode)
{
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISFIFO(mode))
        return "a named pipe (FIFO)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* What a write puts in the file: data whole, or what fill writes in pieces. */
typedef struct content {
    const char *data;
    size_t len;
    gw_write_fn fill;
    void *arg;
} content;

/* Writes c to fd.  Returns 0 or an errno value. */
static int content_write(int fd, const content *c)
{
    if (c->fill) {
        int copy = dup(fd);
        FILE *f = copy >= 0 ? fdopen(copy, "w") : NULL;
        if (!f) {
            int e = errno;
            if (copy >= 0)
                close(copy);
            return e;
        }
        int rc = c->fill(f, c->arg);
        if (fclose(f) != 0 && !rc)
            rc = errno;
        return rc;
    }
    for (size_t off = 0; off < c->len;) {
        ssize_t w = write(fd, c->data + off, c->len - off);
        if (w < 0 && errno != EINTR)
            return errno;
        if (w > 0)
            off += (size_t)w;
    }
    return 0;
}

/* Writes c into a new temporary file beside target, gives it mode (and owner, when keep is
 * set and this process may), and renames it over target. */
static int replace_file(const char *target, const content *c, mode_t mode,
                        const struct stat *keep)
{
    size_t plen = strlen(target);
    char *tmp = gw_xmalloc(plen + 16);
    int fd, rc = 0;

    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", target);
    fd = mkstemp(tmp);
    if (fd < 0) {
        rc = errno;
        free(tmp);
        return rc;
    }
    rc = content_write(fd, c);
    /* The owner first (changing it clears set-user-ID bits that fchmod puts back), where this
     * process can: an ordinary user cannot give a file away, but may keep its group. */
    if (!rc && keep && (keep->st_uid != geteuid() || keep->st_gid != getegid()) &&
        fchown(fd, keep->st_uid, keep->st_gid) != 0 && fchown(fd, (uid_t)-1, keep->st_gid) != 0) {
        /* the file becomes this user's, as any new file would */
    }
    if (!rc && fchmod(fd, mode) != 0)
        rc = errno;
    if (close(fd) != 0 && !rc)   /* where a network file system reports a failed write */
        rc = errno;
    if (!rc && rename(tmp, target) != 0)
        rc = errno;
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

/* gw_write_file_atomic, also saying (*special) what a refused non-regular target is. */
static int write_atomic(const char *path, const content *c, const char **special)
{
    char *target = NULL;
    *special = NULL;
    int rc = follow_links(path, &target);
    if (rc)
        return rc;
    struct stat st;
    if (lstat(target, &st) != 0) {
        rc = errno == ENOENT ? replace_file(target, c, 0644, NULL) : errno;
    } else if (S_ISDIR(st.st_mode)) {
        rc = EISDIR;
    } else if (!S_ISREG(st.st_mode)) {
        *special = special_kind(st.st_mode);
        rc = ENOTSUP;   /* renaming over it would destroy it; writing into it is not atomic */
    } else {
        rc = replace_file(target, c, st.st_mode & 07777, &st);
    }
    free(target);
    return rc;
}

int gw_write_file_atomic(const char *path, const char *data, size_t len)
{
    const char *special;
    content c = {data, len, NULL, NULL};
    return write_atomic(path, &c, &special);
}

static int write_output(const char *path, const content *c, gw_error *err)
{
    const char *special;
    int e = write_atomic(path, c, &special);
    if (!e)
        return GW_OK;
    if (special)
        return gw_error_set(err, GW_ECANTCREAT, "%s: is %s, not a regular file: left untouched "
                            "(write to a file, or use -o - and redirect standard output)", path,
                            special);
    if (e == EISDIR)
        return gw_error_set(err, GW_ECANTCREAT, "%s: is a folder (end it with '/' to write into "
                            "it)", path);
    return gw_error_set(err, e == ENOSPC || e == EIO || e == EFBIG || e == EDQUOT ? GW_EIO
                                                                              : GW_ECANTCREAT,
                        "%s: %s", path, strerror(e));
}

int gw_write_output(const char *path, const char *data, size_t len, gw_error *err)
{
    content c = {data, len, NULL, NULL};
    return write_output(path, &c, err);
}

int gw_write_output_with(const char *path, gw_write_fn fill, void *arg, gw_error *err)
{
    content c = {NULL, 0, fill, arg};
    return write_output(path, &c, err);
}

int gw_output_is_folder(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 0 && path[n - 1] == '/';
}

char *gw_output_path(const char *path, const char *default_name)
{
    gw_buf b = GW_BUF_INIT;
    buf_puts(&b, path);
    if (gw_output_is_folder(path))
        buf_puts(&b, default_name);
    return buf_detach(&b);
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
