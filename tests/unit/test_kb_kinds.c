/* test_kb_kinds.c — schema version 10: the price kinds described once in the KB (read back in
 * rank order, every kind imported, a bad one refused naming them with the KB unchanged), the
 * rebuild of the price table that upgrades an older KB keeping every row, and a GPU's
 * discontinued date and peer-to-peer flag. */
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

#define FIX "tests/fixtures/kb/"

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char paths[4][512];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    return p;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/gwkinds.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[600];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Imports (name, text) pairs in one transaction, as `kb import` does; rolls back on failure. */
static int import_texts(kb *k, size_t n, const char *const *names, const char *const *texts,
                        kb_import_counts *counts, gw_error *err)
{
    size_t lens[8];
    for (size_t i = 0; i < n; i++)
        lens[i] = strlen(texts[i]);
    int rc = kb_begin(k, err);
    if (rc != GW_OK)
        return rc;
    rc = kb_import_texts(k, n, names, texts, lens, counts, err);
    if (rc == GW_OK)
        return kb_commit(k, err);
    kb_rollback(k);
    return rc;
}

static const char sources_csv[] =
    "id,title,publisher,url,retrieved,kind,note\n"
    "acme-prices,Acme price list,Acme,,2026-11-30,price-list,\n"
    "ga102-wp,NVIDIA Ampere GA102 GPU Architecture,NVIDIA,,2026-11-30,whitepaper,\n";
static const char gpus_csv[] =
    "id,name,vendor,memory_gb,source,discontinued,p2p\n"
    "rtx-3090,GeForce RTX 3090,NVIDIA,24,ga102-wp,2022-12,0\n"
    "a100-pcie-80gb,A100 PCIe 80GB,NVIDIA,80,ga102-wp,,1\n"
    "rtx-a6000,RTX A6000,NVIDIA,48,ga102-wp,,\n";

/* A new KB with two sources and three GPUs. */
static kb *small_kb(const char *path)
{
    kb *k;
    gw_error err = {0};
    unlink(path);
    assert_int_equal(kb_open(path, KB_CREATE, &k, &err), GW_OK);
    const char *names[] = {"sources.csv", "gpus.csv"}, *texts[] = {sources_csv, gpus_csv};
    if (import_texts(k, 2, names, texts, NULL, &err) != GW_OK)
        fail_msg("%s", err.msg);
    return k;
}

static long long count_of(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    long long n = -1;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* ---- the kinds, from the KB ---- */

static void test_price_kinds_in_rank_order(void **state)
{
    (void)state;
    kb *k = small_kb(tmp_path("kinds.db"));
    gw_error err = {0};
    kb_price_kind *kinds;
    size_t n;
    assert_int_equal(kb_price_kinds(k, &kinds, &n, &err), GW_OK);
    /* kb/schema.sql version 10 seeds six, best first */
    static const char *const want[] = {"list", "quote", "market", "from", "anecdote", "launch"};
    assert_int_equal(n, 6);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(kinds[i].id, want[i]);
        assert_int_equal(kinds[i].rank, (int)i + 1);
        assert_true(kinds[i].meaning && *kinds[i].meaning);
    }
    assert_non_null(strstr(kinds[3].meaning, "lower bound"));   /* a "from" figure */
    assert_int_equal(kb_price_kind_rank(kinds, n, "launch"), 6);
    assert_int_equal(kb_price_kind_rank(kinds, n, "quote"), 2);
    assert_int_equal(kb_price_kind_rank(kinds, n, "rumour"), 0);
    assert_int_equal(kb_price_kind_rank(kinds, n, NULL), 0);
    kb_price_kinds_free(kinds, n);
    kb_close(k);
}

/* Every kind is taken, read back as written; the column reads from the KB's table alone. */
static void test_import_each_kind(void **state)
{
    (void)state;
    kb *k = small_kb(tmp_path("each.db"));
    gw_error err = {0};
    const char *names[] = {"prices.csv"};
    const char *texts[] = {
        "gpu,kind,amount,currency,unit,provider,as_of,source,quality\n"
        "rtx-3090,new,1499,USD,card,,2020-09,ga102-wp,launch\n"
        "rtx-3090,used,700,USD,card,,2026-05,ga102-wp,market\n"
        "rtx-3090,new,1600,USD,card,Shop,2026-05,acme-prices,quote\n"
        "rtx-3090,cloud,0.2,USD,hour,Market,2026-05,acme-prices,from\n"
        "rtx-3090,cloud,0.3,USD,hour,Acme,2026-05,acme-prices,list\n"
        "rtx-3090,new,1550,USD,card,Blog,2026-05,acme-prices,anecdote\n"
        "rtx-3090,new,1450,USD,card,,2026-06,acme-prices,\n"};
    kb_import_counts counts;
    assert_int_equal(import_texts(k, 1, names, texts, &counts, &err), GW_OK);
    assert_int_equal(counts.added[KB_PRICES], 7);
    kb_price *rows;
    size_t n;
    assert_int_equal(kb_prices_find(k, "rtx-3090", NULL, NULL, &rows, &n, &err), GW_OK);
    assert_int_equal(n, 7);
    int seen[7] = {0};   /* by rank; 0: unknown */
    kb_price_kind *kinds;
    size_t nk;
    assert_int_equal(kb_price_kinds(k, &kinds, &nk, &err), GW_OK);
    for (size_t i = 0; i < n; i++)
        seen[kb_price_kind_rank(kinds, nk, rows[i].quality)]++;
    for (int r = 0; r < 7; r++)
        assert_int_equal(seen[r], 1);
    kb_price_kinds_free(kinds, nk);
    kb_prices_free(rows, n);
    kb_close(k);
}

/* A kind the KB does not have: one line naming the file, line, column and the six kinds, and
 * the KB as it was (the good row before it in the same file is not stored either). */
static void test_bad_kind_refused(void **state)
{
    (void)state;
    const char *path = tmp_path("bad.db");
    kb *k = small_kb(path);
    gw_error err = {0};
    const char *names[] = {"prices.csv"};
    const char *texts[] = {"gpu,kind,amount,currency,unit,as_of,source,quality\n"
                           "rtx-3090,new,1499,USD,card,2020-09,ga102-wp,launch\n"
                           "rtx-3090,new,1499,USD,card,2020-09,ga102-wp,msrp\n"};
    assert_int_equal(import_texts(k, 1, names, texts, NULL, &err), GW_EDATA);
    assert_string_equal(err.msg, "prices.csv:3: quality: 'msrp' is not one of: list, quote, "
                                 "market, from, anecdote, launch");
    assert_null(strchr(err.msg, '\n'));
    kb_close(k);
    assert_int_equal(count_of(path, "SELECT count(*) FROM price"), 0);
    /* Nor can SQL write one past the check: the column references the kinds. */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "INSERT INTO price (gpu, kind, amount, currency, unit, "
                                      "as_of, source, quality) VALUES ('rtx-3090', 'new', 1, "
                                      "'USD', 'card', '2020-09', 'ga102-wp', 'msrp')",
                                  NULL, NULL, NULL),
                     SQLITE_CONSTRAINT);
    sqlite3_close(db);
    assert_int_equal(count_of(path, "SELECT count(*) FROM price"), 0);
}

/* ---- a GPU's discontinued date and peer-to-peer flag ---- */

static void test_discontinued_and_p2p(void **state)
{
    (void)state;
    kb *k = small_kb(tmp_path("p2p.db"));
    gw_error err = {0};
    kb_gpu g;
    assert_int_equal(kb_gpu_get(k, "rtx-3090", &g, &err), GW_OK);
    assert_string_equal(g.discontinued, "2022-12");
    assert_int_equal(g.p2p, 0);                  /* GeForce: the driver disables it */
    kb_gpu_free(&g);
    assert_int_equal(kb_gpu_get(k, "a100-pcie-80gb", &g, &err), GW_OK);
    assert_null(g.discontinued);
    assert_int_equal(g.p2p, 1);
    kb_gpu_free(&g);
    assert_int_equal(kb_gpu_get(k, "rtx-a6000", &g, &err), GW_OK);
    assert_int_equal(g.p2p, -1);                 /* empty: unknown, not 0 */
    assert_true(isnan(kb_column_number(kb_table_column(KB_GPUS, "p2p"), &g)));
    kb_gpu_free(&g);
    kb_gpu_init(&g);
    assert_int_equal(g.p2p, -1);
    /* the filter reads them like any column */
    kb_gpu *rows;
    size_t n;
    assert_int_equal(kb_gpu_list(k, "p2p = 0", NULL, &rows, &n, &err), GW_OK);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].id, "rtx-3090");
    kb_gpus_free(rows, n);

    const char *names[] = {"gpus.csv"};
    const char *bad_flag[] = {"id,name,vendor,source,p2p\nrtx-3080,RTX 3080,NVIDIA,ga102-wp,2\n"};
    assert_int_equal(import_texts(k, 1, names, bad_flag, NULL, &err), GW_EDATA);
    assert_string_equal(err.msg, "gpus.csv:2: p2p: must be 0 or 1");
    const char *bad_date[] = {
        "id,name,vendor,source,discontinued\nrtx-3080,RTX 3080,NVIDIA,ga102-wp,2022-13\n"};
    assert_int_equal(import_texts(k, 1, names, bad_date, NULL, &err), GW_EDATA);
    assert_string_equal(err.msg, "gpus.csv:2: discontinued: '2022-13' is not a date (YYYY-MM or "
                                 "YYYY-MM-DD)");
    kb_close(k);
}

/* ---- upgrading a version 9 KB ---- */

/* A KB as schema version 9 made it: kb/schema.sql's sections up to version 10. */
static void make_v9(const char *path)
{
    char *schema;
    size_t n;
    sqlite3 *db;
    unlink(path);
    assert_int_equal(gw_read_file("kb/schema.sql", &schema, &n), 0);
    char *cut = strstr(schema, "\n-- version 10\n");
    assert_non_null(cut);
    cut[1] = '\0';
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, schema, NULL, NULL, NULL), SQLITE_OK);
    free(schema);
    assert_int_equal(sqlite3_exec(db,
        "INSERT INTO source VALUES ('acme-prices', 'Acme price list', 'Acme', NULL, '2026-11-30',"
        " 'price-list', NULL);"
        "INSERT INTO source VALUES ('ga102-wp', 'GA102 whitepaper', 'NVIDIA', NULL, '2026-11-30',"
        " 'whitepaper', NULL);"
        "INSERT INTO gpu (id, name, vendor, source) VALUES ('a100-sxm4-80gb', 'A100 SXM4 80GB',"
        " 'NVIDIA', 'ga102-wp');"
        "INSERT INTO system (id, name, gpu, gpu_count, source) VALUES ('dgx-a100', 'DGX A100',"
        " 'a100-sxm4-80gb', 8, 'ga102-wp');"
        "INSERT INTO price (id, gpu, kind, amount, currency, unit, gpu_count, provider, instance,"
        " spot, as_of, source, note, quality, gpu_fraction, min_billing_hours, network_gbps)"
        " VALUES (7, 'a100-sxm4-80gb', 'cloud', 0.3, 'USD', 'hour', 1, 'Acme', '1g', 1,"
        " '2026-01', 'acme-prices', 'a MIG slice', 'list', 0.142857, 4, 100);"
        "INSERT INTO price (id, gpu, kind, amount, currency, unit, gpu_count, as_of, source,"
        " quality, system) VALUES (9, 'a100-sxm4-80gb', 'new', 200000, 'USD', 'card', 8,"
        " '2024-08', 'acme-prices', 'quote', 'dgx-a100');"
        "INSERT INTO price (id, gpu, kind, amount, currency, unit, region, as_of, source, note,"
        " quality) VALUES (12, 'a100-sxm4-80gb', 'used', 60000, 'CNY', 'card', 'CN', '2026-01',"
        " 'ga102-wp', 'zephyr street price', 'anecdote');"
        "INSERT INTO price (id, gpu, kind, amount, currency, unit, as_of, source)"
        " VALUES (13, 'a100-sxm4-80gb', 'new', 15000, 'USD', 'card', '2020-06', 'ga102-wp');"
        "PRAGMA application_id = 1196447063; PRAGMA user_version = 9;",
        NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* Every column of every price row, in id order, as one text. */
static const char every_price[] =
    "SELECT group_concat(quote(id) || quote(gpu) || quote(kind) || quote(amount) || "
    "quote(currency) || quote(unit) || quote(gpu_count) || quote(region) || quote(provider) || "
    "quote(instance) || quote(spot) || quote(as_of) || quote(source) || quote(note) || "
    "quote(quality) || quote(gpu_fraction) || quote(min_billing_hours) || quote(system) || "
    "quote(network_gbps), '|') FROM (SELECT * FROM price ORDER BY id)";

static char *text_of(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    char *out = NULL;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        out = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

/* The rebuild keeps every row and column (the old qualities as they were, an unknown one
 * unknown), the ids and so the search entries, the indexes and the triggers. */
static void test_upgrade_from_v9_keeps_prices(void **state)
{
    (void)state;
    const char *path = tmp_path("v9.db");
    make_v9(path);
    char *before = text_of(path, every_price);
    assert_non_null(before);
    assert_int_equal(count_of(path, "SELECT count(*) FROM price"), 4);

    kb *k;
    gw_error err = {0};
    assert_int_equal(kb_open(path, KB_WRITE, &k, &err), GW_OK);
    assert_int_equal(kb_schema_version(k), kb_schema_latest());   /* every later version too */
    kb_close(k);
    char *after = text_of(path, every_price);
    assert_string_equal(after, before);
    free(before);
    free(after);
    /* list, quote, anecdote and unknown kept: 1 + 1 + 1 (+ 1 NULL) */
    assert_int_equal(count_of(path, "SELECT count(*) FROM price WHERE quality IN "
                                    "('list', 'quote', 'anecdote')"), 3);
    assert_int_equal(count_of(path, "SELECT count(*) FROM price WHERE quality IS NULL"), 1);
    /* the five indexes of versions 1, 2 and 9 (version 14 widens price_identity) and version
     * 14's price_key: 6; and two triggers, a system's GPU and count and the search index's
     * delete (its insert is made by each writing connection since version 18) */
    assert_int_equal(count_of(path, "SELECT count(*) FROM sqlite_master WHERE tbl_name = "
                                    "'price' AND type = 'index' AND sql IS NOT NULL"), 6);
    assert_int_equal(count_of(path, "SELECT count(*) FROM sqlite_master WHERE tbl_name = "
                                    "'price' AND type = 'trigger'"), 2);
    assert_int_equal(count_of(path, "SELECT count(*) FROM price_kind"), 6);

    assert_int_equal(kb_open(path, KB_WRITE, &k, &err), GW_OK);
    gw_buf report = GW_BUF_INIT;
    assert_int_equal(kb_check(k, &report, &err), GW_OK);
    /* the search entries: 2 sources + 1 GPU + 1 system + 4 prices = 8 */
    assert_non_null(strstr(report.data, "ok: search index (8 entries)"));
    buf_free(&report);
    kb_hit *hits;
    size_t n;
    assert_int_equal(kb_search(k, "zephyr", 5, &hits, &n, &err), GW_OK);
    assert_int_equal(n, 1);
    assert_string_equal(hits[0].ref, "12");
    kb_hits_free(hits, n);
    /* the rebuilt table takes the new kinds, and still holds a system's price to its count */
    const char *names[] = {"prices.csv"};
    const char *ok[] = {"gpu,kind,amount,currency,unit,as_of,source,quality\n"
                        "a100-sxm4-80gb,new,10000,USD,card,2020-05,ga102-wp,launch\n"};
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_import_text(k, names[0], ok[0], strlen(ok[0]), &err), GW_OK);
    const char *wrong_count = "gpu,kind,amount,currency,unit,gpu_count,as_of,source,system\n"
                              "a100-sxm4-80gb,new,1,USD,card,4,2024-08,ga102-wp,dgx-a100\n";
    assert_int_not_equal(kb_import_text(k, names[0], wrong_count, strlen(wrong_count), &err),
                         GW_OK);
    assert_non_null(strstr(err.msg, "must have the system's gpu and gpu_count"));
    kb_rollback(k);
    kb_close(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_price_kinds_in_rank_order),
        cmocka_unit_test(test_import_each_kind),
        cmocka_unit_test(test_bad_kind_refused),
        cmocka_unit_test(test_discontinued_and_p2p),
        cmocka_unit_test(test_upgrade_from_v9_keeps_prices),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
