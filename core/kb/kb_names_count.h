/* kb_names_count.h — a GPU count in a name ("8x H100", "H100 x8", "4090x2") as the resolver
 * (kb_names.c) reads it: the ways a name's words read as a count and a card. */
#ifndef GW_KB_NAMES_COUNT_H
#define GW_KB_NAMES_COUNT_H

#include "kb_sql.h"

/* One way of reading a name's words as a count and a card: the count and the card's words
 * (copies; free with kb_names_reading_free). */ 
typedef struct count_reading {
    long count;
    kb_strlist card;
} count_reading;

void kb_names_reading_free(count_reading *r);
/* 1 when name begins or ends with a count written other than as plain digits ("-2x", "1.5x",
 * "H100 x1.5"): splitting the name into words would leave a count where none was meant. */
int kb_names_count_malformed(const char *name);
/* The readings of the words t as a count and a card, into r: none, one, or two where one number
 * can be either ("2x4090", "4 x 4090"); -1 when the name has a count at both ends ("2x H100
 * x8").  Free each with kb_names_reading_free. */
int kb_names_count_readings(const kb_strlist *t, count_reading r[2]);

#endif
