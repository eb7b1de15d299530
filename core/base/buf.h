/* buf.h — a growable byte buffer, always NUL-terminated.  Allocation failure aborts: the
 * program cannot do anything useful without memory, and every caller stays simple. */
#ifndef GW_BUF_H
#define GW_BUF_H

#include <stddef.h>

#include "error.h"

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

/* ---- reading input: every read has a limit ------------------------------------------------
 * Each kind of input gpuwise reads has a limit suited to it, in one table (buf.c, documented in
 * the manual's LIMITS section), each with the environment variable that raises it.  The limit is
 * enforced while reading, so /dev/zero, a FIFO or a huge file is refused at the limit, never read
 * to the end; a path is opened without waiting for a writer (a FIFO nobody writes reads as
 * empty), and SIGINT or SIGTERM stops a read that waits. */
typedef enum gw_input {
    GW_INPUT_WORKLOAD,      /* a workload file */
    GW_INPUT_TEMPLATE,      /* a template or partial */
    GW_INPUT_DATA,          /* render's DATA.json */
    GW_INPUT_PLUGIN,        /* a plugin's or plugin test's source */
    GW_INPUT_PLUGIN_INPUT,  /* a file handed to a plugin (--input) */
    GW_INPUT_IMPORT,        /* a file to import into the KB */
    GW_INPUT_DUMP,          /* an nvidia-smi dump, or what nvidia-smi prints */
    GW_INPUT_KB,            /* a KB file copied whole (the shipped KB, on the first write) */
    GW_INPUT_N
} gw_input;

typedef struct gw_input_limit {
    const char *what;       /* "a workload file", for messages and the manual */
    const char *env;        /* "GPUWISE_MAX_WORKLOAD_MB": the limit in MiB, to raise it */
    unsigned long mib;      /* the default limit in MiB */
} gw_input_limit;

/* The table, indexed by gw_input. */
extern const gw_input_limit gw_input_limits[GW_INPUT_N];
/* The largest value the variables take (MiB): 1 TiB. */
#define GW_INPUT_MAX_MIB 1048576ul

/* The limit of kind in bytes: its variable when set, else the default.  GW_OK, or GW_EUSAGE when
 * the variable is not a whole number of MiB from 1 to GW_INPUT_MAX_MIB. */
int gw_input_max(gw_input kind, size_t *bytes, gw_error *err);

/* Reads the file at path ("-": standard input) whole, within the limit of kind (caller frees
 * *out, which is NUL-terminated; *len may be NULL).  GW_OK; GW_ENOINPUT when it cannot be opened or read or is a
 * folder ("PATH: why"); GW_EDATA when it holds more than the limit ("PATH: too large for a
 * workload file: more than 1 MiB (GPUWISE_MAX_WORKLOAD_MB raises the limit)"); GW_EUSAGE as
 * gw_input_max.  A read stopped by SIGINT/SIGTERM is GW_ENOINPUT with the signal pending. */
int gw_read_input(const char *path, gw_input kind, char **out, size_t *len, gw_error *err);

/* The same reader with the limit in bytes ("-": standard input); returns 0, or an errno value:
 * EFBIG past max, EISDIR for a folder, EINTR when SIGINT/SIGTERM stopped it. */
int gw_read_file_max(const char *path, size_t max, char **out, size_t *len);

/* gw_read_file_max with the GW_INPUT_KB limit: for gpuwise's own files (the shipped KB). */
int gw_read_file(const char *path, char **out, size_t *len);

/* ---- writing output ----------------------------------------------------------------------- */

/* Writes data to path atomically: a temporary file beside the file written, then rename, so a
 * reader (or a run stopped half-way) sees the old file or the new one, never part of one.  The
 * target's rules (-o FILE, and chart files beside it):
 *   - a new file is created 0644; an existing regular file keeps its mode, and its owner and
 *     group where this process may set them;
 *   - a symbolic link is followed: the file it points to is replaced, the link stays;
 *   - a folder, a device, a FIFO or a socket is refused and left untouched (EISDIR, ENOTSUP).
 * Not fsynced: what gpuwise writes this way (documents, charts, exports) is made again by
 * running the command again, and waiting for the disk cost more than the rest of a report; the
 * KB keeps SQLite's own durability.  Returns 0, or an errno value (the temporary file is removed
 * on failure). */
int gw_write_file_atomic(const char *path, const char *data, size_t len);

/* gw_write_file_atomic for a file the user named (-o): errors as values naming the file and what
 * to do — GW_ECANTCREAT (a folder without its trailing '/', a device, FIFO or socket, a missing
 * folder, no permission) or GW_EIO (disk full, I/O error). */
int gw_write_output(const char *path, const char *data, size_t len, gw_error *err);

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
