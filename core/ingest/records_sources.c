/* records_sources.c — the source rows that stand for what a plugin returned ("plugin-NAME" or
 * "plugin-NAME-FILE", published by "gpuwise plugin NAME VERSION"), and the rule that a plugin
 * cites only the sources made for it, never the KB's curated ones or another plugin's. */
#include <ctype.h>
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

/* Appends a slug of s (lower-case letters and digits, '-' between words). */
static void slug_append(gw_buf *b, const char *s)
{
    int dash = b->len > 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c)) {
            if (dash && b->len > 0 && b->data[b->len - 1] != '-')
                buf_putc(b, '-');
            buf_putc(b, (char)tolower(c));
            dash = 0;
        } else {
            dash = 1;
        }
    }
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
    buf_puts(&id, "plugin");
    slug_append(&id, info.name);
    if (base)
        slug_append(&id, base);
    if (id.len > 120) {   /* keep ids readable: long file names are cut */
        id.data[120] = '\0';
        id.len = 120;
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

/* 1 when the KB's source id was made for plugin name (records_source_row: its publisher is
 * "gpuwise plugin NAME VERSION"). */
static int source_of_plugin(kb *k, const char *id, const char *name)
{
    kb_source src = {0};
    gw_error e = {0};
    int mine = 0;
    if (kb_source_get(k, id, &src, &e) == GW_OK && src.publisher) {
        size_t len = strlen("gpuwise plugin "), nl = strlen(name);
        mine = !strncmp(src.publisher, "gpuwise plugin ", len) &&
               !strncmp(src.publisher + len, name, nl) && src.publisher[len + nl] == ' ';
    }
    kb_source_free(&src);
    return mine;
}

int records_check_plugin_sources(const plugin *p, kb *k, const view *records, const char *what,
                                 gw_error *err)
{
    plugin_info info;
    plugin_get_info(p, &info);
    if (info.compiled)
        return GW_OK;
    for (size_t i = 0; i < view_len(records); i++) {
        const char *id = view_str(view_map_get(view_list_at(records, i), "source"));
        if (id && !source_of_plugin(k, id, info.name ? info.name : ""))
            return gw_error_set(err, GW_EDATA,
                                "%s: %s[%zu].source: '%s' is not one of this plugin's sources; a "
                                "plugin cites only the sources made for it (leave `source` out), "
                                "never the KB's curated ones",
                                info.name ? info.name : info.path, what, i + 1, id);
    }
    return GW_OK;
}
