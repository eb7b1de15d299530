/* kb_read.c — reads: rows of a table into their structs (kb_table.c says which column goes
 * where), a GPU by id, its measured results, prices, sources, claims, aliases and names, the
 * figures the decision assumes, and the exchange rates with conversion between currencies. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "check.h"
#include "kb.h"
#include "kb_private.h"
#include "units.h"

/* Runs a SELECT of a table's columns (after `extra` leading columns) and collects the rows into
 * an array of structs of size `size`. */
typedef void (*row_fill)(sqlite3_stmt *st, void *obj);

static int select_rows(kb *k, const kb_table *t, const char *sql, const char *const *params,
                       int nparams, size_t size, int extra, row_fill fill, void **out,
                       size_t *n, gw_error *err)
{
    sqlite3_stmt *st;
    size_t cap = 0, count = 0;
    char *rows = NULL;
    int rc = kb_sql_prepare_cached(k, sql, &st, err);
    *out = NULL;
    *n = 0;
    if (rc)
        return rc;
    for (int i = 0; i < nparams; i++)
        kb_sql_bind_text(st, i + 1, params[i]);
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

int kb_gpu_get(kb *k, const char *id, kb_gpu *out, gw_error *err)
{
    int found;
    kb_gpu_init(out);
    int rc = select_one(k, KB_GPUS, " WHERE id = ?1", id, sizeof *out, out, &found, err);
    if (rc == GW_OK && !found)
        return gw_error_set(err, GW_ENOTFOUND, "no GPU with id '%s'", id);
    return rc;
}

static void fill_benchmark(sqlite3_stmt *st, void *obj)
{
    ((kb_benchmark *)obj)->id = sqlite3_column_int64(st, 0);
}

int kb_benchmarks_find(kb *k, const char *gpu, const char *workload, kb_benchmark **out,
                       size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_BENCHMARKS], "id");
    buf_puts(&sql, " WHERE (?1 IS NULL OR gpu = ?1) AND (?2 IS NULL OR workload = ?2)"
                   " ORDER BY gpu, workload, metric, gpu_count, value, id");
    const char *params[] = {gpu, workload};
    int rc = select_rows(k, &kb_tables[KB_BENCHMARKS], buf_cstr(&sql), params, 2,
                         sizeof(kb_benchmark), 1, fill_benchmark, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

static void fill_price(sqlite3_stmt *st, void *obj)
{
    ((kb_price *)obj)->id = sqlite3_column_int64(st, 0);
}

int kb_prices_find(kb *k, const char *gpu, const char *kind, const char *provider,
                   kb_price **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_PRICES], "id");
    buf_puts(&sql, " WHERE (?1 IS NULL OR gpu = ?1) AND (?2 IS NULL OR kind = ?2)"
                   " AND (?3 IS NULL OR provider = ?3)"
                   " ORDER BY gpu, kind, as_of, currency, amount, id");
    const char *params[] = {gpu, kind, provider};
    int rc = select_rows(k, &kb_tables[KB_PRICES], buf_cstr(&sql), params, 3, sizeof(kb_price), 1,
                         fill_price, (void **)out, n, err);
    buf_free(&sql);
    return rc;
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

int kb_sources_list(kb *k, kb_source **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_SOURCES],
                "(SELECT count(*) FROM gpu WHERE source = s.id)"
                " + (SELECT count(*) FROM benchmark WHERE source = s.id)"
                " + (SELECT count(*) FROM price WHERE source = s.id)"
                " + (SELECT count(*) FROM rate WHERE source = s.id)"
                " + (SELECT count(*) FROM claim WHERE source = s.id OR correction_source = s.id)"
                " + (SELECT count(*) FROM assumption WHERE source = s.id)"
                " + (SELECT count(*) FROM system WHERE source = s.id)"
                " + (SELECT count(*) FROM model WHERE source = s.id)");
    buf_puts(&sql, " s ORDER BY id");
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

int kb_models_list(kb *k, kb_model **out, size_t *n, gw_error *err)
{
    gw_buf sql = GW_BUF_INIT;
    kb_sql_select(&sql, &kb_tables[KB_MODELS], NULL);
    buf_puts(&sql, " ORDER BY id");
    int rc = select_rows(k, &kb_tables[KB_MODELS], buf_cstr(&sql), NULL, 0, sizeof(kb_model), 0,
                         NULL, (void **)out, n, err);
    buf_free(&sql);
    return rc;
}

/* A model's name as people write it, reduced to what tells models apart: letters and digits,
 * lower case, without a leading "meta" (Meta-Llama-3-8B) or a trailing variant word that does
 * not change the architecture (-Instruct, -chat, -hf, -base). */
static void model_key(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++)
        if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9'))
            out[n++] = *s;
        else if (*s >= 'A' && *s <= 'Z')
            out[n++] = (char)(*s - 'A' + 'a');
    out[n] = '\0';
    if (!strncmp(out, "meta", 4) && out[4] >= 'a' && out[4] <= 'z')
        memmove(out, out + 4, n - 3), n -= 4;
    static const char *const variants[] = {"instruct", "chat", "hf", "base"};
    for (int again = 1; again;) {
        again = 0;
        for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
            size_t v = strlen(variants[i]);
            if (n > v && !strcmp(out + n - v, variants[i])) {
                out[n -= v] = '\0';
                again = 1;
            }
        }
    }
}

int kb_model_resolve(kb *k, const char *name, kb_model *out, gw_error *err)
{
    kb_model *rows = NULL;
    size_t n = 0;
    memset(out, 0, sizeof *out);
    int rc = kb_models_list(k, &rows, &n, err);
    if (rc != GW_OK)
        return rc;
    char want[128], id_key[128], name_key[128];
    model_key(name, want, sizeof want);
    size_t found = n, nearest[3] = {n, n, n};
    size_t dist[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
    for (size_t i = 0; i < n && found == n; i++) {
        model_key(rows[i].id, id_key, sizeof id_key);
        model_key(rows[i].name, name_key, sizeof name_key);
        if (*want && (!strcmp(want, id_key) || !strcmp(want, name_key))) {
            found = i;
            break;
        }
        size_t d = gw_edit_distance(want, id_key);
        for (int j = 0; j < 3; j++)
            if (d < dist[j]) {
                memmove(&dist[j + 1], &dist[j], (size_t)(2 - j) * sizeof dist[0]);
                memmove(&nearest[j + 1], &nearest[j], (size_t)(2 - j) * sizeof nearest[0]);
                dist[j] = d;
                nearest[j] = i;
                break;
            }
    }
    if (found < n) {
        *out = rows[found];
        memset(&rows[found], 0, sizeof rows[found]);
    } else if (n == 0) {
        rc = gw_error_set(err, GW_ENOTFOUND,
                          "unknown model '%s' (the KB's model catalog is empty: gpuwise's is "
                          "kb/data/models.csv, added with gpuwise kb import)", name);
    } else {
        gw_buf b = GW_BUF_INIT;
        for (int j = 0; j < 3 && nearest[j] < n; j++)
            buf_printf(&b, "%s%s", j ? ", " : "", rows[nearest[j]].id);
        rc = gw_error_set(err, GW_ENOTFOUND,
                          "unknown model '%s' (did you mean %s? `gpuwise kb models` lists the "
                          "catalog)", name, buf_cstr(&b));
        buf_free(&b);
    }
    kb_models_free(rows, n);
    return rc;
}
