/* kb_offers.c — the offers listing (kb_offers.h): its fields, each described once with the SQL
 * that computes it, the query that the --where language of kb_filter.c filters, its sort, and
 * the fold of offers that differ only in region: as the sorted offers come (rows_fold), or by
 * SQLite's GROUP BY (gw_offer_fold) where a row's offers can differ in their sort key. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "base/units.h"
#include "kb_area.h"
#include "kb_csv.h"
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
    int per_region;      /* differs between offers that are folded into one row */
    const char *sql;
    const char *sort_sql;   /* what --sort orders by, where not the field itself: a price's
                             * value in USD, so that currencies compare */
    const char *own_sql;    /* the field where no currency is asked, where that is simpler (a
                             * price as it is, not through gw_price_in); NULL: sql */
} offer_field;

static const offer_field fields[] = {
    {"gpu", NULL, 0, 0, "p.gpu", NULL, NULL},
    {"memory_gb", NULL, 1, 0, "g.memory_gb * " FRACTION_SQL, NULL, NULL},
    {"count", "gpu_count", 1, 0, COUNT_SQL, NULL, NULL},
    {"gpu_fraction", NULL, 1, 0, FRACTION_SQL, NULL, NULL},
    {"provider", NULL, 0, 0, "p.provider", NULL, NULL},
    {"instance", NULL, 0, 0, "p.instance", NULL, NULL},
    {"region", NULL, 0, 1, "p.region", NULL, NULL},
    {"area", NULL, 0, 1, "gw_area(p.region)", NULL, NULL},
    {"spot", NULL, 1, 0, "p.spot", NULL, NULL},
    {"price", "price_per_hour", 1, 0, PER_HOUR_SQL, USD_SQL, "p.amount"},
    {"price_per_gpu", "price_per_gpu_hour", 1, 0,
     PER_HOUR_SQL " / (" COUNT_SQL " * " FRACTION_SQL ")",
     USD_SQL " / (" COUNT_SQL " * " FRACTION_SQL ")",
     "p.amount / (" COUNT_SQL " * " FRACTION_SQL ")"},
    {"currency", NULL, 0, 0, "COALESCE(?C, p.currency)", NULL, "p.currency"},
    {"as_of", NULL, 0, 0, "p.as_of", NULL, NULL},
    {"source", NULL, 0, 0, "p.source", NULL, NULL},
    {"quality", NULL, 0, 0, "p.quality", NULL, NULL},
};
#define N_FIELDS (sizeof fields / sizeof fields[0])
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

/* ---- the fold: gw_offer_fold, an aggregate over the offers of one row --------------------- */

/* An offer's place in the listing's order, less the GPU (the same in one row): its sort key
 * (unknown last, then lowest or highest first), then its row id. */
typedef struct fold_place {
    int type;                /* SQLITE_NULL, _INTEGER, _FLOAT, _TEXT or _BLOB */
    sqlite3_int64 i;
    double r;
    const char *bytes;       /* text or blob: SQLite's while stepping, else owned */
    int len;
    sqlite3_int64 id;
} fold_place;

/* One region of a row, at the place of its first offer. */
typedef struct fold_region {
    fold_place at;
    char *name;              /* owned */
    int len;
} fold_region;

/* The aggregate's state (SQLite's zeroed memory): the row's first offer and its regions, each
 * once.  Its size is bounded by the regions of one row, whatever the offers. */
typedef struct fold_state {
    int started, lead_has_region;
    fold_place lead;
    fold_region *regions;
    size_t n, cap;
} fold_state;

/* The listing's direction, which gw_offer_fold gets as its user data. */
typedef struct fold_order {
    int desc;
} fold_order;

static fold_place place_of(sqlite3_value *key, sqlite3_int64 id)
{
    fold_place p = {sqlite3_value_type(key), 0, 0, NULL, 0, id};
    if (p.type == SQLITE_INTEGER)
        p.i = sqlite3_value_int64(key);
    else if (p.type == SQLITE_FLOAT)
        p.r = sqlite3_value_double(key);
    else if (p.type == SQLITE_TEXT)
        p.bytes = (const char *)sqlite3_value_text(key);
    else if (p.type == SQLITE_BLOB)
        p.bytes = sqlite3_value_blob(key);
    if (p.bytes)
        p.len = sqlite3_value_bytes(key);
    return p;
}

/* *to becomes a copy of from, its bytes its own. */
static void place_keep(fold_place *to, const fold_place *from)
{
    free((char *)to->bytes);
    *to = *from;
    if (from->bytes) {
        char *copy = gw_xmalloc((size_t)from->len + 1);
        memcpy(copy, from->bytes, (size_t)from->len);
        to->bytes = copy;
    }
}

/* SQLite's order of two keys under the BINARY collation, which the sort keys' columns have:
 * numbers before text before blobs, numbers by value, text and blobs by their bytes. */
static int key_cmp(const fold_place *a, const fold_place *b)
{
    static const int rank[] = {0, 1, 1, 2, 3, 0};   /* by SQLite type code; NULL is 5 */
    if (rank[a->type] != rank[b->type])
        return rank[a->type] - rank[b->type];
    if (a->type == SQLITE_INTEGER && b->type == SQLITE_INTEGER)
        return (a->i > b->i) - (a->i < b->i);
    if (rank[a->type] == 1) {
        double x = a->type == SQLITE_INTEGER ? (double)a->i : a->r;
        double y = b->type == SQLITE_INTEGER ? (double)b->i : b->r;
        return (x > y) - (x < y);
    }
    int c = memcmp(a->bytes, b->bytes, (size_t)(a->len < b->len ? a->len : b->len));
    return c ? c : a->len - b->len;
}

/* Whether a comes before b in the listing's order: a known key first, then the key lowest (or
 * with desc highest) first, then the lower row id. */
static int comes_before(const fold_place *a, const fold_place *b, int desc)
{
    int a_null = a->type == SQLITE_NULL, b_null = b->type == SQLITE_NULL;
    if (a_null != b_null)
        return b_null;
    int c = a_null ? 0 : key_cmp(a, b);
    if (c)
        return desc ? c > 0 : c < 0;
    return a->id < b->id;
}

/* The region's entry (added where new; names compare as bytes); *added says which. */
static fold_region *region_entry(fold_state *s, const char *name, int len, int *added)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->regions[i].len == len && !memcmp(s->regions[i].name, name, (size_t)len)) {
            *added = 0;
            return &s->regions[i];
        }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 4;
        s->regions = gw_xrealloc(s->regions, s->cap * sizeof *s->regions);
    }
    fold_region *r = &s->regions[s->n++];
    memset(r, 0, sizeof *r);
    r->name = gw_xmalloc((size_t)len + 1);
    memcpy(r->name, name, (size_t)len);
    r->len = len;
    *added = 1;
    return r;
}

/* gw_offer_fold(sort_key, id, region), once for each offer of a row: keeps the row's first
 * offer and each region at its first offer. */
static void fold_step(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    fold_state *s = sqlite3_aggregate_context(cx, sizeof *s);
    const fold_order *order = sqlite3_user_data(cx);
    fold_place at = place_of(argv[0], sqlite3_value_int64(argv[1]));
    int has_region = sqlite3_value_type(argv[2]) != SQLITE_NULL, added;
    (void)argc;
    if (!s)
        return;   /* SQLite reports the failed allocation */
    if (!s->started || comes_before(&at, &s->lead, order->desc)) {
        place_keep(&s->lead, &at);
        s->lead_has_region = has_region;
        s->started = 1;
    }
    if (has_region) {
        const char *name = (const char *)sqlite3_value_text(argv[2]);
        fold_region *r = region_entry(s, name, sqlite3_value_bytes(argv[2]), &added);
        if (added || comes_before(&at, &r->at, order->desc))
            place_keep(&r->at, &at);
    }
}

/* The regions in the order of their first offers (a row has few: an insertion sort). */
static void regions_sort(fold_region *r, size_t n, int desc)
{
    for (size_t i = 1; i < n; i++) {
        fold_region moving = r[i];
        size_t j = i;
        for (; j > 0 && comes_before(&moving.at, &r[j - 1].at, desc); j--)
            r[j] = r[j - 1];
        r[j] = moving;
    }
}

/* Writes the 4 bytes of n at p, most significant first; returns p + 4. */
static unsigned char *put_u32(unsigned char *p, uint32_t n)
{
    p[0] = (unsigned char)(n >> 24), p[1] = (unsigned char)(n >> 16);
    p[2] = (unsigned char)(n >> 8), p[3] = (unsigned char)n;
    return p + 4;
}

/* The row's fold as a blob: the first offer's id (8 bytes, most significant first), whether
 * it has a region (1 byte), then each region, in the order of its first offer, as its length
 * (4 bytes) and bytes.  fold_read reads it back. */
static void fold_final(sqlite3_context *cx)
{
    fold_state *s = sqlite3_aggregate_context(cx, 0);
    if (!s || !s->started) {
        sqlite3_result_null(cx);
        return;
    }
    regions_sort(s->regions, s->n, ((const fold_order *)sqlite3_user_data(cx))->desc);
    sqlite3_uint64 size = 9;
    for (size_t i = 0; i < s->n; i++)
        size += 4 + (sqlite3_uint64)s->regions[i].len;
    unsigned char *blob = sqlite3_malloc64(size), *p = blob;
    if (p) {
        p = put_u32(p, (uint32_t)((sqlite3_uint64)s->lead.id >> 32));
        p = put_u32(p, (uint32_t)s->lead.id);
        *p++ = (unsigned char)s->lead_has_region;
    }
    for (size_t i = 0; i < s->n; i++) {
        if (blob) {
            p = put_u32(p, (uint32_t)s->regions[i].len);
            memcpy(p, s->regions[i].name, (size_t)s->regions[i].len);
            p += s->regions[i].len;
        }
        free(s->regions[i].name);
        free((char *)s->regions[i].at.bytes);
    }
    free(s->regions);
    free((char *)s->lead.bytes);
    if (blob)
        sqlite3_result_blob64(cx, blob, size, sqlite3_free);
    else
        sqlite3_result_error_nomem(cx);
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* gw_offer_lead(fold): the id of the row's first offer, which orders rows of equal keys. */
static void fold_lead(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    const unsigned char *p = sqlite3_value_blob(argv[0]);
    (void)argc;
    if (p && sqlite3_value_bytes(argv[0]) >= 9)
        sqlite3_result_int64(cx, (sqlite3_int64)((sqlite3_uint64)get_u32(p) << 32 | get_u32(p + 4)));
    else
        sqlite3_result_null(cx);
}

/* The bytes that stand for value v in gw_offer_key's blob: a head (its type, then a number's 8
 * bytes or a text's or blob's length), written into head, whose length is returned, then *len
 * bytes at *body.  Equal exactly where the values are: numbers by value (2 and 2.0 are one
 * number, as in SQL; an integer no double holds stays one), text and blobs by their bytes,
 * NULL as NULL. */
static size_t value_key(sqlite3_value *v, unsigned char head[9], const void **body, size_t *len)
{
    int type = sqlite3_value_type(v);
    *body = NULL;
    *len = 0;
    head[0] = (unsigned char)type;
    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
        sqlite3_int64 whole = sqlite3_value_int64(v);
        double x = sqlite3_value_double(v);
        if (type == SQLITE_INTEGER && (whole > (1LL << 53) || whole < -(1LL << 53))) {
            memcpy(head + 1, &whole, 8);
        } else {
            head[0] = SQLITE_FLOAT;
            x = x == 0 ? 0 : x;   /* -0 is 0 */
            memcpy(head + 1, &x, 8);
        }
        return 9;
    }
    if (type == SQLITE_NULL)
        return 1;
    *body = type == SQLITE_TEXT ? (const void *)sqlite3_value_text(v) : sqlite3_value_blob(v);
    *len = (size_t)sqlite3_value_bytes(v);
    head[1] = (unsigned char)(*len >> 24), head[2] = (unsigned char)(*len >> 16);
    head[3] = (unsigned char)(*len >> 8), head[4] = (unsigned char)*len;
    return 5;
}

/* gw_offer_key(...): its arguments as one blob (value_key's bytes each), equal exactly where
 * they all are, so that a row's offers are grouped by one column instead of thirteen: SQLite
 * compares and copies each grouped column of every offer, and one blob made the listing 13%
 * fewer instructions (20,000 offers). */
static void offer_key(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    unsigned char small[512];
    gw_buf big = GW_BUF_INIT;
    size_t n = 0;
    int use_big = 0;
    for (int i = 0; i < argc; i++) {
        unsigned char head[9];
        const void *body;
        size_t len, head_len = value_key(argv[i], head, &body, &len);
        if (!use_big && n + head_len + len > sizeof small) {
            buf_append(&big, (const char *)small, n);
            use_big = 1;
        }
        if (use_big) {
            buf_append(&big, (const char *)head, head_len);
            if (len)
                buf_append(&big, body, len);
        } else {
            memcpy(small + n, head, head_len);
            if (len)
                memcpy(small + n + head_len, body, len);
        }
        n += head_len + len;
    }
    sqlite3_result_blob(cx, use_big ? (const void *)big.data : small, (int)n, SQLITE_TRANSIENT);
    buf_free(&big);
}

/* gw_fraction, gw_area, gw_offer_fold and gw_offer_lead, registered while the listing runs
 * (on), then removed. */
static int functions_register(kb *k, int on, fold_order *order, gw_error *err)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    int rc = sqlite3_create_function_v2(k->db, "gw_fraction", 1, flags, NULL,
                                        on ? fraction_exact : NULL, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(k->db, "gw_area", 1, flags, NULL, on ? area_of : NULL,
                                        NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(k->db, "gw_offer_fold", 3, SQLITE_UTF8, order, NULL,
                                        on ? fold_step : NULL, on ? fold_final : NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(k->db, "gw_offer_key", -1, flags, NULL,
                                        on ? offer_key : NULL, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(k->db, "gw_offer_lead", 1, flags, NULL,
                                        on ? fold_lead : NULL, NULL, NULL, NULL);
    return rc == SQLITE_OK ? GW_OK : kb_sql_fail(k, err, rc, "listing offers");
}

/* ---- the query ------------------------------------------------------------------------------ */

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

/* The fields a row shows once for all its offers (all but the per-region ones), in fields[]'s
 * order, comma-separated: what the offers are grouped by and the row's first columns. */
static void put_row_fields(gw_buf *sql)
{
    const char *comma = "";
    for (size_t i = 0; i < N_FIELDS; i++)
        if (!fields[i].per_region) {
            buf_printf(sql, "%s%s", comma, fields[i].name);
            comma = ", ";
        }
}

/* " FROM" the offers of the query, each field under its name, the sort key as sort_key and
 * the price's row id as p_rowid, filtered. */
static void offers_from(gw_buf *sql, const kb_offer_query *q, const kb_filter *f,
                        const offer_field *sort, const offer_params *pp)
{
    buf_puts(sql, " FROM (SELECT p.id AS p_rowid");
    for (size_t i = 0; i < N_FIELDS; i++) {
        buf_puts(sql, ", ");
        /* each price as it is where none is converted: a function call fewer per figure */
        put_sql(sql, !q->currency && fields[i].own_sql ? fields[i].own_sql : fields[i].sql,
                pp->currency);
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
}

/* The rows, folded by SQLite: grouped by every field but the per-region ones; each row's first
 * offer's key (min or max: SQLite's own order), its fold (gw_offer_fold); rows in the order of
 * their first offers, as the offers themselves are ordered (sort key, GPU, row id). */
static void offers_sql(gw_buf *sql, const kb_offer_query *q, const kb_filter *f,
                       const offer_field *sort, int desc, const offer_params *pp)
{
    buf_puts(sql, "SELECT ");
    put_row_fields(sql);
    buf_printf(sql, ", %s(sort_key) AS lead_key, gw_offer_fold(sort_key, p_rowid, region) AS fold",
               desc ? "max" : "min");
    offers_from(sql, q, f, sort, pp);
    buf_puts(sql, " GROUP BY gw_offer_key(");
    put_row_fields(sql);
    buf_putc(sql, ')');
    /* the sort key is computed from the descriptions, never the user's text */
    buf_printf(sql, " ORDER BY lead_key IS NULL, lead_key %s, gpu, gw_offer_lead(fold)",
               desc ? "DESC" : "ASC");
}

/* The offers unfolded, in the listing's order (sort key, GPU, row id), for offers_fold:
 * the row's fields, then sort_key, p_rowid and region. */
static void offers_sorted_sql(gw_buf *sql, const kb_offer_query *q, const kb_filter *f,
                              const offer_field *sort, int desc, const offer_params *pp)
{
    buf_puts(sql, "SELECT ");
    put_row_fields(sql);
    buf_puts(sql, ", sort_key, p_rowid, region");
    offers_from(sql, q, f, sort, pp);
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

/* ---- reading the rows ---------------------------------------------------------------------- */

/* The copies row_text repaired for one row. */
typedef struct row_texts {
    char **repaired;
    size_t n, cap;
} row_texts;

/* A row's text as kb_sql_text gives it (valid UTF-8, anything else repaired), without a copy
 * where it is valid already; a repaired copy is kept in t until row_texts_free. */
static const char *row_text(row_texts *t, const char *s)
{
    const unsigned char *c = (const unsigned char *)s;
    if (!s)
        return NULL;
    while (*c && *c < 0x80)
        c++;
    if (!*c)   /* ASCII, the usual case */
        return s;
    char *fixed = kb_text_repair(s);
    if (!strcmp(fixed, s)) {
        free(fixed);
        return s;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 8;
        t->repaired = gw_xrealloc(t->repaired, t->cap * sizeof *t->repaired);
    }
    return t->repaired[t->n++] = fixed;
}

static void row_texts_free(row_texts *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->repaired[i]);
    t->n = 0;
}

/* What the listing hands out for one row, with the storage its regions and areas use. */
typedef struct row_reader {
    kb_offer_row row;
    row_texts texts;
    gw_buf names;            /* the regions' names, each NUL-terminated */
    const char **regions, **areas;
    size_t cap;
} row_reader;

static void row_reader_free(row_reader *r)
{
    row_texts_free(&r->texts);
    free(r->texts.repaired);
    buf_free(&r->names);
    free(r->regions);
    free(r->areas);
}

/* Whether list[0..n) holds s. */
static int has_string(const char *const *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], s))
            return 1;
    return 0;
}

/* The row's regions and areas from its fold (fold_final's blob); GW_ESOFTWARE if it is not
 * one. */
static int fold_read(row_reader *r, const unsigned char *p, size_t len, gw_error *err)
{
    size_t n = 0, at = 9;
    if (len < 9)
        return gw_error_set(err, GW_ESOFTWARE, "listing offers: a row without its fold");
    buf_reset(&r->names);
    while (at + 4 <= len && get_u32(p + at) <= len - at - 4) {   /* the names, then pointers */
        size_t name_len = get_u32(p + at);
        buf_append(&r->names, (const char *)p + at + 4, name_len);
        buf_putc(&r->names, '\0');
        at += 4 + name_len;
        n++;
    }
    if (at != len)
        return gw_error_set(err, GW_ESOFTWARE, "listing offers: a row's fold is cut short");
    if (n > r->cap) {
        r->cap = n;
        r->regions = gw_xrealloc(r->regions, n * sizeof *r->regions);
        r->areas = gw_xrealloc(r->areas, n * sizeof *r->areas);
    }
    r->row.n_regions = r->row.n_areas = 0;
    const char *first_area = NULL;
    for (size_t i = 0, off = 0, in = 9; i < n; i++) {
        const char *name = row_text(&r->texts, r->names.data + off);
        const char *area = kb_area_of(name);
        off += get_u32(p + in) + 1;
        in += 4 + get_u32(p + in);
        if (i == 0)
            first_area = area;
        if (!has_string(r->regions, r->row.n_regions, name))
            r->regions[r->row.n_regions++] = name;
        if (area && !has_string(r->areas, r->row.n_areas, area))
            r->areas[r->row.n_areas++] = area;
    }
    r->row.area = p[8] ? first_area : NULL;   /* the first offer's region is the first one */
    r->row.regions = r->regions;
    r->row.areas = r->areas;
    return GW_OK;
}

/* The row at st: its columns in put_row_fields' order, then lead_key and fold. */
static int row_read(row_reader *r, sqlite3_stmt *st, gw_error *err)
{
    kb_offer_row *o = &r->row;
    int c = 0;
    row_texts_free(&r->texts);
    o->gpu = row_text(&r->texts, (const char *)sqlite3_column_text(st, c++));
    o->memory_gb = kb_sql_number(st, c++);
    o->count = kb_sql_number(st, c++);
    o->fraction = kb_sql_number(st, c++);
    o->provider = row_text(&r->texts, (const char *)sqlite3_column_text(st, c++));
    o->instance = row_text(&r->texts, (const char *)sqlite3_column_text(st, c++));
    o->spot = sqlite3_column_int(st, c++) != 0;
    o->per_hour = kb_sql_number(st, c++);
    o->per_gpu = kb_sql_number(st, c++);
    o->currency = row_text(&r->texts, (const char *)sqlite3_column_text(st, c++));
    o->as_of = row_text(&r->texts, (const char *)sqlite3_column_text(st, c++));
    o->source = row_text(&r->texts, (const char *)sqlite3_column_text(st, c++));
    o->quality = row_text(&r->texts, (const char *)sqlite3_column_text(st, c++));
    c++;   /* lead_key */
    return fold_read(r, sqlite3_column_blob(st, c), (size_t)sqlite3_column_bytes(st, c), err);
}

/* The sort field and direction of "[-+]FIELD" (NULL: the price per GPU-hour, lowest first). */
static int read_sort(const char *sort, const offer_field **field, int *desc, gw_error *err)
{
    *desc = sort && sort[0] == '-';
    const char *name = sort ? sort + (sort[0] == '-' || sort[0] == '+') : "price_per_gpu";
    *field = offer_field_find(name);
    return *field ? GW_OK : kb_filter_unknown(&offer_fields, err, "--sort: ", name);
}

/* Steps st to its end, each row to each; the first failure. */
static int rows_each(kb *k, sqlite3_stmt *st, const kb_convert_to *conv, kb_offer_fn each,
                     void *arg, gw_error *err)
{
    row_reader r;
    int rc = GW_OK, step;
    memset(&r, 0, sizeof r);
    while (rc == GW_OK && (step = sqlite3_step(st)) == SQLITE_ROW)
        if ((rc = row_read(&r, st, err)) == GW_OK)
            rc = each(&r.row, arg, err);
    if (rc == GW_OK && step != SQLITE_DONE) {
        if (conv->rc != GW_OK) {
            *err = conv->err;
            rc = conv->rc;
        } else {
            rc = kb_sql_fail(k, err, step, "listing offers");
        }
    }
    row_reader_free(&r);
    return rc;
}

/* ---- the fold as the offers come ---------------------------------------------------------
 * Where the listing is sorted by one of a row's own fields (any but region and area) and no
 * currency is asked, every offer of a row has the row's sort key: sorted by (sort key, GPU, row
 * id), a row's offers all come within one run of offers of equal key and GPU, its first offer
 * first.  The rows of a run are kept (a hash of their fields finds an offer's row) and handed
 * out when the run ends, in the order of their first offers: what GROUP BY and the ORDER BY of
 * offers_sql give, with one sort by SQLite instead of two (100,000 offers in CSV: 4.54 G -> 3.30 G
 * instructions).  Memory holds one run: the rows of one GPU at one sort key. */

/* The columns of offers_sorted_sql: a row's texts and figures (put_row_fields' order), then
 * sort_key, p_rowid and region. */
static const int text_columns[] = {0, 4, 5, 9, 10, 11, 12};   /* gpu ... quality */
static const int number_columns[] = {1, 2, 3, 7, 8};         /* memory_gb ... price_per_gpu */
#define N_TEXTS (sizeof text_columns / sizeof text_columns[0])
#define N_NUMBERS (sizeof number_columns / sizeof number_columns[0])
#define SPOT_COLUMN 6
#define SORT_COLUMN 13

/* One row of a run: its fields as gw_offer_key encodes them (to find it), what it shows, and
 * its fold in fold_final's form. */
typedef struct run_row {
    gw_buf key, texts, fold;
    size_t text_at[N_TEXTS];   /* where each text starts in texts; SIZE_MAX: NULL */
    double number[N_NUMBERS];
    int spot;
    uint64_t hash;
    size_t slot;
} run_row;

/* The run being read: its sort key and GPU, its rows in the order of their first offers, and
 * a hash table of them (index + 1; 0 an empty slot). */
typedef struct offer_run {
    int started;
    fold_place key;            /* bytes owned */
    gw_buf gpu;
    int gpu_null;
    run_row *rows;
    size_t n, cap;
    size_t *slots, n_slots;    /* a power of two, at least twice n */
    gw_buf scratch;
} offer_run;

static void slot_put(offer_run *run, size_t index)
{
    size_t mask = run->n_slots - 1, i = run->rows[index].hash & mask;
    while (run->slots[i])
        i = (i + 1) & mask;
    run->slots[i] = index + 1;
    run->rows[index].slot = i;
}

/* A new row for the offer at st (its fields' key in run->scratch), at the run's end. */
static run_row *run_add(offer_run *run, sqlite3_stmt *st, uint64_t hash)
{
    if (run->n == run->cap) {
        size_t cap = run->cap ? run->cap * 2 : 8;
        run->rows = gw_xrealloc(run->rows, cap * sizeof *run->rows);
        memset(run->rows + run->cap, 0, (cap - run->cap) * sizeof *run->rows);
        run->cap = cap;
    }
    if ((run->n + 1) * 2 > run->n_slots) {
        free(run->slots);
        run->n_slots = run->n_slots ? run->n_slots * 2 : 16;
        run->slots = gw_xcalloc(run->n_slots, sizeof *run->slots);
        for (size_t i = 0; i < run->n; i++)
            slot_put(run, i);
    }
    run_row *r = &run->rows[run->n];
    buf_reset(&r->key);
    buf_append(&r->key, run->scratch.data, run->scratch.len);
    r->hash = hash;
    buf_reset(&r->texts);
    for (size_t i = 0; i < N_TEXTS; i++) {
        const char *t = (const char *)sqlite3_column_text(st, text_columns[i]);
        r->text_at[i] = t ? r->texts.len : SIZE_MAX;
        if (t)
            buf_append(&r->texts, t, strlen(t) + 1);
    }
    for (size_t i = 0; i < N_NUMBERS; i++)
        r->number[i] = kb_sql_number(st, number_columns[i]);
    r->spot = sqlite3_column_int(st, SPOT_COLUMN) != 0;
    unsigned char head[9];   /* fold_final's: the first offer's id, whether it has a region */
    sqlite3_int64 id = sqlite3_column_int64(st, SORT_COLUMN + 1);
    put_u32(put_u32(head, (uint32_t)((sqlite3_uint64)id >> 32)), (uint32_t)id);
    head[8] = sqlite3_column_type(st, SORT_COLUMN + 2) != SQLITE_NULL;
    buf_reset(&r->fold);
    buf_append(&r->fold, (const char *)head, 9);
    slot_put(run, run->n++);
    return r;
}

/* The offer at st into its row of the run: a new row, or one more region of a row. */
static void run_offer(offer_run *run, sqlite3_stmt *st)
{
    buf_reset(&run->scratch);
    for (int c = 0; c < SORT_COLUMN; c++) {
        unsigned char head[9];
        const void *body;
        size_t len, head_len = value_key(sqlite3_column_value(st, c), head, &body, &len);
        buf_append(&run->scratch, (const char *)head, head_len);
        if (len)
            buf_append(&run->scratch, body, len);
    }
    uint64_t hash = gw_fnv1a64(run->scratch.data, run->scratch.len);
    run_row *r = NULL;
    for (size_t i = run->n_slots ? hash & (run->n_slots - 1) : 0; run->n_slots && run->slots[i];
         i = (i + 1) & (run->n_slots - 1)) {
        run_row *at = &run->rows[run->slots[i] - 1];
        if (at->hash == hash && at->key.len == run->scratch.len &&
            !memcmp(at->key.data, run->scratch.data, run->scratch.len)) {
            r = at;
            break;
        }
    }
    if (!r)
        r = run_add(run, st, hash);
    const char *region = (const char *)sqlite3_column_text(st, SORT_COLUMN + 2);
    if (!region)
        return;
    size_t len = (size_t)sqlite3_column_bytes(st, SORT_COLUMN + 2), at = 9;
    const unsigned char *p = (const unsigned char *)r->fold.data;
    for (; at < r->fold.len; at += 4 + get_u32(p + at))   /* each region once */
        if (get_u32(p + at) == len && !memcmp(p + at + 4, region, len))
            return;
    unsigned char n[4];
    put_u32(n, (uint32_t)len);
    buf_append(&r->fold, (const char *)n, 4);
    buf_append(&r->fold, region, len);
}

/* Hands out the run's rows, in the order of their first offers, and empties it. */
static int run_flush(offer_run *run, row_reader *reader, kb_offer_fn each, void *arg,
                     gw_error *err)
{
    int rc = GW_OK;
    kb_offer_row *o = &reader->row;
    for (size_t i = 0; i < run->n; i++) {
        run_row *r = &run->rows[i];
        const char *t[N_TEXTS];
        run->slots[r->slot] = 0;
        if (rc != GW_OK)
            continue;
        row_texts_free(&reader->texts);
        for (size_t j = 0; j < N_TEXTS; j++)
            t[j] = row_text(&reader->texts, r->text_at[j] == SIZE_MAX ? NULL
                                                                      : r->texts.data + r->text_at[j]);
        o->gpu = t[0], o->provider = t[1], o->instance = t[2], o->currency = t[3];
        o->as_of = t[4], o->source = t[5], o->quality = t[6];
        o->memory_gb = r->number[0], o->count = r->number[1], o->fraction = r->number[2];
        o->per_hour = r->number[3], o->per_gpu = r->number[4];
        o->spot = r->spot;
        if ((rc = fold_read(reader, (const unsigned char *)r->fold.data, r->fold.len, err)) == GW_OK)
            rc = each(o, arg, err);
    }
    run->n = 0;
    return rc;
}

/* Whether the offer at st starts a new run: another sort key (as SQLite compares them) or GPU. */
static int run_ends(offer_run *run, sqlite3_stmt *st)
{
    fold_place key = place_of(sqlite3_column_value(st, SORT_COLUMN), 0);
    const char *gpu = (const char *)sqlite3_column_text(st, 0);
    int same = run->started && (key.type == SQLITE_NULL) == (run->key.type == SQLITE_NULL) &&
               (key.type == SQLITE_NULL || key_cmp(&key, &run->key) == 0) &&
               (gpu == NULL) == run->gpu_null && (!gpu || !strcmp(gpu, buf_cstr(&run->gpu)));
    if (!same) {
        place_keep(&run->key, &key);
        buf_reset(&run->gpu);
        if (gpu)
            buf_puts(&run->gpu, gpu);
        run->gpu_null = !gpu;
    }
    int ends = run->started && !same;
    run->started = 1;
    return ends;
}

static void offer_run_free(offer_run *run)
{
    for (size_t i = 0; i < run->cap; i++) {
        buf_free(&run->rows[i].key);
        buf_free(&run->rows[i].texts);
        buf_free(&run->rows[i].fold);
    }
    free(run->rows);
    free(run->slots);
    free((char *)run->key.bytes);
    buf_free(&run->gpu);
    buf_free(&run->scratch);
}

/* Steps st (offers_sorted_sql) to its end, folding as rows_each's SQL folds; the first
 * failure. */
static int rows_fold(kb *k, sqlite3_stmt *st, const kb_convert_to *conv, kb_offer_fn each,
                     void *arg, gw_error *err)
{
    row_reader r;
    offer_run run;
    int rc = GW_OK, step;
    memset(&r, 0, sizeof r);
    memset(&run, 0, sizeof run);
    while (rc == GW_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        if (run_ends(&run, st))
            rc = run_flush(&run, &r, each, arg, err);
        if (rc == GW_OK)
            run_offer(&run, st);
    }
    if (rc == GW_OK && step != SQLITE_DONE) {
        if (conv->rc != GW_OK) {
            *err = conv->err;
            rc = conv->rc;
        } else {
            rc = kb_sql_fail(k, err, step, "listing offers");
        }
    }
    if (rc == GW_OK)
        rc = run_flush(&run, &r, each, arg, err);
    offer_run_free(&run);
    row_reader_free(&r);
    return rc;
}

int kb_offers_each(kb *k, const kb_offer_query *q, kb_offer_fn each, void *arg, gw_error *err)
{
    kb_filter f = KB_FILTER_INIT;
    gw_buf sql = GW_BUF_INIT;
    sqlite3_stmt *st = NULL;
    kb_convert_to conv = {k, NULL, GW_OK, {0, ""}};
    const offer_field *sort = NULL;
    fold_order order = {0};
    int registered = 0;
    double unit;

    int rc = read_sort(q->sort, &sort, &order.desc, err);
    if (rc == GW_OK && q->where)
        rc = kb_filter_compile(q->where, &offer_fields, &f, err);
    /* a currency the KB cannot convert to is an error, not a column of unknowns */
    if (rc == GW_OK && q->currency)
        rc = kb_convert(k, 1, "USD", q->currency, &unit, err);
    if (rc == GW_OK && (rc = kb_price_in_register(k, &conv, err)) == GW_OK &&
        (rc = functions_register(k, 1, &order, err)) == GW_OK)
        registered = 1;
    offer_params pp = {f.n + 1, f.n + 2, f.n + 3, f.n + 4};
    /* a row's offers share its sort key, but for a region's or a converted price's */
    int fold_here = sort && !sort->per_region && !q->currency;
    if (rc == GW_OK) {
        (fold_here ? offers_sorted_sql : offers_sql)(&sql, q, &f, sort, order.desc, &pp);
        rc = kb_sql_prepare(k, buf_cstr(&sql), &st, err);
    }
    if (rc == GW_OK) {
        offers_bind(st, q, &f, &pp);
        rc = (fold_here ? rows_fold : rows_each)(k, st, &conv, each, arg, err);
    }
    sqlite3_finalize(st);
    if (registered) {
        gw_error ignored;
        kb_price_in_unregister(k);
        functions_register(k, 0, &order, &ignored);
    }
    buf_free(&sql);
    kb_filter_free(&f);
    return rc;
}

const char *kb_offer_field_name(size_t i)
{
    return i < N_FIELDS ? fields[i].name : NULL;
}
