/* limits.c — the one table of numeric environment variables and input limits, the strict parser
 * every such variable goes through, and reading a whole input within its kind's limit
 * (limits.h). */
#include "limits.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"

/* Values sized in MiB go up to 1 TiB. */
#define MIB_MAX 1048576.0
/* 9999-12-31T23:59:59Z: the last second whose date has four digits. */
#define EPOCH_MAX 253402300799.0

/* An input limit: a whole number of MiB, 1 MiB to 1 TiB. */
#define INPUT_LIMIT(id, name, what, mib) [id] = {name, NULL, what, "MiB", mib, 1, MIB_MAX, 1}

/* Input limits are a generous multiple of the largest real file of each kind (the shipped
 * justification template is 9 KB, an eight-GPU dump 230 KB, the grown KB of the benchmarks
 * 60 MB).  The plugin limits are the plugin guide's (plugins/README.md). */
const gw_env_var gw_env_vars[GW_ENV_N] = {
    INPUT_LIMIT(GW_ENV_MAX_WORKLOAD_MB, "GPUWISE_MAX_WORKLOAD_MB", "a workload file", 4),
    INPUT_LIMIT(GW_ENV_MAX_TEMPLATE_MB, "GPUWISE_MAX_TEMPLATE_MB", "a template", 16),
    INPUT_LIMIT(GW_ENV_MAX_DATA_MB, "GPUWISE_MAX_DATA_MB", "a JSON data file", 256),
    INPUT_LIMIT(GW_ENV_MAX_PLUGIN_MB, "GPUWISE_MAX_PLUGIN_MB", "a plugin", 16),
    INPUT_LIMIT(GW_ENV_MAX_INPUT_MB, "GPUWISE_MAX_INPUT_MB", "a plugin's input", 256),
    INPUT_LIMIT(GW_ENV_MAX_IMPORT_MB, "GPUWISE_MAX_IMPORT_MB", "a file to import", 1024),
    INPUT_LIMIT(GW_ENV_MAX_DUMP_MB, "GPUWISE_MAX_DUMP_MB", "an nvidia-smi dump", 32),
    INPUT_LIMIT(GW_ENV_MAX_KB_MB, "GPUWISE_MAX_KB_MB", "a knowledge base to copy", 4096),
    [GW_ENV_PLUGIN_SECONDS] = {"GPUWISE_PLUGIN_SECONDS", "the wall-clock time of each plugin "
                               "call; the confined worker that runs plugins is killed when a call "
                               "outlasts it", NULL, "seconds", 20, 0.001, 86400, 0},
    [GW_ENV_PLUGIN_MEMORY_MB] = {"GPUWISE_PLUGIN_MEMORY_MB", "the memory of each plugin", NULL,
                                 "MiB", 64, 1, MIB_MAX, 1},
    [GW_ENV_PLUGIN_INSTRUCTIONS] = {"GPUWISE_PLUGIN_INSTRUCTIONS", "the Lua instructions each "
                                    "plugin call may run", NULL, "instructions", 1e9, 1, 1e15, 1},
    [GW_ENV_FETCH_MAX_MB] = {"GPUWISE_FETCH_MAX_MB", "the largest response `prices fetch` "
                             "accepts, as `--max-size`", NULL, "MiB", 64, 0.001, MIB_MAX, 0},
    [GW_ENV_FETCH_ALLOW_PRIVATE] = {"GPUWISE_FETCH_ALLOW_PRIVATE", "1 lets `prices fetch` "
                                    "connect a plugin's sources to loopback, private, link-local "
                                    "and cloud metadata addresses too (a local mirror, an "
                                    "intranet); 0, public addresses only", NULL, "", 0, 0, 1, 1},
    [GW_ENV_DECIDE_FULL] = {"GPUWISE_DECIDE_FULL", "1 draws every compared option in the "
                            "robustness analysis and costs every option again at each scaled "
                            "input of the sensitivity, even one its cost's lower bound shows "
                            "cannot win (for tests: the answer is the same); 0, those are "
                            "skipped",
                            NULL, "", 0, 0, 1, 1},
    [GW_ENV_BUSY_TIMEOUT_MS] = {"GPUWISE_BUSY_TIMEOUT_MS", "how long a command waits for another "
                                "one writing the KB before it gives up with exit 75", NULL,
                                "milliseconds", 5000, 0, 2147483647, 1},
    [GW_ENV_SOURCE_DATE_EPOCH] = {"SOURCE_DATE_EPOCH", "today, as seconds since 1970-01-01 UTC "
                                  "(the reproducible-builds convention): the date documents "
                                  "carry and prices are aged from; unset, the system clock",
                                  NULL, "seconds", NAN, 0, EPOCH_MAX, 1},
};

/* 1 when s is digits only and their value fits *out (beyond 2^53 a double rounds, which only
 * matters past every range in the table). */
static int parse_whole(const char *s, double *out)
{
    double v = 0;
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return 0;
        v = v * 10 + (*p - '0');
    }
    *out = v;
    return isfinite(v);
}

int gw_env_parse(gw_env_id id, const char *text, double *out, gw_error *err)
{
    const gw_env_var *var = &gw_env_vars[id];
    double v;
    int ok = var->whole ? parse_whole(text, &v) : gw_parse_decimal(text, &v);
    if (ok && v >= var->min && v <= var->max) {
        *out = v;
        return GW_OK;
    }
    return gw_error_set(err, GW_EUSAGE, "%s: expected a %snumber%s%s from %.16g to %.16g, not "
                        "'%.40s'", var->name, var->whole ? "whole " : "", *var->unit ? " of " : "",
                        var->unit, var->min, var->max, text);
}

int gw_env_number(gw_env_id id, double *out, gw_error *err)
{
    const char *text = getenv(gw_env_vars[id].name);
    *out = gw_env_vars[id].fallback;
    if (!text)
        return GW_OK;
    double v;
    int rc = gw_env_parse(id, text, &v, err);
    if (rc == GW_OK)
        *out = v;
    return rc;
}

int gw_env_check(gw_error *err)
{
    for (int id = 0; id < GW_ENV_N; id++) {
        double v;
        int rc = gw_env_number((gw_env_id)id, &v, err);
        if (rc != GW_OK)
            return rc;
    }
    return GW_OK;
}

/* ---- the input limits ------------------------------------------------------------------------ */

const char *gw_input_what(gw_input kind)
{
    return gw_env_vars[kind].input;
}

const char *gw_input_env(gw_input kind)
{
    return gw_env_vars[kind].name;
}

int gw_input_max(gw_input kind, size_t *bytes, gw_error *err)
{
    double mib;
    int rc = gw_env_number((gw_env_id)kind, &mib, err);
    *bytes = (size_t)mib << 20;
    return rc;
}

int gw_read_input(const char *path, gw_input kind, char **out, size_t *len, gw_error *err)
{
    size_t max;
    *out = NULL;
    if (len)
        *len = 0;
    int rc = gw_input_max(kind, &max, err);
    if (rc != GW_OK)
        return rc;
    int e = gw_read_file_max(path, max, out, len);
    return gw_input_error(strcmp(path, "-") == 0 ? "standard input" : path, kind, max, e, err);
}

int gw_input_error(const char *name, gw_input kind, size_t max, int e, gw_error *err)
{
    if (e == EFBIG)
        return gw_error_set(err, GW_EDATA, "%s: too large for %s: more than %zu MiB (%s raises "
                            "the limit)", name, gw_input_what(kind), max >> 20,
                            gw_input_env(kind));
    if (e == EISDIR)
        return gw_error_set(err, GW_ENOINPUT, "%s: is a folder, not %s", name,
                            gw_input_what(kind));
    if (e)
        return gw_error_set(err, GW_ENOINPUT, "%s: %s", name, strerror(e));
    return GW_OK;
}
