/* precision.c — the table of number formats (precision.h) and the look-ups over it: by name, the
 * names a workload may give, whether a GPU runs a format by the KB's support rows, the format it
 * runs instead and why, its rate, and a format's measured training speed-up over BF16. */
#include "precision.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "model.h"

/* Bytes of a weight: see model.h (MODEL_QUANT_GROUP, MODEL_FP4_GROUP, MODEL_NF4_BITS); FP8's
 * per-channel or per-tensor scales are too few to count.  A cached key or value is 1 byte at fp8
 * and fp4 (served with an FP8 cache), 4 at fp32 and tf32, else 2: integer and weight-only
 * formats keep 16-bit activations and cache.  Mixed precision trains 2-byte weights and
 * gradients with a 4-byte fp32 master copy; amp all-reduces fp32 gradients (autocast keeps fp32
 * parameters), pure fp16 / bf16 16-bit ones; fp8 and fp4 training keeps bf16 weights and casts
 * per matrix product (Transformer Engine, NVFP4 recipes).  Weight-only formats compute at FP16,
 * which every tensor-core GPU since Volta has (AWQ's kernels run FP16 activations only; Marlin
 * runs FP16 or BF16 at the same rate); fp32 computes at FP32, PyTorch's default for matrix
 * products (tf32 asks for TF32 tensor cores).  Where a GPU cannot run a format, the fallback is the
 * nearest it can: FP8 weights stay 1 byte where weight-only kernels exist (Turing and later),
 * FP4 weights 4 bits, BF16 becomes FP16 (the same bytes), and FP16 FP32 on a GPU without FP16
 * tensor cores.  A mixture of experts at FP4 has its routed experts at FP4 and its other weights
 * at FP8: NVIDIA's DeepSeek-R1 FP4 checkpoint quantizes the linear operators of the MoE layers
 * only (its v2 adds attention's output projection: nvidia-deepseek-r1-fp4-v2), gpt-oss ships
 * its experts alone in MXFP4. */
static const gw_precision precisions[] = {
    {.name = "fp32", .meaning = "32-bit floats", .weight_bytes = 4, .kv_bytes = 4,
     .train_weight_bytes = 4, .train_gradient_bytes = 4, .reduce_bytes = 4, .computes = "fp32"},
    {.name = "tf32", .meaning = "32-bit floats, products in TF32 tensor cores", .weight_bytes = 4,
     .kv_bytes = 4, .train_weight_bytes = 4, .train_gradient_bytes = 4, .reduce_bytes = 4,
     .computes = "tf32", .fallback = "fp32"},
    {.name = "amp", .meaning = "automatic mixed precision: FP16 compute, fp32 master weights",
     .weight_bytes = 2, .kv_bytes = 2, .train_weight_bytes = 2, .train_gradient_bytes = 2,
     .master_bytes = 4, .reduce_bytes = 4, .half = 1, .computes = "fp16", .fallback = "bf16"},
    {.name = "fp16", .meaning = "16-bit floats, fp32 master weights", .weight_bytes = 2,
     .kv_bytes = 2, .train_weight_bytes = 2, .train_gradient_bytes = 2, .master_bytes = 4,
     .reduce_bytes = 2, .half = 1, .computes = "fp16", .fallback = "fp32"},
    {.name = "bf16", .meaning = "bfloat16, fp32 master weights", .weight_bytes = 2,
     .kv_bytes = 2, .train_weight_bytes = 2, .train_gradient_bytes = 2, .master_bytes = 4,
     .reduce_bytes = 2, .half = 1, .computes = "bf16", .fallback = "fp16"},
    {.name = "fp8", .meaning = "FP8 weights and activations; trains with bf16 weights",
     .weight_bytes = 1, .kv_bytes = 1, .reduce_bytes = 4, .trains_as = "bf16",
     .needs = "FP8 tensor cores", .computes = "fp8", .fallback = "fp8-w8a16"},
    {.name = "fp8-w8a16", .meaning = "FP8 weights, 16-bit activations: weight-only",
     .weight_bytes = 1, .kv_bytes = 2, .reduce_bytes = 4, .serving_only = 1, .internal = 1,
     .computes = "fp16", .kernel = "fp8-w8a16", .fallback = "bf16"},
    {.name = "fp4", .meaning = "FP4 weights and activations, NVFP4 or MXFP4; trains with bf16 "
                               "weights",
     .weight_bytes = 0.5 + 1 / MODEL_FP4_GROUP, .kv_bytes = 1, .reduce_bytes = 4,
     .trains_as = "bf16", .needs = "FP4 tensor cores", .computes = "fp4",
     .fallback = "fp4-w4a16", .moe_rest = "fp8"},
    {.name = "fp4-w4a16", .meaning = "FP4 weights, 16-bit activations: weight-only",
     .weight_bytes = 0.5 + 1 / MODEL_FP4_GROUP, .kv_bytes = 2, .reduce_bytes = 4,
     .serving_only = 1, .internal = 1, .computes = "fp16", .kernel = "fp4-w4a16",
     .fallback = "fp8", .moe_rest = "fp8"},
    {.name = "w8a8", .meaning = "int8 weights and activations, SmoothQuant-style, on INT8 "
                                "tensor cores",
     .weight_bytes = 1 + 2 / MODEL_QUANT_GROUP, .kv_bytes = 2, .reduce_bytes = 4,
     .serving_only = 1, .computes = "int8", .fallback = "w8a16"},
    {.name = "w8a16", .meaning = "int8 weights, 16-bit activations: GPTQ or AWQ 8-bit, "
                                 "bitsandbytes LLM.int8",
     .weight_bytes = 1 + 2 / MODEL_QUANT_GROUP, .kv_bytes = 2, .reduce_bytes = 4,
     .serving_only = 1, .computes = "fp16", .fallback = "bf16"},
    {.name = "w4a16", .meaning = "int4 weights, 16-bit activations: AWQ or GPTQ 4-bit",
     .weight_bytes = 0.5 + 2 / MODEL_QUANT_GROUP, .kv_bytes = 2, .reduce_bytes = 4,
     .serving_only = 1, .computes = "fp16", .fallback = "bf16"},
    {.name = "nf4", .meaning = "QLoRA's frozen 4-bit NormalFloat weights",
     .weight_bytes = MODEL_NF4_BITS / 8, .kv_bytes = 2, .reduce_bytes = 4, .internal = 1,
     .computes = "bf16", .fallback = "fp16"},
};

#define PRECISION_COUNT (sizeof precisions / sizeof precisions[0])

/* Other names a workload may give for a row: the plain integer names of the formats they have
 * always meant here (int8 ran on INT8 tensor cores, int4 at FP16). */
static const struct {
    const char *name, *row;
} other_names[] = {{"int8", "w8a8"}, {"int4", "w4a16"}};

#define OTHER_COUNT (sizeof other_names / sizeof other_names[0])

const gw_precision *gw_precision_at(size_t i)
{
    return i < PRECISION_COUNT ? &precisions[i] : NULL;
}

static const gw_precision *row_named(const char *name)
{
    for (size_t i = 0; name && i < PRECISION_COUNT; i++)
        if (!strcmp(name, precisions[i].name))
            return &precisions[i];
    return NULL;
}

/* The row gw_precision_find found last.  A served language model's solvers ask for the format
 * it runs hundreds of thousands of times a report, nearly always the one asked before: looking
 * through the table each time was 30% of `gpuwise report examples/llm-fleet.lua`'s
 * instructions. */
static const gw_precision *found_last;

const gw_precision *gw_precision_find(const char *name)
{
    if (found_last && name && (name == found_last->name || !strcmp(name, found_last->name)))
        return found_last;
    const gw_precision *p = row_named(name);
    for (size_t i = 0; !p && name && i < OTHER_COUNT; i++)
        if (!strcmp(name, other_names[i].name))
            p = row_named(other_names[i].row);
    if (p)
        found_last = p;
    return p;
}

const char *gw_precision_choice(size_t i)
{
    for (size_t k = 0; k < PRECISION_COUNT; k++)
        if (!precisions[k].internal && i-- == 0)
            return precisions[k].name;
    return i < OTHER_COUNT ? other_names[i].name : NULL;
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

/* ---- support: which GPU computes which format ---- */

/* Where a kb_gpu keeps each compute format's dense rate (the KB's gpu columns). */
static const struct {
    const char *format;
    size_t at;
} rate_fields[] = {
    {"fp32", offsetof(kb_gpu, fp32_tflops)}, {"tf32", offsetof(kb_gpu, tf32_tflops)},
    {"fp16", offsetof(kb_gpu, fp16_tflops)}, {"bf16", offsetof(kb_gpu, bf16_tflops)},
    {"fp8", offsetof(kb_gpu, fp8_tflops)},   {"int8", offsetof(kb_gpu, int8_tops)},
    {"fp4", offsetof(kb_gpu, fp4_tflops)},
};

/* g's figure for format; NaN for a format with no rate column (a kernel's). */
static double rate_of(const char *format, const kb_gpu *g)
{
    for (size_t i = 0; format && i < sizeof rate_fields / sizeof rate_fields[0]; i++)
        if (!strcmp(format, rate_fields[i].format))
            return *(const double *)((const char *)g + rate_fields[i].at);
    return NAN;
}

int gw_support_has(const gw_support *s, const char *format, const kb_gpu *g)
{
    if (!format || !g)
        return 0;
    if (!strcmp(format, "fp32"))
        return 1;
    if (!s || !s->n)
        return rate_of(format, g) > 0;   /* no support rows: a figure stands for support */
    /* The architecture's first letter before any compare: a language model's calibration asks
     * this some 3,000 times a report over every row, and a strcmp of each row's precision
     * first was 3% of llm-fleet's instructions. */
    int first = g->architecture ? tolower((unsigned char)g->architecture[0]) : 0;
    for (size_t i = 0; first && i < s->n; i++) {
        const kb_precision_support *r = &s->rows[i];
        if (r->architecture && tolower((unsigned char)r->architecture[0]) == first &&
            r->precision && !strcasecmp(r->architecture, g->architecture) &&
            !strcmp(r->precision, format))
            return 1;
    }
    return 0;
}

int gw_precision_runs(const gw_precision *p, const kb_gpu *g, const gw_support *s)
{
    return p && gw_support_has(s, p->computes, g) && (!p->kernel || gw_support_has(s, p->kernel, g));
}

const gw_precision *gw_precision_on(const gw_precision *p, const kb_gpu *g, const gw_support *s,
                                    int training)
{
    /* A chain is at most the table long: a fallback naming a row before it cannot loop. */
    for (size_t steps = 0; p && steps <= PRECISION_COUNT; steps++) {
        if (!(training && p->serving_only) && gw_precision_runs(p, g, s))
            return p;
        p = row_named(p->fallback);
    }
    return NULL;
}

double gw_precision_rate(const gw_precision *p, const kb_gpu *g)
{
    if (!p || !g)
        return NAN;
    double rate = rate_of(p->computes, g);
    return rate > 0 ? rate : NAN;
}

const char *gw_precision_rate_unit(const gw_precision *p)
{
    return p && p->computes && !strcmp(p->computes, "int8") ? "TOPS" : "TFLOPS";
}

/* ---- why a GPU runs another format ---- */

void gw_format_words(gw_buf *b, const char *format)
{
    for (const char *c = format; c && *c; c++)
        buf_putc(b, *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c);
}

/* What g lacks to run p ("no FP8 tensor cores", "no fp8-w8a16 kernels"), after a ", " or an
 * " and " when it is not the first said (`said` of `total` lacks). */
static void lack_words(gw_buf *b, const gw_precision *p, const kb_gpu *g, const gw_support *s,
                       size_t said, size_t total)
{
    if (said)
        buf_puts(b, said + 1 == total ? " and " : ", ");
    buf_puts(b, "no ");
    if (!gw_support_has(s, p->computes, g)) {
        gw_format_words(b, p->computes);
        buf_puts(b, " tensor cores");
    } else {
        buf_printf(b, "%s kernels", p->kernel);
    }
}

void gw_precision_fallback_words(gw_buf *b, const gw_precision *asked, const gw_precision *runs,
                                 const kb_gpu *g, const gw_support *s, int training)
{
    if (!asked || !runs || asked == runs || !g)
        return;
    size_t total = 0, said = 0;
    for (const gw_precision *p = asked; p && p != runs; p = row_named(p->fallback))
        total += !(training && p->serving_only);
    buf_printf(b, "%s has ", g->name);
    for (const gw_precision *p = asked; p && p != runs; p = row_named(p->fallback))
        if (!(training && p->serving_only))
            lack_words(b, p, g, s, said++, total);
    buf_puts(b, ": runs ");
    if (runs->internal || runs->serving_only)
        buf_printf(b, "%s (%s) ", runs->name, runs->meaning);
    buf_puts(b, "at ");
    gw_format_words(b, runs->computes);
    /* Training at fp8 or fp4 runs at BF16's rate x a measured speed-up, not the peak: the
     * speed's words give that rate. */
    double rate = gw_precision_rate(runs, g);
    if (training && runs->trains_as)
        ;
    else if (rate > 0)
        buf_printf(b, " (%.4g %s)", rate, gw_precision_rate_unit(runs));
    else
        buf_puts(b, " (the KB gives no rate for it)");
    if (!training && runs->weight_bytes != asked->weight_bytes)
        buf_printf(b, ", %.4g byte%s a weight where %s takes %.4g", runs->weight_bytes,
                   runs->weight_bytes == 1 ? "" : "s", asked->name, asked->weight_bytes);
    if (!strcmp(asked->computes, "bf16") && !strcmp(runs->computes, "fp16"))
        buf_puts(b, "; FP16's range is narrower than BF16's: training needs loss scaling, and a "
                    "model trained in BF16 can overflow in FP16");
}

/* ---- training's measured speed-up over BF16 ---- */

static int measured(const kb_precision_support *r, const char *format)
{
    return r->precision && !strcmp(r->precision, format) && r->train_speedup > 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int gw_speedup_uses(const gw_speedup *sp, const kb_precision_support *r, const char *format)
{
    return format && measured(r, format) && (!sp->own || sp->own == r);
}

int gw_precision_train_speedup(const gw_support *s, const char *format, const kb_gpu *g,
                               gw_speedup *out)
{
    *out = (gw_speedup){.figure = NAN, .low = NAN, .high = NAN};
    if (!s || !format)
        return 0;
    for (size_t i = 0; g && g->architecture && i < s->n; i++) {
        const kb_precision_support *r = &s->rows[i];
        if (measured(r, format) && r->architecture &&
            !strcasecmp(r->architecture, g->architecture)) {
            *out = (gw_speedup){.figure = r->train_speedup, .low = r->train_speedup_low,
                                .high = r->train_speedup_high, .own = r, .rows = 1};
            return 1;
        }
    }
    double *figures = gw_xmalloc((s->n + 1) * sizeof *figures);
    for (size_t i = 0; i < s->n; i++) {
        const kb_precision_support *r = &s->rows[i];
        if (!measured(r, format))
            continue;
        figures[out->rows++] = r->train_speedup;
        out->low = isnan(out->low) ? r->train_speedup_low : fmin(out->low, r->train_speedup_low);
        out->high = isnan(out->high) ? r->train_speedup_high
                                     : fmax(out->high, r->train_speedup_high);
    }
    if (out->rows) {
        qsort(figures, out->rows, sizeof *figures, by_value);
        size_t m = out->rows / 2;
        out->figure = out->rows % 2 ? figures[m] : (figures[m - 1] + figures[m]) / 2;
    }
    free(figures);
    return out->rows > 0;
}
