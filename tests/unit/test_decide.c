/* test_decide.c — the decision over a small fixture KB (tests/fixtures/decide), every figure
 * checked against a hand calculation. */
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

#include "decide.h"

static const char *const fixture_files[] = {
    "tests/fixtures/decide/sources.csv",    "tests/fixtures/decide/gpus.csv",
    "tests/fixtures/decide/benchmarks.csv", "tests/fixtures/decide/prices.csv",
    "tests/fixtures/decide/rates.csv",
};

typedef struct fixture {
    char path[64];
    kb *k;
    workload *w;
    decision *d;
} fixture;

/* The vision-team workload of examples/, with the ownership defaults written out. */
static const char vision_json[] =
    "{\"name\": \"Vision\", \"model\": {\"params\": 25.6e6, \"precision\": \"amp\", "
    "\"optimizer\": \"adam\", \"activations_gb\": 8}, \"benchmark\": \"resnet50\", "
    "\"work\": {\"samples\": 1.152e8}, \"parallelism\": \"data\", \"hours_per_day\": 8, "
    "\"horizon_months\": 36, \"currency\": \"CNY\", \"electricity\": {\"price\": 1.0}, "
    "\"used_ok\": true, \"host_cost\": 8000, \"host_power_w\": 200, \"resale_fraction\": 0.3, "
    "\"candidates\": [\"rtx-3090\", \"a100-sxm4-80gb\", \"rent:*\"]}";

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    gw_error err = {0};
    snprintf(f->path, sizeof f->path, "/tmp/gw-test-decide-%d.db", (int)getpid());
    unlink(f->path);
    if (kb_open(f->path, KB_CREATE, &f->k, &err) != GW_OK || kb_begin(f->k, &err) != GW_OK)
        return fprintf(stderr, "%s\n", err.msg), -1;
    for (size_t i = 0; i < sizeof fixture_files / sizeof fixture_files[0]; i++) {
        char *text;
        size_t len;
        if (gw_read_file(fixture_files[i], &text, &len))
            return fprintf(stderr, "cannot read %s\n", fixture_files[i]), -1;
        int rc = kb_import_text(f->k, fixture_files[i], text, len, &err);
        free(text);
        if (rc != GW_OK)
            return fprintf(stderr, "%s\n", err.msg), -1;
    }
    if (kb_commit(f->k, &err) != GW_OK)
        return -1;
    view *v = view_from_json(vision_json, strlen(vision_json), &err);
    if (!v || workload_from_view("vision.lua", v, &f->w, &err) != GW_OK)
        return fprintf(stderr, "%s\n", err.msg), -1;
    view_free(v);
    if (decide_run(f->k, NULL, f->w, DECIDE_TRACE, &f->d, &err) != GW_OK)
        return fprintf(stderr, "%s\n", err.msg), -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    decision_free(f->d);
    workload_free(f->w);
    kb_close(f->k);
    char side[80];
    unlink(f->path);
    snprintf(side, sizeof side, "%s-wal", f->path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", f->path);
    unlink(side);
    free(f);
    return 0;
}

static const decide_option *find(const decision *d, const char *id)
{
    for (size_t i = 0; i < decision_option_count(d); i++)
        if (!strcmp(decision_option_at(d, i)->id, id))
            return decision_option_at(d, i);
    fail_msg("no option %s", id);
    return NULL;
}

static void options_enumerated(void **state)
{
    fixture *f = *state;
    /* 3090 new (USD price) and used: 1, 2, 4 cards each = 6; A100 new: 1, 2, 4, 8 = 4; one
     * cloud offer (two observations of one offer) = 1. */
    assert_int_equal(decision_option_count(f->d), 11);
    const decide_option *rent = find(f->d, "rent:Fixture Cloud:a100-1x:1x a100-sxm4-80gb");
    /* The offer's latest observation (2026-01, CNY 3.2), not the older CNY 3.0. */
    assert_float_equal(rent->unit_price, 3.2, 1e-12);
    /* New 3090: USD 1,500 x 7.20 = CNY 10,800. */
    assert_float_equal(find(f->d, "buy-new:1x rtx-3090")->unit_price, 10800, 1e-6);
    /* Used: CNY 24,000 for four cards = 6,000 a card. */
    assert_float_equal(find(f->d, "buy-used:4x rtx-3090")->unit_price, 6000, 1e-9);
}

static void four_used_3090(void **state)
{
    fixture *f = *state;
    const decide_option *o = find(f->d, "buy-used:4x rtx-3090");
    /* Memory: 25.6e6 x 16 B + 8 GB = 8.4096; x 1.1 + 1 = 10.25 GB <= 24: fits. */
    assert_float_equal(o->vram_needed_gb, 10.25056, 1e-6);
    assert_true(o->fits);
    /* No measured 4-card row: 905 x 4 x efficiency.  compute 256 / 905 = 0.282873 s; all-reduce
     * 1.5 x 102.4 MB / 8 GB/s = 0.0192 s; eff = 0.282873 / (0.282873 x 1.03 + 0.0192) =
     * 0.910852; 3620 x 0.910852 = 3297.28 images/s, scaled. */
    assert_false(o->measured);
    assert_float_equal(o->throughput, 3297.28, 0.05);
    /* Power 4 x 350 + 200 = 1,600 W; 1.6 kW x 8 h x 30 x CNY 1 = CNY 384 a month. */
    assert_float_equal(o->power_w, 1600, 0);
    assert_float_equal(o->cost.electricity_per_month, 384, 1e-9);
    /* Up front 24,000 + 8,000 = 32,000; resale 0.3 x 24,000 = 7,200; total 32,000 + 384 x 36
     * - 7,200 = 38,624; hours 8 x 30 x 36 = 8,640; per hour 4.47037. */
    assert_float_equal(o->cost.upfront, 32000, 1e-9);
    assert_float_equal(o->cost.total, 38624, 1e-9);
    assert_float_equal(o->cost.per_hour, 38624.0 / 8640, 1e-9);
    /* Per 1M images: 4.47037 / (3297.28 x 3600) x 1e6 = 0.37660. */
    assert_float_equal(o->per_unit, 0.37660, 1e-4);
    /* One run: 1.152e8 / 3297.28 / 3600 = 9.705 h. */
    assert_float_equal(o->time_to_finish_hours, 9.705, 0.01);
}

static void measured_and_ranked(void **state)
{
    fixture *f = *state;
    /* 2x used 3090 is measured (1751): total 12,000 + 8,000 + 216 x 36 - 3,600 = 24,176;
     * 24,176 / 8,640 = 2.79815/h; / (1751 x 0.0036) = 0.44390 per 1M images. */
    const decide_option *two = find(f->d, "buy-used:2x rtx-3090");
    assert_true(two->measured);
    assert_float_equal(two->throughput, 1751, 0);
    assert_float_equal(two->per_unit, 0.44390, 1e-4);
    /* Rent A100: 3.2 / (1582 x 0.0036) = 0.56187. */
    const decide_option *rent = find(f->d, "rent:Fixture Cloud:a100-1x:1x a100-sxm4-80gb");
    assert_float_equal(rent->per_unit, 0.56187, 1e-4);
    /* Ranked by cost per unit (no rules here): four used 3090 first, then two. */
    const decide_option *best = decision_best(f->d);
    assert_non_null(best);
    assert_string_equal(best->id, "buy-used:4x rtx-3090");
    assert_int_equal(best->rank, 1);
    assert_string_equal(decision_option_at(f->d, 1)->id, "buy-used:2x rtx-3090");
}

static void break_even_and_sensitivity(void **state)
{
    fixture *f = *state;
    view *v = decision_to_view(f->d);
    /* Best buy (4x used 3090) against best rent (A100 at 3.2/h).  Renting the work the owned
     * machine does in an hour: 3.2 x 3297.28 / 1582 = 6.6696/h.
     * Hours a day: (32,000 - 7,200) / (30 x 36 x (6.6696 - 1.6)) = 24,800 / 5,475.2 = 4.530.
     * Month: 32,000 / (6.6696 x 8 x 30 - 384) = 32,000 / 1,216.7 = 26.30.
     * Speed-up a rental needs: 3.2 / 4.47037 = 0.716. */
    assert_float_equal(view_num(view_path(v, "break_even.hours_per_day")), 4.530, 0.002);
    assert_float_equal(view_num(view_path(v, "break_even.month")), 26.30, 0.01);
    assert_float_equal(view_num(view_path(v, "break_even.speedup_needed")), 0.716, 0.001);
    assert_true(view_bool_value(view_path(v, "break_even.crosses_within_horizon")));
    /* The recommendation flips to renting when the rental price falls to 0.37660 / 0.56187 =
     * 0.6703 of itself, and when electricity rises until (24,800 + 13,824 p) / (8,640 x
     * 11.870) = 0.56187: p = CNY 2.3745/kWh. */
    const view *params = view_path(v, "sensitivity.parameters");
    assert_int_equal(view_len(params), 4);
    double rent_flip = NAN, power_flip = NAN;
    for (size_t i = 0; i < view_len(params); i++) {
        const view *p = view_list_at(params, i);
        const char *name = view_str(view_map_get(p, "parameter"));
        if (!strcmp(name, "rental_price"))
            rent_flip = view_num(view_map_get(p, "flip_factor"));
        if (!strcmp(name, "electricity_price")) {
            power_flip = view_num(view_map_get(p, "flip_value"));
            assert_string_equal(view_str(view_map_get(p, "flips_to")),
                                "rent:Fixture Cloud:a100-1x:1x a100-sxm4-80gb");
        }
    }
    assert_float_equal(rent_flip, 0.6703, 0.001);
    assert_float_equal(power_flip, 2.3745, 0.005);
    /* The JSON fields the issue names. */
    const view *opt = view_list_at(view_map_get(v, "options"), 0);
    static const char *const keys[] = {"id", "gpu", "count", "acquisition", "provider",
                                       "feasible", "vram_needed_gb", "throughput",
                                       "time_to_finish_hours", "power_w", "cost", "verdicts",
                                       "rank", NULL};
    for (size_t i = 0; keys[i]; i++)
        assert_non_null(view_map_get(opt, keys[i]));
    assert_string_equal(view_str(view_path(opt, "throughput.basis")), "scaled");
    assert_string_equal(view_str(view_path(opt, "cost.currency")), "CNY");
    assert_string_equal(view_str(view_path(v, "recommendation.option")), "buy-used:4x rtx-3090");
    assert_true(view_len(view_path(v, "recommendation.because")) >= 2);
    assert_true(view_len(view_map_get(v, "citations")) >= 3);
    view_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(options_enumerated),
        cmocka_unit_test(four_used_3090),
        cmocka_unit_test(measured_and_ranked),
        cmocka_unit_test(break_even_and_sensitivity),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
