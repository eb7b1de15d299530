/* decide_precision.c — what each GPU computes a workload's number format in: the KB's precision
 * support rows a decision read, the format a GPU runs instead of one it lacks (precision.h), and
 * the sentence that says so, for language and image models alike. */
#include "decide_precision.h"

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

const gw_precision *decide_runs_at(const decision *d, const kb_gpu *g, int training)
{
    gw_support s = decide_support(d);
    return gw_precision_on(gw_precision_find(d->w->precision), g, &s, training);
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
