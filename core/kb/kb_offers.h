/* kb_offers.h — the cloud offers `gpuwise offers` lists: each hourly cloud price with the
 * figures a renter compares (the memory of the GPU it rents, the price per whole GPU-hour),
 * filtered with the --where language of `kb list` and sorted by any of its fields. */
#ifndef GW_KB_OFFERS_H
#define GW_KB_OFFERS_H

#include "kb.h"

typedef struct kb_offer_query {
    const char *const *gpus;   /* only these GPU ids; NULL: every GPU */
    size_t n_gpus;
    int spot;                  /* 1 only spot, 0 only on-demand, -1 both */
    double max_per_gpu;        /* per whole GPU-hour, in the currency shown; NaN: no limit */
    const char *currency;      /* convert to it; NULL: each offer's own */
    const char *where;         /* the filter (kb_offer_field names its fields); NULL: none */
    const char *sort;          /* "[-]FIELD" (a leading '-': highest first); NULL: the price
                                * per GPU-hour.  Prices sort by their value in USD where the
                                * KB has a rate, so currencies compare. */
} kb_offer_query;

/* One row of the listing: the offers that differ in nothing the listing shows but their region,
 * folded into the first of them in the listing's order.  Strings are NULL where unknown. */
typedef struct kb_offer_row {
    const char *gpu, *provider, *instance, *currency, *as_of, *source, *quality;
    double count;           /* GPUs in the instance (1 where the row says none) */
    double fraction;        /* the share of each card rented: 1, or 1/6 for an A10 slice (the
                             * KB's 0.167 read as units_fraction_exact reads it) */
    double memory_gb;       /* of each GPU rented: the card's memory x fraction; NaN unknown */
    double per_hour;        /* the instance's price an hour; NaN: no rate to convert with */
    double per_gpu;         /* the price of a whole GPU-hour: per_hour / (count x fraction) */
    int spot;
    const char *area;       /* where the first offer's region is (kb_area_of: EU, US, ...) */
    const char *const *regions;   /* the offers' regions, each once, in the listing's order */
    size_t n_regions;
    const char *const *areas;     /* those regions' areas, each once, in the same order */
    size_t n_areas;
} kb_offer_row;

/* Called for each row in turn; a return other than GW_OK stops the listing with that result. */
typedef int (*kb_offer_fn)(const kb_offer_row *row, void *arg, gw_error *err);

/* The offers the query selects, folded and sorted (unknown values last, then by GPU and the
 * first offer's row), each handed to each as it is read: memory grows only with the rows of one
 * GPU at one sort key, not with the offers.
 * A row's strings live until each returns.  GW_EUSAGE for a bad filter or sort field,
 * GW_ENOTFOUND for a currency without a rate; otherwise each's first failure. */
int kb_offers_each(kb *k, const kb_offer_query *q, kb_offer_fn each, void *arg, gw_error *err);

/* The name of the i-th field --where and --sort know (as the listing calls it), in the order
 * the listing describes them; NULL past the last. */
const char *kb_offer_field_name(size_t i);


#endif
