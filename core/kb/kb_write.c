/* kb_write.c — the validated writes: a row checked against its table's description (each
 * value, then the rows it names, then the table's own rule), stored through statements kept
 * prepared per table, the row structs' puts, and a bulk import's full-text entries made in one
 * statement at its end.  Every write runs inside kb_begin/kb_commit. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kb.h"
#include "kb_names.h"
#include "kb_sql.h"
#include "kb_table.h"
#include "kb_write.h"

/* ---- checks: each value, the rows it names, the table's own rule ------------------------- */

/* An empty value takes its column's default; empty text is no text. */
static void value_default(const kb_column *c, kb_value *v)
{
    if (c->type == KB_TEXT) {
        if (v->text && !*v->text)
            v->text = NULL;
    } else if (isnan(v->number)) {
        if (c->flags & KB_DEFAULT_ONE)
            v->number = 1;
        else if (c->flags & KB_DEFAULT_ZERO)
            v->number = 0;
    }
}

static int row_exists(kb *k, const char *sql, const char *id, int *found, gw_error *err)
{
    sqlite3_stmt *st;
    int rc = kb_sql_prepare_cached(k, sql, &st, err);
    if (rc)
        return rc;
    kb_sql_bind_text(st, 1, id);
    int step = sqlite3_step(st);
    *found = step == SQLITE_ROW;
    kb_sql_done(k, st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return kb_sql_fail(k, err, step, "reading");
    return GW_OK;
}

/* A price kind must be one of the KB's price_kind rows; the refusal names them, best first,
 * as the KB has them. */
static int price_kind_check(kb *k, const kb_column *c, const char *id, gw_error *err)
{
    int found = 0;
    int rc = row_exists(k, "SELECT 1 FROM price_kind WHERE id = ?1", id, &found, err);
    if (rc != GW_OK || found)
        return rc;
    sqlite3_stmt *st;
    rc = kb_sql_prepare_cached(k, "SELECT group_concat(id, ', ') FROM "
                               "(SELECT id FROM price_kind ORDER BY rank)", &st, err);
    if (rc != GW_OK)
        return rc;
    int step = sqlite3_step(st);
    char *kinds = step == SQLITE_ROW ? kb_sql_text(st, 0) : NULL;
    kb_sql_done(k, st);
    if (step != SQLITE_ROW)
        return kb_sql_fail(k, err, step, "reading");
    rc = gw_error_set(err, GW_EDATA, "%s: '%.80s' is not one of: %s", c->name, id,
                      kinds ? kinds : "(the knowledge base has no price kinds)");
    free(kinds);
    return rc;
}

/* The row a KB_CITES, KB_NAMES_GPU, KB_NAMES_SYSTEM or KB_NAMES_PRICE_KIND value names must
 * exist. */
static int reference_check(kb *k, const kb_column *c, const char *id, gw_error *err)
{
    int found = 0;
    const char *sql = "SELECT 1 FROM source WHERE id = ?1", *what = "source";
    if (c->flags & KB_NAMES_PRICE_KIND)
        return price_kind_check(k, c, id, err);
    if (c->flags & KB_NAMES_GPU) {
        sql = "SELECT 1 FROM gpu WHERE id = ?1";
        what = "GPU";
    } else if (c->flags & KB_NAMES_SYSTEM) {
        sql = "SELECT 1 FROM system WHERE id = ?1";
        what = "system";
    }
    int rc = row_exists(k, sql, id, &found, err);
    if (rc == GW_OK && !found)
        rc = gw_error_set(err, GW_EDATA, "%s: unknown %s '%.80s'", c->name, what, id);
    return rc;
}

/* Checks one row against its table's rules, column by column; messages are "column: problem".
 * With k, the rows the values name are looked up too; without, they are taken on trust. */
static int validate_row(kb *k, const kb_table *t, kb_value *v, gw_error *err)
{
    for (int i = 0; i < t->ncols; i++) {
        const kb_column *c = &t->cols[i];
        value_default(c, &v[i]);
        kb_problem p = kb_value_check(c, &v[i]);
        if (p != KB_FINE) {
            char text[400];
            kb_problem_text(p, c, &v[i], text, sizeof text);
            return gw_error_set(err, GW_EDATA, "%s: %s", c->name, text);
        }
        if (k && v[i].text &&
            (c->flags & (KB_CITES | KB_NAMES_GPU | KB_NAMES_SYSTEM | KB_NAMES_PRICE_KIND))) {
            int rc = reference_check(k, c, v[i].text, err);
            if (rc)
                return rc;
        }
    }
    return t->row_rule ? t->row_rule(v, err) : GW_OK;
}

int kb_row_check(int table, kb_value *row, gw_error *err)
{
    if (table < 0 || table >= KB_TABLES)
        return gw_error_set(err, GW_ESOFTWARE, "no table %d", table);
    return validate_row(NULL, &kb_tables[table], row, err);
}

/* ---- storing a row: its statements prepared once per table ------------------------------- */

static void bind_vals(sqlite3_stmt *st, const kb_table *t, const kb_value *v)
{
    for (int i = 0; i < t->ncols; i++) {
        if (t->cols[i].type == KB_TEXT)
            kb_sql_bind_text(st, i + 1, v[i].text);
        else if (isnan(v[i].number))
            sqlite3_bind_null(st, i + 1);
        else if (t->cols[i].type == KB_FLAG)
            sqlite3_bind_int(st, i + 1, (int)v[i].number);
        else
            sqlite3_bind_double(st, i + 1, v[i].number);
    }
}

/* Appends "c1 IS ?1 AND c2 IS ?2 ..." over every column, or with keys_only over the identity
 * (KB_KEY) columns, each numbered by its column; IS, as keys such as a price's region may be
 * empty.  Returns how many it named. */
static int where_columns(gw_buf *sql, const kb_table *t, int keys_only)
{
    int named = 0;
    for (int i = 0; i < t->ncols; i++) {
        if (keys_only && !(t->cols[i].flags & KB_KEY))
            continue;
        buf_printf(sql, "%s%s IS ?%d", named++ ? " AND " : "", t->cols[i].name, i + 1);
    }
    return named;
}

/* The statements store_row runs for table t, one of each kind per table: prepared on first
 * use and kept for the connection's life (an import runs them for every row). */
enum { ROW_SAME, ROW_KEY, ROW_INSERT, ROW_UPDATE, ROW_OPEN, ROW_PICK };

/* The rows this transaction's writes matched (stored, updated or found identical), by table
 * and rowid: a row sharing its identity with another (a price range's two ends) updates only
 * a stored row no earlier row of the import took, and `kb import --replace` removes the rows
 * of its source that none matched. */
#define MATCHED_TABLE "CREATE TEMP TABLE IF NOT EXISTS kb_matched (tbl INTEGER, row INTEGER, " \
                      "PRIMARY KEY (tbl, row)) WITHOUT ROWID; " OPEN_TABLES

/* The rows of each shared identity (a group, named by its first rowid) that a row of this
 * transaction may still update: a group is copied into kb_open, less its matched rows, when a
 * row first looks it up (kb_opened), and a row leaves it when matched, so a look-up reads a
 * few open rows instead of every row of its group. */
#define OPEN_TABLES "CREATE TEMP TABLE IF NOT EXISTS kb_open (tbl INTEGER, grp INTEGER, " \
                    "row INTEGER, PRIMARY KEY (tbl, grp, row)) WITHOUT ROWID; " \
                    "CREATE INDEX IF NOT EXISTS temp.kb_open_row ON kb_open (tbl, row); " \
                    "CREATE TEMP TABLE IF NOT EXISTS kb_opened (tbl INTEGER, grp INTEGER, " \
                    "PRIMARY KEY (tbl, grp)) WITHOUT ROWID"
#define MATCHED_FORGET "DELETE FROM temp.kb_matched; DELETE FROM temp.kb_open; " \
                       "DELETE FROM temp.kb_opened"

/* A row of a shared identity is compared on its other columns with the OPEN_WINDOW oldest open
 * rows of its group, not all of them: 20,000 edited rows of one identity each compared with
 * every open row took time quadratic in the group (4,000: 13.3 s).  A group of that many open
 * rows is no range's ends; it is a list whose rows, edited, keep their order. */
#define OPEN_WINDOW 32

/* Sets matched_from: each table with shared identities' last rowid now, when no row of it is
 * matched yet. */
static int matched_from_now(kb *k)
{
    for (int t = 0; t < KB_TABLES; t++) {
        if (!kb_tables[t].shared_identity)
            continue;
        gw_buf sql = GW_BUF_INIT;
        sqlite3_stmt *st;
        buf_printf(&sql, "SELECT ifnull(max(rowid), 0) FROM %s", kb_tables[t].sql);
        int rc = sqlite3_prepare_v2(k->db, buf_cstr(&sql), -1, &st, NULL);
        buf_free(&sql);
        if (rc != SQLITE_OK)
            return rc;
        rc = sqlite3_step(st);
        k->matched_from[t] = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
        sqlite3_finalize(st);
        if (rc != SQLITE_ROW)
            return rc;
    }
    return SQLITE_OK;
}

int kb_matches_forget(kb *k, gw_error *err)
{
    int rc = kb_write_check(k, err);
    if (rc == GW_OK && k->matched_ready &&
        sqlite3_exec(k->db, MATCHED_FORGET, NULL, NULL, NULL) != SQLITE_OK)
        rc = kb_sql_fail(k, err, sqlite3_errcode(k->db), "writing");
    int step = rc == GW_OK ? matched_from_now(k) : SQLITE_OK;
    return step == SQLITE_OK ? rc : kb_sql_fail(k, err, step, "reading");
}

static int matched_ready(kb *k, gw_error *err)
{
    if (k->matched_ready)
        return GW_OK;
    if (sqlite3_exec(k->db, MATCHED_TABLE, NULL, NULL, NULL) != SQLITE_OK)
        return kb_sql_fail(k, err, sqlite3_errcode(k->db), "writing");
    k->matched_ready = 1;
    return GW_OK;
}

/* Made at every kb_begin: a rollback takes a temporary table made in its transaction with it,
 * and a commit keeps the last transaction's rows. */
void kb_write_begin(kb *k)
{
    k->matched_ready = sqlite3_exec(k->db, MATCHED_TABLE "; " MATCHED_FORGET, NULL,
                                    NULL, NULL) == SQLITE_OK;
    if (matched_from_now(k) != SQLITE_OK)   /* then no bound: slower look-ups, the same rows */
        for (int t = 0; t < KB_TABLES; t++)
            k->matched_from[t] = INT64_MAX;
}

/* The number of columns outside the identity in which table t's row differs from the bound
 * values, as SQL (nothing where the identity is every column); the fewer, the better a stored
 * row stands for them (an edited note finds the end of a range whose amount it keeps).
 * Returns how many columns it compares. */
static int differing_sql(gw_buf *sql, const kb_table *t)
{
    int others = 0;
    for (int i = 0; i < t->ncols; i++)
        if (!(t->cols[i].flags & KB_KEY))
            buf_printf(sql, "%s(%s.%s IS NOT ?%d)", others++ ? " + " : "", t->sql,
                       t->cols[i].name, i + 1);
    return others;
}

/* SELECT of the stored row with v's identity that best stands for it, in a table whose rows
 * have identities of their own: one no earlier write of this transaction matched first, then
 * the one with the fewest other columns different, then the oldest.  In a table whose rows
 * share identities it selects the group instead: the first rowid of the identity up to
 * matched_from (bound after the columns), or 0.  Later rows are all matched, and taking a
 * matched row means adding a new one, as finding none does. */
static void key_sql(gw_buf *sql, const kb_table *t)
{
    if (t->shared_identity) {
        buf_printf(sql, "SELECT ifnull(min(rowid), 0) FROM %s WHERE ", t->sql);
        where_columns(sql, t, 1);
        buf_printf(sql, " AND rowid <= ?%d", t->ncols + 1);
        return;
    }
    buf_printf(sql, "SELECT rowid, EXISTS (SELECT 1 FROM temp.kb_matched WHERE tbl = %d AND "
               "row = %s.rowid) AS taken FROM %s WHERE ", (int)(t - kb_tables), t->sql, t->sql);
    where_columns(sql, t, 1);
    buf_puts(sql, " ORDER BY taken, ");
    if (differing_sql(sql, t))
        buf_puts(sql, ", ");
    buf_puts(sql, "rowid LIMIT 1");
}

/* ROW_OPEN: copies the unmatched rows of v's identity up to matched_from (bound after the
 * columns) into kb_open as the group bound after it.  ROW_PICK: that group's OPEN_WINDOW oldest
 * open rows, oldest first, each with how many other columns differ from v (read in index
 * order: an ORDER BY on the count would build a temporary b-tree at every row, and freeing
 * its cache each time made 20,000 look-ups spend most of their time returning memory). */
static void open_sql(gw_buf *sql, const kb_table *t, int pick)
{
    int tbl = (int)(t - kb_tables), group = t->ncols + 2;
    if (pick) {
        buf_puts(sql, "SELECT open.row, ");
        if (!differing_sql(sql, t))
            buf_puts(sql, "0");
        buf_printf(sql, " FROM temp.kb_open AS open JOIN %s ON %s.rowid = open.row WHERE "
                   "open.tbl = %d AND open.grp = ?%d ORDER BY open.row LIMIT %d", t->sql,
                   t->sql, tbl, group, OPEN_WINDOW);
        return;
    }
    buf_printf(sql, "INSERT OR IGNORE INTO temp.kb_open (tbl, grp, row) SELECT %d, ?%d, rowid "
               "FROM %s WHERE ", tbl, group, t->sql);
    where_columns(sql, t, 1);
    buf_printf(sql, " AND rowid <= ?%d AND NOT EXISTS (SELECT 1 FROM temp.kb_matched WHERE "
               "tbl = %d AND row = %s.rowid)", t->ncols + 1, tbl, t->sql);
}

/* INSERT of every column, or UPDATE of the columns outside the identity of the row whose rowid
 * is bound last (which keeps the rowid, so rows that refer to it stay valid).  A table whose
 * every column is its identity (aliases) never updates: its rows are found identical. */
static void write_sql(gw_buf *sql, const kb_table *t, int update)
{
    int set = 0;
    if (update) {
        buf_printf(sql, "UPDATE %s SET ", t->sql);
        for (int i = 0; i < t->ncols; i++)
            if (!(t->cols[i].flags & KB_KEY))
                buf_printf(sql, "%s%s = ?%d", set++ ? ", " : "", t->cols[i].name, i + 1);
        buf_printf(sql, " WHERE rowid = ?%d", t->ncols + 1);
        return;
    }
    buf_printf(sql, "INSERT INTO %s (", t->sql);
    kb_sql_column_list(sql, t, "");
    buf_puts(sql, ") VALUES (");
    for (int i = 0; i < t->ncols; i++)
        buf_printf(sql, "%s?%d", i ? ", " : "", i + 1);
    buf_puts(sql, ")");
}

/* *st: table t's statement of kind which, with the row's values v bound. */
static int row_statement(kb *k, const kb_table *t, int which, const kb_value *v,
                         sqlite3_stmt **st, gw_error *err)
{
    sqlite3_stmt **slot = &k->row_st[t - kb_tables][which];
    if (!*slot) {
        gw_buf sql = GW_BUF_INIT;
        if (which == ROW_SAME) {
            buf_printf(&sql, "SELECT rowid FROM %s WHERE ", t->sql);
            where_columns(&sql, t, 0);
            buf_puts(&sql, " LIMIT 1");
        } else if (which == ROW_KEY) {
            key_sql(&sql, t);
        } else if (which == ROW_OPEN || which == ROW_PICK) {
            open_sql(&sql, t, which == ROW_PICK);
        } else {
            write_sql(&sql, t, which == ROW_UPDATE);
        }
        int rc = matched_ready(k, err);
        if (rc == GW_OK)
            rc = kb_sql_prepare(k, buf_cstr(&sql), slot, err);
        buf_free(&sql);
        if (rc != GW_OK)
            return rc;
    }
    *st = *slot;
    bind_vals(*st, t, v);
    return GW_OK;
}

static void row_statement_done(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

/* *row: the rowid table t's query of kind which finds for v (0: none), in group (ROW_OPEN,
 * ROW_PICK: of the rows it reads, the first with the fewest columns different). */
static int row_found(kb *k, const kb_table *t, int which, const kb_value *v,
                     sqlite3_int64 group, sqlite3_int64 *row, gw_error *err)
{
    sqlite3_stmt *st;
    int rc = row_statement(k, t, which, v, &st, err);
    if (rc != GW_OK)
        return rc;
    if ((which == ROW_KEY || which == ROW_OPEN) && t->shared_identity)
        sqlite3_bind_int64(st, t->ncols + 1, k->matched_from[t - kb_tables]);
    if (which == ROW_OPEN || which == ROW_PICK)
        sqlite3_bind_int64(st, t->ncols + 2, group);
    int step = sqlite3_step(st), fewest = INT_MAX;
    *row = 0;
    for (; step == SQLITE_ROW && which == ROW_PICK; step = sqlite3_step(st))
        if (sqlite3_column_int(st, 1) < fewest) {   /* the oldest of the closest */
            fewest = sqlite3_column_int(st, 1);
            *row = sqlite3_column_int64(st, 0);
        }
    if (step == SQLITE_ROW)
        *row = sqlite3_column_int64(st, 0);
    row_statement_done(st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return kb_sql_fail(k, err, step, "reading");
    return GW_OK;
}

/* Inserts v, or with row updates that row to v; *row gets the rowid written. */
static int run_write(kb *k, const kb_table *t, const kb_value *v, sqlite3_int64 *row,
                     gw_error *err)
{
    sqlite3_stmt *st;
    int rc = row_statement(k, t, *row ? ROW_UPDATE : ROW_INSERT, v, &st, err);
    if (rc != GW_OK)
        return rc;
    if (*row)
        sqlite3_bind_int64(st, t->ncols + 1, *row);
    int step = sqlite3_step(st);
    if (step == SQLITE_CONSTRAINT)
        rc = gw_error_set(err, GW_EDATA, "%s row refused: %s", t->sql, sqlite3_errmsg(k->db));
    else if (step != SQLITE_DONE)
        rc = kb_sql_fail(k, err, step, "writing");
    else if (!*row)
        *row = sqlite3_last_insert_rowid(k->db);
    row_statement_done(st);
    return rc;
}

/* Runs sql, a write of table t's row (?1 the table, ?2 the row); *changed (may be NULL): whether
 * it changed a row. */
static int row_note(kb *k, const char *sql, const kb_table *t, sqlite3_int64 row, int *changed,
                    gw_error *err)
{
    sqlite3_stmt *st;
    int rc = kb_sql_prepare_cached(k, sql, &st, err);
    if (rc != GW_OK)
        return rc;
    sqlite3_bind_int(st, 1, (int)(t - kb_tables));
    sqlite3_bind_int64(st, 2, row);
    int step = sqlite3_step(st);
    if (changed)
        *changed = sqlite3_changes(k->db) > 0;
    kb_sql_done(k, st);
    return step == SQLITE_DONE ? GW_OK : kb_sql_fail(k, err, step, "writing");
}

/* Records that this transaction's writes matched row of table t: it leaves its open group. */
static int mark_matched(kb *k, const kb_table *t, sqlite3_int64 row, gw_error *err)
{
    int rc = row_note(k, "INSERT OR IGNORE INTO temp.kb_matched (tbl, row) VALUES (?1, ?2)", t,
                      row, NULL, err);
    if (rc == GW_OK && t->shared_identity)
        rc = row_note(k, "DELETE FROM temp.kb_open WHERE tbl = ?1 AND row = ?2", t, row, NULL,
                      err);
    return rc;
}

/* *row: the stored row that v, of a table whose rows share identities, updates (0: none, v is
 * added): the open row of its identity's group (opened on its first look-up) with the fewest
 * other columns different, among the group's OPEN_WINDOW oldest. */
static int shared_row(kb *k, const kb_table *t, const kb_value *v, sqlite3_int64 *row,
                      gw_error *err)
{
    sqlite3_int64 group = 0;
    int opening = 0;
    *row = 0;
    int rc = row_found(k, t, ROW_KEY, v, 0, &group, err);
    if (rc == GW_OK && group)
        rc = row_note(k, "INSERT OR IGNORE INTO temp.kb_opened (tbl, grp) VALUES (?1, ?2)", t,
                      group, &opening, err);
    if (rc == GW_OK && opening)
        rc = row_found(k, t, ROW_OPEN, v, group, row, err);
    if (rc == GW_OK && group)
        rc = row_found(k, t, ROW_PICK, v, group, row, err);
    return rc;
}

void kb_row_statements_free(kb *k)
{
    for (int t = 0; t < KB_TABLES; t++)
        for (int i = 0; i < KB_ROW_STATEMENTS; i++) {
            sqlite3_finalize(k->row_st[t][i]);
            k->row_st[t][i] = NULL;
        }
}

static int fts_refresh(kb *k, const kb_table *t, sqlite3_int64 row, gw_error *err);

/* A card's id and name, or an alias, about to be written must name no other card already
 * (kb_gpu_name_free): an importer or a CSV adding card 'evil' with the alias "rtx-4090" would
 * make the RTX 4090 ambiguous everywhere a name is read. */
static int names_owned(kb *k, const kb_table *t, const kb_value *v, gw_error *err)
{
    if (t == &kb_tables[KB_GPUS]) {
        const char *id = v[kb_table_column(KB_GPUS, "id") - t->cols].text;
        int rc = kb_gpu_name_free(k, id, "id", id, err);
        return rc ? rc : kb_gpu_name_free(k, id, "name",
                                          v[kb_table_column(KB_GPUS, "name") - t->cols].text, err);
    }
    if (t == &kb_tables[KB_ALIASES])
        return kb_gpu_name_free(k, v[kb_table_column(KB_ALIASES, "gpu") - t->cols].text, "alias",
                                v[kb_table_column(KB_ALIASES, "alias") - t->cols].text, err);
    return GW_OK;
}

/* Validates and stores one row.  A row identical to a stored one changes nothing.  Else a row
 * whose identity (its KB_KEY columns) a stored row has updates that row, unless the table lets
 * rows share an identity and every such row was already matched by this transaction (the
 * second end of a range, a second measurement): then, as a row of a table without an identity,
 * it is added. */
static int store_row(kb *k, const kb_table *t, kb_value *v, int *outcome, gw_error *err)
{
    int rc = kb_write_check(k, err);
    if (rc || (rc = validate_row(k, t, v, err)) != GW_OK)
        return rc;

    int keyed = 0;
    sqlite3_int64 row = 0;
    for (int i = 0; i < t->ncols; i++)
        keyed |= (t->cols[i].flags & KB_KEY) != 0;
    rc = row_found(k, t, ROW_SAME, v, 0, &row, err);
    if (rc == GW_OK && row) {
        *outcome = KB_UNCHANGED;
        return mark_matched(k, t, row, err);
    }
    if (rc == GW_OK && keyed && t->shared_identity)
        rc = shared_row(k, t, v, &row, err);
    else if (rc == GW_OK && keyed)
        rc = row_found(k, t, ROW_KEY, v, 0, &row, err);
    *outcome = row ? KB_UPDATED : KB_ADDED;
    if (rc == GW_OK)
        rc = names_owned(k, t, v, err);
    if (rc == GW_OK)
        rc = run_write(k, t, v, &row, err);
    if (t == &kb_tables[KB_GPUS] || t == &kb_tables[KB_ALIASES])   /* resolution sees them */
        kb_names_written(k, (int)(t - kb_tables), v, rc == GW_OK ? *outcome : -1);
    if (rc == GW_OK && *outcome == KB_UPDATED)
        rc = fts_refresh(k, t, row, err);
    return rc == GW_OK ? mark_matched(k, t, row, err) : rc;
}

/* ---- bulk writes: the full-text entries of added rows in one statement ------------------- */

/* The tables whose rows a bulk write only adds, with the trigger that indexes one new row and
 * the view it reads.  Measured on 10k benchmark rows (callgrind, whole process): one statement
 * at the end instead of the trigger per row takes 0.48x the instructions. */
static const struct {
    int table;
    const char *trigger, *view;
} bulk_tables[KB_BULK_TABLES] = {
    {KB_BENCHMARKS, "benchmark_fts_ins", "kb_text_benchmark"},
    {KB_PRICES, "price_fts_ins", "kb_text_price"},
    {KB_CLAIMS, "claim_fts_ins", "kb_text_claim"},
};

void kb_bulk_forget(kb *k)
{
    for (int i = 0; i < KB_BULK_TABLES; i++) {
        free(k->bulk_trigger_sql[i]);
        k->bulk_trigger_sql[i] = NULL;
    }
}

/* The first column of the first row of sql (with text bound to ?1 when given), as an integer,
 * or the trigger's SQL into *text. */
static int query_one(kb *k, const char *sql, const char *param, sqlite3_int64 *num, char **text,
                     gw_error *err)
{
    sqlite3_stmt *st;
    int rc = kb_sql_prepare(k, sql, &st, err);
    if (rc != GW_OK)
        return rc;
    kb_sql_bind_text(st, 1, param);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW && num)
        *num = sqlite3_column_int64(st, 0);
    if (step == SQLITE_ROW && text)
        *text = kb_sql_text(st, 0);
    sqlite3_finalize(st);
    return step == SQLITE_ROW || step == SQLITE_DONE ? GW_OK : kb_sql_fail(k, err, step, "reading");
}

/* The search entry of an updated row of a table whose schema indexes only inserts and
 * deletes (benchmarks, prices, claims), made again from its view; a row added in a bulk write
 * still under way is indexed by kb_bulk_end. */
static int fts_refresh(kb *k, const kb_table *t, sqlite3_int64 row, gw_error *err)
{
    int rc = GW_OK;
    for (int i = 0; i < KB_BULK_TABLES && rc == GW_OK; i++) {
        if (t != &kb_tables[bulk_tables[i].table] ||
            (k->bulk_trigger_sql[i] && row > k->bulk_from[i]))
            continue;
        for (int pass = 0; pass < 2 && rc == GW_OK; pass++) {
            gw_buf sql = GW_BUF_INIT;
            sqlite3_stmt *st;
            if (pass == 0)
                buf_printf(&sql, "DELETE FROM kb_fts WHERE rowid = (SELECT fid FROM %s WHERE "
                           "row = ?1)", bulk_tables[i].view);
            else
                buf_printf(&sql, "INSERT INTO kb_fts (rowid, kind, ref, title, body) SELECT fid, "
                           "kind, ref, title, body FROM %s WHERE row = ?1", bulk_tables[i].view);
            rc = kb_sql_prepare_cached(k, buf_cstr(&sql), &st, err);
            buf_free(&sql);
            if (rc != GW_OK)
                break;
            sqlite3_bind_int64(st, 1, row);
            int step = sqlite3_step(st);
            kb_sql_done(k, st);
            if (step != SQLITE_DONE)
                rc = kb_sql_fail(k, err, step, "indexing");
        }
    }
    return rc;
}

int kb_bulk_begin(kb *k, gw_error *err)
{
    int rc = kb_write_check(k, err);
    kb_bulk_forget(k);
    for (int i = 0; i < KB_BULK_TABLES && rc == GW_OK; i++) {
        gw_buf sql = GW_BUF_INIT;
        /* the connection's own trigger (kb/schema.sql's "-- connection (writes)") */
        rc = query_one(k, "SELECT sql FROM sqlite_temp_master WHERE type = 'trigger' AND "
                       "name = ?1", bulk_tables[i].trigger, NULL, &k->bulk_trigger_sql[i], err);
        if (rc == GW_OK && k->bulk_trigger_sql[i]) {
            buf_printf(&sql, "SELECT ifnull(max(rowid), 0) FROM %s",
                       kb_tables[bulk_tables[i].table].sql);
            rc = query_one(k, buf_cstr(&sql), NULL, &k->bulk_from[i], NULL, err);
            buf_reset(&sql);
            buf_printf(&sql, "DROP TRIGGER temp.%s", bulk_tables[i].trigger);
            if (rc == GW_OK && sqlite3_exec(k->db, buf_cstr(&sql), NULL, NULL, NULL) != SQLITE_OK)
                rc = kb_sql_fail(k, err, sqlite3_errcode(k->db), "writing");
        }
        buf_free(&sql);
    }
    return rc;
}

/* Makes again a TEMP trigger from its sqlite_temp_master text, which SQLite keeps without the
 * TEMP ("CREATE TRIGGER name ..."): run as it is, it would go into the file. */
static int recreate_temp_trigger(kb *k, const char *sql)
{
    static const char create[] = "CREATE TRIGGER ";
    if (strncmp(sql, create, strlen(create)) != 0)
        return SQLITE_ERROR;
    gw_buf temp = GW_BUF_INIT;
    buf_printf(&temp, "CREATE TEMP TRIGGER %s", sql + strlen(create));
    int rc = sqlite3_exec(k->db, buf_cstr(&temp), NULL, NULL, NULL);
    buf_free(&temp);
    return rc;
}

int kb_bulk_end(kb *k, gw_error *err)
{
    int rc = kb_write_check(k, err);
    for (int i = 0; i < KB_BULK_TABLES && rc == GW_OK; i++) {
        if (!k->bulk_trigger_sql[i])
            continue;
        gw_buf sql = GW_BUF_INIT;
        sqlite3_stmt *st;
        buf_printf(&sql, "INSERT INTO kb_fts (rowid, kind, ref, title, body) SELECT fid, kind, "
                   "ref, title, body FROM %s WHERE row > ?1", bulk_tables[i].view);
        rc = kb_sql_prepare(k, buf_cstr(&sql), &st, err);
        buf_free(&sql);
        if (rc == GW_OK) {
            sqlite3_bind_int64(st, 1, k->bulk_from[i]);
            int step = sqlite3_step(st);
            sqlite3_finalize(st);
            if (step != SQLITE_DONE)
                rc = kb_sql_fail(k, err, step, "indexing");
        }
        if (rc == GW_OK && recreate_temp_trigger(k, k->bulk_trigger_sql[i]) != SQLITE_OK)
            rc = kb_sql_fail(k, err, sqlite3_errcode(k->db), "writing");
    }
    kb_bulk_forget(k);
    return rc;
}

/* ---- the puts: a row of values, or a row struct of its table ----------------------------- */

int kb_row_put(kb *k, int table, kb_value *row, int *outcome, gw_error *err)
{
    int ignored;
    if (table < 0 || table >= KB_TABLES)
        return gw_error_set(err, GW_ESOFTWARE, "no table %d", table);
    return store_row(k, &kb_tables[table], row, outcome ? outcome : &ignored, err);
}

/* A row struct's fields as a row of values in column order; the texts are the struct's own. */
static void vals_from_struct(const kb_table *t, const void *obj, kb_value *v)
{
    kb_values_clear(v, (size_t)t->ncols);
    for (int i = 0; i < t->ncols; i++) {
        if (t->cols[i].type == KB_TEXT)
            v[i].text = kb_column_text(&t->cols[i], obj);
        else
            v[i].number = kb_column_number(&t->cols[i], obj);
    }
}

int kb_put_row_struct(kb *k, int table, const void *row, int *outcome, gw_error *err)
{
    kb_value v[KB_MAX_COLS];
    if (table < 0 || table >= KB_TABLES)
        return gw_error_set(err, GW_ESOFTWARE, "no table %d", table);
    vals_from_struct(&kb_tables[table], row, v);
    return kb_row_put(k, table, v, outcome, err);
}

static int put_struct(kb *k, int table, const void *obj, gw_error *err)
{
    return kb_put_row_struct(k, table, obj, NULL, err);
}

int kb_put_source(kb *k, const kb_source *s, gw_error *err)
{
    return put_struct(k, KB_SOURCES, s, err);
}

int kb_put_gpu(kb *k, const kb_gpu *g, gw_error *err)
{
    return put_struct(k, KB_GPUS, g, err);
}

int kb_add_alias(kb *k, const char *gpu, const char *alias, gw_error *err)
{
    kb_value v[2] = {{gpu, NAN}, {alias, NAN}};
    return kb_row_put(k, KB_ALIASES, v, NULL, err);
}

int kb_add_benchmark(kb *k, const kb_benchmark *b, gw_error *err)
{
    return put_struct(k, KB_BENCHMARKS, b, err);
}

int kb_add_price(kb *k, const kb_price *p, gw_error *err)
{
    return put_struct(k, KB_PRICES, p, err);
}

int kb_put_rate(kb *k, const kb_rate *r, gw_error *err)
{
    return put_struct(k, KB_RATES, r, err);
}

int kb_add_claim(kb *k, const kb_claim *c, gw_error *err)
{
    return put_struct(k, KB_CLAIMS, c, err);
}

int kb_put_assumption(kb *k, const kb_assumption *a, gw_error *err)
{
    return put_struct(k, KB_ASSUMPTIONS, a, err);
}

/* ---- replacing a source's rows ------------------------------------------------------------ */

int kb_remove_unmatched(kb *k, const char *source, size_t removed[KB_TABLES], gw_error *err)
{
    int found = 0;
    int rc = kb_write_check(k, err);
    if (rc == GW_OK)
        rc = row_exists(k, "SELECT 1 FROM source WHERE id = ?1", source, &found, err);
    if (rc == GW_OK && !found)
        return gw_error_set(err, GW_ENOTFOUND, "no source '%.80s' in the knowledge base or the "
                            "files (gpuwise kb sources lists them)", source);
    if (rc == GW_OK)
        rc = matched_ready(k, err);
    /* what refers to a row comes after it: removed last first */
    for (int t = KB_TABLES - 1; t >= 0 && rc == GW_OK; t--) {
        const kb_column *cites = kb_table_column(t, "source");
        if (!cites || !(cites->flags & KB_CITES))
            continue;
        gw_buf sql = GW_BUF_INIT;
        sqlite3_stmt *st;
        buf_printf(&sql, "DELETE FROM %s WHERE source = ?1 AND rowid NOT IN (SELECT row FROM "
                   "temp.kb_matched WHERE tbl = %d)", kb_tables[t].sql, t);
        rc = kb_sql_prepare(k, buf_cstr(&sql), &st, err);
        buf_free(&sql);
        if (rc != GW_OK)
            break;
        kb_sql_bind_text(st, 1, source);
        int step = sqlite3_step(st);
        if (step == SQLITE_DONE)
            removed[t] += (size_t)sqlite3_changes(k->db);
        else if (step == SQLITE_CONSTRAINT)
            rc = gw_error_set(err, GW_EDATA, "%s of source '%.80s' that the files no longer "
                              "hold are still named by other rows (%s)", kb_tables[t].what,
                              source, sqlite3_errmsg(k->db));
        else
            rc = kb_sql_fail(k, err, step, "removing");
        sqlite3_finalize(st);
    }
    return rc;
}

int kb_remove_unmatched_rows(kb *k, int table, const long long *rows, size_t n,
                             size_t *removed, gw_error *err)
{
    sqlite3_stmt *st = NULL;
    gw_buf sql = GW_BUF_INIT;
    int rc = kb_write_check(k, err);
    if (rc == GW_OK && (table < 0 || table >= KB_TABLES))
        rc = gw_error_set(err, GW_ESOFTWARE, "no table %d", table);
    if (rc == GW_OK)
        rc = matched_ready(k, err);
    if (rc == GW_OK) {
        buf_printf(&sql, "DELETE FROM %s WHERE rowid = ?1 AND NOT EXISTS (SELECT 1 FROM "
                   "temp.kb_matched WHERE tbl = %d AND row = ?1)", kb_tables[table].sql, table);
        rc = kb_sql_prepare(k, buf_cstr(&sql), &st, err);
    }
    for (size_t i = 0; rc == GW_OK && i < n; i++) {
        sqlite3_bind_int64(st, 1, rows[i]);
        int step = sqlite3_step(st);
        if (step == SQLITE_DONE)
            *removed += (size_t)sqlite3_changes(k->db);
        else
            rc = kb_sql_fail(k, err, step, "removing");
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    buf_free(&sql);
    return rc;
}

int kb_delete_offers(kb *k, const char *provider, gw_error *err)
{
    sqlite3_stmt *st;
    int rc = kb_write_check(k, err);
    if (rc == GW_OK)
        rc = kb_sql_prepare(k, "DELETE FROM price WHERE kind = 'cloud' AND provider = ?1", &st,
                            err);
    if (rc != GW_OK)
        return rc;
    kb_sql_bind_text(st, 1, provider);
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    return step == SQLITE_DONE ? GW_OK : kb_sql_fail(k, err, step, "deleting offers");
}
