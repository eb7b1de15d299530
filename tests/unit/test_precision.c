/* test_precision.c — the table of number formats and the table of optimizers against hand-worked
 * figures: each precision's bytes, the tensor cores it needs and its fallback, the GPU rate it
 * runs at, and each optimizer's state. */
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
 * fp4 0.5 + an 8-bit scale per 16 = 0.5 + 1/16 = 0.5625; nf4 4.127 bits / 8 = 0.515875. */
static void each_precision_bytes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        double weight, kv;
    } want[] = {
        {"fp32", 4, 4},           {"tf32", 4, 4},        {"amp", 2, 2},
        {"fp16", 2, 2},           {"bf16", 2, 2},        {"fp8", 1, 1},
        {"int8", 1.03125, 2},     {"int4", 0.53125, 2},  {"fp4", 0.5625, 1},
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
    assert_null(gw_precision_find("fp64"));
    assert_null(gw_precision_find(NULL));
}

/* Training: fp32 and tf32 4 + 4 bytes, no master copy; the 16-bit ones 2 + 2 + a 4-byte fp32
 * master; fp8 keeps bf16 weights; the quantized ones do not train.  All-reduced gradients: 2
 * bytes for pure fp16 / bf16, 4 for amp (fp32 parameters) and the rest. */
static void training_bytes_and_what_training_keeps(void **state)
{
    (void)state;
    const gw_precision *fp32 = gw_precision_find("fp32"), *amp = gw_precision_find("amp");
    assert_float_equal(fp32->train_weight_bytes + fp32->train_gradient_bytes, 8, 0);
    assert_float_equal(fp32->master_bytes, 0, 0);
    assert_float_equal(amp->train_weight_bytes + amp->train_gradient_bytes + amp->master_bytes,
                       8, 0);
    assert_string_equal(gw_precision_find("fp8")->trains_as, "bf16");
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

/* A workload names any row but nf4 (QLoRA's frozen weights, chosen by the method). */
static void workload_choices_skip_internal_rows(void **state)
{
    (void)state;
    static const char *const want[] = {"fp32", "tf32", "amp", "fp16", "bf16",
                                       "fp8",  "int8", "int4", "fp4"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_string_equal(gw_precision_choice(i), want[i]);
    assert_null(gw_precision_choice(sizeof want / sizeof want[0]));
}

/* FP8 needs Hopper or Ada tensor cores and falls back to bf16, FP4 needs Blackwell and falls
 * back to fp8; bf16 falls back to fp16 on the way down; nothing else needs its own cores. */
static void fallbacks(void **state)
{
    (void)state;
    assert_string_equal(gw_precision_find("fp4")->fallback, "fp8");
    assert_string_equal(gw_precision_find("fp8")->fallback, "bf16");
    assert_string_equal(gw_precision_find("bf16")->fallback, "fp16");
    assert_non_null(gw_precision_find("fp4")->needs);
    assert_non_null(gw_precision_find("fp8")->needs);
    static const char *const anywhere[] = {"fp32", "tf32", "amp", "fp16", "bf16",
                                           "int8", "int4", "nf4"};
    for (size_t i = 0; i < sizeof anywhere / sizeof anywhere[0]; i++)
        assert_null(gw_precision_find(anywhere[i])->needs);
    assert_null(gw_precision_find("fp16")->fallback);
}

/* Four made-up GPUs, one per generation: V100-like (fp16 only), A100-like (bf16, tf32, int8),
 * H100-like (+ fp8), B200-like (+ fp4). */
static const kb_gpu volta = {.fp32_tflops = 15.7, .tf32_tflops = NAN, .fp16_tflops = 125,
                             .bf16_tflops = NAN, .fp8_tflops = NAN, .int8_tops = NAN,
                             .fp4_tflops = NAN};
static const kb_gpu ampere = {.fp32_tflops = 19.5, .tf32_tflops = 156, .fp16_tflops = 312,
                              .bf16_tflops = 312, .fp8_tflops = NAN, .int8_tops = 624,
                              .fp4_tflops = NAN};
static const kb_gpu hopper = {.fp32_tflops = 67, .tf32_tflops = 495, .fp16_tflops = 990,
                              .bf16_tflops = 990, .fp8_tflops = 1979, .int8_tops = 1979,
                              .fp4_tflops = NAN};
static const kb_gpu blackwell = {.fp32_tflops = 80, .tf32_tflops = 1100, .fp16_tflops = 2250,
                                 .bf16_tflops = 2250, .fp8_tflops = 4500, .int8_tops = 4500,
                                 .fp4_tflops = 9000};

static const char *runs(const char *name, const kb_gpu *g)
{
    return gw_precision_on(gw_precision_find(name), g)->name;
}

static void what_each_gpu_runs(void **state)
{
    (void)state;
    assert_string_equal(runs("fp4", &blackwell), "fp4");
    assert_string_equal(runs("fp4", &hopper), "fp8");
    assert_string_equal(runs("fp4", &ampere), "bf16");
    assert_string_equal(runs("fp4", &volta), "fp16");
    assert_string_equal(runs("fp8", &hopper), "fp8");
    assert_string_equal(runs("fp8", &ampere), "bf16");
    assert_string_equal(runs("fp8", &volta), "fp16");
    /* bf16 asked for is kept by name: its rate falls back instead (below). */
    assert_string_equal(runs("bf16", &volta), "bf16");
    assert_string_equal(runs("int8", &volta), "int8");
    assert_null(gw_precision_on(NULL, &volta));
}

static double rate(const char *name, const kb_gpu *g)
{
    return gw_precision_rate(gw_precision_find(name), g);
}

static void the_rate_each_runs_at(void **state)
{
    (void)state;
    /* fp32 and tf32 run at the TF32 tensor rate where there is one, else plain FP32. */
    assert_float_equal(rate("fp32", &ampere), 156, 0);
    assert_float_equal(rate("tf32", &volta), 15.7, 0);
    /* amp and fp16 at FP16; bf16 at BF16, FP16 where there is none. */
    assert_float_equal(rate("amp", &hopper), 990, 0);
    assert_float_equal(rate("bf16", &ampere), 312, 0);
    assert_float_equal(rate("bf16", &volta), 125, 0);
    /* int8 at INT8 (TOPS), FP16 where there is none; int4 and nf4 weights compute in FP16. */
    assert_float_equal(rate("int8", &ampere), 624, 0);
    assert_float_equal(rate("int8", &volta), 125, 0);
    assert_float_equal(rate("int4", &hopper), 990, 0);
    assert_float_equal(rate("nf4", &hopper), 990, 0);
    /* fp8 and fp4 at their own rate only: a GPU without one runs the fallback (above). */
    assert_float_equal(rate("fp8", &hopper), 1979, 0);
    assert_float_equal(rate("fp4", &blackwell), 9000, 0);
    assert_true(isnan(rate("fp8", &ampere)));
    assert_true(isnan(gw_precision_rate(NULL, &ampere)));
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
        cmocka_unit_test(training_bytes_and_what_training_keeps),
        cmocka_unit_test(workload_choices_skip_internal_rows),
        cmocka_unit_test(fallbacks),
        cmocka_unit_test(what_each_gpu_runs),
        cmocka_unit_test(the_rate_each_runs_at),
        cmocka_unit_test(optimizer_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
