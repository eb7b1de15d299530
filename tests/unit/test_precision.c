/* test_precision.c — the table of number formats and the table of optimizers against hand-worked
 * figures: each precision's bytes, what a GPU of each architecture runs it as by the KB's support
 * rows and why, the rate and its label, FP8 training's measured speed-up, and each optimizer's
 * state. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "model/optimizer.h"
#include "model/precision.h"

/* Bytes of a weight (scales included) and of a cached key or value, by hand:
 * int8 1 + a 16-bit scale per 64 weights = 1 + 2/64 = 1.03125; int4 0.5 + 2/64 = 0.53125;
 * fp4 0.5 + an 8-bit scale per 16 = 0.5 + 1/16 = 0.5625; nf4 4.127 bits / 8 = 0.515875.  The
 * weight-only forms keep their weights' bytes and a 16-bit cache. */
static void each_precision_bytes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double weight, kv;
    } want[] = {
        {"fp32", 4, 4},           {"tf32", 4, 4},          {"amp", 2, 2},
        {"fp16", 2, 2},           {"bf16", 2, 2},          {"fp8", 1, 1},
        {"fp8-w8a16", 1, 2},      {"fp4", 0.5625, 1},      {"fp4-w4a16", 0.5625, 2},
        {"w8a8", 1.03125, 2},     {"w8a16", 1.03125, 2},   {"w4a16", 0.53125, 2},
        {"nf4", 0.515875, 2},
    };
    size_t rows = 0;
    while (gw_precision_at(rows))
        rows++;
    assert_int_equal(rows, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < rows; i++) {
        const gw_precision *p = gw_precision_find(want[i].name);
        assert_non_null(p);
        assert_ptr_equal(p, gw_precision_at(i));
        assert_float_equal(p->weight_bytes, want[i].weight, 1e-12);
        assert_float_equal(p->kv_bytes, want[i].kv, 0);
        assert_float_equal(model_llm_weight_bytes(want[i].name), want[i].weight, 1e-12);
    }
    /* int8 and int4 are other names of w8a8 and w4a16. */
    assert_ptr_equal(gw_precision_find("int8"), gw_precision_find("w8a8"));
    assert_ptr_equal(gw_precision_find("int4"), gw_precision_find("w4a16"));
    assert_null(gw_precision_find("fp64"));
    assert_null(gw_precision_find(NULL));
}

/* The look-up remembers the row it found last: asked again by a buffer whose text changed, or
 * by another name of a row, it still answers by the text asked. */
static void find_answers_by_the_text_asked(void **state)
{
    (void)state;
    char name[16] = "fp8";
    const gw_precision *fp8 = gw_precision_find(name);
    assert_string_equal(fp8->name, "fp8");
    assert_ptr_equal(gw_precision_find(fp8->name), fp8);   /* the row's own name */
    strcpy(name, "bf16");   /* the same buffer, another format */
    assert_string_equal(gw_precision_find(name)->name, "bf16");
    strcpy(name, "fp8-w8a16");
    assert_string_equal(gw_precision_find(name)->name, "fp8-w8a16");
    strcpy(name, "int8");   /* another name: w8a8's row */
    assert_string_equal(gw_precision_find(name)->name, "w8a8");
    assert_string_equal(gw_precision_find("w8a8")->name, "w8a8");
    assert_string_equal(gw_precision_find(name)->name, "w8a8");
    strcpy(name, "fp64");   /* none, after a hit */
    assert_null(gw_precision_find(name));
    assert_ptr_equal(gw_precision_find("fp8"), fp8);
}

/* Training: fp32 and tf32 4 + 4 bytes, no master copy; the 16-bit ones 2 + 2 + a 4-byte fp32
 * master; fp8 and fp4 keep bf16 weights; the quantized ones do not train.  All-reduced
 * gradients: 2 bytes for pure fp16 / bf16, 4 for amp (fp32 parameters) and the rest. */
static void training_bytes_and_what_training_keeps(void **state)
{
    (void)state;
    const gw_precision *fp32 = gw_precision_find("fp32"), *amp = gw_precision_find("amp");
    assert_float_equal(fp32->train_weight_bytes + fp32->train_gradient_bytes, 8, 0);
    assert_float_equal(fp32->master_bytes, 0, 0);
    assert_float_equal(amp->train_weight_bytes + amp->train_gradient_bytes + amp->master_bytes,
                       8, 0);
    assert_string_equal(gw_precision_find("fp8")->trains_as, "bf16");
    assert_string_equal(gw_precision_find("fp4")->trains_as, "bf16");
    assert_false(gw_precision_find("fp4")->serving_only);
    assert_null(amp->trains_as);
    assert_float_equal(gw_precision_find("int4")->train_weight_bytes, 0, 0);
    assert_float_equal(model_gradient_bytes(1e6, "fp16"), 2e6, 0);
    assert_float_equal(model_gradient_bytes(1e6, "bf16"), 2e6, 0);
    assert_float_equal(model_gradient_bytes(1e6, "amp"), 4e6, 0);
    assert_float_equal(model_gradient_bytes(1e6, "fp64"), 4e6, 0);
    /* The 16-bit formats with an fp32 master copy, and no other. */
    assert_true(gw_precision_is_half("amp") && gw_precision_is_half("fp16") &&
                gw_precision_is_half("bf16"));
    assert_false(gw_precision_is_half("fp32") || gw_precision_is_half("fp8") ||
                 gw_precision_is_half("fp64") || gw_precision_is_half(NULL));
    /* The refusal lists exactly the formats with training bytes. */
    double w, g, o;
    gw_error err = {0};
    assert_int_equal(model_param_bytes("fp8", "adam", &w, &g, &o, &err), GW_EDATA);
    assert_string_equal(err.msg,
                        "precision: expected fp32, tf32, amp, fp16 or bf16, got \"fp8\"");
}

/* A workload names any row but the internal ones (nf4: QLoRA's frozen weights, chosen by the
 * method; the weight-only forms a GPU falls back to), then the other names. */
static void workload_choices_skip_internal_rows(void **state)
{
    (void)state;
    static const char *const want[] = {"fp32", "tf32", "amp",   "fp16",  "bf16", "fp8",
                                       "fp4",  "w8a8", "w8a16", "w4a16", "int8", "int4"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_string_equal(gw_precision_choice(i), want[i]);
    assert_null(gw_precision_choice(sizeof want / sizeof want[0]));
}

/* Each row's format and kernels are ones the KB's support table may name (kb_table.c's column
 * set), fp32 aside (every GPU computes it); each fallback is a row. */
static void formats_are_the_kb_s(void **state)
{
    (void)state;
    const kb_column *c = kb_table_column(KB_PRECISION_SUPPORT, "precision");
    assert_non_null(c);
    assert_non_null(c->allowed);
    for (size_t i = 0; gw_precision_at(i); i++) {
        const gw_precision *p = gw_precision_at(i);
        const char *names[] = {p->computes, p->kernel};
        for (size_t k = 0; k < 2; k++) {
            if (!names[k] || !strcmp(names[k], "fp32"))
                continue;
            int found = 0;
            for (const char *const *a = c->allowed; *a; a++)
                found |= !strcmp(*a, names[k]);
            if (!found)
                fail_msg("%s: %s is not a support row's precision", p->name, names[k]);
        }
        if (p->fallback)
            assert_non_null(gw_precision_find(p->fallback));
    }
}

/* Made-up GPUs, one per architecture, with a datasheet's rates (V100 SXM2, T4-like Turing, A100,
 * RTX 3090 for the int4 label, H100 SXM, B200, MI300X), and the support rows a KB gives them: the
 * shipped table's shape (kb/data/precision_support.csv), with measured FP8 training speed-ups on
 * Hopper (1.4, band 1.28 to 1.5) and Blackwell (1.25, band 1.22 to 1.28). */
static const kb_gpu volta = {.name = "Tesla V100", .architecture = "Volta", .fp32_tflops = 15.7,
                             .tf32_tflops = NAN, .fp16_tflops = 125, .bf16_tflops = NAN,
                             .fp8_tflops = NAN, .int8_tops = NAN, .fp4_tflops = NAN};
static const kb_gpu turing = {.name = "T4", .architecture = "Turing", .fp32_tflops = 8.1,
                              .tf32_tflops = NAN, .fp16_tflops = 65, .bf16_tflops = NAN,
                              .fp8_tflops = NAN, .int8_tops = 130, .fp4_tflops = NAN};
static const kb_gpu ampere = {.name = "A100", .architecture = "Ampere", .fp32_tflops = 19.5,
                              .tf32_tflops = 156, .fp16_tflops = 312, .bf16_tflops = 312,
                              .fp8_tflops = NAN, .int8_tops = 624, .fp4_tflops = NAN};
static const kb_gpu rtx3090 = {.name = "RTX 3090", .architecture = "Ampere", .fp32_tflops = 35.6,
                               .tf32_tflops = 35.6, .fp16_tflops = 71, .bf16_tflops = 71,
                               .fp8_tflops = NAN, .int8_tops = 284, .fp4_tflops = NAN};
static const kb_gpu ada = {.name = "L40S", .architecture = "Ada Lovelace", .fp32_tflops = 91.6,
                           .tf32_tflops = 183, .fp16_tflops = 362, .bf16_tflops = 362,
                           .fp8_tflops = 733, .int8_tops = 733, .fp4_tflops = NAN};
static const kb_gpu hopper = {.name = "H100", .architecture = "Hopper", .fp32_tflops = 67,
                              .tf32_tflops = 495, .fp16_tflops = 990, .bf16_tflops = 990,
                              .fp8_tflops = 1979, .int8_tops = 1979, .fp4_tflops = NAN};
static const kb_gpu blackwell = {.name = "B200", .architecture = "Blackwell", .fp32_tflops = 80,
                                 .tf32_tflops = 1100, .fp16_tflops = 2250, .bf16_tflops = 2250,
                                 .fp8_tflops = 4500, .int8_tops = 4500, .fp4_tflops = 9000};
static const kb_gpu cdna3 = {.name = "MI300X", .architecture = "CDNA 3", .fp32_tflops = 163.4,
                             .tf32_tflops = 653.7, .fp16_tflops = 1307, .bf16_tflops = 1307,
                             .fp8_tflops = 2615, .int8_tops = 2615, .fp4_tflops = NAN};

#define SUPPORTS(format, arch) {.precision = format, .architecture = arch, .train_speedup = NAN, \
                                .train_speedup_low = NAN, .train_speedup_high = NAN}
#define MEASURED(format, arch, figure, low, high)                                             \
    {.precision = format, .architecture = arch, .train_speedup = figure,                      \
     .train_speedup_low = low, .low_source = "low-src", .train_speedup_high = high,           \
     .high_source = "high-src"}
static const kb_precision_support rows[] = {
    SUPPORTS("fp16", "Volta"),
    SUPPORTS("fp16", "Turing"),        SUPPORTS("int8", "Turing"),
    SUPPORTS("fp8-w8a16", "Turing"),   SUPPORTS("fp4-w4a16", "Turing"),
    SUPPORTS("fp16", "Ampere"),        SUPPORTS("bf16", "Ampere"),
    SUPPORTS("tf32", "Ampere"),        SUPPORTS("int8", "Ampere"),
    SUPPORTS("fp8-w8a16", "Ampere"),   SUPPORTS("fp4-w4a16", "Ampere"),
    SUPPORTS("fp16", "Ada Lovelace"),  SUPPORTS("bf16", "Ada Lovelace"),
    SUPPORTS("fp8", "Ada Lovelace"),
    SUPPORTS("fp16", "Hopper"),        SUPPORTS("bf16", "Hopper"),
    MEASURED("fp8", "Hopper", 1.4, 1.28, 1.5),
    SUPPORTS("fp4-w4a16", "Hopper"),
    SUPPORTS("fp16", "Blackwell"),     SUPPORTS("bf16", "Blackwell"),
    MEASURED("fp8", "Blackwell", 1.25, 1.22, 1.28),
    SUPPORTS("fp4", "Blackwell"),
    SUPPORTS("fp16", "CDNA 3"),        SUPPORTS("bf16", "CDNA 3"),
    SUPPORTS("fp8", "CDNA 3"),         SUPPORTS("int8", "CDNA 3"),
};
static const gw_support support = {rows, sizeof rows / sizeof rows[0]};
static const gw_support no_rows = {NULL, 0};

/* A support row names its architecture in any case ("hopper" is Hopper's row); a GPU with no
 * architecture, or one no row names, computes fp32 alone. */
static void support_by_architecture_in_any_case(void **state)
{
    (void)state;
    kb_gpu g = {.name = "some H100", .architecture = "hopper", .fp8_tflops = 1979};
    assert_true(gw_support_has(&support, "fp8", &g) && gw_support_has(&support, "bf16", &g));
    assert_false(gw_support_has(&support, "fp4", &g));   /* Blackwell's alone */
    g.architecture = "HOPPER";
    assert_true(gw_support_has(&support, "fp16", &g));
    g.architecture = "Hop";   /* the first letter alone names no row */
    assert_false(gw_support_has(&support, "fp16", &g));
    g.architecture = "";
    assert_false(gw_support_has(&support, "fp16", &g));
    assert_true(gw_support_has(&support, "fp32", &g));
    g.architecture = NULL;
    assert_false(gw_support_has(&support, "bf16", &g));
}

static const char *runs(const char *name, const kb_gpu *g, int training)
{
    const gw_precision *p = gw_precision_on(gw_precision_find(name), g, &support, training);
    return p ? p->name : "(none)";
}

/* BF16 needs Ampere or later; FP8 Ada, Hopper or later (or CDNA 3); FP4 Blackwell; INT8 tensor
 * cores came with Turing.  Without them: the weight-only form where kernels exist (FP8 and FP4
 * weights kept at their bytes, Turing and later), else the next format down. */
static void what_each_gpu_runs(void **state)
{
    (void)state;
    /* bf16 on a V100 or a T4 runs fp16 (the same 2 bytes); on an A100 itself. */
    assert_string_equal(runs("bf16", &volta, 1), "fp16");
    assert_string_equal(runs("bf16", &turing, 1), "fp16");
    assert_string_equal(runs("bf16", &ampere, 1), "bf16");
    /* fp8 served on an A100: FP8 weights at 1 byte, weight-only; trained there: bf16. */
    assert_string_equal(runs("fp8", &ampere, 0), "fp8-w8a16");
    assert_string_equal(runs("fp8", &ampere, 1), "bf16");
    assert_string_equal(runs("fp8", &turing, 0), "fp8-w8a16");
    /* A V100 has neither FP8 nor its weight-only kernels nor BF16: fp16. */
    assert_string_equal(runs("fp8", &volta, 0), "fp16");
    assert_string_equal(runs("fp8", &hopper, 1), "fp8");
    assert_string_equal(runs("fp8", &cdna3, 0), "fp8");
    /* fp4 served on an H100: 4-bit weights, weight-only; trained there: fp8.  An MI300X has no
     * FP4 and no Marlin kernels: fp8.  A B200 runs fp4. */
    assert_string_equal(runs("fp4", &hopper, 0), "fp4-w4a16");
    assert_string_equal(runs("fp4", &hopper, 1), "fp8");
    assert_string_equal(runs("fp4", &cdna3, 0), "fp8");
    assert_string_equal(runs("fp4", &blackwell, 0), "fp4");
    assert_string_equal(runs("fp4", &ada, 1), "fp8");
    /* int8 (w8a8) needs INT8 tensor cores: a V100 runs w8a16; a T4 has them. */
    assert_string_equal(runs("int8", &volta, 0), "w8a16");
    assert_string_equal(runs("int8", &turing, 0), "w8a8");
    assert_string_equal(runs("int4", &volta, 0), "w4a16");
    /* A GPU of an architecture the table does not name computes fp32 only. */
    kb_gpu unknown = ampere;
    unknown.architecture = NULL;
    assert_string_equal(runs("bf16", &unknown, 1), "fp32");
    assert_null(gw_precision_on(NULL, &volta, &support, 1));
    /* A KB without support rows: a rate figure stands for support, no weight-only kernels. */
    assert_string_equal(gw_precision_on(gw_precision_find("bf16"), &volta, &no_rows, 1)->name,
                        "fp16");
    assert_string_equal(gw_precision_on(gw_precision_find("fp8"), &ampere, &no_rows, 0)->name,
                        "bf16");
    assert_true(gw_support_has(&no_rows, "fp8", &hopper));
    assert_false(gw_support_has(&no_rows, "fp8-w8a16", &ampere));
    assert_true(gw_support_has(&support, "fp32", &volta));
}

static double rate(const char *name, const kb_gpu *g)
{
    return gw_precision_rate(gw_precision_find(name), g);
}

/* Each row at its own format's rate, the KB's figure and no other: the label names it. */
static void the_rate_each_runs_at(void **state)
{
    (void)state;
    assert_float_equal(rate("fp32", &ampere), 19.5, 0);
    assert_float_equal(rate("tf32", &ampere), 156, 0);
    assert_float_equal(rate("amp", &hopper), 990, 0);
    assert_float_equal(rate("bf16", &ampere), 312, 0);
    assert_true(isnan(rate("bf16", &volta)));   /* it runs fp16 there (above) */
    assert_float_equal(rate("fp16", &volta), 125, 0);
    /* int8 (w8a8) at INT8, in TOPS; int4 (w4a16) at FP16: "71 fp16 TFLOPS" on an RTX 3090. */
    assert_float_equal(rate("int8", &ampere), 624, 0);
    assert_string_equal(gw_precision_rate_unit(gw_precision_find("int8")), "TOPS");
    assert_float_equal(rate("int4", &rtx3090), 71, 0);
    assert_string_equal(gw_precision_find("int4")->computes, "fp16");
    assert_string_equal(gw_precision_rate_unit(gw_precision_find("int4")), "TFLOPS");
    /* The weight-only forms compute at FP16: 312 on an A100. */
    assert_float_equal(rate("fp8-w8a16", &ampere), 312, 0);
    assert_float_equal(rate("fp4-w4a16", &hopper), 990, 0);
    assert_float_equal(rate("fp8", &hopper), 1979, 0);
    assert_float_equal(rate("fp4", &blackwell), 9000, 0);
    assert_true(isnan(rate("fp8", &ampere)));
    assert_true(isnan(gw_precision_rate(NULL, &ampere)));
}

static void words(const char *asked, const kb_gpu *g, int training, const char *want)
{
    const gw_precision *p = gw_precision_find(asked);
    gw_buf b = GW_BUF_INIT;
    gw_precision_fallback_words(&b, p, gw_precision_on(p, g, &support, training), g, &support,
                                training);
    assert_string_equal(buf_cstr(&b), want);
    buf_free(&b);
}

/* The sentence says what the GPU lacks, what it runs, at which rate, and what that changes. */
static void why_a_gpu_runs_another(void **state)
{
    (void)state;
    words("bf16", &volta, 1,
          "Tesla V100 has no BF16 tensor cores: runs at FP16 (125 TFLOPS); FP16's range is "
          "narrower than BF16's: training needs loss scaling, and a model trained in BF16 can "
          "overflow in FP16");
    /* FP8 weights stay 1 byte on an A100 (the same bytes: nothing said of them). */
    words("fp8", &ampere, 0,
          "A100 has no FP8 tensor cores: runs fp8-w8a16 (FP8 weights, 16-bit activations: "
          "weight-only) at FP16 (312 TFLOPS)");
    /* A V100: three formats lacked, and the weights double: 2 bytes against 1. */
    words("fp8", &volta, 0,
          "Tesla V100 has no FP8 tensor cores, no fp8-w8a16 kernels and no BF16 tensor cores: "
          "runs at FP16 (125 TFLOPS), 2 bytes a weight where fp8 takes 1");
    /* Training passes over the weight-only forms and says nothing of them, nor of FP8's peak:
     * it trains at BF16's rate x FP8's measured speed-up, which the speed's words give. */
    words("fp4", &hopper, 1, "H100 has no FP4 tensor cores: runs at FP8");
    words("int8", &volta, 0,
          "Tesla V100 has no INT8 tensor cores: runs w8a16 (int8 weights, 16-bit activations: "
          "GPTQ or AWQ 8-bit, bitsandbytes LLM.int8) at FP16 (125 TFLOPS)");
    /* An MI300X: no FP4 and no FP4 Marlin (a CUDA kernel): FP8, 1 byte a weight. */
    words("fp4", &cdna3, 0,
          "MI300X has no FP4 tensor cores and no fp4-w4a16 kernels: runs at FP8 (2615 TFLOPS), "
          "1 byte a weight where fp4 takes 0.5625");
    words("fp8", &hopper, 0, "");
}

/* FP8 training's speed-up over BF16: the row of the GPU's architecture where it is measured;
 * elsewhere the span of the measured rows: lowest low 1.22, highest high 1.5, median figure
 * (1.25 + 1.4) / 2 = 1.325.  No measured row of the format: none. */
static void measured_training_speedups(void **state)
{
    (void)state;
    gw_speedup sp;
    assert_true(gw_precision_train_speedup(&support, "fp8", &hopper, &sp));
    assert_float_equal(sp.figure, 1.4, 0);
    assert_float_equal(sp.low, 1.28, 0);
    assert_float_equal(sp.high, 1.5, 0);
    assert_ptr_equal(sp.own, &rows[16]);
    assert_true(gw_speedup_uses(&sp, &rows[16], "fp8"));
    assert_false(gw_speedup_uses(&sp, &rows[20], "fp8"));
    assert_true(gw_precision_train_speedup(&support, "fp8", &ada, &sp));
    assert_null(sp.own);
    assert_int_equal(sp.rows, 2);
    assert_float_equal(sp.figure, 1.325, 1e-12);
    assert_float_equal(sp.low, 1.22, 0);
    assert_float_equal(sp.high, 1.5, 0);
    assert_true(gw_speedup_uses(&sp, &rows[20], "fp8"));
    assert_false(gw_precision_train_speedup(&support, "fp4", &blackwell, &sp));
    assert_true(isnan(sp.figure));
    assert_false(gw_precision_train_speedup(&no_rows, "fp8", &hopper, &sp));
}

/* Adam and AdamW keep two fp32 moments (8 bytes), SGD with momentum one (4), plain SGD none;
 * "none" trains nothing. */
static void optimizer_state(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double bytes;
        int trains;
    } want[] = {{"adam", 8, 1}, {"adamw", 8, 1}, {"sgd", 4, 1}, {"sgd-plain", 0, 1},
                {"none", 0, 0}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const gw_optimizer *o = gw_optimizer_find(want[i].name);
        assert_non_null(o);
        assert_string_equal(gw_optimizer_choice(i), want[i].name);
        assert_float_equal(o->state_bytes, want[i].bytes, 0);
        assert_int_equal(o->trains, want[i].trains);
    }
    assert_null(gw_optimizer_choice(sizeof want / sizeof want[0]));
    assert_null(gw_optimizer_find("lion"));
    gw_buf b = GW_BUF_INIT;
    gw_optimizer_list(&b);
    assert_string_equal(buf_cstr(&b), "adam, adamw, sgd, sgd-plain or none");
    buf_free(&b);
    /* The memory model reads it: bf16 + SGD = 2 + 2 + 4 master + 4 momentum = 12 bytes. */
    double w, g, o;
    gw_error err = {0};
    assert_int_equal(model_param_bytes("bf16", "sgd", &w, &g, &o, &err), GW_OK);
    assert_float_equal(w + g + o, 12, 0);
    assert_int_equal(model_param_bytes("bf16", "lion", &w, &g, &o, &err), GW_EDATA);
    assert_string_equal(err.msg,
                        "optimizer: expected adam, adamw, sgd, sgd-plain or none, got \"lion\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_precision_bytes),
        cmocka_unit_test(find_answers_by_the_text_asked),
        cmocka_unit_test(training_bytes_and_what_training_keeps),
        cmocka_unit_test(workload_choices_skip_internal_rows),
        cmocka_unit_test(formats_are_the_kb_s),
        cmocka_unit_test(what_each_gpu_runs),
        cmocka_unit_test(support_by_architecture_in_any_case),
        cmocka_unit_test(the_rate_each_runs_at),
        cmocka_unit_test(why_a_gpu_runs_another),
        cmocka_unit_test(measured_training_speedups),
        cmocka_unit_test(optimizer_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
