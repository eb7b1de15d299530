/* cli_checklist.c — the `gpuwise checklist` command.  (Being written.) */
#include "cli.h"

static int cmd_checklist(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    return gw_error_set(err, GW_ESOFTWARE, "not built yet");
}

const gw_command cli_checklist_command = {
    "checklist",
    "(being written)",
    "usage: gpuwise checklist\n",
    cmd_checklist,
};
