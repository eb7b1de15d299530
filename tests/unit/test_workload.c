/* test_workload.c — validating workload tables: every field checked, messages that name the
 * file, the field and what was expected, typos caught with a suggestion. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "workload.h"

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
    assert_int_equal(w->used_ok, 1);
    assert_int_equal(w->n_candidates, 2);
    assert_string_equal(w->candidates[0], "4x rtx-3090");
    /* Defaults: data parallelism, good cooling, PUE 1, no upkeep; ownership costs left NaN for
     * the decision to fill. */
    assert_string_equal(w->parallelism, "data");
    assert_string_equal(w->cooling, "good");
    assert_float_equal(w->pue, 1, 0);
    assert_float_equal(w->upkeep_hours_per_month, 0, 0);
    assert_true(isnan(w->host_cost));
    view *v = workload_to_view(w);
    assert_string_equal(view_str(view_path(v, "model.precision")), "amp");
    assert_float_equal(view_num(view_path(v, "electricity.pue")), 1, 0);
    assert_int_equal(view_len(view_map_get(v, "candidates")), 2);
    view_free(v);
    workload_free(w);
}

static void messages_name_file_field_and_expectation(void **state)
{
    (void)state;
    workload *w = NULL;
    gw_error err = {0};
    assert_int_equal(load("{" BASE ", \"hours_per_day\": \"eight\"}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg,
                        "x.lua: hours_per_day: expected a number from 0 to 24, got \"eight\"");
    assert_null(w);
    assert_int_equal(load("{" BASE ", \"hours_per_day\": 25}", &w, &err), GW_EDATA);
    assert_string_equal(err.msg, "x.lua: hours_per_day: expected a number from 0 to 24, got 25");
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
    assert_non_null(strstr(err.msg, "work: give samples or hours_on with hours, not both"));
    /* An unknown precision. */
    assert_int_equal(load("{\"model\": {\"params\": 1e6, \"precision\": \"fp8\"}}", &w, &err),
                     GW_EDATA);
    assert_string_equal(err.msg, "x.lua: model.precision: expected one of fp32, tf32, amp, fp16, "
                                 "bf16, got \"fp8\"");
    /* Not a table at all. */
    assert_int_equal(load("[1, 2]", &w, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "returns a table"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_workload),
        cmocka_unit_test(messages_name_file_field_and_expectation),
        cmocka_unit_test(typos_get_a_suggestion),
        cmocka_unit_test(model_and_work_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
