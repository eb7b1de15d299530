/* cli_plugin.c — the `gpuwise plugin` commands: list the plugins found, check one file (shape and
 * a dry run, every problem with its line), write a new plugin from a skeleton, and run the
 * tests that sit beside plugins (NAME_test.lua). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/check.h"
#include "base/limits.h"
#include "base/term.h"
#include "cli.h"
#include "cli_listing.h"
#include "sandbox/plugin.h"
#include "ingest/kb_answer.h"
#include "ingest/records.h"
#include "base/clock.h"

/* ---- list ---- */

static const cli_column plugin_columns[] = {
    {"name", "Name"}, {"kind", "Kind"}, {"version", "Version"}, {"path", "Path"},
    {"overrides", "Overrides"}, {NULL, NULL},
};

static int plugin_list(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    (void)args;
    plugin_host *host;
    int rc = cli_plugins_open(ctx, NULL, &host, err);
    if (rc != GW_OK)
        return rc;
    view *list = view_list();
    for (size_t i = 0; i < plugin_count(host); i++) {
        plugin_info info;
        plugin_get_info(plugin_at(host, i), &info);
        view *m = view_list_push(list, view_map());
        view_map_set_str(m, "name", info.name);
        view_map_set_str(m, "kind", info.kind);
        view_map_set_str(m, "version", info.version);
        view_map_set_str(m, "description", info.description);
        view_map_set_str(m, "path", info.path);
        view_map_set_str(m, "overrides", info.overrides);
        view_map_set_bool(m, "compiled", info.compiled);
    }
    if (strcmp(ctx->format, "text") != 0) {
        rc = cli_listing_write(ctx, list, list, plugin_columns, err);
    } else {
        gw_buf out = GW_BUF_INIT;
        if (view_len(list) == 0)
            buf_puts(&out, "no plugins found\n");
        else
            buf_printf(&out, "%-20s %-10s %-8s %s\n", "NAME", "KIND", "VERSION", "PATH");
        /* every field shown, not obeyed (term.h): a file name may hold any byte but '/' */
        for (size_t i = 0; i < view_len(list); i++) {
            view *m = view_list_at(list, i);
            gw_term_cell(&out, view_str(view_map_get(m, "name")), 20, 0);
            buf_putc(&out, ' ');
            gw_term_cell(&out, view_str(view_map_get(m, "kind")), 10, 0);
            buf_putc(&out, ' ');
            gw_term_cell(&out, view_str(view_map_get(m, "version")), 8, 0);
            buf_putc(&out, ' ');
            gw_term_field(&out, view_str(view_map_get(m, "path")));
            buf_putc(&out, '\n');
            const char *over = view_str(view_map_get(m, "overrides"));
            if (over) {
                buf_printf(&out, "%-20s overrides ", "");
                gw_term_field(&out, over);
                buf_putc(&out, '\n');
            }
        }
        rc = cli_write_output(ctx, buf_cstr(&out), out.len, err);
        buf_free(&out);
    }
    view_free(list);
    plugin_host_free(host);
    return rc;
}

/* ---- check ---- */

/* One `plugin check`: the file and its --input, the problems found ("FILE:LINE: problem" lines,
 * as the text output prints them) and what the dry run handed back. */
typedef struct check_run {
    const char *file;
    const char *input_path;   /* NULL: no --input */
    char *text;               /* the input's bytes (NULL without --input) */
    size_t len;
    gw_buf problems;
    size_t n_problems;
    const char *dry_what;     /* "offers", "records" or "items"; NULL: no dry run */
    size_t dry_count;
} check_run;

/* The ctx table a pricing or importer plugin receives. */
static view *plugin_ctx_view(const char *input_path, const char *text, size_t len)
{
    view *c = view_map();
    if (input_path) {
        const char *base = strrchr(input_path, '/');
        view_map_set(c, "input", view_stringn(text, len));
        view_map_set_str(c, "input_name", base ? base + 1 : input_path);
    }
    char today[11];
    gw_today_date(today);
    view_map_set_str(c, "today", today);
    return c;
}

/* A failure as one problem: Lua's messages already begin with the file and line; the others are
 * put at `line`. */
static void problem_add(check_run *run, int line, const char *msg)
{
    if (strncmp(msg, run->file, strlen(run->file)) == 0)
        buf_printf(&run->problems, "%s\n", msg);
    else
        buf_printf(&run->problems, "%s:%d: %s\n", run->file, line, msg);
    run->n_problems++;
}

/* Each line of warnings as a problem at `line`. */
static void problem_lines(check_run *run, int line, const char *warnings)
{
    for (const char *s = warnings; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        buf_printf(&run->problems, "%s:%d: %.*s\n", run->file, line, (int)len, s);
        run->n_problems++;
        s += len + (nl ? 1 : 0);
    }
}

/* The problems ("FILE:LINE: problem" lines, as the text output prints them) as a JSON list of
 * {line, message}; a line that does not start with FILE:LINE: keeps line null. */
static view *problems_view(const char *file, const char *problems)
{
    view *list = view_list();
    size_t flen = strlen(file);
    for (const char *s = problems; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        view *m = view_list_push(list, view_map());
        int prefixed = len > flen + 1 && strncmp(s, file, flen) == 0 && s[flen] == ':';
        const char *digits = prefixed ? s + flen + 1 : s, *end = digits;
        while (prefixed && end < s + len && *end >= '0' && *end <= '9')
            end++;
        if (end > digits && end + 1 < s + len && end[0] == ':' && end[1] == ' ') {
            view_map_set_int(m, "line", strtol(digits, NULL, 10));
            view_map_set(m, "message", view_stringn(end + 2, (size_t)(s + len - end - 2)));
        } else {
            view_map_set(m, "line", view_null());
            view_map_set(m, "message", view_stringn(s, len));
        }
        s += len + (nl ? 1 : 0);
    }
    return list;
}

/* What `plugin check --json` writes: the file, whether it is ok, what the plugin says it is,
 * the dry run's count and the problems. */
static void check_json(gw_buf *out, const check_run *run, plugin *p)
{
    view *root = view_map();
    view_map_set_str(root, "file", run->file);
    view_map_set_bool(root, "ok", run->n_problems == 0);
    if (p) {
        plugin_info info;
        plugin_get_info(p, &info);
        view *m = view_map_set(root, "plugin", view_map());
        view_map_set_str(m, "name", info.name);
        view_map_set_str(m, "kind", info.kind);
        view_map_set_str(m, "version", info.version);
        view_map_set_str(m, "description", info.description);
    } else {
        view_map_set(root, "plugin", view_null());
    }
    if (run->dry_what) {
        view *d = view_map_set(root, "dry_run", view_map());
        view_map_set_int(d, "count", (long long)run->dry_count);
        view_map_set_str(d, "of", run->dry_what);
    } else {
        view_map_set(root, "dry_run", view_null());
    }
    view_map_set(root, "problems", problems_view(run->file, buf_cstr(&run->problems)));
    view_to_json(root, out, 1);
    view_free(root);
}

/* Opens the KB and a plugin host, then loads and shape-checks the file alone (*p: the plugin,
 * when it loads).  A file that does not load or run is a problem of the file, not an error. */
static int check_load(gw_ctx *ctx, check_run *run, kb **k, plugin_host **host, plugin **p,
                      gw_error *err)
{
    int rc = cli_open_kb(ctx, 0, k, err);
    if (rc == GW_OK)
        rc = plugin_host_new(NULL, 0, kb_answer_question, *k, NULL, host, err);
    if (rc != GW_OK)
        return rc;
    rc = plugin_host_check_file(*host, run->file, &run->problems, &run->n_problems, p, err);
    if (rc == GW_EDATA || rc == GW_ESOFTWARE) {
        problem_add(run, 1, err->msg);
        rc = GW_OK;
    }
    return rc;
}

/* A pricing plugin's offers(ctx) or an importer's import(ctx, text), and every record it hands
 * back checked as prices refresh or kb import would check it, with nothing stored. */
static void dry_run_records(check_run *run, kb *k, plugin *p, const plugin_info *info)
{
    int pricing = !strcmp(info->kind, "pricing");
    const char *fn = pricing ? "offers" : "import";
    view *call_args[2] = {plugin_ctx_view(run->input_path, run->text, run->len),
                          view_stringn(run->text ? run->text : "", run->text ? run->len : 0)};
    view *out = NULL;
    gw_error cerr = {0};
    int crc = plugin_call(p, fn, call_args, pricing ? 1 : 2, &out, &cerr);
    int line = plugin_function_line(p, fn);
    if (crc == GW_OK && pricing &&
        records_check_plugin_sources(p, k, out, "offers", &cerr) != GW_OK)
        crc = cerr.code;   /* what prices refresh refuses */
    if (crc != GW_OK) {
        problem_add(run, line, cerr.msg);
    } else {
        gw_buf warnings = GW_BUF_INIT;
        records_result res = {0};
        gw_error serr = {0};
        int src = pricing
                      ? records_store_offers(k, info->name, NULL, out, 1, &warnings, &res, &serr)
                      : records_store_imported(k, info->name, NULL, out, 1, &warnings, &res, &serr);
        if (src != GW_OK)
            buf_printf(&warnings, "%s\n", serr.msg);
        problem_lines(run, line, buf_cstr(&warnings));
        buf_free(&warnings);
        run->dry_count = res.stored;
        run->dry_what = pricing ? "offers" : "records";
    }
    view_free(out);
    view_free(call_args[0]);
    view_free(call_args[1]);
}

/* A checklist's items: that the field can be read, and how many there are. */
static void dry_run_items(check_run *run, plugin *p)
{
    view *items = NULL;
    gw_error cerr = {0};
    if (plugin_get_field(p, "items", &items, &cerr) != GW_OK) {
        buf_printf(&run->problems, "%s:1: %s\n", run->file, cerr.msg);
        run->n_problems++;
    }
    run->dry_count = view_len(items);
    run->dry_what = "items";
    view_free(items);
}

/* The dry run of a plugin that loaded without problems, for the kinds that have one; then the
 * lines it logged, on the diagnostic stream. */
static void check_dry_run(gw_ctx *ctx, check_run *run, kb *k, plugin *p, plugin_info *info)
{
    plugin_get_info(p, info);
    if (!strcmp(info->kind, "pricing") || !strcmp(info->kind, "importer"))
        dry_run_records(run, k, p, info);
    else if (!strcmp(info->kind, "checklist"))
        dry_run_items(run, p);
    view *log = plugin_take_log(p);
    gw_buf shown = GW_BUF_INIT;   /* a plugin's words, shown and never obeyed (term.h) */
    for (size_t i = 0; i < view_len(log); i++)
        fprintf(ctx->diag, "%s: log: %s\n", info->name,
                gw_term_safe(&shown, view_str(view_list_at(log, i))));
    buf_free(&shown);
    view_free(log);
}

/* Writes the verdict: the problems, or "FILE: ok (...)", or --json; a file with problems is then
 * GW_EDATA, after the plugin's traceback on the diagnostic stream. */
static int check_report(gw_ctx *ctx, const check_run *run, plugin *p, const plugin_info *info,
                        gw_error *err)
{
    gw_buf out = GW_BUF_INIT;
    if (ctx->json) {
        check_json(&out, run, p);
    } else if (run->n_problems) {
        buf_puts(&out, buf_cstr(&run->problems));
    } else {
        buf_printf(&out, "%s: ok (%s plugin %s %s", run->file, info->kind, info->name,
                   info->version);
        if (run->dry_what)
            buf_printf(&out, "; dry run: %zu %s", run->dry_count, run->dry_what);
        buf_puts(&out, ")\n");
    }
    int rc = cli_write_output(ctx, buf_cstr(&out), out.len, err);
    buf_free(&out);
    if (rc == GW_OK && run->n_problems) {
        if (p && plugin_traceback(p)[0]) {   /* its lines, with a plugin's words in them */
            gw_buf shown = GW_BUF_INIT;
            gw_term_text(&shown, plugin_traceback(p), strlen(plugin_traceback(p)), GW_TERM_LINES);
            fprintf(ctx->diag, "%s\n", buf_cstr(&shown));
            buf_free(&shown);
        }
        size_t n = run->n_problems;
        rc = gw_error_set(err, GW_EDATA, "%s: %zu problem%s", run->file, n, n == 1 ? "" : "s");
    }
    return rc;
}

static int plugin_check(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    check_run run = {.file = args->argv[0], .input_path = cli_value(args, "input"),
                     .problems = GW_BUF_INIT};
    if (!cli_file_exists(run.file))
        return gw_error_set(err, GW_ENOINPUT, "%s: no such file", run.file);
    if (run.input_path) {
        int e = gw_read_input(run.input_path, GW_INPUT_PLUGIN_INPUT, &run.text, &run.len, err);
        if (e)
            return e;
    }
    kb *k = NULL;
    plugin_host *host = NULL;
    plugin *p = NULL;
    plugin_info info = {0};
    int rc = check_load(ctx, &run, &k, &host, &p, err);
    if (rc == GW_OK && p && run.n_problems == 0)
        check_dry_run(ctx, &run, k, p, &info);
    if (rc == GW_OK)
        rc = check_report(ctx, &run, p, &info, err);
    buf_free(&run.problems);
    plugin_host_free(host);
    kb_close(k);
    free(run.text);
    return rc;
}

/* ---- new ---- */

static const char pricing_skeleton[] =
    "-- %s.lua — a gpuwise pricing plugin: the cloud offers of one provider.\n"
    "-- Check it:   gpuwise plugin check %s\n"
    "-- Store it:   gpuwise prices refresh %s\n"
    "-- See it:     gpuwise offers\n"
    "-- The contract and the gw module are described in plugins/README.md.\n"
    "\n"
    "-- One row per instance type.  REPLACE these placeholder rows with your provider's\n"
    "-- published prices, and set as_of to the date of its price list.\n"
    "local prices = {\n"
    "  -- gpu name as people write it, GPUs per instance, price per hour, instance name\n"
    "  { gpu = \"H100 SXM\", count = 1, price = 2.50, instance = \"%s-1x-h100\" },\n"
    "  { gpu = \"H100 SXM\", count = 8, price = 20.00, instance = \"%s-8x-h100\" },\n"
    "  { gpu = \"A100 80GB SXM\", count = 1, price = 1.50, instance = \"%s-1x-a100\" },\n"
    "}\n"
    "\n"
    "return {\n"
    "  name = \"%s\",\n"
    "  kind = \"pricing\",\n"
    "  version = \"0.1\",\n"
    "  description = \"%s on-demand GPU prices\",\n"
    "\n"
    "  -- ctx.input holds the text of --input FILE when the user gives one (a saved price page\n"
    "  -- or CSV); this plugin has its prices in the table above, so it does not need it.\n"
    "  offers = function(ctx)\n"
    "    local offers = {}\n"
    "    for _, p in ipairs(prices) do\n"
    "      offers[#offers + 1] = {\n"
    "        provider = \"%s\",       -- offers of this provider are replaced on each refresh\n"
    "        gpu = p.gpu,              -- resolved against the KB (\"H100 SXM\", \"A100-80GB\")\n"
    "        gpu_count = p.count,\n"
    "        price_per_hour = p.price, -- for the whole instance\n"
    "        currency = \"USD\",        -- ISO 4217 code, stored as given\n"
    "        region = \"us\",\n"
    "        spot = false,\n"
    "        instance = p.instance,\n"
    "        as_of = \"%s\",    -- YYYY-MM-DD of the price list\n"
    "      }\n"
    "    end\n"
    "    return offers\n"
    "  end,\n"
    "}\n";

static const char importer_skeleton[] =
    "-- %s.lua — a gpuwise importer: turns a file into KB records.\n"
    "-- Run it:  gpuwise kb import --with %s FILE\n"
    "-- This one reads a CSV with the columns gpu,workload,metric,value,unit (one measured\n"
    "-- result a row); change the column names to those of your file.\n"
    "return {\n"
    "  name = \"%s\",\n"
    "  kind = \"importer\",\n"
    "  version = \"0.1\",\n"
    "  description = \"%s: measured results from a CSV file\",\n"
    "\n"
    "  -- text is the whole file; ctx.input_name its name.  Return a list of records:\n"
    "  -- {kind = \"gpu\" | \"benchmark\" | \"price\", ...} (see plugins/README.md).\n"
    "  import = function(ctx, text)\n"
    "    local records = {}\n"
    "    for i, row in ipairs(gw.csv.rows(text)) do\n"
    "      local value = tonumber(row.value)\n"
    "      if row.gpu and value then\n"
    "        records[#records + 1] = {\n"
    "          kind = \"benchmark\",\n"
    "          gpu = row.gpu,          -- resolved against the KB\n"
    "          workload = row.workload,\n"
    "          metric = row.metric,\n"
    "          value = value,\n"
    "          unit = row.unit,\n"
    "        }\n"
    "      else\n"
    "        gw.log(\"row \" .. (i + 1) .. \": no gpu or value, skipped\")\n"
    "      end\n"
    "    end\n"
    "    return records\n"
    "  end,\n"
    "}\n";

static const char rule_skeleton[] =
    "-- %s.lua — a gpuwise decision rule.  The decision engine calls evaluate for each\n"
    "-- option it considers (a GPU, a count, buy or rent) with the workload.\n"
    "return {\n"
    "  name = \"%s\",\n"
    "  kind = \"rule\",\n"
    "  prefers_at_most = 0,   -- the most its preferences on one option weigh together\n"
    "  version = \"0.1\",\n"
    "  description = \"%s: say what this rule checks\",\n"
    "\n"
    "  -- Return a list of verdicts {effect = \"exclude\" | \"prefer\" | \"warn\", weight, because}\n"
    "  -- (an empty list when the rule has nothing to say).\n"
    "  evaluate = function(option, workload)\n"
    "    local verdicts = {}\n"
    "    if option.memory_gb and workload.min_memory_gb\n"
    "       and option.memory_gb < workload.min_memory_gb then\n"
    "      verdicts[#verdicts + 1] = {\n"
    "        effect = \"exclude\", weight = 1,\n"
    "        because = \"has less memory than the workload needs\",\n"
    "      }\n"
    "    end\n"
    "    return verdicts\n"
    "  end,\n"
    "}\n";

static const char checklist_skeleton[] =
    "-- %s.lua — a gpuwise hardware checklist: questions to ask before paying.\n"
    "return {\n"
    "  name = \"%s\",\n"
    "  kind = \"checklist\",\n"
    "  version = \"0.1\",\n"
    "  description = \"%s: what this checklist is for\",\n"
    "\n"
    "  items = {\n"
    "    { id = \"driver-loads\", question = \"Does nvidia-smi list every GPU?\",\n"
    "      how_to_check = \"Run nvidia-smi -q -x and count the <gpu> entries.\",\n"
    "      severity = \"critical\" },\n"
    "  },\n"
    "\n"
    "  -- Optional: answer items from an inspection (an nvidia-smi -q -x dump, read by the core).\n"
    "  -- evaluate = function(inspection) return {} end,\n"
    "}\n";

/* mkdir -p for the folders above path. */
static int make_parents(const char *path)
{
    char tmp[4200];
    if (strlen(path) >= sizeof tmp)
        return ENAMETOOLONG;
    strcpy(tmp, path);
    for (char *s = tmp + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return errno;
        *s = '/';
    }
    return 0;
}


/* The kinds `plugin new` writes (plugin_kind_folder knows their folders). */
#define PLUGIN_KINDS "pricing, importer, rule or checklist"

static int plugin_new(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *kind = args->argv[0], *name = args->argv[1];
    const char *folder = plugin_kind_folder(kind);
    if (!folder) {
        static const char *const kinds[] = {"pricing", "importer", "rule", "checklist", NULL};
        const char *near = gw_closest(kind, kinds);
        return gw_error_set(err, GW_EUSAGE, "KIND is " PLUGIN_KINDS ", not '%s'%s%s%s", kind,
                            near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    if (!plugin_name_valid(name))
        return gw_error_set(err, GW_EUSAGE, "NAME uses lower-case letters, digits and '-', "
                                            "starting with a letter or digit (e.g. acme), not "
                                            "'%s'", name);
    char path[4400];
    if (cli_value(args, "output"))
        snprintf(path, sizeof path, "%s", cli_value(args, "output"));
    else
        snprintf(path, sizeof path, "%s/plugins/%s/%s.lua", ctx->user_config_dir, folder, name);
    /* The provider's display name: "acme-gpu" -> "Acme-gpu". */
    char display[80];
    snprintf(display, sizeof display, "%s", name);
    if (display[0] >= 'a' && display[0] <= 'z')
        display[0] = (char)(display[0] - 'a' + 'A');
    char today[11];
    gw_today_date(today);
    gw_buf b = GW_BUF_INIT;
    if (!strcmp(kind, "pricing"))
        buf_printf(&b, pricing_skeleton, name, path, name, name, name, name, name, display,
                   display, today);
    else if (!strcmp(kind, "importer"))
        buf_printf(&b, importer_skeleton, name, name, name, display);
    else if (!strcmp(kind, "rule"))
        buf_printf(&b, rule_skeleton, name, name, display);
    else
        buf_printf(&b, checklist_skeleton, name, name, display);
    /* Not cli_write_output: its rename would replace a plugin someone has already edited.
     * Another user's planted link is not followed (buf.h). */
    char *file = NULL;
    int rc = gw_path_resolve_safe(path, &file, err);
    int e = rc == GW_OK ? make_parents(file) : 0;
    if (rc == GW_OK && !e)   /* linked into place: a plugin made there first stands (buf.h) */
        e = gw_write_file_new(file, b.data, b.len, 0666);
    free(file);
    if (rc == GW_OK && e == EEXIST)
        rc = gw_error_set(err, GW_ECANTCREAT, "%s: already exists (not overwritten)", path);
    else if (rc == GW_OK && e)
        rc = gw_write_failed(err, path, e);
    if (rc == GW_OK)
        fprintf(ctx->out, "wrote %s\nnext: edit it, then gpuwise plugin check %s\n", path, path);
    buf_free(&b);
    return rc;
}

/* ---- test ---- */

/* NAME_test.lua beside plugin_path, when it exists (caller frees). */
static char *test_path_for(const char *plugin_path)
{
    size_t n = strlen(plugin_path);
    if (n < 5 || strcmp(plugin_path + n - 4, ".lua") != 0)
        return NULL;
    gw_buf b = GW_BUF_INIT;
    buf_printf(&b, "%.*s_test.lua", (int)(n - 4), plugin_path);
    if (!cli_file_exists(buf_cstr(&b))) {
        buf_free(&b);
        return NULL;
    }
    return buf_detach(&b);
}

static int run_tests_of(gw_ctx *ctx, plugin *p, const char *test_path, size_t *passed,
                        size_t *failed, gw_error *err)
{
    view *results = NULL;
    int rc = plugin_run_tests(p, test_path, &results, err);
    if (rc != GW_OK)
        return rc;
    plugin_info info;
    plugin_get_info(p, &info);
    gw_buf name = GW_BUF_INIT, message = GW_BUF_INIT;   /* a test's words, shown (term.h) */
    for (size_t i = 0; i < view_len(results); i++) {
        view *r = view_list_at(results, i);
        int ok = view_bool_value(view_map_get(r, "ok"));
        gw_term_safe(&name, view_str(view_map_get(r, "name")));
        if (ok) {
            fprintf(ctx->out, "ok - %s: %s\n", info.name, buf_cstr(&name));
            (*passed)++;
        } else {
            fprintf(ctx->out, "not ok - %s: %s: %s\n", info.name, buf_cstr(&name),
                    gw_term_safe(&message, view_str(view_map_get(r, "message"))));
            (*failed)++;
        }
    }
    buf_free(&name);
    buf_free(&message);
    view *log = plugin_take_log(p);
    view_free(log);
    view_free(results);
    return GW_OK;
}


static int plugin_test(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *file = args->argc ? args->argv[0] : NULL;
    kb *k = NULL;
    plugin_host *host = NULL;
    size_t passed = 0, failed = 0, files = 0;
    int rc = cli_open_kb(ctx, 0, &k, err);
    if (rc == GW_OK && file) {
        plugin *p = NULL;
        if (!cli_file_exists(file))
            rc = gw_error_set(err, GW_ENOINPUT, "%s: no such file", file);
        if (rc == GW_OK)
            rc = plugin_host_new(NULL, 0, kb_answer_question, k, NULL, &host, err);
        if (rc == GW_OK)
            rc = plugin_host_load_file(host, file, &p, err);
        char *tp = rc == GW_OK ? test_path_for(file) : NULL;
        if (rc == GW_OK && !tp)
            rc = gw_error_set(err, GW_ENOINPUT, "%s: no test file beside it (NAME_test.lua)",
                              file);
        if (rc == GW_OK) {
            files++;
            rc = run_tests_of(ctx, p, tp, &passed, &failed, err);
        }
        free(tp);
    } else if (rc == GW_OK) {
        rc = cli_plugins_open(ctx, k, &host, err);
        for (size_t i = 0; rc == GW_OK && i < plugin_count(host); i++) {
            plugin_info info;
            plugin_get_info(plugin_at(host, i), &info);
            char *tp = test_path_for(info.path);
            if (!tp)
                continue;
            files++;
            gw_error terr = {0};
            if (run_tests_of(ctx, plugin_at(host, i), tp, &passed, &failed, &terr) != GW_OK) {
                fprintf(ctx->out, "not ok - %s: %s\n", info.name, terr.msg);
                failed++;
            }
            free(tp);
        }
    }
    if (rc == GW_OK) {
        fprintf(ctx->out, "%zu passed, %zu failed (%zu test file%s)\n", passed, failed, files,
                files == 1 ? "" : "s");
        if (failed)
            rc = gw_error_set(err, GW_FAILED, "%zu test%s failed", failed, failed == 1 ? "" : "s");
    }
    plugin_host_free(host);
    kb_close(k);
    return rc;
}

/* ---- the commands ---- */

static const cli_option check_options[] = {
    {"input", 0, "DATA", CLI_FILE, NULL,
     "the file handed to the dry run: `ctx.input` of a pricing plugin, the text an importer's "
     "`import()` reads (without it, no `ctx.input` and the text `\"\"`)", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

/* -o here names the new plugin's file: not written atomically (an existing file is never
 * replaced) and not a format, so plugin new describes it itself. */
static const cli_option plugin_new_options[] = {
    {"output", 'o', "FILE", CLI_FILE, NULL,
     "write the plugin to FILE instead of the user's plugin folder (never over an existing "
     "file)", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command plugin_commands[] = {
    {"plugin list", NULL, 0, 0, CLI_TEXT,
     "list every plugin found, with the shipped ones it overrides",
     "Lists every plugin found: name, kind, version and the file it was loaded from, and under "
     "a plugin that hides a shipped one of the same name, `overrides` and the shipped file.  "
     "JSON also gives each plugin's description and whether it was loaded from the copy "
     "compiled into the program (`compiled`: its text is exactly a shipped plugin's).  "
     "Exit status: 0 ok, 64 usage, 70 a plugin failed to load.",
     NULL, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_CSV | CLI_FMT_JSON, 0, plugin_list, NULL},
    {"plugin check", "FILE", 1, 1, CLI_FILE,
     "load a plugin file in the sandbox, check its shape and do a dry run",
     "Loads FILE in the sandbox (only FILE: not the other plugins), checks its shape (name, "
     "kind, version, the functions its kind needs) and does a dry run: a pricing plugin's "
     "`offers(ctx)`, an importer's `import(ctx, text)` on the text of `--input DATA` (or `\"\"`), "
     "a checklist's items; every record handed back is checked as `prices refresh` and "
     "`kb import` would check it, and nothing is stored.\n\n"
     "Prints every problem as `FILE:LINE: problem`, or `FILE: ok (KIND plugin NAME VERSION; "
     "dry run: N offers)`.  With `--json`: `{file, ok, plugin: {name, kind, version, "
     "description}, dry_run: {count, of}, problems: [{line, message}]}` (`plugin` is null when "
     "the file does not load, `dry_run` when no dry run was done).  What the plugin logs "
     "goes to standard error.  Exit status: 0 ok, 64 usage, 65 problems found, 66 no such file.",
     check_options, CLI_FMT_TEXT | CLI_FMT_JSON, 0, plugin_check, NULL},
    {"plugin new", "KIND NAME", 2, 2, CLI_CHOICE,
     "write a working, commented plugin to start from",
     "Writes a working, commented plugin of kind KIND (" PLUGIN_KINDS ") named NAME (lower-case "
     "letters, digits and `-`) to `$XDG_CONFIG_HOME/gpuwise/plugins/KINDS/NAME.lua` "
     "(`~/.config/gpuwise/...` when `$XDG_CONFIG_HOME` is unset), or to `-o FILE`, and prints "
     "the path.  An existing file is never overwritten.\n\n"
     "```\ngpuwise plugin new pricing acme\ngpuwise plugin check "
     "~/.config/gpuwise/plugins/pricing/acme.lua\n```\n\n"
     "Exit status: 0 ok, 64 usage (an unknown KIND, a bad NAME), 73 the file exists or cannot "
     "be written.",
     plugin_new_options, 0, 0, plugin_new, "pricing|importer|rule|checklist"},
    {"plugin test", "[FILE]", 0, 1, CLI_FILE,
     "run the tests beside a plugin (NAME_test.lua), or of every plugin that has them",
     "Runs `NAME_test.lua` beside the plugin file FILE: a chunk returning a table of `test_*` "
     "functions, each called with the plugin's table in the plugin's sandbox.  Without FILE, "
     "the tests of every plugin found that has a test file.  Prints `ok - PLUGIN: TEST` or "
     "`not ok - PLUGIN: TEST: message` per test, then `N passed, N failed (N test files)`.  "
     "Exit status: 0 all passed, 2 a test failed, 64 usage, 65 the plugin does not load "
     "(`plugin check` lists why), 66 no such file or no test file beside it, 70 a plugin "
     "failed or hit a limit.",
     NULL, 0, 0, plugin_test, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_plugin_group = {
    "plugin", "list, check, create and test Lua plugins",
    "Lua plugins: pricing sources, importers, decision rules and checklists.  Plugins are "
    "searched in `--plugins DIR` (repeatable), then `$XDG_CONFIG_HOME/gpuwise/plugins`, then "
    "the shipped plugins folder; in each, `pricing/`, `importers/`, `rules/`, `checklists/` and "
    "the folder itself.  A plugin found earlier hides a shipped one of the same name.  The "
    "limits every plugin call runs under (tests too) are set by `$GPUWISE_PLUGIN_INSTRUCTIONS`, "
    "`$GPUWISE_PLUGIN_MEMORY_MB` and `$GPUWISE_PLUGIN_SECONDS`; a plugin that hits one fails "
    "with exit 70.  Plugins run in a separate, confined worker process (no files, no network, "
    "no programs), killed at the deadline whatever it is doing.  The guide to writing plugins: "
    "`plugins/README.md`.",
    plugin_commands,
};
