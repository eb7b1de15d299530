/* cli_kb.c — the `gpuwise kb` command.  (Being written.) */
#include "cli.h"

static int cmd_kb(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    return gw_error_set(err, GW_ESOFTWARE, "not built yet");
}

const gw_command cli_kb_command = {
    "kb",
    "(being written)",
    "usage: gpuwise kb\n",
    cmd_kb,
};
