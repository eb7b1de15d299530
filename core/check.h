/* check.h — small checks shared by every reader of user text: how far a typo is from a real
 * name (for "did you mean"), and whether a date is written as the KB writes dates. */
#ifndef GW_CHECK_H
#define GW_CHECK_H

#include <stddef.h>

/* Edit distance counting a swap of two neighbours as one edit ("3900" is one from "3090", "fromat"
 * one from "format").  Only the first 64 bytes of each string count. */
size_t gw_edit_distance(const char *a, const char *b);

/* The candidate closest to word, when it is near enough to be a typo of it (at most a third of
 * its length, and at most 3, edits away); NULL otherwise.  candidates ends with NULL. */
const char *gw_closest(const char *word, const char *const *candidates);

/* 1 when s is YYYY-MM or YYYY-MM-DD with a real month and day of month. */
int gw_valid_date(const char *s);

#endif
