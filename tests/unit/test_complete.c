/* test_complete.c — shell completion offers only what each command accepts: every option name
 * and every --format or choice value `gpuwise complete` offers for a command is read by the
 * option parser on that command's line without a usage error, and every format a command writes
 * is offered.  The commands and their options come from the command tables (cli_groups), so a
 * command or option added later is checked without a line here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/cli.h"
#include "cli/cli_options.h"

#define MAX_WORDS 16
#define MAX_OFFERS 256

/* The words `gpuwise complete` offers at word cword of line (words[0] is "gpuwise"), in
 * offers[], each a copy; returns how many. */
static size_t complete(char **line, int nwords, int cword, char offers[][96])
{
    char number[16];
    snprintf(number, sizeof number, "%d", cword);
    char *argv[MAX_WORDS + 3] = {"gpuwise", "complete", number};
    for (int i = 0; i < nwords; i++)
        argv[3 + i] = line[i];
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    gw_ctx ctx = {.out = out, .diag = stderr, .argv0 = "gpuwise", .format = "text"};
    cli_paths_init(&ctx);
    gw_error err = {0};
    const char *name = "";
    assert_int_equal(cli_main(&ctx, 3 + nwords, argv, &name, &err), GW_OK);
    fclose(out);
    size_t n = 0;
    for (char *p = text, *nl; p && *p && n < MAX_OFFERS; p = nl + 1) {
        nl = strchr(p, '\n');
        assert_non_null(nl);
        snprintf(offers[n++], 96, "%.*s", (int)(nl - p), p);
    }
    free(text);
    return n;
}

/* Whether the parser takes line (a whole command line) without a usage error; err says why not. */
static int parses(char **line, int nwords, gw_error *err)
{
    gw_ctx ctx = {.out = stdout, .diag = stderr, .argv0 = "gpuwise", .format = "text"};
    cli_paths_init(&ctx);
    cli_request req;
    const char *name = "";
    int rc = cli_parse(&ctx, nwords, line, &req, &name, err);
    cli_request_free(&req);
    return rc == GW_OK;
}

/* The option o names ("--sort"): the command's own first, then a global one, as the parser
 * looks them up. */
static const cli_option *option_named(const cli_command *c, const char *word)
{
    for (size_t i = 0; c->options && c->options[i].name; i++)
        if (!strcmp(word + 2, c->options[i].name))
            return &c->options[i];
    for (size_t i = 0; cli_global_options[i].name; i++)
        if (!strcmp(word + 2, cli_global_options[i].name))
            return &cli_global_options[i];
    return NULL;
}

/* line = "gpuwise" and the command's words ("kb", "show"); returns how many. */
static int command_words(const cli_command *c, char **line, char *copy, size_t size)
{
    snprintf(copy, size, "%s", c->name);
    int n = 0;
    line[n++] = "gpuwise";
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
        line[n++] = w;
    return n;
}

/* Checks every option and value offered for c, returns how many lines were parsed. */
static size_t check_command(const cli_command *c)
{
    static char offers[MAX_OFFERS][96], values[MAX_OFFERS][96];
    char copy[96];
    char *line[MAX_WORDS];
    int base = command_words(c, line, copy, sizeof copy);
    line[base] = "--";
    size_t n = complete(line, base + 1, base, offers), parsed = 0;
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const cli_option *o = option_named(c, offers[i]);
        if (!o)
            fail_msg("%s: offers %s, which it does not have", c->name, offers[i]);
        size_t nvalues = 1;
        strcpy(values[0], "x");
        if (o->arg && (o->choices || !strcmp(o->name, "format"))) {
            line[base] = offers[i];
            line[base + 1] = "";
            nvalues = complete(line, base + 2, base + 1, values);
            assert_true(nvalues > 0);
        }
        for (size_t v = 0; v < nvalues; v++) {
            int k = base;
            line[k++] = offers[i];
            if (o->arg)
                line[k++] = values[v];
            for (int op = 0; op < c->min_operands && k < MAX_WORDS; op++)
                line[k++] = "x";
            gw_error err = {0};
            if (!parses(line, k, &err))
                fail_msg("%s: completion offers %s %s, which the parser refuses: %s", c->name,
                         offers[i], o->arg ? values[v] : "", err.msg);
            parsed++;
        }
    }
    return parsed;
}

static void every_offered_option_and_value_is_accepted(void **state)
{
    (void)state;
    size_t commands = 0, parsed = 0;
    for (size_t g = 0; cli_groups[g]; g++)
        for (size_t i = 0; cli_groups[g]->commands[i].name; i++, commands++)
            if (!(cli_groups[g]->commands[i].flags & CLI_RAW))   /* `complete`: all operands */
                parsed += check_command(&cli_groups[g]->commands[i]);
    /* more than a line a command: each has its options and the global ones */
    assert_true(commands >= 20);
    assert_true(parsed > 5 * commands);
}

/* `report` writes md, html and json: those are its --format values, and neither text nor csv
 * (the formats it refuses) is offered; every command's formats are all offered. */
static void format_values_are_the_command_s_own(void **state)
{
    (void)state;
    static char offers[MAX_OFFERS][96];
    char *report[] = {"gpuwise", "report", "--format", ""};
    size_t n = complete(report, 4, 3, offers);
    assert_int_equal(n, 3);
    assert_string_equal(offers[0], "md");
    assert_string_equal(offers[1], "html");
    assert_string_equal(offers[2], "json");
    for (size_t g = 0; cli_groups[g]; g++)
        for (size_t i = 0; cli_groups[g]->commands[i].name; i++) {
            const cli_command *c = &cli_groups[g]->commands[i];
            if (!c->formats)
                continue;
            char copy[96];
            char *line[MAX_WORDS];
            int base = command_words(c, line, copy, sizeof copy);
            line[base] = "--format";
            line[base + 1] = "";
            n = complete(line, base + 2, base + 1, offers);
            unsigned offered = 0;
            for (size_t k = 0; k < n; k++)
                offered |= cli_format_bit(offers[k]);
            assert_int_equal(offered, c->formats);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_offered_option_and_value_is_accepted),
        cmocka_unit_test(format_values_are_the_command_s_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
