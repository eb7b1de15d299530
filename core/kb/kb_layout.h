/* kb_layout.h — a training row's pipeline stage layout in Megatron's own notation
 * (pipeline_model_parallel_layout), read into what each stage holds (kb_layout.c): the check
 * an import makes of a benchmark's pipeline_layout, and what the model charges for it. */
#ifndef GW_KB_LAYOUT_H
#define GW_KB_LAYOUT_H

#include <stddef.h>

/* The most stages (virtual chunks) and symbols a layout may name once its repeats are written
 * out: 32 times the 32 chunks of the largest layout a Megatron recipe states (PP8 x VP4), and
 * over 100 times DeepSeek-V3's 61 layers and its other symbols; a bound on what a repeat may
 * expand to (a row of "(t*9999)*9999" is refused, not written out). */
#define KB_LAYOUT_MAX_STAGES 1024
#define KB_LAYOUT_MAX_SYMBOLS 8192

/* What one stage holds: E the token embedding, t transformer layers, m multi-token-prediction
 * layers (each a transformer layer with its projection and its own output head), L the loss
 * and its output head. */
typedef struct kb_layout_stage {
    int embedding, layers, mtp, loss;
} kb_layout_stage;

typedef struct kb_layout {
    int stages;                                   /* virtual chunks, in order */
    kb_layout_stage stage[KB_LAYOUT_MAX_STAGES];
} kb_layout;

/* Reads text, Megatron's notation: stages separated by '|', each a run of the symbols E t m L;
 * "X*N" repeats a symbol N times and "(...)*N" a group (which may hold '|'); commas are
 * ignored (Megatron drops them).  The embedding only at the start of the first stage, the loss
 * only at the end of the last, each at most once; no stage empty; one transformer layer at
 * least.  0 when it reads (out filled, where out is not NULL); else -1 and `why` says what is
 * wrong and where ("'x' at character 3 is not ..."), at most whysz bytes. */
int kb_layout_parse(const char *text, kb_layout *out, char *why, size_t whysz);

/* Sums l's stages onto pp physical pipeline stages (stage i of l runs on physical stage
 * i mod pp: Megatron's interleaved schedule); out holds pp entries.  pp below 1 counts as 1. */
void kb_layout_fold(const kb_layout *l, int pp, kb_layout_stage *out);

#endif
