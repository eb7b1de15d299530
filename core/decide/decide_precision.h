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
/* What g runs the workload's precision as (training: not a weight-only form); the sentence
 * saying why into how, and 1, where that is not the workload's own (else 0, nothing written). */
const gw_precision *decide_runs_at(const decision *d, const kb_gpu *g, int training);
int decide_precision_words(const decision *d, const kb_gpu *g, int training, gw_buf *how);

#endif
