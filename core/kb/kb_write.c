/* kb_write.c — the validated writes: a row checked against its table's description (each
 * value, then the rows it names, then the table's own rule), stored through statements kept
 * prepared per table, the row structs' puts, and a bulk import's full-text entries made in one
 * statement at its end.  Every write runs inside kb_begin/kb_commit. */
#include <math.h>
#include <stdlib.h>

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

/* Appends "c1 IS ?1 AND c2 IS ?2 ..." over every column, or with keys_only "k1 = ?1 AND ..."
 * over the key columns (each numbered by its column); returns how many it named. */
static int where_columns(gw_buf *sql, const kb_table *t, int keys_only)
{
    int named = 0;
    for (int i = 0; i < t->ncols; i++) {
        if (keys_only && !(t->cols[i].flags & KB_KEY))
            continue;
        buf_printf(sql, "%s%s %s ?%d", named++ ? " AND " : "", t->cols[i].name,
                   keys_only ? "=" : "IS", i + 1);
    }
    return named;
}

/* The statements store_row runs for table t, one of each kind per table: prepared on first
 * use and kept for the connection's life (an import runs them for every row). */
enum { ROW_SAME, ROW_KEY, ROW_INSERT, ROW_UPSERT };

/* INSERT of every column; with upsert, ON CONFLICT (keys) DO UPDATE of the others, which keeps
 * the rowid, so rows that refer to it stay valid. */
static void insert_sql(gw_buf *sql, const kb_table *t, int upsert)
{
    buf_printf(sql, "INSERT INTO %s (", t->sql);
    kb_sql_column_list(sql, t, "");
    buf_puts(sql, ") VALUES (");
    for (int i = 0; i < t->ncols; i++)
        buf_printf(sql, "%s?%d", i ? ", " : "", i + 1);
    buf_puts(sql, ")");
    if (!upsert)
        return;
    int first = 1;
    buf_puts(sql, " ON CONFLICT (");
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].flags & KB_KEY) {
            buf_printf(sql, "%s%s", first ? "" : ", ", t->cols[i].name);
            first = 0;
        }
    buf_puts(sql, ") DO UPDATE SET ");
    first = 1;
    for (int i = 0; i < t->ncols; i++)
        if (!(t->cols[i].flags & KB_KEY)) {
            buf_printf(sql, "%s%s = excluded.%s", first ? "" : ", ", t->cols[i].name,
                       t->cols[i].name);
            first = 0;
        }
}

/* *st: table t's statement of kind which, with the row's values v bound. */
static int row_statement(kb *k, const kb_table *t, int which, const kb_value *v,
                         sqlite3_stmt **st, gw_error *err)
{
    sqlite3_stmt **slot = &k->row_st[t - kb_tables][which];
    if (!*slot) {
        gw_buf sql = GW_BUF_INIT;
        if (which == ROW_SAME || which == ROW_KEY) {
            buf_printf(&sql, "SELECT 1 FROM %s WHERE ", t->sql);
            where_columns(&sql, t, which == ROW_KEY);
        } else {
            insert_sql(&sql, t, which == ROW_UPSERT);
        }
        int rc = kb_sql_prepare(k, buf_cstr(&sql), slot, err);
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

/* *found: whether table t's query of kind which gives a row for v. */
static int row_found(kb *k, const kb_table *t, int which, const kb_value *v, int *found,
                     gw_error *err)
{
    sqlite3_stmt *st;
    int rc = row_statement(k, t, which, v, &st, err);
    if (rc != GW_OK)
        return rc;
    int step = sqlite3_step(st);
    *found = step == SQLITE_ROW;
    row_statement_done(st);
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        return kb_sql_fail(k, err, step, "reading");
    return GW_OK;
}

static int run_insert(kb *k, const kb_table *t, int which, const kb_value *v, gw_error *err)
{
    sqlite3_stmt *st;
    int rc = row_statement(k, t, which, v, &st, err);
    if (rc != GW_OK)
        return rc;
    int step = sqlite3_step(st);
    if (step == SQLITE_CONSTRAINT)
        rc = gw_error_set(err, GW_EDATA, "%s row refused: %s", t->sql, sqlite3_errmsg(k->db));
    else if (step != SQLITE_DONE)
        rc = kb_sql_fail(k, err, step, "writing");
    row_statement_done(st);
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

/* Validates and stores one row.  Rows with a key replace the row with that key; rows without
 * one are added unless an identical row is already there (so re-importing is harmless). */
static int store_row(kb *k, const kb_table *t, kb_value *v, int *outcome, gw_error *err)
{
    int rc = kb_write_check(k, err);
    if (rc || (rc = validate_row(k, t, v, err)) != GW_OK)
        return rc;
    if (t == &kb_tables[KB_GPUS] || t == &kb_tables[KB_ALIASES])
        kb_names_drop(k);   /* resolution must see the new names */

    int same = 0, exists = 0, keyed = 0;
    for (int i = 0; i < t->ncols; i++)
        keyed |= (t->cols[i].flags & KB_KEY) != 0;
    rc = row_found(k, t, ROW_SAME, v, &same, err);
    if (rc == GW_OK && same)
        *outcome = KB_UNCHANGED;
    if (rc == GW_OK && !same && keyed)
        rc = row_found(k, t, ROW_KEY, v, &exists, err);
    if (rc == GW_OK && !same) {
        rc = run_insert(k, t, exists ? ROW_UPSERT : ROW_INSERT, v, err);
        *outcome = exists ? KB_UPDATED : KB_ADDED;
    }
    return rc;
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

int kb_bulk_begin(kb *k, gw_error *err)
{
    int rc = kb_write_check(k, err);
    kb_bulk_forget(k);
    for (int i = 0; i < KB_BULK_TABLES && rc == GW_OK; i++) {
        gw_buf sql = GW_BUF_INIT;
        rc = query_one(k, "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?1",
                       bulk_tables[i].trigger, NULL, &k->bulk_trigger_sql[i], err);
        if (rc == GW_OK && k->bulk_trigger_sql[i]) {
            buf_printf(&sql, "SELECT ifnull(max(rowid), 0) FROM %s",
                       kb_tables[bulk_tables[i].table].sql);
            rc = query_one(k, buf_cstr(&sql), NULL, &k->bulk_from[i], NULL, err);
            buf_reset(&sql);
            buf_printf(&sql, "DROP TRIGGER %s", bulk_tables[i].trigger);
            if (rc == GW_OK && sqlite3_exec(k->db, buf_cstr(&sql), NULL, NULL, NULL) != SQLITE_OK)
                rc = kb_sql_fail(k, err, sqlite3_errcode(k->db), "writing");
        }
        buf_free(&sql);
    }
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
        if (rc == GW_OK &&
            sqlite3_exec(k->db, k->bulk_trigger_sql[i], NULL, NULL, NULL) != SQLITE_OK)
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
