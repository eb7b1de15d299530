/* decide_view_method.c — the method section of a decision's view: how old its prices are, the
 * memory a replica needs, how each figure was obtained (the method) and what was assumed, each
 * with its citations. */
#include "decide_view_method.h"
#include "decide_llm_accuracy.h"
#include "decide_demand.h"
#include "base/check.h"
#include "base/clock.h"
#include "base/units.h"
#include "decide_cost.h"
#include "decide_fields.h"
#include "decide_llm.h"
#include "decide_options.h"
#include "decide_speed.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- how old the prices are ---- */

/* The prices and rates the decision used that are older than their limits, for the report's
 * warning: the recommendation's, how many of the feasible options' (the oldest named), the
 * exchange rates', and how to refresh them. */
view *decide_price_age_view(const decision *d)
{
    const workload *w = d->w;
    view *v = view_map();
    long today = gw_today_days();
    view_map_set_num(v, "max_age_days", w->price_max_age_days);
    view_map_set_int(v, "rate_max_age_days", DECIDE_RATE_MAX_AGE_DAYS);
    const decide_option *best = decide_best(d), *oldest = NULL;
    size_t old = 0, feasible = 0, after = 0;
    for (size_t i = 0; i < d->n_options; i++) {
        const decide_option *o = d->ranked[i];
        if (!o->feasible)
            continue;
        feasible++;
        after += o->price_age_days < 0;   /* dated after the report: not current, re-quoted */
        if (o->price_age_days > w->price_max_age_days) {
            old++;
            if (!oldest || o->price_age_days > oldest->price_age_days)
                oldest = o;
        }
    }
    view_map_set_int(v, "old_count", (long long)old);
    view_map_set_bool(v, "has_old", old > 0);   /* a count of 0 is no sentence, not "0 of" */
    view_map_set_int(v, "after_count", (long long)after);
    view_map_set_bool(v, "has_after", after > 0);
    char date[11];
    gw_today_date(date);
    view_map_set_str(v, "report_date", date);
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
    view *requote = view_map_set(v, "requote", decide_requote_view(d));   /* decide_options.c */
    view_map_set_bool(v, "has_requote", view_len(requote) > 0);
    view_map_set_bool(v, "any", old > 0 || after > 0 || best_old || view_len(rates) > 0);
    buf_free(&b);
    return v;
}

/* ---- memory, method and assumptions ---- */

view *decide_memory_view(const decision *d)
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


/* How each speed's band is made, with the calibrations' figures (appended to line). */
static void speed_band_words(const decision *d, gw_buf *line)
{
    buf_printf(line, "; every speed has a band (throughput.low and throughput.high, with "
                     "throughput.band_basis): for a measured figure the spread of the results "
                     "used; for a scaled one, widened by the %.0fth percentile of each scaling's "
                     "leave-one-out errors on the KB's own measurements (",
               MODEL_BAND_PERCENTILE * 100);
    const char *sep = "";
    if (d->spec_loo.rows || d->spec_pairs.rows) {
        const model_calibration *c = d->spec_loo.rows ? &d->spec_loo : &d->spec_pairs;
        buf_printf(line, "across GPUs %.1f%%, mean %.1f%%", model_calibration_band(c) * 100,
                   c->mean_error_pp);
        sep = "; ";
    }
    if (d->count_cal.rows) {
        buf_printf(line, "%sacross counts %.1f points of efficiency (mean %.1f), over the "
                         "option's own efficiency", sep, model_calibration_band(&d->count_cal) * 100,
                   d->count_cal.mean_error_pp);
        sep = "; ";
    }
    if (d->params_cal.rows)
        buf_printf(line, "%sacross models by parameters %.1f%% (mean %.1f%%), %d predictions "
                         "between the reference benchmarks' models on the GPUs measured on both, "
                         "grown with the log of a longer step", sep,
                   model_calibration_band(&d->params_cal) * 100, d->params_cal.mean_error_pp,
                   d->params_cal.rows);
    buf_printf(line, "); several combine as the square root of the sum of their squares, and "
                     "the band is the figure / (1 + e) to x (1 + e); the %.0fth percentile, as "
                     "half the KB's own scaled figures miss the mean and the maximum is one "
                     "GPU's outlier",
               MODEL_BAND_PERCENTILE * 100);
    if (d->repro_cal.rows) {
        buf_puts(line, "; an article's figure gets at least ");
        decide_repro_words(d, line);
        buf_puts(line, " (those repeats set articles against benchmarks: a benchmark's one "
                       "result keeps no band of its own)");
    }
    buf_puts(line, "; over several machines the low end is lower still: the model's efficiency "
                   "with the network's time doubled, since the across-counts calibration is of "
                   "runs inside one machine; no high end passes a physical limit: a figure "
                   "measured on several cards at most their count x the same GPU's one-card "
                   "measurement (linear scaling), where the KB has one; a figure scaled by "
                   "sqrt(tensor ratio x bandwidth ratio) at most the larger of the two ratios x "
                   "its source's figure");
}

/* The method's lines on single cards: the memory a replica needs, which measurements are used,
 * and how a GPU without one is scaled (with how far that scaling is off on the KB's own). */
static void method_single_card(view *v, const decision *d, gw_buf *line)
{
    buf_printf(line,
               "memory per replica = (params x bytes per parameter + activations) x %.2f + %.1f "
               "GB (CUDA context and allocator fragmentation); bytes per parameter: weights + "
               "gradients + optimizer states (AMP with Adam: 2 + 2 + 4 fp32 master + 8 = 16); a "
               "measured peak (vram_gb) gets the same margins",
               1 + MODEL_FRAGMENTATION, MODEL_CONTEXT_GB);
    decide_capacity_method_words(line);
    view_map_set_str(v, "memory", buf_cstr(line));
    buf_reset(line);
    buf_puts(line, "measured results: of a GPU at a card count, those of the most trusted kind "
                   "of source present are used (your own measurements, then benchmarks, then "
                   "datasheets and plugins, then articles), their median with their range when "
                   "there are several; the others are set aside and the option says so");
    decide_speed_evidence_words(d, line);
    view_map_set_str(v, "evidence", buf_cstr(line));
    buf_reset(line);
    buf_puts(line, "throughput without a measurement = the measured GPU most like it (same "
                   "vendor only; same architecture, form factor and class first, then nearest "
                   "in specifications) x sqrt(tensor TFLOPS ratio x memory bandwidth ratio), "
                   "labelled scaled");
    model_calibration spec = {0};
    if (d->n_bench && d->spec_loo.rows)
        buf_printf(line, "; tested on the %d GPUs the KB measures on this benchmark, each "
                         "scaled as if it had no result of its own, it is off by %.0f%% on "
                         "average and %.0f%% at most: a scaled figure is an estimate of that "
                         "accuracy", d->spec_loo.rows, d->spec_loo.mean_error_pp,
                   d->spec_loo.max_error_pp);
    else if (decide_spec_calibration(d, &spec, NULL) == GW_OK && spec.rows)
        buf_printf(line, "; no benchmark measures this workload, so every speed is such an "
                         "estimate: over the KB's %d pairs of one vendor's GPUs measured on one "
                         "card with one of the reference benchmarks (ResNet-50, BERT-base on "
                         "SQuAD), the ratio it predicts is off by %.0f%% on average and %.0f%% "
                         "at most",
                   spec.rows, spec.mean_error_pp, spec.max_error_pp);
    speed_band_words(d, line);
    model_calibration_free(&spec);
    view_map_set_str(v, "scaling", buf_cstr(line));
}

/* The method's lines on several cards: data parallelism within a machine and across machines
 * (with how far the model is from the KB's multi-GPU measurements), and model parallelism. */
static void method_multi_gpu(view *v, const decision *d, gw_buf *line)
{
    buf_printf(line,
               "n cards, data parallel: efficiency = compute / (compute x %.2f + all-reduce), "
               "compute = batch (%g per GPU) / one card's throughput, all-reduce = 2(n-1)/n x "
               "gradient bytes / link bandwidth each way (gradient bytes: parameters x 4 for fp32 "
               "and AMP, x 2 for fp16 or bf16, none when nothing is trained; NVLink on SXM boards, "
               "half the KB's two-way figure; PCIe %.0f GB/s for 3.0 x16, doubling per generation, "
               "x lanes/16; x %.1f without peer-to-peer (the KB's p2p flag of each card; where "
               "it is unknown, GeForce RTX 40 and 50), through host memory: an assumption from "
               "one reported measurement of two RTX 5090s: gpuwise kb search p2p finds it); "
               "parallelism = \"none\": one card works, efficiency 1/n",
               1 + MODEL_SYNC_OVERHEAD, decide_batch_per_gpu(d->w), MODEL_PCIE3_X16_GBS,
               MODEL_NO_P2P_FACTOR);
    view_map_set_str(v, "multi_gpu", buf_cstr(line));
    view_map_set_str(v, "machines",
                     "several machines (up to 4, data parallelism only, and only with a measured "
                     "benchmark): all-reduce = 2(k-1)/k x gradient bytes / the link within a "
                     "machine + 2(N-1)/N x gradient bytes / the network between machines, k "
                     "cards a machine and N machines; the network is a server's own ports, a "
                     "rental's stated network (instances are only doubled where fewer cannot "
                     "finish a job in time), else the workload's network_gbps; where one "
                     "machine's count is measured, that figure x N x (efficiency across machines "
                     "/ efficiency within one)");
    /* Serving replicas exchange nothing; a language model's training is checked by
     * llm.accuracy, on its own rows. */
    model_calibration cal = {0};
    if (!workload_is_serving(d->w) && decide_scaling_calibration(d, &cal, NULL) == GW_OK &&
        cal.rows) {
        buf_reset(line);
        buf_printf(line, "calibration: against the KB's %d measured multi-GPU results that have "
                   "a single-card result of the same GPU, the data-parallel efficiency is off by "
                   "%.1f percentage points on average and %.1f at most%s",
                   cal.rows, cal.mean_error_pp, cal.max_error_pp,
                   workload_is_llm(d->w) ? " (image models' results: a language model's training "
                                           "speed is checked by the model accuracy above)"
                                         : "");
        view_map_set_str(v, "calibration", buf_cstr(line));
    }
    model_calibration_free(&cal);
    buf_reset(line);
    buf_printf(line,
               "model parallelism (a model too big for one card, split over n): memory per card "
               "= (replica - context) / n + context; throughput = n x one card x %.2f over "
               "NVLink or %.2f over PCIe (assumed, an estimate)",
               MODEL_PARALLEL_EFFICIENCY_NVLINK, MODEL_PARALLEL_EFFICIENCY_PCIE);
    view_map_set_str(v, "model_parallel", buf_cstr(line));
}

/* How a slice of a card is costed and compared, said where the decision has one. */
static const char slice_words[] =
    "; a slice of a card (gpu_fraction: Azure's NV6ads A10 v5 is 1/6 of an A10, a MIG 1g slice "
    "1/7; three decimals read as the simple fraction they round) has that share of the card's "
    "memory and speed, and its instance price / the share is its price per whole GPU-hour";

static int has_slice(const decision *d)
{
    for (size_t i = 0; i < d->n_options; i++)
        if (d->options[i].gpu_fraction < 1)
            return 1;
    return 0;
}

/* How a job's rental is billed beyond a first step, said where an option's offer has a second
 * (kb/schema.sql version 19). */
static const char long_billing_words[] =
    ", then whole weeks beyond 14 days: a 32.5-day job holds 14 + 3 x 7 = 35 days";

static int has_long_billing(const decision *d)
{
    for (size_t i = 0; i < d->n_options; i++)
        if (d->options[i].long_billing_hours > 0)
            return 1;
    return 0;
}

/* The method's lines on money: what buying and renting cost, and how options are ranked. */
static void method_cost(view *v, const decision *d, gw_buf *line)
{
    view_map_set_str(v, "buy",
                     "total = cards + hosts + cooling + (electricity + staff + support + "
                     "colocation) x months - resale; electricity = watts x hours a day x 30 / "
                     "1000 x price x "
                     "PUE (a job: its runs' hours); SXM and OAM modules as whole servers (host "
                     "included, their maximum watts); consumer "
                     "cards 4 a machine, data-centre 8; support = support_fraction x hardware a "
                     "year; colocation = (kW - site_power_kw) x price per kW a month; "
                     "discount_rate r: a payment in month m x (1 + r)^-(m/12), resale likewise");
    buf_reset(line);
    buf_printf(line,
               "total = offer price per hour x hours a day x 30 x months (with "
               "hours_needed_per_month: x the hours the need takes on the option; a job: x the hours "
               "its runs take, in whole steps of an offer's minimum billing where the KB states "
               "one: AWS's Capacity Blocks, whole days of 24 h%s; for capacity, each day of use is "
               "billed at least that minimum, up to the whole day)%s; per GPU, card count and "
               "share of a card only the cheapest offer of each of the %d cheapest providers is compared, a "
               "provider's older prices left out where its newer list prices the same GPU and "
               "count (the offers are read cheapest first: %zu offer%s read to find them)",
               workload_is_job(d->w) && has_long_billing(d) ? long_billing_words : "",
               has_slice(d) ? slice_words : "",
               DECIDE_RENT_OFFERS_PER_CONFIG, d->rent_read,
               d->rent_read == 1 ? "" : "s");
    view_map_set_str(v, "rent", buf_cstr(line));
    view_map_set_str(v, "per_unit",
                     "cost per unit of work = total / hours of use / (throughput x 3600) x unit "
                     "size; ranking: feasible options by that cost x the rules' adjustment (1 - "
                     "prefer weights + warn weights), the figure the cost table's Ranked column "
                     "shows and the break-even and sensitivity compare");
    size_t out = 0;   /* the same with --all-options: set aside or not, out of reach */
    for (size_t i = 0; i < d->n_options; i++)
        out += d->options[i].out_of_reach;
    if (!out)
        return;
    buf_reset(line);
    buf_printf(line,
               "within reach: the rules judge an option only if its cost at its bands' favourable "
               "corner x %.2f (1 less the weights the rules declare their preferences reach) is "
               "not above the best's at its unfavourable one (the dearest among the %d cheapest "
               "and its kind's cheapest); %zu are not: set aside unless --all-options judges "
               "them, and never drawn",
               d->rules_floor, DECIDE_BODY_COST_ROWS, out);
    view_map_set_str(v, "reach", buf_cstr(line));
}

/* How each figure is computed, with the model's constants written in; a language model's lines
 * in place of the image-model ones. */
view *decide_method_view(const decision *d)
{
    view *v = view_map();
    gw_buf line = GW_BUF_INIT;
    method_single_card(v, d, &line);
    buf_reset(&line);
    method_multi_gpu(v, d, &line);
    buf_reset(&line);
    method_cost(v, d, &line);
    buf_free(&line);
    if (workload_is_llm(d->w))
        decide_llm_method(d, v);
    decide_demand_method(d, v);   /* serving: demand, replicas, redundancy */
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

/* The citation number of source, where the decision cites it; 0 when it does not. */
static int cite_number(const decision *d, const char *source)
{
    for (size_t i = 0; source && i < d->n_cites; i++)
        if (!strcmp(d->cite_ids[i], source))
            return (int)i + 1;
    return 0;
}

/* Whether the workload states its host's cost and power (not the KB's assumed figures). */
static int host_cost_stated(const decision *d)
{
    return !isnan(d->w->host_cost) && !d->fact_cite[KB_ASSUMED_HOST_COST];
}

static int host_power_stated(const decision *d)
{
    return !isnan(d->w->host_power_w) && !d->fact_cite[KB_ASSUMED_HOST_POWER];
}

/* One host in the hosts sentence: "workstation (4) CNY 8,978, 400 W", the workload's
 * figures where it states them (the price's kind and date are in --json's option.host). */
static void host_words(gw_buf *b, const decision *d, size_t h)
{
    const kb_host *host = &d->hosts[h];
    buf_printf(b, "%s (%g) ", host->kind, host->max_cards);
    decide_money(b, d, host_cost_stated(d) ? d->w->host_cost : d->host_prices[h]);
    if (!host_cost_stated(d))   /* the KB's price: its kind and date, as every price */
        buf_printf(b, " (%s, %s)", host->quality, host->as_of);
    buf_printf(b, ", %.0f W", host_power_stated(d) ? d->w->host_power_w : host->power_w);
}

/* The hosts the purchases go into, each once with its price and draw besides its cards (cited),
 * the workload's figures where it states them, the assumed host where none takes the cards. */
static void assume_hosts(view *list, const decision *d, gw_buf *b)
{
    const workload *w = d->w;
    int assumed = d->fact_cite[KB_ASSUMED_HOST_COST] || d->fact_cite[KB_ASSUMED_HOST_POWER];
    int any_used = 0;
    for (size_t i = 0; i < d->n_options && !any_used; i++)
        any_used = d->options[i].host != NULL;
    if (!any_used && !assumed && !host_cost_stated(d) && !host_power_stated(d))
        return;   /* no purchase goes into a host: nothing to say */
    view *m = view_list_push(list, view_map());
    view *cites = view_map_set(m, "cites", view_list());
    buf_reset(b);
    buf_puts(b, host_cost_stated(d) && host_power_stated(d)
                    ? "Hosts:"
                    : "Hosts, the smallest for a machine's cards (cards; W besides them):");
    int n = 0;
    for (size_t h = 0; h < d->n_hosts; h++) {
        int used = 0;
        for (size_t i = 0; i < d->n_options && !used; i++)
            used = d->options[i].host == &d->hosts[h];
        if (!used)
            continue;
        buf_puts(b, n++ ? "; " : " ");
        host_words(b, d, h);
        int cite = cite_number(d, d->hosts[h].source);
        if (cite && !(host_cost_stated(d) && host_power_stated(d)))
            view_list_push(cites, view_number(cite));
    }
    int both_stated = host_cost_stated(d) && host_power_stated(d);
    if (!n && both_stated) {
        buf_puts(b, " ");
        decide_money(b, d, w->host_cost);
        buf_printf(b, ", %.0f W (the workload's host_cost and host_power_w)", w->host_power_w);
    } else if (host_cost_stated(d) || host_power_stated(d)) {
        buf_printf(b, " (the workload's %s)", both_stated          ? "host_cost and host_power_w"
                                              : host_cost_stated(d) ? "host_cost"
                                                                    : "host_power_w");
    }
    if (assumed) {
        buf_printf(b, "%s%s: the KB's assumed ", n ? "; where none takes them" : "",
                   d->n_hosts ? "" : " none in the KB (gpuwise kb import kb/data/hosts.csv)");
        units_format_money(b, d->facts[KB_ASSUMED_HOST_COST].value,
                           d->facts[KB_ASSUMED_HOST_COST].unit, -1);
        buf_printf(b, " and %.0f W", d->facts[KB_ASSUMED_HOST_POWER].value);
        view_list_push(cites, view_number(d->fact_cite[KB_ASSUMED_HOST_COST]));
    }
    if (w->cards_per_host > 0)
        buf_printf(b, "; up to %g cards a machine (cards_per_host)", w->cards_per_host);
    buf_puts(b, ".");
    view_map_set_str(m, "text", buf_cstr(b));
}

/* Site power, support, staff and the cost of capital: each a cost line, or said not to be. */
static void assume_running(view *list, const decision *d, gw_buf *b)
{
    const workload *w = d->w;
    gw_buf unstated = GW_BUF_INIT;
    int support_cite = d->fact_cite[KB_ASSUMED_SUPPORT];
    if (isnan(w->site_power_kw)) {
        buf_puts(&unstated, "site power and colocation (site_power_kw)");
    } else {
        buf_reset(b);
        buf_printf(b, "The site takes %g kW (site_power_kw); a purchase's draw above it is in "
                      "colocation at ",
                   w->site_power_kw);
        decide_money(b, d, d->colocation_per_kw_month);
        buf_puts(b, " per kW a month, its electricity still at the workload's price.");
        assume(list, buf_cstr(b), d->fact_cite[KB_ASSUMED_COLOCATION], 0);
    }
    if (isnan(w->upkeep_hours_per_month) || isnan(w->upkeep_rate)) {
        buf_printf(&unstated, "%sstaff (upkeep_hours_per_month, upkeep_rate)",
                   unstated.len ? ", " : "");
    } else {
        buf_reset(b);
        buf_printf(b, "Staff time: %g hours a month at ", w->upkeep_hours_per_month);
        decide_money(b, d, w->upkeep_rate);
        buf_puts(b, " an hour.");
        assume(list, buf_cstr(b), 0, 0);
    }
    if (w->discount_rate > 0) {
        buf_reset(b);
        buf_printf(b, "Later payments and resale at present value, %g%% a year (discount_rate): "
                      "over %g months, 1 a month counts %.4g and a resale %.4g.",
                   w->discount_rate * 100, w->horizon_months,
                   cost_present_months(w->horizon_months, w->discount_rate),
                   cost_present_factor(w->horizon_months, w->discount_rate));
        assume(list, buf_cstr(b), 0, 0);
    } else {
        buf_printf(&unstated, "%sdiscounting (discount_rate)", unstated.len ? ", " : "");
    }
    buf_reset(b);
    buf_printf(b, "Support%s: %g%% of the hardware's price a year%s",
               support_cite ? ", assumed (support_fraction)" : "", w->support_fraction * 100,
               support_cite ? ", data-centre cards and servers only, not consumer or workstation "
                              "cards, which carry their warranty"
                            : " (the workload's support_fraction)");
    if (unstated.len)
        buf_printf(b, "; unstated, not counted: %s", buf_cstr(&unstated));
    buf_puts(b, ".");
    assume(list, buf_cstr(b), support_cite, 0);
    buf_free(&unstated);
}

/* The assumptions' sentence on training's calibrated utilisation ("A GPU computes the model at
 * 64% of its dense tensor rate: calibrated on ..."; where several vendors' rows calibrate, one
 * clause a calibration: "...: NVIDIA GPUs 64% (calibrated on ...); AMD GPUs 41% (...)"),
 * appended to b and 1; 0 where no calibration has measured rows (b untouched). */
static int train_calibration_words(decision *d, size_t calibrations, gw_buf *b)
{
    int said = 0;
    for (size_t i = 0; i < calibrations; i++) {
        decide_llm_calibration_use(d, i);
        if (!d->llm_mfu_rows)
            continue;
        if (calibrations == 1) {
            buf_printf(b, "A GPU computes the model at %.0f%% of its dense tensor rate: %s",
                       d->llm_mfu * 100, decide_llm_calibration_words(d));
        } else {
            buf_puts(b, said ? "; " : "A GPU computes the model at a share of its dense tensor "
                                      "rate calibrated apart for its vendor: ");
            decide_llm_calibration_vendors(d, "", b);
            buf_printf(b, " %.0f%% (%s)", d->llm_mfu * 100, decide_llm_calibration_words(d));
        }
        said++;
    }
    if (said)
        buf_puts(b, " (llm.calibrations in --json names them).");
    return said;
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
    assume_hosts(list, d, b);
    int several = 0;
    for (size_t i = 0; i < d->n_options; i++)
        several |= d->options[i].hosts > 1 && !d->options[i].system &&
                   d->options[i].acquisition != DECIDE_RENT;
    if (several) {
        buf_reset(b);
        buf_printf(b, "A purchase of several machines links them by a %g Gb/s network, %s; its "
                      "switch and cables are not costed.",
                   w->network_gbps, d->fact_cite[KB_ASSUMED_HOST_NETWORK]
                                        ? "assumed (network_gbps)"
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
    buf_printf(b, "Resale%s: %.0f%% of the cards' (or a whole server's) price at the horizon, "
                  "not the hosts'.",
               d->fact_cite[KB_ASSUMED_RESALE] ? ", assumed (resale_fraction)"
                                               : " (the workload's resale_fraction)",
               w->resale_fraction * 100);
    assume(list, buf_cstr(b), d->fact_cite[KB_ASSUMED_RESALE], 0);
    assume_running(list, d, b);
}

view *decide_assumptions_view(const decision *d)
{
    const workload *w = d->w;
    view *list = view_list();
    gw_buf b = GW_BUF_INIT;
    assume_ownership(list, d, &b);
    assume(list, "Cards draw their rated board power (TDP) under load.", 0, 0);
    buf_reset(&b);
    decide_price_rule_sentence(&b, d);   /* decide_options.c */
    assume(list, buf_cstr(&b), 0, 0);
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
        decide_rate_sentence(&b, d, &d->rates[i]);
        assume(list, buf_cstr(&b), d->rates[i].cite, 0);
    }
    if (workload_is_llm(w)) {
        buf_reset(&b);
        int serving = decide_str_eq(w->task, "inference");
        double mfu = d->facts[KB_ASSUMED_LLM_MFU].value;
        int mfu_cite = d->fact_cite[KB_ASSUMED_LLM_MFU], bw_cite = 0;
        size_t calibrations = decide_llm_calibrations((decision *)d);
        int calibrated = 0;   /* on measured rows (decide_llm_calibration.c), one a vendor */
        for (size_t i = 0; serving && i < calibrations; i++) {
            decide_llm_calibration_use((decision *)d, i);
            if (calibrated)
                buf_puts(&b, " ");
            calibrated |= decide_llm_assumption_words((decision *)d, &b);
        }
        if (calibrated) {
            mfu_cite = 0;
        } else if (serving) {
            buf_printf(&b, "A GPU computes the model at %.0f%% of its dense tensor rate and reads "
                           "memory while generating at %.0f%% of its bandwidth: stated figures, "
                           "not measurements of this stack.",
                       mfu * 100, d->facts[KB_ASSUMED_DECODE_BANDWIDTH].value * 100);
            bw_cite = d->fact_cite[KB_ASSUMED_DECODE_BANDWIDTH];
        } else if (train_calibration_words((decision *)d, calibrations, &b)) {
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
    buf_reset(&b);
    if (workload_is_job(w))
        buf_printf(&b, "Renting: a job pays the offer's price for the hours its runs take, "
                       "rounded up to whole steps of the offer's minimum billing where the KB "
                       "states one (AWS's Capacity Blocks: whole days of 24 h%s); charges an "
                       "offer's note names besides the price (storage, transfer, machine images) "
                       "are not added.",
                   has_long_billing(d) ? long_billing_words : "");
    else
        buf_puts(&b, "Renting: the offer's price for the same hours of use as owning, except that "
                     "an offer with a minimum billing is billed at least that for each day of "
                     "use, up to the whole day (AWS's Capacity Blocks: 24 h a day); charges an "
                     "offer's note names besides the price (storage, transfer, machine images) "
                     "are not added.");
    assume(list, buf_cstr(&b), 0, 0);
    buf_free(&b);
    return list;
}
