/*
** In-place growth of an open-addressing table with linear probing
** (slots.c says how): the visited set's table and the tree's node and
** state tables double, the compact visited set's grows by any factor,
** without holding the old table beside the new one.
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

/* Tables of any size (the compact visited set's fingerprints): n slots of
** 8 bytes, 0 meaning empty, linear probing from slot n - 1 on to slot 0.
** Value x's home is x * n / 2^64 rounded down: monotone in x, so that a
** table grown to m > n slots gives every value a home at or above its
** old one (slots.c, SLOTS-3). */
static inline uint64_t slots_home(uint64_t x, uint64_t n)
{
#ifdef __SIZEOF_INT128__
	__extension__ typedef unsigned __int128 u128;
	return (uint64_t)(((u128)x * n) >> 64);
#else
	/* the high half of the 128-bit product, from 32-bit halves */
	uint64_t xl = (uint32_t)x, xh = x >> 32, nl = (uint32_t)n, nh = n >> 32;
	uint64_t mid = (xl * nl >> 32) + (uint32_t)(xh * nl) + (uint32_t)(xl * nh);
	return xh * nh + (xh * nl >> 32) + (xl * nh >> 32) + (mid >> 32);
#endif
}

/* Value x (not 0) looked up in t of n slots (slots_home), put at the
** first empty slot of its probe when absent; returns whether it was put. */
static inline int slots_put(uint64_t *t, uint64_t n, uint64_t x)
{
	uint64_t j = slots_home(x, n);
	for (uint64_t s; (s = t[j]) != x;) {
		if (!s) {
			t[j] = x;
			return 1;
		}
		if (++j == n) /* a branch, not a select: the wrap is rare */
			j = 0;
	}
	return 0;
}

/* *tab: n slots as slots_home says, below full load; grown in place to m
** > n slots.  Returns how many values it held aside, all at once until
** the end (SLOTS-3: a few, near either end of the table). */
size_t slots_grow(uint64_t **tab, uint64_t n, uint64_t m);

#endif
