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

/* One calibration of the workload's kind: the rows that calibrate the options of one or more GPU
 * vendors, narrowed as a row's leave-one-out prediction is (decide_llm_accuracy.c's row_pref),
 * so that the accuracy printed is the accuracy of the calibration applied. */
typedef struct llm_calibration {
    char *vendor;                /* the vendor its rows were narrowed to (owned); NULL: any */
    char *architecture;          /* the GPU architecture they were narrowed to (owned); NULL */
    unsigned char *used;         /* per cal row: calibrates it */
    int narrowed;                /* the NARROW_ steps its rows took */
    double mfu, bandwidth;       /* its shares (training's applied through d->llm_mfu) */
    int mfu_rows, bandwidth_rows;
    double band_error;           /* the leave-one-out error at MODEL_BAND_PERCENTILE; NaN */
    char *scope;                 /* "the benchmark llama2-70b", "llama-2-70b", "every model" */
    char *words;
    char *band_basis;            /* a serving band's basis, written once (decide_llm_serving_band) */
} llm_calibration;

/* Which calibration an option of a GPU vendor and architecture takes (NULL: a GPU that states
 * none). */
typedef struct llm_vendor_cal {
    char *vendor, *architecture; /* owned */
    size_t cal;                  /* index in cals */
} llm_vendor_cal;

struct decide_llm_accuracy;

struct decide_llm_rows {
    kb_benchmark *kb;            /* the KB's rows in tokens/s */
    size_t n_kb;
    llm_row *rows;               /* each of them resolved */
    llm_row *bench;              /* the workload's benchmark's rows (d->bench) resolved */
    size_t n_bench;
    /* the rows the workload's calibrations draw on, read once */
    int prepared;
    const llm_row *cal_rows;     /* rows or bench */
    size_t n_cal;
    llm_implied *cal_implied;    /* per cal row; value NaN: not of the kind, or unreadable */
    /* the calibrations, each computed when an option of a vendor first needs it */
    llm_calibration *cals;
    size_t n_cals;
    llm_vendor_cal *vendors;     /* the options' vendors seen, each with its calibration */
    size_t n_vendors;
    size_t current;              /* the calibration the last speed computed was at */
    size_t applied;              /* the one d->llm_mfu holds (n_cals: none) */
    /* the model's accuracy on the KB's rows, computed once (decide_llm_rows_accuracy), and the
     * MODEL_BAND_PERCENTILE of its errors over the rows of the workload's kind
     * (decide_llm_unseen_band; NaN: not computed yet, or no row of the kind predicted) */
    struct decide_llm_accuracy *accuracy;
    double unseen_band;
};

/* d's accuracy (decide_llm_accuracy_compute), computed at the first call and kept with its rows
 * (freed with them); NULL without rows. */
const struct decide_llm_accuracy *decide_llm_rows_accuracy(decision *d);

/* The narrowings a calibration takes (decide_llm_accuracy.c's row_pref), in their order; NO_ROWS:
 * no other row of its kind, the KB's assumed figures; WIDENED_: that share, which no narrowed row
 * implies, read from a wider set (widened_share). */
enum { NARROW_VENDOR = 1, NARROW_MOE = 2, NARROW_FORMAT = 4, NARROW_MODEL = 8, NARROW_LAYOUT = 16,
       NO_ROWS = 32, WIDENED_UTILISATION = 64, WIDENED_BANDWIDTH = 128, NARROW_STACK = 256,
       NARROW_ARCH = 512 };

/* Whether r was measured with speculative decoding (method "speculative"). */
int decide_llm_row_speculative(const llm_row *r);

/* The model of r, or where r names none in the catalog, the workload's (its own benchmark). */
const model_llm *decide_llm_row_model(const decision *d, const llm_row *r);
/* Whether r's model is a mixture of experts. */
int decide_llm_row_moe(const llm_row *r);
/* Whether r shards its parameters over its data-parallel GPUs (its sharding zero3: FSDP). */
int decide_llm_row_shards(const llm_row *r);
/* Whether r splits each sequence over GPUs (its context_parallel above 1). */
int decide_llm_row_splits_sequence(const llm_row *r);
/* "8x h100-sxm5, llama-2-70b inference_offline, source-id" for r, appended to b. */
void decide_llm_row_words(gw_buf *b, const llm_row *r);
/* The narrowing of c (a NARROW_ step) that leaves out r, a row of c's kind whose share im is
 * known and bounded, that c does not use; 0 where r is unusable (speculative, its share unknown
 * or above its bound). */
int decide_llm_row_left_out_step(const decision *d, const llm_calibration *c, const llm_row *r,
                                 const llm_implied *im);
/* The calibration options of g's vendor take (g NULL: the current one, else the first, computed
 * for no vendor), made current; computed once a vendor. */
const llm_calibration *decide_llm_rows_calibrate(decision *d, const kb_gpu *g);

/* ---- shared by decide_llm_accuracy.c (the rows, their shares, leave-one-out) and
 * decide_llm_calibration.c (the workload's calibrations) ---- */

/* What a calibration prefers of its rows, each narrowing applied in this order only where it
 * leaves DECIDE_LLM_SAME_MODEL_ROWS usable rows (else that step falls back to the wider set):
 * the GPU vendor's (its software stack: ROCm and vLLM on AMD, CUDA on NVIDIA reach different
 * shares of the same peak), then the training stack's (fully sharded data parallel, zero3, or
 * not: FSDP gathers every layer's parameters a step where Megatron's tensor and pipeline
 * parallel runs exchange activations; torchtitan's BF16 FSDP runs of Llama 3.1 8B on H100 imply
 * about 35% utilisation where Megatron's imply 50% and more), then the architecture's (a
 * mixture of experts or a dense model: a mixture reaches about half a dense model's
 * utilisation), then the number format's (the
 * precision the row ran at: each format's kernels reach their own share of its peak), then the
 * model's own, then the layout's: whether each sequence is split over GPUs (context parallel).
 * The model charges a context-parallel group as a tensor-parallel one, one share of the link,
 * and nothing else (decide_llm_row_train_layout): not the attention's exchange of keys and
 * values, nor the smaller matrices a split sequence leaves each GPU.  MLPerf Training v4.0's
 * LoRA rows at tensor 4 x context 2 imply 43% to 46% utilisation on H100 and L40S alike, where
 * the same round's 8-GPU H100 row without it implies 64%: rows of that layout describe that
 * layout.  A decision's training never splits a sequence (its layouts are context 1:
 * decide_llm_layout.c), so it prefers the rows that do not.  Last, a training calibration's GPU
 * architecture's (Ampere, Hopper...: torchtitan's A100 runs reach 50% to 61% of their peak where
 * its H100 runs reach 35% to 41%), after the layout's so that a GPU whose own rows all split
 * their sequences (the L40S's) keeps the rows that do not. */
typedef struct row_pref {
    const char *vendor;          /* NULL: any */
    int moe;                     /* 1 a mixture of experts, 0 dense, -1 any */
    const char *format;          /* the number format computed in; NULL: any */
    const char *model_id;        /* NULL: any */
    int splits_sequence;         /* 1 context parallel, 0 not, -1 any */
    int shards;                  /* 1 fully sharded (zero3), 0 not, -1 any */
    const char *architecture;    /* the GPU architecture (training only); NULL: any */
} row_pref;

/* The scenario r states; where w is given (the rows of the workload's own benchmark), what r
 * leaves out is w's.  0 where the model lacks something (decide_llm_accuracy.c). */
int decide_llm_row_scenario(const llm_row *r, const workload *w, llm_scenario *sc);
/* The share r implies at sc, and whether it is above its bound (a training row's: the
 * utilisation its GPUs delivered, its parallel exchanges included, as published ones are). */
llm_implied decide_llm_row_implied(const decision *d, const llm_row *r, const llm_scenario *sc);
/* The data-parallel efficiency the model gives training row r at sc and utilisation mfu (1: one
 * replica; NaN where the KB lacks its GPU's rate). */
double decide_llm_row_train_efficiency(const decision *d, const llm_row *r,
                                       const llm_scenario *sc, double mfu);
/* Marks in keep the rows of rows[0..n) (but skip) that calibrate a model of kind: every usable
 * one, narrowed by p.  Returns how many; *narrowed: the NARROW_ steps applied. */
size_t decide_llm_rows_select(const llm_row *rows, const llm_implied *im, size_t n, int kind,
                              const row_pref *p, size_t skip, unsigned char *keep, int *narrowed);
/* The medians of the kept rows' shares, each the assumed figure where none implies it. */
void decide_llm_rows_shares(const decision *d, const llm_implied *im, const unsigned char *keep,
                            size_t n, double *mfu, double *bandwidth, int *mfu_rows, int *bw_rows);
/* A share none of the narrowed rows implies, from the narrowest wider set that does; fallback
 * where none does. */
double decide_llm_widened_share(const decision *d, const llm_row *rows, const llm_implied *im,
                                size_t n, int kind, row_pref p, size_t skip, int narrowed,
                                int share, double fallback, int *rows_used);
/* |rows[i] predicted from the others of its kind (none narrowed away) / measured - 1|. */
double decide_llm_loo_error(const decision *d, const llm_row *rows, const llm_implied *im,
                            size_t n, size_t i);

#endif
