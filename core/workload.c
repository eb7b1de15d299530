/* workload.c — reads a workload file through the plugin sandbox and validates every field into
 * a struct.  The list of fields lives here once: the validator, the unknown-field check ("did
 * you mean") and workload_to_view all read the same tables. */
#include "check.h"
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "units.h"

static const char *const top_fields[] = {
    "name", "model", "vram_gb", "batch_per_gpu", "benchmark", "work", "parallelism",
    "hours_per_day", "horizon_months", "currency", "budget", "electricity", "used_ok", "cooling",
    "candidates", "host_cost", "host_power_w", "cards_per_host", "cooling_cost",
    "upkeep_hours_per_month", "upkeep_rate", "resale_fraction", NULL,
};
static const char *const model_fields[] = {"params", "precision", "optimizer", "activations_gb",
                                           NULL};
static const char *const work_fields[] = {"samples", "hours_on", "hours", NULL};
static const char *const electricity_fields[] = {"price", "pue", NULL};

void workload_free(workload *w)
{
    if (!w)
        return;
    free(w->path);
    free(w->name);
    free(w->precision);
    free(w->optimizer);
    free(w->benchmark);
    free(w->work_hours_on);
    free(w->parallelism);
    free(w->cooling);
    for (size_t i = 0; i < w->n_candidates; i++)
        free(w->candidates[i]);
    free(w->candidates);
    free(w);
}

/* How a value reads in a message: "eight" (quoted), 25, true, a table. */
static void describe(gw_buf *b, const view *v)
{
    switch (view_kind(v)) {
    case VIEW_STRING: {
        const char *s = view_str(v);
        size_t n = strlen(s);
        buf_printf(b, "\"%.*s%s\"", (int)(n > 40 ? 40 : n), s, n > 40 ? "..." : "");
        break;
    }
    case VIEW_NUMBER:
        buf_printf(b, "%g", view_num(v));
        break;
    case VIEW_BOOL:
        buf_puts(b, view_bool_value(v) ? "true" : "false");
        break;
    case VIEW_LIST:
        buf_puts(b, "a list");
        break;
    case VIEW_MAP:
        buf_puts(b, "a table");
        break;
    default:
        buf_puts(b, "nil");
    }
}

static int bad(gw_error *err, const char *file, const char *field, const char *expected,
               const view *got)
{
    gw_buf b = GW_BUF_INIT;
    describe(&b, got);
    gw_error_set(err, GW_EDATA, "%s: %s: expected %s, got %s", file, field, expected,
                 buf_cstr(&b));
    buf_free(&b);
    return GW_EDATA;
}

/* Rejects keys not in fields, suggesting the nearest known name. */
static int check_keys(const char *file, const char *prefix, const view *map,
                      const char *const *fields, gw_error *err)
{
    for (size_t i = 0; i < view_len(map); i++) {
        const char *key = view_map_key_at(map, i);
        int known = 0;
        const char *nearest = NULL;
        size_t nearest_d = 3;   /* suggest only names within two edits */
        for (size_t f = 0; fields[f]; f++) {
            if (!strcmp(key, fields[f])) {
                known = 1;
                break;
            }
            size_t d = gw_edit_distance(key, fields[f]);
            if (d < nearest_d) {
                nearest_d = d;
                nearest = fields[f];
            }
        }
        if (known)
            continue;
        if (nearest)
            return gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field (did you mean %s%s?)",
                                file, prefix, key, prefix, nearest);
        return gw_error_set(err, GW_EDATA, "%s: %s%s: unknown field", file, prefix, key);
    }
    return GW_OK;
}

/* A number field.  Absent: *out = NaN unless required.  Range [lo, hi]. */
static int get_number(const char *file, const view *map, const char *key, const char *field,
                      double lo, double hi, int required, const char *expected, double *out,
                      gw_error *err)
{
    const view *v = view_map_get(map, key);
    *out = NAN;
    if (view_is_null(v)) {
        if (required)
            return gw_error_set(err, GW_EDATA, "%s: %s: missing (expected %s)", file, field,
                                expected);
        return GW_OK;
    }
    double n = view_num(v);
    if (view_kind(v) != VIEW_NUMBER || !isfinite(n) || n < lo || n > hi)
        return bad(err, file, field, expected, v);
    *out = n;
    return GW_OK;
}

/* A string field, one of choices (NULL choices: any non-empty text). */
static int get_string(const char *file, const view *map, const char *key, const char *field,
                      const char *const *choices, const char *fallback, const char *expected,
                      char **out, gw_error *err)
{
    const view *v = view_map_get(map, key);
    *out = NULL;
    if (view_is_null(v)) {
        *out = fallback ? gw_xstrdup(fallback) : NULL;
        return GW_OK;
    }
    const char *s = view_str(v);
    if (!s || !*s)
        return bad(err, file, field, expected, v);
    if (choices) {
        size_t i;
        for (i = 0; choices[i]; i++)
            if (!strcmp(s, choices[i]))
                break;
        if (!choices[i])
            return bad(err, file, field, expected, v);
    }
    *out = gw_xstrdup(s);
    return GW_OK;
}

static int get_bool(const char *file, const view *map, const char *key, int fallback, int *out,
                    gw_error *err)
{
    const view *v = view_map_get(map, key);
    *out = fallback;
    if (view_is_null(v))
        return GW_OK;
    if (view_kind(v) != VIEW_BOOL)
        return bad(err, file, key, "true or false", v);
    *out = view_bool_value(v);
    return GW_OK;
}

/* A nested table, absent allowed.  Lua's {} comes back as an empty list: accept it as a map. */
static int get_table(const char *file, const view *map, const char *key, const char *expected,
                     const view **out, gw_error *err)
{
    const view *v = view_map_get(map, key);
    *out = NULL;
    if (view_is_null(v))
        return GW_OK;
    if (view_kind(v) == VIEW_LIST && view_len(v) == 0)
        return GW_OK;
    if (view_kind(v) != VIEW_MAP)
        return bad(err, file, key, expected, v);
    *out = v;
    return GW_OK;
}

static const char *const precisions[] = {"fp32", "tf32", "amp", "fp16", "bf16", NULL};
static const char *const optimizers[] = {"adam", "adamw", "sgd", "sgd-plain", "none", NULL};
static const char *const parallelisms[] = {"data", "model", "none", NULL};
static const char *const coolings[] = {"good", "poor", NULL};

#define TRY(call)                                                                            \
    do {                                                                                     \
        if ((rc = (call)) != GW_OK)                                                          \
            goto done;                                                                       \
    } while (0)

int workload_from_view(const char *file, const view *t, workload **out, gw_error *err)
{
    int rc = GW_OK;
    *out = NULL;
    if (view_kind(t) != VIEW_MAP)
        return gw_error_set(err, GW_EDATA, "%s: a workload file returns a table (return { ... })",
                            file);
    workload *w = gw_xcalloc(1, sizeof *w);
    w->path = gw_xstrdup(file);
    const view *model = NULL, *work = NULL, *elec = NULL;

    TRY(check_keys(file, "", t, top_fields, err));
    TRY(get_string(file, t, "name", "name", NULL, NULL, "a text", &w->name, err));
    if (!w->name) {
        const char *base = strrchr(file, '/');
        w->name = gw_xstrdup(base ? base + 1 : file);
    }

    TRY(get_table(file, t, "model", "a table { params = ..., precision = ... }", &model, err));
    TRY(get_number(file, t, "vram_gb", "vram_gb", 0.001, 1e6, 0, "a number of GB above 0",
                   &w->vram_gb, err));
    w->params = NAN;
    w->activations_gb = 0;
    if (model) {
        TRY(check_keys(file, "model.", model, model_fields, err));
        TRY(get_number(file, model, "params", "model.params", 1, 1e15, 0,
                       "a number of parameters (e.g. 25.6e6)", &w->params, err));
        TRY(get_string(file, model, "precision", "model.precision", precisions, "amp",
                       "one of fp32, tf32, amp, fp16, bf16", &w->precision, err));
        TRY(get_string(file, model, "optimizer", "model.optimizer", optimizers, "adam",
                       "one of adam, adamw, sgd, sgd-plain, none", &w->optimizer, err));
        double act;
        TRY(get_number(file, model, "activations_gb", "model.activations_gb", 0, 1e6, 0,
                       "a number of GB from 0", &act, err));
        w->activations_gb = isnan(act) ? 0 : act;
    } else {
        w->precision = gw_xstrdup("amp");
        w->optimizer = gw_xstrdup("adam");
    }
    if (isnan(w->params) && isnan(w->vram_gb)) {
        rc = gw_error_set(err, GW_EDATA,
                          "%s: model: missing (give model = { params = ... } or vram_gb = ...)",
                          file);
        goto done;
    }
    TRY(get_number(file, t, "batch_per_gpu", "batch_per_gpu", 1, 1e7, 0,
                   "a number of samples per GPU per step", &w->batch_per_gpu, err));
    TRY(get_string(file, t, "benchmark", "benchmark", NULL, NULL,
                   "the name of measured results in the KB (e.g. \"resnet50\")", &w->benchmark,
                   err));

    TRY(get_table(file, t, "work", "a table { samples = ... } or { hours_on = ..., hours = ... }",
                  &work, err));
    w->work_samples = w->work_hours = NAN;
    if (work) {
        TRY(check_keys(file, "work.", work, work_fields, err));
        TRY(get_number(file, work, "samples", "work.samples", 1, 1e18, 0,
                       "a number of samples above 0", &w->work_samples, err));
        TRY(get_string(file, work, "hours_on", "work.hours_on", NULL, NULL, "a GPU name",
                       &w->work_hours_on, err));
        TRY(get_number(file, work, "hours", "work.hours", 0.001, 1e9, w->work_hours_on != NULL,
                       "a number of hours above 0", &w->work_hours, err));
        if (!isnan(w->work_samples) && w->work_hours_on) {
            rc = gw_error_set(err, GW_EDATA,
                              "%s: work: give samples or hours_on with hours, not both", file);
            goto done;
        }
        if (!isnan(w->work_hours) && !w->work_hours_on) {
            rc = gw_error_set(err, GW_EDATA, "%s: work.hours_on: missing (hours on which GPU?)",
                              file);
            goto done;
        }
    }
    if (!w->benchmark && !w->work_hours_on) {
        rc = gw_error_set(err, GW_EDATA,
                          "%s: benchmark: missing (name the KB's measured results, e.g. "
                          "\"resnet50\", or give work = { hours_on = GPU, hours = N })",
                          file);
        goto done;
    }
    if (!isnan(w->work_samples) && !w->benchmark) {
        rc = gw_error_set(err, GW_EDATA,
                          "%s: benchmark: missing (work.samples needs a benchmark that "
                          "measures samples per second)",
                          file);
        goto done;
    }

    TRY(get_string(file, t, "parallelism", "parallelism", parallelisms, "data",
                   "one of data, model, none", &w->parallelism, err));
    TRY(get_number(file, t, "hours_per_day", "hours_per_day", 0.01, 24, 1,
                   "a number from 0 to 24", &w->hours_per_day, err));
    TRY(get_number(file, t, "horizon_months", "horizon_months", 0.1, 240, 1,
                   "a number of months from 0.1 to 240", &w->horizon_months, err));
    char *currency = NULL;
    TRY(get_string(file, t, "currency", "currency", NULL, NULL,
                   "an ISO 4217 code such as \"CNY\" or \"USD\"", &currency, err));
    if (!currency || !units_is_currency(currency)) {
        const view *v = view_map_get(t, "currency");
        free(currency);
        if (view_is_null(v))
            rc = gw_error_set(err, GW_EDATA, "%s: currency: missing (expected an ISO 4217 code "
                                             "such as \"CNY\" or \"USD\")",
                              file);
        else
            rc = bad(err, file, "currency", "an ISO 4217 code such as \"CNY\" or \"USD\"", v);
        goto done;
    }
    memcpy(w->currency, currency, 4);
    free(currency);
    TRY(get_number(file, t, "budget", "budget", 0, 1e15, 0, "an amount from 0", &w->budget,
                   err));

    TRY(get_table(file, t, "electricity", "a table { price = ..., pue = ... }", &elec, err));
    if (!elec) {
        rc = gw_error_set(err, GW_EDATA,
                          "%s: electricity: missing (expected { price = PER_KWH })", file);
        goto done;
    }
    TRY(check_keys(file, "electricity.", elec, electricity_fields, err));
    TRY(get_number(file, elec, "price", "electricity.price", 0, 1e4, 1,
                   "a price per kWh from 0, in the workload's currency", &w->electricity_price,
                   err));
    TRY(get_number(file, elec, "pue", "electricity.pue", 1, 5, 0, "a number from 1 to 5",
                   &w->pue, err));
    if (isnan(w->pue))
        w->pue = 1;

    TRY(get_bool(file, t, "used_ok", 0, &w->used_ok, err));
    TRY(get_string(file, t, "cooling", "cooling", coolings, "good", "one of good, poor",
                   &w->cooling, err));

    const view *cands = view_map_get(t, "candidates");
    if (!view_is_null(cands)) {
        if (view_kind(cands) != VIEW_LIST || view_len(cands) == 0) {
            rc = bad(err, file, "candidates",
                     "a list of GPU names (\"4x rtx-3090\", \"rent:*\", ...)", cands);
            goto done;
        }
        w->candidates = gw_xcalloc(view_len(cands), sizeof *w->candidates);
        for (size_t i = 0; i < view_len(cands); i++) {
            const view *c = view_list_at(cands, i);
            if (view_kind(c) != VIEW_STRING || !*view_str(c)) {
                char field[48];
                snprintf(field, sizeof field, "candidates[%zu]", i + 1);
                rc = bad(err, file, field, "a GPU name", c);
                goto done;
            }
            w->candidates[w->n_candidates++] = gw_xstrdup(view_str(c));
        }
    }

    TRY(get_number(file, t, "host_cost", "host_cost", 0, 1e12, 0,
                   "an amount per machine from 0", &w->host_cost, err));
    TRY(get_number(file, t, "host_power_w", "host_power_w", 0, 1e5, 0,
                   "watts per machine from 0", &w->host_power_w, err));
    TRY(get_number(file, t, "cards_per_host", "cards_per_host", 1, 64, 0,
                   "a number of cards from 1 to 64", &w->cards_per_host, err));
    TRY(get_number(file, t, "cooling_cost", "cooling_cost", 0, 1e12, 0,
                   "an amount per machine from 0", &w->cooling_cost, err));
    TRY(get_number(file, t, "upkeep_hours_per_month", "upkeep_hours_per_month", 0, 744, 0,
                   "hours a month from 0 to 744", &w->upkeep_hours_per_month, err));
    TRY(get_number(file, t, "upkeep_rate", "upkeep_rate", 0, 1e9, 0,
                   "an amount per hour from 0", &w->upkeep_rate, err));
    TRY(get_number(file, t, "resale_fraction", "resale_fraction", 0, 1, 0,
                   "a fraction from 0 to 1", &w->resale_fraction, err));
    if (isnan(w->upkeep_hours_per_month))
        w->upkeep_hours_per_month = 0;
    if (isnan(w->upkeep_rate))
        w->upkeep_rate = 0;
    if (isnan(w->cooling_cost))
        w->cooling_cost = 0;

done:
    if (rc != GW_OK) {
        workload_free(w);
        return rc;
    }
    *out = w;
    return GW_OK;
}

int workload_load(const char *path, kb *k, workload **out, gw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int e = gw_read_file(path, &text, &len);
    if (e)
        return gw_error_set(err, GW_ENOINPUT, "%s: %s", path, strerror(e));
    view *table = NULL;
    int rc = plugin_eval_text(path, text, len, k, NULL, &table, err);
    free(text);
    if (rc != GW_OK) {
        /* A Lua error in a workload file is bad input, not a broken plugin. */
        if (rc == GW_ESOFTWARE)
            err->code = rc = GW_EDATA;
        return rc;
    }
    rc = workload_from_view(path, table, out, err);
    view_free(table);
    return rc;
}

view *workload_to_view(const workload *w)
{
    view *v = view_map();
    view_map_set_str(v, "name", w->name);
    view_map_set_str(v, "file", w->path);
    view *model = view_map_set(v, "model", view_map());
    view_map_set_num(model, "params", w->params);
    view_map_set_str(model, "precision", w->precision);
    view_map_set_str(model, "optimizer", w->optimizer);
    view_map_set_num(model, "activations_gb", w->activations_gb);
    view_map_set_num(v, "vram_gb", w->vram_gb);
    view_map_set_num(v, "batch_per_gpu", w->batch_per_gpu);
    view_map_set_str(v, "benchmark", w->benchmark);
    view *work = view_map_set(v, "work", view_map());
    view_map_set_num(work, "samples", w->work_samples);
    view_map_set_str(work, "hours_on", w->work_hours_on);
    view_map_set_num(work, "hours", w->work_hours);
    view_map_set_str(v, "parallelism", w->parallelism);
    view_map_set_num(v, "hours_per_day", w->hours_per_day);
    view_map_set_num(v, "horizon_months", w->horizon_months);
    view_map_set_str(v, "currency", w->currency);
    view_map_set_num(v, "budget", w->budget);
    view *elec = view_map_set(v, "electricity", view_map());
    view_map_set_num(elec, "price", w->electricity_price);
    view_map_set_num(elec, "pue", w->pue);
    view_map_set_bool(v, "used_ok", w->used_ok);
    view_map_set_str(v, "cooling", w->cooling);
    if (w->candidates) {
        view *c = view_map_set(v, "candidates", view_list());
        for (size_t i = 0; i < w->n_candidates; i++)
            view_list_push(c, view_string(w->candidates[i]));
    } else {
        view_map_set(v, "candidates", view_null());
    }
    view_map_set_num(v, "host_cost", w->host_cost);
    view_map_set_num(v, "host_power_w", w->host_power_w);
    view_map_set_num(v, "cards_per_host", w->cards_per_host);
    view_map_set_num(v, "cooling_cost", w->cooling_cost);
    view_map_set_num(v, "upkeep_hours_per_month", w->upkeep_hours_per_month);
    view_map_set_num(v, "upkeep_rate", w->upkeep_rate);
    view_map_set_num(v, "resale_fraction", w->resale_fraction);
    return v;
}
