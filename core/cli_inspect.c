/* cli_inspect.c — the `gpuwise inspect` command.  (Being written.) */
#include "cli.h"

static int cmd_inspect(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    return gw_error_set(err, GW_ESOFTWARE, "not built yet");
}

const gw_command cli_inspect_command = {
    "inspect",
    "(being written)",
    "usage: gpuwise inspect\n",
    cmd_inspect,
};
