/* Concrete mode's ready sets (readyset.c): per warp scheduler, which of
** its warps may issue as far as the state goes, kept between cycles and
** recomputed only after an event that may change it. */
#ifndef GPUMC_READYSET_H
#define GPUMC_READYSET_H

#include <stdint.h>

#include "explore/model.h"

struct readyset;

/* The sets of n schedulers (NULL where one has more than 64 warps: then
** the scheduler polls).  Freed with free(). */
struct readyset *readyset_new(unsigned nsched, unsigned most_warps);
/* Scheduler k (concrete unit u) at the clock tn: its set, bit i for the
** i-th warp of its list (*may), and those of them whose issue depends on
** the scheduler's view (*viewed).  `fill` recomputes both from the state
** by full polling; it runs only when an event since the last call may
** have changed them, and on every call under tn->check, where a
** difference is a missed event: an internal error, reported and fatal. */
void readyset_get(struct readyset *rs, const struct timed_now *tn, unsigned k, unsigned u, uint64_t *may,
                  uint64_t *viewed, void (*fill)(const void *ctx, unsigned k, uint64_t *may, uint64_t *viewed),
                  const void *ctx);

#endif
