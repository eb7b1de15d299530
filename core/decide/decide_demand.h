/* decide_demand.h — a served language model's demand (what each option serves, the replicas it
 * needs with redundancy's spares) and a service's constraints (production, the workload's
 * region, the GeForce driver licence's data-centre clause): decide_demand.c. */
#ifndef GW_DECIDE_DEMAND_H
#define GW_DECIDE_DEMAND_H

#include "base/buf.h"
#include "base/error.h"
#include "base/view.h"
#include "decide_common.h"

/* What o serves, from the capacity decide_llm.c found (o->throughput, its band: the serving
 * replicas', redundancy's spares idle): a stated demand (inference.tokens_per_s, or
 * requests_per_s x output_tokens) when it can; utilisation a share of its capacity; with none,
 * its capacity (full use).  Sets o->capacity and its band and the throughput the cost is per,
 * and adds a clause to how. */
void decide_demand_serve(const decision *d, decide_option *o, gw_buf *how);

/* The tokens/s a served option is costed for at a capacity: the demand while the capacity
 * reaches it, else inference.utilisation's share of the capacity (all of it without one).
 * Robustness and what-if draw a capacity and serve this. */
double decide_demand_served(const decision *d, double capacity);

/* What serving requires of a layout's replicas: redundancy's spares (inference's redundancy;
 * 0 when not serving), and the fewest replicas (the spares + 1; production = true's two). */
int decide_demand_spares(const decision *d);
int decide_demand_min_replicas(const decision *d);

/* Why o has too few replicas for redundancy's spares or production's two; NULL when it has
 * enough, neither is asked for, or nothing is served.  Caller frees. */
char *decide_demand_short(const decision *d, const decide_option *o);

/* After the rules: an exclusion on each option with too few replicas, and under production = true
 * on each rental from a provider without a published SLA; a warning on each rental from a
 * provider that does not serve the workload's region, and on consumer cards in a server room or
 * data centre (the GeForce licence's clause).  Reads the KB's providers; keeps what it left out
 * for decide_demand_view and the trace.  GW_OK, or the KB's error. */
int decide_demand_constraints(decision *d, gw_error *err);

/* Whether an offer whose KB rows name regions (";"-separated; NULL none) is in the workload's
 * region, each read as its area (kb_area.h: "eu-west-1" and "DE" are in "EU"): 1 one of them
 * is, 0 none is and each has an area, -1 unknown or the workload names no region. */
int decide_offer_in_region(const decision *d, const char *regions);

/* The demand and the constraints as the report and --json show them: demand_basis
 * (tokens_per_s, requests_per_s, utilisation, full_use; serving only), demand_text,
 * production_left_out (option, provider, why), residency (option, provider, regions), lines
 * (the report's sentences with their citations).  Caller owns the view. */
view *decide_demand_view(const decision *d);

/* The method's line on serving demand, replicas and redundancy (method.serving_demand; serving
 * workloads only). */
void decide_demand_method(const decision *d, view *method);

#endif
