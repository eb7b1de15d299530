/* decide_fields.c — the option's fields, described once (decide_option_fields): its --json view
 * and what a rule sees of it both derive from that table, as does the rule contract in
 * plugins/README.md; also the money and figure pairs ("total" and "total_text") every view uses. */
#include "base/units.h"
#include "decide_fields.h"
#include "decide.h"
#include "base/check.h"
#include "decide_cost.h"
#include "decide_llm.h"
#include "decide_mixed.h"
#include "decide_precision.h"
#include "decide_speed.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- figures with their text: "total" and "total_text" ---- */

/* key + "_text" into out (keys are short literals; a longer one is cut to fit the suffix). */
static void text_key_of(char out[64], const char *key)
{
    size_t n = strlen(key);
    if (n > 58)
        n = 58;
    memcpy(out, key, n);
    memcpy(out + n, "_text", 6);
}

/* A number, null where it is not finite (view_map_set_num's rule). */
static view *number_or_null(double n)
{
    return isfinite(n) ? view_number(n) : view_null();
}

/* The text of an amount of money (null where it is not finite). */
static view *money_text(const decision *d, double amount, int decimals)
{
    if (!isfinite(amount))
        return view_null();
    gw_buf b = GW_BUF_INIT;
    units_format_money(&b, amount, d->w->currency, decimals);
    view *v = view_string(buf_cstr(&b));
    buf_free(&b);
    return v;
}

/* The text of a figure, "2,750.5 GB" (null where it is not finite). */
static view *figure_text(double n, int decimals, const char *suffix)
{
    if (!isfinite(n))
        return view_null();
    gw_buf b = GW_BUF_INIT;
    view_format_number(&b, n, decimals);
    if (suffix)
        buf_puts(&b, suffix);
    view *v = view_string(buf_cstr(&b));
    buf_free(&b);
    return v;
}

static void money_put(view *m, const decision *d, const char *key, double amount, int decimals)
{
    char text_key[64];
    text_key_of(text_key, key);
    view_map_set(m, key, number_or_null(amount));
    view_map_set(m, text_key, money_text(d, amount, decimals));
}

void decide_set_money(view *m, const decision *d, const char *key, double amount)
{
    money_put(m, d, key, amount, -1);
}

void decide_set_money_fixed(view *m, const decision *d, const char *key, double amount,
                            int decimals)
{
    money_put(m, d, key, amount, decimals);
}

void decide_set_figure(view *m, const char *key, double n, int decimals, const char *suffix)
{
    char text_key[64];
    text_key_of(text_key, key);
    view_map_set(m, key, number_or_null(n));
    view_map_set(m, text_key, figure_text(n, decimals, suffix));
}

/* ---- the option's fields, described once ---- */

#define OPTION_OF(record) ((const decide_option *)(record))

static void get_label(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    decide_option_label(&v->owned, OPTION_OF(r), 0);
    v->text = buf_cstr(&v->owned);
}

static void get_gpu(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->text = OPTION_OF(r)->gpu->id;
}

static void get_gpu_name(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->text = OPTION_OF(r)->gpu->name;
}

static void get_acquisition(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->text = decide_acquisition_name(OPTION_OF(r)->acquisition);
}

static void get_form_factor(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->text = OPTION_OF(r)->gpu->form_factor;
}

static void get_vendor(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->text = OPTION_OF(r)->gpu->vendor;
}

static void get_architecture(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->text = OPTION_OF(r)->gpu->architecture;
}

/* TF32 tensor cores: the KB's TF32 figure where it has one, else NVIDIA's Ampere and every
 * later architecture (the KB leaves the figure out for some Ampere workstation cards). */
static void get_tf32(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    static const char *const tf32_architectures[] = {"Ampere", "Ada Lovelace", "Hopper",
                                                     "Blackwell", NULL};
    const kb_gpu *g = OPTION_OF(r)->gpu;
    v->number = g->tf32_tflops > 0;
    for (size_t i = 0; !v->number && tf32_architectures[i]; i++)
        v->number = g->vendor && g->architecture && !strcmp(g->vendor, "NVIDIA")
                    && !strcmp(g->architecture, tf32_architectures[i]);
}

static void get_memory_gb(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->number = decide_option_nominal_gb(OPTION_OF(r));   /* a MIG slice: its share */
}

/* What a need is compared with: the memory as the driver reports it, in GB of 10^9 bytes. */
static void get_usable_memory_gb(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->number = decide_option_usable_gb(OPTION_OF(r), NULL);
}

static void get_usable_memory_estimated(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    int estimated;
    decide_option_usable_gb(OPTION_OF(r), &estimated);   /* no dump in the KB: estimated */
    v->number = estimated;
}

/* A language model's figures of an option: NaN (left out) for another model. */
static double llm_number(const decision *d, double x)
{
    return workload_is_llm(d->w) ? x : NAN;
}

/* A getter of a language model's figure of an option (NaN for another model). */
#define LLM_NUMBER_GETTER(name, expr)                                                         \
    static void name(const decision *d, const void *r, decide_field_value *v)                 \
    {                                                                                          \
        const decide_option *o = OPTION_OF(r);                                                 \
        v->number = llm_number(d, (expr));                                                     \
    }
LLM_NUMBER_GETTER(get_tp, o->tp)
LLM_NUMBER_GETTER(get_replicas, o->replicas)
LLM_NUMBER_GETTER(get_pipeline_stages, o->pp > 1 ? o->pp : 1)
LLM_NUMBER_GETTER(get_sequences, o->sequences > 0 ? o->sequences : NAN)
LLM_NUMBER_GETTER(get_kv_cache_gb, o->memory.kv_cache_gb)
LLM_NUMBER_GETTER(get_bandwidth_gbs, o->gpu->memory_bandwidth_gbs)
#undef LLM_NUMBER_GETTER

/* A language model's layout in words: "8 GPUs: 2 replicas × tensor-parallel 4" (decide_llm.h). */
static void get_layout_text(const decision *d, const void *r, decide_field_value *v)
{
    const decide_option *o = OPTION_OF(r);
    if (!workload_is_llm(d->w) || o->replicas < 1)
        return;
    decide_llm_layout_words(&v->owned, o->count, o->replicas, o->tp, o->pp > 1 ? o->pp : 1,
                            o->attention_dp);
    v->text = buf_cstr(&v->owned);
}

static void get_run_precision(const decision *d, const void *r, decide_field_value *v)
{
    v->text = workload_is_llm(d->w) ? OPTION_OF(r)->run_precision : NULL;
}

/* Why the GPUs run another format than the workload's (decide_precision.c); NULL where they run
 * its own. */
static void get_precision_note(const decision *d, const void *r, decide_field_value *v)
{
    if (decide_precision_words(d, OPTION_OF(r)->gpu, !workload_is_serving(d->w), &v->owned))
        v->text = buf_cstr(&v->owned);
}

static void get_interconnect(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->text = o->count < 2 ? NULL : o->nvlink ? "nvlink" : "pcie";
}

static void get_link_gbs(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = o->count < 2 ? NAN : o->link_gbs;   /* no link for one card */
}

static void get_unit(const decision *d, const void *r, decide_field_value *v)
{
    (void)r;
    v->text = d->unit;
}

static void get_basis(const decision *d, const void *r, decide_field_value *v)
{
    const decide_option *o = OPTION_OF(r);
    v->text = isnan(o->throughput) ? NULL : decide_speed_kind(d, o);
}

/* A scaled estimate, not a measurement of this GPU and count (the report marks it). */
static void get_estimate(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = !isnan(o->throughput) && !o->measured;
}

/* The band's ends, unknown (null) with the speed: an option with no speed has no band, not one
 * from 0 to 0. */
static void get_throughput_low(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = isnan(o->throughput) ? NAN : o->throughput_lo;
}

static void get_throughput_high(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = isnan(o->throughput) ? NAN : o->throughput_hi;
}

/* Why the speed is unknown, when it is (value null): what the speed stage found missing. */
static void get_throughput_unknown_because(const decision *d, const void *r,
                                           decide_field_value *v)
{
    const decide_option *o = OPTION_OF(r);
    if (!isnan(o->throughput))
        return;
    v->text = o->throughput_how && *o->throughput_how
                  ? o->throughput_how
                  : d->w->benchmark ? "no measured or comparable result on this benchmark"
                                    : "no speed figure for this GPU";
}

/* "3,100 to 3,458" when the evidence spreads (several results, or a set-aside one); NULL. */
static void get_spread(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    if (!(o->throughput_hi > o->throughput_lo))
        return;
    int decimals = o->throughput_hi < 100 ? 2 : 0;
    view_format_number(&v->owned, o->throughput_lo, decimals);
    buf_puts(&v->owned, " to ");
    view_format_number(&v->owned, o->throughput_hi, decimals);
    v->text = buf_cstr(&v->owned);
}

/* The KB's dated note on export rules for the option's GPU (NULL: none); a rental says whom
 * they bind. */
static void get_restriction(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    const char *s = o->gpu->restriction;
    if (!s || !*s || o->acquisition != DECIDE_RENT) {
        v->text = s && *s ? s : NULL;
        return;
    }
    buf_printf(&v->owned, "%s Rented, the card stays with the provider: these rules bind its "
                          "exports, and its terms say who may rent it.", s);
    v->text = buf_cstr(&v->owned);
}

static void get_currency(const decision *d, const void *r, decide_field_value *v)
{
    (void)r;
    v->text = d->w->currency;
}

static void get_work_unit(const decision *d, const void *r, decide_field_value *v)
{
    (void)r;
    v->text = d->work_unit;
}

static void get_cites(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->list = view_list();
    for (size_t i = 0; i < o->n_cites; i++)
        view_list_push(v->list, view_number(o->cites[i]));
}

/* Mixed work: each workload's hours and share of the cost (an empty list for one workload). */
static void get_workloads(const decision *d, const void *r, decide_field_value *v)
{
    v->list = decide_mixed_option_view(d, OPTION_OF(r));
    if (!v->list)
        v->list = view_list();
}

static void get_has_verdicts(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->number = OPTION_OF(r)->n_verdicts > 0;
}

static void get_verdicts(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->list = view_list();
    for (size_t i = 0; i < o->n_verdicts; i++) {
        const decide_verdict *x = &o->verdicts[i];
        view *m = view_list_push(v->list, view_map());
        view_map_set_str(m, "rule", x->rule);
        view_map_set_str(m, "effect", x->effect);
        view_map_set_num(m, "weight", x->weight);
        view_map_set_str(m, "because", x->because);
        view_map_set_str(m, "checklist", x->checklist);
    }
}

static void get_rule_adjustment(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;   /* none for an option set aside: the rules did not judge it */
    v->number = OPTION_OF(r)->set_aside ? NAN : decide_rules_adjustment(OPTION_OF(r));
}

static void get_system(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const kb_system *sys = OPTION_OF(r)->system;
    v->text = sys ? sys->id : NULL;
}

static void get_system_name(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const kb_system *sys = OPTION_OF(r)->system;
    v->text = sys ? sys->name : NULL;
}

/* ---- the host a purchase's cards go into (decide_option_host) ---- */

/* Where an option's host figures come from: the KB's host table, the workload, both, the KB's
 * assumed figures, or a server bought whole. */
static const char *host_basis(const decision *d, const decide_option *o)
{
    int cost_stated = !isnan(d->w->host_cost) && !d->fact_cite[KB_ASSUMED_HOST_COST];
    int power_stated = !isnan(d->w->host_power_w) && !d->fact_cite[KB_ASSUMED_HOST_POWER];
    if (o->system)
        return "system";
    if (o->host)
        return cost_stated || power_stated ? "kb and workload" : "kb";
    return cost_stated && power_stated ? "workload" : "assumed";
}

static void get_host_basis(const decision *d, const void *r, decide_field_value *v)
{
    v->text = host_basis(d, OPTION_OF(r));
}

static void get_host_id(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->text = o->host ? o->host->id : o->system ? o->system->id : NULL;
}

static void get_host_name(const decision *d, const void *r, decide_field_value *v)
{
    const decide_option *o = OPTION_OF(r);
    const char *basis = host_basis(d, o);
    v->text = o->host     ? o->host->name
              : o->system ? o->system->name
              : !strcmp(basis, "workload") ? "the workload's host (host_cost, host_power_w)"
                                           : "a host at the KB's assumed figures";
}

static void get_host_kind(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->text = o->host ? o->host->kind : o->system ? "system" : NULL;
}

static void get_host_cost(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = o->system ? NAN : o->host_cost;   /* a server's is in its price */
}

static void get_host_power(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = o->system ? o->system->power_w : o->host_power_w;
}

static void get_host_source(const decision *d, const void *r, decide_field_value *v)
{
    const decide_option *o = OPTION_OF(r);
    v->text = o->host     ? o->host->source
              : o->system ? o->system->source
              : !strcmp(host_basis(d, o), "assumed") ? d->facts[KB_ASSUMED_HOST_COST].source
                                                     : NULL;
}

static void get_host_as_of(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->text = OPTION_OF(r)->host ? OPTION_OF(r)->host->as_of : NULL;
}

static void get_host_quality(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->text = OPTION_OF(r)->host ? OPTION_OF(r)->host->quality : NULL;
}

static void get_purchase(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->number = OPTION_OF(r)->acquisition != DECIDE_RENT;
}

/* Staff time a month; NaN (null: not counted) where the workload states none. */
static void get_staff(const decision *d, const void *r, decide_field_value *v)
{
    const workload *w = d->w;
    v->number = isnan(w->upkeep_hours_per_month) || isnan(w->upkeep_rate)
                    ? NAN
                    : OPTION_OF(r)->cost.staff_per_month;
}

/* Colocation a month; NaN (null: not checked) where the workload states no site power. */
static void get_colocation(const decision *d, const void *r, decide_field_value *v)
{
    v->number = isnan(d->w->site_power_kw) ? NAN : OPTION_OF(r)->cost.colocation_per_month;
}

/* Support, colocation and staff together, a month: the running costs besides electricity. */
static void get_other_running(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const cost_summary *c = &OPTION_OF(r)->cost;
    v->number = c->support_per_month + c->colocation_per_month + c->staff_per_month;
}

static void get_in_body(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = o->feasible && o->rank >= 1 && o->rank <= DECIDE_BODY_COST_ROWS;
}

/* Whether a range is worth a reader's words: its ends differ by more than rounding (a
 * thousandth of the figure), so "from CNY 2.32 to CNY 2.32" is never written. */
static int is_range(double lo, double hi)
{
    return isfinite(lo) && isfinite(hi) && hi - lo > 1e-3 * fmax(fabs(lo), fabs(hi));
}

static void get_price_is_range(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->number = is_range(OPTION_OF(r)->price_lo, OPTION_OF(r)->price_hi);
}

static void get_per_unit_is_range(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->number = is_range(OPTION_OF(r)->per_unit_lo, OPTION_OF(r)->per_unit_hi);
}

/* Serving: whether the low end of its capacity band is below the demand it serves, so that the
 * high end of its cost per unit is a missed target rather than a cost. */
static void get_capacity_short(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = o->capacity_lo < o->throughput;   /* NaN (not serving): false */
}

/* Observed longer ago than the workload allows (price_max_age_days). */
/* A slice's share of its card in words ("1/6"); NULL for whole cards. */
static void get_gpu_fraction_text(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    if (!(o->gpu_fraction < 1))
        return;
    units_fraction_words(&v->owned, o->gpu_fraction);
    v->text = buf_cstr(&v->owned);
}

void decision_slice_words(gw_buf *b, const decision *d, const decide_option *o)
{
    if (!(o->gpu_fraction < 1))
        return;
    if (o->count > 1)
        buf_printf(b, "%d slices, each ", o->count);
    units_fraction_words(b, o->gpu_fraction);
    buf_printf(b, " of one %s (%.1f GB", o->gpu->name, decide_option_memory_gb(o));
    buf_puts(b, o->count > 1 ? " each): " : "): ");
    decide_money(b, d, o->unit_price);
    buf_puts(b, o->hosts > 1 ? " an hour for its instances, " : " an hour, ");
    decide_money(b, d, decide_option_per_gpu_hour(o));
    buf_puts(b, " per whole GPU-hour");
}

static void get_slice_text(const decision *d, const void *r, decide_field_value *v)
{
    decision_slice_words(&v->owned, d, OPTION_OF(r));
    if (v->owned.len)
        v->text = buf_cstr(&v->owned);
}

static void get_per_gpu_hour(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    v->number = decide_option_per_gpu_hour(OPTION_OF(r));
}

static void get_price_old(const decision *d, const void *r, decide_field_value *v)
{
    v->number = OPTION_OF(r)->price_age_days > d->w->price_max_age_days;
}

static void get_rank(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    int rank = OPTION_OF(r)->rank;
    v->number = rank ? rank : NAN;   /* null: unranked (infeasible) */
}

#define OPT(member) offsetof(decide_option, member)
#define GET DECIDE_FIELD_NO_OFFSET
#define S DECIDE_FIELD_STRING
#define I DECIDE_FIELD_INTEGER
#define B DECIDE_FIELD_BOOLEAN
#define N DECIDE_FIELD_NUMBER
#define F DECIDE_FIELD_FIGURE
#define M DECIDE_FIELD_MONEY
#define MU DECIDE_FIELD_MONEY_PER_UNIT
#define L DECIDE_FIELD_LIST
#define HIDDEN DECIDE_RULE_HIDDEN
#define VALUE DECIDE_RULE_VALUE
#define TEXT DECIDE_RULE_TEXT
#define BY_UNIT DECIDE_FIELD_DECIMALS_BY_UNIT

/* Every field of an option's view, in the order --json prints them (and a rule's pairs() visits
 * them): group, name, kind, where the value is (an offset in decide_option, or a getter), the
 * figure's decimals and suffix, what a rule sees of it, flags, and a rental's text for a money
 * field that means nothing when renting.  plugins/README.md's "The rule contract" lists the
 * fields rules see (tests/unit/test_decide.c checks it against this table). */
const decide_field decide_option_fields[] = {
    {NULL, "id", S, OPT(id), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "label", S, GET, get_label, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "gpu", S, GET, get_gpu, 0, NULL, VALUE, 0, NULL},
    {NULL, "gpu_name", S, GET, get_gpu_name, 0, NULL, VALUE, 0, NULL},
    {NULL, "count", I, OPT(count), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "hosts", I, OPT(hosts), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "system", S, GET, get_system, 0, NULL, VALUE, 0, NULL},
    {NULL, "system_name", S, GET, get_system_name, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "network_gbps", N, OPT(network_gbps), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "purchase", B, GET, get_purchase, 0, NULL, HIDDEN, 0, NULL},
    {"host", "id", S, GET, get_host_id, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"host", "name", S, GET, get_host_name, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"host", "kind", S, GET, get_host_kind, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"host", "cost", M, GET, get_host_cost, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"host", "power_w", F, GET, get_host_power, 0, " W", HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"host", "cards", I, OPT(cards_per_machine), NULL, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY,
     NULL},
    {"host", "basis", S, GET, get_host_basis, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"host", "source", S, GET, get_host_source, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"host", "as_of", S, GET, get_host_as_of, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"host", "quality", S, GET, get_host_quality, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {NULL, "acquisition", S, GET, get_acquisition, 0, NULL, VALUE, 0, NULL},
    {NULL, "provider", S, OPT(provider), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "instance", S, OPT(instance), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "offer_quality", S, OPT(offer_quality), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "price_kind", S, OPT(price_kind), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "price_stale", B, OPT(price_stale), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "price_floor", B, OPT(price_floor), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "price_range_low", M, OPT(price_lo), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "price_range_high", M, OPT(price_hi), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "price_is_range", B, GET, get_price_is_range, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "rate_as_of", S, OPT(rate_as_of), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "held_back_because", S, OPT(held_back_because), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "offer_note", S, OPT(offer_note), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "gpu_fraction", N, OPT(gpu_fraction), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "gpu_fraction_text", S, GET, get_gpu_fraction_text, 0, NULL, VALUE, 0, NULL},
    {NULL, "slice_text", S, GET, get_slice_text, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "min_billing_hours", N, OPT(min_billing_hours), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "long_billing_after_hours", N, OPT(long_billing_after_hours), NULL, 0, NULL, HIDDEN,
     0, NULL},
    {NULL, "long_billing_hours", N, OPT(long_billing_hours), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "held_back", B, OPT(held_back), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "other_market", B, OPT(other_market), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "feasible", B, OPT(feasible), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "excluded_because", S, OPT(excluded_because), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "set_aside", B, OPT(set_aside), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "consumer", B, OPT(consumer), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "form_factor", S, GET, get_form_factor, 0, NULL, VALUE, 0, NULL},
    {NULL, "restriction", S, GET, get_restriction, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "vendor", S, GET, get_vendor, 0, NULL, VALUE, 0, NULL},
    {NULL, "architecture", S, GET, get_architecture, 0, NULL, VALUE, 0, NULL},
    {NULL, "tf32", B, GET, get_tf32, 0, NULL, VALUE, 0, NULL},
    {NULL, "memory_gb", F, GET, get_memory_gb, 0, " GB", VALUE, 0, NULL},
    {NULL, "usable_memory_gb", F, GET, get_usable_memory_gb, 1, " GB", VALUE, 0, NULL},
    {NULL, "usable_memory_estimated", B, GET, get_usable_memory_estimated, 0, NULL, VALUE, 0,
     NULL},
    {NULL, "vram_needed_gb", F, OPT(vram_needed_gb), NULL, 1, " GB", VALUE, 0, NULL},
    {NULL, "per_card_gb", F, OPT(per_card_gb), NULL, 1, " GB", VALUE, 0, NULL},
    {NULL, "fits", B, OPT(fits), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "split", B, OPT(split), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "tensor_parallel", N, GET, get_tp, 0, NULL, VALUE, 0, NULL},
    {NULL, "replicas", N, GET, get_replicas, 0, NULL, VALUE, 0, NULL},
    {NULL, "sequences_per_replica", N, GET, get_sequences, 0, NULL, VALUE, 0, NULL},
    {"layout", "replicas", N, GET, get_replicas, 0, NULL, HIDDEN, 0, NULL},
    {"layout", "tensor_parallel", N, GET, get_tp, 0, NULL, HIDDEN, 0, NULL},
    {"layout", "pipeline_stages", N, GET, get_pipeline_stages, 0, NULL, HIDDEN, 0, NULL},
    {"layout", "attention_data_parallel", B, OPT(attention_dp), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"layout", "text", S, GET, get_layout_text, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "runs_at", S, GET, get_run_precision, 0, NULL, VALUE, 0, NULL},
    {NULL, "precision_note", S, GET, get_precision_note, 0, NULL, VALUE, 0, NULL},
    {NULL, "kv_cache_gb", F, GET, get_kv_cache_gb, 2, " GB", VALUE, 0, NULL},
    {NULL, "tpot_ms", F, OPT(tpot_ms), NULL, 1, " ms", VALUE, 0, NULL},
    {NULL, "ttft_ms", F, OPT(ttft_ms), NULL, 0, " ms", VALUE, 0, NULL},
    {NULL, "decode_step_ms", F, OPT(step_ms), NULL, 1, " ms", VALUE, 0, NULL},
    {NULL, "decode_floor_ms", F, OPT(floor_ms), NULL, 1, " ms", VALUE, 0, NULL},
    {NULL, "bandwidth_bound", B, OPT(bandwidth_bound), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "capacity_tokens_per_s", F, OPT(capacity), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "capacity_low", F, OPT(capacity_lo), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "capacity_high", F, OPT(capacity_hi), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "capacity_short_of_demand", B, GET, get_capacity_short, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "memory_bandwidth_gbs", N, GET, get_bandwidth_gbs, 0, NULL, VALUE, 0, NULL},
    {NULL, "interconnect", S, GET, get_interconnect, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "nvlink", B, OPT(nvlink), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "link_gbs", N, GET, get_link_gbs, 0, NULL, VALUE, 0, NULL},
    {NULL, "comm_fraction", N, OPT(comm_fraction), NULL, 0, NULL, VALUE, 0, NULL},
    {"throughput", "value", F, OPT(throughput), NULL, BY_UNIT, NULL, VALUE, 0, NULL},
    {"throughput", "unit", S, GET, get_unit, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "basis", S, GET, get_basis, 0, NULL, VALUE, 0, NULL},
    {"throughput", "low", N, GET, get_throughput_low, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "high", N, GET, get_throughput_high, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "band_basis", S, OPT(throughput_band_basis), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "estimate", B, GET, get_estimate, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "spread_text", S, GET, get_spread, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "how", S, OPT(throughput_how), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "unknown_because", S, GET, get_throughput_unknown_because, 0, NULL, HIDDEN, 0,
     NULL},
    {NULL, "time_to_finish_hours", F, OPT(time_to_finish_hours), NULL, 1, " h", HIDDEN, 0, NULL},
    {NULL, "hours_needed", F, OPT(hours_needed), NULL, 0, " h", VALUE, 0, NULL},
    {NULL, "hours_available", F, OPT(hours_available), NULL, 0, " h", VALUE, 0, NULL},
    {NULL, "power_w", F, OPT(power_w), NULL, 0, " W", VALUE, 0, NULL},
    {"cost", "upfront", M, OPT(cost.upfront), NULL, 0, NULL, TEXT, 0, "none"},
    {"cost", "committed", M, OPT(committed), NULL, 0, NULL, TEXT, 0, NULL},
    {"cost", "electricity_per_month", M, OPT(cost.electricity_per_month), NULL, 0, NULL, VALUE, 0,
     "in the price"},
    {"cost", "total", M, OPT(cost.total), NULL, 0, NULL, TEXT, 0, NULL},
    {"cost", "per_hour", M, OPT(cost.per_hour), NULL, 2, NULL, VALUE, 0, NULL},
    {"cost", "per_unit", MU, OPT(per_unit), NULL, 0, NULL, VALUE, 0, NULL},
    {"cost", "per_unit_low", MU, OPT(per_unit_lo), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "per_unit_high", MU, OPT(per_unit_hi), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "per_unit_is_range", B, GET, get_per_unit_is_range, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "currency", S, GET, get_currency, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "per_unit_of", S, GET, get_work_unit, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "unit_price", M, OPT(unit_price), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "per_gpu_hour", M, GET, get_per_gpu_hour, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_low", M, OPT(price_lo), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_high", M, OPT(price_hi), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_as_of", S, OPT(price_as_of), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_age_days", N, OPT(price_age_days), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_old", B, GET, get_price_old, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "cards", M, OPT(buy.cards), NULL, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "host", M, OPT(buy.host), NULL, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "resale", M, OPT(buy.resale), NULL, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "cooling", M, OPT(buy.cooling), NULL, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "support_per_year", M, OPT(buy.support_per_year), NULL, 0, NULL, HIDDEN,
     DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "colocation_per_month", M, GET, get_colocation, 0, NULL, HIDDEN,
     DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "staff_per_month", M, GET, get_staff, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "other_per_month", M, GET, get_other_running, 0, NULL, HIDDEN,
     DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "total_undiscounted", M, OPT(cost.total_undiscounted), NULL, 0, NULL, HIDDEN, 0,
     NULL},
    {"cost", "electricity_share", N, OPT(electricity_share), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "cites", L, GET, get_cites, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "workloads", L, GET, get_workloads, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "has_verdicts", B, GET, get_has_verdicts, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "verdicts", L, GET, get_verdicts, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "rule_adjustment", F, GET, get_rule_adjustment, 2, NULL, HIDDEN, 0, NULL},
    {NULL, "score", MU, OPT(score), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "p_best", N, OPT(p_best), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "rank", I, GET, get_rank, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "in_body", B, GET, get_in_body, 0, NULL, HIDDEN, 0, NULL},
};
const size_t decide_option_field_count =
    sizeof decide_option_fields / sizeof decide_option_fields[0];

#undef OPT
#undef GET
#undef S
#undef I
#undef B
#undef N
#undef F
#undef M
#undef MU
#undef L
#undef HIDDEN
#undef VALUE
#undef TEXT
#undef BY_UNIT

/* The value of field f of record: through its getter, or at its offset. */
static void field_read(const decide_field *f, const decision *d, const void *record,
                       decide_field_value *v)
{
    memset(v, 0, sizeof *v);
    if (f->get) {
        f->get(d, record, v);
        return;
    }
    const char *at = (const char *)record + f->offset;
    switch (f->kind) {
    case DECIDE_FIELD_STRING:
        v->text = *(char *const *)(const void *)at;
        break;
    case DECIDE_FIELD_INTEGER:
    case DECIDE_FIELD_BOOLEAN:
        v->number = *(const int *)(const void *)at;
        break;
    case DECIDE_FIELD_LIST:
        break;
    default:
        v->number = *(const double *)(const void *)at;
        break;
    }
}

/* A field's keys as the key pool holds them (view_key): its name and its "_text" pair; NULL
 * where one is not pooled, which is then appended by its text. */
typedef struct field_key {
    const char *name, *text;
} field_key;

/* decide_option_fields' keys, looked up in the pool once: an option's view appends some 150 of
 * them, and hashing each again for every option was a fifth of what building its view cost
 * (2.9 of the 12.7 M instructions of `report examples/llm-fleet.lua`'s 165 option views). */
static field_key option_keys[sizeof decide_option_fields / sizeof decide_option_fields[0]];
static int option_keys_made;

/* The pooled keys of a table of fields, NULL for a table written too seldom to keep them. */
static const field_key *keys_of(const decide_field *fields)
{
    if (fields != decide_option_fields)
        return NULL;
    for (size_t i = 0; !option_keys_made && i < decide_option_field_count; i++) {
        const decide_field *f = &decide_option_fields[i];
        option_keys[i].name = view_key(f->name);
        if (f->kind == DECIDE_FIELD_FIGURE || f->kind == DECIDE_FIELD_MONEY ||
            f->kind == DECIDE_FIELD_MONEY_PER_UNIT) {
            char text_key[64];
            text_key_of(text_key, f->name);
            option_keys[i].text = view_key(text_key);
        }
    }
    option_keys_made = 1;
    return option_keys;
}

/* Appends value to m under field f's name, or (text) its "_text" pair; k: f's pooled keys. */
static void add_field(view *m, const decide_field *f, const field_key *k, int text, view *value)
{
    const char *pooled = k ? (text ? k->text : k->name) : NULL;
    char text_key[64];
    if (pooled) {
        view_map_add_key(m, pooled, value);
    } else if (!text) {
        view_map_add(m, f->name, value);
    } else {
        text_key_of(text_key, f->name);
        view_map_add(m, text_key, value);
    }
}

/* Appends one number field as --json has it: the number and, for figures and money, its
 * text. */
static void field_write_json(view *m, const decide_field *f, const field_key *k,
                             const decision *d, double n, int is_rent)
{
    add_field(m, f, k, 0, number_or_null(n));
    switch (f->kind) {
    case DECIDE_FIELD_FIGURE:
        add_field(m, f, k, 1,
                  figure_text(n, f->decimals == DECIDE_FIELD_DECIMALS_BY_UNIT
                                     ? (d->n_bench || workload_is_llm(d->w) ? 0 : 2)
                                     : f->decimals,
                              f->suffix));
        break;
    case DECIDE_FIELD_MONEY:
        /* renting pays nothing up front, say so: not "0.00"; decimals > 0: fixed, so that a
         * column of prices reads alike ($101.00) */
        add_field(m, f, k, 1,
                  is_rent && f->rent_text
                      ? view_string(f->rent_text)
                      : money_text(d, n, f->decimals > 0 ? f->decimals : -1));
        break;
    case DECIDE_FIELD_MONEY_PER_UNIT:
        if (isnan(n)) {
            add_field(m, f, k, 1, view_null());
        } else {
            gw_buf b = GW_BUF_INIT;
            decide_money_per_unit(&b, d, n);
            add_field(m, f, k, 1, view_string(buf_cstr(&b)));
            buf_free(&b);
        }
        break;
    default:
        break;
    }
}

void decide_fields_write(view *map, const decide_field *fields, size_t n, const decision *d,
                         const void *record, int is_rent, decide_audience who)
{
    const field_key *keys = keys_of(fields);
    const char *group = NULL;   /* the group of the fields before, whose map is group_map */
    view *group_map = map;
    for (size_t i = 0; i < n; i++) {
        const decide_field *f = &fields[i];
        const field_key *k = keys ? &keys[i] : NULL;
        if ((who == DECIDE_VIEW_RULE && f->rule == DECIDE_RULE_HIDDEN) ||
            (is_rent && (f->flags & DECIDE_FIELD_BUY_ONLY)))
            continue;
        decide_field_value v;
        field_read(f, d, record, &v);
        if ((f->flags & DECIDE_FIELD_OMIT_NAN) && isnan(v.number))
            continue;
        if (f->group != group) {   /* a group's fields are mostly one run: its map once a run */
            view *g = f->group ? view_map_get(map, f->group) : map;
            group_map = g ? g : view_map_add(map, f->group, view_map());
            group = f->group;
        }
        view *m = group_map;
        if (f->kind == DECIDE_FIELD_STRING)
            add_field(m, f, k, 0, view_string(v.text));
        else if (f->kind == DECIDE_FIELD_BOOLEAN)
            add_field(m, f, k, 0, view_bool(v.number != 0));
        else if (f->kind == DECIDE_FIELD_LIST)
            add_field(m, f, k, 0, v.list);
        else if (who == DECIDE_VIEW_RULE && f->rule == DECIDE_RULE_VALUE)
            add_field(m, f, k, 0, number_or_null(v.number));
        else   /* with its text; a rule gets no rental wording */
            field_write_json(m, f, k, d, v.number, is_rent && who == DECIDE_VIEW_JSON);
        buf_free(&v.owned);
    }
}

view *decide_option_view(const decision *d, const decide_option *o, decide_audience who)
{
    view *v = view_map();
    decide_fields_write(v, decide_option_fields, decide_option_field_count, d, o,
                        o->acquisition == DECIDE_RENT, who);
    return v;
}
