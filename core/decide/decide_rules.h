/* decide_rules.h — the rule plugins' verdicts on every option, and workload.context as the
 * rules see it (decide_rules.c). */
#ifndef GW_DECIDE_RULES_H
#define GW_DECIDE_RULES_H

#include "decide_fields.h"
#include "sandbox/plugin.h"

/* Every rule's verdicts on every option (host NULL: none). */
int decide_rules_run(decision *d, plugin_host *host, gw_error *err);
/* workload.context as the rules see it (caller owns the view). */
view *decide_rule_context(const decision *d);

/* The fields of workload.context, described once. */
extern const decide_field decide_context_fields[];
extern const size_t decide_context_field_count;

#endif
