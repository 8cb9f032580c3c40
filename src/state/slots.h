/*
** In-place doubling of an open-addressing table with linear probing
** (slots.c says how): the visited set's table and the tree's node and
** state tables grow without holding the old table beside the new one.
*/
#ifndef GPUMC_SLOTS_H
#define GPUMC_SLOTS_H

#include <stddef.h>
#include <stdint.h>

/* *tab: mask + 1 slots of width 4 or 8 bytes, 0 meaning empty, below full
** load.  Doubles it in place; hash(ctx, value) gives a stored value's
** hash, whose low bits are its home slot.  *mask becomes the new mask. */
void slots_double(void **tab, size_t width, uint64_t *mask, uint64_t (*hash)(const void *ctx, uint64_t value),
                  const void *ctx);

/* The same in parts, which touch disjoint slots (slots.c, SLOTS-2), so
** that threads may do them at once: slots_double_begin resizes the block
** and sets bound[0..nparts) (where each part starts), then every part of
** [0, nparts) is done once, with mask still the old one (as hash may read
** it); then the caller sets *mask to 2 * mask + 1. */
void slots_double_begin(void **tab, size_t width, uint64_t mask, unsigned nparts, uint64_t *bound);
void slots_double_part(void *tab, size_t width, uint64_t mask, unsigned part, unsigned nparts, const uint64_t *bound,
                       uint64_t (*hash)(const void *ctx, uint64_t value), const void *ctx);

#endif
