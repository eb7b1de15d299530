/* cli_plugin.c — the `gpuwise plugin` command.  (Being written.) */
#include "cli.h"

static int cmd_plugin(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    return gw_error_set(err, GW_ESOFTWARE, "not built yet");
}

const gw_command cli_plugin_command = {
    "plugin",
    "(being written)",
    "usage: gpuwise plugin\n",
    cmd_plugin,
};
