/* plugin_kinds.h — what both sides of the plugin host share and neither calls back for: the four
 * kinds and their folders, a plugin's identity (plugin_info) and its limits (plugin_limits, with
 * the defaults and the environment's overrides).  plugin.c (gpuwise's side) and plugin_lua.c (the
 * worker's side) both build on this; it calls neither. */
#ifndef GW_PLUGIN_KINDS_H
#define GW_PLUGIN_KINDS_H

#include <stddef.h>

typedef struct plugin_limits {
    long long instructions;   /* VM instructions per call (count hook); 0 = default */
    size_t memory_bytes;      /* per lua_State; 0 = default */
    double wall_seconds;      /* per call; 0 = default */
} plugin_limits;

typedef struct plugin_info {
    const char *name, *kind, *version, *description;
    const char *path;          /* the file it was loaded from */
    const char *overrides;     /* path of the shipped plugin of the same name it hides, or NULL */
    long batch_rows;           /* importer: CSV records per import() call; 0 = whole file */
    double prefers_at_most;    /* rule: the most its preferences on one option weigh together
                                * (plugins/README.md, "The rule contract"); -1: not declared */
    int compiled;              /* shipped: its text is byte for byte a shipped plugin's
                                * (embedded.h), as gpuwise's own process found the text it read */
} plugin_info;

/* Explicit limits win (given may be NULL), then the environment (GPUWISE_PLUGIN_MEMORY_MB,
 * GPUWISE_PLUGIN_INSTRUCTIONS, GPUWISE_PLUGIN_SECONDS), then the defaults. */
plugin_limits plugin_limits_resolve(const plugin_limits *given);

/* How many kinds there are: pricing, importer, rule, checklist, in that order. */
#define PLUGIN_N_KINDS 4

/* The name of kind i ("pricing", ...) for i < PLUGIN_N_KINDS, else NULL.  Static storage. */
const char *plugin_kind_at(size_t i);

/* The folder name of a kind ("pricing" -> "pricing", "importer" -> "importers"), or NULL. */
const char *plugin_kind_folder(const char *kind);

/* 1 << i for the kind named kind (its place in plugin_kind_at's order), 0 for none. */
unsigned plugin_kind_bit(const char *kind);

#endif
