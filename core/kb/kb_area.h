/* kb_area.h — where a region is, in the areas the KB's providers table names (providers.csv's
 * `regions`: US, CA, SA, EU, ME, AF, APAC, CN), read from a region as clouds and catalogues write
 * it (europe-west4, eu-west-1, westeurope, CZ, EU-SE-1, "Sweden, SE") by one table of rules in
 * kb_area.c.  `offers` shows and filters the area; decide's residency check reads it. */
#ifndef GW_KB_AREA_H
#define GW_KB_AREA_H

#include <stddef.h>

/* One area: its code and the places it covers, in words (for help and the manual). */
typedef struct kb_area {
    const char *code, *covers;
} kb_area;

/* The areas in the order providers.csv lists them; kb_area_at(i) is NULL past the last. */
const kb_area *kb_area_at(size_t i);

/* The area of a region as a price row names it (a static code), or NULL where no rule reads it:
 * never guessed.  A two-letter region is an ISO 3166 country code, so "SA", "AF" and "ME" (a
 * country's code as well as an area's) are NULL; "Riyadh, SA" is Saudi Arabia, in ME. */
const char *kb_area_of(const char *region);

/* The area a place stated as a requirement asks for (a workload's region): an area's own code
 * as that area (SA: South America, as the providers table reads it), else kb_area_of's. */
const char *kb_area_wanted(const char *place);

#endif
