/* decide_rules.c — the rule plugins' part in a decision: what a rule sees (each option's fields,
 * and workload.context: facts about the whole decision), calling every rule's evaluate on every
 * option, reading and checking the verdicts (what they weigh in the ranking is decide_option.c's
 * decide_rules_adjustment).  The contract is documented in plugins/README.md, section "The rule
 * contract". */
#include "decide_rules.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A verdict that gives no weight counts this much (plugins/README.md, "The rule contract"). */
#define RULE_WEIGHT_DEFAULT 0.1

/* Power is expensive when electricity is more than this share of what the typical purchase
 * spends over the horizon: chosen, not taken from a source (for scale, the own-vs-cloud model of
 * the RTX 4090 / A100 / H100 article that the host cost comes from spends CNY 5,000 of 29,000 on
 * electricity, 17%). */
#define EXPENSIVE_POWER_SHARE 0.30

/* ---- workload.context: facts that depend on the whole decision, not one option ---- */

typedef struct rule_context {
    int tight_budget;
    double cheapest_datacenter_upfront;
    double model_gb;
    double budget;
    double electricity_share;
    int expensive_power;
    int host_cost_assumed;
} rule_context;

#define CONTEXT(name) offsetof(rule_context, name)

/* Which figure the budget is held to, omitted (NaN) without a budget. */
static void get_budget_basis(const decision *d, const void *record, decide_field_value *v)
{
    (void)record;
    v->text = d->w->budget_basis;
    v->number = d->w->budget_basis ? 0 : NAN;
}

/* The fields of workload.context, described once: the view, plugins/README.md's rule contract
 * and its test derive from this table (see decide_field in decide_fields.h). */
const decide_field decide_context_fields[] = {
    {NULL, "tight_budget", DECIDE_FIELD_BOOLEAN, CONTEXT(tight_budget), NULL, 0, NULL,
     DECIDE_RULE_VALUE, 0, NULL},
    {NULL, "cheapest_datacenter_upfront", DECIDE_FIELD_NUMBER,
     CONTEXT(cheapest_datacenter_upfront), NULL, 0, NULL, DECIDE_RULE_VALUE, 0, NULL},
    {NULL, "model_gb", DECIDE_FIELD_NUMBER, CONTEXT(model_gb), NULL, 0, NULL, DECIDE_RULE_VALUE,
     0, NULL},
    {NULL, "budget", DECIDE_FIELD_MONEY, CONTEXT(budget), NULL, 0, NULL, DECIDE_RULE_TEXT,
     DECIDE_FIELD_OMIT_NAN, NULL},
    {NULL, "budget_basis", DECIDE_FIELD_STRING, DECIDE_FIELD_NO_OFFSET, get_budget_basis, 0,
     NULL, DECIDE_RULE_VALUE, DECIDE_FIELD_OMIT_NAN, NULL},
    {NULL, "electricity_share", DECIDE_FIELD_NUMBER, CONTEXT(electricity_share), NULL, 0, NULL,
     DECIDE_RULE_VALUE, 0, NULL},
    {NULL, "expensive_power", DECIDE_FIELD_BOOLEAN, CONTEXT(expensive_power), NULL, 0, NULL,
     DECIDE_RULE_VALUE, 0, NULL},
    {NULL, "host_cost_assumed", DECIDE_FIELD_BOOLEAN, CONTEXT(host_cost_assumed), NULL, 0, NULL,
     DECIDE_RULE_VALUE, 0, NULL},
};
const size_t decide_context_field_count =
    sizeof decide_context_fields / sizeof decide_context_fields[0];
#undef CONTEXT

/* A budget is tight when it does not buy the cheapest data-centre purchase: one card, or the
 * smallest whole server of a part sold only in servers, at the figure the budget is held to
 * (o->committed: up front, over the horizon or a month). */
static void context_budget(const decision *d, rule_context *c)
{
    double cheapest = INFINITY, held_to = INFINITY;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (o->acquisition != DECIDE_RENT && !o->consumer && (o->count == 1 || o->system) &&
            o->hosts == 1 && o->cost.upfront < cheapest) {
            cheapest = o->cost.upfront;
            held_to = o->committed;
        }
    }
    c->budget = d->w->budget;
    c->cheapest_datacenter_upfront = cheapest;
    c->tight_budget = !isnan(c->budget) && (isinf(cheapest) || c->budget < held_to);
}

/* The typical (median) share of electricity in what buying costs, over every purchase option. */
static void context_power(const decision *d, rule_context *c)
{
    double *shares = gw_xmalloc((d->n_options ? d->n_options : 1) * sizeof *shares);
    size_t n = 0;
    for (size_t i = 0; i < d->n_options; i++)
        if (d->options[i].acquisition != DECIDE_RENT)
            shares[n++] = d->options[i].electricity_share;
    c->electricity_share = decide_median(shares, n);
    c->expensive_power = !isnan(c->electricity_share) &&
                         c->electricity_share > EXPENSIVE_POWER_SHARE;
    free(shares);
}

view *decide_rule_context(const decision *d)
{
    rule_context c;
    memset(&c, 0, sizeof c);
    c.model_gb = d->memory.total_gb;
    context_budget(d, &c);
    context_power(d, &c);
    c.host_cost_assumed = d->fact_cite[KB_ASSUMED_HOST_COST] != 0;   /* fill_defaults set it */
    view *ctx = view_map();
    decide_fields_write(ctx, decide_context_fields, decide_context_field_count, d, &c, 0,
                        DECIDE_VIEW_RULE);
    return ctx;
}

/* ---- verdicts ---- */

/* The problem with verdict x of a rule, or NULL when it keeps the contract. */
static const char *verdict_problem(const view *x)
{
    const char *effect = view_str(view_map_get(x, "effect"));
    const char *because = view_str(view_map_get(x, "because"));
    const view *weight = view_map_get(x, "weight");
    const view *checklist = view_map_get(x, "checklist");
    if (view_kind(x) != VIEW_MAP || !effect ||
        (strcmp(effect, "exclude") && strcmp(effect, "prefer") && strcmp(effect, "warn")))
        return "effect must be \"exclude\", \"prefer\" or \"warn\"";
    if (!because || !*because)
        return "because must be a sentence saying why";
    if (!view_is_null(weight) &&
        (view_kind(weight) != VIEW_NUMBER || !(view_num(weight) >= 0) || view_num(weight) > 1))
        return "weight must be 0 to 1";
    if (!view_is_null(checklist) && !view_str(checklist))
        return "checklist must be a name";
    return NULL;
}

static int read_verdicts(decision *d, decide_option *o, const plugin_info *info, view *result,
                         gw_error *err)
{
    if (view_is_null(result))
        return GW_OK;
    if (view_kind(result) == VIEW_MAP && view_len(result) == 0)
        return GW_OK;
    if (view_kind(result) != VIEW_LIST)
        return gw_error_set(err, GW_ESOFTWARE,
                            "%s: evaluate must return a list of verdicts (or nil)", info->path);
    double prefers = 0;   /* held to what the rule declares (decide_rules_floor) */
    for (size_t i = 0; i < view_len(result); i++) {
        const view *x = view_list_at(result, i);
        const char *problem = verdict_problem(x);
        if (problem)
            return gw_error_set(err, GW_ESOFTWARE, "%s: verdict %zu: %s", info->path, i + 1,
                                problem);
        const char *checklist = view_str(view_map_get(x, "checklist"));
        const view *weight = view_map_get(x, "weight");
        o->verdicts = gw_xrealloc(o->verdicts, (o->n_verdicts + 1) * sizeof *o->verdicts);
        decide_verdict *v = &o->verdicts[o->n_verdicts++];
        v->rule = gw_xstrdup(info->name);
        v->effect = gw_xstrdup(view_str(view_map_get(x, "effect")));
        v->because = gw_xstrdup(view_str(view_map_get(x, "because")));
        v->checklist = checklist ? gw_xstrdup(checklist) : NULL;
        v->weight = view_is_null(weight) ? RULE_WEIGHT_DEFAULT : view_num(weight);
        prefers += strcmp(v->effect, "prefer") ? 0 : v->weight;
        if (info->prefers_at_most >= 0 && prefers > info->prefers_at_most + 1e-12)
            return gw_error_set(err, GW_ESOFTWARE,
                                "%s: its preferences on %s weigh %.3g, more than its "
                                "prefers_at_most (%.3g)",
                                info->path, o->id, prefers, info->prefers_at_most);
        decide_trace(d, "rule %s: %s %s (%.2f): %s", info->name, v->effect, o->id, v->weight,
                     v->because);
    }
    return GW_OK;
}

/* ---- calling the rules ---- */

/* The loaded plugins of kind rule, in load order; their number in *n. */
static plugin **rules_of(plugin_host *host, size_t *n)
{
    plugin **rules = gw_xcalloc(plugin_count(host) + 1, sizeof *rules);
    *n = 0;
    for (size_t p = 0; p < plugin_count(host); p++) {
        plugin_info info;
        plugin_get_info(plugin_at(host, p), &info);
        if (decide_str_eq(info.kind, "rule"))
            rules[(*n)++] = plugin_at(host, p);
    }
    return rules;
}

size_t decide_rules_count(plugin_host *host)
{
    size_t n = 0;
    free(host ? rules_of(host, &n) : NULL);
    return n;
}

double decide_rules_floor(plugin_host *host)
{
    if (!host)
        return 1;
    size_t n_rules;
    plugin **rules = rules_of(host, &n_rules);
    double prefers = 0;
    for (size_t r = 0; r < n_rules; r++) {
        plugin_info info;
        plugin_get_info(rules[r], &info);
        prefers += info.prefers_at_most >= 0 ? info.prefers_at_most : NAN;
    }
    free(rules);
    return isnan(prefers) ? NAN : decide_rules_adjustment_floor(prefers);
}

/* Every rule's verdicts on the options judged (which[0 .. n), indices into d->options), option
 * by option in rule order; counts them.  results[r] holds rule r's [i, verdicts] for the
 * options it said something of (plugin_call_batch; i in the batch), in option order: a cursor
 * per rule walks it. */
static int read_all_verdicts(decision *d, const size_t *which, size_t n, plugin **rules,
                             size_t n_rules, view **results, size_t *fired, gw_error *err)
{
    size_t *next = gw_xcalloc(n_rules + 1, sizeof *next);
    int rc = GW_OK;
    for (size_t i = 0; i < n && rc == GW_OK; i++) {
        decide_option *o = &d->options[which[i]];
        for (size_t r = 0; r < n_rules && rc == GW_OK; r++) {
            const view *pair = view_list_at(results[r], next[r]);
            if (!pair || view_num(view_list_at(pair, 0)) != (double)i)
                continue;
            next[r]++;
            plugin_info info;
            plugin_get_info(rules[r], &info);
            size_t before = o->n_verdicts;
            rc = read_verdicts(d, o, &info, view_list_at(pair, 1), err);
            *fired += o->n_verdicts - before;
        }
    }
    free(next);
    return rc;
}

int decide_rules_run(decision *d, plugin_host *host, const unsigned char *judge,
                     size_t *verdicts, gw_error *err)
{
    if (!host)
        return GW_OK;
    view *wv = workload_to_view(d->w);
    view_map_set(wv, "context", decide_rule_context(d));
    size_t n_rules, fired = 0, n = 0;
    plugin **rules = rules_of(host, &n_rules);
    size_t *which = gw_xcalloc(d->n_options + 1, sizeof *which);
    for (size_t i = 0; i < d->n_options; i++)
        if (!judge || judge[i])
            which[n++] = i;
    /* Each option's view is built and encoded once and shown to every rule (freed once
     * encoded: the next option's view reuses its memory, 1.7 M of the 242 M instructions of a
     * grown-KB decide); the workload is converted once per rule; each rule sees every option
     * within one call into its plugin.  Verdicts are read option by option, in rule order. */
    plugin_arg *shared = plugin_arg_new(wv);
    view **results = gw_xcalloc(n_rules + 1, sizeof *results);   /* a list per rule */
    plugin_batch *options = n_rules && n ? plugin_batch_begin(n) : NULL;
    for (size_t i = 0; options && i < n; i++) {
        view *ov = decide_option_view(d, &d->options[which[i]], DECIDE_VIEW_RULE);
        plugin_batch_push(options, ov);
        view_free(ov);
    }
    int rc = GW_OK;
    for (size_t r = 0; r < n_rules && rc == GW_OK && n; r++)
        rc = plugin_call_batch(rules[r], "evaluate", options, shared, &results[r], err);
    plugin_batch_free(options);
    if (rc == GW_OK)
        rc = read_all_verdicts(d, which, n, rules, n_rules, results, &fired, err);
    for (size_t r = 0; r < n_rules; r++)
        view_free(results[r]);
    free(results);
    free(which);
    plugin_arg_free(shared);
    free(rules);
    view_free(wv);
    *verdicts += fired;
    return rc;
}
