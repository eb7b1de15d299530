/* cli_render.c — `gpuwise render TEMPLATE DATA.json`: any template with any JSON data, for
 * people writing their own templates.  The work is render_file's (render.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_legacy.h"
#include "render.h"

static const char usage[] =
    "usage: gpuwise render TEMPLATE DATA.json [--partials DIR] [--format md|html] [-o FILE]\n"
    "\n"
    "Renders a Mustache template with JSON data (DATA.json may be - for standard input).\n"
    "Escaping follows the template's name: *.md.mustache escapes values for Markdown,\n"
    "*.html.mustache for HTML, anything else writes values as they are.\n"
    "\n"
    "  --partials DIR   look for partials ({{>name}}, {{<name}}) in DIR first, then beside\n"
    "                   TEMPLATE; a partial is NAME plus the template's suffix (.md.mustache)\n"
    "  --format md      a Markdown template's output, with its charts written as .svg files\n"
    "  --format html    a Markdown template rendered into a standalone HTML page\n"
    "  -o FILE          write to FILE atomically instead of standard output\n"
    "\n"
    "Try: gpuwise kb show \"RTX 3090\" --json > gpu.json\n"
    "     gpuwise render my-datasheet.md.mustache gpu.json --format html -o gpu.html\n";

static int read_input(const char *path, char **text, size_t *len)
{
    if (strcmp(path, "-") != 0)
        return gw_read_file(path, text, len);
    gw_buf b = GW_BUF_INIT;
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
        buf_append(&b, chunk, n);
    if (ferror(stdin)) {
        buf_free(&b);
        return EIO;
    }
    *len = b.len;
    *text = b.data ? buf_detach(&b) : gw_xstrdup("");
    return 0;
}

static int cmd_render(gw_ctx *ctx, int argc, char **argv, gw_error *err)
{
    const char *tmpl = NULL, *data_path = NULL, *partials = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--partials") == 0) {
            if (i + 1 >= argc)
                return gw_error_set(err, GW_EUSAGE, "--partials needs a folder\n%s", usage);
            partials = argv[++i];
        } else if (strncmp(argv[i], "--partials=", 11) == 0) {
            partials = argv[i] + 11;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return gw_error_set(err, GW_EUSAGE, "unknown option %s\n%s", argv[i], usage);
        } else if (!tmpl) {
            tmpl = argv[i];
        } else if (!data_path) {
            data_path = argv[i];
        } else {
            return gw_error_set(err, GW_EUSAGE, "too many arguments\n%s", usage);
        }
    }
    if (!tmpl || !data_path)
        return gw_error_set(err, GW_EUSAGE, "needs a template and a JSON data file\n%s", usage);
    if (ctx->json)
        return gw_error_set(err, GW_EUSAGE, "--json: render writes the template's output, "
                                            "the data is already JSON");
    char *text;
    size_t len;
    int rc = read_input(data_path, &text, &len);
    if (rc)
        return gw_error_set(err, GW_ENOINPUT, "%s: %s", data_path, strerror(rc));
    view *data = view_from_json(text, len, err);
    free(text);
    if (!data) {
        gw_error_prefix(err, "%s", data_path);
        return err->code ? err->code : GW_EDATA;
    }
    rc = render_file(ctx, tmpl, partials, data, err);
    view_free(data);
    return rc;
}

CLI_LEGACY_GROUP(cli_render_group, "render", "render a Mustache template with JSON data (for writing your own templates)", usage, cmd_render)
