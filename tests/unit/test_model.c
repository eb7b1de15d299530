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

#include "model/model.h"

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
    /* A measured peak gets the same margins: 40 x 1.10 + 1 = 45 GB; split over four cards:
     * (45 - 1) / 4 + 1 = 12 GB each. */
    model_memory_measured(40, &m);
    assert_float_equal(m.total_gb, 45, 1e-9);
    assert_float_equal(m.overhead_gb, 5, 1e-9);
    assert_float_equal(model_memory_per_card_split(&m, 4), 12, 1e-9);
}

static void measured_peak_headroom(void **state)
{
    (void)state;
    model_memory m;
    /* A measured 40.0 GB peak: 40 x 1.10 + 1 = 45 GB, more than a 40 GB card (A100 40GB). */
    model_memory_measured(40.0, &m);
    assert_true(m.measured);
    assert_float_equal(m.total_gb, 45, 1e-9);
    assert_false(m.total_gb <= 40);
    /* Nor does 36 GB fit it: 36 x 1.1 + 1 = 40.6 GB. */
    model_memory_measured(36, &m);
    assert_float_equal(m.total_gb, 40.6, 1e-9);
    assert_false(m.total_gb <= 40);
    /* A 20 GB peak still fits a 24 GB card: 20 x 1.1 + 1 = 23 GB; and 35 GB fits 40 GB:
     * 35 x 1.1 + 1 = 39.5. */
    model_memory_measured(20, &m);
    assert_float_equal(m.total_gb, 23, 1e-9);
    assert_true(m.total_gb <= 24);
    model_memory_measured(35, &m);
    assert_float_equal(m.total_gb, 39.5, 1e-9);
    assert_true(m.total_gb <= 40);
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
    /* PCIe per direction, x16: gen 3 about 16 GB/s, gen 4 32, gen 5 64; an unknown generation
     * counts as 4.0 and unknown lanes as 16. */
    assert_float_equal(model_link_gbs(0, 0, 3, 16, 1), 16, 1e-12);
    assert_float_equal(model_link_gbs(0, 0, 4, 16, 1), 32, 1e-12);
    assert_float_equal(model_link_gbs(0, 0, 5, 16, 1), 64, 1e-12);
    assert_float_equal(model_link_gbs(0, 0, 0, 0, 1), 32, 1e-12);
    /* Fewer lanes carry less: RTX 4060 Ti, PCIe 4.0 x8: 32 x 8/16 = 16. */
    assert_float_equal(model_link_gbs(0, 0, 4, 8, 1), 16, 1e-12);
    /* Without peer-to-peer (RTX 4090, PCIe 4.0 x16): 32 x 0.5 = 16; RTX 5090, gen 5: 32. */
    assert_float_equal(model_link_gbs(0, 0, 4, 16, 0), 16, 1e-12);
    assert_float_equal(model_link_gbs(0, 0, 5, 16, 0), 32, 1e-12);
    /* NVLink when linked: the KB's 600 GB/s (A100, both ways) is 300 each way; a PCIe card's
     * bridge that is not counted as linked leaves PCIe. */
    assert_float_equal(model_link_gbs(1, 600, 4, 16, 1), 300, 0);
    assert_float_equal(model_link_gbs(0, 112.5, 4, 16, 1), 32, 1e-12);
    /* 2(n-1)/n x bytes / bandwidth: 4 cards, 102.4 MB over 8 GB/s = 1.5 x 12.8 ms = 19.2 ms. */
    assert_float_equal(model_allreduce_seconds(4, 102.4e6, 8), 0.0192, 1e-12);
    assert_float_equal(model_allreduce_seconds(1, 102.4e6, 8), 0, 0);
    /* Two machines of four cards: within each over PCIe 4.0 (32 GB/s), across over 10 Gb/s
     * Ethernet (1.25 GB/s): 2 x 3/4 x 102.4 MB / 32 GB/s = 0.0048 s, plus 2 x 1/2 x 102.4 MB /
     * 1.25 GB/s = 0.08192 s: 0.08672 s, the network 17 times the cards' own exchange. */
    assert_float_equal(model_allreduce_seconds_hosts(4, 2, 102.4e6, 32, 1.25), 0.08672, 1e-12);
    /* One machine: the ring alone, as model_allreduce_seconds. */
    assert_float_equal(model_allreduce_seconds_hosts(4, 1, 102.4e6, 32, 0),
                       model_allreduce_seconds(4, 102.4e6, 32), 1e-15);
    /* Several machines with no network figure: never free. */
    assert_true(isinf(model_allreduce_seconds_hosts(4, 2, 102.4e6, 32, 0)));
    /* 8x RTX 3090 as two machines, ResNet-50 AMP (4 B x 25.6e6 = 102.4 MB), 905 images/s a
     * card, 256 a step: compute 256 / 905 = 0.282873 s; efficiency 0.282873 / (0.282873 x 1.03
     * + 0.08672) = 0.748184, against 0.96 in one machine: the network costs a quarter. */
    assert_float_equal(model_scaling_efficiency_hosts(4, 2, 905, 256, 102.4e6, 32, 1.25),
                       0.748184, 1e-6);
}

static void gradient_bytes(void **state)
{
    (void)state;
    /* ResNet-50, AMP + Adam: 25.6e6 x 4 = 102.4 MB (fp32 gradients under autocast). */
    assert_float_equal(model_training_gradient_bytes(RESNET50_PARAMS, NAN, "amp", "adam"),
                       102.4e6, 1e-3);
    /* 7B in bf16 with Adam: 7e9 x 2 = 14 GB. */
    assert_float_equal(model_training_gradient_bytes(7e9, NAN, "bf16", "adam"), 14e9, 1);
    /* Nothing trained (optimizer none): no gradients, whatever the size. */
    assert_float_equal(model_training_gradient_bytes(7e9, NAN, "fp16", "none"), 0, 0);
    assert_float_equal(model_training_gradient_bytes(NAN, 40, "fp16", "none"), 0, 0);
    /* Only a measured peak: 20 GB with AMP + Adam (16 B per parameter) bounds the model at
     * 20e9 / 16 = 1.25e9 parameters, whose fp32 gradients are 1.25e9 x 4 = 5 GB.  Params, when
     * given, win over the peak. */
    assert_float_equal(model_training_gradient_bytes(NAN, 20, "amp", "adam"), 5e9, 1);
    assert_float_equal(model_training_gradient_bytes(RESNET50_PARAMS, 20, "amp", "adam"),
                       102.4e6, 1e-3);
    /* Neither known, or an unknown word: 0. */
    assert_float_equal(model_training_gradient_bytes(NAN, NAN, "amp", "adam"), 0, 0);
    assert_float_equal(model_training_gradient_bytes(1e9, NAN, "amp", "lion"), 0, 0);
}

static void multi_gpu_resnet50(void **state)
{
    (void)state;
    double grad = model_gradient_bytes(RESNET50_PARAMS, "amp");
    /* AMP keeps fp32 parameters: 25.6e6 x 4 = 102.4 MB reduced per step. */
    assert_float_equal(grad, 102.4e6, 1e-3);
    /* 2x RTX 3090 over PCIe 4.0 x16 (32 GB/s each way): compute 256 / 905 = 0.28287 s;
     * all-reduce 102.4e6 / 32e9 = 3.2 ms; eff = 0.28287 / (0.28287 x 1.03 + 0.0032) = 0.9603;
     * 2 x 905 x 0.9603 = 1738.2, within 1% of Lambda's measured 1751. */
    double e2 = model_scaling_efficiency(2, 905, 0, grad, model_link_gbs(0, 0, 4, 16, 1));
    assert_float_equal(e2, 0.9603, 1e-3);
    assert_true(fabs(2 * 905 * e2 - 1751) / 1751 < 0.01);
    /* 4x RTX 3090: all-reduce 1.5 x 102.4e6 / 32e9 = 4.8 ms; eff = 0.28287 / (0.29136 +
     * 0.0048) = 0.9551; 4 x 905 x 0.9551 = 3457.6, 11.5% above the article's about 3100
     * (an approximate run in a room whose heat cost the author about 20%: the calibration's
     * largest PCIe error), and above one A100 80GB (the article's 2350), as measured. */
    double e4 = model_scaling_efficiency(4, 905, 0, grad, model_link_gbs(0, 0, 4, 16, 1));
    assert_float_equal(e4, 0.9551, 1e-3);
    assert_true(fabs(4 * 905 * e4 - 3100) / 3100 < 0.12);
    assert_true(4 * 905 * e4 > 2350);
    /* 4x RTX 4090, no peer-to-peer (16 GB/s), the decision's default batch of 256: compute
     * 256 / 1301 = 0.19677 s; all-reduce 1.5 x 102.4e6 / 16e9 = 9.6 ms; eff = 0.19677 /
     * (0.20267 + 0.0096) = 0.9269. */
    double e4090 = model_scaling_efficiency(4, 1301, 256, grad, model_link_gbs(0, 0, 4, 16, 0));
    assert_float_equal(e4090, 0.9269, 1e-3);
    /* A100 80GB SXM4 over NVLink (300 GB/s each way), one card 1582 (Lambda): the all-reduce is
     * 0.3 to 0.6 ms against 0.16 s of compute, so eff is about 1/1.03 = 0.97: 2x 3071 (measured
     * 3038), 4x 6140 (measured 6070), 8x 12275 (measured 11439): each within 8%. */
    static const struct { int n; double measured; } a100[] = {{2, 3038}, {4, 6070}, {8, 11439}};
    for (size_t i = 0; i < 3; i++) {
        double e = model_scaling_efficiency(a100[i].n, 1582, 0, grad, 300);
        double predicted = a100[i].n * 1582 * e;
        assert_true(fabs(predicted - a100[i].measured) / a100[i].measured < 0.08);
    }
    /* One card: no loss; nothing trained (no gradient bytes): replicas run independently. */
    assert_float_equal(model_scaling_efficiency(1, 905, 0, grad, 16), 1, 0);
    assert_float_equal(model_scaling_efficiency(2, 905, 0, 0, 16), 1, 0);
}

static void calibration(void **state)
{
    (void)state;
    model_calibration c = {0};
    /* 2x RTX 4090, Lambda fp16 (gradients 25.6e6 x 2 = 51.2 MB), batch 896 / 2 = 448 per GPU,
     * one card 1301: measured 2468 / (2 x 1301) = 0.94850.  Model: no peer-to-peer, 16 GB/s;
     * compute 448 / 1301 = 0.344351 s; all-reduce 51.2e6 / 16e9 = 3.2 ms; eff = 0.344351 /
     * (0.354682 + 0.0032) = 0.96219: 1.37 points above. */
    double p4090 = model_scaling_efficiency(2, 1301, 448, model_gradient_bytes(25.6e6, "fp16"),
                                            model_link_gbs(0, 0, 4, 16, 0));
    assert_float_equal(p4090, 0.96219, 1e-4);
    model_calibration_add(&c, p4090, 2468.0 / (2 * 1301));
    assert_float_equal(c.mean_error_pp, 1.369, 0.01);
    /* 4x RTX 3090, the article's AMP run, no batch (256 per GPU), one card 905 (Lambda):
     * measured 3100 / (4 x 905) = 0.85635; model 0.95514 (multi_gpu_resnet50): 9.88 points
     * above.  Mean of the two (1.369 + 9.879) / 2 = 5.62, max 9.88. */
    double p3090 = model_scaling_efficiency(4, 905, 0, model_gradient_bytes(25.6e6, "amp"),
                                            model_link_gbs(0, 0, 4, 16, 1));
    assert_float_equal(p3090, 0.95514, 1e-4);
    model_calibration_add(&c, p3090, 3100.0 / (4 * 905));
    assert_int_equal(c.rows, 2);
    assert_float_equal(c.max_error_pp, 9.879, 0.01);
    assert_float_equal(c.mean_error_pp, 5.624, 0.01);
    model_calibration_free(&c);
    /* The bands' percentile, by nearest rank (the ceil(p x n)-th smallest of n): errors of 10,
     * 1 ... 9 points (predicted 0.10 ... 0.01 against 0), added out of order: the 80th is the
     * ceil(8.0) = 8th smallest, 8; the 50th the 5th, 5; the 100th the largest, 10; of 2
     * errors, 3 and 7, the 80th is the ceil(1.6) = 2nd, 7 (the mean, 5, would be missed by one
     * of the two).  No rows: 0. */
    assert_float_equal(model_calibration_percentile_pp(&c, MODEL_BAND_PERCENTILE), 0, 0);
    model_calibration_add(&c, 0.10, 0);
    for (int i = 1; i <= 9; i++)
        model_calibration_add(&c, i / 100.0, 0);
    assert_int_equal(c.rows, 10);
    assert_float_equal(model_calibration_percentile_pp(&c, 0.80), 8, 1e-9);
    assert_float_equal(model_calibration_percentile_pp(&c, 0.50), 5, 1e-9);
    assert_float_equal(model_calibration_percentile_pp(&c, 1.00), 10, 1e-9);
    assert_float_equal(c.errors_pp[0], 10, 1e-9);   /* the list keeps the order added */
    model_calibration_free(&c);
    model_calibration_add(&c, 0.03, 0);
    model_calibration_add(&c, 0.07, 0);
    assert_float_equal(model_calibration_percentile_pp(&c, MODEL_BAND_PERCENTILE), 7, 1e-9);
    model_calibration_free(&c);
    assert_int_equal(c.rows, 0);
    /* The benchmarks' own model sizes. */
    assert_float_equal(model_benchmark_params("resnet50"), 25.6e6, 0);
    assert_float_equal(model_benchmark_params("bert_base_squad"), 110e6, 0);
    assert_true(isnan(model_benchmark_params("llama")));
}

/* Whether a workload trains the benchmark's model, and carrying a speed to another model by
 * parameters (issue 26). */
static void benchmark_model(void **state)
{
    (void)state;
    /* ResNet-50 is 25.6M: 25.6M, 28.1M (+9.8%) and 23.1M (-9.8%) are it, 28.2M (+10.2%) and
     * 1.5B are not. */
    assert_true(model_is_benchmark_model(25.6e6, 25.6e6));
    assert_true(model_is_benchmark_model(25.6e6, 28.1e6));
    assert_true(model_is_benchmark_model(25.6e6, 23.1e6));
    assert_false(model_is_benchmark_model(25.6e6, 28.2e6));
    assert_false(model_is_benchmark_model(25.6e6, 1.5e9));
    /* Unknown either side: nothing tells them apart. */
    assert_true(model_is_benchmark_model(NAN, 1.5e9));
    assert_true(model_is_benchmark_model(25.6e6, NAN));
    /* One RTX 4090's 1,301 images/s of ResNet-50 for a 1.5B model: 1,301 x 25.6e6 / 1.5e9 =
     * 22.2037 samples/s. */
    assert_float_equal(model_scale_by_params(1301, 25.6e6, 1.5e9), 22.2037, 1e-4);
    assert_true(isnan(model_scale_by_params(1301, NAN, 1.5e9)));
    assert_true(isnan(model_scale_by_params(1301, 25.6e6, 0)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bytes_per_param),
        cmocka_unit_test(memory_resnet50_and_big_model),
        cmocka_unit_test(spec_scaling),
        cmocka_unit_test(measured_peak_headroom),
        cmocka_unit_test(links),
        cmocka_unit_test(gradient_bytes),
        cmocka_unit_test(multi_gpu_resnet50),
        cmocka_unit_test(calibration),
        cmocka_unit_test(benchmark_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
