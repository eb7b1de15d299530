/* buf.h — a growable byte buffer, always NUL-terminated.  Allocation failure aborts: the
 * program cannot do anything useful without memory, and every caller stays simple. */
#ifndef GW_BUF_H
#define GW_BUF_H

#include <stddef.h>
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

typedef struct gw_buf {
    char *data;   /* NUL-terminated; NULL until the first append */
    size_t len;
    size_t cap;   /* GW_BUF_DISCARD's: SIZE_MAX with no data */
} gw_buf;

#define GW_BUF_INIT {NULL, 0, 0}
/* A buffer that keeps nothing, for words nobody reads: appends and printfs return at once and
 * it stays empty, holding no memory. */
#define GW_BUF_DISCARD {NULL, 0, SIZE_MAX}

void buf_append(gw_buf *b, const char *s, size_t n);
/* The 64-bit FNV-1a hash of n bytes at p: a hash table's, and what names a cut plugin file
 * in a source id (records_sources.c), so it stays this function. */
uint64_t gw_fnv1a64(const void *p, size_t n);
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
/* Replaces the message-and-abort of a failed allocation with fn (NULL: back to it), which must
 * not return: a confined plugin worker, which can neither write a message nor raise SIGABRT,
 * exits with a status its parent reports as out of memory. */
void gw_on_out_of_memory(void (*fn)(size_t n));

/* ---- reading input: every read has a limit ------------------------------------------------
 * The reader is given its limit (limits.h holds the limit of each kind of input and reads one
 * within it) and enforces it while reading, so /dev/zero, a FIFO or a huge file is refused at
 * the limit, never read to the end; a path is opened without waiting for a writer (a FIFO
 * nobody writes reads as empty), and SIGINT or SIGTERM stops a read that waits. */

/* Reads the file at path ("-": standard input) whole, within max bytes (caller frees *out, which
 * is NUL-terminated; *len may be NULL); returns 0, or an errno value: EFBIG past max, EISDIR for
 * a folder, EINTR when SIGINT/SIGTERM stopped it. */
int gw_read_file_max(const char *path, size_t max, char **out, size_t *len);

/* The limit of gw_read_file: 4 GiB. */
#define GW_READ_FILE_MAX ((size_t)4096 << 20)

/* gw_read_file_max within GW_READ_FILE_MAX: for gpuwise's own files (its cache of downloads, a
 * test's fixtures), never for a file a person names (that is gw_read_input's, limits.h). */
int gw_read_file(const char *path, char **out, size_t *len);

/* ---- links and folders another user may have planted --------------------------------------
 * gpuwise resolves symbolic links itself, so it applies the rule the kernel's
 * fs.protected_symlinks applies (whether or not the kernel does): a link in a sticky folder
 * anyone may write (/tmp) that belongs neither to this process's effective user nor to the
 * folder's owner is never followed, wherever it stands in a path: another user may have planted
 * it there, pointing at a file of ours. */

/* Resolves each symbolic link in path, component by component (at most 40), refusing a link that
 * rule refuses.  Returns 0 with *resolved (caller frees): path with no link left, as given where
 * it met none (components from the first one missing on are kept as written); EACCES with
 * *refused (caller frees) naming the link; or ELOOP. */
int gw_path_resolve(const char *path, char **resolved, char **refused);

/* gw_path_resolve with errors as values: GW_ECANTCREAT naming path and the link refused. */
int gw_path_resolve_safe(const char *path, char **resolved, gw_error *err);

/* Makes path and its missing parents, each new folder 0700 (what the XDG base directories ask for
 * a user's data and cache).  Returns 0 or an errno value. */
int gw_mkdir_p(const char *path);

/* Opens (*fd, caller closes) the folder root/sub[0]/.../sub[n_sub-1], making what is missing with
 * mode 0700, for files only this user may see and change (the prices cache): root is resolved by
 * gw_path_resolve_safe, no link is followed below it, and root and each folder below must belong
 * to this user and be writable by no one else.  GW_ECANTCREAT names the folder refused and why. */
int gw_private_dir_open(const char *root, const char *const *sub, size_t n_sub, int *fd,
                        gw_error *err);

/* n - 1 random letters and digits from getrandom() into out, NUL-terminated: a name nobody can
 * guess in advance.  Returns 0 or an errno value. */
int gw_random_name(char *out, size_t n);

/* ---- writing output ----------------------------------------------------------------------- */

/* Writes data to path atomically: a temporary file beside the file written, then rename, so a
 * reader (or a run stopped half-way) sees the old file or the new one, never part of one.  The
 * target's rules (-o FILE, and chart files beside it):
 *   - a new file gets mode 0666 less the umask; an existing regular file keeps its mode, and its
 *     owner and group where this process may set them;
 *   - a symbolic link is followed (the file it points to is replaced, the link stays), except
 *     one gw_path_resolve refuses: EACCES, nothing written;
 *   - a folder, a device, a FIFO or a socket is refused and left untouched (EISDIR, ENOTSUP).
 * Not fsynced: what gpuwise writes this way (documents, charts, exports) is made again by
 * running the command again, and waiting for the disk cost more than the rest of a report; the
 * KB keeps SQLite's own durability.  Returns 0, or an errno value (the temporary file is removed
 * on failure). */
int gw_write_file_atomic(const char *path, const char *data, size_t len);

/* Creates the file name in folder dirfd (AT_FDCWD: the current one) with data and mode (less the
 * umask), never replacing anything: data goes to a hidden temporary file beside it (".NAME.tmp"
 * and random letters) that is then linked to name, so a reader sees the whole file or none, and
 * a file (or link) some other process made there first stands.  Returns 0, EEXIST when name
 * exists (left as it is; nothing written), or an errno value. */
int gw_write_file_new_at(int dirfd, const char *name, const char *data, size_t len,
                         mode_t mode);

/* gw_write_file_new_at for path: its folder as path names it, its last component never
 * followed. */
int gw_write_file_new(const char *path, const char *data, size_t len, mode_t mode);

/* gw_write_file_atomic for a file the user named (-o): errors as values naming the file and what
 * to do — GW_ECANTCREAT (a folder without its trailing '/', a device, FIFO or socket, a missing
 * folder, no permission, another user's link in a sticky folder) or GW_EIO (disk full, I/O
 * error). */
int gw_write_output(const char *path, const char *data, size_t len, gw_error *err);

/* gw_write_output of what fill writes to f (the temporary file) in pieces, for output too large
 * to hold whole (kb export); the same rules.  fill returns 0 or an errno value; on failure the
 * target is left as it was, and a caller whose fill failed for its own reason reports that. */
typedef int (*gw_write_fn)(FILE *f, void *arg);
int gw_write_output_with(const char *path, gw_write_fn fill, void *arg, gw_error *err);

/* A write of path that failed with errno value e as an error: GW_EIO for a full disk, a quota
 * or an I/O error, GW_ECANTCREAT otherwise; returns the code. */
int gw_write_failed(gw_error *err, const char *path, int e);

/* The file -o PATH means: PATH itself, or, when PATH ends with '/', default_name inside that
 * folder ("out/" -> "out/justification.html").  Caller frees. */
char *gw_output_path(const char *path, const char *default_name);

/* 1 when -o PATH names a folder to write into (it ends with '/'). */
int gw_output_is_folder(const char *path);

/* One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote or a line
 * break, starts or ends with a space (which readers trim) or starts with '#' (a comment to some
 * readers); as it is otherwise. */
void buf_put_csv_field(gw_buf *out, const char *s);

#endif
