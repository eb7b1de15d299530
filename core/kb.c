/* kb.c — the knowledge base: opening and migrating the SQLite file, validated writes, reads,
 * name resolution, the filter language, FTS5 search, and the CSV text form (import/export).
 * The only file that speaks SQL; user text only ever reaches SQLite as a bound parameter. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <csv.h>
#include <sqlite3.h>

#include "check.h"
#include "kb.h"
#include "kb_schema.h"
#include "signals.h"
#include "units.h"

#define KB_APPLICATION_ID 0x47505557   /* "GPUW" */
#define KB_DEFAULT_BUSY_MS 5000
#define KB_STMT_CACHE 48

typedef struct gpu_names gpu_names;

struct kb {
    sqlite3 *db;
    char *path;
    int writable;
    int version;
    gpu_names *names;   /* name-resolution cache; NULL until needed, dropped on every write */
    size_t n_names;
    /* Statements an import runs for every row, and the reads a decision repeats (one per
     * citation), kept prepared (prepare_cached). */
    char *cached_sql[KB_STMT_CACHE];
    sqlite3_stmt *cached[KB_STMT_CACHE];
    size_t n_cached;
};

/* Open connections, for kb_interrupt_all (called from a signal handler: it only reads this
 * array, and kb_close empties a slot before closing its connection). */
#define KB_MAX_OPEN 8
static sqlite3 *volatile open_dbs[KB_MAX_OPEN];

static void open_dbs_set(sqlite3 *db, sqlite3 *to)
{
    for (int i = 0; i < KB_MAX_OPEN; i++)
        if (open_dbs[i] == db) {
            open_dbs[i] = to;
            return;
        }
}

void kb_interrupt_all(void)
{
    for (int i = 0; i < KB_MAX_OPEN; i++) {
        sqlite3 *db = open_dbs[i];
        if (db)
            sqlite3_interrupt(db);
    }
}

/* ---- small helpers ---------------------------------------------------------------------- */

static int db_fail(kb *k, gw_error *err, int rc, const char *what)
{
    if (rc == SQLITE_INTERRUPT || gw_signal_pending())
        return gw_error_set(err, gw_signal_exit_code() ? gw_signal_exit_code() : GW_EINTR_INT,
                            "%s: interrupted (%s); nothing was written", k->path,
                            gw_signal_name());
    if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
        return gw_error_set(err, GW_EBUSY, "knowledge base busy: another program is writing %s",
                            k->path);
    if (rc == SQLITE_FULL || rc == SQLITE_IOERR) {
        int sys = sqlite3_system_errno(k->db);   /* EFBIG, ENOSPC, EIO: say which */
        return gw_error_set(err, GW_EIO, "%s: %s: %s%s%s%s; nothing was written", k->path, what,
                            sqlite3_errmsg(k->db), sys ? " (" : "", sys ? strerror(sys) : "",
                            sys ? ")" : "");
    }
    if (rc == SQLITE_READONLY)
        return gw_error_set(err, GW_ECANTCREAT, "%s: cannot write the knowledge base: %s",
                            k->path, sqlite3_errmsg(k->db));
    if (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)
        return gw_error_set(err, GW_EDATA, "%s: damaged knowledge base: %s", k->path,
                            sqlite3_errmsg(k->db));
    return gw_error_set(err, GW_ESOFTWARE, "%s: %s: %s", k->path, what, sqlite3_errmsg(k->db));
}

static int prepare(kb *k, const char *sql, sqlite3_stmt **st, gw_error *err)
{
    int rc = sqlite3_prepare_v2(k->db, sql, -1, st, NULL);
    if (rc != SQLITE_OK) {
        *st = NULL;
        return db_fail(k, err, rc, "query");
    }
    return GW_OK;
}

/* Compiling an INSERT (with the full-text triggers it carries) costs more than running it, so
 * the statements every imported row runs are prepared once per connection, keyed by their SQL.
 * Give them back with stmt_done (which resets a cached one and finalizes any other). */
static int prepare_cached(kb *k, const char *sql, sqlite3_stmt **st, gw_error *err)
{
    for (size_t i = 0; i < k->n_cached; i++)
        if (strcmp(k->cached_sql[i], sql) == 0) {
            *st = k->cached[i];
            sqlite3_clear_bindings(*st);
            return GW_OK;
        }
    int rc = prepare(k, sql, st, err);
    if (rc == GW_OK && k->n_cached < KB_STMT_CACHE) {
        k->cached_sql[k->n_cached] = gw_xstrdup(sql);
        k->cached[k->n_cached++] = *st;
    }
    return rc;
}

static void stmt_done(kb *k, sqlite3_stmt *st)
{
    for (size_t i = 0; i < k->n_cached; i++)
        if (k->cached[i] == st) {
            sqlite3_reset(st);
            return;
        }
    sqlite3_finalize(st);
}

static char *col_str(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? gw_xstrdup((const char *)s) : NULL;
}

static double col_num(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void bind_str(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static int streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static int in_set(const char *s, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(s, *set) == 0)
            return 1;
    return 0;
}

static void join_set(char *out, size_t outsz, const char *const *set)
{
    size_t used = 0;
    out[0] = '\0';
    for (; *set && used < outsz; set++) {
        int n = snprintf(out + used, outsz - used, "%s%s", used ? ", " : "", *set);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* Shortest text that reads back as the same double; integers without a decimal point. */
static void format_number(char *out, size_t outsz, double d)
{
    if (d == floor(d) && fabs(d) < 1e15) {
        snprintf(out, outsz, "%.0f", d);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, outsz, "%.*g", prec, d);
        if (strtod(out, NULL) == d)
            return;
    }
}

/* ---- opening, schema, migrations --------------------------------------------------------- */

/* The schema text is a series of "-- version N" sections; returns the start of section v (or
 * NULL) and its length. */
static const char *schema_section(int v, size_t *len)
{
    const char *p = kb_schema_sql, *start = NULL;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t linelen = eol ? (size_t)(eol - p) : strlen(p);
        int n;
        char tail;
        if (strncmp(p, "-- version ", 11) == 0 && sscanf(p + 11, "%d%c", &n, &tail) == 2 &&
            tail == '\n') {
            if (start) {
                *len = (size_t)(p - start);
                return start;
            }
            if (n == v)
                start = p;
        }
        p += linelen + (eol ? 1 : 0);
    }
    if (start)
        *len = (size_t)(p - start);
    return start;
}

static int schema_latest(void)
{
    size_t len;
    int v = 0;
    while (schema_section(v + 1, &len))
        v++;
    return v;
}

static int busy_timeout_ms(void)
{
    const char *env = getenv("GPUWISE_BUSY_TIMEOUT_MS");
    if (env && *env) {
        char *end;
        long ms = strtol(env, &end, 10);
        if (*end == '\0' && ms >= 0 && ms <= INT_MAX)
            return (int)ms;
    }
    return KB_DEFAULT_BUSY_MS;
}

static int pragma_int(sqlite3 *db, const char *sql, int *out)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* A read-only connection to a WAL file in a folder we cannot write (an installed KB) cannot
 * create the WAL index beside it: such a file never changes, so it is opened immutable. */
static int wal_mode_file(const char *path)
{
    unsigned char head[20];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return n == sizeof head && head[18] == 2;   /* file format read version 2: WAL */
}

static char *readonly_uri(const char *path)
{
    gw_buf b = GW_BUF_INIT;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    int immutable = wal_mode_file(path) && access(dir, W_OK) != 0;
    buf_puts(&b, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) || strchr("/-._~", *p))
            buf_putc(&b, (char)*p);
        else
            buf_printf(&b, "%%%02X", *p);
    }
    buf_puts(&b, immutable ? "?mode=ro&immutable=1" : "?mode=ro");
    return buf_detach(&b);
}

/* gpuwise uses each connection from one thread, so no connection takes SQLite's mutex
 * (SQLITE_OPEN_NOMUTEX), and SQLite keeps no memory statistics, which would take a global
 * one on every allocation.  Set before SQLite's first use; later calls change nothing. */
static void sqlite_configure(void)
{
    static int done;
    if (!done) {
        done = 1;
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    }
}

static int open_readonly(const char *path, sqlite3 **db)
{
    char *uri = readonly_uri(path);
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                             NULL);
    free(uri);
    return rc;
}

static int looks_like_sqlite(const char *path, off_t size)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    if (size < 100)
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return n == sizeof head && memcmp(head, magic, sizeof magic) == 0;
}

static int migrate(kb *k, int latest, gw_error *err)
{
    int rc = sqlite3_exec(k->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return db_fail(k, err, rc, "starting the schema upgrade");
    int from = 0;
    rc = pragma_int(k->db, "PRAGMA user_version", &from);   /* another process may have won */
    for (int v = from + 1; rc == SQLITE_OK && v <= latest; v++) {
        size_t len;
        const char *sql = schema_section(v, &len);
        char *text = gw_xstrndup(sql, len);
        rc = sqlite3_exec(k->db, text, NULL, NULL, NULL);
        free(text);
    }
    if (rc == SQLITE_OK) {
        char pragma[96];
        snprintf(pragma, sizeof pragma, "PRAGMA application_id = %d; PRAGMA user_version = %d",
                 KB_APPLICATION_ID, latest);
        rc = sqlite3_exec(k->db, pragma, NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        int code = db_fail(k, err, rc, "upgrading the schema");
        sqlite3_exec(k->db, "ROLLBACK", NULL, NULL, NULL);
        return code;
    }
    k->version = latest;
    return GW_OK;
}

/* Switching to WAL needs the file to itself, and SQLite does not wait for that through the
 * busy handler, so wait here, as long as the busy timeout. */
static int set_wal(sqlite3 *db)
{
    int waited = 0, limit = busy_timeout_ms(), rc;
    struct timespec step = {0, 20 * 1000000L};
    while ((rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL)) == SQLITE_BUSY &&
           waited < limit) {
        nanosleep(&step, NULL);
        waited += 20;
    }
    return rc;
}

int kb_open(const char *path, int flags, kb **out, gw_error *err)
{
    struct stat st;
    int create = 0, version = 0, rc;
    int latest = schema_latest();
    sqlite3 *db = NULL;

    *out = NULL;
    sqlite_configure();
    if (!path || !*path)
        return gw_error_set(err, GW_EUSAGE, "no knowledge base file given");
    if (stat(path, &st) != 0) {
        if (errno != ENOENT || flags != KB_CREATE)
            return gw_error_set(err, GW_ENOINPUT, "%s: no such knowledge base (%s)", path,
                                strerror(errno));
        create = 1;
    } else if (S_ISDIR(st.st_mode)) {
        return gw_error_set(err, GW_EDATA, "%s: is a folder, not a knowledge base", path);
    } else if (st.st_size == 0) {
        if (flags != KB_CREATE)
            return gw_error_set(err, GW_EDATA, "%s: empty file, not a gpuwise knowledge base",
                                path);
        create = 1;
    } else if (!looks_like_sqlite(path, st.st_size)) {
        return gw_error_set(err, GW_EDATA,
                            "%s: not a gpuwise knowledge base (not an SQLite database); "
                            "left unchanged", path);
    }

    if (!create) {
        /* Look before writing anything: a foreign file is refused untouched. */
        int app_id = 0, objects = 0;
        rc = open_readonly(path, &db);
        if (rc == SQLITE_OK)   /* a writer checkpointing as it closes holds the file briefly */
            rc = sqlite3_busy_timeout(db, busy_timeout_ms());
        /* A reader keeps one read transaction until it closes: every query sees the same KB,
         * and SQLite looks at the file and the WAL once rather than at every statement (four
         * system calls each). */
        if (rc == SQLITE_OK)
            rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            rc = pragma_int(db, "PRAGMA application_id", &app_id);
        if (rc == SQLITE_OK)
            rc = pragma_int(db, "PRAGMA user_version", &version);
        if (rc == SQLITE_OK)
            rc = pragma_int(db, "SELECT count(*) FROM sqlite_master", &objects);
        if (rc != SQLITE_OK) {
            int busy = rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
            gw_error_set(err, busy ? GW_EBUSY : GW_EDATA, busy ?
                         "knowledge base busy: another program is writing %s" :
                         "%s: not a readable knowledge base: %s", path, sqlite3_errmsg(db));
            sqlite3_close(db);
            return err ? err->code : (busy ? GW_EBUSY : GW_EDATA);
        }
        if (app_id != KB_APPLICATION_ID) {
            sqlite3_close(db);
            if (app_id == 0 && objects == 0 && flags == KB_CREATE) {
                create = 1;
            } else {
                return gw_error_set(err, GW_EDATA,
                                    "%s: not a gpuwise knowledge base (an SQLite database of "
                                    "another program); left unchanged", path);
            }
        } else if (version > latest) {
            sqlite3_close(db);
            return gw_error_set(err, GW_EDATA,
                                "%s: knowledge base schema %d is newer than this gpuwise "
                                "understands (%d); update gpuwise", path, version, latest);
        } else if (flags == KB_READ) {
            if (version < latest) {
                sqlite3_close(db);
                return gw_error_set(err, GW_EDATA,
                                    "%s: knowledge base schema %d is older than this gpuwise's "
                                    "(%d); upgrade it with `gpuwise --kb %s kb upgrade`",
                                    path, version, latest, path);
            }
        } else {
            sqlite3_close(db);
            db = NULL;
        }
    }

    kb *k = gw_xcalloc(1, sizeof *k);
    k->path = gw_xstrdup(path);
    k->version = version;
    if (db) {
        k->db = db;
        sqlite3_busy_timeout(db, busy_timeout_ms());
        sqlite3_exec(db, "PRAGMA query_only = 1", NULL, NULL, NULL);
        open_dbs_set(NULL, db);
        *out = k;
        return GW_OK;
    }
    rc = sqlite3_open_v2(path, &k->db,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                             (create ? SQLITE_OPEN_CREATE : 0),
                         NULL);
    if (rc != SQLITE_OK) {
        int code = gw_error_set(err, rc == SQLITE_CANTOPEN ? GW_ECANTCREAT : GW_EDATA,
                                "%s: cannot open the knowledge base: %s", path,
                                k->db ? sqlite3_errmsg(k->db) : sqlite3_errstr(rc));
        kb_close(k);
        return code;
    }
    k->writable = 1;
    open_dbs_set(NULL, k->db);
    sqlite3_busy_timeout(k->db, busy_timeout_ms());
    rc = sqlite3_exec(k->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = set_wal(k->db);
    if (rc != SQLITE_OK) {
        int code = db_fail(k, err, rc, "opening");
        kb_close(k);
        return code;
    }
    if (create || version < latest) {
        int code = migrate(k, latest, err);
        if (code) {
            kb_close(k);
            return code;
        }
    }
    *out = k;
    return GW_OK;
}

static void names_drop(kb *k);

void kb_close(kb *k)
{
    if (!k)
        return;
    names_drop(k);
    for (size_t i = 0; i < k->n_cached; i++) {
        sqlite3_finalize(k->cached[i]);
        free(k->cached_sql[i]);
    }
    open_dbs_set(k->db, NULL);
    sqlite3_close_v2(k->db);
    free(k->path);
    free(k);
}

const char *kb_path(const kb *k)
{
    return k->path;
}

int kb_schema_version(const kb *k)
{
    return k->version;
}

int kb_schema_latest(void)
{
    return schema_latest();
}

int kb_begin(kb *k, gw_error *err)
{
    if (!k->writable)
        return gw_error_set(err, GW_ESOFTWARE, "%s: knowledge base opened read-only", k->path);
    int rc = sqlite3_exec(k->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return db_fail(k, err, rc, "starting a write");
    names_drop(k);
    return GW_OK;
}

int kb_commit(kb *k, gw_error *err)
{
    if (gw_signal_pending()) {   /* stopped before the end: keep the KB as it was */
        kb_rollback(k);
        return db_fail(k, err, SQLITE_INTERRUPT, "committing");
    }
    int rc = sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        int code = db_fail(k, err, rc, "committing");
        kb_rollback(k);
        return code;
    }
    return GW_OK;
}

void kb_rollback(kb *k)
{
    if (!sqlite3_get_autocommit(k->db))
        sqlite3_exec(k->db, "ROLLBACK", NULL, NULL, NULL);
    names_drop(k);
}

static int need_write(kb *k, gw_error *err)
{
    if (!k->writable || sqlite3_get_autocommit(k->db))
        return gw_error_set(err, GW_ESOFTWARE, "knowledge base write outside kb_begin/kb_commit");
    if (gw_signal_pending())
        return db_fail(k, err, SQLITE_INTERRUPT, "writing");
    return GW_OK;
}

/* ---- tables: one description drives validation, storage, reads, import and export -------- */

enum col_type { T_TEXT, T_NUM, T_FLAG };
enum col_flag {
    C_REQ = 1,        /* must be given */
    C_KEY = 2,        /* part of the row's identity (rows with a key are updated in place) */
    C_SLUG = 4,       /* lower-case id: a-z 0-9 . _ - */
    C_DATE = 8,       /* YYYY-MM or YYYY-MM-DD */
    C_CURRENCY = 16,  /* ISO 4217 */
    C_SOURCE = 32,    /* names a source row */
    C_GPU = 64,       /* names a gpu row */
    C_POS = 128,      /* a number > 0 (else >= 0) */
    C_ONE = 256       /* defaults to 1 when empty (counts) */
};

typedef struct kb_col {
    const char *name;
    int type, flags;
    const char *const *set;   /* allowed values, or NULL */
    ptrdiff_t off;            /* where the struct keeps it; -1 when it has no struct field */
} kb_col;

typedef struct kb_table {
    const char *file;     /* the CSV file name (and the export section) */
    const char *sql;      /* the SQL table */
    const char *what;     /* for messages: "sources" */
    const kb_col *cols;
    int ncols;
} kb_table;

static const char *const source_kinds[] = {"datasheet", "whitepaper", "article", "benchmark",
                                           "price-list", "dataset", "plugin", "user", NULL};
static const char *const sparsity_set[] = {"2:4", NULL};
static const char *const precision_set[] = {"fp32", "fp16", "amp", "bf16", "tf32", "fp8",
                                            "int8", "fp64", "int4", NULL};
static const char *const interconnect_set[] = {"pcie", "nvlink", "infiniband", "ethernet",
                                               NULL};
static const char *const price_kinds[] = {"new", "used", "cloud", NULL};
static const char *const price_units[] = {"card", "hour", NULL};
static const char *const claim_status[] = {"wrong", "disputed", NULL};

#define S(type, f) ((ptrdiff_t)offsetof(type, f))
static const kb_col source_cols[] = {
    {"id", T_TEXT, C_REQ | C_KEY | C_SLUG, NULL, S(kb_source, id)},
    {"title", T_TEXT, C_REQ, NULL, S(kb_source, title)},
    {"publisher", T_TEXT, 0, NULL, S(kb_source, publisher)},
    {"url", T_TEXT, 0, NULL, S(kb_source, url)},
    {"retrieved", T_TEXT, C_DATE, NULL, S(kb_source, retrieved)},
    {"kind", T_TEXT, 0, source_kinds, S(kb_source, kind)},
    {"note", T_TEXT, 0, NULL, S(kb_source, note)},
};
static const kb_col gpu_cols[] = {
    {"id", T_TEXT, C_REQ | C_KEY | C_SLUG, NULL, S(kb_gpu, id)},
    {"name", T_TEXT, C_REQ, NULL, S(kb_gpu, name)},
    {"vendor", T_TEXT, C_REQ, NULL, S(kb_gpu, vendor)},
    {"architecture", T_TEXT, 0, NULL, S(kb_gpu, architecture)},
    {"form_factor", T_TEXT, 0, NULL, S(kb_gpu, form_factor)},
    {"memory_gb", T_NUM, C_POS, NULL, S(kb_gpu, memory_gb)},
    {"memory_type", T_TEXT, 0, NULL, S(kb_gpu, memory_type)},
    {"memory_bandwidth_gbs", T_NUM, C_POS, NULL, S(kb_gpu, memory_bandwidth_gbs)},
    {"tdp_w", T_NUM, C_POS, NULL, S(kb_gpu, tdp_w)},
    {"fp32_tflops", T_NUM, 0, NULL, S(kb_gpu, fp32_tflops)},
    {"tf32_tflops", T_NUM, 0, NULL, S(kb_gpu, tf32_tflops)},
    {"fp16_tflops", T_NUM, 0, NULL, S(kb_gpu, fp16_tflops)},
    {"bf16_tflops", T_NUM, 0, NULL, S(kb_gpu, bf16_tflops)},
    {"fp8_tflops", T_NUM, 0, NULL, S(kb_gpu, fp8_tflops)},
    {"int8_tops", T_NUM, 0, NULL, S(kb_gpu, int8_tops)},
    {"sparsity", T_TEXT, 0, sparsity_set, S(kb_gpu, sparsity)},
    {"pcie_gen", T_NUM, 0, NULL, S(kb_gpu, pcie_gen)},
    {"pcie_lanes", T_NUM, 0, NULL, S(kb_gpu, pcie_lanes)},
    {"nvlink_gbs", T_NUM, 0, NULL, S(kb_gpu, nvlink_gbs)},
    {"mig_instances", T_NUM, 0, NULL, S(kb_gpu, mig_instances)},
    {"ecc", T_FLAG, 0, NULL, S(kb_gpu, ecc)},
    {"release_date", T_TEXT, C_DATE, NULL, S(kb_gpu, release_date)},
    {"launch_price_usd", T_NUM, 0, NULL, S(kb_gpu, launch_price_usd)},
    {"source", T_TEXT, C_REQ | C_SOURCE, NULL, S(kb_gpu, source)},
    {"note", T_TEXT, 0, NULL, S(kb_gpu, note)},
};
static const kb_col alias_cols[] = {
    {"gpu", T_TEXT, C_REQ | C_KEY | C_GPU, NULL, -1},
    {"alias", T_TEXT, C_REQ | C_KEY, NULL, -1},
};
static const kb_col rate_cols[] = {
    {"currency", T_TEXT, C_REQ | C_KEY | C_CURRENCY, NULL, S(kb_rate, currency)},
    {"per_usd", T_NUM, C_REQ | C_POS, NULL, S(kb_rate, per_usd)},
    {"as_of", T_TEXT, C_REQ | C_KEY | C_DATE, NULL, S(kb_rate, as_of)},
    {"source", T_TEXT, C_REQ | C_SOURCE, NULL, S(kb_rate, source)},
};
static const kb_col benchmark_cols[] = {
    {"gpu", T_TEXT, C_REQ | C_GPU, NULL, S(kb_benchmark, gpu)},
    {"gpu_count", T_NUM, C_POS | C_ONE, NULL, S(kb_benchmark, gpu_count)},
    {"workload", T_TEXT, C_REQ, NULL, S(kb_benchmark, workload)},
    {"metric", T_TEXT, C_REQ, NULL, S(kb_benchmark, metric)},
    {"value", T_NUM, C_REQ, NULL, S(kb_benchmark, value)},
    {"unit", T_TEXT, C_REQ, NULL, S(kb_benchmark, unit)},
    {"precision", T_TEXT, 0, precision_set, S(kb_benchmark, precision)},
    {"batch", T_NUM, C_POS, NULL, S(kb_benchmark, batch)},
    {"framework", T_TEXT, 0, NULL, S(kb_benchmark, framework)},
    {"interconnect", T_TEXT, 0, interconnect_set, S(kb_benchmark, interconnect)},
    {"power_w", T_NUM, C_POS, NULL, S(kb_benchmark, power_w)},
    {"source", T_TEXT, C_REQ | C_SOURCE, NULL, S(kb_benchmark, source)},
    {"note", T_TEXT, 0, NULL, S(kb_benchmark, note)},
};
static const kb_col price_cols[] = {
    {"gpu", T_TEXT, C_REQ | C_GPU, NULL, S(kb_price, gpu)},
    {"kind", T_TEXT, C_REQ, price_kinds, S(kb_price, kind)},
    {"amount", T_NUM, C_REQ, NULL, S(kb_price, amount)},
    {"currency", T_TEXT, C_REQ | C_CURRENCY, NULL, S(kb_price, currency)},
    {"unit", T_TEXT, C_REQ, price_units, S(kb_price, unit)},
    {"gpu_count", T_NUM, C_POS | C_ONE, NULL, S(kb_price, gpu_count)},
    {"region", T_TEXT, 0, NULL, S(kb_price, region)},
    {"provider", T_TEXT, 0, NULL, S(kb_price, provider)},
    {"instance", T_TEXT, 0, NULL, S(kb_price, instance)},
    {"spot", T_FLAG, 0, NULL, -1},   /* an int in kb_price: copied by hand */
    {"as_of", T_TEXT, C_REQ | C_DATE, NULL, S(kb_price, as_of)},
    {"source", T_TEXT, C_REQ | C_SOURCE, NULL, S(kb_price, source)},
    {"note", T_TEXT, 0, NULL, S(kb_price, note)},
};
static const kb_col claim_cols[] = {
    {"subject", T_TEXT, C_REQ, NULL, S(kb_claim, subject)},
    {"claim", T_TEXT, C_REQ, NULL, S(kb_claim, claim)},
    {"status", T_TEXT, C_REQ, claim_status, S(kb_claim, status)},
    {"correction", T_TEXT, 0, NULL, S(kb_claim, correction)},
    {"source", T_TEXT, C_REQ | C_SOURCE, NULL, S(kb_claim, source)},
    {"correction_source", T_TEXT, C_SOURCE, NULL, S(kb_claim, correction_source)},
};
#undef S

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))
enum { TB_SOURCE, TB_GPU, TB_ALIAS, TB_RATE, TB_BENCHMARK, TB_PRICE, TB_CLAIM, TB_COUNT };
/* Dependency order: what a row refers to comes first.  Import and export both use it. */
static const kb_table tables[TB_COUNT] = {
    {"sources.csv", "source", "sources", source_cols, NCOLS(source_cols)},
    {"gpus.csv", "gpu", "gpus", gpu_cols, NCOLS(gpu_cols)},
    {"aliases.csv", "gpu_alias", "aliases", alias_cols, NCOLS(alias_cols)},
    {"rates.csv", "rate", "rates", rate_cols, NCOLS(rate_cols)},
    {"benchmarks.csv", "benchmark", "benchmarks", benchmark_cols, NCOLS(benchmark_cols)},
    {"prices.csv", "price", "prices", price_cols, NCOLS(price_cols)},
    {"claims.csv", "claim", "claims", claim_cols, NCOLS(claim_cols)},
};
#define MAX_COLS 32

/* One row on its way in: text columns in s (NULL = empty), numbers and flags in d (NaN). */
typedef struct kb_val {
    const char *s;
    double d;
} kb_val;

static void vals_clear(kb_val *v, int n)
{
    for (int i = 0; i < n; i++) {
        v[i].s = NULL;
        v[i].d = NAN;
    }
}

static void vals_from_struct(const kb_table *t, const void *obj, kb_val *v)
{
    vals_clear(v, t->ncols);
    for (int i = 0; i < t->ncols; i++) {
        const kb_col *c = &t->cols[i];
        if (c->off < 0)
            continue;
        if (c->type == T_TEXT)
            v[i].s = *(char *const *)(const void *)((const char *)obj + c->off);
        else
            v[i].d = *(const double *)(const void *)((const char *)obj + c->off);
    }
}

/* Fills obj's fields from columns first.. of a row (columns in table order). */
static void struct_from_row(const kb_table *t, sqlite3_stmt *st, int first, void *obj)
{
    for (int i = 0; i < t->ncols; i++) {
        const kb_col *c = &t->cols[i];
        if (c->off < 0)
            continue;
        if (c->type == T_TEXT)
            *(char **)(void *)((char *)obj + c->off) = col_str(st, first + i);
        else
            *(double *)(void *)((char *)obj + c->off) = col_num(st, first + i);
    }
}

/* Frees what struct_from_row copied into obj. */
static void struct_free_strings(const kb_table *t, void *obj)
{
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].off >= 0 && t->cols[i].type == T_TEXT)
            free(*(char **)(void *)((char *)obj + t->cols[i].off));
}

/* ---- struct release: the table descriptions name every string a row struct owns ---------- */

void kb_source_free(kb_source *s)
{
    if (!s)
        return;
    struct_free_strings(&tables[TB_SOURCE], s);
    memset(s, 0, sizeof *s);
}

void kb_gpu_init(kb_gpu *g)
{
    memset(g, 0, sizeof *g);
    g->memory_gb = g->memory_bandwidth_gbs = g->tdp_w = g->fp32_tflops = g->tf32_tflops = NAN;
    g->fp16_tflops = g->bf16_tflops = g->fp8_tflops = g->int8_tops = g->pcie_gen = NAN;
    g->pcie_lanes = g->nvlink_gbs = g->mig_instances = g->ecc = g->launch_price_usd = NAN;
}

void kb_gpu_free(kb_gpu *g)
{
    if (!g)
        return;
    struct_free_strings(&tables[TB_GPU], g);
    kb_gpu_init(g);
}

void kb_benchmark_free(kb_benchmark *b)
{
    if (!b)
        return;
    struct_free_strings(&tables[TB_BENCHMARK], b);
    memset(b, 0, sizeof *b);
}

void kb_price_free(kb_price *p)
{
    if (!p)
        return;
    struct_free_strings(&tables[TB_PRICE], p);
    memset(p, 0, sizeof *p);
}

void kb_rate_free(kb_rate *r)
{
    if (!r)
        return;
    struct_free_strings(&tables[TB_RATE], r);
    memset(r, 0, sizeof *r);
}

void kb_claim_free(kb_claim *c)
{
    if (!c)
        return;
    struct_free_strings(&tables[TB_CLAIM], c);
    memset(c, 0, sizeof *c);
}

void kb_gpus_free(kb_gpu *gpus, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kb_gpu_free(&gpus[i]);
    free(gpus);
}

void kb_benchmarks_free(kb_benchmark *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kb_benchmark_free(&rows[i]);
    free(rows);
}

void kb_prices_free(kb_price *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kb_price_free(&rows[i]);
    free(rows);
}

void kb_sources_free(kb_source *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kb_source_free(&rows[i]);
    free(rows);
}

void kb_claims_free(kb_claim *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kb_claim_free(&rows[i]);
    free(rows);
}

void kb_hits_free(kb_hit *hits, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(hits[i].kind);
        free(hits[i].ref);
        free(hits[i].title);
        free(hits[i].snippet);
        free(hits[i].gpu);
        free(hits[i].source);
    }
    free(hits);
}


static void col_list(gw_buf *b, const kb_table *t, const char *prefix)
{
    for (int i = 0; i < t->ncols; i++) {
        if (i)
            buf_puts(b, ", ");
        buf_puts(b, prefix);
        buf_puts(b, t->cols[i].name);
    }
}

static int valid_slug(const char *s)
{
    if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || strchr("._-", *s)))
            return 0;
    return 1;
}

static int row_exists(kb *k, const char *sql, const char *id, int *found, gw_error *err)
{
    sqlite3_stmt *st;
    int rc = prepare_cached(k, sql, &st, err);
    if (rc)
        return rc;
    bind_str(st, 1, id);
    int step = sqlite3_step(st);
    *found = step == SQLITE_ROW;
    stmt_done(k, st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return db_fail(k, err, step, "reading");
    return GW_OK;
}

/* Checks one row against its table's rules; messages are "column: problem". */
static int validate_row(kb *k, const kb_table *t, kb_val *v, gw_error *err)
{
    char set[256];
    for (int i = 0; i < t->ncols; i++) {
        const kb_col *c = &t->cols[i];
        if (c->type == T_TEXT) {
            if (v[i].s && !*v[i].s)
                v[i].s = NULL;
            if (!v[i].s) {
                if (c->flags & C_REQ)
                    return gw_error_set(err, GW_EDATA, "%s: missing (required)", c->name);
                continue;
            }
            if (strlen(v[i].s) > 100000)
                return gw_error_set(err, GW_EDATA, "%s: longer than 100000 bytes", c->name);
            if ((c->flags & C_SLUG) && !valid_slug(v[i].s))
                return gw_error_set(err, GW_EDATA,
                                    "%s: '%.80s' is not an id (lower-case letters, digits, "
                                    "'.', '_' and '-')", c->name, v[i].s);
            if ((c->flags & C_DATE) && !gw_valid_date(v[i].s))
                return gw_error_set(err, GW_EDATA, "%s: '%.80s' is not a date (YYYY-MM or "
                                    "YYYY-MM-DD)", c->name, v[i].s);
            if ((c->flags & C_CURRENCY) && !units_is_currency(v[i].s))
                return gw_error_set(err, GW_EDATA, "%s: '%.80s' is not a currency code (three "
                                    "upper-case letters, e.g. USD)", c->name, v[i].s);
            if (c->set && !in_set(v[i].s, c->set)) {
                join_set(set, sizeof set, c->set);
                return gw_error_set(err, GW_EDATA, "%s: '%.80s' is not one of: %s", c->name,
                                    v[i].s, set);
            }
            if (c->flags & (C_SOURCE | C_GPU)) {
                int found = 0;
                int gpu = (c->flags & C_GPU) != 0;
                int rc = row_exists(k, gpu ? "SELECT 1 FROM gpu WHERE id = ?1"
                                           : "SELECT 1 FROM source WHERE id = ?1",
                                    v[i].s, &found, err);
                if (rc)
                    return rc;
                if (!found)
                    return gw_error_set(err, GW_EDATA, "%s: unknown %s '%.80s'%s", c->name,
                                        gpu ? "GPU" : "source", v[i].s,
                                        "");
            }
        } else {
            if (isnan(v[i].d)) {
                if (c->flags & C_ONE)
                    v[i].d = 1;
                else if (c->type == T_FLAG && !(c->flags & C_REQ) && t == &tables[TB_PRICE])
                    v[i].d = 0;   /* spot: not spot unless said */
                else if (c->flags & C_REQ)
                    return gw_error_set(err, GW_EDATA, "%s: missing (required)", c->name);
                continue;
            }
            if (!isfinite(v[i].d))
                return gw_error_set(err, GW_EDATA, "%s: not a finite number", c->name);
            if (c->type == T_FLAG && v[i].d != 0 && v[i].d != 1)
                return gw_error_set(err, GW_EDATA, "%s: must be 0 or 1", c->name);
            if (v[i].d < 0)
                return gw_error_set(err, GW_EDATA, "%s: must not be negative", c->name);
            if ((c->flags & C_POS) && v[i].d == 0)
                return gw_error_set(err, GW_EDATA, "%s: must be greater than 0", c->name);
        }
    }
    return GW_OK;
}

static void bind_vals(sqlite3_stmt *st, const kb_table *t, const kb_val *v)
{
    for (int i = 0; i < t->ncols; i++) {
        if (t->cols[i].type == T_TEXT)
            bind_str(st, i + 1, v[i].s);
        else if (isnan(v[i].d))
            sqlite3_bind_null(st, i + 1);
        else if (t->cols[i].type == T_FLAG)
            sqlite3_bind_int(st, i + 1, (int)v[i].d);
        else
            sqlite3_bind_double(st, i + 1, v[i].d);
    }
}

enum { STORED_UNCHANGED, STORED_ADDED, STORED_UPDATED };

/* Validates and stores one row.  Rows with a key replace the row with that key; rows without
 * one are added unless an identical row is already there (so re-importing is harmless). */
static int store_row(kb *k, const kb_table *t, kb_val *v, int *outcome, gw_error *err)
{
    int rc = need_write(k, err);
    if (rc || (rc = validate_row(k, t, v, err)) != GW_OK)
        return rc;
    if (t == &tables[TB_GPU] || t == &tables[TB_ALIAS])
        names_drop(k);   /* resolution must see the new names */

    gw_buf sql = GW_BUF_INIT;
    sqlite3_stmt *st = NULL;
    int has_key = 0, same = 0, exists = 0;

    /* Identical row already there? */
    buf_printf(&sql, "SELECT 1 FROM %s WHERE ", t->sql);
    for (int i = 0; i < t->ncols; i++) {
        buf_printf(&sql, "%s%s IS ?%d", i ? " AND " : "", t->cols[i].name, i + 1);
        has_key |= (t->cols[i].flags & C_KEY) != 0;
    }
    if ((rc = prepare_cached(k, buf_cstr(&sql), &st, err)) != GW_OK)
        goto done;
    bind_vals(st, t, v);
    same = sqlite3_step(st) == SQLITE_ROW;
    stmt_done(k, st);
    st = NULL;
    if (same) {
        *outcome = STORED_UNCHANGED;
        goto done;
    }
    if (has_key) {
        buf_reset(&sql);
        buf_printf(&sql, "SELECT 1 FROM %s WHERE ", t->sql);
        int first = 1;
        for (int i = 0; i < t->ncols; i++)
            if (t->cols[i].flags & C_KEY) {
                buf_printf(&sql, "%s%s = ?%d", first ? "" : " AND ", t->cols[i].name, i + 1);
                first = 0;
            }
        if ((rc = prepare_cached(k, buf_cstr(&sql), &st, err)) != GW_OK)
            goto done;
        bind_vals(st, t, v);
        exists = sqlite3_step(st) == SQLITE_ROW;
        stmt_done(k, st);
        st = NULL;
    }
    buf_reset(&sql);
    buf_printf(&sql, "INSERT INTO %s (", t->sql);
    col_list(&sql, t, "");
    buf_puts(&sql, ") VALUES (");
    for (int i = 0; i < t->ncols; i++)
        buf_printf(&sql, "%s?%d", i ? ", " : "", i + 1);
    buf_puts(&sql, ")");
    if (exists) {
        /* ON CONFLICT ... DO UPDATE keeps the rowid, so rows that refer to it stay valid. */
        int first = 1;
        buf_puts(&sql, " ON CONFLICT (");
        for (int i = 0; i < t->ncols; i++)
            if (t->cols[i].flags & C_KEY) {
                buf_printf(&sql, "%s%s", first ? "" : ", ", t->cols[i].name);
                first = 0;
            }
        buf_puts(&sql, ") DO UPDATE SET ");
        first = 1;
        for (int i = 0; i < t->ncols; i++)
            if (!(t->cols[i].flags & C_KEY)) {
                buf_printf(&sql, "%s%s = excluded.%s", first ? "" : ", ", t->cols[i].name,
                           t->cols[i].name);
                first = 0;
            }
    }
    if ((rc = prepare_cached(k, buf_cstr(&sql), &st, err)) != GW_OK)
        goto done;
    bind_vals(st, t, v);
    int step = sqlite3_step(st);
    if (step != SQLITE_DONE) {
        rc = step == SQLITE_CONSTRAINT
                 ? gw_error_set(err, GW_EDATA, "%s row refused: %s", t->sql, sqlite3_errmsg(k->db))
                 : db_fail(k, err, step, "writing");
        goto done;
    }
    *outcome = exists ? STORED_UPDATED : STORED_ADDED;
done:
    stmt_done(k, st);
    buf_free(&sql);
    return rc;
}

int kb_put_source(kb *k, const kb_source *s, gw_error *err)
{
    kb_val v[MAX_COLS];
    int outcome;
    vals_from_struct(&tables[TB_SOURCE], s, v);
    return store_row(k, &tables[TB_SOURCE], v, &outcome, err);
}

int kb_put_gpu(kb *k, const kb_gpu *g, gw_error *err)
{
    kb_val v[MAX_COLS];
    int outcome;
    vals_from_struct(&tables[TB_GPU], g, v);
    return store_row(k, &tables[TB_GPU], v, &outcome, err);
}

int kb_add_alias(kb *k, const char *gpu, const char *alias, gw_error *err)
{
    kb_val v[2] = {{gpu, NAN}, {alias, NAN}};
    int outcome;
    return store_row(k, &tables[TB_ALIAS], v, &outcome, err);
}

int kb_add_benchmark(kb *k, const kb_benchmark *b, gw_error *err)
{
    kb_val v[MAX_COLS];
    int outcome;
    vals_from_struct(&tables[TB_BENCHMARK], b, v);
    return store_row(k, &tables[TB_BENCHMARK], v, &outcome, err);
}

int kb_add_price(kb *k, const kb_price *p, gw_error *err)
{
    kb_val v[MAX_COLS];
    int outcome;
    vals_from_struct(&tables[TB_PRICE], p, v);
    v[9].d = p->spot ? 1 : 0;
    return store_row(k, &tables[TB_PRICE], v, &outcome, err);
}

int kb_put_rate(kb *k, const kb_rate *r, gw_error *err)
{
    kb_val v[MAX_COLS];
    int outcome;
    vals_from_struct(&tables[TB_RATE], r, v);
    return store_row(k, &tables[TB_RATE], v, &outcome, err);
}

int kb_add_claim(kb *k, const kb_claim *c, gw_error *err)
{
    kb_val v[MAX_COLS];
    int outcome;
    vals_from_struct(&tables[TB_CLAIM], c, v);
    return store_row(k, &tables[TB_CLAIM], v, &outcome, err);
}

int kb_delete_offers(kb *k, const char *provider, gw_error *err)
{
    sqlite3_stmt *st;
    int rc = need_write(k, err);
    if (rc || (rc = prepare(k, "DELETE FROM price WHERE kind = 'cloud' AND provider = ?1", &st,
                            err)) != GW_OK)
        return rc;
    bind_str(st, 1, provider);
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    return step == SQLITE_DONE ? GW_OK : db_fail(k, err, step, "deleting offers");
}

/* ---- reads ------------------------------------------------------------------------------ */

static const char *const gpu_fields[] = {
    "id", "name", "vendor", "architecture", "form_factor", "memory_gb", "memory_type",
    "memory_bandwidth_gbs", "tdp_w", "fp32_tflops", "tf32_tflops", "fp16_tflops",
    "bf16_tflops", "fp8_tflops", "int8_tops", "sparsity", "pcie_gen", "pcie_lanes",
    "nvlink_gbs", "mig_instances", "ecc", "release_date", "launch_price_usd", NULL};

const char *const *kb_gpu_fields(void)
{
    return gpu_fields;
}

static const kb_col *gpu_col(const char *name)
{
    for (int i = 0; i < tables[TB_GPU].ncols; i++)
        if (strcmp(gpu_cols[i].name, name) == 0)
            return &gpu_cols[i];
    return NULL;
}

static int is_gpu_field(const char *name)
{
    return in_set(name, gpu_fields);
}

/* Runs a SELECT of a table's columns (after `extra` leading columns) and collects the rows into
 * an array of structs of size `size`. */
typedef void (*row_fill)(sqlite3_stmt *st, void *obj);

static int select_rows(kb *k, const kb_table *t, const char *sql, const char *const *params,
                       int nparams, size_t size, int extra, row_fill fill, void **out,
                       size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    size_t cap = 0, count = 0;
    char *rows = NULL;
    int rc = prepare_cached(k, sql, &st, err);
    *out = NULL;
    *n = 0;
    if (rc)
        return rc;
    for (int i = 0; i < nparams; i++)
        bind_str(st, i + 1, params[i]);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            cap = cap ? cap * 2 : 16;
            rows = gw_xrealloc(rows, cap * size);
        }
        void *obj = rows + count * size;
        memset(obj, 0, size);
        struct_from_row(t, st, extra, obj);
        if (fill)
            fill(st, obj);
        count++;
    }
    stmt_done(k, st);
    if (step != SQLITE_DONE) {   /* a damaged file, or interrupted by a signal */
        for (size_t i = 0; i < count; i++)
            struct_free_strings(t, rows + i * size);
        free(rows);
        return db_fail(k, err, step, "reading");
    }
    *out = rows;
    *n = count;
    return GW_OK;
}

/* "SELECT extra, c1, c2 ... FROM t" */
static void select_head(gw_buf *b, const kb_table *t, const char *extra)
{
    buf_puts(b, "SELECT ");
    if (extra)
        buf_printf(b, "%s, ", extra);
    col_list(b, t, "");
    buf_printf(b, " FROM %s", t->sql);
}

int kb_gpu_get(kb *k, const char *id, kb_gpu *out, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_gpu *rows;
    size_t n;
    kb_gpu_init(out);
    select_head(&sql, &tables[TB_GPU], NULL);
    buf_puts(&sql, " WHERE id = ?1");
    const char *params[] = {id};
    int rc = select_rows(k, &tables[TB_GPU], buf_cstr(&sql), params, 1, sizeof(kb_gpu), 0, NULL,
                         (void **)&rows, &n, err);
    buf_free(&sql);
    if (rc)
        return rc;
    if (n == 0) {
        free(rows);
        return gw_error_set(err, GW_ENOTFOUND, "no GPU with id '%s'", id);
    }
    *out = rows[0];
    free(rows);
    return GW_OK;
}

static void fill_benchmark(sqlite3_stmt *st, void *obj)
{
    ((kb_benchmark *)obj)->id = sqlite3_column_int64(st, 0);
}

int kb_benchmarks_find(kb *k, const char *gpu, const char *workload, kb_benchmark **out,
                       size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    select_head(&sql, &tables[TB_BENCHMARK], "id");
    buf_puts(&sql, " WHERE (?1 IS NULL OR gpu = ?1) AND (?2 IS NULL OR workload = ?2)"
                   " ORDER BY gpu, workload, metric, gpu_count, value, id");
    const char *params[] = {gpu, workload};
    int rc = select_rows(k, &tables[TB_BENCHMARK], buf_cstr(&sql), params, 2,
                         sizeof(kb_benchmark), 1, fill_benchmark, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

static void fill_price(sqlite3_stmt *st, void *obj)
{
    kb_price *p = obj;
    p->id = sqlite3_column_int64(st, 0);
    p->spot = sqlite3_column_int(st, 1 + 9);
}

int kb_prices_find(kb *k, const char *gpu, const char *kind, const char *provider,
                   kb_price **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    select_head(&sql, &tables[TB_PRICE], "id");
    buf_puts(&sql, " WHERE (?1 IS NULL OR gpu = ?1) AND (?2 IS NULL OR kind = ?2)"
                   " AND (?3 IS NULL OR provider = ?3)"
                   " ORDER BY gpu, kind, as_of, currency, amount, id");
    const char *params[] = {gpu, kind, provider};
    int rc = select_rows(k, &tables[TB_PRICE], buf_cstr(&sql), params, 3, sizeof(kb_price), 1,
                         fill_price, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

int kb_source_get(kb *k, const char *id, kb_source *out, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_source *rows;
    size_t n;
    memset(out, 0, sizeof *out);
    select_head(&sql, &tables[TB_SOURCE], NULL);
    buf_puts(&sql, " WHERE id = ?1");
    const char *params[] = {id};
    int rc = select_rows(k, &tables[TB_SOURCE], buf_cstr(&sql), params, 1, sizeof(kb_source), 0,
                         NULL, (void **)&rows, &n, err);
    buf_free(&sql);
    if (rc)
        return rc;
    if (n == 0) {
        free(rows);
        return gw_error_set(err, GW_ENOTFOUND, "no source with id '%s'", id);
    }
    *out = rows[0];
    free(rows);
    return GW_OK;
}

static void fill_fact_count(sqlite3_stmt *st, void *obj)
{
    ((kb_source *)obj)->fact_count = sqlite3_column_int64(st, 0);
}

int kb_sources_list(kb *k, kb_source **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    select_head(&sql, &tables[TB_SOURCE],
                "(SELECT count(*) FROM gpu WHERE source = s.id)"
                " + (SELECT count(*) FROM benchmark WHERE source = s.id)"
                " + (SELECT count(*) FROM price WHERE source = s.id)"
                " + (SELECT count(*) FROM rate WHERE source = s.id)"
                " + (SELECT count(*) FROM claim WHERE source = s.id OR correction_source = s.id)");
    buf_puts(&sql, " s ORDER BY id");
    int rc = select_rows(k, &tables[TB_SOURCE], buf_cstr(&sql), NULL, 0, sizeof(kb_source), 1,
                         fill_fact_count, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

int kb_claims_for(kb *k, const char *subject, kb_claim **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    select_head(&sql, &tables[TB_CLAIM], NULL);
    buf_puts(&sql, " WHERE ?1 IS NULL OR subject = ?1 ORDER BY subject, id");
    const char *params[] = {subject};
    int rc = select_rows(k, &tables[TB_CLAIM], buf_cstr(&sql), params, 1, sizeof(kb_claim), 0,
                         NULL, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

int kb_rate_get(kb *k, const char *currency, kb_rate *out, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_rate *rows;
    size_t n;
    memset(out, 0, sizeof *out);
    out->per_usd = NAN;
    select_head(&sql, &tables[TB_RATE], NULL);
    buf_puts(&sql, " WHERE currency = ?1 ORDER BY as_of DESC LIMIT 1");
    const char *params[] = {currency};
    int rc = select_rows(k, &tables[TB_RATE], buf_cstr(&sql), params, 1, sizeof(kb_rate), 0,
                         NULL, (void **)&rows, &n, err);
    buf_free(&sql);
    if (rc)
        return rc;
    if (n == 0) {
        free(rows);
        if (streq(currency, "USD")) {   /* the unit every rate is written in */
            out->currency = gw_xstrdup("USD");
            out->per_usd = 1;
            return GW_OK;
        }
        return gw_error_set(err, GW_ENOTFOUND, "no exchange rate for '%s' in the knowledge base",
                            currency ? currency : "");
    }
    *out = rows[0];
    free(rows);
    return GW_OK;
}

int kb_convert(kb *k, double amount, const char *from, const char *to, double *out,
               gw_error *err)
{
    kb_rate rf, rt;
    *out = NAN;
    if (!units_is_currency(from) || !units_is_currency(to))
        return gw_error_set(err, GW_EUSAGE, "'%s': not a currency code (e.g. USD, CNY)",
                            units_is_currency(from) ? to : from);
    if (strcmp(from, to) == 0) {
        *out = amount;
        return GW_OK;
    }
    int rc = kb_rate_get(k, from, &rf, err);
    if (rc)
        return rc;
    rc = kb_rate_get(k, to, &rt, err);
    if (rc) {
        kb_rate_free(&rf);
        return rc;
    }
    *out = amount / rf.per_usd * rt.per_usd;
    kb_rate_free(&rf);
    kb_rate_free(&rt);
    return GW_OK;
}

/* ---- name resolution -------------------------------------------------------------------- */

/* What resolution knows of one GPU: its names normalised (concatenated tokens) and tokens. */
struct gpu_names {
    char *id;
    char *form_factor;
    double memory_gb;
    char **variants;      /* id, name and every alias, normalised */
    size_t n_variants;
    char **tokens;        /* tokens of all of those plus form factor and memory type */
    size_t n_tokens;
    char **name_tokens;   /* tokens of the marketing name alone */
    size_t n_name_tokens;
};

typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

static void strlist_push(strlist *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->v = gw_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = s;
}

static void strlist_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static int strlist_has(const strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return 1;
    return 0;
}

static void names_drop(kb *k)
{
    for (size_t i = 0; i < k->n_names; i++) {
        gpu_names *g = &k->names[i];
        free(g->id);
        free(g->form_factor);
        strlist_free(g->variants, g->n_variants);
        strlist_free(g->tokens, g->n_tokens);
        strlist_free(g->name_tokens, g->n_name_tokens);
    }
    free(k->names);
    k->names = NULL;
    k->n_names = 0;
}

static int is_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* Splits a name the way people vary it: case, spaces, dashes, underscores and brackets do not
 * matter; "80 GB" becomes "80gb"; vendor and line words in front ("NVIDIA GeForce") and "GPU"
 * at the end are dropped.  The tokens are written into buf (2 * strlen(s) + 2 bytes), each
 * NUL-terminated; tok[] points at them.  Returns their number (at most max). */
static size_t name_split(const char *s, char *buf, char **tok, size_t max)
{
    size_t n = 0, len = 0;   /* len: characters of the token being read */
    int keep = 0, prev = 0;  /* keep: the token has a place in tok[]; prev: its last character */
    char *w = buf;
    for (const unsigned char *p = (const unsigned char *)s;; p++) {
        int c = *p;
        if (c == 0xC3 && p[1] == 0x97) {   /* U+00D7 multiplication sign, as in "4×3090" */
            c = 'x';
            p++;
        }
        if (c && (isalnum(c) || c == '.' || c >= 0x80)) {
            if (c == '.' && !(len && isdigit(prev) && isdigit(p[1])))
                goto split;   /* a dot only belongs inside a number */
            if (!len && (keep = n < max))
                tok[n++] = w;
            prev = tolower(c);
            if (keep)
                *w++ = (char)prev;
            len++;
            continue;
        }
    split:
        if (len && keep)
            *w++ = '\0';
        len = 0;
        if (!c)
            break;
    }
    /* "80 GB" -> "80gb": tokens are adjacent in buf, so the unit moves over the number's NUL */
    for (size_t i = 0; i + 1 < n; i++) {
        const char *unit = tok[i + 1];
        if (isdigit((unsigned char)tok[i][0]) && strspn(tok[i], "0123456789.") == strlen(tok[i]) &&
            (strcmp(unit, "gb") == 0 || strcmp(unit, "gib") == 0 || strcmp(unit, "g") == 0)) {
            size_t tl = strlen(tok[i]);
            memcpy(tok[i] + tl, "gb", 3);   /* "g" and "gib" both become "gb" */
            memmove(&tok[i + 1], &tok[i + 2], (n - i - 2) * sizeof *tok);
            n--;
        }
    }
    static const char *const lead[] = {"nvidia", "geforce", "tesla", "quadro", "amd",
                                       "instinct", NULL};
    size_t first = 0, last = n;
    for (;;) {
        if (first < last && in_set(tok[first], lead))
            first++;
        else if (first + 1 < last && strcmp(tok[first], "radeon") == 0 &&
                 strcmp(tok[first + 1], "instinct") == 0)
            first += 2;
        else
            break;
    }
    while (last > first && strcmp(tok[last - 1], "gpu") == 0)
        last--;
    memmove(tok, tok + first, (last - first) * sizeof *tok);
    return last - first;
}

#define NAME_TOKENS_MAX 64

/* name_split's tokens of s, each a copy pushed to out. */
static void name_tokenize(const char *s, strlist *out)
{
    size_t len = strlen(s);
    char small[512], *buf = 2 * len + 2 <= sizeof small ? small : gw_xmalloc(2 * len + 2);
    char *tok[NAME_TOKENS_MAX];
    size_t n = name_split(s, buf, tok, NAME_TOKENS_MAX);
    for (size_t i = 0; i < n; i++)
        strlist_push(out, gw_xstrdup(tok[i]));
    if (buf != small)
        free(buf);
}

static char *tokens_join(char *const *v, size_t n)
{
    gw_buf b = GW_BUF_INIT;
    for (size_t i = 0; i < n; i++)
        buf_puts(&b, v[i]);
    buf_puts(&b, "");
    return buf_detach(&b);
}

/* Adds text's tokens joined (a name variant) to variants and each token to tokens, unless
 * there already. */
static void names_add(strlist *variants, strlist *tokens, const char *text)
{
    if (!text)
        return;
    size_t len = strlen(text);
    char small[512], *buf = 2 * len + 2 <= sizeof small ? small : gw_xmalloc(2 * len + 2);
    char joined_small[512], *joined = len + 1 <= sizeof joined_small ? joined_small
                                                                      : gw_xmalloc(len + 1);
    char *tok[NAME_TOKENS_MAX];
    size_t n = name_split(text, buf, tok, NAME_TOKENS_MAX), at = 0;
    for (size_t i = 0; i < n; i++) {
        size_t tl = strlen(tok[i]);
        memcpy(joined + at, tok[i], tl);
        at += tl;
    }
    joined[at] = '\0';
    if (variants && *joined && !strlist_has(variants, joined))
        strlist_push(variants, gw_xstrdup(joined));
    for (size_t i = 0; i < n; i++)
        if (!strlist_has(tokens, tok[i]))
            strlist_push(tokens, gw_xstrdup(tok[i]));
    if (buf != small)
        free(buf);
    if (joined != joined_small)
        free(joined);
}

static int names_load(kb *k, gw_error *err)
{
    sqlite3_stmt *st;
    if (k->names)
        return GW_OK;
    int rc = prepare(k,
                     "SELECT id, name, form_factor, memory_type, memory_gb "
                     "FROM gpu ORDER BY id", &st, err);
    if (rc)
        return rc;
    size_t cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (k->n_names == cap) {
            cap = cap ? cap * 2 : 64;
            k->names = gw_xrealloc(k->names, cap * sizeof *k->names);
        }
        gpu_names *g = &k->names[k->n_names++];
        strlist variants = {0}, tokens = {0}, name_tokens = {0};
        memset(g, 0, sizeof *g);
        g->id = col_str(st, 0);
        g->memory_gb = col_num(st, 4);
        g->form_factor = col_str(st, 2);
        names_add(&variants, &tokens, g->id);
        names_add(&variants, &tokens, (const char *)sqlite3_column_text(st, 1));
        name_tokenize((const char *)sqlite3_column_text(st, 1), &name_tokens);
        names_add(NULL, &tokens, (const char *)sqlite3_column_text(st, 2));
        names_add(NULL, &tokens, (const char *)sqlite3_column_text(st, 3));
        g->variants = variants.v;
        g->n_variants = variants.n;
        g->tokens = tokens.v;
        g->n_tokens = tokens.n;
        g->name_tokens = name_tokens.v;
        g->n_name_tokens = name_tokens.n;
    }
    sqlite3_finalize(st);
    if ((rc = prepare(k, "SELECT gpu, alias FROM gpu_alias ORDER BY gpu, alias", &st, err)))
        return rc;
    size_t at = 0;   /* both lists are in id order (SQLite's BINARY collation is strcmp's) */
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *gpu = (const char *)sqlite3_column_text(st, 0);
        while (at < k->n_names && strcmp(k->names[at].id, gpu) < 0)
            at++;
        if (at == k->n_names || strcmp(k->names[at].id, gpu) != 0)
            continue;
        gpu_names *g = &k->names[at];
        strlist variants = {g->variants, g->n_variants, g->n_variants};
        strlist tokens = {g->tokens, g->n_tokens, g->n_tokens};
        names_add(&variants, &tokens, (const char *)sqlite3_column_text(st, 1));
        g->variants = variants.v;
        g->n_variants = variants.n;
        g->tokens = tokens.v;
        g->n_tokens = tokens.n;
    }
    sqlite3_finalize(st);
    return GW_OK;
}

static int token_in(char *const *v, size_t n, const char *t)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], t) == 0)
            return 1;
    return 0;
}

static int memory_hint(const char *tok, double *gb)
{
    size_t n = strlen(tok);
    if (n < 3 || strcmp(tok + n - 2, "gb") != 0 || !isdigit((unsigned char)tok[0]))
        return 0;
    char *end;
    *gb = strtod(tok, &end);
    return end == tok + n - 2;
}

static int is_memory_token(const char *t)
{
    double gb;
    return memory_hint(t, &gb);
}

/* 1 when b is a's name plus only variant words ("RTX 3090" and "RTX 3090 Ti", "RTX A2000" and
 * "RTX A2000 12GB"): a name that stops short of the suffix means the plain card. */
static int name_extends(const gpu_names *a, const gpu_names *b)
{
    static const char *const variant_words[] = {"ti", "super", "d", "xt", "xtx", "max", "q",
                                                 "maxq", "se", "le", NULL};
    if (a->n_name_tokens == 0 || a->n_name_tokens >= b->n_name_tokens)
        return 0;
    for (size_t i = 0; i < a->n_name_tokens; i++)
        if (!token_in(b->name_tokens, b->n_name_tokens, a->name_tokens[i]))
            return 0;
    for (size_t i = 0; i < b->n_name_tokens; i++) {
        const char *t = b->name_tokens[i];
        if (!token_in(a->name_tokens, a->n_name_tokens, t) && !in_set(t, variant_words) &&
            !is_memory_token(t))
            return 0;
    }
    return 1;
}

static int form_factor_token(const gpu_names *g, const char *t)
{
    return (g->form_factor && strcmp(t, g->form_factor) == 0) || strncmp(t, "pcie", 4) == 0 ||
           strncmp(t, "sxm", 3) == 0 || is_memory_token(t);
}

/* 1 when a's and b's names differ only in form factor and memory size words. */
static int same_model(const gpu_names *a, const gpu_names *b)
{
    const gpu_names *x = a, *y = b;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < x->n_name_tokens; i++)
            if (!form_factor_token(x, x->name_tokens[i]) &&
                !token_in(y->name_tokens, y->n_name_tokens, x->name_tokens[i]))
                return 0;
        x = b;
        y = a;
    }
    return 1;
}

static int resolve_ambiguous(const char *name, gpu_names **cand, size_t n, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", cand[i]->id);
    int rc = gw_error_set(err, GW_ENOTFOUND, "'%.200s' is ambiguous: %s", name, buf_cstr(&b));
    buf_free(&b);
    return rc;
}

typedef struct suggestion {
    size_t dist;
    const char *id;
} suggestion;

static int suggestion_cmp(const void *a, const void *b)
{
    const suggestion *x = a, *y = b;
    if (x->dist != y->dist)
        return x->dist < y->dist ? -1 : 1;
    return strcmp(x->id, y->id);
}

static int resolve_unknown(kb *k, const char *name, const char *norm, gw_error *err)
{
    if (k->n_names == 0)
        return gw_error_set(err, GW_ENOTFOUND, "no GPU named '%.200s' (the knowledge base has "
                            "no GPUs)", name);
    suggestion *s = gw_xcalloc(k->n_names, sizeof *s);
    for (size_t i = 0; i < k->n_names; i++) {
        s[i].id = k->names[i].id;
        s[i].dist = SIZE_MAX;
        for (size_t j = 0; j < k->names[i].n_variants; j++) {
            const char *v = k->names[i].variants[j];
            /* "4070 ti" is nearer the "4070 Ti Super" it is part of than the "1080 Ti". */
            size_t d = *norm && strstr(v, norm) ? (strlen(v) - strlen(norm)) / 4
                                                : gw_edit_distance(norm, v);
            if (d < s[i].dist)
                s[i].dist = d;
        }
    }
    qsort(s, k->n_names, sizeof *s, suggestion_cmp);
    gw_buf b = GW_BUF_INIT;
    for (size_t i = 0; i < k->n_names && i < 3; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", s[i].id);
    int rc = gw_error_set(err, GW_ENOTFOUND, "no GPU named '%.200s'; did you mean: %s?", name,
                          buf_cstr(&b));
    buf_free(&b);
    free(s);
    return rc;
}

/* A leading "8x", "8 x" or "8xH200" (or a trailing "x8") is a count, not part of the name. */
static int take_count(strlist *t, int *count)
{
    *count = 1;
    if (t->n == 0)
        return GW_OK;
    char *first = t->v[0];
    size_t digits = strspn(first, "0123456789");
    if (digits > 0 && digits <= 4 && first[digits] == 'x') {
        *count = atoi(first);
        if (first[digits + 1]) {
            memmove(first, first + digits + 1, strlen(first + digits + 1) + 1);
        } else {
            free(first);
            memmove(&t->v[0], &t->v[1], (t->n - 1) * sizeof *t->v);
            t->n--;
        }
    } else if (digits > 0 && digits <= 4 && !first[digits] && t->n > 1 &&
               strcmp(t->v[1], "x") == 0) {
        *count = atoi(first);
        free(t->v[0]);
        free(t->v[1]);
        memmove(&t->v[0], &t->v[2], (t->n - 2) * sizeof *t->v);
        t->n -= 2;
    } else if (t->n > 1 && t->v[t->n - 1][0] == 'x' && is_digits(t->v[t->n - 1] + 1) &&
               strlen(t->v[t->n - 1]) <= 5) {
        *count = atoi(t->v[t->n - 1] + 1);
        free(t->v[--t->n]);
    }
    return *count >= 1 ? GW_OK : GW_EUSAGE;
}

/* kb_gpu_resolve, and kb_gpu_resolve_family when family is not NULL: then an ambiguous name gives
 * every candidate's id in *family instead of an error. */
static int resolve(kb *k, const char *name, char **id, int *count, strlist *family,
                   gw_error *err)
{
    strlist t = {0};
    int n_count = 1, rc;
    *id = NULL;
    if (count)
        *count = 1;
    if (!name || !*name)
        return gw_error_set(err, GW_ENOTFOUND, "no GPU name given");
    if (strlen(name) > 200)
        return gw_error_set(err, GW_ENOTFOUND, "no GPU named '%.40s...' (name too long)", name);
    if ((rc = names_load(k, err)))
        return rc;
    name_tokenize(name, &t);
    if (take_count(&t, &n_count) != GW_OK) {
        strlist_free(t.v, t.n);
        return gw_error_set(err, GW_ENOTFOUND, "'%s': a GPU count must be at least 1", name);
    }
    char *norm = tokens_join(t.v, t.n);
    gpu_names **cand = gw_xcalloc(k->n_names + 1, sizeof *cand);
    size_t nc = 0;

    /* 1. The whole name equals an id, a name or an alias. */
    for (size_t i = 0; *norm && i < k->n_names; i++)
        for (size_t j = 0; j < k->names[i].n_variants; j++)
            if (strcmp(norm, k->names[i].variants[j]) == 0) {
                cand[nc++] = &k->names[i];
                break;
            }

    /* 2. Every word of the query is in one GPU's names: whole words first, then parts of them;
     *    a memory size ("80GB") narrows; "3090" prefers the RTX 3090 to the RTX 3090 Ti. */
    if (nc == 0 && t.n > 0) {
        strlist words = {0};
        double hint = NAN, gb;
        for (size_t i = 0; i < t.n; i++) {
            if (memory_hint(t.v[i], &gb) && isnan(hint))
                hint = gb;
            else
                strlist_push(&words, t.v[i]);
        }
        size_t *whole = gw_xcalloc(k->n_names + 1, sizeof *whole);
        size_t best = 0;
        for (size_t i = 0; i < k->n_names; i++) {
            gpu_names *g = &k->names[i];
            size_t w = 0, matched = 0;
            for (size_t q = 0; q < words.n; q++) {
                if (token_in(g->tokens, g->n_tokens, words.v[q])) {
                    w++;
                    matched++;
                    continue;
                }
                /* A word may stand for the start of a longer one ("sxm" for "sxm5"), but a
                 * model number must be whole: "m40" is not in "sxm4 40gb", "5000" is not the
                 * "a5000", "mi300" is not the "mi300x". */
                const char *word = words.v[q];
                size_t wl = strlen(word);
                if (wl >= 2 && !strpbrk(word, "0123456789"))
                    for (size_t j = 0; j < g->n_tokens; j++)
                        if (strncmp(g->tokens[j], word, wl) == 0) {
                            matched++;
                            break;
                        }
                if (matched < q + 1)
                    break;
            }
            if (words.n == 0 || matched < words.n)
                continue;
            /* "GTX 1080" is not the GTX 1080 Ti: a product suffix must be asked for. */
            static const char *const suffixes[] = {"ti", "super", "xt", "xtx", NULL};
            int extra_suffix = 0;
            for (size_t j = 0; j < g->n_name_tokens; j++)
                if (in_set(g->name_tokens[j], suffixes) &&
                    !token_in(words.v, words.n, g->name_tokens[j]))
                    extra_suffix = 1;
            if (extra_suffix)
                continue;
            whole[nc] = w;
            cand[nc++] = g;
            if (w > best)
                best = w;
        }
        size_t kept = 0;
        for (size_t i = 0; i < nc; i++)
            if (whole[i] == best)
                cand[kept++] = cand[i];
        nc = kept;
        if (!isnan(hint)) {
            /* Vendors round: "140GB" means the 141 GB H200. */
            kept = 0;
            for (size_t i = 0; i < nc; i++)
                if (fabs(cand[i]->memory_gb - hint) <= fmax(1.0, hint * 0.025))
                    cand[kept++] = cand[i];
            nc = kept;   /* "P100 12GB" is not the P100 16GB: a size that fits none is unknown */
            /* "A100 80GB", "H100 (80 GB)": a memory size but no form factor names the SXM part,
             * the one cloud listings and articles mean, when the rest differ only in form. */
            size_t sxm = 0, pick = 0;
            int alike = 1;
            for (size_t i = 0; i < nc; i++) {
                alike = alike && same_model(cand[0], cand[i]);
                if (cand[i]->form_factor && strncmp(cand[i]->form_factor, "sxm", 3) == 0) {
                    sxm++;
                    pick = i;
                }
            }
            if (nc > 1 && alike && sxm == 1) {
                cand[0] = cand[pick];
                nc = 1;
            }
        }
        if (nc > 1) {
            kept = 0;
            for (size_t i = 0; i < nc; i++) {
                int dominated = 0;
                for (size_t j = 0; j < nc && !dominated; j++)
                    dominated = j != i && name_extends(cand[j], cand[i]);
                if (!dominated)
                    cand[kept++] = cand[i];
            }
            nc = kept;
        }
        free(whole);
        free(words.v);   /* the strings belong to t */
    }

    if (nc == 1) {
        *id = gw_xstrdup(cand[0]->id);
        if (count)
            *count = n_count;
        rc = GW_OK;
    } else if (nc > 1 && family) {
        for (size_t i = 0; i < nc; i++)
            strlist_push(family, gw_xstrdup(cand[i]->id));
        rc = GW_OK;
    } else if (nc > 1) {
        rc = resolve_ambiguous(name, cand, nc, err);
    } else {
        rc = resolve_unknown(k, name, norm, err);
    }
    free(cand);
    free(norm);
    strlist_free(t.v, t.n);
    return rc;
}

int kb_gpu_resolve(kb *k, const char *name, char **id, int *count, gw_error *err)
{
    return resolve(k, name, id, count, NULL, err);
}

int kb_gpu_resolve_family(kb *k, const char *name, char ***ids, size_t *n, gw_error *err)
{
    strlist family = {0};
    char *id = NULL;
    *ids = NULL;
    *n = 0;
    int rc = resolve(k, name, &id, NULL, &family, err);
    if (rc == GW_OK && id)
        strlist_push(&family, id);   /* the list owns it now */
    else
        free(id);
    if (rc != GW_OK) {
        strlist_free(family.v, family.n);
        return rc;
    }
    *ids = family.v;
    *n = family.n;
    return GW_OK;
}

/* ---- the filter language ---------------------------------------------------------------- */
/* where := cond { "and" cond } ; cond := FIELD OP VALUE ; OP := = == != < <= > >= ~
 * VALUE := NUMBER | 'text' | "text" | bare-word.  Compiled to SQL with bound parameters. */

#define WHERE_MAX 4096

typedef struct filter {
    gw_buf sql;
    char **texts;      /* bound in order; numbers are kept as text too (sqlite3_bind_double) */
    double *nums;
    int *is_num;
    size_t n;
} filter;

static void filter_free(filter *f)
{
    buf_free(&f->sql);
    strlist_free(f->texts, f->n);
    free(f->nums);
    free(f->is_num);
}

static void filter_bind(filter *f, char *text, double num, int is_num)
{
    f->texts = gw_xrealloc(f->texts, (f->n + 1) * sizeof *f->texts);
    f->nums = gw_xrealloc(f->nums, (f->n + 1) * sizeof *f->nums);
    f->is_num = gw_xrealloc(f->is_num, (f->n + 1) * sizeof *f->is_num);
    f->texts[f->n] = text;
    f->nums[f->n] = num;
    f->is_num[f->n] = is_num;
    f->n++;
}

static int field_list_error(gw_error *err, const char *what, const char *name)
{
    gw_buf b = GW_BUF_INIT;
    for (const char *const *f = gpu_fields; *f; f++)
        buf_printf(&b, "%s%s", f == gpu_fields ? "" : ", ", *f);
    int rc = gw_error_set(err, GW_EUSAGE, "%sunknown field '%.60s' (fields: %s)", what, name,
                          buf_cstr(&b));
    buf_free(&b);
    return rc;
}

static int printable(unsigned char c)
{
    return c >= 0x80 || isprint(c);
}

static int filter_compile(const char *where, filter *f, gw_error *err)
{
    const char *p = where;
    size_t len = strlen(where);
    if (len > WHERE_MAX)
        return gw_error_set(err, GW_EUSAGE, "--where: too long (%d characters at most)",
                            WHERE_MAX);
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p) {
            if (f->n == 0)
                return gw_error_set(err, GW_EUSAGE, "--where: empty filter (e.g. "
                                    "'memory_gb>=48 and nvlink_gbs>0')");
            return gw_error_set(err, GW_EUSAGE, "--where: expected a condition after 'and'");
        }
        /* field */
        const char *start = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        if (p == start) {
            if (printable((unsigned char)*p))
                return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected a field "
                                    "name, found '%c'", (size_t)(start - where) + 1, *p);
            return gw_error_set(err, GW_EUSAGE, "--where: position %zu: unexpected byte 0x%02x",
                                (size_t)(start - where) + 1, (unsigned char)*p);
        }
        char field[64];
        snprintf(field, sizeof field, "%.*s", (int)(p - start), start);
        for (char *c = field; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (!is_gpu_field(field))
            return field_list_error(err, "--where: ", field);
        const kb_col *col = gpu_col(field);
        int numeric = col->type != T_TEXT;
        while (isspace((unsigned char)*p))
            p++;
        /* operator */
        const char *op;
        if (strncmp(p, "<=", 2) == 0 || strncmp(p, ">=", 2) == 0 || strncmp(p, "!=", 2) == 0 ||
            strncmp(p, "==", 2) == 0) {
            op = p[0] == '=' ? "=" : p[0] == '<' ? "<=" : p[0] == '>' ? ">=" : "!=";
            p += 2;
        } else if (*p == '<' || *p == '>' || *p == '=' || *p == '~') {
            op = *p == '<' ? "<" : *p == '>' ? ">" : *p == '=' ? "=" : "~";
            p++;
        } else {
            return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected an operator "
                                "(= != < <= > >= ~) after '%s'", (size_t)(p - where) + 1,
                                field);
        }
        while (isspace((unsigned char)*p))
            p++;
        /* value */
        gw_buf value = GW_BUF_INIT;
        const char *vstart = p;
        if (*p == '\'' || *p == '"') {
            char q = *p++;
            for (;;) {
                if (!*p) {
                    buf_free(&value);
                    return gw_error_set(err, GW_EUSAGE, "--where: position %zu: unterminated "
                                        "string (missing %c)", (size_t)(vstart - where) + 1, q);
                }
                if (*p == q && p[1] == q) {   /* '' inside '...' is one quote */
                    buf_putc(&value, q);
                    p += 2;
                } else if (*p == q) {
                    p++;
                    break;
                } else {
                    buf_putc(&value, *p++);
                }
            }
            buf_puts(&value, "");
        } else {
            while (*p && !isspace((unsigned char)*p)) {
                if (!printable((unsigned char)*p) || *p == '\'' || *p == '"' || *p == ';' ||
                    *p == '(' || *p == ')') {
                    buf_free(&value);
                    return gw_error_set(err, GW_EUSAGE, "--where: position %zu: unexpected "
                                        "character in a value (quote text that has it)",
                                        (size_t)(p - where) + 1);
                }
                buf_putc(&value, *p++);
            }
            if (value.len == 0) {
                buf_free(&value);
                return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected a value "
                                    "after '%s %s'", (size_t)(p - where) + 1, field, op);
            }
        }
        char *text = buf_detach(&value);
        double num = NAN;
        if (numeric) {
            char *end;
            if (strcmp(op, "~") == 0) {
                free(text);
                return gw_error_set(err, GW_EUSAGE, "--where: '~' (contains) needs a text "
                                    "field; %s is a number", field);
            }
            num = strtod(text, &end);
            if (!*text || *end || !isfinite(num)) {
                int rc = gw_error_set(err, GW_EUSAGE, "--where: %s: '%.60s' is not a number",
                                      field, text);
                free(text);
                return rc;
            }
        }
        buf_printf(&f->sql, "%s", f->n ? " AND " : "");
        if (strcmp(op, "~") == 0) {
            /* contains, case-insensitive: LIKE with the pattern characters escaped */
            gw_buf pat = GW_BUF_INIT;
            buf_putc(&pat, '%');
            for (const char *c = text; *c; c++) {
                if (*c == '%' || *c == '_' || *c == '\\')
                    buf_putc(&pat, '\\');
                buf_putc(&pat, *c);
            }
            buf_putc(&pat, '%');
            free(text);
            text = buf_detach(&pat);
            buf_printf(&f->sql, "%s LIKE ?%zu ESCAPE '\\'", field, f->n + 1);
        } else if (!numeric && strcmp(op, "=") == 0) {
            buf_printf(&f->sql, "%s = ?%zu COLLATE NOCASE", field, f->n + 1);
        } else if (!numeric && strcmp(op, "!=") == 0) {
            buf_printf(&f->sql, "%s != ?%zu COLLATE NOCASE", field, f->n + 1);
        } else {
            buf_printf(&f->sql, "%s %s ?%zu", field, op, f->n + 1);
        }
        filter_bind(f, text, num, numeric);
        /* "and" or the end */
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            return GW_OK;
        if (strncasecmp(p, "and", 3) == 0 && (isspace((unsigned char)p[3]) || !p[3])) {
            p += 3;
            continue;
        }
        if (*p == '&' && p[1] == '&') {
            p += 2;
            continue;
        }
        return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected 'and' between "
                            "conditions", (size_t)(p - where) + 1);
    }
}

int kb_gpu_where_check(const char *where, gw_error *err)
{
    filter f = {GW_BUF_INIT, NULL, NULL, NULL, 0};
    int rc = filter_compile(where, &f, err);
    filter_free(&f);
    return rc;
}

int kb_gpu_list(kb *k, const char *where, const char *sort, kb_gpu **out, size_t *n,
                gw_error *err)
{
    filter f = {GW_BUF_INIT, NULL, NULL, NULL, 0};
    gw_buf sql = GW_BUF_INIT;
    sqlite3_stmt *st = NULL;
    int rc = GW_OK, desc = 0;
    const char *sort_field = NULL;

    *out = NULL;
    *n = 0;
    if (where && (rc = filter_compile(where, &f, err)) != GW_OK)
        goto done;
    if (sort && *sort) {
        desc = sort[0] == '-';
        sort_field = sort + (sort[0] == '-' || sort[0] == '+');
        if (!is_gpu_field(sort_field)) {
            rc = field_list_error(err, "--sort: ", sort_field);
            goto done;
        }
    }
    select_head(&sql, &tables[TB_GPU], NULL);
    if (f.n)
        buf_printf(&sql, " WHERE %s", buf_cstr(&f.sql));
    if (sort_field)   /* a name from the field list, never the user's text */
        buf_printf(&sql, " ORDER BY %s IS NULL, %s %s,", sort_field, sort_field,
                   desc ? "DESC" : "ASC");
    else
        buf_puts(&sql, " ORDER BY");
    buf_puts(&sql, " id");
    if ((rc = prepare(k, buf_cstr(&sql), &st, err)) != GW_OK)
        goto done;
    for (size_t i = 0; i < f.n; i++) {
        if (f.is_num[i])
            sqlite3_bind_double(st, (int)i + 1, f.nums[i]);
        else
            bind_str(st, (int)i + 1, f.texts[i]);
    }
    size_t cap = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 32;
            *out = gw_xrealloc(*out, cap * sizeof **out);
        }
        kb_gpu *g = &(*out)[(*n)++];
        kb_gpu_init(g);
        struct_from_row(&tables[TB_GPU], st, 0, g);
    }
    if (step != SQLITE_DONE) {
        kb_gpus_free(*out, *n);
        *out = NULL;
        *n = 0;
        rc = db_fail(k, err, step, "listing GPUs");
    }
done:
    sqlite3_finalize(st);
    buf_free(&sql);
    filter_free(&f);
    return rc;
}

/* ---- full-text search ------------------------------------------------------------------- */

/* Turns what a person typed into an FTS5 query of quoted words (a trailing * kept as a prefix
 * search), so no FTS5 syntax ever comes from the user.  Words without a letter or digit are
 * dropped.  joiner is " " (all words) or " OR ". */
static char *fts_query(const char *text, const char *joiner)
{
    gw_buf q = GW_BUF_INIT;
    const char *p = text;
    size_t words = 0;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        size_t len = (size_t)(p - start);
        int prefix = 0;
        while (len > 0 && start[len - 1] == '*') {
            prefix = 1;
            len--;
        }
        int useful = 0;
        for (size_t i = 0; i < len; i++)
            if (isalnum((unsigned char)start[i]) || (unsigned char)start[i] >= 0x80)
                useful = 1;
        if (!useful)
            continue;
        if (words++)
            buf_puts(&q, joiner);
        buf_putc(&q, '"');
        for (size_t i = 0; i < len; i++) {
            if (start[i] == '"')
                buf_putc(&q, '"');
            buf_putc(&q, start[i]);
        }
        buf_putc(&q, '"');
        if (prefix)
            buf_putc(&q, '*');
    }
    if (!words) {
        buf_free(&q);
        return NULL;
    }
    return buf_detach(&q);
}

/* What a hit is about: the GPU of a GPU-bound row (a claim's subject only when it is a GPU) and
 * the source each row cites, looked up from the hit's kind and ref (h.kind, h.ref). */
#define HIT_GPU_SQL \
    "CASE h.kind WHEN 'gpu' THEN h.ref " \
    "WHEN 'benchmark' THEN (SELECT gpu FROM benchmark WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'price' THEN (SELECT gpu FROM price WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'claim' THEN (SELECT g.id FROM claim c JOIN gpu g ON g.id = c.subject " \
    "WHERE c.id = CAST(h.ref AS INTEGER)) END"
#define HIT_SOURCE_SQL \
    "CASE h.kind WHEN 'source' THEN h.ref " \
    "WHEN 'gpu' THEN (SELECT source FROM gpu WHERE id = h.ref) " \
    "WHEN 'benchmark' THEN (SELECT source FROM benchmark WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'price' THEN (SELECT source FROM price WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'claim' THEN (SELECT source FROM claim WHERE id = CAST(h.ref AS INTEGER)) " \
    "WHEN 'rate' THEN (SELECT source FROM rate WHERE currency = substr(h.ref, 1, " \
    "instr(h.ref, '@') - 1) AND as_of = substr(h.ref, instr(h.ref, '@') + 1)) END"

/* Reads hit rows (kind, ref, title, snippet, rank, gpu, source) until the statement ends, and
 * finalizes it.  Returns the step code: SQLITE_DONE when every row was read. */
static int read_hits(sqlite3_stmt *st, kb_hit **out, size_t *n)
{
    size_t cap = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            *out = gw_xrealloc(*out, cap * sizeof **out);
        }
        kb_hit *h = &(*out)[(*n)++];
        h->kind = col_str(st, 0);
        h->ref = col_str(st, 1);
        h->title = col_str(st, 2);
        h->snippet = col_str(st, 3);
        h->rank = -sqlite3_column_double(st, 4);   /* bm25 is lower-is-better */
        h->gpu = col_str(st, 5);
        h->source = col_str(st, 6);
    }
    sqlite3_finalize(st);
    return step;
}

static int search_run(kb *k, const char *match, size_t limit, kb_hit **out, size_t *n,
                      gw_error *err)
{
    sqlite3_stmt *st;
    /* The lookups run on the hits LIMIT kept, not on every match: the inner query ranks. */
    int rc = prepare(k,
                     "SELECT h.kind, h.ref, h.title, h.snip, h.score, " HIT_GPU_SQL ", "
                     HIT_SOURCE_SQL " FROM ("
                     /* GPUs are what people look up most: their entries weigh double. */
                     "SELECT kind, ref, title, snippet(kb_fts, -1, '[', ']', '...', 12) AS snip, "
                     "bm25(kb_fts, 0.0, 0.0, 4.0, 1.0) * (CASE kind WHEN 'gpu' THEN 2.0 "
                     "ELSE 1.0 END) AS score "
                     "FROM kb_fts WHERE kb_fts MATCH ?1 ORDER BY score, kind, ref LIMIT ?2) h "
                     "ORDER BY h.score, h.kind, h.ref",
                     &st, err);
    if (rc)
        return rc;
    bind_str(st, 1, match);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)(limit ? limit : 20));
    int step = read_hits(st, out, n);
    if (step != SQLITE_DONE) {
        kb_hits_free(*out, *n);
        *out = NULL;
        *n = 0;
        if (step == SQLITE_BUSY || step == SQLITE_LOCKED || step == SQLITE_CORRUPT)
            return db_fail(k, err, step, "searching");
        return gw_error_set(err, GW_EUSAGE, "cannot search for that text; try plain words");
    }
    return GW_OK;
}

int kb_source_facts(kb *k, const char *id, kb_hit **out, size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    *out = NULL;
    *n = 0;
    /* The kb_text views give each entry the title search shows; h.row is the table's rowid. */
    int rc = prepare(k,
                     "SELECT h.kind, h.ref, h.title, NULL, 0, " HIT_GPU_SQL ", ?1 FROM ("
                     "SELECT 1 AS t, row, kind, ref, title FROM kb_text_gpu "
                     "WHERE row IN (SELECT rowid FROM gpu WHERE source = ?1) "
                     "UNION ALL SELECT 2, row, kind, ref, title FROM kb_text_benchmark "
                     "WHERE row IN (SELECT rowid FROM benchmark WHERE source = ?1) "
                     "UNION ALL SELECT 3, row, kind, ref, title FROM kb_text_price "
                     "WHERE row IN (SELECT rowid FROM price WHERE source = ?1) "
                     "UNION ALL SELECT 4, row, kind, ref, title FROM kb_text_rate "
                     "WHERE row IN (SELECT rowid FROM rate WHERE source = ?1) "
                     "UNION ALL SELECT 5, row, kind, ref, title FROM kb_text_claim "
                     "WHERE row IN (SELECT rowid FROM claim "
                     "WHERE source = ?1 OR correction_source = ?1)) h "
                     "ORDER BY h.t, h.row",
                     &st, err);
    if (rc)
        return rc;
    bind_str(st, 1, id);
    int step = read_hits(st, out, n);
    if (step != SQLITE_DONE) {
        kb_hits_free(*out, *n);
        *out = NULL;
        *n = 0;
        return db_fail(k, err, step, "reading");
    }
    return GW_OK;
}

int kb_search(kb *k, const char *query, size_t limit, kb_hit **out, size_t *n, gw_error *err)
{
    *out = NULL;
    *n = 0;
    if (!query || strlen(query) > 1000)
        return gw_error_set(err, GW_EUSAGE, "search text too long (1000 characters at most)");
    char *all = fts_query(query, " ");
    if (!all)
        return gw_error_set(err, GW_EUSAGE, "nothing to search for in '%.100s' (give a word "
                            "or a number)", query);
    int rc = search_run(k, all, limit, out, n, err);
    if (rc == GW_OK && *n == 0 && strchr(all, ' ')) {
        /* No row has every word: rank rows that have some of them. */
        char *any = fts_query(query, " OR ");
        rc = search_run(k, any, limit, out, n, err);
        free(any);
    }
    free(all);
    return rc;
}

/* ---- text form: CSV import ------------------------------------------------------------- */

typedef struct csv_rec {
    char **f;
    size_t n;
    size_t line;
} csv_rec;

typedef struct csv_section {
    int table;
    const char *name;
    int map[MAX_COLS];    /* field position -> table column */
    size_t nfields;
    csv_rec *recs;
    size_t n, cap;
} csv_section;

typedef struct import_state {
    const char *name;
    size_t line;          /* the line being fed to the parser */
    strlist fields;       /* the record being read */
    size_t rec_line;
    int at_boundary;      /* the last thing seen ended a record */
    csv_section *secs;
    size_t nsecs, cap;
    csv_section *cur;     /* the section of this text being filled */
    int failed;
    gw_error *err;
} import_state;

static void rec_free(csv_rec *r)
{
    strlist_free(r->f, r->n);
}

static void sections_free(csv_section *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < s[i].n; j++)
            rec_free(&s[i].recs[j]);
        free(s[i].recs);
    }
    free(s);
}

/* Which table a header row names (its columns, in any order, required ones present), or -1. */
static int header_table(char *const *f, size_t n, int *map)
{
    for (int t = 0; t < TB_COUNT; t++) {
        const kb_table *tb = &tables[t];
        int seen[MAX_COLS] = {0}, ok = (int)n <= tb->ncols;
        for (size_t j = 0; ok && j < n; j++) {
            int found = -1;
            for (int c = 0; c < tb->ncols; c++)
                if (f[j] && strcmp(f[j], tb->cols[c].name) == 0)
                    found = c;
            if (found < 0 || seen[found])
                ok = 0;
            else {
                seen[found] = 1;
                map[j] = found;
            }
        }
        for (int c = 0; ok && c < tb->ncols; c++)
            if ((tb->cols[c].flags & C_REQ) && !seen[c])
                ok = 0;
        if (ok)
            return t;
    }
    return -1;
}

static void import_fail(import_state *s, size_t line, const char *fmt, const char *detail)
{
    if (s->failed)
        return;
    s->failed = 1;
    gw_error_set(s->err, GW_EDATA, "%s:%zu: %s%s", s->name, line, fmt, detail ? detail : "");
}

static void on_field(void *data, size_t len, void *ctx)
{
    import_state *s = ctx;
    if (s->fields.n == 0)
        s->rec_line = s->line;
    strlist_push(&s->fields, data ? gw_xstrndup(data, len) : gw_xstrdup(""));
    s->at_boundary = 0;
}

static void on_record(int c, void *ctx)
{
    import_state *s = ctx;
    csv_rec r = {s->fields.v, s->fields.n, s->fields.n ? s->rec_line : s->line};
    int map[MAX_COLS];
    (void)c;
    memset(&s->fields, 0, sizeof s->fields);
    s->at_boundary = 1;
    if (s->failed || r.n == 0) {
        rec_free(&r);
        return;
    }
    int t = header_table(r.f, r.n, map);
    if (t >= 0) {
        if (s->nsecs == s->cap) {
            s->cap = s->cap ? s->cap * 2 : 8;
            s->secs = gw_xrealloc(s->secs, s->cap * sizeof *s->secs);
        }
        csv_section *sec = &s->secs[s->nsecs++];
        memset(sec, 0, sizeof *sec);
        sec->table = t;
        sec->name = s->name;
        sec->nfields = r.n;
        memcpy(sec->map, map, sizeof map);
        s->cur = sec;
        rec_free(&r);
        return;
    }
    if (!s->cur) {
        import_fail(s, r.line, "not a gpuwise table: the first row must be the header of "
                    "sources.csv, gpus.csv, aliases.csv, rates.csv, benchmarks.csv, prices.csv "
                    "or claims.csv (see kb/data/README.md)", NULL);
        rec_free(&r);
        return;
    }
    if (r.n != s->cur->nfields) {
        char detail[96];
        snprintf(detail, sizeof detail, "%zu fields, but the header has %zu", r.n,
                 s->cur->nfields);
        import_fail(s, r.line, detail, NULL);
        rec_free(&r);
        return;
    }
    csv_section *sec = s->cur;
    if (sec->n == sec->cap) {
        sec->cap = sec->cap ? sec->cap * 2 : 64;
        sec->recs = gw_xrealloc(sec->recs, sec->cap * sizeof *sec->recs);
    }
    sec->recs[sec->n++] = r;
}

/* Splits one text into table sections.  Lines starting with '#' between records are
 * comments; a UTF-8 byte order mark and CRLF line ends are accepted. */
static int import_parse(import_state *s, const char *text, size_t len)
{
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
        return gw_error_set(s->err, GW_ESOFTWARE, "CSV parser: out of memory");
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    if (memchr(text, '\0', len)) {
        csv_free(&p);
        return gw_error_set(s->err, GW_EDATA, "%s: a NUL byte: not a CSV text file", s->name);
    }
    s->at_boundary = 1;
    s->cur = NULL;
    s->line = 0;
    size_t pos = 0;
    while (pos < len && !s->failed) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t chunk = nl ? (size_t)(nl - (text + pos)) + 1 : len - pos;
        s->line++;
        if (s->at_boundary && text[pos] == '#') {
            pos += chunk;
            continue;
        }
        if (csv_parse(&p, text + pos, chunk, on_field, on_record, s) != chunk) {
            import_fail(s, s->line, "broken CSV quoting: ", csv_strerror(csv_error(&p)));
            break;
        }
        pos += chunk;
    }
    if (!s->failed && csv_fini(&p, on_field, on_record, s) != 0)
        import_fail(s, s->line, "broken CSV quoting: a quoted field is not closed", NULL);
    csv_free(&p);
    strlist_free(s->fields.v, s->fields.n);
    memset(&s->fields, 0, sizeof s->fields);
    if (!s->failed && !s->cur)
        import_fail(s, s->line ? s->line : 1, "no header row: not a gpuwise table", NULL);
    return s->failed ? GW_EDATA : GW_OK;
}

/* A decimal number as people write it in data files ("1527", "989.5", "1e3"); not "1,234",
 * "0x10", "inf" or "nan". */
static int parse_number(const char *text, double *out)
{
    const char *p = text;
    if (*p == '+' || *p == '-')
        p++;
    size_t digits = strspn(p, "0123456789");
    p += digits;
    if (*p == '.') {
        size_t frac = strspn(p + 1, "0123456789");
        digits += frac;
        p += 1 + frac;
    }
    if (digits == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return 0;
        p += strspn(p, "0123456789");
    }
    if (*p)
        return 0;
    *out = strtod(text, NULL);
    return isfinite(*out);
}

/* Where each key of a keyed table (sources, gpus, rates) was first given in this import: the
 * same id twice would silently keep the last row, so it is an error. */
typedef struct seen_key {
    int table;
    char *key;
    const char *name;
    size_t line;
} seen_key;

typedef struct seen_keys {
    seen_key *v;
    size_t n, cap;
} seen_keys;

static void seen_keys_free(seen_keys *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].key);
    free(s->v);
}

static int check_duplicate_key(seen_keys *seen, const csv_section *sec, const csv_rec *r,
                               gw_error *err)
{
    const kb_table *t = &tables[sec->table];
    gw_buf key = GW_BUF_INIT;
    const char *first_col = NULL;
    if (sec->table == TB_ALIAS)   /* the whole row is the key: a repeat changes nothing */
        return GW_OK;
    for (int c = 0; c < t->ncols; c++) {
        if (!(t->cols[c].flags & C_KEY))
            continue;
        for (size_t j = 0; j < r->n; j++)
            if (sec->map[j] == c) {
                buf_printf(&key, "%s%s", key.len ? "', '" : "", r->f[j]);
                if (!first_col)
                    first_col = t->cols[c].name;
            }
    }
    if (!key.len) {
        buf_free(&key);
        return GW_OK;
    }
    for (size_t i = 0; i < seen->n; i++)
        if (seen->v[i].table == sec->table && strcmp(seen->v[i].key, key.data) == 0) {
            int rc = gw_error_set(err, GW_EDATA, "%s:%zu: %s: '%s' is already given at %s:%zu",
                                  sec->name, r->line, first_col, key.data, seen->v[i].name,
                                  seen->v[i].line);
            buf_free(&key);
            return rc;
        }
    if (seen->n == seen->cap) {
        seen->cap = seen->cap ? seen->cap * 2 : 64;
        seen->v = gw_xrealloc(seen->v, seen->cap * sizeof *seen->v);
    }
    seen->v[seen->n++] = (seen_key){sec->table, buf_detach(&key), sec->name, r->line};
    return GW_OK;
}

static int import_record(kb *k, const csv_section *sec, const csv_rec *r,
                         kb_import_counts *counts, gw_error *err)
{
    const kb_table *t = &tables[sec->table];
    kb_val v[MAX_COLS];
    vals_clear(v, t->ncols);
    for (size_t j = 0; j < r->n; j++) {
        const kb_col *c = &t->cols[sec->map[j]];
        char *f = r->f[j];
        if (c->type == T_TEXT) {
            v[sec->map[j]].s = f;
            continue;
        }
        while (isspace((unsigned char)*f))
            f++;
        size_t n = strlen(f);
        while (n > 0 && isspace((unsigned char)f[n - 1]))
            f[--n] = '\0';
        if (!*f)
            continue;
        if (!parse_number(f, &v[sec->map[j]].d))
            return gw_error_set(err, GW_EDATA, "%s:%zu: %s: '%.60s' is not a number", sec->name,
                                r->line, c->name, f);
    }
    int outcome = STORED_ADDED;
    int rc = store_row(k, t, v, &outcome, err);
    if (rc) {
        if (rc == GW_EDATA)
            gw_error_prefix(err, "%s:%zu", sec->name, r->line);
        return rc;
    }
    if (counts) {
        if (outcome == STORED_ADDED)
            counts->added[sec->table]++;
        else if (outcome == STORED_UPDATED)
            counts->updated[sec->table]++;
        else
            counts->unchanged[sec->table]++;
    }
    return GW_OK;
}

const char *kb_table_name(int table)
{
    return table >= 0 && table < KB_TABLES ? tables[table].what : NULL;
}

int kb_import_texts(kb *k, size_t n, const char *const *names, const char *const *texts,
                    const size_t *lens, kb_import_counts *counts, gw_error *err)
{
    import_state s;
    int rc = GW_OK;
    memset(&s, 0, sizeof s);
    s.err = err;
    if (counts)
        memset(counts, 0, sizeof *counts);
    if ((rc = need_write(k, err)) != GW_OK)
        return rc;
    for (size_t i = 0; i < n && rc == GW_OK; i++) {
        s.name = names[i];
        rc = import_parse(&s, texts[i], lens[i]);
    }
    /* What a row refers to is stored before the row, whatever order the files came in. */
    seen_keys seen = {NULL, 0, 0};
    for (int t = 0; t < TB_COUNT && rc == GW_OK; t++)
        for (size_t i = 0; i < s.nsecs && rc == GW_OK; i++)
            if (s.secs[i].table == t)
                for (size_t j = 0; j < s.secs[i].n && rc == GW_OK; j++) {
                    rc = check_duplicate_key(&seen, &s.secs[i], &s.secs[i].recs[j], err);
                    if (rc == GW_OK)
                        rc = import_record(k, &s.secs[i], &s.secs[i].recs[j], counts, err);
                }
    seen_keys_free(&seen);
    sections_free(s.secs, s.nsecs);
    return rc;
}

int kb_import_text(kb *k, const char *name, const char *text, size_t len, gw_error *err)
{
    return kb_import_texts(k, 1, &name, &text, &len, NULL, err);
}

/* ---- text form: export ------------------------------------------------------------------ */


int kb_export(kb *k, gw_buf *out, gw_error *err)
{
    buf_printf(out, "# gpuwise knowledge base export (schema %d)\n", k->version);
    for (int t = 0; t < TB_COUNT; t++) {
        const kb_table *tb = &tables[t];
        gw_buf sql = GW_BUF_INIT;
        sqlite3_stmt *st;
        buf_printf(out, "\n# %s\n", tb->file);
        for (int c = 0; c < tb->ncols; c++)
            buf_printf(out, "%s%s", c ? "," : "", tb->cols[c].name);
        buf_putc(out, '\n');
        select_head(&sql, tb, NULL);
        /* Every column in the sort, so the order depends on the content alone. */
        buf_puts(&sql, " ORDER BY ");
        col_list(&sql, tb, "");
        int rc = prepare(k, buf_cstr(&sql), &st, err);
        buf_free(&sql);
        if (rc)
            return rc;
        int step;
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
            for (int c = 0; c < tb->ncols; c++) {
                if (c)
                    buf_putc(out, ',');
                if (sqlite3_column_type(st, c) == SQLITE_NULL)
                    continue;
                if (tb->cols[c].type == T_TEXT) {
                    buf_put_csv_field(out, (const char *)sqlite3_column_text(st, c));
                } else {
                    char num[40];
                    format_number(num, sizeof num, sqlite3_column_double(st, c));
                    buf_puts(out, num);
                }
            }
            buf_putc(out, '\n');
        }
        sqlite3_finalize(st);
        if (step != SQLITE_DONE)
            return db_fail(k, err, step, "exporting");
    }
    return GW_OK;
}

/* ---- check ------------------------------------------------------------------------------ */

static long long count_of(kb *k, const char *sql)
{
    sqlite3_stmt *st;
    long long n = -1;
    if (sqlite3_prepare_v2(k->db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

int kb_check(kb *k, gw_buf *report, gw_error *err)
{
    sqlite3_stmt *st;
    int problems = 0, rc;

    buf_printf(report, "knowledge base %s (schema %d)\n", k->path, k->version);
    if ((rc = prepare(k, "PRAGMA integrity_check", &st, err)))
        return rc;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        if (!streq(line, "ok")) {
            buf_printf(report, "problem: integrity: %s\n", line ? line : "?");
            problems++;
        }
    }
    sqlite3_finalize(st);
    if (!problems)
        buf_puts(report, "ok: integrity\n");

    int fk = 0;
    if ((rc = prepare(k, "PRAGMA foreign_key_check", &st, err)))
        return rc;
    while (sqlite3_step(st) == SQLITE_ROW) {
        buf_printf(report, "problem: %s row %lld refers to a missing %s row\n",
                   sqlite3_column_text(st, 0), (long long)sqlite3_column_int64(st, 1),
                   sqlite3_column_text(st, 2));
        fk++;
    }
    sqlite3_finalize(st);
    problems += fk;
    if (!fk)
        buf_puts(report, "ok: foreign keys\n");

    static const char *const unsourced[] = {
        "SELECT count(*) FROM gpu WHERE source NOT IN (SELECT id FROM source)",
        "SELECT count(*) FROM benchmark WHERE source NOT IN (SELECT id FROM source)",
        "SELECT count(*) FROM price WHERE source NOT IN (SELECT id FROM source)",
        "SELECT count(*) FROM rate WHERE source NOT IN (SELECT id FROM source)",
        "SELECT count(*) FROM claim WHERE source NOT IN (SELECT id FROM source)",
    };
    long long bad = 0;
    for (size_t i = 0; i < sizeof unsourced / sizeof *unsourced; i++)
        bad += count_of(k, unsourced[i]);
    long long facts = count_of(k, "SELECT (SELECT count(*) FROM gpu) + (SELECT count(*) FROM "
                                  "benchmark) + (SELECT count(*) FROM price) + (SELECT count(*) "
                                  "FROM rate) + (SELECT count(*) FROM claim)");
    if (bad) {
        buf_printf(report, "problem: %lld facts cite no known source\n", bad);
        problems++;
    } else {
        buf_printf(report, "ok: every fact cites a source (%lld facts)\n", facts);
    }

    long long indexed = count_of(k, "SELECT count(*) FROM kb_fts");
    long long expected = count_of(k, "SELECT count(*) FROM kb_text");
    if (indexed != expected) {
        buf_printf(report, "problem: search index has %lld entries, expected %lld\n", indexed,
                   expected);
        problems++;
    } else {
        buf_printf(report, "ok: search index (%lld entries)\n", indexed);
    }

    /* Two GPUs answering to one name would make resolution depend on luck. */
    if ((rc = names_load(k, err)))
        return rc;
    for (size_t i = 0; i < k->n_names; i++)
        for (size_t j = i + 1; j < k->n_names; j++)
            for (size_t a = 0; a < k->names[i].n_variants; a++)
                for (size_t b = 0; b < k->names[j].n_variants; b++)
                    if (strcmp(k->names[i].variants[a], k->names[j].variants[b]) == 0) {
                        buf_printf(report, "problem: the name '%s' fits both %s and %s\n",
                                   k->names[i].variants[a], k->names[i].id, k->names[j].id);
                        problems++;
                    }

    for (int t = 0; t < TB_COUNT; t++) {
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", tables[t].sql);
        buf_printf(report, "%s%s %lld", t ? ", " : "", tables[t].what, count_of(k, sql));
    }
    buf_putc(report, '\n');
    if (problems)
        return gw_error_set(err, GW_EDATA, "%s: %d problem%s found", k->path, problems,
                            problems == 1 ? "" : "s");
    return GW_OK;
}

int kb_gpu_aliases(kb *k, const char *id, char ***out, size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    strlist l = {0};
    *out = NULL;
    *n = 0;
    int rc = prepare(k, "SELECT alias FROM gpu_alias WHERE gpu = ?1 ORDER BY alias", &st, err);
    if (rc)
        return rc;
    bind_str(st, 1, id);
    while (sqlite3_step(st) == SQLITE_ROW)
        strlist_push(&l, col_str(st, 0));
    sqlite3_finalize(st);
    *out = l.v;
    *n = l.n;
    return GW_OK;
}

int kb_gpu_names(kb *k, char ***out, size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    strlist l = {0};
    *out = NULL;
    *n = 0;
    int rc = prepare(k, "SELECT id FROM gpu UNION SELECT alias FROM gpu_alias ORDER BY 1", &st,
                     err);
    if (rc)
        return rc;
    while (sqlite3_step(st) == SQLITE_ROW)
        strlist_push(&l, col_str(st, 0));
    sqlite3_finalize(st);
    *out = l.v;
    *n = l.n;
    return GW_OK;
}

void kb_strings_free(char **v, size_t n)
{
    strlist_free(v, n);
}
