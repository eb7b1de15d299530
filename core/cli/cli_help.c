/* cli_help.c — everything said about the command line, derived from the command tables (cli.h):
 * `--help`, `gpuwise help` (text, Markdown or JSON), the manual (gpuwise.1 is cli_manual_markdown
 * through cmark-gfm's man renderer; its prose around the tables and the workload field list is
 * core/cli/gpuwise.1.md) and `gpuwise complete`, which the shell completion scripts call. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "cli.h"
#include "manual_md.h"
#include "kb/kb_area.h"
#include "kb/kb_offers.h"
#include "model/workload.h"
#include "sandbox/plugin.h"
#include "render/render.h"

#define HELP_WIDTH 78
#define OPTION_COLUMN 24

/* "gpuwise kb show [OPTIONS] NAME" */
static void synopsis(gw_buf *b, const cli_command *c)
{
    buf_printf(b, "gpuwise %s", c->name);
    if (c->options || c->formats || (c->flags & (CLI_OUTPUT | CLI_TEMPLATE)))
        buf_puts(b, " [OPTIONS]");
    if (c->operands)
        buf_printf(b, " %s", c->operands);
}

/* "--sort KEY", "-o, --output FILE" */
static void option_label(gw_buf *b, const cli_option *o, int markdown)
{
    if (o->short_name)
        buf_printf(b, markdown ? "**-%c**, " : "-%c, ", o->short_name);
    buf_printf(b, markdown ? "**--%s**" : "--%s", o->name);
    if (o->arg)
        buf_printf(b, markdown ? " *%s*" : " %s", o->arg);
}

/* The option's sentence, with what the table says of it besides. */
static void option_help(gw_buf *b, const cli_option *o)
{
    buf_puts(b, o->help);
    if (o->choices) {
        buf_puts(b, " (one of ");
        for (const char *c = o->choices; *c; c++)
            buf_puts(b, *c == '|' ? ", " : (char[]){*c, 0});
        buf_putc(b, ')');
    }
    if (o->flags & CLI_REPEAT)
        buf_puts(b, "; may be given more than once");
}

/* The options a command takes, its own first, then the global ones that concern it. */
static size_t command_options(const cli_command *c, const cli_option **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; c->options && c->options[i].name && n < max; i++)
        out[n++] = &c->options[i];
    for (size_t i = 0; cli_global_options[i].name && n < max; i++) {
        const cli_option *g = &cli_global_options[i];
        int wanted = 0, own = 0;
        for (size_t j = 0; c->options && c->options[j].name; j++)
            own = own || !strcmp(c->options[j].name, g->name);
        if (own)
            continue;   /* the command describes it itself */
        if (!strcmp(g->name, "format") || !strcmp(g->name, "output"))
            wanted = c->formats != 0 || (!strcmp(g->name, "output") && (c->flags & CLI_OUTPUT));
        else if (!strcmp(g->name, "json"))
            wanted = (c->formats & CLI_FMT_JSON) != 0;
        else if (!strcmp(g->name, "template"))
            wanted = (c->flags & CLI_TEMPLATE) != 0;
        if (wanted)
            out[n++] = g;
    }
    return n;
}

/* "Writes text (the default), md, csv or json." */
static void formats_sentence(gw_buf *b, const cli_command *c)
{
    if (!c->formats)
        return;
    unsigned first = c->formats & -c->formats;
    buf_puts(b, "Output: ");
    cli_format_list(b, first);
    buf_puts(b, " (the default)");
    unsigned rest = c->formats & ~first;
    if (rest) {
        buf_puts(b, __builtin_popcount(rest) > 1 ? ", " : " or ");
        cli_format_list(b, rest);
    }
    buf_puts(b, (c->formats & CLI_FMT_JSON) ? ", chosen by `--format`, `--json` or the extension "
                                              "of `-o FILE`."
                                            : ", chosen by `--format` or the extension of "
                                              "`-o FILE`.");
}

static void wrap(gw_buf *out, const char *text, size_t indent, size_t first_used)
{
    size_t col = first_used;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t w = strcspn(p, " ");
        if (!w)
            break;
        if (col > indent && col + 1 + w > HELP_WIDTH) {
            buf_printf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            buf_putc(out, ' ');
            col++;
        }
        buf_append(out, p, w);
        col += w;
        p += w;
    }
    buf_putc(out, '\n');
}

/* Markdown inline (`code`, *emphasis*) as a terminal shows it: the marks dropped. */
static void plain_inline(gw_buf *out, const char *md)
{
    gw_buf t = GW_BUF_INIT;
    render_markdown_text(md, 0, &t);
    while (t.len && t.data[t.len - 1] == '\n')
        t.data[--t.len] = '\0';
    buf_puts(out, buf_cstr(&t));
    buf_free(&t);
}

/* Where the example workloads are: beside the program's data in a source tree, in the
 * documentation folder of an install (found from the data folder, so a relocated install names
 * its own), else where this build would install them.  ctx NULL: the manual's generic form. */
static void examples_path(gw_buf *out, const gw_ctx *ctx)
{
    char path[4300];
    if (!ctx) {
        buf_puts(out, "*PREFIX*/share/doc/gpuwise/examples (`examples/` in the source tree)");
        return;
    }
    snprintf(path, sizeof path, "%.4200s/examples", ctx->data_dir);
    if (cli_file_exists(path)) {
        buf_puts(out, path);
        return;
    }
    snprintf(path, sizeof path, "%.4200s/../doc/gpuwise/examples", ctx->data_dir);
    if (cli_file_exists(path)) {
        char *real = realpath(path, NULL);
        buf_puts(out, real ? real : path);
        free(real);
        return;
    }
    buf_puts(out, GW_DOCDIR "/examples");
}

/* The derived fields of `kb list` as a Markdown list, from their one description
 * (kb_gpu_derived): name, unit (CUR for the currency asked), label and how it is computed. */
static void derived_fields(gw_buf *out)
{
    const kb_derived *d;
    for (size_t i = 0; (d = kb_gpu_derived(i)) != NULL; i++) {
        /* the label inside a sentence: "Price per GB" reads "price per GB", "FP16 ..." stays */
        int lower = d->label[0] >= 'A' && d->label[0] <= 'Z' && d->label[1] >= 'a' &&
                    d->label[1] <= 'z';
        buf_printf(out, "%s- `%s`, %c%s", i ? "\n" : "", d->name,
                   lower ? d->label[0] - 'A' + 'a' : d->label[0], d->label + 1);
        if (d->money)
            buf_printf(out, " (CUR%s%s)", *d->unit ? " " : "", d->unit);
        else if (*d->unit)
            buf_printf(out, " (%s)", d->unit);
        buf_printf(out, ": %s.", d->how);
    }
}

/* "US, the United States; CA, Canada; ...; CN, mainland China": kb_area.c's areas. */
static void area_codes(gw_buf *out)
{
    for (size_t i = 0; kb_area_at(i); i++)
        buf_printf(out, "%s%s, %s", i == 0 ? "" : "; ", kb_area_at(i)->code,
                   kb_area_at(i)->covers);
}

/* text with its placeholders filled in: @EXAMPLES@ is where the example workloads are,
 * @KB_DERIVED_FIELDS@ the derived fields of `kb list`, @WORKLOAD_FIELDS@ a workload's fields,
 * @AREAS@ the areas an offer's region is read as. */
static void expand(gw_buf *out, const char *text, const gw_ctx *ctx)
{
    const char *at;
    while ((at = strchr(text, '@')) != NULL) {
        buf_append(out, text, (size_t)(at - text));
        if (!strncmp(at, "@EXAMPLES@", 10)) {
            examples_path(out, ctx);
            text = at + 10;
        } else if (!strncmp(at, "@KB_DERIVED_FIELDS@", 19)) {
            derived_fields(out);
            text = at + 19;
        } else if (!strncmp(at, "@WORKLOAD_FIELDS@", 17)) {
            cli_workload_fields_markdown(out);
            text = at + 17;
        } else if (!strncmp(at, "@AREAS@", 7)) {
            area_codes(out);
            text = at + 7;
        } else {
            buf_putc(out, '@');
            text = at + 1;
        }
    }
    buf_puts(out, text);
}

void cli_help_command(gw_buf *out, const gw_ctx *ctx, const cli_command *c)
{
    buf_puts(out, "usage: ");
    synopsis(out, c);
    buf_puts(out, "\n\n");
    gw_buf md = GW_BUF_INIT;
    expand(&md, c->text ? c->text : c->summary, ctx);
    buf_puts(&md, "\n\n");
    formats_sentence(&md, c);
    render_markdown_text(buf_cstr(&md), HELP_WIDTH, out);
    buf_free(&md);
    const cli_option *opts[64];
    size_t n = command_options(c, opts, 64);
    if (n)
        buf_puts(out, "\nOptions:\n");
    for (size_t i = 0; i < n; i++) {
        gw_buf label = GW_BUF_INIT, help = GW_BUF_INIT, plain = GW_BUF_INIT;
        option_label(&label, opts[i], 0);
        option_help(&help, opts[i]);
        plain_inline(&plain, buf_cstr(&help));
        size_t used = 2 + label.len;
        buf_printf(out, "  %s", buf_cstr(&label));
        if (used + 2 > OPTION_COLUMN) {
            buf_printf(out, "\n%*s", OPTION_COLUMN, "");
            used = OPTION_COLUMN;
        } else {
            buf_printf(out, "%*s", (int)(OPTION_COLUMN - used), "");
            used = OPTION_COLUMN;
        }
        wrap(out, buf_cstr(&plain), OPTION_COLUMN, used);
        buf_free(&label);
        buf_free(&help);
        buf_free(&plain);
    }
    buf_puts(out, "\nGlobal options (--kb PATH, --plugins DIR, --no-color): gpuwise --help.\n");
}

static int manual_section(gw_buf *out, const cli_group *g);

/* "Read, search and edit the KB.": a group's summary as a sentence. */
static void summary_sentence(gw_buf *out, const cli_group *g)
{
    buf_printf(out, "%c%s.\n\n", g->summary[0] >= 'a' && g->summary[0] <= 'z' ?
               g->summary[0] - 'a' + 'A' : g->summary[0], g->summary + 1);
}

void cli_help_group(gw_buf *out, const gw_ctx *ctx, const cli_group *g)
{
    buf_printf(out, "usage: gpuwise %s SUBCOMMAND [OPTIONS]\n\n", g->name);
    gw_buf md = GW_BUF_INIT;
    summary_sentence(&md, g);
    if (g->text) {
        expand(&md, g->text, ctx);
        buf_puts(&md, "\n\n");
    }
    manual_section(&md, g);
    render_markdown_text(buf_cstr(&md), HELP_WIDTH, out);
    buf_free(&md);
    buf_puts(out, "\nSubcommands:\n");
    for (size_t i = 0; g->commands[i].name; i++) {
        gw_buf s = GW_BUF_INIT;
        synopsis(&s, &g->commands[i]);
        buf_printf(out, "  %s\n", buf_cstr(&s) + strlen("gpuwise "));
        buf_printf(out, "%*s", OPTION_COLUMN, "");
        wrap(out, g->commands[i].summary, OPTION_COLUMN, OPTION_COLUMN);
        buf_free(&s);
    }
    buf_printf(out, "\ngpuwise help %s SUBCOMMAND shows one in full.\n", g->name);
}

void cli_help_main(gw_buf *out)
{
    buf_puts(out, "usage: gpuwise [GLOBAL OPTIONS] COMMAND [OPTIONS] [OPERANDS]\n\n"
                  "Decide which GPUs to buy or rent for deep learning, and justify it.\n\n"
                  "Commands:\n");
    for (size_t i = 0; cli_groups[i]; i++) {
        buf_printf(out, "  %-12s", cli_groups[i]->name);
        wrap(out, cli_groups[i]->summary, 14, 14);
    }
    buf_puts(out, "\nGlobal options (before or after the command):\n");
    for (size_t i = 0; cli_global_options[i].name; i++) {
        gw_buf label = GW_BUF_INIT, help = GW_BUF_INIT, plain = GW_BUF_INIT;
        option_label(&label, &cli_global_options[i], 0);
        option_help(&help, &cli_global_options[i]);
        plain_inline(&plain, buf_cstr(&help));
        buf_printf(out, "  %-*s", OPTION_COLUMN - 2, buf_cstr(&label));
        wrap(out, buf_cstr(&plain), OPTION_COLUMN, OPTION_COLUMN);
        buf_free(&label);
        buf_free(&help);
        buf_free(&plain);
    }
    buf_puts(out, "\ngpuwise help COMMAND shows a command in full; man gpuwise has everything.\n"
                  "Exit status: 0 ok, 2 a check failed, 64 usage, 65 bad data, 66 missing input,\n"
                  "67 unknown name, 69 nvidia-smi missing, 70 plugin or internal error, 73/74\n"
                  "cannot write, 75 KB busy, 130/143 interrupted (nothing was written).\n");
}

/* ---- the manual ---------------------------------------------------------------------------- */

static void option_markdown(gw_buf *b, const cli_option *o)
{
    buf_puts(b, "- ");
    option_label(b, o, 1);
    buf_puts(b, ": ");
    option_help(b, o);
    buf_puts(b, "\n");
}

static void command_markdown(gw_buf *b, const cli_command *c)
{
    buf_puts(b, "## ");
    synopsis(b, c);
    buf_puts(b, "\n\n");
    expand(b, c->text ? c->text : c->summary, NULL);
    buf_puts(b, "\n\n");
    /* the global options are described once, in their own section */
    formats_sentence(b, c);
    if (c->flags & CLI_TEMPLATE)
        buf_puts(b, " `--template FILE` renders it with another template.");
    else if (!c->formats && (c->flags & CLI_OUTPUT))
        buf_puts(b, "`-o FILE` names the file it writes.");
    if (c->formats || (c->flags & (CLI_TEMPLATE | CLI_OUTPUT)))
        buf_puts(b, "\n\n");
    for (size_t i = 0; c->options && c->options[i].name; i++)
        option_markdown(b, &c->options[i]);
    if (c->options && c->options[0].name)
        buf_puts(b, "\n");
}

/* The manual's lists of numeric environment variables and of input limits, from base/limits.h's
 * table, when at is their placeholder (@ENVIRONMENT@, @LIMITS@): returns the placeholder's
 * length, or 0 when at is neither.  Lists, not tables: man pages have no tables. */
static size_t manual_env_list(const char *at, gw_buf *out)
{
    if (!strncmp(at, "@ENVIRONMENT@", 13)) {
        /* "- **GPUWISE_PLUGIN_SECONDS**: the wall-clock time ... A number of seconds from 0.001
         * to 86400; default 20." */
        for (int id = 0; id < GW_ENV_N; id++) {
            const gw_env_var *v = &gw_env_vars[id];
            buf_printf(out, "- **%s**: ", v->name);
            if (v->input)
                buf_printf(out, "the limit on %s (see LIMITS)", v->input);
            else
                buf_puts(out, v->sets);
            buf_printf(out, ". A %snumber%s%s from %.16g to %.16g", v->whole ? "whole " : "",
                       *v->unit ? " of " : "", v->unit, v->min, v->max);
            if (!isnan(v->fallback))
                buf_printf(out, "; default %.16g", v->fallback);
            buf_puts(out, ".\n");
        }
        return 13;
    }
    if (!strncmp(at, "@LIMITS@", 8)) {
        /* "- a workload file: 4 MiB (`GPUWISE_MAX_WORKLOAD_MB`)" */
        for (int kind = 0; kind < GW_INPUT_N; kind++)
            buf_printf(out, "- %s: %.16g MiB (`%s`)\n", gw_input_what((gw_input)kind),
                       gw_env_vars[kind].fallback, gw_input_env((gw_input)kind));
        return 8;
    }
    return 0;
}

/* Manual prose p with its generated parts put in place. */
static void manual_fill(gw_buf *out, const char *p)
{
    size_t n;
    for (;;) {
        const char *at = strchr(p, '@');
        if (!at) {
            buf_puts(out, p);
            return;
        }
        buf_append(out, p, (size_t)(at - p));
        if (!strncmp(at, "@GLOBAL_OPTIONS@", 16)) {
            for (size_t i = 0; cli_global_options[i].name; i++)
                option_markdown(out, &cli_global_options[i]);
            p = at + 16;
        } else if (!strncmp(at, "@COMMANDS@", 10)) {
            for (size_t i = 0; cli_groups[i]; i++) {
                const cli_group *g = cli_groups[i];
                if (g->text)
                    buf_printf(out, "%s\n\n", g->text);
                for (size_t j = 0; g->commands[j].name; j++)
                    command_markdown(out, &g->commands[j]);
            }
            p = at + 10;
        } else if (!strncmp(at, "@VERSION@", 9)) {
            buf_puts(out, GW_VERSION);
            p = at + 9;
        } else if (!strncmp(at, "@WORKLOAD_FIELDS@", 17)) {
            cli_workload_fields_markdown(out);
            p = at + 17;
        } else if ((n = manual_env_list(at, out)) > 0) {
            p = at + n;
        } else {
            buf_putc(out, '@');
            p = at + 1;
        }
    }
}

void cli_manual_markdown(gw_buf *out)
{
    manual_fill(out, manual_md);
}

/* The body of the manual's section whose heading starts with the group's name in capitals
 * ("# WORKLOAD FILES" for workload), its generated parts in place: the help of a group that
 * names a kind of file the manual describes.  Returns 0 when the manual has no such section. */
static int manual_section(gw_buf *out, const cli_group *g)
{
    char heading[64];
    size_t n = (size_t)snprintf(heading, sizeof heading, "\n# %s", g->name);
    for (size_t i = 3; i < n && i < sizeof heading; i++)
        heading[i] = (char)(heading[i] >= 'a' && heading[i] <= 'z' ? heading[i] - 'a' + 'A'
                                                                    : heading[i]);
    const char *at = manual_md;
    while ((at = strstr(at, heading)) != NULL && at[n] != ' ' && at[n] != '\n')
        at += n;
    if (!at)
        return 0;
    const char *body = strchr(at + 1, '\n');
    const char *end = body ? strstr(body, "\n# ") : NULL;
    if (!body)
        return 0;
    while (*body == '\n')
        body++;
    gw_buf text = GW_BUF_INIT;
    buf_append(&text, body, end ? (size_t)(end - body) : strlen(body));
    manual_fill(out, buf_cstr(&text));
    buf_free(&text);
    return 1;
}

/* ---- gpuwise help ---------------------------------------------------------------------------- */

/* A group in Markdown (`help GROUP --format md`): its summary, text, manual section and each
 * command as the manual has it. */
static void group_markdown(gw_buf *b, const gw_ctx *ctx, const cli_group *g)
{
    buf_printf(b, "# gpuwise %s\n\n", g->name);
    summary_sentence(b, g);
    if (g->text) {
        expand(b, g->text, ctx);
        buf_puts(b, "\n\n");
    }
    if (manual_section(b, g))
        buf_puts(b, "\n");
    for (size_t i = 0; g->commands[i].name; i++)
        command_markdown(b, &g->commands[i]);
}

/* A command as `help --json` gives it: what its table says. */
static view *command_view(const cli_command *c)
{
    view *v = view_map();
    gw_buf line = GW_BUF_INIT;
    synopsis(&line, c);
    view_map_set_str(v, "name", c->name);
    view_map_set_str(v, "synopsis", buf_cstr(&line));
    view_map_set_str(v, "summary", c->summary);
    view *formats = view_map_set(v, "formats", view_list());
    for (unsigned bit = CLI_FMT_TEXT; bit <= CLI_FMT_CSV; bit <<= 1) {
        gw_buf name = GW_BUF_INIT;
        cli_format_list(&name, c->formats & bit);
        if (name.len)
            view_list_push(formats, view_string(buf_cstr(&name)));
        buf_free(&name);
    }
    const cli_option *opts[64];
    size_t n = command_options(c, opts, 64);
    view *options = view_map_set(v, "options", view_list());
    for (size_t i = 0; i < n; i++) {
        view *o = view_list_push(options, view_map());
        view_map_set_str(o, "name", opts[i]->name);
        view_map_set(o, "short", opts[i]->short_name ? view_stringf("%c", opts[i]->short_name)
                                                      : view_null());
        view_map_set_str(o, "arg", opts[i]->arg);
        view_map_set_str(o, "choices", opts[i]->choices);
        view_map_set_bool(o, "repeat", (opts[i]->flags & CLI_REPEAT) != 0);
        view_map_set_str(o, "help", opts[i]->help);
    }
    buf_free(&line);
    return v;
}

/* `help --json`: the commands of one group, or of every group; the workload group adds its
 * fields (workload_fields_to_view). */
static view *help_view(const cli_group *only, const cli_command *c)
{
    if (c)
        return command_view(c);
    view *v = view_map();
    if (only) {
        view_map_set_str(v, "name", only->name);
        view_map_set_str(v, "summary", only->summary);
    }
    view *commands = view_map_set(v, "commands", view_list());
    for (size_t i = 0; cli_groups[i]; i++)
        for (size_t j = 0; (!only || cli_groups[i] == only) && cli_groups[i]->commands[j].name; j++)
            view_list_push(commands, command_view(&cli_groups[i]->commands[j]));
    if (only == &cli_workload_group)
        view_map_set(v, "fields", workload_fields_to_view());
    return v;
}

/* What `help WORD [WORD]` names: a command (*c), a group of subcommands (*g alone), or with no
 * word gpuwise itself (both NULL). */
static int help_target(const cli_args *a, const cli_group **g, const cli_command **c,
                       gw_error *err)
{
    *g = NULL;
    *c = NULL;
    if (a->argc == 0)
        return GW_OK;
    if (!(*g = cli_group_find(a->argv[0])))
        return gw_error_set(err, GW_EUSAGE, "no command '%s' (gpuwise --help lists them)",
                            a->argv[0]);
    if (a->argc == 2 && !(*c = cli_command_find(*g, a->argv[1])))
        return gw_error_set(err, GW_EUSAGE, "no command '%s %s' (see gpuwise help %s)",
                            a->argv[0], a->argv[1], a->argv[0]);
    if (!*c)
        *c = cli_command_find(*g, NULL);
    return GW_OK;
}

static int cmd_help(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    gw_buf b = GW_BUF_INIT;
    const cli_group *g;
    const cli_command *c;
    int rc = GW_OK;
    if (cli_flag(a, "man") || cli_flag(a, "all")) {
        if (a->argc)
            return gw_error_set(err, GW_EUSAGE, "--%s prints the whole manual: give no command",
                                cli_flag(a, "man") ? "man" : "all");
        gw_buf md = GW_BUF_INIT;
        cli_manual_markdown(&md);
        if (cli_flag(a, "man")) {
            buf_puts(&b, ".TH GPUWISE 1 \"\" \"gpuwise " GW_VERSION "\" \"gpuwise manual\"\n");
            render_markdown_man(buf_cstr(&md), &b);
        } else {
            buf_puts(&b, buf_cstr(&md));
        }
        buf_free(&md);
    } else if ((rc = help_target(a, &g, &c, err)) != GW_OK) {
        /* the message is set */
    } else if (ctx->json) {
        view *v = help_view(g, c);
        view_to_json(v, &b, 1);
        view_free(v);
    } else if (!strcmp(ctx->format, "md")) {
        if (c)
            command_markdown(&b, c);
        else if (g)
            group_markdown(&b, ctx, g);
        else
            cli_manual_markdown(&b);
    } else if (c) {
        cli_help_command(&b, ctx, c);
    } else if (g) {
        cli_help_group(&b, ctx, g);
    } else {
        cli_help_main(&b);
    }
    if (rc == GW_OK)
        rc = cli_write_output(ctx, buf_cstr(&b), b.len, err);
    buf_free(&b);
    return rc;
}

static const cli_option help_options[] = {
    {"all", 0, NULL, CLI_TEXT, NULL, "print the whole manual, as Markdown", 0},
    {"man", 0, NULL, CLI_TEXT, NULL, "print the whole manual as a man page (roff)", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command help_commands[] = {
    {"help", "[COMMAND [SUBCOMMAND]]", 0, 2, CLI_COMMAND,
     "show the help of gpuwise, of a command, or the whole manual",
     "Shows what `gpuwise --help` shows, or one command in full (`gpuwise help kb show`; "
     "`gpuwise kb show --help` is the same), or a group of commands (`gpuwise help kb`). "
     "`gpuwise help workload` lists every field a workload file may have, as the manual's "
     "WORKLOAD FILES section does.  Everything here and in the manual page comes from the "
     "tables the command line is parsed with and the workload file is read with, so they "
     "cannot disagree.  As Markdown, the manual's text of the command or group (of every "
     "command without one); as JSON, each command's synopsis, formats and options (`name`, "
     "`short`, `arg`, `choices`, `repeat`, `help`), and for `workload` its `fields` (`name`, "
     "`type`, `required`, `min`, `min_excluded`, `max`, `choices`, `default`, `unit`, "
     "`expected`, `help`, `tasks`: the values of `task` it concerns, null for every task).",
     help_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_JSON, CLI_OUTPUT, cmd_help, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_help_group_help = {
    "help", "show the help of a command, or the whole manual", NULL, help_commands,
};

/* ---- gpuwise complete ------------------------------------------------------------------------ */

static int has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void offer(FILE *f, const char *word, const char *prefix)
{
    if (has_prefix(word, prefix))
        fprintf(f, "%s\n", word);
}

static void offer_choices(FILE *f, const char *choices, const char *prefix)
{
    char one[64];
    for (const char *c = choices; c && *c;) {
        size_t n = strcspn(c, "|");
        snprintf(one, sizeof one, "%.*s", (int)(n < 63 ? n : 63), c);
        offer(f, one, prefix);
        c += n + (c[n] == '|');
    }
}

/* Plugin file names (without .lua, tests left out) in folder `sub` of every plugin folder. */
static void offer_plugins(gw_ctx *ctx, FILE *f, const char *sub, const char *prefix)
{
    char dirs[GW_MAX_PLUGIN_DIRS + 2][4200];
    size_t nd = 0;
    for (int i = 0; i < ctx->n_plugin_dirs; i++)
        snprintf(dirs[nd++], sizeof dirs[0], "%s", ctx->plugin_dirs[i]);
    if (cli_path_join(dirs[nd], sizeof dirs[0], ctx->user_config_dir, "plugins") == 0)
        nd++;
    if (cli_path_join(dirs[nd], sizeof dirs[0], ctx->data_dir, "plugins") == 0)
        nd++;
    static const char *const all[] = {"pricing", "importers", "rules", "checklists", NULL};
    const char *const one[] = {sub, NULL};
    for (size_t d = 0; d < nd; d++)
        for (const char *const *s = sub ? one : all; *s; s++) {
            char path[4300];
            snprintf(path, sizeof path, "%.4200s/%.32s", dirs[d], *s);
            DIR *dir = opendir(path);
            struct dirent *e;
            while (dir && (e = readdir(dir)) != NULL) {
                size_t len = strlen(e->d_name);
                if (len < 5 || strcmp(e->d_name + len - 4, ".lua") != 0 ||
                    (len > 9 && !strcmp(e->d_name + len - 9, "_test.lua")))
                    continue;
                char name[256];
                snprintf(name, sizeof name, "%.*s", (int)(len - 4), e->d_name);
                offer(f, name, prefix);
            }
            if (dir)
                closedir(dir);
        }
}

static void offer_gpus(gw_ctx *ctx, FILE *f, const char *prefix)
{
    kb *k = NULL;
    gw_error ignore;
    char **names = NULL;
    size_t n = 0;
    if (cli_open_kb(ctx, 0, &k, &ignore) != GW_OK)
        return;
    if (kb_gpu_names(k, &names, &n, &ignore) == GW_OK)
        for (size_t i = 0; i < n; i++)
            offer(f, names[i], prefix);
    kb_strings_free(names, n);
    kb_close(k);
}

static void offer_kind(gw_ctx *ctx, FILE *f, cli_kind kind, const char *choices,
                       const char *prefix)
{
    switch (kind) {
    case CLI_FILE: fputs("@files\n", f); break;
    case CLI_DIR: fputs("@dirs\n", f); break;
    case CLI_TEMPLATE_FILE: fputs("@files\n", f); break;
    case CLI_GPU: offer_gpus(ctx, f, prefix); break;
    case CLI_PLUGIN: offer_plugins(ctx, f, NULL, prefix); break;
    case CLI_PRICING: offer_plugins(ctx, f, "pricing", prefix); break;
    case CLI_IMPORTER: offer_plugins(ctx, f, "importers", prefix); break;
    case CLI_CHECKLIST: offer_plugins(ctx, f, "checklists", prefix); break;
    case CLI_FIELD:
        for (const char *const *fl = kb_gpu_fields(); *fl; fl++)
            offer(f, *fl, prefix);
        for (size_t i = 0; kb_gpu_derived(i); i++)
            offer(f, kb_gpu_derived(i)->name, prefix);
        break;
    case CLI_OFFER_FIELD:   /* `--sort -pr` goes on to -price: highest first */
        for (size_t i = 0; kb_offer_field_name(i); i++) {
            char dashed[64];
            snprintf(dashed, sizeof dashed, "-%s", kb_offer_field_name(i));
            offer(f, prefix[0] == '-' ? dashed : kb_offer_field_name(i), prefix);
        }
        break;
    case CLI_COMMAND:
        for (size_t i = 0; cli_groups[i]; i++)
            offer(f, cli_groups[i]->name, prefix);
        break;
    case CLI_CHOICE: offer_choices(f, choices, prefix); break;
    case CLI_TEXT: break;
    }
}

/* The global --format's values: the formats c writes, or every format before a command is on
 * the line (it is checked against the command once one is). */
static void offer_formats(FILE *f, const cli_command *c, const char *prefix)
{
    for (unsigned bit = CLI_FMT_TEXT; bit <= CLI_FMT_CSV; bit <<= 1) {
        gw_buf name = GW_BUF_INIT;
        cli_format_list(&name, c ? c->formats & bit : bit);
        if (name.len)
            offer(f, buf_cstr(&name), prefix);
        buf_free(&name);
    }
}

static const cli_option *option_in(const cli_option *table, const char *word)
{
    for (size_t i = 0; table && table[i].name; i++)
        if ((word[1] == '-' && !strcmp(word + 2, table[i].name)) ||
            (word[1] != '-' && word[1] == table[i].short_name && !word[2]))
            return &table[i];
    return NULL;
}

static void offer_options(FILE *f, const cli_command *c, const char *prefix)
{
    const cli_option *opts[64];
    size_t n = c ? command_options(c, opts, 64) : 0;
    char word[96];
    for (size_t i = 0; i < n; i++) {
        snprintf(word, sizeof word, "--%s", opts[i]->name);
        offer(f, word, prefix);
    }
    for (size_t i = 0; cli_global_options[i].name; i++) {
        const cli_option *g = &cli_global_options[i];
        if (c && (!strcmp(g->name, "format") || !strcmp(g->name, "json") ||
                  !strcmp(g->name, "output") || !strcmp(g->name, "template")))
            continue;   /* offered above when the command takes them */
        snprintf(word, sizeof word, "--%s", g->name);
        offer(f, word, prefix);
    }
}

/* `gpuwise complete CWORD WORD...`: what may stand at word CWORD (0 is "gpuwise") of the
 * command line, one per line; "@files" or "@dirs" asks the shell for file names. */
static int cmd_complete(gw_ctx *ctx, const cli_args *a, gw_error *err)
{
    char *end;
    long cword = strtol(a->argv[0], &end, 10);
    if (*end || cword < 1)
        return gw_error_set(err, GW_EUSAGE, "CWORD: expected a word number of at least 1, not "
                            "'%s'", a->argv[0]);
    char **words = a->argv + 1;
    long nwords = a->argc - 1;
    const char *cur = cword < nwords ? words[cword] : "";
    const cli_group *g = NULL;
    const cli_command *c = NULL;
    const cli_option *pending = NULL;
    int operands = 0, dashdash = 0;
    for (long i = 1; i < cword && i < nwords; i++) {
        const char *w = words[i];
        if (pending) {
            if (!strcmp(w, "=") && i + 1 == cword)
                break;   /* bash splits --format=md at '=': still the option's value */
            if (!strcmp(pending->name, "kb"))
                ctx->kb_path = w;
            else if (!strcmp(pending->name, "plugins") && ctx->n_plugin_dirs < GW_MAX_PLUGIN_DIRS)
                ctx->plugin_dirs[ctx->n_plugin_dirs++] = w;
            pending = NULL;
            continue;
        }
        if (!dashdash && w[0] == '-' && w[1]) {
            if (!strcmp(w, "--")) {
                dashdash = 1;
                continue;
            }
            const cli_option *o = c ? option_in(c->options, w) : NULL;
            if (!o)
                o = option_in(cli_global_options, w);
            if (o && o->arg && !strchr(w, '='))
                pending = o;
            continue;
        }
        if (!g) {
            g = cli_group_find(w);
            if (g && !cli_group_has_subcommands(g))
                c = cli_command_find(g, NULL);
        } else if (!c) {
            c = cli_command_find(g, w);
        } else {
            operands++;
        }
    }
    FILE *f = ctx->out;
    if (pending && !strcmp(pending->name, "format") && !option_in(c ? c->options : NULL,
                                                                  "--format")) {
        offer_formats(f, c, cur);
    } else if (pending) {
        offer_kind(ctx, f, pending->kind, pending->choices, cur);
    } else if (!dashdash && cur[0] == '-') {
        offer_options(f, c, cur);
    } else if (!g) {
        offer_kind(ctx, f, CLI_COMMAND, NULL, cur);
    } else if (!c) {
        size_t glen = strlen(g->name);
        for (size_t i = 0; g->commands[i].name; i++)
            offer(f, g->commands[i].name + glen + 1, cur);
    } else if (c->max_operands < 0 || operands < c->max_operands) {
        cli_kind kind = c->operand_kind;
        /* help's second operand is a subcommand of the first */
        if (c->run == cmd_help && operands == 1) {
            const cli_group *hg = cli_group_find(words[cword - 1]);
            size_t glen = hg ? strlen(hg->name) : 0;
            for (size_t i = 0; hg && cli_group_has_subcommands(hg) && hg->commands[i].name; i++)
                offer(f, hg->commands[i].name + glen + 1, cur);
        } else if (kind == CLI_CHOICE) {
            if (operands == 0)
                offer_choices(f, c->operand_choices, cur);
        } else {
            offer_kind(ctx, f, kind, NULL, cur);
        }
    }
    return GW_OK;
}

static const cli_command complete_commands[] = {
    {"complete", "CWORD WORD...", 1, -1, CLI_TEXT,
     "list what may stand at one place of a command line (for shell completion)",
     "Prints, one per line, what may stand at word CWORD of the command line WORD... (word 0 is "
     "`gpuwise`): commands, subcommands, options, option values, GPU names and aliases from the "
     "KB in use, plugin and checklist names.  A line `@files` or `@dirs` asks the shell to "
     "complete file or folder names.  The bash and zsh completion scripts call it.",
     NULL, 0, CLI_RAW, cmd_complete, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_complete_group = {
    "complete", "list completions for a command line (used by the shell completion scripts)",
    NULL, complete_commands,
};
