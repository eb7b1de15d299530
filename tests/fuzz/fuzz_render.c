/* fuzz_render.c — the Markdown + HTML document path (render_document: shipped template, cmark-gfm,
 * charts, citations) with hostile KB strings: every string of a real model (a datasheet, a
 * comparison, an inspection, a justification; tests/fuzz/models/) is replaced by a piece of the
 * input.  Rendering must not crash, and escaping must hold whatever the strings hold: no
 * <script> or <img> element and no javascript: link reaches the HTML page (the templates and
 * charts have none of their own).
 * seeds: $ROOT/tests/fixtures/fuzz/fuzz_render */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/buf.h"
#include "render/render.h"
#include "base/view.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const docs[] = {"datasheet", "comparison", "inspection", "justification"};
#define N_DOCS (sizeof docs / sizeof docs[0])
static view *models[N_DOCS];
/* The shipped templates from the repository root; no user folder. */
static const render_opts opts = {"html", NULL, NULL, "/nonexistent/gpuwise", "."};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (size_t i = 0; i < N_DOCS; i++) {
        char path[128], *text = NULL;
        size_t len = 0;
        gw_error err = {0};
        snprintf(path, sizeof path, "tests/fuzz/models/%s.json", docs[i]);
        if (gw_read_file(path, &text, &len) != 0 || !(models[i] = view_from_json(text, len, &err))) {
            fprintf(stderr, "fuzz: cannot read %s (run from the repository root)\n", path);
            abort();
        }
        free(text);
    }
    return 0;
}

typedef struct pieces {
    const char *data;
    size_t size, pos;
} pieces;

/* The next piece of input: up to the next newline, cycling; empty input gives "". */
static view *next_piece(pieces *p)
{
    if (p->size == 0)
        return view_string("");
    if (p->pos >= p->size)
        p->pos = 0;
    const char *start = p->data + p->pos;
    const char *nl = memchr(start, '\n', p->size - p->pos);
    size_t n = nl ? (size_t)(nl - start) : p->size - p->pos;
    p->pos += n + 1;
    return view_stringn(start, n);
}

static view *hostile_copy(const view *v, pieces *p)
{
    switch (view_kind(v)) {
    case VIEW_STRING:
        return next_piece(p);
    case VIEW_LIST: {
        view *l = view_list();
        for (size_t i = 0; i < view_len(v); i++)
            view_list_push(l, hostile_copy(view_list_at(v, i), p));
        return l;
    }
    case VIEW_MAP: {
        view *m = view_map();
        for (size_t i = 0; i < view_len(v); i++)
            view_map_set(m, view_map_key_at(v, i), hostile_copy(view_map_value_at(v, i), p));
        return m;
    }
    default:
        return view_copy(v);
    }
}

static int contains_tag(const char *html, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = html; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t doc = data[0] % N_DOCS;
    pieces p = {(const char *)data + 1, size - 1, 0};
    view *model = hostile_copy(models[doc], &p);
    gw_error err = {0};
    render_doc out;
    int rc = render_document(&opts, docs[doc], model, &out, &err);
    const char *html = buf_cstr(&out.text);
    if (rc == GW_OK &&
        (contains_tag(html, "<script") || contains_tag(html, "<img") ||
         contains_tag(html, "href=\"javascript:")))
        abort();   /* a string of the model became markup */
    render_doc_free(&out);
    view_free(model);
    return 0;
}
