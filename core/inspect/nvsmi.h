/* nvsmi.h — an `nvidia-smi -q -x` dump read into plain C structs: every layout from DTD v7
 * (driver 352) to v13 (driver 595), with each value kept as the text the dump wrote, where it
 * stood (element path and line) and its quantity when it has one.  Reads through xml.h only;
 * the dump's DOCTYPE is never followed.  Also runs `nvidia-smi -q -x` when it is installed. */
#ifndef GW_NVSMI_H
#define GW_NVSMI_H

#include <stddef.h>

#include "base/error.h"
#include "base/units.h"

/* The largest dump accepted is limits.h's GW_INPUT_DUMP limit (32 MiB unless raised): eight GPUs
 * with every field come to about 230 KB, so anything near it is not an nvidia-smi dump. */
/* How long `nvidia-smi -q -x` may take by default (inspect --timeout changes it): a healthy
 * machine answers in a second or two; a GPU that fell off the bus hangs it for good. */
#define NVSMI_TIMEOUT_SECONDS 30
/* The longest text kept for one value (longer text is cut at a character boundary). */
#define NVSMI_MAX_TEXT 256

/* One element of the dump.  text is NULL when the element is absent; "N/A", "Not Active" and
 * other words stay as written, with has_number 0. */
typedef struct nvsmi_value {
    char *path;        /* "gpu/fb_memory_usage/total", "driver_version"; NULL when absent */
    char *text;        /* trimmed text as written; NULL when absent */
    int line;          /* line in the dump (0 when absent) */
    int has_number;    /* units_parse found a quantity in text */
    units_value q;     /* that quantity ("24576" "MiB") */
} nvsmi_value;

/* A clock-event ("throttle" before driver 535) reason: the element name without its
 * clocks_event_reason_ / clocks_throttle_reason_ prefix ("hw_slowdown"). */
typedef struct nvsmi_reason {
    char *name;
    nvsmi_value value;  /* "Active" / "Not Active" / "N/A" */
} nvsmi_reason;

/* One ECC counter: single_bit/total and double_bit/total in the old layout, sram_* and dram_*
 * in the new one.  Counters for sub-units (device_memory, l1_cache, ...) are not listed: the
 * totals already hold them. */
typedef struct nvsmi_ecc_counter {
    int aggregate;       /* 0: volatile (since the driver loaded), 1: aggregate (lifetime) */
    int uncorrectable;   /* 1: double bit / uncorrectable, 0: single bit / correctable */
    nvsmi_value value;
} nvsmi_ecc_counter;

typedef struct nvsmi_mig_device {
    nvsmi_value index, memory_total;
} nvsmi_mig_device;

typedef struct nvsmi_gpu {
    char *bus_id;        /* the id attribute ("00000000:01:00.0"); NULL when absent */
    int line;
    nvsmi_value product_name, product_brand, architecture, uuid, serial, vbios_version,
        persistence_mode, virtualization_mode, driver_model, mig_current, mig_pending,
        performance_state, fan_speed, gpu_util, memory_util,
        fb_total, fb_reserved, fb_used,
        pcie_gen_max, pcie_gen_current, pcie_gen_max_host, pcie_width_max, pcie_width_current,
        ecc_current, ecc_pending,
        retired_single_bit, retired_double_bit, retired_pending,
        remapped_rows,   /* the <remapped_rows> element itself: "N/A" when bare */
        remapped_correctable, remapped_uncorrectable, remapped_pending, remapped_failure,
        temp_gpu, temp_slowdown, temp_shutdown, temp_max_operating, temp_memory,
        temp_memory_max,
        power_draw, power_limit, power_default_limit, power_min_limit, power_max_limit;
    int remapped_nested;       /* <remapped_rows> has child elements */
    nvsmi_reason *reasons;
    size_t n_reasons;
    nvsmi_ecc_counter *ecc;
    size_t n_ecc;
    nvsmi_mig_device *mig_devices;
    size_t n_mig_devices;
    size_t n_processes;
} nvsmi_gpu;

typedef struct nvsmi_log {
    char *name;          /* the file name (or "nvidia-smi") used in messages */
    nvsmi_value timestamp, driver_version, cuda_version, attached_gpus;
    nvsmi_gpu *gpus;
    size_t n_gpus;
} nvsmi_log;

/* Reads a dump from memory.  name is used in messages.  GW_EDATA when the text is not XML or
 * its root is not <nvidia_smi_log> ("dump.xml:3: ...").  A dump with fields missing is not an
 * error: those values are absent.  Caller frees *out with nvsmi_log_free. */
int nvsmi_parse(const char *text, size_t len, const char *name, nvsmi_log **out, gw_error *err);

/* Reads a dump from a file (or a FIFO, a device: anything), within the GW_INPUT_DUMP limit.
 * GW_ENOINPUT when it cannot be opened, GW_EDATA as nvsmi_parse or when it is too large. */
int nvsmi_read_file(const char *path, nvsmi_log **out, gw_error *err);

/* Runs `nvidia-smi -q -x` found on PATH, in a process group of its own, and returns its output
 * (caller frees *text).  It has timeout_s seconds to answer and exit; then, or as soon as
 * SIGINT or SIGTERM arrives, its whole group is killed and waited for half a second at most (one
 * stuck in the kernel cannot die).  GW_EUNAVAILABLE when there is no nvidia-smi on PATH, it
 * fails or it times out; GW_EDATA when it prints more than the GW_INPUT_DUMP limit; the signal's
 * exit status (130, 143) when interrupted.  Each message says how to take the dump by hand. */
int nvsmi_capture(double timeout_s, char **text, size_t *len, gw_error *err);

void nvsmi_log_free(nvsmi_log *log);

/* 1 when v holds a quantity (stored in *n), 0 when it is absent or a word ("N/A"). */
int nvsmi_number(const nvsmi_value *v, double *n);
/* 1 when v is present and its text equals word, ignoring case. */
int nvsmi_is(const nvsmi_value *v, const char *word);
/* 1 when v is present and says something: not "N/A", "[N/A]", "Unknown Error", "" or the
 * "Requested functionality has been deprecated" placeholder. */
int nvsmi_known(const nvsmi_value *v);

#endif
