/* paths.c — where things live: the shipped data (beside the binary in a source tree, else the
 * compiled-in GW_DATADIR, or $GPUWISE_DATADIR), the user's XDG folders and the KB to open.
 * (Output files are cli_document.c's.) */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/limits.h"
#include "cli.h"
#include "ingest/records.h"

#ifndef GW_DATADIR
#define GW_DATADIR "/usr/local/share/gpuwise"
#endif

int cli_path_join(char *out, size_t outsz, const char *dir, const char *name)
{
    int n = snprintf(out, outsz, "%s/%s", dir, name);
    return n < 0 || (size_t)n >= outsz ? -1 : 0;
}

int cli_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int is_data_dir(const char *dir)
{
    char probe[4200];
    return cli_path_join(probe, sizeof probe, dir, "templates") == 0 && cli_file_exists(probe) &&
           cli_path_join(probe, sizeof probe, dir, "plugins") == 0 && cli_file_exists(probe);
}

/* The folder of the running binary, resolving the ./gpuwise -> build/gpuwise link. */
static int exe_dir(char *out, size_t outsz)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    if (strlen(exe) >= outsz)
        return -1;
    strcpy(out, exe);
    return 0;
}

static void xdg_dir(char *out, size_t outsz, const char *env, const char *fallback)
{
    const char *base = getenv(env);
    const char *home = getenv("HOME");
    if (base && base[0] == '/')
        snprintf(out, outsz, "%s/gpuwise", base);
    else
        snprintf(out, outsz, "%s/%s/gpuwise", home && *home ? home : "/tmp", fallback);
}

void cli_paths_init(gw_ctx *ctx)
{
    const char *env = getenv("GPUWISE_DATADIR");
    char dir[PATH_MAX];

    ctx->data_dir[0] = '\0';
    if (env && *env && strlen(env) < sizeof ctx->data_dir) {
        strcpy(ctx->data_dir, env);
    } else if (exe_dir(dir, sizeof dir) == 0) {
        /* A source tree: the binary is build/gpuwise, the data one folder up.  An install
         * moved elsewhere (or staged with DESTDIR): PREFIX/bin/gpuwise beside
         * PREFIX/share/gpuwise. */
        char share[PATH_MAX + 32];
        char *slash = strrchr(dir, '/');
        if (is_data_dir(dir) && strlen(dir) < sizeof ctx->data_dir)
            strcpy(ctx->data_dir, dir);
        else if (slash && (*slash = '\0', is_data_dir(dir)) && strlen(dir) < sizeof ctx->data_dir)
            strcpy(ctx->data_dir, dir);
        else if (slash && snprintf(share, sizeof share, "%s/share/gpuwise", dir) > 0 &&
                 is_data_dir(share) && strlen(share) < sizeof ctx->data_dir)
            strcpy(ctx->data_dir, share);
    }
    if (!ctx->data_dir[0])
        snprintf(ctx->data_dir, sizeof ctx->data_dir, "%s", GW_DATADIR);
    xdg_dir(ctx->user_data_dir, sizeof ctx->user_data_dir, "XDG_DATA_HOME", ".local/share");
    xdg_dir(ctx->user_config_dir, sizeof ctx->user_config_dir, "XDG_CONFIG_HOME", ".config");
    xdg_dir(ctx->user_cache_dir, sizeof ctx->user_cache_dir, "XDG_CACHE_HOME", ".cache");
}

/* Makes the user's KB at user, a copy of the shipped one, unless another process made it first:
 * the copy is linked to its name, never renamed over it, so a concurrent first write keeps the
 * rows it has stored in the copy it made (EEXIST: theirs stands).  Returns 0 or an errno value. */
static int copy_shipped_kb(const char *shipped, const char *user)
{
    char *data;
    size_t len, max;
    gw_input_max(GW_INPUT_KB, &max, NULL);   /* main.c has refused a malformed limit */
    int rc = gw_read_file_max(shipped, max, &data, &len);
    if (rc)
        return rc;
    rc = gw_write_file_new(user, data, len, 0666);
    free(data);
    return rc == EEXIST ? 0 : rc;
}

/* The shipped KB is missing: in a source tree it is built by make; an installed or copied
 * program can only be pointed at one. */
static int no_shipped_kb(const gw_ctx *ctx, const char *shipped, gw_error *err)
{
    char makefile[4200];
    if (cli_path_join(makefile, sizeof makefile, ctx->data_dir, "Makefile") == 0 &&
        cli_file_exists(makefile))
        return gw_error_set(err, GW_ENOINPUT, "%s: no knowledge base (build it with `make` in "
                            "%s, or pass --kb FILE)", shipped, ctx->data_dir);
    return gw_error_set(err, GW_ENOINPUT, "%s: no knowledge base (pass --kb FILE, set "
                        "GPUWISE_KB, or reinstall gpuwise)", shipped);
}

int cli_open_kb(gw_ctx *ctx, int write, kb **out, gw_error *err)
{
    char shipped[4200], user[4200];

    if (ctx->kb_path)
        return kb_open(ctx->kb_path, write ? KB_CREATE : KB_READ, out, err);
    if (cli_path_join(shipped, sizeof shipped, ctx->data_dir, "kb/gpuwise.db") ||
        cli_path_join(user, sizeof user, ctx->user_data_dir, "gpuwise.db"))
        return gw_error_set(err, GW_EUSAGE, "data folder path too long");
    if (cli_file_exists(user))
        return kb_open(user, write ? KB_WRITE : KB_READ, out, err);
    if (!write) {
        if (!cli_file_exists(shipped))
            return no_shipped_kb(ctx, shipped, err);
        return kb_open(shipped, KB_READ, out, err);
    }
    /* the folder resolved first, so its missing parts are made where no planted link leads */
    char *dir = NULL;
    int rc = gw_path_resolve_safe(ctx->user_data_dir, &dir, err), e = 0;
    if (rc != GW_OK)
        return rc;
    gw_buf resolved = GW_BUF_INIT;
    buf_printf(&resolved, "%s/gpuwise.db", dir);
    const char *failed = ctx->user_data_dir;
    if ((e = gw_mkdir_p(dir)) == 0 && cli_file_exists(shipped)) {
        failed = user;
        e = copy_shipped_kb(shipped, buf_cstr(&resolved));
    }
    buf_free(&resolved);
    free(dir);
    if (e)
        return gw_error_set(err, GW_ECANTCREAT, "%s: %s", failed, strerror(e));
    return kb_open(user, KB_CREATE, out, err);
}

static records_dirs plugin_dirs_of(const gw_ctx *ctx)
{
    records_dirs d = {ctx->plugin_dirs, (size_t)ctx->n_plugin_dirs, ctx->user_config_dir,
                      ctx->data_dir};
    return d;
}

int cli_plugins_new(gw_ctx *ctx, kb *k, plugin_host **out, gw_error *err)
{
    records_dirs d = plugin_dirs_of(ctx);
    return records_host_new_in(&d, k, out, err);
}

int cli_plugins_open(gw_ctx *ctx, kb *k, plugin_host **out, gw_error *err)
{
    records_dirs d = plugin_dirs_of(ctx);
    return records_host_open_in(&d, k, out, err);
}
