/* cli_render.c — `gpuwise render TEMPLATE DATA.json`: any template with any JSON data, for
 * people writing their own templates.  The work is render_file's (render.c). */
#include <stdlib.h>

#include "base/limits.h"
#include "cli.h"
#include "cli_document.h"

static int cmd_render(gw_ctx *ctx, const cli_args *args, gw_error *err)
{
    const char *tmpl = args->argv[0], *data_path = args->argv[1];
    char *text;
    size_t len;
    /* standard input ("-") is read as any other file: within the same limit */
    int rc = gw_read_input(data_path, GW_INPUT_DATA, &text, &len, err);
    if (rc)
        return rc;
    view *data = view_from_json(text, len, err);
    free(text);
    if (!data) {
        gw_error_prefix(err, "%s", data_path);
        return err->code ? err->code : GW_EDATA;
    }
    rc = cli_render_file(ctx, tmpl, cli_value(args, "partials"), data, err);
    view_free(data);
    return rc;
}

static const cli_option render_options[] = {
    {"partials", 0, "DIR", CLI_DIR, NULL,
     "look for partials (`{{>name}}`, `{{<name}}`) in DIR first, then beside TEMPLATE; a "
     "partial is its name plus the template's suffix (`.md.mustache`)", 0},
    {NULL, 0, NULL, CLI_TEXT, NULL, NULL, 0},
};

static const cli_command render_commands[] = {
    {"render", "TEMPLATE DATA.json", 2, 2, CLI_FILE,
     "render a Mustache template with JSON data (for writing your own templates)",
     "Renders a Mustache template with JSON data; DATA.json may be `-` for standard input.  "
     "Escaping follows the template's name: `*.md.mustache` escapes values for Markdown, "
     "`*.html.mustache` for HTML, anything else writes values as they are.\n\n"
     "The text output (the default) is the template's own output.  A Markdown template can "
     "also be written as a document: md writes its charts as SVG files beside `-o FILE`, and "
     "html renders it into a standalone page with the charts inline.  A template that is not "
     "Markdown writes its own output whatever the format, so `-o page.html` with "
     "`page.html.mustache` is the page it renders.\n\n"
     "Any command's json output is data for a template:\n\n"
     "    gpuwise kb show \"RTX 3090\" --json > gpu.json\n"
     "    gpuwise render my-datasheet.md.mustache gpu.json --format html -o gpu.html\n\n"
     "Exit status: 0 ok, 64 usage, 65 malformed JSON or a template error (naming the file, "
     "line and column), 66 a missing template or data file, 73/74 the output cannot be "
     "written.",
     render_options, CLI_FMT_TEXT | CLI_FMT_MD | CLI_FMT_HTML, 0, cmd_render, NULL},
    {NULL, NULL, 0, 0, CLI_TEXT, NULL, NULL, NULL, 0, 0, NULL, NULL},
};

const cli_group cli_render_group = {
    "render", "render a Mustache template with JSON data (for writing your own templates)", NULL,
    render_commands,
};
