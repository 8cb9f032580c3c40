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

#endif
