/* test_model.c — memory per replica, spec scaling and multi-GPU efficiency against hand
 * calculations and measured ResNet-50 rows (Lambda Labs PyTorch benchmark, AMP; the
 * a100-vs-4x3090 article). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"

#define RESNET50_PARAMS 25.6e6

static void bytes_per_param(void **state)
{
    (void)state;
    double w, g, o;
    gw_error err = {0};
    /* AMP + Adam: fp16 weights 2 + fp16 gradients 2 + fp32 master 4 + Adam m, v 8 = 16. */
    assert_int_equal(model_param_bytes("amp", "adam", &w, &g, &o, &err), GW_OK);
    assert_float_equal(w + g + o, 16, 0);
    assert_float_equal(o, 12, 0);
    /* fp32 + Adam: 4 + 4 + 8 = 16. */
    assert_int_equal(model_param_bytes("fp32", "adam", &w, &g, &o, &err), GW_OK);
    assert_float_equal(w + g + o, 16, 0);
    /* AMP + SGD with momentum: 2 + 2 + 4 + 4 = 12; fp32 + SGD: 4 + 4 + 4 = 12. */
    assert_int_equal(model_param_bytes("amp", "sgd", &w, &g, &o, &err), GW_OK);
    assert_float_equal(w + g + o, 12, 0);
    assert_int_equal(model_param_bytes("fp32", "sgd", &w, &g, &o, &err), GW_OK);
    assert_float_equal(w + g + o, 12, 0);
    /* Inference in fp16: weights only, 2. */
    assert_int_equal(model_param_bytes("fp16", "none", &w, &g, &o, &err), GW_OK);
    assert_float_equal(w + g + o, 2, 0);
    assert_int_equal(model_param_bytes("int4", "adam", &w, &g, &o, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "precision"));
    assert_int_equal(model_param_bytes("amp", "lion", &w, &g, &o, &err), GW_EDATA);
    assert_non_null(strstr(err.msg, "\"lion\""));
}

static void memory_resnet50_and_big_model(void **state)
{
    (void)state;
    model_memory m;
    gw_error err = {0};
    /* ResNet-50, AMP + Adam, 8 GB of activations: 25.6e6 x 16 B = 0.4096 GB; state 8.4096 GB;
     * +10% fragmentation 0.84096 + 1 GB context = 10.25056 GB. */
    assert_int_equal(model_memory_estimate(RESNET50_PARAMS, "amp", "adam", 8, &m, &err), GW_OK);
    assert_float_equal(m.weights_gb, 0.0512, 1e-9);
    assert_float_equal(m.optimizer_gb, 0.3072, 1e-9);
    assert_float_equal(m.total_gb, 10.25056, 1e-9);
    assert_true(m.total_gb <= 24);
    /* 1.5e9 params, AMP + Adam, 12 GB activations: 24 + 12 = 36 GB; x 1.1 = 39.6; + 1 = 40.6 GB:
     * no 24 GB card holds it, an 80 GB card does. */
    assert_int_equal(model_memory_estimate(1.5e9, "amp", "adam", 12, &m, &err), GW_OK);
    assert_float_equal(m.total_gb, 40.6, 1e-9);
    /* Split over two cards (model parallelism): (40.6 - 1) / 2 + 1 = 20.8 GB each. */
    assert_float_equal(model_memory_per_card_split(&m, 2), 20.8, 1e-9);
    /* A measured peak is taken as it is. */
    model_memory_measured(40, &m);
    assert_float_equal(m.total_gb, 40, 0);
    assert_float_equal(model_memory_per_card_split(&m, 4), 11, 1e-9);   /* 40/4 + 1 */
}

static const model_gpu_spec rtx3090 = {71, 936};    /* FP16 dense, FP32 accumulate; GB/s */
static const model_gpu_spec rtx4090 = {165.2, 1008};
static const model_gpu_spec a100_80 = {312, 2039};

static void spec_scaling(void **state)
{
    (void)state;
    /* 3090 -> 4090: sqrt(165.2/71 x 1008/936) = sqrt(2.32676 x 1.07692) = sqrt(2.50574) = 1.58295;
     * 905 x 1.58295 = 1432.6 images/s, within 15% of Lambda's measured 1301. */
    double est = model_scale_throughput(905, &rtx3090, &rtx4090);
    assert_float_equal(est, 1432.6, 0.2);
    assert_true(fabs(est - 1301) / 1301 < 0.15);
    /* Missing figures give NaN, not a number that looks measured. */
    model_gpu_spec unknown = {NAN, 936};
    assert_true(isnan(model_scale_throughput(905, &unknown, &rtx4090)));
    /* The 4090 is nearer the 3090 than the A100 is. */
    assert_true(model_spec_distance(&rtx3090, &rtx4090) < model_spec_distance(&rtx3090, &a100_80));
}

static void links(void **state)
{
    (void)state;
    /* PCIe 4.0 x16: 16 GB/s; gen 3: 8; four cards share it: 16 x 2/4 = 8. */
    assert_float_equal(model_link_gbs(2, 0, 0, 4, 16), 16, 1e-12);
    assert_float_equal(model_link_gbs(2, 0, 0, 3, 16), 8, 1e-12);
    assert_float_equal(model_link_gbs(4, 0, 0, 4, 16), 8, 1e-12);
    /* The PCIe 4.0 figure is the caller's: 32 GB/s given, two cards get 32; gen 5 doubles
     * 16 to 32; an unknown generation counts as 4.0. */
    assert_float_equal(model_link_gbs(2, 0, 0, 4, 32), 32, 1e-12);
    assert_float_equal(model_link_gbs(2, 0, 0, 5, 16), 32, 1e-12);
    assert_float_equal(model_link_gbs(2, 0, 0, 0, 16), 16, 1e-12);
    /* NVLink when linked. */
    assert_float_equal(model_link_gbs(8, 1, 600, 4, 16), 600, 0);
    /* 2(n-1)/n x bytes / bandwidth: 4 cards, 102.4 MB over 8 GB/s = 1.5 x 12.8 ms = 19.2 ms. */
    assert_float_equal(model_allreduce_seconds(4, 102.4e6, 8), 0.0192, 1e-12);
    assert_float_equal(model_allreduce_seconds(1, 102.4e6, 8), 0, 0);
}

static void multi_gpu_resnet50(void **state)
{
    (void)state;
    double grad = model_gradient_bytes(RESNET50_PARAMS, "amp");
    /* AMP keeps fp32 parameters: 25.6e6 x 4 = 102.4 MB reduced per step. */
    assert_float_equal(grad, 102.4e6, 1e-3);
    /* 2x RTX 3090 over PCIe 4.0: compute 256 / 905 = 0.28287 s; all-reduce 102.4e6 / 16e9 =
     * 6.4 ms; eff = 0.28287 / (0.28287 x 1.03 + 0.0064) = 0.9502; 2 x 905 x 0.9502 = 1719.9,
     * within 3% of Lambda's measured 1751. */
    double e2 = model_scaling_efficiency(2, 905, 0, grad, model_link_gbs(2, 0, 0, 4, 16));
    assert_float_equal(e2, 0.9502, 1e-3);
    assert_true(fabs(2 * 905 * e2 - 1751) / 1751 < 0.03);
    /* 4x RTX 3090: link 8 GB/s, all-reduce 19.2 ms; eff = 0.28287 / (0.29136 + 0.0192) = 0.9108;
     * 4 x 905 x 0.9108 = 3297, within 7% of the article's measured 4x 3090 (about 3100), and
     * above one A100 80GB (the article's 2350), as measured. */
    double e4 = model_scaling_efficiency(4, 905, 0, grad, model_link_gbs(4, 0, 0, 4, 16));
    assert_float_equal(e4, 0.9108, 1e-3);
    assert_true(fabs(4 * 905 * e4 - 3100) / 3100 < 0.07);
    assert_true(4 * 905 * e4 > 2350);
    /* A100 80GB SXM4 over NVLink (600 GB/s), one card 1582 (Lambda): the all-reduce is 0.2 ms
     * against 0.16 s of compute, so eff is about 1/1.03 = 0.97: 2x 3070 (measured 3038), 4x 6140
     * (measured 6070), 8x 12270 (measured 11439): each within 8%. */
    static const struct { int n; double measured; } a100[] = {{2, 3038}, {4, 6070}, {8, 11439}};
    for (size_t i = 0; i < 3; i++) {
        double e = model_scaling_efficiency(a100[i].n, 1582, 0, grad, 600);
        double predicted = a100[i].n * 1582 * e;
        assert_true(fabs(predicted - a100[i].measured) / a100[i].measured < 0.08);
    }
    /* One card: no loss; unknown gradient size: only the synchronisation cost. */
    assert_float_equal(model_scaling_efficiency(1, 905, 0, grad, 16), 1, 0);
    assert_float_equal(model_scaling_efficiency(2, 905, 0, 0, 16), 1 / 1.03, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bytes_per_param),
        cmocka_unit_test(memory_resnet50_and_big_model),
        cmocka_unit_test(spec_scaling),
        cmocka_unit_test(links),
        cmocka_unit_test(multi_gpu_resnet50),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
