/* limits.h — the environment variables gpuwise reads as numbers, in one table (name, what it
 * sets, unit, default, range) with one strict parser, and the limit on each kind of input it
 * reads, which those variables raise.  The manual's ENVIRONMENT and LIMITS sections are written
 * from this table (cli_help.c); variables that are not numbers (paths, NO_COLOR) are not here. */
#ifndef GW_LIMITS_H
#define GW_LIMITS_H

#include <stddef.h>

#include "error.h"

typedef enum gw_env_id {
    /* the input limits, in gw_input's order (GW_INPUT_WORKLOAD is GW_ENV_MAX_WORKLOAD_MB) */
    GW_ENV_MAX_WORKLOAD_MB,
    GW_ENV_MAX_TEMPLATE_MB,
    GW_ENV_MAX_DATA_MB,
    GW_ENV_MAX_PLUGIN_MB,
    GW_ENV_MAX_INPUT_MB,
    GW_ENV_MAX_IMPORT_MB,
    GW_ENV_MAX_DUMP_MB,
    GW_ENV_MAX_KB_MB,
    GW_ENV_PLUGIN_SECONDS,
    GW_ENV_PLUGIN_MEMORY_MB,
    GW_ENV_PLUGIN_INSTRUCTIONS,
    GW_ENV_FETCH_MAX_MB,
    GW_ENV_FETCH_ALLOW_PRIVATE,
    GW_ENV_DECIDE_FULL,
    GW_ENV_BUSY_TIMEOUT_MS,
    GW_ENV_SOURCE_DATE_EPOCH,
    GW_ENV_N
} gw_env_id;

typedef struct gw_env_var {
    const char *name;       /* "GPUWISE_PLUGIN_SECONDS" */
    const char *sets;       /* what it sets, for the manual; NULL for an input limit (input says) */
    const char *input;      /* an input limit: "a workload file", for messages and LIMITS */
    const char *unit;       /* "seconds", "MiB"; "" for a switch (0 or 1) */
    double fallback;        /* the value when it is not set; NAN: none (the clock, for dates) */
    double min, max;        /* the range a value must be in */
    int whole;              /* 1: decimal digits only (no sign, point or exponent) */
} gw_env_var;

/* The table, indexed by gw_env_id. */
extern const gw_env_var gw_env_vars[GW_ENV_N];

/* Parses text as a value of variable id: a whole number (digits only) or, where fractions are
 * allowed, a decimal number (gw_parse_decimal: no hex, inf or nan), within [min, max].  GW_OK
 * with *out set, or GW_EUSAGE: "GPUWISE_PLUGIN_SECONDS: expected a number of seconds from
 * 0.001 to 86400, not 'abc'" (an empty text is refused too). */
int gw_env_parse(gw_env_id id, const char *text, double *out, gw_error *err);

/* The value of variable id: gw_env_parse of the environment's text, or its default when it is
 * not set (NAN for one without a default).  On an error *out gets the default as well, so a
 * caller that passes err = NULL keeps going: main.c has refused every malformed variable before
 * any command runs (gw_env_check). */
int gw_env_number(gw_env_id id, double *out, gw_error *err);

/* Checks every variable of the table that is set: GW_OK, or the first gw_env_parse error.  main.c
 * calls it once at start, so garbage is one clear error whichever command would have read it. */
int gw_env_check(gw_error *err);

/* ---- the input limits ------------------------------------------------------------------------
 * Each kind of input gpuwise reads has a limit suited to it, enforced while reading (buf.h's
 * gw_read_file_max), so /dev/zero, a FIFO or a huge file is refused at the limit, never read to
 * the end.  A gw_input is the index of the variable that raises its limit. */
typedef enum gw_input {
    GW_INPUT_WORKLOAD = GW_ENV_MAX_WORKLOAD_MB,     /* a workload file */
    GW_INPUT_TEMPLATE = GW_ENV_MAX_TEMPLATE_MB,     /* a template or partial */
    GW_INPUT_DATA = GW_ENV_MAX_DATA_MB,             /* render's DATA.json */
    GW_INPUT_PLUGIN = GW_ENV_MAX_PLUGIN_MB,         /* a plugin's or plugin test's source */
    GW_INPUT_PLUGIN_INPUT = GW_ENV_MAX_INPUT_MB,    /* a file handed to a plugin (--input) */
    GW_INPUT_IMPORT = GW_ENV_MAX_IMPORT_MB,         /* a file to import into the KB */
    GW_INPUT_DUMP = GW_ENV_MAX_DUMP_MB,             /* an nvidia-smi dump, or what it prints */
    GW_INPUT_KB = GW_ENV_MAX_KB_MB,                 /* a KB copied whole (the shipped one) */
    GW_INPUT_N
} gw_input;

/* What kind is, for messages ("a workload file"), and the variable that raises its limit. */
const char *gw_input_what(gw_input kind);
const char *gw_input_env(gw_input kind);

/* The limit of kind in bytes: its variable when set, else the default.  GW_OK, or GW_EUSAGE as
 * gw_env_parse (*bytes then holds the default limit). */
int gw_input_max(gw_input kind, size_t *bytes, gw_error *err);

/* Reads the file at path ("-": standard input) whole, within the limit of kind (caller frees
 * *out, which is NUL-terminated; *len may be NULL).  GW_OK; GW_ENOINPUT when it cannot be opened
 * or read or is a folder ("PATH: why"); GW_EDATA when it holds more than the limit ("PATH: too
 * large for a workload file: more than 1 MiB (GPUWISE_MAX_WORKLOAD_MB raises the limit)");
 * GW_EUSAGE as gw_input_max.  A read stopped by SIGINT/SIGTERM is GW_ENOINPUT with the signal
 * pending. */
int gw_read_input(const char *path, gw_input kind, char **out, size_t *len, gw_error *err);

/* What errno e means for a read of input name (a path, or "standard input") within max bytes of
 * kind's limit, as gw_read_input says it: EFBIG over the limit (GW_EDATA), EISDIR a folder, any
 * other a failure to read (GW_ENOINPUT); GW_OK for 0.  For readers that stream their input. */
int gw_input_error(const char *name, gw_input kind, size_t max, int e, gw_error *err);

#endif
