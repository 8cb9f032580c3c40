/*
** The distinct keys of a warp's lanes (their addresses, their sectors), at
** most 32, each with its index in order of first appearance: a set an
** atomic's issue builds once and then asks about each lane (rop.c: which
** transaction a lane's sector joins) or about each buffer entry (dab.c:
** which lane's address fusion folds it into).  Keys sit in 64 buckets of a
** hash, a bit each and a chain, so a key whose bucket is empty costs one
** test, and 32 distinct keys a pass, not 32 x 32 compares.
** Invariants (lane_keys_add's caller): a key is added once (find said -1);
** n <= 32.
*/
#ifndef GPUMC_LANEKEYS_H
#define GPUMC_LANEKEYS_H

#include <stdint.h>

struct lane_keys {
	uint64_t has;     /* bucket b holds a key: bit b            */
	unsigned n;       /* keys added, indices 0..n-1             */
	uint8_t head[64]; /* a bucket's last key added (has: valid) */
	uint8_t next[32]; /* the key added before it in its bucket (32: none) */
	uint32_t key[32];
};

static inline void lane_keys_init(struct lane_keys *k)
{
	k->has = 0;
	k->n = 0;
}

static inline unsigned lane_keys_bucket(uint32_t x)
{
	return x * 0x9e3779b1u >> 26;
}

/* The index of key x, or -1. */
static inline int lane_keys_find(const struct lane_keys *k, uint32_t x)
{
	unsigned b = lane_keys_bucket(x);
	if (!(k->has >> b & 1))
		return -1;
	for (unsigned j = k->head[b]; j < 32; j = k->next[j])
		if (k->key[j] == x)
			return (int)j;
	return -1;
}

/* Add x (not there yet); its index. */
static inline unsigned lane_keys_add(struct lane_keys *k, uint32_t x)
{
	unsigned b = lane_keys_bucket(x), j = k->n++;
	k->key[j] = x;
	k->next[j] = k->has >> b & 1 ? k->head[b] : 32;
	k->head[b] = (uint8_t)j;
	k->has |= 1ull << b;
	return j;
}

#endif
