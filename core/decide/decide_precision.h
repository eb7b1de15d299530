/* decide_precision.h — what each GPU of a decision computes the workload's number format in
 * (decide_precision.c), from the KB's precision support rows (precision.h). */
#ifndef GW_DECIDE_PRECISION_H
#define GW_DECIDE_PRECISION_H

#include "decide_common.h"
#include "model/precision.h"

/* The KB's precision support rows d read, and a line of the trace saying how many, or that the
 * KB has none and a GPU's rate figures stand for its support. */
gw_support decide_support(const decision *d);
void decide_support_trace(decision *d);
/* What g runs the precision named precision as (training: not a weight-only form), by d's
 * support rows; NULL for an unknown name. */
const gw_precision *decide_precision_on(const decision *d, const kb_gpu *g, const char *precision,
                                        int training);
/* The same for the workload's precision; and the sentence saying why into how, and 1, where
 * that is not the workload's own (else 0, nothing written). */
const gw_precision *decide_runs_at(const decision *d, const kb_gpu *g, int training);
int decide_precision_words(const decision *d, const kb_gpu *g, int training, gw_buf *how);

/* g's tensor rate for run: its format's peak, the KB's figure; training at a format whose
 * speed-up over BF16 is measured (fp8, fp4: precision.h's gw_precision_train_speedup), BF16's
 * rate x that speed-up, not the peak.  sp (may be NULL) gets the speed-up, its figure NaN where
 * the peak is used.  NaN where the KB has no figure. */
double decide_precision_rate(const decision *d, const kb_gpu *g, const gw_precision *run,
                             int training, gw_speedup *sp);
/* That rate in words, as o's speed says it: "989 bf16 TFLOPS", or with a measured speed-up
 * "1385 TFLOPS (990 bf16 TFLOPS x 1.4, FP8 training's measured speed-up over BF16 on Hopper)". */
void decide_precision_rate_words(gw_buf *b, const decide_option *o, double rate,
                                 const gw_speedup *sp);
/* A measured speed-up's band carried into o's training speed band (throughput_lo and _hi x its
 * low and high ends / the figure used), each measurement cited and said in the band's basis;
 * nothing where sp's figure is NaN. */
void decide_precision_speedup_band(decision *d, decide_option *o, const gw_speedup *sp);

#endif
