/* kb_text.c — the KB as text: CSV import (one table's file, or a whole export; every section
 * parsed first, then stored in dependency order through kb_row_put) and export (every table in
 * dependency order, every column in the sort, so a re-export is byte-identical).  The columns
 * are those kb_table.c describes. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>
#include <sqlite3.h>

#include "check.h"
#include "kb.h"
#include "kb_private.h"

/* ---- import ----------------------------------------------------------------------------- */

typedef struct csv_rec {
    char **f;
    size_t n;
    size_t line;
} csv_rec;

typedef struct csv_section {
    int table;
    const char *name;
    int map[KB_MAX_COLS];    /* field position -> table column */
    size_t nfields;
    csv_rec *recs;
    size_t n, cap;
} csv_section;

typedef struct import_state {
    const char *name;
    size_t line;          /* the line being fed to the parser */
    kb_strlist fields;       /* the record being read */
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
    kb_strlist_free(r->f, r->n);
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
    for (int t = 0; t < KB_TABLES; t++) {
        const kb_table *tb = &kb_tables[t];
        int seen[KB_MAX_COLS] = {0}, ok = (int)n <= tb->ncols;
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
            if ((tb->cols[c].flags & KB_REQUIRED) && !seen[c])
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
    kb_strlist_push(&s->fields, data ? gw_xstrndup(data, len) : gw_xstrdup(""));
    s->at_boundary = 0;
}

static void on_record(int c, void *ctx)
{
    import_state *s = ctx;
    csv_rec r = {s->fields.v, s->fields.n, s->fields.n ? s->rec_line : s->line};
    int map[KB_MAX_COLS];
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
    kb_strlist_free(s->fields.v, s->fields.n);
    memset(&s->fields, 0, sizeof s->fields);
    if (!s->failed && !s->cur)
        import_fail(s, s->line ? s->line : 1, "no header row: not a gpuwise table", NULL);
    return s->failed ? GW_EDATA : GW_OK;
}

/* Where each key of a keyed table (sources, gpus, rates, assumptions) was first given in this
 * import: the same id twice would silently keep the last row, so it is an error. */
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
    const kb_table *t = &kb_tables[sec->table];
    gw_buf key = GW_BUF_INIT;
    const char *first_col = NULL;
    if (sec->table == KB_ALIASES)   /* the whole row is the key: a repeat changes nothing */
        return GW_OK;
    for (int c = 0; c < t->ncols; c++) {
        if (!(t->cols[c].flags & KB_KEY))
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
    const kb_table *t = &kb_tables[sec->table];
    kb_value v[KB_MAX_COLS];
    kb_values_clear(v, (size_t)t->ncols);
    for (size_t j = 0; j < r->n; j++) {
        const kb_column *c = &t->cols[sec->map[j]];
        char *f = r->f[j];
        if (c->type == KB_TEXT) {
            v[sec->map[j]].text = f;
            continue;
        }
        while (isspace((unsigned char)*f))
            f++;
        size_t n = strlen(f);
        while (n > 0 && isspace((unsigned char)f[n - 1]))
            f[--n] = '\0';
        if (!*f)
            continue;
        if (!gw_parse_decimal(f, &v[sec->map[j]].number))   /* "1,234", "0x10", "nan": no */
            return gw_error_set(err, GW_EDATA, "%s:%zu: %s: '%.60s' is not a number", sec->name,
                                r->line, c->name, f);
    }
    int outcome = KB_ADDED;
    int rc = kb_row_put(k, sec->table, v, &outcome, err);
    if (rc) {
        if (rc == GW_EDATA)
            gw_error_prefix(err, "%s:%zu", sec->name, r->line);
        return rc;
    }
    if (counts) {
        if (outcome == KB_ADDED)
            counts->added[sec->table]++;
        else if (outcome == KB_UPDATED)
            counts->updated[sec->table]++;
        else
            counts->unchanged[sec->table]++;
    }
    return GW_OK;
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
    if ((rc = kb_write_check(k, err)) != GW_OK)
        return rc;
    for (size_t i = 0; i < n && rc == GW_OK; i++) {
        s.name = names[i];
        rc = import_parse(&s, texts[i], lens[i]);
    }
    /* What a row refers to is stored before the row, whatever order the files came in. */
    seen_keys seen = {NULL, 0, 0};
    for (int t = 0; t < KB_TABLES && rc == GW_OK; t++)
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

int kb_export(kb *k, gw_buf *out, gw_error *err)
{
    buf_printf(out, "# gpuwise knowledge base export (schema %d)\n", k->version);
    for (int t = 0; t < KB_TABLES; t++) {
        const kb_table *tb = &kb_tables[t];
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
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
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
        }
        sqlite3_finalize(st);
        if (step != SQLITE_DONE)
            return kb_sql_fail(k, err, step, "exporting");
    }
    return GW_OK;
}

