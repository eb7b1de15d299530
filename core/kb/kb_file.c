/* kb_file.c — the knowledge base file: opening it (refusing foreign files untouched),
 * migrating its schema forward and making the connection's own views and triggers (the search
 * index's, kept out of the file so that a reader parses none), transactions, interrupting
 * running statements, and closing it with every cache the other kb files keep on the
 * connection.  It stands above them all.
 *   kb_sql.c    the connection's SQL helpers, which every kb file uses
 *   kb_table.c  the table descriptions
 *   kb_write.c  validated writes
 *   kb_read.c   reads of rows into their structs
 *   kb_names.c  GPU name resolution
 *   kb_filter.c the --where language
 *   kb_search.c FTS5 search
 *   kb_text.c   the CSV text form (import and export)
 *   kb_check.c  the integrity check */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "kb.h"
#include "kb_names.h"
#include "kb_schema.h"
#include "base/limits.h"
#include "kb_sql.h"
#include "kb_write.h"
#include "base/signals.h"

#define KB_APPLICATION_ID 0x47505557   /* "GPUW" */

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

/* ---- opening, schema, migrations --------------------------------------------------------- */

/* The schema text is a series of "-- version N" sections, each header optionally labelled
 * ("-- version 12 (benchmark)"): consecutive sections of one N are one version, so parts of a
 * version written apart join.  1 when the line at p is such a header, with its N in *v. */
static int version_header(const char *p, int *v)
{
    if (strncmp(p, "-- version ", 11) != 0)
        return 0;
    size_t digits = strspn(p + 11, "0123456789");
    const char *tail = p + 11 + digits;
    if (digits == 0 || digits > 6 || !(*tail == '\n' || (tail[0] == ' ' && tail[1] == '(')))
        return 0;
    *v = atoi(p + 11);
    return 1;
}

/* The "-- connection (NAME)" sections end the text: what connections make for themselves
 * (connection_make), never part of a version. */
#define CONNECTION_HEADER "-- connection ("

/* The start of section v (or NULL) and its length. */
static const char *schema_section(int v, size_t *len)
{
    const char *p = kb_schema_sql, *start = NULL;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t linelen = eol ? (size_t)(eol - p) : strlen(p);
        int n;
        if (strncmp(p, CONNECTION_HEADER, strlen(CONNECTION_HEADER)) == 0) {
            if (start) {
                *len = (size_t)(p - start);
                return start;
            }
            break;
        }
        if (version_header(p, &n)) {
            if (start && n != v) {
                *len = (size_t)(p - start);
                return start;
            }
            if (n == v && !start)
                start = p;
        }
        p += linelen + (eol ? 1 : 0);
    }
    if (start)
        *len = (size_t)(p - start);
    return start;
}

/* The latest version: the last of sections 1, 2, ... with none missing.  Read in one pass over
 * the text, once: asking schema_section for each version in turn read the text once per
 * version, a ninth of `kb show`'s instructions. */
static int schema_latest(void)
{
    static int latest = -1;
    enum { VERSIONS_MAX = 4096 };
    static unsigned char seen[VERSIONS_MAX + 2];
    if (latest >= 0)
        return latest;
    for (const char *p = strstr(kb_schema_sql, "-- version "); p; p = strstr(p + 1, "-- version ")) {
        int n;   /* a header starts a line */
        if ((p == kb_schema_sql || p[-1] == '\n') && version_header(p, &n) && n <= VERSIONS_MAX)
            seen[n] = 1;
    }
    latest = 0;
    while (seen[latest + 1])
        latest++;
    return latest;
}

/* The text of the connection section named name ("views", "writes"), to the next section or
 * the end, copied (caller frees); NULL when there is none. */
static char *connection_section(const char *name)
{
    gw_buf header = GW_BUF_INIT;
    buf_printf(&header, "\n" CONNECTION_HEADER "%s)\n", name);
    const char *start = strstr(kb_schema_sql, buf_cstr(&header));
    buf_free(&header);
    if (!start)
        return NULL;
    start++;
    const char *end = strstr(start + 1, "\n" CONNECTION_HEADER);
    return gw_xstrndup(start, end ? (size_t)(end - start + 1) : strlen(start));
}

/* Makes the connection section name on k's connection.  A reader's connection refuses every
 * write, its own TEMP objects too (query_only), so it allows them for this one; its file stays
 * read-only (opened with mode=ro). */
static int connection_make(kb *k, const char *name, gw_error *err)
{
    char *sql = connection_section(name);
    if (!sql)
        return gw_error_set(err, GW_ESOFTWARE, "no connection section '%s' in the schema", name);
    if (!k->writable)
        sqlite3_exec(k->db, "PRAGMA query_only = 0", NULL, NULL, NULL);
    int rc = sqlite3_exec(k->db, sql, NULL, NULL, NULL);
    if (!k->writable)
        sqlite3_exec(k->db, "PRAGMA query_only = 1", NULL, NULL, NULL);
    free(sql);
    return rc == SQLITE_OK ? GW_OK : kb_sql_fail(k, err, rc, "preparing the connection");
}

int kb_text_views(kb *k, gw_error *err)
{
    if (k->text_views)
        return GW_OK;
    int rc = connection_make(k, "views", err);
    k->text_views = rc == GW_OK;
    return rc;
}

/* gw_name_key(text): the text normalised as name resolution compares names (kb_name_norm);
 * '' for NULL.  The name keys (kb/schema.sql version 18) are made with it. */
static void sql_name_key(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const unsigned char *text = sqlite3_value_text(argv[0]);
    char *key = kb_name_norm(text ? (const char *)text : "");
    sqlite3_result_text(ctx, key, -1, free);
}

static int register_functions(sqlite3 *db)
{
    return sqlite3_create_function(db, "gw_name_key", 1,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, NULL,
                                   sql_name_key, NULL, NULL);
}

static int busy_timeout_ms(void)
{
    double ms;   /* main.c has refused a malformed value (gw_env_check) */
    gw_env_number(GW_ENV_BUSY_TIMEOUT_MS, &ms, NULL);
    return (int)ms;
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
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX |
                                          SQLITE_OPEN_NOFOLLOW,
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
        return kb_sql_fail(k, err, rc, "starting the schema upgrade");
    int from = 0;
    rc = pragma_int(k->db, "PRAGMA user_version", &from);   /* another process may have won */
    for (int v = from + 1; rc == SQLITE_OK && v <= latest; v++) {
        size_t len = 0;   /* every section to latest is there (schema_latest) */
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
        int code = kb_sql_fail(k, err, rc, "upgrading the schema");
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

/* What is at path before anything is opened: *create when the KB is to be made (nothing there,
 * or an empty file, with KB_CREATE).  A folder, a device, FIFO or socket, a missing file without
 * KB_CREATE and a file that is not SQLite are refused. */
static int open_precheck(const char *path, int flags, int *create, gw_error *err)
{
    struct stat st;
    *create = 0;
    if (!path || !*path)
        return gw_error_set(err, GW_EUSAGE, "no knowledge base file given");
    if (stat(path, &st) != 0) {
        if (errno != ENOENT || flags != KB_CREATE)
            return gw_error_set(err, GW_ENOINPUT, "%s: no such knowledge base (%s)", path,
                                strerror(errno));
        *create = 1;
    } else if (S_ISDIR(st.st_mode)) {
        return gw_error_set(err, GW_EDATA, "%s: is a folder, not a knowledge base", path);
    } else if (!S_ISREG(st.st_mode)) {   /* SQLite would write a journal beside a device */
        return gw_error_set(err, GW_EDATA, "%s: a device, FIFO or socket, not a knowledge base; "
                            "left untouched", path);
    } else if (st.st_size == 0) {
        if (flags != KB_CREATE)
            return gw_error_set(err, GW_EDATA, "%s: empty file, not a gpuwise knowledge base",
                                path);
        *create = 1;
    } else if (!looks_like_sqlite(path, st.st_size)) {
        return gw_error_set(err, GW_EDATA,
                            "%s: not a gpuwise knowledge base (not an SQLite database); "
                            "left unchanged", path);
    }
    return GW_OK;
}

/* Reads an existing SQLite file's application id, schema version and (where the id is not
 * gpuwise's) object count through a read-only connection that keeps one read transaction (*db,
 * open on success). */
static int open_look(const char *path, sqlite3 **db, int *app_id, int *version, int *objects,
                     gw_error *err)
{
    int rc = open_readonly(path, db);
    if (rc == SQLITE_OK)   /* a writer checkpointing as it closes holds the file briefly */
        rc = sqlite3_busy_timeout(*db, busy_timeout_ms());
    /* A reader keeps one read transaction until it closes: every query sees the same KB, and
     * SQLite looks at the file and the WAL once rather than at every statement (four system
     * calls each). */
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(*db, "BEGIN", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = pragma_int(*db, "PRAGMA application_id", app_id);
    if (rc == SQLITE_OK)
        rc = pragma_int(*db, "PRAGMA user_version", version);
    if (rc == SQLITE_OK && *app_id != KB_APPLICATION_ID)   /* an empty file to make a KB of? */
        rc = pragma_int(*db, "SELECT count(*) FROM sqlite_master", objects);
    if (rc == SQLITE_OK)
        return GW_OK;
    int busy = rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
    gw_error_set(err, busy ? GW_EBUSY : GW_EDATA, busy ?
                 "knowledge base busy: another program is writing %s" :
                 "%s: not a readable knowledge base: %s", path, sqlite3_errmsg(*db));
    sqlite3_close(*db);
    *db = NULL;
    return err ? err->code : (busy ? GW_EBUSY : GW_EDATA);
}

/* Looks before writing anything, so a foreign file is refused untouched: an SQLite file of
 * another program, or of a newer gpuwise; an older schema only where it can be upgraded (not
 * KB_READ: a reader reads the columns of the latest schema, version 19's price columns among
 * them, which an older file lacks).  *db stays open for KB_READ (the reader's connection); *create when the file is an
 * empty SQLite database to initialise. */
static int open_existing(const char *path, int flags, int latest, sqlite3 **db, int *version,
                         int *create, gw_error *err)
{
    int app_id = 0, objects = 0;
    int rc = open_look(path, db, &app_id, version, &objects, err);
    if (rc != GW_OK)
        return rc;
    if (app_id != KB_APPLICATION_ID && app_id == 0 && objects == 0 && flags == KB_CREATE)
        *create = 1;
    else if (app_id != KB_APPLICATION_ID)
        rc = gw_error_set(err, GW_EDATA, "%s: not a gpuwise knowledge base (an SQLite database "
                          "of another program); left unchanged", path);
    else if (*version > latest)
        rc = gw_error_set(err, GW_EDATA, "%s: knowledge base schema %d is newer than this "
                          "gpuwise understands (%d); update gpuwise", path, *version, latest);
    else if (flags == KB_READ && *version < latest)
        rc = gw_error_set(err, GW_EDATA, "%s: knowledge base schema %d is older than this "
                          "gpuwise's (%d); upgrade it with `gpuwise --kb %s kb upgrade`", path,
                          *version, latest, path);
    else if (flags == KB_READ)
        return GW_OK;
    sqlite3_close(*db);
    *db = NULL;
    return rc;
}

/* The read-write connection to file (k->path, resolved): foreign keys on, WAL, and the schema
 * made or migrated.  SQLITE_OPEN_NOFOLLOW: a link put at file since it was resolved is refused. */
static int open_writable(kb *k, const char *file, int create, int latest, gw_error *err)
{
    int rc = sqlite3_open_v2(file, &k->db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW |
                                 (create ? SQLITE_OPEN_CREATE : 0),
                             NULL);
    if (rc != SQLITE_OK)
        return gw_error_set(err, rc == SQLITE_CANTOPEN ? GW_ECANTCREAT : GW_EDATA,
                            "%s: cannot open the knowledge base: %s", k->path,
                            k->db ? sqlite3_errmsg(k->db) : sqlite3_errstr(rc));
    k->writable = 1;
    open_dbs_set(NULL, k->db);
    sqlite3_busy_timeout(k->db, busy_timeout_ms());
    rc = sqlite3_exec(k->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = set_wal(k->db);
    if (rc == SQLITE_OK)
        rc = register_functions(k->db);
    if (rc != SQLITE_OK)
        return kb_sql_fail(k, err, rc, "opening");
    int code = create || k->version < latest ? migrate(k, latest, err) : GW_OK;
    if (code == GW_OK)   /* outside any transaction: a rollback would take them away */
        code = kb_text_views(k, err);
    if (code == GW_OK)
        code = connection_make(k, "writes", err);
    return code;
}

int kb_open(const char *path, int flags, kb **out, gw_error *err)
{
    int create = 0, version = 0, latest = schema_latest();
    sqlite3 *db = NULL;
    char *file = NULL;

    *out = NULL;
    sqlite_configure();
    /* Every file operation below is on file: path with its links resolved, none of them planted
     * by another user (buf.h), so path itself where it goes through no link. */
    int rc = path && *path ? gw_path_resolve_safe(path, &file, err) : GW_OK;
    if (rc == GW_OK)
        rc = open_precheck(file, flags, &create, err);
    if (rc == GW_OK && !create)
        rc = open_existing(file, flags, latest, &db, &version, &create, err);
    if (rc != GW_OK) {
        free(file);
        return rc;
    }

    kb *k = gw_xcalloc(1, sizeof *k);
    k->path = gw_xstrdup(path);
    k->version = version;
    if (db) {
        k->db = db;
        sqlite3_busy_timeout(db, busy_timeout_ms());
        sqlite3_exec(db, "PRAGMA query_only = 1", NULL, NULL, NULL);
        register_functions(db);   /* kb check compares the name keys with it */
        open_dbs_set(NULL, db);
        *out = k;
        free(file);
        return GW_OK;
    }
    rc = open_writable(k, file, create, latest, err);
    free(file);
    if (rc != GW_OK) {
        kb_close(k);
        return rc;
    }
    *out = k;
    return GW_OK;
}

void kb_close(kb *k)
{
    if (!k)
        return;
    kb_names_drop(k);
    kb_row_statements_free(k);
    kb_bulk_forget(k);
    kb_sql_cache_free(k);
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
        return kb_sql_fail(k, err, rc, "starting a write");
    kb_names_drop(k);
    kb_write_begin(k);
    return GW_OK;
}

int kb_commit(kb *k, gw_error *err)
{
    if (gw_signal_pending()) {   /* stopped before the end: keep the KB as it was */
        kb_rollback(k);
        return kb_sql_fail(k, err, SQLITE_INTERRUPT, "committing");
    }
    int rc = sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        int code = kb_sql_fail(k, err, rc, "committing");
        kb_rollback(k);
        return code;
    }
    return GW_OK;
}

void kb_rollback(kb *k)
{
    if (!sqlite3_get_autocommit(k->db))
        sqlite3_exec(k->db, "ROLLBACK", NULL, NULL, NULL);
    kb_names_drop(k);
    kb_bulk_forget(k);
}
