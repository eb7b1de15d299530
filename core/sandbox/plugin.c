/* plugin.c — the plugin host as gpuwise's own process sees it: discovery in the plugin folders
 * and the worker processes (worker.h) in which plugin_lua.c runs each plugin's Lua state.
 * gpuwise itself never runs plugin code.  Each call is a request over the worker's channel
 * under a deadline (the Lua limits stop a plugin with its file and line first; the
 * deadline kills a worker stuck in a C call).  What comes back is checked again
 * (plugin_values.c), since the worker is not trusted.  The worker's side of the channel is
 * plugin_serve.c.  The host holds no KB: the worker's KB questions go to the function its
 * caller handed it (plugin_kb_answer).
 *
 * Which plugin is shipped is decided here, from the text this process read itself (a byte
 * comparison with the chunks compiled into the program, embedded.h), never from anything a
 * worker says: a worker may have been taken over.
 *
 * Every plugin that is not shipped gets a worker of its own, forked when it loads and killed when
 * it goes, so its memory starts clean: what one plugin keeps (libxml2's documents, outside its
 * Lua cap; a fragmented heap) cannot make the next one fail, nor the error name the wrong one.
 * The shipped plugins of a command share one worker (and one per workload file): their code is
 * ours, and a worker each costs more than the process boundary alone (make bench, worker_cost):
 * each forks gpuwise, copies the pages it writes, builds its sandbox and is sent the options of
 * a decision.  `gpuwise report examples/vision-team.lua` took 240 ms of CPU so (perf stat
 * task-clock, 2 busy cores) against 82 ms with one shared; each plugin not shipped adds ~8 ms.
 * In the shared worker each plugin keeps its own Lua state (what one changes no other sees),
 * and a state persists between calls (a rule keeps its workload table). */
#define _GNU_SOURCE   /* memmem */
#include "plugin.h"

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/buf.h"
#include "base/check.h"
#include "base/clock.h"
#include "base/limits.h"
#include "base/signals.h"
#include "embedded.h"
#include "io/xml.h"
#include "plugin_serve.h"
#include "plugin_values.h"
#include "worker.h"

/* Past the Lua wall-clock limit, the time a worker has to report it before it is killed. */
#define GRACE_MIN 0.5
#define GRACE_MAX 2.0

/* A worker and what the parent knows about it; shared by the plugins of a host. */
typedef struct channel {
    worker *w;               /* NULL until the first plugin loads */
    plugin_kb_answer kb_answer;   /* answers the worker's KB questions (NULL: none) */
    void *kb_ctx;
    plugin_limits limits;
    int next_id;             /* the id the next plugin's state gets in the worker */
    int has_xml;             /* libxml2 was open when the worker was forked */
    int dead;                /* the worker was killed or ended: every plugin of it fails */
    int exclusive;           /* a worker of one plugin, which ends with it */
    char dead_msg[1024];
    unsigned long long each_batch;   /* the plugin_batch whose arguments the worker holds from
                                      * the last "each" (0: none) */
    unsigned long long shared_sent;  /* the plugin_arg whose value the worker holds (0: none);
                                      * each of its plugins converts it to Lua once */
} channel;

struct plugin {
    plugin_host *host;
    channel *ch;
    int id;                  /* its state in the worker */
    char *name, *kind, *version, *description, *path, *overrides;
    long batch_rows;
    double prefers_at_most;  /* a rule's declaration, -1 when none (plugin_info) */
    int compiled;            /* shipped: decided by this process (embedded_find), not the worker */
    view *log;                        /* lines the worker sent back, escaped */
    char traceback[4096];
};

struct plugin_host {
    char **dirs;
    size_t n_dirs;
    plugin_kb_answer kb_answer;   /* handed to each channel */
    void *kb_ctx;
    plugin_limits limits;
    channel **chans;         /* the workers: one per plugin not shipped, and ... */
    channel *shipped;        /* ... the one the shipped plugins load into (NULL: none yet) */
    size_t n_chans;
    plugin **items;
    size_t n, cap;
    unsigned loaded;         /* bit k: kind k (plugin_kind_at) has been loaded from every folder */
};

/* Sets err to code and the worker's message, escaped; messages are one line. */
static int error_from_worker(gw_error *err, int code, const char *msg)
{
    gw_buf b = GW_BUF_INIT;
    plugin_values_escape(&b, msg ? msg : "error", msg ? strlen(msg) : 5, "\t");
    gw_error_set(err, code, "%s", buf_cstr(&b));
    buf_free(&b);
    return code;
}

/* ---- the KB questions a worker asks ---- */

/* The answer to a worker's question (see luaapi_set_query), from the function the host's caller
 * gave (plugin_kb_answer); the host itself holds no KB. */
static view *answer_question(void *ud, const view *q)
{
    channel *ch = ud;
    view *a = ch->kb_answer ? ch->kb_answer(ch->kb_ctx, q) : NULL;
    if (!a) {
        a = view_map();
        view_map_set_str(a, "error", "no knowledge base is open");
    }
    return a;
}

/* ---- the parent's side ---- */

static void channel_init(channel *ch, plugin_kb_answer kb_answer, void *kb_ctx,
                         const plugin_limits *limits)
{
    memset(ch, 0, sizeof *ch);
    ch->kb_answer = kb_answer;
    ch->kb_ctx = kb_ctx;
    ch->limits = plugin_limits_resolve(limits);
}

static void channel_close(channel *ch)
{
    worker_free(ch->w);
    ch->w = NULL;
    ch->each_batch = 0;
    ch->shared_sent = 0;
}

static int xml_opened;   /* this process opened libxml2 for plugins */

/* Whether text may use gw.xml or gw.html: it names them ("gw.xml", "'html'", ...).  libxml2 is
 * opened before the worker is forked, since the confined worker cannot open it; a plugin that
 * spells the names otherwise gets "libxml2 is not usable".  Opening it costs 1.5 ms, so only
 * for such text. */
static int needs_xml(const char *text, size_t len)
{
    static const char *const names[] = {"gw.xml", "gw.html", "\"xml\"", "\"html\"", "'xml'",
                                        "'html'"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (memmem(text, len, names[i], strlen(names[i])))
            return 1;
    return 0;
}

/* Opens what text needs before a fork, in this process, once: the time zone (os.date) and
 * libxml2.  0 when a worker forked earlier would lack something text needs. */
static int open_libraries_for(const char *text, size_t len)
{
    static int tz_done;
    if (!tz_done) {
        tzset();
        tz_done = 1;
    }
    if (!needs_xml(text, len))
        return 1;
    if (!xml_opened) {
        gw_error ignored;
        xml_opened = xml_open(&ignored) == GW_OK;
    }
    return 0;
}

/* Starts the channel's worker unless it runs. */
static int channel_start(channel *ch, gw_error *err)
{
    if (ch->w)
        return GW_OK;
    if (ch->dead)
        return gw_error_set(err, GW_ESOFTWARE, "%s", ch->dead_msg);
    ch->has_xml = xml_opened;   /* the child's copy is the one used */
    /* the address space holds every plugin of the command; each Lua state has its own cap */
    worker_limits wl = {ch->limits.memory_bytes * 4, ch->limits.wall_seconds + 1};
    return worker_start(&wl, NULL, plugin_serve, &ch->limits, &ch->w, err);
}

/* How long a worker may take past the plugin's own wall-clock limit. */
static double grace(const channel *ch)
{
    double g = ch->limits.wall_seconds * 0.1;
    return g < GRACE_MIN ? GRACE_MIN : g > GRACE_MAX ? GRACE_MAX : g;
}

/* "PATH: plugin 'NAME': out of memory (limit N MB, ...)"; before the plugin has told its name,
 * the file's, less ".lua". */
static int plugin_out_of_memory(const plugin *p, gw_error *err)
{
    const char *base = strrchr(p->path, '/');
    base = base ? base + 1 : p->path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".lua") == 0)
        n -= 4;
    gw_buf name = GW_BUF_INIT;
    if (p->name)
        buf_puts(&name, p->name);
    else
        buf_append(&name, base, n);
    gw_error_set(err, GW_ESOFTWARE, "%s: plugin '%s': out of memory (limit %zu MB a plugin, "
                 "GPUWISE_PLUGIN_MEMORY_MB; its XML documents count too)", p->path,
                 buf_cstr(&name), p->ch->limits.memory_bytes >> 20);
    buf_free(&name);
    return GW_ESOFTWARE;
}

/* The message for a worker that did not answer p's request: every plugin of the channel is
 * dead from now on. */
static int worker_failed(plugin *p, int rc, int timed_out, const gw_error *why, gw_error *err)
{
    channel *ch = p->ch;
    const char *end = worker_end(ch->w);
    if (rc == GW_EINTR_INT || rc == GW_EINTR_TERM)
        gw_error_set(err, rc, "%s: %s", p->path, why->msg);
    else if (timed_out)
        gw_error_set(err, GW_ESOFTWARE,
                     "%s: time limit of %g s reached (GPUWISE_PLUGIN_SECONDS); its process was "
                     "stopped inside a library call",
                     p->path, ch->limits.wall_seconds);
    else if (worker_out_of_memory(ch->w))
        plugin_out_of_memory(p, err);
    else if (strstr(end, "signal 24"))   /* SIGXCPU */
        gw_error_set(err, GW_ESOFTWARE, "%s: CPU time limit reached; its process was stopped",
                     p->path);
    else if (strstr(end, "signal"))
        gw_error_set(err, GW_ESOFTWARE,
                     "%s: its process was %s (the memory limit, %zu MiB a plugin, "
                     "GPUWISE_PLUGIN_MEMORY_MB, or a crash in a library)",
                     p->path, end, ch->limits.memory_bytes / (1024 * 1024));
    else
        gw_error_set(err, GW_ESOFTWARE, "%s: %s", p->path, why->msg);
    ch->dead = 1;
    snprintf(ch->dead_msg, sizeof ch->dead_msg, "%s", err->msg);
    return err->code;
}

/* Sends req (consumed, given p's id) and returns the reply's "result" in *result (may be NULL
 * on success for requests without one).  A worker's error comes back with the plugin's file and
 * line as the worker wrote it, escaped; its log lines are kept for plugin_take_log. */
static int request_for(plugin *p, view *req, double calls, view **result, gw_error *err);

static int request(plugin *p, view *req, view **result, gw_error *err)
{
    return request_for(p, req, 1, result, err);
}

/* request for a request that makes `calls` calls into the plugin, each under its own limit
 * (a test file's tests): the deadline is that many limits away. */
static int request_for(plugin *p, view *req, double calls, view **result, gw_error *err)
{
    channel *ch = p->ch;
    *result = NULL;
    view_map_set_int(req, "id", p->id);
    if (ch->dead) {
        view_free(req);
        return gw_error_set(err, GW_ESOFTWARE, "%s", ch->dead_msg);
    }
    double deadline = gw_now_seconds() + (ch->limits.wall_seconds + grace(ch)) * calls;
    view *reply = NULL;
    int timed_out = 0;
    gw_error why = {0};
    int rc = worker_request(ch->w, req, deadline, answer_question, ch, &reply, &timed_out, &why);
    view_free(req);
    if (rc != GW_OK)
        return worker_failed(p, rc, timed_out, &why, err);
    if (view_kind(reply) != VIEW_MAP) {
        view_free(reply);
        why.code = GW_ESOFTWARE;
        snprintf(why.msg, sizeof why.msg, "its process broke the protocol");
        channel_close(ch);
        return worker_failed(p, GW_ESOFTWARE, 0, &why, err);
    }
    const view *log = view_map_get(reply, "log");
    for (size_t i = 0; i < view_len(log); i++) {
        const view *line = view_list_at(log, i);
        gw_buf b = GW_BUF_INIT;
        plugin_values_escape(&b, view_str(line) ? view_str(line) : "", view_str_len(line), "\t");
        view_list_push(p->log, view_stringn(b.data ? b.data : "", b.len));
        buf_free(&b);
    }
    if (!view_truthy(view_map_get(reply, "ok"))) {
        const char *tb = view_str(view_map_get(reply, "traceback"));
        gw_buf b = GW_BUF_INIT;
        plugin_values_escape(&b, tb ? tb : "", tb ? strlen(tb) : 0, "\t\n");
        snprintf(p->traceback, sizeof p->traceback, "%s", buf_cstr(&b));
        buf_free(&b);
        int code = (int)gw_double_to_ll(view_num(view_map_get(reply, "code")), 0, 255,
                                        GW_ESOFTWARE);
        if (code != GW_EDATA && code != GW_ECONFIG && code != GW_EUNAVAILABLE)
            code = GW_ESOFTWARE;
        error_from_worker(err, code, view_str(view_map_get(reply, "error")));
        /* a message that names no file gets the plugin's */
        if (strncmp(err->msg, p->path, strlen(p->path)) != 0)
            gw_error_prefix(err, "%s", p->path);
        view_free(reply);
        return code;
    }
    p->traceback[0] = '\0';
    int has_result = view_truthy(view_map_get(reply, "has_result"));
    view_free(reply);
    if (has_result) {
        rc = worker_request(ch->w, NULL, deadline, answer_question, ch, result, &timed_out, &why);
        if (rc != GW_OK)
            return worker_failed(p, rc, timed_out, &why, err);
    }
    return GW_OK;
}

static view *request_new(const char *op)
{
    view *r = view_map();
    view_map_set_str(r, "op", op);
    return r;
}

/* The label a result is checked under: "name: fn()". */
static void result_label(const plugin *p, const char *what, char *buf, size_t n)
{
    snprintf(buf, n, "%s: %s", p->name ? p->name : p->path, what);
}

/* ---- loading ---- */

static char *dup_field(const view *m, const char *key)
{
    const char *s = view_str(view_map_get(m, key));
    return s ? gw_xstrdup(s) : NULL;
}

static void plugin_release(plugin *p)
{
    if (!p)
        return;
    view_free(p->log);
    free(p->name);
    free(p->kind);
    free(p->version);
    free(p->description);
    free(p->path);
    free(p->overrides);
    free(p);
}

/* A plugin the host does not keep: its state in the worker is freed too. */
static void plugin_free(plugin *p)
{
    if (!p)
        return;
    view *ignored = NULL;
    gw_error err;
    if (p->ch->exclusive)   /* its worker goes with it */
        channel_close(p->ch);
    else if (!p->ch->dead && p->ch->w && request(p, request_new("free"), &ignored, &err) == GW_OK)
        view_free(ignored);
    plugin_release(p);
}

/* A new plugin of ch named path, its state made in the worker by req (op "load" or "eval",
 * consumed) with text.  *info: the request's result. */
static int plugin_start(channel *ch, const char *path, view *req, const char *text, size_t len,
                        plugin **out, view **info, gw_error *err)
{
    *out = NULL;
    *info = NULL;
    int rc = channel_start(ch, err);
    if (rc != GW_OK) {
        view_free(req);
        gw_error_prefix(err, "%s", path);
        return rc;
    }
    plugin *p = gw_xcalloc(1, sizeof *p);
    p->ch = ch;
    p->id = ch->next_id++;
    p->path = gw_xstrdup(path);
    p->log = view_list();
    view_map_set_str(req, "path", path);
    view_map_set(req, "text", view_stringn(text, len));
    rc = request(p, req, info, err);
    if (rc != GW_OK) {
        view_free(*info);
        *info = NULL;
        plugin_release(p);   /* a failed load left no state to free, or a dead worker */
        return rc;
    }
    *out = p;
    return GW_OK;
}

/* No upper case either: two names that differ only in case are one folder on some file
 * systems. */
int plugin_name_valid(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > 64 || name[0] == '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
              name[i] == '-'))
            return 0;
    return 1;
}

/* The channel a plugin whose text is text loads into: a new worker of its own unless it is
 * shipped; the host's shared worker for shipped ones (a new one when text needs libxml2 and the
 * shared worker was forked without it). */
static channel *channel_for(plugin_host *host, int shipped, const char *text, size_t len)
{
    int forked_without = !open_libraries_for(text, len);
    channel *ch = shipped ? host->shipped : NULL;
    if (ch && ch->w && !ch->has_xml && forked_without)
        ch = NULL;
    if (!ch) {
        ch = gw_xcalloc(1, sizeof *ch);
        channel_init(ch, host->kb_answer, host->kb_ctx, &host->limits);
        ch->exclusive = !shipped;
        host->chans = gw_xrealloc(host->chans, (host->n_chans + 1) * sizeof *host->chans);
        host->chans[host->n_chans++] = ch;
        if (shipped)
            host->shipped = ch;
    }
    return ch;
}

/* Loads one plugin file.  Shape problems go to problems (one "path:line: ..." line each) and
 * are counted in *n_problems; a file that does not run at all is an error, and so is a name
 * plugin_name_valid refuses that the worker did not list as a problem (GW_EDATA).  *out is the
 * plugin when it ran (even with shape problems). */
static int load_one(plugin_host *host, const char *path, const char *folder_kind,
                    gw_buf *problems, size_t *n_problems, plugin **out, gw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    *n_problems = 0;
    int e = gw_read_input(path, GW_INPUT_PLUGIN, &text, &len, err);
    if (e)
        return e;
    plugin *p;
    view *info, *req = request_new("load");
    if (folder_kind)
        view_map_set_str(req, "folder_kind", folder_kind);
    int shipped = embedded_find(text, len) != NULL;
    channel *ch = channel_for(host, shipped, text, len);
    int rc = plugin_start(ch, path, req, text, len, &p, &info, err);
    free(text);
    if (rc != GW_OK) {
        if (ch->exclusive)
            channel_close(ch);
        return rc;
    }
    p->host = host;
    p->compiled = shipped;
    char label[200];
    result_label(p, "plugin table", label, sizeof label);
    rc = plugin_values_check(info, label, err);
    /* the worker lists a bad name among the problems, with its line; this is for a worker
     * that did not */
    const char *name = view_str(view_map_get(info, "name"));
    if (rc == GW_OK && name && !plugin_name_valid(name) &&
        !(view_num(view_map_get(info, "n_problems")) > 0)) {
        gw_buf b = GW_BUF_INIT;
        plugin_values_escape(&b, name, strlen(name), "");
        rc = gw_error_set(err, GW_EDATA, "%s: plugin name '%s': use lower-case letters, digits "
                          "and '-', starting with a letter or digit (the name is a folder of "
                          "the prices cache)", path, buf_cstr(&b));
        buf_free(&b);
    }
    if (rc != GW_OK) {
        view_free(info);
        plugin_free(p);
        return rc;
    }
    const char *pr = view_str(view_map_get(info, "problems"));
    /* numbers from the worker, which plugin code may have taken over: in range or nothing */
    *n_problems = (size_t)gw_double_to_ll(view_num(view_map_get(info, "n_problems")), 0,
                                          1000000000, 0);
    if (pr)
        buf_puts(problems, pr);
    p->name = dup_field(info, "name");
    p->kind = dup_field(info, "kind");
    p->version = dup_field(info, "version");
    p->description = dup_field(info, "description");
    p->batch_rows = (long)gw_double_to_ll(view_num(view_map_get(info, "batch_rows")), 0,
                                          1000000, 0);
    /* from the worker, which plugin code may have taken over: 0 to 1, or not declared */
    const view *most = view_map_get(info, "prefers_at_most");
    p->prefers_at_most = view_kind(most) == VIEW_NUMBER && view_num(most) >= 0 &&
                                 view_num(most) <= 1
                             ? view_num(most)
                             : -1;
    view_free(info);
    *out = p;
    return GW_OK;
}

/* ---- the host ---- */

int plugin_host_new(const char *const *dirs, size_t n_dirs, plugin_kb_answer kb_answer,
                    void *kb_ctx, const plugin_limits *limits, plugin_host **out, gw_error *err)
{
    (void)err;
    plugin_host *h = gw_xcalloc(1, sizeof *h);
    h->dirs = gw_xcalloc(n_dirs ? n_dirs : 1, sizeof *h->dirs);
    for (size_t i = 0; i < n_dirs; i++)
        h->dirs[h->n_dirs++] = gw_xstrdup(dirs[i]);
    h->kb_answer = kb_answer;
    h->kb_ctx = kb_ctx;
    h->limits = plugin_limits_resolve(limits);
    *out = h;
    return GW_OK;
}

void plugin_host_free(plugin_host *host)
{
    if (!host)
        return;
    for (size_t i = 0; i < host->n_chans; i++) {   /* the workers go, and every state in them */
        channel_close(host->chans[i]);
        free(host->chans[i]);
    }
    free(host->chans);
    for (size_t i = 0; i < host->n; i++)
        plugin_release(host->items[i]);
    for (size_t i = 0; i < host->n_dirs; i++)
        free(host->dirs[i]);
    free(host->items);
    free(host->dirs);
    free(host);
}

static void host_add(plugin_host *h, plugin *p)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 16;
        h->items = gw_xrealloc(h->items, h->cap * sizeof *h->items);
    }
    h->items[h->n++] = p;
}

static int is_plugin_file(const char *name)
{
    size_t n = strlen(name);
    if (name[0] == '.' || n < 5 || strcmp(name + n - 4, ".lua") != 0)
        return 0;
    return !(n >= 9 && strcmp(name + n - 9, "_test.lua") == 0);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The plugin files of one folder, sorted (caller frees each and the array). */
static char **list_lua(const char *dir, size_t *n)
{
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_plugin_file(e->d_name))
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            names = gw_xrealloc(names, cap * sizeof *names);
        }
        names[(*n)++] = gw_xstrdup(e->d_name);
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

/* Loads the plugin files of dir; a flat folder's plugins are kept only when their kind is in
 * want (their kind is known only once they ran). */
static int load_folder(plugin_host *h, const char *dir, const char *folder_kind, unsigned want,
                       gw_error *err)
{
    size_t n;
    char **names = list_lua(dir, &n);
    int rc = GW_OK;
    for (size_t i = 0; i < n; i++) {
        gw_buf path = GW_BUF_INIT, problems = GW_BUF_INIT;
        size_t nprob;
        plugin *p = NULL;
        buf_printf(&path, "%s/%s", dir, names[i]);
        if (rc == GW_OK) {
            rc = load_one(h, buf_cstr(&path), folder_kind, &problems, &nprob, &p, err);
            if (rc == GW_OK && nprob) {
                char *nl = strchr(problems.data, '\n');
                gw_error_set(err, GW_ECONFIG, "%.*s (see gpuwise plugin check %s)",
                             (int)(nl - problems.data), problems.data, buf_cstr(&path));
                rc = GW_ECONFIG;
                plugin_free(p);
                p = NULL;
            }
        }
        if (p && !(plugin_kind_bit(p->kind) & want)) {
            plugin_free(p);
            p = NULL;
        }
        if (p) {
            plugin *earlier = plugin_find_kind(h, p->name, p->kind);
            if (earlier) {   /* an earlier folder wins; say what it hides */
                if (!earlier->overrides)
                    earlier->overrides = gw_xstrdup(p->path);
                plugin_free(p);
            } else {
                host_add(h, p);
            }
        }
        buf_free(&path);
        buf_free(&problems);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* Loads the kinds in want not loaded yet.  Precedence ("first folder wins") is decided per name
 * and kind, so loading kinds one call at a time gives each kind the plugins load_all gives it. */
static int load_kinds(plugin_host *host, unsigned want, gw_error *err)
{
    want &= ~host->loaded;
    if (!want)
        return GW_OK;
    for (size_t d = 0; d < host->n_dirs; d++) {
        struct stat st;
        if (stat(host->dirs[d], &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        for (size_t k = 0; k < PLUGIN_N_KINDS; k++) {
            if (!(want & (1u << k)))
                continue;
            const char *kind = plugin_kind_at(k);
            gw_buf sub = GW_BUF_INIT;
            buf_printf(&sub, "%s/%s", host->dirs[d], plugin_kind_folder(kind));
            int rc = load_folder(host, buf_cstr(&sub), kind, want, err);
            buf_free(&sub);
            if (rc != GW_OK)
                return rc;
        }
        int rc = load_folder(host, host->dirs[d], NULL, want, err);
        if (rc != GW_OK)
            return rc;
    }
    host->loaded |= want;
    return GW_OK;
}

int plugin_host_load_all(plugin_host *host, gw_error *err)
{
    return load_kinds(host, (1u << PLUGIN_N_KINDS) - 1, err);
}

int plugin_host_load_kind(plugin_host *host, const char *kind, gw_error *err)
{
    unsigned bit = plugin_kind_bit(kind);
    if (!bit)
        return gw_error_set(err, GW_ESOFTWARE, "unknown plugin kind '%s'", kind ? kind : "");
    return load_kinds(host, bit, err);
}

int plugin_host_check_file(plugin_host *host, const char *path, gw_buf *problems,
                           size_t *n_problems, plugin **out, gw_error *err)
{
    plugin *p;
    int rc = load_one(host, path, NULL, problems, n_problems, &p, err);
    *out = NULL;
    if (rc != GW_OK)
        return rc;
    host_add(host, p);
    *out = p;
    return GW_OK;
}

int plugin_host_load_file(plugin_host *host, const char *path, plugin **out, gw_error *err)
{
    gw_buf problems = GW_BUF_INIT;
    size_t n;
    plugin *p;
    *out = NULL;
    int rc = load_one(host, path, NULL, &problems, &n, &p, err);
    if (rc == GW_OK && n) {
        char *nl = strchr(problems.data, '\n');
        gw_error_set(err, GW_EDATA, "%.*s", (int)(nl - problems.data), problems.data);
        plugin_free(p);
        rc = GW_EDATA;
    } else if (rc == GW_OK) {
        host_add(host, p);
        *out = p;
    }
    buf_free(&problems);
    return rc;
}

size_t plugin_count(const plugin_host *host) { return host ? host->n : 0; }

plugin *plugin_at(const plugin_host *host, size_t i)
{
    return host && i < host->n ? host->items[i] : NULL;
}

plugin *plugin_find(const plugin_host *host, const char *name)
{
    for (size_t i = 0; host && name && i < host->n; i++)
        if (host->items[i]->name && strcmp(host->items[i]->name, name) == 0)
            return host->items[i];
    return NULL;
}

plugin *plugin_find_kind(const plugin_host *host, const char *name, const char *kind)
{
    for (size_t i = 0; host && name && kind && i < host->n; i++)
        if (host->items[i]->name && strcmp(host->items[i]->name, name) == 0 &&
            host->items[i]->kind && strcmp(host->items[i]->kind, kind) == 0)
            return host->items[i];
    return NULL;
}

void plugin_get_info(const plugin *p, plugin_info *out)
{
    out->name = p->name;
    out->kind = p->kind;
    out->version = p->version;
    out->description = p->description;
    out->path = p->path;
    out->overrides = p->overrides;
    out->batch_rows = p->batch_rows;
    out->prefers_at_most = p->prefers_at_most;
    out->compiled = p->compiled;
}

const char *plugin_traceback(const plugin *p) { return p->traceback; }

int plugin_function_line(plugin *p, const char *fn)
{
    gw_error err;
    view *req = request_new("line"), *line = NULL;
    view_map_set_str(req, "fn", fn);
    int n = 0;
    if (request(p, req, &line, &err) == GW_OK)
        n = (int)gw_double_to_ll(view_num(line), 1, 1000000000, 0);
    view_free(line);
    return n;
}

/* ---- calls ---- */

int plugin_get_field(plugin *p, const char *field, view **out, gw_error *err)
{
    view *req = request_new("field");
    view_map_set_str(req, "name", field);
    int rc = request(p, req, out, err);
    char label[4400];
    result_label(p, field, label, sizeof label);
    if (rc == GW_OK && !*out)
        *out = view_null();
    if (rc == GW_OK && (rc = plugin_values_check(*out, label, err)) != GW_OK) {
        view_free(*out);
        *out = NULL;
    }
    return rc;
}

struct plugin_arg {
    const view *v;
    unsigned long long id;   /* never reused, unlike the handle's address */
};

plugin_arg *plugin_arg_new(const view *v)
{
    static unsigned long long next_id;
    plugin_arg *a = gw_xcalloc(1, sizeof *a);
    a->v = v;
    a->id = ++next_id;
    return a;
}

void plugin_arg_free(plugin_arg *a) { free(a); }

/* The arguments of a call, encoded (see serve_call): no copy of a large text. */
static view *args_encoded(view *const *args, size_t n)
{
    gw_buf enc = GW_BUF_INIT;
    worker_encode_list(args, n, &enc);
    view *v = view_stringn(enc.data ? enc.data : "", enc.len);
    buf_free(&enc);
    return v;
}

int plugin_call(plugin *p, const char *fn, view *const *args, size_t nargs, view **out,
                gw_error *err)
{
    *out = NULL;
    if (nargs > 16)
        return gw_error_set(err, GW_ESOFTWARE, "%s: too many arguments", p->path);
    view *req = request_new("call");
    view_map_set_str(req, "fn", fn);
    view_map_set(req, "args", args_encoded(args, nargs));
    int rc = request(p, req, out, err);
    if (rc == GW_OK && !*out)
        *out = view_null();
    char label[4400];   /* a name, or a path (4096 at most), and the function */
    snprintf(label, sizeof label, "%s: %s()", p->name ? p->name : p->path, fn);
    if (rc == GW_OK && (rc = plugin_values_check(*out, label, err)) != GW_OK) {
        view_free(*out);
        *out = NULL;
    }
    return rc;
}

struct plugin_batch {
    gw_buf encoded;          /* the arguments as the worker decodes them (a list, worker.h) */
    size_t n;
    unsigned long long id;   /* never reused, unlike the batch's address */
};

plugin_batch *plugin_batch_begin(size_t n)
{
    static unsigned long long next_id;
    plugin_batch *b = gw_xcalloc(1, sizeof *b);
    worker_encode_list_head(n, &b->encoded);
    b->n = n;
    b->id = ++next_id;
    return b;
}

void plugin_batch_push(plugin_batch *b, const view *arg)
{
    worker_encode_present(arg, &b->encoded);
}

void plugin_batch_free(plugin_batch *b)
{
    if (b) {
        buf_free(&b->encoded);
        free(b);
    }
}

/* Whether given is what a worker must send for a batch of n calls (plugin_serve.c,
 * given_results): a list of [i, value] pairs, each i a whole number below n and above the one
 * before. */
static int given_valid(const view *given, size_t n)
{
    double last = -1;
    if (view_kind(given) != VIEW_LIST || view_len(given) > n)
        return 0;
    for (size_t k = 0; k < view_len(given); k++) {
        const view *pair = view_list_at(given, k);
        double i = view_num(view_list_at(pair, 0));
        if (view_kind(pair) != VIEW_LIST || view_len(pair) != 2 || !(i > last) ||
            i >= (double)n || i != floor(i))
            return 0;
        last = i;
    }
    return 1;
}

int plugin_call_batch(plugin *p, const char *fn, const plugin_batch *b,
                      const plugin_arg *shared, view **results, gw_error *err)
{
    size_t n = b->n;
    *results = NULL;
    view *req = request_new("each");
    view_map_set_str(req, "fn", fn);
    /* the worker keeps the last batch it was sent: the options every rule of a decision is
     * given cross the channel once */
    channel *ch = p->ch;
    if (ch->each_batch == b->id)
        view_map_set_bool(req, "args_same", 1);
    else
        view_map_set(req, "args", view_stringn(b->encoded.data ? b->encoded.data : "",
                                               b->encoded.len));
    if (shared) {
        /* the worker keeps the shared value, and each plugin its Lua table: it crosses the
         * channel once, not once per rule (14 copies of the workload a report) */
        view_map_set_num(req, "shared_id", (double)shared->id);
        if (ch->shared_sent != shared->id)
            view_map_set(req, "shared", view_copy(shared->v));
    }
    view *list = NULL;
    int rc = request(p, req, &list, err);
    if (rc == GW_OK) {   /* the worker decoded and kept them */
        ch->each_batch = b->id;
        if (shared)
            ch->shared_sent = shared->id;
    }
    char label[4400];
    snprintf(label, sizeof label, "%s: %s()", p->name ? p->name : p->path, fn);
    if (rc == GW_OK && !given_valid(list, n))
        rc = gw_error_set(err, GW_ESOFTWARE, "%s: its process broke the protocol", p->path);
    /* each call's value is checked on its own, with its own bounds, as each call was made */
    for (size_t i = 0; rc == GW_OK && i < view_len(list); i++)
        rc = plugin_values_check(view_list_at(view_list_at(list, i), 1), label, err);
    if (rc == GW_OK)
        *results = list;
    else
        view_free(list);
    return rc;
}

int plugin_call_each(plugin *p, const char *fn, view *const *args, size_t n,
                     const plugin_arg *shared, view **outs, gw_error *err)
{
    plugin_batch *b = plugin_batch_begin(n);
    for (size_t i = 0; i < n; i++)
        plugin_batch_push(b, args[i]);
    view *given = NULL;
    int rc = plugin_call_batch(p, fn, b, shared, &given, err);
    for (size_t i = 0; i < n; i++)
        outs[i] = rc == GW_OK ? view_null() : NULL;
    for (size_t k = 0; k < view_len(given); k++) {
        const view *pair = view_list_at(given, k);
        size_t i = (size_t)view_num(view_list_at(pair, 0));
        view_free(outs[i]);
        outs[i] = view_copy(view_list_at(pair, 1));
    }
    view_free(given);
    plugin_batch_free(b);
    return rc;
}

view *plugin_take_log(plugin *p)
{
    view *out = p->log;
    p->log = view_list();
    return out;
}

int plugin_eval_text(const char *name, const char *text, size_t len, plugin_kb_answer kb_answer,
                     void *kb_ctx, const plugin_limits *limits, view **out, gw_error *err)
{
    channel ch;
    plugin *p;
    *out = NULL;
    channel_init(&ch, kb_answer, kb_ctx, limits);
    open_libraries_for(text, len);
    int rc = plugin_start(&ch, name, request_new("eval"), text, len, &p, out, err);
    if (rc == GW_OK && !*out)
        *out = view_null();
    if (rc == GW_OK && (rc = plugin_values_check(*out, name, err)) != GW_OK) {
        view_free(*out);
        *out = NULL;
    }
    channel_close(&ch);
    plugin_release(p);
    return rc;
}

int plugin_run_tests(plugin *p, const char *test_path, view **out, gw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int e = gw_read_input(test_path, GW_INPUT_PLUGIN, &text, &len, err);
    if (e)
        return e;
    /* the chunk, then each test_ function, each a call with its own limits */
    double calls = 1;
    for (const char *t = text; (t = memmem(t, len - (size_t)(t - text), "test_", 5)); t += 5)
        calls++;
    view *req = request_new("tests");
    view_map_set_str(req, "path", test_path);
    view_map_set(req, "text", view_stringn(text, len));
    free(text);
    int rc = request_for(p, req, calls, out, err);
    if (rc == GW_OK && view_kind(*out) != VIEW_LIST)
        rc = gw_error_set(err, GW_ESOFTWARE, "%s: its process broke the protocol", p->path);
    /* test messages are shown as they are: escape them as errors are */
    for (size_t i = 0; rc == GW_OK && i < view_len(*out); i++) {
        view *r = view_list_at(*out, i);
        const char *m = view_str(view_map_get(r, "message"));
        const char *nm = view_str(view_map_get(r, "name"));
        gw_buf b = GW_BUF_INIT, nb = GW_BUF_INIT;
        plugin_values_escape(&b, m ? m : "", m ? strlen(m) : 0, "\t");
        plugin_values_escape(&nb, nm ? nm : "", nm ? strlen(nm) : 0, "");
        view_map_set_str(r, "name", buf_cstr(&nb));
        if (m)
            view_map_set_str(r, "message", buf_cstr(&b));
        buf_free(&b);
        buf_free(&nb);
    }
    if (rc != GW_OK) {
        view_free(*out);
        *out = NULL;
    }
    return rc;
}
