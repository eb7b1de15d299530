/* model_capacity.c — what a card holds in the unit a need is computed in: its memory as the
 * driver reports it (MiB), or an estimate from its nominal figure by the stated rule of model.h,
 * in GB of 10^9 bytes. */
#include "model.h"

#include <math.h>
#include <string.h>

double model_card_memory_gb(double nominal_gb, double reported_mib, const char *memory_type,
                            int ecc, int *estimated)
{
    if (estimated)
        *estimated = !(reported_mib > 0);
    if (reported_mib > 0)
        return reported_mib * MODEL_MIB_BYTES / 1e9;
    if (!(nominal_gb > 0))
        return NAN;
    double share = memory_type && !strncmp(memory_type, "HBM", 3) ? MODEL_HBM_REPORTED_SHARE
                   : ecc                                          ? MODEL_GDDR_ECC_REPORTED_SHARE
                                                                  : MODEL_GDDR_REPORTED_SHARE;
    return nominal_gb * 1024 * share * MODEL_MIB_BYTES / 1e9;
}
