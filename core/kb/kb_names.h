/* kb_names.h — the name-resolution cache as the other kb_*.c files see it (kb_names.c): built
 * when a name is first resolved (kb_names_load), kept up by writes of GPUs and aliases, read by
 * the rule of whose a name is (kb_names_own.c) and checked by kb_check. */
#ifndef GW_KB_NAMES_H
#define GW_KB_NAMES_H

#include "base/buf.h"
#include "kb.h"

/* What resolution knows of one GPU: its names normalised (concatenated tokens) and tokens. */
struct gpu_names {
    char *id;
    char *form_factor;
    double memory_gb;
    char **variants;      /* id, name and every alias, normalised */
    size_t n_variants;
    char **tokens;        /* tokens of all of those plus form factor and memory type */
    size_t n_tokens;
    char **name_tokens;   /* tokens of the marketing name alone */
    size_t n_name_tokens;
};

/* Reads the cache from the KB unless it is there: every GPU in id order with its names. */
int kb_names_load(kb *k, gw_error *err);
/* A name normalised as resolution compares names ("NVIDIA GeForce RTX-4090" is "rtx4090");
 * caller frees. */
char *kb_name_norm(const char *name);
void kb_names_drop(kb *k);                 /* after a write it cannot follow */
/* 1 when the cache is built: a name that is some GPU's whole name, resolved first on a
 * connection, is found without it (tests check that it was). */
int kb_names_cached(const kb *k);
/* After storing row v of table (KB_GPUS or KB_ALIASES) with outcome (KB_ADDED, ...): an added
 * GPU or alias joins the cache (one reload per import row made importing thousands of GPUs
 * quadratic: TechPowerUp's 767 took 10x as long), anything else drops it. */
void kb_names_written(kb *k, int table, const kb_value *v, int outcome);
/* One report line per name two GPUs answer to, and per desktop card with a laptop alias
 * ("RTX 3080 Laptop" on rtx-3080); returns their number, -1 (err set) when the names cannot be
 * read. */
int kb_names_clashes(kb *k, gw_buf *report, gw_error *err);

#endif
