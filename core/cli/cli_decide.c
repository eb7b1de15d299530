/* cli_decide.c — the `gpuwise decide` command: ranked options in the terminal, or the whole
 * decision as JSON (--json), the same tree the justification template reads. */
#include "cli_decide.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide_speed.h"
#include "ingest/records.h"
#include "base/term.h"
#include "base/units.h"

void cli_decision_free(cli_decision *c)
{
    decision_free(c->d);
    workload_free(c->w);
    plugin_host_free(c->host);
    if (c->k)
        kb_close(c->k);
    memset(c, 0, sizeof *c);
}

int cli_decision_run(gw_ctx *ctx, const char *path, unsigned flags, cli_decision *out,
                     gw_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = cli_open_kb(ctx, 0, &out->k, err);
    if (rc == GW_OK)
        rc = workload_load(path, out->k, &out->w, err);
    /* Only the rules take part in deciding; other kinds are loaded by whoever needs them. */
    if (rc == GW_OK)
        rc = cli_plugins_new(ctx, out->k, &out->host, err);
    if (rc == GW_OK)
        rc = plugin_host_load_kind(out->host, "rule", err);
    if (rc == GW_OK)
        rc = decide_run(out->k, out->host, out->w, flags, &out->d, err);
    if (rc != GW_OK)
        cli_decision_free(out);
    return rc;
}

/* An option as the table names it: the GPU's id, and where the cards are (a system, several
 * machines, several instances) in brackets.  Into label (labelsz bytes). */
static void option_label(const decide_option *o, char *label, size_t labelsz)
{
    char where[80] = "";
    if (o->system && o->hosts > 1)
        snprintf(where, sizeof where, " (%dx %.40s)", o->hosts, o->system->id);
    else if (o->system)
        snprintf(where, sizeof where, " (%.40s)", o->system->id);
    else if (!o->system && o->hosts > 1 && o->acquisition != DECIDE_RENT)
        snprintf(where, sizeof where, " (%d hosts)", o->hosts);
    gw_buf gpus = GW_BUF_INIT;   /* "4x ", a slice's "1/6 x " (ASCII: the table pads bytes) */
    decide_option_gpus_words(&gpus, o, "x");
    if (o->acquisition == DECIDE_RENT && o->hosts > 1)
        snprintf(label, labelsz, "rent %s%s (%s x%d)", buf_cstr(&gpus), o->gpu->id, o->provider,
                 o->hosts);
    else if (o->acquisition == DECIDE_RENT)
        snprintf(label, labelsz, "rent %s%s (%s)", buf_cstr(&gpus), o->gpu->id, o->provider);
    else
        snprintf(label, labelsz, "%s %dx %s%s",
                 o->acquisition == DECIDE_BUY_USED ? "used" : "new", o->count, o->gpu->id, where);
    buf_free(&gpus);
}

/* Its rank, "-" for none.  A price held back (decide_option.h) is ranked after every other
 * feasible option and never recommended: its rank in brackets (the legend says so). */
static void option_rank(const decide_option *o, char *rank, size_t ranksz)
{
    if (o->rank && o->held_back)
        snprintf(rank, ranksz, "(%d)", o->rank);
    else if (o->rank)
        snprintf(rank, ranksz, "%d", o->rank);
    else
        snprintf(rank, ranksz, "-");
}

/* An amount without its currency, as units_format_money writes it with decimals. */
static void money_cell(char *cell, size_t cellsz, double amount, int decimals)
{
    gw_buf b = GW_BUF_INIT;
    units_format_money(&b, amount, "", decimals);
    snprintf(cell, cellsz, "%s", buf_cstr(&b));
    buf_free(&b);
}

/* One option's row of the table, and the line saying why it was excluded. */
static void print_option_row(FILE *f, const decision *d, const decide_option *o,
                             double max_age_days)
{
    char label[128], rank[16], fit[16], dated[16];
    char upfront[32], total[32], per_unit[32] = "-", rules[16] = "-", ranked[32] = "-";
    option_label(o, label, sizeof label);
    option_rank(o, rank, sizeof rank);
    /* GB needed / GB a GPU holds as its driver reports it (85.5 for an 80 GB H100) */
    snprintf(fit, sizeof fit, "%.0f/%.0f", o->per_card_gb, decide_option_memory_gb(o));
    money_cell(upfront, sizeof upfront, o->committed, 0);
    money_cell(total, sizeof total, o->cost.total, 0);
    if (!isnan(o->per_unit))   /* three decimals under 10: close figures stay apart */
        money_cell(per_unit, sizeof per_unit, o->per_unit, o->per_unit < 10 ? 3 : 2);
    if (o->feasible && isfinite(o->score) && isfinite(o->per_unit) && o->per_unit > 0) {
        snprintf(rules, sizeof rules, "x%.2f", o->score / o->per_unit);
        money_cell(ranked, sizeof ranked, o->score, o->score < 10 ? 3 : 2);
    }
    snprintf(dated, sizeof dated, "%.10s%s", o->price_as_of ? o->price_as_of : "-",
             o->price_age_days > max_age_days ? "*" : "");
    char speed[32] = "unknown";   /* no speed: the excluded line under the row says why */
    if (isfinite(o->throughput))
        snprintf(speed, sizeof speed, "%.*f", o->throughput < 100 ? 2 : 0, o->throughput);
    gw_buf cell = GW_BUF_INIT;   /* the label shown, cut on a character (term.h) */
    for (size_t cols = gw_term_field_cut(&cell, label, 44); cols < 44; cols++)
        buf_putc(&cell, ' ');
    fprintf(f, "%-4s %s %-8s %10s %-8s %-11s %12s %12s %12s %6s %12s\n", rank, buf_cstr(&cell),
            fit, speed, isfinite(o->throughput) ? decide_speed_kind(d, o) : "-", dated, upfront,
            total, per_unit, rules, ranked);
    buf_reset(&cell);
    gw_buf slice = GW_BUF_INIT;   /* a slice: its share, memory and price per whole GPU-hour */
    decision_slice_words(&slice, d, o);
    if (slice.len)
        fprintf(f, "     slice: %s\n", gw_term_safe(&cell, buf_cstr(&slice)));
    buf_free(&slice);
    if (!o->feasible && o->excluded_because)
        fprintf(f, "     excluded: %s\n", gw_term_safe(&cell, o->excluded_because));
    else if (o->held_back_because)
        fprintf(f, "     held back: %s\n", gw_term_safe(&cell, o->held_back_because));
    buf_free(&cell);
}

/* The legend of the bracketed ranks (each row says why under it). */
static void print_held_back_legend(FILE *f)
{
    fprintf(f, "(N): held back (why: under its row): ranked after the others and never "
               "recommended\n");
}

static void print_table(FILE *f, const decision *d, double max_age_days)
{
    size_t n = decision_option_count(d);
    /* options are ranked by "ranked by": the cost per unit times the rules' adjustment */
    /* "committed" is the cash the budget is held to; "price of" when the price was observed, an
     * asterisk past the workload's price_max_age_days */
    fprintf(f, "%-4s %-44s %-8s %10s %-8s %-11s %12s %12s %12s %6s %12s\n", "rank", "option",
            "fits", "speed/s", "basis", "price of", "committed", "total", "per unit", "rules",
            "ranked by");
    int held_back = 0;
    for (size_t i = 0; i < n; i++) {
        const decide_option *o = decision_option_at(d, i);
        held_back |= o->held_back && o->feasible;
        print_option_row(f, d, o, max_age_days);
    }
    if (held_back)
        print_held_back_legend(f);
}

/* What follows the table: what was not considered, the recommendation (or why none), what
 * the answer is most sensitive to, a language model's layout and accuracy; from the summary
 * (decision_to_summary_view) as a terminal shows it. */
static void print_summary(FILE *f, const view *model)
{
    /* nothing silent: what was not considered, grouped by reason */
    const view *groups = view_map_get(model, "not_considered_groups");
    if (view_len(groups)) {
        fprintf(f, "\nNot considered (%lld):\n",
                (long long)view_num(view_map_get(model, "not_considered_count")));
        for (size_t i = 0; i < view_len(groups); i++) {
            const view *g = view_list_at(groups, i);
            fprintf(f, "  - %s (%lld): %s\n", view_str(view_map_get(g, "reason")),
                    (long long)view_num(view_map_get(g, "count")),
                    view_str(view_map_get(g, "names")));
        }
    }
    const view *rec = view_map_get(model, "recommendation");
    const char *label = view_str(view_map_get(rec, "label"));
    if (label) {
        fprintf(f, "\nRecommendation: %s\n", label);
        const view *because = view_map_get(rec, "because");
        for (size_t i = 0; i < view_len(because); i++)
            fprintf(f, "  - %s\n", view_str(view_list_at(because, i)));
        const char *layout = view_str(view_map_get(view_map_get(model, "llm"), "layout_text"));
        if (layout)   /* a served language model: how its GPUs are laid out */
            fprintf(f, "Layout: %s\n", layout);
    } else {   /* "no option is feasible: the closest, ...", as the exit's message */
        const char *none = view_str(view_map_get(view_map_get(model, "no_recommendation"),
                                                 "text"));
        if (none)
            fprintf(f, "\n%c%s.\n", toupper((unsigned char)none[0]), none + 1);
    }
    const view *sens = view_map_get(model, "sensitivity");
    const char *most = view_str(view_map_get(sens, "moves_most_name"));
    if (most)
        fprintf(f, "Most sensitive to: %s\n", most);
    const char *accuracy = view_str(view_map_get(view_map_get(model, "llm"), "accuracy_text"));
    if (accuracy)   /* a language model: how far its figures are from measured ones */
        fprintf(f, "Model accuracy: %s.\n", accuracy);
}

unsigned cli_decision_flags(const cli_args *args)
{
    return cli_flag(args, "all-options") ? DECIDE_ALL_OPTIONS : 0;
}

static int cmd_decide(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    cli_decision c;
    /* Only JSON shows the trace, so only JSON pays for recording it. */
    int rc = cli_decision_run(ctx, args->argv[0],
                              cli_decision_flags(args) | (ctx->json ? DECIDE_TRACE : 0), &c, err);
    if (rc != GW_OK)
        return rc;
    /* The text prints its table from the options themselves and reads only the summary of
     * the model, so it builds no option's view (with 20,000 offers that was a third of it). */
    view *model = ctx->json ? decision_to_view(c.d) : decision_to_summary_view(c.d);
    if (!ctx->json) {   /* the text reads the model's strings as a terminal shows them */
        view *shown = view_term_copy(model);
        view_free(model);
        model = shown;
    }
    if (ctx->json) {
        gw_buf out = GW_BUF_INIT;
        view_to_json(model, &out, 1);
        rc = cli_write_output(ctx, buf_cstr(&out), out.len, err);
        buf_free(&out);
    } else {
        /* The table is written to memory first so that -o FILE gets it atomically too. */
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f) {
            view_free(model);
            cli_decision_free(&c);
            return gw_error_set(err, GW_EIO, "out of memory");
        }
        gw_buf name = GW_BUF_INIT;
        fprintf(f, "%s — %s; amounts in %s, per unit = per %s\n\n",
                gw_term_safe(&name, c.w->name),
                view_str(view_map_get(model, "throughput_unit")), c.w->currency,
                view_str(view_map_get(model, "work_unit")));
        buf_free(&name);
        print_table(f, c.d, c.w->price_max_age_days);
        print_summary(f, model);
        fclose(f);
        rc = cli_write_output(ctx, text, len, err);
        free(text);
    }
    view_free(model);
    if (rc == GW_OK)
        rc = cli_decision_verdict(&c, err);
    cli_decision_free(&c);
    return rc;
}

int cli_decision_verdict(const cli_decision *c, gw_error *err)
{
    int none_feasible;
    char *none = decision_no_recommendation(c->d, &none_feasible);
    /* held back: a ranking to re-quote, an answer; none feasible: no answer */
    int rc = none && none_feasible ? gw_error_set(err, GW_NO_OPTION, "%s: %s", c->w->path, none)
                                   : GW_OK;
    free(none);
    return rc;
}

static const cli_option decide_options[] = {
    CLI_ALL_OPTIONS_OPTION,
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command decide_commands[] = {
    {"decide", "WORKLOAD", 1, 1, CLI_FILE,
     "rank the ways to buy or rent GPUs for a workload",
     "Reads a workload file, considers every candidate GPU and count, bought new, bought used "
     "(`used_ok = true`) or rented from each stored cloud offer, and ranks the feasible ones by "
     "cost per unit of work, adjusted by the rule plugins' verdicts.  The text output is the "
     "ranked table (rank, option, memory fit: GB needed per GPU / GB a GPU holds as its driver "
     "reports it, speed and whether it was measured or scaled, "
     "cost up front, total and per unit of work, why an option fell out), the recommendation "
     "and what the answer is most sensitive to.\n\n"
     "The example workloads of this copy are in @EXAMPLES@.  For instance, from the source "
     "tree:\n\n"
     "    gpuwise decide examples/vision-team.lua\n"
     "    gpuwise decide examples/vision-team.lua --json -o decision.json\n\n"
     "The json output is the whole decision: workload, options (id, gpu, count, acquisition, "
     "provider, feasible, vram_needed_gb, throughput, time_to_finish_hours, power_w, cost, "
     "verdicts, rank), recommendation, robustness (p_best: how often it is the cheapest within "
     "the price ranges and speed bands), break_even, sensitivity, citations and trace (each "
     "step of the decision).  `gpuwise report` writes the same decision as a document.\n\n"
     "Exit status: 0 ok (also when every feasible option's price is held back: the output "
     "says so), 3 no option is feasible (the message names the closest and what it lacks; the "
     "table or json is written all the same), 64 usage, 65 a bad workload file (the message names the file, the "
     "field and what was expected; a candidate GPU the KB does not know is one) or no option "
     "at all (a module sold only in servers says which servers and instances the KB has), 66 "
     "a missing workload file, 70 a plugin error.",
     decide_options, CLI_FMT_TEXT | CLI_FMT_JSON, 0, cmd_decide, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_decide_group = {
    "decide", "rank the ways to buy or rent GPUs for a workload", NULL, decide_commands,
};
