/*
** Tree (collapse) compression of exact states, after Laarman, van de Pol
** and Weber's tree compression (the strongest form of SPIN's -DCOLLAPSE
** and LTSmin's tree database): a state is a binary tree over its 64-bit
** words, each node a pair of indices into one table of unique nodes, and
** the state is kept as its root (the pair of its two subtrees' indices).
**
** States: a vector of n bytes is L = ceil(n / 8) leaf words (the last one
** zero-padded).  Level 0 holds the L leaves; level k+1 pairs the entries of
** level k two by two (an odd last entry is carried up alone, with no node),
** up to one entry, the root.
**
** Nodes: one table maps a 64-bit key to a 32-bit node number, numbers
** handed out in insertion order; a leaf's key is its word, an inner node's
** key is (left number << 32 | right number).  A key means the same subtree
** wherever it is met, because a position's shape is fixed by the vector
** size: equal vectors give equal roots, and different vectors different
** roots (induction over the levels).  The root itself is no node: a state
** is its root's key (the pair of level-below numbers, or the word when the
** vector is one word), kept in the states' own table: state number -> root
** key (in `roots`), and root key -> state number.  A new state has a root
** of its own, never shared: as a node it cost a key and a node slot more
** (lane-reduction: 59 -> 45 bytes a state).
**
** Transitions change a few words, so most subtrees of a successor are
** those of its parent: the tree of the last state decoded (BFS reads each
** state back before expanding it), or else of the last one put (DFS), is
** kept as the reference, and a successor's node is looked up only when a
** child differs from the reference's, about log2(L) lookups where a
** successor differs in one word.  New states mostly add nodes near the
** root, so the cost per state approaches one node and a state slot.
**
** Memory per node: its key (8 bytes) and a slot (4 bytes at load <= 3/4);
** per state: its root key (8 bytes) and a slot.
**
** Invariant TREE-1: node keys and roots never move or change once written
** (numbers are stable; decoding state k gives what was put as state k).
** Invariant TREE-2: both tables stay below 3/4 load after every insertion.
*/
#include "config.h"
#include "state/tree.h"

#include <stdlib.h>
#include <string.h>

#include "state/slots.h"
#include "util/strbuf.h"

#define CHUNK_BITS 16 /* keys and roots are kept in chunks of 2^16 entries */
#define CHUNK (1u << CHUNK_BITS)
#define NONE UINT32_MAX

/* An open-addressing table of numbers + 1 (0: empty) whose keys live
** elsewhere: the caller compares. */
struct slots {
	uint32_t *s;
	uint64_t mask, n;
};

/* A growable array of chunks, so entries never move (TREE-1). */
struct chunks {
	void **c;
	size_t nc, width; /* chunks, bytes per entry */
};

struct tree {
	size_t sv_size, L, npos; /* leaves, positions in all levels */
	size_t nlevels, *lvl_off, *lvl_len;
	struct slots nodes, states;
	struct chunks keys, roots; /* uint64 per node, uint64 per state */
	uint64_t nnodes, nstates;
	/* the reference: the last state put or decoded, its words and every
	** position's node number; cur: the tree being built */
	uint64_t *ref_w;
	uint32_t *ref, *cur;
	int ref_ok;
	int pinned; /* the reference was decoded: puts leave it */
};

static uint64_t mix(uint64_t x)
{
	/* splitmix64's finalizer: every key bit reaches every slot bit */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void *chunk_at(const struct chunks *a, uint64_t i)
{
	return (uint8_t *)a->c[i >> CHUNK_BITS] + (i & (CHUNK - 1)) * a->width;
}

static void chunk_reserve(struct chunks *a, uint64_t i)
{
	if ((i >> CHUNK_BITS) < a->nc)
		return;
	a->c = xrealloc(a->c, sizeof *a->c * (a->nc + 1));
	a->c[a->nc++] = xmalloc(a->width << CHUNK_BITS);
}

static uint64_t key(const struct tree *t, uint32_t node)
{
	return *(const uint64_t *)chunk_at(&t->keys, node);
}

static uint64_t root_of(const struct tree *t, uint32_t state)
{
	return *(const uint64_t *)chunk_at(&t->roots, state);
}

struct tree *tree_new(size_t sv_size)
{
	struct tree *t = xcalloc(1, sizeof *t);
	t->sv_size = sv_size;
	t->L = (sv_size + 7) / 8;
	if (!t->L)
		t->L = 1;
	for (size_t len = t->L;; len = (len + 1) / 2) {
		t->nlevels++;
		if (len == 1)
			break;
	}
	t->lvl_off = xmalloc(sizeof *t->lvl_off * t->nlevels);
	t->lvl_len = xmalloc(sizeof *t->lvl_len * t->nlevels);
	size_t len = t->L;
	for (size_t k = 0; k < t->nlevels; k++, len = (len + 1) / 2) {
		t->lvl_off[k] = t->npos;
		t->lvl_len[k] = len;
		t->npos += len;
	}
	t->keys.width = sizeof(uint64_t);
	t->roots.width = sizeof(uint64_t);
	t->nodes.mask = t->states.mask = (1u << 12) - 1;
	t->nodes.s = xcalloc(t->nodes.mask + 1, sizeof(uint32_t));
	t->states.s = xcalloc(t->states.mask + 1, sizeof(uint32_t));
	t->ref_w = xcalloc(t->L, sizeof *t->ref_w);
	t->ref = xcalloc(t->npos, sizeof *t->ref);
	t->cur = xcalloc(t->npos, sizeof *t->cur);
	return t;
}

void tree_free(struct tree *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->keys.nc; i++)
		free(t->keys.c[i]);
	for (size_t i = 0; i < t->roots.nc; i++)
		free(t->roots.c[i]);
	free(t->keys.c);
	free(t->roots.c);
	free(t->nodes.s);
	free(t->states.s);
	free(t->lvl_off);
	free(t->lvl_len);
	free(t->ref_w);
	free(t->ref);
	free(t->cur);
	free(t);
}

static uint64_t node_hash(const void *ctx, uint64_t x)
{
	return mix(key(ctx, (uint32_t)x - 1));
}

static uint64_t state_hash(const void *ctx, uint64_t x)
{
	return mix(root_of(ctx, (uint32_t)x - 1));
}

/* Double a table in place (TREE-2, state/slots.c); hash(ctx, slot) gives
** a slot's hash. */
static void grow(struct slots *s, const struct tree *t, uint64_t (*hash)(const void *, uint64_t))
{
	void *x = s->s;
	slots_double(&x, sizeof *s->s, &s->mask, hash, t);
	s->s = x;
}

/* The number of node k; a new node when put, else NONE if absent. */
static uint32_t node(struct tree *t, uint64_t k, int put)
{
	struct slots *s = &t->nodes;
	uint64_t j = mix(k) & s->mask;
	for (uint32_t x; (x = s->s[j]); j = (j + 1) & s->mask)
		if (key(t, x - 1) == k)
			return x - 1;
	if (!put)
		return NONE;
	uint32_t x = (uint32_t)t->nnodes++;
	chunk_reserve(&t->keys, x);
	*(uint64_t *)chunk_at(&t->keys, x) = k;
	s->s[j] = x + 1;
	if (++s->n * 4 > (s->mask + 1) * 3)
		grow(s, t, node_hash);
	return x;
}

/* Build sv's tree in cur (reusing the reference's subtrees) and its root
** key into *root; 0 when a node is absent and put is 0. */
static int build(struct tree *t, const uint8_t *sv, int put, uint64_t *root)
{
	uint32_t *cur = t->cur, *ref = t->ref;
	int same = t->ref_ok;
	if (t->nlevels == 1) { /* one word: the root key is the word */
		*root = 0;
		memcpy(root, sv, t->sv_size);
		return 1;
	}
	for (size_t i = 0; i < t->L; i++) {
		uint64_t w = 0;
		memcpy(&w, sv + 8 * i, i + 1 < t->L || t->sv_size % 8 == 0 ? 8 : t->sv_size % 8);
		if (same && w == t->ref_w[i])
			cur[i] = ref[i];
		else if ((cur[i] = node(t, w, put)) == NONE)
			return 0;
	}
	for (size_t k = 1; k + 1 < t->nlevels; k++) {
		const size_t below = t->lvl_off[k - 1], nb = t->lvl_len[k - 1], at = t->lvl_off[k];
		for (size_t j = 0; j < t->lvl_len[k]; j++) {
			size_t a = below + 2 * j;
			if (2 * j + 1 == nb) /* odd: carried up */
				cur[at + j] = cur[a];
			else if (same && cur[a] == ref[a] && cur[a + 1] == ref[a + 1])
				cur[at + j] = ref[at + j];
			else if ((cur[at + j] = node(t, (uint64_t)cur[a] << 32 | cur[a + 1], put)) == NONE)
				return 0;
		}
	}
	const size_t a = t->lvl_off[t->nlevels - 2]; /* 2 entries: 2 -> 1 is the last step */
	*root = (uint64_t)cur[a] << 32 | cur[a + 1];
	return 1;
}

/* The tree just built (in cur, of vector sv) becomes the reference. */
static void keep(struct tree *t, const uint8_t *sv)
{
	if (t->pinned)
		return;
	uint32_t *x = t->ref;
	t->ref = t->cur;
	t->cur = x;
	memset(t->ref_w, 0, 8 * t->L);
	memcpy(t->ref_w, sv, t->sv_size);
	t->ref_ok = 1;
}

/* The state whose root key is r: its number, or NONE; *j its slot or the
** empty slot where it goes. */
static uint32_t state_of(const struct tree *t, uint64_t r, uint64_t *j)
{
	const struct slots *s = &t->states;
	for (*j = mix(r) & s->mask;; *j = (*j + 1) & s->mask) {
		uint32_t x = s->s[*j];
		if (!x)
			return NONE;
		if (root_of(t, x - 1) == r)
			return x - 1;
	}
}

uint32_t tree_find_or_put(struct tree *t, const uint8_t *sv, int *is_new)
{
	uint64_t r;
	build(t, sv, 1, &r);
	keep(t, sv);
	uint64_t j;
	uint32_t k = state_of(t, r, &j);
	*is_new = k == NONE;
	if (k != NONE)
		return k;
	k = (uint32_t)t->nstates++;
	chunk_reserve(&t->roots, k);
	*(uint64_t *)chunk_at(&t->roots, k) = r;
	t->states.s[j] = k + 1;
	if (++t->states.n * 4 > (t->states.mask + 1) * 3)
		grow(&t->states, t, state_hash);
	return k;
}

uint32_t tree_find(struct tree *t, const uint8_t *sv)
{
	uint64_t r;
	if (!build(t, sv, 0, &r))
		return NONE;
	keep(t, sv);
	uint64_t j;
	return state_of(t, r, &j);
}

const uint8_t *tree_decode(struct tree *t, uint32_t state, uint8_t *out)
{
	uint32_t *cur = t->cur;
	const uint64_t r = root_of(t, state);
	if (t->nlevels == 1) { /* the word itself */
		t->ref_w[0] = r;
	} else {
		const size_t a = t->lvl_off[t->nlevels - 2];
		cur[a] = (uint32_t)(r >> 32);
		cur[a + 1] = (uint32_t)r;
	}
	for (size_t k = t->nlevels - 1; k-- > 1;) {
		const size_t below = t->lvl_off[k - 1], nb = t->lvl_len[k - 1], at = t->lvl_off[k];
		for (size_t j = 0; j < t->lvl_len[k]; j++) {
			size_t a = below + 2 * j;
			if (2 * j + 1 == nb) {
				cur[a] = cur[at + j];
			} else {
				uint64_t x = key(t, cur[at + j]);
				cur[a] = (uint32_t)(x >> 32);
				cur[a + 1] = (uint32_t)x;
			}
		}
	}
	uint32_t *x = t->ref;
	t->ref = t->cur;
	t->cur = x;
	for (size_t i = 0; i < t->L && t->nlevels > 1; i++)
		t->ref_w[i] = key(t, t->ref[i]);
	t->ref_ok = t->pinned = 1;
	memcpy(out, t->ref_w, t->sv_size);
	return out;
}

uint64_t tree_count(const struct tree *t)
{
	return t->nstates;
}

uint64_t tree_nodes(const struct tree *t)
{
	return t->nnodes;
}

size_t tree_grow_bytes(const struct tree *t)
{
	/* a state adds at most npos nodes, and one state */
	size_t b = 0;
	if ((t->nodes.n + t->npos) * 4 > (t->nodes.mask + 1) * 3)
		b += (t->nodes.mask + 1) * sizeof(uint32_t); /* the half added in place */
	if ((t->states.n + 1) * 4 > (t->states.mask + 1) * 3)
		b += (t->states.mask + 1) * sizeof(uint32_t);
	if (((t->nnodes + t->npos) >> CHUNK_BITS) >= t->keys.nc)
		b += sizeof(uint64_t) << CHUNK_BITS;
	return b;
}

size_t tree_bytes(const struct tree *t)
{
	/* the tables, the keys and roots written (a chunk's untouched pages
	** cost nothing), and the reference and build arrays (for a large
	** vector a tree of few states is mostly these) */
	return (t->nodes.mask + 1 + t->states.mask + 1) * sizeof(uint32_t) + t->nnodes * sizeof(uint64_t) +
	       t->nstates * sizeof(uint64_t) + t->L * sizeof *t->ref_w + 2 * t->npos * sizeof *t->ref;
}
