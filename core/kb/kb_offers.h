/* kb_offers.h — the cloud offers `gpuwise offers` lists: each hourly cloud price with the
 * figures a renter compares (the memory of the GPU it rents, the price per whole GPU-hour),
 * filtered with the --where language of `kb list` and sorted by any of its fields. */
#ifndef GW_KB_OFFERS_H
#define GW_KB_OFFERS_H

#include "kb.h"

/* One offer: the KB's row and its figures, in the currency asked (else the offer's own). */
typedef struct kb_offer {
    kb_price price;
    double count;           /* GPUs in the instance (1 where the row says none) */
    double fraction;        /* the share of each card rented: 1, or 1/6 for an A10 slice (the
                             * KB's 0.167 read as units_fraction_exact reads it) */
    double memory_gb;       /* of each GPU rented: the card's memory × fraction; NaN unknown */
    double per_hour;        /* the instance's price an hour; NaN: no rate to convert with */
    double per_gpu;         /* the price of a whole GPU-hour: per_hour / (count × fraction) */
    char *currency;
    const char *area;       /* where its region is (kb_area_of: EU, US, ...); NULL unknown */
} kb_offer;

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

/* The offers the query selects, sorted (unknown values last, then by GPU and row).  Caller
 * frees with kb_offers_free.  GW_EUSAGE for a bad filter or sort field. */
int kb_offers_list(kb *k, const kb_offer_query *q, kb_offer **out, size_t *n, gw_error *err);
void kb_offers_free(kb_offer *rows, size_t n);

/* The name of the i-th field --where and --sort know (as the listing calls it), in the order
 * the listing describes them; NULL past the last. */
const char *kb_offer_field_name(size_t i);


#endif
