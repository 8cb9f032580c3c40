/*
** State hashing: XXH3, the one hash function of gpumc.
**
** A state's hash is XXH3 over the XXH3 hashes of its 64-byte blocks.  A
** transition changes few blocks (a warp step touches its warp record and a
** word or two of memory), so a successor's hash reuses the parent's block
** hashes for every block that compares equal and hashes only the rest:
** memcmp is much cheaper than hashing.  Equal states have equal block
** hashes, so equal hashes, whichever path computed them.
*/
#ifndef GPUMC_HASH_H
#define GPUMC_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
/* Inline XXH3 from libxxhash-dev's header: the state hash is the hottest
** code of exhaustive mode; a call through the shared library cost more. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#define HASH_BLOCK 64

static inline size_t hash_nblocks(size_t n)
{
	return (n + HASH_BLOCK - 1) / HASH_BLOCK;
}

/* Hash of a vector of n bytes; its block hashes go to bh[hash_nblocks(n)]. */
static inline uint64_t state_hash_blocks(const uint8_t *sv, size_t n, uint64_t *bh)
{
	size_t nb = hash_nblocks(n);
	for (size_t b = 0; b < nb; b++) {
		size_t len = b + 1 < nb ? HASH_BLOCK : n - b * HASH_BLOCK;
		bh[b] = XXH3_64bits(sv + b * HASH_BLOCK, len);
	}
	return XXH3_64bits(bh, nb * sizeof *bh);
}

/* The same hash for next, knowing src and its block hashes: blocks equal
** to src's keep their hash.  bh receives next's block hashes. */
static inline uint64_t state_hash_delta(const uint8_t *src, const uint64_t *src_bh, const uint8_t *next,
                                        size_t n, uint64_t *bh)
{
	size_t nb = hash_nblocks(n);
	for (size_t b = 0; b < nb; b++) {
		size_t len = b + 1 < nb ? HASH_BLOCK : n - b * HASH_BLOCK;
		const uint8_t *x = next + b * HASH_BLOCK;
		bh[b] = memcmp(x, src + b * HASH_BLOCK, len) ? XXH3_64bits(x, len) : src_bh[b];
	}
	return XXH3_64bits(bh, nb * sizeof *bh);
}

/* One-off hash of a vector (tests, side uses). */
static inline uint64_t state_hash(const uint8_t *sv, size_t n)
{
	uint64_t stackbh[64], *bh = hash_nblocks(n) <= 64 ? stackbh : malloc(hash_nblocks(n) * sizeof *bh);
	uint64_t h = state_hash_blocks(sv, n, bh);
	if (bh != stackbh)
		free(bh);
	return h;
}

#endif
