/* fuzz_mustache.c — the template engine: the input is split at the first NUL byte into a
 * template and JSON data; both escapes are exercised.  Rendering must fail cleanly or succeed,
 * and stay linear (libFuzzer's -timeout catches super-linear inputs).
 * seeds: $SHARED/testdata/mustache-spec $ROOT/templates */
#include <stdint.h>
#include <string.h>

#include "render/mustache.h"
#include "base/view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t tlen = nul ? (size_t)(nul - text) : size;
    gw_error err = {0};
    view *model = NULL;
    if (nul)
        model = view_from_json(nul + 1, size - tlen - 1, &err);
    if (!model)
        model = view_map();
    for (int escape = 0; escape < 2; escape++) {
        mustache_opts opts = {0};
        opts.escape = escape ? mustache_escape_for("x.md.mustache")
                             : mustache_escape_for("x.html.mustache");
        gw_buf out = GW_BUF_INIT;
        mustache_render("fuzz", text, tlen, model, &opts, &out, &err);
        buf_free(&out);
    }
    view_free(model);
    return 0;
}
