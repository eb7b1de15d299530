/* kb_table.h — the table descriptions as the kb_*.c files see them (kb_table.c): each table's
 * CSV file, SQL table and columns, and what reads and writes derive from them.  Only the kb_*.c
 * files include it. */
#ifndef GW_KB_TABLE_H
#define GW_KB_TABLE_H

#include <sqlite3.h>

#include "base/buf.h"
#include "kb.h"

#define KB_MAX_COLS 32    /* columns in one table, at most */

typedef struct kb_table {
    const char *file;     /* the CSV file name (and the export section) */
    const char *sql;      /* the SQL table */
    const char *what;     /* for messages: "sources" */
    const kb_column *cols;
    int ncols;
    /* The rule a row must keep beyond its columns' own (NULL: none), run once every column is
     * fine; GW_EDATA with "column: problem". */
    int (*row_rule)(const kb_value *row, gw_error *err);
    /* 1: rows may share an identity (their KB_KEY columns), as a price range's two ends do; an
     * import matches them one to one (kb_write.c store_row).  0: the identity is the SQL key. */
    int shared_identity;
} kb_table;
extern const kb_table kb_tables[KB_TABLES];   /* in dependency order (enum kb_table_id) */

/* "c1, c2, ..." with each name after prefix; "SELECT extra, c1, c2 ... FROM t". */
void kb_sql_column_list(gw_buf *b, const kb_table *t, const char *prefix);
void kb_sql_select(gw_buf *b, const kb_table *t, const char *extra);
/* Fills the row struct obj from the statement's columns first.. (in table order); the strings
 * are copies, which kb_row_free_strings frees. */
void kb_row_from_sql(const kb_table *t, sqlite3_stmt *st, int first, void *obj);
void kb_row_free_strings(const kb_table *t, void *obj);

#endif
