/* optimizer.c — the table of optimizers (optimizer.h) and the look-ups over it. */
#include "optimizer.h"

#include <string.h>

/* Adam and AdamW keep two fp32 moments, SGD with momentum one, plain SGD none. */
static const gw_optimizer optimizers[] = {
    {.name = "adam", .state_bytes = 8, .trains = 1},
    {.name = "adamw", .state_bytes = 8, .trains = 1},
    {.name = "sgd", .state_bytes = 4, .trains = 1},
    {.name = "sgd-plain", .state_bytes = 0, .trains = 1},
    {.name = "none", .state_bytes = 0, .trains = 0},
};

#define OPTIMIZER_COUNT (sizeof optimizers / sizeof optimizers[0])

const gw_optimizer *gw_optimizer_find(const char *name)
{
    for (size_t i = 0; name && i < OPTIMIZER_COUNT; i++)
        if (!strcmp(name, optimizers[i].name))
            return &optimizers[i];
    return NULL;
}

const char *gw_optimizer_choice(size_t i)
{
    return i < OPTIMIZER_COUNT ? optimizers[i].name : NULL;
}

void gw_optimizer_list(gw_buf *b)
{
    for (size_t i = 0; i < OPTIMIZER_COUNT; i++)
        buf_printf(b, "%s%s", i == 0 ? "" : i + 1 == OPTIMIZER_COUNT ? " or " : ", ",
                   optimizers[i].name);
}
