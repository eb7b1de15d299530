/* kb.h — the knowledge base: an SQLite file of GPU specs, measured results, prices, exchange
 * rates, the figures the decision assumes, and their sources, with one FTS5 index.  Only the
 * kb*.c files know SQL (kb_file.c says which does what: the file, the SQL helpers, the table
 * descriptions, writes, reads, names, the filter, search, text, the check).
 *
 * Ownership: every struct filled by a kb_* call owns its strings; release it with the matching
 * _free (arrays with the _array_free helpers).  Numbers that are unknown are NaN (NULL in SQL).
 * Writes happen only between kb_begin() and kb_commit(); kb_rollback() undoes them all. */
#ifndef GW_KB_H
#define GW_KB_H

#include <stddef.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/error.h"

typedef struct kb kb;

enum kb_open_flags {
    KB_READ = 0,       /* read-only: the file must exist and be a gpuwise KB */
    KB_WRITE = 1,      /* read-write: the file must exist */
    KB_CREATE = 3      /* read-write; creates and initialises the schema when missing */
};

/* Opens (and migrates forward, when writable) a KB.  Errors: GW_ENOINPUT (missing),
 * GW_EDATA (not an SQLite file, or not a gpuwise KB, or from a newer gpuwise), GW_EBUSY,
 * GW_ECANTCREAT (path goes through another user's link in a sticky folder: buf.h). */
int kb_open(const char *path, int flags, kb **out, gw_error *err);
void kb_close(kb *k);
const char *kb_path(const kb *k);
int kb_schema_version(const kb *k);

/* One write transaction (BEGIN IMMEDIATE).  GW_EBUSY when another writer holds the KB past the
 * busy timeout ("knowledge base busy"). */
int kb_begin(kb *k, gw_error *err);
/* Stops the statements running on every open KB (sqlite3_interrupt); async-signal-safe, for
 * gw_signals_on_interrupt.  The interrupted call fails with GW_EINTR_INT/TERM. */
void kb_interrupt_all(void);
int kb_commit(kb *k, gw_error *err);
void kb_rollback(kb *k);

/* ---- the tables, each described once ------------------------------------------------------
 * Every column of every table is described in one place (kb_table.c): its name, type, whether it
 * is required, its range, its unit and label for people, how it reads as text, and where the row
 * struct below keeps it.  Validation (of CSV rows and of plugin records alike), storage, reads,
 * export, the --where/--sort fields, views, --json and the datasheet all follow that description;
 * kb_check compares it with the SQL schema. */
enum kb_table_id {   /* dependency order: what a row refers to comes first */
    KB_SOURCES, KB_GPUS, KB_ALIASES, KB_RATES, KB_SYSTEMS, KB_BENCHMARKS, KB_PRICES, KB_CLAIMS,
    KB_ASSUMPTIONS, KB_MODELS, KB_PROVIDERS, KB_HOSTS, KB_PRECISION_SUPPORT, KB_TABLES
};

typedef enum kb_type { KB_TEXT, KB_NUMBER, KB_FLAG /* 0 or 1 */ } kb_type;

enum kb_column_flags {
    KB_REQUIRED = 1 << 0,      /* must be given */
    KB_KEY = 1 << 1,           /* part of the row's identity: a row with a key replaces the row
                                * with that key, a row without one is added */
    KB_ID = 1 << 2,            /* a lower-case id: a-z 0-9 . _ - */
    KB_DATE = 1 << 3,          /* YYYY-MM or YYYY-MM-DD */
    KB_CURRENCY = 1 << 4,      /* an ISO 4217 code */
    KB_CITES = 1 << 5,         /* names a source row */
    KB_NAMES_GPU = 1 << 6,     /* names a gpu row */
    KB_POSITIVE = 1 << 7,      /* a number > 0 (every other number is >= 0) */
    KB_DEFAULT_ONE = 1 << 8,   /* empty means 1 (counts) */
    KB_DEFAULT_ZERO = 1 << 9,  /* empty means 0 (a flag that is off unless said) */
    KB_INT = 1 << 10,          /* the row struct keeps it as an int (else a double); unknown
                                * is -1 there (a column with a default is never unknown) */
    KB_META = 1 << 11,         /* about the row, not the thing (source, note): no --where field */
    KB_LOWER_BETTER = 1 << 12, /* in a comparison the lowest figure is the best */
    KB_NAMES_SYSTEM = 1 << 13, /* names a system row */
    KB_NAMES_PRICE_KIND = 1 << 14, /* names a price_kind row: the values it may take are the
                                    * KB's kinds (kb_price_kinds), not a list in C */
    KB_GPU_COUNT = 1 << 15,     /* a number of GPUs: whole, 1 to KB_GPU_COUNT_MAX */
    KB_PIPELINE_LAYOUT = 1 << 16 /* Megatron's pipeline stage layout notation (kb_layout.h) */
};
/* The most GPUs one row counts: the largest measured run the KB holds (1,024 GPUs), where a
 * bigger figure is a typo or an attack (1e12 GPUs overflows every count downstream). */
#define KB_GPU_COUNT_MAX 1024

/* How a value reads for people (cli_kb_common.c writes each form). */
typedef enum kb_text_form {
    KB_FORM_PLAIN,          /* the text itself; a number as a figure and its unit */
    KB_FORM_MEMORY,         /* "80 GB HBM2e": the figure with the memory type */
    KB_FORM_PCIE,           /* "Gen 4 x16": the generation with the lanes */
    KB_FORM_NONE_IF_ZERO,   /* "none" for 0 (no NVLink, no MIG) */
    KB_FORM_MONEY,          /* "$1,499": an amount in the unit's currency */
    KB_FORM_DENSE,          /* a dense tensor figure; "(624 with 2:4 sparsity)" where it applies */
    KB_FORM_SPARSITY,       /* "2:4 structured (tensor figures below are dense)" */
    KB_FORM_YES_NO          /* a flag: "yes" or "no" */
} kb_text_form;

typedef struct kb_column {
    const char *name;
    kb_type type;
    int flags;                    /* enum kb_column_flags */
    const char *const *allowed;   /* the values a text may take (NULL-terminated), or NULL */
    const char *unit;             /* what a number counts, as people read it: "GB/s" ("" none) */
    const char *label;            /* its row in a datasheet ("Memory bandwidth"); NULL: none */
    kb_text_form form;
    ptrdiff_t offset;             /* where the table's struct keeps it (-1: nowhere); read it
                                   * with kb_column_text / kb_column_number */
} kb_column;

/* The columns of a table in their CSV order; *n gets their number.  NULL out of range. */
const kb_column *kb_table_columns(int table, size_t *n);
/* A table's column by name; NULL when it has none. */
const kb_column *kb_table_column(int table, const char *name);
const char *kb_table_name(int table);     /* "sources", "gpus", ...; NULL out of range */

/* One value of a row on its way in: text (NULL: empty) for a text column, number (NaN: empty)
 * for the others.  A row is one value per column, in column order. */
typedef struct kb_value {
    const char *text;
    double number;
} kb_value;
void kb_values_clear(kb_value *row, size_t n);   /* every value empty */

/* What is wrong with one value (after the defaults of kb_row_check), by its column alone. */
typedef enum kb_problem {
    KB_FINE, KB_MISSING, KB_TOO_LONG, KB_NOT_ID, KB_NOT_DATE, KB_NOT_CURRENCY, KB_NOT_ALLOWED,
    KB_NOT_FINITE, KB_NOT_FLAG, KB_NEGATIVE, KB_NOT_POSITIVE, KB_NOT_GPU_COUNT,
    KB_NOT_TEXT,  /* invalid UTF-8, or a control character other than tab and newline */
    KB_NOT_LAYOUT /* not a pipeline stage layout kb_layout_parse reads */
} kb_problem;
#define KB_TEXT_MAX 100000   /* bytes in one text value */
kb_problem kb_value_check(const kb_column *c, const kb_value *v);
/* The KB's words for a problem, without the column name: "must be greater than 0",
 * "'2020-13' is not a date (YYYY-MM or YYYY-MM-DD)". */
void kb_problem_text(kb_problem p, const kb_column *c, const kb_value *v, char *out,
                     size_t outsz);
/* Checks a row of table against the description alone, the way every write checks it but
 * without a KB: the ids it names (a GPU, a source) are not looked up.  Fills the defaults (counts
 * 1, flags 0).  GW_EDATA with "column: problem" for the first bad value. */
int kb_row_check(int table, kb_value *row, gw_error *err);

typedef struct kb_source {
    char *id, *title, *publisher, *url, *retrieved, *kind, *note;
    long long fact_count;          /* filled by kb_sources_list */
} kb_source;

/* The row structs: their fields are the columns of their table (kb_table.c names each offset). */
typedef struct kb_gpu {
    char *id, *name, *vendor, *architecture, *form_factor, *memory_type, *sparsity,
        *release_date, *source, *note;
    double memory_gb, memory_bandwidth_gbs, tdp_w, fp32_tflops, tf32_tflops, fp16_tflops,
        bf16_tflops, fp8_tflops, int8_tops, pcie_gen, pcie_lanes, nvlink_gbs, mig_instances,
        ecc, launch_price_usd;
    /* Schema version 6.  nvlink_gbs above is the scale-up link of whatever kind link_kind
     * names (nvlink, infinity-fabric, roce, none; NULL unknown), both directions together. */
    double fp4_tflops;          /* dense FP4 tensor rate; NaN where the part has none */
    char *link_kind;
    char *restriction;          /* a dated sentence on the export rules that concern the part */
    /* Schema version 10. */
    char *discontinued;         /* when it stopped being sold new (YYYY-MM[-DD]); NULL unknown */
    int p2p;                    /* GPU peer-to-peer over PCIe: 1 works, 0 the driver disables
                                 * it (GeForce), -1 unknown */
    /* Schema version 12: the memory as the driver reports it, in MiB (nvidia-smi's "FB Memory
     * Usage" total of a real dump, as published), and the source that publishes it; NaN and
     * NULL where the KB has none (a decision then estimates it: model_card_memory_gb). */
    double memory_mib;
    char *memory_mib_source;
} kb_gpu;

typedef struct kb_benchmark {
    long long id;
    char *gpu, *workload, *metric, *unit, *precision, *framework, *interconnect, *source, *note;
    double gpu_count, value, batch, power_w;
    /* Schema version 12, a language model's scenario (kb_table.c describes them): the
     * fine-tune's method (full | lora | qlora; NULL pre-training and serving), the tokens of a
     * training sequence or a served request's mean prompt, a request's mean output; NaN none. */
    char *method;
    double input_tokens, output_tokens;
    /* Schema version 13, the parallel layout a language model's row states (kb_table.c): the
     * tensor-, pipeline-, context- and expert-parallel widths, the virtual pipeline stages a
     * GPU holds, the sequences a micro-batch and a step of all GPUs; NaN unknown. */
    double tensor_parallel, pipeline_parallel, context_parallel, expert_parallel;
    double virtual_pipeline, micro_batch, global_batch;
    /* Schema version 15, the activation recomputation a training row states (kb_table.c):
     * none | selective | full (NULL unknown), and the layers a full one covers (NaN: all). */
    char *recompute;
    double recompute_layers;
    /* Schema version 16: the pipeline stage layout a training row states, in Megatron's
     * notation (kb_layout.h: "Et*4|(t*4|)*14tmL"); NULL: an even split of the layers. */
    char *pipeline_layout;
    /* Schema version 17: the sharding a training row states (kb_table.c): none | zero1 | zero2 |
     * zero3 (NULL unknown). */
    char *sharding;
} kb_benchmark;

typedef struct kb_price {
    long long id;
    char *gpu, *kind /* new|used|cloud */, *currency, *unit /* card|hour */, *region, *provider,
        *instance, *as_of, *source, *note;
    double amount, gpu_count;
    int spot;
    char *quality;              /* its kind of evidence: a price_kind id (kb_price_kinds);
                                 * NULL unknown */
    double gpu_fraction;        /* the share of one card an instance's GPU is (a MIG slice) */
    double min_billing_hours;   /* the fewest hours a rental is billed for; NaN none stated */
    char *system;               /* a purchase of a whole system (kb_system): its id; NULL a card */
    double network_gbps;        /* a cloud instance's network to other instances, Gb/s; NaN */
    double long_billing_after_hours;   /* a rental longer than this is billed in steps of */
    double long_billing_hours;         /* this beyond it; both NaN: none stated */
} kb_price;

/* A machine a GPU is sold in when it is not sold as a card (SXM and OAM modules come on 4- or
 * 8-GPU baseboards in servers): its GPUs, its whole power and its network to other machines. */
typedef struct kb_system {
    char *id, *name, *gpu, *source, *note;
    double gpu_count, power_w, network_gbps;
} kb_system;

/* A machine bought around cards sold one by one (a desktop, a workstation, a server of PCIe
 * slots): the most cards it takes, its own draw at the wall besides them, and its price with the
 * kind of evidence that price is (a price_kind id) and its date. */
typedef struct kb_host {
    char *id, *name, *kind, *currency, *quality, *as_of, *source, *note;
    double max_cards, power_w, price;
} kb_host;

/* An architecture that computes a number format (schema version 12): in tensor or matrix cores
 * for a compute format (bf16, fp8, ...), or with weight-only kernels for a format whose weights
 * are dequantized to 16 bits (fp8-w8a16, fp4-w4a16).  Where training at that format has been
 * measured against BF16 on that architecture: the speed-up the model uses and its band, the
 * lowest and highest published measurement, each with its source; NaN and NULL where not. */
typedef struct kb_precision_support {
    char *precision, *architecture;
    double train_speedup, train_speedup_low;
    char *low_source;
    double train_speedup_high;
    char *high_source, *source, *note;
} kb_precision_support;

typedef struct kb_rate {
    char *currency, *as_of, *source;
    double per_usd;
} kb_rate;

typedef struct kb_claim {
    char *subject, *claim, *status, *correction, *source, *correction_source;
} kb_claim;

/* The figures the decision falls back on where a workload leaves them out, or where no
 * measurement gives them: rows of the assumption table, each citing its source like any fact.
 * These are the ids there may be; kb_table.c describes each one's unit and range once, and every
 * write of a row is checked against them. */
typedef enum kb_assumed {
    KB_ASSUMED_HOST_COST,       /* host_cost: a host machine around the cards, in a currency */
    KB_ASSUMED_HOST_POWER,      /* host_power_w: a host's draw besides its cards, W */
    KB_ASSUMED_RESALE,          /* resale_fraction: share of a card's price left at the horizon */
    KB_ASSUMED_HOST_NETWORK,    /* host_network_gbps: the network between the machines of a
                                 * multi-host purchase, Gb/s */
    KB_ASSUMED_POOR_COOLING,    /* poor_cooling_factor: the share of throughput a multi-card
                                 * consumer build keeps in a poorly cooled room */
    KB_ASSUMED_LLM_MFU,         /* llm_mfu: the share of a GPU's dense tensor rate a language
                                 * model's training (and prefill) reaches */
    KB_ASSUMED_DECODE_BANDWIDTH,/* decode_bandwidth_fraction: the share of memory bandwidth a
                                 * serving stack reaches while generating tokens */
    KB_ASSUMED_FROM_HIGH,       /* from_high_factor: the high end of a "from" price as a multiple
                                 * of its figure, where no current list price bounds it */
    KB_ASSUMED_SUPPORT,         /* support_fraction: support and warranty a year, as a share of
                                 * the hardware's price */
    KB_ASSUMED_COLOCATION,      /* colocation_per_kw_month: a colocation site's price per kW of
                                 * power a month, in a currency */
    KB_ASSUMED_COUNT
} kb_assumed;

/* A language model of the catalog (kb/data/models.csv): the architecture facts its published
 * configuration gives.  active_params is NaN for a dense model (every token runs through all
 * params); experts and experts_active NaN unless a mixture of experts. */
typedef struct kb_model {
    char *id, *name, *family, *source, *note;
    char *hf_repo;              /* the canonical Hugging Face repository id; NULL: none */
    double params, active_params, layers, hidden, heads, kv_heads, head_dim, ffn, vocab, context;
    double experts, experts_active;
    /* The mean width of a head's two attention products (q.k and scores.v) where it differs
     * from head_dim, the cache's: multi-head latent attention caches a latent and a rotary key
     * (written as 1 KV head of their mean) but multiplies over qk_nope + qk_rope and v_head_dim
     * values a head.  NaN: head_dim. */
    double attention_head_dim;
    /* The mean width a decode step's q.k and scores.v run over a head where it differs from
     * head_dim: engines decode latent attention in its absorbed form (W_UK folded into the
     * query, W_UV into the output), q.k over the cached latent and rotary key (576 values for
     * DeepSeek-V3), scores.v over the latent (512), 544 on average.  NaN: head_dim. */
    double decode_attention_head_dim;
} kb_model;

/* A cloud provider as the KB's prices name it (kb/data/providers.csv): what kind of seller it
 * is, whether it publishes a service level agreement (sla_url, cited by source), and the regions
 * its GPUs are in ("US;EU"; NULL unknown).  kind: hyperscaler | specialised | marketplace |
 * decentralised, NULL unknown. */
typedef struct kb_provider {
    char *id, *name, *kind, *sla_url, *regions, *source, *note;
    int sla;                    /* 1: publishes an SLA; 0: the source shows none */
} kb_provider;

typedef struct kb_assumption {
    char *id, *unit /* a currency code for money */, *source, *note;
    double value;
} kb_assumption;
/* The id of an assumed figure ("host_cost"); NULL out of range. */
const char *kb_assumed_id(kb_assumed which);

void kb_source_free(kb_source *s);
void kb_gpu_free(kb_gpu *g);
void kb_benchmark_free(kb_benchmark *b);
void kb_price_free(kb_price *p);
void kb_rate_free(kb_rate *r);
void kb_claim_free(kb_claim *c);
void kb_assumption_free(kb_assumption *a);
void kb_gpu_init(kb_gpu *g);          /* all strings NULL, all numbers NaN */
/* A column's value in a row struct of its table: its text (NULL for none, or for a column that
 * is not text), its number (NaN for none; a flag reads 0 or 1). */
const char *kb_column_text(const kb_column *c, const void *row);
double kb_column_number(const kb_column *c, const void *row);
void kb_gpus_free(kb_gpu *gpus, size_t n);
void kb_benchmarks_free(kb_benchmark *rows, size_t n);
void kb_prices_free(kb_price *rows, size_t n);
void kb_sources_free(kb_source *rows, size_t n);
void kb_system_free(kb_system *s);
void kb_systems_free(kb_system *rows, size_t n);
void kb_model_free(kb_model *m);
void kb_models_free(kb_model *rows, size_t n);
void kb_provider_free(kb_provider *p);
void kb_providers_free(kb_provider *rows, size_t n);
void kb_host_free(kb_host *h);
void kb_hosts_free(kb_host *rows, size_t n);
void kb_precision_support_free(kb_precision_support *r);
void kb_precision_supports_free(kb_precision_support *rows, size_t n);

/* Name resolution, the same for the CLI and for plugins: case, spaces, dashes and underscores
 * do not matter; "GeForce"/"NVIDIA"/"Tesla" prefixes, "(80 GB)" and "_SXM"-style suffixes are
 * understood, and a count at either end ("8x H100", "8xH100", "H100 x8", "4090x2": an x glued
 * to or beside a whole number); a Laptop, Mobile or Max-Q name is only ever a laptop part.
 * On success *id is the GPU id (caller frees) and *count the count written in the name (1 when
 * none).  GW_ENOTFOUND: unknown ("did you mean: ...?", computed without the count), ambiguous
 * ("A100" matches: a100-pcie-40gb, ...; the candidates are in err->msg), or a count that is
 * not a whole number of at least 1 or is unclear ("3090x4090"). */
int kb_gpu_resolve(kb *k, const char *name, char **id, int *count, gw_error *err);
/* The same where a set of GPUs is wanted: a family name ("H100", "A100") gives every variant it
 * matches, in id order; a precise name gives one.  Counts ("4x") are not read.  Caller frees
 * with kb_strings_free; GW_ENOTFOUND as kb_gpu_resolve for a name that matches nothing. */
int kb_gpu_resolve_family(kb *k, const char *name, char ***ids, size_t *n, gw_error *err);
/* GW_OK when name, the card gpu's id, name or alias (what: "id", "name" or "alias"), names no
 * other card today: an id or a name is no other card's id, name or alias after normalisation;
 * an alias also leads to no other card by its words as kb_gpu_resolve reads them ("H100 80GB"
 * is h100-sxm5's), unless it leads to gpu too.  GW_EDATA naming the cards it already names.
 * kb_row_put refuses the rest, so that no card takes over another's names. */
int kb_gpu_name_free(kb *k, const char *gpu, const char *what, const char *name, gw_error *err);

int kb_gpu_get(kb *k, const char *id, kb_gpu *out, gw_error *err);     /* GW_ENOTFOUND */
/* The aliases of a GPU, sorted.  Caller frees with kb_strings_free. */
int kb_gpu_aliases(kb *k, const char *id, char ***out, size_t *n, gw_error *err);
/* Every GPU id and alias, sorted (what completion offers).  Caller frees with kb_strings_free. */
int kb_gpu_names(kb *k, char ***out, size_t *n, gw_error *err);
void kb_strings_free(char **v, size_t n);
/* Filter language: "memory_gb>=48 and nvlink_gbs>0", sort "-memory_bandwidth_gbs" (NULL for
 * none).  GW_EUSAGE for an unknown field or a bad value.  Caller frees with kb_gpus_free. */
int kb_gpu_list(kb *k, const char *where, const char *sort, kb_gpu **out, size_t *n,
                gw_error *err);
/* The field names the filter language and `kb show --json` use, NULL-terminated: the GPU
 * columns that are not KB_META. */
const char *const *kb_gpu_fields(void);

/* ---- the derived fields of `kb list` ------------------------------------------------------
 * Figures a buyer compares that no column holds: a GPU's latest new price per card in a chosen
 * currency (converted as kb_convert does), that price per GB of memory, per dense FP16 TFLOPS and
 * per TB/s of bandwidth, and dense FP16 TFLOPS per watt.  Each is described once (kb_filter.c);
 * the filter language, --sort, --columns, the JSON and the help follow that description.  A GPU
 * without a new price has no price figures (NaN, NULL in SQL: sorted last), never 0. */
typedef struct kb_gpu_value {
    double new_price;               /* one card, in the currency asked; NaN: no new price */
    char *new_price_as_of;          /* when that price was observed */
    char *new_price_source;         /* the source it cites */
    double price_per_gb, price_per_fp16_tflops, price_per_tbs, fp16_tflops_per_w;
} kb_gpu_value;

typedef struct kb_derived {
    const char *name;     /* "price_per_gb": what --where, --sort, --columns and JSON call it */
    kb_type type;         /* KB_NUMBER or KB_TEXT */
    int money;            /* an amount in the currency asked */
    const char *unit;     /* after the figure ("per GB", "TFLOPS/W"); "" none */
    const char *label;    /* "Price per GB of memory" */
    const char *how;      /* how it is computed, for people (Markdown inline) */
    ptrdiff_t offset;     /* where kb_gpu_value keeps it */
} kb_derived;
/* The i-th derived field, in listing order; NULL past the last. */
const kb_derived *kb_gpu_derived(size_t i);
const kb_derived *kb_gpu_derived_find(const char *name);   /* NULL: no such field */
/* A derived field's value in a row: NaN / NULL where unknown (and for the other type). */
double kb_derived_number(const kb_derived *d, const kb_gpu_value *v);
const char *kb_derived_text(const kb_derived *d, const kb_gpu_value *v);
void kb_gpu_values_free(kb_gpu_value *rows, size_t n);
/* GW_OK when name is a field `kb list` knows (a GPU field or a derived one); else GW_EUSAGE
 * "WHAT unknown field 'x' (fields: ...)", what being "--columns: " or the like. */
int kb_list_field_check(const char *what, const char *name, gw_error *err);
/* kb_gpu_list with the derived fields: where and sort may name them too, prices are in currency
 * (NULL: USD) and *values (values may be NULL) gets one row per GPU, in the same order (caller
 * frees with kb_gpu_values_free).  GW_ENOTFOUND when currency has no exchange rate. */
int kb_gpu_list_values(kb *k, const char *where, const char *sort, const char *currency,
                       kb_gpu **out, kb_gpu_value **values, size_t *n, gw_error *err);

/* Measured results; gpu and workload may be NULL for "any". */
int kb_benchmarks_find(kb *k, const char *gpu, const char *workload, kb_benchmark **out,
                       size_t *n, gw_error *err);
/* One GPU's measured results of one workload, metric and GPU count, and within those of one
 * precision and unit (a median never mixes fp16 with fp32, or two units): how many, their
 * median (the middle value, or the mean of the middle two), lowest and highest, and the
 * sources they cite, sorted. */
typedef struct kb_result_summary {
    char *workload, *metric, *precision /* NULL: not stated */, *unit;
    double gpu_count;
    size_t rows;
    double median, min, max;
    char **sources;
    size_t n_sources;
} kb_result_summary;
/* GPU gpu's measured results summarised, in the order of workload, metric, GPU count,
 * precision and unit:
 * one pass over them in SQLite's order, keeping no row (a card with 50,000 results is read
 * without a struct per row).  Caller frees with kb_result_summaries_free. */
int kb_benchmarks_summary(kb *k, const char *gpu, kb_result_summary **out, size_t *n,
                          gw_error *err);
void kb_result_summaries_free(kb_result_summary *s, size_t n);
/* Every result measured in tokens/s (a language model's, each naming a model of the catalog),
 * by workload, gpu, metric, count and value; a look-up on the partial index benchmark_tokens
 * (an upgraded KB before version 12 has none: GW_EDATA through the missing columns).  Caller
 * frees with kb_benchmarks_free. */
int kb_benchmarks_in_tokens(kb *k, kb_benchmark **out, size_t *n, gw_error *err);
/* Prices; gpu, kind and provider may be NULL for "any". */
int kb_prices_find(kb *k, const char *gpu, const char *kind, const char *provider,
                   kb_price **out, size_t *n, gw_error *err);
/* The prices of cards and systems to buy (kind new or used), in kb_prices_find's order. */
int kb_prices_to_buy(kb *k, kb_price **out, size_t *n, gw_error *err);

/* Hourly cloud prices, read cheapest first through an index (a decision reads only as far
 * into a catalogue as can matter).  A configuration is a GPU, spot flag, card count and
 * currency that has such prices. */
typedef struct kb_cloud_config {
    char *gpu;
    int spot;
    double gpu_count;
    char *currency;
} kb_cloud_config;
/* The configurations of gpu (NULL: every GPU), on-demand only or spot too; by GPU, spot flag,
 * count and currency.  Free with kb_cloud_configs_free. */
int kb_cloud_configs(kb *k, const char *gpu, int spot_too, kb_cloud_config **out, size_t *n,
                     gw_error *err);
void kb_cloud_configs_free(kb_cloud_config *c, size_t n);
/* A configuration's rows one at a time, cheapest per whole card first (amount / gpu_fraction,
 * then id).  kb_cursor_next fills *row (free with kb_price_free) while *found, only with its
 * id, amount, currency, gpu_fraction, quality and as_of: what prices it and tells whether a
 * workload holds it back; kb_cursor_row fills the rest. */
typedef struct kb_cursor kb_cursor;
int kb_cloud_cursor(kb *k, const kb_cloud_config *c, kb_cursor **out, gw_error *err);
int kb_cursor_next(kb_cursor *c, kb_price *row, int *found, gw_error *err);
/* *row (freed first) filled with every column of the row kb_cursor_next last read;
 * kb_cursor_row_alone then says whether it is its offer's only row: kb_cloud_offer_rows would
 * return it alone. */
int kb_cursor_row(kb_cursor *c, kb_price *row, gw_error *err);
int kb_cursor_row_alone(const kb_cursor *c);
/* Whether the row kb_cursor_next last read is its offer's only row (*alone), and where it is,
 * whether its seller prices the same terms later (*newer: kb_cloud_newer of the row), without
 * reading the row's other columns. */
int kb_cursor_offer(kb_cursor *c, int anecdotes, int *alone, int *newer, gw_error *err);
void kb_cursor_close(kb_cursor *c);
/* The rows of the offer row is one of (the same GPU, count, source, provider, instance and spot
 * flag as row->id's, as stored): latest date first, then in kb_prices_find's order. */
int kb_cloud_offer_rows(kb *k, const kb_price *row, kb_price **out, size_t *n, gw_error *err);
/* Whether the seller of the price row of id terms (its provider, else its source) prices the
 * same GPU, count, spot flag and GPU fraction, as stored, at a later date than the row of id
 * dated, in a row that is no anecdote (anecdotes: any). */
int kb_cloud_newer(kb *k, long long terms, long long dated, int anecdotes, int *found,
                   gw_error *err);
/* The number of gpu's hourly cloud rows of a spot flag (*total) and, when there are at most
 * limit, the rows (by count, source, provider, instance, latest date first). */
int kb_cloud_rows(kb *k, const char *gpu, int spot, size_t limit, kb_price **out, size_t *n,
                  size_t *total, gw_error *err);
/* The kinds of evidence a price may be (the price_kind table), most trusted first: rank 1 is
 * the best, and a decision prefers a lower rank.  Free with kb_price_kinds_free. */
typedef struct kb_price_kind {
    char *id, *meaning;
    int rank;
} kb_price_kind;
int kb_price_kinds(kb *k, kb_price_kind **out, size_t *n, gw_error *err);
void kb_price_kinds_free(kb_price_kind *rows, size_t n);
/* The rank of kind id among kinds; 0 when id is NULL or not one of them. */
int kb_price_kind_rank(const kb_price_kind *kinds, size_t n, const char *id);
/* The systems a GPU is sold in (gpu NULL: every one), by id. */
int kb_systems_find(kb *k, const char *gpu, kb_system **out, size_t *n, gw_error *err);
/* Every host machine, fewest cards first (then the cheaper, then by id).  Caller frees with
 * kb_hosts_free. */
int kb_hosts_list(kb *k, kb_host **out, size_t *n, gw_error *err);
/* Every precision support row, by precision then architecture (none in a KB upgraded from before
 * version 12 until kb/data/precision_support.csv is imported).  Caller frees with
 * kb_precision_supports_free. */
int kb_precision_supports_list(kb *k, kb_precision_support **out, size_t *n, gw_error *err);
int kb_source_get(kb *k, const char *id, kb_source *out, gw_error *err);
/* The catalog's models, by id.  Caller frees with kb_models_free. */
int kb_models_list(kb *k, kb_model **out, size_t *n, gw_error *err);
/* The cloud providers the KB describes, by id.  Caller frees with kb_providers_free. */
int kb_providers_list(kb *k, kb_provider **out, size_t *n, gw_error *err);
/* A model of the catalog by its id, its name or its Hugging Face repo id, written as people do:
 * case, spaces, dots, dashes and underscores do not matter ("Llama 3.1 70B" is llama-3.1-70b), nor
 * an "owner/" prefix, a variant of the release (-Instruct, -it, -chat, -hf, -base, -v0.1, a date
 * such as -2507) or a quantized copy's format (-FP8, -AWQ, -GPTQ, -bnb-4bit, -GGUF):
 * "meta-llama/Llama-3.1-8B-Instruct-AWQ" is llama-3.1-8b.  GW_ENOTFOUND: "unknown model 'x' (did
 * you mean ...?)" with the nearest ids; *out is freed with kb_model_free. */
int kb_model_resolve(kb *k, const char *name, kb_model *out, gw_error *err);
/* Whether a model's name ends in a quantized copy's format (-FP8, -AWQ, -bnb-4bit, ...), which
 * kb_model_resolve sets aside: the architecture is the same, the precision is the workload's. */
int kb_model_name_quantized(const char *name);
/* Every source by id, each with fact_count: the rows of every table that cite it, counted by
 * one GROUP BY per table. */
int kb_sources_list(kb *k, kb_source **out, size_t *n, gw_error *err);
/* One provider's cloud offers (price rows of kind cloud), as `prices list` shows them. */
typedef struct kb_offer_provider {
    char *provider;                       /* "" for offers that name none */
    long long offers, spot, gpus, sources;   /* gpus and sources: how many distinct */
    char *oldest, *newest;                /* their as_of dates */
} kb_offer_provider;
/* Every provider of cloud offers, by name with case aside, summarised by one GROUP BY;
 * free with kb_offer_providers_free (kb_summary.c). */
int kb_offer_providers(kb *k, kb_offer_provider **out, size_t *n, gw_error *err);
void kb_offer_providers_free(kb_offer_provider *rows, size_t n);
int kb_claims_for(kb *k, const char *subject, kb_claim **out, size_t *n, gw_error *err);
void kb_claims_free(kb_claim *rows, size_t n);
/* The KB's row for one assumed figure.  GW_ENOTFOUND ("no assumed figure 'host_cost' in the
 * knowledge base") when it has none. */
int kb_assumption_get(kb *k, kb_assumed which, kb_assumption *out, gw_error *err);

/* Exchange: the latest rate of each currency.  GW_ENOTFOUND when a currency has no rate. */
int kb_rate_get(kb *k, const char *currency, kb_rate *out, gw_error *err);
int kb_convert(kb *k, double amount, const char *from, const char *to, double *out,
               gw_error *err);

/* Writes (inside kb_begin/kb_commit).  Each validates its record: GW_EDATA naming the field. */
enum kb_stored { KB_UNCHANGED, KB_ADDED, KB_UPDATED };
/* Checks row as kb_row_check does, then that the ids it names exist, and stores it: a row
 * identical to a stored one changes nothing; else a row with the identity of a stored one (its
 * table's KB_KEY columns, kb_table.c) updates that row; else it is added.  *outcome (may be
 * NULL) says which. */
int kb_row_put(kb *k, int table, kb_value *row, int *outcome, gw_error *err);
int kb_put_source(kb *k, const kb_source *s, gw_error *err);
int kb_put_gpu(kb *k, const kb_gpu *g, gw_error *err);        /* insert or replace by id */
int kb_add_alias(kb *k, const char *gpu, const char *alias, gw_error *err);
int kb_add_benchmark(kb *k, const kb_benchmark *b, gw_error *err);
int kb_add_price(kb *k, const kb_price *p, gw_error *err);
int kb_put_rate(kb *k, const kb_rate *r, gw_error *err);
int kb_add_claim(kb *k, const kb_claim *c, gw_error *err);
int kb_put_assumption(kb *k, const kb_assumption *a, gw_error *err);   /* replace by id */
/* Forgets which rows this transaction's writes matched (kb_row_put): what follows is matched
 * as a write of its own (one refresh of several in a transaction). */
int kb_matches_forget(kb *k, gw_error *err);
/* Removes the rows that cite source (their `source` column) and that no write of this
 * transaction matched (stored, updated, or found identical): after an import, what makes it
 * replace every row of that source.  removed[table] grows by each table's count.  GW_ENOTFOUND
 * when the KB has no such source; GW_EDATA when a row to remove is still named by another. */
int kb_remove_unmatched(kb *k, const char *source, size_t removed[KB_TABLES], gw_error *err);
/* Removes the rows of table among rows (their ids) that no write of this transaction matched;
 * *removed grows by how many: a refresh's earlier offers that its new ones did not match. */
int kb_remove_unmatched_rows(kb *k, int table, const long long *rows, size_t n,
                             size_t *removed, gw_error *err);
/* Removes the cloud offers of one provider (`prices remove`). */
int kb_delete_offers(kb *k, const char *provider, gw_error *err);

/* Full-text search over everything (FTS5).  Any text a person types is accepted: it is turned
 * into a safe FTS5 query, never spliced into SQL.  Caller frees with kb_hits_free. */
typedef struct kb_hit {
    char *kind;      /* gpu, benchmark, price, source, claim, rate, assumption */
    char *ref;       /* the GPU id, source id, assumption id, row id, or CURRENCY@AS_OF for a
                      * rate */
    char *title;
    char *snippet;   /* with [ and ] around the matched terms; NULL from kb_source_facts */
    double rank;
    char *gpu;       /* the GPU the entry is about; NULL for a source, a rate, an assumption, a
                      * general claim */
    char *source;    /* the source the entry cites (a source: itself) */
} kb_hit;
int kb_search(kb *k, const char *query, size_t limit, kb_hit **out, size_t *n, gw_error *err);
/* The entries that cite source id (a claim also when it cites it for its correction), as hits
 * without snippet or rank: GPUs, benchmarks, prices, rates, claims, then assumptions.  The
 * titles are those search shows.  Caller frees with kb_hits_free; no row is no error
 * (kb_source_get says whether the source exists). */
int kb_source_facts(kb *k, const char *id, kb_hit **out, size_t *n, gw_error *err);
void kb_hits_free(kb_hit *hits, size_t n);

/* Text form.  kb_import_text reads one table CSV (a kb/data CSV file, table known from the header)
 * or a whole export; name is used in errors ("gpus.csv:12: memory_gb: not a number").  It does
 * not begin or commit: callers wrap one or more imports in a single transaction.  The text is
 * strict RFC 4180 CSV in UTF-8 (kb_csv.h); a '#' line between records is a comment, and only
 * the first record of a text or the first after a comment or a blank line can be a header. */
int kb_import_text(kb *k, const char *name, const char *text, size_t len, gw_error *err);
/* Several texts (files) in one go: every section is read first, then stored in dependency
 * order (sources, gpus, aliases, rates, benchmarks, prices, claims, assumptions) whatever order
 * the files came in.  Each row is stored as kb_row_put stores it (a row with the identity of a
 * stored one updates it).  counts (may be NULL) says what changed, per table in that order
 * (kb_table_name); removed is for the caller (kb_remove_unmatched).  Like kb_import_text, it
 * neither begins nor commits. */
typedef struct kb_import_counts {
    size_t added[KB_TABLES], updated[KB_TABLES], unchanged[KB_TABLES], removed[KB_TABLES];
} kb_import_counts;
int kb_import_texts(kb *k, size_t n, const char *const *names, const char *const *texts,
                    const size_t *lens, kb_import_counts *counts, gw_error *err);
/* The same from open files (read from their start, in chunks: memory does not grow with them;
 * each is read twice, so each must be seekable). */
int kb_import_files(kb *k, size_t n, const char *const *names, FILE *const *files,
                    kb_import_counts *counts, gw_error *err);
/* Around a bulk write of rows that are only added (an import): the full-text index entries of
 * the new benchmark, price and claim rows are made in one statement at kb_bulk_end instead of
 * one trigger run per row (the index ends exactly as the triggers would have made it).  Both
 * inside the caller's transaction; nothing in between may delete rows of those tables. */
int kb_bulk_begin(kb *k, gw_error *err);
/* Stores a row struct of table (kb_source, kb_gpu, ...) as kb_row_put stores a row. */
int kb_put_row_struct(kb *k, int table, const void *row, int *outcome, gw_error *err);
int kb_bulk_end(kb *k, gw_error *err);
/* The schema version this program writes (kb_schema_version is the open file's). */
int kb_schema_latest(void);
/* Checks a --where filter without a KB (GW_EUSAGE with the problem). */
int kb_gpu_where_check(const char *where, gw_error *err);
/* Writes the whole KB as text that kb_import_text reads back to the same KB (byte-identical
 * re-export). */
int kb_export(kb *k, gw_buf *out, gw_error *err);
/* The same text handed to put in pieces as it is made (a row at a time from SQLite), so memory
 * stays flat however many rows there are.  put returns 0 or an errno value, which stops the
 * export with GW_EIO. */
typedef int (*kb_export_put)(const char *data, size_t len, void *arg);
int kb_export_to(kb *k, kb_export_put put, void *arg, gw_error *err);
/* Integrity and consistency check (PRAGMA integrity_check, foreign keys, every fact sourced, the
 * SQL tables as the column descriptions say). */
int kb_check(kb *k, gw_buf *report, gw_error *err);

#endif
