/* fuzz_search.c — full-text search (kb_search) on the shipped KB: any text a person types is
 * turned into a safe FTS5 query, so every input gives hits or none, never an SQL error.
 * seeds: $ROOT/tests/fixtures/fuzz/fuzz_search */
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
    char *query = gw_xstrndup((const char *)data, size);
    kb_hit *hits = NULL;
    size_t n = 0;
    gw_error err = {0};
    int rc = kb_search(shared_kb, query, 20, &hits, &n, &err);
    if (rc == GW_OK)
        kb_hits_free(hits, n);
    else if (rc != GW_EUSAGE)
        abort();   /* user text must never reach SQLite as syntax */
    free(query);
    return 0;
}
