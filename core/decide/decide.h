/* decide.h — the decision: enumerate the ways to get GPUs for a workload (buy new, buy used,
 * rent each stored offer), size and price each with model.c and cost.c, let the rule plugins
 * judge them, rank them, and keep a trace of every step.  The result is one view tree that
 * `decide --json` prints and the justification template reads.  An option is decide_option.h's;
 * decide.c runs the pipeline, its stages are decide_*.c beneath it, and decide_common.h holds
 * the state they share. */
#ifndef GW_DECIDE_H
#define GW_DECIDE_H

#include <stddef.h>

#include "base/error.h"
#include "base/view.h"
#include "decide_option.h"
#include "kb/kb.h"
#include "model/workload.h"
#include "sandbox/plugin.h"

typedef struct decision decision;

/* Runs the whole decision for w (defaults for ownership costs are filled into w).  host may be
 * NULL (no rules).  Caller frees *out with decision_free; w and k must outlive it.  A candidate
 * the KB does not know is listed as not considered (not_considered in the view).
 * Errors: GW_ENOTFOUND when every candidate is unknown, GW_EDATA for a workload the KB
 * cannot serve (no measured results for its benchmark), GW_ESOFTWARE for a rule that breaks its
 * contract. */
enum {
    DECIDE_TRACE = 1,        /* keep a line for every step: what `decide --json` prints */
    DECIDE_ALL_OPTIONS = 2   /* the rules judge every option, none set aside (decide.c) */
};
int decide_run(kb *k, plugin_host *host, workload *w, unsigned flags, decision **out,
               gw_error *err);
void decision_free(decision *d);

size_t decision_option_count(const decision *d);
const decide_option *decision_option_at(const decision *d, size_t i);   /* in rank order */
const decide_option *decision_best(const decision *d);                  /* NULL: none feasible */

/* The model --json prints and the template reads (see templates/README.md for the document
 * conventions it follows).  Caller owns the view. */
view *decision_to_view(const decision *d);
/* What decide's text prints besides its table, each field as decision_to_view has it (its
 * options' views, a share of the work that grows with the offers, are left out).  Caller owns
 * the view. */
view *decision_to_summary_view(const decision *d);
/* Why d recommends no option, one line (caller frees): "no option is feasible: the closest, X,
 * needs ..." (*none_feasible set to 1) or, when every feasible option's price is held back,
 * "no option is recommended: ..." (*none_feasible 0); NULL when it recommends one.  The view's
 * no_recommendation says the same. */
char *decision_no_recommendation(const decision *d, int *none_feasible);
/* A slice of a card in words, with the instance's price and that price per whole GPU-hour:
 * "1/6 of one NVIDIA A10 (4.0 GB): $0.45 an hour, $2.72 per whole GPU-hour" (the view's
 * slice_text); appends nothing for whole cards. */
void decision_slice_words(gw_buf *b, const decision *d, const decide_option *o);

#endif
