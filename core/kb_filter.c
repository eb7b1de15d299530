/* kb_filter.c — the --where language of `kb list` ("memory_gb>=48 and nvlink_gbs>0"), compiled
 * to SQL whose values are all bound parameters, the --sort field, and the field list both use:
 * the GPU columns kb_table.c describes, less those about the row (source, note). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "check.h"
#include "kb.h"
#include "kb_private.h"

const char *const *kb_gpu_fields(void)
{
    static const char *fields[KB_MAX_COLS + 1];
    if (!fields[0]) {
        size_t n = 0;
        size_t ncols;
        const kb_column *cols = kb_table_columns(KB_GPUS, &ncols);
        for (size_t i = 0; i < ncols; i++)
            if (!(cols[i].flags & KB_META))
                fields[n++] = cols[i].name;
        fields[n] = NULL;
    }
    return fields;
}

/* A GPU column the filter language and --sort know; NULL for any other name. */
static const kb_column *gpu_field(const char *name)
{
    const kb_column *c = kb_table_column(KB_GPUS, name);
    return c && !(c->flags & KB_META) ? c : NULL;
}

/* ---- the language ---------------------------------------------------------------------- */
/* where := cond { "and" cond } ; cond := FIELD OP VALUE ; OP := = == != < <= > >= ~
 * VALUE := NUMBER | 'text' | "text" | bare-word.  Compiled to SQL with bound parameters. */

#define WHERE_MAX 4096

typedef struct filter {
    gw_buf sql;
    char **texts;      /* bound in order; numbers are kept as text too (sqlite3_bind_double) */
    double *nums;
    int *is_num;
    size_t n;
} filter;

static void filter_free(filter *f)
{
    buf_free(&f->sql);
    kb_strlist_free(f->texts, f->n);
    free(f->nums);
    free(f->is_num);
}

static void filter_bind(filter *f, char *text, double num, int is_num)
{
    f->texts = gw_xrealloc(f->texts, (f->n + 1) * sizeof *f->texts);
    f->nums = gw_xrealloc(f->nums, (f->n + 1) * sizeof *f->nums);
    f->is_num = gw_xrealloc(f->is_num, (f->n + 1) * sizeof *f->is_num);
    f->texts[f->n] = text;
    f->nums[f->n] = num;
    f->is_num[f->n] = is_num;
    f->n++;
}

static int field_list_error(gw_error *err, const char *what, const char *name)
{
    gw_buf b = GW_BUF_INIT;
    const char *const *fields = kb_gpu_fields();
    for (const char *const *f = fields; *f; f++)
        buf_printf(&b, "%s%s", f == fields ? "" : ", ", *f);
    int rc = gw_error_set(err, GW_EUSAGE, "%sunknown field '%.60s' (fields: %s)", what, name,
                          buf_cstr(&b));
    buf_free(&b);
    return rc;
}

static int printable(unsigned char c)
{
    return c >= 0x80 || isprint(c);
}

/* A cursor over the --where text; positions in messages count from 1. */
typedef struct scan {
    const char *where, *p;
} scan;

static size_t scan_pos(const scan *s, const char *at)
{
    return (size_t)(at - s->where) + 1;
}

static void skip_space(scan *s)
{
    while (isspace((unsigned char)*s->p))
        s->p++;
}

/* FIELD: a GPU field, in any case.  field gets it in lower case. */
static int read_field(scan *s, char *field, size_t fieldsz, const kb_column **col,
                      gw_error *err)
{
    const char *start = s->p;
    while (isalnum((unsigned char)*s->p) || *s->p == '_')
        s->p++;
    if (s->p == start) {
        if (printable((unsigned char)*s->p))
            return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected a field "
                                "name, found '%c'", scan_pos(s, start), *s->p);
        return gw_error_set(err, GW_EUSAGE, "--where: position %zu: unexpected byte 0x%02x",
                            scan_pos(s, start), (unsigned char)*s->p);
    }
    snprintf(field, fieldsz, "%.*s", (int)(s->p - start), start);
    for (char *c = field; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (!(*col = gpu_field(field)))
        return field_list_error(err, "--where: ", field);
    return GW_OK;
}

/* OP := = == != < <= > >= ~ ; *op gets its SQL-side spelling ("==" is "="). */
static int read_operator(scan *s, const char *field, const char **op, gw_error *err)
{
    const char *p = s->p;
    if (strncmp(p, "<=", 2) == 0 || strncmp(p, ">=", 2) == 0 || strncmp(p, "!=", 2) == 0 ||
        strncmp(p, "==", 2) == 0) {
        *op = p[0] == '=' ? "=" : p[0] == '<' ? "<=" : p[0] == '>' ? ">=" : "!=";
        s->p += 2;
        return GW_OK;
    }
    if (*p == '<' || *p == '>' || *p == '=' || *p == '~') {
        *op = *p == '<' ? "<" : *p == '>' ? ">" : *p == '=' ? "=" : "~";
        s->p++;
        return GW_OK;
    }
    return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected an operator "
                        "(= != < <= > >= ~) after '%s'", scan_pos(s, p), field);
}

/* 'text' or "text"; the quote doubled inside is one quote. */
static int read_quoted(scan *s, gw_buf *value, gw_error *err)
{
    const char *start = s->p;
    char q = *s->p++;
    for (;;) {
        if (!*s->p)
            return gw_error_set(err, GW_EUSAGE, "--where: position %zu: unterminated string "
                                "(missing %c)", scan_pos(s, start), q);
        if (*s->p == q && s->p[1] == q) {
            buf_putc(value, q);
            s->p += 2;
        } else if (*s->p == q) {
            s->p++;
            buf_puts(value, "");
            return GW_OK;
        } else {
            buf_putc(value, *s->p++);
        }
    }
}

/* A bare word: up to the next space; quotes, ';' and brackets must be quoted. */
static int read_bare(scan *s, const char *field, const char *op, gw_buf *value, gw_error *err)
{
    for (; *s->p && !isspace((unsigned char)*s->p); s->p++) {
        if (!printable((unsigned char)*s->p) || strchr("'\";()", *s->p))
            return gw_error_set(err, GW_EUSAGE, "--where: position %zu: unexpected character "
                                "in a value (quote text that has it)", scan_pos(s, s->p));
        buf_putc(value, *s->p);
    }
    if (value->len == 0)
        return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected a value after "
                            "'%s %s'", scan_pos(s, s->p), field, op);
    return GW_OK;
}

/* VALUE, as the field's type reads it: *text (caller frees), and *num for a number field. */
static int read_value(scan *s, const char *field, const char *op, int numeric, char **text,
                      double *num, gw_error *err)
{
    gw_buf value = GW_BUF_INIT;
    int rc = *s->p == '\'' || *s->p == '"' ? read_quoted(s, &value, err)
                                            : read_bare(s, field, op, &value, err);
    *text = buf_detach(&value);
    *num = NAN;
    if (rc != GW_OK || !numeric)
        return rc;
    if (strcmp(op, "~") == 0)
        return gw_error_set(err, GW_EUSAGE, "--where: '~' (contains) needs a text field; %s "
                            "is a number", field);
    /* decimal only: "0x10", "inf" and "nan" are not what anyone means by a size or a speed */
    if (!gw_parse_decimal(*text, num))
        return gw_error_set(err, GW_EUSAGE, "--where: %s: '%.60s' is not a number (decimal "
                            "only: 12, 0.5, 2.5e3)", field, *text);
    return GW_OK;
}

/* The SQL of one condition, its value bound as the next parameter.  Takes text. */
static void condition_sql(filter *f, const char *field, const char *op, int numeric, char *text,
                          double num)
{
    buf_printf(&f->sql, "%s", f->n ? " AND " : "");
    if (strcmp(op, "~") == 0) {
        /* contains, case-insensitive: LIKE with the pattern characters escaped */
        gw_buf pat = GW_BUF_INIT;
        buf_putc(&pat, '%');
        for (const char *c = text; *c; c++) {
            if (*c == '%' || *c == '_' || *c == '\\')
                buf_putc(&pat, '\\');
            buf_putc(&pat, *c);
        }
        buf_putc(&pat, '%');
        free(text);
        text = buf_detach(&pat);
        buf_printf(&f->sql, "%s LIKE ?%zu ESCAPE '\\'", field, f->n + 1);
    } else if (!numeric && (strcmp(op, "=") == 0 || strcmp(op, "!=") == 0)) {
        buf_printf(&f->sql, "%s %s ?%zu COLLATE NOCASE", field, op, f->n + 1);
    } else {
        buf_printf(&f->sql, "%s %s ?%zu", field, op, f->n + 1);
    }
    filter_bind(f, text, num, numeric);
}

/* cond := FIELD OP VALUE */
static int read_condition(scan *s, filter *f, gw_error *err)
{
    char field[64];
    const kb_column *col;
    const char *op = NULL;
    char *text = NULL;
    double num;
    int rc = read_field(s, field, sizeof field, &col, err);
    if (rc == GW_OK) {
        skip_space(s);
        rc = read_operator(s, field, &op, err);
    }
    if (rc == GW_OK) {
        skip_space(s);
        rc = read_value(s, field, op, col->type != KB_TEXT, &text, &num, err);
    }
    if (rc != GW_OK) {
        free(text);
        return rc;
    }
    condition_sql(f, field, op, col->type != KB_TEXT, text, num);
    return GW_OK;
}

/* After a condition: "and" (or "&&"), and then *more is 1, or the end. */
static int read_and(scan *s, int *more, gw_error *err)
{
    skip_space(s);
    *more = 1;
    if (!*s->p) {
        *more = 0;
        return GW_OK;
    }
    if (strncasecmp(s->p, "and", 3) == 0 && (isspace((unsigned char)s->p[3]) || !s->p[3])) {
        s->p += 3;
        return GW_OK;
    }
    if (s->p[0] == '&' && s->p[1] == '&') {
        s->p += 2;
        return GW_OK;
    }
    return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected 'and' between "
                        "conditions", scan_pos(s, s->p));
}

/* where := cond { "and" cond } */
static int filter_compile(const char *where, filter *f, gw_error *err)
{
    scan s = {where, where};
    int more = 1, rc = GW_OK;
    if (strlen(where) > WHERE_MAX)
        return gw_error_set(err, GW_EUSAGE, "--where: too long (%d characters at most)",
                            WHERE_MAX);
    while (rc == GW_OK && more) {
        skip_space(&s);
        if (!*s.p && f->n == 0)
            return gw_error_set(err, GW_EUSAGE, "--where: empty filter (e.g. "
                                "'memory_gb>=48 and nvlink_gbs>0')");
        if (!*s.p)
            return gw_error_set(err, GW_EUSAGE, "--where: expected a condition after 'and'");
        rc = read_condition(&s, f, err);
        if (rc == GW_OK)
            rc = read_and(&s, &more, err);
    }
    return rc;
}

int kb_gpu_where_check(const char *where, gw_error *err)
{
    filter f = {GW_BUF_INIT, NULL, NULL, NULL, 0};
    int rc = filter_compile(where, &f, err);
    filter_free(&f);
    return rc;
}

int kb_gpu_list(kb *k, const char *where, const char *sort, kb_gpu **out, size_t *n,
                gw_error *err)
{
    filter f = {GW_BUF_INIT, NULL, NULL, NULL, 0};
    gw_buf sql = GW_BUF_INIT;
    sqlite3_stmt *st = NULL;
    int rc = GW_OK, desc = 0;
    const char *sort_field = NULL;

    *out = NULL;
    *n = 0;
    if (where && (rc = filter_compile(where, &f, err)) != GW_OK)
        goto done;
    if (sort && *sort) {
        desc = sort[0] == '-';
        sort_field = sort + (sort[0] == '-' || sort[0] == '+');
        if (!gpu_field(sort_field)) {
            rc = field_list_error(err, "--sort: ", sort_field);
            goto done;
        }
    }
    kb_sql_select(&sql, &kb_tables[KB_GPUS], NULL);
    if (f.n)
        buf_printf(&sql, " WHERE %s", buf_cstr(&f.sql));
    if (sort_field)   /* a name from the field list, never the user's text */
        buf_printf(&sql, " ORDER BY %s IS NULL, %s %s,", sort_field, sort_field,
                   desc ? "DESC" : "ASC");
    else
        buf_puts(&sql, " ORDER BY");
    buf_puts(&sql, " id");
    if ((rc = kb_sql_prepare(k, buf_cstr(&sql), &st, err)) != GW_OK)
        goto done;
    for (size_t i = 0; i < f.n; i++) {
        if (f.is_num[i])
            sqlite3_bind_double(st, (int)i + 1, f.nums[i]);
        else
            kb_sql_bind_text(st, (int)i + 1, f.texts[i]);
    }
    size_t cap = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 32;
            *out = gw_xrealloc(*out, cap * sizeof **out);
        }
        kb_gpu *g = &(*out)[(*n)++];
        kb_gpu_init(g);
        kb_row_from_sql(&kb_tables[KB_GPUS], st, 0, g);
    }
    if (step != SQLITE_DONE) {
        kb_gpus_free(*out, *n);
        *out = NULL;
        *n = 0;
        rc = kb_sql_fail(k, err, step, "listing GPUs");
    }
done:
    sqlite3_finalize(st);
    buf_free(&sql);
    filter_free(&f);
    return rc;
}

