/* decide_llm_rows.h — the measured language-model rows as decide_llm_accuracy.c reads them,
 * shared with decide_llm_accuracy_view.c (their view): private to core/decide/. */
#ifndef GW_DECIDE_LLM_ROWS_H
#define GW_DECIDE_LLM_ROWS_H

#include "decide_common.h"

enum { SHARE_UTILISATION, SHARE_BANDWIDTH };

/* A measured row as the model reads it. */
typedef struct llm_row {
    const kb_benchmark *b;       /* borrowed from the rows loaded */
    const kb_gpu *gpu;           /* NULL: not in the KB */
    int kind;                    /* decide_llm_kind; -1 not a language model's tokens/s */
    char *model_id;              /* the catalog's model (owned); NULL: the workload's */
    model_llm model;
    int has_model;
} llm_row;

/* What a row says at its scenario. */
typedef struct llm_scenario {
    const char *precision;
    double input, output, batch;
} llm_scenario;

/* The share a row implies: which one, its figure (NaN: the row cannot be predicted; infinite:
 * more than SHARE_SEARCH_HIGH) and whether it is above its bound. */
typedef struct llm_implied {
    int share;
    double value;
    int over;
    llm_scenario scenario;
} llm_implied;

struct decide_llm_rows {
    kb_benchmark *kb;            /* the KB's rows in tokens/s */
    size_t n_kb;
    llm_row *rows;               /* each of them resolved */
    llm_row *bench;              /* the workload's benchmark's rows (d->bench) resolved */
    size_t n_bench;
    /* the workload's calibration, once */
    int calibrated;
    const llm_row *cal_rows;     /* rows or bench */
    size_t n_cal;
    llm_implied *cal_implied;    /* per cal row; value NaN: not of the kind, or unreadable */
    unsigned char *cal_used;     /* per cal row: calibrates the workload */
    double mfu, bandwidth;       /* serving's shares (training's is d->llm_mfu) */
    int mfu_rows, bandwidth_rows;
    double band_error;           /* the leave-one-out error at MODEL_BAND_PERCENTILE; NaN */
    char *scope;                 /* "the benchmark llama2-70b", "llama-2-70b", "every model" */
    char *words;
};

/* The narrowings a calibration takes (decide_llm_accuracy.c's row_pref), in their order; NO_ROWS:
 * no other row of its kind, the KB's assumed figures; WIDENED_: that share, which no narrowed row
 * implies, read from a wider set (widened_share). */
enum { NARROW_VENDOR = 1, NARROW_MOE = 2, NARROW_FORMAT = 4, NARROW_MODEL = 8, NO_ROWS = 16,
       WIDENED_UTILISATION = 32, WIDENED_BANDWIDTH = 64 };

/* Whether r was measured with speculative decoding (method "speculative"). */
int decide_llm_row_speculative(const llm_row *r);
/* Whether r's model is a mixture of experts. */
int decide_llm_row_moe(const llm_row *r);
/* "8x h100-sxm5, llama-2-70b inference_offline, source-id" for r, appended to b. */
void decide_llm_row_words(gw_buf *b, const llm_row *r);
/* The workload's calibration (d->llm_rows), found once. */
void decide_llm_rows_calibrate(decision *d);

#endif
