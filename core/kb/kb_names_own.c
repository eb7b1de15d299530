/* kb_names_own.c — whose a name is: a card's id, name or alias may not already name another
 * card (kb_gpu_name_free), so that what an importer or a CSV adds never takes over the names
 * that decisions, offers and dumps are read by. */
#include <stdlib.h>
#include <string.h>

#include "kb.h"
#include "kb_names.h"
#include "kb_sql.h"

/* The cards other than gpu one of whose names is name after normalisation (resolution's
 * step 1), into *ids (caller frees). */
static int exact_owners(kb *k, const char *gpu, const char *name, char ***ids, size_t *n,
                        gw_error *err)
{
    kb_strlist owners = {0};
    int rc = kb_names_load(k, err);
    char *norm = kb_name_norm(name);
    for (size_t i = 0; rc == GW_OK && *norm && i < k->n_names; i++) {
        const gpu_names *g = &k->names[i];
        kb_strlist variants = {g->variants, g->n_variants, g->n_variants};
        if (strcmp(g->id, gpu) != 0 && kb_strlist_has(&variants, norm))
            kb_strlist_push(&owners, gw_xstrdup(g->id));
    }
    free(norm);
    *ids = owners.v;
    *n = owners.n;
    return rc;
}

/* The cards an alias of gpu already leads to as the resolver reads it, exactly or by its words
 * ("H100 80GB" is h100-sxm5's), into *ids (caller frees); none when it leads to gpu itself,
 * even among others ("NVIDIA H200": the SXM part and the NVL, for h200-sxm to settle). */
static int alias_owners(kb *k, const char *gpu, const char *alias, char ***ids, size_t *n,
                        gw_error *err)
{
    gw_error e = {0};
    int rc = kb_gpu_resolve_family(k, alias, ids, n, &e);
    if (rc == GW_ENOTFOUND)   /* names no card (or is no name a query could use) */
        return GW_OK;
    if (rc != GW_OK) {
        *err = e;
        return rc;
    }
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*ids)[i], gpu) == 0) {
            kb_strings_free(*ids, *n);
            *ids = NULL;
            *n = 0;
            break;
        }
    return GW_OK;
}

/* A card's own id and name are checked exactly: by their words they may well lead to a card
 * of the same family today ("Quadro RTX 4000" to the RTX 4000 Ada cards, a chip's 6 GB board to
 * its 5 GB one), which the new card, a product of its own, rightly takes over.  An alias is a
 * nickname and adds no product: it takes no name from any card. */
int kb_gpu_name_free(kb *k, const char *gpu, const char *what, const char *name, gw_error *err)
{
    char **ids = NULL;
    size_t n = 0;
    int rc = strcmp(what, "alias") == 0 ? alias_owners(k, gpu, name, &ids, &n, err)
                                        : exact_owners(k, gpu, name, &ids, &n, err);
    if (rc == GW_OK && n > 0) {
        gw_buf owners = GW_BUF_INIT;
        for (size_t i = 0; i < n; i++)
            buf_printf(&owners, "%s'%s'", i ? ", " : "", ids[i]);
        rc = gw_error_set(err, GW_EDATA, "%s '%.200s' of card '%.80s' already names card%s %s",
                          what, name, gpu, n > 1 ? "s" : "", buf_cstr(&owners));
        buf_free(&owners);
    }
    kb_strings_free(ids, n);
    return rc;
}
