/* kb_sql.h — the connection every kb_*.c file shares, with its statement and name caches, and
 * the SQL helpers they all use (kb_sql.c).  Only the kb_*.c files include it, and only they
 * speak SQL; user text only ever reaches SQLite as a bound parameter. */
#ifndef GW_KB_SQL_H
#define GW_KB_SQL_H

#include <sqlite3.h>

#include "kb.h"

#define KB_STMT_CACHE 48
#define KB_ROW_STATEMENTS 6   /* kb_write.c: same row, same identity, insert, update, open, pick */
#define KB_BULK_TABLES 3      /* kb_write.c: the tables kb_bulk_begin indexes at the end */
#define KB_CURSOR_POOL 8      /* kb_read.c: idle cloud-offer cursors kept prepared */

/* The statements a command runs many times, each kept prepared under a constant id
 * (kb_sql_prepare_once): no SQL text is built, and none compared, per call. */
typedef enum kb_stmt_id {
    KB_STMT_CLOUD_OFFER_ROWS,   /* kb_read.c: one offer's price rows, once per offer read */
    KB_STMT_CLOUD_NEWER,        /* kb_read.c: a newer price of the same terms, per offer */
    KB_STMT_CLOUD_ROW,          /* kb_read.c: a cursor's row read whole, per offer read */
    KB_STMT_CLOUD_OFFER,        /* kb_read.c: a cursor's row alone? older?, per offer read */
    KB_STMT_GPU_NAME_KEY,       /* kb_names.c: the GPUs with a name key, per lookup */
    KB_STMT_MODEL_NAMES,        /* kb_read.c: every model's names, per model name resolved */
    KB_STMT_IDS
} kb_stmt_id;

typedef struct gpu_names gpu_names;   /* kb_names.c */
typedef struct kb_table kb_table;     /* kb_table.h */

struct kb {
    sqlite3 *db;
    char *path;
    int writable;
    int version;
    gpu_names *names;   /* name-resolution cache (kb_names.c); NULL until needed, dropped on
                         * every write */
    size_t n_names;
    int names_direct;   /* names kb_names.c resolved by one pass over the names, without it */
    /* Statements an import runs for every row, and the reads a decision repeats (one per
     * citation), kept prepared (kb_sql_prepare_cached). */
    char *cached_sql[KB_STMT_CACHE];
    sqlite3_stmt *cached[KB_STMT_CACHE];
    size_t n_cached;
    sqlite3_stmt *once[KB_STMT_IDS];   /* kb_sql_prepare_once; NULL until first used */
    /* kb_read.c: the statements of closed cloud-offer cursors, reset, for the next cursor (a
     * decision opens one per GPU, count, spot flag and currency, a few at a time) */
    sqlite3_stmt *cursor_idle[KB_CURSOR_POOL];
    size_t n_cursor_idle;
    /* kb_read.c: kb_benchmarks_find's last answers, the oldest replaced first */
    /* Each table's row statements (kb_write.c store_row), prepared on first use. */
    sqlite3_stmt *row_st[KB_TABLES][KB_ROW_STATEMENTS];
    /* Between kb_bulk_begin and kb_bulk_end: the SQL of each insert trigger it dropped (NULL:
     * none) and its table's last rowid before. */
    char *bulk_trigger_sql[KB_BULK_TABLES];
    sqlite3_int64 bulk_from[KB_BULK_TABLES];
    int text_views;      /* kb_text_views made them on this connection */
    int matched_ready;   /* kb_write.c: the temporary table of the rows writes matched exists */
    /* kb_write.c: each table's last rowid when this transaction's matches were last forgotten;
     * every row written since is matched, so a look-up of an unmatched row stops there. */
    sqlite3_int64 matched_from[KB_TABLES];
};

/* The error for a failed SQLite call rc while doing what ("reading"): interrupted, busy, disk
 * full, read-only, damaged, or a bug.  Returns the code it set. */
int kb_sql_fail(kb *k, gw_error *err, int rc, const char *what);
int kb_sql_prepare(kb *k, const char *sql, sqlite3_stmt **st, gw_error *err);
/* The same, kept prepared for the connection's life; give it back with kb_sql_done. */
int kb_sql_prepare_cached(kb *k, const char *sql, sqlite3_stmt **st, gw_error *err);
/* Statement id, prepared on its first use from the SQL write_sql writes, then kept for the
 * connection's life (its bindings cleared for each use); give it back with kb_sql_done. */
int kb_sql_prepare_once(kb *k, kb_stmt_id id, void (*write_sql)(gw_buf *sql), sqlite3_stmt **st,
                        gw_error *err);
/* Resets a cached statement, finalizes any other. */
void kb_sql_done(kb *k, sqlite3_stmt *st);
void kb_sql_cache_free(kb *k);                   /* every kept statement, before closing */

/* kb_read.c, for the other readers (kb_models.c): runs sql (its parameters bound from params,
 * NULL ones as NULL) and collects the rows of table t, after `extra` leading columns, into an
 * array of structs of size bytes; fill (may be NULL) reads the extra columns into each. */
int kb_select_rows(kb *k, const kb_table *t, const char *sql, const char *const *params,
                   int nparams, size_t size, int extra, void (*fill)(sqlite3_stmt *st, void *obj),
                   void **out, size_t *n, gw_error *err);
/* kb_read.c: the first row of table whose `where` (one parameter, key) holds, into out (size
 * bytes; the caller owns its strings); *found says whether there was one. */
int kb_select_one(kb *k, int table, const char *where, const char *key, size_t size, void *out,
                  int *found, gw_error *err);
char *kb_sql_text(sqlite3_stmt *st, int i);      /* a copy (caller frees); NULL for NULL */
double kb_sql_number(sqlite3_stmt *st, int i);   /* NaN for NULL */
void kb_sql_bind_text(sqlite3_stmt *st, int i, const char *s);   /* NULL binds NULL */
/* GW_OK inside kb_begin/kb_commit on a writable KB with no signal pending. */
int kb_write_check(kb *k, gw_error *err);
/* Makes the kb_text views (the text each row gives the search index) on k's connection, once:
 * a reader that reads them calls it first; a writer has them from kb_open (kb_file.c). */
int kb_text_views(kb *k, gw_error *err);
int kb_streq(const char *a, const char *b);                 /* both set and equal */
int kb_in_set(const char *s, const char *const *set);       /* set is NULL-terminated */

typedef struct kb_strlist {
    char **v;
    size_t n, cap;
} kb_strlist;
void kb_strlist_push(kb_strlist *l, char *s);      /* takes s */
void kb_strlist_free(char **v, size_t n);
int kb_strlist_has(const kb_strlist *l, const char *s);

#endif
