/* decide_demand.c — a served language model's demand and a service's constraints: what each
 * option serves (a stated demand, a busy share or, said plainly, full use), the replicas the
 * demand needs with redundancy's spares, and what production = true, the workload's region and
 * the GeForce driver licence say of each option, from the KB's providers
 * (kb/data/providers.csv). */
#include "decide_demand.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decide_llm.h"
#include "kb/kb_area.h"

/* The source of the GeForce driver licence's "No Datacenter Deployment" clause (sources.csv). */
#define GEFORCE_LICENCE_SOURCE "nvidia-geforce-license"
/* Production keeps to options with at least this many serving replicas, so that one can fail. */
#define PRODUCTION_MIN_REPLICAS 2

/* What decide_demand_serve says of o's capacity and what it is costed for. */
static void serve_words(const decision *d, const decide_option *o, gw_buf *how)
{
    const workload *w = d->w;
    double demand = w->target_tokens_per_s, share = w->serve_utilisation;
    if (!isnan(share)) {
        buf_puts(how, "; it can generate up to ");
        view_format_number(how, o->capacity, 0);
        buf_printf(how, " tokens/s and is busy %g%% of the time (inference.utilisation): costed "
                        "for the ", share * 100);
        view_format_number(how, o->throughput, 0);
        buf_puts(how, " it serves");
        return;
    }
    buf_puts(how, "; it can generate up to ");
    view_format_number(how, o->capacity, 0);
    buf_puts(how, w->serve_arrival_rate > 0 ? " tokens/s within its targets and is costed for "
                                              "the "
                                            : " tokens/s at this concurrency and is costed for the ");
    view_format_number(how, demand, 0);
    buf_puts(how, isnan(w->serve_requests_per_s) ? " demanded (inference.tokens_per_s)"
                                                 : " demanded (inference.requests_per_s x "
                                                   "output_tokens)");
}

void decide_demand_serve(const decision *d, decide_option *o, gw_buf *how)
{
    const workload *w = d->w;
    double demand = w->target_tokens_per_s, share = w->serve_utilisation;
    /* The capacity is what the serving replicas generate, redundancy's spares idle: the layout
     * (decide_llm_layout.c) spreads the requests over them and checks the targets on them. */
    o->capacity = o->throughput;
    o->capacity_lo = o->throughput_lo;
    o->capacity_hi = o->throughput_hi;
    if (!isnan(share)) {
        o->throughput = o->capacity * share;
        o->throughput_lo = o->capacity_lo * share;
        o->throughput_hi = o->capacity_hi * share;
    } else if (!isnan(demand) && o->capacity >= demand) {
        /* Costed for the demand; the low end stays the capacity's where that falls short. */
        o->throughput_lo = fmin(o->capacity_lo, demand);
        o->throughput = o->throughput_hi = demand;
    } else {
        return;
    }
    if (!d->speed_figures_only)   /* decide_option_speed_figures: no words */
        serve_words(d, o, how);
}

double decide_demand_served(const decision *d, double capacity)
{
    double demand = d->w->target_tokens_per_s, share = d->w->serve_utilisation;
    if (!isnan(demand))
        return fmin(capacity, demand);
    return capacity * (isnan(share) ? 1 : share);
}

/* ---- replicas ---- */

int decide_demand_spares(const decision *d)
{
    return workload_is_serving(d->w) && d->w->redundancy > 0 ? (int)d->w->redundancy : 0;
}

int decide_demand_min_replicas(const decision *d)
{
    int least = decide_demand_spares(d) + 1;
    if (workload_is_serving(d->w) && d->w->production && least < PRODUCTION_MIN_REPLICAS)
        least = PRODUCTION_MIN_REPLICAS;
    return least;
}

char *decide_demand_short(const decision *d, const decide_option *o)
{
    const workload *w = d->w;
    /* Whether the serving replicas carry the demand within the targets is the layout's
     * (decide_llm_layout.c) and, where they cannot, decide_llm.c's target missed. */
    if (!workload_is_serving(w) || !o->fits || o->replicas < 1 || isnan(o->throughput))
        return NULL;
    int enough = o->replicas >= decide_demand_min_replicas(d);
    /* A replica in the same machine fails with it (its power, its switch, its host's
     * maintenance): production's replicas stand in two machines at least. */
    int one_machine = w->production && o->hosts < PRODUCTION_MIN_REPLICAS;
    if (enough && !one_machine)
        return NULL;
    gw_buf b = GW_BUF_INIT;
    if (enough)
        buf_printf(&b, "%d replicas in one machine; production = true keeps them in %d "
                       "machines at least, so that one machine can fail",
                   o->replicas, PRODUCTION_MIN_REPLICAS);
    else if (w->production && o->replicas < PRODUCTION_MIN_REPLICAS)
        buf_printf(&b, "%d replica; production = true keeps to %d at least, so that one can "
                       "fail", o->replicas, PRODUCTION_MIN_REPLICAS);
    else
        buf_printf(&b, "%d replica%s, %g spare (redundancy = %g): none left to serve", o->replicas,
                   o->replicas == 1 ? "" : "s", w->redundancy, w->redundancy);
    return buf_detach(&b);
}

/* ---- the constraints, as verdicts ---- */

static void add_verdict(decision *d, decide_option *o, const char *rule, const char *effect,
                        const char *because)
{
    o->verdicts = gw_xrealloc(o->verdicts, (o->n_verdicts + 1) * sizeof *o->verdicts);
    o->verdicts[o->n_verdicts++] = (decide_verdict){.rule = gw_xstrdup(rule),
                                                    .effect = gw_xstrdup(effect),
                                                    .because = gw_xstrdup(because),
                                                    .weight = 0};
    decide_trace(d, "%s: %s %s: %s", rule, effect, o->id, because);
}

static const kb_provider *provider_find(const kb_provider *p, size_t n, const char *name)
{
    for (size_t i = 0; name && i < n; i++)
        if (p[i].name && !strcasecmp(p[i].name, name))
            return &p[i];
    return NULL;
}

static const char *kind_words(const char *kind)
{
    if (decide_str_eq(kind, "hyperscaler"))
        return "a hyperscaler";
    if (decide_str_eq(kind, "specialised"))
        return "a specialised GPU cloud";
    if (decide_str_eq(kind, "marketplace"))
        return "a marketplace of hosts' machines";
    if (decide_str_eq(kind, "decentralised"))
        return "a decentralised network of providers";
    return "a provider of unknown kind";
}

/* Whether regions ("US;EU") holds region, or the part of it before a '-' ("us-east-1": US). */
static int serves_region(const char *regions, const char *region)
{
    size_t want = strcspn(region, "-");
    for (const char *r = regions; r && *r;) {
        size_t len = strcspn(r, ";");
        if ((len == strlen(region) && !strncasecmp(r, region, len)) ||
            (len == want && !strncasecmp(r, region, len)))
            return 1;
        r += len + (r[len] == ';');
    }
    return 0;
}

/* Production: a rental whose provider publishes no SLA is left out, and listed. */
static void production_check(decision *d, decide_option *o, const kb_provider *p, view *left)
{
    gw_buf b = GW_BUF_INIT;
    if (!p)
        buf_printf(&b, "production = true: the KB does not describe %s, so no SLA is known "
                       "(kb/data/providers.csv)", o->provider ? o->provider : "its provider");
    else if (!p->sla)
        buf_printf(&b, "production = true: %s publishes no SLA (%s)", p->name,
                   kind_words(p->kind));
    if (b.len) {
        if (p)
            decide_option_cite(d, o, p->source);
        add_verdict(d, o, "production", "exclude", buf_cstr(&b));
        view *item = view_list_push(left, view_map());
        view_map_set_str(item, "option", o->id);
        view_map_set_str(item, "provider", o->provider);
        view_map_set_str(item, "kind", p ? p->kind : NULL);
        view_map_set_str(item, "why", buf_cstr(&b));
    }
    buf_free(&b);
}

/* A ";"-separated list as words: "US;EU" as "US, EU". */
static void list_words(gw_buf *b, const char *list)
{
    for (const char *r = list; *r; r++) {
        if (*r == ';')
            buf_puts(b, ", ");
        else
            buf_putc(b, *r);
    }
}

/* Where the offer's own regions are (kb_area_of), for a workload that wants the area `want`:
 * 1 in it (one region is), 0 not (every region's area is known, none is it), -1 unknown (no
 * region stated, or the only ones that could be in it have no area).  *areas: the areas, each
 * once, as "US, EU" (caller frees). */
static int offer_in_area(const char *regions, const char *want, char **areas)
{
    gw_buf b = GW_BUF_INIT;
    int in = 0, unknown = !regions || !*regions;
    for (const char *r = regions; r && *r;) {
        size_t len = strcspn(r, ";");
        char *one = gw_xstrndup(r, len);
        const char *area = kb_area_of(one);
        in |= area && !strcmp(area, want);
        unknown |= !area;
        if (area && !strstr(buf_cstr(&b), area))   /* codes are never part of another's */
            buf_printf(&b, "%s%s", b.len ? ", " : "", area);
        free(one);
        r += len + (r[len] == ';');
    }
    *areas = buf_detach(&b);
    return in ? 1 : unknown ? -1 : 0;
}

int decide_offer_in_region(const decision *d, const char *regions)
{
    const char *want = d->w->region ? kb_area_wanted(d->w->region) : NULL;
    char *areas = NULL;
    int in = want ? offer_in_area(regions, want, &areas) : -1;
    free(areas);
    return in;
}

/* Residency: a rental whose offer is not in the workload's region, or where its regions say
 * nothing, from a provider that does not serve it, says where the data goes.  The offer's own
 * regions are more precise than the provider's list: an AWS offer in us-east-1 is not in the
 * EU, though AWS serves the EU. */
static void residency_check(decision *d, decide_option *o, const kb_provider *p, view *out)
{
    const char *region = d->w->region, *want = kb_area_wanted(region);
    char *areas = NULL;
    int in = want ? offer_in_area(o->offer_regions, want, &areas) : -1;
    if (in == 1 || (in < 0 && p && p->regions &&
                    (serves_region(p->regions, region) ||
                     (want && serves_region(p->regions, want))))) {
        free(areas);
        return;
    }
    gw_buf b = GW_BUF_INIT;
    const char *name = o->provider ? o->provider : "its provider";
    if (in == 0) {
        gw_buf where = GW_BUF_INIT;
        list_words(&where, o->offer_regions);
        buf_printf(&b, "the data leaves %s: this offer of %s is in %s", region, name, areas);
        if (strcasecmp(buf_cstr(&where), areas) != 0)   /* "in US (us-east-1)", not "US (US)" */
            buf_printf(&b, " (%s)", buf_cstr(&where));
        buf_free(&where);
    } else if (p && p->regions) {
        buf_printf(&b, "the data leaves %s: %s's GPUs are in ", region, name);
        list_words(&b, p->regions);
    }
    else
        buf_printf(&b, "the data may leave %s: where %s's GPUs are is unknown", region, name);
    if (p && in != 0)
        decide_option_cite(d, o, p->source);
    add_verdict(d, o, "residency", "warn", buf_cstr(&b));
    view *item = view_list_push(out, view_map());
    view_map_set_str(item, "option", o->id);
    view_map_set_str(item, "provider", o->provider);
    view_map_set_str(item, "regions", in == 0 ? o->offer_regions : p ? p->regions : NULL);
    view_map_set_str(item, "regions_of", in == 0 ? "offer" : "provider");
    view_map_set_str(item, "text", buf_cstr(&b));
    buf_free(&b);
    free(areas);
}

/* Consumer cards in a server room or data centre: the GeForce licence's clause, cited. */
static void licence_check(decision *d, decide_option *o)
{
    const workload *w = d->w;
    int rented = o->acquisition == DECIDE_RENT;
    if (!o->consumer || !(w->production || (!rented && w->server_room)))
        return;
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "%s is a GeForce/TITAN card: NVIDIA's GeForce driver licence says \"No "
                   "Datacenter Deployment. The SOFTWARE is not licensed for datacenter "
                   "deployment, except that blockchain processing in a datacenter is permitted\" "
                   "(section 2.1.3; it does not define a datacenter): %s",
               o->gpu->name,
               rented ? "a production service on rented GeForce cards relies on the provider's "
                        "reading of it"
                      : "check it with whoever approves the server room, or choose a "
                        "data-centre card");
    decide_option_cite(d, o, GEFORCE_LICENCE_SOURCE);
    view_map_set_num(d->constraints, "licence_cite", decide_cite(d, GEFORCE_LICENCE_SOURCE));
    add_verdict(d, o, "geforce-licence", "warn", buf_cstr(&b));
    buf_free(&b);
}

int decide_demand_constraints(decision *d, gw_error *err)
{
    const workload *w = d->w;
    kb_provider *providers = NULL;
    size_t n = 0;
    int rc = kb_providers_list(d->k, &providers, &n, err);
    if (rc != GW_OK)
        return rc;
    view_free(d->constraints);
    d->constraints = view_map();
    view *left = view_map_set(d->constraints, "production_left_out", view_list());
    view *residency = view_map_set(d->constraints, "residency", view_list());
    for (size_t i = 0; i < d->n_options; i++) {
        decide_option *o = &d->options[i];
        const kb_provider *p = provider_find(providers, n, o->provider);
        /* First the provider, then the replicas; an offer that cannot hold the model is out
         * already, and not counted as left out by production. */
        if (o->acquisition == DECIDE_RENT && w->production && o->fits)
            production_check(d, o, p, left);
        char *short_of = decide_demand_short(d, o);
        if (short_of)
            add_verdict(d, o, w->production ? "production" : "redundancy", "exclude", short_of);
        free(short_of);
        if (o->acquisition == DECIDE_RENT && w->region)
            residency_check(d, o, p, residency);
        licence_check(d, o);
    }
    if (w->production)
        decide_trace(d, "production = true: %zu rentals left out for want of a published SLA",
                     view_len(left));
    kb_providers_free(providers, n);
    return GW_OK;
}

/* ---- what the report and --json say ---- */

static const char *demand_basis(const workload *w)
{
    if (!isnan(w->serve_utilisation))
        return "utilisation";
    if (!isnan(w->serve_requests_per_s))
        return "requests_per_s";
    return isnan(w->target_tokens_per_s) ? "full_use" : "tokens_per_s";
}

/* Little's law: requests in flight = requests a second x seconds a request; where the best
 * option's latencies put that far from the stated concurrency, its capacity is at the wrong
 * load, and the sentence says what to state. */
static void in_flight_words(gw_buf *b, const decision *d, const decide_option *best)
{
    const workload *w = d->w;
    if (!best || isnan(w->serve_requests_per_s) || !(best->tpot_ms > 0))
        return;
    double seconds = (best->ttft_ms + w->serve_output * best->tpot_ms) / 1e3;
    double in_flight = w->serve_requests_per_s * seconds;
    buf_printf(b, " At %.3g s a request on the recommendation, about ", seconds);
    view_format_number(b, in_flight, in_flight < 10 ? 1 : 0);
    buf_puts(b, " requests are in flight (Little's law)");
    /* A quarter off is a different load; fewer than one request in flight is one.  Under an
     * arrival rate the load sets them (decide_llm_layout.c): nothing to state. */
    double stated = w->serve_concurrency, implied = fmax(1, ceil(in_flight));
    if (!(w->serve_arrival_rate > 0) && (implied > stated * 1.25 || implied < stated / 1.25)) {
        buf_puts(b, "; the workload states ");
        view_format_number(b, stated, 0);
        buf_puts(b, " (inference.concurrency), so the capacities are for another load than "
                    "this demand's: state concurrency = ");
        view_format_number(b, implied, 0);
        buf_puts(b, " to size them for it");
    }
    buf_putc(b, '.');
}

static void demand_words(gw_buf *b, const decision *d, const decide_option *best)
{
    const workload *w = d->w;
    const char *basis = demand_basis(w);
    if (!strcmp(basis, "full_use")) {
        buf_printf(b, "No demand is stated (inference.tokens_per_s, requests_per_s or "
                      "utilisation): every option is costed at full use, its whole capacity "
                      "generating tokens %g h a day for %g months. That is the lowest cost per "
                      "1M tokens it can reach; at half that traffic the cost per 1M tokens "
                      "doubles.", w->hours_per_day, w->horizon_months);
    } else if (!strcmp(basis, "utilisation")) {
        buf_printf(b, "Each option is busy %g%% of the time (inference.utilisation) and costed "
                      "for the tokens it serves then: its cost over the tokens of %g%% of its "
                      "capacity.", w->serve_utilisation * 100, w->serve_utilisation * 100);
    } else {
        buf_puts(b, "The demand is ");
        if (!strcmp(basis, "requests_per_s")) {
            buf_printf(b, "%g requests/s x %g output tokens = ", w->serve_requests_per_s,
                       w->serve_output);
        }
        view_format_number(b, w->target_tokens_per_s, 0);
        buf_puts(b, " tokens/s; each option is costed for the tokens it serves at that demand, "
                    "not at its full capacity.");
        in_flight_words(b, d, best);
    }
    if (w->redundancy > 0)
        buf_printf(b, " Redundancy: %g spare replica%s; an option whose other replicas cannot "
                      "carry the load within the targets is out.",
                   w->redundancy, w->redundancy == 1 ? "" : "s");
    /* Its time per token and tokens/s are the serving replicas' already (the serving line). */
    if (best && w->redundancy > 0 && best->replicas > w->redundancy)
        buf_printf(b, " On the recommendation, with %g of its %d replicas spare the other %d carry "
                      "the requests in flight, %.0f each.",
                   w->redundancy, best->replicas, best->replicas - (int)w->redundancy,
                   best->sequences);
}

static void production_words(gw_buf *b, const decision *d)
{
    const view *left = view_map_get(d->constraints, "production_left_out");
    buf_printf(b, "Production: rentals only from providers that publish an SLA, and at least "
                  "%d replicas (spares included) in %d machines or instances.",
               PRODUCTION_MIN_REPLICAS, PRODUCTION_MIN_REPLICAS);
    if (!view_len(left)) {
        buf_puts(b, " No rental was left out for want of an SLA.");
        return;
    }
    buf_printf(b, " Left out for want of a published SLA (%zu option%s): ", view_len(left),
               view_len(left) == 1 ? "" : "s");
    for (size_t i = 0; i < view_len(left); i++) {
        const view *x = view_list_at(left, i);
        const char *provider = view_str(view_map_get(x, "provider"));
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= decide_str_eq(view_str(view_map_get(view_list_at(left, j), "provider")),
                                  provider);
        if (seen)
            continue;
        buf_printf(b, "%s%s (%s)", i ? "; " : "", provider ? provider : "an unnamed provider",
                   kind_words(view_str(view_map_get(x, "kind"))));
    }
    buf_putc(b, '.');
}

static void push_line(view *lines, const char *text, int cite)
{
    view *line = view_list_push(lines, view_map());
    gw_buf sentence = GW_BUF_INIT;   /* every line a sentence: its full stop once */
    buf_puts(&sentence, text);
    if (!sentence.len || buf_cstr(&sentence)[sentence.len - 1] != '.')
        buf_putc(&sentence, '.');
    view_map_set_str(line, "text", buf_cstr(&sentence));
    buf_free(&sentence);
    view *cites = view_map_set(line, "cites", view_list());
    if (cite)
        view_list_push(cites, view_number(cite));
}

/* The verdict of rule on o, if any. */
static const decide_verdict *verdict_of(const decide_option *o, const char *rule)
{
    for (size_t i = 0; i < o->n_verdicts; i++)
        if (decide_str_eq(o->verdicts[i].rule, rule))
            return &o->verdicts[i];
    return NULL;
}

view *decide_demand_view(const decision *d)
{
    const workload *w = d->w;
    const decide_option *best = decide_best(d);
    view *v = d->constraints ? view_copy(d->constraints) : view_map();
    view *lines = view_map_set(v, "lines", view_list());
    gw_buf b = GW_BUF_INIT;
    if (workload_is_serving(d->w)) {
        view_map_set_str(v, "demand_basis", demand_basis(w));
        view_map_set_num(v, "demand_tokens_per_s", w->target_tokens_per_s);
        view_map_set_num(v, "requests_per_s", w->serve_requests_per_s);
        view_map_set_num(v, "utilisation", w->serve_utilisation);
        view_map_set_num(v, "redundancy", w->redundancy);
        demand_words(&b, d, best);
        view_map_set_str(v, "demand_text", buf_cstr(&b));
        push_line(lines, buf_cstr(&b), 0);
    }
    if (workload_is_serving(d->w) && best && !w->production && !(w->redundancy > 0) &&
        (best->hosts < 2 || best->replicas < 2)) {
        /* a service on one machine or one replica stops when it does: said, not hidden */
        buf_reset(&b);
        buf_printf(&b, "Availability: the recommendation serves from %s (%d replica%s, no spare): "
                       "a failure or maintenance of it stops the service; redundancy = 1 or "
                       "production = true costs a spare and a second machine.",
                   best->hosts < 2 ? "one machine" : "several machines", best->replicas,
                   best->replicas == 1 ? "" : "s");
        view_map_set_str(v, "availability_text", buf_cstr(&b));
        push_line(lines, buf_cstr(&b), 0);
    }
    view_map_set_bool(v, "production", w->production);
    if (w->production && d->constraints) {
        buf_reset(&b);
        production_words(&b, d);
        view_map_set_str(v, "production_text", buf_cstr(&b));
        push_line(lines, buf_cstr(&b), 0);
    }
    const decide_verdict *x;
    if (best && w->region && (x = verdict_of(best, "residency")) != NULL) {
        buf_reset(&b);
        /* JSON only: the report says it once, among the recommendation's risks. */
        buf_printf(&b, "Where the data goes (region = \"%s\"): %s", w->region, x->because);
        view_map_set_str(v, "residency_text", buf_cstr(&b));
    }
    if (best && (x = verdict_of(best, "geforce-licence")) != NULL) {
        int cite = (int)view_num(view_map_get(v, "licence_cite"));
        view_map_set_str(v, "licence_text", x->because);
        buf_reset(&b);
        buf_printf(&b, "Driver licence: %s", x->because);
        push_line(lines, buf_cstr(&b), cite);
    }
    buf_free(&b);
    return v;
}

void decide_demand_method(const decision *d, view *method)
{
    if (!workload_is_serving(d->w))
        return;
    view_map_set_str(method, "serving_demand",
                     "serving: tokens/s served = the demand (inference.tokens_per_s, or "
                     "requests_per_s x output_tokens) where the capacity reaches it, utilisation x "
                     "the capacity, or with neither the capacity itself (full use); cost per 1M "
                     "tokens = what is provisioned per hour of use / (tokens/s served x 3600) x "
                     "1e6; requests in flight = requests/s x (time to the first token + output "
                     "tokens x time per output token) (Little's law); redundancy's N spares "
                     "generate nothing: a serving layout has N + 1 replicas at least (production "
                     "= true: two), and the others carry every request in flight, "
                     "ceil(concurrency / (replicas - N)) each (an arrival rate: Little's law's "
                     "fixed point; the capacity, the most load within the targets), within the "
                     "targets and the demand "
                     "(serving layouts); the capacity is theirs");
}
