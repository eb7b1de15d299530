/* kb_private.h — what the kb_*.c files share and nothing outside them sees: the connection with
 * its statement and name caches, the SQL helpers, and the table descriptions' internals.  Only
 * the kb_*.c files include it, and only they speak SQL. */
#ifndef GW_KB_PRIVATE_H
#define GW_KB_PRIVATE_H

#include <sqlite3.h>

#include "base/buf.h"
#include "kb.h"

#define KB_STMT_CACHE 48
#define KB_MAX_COLS 32    /* columns in one table, at most */
#define KB_ROW_STATEMENTS 4   /* kb_table.c: same row, same key, insert, upsert */
#define KB_BULK_TABLES 3      /* kb_table.c: the tables kb_bulk_begin indexes at the end */

typedef struct gpu_names gpu_names;   /* kb_names.c */

struct kb {
    sqlite3 *db;
    char *path;
    int writable;
    int version;
    gpu_names *names;   /* name-resolution cache; NULL until needed, dropped on every write */
    size_t n_names;
    /* Statements an import runs for every row, and the reads a decision repeats (one per
     * citation), kept prepared (kb_sql_prepare_cached). */
    char *cached_sql[KB_STMT_CACHE];
    sqlite3_stmt *cached[KB_STMT_CACHE];
    size_t n_cached;
    /* Each table's row statements (kb_table.c store_row), prepared on first use. */
    sqlite3_stmt *row_st[KB_TABLES][KB_ROW_STATEMENTS];
    /* Between kb_bulk_begin and kb_bulk_end: the SQL of each insert trigger it dropped (NULL:
     * none) and its table's last rowid before. */
    char *bulk_trigger_sql[KB_BULK_TABLES];
    sqlite3_int64 bulk_from[KB_BULK_TABLES];
};

/* ---- kb.c: SQL helpers and small pieces every kb file uses ---- */

/* The error for a failed SQLite call rc while doing what ("reading"): interrupted, busy, disk
 * full, read-only, damaged, or a bug.  Returns the code it set. */
int kb_sql_fail(kb *k, gw_error *err, int rc, const char *what);
int kb_sql_prepare(kb *k, const char *sql, sqlite3_stmt **st, gw_error *err);
/* The same, kept prepared for the connection's life; give it back with kb_sql_done. */
int kb_sql_prepare_cached(kb *k, const char *sql, sqlite3_stmt **st, gw_error *err);
/* Resets a cached statement, finalizes any other. */
void kb_sql_done(kb *k, sqlite3_stmt *st);
char *kb_sql_text(sqlite3_stmt *st, int i);      /* a copy (caller frees); NULL for NULL */
double kb_sql_number(sqlite3_stmt *st, int i);   /* NaN for NULL */
void kb_sql_bind_text(sqlite3_stmt *st, int i, const char *s);   /* NULL binds NULL */
/* GW_OK inside kb_begin/kb_commit on a writable KB with no signal pending. */
int kb_write_check(kb *k, gw_error *err);
int kb_streq(const char *a, const char *b);                 /* both set and equal */
int kb_in_set(const char *s, const char *const *set);       /* set is NULL-terminated */

typedef struct kb_strlist {
    char **v;
    size_t n, cap;
} kb_strlist;
void kb_strlist_push(kb_strlist *l, char *s);      /* takes s */
void kb_strlist_free(char **v, size_t n);
int kb_strlist_has(const kb_strlist *l, const char *s);

/* ---- kb_table.c: the descriptions ---- */

typedef struct kb_table {
    const char *file;     /* the CSV file name (and the export section) */
    const char *sql;      /* the SQL table */
    const char *what;     /* for messages: "sources" */
    const kb_column *cols;
    int ncols;
    /* The rule a row must keep beyond its columns' own (NULL: none), run once every column is
     * fine; GW_EDATA with "column: problem". */
    int (*row_rule)(const kb_value *row, gw_error *err);
} kb_table;
extern const kb_table kb_tables[KB_TABLES];   /* in dependency order (enum kb_table_id) */

/* "c1, c2, ..." with each name after prefix; "SELECT extra, c1, c2 ... FROM t". */
void kb_sql_column_list(gw_buf *b, const kb_table *t, const char *prefix);
void kb_sql_select(gw_buf *b, const kb_table *t, const char *extra);
/* Fills the row struct obj from the statement's columns first.. (in table order); frees the
 * strings it copied. */
void kb_row_from_sql(const kb_table *t, sqlite3_stmt *st, int first, void *obj);
void kb_row_free_strings(const kb_table *t, void *obj);
/* One report line per difference between the open KB's tables and their descriptions; returns
 * their number. */
int kb_schema_problems(kb *k, gw_buf *report);
void kb_row_statements_free(kb *k);   /* before closing */
void kb_bulk_forget(kb *k);           /* after a rollback, and before closing */

/* ---- kb_names.c: the name-resolution cache ---- */

int kb_names_load(kb *k, gw_error *err);   /* builds it when missing */
void kb_names_drop(kb *k);                 /* after every write */
/* One report line per name two GPUs answer to; returns their number, -1 (err set) when the
 * names cannot be read. */
int kb_names_clashes(kb *k, gw_buf *report, gw_error *err);

#endif
