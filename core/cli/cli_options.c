/* cli_options.c — the one option parser: finds the command in argv, reads the global options and
 * the command's own from their tables (cli.h), checks operands, values and the output format, and
 * says what the line asks for (cli_options.h): the command to run, or help, --version or the usage
 * instead.  It writes nothing; cli_run.c answers.  A command never looks at argv itself. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/check.h"
#include "cli.h"
#include "cli_options.h"

/* The global options: accepted before the command or among its own options. */
const cli_option cli_global_options[] = {
    {"kb", 0, "PATH", CLI_FILE, NULL,
     "the knowledge base to use (also `$GPUWISE_KB`); the default is the user's KB when it "
     "exists, else the shipped one", 0},
    {"plugins", 0, "DIR", CLI_DIR, NULL,
     "also load plugins from DIR, before the user's and the shipped ones",
     CLI_REPEAT},
    {"format", 0, "FORMAT", CLI_CHOICE, "text|md|html|json|csv",
     "the output format, among those the command writes (its help lists them); the default "
     "follows `-o`'s extension, else the command's first format", 0},
    {"json", 0, NULL, CLI_TEXT, NULL, "the same as `--format json`", 0},
    {"output", 'o', "FILE", CLI_FILE, NULL,
     "write to FILE (atomically: a temporary file, then a rename; its mode kept, a link "
     "followed) instead of standard output; `.md`, `.html`, `.json`, `.csv` and `.txt` choose "
     "the format; `DIR/` writes a default name into DIR; a device, FIFO or socket is refused", 0},
    {"template", 0, "FILE", CLI_TEMPLATE_FILE, NULL,
     "render documents with FILE instead of the shipped template", 0},
    {"no-color", 0, NULL, CLI_TEXT, NULL, "no colour even on a terminal (also `$NO_COLOR`)", 0},
    {"help", 'h', NULL, CLI_TEXT, NULL, "show the help of the command given (or of gpuwise)", 0},
    {"version", 0, NULL, CLI_TEXT, NULL, "print the version", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const struct {
    unsigned bit;
    const char *name;
    const char *extensions;   /* what -o FILE ends with for this format, '|'-separated */
} formats[] = {
    {CLI_FMT_TEXT, "text", ".txt"},
    {CLI_FMT_MD, "md", ".md|.markdown"},
    {CLI_FMT_HTML, "html", ".html|.htm"},
    {CLI_FMT_JSON, "json", ".json"},
    {CLI_FMT_CSV, "csv", ".csv"},
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

unsigned cli_format_bit(const char *format)
{
    for (size_t i = 0; format && i < N_FORMATS; i++)
        if (strcmp(formats[i].name, format) == 0)
            return formats[i].bit;
    return 0;
}

static const char *format_name(unsigned bit)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        if (formats[i].bit == bit)
            return formats[i].name;
    return NULL;
}

/* "text, md or json": the formats in mask, for messages. */
void cli_format_list(gw_buf *b, unsigned mask)
{
    size_t n = 0, total = 0;
    for (size_t i = 0; i < N_FORMATS; i++)
        total += (mask & formats[i].bit) != 0;
    for (size_t i = 0; i < N_FORMATS; i++) {
        if (!(mask & formats[i].bit))
            continue;
        if (n)
            buf_puts(b, n + 1 == total ? " or " : ", ");
        buf_puts(b, formats[i].name);
        n++;
    }
}

/* The format -o FILE's extension names; 0 when it names none. */
static unsigned format_of_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return 0;
    for (size_t i = 0; i < N_FORMATS; i++) {
        const char *e = formats[i].extensions;
        size_t len = strlen(dot);
        while (e && *e) {
            const char *bar = strchr(e, '|');
            size_t n = bar ? (size_t)(bar - e) : strlen(e);
            if (n == len && strncasecmp(e, dot, n) == 0)
                return formats[i].bit;
            e = bar ? bar + 1 : NULL;
        }
    }
    return 0;
}

/* ---- reading what was given ---------------------------------------------------------------- */

static const cli_option *find_option(const cli_option *table, const char *name, size_t len,
                                     char short_name)
{
    for (size_t i = 0; table && table[i].name; i++) {
        if (short_name ? table[i].short_name == short_name
                       : strlen(table[i].name) == len && strncmp(table[i].name, name, len) == 0)
            return &table[i];
    }
    return NULL;
}

const char *cli_value_at(const cli_args *a, const char *name, size_t i)
{
    for (size_t k = 0; k < a->n_seen; k++)
        if (strcmp(a->seen[k].option->name, name) == 0 && i-- == 0)
            return a->seen[k].value;
    return NULL;
}

const char *cli_value(const cli_args *a, const char *name)
{
    const char *v = NULL;
    for (size_t k = 0; k < a->n_seen; k++)
        if (strcmp(a->seen[k].option->name, name) == 0)
            v = a->seen[k].value;
    return v;
}

int cli_flag(const cli_args *a, const char *name)
{
    int n = 0;
    for (size_t k = 0; k < a->n_seen; k++)
        n += strcmp(a->seen[k].option->name, name) == 0;
    return n;
}

int cli_number(const cli_args *a, const char *name, double min, double max, double *out,
               gw_error *err)
{
    const char *v = cli_value(a, name);
    if (!v)
        return GW_OK;
    char *end;
    double x = strtod(v, &end);
    /* decimal only: "0x10" and "1e400" are not what anyone means by a price or a count */
    int hex = strpbrk(v, "xX") != NULL;
    if (end == v || *end || hex || !isfinite(x) || x < min || x > max) {
        gw_buf range = GW_BUF_INIT;
        if (max >= HUGE_VAL)
            buf_printf(&range, "a number of at least %g", min);
        else
            buf_printf(&range, "a number from %g to %g", min, max);
        gw_error_set(err, GW_EUSAGE, "--%s: expected %s, not '%s'", name, buf_cstr(&range), v);
        buf_free(&range);
        return GW_EUSAGE;
    }
    *out = x;
    return GW_OK;
}

/* ---- parsing ---------------------------------------------------------------------------- */

typedef struct parse_state {
    gw_ctx *ctx;
    const cli_command *cmd;      /* NULL while only global options are allowed */
    cli_args *args;
    int help, version;
    const char *format;          /* --format */
    int json;                    /* --json */
    const char *output, *template_path;
} parse_state;

/* "unknown option '--fromat' (did you mean --format?)" */
static int unknown_option(const parse_state *st, const char *arg, gw_error *err)
{
    const char *names[128];
    size_t n = 0;
    char word[64];
    const char *start = arg[1] == '-' ? arg + 2 : arg + 1;
    size_t len = strcspn(start, "=");
    snprintf(word, sizeof word, "%.*s", (int)(len < 63 ? len : 63), start);
    for (size_t i = 0; cli_global_options[i].name && n < 127; i++)
        names[n++] = cli_global_options[i].name;
    for (size_t i = 0; st->cmd && st->cmd->options && st->cmd->options[i].name && n < 127; i++)
        names[n++] = st->cmd->options[i].name;
    names[n] = NULL;
    const char *near = gw_closest(word, names);
    if (near)
        return gw_error_set(err, GW_EUSAGE, "unknown option '%s' (did you mean --%s?)", arg,
                            near);
    return gw_error_set(err, GW_EUSAGE, "unknown option '%s' (see gpuwise help%s%s)", arg,
                        st->cmd ? " " : "", st->cmd ? st->cmd->name : "");
}

static int check_choice(const cli_option *o, const char *value, gw_error *err)
{
    if (!o->choices)
        return GW_OK;
    size_t len = strlen(value);
    for (const char *c = o->choices; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t n = bar ? (size_t)(bar - c) : strlen(c);
        if (n == len && strncmp(c, value, n) == 0)
            return GW_OK;
        c = bar ? bar + 1 : NULL;
    }
    return gw_error_set(err, GW_EUSAGE, "--%s: expected one of %s, not '%s'", o->name,
                        o->choices, value);
}

static int take_global(parse_state *st, const cli_option *o, const char *value, gw_error *err)
{
    gw_ctx *ctx = st->ctx;
    const char *name = o->name;
    if (!strcmp(name, "kb"))
        ctx->kb_path = value;
    else if (!strcmp(name, "plugins")) {
        if (ctx->n_plugin_dirs >= GW_MAX_PLUGIN_DIRS)
            return gw_error_set(err, GW_EUSAGE, "--plugins: at most %d folders",
                                GW_MAX_PLUGIN_DIRS);
        ctx->plugin_dirs[ctx->n_plugin_dirs++] = value;
    } else if (!strcmp(name, "format"))
        st->format = value;
    else if (!strcmp(name, "json"))
        st->json = 1;
    else if (!strcmp(name, "output"))
        st->output = value;
    else if (!strcmp(name, "template"))
        st->template_path = value;
    else if (!strcmp(name, "no-color"))
        ctx->color = 0;
    else if (!strcmp(name, "help"))
        st->help = 1;
    else if (!strcmp(name, "version"))
        st->version = 1;
    return GW_OK;
}

/* Reads the option at argv[*i] (which starts with '-'), from the command's table first, then
 * the global one; a value is the rest after '=', the rest of a short option, or the next
 * argument.  Advances *i past what it used. */
static int take_option(parse_state *st, int argc, char **argv, int *i, gw_error *err)
{
    const char *arg = argv[*i], *value = NULL;
    const cli_option *o = NULL;
    int global = 0;
    if (arg[1] == '-') {
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        if (st->cmd)
            o = find_option(st->cmd->options, name, len, 0);
        if (!o && (o = find_option(cli_global_options, name, len, 0)) != NULL)
            global = 1;
        if (o && eq) {
            if (!o->arg)
                return gw_error_set(err, GW_EUSAGE, "--%s takes no value ('%s')", o->name, arg);
            value = eq + 1;
        }
    } else {
        if (st->cmd)
            o = find_option(st->cmd->options, NULL, 0, arg[1]);
        if (!o && (o = find_option(cli_global_options, NULL, 0, arg[1])) != NULL)
            global = 1;
        if (o && arg[2]) {
            if (!o->arg)
                return unknown_option(st, arg, err);
            value = arg + 2;
        }
    }
    if (!o)
        return unknown_option(st, arg, err);
    if (o->arg && !value) {
        if (*i + 1 >= argc)
            return gw_error_set(err, GW_EUSAGE, "--%s needs a value (%s)", o->name, o->arg);
        value = argv[++*i];
    }
    (*i)++;
    if (value && check_choice(o, value, err) != GW_OK)
        return GW_EUSAGE;
    if (global)
        return take_global(st, o, value, err);
    if (!(o->flags & CLI_REPEAT) && o->arg && cli_value(st->args, o->name))
        return gw_error_set(err, GW_EUSAGE, "--%s given twice", o->name);
    st->args->seen[st->args->n_seen++] = (cli_seen){o, value};
    return GW_OK;
}

static int is_option(const char *a)
{
    return a[0] == '-' && a[1] != '\0';
}

/* Global options standing before the command (or between a group and its subcommand). */
static int take_leading(parse_state *st, int argc, char **argv, int *i, gw_error *err)
{
    while (*i < argc && is_option(argv[*i]) && strcmp(argv[*i], "--") != 0) {
        int rc = take_option(st, argc, argv, i, err);
        if (rc != GW_OK)
            return rc;
    }
    return GW_OK;
}

const cli_group *cli_group_find(const char *name)
{
    for (size_t i = 0; cli_groups[i]; i++)
        if (strcmp(cli_groups[i]->name, name) == 0)
            return cli_groups[i];
    return NULL;
}

/* The command "group sub" (or the group's only command when sub is NULL). */
const cli_command *cli_command_find(const cli_group *g, const char *sub)
{
    size_t glen = strlen(g->name);
    for (size_t i = 0; g->commands[i].name; i++) {
        const char *n = g->commands[i].name;
        if (!sub && strcmp(n, g->name) == 0)
            return &g->commands[i];
        if (sub && strncmp(n, g->name, glen) == 0 && n[glen] == ' ' &&
            strcmp(n + glen + 1, sub) == 0)
            return &g->commands[i];
    }
    return NULL;
}

int cli_group_has_subcommands(const cli_group *g)
{
    return cli_command_find(g, NULL) == NULL;
}

static int unknown_word(const char *what, const char *word, const char *const *names,
                        const char *see, gw_error *err)
{
    const char *near = gw_closest(word, names);
    if (near)
        return gw_error_set(err, GW_EUSAGE, "'%s' is not %s (did you mean '%s'?)", word, what,
                            near);
    return gw_error_set(err, GW_EUSAGE, "'%s' is not %s (see gpuwise help%s%s)", word, what,
                        see ? " " : "", see ? see : "");
}

static int unknown_command(const char *word, gw_error *err)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; cli_groups[i] && n < 63; i++)
        names[n++] = cli_groups[i]->name;
    names[n] = NULL;
    return unknown_word("a command", word, names, NULL, err);
}

static int unknown_subcommand(const cli_group *g, const char *word, gw_error *err)
{
    const char *names[64];
    size_t n = 0, glen = strlen(g->name);
    for (size_t i = 0; g->commands[i].name && n < 63; i++)
        names[n++] = g->commands[i].name + glen + 1;
    names[n] = NULL;
    char what[96];
    snprintf(what, sizeof what, "a %s subcommand", g->name);
    if (!word) {
        gw_buf list = GW_BUF_INIT;
        for (size_t i = 0; names[i]; i++)
            buf_printf(&list, "%s%s", i ? ", " : "", names[i]);
        gw_error_set(err, GW_EUSAGE, "give a subcommand: %s (see gpuwise help %s)",
                     buf_cstr(&list), g->name);
        buf_free(&list);
        return GW_EUSAGE;
    }
    return unknown_word(what, word, names, g->name, err);
}

/* Which format the command writes: --format, --json, -o's extension, else its first. */
static int resolve_format(parse_state *st, gw_error *err)
{
    const cli_command *c = st->cmd;
    unsigned want = 0;
    const char *why = NULL;
    if (st->json && st->format && strcmp(st->format, "json") != 0)
        return gw_error_set(err, GW_EUSAGE, "--json and --format %s disagree", st->format);
    if (st->format) {
        want = cli_format_bit(st->format);
        why = "--format";
    } else if (st->json) {
        want = CLI_FMT_JSON;
        why = "--json";
    } else if (st->output && c->formats && (want = format_of_path(st->output)) != 0) {
        why = "-o";
    }
    if (want && !(c->formats & want)) {
        gw_buf b = GW_BUF_INIT;
        if (c->formats)
            cli_format_list(&b, c->formats);
        if (!strcmp(why, "-o"))
            gw_error_set(err, GW_EUSAGE, "-o %s: %s cannot write %s (it writes %s; --format "
                         "chooses one)", st->output, c->name, format_name(want), buf_cstr(&b));
        else if (c->formats)
            gw_error_set(err, GW_EUSAGE, "%s%s%s: %s cannot write %s (it writes %s)", why,
                         st->format ? " " : "", st->format ? st->format : "", c->name,
                         format_name(want), buf_cstr(&b));
        else
            gw_error_set(err, GW_EUSAGE, "%s: %s writes no %s output", why, c->name,
                         format_name(want));
        buf_free(&b);
        return GW_EUSAGE;
    }
    if (!want && c->formats)
        for (size_t i = 0; i < N_FORMATS && !want; i++)
            if (c->formats & formats[i].bit)
                want = formats[i].bit;
    st->ctx->format = want ? format_name(want) : "text";
    st->ctx->json = want == CLI_FMT_JSON;
    st->ctx->data_output = !c->formats;
    if (st->output && !c->formats && !(c->flags & CLI_OUTPUT))
        return gw_error_set(err, GW_EUSAGE, "-o: %s writes no output file", c->name);
    if (st->template_path && !(c->flags & CLI_TEMPLATE))
        return gw_error_set(err, GW_EUSAGE, "--template: %s renders no template", c->name);
    st->ctx->output = st->output;
    st->ctx->template_path = st->template_path;
    return GW_OK;
}

static int is_help(const char *a)
{
    return !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* --help among the words from i: anywhere before "--", or for a command whose words are all
 * operands, only as the first.  It wins over every other mistake on the line. */
static int asks_help(const cli_command *c, int argc, char **argv, int i)
{
    if (c && (c->flags & CLI_RAW))
        return i < argc && is_help(argv[i]);
    for (int k = i; k < argc && strcmp(argv[k], "--") != 0; k++)
        if (is_help(argv[k]))
            return 1;
    return 0;
}

/* No command on the line: --version, --help, or the usage. */
static cli_answer answer_without_command(const parse_state *st)
{
    if (st->version)
        return CLI_ANSWER_VERSION;
    return st->help ? CLI_ANSWER_HELP : CLI_ANSWER_USAGE;
}

/* The words before the command's own: global options, the command's name and a group's
 * subcommand.  Sets st->cmd, or sets req's answer for a line that asks for something else
 * (help, --version, no command) and leaves st->cmd NULL.  *name becomes the group's name once it
 * is known. */
static int find_target(parse_state *st, int argc, char **argv, int *i, cli_request *req,
                       const char **name, gw_error *err)
{
    int rc = take_leading(st, argc, argv, i, err);
    if (rc != GW_OK)
        return rc;
    if (*i < argc && strcmp(argv[*i], "--") == 0)
        (*i)++;
    if (*i >= argc) {
        req->answer = answer_without_command(st);
        return GW_OK;
    }
    const cli_group *g = cli_group_find(argv[*i]);
    if (!g)
        return unknown_command(argv[*i], err);
    (*i)++;
    if (!cli_group_has_subcommands(g)) {
        st->cmd = cli_command_find(g, NULL);
        return GW_OK;
    }
    *name = g->name;
    if ((rc = take_leading(st, argc, argv, i, err)) != GW_OK)
        return rc;
    if (*i >= argc || is_option(argv[*i])) {
        /* `gpuwise kb --help`, or `gpuwise kb --where ...` without its subcommand */
        if (!st->help && !asks_help(NULL, argc, argv, *i))
            return unknown_subcommand(g, NULL, err);
        req->answer = CLI_ANSWER_HELP;
        req->group = g;
        return GW_OK;
    }
    st->cmd = cli_command_find(g, argv[*i]);
    if (!st->cmd)
        return unknown_subcommand(g, argv[*i], err);
    (*i)++;
    return GW_OK;
}

/* The command's options and operands from word i on; every word is an operand for CLI_RAW. */
static int read_arguments(parse_state *st, int argc, char **argv, int i, gw_error *err)
{
    cli_args *a = st->args;
    int raw = (st->cmd->flags & CLI_RAW) != 0;
    while (i < argc) {
        if (!raw && strcmp(argv[i], "--") == 0) {
            raw = 1;
            i++;
        } else if (!raw && is_option(argv[i])) {
            int rc = take_option(st, argc, argv, &i, err);
            if (rc != GW_OK)
                return rc;
        } else {
            a->argv[a->argc++] = argv[i++];
        }
    }
    return GW_OK;
}

static int check_operands(const cli_command *c, const cli_args *a, gw_error *err)
{
    if (a->argc >= c->min_operands && (c->max_operands < 0 || a->argc <= c->max_operands))
        return GW_OK;
    const char *what = a->argc < c->min_operands ? "too few" : "too many";
    if (c->operands)
        return gw_error_set(err, GW_EUSAGE, "%s operands: usage: gpuwise %s %s (see gpuwise "
                            "help %s)", what, c->name, c->operands, c->name);
    return gw_error_set(err, GW_EUSAGE, "takes no operands ('%s')", a->argv[0]);
}

int cli_parse(gw_ctx *ctx, int argc, char **argv, cli_request *req, const char **name,
              gw_error *err)
{
    cli_args *args = &req->args;
    parse_state st = {ctx, NULL, args, 0, 0, NULL, 0, NULL, NULL};
    int i = 1, rc;
    memset(req, 0, sizeof *req);
    *name = "";
    args->seen = gw_xcalloc((size_t)argc + 1, sizeof *args->seen);
    args->argv = gw_xcalloc((size_t)argc + 1, sizeof *args->argv);

    rc = find_target(&st, argc, argv, &i, req, name, err);
    if (rc != GW_OK || !st.cmd)
        return rc;
    *name = st.cmd->name;
    args->command = req->command = st.cmd;
    if (asks_help(st.cmd, argc, argv, i)) {
        req->answer = CLI_ANSWER_HELP;
        return GW_OK;
    }
    if ((rc = read_arguments(&st, argc, argv, i, err)) != GW_OK)
        return rc;
    if (st.version)
        req->answer = CLI_ANSWER_VERSION;
    else if (st.help)
        req->answer = CLI_ANSWER_HELP;
    else if ((rc = check_operands(st.cmd, args, err)) == GW_OK &&
             (rc = resolve_format(&st, err)) == GW_OK)
        req->answer = CLI_ANSWER_RUN;
    return rc;
}

void cli_request_free(cli_request *req)
{
    free(req->args.seen);
    free(req->args.argv);
    req->args.seen = NULL;
    req->args.argv = NULL;
}
