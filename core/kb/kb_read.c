/* kb_read.c — reads: rows of a table into their structs (kb_table.c says which column goes
 * where), a GPU by id, its measured results, prices, sources, claims, aliases and names, the
 * figures the decision assumes, and the exchange rates with conversion between currencies. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sqlite3.h>

#include "base/check.h"
#include "base/clock.h"
#include "kb.h"
#include "kb_sql.h"
#include "kb_table.h"
#include "base/units.h"

/* Runs a SELECT of a table's columns (after `extra` leading columns) and collects the rows into
 * an array of structs of size `size`. */
typedef void (*row_fill)(sqlite3_stmt *st, void *obj);

/* Steps st (prepared and bound) to its end, collecting the rows into an array of structs of
 * size `size`; gives st back with kb_sql_done. */
static int collect_rows(kb *k, const kb_table *t, sqlite3_stmt *st, size_t size, int extra,
                        row_fill fill, void **out, size_t *n, gw_error *err)
{
    size_t cap = 0, count = 0;
    char *rows = NULL;
    *out = NULL;
    *n = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == cap) {
            cap = cap ? cap * 2 : 16;
            rows = gw_xrealloc(rows, cap * size);
        }
        void *obj = rows + count * size;
        memset(obj, 0, size);
        kb_row_from_sql(t, st, extra, obj);
        if (fill)
            fill(st, obj);
        count++;
    }
    kb_sql_done(k, st);
    if (step != SQLITE_DONE) {   /* a damaged file, or interrupted by a signal */
        for (size_t i = 0; i < count; i++)
            kb_row_free_strings(t, rows + i * size);
        free(rows);
        return kb_sql_fail(k, err, step, "reading");
    }
    *out = rows;
    *n = count;
    return GW_OK;
}

static int select_rows(kb *k, const kb_table *t, const char *sql, const char *const *params,
                       int nparams, size_t size, int extra, row_fill fill, void **out,
                       size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    *out = NULL;
    *n = 0;
    int rc = kb_sql_prepare_cached(k, sql, &st, err);
    if (rc)
        return rc;
    for (int i = 0; i < nparams; i++)
        kb_sql_bind_text(st, i + 1, params[i]);
    return collect_rows(k, t, st, size, extra, fill, out, n, err);
}

/* The first row of table whose `where` (one parameter, key) holds, copied into out (size bytes;
 * the caller owns its strings).  *found says whether there was one; out is untouched when not. */
static int select_one(kb *k, int table, const char *where, const char *key, size_t size,
                      void *out, int *found, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    void *rows = NULL;
    size_t n = 0;
    kb_sql_select(&sql, &kb_tables[table], NULL);
    buf_puts(&sql, where);
    const char *params[] = {key};
    int rc = select_rows(k, &kb_tables[table], buf_cstr(&sql), params, 1, size, 0, NULL, &rows,
                         &n, err);
    buf_free(&sql);
    *found = rc == GW_OK && n > 0;
    if (*found)
        memcpy(out, rows, size);
    free(rows);
    return rc;
}

int kb_select_rows(kb *k, const kb_table *t, const char *sql, const char *const *params,
                   int nparams, size_t size, int extra, row_fill fill, void **out, size_t *n,
                   gw_error *err)
{
    return select_rows(k, t, sql, params, nparams, size, extra, fill, out, n, err);
}

int kb_select_one(kb *k, int table, const char *where, const char *key, size_t size, void *out,
                  int *found, gw_error *err)
{
    return select_one(k, table, where, key, size, out, found, err);
}

int kb_gpu_get(kb *k, const char *id, kb_gpu *out, gw_error *err)
{
    int found;
    kb_gpu_init(out);
    int rc = select_one(k, KB_GPUS, " WHERE id = ?1", id, sizeof *out, out, &found, err);
    if (rc == GW_OK && !found)
        return gw_error_set(err, GW_ENOTFOUND, "no GPU with id '%s'", id);
    return rc;
}

/* " WHERE c1 = ?1 AND c3 = ?3" over the columns whose value is given (NULL: any), so that
 * SQLite uses the index on them: "(?1 IS NULL OR c1 = ?1)" makes it scan every row, which on a
 * KB of 1M benchmark rows took 784M instructions for a report instead of 27M. */
static void where_given(gw_buf *sql, const char *const *cols, const char *const *values, int n)
{
    int named = 0;
    for (int i = 0; i < n; i++)
        if (values[i])
            buf_printf(sql, "%s%s = ?%d", named++ ? " AND " : " WHERE ", cols[i], i + 1);
}

static void fill_benchmark(sqlite3_stmt *st, void *obj)
{
    ((kb_benchmark *)obj)->id = sqlite3_column_int64(st, 0);
}

/* ---- rows in order, sorted here ----
 * SQLite sorts a query's rows with every column it returns (a price's 21, a result's 28): for
 * the rows a decision reads whole (every price to buy, a benchmark's results) that was a third
 * of their reading, where qsort of the structs read costs a twentieth (a one-option report
 * 25.7 M -> 23.9 M instructions).  The order is SQLite's ascending one of the values as read:
 * NULL first, texts in byte order, numbers by value; the last key, the id, makes it total.  It
 * is the ORDER BY it replaces (test_kb checks it) where the KB holds valid UTF-8 and each column
 * its own type; in a file made outside gpuwise, a text is ordered as repaired (kb_text_repair)
 * and a text where a number belongs as that number (0, or NaN where it is NULL). */

static int text_order(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) : !!a - !!b;
}

static int number_order(double a, double b)   /* NaN: the column was NULL */
{
    return isnan(a) || isnan(b) ? !isnan(a) - !isnan(b) : (a > b) - (a < b);
}

/* By GPU, workload, metric, GPU count, value and id. */
static int benchmark_order(const void *pa, const void *pb)
{
    const kb_benchmark *a = pa, *b = pb;
    int c = text_order(a->gpu, b->gpu);
    if (!c)
        c = text_order(a->workload, b->workload);
    if (!c)
        c = text_order(a->metric, b->metric);
    if (!c)
        c = number_order(a->gpu_count, b->gpu_count);
    if (!c)
        c = number_order(a->value, b->value);
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

int kb_benchmarks_find(kb *k, const char *gpu, const char *workload, kb_benchmark **out,
                       size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_BENCHMARKS], "id");
    where_given(&sql, (const char *const[]){"gpu", "workload"},
                (const char *const[]){gpu, workload}, 2);
    const char *params[] = {gpu, workload};
    int rc = select_rows(k, &kb_tables[KB_BENCHMARKS], buf_cstr(&sql), params, 2,
                         sizeof(kb_benchmark), 1, fill_benchmark, (void **)out, n, err);
    buf_free(&sql);
    if (rc == GW_OK)
        qsort(*out, *n, sizeof **out, benchmark_order);
    return rc;
}

/* The median of the n values at v, sorted. */
static double sorted_median(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* 1 when column i of st is text, both NULL or the same. */
static int column_is(sqlite3_stmt *st, int i, const char *text)
{
    const char *v = (const char *)sqlite3_column_text(st, i);
    return v ? kb_streq(v, text) : !text;
}

/* 1 when the row at st (workload, metric, gpu_count, precision, unit first) is of summary s's
 * group. */
static int same_group(sqlite3_stmt *st, const kb_result_summary *s)
{
    return column_is(st, 0, s->workload) && column_is(st, 1, s->metric) &&
           sqlite3_column_double(st, 2) == s->gpu_count && column_is(st, 3, s->precision) &&
           column_is(st, 4, s->unit);
}

static int cmp_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Group s's sources (sources, taken), sorted, each once. */
static void summary_sources(kb_result_summary *s, kb_strlist *sources)
{
    size_t kept = 0;
    qsort(sources->v, sources->n, sizeof *sources->v, cmp_string);
    for (size_t i = 0; i < sources->n; i++) {
        if (kept && strcmp(sources->v[kept - 1], sources->v[i]) == 0)
            free(sources->v[i]);
        else
            sources->v[kept++] = sources->v[i];
    }
    s->sources = sources->v;
    s->n_sources = kept;
    memset(sources, 0, sizeof *sources);
}

/* The groups of kb_benchmarks_summary and their figures, from rows sorted by group and value:
 * each group's values are kept until the next group starts, for its median, and its sources
 * (the same source in a row is kept once) until then, to be sorted. */
static int summary_groups(kb *k, sqlite3_stmt *st, kb_result_summary **out, size_t *n,
                          gw_error *err)
{
    double *values = NULL;
    size_t cap = 0, cap_values = 0;
    kb_result_summary *s = NULL;
    kb_strlist sources = {0};
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (!s || !same_group(st, s)) {
            if (s)
                summary_sources(s, &sources);
            if (*n == cap) {
                cap = cap ? cap * 2 : 16;
                *out = gw_xrealloc(*out, cap * sizeof **out);
            }
            s = &(*out)[(*n)++];
            memset(s, 0, sizeof *s);
            s->workload = kb_sql_text(st, 0);
            s->metric = kb_sql_text(st, 1);
            s->gpu_count = sqlite3_column_double(st, 2);
            s->precision = kb_sql_text(st, 3);
            s->unit = kb_sql_text(st, 4);
        }
        if (s->rows == cap_values) {
            cap_values = cap_values ? cap_values * 2 : 64;
            values = gw_xrealloc(values, cap_values * sizeof *values);
        }
        values[s->rows++] = sqlite3_column_double(st, 5);
        s->min = values[0];
        s->max = values[s->rows - 1];
        s->median = sorted_median(values, s->rows);
        const char *source = (const char *)sqlite3_column_text(st, 6);
        if (source && !(sources.n && strcmp(sources.v[sources.n - 1], source) == 0))
            kb_strlist_push(&sources, gw_xstrdup(source));
    }
    if (s)
        summary_sources(s, &sources);
    free(values);
    return step == SQLITE_DONE ? GW_OK : kb_sql_fail(k, err, step, "reading");
}

int kb_benchmarks_summary(kb *k, const char *gpu, kb_result_summary **out, size_t *n,
                          gw_error *err)
{
    static const char sql[] = "SELECT workload, metric, gpu_count, precision, unit, value, "
                              "source FROM benchmark WHERE gpu = ?1 AND value IS NOT NULL "
                              "ORDER BY workload, metric, gpu_count, precision, unit, value";
    sqlite3_stmt *st = NULL;
    *out = NULL;
    *n = 0;
    int rc = kb_sql_prepare(k, sql, &st, err);
    if (rc)
        return rc;
    kb_sql_bind_text(st, 1, gpu);
    rc = summary_groups(k, st, out, n, err);
    sqlite3_finalize(st);
    if (rc != GW_OK) {
        kb_result_summaries_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

void kb_result_summaries_free(kb_result_summary *s, size_t n)
{
    for (size_t i = 0; s && i < n; i++) {
        free(s[i].workload);
        free(s[i].metric);
        free(s[i].precision);
        free(s[i].unit);
        kb_strlist_free(s[i].sources, s[i].n_sources);
    }
    free(s);
}

int kb_benchmarks_in_tokens(kb *k, kb_benchmark **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_BENCHMARKS], "id");
    buf_puts(&sql, " WHERE unit = 'tokens/s' ORDER BY workload, gpu, metric, gpu_count, value, id");
    int rc = select_rows(k, &kb_tables[KB_BENCHMARKS], buf_cstr(&sql), NULL, 0,
                         sizeof(kb_benchmark), 1, fill_benchmark, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

static void fill_price(sqlite3_stmt *st, void *obj)
{
    ((kb_price *)obj)->id = sqlite3_column_int64(st, 0);
}

/* By GPU, kind, date, currency, amount and id (benchmark_order's way). */
static int price_order(const void *pa, const void *pb)
{
    const kb_price *a = pa, *b = pb;
    int c = text_order(a->gpu, b->gpu);
    if (!c)
        c = text_order(a->kind, b->kind);
    if (!c)
        c = text_order(a->as_of, b->as_of);
    if (!c)
        c = text_order(a->currency, b->currency);
    if (!c)
        c = number_order(a->amount, b->amount);
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

int kb_prices_find(kb *k, const char *gpu, const char *kind, const char *provider,
                   kb_price **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_PRICES], "id");
    where_given(&sql, (const char *const[]){"gpu", "kind", "provider"},
                (const char *const[]){gpu, kind, provider}, 3);
    const char *params[] = {gpu, kind, provider};
    int rc = select_rows(k, &kb_tables[KB_PRICES], buf_cstr(&sql), params, 3, sizeof(kb_price), 1,
                         fill_price, (void **)out, n, err);
    buf_free(&sql);
    if (rc == GW_OK)
        qsort(*out, *n, sizeof **out, price_order);
    return rc;
}

int kb_prices_to_buy(kb *k, kb_price **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_PRICES], "id");
    buf_puts(&sql, " WHERE kind IN ('new', 'used')");
    int rc = select_rows(k, &kb_tables[KB_PRICES], buf_cstr(&sql), NULL, 0, sizeof(kb_price), 1,
                         fill_price, (void **)out, n, err);
    buf_free(&sql);
    if (rc == GW_OK)
        qsort(*out, *n, sizeof **out, price_order);
    return rc;
}

/* ---- hourly cloud prices, cheapest first (the decision's renting) ----
 * Each query below is one look-up of a row by id, or in the index price_offer_rank (kind, unit,
 * gpu, spot, gpu_count, currency, amount / gpu_fraction), price_seller (gpu, provider,
 * gpu_count, spot, instance, source, as_of) or price_identity (gpu, provider, as_of, ...): a
 * KB's catalogue of offers is walked only as far as a decision needs. */

#define CLOUD_HOUR " kind = 'cloud' AND unit = 'hour'"
/* The same where price_seller is the index to use (the unary + keeps SQLite off the other). */
#define CLOUD_HOUR_BY_SELLER " +kind = 'cloud' AND +unit = 'hour'"

/* The configuration after c in the order of GPU, spot flag, count and currency, in place; *found
 * is 0 when there is none.  A loose scan of price_offer_rank: one seek per configuration (a
 * seek per GPU, per count and per currency, with one more at each level to find there was no
 * other, was 13 M instructions of a grown KB's `rent:*`, three times as many seeks).  SQLite
 * seeks a row value's `>` as `>=` and steps over the equal rows, here every row of c: the
 * currency is bound with its terminating NUL byte, the least text after it, and compared with
 * `>=`, so the seek lands on the next configuration's first row. */
static int cloud_next(kb *k, kb_cloud_config *c, int *found, gw_error *err)
{
    static const char sql[] =
        "SELECT gpu, spot, gpu_count, currency FROM price WHERE" CLOUD_HOUR
        " AND (gpu, spot, gpu_count, currency) >= (?1, ?2, ?3, ?4)"
        " ORDER BY gpu, spot, gpu_count, currency LIMIT 1";
    sqlite3_stmt *st;
    int rc = kb_sql_prepare_cached(k, sql, &st, err);
    if (rc)
        return rc;
    sqlite3_bind_text(st, 1, c->gpu ? c->gpu : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, c->spot);
    sqlite3_bind_double(st, 3, isnan(c->gpu_count) ? -HUGE_VAL : c->gpu_count);
    const char *after = c->currency ? c->currency : "";
    sqlite3_bind_text(st, 4, after, (int)strlen(after) + 1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    *found = step == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL &&
             sqlite3_column_type(st, 3) != SQLITE_NULL;
    if (*found) {
        char *gpu = kb_sql_text(st, 0), *currency = kb_sql_text(st, 3);
        free(c->gpu);
        free(c->currency);
        c->gpu = gpu;
        c->spot = sqlite3_column_int(st, 1);
        c->gpu_count = sqlite3_column_double(st, 2);
        c->currency = currency;
    }
    kb_sql_done(k, st);
    return step == SQLITE_ROW || step == SQLITE_DONE ? GW_OK : kb_sql_fail(k, err, step, "reading");
}

void kb_cloud_configs_free(kb_cloud_config *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(c[i].gpu);
        free(c[i].currency);
    }
    free(c);
}

int kb_cloud_configs(kb *k, const char *gpu, int spot_too, kb_cloud_config **out, size_t *n,
                     gw_error *err)
{
    /* before every configuration: of gpu where one is asked, else of every GPU */
    kb_cloud_config c = {gpu ? gw_xstrdup(gpu) : NULL, -1, NAN, NULL};
    size_t cap = 0;
    int rc, found;
    *out = NULL;
    *n = 0;
    while ((rc = cloud_next(k, &c, &found, err)) == GW_OK && found &&
           (!gpu || !strcmp(c.gpu, gpu))) {
        if (c.spot != 0 && (c.spot != 1 || !spot_too))
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            *out = gw_xrealloc(*out, cap * sizeof **out);
        }
        (*out)[(*n)++] = (kb_cloud_config){gw_xstrdup(c.gpu), c.spot, c.gpu_count,
                                           gw_xstrdup(c.currency)};
    }
    free(c.gpu);
    free(c.currency);
    if (rc != GW_OK) {
        kb_cloud_configs_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

/* "SELECT id, <a price's columns> FROM price" and where, prepared: cached. */
static int price_select(kb *k, const char *where, sqlite3_stmt **st, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_PRICES], "id");
    buf_puts(&sql, where);
    int rc = kb_sql_prepare_cached(k, buf_cstr(&sql), st, err);
    buf_free(&sql);
    return rc;
}

struct kb_cursor {
    kb *k;
    sqlite3_stmt *st;
    long long id;   /* the row last read */
    int alone;      /* it is its offer's only row (kb_cursor_row_alone) */
    int alone_known;   /* alone is of this row (kb_cursor_offer or kb_cursor_row said so) */
};

/* The other rows of an offer (offer_rows_sql's terms), through the seller index. */
#define OFFER_OTHER_ROWS                                                                       \
    "SELECT 1 FROM price AS o WHERE o.gpu = price.gpu AND o.provider IS price.provider"        \
    " AND o.gpu_count = price.gpu_count AND o.spot = price.spot"                               \
    " AND o.source IS price.source AND o.instance IS price.instance AND o.id <> price.id"

/* The rows of price's seller (its provider, else its source) of the same GPU, count, spot flag
 * and GPU fraction, dated later, that are no anecdote unless ?2 (kb_cloud_newer).  SQLite reads
 * them in the index price_identity (gpu, provider, as_of, ...), which holds every column
 * asked: the later rows of one GPU and provider, each checked without the table's row. */
#define SELLER_NEWER_ROWS                                                                      \
    "SELECT 1 FROM price AS o WHERE o.gpu = price.gpu AND o.provider IS price.provider"        \
    " AND o.gpu_count = price.gpu_count AND o.spot = price.spot AND o.as_of > price.as_of"     \
    " AND (price.provider IS NOT NULL OR o.source IS price.source)"                            \
    " AND o.gpu_fraction = price.gpu_fraction AND +o.kind = 'cloud' AND +o.unit = 'hour'"      \
    " AND (?2 OR o.quality IS NOT 'anecdote')"

/* One GPU, spot flag, count and currency's hourly cloud prices, cheapest per whole card first:
 * of each row only what prices it and whether it is held back (its kind of evidence and date).
 * A walk passes most rows it steps on (held back, or set aside by kb_cursor_offer), so the rest
 * of a row is read by kb_cursor_row: every column, and the held-back test in SQL, at every step
 * made a grown KB's `rent:*` 3,230 steps 48 M instructions, these columns 18 M. */
static const char cursor_sql[] =
    "SELECT id, amount, currency, gpu_fraction, quality, as_of FROM price WHERE" CLOUD_HOUR
    " AND gpu = ?1 AND spot = ?2 AND gpu_count = ?3 AND currency = ?4"
    " ORDER BY amount / gpu_fraction, id";

int kb_cloud_cursor(kb *k, const kb_cloud_config *c, kb_cursor **out, gw_error *err)
{
    sqlite3_stmt *st;
    int rc = GW_OK;
    *out = NULL;
    /* Several cursors are open at once, so each has a statement of its own; a closed one's is
     * kept for the next (k->cursor_idle): a decision opens hundreds of cursors, a few at a
     * time, and preparing each anew cost 7 M instructions a report, 38 M a grown KB's. */
    if (k->n_cursor_idle)
        st = k->cursor_idle[--k->n_cursor_idle];
    else
        rc = kb_sql_prepare(k, cursor_sql, &st, err);
    if (rc)
        return rc;
    kb_sql_bind_text(st, 1, c->gpu);
    sqlite3_bind_int(st, 2, c->spot);
    sqlite3_bind_double(st, 3, c->gpu_count);
    kb_sql_bind_text(st, 4, c->currency);
    *out = gw_xcalloc(1, sizeof **out);
    (*out)->k = k;
    (*out)->st = st;
    return GW_OK;
}

int kb_cursor_next(kb_cursor *c, kb_price *row, int *found, gw_error *err)
{
    memset(row, 0, sizeof *row);
    int step = sqlite3_step(c->st);
    *found = step == SQLITE_ROW;
    if (*found) {
        c->id = row->id = sqlite3_column_int64(c->st, 0);
        c->alone_known = 0;
        row->amount = kb_sql_number(c->st, 1);
        row->currency = kb_sql_text(c->st, 2);
        row->gpu_fraction = kb_sql_number(c->st, 3);
        row->quality = kb_sql_text(c->st, 4);
        row->as_of = kb_sql_text(c->st, 5);
    }
    return step == SQLITE_ROW || step == SQLITE_DONE ? GW_OK
                                                     : kb_sql_fail(c->k, err, step, "reading");
}

/* Every column of the price row of id (?1), then, unless ?2, whether it is its offer's only
 * row. */
static void cursor_row_sql(gw_buf *sql)
{
    buf_puts(sql, "SELECT id, ");
    kb_sql_column_list(sql, &kb_tables[KB_PRICES], "");
    buf_puts(sql, ", CASE WHEN NOT ?2 THEN NOT EXISTS (" OFFER_OTHER_ROWS ") END"
                  " FROM price WHERE id = ?1");
}

int kb_cursor_row(kb_cursor *c, kb_price *row, gw_error *err)
{
    kb_price_free(row);
    memset(row, 0, sizeof *row);
    sqlite3_stmt *st;
    int rc = kb_sql_prepare_once(c->k, KB_STMT_CLOUD_ROW, cursor_row_sql, &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, c->id);
    sqlite3_bind_int(st, 2, c->alone_known);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        kb_row_from_sql(&kb_tables[KB_PRICES], st, 1, row);
        fill_price(st, row);
        if (!c->alone_known)
            c->alone = sqlite3_column_int(st, 1 + kb_tables[KB_PRICES].ncols);
        c->alone_known = 1;
    }
    kb_sql_done(c->k, st);
    if (step == SQLITE_DONE)   /* deleted by another process since the cursor stepped on it */
        return gw_error_set(err, GW_EDATA, "price row %lld is gone from the KB while read",
                            c->id);
    return step == SQLITE_ROW ? GW_OK : kb_sql_fail(c->k, err, step, "reading");
}

/* Of the price row of id (?1): 0 where it is not its offer's only row; else 1, or 3 where its
 * seller prices the same terms later (?2: anecdotes count). */
static void cursor_offer_sql(gw_buf *sql)
{
    buf_puts(sql, "SELECT CASE WHEN EXISTS (" OFFER_OTHER_ROWS ") THEN 0"
                  " ELSE 1 + 2 * EXISTS (" SELLER_NEWER_ROWS ") END FROM price WHERE id = ?1");
}

int kb_cursor_offer(kb_cursor *c, int anecdotes, int *alone, int *newer, gw_error *err)
{
    sqlite3_stmt *st;
    *alone = *newer = 0;
    int rc = kb_sql_prepare_once(c->k, KB_STMT_CLOUD_OFFER, cursor_offer_sql, &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, c->id);
    sqlite3_bind_int(st, 2, !!anecdotes);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        int answer = sqlite3_column_int(st, 0);
        *alone = c->alone = answer != 0;
        *newer = answer == 3;
        c->alone_known = 1;
    }
    kb_sql_done(c->k, st);
    return step == SQLITE_ROW || step == SQLITE_DONE ? GW_OK
                                                     : kb_sql_fail(c->k, err, step, "reading");
}

int kb_cursor_row_alone(const kb_cursor *c)
{
    return c->alone;
}

void kb_cursor_close(kb_cursor *c)
{
    if (!c)
        return;
    kb *k = c->k;
    sqlite3_reset(c->st);
    if (k->n_cursor_idle < KB_CURSOR_POOL)
        k->cursor_idle[k->n_cursor_idle++] = c->st;
    else
        sqlite3_finalize(c->st);
    free(c);
}

/* Every hourly cloud price row of one seller's offer, the latest first: of the terms the row
 * of id ?1 holds, as stored (the text read is repaired where it is not UTF-8, and would then
 * find no row: kb_text_repair). */
#define OF_ROW(column) "(SELECT " column " FROM price WHERE id = ?1)"
static void offer_rows_sql(gw_buf *sql)
{
    kb_sql_select(sql, &kb_tables[KB_PRICES], "id");
    buf_puts(sql, " WHERE" CLOUD_HOUR_BY_SELLER " AND gpu = " OF_ROW("gpu")
                  " AND provider IS " OF_ROW("provider") " AND gpu_count = " OF_ROW("gpu_count")
                  " AND spot = " OF_ROW("spot") " AND source IS " OF_ROW("source")
                  " AND instance IS " OF_ROW("instance")
                  " ORDER BY as_of DESC, currency, amount, id");
}

int kb_cloud_offer_rows(kb *k, const kb_price *row, kb_price **out, size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    int rc = kb_sql_prepare_once(k, KB_STMT_CLOUD_OFFER_ROWS, offer_rows_sql, &st, err);
    *out = NULL;
    *n = 0;
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, row->id);
    return collect_rows(k, &kb_tables[KB_PRICES], st, sizeof(kb_price), 1, fill_price,
                        (void **)out, n, err);
}

/* Whether a newer hourly cloud price of the same terms is there: the terms of the row of id
 * ?3, as stored (as kb_cursor_offer compares them), dated as the row of id ?4. */
static void newer_sql(gw_buf *sql)
{
    buf_puts(sql, "SELECT EXISTS (" SELLER_NEWER_ROWS ") FROM (SELECT t.gpu AS gpu,"
                  " t.provider AS provider, t.gpu_count AS gpu_count, t.spot AS spot,"
                  " l.as_of AS as_of, t.source AS source, t.gpu_fraction AS gpu_fraction"
                  " FROM price AS t, price AS l WHERE t.id = ?3 AND l.id = ?4) AS price");
}

int kb_cloud_newer(kb *k, long long terms, long long dated, int anecdotes, int *found,
                   gw_error *err)
{
    sqlite3_stmt *st;
    int rc = kb_sql_prepare_once(k, KB_STMT_CLOUD_NEWER, newer_sql, &st, err);
    if (rc)
        return rc;
    sqlite3_bind_int(st, 2, !!anecdotes);
    sqlite3_bind_int64(st, 3, terms);
    sqlite3_bind_int64(st, 4, dated);
    int step = sqlite3_step(st);
    *found = step == SQLITE_ROW && sqlite3_column_int(st, 0);
    kb_sql_done(k, st);
    return step == SQLITE_ROW || step == SQLITE_DONE ? GW_OK : kb_sql_fail(k, err, step, "reading");
}

int kb_cloud_rows(kb *k, const char *gpu, int spot, size_t limit, kb_price **out, size_t *n,
                  size_t *total, gw_error *err)
{
    static const char count_sql[] =
        "SELECT count(*) FROM price WHERE" CLOUD_HOUR " AND gpu = ?1 AND spot = ?2";
    sqlite3_stmt *st;
    *out = NULL;
    *n = 0;
    int rc = kb_sql_prepare_cached(k, count_sql, &st, err);
    if (rc)
        return rc;
    kb_sql_bind_text(st, 1, gpu);
    sqlite3_bind_int(st, 2, spot);
    int step = sqlite3_step(st);
    *total = step == SQLITE_ROW ? (size_t)sqlite3_column_int64(st, 0) : 0;
    kb_sql_done(k, st);
    if (step != SQLITE_ROW)
        return kb_sql_fail(k, err, step, "reading");
    if (*total > limit)
        return GW_OK;
    rc = price_select(k, " WHERE" CLOUD_HOUR " AND gpu = ?1 AND spot = ?2"
                         " ORDER BY gpu_count, source, provider, instance, as_of DESC, id",
                      &st, err);
    if (rc)
        return rc;
    kb_sql_bind_text(st, 1, gpu);
    sqlite3_bind_int(st, 2, spot);
    return collect_rows(k, &kb_tables[KB_PRICES], st, sizeof(kb_price), 1, fill_price,
                        (void **)out, n, err);
}

int kb_systems_find(kb *k, const char *gpu, kb_system **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_SYSTEMS], NULL);
    buf_puts(&sql, " WHERE (?1 IS NULL OR gpu = ?1) ORDER BY id");
    const char *params[] = {gpu};
    int rc = select_rows(k, &kb_tables[KB_SYSTEMS], buf_cstr(&sql), params, 1,
                         sizeof(kb_system), 0, NULL, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

int kb_hosts_list(kb *k, kb_host **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_HOSTS], NULL);
    buf_puts(&sql, " ORDER BY max_cards, price, id");
    int rc = select_rows(k, &kb_tables[KB_HOSTS], buf_cstr(&sql), NULL, 0, sizeof(kb_host), 0,
                         NULL, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

int kb_precision_supports_list(kb *k, kb_precision_support **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_PRECISION_SUPPORT], NULL);
    buf_puts(&sql, " ORDER BY precision, architecture");
    int rc = select_rows(k, &kb_tables[KB_PRECISION_SUPPORT], buf_cstr(&sql), NULL, 0,
                         sizeof(kb_precision_support), 0, NULL, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

int kb_source_get(kb *k, const char *id, kb_source *out, gw_error *err)
{
    int found;
    memset(out, 0, sizeof *out);
    int rc = select_one(k, KB_SOURCES, " WHERE id = ?1", id, sizeof *out, out, &found, err);
    if (rc == GW_OK && !found)
        return gw_error_set(err, GW_ENOTFOUND, "no source with id '%s'", id);
    return rc;
}

static void fill_fact_count(sqlite3_stmt *st, void *obj)
{
    ((kb_source *)obj)->fact_count = sqlite3_column_int64(st, 0);
}

/* The rows citing each source, one GROUP BY per table (a count per source and table was a
 * scan of the table per source: 16 s on a KB of 1M results).  A gpu or claim row that cites a
 * source twice counts once, as it is one fact. */
#define CITING_ROWS                                                                            \
    "SELECT source AS cited, count(*) AS n FROM gpu GROUP BY source"                           \
    " UNION ALL SELECT memory_mib_source, count(*) FROM gpu"                                   \
    " WHERE memory_mib_source IS NOT source GROUP BY memory_mib_source"                        \
    " UNION ALL SELECT source, count(*) FROM benchmark GROUP BY source"                        \
    " UNION ALL SELECT source, count(*) FROM price GROUP BY source"                            \
    " UNION ALL SELECT source, count(*) FROM rate GROUP BY source"                             \
    " UNION ALL SELECT source, count(*) FROM claim GROUP BY source"                            \
    " UNION ALL SELECT correction_source, count(*) FROM claim"                                 \
    " WHERE correction_source IS NOT source GROUP BY correction_source"                        \
    " UNION ALL SELECT source, count(*) FROM assumption GROUP BY source"                       \
    " UNION ALL SELECT source, count(*) FROM system GROUP BY source"                           \
    " UNION ALL SELECT source, count(*) FROM model GROUP BY source"                            \
    " UNION ALL SELECT source, count(*) FROM host GROUP BY source"

int kb_sources_list(kb *k, kb_source **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_SOURCES], "ifnull(c.n, 0)");
    buf_puts(&sql, " s LEFT JOIN (SELECT cited, sum(n) AS n FROM (" CITING_ROWS ")"
                   " GROUP BY cited) c ON c.cited = s.id ORDER BY s.id");
    int rc = select_rows(k, &kb_tables[KB_SOURCES], buf_cstr(&sql), NULL, 0, sizeof(kb_source), 1,
                         fill_fact_count, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

int kb_claims_for(kb *k, const char *subject, kb_claim **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_CLAIMS], NULL);
    buf_puts(&sql, " WHERE ?1 IS NULL OR subject = ?1 ORDER BY subject, id");
    const char *params[] = {subject};
    int rc = select_rows(k, &kb_tables[KB_CLAIMS], buf_cstr(&sql), params, 1, sizeof(kb_claim), 0,
                         NULL, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

int kb_assumption_get(kb *k, kb_assumed which, kb_assumption *out, gw_error *err)
{
    int found;
    memset(out, 0, sizeof *out);
    out->value = NAN;
    const char *id = kb_assumed_id(which);
    if (!id)
        return gw_error_set(err, GW_ESOFTWARE, "no assumed figure %d", (int)which);
    int rc = select_one(k, KB_ASSUMPTIONS, " WHERE id = ?1", id, sizeof *out, out, &found, err);
    if (rc == GW_OK && !found)
        return gw_error_set(err, GW_ENOTFOUND, "no assumed figure '%s' in the knowledge base",
                            id);
    return rc;
}

int kb_price_kinds(kb *k, kb_price_kind **out, size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    *out = NULL;
    *n = 0;
    int rc = kb_sql_prepare(k, "SELECT id, rank, meaning FROM price_kind ORDER BY rank", &st,
                            err);
    if (rc != GW_OK)
        return rc;
    size_t cap = 0;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 8;
            *out = gw_xrealloc(*out, cap * sizeof **out);
        }
        kb_price_kind *kind = &(*out)[(*n)++];
        kind->id = kb_sql_text(st, 0);
        kind->rank = sqlite3_column_int(st, 1);
        kind->meaning = kb_sql_text(st, 2);
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE) {
        kb_price_kinds_free(*out, *n);
        *out = NULL;
        *n = 0;
        return kb_sql_fail(k, err, step, "reading the price kinds");
    }
    return GW_OK;
}

void kb_price_kinds_free(kb_price_kind *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(rows[i].id);
        free(rows[i].meaning);
    }
    free(rows);
}

int kb_price_kind_rank(const kb_price_kind *kinds, size_t n, const char *id)
{
    for (size_t i = 0; id && i < n; i++)
        if (kb_streq(kinds[i].id, id))
            return kinds[i].rank;
    return 0;
}

int kb_rate_get(kb *k, const char *currency, kb_rate *out, gw_error *err)
{
    int found;
    memset(out, 0, sizeof *out);
    out->per_usd = NAN;
    int rc = select_one(k, KB_RATES, " WHERE currency = ?1 ORDER BY as_of DESC LIMIT 1", currency,
                        sizeof *out, out, &found, err);
    if (rc != GW_OK || found)
        return rc;
    if (kb_streq(currency, "USD")) {   /* the unit every rate is written in */
        out->currency = gw_xstrdup("USD");
        out->per_usd = 1;
        return GW_OK;
    }
    return gw_error_set(err, GW_ENOTFOUND, "no exchange rate for '%s' in the knowledge base",
                        currency ? currency : "");
}

int kb_convert(kb *k, double amount, const char *from, const char *to, double *out,
               gw_error *err)
{
    kb_rate rf, rt;
    *out = NAN;
    if (!units_is_currency(from) || !units_is_currency(to))
        return gw_error_set(err, GW_EUSAGE, "'%s': not a currency code (e.g. USD, CNY)",
                            units_is_currency(from) ? to : from);
    if (strcmp(from, to) == 0) {
        *out = amount;
        return GW_OK;
    }
    int rc = kb_rate_get(k, from, &rf, err);
    if (rc)
        return rc;
    rc = kb_rate_get(k, to, &rt, err);
    if (rc) {
        kb_rate_free(&rf);
        return rc;
    }
    *out = amount / rf.per_usd * rt.per_usd;
    kb_rate_free(&rf);
    kb_rate_free(&rt);
    return GW_OK;
}

int kb_gpu_aliases(kb *k, const char *id, char ***out, size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    kb_strlist l = {0};
    *out = NULL;
    *n = 0;
    int rc = kb_sql_prepare(k, "SELECT alias FROM gpu_alias WHERE gpu = ?1 ORDER BY alias", &st,
                            err);
    if (rc)
        return rc;
    kb_sql_bind_text(st, 1, id);
    while (sqlite3_step(st) == SQLITE_ROW)
        kb_strlist_push(&l, kb_sql_text(st, 0));
    sqlite3_finalize(st);
    *out = l.v;
    *n = l.n;
    return GW_OK;
}

int kb_gpu_names(kb *k, char ***out, size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    kb_strlist l = {0};
    *out = NULL;
    *n = 0;
    int rc = kb_sql_prepare(k, "SELECT id FROM gpu UNION SELECT alias FROM gpu_alias ORDER BY 1",
                            &st, err);
    if (rc)
        return rc;
    while (sqlite3_step(st) == SQLITE_ROW)
        kb_strlist_push(&l, kb_sql_text(st, 0));
    sqlite3_finalize(st);
    *out = l.v;
    *n = l.n;
    return GW_OK;
}

void kb_strings_free(char **v, size_t n)
{
    kb_strlist_free(v, n);
}

int kb_providers_list(kb *k, kb_provider **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_PROVIDERS], NULL);
    buf_puts(&sql, " ORDER BY id");
    int rc = select_rows(k, &kb_tables[KB_PROVIDERS], buf_cstr(&sql), NULL, 0,
                         sizeof(kb_provider), 0, NULL, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}
