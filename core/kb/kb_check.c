/* kb_check.c — `kb check`: SQLite's integrity and foreign-key checks, every fact citing a known
 * source, the search index's size, the SQL tables against their descriptions (kb_table.c), and
 * no name answering for two GPUs (kb_names.c); then each table's row count. */
#include <stdio.h>

#include <sqlite3.h>

#include "kb.h"
#include "kb_names.h"
#include "kb_sql.h"
#include "kb_table.h"

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

/* PRAGMA integrity_check: one line per problem SQLite finds. */
static int check_integrity(kb *k, gw_buf *report, int *problems, gw_error *err)
{
    sqlite3_stmt *st;
    int found = 0, rc = kb_sql_prepare(k, "PRAGMA integrity_check", &st, err);
    if (rc)
        return rc;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        if (!kb_streq(line, "ok")) {
            buf_printf(report, "problem: integrity: %s\n", line ? line : "?");
            found++;
        }
    }
    sqlite3_finalize(st);
    if (!found)
        buf_puts(report, "ok: integrity\n");
    *problems += found;
    return GW_OK;
}

static int check_foreign_keys(kb *k, gw_buf *report, int *problems, gw_error *err)
{
    sqlite3_stmt *st;
    int found = 0, rc = kb_sql_prepare(k, "PRAGMA foreign_key_check", &st, err);
    if (rc)
        return rc;
    while (sqlite3_step(st) == SQLITE_ROW) {
        buf_printf(report, "problem: %s row %lld refers to a missing %s row\n",
                   sqlite3_column_text(st, 0), (long long)sqlite3_column_int64(st, 1),
                   sqlite3_column_text(st, 2));
        found++;
    }
    sqlite3_finalize(st);
    if (!found)
        buf_puts(report, "ok: foreign keys\n");
    *problems += found;
    return GW_OK;
}

/* Every fact (a row of a table with a source column) cites a source the KB has. */
static int check_sources(kb *k, gw_buf *report)
{
    long long bad = 0, facts = 0;
    for (int t = 0; t < KB_TABLES; t++) {
        const kb_column *source = kb_table_column(t, "source");
        char sql[160];
        if (!source || !(source->flags & KB_CITES))
            continue;
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE source NOT IN "
                 "(SELECT id FROM source)", kb_tables[t].sql);
        bad += count_of(k, sql);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", kb_tables[t].sql);
        facts += count_of(k, sql);
    }
    if (bad) {
        buf_printf(report, "problem: %lld facts cite no known source\n", bad);
        return 1;
    }
    buf_printf(report, "ok: every fact cites a source (%lld facts)\n", facts);
    return 0;
}

/* The FTS5 index has one entry per row of the kb_text view (the writers' triggers keep it). */
static int check_search_index(kb *k, gw_buf *report)
{
    if (kb_text_views(k, NULL) != GW_OK) {
        buf_puts(report, "problem: cannot make the search index's views\n");
        return 1;
    }
    long long indexed = count_of(k, "SELECT count(*) FROM kb_fts");
    long long expected = count_of(k, "SELECT count(*) FROM kb_text");
    if (indexed != expected) {
        buf_printf(report, "problem: search index has %lld entries, expected %lld\n", indexed,
                   expected);
        return 1;
    }
    buf_printf(report, "ok: search index (%lld entries)\n", indexed);
    return 0;
}

/* Every GPU's names as gw_name_key makes them: what the name keys (schema version 18) hold. */
#define NAME_KEYS_OF_NAMES                                                                  \
    "SELECT * FROM (SELECT gw_name_key(id) AS name_key, id AS gpu FROM gpu "               \
    "UNION SELECT gw_name_key(name), id FROM gpu "                                          \
    "UNION SELECT gw_name_key(alias), gpu FROM gpu_alias) WHERE name_key <> ''"

/* A key missing would leave a name to the slow path, one too many would resolve a name no GPU
 * has: both come from a GPU or alias written behind gpuwise's back (the sqlite3 shell). */
static int check_name_keys(kb *k, gw_buf *report)
{
    long long missing = count_of(k, "SELECT count(*) FROM (" NAME_KEYS_OF_NAMES
                                    " EXCEPT SELECT name_key, gpu FROM gpu_name_key)");
    long long extra = count_of(k, "SELECT count(*) FROM (SELECT name_key, gpu FROM gpu_name_key"
                                  " EXCEPT " NAME_KEYS_OF_NAMES ")");
    if (missing != 0 || extra != 0) {
        buf_printf(report, "problem: the name keys differ from the GPUs' names (%lld missing, "
                   "%lld of no name: a GPU or alias written other than through gpuwise)\n",
                   missing, extra);
        return 1;
    }
    buf_puts(report, "ok: name keys\n");
    return 0;
}

/* The SQL type a column of each kb_type has in kb/schema.sql. */
static const char *sql_type(kb_type type)
{
    return type == KB_TEXT ? "TEXT" : type == KB_NUMBER ? "REAL" : "INTEGER";
}

/* What differs between a column of the schema (name, SQL type, NOT NULL) and the column the
 * description has in its place (NULL: none); a line in report, and 1, when something does. */
static int column_problem(gw_buf *report, const kb_table *tb, const char *name,
                          const char *type, int notnull, const kb_column *col)
{
    int nullable = col && !(col->flags & (KB_REQUIRED | KB_DEFAULT_ONE | KB_DEFAULT_ZERO));
    name = name ? name : "?";
    if (!col)
        buf_printf(report, "problem: %s.%s: in the schema but not in the description\n",
                   tb->sql, name);
    else if (!kb_streq(name, col->name))
        buf_printf(report, "problem: %s.%s: in the schema where the description has %s\n",
                   tb->sql, name, col->name);
    else if (!kb_streq(type, sql_type(col->type)))
        buf_printf(report, "problem: %s.%s: %s in the schema, %s in the description\n", tb->sql,
                   name, type ? type : "?", sql_type(col->type));
    else if (notnull == nullable)
        buf_printf(report, "problem: %s.%s: %s in the schema, %s in the description\n", tb->sql,
                   name, notnull ? "NOT NULL" : "nullable", nullable ? "optional" : "required");
    else
        return 0;
    return 1;
}

/* Compares each table of the open KB with its description: the same columns in the same order
 * (a table's INTEGER PRIMARY KEY row number aside), each of the described SQL type, NOT NULL
 * exactly when the column is required or has a default. */
static int schema_problems(kb *k, gw_buf *report)
{
    int problems = 0;
    for (int t = 0; t < KB_TABLES; t++) {
        const kb_table *tb = &kb_tables[t];
        sqlite3_stmt *st;
        int c = 0;
        if (kb_sql_prepare(k, "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1)",
                           &st, NULL) != GW_OK)
            return problems + 1;
        kb_sql_bind_text(st, 1, tb->sql);
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(st, 0);
            const char *type = (const char *)sqlite3_column_text(st, 1);
            if (sqlite3_column_int(st, 3) && kb_streq(type, "INTEGER") && kb_streq(name, "id") &&
                !kb_table_column(t, "id"))
                continue;   /* the row number of a table without a key of its own */
            problems += column_problem(report, tb, name, type, sqlite3_column_int(st, 2),
                                       c < tb->ncols ? &tb->cols[c] : NULL);
            c += c < tb->ncols;
        }
        sqlite3_finalize(st);
        if (c < tb->ncols) {
            buf_printf(report, "problem: %s.%s: described but not in the schema\n", tb->sql,
                       tb->cols[c].name);
            problems++;
        }
    }
    return problems;
}

/* Rows whose GPU count is not a whole number from 1 to KB_GPU_COUNT_MAX: imports refuse them, so
 * only a file changed outside gpuwise holds one (reads bound it, kb_table.c).  Returns how many
 * tables have such rows, one line each. */
static int check_gpu_counts(kb *k, gw_buf *report)
{
    int found = 0;
    for (int t = 0; t < KB_TABLES; t++) {
        if (!kb_table_column(t, "gpu_count"))
            continue;
        char sql[192];
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM %s WHERE gpu_count IS NOT NULL AND (gpu_count < 1 OR "
                 "gpu_count > %d OR gpu_count <> CAST(gpu_count AS INTEGER))",
                 kb_tables[t].sql, KB_GPU_COUNT_MAX);
        long long n = count_of(k, sql);
        if (n > 0) {
            buf_printf(report, "%s: %lld row%s with a GPU count that is not a whole number from 1 "
                       "to %d\n", kb_tables[t].sql, n, n == 1 ? "" : "s", KB_GPU_COUNT_MAX);
            found++;
        }
    }
    return found;
}

int kb_check(kb *k, gw_buf *report, gw_error *err)
{
    int problems = 0, rc;
    buf_printf(report, "knowledge base %s (schema %d)\n", k->path, k->version);
    if ((rc = check_integrity(k, report, &problems, err)) ||
        (rc = check_foreign_keys(k, report, &problems, err)))
        return rc;
    problems += check_sources(k, report);
    problems += check_search_index(k, report);
    problems += check_name_keys(k, report);
    problems += check_gpu_counts(k, report);
    /* A column added to schema.sql but not to its description (or the reverse) would be
     * silently left out of imports and exports: only a difference is reported. */
    problems += schema_problems(k, report);
    /* Two GPUs answering to one name would make resolution depend on luck. */
    int clashes = kb_names_clashes(k, report, err);
    if (clashes < 0)
        return err->code;
    problems += clashes;

    for (int t = 0; t < KB_TABLES; t++) {
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", kb_tables[t].sql);
        buf_printf(report, "%s%s %lld", t ? ", " : "", kb_tables[t].what, count_of(k, sql));
    }
    buf_putc(report, '\n');
    if (problems)
        return gw_error_set(err, GW_EDATA, "%s: %d problem%s found", k->path, problems,
                            problems == 1 ? "" : "s");
    return GW_OK;
}
