/* inspect_view.c — an inspection result as a view (inspect.h's inspect_view): what --json
 * prints and the inspection template reads. */
#include "inspect.h"

#include "base/buf.h"
#include "base/view.h"

static view *summary_view(const size_t counts[INSPECT_N_STATUS])
{
    view *s = view_map();
    view_map_set_int(s, "pass", (long long)counts[INSPECT_PASS]);
    view_map_set_int(s, "warn", (long long)counts[INSPECT_WARN]);
    view_map_set_int(s, "fail", (long long)counts[INSPECT_FAIL]);
    view_map_set_int(s, "unknown", (long long)counts[INSPECT_UNKNOWN]);
    return s;
}

static view *check_view(const inspect_check *c)
{
    view *v = view_map();
    view_map_set_str(v, "id", c->id);
    view_map_set_str(v, "group", c->group);
    view_map_set_str(v, "status", inspect_status_name(c->status));
    /* lower-case flags so a template can pick an icon without comparing strings */
    view_map_set_bool(v, "fail", c->status == INSPECT_FAIL);
    view_map_set_bool(v, "warn", c->status == INSPECT_WARN);
    view_map_set_str(v, "message", c->message);
    gw_buf joined = GW_BUF_INIT;   /* for templates: one cell, no list syntax needed */
    for (size_t i = 0; i < c->n_evidence; i++)
        buf_printf(&joined, "%s%s = %s (line %d)", i ? "; " : "", c->evidence[i].path,
                   c->evidence[i].text, c->evidence[i].line);
    view_map_set_str(v, "evidence_text", buf_cstr(&joined));
    buf_free(&joined);
    view *ev = view_map_set(v, "evidence", view_list());
    for (size_t i = 0; i < c->n_evidence; i++) {
        const inspect_evidence *e = &c->evidence[i];
        view *item = view_list_push(ev, view_map());
        view_map_set_str(item, "path", e->path);
        view_map_set_str(item, "text", e->text);
        view_map_set_int(item, "line", e->line);
        view_map_set(item, "quote", view_stringf("%s = %s (line %d)", e->path, e->text, e->line));
    }
    return v;
}

/* One GPU of r: its identity, what the KB calls it, its summary and checks. */
static view *gpu_view(const inspect_result *r, size_t i)
{
    const inspect_gpu *g = &r->gpus[i];
    view *gv = view_map();
    size_t counts[INSPECT_N_STATUS] = {0};
    for (size_t k = 0; k < g->n_checks; k++)
        counts[g->checks[k].status]++;
    view_map_set_int(gv, "index", (long long)i);
    view_map_set_str(gv, "bus_id", g->bus_id);
    view_map_set_str(gv, "name", g->name);
    view_map_set_str(gv, "kb_id", g->card.id);
    view_map_set_str(gv, "kb_name", g->card.name);
    view_map_set_num(gv, "memory_total_mib", g->memory_total_mib);
    view_map_set_str(gv, "driver_version", r->driver_version);
    view_map_set_str(gv, "cuda_version", r->cuda_version);
    view_map_set(gv, "summary", summary_view(counts));
    view *checks = view_map_set(gv, "checks", view_list());
    for (size_t k = 0; k < g->n_checks; k++)
        view_list_push(checks, check_view(&g->checks[k]));
    return gv;
}

view *inspect_view(const inspect_result *r)
{
    view *root = view_map();
    view_map_set_str(root, "source", r->source);
    view_map_set_str(root, "timestamp", r->timestamp);
    view_map_set_str(root, "driver_version", r->driver_version);
    view_map_set_str(root, "cuda_version", r->cuda_version);
    view_map_set_str(root, "verdict", inspect_status_name(inspect_verdict(r)));
    view_map_set(root, "summary", summary_view(r->counts));
    view_map_set_int(root, "gpu_count", (long long)r->n_gpus);
    view *gpus = view_map_set(root, "gpus", view_list());
    for (size_t i = 0; i < r->n_gpus; i++)
        view_list_push(gpus, gpu_view(r, i));
    return root;
}
