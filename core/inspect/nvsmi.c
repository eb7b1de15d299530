/* nvsmi.c — reads `nvidia-smi -q -x` dumps (see nvsmi.h).  Knows the element names of every
 * layout and the renames between them; knows no libxml2 (xml.h) and judges nothing (inspect.c
 * does).  Also the one place that runs nvidia-smi: in a process group of its own, with a
 * deadline, stopped with everything it started on timeout or on SIGINT/SIGTERM. */
#include "nvsmi.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/check.h"
#include "base/clock.h"
#include "base/limits.h"
#include "base/signals.h"
#include "io/xml.h"

extern char **environ;

/* A hostile dump may hold thousands of <gpu> elements; real machines hold at most a few dozen. */
#define NVSMI_MAX_GPUS 256

/* Copies at most NVSMI_MAX_TEXT bytes of s, never cutting a UTF-8 sequence in two. */
static char *text_bounded(char *s)
{
    size_t n = strlen(s);
    if (n <= NVSMI_MAX_TEXT)
        return s;
    n = NVSMI_MAX_TEXT;
    while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    memcpy(s + n, "...", 4);
    return s;
}

static void value_fill(nvsmi_value *v, const xml_node *node, const char *path)
{
    v->text = text_bounded(xml_node_text(node));
    v->path = gw_xstrdup(path);
    v->line = xml_node_line(node);
    v->has_number = units_parse(v->text, &v->q);
}

/* Reads prefix/path below base into v (left empty when absent). */
static void value_read(nvsmi_value *v, const xml_node *base, const char *prefix, const char *path)
{
    xml_node *node = xml_node_child(base, path);
    if (!node)
        return;
    gw_buf full = GW_BUF_INIT;
    buf_printf(&full, "%s%s%s", prefix, *prefix ? "/" : "", path);
    value_fill(v, node, buf_cstr(&full));
    buf_free(&full);
}

static void value_free(nvsmi_value *v)
{
    free(v->path);
    free(v->text);
    memset(v, 0, sizeof *v);
}

/* The first of several names the same value has had across driver versions: the first one
 * that holds something, else the first one present ("N/A" beats absent). */
static void value_read_first(nvsmi_value *v, const xml_node *base, const char *prefix,
                             const char *const *paths)
{
    for (size_t i = 0; paths[i]; i++) {
        nvsmi_value candidate = {0};
        value_read(&candidate, base, prefix, paths[i]);
        if (!candidate.text)
            continue;
        if (!v->text) {
            *v = candidate;
        } else if (!nvsmi_known(v) && nvsmi_known(&candidate)) {
            value_free(v);
            *v = candidate;
        } else {
            value_free(&candidate);
        }
        if (nvsmi_known(v))
            return;
    }
}

int nvsmi_known(const nvsmi_value *v)
{
    static const char *const blanks[] = {
        "", "N/A", "[N/A]", "Unknown Error", "[Unknown Error]", "Not Supported",
        "[Not Supported]", "Requested functionality has been deprecated", "None",
    };
    if (!v || !v->text)
        return 0;
    for (size_t i = 0; i < sizeof blanks / sizeof blanks[0]; i++)
        if (strcasecmp(v->text, blanks[i]) == 0)
            return 0;
    return 1;
}

int nvsmi_number(const nvsmi_value *v, double *n)
{
    if (!v || !v->text || !v->has_number)
        return 0;
    *n = v->q.value;
    return 1;
}

int nvsmi_is(const nvsmi_value *v, const char *word)
{
    return v && v->text && strcasecmp(v->text, word) == 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void read_reasons(nvsmi_gpu *g, const xml_node *gpu)
{
    static const struct { const char *element, *prefix; } layouts[] = {
        {"clocks_event_reasons", "clocks_event_reason_"},       /* driver 535 and later */
        {"clocks_throttle_reasons", "clocks_throttle_reason_"}, /* before */
    };
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        xml_node *block = xml_node_child(gpu, layouts[l].element);
        if (!block)
            continue;
        size_t cap = 0;
        for (xml_node *c = xml_node_first_child(block); c; c = xml_node_next(c))
            cap++;
        g->reasons = gw_xcalloc(cap ? cap : 1, sizeof *g->reasons);
        for (xml_node *c = xml_node_first_child(block); c; c = xml_node_next(c)) {
            const char *name = xml_node_name(c);
            if (!starts_with(name, layouts[l].prefix))
                continue;
            nvsmi_reason *r = &g->reasons[g->n_reasons++];
            r->name = gw_xstrdup(name + strlen(layouts[l].prefix));
            gw_buf path = GW_BUF_INIT;
            buf_printf(&path, "gpu/%s/%s", layouts[l].element, name);
            value_fill(&r->value, c, buf_cstr(&path));
            buf_free(&path);
        }
        return;
    }
}

/* Which counters of an ECC block are totals worth reading, and what they count. */
static int ecc_kind(const char *name, const char *parent, int *uncorrectable)
{
    if (strcmp(name, "total") == 0 && parent) {      /* old layout: single_bit/total */
        *uncorrectable = strcmp(parent, "double_bit") == 0;
        return 1;
    }
    if (parent)
        return 0;
    if (strstr(name, "uncorrectable")) {              /* sram_uncorrectable(_parity|_secded) */
        *uncorrectable = 1;
        return 1;
    }
    if (strstr(name, "correctable")) {
        *uncorrectable = 0;
        return 1;
    }
    return 0;   /* sram_threshold_exceeded and the like */
}

static void ecc_push(nvsmi_gpu *g, size_t *cap, const xml_node *node, int aggregate,
                     int uncorrectable, const char *path)
{
    if (g->n_ecc == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        g->ecc = gw_xrealloc(g->ecc, *cap * sizeof *g->ecc);
    }
    nvsmi_ecc_counter *e = &g->ecc[g->n_ecc++];
    memset(e, 0, sizeof *e);
    e->aggregate = aggregate;
    e->uncorrectable = uncorrectable;
    value_fill(&e->value, node, path);
}

static void read_ecc(nvsmi_gpu *g, const xml_node *gpu)
{
    static const char *const scopes[] = {"volatile", "aggregate"};
    size_t cap = 0;
    for (int s = 0; s < 2; s++) {
        gw_buf base = GW_BUF_INIT;
        buf_printf(&base, "ecc_errors/%s", scopes[s]);
        xml_node *block = xml_node_child(gpu, buf_cstr(&base));
        buf_free(&base);
        for (xml_node *c = block ? xml_node_first_child(block) : NULL; c; c = xml_node_next(c)) {
            const char *name = xml_node_name(c);
            int unc;
            gw_buf path = GW_BUF_INIT;
            if (xml_node_first_child(c)) {               /* single_bit { ..., total } */
                xml_node *total = xml_node_child(c, "total");
                if (total && ecc_kind("total", name, &unc)) {
                    buf_printf(&path, "gpu/ecc_errors/%s/%s/total", scopes[s], name);
                    ecc_push(g, &cap, total, s, unc, buf_cstr(&path));
                }
            } else if (ecc_kind(name, NULL, &unc)) {
                buf_printf(&path, "gpu/ecc_errors/%s/%s", scopes[s], name);
                ecc_push(g, &cap, c, s, unc, buf_cstr(&path));
            }
            buf_free(&path);
        }
    }
}

static void read_mig(nvsmi_gpu *g, const xml_node *gpu)
{
    xml_node *block = xml_node_child(gpu, "mig_devices");
    size_t n = 0;
    for (xml_node *c = block ? xml_node_first_child(block) : NULL; c; c = xml_node_next(c))
        n += strcmp(xml_node_name(c), "mig_device") == 0;
    if (!n)
        return;
    g->mig_devices = gw_xcalloc(n, sizeof *g->mig_devices);
    for (xml_node *c = xml_node_first_child(block); c; c = xml_node_next(c)) {
        if (strcmp(xml_node_name(c), "mig_device") != 0)
            continue;
        nvsmi_mig_device *m = &g->mig_devices[g->n_mig_devices];
        gw_buf prefix = GW_BUF_INIT;
        buf_printf(&prefix, "gpu/mig_devices/mig_device[%zu]", g->n_mig_devices + 1);
        value_read(&m->index, c, buf_cstr(&prefix), "index");
        value_read(&m->memory_total, c, buf_cstr(&prefix), "fb_memory_usage/total");
        buf_free(&prefix);
        g->n_mig_devices++;
    }
}

static void read_gpu(nvsmi_gpu *g, const xml_node *gpu)
{
    static const char *const draw[] = {
        "gpu_power_readings/power_draw", "gpu_power_readings/average_power_draw",
        "gpu_power_readings/instant_power_draw", "power_readings/power_draw",
        "power_readings/average_power_draw", "power_readings/instant_power_draw", NULL};
    static const char *const limit[] = {
        "gpu_power_readings/current_power_limit", "gpu_power_readings/power_limit",
        "gpu_power_readings/enforced_power_limit", "power_readings/current_power_limit",
        "power_readings/power_limit", "power_readings/enforced_power_limit", NULL};
    static const char *const default_limit[] = {
        "gpu_power_readings/default_power_limit", "power_readings/default_power_limit", NULL};
    static const char *const min_limit[] = {
        "gpu_power_readings/min_power_limit", "power_readings/min_power_limit", NULL};
    static const char *const max_limit[] = {
        "gpu_power_readings/max_power_limit", "power_readings/max_power_limit", NULL};
    const char *p = "gpu";

    g->bus_id = xml_node_attr(gpu, "id");
    g->line = xml_node_line(gpu);
    value_read(&g->product_name, gpu, p, "product_name");
    value_read(&g->product_brand, gpu, p, "product_brand");
    value_read(&g->architecture, gpu, p, "product_architecture");
    value_read(&g->uuid, gpu, p, "uuid");
    value_read(&g->serial, gpu, p, "serial");
    value_read(&g->vbios_version, gpu, p, "vbios_version");
    value_read(&g->persistence_mode, gpu, p, "persistence_mode");
    value_read(&g->virtualization_mode, gpu, p, "gpu_virtualization_mode/virtualization_mode");
    value_read(&g->driver_model, gpu, p, "driver_model/current_dm");
    value_read(&g->mig_current, gpu, p, "mig_mode/current_mig");
    value_read(&g->mig_pending, gpu, p, "mig_mode/pending_mig");
    value_read(&g->performance_state, gpu, p, "performance_state");
    value_read(&g->fan_speed, gpu, p, "fan_speed");
    value_read(&g->gpu_util, gpu, p, "utilization/gpu_util");
    value_read(&g->memory_util, gpu, p, "utilization/memory_util");
    value_read(&g->fb_total, gpu, p, "fb_memory_usage/total");
    value_read(&g->fb_reserved, gpu, p, "fb_memory_usage/reserved");
    value_read(&g->fb_used, gpu, p, "fb_memory_usage/used");
    value_read(&g->pcie_gen_max, gpu, p, "pci/pci_gpu_link_info/pcie_gen/max_link_gen");
    value_read(&g->pcie_gen_current, gpu, p, "pci/pci_gpu_link_info/pcie_gen/current_link_gen");
    value_read(&g->pcie_gen_max_host, gpu, p, "pci/pci_gpu_link_info/pcie_gen/max_host_link_gen");
    value_read(&g->pcie_width_max, gpu, p, "pci/pci_gpu_link_info/link_widths/max_link_width");
    value_read(&g->pcie_width_current, gpu, p,
               "pci/pci_gpu_link_info/link_widths/current_link_width");
    value_read(&g->ecc_current, gpu, p, "ecc_mode/current_ecc");
    value_read(&g->ecc_pending, gpu, p, "ecc_mode/pending_ecc");
    value_read(&g->retired_single_bit, gpu, p,
               "retired_pages/multiple_single_bit_retirement/retired_count");
    value_read(&g->retired_double_bit, gpu, p, "retired_pages/double_bit_retirement/retired_count");
    value_read(&g->retired_pending, gpu, p, "retired_pages/pending_retirement");
    value_read(&g->remapped_rows, gpu, p, "remapped_rows");
    xml_node *remap = xml_node_child(gpu, "remapped_rows");
    g->remapped_nested = remap && xml_node_first_child(remap);
    if (g->remapped_nested) {
        free(g->remapped_rows.text);
        g->remapped_rows.text = gw_xstrdup("(nested)");
        g->remapped_rows.has_number = 0;
    }
    value_read(&g->remapped_correctable, gpu, p, "remapped_rows/remapped_row_corr");
    value_read(&g->remapped_uncorrectable, gpu, p, "remapped_rows/remapped_row_unc");
    value_read(&g->remapped_pending, gpu, p, "remapped_rows/remapped_row_pending");
    value_read(&g->remapped_failure, gpu, p, "remapped_rows/remapped_row_failure");
    value_read(&g->temp_gpu, gpu, p, "temperature/gpu_temp");
    value_read(&g->temp_slowdown, gpu, p, "temperature/gpu_temp_slow_threshold");
    value_read(&g->temp_shutdown, gpu, p, "temperature/gpu_temp_max_threshold");
    value_read(&g->temp_max_operating, gpu, p, "temperature/gpu_temp_max_gpu_threshold");
    value_read(&g->temp_memory, gpu, p, "temperature/memory_temp");
    value_read(&g->temp_memory_max, gpu, p, "temperature/gpu_temp_max_mem_threshold");
    value_read_first(&g->power_draw, gpu, p, draw);
    value_read_first(&g->power_limit, gpu, p, limit);
    value_read_first(&g->power_default_limit, gpu, p, default_limit);
    value_read_first(&g->power_min_limit, gpu, p, min_limit);
    value_read_first(&g->power_max_limit, gpu, p, max_limit);
    read_reasons(g, gpu);
    read_ecc(g, gpu);
    read_mig(g, gpu);
    xml_node *procs = xml_node_child(gpu, "processes");
    for (xml_node *c = procs ? xml_node_first_child(procs) : NULL; c; c = xml_node_next(c))
        g->n_processes += strcmp(xml_node_name(c), "process_info") == 0;
}

int nvsmi_parse(const char *text, size_t len, const char *name, nvsmi_log **out, gw_error *err)
{
    xml_doc *doc = NULL;
    size_t max;
    *out = NULL;
    int rc = gw_input_max(GW_INPUT_DUMP, &max, err);
    if (rc != GW_OK)
        return rc;
    if (len > max)
        return gw_error_set(err, GW_EDATA, "%s: %zu bytes is too large for an nvidia-smi dump "
                            "(more than %zu MiB; %s raises the limit)", name, len, max >> 20,
                            gw_input_env(GW_INPUT_DUMP));
    rc = xml_parse(text, len, 0, name, &doc, err);
    if (rc != GW_OK)
        return rc;
    xml_node *root = xml_doc_root(doc);
    if (strcmp(xml_node_name(root), "nvidia_smi_log") != 0) {
        rc = gw_error_set(err, GW_EDATA,
                          "%s:%d: root element is <%s>, not <nvidia_smi_log>: not an "
                          "nvidia-smi -q -x dump",
                          name, xml_node_line(root), xml_node_name(root));
        xml_doc_free(doc);
        return rc;
    }
    size_t n = 0;
    for (xml_node *c = xml_node_first_child(root); c; c = xml_node_next(c))
        n += strcmp(xml_node_name(c), "gpu") == 0;
    if (n > NVSMI_MAX_GPUS) {
        rc = gw_error_set(err, GW_EDATA, "%s: %zu <gpu> elements; no machine has more than %d",
                          name, n, NVSMI_MAX_GPUS);
        xml_doc_free(doc);
        return rc;
    }
    nvsmi_log *log = gw_xcalloc(1, sizeof *log);
    log->name = gw_xstrdup(name);
    value_read(&log->timestamp, root, "", "timestamp");
    value_read(&log->driver_version, root, "", "driver_version");
    value_read(&log->cuda_version, root, "", "cuda_version");
    value_read(&log->attached_gpus, root, "", "attached_gpus");
    log->gpus = gw_xcalloc(n ? n : 1, sizeof *log->gpus);
    for (xml_node *c = xml_node_first_child(root); c; c = xml_node_next(c))
        if (strcmp(xml_node_name(c), "gpu") == 0)
            read_gpu(&log->gpus[log->n_gpus++], c);
    xml_doc_free(doc);
    *out = log;
    return GW_OK;
}

int nvsmi_read_file(const char *path, nvsmi_log **out, gw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int rc = gw_read_input(path, GW_INPUT_DUMP, &text, &len, err);
    if (rc == GW_OK)
        rc = nvsmi_parse(text, len, path, out, err);
    free(text);
    return rc;
}

/* The full path of prog on PATH, or NULL.  Caller frees. */
static char *path_search(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return NULL;
    const char *p = path;
    while (*p) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        gw_buf full = GW_BUF_INIT;
        if (n)
            buf_append(&full, p, n);
        else
            buf_putc(&full, '.');
        buf_printf(&full, "/%s", prog);
        struct stat st;
        if (stat(buf_cstr(&full), &st) == 0 && S_ISREG(st.st_mode) &&
            access(buf_cstr(&full), X_OK) == 0)
            return buf_detach(&full);
        buf_free(&full);
        p = colon ? colon + 1 : p + n;
    }
    return NULL;
}

/* ---- running nvidia-smi ---- */

#define HOW_BY_HAND "take the dump by hand: nvidia-smi -q -x > dump.xml, then gpuwise inspect dump.xml"
/* How often a wait looks at the clock and at a pending SIGINT/SIGTERM: a signal that arrives
 * just before poll() starts is seen this late at most. */
#define POLL_MS 100
/* How long a killed nvidia-smi is waited for: one stuck in the kernel (a card that fell off
 * the bus) cannot die, and gpuwise must not wait for it. */
#define REAP_SECONDS 0.5

typedef enum { RUN_DONE, RUN_TIMEOUT, RUN_SIGNAL, RUN_TOO_BIG, RUN_FAILED } run_end;

/* Milliseconds to the deadline, at most POLL_MS; 0 when it has passed. */
static int poll_slice(double deadline)
{
    double left = deadline - gw_now_seconds();
    if (left <= 0)
        return 0;
    return left * 1000 < POLL_MS ? (int)(left * 1000) + 1 : POLL_MS;
}

/* Reads the child's output from fd until it closes it, at most max bytes, stopping at the
 * deadline or on SIGINT/SIGTERM. */
static run_end read_child(int fd, double deadline, size_t max, gw_buf *out)
{
    char chunk[65536];
    for (;;) {
        if (gw_signal_pending())
            return RUN_SIGNAL;
        int slice = poll_slice(deadline);
        if (slice == 0)
            return RUN_TIMEOUT;
        struct pollfd p = {fd, POLLIN, 0};
        int ready = poll(&p, 1, slice);
        if (ready < 0 && errno != EINTR)
            return RUN_FAILED;
        if (ready <= 0)
            continue;
        ssize_t got = read(fd, chunk, sizeof chunk);
        if (got == 0)
            return RUN_DONE;
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return RUN_FAILED;
        }
        buf_append(out, chunk, (size_t)got);
        if (out->len > max)
            return RUN_TOO_BIG;
    }
}

/* Waits for the child to exit, until the deadline or SIGINT/SIGTERM, without reaping it
 * (WNOWAIT): until end_child has taken its group off the signal handler's list, its pid (the
 * group's id) must stay its own, never a new process's. */
static run_end wait_child(pid_t pid, double deadline)
{
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        int r = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT);
        if (r == 0 && info.si_pid == pid)
            return RUN_DONE;
        if (r < 0 && errno != EINTR)
            return RUN_FAILED;
        if (gw_signal_pending())
            return RUN_SIGNAL;
        if (gw_now_seconds() >= deadline)
            return RUN_TIMEOUT;
        struct timespec ms = {0, 10 * 1000000L};
        nanosleep(&ms, NULL);
    }
}

/* Kills the child's whole process group (nvidia-smi and whatever it started; after a normal
 * exit too, so nothing it started outlives the capture), takes the group off the signal
 * handler's list, and only then reaps the child into *status, waiting REAP_SECONDS at most. */
static void end_child(pid_t pid, int *status)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);   /* should it have left its group; nothing to an exited one */
    gw_signals_kill_group(0);
    double until = gw_now_seconds() + REAP_SECONDS;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR) || gw_now_seconds() >= until)
            break;
        struct timespec ms = {0, 10 * 1000000L};
        nanosleep(&ms, NULL);
    }
}

/* Starts prog -q -x in a process group of its own (so a terminal's ^C reaches gpuwise, which
 * then stops the whole group), its output on a pipe whose read end goes to *fd. */
static int spawn_nvsmi(char *prog, pid_t *pid, int *fd, gw_error *err)
{
    int fds[2];
    if (pipe(fds) != 0)
        return gw_error_set(err, GW_ESOFTWARE, "pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attr;
    sigset_t defaults, none;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGXFSZ);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                        POSIX_SPAWN_SETSIGMASK);
    char *argv[] = {prog, "-q", "-x", NULL};
    int rc = posix_spawn(pid, prog, &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return gw_error_set(err, GW_EUNAVAILABLE, "cannot run %s: %s", prog, strerror(rc));
    }
    *fd = fds[0];
    return GW_OK;
}

/* The error for a run that did not end well, or GW_OK with the dump in out. */
static int run_verdict(const char *prog, run_end end, int status, double timeout_s,
                       size_t max, const gw_buf *out, gw_error *err)
{
    switch (end) {
    case RUN_DONE:
        break;
    case RUN_TIMEOUT:
        return gw_error_set(err, GW_EUNAVAILABLE, "%s -q -x gave no answer in %g s and was "
                            "stopped (a GPU that fell off the bus hangs it; --timeout SECONDS "
                            "waits longer); " HOW_BY_HAND, prog, timeout_s);
    case RUN_SIGNAL:
        return gw_error_set(err, gw_signal_exit_code(), "interrupted by %s: %s -q -x was "
                            "stopped; " HOW_BY_HAND, gw_signal_name(), prog);
    case RUN_TOO_BIG:
        return gw_error_set(err, GW_EDATA, "%s printed more than %zu MiB, too much for an "
                            "nvidia-smi dump (%s raises the limit)", prog, max >> 20,
                            gw_input_env(GW_INPUT_DUMP));
    case RUN_FAILED:
        return gw_error_set(err, GW_EUNAVAILABLE, "reading from %s: %s; " HOW_BY_HAND, prog,
                            strerror(errno));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        /* nvidia-smi says why on stdout ("... couldn't communicate with the NVIDIA driver") */
        const char *why = buf_cstr(out);
        size_t n = strcspn(why, "\n");
        return gw_error_set(err, GW_EUNAVAILABLE, "%s -q -x failed (%s %d)%s%.*s", prog,
                            WIFEXITED(status) ? "exit" : "signal",
                            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                            n ? ": " : "", (int)(n > 200 ? 200 : n), why);
    }
    return GW_OK;
}

int nvsmi_capture(double timeout_s, char **text, size_t *len, gw_error *err)
{
    size_t max;
    *text = NULL;
    *len = 0;
    int rc = gw_input_max(GW_INPUT_DUMP, &max, err);
    if (rc != GW_OK)
        return rc;
    char *prog = path_search("nvidia-smi");
    if (!prog)
        return gw_error_set(err, GW_EUNAVAILABLE,
                            "nvidia-smi not found; give a dump: nvidia-smi -q -x > dump.xml");
    pid_t pid = 0;
    int fd = -1;
    /* From the start a SIGINT or SIGTERM kills its group in the handler itself: a second signal,
     * which ends gpuwise at once, cannot leave it behind.  The signals wait until the handler
     * knows the group (the child starts with none blocked), so none falls between the two. */
    sigset_t stops, was;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigprocmask(SIG_BLOCK, &stops, &was);
    if (gw_signal_pending())   /* stopping already: start nothing */
        rc = run_verdict(prog, RUN_SIGNAL, 0, timeout_s, max, NULL, err);
    else
        rc = spawn_nvsmi(prog, &pid, &fd, err);
    if (rc == GW_OK)
        gw_signals_kill_group((int)pid);
    sigprocmask(SIG_SETMASK, &was, NULL);
    if (rc != GW_OK) {
        free(prog);
        return rc;
    }
    double deadline = gw_now_seconds() + timeout_s;
    gw_buf out = GW_BUF_INIT;
    int status = 0;
    run_end end = read_child(fd, deadline, max, &out);
    close(fd);
    if (end == RUN_DONE)   /* it closed its output; it may still hang before exiting */
        end = wait_child(pid, deadline);
    end_child(pid, &status);
    if (gw_signal_pending())   /* the handler killed the group: whatever it printed is cut */
        end = RUN_SIGNAL;
    rc = run_verdict(prog, end, status, timeout_s, max, &out, err);
    if (rc == GW_OK) {
        *len = out.len;
        *text = buf_detach(&out);
    }
    buf_free(&out);
    free(prog);
    return rc;
}

static void gpu_free(nvsmi_gpu *g)
{
    nvsmi_value *values[] = {
        &g->product_name, &g->product_brand, &g->architecture, &g->uuid, &g->serial,
        &g->vbios_version, &g->persistence_mode, &g->virtualization_mode, &g->driver_model,
        &g->mig_current, &g->mig_pending, &g->performance_state, &g->fan_speed, &g->gpu_util,
        &g->memory_util, &g->fb_total, &g->fb_reserved, &g->fb_used, &g->pcie_gen_max,
        &g->pcie_gen_current, &g->pcie_gen_max_host, &g->pcie_width_max,
        &g->pcie_width_current, &g->ecc_current, &g->ecc_pending, &g->retired_single_bit,
        &g->retired_double_bit, &g->retired_pending, &g->remapped_rows,
        &g->remapped_correctable, &g->remapped_uncorrectable, &g->remapped_pending,
        &g->remapped_failure, &g->temp_gpu, &g->temp_slowdown, &g->temp_shutdown,
        &g->temp_max_operating, &g->temp_memory, &g->temp_memory_max, &g->power_draw,
        &g->power_limit, &g->power_default_limit, &g->power_min_limit, &g->power_max_limit,
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        value_free(values[i]);
    for (size_t i = 0; i < g->n_reasons; i++) {
        free(g->reasons[i].name);
        value_free(&g->reasons[i].value);
    }
    free(g->reasons);
    for (size_t i = 0; i < g->n_ecc; i++)
        value_free(&g->ecc[i].value);
    free(g->ecc);
    for (size_t i = 0; i < g->n_mig_devices; i++) {
        value_free(&g->mig_devices[i].index);
        value_free(&g->mig_devices[i].memory_total);
    }
    free(g->mig_devices);
    free(g->bus_id);
}

void nvsmi_log_free(nvsmi_log *log)
{
    if (!log)
        return;
    for (size_t i = 0; i < log->n_gpus; i++)
        gpu_free(&log->gpus[i]);
    free(log->gpus);
    value_free(&log->timestamp);
    value_free(&log->driver_version);
    value_free(&log->cuda_version);
    value_free(&log->attached_gpus);
    free(log->name);
    free(log);
}
