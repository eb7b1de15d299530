/* test_kb.c — the knowledge base: schema and migration, refusing foreign files, validated
 * writes (the assumed figures' units and ranges too), name resolution, the filter language,
 * search, export/import and failed imports. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/error.h"
#include "kb/kb.h"
#include "kb/kb_csv.h"

#define FIX "tests/fixtures/kb/"

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    return p;
}

static int file_equal(const char *a, const char *b)
{
    char *da, *db;
    size_t la, lb;
    if (gw_read_file(a, &da, &la) || gw_read_file(b, &db, &lb))
        return 0;
    int same = la == lb && memcmp(da, db, la) == 0;
    free(da);
    free(db);
    return same;
}

static void copy_file(const char *from, const char *to)
{
    char *d;
    size_t n;
    assert_int_equal(gw_read_file(from, &d, &n), 0);
    assert_int_equal(gw_write_file_atomic(to, d, n), 0);
    free(d);
}

static const char *const fixture_files[] = {
    /* deliberately out of dependency order: the import sorts them */
    FIX "claims.csv", FIX "prices.csv", FIX "benchmarks.csv", FIX "aliases.csv",
    FIX "rates.csv", FIX "gpus.csv", FIX "assumptions.csv", FIX "sources.csv",
    FIX "bom-crlf-aliases.csv", FIX "systems.csv",
};
#define N_FIXTURES (sizeof fixture_files / sizeof fixture_files[0])

static int import_files(kb *k, const char *const *files, size_t n, kb_import_counts *counts,
                        gw_error *err)
{
    char **texts = calloc(n, sizeof *texts);
    size_t *lens = calloc(n, sizeof *lens);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(gw_read_file(files[i], &texts[i], &lens[i]), 0);
    int rc = kb_begin(k, err);
    if (rc == GW_OK) {
        rc = kb_import_texts(k, n, files, (const char *const *)texts, lens, counts, err);
        if (rc == GW_OK)
            rc = kb_commit(k, err);
        else
            kb_rollback(k);
    }
    for (size_t i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    free(lens);
    return rc;
}

/* A fresh KB with the fixtures, at path. */
static kb *fixture_kb(const char *path)
{
    kb *k;
    gw_error err = {0};
    kb_import_counts counts;
    unlink(path);
    assert_int_equal(kb_open(path, KB_CREATE, &k, &err), GW_OK);
    int rc = import_files(k, fixture_files, N_FIXTURES, &counts, &err);
    if (rc)
        fail_msg("fixture import: %s", err.msg);
    /* sources.csv has 10 rows, gpus.csv 15, aliases.csv 7 + 1 in bom-crlf-aliases.csv */
    assert_int_equal(counts.added[KB_SOURCES], 10);
    assert_int_equal(counts.added[KB_GPUS], 15);
    assert_int_equal(counts.added[KB_ALIASES], 8);
    assert_int_equal(counts.added[KB_RATES], 4);
    assert_int_equal(counts.added[KB_SYSTEMS], 1);
    assert_int_equal(counts.added[KB_BENCHMARKS], 3);
    assert_int_equal(counts.added[KB_PRICES], 4);
    assert_int_equal(counts.added[KB_CLAIMS], 1);
    assert_int_equal(counts.added[KB_ASSUMPTIONS], 5);   /* every figure gpuwise assumes */
    return k;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/gwkb.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[600];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- schema ---- */

static void test_schema_create_and_reopen(void **state)
{
    (void)state;
    kb *k;
    gw_error err = {0};
    const char *path = tmp_path("new.db");
    assert_int_equal(kb_open(path, KB_READ, &k, &err), GW_ENOINPUT);
    assert_int_equal(kb_open(path, KB_WRITE, &k, &err), GW_ENOINPUT);
    assert_int_equal(kb_open(path, KB_CREATE, &k, &err), GW_OK);
    assert_int_equal(kb_schema_version(k), kb_schema_latest());
    assert_true(kb_schema_latest() >= 2);
    kb_close(k);
    assert_int_equal(kb_open(path, KB_READ, &k, &err), GW_OK);
    assert_int_equal(kb_schema_version(k), kb_schema_latest());
    /* read-only: no writes */
    assert_int_equal(kb_begin(k, &err), GW_ESOFTWARE);
    kb_close(k);
}

static void make_db_from_sql(const char *path, const char *sql_file)
{
    sqlite3 *db;
    char *sql;
    size_t n;
    unlink(path);
    assert_int_equal(gw_read_file(sql_file, &sql, &n), 0);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    free(sql);
}

static void test_migration_from_v1(void **state)
{
    (void)state;
    kb *k;
    gw_error err = {0};
    const char *path = tmp_path("v1.db");
    make_db_from_sql(path, FIX "v1.sql");
    /* Read-only cannot migrate: it says how to upgrade. */
    assert_int_equal(kb_open(path, KB_READ, &k, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "schema 1 is older"));
    assert_non_null(strstr(err.msg, "kb upgrade"));
    assert_int_equal(kb_open(path, KB_WRITE, &k, &err), GW_OK);
    assert_int_equal(kb_schema_version(k), kb_schema_latest());
    kb_close(k);

    assert_int_equal(kb_open(path, KB_READ, &k, &err), GW_OK);
    kb_gpu g;
    assert_int_equal(kb_gpu_get(k, "rtx-3090", &g, &err), GW_OK);
    assert_true(g.memory_bandwidth_gbs == 936);   /* the v1 row survived */
    /* Version 6: an older KB's nvlink_gbs was NVLink alone, so its linked NVIDIA row is NVLink;
     * no FP4 rate and no restriction were recorded. */
    assert_string_equal(g.link_kind, "nvlink");
    assert_true(g.nvlink_gbs == 112.5);
    assert_true(isnan(g.fp4_tflops));
    assert_null(g.restriction);
    kb_gpu_free(&g);
    /* version 2 indexed the old rows: the benchmark's 905 is found */
    kb_hit *hits;
    size_t n;
    assert_int_equal(kb_search(k, "905", 10, &hits, &n, &err), GW_OK);
    assert_int_equal(n, 1);
    assert_string_equal(hits[0].kind, "benchmark");
    kb_hits_free(hits, n);
    gw_buf report = GW_BUF_INIT;
    assert_int_equal(kb_check(k, &report, &err), GW_OK);
    buf_free(&report);
    kb_close(k);

    /* and the claim table of version 2 takes rows */
    assert_int_equal(kb_open(path, KB_WRITE, &k, &err), GW_OK);
    kb_claim c = {"rtx-3090", "no NVLink", "wrong", "it has a 2-way bridge", "ga102-wp", NULL};
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_add_claim(k, &c, &err), GW_OK);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    /* Version 3's assumption table is there, empty: this KB holds neither article the figures
     * came from, so the upgrade carried none over. */
    kb_assumption a;
    assert_int_equal(kb_assumption_get(k, KB_ASSUMED_HOST_COST, &a, &err), GW_ENOTFOUND);
    assert_string_equal(err.msg, "no assumed figure 'host_cost' in the knowledge base");
    kb_assumption put = {"host_cost", "USD", "ga102-wp", NULL, 1000};
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_put_assumption(k, &put, &err), GW_OK);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    assert_int_equal(kb_assumption_get(k, KB_ASSUMED_HOST_COST, &a, &err), GW_OK);
    assert_true(a.value == 1000);
    assert_string_equal(a.unit, "USD");
    kb_assumption_free(&a);
    kb_close(k);
}

/* A KB as version 2 wrote it, holding the two articles the engine's figures came from: the
 * upgrade adds the assumption table with the five figures gpuwise had built in, citing them,
 * indexed for search and counted as facts. */
static void test_migration_from_v2(void **state)
{
    (void)state;
    kb *k;
    gw_error err = {0};
    const char *path = tmp_path("v2.db");
    make_db_from_sql(path, FIX "v2.sql");
    assert_int_equal(kb_open(path, KB_READ, &k, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "schema 2 is older"));
    assert_int_equal(kb_open(path, KB_WRITE, &k, &err), GW_OK);
    assert_int_equal(kb_schema_version(k), kb_schema_latest());
    kb_close(k);

    assert_int_equal(kb_open(path, KB_READ, &k, &err), GW_OK);
    static const struct {
        kb_assumed which;
        const char *id, *unit, *source;
        double value;
    } want[] = {
        {KB_ASSUMED_HOST_COST, "host_cost", "CNY", "article-4090-a100-h100", 8000},
        {KB_ASSUMED_HOST_POWER, "host_power_w", "W", "article-a100-vs-4x3090", 200},
        {KB_ASSUMED_RESALE, "resale_fraction", "fraction", "article-4090-a100-h100", 0.3},
        {KB_ASSUMED_HOST_NETWORK, "host_network_gbps", "Gb/s", "ieee-802-3an", 10},
        {KB_ASSUMED_POOR_COOLING, "poor_cooling_factor", "fraction", "article-a100-vs-4x3090",
         0.8},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        kb_assumption a;
        assert_int_equal(kb_assumption_get(k, want[i].which, &a, &err), GW_OK);
        assert_string_equal(a.id, want[i].id);
        assert_string_equal(a.unit, want[i].unit);
        assert_string_equal(a.source, want[i].source);
        assert_true(a.value == want[i].value);
        assert_non_null(a.note);
        kb_assumption_free(&a);
    }
    /* the v2 rows survived, and search finds the new ones */
    kb_gpu g;
    assert_int_equal(kb_gpu_get(k, "rtx-3090", &g, &err), GW_OK);
    kb_gpu_free(&g);
    kb_hit *hits;
    size_t n;
    assert_int_equal(kb_search(k, "cooling", 10, &hits, &n, &err), GW_OK);
    assert_int_equal(n, 1);
    assert_string_equal(hits[0].kind, "assumption");
    assert_string_equal(hits[0].ref, "poor_cooling_factor");
    assert_string_equal(hits[0].title, "assumed 0.8 fraction");
    assert_string_equal(hits[0].source, "article-a100-vs-4x3090");
    kb_hits_free(hits, n);
    /* article-a100-vs-4x3090: 1 benchmark + 1 claim + 2 assumptions, in that order */
    assert_int_equal(kb_source_facts(k, "article-a100-vs-4x3090", &hits, &n, &err), GW_OK);
    assert_int_equal(n, 4);
    assert_string_equal(hits[0].kind, "benchmark");
    assert_string_equal(hits[1].kind, "claim");
    assert_string_equal(hits[2].ref, "host_power_w");
    assert_string_equal(hits[3].ref, "poor_cooling_factor");
    kb_hits_free(hits, n);
    kb_source *s;
    assert_int_equal(kb_sources_list(k, &s, &n, &err), GW_OK);
    /* article-4090-a100-h100, article-a100-vs-4x3090, ga102-wp, the source version 5 adds for
     * the network between machines, the two version 7 adds for language models, the one
     * version 10 adds for a "from" price's high end and the two version 11 adds for support
     * and colocation, by id */
    assert_int_equal(n, 9);
    assert_int_equal(s[0].fact_count, 2);       /* host_cost, resale_fraction */
    assert_int_equal(s[1].fact_count, 1 + 1 + 2);
    assert_string_equal(s[2].id, "datareceipts-gpu-pricing");
    assert_int_equal(s[2].fact_count, 1);       /* from_high_factor */
    assert_string_equal(s[3].id, "encoradvisors-colocation-2026");
    assert_int_equal(s[3].fact_count, 1);       /* colocation_per_kw_month */
    assert_int_equal(s[4].fact_count, 3);       /* the GPU, the rate, the claim's correction */
    assert_string_equal(s[5].id, "ieee-802-3an");
    assert_int_equal(s[5].fact_count, 1);       /* host_network_gbps */
    assert_string_equal(s[6].id, "librarytechnology-hw-maintenance");
    assert_int_equal(s[6].fact_count, 1);       /* support_fraction */
    assert_string_equal(s[7].id, "llama-3-paper");
    assert_int_equal(s[7].fact_count, 1);       /* llm_mfu */
    assert_string_equal(s[8].id, "mbu-glossary");
    assert_int_equal(s[8].fact_count, 1);       /* decode_bandwidth_fraction */
    kb_sources_free(s, n);
    kb_assumption a;
    assert_int_equal(kb_assumption_get(k, KB_ASSUMED_FROM_HIGH, &a, &err), GW_OK);
    assert_true(a.value == 1.48);               /* RunPod's H100 SXM: 3.99 / 2.69 = 1.483 */
    assert_string_equal(a.unit, "ratio");
    kb_assumption_free(&a);
    /* 1 GPU + 1 benchmark + 1 rate + 1 claim + 10 assumptions = 14 facts; the index: those 14
     * and the 9 sources = 23 entries (the host table, empty until kb/data/hosts.csv is
     * imported, adds none) */
    kb_assumption support;
    assert_int_equal(kb_assumption_get(k, KB_ASSUMED_SUPPORT, &support, &err), GW_OK);
    assert_true(support.value == 0.1);          /* 10-12% of the price a year: the low end */
    kb_assumption_free(&support);
    gw_buf report = GW_BUF_INIT;
    assert_int_equal(kb_check(k, &report, &err), GW_OK);
    assert_non_null(strstr(report.data, "ok: every fact cites a source (14 facts)"));
    assert_non_null(strstr(report.data, "ok: search index (23 entries)"));
    buf_free(&report);
    kb_close(k);
}

/* Version 4 adds an offer's quality, GPU fraction and minimum billing.  The rows of an older KB
 * take their quality from their source's kind (a price list: list; an article: anecdote;
 * anything else: unknown), are whole cards (fraction 1) and have no minimum billing. */
static void test_migration_prices_to_v4(void **state)
{
    (void)state;
    kb *k;
    sqlite3 *db;
    gw_error err = {0};
    const char *path = tmp_path("v2-prices.db");
    make_db_from_sql(path, FIX "v2.sql");
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
        "INSERT INTO source VALUES ('acme-prices', 'Acme price list', 'Acme', NULL, '2026-11-30',"
        " 'price-list', NULL);"
        "INSERT INTO price (gpu, kind, amount, currency, unit, provider, as_of, source)"
        " VALUES ('rtx-3090', 'cloud', 0.5, 'USD', 'hour', 'Acme', '2026-01', 'acme-prices');"
        "INSERT INTO price (gpu, kind, amount, currency, unit, provider, as_of, source)"
        " VALUES ('rtx-3090', 'cloud', 1.9, 'CNY', 'hour', 'Blog', '2026-01',"
        " 'article-4090-a100-h100');"
        "INSERT INTO price (gpu, kind, amount, currency, unit, as_of, source)"
        " VALUES ('rtx-3090', 'new', 1499, 'USD', 'card', '2026-01', 'ga102-wp');",
        NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(kb_open(path, KB_WRITE, &k, &err), GW_OK);
    assert_int_equal(kb_schema_version(k), kb_schema_latest());
    kb_price *rows;
    size_t n;
    assert_int_equal(kb_prices_find(k, "rtx-3090", NULL, NULL, &rows, &n, &err), GW_OK);
    assert_int_equal(n, 3);
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(rows[i].gpu_fraction == 1);
        assert_true(isnan(rows[i].min_billing_hours));
        if (!strcmp(rows[i].source, "acme-prices")) {
            assert_string_equal(rows[i].quality, "list");
            seen |= 1;
        } else if (!strcmp(rows[i].source, "article-4090-a100-h100")) {
            assert_string_equal(rows[i].quality, "anecdote");
            seen |= 2;
        } else {
            assert_null(rows[i].quality);   /* a whitepaper says nothing of a price's worth */
            seen |= 4;
        }
    }
    assert_int_equal(seen, 7);
    kb_prices_free(rows, n);
    /* the new columns take rows, with their rules: a slice is rented, never bought */
    kb_price p = {0, "rtx-3090", "cloud", "USD", "hour", NULL, "Acme", "1g", "2026-02",
                  "acme-prices", NULL, 0.2, 1, 0, "quote", 1.0 / 7, 4, NULL, NAN, NAN, NAN};
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_add_price(k, &p, &err), GW_OK);
    p.kind = "new";
    p.unit = "card";
    p.min_billing_hours = NAN;
    assert_int_equal(kb_add_price(k, &p, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "gpu_fraction: only a cloud offer rents part of a card"));
    p.kind = "cloud";
    p.unit = "hour";
    p.gpu_fraction = 1.5;
    assert_int_equal(kb_add_price(k, &p, &err), GW_EDATA);
    assert_string_equal(err.msg, "gpu_fraction: at most 1 (a whole card), not 1.5");
    p.gpu_fraction = 1;
    p.quality = "rumour";
    assert_int_equal(kb_add_price(k, &p, &err), GW_EDATA);
    /* the kinds of version 10's price_kind table, best first */
    assert_string_equal(err.msg, "quality: 'rumour' is not one of: list, quote, market, from, "
                                 "anecdote, launch");
    assert_int_equal(kb_commit(k, &err), GW_OK);
    gw_buf report = GW_BUF_INIT;
    assert_int_equal(kb_check(k, &report, &err), GW_OK);
    buf_free(&report);
    kb_close(k);
}

/* Version 6 records a part's scale-up link by kind, its FP4 rate and its export restriction.
 * An older KB's nvlink_gbs was NVLink alone: an NVIDIA row at 0 has no link, another vendor's 0
 * only said "no NVLink" (its kind stays unknown).  The search index names each link by kind. */
static void test_migration_links_to_v6(void **state)
{
    (void)state;
    kb *k;
    sqlite3 *db;
    gw_error err = {0};
    const char *path = tmp_path("v2-links.db");
    make_db_from_sql(path, FIX "v2.sql");
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db,
        "INSERT INTO gpu (id, name, vendor, form_factor, nvlink_gbs, source) VALUES"
        " ('mi300x', 'AMD Instinct MI300X', 'AMD', 'oam', 0, 'ga102-wp'),"
        " ('rtx-4090', 'GeForce RTX 4090', 'NVIDIA', 'pcie', 0, 'ga102-wp');",
        NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(kb_open(path, KB_WRITE, &k, &err), GW_OK);
    assert_int_equal(kb_schema_version(k), kb_schema_latest());
    static const struct {
        const char *id, *kind;   /* NULL: unknown */
    } want[] = {{"rtx-3090", "nvlink"}, {"rtx-4090", "none"}, {"mi300x", NULL}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        kb_gpu g;
        assert_int_equal(kb_gpu_get(k, want[i].id, &g, &err), GW_OK);
        if (want[i].kind)
            assert_string_equal(g.link_kind, want[i].kind);
        else
            assert_null(g.link_kind);
        kb_gpu_free(&g);
    }

    /* The new columns take their values, and only the kinds there are. */
    kb_gpu g;
    assert_int_equal(kb_gpu_get(k, "mi300x", &g, &err), GW_OK);
    char *old_kind = g.link_kind, *old_note = g.restriction;
    g.nvlink_gbs = 896;   /* 7 Infinity Fabric links of 128 GB/s */
    g.fp4_tflops = 9.5;
    g.link_kind = "infinity-fabric";
    g.restriction = "2023-10-17: a licence is needed to ship it to China (BIS).";
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_OK);
    g.link_kind = "pcie-switch";
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "link_kind: 'pcie-switch' is not one of: nvlink, "
                                    "infinity-fabric, roce, none"));
    assert_int_equal(kb_commit(k, &err), GW_OK);
    g.link_kind = old_kind;
    g.restriction = old_note;
    kb_gpu_free(&g);
    assert_int_equal(kb_gpu_get(k, "mi300x", &g, &err), GW_OK);
    assert_string_equal(g.link_kind, "infinity-fabric");
    assert_true(g.fp4_tflops == 9.5 && g.nvlink_gbs == 896);
    assert_non_null(strstr(g.restriction, "BIS"));
    kb_gpu_free(&g);

    kb_hit *hits;
    size_t n;
    assert_int_equal(kb_search(k, "\"Infinity Fabric 896\"", 10, &hits, &n, &err), GW_OK);
    assert_int_equal(n, 1);
    assert_string_equal(hits[0].ref, "mi300x");
    kb_hits_free(hits, n);
    assert_int_equal(kb_search(k, "NVLink 112.5", 10, &hits, &n, &err), GW_OK);
    assert_int_equal(n, 1);   /* the RTX 3090, re-indexed with its kind by the upgrade */
    assert_string_equal(hits[0].ref, "rtx-3090");
    kb_hits_free(hits, n);
    gw_buf report = GW_BUF_INIT;
    assert_int_equal(kb_check(k, &report, &err), GW_OK);
    buf_free(&report);
    kb_close(k);
}

static void test_newer_schema_refused(void **state)
{
    (void)state;
    kb *k;
    gw_error err = {0};
    const char *path = tmp_path("v99.db");
    make_db_from_sql(path, FIX "v1.sql");
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(db);
    assert_int_equal(kb_open(path, KB_WRITE, &k, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "newer"));
}

static void test_foreign_files_refused_unchanged(void **state)
{
    (void)state;
    kb *k;
    gw_error err = {0};
    const char *text = tmp_path("notes.txt"), *copy = tmp_path("notes.copy");
    assert_int_equal(gw_write_file_atomic(text, "just some notes\n", 16), 0);
    copy_file(text, copy);
    assert_int_equal(kb_open(text, KB_CREATE, &k, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "not a gpuwise knowledge base"));
    assert_true(file_equal(text, copy));

    const char *other = tmp_path("other.db"), *other_copy = tmp_path("other.copy");
    sqlite3 *db;
    unlink(other);
    assert_int_equal(sqlite3_open(other, &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE notes(x); INSERT INTO notes VALUES (1)", NULL, NULL, NULL);
    sqlite3_close(db);
    copy_file(other, other_copy);
    assert_int_equal(kb_open(other, KB_CREATE, &k, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "another program"));
    assert_int_equal(kb_open(other, KB_READ, &k, &err), GW_EDATA);
    assert_true(file_equal(other, other_copy));
    assert_int_equal(access(tmp_path("other.db-wal"), F_OK), -1);
}

/* ---- writes and validation ---- */

static void test_validation_messages(void **state)
{
    (void)state;
    gw_error err = {0};
    kb *k = fixture_kb(tmp_path("valid.db"));
    kb_gpu g;
    kb_gpu_init(&g);
    g.id = "test-gpu";
    g.name = "Test GPU";
    g.vendor = "NVIDIA";
    g.source = "ga102-wp";
    g.memory_gb = -1;

    /* outside a transaction */
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_ESOFTWARE);
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_EDATA);
    assert_string_equal(err.msg, "memory_gb: must not be negative");
    g.memory_gb = INFINITY;
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_EDATA);
    assert_string_equal(err.msg, "memory_gb: not a finite number");
    g.memory_gb = 24;
    g.release_date = "2020-13";
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "release_date: '2020-13' is not a date"));
    g.release_date = "2020-09-01";
    g.source = "nowhere";
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_EDATA);
    assert_string_equal(err.msg, "source: unknown source 'nowhere'");
    g.source = NULL;
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_EDATA);
    assert_string_equal(err.msg, "source: missing (required)");
    g.source = "ga102-wp";
    g.id = "Test GPU";
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "id: 'Test GPU' is not an id"));
    g.id = "test-gpu";
    assert_int_equal(kb_put_gpu(k, &g, &err), GW_OK);

    kb_price p = {0, "test-gpu", "rented", "usd", "hour", NULL, NULL, NULL, "2026-01",
                  "ga102-wp", NULL, 1.5, 1, 0, NULL, NAN, NAN, NULL, NAN, NAN, NAN};
    assert_int_equal(kb_add_price(k, &p, &err), GW_EDATA);
    assert_string_equal(err.msg, "kind: 'rented' is not one of: new, used, cloud");
    p.kind = "cloud";
    assert_int_equal(kb_add_price(k, &p, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "currency: 'usd' is not a currency code"));
    p.currency = "USD";
    p.gpu = "no-such";
    assert_int_equal(kb_add_price(k, &p, &err), GW_EDATA);
    assert_string_equal(err.msg, "gpu: unknown GPU 'no-such'");
    p.gpu = "test-gpu";
    p.provider = "acme";
    assert_int_equal(kb_add_price(k, &p, &err), GW_OK);
    kb_rate r = {"JPY", "2026-01", "fx-rates", 0};
    assert_int_equal(kb_put_rate(k, &r, &err), GW_EDATA);
    assert_string_equal(err.msg, "per_usd: must be greater than 0");
    kb_commit(k, &err);

    /* kb_delete_offers removes the provider's cloud rows only */
    kb_price *rows;
    size_t n;
    assert_int_equal(kb_prices_find(k, "test-gpu", NULL, "acme", &rows, &n, &err), GW_OK);
    assert_int_equal(n, 1);
    assert_true(rows[0].amount == 1.5);
    kb_prices_free(rows, n);
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_delete_offers(k, "acme", &err), GW_OK);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    assert_int_equal(kb_prices_find(k, "test-gpu", NULL, "acme", &rows, &n, &err), GW_OK);
    assert_int_equal(n, 0);
    kb_prices_free(rows, n);
    kb_close(k);
}

static void test_reads_and_convert(void **state)
{
    (void)state;
    gw_error err = {0};
    kb *k = fixture_kb(tmp_path("reads.db"));
    kb_gpu g;
    assert_int_equal(kb_gpu_get(k, "h100-sxm5", &g, &err), GW_OK);
    /* H100 SXM5 datasheet: 3350 GB/s, 700 W, FP16 1979 with sparsity = 989.5 dense */
    assert_true(g.memory_bandwidth_gbs == 3350);
    assert_true(g.tdp_w == 700);
    assert_true(g.fp16_tflops == 989.5);
    assert_string_equal(g.sparsity, "2:4");
    assert_true(isnan(g.launch_price_usd));
    kb_gpu_free(&g);
    assert_int_equal(kb_gpu_get(k, "nope", &g, &err), GW_ENOTFOUND);

    kb_rate r;
    assert_int_equal(kb_rate_get(k, "CNY", &r, &err), GW_OK);
    assert_true(r.per_usd == 7.2);   /* the 2026-01 rate, not the older 2025-06 one (7.1) */
    kb_rate_free(&r);
    double out;
    /* 100 CNY -> EUR = 100 / 7.2 * 0.92 = 12.7777... */
    assert_int_equal(kb_convert(k, 100, "CNY", "EUR", &out, &err), GW_OK);
    assert_true(fabs(out - 12.777777777777779) < 1e-9);
    /* 7.2 CNY -> USD = 1 */
    assert_int_equal(kb_convert(k, 7.2, "CNY", "USD", &out, &err), GW_OK);
    assert_true(fabs(out - 1.0) < 1e-12);
    assert_int_equal(kb_convert(k, 1, "CNY", "GBP", &out, &err), GW_ENOTFOUND);

    /* tests/fixtures/kb/assumptions.csv, as written there */
    kb_assumption a;
    assert_int_equal(kb_assumption_get(k, KB_ASSUMED_HOST_NETWORK, &a, &err), GW_OK);
    assert_string_equal(a.id, "host_network_gbps");
    assert_true(a.value == 10);
    assert_string_equal(a.unit, "Gb/s");
    assert_string_equal(a.source, "ga102-wp");
    assert_string_equal(a.note, "the network between machines, not a card's link");
    kb_assumption_free(&a);
    assert_int_equal(kb_assumption_get(k, KB_ASSUMED_HOST_COST, &a, &err), GW_OK);
    assert_true(a.value == 8000);
    assert_string_equal(a.unit, "CNY");
    kb_assumption_free(&a);
    assert_string_equal(kb_assumed_id(KB_ASSUMED_POOR_COOLING), "poor_cooling_factor");
    assert_null(kb_assumed_id(KB_ASSUMED_COUNT));

    kb_source *s;
    size_t n;
    assert_int_equal(kb_sources_list(k, &s, &n, &err), GW_OK);
    assert_int_equal(n, 10);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s[i].id, "blog-a100-vs-3090"))
            /* 2 benchmarks + 4 prices + 1 claim + 3 assumptions */
            assert_int_equal(s[i].fact_count, 7 + 3);
    kb_sources_free(s, n);

    kb_benchmark *b;
    assert_int_equal(kb_benchmarks_find(k, "rtx-3090", "resnet50", &b, &n, &err), GW_OK);
    assert_int_equal(n, 2);
    kb_benchmarks_free(b, n);
    kb_claim *c;
    assert_int_equal(kb_claims_for(k, "rtx-3090", &c, &n, &err), GW_OK);
    assert_int_equal(n, 1);
    assert_string_equal(c[0].status, "wrong");
    kb_claims_free(c, n);
    char **aliases;
    assert_int_equal(kb_gpu_aliases(k, "l40s", &aliases, &n, &err), GW_OK);
    assert_int_equal(n, 1);   /* from the file with a byte order mark and CRLF */
    assert_string_equal(aliases[0], "NVIDIA L40S");
    kb_strings_free(aliases, n);
    kb_close(k);
}

/* kb_benchmarks_find asked twice gives the same rows, each answer a copy of its own, and a
 * write is seen by the next question. */
static void test_benchmarks_kept_until_a_write(void **state)
{
    (void)state;
    gw_error err = {0};
    kb *k = fixture_kb(tmp_path("kept.db"));
    kb_benchmark *b, *again;
    size_t n, n_again;
    /* tests/fixtures/kb/benchmarks.csv: rtx-3090's resnet50 rows, 1 card (905) then 4 (3100) */
    assert_int_equal(kb_benchmarks_find(k, "rtx-3090", "resnet50", &b, &n, &err), GW_OK);
    assert_int_equal(n, 2);
    assert_int_equal(kb_benchmarks_find(k, "rtx-3090", "resnet50", &again, &n_again, &err),
                     GW_OK);
    assert_int_equal(n_again, 2);
    assert_true(again[0].value == 905 && again[1].value == 3100);
    assert_string_equal(again[1].note, "four cards over PCIe");
    assert_ptr_not_equal(again[1].note, b[1].note);   /* each answer its own strings */
    kb_benchmarks_free(b, n);
    kb_benchmarks_free(again, n_again);
    /* another question is another answer: every GPU's resnet50 rows, 3 */
    assert_int_equal(kb_benchmarks_find(k, NULL, "resnet50", &b, &n, &err), GW_OK);
    assert_int_equal(n, 3);
    kb_benchmarks_free(b, n);
    /* a row written for the rtx-3090 (8 cards) is in the next answer: 3 rows */
    const char *name = "more.csv";
    const char *text = "gpu,gpu_count,workload,metric,value,unit,precision,batch,framework,"
                       "interconnect,power_w,source,note\n"
                       "rtx-3090,8,resnet50,train_throughput,5000,images/s,amp,,pytorch,pcie,,"
                       "ga102-wp,\n";
    size_t len = strlen(text);
    kb_import_counts counts;
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_import_texts(k, 1, &name, &text, &len, &counts, &err), GW_OK);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    assert_int_equal(kb_benchmarks_find(k, "rtx-3090", "resnet50", &b, &n, &err), GW_OK);
    assert_int_equal(n, 3);
    assert_true(b[2].value == 5000);   /* sorted by count: 1, 4, 8 */
    kb_benchmarks_free(b, n);
    kb_close(k);
}

/* The ids SQLite's own ORDER BY gives the rows of table where `where` (may be empty), into
 * ids (room for max); how many. */
static size_t ids_in_sql_order(const char *path, const char *table, const char *where,
                               const char *order, long long *ids, size_t max)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT id FROM %s %s ORDER BY %s", table, where, order);
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    size_t n = 0;
    while (sqlite3_step(st) == SQLITE_ROW && n < max)
        ids[n++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* The rows kb_read.c sorts itself (kb_benchmarks_find, kb_prices_find, kb_prices_to_buy) come
 * in the order their ORDER BY gave before, on every row of the shipped KB (214 results, 248
 * prices, 119 of them to buy when this was written). */
static void test_rows_in_sql_order(void **state)
{
    (void)state;
    const char *path = "kb/gpuwise.db";
    if (access(path, R_OK) != 0)
        skip();
    gw_error err = {0};
    kb *k = NULL;
    assert_int_equal(kb_open(path, KB_READ, &k, &err), GW_OK);
    static long long ids[100000];
    kb_benchmark *b;
    size_t n;
    assert_int_equal(kb_benchmarks_find(k, NULL, NULL, &b, &n, &err), GW_OK);
    assert_true(n > 100);
    assert_int_equal(ids_in_sql_order(path, "benchmark", "",
                                      "gpu, workload, metric, gpu_count, value, id", ids,
                                      100000), n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(b[i].id, ids[i]);
    kb_benchmarks_free(b, n);
    const char *price_order = "gpu, kind, as_of, currency, amount, id";
    kb_price *p;
    assert_int_equal(kb_prices_find(k, NULL, NULL, NULL, &p, &n, &err), GW_OK);
    assert_true(n > 100);
    assert_int_equal(ids_in_sql_order(path, "price", "", price_order, ids, 100000), n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(p[i].id, ids[i]);
    kb_prices_free(p, n);
    assert_int_equal(kb_prices_to_buy(k, &p, &n, &err), GW_OK);
    assert_true(n > 50);
    assert_int_equal(ids_in_sql_order(path, "price", "WHERE kind IN ('new', 'used')",
                                      price_order, ids, 100000), n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(p[i].id, ids[i]);
    kb_prices_free(p, n);
    kb_close(k);
}

/* ---- name resolution ---- */

static void expect_resolve(kb *k, const char *name, const char *id, int count)
{
    char *got;
    int n;
    gw_error err = {0};
    int rc = kb_gpu_resolve(k, name, &got, &n, &err);
    if (rc != GW_OK)
        fail_msg("'%s': %s", name, err.msg);
    if (strcmp(got, id) != 0)
        fail_msg("'%s' resolved to %s, expected %s", name, got, id);
    assert_int_equal(n, count);
    free(got);
}

static void expect_unresolved(kb *k, const char *name, const char *msg)
{
    char *got;
    int n;
    gw_error err = {0};
    assert_int_equal(kb_gpu_resolve(k, name, &got, &n, &err), GW_ENOTFOUND);
    assert_null(got);
    if (strcmp(err.msg, msg) != 0)
        fail_msg("'%s': got \"%s\", expected \"%s\"", name, err.msg, msg);
}

/* Suggestions after the first few are a matter of taste; the first ones are checked. */
static void expect_unresolved_prefix(kb *k, const char *name, const char *prefix)
{
    char *got;
    int n;
    gw_error err = {0};
    assert_int_equal(kb_gpu_resolve(k, name, &got, &n, &err), GW_ENOTFOUND);
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0)
        fail_msg("'%s': got \"%s\", expected \"%s...\"", name, err.msg, prefix);
    assert_non_null(strstr(err.msg, "?"));
}

static void test_resolve_forms(void **state)
{
    (void)state;
    kb *k = fixture_kb(tmp_path("resolve.db"));
    expect_resolve(k, "rtx-3090", "rtx-3090", 1);
    expect_resolve(k, "RTX 3090", "rtx-3090", 1);
    expect_resolve(k, "GeForce RTX 3090", "rtx-3090", 1);
    expect_resolve(k, "NVIDIA GeForce RTX 3090", "rtx-3090", 1);
    expect_resolve(k, "rtx_3090", "rtx-3090", 1);
    expect_resolve(k, "3090", "rtx-3090", 1);            /* not the 3090 Ti */
    expect_resolve(k, "3090 ti", "rtx-3090-ti", 1);
    expect_resolve(k, "4x rtx-3090", "rtx-3090", 4);
    expect_resolve(k, "4 x RTX 3090", "rtx-3090", 4);
    expect_resolve(k, "RTX 3090 x2", "rtx-3090", 2);
    expect_resolve(k, "8xH200_140GB_SXM", "h200-sxm", 8);  /* 140 GB rounds the 141 GB part */
    expect_resolve(k, "NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb", 1);
    expect_resolve(k, "NVIDIA A100-PCIE-40GB", "a100-pcie-40gb", 1);
    expect_resolve(k, "A100 PCIe 80GB", "a100-pcie-80gb", 1);
    expect_resolve(k, "a100 sxm4 40gb", "a100-sxm4-40gb", 1);
    /* a memory size without a form factor: the SXM part */
    expect_resolve(k, "A100-80GB", "a100-sxm4-80gb", 1);
    expect_resolve(k, "A100 80GB", "a100-sxm4-80gb", 1);
    expect_resolve(k, "H100 (80 GB)", "h100-sxm5", 1);
    expect_resolve(k, "NVIDIA H100 80GB HBM3", "h100-sxm5", 1);
    expect_resolve(k, "H100 SXM", "h100-sxm5", 1);
    expect_resolve(k, "h100 nvl", "h100-nvl", 1);
    expect_resolve(k, "L40", "l40", 1);                 /* whole word beats part of "l40s" */
    expect_resolve(k, "A10", "a10", 1);
    expect_resolve(k, "Tesla A10 GPU", "a10", 1);
    expect_resolve(k, "Radeon Instinct MI300X", "mi300x", 1);
    expect_resolve(k, "AMD MI300X", "mi300x", 1);
    {   /* a model number must be whole: "mi300" is not the MI300X, "m40" not "sxm4 40gb" */
        static const char *const partial[] = {"mi300", "NVIDIA M40", "Quadro RTX 5000"};
        for (size_t i = 0; i < sizeof partial / sizeof partial[0]; i++) {
            char *got = NULL;
            gw_error err = {0};
            assert_int_equal(kb_gpu_resolve(k, partial[i], &got, NULL, &err), GW_ENOTFOUND);
            assert_null(got);
            assert_non_null(strstr(err.msg, "did you mean"));
        }
    }
    kb_close(k);
}

static void test_resolve_ambiguous_and_unknown(void **state)
{
    (void)state;
    kb *k = fixture_kb(tmp_path("resolve2.db"));
    expect_unresolved(k, "A100", "'A100' is ambiguous: a100-pcie-40gb, a100-pcie-80gb, "
                                 "a100-sxm4-40gb, a100-sxm4-80gb");
    expect_unresolved(k, "H100", "'H100' is ambiguous: h100-nvl, h100-pcie, h100-sxm5");
    expect_unresolved(k, "A100 PCIe", "'A100 PCIe' is ambiguous: a100-pcie-40gb, "
                                      "a100-pcie-80gb");
    /* "3900" is one swap from "3090" */
    expect_unresolved_prefix(k, "RTX 3900", "no GPU named 'RTX 3900'; did you mean: rtx-3090, "
                                            "rtx-3090-ti, ");
    /* the 1080 Ti is not a 1080 */
    expect_unresolved_prefix(k, "GTX 1080", "no GPU named 'GTX 1080'; did you mean: "
                                            "gtx-1080-ti, ");
    /* a card the KB knows with a memory it does not (a 48 GB RTX 3090 Ti, say): the card whose
     * name it begins with comes first, not the nearer spelling */
    expect_unresolved_prefix(k, "RTX 3090 Ti 48GB", "no GPU named 'RTX 3090 Ti 48GB'; did you "
                                                    "mean: rtx-3090-ti, ");
    expect_unresolved(k, "", "no GPU name given");
    char *id;
    int n;
    gw_error err = {0};
    char longname[400];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(kb_gpu_resolve(k, longname, &id, &n, &err), GW_ENOTFOUND);
    assert_int_equal(kb_gpu_resolve(k, "\"'; DROP TABLE gpu; --", &id, &n, &err), GW_ENOTFOUND);
    assert_non_null(strstr(err.msg, "no GPU named"));
    kb_close(k);
}

/* ---- names that never surprise: counts, laptop parts, numbers inside names ---- */

/* The fixture KB plus cards whose names hold a number a count could be mistaken for (Gaudi 2,
 * T4, P4, L4), desktop cards whose laptop parts the KB lacks (RTX 2080, RTX A5000), one laptop
 * part it has (RTX 3080 Laptop GPU beside the desktop RTX 3080), and a Max-Q workstation card
 * beside its full-power one. */
static kb *names_kb(const char *path)
{
    static const char gpus[] =
        "id,name,vendor,architecture,form_factor,memory_gb,source\n"
        "gaudi2,Intel Gaudi 2,Intel,Gaudi 2,oam,96,ga102-wp\n"
        "rtx-4090,GeForce RTX 4090,NVIDIA,Ada Lovelace,pcie,24,ga102-wp\n"
        "rtx-2080,GeForce RTX 2080,NVIDIA,Turing,pcie,8,ga102-wp\n"
        "rtx-3080,GeForce RTX 3080,NVIDIA,Ampere,pcie,10,ga102-wp\n"
        "rtx-3080-laptop,GeForce RTX 3080 Laptop GPU,NVIDIA,Ampere,laptop,16,ga102-wp\n"
        "rtx-a5000,NVIDIA RTX A5000,NVIDIA,Ampere,pcie,24,ga102-wp\n"
        "rtx-6000-ada,NVIDIA RTX 6000 Ada Generation,NVIDIA,Ada Lovelace,pcie,48,ga102-wp\n"
        "rtx-pro-6000-blackwell,NVIDIA RTX PRO 6000 Blackwell Workstation Edition,NVIDIA,"
        "Blackwell,pcie,96,ga102-wp\n"
        "rtx-pro-6000-blackwell-max-q,NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition,"
        "NVIDIA,Blackwell,pcie,96,ga102-wp\n"
        "v100-sxm2-16gb,Tesla V100 SXM2 16GB,NVIDIA,Volta,sxm2,16,ga102-wp\n"
        "v100-sxm2-32gb,Tesla V100 SXM2 32GB,NVIDIA,Volta,sxm2,32,ga102-wp\n"
        "titan-rtx,NVIDIA TITAN RTX,NVIDIA,Turing,pcie,24,ga102-wp\n"
        "t4,NVIDIA T4,NVIDIA,Turing,pcie,16,ga102-wp\n"
        "p4,Tesla P4,NVIDIA,Pascal,pcie,8,ga102-wp\n"
        "l4,NVIDIA L4,NVIDIA,Ada Lovelace,pcie,24,ga102-wp\n";
    static const char aliases[] = "gpu,alias\n"
                                  "gaudi2,Gaudi 2\n"
                                  "gaudi2,Gaudi2\n"
                                  "rtx-4090,4090\n";
    kb *k = fixture_kb(path);
    const char *const names[] = {"names-gpus.csv", "names-aliases.csv"};
    const char *const texts[] = {gpus, aliases};
    const size_t lens[] = {sizeof gpus - 1, sizeof aliases - 1};
    gw_error err = {0};
    assert_int_equal(kb_begin(k, &err), GW_OK);
    if (kb_import_texts(k, 2, names, texts, lens, NULL, &err) != GW_OK)
        fail_msg("names fixture: %s", err.msg);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    return k;
}

/* One name and what it must give: a card and a count, or a refusal whose message begins with
 * (or, where it starts with '*', contains) the text given. */
typedef struct name_case {
    const char *name, *id;
    int count;
    const char *refusal;
} name_case;

static void test_resolve_names_never_surprise(void **state)
{
    (void)state;
    static const name_case cases[] = {
        /* counts at either end: an x beside or glued to a whole number */
        {"4090x2", "rtx-4090", 2, NULL},       /* not 4090 of "2", the Gaudi 2 */
        {"2x 4090", "rtx-4090", 2, NULL},
        {"3090 x4", "rtx-3090", 4, NULL},
        {"3090x4", "rtx-3090", 4, NULL},       /* not 3090 of "4" (L4, P4, T4) */
        {"2 x RTX 3090", "rtx-3090", 2, NULL},
        {"2x4090", "rtx-4090", 2, NULL},       /* "2" names no card: the 4090 is the card */
        {"4 x 4090", "rtx-4090", 4, NULL},
        {"4090 x 4", "rtx-4090", 4, NULL},
        {"rtx4090x2", "rtx-4090", 2, NULL},
        {"RTX 4090 ×3", "rtx-4090", 3, NULL},
        {"4× A100 80GB", "a100-sxm4-80gb", 4, NULL},
        {"8xH100 SXM5", "h100-sxm5", 8, NULL},
        {"H100 SXM5 x8", "h100-sxm5", 8, NULL},
        {"H100 SXM5x8", "h100-sxm5", 8, NULL},
        {"MI300X x8", "mi300x", 8, NULL},      /* the product's own X is no count */
        {"MI300Xx8", "mi300x", 8, NULL},
        {"8x MI300X", "mi300x", 8, NULL},
        {"A100 80GBx8", "a100-sxm4-80gb", 8, NULL},
        {"4× A100", NULL, 0, "'4× A100' is ambiguous: a100-pcie-40gb, "},
        {"8xH100", NULL, 0, "'8xH100' is ambiguous: h100-nvl, h100-pcie, h100-sxm5"},
        {"H100x8", NULL, 0, "'H100x8' is ambiguous: h100-nvl, h100-pcie, h100-sxm5"},
        {"x4", NULL, 0, "'x4' is a count with no GPU name"},
        {"8x", NULL, 0, "'8x' is a count with no GPU name"},
        {"2x H100 x8", NULL, 0, "'2x H100 x8' has a count at both ends"},
        {"0x rtx-4090", NULL, 0, "'0x rtx-4090': a GPU count is a whole number of at least 1"},
        {"rtx-4090 x0", NULL, 0, "'rtx-4090 x0': a GPU count is a whole number of at least 1"},
        {"rtx-4090 x1.5", NULL, 0, "'rtx-4090 x1.5': a GPU count is a whole number"},
        {"rtx-4090 x -2", NULL, 0, "'rtx-4090 x -2': a GPU count is a whole number"},
        {"4090x3090", NULL, 0, "'4090x3090': which number is the count?"},   /* both cards */
        /* suggestions are for the name without its count: "4080" is near the 4090, not L4 */
        {"4080x4", NULL, 0, "no GPU named '4080x4'; did you mean: rtx-4090, "},
        {"rtx-9090 x2", NULL, 0, "no GPU named 'rtx-9090 x2'; did you mean: rtx-3090, "},
        /* laptop parts: their own card, else refused; never the desktop card */
        {"RTX 3080 Laptop GPU", "rtx-3080-laptop", 1, NULL},
        {"NVIDIA GeForce RTX 3080 Laptop GPU", "rtx-3080-laptop", 1, NULL},
        {"RTX 3080 Mobile", "rtx-3080-laptop", 1, NULL},   /* the same part, older name */
        {"RTX 3080", "rtx-3080", 1, NULL},                 /* the desktop card over the laptop */
        {"2x RTX 3080 Laptop", "rtx-3080-laptop", 2, NULL},
        {"RTX 2080 Max-Q", NULL, 0, "no GPU named 'RTX 2080 Max-Q': the knowledge base has no "
                                    "Max-Q variant of this card (rtx-2080 is the desktop card, "
                                    "a different GPU)"},
        {"GeForce RTX 2080 with Max-Q Design", NULL, 0, "*no Max-Q variant of this card (rtx-2080"},
        {"RTX A5000 Laptop", NULL, 0, "no GPU named 'RTX A5000 Laptop': the knowledge base has no "
                                      "laptop variant of this card (rtx-a5000 is the desktop"},
        {"RTX 3080 Max-Q", NULL, 0, "*no Max-Q variant"},   /* a laptop, but not that one */
        {"GTX 1070 Mobile", NULL, 0, "no GPU named 'GTX 1070 Mobile': the knowledge base has no "
                                     "laptop variant of this card"},
        {"RTX PRO 6000 Blackwell Max-Q", "rtx-pro-6000-blackwell-max-q", 1, NULL},
        {"rtx pro 6000 maxq", "rtx-pro-6000-blackwell-max-q", 1, NULL},
        {"RTX PRO 6000 Max Q", "rtx-pro-6000-blackwell-max-q", 1, NULL},
        {"RTX PRO 6000 Blackwell", "rtx-pro-6000-blackwell", 1, NULL},
        /* numbers and x's inside names still work */
        {"A100 80GB", "a100-sxm4-80gb", 1, NULL},
        {"H100 SXM5", "h100-sxm5", 1, NULL},
        {"RTX 4090", "rtx-4090", 1, NULL},
        {"Gaudi 2", "gaudi2", 1, NULL},
        {"Gaudi2", "gaudi2", 1, NULL},
        {"2x Gaudi 2", "gaudi2", 2, NULL},
        {"Gaudi 2 x8", "gaudi2", 8, NULL},
        {"MI300X", "mi300x", 1, NULL},
        {"L40S", "l40s", 1, NULL},
        {"RTX 6000 Ada", "rtx-6000-ada", 1, NULL},
        {"V100 16GB", "v100-sxm2-16gb", 1, NULL},
        {"T4", "t4", 1, NULL},
        {"P4", "p4", 1, NULL},
        {"L4", "l4", 1, NULL},
        {"4x T4", "t4", 4, NULL},
        {"GTX 1080 Ti", "gtx-1080-ti", 1, NULL},
        {"Titan RTX", "titan-rtx", 1, NULL},
        {"Titan RTX x2", "titan-rtx", 2, NULL},
        {"Titan X", NULL, 0, "no GPU named 'Titan X'; did you mean: "},   /* not in this KB */
        {"TITAN Xp", NULL, 0, "no GPU named 'TITAN Xp'; did you mean: "},
        {"Radeon Pro VII", NULL, 0, "no GPU named 'Radeon Pro VII'; did you mean: "},
    };
    kb *k = names_kb(tmp_path("names.db"));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const name_case *c = &cases[i];
        char *got = NULL;
        int count = 0;
        gw_error err = {0};
        int rc = kb_gpu_resolve(k, c->name, &got, &count, &err);
        if (c->id && rc != GW_OK)
            fail_msg("'%s': %s (expected %dx %s)", c->name, err.msg, c->count, c->id);
        if (c->id && (strcmp(got, c->id) || count != c->count))
            fail_msg("'%s' gave %dx %s, expected %dx %s", c->name, count, got, c->count, c->id);
        if (!c->id && rc == GW_OK)
            fail_msg("'%s' gave %dx %s, expected a refusal", c->name, count, got);
        if (!c->id && (c->refusal[0] == '*' ? !strstr(err.msg, c->refusal + 1)
                                            : strncmp(err.msg, c->refusal, strlen(c->refusal))))
            fail_msg("'%s': got \"%s\", expected \"%s\"", c->name, err.msg, c->refusal);
        if (!c->id)
            assert_int_equal(rc, GW_ENOTFOUND);
        free(got);
    }
    kb_close(k);
}

/* An alias cannot carry a laptop name to a desktop card: resolution refuses it and kb check
 * names the alias's card. */
static void test_laptop_alias_on_desktop_card(void **state)
{
    (void)state;
    kb *k = names_kb(tmp_path("names-alias.db"));
    static const char alias[] = "gpu,alias\nrtx-2080,RTX 2080 Max-Q\n";
    const char *const names[] = {"laptop-alias.csv"};
    const char *const texts[] = {alias};
    const size_t lens[] = {sizeof alias - 1};
    gw_error err = {0};
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_import_texts(k, 1, names, texts, lens, NULL, &err), GW_OK);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    char *got = NULL;
    int count;
    assert_int_equal(kb_gpu_resolve(k, "RTX 2080 Max-Q", &got, &count, &err), GW_ENOTFOUND);
    assert_null(got);
    assert_non_null(strstr(err.msg, "has no Max-Q variant of this card (rtx-2080 is the desktop"));
    gw_buf report = GW_BUF_INIT;
    assert_int_equal(kb_check(k, &report, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "1 problem found"));
    assert_non_null(strstr(buf_cstr(&report), "problem: rtx-2080 has an alias with 'maxq', but "
                                              "is no laptop part"));
    buf_free(&report);
    kb_close(k);
}

/* ---- filter language ---- */

static size_t list_count(kb *k, const char *where, const char *sort, const char *first)
{
    kb_gpu *g;
    size_t n;
    gw_error err = {0};
    int rc = kb_gpu_list(k, where, sort, &g, &n, &err);
    if (rc)
        fail_msg("'%s': %s", where ? where : "", err.msg);
    if (first && (n == 0 || strcmp(g[0].id, first) != 0))
        fail_msg("'%s' sorted %s: first is %s, expected %s", where, sort, n ? g[0].id : "-",
                 first);
    kb_gpus_free(g, n);
    return n;
}

static void test_filter_language(void **state)
{
    (void)state;
    kb *k = fixture_kb(tmp_path("filter.db"));
    assert_int_equal(list_count(k, NULL, NULL, "a10"), 15);
    /* memory >= 48 and NVLink: a100 40/80 pcie/sxm4 (40 GB ones out) -> a100-pcie-80gb,
     * a100-sxm4-80gb, h100-pcie, h100-sxm5, h100-nvl, h200-sxm = 6 (L40/L40S have no NVLink,
     * MI300X has 0) */
    assert_int_equal(list_count(k, "memory_gb>=48 and nvlink_gbs>0", "-memory_bandwidth_gbs",
                                "h200-sxm"), 6);
    assert_int_equal(list_count(k, "memory_gb >= 48 AND nvlink_gbs > 0", "memory_bandwidth_gbs",
                                "a100-pcie-80gb"), 6);
    assert_int_equal(list_count(k, "vendor = amd", NULL, "mi300x"), 1);   /* any case */
    assert_int_equal(list_count(k, "vendor != NVIDIA", NULL, NULL), 1);
    /* "Ti" in GTX 1080 Ti, RTX 3090 Ti, and AMD Ins-ti-nct MI300X */
    assert_int_equal(list_count(k, "name ~ 'Ti'", NULL, "gtx-1080-ti"), 3);
    assert_int_equal(list_count(k, "name ~ \"a100 pcie\"", NULL, NULL), 2);
    assert_int_equal(list_count(k, "name ~ 100%", NULL, NULL), 0);   /* % is not a wildcard */
    /* 250 W (a100-pcie-40gb, gtx-1080-ti: a tie, broken by id) and 150 W (a10) */
    assert_int_equal(list_count(k, "tdp_w<300", "-tdp_w", "a100-pcie-40gb"), 3);
    assert_int_equal(list_count(k, "tdp_w <= 300 and architecture = Ampere", NULL, NULL), 3);
    assert_int_equal(list_count(k, "release_date >= '2023'", NULL, NULL), 4);
    /* unknown launch prices (NULL) never match, and sort last */
    assert_int_equal(list_count(k, "launch_price_usd > 0", "-launch_price_usd", "rtx-3090-ti"),
                     3);
    assert_int_equal(list_count(k, NULL, "launch_price_usd", "gtx-1080-ti"), 15);
    kb_close(k);
}

static void expect_where_error(kb *k, const char *where, const char *sort, const char *msg)
{
    kb_gpu *g;
    size_t n;
    gw_error err = {0};
    int rc = kb_gpu_list(k, where, sort, &g, &n, &err);
    if (rc != GW_EUSAGE)
        fail_msg("'%s': returned %d (%s)", where ? where : sort, rc, err.msg);
    assert_null(g);
    if (!strstr(err.msg, msg))
        fail_msg("'%s': got \"%s\", expected \"%s\"", where, err.msg, msg);
    /* never the database's own words */
    assert_null(strstr(err.msg, "SQL"));
    assert_null(strstr(err.msg, "syntax"));
    assert_null(strstr(err.msg, "sqlite"));
}

static void test_filter_hostile(void **state)
{
    (void)state;
    kb *k = fixture_kb(tmp_path("hostile.db"));
    expect_where_error(k, "x > 1", NULL, "unknown field 'x' (fields: id, name, vendor,");
    expect_where_error(k, "'; drop table gpu; --", NULL, "expected a field name");
    expect_where_error(k, "name = 'x'; drop table gpu; --", NULL, "expected 'and'");
    expect_where_error(k, "name = x; drop table gpu", NULL, "unexpected character");
    expect_where_error(k, "name ~ 'unbalanced", NULL, "unterminated string");
    expect_where_error(k, "name = \"", NULL, "unterminated string");
    expect_where_error(k, "memory_gb > abc", NULL, "memory_gb: 'abc' is not a number");
    expect_where_error(k, "memory_gb > 1e999", NULL, "is not a number");
    expect_where_error(k, "memory_gb ~ 4", NULL, "needs a text field");
    expect_where_error(k, "memory_gb", NULL, "expected an operator");
    expect_where_error(k, "memory_gb >", NULL, "expected a value");
    expect_where_error(k, "memory_gb > 1 and", NULL, "expected a condition after 'and'");
    expect_where_error(k, "memory_gb > 1 or", NULL, "expected a condition after 'or'");
    expect_where_error(k, "", NULL, "empty filter");
    expect_where_error(k, "\x01\x02", NULL, "unexpected byte 0x01");
    expect_where_error(k, "(memory_gb > 1", NULL, "'(' at position 1 is not closed");
    expect_where_error(k, NULL, "-bogus", "--sort: unknown field 'bogus'");
    expect_where_error(k, NULL, "memory_gb; drop table gpu", "unknown field");
    char *big = malloc(10001);
    memset(big, 'a', 10000);
    big[10000] = '\0';
    expect_where_error(k, big, NULL, "too long");
    for (size_t i = 0; i < 10000; i++)   /* garbage without NULs */
        big[i] = (char)(1 + (i * 7919) % 255);
    big[200] = '\0';
    kb_gpu *g;
    size_t n;
    gw_error err = {0};
    assert_int_equal(kb_gpu_list(k, big, NULL, &g, &n, &err), GW_EUSAGE);
    free(big);
    /* the table is still there */
    assert_int_equal(list_count(k, NULL, NULL, NULL), 15);
    assert_int_equal(kb_gpu_where_check("tdp_w < 300", &err), GW_OK);
    kb_close(k);
}

/* ---- or, parentheses and the derived fields of kb list ---- */

static void test_filter_or_parentheses(void **state)
{
    (void)state;
    kb *k = fixture_kb(tmp_path("or.db"));
    gw_error err = {0};
    /* a = vendor AMD: mi300x (1).  b = memory >= 80: a100-pcie-80gb, a100-sxm4-80gb, h100-pcie,
     * h100-sxm5, h100-nvl, h200-sxm, mi300x (7).  c = tdp < 400: of b only a100-pcie-80gb
     * (300 W) and h100-pcie (350 W).  a or (b and c) = 1 + 2 = 3; (a or b) and c = 2 (the
     * MI300X draws 750 W) */
    assert_int_equal(list_count(k, "vendor = AMD or memory_gb >= 80 and tdp_w < 400", NULL,
                                "a100-pcie-80gb"), 3);
    assert_int_equal(list_count(k, "vendor = AMD or (memory_gb >= 80 and tdp_w < 400)", NULL,
                                NULL), 3);
    assert_int_equal(list_count(k, "memory_gb >= 80 and tdp_w < 400 or vendor = AMD", NULL,
                                NULL), 3);
    assert_int_equal(list_count(k, "(vendor = AMD or memory_gb >= 80) and tdp_w < 400", NULL,
                                "a100-pcie-80gb"), 2);
    assert_int_equal(list_count(k, "vendor=AMD || memory_gb>=80 && tdp_w<400", NULL, NULL), 3);
    assert_int_equal(list_count(k, "(vendor=AMD||memory_gb>=80)&&tdp_w<400", NULL, NULL), 2);
    /* words in any case; a bare value ends at ')'; "and(" is the word and */
    assert_int_equal(list_count(k, "vendor = amd OR tdp_w < 200", "-tdp_w", "mi300x"), 2);
    assert_int_equal(list_count(k, "((vendor = AMD))", NULL, "mi300x"), 1);
    assert_int_equal(list_count(k, "vendor=amd and(tdp_w>700)", NULL, "mi300x"), 1);
    /* A100 names at 250 and 300 W: a100-pcie-40gb, a100-pcie-80gb; no H100 draws <= 300 W */
    assert_int_equal(list_count(k, "(name ~ 'a100' or name ~ 'h100') and (tdp_w <= 300)",
                                NULL, "a100-pcie-40gb"), 2);
    /* 32 parentheses deep is allowed */
    char deep[200];
    snprintf(deep, sizeof deep, "%.32s vendor = AMD %.32s",
             "((((((((((((((((((((((((((((((((", "))))))))))))))))))))))))))))))))");
    assert_int_equal(list_count(k, deep, NULL, "mi300x"), 1);
    assert_int_equal(kb_gpu_where_check("a100 = 1 or (tdp_w < 2)", &err), GW_EUSAGE);
    assert_int_equal(kb_gpu_where_check("(memory_gb > 1 or tdp_w < 2) and id ~ a", &err), GW_OK);

    /* errors name the position, counted from 1 */
    expect_where_error(k, "(memory_gb > 1", NULL, "'(' at position 1 is not closed");
    expect_where_error(k, "tdp_w > 1 and (memory_gb > 1 or (id = x)", NULL,
                       "'(' at position 15 is not closed");
    expect_where_error(k, "memory_gb > 1)", NULL, "')' at position 14 has no matching '('");
    expect_where_error(k, "(tdp_w > 1))", NULL, "')' at position 12 has no matching '('");
    expect_where_error(k, ")", NULL, "')' at position 1 has no matching '('");
    expect_where_error(k, "memory_gb > 1 or", NULL, "expected a condition after 'or' at "
                       "position 15");
    expect_where_error(k, "memory_gb > 1 and", NULL, "expected a condition after 'and' at "
                       "position 15");
    expect_where_error(k, "or memory_gb > 1", NULL, "'or' at position 1 has no condition "
                       "before it");
    expect_where_error(k, "memory_gb > 1 and or tdp_w < 2", NULL, "'or' at position 19 has no "
                       "condition before it");
    expect_where_error(k, "(and tdp_w < 2)", NULL, "'and' at position 2 has no condition");
    expect_where_error(k, "()", NULL, "expected a condition after '(' at position 1");
    expect_where_error(k, "tdp_w > 1 and ()", NULL, "expected a condition after '(' at "
                       "position 15");
    expect_where_error(k, "(tdp_w > 1 || )", NULL, "expected a condition after '||' at "
                       "position 12");
    expect_where_error(k, "memory_gb > 1 tdp_w < 2", NULL, "position 15: expected 'and' or "
                       "'or' between conditions");
    expect_where_error(k, "(vendor = AMD) (tdp_w < 2)", NULL, "position 16: expected 'and'");
    expect_where_error(k, "name = a(b", NULL, "position 9: unexpected character");
    snprintf(deep, sizeof deep, "%.33s vendor = AMD %.33s",
             "(((((((((((((((((((((((((((((((((", ")))))))))))))))))))))))))))))))))");
    expect_where_error(k, deep, NULL, "position 33: parentheses nested more than 32 deep");
    /* "order" and "andrew" are words, not connectives: unknown fields */
    expect_where_error(k, "tdp_w > 1 or order = 2", NULL, "unknown field 'order'");
    expect_where_error(k, "tdp_w > 1 and andrew = 2", NULL, "unknown field 'andrew'");
    kb_close(k);
}

/* The fixture's prices, and these: the RTX 3090 at USD 1,499 (2020-09) and CNY 7,000 (2025-06,
 * the latest); the H100 SXM5 in two 8-GPU servers on one date (USD 240,000 and 300,000) and as
 * one card before (USD 25,000, 2024-01); the L40 at USD 7,500 (2024-05) and, later, in GBP,
 * which the fixture has no rate for. */
static const char derived_prices[] =
    "gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note,"
    "quality,gpu_fraction,min_billing_hours,system,network_gbps\n"
    "rtx-3090,new,1499,USD,card,1,US,,,0,2020-09,ga102-wp,launch,list,,,,\n"
    "rtx-3090,new,7000,CNY,card,1,CN,,,0,2025-06,blog-a100-vs-3090,street,anecdote,,,,\n"
    "h100-sxm5,new,240000,USD,card,8,US,,,0,2025-01,nvidia-h100-ds,a server,quote,,,"
    "hgx-h100-8,\n"
    "h100-sxm5,new,300000,USD,card,8,US,,,0,2025-01,nvidia-h100-ds,another,quote,,,"
    "hgx-h100-8,\n"
    "h100-sxm5,new,25000,USD,card,1,US,,,0,2024-01,nvidia-h100-ds,older,quote,,,,\n"
    "l40,new,7500,USD,card,1,US,,,0,2024-05,nvidia-l40-ds,,list,,,,\n"
    "l40,new,5000,GBP,card,1,GB,,,0,2026-02,nvidia-l40-ds,no rate,list,,,,\n";

static kb *derived_kb(const char *path)
{
    gw_error err = {0};
    kb *k = fixture_kb(path);
    assert_int_equal(kb_begin(k, &err), GW_OK);
    if (kb_import_text(k, "derived-prices.csv", derived_prices, strlen(derived_prices), &err))
        fail_msg("derived prices: %s", err.msg);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    return k;
}

static const kb_gpu_value *value_of(const kb_gpu *g, const kb_gpu_value *v, size_t n,
                                    const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(g[i].id, id))
            return &v[i];
    fail_msg("no %s in the list", id);
    return NULL;
}

#define assert_near(x, want) \
    do { \
        if (!(fabs((double)(x) - (want)) < 1e-6 * (fabs((double)(want)) + 1))) \
            fail_msg("%s = %.10g, expected %.10g", #x, (double)(x), (double)(want)); \
    } while (0)

static void test_list_derived_fields(void **state)
{
    (void)state;
    kb *k = derived_kb(tmp_path("derived.db"));
    gw_error err = {0};
    kb_gpu *g;
    kb_gpu_value *v;
    size_t n;
    assert_int_equal(kb_gpu_list_values(k, NULL, NULL, NULL, &g, &v, &n, &err), GW_OK);
    assert_int_equal(n, 15);
    /* RTX 3090: the latest new price, CNY 7,000 at the latest CNY rate (7.2, not 2025-06's
     * 7.1): 7000 / 7.2 = 972.2222 USD; / 24 GB = 40.5093; / 71 TFLOPS = 13.6933;
     * / 0.936 TB/s = 1038.6990; 71 TFLOPS / 350 W = 0.202857 */
    const kb_gpu_value *r = value_of(g, v, n, "rtx-3090");
    assert_near(r->new_price, 7000 / 7.2);
    assert_near(r->new_price, 972.2222222);
    assert_string_equal(r->new_price_as_of, "2025-06");
    assert_string_equal(r->new_price_source, "blog-a100-vs-3090");
    assert_near(r->price_per_gb, 40.50925926);
    assert_near(r->price_per_fp16_tflops, 13.69327074);
    assert_near(r->price_per_tbs, 1038.698955);
    assert_near(r->fp16_tflops_per_w, 0.2028571429);
    /* H100 SXM5: two servers on the latest date, the lower: USD 240,000 / 8 GPUs = 30,000 a
     * card; / 80 GB = 375; / 989.5 TFLOPS = 30.3184; / 3.35 TB/s = 8955.2239; 989.5 / 700 W =
     * 1.413571 */
    r = value_of(g, v, n, "h100-sxm5");
    assert_near(r->new_price, 30000);
    assert_string_equal(r->new_price_as_of, "2025-01");
    assert_near(r->price_per_gb, 375);
    assert_near(r->price_per_fp16_tflops, 30.31834260);
    assert_near(r->price_per_tbs, 8955.223881);
    assert_near(r->fp16_tflops_per_w, 1.413571429);
    /* A100 SXM4 80GB: the fixture's CNY 100,000 / 7.2 = 13,888.89; / 80 GB = 173.6111 */
    r = value_of(g, v, n, "a100-sxm4-80gb");
    assert_near(r->new_price, 13888.88889);
    assert_near(r->price_per_gb, 173.6111111);
    /* L40: the GBP price is newer but GBP has no rate, so USD 7,500; / 48 GB = 156.25 */
    r = value_of(g, v, n, "l40");
    assert_near(r->new_price, 7500);
    assert_string_equal(r->new_price_as_of, "2024-05");
    assert_near(r->price_per_gb, 156.25);
    /* no new price: no price figures (never 0), but TFLOPS per watt: 125 / 150 W = 0.8333 */
    r = value_of(g, v, n, "a10");
    assert_true(isnan(r->new_price) && isnan(r->price_per_gb) && isnan(r->price_per_tbs) &&
                isnan(r->price_per_fp16_tflops));
    assert_null(r->new_price_as_of);
    assert_null(r->new_price_source);
    assert_near(r->fp16_tflops_per_w, 0.8333333333);
    /* no FP16 figure: no TFLOPS per watt */
    assert_true(isnan(value_of(g, v, n, "gtx-1080-ti")->fp16_tflops_per_w));
    kb_gpus_free(g, n);
    kb_gpu_values_free(v, n);

    /* other currencies: CNY 7,000 stays 7,000 (no conversion); the H100's 30,000 USD * 7.2 =
     * 216,000 CNY; in EUR 7000 / 7.2 * 0.92 = 894.4444 */
    assert_int_equal(kb_gpu_list_values(k, "id = rtx-3090 or id = h100-sxm5", "id", "CNY", &g,
                                        &v, &n, &err), GW_OK);
    assert_int_equal(n, 2);
    assert_string_equal(g[0].id, "h100-sxm5");
    assert_near(v[0].new_price, 216000);
    assert_near(v[1].new_price, 7000);
    kb_gpus_free(g, n);
    kb_gpu_values_free(v, n);
    assert_int_equal(kb_gpu_list_values(k, "id = rtx-3090", NULL, "EUR", &g, &v, &n, &err),
                     GW_OK);
    assert_near(v[0].new_price, 894.4444444);
    kb_gpus_free(g, n);
    kb_gpu_values_free(v, n);
    assert_int_equal(kb_gpu_list_values(k, NULL, NULL, "GBP", &g, &v, &n, &err), GW_ENOTFOUND);
    assert_non_null(strstr(err.msg, "no exchange rate for 'GBP'"));
    assert_int_equal(kb_gpu_list_values(k, NULL, NULL, "usd", &g, &v, &n, &err), GW_EUSAGE);

    /* filters and sorts: per GB under 200 USD: rtx-3090 40.51, l40 156.25, a100-sxm4-80gb
     * 173.61 (the H100's 375 is over) */
    assert_int_equal(list_count(k, "price_per_gb < 200", "price_per_gb", "rtx-3090"), 3);
    assert_int_equal(list_count(k, "price_per_gb < 100 or vendor = AMD", NULL, NULL), 2);
    assert_int_equal(list_count(k, "new_price_as_of >= '2025'", NULL, "a100-sxm4-80gb"), 3);
    assert_int_equal(list_count(k, "new_price_source ~ 'h100'", NULL, "h100-sxm5"), 1);
    /* FP16 dense per watt over 1: h100-pcie 756.5/350 = 2.16, h100-nvl 835.5/400 = 2.09,
     * mi300x 1307.4/750 = 1.74, h100-sxm5 and h200-sxm 989.5/700 = 1.41, a100-pcie-40gb
     * 312/250 = 1.25, a100-pcie-80gb 312/300 = 1.04, l40s 362/350 = 1.03: 8 */
    assert_int_equal(list_count(k, "fp16_tflops_per_w > 1", "-fp16_tflops_per_w",
                                "h100-pcie"), 8);
    /* highest price first, then the GPUs without one, in id order (a10 first) */
    assert_int_equal(kb_gpu_list_values(k, NULL, "-new_price", NULL, &g, &v, &n, &err), GW_OK);
    const char *order[] = {"h100-sxm5", "a100-sxm4-80gb", "l40", "rtx-3090", "a10"};
    for (size_t i = 0; i < 5; i++)
        assert_string_equal(g[i].id, order[i]);
    assert_true(isnan(v[4].new_price) && isnan(v[n - 1].new_price));
    kb_gpus_free(g, n);
    kb_gpu_values_free(v, n);
    /* lowest per GB first: the unknown still last */
    assert_int_equal(list_count(k, NULL, "price_per_gb", "rtx-3090"), 15);
    expect_where_error(k, "price_per_gb ~ 4", NULL, "needs a text field");
    expect_where_error(k, "price_per_gbp < 4", NULL, "unknown field 'price_per_gbp'");
    expect_where_error(k, NULL, "-price_per_gbp", "--sort: unknown field 'price_per_gbp'");
    kb_close(k);
}

/* One description: every derived field once, named apart from the GPU columns, each with a
 * label and how it is computed; the field check knows both kinds. */
static void test_derived_description(void **state)
{
    (void)state;
    gw_error err = {0};
    size_t n = 0;
    const kb_derived *d;
    for (; (d = kb_gpu_derived(n)) != NULL; n++) {
        assert_null(kb_table_column(KB_GPUS, d->name));
        assert_ptr_equal(kb_gpu_derived_find(d->name), d);
        assert_true(d->label && *d->label && d->how && *d->how);
        assert_int_equal(kb_list_field_check("--columns: ", d->name, &err), GW_OK);
    }
    assert_int_equal(n, 7);
    assert_true(kb_gpu_derived_find("new_price")->money);
    assert_false(kb_gpu_derived_find("fp16_tflops_per_w")->money);
    assert_int_equal(kb_gpu_derived_find("new_price_as_of")->type, KB_TEXT);
    assert_null(kb_gpu_derived_find("memory_gb"));
    assert_null(kb_gpu_derived_find(NULL));
    assert_int_equal(kb_list_field_check("--columns: ", "memory_gb", &err), GW_OK);
    assert_int_equal(kb_list_field_check("--columns: ", "colour", &err), GW_EUSAGE);
    assert_non_null(strstr(err.msg, "--columns: unknown field 'colour' (fields: id, name,"));
    assert_non_null(strstr(err.msg, ", price_per_gb, price_per_fp16_tflops, price_per_tbs, "
                                    "fp16_tflops_per_w)"));
    /* a value row reads through the description */
    kb_gpu_value v = {66.625, "2022-10", NULL, NAN, NAN, NAN, NAN};
    assert_true(kb_derived_number(kb_gpu_derived_find("new_price"), &v) == 66.625);
    assert_string_equal(kb_derived_text(kb_gpu_derived_find("new_price_as_of"), &v),
                        "2022-10");
    assert_true(isnan(kb_derived_number(kb_gpu_derived_find("new_price_as_of"), &v)));
    assert_null(kb_derived_text(kb_gpu_derived_find("price_per_gb"), &v));
}

/* ---- search ---- */

static void test_search_ranked_with_snippet(void **state)
{
    (void)state;
    kb *k = fixture_kb(tmp_path("search.db"));
    kb_hit *h;
    size_t n;
    gw_error err = {0};
    assert_int_equal(kb_search(k, "mi300x", 10, &h, &n, &err), GW_OK);
    assert_true(n >= 1);
    assert_string_equal(h[0].kind, "gpu");     /* the GPU itself before its datasheet source */
    assert_string_equal(h[0].ref, "mi300x");
    assert_non_null(strstr(h[0].snippet, "[MI300X]"));   /* as written in the name */
    for (size_t i = 1; i < n; i++)
        assert_true(h[i - 1].rank >= h[i].rank);
    kb_hits_free(h, n);

    assert_int_equal(kb_search(k, "80GB nvlink", 50, &h, &n, &err), GW_OK);
    /* GPUs with 80 GB and NVLink: a100-pcie-80gb, a100-sxm4-80gb, h100-pcie, h100-sxm5 */
    size_t gpus = 0;
    for (size_t i = 0; i < n; i++)
        gpus += !strcmp(h[i].kind, "gpu");
    assert_int_equal(gpus, 4);
    kb_hits_free(h, n);

    assert_int_equal(kb_search(k, "h10*", 50, &h, &n, &err), GW_OK);   /* a prefix */
    assert_true(n >= 3);
    kb_hits_free(h, n);

    /* no row has both words: rows with either are ranked instead */
    assert_int_equal(kb_search(k, "mi300x resnet50", 50, &h, &n, &err), GW_OK);
    assert_true(n >= 2);
    kb_hits_free(h, n);

    /* the Chinese title is searchable */
    assert_int_equal(kb_search(k, "上周帮组里跑模型", 5, &h, &n, &err), GW_OK);
    assert_true(n >= 1);
    assert_string_equal(h[0].kind, "source");
    kb_hits_free(h, n);
    kb_close(k);
}

static void test_search_hostile(void **state)
{
    (void)state;
    kb *k = fixture_kb(tmp_path("search2.db"));
    static const char *const searchable[] = {
        "NEAR(", "\"a100", "a100\"", "AND OR NOT", "col:umn", "a100 -sxm", "title:h100",
        "^h100", "h100)", "{a b}", "'; drop table gpu; --", "a*b", "NEAR(a100 h100, 2)",
        "a100 AND", "+h100",
    };
    for (size_t i = 0; i < sizeof searchable / sizeof *searchable; i++) {
        kb_hit *h;
        size_t n;
        gw_error err = {0};
        if (kb_search(k, searchable[i], 10, &h, &n, &err) != GW_OK)
            fail_msg("'%s': %s", searchable[i], err.msg);
        kb_hits_free(h, n);
    }
    static const char *const empty[] = {"\"", "\"\"\"", "*", "-", ":", "()", "  ", ""};
    for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) {
        kb_hit *h;
        size_t n;
        gw_error err = {0};
        assert_int_equal(kb_search(k, empty[i], 10, &h, &n, &err), GW_EUSAGE);
        assert_non_null(strstr(err.msg, "nothing to search for"));
    }
    kb_close(k);
}

/* ---- export / import ---- */

static void test_export_import_roundtrip(void **state)
{
    (void)state;
    gw_error err = {0};
    kb *k = fixture_kb(tmp_path("rt1.db"));
    gw_buf one = GW_BUF_INIT, two = GW_BUF_INIT;
    assert_int_equal(kb_export(k, &one, &err), GW_OK);
    kb_close(k);
    assert_non_null(strstr(one.data, "\n# gpus.csv\nid,name,vendor,"));
    /* a note with a comma, quotes, a newline and a leading '#' survives, quoted */
    assert_non_null(strstr(one.data, "\"# a note that starts like a comment, with \"\"quotes\"\""));
    /* numbers: shortest form, integers without ".0" */
    assert_non_null(strstr(one.data, ",989.5,"));
    assert_non_null(strstr(one.data, "CNY,7.2,2026-01"));
    assert_non_null(strstr(one.data, "\n# assumptions.csv\nid,value,unit,source,note\n"
                                     "host_cost,8000,CNY,blog-a100-vs-3090,"));

    const char *path = tmp_path("rt2.db");
    unlink(path);
    assert_int_equal(kb_open(path, KB_CREATE, &k, &err), GW_OK);
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_import_text(k, "export.csv", one.data, one.len, &err), GW_OK);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    assert_int_equal(kb_export(k, &two, &err), GW_OK);
    assert_int_equal(one.len, two.len);
    assert_memory_equal(one.data, two.data, one.len);

    /* importing the same again changes nothing */
    kb_import_counts counts;
    const char *name = "export.csv";
    const char *text = one.data;
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_import_texts(k, 1, &name, &text, &one.len, &counts, &err), GW_OK);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    size_t added = 0, unchanged = 0;
    for (int t = 0; t < KB_TABLES; t++) {
        added += counts.added[t] + counts.updated[t];
        unchanged += counts.unchanged[t];
    }
    assert_int_equal(added, 0);
    assert_int_equal(unchanged, 10 + 15 + 8 + 4 + 1 + 3 + 4 + 1 + 5);
    kb_close(k);
    buf_free(&one);
    buf_free(&two);
}

static void expect_failed_import(const char *db, const char *file, const char *msg)
{
    const char *copy = tmp_path("before.db");
    kb *k;
    gw_error err = {0};
    copy_file(db, copy);
    assert_int_equal(kb_open(db, KB_WRITE, &k, &err), GW_OK);
    int rc = import_files(k, &file, 1, NULL, &err);
    kb_close(k);
    assert_int_equal(rc, GW_EDATA);
    if (!strstr(err.msg, msg))
        fail_msg("%s: got \"%s\", expected \"%s\"", file, err.msg, msg);
    assert_true(file_equal(db, copy));
}

static void test_failed_import_changes_nothing(void **state)
{
    (void)state;
    const char *db = tmp_path("failed.db");
    kb *k = fixture_kb(db);
    kb_close(k);
    expect_failed_import(db, FIX "bad/unknown-gpu.csv",
                         FIX "bad/unknown-gpu.csv:2: gpu: unknown GPU 'no-such-gpu'");
    expect_failed_import(db, FIX "bad/unknown-source.csv",
                         "unknown-source.csv:2: source: unknown source 'no-such-source'");
    expect_failed_import(db, FIX "bad/bad-number.csv",
                         "bad-number.csv:2: per_usd: '1.5e' is not a number");
    expect_failed_import(db, FIX "bad/broken-quote.csv",
                         "broken-quote.csv:2: broken CSV quoting");
    expect_failed_import(db, FIX "bad/stray-quote.csv", "stray-quote.csv:2: broken CSV quoting");
    expect_failed_import(db, FIX "bad/wrong-header.csv",
                         "wrong-header.csv:1: not a gpuwise table");
    /* the first row is fine, the second negative: neither is stored */
    expect_failed_import(db, FIX "bad/negative-price.csv",
                         "negative-price.csv:3: amount: must not be negative");
    expect_failed_import(db, FIX "bad/short-row.csv",
                         "short-row.csv:3: 1 fields, but the header has 2");
    expect_failed_import(db, FIX "bad/duplicate-id.csv",
                         "duplicate-id.csv:4: id: 'fx-rates' is already given at "
                         FIX "bad/duplicate-id.csv:2");
}

/* Every write of an assumption row keeps to its figure's unit and range (kb_table.c), the same
 * without a KB (kb_row_check) and in an import (naming file and line). */
static void test_assumption_rules(void **state)
{
    (void)state;
    static const struct {
        const char *id;
        double value;
        const char *unit, *msg;
    } rows[] = {
        {"host_cost", 8000, "CNY", NULL},
        {"host_cost", 0, "USD", NULL},   /* money in any currency, from 0 */
        {"resale_fraction", 1, "fraction", NULL},
        {"host_network_gbps", 3200, "Gb/s", NULL},
        {"host_costs", 8000, "CNY",
         "id: 'host_costs' is not a figure gpuwise assumes (did you mean host_cost?)"},
        {"gpu_count", 1, "cards",
         "id: 'gpu_count' is not a figure gpuwise assumes (one of: host_cost, host_power_w, "
         "resale_fraction, host_network_gbps, poor_cooling_factor, llm_mfu, decode_bandwidth_fraction, "
         "from_high_factor, support_fraction, colocation_per_kw_month)"},
        {"from_high_factor", 1.48, "ratio", NULL},
        {"from_high_factor", 0.9, "ratio",
         "value: from_high_factor must be a ratio from 1 to 10, not 0.9"},   /* below its figure */
        {"host_cost", 8000, "yuan",
         "unit: host_cost is written in a currency code such as CNY or USD (it is money), not "
         "'yuan'"},
        {"resale_fraction", 30, "%", "unit: resale_fraction is written in fraction, not '%'"},
        {"resale_fraction", 1.5, "fraction",
         "value: resale_fraction must be a fraction from 0 to 1, not 1.5"},
        {"host_network_gbps", 6400, "Gb/s",
         "value: host_network_gbps must be from 0.1 to 3200 Gb/s, not 6400"},
        {"poor_cooling_factor", 0, "fraction",
         "value: poor_cooling_factor must be a fraction from 0.1 to 1, not 0"},
        {"host_power_w", -1, "W", "value: must not be negative"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kb_value v[5];
        gw_error err = {0};
        kb_values_clear(v, 5);
        v[0].text = rows[i].id;
        v[1].number = rows[i].value;
        v[2].text = rows[i].unit;
        v[3].text = "ga102-wp";
        int rc = kb_row_check(KB_ASSUMPTIONS, v, &err);
        if (!rows[i].msg) {
            assert_int_equal(rc, GW_OK);
            continue;
        }
        assert_int_equal(rc, GW_EDATA);
        assert_string_equal(err.msg, rows[i].msg);
    }

    const char *db = tmp_path("assumed.db");
    kb *k = fixture_kb(db);
    kb_close(k);
    expect_failed_import(db, FIX "bad/assumption-range.csv",
                         "assumption-range.csv:3: value: resale_fraction must be a fraction from "
                         "0 to 1, not 30");
}

/* Text read from the KB is copied as it is when it is UTF-8, and each invalid byte becomes
 * U+FFFD (EF BF BD) wherever it is: in the first 8 bytes, past them, or in the tail. */
static void test_text_repair(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"", ""},
        {"NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3090"},
        {"caf\xc3\xa9 r\xc3\xa9sum\xc3\xa9 \xe4\xb8\xad", "caf\xc3\xa9 r\xc3\xa9sum\xc3\xa9 \xe4\xb8\xad"},
        {"\xff" "bcdefghijk", "\xef\xbf\xbd" "bcdefghijk"},
        {"abcdefgh\xfe" "jklmnop", "abcdefgh\xef\xbf\xbd" "jklmnop"},
        {"abcdefghijklmnopqr\xc3", "abcdefghijklmnopqr\xef\xbf\xbd"},   /* a cut sequence */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = kb_text_repair(cases[i].in);
        assert_string_equal(out, cases[i].out);
        free(out);
    }
}

static void test_busy(void **state)
{
    (void)state;
    const char *db = tmp_path("busy.db");
    kb *k1 = fixture_kb(db), *k2;
    gw_error err = {0};
    setenv("GPUWISE_BUSY_TIMEOUT_MS", "100", 1);
    assert_int_equal(kb_open(db, KB_WRITE, &k2, &err), GW_OK);
    assert_int_equal(kb_begin(k1, &err), GW_OK);
    assert_int_equal(kb_begin(k2, &err), GW_EBUSY);
    assert_non_null(strstr(err.msg, "knowledge base busy"));
    kb_rollback(k1);
    assert_int_equal(kb_begin(k2, &err), GW_OK);
    kb_rollback(k2);
    unsetenv("GPUWISE_BUSY_TIMEOUT_MS");
    kb_close(k2);
    kb_close(k1);
}

static void test_check(void **state)
{
    (void)state;
    const char *db = tmp_path("check.db");
    kb *k = fixture_kb(db);
    gw_buf report = GW_BUF_INIT;
    gw_error err = {0};
    assert_int_equal(kb_check(k, &report, &err), GW_OK);
    assert_non_null(strstr(report.data, "ok: integrity"));
    assert_non_null(strstr(report.data, "ok: foreign keys"));
    /* 15 gpus + 1 system + 3 benchmarks + 4 prices + 4 rates + 1 claim + 5 assumptions = 33 */
    assert_non_null(strstr(report.data, "ok: every fact cites a source (33 facts)"));
    buf_free(&report);
    /* an alias that names another GPU makes resolution a matter of luck: no write stores one
     * (kb_gpu_name_free) ... */
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_add_alias(k, "l40", "NVIDIA L40S", &err), GW_EDATA);
    assert_string_equal(err.msg, "alias 'NVIDIA L40S' of card 'l40' already names card 'l40s'");
    kb_rollback(k);
    kb_close(k);
    /* ... and one a KB holds from before that rule, written here around it, is reported */
    sqlite3 *raw;
    assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "INSERT INTO gpu_alias (gpu, alias) VALUES ('l40', "
                                  "'NVIDIA L40S')", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    assert_int_equal(kb_open(db, KB_READ, &k, &err), GW_OK);
    assert_int_equal(kb_check(k, &report, &err), GW_EDATA);
    assert_non_null(strstr(report.data, "problem: the name 'l40s' fits both l40 and l40s"));
    buf_free(&report);
    kb_close(k);
}

/* ---- the column descriptions ---- */

static void test_one_description_per_table(void **state)
{
    (void)state;
    size_t n;
    const kb_column *cols = kb_table_columns(KB_GPUS, &n);
    /* gpus.csv's header: 25 columns of version 1, id first, note 25th; then version 6's three
     * (fp4_tflops, link_kind, restriction), version 10's two (discontinued, p2p) and version
     * 12's two (memory_mib, memory_mib_source): 25 + 3 + 2 + 2 = 32 */
    assert_int_equal(n, 32);
    assert_string_equal(cols[0].name, "id");
    assert_string_equal(cols[24].name, "note");
    assert_string_equal(cols[27].name, "restriction");
    assert_string_equal(cols[29].name, "p2p");
    assert_string_equal(cols[30].name, "memory_mib");
    assert_string_equal(cols[31].name, "memory_mib_source");
    assert_null(kb_table_columns(KB_TABLES, &n));
    assert_int_equal(n, 0);
    assert_null(kb_table_column(KB_GPUS, "colour"));
    assert_true(kb_table_column(KB_GPUS, "vendor")->flags & KB_REQUIRED);
    assert_int_equal(kb_table_column(KB_PRICES, "spot")->type, KB_FLAG);
    assert_string_equal(kb_table_name(KB_CLAIMS), "claims");
    assert_null(kb_table_name(-1));

    /* the filter fields are the columns that are not about the row: all but source and note */
    const char *const *fields = kb_gpu_fields();
    size_t nf = 0;
    while (fields[nf])
        nf++;
    /* 32 columns - source - note - memory_mib_source = 29: version 1's 23, launch_price_usd
     * 23rd, then version 6's, version 10's and version 12's memory_mib (its source, like the
     * others, is about the row) */
    assert_int_equal(nf, 29);
    assert_string_equal(fields[22], "launch_price_usd");
    assert_string_equal(fields[25], "restriction");
    assert_string_equal(fields[27], "p2p");
    assert_string_equal(fields[28], "memory_mib");

    /* struct fields are reached through the description: every number of a new GPU is NaN */
    kb_gpu g;
    kb_gpu_init(&g);
    for (size_t i = 0; i < n; i++)
        if (cols[i].type == KB_TEXT)
            assert_null(kb_column_text(&cols[i], &g));
        else
            assert_true(isnan(kb_column_number(&cols[i], &g)));
    g.tdp_w = 350;
    g.vendor = "NVIDIA";
    assert_true(kb_column_number(kb_table_column(KB_GPUS, "tdp_w"), &g) == 350);
    assert_string_equal(kb_column_text(kb_table_column(KB_GPUS, "vendor"), &g), "NVIDIA");
    kb_price p = {0};
    p.spot = 1;   /* an int in kb_price */
    assert_true(kb_column_number(kb_table_column(KB_PRICES, "spot"), &p) == 1);
}

static void test_row_check_without_kb(void **state)
{
    (void)state;
    gw_error err = {0};
    size_t n;
    kb_table_columns(KB_BENCHMARKS, &n);
    kb_value row[32];   /* room for any table's row: prices has 18 columns since version 5 */
    kb_values_clear(row, n);
    /* gpu, gpu_count, workload, metric, value, unit, ... in benchmarks.csv's order */
    row[0].text = "no-such-gpu";   /* not looked up without a KB */
    row[2].text = "resnet50";
    row[3].text = "train_throughput";
    row[4].number = 0;
    row[5].text = "images/s";
    row[11].text = "lambda";       /* the source: not looked up either */
    assert_int_equal(kb_row_check(KB_BENCHMARKS, row, &err), GW_EDATA);
    assert_string_equal(err.msg, "value: must be greater than 0");
    row[4].number = 1480;
    assert_int_equal(kb_row_check(KB_BENCHMARKS, row, &err), GW_OK);
    assert_true(row[1].number == 1);   /* gpu_count: empty means 1 */
    row[6].text = "fp128";
    assert_int_equal(kb_row_check(KB_BENCHMARKS, row, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "precision: 'fp128' is not one of: fp32, fp16, amp,"));

    /* one value by its column alone */
    const kb_column *date = kb_table_column(KB_GPUS, "release_date");
    kb_value v = {"2020-13", NAN};
    char text[200];
    assert_int_equal(kb_value_check(date, &v), KB_NOT_DATE);
    kb_problem_text(KB_NOT_DATE, date, &v, text, sizeof text);
    assert_string_equal(text, "'2020-13' is not a date (YYYY-MM or YYYY-MM-DD)");
    v.text = "";
    assert_int_equal(kb_value_check(date, &v), KB_FINE);
    assert_int_equal(kb_value_check(kb_table_column(KB_GPUS, "vendor"), &v), KB_MISSING);
    kb_value ecc = {NULL, 2};
    assert_int_equal(kb_value_check(kb_table_column(KB_GPUS, "ecc"), &ecc), KB_NOT_FLAG);
    kb_value memory = {NULL, 0};
    assert_int_equal(kb_value_check(kb_table_column(KB_GPUS, "memory_gb"), &memory),
                     KB_NOT_POSITIVE);
    kb_value nvlink = {NULL, 0};   /* 0 = no NVLink */
    assert_int_equal(kb_value_check(kb_table_column(KB_GPUS, "nvlink_gbs"), &nvlink), KB_FINE);

    /* a price that says nothing of spot is not spot */
    kb_table_columns(KB_PRICES, &n);
    kb_values_clear(row, n);
    const char *texts[] = {"a10", "new", NULL, "USD", "card"};
    for (size_t i = 0; i < 5; i++)
        row[i].text = texts[i];
    row[2].number = 3000;
    row[10].text = "2026-01";
    row[11].text = "ga102-wp";
    assert_int_equal(kb_row_check(KB_PRICES, row, &err), GW_OK);
    assert_true(row[9].number == 0);
}

/* kb check compares the SQL tables with the descriptions: a column only one of them has is
 * reported. */
static void test_check_schema_against_description(void **state)
{
    (void)state;
    const char *db = tmp_path("schema.db");
    kb *k = fixture_kb(db);
    gw_buf report = GW_BUF_INIT;
    gw_error err = {0};
    assert_int_equal(kb_check(k, &report, &err), GW_OK);
    assert_null(strstr(report.data, "problem"));
    buf_free(&report);
    kb_close(k);

    sqlite3 *raw;
    assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "ALTER TABLE gpu ADD COLUMN colour TEXT", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(raw);
    assert_int_equal(kb_open(db, KB_READ, &k, &err), GW_OK);
    assert_int_equal(kb_check(k, &report, &err), GW_EDATA);
    assert_non_null(strstr(report.data,
                           "problem: gpu.colour: in the schema but not in the description\n"));
    assert_string_equal(err.msg + strlen(err.msg) - strlen("1 problem found"), "1 problem found");
    buf_free(&report);
    kb_close(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema_create_and_reopen),
        cmocka_unit_test(test_migration_from_v1),
        cmocka_unit_test(test_migration_from_v2),
        cmocka_unit_test(test_migration_prices_to_v4),
        cmocka_unit_test(test_migration_links_to_v6),
        cmocka_unit_test(test_newer_schema_refused),
        cmocka_unit_test(test_foreign_files_refused_unchanged),
        cmocka_unit_test(test_validation_messages),
        cmocka_unit_test(test_reads_and_convert),
        cmocka_unit_test(test_benchmarks_kept_until_a_write),
        cmocka_unit_test(test_rows_in_sql_order),
        cmocka_unit_test(test_resolve_forms),
        cmocka_unit_test(test_resolve_ambiguous_and_unknown),
        cmocka_unit_test(test_resolve_names_never_surprise),
        cmocka_unit_test(test_laptop_alias_on_desktop_card),
        cmocka_unit_test(test_filter_language),
        cmocka_unit_test(test_filter_hostile),
        cmocka_unit_test(test_filter_or_parentheses),
        cmocka_unit_test(test_list_derived_fields),
        cmocka_unit_test(test_derived_description),
        cmocka_unit_test(test_search_ranked_with_snippet),
        cmocka_unit_test(test_search_hostile),
        cmocka_unit_test(test_export_import_roundtrip),
        cmocka_unit_test(test_failed_import_changes_nothing),
        cmocka_unit_test(test_assumption_rules),
        cmocka_unit_test(test_busy),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_text_repair),
        cmocka_unit_test(test_one_description_per_table),
        cmocka_unit_test(test_row_check_without_kb),
        cmocka_unit_test(test_check_schema_against_description),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
