/* test_workload.c — validating workload tables: every field checked, messages that name the
 * file, the field and what was expected, typos caught with a suggestion. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/workload.h"

#define BASE                                                                                 \
    "\"model\": {\"params\": 25.6e6, \"precision\": \"amp\", \"optimizer\": \"adam\", "      \
    "\"activations_gb\": 8}, \"benchmark\": \"resnet50\", \"work\": {\"samples\": 1.152e8}, " \
    "\"currency\": \"CNY\", \"electricity\": {\"price\": 1.0}, \"horizon_months\": 36"

/* Validates a JSON object (the shape a Lua table comes back in); returns the error code. */
static int load(const char *json, workload **w, gw_error *err)
{
    gw_error jerr = {0};
    view *v = view_from_json(json, strlen(json), &jerr);
    assert_non_null(v);
    int rc = workload_from_view("x.lua", v, w, err);
    view_free(v);
    return rc;
}

static void valid_workload(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    assert_int_equal(load("{" BASE ", \"name\": \"Vision\", \"hours_per_day\": 8, "
                          "\"budget\": 40000, \"used_ok\": true, "
                          "\"candidates\": [\"4x rtx-3090\", \"rent:*\"]}",
                          &w, &err),
                     GW_OK);
    assert_string_equal(w->name, "Vision");
    assert_float_equal(w->params, 25.6e6, 0);
    assert_string_equal(w->precision, "amp");
    assert_float_equal(w->activations_gb, 8, 0);
    assert_true(isnan(w->vram_gb));
    assert_float_equal(w->work_samples, 1.152e8, 0);
    assert_string_equal(w->currency, "CNY");
    assert_float_equal(w->budget, 40000, 0);
    assert_string_equal(w->budget_basis, "upfront");   /* a plain number: cash up front */
    assert_int_equal(w->used_ok, 1);
    assert_int_equal(w->n_candidates, 2);
    assert_string_equal(w->candidates[0], "4x rtx-3090");
    /* Defaults: data parallelism, good cooling, PUE 1; ownership costs left NaN for the
     * decision to fill, and staff time NaN: unstated, it is not counted and the report says so
     * (issue 27: a silent 0 read as if the workload had said it). */
    assert_string_equal(w->parallelism, "data");
    assert_string_equal(w->cooling, "good");
    assert_float_equal(w->pue, 1, 0);
    assert_true(isnan(w->upkeep_hours_per_month));
    assert_true(isnan(w->host_cost));
    view *v = workload_to_view(w);
    assert_string_equal(view_str(view_path(v, "model.precision")), "amp");
    assert_float_equal(view_num(view_path(v, "electricity.pue")), 1, 0);
    assert_int_equal(view_len(view_map_get(v, "candidates")), 2);
    view_free(v);
    workload_free(w);
}

/* activation_checkpointing names one of three ways, and still reads the booleans it was: true
 * is full, false none; gradient_accumulation and fused_loss default to 1 and false. */
static void checkpointing_and_training_memory_fields(void **state)
{
    (void)state;
#define LLM_BASE                                                                             \
    "\"task\": \"train\", \"currency\": \"USD\", \"electricity\": "                       \
    "{\"price\": 0.1}, \"horizon_months\": 12, \"hours_per_day\": 8, "                        \
    "\"model\": {\"params\": 8.03e9, \"layers\": 32, \"hidden\": 4096, \"heads\": 32, "        \
    "\"kv_heads\": 8, \"head_dim\": 128, \"vocab\": 128256}"
    static const struct {
        const char *written, *read;
    } cases[] = {{"true", "full"},           {"false", "none"},
                 {"\"selective\"", "selective"}, {"\"full\"", "full"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char json[1024];
        snprintf(json, sizeof json, "{" LLM_BASE ", \"activation_checkpointing\": %s}",
                 cases[i].written);
        workload *w = NULL;
        gw_error err = {0};
        assert_int_equal(load(json, &w, &err), GW_OK);
        assert_string_equal(w->activation_checkpointing, cases[i].read);
        assert_float_equal(w->gradient_accumulation, 1, 0);
        assert_int_equal(w->fused_loss, 0);
        workload_free(w);
    }
    workload *w = NULL;
    gw_error err = {0};
    assert_int_equal(load("{" LLM_BASE ", \"gradient_accumulation\": 8, \"fused_loss\": true}",
                          &w, &err),
                     GW_OK);
    assert_float_equal(w->gradient_accumulation, 8, 0);
    assert_int_equal(w->fused_loss, 1);
    workload_free(w);
    assert_int_equal(load("{" LLM_BASE ", \"activation_checkpointing\": \"selectiv\"}", &w, &err),
                     GW_EDATA);
    assert_non_null(strstr(err.msg, "did you mean selective?"));
    assert_int_equal(load("{" LLM_BASE ", \"gradient_accumulation\": 0.5}", &w, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "gradient_accumulation: 0.5 is below 1"));
#undef LLM_BASE
}

static void messages_name_file_field_and_expectation(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    assert_int_equal(load("{" BASE ", \"hours_per_day\": \"eight\"}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: hours_per_day: expected a number more than 0 and at "
                                 "most 24 hours/day, got \"eight\"");
    assert_null(w);
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 25}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: hours_per_day: 25 is above 24 (expected more than 0 "
                                 "and at most 24)");
    assert_int_equal(load("{" BASE "}", &w, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "x.lua: hours_per_day: missing"));
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"cooling\": \"ok\"}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: cooling: expected one of good, poor, got \"ok\"");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"currency\": \"yuan\"}", &w, &err),
                     GW_EDATA);
    assert_non_null(strstr(err.msg, "currency: expected an ISO 4217 code"));
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"candidates\": [\"rtx-3090\", 4]}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: candidates[2]: expected a GPU name, got 4");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"used_ok\": \"yes\"}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: used_ok: expected true or false, got \"yes\"");
    /* Counts are whole numbers: 2.5 cards in a machine is a typo (issue 17, item 7). */
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"cards_per_host\": 2.5}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: cards_per_host: 2.5 is not a whole number (expected a "
                                 "whole number at least 1 and at most 64 cards)");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"cards_per_host\": 4}", &w, &err),
                     GW_OK);
    workload_free(w);
}

static void typos_get_a_suggestion(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    assert_int_equal(load("{" BASE ", \"hours_per_dya\": 8}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg,
                        "x.lua: hours_per_dya: unknown field (did you mean hours_per_day?)");
    assert_int_equal(load("{\"model\": {\"parms\": 1e9}}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: model.parms: unknown field (did you mean model.params?)");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"colour\": 1}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: colour: unknown field");
}

static void model_and_work_rules(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    /* vram_gb alone is enough; precision and optimizer default to amp / adam. */
    assert_int_equal(load("{\"vram_gb\": 40, \"work\": {\"hours_on\": \"a100-sxm4-80gb\", "
                          "\"hours\": 300}, \"hours_per_day\": 12, \"horizon_months\": 24, "
                          "\"currency\": \"CNY\", \"electricity\": {\"price\": 0.8, \"pue\": 1.3}}",
                          &w, &err),
                     GW_OK);
    assert_float_equal(w->vram_gb, 40, 0);
    assert_string_equal(w->work_hours_on, "a100-sxm4-80gb");
    assert_float_equal(w->pue, 1.3, 0);
    assert_null(w->benchmark);
    workload_free(w);
    /* Neither a model nor a measured need. */
    assert_int_equal(load("{\"benchmark\": \"resnet50\", \"hours_per_day\": 8, "
                          "\"horizon_months\": 1, \"currency\": \"CNY\", "
                          "\"electricity\": {\"price\": 1}}",
                          &w, &err),
                     GW_EDATA);
    assert_non_null(strstr(err.msg, "x.lua: model: missing"));
    /* Both kinds of work. */
    assert_int_equal(load("{\"vram_gb\": 10, \"benchmark\": \"resnet50\", \"work\": "
                          "{\"samples\": 10, \"hours_on\": \"rtx-3090\", \"hours\": 1}, "
                          "\"hours_per_day\": 8, \"horizon_months\": 1, \"currency\": \"CNY\", "
                          "\"electricity\": {\"price\": 1}}",
                          &w, &err),
                     GW_EDATA);
    assert_non_null(strstr(err.msg, "work: give one of samples, tokens or hours_on with hours"));
    /* An unknown precision: the choices are precision.h's rows, then int8 and int4, the other
     * names of w8a8 and w4a16. */
    assert_int_equal(load("{\"model\": {\"params\": 1e6, \"precision\": \"fp12\"}}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: model.precision: expected one of fp32, tf32, amp, fp16, "
                                 "bf16, fp8, fp4, w8a8, w8a16, w4a16, int8, int4, got \"fp12\" "
                                 "(did you mean fp32?)");
    /* Not a table at all. */
    assert_int_equal(load("[1, 2]", &w, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "returns a table"));
}

/* Issue 13: a job (work, runs, deadline_days) or capacity (no work); spot_ok. */
static void job_or_capacity(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    /* runs defaults to 1; without a deadline the job has 12 h x 30 x 24 = 8,640 h. */
    assert_int_equal(load("{\"vram_gb\": 40, \"work\": {\"hours_on\": \"a100-sxm4-80gb\", "
                          "\"hours\": 300}, \"hours_per_day\": 12, \"horizon_months\": 24, "
                          "\"currency\": \"CNY\", \"electricity\": {\"price\": 0.8}}",
                          &w, &err),
                     GW_OK);
    assert_true(workload_is_job(w));
    assert_float_equal(w->work_runs, 1, 0);
    assert_float_equal(workload_hours_available(w), 8640, 1e-9);
    assert_int_equal(w->spot_ok, 0);
    assert_int_equal(w->anecdotal_ok, 0);
    workload_free(w);
    /* Three runs due in 20 days: 12 x 20 = 240 h available; spot_ok and anecdotal_ok read. */
    assert_int_equal(load("{\"vram_gb\": 40, \"work\": {\"hours_on\": \"a100-sxm4-80gb\", "
                          "\"hours\": 300, \"runs\": 3}, \"hours_per_day\": 12, "
                          "\"horizon_months\": 24, \"deadline_days\": 20, \"spot_ok\": true, "
                          "\"anecdotal_ok\": true, "
                          "\"currency\": \"CNY\", \"electricity\": {\"price\": 0.8}}",
                          &w, &err),
                     GW_OK);
    assert_float_equal(w->work_runs, 3, 0);
    assert_float_equal(workload_hours_available(w), 240, 1e-9);
    assert_int_equal(w->spot_ok, 1);
    assert_int_equal(w->anecdotal_ok, 1);
    workload_free(w);
    /* Capacity: no work; 8 x 30 x 36 = 8,640 h of use. */
    assert_int_equal(load("{\"vram_gb\": 10, \"benchmark\": \"resnet50\", \"hours_per_day\": 8, "
                          "\"horizon_months\": 36, \"currency\": \"CNY\", "
                          "\"electricity\": {\"price\": 1}}",
                          &w, &err),
                     GW_OK);
    assert_false(workload_is_job(w));
    assert_float_equal(workload_hours_available(w), 8640, 1e-9);
    workload_free(w);
    /* runs alone is not a job; a deadline needs work; a deadline past the horizon. */
    assert_int_equal(load("{\"vram_gb\": 10, \"benchmark\": \"resnet50\", \"work\": "
                          "{\"runs\": 3}, \"hours_per_day\": 8, \"horizon_months\": 1, "
                          "\"currency\": \"CNY\", \"electricity\": {\"price\": 1}}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: work: runs of what? (give samples, tokens or hours_on with "
                                 "hours)");
    assert_int_equal(load("{\"vram_gb\": 10, \"benchmark\": \"resnet50\", \"hours_per_day\": 8, "
                          "\"horizon_months\": 1, \"deadline_days\": 5, \"currency\": \"CNY\", "
                          "\"electricity\": {\"price\": 1}}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg,
                        "x.lua: deadline_days: a deadline needs work = { ... } to finish");
    assert_int_equal(load("{\"vram_gb\": 10, \"work\": {\"hours_on\": \"rtx-3090\", \"hours\": 1}, "
                          "\"hours_per_day\": 8, \"horizon_months\": 1, \"deadline_days\": 40, "
                          "\"currency\": \"CNY\", \"electricity\": {\"price\": 1}}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: deadline_days: 40 days is past the horizon (1 month = "
                                 "30 days)");
}

/* Messages for the fields the tests above leave out, each as the reader wrote it before the
 * field tables: a conditional requirement, a required table, a list, a table of the wrong type. */
static void more_messages(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    assert_int_equal(load("{\"vram_gb\": 40, \"work\": {\"hours_on\": \"rtx-3090\"}, "
                          "\"hours_per_day\": 8, \"horizon_months\": 1, \"currency\": \"CNY\", "
                          "\"electricity\": {\"price\": 1}}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: work.hours: missing (expected a number more than 0 and "
                                 "at most 1e9 hours)");
    assert_int_equal(load("{\"vram_gb\": 40, \"work\": {\"hours\": 3}, \"benchmark\": \"resnet50\", "
                          "\"hours_per_day\": 8, \"horizon_months\": 1, \"currency\": \"CNY\", "
                          "\"electricity\": {\"price\": 1}}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: work.hours_on: missing (hours on which GPU?)");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"electricity\": []}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: electricity: missing (expected { price = PER_KWH })");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"electricity\": 5}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg,
                        "x.lua: electricity: expected a table { price = ..., pue = ... }, got 5");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"electricity\": {\"pue\": 1.2}}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: electricity.price: missing (expected a number at least "
                                 "0 and at most 10000 currency/kWh (in the workload's currency))");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"candidates\": []}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: candidates: expected a list of GPU names (\"4x "
                                 "rtx-3090\", \"rent:*\", ...), got a list");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"model\": 5}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: model: expected a model name (\"llama-3-8b\") or a table "
                                 "{ params = ..., precision = ... }, got 5");
    assert_int_equal(load("{\"vram_gb\": 40, \"work\": {\"hours_on\": \"rtx-3090\", \"hours\": 1}, "
                          "\"hours_per_day\": 8, \"horizon_months\": 1, \"electricity\": "
                          "{\"price\": 1}}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: currency: missing (expected an ISO 4217 code such as "
                                 "\"CNY\" or \"USD\")");
    /* "file" is shown in the view but is not a field of the file. */
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"file\": \"y.lua\"}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: file: unknown field");
    /* hours_per_day excludes its lower bound: any time above 0 is allowed. */
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 0.009, \"resale_fraction\": 1}", &w,
                          &err),
                     GW_OK);
    workload_free(w);
    /* Fields are checked in the order of the field table: the whole model table, then vram_gb
     * (the reader before the tables checked vram_gb between the model's type and its fields). */
    assert_int_equal(load("{\"model\": {\"params\": 0}, \"vram_gb\": -1}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: model.params: 0 is below 1 (expected at least 1 and at "
                                 "most 1e15)");
}

/* A number out of its range names the bound it breaks and whether that bound is included, from
 * the field table's numbers: hours_per_day is (0, 24], cards_per_host [1, 64]. */
static void range_messages_name_the_broken_bound(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    /* An excluded lower bound: 0 itself is out, and so is anything below it. */
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 0}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: hours_per_day: 0 is not above 0 (expected more than 0 "
                                 "and at most 24)");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": -2}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: hours_per_day: -2 is not above 0 (expected more than 0 "
                                 "and at most 24)");
    /* An included upper bound: 24 is in, 24.5 out. */
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 24}", &w, &err), GW_OK);
    workload_free(w);
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 24.5}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: hours_per_day: 24.5 is above 24 (expected more than 0 "
                                 "and at most 24)");
    /* Included bounds on both sides: 1 and 64 are in, 0 and 65 out. */
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"cards_per_host\": 0}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: cards_per_host: 0 is below 1 (expected at least 1 and at "
                                 "most 64)");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"cards_per_host\": 65}", &w,
                          &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: cards_per_host: 65 is above 64 (expected at least 1 and "
                                 "at most 64)");
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"cards_per_host\": 1}", &w, &err),
                     GW_OK);
    workload_free(w);
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"cards_per_host\": 64}", &w,
                          &err),
                     GW_OK);
    workload_free(w);
    /* A large bound reads as a file would write it (1e15, not 1e+15).  budget = N reads as
     * budget = { upfront = N } since a budget may also be a total or a monthly figure. */
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"budget\": 2e15}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: budget.upfront: 2e15 is above 1e15 (expected at least 0 "
                                 "and at most 1e15)");
}

/* The accepted optimizers are optimizer.h's table; a misspelt one gets the nearest name. */
static void unknown_optimizer_suggests_the_nearest(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    assert_int_equal(load("{\"model\": {\"params\": 1e6, \"optimizer\": \"adamm\"}}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: model.optimizer: expected one of adam, adamw, sgd, "
                                 "sgd-plain, none, got \"adamm\" (did you mean adam?)");
    assert_int_equal(load("{\"model\": {\"params\": 1e6, \"optimizer\": \"sgd_plain\"}}", &w,
                          &err),
                     GW_EDATA);
    assert_non_null(strstr(err.msg, "got \"sgd_plain\" (did you mean sgd-plain?)"));
    /* Nothing within two edits: no guess. */
    assert_int_equal(load("{\"model\": {\"params\": 1e6, \"optimizer\": \"lion\"}}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: model.optimizer: expected one of adam, adamw, sgd, "
                                 "sgd-plain, none, got \"lion\"");
    /* Quantized precisions are for serving; training's list is the table's other rows (fp4
     * trains, at BF16's rate x its measured speed-up, as fp8 does). */
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 8, \"model\": {\"params\": 1e6, "
                          "\"precision\": \"int4\"}}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: model.precision: int4 weights are for serving (task = "
                                 "\"inference\"); training needs fp32, tf32, amp, fp16, bf16, fp8 "
                                 "or fp4 (QLoRA's 4-bit weights: finetune = { method = "
                                 "\"qlora\" })");
}

/* An absent table reads as an empty one: its fields take their defaults; the name defaults to
 * the file's name. */
static void absent_tables_take_defaults(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    gw_error jerr = {0};
    const char *json = "{\"vram_gb\": 40, \"model\": [], \"work\": {\"hours_on\": \"rtx-3090\", "
                       "\"hours\": 2}, \"hours_per_day\": 8, \"horizon_months\": 1, "
                       "\"currency\": \"USD\", \"electricity\": {\"price\": 0}}";
    view *t = view_from_json(json, strlen(json), &jerr);
    assert_non_null(t);
    assert_int_equal(workload_from_view("dir/sub/job.lua", t, &w, &err), GW_OK);
    view_free(t);
    assert_string_equal(w->name, "job.lua");
    assert_string_equal(w->path, "dir/sub/job.lua");
    assert_true(isnan(w->params));
    assert_string_equal(w->precision, "amp");
    assert_string_equal(w->optimizer, "adam");
    assert_float_equal(w->activations_gb, 0, 0);
    assert_true(isnan(w->work_samples));
    assert_float_equal(w->work_hours, 2, 0);
    assert_float_equal(w->electricity_price, 0, 0);
    assert_int_equal(w->used_ok, 0);
    assert_null(w->candidates);
    assert_true(isnan(w->budget) && isnan(w->resale_fraction) && isnan(w->cards_per_host));
    assert_float_equal(w->cooling_cost, 0, 0);
    assert_true(isnan(w->upkeep_rate));   /* unstated: staff time not counted, said */
    assert_true(isnan(w->site_power_kw) && isnan(w->support_fraction) &&
                isnan(w->discount_rate));
    /* The view: every field in table order, "file" after "name", null where nothing is set. */
    view *v = workload_to_view(w);
    gw_buf b = GW_BUF_INIT;
    view_to_json(v, &b, 0);
    assert_string_equal(
        buf_cstr(&b),
        "{\"name\":\"job.lua\",\"file\":\"dir/sub/job.lua\",\"task\":\"train\","
        "\"model\":{\"name\":null,\"params\":null,\"active_params\":null,\"layers\":null,"
        "\"hidden\":null,\"heads\":null,\"kv_heads\":null,\"head_dim\":null,"
        "\"attention_head_dim\":null,\"decode_attention_head_dim\":null,\"ffn\":null,"
        "\"experts\":null,\"experts_active\":null,\"vocab\":null,"
        "\"context\":null,\"precision\":\"amp\",\"optimizer\":\"adam\",\"activations_gb\":0},"
        "\"vram_gb\":40,\"finetune\":{\"method\":\"full\",\"rank\":16},\"sharding\":\"none\","
        /* activation_checkpointing is a choice of three now (true and false still read) */
        "\"activation_checkpointing\":\"none\",\"sequence_length\":null,\"batch_per_gpu\":null,"
        "\"gradient_accumulation\":1,\"fused_loss\":false,"
        "\"inference\":{\"context\":null,\"output_tokens\":null,\"concurrency\":1,"
        "\"tokens_per_s\":null,\"tpot_ms\":null,\"ttft_ms\":null,\"requests_per_s\":null,"
        "\"utilisation\":null},"
        "\"benchmark\":null,\"work\":{\"samples\":null,\"tokens\":null,\"hours_on\":"
        "\"rtx-3090\",\"hours\":2,\"runs\":1},\"parallelism\":\"data\",\"hours_per_day\":8,"
        "\"horizon_months\":1,\"hours_needed_per_month\":null,\"hours_needed_on\":null,"
        "\"deadline_days\":null,"
        "\"currency\":\"USD\",\"region\":null,"
        "\"budget\":{\"upfront\":null,\"total\":null,\"monthly\":null},"
        "\"electricity\":{\"price\":0,"
        "\"pue\":1},\"used_ok\":false,\"spot_ok\":false,\"anecdotal_ok\":false,"
        "\"price_max_age_days\":180,\"stale_ok\":false,\"cooling\":\"good\",\"candidates\":null,"
        "\"host_cost\":null,"
        "\"host_power_w\":null,\"cards_per_host\":null,\"network_gbps\":null,\"cooling_cost\":0,"
        "\"upkeep_hours_per_month\":null,\"upkeep_rate\":null,\"resale_fraction\":null,"
        "\"redundancy\":0,\"production\":false,\"server_room\":false,"
        "\"site_power_kw\":null,\"support_fraction\":null,\"discount_rate\":null,"
        "\"kind\":\"job\",\"kind_text\":\"A job: 1 run of 2 h on rtx-3090, due within the 1-month "
        "horizon (240 h of running at 8 h a day). An option that cannot finish in those hours is "
        "out; a rental is paid for the hours the runs take, a purchase pays its electricity for "
        "those hours and its hardware less resale.\"}");
    buf_free(&b);
    view_free(v);
    workload_free(w);
}

static const view *field_entry(const view *fields, const char *name)
{
    for (size_t i = 0; i < view_len(fields); i++)
        if (!strcmp(view_str(view_map_get(view_list_at(fields, i), "name")), name))
            return view_list_at(fields, i);
    return NULL;
}

/* The field list documentation is made from: the 38 top-level fields ("file" is not one: it is
 * not written in a file; deadline_days, spot_ok, anecdotal_ok, network_gbps,
 * price_max_age_days and region are issue 13's and 14's; task, finetune, sharding,
 * activation_checkpointing, sequence_length and inference issue 15's; stale_ok issue 26's;
 * redundancy, production, server_room, site_power_kw, support_fraction and discount_rate
 * issue 27's: 41), model's 16 (4, and a language model's name, active_params and 10
 * architecture figures, attention_head_dim the tenth), work's 5 (tokens), electricity's 2, finetune's 2 and inference's 8
 * (requests_per_s and utilisation, issue 27's) = 73 entries, each with help text. */
static void field_list_describes_every_field(void **state)
{
    (void)state;
    view *fields = workload_fields_to_view();
    /* 65 before budgets took three forms (budget.upfront, .total and .monthly) and
     * hours_needed_per_month came (69); serving demand and production added
     * inference.requests_per_s, inference.utilisation, redundancy, production and
     * server_room (74); ownership costs site_power_kw, support_fraction, discount_rate (77);
     * a language model's training memory gradient_accumulation and fused_loss (79);
     * hours_needed_on, the card a need is measured on (80); model.attention_head_dim, the width
     * latent attention's products run over where it is not head_dim (81);
     * model.decode_attention_head_dim, a decode step's (82); model.experts_active, the experts
     * a token is routed to, which attention data-parallel serving splits the experts by (83) */
    assert_int_equal(view_len(fields), 83);
    for (size_t i = 0; i < view_len(fields); i++) {
        const view *f = view_list_at(fields, i);
        assert_non_null(view_str(view_map_get(f, "help")));
        assert_non_null(view_str(view_map_get(f, "expected")));
    }
    assert_null(field_entry(fields, "file"));
    const view *hours = field_entry(fields, "hours_per_day");
    assert_non_null(hours);
    assert_int_equal(view_bool_value(view_map_get(hours, "required")), 1);
    assert_float_equal(view_num(view_map_get(hours, "min")), 0, 0);
    assert_int_equal(view_bool_value(view_map_get(hours, "min_excluded")), 1);
    assert_float_equal(view_num(view_map_get(hours, "max")), 24, 0);
    assert_string_equal(view_str(view_map_get(hours, "unit")), "hours/day");
    assert_string_equal(view_str(view_map_get(hours, "expected")),
                        "a number more than 0 and at most 24 hours/day");
    const view *cards = field_entry(fields, "cards_per_host");
    assert_int_equal(view_bool_value(view_map_get(cards, "min_excluded")), 0);
    assert_string_equal(view_str(view_map_get(cards, "expected")),
                        "a whole number at least 1 and at most 64 cards");
    const view *precision = field_entry(fields, "model.precision");
    assert_non_null(precision);
    assert_string_equal(view_str(view_map_get(precision, "type")), "text");
    assert_string_equal(view_str(view_map_get(precision, "default")), "amp");
    /* precision.h's rows a workload may name (w8a8, w8a16, w4a16 among them), then int8, int4. */
    assert_int_equal(view_len(view_map_get(precision, "choices")), 12);
    assert_string_equal(view_str(view_map_get(precision, "expected")),
                        "one of fp32, tf32, amp, fp16, bf16, fp8, fp4, w8a8, w8a16, w4a16, int8, "
                        "int4");
    const view *pue = field_entry(fields, "electricity.pue");
    assert_non_null(pue);
    assert_string_equal(view_str(view_map_get(pue, "default")), "1");
    assert_int_equal(view_bool_value(view_map_get(field_entry(fields, "electricity"), "required")),
                     1);
    assert_string_equal(view_str(view_map_get(field_entry(fields, "used_ok"), "expected")),
                        "true or false");
    /* Defaults the decision chooses (host_cost) are not the reader's: null here. */
    assert_true(view_is_null(view_map_get(field_entry(fields, "host_cost"), "default")));
    view_free(fields);
}

/* The tasks a field concerns, as help and the manual print them: a table's fields share its
 * tasks (finetune.rank), a field may name its own (sharding), and a field naming none concerns
 * every task (null).  The README lists no fields of its own any more: they are printed from
 * this list (tests/cli/help.sh checks the manual and `help workload` against it). */
static void field_list_names_the_tasks_a_field_concerns(void **state)
{
    (void)state;
    view *fields = workload_fields_to_view();
    const view *rank = view_map_get(field_entry(fields, "finetune.rank"), "tasks");
    assert_int_equal(view_len(rank), 1);
    assert_string_equal(view_str(view_list_at(rank, 0)), "finetune");
    const view *sharding = view_map_get(field_entry(fields, "sharding"), "tasks");
    assert_int_equal(view_len(sharding), 2);
    assert_string_equal(view_str(view_list_at(sharding, 0)), "train");
    assert_string_equal(view_str(view_list_at(sharding, 1)), "finetune");
    const view *context = view_map_get(field_entry(fields, "inference.context"), "tasks");
    assert_string_equal(view_str(view_list_at(context, 0)), "inference");
    assert_string_equal(view_str(view_list_at(view_map_get(field_entry(fields, "work.samples"),
                                                           "tasks"), 0)), "train");
    /* model.context is the model's, whatever the task; work.tokens trains or serves */
    assert_true(view_is_null(view_map_get(field_entry(fields, "model.context"), "tasks")));
    assert_true(view_is_null(view_map_get(field_entry(fields, "work.tokens"), "tasks")));
    assert_true(view_is_null(view_map_get(field_entry(fields, "hours_per_day"), "tasks")));
    /* every task a field names is a value `task` takes */
    const view *task_choices = view_map_get(field_entry(fields, "task"), "choices");
    for (size_t i = 0; i < view_len(fields); i++) {
        const view *tasks = view_map_get(view_list_at(fields, i), "tasks");
        for (size_t t = 0; t < view_len(tasks); t++) {
            int known = 0;
            for (size_t c = 0; c < view_len(task_choices); c++)
                known |= !strcmp(view_str(view_list_at(tasks, t)),
                                 view_str(view_list_at(task_choices, c)));
            assert_true(known);
        }
    }
    view_free(fields);
}

/* A field given in the wrong table is named where it belongs (issue 28: nine held-out files
 * wrote precision at the top level and were told only "unknown field"; rank got "did you mean
 * task?").  The places come from the field tables: a field of two tables names both. */
static void misplaced_fields_are_named_where_they_belong(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    assert_int_equal(load("{\"precision\": \"bf16\"}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: precision: unknown field at the top level; it belongs "
                                 "in model = { precision = ... }");
    assert_int_equal(load("{\"rank\": 16}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: rank: unknown field at the top level; it belongs in "
                                 "finetune = { rank = ... }");
    assert_int_equal(load("{\"model\": {\"params\": 1e9, \"sharding\": \"zero3\"}}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: model.sharding: unknown field in model; it belongs at "
                                 "the top level (sharding = ...)");
    assert_int_equal(load("{\"context\": 8192}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: context: unknown field at the top level; it belongs in "
                                 "model = { context = ... } or in inference = { context = ... }");
    assert_int_equal(load("{\"model\": {\"params\": 1e9}, \"finetune\": {\"precision\": \"bf16\"}}",
                          &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: finetune.precision: unknown field in finetune; it "
                                 "belongs in model = { precision = ... }");
    /* A typo of a field of this table still gets the nearest name. */
    assert_int_equal(load("{\"model\": {\"precison\": \"bf16\"}}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg,
                        "x.lua: model.precison: unknown field (did you mean model.precision?)");
}

/* Where the field list puts a leaf other than in table `skip` ("" the top level), as the
 * message writes it: "in model = { x = ... }" or "at the top level (x = ...)". */
static void expected_places(const view *fields, const char *leaf, const char *skip, char *out,
                            size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < view_len(fields); i++) {
        const char *name = view_str(view_map_get(view_list_at(fields, i), "name"));
        const char *dot = strrchr(name, '.');
        char table[64] = "";
        if (dot)
            snprintf(table, sizeof table, "%.*s", (int)(dot - name), name);
        if (strcmp(dot ? dot + 1 : name, leaf) || !strcmp(table, skip))
            continue;
        assert_null(strchr(table, '.'));   /* the tables are one level deep */
        len += (size_t)snprintf(out + len, size - len, "%s", len ? " or " : "");
        if (dot)
            len += (size_t)snprintf(out + len, size - len, "in %s = { %s = ... }", table, leaf);
        else
            len += (size_t)snprintf(out + len, size - len, "at the top level (%s = ...)", leaf);
    }
}

/* Every field of every table, written at the top level, is sent where it belongs, and every
 * top-level field written in model is sent to the top (the field list is the tables' order). */
static void every_misplaced_field_is_named_where_it_belongs(void **state)
{
    (void)state;
    view *fields = workload_fields_to_view();
    size_t tried = 0;
    for (size_t i = 0; i < view_len(fields); i++) {
        const char *name = view_str(view_map_get(view_list_at(fields, i), "name"));
        const char *dot = strchr(name, '.');
        const char *leaf = dot ? dot + 1 : name;
        char json[160], want[512], places[384], model_name[80];
        snprintf(model_name, sizeof model_name, "model.%s", leaf);
        if (dot ? field_entry(fields, leaf) != NULL : field_entry(fields, model_name) != NULL)
            continue;   /* model.name is a top-level field's name too: not misplaced */
        if (dot) {
            snprintf(json, sizeof json, "{\"%s\": 1}", leaf);
            expected_places(fields, leaf, "", places, sizeof places);
            snprintf(want, sizeof want, "x.lua: %s: unknown field at the top level; it belongs %s",
                     leaf, places);
        } else {
            snprintf(json, sizeof json, "{\"model\": {\"params\": 1e9, \"%s\": 1}}", leaf);
            expected_places(fields, leaf, "model", places, sizeof places);
            snprintf(want, sizeof want, "x.lua: model.%s: unknown field in model; it belongs %s",
                     leaf, places);
        }
        workload *w = NULL;
        gw_error err = {0};
        assert_int_equal(load(json, &w, &err), GW_EDATA);
        assert_string_equal(err.msg, want);
        tried++;
    }
    /* Every field but model.name and the top-level name, which are each other's. */
    assert_int_equal(tried, view_len(fields) - 2);
    view_free(fields);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_workload),
        cmocka_unit_test(checkpointing_and_training_memory_fields),
        cmocka_unit_test(messages_name_file_field_and_expectation),
        cmocka_unit_test(typos_get_a_suggestion),
        cmocka_unit_test(model_and_work_rules),
        cmocka_unit_test(job_or_capacity),
        cmocka_unit_test(more_messages),
        cmocka_unit_test(range_messages_name_the_broken_bound),
        cmocka_unit_test(unknown_optimizer_suggests_the_nearest),
        cmocka_unit_test(absent_tables_take_defaults),
        cmocka_unit_test(field_list_describes_every_field),
        cmocka_unit_test(field_list_names_the_tasks_a_field_concerns),
        cmocka_unit_test(misplaced_fields_are_named_where_they_belong),
        cmocka_unit_test(every_misplaced_field_is_named_where_it_belongs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
