/* decide_mixed.h — mixed work: several workloads on the same hardware (workload.parts).  One
 * decision is made for the part whose memory is the largest; every option is also evaluated
 * for each other part (its fit and its hours of running), and the option fits only when every
 * part fits, runs the sum of their hours, is ranked on the whole plan's cost and shares it by
 * hours.  Also the hours of running any option needs (decide_option_hours). */
#ifndef GW_DECIDE_MIXED_H
#define GW_DECIDE_MIXED_H

#include "decide_common.h"
#include "sandbox/plugin.h"

/* The decision for mixed work w (w->n_parts > 0): a decision for each part, then the one for
 * the part of the largest memory, with the others' fits and hours (decide_mixed_apply).
 * As decide_run (decide.h). */
int decide_mixed_run(kb *k, plugin_host *host, workload *w, unsigned flags, decision **out,
                     gw_error *err);
/* decide.c's pipeline for w with the parts' decisions attached (parts may be NULL); takes
 * ownership of parts. */
int decide_run_with_parts(kb *k, plugin_host *host, workload *w, unsigned flags,
                          decision **parts, size_t n_parts, size_t base_part, decision **out,
                          gw_error *err);

/* o->hours_needed and o->hours_available: a job's runs and the hours to its deadline; a
 * capacity need's hours over the horizon (decide_need_hours); NaN for capacity at every hour.
 * With mixed work: the decision's own part's hours (capacity without a need: hours_per_day
 * over the horizon) plus o->other_parts_hours, within hours_per_day over the horizon. */
void decide_option_hours(decision *d, decide_option *o);
/* Mixed work: each option evaluated for every other part; it fits only if all fit, its
 * other_parts_hours and part_hours are set, and it is costed again (ranked on its whole cost,
 * the work unit "the whole plan").  Nothing for one workload. */
void decide_mixed_apply(decision *d);
/* o's share of the plan by workload: a list of { name, hours, share, cost, cost_text,
 * memory_gb }; NULL for one workload.  Caller owns the view. */
view *decide_mixed_option_view(const decision *d, const decide_option *o);
/* The workloads of mixed work for the view: { workloads = [{ name, memory_gb, hours, share,
 * cost }] for the recommendation (none without one), largest = the part whose memory the plan
 * meets }; NULL for one workload. */
view *decide_mixed_view(const decision *d);
void decide_mixed_free(decision *d);

#endif
