/* kb_sql.c — the SQL helpers every kb_*.c file shares (kb_sql.h): an SQLite failure said in the
 * KB's words, statements prepared once per connection, column values copied out and text bound
 * in, the write guard, and small string lists.  It calls nothing else of the KB but the text
 * repair of kb_csv.c, so every other kb file may call it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kb_csv.h"
#include "kb_sql.h"
#include "base/signals.h"

int kb_sql_fail(kb *k, gw_error *err, int rc, const char *what)
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

int kb_sql_prepare(kb *k, const char *sql, sqlite3_stmt **st, gw_error *err)
{
    int rc = sqlite3_prepare_v2(k->db, sql, -1, st, NULL);
    if (rc != SQLITE_OK) {
        *st = NULL;
        return kb_sql_fail(k, err, rc, "query");
    }
    return GW_OK;
}

/* Compiling an INSERT (with the full-text triggers it carries) costs more than running it, so
 * the statements every imported row runs are prepared once per connection, keyed by their SQL.
 * Give them back with kb_sql_done (which resets a cached one and finalizes any other). */
int kb_sql_prepare_cached(kb *k, const char *sql, sqlite3_stmt **st, gw_error *err)
{
    for (size_t i = 0; i < k->n_cached; i++)
        if (strcmp(k->cached_sql[i], sql) == 0) {
            *st = k->cached[i];
            sqlite3_clear_bindings(*st);
            return GW_OK;
        }
    int rc = kb_sql_prepare(k, sql, st, err);
    if (rc == GW_OK && k->n_cached < KB_STMT_CACHE) {
        k->cached_sql[k->n_cached] = gw_xstrdup(sql);
        k->cached[k->n_cached++] = *st;
    }
    return rc;
}

int kb_sql_prepare_once(kb *k, kb_stmt_id id, void (*write_sql)(gw_buf *sql), sqlite3_stmt **st,
                        gw_error *err)
{
    if (k->once[id]) {
        *st = k->once[id];
        sqlite3_clear_bindings(*st);
        return GW_OK;
    }
    gw_buf sql = GW_BUF_INIT;
    write_sql(&sql);
    int rc = kb_sql_prepare(k, buf_cstr(&sql), st, err);
    buf_free(&sql);
    if (rc == GW_OK)
        k->once[id] = *st;
    return rc;
}

void kb_sql_done(kb *k, sqlite3_stmt *st)
{
    for (size_t i = 0; i < KB_STMT_IDS; i++)
        if (k->once[i] == st) {
            sqlite3_reset(st);
            return;
        }
    for (size_t i = 0; i < k->n_cached; i++)
        if (k->cached[i] == st) {
            sqlite3_reset(st);
            return;
        }
    sqlite3_finalize(st);
}

void kb_sql_cache_free(kb *k)
{
    for (size_t i = 0; i < k->n_cached; i++) {
        sqlite3_finalize(k->cached[i]);
        free(k->cached_sql[i]);
    }
    k->n_cached = 0;
    for (size_t i = 0; i < KB_STMT_IDS; i++) {
        sqlite3_finalize(k->once[i]);
        k->once[i] = NULL;
    }
    for (size_t i = 0; i < k->n_cursor_idle; i++)
        sqlite3_finalize(k->cursor_idle[i]);
    k->n_cursor_idle = 0;
}

char *kb_sql_text(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? kb_text_repair((const char *)s) : NULL;
}

double kb_sql_number(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

void kb_sql_bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

int kb_write_check(kb *k, gw_error *err)
{
    if (!k->writable || sqlite3_get_autocommit(k->db))
        return gw_error_set(err, GW_ESOFTWARE, "knowledge base write outside kb_begin/kb_commit");
    if (gw_signal_pending())
        return kb_sql_fail(k, err, SQLITE_INTERRUPT, "writing");
    return GW_OK;
}

int kb_streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

int kb_in_set(const char *s, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(s, *set) == 0)
            return 1;
    return 0;
}

void kb_strlist_push(kb_strlist *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->v = gw_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = s;
}

void kb_strlist_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

int kb_strlist_has(const kb_strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return 1;
    return 0;
}
