/* test_core.c — buffers, the view tree and its JSON, units, errors, the one "today", the
 * monotonic clock and the terminal sanitizer. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/check.h"
#include "base/clock.h"
#include "base/error.h"
#include "base/limits.h"
#include "base/term.h"
#include "base/units.h"
#include "base/view.h"

static void test_buf_printf_grows(void **state)
{
    (void)state;
    gw_buf b = GW_BUF_INIT;
    assert_string_equal(buf_cstr(&b), "");
    for (int i = 0; i < 1000; i++)
        buf_printf(&b, "%d,", i);
    /* 10 one-digit + 90 two-digit + 900 three-digit numbers, each with a comma:
     * 10*2 + 90*3 + 900*4 = 20 + 270 + 3600 = 3890 bytes */
    assert_int_equal(b.len, 3890);
    assert_int_equal(strlen(buf_cstr(&b)), 3890);
    assert_memory_equal(b.data, "0,1,2,", 6);
    buf_free(&b);
}

/* buf_printf's three ways: a short text into a new buffer (through its stack buffer), a text
 * longer than that stack buffer (formatted again at its length), and a text into a buffer
 * with plenty of room left (formatted in place).  Each ends in the same bytes. */
/* gw_fnv1a64 is the published 64-bit FNV-1a: its test vectors "" -> cbf29ce484222325 (the offset
 * basis) and "a" -> af63dc4c8601ec8c (from the FNV reference's test suite); a cut plugin file's
 * source id depends on it staying so. */
static void test_fnv1a64(void **state)
{
    (void)state;
    assert_true(gw_fnv1a64("", 0) == 0xcbf29ce484222325ULL);
    assert_true(gw_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(gw_fnv1a64("ab", 1) == gw_fnv1a64("a", 1));   /* n bytes, not to a NUL */
}

static void test_buf_printf_paths(void **state)
{
    (void)state;
    char long_text[3001];
    memset(long_text, 'x', 3000);
    long_text[3000] = '\0';
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "[%s|%.1f]", "ab", 2.25);   /* "[ab|2.2]": 8 bytes (2.25 rounds to even) */
    assert_string_equal(buf_cstr(&b), "[ab|2.2]");
    buf_printf(&b, "<%s>", long_text);          /* 8 + 1 + 3000 + 1 = 3010 bytes */
    assert_int_equal(b.len, 3010);
    assert_int_equal(strlen(buf_cstr(&b)), 3010);
    assert_memory_equal(b.data + 8, "<xxx", 4);
    assert_memory_equal(b.data + 3006, "xxx>", 4);
    /* the buffer grew to 4096 (64 doubled to hold 3010): 1085 bytes of room, formatted in place */
    assert_true(b.cap - b.len >= 1024);
    buf_printf(&b, "%d-%s", 42, "end");         /* 3010 + 6 = 3016 bytes */
    assert_int_equal(b.len, 3016);
    assert_string_equal(buf_cstr(&b) + 3010, "42-end");
    buf_free(&b);
}

/* GW_BUF_DISCARD keeps nothing: appends and printfs leave it empty, with no memory. */
static void test_buf_discard(void **state)
{
    (void)state;
    gw_buf b = GW_BUF_DISCARD;
    buf_puts(&b, "words");
    buf_putc(&b, '!');
    buf_printf(&b, "%d %s", 7, "more");
    assert_int_equal(b.len, 0);
    assert_null(b.data);
    assert_string_equal(buf_cstr(&b), "");
    char *text = buf_detach(&b);   /* "" that the caller frees, as from any empty buffer */
    assert_string_equal(text, "");
    free(text);
}

/* view_map_add appends without looking: the same keys and order as view_map_set for new keys
 * (and the same JSON); view_map_set still replaces. */
static void test_view_map_add(void **state)
{
    (void)state;
    view *a = view_map(), *b = view_map();
    view_map_set_num(a, "n", 1);
    view_map_set_str(a, "s", "x");
    view_map_set(a, "null", NULL);
    view_map_add(b, "n", view_number(1));
    view_map_add(b, "s", view_string("x"));
    view_map_add(b, "null", NULL);
    gw_buf ja = GW_BUF_INIT, jb = GW_BUF_INIT;
    view_to_json(a, &ja, 0);
    view_to_json(b, &jb, 0);
    assert_string_equal(buf_cstr(&ja), "{\"n\":1,\"s\":\"x\",\"null\":null}");
    assert_string_equal(buf_cstr(&jb), buf_cstr(&ja));
    view_map_set_num(b, "n", 2);   /* replaced in place: still 3 keys */
    assert_int_equal(view_len(b), 3);
    assert_float_equal(view_num(view_map_get(b, "n")), 2, 0);
    view *list = view_list();   /* not a map: the value is freed, nothing added */
    assert_null(view_map_add(list, "k", view_null()));
    assert_int_equal(view_len(list), 0);
    view_free(list);
    /* a pooled key: one copy for the process, found by view_map_get and replaced by
     * view_map_set like any other key; a key over 64 bytes is not pooled */
    const char *k = view_key("per_unit_text");
    assert_non_null(k);
    assert_ptr_equal(view_key("per_unit_text"), k);
    assert_string_equal(k, "per_unit_text");
    view_map_add_key(b, k, view_string("$1.20"));
    assert_int_equal(view_len(b), 4);
    assert_ptr_equal(view_map_key_at(b, 3), k);
    assert_string_equal(view_str(view_map_get(b, "per_unit_text")), "$1.20");
    view_map_set_str(b, "per_unit_text", "$1.30");
    assert_int_equal(view_len(b), 4);
    assert_string_equal(view_str(view_map_get(b, "per_unit_text")), "$1.30");
    char long_key[80];
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = '\0';
    assert_null(view_key(long_key));
    buf_free(&ja);
    buf_free(&jb);
    view_free(a);
    view_free(b);
}

static void test_view_json_roundtrip(void **state)
{
    (void)state;
    view *m = view_map();
    view_map_set_str(m, "name", "RTX \"3090\"\n<b>");
    view_map_set_num(m, "price", 2750);
    view_map_set_num(m, "ratio", 0.1);
    view_map_set_num(m, "nan", NAN);
    view_map_set_bool(m, "used", 1);
    view *l = view_map_set(m, "counts", view_list());
    view_list_push(l, view_number(1));
    view_list_push(l, view_number(-2.5));
    gw_buf out = GW_BUF_INIT;
    view_to_json(m, &out, 0);
    /* <, > and & are written as \u escapes so the JSON can sit inside HTML untouched */
    assert_string_equal(buf_cstr(&out),
                        "{\"name\":\"RTX \\\"3090\\\"\\n\\u003cb\\u003e\",\"price\":2750,"
                        "\"ratio\":0.1,\"nan\":null,\"used\":true,\"counts\":[1,-2.5]}");
    gw_error err = {0};
    view *back = view_from_json(out.data, out.len, &err);
    assert_non_null(back);
    assert_string_equal(view_str(view_map_get(back, "name")), "RTX \"3090\"\n<b>");
    assert_true(view_num(view_path(back, "price")) == 2750);
    assert_true(view_is_null(view_map_get(back, "nan")));
    assert_true(view_num(view_list_at(view_map_get(back, "counts"), 1)) == -2.5);
    view_free(back);
    view_free(m);
    buf_free(&out);
}

static void test_view_json_errors_name_line(void **state)
{
    (void)state;
    gw_error err = {0};
    const char *bad = "{\n  \"a\": 1,\n  \"b\": ]\n}";
    assert_null(view_from_json(bad, strlen(bad), &err));
    assert_int_equal(err.code, GW_EDATA);
    assert_non_null(strstr(err.msg, "line 3"));
}

static void test_view_map_replace_and_path(void **state)
{
    (void)state;
    view *m = view_map();
    view *cost = view_map_set(m, "cost", view_map());
    view_map_set_num(cost, "total", 1);
    view_map_set_num(cost, "total", 2);
    assert_int_equal(view_len(cost), 1);
    assert_true(view_num(view_path(m, "cost.total")) == 2);
    assert_null(view_path(m, "cost.missing"));
    assert_null(view_path(m, "cost.total.deeper"));
    view_free(m);
}

/* Null, true and false are shared nodes: one held in several places, copied, replaced and freed
 * any number of times stays what it is, and JSON writes each in place. */
static void test_view_shared_scalars(void **state)
{
    (void)state;
    view *a = view_list(), *b = view_map();
    view *null = view_null(), *yes = view_bool(7), *no = view_bool(0);
    view_list_push(a, null);
    view_list_push(a, yes);
    view_list_push(a, no);
    view_list_push(a, view_bool(1));
    view_map_set(b, "n", null);
    view_map_set(b, "y", yes);
    view_map_set(b, "y", view_bool(0));   /* replaced: the shared true is "freed" */
    view *copy = view_copy(a);
    view_free(view_null());
    view_free(a);
    assert_true(view_is_null(view_map_get(b, "n")));
    assert_false(view_bool_value(view_map_get(b, "y")));
    gw_buf out = GW_BUF_INIT;
    view_to_json(copy, &out, 0);
    assert_string_equal(buf_cstr(&out), "[null,true,false,true]");
    buf_reset(&out);
    view_to_json(b, &out, 0);
    assert_string_equal(buf_cstr(&out), "{\"n\":null,\"y\":false}");
    assert_true(view_bool_value(view_bool(1)) && !view_bool_value(view_bool(0)));
    buf_free(&out);
    view_free(copy);
    view_free(b);
}

/* A big tree: containers grow, keys replaced, pooled and owned, subtrees moved and copied
 * between trees, each freed on its own.  (It tested the view arena until views became plain
 * malloc's; run under valgrind/ASan (make asan), a mistake shows as a leak or a use after
 * free.) */
static void test_view_tree_ownership(void **state)
{
    (void)state;
    view *heap = view_map();
    view *early = view_list();
    view_list_push(early, view_string("before"));
    view *m = view_map();
    view *list = view_map_set(m, "list", view_list());
    for (int i = 0; i < 5000; i++)           /* the items array grows many times */
        view_list_push(list, view_stringf("item %d", i));
    view_map_set(m, "replaced", view_number(1));
    view_map_set(m, "replaced", view_number(2));
    assert_int_equal(view_len(list), 5000);
    assert_string_equal(view_str(view_list_at(list, 4999)), "item 4999");
    assert_true(view_num(view_map_get(m, "replaced")) == 2);
    char key[100];
    memset(key, 'k', 99);
    key[99] = '\0';                          /* too long to pool: the map owns a copy */
    view_map_set_str(m, key, "long");
    assert_string_equal(view_str(view_map_get(m, key)), "long");
    view_map_set(m, "early", early);         /* a tree moved into another: m owns it now */
    assert_string_equal(view_str(view_list_at(view_map_get(m, "early"), 0)), "before");
    view_map_set(heap, "late", view_copy(view_map_get(m, "early")));   /* a copy into heap */
    view *big = view_stringn(key, 99);
    gw_buf json = GW_BUF_INIT;
    view_to_json(view_map_get(m, "early"), &json, 0);
    assert_string_equal(buf_cstr(&json), "[\"before\"]");
    buf_free(&json);
    view_free(big);
    view_free(m);
    /* after m is gone, the heap tree still holds its own copy */
    assert_string_equal(view_str(view_list_at(view_map_get(heap, "late"), 0)), "before");
    view_free(heap);
}

/* The fast fixed-point path must round as printf does: on the exact binary value. */
static void test_format_fixed_rounds_like_printf(void **state)
{
    (void)state;
    gw_buf b = GW_BUF_INIT;
    /* 0.125 is exactly 1/8, a true tie: printf rounds it to even, "0.12". */
    view_format_fixed(&b, 0.125, 2);
    assert_string_equal(buf_cstr(&b), "0.12");
    buf_reset(&b);
    /* 0.375 = 3/8, also a tie: even is "0.38". */
    view_format_fixed(&b, 0.375, 2);
    assert_string_equal(buf_cstr(&b), "0.38");
    buf_reset(&b);
    /* 2.675 is stored as 2.67499999999999982236431605997495353221893310546875: "2.67". */
    view_format_fixed(&b, 2.675, 2);
    assert_string_equal(buf_cstr(&b), "2.67");
    buf_reset(&b);
    /* -0.04 to one decimal is zero with printf's sign kept: "-0.0". */
    view_format_fixed(&b, -0.04, 1);
    assert_string_equal(buf_cstr(&b), "-0.0");
    buf_reset(&b);
    /* 359.95 is stored just below .95 (359.94999999999998863131622783839702606201171875). */
    view_format_fixed(&b, 359.95, 1);
    assert_string_equal(buf_cstr(&b), "359.9");
    buf_reset(&b);
    view_format_fixed(&b, 1234567.5, 0);   /* a tie: even is 1234568 */
    assert_string_equal(buf_cstr(&b), "1234568");
    buf_reset(&b);
    view_format_number(&b, 2.5, 0);        /* a tie: even is 2 */
    assert_string_equal(buf_cstr(&b), "2");
    buf_reset(&b);
    view_format_number(&b, -0.004, 2);     /* rounds to zero: no minus sign */
    assert_string_equal(buf_cstr(&b), "0.00");
    buf_free(&b);
}

/* JSON numbers are the shortest form of the value to 15 significant digits (all a double holds
 * reliably): arithmetic noise in the 16th and 17th digits is not written. */
static void test_json_numbers_shortest(void **state)
{
    (void)state;
    static const struct {
        double n;
        const char *json;
    } cases[] = {
        {0.44, "0.44"},                       /* two decimals give back 0.44 exactly */
        {-1751.5, "-1751.5"},
        {0.0001, "0.0001"},                   /* %g's smallest plain exponent, -4 */
        {0.00001, "1e-05"},                   /* below it %g writes an exponent */
        {999999.5, "999999.5"},               /* 7 significant digits: %.6g would not read back */
        {0.1 + 0.2, "0.3"},                   /* 0.30000000000000004 to 15 digits */
        {0.526 * 7.2, "3.7872"},              /* a price converted: 3.7872000000000003 */
        {2.0 / 3.0, "0.666666666666667"},     /* 15 digits, rounded */
        {123456789012.345, "123456789012.345"},   /* 15 digits, all kept */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        view *v = view_number(cases[i].n);
        gw_buf b = GW_BUF_INIT;
        view_to_json(v, &b, 0);
        assert_string_equal(buf_cstr(&b), cases[i].json);
        buf_free(&b);
        view_free(v);
    }
}

static void test_format_number(void **state)
{
    (void)state;
    gw_buf b = GW_BUF_INIT;
    view_format_number(&b, 2750, 0);
    assert_string_equal(buf_cstr(&b), "2,750");
    buf_reset(&b);
    view_format_number(&b, -1234567.891, 2);
    assert_string_equal(buf_cstr(&b), "-1,234,567.89");
    buf_reset(&b);
    view_format_number(&b, 999, 0);
    assert_string_equal(buf_cstr(&b), "999");
    buf_reset(&b);
    units_format_money(&b, 2750, "USD", -1);
    assert_string_equal(buf_cstr(&b), "$2,750");
    buf_reset(&b);
    units_format_money(&b, 16000, "CNY", -1);
    assert_string_equal(buf_cstr(&b), "CNY 16,000");
    buf_reset(&b);
    units_format_money(&b, 0.44, "CNY", -1);
    assert_string_equal(buf_cstr(&b), "CNY 0.44");
    buf_free(&b);
}

static void test_units_parse(void **state)
{
    (void)state;
    units_value v;
    assert_true(units_parse("24576 MiB", &v));
    assert_true(v.value == 24576);
    assert_string_equal(v.unit, "MiB");
    assert_true(units_parse(" 35.15 W ", &v));
    assert_true(fabs(v.value - 35.15) < 1e-12);
    assert_string_equal(v.unit, "W");
    assert_true(units_parse("16x", &v));
    assert_true(v.value == 16);
    assert_string_equal(v.unit, "x");
    assert_true(units_parse("1,234.5 MHz", &v));
    assert_true(v.value == 1234.5);
    assert_true(units_parse("42", &v));
    assert_string_equal(v.unit, "");
    assert_false(units_parse("N/A", &v));
    assert_false(units_parse("[N/A]", &v));
    assert_false(units_parse("Not Active", &v));
    assert_false(units_parse("Requested functionality has been deprecated", &v));
    assert_false(units_parse("", &v));
    assert_false(units_parse(NULL, &v));
    /* a second number is not a unit */
    assert_false(units_parse("12 34", &v));
    /* 24576 MiB = 24576 * 2^20 bytes = 25.769803776 GB = 24 GiB */
    assert_true(fabs(units_to_gb(24576, "MiB") - 25.769803776) < 1e-9);
    assert_true(fabs(units_to_gib(24576, "MiB") - 24.0) < 1e-12);
    assert_true(isnan(units_to_gb(1, "furlongs")));
}

static void test_error_prefix(void **state)
{
    (void)state;
    gw_error err = {0};
    assert_int_equal(gw_error_set(&err, GW_EDATA, "line %d: bad", 3), GW_EDATA);
    gw_error_prefix(&err, "%s", "gpus.csv");
    assert_string_equal(err.msg, "gpus.csv: line 3: bad");
    assert_int_equal(err.code, GW_EDATA);
}

static void test_atomic_write(void **state)
{
    (void)state;
    char dir[] = "/tmp/gwcoreXXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    assert_int_equal(gw_write_file_atomic(path, "hello", 5), 0);
    char *data;
    size_t len;
    assert_int_equal(gw_read_file(path, &data, &len), 0);
    assert_int_equal(len, 5);
    assert_memory_equal(data, "hello", 5);
    free(data);
    /* a folder that does not exist: an errno, and nothing left behind */
    snprintf(path, sizeof path, "%s/missing/out.txt", dir);
    assert_int_not_equal(gw_write_file_atomic(path, "x", 1), 0);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    unlink(path);
    assert_int_equal(rmdir(dir), 0);
}

/* SOURCE_DATE_EPOCH pins today, read strictly: a valid value gives its date, garbage is an error
 * naming the variable (and today falls back to the clock); unset is the clock. */
static void test_today_source_date_epoch(void **state)
{
    (void)state;
    gw_error err = {0};
    time_t now = 0;
    char date[11];
    setenv("SOURCE_DATE_EPOCH", "1764460800", 1);   /* 2025-11-30T00:00:00Z */
    assert_int_equal(gw_today(&now, &err), GW_OK);
    assert_true(now == 1764460800);
    assert_int_equal(gw_today_days(), 20422);
    gw_today_date(date);
    assert_string_equal(date, "2025-11-30");
    setenv("SOURCE_DATE_EPOCH", "1764547199", 1);   /* the day's last second */
    gw_today_date(date);
    assert_string_equal(date, "2025-11-30");
    setenv("SOURCE_DATE_EPOCH", "0", 1);
    gw_today_date(date);
    assert_string_equal(date, "1970-01-01");
    setenv("SOURCE_DATE_EPOCH", "253402300799", 1);
    gw_today_date(date);
    assert_string_equal(date, "9999-12-31");
    const char *bad[] = {"abc", "-1", "1.5", "1e9", "0x10", "", " 1764460800", "1764460800 ",
                         "+1764460800", "253402300800", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[200];
        snprintf(want, sizeof want, "SOURCE_DATE_EPOCH: expected a whole number of seconds from "
                 "0 to 253402300799, not '%.40s'", bad[i]);
        setenv("SOURCE_DATE_EPOCH", bad[i], 1);
        time_t before = time(NULL);
        assert_int_equal(gw_today(&now, &err), GW_EUSAGE);
        assert_string_equal(err.msg, want);
        assert_true(now >= before && now <= time(NULL));   /* the clock, not a guess */
    }
    unsetenv("SOURCE_DATE_EPOCH");
    time_t before = time(NULL);
    assert_int_equal(gw_today(&now, &err), GW_OK);
    assert_true(now >= before && now <= time(NULL));
    assert_true(gw_today_days() >= (long)(before / 86400));
}

/* Dates are of the calendar: each month's own length, February 29 in leap years only (every
 * fourth year, but not centuries unless divisible by 400). */
static void test_valid_date_calendar(void **state)
{
    (void)state;
    const char *good[] = {"2024-02-29", "2000-02-29", "2023-02-28", "2023-01-31", "2023-04-30",
                          "2023-12-31", "2023-02", "1970-01-01"};
    const char *bad[] = {"2023-02-29", "2023-02-31", "2026-02-30", "1900-02-29", "2023-04-31",
                         "2023-06-31", "2023-09-31", "2023-11-31", "2023-01-32", "2023-01-00",
                         "2023-13-01", "2023-00", "2023-2-01", "2023/02/01"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (!gw_valid_date(good[i]))
            fail_msg("%s refused", good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (gw_valid_date(bad[i]))
            fail_msg("%s accepted", bad[i]);
    /* 2024-03-01 is 2024-02-29 plus one day: 19782 and 19783 days from 1970-01-01 (54 years
     * of 365 days and 13 leap days, 1972 to 2020, give 19723 to 2024-01-01; + 31 + 28) */
    assert_int_equal(gw_date_days("2024-02-29"), 19782);
    assert_int_equal(gw_date_days("2024-03-01"), 19783);
    assert_int_equal(gw_date_days("2023-02-29"), -1);
}

/* Every numeric variable goes through the one parser: garbage, signs, exponents and values
 * past the range are refused with the variable, its range and the value named. */
static void test_env_parse_ranges(void **state)
{
    (void)state;
    gw_error err = {0};
    double v = -1;
    const char *bad[] = {"1e300", "-1", "0", "12abc", "", "1.5", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[200];
        snprintf(want, sizeof want, "GPUWISE_PLUGIN_INSTRUCTIONS: expected a whole number of "
                 "instructions from 1 to 1000000000000000, not '%s'", bad[i]);
        assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_INSTRUCTIONS, bad[i], &v, &err), GW_EUSAGE);
        assert_string_equal(err.msg, want);
        snprintf(want, sizeof want, "GPUWISE_PLUGIN_MEMORY_MB: expected a whole number of MiB "
                 "from 1 to 1048576, not '%s'", bad[i]);
        assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_MEMORY_MB, bad[i], &v, &err), GW_EUSAGE);
        assert_string_equal(err.msg, want);
    }
    assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_SECONDS, "1e300", &v, &err), GW_EUSAGE);
    assert_string_equal(err.msg, "GPUWISE_PLUGIN_SECONDS: expected a number of seconds from "
                        "0.001 to 86400, not '1e300'");
    assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_SECONDS, "nan", &v, &err), GW_EUSAGE);
    assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_SECONDS, "inf", &v, &err), GW_EUSAGE);
    /* the edges of the range are in it */
    assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_INSTRUCTIONS, "1000000000000000", &v, &err),
                     GW_OK);
    assert_true(v == 1e15);
    assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_MEMORY_MB, "1048576", &v, &err), GW_OK);
    assert_true(v == 1048576);
    assert_int_equal(gw_env_parse(GW_ENV_PLUGIN_SECONDS, "0.001", &v, &err), GW_OK);
    assert_true(v == 0.001);
}

/* The monotonic clock moves forward. */
static void test_now_seconds_monotonic(void **state)
{
    (void)state;
    double a = gw_now_seconds();
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    double b = gw_now_seconds();
    assert_true(b - a >= 0.019 && b - a < 5);
}

/* gw_term_text of s as one field, into a static buffer for comparisons. */
static const char *shown(const char *s, unsigned flags)
{
    static char text[256];
    gw_buf b = GW_BUF_INIT;
    gw_term_text(&b, s, strlen(s), flags);
    snprintf(text, sizeof text, "%s", buf_cstr(&b));
    buf_free(&b);
    return text;
}

/* What a terminal would obey is shown escaped; printable text, UTF-8 and backslashes stay. */
static void test_term_escapes(void **state)
{
    (void)state;
    assert_string_equal(shown("a\x1b[2Jb", 0), "a\\x1b[2Jb");
    assert_string_equal(shown("\x1b]0;title\x07", 0), "\\x1b]0;title\\x07");
    assert_string_equal(shown("l1\nl2\tx\ry", 0), "l1\\nl2\\tx\\ry");
    assert_string_equal(shown("del\x7f", 0), "del\\x7f");
    /* C1 controls as UTF-8: U+009B (CSI) is C2 9B, U+0085 (NEL) C2 85 */
    assert_string_equal(shown("x\xc2\x9b" "2J\xc2\x85", 0), "x\\u009b2J\\u0085");
    /* bidi: U+202E (E2 80 AE), U+2066 (E2 81 A6), U+200F (E2 80 8F), U+061C (D8 9C); the line
     * separator U+2028 (E2 80 A8) */
    assert_string_equal(shown("gpj\xe2\x80\xae.exe", 0), "gpj\\u202e.exe");
    assert_string_equal(shown("\xe2\x81\xa6\xe2\x80\x8f\xd8\x9c\xe2\x80\xa8", 0),
                        "\\u2066\\u200f\\u061c\\u2028");
    /* invalid UTF-8, byte by byte: a stray byte, a cut sequence, an overlong '/', a surrogate */
    assert_string_equal(shown("\xff", 0), "\\xff");
    assert_string_equal(shown("\xe4\xb8", 0), "\\xe4\\xb8");
    assert_string_equal(shown("\xc0\xaf", 0), "\\xc0\\xaf");
    assert_string_equal(shown("\xed\xa0\x80", 0), "\\xed\\xa0\\x80");
    /* kept: accents, CJK, emoji, a combining mark, a backslash */
    assert_string_equal(shown("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x9a\x80 e\xcc\x81 a\\n", 0),
                        "caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x9a\x80 e\xcc\x81 a\\n");
    /* escaping is idempotent: escaped text is printable ASCII */
    assert_string_equal(shown("a\\x1b[2Jb", 0), "a\\x1b[2Jb");
}

/* gpuwise's own line breaks and colours stay where asked; no other sequence does. */
static void test_term_lines_and_colour(void **state)
{
    (void)state;
    assert_string_equal(shown("a\tb\nc\r\n", GW_TERM_LINES), "a\tb\nc\\r\n");
    assert_string_equal(shown("\x1b[1;31mFAIL\x1b[0m", GW_TERM_LINES | GW_TERM_COLOUR),
                        "\x1b[1;31mFAIL\x1b[0m");
    assert_string_equal(shown("\x1b[1;31mFAIL\x1b[0m", GW_TERM_LINES), "\\x1b[1;31mFAIL\\x1b[0m");
    /* conceal (8), a cursor move, an OSC and a bare ESC are never colour */
    assert_string_equal(shown("\x1b[8mx\x1b[2J\x1b]8;;u\x07\x1b", GW_TERM_COLOUR),
                        "\\x1b[8mx\\x1b[2J\\x1b]8;;u\\x07\\x1b");
}

/* Display columns: CJK and emoji 2, a combining mark 0, an escape as long as it is shown. */
static void test_term_width_and_cut(void **state)
{
    (void)state;
    const char *cjk = "\xe4\xb8\xad\xe6\x96\x87\xe6\x98\xbe\xe5\x8d\xa1";   /* 中文显卡 */
    assert_int_equal(gw_term_width("abc", 3, 0), 3);
    assert_int_equal(gw_term_width(cjk, strlen(cjk), 0), 8);          /* 4 characters x 2 */
    assert_int_equal(gw_term_width("\xf0\x9f\x9a\x80x", 5, 0), 3);    /* 🚀 2 + x 1 */
    assert_int_equal(gw_term_width("e\xcc\x81", 3, 0), 1);            /* e + U+0301: 1 + 0 */
    assert_int_equal(gw_term_width("\x1b", 1, 0), 4);                 /* "\x1b" */
    assert_int_equal(gw_term_width("\xe2\x80\xae", 3, 0), 6);         /* "\u202e" */
    assert_int_equal(gw_term_width("\xc3", 1, 0), 4);                 /* "\xc3" */

    gw_buf b = GW_BUF_INIT;
    /* 5 columns hold two CJK characters (4): the third would need 6, and is never split */
    assert_int_equal(gw_term_field_cut(&b, cjk, 5), 4);
    assert_string_equal(buf_cstr(&b), "\xe4\xb8\xad\xe6\x96\x87");
    buf_reset(&b);
    /* an escape is cut whole: "ab" (2) + "\x1b" (4) is 6, more than 5 */
    assert_int_equal(gw_term_field_cut(&b, "ab\x1b" "c", 5), 2);
    assert_string_equal(buf_cstr(&b), "ab");
    buf_reset(&b);
    assert_int_equal(gw_term_field_cut(&b, "ab\x1b" "c", 7), 7);     /* 2 + 4 + 1 */
    assert_string_equal(buf_cstr(&b), "ab\\x1bc");
    buf_reset(&b);
    /* a cell pads by columns: 中 is 2 wide, so 4 columns get 2 spaces */
    gw_term_cell(&b, "\xe4\xb8\xad", 4, 0);
    gw_term_cell(&b, "\xe4\xb8\xad", 4, 1);
    gw_term_cell(&b, "wider", 2, 0);   /* never cut */
    assert_string_equal(buf_cstr(&b), "\xe4\xb8\xad    \xe4\xb8\xadwider");
    buf_reset(&b);
    /* runs of plain ASCII are measured and cut 8 bytes a step: 11 letters, then 中 (2), then 1 */
    assert_int_equal(gw_term_width("abcdefghijk\xe4\xb8\xadz", 15, 0), 14);   /* 11 + 2 + 1 */
    assert_int_equal(gw_term_field_cut(&b, "abcdefghijk\xe4\xb8\xadz", 9), 9);  /* inside the run */
    assert_string_equal(buf_cstr(&b), "abcdefghi");
    buf_reset(&b);
    assert_int_equal(gw_term_field_cut(&b, "abcdefghijk\xe4\xb8\xadz", 12), 11);   /* 中 needs 13 */
    assert_string_equal(buf_cstr(&b), "abcdefghijk");
    buf_reset(&b);
    assert_int_equal(gw_term_field_cut(&b, "abcdefghijk\xe4\xb8\xadz", 14), 14);   /* all of it */
    assert_string_equal(buf_cstr(&b), "abcdefghijk\xe4\xb8\xadz");
    buf_reset(&b);
    /* by bytes: 中 is 3 bytes, so 13 bytes hold the 11 letters only */
    assert_int_equal(gw_term_field_bytes(&b, "abcdefghijk\xe4\xb8\xadz", 15, 13), 11);
    assert_string_equal(buf_cstr(&b), "abcdefghijk");
    buf_reset(&b);
    /* padding wider than one append: 40 columns for "ab" are "ab" and 38 spaces */
    gw_term_cell(&b, "ab", 40, 0);
    assert_int_equal(b.len, 40);
    assert_int_equal(strspn(b.data + 2, " "), 38);
    buf_free(&b);
}

/* gw_term_text_unchanged says exactly when gw_term_text copies a text as it is: a control or
 * a mark to escape anywhere in it, in the first, a middle or the last 8-byte step, or in the
 * tail after the last whole step, makes it changed. */
static void test_term_unchanged(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "", "RTX 3090", "NVIDIA GeForce RTX 3090 (24 GB)",     /* 0, 8 and 31 bytes: plain */
        "caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x9a\x80 a\\n",  /* UTF-8 and a backslash: kept */
        "\x1f" "234567890123456",                               /* byte 0 of the first step */
        "12345678\x7f" "2345678",                                /* byte 8: the second step */
        "1234567890123456789012\n",                             /* byte 22: the tail */
        "123456789012345\x80",                                   /* a stray byte, the last */
        "12345678gpj\xe2\x80\xae.exe",                            /* U+202E in a step */
        "~~~~~~~~ ~~~~~~~",                                     /* 0x7E and 0x20: the limits */
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        gw_buf b = GW_BUF_INIT;
        gw_term_text(&b, texts[i], strlen(texts[i]), GW_TERM_FIELD);
        int same = b.len == strlen(texts[i]) && memcmp(buf_cstr(&b), texts[i], b.len) == 0;
        assert_int_equal(gw_term_text_unchanged(texts[i], strlen(texts[i]), GW_TERM_FIELD), same);
        assert_int_equal(same, i < 4 || i == 9);   /* which of them are plain, as listed */
        buf_free(&b);
    }
    /* a line break is gpuwise's own with GW_TERM_LINES, and a NUL inside the length never is */
    assert_true(gw_term_text_unchanged("a\tb\nc", 5, GW_TERM_LINES));
    assert_false(gw_term_text_unchanged("a\0b", 3, GW_TERM_FIELD));
}

/* An error message is one safe line, cut on a character boundary. */
static void test_error_message_shown(void **state)
{
    (void)state;
    gw_error err;
    gw_error_set(&err, GW_EDATA, "plugin %s: %s", "a\x1b[2J\xe2\x80\xae.lua", "x\ny");
    assert_string_equal(err.msg, "plugin a\\x1b[2J\\u202e.lua: x\\ny");
    gw_error_set(&err, GW_EDATA, "libxml2: %s", "oops\n");   /* its line end is not part of it */
    assert_string_equal(err.msg, "libxml2: oops");
    gw_error_prefix(&err, "dump %s", "d\x1b.xml");
    assert_string_equal(err.msg, "dump d\\x1b.xml: libxml2: oops");
    /* "x" and 400 x 中 (3 bytes each) is 1201 bytes; 1023 fit, and byte 1023 falls inside the
     * 341st character (bytes 1021-1023), so the message keeps "x" and 340 characters:
     * 1 + 340 x 3 = 1021 bytes */
    char big[1300] = "x";
    for (int i = 0; i < 400; i++)
        strcat(big, "\xe4\xb8\xad");
    gw_error_set(&err, GW_EDATA, "%s", big);
    assert_int_equal(strlen(err.msg), 1021);
    assert_memory_equal(err.msg + 1018, "\xe4\xb8\xad", 3);
}

/* A view's terminal copy escapes every string and leaves the rest, and the original, alone. */
static void test_view_term_copy(void **state)
{
    (void)state;
    view *m = view_map();
    view_map_set_str(m, "name", "Evil\nGPU\xe2\x80\xae");
    view_map_set_num(m, "memory_gb", 24);
    view_list_push(view_map_set(m, "aliases", view_list()), view_string("\x1b[2J"));
    view *c = view_term_copy(m);
    assert_string_equal(view_str(view_map_get(c, "name")), "Evil\\nGPU\\u202e");
    assert_true(view_num(view_map_get(c, "memory_gb")) == 24);
    assert_string_equal(view_str(view_list_at(view_map_get(c, "aliases"), 0)), "\\x1b[2J");
    assert_string_equal(view_str(view_map_get(m, "name")), "Evil\nGPU\xe2\x80\xae");
    view_free(c);
    view_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buf_printf_grows),
        cmocka_unit_test(test_fnv1a64),
        cmocka_unit_test(test_buf_printf_paths),
        cmocka_unit_test(test_buf_discard),
        cmocka_unit_test(test_view_map_add),
        cmocka_unit_test(test_view_json_roundtrip),
        cmocka_unit_test(test_view_json_errors_name_line),
        cmocka_unit_test(test_view_map_replace_and_path),
        cmocka_unit_test(test_view_tree_ownership),
        cmocka_unit_test(test_view_shared_scalars),
        cmocka_unit_test(test_format_number),
        cmocka_unit_test(test_format_fixed_rounds_like_printf),
        cmocka_unit_test(test_json_numbers_shortest),
        cmocka_unit_test(test_units_parse),
        cmocka_unit_test(test_error_prefix),
        cmocka_unit_test(test_atomic_write),
        cmocka_unit_test(test_today_source_date_epoch),
        cmocka_unit_test(test_valid_date_calendar),
        cmocka_unit_test(test_env_parse_ranges),
        cmocka_unit_test(test_now_seconds_monotonic),
        cmocka_unit_test(test_term_escapes),
        cmocka_unit_test(test_term_lines_and_colour),
        cmocka_unit_test(test_term_width_and_cut),
        cmocka_unit_test(test_term_unchanged),
        cmocka_unit_test(test_error_message_shown),
        cmocka_unit_test(test_view_term_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
