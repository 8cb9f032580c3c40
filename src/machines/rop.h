/* Atomics at the L2 / ROP of each memory partition. */
#ifndef GPUMC_ROP_H
#define GPUMC_ROP_H

#include "machines/gpu.h"

/* Can warp w queue its current global atom/red for lanes m now? */
int rop_can_accept(const struct gpu *g, const uint8_t *sv, unsigned w, uint32_t m);
/* Warp w issues its current global atom/red for lanes m: one entry per
** lane into its SM's FIFO to the lane's partition.  red lets the warp go
** on; atom stalls it until every old value came back. */
void rop_send(const struct gpu *g, uint8_t *sv, unsigned w, uint32_t m);
/* A fence (membar, bar.sync): wait while the warp has atomics in flight. */
int rop_fence_clear(const struct gpu *g, const uint8_t *sv, unsigned w);
unsigned rop_count(const struct gpu *g, const uint8_t *sv, unsigned q);
/* The warp whose entry is at the head of FIFO q. */
unsigned rop_head(const struct gpu *g, const uint8_t *sv, unsigned q);
/* The partition performs the head entry of FIFO q. */
void rop_perform(const struct gpu *g, uint8_t *sv, unsigned q);
int rop_quiescent(const struct gpu *g, const uint8_t *sv);
void rop_describe(const struct gpu *g, const uint8_t *sv, unsigned q, struct strbuf *out);

#endif
