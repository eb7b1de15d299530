/* decide_speed.h — the model stage: memory fit and speed of each option with its band
 * (decide_speed.c), and how far the scaling models are from the KB's measurements
 * (decide_calibrate.c). */
#ifndef GW_DECIDE_SPEED_H
#define GW_DECIDE_SPEED_H

#include "decide_common.h"

/* Memory fit, then throughput (with throughput_lo/hi and the band's basis, which o owns), of
 * one option; the single-card speed of g (measured, else scaled from the nearest measured GPU,
 * then carried by parameters to the workload's model when it is not the benchmark's; NaN none;
 * *measured 1 only for g's own result of the benchmark's model), how saying how (may be NULL),
 * o receiving the citations (may be NULL). */
void decide_option_fit(decision *d, decide_option *o);
void decide_option_speed(decision *d, decide_option *o);
/* decide_option_speed's figures without its sentence (o->throughput_how is ""), and a language
 * model's without its band (throughput_lo and _hi as they were): for what-ifs that read the
 * figures alone.  A served model's sentences, written again at each value a sensitivity search
 * tries, were a third of its report's instructions; its band, solved again at both ends, 15%
 * of what was left (llm-fleet's report: 170 M -> 145 M instructions). */
void decide_option_speed_figures(decision *d, decide_option *o);
double decide_single_card_speed(decision *d, decide_option *o, const kb_gpu *g, int *measured,
                                gw_buf *how);
/* Samples per GPU per step: the workload's, else the model's default. */
double decide_batch_per_gpu(const workload *w);

/* The figures of g the speed model reads for the workload's precision; whether g's cards have
 * a scale-up link of their board (NVLink and its kin); whether they reach each other over PCIe
 * peer-to-peer (the KB's flag, else the former GeForce RTX 40/50 rule). */
model_gpu_spec decide_gpu_spec(const decision *d, const kb_gpu *g);
int decide_gpu_board_link(const kb_gpu *g);
int decide_gpu_p2p(const kb_gpu *g);

/* (decide_calibrate.c) The reference benchmarks' results into d->reference_rows, which the
 * calibrations below read: by the workload index, so a KB of a million results of other
 * benchmarks costs them nothing.  Once per decision (they read them six times before). */
int decide_reference_rows_read(decision *d, gw_error *err);
/* (decide_calibrate.c) How far the scaling model's data-parallel efficiency is from every
 * measured multi-GPU result of the KB that has a single-card result of the same GPU. */
int decide_scaling_calibration(const decision *d, model_calibration *out, gw_error *err);
/* How far the specification scaling is from the KB's one-card measurements, over every pair of
 * one vendor's GPUs measured on one benchmark in the workload's precision class (error in
 * percent of the measured ratio, in mean_error_pp and max_error_pp). */
int decide_spec_calibration(const decision *d, model_calibration *out, gw_error *err);
/* (decide_calibrate.c) The parameter scaling between the reference benchmarks' models, each
 * GPU measured on one card with two of them, both ways (error in percent). */
void decide_params_calibration(const decision *d, model_calibration *out);
/* The same test of what the decision does: each GPU measured with the workload's benchmark,
 * scaled from the measured GPU most like it as if it had no result of its own. */
int decide_spec_loo_calibration(decision *d, model_calibration *out);
/* (decide_calibrate.c) The KB's reproducibility on the workload's benchmark: every GPU and count
 * measured twice or more, each result against the median of the others (out: caller frees). */
void decide_repro_calibration(const decision *d, model_calibration *out);
/* The relative band (a fraction) of a measured figure with no spread of its own: the
 * MODEL_BAND_PERCENTILE of d's reproducibility calibration, read once; 0 without one. */
double decide_repro_error(decision *d);
/* (decide_calibrate.c) The training work rate of the KB's one-card reference benchmark results
 * in the workload's precision class: the median of throughput x the benchmark model's
 * parameters / the GPU's tensor TFLOPS (parameter-samples/s per TFLOPS), read once into
 * d->work_rate and d->work_rate_rows; NaN without such results. */
double decide_work_rate(decision *d);
/* "the 80th percentile of ..." in line: the words of a percentile band's basis. */
void decide_repro_words(const decision *d, gw_buf *line);

/* The method's words (appended to line): when a result is used as measured and how another
 * model's is carried (the bands' words: decide_view_method.c). */
void decide_speed_evidence_words(const decision *d, gw_buf *line);

/* How well an option's speed is evidenced, lower better (its price kind's rank is the KB's:
 * decide_price_rank): measured, scaled, modelled; the kinds' names. */
int decide_speed_kind_rank(const decision *d, const decide_option *o);
/* "measured" (this GPU and count), "scaled" (from another GPU, or a slice from its whole
 * card), "modelled" (a language model's stated model). */
const char *decide_speed_kind(const decision *d, const decide_option *o);

#endif
