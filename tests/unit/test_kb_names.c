/* test_kb_names.c — name resolution's two paths give one answer: a connection's first lookups
 * read the names in one pass (kb_names.c resolve_direct), later ones the cache of every name's
 * variants.  Every id, name and alias of the shipped KB, as written and as people vary them, is
 * resolved on a fresh connection (the direct pass) and on one whose cache is built. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/error.h"
#include "kb/kb.h"
#include "kb/kb_names.h"

#define SHIPPED_KB "kb/gpuwise.db"

/* What one lookup gave: the id or ids, or the error, as one line. */
static char *answer(kb *k, const char *name, int family)
{
    gw_buf b = GW_BUF_INIT;
    gw_error err = {0};
    if (family) {
        char **ids = NULL;
        size_t n = 0;
        int rc = kb_gpu_resolve_family(k, name, &ids, &n, &err);
        buf_printf(&b, "rc %d:", rc);
        for (size_t i = 0; i < n; i++)
            buf_printf(&b, " %s", ids[i]);
        kb_strings_free(ids, n);
    } else {
        char *id = NULL;
        int count = 0;
        int rc = kb_gpu_resolve(k, name, &id, &count, &err);
        buf_printf(&b, "rc %d: %s x%d", rc, id ? id : "-", count);
        free(id);
    }
    buf_printf(&b, " [%s]", err.msg);
    return buf_detach(&b);
}

/* Resolves name on a fresh connection and on cached (whose cache is built) and compares, as
 * one GPU and, with families, as a family too; a GPU's whole name (whole) must be found
 * without building the cache. */
static const char *kb_path_under_test = SHIPPED_KB;

static void expect_same_as(kb *cached, const char *name, int whole, int families)
{
    for (int family = 0; family <= families; family++) {
        kb *fresh = NULL;
        gw_error err = {0};
        assert_int_equal(kb_open(kb_path_under_test, KB_READ, &fresh, &err), GW_OK);
        char *direct = answer(fresh, name, family);
        char *from_cache = answer(cached, name, family);
        if (strcmp(direct, from_cache) != 0)
            fail_msg("'%s'%s: one pass gave '%s', the cache '%s'", name,
                     family ? " (family)" : "", direct, from_cache);
        if (whole && kb_names_cached(fresh))
            fail_msg("'%s'%s: a whole name built the cache", name, family ? " (family)" : "");
        free(direct);
        free(from_cache);
        kb_close(fresh);
    }
}

/* 1 when name has a laptop part's word (kb_names.c keeps those to the cache's path). */
static int has_laptop_word(const char *name)
{
    static const char *const words[] = {"laptop", "mobile", "notebook", "max-q", "max q", "maxq",
                                        "max-p", "max p", "maxp", NULL};
    char lower[256];
    size_t n = 0;
    for (; name[n] && n < sizeof lower - 1; n++)
        lower[n] = (char)tolower((unsigned char)name[n]);
    lower[n] = '\0';
    for (size_t i = 0; words[i]; i++)
        if (strstr(lower, words[i]))
            return 1;
    return 0;
}

static void expect_same(kb *cached, const char *name)
{
    expect_same_as(cached, name, 0, 1);
}

/* name as written (one GPU and a family), and as people vary it (upper case, separators swapped,
 * a vendor word around it): each is the GPU's whole name still. */
static void expect_same_forms(kb *cached, const char *name)
{
    char upper[256], dashed[256], vendor[300];
    size_t n = strlen(name) < sizeof upper - 1 ? strlen(name) : sizeof upper - 1;
    for (size_t i = 0; i < n; i++) {
        upper[i] = (char)toupper((unsigned char)name[i]);
        dashed[i] = name[i] == ' ' ? '-' : name[i] == '-' ? ' ' : name[i];
    }
    upper[n] = dashed[n] = '\0';
    snprintf(vendor, sizeof vendor, "NVIDIA %s GPU", name);
    int whole = !has_laptop_word(name);
    expect_same_as(cached, name, whole, 1);
    expect_same_as(cached, upper, whole, 0);
    expect_same_as(cached, dashed, whole, 0);
    expect_same_as(cached, vendor, whole, 0);
}

static void test_direct_and_cached_agree(void **state)
{
    (void)state;
    if (access(SHIPPED_KB, R_OK) != 0)
        skip();
    kb *cached = NULL;
    gw_error err = {0};
    assert_int_equal(kb_open(SHIPPED_KB, KB_READ, &cached, &err), GW_OK);
    /* a name that is no GPU's whole name builds the cache; later lookups use it */
    char *warm = answer(cached, "no such card", 0);
    assert_non_null(strstr(warm, "no GPU named 'no such card'"));
    free(warm);

    char **names = NULL;   /* ids and aliases */
    size_t n_names = 0;
    assert_int_equal(kb_gpu_names(cached, &names, &n_names, &err), GW_OK);
    assert_true(n_names > 100);
    for (size_t i = 0; i < n_names; i++)
        expect_same_forms(cached, names[i]);
    kb_strings_free(names, n_names);

    kb_gpu *gpus = NULL;   /* the marketing names */
    size_t n_gpus = 0;
    assert_int_equal(kb_gpu_list(cached, NULL, NULL, &gpus, &n_gpus, &err), GW_OK);
    for (size_t i = 0; i < n_gpus; i++)
        expect_same_forms(cached, gpus[i].name);
    kb_gpus_free(gpus, n_gpus);

    /* names that are no GPU's whole name (the cache answers both), ambiguous ones, counts,
     * laptop words, and names whose digits begin like a GPU's but are not it */
    static const char *const others[] = {
        "A100", "a100 80gb", "H100", "3090 ti", "rtx 309", "30 90", "RTX 4090 Laptop",
        "RTX 3080 Max-Q", "8x H100 SXM5", "rtx-3090 x2", "2x 4090", "4090x2", "mi300",
        "titan", "L40", "l40s", "gpu", "nvidia", "80GB", "", "  ", "x", "3090.5", "1.5x 3090",
        "2x NVIDIA GeForce RTX 3090",   /* the vendor words after the count: step 2's */
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        expect_same(cached, others[i]);
    /* a count that reads one way only, on a whole name: found without the cache too, with its
     * count ("1x rtx-3090": x1; "rtx-3090 x2": x2, as answer() writes them) */
    static const char *const counted[] = {"1x rtx-3090", "rtx-3090 x2", "8x h100-sxm5",
                                          "4 x rtx-4090", "2x RTX 3090"};
    for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++)
        expect_same_as(cached, counted[i], 1, 1);
    kb *fresh = NULL;
    assert_int_equal(kb_open(SHIPPED_KB, KB_READ, &fresh, &err), GW_OK);
    char *eight = answer(fresh, "8x h100-sxm5", 0);
    assert_string_equal(eight, "rc 0: h100-sxm5 x8 []");
    kb_close(fresh);
    free(eight);
    kb_close(cached);
}

/* An alias whose GPU is gone (deleted with foreign keys off, as the sqlite3 shell does) names
 * nothing on either path. */
static void test_alias_of_no_gpu(void **state)
{
    (void)state;
    if (access(SHIPPED_KB, R_OK) != 0)
        skip();
    char path[] = "/tmp/gw-names-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char *data;
    size_t len;
    assert_int_equal(gw_read_file(SHIPPED_KB, &data, &len), 0);
    assert_int_equal(gw_write_file_atomic(path, data, len), 0);
    free(data);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM gpu WHERE id = 'rtx-3090'", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    kb *cached = NULL;
    gw_error err = {0};
    assert_int_equal(kb_open(path, KB_READ, &cached, &err), GW_OK);
    char *warm = answer(cached, "no such card", 0);
    free(warm);
    kb_path_under_test = path;
    expect_same(cached, "3090");   /* rtx-3090's alias, left behind */
    expect_same(cached, "RTX 3090");
    expect_same(cached, "4090");
    kb_path_under_test = SHIPPED_KB;
    char *gone = answer(cached, "3090", 0);
    assert_non_null(strstr(gone, "no GPU named '3090'"));
    free(gone);
    kb_close(cached);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_and_cached_agree),
        cmocka_unit_test(test_alias_of_no_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
