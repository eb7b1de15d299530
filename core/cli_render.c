/* cli_render.c — the `gpuwise render` command.  (Being written.) */
#include "cli.h"

static int cmd_render(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    return gw_error_set(err, GW_ESOFTWARE, "not built yet");
}

const gw_command cli_render_command = {
    "render",
    "(being written)",
    "usage: gpuwise render\n",
    cmd_render,
};
