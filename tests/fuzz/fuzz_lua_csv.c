/* fuzz_lua_csv.c — the CSV reader as plugins see it: gw.csv.parse and gw.csv.rows on the input,
 * run in the plugin sandbox, and the rows handed back to C as a view.
 * seeds: $SHARED/testdata/specs $SHARED/testdata/benchmarks $ROOT/kb/data */
#include <stdint.h>

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_lua_eval("local t = ", data, size,
                  "\nlocal ok, all = pcall(gw.csv.parse, t)\n"
                  "local ok2, rows = pcall(gw.csv.rows, t)\n"
                  "return { all = ok and all or nil, rows = ok2 and rows or nil }\n");
    return 0;
}
