/* replay.c — runs a fuzz harness without libFuzzer: each file named on the command line is fed
 * once to LLVMFuzzerTestOneInput (after LLVMFuzzerInitialize, when the harness has one).  Built
 * with the normal compiler by tests/cli/fuzz_regress.sh to replay tests/fixtures/fuzz/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        char *data = NULL;
        size_t len = 0;
        if (gw_read_file(argv[i], &data, &len) != 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 66;
        }
        /* an exact-size copy, so that a read past the end is caught as libFuzzer would */
        uint8_t *exact = malloc(len ? len : 1);
        if (!exact)
            return 70;
        memcpy(exact, data, len);
        free(data);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
        printf("replayed %s\n", argv[i]);
    }
    return 0;
}
