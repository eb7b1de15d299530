/* test_records.c — what plugins hand back: `plugin check` (a dry run of records_store_*) and
 * `kb import --with` (records_import_file) accept exactly the same records, because both check
 * them against the KB's one description of its columns; the messages name the plugin, the record
 * and the field; offers replace their provider's earlier offers; batches count records across
 * the file; plugin folders are searched in order. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/error.h"
#include "kb/kb.h"
#include "ingest/records.h"
#include "base/view.h"
#include "base/clock.h"

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

static void write_text(const char *path, const char *text)
{
    assert_int_equal(gw_write_file_atomic(path, text, strlen(text)), 0);
}

/* An importer that returns the records its input holds as JSON (a list of tables), and a
 * batched one that reads "kind,gpu,workload,metric,value,unit" CSV and says each record's line. */
static const char probe_lua[] =
    "return {\n"
    "  name = 'probe', kind = 'importer', version = '1.0',\n"
    "  description = 'Records written as JSON',\n"
    "  import = function(ctx, text)\n"
    "    if text == '' then return {} end\n"
    "    return assert(gw.json.decode(text))\n"
    "  end,\n"
    "}\n";
static const char batched_lua[] =
    "return {\n"
    "  name = 'batched', kind = 'importer', version = '1.0', batch_rows = 2,\n"
    "  description = 'Benchmarks from CSV, two at a time',\n"
    "  import = function(ctx, text)\n"
    "    local out = {}\n"
    "    for i, r in ipairs(gw.csv.rows(text)) do\n"
    "      gw.log('call from line ' .. ctx.first_line)\n"
    "      out[#out + 1] = {kind = r.kind, gpu = r.gpu, workload = r.workload,\n"
    "        metric = r.metric, value = tonumber(r.value), unit = r.unit,\n"
    "        line = ctx.first_line + i - 1}\n"
    "    end\n"
    "    return out\n"
    "  end,\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/gwrec.XXXXXX", base);
    if (!mkdtemp(tmpdir))
        return -1;
    mkdir(tmp_path("plugins"), 0755);
    mkdir(tmp_path("plugins/importers"), 0755);
    mkdir(tmp_path("config"), 0755);
    mkdir(tmp_path("config/plugins"), 0755);
    mkdir(tmp_path("config/plugins/importers"), 0755);
    write_text(tmp_path("plugins/importers/probe.lua"), probe_lua);
    write_text(tmp_path("plugins/importers/batched.lua"), batched_lua);
    return 0;
}

static int teardown(void **state)
{
    char cmd[600];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A fresh KB with the fixtures of tests/fixtures/kb, at path (closed). */
static void fixture_kb(const char *path)
{
    static const char *const files[] = {FIX "sources.csv", FIX "gpus.csv", FIX "aliases.csv",
                                        FIX "rates.csv"};
    char *texts[4];
    size_t lens[4];
    kb *k;
    gw_error err = {0};
    unlink(path);
    assert_int_equal(kb_open(path, KB_CREATE, &k, &err), GW_OK);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(gw_read_file(files[i], &texts[i], &lens[i]), 0);
    assert_int_equal(kb_begin(k, &err), GW_OK);
    if (kb_import_texts(k, 4, files, (const char *const *)texts, lens, NULL, &err) != GW_OK)
        fail_msg("fixture import: %s", err.msg);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    for (size_t i = 0; i < 4; i++)
        free(texts[i]);
    kb_close(k);
}

static plugin_host *host_over(kb *k)
{
    const char *dirs[] = {tmp_path("plugins")};
    records_dirs d = {dirs, 1, NULL, NULL};
    plugin_host *h = NULL;
    gw_error err = {0};
    if (records_host_open_in(&d, k, &h, &err) != GW_OK)
        fail_msg("host: %s", err.msg);
    return h;
}

/* What `gpuwise plugin check probe.lua --input FILE` does: the importer runs on the text in a
 * host over a read-only KB and its records are stored in a dry run.  1 when every record is
 * accepted; the warnings go to warnings. */
static int plugin_check_accepts(const char *db, const char *json, gw_buf *warnings)
{
    kb *k;
    gw_error err = {0};
    if (kb_open(db, KB_READ, &k, &err) != GW_OK)
        fail_msg("%s", err.msg);
    plugin_host *h = host_over(k);
    plugin *p = plugin_find_kind(h, "probe", "importer");
    assert_non_null(p);
    view *args[2] = {view_map(), view_string(json)};
    view *out = NULL;
    assert_int_equal(plugin_call(p, "import", args, 2, &out, &err), GW_OK);
    records_result res = {0};
    int rc = records_store_imported(k, "probe", NULL, out, 1, warnings, &res, &err);
    view_free(out);
    view_free(args[0]);
    view_free(args[1]);
    plugin_host_free(h);
    kb_close(k);
    return rc == GW_OK && res.skipped == 0;
}

/* What `gpuwise kb import --with probe FILE` does, rolled back afterwards.  1 when it worked. */
static int kb_import_accepts(const char *db, const char *json, gw_buf *messages)
{
    kb *k;
    gw_error err = {0};
    kb_import_counts counts;
    if (kb_open(db, KB_WRITE, &k, &err) != GW_OK)
        fail_msg("%s", err.msg);
    plugin_host *h = host_over(k);
    assert_int_equal(kb_begin(k, &err), GW_OK);
    int rc = records_import_file(k, h, "probe", "records.json", json, strlen(json), NULL, NULL,
                                 messages, &counts, &err);
    if (rc != GW_OK)
        buf_printf(messages, "error: %s\n", err.msg);
    kb_rollback(k);
    plugin_host_free(h);
    kb_close(k);
    return rc == GW_OK;
}

typedef struct agreement_case {
    const char *what;
    const char *json;
    int accepted;
    const char *message;   /* in the dry run's warnings when refused */
} agreement_case;

#define GPU_FIELDS "\"kind\": \"gpu\", \"id\": \"test-gpu\", \"name\": \"Test GPU\", "

static const agreement_case cases[] = {
    {"a complete GPU",
     "[{" GPU_FIELDS "\"vendor\": \"NVIDIA\", \"memory_gb\": 24, \"ecc\": true}]", 1, NULL},
    /* the bug of issue 12: the record contract said vendor was optional, the KB requires it */
    {"a GPU without vendor", "[{" GPU_FIELDS "\"memory_gb\": 24}]", 0,
     "probe: records[1].vendor: missing (required)"},
    {"a bad date", "[{" GPU_FIELDS "\"vendor\": \"NVIDIA\", \"release_date\": \"2020-13\"}]", 0,
     "probe: records[1].release_date: '2020-13' is not a date (YYYY-MM or YYYY-MM-DD)"},
    {"a bad id", "[{\"kind\": \"gpu\", \"id\": \"Test GPU\", \"name\": \"Test GPU\", "
                 "\"vendor\": \"NVIDIA\"}]", 0,
     "probe: records[1].id: 'Test GPU' is not an id"},
    {"memory of 0 GB (memory_gb must be > 0)",
     "[{" GPU_FIELDS "\"vendor\": \"NVIDIA\", \"memory_gb\": 0}]", 0,
     "probe: records[1].memory_gb: expected a number greater than 0, got 0"},
    {"a negative TFLOPS figure",
     "[{" GPU_FIELDS "\"vendor\": \"NVIDIA\", \"fp32_tflops\": -1}]", 0,
     "probe: records[1].fp32_tflops: must not be negative, got -1"},
    {"sparsity not 2:4", "[{" GPU_FIELDS "\"vendor\": \"NVIDIA\", \"sparsity\": \"4:8\"}]", 0,
     "probe: records[1].sparsity: '4:8' is not one of: 2:4"},
    {"an unknown field", "[{" GPU_FIELDS "\"vendor\": \"NVIDIA\", \"colour\": \"green\"}]", 0,
     "probe: records[1].colour: unknown field"},
    {"an empty alias", "[{" GPU_FIELDS "\"vendor\": \"NVIDIA\", \"aliases\": [\"TG\", \"\"]}]",
     0, "probe: records[1].aliases: '': missing (required)"},
    {"a benchmark of a GPU the same import adds",
     "[{\"kind\": \"benchmark\", \"gpu\": \"test-gpu\", \"workload\": \"w\", \"metric\": \"m\", "
     "\"value\": 2, \"unit\": \"u\"}, {" GPU_FIELDS "\"vendor\": \"NVIDIA\"}]", 1, NULL},
    {"a benchmark value of 0",
     "[{\"kind\": \"benchmark\", \"gpu\": \"RTX 3090\", \"workload\": \"w\", \"metric\": \"m\", "
     "\"value\": 0, \"unit\": \"u\"}]", 0,
     "probe: records[1].value: expected a number greater than 0, got 0"},
    {"a precision the KB does not know",
     "[{\"kind\": \"benchmark\", \"gpu\": \"RTX 3090\", \"workload\": \"w\", \"metric\": \"m\", "
     "\"value\": 2, \"unit\": \"u\", \"precision\": \"fp128\"}]", 0,
     "probe: records[1].precision: 'fp128' is not one of: fp32, fp16"},
    {"a price without its date",
     "[{\"kind\": \"price\", \"gpu\": \"a10\", \"price_kind\": \"new\", \"amount\": 3000, "
     "\"currency\": \"USD\"}]", 0, "probe: records[1].as_of: missing (required)"},
    {"a complete price",
     "[{\"kind\": \"price\", \"gpu\": \"4x A10\", \"price_kind\": \"cloud\", \"amount\": 3, "
     "\"currency\": \"USD\", \"as_of\": \"2026-01\", \"spot\": true}]", 1, NULL},
    {"an unknown source",
     "[{" GPU_FIELDS "\"vendor\": \"NVIDIA\", \"source\": \"nowhere\"}]", 0,
     "probe: records[1].source: unknown source 'nowhere'"},
};

static void test_check_and_import_agree(void **state)
{
    (void)state;
    char db[512];
    snprintf(db, sizeof db, "%s", tmp_path("agree.db"));
    fixture_kb(db);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gw_buf checked = GW_BUF_INIT, imported = GW_BUF_INIT;
        int check_ok = plugin_check_accepts(db, cases[i].json, &checked);
        int import_ok = kb_import_accepts(db, cases[i].json, &imported);
        if (check_ok != cases[i].accepted || import_ok != cases[i].accepted)
            fail_msg("%s: plugin check %s, kb import %s (expected %s)\n  check: %s\n  import: %s",
                     cases[i].what, check_ok ? "accepts" : "refuses",
                     import_ok ? "accepts" : "refuses", cases[i].accepted ? "both accept"
                     : "both refuse", buf_cstr(&checked), buf_cstr(&imported));
        if (cases[i].message && !strstr(buf_cstr(&checked), cases[i].message))
            fail_msg("%s: expected '%s' in: %s", cases[i].what, cases[i].message,
                     buf_cstr(&checked));
        /* one check, one wording: the import says what the check said */
        if (cases[i].message)
            assert_non_null(strstr(buf_cstr(&imported), buf_cstr(&checked)));
        buf_free(&checked);
        buf_free(&imported);
    }
}

/* The same GPU as a row of gpus.csv meets the same rule: vendor is required everywhere. */
static void test_csv_rows_follow_the_same_description(void **state)
{
    (void)state;
    char db[512];
    snprintf(db, sizeof db, "%s", tmp_path("csv.db"));
    fixture_kb(db);
    kb *k;
    gw_error err = {0};
    assert_int_equal(kb_open(db, KB_WRITE, &k, &err), GW_OK);
    const char *csv = "id,name,vendor,source\ntest-gpu,Test GPU,,ga102-wp\n";
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(kb_import_text(k, "gpus.csv", csv, strlen(csv), &err), GW_EDATA);
    assert_string_equal(err.msg, "gpus.csv:2: vendor: missing (required)");
    kb_rollback(k);
    kb_close(k);
}

/* The batched importer: 5 records, 2 per call, so 3 calls starting at lines 2, 4 and 6; the
 * third record (line 4) names no GPU the KB knows, and its warning counts it as records[3]. */
static int progress_calls, batch_calls, finished_ok;

static void count_progress(const records_progress *p, void *arg)
{
    (void)arg;
    progress_calls++;
    if (p->stage == RECORDS_BATCH_DONE)
        batch_calls++;
    if (p->stage == RECORDS_FINISHED)
        finished_ok = p->ok;
}

static void test_batches_count_across_the_file(void **state)
{
    (void)state;
    char db[512];
    snprintf(db, sizeof db, "%s", tmp_path("batch.db"));
    fixture_kb(db);
    kb *k;
    gw_error err = {0};
    assert_int_equal(kb_open(db, KB_WRITE, &k, &err), GW_OK);
    plugin_host *h = host_over(k);
    const char *csv = "kind,gpu,workload,metric,value,unit\n"
                      "benchmark,RTX 3090,w,m,1,u\n"
                      "benchmark,A10,w,m,2,u\n"
                      "benchmark,Voodoo 5,w,m,3,u\n"
                      "benchmark,L40S,w,m,4,u\n"
                      "benchmark,H100 NVL,w,m,5,u\n";
    gw_buf messages = GW_BUF_INIT;
    kb_import_counts counts;
    memset(&counts, 0, sizeof counts);
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(records_import_file(k, h, "batched", "bench.csv", csv, strlen(csv),
                                         count_progress, NULL, &messages, &counts, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "batched: 1 bad record (see the lines above)");
    kb_rollback(k);
    assert_int_equal(batch_calls, 3);
    assert_int_equal(progress_calls, 4);   /* 3 batches, then finished */
    assert_int_equal(finished_ok, 1);      /* the calls worked; a record was bad */
    /* the log lines first (one per record: 2 + 2 + 1), then the warning */
    const char *m = buf_cstr(&messages);
    assert_non_null(strstr(m, "batched: log: call from line 2\nbatched: log: call from line 2\n"
                              "batched: log: call from line 4\n"));
    assert_non_null(strstr(m, "batched: log: call from line 6\nbatched: records[3].gpu: no GPU "
                              "named 'Voodoo 5'"));
    assert_non_null(strstr(m, "(line 4)\n"));

    /* without the bad record: 4 benchmarks and the plugin's source are added */
    buf_reset(&messages);
    const char *good = "kind,gpu,workload,metric,value,unit\n"
                       "benchmark,RTX 3090,w,m,1,u\n"
                       "benchmark,8x A10,w,m,2,u\n"
                       "benchmark,L40S,w,m,4,u\n"
                       "benchmark,H100 NVL,w,m,5,u\n";
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(records_import_file(k, h, "batched", "dir/bench.csv", good, strlen(good),
                                         NULL, NULL, &messages, &counts, &err), GW_OK);
    assert_int_equal(counts.added[KB_BENCHMARKS], 4);
    assert_int_equal(counts.added[KB_SOURCES], 1);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    /* "8x A10": the count in the name is the gpu_count */
    kb_benchmark *rows;
    size_t n;
    assert_int_equal(kb_benchmarks_find(k, "a10", "w", &rows, &n, &err), GW_OK);
    assert_int_equal(n, 1);
    assert_true(rows[0].gpu_count == 8);
    assert_true(rows[0].value == 2);
    /* the source made for the plugin and the file: slug of the name, then of the file's */
    assert_string_equal(rows[0].source, "plugin-batched-bench-csv");
    kb_benchmarks_free(rows, n);
    kb_source s;
    assert_int_equal(kb_source_get(k, "plugin-batched-bench-csv", &s, &err), GW_OK);
    assert_string_equal(s.title, "Benchmarks from CSV, two at a time (bench.csv)");
    assert_string_equal(s.kind, "plugin");
    kb_source_free(&s);
    buf_free(&messages);
    plugin_host_free(h);
    kb_close(k);
}

static void test_import_names_a_missing_importer(void **state)
{
    (void)state;
    char db[512];
    snprintf(db, sizeof db, "%s", tmp_path("missing.db"));
    fixture_kb(db);
    kb *k;
    gw_error err = {0};
    assert_int_equal(kb_open(db, KB_WRITE, &k, &err), GW_OK);
    plugin_host *h = host_over(k);
    gw_buf messages = GW_BUF_INIT;
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(records_import_file(k, h, "nosuch", "x.csv", "", 0, NULL, NULL, &messages,
                                         NULL, &err), GW_ENOTFOUND);
    assert_string_equal(err.msg, "no importer plugin 'nosuch' (see gpuwise plugin list)");
    kb_rollback(k);
    buf_free(&messages);
    plugin_host_free(h);
    kb_close(k);
}

/* Offers: checked in the pricing plugins' words, dated today when they say nothing, and each
 * refresh replaces the provider's earlier offers from the same source. */
static view *offers_from(const char *json)
{
    gw_error err = {0};
    view *v = view_from_json(json, strlen(json), &err);
    if (!v)
        fail_msg("json: %s", err.msg);
    return v;
}

static size_t offers_of(kb *k, const char *provider)
{
    kb_price *rows;
    size_t n;
    gw_error err = {0};
    assert_int_equal(kb_prices_find(k, NULL, "cloud", provider, &rows, &n, &err), GW_OK);
    kb_prices_free(rows, n);
    return n;
}

static void test_offers(void **state)
{
    (void)state;
    char db[512];
    snprintf(db, sizeof db, "%s", tmp_path("offers.db"));
    fixture_kb(db);
    kb *k;
    gw_error err = {0};
    assert_int_equal(kb_open(db, KB_WRITE, &k, &err), GW_OK);

    view *bad = offers_from(
        "[{\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": \"1.5\", "
        "\"currency\": \"USD\"},"
        " {\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": -1, "
        "\"currency\": \"USD\"},"
        " {\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 1, \"currency\": \"USD\", "
        "\"gpu_count\": 1.5},"
        " {\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 1, \"currency\": \"usd\"},"
        " {\"gpu\": \"A10\", \"price_per_hour\": 1, \"currency\": \"USD\"},"
        " {\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 1, \"currency\": \"USD\", "
        "\"as_of\": \"\"},"
        " {\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 1, \"currency\": \"USD\", "
        "\"unit\": \"hour\"},"
        " {\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 1, \"currency\": \"USD\", "
        "\"quality\": \"rumour\"}]");
    gw_buf w = GW_BUF_INIT;
    records_result res = {0};
    assert_int_equal(records_store_offers(k, "acme", NULL, bad, 1, &w, &res, &err), GW_OK);
    assert_int_equal(res.skipped, 8);
    assert_int_equal(res.stored, 0);
    assert_string_equal(buf_cstr(&w),
        "acme: offers[1].price_per_hour: expected a number, got the text '1.5'\n"
        "acme: offers[2].price_per_hour: expected a number greater than 0, got -1\n"
        /* the gpu_count column's own rule (kb_table.c), as CSV rows and importers have it */
        "acme: offers[3].gpu_count: expected a whole number of GPUs from 1 to 1024, got 1.5\n"
        "acme: offers[4].currency: 'usd' is not a currency code (three upper-case letters, "
        "e.g. USD)\n"
        "acme: offers[5].provider: missing (required)\n"
        "acme: offers[6]: as_of: missing (required)\n"
        "acme: offers[7].unit: unknown field\n"
        /* the KB's price kinds, best first (kb/schema.sql version 10) */
        "acme: offers[8].quality: 'rumour' is not one of: list, quote, market, from, anecdote, "
        "launch\n");
    view_free(bad);

    /* two refreshes of the same provider from the same source: the second replaces the first */
    view *two = offers_from(
        "[{\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 1, \"currency\": \"USD\"},"
        " {\"provider\": \"Acme\", \"gpu\": \"8xH100 NVL\", \"price_per_hour\": 20, "
        "\"currency\": \"USD\", \"spot\": true}]");
    /* an offer's terms: a reseller's quote for half a card, billed for at least 24 h */
    view *one = offers_from(
        "[{\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 0.9, "
        "\"currency\": \"USD\", \"quality\": \"quote\", \"gpu_fraction\": 0.5, "
        "\"min_billing_hours\": 24}]");
    buf_reset(&w);
    memset(&res, 0, sizeof res);
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(records_store_offers(k, "acme", "ga102-wp", two, 0, &w, &res, &err), GW_OK);
    assert_int_equal(res.stored, 2);
    assert_int_equal(res.per_table[KB_PRICES], 2);
    assert_int_equal(offers_of(k, "Acme"), 2);
    memset(&res, 0, sizeof res);
    assert_int_equal(records_store_offers(k, "acme", "ga102-wp", one, 0, &w, &res, &err), GW_OK);
    assert_int_equal(res.stored, 1);
    assert_int_equal(res.replaced, 2);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    assert_string_equal(buf_cstr(&w), "");
    kb_price *rows;
    size_t n;
    assert_int_equal(kb_prices_find(k, "a10", "cloud", "Acme", &rows, &n, &err), GW_OK);
    assert_int_equal(n, 1);
    assert_true(rows[0].amount == 0.9);
    assert_string_equal(rows[0].unit, "hour");
    assert_int_equal(rows[0].spot, 0);
    assert_string_equal(rows[0].quality, "quote");
    assert_true(rows[0].gpu_fraction == 0.5);
    assert_true(rows[0].min_billing_hours == 24);
    char today[11];
    gw_today_date(today);
    assert_string_equal(rows[0].as_of, today);
    kb_prices_free(rows, n);
    view_free(two);
    view_free(one);
    buf_free(&w);
    kb_close(k);
}

/* A refresh finds each earlier offer by its identity (GPU, kind, spot, count, fraction, region,
 * provider, instance, as_of, source): the same offers again change nothing, an offer with a new
 * price updates its row (which keeps its id), and the earlier offers no offer matched go. */
static void refresh(kb *k, const char *json, records_result *res)
{
    gw_error err = {0};
    gw_buf w = GW_BUF_INIT;
    view *offers = offers_from(json);
    memset(res, 0, sizeof *res);
    assert_int_equal(kb_begin(k, &err), GW_OK);
    assert_int_equal(records_store_offers(k, "acme", "ga102-wp", offers, 0, &w, res, &err), GW_OK);
    assert_int_equal(kb_commit(k, &err), GW_OK);
    assert_string_equal(buf_cstr(&w), "");
    buf_free(&w);
    view_free(offers);
}

/* "added,updated,unchanged,removed" of a refresh's prices */
static const char *price_counts(const records_result *res, char *out, size_t outsz)
{
    snprintf(out, outsz, "%zu,%zu,%zu,%zu", res->outcome.added[KB_PRICES],
             res->outcome.updated[KB_PRICES], res->outcome.unchanged[KB_PRICES],
             res->outcome.removed[KB_PRICES]);
    return out;
}

static void test_offers_by_identity(void **state)
{
    (void)state;
    char db[512], counts[80];
    snprintf(db, sizeof db, "%s", tmp_path("identity.db"));
    fixture_kb(db);
    kb *k;
    gw_error err = {0};
    assert_int_equal(kb_open(db, KB_WRITE, &k, &err), GW_OK);
    const char *first =
        "[{\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 1, \"currency\": \"USD\", "
        "\"instance\": \"a10.small\", \"as_of\": \"2026-11-01\"},"
        " {\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 2, \"currency\": \"USD\", "
        "\"instance\": \"a10.small\", \"as_of\": \"2026-11-01\"},"
        " {\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 3, \"currency\": \"USD\", "
        "\"instance\": \"a10.large\", \"as_of\": \"2026-11-01\"}]";
    records_result res;
    /* a10.small twice (the two ends of a range: one identity), a10.large once: 3 new rows */
    refresh(k, first, &res);
    assert_string_equal(price_counts(&res, counts, sizeof counts), "3,0,0,0");
    kb_price *rows;
    size_t n;
    assert_int_equal(kb_prices_find(k, "a10", "cloud", "Acme", &rows, &n, &err), GW_OK);
    assert_int_equal(n, 3);
    long long large_id = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].instance, "a10.large"))
            large_id = rows[i].id;
    kb_prices_free(rows, n);
    /* the same three again: each finds its own row, two of them sharing an identity */
    refresh(k, first, &res);
    assert_string_equal(price_counts(&res, counts, sizeof counts), "0,0,3,0");
    assert_int_equal(res.replaced, 0);
    /* a10.large at 3.5 (same identity: updated), the range's low end alone (unchanged), its high
     * end gone (removed) */
    refresh(k,
            "[{\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 1, "
            "\"currency\": \"USD\", \"instance\": \"a10.small\", \"as_of\": \"2026-11-01\"},"
            " {\"provider\": \"Acme\", \"gpu\": \"A10\", \"price_per_hour\": 3.5, "
            "\"currency\": \"USD\", \"instance\": \"a10.large\", \"as_of\": \"2026-11-01\"}]",
            &res);
    assert_string_equal(price_counts(&res, counts, sizeof counts), "0,1,1,1");
    assert_int_equal(res.replaced, 1);
    assert_int_equal(kb_prices_find(k, "a10", "cloud", "Acme", &rows, &n, &err), GW_OK);
    assert_int_equal(n, 2);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].instance, "a10.large")) {
            assert_true(rows[i].amount == 3.5);
            assert_int_equal(rows[i].id, large_id);   /* updated in place */
        } else {
            assert_true(rows[i].amount == 1);
        }
    kb_prices_free(rows, n);
    kb_close(k);
}

/* Folders are searched in order: a --plugins folder first, then the user's config folder; the
 * data folder's plugins/ last.  The probe in the config folder is hidden by the one given. */
static void test_host_folders_in_order(void **state)
{
    (void)state;
    write_text(tmp_path("config/plugins/importers/probe.lua"),
               "return {name = 'probe', kind = 'importer', version = '9', description = 'mine',"
               " import = function() return {} end}\n");
    write_text(tmp_path("config/plugins/importers/only-mine.lua"),
               "return {name = 'only-mine', kind = 'importer', version = '1', description = 'x',"
               " import = function() return {} end}\n");
    const char *dirs[] = {tmp_path("plugins")};
    records_dirs d = {dirs, 1, tmp_path("config"), tmp_path("no-such-data")};
    plugin_host *h = NULL;
    gw_error err = {0};
    assert_int_equal(records_host_open_in(&d, NULL, &h, &err), GW_OK);
    plugin_info info;
    plugin_get_info(plugin_find_kind(h, "probe", "importer"), &info);
    assert_string_equal(info.version, "1.0");
    assert_non_null(plugin_find_kind(h, "only-mine", "importer"));
    plugin_host_free(h);

    /* the host that loads nothing yet */
    records_dirs none = {NULL, 0, "", NULL};
    assert_int_equal(records_host_new_in(&none, NULL, &h, &err), GW_OK);
    assert_int_equal(plugin_count(h), 0);
    plugin_host_free(h);
    unlink(tmp_path("config/plugins/importers/probe.lua"));
    unlink(tmp_path("config/plugins/importers/only-mine.lua"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_and_import_agree),
        cmocka_unit_test(test_csv_rows_follow_the_same_description),
        cmocka_unit_test(test_batches_count_across_the_file),
        cmocka_unit_test(test_import_names_a_missing_importer),
        cmocka_unit_test(test_offers),
        cmocka_unit_test(test_offers_by_identity),
        cmocka_unit_test(test_host_folders_in_order),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
