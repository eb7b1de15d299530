/* decide_llm_accuracy_view.c — the view of the language-model rows (llm.accuracy,
 * llm.accuracy_text, llm.calibrations): the leave-one-out predictions, each calibration's rows
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

/* Why a row of the workload's kind does not calibrate c: its share, or the first of c's
 * narrowings it fails (decide_llm_row_left_out_step). */
static const char *left_out_why(const decision *d, const llm_calibration *c, const llm_row *r,
                                const llm_implied *im)
{
    if (decide_llm_row_speculative(r))
        return "measured with speculative decoding";
    if (isnan(im->value))
        return "scenario, GPU or model unknown";
    if (im->over)
        return "implausible: above the bound";
    switch (decide_llm_row_left_out_step(d, c, r, im)) {
    case NARROW_VENDOR:
        return "narrowed to the options' GPU vendor's rows";
    case NARROW_ARCH:
        return "narrowed to the options' GPU architecture's rows";
    case NARROW_STACK:
        return "narrowed to the workload's sharding's rows (fully sharded, zero3, or not)";
    case NARROW_MOE:
        return "narrowed to the workload's architecture's rows";
    case NARROW_FORMAT:
        return "narrowed to the workload's number format's rows";
    case NARROW_MODEL:
        return "narrowed to the workload's model's rows";
    default:
        return "narrowed to rows that split no sequence over GPUs (context parallel), as the "
               "workload's layouts";
    }
}

/* llm.calibrations: each calibration the options took: its vendor, the options' vendors that
 * take it, the kind, the rows it drew on, the shares found, and each row used or left out (why). */
static void calibration_view(decision *d, view *v)
{
    size_t n = decide_llm_calibrations(d);
    const struct decide_llm_rows *st = d->llm_rows;
    int kind = decide_llm_workload_kind(d);
    view *list = view_map_set(v, "calibrations", view_list());
    for (size_t k = 0; k < n; k++) {
        const llm_calibration *c = &st->cals[k];
        view *m = view_list_push(list, view_map());
        view_map_set_str(m, "vendor", c->vendor);
        view_map_set_str(m, "architecture", c->architecture);
        view *vendors = view_map_set(m, "gpu_vendors", view_list());
        for (size_t i = 0; i < st->n_vendors; i++) {
            size_t j = 0;   /* once a vendor, whatever architectures of it take it */
            while (j < i && !(st->vendors[j].cal == k &&
                              decide_str_eq(st->vendors[j].vendor, st->vendors[i].vendor)))
                j++;
            if (st->vendors[i].cal == k && st->vendors[i].vendor && j == i)
                view_list_push(vendors, view_string(st->vendors[i].vendor));
        }
        view_map_set_str(m, "kind", decide_llm_kind_name(kind));
        view_map_set_str(m, "scope", c->scope);
        view_map_set_str(m, "basis", c->words);
        view_map_set_num(m, "utilisation", c->mfu_rows ? c->mfu : NAN);
        view_map_set_num(m, "bandwidth_share", c->bandwidth_rows ? c->bandwidth : NAN);
        view_map_set_num(m, "band_error_pct", c->band_error * 100);
        view *used = view_map_set(m, "used", view_list());
        view *left = view_map_set(m, "left_out", view_list());
        for (size_t i = 0; i < st->n_cal; i++) {
            const llm_row *r = &st->cal_rows[i];
            const llm_implied *im = &st->cal_implied[i];
            if (r->kind != kind || (isnan(im->value) && !r->has_model && st->cal_rows != st->bench))
                continue;   /* other kinds and unknown models: the trace counts them */
            view *row = view_list_push(c->used[i] ? used : left, row_view(r));
            view_map_set_str(row, "share",
                             im->share == SHARE_BANDWIDTH ? "bandwidth" : "utilisation");
            view_map_set_num(row, "implied", im->value);
            if (!c->used[i])
                view_map_set_str(row, "why", left_out_why(d, c, r, im));
        }
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
    if (narrowed & NARROW_ARCH)
        buf_printf(&b, "%s%s", b.len ? ", " : "", r->gpu->architecture);
    if (narrowed & NARROW_STACK)
        buf_printf(&b, "%s%s", b.len ? ", " : "", decide_llm_row_shards(r) ? "zero3" : "not zero3");
    if (narrowed & NARROW_MOE)
        buf_printf(&b, "%s%s", b.len ? ", " : "", decide_llm_row_moe(r) ? "mixture of experts" : "dense");
    if (narrowed & NARROW_FORMAT)
        buf_printf(&b, "%s%s", b.len ? ", " : "", r->b->precision);
    if (narrowed & NARROW_MODEL)
        buf_printf(&b, "%s%s", b.len ? ", " : "", r->model_id);
    if (narrowed & NARROW_LAYOUT)
        buf_printf(&b, "%s%s", b.len ? ", " : "",
                   decide_llm_row_splits_sequence(r) ? "context parallel" : "no context parallel");
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

/* Whether an error (a fraction) is within a target in percent: judged exactly, so 40.25% is
 * above a 40% target (pct_digits prints it so). */
static int within_target(double error, int target_pct)
{
    return !(error * 100 > target_pct);
}

/* The decimals an error is printed with beside its target: none, or one where the whole percent
 * would round a miss onto the target (40.25% is "40.3%", not "40%"). */
static int pct_digits(double error, int target_pct)
{
    return !within_target(error, target_pct) && !(nearbyint(error * 100) > target_pct);
}

static int meets_targets(double median, double max)
{
    return within_target(median, DECIDE_LLM_TARGET_MEDIAN_PCT) &&
           within_target(max, DECIDE_LLM_TARGET_MAX_PCT);
}

/* ", within its 15% and 40% targets", or which of them a median and maximum are above. */
static void target_words(gw_buf *b, double median, double max)
{
    int median_ok = within_target(median, DECIDE_LLM_TARGET_MEDIAN_PCT);
    int max_ok = within_target(max, DECIDE_LLM_TARGET_MAX_PCT);
    if (median_ok != max_ok)
        buf_printf(b, median_ok ? ", the worst case above its %d%% target"
                                : ", the median above its %d%% target",
                   median_ok ? DECIDE_LLM_TARGET_MAX_PCT : DECIDE_LLM_TARGET_MEDIAN_PCT);
    else
        buf_printf(b, ", %s its %d%% and %d%% targets", median_ok ? "within" : "above",
                   DECIDE_LLM_TARGET_MEDIAN_PCT, DECIDE_LLM_TARGET_MAX_PCT);
}

/* The row of kind (-1: of any) predicted furthest from its measurement, and that signed error
 * (*error > 0: predicted faster); a->n where none was predicted. */
static size_t worst_row(const decision *d, const decide_llm_accuracy *a, int kind, double *error)
{
    const struct decide_llm_rows *st = d->llm_rows;
    size_t worst = a->n;
    *error = 0;
    for (size_t i = 0; i < a->n; i++) {
        if ((kind >= 0 && st->rows[i].kind != kind) || isnan(a->predicted[i]))
            continue;
        double e = a->predicted[i] / st->rows[i].b->value - 1;
        if (worst == a->n || fabs(e) > fabs(*error))
            worst = i, *error = e;
    }
    return worst;
}

/* The worst row's parenthesis: the way it erred and which row it is (way given: the workload's
 * own kind's worst, always named), or, where max is above its target, which row it is and its
 * kind of work, which may not be the workload's: " (faster than measured, on 8x h100-sxm5,
 * llama-3-8b)", " (8x b200, deepseek-r1, serving)"; nothing where neither is said. */
static void worst_words(gw_buf *b, const decision *d, size_t i, double max, const char *way)
{
    if (!way && within_target(max, DECIDE_LLM_TARGET_MAX_PCT)) {
        buf_printf(b, "%s%s%s", way ? " (" : "", way ? way : "", way ? ")" : "");
        return;
    }
    const kb_benchmark *row = d->llm_rows->rows[i].b;
    buf_printf(b, " (%s%s%gx %s, %s%s%s)", way ? way : "", way ? ", on " : "", row->gpu_count,
               row->gpu, row->workload, way ? "" : ", ",
               way ? "" : decide_llm_kind_name((decide_llm_kind)d->llm_rows->rows[i].kind));
}

/* The accuracy in a reader's words: first on the workload's own kind of work (the rows its
 * calibration draws on), with the way the worst prediction erred (a speed too high makes a job
 * longer and a served capacity smaller than planned), then over every kind; each against its
 * targets, the worst row named where it is above its target. */
static void accuracy_words(const decision *d, const decide_llm_accuracy *a, gw_buf *b)
{
    if (!a->rows) {
        buf_puts(b, "untested: the KB holds no measured LLM results that state their scenario");
        return;
    }
    int kind = decide_llm_workload_kind(d);
    double kind_error, all_error;
    size_t all_worst = worst_row(d, a, -1, &all_error);
    if (kind >= 0 && a->rows_by_kind[kind]) {
        size_t kind_worst = worst_row(d, a, kind, &kind_error);
        buf_printf(b, "predicting each of the KB's %d measured %s results from the others, the "
                      "speed model is %.*f%% off at the median and %.*f%% at most",
                   a->rows_by_kind[kind], decide_llm_kind_name((decide_llm_kind)kind),
                   pct_digits(a->median_by_kind[kind], DECIDE_LLM_TARGET_MEDIAN_PCT), a->median_by_kind[kind] * 100,
                   pct_digits(a->max_by_kind[kind], DECIDE_LLM_TARGET_MAX_PCT), a->max_by_kind[kind] * 100);
        worst_words(b, d, kind_worst, a->max_by_kind[kind],
                    kind_error > 0 ? "faster than measured" : "slower than measured");
        target_words(b, a->median_by_kind[kind], a->max_by_kind[kind]);
        if (a->without_scenario)   /* the rows it cannot predict: said in the count */
            buf_printf(b, "; over %d of the KB's %d measured LLM results, %.*f%% and %.*f%%",
                       a->rows, a->rows + a->without_scenario, pct_digits(a->median, DECIDE_LLM_TARGET_MEDIAN_PCT),
                       a->median * 100, pct_digits(a->max, DECIDE_LLM_TARGET_MAX_PCT), a->max * 100);
        else
            buf_printf(b, "; over all %d LLM results, %.*f%% and %.*f%%", a->rows,
                       pct_digits(a->median, DECIDE_LLM_TARGET_MEDIAN_PCT), a->median * 100, pct_digits(a->max, DECIDE_LLM_TARGET_MAX_PCT),
                       a->max * 100);
        target_words(b, a->median, a->max);
        if (all_worst != kind_worst)
            worst_words(b, d, all_worst, a->max, NULL);
    } else {
        if (a->without_scenario)
            buf_printf(b, "predicting each of %d of the KB's %d measured LLM results", a->rows,
                       a->rows + a->without_scenario);
        else
            buf_printf(b, "predicting each of the KB's %d measured LLM results", a->rows);
        buf_printf(b, " from the others, the speed model is %.*f%% off at the median and %.*f%% "
                      "at most", pct_digits(a->median, DECIDE_LLM_TARGET_MEDIAN_PCT), a->median * 100,
                   pct_digits(a->max, DECIDE_LLM_TARGET_MAX_PCT), a->max * 100);
        worst_words(b, d, all_worst, a->max, NULL);
        target_words(b, a->median, a->max);
        buf_puts(b, "; none is of this kind");
    }
}

void decide_llm_accuracy_view(decision *d, view *v)
{
    if (!d->llm_rows)
        return;
    const decide_llm_accuracy a = *decide_llm_rows_accuracy(d);   /* borrowed: the decision's */
    view *acc = view_map_set(v, "accuracy", view_map());
    view_map_set_int(acc, "rows", a.rows);
    view_map_set_num(acc, "median_error_pct", a.median * 100);
    view_map_set_num(acc, "max_error_pct", a.max * 100);
    view_map_set_str(acc, "worst", a.worst);
    view_map_set_int(acc, "rows_left_out", a.without_scenario);
    view *targets = view_map_set(acc, "targets", view_map());
    view_map_set_int(targets, "median_pct", DECIDE_LLM_TARGET_MEDIAN_PCT);
    view_map_set_int(targets, "max_pct", DECIDE_LLM_TARGET_MAX_PCT);
    if (a.rows)
        view_map_set_bool(acc, "meets_targets", meets_targets(a.median, a.max));
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
            decide_llm_row_train_layout(st->rows[i].b, st->rows[i].gpu,
                                        decide_llm_row_model(d, &st->rows[i]), &l);
            view_map_set_num(row, "layout_share", l.share);
            view_map_set_num(row, "pipeline_bubble", l.bubble);
            view_map_set_num(row, "stage_imbalance", l.imbalance > 1 ? l.imbalance : 1);
            view_map_set_num(row, "extra_work", l.extra_work);
            llm_scenario sc;   /* its data parallel's share at the utilisation it implies */
            int known = !isnan(a.implied[i]) && decide_llm_row_scenario(&st->rows[i], NULL, &sc);
            view_map_set_num(row, "data_parallel_efficiency",
                             known ? decide_llm_row_train_efficiency(d, &st->rows[i], &sc,
                                                                     a.implied[i])
                                   : NAN);
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
        view_map_set_bool(row, "meets_targets", meets_targets(a.median_by_kind[k], a.max_by_kind[k]));
    }
    gw_buf b = GW_BUF_INIT;
    accuracy_words(d, &a, &b);
    view_map_set_str(v, "accuracy_text", buf_cstr(&b));
    buf_free(&b);
    calibration_view(d, v);
}
