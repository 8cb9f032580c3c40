/*
** State hashing: XXH3, the one hash function of gpumc.
**
** A state's hash is the sum (mod 2^64) of the XXH3 hashes of its 64-byte
** blocks, each times an odd factor of the block's position (so equal
** blocks at two places do not cancel).  A transition changes few blocks (a warp step
** touches its warp record and a word or two of memory), so a successor's
** hash is its parent's plus the difference of the blocks that changed:
** comparing a block is much cheaper than hashing it, and the parent's
** hash is known (the exact visited set memoizes it, vs_hash), so an
** expansion hashes only the blocks its successors change: once in the
** parent (struct hash_src) and once in each successor that changes it.  Equal states have equal block hashes, so equal hashes, whichever
** path computed them.
*/
#ifndef GPUMC_HASH_H
#define GPUMC_HASH_H

#include <stddef.h>
#include <stdint.h>
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

/* Block b of a vector of n bytes: its XXH3 times an odd factor of its
** position (a bijection, so the sum still spreads; cheaper than seeding). */
static inline uint64_t hash_block(const uint8_t *sv, size_t n, size_t b)
{
	size_t len = (b + 1) * HASH_BLOCK <= n ? HASH_BLOCK : n - b * HASH_BLOCK;
	return XXH3_64bits(sv + b * HASH_BLOCK, len) * (2 * b + 1);
}

/* Whether block b of x and y (n bytes each) differ.  (libc's memcmp, with
** its vector compares, measured faster than inlined word compares.) */
static inline int block_differs(const uint8_t *x, const uint8_t *y, size_t n, size_t b)
{
	size_t off = b * HASH_BLOCK, len = (b + 1) * HASH_BLOCK <= n ? HASH_BLOCK : n - off;
	return memcmp(x + off, y + off, len) != 0;
}

/* Hash of a vector of n bytes; its block hashes go to bh[hash_nblocks(n)]. */
static inline uint64_t state_hash_blocks(const uint8_t *sv, size_t n, uint64_t *bh)
{
	uint64_t h = 0;
	for (size_t b = 0; b < hash_nblocks(n); b++)
		h += bh[b] = hash_block(sv, n, b);
	return h;
}

/* The same hash for next, knowing src and its block hashes: blocks equal
** to src's keep their hash.  bh receives next's block hashes. */
static inline uint64_t state_hash_delta(const uint8_t *src, const uint64_t *src_bh, const uint8_t *next,
                                        size_t n, uint64_t *bh)
{
	uint64_t h = 0;
	for (size_t b = 0; b < hash_nblocks(n); b++)
		h += bh[b] = block_differs(next, src, n, b) ? hash_block(next, n, b) : src_bh[b];
	return h;
}

/* One state being expanded: its vector, its hash, and the hashes of its
** blocks, each computed when a successor first changes that block (so
** the successors of one state hash each of its blocks at most once). */
struct hash_src {
	const uint8_t *sv;
	uint64_t h;
	uint64_t *bh;   /* [hash_nblocks(n)] */
	uint8_t *known; /* [hash_nblocks(n)]: bh[b] computed */
};

static inline void hash_src_set(struct hash_src *s, const uint8_t *sv, uint64_t h, size_t n)
{
	s->sv = sv;
	s->h = h;
	memset(s->known, 0, hash_nblocks(n));
}

/* The hash of next, a successor of s: each changed block's hash replaces
** its old one. */
static inline uint64_t state_hash_step(struct hash_src *s, const uint8_t *next, size_t n)
{
	uint64_t h = s->h;
	for (size_t b = 0; b < hash_nblocks(n); b++) {
		if (!block_differs(next, s->sv, n, b))
			continue;
		if (!s->known[b]) {
			s->bh[b] = hash_block(s->sv, n, b);
			s->known[b] = 1;
		}
		h += hash_block(next, n, b) - s->bh[b];
	}
	return h;
}

/* One-off hash of a vector (tests, side uses). */
static inline uint64_t state_hash(const uint8_t *sv, size_t n)
{
	uint64_t h = 0;
	for (size_t b = 0; b < hash_nblocks(n); b++)
		h += hash_block(sv, n, b);
	return h;
}

#endif
