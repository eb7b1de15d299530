/* fuzz_units.c — the quantity parser every reader shares ("24576 MiB", "N/A", ...).
 * seeds: $ROOT/tests/fixtures/fuzz/fuzz_units */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    units_value v;
    if (units_parse(s, &v) && !isfinite(v.value))
        abort();   /* a parsed quantity is always a finite number */
    free(s);
    return 0;
}
