/* checklist.c — checklist plugins turned into document models (see checklist.h): reads their
 * items through the plugin host, answers the items an inspection covers, and checks what the
 * plugin's evaluate() gives back.  Knows no Lua. */
#include "checklist.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

static const char *const statuses[] = {"PASS", "UNKNOWN", "WARN", "FAIL"};   /* worst last */

static int status_rank(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (s && strcmp(s, statuses[i]) == 0)
            return i;
    return -1;
}

static const char *field_str(const view *map, const char *key)
{
    return view_str(view_map_get(map, key));
}

static int is_checklist(plugin *p)
{
    plugin_info info;
    plugin_get_info(p, &info);
    return info.kind && strcmp(info.kind, "checklist") == 0;
}

view *checklist_list(plugin_host *host)
{
    view *list = view_list();
    size_t n = plugin_count(host);
    plugin **found = gw_xcalloc(n ? n : 1, sizeof *found);
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (is_checklist(plugin_at(host, i)))
            found[count++] = plugin_at(host, i);
    /* insertion sort by name: a handful of checklists */
    for (size_t i = 1; i < count; i++)
        for (size_t j = i; j > 0; j--) {
            plugin_info a, b;
            plugin_get_info(found[j - 1], &a);
            plugin_get_info(found[j], &b);
            if (strcmp(a.name, b.name) <= 0)
                break;
            plugin *t = found[j - 1];
            found[j - 1] = found[j];
            found[j] = t;
        }
    for (size_t i = 0; i < count; i++) {
        plugin_info info;
        plugin_get_info(found[i], &info);
        view *item = view_list_push(list, view_map());
        view_map_set_str(item, "name", info.name);
        view_map_set_str(item, "description", info.description);
        view_map_set_str(item, "version", info.version);
        view_map_set_str(item, "path", info.path);
        view *items = NULL;
        gw_error ignored = {0};
        if (plugin_get_field(found[i], "items", &items, &ignored) == GW_OK)
            view_map_set_int(item, "items", (long long)view_len(items));
        view_free(items);
    }
    free(found);
    return list;
}

/* The worst status of check `id` over the inspection's GPUs, and their messages. */
static view *answer_from_inspection(const view *inspection, const char *id)
{
    const view *gpus = view_map_get(inspection, "gpus");
    int worst = -1;
    gw_buf text = GW_BUF_INIT;
    size_t n = view_len(gpus);
    for (size_t g = 0; g < n; g++) {
        const view *gpu = view_list_at(gpus, g);
        const view *checks = view_map_get(gpu, "checks");
        for (size_t c = 0; c < view_len(checks); c++) {
            const view *check = view_list_at(checks, c);
            const char *cid = field_str(check, "id");
            if (!cid || strcmp(cid, id) != 0)
                continue;
            int rank = status_rank(field_str(check, "status"));
            if (rank > worst)
                worst = rank;
            if (text.len)
                buf_puts(&text, "; ");
            if (n > 1)
                buf_printf(&text, "GPU %zu: ", g);
            buf_printf(&text, "%s %s", field_str(check, "status") ? field_str(check, "status") : "",
                       field_str(check, "message") ? field_str(check, "message") : "");
        }
    }
    if (worst < 0) {
        buf_free(&text);
        return NULL;
    }
    view *answer = view_map();
    view_map_set_str(answer, "status", statuses[worst]);
    view_map_set_str(answer, "text", buf_cstr(&text));
    view_map_set_str(answer, "by", id);
    buf_free(&text);
    return answer;
}

static view *find_item(view *items, const char *id)
{
    for (size_t i = 0; i < view_len(items); i++) {
        view *item = view_list_at(items, i);
        const char *iid = field_str(item, "id");
        if (iid && id && strcmp(iid, id) == 0)
            return item;
    }
    return NULL;
}

/* Applies what evaluate(inspection) returned: a list of {id, status, answer}. */
static int apply_evaluation(const plugin_info *info, view *items, const view *answers,
                            gw_error *err)
{
    if (view_kind(answers) == VIEW_NULL)
        return GW_OK;
    if (view_kind(answers) != VIEW_LIST && !(view_kind(answers) == VIEW_MAP && !view_len(answers)))
        return gw_error_set(err, GW_ESOFTWARE,
                            "%s: evaluate() must return a list of {id, status, answer}",
                            info->path);
    for (size_t i = 0; i < view_len(answers) && view_kind(answers) == VIEW_LIST; i++) {
        const view *a = view_list_at(answers, i);
        const char *id = field_str(a, "id");
        const char *status = field_str(a, "status");
        const char *text = field_str(a, "answer");
        view *item = find_item(items, id);
        if (!item)
            return gw_error_set(err, GW_ESOFTWARE, "%s: evaluate(): answer %zu names no item "
                                "('%s')", info->path, i + 1, id ? id : "(no id)");
        if (status_rank(status) < 0)
            return gw_error_set(err, GW_ESOFTWARE, "%s: evaluate(): answer '%s': status must be "
                                "PASS, WARN, FAIL or UNKNOWN", info->path, id);
        view *answer = view_map();
        view_map_set_str(answer, "status", status);
        view_map_set_str(answer, "text", text ? text : "");
        view_map_set_str(answer, "by", "evaluate");
        view_map_set(item, "answer", answer);
    }
    return GW_OK;
}

/* GW_ENOTFOUND naming the checklists there are, for a name that is none of them. */
static int no_such_checklist(plugin_host *host, const char *name, gw_error *err)
{
    view *all = checklist_list(host);
    gw_buf names = GW_BUF_INIT;
    for (size_t i = 0; i < view_len(all); i++)
        buf_printf(&names, "%s%s", i ? ", " : "", field_str(view_list_at(all, i), "name"));
    int rc = gw_error_set(err, GW_ENOTFOUND, "no checklist named '%s' (there are: %s)", name,
                          names.len ? buf_cstr(&names) : "none");
    buf_free(&names);
    view_free(all);
    return rc;
}

/* Fills model's items from the plugin's raw items list (each answered from inspection when it
 * names an automatic check) and its severity_counts. */
static void set_items(view *model, const view *raw, const view *inspection)
{
    view *items = view_map_set(model, "items", view_list());
    long long high = 0, medium = 0, low = 0;
    for (size_t i = 0; i < view_len(raw); i++) {
        const view *r = view_list_at(raw, i);
        view *item = view_list_push(items, view_map());
        const char *severity = field_str(r, "severity");
        view_map_set_int(item, "n", (long long)i + 1);
        view_map_set_str(item, "id", field_str(r, "id"));
        view_map_set_str(item, "section", field_str(r, "section"));
        view_map_set_str(item, "question", field_str(r, "question"));
        view_map_set_str(item, "how_to_check", field_str(r, "how_to_check"));
        view_map_set_str(item, "severity", severity);
        view_map_set_str(item, "auto", field_str(r, "auto"));
        high += severity && strcmp(severity, "high") == 0;
        medium += severity && strcmp(severity, "medium") == 0;
        low += severity && strcmp(severity, "low") == 0;
        view *answer = NULL;
        if (inspection && field_str(r, "auto"))
            answer = answer_from_inspection(inspection, field_str(r, "auto"));
        view_map_set(item, "answer", answer ? answer : view_null());
    }
    view *counts = view_map_set(model, "severity_counts", view_map());
    view_map_set_int(counts, "high", high);
    view_map_set_int(counts, "medium", medium);
    view_map_set_int(counts, "low", low);
}

/* Calls the plugin's evaluate(inspection), when it has one, and applies its answers to items. */
static int run_evaluate(plugin *p, const plugin_info *info, view *items, const view *inspection,
                        gw_error *err)
{
    view *answers = NULL;
    view *arg = view_copy(inspection);
    view *const args[] = {arg};
    int rc = plugin_call(p, "evaluate", args, 1, &answers, err);
    view_free(arg);
    if (rc != GW_OK && strstr(err->msg, "has no function 'evaluate'")) {
        rc = GW_OK;   /* evaluate() is optional: the `auto` answers stand */
        gw_error_clear(err);
    }
    if (rc == GW_OK)
        rc = apply_evaluation(info, items, answers, err);
    view_free(answers);
    return rc;
}

int checklist_view(plugin_host *host, const char *name, const view *inspection, view **out,
                   gw_error *err)
{
    *out = NULL;
    plugin *p = plugin_find_kind(host, name, "checklist");   /* a rule may share the name */
    if (!p)
        return no_such_checklist(host, name, err);
    plugin_info info;
    plugin_get_info(p, &info);
    view *raw = NULL;
    int rc = plugin_get_field(p, "items", &raw, err);
    if (rc != GW_OK)
        return rc;

    view *model = view_map();
    view_map_set_str(model, "name", info.name);
    view_map_set_str(model, "description", info.description);
    view_map_set_str(model, "version", info.version);
    view_map_set_str(model, "path", info.path);
    set_items(model, raw, inspection);
    view_free(raw);
    view *items = view_map_get(model, "items");
    if (inspection) {
        rc = run_evaluate(p, &info, items, inspection, err);
        if (rc != GW_OK) {
            view_free(model);
            return rc;
        }
        view_map_set_str(model, "inspection_source", field_str(inspection, "source"));
    }
    long long answered = 0;
    for (size_t i = 0; i < view_len(items); i++)
        answered += !view_is_null(view_map_get(view_list_at(items, i), "answer"));
    view_map_set_int(model, "answered", answered);
    view_map_set_bool(model, "has_answers", answered > 0);
    *out = model;
    return GW_OK;
}
