/* Warp schedulers: which warps may issue, and GTO for concrete mode. */
#ifndef GPUMC_SCHEDULER_H
#define GPUMC_SCHEDULER_H

#include "machines/gpu.h"

/* Append an ISSUE action for every warp that may issue now. */
unsigned sched_enabled(const struct gpu *g, const uint8_t *sv, struct action *out);
/* Greedy-then-oldest among candidate issues of one scheduler. */
unsigned sched_pick_gto(const struct action *cand, unsigned n, uint32_t last);

#endif
