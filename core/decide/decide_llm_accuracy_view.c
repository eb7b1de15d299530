/* decide_llm_accuracy_view.c — the view of the language-model rows (llm.accuracy,
 * llm.accuracy_text, llm.calibration): the leave-one-out predictions, the calibration's rows
 * used and left out, and the accuracy in a reader's words. */
#include "decide_llm_accuracy.h"
#include "decide_llm_rows.h"
#include "decide_llm.h"

#include <math.h>
#include <stdlib.h>

/* ---- the view ---- */

static view *row_view(const llm_row *r)
{
    view *v = view_map();
    view_map_set_str(v, "gpu", r->b->gpu);
    view_map_set_num(v, "gpu_count", r->b->gpu_count);
    view_map_set_str(v, "workload", r->b->workload);
    view_map_set_str(v, "metric", r->b->metric);
    view_map_set_num(v, "value", r->b->value);
    view_map_set_str(v, "source", r->b->source);
    return v;
}

/* llm.calibration: the kind, the rows it drew on, the shares found, and each row used or left
 * out (why). */
static void calibration_view(decision *d, view *v)
{
    decide_llm_rows_calibrate(d);
    const struct decide_llm_rows *st = d->llm_rows;
    int kind = decide_llm_workload_kind(d);
    view *c = view_map_set(v, "calibration", view_map());
    view_map_set_str(c, "kind", decide_llm_kind_name(kind));
    view_map_set_str(c, "scope", st->scope);
    view_map_set_str(c, "basis", st->words);
    view_map_set_num(c, "utilisation", st->mfu_rows ? st->mfu : NAN);
    view_map_set_num(c, "bandwidth_share", st->bandwidth_rows ? st->bandwidth : NAN);
    view_map_set_num(c, "band_error_pct", st->band_error * 100);
    view *used = view_map_set(c, "used", view_list());
    view *left = view_map_set(c, "left_out", view_list());
    for (size_t i = 0; i < st->n_cal; i++) {
        const llm_row *r = &st->cal_rows[i];
        const llm_implied *im = &st->cal_implied[i];
        if (r->kind != kind || (isnan(im->value) && !r->has_model && st->cal_rows != st->bench))
            continue;   /* other kinds and unknown models: the trace counts them */
        view *row = view_list_push(st->cal_used[i] ? used : left, row_view(r));
        view_map_set_str(row, "share", im->share == SHARE_BANDWIDTH ? "bandwidth" : "utilisation");
        view_map_set_num(row, "implied", im->value);
        if (!st->cal_used[i])
            view_map_set_str(row, "why", decide_llm_row_speculative(r) ? "measured with speculative decoding"
                                         : isnan(im->value) ? "scenario, GPU or model unknown"
                                         : im->over ? "implausible: above the bound"
                                         : "narrowed to rows like the workload's (its model's, "
                                           "its architecture's or its number format's: enough "
                                           "of them)");
    }
}

/* A prediction's calibrated_from: the rows it was predicted from ("AMD, dense, llama-3-8b";
 * "every row of its kind" where none of row_pref's narrowings left enough rows; the assumed
 * figures where no other row is of its kind). */
static void narrowed_view(view *row, const llm_row *r, int narrowed)
{
    gw_buf b = GW_BUF_INIT;
    if (narrowed & NARROW_VENDOR)
        buf_printf(&b, "%s", r->gpu->vendor);
    if (narrowed & NARROW_MOE)
        buf_printf(&b, "%s%s", b.len ? ", " : "", decide_llm_row_moe(r) ? "mixture of experts" : "dense");
    if (narrowed & NARROW_FORMAT)
        buf_printf(&b, "%s%s", b.len ? ", " : "", r->b->precision);
    if (narrowed & NARROW_MODEL)
        buf_printf(&b, "%s%s", b.len ? ", " : "", r->model_id);
    if (narrowed & NO_ROWS)
        buf_puts(&b, "the KB's assumed figures (no other row of its kind)");
    else if (!(narrowed & ~(WIDENED_UTILISATION | WIDENED_BANDWIDTH)))
        buf_puts(&b, "every row of its kind");
    if (narrowed & WIDENED_UTILISATION)
        buf_puts(&b, "; utilisation from wider rows (none of these implies it)");
    if (narrowed & WIDENED_BANDWIDTH)
        buf_puts(&b, "; bandwidth from wider rows (none of these implies it)");
    view_map_set_str(row, "calibrated_from", buf_cstr(&b));
    buf_free(&b);
}

/* The accuracy in a reader's words: first on the workload's own kind of work (the rows its
 * calibration draws on), with the way the worst prediction erred (a speed too high makes a job
 * longer and a served capacity smaller than planned), then over every kind. */
static void accuracy_words(const decision *d, const decide_llm_accuracy *a, gw_buf *b)
{
    if (!a->rows) {
        buf_puts(b, "untested: the KB holds no measured LLM results that state their scenario");
        return;
    }
    int kind = decide_llm_workload_kind(d);
    const struct decide_llm_rows *st = d->llm_rows;
    double worst = 0;   /* the signed error of the kind's prediction furthest off */
    for (size_t i = 0; i < a->n; i++)
        if (st->rows[i].kind == kind && !isnan(a->predicted[i])) {
            double e = a->predicted[i] / st->rows[i].b->value - 1;
            if (fabs(e) > fabs(worst))
                worst = e;
        }
    if (kind >= 0 && a->rows_by_kind[kind])
        buf_printf(b, "predicting each of the KB's %d measured %s results from the others, the "
                      "speed model is %.0f%% off at the median and %.0f%% at most (%s than "
                      "measured); over all %d LLM results, %.0f%% and %.0f%%",
                   a->rows_by_kind[kind], decide_llm_kind_name((decide_llm_kind)kind),
                   a->median_by_kind[kind] * 100, a->max_by_kind[kind] * 100,
                   worst > 0 ? "faster" : "slower", a->rows, a->median * 100, a->max * 100);
    else
        buf_printf(b, "predicting each of the KB's %d measured LLM results from the others, the "
                      "speed model is %.0f%% off at the median and %.0f%% at most; none is of "
                      "this kind of work", a->rows, a->median * 100, a->max * 100);
}

void decide_llm_accuracy_view(decision *d, view *v)
{
    if (!d->llm_rows)
        return;
    decide_llm_accuracy a;
    decide_llm_accuracy_compute(d, &a);
    view *acc = view_map_set(v, "accuracy", view_map());
    view_map_set_int(acc, "rows", a.rows);
    view_map_set_num(acc, "median_error_pct", a.median * 100);
    view_map_set_num(acc, "max_error_pct", a.max * 100);
    view_map_set_str(acc, "worst", a.worst);
    view_map_set_int(acc, "rows_left_out", a.without_scenario);
    view *each = view_map_set(acc, "predictions", view_list());
    const struct decide_llm_rows *st = d->llm_rows;
    for (size_t i = 0; i < a.n; i++) {
        if (st->rows[i].kind < 0)
            continue;
        view *row = view_list_push(each, row_view(&st->rows[i]));
        view_map_set_str(row, "kind", decide_llm_kind_name((decide_llm_kind)st->rows[i].kind));
        view_map_set_num(row, "predicted", a.predicted[i]);
        view_map_set_num(row, "error_pct", (a.predicted[i] / st->rows[i].b->value - 1) * 100);
        view_map_set_str(row, "share", a.bandwidth_share[i] ? "bandwidth" : "utilisation");
        view_map_set_num(row, "implied", a.implied[i]);
        view_map_set_str(row, "why_not", a.why[i]);
        if (st->rows[i].kind != DECIDE_LLM_SERVE) {   /* what its stated layout leaves */
            decide_llm_train_layout l;
            decide_llm_row_train_layout(st->rows[i].b, st->rows[i].gpu, &l);
            view_map_set_num(row, "layout_share", l.share);
            view_map_set_num(row, "pipeline_bubble", l.bubble);
        }
        if (!isnan(a.predicted[i]))
            narrowed_view(row, &st->rows[i], a.narrowed[i]);
    }
    view *kinds = view_map_set(acc, "kinds", view_list());
    for (int k = 0; k < DECIDE_LLM_KINDS; k++) {
        if (!a.rows_by_kind[k])
            continue;
        view *row = view_list_push(kinds, view_map());
        view_map_set_str(row, "kind", decide_llm_kind_name((decide_llm_kind)k));
        view_map_set_int(row, "rows", a.rows_by_kind[k]);
        view_map_set_num(row, "median_error_pct", a.median_by_kind[k] * 100);
        view_map_set_num(row, "max_error_pct", a.max_by_kind[k] * 100);
    }
    gw_buf b = GW_BUF_INIT;
    accuracy_words(d, &a, &b);
    view_map_set_str(v, "accuracy_text", buf_cstr(&b));
    buf_free(&b);
    decide_llm_accuracy_free(&a);
    calibration_view(d, v);
}
