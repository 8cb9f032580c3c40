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
** path computed them.  The successor hash of BFS (state_hash_step) is in
** hash.c, compiled for AVX2 too.  GPUMC_CHECK_HASH=1 checks every
** incremental hash against the full one and stops the run on a
** difference (t/hash.sh).
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

/* XXH3 of 64 bytes: its length known, the call inlined to the one
** path that length takes (a whole block; every block but a last, partial
** one). */
static inline uint64_t hash_block64(const uint8_t *p)
{
	return XXH3_64bits(p, HASH_BLOCK);
}

/* Block b of a vector of n bytes: its XXH3 times an odd factor of its
** position (a bijection, so the sum still spreads; cheaper than seeding). */
static inline uint64_t hash_block(const uint8_t *sv, size_t n, size_t b)
{
	size_t off = b * HASH_BLOCK;
	uint64_t x = off + HASH_BLOCK <= n ? hash_block64(sv + off) : XXH3_64bits(sv + off, n - off);
	return x * (2 * b + 1);
}

typedef uint64_t hash_v2 __attribute__((vector_size(16)));

/* Whether the 64 bytes at x and y differ: four 16-byte compares and one
** test, inline (a libc memcmp call a block, with its length worked out,
** cost twice as many instructions; issue 13).  hash.c's successor hash
** has wider ones where the machine has them. */
static inline int block64_differs(const uint8_t *x, const uint8_t *y)
{
	hash_v2 a0, a1, a2, a3, b0, b1, b2, b3;
	memcpy(&a0, x, 16);
	memcpy(&a1, x + 16, 16);
	memcpy(&a2, x + 32, 16);
	memcpy(&a3, x + 48, 16);
	memcpy(&b0, y, 16);
	memcpy(&b1, y + 16, 16);
	memcpy(&b2, y + 32, 16);
	memcpy(&b3, y + 48, 16);
	hash_v2 d = (a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2) | (a3 ^ b3);
	return (d[0] | d[1]) != 0;
}

/* Whether block b of x and y (n bytes each) differ. */
static inline int block_differs(const uint8_t *x, const uint8_t *y, size_t n, size_t b)
{
	size_t off = b * HASH_BLOCK;
	return off + HASH_BLOCK <= n ? block64_differs(x + off, y + off) : memcmp(x + off, y + off, n - off) != 0;
}

/* Hash of a vector of n bytes; its block hashes go to bh[hash_nblocks(n)]. */
static inline uint64_t state_hash_blocks(const uint8_t *sv, size_t n, uint64_t *bh)
{
	uint64_t h = 0;
	for (size_t b = 0; b < hash_nblocks(n); b++)
		h += bh[b] = hash_block(sv, n, b);
	return h;
}

/* Whether GPUMC_CHECK_HASH asks every incremental hash to be checked
** against the full one (hash_init). */
extern int hash_check;
/* Under hash_check, what the check takes the incremental hash to be off by:
** 0, or 1 where GPUMC_TEST_FAULT names plant "hash" (util/env.h). */
extern uint64_t hash_plant;
/* Read GPUMC_CHECK_HASH and choose state_hash_step's block compare for
** this machine: explore, before its search and its threads. */
void hash_init(void);
void hash_check_failed(uint64_t h, const uint8_t *sv, size_t n);

/* One-off hash of a vector (tests, side uses). */
static inline uint64_t state_hash(const uint8_t *sv, size_t n)
{
	uint64_t h = 0;
	for (size_t b = 0; b < hash_nblocks(n); b++)
		h += hash_block(sv, n, b);
	return h;
}

/* Under hash_check, h must be the full hash of sv (n bytes): else the
** run stops. */
static inline uint64_t hash_checked(uint64_t h, const uint8_t *sv, size_t n)
{
	if (hash_check && (h ^ hash_plant) != state_hash(sv, n))
		hash_check_failed(h ^ hash_plant, sv, n);
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
	return hash_checked(h, next, n);
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

/* What block b of next, changed, adds to the hash of s (n bytes). */
static inline uint64_t hash_src_change(struct hash_src *s, const uint8_t *next, size_t n, size_t b)
{
	if (!s->known[b]) {
		s->bh[b] = hash_block(s->sv, n, b);
		s->known[b] = 1;
	}
	return hash_block(next, n, b) - s->bh[b];
}

/* The hash of next, a successor of s (hash.c; the baseline's compare
** until hash_init). */
extern uint64_t (*state_hash_step)(struct hash_src *s, const uint8_t *next, size_t n);

#endif
