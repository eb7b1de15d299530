/* main.c — the command line: global options, dispatch to one command, and the only place that
 * prints an error and chooses the exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "signals.h"

static const gw_command *const commands[] = {
    &cli_kb_command,     &cli_offers_command, &cli_prices_command,
    &cli_plugin_command, &cli_decide_command, &cli_report_command,
    &cli_inspect_command, &cli_checklist_command, &cli_render_command,
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const char global_usage[] =
    "usage: gpuwise [--kb PATH] [--plugins DIR] [--json] [--format text|md|html] [-o FILE]\n"
    "               [--template FILE] [--no-color] COMMAND [ARGS]\n"
    "\n"
    "Decide which GPUs to buy or rent for deep learning, and justify it.\n"
    "\n"
    "Global options (accepted before or after the command):\n"
    "  --kb PATH          knowledge base to use (also $GPUWISE_KB)\n"
    "  --plugins DIR      also load plugins from DIR (repeatable; overrides shipped ones)\n"
    "  --json             print the data as JSON (every command that lists or shows data)\n"
    "  --format FMT       text (terminal), md (Markdown) or html (standalone page)\n"
    "  -o, --output FILE  write the document to FILE (atomically)\n"
    "  --template FILE    use FILE instead of the shipped template\n"
    "  --no-color         no colour even on a terminal (also $NO_COLOR)\n"
    "  -h, --help         this help;  gpuwise help COMMAND for a command's own\n"
    "  --version          print the version\n"
    "\n"
    "Commands:\n";

static void print_usage(FILE *f)
{
    fputs(global_usage, f);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fputs("\nExit status: 0 ok, 2 a check failed, 64 usage, 65 bad data, 66 missing input,\n"
          "67 unknown name, 70 plugin or internal error, 73/74 cannot write, 75 KB busy,\n"
          "130/143 stopped by SIGINT/SIGTERM (an import is rolled back).\n",
          f);
}

static const gw_command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    return NULL;
}

/* Global options may stand anywhere before "--"; they are removed from argv and the rest is
 * handed to the command untouched.  Returns GW_OK or GW_EUSAGE. */
static int take_global_options(gw_ctx *ctx, int *argc, char **argv, int *want_help,
                               int *want_version, gw_error *err)
{
    static const struct { const char *name; int has_arg; } globals[] = {
        {"--kb", 1}, {"--plugins", 1}, {"--format", 1}, {"--output", 1}, {"-o", 1},
        {"--template", 1}, {"--json", 0}, {"--no-color", 0}, {"--help", 0}, {"-h", 0},
        {"--version", 0},
    };
    int out = 1;
    int seen_command = 0;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        const char *value = NULL;
        size_t g, ng = sizeof globals / sizeof globals[0];
        for (g = 0; g < ng; g++) {
            size_t n = strlen(globals[g].name);
            if (strncmp(a, globals[g].name, n) != 0)
                continue;
            if (a[n] == '\0')
                break;
            if (a[n] == '=' && globals[g].has_arg && a[1] == '-') {
                value = a + n + 1;
                break;
            }
        }
        if (g == ng) {
            if (a[0] != '-')
                seen_command = 1;
            argv[out++] = argv[i];
            continue;
        }
        const char *name = globals[g].name;
        if (globals[g].has_arg && !value) {
            if (i + 1 >= *argc)
                return gw_error_set(err, GW_EUSAGE, "%s needs a value", name);
            value = argv[++i];
        }
        if (!strcmp(name, "--kb"))
            ctx->kb_path = value;
        else if (!strcmp(name, "--plugins")) {
            if (ctx->n_plugin_dirs >= GW_MAX_PLUGIN_DIRS)
                return gw_error_set(err, GW_EUSAGE, "too many --plugins folders");
            ctx->plugin_dirs[ctx->n_plugin_dirs++] = value;
        } else if (!strcmp(name, "--format")) {
            if (strcmp(value, "text") && strcmp(value, "md") && strcmp(value, "html"))
                return gw_error_set(err, GW_EUSAGE,
                                    "--format: expected text, md or html, not '%s'", value);
            ctx->format = value;
        } else if (!strcmp(name, "--output") || !strcmp(name, "-o"))
            ctx->output = value;
        else if (!strcmp(name, "--template"))
            ctx->template_path = value;
        else if (!strcmp(name, "--json"))
            ctx->json = 1;
        else if (!strcmp(name, "--no-color"))
            ctx->color = 0;
        else if (!strcmp(name, "--version"))
            *want_version = 1;
        else
            *want_help = seen_command ? 2 : 1;   /* 2: help for the command given */
    }
    argv[out] = NULL;
    *argc = out;
    return GW_OK;
}

int main(int argc, char **argv)
{
    gw_ctx ctx = {0};
    gw_error err = {0};
    int want_help = 0, want_version = 0, rc;

    ctx.out = stdout;
    ctx.diag = stderr;
    ctx.argv0 = argv[0];
    ctx.format = "text";
    ctx.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    ctx.progress = isatty(STDERR_FILENO);
    const char *env_kb = getenv("GPUWISE_KB");
    if (env_kb && *env_kb)
        ctx.kb_path = env_kb;

    if (take_global_options(&ctx, &argc, argv, &want_help, &want_version, &err) != GW_OK) {
        fprintf(stderr, "gpuwise: %s\n(see gpuwise --help)\n", err.msg);
        return err.code;
    }
    if (want_version) {
        printf("gpuwise %s\n", GW_VERSION);
        return 0;
    }
    if (argc < 2 || want_help == 1) {
        print_usage(want_help ? stdout : stderr);
        return want_help ? 0 : GW_EUSAGE;
    }

    const char *name = argv[1];
    if (strcmp(name, "help") == 0 || want_help == 2) {
        const char *topic = strcmp(name, "help") == 0 ? (argc > 2 ? argv[2] : NULL) : name;
        if (!topic) {
            print_usage(stdout);
            return 0;
        }
        const gw_command *c = find_command(topic);
        if (!c) {
            fprintf(stderr, "gpuwise: no command '%s' (see gpuwise --help)\n", topic);
            return GW_EUSAGE;
        }
        fputs(c->usage, stdout);
        return 0;
    }

    const gw_command *cmd = find_command(name);
    if (!cmd) {
        fprintf(stderr, "gpuwise: '%s' is not a command (see gpuwise --help)\n", name);
        return GW_EUSAGE;
    }
    cli_paths_init(&ctx);
    gw_signals_install();
    gw_signals_on_interrupt(kb_interrupt_all);
    rc = cmd->run(&ctx, argc - 1, argv + 1, &err);
    if (gw_signal_pending() && rc != GW_OK) {
        /* whatever failed, it failed because it was told to stop */
        if (err.code == gw_signal_exit_code())
            fprintf(stderr, "gpuwise %s: %s\n", name, err.msg);
        else
            fprintf(stderr, "gpuwise %s: interrupted by %s%s%s\n", name, gw_signal_name(),
                    err.msg[0] ? ": " : "", err.msg);
        return gw_signal_exit_code();
    }
    if (fflush(stdout) != 0 && rc == GW_OK) {
        perror("gpuwise: writing output");
        return GW_EIO;
    }
    if (rc != GW_OK && err.msg[0])
        fprintf(stderr, "gpuwise %s: %s\n", name, err.msg);
    return rc;
}
