/* kb_write.h — what the connection's life asks of the writes (kb_write.c): their prepared row
 * statements and a bulk write's saved triggers, released on rollback and close. */
#ifndef GW_KB_WRITE_H
#define GW_KB_WRITE_H

#include "kb.h"

void kb_row_statements_free(kb *k);   /* before closing */
void kb_bulk_forget(kb *k);           /* after a rollback, and before closing */
void kb_write_begin(kb *k);           /* in kb_begin: no row matched by this transaction yet */

#endif
