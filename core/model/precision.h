/* precision.h — the number formats a workload trains or serves in, described once: what a weight
 * and a cached activation take, how training keeps them, the format the matrix products run in,
 * the weight-only kernels a format needs, and what a GPU that cannot run it runs instead.  Which
 * GPU computes which format is the KB's precision support table (kb_precision_support), read
 * through gw_support; every comparison of a precision's name in the model and the decision is a
 * look-up in this table. */
#ifndef GW_PRECISION_H
#define GW_PRECISION_H

#include <stddef.h>

#include "base/buf.h"
#include "kb/kb.h"

typedef struct gw_precision {
    const char *name;           /* as a workload writes it: "bf16" */
    const char *meaning;        /* what it is, in a few words: the field's help, the speed text */
    double weight_bytes;        /* one stored weight, its quantization scales included */
    double kv_bytes;            /* one cached key or value (an activation kept while serving) */
    /* Training: bytes of a parameter's weight, gradient and fp32 master copy; 0 for all three
     * where the model does not train at this precision (model_param_bytes refuses it). */
    double train_weight_bytes, train_gradient_bytes, master_bytes;
    double reduce_bytes;        /* a gradient as data-parallel replicas all-reduce it */
    const char *trains_as;      /* the precision training keeps weights in (fp8, fp4: bf16);
                                 * NULL: itself */
    int half;                   /* 16-bit compute with fp32 master weights (amp, fp16, bf16) */
    int serving_only;           /* quantized or weight-only weights, for inference only */
    int internal;               /* not a workload's choice (nf4: QLoRA's frozen weights; the
                                 * weight-only forms a GPU without FP8 or FP4 runs) */
    const char *needs;          /* tensor cores of its own beyond 16 bits, in words: a language
                                 * model's format (the image models' speed knows no fallback) */
    const char *computes;       /* the format its matrix products run in: a support row's
                                 * precision ("fp8"), or "fp32", which every GPU computes */
    const char *kernel;         /* the weight-only kernels it needs (a support row's precision,
                                 * "fp8-w8a16"); NULL: none */
    const char *fallback;       /* the row a GPU that cannot run it runs instead; NULL: none */
    const char *moe_rest;       /* a mixture of experts served at this format keeps its other
                                 * weights (attention, dense and shared layers) at this row's
                                 * size: the format quantizes the routed experts only; NULL:
                                 * every weight at its own size */
} gw_precision;

/* The row named name (a row's name, or another name for one: int8 is w8a8, int4 w4a16); NULL
 * for NULL or an unknown name.  Rows are static. */
const gw_precision *gw_precision_find(const char *name);
/* The i-th row in table order; NULL past the last. */
const gw_precision *gw_precision_at(size_t i);
/* The i-th name a workload may give (the rows in table order, internal ones skipped, then the
 * other names); NULL past the last. */
const char *gw_precision_choice(size_t i);

/* Appends the names of the rows keep accepts, as a sentence lists them: "fp32, tf32 or amp". */
void gw_precision_list(gw_buf *b, int (*keep)(const gw_precision *p));

/* Whether the precision named p computes in 16 bits with an fp32 master copy (amp, fp16, bf16);
 * 0 for NULL or an unknown name. */
int gw_precision_is_half(const char *p);

/* The KB's precision support rows a decision read (kb_precision_supports_list).  A KB without
 * any (n 0: one upgraded from before schema version 12, a test's own) says nothing of support:
 * then a GPU is taken to compute a format where the KB gives it a rate, and to have no
 * weight-only kernels. */
typedef struct gw_support {
    const kb_precision_support *rows;
    size_t n;
} gw_support;

/* Whether g computes format (a support row's precision, or "fp32") by s: a row naming format and
 * g's architecture. */
int gw_support_has(const gw_support *s, const char *format, const kb_gpu *g);
/* Whether g runs p: it computes p's format and has p's kernels. */
int gw_precision_runs(const gw_precision *p, const kb_gpu *g, const gw_support *s);
/* The row g runs p as: p itself, or down its fallbacks the first g runs (training passes over
 * the serving-only rows: fp8 trains at bf16 where it cannot at fp8).  NULL for NULL p or where no
 * row of the chain runs (every chain ends at fp32, which every GPU runs). */
const gw_precision *gw_precision_on(const gw_precision *p, const kb_gpu *g, const gw_support *s,
                                    int training);

/* g's dense rate for p's format (TFLOPS; TOPS for int8): the KB's figure, no other standing in;
 * NaN for NULL p or where the KB gives none. */
double gw_precision_rate(const gw_precision *p, const kb_gpu *g);
/* A format's name as words write it, into b: "BF16", "INT8". */
void gw_format_words(gw_buf *b, const char *format);
/* "TOPS" for an integer format, else "TFLOPS". */
const char *gw_precision_rate_unit(const gw_precision *p);

/* Why g runs asked as runs (gw_precision_on), into b: "Tesla V100 SXM2 32GB has no BF16 tensor
 * cores: runs at FP16 (125 TFLOPS)", naming every format of the chain it lacks, the rate it runs
 * at, the weights' bytes where they change, and FP16's range against BF16's.  Nothing where runs
 * is asked. */
void gw_precision_fallback_words(gw_buf *b, const gw_precision *asked, const gw_precision *runs,
                                 const kb_gpu *g, const gw_support *s, int training);

/* Training at a format whose speed-up over BF16 is measured (fp8, fp4): the figure the model
 * uses and its band, from the support row of the GPU's architecture, else the span of the
 * format's measured rows on other architectures (lowest low, highest high, median figure). */
typedef struct gw_speedup {
    double figure, low, high;             /* NaN: no row of the format is measured */
    const kb_precision_support *own;      /* the row of g's architecture; NULL: the span */
    size_t rows;                          /* measured rows the figures come from */
} gw_speedup;

/* Fills out for training at format on g; 0 (out's figures NaN) where no row of the format is
 * measured, else 1. */
int gw_precision_train_speedup(const gw_support *s, const char *format, const kb_gpu *g,
                               gw_speedup *out);
/* Whether r is a measured row gw_precision_train_speedup read for sp (format's, measured, g's
 * own where sp has one): the rows whose sources a figure cites. */
int gw_speedup_uses(const gw_speedup *sp, const kb_precision_support *r, const char *format);

#endif
