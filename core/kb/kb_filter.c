/* kb_filter.c — the --where language ("memory_gb>=48 and (nvlink_gbs>0 or vendor=AMD)"),
 * compiled to SQL whose values are all bound parameters over the fields a listing names
 * (kb_filter.h: `kb list` here, `offers` in kb_offers.c), and the listing of `kb list`: its
 * --sort field and its fields, the GPU columns kb_table.c describes, less those about the row
 * (source, note), and the derived fields described here (a GPU's latest new price in a chosen
 * currency, per GB, per TFLOPS, per TB/s, and TFLOPS per watt). */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "base/check.h"
#include "kb.h"
#include "kb_filter.h"
#include "kb_sql.h"
#include "kb_table.h"

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

/* ---- the derived fields, each described once ---------------------------------------------
 * sql is the field's expression over g (the gpu row) and np (the new price chosen for it, see
 * NEW_PRICES_SQL: card, one card's price in the currency asked; as_of; source).  A figure that
 * divides by an unknown or zero figure is unknown (NULL), never 0 or infinite. */
typedef struct derived_field {
    kb_derived d;
    const char *sql;
} derived_field;

#define V(f) ((ptrdiff_t)offsetof(kb_gpu_value, f))
static const derived_field derived[] = {
    {{"new_price", KB_NUMBER, 1, "", "New price per card",
      "the latest new price of one card (of several on that date, the lowest), in `--currency` "
      "at the KB's latest exchange rates (a price in a currency without a rate is left out); a "
      "GPU sold only in servers (SXM, OAM: a price naming a `system`) costs the server's price / "
      "its `gpu_count`", V(new_price)}, "np.card"},
    {{"new_price_as_of", KB_TEXT, 0, "", "New price as of", "the date that price was observed",
      V(new_price_as_of)}, "np.as_of"},
    {{"new_price_source", KB_TEXT, 0, "", "New price source",
      "the source that price cites (`gpuwise kb source ID`)", V(new_price_source)}, "np.source"},
    {{"price_per_gb", KB_NUMBER, 1, "per GB", "Price per GB of memory",
      "`new_price / memory_gb`", V(price_per_gb)}, "np.card / NULLIF(g.memory_gb, 0)"},
    {{"price_per_fp16_tflops", KB_NUMBER, 1, "per TFLOPS", "Price per dense FP16 TFLOPS",
      "`new_price / fp16_tflops`", V(price_per_fp16_tflops)},
     "np.card / NULLIF(g.fp16_tflops, 0)"},
    {{"price_per_tbs", KB_NUMBER, 1, "per TB/s", "Price per TB/s of memory bandwidth",
      "`new_price / (memory_bandwidth_gbs / 1000)`", V(price_per_tbs)},
     "np.card / NULLIF(g.memory_bandwidth_gbs / 1000.0, 0)"},
    {{"fp16_tflops_per_w", KB_NUMBER, 0, "TFLOPS/W", "Dense FP16 TFLOPS per watt",
      "`fp16_tflops / tdp_w` (no price needed)", V(fp16_tflops_per_w)},
     "g.fp16_tflops / NULLIF(g.tdp_w, 0)"},
};
#undef V
#define N_DERIVED (sizeof derived / sizeof derived[0])

/* Each GPU's new prices as one card's worth in the currency asked (a server's price over its
 * GPUs: a price's gpu_count is what its amount buys), numbered latest first and, on one date,
 * lowest first (then by row, so the choice never depends on the plan): number 1 is the price the
 * derived fields use.  Dates compare as text, so "2024-08-15" is later than "2024-08".
 * gw_price_in converts (price_in below). */
#define NEW_PRICES_SQL                                                                         \
    "SELECT gpu, card, as_of, source, row_number() OVER (PARTITION BY gpu ORDER BY as_of DESC," \
    " card, id) AS pick FROM (SELECT id, gpu, as_of, source,"                                  \
    " gw_price_in(amount / COALESCE(gpu_count, 1), currency) AS card FROM price"                \
    " WHERE kind = 'new') WHERE card IS NOT NULL"

const kb_derived *kb_gpu_derived(size_t i)
{
    return i < N_DERIVED ? &derived[i].d : NULL;
}

const kb_derived *kb_gpu_derived_find(const char *name)
{
    for (size_t i = 0; name && i < N_DERIVED; i++)
        if (!strcmp(derived[i].d.name, name))
            return &derived[i].d;
    return NULL;
}

static void *value_at(const kb_derived *d, const kb_gpu_value *v)
{
    return (char *)v + d->offset;
}

double kb_derived_number(const kb_derived *d, const kb_gpu_value *v)
{
    return d->type == KB_TEXT ? NAN : *(const double *)value_at(d, v);
}

const char *kb_derived_text(const kb_derived *d, const kb_gpu_value *v)
{
    return d->type == KB_TEXT ? *(char *const *)value_at(d, v) : NULL;
}

static void value_init(kb_gpu_value *v)
{
    for (size_t i = 0; i < N_DERIVED; i++) {
        if (derived[i].d.type == KB_TEXT)
            *(char **)value_at(&derived[i].d, v) = NULL;
        else
            *(double *)value_at(&derived[i].d, v) = NAN;
    }
}

void kb_gpu_values_free(kb_gpu_value *rows, size_t n)
{
    for (size_t r = 0; rows && r < n; r++)
        for (size_t i = 0; i < N_DERIVED; i++)
            if (derived[i].d.type == KB_TEXT)
                free(*(char **)value_at(&derived[i].d, &rows[r]));
    free(rows);
}

/* ---- fields ------------------------------------------------------------------------------ */

static int field_find(const char *name, kb_filter_field *out)
{
    const kb_column *c = kb_table_column(KB_GPUS, name);
    const kb_derived *d = kb_gpu_derived_find(name);
    if (c && !(c->flags & KB_META)) {
        *out = (kb_filter_field){c->name, c->type != KB_TEXT, 0, NULL};
        return 1;
    }
    if (d) {
        *out = (kb_filter_field){d->name, d->type != KB_TEXT, 1, NULL};
        return 1;
    }
    return 0;
}

static void field_names(gw_buf *b)
{
    const char *const *fields = kb_gpu_fields();
    for (const char *const *f = fields; *f; f++)
        buf_printf(b, "%s%s", f == fields ? "" : ", ", *f);
    for (size_t i = 0; i < N_DERIVED; i++)
        buf_printf(b, ", %s", derived[i].d.name);
}

/* `kb list`'s fields: the GPU columns, then the derived ones. */
static const kb_filter_fields gpu_fields = {field_find, field_names};

int kb_filter_unknown(const kb_filter_fields *fields, gw_error *err, const char *what,
                      const char *name)
{
    gw_buf b = GW_BUF_INIT;
    fields->names(&b);
    int rc = gw_error_set(err, GW_EUSAGE, "%sunknown field '%.60s' (fields: %s)", what, name,
                          buf_cstr(&b));
    buf_free(&b);
    return rc;
}

int kb_list_field_check(const char *what, const char *name, gw_error *err)
{
    kb_filter_field f;
    return field_find(name, &f) ? GW_OK : kb_filter_unknown(&gpu_fields, err, what, name);
}

/* ---- the language ---------------------------------------------------------------------- */
/* where := or ; or := and { ("or" | "||") and } ; and := factor { ("and" | "&&") factor }
 * factor := "(" or ")" | cond ; cond := FIELD OP VALUE ; OP := = == != < <= > >= ~
 * VALUE := NUMBER | 'text' | "text" | bare-word.  "and" binds tighter than "or", as in SQL, so
 * `a or b and c` is `a or (b and c)`; the SQL keeps the user's parentheses and nothing else
 * needs adding.  Every value is a bound parameter. */

#define WHERE_MAX 4096
#define WHERE_DEPTH 32   /* parentheses inside parentheses, at most */

void kb_filter_free(kb_filter *f)
{
    buf_free(&f->sql);
    kb_strlist_free(f->texts, f->n);
    free(f->nums);
    free(f->is_num);
}

void kb_filter_bind(const kb_filter *f, sqlite3_stmt *st)
{
    for (size_t i = 0; i < f->n; i++) {
        if (f->is_num[i])
            sqlite3_bind_double(st, (int)i + 1, f->nums[i]);
        else
            kb_sql_bind_text(st, (int)i + 1, f->texts[i]);
    }
}

static void filter_bind(kb_filter *f, char *text, double num, int is_num)
{
    f->texts = gw_xrealloc(f->texts, (f->n + 1) * sizeof *f->texts);
    f->nums = gw_xrealloc(f->nums, (f->n + 1) * sizeof *f->nums);
    f->is_num = gw_xrealloc(f->is_num, (f->n + 1) * sizeof *f->is_num);
    f->texts[f->n] = text;
    f->nums[f->n] = num;
    f->is_num[f->n] = is_num;
    f->n++;
}

static int printable(unsigned char c)
{
    return c >= 0x80 || isprint(c);
}

static int word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* A cursor over the --where text; positions in messages count from 1.  depth: the parentheses
 * open around it. */
typedef struct scan {
    const char *where, *p;
    int depth;
    const kb_filter_fields *fields;
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

/* FIELD: one of the listing's fields, in any case. */
static int read_field(scan *s, kb_filter_field *out, gw_error *err)
{
    char name[64];
    const char *start = s->p;
    while (word_char(*s->p))
        s->p++;
    if (s->p == start) {
        if (printable((unsigned char)*s->p))
            return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected a field "
                                "name, found '%c'", scan_pos(s, start), *s->p);
        return gw_error_set(err, GW_EUSAGE, "--where: position %zu: unexpected byte 0x%02x",
                            scan_pos(s, start), (unsigned char)*s->p);
    }
    snprintf(name, sizeof name, "%.*s", (int)(s->p - start), start);
    for (char *c = name; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (!s->fields->find(name, out))
        return kb_filter_unknown(s->fields, err, "--where: ", name);
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

/* A bare word: up to the next space, a closing parenthesis, "&&" or "||"; quotes, ';' and '('
 * must be quoted. */
static int read_bare(scan *s, const char *field, const char *op, gw_buf *value, gw_error *err)
{
    for (; *s->p && !isspace((unsigned char)*s->p) && *s->p != ')' &&
           strncmp(s->p, "&&", 2) != 0 && strncmp(s->p, "||", 2) != 0;
         s->p++) {
        if (!printable((unsigned char)*s->p) || strchr("'\";(", *s->p))
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
static void condition_sql(kb_filter *f, const kb_filter_field *fl, const char *op, char *text,
                          double num)
{
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
        if (fl->or_equal) {   /* (name LIKE ?n OR or_equal = ?n+1): the pattern, then the text */
            buf_printf(&f->sql, "(%s LIKE ?%zu ESCAPE '\\' OR %s = ?%zu COLLATE NOCASE)",
                       fl->name, f->n + 1, fl->or_equal, f->n + 2);
            filter_bind(f, buf_detach(&pat), NAN, 0);
        } else {
            buf_printf(&f->sql, "%s LIKE ?%zu ESCAPE '\\'", fl->name, f->n + 1);
            free(text);
            text = buf_detach(&pat);
        }
    } else if (!fl->numeric && (strcmp(op, "=") == 0 || strcmp(op, "!=") == 0)) {
        buf_printf(&f->sql, "%s %s ?%zu COLLATE NOCASE", fl->name, op, f->n + 1);
    } else {
        buf_printf(&f->sql, "%s %s ?%zu", fl->name, op, f->n + 1);
    }
    f->derived |= fl->is_derived;
    filter_bind(f, text, num, fl->numeric);
}

/* cond := FIELD OP VALUE */
static int read_condition(scan *s, kb_filter *f, gw_error *err)
{
    kb_filter_field fl;
    const char *op = NULL;
    char *text = NULL;
    double num;
    int rc = read_field(s, &fl, err);
    if (rc == GW_OK) {
        skip_space(s);
        rc = read_operator(s, fl.name, &op, err);
    }
    if (rc == GW_OK) {
        skip_space(s);
        rc = read_value(s, fl.name, op, fl.numeric, &text, &num, err);
    }
    if (rc != GW_OK) {
        free(text);
        return rc;
    }
    condition_sql(f, &fl, op, text, num);
    return GW_OK;
}

/* The connectives: "and" / "&&" and "or" / "||", the words in any case and whole. */
enum connective { CONN_NONE, CONN_AND, CONN_OR };

static enum connective connective_at(const char *p, size_t *len)
{
    *len = 2;
    if (p[0] == '&' && p[1] == '&')
        return CONN_AND;
    if (p[0] == '|' && p[1] == '|')
        return CONN_OR;
    if (strncasecmp(p, "or", 2) == 0 && !word_char(p[2]))
        return CONN_OR;
    *len = 3;
    if (strncasecmp(p, "and", 3) == 0 && !word_char(p[3]))
        return CONN_AND;
    *len = 0;
    return CONN_NONE;
}

/* What came before a factor, for messages: an operator or '(' as written, and where; NULL at the
 * start. */
typedef struct before {
    const char *at;
    size_t len;
} before;

static int read_or(scan *s, kb_filter *f, before b, gw_error *err);

/* factor := "(" or ")" | cond */
static int read_factor(scan *s, kb_filter *f, before b, gw_error *err)
{
    size_t len;
    skip_space(s);
    if (connective_at(s->p, &len) != CONN_NONE)
        return gw_error_set(err, GW_EUSAGE, "--where: '%.*s' at position %zu has no condition "
                            "before it", (int)len, s->p, scan_pos(s, s->p));
    if ((!*s->p || *s->p == ')') && b.at)
        return gw_error_set(err, GW_EUSAGE, "--where: expected a condition after '%.*s' at "
                            "position %zu", (int)b.len, b.at, scan_pos(s, b.at));
    if (*s->p == ')')
        return gw_error_set(err, GW_EUSAGE, "--where: ')' at position %zu has no matching '('",
                            scan_pos(s, s->p));
    if (*s->p != '(')
        return read_condition(s, f, err);
    const char *open = s->p++;
    if (++s->depth > WHERE_DEPTH)
        return gw_error_set(err, GW_EUSAGE, "--where: position %zu: parentheses nested more "
                            "than %d deep", scan_pos(s, open), WHERE_DEPTH);
    buf_putc(&f->sql, '(');
    int rc = read_or(s, f, (before){open, 1}, err);
    if (rc != GW_OK)
        return rc;
    if (*s->p != ')')   /* read_or stops only at the end or a ')' */
        return gw_error_set(err, GW_EUSAGE, "--where: '(' at position %zu is not closed "
                            "(a ')' is missing)", scan_pos(s, open));
    s->p++;
    s->depth--;
    buf_putc(&f->sql, ')');
    return GW_OK;
}

/* and := factor { "and" factor }; stops before anything else. */
static int read_and(scan *s, kb_filter *f, before b, gw_error *err)
{
    int rc = read_factor(s, f, b, err);
    size_t len;
    while (rc == GW_OK) {
        skip_space(s);
        if (connective_at(s->p, &len) != CONN_AND)
            return GW_OK;
        b = (before){s->p, len};
        s->p += len;
        buf_puts(&f->sql, " AND ");
        rc = read_factor(s, f, b, err);
    }
    return rc;
}

/* or := and { "or" and }; stops at the end or a ')', the caller's to judge. */
static int read_or(scan *s, kb_filter *f, before b, gw_error *err)
{
    int rc = read_and(s, f, b, err);
    size_t len;
    while (rc == GW_OK) {
        skip_space(s);
        if (!*s->p || *s->p == ')')
            return GW_OK;
        if (connective_at(s->p, &len) != CONN_OR)
            return gw_error_set(err, GW_EUSAGE, "--where: position %zu: expected 'and' or "
                                "'or' between conditions", scan_pos(s, s->p));
        b = (before){s->p, len};
        s->p += len;
        buf_puts(&f->sql, " OR ");
        rc = read_and(s, f, b, err);
    }
    return rc;
}

int kb_filter_compile(const char *where, const kb_filter_fields *fields, kb_filter *f,
                      gw_error *err)
{
    scan s = {where, where, 0, fields};
    if (strlen(where) > WHERE_MAX)
        return gw_error_set(err, GW_EUSAGE, "--where: too long (%d characters at most)",
                            WHERE_MAX);
    skip_space(&s);
    if (!*s.p)
        return gw_error_set(err, GW_EUSAGE, "--where: empty filter (e.g. "
                            "'memory_gb>=48 and nvlink_gbs>0')");
    int rc = read_or(&s, f, (before){NULL, 0}, err);
    if (rc == GW_OK && *s.p == ')')
        return gw_error_set(err, GW_EUSAGE, "--where: ')' at position %zu has no matching '('",
                            scan_pos(&s, s.p));
    return rc;
}

int kb_gpu_where_check(const char *where, gw_error *err)
{
    kb_filter f = KB_FILTER_INIT;
    int rc = kb_filter_compile(where, &gpu_fields, &f, err);
    kb_filter_free(&f);
    return rc;
}

/* ---- the listing ------------------------------------------------------------------------- */

/* gw_price_in (kb_filter.h): one description of conversion serves every listing.  A currency
 * without a rate gives NULL, which leaves that price out; any other failure (an interrupt)
 * stops the query and is kept in rc. */
static void price_in(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    kb_convert_to *c = sqlite3_user_data(cx);
    const char *from = (const char *)sqlite3_value_text(argv[1]);
    const char *to = argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : c->to;
    double out;
    gw_error e = {0};
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || !from) {
        sqlite3_result_null(cx);
        return;
    }
    if (!to) {
        sqlite3_result_value(cx, argv[0]);
        return;
    }
    int rc = kb_convert(c->k, sqlite3_value_double(argv[0]), from, to, &out, &e);
    if (rc == GW_OK) {
        sqlite3_result_double(cx, out);
    } else if (rc == GW_ENOTFOUND || rc == GW_EUSAGE) {
        sqlite3_result_null(cx);
    } else {
        c->rc = rc;
        c->err = e;
        sqlite3_result_error(cx, e.msg, -1);
    }
}

int kb_price_in_register(kb *k, kb_convert_to *c, gw_error *err)
{
    int rc = sqlite3_create_function_v2(k->db, "gw_price_in", 2, SQLITE_UTF8, c, price_in, NULL,
                                        NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(k->db, "gw_price_in", 3, SQLITE_UTF8, c, price_in,
                                        NULL, NULL, NULL);
    return rc == SQLITE_OK ? GW_OK : kb_sql_fail(k, err, rc, "converting prices");
}

void kb_price_in_unregister(kb *k)
{
    for (int n = 2; n <= 3; n++)
        sqlite3_create_function_v2(k->db, "gw_price_in", n, SQLITE_UTF8, NULL, NULL, NULL, NULL,
                                   NULL);
}

/* The listing's SELECT: the gpu columns (then, with_derived, the derived fields, computed in a
 * subquery the filter and the sort then read like columns), filtered, sorted (unknown last),
 * then by id. */
static void list_sql(gw_buf *sql, const kb_filter *f, const char *sort_field, int desc,
                     int with_derived)
{
    const kb_table *t = &kb_tables[KB_GPUS];
    if (!with_derived) {
        kb_sql_select(sql, t, NULL);
    } else {
        buf_puts(sql, "SELECT ");
        kb_sql_column_list(sql, t, "");
        for (size_t i = 0; i < N_DERIVED; i++)
            buf_printf(sql, ", %s", derived[i].d.name);
        buf_puts(sql, " FROM (SELECT g.*");
        for (size_t i = 0; i < N_DERIVED; i++)
            buf_printf(sql, ", %s AS %s", derived[i].sql, derived[i].d.name);
        buf_puts(sql, " FROM gpu g LEFT JOIN (" NEW_PRICES_SQL ") np"
                      " ON np.gpu = g.id AND np.pick = 1)");
    }
    if (f->n)
        buf_printf(sql, " WHERE %s", buf_cstr(&f->sql));
    if (sort_field)   /* a name from the descriptions, never the user's text */
        buf_printf(sql, " ORDER BY %s IS NULL, %s %s,", sort_field, sort_field,
                   desc ? "DESC" : "ASC");
    else
        buf_puts(sql, " ORDER BY");
    buf_puts(sql, " id");
}

/* The derived fields of the row at the statement's columns first.. into v. */
static void values_from_sql(sqlite3_stmt *st, int first, kb_gpu_value *v)
{
    value_init(v);
    for (size_t i = 0; i < N_DERIVED; i++) {
        const kb_derived *d = &derived[i].d;
        if (d->type == KB_TEXT)
            *(char **)value_at(d, v) = kb_sql_text(st, first + (int)i);
        else
            *(double *)value_at(d, v) = kb_sql_number(st, first + (int)i);
    }
}

int kb_gpu_list_values(kb *k, const char *where, const char *sort, const char *currency,
                       kb_gpu **out, kb_gpu_value **values, size_t *n, gw_error *err)
{
    kb_filter f = KB_FILTER_INIT;
    gw_buf sql = GW_BUF_INIT;
    sqlite3_stmt *st = NULL;
    kb_convert_to conv = {k, currency ? currency : "USD", GW_OK, {0, ""}};
    kb_filter_field sort_field = {NULL, 0, 0, NULL};
    int rc = GW_OK, desc = 0, with_derived, registered = 0, step;
    size_t cap = 0;
    double unit;

    *out = NULL;
    if (values)
        *values = NULL;
    *n = 0;
    if (where && (rc = kb_filter_compile(where, &gpu_fields, &f, err)) != GW_OK)
        goto done;
    if (sort && *sort) {
        desc = sort[0] == '-';
        const char *name = sort + (sort[0] == '-' || sort[0] == '+');
        if (!field_find(name, &sort_field)) {
            rc = kb_filter_unknown(&gpu_fields, err, "--sort: ", name);
            goto done;
        }
    }
    with_derived = values || f.derived || sort_field.is_derived;
    /* a currency the KB cannot convert to is an error here, not a column of unknowns */
    if (with_derived && ((rc = kb_convert(k, 1, "USD", conv.to, &unit, err)) != GW_OK ||
                         (rc = kb_price_in_register(k, &conv, err)) != GW_OK))
        goto done;
    registered = with_derived;
    list_sql(&sql, &f, sort_field.name, desc, with_derived);
    if ((rc = kb_sql_prepare(k, buf_cstr(&sql), &st, err)) != GW_OK)
        goto done;
    kb_filter_bind(&f, st);
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 32;
            *out = gw_xrealloc(*out, cap * sizeof **out);
            if (values)
                *values = gw_xrealloc(*values, cap * sizeof **values);
        }
        kb_gpu *g = &(*out)[*n];
        kb_gpu_init(g);
        kb_row_from_sql(&kb_tables[KB_GPUS], st, 0, g);
        if (values)
            values_from_sql(st, kb_tables[KB_GPUS].ncols, &(*values)[*n]);
        (*n)++;
    }
    if (step != SQLITE_DONE) {
        kb_gpus_free(*out, *n);
        if (values) {
            kb_gpu_values_free(*values, *n);
            *values = NULL;
        }
        *out = NULL;
        *n = 0;
        if (conv.rc != GW_OK) {
            *err = conv.err;
            rc = conv.rc;
        } else {
            rc = kb_sql_fail(k, err, step, "listing GPUs");
        }
    }
done:
    sqlite3_finalize(st);
    if (registered)
        kb_price_in_unregister(k);
    buf_free(&sql);
    kb_filter_free(&f);
    return rc;
}

int kb_gpu_list(kb *k, const char *where, const char *sort, kb_gpu **out, size_t *n,
                gw_error *err)
{
    return kb_gpu_list_values(k, where, sort, NULL, out, NULL, n, err);
}
