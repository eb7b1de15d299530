/* fuzz_lua_json.c — the JSON reader as plugins see it: gw.json.decode on the input, the value
 * encoded again and handed back to C as a view.
 * seeds: $SHARED/testdata/cloud_prices $SHARED/testdata/mustache-spec */
#include <stdint.h>

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_lua_eval("local t = ", data, size,
                  "\nlocal ok, v = pcall(gw.json.decode, t)\n"
                  "if not ok or v == nil then return {} end\n"
                  "local ok2, s = pcall(gw.json.encode, v)\n"
                  "return { value = v, text = ok2 and s or nil }\n");
    return 0;
}
