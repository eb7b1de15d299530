/* records.c — checks what plugins return, field by field, before anything reaches the KB, and
 * stores the good records through kb.h (the caller holds the transaction).  Every message names
 * the plugin and the record ("acme: offers[3].price_per_hour: expected a number, got string"). */
#include "check.h"
#include "records.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "units.h"

enum { T_SOURCES, T_GPUS, T_ALIASES, T_RATES, T_BENCHMARKS, T_PRICES, T_CLAIMS };

void records_today(char out[11])
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, 11, "%Y-%m-%d", &tm);
}

int records_host_new(gw_ctx *ctx, kb *k, plugin_host **out, gw_error *err)
{
    char user[4200], shipped[4200];
    const char *dirs[GW_MAX_PLUGIN_DIRS + 2];
    size_t n = 0;
    for (int i = 0; i < ctx->n_plugin_dirs; i++)
        dirs[n++] = ctx->plugin_dirs[i];
    if (ctx->user_config_dir[0] &&
        cli_path_join(user, sizeof user, ctx->user_config_dir, "plugins") == 0)
        dirs[n++] = user;
    if (ctx->data_dir[0] && cli_path_join(shipped, sizeof shipped, ctx->data_dir, "plugins") == 0)
        dirs[n++] = shipped;
    *out = NULL;
    return plugin_host_new(dirs, n, k, NULL, out, err);
}

int records_host_open(gw_ctx *ctx, kb *k, plugin_host **out, gw_error *err)
{
    plugin_host *h;
    *out = NULL;
    int rc = records_host_new(ctx, k, &h, err);
    if (rc != GW_OK)
        return rc;
    if ((rc = plugin_host_load_all(h, err)) != GW_OK) {
        plugin_host_free(h);
        return rc;
    }
    *out = h;
    return GW_OK;
}

/* Appends a slug of s (lower-case letters and digits, '-' between words). */
static void slug_append(gw_buf *b, const char *s)
{
    int dash = b->len > 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c)) {
            if (dash && b->len > 0 && b->data[b->len - 1] != '-')
                buf_putc(b, '-');
            buf_putc(b, (char)tolower(c));
            dash = 0;
        } else {
            dash = 1;
        }
    }
}

char *records_plugin_source(kb *k, int write, plugin *p, const char *input_path, gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    gw_buf id = GW_BUF_INIT, title = GW_BUF_INIT, note = GW_BUF_INIT, publisher = GW_BUF_INIT;
    const char *base = NULL;
    if (input_path) {
        base = strrchr(input_path, '/');
        base = base ? base + 1 : input_path;
    }
    buf_puts(&id, "plugin");
    slug_append(&id, info.name);
    if (base)
        slug_append(&id, base);
    if (id.len > 120) {   /* keep ids readable: long file names are cut */
        id.data[120] = '\0';
        id.len = 120;
    }
    buf_puts(&title, info.description);
    if (base)
        buf_printf(&title, " (%s)", base);
    buf_printf(&publisher, "gpuwise plugin %s %s", info.name, info.version);
    buf_printf(&note, "Records returned by the %s plugin %s", info.kind, info.path);
    if (base)
        buf_printf(&note, " from the file %s", base);
    buf_puts(&note, ".");
    int rc = GW_OK;
    if (write) {
        char today[11];
        records_today(today);
        kb_source s = {id.data, title.data, publisher.data, NULL, today, "plugin", note.data, 0};
        rc = kb_put_source(k, &s, err);
        if (rc != GW_OK)
            gw_error_prefix(err, "%s: source %s", info.name, id.data);
    }
    buf_free(&title);
    buf_free(&note);
    buf_free(&publisher);
    if (rc != GW_OK) {
        buf_free(&id);
        return NULL;
    }
    return buf_detach(&id);
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
    if (view_str_len(v) > 1000) {
        warn(c, key, "longer than 1000 bytes");
        return NULL;
    }
    return view_str(v);
}

/* A number field; NaN when absent.  Numbers written as text ("1.5") are not accepted: the
 * plugin should convert with tonumber or gw.units.parse, where it knows the unit. */
static double get_num(rec_ctx *c, const view *rec, const char *key, int required, int positive)
{
    view *v = view_map_get(rec, key);
    if (view_is_null(v)) {
        if (required)
            warn(c, key, "missing (required)");
        return NAN;
    }
    if (view_kind(v) != VIEW_NUMBER) {
        warn(c, key, "expected a number, got %s", type_name(v));
        return NAN;
    }
    double d = view_num(v);
    if (positive && !(d > 0))
        warn(c, key, "expected a number greater than 0, got %g", d);
    else if (d < 0)
        warn(c, key, "must not be negative, got %g", d);
    return d;
}

static int get_flag(rec_ctx *c, const view *rec, const char *key)
{
    view *v = view_map_get(rec, key);
    if (view_is_null(v))
        return 0;
    if (view_kind(v) == VIEW_BOOL)
        return view_bool_value(v);
    if (view_kind(v) == VIEW_NUMBER && (view_num(v) == 0 || view_num(v) == 1))
        return view_num(v) == 1;
    warn(c, key, "expected true or false, got %s", type_name(v));
    return 0;
}

static const char *get_date(rec_ctx *c, const view *rec, const char *key, int required)
{
    const char *s = get_str(c, rec, key, required);
    if (s && !gw_valid_date(s)) {
        warn(c, key, "'%.40s' is not a date (YYYY-MM or YYYY-MM-DD)", s);
        return NULL;
    }
    return s;
}

static const char *get_currency(rec_ctx *c, const view *rec, const char *key)
{
    const char *s = get_str(c, rec, key, 1);
    if (s && !units_is_currency(s)) {
        warn(c, key, "'%.40s' is not a currency code (three upper-case letters, e.g. USD)", s);
        return NULL;
    }
    return s;
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
    if (kb_gpu_resolve(c->k, name, &id, count, &e) != GW_OK) {
        warn(c, key, "%s", e.msg);
        return NULL;
    }
    return id;
}

/* The record's own source when it names one (it must be in the KB), else the plugin's. */
static const char *get_source(rec_ctx *c, const view *rec, const char *fallback)
{
    const char *s = get_str(c, rec, "source", 0);
    if (!s)
        return fallback;
    kb_source src = {0};
    gw_error e = {0};
    int rc = kb_source_get(c->k, s, &src, &e);
    if (rc == GW_ENOTFOUND) {
        warn(c, "source", "unknown source '%.80s' (a source id of the KB)", s);
        return NULL;
    }
    if (rc != GW_OK) {   /* the KB could not be read (a signal stopped the import, say) */
        warn(c, "source", "%s", e.msg);
        return NULL;
    }
    kb_source_free(&src);
    return s;
}

static int check_list(const view *v, const char *plugin_name, const char *what, gw_error *err)
{
    if (view_kind(v) == VIEW_LIST || (view_kind(v) == VIEW_MAP && view_len(v) == 0))
        return GW_OK;
    return gw_error_set(err, GW_ESOFTWARE, "%s: %s: expected a list, got %s", plugin_name, what,
                        type_name(v));
}

static int known_field(const char *key, const char *const *fields)
{
    for (size_t i = 0; fields[i]; i++)
        if (!strcmp(key, fields[i]))
            return 1;
    return 0;
}

/* Warns about a field the contract does not know (a typo would otherwise vanish silently). */
static void check_fields(rec_ctx *c, const view *rec, const char *const *fields)
{
    for (size_t i = 0; i < view_len(rec); i++)
        if (!known_field(view_map_key_at(rec, i), fields) &&
            !(c->line && !strcmp(view_map_key_at(rec, i), "line")))
            warn(c, view_map_key_at(rec, i), "unknown field");
}

/* Stores one row; a refusal by the KB's own checks is a warning, anything else an error. */
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

/* ---- offers ---- */

static const char *const offer_fields[] = {
    "provider", "gpu", "gpu_count", "price_per_hour", "currency", "region", "spot", "instance",
    "as_of", "source", "note", NULL};

/* Reads offer i into p (strings borrowed from the view, except p->gpu, which is owned). */
static void read_offer(rec_ctx *c, const view *o, const char *source_id, const char *today,
                       kb_price *p)
{
    memset(p, 0, sizeof *p);
    p->gpu_count = NAN;
    if (view_kind(o) != VIEW_MAP) {
        warn(c, NULL, "expected a table, got %s", type_name(o));
        return;
    }
    check_fields(c, o, offer_fields);
    int name_count = 1;
    p->provider = (char *)get_str(c, o, "provider", 1);
    p->gpu = get_gpu(c, o, "gpu", &name_count);
    double count = get_num(c, o, "gpu_count", 0, 1);
    if (!isnan(count) && count != floor(count))
        warn(c, "gpu_count", "expected a whole number, got %g", count);
    p->gpu_count = isnan(count) ? name_count : count;
    p->amount = get_num(c, o, "price_per_hour", 1, 1);
    p->currency = (char *)get_currency(c, o, "currency");
    p->region = (char *)get_str(c, o, "region", 0);
    p->spot = get_flag(c, o, "spot");
    p->instance = (char *)get_str(c, o, "instance", 0);
    p->as_of = (char *)get_date(c, o, "as_of", 0);
    if (!p->as_of && !view_map_get(o, "as_of"))
        p->as_of = (char *)today;
    p->note = (char *)get_str(c, o, "note", 0);
    p->source = (char *)get_source(c, o, source_id);
    p->kind = "cloud";
    p->unit = "hour";
}

static int str_in(char **set, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (s && set[i] && !strcmp(set[i], s))
            return 1;
    return 0;
}

/* Removes the earlier cloud offers of provider that came from one of sources, keeping that
 * provider's offers from other sources (the curated rows of the KB). */
static int replace_provider(kb *k, const char *provider, char **sources, size_t n_sources,
                            records_result *res, gw_error *err)
{
    kb_price *rows = NULL;
    size_t n = 0;
    int rc = kb_prices_find(k, NULL, "cloud", provider, &rows, &n, err);
    if (rc != GW_OK)
        return rc;
    size_t keep = 0;
    for (size_t i = 0; i < n; i++)
        keep += !str_in(sources, n_sources, rows[i].source);
    if (keep < n) {
        rc = kb_delete_offers(k, provider, err);
        for (size_t i = 0; rc == GW_OK && i < n; i++) {
            if (str_in(sources, n_sources, rows[i].source))
                res->replaced++;
            else
                rc = kb_add_price(k, &rows[i], err);
        }
    }
    kb_prices_free(rows, n);
    return rc;
}

int records_store_offers(kb *k, const char *plugin_name, const char *source_id,
                         const view *offers, int dry_run, gw_buf *warnings, records_result *res,
                         gw_error *err)
{
    int rc = check_list(offers, plugin_name, "offers", err);
    if (rc != GW_OK)
        return rc;
    size_t n = view_len(offers);
    char today[11];
    records_today(today);
    kb_price *prices = gw_xcalloc(n ? n : 1, sizeof *prices);
    char *ok = gw_xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) {
        rec_ctx c = {k, plugin_name, "offers", i + 1, warnings, 0, NULL, NULL, 0};
        read_offer(&c, view_list_at(offers, i), source_id, today, &prices[i]);
        ok[i] = !c.bad;
        if (c.bad)
            res->skipped++;
    }
    /* the providers and sources being refreshed */
    char **providers = gw_xcalloc(n + 1, sizeof *providers);
    char **sources = gw_xcalloc(n + 2, sizeof *sources);
    size_t np = 0, ns = 0;
    if (source_id)
        sources[ns++] = (char *)source_id;
    for (size_t i = 0; i < n; i++) {
        if (!ok[i])
            continue;
        if (!str_in(providers, np, prices[i].provider))
            providers[np++] = prices[i].provider;
        if (!str_in(sources, ns, prices[i].source))
            sources[ns++] = prices[i].source;
    }
    for (size_t i = 0; rc == GW_OK && !dry_run && i < np; i++)
        rc = replace_provider(k, providers[i], sources, ns, res, err);
    for (size_t i = 0; rc == GW_OK && i < n; i++) {
        if (!ok[i])
            continue;
        rec_ctx c = {k, plugin_name, "offers", i + 1, warnings, 0, NULL, NULL, 0};
        gw_error e = {0};
        if (!dry_run)
            rc = kb_result(&c, kb_add_price(k, &prices[i], &e), &e, err);
        if (c.bad)
            res->skipped++;
        else if (rc == GW_OK) {
            res->stored++;
            res->per_table[T_PRICES]++;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(prices[i].gpu);
    free(prices);
    free(ok);
    free(providers);
    free(sources);
    if (rc != GW_OK)
        gw_error_prefix(err, "%s", plugin_name);
    return rc;
}

/* ---- importer records ---- */

static const char *const gpu_fields[] = {
    "kind", "id", "name", "vendor", "architecture", "form_factor", "memory_gb", "memory_type",
    "memory_bandwidth_gbs", "tdp_w", "fp32_tflops", "tf32_tflops", "fp16_tflops", "bf16_tflops",
    "fp8_tflops", "int8_tops", "sparsity", "pcie_gen", "pcie_lanes", "nvlink_gbs",
    "mig_instances", "ecc", "release_date", "launch_price_usd", "source", "note", "aliases",
    NULL};

static const char *const benchmark_fields[] = {
    "kind", "gpu", "gpu_count", "workload", "metric", "value", "unit", "precision", "batch",
    "framework", "interconnect", "power_w", "source", "note", NULL};

static const char *const price_fields[] = {
    "kind", "gpu", "price_kind", "amount", "currency", "unit", "gpu_count", "region", "provider",
    "instance", "spot", "as_of", "source", "note", NULL};

static int store_gpu(rec_ctx *c, const view *r, const char *source_id, int dry_run,
                     records_result *res, gw_error *err)
{
    check_fields(c, r, gpu_fields);
    kb_gpu g;
    kb_gpu_init(&g);
    g.id = (char *)get_str(c, r, "id", 1);
    g.name = (char *)get_str(c, r, "name", 1);
    g.vendor = (char *)get_str(c, r, "vendor", 0);
    g.architecture = (char *)get_str(c, r, "architecture", 0);
    g.form_factor = (char *)get_str(c, r, "form_factor", 0);
    g.memory_type = (char *)get_str(c, r, "memory_type", 0);
    g.sparsity = (char *)get_str(c, r, "sparsity", 0);
    g.release_date = (char *)get_date(c, r, "release_date", 0);
    g.note = (char *)get_str(c, r, "note", 0);
    g.source = (char *)get_source(c, r, source_id);
    struct {
        const char *key;
        double *slot;
    } nums[] = {
        {"memory_gb", &g.memory_gb},
        {"memory_bandwidth_gbs", &g.memory_bandwidth_gbs},
        {"tdp_w", &g.tdp_w},
        {"fp32_tflops", &g.fp32_tflops},
        {"tf32_tflops", &g.tf32_tflops},
        {"fp16_tflops", &g.fp16_tflops},
        {"bf16_tflops", &g.bf16_tflops},
        {"fp8_tflops", &g.fp8_tflops},
        {"int8_tops", &g.int8_tops},
        {"pcie_gen", &g.pcie_gen},
        {"pcie_lanes", &g.pcie_lanes},
        {"nvlink_gbs", &g.nvlink_gbs},
        {"mig_instances", &g.mig_instances},
        {"ecc", &g.ecc},
        {"launch_price_usd", &g.launch_price_usd},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        *nums[i].slot = get_num(c, r, nums[i].key, 0, 0);
    view *aliases = view_map_get(r, "aliases");
    if (!view_is_null(aliases) && view_kind(aliases) != VIEW_LIST)
        warn(c, "aliases", "expected a list of names, got %s", type_name(aliases));
    for (size_t i = 0; i < view_len(aliases); i++)
        if (view_kind(view_list_at(aliases, i)) != VIEW_STRING)
            warn(c, "aliases", "expected a list of names");
    if (c->bad)
        return GW_OK;
    /* A GPU the KB already has keeps its curated row: importers add GPUs, never overwrite. */
    kb_gpu existing;
    kb_gpu_init(&existing);
    gw_error e = {0};
    if (kb_gpu_get(c->k, g.id, &existing, &e) == GW_OK) {
        kb_gpu_free(&existing);
        res->unchanged++;
        return GW_OK;
    }
    if (c->batch_gpus) {
        *c->batch_gpus = gw_xrealloc(*c->batch_gpus, (*c->n_batch_gpus + 1) * sizeof(char *));
        (*c->batch_gpus)[(*c->n_batch_gpus)++] = gw_xstrdup(g.id);
    }
    if (dry_run) {
        res->stored++;
        res->per_table[T_GPUS]++;
        return GW_OK;
    }
    int rc = kb_result(c, kb_put_gpu(c->k, &g, &e), &e, err);
    if (rc != GW_OK || c->bad)
        return rc;
    res->stored++;
    res->per_table[T_GPUS]++;
    for (size_t i = 0; i < view_len(aliases); i++) {
        rc = kb_result(c, kb_add_alias(c->k, g.id, view_str(view_list_at(aliases, i)), &e), &e,
                       err);
        if (rc != GW_OK)
            return rc;
        res->per_table[T_ALIASES]++;
    }
    return GW_OK;
}

static int store_benchmark(rec_ctx *c, const view *r, const char *source_id, int dry_run,
                           records_result *res, gw_error *err)
{
    check_fields(c, r, benchmark_fields);
    kb_benchmark b = {0};
    int name_count = 1;
    b.gpu = get_gpu(c, r, "gpu", &name_count);
    b.gpu_count = get_num(c, r, "gpu_count", 0, 1);
    if (isnan(b.gpu_count))
        b.gpu_count = name_count;
    b.workload = (char *)get_str(c, r, "workload", 1);
    b.metric = (char *)get_str(c, r, "metric", 1);
    b.value = get_num(c, r, "value", 1, 1);
    b.unit = (char *)get_str(c, r, "unit", 1);
    b.precision = (char *)get_str(c, r, "precision", 0);
    b.batch = get_num(c, r, "batch", 0, 1);
    b.framework = (char *)get_str(c, r, "framework", 0);
    b.interconnect = (char *)get_str(c, r, "interconnect", 0);
    b.power_w = get_num(c, r, "power_w", 0, 1);
    b.note = (char *)get_str(c, r, "note", 0);
    b.source = (char *)get_source(c, r, source_id);
    int rc = GW_OK;
    if (!c->bad && !dry_run) {
        gw_error e = {0};
        rc = kb_result(c, kb_add_benchmark(c->k, &b, &e), &e, err);
    }
    if (!c->bad && rc == GW_OK) {
        res->stored++;
        res->per_table[T_BENCHMARKS]++;
    }
    free(b.gpu);
    return rc;
}

static int store_price(rec_ctx *c, const view *r, const char *source_id, int dry_run,
                       records_result *res, gw_error *err)
{
    check_fields(c, r, price_fields);
    kb_price p = {0};
    int name_count = 1;
    p.gpu = get_gpu(c, r, "gpu", &name_count);
    p.kind = (char *)get_str(c, r, "price_kind", 1);
    if (p.kind && strcmp(p.kind, "new") && strcmp(p.kind, "used") && strcmp(p.kind, "cloud"))
        warn(c, "price_kind", "'%s' is not one of: new, used, cloud", p.kind);
    p.amount = get_num(c, r, "amount", 1, 1);
    p.currency = (char *)get_currency(c, r, "currency");
    p.unit = (char *)get_str(c, r, "unit", 0);
    if (!p.unit)
        p.unit = p.kind && !strcmp(p.kind, "cloud") ? "hour" : "card";
    else if (strcmp(p.unit, "card") && strcmp(p.unit, "hour"))
        warn(c, "unit", "'%s' is not one of: card, hour", p.unit);
    p.gpu_count = get_num(c, r, "gpu_count", 0, 1);
    if (isnan(p.gpu_count))
        p.gpu_count = name_count;
    p.region = (char *)get_str(c, r, "region", 0);
    p.provider = (char *)get_str(c, r, "provider", 0);
    p.instance = (char *)get_str(c, r, "instance", 0);
    p.spot = get_flag(c, r, "spot");
    p.as_of = (char *)get_date(c, r, "as_of", 0);
    p.note = (char *)get_str(c, r, "note", 0);
    p.source = (char *)get_source(c, r, source_id);
    int rc = GW_OK;
    if (!c->bad && !dry_run) {
        gw_error e = {0};
        rc = kb_result(c, kb_add_price(c->k, &p, &e), &e, err);
    }
    if (!c->bad && rc == GW_OK) {
        res->stored++;
        res->per_table[T_PRICES]++;
    }
    free(p.gpu);
    return rc;
}

/* first_index: how many records earlier batches of the same input held, so that warnings
 * count records across the whole input. */
static int store_imported(kb *k, const char *plugin_name, const char *source_id,
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
                         &n_batch, view_kind(line) == VIEW_NUMBER ? (long)view_num(line) : 0};
            const char *kind = view_str(view_map_get(r, "kind"));
            int is_gpu = kind && !strcmp(kind, "gpu");
            if ((pass == 0) != is_gpu)
                continue;
            if (view_kind(r) != VIEW_MAP) {
                warn(&c, NULL, "expected a table, got %s", type_name(r));
            } else if (!kind) {
                warn(&c, "kind", "expected \"gpu\", \"benchmark\" or \"price\"");
            } else if (is_gpu) {
                rc = store_gpu(&c, r, source_id, dry_run, res, err);
            } else if (!strcmp(kind, "benchmark")) {
                rc = store_benchmark(&c, r, source_id, dry_run, res, err);
            } else if (!strcmp(kind, "price")) {
                rc = store_price(&c, r, source_id, dry_run, res, err);
            } else {
                warn(&c, "kind", "'%s' is not one of: gpu, benchmark, price", kind);
            }
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
    return store_imported(k, plugin_name, source_id, records, 0, dry_run, warnings, res, err);
}

/* ---- kb import --with ---- */

/* One `kb import --with` run: what the importer's calls share. */
typedef struct import_run {
    gw_ctx *ctx;
    kb *k;
    plugin *p;
    const char *importer, *path;
    char *source_id;       /* made on the first call that succeeds */
    size_t n_records;      /* returned by earlier calls, so warnings count across the file */
    gw_buf warnings;
    records_result res;
} import_run;

/* Runs the importer on text (the whole file, or the header plus a batch of records whose first
 * is on file line first_line; 0 = whole file) and stores what it returns; the views of the
 * call are freed before the next. */
static int import_piece(import_run *r, const char *text, size_t len, long first_line,
                        gw_error *err)
{
    const char *base = strrchr(r->path, '/');
    view *args[2] = {view_map(), view_stringn(text, len)};
    view *records = NULL;
    view_map_set_str(args[0], "input_name", base ? base + 1 : r->path);
    if (first_line > 0)
        view_map_set_int(args[0], "first_line", first_line);
    int rc = plugin_call(r->p, "import", args, 2, &records, err);
    if (rc == GW_OK && !r->source_id) {
        r->source_id = records_plugin_source(r->k, 1, r->p, r->path, err);
        if (!r->source_id)
            rc = err->code;
    }
    if (rc == GW_OK) {
        rc = store_imported(r->k, r->importer, r->source_id, records, r->n_records, 0,
                            &r->warnings, &r->res, err);
        r->n_records += view_len(records);
    }
    view_free(records);
    view_free(args[0]);
    view_free(args[1]);
    return rc;
}

/* Where the CSV record starting at text[pos] ends (just past its newline, or len); adds the
 * newlines it spans to *lines.  A newline inside a quoted field does not end it (RFC 4180: a
 * doubled quote inside a quoted field toggles twice, so it leaves the state as it was). */
static size_t csv_record_end(const char *text, size_t len, size_t pos, long *lines)
{
    int quoted = 0;
    for (; pos < len; pos++) {
        if (text[pos] == '"') {
            quoted = !quoted;
        } else if (text[pos] == '\n') {
            ++*lines;
            if (!quoted)
                return pos + 1;
        }
    }
    return len;
}

/* An importer with batch_rows: the header line plus at most batch_rows records per call, so
 * no single call has to hold the whole file's records (the plugin's memory and item caps). */
static int import_batches(import_run *r, const char *text, size_t len, long batch_rows,
                          gw_error *err)
{
    long lines = 0;   /* newlines before pos */
    size_t header_end = csv_record_end(text, len, 0, &lines), pos = header_end;
    gw_buf piece = GW_BUF_INIT;
    int rc;
    do {   /* once even with no records, so a header-only file still reaches the importer */
        long first_line = lines + 1;
        size_t end = pos;
        for (long n = 0; n < batch_rows && end < len; n++)
            end = csv_record_end(text, len, end, &lines);
        buf_reset(&piece);
        buf_append(&piece, text, header_end);
        buf_append(&piece, text + pos, end - pos);
        rc = import_piece(r, buf_cstr(&piece), piece.len, first_line, err);
        pos = end;
        if (r->ctx->progress)
            fprintf(r->ctx->diag, "\r%s: %s: %zu records stored (%d%%)...", r->importer,
                    r->path, r->res.stored, len ? (int)(100.0 * (double)pos / (double)len) : 100);
    } while (rc == GW_OK && pos < len);
    buf_free(&piece);
    return rc;
}

int plugin_import_file(gw_ctx *ctx, kb *k, const char *importer, const char *path,
                       kb_import_counts *counts, gw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int e = gw_read_file(path, &text, &len);
    if (e)
        return gw_error_set(err, GW_ENOINPUT, "%s: %s", path, strerror(e));
    plugin_host *host = NULL;
    import_run r = {ctx, k, NULL, importer, path, NULL, 0, GW_BUF_INIT, {0}};
    plugin_info info = {0};
    int rc = records_host_open(ctx, k, &host, err);
    plugin *p = rc == GW_OK ? plugin_find_kind(host, importer, "importer") : NULL;
    if (rc == GW_OK && !p)
        p = plugin_find(host, importer);
    if (rc == GW_OK && !p) {
        rc = gw_error_set(err, GW_ENOTFOUND, "no importer plugin '%s' (see gpuwise plugin list)",
                          importer);
    } else if (rc == GW_OK) {
        plugin_get_info(p, &info);
        if (strcmp(info.kind, "importer") != 0)
            rc = gw_error_set(err, GW_EUSAGE, "'%s' is a %s plugin, not an importer", importer,
                              info.kind);
    }
    r.p = p;
    if (rc == GW_OK && info.batch_rows > 0) {
        rc = import_batches(&r, text, len, info.batch_rows, err);
    } else if (rc == GW_OK) {
        if (ctx->progress)
            fprintf(ctx->diag, "\r%s: converting %s (%zu bytes)...", importer, path, len);
        rc = import_piece(&r, text, len, 0, err);
    }
    if (ctx->progress && p)
        fputs("\r\033[K", ctx->diag);
    if (rc == GW_OK && ctx->progress)
        fprintf(ctx->diag, "\r%s: stored %zu records\033[K\n", importer, r.res.stored);
    if (p) {
        view *log = plugin_take_log(p);
        for (size_t i = 0; i < view_len(log); i++)
            fprintf(ctx->diag, "%s: log: %s\n", importer, view_str(view_list_at(log, i)));
        view_free(log);
    }
    fputs(buf_cstr(&r.warnings), ctx->diag);
    if (rc == GW_OK && r.res.skipped)   /* the caller rolls back: nothing half-imported */
        rc = gw_error_set(err, GW_EDATA, "%s: %zu bad record%s (see the lines above)", importer,
                          r.res.skipped, r.res.skipped == 1 ? "" : "s");
    if (rc == GW_OK && counts) {
        counts->added[T_SOURCES]++;
        for (int t = 0; t < KB_TABLES; t++)
            counts->added[t] += r.res.per_table[t];
        counts->unchanged[T_GPUS] += r.res.unchanged;
    }
    buf_free(&r.warnings);
    free(r.source_id);
    plugin_host_free(host);
    free(text);
    return rc;
}
