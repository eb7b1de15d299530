/* render.c — (being written) Markdown and HTML documents from templates. */
#include "render.h"

int render_document(gw_ctx *ctx, const char *name, view *model, gw_error *err)
{
    (void)ctx;
    (void)model;
    return gw_error_set(err, GW_ESOFTWARE, "document '%s': rendering not built yet", name);
}
