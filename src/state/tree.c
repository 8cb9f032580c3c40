/*
** Tree (collapse) compression of exact states, after Laarman, van de Pol
** and Weber's tree compression (the strongest form of SPIN's -DCOLLAPSE
** and LTSmin's tree database): a state is a tree over its 64-bit words,
** each node a pair of indices into one table of unique nodes, and the
** state is kept as its root (the indices of the root's subtrees).
**
** States: a vector of n bytes is L = ceil(n / 8) leaf words (the last one
** zero-padded).  Level 0 holds the L leaves; level k+1 pairs the entries of
** level k two by two (an odd last entry is carried up alone, with no node).
** The root is the first level of at most ROOT_MAX entries, kept as their
** numbers (4 bytes each), or the word itself when the vector is one word.
** A wide root, as SPIN's -DCOLLAPSE keeps one index per process: the
** nodes just below a binary root are new in almost every state (their
** pairs are), each a key and a slot; ticket-counter 2x1x8 made 2.7 nodes
** a state, two of them on the two levels under the root (69.6 bytes a
** state with a root of 2 entries, 53.4 with 3, 47.2 with 5; lane-reduction
** 3x1x4, whose first level of at most 5 is 3 wide: 44.9 -> 31.3; a root
** of 6 or more costs more than the nodes it saves: 42.1).
**
** Nodes: one table maps a 64-bit key to a 32-bit node number, numbers
** handed out in insertion order; a leaf's key is its word, an inner node's
** key is (left number << 32 | right number).  A key means the same subtree
** wherever it is met, because a position's shape is fixed by the vector
** size: equal vectors give equal roots, and different vectors different
** roots (induction over the levels).  The root itself is no node: it is
** kept in the states' own table, state number -> root (in `roots`), and
** root -> state number.
**
** Transitions change a few words, so most subtrees of a successor are
** those of its parent: the tree of the last state decoded (BFS reads each
** state back before expanding it), or else of the last one put (DFS), is
** kept as the reference, every position's node number and the leaf words.
** A successor is built over the reference without writing it: the leaves
** that differ are found by comparing words (four at a time), and only
** they and the nodes above them are looked up, about log2(L) lookups a
** changed word, each level's new numbers kept beside it; when the state
** put becomes the reference (DFS), they are written into it (BFS keeps
** the decoded state, whose successors all start from it).  Decoding goes top
** down and reads only the subtrees whose numbers differ from the
** reference's (BFS decodes siblings one after the other).  New states
** mostly add nodes near the root, so the cost per state approaches its
** root and a state slot.
**
** Memory per node: its key (8 bytes) and a slot (4 bytes at load <= 3/4);
** per state: its root (4 bytes an entry) and a slot.
**
** Invariant TREE-1: node keys and roots never move or change once written
** (numbers are stable; decoding state k gives what was put as state k).
** Invariant TREE-2: both tables stay below 3/4 load after every insertion.
** Invariant TREE-3: between calls, ref_w holds the reference's words and
** ref every position's node number of its tree (ref_ok), so a build or a
** decode may skip every subtree whose words or number are the same.
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
#define ROOT_MAX 5 /* entries of the root at most (the file-top block says why) */

/* A position of the reference (leaf word i: npos + i) and its new value. */
struct write {
	size_t pos;
	uint64_t val;
};

/* An open-addressing table of numbers + 1 (0: empty) whose keys live
** elsewhere: the caller compares.  A slot of a table of 2^b slots holds
** the number + 1 in its low b bits (numbers stay below 3/4 of 2^b:
** TREE-2) and above them the top 32 - b bits of the key's hash, a tag
** that spares most probes the fetch of a key from elsewhere in memory
** (ticket-counter 2x1x8: 4 probes a lookup, each a cache miss without it). */
struct slots {
	uint32_t *s;
	uint64_t mask, n;
	unsigned b; /* log2(mask + 1) */
};

/* A growable array of chunks, so entries never move (TREE-1). */
struct chunks {
	void **c;
	size_t nc, width; /* chunks, bytes per entry */
};

struct tree {
	size_t sv_size, L, npos; /* leaves, positions in all levels */
	size_t nlevels, *lvl_off, *lvl_len;
	size_t rlev, rw; /* the root's level, its bytes (ROOT_MAX) */
	struct slots nodes, states;
	struct chunks keys, roots; /* uint64 per node, uint64 per state */
	uint64_t nnodes, nstates;
	/* the reference: the last state put or decoded, its words and every
	** position's node number (ref_ok: there is one) */
	uint64_t *ref_w;
	uint32_t *ref;
	int ref_ok;
	int pinned; /* the reference was decoded: puts leave it */
	uint32_t *dirty, *dirty2; /* positions of one level that changed, their new numbers */
	uint64_t *dword;          /* the words of the leaves that changed */
	struct write *log;        /* what build found, for the reference (not pinned) */
	size_t nlog;
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

static const uint8_t *root_of(const struct tree *t, uint32_t state)
{
	return chunk_at(&t->roots, state);
}

static uint64_t root_hash(const struct tree *t, const uint8_t *r)
{
	uint64_t h = 0, w;
	size_t i = 0;
	for (; i + 8 <= t->rw; i += 8) {
		memcpy(&w, r + i, 8);
		h = mix(h ^ w);
	}
	if (i < t->rw) {
		uint32_t x;
		memcpy(&x, r + i, 4);
		h = mix(h ^ x);
	}
	return h;
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
	t->rlev = 0;
	while (t->lvl_len[t->rlev] > ROOT_MAX)
		t->rlev++;
	t->rw = t->nlevels == 1 ? sizeof(uint64_t) : t->lvl_len[t->rlev] * sizeof(uint32_t);
	t->keys.width = sizeof(uint64_t);
	t->roots.width = t->rw;
	t->nodes.b = t->states.b = 12;
	t->nodes.mask = t->states.mask = (1u << 12) - 1;
	t->nodes.s = xcalloc(t->nodes.mask + 1, sizeof(uint32_t));
	t->states.s = xcalloc(t->states.mask + 1, sizeof(uint32_t));
	t->ref_w = xcalloc(t->L, sizeof *t->ref_w);
	t->ref = xcalloc(t->npos, sizeof *t->ref);
	t->dirty = xmalloc(sizeof *t->dirty * t->L);
	t->dirty2 = xmalloc(sizeof *t->dirty2 * t->L);
	t->dword = xmalloc(sizeof *t->dword * t->L);
	t->log = xmalloc(sizeof *t->log * (t->npos + t->L));
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
	free(t->dirty);
	free(t->dirty2);
	free(t->dword);
	free(t->log);
	free(t);
}

/* Slots (struct slots): the tag of hash h; the number a slot holds. */
static uint32_t tag_of(uint64_t h, unsigned b)
{
	return b >= 32 ? 0 : (uint32_t)(h >> (32 + b));
}

static uint32_t number(const struct slots *s, uint32_t x)
{
	return (uint32_t)((x & s->mask) - 1);
}

/* (slots_double leaves the mask as it was until the table is rehashed:
** these read the old layout) */
static uint64_t node_hash(const void *ctx, uint64_t x)
{
	const struct tree *t = ctx;
	return mix(key(t, number(&t->nodes, (uint32_t)x)));
}

static uint64_t state_hash(const void *ctx, uint64_t x)
{
	const struct tree *t = ctx;
	return root_hash(t, root_of(t, number(&t->states, (uint32_t)x)));
}

/* Double a table in place (TREE-2, state/slots.c); hash(ctx, slot) gives
** a slot's hash.  Then every tag loses its lowest bit to the number. */
static void grow(struct slots *s, const struct tree *t, uint64_t (*hash)(const void *, uint64_t))
{
	void *x = s->s;
	const unsigned b = s->b++;
	const uint64_t low = s->mask;
	slots_double(&x, sizeof *s->s, &s->mask, hash, t);
	s->s = x;
	for (uint64_t j = 0; j <= s->mask; j++)
		if (s->s[j])
			s->s[j] = (uint32_t)((uint64_t)(s->s[j] >> b) >> 1 << (b + 1) | (s->s[j] & low));
}

/* The number of node k; a new node when put, else NONE if absent. */
static uint32_t node(struct tree *t, uint64_t k, int put)
{
	struct slots *s = &t->nodes;
	const uint64_t h = mix(k);
	const unsigned b = s->b;
	const uint32_t tag = tag_of(h, b);
	uint64_t j = h & s->mask;
	for (uint32_t x; (x = s->s[j]); j = (j + 1) & s->mask)
		if ((uint64_t)x >> b == tag && key(t, number(s, x)) == k)
			return number(s, x);
	if (!put)
		return NONE;
	uint32_t x = (uint32_t)t->nnodes++;
	chunk_reserve(&t->keys, x);
	*(uint64_t *)chunk_at(&t->keys, x) = k;
	s->s[j] = (uint32_t)((uint64_t)tag << b | (x + 1));
	if (++s->n * 4 > (s->mask + 1) * 3)
		grow(s, t, node_hash);
	return x;
}

/* Position (or, at npos + i, leaf word i) of sv's tree is v: logged for
** the reference unless a decoded state is pinned there. */
static void found(struct tree *t, size_t pos, uint64_t v)
{
	if (!t->pinned)
		t->log[t->nlog++] = (struct write){ pos, v };
}

/* Leaf word i of sv (the last one zero-padded). */
static uint64_t leaf(const struct tree *t, const uint8_t *sv, size_t i)
{
	uint64_t w = 0;
	memcpy(&w, sv + 8 * i, 8 * (i + 1) <= t->sv_size ? 8 : t->sv_size % 8);
	return w;
}

/* The leaves of sv that differ from the reference's words (all of them
** when there is none), in increasing order, into t->dirty, their words
** into t->dword; their count. */
static size_t changed_leaves(struct tree *t, const uint8_t *sv)
{
	size_t nd = 0, i = 0;
	uint64_t *dw = t->dword;
	if (!t->ref_ok) {
		for (; i < t->L; i++, nd++) {
			t->dirty[nd] = (uint32_t)i;
			dw[nd] = leaf(t, sv, i);
		}
		return nd;
	}
	const uint64_t *r = t->ref_w;
	uint32_t *d = t->dirty;
	const size_t full = t->sv_size / 8;
	for (; i + 8 <= full; i += 8) { /* eight words at once (libc's vector compare): most are equal */
		if (!memcmp(sv + 8 * i, r + i, 64))
			continue;
		for (size_t k = 0; k < 8; k++) {
			uint64_t w;
			memcpy(&w, sv + 8 * (i + k), 8);
			if (w != r[i + k]) {
				d[nd] = (uint32_t)(i + k);
				dw[nd++] = w;
			}
		}
	}
	for (; i < t->L; i++) {
		const uint64_t w = leaf(t, sv, i);
		if (w != r[i]) {
			t->dirty[nd] = (uint32_t)i;
			dw[nd++] = w;
		}
	}
	return nd;
}

/* sv's tree over the reference (TREE-3): only the leaves that differ and
** the nodes above them are looked up, the reference is read only; what
** differs from it is logged (found); sv's root goes to root.  0 when a
** node is absent and put is 0. */
static int build(struct tree *t, const uint8_t *sv, int put, uint8_t *root)
{
	t->nlog = 0;
	if (t->nlevels == 1) { /* one word: the root is the word */
		memset(root, 0, t->rw);
		memcpy(root, sv, t->sv_size);
		return 1;
	}
	uint32_t *d = t->dirty, *v = t->dirty2; /* a level's changed positions, their numbers */
	size_t nd = changed_leaves(t, sv);
	for (size_t q = 0; q < nd; q++) {
		if ((v[q] = node(t, t->dword[q], put)) == NONE)
			return 0;
		found(t, t->npos + d[q], t->dword[q]);
		found(t, d[q], v[q]);
	}
	for (size_t k = 1; k <= t->rlev; k++) {
		const size_t below = t->lvl_off[k - 1], nb = t->lvl_len[k - 1], at = t->lvl_off[k];
		size_t np = 0;
		for (size_t q = 0; q < nd; q++) { /* the parents, each once (d is sorted) */
			const uint32_t p = d[q], j = p / 2;
			uint32_t x = v[q];
			if (2 * j + 1 < nb) { /* else odd: carried up */
				uint32_t l = x, r;
				if (p & 1)
					l = t->ref[below + p - 1], r = x;
				else if (q + 1 < nd && d[q + 1] == p + 1)
					r = v[++q];
				else
					r = t->ref[below + p + 1];
				if ((x = node(t, (uint64_t)l << 32 | r, put)) == NONE)
					return 0;
			}
			d[np] = j; /* np <= q: read already */
			v[np++] = x;
			found(t, at + j, x);
		}
		nd = np;
	}
	memcpy(root, t->ref + t->lvl_off[t->rlev], t->rw);
	for (size_t q = 0; q < nd; q++)
		memcpy(root + 4 * d[q], &v[q], 4);
	return 1;
}

/* After build: sv's tree becomes the reference (the last state put, DFS)
** unless a decoded state is pinned there (BFS) or the build failed. */
static void keep(struct tree *t, int ok)
{
	if (t->pinned || !ok)
		return;
	for (size_t i = 0; i < t->nlog; i++) {
		const struct write *u = &t->log[i];
		if (u->pos < t->npos)
			t->ref[u->pos] = (uint32_t)u->val;
		else
			t->ref_w[u->pos - t->npos] = u->val;
	}
	if (t->nlevels > 1)
		t->ref_ok = 1;
}

/* The state whose root key is r: its number, or NONE; *j its slot or the
** empty slot where it goes, *tag the tag it gets there. */
static uint32_t state_of(const struct tree *t, const uint8_t *r, uint64_t *j, uint32_t *tag)
{
	const struct slots *s = &t->states;
	const uint64_t h = root_hash(t, r);
	const unsigned b = s->b;
	*tag = tag_of(h, b);
	for (*j = h & s->mask;; *j = (*j + 1) & s->mask) {
		uint32_t x = s->s[*j];
		if (!x)
			return NONE;
		if ((uint64_t)x >> b == *tag && !memcmp(root_of(t, number(s, x)), r, t->rw))
			return number(s, x);
	}
}

uint32_t tree_find_or_put(struct tree *t, const uint8_t *sv, int *is_new)
{
	uint8_t r[ROOT_MAX * sizeof(uint32_t) + sizeof(uint64_t)];
	keep(t, build(t, sv, 1, r));
	uint64_t j;
	uint32_t tag, k = state_of(t, r, &j, &tag);
	*is_new = k == NONE;
	if (k != NONE)
		return k;
	k = (uint32_t)t->nstates++;
	chunk_reserve(&t->roots, k);
	memcpy(chunk_at(&t->roots, k), r, t->rw);
	t->states.s[j] = (uint32_t)((uint64_t)tag << t->states.b | (k + 1));
	if (++t->states.n * 4 > (t->states.mask + 1) * 3)
		grow(&t->states, t, state_hash);
	return k;
}

uint32_t tree_find(struct tree *t, const uint8_t *sv)
{
	uint8_t r[ROOT_MAX * sizeof(uint32_t) + sizeof(uint64_t)];
	int ok = build(t, sv, 0, r);
	keep(t, ok);
	if (!ok)
		return NONE;
	uint64_t j;
	uint32_t tag;
	return state_of(t, r, &j, &tag);
}

/* Reference position pos (level k, entry j) set to v by a decode: a
** change is listed in d (of *n) for the level below; every one when
** there was no reference. */
static void descend(struct tree *t, size_t pos, uint32_t j, uint32_t v, uint32_t *d, size_t *n)
{
	if (t->ref_ok && t->ref[pos] == v)
		return; /* the same subtree: nothing below it changes */
	t->ref[pos] = v;
	d[(*n)++] = j;
}

/* Decoding a state makes it the reference, top down: only the subtrees
** whose numbers differ from the reference's are read (TREE-3). */
const uint8_t *tree_decode(struct tree *t, uint32_t state, uint8_t *out)
{
	const uint8_t *r = root_of(t, state);
	if (t->nlevels == 1) { /* the word itself */
		memcpy(t->ref_w, r, sizeof *t->ref_w);
		memcpy(out, t->ref_w, t->sv_size);
		t->pinned = 1;
		return out;
	}
	uint32_t *d = t->dirty, *e = t->dirty2;
	size_t nd = 0;
	const size_t top = t->lvl_off[t->rlev];
	for (uint32_t j = 0; j < t->lvl_len[t->rlev]; j++) {
		uint32_t v;
		memcpy(&v, r + 4 * j, 4);
		descend(t, top + j, j, v, d, &nd);
	}
	for (size_t k = t->rlev; k >= 1; k--) {
		const size_t below = t->lvl_off[k - 1], nb = t->lvl_len[k - 1], at = t->lvl_off[k];
		size_t ne = 0;
		for (size_t q = 0; q < nd; q++) {
			const uint32_t j = d[q], v = t->ref[at + j];
			const size_t a = below + 2 * j;
			if (2 * j + 1 == nb) { /* odd: carried up */
				descend(t, a, 2 * j, v, e, &ne);
				continue;
			}
			const uint64_t x = key(t, v);
			descend(t, a, 2 * j, (uint32_t)(x >> 32), e, &ne);
			descend(t, a + 1, 2 * j + 1, (uint32_t)x, e, &ne);
		}
		uint32_t *s = d;
		d = e;
		e = s;
		nd = ne;
	}
	for (size_t q = 0; q < nd; q++)
		t->ref_w[d[q]] = key(t, t->ref[d[q]]);
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
	       t->nstates * t->rw + t->L * sizeof *t->ref_w + t->npos * sizeof *t->ref +
	       2 * t->L * sizeof *t->dirty + t->L * sizeof *t->dword + (t->npos + t->L) * sizeof *t->log;
}
