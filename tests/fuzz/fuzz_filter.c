/* fuzz_filter.c — the filter language of `kb list` (kb_gpu_list where/sort) on the shipped KB:
 * the input's first line is the --where text, the second the --sort field.  Any text gives a
 * list or a usage error, never a crash, and the filter check agrees with the query.
 * seeds: $ROOT/tests/fixtures/fuzz/fuzz_filter */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static kb *shared_kb;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    shared_kb = fuzz_open_kb();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = gw_xstrndup((const char *)data, size);   /* stops at a NUL, as argv would */
    char *sort = strchr(text, '\n');
    if (sort)
        *sort++ = '\0';
    kb_gpu *gpus = NULL;
    size_t n = 0;
    gw_error err = {0}, check = {0};
    int rc = kb_gpu_list(shared_kb, text, sort && *sort ? sort : NULL, &gpus, &n, &err);
    if (rc == GW_OK)
        kb_gpus_free(gpus, n);
    else if (rc != GW_EUSAGE)
        abort();   /* a filter is either valid or a usage error */
    int crc = kb_gpu_where_check(text, &check);
    if (crc != GW_OK && rc == GW_OK)
        abort();   /* the check refused what the query accepted */
    free(text);
    return 0;
}
