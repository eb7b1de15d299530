/* decide_options.h — the first stage: the options a workload's candidates allow, and which
 * price stands for each (decide_options.c); after the ranking, the check of a 'from' price at
 * the high end of its range, and the list of stale prices to re-quote. */
#ifndef GW_DECIDE_OPTIONS_H
#define GW_DECIDE_OPTIONS_H

#include "decide_common.h"

/* The kinds of price that mean something besides their rank in the KB's price_kind table. */
#define DECIDE_PRICE_LIST "list"          /* a vendor's or provider's own current price */
#define DECIDE_PRICE_FROM "from"          /* a "from" figure: a lower bound */
#define DECIDE_PRICE_LAUNCH "launch"      /* a launch MSRP: history, never an offer */
#define DECIDE_PRICE_ANECDOTE "anecdote"  /* an article's: accepted with anecdotal_ok */

/* At most this many stale prices are listed to re-quote (the best-ranked first). */
#define DECIDE_REQUOTE_MAX 10

/* How far a price row may stand for an option, best first: a current price the workload
 * accepts; a stale one it accepts (stale_ok); one it does not accept (stale, or an article's
 * without anecdotal_ok), shown and held back; a launch MSRP, held back whatever else there is. */
enum {
    DECIDE_STANDS_CURRENT, DECIDE_STANDS_STALE_OK, DECIDE_STANDS_HELD, DECIDE_STANDS_LAUNCH
};

/* Every option the workload's candidates allow, priced (the KB's price kinds read first, into
 * d->price_kinds, freed by decide_price_kinds_free); every candidate GPU without one, and every
 * cloud offer left out, into d->omitted. */
int decide_options_enumerate(decision *d, gw_error *err);
void decide_price_kinds_free(decision *d);
/* The assumption that says which price stands for an option, the KB's kinds named, into b. */
void decide_price_rule_sentence(gw_buf *b, const decision *d);

/* A kind's rank in the KB's price_kind table, 1 the best; a kind the KB does not describe
 * (or none) ranks after every kind. */
int decide_price_rank(const decision *d, const char *quality);
/* p's DECIDE_STANDS_*; whether p stands for an option before q: a better standing, else a
 * better-ranked kind, else a later date. */
int decide_price_standing(const decision *d, const kb_price *p);
int decide_price_better(const decision *d, const kb_price *p, const kb_price *q);
/* Why a feasible option is held back, the first that applies: its price is a launch MSRP, an
 * article's, another market's, older than price_max_age_days, or a 'from' figure that loses at
 * its high end (DECIDE_HELD_NONE: not held back). */
typedef enum {
    DECIDE_HELD_NONE, DECIDE_HELD_LAUNCH, DECIDE_HELD_ARTICLE, DECIDE_HELD_MARKET,
    DECIDE_HELD_STALE, DECIDE_HELD_FROM, DECIDE_HELD_OTHER, DECIDE_HELD_KINDS
} decide_held_kind;
decide_held_kind decide_held_back_kind(const decision *d, const decide_option *o);
/* "12 are priced longer ago than price_max_age_days (180 days)": n options held back as kind,
 * into b. */
void decide_held_back_count(gw_buf *b, const decision *d, decide_held_kind kind, size_t n);
/* Sets o's price kind (quality), staleness (from o's price date, set first) and rate date,
 * holding it back with the reason where its standing says so. */
void decide_option_kind(const decision *d, decide_option *o, const char *quality, int standing,
                        const char *rate_as_of);
/* A 'from' price's range: o->unit_price (its figure) to high, said in o's note with how (where
 * the high end comes from); decide_from_high_assumed is the high end the KB's assumed ratio
 * gives (cited by o and by the assumptions), said into how. */
void decide_option_from_range(decide_option *o, const decision *d, double high, gw_buf *how);
double decide_from_high_assumed(decision *d, decide_option *o, double low, gw_buf *how);

/* After the ranking (d->ranked): the option that would be recommended, if it is priced by a
 * 'from' figure, is held back unless at the high end of its range its ranked figure still beats
 * the next option that may be recommended; and so on down.  Then every other 'from' option whose
 * ranked figure at its high end does not beat the recommendation's is held back too (ranked
 * after the others, as the method says); that leaves the recommendation as it is, so one pass is
 * the fixed point.  The number held back: the ranking must then be redone. */
int decide_from_check(decision *d);
/* The stale, 'from', article's and later-dated prices worth a quote, one item per price
 * (label, price_kind, as_of, age_days, or dated_after for a date after the report's): the recommendation's own, and those of feasible options that would beat it if
 * they held; best-ranked first, at most DECIDE_REQUOTE_MAX. */
view *decide_requote_view(const decision *d);

/* 1 when a feasible purchase not held back is ranked: renting is compared with buying. */
int decide_purchase_ranked(const decision *d);

#endif
