/* kb_table.c — each KB table described once: its columns' names, types, rules, units, labels
 * and text forms, and where the row structs keep them (for the assumption table also the ids it
 * may hold, with each one's unit and range).  From that description: the row structs' init and
 * release, the checks every write makes (CSV rows, struct writes and plugin records alike),
 * storing a row, and the comparison of the description with the SQL schema. */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "base/check.h"
#include "kb.h"
#include "kb_csv.h"
#include "kb_private.h"
#include "base/units.h"

/* ---- tables: one description drives validation, storage, reads, import and export -------- */

static const char *const source_kinds[] = {"datasheet", "whitepaper", "article", "benchmark",
                                           "price-list", "dataset", "plugin", "user", NULL};
static const char *const sparsity_set[] = {"2:4", NULL};
/* A part's scale-up link between its GPUs: NVIDIA's NVLink, AMD's Infinity Fabric, the RoCE
 * (RDMA over Converged Ethernet) ports built into Intel Gaudi, or none. */
static const char *const link_kinds[] = {"nvlink", "infinity-fabric", "roce", "none", NULL};
static const char *const precision_set[] = {"fp32", "fp16", "amp", "bf16", "tf32", "fp8",
                                            "int8", "fp64", "int4", NULL};
static const char *const interconnect_set[] = {"pcie", "nvlink", "infiniband", "ethernet",
                                               NULL};
static const char *const price_kinds[] = {"new", "used", "cloud", NULL};
static const char *const price_units[] = {"card", "hour", NULL};
/* list: the provider's own price list or API; quote: a reseller's quote; anecdote: an article
 * or a blog post (the decision never recommends such an offer unless the workload allows). */
static const char *const price_quality[] = {"list", "quote", "anecdote", NULL};
static const char *const claim_status[] = {"wrong", "disputed", NULL};

/* A column without unit, label or text form; S: the struct field that keeps it. */
#define S(type, f) ((ptrdiff_t)offsetof(type, f))
#define COL(name, type, flags, set, off) {name, type, flags, set, "", NULL, KB_FORM_PLAIN, off}
/* A column with a datasheet row: its unit, label and text form. */
#define ROW(name, type, flags, set, unit, label, form, off) \
    {name, type, flags, set, unit, label, form, off}
static const kb_column source_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_source, id)),
    COL("title", KB_TEXT, KB_REQUIRED, NULL, S(kb_source, title)),
    COL("publisher", KB_TEXT, 0, NULL, S(kb_source, publisher)),
    COL("url", KB_TEXT, 0, NULL, S(kb_source, url)),
    COL("retrieved", KB_TEXT, KB_DATE, NULL, S(kb_source, retrieved)),
    COL("kind", KB_TEXT, 0, source_kinds, S(kb_source, kind)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_source, note)),
};
/* Tensor figures are dense: a GPU with 2:4 sparsity does twice as much on sparse weights. */
static const kb_column gpu_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_gpu, id)),
    COL("name", KB_TEXT, KB_REQUIRED, NULL, S(kb_gpu, name)),
    ROW("vendor", KB_TEXT, KB_REQUIRED, NULL, "", "Vendor", KB_FORM_PLAIN, S(kb_gpu, vendor)),
    ROW("architecture", KB_TEXT, 0, NULL, "", "Architecture", KB_FORM_PLAIN,
        S(kb_gpu, architecture)),
    ROW("form_factor", KB_TEXT, 0, NULL, "", "Form factor", KB_FORM_PLAIN,
        S(kb_gpu, form_factor)),
    ROW("memory_gb", KB_NUMBER, KB_POSITIVE, NULL, "GB", "Memory", KB_FORM_MEMORY,
        S(kb_gpu, memory_gb)),
    COL("memory_type", KB_TEXT, 0, NULL, S(kb_gpu, memory_type)),
    ROW("memory_bandwidth_gbs", KB_NUMBER, KB_POSITIVE, NULL, "GB/s", "Memory bandwidth",
        KB_FORM_PLAIN, S(kb_gpu, memory_bandwidth_gbs)),
    ROW("tdp_w", KB_NUMBER, KB_POSITIVE | KB_LOWER_BETTER, NULL, "W", "TDP", KB_FORM_PLAIN,
        S(kb_gpu, tdp_w)),
    ROW("fp32_tflops", KB_NUMBER, 0, NULL, "TFLOPS", "FP32", KB_FORM_PLAIN,
        S(kb_gpu, fp32_tflops)),
    ROW("tf32_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "TF32 tensor", KB_FORM_DENSE,
        S(kb_gpu, tf32_tflops)),
    ROW("fp16_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "FP16 tensor", KB_FORM_DENSE,
        S(kb_gpu, fp16_tflops)),
    ROW("bf16_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "BF16 tensor", KB_FORM_DENSE,
        S(kb_gpu, bf16_tflops)),
    ROW("fp8_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "FP8 tensor", KB_FORM_DENSE,
        S(kb_gpu, fp8_tflops)),
    ROW("int8_tops", KB_NUMBER, 0, NULL, "TOPS dense", "INT8 tensor", KB_FORM_DENSE,
        S(kb_gpu, int8_tops)),
    ROW("sparsity", KB_TEXT, 0, sparsity_set, "", "Sparsity", KB_FORM_SPARSITY,
        S(kb_gpu, sparsity)),
    ROW("pcie_gen", KB_NUMBER, 0, NULL, "", "PCIe generation", KB_FORM_PCIE,
        S(kb_gpu, pcie_gen)),
    COL("pcie_lanes", KB_NUMBER, 0, NULL, S(kb_gpu, pcie_lanes)),
    /* The scale-up link's bandwidth, both directions together, of the kind link_kind names
     * (the name is from before schema version 6, when only NVLink was recorded). */
    ROW("nvlink_gbs", KB_NUMBER, 0, NULL, "GB/s", "GPU link bandwidth", KB_FORM_NONE_IF_ZERO,
        S(kb_gpu, nvlink_gbs)),
    ROW("mig_instances", KB_NUMBER, 0, NULL, "", "MIG instances", KB_FORM_NONE_IF_ZERO,
        S(kb_gpu, mig_instances)),
    ROW("ecc", KB_FLAG, 0, NULL, "", "ECC memory", KB_FORM_YES_NO, S(kb_gpu, ecc)),
    ROW("release_date", KB_TEXT, KB_DATE, NULL, "", "Released", KB_FORM_PLAIN,
        S(kb_gpu, release_date)),
    ROW("launch_price_usd", KB_NUMBER, KB_LOWER_BETTER, NULL, "USD", "Launch price",
        KB_FORM_MONEY, S(kb_gpu, launch_price_usd)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_gpu, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_gpu, note)),
    /* Added by schema version 6, so after the note (ALTER TABLE appends). */
    ROW("fp4_tflops", KB_NUMBER, 0, NULL, "TFLOPS dense", "FP4 tensor", KB_FORM_DENSE,
        S(kb_gpu, fp4_tflops)),
    ROW("link_kind", KB_TEXT, 0, link_kinds, "", "GPU link", KB_FORM_PLAIN,
        S(kb_gpu, link_kind)),
    ROW("restriction", KB_TEXT, 0, NULL, "", "Export rules", KB_FORM_PLAIN,
        S(kb_gpu, restriction)),
};
static const kb_column alias_cols[] = {
    COL("gpu", KB_TEXT, KB_REQUIRED | KB_KEY | KB_NAMES_GPU, NULL, -1),
    COL("alias", KB_TEXT, KB_REQUIRED | KB_KEY, NULL, -1),
};
static const kb_column rate_cols[] = {
    COL("currency", KB_TEXT, KB_REQUIRED | KB_KEY | KB_CURRENCY, NULL, S(kb_rate, currency)),
    COL("per_usd", KB_NUMBER, KB_REQUIRED | KB_POSITIVE, NULL, S(kb_rate, per_usd)),
    COL("as_of", KB_TEXT, KB_REQUIRED | KB_KEY | KB_DATE, NULL, S(kb_rate, as_of)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_rate, source)),
};
static const kb_column benchmark_cols[] = {
    COL("gpu", KB_TEXT, KB_REQUIRED | KB_NAMES_GPU, NULL, S(kb_benchmark, gpu)),
    COL("gpu_count", KB_NUMBER, KB_POSITIVE | KB_DEFAULT_ONE, NULL, S(kb_benchmark, gpu_count)),
    COL("workload", KB_TEXT, KB_REQUIRED, NULL, S(kb_benchmark, workload)),
    COL("metric", KB_TEXT, KB_REQUIRED, NULL, S(kb_benchmark, metric)),
    COL("value", KB_NUMBER, KB_REQUIRED | KB_POSITIVE, NULL, S(kb_benchmark, value)),
    COL("unit", KB_TEXT, KB_REQUIRED, NULL, S(kb_benchmark, unit)),
    COL("precision", KB_TEXT, 0, precision_set, S(kb_benchmark, precision)),
    COL("batch", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, batch)),
    COL("framework", KB_TEXT, 0, NULL, S(kb_benchmark, framework)),
    COL("interconnect", KB_TEXT, 0, interconnect_set, S(kb_benchmark, interconnect)),
    COL("power_w", KB_NUMBER, KB_POSITIVE, NULL, S(kb_benchmark, power_w)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_benchmark, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_benchmark, note)),
};
static const kb_column price_cols[] = {
    COL("gpu", KB_TEXT, KB_REQUIRED | KB_NAMES_GPU, NULL, S(kb_price, gpu)),
    COL("kind", KB_TEXT, KB_REQUIRED, price_kinds, S(kb_price, kind)),
    COL("amount", KB_NUMBER, KB_REQUIRED | KB_POSITIVE, NULL, S(kb_price, amount)),
    COL("currency", KB_TEXT, KB_REQUIRED | KB_CURRENCY, NULL, S(kb_price, currency)),
    COL("unit", KB_TEXT, KB_REQUIRED, price_units, S(kb_price, unit)),
    COL("gpu_count", KB_NUMBER, KB_POSITIVE | KB_DEFAULT_ONE, NULL, S(kb_price, gpu_count)),
    COL("region", KB_TEXT, 0, NULL, S(kb_price, region)),
    COL("provider", KB_TEXT, 0, NULL, S(kb_price, provider)),
    COL("instance", KB_TEXT, 0, NULL, S(kb_price, instance)),
    COL("spot", KB_FLAG, KB_DEFAULT_ZERO | KB_INT, NULL, S(kb_price, spot)),
    COL("as_of", KB_TEXT, KB_REQUIRED | KB_DATE, NULL, S(kb_price, as_of)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_price, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_price, note)),
    /* Added by schema version 4, so after the note (ALTER TABLE appends). */
    COL("quality", KB_TEXT, 0, price_quality, S(kb_price, quality)),
    COL("gpu_fraction", KB_NUMBER, KB_POSITIVE | KB_DEFAULT_ONE, NULL, S(kb_price, gpu_fraction)),
    COL("min_billing_hours", KB_NUMBER, 0, NULL, S(kb_price, min_billing_hours)),
    /* Added by schema version 5. */
    COL("system", KB_TEXT, KB_NAMES_SYSTEM, NULL, S(kb_price, system)),
    COL("network_gbps", KB_NUMBER, KB_POSITIVE, NULL, S(kb_price, network_gbps)),
};
/* A machine an SXM or OAM module is sold in: its power is the whole machine's (cards, host,
 * fans) at most, its network all its ports to other machines together. */
static const kb_column system_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_system, id)),
    COL("name", KB_TEXT, KB_REQUIRED, NULL, S(kb_system, name)),
    COL("gpu", KB_TEXT, KB_REQUIRED | KB_NAMES_GPU, NULL, S(kb_system, gpu)),
    COL("gpu_count", KB_NUMBER, KB_REQUIRED | KB_POSITIVE, NULL,
        S(kb_system, gpu_count)),
    COL("power_w", KB_NUMBER, KB_POSITIVE, NULL, S(kb_system, power_w)),
    COL("network_gbps", KB_NUMBER, KB_POSITIVE, NULL, S(kb_system, network_gbps)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_system, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_system, note)),
};
static const kb_column claim_cols[] = {
    COL("subject", KB_TEXT, KB_REQUIRED, NULL, S(kb_claim, subject)),
    COL("claim", KB_TEXT, KB_REQUIRED, NULL, S(kb_claim, claim)),
    COL("status", KB_TEXT, KB_REQUIRED, claim_status, S(kb_claim, status)),
    COL("correction", KB_TEXT, 0, NULL, S(kb_claim, correction)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_claim, source)),
    COL("correction_source", KB_TEXT, KB_CITES | KB_META, NULL,
        S(kb_claim, correction_source)),
};
static const kb_column assumption_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_assumption, id)),
    COL("value", KB_NUMBER, KB_REQUIRED, NULL, S(kb_assumption, value)),
    COL("unit", KB_TEXT, KB_REQUIRED, NULL, S(kb_assumption, unit)),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_assumption, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_assumption, note)),
};
/* The model catalog's architecture facts (kb.h's kb_model says what each means). */
#define MODEL_NUMBER(name, flags) COL(#name, KB_NUMBER, flags, NULL, S(kb_model, name))
static const kb_column model_cols[] = {
    COL("id", KB_TEXT, KB_REQUIRED | KB_KEY | KB_ID, NULL, S(kb_model, id)),
    COL("name", KB_TEXT, KB_REQUIRED, NULL, S(kb_model, name)),
    COL("family", KB_TEXT, 0, NULL, S(kb_model, family)),
    MODEL_NUMBER(params, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(active_params, KB_POSITIVE),
    MODEL_NUMBER(layers, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(hidden, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(heads, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(kv_heads, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(head_dim, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(ffn, KB_POSITIVE),
    MODEL_NUMBER(vocab, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(context, KB_REQUIRED | KB_POSITIVE),
    MODEL_NUMBER(experts, KB_POSITIVE),
    MODEL_NUMBER(experts_active, KB_POSITIVE),
    COL("source", KB_TEXT, KB_REQUIRED | KB_CITES | KB_META, NULL, S(kb_model, source)),
    COL("note", KB_TEXT, KB_META, NULL, S(kb_model, note)),
};
#undef MODEL_NUMBER
#undef ROW
#undef COL
#undef S

/* The rows the assumption table may hold, each id described once: the unit its value is written
 * in (NULL: money, in any currency code, which the decision converts through the rates) and the
 * range that makes sense.  The three that stand in for workload fields take the range of that
 * field (workload.c); an all-reduce rate above the link's 32 GB/s each way, or a throttled build
 * keeping less than a tenth of its speed, would be a typo. */
static const struct {
    const char *id, *unit;
    double lo, hi;
    const char *range;   /* as messages put it */
} assumed[KB_ASSUMED_COUNT] = {
    [KB_ASSUMED_HOST_COST] = {"host_cost", NULL, 0, 1e12, "an amount from 0"},
    [KB_ASSUMED_HOST_POWER] = {"host_power_w", "W", 0, 1e5, "from 0 to 100000 W"},
    [KB_ASSUMED_RESALE] = {"resale_fraction", "fraction", 0, 1, "a fraction from 0 to 1"},
    [KB_ASSUMED_HOST_NETWORK] = {"host_network_gbps", "Gb/s", 0.1, 3200,
                                 "from 0.1 to 3200 Gb/s"},
    [KB_ASSUMED_POOR_COOLING] = {"poor_cooling_factor", "fraction", 0.1, 1,
                                 "a fraction from 0.1 to 1"},
    [KB_ASSUMED_LLM_MFU] = {"llm_mfu", "fraction", 0.01, 1, "a fraction from 0.01 to 1"},
    [KB_ASSUMED_DECODE_BANDWIDTH] = {"decode_bandwidth_fraction", "fraction", 0.01, 1,
                                     "a fraction from 0.01 to 1"},
};

const char *kb_assumed_id(kb_assumed which)
{
    return (int)which >= 0 && which < KB_ASSUMED_COUNT ? assumed[which].id : NULL;
}

/* With the validation below. */
static int assumption_rule(const kb_value *row, gw_error *err);
static int price_rule(const kb_value *row, gw_error *err);
static int model_rule(const kb_value *row, gw_error *err);

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))
const kb_table kb_tables[KB_TABLES] = {
    {"sources.csv", "source", "sources", source_cols, NCOLS(source_cols), NULL},
    {"gpus.csv", "gpu", "gpus", gpu_cols, NCOLS(gpu_cols), NULL},
    {"aliases.csv", "gpu_alias", "aliases", alias_cols, NCOLS(alias_cols), NULL},
    {"rates.csv", "rate", "rates", rate_cols, NCOLS(rate_cols), NULL},
    {"systems.csv", "system", "systems", system_cols, NCOLS(system_cols), NULL},
    {"benchmarks.csv", "benchmark", "benchmarks", benchmark_cols, NCOLS(benchmark_cols), NULL},
    {"prices.csv", "price", "prices", price_cols, NCOLS(price_cols), price_rule},
    {"claims.csv", "claim", "claims", claim_cols, NCOLS(claim_cols), NULL},
    {"assumptions.csv", "assumption", "assumptions", assumption_cols, NCOLS(assumption_cols),
     assumption_rule},
    {"models.csv", "model", "models", model_cols, NCOLS(model_cols), model_rule},
};
const kb_column *kb_table_columns(int table, size_t *n)
{
    if (table < 0 || table >= KB_TABLES) {
        *n = 0;
        return NULL;
    }
    *n = (size_t)kb_tables[table].ncols;
    return kb_tables[table].cols;
}

const kb_column *kb_table_column(int table, const char *name)
{
    size_t n;
    const kb_column *cols = kb_table_columns(table, &n);
    for (size_t i = 0; name && i < n; i++)
        if (strcmp(cols[i].name, name) == 0)
            return &cols[i];
    return NULL;
}

const char *kb_table_name(int table)
{
    return table >= 0 && table < KB_TABLES ? kb_tables[table].what : NULL;
}

/* ---- row structs: read and written through the columns' offsets -------------------------- */

static void *field_at(const kb_column *c, void *row)
{
    return (char *)row + c->offset;
}

const char *kb_column_text(const kb_column *c, const void *row)
{
    if (c->offset < 0 || c->type != KB_TEXT)
        return NULL;
    return *(char *const *)field_at(c, (void *)row);
}

double kb_column_number(const kb_column *c, const void *row)
{
    if (c->offset < 0 || c->type == KB_TEXT)
        return NAN;
    if (c->flags & KB_INT)
        return *(const int *)field_at(c, (void *)row);
    return *(const double *)field_at(c, (void *)row);
}

static void column_set_number(const kb_column *c, void *row, double d)
{
    if (c->flags & KB_INT)
        *(int *)field_at(c, row) = isnan(d) ? 0 : (int)d;
    else
        *(double *)field_at(c, row) = d;
}

void kb_values_clear(kb_value *row, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        row[i].text = NULL;
        row[i].number = NAN;
    }
}

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

/* Fills obj's fields from columns first.. of a row (columns in table order). */
void kb_row_from_sql(const kb_table *t, sqlite3_stmt *st, int first, void *obj)
{
    for (int i = 0; i < t->ncols; i++) {
        const kb_column *c = &t->cols[i];
        if (c->offset < 0)
            continue;
        if (c->type == KB_TEXT)
            *(char **)field_at(c, obj) = kb_sql_text(st, first + i);
        else
            column_set_number(c, obj, kb_sql_number(st, first + i));
    }
}

/* Frees what struct_from_row copied into obj. */
void kb_row_free_strings(const kb_table *t, void *obj)
{
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].offset >= 0 && t->cols[i].type == KB_TEXT)
            free(*(char **)field_at(&t->cols[i], obj));
}

/* Every string NULL, every number NaN (an int flag 0). */
static void struct_init(const kb_table *t, void *obj, size_t size)
{
    memset(obj, 0, size);
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].offset >= 0 && t->cols[i].type != KB_TEXT)
            column_set_number(&t->cols[i], obj, NAN);
}

/* ---- struct release: the table descriptions name every string a row struct owns ---------- */

/* A row struct's free: its strings by the table's description, then every field zeroed.  The
 * list form frees n of them and the array. */
#define ROW_FREE(name, type, table)                                                            \
    void name(type *row)                                                                        \
    {                                                                                          \
        if (!row)                                                                              \
            return;                                                                            \
        kb_row_free_strings(&kb_tables[table], row);                                           \
        memset(row, 0, sizeof *row);                                                           \
    }
#define ROWS_FREE(name, type, one)                                                             \
    void name(type *rows, size_t n)                                                            \
    {                                                                                          \
        for (size_t i = 0; i < n; i++)                                                         \
            one(&rows[i]);                                                                     \
        free(rows);                                                                            \
    }

ROW_FREE(kb_source_free, kb_source, KB_SOURCES)
ROW_FREE(kb_benchmark_free, kb_benchmark, KB_BENCHMARKS)
ROW_FREE(kb_price_free, kb_price, KB_PRICES)
ROW_FREE(kb_rate_free, kb_rate, KB_RATES)
ROW_FREE(kb_claim_free, kb_claim, KB_CLAIMS)
ROW_FREE(kb_assumption_free, kb_assumption, KB_ASSUMPTIONS)
ROW_FREE(kb_system_free, kb_system, KB_SYSTEMS)
ROW_FREE(kb_model_free, kb_model, KB_MODELS)

void kb_gpu_init(kb_gpu *g)
{
    struct_init(&kb_tables[KB_GPUS], g, sizeof *g);
}

/* A GPU's numbers are NaN when unknown, not 0: it is freed back to kb_gpu_init's state. */
void kb_gpu_free(kb_gpu *g)
{
    if (!g)
        return;
    kb_row_free_strings(&kb_tables[KB_GPUS], g);
    kb_gpu_init(g);
}

ROWS_FREE(kb_gpus_free, kb_gpu, kb_gpu_free)
ROWS_FREE(kb_benchmarks_free, kb_benchmark, kb_benchmark_free)
ROWS_FREE(kb_prices_free, kb_price, kb_price_free)
ROWS_FREE(kb_sources_free, kb_source, kb_source_free)
ROWS_FREE(kb_systems_free, kb_system, kb_system_free)
ROWS_FREE(kb_models_free, kb_model, kb_model_free)
ROWS_FREE(kb_claims_free, kb_claim, kb_claim_free)
#undef ROW_FREE
#undef ROWS_FREE

void kb_sql_column_list(gw_buf *b, const kb_table *t, const char *prefix)
{
    for (int i = 0; i < t->ncols; i++) {
        if (i)
            buf_puts(b, ", ");
        buf_puts(b, prefix);
        buf_puts(b, t->cols[i].name);
    }
}

static int valid_slug(const char *s)
{
    if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || strchr("._-", *s)))
            return 0;
    return 1;
}

static void join_set(char *out, size_t outsz, const char *const *set)
{
    size_t used = 0;
    out[0] = '\0';
    for (; *set && used < outsz; set++) {
        int n = snprintf(out + used, outsz - used, "%s%s", used ? ", " : "", *set);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* ---- validation: one set of rules for CSV rows, struct writes and plugin records ---------- */

kb_problem kb_value_check(const kb_column *c, const kb_value *v)
{
    if (c->type == KB_TEXT) {
        const char *s = v->text;
        if (!s || !*s)
            return c->flags & KB_REQUIRED ? KB_MISSING : KB_FINE;
        size_t n = strlen(s), at;
        if (n > KB_TEXT_MAX)
            return KB_TOO_LONG;
        if (!kb_text_valid(s, n, &at))
            return KB_NOT_TEXT;
        if ((c->flags & KB_ID) && !valid_slug(s))
            return KB_NOT_ID;
        if ((c->flags & KB_DATE) && !gw_valid_date(s))
            return KB_NOT_DATE;
        if ((c->flags & KB_CURRENCY) && !units_is_currency(s))
            return KB_NOT_CURRENCY;
        if (c->allowed && !kb_in_set(s, c->allowed))
            return KB_NOT_ALLOWED;
        return KB_FINE;
    }
    double d = v->number;
    if (isnan(d))
        return c->flags & KB_REQUIRED ? KB_MISSING : KB_FINE;
    if (!isfinite(d))
        return KB_NOT_FINITE;
    if (c->type == KB_FLAG && d != 0 && d != 1)
        return KB_NOT_FLAG;
    if (d < 0)
        return KB_NEGATIVE;
    if ((c->flags & KB_POSITIVE) && d == 0)
        return KB_NOT_POSITIVE;
    return KB_FINE;
}

void kb_problem_text(kb_problem p, const kb_column *c, const kb_value *v, char *out,
                     size_t outsz)
{
    const char *s = v->text ? v->text : "";
    char set[256];
    switch (p) {
    case KB_FINE: snprintf(out, outsz, "fine"); break;
    case KB_MISSING: snprintf(out, outsz, "missing (required)"); break;
    case KB_TOO_LONG: snprintf(out, outsz, "longer than %d bytes", KB_TEXT_MAX); break;
    case KB_NOT_ID:
        snprintf(out, outsz, "'%.80s' is not an id (lower-case letters, digits, '.', '_' and "
                 "'-')", s);
        break;
    case KB_NOT_DATE:
        snprintf(out, outsz, "'%.80s' is not a date (YYYY-MM or YYYY-MM-DD)", s);
        break;
    case KB_NOT_CURRENCY:
        snprintf(out, outsz, "'%.80s' is not a currency code (three upper-case letters, e.g. "
                 "USD)", s);
        break;
    case KB_NOT_ALLOWED:
        join_set(set, sizeof set, c->allowed);
        snprintf(out, outsz, "'%.80s' is not one of: %s", s, set);
        break;
    case KB_NOT_FINITE: snprintf(out, outsz, "not a finite number"); break;
    case KB_NOT_FLAG: snprintf(out, outsz, "must be 0 or 1"); break;
    case KB_NEGATIVE: snprintf(out, outsz, "must not be negative"); break;
    case KB_NOT_POSITIVE: snprintf(out, outsz, "must be greater than 0"); break;
    case KB_NOT_TEXT: {
        size_t at = 0;
        kb_text_valid(s, strlen(s), &at);
        unsigned char b = (unsigned char)s[at];
        if (b < 0x20 || b == 0x7F)
            snprintf(out, outsz, "a control character (U+%04X) at byte %zu; only tab and newline "
                     "may be in a value", b, at + 1);
        else
            snprintf(out, outsz, "not UTF-8 text (byte 0x%02X at byte %zu)", b, at + 1);
        break;
    }
    }
}

/* An assumption row names a figure gpuwise assumes, in that figure's unit, within its range. */
static int assumption_rule(const kb_value *row, gw_error *err)
{
    const char *id = row[0].text, *unit = row[2].text;   /* assumption_cols' order */
    double value = row[1].number;
    const char *ids[KB_ASSUMED_COUNT + 1] = {NULL};
    int which = -1;
    for (int i = 0; i < KB_ASSUMED_COUNT; i++) {
        ids[i] = assumed[i].id;
        if (kb_streq(id, assumed[i].id))
            which = i;
    }
    if (which < 0) {
        const char *near = gw_closest(id, ids);
        char set[256];
        if (near)
            return gw_error_set(err, GW_EDATA, "id: '%.80s' is not a figure gpuwise assumes "
                                "(did you mean %s?)", id, near);
        join_set(set, sizeof set, ids);
        return gw_error_set(err, GW_EDATA, "id: '%.80s' is not a figure gpuwise assumes (one "
                            "of: %s)", id, set);
    }
    const char *want = assumed[which].unit;
    if (want ? !kb_streq(unit, want) : !units_is_currency(unit))
        return gw_error_set(err, GW_EDATA, "unit: %s is written in %s, not '%.80s'", id,
                            want ? want : "a currency code such as CNY or USD (it is money)",
                            unit);
    if (value < assumed[which].lo || value > assumed[which].hi)
        return gw_error_set(err, GW_EDATA, "value: %s must be %s, not %g", id,
                            assumed[which].range, value);
    return GW_OK;
}

/* The value of a table's column, by name, in a row in that table's column order. */
static const kb_value *row_value(const kb_column *cols, int n, const kb_value *row,
                                 const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(cols[i].name, name))
            return &row[i];
    return NULL;   /* not reached: the names below are price_cols' */
}

/* A fraction of a card, a minimum billing and a network to other instances are terms of a
 * rental: a card bought is bought whole, and a slice is at most the whole card.  A system is
 * something bought. */
static int price_rule(const kb_value *row, gw_error *err)
{
#define PRICE(name) row_value(price_cols, NCOLS(price_cols), row, name)
    const char *kind = PRICE("kind")->text;
    double fraction = PRICE("gpu_fraction")->number;
    double min_hours = PRICE("min_billing_hours")->number;
    const char *system = PRICE("system")->text;
    double network = PRICE("network_gbps")->number;
#undef PRICE
    int cloud = kb_streq(kind, "cloud");
    if (fraction > 1)
        return gw_error_set(err, GW_EDATA, "gpu_fraction: at most 1 (a whole card), not %g",
                            fraction);
    if (fraction < 1 && !cloud)
        return gw_error_set(err, GW_EDATA, "gpu_fraction: only a cloud offer rents part of a "
                            "card; a %s card is bought whole", kind ? kind : "?");
    if (!isnan(min_hours) && !cloud)
        return gw_error_set(err, GW_EDATA, "min_billing_hours: only for a cloud offer");
    if (!isnan(network) && !cloud)
        return gw_error_set(err, GW_EDATA, "network_gbps: only for a cloud offer (a system's "
                            "network is in the system table)");
    if (system && system[0] && cloud)
        return gw_error_set(err, GW_EDATA, "system: only a purchase (new or used) buys a "
                            "system; a cloud offer names its instance");
    return GW_OK;
}

/* A model's figures that bound each other: the schema's CHECKs, said as the CSV says them. */
static int model_rule(const kb_value *row, gw_error *err)
{
#define MODEL(name) row_value(model_cols, NCOLS(model_cols), row, name)->number
    double params = MODEL("params"), active = MODEL("active_params");
    double heads = MODEL("heads"), kv_heads = MODEL("kv_heads");
    double experts = MODEL("experts"), experts_active = MODEL("experts_active");
#undef MODEL
    if (active > params)
        return gw_error_set(err, GW_EDATA, "active_params: at most params (%g), not %g", params,
                            active);
    if (kv_heads > heads)
        return gw_error_set(err, GW_EDATA, "kv_heads: at most heads (%g), not %g", heads,
                            kv_heads);
    if (isnan(experts) != isnan(experts_active))
        return gw_error_set(err, GW_EDATA, "experts and experts_active: give both (a mixture of "
                                           "experts) or neither");
    if (experts_active > experts)
        return gw_error_set(err, GW_EDATA, "experts_active: at most experts (%g), not %g",
                            experts, experts_active);
    return GW_OK;
}

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

/* The row a KB_CITES, KB_NAMES_GPU or KB_NAMES_SYSTEM value names must exist. */
static int reference_check(kb *k, const kb_column *c, const char *id, gw_error *err)
{
    int found = 0;
    const char *sql = "SELECT 1 FROM source WHERE id = ?1", *what = "source";
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
        if (k && v[i].text && (c->flags & (KB_CITES | KB_NAMES_GPU | KB_NAMES_SYSTEM))) {
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

int kb_row_put(kb *k, int table, kb_value *row, int *outcome, gw_error *err)
{
    int ignored;
    if (table < 0 || table >= KB_TABLES)
        return gw_error_set(err, GW_ESOFTWARE, "no table %d", table);
    return store_row(k, &kb_tables[table], row, outcome ? outcome : &ignored, err);
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

/* "SELECT extra, c1, c2 ... FROM t" */
void kb_sql_select(gw_buf *b, const kb_table *t, const char *extra)
{
    buf_puts(b, "SELECT ");
    if (extra)
        buf_printf(b, "%s, ", extra);
    kb_sql_column_list(b, t, "");
    buf_printf(b, " FROM %s", t->sql);
}

/* The SQL type a column of each kb_type has in kb/schema.sql. */
static const char *sql_type(kb_type type)
{
    return type == KB_TEXT ? "TEXT" : type == KB_NUMBER ? "REAL" : "INTEGER";
}

/* What differs between a column of the schema (name, SQL type, NOT NULL) and the column the
 * description has in its place (NULL: none); a line in report, and 1, when something does. */
static int column_problem(gw_buf *report, const kb_table *tb, const char *name,
                          const char *type, int notnull, const kb_column *col)
{
    int nullable = col && !(col->flags & (KB_REQUIRED | KB_DEFAULT_ONE | KB_DEFAULT_ZERO));
    name = name ? name : "?";
    if (!col)
        buf_printf(report, "problem: %s.%s: in the schema but not in the description\n",
                   tb->sql, name);
    else if (!kb_streq(name, col->name))
        buf_printf(report, "problem: %s.%s: in the schema where the description has %s\n",
                   tb->sql, name, col->name);
    else if (!kb_streq(type, sql_type(col->type)))
        buf_printf(report, "problem: %s.%s: %s in the schema, %s in the description\n", tb->sql,
                   name, type ? type : "?", sql_type(col->type));
    else if (notnull == nullable)
        buf_printf(report, "problem: %s.%s: %s in the schema, %s in the description\n", tb->sql,
                   name, notnull ? "NOT NULL" : "nullable", nullable ? "optional" : "required");
    else
        return 0;
    return 1;
}

/* Compares each table of the open KB with its description: the same columns in the same order
 * (a table's INTEGER PRIMARY KEY row number aside), each of the described SQL type, NOT NULL
 * exactly when the column is required or has a default. */
int kb_schema_problems(kb *k, gw_buf *report)
{
    int problems = 0;
    for (int t = 0; t < KB_TABLES; t++) {
        const kb_table *tb = &kb_tables[t];
        sqlite3_stmt *st;
        int c = 0;
        if (kb_sql_prepare(k, "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1)",
                           &st, NULL) != GW_OK)
            return problems + 1;
        kb_sql_bind_text(st, 1, tb->sql);
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(st, 0);
            const char *type = (const char *)sqlite3_column_text(st, 1);
            if (sqlite3_column_int(st, 3) && kb_streq(type, "INTEGER") && kb_streq(name, "id") &&
                !kb_table_column(t, "id"))
                continue;   /* the row number of a table without a key of its own */
            problems += column_problem(report, tb, name, type, sqlite3_column_int(st, 2),
                                       c < tb->ncols ? &tb->cols[c] : NULL);
            c += c < tb->ncols;
        }
        sqlite3_finalize(st);
        if (c < tb->ncols) {
            buf_printf(report, "problem: %s.%s: described but not in the schema\n", tb->sql,
                       tb->cols[c].name);
            problems++;
        }
    }
    return problems;
}

