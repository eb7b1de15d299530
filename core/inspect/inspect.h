/* inspect.h — judging the GPUs of an nvidia-smi dump: identity, memory health, thermal and
 * power, bus and software checks, each PASS / WARN / FAIL / UNKNOWN with the evidence quoted
 * from the dump (element path, text and line).  Pure: the KB is reached through a lookup
 * function the caller gives, so the checks run the same against a test table. */
#ifndef GW_INSPECT_H
#define GW_INSPECT_H

#include <stddef.h>

#include "base/error.h"
#include "nvsmi.h"
#include "base/view.h"

typedef enum { INSPECT_PASS, INSPECT_WARN, INSPECT_FAIL, INSPECT_UNKNOWN } inspect_status;
#define INSPECT_N_STATUS 4

/* What the checks need to know of a card from the KB. */
typedef struct inspect_card {
    char *id;          /* "rtx-3090" */
    char *name;        /* "GeForce RTX 3090" */
    double memory_gb;  /* as sold ("24 GB" means 24 GiB of GPU memory); NaN when unknown */
    double tdp_w;      /* NaN when unknown */
} inspect_card;

/* Finds the card a product name means.  Returns GW_OK with card filled (strings the caller of
 * inspect_run no longer needs are freed by inspect; allocate them with gw_xstrdup),
 * GW_ENOTFOUND with err saying why (unknown or ambiguous name), or any other code for a
 * failure that stops the inspection. */
typedef int (*inspect_lookup_fn)(void *user, const char *product_name, inspect_card *card,
                                 gw_error *err);

typedef struct inspect_evidence {
    char *path, *text;   /* "gpu/fb_memory_usage/total", "20480 MiB" */
    int line;
} inspect_evidence;

typedef struct inspect_check {
    const char *id;      /* "identity.memory_total"; static */
    const char *group;   /* identity, memory, thermal, bus, software; static */
    inspect_status status;
    char *message;       /* one sentence for a person */
    inspect_evidence *evidence;
    size_t n_evidence;
} inspect_check;

#define INSPECT_MAX_CHECKS 24

typedef struct inspect_gpu {
    char *name;          /* product name as the dump wrote it; NULL when absent */
    char *bus_id;
    inspect_card card;   /* card.id NULL when the name did not resolve */
    double memory_total_mib;   /* NaN when absent */
    inspect_check checks[INSPECT_MAX_CHECKS];
    size_t n_checks;
} inspect_gpu;

typedef struct inspect_result {
    char *source;        /* the dump's name */
    char *driver_version, *cuda_version, *timestamp;   /* NULL when absent */
    inspect_gpu *gpus;
    size_t n_gpus;
    size_t counts[INSPECT_N_STATUS];   /* checks per status over all GPUs */
} inspect_result;

/* Runs every check on every GPU of log.  lookup may be NULL (no KB: identity is UNKNOWN).
 * Returns GW_OK (whatever the verdicts) or the lookup's hard failure.  Caller frees *out with
 * inspect_result_free. */
int inspect_run(const nvsmi_log *log, inspect_lookup_fn lookup, void *user, inspect_result **out,
                gw_error *err);
void inspect_result_free(inspect_result *r);

/* The view (what --json prints and the template reads): source, driver_version, cuda_version,
 * verdict, summary {pass, warn, fail, unknown}, gpus[] {index, bus_id, name, kb_id, kb_name,
 * memory_total_mib, driver_version, cuda_version, summary, checks[] {id, group, status,
 * message, fail, warn, evidence_text, evidence[] {path, text, line, quote}}}.  Caller owns it. */
view *inspect_view(const inspect_result *r);

/* "PASS", "WARN", "FAIL", "UNKNOWN". */
const char *inspect_status_name(inspect_status s);
/* The worst status over all checks (FAIL > WARN > UNKNOWN > PASS); PASS when there are none. */
inspect_status inspect_verdict(const inspect_result *r);
/* The check with that id on a GPU, or NULL. */
const inspect_check *inspect_find(const inspect_gpu *g, const char *id);

#endif
