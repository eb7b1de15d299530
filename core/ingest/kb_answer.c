/* kb_answer.c — answers a plugin's KB questions from a kb: a GPU name resolved to its id and
 * count, or a GPU's columns as kb_table.c describes them.  The plugin host only forwards the
 * question and the answer; this is the one place that reads the KB for a plugin. */
#include "kb_answer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"

/* The GPU's columns into gv: text first, then the figures; unknown ones absent. */
static void gpu_columns(view *gv, const kb_gpu *g)
{
    size_t ncols;
    const kb_column *cols = kb_table_columns(KB_GPUS, &ncols);
    for (int text = 1; text >= 0; text--)
        for (size_t i = 0; i < ncols; i++) {
            if ((cols[i].type == KB_TEXT) != text)
                continue;
            if (text && kb_column_text(&cols[i], g))
                view_map_set_str(gv, cols[i].name, kb_column_text(&cols[i], g));
            else if (!text && !isnan(kb_column_number(&cols[i], g)))
                view_map_set_num(gv, cols[i].name, kb_column_number(&cols[i], g));
        }
}

view *kb_answer_question(void *ctx, const view *q)
{
    kb *k = ctx;
    view *a = view_map();
    const char *what = view_str(view_map_get(q, "question"));
    gw_error err = {0};
    if (!k) {
        view_map_set_str(a, "error", "no knowledge base is open");
    } else if (what && !strcmp(what, "gpu.resolve") && view_str(view_map_get(q, "name"))) {
        char *id = NULL;
        int count = 1;
        if (kb_gpu_resolve(k, view_str(view_map_get(q, "name")), &id, &count, &err) != GW_OK)
            view_map_set_str(a, "error", err.msg);
        else {
            view_map_set_str(a, "id", id);
            view_map_set_int(a, "count", count);
        }
        free(id);
    } else if (what && !strcmp(what, "kb.gpu") && view_str(view_map_get(q, "id"))) {
        kb_gpu g;
        kb_gpu_init(&g);
        if (kb_gpu_get(k, view_str(view_map_get(q, "id")), &g, &err) != GW_OK)
            view_map_set_str(a, "error", err.msg);
        else
            gpu_columns(view_map_set(a, "gpu", view_map()), &g);
        kb_gpu_free(&g);
    } else {
        view_map_set_str(a, "error", "unknown question");
    }
    return a;
}
