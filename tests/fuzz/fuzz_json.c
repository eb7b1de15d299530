/* fuzz_json.c — the JSON reader (view_from_json) and writer: any bytes either fail cleanly or
 * give a tree whose JSON reads back to the same JSON.
 * seeds: $SHARED/testdata/mustache-spec */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gw_error err = {0};
    view *v = view_from_json((const char *)data, size, &err);
    if (!v)
        return 0;
    gw_buf once = GW_BUF_INIT, twice = GW_BUF_INIT;
    view_to_json(v, &once, 0);
    view *back = view_from_json(once.data, once.len, &err);
    if (!back)
        abort();   /* what we write, we must read */
    view_to_json(back, &twice, 0);
    if (once.len != twice.len || memcmp(once.data, twice.data, once.len) != 0)
        abort();
    view_free(back);
    view_free(v);
    buf_free(&once);
    buf_free(&twice);
    return 0;
}
