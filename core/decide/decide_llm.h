/* decide_llm.h — a language model's part of the model stage, and the report's words on it
 * (decide_llm.c). */
#ifndef GW_DECIDE_LLM_H
#define GW_DECIDE_LLM_H

#include "decide_common.h"

/* A language model's setup (once, in place of the memory estimate), each option's fit
 * (tensor-parallel GPUs a replica, memory per GPU) and speed in tokens/s (how appended to how),
 * the serving target an option misses (NULL: none; caller frees), and the tokens one GPU
 * processes a training step. */
int decide_llm_setup(decision *d, gw_error *err);
void decide_llm_fit(decision *d, decide_option *o);
void decide_llm_speed(decision *d, decide_option *o, gw_buf *how);
char *decide_llm_target_missed(const decision *d, const decide_option *o);
double decide_llm_tokens_per_step(const workload *w);
/* The report's words on the model, its setup, and the recommendation's memory per GPU and
 * serving figures (caller owns the view); the method's lines in place of the image-model ones. */
view *decide_llm_view(const decision *d);
void decide_llm_method(const decision *d, view *method);

#endif
