/* decide_llm_accuracy.h — the measured language-model results the model is calibrated and tested
 * on (decide_llm_accuracy.c): each row's kind and scenario, the utilisation or serving share it
 * implies, the calibration a workload's speed is computed at (rows of its own kind only, every
 * share bounded), and the model's leave-one-out accuracy over every such row of the KB. */
#ifndef GW_DECIDE_LLM_ACCURACY_H
#define GW_DECIDE_LLM_ACCURACY_H

#include "decide_common.h"

/* The kinds of measured result that calibrate only their own kind: a pre-training row never
 * calibrates a fine-tune, a LoRA row never a full fine-tune, a serving row never training. */
typedef enum {
    DECIDE_LLM_PRETRAIN,
    DECIDE_LLM_FULL,             /* a full fine-tune */
    DECIDE_LLM_LORA,
    DECIDE_LLM_QLORA,
    DECIDE_LLM_SERVE,            /* inference_offline, inference_server, inference_stream */
    DECIDE_LLM_KINDS
} decide_llm_kind;

/* The most a calibrated share may be; a row implying more is left out as implausible, named,
 * with the reason in the trace.  Utilisation (training, and serving's prefill and compute-bound
 * decode): 0.75 of the dense tensor rate, above the highest model FLOPs utilisation the KB's
 * sources publish for language-model training, 58.2% (torchtitan-performance-a100), with room
 * for a serving stack's fused kernels; a decode step's share of the memory bandwidth: 85%, the
 * high end of what vLLM and TensorRT-LLM reach (mbu-glossary). */
#define DECIDE_LLM_UTILISATION_MAX 0.75
#define DECIDE_LLM_BANDWIDTH_MAX 0.85
/* A workload that names no benchmark is calibrated on its own model's rows of its kind where the
 * KB holds at least this many usable ones (after narrowing to its architecture's and its number
 * format's, and for a row's leave-one-out prediction first to its GPU vendor's, each where this
 * many remain), else
 * on every model's rows of its kind: a
 * utilisation carries over between models better than tokens/s do, since the FLOPs or bytes a
 * token takes are divided out, but not all of it (a mixture of experts reaches about half a
 * dense model's: DeepSeek-V3's pre-training rows imply 11% to 28% where dense models' imply 29%
 * to 40%).  Two, not one: one row alone may be its stack's outlier, and on the KB's rows the
 * leave-one-out error at 2 (largest 117% for pre-training) is far below that at 3 (225%), the
 * median alike. */
#define DECIDE_LLM_SAME_MODEL_ROWS 2

/* What the leave-one-out accuracy is held to (llm.accuracy.targets): each row predicted from
 * the others off by at most 15% at the median and 40% at the worst.  A figure is judged as the
 * words print it, to the whole percent, so a line never reads "15% ... above its 15% target". */
#define DECIDE_LLM_TARGET_MEDIAN_PCT 15
#define DECIDE_LLM_TARGET_MAX_PCT 40

/* A row's kind (decide_llm_kind) from its metric, unit and method; -1 for a row that is not a
 * language model's throughput in tokens/s (a time to train, images/s). */
int decide_llm_row_kind(const kb_benchmark *b);
/* The kind the decision's workload is (its task and fine-tune method). */
decide_llm_kind decide_llm_workload_kind(const decision *d);
/* "pre-training", "full fine-tune", "LoRA fine-tune", "QLoRA fine-tune", "serving". */
const char *decide_llm_kind_name(decide_llm_kind kind);

/* Reads the KB's results in tokens/s (kb_benchmarks_in_tokens) and resolves each one's model in
 * the catalog (kb_model_resolve) and its GPU; once, before any speed.  A KB without the columns
 * of schema version 12 has none to read: no rows, no error. */
int decide_llm_rows_load(decision *d, gw_error *err);

/* The shares an option's speed is computed at, calibrated on the measured rows of the workload's
 * kind (the workload's benchmark where it names one, else the KB's), narrowed as a row's
 * leave-one-out prediction is (decide_llm_accuracy_compute), so that the accuracy printed is
 * that of the calibration applied: to the option's GPU vendor's rows, the workload's
 * architecture's, number format's and model's, and rows that split no sequence over GPUs, each
 * step where DECIDE_LLM_SAME_MODEL_ROWS remain; each share the median of the rows that imply it,
 * within its bound, else the KB's assumed figure.  One calibration a vendor, computed when an
 * option of it first needs one (the options of vendors whose rows are too few share the one
 * narrowed by no vendor); the rows used and left out are traced (and listed in
 * llm.calibrations).  The one the last call chose is the current one, which the words below
 * describe.  Training: d->llm_mfu, llm_mfu_rows, llm_mfu_error for the vendor of g (a what-if's
 * figure in d->llm_mfu kept while g's vendor's is the one applied); serving: *mfu (prefill and
 * compute) and *bandwidth (a decode step's share); g NULL: the current calibration. */
double decide_llm_training_mfu(decision *d, const kb_gpu *g);
/* Returns which serving shares measured rows calibrate: 1 the utilisation, 2 the bandwidth's. */
int decide_llm_serving_shares(decision *d, const kb_gpu *g, double *mfu, double *bandwidth);
/* How many calibrations the decision took (at least one, computed for no vendor where no option
 * asked for any), and calibration i made current (training: applied to d->llm_mfu), for the
 * words that describe each. */
size_t decide_llm_calibrations(decision *d);
void decide_llm_calibration_use(decision *d, size_t i);
/* Where the decision took several calibrations, prefix and the vendors whose options take the
 * current one ("NVIDIA GPUs", "AMD and Intel GPUs") appended to b and 1; else 0, b untouched. */
int decide_llm_calibration_vendors(const decision *d, const char *prefix, gw_buf *b);
/* How the current calibration was found, for the speed's words: "calibrated on 3 measured NVIDIA
 * LoRA fine-tune rows of llama-2-70b" (the vendor where its rows were narrowed to it) or "the
 * KB's assumed figure" (owned by d). */
const char *decide_llm_calibration_words(const decision *d);
/* Where no row of g calibrates the current calibration yet rows of g of its kind were left out
 * by one of its narrowings, that in a clause appended to b: "; no NVIDIA L40S row calibrates it:
 * its 2 LoRA fine-tune rows ran context parallel, 45% utilisation, as the 4 other rows left out
 * so (43% to 46%), against 64% to 73% for the rows used"; else b untouched. */
void decide_llm_calibration_gpu_words(decision *d, const kb_gpu *g, gw_buf *b);
/* For an option of g where no row of g calibrates its calibration (the test the words above
 * make; its own benchmark's rows aside), how far the model is off for a GPU it has not seen: the
 * leave-one-out error at MODEL_BAND_PERCENTILE over every measured row of the workload's kind,
 * each predicted as llm.accuracy predicts it (computed once a decision); NaN where g's own rows
 * calibrate it, or none is predicted.  Its band is the larger of this and the calibration's. */
double decide_llm_unseen_band(decision *d, const kb_gpu *g);
/* The band an option of g takes on a calibration off by e: the larger of e and
 * decide_llm_unseen_band; *widened the latter where it is the larger, else NaN. */
double decide_llm_option_band(decision *d, const kb_gpu *g, double e, double *widened);
/* "; widened to 21.3%, the model's error at the 80th percentile over every measured serving row,
 * as no NVIDIA L40S row calibrates it", appended to b (a band's basis). */
void decide_llm_band_widened_words(decision *d, const kb_gpu *g, double e, gw_buf *b);
/* A served option's band where its vendor's shares are calibrated on 2 or more rows: the
 * calibration's leave-one-out error either way (as training's); returns 0 and leaves o alone
 * otherwise. */
int decide_llm_serving_band(decision *d, decide_option *o);
/* Where measured rows calibrate serving, the method's words on the current calibration (appended
 * to b: the shares, the rows, the band) and 1; else 0 and b untouched. */
int decide_llm_serving_method_words(decision *d, gw_buf *b);
/* Where measured rows calibrate serving, the assumptions' sentence on the current calibration's
 * shares ("A GPU computes the model at 33% ...: calibrated on ...") appended to b and 1; else 0. */
int decide_llm_assumption_words(decision *d, gw_buf *b);

/* The model's accuracy on the KB's measured results: every row of each kind that states its
 * scenario (precision, tokens; serving also output tokens and requests in flight, one for a
 * stream), predicted at the shares calibrated on the other rows of its kind, narrowed to its GPU
 * vendor's, then its architecture's (mixture of experts or dense), then its number format's,
 * then its model's rows, each
 * step only where it leaves DECIDE_LLM_SAME_MODEL_ROWS of them (a share none of them implies
 * read from the narrowest wider set that does), against its measured tokens/s:
 * |predicted / measured - 1|.  A row measured with speculative decoding (method "speculative")
 * is left out, named. */
typedef struct decide_llm_accuracy {
    int rows;                    /* rows predicted */
    int rows_by_kind[DECIDE_LLM_KINDS];
    double median, max;          /* of the errors, as fractions; NaN without rows */
    double median_by_kind[DECIDE_LLM_KINDS], max_by_kind[DECIDE_LLM_KINDS];
    int without_scenario;        /* language-model rows left out: their scenario is not stated */
    char *worst;                 /* the row of the largest error, in words (owned); NULL none */
    size_t n;                    /* per row of the KB's rows in tokens/s, in their order: */
    double *predicted;           /* its tokens/s predicted from the others; NaN not predicted */
    const char **why;            /* why a language-model row is not predicted; NULL */
    double *implied;             /* the share it implies at the KB's assumed figures; NaN */
    unsigned char *bandwidth_share;   /* 1: that share is the decode bandwidth's */
    unsigned short *narrowed;    /* the narrowings its calibration took (decide_llm_rows.h's
                                  * NARROW_: 1 its vendor's, 2 its architecture's, 4 its number
                                  * format's, 8 its model's, 16 its layout's, 256 its training
                                  * stack's (zero3 or not), 512 its GPU architecture's
                                  * (training); 32 no other row of its kind, the
                                  * assumed figures; 64 and 128 its utilisation or bandwidth share
                                  * read from wider rows, as none of the narrowed ones implies
                                  * it) */
} decide_llm_accuracy;
/* Computes it over d's rows (decide_llm_rows_load); out is freed with
 * decide_llm_accuracy_free. */
void decide_llm_accuracy_compute(decision *d, decide_llm_accuracy *out);
void decide_llm_accuracy_free(decide_llm_accuracy *a);

/* The view of the accuracy (llm.accuracy: rows, median_error_pct, max_error_pct, worst,
 * rows_left_out, targets: {median_pct, max_pct}, meets_targets (the median and the maximum
 * within them), kinds: [{kind, rows, median_error_pct, max_error_pct, meets_targets}],
 * predictions: [{gpu,
 * gpu_count, workload, metric, value, source, kind, predicted, error_pct, share, implied,
 * why_not}]), its one-line words
 * (llm.accuracy_text) and the calibrations used (llm.calibrations, one a vendor whose rows
 * narrowed them, in the order the options needed them: [{vendor (null: rows of any vendor),
 * gpu_vendors (the options' vendors that take it), kind, scope, basis, utilisation,
 * bandwidth_share, band_error_pct, used: [{gpu, gpu_count, workload, metric, value, source,
 * share, implied}], left_out: [{..., why}]}]), set in the llm map v. */
void decide_llm_accuracy_view(decision *d, view *v);

/* Releases d's rows and calibration (decision_free). */
void decide_llm_rows_free(decision *d);

#endif
