/* kb_text.c — the KB as text: CSV import (table files or a whole export, read by kb_csv.c in
 * chunks: every file read once to find its sections, then each table's rows stored in dependency
 * order through kb_row_put) and export (every table in dependency order, every column in the
 * sort, so a re-export is byte-identical).  The columns are those kb_table.c describes. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/check.h"
#include "kb.h"
#include "kb_csv.h"
#include "kb_sql.h"
#include "kb_table.h"

/* ---- import ----------------------------------------------------------------------------- */

/* One input of an import and the tables its sections hold (a bit per table). */
typedef struct import_file {
    kb_csv_in in;
    unsigned tables;
} import_file;

/* What reading one file tracks: the section the records belong to. */
typedef struct section {
    const char *name;
    int table;                 /* -1 before the first header */
    int map[KB_MAX_COLS];      /* field position -> table column */
    size_t nfields;
} section;

/* Which table a header row names (its columns, in any order, required ones present), or -1. */
static int header_table(const kb_csv_rec *r, int *map)
{
    for (int t = 0; t < KB_TABLES; t++) {
        const kb_table *tb = &kb_tables[t];
        int seen[KB_MAX_COLS] = {0}, ok = (int)r->n <= tb->ncols;
        for (size_t j = 0; ok && j < r->n; j++) {
            int found = -1;
            for (int c = 0; c < tb->ncols; c++)
                if (strcmp(r->f[j], tb->cols[c].name) == 0)
                    found = c;
            if (found < 0 || seen[found])
                ok = 0;
            else {
                seen[found] = 1;
                map[j] = found;
            }
        }
        for (int c = 0; ok && c < tb->ncols; c++)
            if ((tb->cols[c].flags & KB_REQUIRED) && !seen[c])
                ok = 0;
        if (ok)
            return t;
    }
    return -1;
}

/* Whether r starts a section (updating s; 1), is a row of the current one (0), or is neither
 * (GW_EDATA).  Only the first record of a text or the first after a comment or a blank line can
 * be a header, as in an export, so a row whose values are column names stays a row. */
static int section_step(section *s, const kb_csv_rec *r, gw_error *err)
{
    int map[KB_MAX_COLS];
    int t = r->may_be_header ? header_table(r, map) : -1;
    if (t >= 0) {
        s->table = t;
        s->nfields = r->n;
        memcpy(s->map, map, sizeof map);
        return 1;
    }
    if (s->table < 0) {
        char files[400] = "";
        for (int i = 0; i < KB_TABLES; i++)   /* the tables' own file names, in their order */
            snprintf(files + strlen(files), sizeof files - strlen(files), "%s%s",
                     i == 0 ? "" : i == KB_TABLES - 1 ? " or " : ", ", kb_tables[i].file);
        return gw_error_set(err, GW_EDATA, "%s:%zu: not a gpuwise table: the first row must be "
                            "the header of %s (kb/data/README.md); another CSV is converted by "
                            "an importer plugin: `gpuwise kb import --with gpuwise-csv FILE` for "
                            "your own measurements (`gpuwise plugin list` names the others)",
                            s->name, r->line, files);
    }
    if (r->n != s->nfields)
        return gw_error_set(err, GW_EDATA, "%s:%zu: %zu fields, but the header has %zu", s->name,
                            r->line, r->n, s->nfields);
    return 0;
}

/* The first pass: every record read and placed in a section, so that a file that is not a KB
 * table, or is broken anywhere, is refused before anything is stored. */
typedef struct scan_pass {
    section sec;
    import_file *file;
    gw_error *err;
} scan_pass;

static int scan_record(const kb_csv_rec *r, void *arg)
{
    scan_pass *p = arg;
    int rc = section_step(&p->sec, r, p->err);
    if (rc < 0 || rc > 1)
        return rc;
    if (rc == 0)
        p->file->tables |= 1u << p->sec.table;
    return GW_OK;
}

/* The second pass, once per table: the rows of that table's sections, stored. */
typedef struct store_pass {
    section sec;
    kb *k;
    int table;
    kb_import_counts *counts;
    gw_error *err;
} store_pass;

/* Where each key of a keyed table (sources, gpus, rates, systems, assumptions) was first given in
 * this import: the same id twice would silently keep the last row, so it is an error.  The keys
 * live in a temporary table, so memory does not grow with the rows. */
static int check_duplicate_key(store_pass *p, const kb_csv_rec *r)
{
    const kb_table *t = &kb_tables[p->table];
    gw_buf key = GW_BUF_INIT;
    const char *first_col = NULL;
    if (p->table == KB_ALIASES)   /* the whole row is the key: a repeat changes nothing */
        return GW_OK;
    if (t->shared_identity)   /* a range's two ends: rows that share an identity are kept */
        return GW_OK;
    for (int c = 0; c < t->ncols; c++) {
        if (!(t->cols[c].flags & KB_KEY))
            continue;
        for (size_t j = 0; j < r->n; j++)
            if (p->sec.map[j] == c) {
                buf_printf(&key, "%s%s", key.len ? "', '" : "", r->f[j]);
                if (!first_col)
                    first_col = t->cols[c].name;
            }
    }
    if (!key.len) {
        buf_free(&key);
        return GW_OK;
    }
    sqlite3_stmt *st;
    int rc = kb_sql_prepare_cached(p->k, "INSERT INTO temp.kb_import_key (tbl, key, name, line) "
                                   "VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING", &st, p->err);
    if (rc == GW_OK) {
        sqlite3_bind_int(st, 1, p->table);
        kb_sql_bind_text(st, 2, key.data);
        kb_sql_bind_text(st, 3, p->sec.name);
        sqlite3_bind_int64(st, 4, (sqlite3_int64)r->line);
        int step = sqlite3_step(st);
        int added = sqlite3_changes(p->k->db);
        kb_sql_done(p->k, st);
        if (step != SQLITE_DONE)
            rc = kb_sql_fail(p->k, p->err, step, "importing");
        else if (!added)
            rc = kb_sql_prepare_cached(p->k, "SELECT name, line FROM temp.kb_import_key "
                                       "WHERE tbl = ?1 AND key = ?2", &st, p->err);
        if (rc == GW_OK && !added) {
            sqlite3_bind_int(st, 1, p->table);
            kb_sql_bind_text(st, 2, key.data);
            if (sqlite3_step(st) == SQLITE_ROW)
                rc = gw_error_set(p->err, GW_EDATA, "%s:%zu: %s: '%s' is already given at "
                                  "%s:%lld", p->sec.name, r->line, first_col, key.data,
                                  (const char *)sqlite3_column_text(st, 0),
                                  (long long)sqlite3_column_int64(st, 1));
            kb_sql_done(p->k, st);
        }
    }
    buf_free(&key);
    return rc;
}

/* A hint after an error in a measurements row: a file of the benchmarks columns that names
 * GPUs as people write them is what the gpuwise-csv importer is for. */
static void importer_hint(int table, gw_error *err)
{
    size_t used = err ? strlen(err->msg) : 0;
    if (table == KB_BENCHMARKS && err && (strstr(err->msg, "gpu: ") ||
                                          strstr(err->msg, "source: ")))
        snprintf(err->msg + used, sizeof err->msg - used, " (a file of your own measurements "
                 "that names GPUs as people write them imports with `--with gpuwise-csv`)");
}

static int import_record(store_pass *p, const kb_csv_rec *r)
{
    const kb_table *t = &kb_tables[p->table];
    kb_value v[KB_MAX_COLS];
    kb_values_clear(v, (size_t)t->ncols);
    for (size_t j = 0; j < r->n; j++) {
        const kb_column *c = &t->cols[p->sec.map[j]];
        char *f = r->f[j];
        if (c->type == KB_TEXT) {
            v[p->sec.map[j]].text = f;
            continue;
        }
        while (isspace((unsigned char)*f))
            f++;
        size_t n = strlen(f);
        while (n > 0 && isspace((unsigned char)f[n - 1]))
            f[--n] = '\0';
        if (!*f)
            continue;
        if (!gw_parse_decimal(f, &v[p->sec.map[j]].number))   /* "1,234", "0x10", "nan": no */
            return gw_error_set(p->err, GW_EDATA, "%s:%zu: %s: '%.60s' is not a number",
                                p->sec.name, r->line, c->name, f);
    }
    int outcome = KB_ADDED;
    int rc = kb_row_put(p->k, p->table, v, &outcome, p->err);
    if (rc) {
        if (rc == GW_EDATA) {
            gw_error_prefix(p->err, "%s:%zu", p->sec.name, r->line);
            importer_hint(p->table, p->err);
        }
        return rc;
    }
    if (p->counts) {
        if (outcome == KB_ADDED)
            p->counts->added[p->table]++;
        else if (outcome == KB_UPDATED)
            p->counts->updated[p->table]++;
        else
            p->counts->unchanged[p->table]++;
    }
    return GW_OK;
}

static int store_record(const kb_csv_rec *r, void *arg)
{
    store_pass *p = arg;
    int rc = section_step(&p->sec, r, p->err);
    if (rc != 0 || p->sec.table != p->table)
        return rc == 1 ? GW_OK : rc;
    rc = check_duplicate_key(p, r);
    return rc ? rc : import_record(p, r);
}

/* Reads file from its start with fn. */
static int read_file(import_file *file, kb_csv_fn fn, section *sec, void *arg, gw_error *err)
{
    sec->name = file->in.name;
    sec->table = -1;
    if (file->in.f && fseeko(file->in.f, 0, SEEK_SET) != 0)
        return gw_error_set(err, GW_ENOINPUT, "%s: %s", file->in.name, strerror(errno));
    return kb_csv_read(&file->in, KB_CSV_COMMENTS, fn, arg, err);
}

/* Every file read once to find its sections, then, table by table in dependency order, the
 * files that hold that table read again and its rows stored: a row's references are stored
 * before it, whatever order the files came in, and no file is ever held in memory. */
static int import_files(kb *k, size_t n, import_file *files, kb_import_counts *counts,
                        gw_error *err)
{
    int rc = kb_write_check(k, err);
    if (counts)
        memset(counts, 0, sizeof *counts);
    for (size_t i = 0; i < n && rc == GW_OK; i++) {
        scan_pass p = {{0}, &files[i], err};
        rc = read_file(&files[i], scan_record, &p.sec, &p, err);
        if (rc == GW_OK && !files[i].tables && p.sec.table < 0)
            rc = gw_error_set(err, GW_EDATA, "%s:1: no header row: not a gpuwise table",
                              files[i].in.name);
    }
    if (rc == GW_OK)
        rc = sqlite3_exec(k->db, "CREATE TEMP TABLE IF NOT EXISTS kb_import_key (tbl INTEGER, "
                          "key TEXT, name TEXT, line INTEGER, PRIMARY KEY (tbl, key)) "
                          "WITHOUT ROWID; DELETE FROM temp.kb_import_key", NULL, NULL, NULL)
                 == SQLITE_OK ? GW_OK : kb_sql_fail(k, err, sqlite3_errcode(k->db), "importing");
    if (rc == GW_OK)
        rc = kb_bulk_begin(k, err);
    for (int t = 0; t < KB_TABLES && rc == GW_OK; t++)
        for (size_t i = 0; i < n && rc == GW_OK; i++) {
            if (!(files[i].tables & (1u << t)))
                continue;
            store_pass p = {{0}, k, t, counts, err};
            rc = read_file(&files[i], store_record, &p.sec, &p, err);
        }
    if (rc == GW_OK)
        rc = kb_bulk_end(k, err);
    if (rc == GW_OK)
        sqlite3_exec(k->db, "DELETE FROM temp.kb_import_key", NULL, NULL, NULL);
    return rc;
}

int kb_import_files(kb *k, size_t n, const char *const *names, FILE *const *f,
                    kb_import_counts *counts, gw_error *err)
{
    import_file *files = gw_xcalloc(n ? n : 1, sizeof *files);
    for (size_t i = 0; i < n; i++) {
        files[i].in.name = names[i];
        files[i].in.f = f[i];
    }
    int rc = import_files(k, n, files, counts, err);
    free(files);
    return rc;
}

int kb_import_texts(kb *k, size_t n, const char *const *names, const char *const *texts,
                    const size_t *lens, kb_import_counts *counts, gw_error *err)
{
    import_file *files = gw_xcalloc(n ? n : 1, sizeof *files);
    for (size_t i = 0; i < n; i++) {
        files[i].in.name = names[i];
        files[i].in.text = texts[i];
        files[i].in.len = lens[i];
    }
    int rc = import_files(k, n, files, counts, err);
    free(files);
    return rc;
}

int kb_import_text(kb *k, const char *name, const char *text, size_t len, gw_error *err)
{
    return kb_import_texts(k, 1, &name, &text, &len, NULL, err);
}

/* ---- export ----------------------------------------------------------------------------- */

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

/* Hands out's text to put and empties out; GW_EIO when put fails. */
static int export_flush(gw_buf *out, kb_export_put put, void *arg, gw_error *err)
{
    int e = out->len ? put(out->data, out->len, arg) : 0;
    buf_reset(out);
    return e ? gw_error_set(err, GW_EIO, "writing the export: %s", strerror(e)) : GW_OK;
}

/* One table's section: its header, then its rows in the order of their content, handed to put
 * in pieces of about 64 KB, so memory does not grow with the rows. */
static int export_table(kb *k, const kb_table *tb, gw_buf *out, kb_export_put put, void *arg,
                        gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    sqlite3_stmt *st;
    buf_printf(out, "\n# %s\n", tb->file);
    for (int c = 0; c < tb->ncols; c++)
        buf_printf(out, "%s%s", c ? "," : "", tb->cols[c].name);
    buf_putc(out, '\n');
    kb_sql_select(&sql, tb, NULL);
    /* Every column in the sort, so the order depends on the content alone. */
    buf_puts(&sql, " ORDER BY ");
    kb_sql_column_list(&sql, tb, "");
    int rc = kb_sql_prepare(k, buf_cstr(&sql), &st, err);
    buf_free(&sql);
    if (rc)
        return rc;
    int step;
    while (rc == GW_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        for (int c = 0; c < tb->ncols; c++) {
            if (c)
                buf_putc(out, ',');
            if (sqlite3_column_type(st, c) == SQLITE_NULL)
                continue;
            if (tb->cols[c].type == KB_TEXT) {
                buf_put_csv_field(out, (const char *)sqlite3_column_text(st, c));
            } else {
                char num[40];
                format_number(num, sizeof num, sqlite3_column_double(st, c));
                buf_puts(out, num);
            }
        }
        buf_putc(out, '\n');
        if (out->len >= 65536)
            rc = export_flush(out, put, arg, err);
    }
    sqlite3_finalize(st);
    if (rc == GW_OK && step != SQLITE_DONE)
        rc = kb_sql_fail(k, err, step, "exporting");
    return rc;
}

int kb_export_to(kb *k, kb_export_put put, void *arg, gw_error *err)
{
    gw_buf out = GW_BUF_INIT;
    buf_printf(&out, "# gpuwise knowledge base export (schema %d)\n", k->version);
    int rc = GW_OK;
    for (int t = 0; rc == GW_OK && t < KB_TABLES; t++)
        rc = export_table(k, &kb_tables[t], &out, put, arg, err);
    if (rc == GW_OK)
        rc = export_flush(&out, put, arg, err);
    buf_free(&out);
    return rc;
}

static int put_in_buf(const char *data, size_t len, void *arg)
{
    buf_append(arg, data, len);
    return 0;
}

int kb_export(kb *k, gw_buf *out, gw_error *err)
{
    return kb_export_to(k, put_in_buf, out, err);
}
