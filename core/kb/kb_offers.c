/* kb_offers.c — the offers listing (kb_offers.h): its fields, each described once with the SQL
 * that computes it, the query that the --where language of kb_filter.c filters, and its sort. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "base/units.h"
#include "kb_area.h"
#include "kb_filter.h"
#include "kb_offers.h"
#include "kb_sql.h"
#include "kb_table.h"

/* The figures over p (the price row) and g (its GPU).  "?C" stands for the currency asked (a
 * bound parameter, NULL for each offer's own); gw_price_in converts (kb_filter.h). */
#define COUNT_SQL "COALESCE(NULLIF(p.gpu_count, 0), 1)"
#define FRACTION_SQL "gw_fraction(COALESCE(p.gpu_fraction, 1))"
#define PER_HOUR_SQL "gw_price_in(p.amount, p.currency, ?C)"
#define USD_SQL "COALESCE(gw_price_in(p.amount, p.currency, 'USD'), p.amount)"

typedef struct offer_field {
    const char *name;    /* what --where, --sort and the listing call it */
    const char *alias;   /* the JSON key where it differs; NULL none */
    int numeric;
    const char *sql;
    const char *sort_sql;   /* what --sort orders by, where not the field itself: a price's
                             * value in USD, so that currencies compare */
} offer_field;

static const offer_field fields[] = {
    {"gpu", NULL, 0, "p.gpu", NULL},
    {"memory_gb", NULL, 1, "g.memory_gb * " FRACTION_SQL, NULL},
    {"count", "gpu_count", 1, COUNT_SQL, NULL},
    {"gpu_fraction", NULL, 1, FRACTION_SQL, NULL},
    {"provider", NULL, 0, "p.provider", NULL},
    {"instance", NULL, 0, "p.instance", NULL},
    {"region", NULL, 0, "p.region", NULL},
    {"area", NULL, 0, "gw_area(p.region)", NULL},
    {"spot", NULL, 1, "p.spot", NULL},
    {"price", "price_per_hour", 1, PER_HOUR_SQL, USD_SQL},
    {"price_per_gpu", "price_per_gpu_hour", 1,
     PER_HOUR_SQL " / (" COUNT_SQL " * " FRACTION_SQL ")",
     USD_SQL " / (" COUNT_SQL " * " FRACTION_SQL ")"},
    {"currency", NULL, 0, "COALESCE(?C, p.currency)", NULL},
    {"as_of", NULL, 0, "p.as_of", NULL},
    {"source", NULL, 0, "p.source", NULL},
    {"quality", NULL, 0, "p.quality", NULL},
};
#define N_FIELDS (sizeof fields / sizeof fields[0])
/* The columns kb_offer holds, by their place in fields[]. */
enum { F_MEMORY = 1, F_COUNT = 2, F_FRACTION = 3, F_PER_HOUR = 9, F_PER_GPU = 10, F_CURRENCY = 11 };
/* `region ~ eu` also holds where this field is EU: RunPod's CZ and Azure's swedencentral have no
 * "eu" in their names, and a renter asking for the EU means them too. */
#define REGION_ALSO "area"

static const offer_field *offer_field_find(const char *name)
{
    for (size_t i = 0; name && i < N_FIELDS; i++)
        if (!strcmp(fields[i].name, name) || (fields[i].alias && !strcmp(fields[i].alias, name)))
            return &fields[i];
    return NULL;
}

static int filter_find(const char *name, kb_filter_field *out)
{
    const offer_field *f = offer_field_find(name);
    if (f)
        *out = (kb_filter_field){f->name, f->numeric, 0,
                                 !strcmp(f->name, "region") ? REGION_ALSO : NULL};
    return f != NULL;
}

static void filter_names(gw_buf *b)
{
    for (size_t i = 0; i < N_FIELDS; i++)
        buf_printf(b, "%s%s", i ? ", " : "", fields[i].name);
}

static const kb_filter_fields offer_fields = {filter_find, filter_names};

/* gw_fraction(x): the share x stands for, exactly (0.167 is 1/6), else x. */
static void fraction_exact(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    double x = sqlite3_value_double(argv[0]);
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
        sqlite3_result_null(cx);
    else
        sqlite3_result_double(cx, units_fraction_exact(x));
}

/* gw_area(region): the region's area (kb_area_of), NULL where no rule reads it. */
static void area_of(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    const char *area = kb_area_of((const char *)sqlite3_value_text(argv[0]));
    (void)argc;
    if (area)
        sqlite3_result_text(cx, area, -1, SQLITE_STATIC);
    else
        sqlite3_result_null(cx);
}

/* gw_fraction and gw_area, registered while the listing runs (on), then removed. */
static int functions_register(kb *k, int on, gw_error *err)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int rc = sqlite3_create_function_v2(k->db, "gw_fraction", 1, flags, NULL,
                                        on ? fraction_exact : NULL, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(k->db, "gw_area", 1, flags, NULL, on ? area_of : NULL,
                                        NULL, NULL, NULL);
    return rc == SQLITE_OK ? GW_OK : kb_sql_fail(k, err, rc, "listing offers");
}

/* sql with each "?C" made the numbered parameter currency_param. */
static void put_sql(gw_buf *out, const char *sql, size_t currency_param)
{
    for (const char *c = sql; *c; c++) {
        if (c[0] == '?' && c[1] == 'C') {
            buf_printf(out, "?%zu", currency_param);
            c++;
        } else {
            buf_putc(out, *c);
        }
    }
}

/* The parameters after the filter's ?1..?n: the currency, then the spot flag, the price limit
 * and the GPU ids. */
typedef struct offer_params {
    size_t currency, spot, max_price, first_gpu;
} offer_params;

/* SELECT the row's id and columns (as p_*), each field under its name and each sort key as
 * sort_NAME, FROM the cloud prices of the query; then the filter and the order around it. */
static void offers_sql(gw_buf *sql, const kb_offer_query *q, const kb_filter *f,
                       const offer_field *sort, int desc, const offer_params *pp)
{
    const kb_table *t = &kb_tables[KB_PRICES];
    buf_puts(sql, "SELECT * FROM (SELECT p.id AS p_rowid");
    for (int i = 0; i < t->ncols; i++)
        buf_printf(sql, ", p.%s AS p_%s", t->cols[i].name, t->cols[i].name);
    for (size_t i = 0; i < N_FIELDS; i++) {
        buf_puts(sql, ", ");
        put_sql(sql, fields[i].sql, pp->currency);
        buf_printf(sql, " AS %s", fields[i].name);
    }
    buf_printf(sql, ", %s AS sort_key", sort->sort_sql ? sort->sort_sql : sort->sql);
    buf_puts(sql, " FROM price p LEFT JOIN gpu g ON g.id = p.gpu WHERE p.kind = 'cloud'");
    if (q->spot >= 0)
        buf_printf(sql, " AND p.spot = ?%zu", pp->spot);
    if (q->gpus) {
        buf_puts(sql, " AND p.gpu IN (");
        for (size_t i = 0; i < q->n_gpus; i++)
            buf_printf(sql, "%s?%zu", i ? ", " : "", pp->first_gpu + i);
        buf_puts(sql, q->n_gpus ? ")" : "NULL)");
    }
    buf_puts(sql, ")");
    const char *and = " WHERE ";
    if (f->n) {
        buf_printf(sql, "%s(%s)", and, buf_cstr(&f->sql));
        and = " AND ";
    }
    if (!isnan(q->max_per_gpu))
        buf_printf(sql, "%sprice_per_gpu <= ?%zu", and, pp->max_price);
    /* the sort key is computed from the descriptions, never the user's text */
    buf_printf(sql, " ORDER BY sort_key IS NULL, sort_key %s, gpu, p_rowid",
               desc ? "DESC" : "ASC");
}

static void offers_bind(sqlite3_stmt *st, const kb_offer_query *q, const kb_filter *f,
                        const offer_params *pp)
{
    kb_filter_bind(f, st);
    kb_sql_bind_text(st, (int)pp->currency, q->currency);
    if (q->spot >= 0)
        sqlite3_bind_int(st, (int)pp->spot, q->spot);
    if (!isnan(q->max_per_gpu))
        sqlite3_bind_double(st, (int)pp->max_price, q->max_per_gpu);
    for (size_t i = 0; q->gpus && i < q->n_gpus; i++)
        kb_sql_bind_text(st, (int)(pp->first_gpu + i), q->gpus[i]);
}

static void offer_from_sql(sqlite3_stmt *st, kb_offer *o)
{
    const kb_table *t = &kb_tables[KB_PRICES];
    int first = 1 + t->ncols;
    memset(&o->price, 0, sizeof o->price);
    o->price.id = sqlite3_column_int64(st, 0);
    kb_row_from_sql(t, st, 1, &o->price);
    o->memory_gb = kb_sql_number(st, first + F_MEMORY);
    o->count = kb_sql_number(st, first + F_COUNT);
    o->fraction = kb_sql_number(st, first + F_FRACTION);
    o->per_hour = kb_sql_number(st, first + F_PER_HOUR);
    o->per_gpu = kb_sql_number(st, first + F_PER_GPU);
    o->currency = kb_sql_text(st, first + F_CURRENCY);
    o->area = kb_area_of(o->price.region);
}

/* The sort field and direction of "[-+]FIELD" (NULL: the price per GPU-hour, lowest first). */
static int read_sort(const char *sort, const offer_field **field, int *desc, gw_error *err)
{
    *desc = sort && sort[0] == '-';
    const char *name = sort ? sort + (sort[0] == '-' || sort[0] == '+') : "price_per_gpu";
    *field = offer_field_find(name);
    return *field ? GW_OK : kb_filter_unknown(&offer_fields, err, "--sort: ", name);
}

int kb_offers_list(kb *k, const kb_offer_query *q, kb_offer **out, size_t *n, gw_error *err)
{
    kb_filter f = KB_FILTER_INIT;
    gw_buf sql = GW_BUF_INIT;
    sqlite3_stmt *st = NULL;
    kb_convert_to conv = {k, NULL, GW_OK, {0, ""}};
    const offer_field *sort = NULL;
    int desc = 0, registered = 0, step = SQLITE_DONE;
    size_t cap = 0;
    double unit;

    *out = NULL;
    *n = 0;
    int rc = read_sort(q->sort, &sort, &desc, err);
    if (rc == GW_OK && q->where)
        rc = kb_filter_compile(q->where, &offer_fields, &f, err);
    /* a currency the KB cannot convert to is an error, not a column of unknowns */
    if (rc == GW_OK && q->currency)
        rc = kb_convert(k, 1, "USD", q->currency, &unit, err);
    if (rc == GW_OK && (rc = kb_price_in_register(k, &conv, err)) == GW_OK &&
        (rc = functions_register(k, 1, err)) == GW_OK)
        registered = 1;
    offer_params pp = {f.n + 1, f.n + 2, f.n + 3, f.n + 4};
    if (rc == GW_OK) {
        offers_sql(&sql, q, &f, sort, desc, &pp);
        rc = kb_sql_prepare(k, buf_cstr(&sql), &st, err);
    }
    if (rc == GW_OK) {
        offers_bind(st, q, &f, &pp);
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
            if (*n == cap) {
                cap = cap ? cap * 2 : 64;
                *out = gw_xrealloc(*out, cap * sizeof **out);
            }
            offer_from_sql(st, &(*out)[(*n)++]);
        }
    }
    if (rc == GW_OK && step != SQLITE_DONE) {
        kb_offers_free(*out, *n);
        *out = NULL;
        *n = 0;
        if (conv.rc != GW_OK) {
            *err = conv.err;
            rc = conv.rc;
        } else {
            rc = kb_sql_fail(k, err, step, "listing offers");
        }
    }
    sqlite3_finalize(st);
    if (registered) {
        kb_price_in_unregister(k);
        functions_register(k, 0, err);
    }
    buf_free(&sql);
    kb_filter_free(&f);
    return rc;
}

const char *kb_offer_field_name(size_t i)
{
    return i < N_FIELDS ? fields[i].name : NULL;
}

void kb_offers_free(kb_offer *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++) {
        kb_row_free_strings(&kb_tables[KB_PRICES], &rows[i].price);
        free(rows[i].currency);
    }
    free(rows);
}
