/* precision.h — the number formats a workload trains or serves in, described once: what a weight
 * and a cached activation take, how training keeps them, which tensor cores a format needs and
 * what runs on a GPU without them, and which of a GPU's rates it runs at.  Every comparison of a
 * precision's name in the model and the decision is a look-up in this table. */
#ifndef GW_PRECISION_H
#define GW_PRECISION_H

#include <stddef.h>

#include "base/buf.h"
#include "kb/kb.h"

typedef struct gw_precision {
    const char *name;           /* as a workload writes it: "bf16" */
    double weight_bytes;        /* one stored weight, its quantization scales included */
    double kv_bytes;            /* one cached key or value (an activation kept while serving) */
    /* Training: bytes of a parameter's weight, gradient and fp32 master copy; 0 for all three
     * where the model does not train at this precision (model_param_bytes refuses it). */
    double train_weight_bytes, train_gradient_bytes, master_bytes;
    double reduce_bytes;        /* a gradient as data-parallel replicas all-reduce it */
    const char *trains_as;      /* the precision training keeps weights in (fp8: bf16); NULL:
                                 * itself */
    int half;                   /* 16-bit compute with fp32 master weights (amp, fp16, bf16) */
    int serving_only;           /* quantized weights, for inference only */
    int internal;               /* not a workload's choice (nf4: QLoRA's frozen weights) */
    const char *needs;          /* the tensor cores it needs, NULL: any GPU computes it */
    const char *fallback;       /* what a GPU without them runs instead; NULL: none */
    size_t rate_at;             /* offsetof(kb_gpu, ...): the dense tensor rate it runs at */
    size_t rate_else;           /* ... where the GPU has none of that (the same: no other) */
} gw_precision;

/* The row named name; NULL for NULL or an unknown name.  Rows are static. */
const gw_precision *gw_precision_find(const char *name);
/* The i-th row in table order; NULL past the last. */
const gw_precision *gw_precision_at(size_t i);
/* The i-th name a workload may give (table order, internal rows skipped); NULL past the last. */
const char *gw_precision_choice(size_t i);

/* Appends the names of the rows keep accepts, as a sentence lists them: "fp32, tf32 or amp". */
void gw_precision_list(gw_buf *b, int (*keep)(const gw_precision *p));

/* Whether the precision named p computes in 16 bits with an fp32 master copy (amp, fp16, bf16);
 * 0 for NULL or an unknown name. */
int gw_precision_is_half(const char *p);

/* The precision g runs p in: p itself, or where p needs tensor cores g lacks (no rate for it),
 * its fallback, and so on down to the first g has a rate for or one without a fallback. */
const gw_precision *gw_precision_on(const gw_precision *p, const kb_gpu *g);
/* g's dense tensor rate at p (TFLOPS, TOPS for int8): its rate_at figure, else rate_else where
 * that one is missing; NaN for NULL p. */
double gw_precision_rate(const gw_precision *p, const kb_gpu *g);

#endif
