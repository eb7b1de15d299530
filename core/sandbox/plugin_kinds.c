/* plugin_kinds.c — the plugin kinds and their folders, and the limits every plugin call runs
 * under (defaults, environment, explicit).  Plain data both sides of the host read; it calls
 * nothing of theirs. */
#include "plugin_kinds.h"

#include <string.h>

#include "base/limits.h"

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

/* Explicit limits win, then the environment, then the defaults (base/limits.h's table). */
plugin_limits plugin_limits_resolve(const plugin_limits *given)
{
    plugin_limits l = {0, 0, 0};
    if (given)
        l = *given;
    double mb, instr, secs;   /* main.c has refused malformed values (gw_env_check) */
    gw_env_number(GW_ENV_PLUGIN_MEMORY_MB, &mb, NULL);
    gw_env_number(GW_ENV_PLUGIN_INSTRUCTIONS, &instr, NULL);
    gw_env_number(GW_ENV_PLUGIN_SECONDS, &secs, NULL);
    if (!l.memory_bytes)
        l.memory_bytes = (size_t)mb << 20;
    if (!l.instructions)
        l.instructions = (long long)instr;
    if (l.wall_seconds <= 0)
        l.wall_seconds = secs;
    return l;
}
