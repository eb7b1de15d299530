/* buf.c — growable buffers, checked allocation, whole-file reads within a limit the caller gives,
 * atomic writes that respect what the target is, and the rule for other users' links and folders
 * (see buf.h).  signals.h is included for one thing: a read that waits stops when SIGINT or
 * SIGTERM is pending. */
#include "buf.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "signals.h"

static void (*out_of_memory_fn)(size_t n);

void gw_on_out_of_memory(void (*fn)(size_t n)) { out_of_memory_fn = fn; }

static void out_of_memory(size_t n)
{
    if (out_of_memory_fn)
        out_of_memory_fn(n);
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

/* Whether b is a GW_BUF_DISCARD. */
static int buf_discards(const gw_buf *b)
{
    return !b->data && b->cap == SIZE_MAX;
}

void buf_append(gw_buf *b, const char *s, size_t n)
{
    if (buf_discards(b))
        return;
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
    /* One pass for all but long texts: formatted into the room left where there is plenty of
     * it, else into a stack buffer and copied; a second pass only for a text longer than both.
     * (A first pass into a new buffer's 64 bytes, then a second, was 17% of the instructions of
     * a served model's report, whose speed sentences are written again at each what-if.) */
    char local[1024];
    va_list ap;
    if (buf_discards(b))
        return;
    buf_grow(b, 0);
    size_t room = b->cap - b->len;
    char *to = room >= sizeof local ? b->data + b->len : local;
    size_t size = to == local ? sizeof local : room;
    va_start(ap, fmt);
    int n = vsnprintf(to, size, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->data[b->len] = '\0';
        return;
    }
    if ((size_t)n < size) {
        if (to == local)
            buf_append(b, local, (size_t)n);
        else
            b->len += (size_t)n;
        return;
    }
    buf_grow(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
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

/* ---- links and folders another user may have planted -------------------------------------- */

/* Whether the kernel's protected_symlinks rule refuses to follow the link *link (lstat) standing
 * in folder parent: the folder is sticky and anyone may write it, and the link belongs neither
 * to the follower nor to the folder's owner.  A folder that cannot be looked at is refused. */
static int planted_link(const struct stat *link, const char *parent)
{
    struct stat dir;
    if (link->st_uid == geteuid())
        return 0;
    if (stat(parent, &dir) != 0)
        return 1;
    return (dir.st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH) && dir.st_uid != link->st_uid;
}

/* The link at done (its folder: done's first mark bytes), which leaves *rest to resolve: checks
 * it, reads it, and puts its target in front of *rest, done going back to its folder (or to "/"
 * for an absolute target).  Returns 0, EACCES for a planted link, or an errno value. */
static int expand_link(gw_buf *done, size_t mark, const struct stat *st, gw_buf *rest)
{
    char target[PATH_MAX];
    char *parent = mark ? gw_xstrndup(done->data, mark) : gw_xstrdup(".");
    int planted = planted_link(st, parent);
    free(parent);
    if (planted)
        return EACCES;
    ssize_t n = readlink(done->data, target, sizeof target - 1);
    if (n < 0)
        return errno;
    target[n] = '\0';
    gw_buf next = GW_BUF_INIT;
    buf_puts(&next, target);
    buf_puts(&next, buf_cstr(rest));
    buf_free(rest);
    *rest = next;
    done->len = target[0] == '/' ? 0 : mark;
    buf_puts(done, target[0] == '/' ? "/" : "");
    return 0;
}

int gw_path_resolve(const char *path, char **resolved, char **refused)
{
    gw_buf done = GW_BUF_INIT, rest = GW_BUF_INIT;
    int rc = 0, hops = 0;
    *resolved = *refused = NULL;
    buf_puts(&done, path[0] == '/' ? "/" : "");
    buf_puts(&rest, path);
    for (size_t at = 0; !rc;) {
        at += strspn(rest.data + at, "/");
        size_t n = strcspn(rest.data + at, "/");
        if (n == 0)
            break;
        size_t mark = done.len;
        if (mark && done.data[mark - 1] != '/')
            buf_putc(&done, '/');
        buf_append(&done, rest.data + at, n);
        at += n;
        /* "." and ".." are resolved by the kernel: everything before them is a real folder */
        if ((n == 1 && done.data[done.len - 1] == '.') ||
            (n == 2 && !strcmp(done.data + done.len - 2, "..")))
            continue;
        struct stat st;
        if (lstat(done.data, &st) != 0) {   /* missing, or not reachable: the write will say */
            buf_puts(&done, rest.data + at);
            break;
        }
        if (!S_ISLNK(st.st_mode))
            continue;
        if (++hops > 40) {
            rc = ELOOP;
        } else {
            gw_buf tail = GW_BUF_INIT;
            buf_puts(&tail, rest.data + at);
            buf_free(&rest);
            rest = tail;
            at = 0;
            rc = expand_link(&done, mark, &st, &rest);
            if (rc == EACCES)
                *refused = gw_xstrndup(done.data, done.len);
        }
    }
    buf_free(&rest);
    if (rc)
        buf_free(&done);
    else
        *resolved = buf_detach(&done);
    return rc;
}

/* The error for path, whose resolution met refused, a link planted_link refuses. */
static int link_refused(gw_error *err, const char *path, const char *refused)
{
    int same = strcmp(refused, path) == 0;
    return gw_error_set(err, GW_ECANTCREAT, "%s: not followed: %s%s%sa symbolic link of another "
                        "user in a sticky folder anyone may write, which may have been planted "
                        "there (the kernel's protected_symlinks rule)", path,
                        same ? "" : "the path goes through ", same ? "" : refused,
                        same ? "it is " : ", ");
}

int gw_path_resolve_safe(const char *path, char **resolved, gw_error *err)
{
    char *refused = NULL;
    int e = gw_path_resolve(path, resolved, &refused);
    if (e == EACCES && refused)
        link_refused(err, path, refused);
    else if (e)
        gw_error_set(err, GW_ECANTCREAT, "%s: %s", path, strerror(e));
    free(refused);
    return e ? GW_ECANTCREAT : GW_OK;
}

int gw_mkdir_p(const char *path)
{
    char *tmp = gw_xstrdup(path);
    int rc = 0;
    for (char *p = tmp + (tmp[0] != '\0'); !rc && *p; p++) {   /* past a leading '/' */
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
                rc = errno;
            *p = '/';
        }
    }
    if (!rc && mkdir(tmp, 0700) != 0 && errno != EEXIST)
        rc = errno;
    free(tmp);
    return rc;
}

/* Refuses the folder open as fd (shown as shown) unless it is this user's and nobody else may
 * write in it. */
static int private_dir_check(int fd, const char *shown, gw_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return gw_error_set(err, GW_ECANTCREAT, "%s: %s", shown, strerror(errno));
    if (st.st_uid != geteuid())
        return gw_error_set(err, GW_ECANTCREAT, "%s: belongs to another user (uid %lu), who could "
                            "read and replace what gpuwise keeps there: not used (remove it)",
                            shown, (unsigned long)st.st_uid);
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return gw_error_set(err, GW_ECANTCREAT, "%s: other users may write in it (mode %04o): not "
                            "used (chmod 700 it)", shown, (unsigned)(st.st_mode & 07777));
    return GW_OK;
}

/* Opens name in the folder at, made 0700 if missing, never through a link; shown is its path. */
static int private_subdir(int at, const char *name, const char *shown, int *fd, gw_error *err)
{
    *fd = -1;
    if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/'))
        return gw_error_set(err, GW_ECANTCREAT, "%s: not a folder name", shown);
    if (mkdirat(at, name, 0700) != 0 && errno != EEXIST)
        return gw_error_set(err, GW_ECANTCREAT, "%s: %s", shown, strerror(errno));
    *fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (*fd < 0)
        return gw_error_set(err, GW_ECANTCREAT, "%s: %s", shown, errno == ELOOP || errno ==
                            ENOTDIR ? "not a folder (a symbolic link is not followed here)" :
                            strerror(errno));
    return private_dir_check(*fd, shown, err);
}

int gw_private_dir_open(const char *root, const char *const *sub, size_t n_sub, int *fd,
                        gw_error *err)
{
    char *dir = NULL;
    int at = -1;
    *fd = -1;
    int rc = gw_path_resolve_safe(root, &dir, err);
    int e = rc == GW_OK ? gw_mkdir_p(dir) : 0;
    if (e)
        rc = gw_error_set(err, GW_ECANTCREAT, "%s: %s", root, strerror(e));
    if (rc == GW_OK && (at = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        rc = gw_error_set(err, GW_ECANTCREAT, "%s: %s", root, strerror(errno));
    if (rc == GW_OK)
        rc = private_dir_check(at, root, err);
    gw_buf shown = GW_BUF_INIT;
    buf_puts(&shown, root);
    for (size_t i = 0; rc == GW_OK && i < n_sub; i++) {
        int next;
        buf_printf(&shown, "/%s", sub[i]);
        rc = private_subdir(at, sub[i], buf_cstr(&shown), &next, err);
        close(at);
        at = next;
    }
    buf_free(&shown);
    free(dir);
    if (rc != GW_OK && at >= 0)
        close(at);
    else
        *fd = at;
    return rc;
}

int gw_random_name(char *out, size_t n)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz234567";   /* 32: 5 bits each */
    unsigned char bytes[64];
    if (n == 0 || n - 1 > sizeof bytes)
        return EINVAL;
    ssize_t got;
    while ((got = getrandom(bytes, n - 1, 0)) < 0 && errno == EINTR) {
    }
    if (got != (ssize_t)(n - 1))
        return got < 0 ? errno : EIO;
    for (size_t i = 0; i + 1 < n; i++)
        out[i] = letters[bytes[i] & 31];
    out[n - 1] = '\0';
    return 0;
}

/* ---- writing output ----------------------------------------------------------------------- */

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

/* Creates a new file named prefix followed by random letters in folder dirfd: O_EXCL and
 * O_NOFOLLOW, so nothing that exists (a link planted there included) is opened; mode less the
 * umask.  Returns the descriptor with *name set (caller frees), or -1 with errno set. */
static int create_unique(int dirfd, const char *prefix, mode_t mode, char **name)
{
    size_t plen = strlen(prefix);
    *name = gw_xmalloc(plen + 13);
    for (int tries = 0; tries < 16; tries++) {
        memcpy(*name, prefix, plen);
        int e = gw_random_name(*name + plen, 13);
        if (e) {
            errno = e;
            break;
        }
        int fd = openat(dirfd, *name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(*name);
    *name = NULL;
    errno = e;
    return -1;
}

/* What a write puts in the file: data whole, or what fill writes in pieces. */
typedef struct content {
    const char *data;
    size_t len;
    gw_write_fn fill;
    void *arg;
} content;

/* Writes data whole to fd.  Returns 0 or an errno value. */
static int write_all(int fd, const char *data, size_t len)
{
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno != EINTR)
            return errno;
        if (w > 0)
            off += (size_t)w;
    }
    return 0;
}

/* Writes c to fd: its data, or what its fill writes through a stdio stream on a copy of fd.
 * Returns 0 or an errno value. */
static int content_write(int fd, const content *c)
{
    if (!c->fill)
        return write_all(fd, c->data, c->len);
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

/* Writes c into a new temporary file beside target, gives it the mode and owner of keep (when
 * set and this process may; otherwise the new file's mode 0666 less the umask stands), and
 * renames it over target. */
static int replace_file(const char *target, const content *c, const struct stat *keep)
{
    char *prefix = gw_xmalloc(strlen(target) + 5), *tmp;
    sprintf(prefix, "%s.tmp", target);
    int fd = create_unique(AT_FDCWD, prefix, keep ? 0600 : 0666, &tmp);
    int rc = fd < 0 ? errno : 0;
    free(prefix);
    if (fd < 0)
        return rc;
    rc = content_write(fd, c);
    /* The owner first (changing it clears set-user-ID bits that fchmod puts back), where this
     * process can: an ordinary user cannot give a file away, but may keep its group. */
    if (!rc && keep && (keep->st_uid != geteuid() || keep->st_gid != getegid()) &&
        fchown(fd, keep->st_uid, keep->st_gid) != 0 && fchown(fd, (uid_t)-1, keep->st_gid) != 0) {
        /* the file becomes this user's, as any new file would */
    }
    if (!rc && keep && fchmod(fd, keep->st_mode & 07777) != 0)
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

/* gw_write_file_atomic, also saying what a refused non-regular target is (*special), or which
 * link was refused (*refused, caller frees). */
static int write_atomic(const char *path, const content *c, const char **special,
                        char **refused)
{
    char *target = NULL;
    *special = NULL;
    int rc = gw_path_resolve(path, &target, refused);
    if (rc)
        return rc;
    struct stat st;
    if (lstat(target, &st) != 0) {
        rc = errno == ENOENT ? replace_file(target, c, NULL) : errno;
    } else if (S_ISDIR(st.st_mode)) {
        rc = EISDIR;
    } else if (!S_ISREG(st.st_mode)) {
        *special = special_kind(st.st_mode);
        rc = ENOTSUP;   /* renaming over it would destroy it; writing into it is not atomic */
    } else {
        rc = replace_file(target, c, &st);
    }
    free(target);
    return rc;
}

int gw_write_file_atomic(const char *path, const char *data, size_t len)
{
    const char *special;
    char *refused = NULL;
    content c = {data, len, NULL, NULL};
    int rc = write_atomic(path, &c, &special, &refused);
    free(refused);
    return rc;
}

int gw_write_file_new_at(int dirfd, const char *name, const char *data, size_t len,
                         mode_t mode)
{
    gw_buf prefix = GW_BUF_INIT;
    char *tmp;
    buf_printf(&prefix, ".%s.tmp", name);
    int fd = create_unique(dirfd, buf_cstr(&prefix), mode, &tmp);
    int rc = fd < 0 ? errno : 0;
    buf_free(&prefix);
    if (fd < 0)
        return rc;
    rc = write_all(fd, data, len);
    if (close(fd) != 0 && !rc)
        rc = errno;
    /* link, unlike rename, never replaces: a name another process made first stands */
    if (!rc && linkat(dirfd, tmp, dirfd, name, 0) != 0)
        rc = errno;
    unlinkat(dirfd, tmp, 0);
    free(tmp);
    return rc;
}

int gw_write_file_new(const char *path, const char *data, size_t len, mode_t mode)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return gw_write_file_new_at(AT_FDCWD, path, data, len, mode);
    char *dir = slash == path ? gw_xstrdup("/") : gw_xstrndup(path, (size_t)(slash - path));
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = dirfd < 0 ? errno : 0;
    free(dir);
    if (dirfd < 0)
        return rc;
    rc = gw_write_file_new_at(dirfd, slash + 1, data, len, mode);
    close(dirfd);
    return rc;
}

static int write_output(const char *path, const content *c, gw_error *err)
{
    const char *special;
    char *refused = NULL;
    int e = write_atomic(path, c, &special, &refused);
    if (refused) {
        int rc = link_refused(err, path, refused);
        free(refused);
        return rc;
    }
    if (!e)
        return GW_OK;
    if (special)
        return gw_error_set(err, GW_ECANTCREAT, "%s: is %s, not a regular file: left untouched "
                            "(write to a file, or use -o - and redirect standard output)", path,
                            special);
    if (e == EISDIR)
        return gw_error_set(err, GW_ECANTCREAT, "%s: is a folder (end it with '/' to write into "
                            "it)", path);
    return gw_write_failed(err, path, e);
}

int gw_write_failed(gw_error *err, const char *path, int e)
{
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

uint64_t gw_fnv1a64(const void *p, size_t n)
{
    const unsigned char *c = p;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 0x100000001b3ULL;
    return h;
}
