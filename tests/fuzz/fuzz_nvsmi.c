/* fuzz_nvsmi.c — the nvidia-smi dump reader over libxml2 with its safe options.
 * seeds: $SHARED/testdata/nvsmi $ROOT/tests/fixtures/nvsmi */
#include <stdint.h>

#include "inspect/nvsmi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nvsmi_log *log = NULL;
    gw_error err = {0};
    if (nvsmi_parse((const char *)data, size, "fuzz.xml", &log, &err) == GW_OK)
        nvsmi_log_free(log);
    return 0;
}
