/* kb_answer.h — the KB's answers to the questions plugins ask (gw.gpu.resolve, gw.kb.gpu): the
 * function every caller above core/ingest hands the plugin host (plugin_host_new,
 * plugin_eval_text) with its kb, so that core/sandbox never sees the KB itself. */
#ifndef GW_KB_ANSWER_H
#define GW_KB_ANSWER_H

#include "base/view.h"

/* A plugin_kb_answer (sandbox/plugin.h) over k, a kb * (NULL: every question is answered "no
 * knowledge base is open").  Reads question defensively: it comes from a plugin's process.
 * Returns the answer map, never NULL; the caller frees it. */
view *kb_answer_question(void *k, const view *question);

#endif
