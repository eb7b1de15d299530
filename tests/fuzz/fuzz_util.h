/* fuzz_util.h — what several harnesses share: a private copy of the shipped KB opened once per
 * process, and a fuzz input handed to Lua code as a long-bracket string literal. */
#ifndef GW_FUZZ_UTIL_H
#define GW_FUZZ_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "kb/kb.h"
#include "sandbox/plugin.h"

static char fuzz_kb_path[64];

static inline void fuzz_kb_remove(void)
{
    char side[80];
    unlink(fuzz_kb_path);
    snprintf(side, sizeof side, "%s-wal", fuzz_kb_path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", fuzz_kb_path);
    unlink(side);
}

/* The shipped KB ($GPUWISE_FUZZ_KB, else kb/gpuwise.db from the repository root), copied to a
 * temporary file so that nothing a harness does can touch the original.  Aborts when missing:
 * a harness without its KB tests nothing. */
static inline kb *fuzz_open_kb(void)
{
    const char *src = getenv("GPUWISE_FUZZ_KB");
    char *text = NULL;
    size_t len = 0;
    if (!src || !*src)
        src = "kb/gpuwise.db";
    if (gw_read_file(src, &text, &len) != 0) {
        fprintf(stderr, "fuzz: cannot read %s (run from the repository root after make)\n", src);
        abort();
    }
    snprintf(fuzz_kb_path, sizeof fuzz_kb_path, "/tmp/gwfuzz-kb-XXXXXX");
    int fd = mkstemp(fuzz_kb_path);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len)
        abort();
    close(fd);
    free(text);
    atexit(fuzz_kb_remove);
    kb *k = NULL;
    gw_error err = {0};
    if (kb_open(fuzz_kb_path, KB_READ, &k, &err) != GW_OK) {
        fprintf(stderr, "fuzz: %s\n", err.msg);
        abort();
    }
    return k;
}

static inline int fuzz_contains(const char *data, size_t size, const char *needle, size_t n)
{
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(data + i, needle, n) == 0)
            return 1;
    return 0;
}

/* Appends data as a Lua long string: the shortest level [==[ whose closing bracket does not
 * occur in it.  A leading newline is doubled because Lua drops the first one. */
static inline void fuzz_lua_literal(gw_buf *b, const char *data, size_t size)
{
    int level = 0;
    char close[40];
    for (;; level++) {
        close[0] = ']';
        memset(close + 1, '=', (size_t)level);
        close[level + 1] = ']';
        close[level + 2] = '\0';
        if (level >= 30 || !fuzz_contains(data, size, close, (size_t)level + 2))
            break;
    }
    buf_putc(b, '[');
    for (int i = 0; i < level; i++)
        buf_putc(b, '=');
    buf_puts(b, "[\n");
    buf_append(b, data, size);
    buf_puts(b, close);
}

/* Runs `prefix LITERAL suffix` in the plugin sandbox with small limits; the result is freed. */
static inline void fuzz_lua_eval(const char *prefix, const uint8_t *data, size_t size,
                                 const char *suffix)
{
    gw_buf code = GW_BUF_INIT;
    buf_puts(&code, prefix);
    fuzz_lua_literal(&code, (const char *)data, size);
    buf_puts(&code, suffix);
    plugin_limits limits = {10 * 1000 * 1000, 64u * 1024u * 1024u, 5.0};
    view *out = NULL;
    gw_error err = {0};
    if (plugin_eval_text("fuzz.lua", code.data, code.len, NULL, NULL, &limits, &out, &err) == GW_OK)
        view_free(out);
    buf_free(&code);
}

#endif
