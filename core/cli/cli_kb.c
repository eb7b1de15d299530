/* cli_kb.c — the `gpuwise kb` group: its commands and their options described once, in the table
 * that drives parsing, help, the manual and completion, and `kb models`, the model catalog.  Each
 * other command lives in the cli_kb_*.c file named for it; what they share is cli_kb_common.c. */
#include <stdio.h>
#include <string.h>

#include "cli_kb_common.h"
#include "cli_listing.h"
#include "base/view.h"

/* ---- kb models ---- */

static const cli_column model_columns[] = {
    {"id", "Id"}, {"name", "Name"}, {"params", "Parameters"}, {"active_params", "Active"},
    {"layers", "Layers"}, {"kv_heads", "KV heads"}, {"head_dim", "Head size"},
    {"context", "Context"}, {"hf_repo", "Hugging Face repo"}, {"source", "Source"},
    {NULL, NULL},
};

/* Every column of a model row, as the table description names them (numbers NaN: null). */
static void model_to_view(const kb_model *m, view *e)
{
    size_t n;
    const kb_column *cols = kb_table_columns(KB_MODELS, &n);
    for (size_t i = 0; i < n; i++) {
        if (cols[i].type == KB_TEXT)
            view_map_set_str(e, cols[i].name, kb_column_text(&cols[i], m));
        else
            view_map_set_num(e, cols[i].name, kb_column_number(&cols[i], m));
    }
}

/* A text column of a model row; "" where it is null (a model without a repo id). */
static const char *model_text(const view *r, const char *column)
{
    const char *s = cli_kb_str(r, column);
    return s ? s : "";
}

/* The widest text of a column, so that the table's columns line up whatever the ids. */
static int models_width(const view *l, const char *column, int least)
{
    int width = least;
    for (size_t i = 0; i < view_len(l); i++) {
        int len = (int)strlen(model_text(view_list_at(l, i), column));
        width = len > width ? len : width;
    }
    return width;
}

static void models_print(FILE *f, const view *m)
{
    const view *l = view_map_get(m, "models");
    int id_w = models_width(l, "id", 2), name_w = models_width(l, "name", 4);
    fprintf(f, "%-*s %-*s %9s %9s %6s %9s %8s  %s\n", id_w, "id", name_w, "name", "params",
            "active", "layers", "kv heads", "context", "hugging face repo");
    for (size_t i = 0; i < view_len(l); i++) {
        const view *r = view_list_at(l, i);
        double params = view_num(view_map_get(r, "params"));
        double active = view_num(view_map_get(r, "active_params"));
        char act[16] = "";
        if (active > 0)
            snprintf(act, sizeof act, "%.1fB", active / 1e9);
        const char *repo = model_text(r, "hf_repo");
        fprintf(f, "%-*s %-*s %8.1fB %9s %6.0f %4.0fx%-4.0f %8.0f  %s\n", id_w, model_text(r, "id"),
                name_w, model_text(r, "name"), params / 1e9, act,
                view_num(view_map_get(r, "layers")), view_num(view_map_get(r, "kv_heads")),
                view_num(view_map_get(r, "head_dim")), view_num(view_map_get(r, "context")),
                *repo ? repo : "-");
    }
}

static int cmd_models(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    (void)a;
    kb *k = NULL;
    kb_model *rows = NULL;
    size_t n = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK)
        rc = kb_models_list(k, &rows, &n, err);
    if (rc == GW_OK) {
        view *m = view_map();
        view *l = view_map_set(m, "models", view_list());
        for (size_t i = 0; i < n; i++)
            model_to_view(&rows[i], view_list_push(l, view_map()));
        if (!strcmp(ctx->format, "text"))
            rc = cli_kb_emit_text(ctx, models_print, m, err);
        else
            rc = cli_listing_write(ctx, m, l, model_columns, err);
        view_free(m);
    }
    kb_models_free(rows, n);
    kb_close(k);
    return rc;
}

/* ---- the commands ----------------------------------------------------------------------- */

static const cli_option list_options[] = {
    {"where", 0, "EXPR", CLI_TEXT, NULL,
     "only the GPUs the filter matches: conditions `FIELD OP VALUE` joined by `and` and `or`, "
     "grouped with parentheses (`gpuwise help kb` has the whole language); quote it, it is one "
     "argument", 0},
    {"sort", 0, "[-]FIELD", CLI_FIELD, NULL,
     "order by FIELD, lowest first, or highest first with a leading `-`; GPUs without the "
     "figure come last", 0},
    {"columns", 0, "A,B,...", CLI_FIELD, NULL,
     "the fields to show, comma-separated (the default: id, name, memory_gb, "
     "memory_bandwidth_gbs, tdp_w, fp16_tflops, nvlink_gbs); `md`, `csv` and `json` keep to "
     "them too", 0},
    {"currency", 0, "CUR", CLI_TEXT, NULL,
     "the currency of the price fields (USD, CNY, EUR, ...; the default: USD), converted with "
     "the KB's latest exchange rates", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_option show_options[] = {
    {"all", 0, NULL, CLI_TEXT, NULL,
     "list every measured result instead of their summary (`json` always lists them)", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_option search_options[] = {
    {"limit", 0, "N", CLI_TEXT, NULL, "at most N hits, from 1 to 1000 (the default: 20)", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_option import_options[] = {
    {"with", 0, "IMPORTER", CLI_IMPORTER, NULL,
     "convert FILE with this importer plugin first (`gpuwise plugin list` names them); one "
     "file only", 0},
    {"replace", 0, "SOURCE", CLI_TEXT, NULL,
     "replace every row that cites SOURCE: its rows the files do not hold are removed, in the "
     "same transaction", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command kb_commands[] = {
    {"kb show", "NAME", 1, 1, CLI_GPU,
     "one GPU's datasheet: specs, aliases, measured results, prices, disputed claims and "
     "sources",
     "Shows one GPU's datasheet: its specs, the other names it goes by, measured results, "
     "prices, the disputed claims about it, and the sources every figure comes from, numbered "
     "like footnotes.  For example `gpuwise kb show \"RTX 3090\"`.\n\n"
     "Measured results are summarised: one row per workload, metric and GPU count (and unit), "
     "with how many results it has, their median (the middle one, or the mean of the middle "
     "two), their range and the sources they cite; `--all` lists every result instead.\n\n"
     "`md` and `html` render the datasheet template; `json` gives every field under its stable "
     "snake_case name (the names `gpuwise kb fields` lists) with a `*_text` form for people "
     "beside each figure: `results_summary` (each with `workload`, `metric`, `gpu_count`, "
     "`precision`, `unit`, `rows`, `median`, `min`, `max`, `sources`), `results` (how many in "
     "all), `benchmarks` (every result) and `summarised` (false with `--all`).\n\n"
     "Exit status: 0 ok, 64 usage, 66 missing KB, 67 an unknown or ambiguous name.",
     show_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_HTML | CLI_FMT_JSON,
     CLI_TEMPLATE, cli_kb_show, NULL},
    {"kb compare", "NAME NAME...", 1, -1, CLI_GPU,
     "GPUs side by side; '*' marks the best value of each row",
     "Puts GPUs side by side, one column each, and marks the best value of each row with `*` "
     "(lower is better for TDP and price; no mark where the figures agree); the launch price "
     "is dated by the release (\"$1,499 (as of 2020-09)\").  A family name "
     "(`h100`, `a100`) stands for every variant it matches, and the variants are named on "
     "standard error; a GPU named twice is shown once.  From 2 to 16 GPUs.  For example "
     "`gpuwise kb compare 3090 \"A100 80GB\"`, `gpuwise kb compare h100 a100` or "
     "`gpuwise kb compare 4090 h100-sxm5 -o compare.html`.\n\n"
     "`md` and `html` render the comparison template, with charts; `json` gives each row's "
     "values, texts, marks and the index of the best.\n\n"
     "Exit status: 0 ok, 64 usage (fewer than two GPUs or more than 16), 67 an unknown name.",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_HTML | CLI_FMT_JSON,
     CLI_TEMPLATE, cli_kb_compare, NULL},
    {"kb list", NULL, 0, -1, CLI_TEXT,
     "a table of GPUs, filtered and sorted",
     "Lists the GPUs of the KB as a table, one row each, filtered with `--where` and sorted "
     "with `--sort`.  For example `gpuwise kb list --where 'memory_gb>=48 and nvlink_gbs>0' "
     "--sort -memory_bandwidth_gbs`.\n\n"
     "Besides the GPU fields, `--where`, `--sort` and `--columns` take these derived fields, "
     "the prices in `--currency` (USD unless given); a GPU without a new price has none of "
     "the price figures (they are empty, never 0, and sort last).  Every price is shown with "
     "its date: `--columns` with a price field and without `new_price_as_of` gets that column "
     "at the end, and `launch_price_usd` brings `release_date`:\n\n"
     "@KB_DERIVED_FIELDS@\n\n"
     "For example `gpuwise kb list --where 'memory_gb >= 24 and price_per_gb < 100' --sort "
     "price_per_fp16_tflops --columns id,new_price,new_price_as_of,price_per_gb,"
     "price_per_fp16_tflops --currency EUR`.\n\n"
     "`md` and `csv` write the columns the terminal table shows (the CSV header row is their "
     "field names); `json` gives the filter, the sort, the currency, the columns and every GPU "
     "with all its fields (each figure with a `FIELD_text` form for people), or only those of "
     "`--columns`.\n\n"
     "Exit status: 0 ok, 64 usage (an unknown field, a bad filter, a malformed currency), 67 a "
     "currency the KB has no exchange rate for.",
     list_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV, 0, cli_kb_list, NULL},
    {"kb search", "TEXT...", 1, -1, CLI_TEXT,
     "full-text search over everything, ranked, with snippets and the command that opens each",
     "Searches everything in the KB: GPUs and their aliases, measured results, prices, "
     "sources, disputed claims, exchange rates and the figures the decision assumes.  Hits "
     "come best first (a GPU's own entry weighs double), each with a snippet in which `[` and "
     "`]` mark the words found.  Any text is accepted and read as plain words; when no entry "
     "has every word, entries with some of them are listed.  A word starting with `-` goes "
     "after `--`.\n\n"
     "Every hit carries the command that opens it: `gpuwise kb show ID` for an entry about a "
     "GPU (its datasheet shows the results, prices and claims), `gpuwise kb source ID` for a "
     "source, and for an exchange rate, an assumed figure or a claim about no one GPU, the "
     "source it cites.  Run it with the same `--kb`.\n\n"
     "`md` and `csv` write kind, ref, title, snippet and that command (`open`); `json` adds "
     "the rank, the GPU and the source of each hit.\n\n"
     "Exit status: 0 ok (also when nothing matches), 64 usage.",
     search_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV,
     0, cli_kb_search, NULL},
    {"kb sources", NULL, 0, 0, CLI_TEXT,
     "the sources, with how many facts cite each",
     "Lists every source of the KB (datasheets, whitepapers, benchmark tables, articles) with "
     "how many facts cite it: GPUs, measured results, prices, exchange rates, claims and "
     "assumed figures.  `gpuwise kb source ID` shows one with those facts.\n\n"
     "`md` and `csv` write id, fact count, title, publisher and retrieval date; `json` adds the "
     "URL, kind, note and the command that opens each.",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV, 0, cli_kb_sources, NULL},
    {"kb models", NULL, 0, 0, CLI_TEXT,
     "the model catalog: language models a workload can name",
     "Lists the KB's language models (kb/data/models.csv: Llama, Mistral, Mixtral, Qwen, "
     "DeepSeek, ...) with the architecture facts a workload's memory and speed are computed "
     "from: parameters (active ones for a mixture of experts), layers, KV heads x head size, "
     "context, and the Hugging Face repo id.  A workload names one by id, name or repo id, "
     "variant and quantized-copy suffixes aside (`model = \"llama-3-70b\"`, `model = "
     "\"meta-llama/Llama-3.1-8B-Instruct\"`).\n\n"
     "`md` and `csv` write the columns shown; `json` gives every column of the model table, "
     "the source and note included.",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON | CLI_FMT_CSV, 0, cmd_models, NULL},
    {"kb source", "ID", 1, 1, CLI_TEXT,
     "one source: title, publisher, URL, date, and every entry that cites it",
     "Shows one source (its id as `gpuwise kb sources` and `gpuwise kb search` give it): "
     "title, publisher, kind, retrieval date, URL and note, then every entry that cites it "
     "(a claim also when it cites it for its correction), each with the command that opens "
     "it.  For example `gpuwise kb source nvidia-a100-datasheet`.\n\n"
     "Exit status: 0 ok, 64 usage, 67 no source with that id (the closest is suggested).",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON, 0, cli_kb_source, NULL},
    {"kb check", NULL, 0, 0, CLI_TEXT,
     "integrity, foreign keys, every fact sourced (exit 65 if not)",
     "Checks the KB file: SQLite's integrity check, foreign keys, that every fact cites a "
     "source, and that the search index is complete.  The report is written either way; "
     "`json` gives `ok` and the report.\n\n"
     "Exit status: 0 the KB is sound, 65 it is not.",
     NULL, CLI_FMT_TEXT | CLI_FMT_JSON, 0, cli_kb_check, NULL},
    {"kb export", NULL, 0, 0, CLI_TEXT,
     "the whole KB as one CSV text bundle",
     "Writes the whole KB as one text file of CSV sections, one per table, to standard output "
     "or `-o FILE`.  `gpuwise kb import` reads it back into the same KB: exporting that again "
     "gives the same bytes.",
     NULL, 0, CLI_OUTPUT, cli_kb_export, NULL},
    {"kb import", "FILE...", 1, -1, CLI_FILE,
     "add table CSVs or an export, all in one transaction",
     "Adds table CSV files (those of `kb/data`, each table known from its header row) or a "
     "whole export, in any order and all in one transaction: every file is read before "
     "anything is stored, and one bad row leaves the KB as it was, naming the file and line.  "
     "A row identical to a stored one changes nothing; a row with the identity of a stored one "
     "updates it (what the row is about, without the figures and notes an edit changes), so "
     "an export edited and imported again updates the rows edited; other rows are added.  With "
     "`--replace SOURCE`, the rows that cite SOURCE and that the files do not hold are "
     "removed.  The files are RFC 4180 "
     "CSV in UTF-8, read in chunks: a quote inside an unquoted field, invalid UTF-8 or a control "
     "character other than tab and newline is refused with its file and line (and column, for "
     "a byte that is not text); a `#` "
     "line between records is a comment.  With `--with IMPORTER`, FILE is converted by that "
     "importer plugin first.\n\n"
     "It writes to `--kb` (or `$GPUWISE_KB`), else to the user's KB, made as a copy of the "
     "shipped one on first write; the shipped KB is never written.  The report gives each "
     "table's rows added, updated and removed (`json`: `tables.NAME.added`, `updated`, "
     "`unchanged`, `removed`, and `replaced_source`).\n\n"
     "```\ngpuwise kb export -o team.csv\ngpuwise kb import team.csv\n"
     "gpuwise kb import --replace our-quotes quotes.csv\n```\n\n"
     "Exit status: 0 ok, 64 usage, 65 a bad row, a file that is not a KB, or a row to remove "
     "that others still name, 66 a missing file, 67 no such `--replace` source, 75 another "
     "program is writing the KB.",
     import_options, CLI_FMT_TEXT | CLI_FMT_JSON, 0, cli_kb_import, NULL},
    {"kb upgrade", NULL, 0, 0, CLI_TEXT,
     "migrate an older KB file to this version's schema",
     "Migrates a KB file written by an older gpuwise to this version's schema, in place, and "
     "says which schema it has now.  Other commands read an older KB only after this.\n\n"
     "Exit status: 0 ok, 65 not a KB or one from a newer gpuwise, 66 missing, 75 busy.",
     NULL, CLI_FMT_TEXT | CLI_FMT_JSON, 0, cli_kb_upgrade, NULL},
    {"kb fields", NULL, 0, 0, CLI_TEXT,
     "the field names --where, --sort and --columns accept",
     "Lists the GPU fields, one a line with its type (text or number) after a tab: the names "
     "`--where`, `--sort` and `--columns` of `gpuwise kb list` accept and `gpuwise kb show "
     "--json` uses; then the derived fields only `kb list` has (a price per GB, TFLOPS per "
     "watt, ...), each with `derived:` and its label after a second tab.  `json` gives the "
     "names only.",
     NULL, CLI_FMT_TEXT | CLI_FMT_JSON, 0, cli_kb_fields, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_kb_group = {
    "kb", "look GPUs up, search, compare, import and export the knowledge base",
    "The knowledge base (KB) is an SQLite file of GPU specs, measured results, prices, "
    "exchange rates, claims and the figures the decision assumes, every fact citing its "
    "source.\n\n"
    "A GPU NAME is written the way people write it: `\"RTX 3090\"`, `3090`, `rtx_3090`, "
    "`\"A100 80GB\"`, `\"NVIDIA A100-SXM4-80GB\"`, `\"4x 3090\"`; case, spaces, dashes and "
    "underscores do not matter.  An `x` beside or glued to a whole number at either end is a "
    "count (`\"4x 3090\"`, `3090x4`, `\"H100 SXM5 x8\"`; `kb show` shows one card); a Laptop, "
    "Mobile or Max-Q name is only ever a laptop part, never the desktop card.  An ambiguous "
    "name lists the candidates and an unknown one suggests the closest (exit 67).\n\n"
    "Filters (`kb list --where`) are conditions `FIELD OP VALUE` joined by `and` (or `&&`) and "
    "`or` (or `||`) and grouped with parentheses, where OP is `=`, `!=`, `<`, `<=`, `>`, `>=` or "
    "`~` (contains), and VALUE a decimal number (`48`, `4.8e1`; no hex, `inf` or `nan`), a word "
    "or `'quoted text'`.  `and` binds tighter than `or`: `a or b and c` is `a or (b and c)`.  "
    "Text compares ignore case; `~` finds a part; a GPU without a figure matches no condition "
    "on it.  An unclosed `(`, a `)` without its `(` and an `and` or `or` without a condition on "
    "each side are errors that name their position (counted from 1).  `gpuwise kb fields` "
    "lists the fields, the derived ones of `kb list` too (a price per GB, TFLOPS per watt, "
    "...).  For example:\n\n"
    "    gpuwise kb list --where 'memory_gb>=48 and nvlink_gbs>0' \\\n"
    "        --sort -memory_bandwidth_gbs\n"
    "    gpuwise kb list --where \"name ~ 'ada' and tdp_w < 300\" --columns id,name,tdp_w\n"
    "    gpuwise kb list --where 'vendor = AMD or (memory_gb >= 80 and price_per_gb < 400)' \\\n"
    "        --sort price_per_gb --columns id,new_price,new_price_as_of,price_per_gb\n\n"
    "Tensor throughput is dense: a 2:4-sparse figure is never shown as if dense.\n\n"
    "Exit status: 64 usage, 65 bad data, 66 missing file, 67 unknown GPU, 75 KB busy.",
    kb_commands,
};
