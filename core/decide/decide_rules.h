/* decide_rules.h — the rule plugins' verdicts on every option, and workload.context as the
 * rules see it (decide_rules.c). */
#ifndef GW_DECIDE_RULES_H
#define GW_DECIDE_RULES_H

#include "decide_fields.h"
#include "sandbox/plugin.h"

/* Every rule's verdicts on the options judge[i] marks (NULL: every option; host NULL: none);
 * adds how many to *verdicts. */
int decide_rules_run(decision *d, plugin_host *host, const unsigned char *judge,
                     size_t *verdicts, gw_error *err);
/* How many rules the host has loaded. */
size_t decide_rules_count(plugin_host *host);
/* The least factor the loaded rules can put on a cost per unit: 1 less the prefers_at_most
 * they declare together, within the factor's floor; NaN when a rule declares none (unbounded);
 * 1 without a host. */
double decide_rules_floor(plugin_host *host);
/* workload.context as the rules see it (caller owns the view). */
view *decide_rule_context(const decision *d);

/* The fields of workload.context, described once. */
extern const decide_field decide_context_fields[];
extern const size_t decide_context_field_count;

#endif
