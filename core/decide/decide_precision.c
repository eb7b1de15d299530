/* decide_precision.c — what each GPU computes a workload's number format in: the KB's precision
 * support rows a decision read, the format a GPU runs instead of one it lacks (precision.h), and
 * the sentence that says so, for language and image models alike. */
#include "decide_precision.h"

#include <math.h>
#include <stdlib.h>

gw_support decide_support(const decision *d)
{
    return (gw_support){.rows = d->support, .n = d->n_support};
}

void decide_support_trace(decision *d)
{
    if (d->n_support)
        decide_trace(d, "KB: %zu precision support rows: which architectures compute which "
                        "number format", d->n_support);
    else
        decide_trace(d, "KB: no precision support rows (a KB from before schema version 12: "
                        "gpuwise kb import kb/data/precision_support.csv): a GPU is taken to "
                        "compute a format where the KB gives it a rate, and to have no "
                        "weight-only kernels");
}

const gw_precision *decide_precision_on(const decision *d, const kb_gpu *g, const char *precision,
                                        int training)
{
    gw_support s = decide_support(d);
    return gw_precision_on(gw_precision_find(precision), g, &s, training);
}

const gw_precision *decide_runs_at(const decision *d, const kb_gpu *g, int training)
{
    return decide_precision_on(d, g, d->w->precision, training);
}

int decide_precision_words(const decision *d, const kb_gpu *g, int training, gw_buf *how)
{
    const gw_precision *asked = gw_precision_find(d->w->precision);
    const gw_precision *runs = decide_runs_at(d, g, training);
    if (!asked || !runs || runs == asked)
        return 0;
    gw_support s = decide_support(d);
    gw_precision_fallback_words(how, asked, runs, g, &s, training);
    return 1;
}

double decide_precision_rate(const decision *d, const kb_gpu *g, const gw_precision *run,
                             int training, gw_speedup *sp)
{
    gw_speedup none = {.figure = NAN, .low = NAN, .high = NAN};
    gw_support s = decide_support(d);
    if (!sp)
        sp = &none;
    *sp = none;
    if (!training || !run || run->half ||
        !gw_precision_train_speedup(&s, run->computes, g, sp))
        return gw_precision_rate(run, g);
    return gw_precision_rate(gw_precision_find("bf16"), g) * sp->figure;
}

void decide_precision_rate_words(gw_buf *b, const decide_option *o, double rate,
                                 const gw_speedup *sp)
{
    const gw_precision *run = gw_precision_find(o->run_precision);
    if (isnan(sp->figure)) {
        buf_printf(b, "%.0f %s %s", rate, run->computes, gw_precision_rate_unit(run));
        return;
    }
    buf_printf(b, "%.0f TFLOPS (%.0f bf16 TFLOPS x %.3g, ", rate, rate / sp->figure, sp->figure);
    gw_format_words(b, run->computes);
    if (sp->own)
        buf_printf(b, " training's measured speed-up over BF16 on %s)", sp->own->architecture);
    else
        buf_printf(b, " training's speed-up over BF16 measured on other architectures than %s: "
                      "the median of %zu)", o->gpu->architecture ? o->gpu->architecture : "its",
                   sp->rows);
}

void decide_precision_speedup_band(decision *d, decide_option *o, const gw_speedup *sp)
{
    const gw_precision *run = gw_precision_find(o->run_precision);
    if (isnan(sp->figure))
        return;
    o->throughput_lo *= sp->low / sp->figure;
    o->throughput_hi *= sp->high / sp->figure;
    gw_buf basis = GW_BUF_INIT;
    buf_printf(&basis, "%s; x %.3g to x %.3g for %s training's speed-up over BF16, published "
                       "measurements from %.3g to %.3g ",
               o->throughput_band_basis ? o->throughput_band_basis : "", sp->low / sp->figure,
               sp->high / sp->figure, run->computes, sp->low, sp->high);
    if (sp->own)
        buf_printf(&basis, "on %s (", sp->own->architecture);
    else
        buf_printf(&basis, "on %zu other architectures (", sp->rows);
    int first = 1;
    for (size_t i = 0; i < d->n_support; i++) {
        const kb_precision_support *r = &d->support[i];
        if (!gw_speedup_uses(sp, r, run->computes))
            continue;
        decide_option_cite(d, o, r->low_source);
        decide_option_cite(d, o, r->high_source);
        buf_printf(&basis, "%s%s, %s", first ? "" : "; ", r->low_source, r->high_source);
        first = 0;
    }
    buf_printf(&basis, "), the figure used %.3g", sp->figure);
    free(o->throughput_band_basis);
    o->throughput_band_basis = buf_detach(&basis);
}
