/* records.c — checks what plugins return, field by field, before anything reaches the KB, and
 * stores the good records through kb.h (the caller holds the transaction).  A record's fields
 * are the columns of its KB table, each checked by kb_value_check against the column's
 * description, and the whole row by kb_row_check: a dry run (`plugin check`) runs every check a
 * real run (`kb import --with`, `prices refresh`) runs, and only skips the writes.  Every message
 * names the plugin and the record ("acme: offers[3].price_per_hour: expected a number, got
 * string").  Nothing here prints: warnings, log lines and progress go back to the caller. */
#include "records_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/stat.h>

#include "base/check.h"
#include "base/clock.h"
#include "kb/kb_csv.h"
#include "kb_answer.h"

/* dir/plugins into out; 0 when there is no such folder to search (none given, or too long). */
static int plugins_under(char *out, size_t outsz, const char *dir)
{
    if (!dir || !*dir)
        return 0;
    int n = snprintf(out, outsz, "%s/plugins", dir);
    return n > 0 && (size_t)n < outsz;
}

#define RECORDS_MAX_DIRS 64

int records_host_new_in(const records_dirs *d, kb *k, plugin_host **out, gw_error *err)
{
    char user[4200], shipped[4200];
    const char *dirs[RECORDS_MAX_DIRS + 2];
    size_t n = 0;
    *out = NULL;
    if (d->n_plugin_dirs > RECORDS_MAX_DIRS)
        return gw_error_set(err, GW_EUSAGE, "%zu plugin folders: %d at most", d->n_plugin_dirs,
                            RECORDS_MAX_DIRS);
    for (size_t i = 0; i < d->n_plugin_dirs; i++)
        dirs[n++] = d->plugin_dirs[i];
    if (plugins_under(user, sizeof user, d->user_config_dir))
        dirs[n++] = user;
    if (plugins_under(shipped, sizeof shipped, d->data_dir))
        dirs[n++] = shipped;
    return plugin_host_new(dirs, n, kb_answer_question, k, NULL, out, err);
}

int records_host_open_in(const records_dirs *d, kb *k, plugin_host **out, gw_error *err)
{
    plugin_host *h;
    *out = NULL;
    int rc = records_host_new_in(d, k, &h, err);
    if (rc != GW_OK)
        return rc;
    if ((rc = plugin_host_load_all(h, err)) != GW_OK) {
        plugin_host_free(h);
        return rc;
    }
    *out = h;
    return GW_OK;
}

/* ---- the record contracts: which field fills which column ---- */

enum rec_field_flags {
    REC_REQUIRED = 1,    /* required of the record though the column is not (an offer's provider) */
    REC_DEFAULTED = 2    /* the record may leave it out: the host fills it (an offer's as_of) */
};

/* One field of a record and the column it fills. */
typedef struct rec_field {
    const char *field, *column;
    int flags;
} rec_field;

/* How one kind of record maps onto its KB table.  With fields NULL, the record's fields are the
 * table's columns under their own names, in column order with the source last (overrides may
 * rename one or add flags); else fields lists them.  fixed are columns the host sets. */
typedef struct rec_kind {
    const char *kind;                 /* "gpu", "benchmark", "price"; "offer" */
    int table;
    const rec_field *fields;          /* NULL-terminated, or NULL */
    const rec_field *overrides;       /* NULL-terminated, or NULL */
    const char *const *extra;         /* fields of the record alone */
    const rec_field *fixed;           /* {value, column}, NULL-terminated, or NULL */
} rec_kind;

static const char *const importer_extra[] = {"kind", NULL};
static const char *const gpu_extra[] = {"kind", "aliases", NULL};

static const rec_kind gpu_record = {"gpu", KB_GPUS, NULL, NULL, gpu_extra, NULL};
static const rec_kind benchmark_record = {"benchmark", KB_BENCHMARKS, NULL, NULL,
                                          importer_extra, NULL};
/* "kind" names the record's kind, so a price record calls the price's kind price_kind; the
 * unit follows from it when left out (hour for cloud, else card). */
static const rec_field price_overrides[] = {
    {"price_kind", "kind", 0}, {"unit", "unit", REC_DEFAULTED}, {NULL, NULL, 0}};
static const rec_kind price_record = {"price", KB_PRICES, NULL, price_overrides, importer_extra,
                                      NULL};
/* A pricing plugin's offer: a cloud price per hour of a whole instance. */
static const rec_field offer_fields[] = {
    {"provider", "provider", REC_REQUIRED}, {"gpu", "gpu", 0},
    {"gpu_count", "gpu_count", 0}, {"price_per_hour", "amount", 0},
    {"currency", "currency", 0},            {"region", "region", 0},
    {"spot", "spot", 0},                    {"instance", "instance", 0},
    {"as_of", "as_of", REC_DEFAULTED},      {"note", "note", 0},
    {"quality", "quality", 0},              {"gpu_fraction", "gpu_fraction", 0},
    {"min_billing_hours", "min_billing_hours", 0},
    {"long_billing_after_hours", "long_billing_after_hours", 0},
    {"long_billing_hours", "long_billing_hours", 0},
    {"source", "source", 0},                {NULL, NULL, 0}};
static const rec_field offer_fixed[] = {{"cloud", "kind", 0}, {"hour", "unit", 0},
                                        {NULL, NULL, 0}};
static const rec_kind offer_record = {"offer", KB_PRICES, offer_fields, NULL, NULL, offer_fixed};

#define REC_MAX_FIELDS 48

static int fixed_column(const rec_kind *rk, const char *column)
{
    for (const rec_field *f = rk->fixed; f && f->field; f++)
        if (!strcmp(f->column, column))
            return 1;
    return 0;
}

static void field_for_column(const rec_kind *rk, const kb_column *col, rec_field *out)
{
    *out = (rec_field){col->name, col->name, 0};
    for (const rec_field *o = rk->overrides; o && o->field; o++)
        if (!strcmp(o->column, col->name))
            *out = *o;
}

/* The fields of a record of kind rk, in the order they are checked; returns their number. */
static size_t rec_fields(const rec_kind *rk, rec_field *out)
{
    size_t n = 0, ncols;
    if (rk->fields) {
        for (const rec_field *f = rk->fields; f->field && n < REC_MAX_FIELDS; f++)
            out[n++] = *f;
        return n;
    }
    const kb_column *cols = kb_table_columns(rk->table, &ncols);
    for (int pass = 0; pass < 2; pass++)   /* the source last: it falls back on the plugin's */
        for (size_t i = 0; i < ncols && n < REC_MAX_FIELDS; i++)
            if (((cols[i].flags & KB_CITES) != 0) == pass && !fixed_column(rk, cols[i].name))
                field_for_column(rk, &cols[i], &out[n++]);
    return n;
}

/* ---- field checks ---- */

typedef struct rec_ctx {
    kb *k;
    const char *plugin_name;
    const char *what;    /* "offers" or "records" */
    size_t index;        /* 1-based, as a Lua programmer counts */
    gw_buf *warnings;
    int bad;
    char ***batch_gpus;   /* ids of GPUs this batch adds (a dry run has not stored them) */
    size_t *n_batch_gpus;
    long line;            /* the input line an importer record says it came from; 0 = unknown */
    const char *today;    /* what an offer without as_of is dated */
    int unknown_gpu;      /* its GPU name names no KB card (or several): reported, not fatal */
} rec_ctx;

static void warn(rec_ctx *c, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void warn(rec_ctx *c, const char *field, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!c->bad) {   /* one line per record: the first problem */
        buf_printf(c->warnings, "%s: %s[%zu]%s%s: %s", c->plugin_name, c->what, c->index,
                   field ? "." : "", field ? field : "", msg);
        if (c->line > 0)
            buf_printf(c->warnings, " (line %ld)", c->line);
        buf_puts(c->warnings, "\n");
    }
    c->bad = 1;
}

static const char *type_name(const view *v)
{
    static const char *const names[] = {"nil", "boolean", "number", "string", "list", "table"};
    return v ? names[view_kind(v)] : "nil";
}

/* A string field; NULL when absent.  Empty strings count as absent. */
static const char *get_str(rec_ctx *c, const view *rec, const char *key, int required)
{
    view *v = view_map_get(rec, key);
    if (view_is_null(v) || (view_kind(v) == VIEW_STRING && !*view_str(v))) {
        if (required)
            warn(c, key, "missing (required)");
        return NULL;
    }
    if (view_kind(v) != VIEW_STRING) {
        warn(c, key, "expected a string, got %s", type_name(v));
        return NULL;
    }
    return view_str(v);
}

/* A number field; NaN when absent.  Numbers written as text ("1.5") are not accepted: the
 * plugin should convert with tonumber or gw.units.parse, where it knows the unit. */
static double get_num(rec_ctx *c, const view *rec, const char *key, int required)
{
    view *v = view_map_get(rec, key);
    if (view_is_null(v)) {
        if (required)
            warn(c, key, "missing (required)");
        return NAN;
    }
    if (view_kind(v) == VIEW_STRING) {   /* echoed, so the cell can be found: "3,150" */
        warn(c, key, "expected a number, got the text '%.60s'", view_str(v));
        return NAN;
    }
    if (view_kind(v) != VIEW_NUMBER) {
        warn(c, key, "expected a number, got %s", type_name(v));
        return NAN;
    }
    return view_num(v);
}

/* A flag: true or false (or 1 or 0); NaN when absent. */
static double get_flag(rec_ctx *c, const view *rec, const char *key)
{
    view *v = view_map_get(rec, key);
    if (view_is_null(v))
        return NAN;
    if (view_kind(v) == VIEW_BOOL)
        return view_bool_value(v);
    if (view_kind(v) == VIEW_NUMBER && (view_num(v) == 0 || view_num(v) == 1))
        return view_num(v);
    warn(c, key, "expected true or false, got %s", type_name(v));
    return NAN;
}

/* Resolves the gpu field to a KB id (caller frees); *count gets the count its name gives. */
static char *get_gpu(rec_ctx *c, const view *rec, const char *key, int *count)
{
    const char *name = get_str(c, rec, key, 1);
    *count = 1;
    if (!name)
        return NULL;
    for (size_t i = 0; c->batch_gpus && i < *c->n_batch_gpus; i++)
        if (!strcmp((*c->batch_gpus)[i], name))
            return gw_xstrdup(name);
    char *id = NULL;
    gw_error e = {0};
    int rc = kb_gpu_resolve(c->k, name, &id, count, &e);
    if (rc != GW_OK) {
        c->unknown_gpu = !c->bad && rc == GW_ENOTFOUND;
        warn(c, key, "%s", e.msg);
        return NULL;
    }
    return id;
}

/* The record's own source when it names one (it must be in the KB), else the plugin's. */
static const char *get_source(rec_ctx *c, const view *rec, const char *key, const char *fallback)
{
    const char *s = get_str(c, rec, key, 0);
    if (!s)
        return fallback;
    kb_source src = {0};
    gw_error e = {0};
    int rc = kb_source_get(c->k, s, &src, &e);
    if (rc == GW_ENOTFOUND) {
        warn(c, key, "unknown source '%.80s' (a source id of the KB)", s);
        return NULL;
    }
    if (rc != GW_OK) {   /* the KB could not be read (a signal stopped the import, say) */
        warn(c, key, "%s", e.msg);
        return NULL;
    }
    kb_source_free(&src);
    return s;
}

/* A price kind must be one of the KB's (kb_price_kinds): a dry run says so as a write would,
 * naming them best first. */
static void check_price_kind(rec_ctx *c, const rec_field *f, const char *kind)
{
    kb_price_kind *kinds;
    size_t n;
    gw_error e = {0};
    if (!c->k || !kind || kb_price_kinds(c->k, &kinds, &n, &e) != GW_OK)
        return;   /* an unreadable KB: the write reports it */
    if (!kb_price_kind_rank(kinds, n, kind)) {
        gw_buf names = GW_BUF_INIT;
        for (size_t i = 0; i < n; i++)
            buf_printf(&names, "%s%s", i ? ", " : "", kinds[i].id);
        warn(c, f->field, "'%.80s' is not one of: %s", kind, buf_cstr(&names));
        buf_free(&names);
    }
    kb_price_kinds_free(kinds, n);
}

/* The column's verdict on a value read from field f, in the records' words. */
static void check_value(rec_ctx *c, const rec_field *f, const kb_column *col, const kb_value *v)
{
    if ((col->flags & KB_NAMES_PRICE_KIND) && v->text && *v->text)
        check_price_kind(c, f, v->text);
    kb_problem p = kb_value_check(col, v);
    if (p == KB_FINE || p == KB_MISSING)   /* missing: get_* said so when it matters */
        ;
    else if ((p == KB_NEGATIVE || p == KB_NOT_POSITIVE) && (col->flags & KB_POSITIVE))
        warn(c, f->field, "expected a number greater than 0, got %g", v->number);
    else if (p == KB_NEGATIVE)
        warn(c, f->field, "must not be negative, got %g", v->number);
    else {
        char text[400];
        kb_problem_text(p, col, v, text, sizeof text);
        warn(c, f->field, "%s", text);
    }
}

/* Reads field f into v (its column col): the GPU it names resolved to an id (*gpu_id owns it,
 * *name_count gets the count the name gives), the source falling back on source. */
static void read_value(rec_ctx *c, const view *r, const rec_field *f, const kb_column *col,
                       const char *source, kb_value *v, char **gpu_id, int *name_count)
{
    int required = ((col->flags & KB_REQUIRED) && !(f->flags & REC_DEFAULTED)) ||
                   (f->flags & REC_REQUIRED);
    if (col->flags & KB_NAMES_GPU) {
        free(*gpu_id);
        v->text = *gpu_id = get_gpu(c, r, f->field, name_count);
        return;
    }
    if (col->flags & KB_CITES) {
        v->text = get_source(c, r, f->field, source);
        return;
    }
    if (col->type == KB_TEXT)
        v->text = get_str(c, r, f->field, required);
    else if (col->type == KB_FLAG)
        v->number = get_flag(c, r, f->field);
    else
        v->number = get_num(c, r, f->field, required);
    check_value(c, f, col, v);
}

static int check_list(const view *v, const char *plugin_name, const char *what, gw_error *err)
{
    if (view_kind(v) == VIEW_LIST || (view_kind(v) == VIEW_MAP && view_len(v) == 0))
        return GW_OK;
    return gw_error_set(err, GW_ESOFTWARE, "%s: %s: expected a list, got %s", plugin_name, what,
                        type_name(v));
}

static int known_field(const rec_kind *rk, const rec_field *fields, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(key, fields[i].field))
            return 1;
    for (const char *const *x = rk->extra; x && *x; x++)
        if (!strcmp(key, *x))
            return 1;
    return 0;
}

/* Warns about a field the contract does not know (a typo would otherwise vanish silently). */
static void check_fields(rec_ctx *c, const view *rec, const rec_kind *rk,
                         const rec_field *fields, size_t n)
{
    for (size_t i = 0; i < view_len(rec); i++) {
        const char *key = view_map_key_at(rec, i);
        if (!known_field(rk, fields, n, key) && !(c->line && !strcmp(key, "line")))
            warn(c, key, "unknown field");
    }
}

/* Defaults a record may leave to the host: a count from the GPU's name ("8xH100"), an offer
 * dated today, a price's unit from its kind. */
static void fill_defaults(rec_ctx *c, const rec_kind *rk, const view *r, kb_value *row,
                          int name_count)
{
    size_t ncols;
    const kb_column *cols = kb_table_columns(rk->table, &ncols);
    for (size_t i = 0; i < ncols; i++) {
        kb_value *v = &row[i];
        if (!strcmp(cols[i].name, "gpu_count") && isnan(v->number))
            v->number = name_count;
        else if (rk == &offer_record && !strcmp(cols[i].name, "as_of") && !v->text &&
                 !view_map_get(r, "as_of"))
            v->text = c->today;
        else if (rk == &price_record && !strcmp(cols[i].name, "unit") && !v->text) {
            const char *kind = row[kb_table_column(KB_PRICES, "kind") - cols].text;
            v->text = kind && !strcmp(kind, "cloud") ? "hour" : "card";
        }
    }
}

/* Reads record r of kind rk into row (one value per column of its table), each field checked
 * against its column as it is read, then the whole row as every write checks it; the first
 * problem becomes the record's warning.  Text in row is borrowed from r, except the GPU id,
 * which *gpu_id owns (caller frees).  source: what the record cites when it names no source. */
static void read_record(rec_ctx *c, const rec_kind *rk, const view *r, const char *source,
                        kb_value *row, char **gpu_id)
{
    rec_field fields[REC_MAX_FIELDS];
    size_t nf = rec_fields(rk, fields), ncols;
    const kb_column *cols = kb_table_columns(rk->table, &ncols);
    int name_count = 1;
    kb_values_clear(row, ncols);
    *gpu_id = NULL;
    if (view_kind(r) != VIEW_MAP) {
        warn(c, NULL, "expected a table, got %s", type_name(r));
        return;
    }
    check_fields(c, r, rk, fields, nf);
    for (size_t i = 0; i < nf; i++) {
        const kb_column *col = kb_table_column(rk->table, fields[i].column);
        read_value(c, r, &fields[i], col, source, &row[col - cols], gpu_id, &name_count);
    }
    for (const rec_field *f = rk->fixed; f && f->field; f++)
        row[kb_table_column(rk->table, f->column) - cols].text = f->field;
    fill_defaults(c, rk, r, row, name_count);
    gw_error e = {0};
    if (!c->bad && kb_row_check(rk->table, row, &e) != GW_OK)
        warn(c, NULL, "%s", e.msg);
}

/* A refusal by the KB's own checks is a warning about the record, anything else an error. */
static int kb_result(rec_ctx *c, int rc, gw_error *e, gw_error *err)
{
    if (rc == GW_OK)
        return GW_OK;
    if (rc == GW_EDATA) {
        warn(c, NULL, "%s", e->msg);
        return GW_OK;
    }
    *err = *e;
    return rc;
}

/* The input line a record says it came from (an importer's, a price page's), or 0 when it says
 * none or a number no file has. */
static long record_line(const view *line)
{
    return view_kind(line) == VIEW_NUMBER ? (long)gw_double_to_ll(view_num(line), 1, 1L << 31, 0)
                                          : 0;
}

/* In a dry run no source is made for the plugin: records that would cite it are checked as if
 * it were there (its id is only ever looked up in a real run, where it exists). */
#define DRY_RUN_SOURCE "plugin"

static const char *fallback_source(const char *source_id, int dry_run)
{
    return !source_id && dry_run ? DRY_RUN_SOURCE : source_id;
}

/* ---- offers ---- */

static int str_in(char **set, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (s && set[i] && !strcmp(set[i], s))
            return 1;
    return 0;
}

/* 1 when source id is one plugin_name made (records_plugin_source: its publisher is "gpuwise
 * plugin NAME VERSION"), from whatever file or URL: a refresh from a renamed file replaces what
 * the old name stored.  *cache remembers the answer per source id. */
static int plugin_made(kb *k, const char *plugin_name, const char *id, char ***cache, size_t *n)
{
    for (size_t i = 0; i < *n; i += 2)
        if (!strcmp((*cache)[i], id))
            return (*cache)[i + 1] != NULL;
    kb_source src = {0};
    gw_error e = {0};
    int mine = 0;
    if (kb_source_get(k, id, &src, &e) == GW_OK && src.publisher) {
        size_t len = strlen("gpuwise plugin ");
        mine = !strncmp(src.publisher, "gpuwise plugin ", len) &&
               !strncmp(src.publisher + len, plugin_name, strlen(plugin_name)) &&
               src.publisher[len + strlen(plugin_name)] == ' ';
    }
    kb_source_free(&src);
    *cache = gw_xrealloc(*cache, (*n + 2) * sizeof **cache);
    (*cache)[(*n)++] = gw_xstrdup(id);
    (*cache)[(*n)++] = mine ? gw_xstrdup("") : NULL;
    return mine;
}

/* The earlier cloud offers of provider that plugin_name stored (from any file or URL) or that
 * came from one of sources, appended to *ids: what the refresh replaces.  That provider's other
 * offers (the curated rows of the KB, another plugin's) stay. */
static int replaced_offers(kb *k, const char *plugin_name, const char *provider, char **sources,
                           size_t n_sources, long long **ids, size_t *n_ids, gw_error *err)
{
    kb_price *rows = NULL;
    size_t n = 0;
    int rc = kb_prices_find(k, NULL, "cloud", provider, &rows, &n, err);
    if (rc != GW_OK)
        return rc;
    char **cache = NULL;
    size_t n_cache = 0;
    for (size_t i = 0; i < n; i++)
        if (str_in(sources, n_sources, rows[i].source) ||
            (rows[i].source && plugin_made(k, plugin_name, rows[i].source, &cache, &n_cache))) {
            *ids = gw_xrealloc(*ids, (*n_ids + 1) * sizeof **ids);
            (*ids)[(*n_ids)++] = rows[i].id;
        }
    for (size_t i = 0; i < n_cache; i++)
        free(cache[i]);
    free(cache);
    kb_prices_free(rows, n);
    return rc;
}

/* The offers read: one row of price columns each, with the GPU ids they own. */
typedef struct offer_rows {
    kb_value *rows;     /* n rows of ncols values */
    char **gpu_ids;
    char *ok;
    size_t n, ncols;
} offer_rows;

static void offer_rows_free(offer_rows *o)
{
    for (size_t i = 0; i < o->n; i++)
        free(o->gpu_ids[i]);
    free(o->gpu_ids);
    free(o->rows);
    free(o->ok);
}

/* Stores the good offers, then removes the earlier offers of the providers they refresh that
 * none of them matched: an offer with an earlier one's identity updates it (or, the same,
 * leaves it as it is), so a refresh's counts say what changed. */
static int offers_store(kb *k, const char *plugin_name, const char *source_id, offer_rows *o,
                        int dry_run, gw_buf *warnings, records_result *res, gw_error *err)
{
    const kb_column *cols = kb_table_columns(KB_PRICES, &o->ncols);
    size_t provider = (size_t)(kb_table_column(KB_PRICES, "provider") - cols);
    size_t source = (size_t)(kb_table_column(KB_PRICES, "source") - cols);
    /* the providers and sources being refreshed */
    char **providers = gw_xcalloc(o->n + 1, sizeof *providers);
    char **sources = gw_xcalloc(o->n + 2, sizeof *sources);
    size_t np = 0, ns = 0;
    int rc = GW_OK;
    if (source_id)
        sources[ns++] = (char *)source_id;
    for (size_t i = 0; i < o->n; i++) {
        kb_value *row = &o->rows[i * o->ncols];
        if (!o->ok[i])
            continue;
        if (!str_in(providers, np, row[provider].text))
            providers[np++] = (char *)row[provider].text;
        if (!str_in(sources, ns, row[source].text))
            sources[ns++] = (char *)row[source].text;
    }
    long long *earlier = NULL;
    size_t n_earlier = 0;
    /* this refresh's offers may update any earlier one, those of a refresh before it in the
     * same transaction too */
    if (!dry_run)
        rc = kb_matches_forget(k, err);
    for (size_t i = 0; rc == GW_OK && !dry_run && i < np; i++)
        rc = replaced_offers(k, plugin_name, providers[i], sources, ns, &earlier, &n_earlier,
                             err);
    for (size_t i = 0; rc == GW_OK && i < o->n; i++) {
        if (!o->ok[i])
            continue;
        rec_ctx c = {k, plugin_name, "offers", i + 1, warnings, 0, NULL, NULL, 0, NULL, 0};
        gw_error e = {0};
        int outcome = KB_ADDED;
        if (!dry_run)
            rc = kb_result(&c, kb_row_put(k, KB_PRICES, &o->rows[i * o->ncols], &outcome, &e),
                           &e, err);
        if (c.bad)
            res->skipped++;
        else if (rc == GW_OK) {
            res->stored++;
            res->per_table[KB_PRICES]++;
            records_count_outcome(res, KB_PRICES, outcome);
        }
    }
    size_t removed = 0;
    if (rc == GW_OK && n_earlier)
        rc = kb_remove_unmatched_rows(k, KB_PRICES, earlier, n_earlier, &removed, err);
    res->replaced += removed;
    res->outcome.removed[KB_PRICES] += removed;
    free(earlier);
    free(providers);
    free(sources);
    return rc;
}

/* The offers that name a GPU the KB does not know, one entry per name: they are left out and
 * reported once per name (a catalog names a new card in every region it sells it). */
typedef struct unknown_gpu {
    const char *name;   /* borrowed from the offers */
    char *first;        /* the first offer's warning, without its newline */
    size_t count;
    long lines[6];      /* the first input lines (0: the plugin gave none) */
    size_t n_lines;
    int more;           /* more lines than lines[] holds */
} unknown_gpu;

static void unknown_add(unknown_gpu **list, size_t *n, const view *offer, const gw_buf *warning,
                        long line)
{
    view *g = view_map_get(offer, "gpu");
    const char *name = view_kind(g) == VIEW_STRING ? view_str(g) : "";
    size_t i = 0;
    while (i < *n && strcmp((*list)[i].name, name) != 0)
        i++;
    if (i == *n) {
        *list = gw_xrealloc(*list, (*n + 1) * sizeof **list);
        unknown_gpu u = {name, gw_xstrndup(warning->data, warning->len - 1), 0, {0}, 0, 0};
        (*list)[(*n)++] = u;
    }
    unknown_gpu *u = &(*list)[i];
    u->count++;
    if (line <= 0 || (u->n_lines > 0 && u->lines[u->n_lines - 1] == line))
        return;   /* no line, or the one before (a row's on-demand and spot offers) */
    if (u->n_lines < sizeof u->lines / sizeof u->lines[0])
        u->lines[u->n_lines++] = line;
    else
        u->more = 1;
}

/* One line per unknown name: the first offer's warning, then how many offers name it and where. */
static void unknown_report(gw_buf *warnings, unknown_gpu *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unknown_gpu *u = &list[i];
        buf_puts(warnings, u->first);
        if (u->count > 1) {
            buf_printf(warnings, "; %zu offers name it", u->count);
            for (size_t j = 0; j < u->n_lines; j++)
                buf_printf(warnings, "%s%ld", j ? ", " : " (lines ", u->lines[j]);
            if (u->n_lines)
                buf_puts(warnings, u->more ? ", ...)" : ")");
        }
        buf_puts(warnings, "\n");
        free(u->first);
    }
    free(list);
}

int records_store_offers(kb *k, const char *plugin_name, const char *source_id,
                         const view *offers, int dry_run, gw_buf *warnings, records_result *res,
                         gw_error *err)
{
    int rc = check_list(offers, plugin_name, "offers", err);
    if (rc != GW_OK)
        return rc;
    char today[11];
    gw_today_date(today);
    offer_rows o = {NULL, NULL, NULL, view_len(offers), 0};
    kb_table_columns(KB_PRICES, &o.ncols);
    o.rows = gw_xcalloc((o.n ? o.n : 1) * o.ncols, sizeof *o.rows);
    o.gpu_ids = gw_xcalloc(o.n ? o.n : 1, sizeof *o.gpu_ids);
    o.ok = gw_xcalloc(o.n ? o.n : 1, 1);
    unknown_gpu *unknown = NULL;
    size_t n_unknown = 0;
    gw_buf one = GW_BUF_INIT;
    for (size_t i = 0; i < o.n; i++) {
        const view *offer = view_list_at(offers, i);
        view *line = view_map_get(offer, "line");   /* the input line it came from, if said */
        buf_reset(&one);
        rec_ctx c = {k, plugin_name, "offers", i + 1, &one, 0, NULL, NULL,
                     record_line(line), today, 0};
        read_record(&c, &offer_record, offer, fallback_source(source_id, dry_run),
                    &o.rows[i * o.ncols], &o.gpu_ids[i]);
        o.ok[i] = !c.bad;
        if (c.bad && c.unknown_gpu) {
            unknown_add(&unknown, &n_unknown, offer, &one, c.line);
            res->unknown_gpu++;
        } else if (c.bad) {
            buf_append(warnings, one.data, one.len);
            res->skipped++;
        }
    }
    buf_free(&one);
    unknown_report(warnings, unknown, n_unknown);
    rc = offers_store(k, plugin_name, source_id, &o, dry_run, warnings, res, err);
    offer_rows_free(&o);
    if (rc != GW_OK)
        gw_error_prefix(err, "%s", plugin_name);
    return rc;
}

/* ---- importer records ---- */

/* The GPU's aliases: a list of names, each as the alias column takes it. */
static void check_aliases(rec_ctx *c, const view *aliases)
{
    const kb_column *alias = kb_table_column(KB_ALIASES, "alias");
    if (!view_is_null(aliases) && view_kind(aliases) != VIEW_LIST)
        warn(c, "aliases", "expected a list of names, got %s", type_name(aliases));
    for (size_t i = 0; i < view_len(aliases); i++) {
        const view *a = view_list_at(aliases, i);
        if (view_kind(a) != VIEW_STRING) {
            warn(c, "aliases", "expected a list of names");
            continue;
        }
        kb_value v = {view_str(a), NAN};
        kb_problem p = kb_value_check(alias, &v);
        if (p != KB_FINE) {
            char text[400];
            kb_problem_text(p, alias, &v, text, sizeof text);
            warn(c, "aliases", "'%.80s': %s", view_str(a), text);
        }
    }
}

/* One stored row of table, by what storing it did. */
void records_count_outcome(records_result *res, int table, int outcome)
{
    if (outcome == KB_ADDED)
        res->outcome.added[table]++;
    else if (outcome == KB_UPDATED)
        res->outcome.updated[table]++;
    else
        res->outcome.unchanged[table]++;
}

/* 1 when GPU id is in the KB or added earlier in this import (a dry run has not stored it). */
static int gpu_known(rec_ctx *c, const char *id)
{
    for (size_t i = 0; c->batch_gpus && i < *c->n_batch_gpus; i++)
        if (!strcmp((*c->batch_gpus)[i], id))
            return 1;
    kb_gpu existing;
    gw_error e = {0};
    if (kb_gpu_get(c->k, id, &existing, &e) != GW_OK)
        return 0;
    kb_gpu_free(&existing);
    return 1;
}

/* A dry run's check of what kb_row_put refuses in a real one: the new card's id, name and
 * aliases must name no other card already (kb_gpu_name_free). */
static int names_free(rec_ctx *c, const char *id, const char *name, const view *aliases,
                      gw_error *err)
{
    gw_error e = {0};
    int rc = kb_result(c, kb_gpu_name_free(c->k, id, "id", id, &e), &e, err);
    if (rc == GW_OK && !c->bad)
        rc = kb_result(c, kb_gpu_name_free(c->k, id, "name", name, &e), &e, err);
    for (size_t i = 0; rc == GW_OK && !c->bad && i < view_len(aliases); i++)
        rc = kb_result(c, kb_gpu_name_free(c->k, id, "alias",
                                           view_str(view_list_at(aliases, i)), &e), &e, err);
    return rc;
}

static int store_gpu(rec_ctx *c, const view *r, const char *source_id, int dry_run,
                     records_result *res, gw_error *err)
{
    size_t ncols;
    const kb_column *cols = kb_table_columns(KB_GPUS, &ncols);
    kb_value row[REC_MAX_FIELDS];
    char *unused_gpu = NULL;
    read_record(c, &gpu_record, r, fallback_source(source_id, dry_run), row, &unused_gpu);
    free(unused_gpu);
    view *aliases = view_map_get(r, "aliases");
    check_aliases(c, aliases);
    if (c->bad)
        return GW_OK;
    const char *id = row[kb_table_column(KB_GPUS, "id") - cols].text;
    /* A GPU the KB already has keeps its curated row: importers add GPUs, never overwrite. */
    if (gpu_known(c, id)) {
        res->unchanged++;
        res->outcome.unchanged[KB_GPUS]++;
        return GW_OK;
    }
    if (c->batch_gpus) {
        *c->batch_gpus = gw_xrealloc(*c->batch_gpus, (*c->n_batch_gpus + 1) * sizeof(char *));
        (*c->batch_gpus)[(*c->n_batch_gpus)++] = gw_xstrdup(id);
    }
    gw_error e = {0};
    if (dry_run) {
        int rc = names_free(c, id, row[kb_table_column(KB_GPUS, "name") - cols].text, aliases,
                            err);
        if (rc == GW_OK && !c->bad) {
            res->stored++;
            res->per_table[KB_GPUS]++;
        }
        return rc;
    }
    int outcome = KB_ADDED;
    int rc = kb_result(c, kb_row_put(c->k, KB_GPUS, row, &outcome, &e), &e, err);
    if (rc != GW_OK || c->bad)
        return rc;
    res->stored++;
    res->per_table[KB_GPUS]++;
    records_count_outcome(res, KB_GPUS, outcome);
    for (size_t i = 0; i < view_len(aliases); i++) {
        kb_value alias[2] = {{id, NAN}, {view_str(view_list_at(aliases, i)), NAN}};
        rc = kb_result(c, kb_row_put(c->k, KB_ALIASES, alias, &outcome, &e), &e, err);
        if (rc != GW_OK)
            return rc;
        res->per_table[KB_ALIASES]++;
        records_count_outcome(res, KB_ALIASES, outcome);
    }
    return GW_OK;
}

/* A benchmark or price record: read, checked, and (unless dry_run) stored. */
static int store_row_record(rec_ctx *c, const rec_kind *rk, const view *r, const char *source_id,
                            int dry_run, records_result *res, gw_error *err)
{
    kb_value row[REC_MAX_FIELDS];
    char *gpu_id = NULL;
    read_record(c, rk, r, fallback_source(source_id, dry_run), row, &gpu_id);
    int rc = GW_OK;
    int outcome = KB_ADDED;
    if (!c->bad && !dry_run) {
        gw_error e = {0};
        rc = kb_result(c, kb_row_put(c->k, rk->table, row, &outcome, &e), &e, err);
    }
    if (!c->bad && rc == GW_OK) {
        res->stored++;
        res->per_table[rk->table]++;
        records_count_outcome(res, rk->table, outcome);
    }
    free(gpu_id);
    return rc;
}

static const rec_kind *record_kind(const char *kind)
{
    static const rec_kind *const kinds[] = {&gpu_record, &benchmark_record, &price_record};
    for (size_t i = 0; kind && i < sizeof kinds / sizeof *kinds; i++)
        if (!strcmp(kinds[i]->kind, kind))
            return kinds[i];
    return NULL;
}

int records_store_imported_from(kb *k, const char *plugin_name, const char *source_id,
                                const view *records, size_t first_index, int dry_run,
                                gw_buf *warnings, records_result *res, gw_error *err)
{
    int rc = check_list(records, plugin_name, "import", err);
    char **batch = NULL;
    size_t n_batch = 0;
    /* GPUs first, so a benchmark in the same batch can name a GPU just added */
    for (int pass = 0; pass < 2 && rc == GW_OK; pass++) {
        for (size_t i = 0; rc == GW_OK && i < view_len(records); i++) {
            const view *r = view_list_at(records, i);
            view *line = view_map_get(r, "line");
            rec_ctx c = {k, plugin_name, "records", first_index + i + 1, warnings, 0, &batch,
                         &n_batch, record_line(line),
                         NULL, 0};
            const char *kind = view_str(view_map_get(r, "kind"));
            const rec_kind *rk = record_kind(kind);
            if ((pass == 0) != (rk == &gpu_record))
                continue;
            if (view_kind(r) != VIEW_MAP)
                warn(&c, NULL, "expected a table, got %s", type_name(r));
            else if (!kind)
                warn(&c, "kind", "expected \"gpu\", \"benchmark\" or \"price\"");
            else if (!rk)
                warn(&c, "kind", "'%s' is not one of: gpu, benchmark, price", kind);
            else if (rk == &gpu_record)
                rc = store_gpu(&c, r, source_id, dry_run, res, err);
            else
                rc = store_row_record(&c, rk, r, source_id, dry_run, res, err);
            if (c.bad)
                res->skipped++;
        }
    }
    for (size_t i = 0; i < n_batch; i++)
        free(batch[i]);
    free(batch);
    if (rc != GW_OK && rc != GW_ESOFTWARE)
        gw_error_prefix(err, "%s", plugin_name);
    return rc;
}

int records_store_imported(kb *k, const char *plugin_name, const char *source_id,
                           const view *records, int dry_run, gw_buf *warnings,
                           records_result *res, gw_error *err)
{
    return records_store_imported_from(k, plugin_name, source_id, records, 0, dry_run, warnings,
                                       res, err);
}
