/* decide_view.c — the view model of a decision: one tree that `decide --json` prints and the
 * justification template reads (see templates/README.md for its conventions).  The option's
 * fields are described once here (decide_option_fields): its --json view and what a rule sees
 * of it both derive from that table, as does the rule contract in plugins/README.md.  Also the
 * recommendation's reasons, the method and assumptions, the charts and the citations. */
#include "decide_private.h"
#include "base/check.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The cost-per-unit chart shows the best this many feasible options. */
#define CHART_BARS_MAX 12
/* The recommendation gives at most this many reasons. */
#define REASONS_MAX 3

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

void decide_set_money(view *m, const decision *d, const char *key, double amount)
{
    view_map_set_num(m, key, amount);
    char text_key[64];
    text_key_of(text_key, key);
    if (isnan(amount) || isinf(amount)) {
        view_map_set(m, text_key, view_null());
        return;
    }
    gw_buf b = GW_BUF_INIT;
    decide_money(&b, d, amount);
    view_map_set_str(m, text_key, buf_cstr(&b));
    buf_free(&b);
}

void decide_set_figure(view *m, const char *key, double n, int decimals, const char *suffix)
{
    view_map_set_num(m, key, n);
    char text_key[64];
    text_key_of(text_key, key);
    if (isnan(n) || isinf(n)) {
        view_map_set(m, text_key, view_null());
        return;
    }
    gw_buf b = GW_BUF_INIT;
    view_format_number(&b, n, decimals);
    if (suffix)
        buf_puts(&b, suffix);
    view_map_set_str(m, text_key, buf_cstr(&b));
    buf_free(&b);
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
    v->number = decide_option_memory_gb(OPTION_OF(r));   /* a MIG slice: its share */
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
LLM_NUMBER_GETTER(get_sequences, o->sequences > 0 ? o->sequences : NAN)
LLM_NUMBER_GETTER(get_kv_cache_gb, o->memory.kv_cache_gb)
LLM_NUMBER_GETTER(get_bandwidth_gbs, o->gpu->memory_bandwidth_gbs)
#undef LLM_NUMBER_GETTER

static void get_run_precision(const decision *d, const void *r, decide_field_value *v)
{
    v->text = workload_is_llm(d->w) ? OPTION_OF(r)->run_precision : NULL;
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
    v->text = isnan(o->throughput) ? NULL
              : o->measured          ? "measured"
              : workload_is_llm(d->w) ? "modelled"
                                      : "scaled";
}

/* A scaled estimate, not a measurement of this GPU and count (the report marks it). */
static void get_estimate(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = !isnan(o->throughput) && !o->measured;
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
    (void)d;
    v->number = decide_rules_adjustment(OPTION_OF(r));
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

/* The report's body lists this many of the best-ranked feasible options; the appendix all. */
#define BODY_COST_ROWS 12

static void get_in_body(const decision *d, const void *r, decide_field_value *v)
{
    (void)d;
    const decide_option *o = OPTION_OF(r);
    v->number = o->feasible && o->rank >= 1 && o->rank <= BODY_COST_ROWS;
}

/* Where the workload says where it buys (region), the export rules of every GPU the decision
 * prices to buy that the KB notes one for (over the budget or not), once each, in rank order: a
 * buyer in a restricted country must see them beside the options, not only under the
 * recommendation (a rented card stays with its provider).  Empty without a region. */
static view *export_rules_view(const decision *d)
{
    view *list = view_list();
    if (!d->w->region)
        return list;
    for (size_t r = 0; r < d->n_options; r++) {
        const decide_option *o = d->ranked[r];
        if (o->acquisition == DECIDE_RENT || !o->gpu->restriction || !*o->gpu->restriction)
            continue;
        int seen = 0;
        for (size_t k = 0; k < view_len(list) && !seen; k++)
            seen = !strcmp(view_str(view_map_get(view_list_at(list, k), "gpu")), o->gpu->id);
        if (seen)
            continue;
        view *e = view_list_push(list, view_map());
        view_map_set_str(e, "gpu", o->gpu->id);
        view_map_set_str(e, "name", o->gpu->name);
        view_map_set_str(e, "text", o->gpu->restriction);
    }
    return list;
}

/* Observed longer ago than the workload allows (price_max_age_days). */
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
    {NULL, "acquisition", S, GET, get_acquisition, 0, NULL, VALUE, 0, NULL},
    {NULL, "provider", S, OPT(provider), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "instance", S, OPT(instance), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "offer_quality", S, OPT(offer_quality), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "offer_note", S, OPT(offer_note), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "gpu_fraction", N, OPT(gpu_fraction), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "min_billing_hours", N, OPT(min_billing_hours), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "held_back", B, OPT(held_back), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "other_market", B, OPT(other_market), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "feasible", B, OPT(feasible), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "excluded_because", S, OPT(excluded_because), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "consumer", B, OPT(consumer), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "form_factor", S, GET, get_form_factor, 0, NULL, VALUE, 0, NULL},
    {NULL, "restriction", S, GET, get_restriction, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "vendor", S, GET, get_vendor, 0, NULL, VALUE, 0, NULL},
    {NULL, "architecture", S, GET, get_architecture, 0, NULL, VALUE, 0, NULL},
    {NULL, "tf32", B, GET, get_tf32, 0, NULL, VALUE, 0, NULL},
    {NULL, "memory_gb", F, GET, get_memory_gb, 0, " GB", VALUE, 0, NULL},
    {NULL, "vram_needed_gb", F, OPT(vram_needed_gb), NULL, 1, " GB", VALUE, 0, NULL},
    {NULL, "per_card_gb", F, OPT(per_card_gb), NULL, 1, " GB", VALUE, 0, NULL},
    {NULL, "fits", B, OPT(fits), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "split", B, OPT(split), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "tensor_parallel", N, GET, get_tp, 0, NULL, VALUE, 0, NULL},
    {NULL, "replicas", N, GET, get_replicas, 0, NULL, VALUE, 0, NULL},
    {NULL, "sequences_per_replica", N, GET, get_sequences, 0, NULL, VALUE, 0, NULL},
    {NULL, "runs_at", S, GET, get_run_precision, 0, NULL, VALUE, 0, NULL},
    {NULL, "kv_cache_gb", F, GET, get_kv_cache_gb, 2, " GB", VALUE, 0, NULL},
    {NULL, "tpot_ms", F, OPT(tpot_ms), NULL, 1, " ms", VALUE, 0, NULL},
    {NULL, "ttft_ms", F, OPT(ttft_ms), NULL, 0, " ms", VALUE, 0, NULL},
    {NULL, "decode_step_ms", F, OPT(step_ms), NULL, 1, " ms", VALUE, 0, NULL},
    {NULL, "bandwidth_bound", B, OPT(bandwidth_bound), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "capacity_tokens_per_s", F, OPT(capacity), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "memory_bandwidth_gbs", N, GET, get_bandwidth_gbs, 0, NULL, VALUE, 0, NULL},
    {NULL, "interconnect", S, GET, get_interconnect, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "nvlink", B, OPT(nvlink), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "link_gbs", N, GET, get_link_gbs, 0, NULL, VALUE, 0, NULL},
    {NULL, "comm_fraction", N, OPT(comm_fraction), NULL, 0, NULL, VALUE, 0, NULL},
    {"throughput", "value", F, OPT(throughput), NULL, BY_UNIT, NULL, VALUE, 0, NULL},
    {"throughput", "unit", S, GET, get_unit, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "basis", S, GET, get_basis, 0, NULL, VALUE, 0, NULL},
    {"throughput", "low", N, OPT(throughput_lo), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "high", N, OPT(throughput_hi), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "estimate", B, GET, get_estimate, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "spread_text", S, GET, get_spread, 0, NULL, HIDDEN, 0, NULL},
    {"throughput", "how", S, OPT(throughput_how), NULL, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "time_to_finish_hours", F, OPT(time_to_finish_hours), NULL, 1, " h", HIDDEN, 0, NULL},
    {NULL, "hours_needed", F, OPT(hours_needed), NULL, 0, " h", VALUE, 0, NULL},
    {NULL, "hours_available", F, OPT(hours_available), NULL, 0, " h", VALUE, 0, NULL},
    {NULL, "power_w", F, OPT(power_w), NULL, 0, " W", VALUE, 0, NULL},
    {"cost", "upfront", M, OPT(cost.upfront), NULL, 0, NULL, TEXT, 0, "none"},
    {"cost", "committed", M, OPT(committed), NULL, 0, NULL, TEXT, 0, NULL},
    {"cost", "electricity_per_month", M, OPT(cost.electricity_per_month), NULL, 0, NULL, VALUE, 0,
     "in the price"},
    {"cost", "total", M, OPT(cost.total), NULL, 0, NULL, TEXT, 0, NULL},
    {"cost", "per_hour", M, OPT(cost.per_hour), NULL, 0, NULL, VALUE, 0, NULL},
    {"cost", "per_unit", MU, OPT(per_unit), NULL, 0, NULL, VALUE, 0, NULL},
    {"cost", "currency", S, GET, get_currency, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "per_unit_of", S, GET, get_work_unit, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "unit_price", M, OPT(unit_price), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_low", M, OPT(price_lo), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_high", M, OPT(price_hi), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_as_of", S, OPT(price_as_of), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_age_days", N, OPT(price_age_days), NULL, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "price_old", B, GET, get_price_old, 0, NULL, HIDDEN, 0, NULL},
    {"cost", "cards", M, OPT(buy.cards), NULL, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "host", M, OPT(buy.host), NULL, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "resale", M, OPT(buy.resale), NULL, 0, NULL, HIDDEN, DECIDE_FIELD_BUY_ONLY, NULL},
    {"cost", "electricity_share", N, OPT(electricity_share), NULL, 0, NULL, VALUE, 0, NULL},
    {NULL, "cites", L, GET, get_cites, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "has_verdicts", B, GET, get_has_verdicts, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "verdicts", L, GET, get_verdicts, 0, NULL, HIDDEN, 0, NULL},
    {NULL, "rule_adjustment", F, GET, get_rule_adjustment, 2, NULL, HIDDEN, 0, NULL},
    {NULL, "score", MU, OPT(score), NULL, 0, NULL, HIDDEN, 0, NULL},
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

/* Writes one number field as --json has it: the number and, for figures and money, its text. */
static void field_write_json(view *m, const decide_field *f, const decision *d, double n,
                             int is_rent)
{
    char text_key[64];
    switch (f->kind) {
    case DECIDE_FIELD_FIGURE:
        decide_set_figure(m, f->name, n, f->decimals == DECIDE_FIELD_DECIMALS_BY_UNIT
                                             ? (d->n_bench || workload_is_llm(d->w) ? 0 : 2)
                                             : f->decimals,
                          f->suffix);
        break;
    case DECIDE_FIELD_MONEY:
        if (is_rent && f->rent_text) {   /* renting pays nothing up front, say so: not "0.00" */
            view_map_set_num(m, f->name, n);
            text_key_of(text_key, f->name);
            view_map_set_str(m, text_key, f->rent_text);
        } else {
            decide_set_money(m, d, f->name, n);
        }
        break;
    case DECIDE_FIELD_MONEY_PER_UNIT:
        view_map_set_num(m, f->name, n);
        text_key_of(text_key, f->name);
        if (isnan(n)) {
            view_map_set(m, text_key, view_null());
        } else {
            gw_buf b = GW_BUF_INIT;
            decide_money_per_unit(&b, d, n);
            view_map_set_str(m, text_key, buf_cstr(&b));
            buf_free(&b);
        }
        break;
    default:
        view_map_set_num(m, f->name, n);
        break;
    }
}

/* The map field f goes into: map itself, or its group's map (made on first use). */
static view *field_map(view *map, const decide_field *f)
{
    if (!f->group)
        return map;
    view *m = view_map_get(map, f->group);
    return m ? m : view_map_set(map, f->group, view_map());
}

void decide_fields_write(view *map, const decide_field *fields, size_t n, const decision *d,
                         const void *record, int is_rent, decide_audience who)
{
    for (size_t i = 0; i < n; i++) {
        const decide_field *f = &fields[i];
        if ((who == DECIDE_VIEW_RULE && f->rule == DECIDE_RULE_HIDDEN) ||
            (is_rent && (f->flags & DECIDE_FIELD_BUY_ONLY)))
            continue;
        decide_field_value v;
        field_read(f, d, record, &v);
        if ((f->flags & DECIDE_FIELD_OMIT_NAN) && isnan(v.number))
            continue;
        view *m = field_map(map, f);
        if (f->kind == DECIDE_FIELD_STRING)
            view_map_set_str(m, f->name, v.text);
        else if (f->kind == DECIDE_FIELD_BOOLEAN)
            view_map_set_bool(m, f->name, v.number != 0);
        else if (f->kind == DECIDE_FIELD_LIST)
            view_map_set(m, f->name, v.list);
        else if (who == DECIDE_VIEW_RULE && f->rule == DECIDE_RULE_VALUE)
            view_map_set_num(m, f->name, v.number);
        else   /* with its text; a rule gets no rental wording */
            field_write_json(m, f, d, v.number, is_rent && who == DECIDE_VIEW_JSON);
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

/* ---- the recommendation's reasons ---- */

/* A rule's clause as a sentence of its own: capital first letter, final full stop. */
static view *sentence(const char *clause)
{
    gw_buf b = GW_BUF_INIT;
    buf_puts(&b, clause);
    if (b.len && b.data[0] >= 'a' && b.data[0] <= 'z')
        b.data[0] = (char)(b.data[0] - 'a' + 'A');
    if (b.len && b.data[b.len - 1] != '.')
        buf_putc(&b, '.');
    view *v = view_string(buf_cstr(&b));
    buf_free(&b);
    return v;
}

/* Its cost per unit of work against the runner-up's. */
static void reason_cost(decision *d, const decide_option *win)
{
    /* Among the options that may be recommended: an anecdotal price the workload does not
     * accept is ranked after them whatever it costs, and is no rival. */
    const decide_option *second = NULL;
    size_t feasible = 0, held = 0;
    for (size_t i = 0; i < d->n_options; i++)
        if (d->ranked[i]->feasible && d->ranked[i]->held_back) {
            held++;
        } else if (d->ranked[i]->feasible) {
            feasible++;
            if (d->ranked[i] != win && !second)
                second = d->ranked[i];
        }
    gw_buf b = GW_BUF_INIT, of = GW_BUF_INIT;
    buf_printf(&of, "of the %zu feasible options%s", feasible,
               held ? " that may be recommended" : "");
    if (!second || win->per_unit <= second->per_unit) {
        buf_puts(&b, "Lowest cost per ");
        buf_puts(&b, d->work_unit);
        buf_printf(&b, " %s: ", buf_cstr(&of));
        decide_money_per_unit(&b, d, win->per_unit);
    } else {
        /* The rules reordered the two: say so rather than call the dearer one the cheapest. */
        buf_printf(&b, "Ranked first %s on cost per %s x the rules' adjustment: ",
                   buf_cstr(&of), d->work_unit);
        decide_money_per_unit(&b, d, win->per_unit);
        buf_printf(&b, " x %.2f = ", decide_rules_adjustment(win));
        decide_money_per_unit(&b, d, win->score);
        buf_puts(&b, ", against ");
        decide_money_per_unit(&b, d, second->per_unit);
        buf_printf(&b, " x %.2f = ", decide_rules_adjustment(second));
        decide_money_per_unit(&b, d, second->score);
        buf_puts(&b, " for ");
        decide_option_label(&b, second, 0);
        buf_puts(&b, ", which costs less per unit before the rules");
        second = NULL;
    }
    if (second) {
        buf_puts(&b, ", against ");
        decide_money_per_unit(&b, d, second->per_unit);
        buf_puts(&b, " for ");
        decide_option_label(&b, second, 0);
    }
    buf_puts(&b, ".");
    view_list_push(d->because, view_string(buf_cstr(&b)));
    buf_free(&b);
    buf_free(&of);
}

/* The two strongest preferences the rules gave it. */
static void reason_preferences(decision *d, const decide_option *win)
{
    const decide_verdict *top[2] = {NULL, NULL};
    for (size_t i = 0; i < win->n_verdicts; i++) {
        const decide_verdict *v = &win->verdicts[i];
        if (strcmp(v->effect, "prefer"))
            continue;
        if (!top[0] || v->weight > top[0]->weight)
            top[1] = top[0], top[0] = v;
        else if (!top[1] || v->weight > top[1]->weight)
            top[1] = v;
    }
    for (int i = 0; i < 2; i++)
        if (top[i])
            view_list_push(d->because, sentence(top[i]->because));
}

/* Buying against renting, from the break-even analysis. */
static void reason_break_even(decision *d, const decide_option *win)
{
    const view *be = d->break_even;
    double hours = view_num(view_map_get(be, "hours_per_day"));   /* NaN: never */
    double plan = d->w->hours_per_day;
    /* "6.8 h/day on cost alone": the same without the rules' adjustments, where it differs */
    gw_buf alone = GW_BUF_INIT;
    const char *cost_only = NULL;
    if (view_map_get(be, "hours_per_day_cost_only")) {
        buf_printf(&alone, "%s on cost alone",
                   view_str(view_map_get(be, "hours_per_day_cost_only_text")));
        cost_only = buf_cstr(&alone);
    }
    /* "new 4x ..., priced as of 2022-12": the purchase's price, where it is old */
    gw_buf buy = GW_BUF_INIT;
    buf_puts(&buy, view_str(view_map_get(be, "buy_label")));
    if (view_str(view_map_get(be, "buy_price_old_as_of")))
        buf_printf(&buy, ", priced as of %s", view_str(view_map_get(be, "buy_price_old_as_of")));
    gw_buf b = GW_BUF_INIT;
    if (win->acquisition != DECIDE_RENT && !isnan(hours) && workload_is_job(d->w))
        buf_printf(&b, "Owning pays off against %s from %.1f h of use a day over the "
                       "%g-month horizon; this job alone uses it %s (%s averaged over the "
                       "horizon).",
                   view_str(view_map_get(be, "rent_label")), hours, d->w->horizon_months,
                   view_str(view_map_get(be, "job_hours_text")),
                   view_str(view_map_get(be, "job_hours_per_day_text")));
    else if (win->acquisition != DECIDE_RENT && !isnan(hours))
        buf_printf(&b, "Buying ranks above renting (%s) from %.1f h of use a day (cost per "
                       "unit with the rules' adjustments%s%s); the plan is %g h.",
                   view_str(view_map_get(be, "rent_label")), hours, cost_only ? "; " : "",
                   cost_only ? cost_only : "", plan);
    else if (win->acquisition != DECIDE_RENT)
        buf_printf(&b, "Renting never costs less per unit of work than owning here.");
    else if (!isnan(hours) && workload_is_job(d->w))
        buf_printf(&b, "Buying (%s) would rank above renting only if kept busy %.1f h a day%s%s%s "
                       "for the whole %g-month horizon; this job uses it %s (%s averaged over "
                       "the horizon).",
                   buf_cstr(&buy), hours, cost_only ? " (" : "",
                   cost_only ? cost_only : "", cost_only ? ")" : "", d->w->horizon_months,
                   view_str(view_map_get(be, "job_hours_text")),
                   view_str(view_map_get(be, "job_hours_per_day_text")));
    else if (!isnan(hours))
        buf_printf(&b, "Buying (%s) would need %.1f h of use a day to rank above renting%s%s%s; "
                       "the plan is %g h.",
                   buf_cstr(&buy), hours, cost_only ? " (" : "",
                   cost_only ? cost_only : "", cost_only ? ")" : "", plan);
    else
        buf_printf(&b, workload_is_job(d->w)
                           ? "Buying (%s) never pays off, even kept busy 24 h a day for the "
                             "whole horizon: this job alone uses it far less."
                           : "Buying (%s) never pays off, even at 24 h of use a day.",
                   buf_cstr(&buy));
    view_list_push(d->because, view_string(buf_cstr(&b)));
    buf_free(&b);
    buf_free(&buy);
    buf_free(&alone);
}

void decide_reasons(decision *d)
{
    const decide_option *win = decision_best(d);
    d->because = view_list();
    if (!win)
        return;
    reason_cost(d, win);
    reason_preferences(d, win);
    if (view_len(d->because) < REASONS_MAX && view_str(view_map_get(d->break_even, "buy_option")))
        reason_break_even(d, win);
    if (view_len(d->because) < REASONS_MAX && !isnan(win->hours_needed)) {
        gw_buf b = GW_BUF_INIT;
        buf_puts(&b, "Finishes the work");
        if (d->w->work_runs != 1)
            buf_printf(&b, " (%g runs)", d->w->work_runs);
        buf_printf(&b, " in %.1f hours of running (%.1f days at %g h a day; ", win->hours_needed,
                   win->hours_needed / d->w->hours_per_day, d->w->hours_per_day);
        view_format_number(&b, win->hours_available, 0);
        buf_puts(&b, " h are available).");
        view_list_push(d->because, view_string(buf_cstr(&b)));
        buf_free(&b);
    }
}

/* ---- how old the prices are ---- */

/* The prices and rates the decision used that are older than their limits, for the report's
 * warning: the recommendation's, how many of the feasible options' (the oldest named), the
 * exchange rates', and how to refresh them. */
static view *price_age_view(const decision *d)
{
    const workload *w = d->w;
    view *v = view_map();
    long today = gw_today_days();
    view_map_set_num(v, "max_age_days", w->price_max_age_days);
    view_map_set_int(v, "rate_max_age_days", DECIDE_RATE_MAX_AGE_DAYS);
    const decide_option *best = decision_best(d), *oldest = NULL;
    size_t old = 0, feasible = 0;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        if (!o->feasible)
            continue;
        feasible++;
        if (o->price_age_days > w->price_max_age_days) {
            old++;
            if (!oldest || o->price_age_days > oldest->price_age_days)
                oldest = o;
        }
    }
    view_map_set_int(v, "old_count", (long long)old);
    view_map_set_int(v, "feasible_count", (long long)feasible);
    gw_buf b = GW_BUF_INIT;
    if (oldest) {
        decide_option_label(&b, oldest, 1);
        view_map_set_str(v, "oldest_label", buf_cstr(&b));
        view_map_set_str(v, "oldest_as_of", oldest->price_as_of);
    }
    int best_old = best && best->price_age_days > w->price_max_age_days;
    view_map_set_bool(v, "recommendation_old", best_old);
    if (best_old) {
        view_map_set_str(v, "recommendation_as_of", best->price_as_of);
        view_map_set_int(v, "recommendation_age_days", (long long)best->price_age_days);
    }
    view *rates = view_map_set(v, "old_rates", view_list());
    for (size_t i = 0; i < d->n_rates; i++) {
        long then = gw_date_days(d->rates[i].as_of);
        if (then < 0 || today - then <= DECIDE_RATE_MAX_AGE_DAYS)
            continue;
        view *r = view_list_push(rates, view_map());
        view_map_set_str(r, "currency", d->rates[i].currency);
        view_map_set_str(r, "as_of", d->rates[i].as_of);
        view_map_set_int(r, "age_days", today - then);
    }
    view_map_set_bool(v, "any", old > 0 || best_old || view_len(rates) > 0);
    buf_free(&b);
    return v;
}

/* ---- memory, method and assumptions ---- */

static view *memory_view(const decision *d)
{
    const model_memory *m = &d->memory;
    view *v = view_map();
    decide_set_figure(v, "total_gb", m->total_gb, 1, " GB");
    view_map_set_bool(v, "measured", m->measured);
    if (!m->measured) {
        view_map_set_num(v, "bytes_per_param", m->bytes_per_param);
        decide_set_figure(v, "weights_gb", m->weights_gb, 2, " GB");
        decide_set_figure(v, "gradients_gb", m->gradients_gb, 2, " GB");
        decide_set_figure(v, "optimizer_gb", m->optimizer_gb, 2, " GB");
        decide_set_figure(v, "activations_gb", m->activations_gb, 2, " GB");
        decide_set_figure(v, "overhead_gb", m->overhead_gb, 2, " GB");
    }
    return v;
}

/* How each figure is computed, with the model's constants written in. */
static view *method_view(const decision *d)
{
    view *v = view_map();
    gw_buf line = GW_BUF_INIT;
    buf_printf(&line,
               "memory per replica = (params x bytes per parameter + activations) x %.2f + %.1f "
               "GB (CUDA context and allocator fragmentation); bytes per parameter: weights + "
               "gradients + optimizer states (AMP with Adam: 2 + 2 + 4 fp32 master + 8 = 16); a "
               "measured peak (vram_gb) gets the same margins",
               1 + MODEL_FRAGMENTATION, MODEL_CONTEXT_GB);
    view_map_set_str(v, "memory", buf_cstr(&line));
    view_map_set_str(v, "evidence",
                     "measured results: of a GPU at a card count, those of the most trusted kind "
                     "of source present are used (your own measurements, then benchmarks, then "
                     "datasheets and plugins, then articles), their median with their range when "
                     "there are several; the others are set aside and the option says so");
    buf_reset(&line);
    buf_puts(&line, "throughput without a measurement = the measured GPU most like it (same "
                    "vendor only; same architecture, form factor and class first, then nearest "
                    "in specifications) x sqrt(tensor TFLOPS ratio x memory bandwidth ratio), "
                    "labelled scaled");
    model_calibration spec;
    if (d->n_bench && d->spec_loo.rows)
        buf_printf(&line, "; tested on the %d GPUs the KB measures on this benchmark, each "
                          "scaled as if it had no result of its own, it is off by %.0f%% on "
                          "average and %.0f%% at most: a scaled figure is an estimate of that "
                          "accuracy", d->spec_loo.rows, d->spec_loo.mean_error_pp,
                   d->spec_loo.max_error_pp);
    else if (decide_spec_calibration(d, &spec, NULL) == GW_OK && spec.rows)
        buf_printf(&line, "; no benchmark measures this workload, so every speed is such an "
                          "estimate: over the KB's %d pairs of one vendor's GPUs measured on one "
                          "card with one of the reference benchmarks (ResNet-50, BERT-base on "
                          "SQuAD), the ratio it predicts is off by %.0f%% on average and %.0f%% "
                          "at most",
                   spec.rows, spec.mean_error_pp, spec.max_error_pp);
    view_map_set_str(v, "scaling", buf_cstr(&line));
    buf_reset(&line);
    buf_printf(&line,
               "n cards, data parallel: efficiency = compute / (compute x %.2f + all-reduce), "
               "compute = batch (%g per GPU) / one card's throughput, all-reduce = 2(n-1)/n x "
               "gradient bytes / link bandwidth each way (gradient bytes: parameters x 4 for fp32 "
               "and AMP, x 2 for fp16 or bf16, none when nothing is trained; NVLink on SXM boards, "
               "half the KB's two-way figure; PCIe %.0f GB/s for 3.0 x16, doubling per generation, "
               "x lanes/16; x %.1f without peer-to-peer, GeForce RTX 40 and 50, through host "
               "memory: an assumption from one reported measurement of two RTX 5090s: gpuwise "
               "kb search p2p finds it); parallelism = \"none\": one card works, efficiency 1/n",
               1 + MODEL_SYNC_OVERHEAD, decide_batch_per_gpu(d->w), MODEL_PCIE3_X16_GBS,
               MODEL_NO_P2P_FACTOR);
    view_map_set_str(v, "multi_gpu", buf_cstr(&line));
    view_map_set_str(v, "machines",
                     "several machines (up to 4, data parallelism only, and only with a measured "
                     "benchmark): all-reduce = 2(k-1)/k x gradient bytes / the link within a "
                     "machine + 2(N-1)/N x gradient bytes / the network between machines, k "
                     "cards a machine and N machines; the network is a server's own ports, a "
                     "rental's stated network (instances are only doubled where fewer cannot "
                     "finish a job in time), else the workload's network_gbps; where one "
                     "machine's count is measured, that figure x N x (efficiency across machines "
                     "/ efficiency within one)");
    model_calibration cal;
    if (decide_scaling_calibration(d, &cal, NULL) == GW_OK && cal.rows) {
        buf_reset(&line);
        buf_printf(&line, "calibration: against the KB's %d measured multi-GPU results that have "
                   "a single-card result of the same GPU, the data-parallel efficiency is off by "
                   "%.1f percentage points on average and %.1f at most",
                   cal.rows, cal.mean_error_pp, cal.max_error_pp);
        view_map_set_str(v, "calibration", buf_cstr(&line));
    }
    buf_reset(&line);
    buf_printf(&line,
               "model parallelism (a model too big for one card, split over n): memory per card "
               "= (replica - context) / n + context; throughput = n x one card x %.2f over "
               "NVLink or %.2f over PCIe (assumed, an estimate)",
               MODEL_PARALLEL_EFFICIENCY_NVLINK, MODEL_PARALLEL_EFFICIENCY_PCIE);
    view_map_set_str(v, "model_parallel", buf_cstr(&line));
    view_map_set_str(v, "buy",
                     "total = cards + hosts + cooling + (electricity + upkeep) x months - resale; "
                     "electricity = watts x hours a day x 30 days / 1000 x price x PUE, over the "
                     "horizon; for a job, over the hours its runs take instead (runs x hours per "
                     "run); SXM and OAM modules are bought only as whole servers (the KB's "
                     "systems): the price includes the host and the watts are the server's "
                     "stated maximum; consumer cards 4 a machine, data-centre PCIe cards 8");
    buf_reset(&line);
    buf_printf(&line,
               "total = offer price per hour x hours a day x 30 x months (a job: x the hours "
               "its runs take, in whole steps of an offer's minimum billing where the KB states "
               "one: AWS's Capacity Blocks, whole days of 24 h; for capacity, each day of use is "
               "billed at least that minimum, up to the whole day); per GPU and "
               "card count "
               "only the cheapest offer of each of the %d cheapest providers is compared, a "
               "provider's older prices left out where its newer list prices the same GPU and "
               "count (the offers are read cheapest first: %zu offer%s read to find them)",
               DECIDE_RENT_OFFERS_PER_CONFIG, d->rent_read, d->rent_read == 1 ? "" : "s");
    view_map_set_str(v, "rent", buf_cstr(&line));
    view_map_set_str(v, "per_unit",
                     "cost per unit of work = total / hours of use / (throughput x 3600) x unit "
                     "size; ranking: feasible options by that cost x the rules' adjustment (1 - "
                     "prefer weights + warn weights), the figure the cost table's Ranked column "
                     "shows and the break-even and sensitivity compare");
    buf_free(&line);
    return v;
}

/* One assumption: a sentence and the citations it rests on (0 = none). */
static void assume(view *list, const char *text, int cite_a, int cite_b)
{
    view *m = view_list_push(list, view_map());
    view_map_set_str(m, "text", text);
    view *cites = view_map_set(m, "cites", view_list());
    if (cite_a)
        view_list_push(cites, view_number(cite_a));
    if (cite_b && cite_b != cite_a)
        view_list_push(cites, view_number(cite_b));
}

/* The costs of owning: use, electricity, hosts, resale, upkeep. */
static void assume_ownership(view *list, const decision *d, gw_buf *b)
{
    const workload *w = d->w;
    buf_reset(b);
    buf_printf(b, "%g hours of use a day over %g month%s; a month is 30 days.", w->hours_per_day,
               w->horizon_months, w->horizon_months == 1 ? "" : "s");
    assume(list, buf_cstr(b), 0, 0);
    buf_reset(b);
    buf_puts(b, "Electricity ");
    decide_money(b, d, w->electricity_price);
    buf_printf(b, " per kWh, PUE %g.", w->pue);
    assume(list, buf_cstr(b), 0, 0);
    buf_reset(b);
    buf_puts(b, "A host machine costs ");
    decide_money(b, d, w->host_cost);
    buf_printf(b, " and draws %.0f W besides its cards; it takes up to ", w->host_power_w);
    if (w->cards_per_host > 0)
        buf_printf(b, "%g cards (the workload's cards_per_host).", w->cards_per_host);
    else
        buf_printf(b, "%d consumer or %d data-centre cards.", DECIDE_CONSUMER_PER_HOST,
                   DECIDE_SERVER_PER_HOST);
    assume(list, buf_cstr(b), d->fact_cite[KB_ASSUMED_HOST_COST],
           d->fact_cite[KB_ASSUMED_HOST_POWER]);
    int several = 0;
    for (size_t i = 0; i < d->n_options; i++)
        several |= d->options[i].hosts > 1 && !d->options[i].system &&
                   d->options[i].acquisition != DECIDE_RENT;
    if (several) {
        buf_reset(b);
        buf_printf(b, "A purchase of several machines links them by a %g Gb/s network (%s); its "
                      "switch and cables are not costed.",
                   w->network_gbps, d->fact_cite[KB_ASSUMED_HOST_NETWORK]
                                        ? "the decision's default: set network_gbps"
                                        : "the workload's network_gbps");
        assume(list, buf_cstr(b), d->fact_cite[KB_ASSUMED_HOST_NETWORK], 0);
    }
    /* Servers bought several at a time exchange over their own ports (the KB's system rows). */
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = &d->options[i];
        if (o->system && o->hosts > 1 && o->acquisition != DECIDE_RENT &&
            o->system->network_gbps > 0) {
            buf_reset(b);
            buf_printf(b, "Several servers exchange over their own ports, as the KB gives them "
                          "(%s: %g Gb/s), not the workload's network_gbps; the switch between "
                          "them is not costed.",
                       o->system->name, o->system->network_gbps);
            assume(list, buf_cstr(b), 0, 0);
            break;
        }
    }
    buf_reset(b);
    buf_printf(b, "Cards resell for %.0f%% of their price at the end of the horizon (a server "
                  "bought whole: %.0f%% of the server's price; hosts bought for cards are not "
                  "resold).",
               w->resale_fraction * 100, w->resale_fraction * 100);
    assume(list, buf_cstr(b), d->fact_cite[KB_ASSUMED_RESALE], 0);
    if (w->upkeep_hours_per_month > 0) {
        buf_reset(b);
        buf_printf(b, "Upkeep: %g hours a month at ", w->upkeep_hours_per_month);
        decide_money(b, d, w->upkeep_rate);
        buf_puts(b, " an hour.");
        assume(list, buf_cstr(b), 0, 0);
    }
}

static view *assumptions_view(const decision *d)
{
    const workload *w = d->w;
    view *list = view_list();
    gw_buf b = GW_BUF_INIT;
    assume_ownership(list, d, &b);
    assume(list, "Cards draw their rated board power (TDP) under load.", 0, 0);
    assume(list,
           "Prices: the latest observation of each kind (median when several share the date); "
           "an article's price only where nothing better exists, and then it is never "
           "recommended unless the workload accepts such prices (anecdotal_ok).",
           0, 0);
    if (w->region) {
        buf_reset(&b);
        buf_printf(&b, "Cards are bought in %s: each is priced from the KB's %s prices the workload "
                       "accepts, else from the latest accepted price of any region, which its "
                       "note then names; cloud offers are not restricted by region.",
                   w->region, w->region);
        assume(list, buf_cstr(&b), 0, 0);
    }
    for (size_t i = 0; i < d->n_rates; i++) {
        buf_reset(&b);
        buf_printf(&b, "Amounts in %s converted at %.4g %s per %s (rates as of %s).",
                   d->rates[i].currency, d->rates[i].factor, w->currency, d->rates[i].currency,
                   d->rates[i].as_of ? d->rates[i].as_of : "an unknown date");
        assume(list, buf_cstr(&b), d->rates[i].cite, 0);
    }
    if (workload_is_llm(w)) {
        buf_reset(&b);
        int serving = decide_str_eq(w->task, "inference");
        double mfu = d->facts[KB_ASSUMED_LLM_MFU].value;
        int mfu_cite = d->fact_cite[KB_ASSUMED_LLM_MFU], bw_cite = 0;
        if (serving) {
            buf_printf(&b, "A GPU computes the model at %.0f%% of its dense tensor rate and reads "
                           "memory while generating at %.0f%% of its bandwidth: stated figures, "
                           "not measurements of this stack.",
                       mfu * 100, d->facts[KB_ASSUMED_DECODE_BANDWIDTH].value * 100);
            bw_cite = d->fact_cite[KB_ASSUMED_DECODE_BANDWIDTH];
        } else if (d->llm_mfu_rows) {
            buf_printf(&b, "A GPU computes the model at %.0f%% of its dense tensor rate: the "
                           "median over the benchmark's %d measured rows.",
                       d->llm_mfu * 100, d->llm_mfu_rows);
            mfu_cite = 0;
        } else {
            buf_printf(&b, "A GPU computes the model at %.0f%% of its dense tensor rate (Llama "
                           "3's model FLOPs utilisation in pre-training): a stated figure, not "
                           "a measurement of this stack.",
                       mfu * 100);
        }
        assume(list, buf_cstr(&b), mfu_cite, bw_cite);
    }
    if (decide_str_eq(w->cooling, "poor")) {
        buf_reset(&b);
        buf_printf(&b,
                   "Poor cooling: multi-card consumer builds lose %.0f%% of their throughput to "
                   "heat throttling.",
                   (1 - d->facts[KB_ASSUMED_POOR_COOLING].value) * 100);
        assume(list, buf_cstr(&b), 0, 0);
    }
    assume(list,
           workload_is_job(w)
               ? "Renting: a job pays the offer's price for the hours its runs take, rounded up "
                 "to whole steps of the offer's minimum billing where the KB states one (AWS's "
                 "Capacity Blocks: whole days of 24 h); charges an offer's note names besides the "
                 "price (storage, transfer, machine images) are not added."
               : "Renting: the offer's price for the same hours of use as owning, except that an "
                 "offer with a minimum billing is billed at least that for each day of use, up to "
                 "the whole day (AWS's Capacity Blocks: 24 h a day); charges an offer's note names "
                 "besides the price (storage, transfer, machine images) are not added.",
           0, 0);
    buf_free(&b);
    return list;
}

/* ---- charts and citations ---- */

static view *cumulative_chart_view(const decision *d, const view *series)
{
    view *c = view_map();
    view_map_set_str(c, "id", "cumulative-cost");
    view_map_set_str(c, "kind", "line");
    view_map_set_str(c, "title", "Cumulative cost: buy vs rent (same work)");
    gw_buf desc = GW_BUF_INIT;
    const view *cu = d->cumulative;
    buf_puts(&desc, "Cumulative outlay of the best purchase and the best rental doing the same "
                    "work");
    if (workload_is_job(d->w))
        buf_puts(&desc, ", spent while the job runs at the workload's hours a day (the purchase "
                        "then idles until it is sold)");
    buf_puts(&desc, ". The purchase ends at its total in the cost table, ");
    buf_puts(&desc, view_str(view_map_get(cu, "buy_total_text")));
    if (view_num(view_map_get(cu, "buy_resale")) > 0) {
        buf_puts(&desc, ", after the hardware is sold for ");
        buf_puts(&desc, view_str(view_map_get(cu, "buy_resale_text")));
        buf_puts(&desc, " at the horizon");
    }
    buf_puts(&desc, "; the rental ends at ");
    buf_puts(&desc, view_str(view_map_get(cu, "rent_total_text")));
    if (workload_is_job(d->w)) {
        /* A job's rental is already billed for the same work: its table total. */
        buf_puts(&desc, ", its table total: the bill for the same work.");
    } else {
        buf_puts(&desc, ", its table total of ");
        buf_puts(&desc, view_str(view_map_get(cu, "rent_offer_total_text")));
        buf_puts(&desc, " x ");
        buf_puts(&desc, view_str(view_map_get(cu, "rent_hours_factor_text")));
        buf_puts(&desc, " the hours, to do the purchase's work.");
    }
    view_map_set_str(c, "desc", buf_cstr(&desc));
    buf_free(&desc);
    view_map_set_str(c, "x_label", "Month");
    view_map_set_str(c, "x_unit", "month");
    view_map_set_str(c, "y_label", "Cumulative cost");
    view_map_set_str(c, "unit", d->w->currency);
    view_map_set(c, "series", view_copy(series));
    const view *marker = view_map_get(d->cumulative, "marker");
    if (marker)
        view_map_set(c, "marker", view_copy(marker));
    return c;
}

static int cmp_per_unit(const void *pa, const void *pb)
{
    const decide_option *a = *(const decide_option *const *)pa;
    const decide_option *b = *(const decide_option *const *)pb;
    return (a->per_unit > b->per_unit) - (a->per_unit < b->per_unit);
}

/* The cost-per-unit bars of the best-ranked feasible options, drawn cheapest first; NULL when
 * there are none. */
static view *cost_chart_view(const decision *d)
{
    const decide_option *shown[CHART_BARS_MAX];
    size_t n_shown = 0;
    for (size_t i = 0; i < d->n_options && n_shown < CHART_BARS_MAX; i++)
        if (d->ranked[i]->feasible && !isnan(d->ranked[i]->per_unit))
            shown[n_shown++] = d->ranked[i];
    if (n_shown == 0)
        return NULL;
    qsort(shown, n_shown, sizeof *shown, cmp_per_unit);
    view *bar = view_map();
    view_map_set_str(bar, "id", "cost-per-unit");
    view_map_set_str(bar, "kind", "bar");
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "Cost per %s", d->work_unit);
    view_map_set_str(bar, "title", buf_cstr(&b));
    view_map_set_str(bar, "desc", "Feasible options by cost per unit, lower is better; the "
                                  "recommendation is highlighted.");
    view_map_set_str(bar, "y_label", buf_cstr(&b));
    view_map_set_str(bar, "unit", d->w->currency);
    buf_free(&b);
    view *bars = view_map_set(bar, "bars", view_list());
    int marked = 0;
    for (size_t i = 0; i < n_shown; i++) {
        const decide_option *o = shown[i];
        view *m = view_list_push(bars, view_map());
        gw_buf l = GW_BUF_INIT;
        decide_option_label(&l, o, 1);
        if (o->held_back) {   /* the short label has no room for why: a mark, said below */
            buf_puts(&l, " \xe2\x80\xa0");
            marked = 1;
        }
        view_map_set_str(m, "label", buf_cstr(&l));
        buf_reset(&l);
        decide_money_per_unit(&l, d, o->per_unit);
        view_map_set_str(m, "value_text", buf_cstr(&l));
        buf_free(&l);
        view_map_set_num(m, "value", o->per_unit);
        if (o->rank == 1)
            view_map_set_bool(m, "highlight", 1);
    }
    if (marked) {
        view_map_set_str(bar, "desc", "Feasible options by cost per unit, lower is better; the "
                                      "recommendation is highlighted; \xe2\x80\xa0 marks a price "
                                      "only an article or another market gives: shown, never "
                                      "recommended.");
        view_map_set_str(bar, "marks_note", "\xe2\x80\xa0 A price only an article or another "
                                            "market gives: shown, never recommended.");
    }
    return bar;
}

static view *charts_view(const decision *d)
{
    view *charts = view_list();
    const view *series = view_map_get(d->cumulative, "series");
    if (series)
        view_list_push(charts, cumulative_chart_view(d, series));
    view *bar = cost_chart_view(d);
    if (bar)
        view_list_push(charts, bar);
    return charts;
}

static view *citations_view(const decision *d)
{
    view *list = view_list();
    for (size_t i = 0; i < d->n_cites; i++) {
        view *c = view_list_push(list, view_map());
        view_map_set_int(c, "n", (long long)i + 1);
        view_map_set_str(c, "id", d->cite_ids[i]);
        kb_source s;
        if (kb_source_get(d->k, d->cite_ids[i], &s, NULL) == GW_OK) {
            view_map_set_str(c, "title", s.title);
            view_map_set_str(c, "publisher", s.publisher);
            view_map_set_str(c, "date", s.retrieved);
            view_map_set_str(c, "url", s.url && *s.url ? s.url : NULL);
            kb_source_free(&s);
        } else {
            view_map_set_str(c, "title", d->cite_ids[i]);
        }
    }
    return list;
}

/* ---- the whole tree ---- */

/* Every option in rank order into root's options, the infeasible ones also into excluded. */
static size_t options_view(view *root, const decision *d)
{
    view *options = view_map_set(root, "options", view_list());
    view *excluded = view_map_set(root, "excluded", view_list());
    size_t n_feasible = 0;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        view_list_push(options, decide_option_view(d, o, DECIDE_VIEW_JSON));
        if (o->feasible) {
            n_feasible++;
            continue;
        }
        view *x = view_list_push(excluded, view_map());
        gw_buf l = GW_BUF_INIT;
        decide_option_label(&l, o, 0);
        view_map_set_str(x, "label", buf_cstr(&l));
        buf_free(&l);
        view_map_set_str(x, "id", o->id);
        view_map_set_str(x, "because", o->excluded_because);
    }
    view_map_set_bool(root, "has_excluded", view_len(excluded) > 0);
    /* a job's money is spent while its runs take, not over the horizon */
    gw_buf total = GW_BUF_INIT;
    if (workload_is_job(d->w))
        buf_puts(&total, "Total for the work");
    else
        buf_printf(&total, "Total over %g month%s", d->w->horizon_months,
                   d->w->horizon_months == 1 ? "" : "s");
    view_map_set_str(root, "total_label", buf_cstr(&total));
    buf_free(&total);
    return n_feasible;
}

/* A group of the not-considered list names at most this many, then "and N more". */
#define NOT_CONSIDERED_EXAMPLES 8

/* What was not considered (decide_omission), one by one and grouped by reason with a count. */
static void not_considered_view(view *root, const decision *d)
{
    view *list = view_map_set(root, "not_considered", view_list());
    view *groups = view_map_set(root, "not_considered_groups", view_list());
    for (size_t i = 0; i < d->n_omitted; i++) {
        const decide_omission *m = &d->omitted[i];
        view *x = view_list_push(list, view_map());
        view_map_set_str(x, "gpu", m->gpu);
        view_map_set_str(x, "name", m->name);
        view_map_set_str(x, "offer", m->offer);
        view_map_set_str(x, "reason", m->reason);
    }
    /* Groups in the order their reason first appears. */
    for (size_t i = 0; i < d->n_omitted; i++) {
        const char *reason = d->omitted[i].reason;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(d->omitted[j].reason, reason);
        if (seen)
            continue;
        size_t count = 0;
        gw_buf names = GW_BUF_INIT;
        for (size_t j = i; j < d->n_omitted; j++) {
            const decide_omission *m = &d->omitted[j];
            if (strcmp(m->reason, reason))
                continue;
            if (count < NOT_CONSIDERED_EXAMPLES) {
                buf_printf(&names, "%s%s", count ? "; " : "", m->name);
                if (m->offer)
                    buf_printf(&names, " (%s)", m->offer);
            }
            count++;
        }
        if (count > NOT_CONSIDERED_EXAMPLES)
            buf_printf(&names, "; and %zu more", count - NOT_CONSIDERED_EXAMPLES);
        view *g = view_list_push(groups, view_map());
        view_map_set_str(g, "reason", reason);
        view_map_set_int(g, "count", (long long)count);
        view_map_set_str(g, "names", buf_cstr(&names));
        buf_free(&names);
    }
    view_map_set_int(root, "not_considered_count", (long long)d->n_omitted);
    view_map_set_bool(root, "has_not_considered", d->n_omitted > 0);
}

/* The recommended option, its reasons, and the risks and checklists its verdicts name. */
static void recommendation_view(view *rec, const decision *d, const decide_option *best)
{
    if (!best) {
        view_map_set(rec, "option", view_null());
        view_map_set(rec, "because", view_list());
        return;
    }
    view_map_set_str(rec, "option", best->id);
    gw_buf l = GW_BUF_INIT;
    decide_option_label(&l, best, 0);
    view_map_set_str(rec, "label", buf_cstr(&l));
    buf_free(&l);
    view_map_set(rec, "because", view_copy(d->because));
    view_map_set(rec, "details", decide_option_view(d, best, DECIDE_VIEW_JSON));
    view *risks = view_map_set(rec, "risks", view_list());
    view *checklists = view_map_set(rec, "checklists", view_list());
    for (size_t i = 0; i < best->n_verdicts; i++) {
        const decide_verdict *v = &best->verdicts[i];
        if (!strcmp(v->effect, "warn"))
            view_list_push(risks, sentence(v->because));
        if (!v->checklist)
            continue;
        int seen = 0;
        for (size_t j = 0; j < view_len(checklists); j++)
            seen |= decide_str_eq(view_str(view_list_at(checklists, j)), v->checklist);
        if (!seen)
            view_list_push(checklists, view_string(v->checklist));
    }
}

view *decision_to_view(const decision *d)
{
    view *root = view_map();
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "GPU purchase justification: %s", d->w->name);
    view_map_set_str(root, "title", buf_cstr(&b));
    buf_free(&b);
    view_map_set(root, "workload", workload_to_view(d->w));
    view_map_set_bool(root, "is_job", workload_is_job(d->w));
    view_map_set(root, "memory", memory_view(d));
    view *method = view_map_set(root, "method", method_view(d));
    if (workload_is_llm(d->w)) {
        decide_llm_method(d, method);
        view_map_set(root, "llm", decide_llm_view(d));
    }
    view_map_set(root, "assumptions", assumptions_view(d));
    view_map_set_str(root, "throughput_unit", d->unit);
    view_map_set_str(root, "work_unit", d->work_unit);
    size_t n_feasible = options_view(root, d);
    not_considered_view(root, d);
    decide_groups_view(root, d);
    if (!isnan(d->w->budget))
        decide_set_money(root, d, "budget", d->w->budget);
    view_map_set_int(root, "feasible_count", (long long)n_feasible);
    if (n_feasible > BODY_COST_ROWS)
        view_map_set_int(root, "feasible_not_in_body", (long long)(n_feasible - BODY_COST_ROWS));
    view_map_set_int(root, "option_count", (long long)d->n_options);
    recommendation_view(view_map_set(root, "recommendation", view_map()), d, decision_best(d));
    view_map_set(root, "break_even", view_copy(d->break_even));
    view_map_set(root, "sensitivity", view_copy(d->sensitivity));
    view_map_set(root, "charts", charts_view(d));
    view_map_set(root, "price_age", price_age_view(d));
    view_map_set_bool(root, "has_export_rules",
                      view_len(view_map_set(root, "export_rules", export_rules_view(d))) > 0);
    view_map_set(root, "citations", citations_view(d));
    if (d->trace)
        view_map_set(root, "trace", view_copy(d->trace));
    return root;
}
