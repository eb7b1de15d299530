/* plugin_kinds.c — the plugin kinds and their folders, and the limits every plugin call runs
 * under (defaults, environment, explicit).  Plain data both sides of the host read; it calls
 * nothing of theirs. */
#include "plugin_kinds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MEMORY (64u * 1024u * 1024u)
#define DEFAULT_INSTRUCTIONS 1000000000LL
#define DEFAULT_SECONDS 20.0

static const struct {
    const char *kind, *folder;
} kinds[PLUGIN_N_KINDS] = {
    {"pricing", "pricing"},
    {"importer", "importers"},
    {"rule", "rules"},
    {"checklist", "checklists"},
};

const char *plugin_kind_at(size_t i) { return i < PLUGIN_N_KINDS ? kinds[i].kind : NULL; }

const char *plugin_kind_folder(const char *kind)
{
    for (size_t k = 0; kind && k < PLUGIN_N_KINDS; k++)
        if (strcmp(kind, kinds[k].kind) == 0)
            return kinds[k].folder;
    return NULL;
}

unsigned plugin_kind_bit(const char *kind)
{
    for (size_t k = 0; kind && k < PLUGIN_N_KINDS; k++)
        if (strcmp(kind, kinds[k].kind) == 0)
            return 1u << k;
    return 0;
}

/* A positive, finite number from the environment variable name, else 0. */
static double env_number(const char *name)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    char *end;
    double v = strtod(s, &end);
    return (*end == '\0' && v > 0 && isfinite(v)) ? v : 0;
}

plugin_limits plugin_limits_resolve(const plugin_limits *given)
{
    plugin_limits l = {0, 0, 0};
    if (given)
        l = *given;
    double mb = env_number("GPUWISE_PLUGIN_MEMORY_MB");
    double instr = env_number("GPUWISE_PLUGIN_INSTRUCTIONS");
    double secs = env_number("GPUWISE_PLUGIN_SECONDS");
    if (!l.memory_bytes)
        l.memory_bytes = mb > 0 ? (size_t)(mb * 1024 * 1024) : DEFAULT_MEMORY;
    if (!l.instructions)
        l.instructions = instr > 0 ? (long long)instr : DEFAULT_INSTRUCTIONS;
    if (l.wall_seconds <= 0)
        l.wall_seconds = secs > 0 ? secs : DEFAULT_SECONDS;
    return l;
}
