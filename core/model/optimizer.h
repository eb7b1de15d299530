/* optimizer.h — the optimizers a workload trains with, described once: the bytes of state each
 * keeps per trained parameter.  The workload's accepted names, its suggestions for a misspelt
 * one and the memory model all read this table. */
#ifndef GW_OPTIMIZER_H
#define GW_OPTIMIZER_H

#include <stddef.h>

#include "base/buf.h"

typedef struct gw_optimizer {
    const char *name;           /* as a workload writes it: "adamw" */
    double state_bytes;         /* optimizer state per trained parameter (fp32) */
    int trains;                 /* 0: nothing is trained (inference): no gradients either */
} gw_optimizer;

/* The row named name; NULL for NULL or an unknown name.  Rows are static. */
const gw_optimizer *gw_optimizer_find(const char *name);
/* The i-th name in table order; NULL past the last. */
const char *gw_optimizer_choice(size_t i);
/* Appends every name as a sentence lists them: "adam, adamw, ... or none". */
void gw_optimizer_list(gw_buf *b);

#endif
