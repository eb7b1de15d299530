/* decide_llm_calibration.c — the workload's calibrations: the measured rows of its kind that
 * calibrate an option's utilisation and serving shares, narrowed as a row's leave-one-out
 * prediction is (decide_llm_accuracy.c): to the options' GPU vendor's, a training workload's
 * sharding's (zero3 or not), and so on; one calibration a GPU vendor computed when an option of
 * it first needs one; their trace, band and words. */
#include "decide_llm_accuracy.h"
#include "decide_llm_rows.h"
#include "decide_llm.h"
#include "decide_precision.h"

#include <math.h>
#include <stdlib.h>

#include "model/precision.h"

/* Traces every row c considered: used (with its share) or left out (why). */
static void trace_rows(decision *d, const struct decide_llm_rows *st, const llm_calibration *c,
                       int kind)
{
    int other = 0;
    for (size_t i = 0; i < st->n_cal; i++) {
        const llm_row *r = &st->cal_rows[i];
        const llm_implied *im = &st->cal_implied[i];
        gw_buf b = GW_BUF_INIT;
        decide_llm_row_words(&b, r);
        if (r->kind != kind) {
            other++;
            if (st->cal_rows == st->bench)   /* the workload's own rows: each said */
                decide_trace(d, "LLM calibration: %s: left out, a %s result, not %s", buf_cstr(&b),
                             r->kind < 0 ? "non-LLM" : decide_llm_kind_name(r->kind),
                             decide_llm_kind_name(kind));
        } else if (isnan(im->value)) {
            decide_trace(d, "LLM calibration: %s: left out, its scenario, GPU or model is not "
                            "known to the model", buf_cstr(&b));
        } else if (im->over) {
            decide_trace(d, "LLM calibration: %s: left out as implausible, it implies %.0f%% %s, "
                            "above the bound of %.0f%%", buf_cstr(&b), im->value * 100,
                         im->share == SHARE_BANDWIDTH ? "of the memory bandwidth" : "utilisation",
                         (im->share == SHARE_BANDWIDTH ? DECIDE_LLM_BANDWIDTH_MAX
                                                       : DECIDE_LLM_UTILISATION_MAX) * 100);
        } else if (c->used[i] && kind != DECIDE_LLM_SERVE) {
            decide_llm_train_layout l;
            decide_llm_row_train_layout(r->b, r->gpu, decide_llm_row_model(d, r), &l);
            double dp = decide_llm_row_train_efficiency(d, r, &im->scenario, im->value);
            decide_trace(d, "LLM calibration: %s: used, %.1f%% utilisation (its stated layout "
                            "leaves %.1f%% of its GPUs' compute: %.0f%% over the tensor x "
                            "context parallel group's link, a %.1f%% pipeline bubble; its data "
                            "parallel %.1f%% of the rest: it delivered %.1f%%)",
                         buf_cstr(&b), im->value * 100, l.share * 100, l.link_share * 100,
                         l.bubble * 100, dp * 100, im->value * l.share * dp * 100);
            if (l.bubble > 0)
                decide_cite(d, "megatron-lm-pipeline-paper");
        } else if (c->used[i]) {
            decide_trace(d, "LLM calibration: %s: used, %.1f%% %s", buf_cstr(&b), im->value * 100,
                         im->share == SHARE_BANDWIDTH ? "of the memory bandwidth" : "utilisation");
        }
        buf_free(&b);
    }
    if (other && st->cal_rows != st->bench)
        decide_trace(d, "LLM calibration: %d measured rows of other kinds left out (a %s "
                        "workload is calibrated on %s rows alone)", other,
                     decide_llm_kind_name(kind), decide_llm_kind_name(kind));
}

/* The leave-one-out error of c at MODEL_BAND_PERCENTILE, each used row predicted from the others
 * used; NaN under 2 rows. */
static double calibration_band(const decision *d, const struct decide_llm_rows *st,
                               const llm_calibration *c, size_t used)
{
    if (used < 2)
        return NAN;
    model_calibration mc = {0};
    llm_implied *im = gw_xmalloc(st->n_cal * sizeof *im);
    for (size_t i = 0; i < st->n_cal; i++) {   /* only the used rows calibrate each other */
        im[i] = st->cal_implied[i];
        if (!c->used[i])
            im[i].value = NAN;
    }
    for (size_t i = 0; i < st->n_cal; i++)
        if (c->used[i])
            model_calibration_add(&mc, decide_llm_loo_error(d, st->cal_rows, im, st->n_cal, i) + 1,
                                  1);
    free(im);
    double e = model_calibration_band(&mc);
    model_calibration_free(&mc);
    return e;
}

/* The rows the workload's calibrations draw on, once: its benchmark's (scenario gaps filled from
 * the workload) or the KB's (each stating its own), with the share each of its kind implies. */
static void calibration_prepare(decision *d, struct decide_llm_rows *st)
{
    int kind = decide_llm_workload_kind(d), own = d->w->benchmark != NULL;
    st->prepared = 1;
    st->cal_rows = own ? st->bench : st->rows;
    st->n_cal = own ? st->n_bench : st->n_kb;
    st->cal_implied = gw_xcalloc(st->n_cal ? st->n_cal : 1, sizeof *st->cal_implied);
    for (size_t i = 0; i < st->n_cal; i++) {
        const llm_row *r = &st->cal_rows[i];
        llm_scenario sc;
        st->cal_implied[i].value = NAN;
        if (r->kind == kind && (r->has_model || own) && !decide_llm_row_speculative(r) &&
            decide_llm_row_scenario(r, own ? d->w : NULL, &sc))
            st->cal_implied[i] = decide_llm_row_implied(d, r, &sc);
    }
}

/* Whether the workload trains fully sharded (sharding zero3: FSDP); -1 for serving, whose rows
 * state no sharding. */
static int workload_shards(const decision *d)
{
    if (decide_llm_workload_kind(d) == DECIDE_LLM_SERVE)
        return -1;
    return decide_str_eq(d->w->sharding, "zero3");
}

/* What the workload's calibration prefers, for options of `vendor`: the rows narrowed as a row's
 * leave-one-out prediction is (row_pref), to the options' GPU vendor's, the workload's training
 * stack's (zero3 or not), architecture's, number format's and model's, and rows that split no
 * sequence (a decision's layouts never do).  The rows of the workload's own benchmark are the
 * ones it names: none narrowed away. */
static row_pref workload_pref(const decision *d, const char *vendor, const char *architecture)
{
    if (d->w->benchmark)
        return (row_pref){NULL, -1, NULL, NULL, -1, -1, NULL};
    int serve = decide_llm_workload_kind(d) == DECIDE_LLM_SERVE;
    return (row_pref){vendor,         d->llm.experts > 1, d->w->precision, d->w->model_id, 0,
                      workload_shards(d), serve ? NULL : architecture};
}

int decide_llm_row_left_out_step(const decision *d, const llm_calibration *c, const llm_row *r,
                                 const llm_implied *im)
{
    if (decide_llm_row_speculative(r) || isnan(im->value) || im->over)
        return 0;
    if ((c->narrowed & NARROW_VENDOR) && !(r->gpu && decide_str_eq(r->gpu->vendor, c->vendor)))
        return NARROW_VENDOR;
    if ((c->narrowed & NARROW_STACK) && decide_llm_row_shards(r) != workload_shards(d))
        return NARROW_STACK;
    if ((c->narrowed & NARROW_MOE) && decide_llm_row_moe(r) != (d->llm.experts > 1))
        return NARROW_MOE;
    if ((c->narrowed & NARROW_FORMAT) && !decide_str_eq(r->b->precision, d->w->precision))
        return NARROW_FORMAT;
    if ((c->narrowed & NARROW_ARCH) &&
        !(r->gpu && decide_str_eq(r->gpu->architecture, c->architecture)))
        return NARROW_ARCH;
    if ((c->narrowed & NARROW_MODEL) && !decide_str_eq(r->model_id, d->w->model_id))
        return NARROW_MODEL;
    return NARROW_LAYOUT;
}

/* A training speed-up over BF16 that low-bit rows' utilisations were read with: the format, the
 * architecture it was measured on (own) or the row's, where the span of other architectures'
 * measurements stood in. */
typedef struct read_gain {
    const char *format, *architecture;
    double figure;
    int own;
} read_gain;

enum { MAX_GAINS = 8 };

/* The used training rows that ran at FP8 or FP4 (precision.h: a format that trains with 16-bit
 * weights), read at BF16's rate x the format's measured speed-up on the row's GPU
 * (decide_precision_rate): the distinct gains into gains; returns how many rows. */
static size_t low_bit_gains(const decision *d, const struct decide_llm_rows *st,
                            const llm_calibration *c, read_gain *gains, size_t *n_gains)
{
    size_t rows = 0;
    *n_gains = 0;
    for (size_t i = 0; i < st->n_cal; i++) {
        const llm_row *r = &st->cal_rows[i];
        const char *precision = st->cal_implied[i].scenario.precision;
        const gw_precision *p = gw_precision_find(precision);
        if (!c->used[i] || !p || !p->trains_as || !r->gpu)
            continue;
        const gw_precision *run = decide_precision_on(d, r->gpu, precision, 1);
        gw_speedup sp;
        decide_precision_rate(d, r->gpu, run, 1, &sp);
        if (!run || isnan(sp.figure))
            continue;   /* read at its own format's rate */
        rows++;
        const char *arch = sp.own ? sp.own->architecture : r->gpu->architecture;
        size_t g = 0;
        while (g < *n_gains && !(decide_str_eq(gains[g].format, run->computes) &&
                                 decide_str_eq(gains[g].architecture, arch)))
            g++;
        if (g == *n_gains && g < MAX_GAINS)
            gains[(*n_gains)++] = (read_gain){run->computes, arch, sp.figure, sp.own != NULL};
    }
    return rows;
}

/* ", all FP8 runs, read at BF16's rate x FP8's measured training gain: 1.4x on Hopper and 1.25x
 * on Blackwell" for c's low-bit rows of `used` (the figures from the KB's precision table);
 * nothing where none is, or for serving, whose rows run at their own format's rate. */
static void low_bit_words(gw_buf *b, const decision *d, const struct decide_llm_rows *st,
                          const llm_calibration *c, int kind, size_t used)
{
    read_gain gains[MAX_GAINS];
    size_t n_gains, rows = kind == DECIDE_LLM_SERVE ? 0 : low_bit_gains(d, st, c, gains, &n_gains);
    if (!rows)
        return;
    int one_format = 1;
    for (size_t g = 1; g < n_gains; g++)
        one_format &= decide_str_eq(gains[g].format, gains[0].format);
    if (used == 1)
        buf_puts(b, ", an ");
    else if (rows == used)
        buf_puts(b, ", all ");
    else
        buf_printf(b, ", %zu of them ", rows);
    if (one_format)
        gw_format_words(b, gains[0].format);
    else
        buf_puts(b, "FP8 or FP4");
    buf_printf(b, " run%s, read at BF16's rate x ", rows == 1 ? "" : "s");
    if (one_format) {
        gw_format_words(b, gains[0].format);
        buf_puts(b, "'s measured training gain: ");
    } else
        buf_puts(b, "its format's measured training gain: ");
    for (size_t g = 0; g < n_gains; g++) {
        buf_puts(b, g == 0 ? "" : g + 1 == n_gains ? " and " : ", ");
        if (!one_format) {
            gw_format_words(b, gains[g].format);
            buf_puts(b, "'s ");
        }
        buf_printf(b, "%.3gx on %s%s", gains[g].figure,
                   gains[g].architecture ? gains[g].architecture : "its architecture",
                   gains[g].own ? "" : " (other architectures' median)");
    }
}

/* "; all fully sharded (zero3) runs, as the workload's training" where c's rows are all of the
 * workload's sharding (said for a zero3 workload, or where the rows were narrowed to it: "; none
 * fully sharded (zero3), as the workload's training is not"); where they mix, the
 * fallback: fewer than DECIDE_LLM_SAME_MODEL_ROWS of its sharding are usable, so rows of every
 * sharding calibrate it.  Nothing for serving or the workload's own benchmark. */
static void stack_words(gw_buf *b, const decision *d, const struct decide_llm_rows *st,
                        const llm_calibration *c, size_t used)
{
    int shards = workload_shards(d);
    if (shards < 0 || d->w->benchmark || !used)
        return;
    size_t same = 0;
    for (size_t i = 0; i < st->n_cal; i++)
        same += c->used[i] && decide_llm_row_shards(&st->cal_rows[i]) == shards;
    if (same == used && shards)
        buf_puts(b, used == 1 ? "; a fully sharded (zero3) run, as the workload's training"
                              : "; all fully sharded (zero3) runs, as the workload's training");
    else if (same == used && (c->narrowed & NARROW_STACK))
        buf_puts(b, "; none fully sharded (zero3), as the workload's training is not");
    else if (same < used) {
        if (same)
            buf_printf(b, "; %zu of them", same);
        else
            buf_puts(b, "; none of them");
        buf_printf(b, " %sfully sharded (zero3) as the workload's training: fewer than %d such "
                      "rows are usable, so rows of every sharding calibrate it",
                   shards ? "" : "not ", DECIDE_LLM_SAME_MODEL_ROWS);
    }
}

/* ---- serving a mixture of experts: the formats its few rows ran ---- */

enum { MAX_FORMAT_WORDS = 4 };

/* "; 1 of them at fp8, the workload's format, 2 at fp4 on b200: fewer than 2 mixture-of-experts
 * rows at fp8 are usable, so rows of every format calibrate it" where a serving calibration
 * narrowed to mixture-of-experts rows mixes number formats: those rows are few (the KB's
 * DeepSeek-R1 runs), and without it an FP8 workload on Hopper would be calibrated on FP4
 * Blackwell rows unsaid.  Nothing where every row is at the workload's format. */
static void moe_format_words(gw_buf *b, const decision *d, const struct decide_llm_rows *st,
                             const llm_calibration *c, int kind, size_t used)
{
    if (kind != DECIDE_LLM_SERVE || !(c->narrowed & NARROW_MOE) || !used || d->w->benchmark)
        return;
    const kb_benchmark *other[MAX_FORMAT_WORDS];
    size_t same = 0, count[MAX_FORMAT_WORDS] = {0}, n_other = 0;
    for (size_t i = 0; i < st->n_cal; i++) {
        const kb_benchmark *r = st->cal_rows[i].b;
        if (!c->used[i] || decide_str_eq(r->precision, d->w->precision)) {
            same += c->used[i];
            continue;
        }
        size_t k = 0;
        while (k < n_other && !(decide_str_eq(other[k]->precision, r->precision) &&
                                decide_str_eq(other[k]->gpu, r->gpu)))
            k++;
        if (k == n_other && n_other < MAX_FORMAT_WORDS)
            other[n_other++] = r;
        if (k < n_other)
            count[k]++;
    }
    if (!n_other)
        return;
    if (same)
        buf_printf(b, "; %zu of them at %s, the workload's format", same, d->w->precision);
    else
        buf_printf(b, "; none of them at %s, the workload's format", d->w->precision);
    for (size_t k = 0; k < n_other; k++)
        buf_printf(b, ", %zu at %s on %s", count[k],
                   other[k]->precision ? other[k]->precision : "?",
                   other[k]->gpu ? other[k]->gpu : "?");
    buf_printf(b, ": fewer than %d mixture-of-experts rows at %s are usable, so rows of every "
                  "format calibrate it", DECIDE_LLM_SAME_MODEL_ROWS, d->w->precision);
}

/* The rows of c's kind that c leaves out because they split a sequence over GPUs (context
 * parallel) and for nothing else. */
static size_t context_parallel_left_out(const decision *d, const struct decide_llm_rows *st,
                                        const llm_calibration *c, int kind)
{
    size_t n = 0;
    for (size_t i = 0; (c->narrowed & NARROW_LAYOUT) && i < st->n_cal; i++)
        n += st->cal_rows[i].kind == kind && !c->used[i] &&
             decide_llm_row_left_out_step(d, c, &st->cal_rows[i], &st->cal_implied[i]) ==
                 NARROW_LAYOUT;
    return n;
}
/* 1 when two catalog models are one architecture under two names (Llama 3 8B and 3.1 8B: the
 * same figures, only the context differs): every figure a token's FLOPs and bytes read. */
static int same_architecture(const model_llm *a, const model_llm *b)
{
    const double x[] = {a->params, a->active_params, a->layers, a->hidden, a->heads,
                        a->kv_heads, a->head_dim, a->vocab, a->ffn, a->experts,
                        a->experts_active, a->attention_head_dim, a->decode_attention_head_dim};
    const double y[] = {b->params, b->active_params, b->layers, b->hidden, b->heads,
                        b->kv_heads, b->head_dim, b->vocab, b->ffn, b->experts,
                        b->experts_active, b->attention_head_dim, b->decode_attention_head_dim};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
        if (x[i] != y[i] && !(isnan(x[i]) && isnan(y[i])))
            return 0;
    return 1;
}


/* c's scope and words: "calibrated on 8 measured NVIDIA LoRA fine-tune rows of dense models
 * (none of llama-3-8b), all FP8 runs, read at ...; 6 context-parallel rows left out" (the
 * vendor where its rows were narrowed to it). */
static void calibration_words(decision *d, const struct decide_llm_rows *st, llm_calibration *c,
                              int kind, const row_pref *p, size_t used)
{
    gw_buf b = GW_BUF_INIT;
    const char *models = p->moe ? "mixture-of-experts models" : "dense models";
    if (d->w->benchmark)
        buf_printf(&b, "the benchmark %s", d->w->benchmark);
    else
        buf_puts(&b, c->narrowed & NARROW_MODEL ? d->w->model_id
                     : c->narrowed & NARROW_MOE ? (p->moe ? "every mixture-of-experts model"
                                                          : "every dense model")
                                                : "every model");
    if (c->narrowed & NARROW_FORMAT)
        buf_printf(&b, " at %s", d->w->precision);
    c->scope = buf_detach(&b);
    if (!used) {
        c->words = gw_xstrdup("the KB's assumed figure");
        return;
    }
    buf_printf(&b, "calibrated on %zu measured %s%s%s%s%s row%s of ", used,
               c->vendor ? c->vendor : "", c->vendor ? " " : "",
               c->architecture ? c->architecture : "", c->architecture ? " " : "",
               decide_llm_kind_name(kind), used == 1 ? "" : "s");
    if (d->w->benchmark || (c->narrowed & NARROW_MODEL)) {
        buf_puts(&b, c->scope);
    } else {   /* the scope is a set of models: say how many rows are the workload's own */
        size_t own = 0, alike = 0;
        for (size_t i = 0; i < st->n_cal; i++) {
            const llm_row *r = &st->cal_rows[i];
            own += c->used[i] && decide_str_eq(r->model_id, d->w->model_id);
            alike += c->used[i] && r->has_model && same_architecture(&r->model, &d->llm);
        }
        buf_puts(&b, c->narrowed & NARROW_MOE ? models : "any model");
        if (c->narrowed & NARROW_FORMAT)
            buf_printf(&b, " at %s", d->w->precision);
        if (own && d->w->model_id)
            buf_printf(&b, " (%zu of %s)", own, d->w->model_id);
        else if (alike && d->w->model_id)
            buf_printf(&b, " (%zu of %s's architecture)", alike,
                       d->w->model_id);
        else if (d->w->model_id)
            buf_printf(&b, " (none of %s)", d->w->model_id);
    }
    low_bit_words(&b, d, st, c, kind, used);
    stack_words(&b, d, st, c, used);
    moe_format_words(&b, d, st, c, kind, used);
    size_t split = context_parallel_left_out(d, st, c, kind);
    if (split)
        buf_printf(&b, "; %zu context-parallel row%s left out", split, split == 1 ? "" : "s");
    c->words = buf_detach(&b);
}

/* Computes c, the calibration of options of `vendor` (NULL: not narrowed by vendor) whose rows
 * are c->used (decide_llm_rows_select, already marked), narrowed: its shares, band, words and
 * trace. */
static void calibration_compute(decision *d, llm_calibration *c, const row_pref *p, size_t used)
{
    struct decide_llm_rows *st = d->llm_rows;
    int kind = decide_llm_workload_kind(d);
    decide_llm_rows_shares(d, st->cal_implied, c->used, st->n_cal, &c->mfu, &c->bandwidth,
                           &c->mfu_rows, &c->bandwidth_rows);
    if (used && !c->mfu_rows)
        c->mfu = decide_llm_widened_share(d, st->cal_rows, st->cal_implied, st->n_cal, kind, *p,
                                          st->n_cal, c->narrowed, SHARE_UTILISATION, c->mfu,
                                          &c->mfu_rows);
    if (used && !c->bandwidth_rows && kind == DECIDE_LLM_SERVE)
        c->bandwidth = decide_llm_widened_share(d, st->cal_rows, st->cal_implied, st->n_cal, kind,
                                                *p, st->n_cal, c->narrowed, SHARE_BANDWIDTH,
                                                c->bandwidth, &c->bandwidth_rows);
    c->band_error = calibration_band(d, st, c, used);
    calibration_words(d, st, c, kind, p, used);
    /* The rows used, each with its source, are listed in llm.calibrations and the trace, not
     * cited one by one: a serving calibration draws on many sources, and the reports are near
     * their length limit (tests/cli/report.sh). */
    trace_rows(d, st, c, kind);
    decide_trace(d, "LLM calibration (%s): %s; utilisation %.1f%% (%d rows), decode bandwidth "
                    "share %.1f%% (%d rows)%s", decide_llm_kind_name(kind), c->words,
                 c->mfu * 100, c->mfu_rows, c->bandwidth * 100, c->bandwidth_rows,
                 c->narrowed & NARROW_LAYOUT ? "; rows that split a sequence over GPUs (context "
                                               "parallel) left out: no layout here does"
                                             : "");
}

/* Whether two names, either NULL, are the same. */
static int same_name(const char *a, const char *b)
{
    return a == b || decide_str_eq(a, b);
}

/* The index of the calibration options of `vendor` and `architecture` take, computing it where
 * no earlier GPU's rows were narrowed alike (to the same vendor and architecture, or none). */
static size_t calibration_of_gpu(decision *d, const char *vendor, const char *architecture)
{
    struct decide_llm_rows *st = d->llm_rows;
    for (size_t i = 0; i < st->n_vendors; i++)
        if (same_name(st->vendors[i].vendor, vendor) &&
            same_name(st->vendors[i].architecture, architecture))
            return st->vendors[i].cal;
    int kind = decide_llm_workload_kind(d), narrowed;
    row_pref p = workload_pref(d, vendor, architecture);
    unsigned char *used = gw_xcalloc(st->n_cal ? st->n_cal : 1, 1);
    size_t n_used = decide_llm_rows_select(st->cal_rows, st->cal_implied, st->n_cal, kind, &p,
                                           st->n_cal, used, &narrowed);
    const char *narrowed_to = narrowed & NARROW_VENDOR ? vendor : NULL;
    const char *arch_to = narrowed & NARROW_ARCH ? architecture : NULL;
    size_t k = 0;
    while (k < st->n_cals && !(same_name(st->cals[k].vendor, narrowed_to) &&
                               same_name(st->cals[k].architecture, arch_to)))
        k++;
    if (k == st->n_cals) {
        st->cals = gw_xrealloc(st->cals, (st->n_cals + 1) * sizeof *st->cals);
        llm_calibration *c = &st->cals[st->n_cals++];
        *c = (llm_calibration){.vendor = narrowed_to ? gw_xstrdup(narrowed_to) : NULL,
                               .architecture = arch_to ? gw_xstrdup(arch_to) : NULL,
                               .used = used, .narrowed = narrowed};
        used = NULL;
        if (!narrowed_to)
            p.vendor = NULL;   /* its wider shares read as no vendor's */
        if (!arch_to)
            p.architecture = NULL;
        calibration_compute(d, c, &p, n_used);
    }
    free(used);
    st->vendors = gw_xrealloc(st->vendors, (st->n_vendors + 1) * sizeof *st->vendors);
    st->vendors[st->n_vendors++] =
        (llm_vendor_cal){vendor ? gw_xstrdup(vendor) : NULL,
                         architecture ? gw_xstrdup(architecture) : NULL, k};
    return k;
}

const llm_calibration *decide_llm_rows_calibrate(decision *d, const kb_gpu *g)
{
    struct decide_llm_rows *st = d->llm_rows;
    if (!st)
        return NULL;
    if (!st->prepared)
        calibration_prepare(d, st);
    if (g)
        st->current = calibration_of_gpu(d, g->vendor, g->architecture);
    else if (!st->n_cals)
        st->current = calibration_of_gpu(d, NULL, NULL);
    return &st->cals[st->current];
}

size_t decide_llm_calibrations(decision *d)
{
    decide_llm_rows_calibrate(d, NULL);
    return d->llm_rows ? d->llm_rows->n_cals : 0;
}

/* Makes c's utilisation the one training applies (d->llm_mfu, its rows and band), the KB's
 * assumed figure (cited) where c has no rows; kept where c already is (a what-if's scaled
 * figure, decide_whatif.c). */
static void apply_training(decision *d, size_t k)
{
    struct decide_llm_rows *st = d->llm_rows;
    if (st && st->applied == k && !isnan(d->llm_mfu))
        return;
    const llm_calibration *c = st ? &st->cals[k] : NULL;
    if (st)
        st->applied = k;
    d->llm_mfu_rows = c ? c->mfu_rows : 0;
    d->llm_mfu_error = c ? c->band_error : NAN;
    if (d->llm_mfu_rows) {
        d->llm_mfu = c->mfu;
    } else {
        d->llm_mfu = d->facts[KB_ASSUMED_LLM_MFU].value;
        decide_fact_cite(d, KB_ASSUMED_LLM_MFU);
    }
}

void decide_llm_calibration_use(decision *d, size_t i)
{
    struct decide_llm_rows *st = d->llm_rows;
    if (!st || i >= st->n_cals)
        return;
    st->current = i;
    if (d->llm_setup.task != MODEL_INFERENCE)
        apply_training(d, i);
}

int decide_llm_calibration_vendors(const decision *d, const char *prefix, gw_buf *b)
{
    const struct decide_llm_rows *st = d->llm_rows;
    if (!st || st->n_cals < 2)
        return 0;
    const llm_calibration *c = &st->cals[st->current];
    int said = 0;
    buf_puts(b, prefix);
    for (size_t i = 0; i < st->n_vendors; i++) {
        const llm_vendor_cal *v = &st->vendors[i];
        const char *arch = c->architecture ? v->architecture : NULL;
        size_t j = 0;   /* said already: options of another architecture that take it alike */
        while (j < i && !(st->vendors[j].cal == v->cal && same_name(st->vendors[j].vendor,
                                                                    v->vendor) &&
                          same_name(c->architecture ? st->vendors[j].architecture : NULL, arch)))
            j++;
        if (v->cal != st->current || j < i)
            continue;
        buf_printf(b, "%s%s%s%s", said++ ? " and " : "",
                   v->vendor ? v->vendor : "unnamed vendors'", arch ? " " : "", arch ? arch : "");
    }
    buf_puts(b, " GPUs");
    return 1;
}

double decide_llm_training_mfu(decision *d, const kb_gpu *g)
{
    decide_llm_rows_calibrate(d, g);
    apply_training(d, d->llm_rows ? d->llm_rows->current : 0);
    return d->llm_mfu;
}

int decide_llm_serving_shares(decision *d, const kb_gpu *g, double *mfu, double *bandwidth)
{
    const llm_calibration *c = decide_llm_rows_calibrate(d, g);
    int mfu_measured = c && c->mfu_rows, bandwidth_measured = c && c->bandwidth_rows;
    *mfu = mfu_measured ? c->mfu : d->facts[KB_ASSUMED_LLM_MFU].value;
    *bandwidth = bandwidth_measured ? c->bandwidth : d->facts[KB_ASSUMED_DECODE_BANDWIDTH].value;
    if (d->llm_share_what_if > 0) {   /* an option's own speed scaled, both shares alike */
        *mfu = fmin(1, *mfu * d->llm_share_what_if);
        *bandwidth = fmin(1, *bandwidth * d->llm_share_what_if);
    }
    return mfu_measured | bandwidth_measured << 1;
}

const char *decide_llm_calibration_words(const decision *d)
{
    const struct decide_llm_rows *st = d->llm_rows;
    return st && st->n_cals ? st->cals[st->current].words : "the KB's assumed figure";
}

/* Why step leaves a row out, in a clause's words: "ran context parallel". */
static const char *left_out_words(int step)
{
    switch (step) {
    case NARROW_VENDOR:
        return "are of another vendor's GPU";
    case NARROW_ARCH:
        return "are of another GPU architecture";
    case NARROW_STACK:
        return "shard their parameters otherwise (zero3 or not)";
    case NARROW_MOE:
        return "are of models of another architecture";
    case NARROW_FORMAT:
        return "ran at another number format";
    case NARROW_MODEL:
        return "are of other models";
    default:
        return "ran context parallel";
    }
}

/* Whether rows[i] is of g (NULL: any GPU). */
static int row_of_gpu(const llm_row *r, const kb_gpu *g)
{
    return !g || (r->gpu && decide_str_eq(r->gpu->id, g->id));
}

/* Whether c leaves out the calibrating row i, of kind, by step. */
static int left_out_by(const decision *d, const struct decide_llm_rows *st,
                       const llm_calibration *c, size_t i, int kind, int step)
{
    return st->cal_rows[i].kind == kind && !c->used[i] &&
           decide_llm_row_left_out_step(d, c, &st->cal_rows[i], &st->cal_implied[i]) == step;
}

/* The lowest and highest utilisation the rows of c's kind of GPU g (NULL: any) imply that c
 * leaves out by step, or (step 0) that c uses; how many. */
static size_t utilisation_span(const decision *d, const struct decide_llm_rows *st,
                               const llm_calibration *c, int kind, const kb_gpu *g, int step,
                               double *lo, double *hi)
{
    size_t n = 0;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < st->n_cal; i++) {
        const llm_row *r = &st->cal_rows[i];
        const llm_implied *im = &st->cal_implied[i];
        if (r->kind != kind || im->share != SHARE_UTILISATION || isnan(im->value) ||
            !row_of_gpu(r, g) || (step ? !left_out_by(d, st, c, i, kind, step) : !c->used[i]))
            continue;
        n++;
        *lo = fmin(*lo, im->value);
        *hi = fmax(*hi, im->value);
    }
    return n;
}

/* "43% to 46%", or "45%" for one figure. */
static void span_words(gw_buf *b, double lo, double hi)
{
    if (nearbyint(lo * 100) == nearbyint(hi * 100))
        buf_printf(b, "%.0f%%", lo * 100);
    else
        buf_printf(b, "%.0f%% to %.0f%%", lo * 100, hi * 100);
}

/* "h100-sxm5's 43% to 46%, gb200's 62% to 66%": each GPU but g whose rows
 * c leaves out by step, once, its rows' utilisations; returns how many GPUs. */
static size_t other_gpus_words(gw_buf *b, const decision *d, const struct decide_llm_rows *st,
                               const llm_calibration *c, int kind, const kb_gpu *g, int step)
{
    size_t said = 0;
    for (size_t i = 0; i < st->n_cal; i++) {
        const llm_row *r = &st->cal_rows[i];
        double lo, hi;
        if (!r->gpu || row_of_gpu(r, g) || !left_out_by(d, st, c, i, kind, step))
            continue;
        size_t first = 0;   /* said at its GPU's first such row only */
        while (first < i && !(row_of_gpu(&st->cal_rows[first], r->gpu) &&
                              left_out_by(d, st, c, first, kind, step)))
            first++;
        if (first < i || !utilisation_span(d, st, c, kind, r->gpu, step, &lo, &hi))
            continue;
        buf_printf(b, "%s%s's ", said++ ? ", " : "", r->gpu->id);   /* as a row's words name it */
        span_words(b, lo, hi);
    }
    return said;
}

/* The calibration options of g take, where none of its rows is of g; NULL where one is, or
 * where the workload's own benchmark calibrates it (its rows are that benchmark's, whatever
 * GPU). */
static const llm_calibration *unseen_calibration(decision *d, const kb_gpu *g)
{
    const llm_calibration *c = g ? decide_llm_rows_calibrate(d, g) : NULL;
    if (!c || d->w->benchmark)
        return NULL;
    const struct decide_llm_rows *st = d->llm_rows;
    int kind = decide_llm_workload_kind(d);
    for (size_t i = 0; i < st->n_cal; i++)
        if (c->used[i] && st->cal_rows[i].kind == kind && st->cal_rows[i].gpu &&
            row_of_gpu(&st->cal_rows[i], g))
            return NULL;   /* g's own rows calibrate it */
    return c;
}

double decide_llm_unseen_band(decision *d, const kb_gpu *g)
{
    if (!unseen_calibration(d, g))
        return NAN;
    struct decide_llm_rows *st = d->llm_rows;
    if (isnan(st->unseen_band)) {   /* once a decision (NaN again where no row is predicted) */
        const struct decide_llm_accuracy *a = decide_llm_rows_accuracy(d);
        int kind = decide_llm_workload_kind(d);
        model_calibration mc = {0};
        for (size_t i = 0; i < a->n; i++)
            if (st->rows[i].kind == kind && !isnan(a->predicted[i]))
                model_calibration_add(&mc, a->predicted[i] / st->rows[i].b->value, 1);
        st->unseen_band = mc.rows ? model_calibration_band(&mc) : NAN;
        model_calibration_free(&mc);
    }
    return st->unseen_band;
}

double decide_llm_option_band(decision *d, const kb_gpu *g, double e, double *widened)
{
    double unseen = decide_llm_unseen_band(d, g);
    *widened = unseen > e ? unseen : NAN;   /* NaN: its GPU's own rows calibrate it, or the
                                             * model is no further off over every row */
    return unseen > e ? unseen : e;
}

void decide_llm_band_widened_words(decision *d, const kb_gpu *g, double e, gw_buf *b)
{
    buf_printf(b, "; widened to %.1f%%, the model's error at the %.0fth percentile over every "
                  "measured %s row, as no %s row calibrates it", e * 100,
               MODEL_BAND_PERCENTILE * 100, decide_llm_kind_name(decide_llm_workload_kind(d)),
               g->name ? g->name : g->id);
}

void decide_llm_calibration_gpu_words(decision *d, const kb_gpu *g, gw_buf *b)
{
    const llm_calibration *c = unseen_calibration(d, g);
    if (!c)
        return;
    const struct decide_llm_rows *st = d->llm_rows;
    int kind = decide_llm_workload_kind(d), step = 0;
    size_t left = 0;
    for (size_t i = 0; i < st->n_cal; i++) {
        const llm_row *r = &st->cal_rows[i];
        if (r->kind != kind || !r->gpu || !row_of_gpu(r, g))
            continue;
        int why = decide_llm_row_left_out_step(d, c, r, &st->cal_implied[i]);
        if (why && (!step || why == step)) {
            step = why;
            left++;
        }
    }
    if (!left)
        return;
    buf_printf(b, "; no %s row calibrates it: its %zu %s row%s %s", g->name ? g->name : g->id, left,
               decide_llm_kind_name(kind), left == 1 ? "" : "s", left_out_words(step));
    double lo, hi;
    if (!utilisation_span(d, st, c, kind, g, step, &lo, &hi))
        return;   /* serving's rows bound by bandwidth: no utilisation to compare */
    buf_puts(b, ", at ");
    span_words(b, lo, hi);
    buf_puts(b, " utilisation (other rows left out so: ");
    if (!other_gpus_words(b, d, st, c, kind, g, step))
        buf_puts(b, "none");
    if (utilisation_span(d, st, c, kind, NULL, 0, &lo, &hi)) {
        buf_puts(b, "; the rows used: ");
        span_words(b, lo, hi);
    }
    buf_puts(b, ")");
}

/* o's band basis: its calibration c's (the same for every option of c, and asked for at each of
 * a decision's thousands of speed computations: written once), then where its band is widened
 * (unseen not NaN), why. */
static void serving_band_basis(decision *d, decide_option *o, size_t k, double unseen)
{
    llm_calibration *c = &d->llm_rows->cals[k];
    if (!c->band_basis) {
        gw_buf basis = GW_BUF_INIT;   /* the rows' sources are cited once, by llm.calibrations */
        double e = c->band_error;
        buf_printf(&basis, "the serving shares' calibration (%s), each row hidden in turn and "
                           "predicted from the others: off by %.1f%% at the %.0fth percentile of "
                           "those errors; the band is the figure / %.3g to x %.3g",
                   c->words, e * 100, MODEL_BAND_PERCENTILE * 100, 1 + e, 1 + e);
        c->band_basis = buf_detach(&basis);
    }
    free(o->throughput_band_basis);
    if (isnan(unseen)) {
        o->throughput_band_basis = gw_xstrdup(c->band_basis);
        return;
    }
    gw_buf b = GW_BUF_INIT;
    buf_puts(&b, c->band_basis);
    decide_llm_band_widened_words(d, o->gpu, unseen, &b);
    o->throughput_band_basis = buf_detach(&b);
}

int decide_llm_serving_band(decision *d, decide_option *o)
{
    const llm_calibration *c = decide_llm_rows_calibrate(d, o->gpu);
    double e = c ? c->band_error : NAN;
    if (isnan(e))
        return 0;
    size_t k = (size_t)(c - d->llm_rows->cals);
    double unseen, band = decide_llm_option_band(d, o->gpu, e, &unseen);
    o->throughput_lo = o->throughput / (1 + band);
    o->throughput_hi = o->throughput * (1 + band);
    serving_band_basis(d, o, k, unseen);
    return 1;
}

int decide_llm_serving_method_words(decision *d, gw_buf *b)
{
    const llm_calibration *c = decide_llm_rows_calibrate(d, NULL);
    if (!c || !(c->mfu_rows + c->bandwidth_rows))
        return 0;
    buf_puts(b, "; ");
    if (decide_llm_calibration_vendors(d, "", b))   /* several: each its shares */
        buf_printf(b, ", %.0f%% of the bandwidth and %.0f%% utilisation: ", c->bandwidth * 100,
                   c->mfu * 100);
    buf_printf(b, "those shares are %s: the compute share the median of the %d row%s compute "
                  "binds, the bandwidth share of the %d row%s memory bandwidth binds",
               c->words, c->mfu_rows, c->mfu_rows == 1 ? "" : "s", c->bandwidth_rows,
               c->bandwidth_rows == 1 ? "" : "s");
    if (!isnan(c->band_error))
        buf_printf(b, "; band: their leave-one-out error, %.1f%%", c->band_error * 100);
    return 1;
}

int decide_llm_assumption_words(decision *d, gw_buf *b)
{
    const llm_calibration *c = decide_llm_rows_calibrate(d, NULL);
    if (!c || !(c->mfu_rows + c->bandwidth_rows))
        return 0;
    if (decide_llm_calibration_vendors(d, "", b))   /* several: each vendor's sentence */
        buf_printf(b, " compute the model at %.0f%% of their dense tensor rate and read "
                      "memory while generating at %.0f%% of their bandwidth: %s.",
                   c->mfu * 100, c->bandwidth * 100, c->words);
    else
        buf_printf(b, "A GPU computes the model at %.0f%% of its dense tensor rate and reads "
                      "memory while generating at %.0f%% of its bandwidth: %s (llm.calibrations "
                      "in --json names them).", c->mfu * 100, c->bandwidth * 100, c->words);
    return 1;
}

