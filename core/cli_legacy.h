/* cli_legacy.h — TEMPORARY: wraps a command not yet described by option tables. */
#ifndef GW_CLI_LEGACY_H
#define GW_CLI_LEGACY_H
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#define CLI_LEGACY_GROUP(var, NAME, SUMMARY, USAGE, FN)                                       \
    static int var##_run(gw_ctx *ctx, const cli_args *a, gw_error *err)                        \
    {                                                                                          \
        char **v = gw_xcalloc((size_t)a->argc + 2, sizeof *v);                                 \
        v[0] = (char *)NAME;                                                                   \
        memcpy(v + 1, a->argv, (size_t)a->argc * sizeof *v);                                   \
        int rc = FN(ctx, a->argc + 1, v, err);                                                 \
        free(v);                                                                               \
        return rc;                                                                             \
    }                                                                                          \
    static const cli_command var##_cmds[] = {                                                  \
        {NAME, "ARGS...", 0, -1, CLI_TEXT, SUMMARY, USAGE, NULL,                               \
         CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_HTML | CLI_FMT_JSON, CLI_RAW | CLI_OUTPUT |       \
         CLI_TEMPLATE, var##_run},                                                             \
        {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL}};                           \
    const cli_group var = {NAME, SUMMARY, NULL, var##_cmds};
#endif
