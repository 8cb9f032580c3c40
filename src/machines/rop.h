/* Atomics at the L2 / ROP of each memory partition. */
#ifndef GPUMC_ROP_H
#define GPUMC_ROP_H

#include "machines/gpu.h"

/* Warp w issues its current global atom/red for lanes m: one request per
** partition touched, queued in that SM's FIFO to the partition. */
void rop_send(const struct gpu *g, uint8_t *sv, unsigned w, uint32_t m);
/* Number of requests waiting in FIFO q, and the warp at its head. */
unsigned rop_count(const struct gpu *g, const uint8_t *sv, unsigned q);
unsigned rop_head(const struct gpu *g, const uint8_t *sv, unsigned q);
/* The partition performs the head request of FIFO q. */
void rop_perform(const struct gpu *g, uint8_t *sv, unsigned q);

#endif
