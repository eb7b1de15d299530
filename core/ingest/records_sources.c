/* records_sources.c — the source rows that stand for what a plugin returned ("plugin-NAME" or
 * "plugin-NAME.FILE" for a shipped plugin, "user-..." for any other; published by "gpuwise
 * plugin NAME VERSION"), and the rule that a plugin cites only the sources made for it, never
 * the KB's curated ones or another plugin's. */
#include <stdlib.h>
#include <string.h>

#include "records_internal.h"
#include "base/clock.h"

/* The last part of a path ("lambda.lua" of "/home/me/plugins/lambda.lua"): a source's title and
 * note name files by it, so that an exported KB carries no machine's folders. */
static const char *path_base(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path;
}

/* ---- source ids: one per plugin and file, never another's ----
 * "plugin-NAME" or "plugin-NAME.FILE" for a shipped plugin, "user-NAME" or "user-NAME.FILE" for
 * any other, so that no user plugin can write, replace or cite a shipped plugin's source.  The
 * id is injective: NAME is [a-z0-9][a-z0-9-]* (no '.'), so the first '.' ends it, and FILE
 * keeps a-z, 0-9, '.' and '-' and writes every other byte as "_XX" (its hex): "Lambda_GPUs.csv"
 * is "_4cambda_5f_47_50_55s.csv", never "lambda-gpus-csv". */

#define SOURCE_FILE_MAX 64   /* an encoded file name longer than this is cut, with its hash */

/* 1 for a-z and 0-9, whatever the locale says of other bytes. */
static int lower_alnum(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* Appends file, encoded (above).  An encoding longer than SOURCE_FILE_MAX keeps its first 45
 * characters and adds "_z" and the hash of the whole name: "_z" is no escape, so a cut name
 * never equals an uncut one, and two long names of one plugin differ by their hash. */
static void file_encode(gw_buf *b, const char *file)
{
    size_t from = b->len;
    for (const unsigned char *c = (const unsigned char *)file; *c; c++) {
        if (lower_alnum(*c) || *c == '.' || *c == '-')
            buf_putc(b, (char)*c);
        else
            buf_printf(b, "_%02x", *c);
    }
    if (b->len - from > SOURCE_FILE_MAX) {
        b->len = from + 45;
        b->data[b->len] = '\0';
        buf_printf(b, "_z%016llx", (unsigned long long)gw_fnv1a64(file, strlen(file)));
    }
}

/* The id of the source for what the plugin info returned from the file base (NULL: none),
 * into id.  GW_EDATA when the plugin's name cannot make one. */
static int source_id_make(gw_buf *id, const plugin_info *info, const char *base, gw_error *err)
{
    if (!info->name || !plugin_name_valid(info->name))
        return gw_error_set(err, GW_EDATA, "%s: plugin name '%.80s' makes no source id: a plugin "
                            "name is lower-case letters, digits and '-' ([a-z0-9][a-z0-9-]*)",
                            path_base(info->path), info->name ? info->name : "");
    buf_printf(id, "%s%s", info->compiled ? "plugin-" : "user-", info->name);
    if (base) {
        buf_putc(id, '.');
        file_encode(id, base);
    }
    return GW_OK;
}

/* 1 when id is one of the plugin info's sources: its own id, or that id and a file. */
static int source_owned(const plugin_info *info, const char *id)
{
    gw_buf own = GW_BUF_INIT;
    gw_error e = {0};
    int owned = 0;
    if (id && source_id_make(&own, info, NULL, &e) == GW_OK)
        owned = !strncmp(id, own.data, own.len) && (id[own.len] == '\0' || id[own.len] == '.');
    buf_free(&own);
    return owned;
}

char *records_plugin_source(kb *k, int write, plugin *p, const char *input_path, gw_error *err)
{
    return records_source_row(k, write, p, input_path, NULL, NULL, NULL, err);
}

char *records_plugin_source_at(kb *k, int write, plugin *p, const char *input_path,
                               const char *url, const char *retrieved, gw_error *err)
{
    return records_source_row(k, write, p, input_path, url, retrieved, NULL, err);
}

char *records_source_row(kb *k, int write, plugin *p, const char *input_path, const char *url,
                         const char *retrieved, int *outcome, gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    gw_buf id = GW_BUF_INIT, title = GW_BUF_INIT, note = GW_BUF_INIT, publisher = GW_BUF_INIT;
    const char *base = path_base(input_path);
    if (source_id_make(&id, &info, base, err) != GW_OK) {
        buf_free(&id);
        return NULL;
    }
    buf_puts(&title, info.description);
    if (base)
        buf_printf(&title, " (%s)", base);
    buf_printf(&publisher, "gpuwise plugin %s %s", info.name, info.version);
    buf_printf(&note, "Records returned by the %s plugin %s", info.kind, path_base(info.path));
    if (url)
        buf_printf(&note, " from %s, downloaded %s", url, retrieved);
    else if (base)
        buf_printf(&note, " from the file %s", base);
    buf_puts(&note, ".");
    int rc = GW_OK;
    if (write) {
        char today[11];
        gw_today_date(today);
        kb_source s = {id.data, title.data, publisher.data, (char *)url,
                       (char *)(retrieved ? retrieved : today), "plugin", note.data, 0};
        rc = kb_put_row_struct(k, KB_SOURCES, &s, outcome, err);
        if (rc != GW_OK)
            gw_error_prefix(err, "%s: source %s", info.name, id.data);
    }
    buf_free(&title);
    buf_free(&note);
    buf_free(&publisher);
    if (rc != GW_OK) {
        buf_free(&id);
        return NULL;
    }
    return buf_detach(&id);
}

/* ---- what a plugin may cite ---- */

int records_check_plugin_sources(const plugin *p, kb *k, const view *records, const char *what,
                                 gw_error *err)
{
    plugin_info info;
    (void)k;   /* the id says whose it is */
    plugin_get_info(p, &info);
    if (info.compiled)
        return GW_OK;
    for (size_t i = 0; i < view_len(records); i++) {
        const char *id = view_str(view_map_get(view_list_at(records, i), "source"));
        if (id && !source_owned(&info, id))
            return gw_error_set(err, GW_EDATA,
                                "%s: %s[%zu].source: '%s' is not one of this plugin's sources; a "
                                "plugin cites only the sources made for it (leave `source` out), "
                                "never the KB's curated ones",
                                info.name ? info.name : info.path, what, i + 1, id);
    }
    return GW_OK;
}
