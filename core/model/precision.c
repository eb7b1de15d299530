/* precision.c — the table of number formats (precision.h) and the look-ups over it: by name, the
 * names a workload may give, the format a GPU runs instead, and the GPU rate it runs at. */
#include "precision.h"

#include <math.h>
#include <string.h>

#include "model.h"

#define RATE(field) offsetof(kb_gpu, field)

/* Bytes of a weight: see model.h (MODEL_QUANT_GROUP, MODEL_FP4_GROUP, MODEL_NF4_BITS).  A cached
 * key or value is 1 byte at fp8 and fp4 (served with an FP8 cache), 4 at fp32 and tf32, else 2:
 * int8 and int4 weights keep a 16-bit cache.  Mixed precision trains 2-byte weights and
 * gradients with a 4-byte fp32 master copy; amp all-reduces fp32 gradients (autocast keeps fp32
 * parameters), pure fp16 / bf16 16-bit ones.  int4 and nf4 weights are computed in fp16. */
static const gw_precision precisions[] = {
    {.name = "fp32", .weight_bytes = 4, .kv_bytes = 4, .train_weight_bytes = 4,
     .train_gradient_bytes = 4, .reduce_bytes = 4, .rate_at = RATE(tf32_tflops),
     .rate_else = RATE(fp32_tflops)},
    {.name = "tf32", .weight_bytes = 4, .kv_bytes = 4, .train_weight_bytes = 4,
     .train_gradient_bytes = 4, .reduce_bytes = 4, .rate_at = RATE(tf32_tflops),
     .rate_else = RATE(fp32_tflops)},
    {.name = "amp", .weight_bytes = 2, .kv_bytes = 2, .train_weight_bytes = 2,
     .train_gradient_bytes = 2, .master_bytes = 4, .reduce_bytes = 4, .half = 1,
     .rate_at = RATE(fp16_tflops), .rate_else = RATE(fp16_tflops)},
    {.name = "fp16", .weight_bytes = 2, .kv_bytes = 2, .train_weight_bytes = 2,
     .train_gradient_bytes = 2, .master_bytes = 4, .reduce_bytes = 2, .half = 1,
     .rate_at = RATE(fp16_tflops), .rate_else = RATE(fp16_tflops)},
    {.name = "bf16", .weight_bytes = 2, .kv_bytes = 2, .train_weight_bytes = 2,
     .train_gradient_bytes = 2, .master_bytes = 4, .reduce_bytes = 2, .half = 1,
     .fallback = "fp16", .rate_at = RATE(bf16_tflops), .rate_else = RATE(fp16_tflops)},
    /* Transformer Engine casts to fp8 per GEMM: training keeps bf16 weights. */
    {.name = "fp8", .weight_bytes = 1, .kv_bytes = 1, .reduce_bytes = 4, .trains_as = "bf16",
     .needs = "FP8 tensor cores (Hopper, Ada Lovelace and later)", .fallback = "bf16",
     .rate_at = RATE(fp8_tflops), .rate_else = RATE(fp8_tflops)},
    {.name = "int8", .weight_bytes = 1 + 2 / MODEL_QUANT_GROUP, .kv_bytes = 2, .reduce_bytes = 4,
     .serving_only = 1, .rate_at = RATE(int8_tops), .rate_else = RATE(fp16_tflops)},
    {.name = "int4", .weight_bytes = 0.5 + 2 / MODEL_QUANT_GROUP, .kv_bytes = 2,
     .reduce_bytes = 4, .serving_only = 1, .rate_at = RATE(fp16_tflops),
     .rate_else = RATE(fp16_tflops)},
    {.name = "fp4", .weight_bytes = 0.5 + 1 / MODEL_FP4_GROUP, .kv_bytes = 1, .reduce_bytes = 4,
     .serving_only = 1, .needs = "FP4 tensor cores (Blackwell)", .fallback = "fp8",
     .rate_at = RATE(fp4_tflops), .rate_else = RATE(fp4_tflops)},
    {.name = "nf4", .weight_bytes = MODEL_NF4_BITS / 8, .kv_bytes = 2, .reduce_bytes = 4,
     .internal = 1, .rate_at = RATE(fp16_tflops), .rate_else = RATE(fp16_tflops)},
};

#define PRECISION_COUNT (sizeof precisions / sizeof precisions[0])

const gw_precision *gw_precision_at(size_t i)
{
    return i < PRECISION_COUNT ? &precisions[i] : NULL;
}

const gw_precision *gw_precision_find(const char *name)
{
    for (size_t i = 0; name && i < PRECISION_COUNT; i++)
        if (!strcmp(name, precisions[i].name))
            return &precisions[i];
    return NULL;
}

const char *gw_precision_choice(size_t i)
{
    for (size_t k = 0; k < PRECISION_COUNT; k++)
        if (!precisions[k].internal && i-- == 0)
            return precisions[k].name;
    return NULL;
}

void gw_precision_list(gw_buf *b, int (*keep)(const gw_precision *p))
{
    size_t total = 0, written = 0;
    for (size_t i = 0; i < PRECISION_COUNT; i++)
        total += keep(&precisions[i]) != 0;
    for (size_t i = 0; i < PRECISION_COUNT; i++) {
        if (!keep(&precisions[i]))
            continue;
        written++;
        buf_printf(b, "%s%s", written == 1 ? "" : written == total ? " or " : ", ",
                   precisions[i].name);
    }
}

int gw_precision_is_half(const char *p)
{
    const gw_precision *row = gw_precision_find(p);
    return row && row->half;
}

static double rate_field(const kb_gpu *g, size_t at)
{
    return *(const double *)((const char *)g + at);
}

/* Whether g has tensor cores for p: a rate figure for it. */
static int has_rate(const gw_precision *p, const kb_gpu *g)
{
    return rate_field(g, p->rate_at) > 0;
}

const gw_precision *gw_precision_on(const gw_precision *p, const kb_gpu *g)
{
    if (!p || !p->needs || has_rate(p, g))
        return p;
    p = gw_precision_find(p->fallback);
    while (p->fallback && !has_rate(p, g))
        p = gw_precision_find(p->fallback);
    return p;
}

double gw_precision_rate(const gw_precision *p, const kb_gpu *g)
{
    if (!p)
        return NAN;
    double rate = rate_field(g, p->rate_at);
    return rate > 0 ? rate : rate_field(g, p->rate_else);
}
