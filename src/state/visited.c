/*
** Open-addressing visited set with linear probing.
**
** Exact mode stores every state.  Vectors of COMPRESS_FROM bytes or more
** are compressed: machine state vectors are mostly zero words (empty FIFO
** slots, unused stack entries, registers of idle lanes), so a record is a
** bitmap of the non-zero 64-bit words followed by those words.  The
** encoding is canonical (equal vectors, equal records), so lookups compare
** records with memcmp.  Smaller vectors are stored as they are: encoding
** costs more time than their memory costs (bench/explore.sh measured both
** ways; at 1224 bytes, ticket-counter 2/1/8, raw records ran 40% fewer
** instructions but 2.6x the memory, and its page faults cost more CPU).
** Compressed records are appended to 4 MB arena blocks, each state's
** record address kept in a side array; a raw record has a fixed size, so
** state i's lies at a fixed place (block i >> rshift, of exactly 2^rshift
** records, slot i & (2^rshift - 1)): a hit finds it with no side entry to
** load (a cache miss
** of its own on every hit; issue 13) and no 8 bytes a state for the
** address.  Every state's full hash is kept in a side array.
**
** Exact mode slot: bits 63..32 are the high half of the state's hash (a
** cheap filter before memcmp), bits 31..0 its number + 1 (0 = empty).  The
** memoized hashes let the table grow without touching a record.
**
** Compact mode slot: the 64-bit fingerprint (0 mapped to 1), nothing else:
** the hash with its halves swapped, so that its home (state/slots.h: fp *
** size / 2^64, the top bits) comes from the hash's low half; --mpi gives
** each rank the states of one range of the high half (mpi.c, owner), and
** homes from it crowded a rank's states into 1/ranks of its table, one
** cluster probed end to end.  The table has any size and grows
** in place by COMPACT_GROW, not 2: just past a doubling it was at load
** 2/5, 20 bytes a state (issue 13's target: 16).  Between growths its
** load stays in [4/5 / COMPACT_GROW, 4/5]: at most 14 bytes a state.
**
** Tree mode hands every call to state/tree.c, which keeps its own tables.
**
** Invariant VS-1: load factor stays below 3/4 (4/5 compact) after every
** insertion, so probes stay short.
**
** Shared mode (vs_share, exact mode only): several threads put states at
** once, as in Laarman, van de Pol and Weber's lock-free hash table for
** multi-core LTSmin.  A thread claims an empty slot with one CAS that
** writes the hash's high half and BUSY for the number, takes the next
** number of its own run (a range of numbers it takes from an atomic
** counter, `run' at once: its records, hashes and the caller's entries per
** state then lie together on lines no other thread writes, and the
** counter's line moves between cores once a run, not once a state),
** appends the record to its own arena block
** (blocks never move, so a record needs no lock), fills the side arrays
** and returns; the caller stores what must come with the number (the
** multi-core search: its key, with no atomic read-modify-write, since no
** other thread can reach the state yet) and vs_share_publish publishes
** the number with a release store.  A thread that meets
** a BUSY slot with its own high hash half waits for the number (it is
** probably its own state); any other slot it passes by, so nothing blocks
** but an equal-hash race.  The table does not grow while threads put:
** it doubles with every thread stopped (explore/parallel.c stops them
** when vs_share_full says so), in parts that the stopped threads share
** (vs_share_grow_begin; state/slots.c, SLOTS-2).
**
** vs_share_settle, with every thread stopped, gives the numbers left in
** the runs to the states numbered highest, so that the states are
** numbered 0..n-1 again.
**
** Invariant VS-2 (shared): a slot goes empty -> BUSY -> numbered, never
** back (but for vs_share_settle's renumbering, with no thread putting); a
** number read with acquire order names a record and side entries that
** are complete, and shows what its putter stored before publishing.
** Invariant VS-3 (shared): the numbers handed out, [0, an), are the states'
** and the rest of each thread's run, [next, next + left); after
** vs_share_settle no run has any left and an is the number of states.
*/
#include "config.h"
#include "state/visited.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "state/hash.h"
#include "state/slots.h"
#include "state/tree.h"
#include "util/strbuf.h"

#define BLOCK_BYTES (4u << 20) /* arena block */
#define SIDE_BITS 16           /* states per side-array chunk */
#define COMPRESS_FROM 1024     /* vector bytes from which records are compressed */
#define SIDE_CHUNKS (1u << (32 - SIDE_BITS)) /* side chunks for 2^32 states */
#define BUSY 0xffffffffu       /* shared mode: a slot claimed, its number not yet written */
#define GROW_PART_BITS 10      /* shared mode: a doubling's parts, of 2^10 old slots at least */
#define COMPACT_GROW(n) ((n) + (n) / 4 + (n) / 8) /* compact: the table's next size, 1.375 times */

struct visited {
	size_t sv_size, nwords, bitmap_bytes;
	int compact, raw; /* raw: exact records are the vectors themselves */
	uint64_t *slot;
	uint64_t mask; /* table size - 1 (exact) */
	uint64_t size; /* table size (compact: any, slots_home) */
	uint64_t n;
	size_t aside; /* compact: the most values a growth held aside (slots_grow) */
	/* exact mode: record arena and per-state side arrays (chunked, so
	** records and entries never move) */
	uint8_t **block;
	size_t nblocks, used; /* bytes used in the last block (compressed) */
	unsigned rshift;      /* raw: 2^rshift records a block */
	uint8_t ***where;     /* where[i >> SIDE_BITS][i & mask]: record (compressed only) */
	uint64_t **hashes;    /* the same shape: memoized hash            */
	size_t nside;
	uint8_t *enc, *dec;   /* scratch: the record being looked up, a decoded state */
	/* shared mode: numbers handed out, bytes allocated (arena blocks and
	** side chunks), and the lock for the block list and side chunks */
	int shared;
	unsigned run; /* shared: numbers a thread takes at once */
	char pad0[64]; /* an changes often: not on the line of slot and mask */
	_Atomic uint64_t an;
	char pad1[64];
	_Atomic size_t abytes; /* side chunks and blocks filled */
	_Atomic size_t made;   /* raw: nblocks, published (the directory written first) */
	pthread_mutex_t mu;
	struct vs_local *locals;
	size_t slack; /* after shared mode: bytes of its blocks never filled */
	struct tree *tree; /* tree mode: the store */
	uint64_t *bound;   /* shared: the doubling's parts (state/slots.c), */
	unsigned nparts;   /* and how many */
};

/* A thread's own encoding buffer and arena block in shared mode.  used is
** atomic only so that vs_bytes may sum it from another thread (relaxed: a
** plain store on the writer's own cache line). */
struct vs_local {
	_Alignas(64) uint8_t *enc, *dec; /* a line of its own (xcalloc_aligned) */
	uint8_t *block;
	_Atomic size_t used;
	size_t nside; /* side chunks this thread knows to exist */
	size_t nblocks; /* raw: arena blocks this thread knows to exist */
	struct vs_local *link; /* the set's list of locals */
	uint64_t next;          /* its run: the next number, */
	_Atomic uint64_t left;  /* and how many are left (read by vs_count) */
	_Atomic uint64_t *pend; /* the slot claimed by the last put of a new state, */
	uint64_t pendval;       /* and the value that publishes it (VS-2) */
};

struct visited *vs_new(size_t sv_size, enum vs_mode mode)
{
	struct visited *v = xcalloc(1, sizeof *v);
	v->sv_size = sv_size;
	v->nwords = (sv_size + 7) / 8;
	v->bitmap_bytes = (v->nwords + 7) / 8;
	v->compact = mode == VS_COMPACT;
	pthread_mutex_init(&v->mu, NULL);
	if (mode == VS_TREE) {
		v->tree = tree_new(sv_size);
		v->dec = xmalloc(sv_size ? sv_size : 1);
		return v;
	}
	v->raw = !v->compact && sv_size < COMPRESS_FROM;
	while (v->rshift < 20 && (sv_size << (v->rshift + 1)) <= BLOCK_BYTES)
		v->rshift++;
	v->mask = (1u << 12) - 1;
	v->size = v->mask + 1;
	v->slot = xcalloc(v->mask + 1, sizeof *v->slot);
	if (!v->compact && !v->raw) {
		v->enc = xmalloc(v->bitmap_bytes + 8 * v->nwords);
		v->dec = xmalloc(8 * v->nwords);
	}
	return v;
}

void vs_free(struct visited *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nblocks; i++)
		free(v->block[i]);
	for (size_t i = 0; i < v->nside; i++) {
		if (v->where)
			free(v->where[i]);
		free(v->hashes[i]);
	}
	free(v->block);
	free(v->where);
	free(v->hashes);
	free(v->slot);
	free(v->bound);
	free(v->enc);
	free(v->dec);
	tree_free(v->tree);
	pthread_mutex_destroy(&v->mu);
	free(v);
}

/* Encode sv into enc; returns the record's length.  Eight words (one
** bitmap byte) all zero are skipped with one test: most zero words lie in
** runs (empty FIFO slots, idle lanes).  Other words are stored without a
** branch on their value (every word is stored at the next place, which
** only a non-zero word keeps): there zero and non-zero words mix at random,
** and a variable-length copy per word was a libc call (wide warps: 60% of
** the exact-mode run in this function and its copies). */
static inline unsigned encode_group(const uint8_t *sv, unsigned m, uint8_t *out, size_t *k)
{
	uint64_t x[8], any = 0;
	unsigned bits = 0;
	memcpy(x, sv, 8 * m);
#pragma GCC unroll 8
	for (unsigned j = 0; j < m; j++)
		any |= x[j];
	if (!any)
		return 0;
#pragma GCC unroll 8
	for (unsigned j = 0; j < m; j++) {
		memcpy(out + 8 * *k, &x[j], 8); /* room: k <= w + j < nwords */
		bits |= (unsigned)(x[j] != 0) << j;
		*k += x[j] != 0;
	}
	return bits;
}

static size_t encode(const struct visited *v, const uint8_t *sv, uint8_t *enc)
{
	uint8_t *bm = enc, *out = enc + v->bitmap_bytes;
	memset(bm, 0, v->bitmap_bytes);
	size_t k = 0, full = v->sv_size / 8, w = 0;
	for (; w + 8 <= full; w += 8) /* the words of one bitmap byte (8: unrolled) */
		bm[w >> 3] = (uint8_t)encode_group(sv + 8 * w, 8, out, &k);
	if (w < full)
		bm[w >> 3] = (uint8_t)encode_group(sv + 8 * w, (unsigned)(full - w), out, &k);
	if (full < v->nwords) { /* a last, partial word */
		uint64_t x = 0;
		memcpy(&x, sv + 8 * full, v->sv_size - 8 * full);
		if (x) {
			bm[full >> 3] |= (uint8_t)(1u << (full & 7));
			memcpy(out + 8 * k++, &x, 8);
		}
	}
	return v->bitmap_bytes + 8 * k;
}

static inline const uint8_t *record(const struct visited *v, uint32_t idx)
{
	if (v->raw)
		return v->block[idx >> v->rshift] + (size_t)(idx & ((1u << v->rshift) - 1)) * v->sv_size;
	return v->where[idx >> SIDE_BITS][idx & ((1u << SIDE_BITS) - 1)];
}

static uint64_t memo_hash(const struct visited *v, uint32_t idx)
{
	return v->hashes[idx >> SIDE_BITS][idx & ((1u << SIDE_BITS) - 1)];
}

uint64_t vs_hash(const struct visited *v, uint32_t idx, const uint8_t *sv)
{
	if (v->tree) /* it hashes no vector: spare the caller a hash of every state expanded */
		return 0;
	return v->compact ? state_hash(sv, v->sv_size) : memo_hash(v, idx);
}

const uint8_t *vs_state(const struct visited *v, uint32_t idx)
{
	/* decode into the scratch vector: valid until the next vs_state */
	return vs_decode(v, idx, v->dec);
}

const uint8_t *vs_decode(const struct visited *v, uint32_t idx, uint8_t *out)
{
	if (v->tree) /* the tree keeps what it decoded: a struct of its own */
		return tree_decode(v->tree, idx, out);
	const uint8_t *rec = record(v, idx), *in = rec + v->bitmap_bytes;
	if (v->raw)
		return rec;
	memset(out, 0, 8 * v->nwords); /* then only the non-zero words, by their bits */
	for (size_t i = 0; i < v->bitmap_bytes; i++)
		for (unsigned bits = rec[i]; bits; bits &= bits - 1) {
			memcpy(out + 8 * (8 * i + (size_t)__builtin_ctz(bits)), in, 8);
			in += 8;
		}
	return out;
}

/* A slot's hash (slots_double): the memoized hash of the state it numbers. */
static uint64_t slot_hash(const void *ctx, uint64_t slotval)
{
	return memo_hash(ctx, (uint32_t)slotval - 1);
}

/* Doubled in place (state/slots.c): never the old table beside the new. */
static void grow(struct visited *v)
{
	void *t = v->slot;
	slots_double(&t, sizeof *v->slot, &v->mask, slot_hash, v);
	v->slot = t;
}

/* An arena block of n bytes, its pages made present at once (one
** madvise, not a page fault for every 4 KB the records first touch: the
** faults were 15-30% of exact mode's CPU, issue 13; bench: system time
** -25% on lane-reduction).  Huge pages measured worse here (a VM: system
** time x3).  Only a hint: no error without it. */
static uint8_t *arena_block(size_t n)
{
	uint8_t *b = xmalloc(n);
#ifdef MADV_POPULATE_WRITE
	/* madvise wants a page-aligned start: from the block's first whole page */
	uintptr_t a = ((uintptr_t)b + 4095) & ~(uintptr_t)4095, e = ((uintptr_t)b + n) & ~(uintptr_t)4095;
	if (e > a)
		(void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#endif
	return b;
}

/* A compressed store's block, with room for a record of len bytes. */
static uint8_t *record_block(size_t len)
{
	return arena_block(BLOCK_BYTES > len ? BLOCK_BYTES : len);
}

/* Raw mode: the arena blocks up to block b made (in shared mode under
** the lock, the directory at its full size). */
static void raw_blocks(struct visited *v, size_t b)
{
	for (; v->nblocks <= b; v->nblocks++) {
		if (!v->shared)
			v->block = xrealloc(v->block, sizeof *v->block * (v->nblocks + 1));
		/* its 2^rshift records exactly: a block of BLOCK_BYTES made
		** present in full held up to 45% untouched bytes (issue 13:
		** peak RSS 40% above the count on lane-reduction) */
		v->block[v->nblocks] = arena_block((size_t)v->sv_size << v->rshift);
	}
}

/* The bytes of one side chunk: hashes, and record addresses unless raw. */
static size_t side_chunk_bytes(const struct visited *v)
{
	return ((v->raw ? 0 : sizeof(uint8_t *)) + sizeof(uint64_t)) << SIDE_BITS;
}

/* Side chunk c made (the directories have room for it). */
static void side_chunk(struct visited *v, size_t c)
{
	if (!v->raw)
		v->where[c] = xmalloc(sizeof **v->where << SIDE_BITS);
	v->hashes[c] = xmalloc(sizeof **v->hashes << SIDE_BITS);
}

/* Store the record (len bytes at src) as state idx. */
static void append(struct visited *v, uint32_t idx, const uint8_t *src, size_t len, uint64_t h)
{
	uint8_t *rec;
	if (v->raw) {
		raw_blocks(v, idx >> v->rshift);
		rec = (uint8_t *)record(v, idx);
	} else {
		if (!v->nblocks || v->used + len > BLOCK_BYTES) {
			v->block = xrealloc(v->block, sizeof *v->block * (v->nblocks + 1));
			v->block[v->nblocks++] = record_block(len);
			v->used = 0;
		}
		rec = v->block[v->nblocks - 1] + v->used;
		v->used += len;
	}
	memcpy(rec, src, len);
	size_t c = idx >> SIDE_BITS;
	if (c == v->nside) {
		if (!v->raw)
			v->where = xrealloc(v->where, sizeof *v->where * (c + 1));
		v->hashes = xrealloc(v->hashes, sizeof *v->hashes * (c + 1));
		side_chunk(v, c);
		v->nside++;
	}
	if (!v->raw)
		v->where[c][idx & ((1u << SIDE_BITS) - 1)] = rec;
	v->hashes[c][idx & ((1u << SIDE_BITS) - 1)] = h;
}

/* Whether stored record rec is key (n bytes, its first head the bitmap;
** head 0: a raw vector).  Equal bitmaps mean equal lengths: only then the
** words, each byte compared once. */
static inline int same_record(const uint8_t *rec, const uint8_t *key, size_t head, size_t n)
{
	return (!head || !memcmp(rec, key, head)) && !memcmp(rec + head, key + head, n - head);
}

/* Exact mode: the slot of state sv (hash h), or the empty slot where it
** would go (*idx: its number, or UINT32_MAX).
** (The probe loop works on locals and writes the outputs once: stores
** through them in the loop cost 15% of the lookup.) */
static inline uint64_t lookup(struct visited *v, const uint8_t *sv, uint64_t h, const uint8_t **key, size_t *len,
                              uint32_t *idx)
{
	uint32_t hi = (uint32_t)(h >> 32);
	const uint8_t *k = v->raw ? sv : v->enc;
	size_t n = v->raw ? v->sv_size : encode(v, sv, v->enc);
	size_t head = v->raw ? 0 : v->bitmap_bytes;
	const uint64_t *slot = v->slot, mask = v->mask;
	uint64_t j = h & mask, s;
	for (;; j = (j + 1) & mask) {
		s = slot[j];
		if (!s)
			break;
		if ((uint32_t)(s >> 32) == hi) {
			const uint8_t *rec = record(v, (uint32_t)s - 1);
			if (same_record(rec, k, head, n))
				break;
		}
	}
	*key = k;
	*len = n;
	*idx = (uint32_t)s - 1;
	return j;
}

uint32_t vs_find(struct visited *v, const uint8_t *sv, uint64_t h)
{
	if (v->tree)
		return tree_find(v->tree, sv);
	const uint8_t *key;
	size_t len;
	uint32_t idx;
	lookup(v, sv, h, &key, &len, &idx);
	return idx;
}

uint32_t vs_find_or_put(struct visited *v, const uint8_t *sv, uint64_t h, int *is_new)
{
	if (v->tree) {
		uint32_t k = tree_find_or_put(v->tree, sv, is_new);
		v->n = tree_count(v->tree);
		return k;
	}
	if (v->compact) {
		uint64_t fp = h << 32 | h >> 32; /* a bijection: no fingerprints merge */
		*is_new = slots_put(v->slot, v->size, fp ? fp : 1);
		if (!*is_new)
			return 0; /* compact mode keeps no numbers for old states */
		if (++v->n * 5 > v->size * 4) { /* VS-1 */
			uint64_t m = COMPACT_GROW(v->size);
			size_t a = slots_grow(&v->slot, v->size, m);
			v->size = m;
			v->aside = a > v->aside ? a : v->aside;
		}
		return (uint32_t)(v->n - 1);
	}
	const uint8_t *key;
	size_t len;
	uint32_t idx;
	uint64_t j = lookup(v, sv, h, &key, &len, &idx);
	if (idx != UINT32_MAX) {
		*is_new = 0;
		return idx;
	}
	idx = (uint32_t)v->n;
	append(v, idx, key, len, h);
	v->slot[j] = (uint64_t)(uint32_t)(h >> 32) << 32 | (idx + 1);
	*is_new = 1;
	v->n++;
	if (v->n * 4 > (v->mask + 1) * 3)
		grow(v);
	return (uint32_t)(v->n - 1);
}

/* Shared: the numbers handed out less those left in the runs (VS-3): the
** lefts read first, each released after its run was taken, so the count
** read after them is never below (a state or a run late, at most). */
static uint64_t share_count(const struct visited *v)
{
	uint64_t left = 0;
	pthread_mutex_lock((pthread_mutex_t *)&v->mu);
	for (const struct vs_local *l = v->locals; l; l = l->link)
		left += atomic_load_explicit(&l->left, memory_order_acquire);
	pthread_mutex_unlock((pthread_mutex_t *)&v->mu);
	return atomic_load_explicit(&v->an, memory_order_relaxed) - left;
}

uint64_t vs_count(const struct visited *v)
{
	return v->shared ? share_count(v) : v->n;
}

int vs_takes_hash(const struct visited *v)
{
	return !v->tree;
}

const char *vs_store_name(const struct visited *v)
{
	return v->compact ? "fingerprints" : v->tree ? "tree" : "flat";
}

size_t vs_bytes(const struct visited *v)
{
	if (v->tree)
		return tree_bytes(v->tree);
	size_t b = (v->compact ? v->size : v->mask + 1) * sizeof *v->slot;
	/* the records, at their places, and the side chunks; in shared mode
	** the records of every number handed out (VS-3), a bound above the
	** count by the runs' unused numbers that takes no lock and reads no
	** other thread's run (the limits ask every few expansions of each) */
	if (v->raw)
		b += (v->shared ? vs_share_bound(v) : v->n) * v->sv_size;
	if (v->shared) {
		/* the bytes in use, as below: a new block's untouched pages
		** cost nothing */
		b += atomic_load_explicit(&v->abytes, memory_order_relaxed);
		if (v->raw)
			return b;
		pthread_mutex_lock((pthread_mutex_t *)&v->mu);
		for (const struct vs_local *l = v->locals; l; l = l->link)
			b += atomic_load_explicit(&l->used, memory_order_relaxed);
		pthread_mutex_unlock((pthread_mutex_t *)&v->mu);
		return b;
	}
	/* arena: the blocks filled, and what the last one holds so far (its
	** untouched pages cost nothing, and counting them would let one new
	** block overshoot a small --memory by 4 MB) */
	if (v->nblocks && !v->raw)
		b += (v->nblocks - 1) * (size_t)BLOCK_BYTES + v->used;
	b += v->nside * side_chunk_bytes(v);
	return b - v->slack;
}

size_t vs_grow_bytes(const struct visited *v)
{
	if (v->tree)
		return tree_grow_bytes(v->tree);
	if (v->compact) /* the slots added in place, and room for the values held aside */
		return (v->n + 1) * 5 > v->size * 4 ? (COMPACT_GROW(v->size) - v->size + 2 * v->aside + 16) * sizeof *v->slot
		                                    : 0;
	uint64_t cap = v->mask + 1;
	return (v->n + 1) * 4 > cap * 3 ? cap * sizeof *v->slot : 0; /* the half added in place */
}

double vs_omission(const struct visited *v)
{
	if (!v->compact)
		return 0;
	double n = (double)v->n;
	return n * (n - 1) / 2 / 18446744073709551616.0;
}

/* {=== Shared mode ========================================================= */

void vs_share(struct visited *v, unsigned run)
{
	int on = run > 0;
	v->run = run;
	if (on) {
		/* the side directory at its full size: chunks are then added
		** under the lock without moving what other threads read */
		if (v->raw) /* the block directory too: 2^32 states */
			v->block = xrealloc(v->block, sizeof *v->block * ((((uint64_t)1 << 32) >> v->rshift) + 1));
		else
			v->where = xrealloc(v->where, sizeof *v->where * SIDE_CHUNKS);
		v->hashes = xrealloc(v->hashes, sizeof *v->hashes * SIDE_CHUNKS);
		atomic_store(&v->an, v->n);
		atomic_store(&v->made, v->nblocks);
		atomic_store(&v->abytes,
		             vs_bytes(v) - (v->mask + 1) * sizeof *v->slot - (v->raw ? v->n * v->sv_size : 0));
	} else {
		size_t real = vs_bytes(v);
		v->shared = 0;
		v->n = atomic_load(&v->an);
		v->used = BLOCK_BYTES; /* the last block may be any thread's: start a new one */
		v->slack = 0;
		v->slack = vs_bytes(v) - real;
	}
	v->shared = on;
}

struct vs_local *vs_local_new(struct visited *v)
{
	struct vs_local *l = xcalloc_aligned(64, sizeof *l);
	l->enc = xcalloc_aligned(64, v->bitmap_bytes + 8 * v->nwords); /* no line shared with another thread's */
	l->dec = xcalloc_aligned(64, 8 * v->nwords);
	pthread_mutex_lock(&v->mu);
	l->link = v->locals;
	v->locals = l;
	pthread_mutex_unlock(&v->mu);
	return l;
}

void vs_local_free(struct visited *v, struct vs_local *l)
{
	if (!l)
		return;
	pthread_mutex_lock(&v->mu);
	struct vs_local **p = &v->locals;
	while (*p != l)
		p = &(*p)->link;
	*p = l->link;
	atomic_fetch_add(&v->abytes, l->used);
	pthread_mutex_unlock(&v->mu);
	free(l->enc);
	free(l->dec);
	free(l);
}

const uint8_t *vs_local_state(const struct visited *v, struct vs_local *l, uint32_t idx)
{
	return vs_decode(v, idx, l->dec);
}

/* Raw shared mode: the blocks up to b made, under the lock. */
static void share_blocks(struct visited *v, struct vs_local *l, size_t b)
{
	raw_blocks(v, b);
	atomic_store_explicit(&v->made, v->nblocks, memory_order_release);
	l->nblocks = v->nblocks;
}

/* Shared append: the record into the thread's block (raw: at its place,
** its block made under the lock when it is new), then the side entries
** of idx (its chunk made under the lock when it is new).  Raw: the first
** thread into the last block made also makes the next, if no other
** thread holds the lock: the threads' numbers follow one another closely,
** and making a block's pages present takes about a millisecond, which
** the others spent asleep on the lock when each block was made only as
** it was needed (~90 waits on D2 at 10 warps, 2 threads). */
static void share_append(struct visited *v, struct vs_local *l, uint32_t idx, const uint8_t *src, size_t len,
                         uint64_t h)
{
	size_t c = idx >> SIDE_BITS, used = atomic_load_explicit(&l->used, memory_order_relaxed), b = idx >> v->rshift;
	if (v->raw && b + 1 >= l->nblocks) /* made by another thread? */
		l->nblocks = atomic_load_explicit(&v->made, memory_order_acquire);
	int new_block = v->raw ? b >= l->nblocks : !l->block || used + len > BLOCK_BYTES;
	if (v->raw && !new_block && c < l->nside && b + 1 >= l->nblocks && !pthread_mutex_trylock(&v->mu)) {
		share_blocks(v, l, b + 1);
		pthread_mutex_unlock(&v->mu);
	}
	if (new_block || c >= l->nside) {
		pthread_mutex_lock(&v->mu);
		if (v->raw)
			share_blocks(v, l, b);
		else if (new_block) {
			v->block = xrealloc(v->block, sizeof *v->block * (v->nblocks + 1));
			l->block = v->block[v->nblocks++] = record_block(len);
			/* the block filled counts in full from now on */
			atomic_fetch_add(&v->abytes, used);
			used = 0;
			atomic_store_explicit(&l->used, 0, memory_order_relaxed);
		}
		for (; v->nside <= c; v->nside++) {
			side_chunk(v, v->nside);
			atomic_fetch_add(&v->abytes, side_chunk_bytes(v));
		}
		l->nside = v->nside;
		pthread_mutex_unlock(&v->mu);
	}
	uint8_t *rec = v->raw ? (uint8_t *)record(v, idx) : l->block + used;
	memcpy(rec, src, len);
	if (!v->raw) {
		atomic_store_explicit(&l->used, used + len, memory_order_relaxed);
		v->where[c][idx & ((1u << SIDE_BITS) - 1)] = rec;
	}
	v->hashes[c][idx & ((1u << SIDE_BITS) - 1)] = h;
}

uint32_t vs_share_put(struct visited *v, struct vs_local *l, const uint8_t *sv, uint64_t h, int *is_new)
{
	/* the slots as atomics: _Atomic uint64_t has uint64_t's size and
	** representation, and the sequential code reads them only while no
	** thread puts */
	_Atomic uint64_t *slot = (_Atomic uint64_t *)v->slot;
	uint64_t hi = h >> 32;
	const uint8_t *key = v->raw ? sv : l->enc;
	size_t len = v->raw ? v->sv_size : encode(v, sv, l->enc);
	size_t head = v->raw ? 0 : v->bitmap_bytes;
	for (uint64_t j = h & v->mask;; j = (j + 1) & v->mask) {
		uint64_t s = atomic_load_explicit(&slot[j], memory_order_acquire);
		if (!s) {
			if (!atomic_compare_exchange_strong_explicit(&slot[j], &s, hi << 32 | BUSY, memory_order_acq_rel,
			                                             memory_order_acquire)) {
				j = (j - 1) & v->mask; /* taken meanwhile: look at it again */
				continue;
			}
			uint64_t left = atomic_load_explicit(&l->left, memory_order_relaxed);
			if (!left) { /* a new run */
				l->next = atomic_fetch_add_explicit(&v->an, v->run, memory_order_relaxed);
				left = v->run;
			}
			uint32_t idx = (uint32_t)l->next++;
			atomic_store_explicit(&l->left, left - 1, memory_order_release);
			share_append(v, l, idx, key, len, h);
			l->pend = &slot[j]; /* vs_share_publish */
			l->pendval = hi << 32 | (idx + 1);
			*is_new = 1;
			return idx;
		}
		if (s >> 32 != hi)
			continue;
		while ((uint32_t)s == BUSY) /* VS-2: the number comes */
			s = atomic_load_explicit(&slot[j], memory_order_acquire);
		const uint8_t *rec = record(v, (uint32_t)s - 1);
		if (same_record(rec, key, head, len)) {
			*is_new = 0;
			return (uint32_t)s - 1;
		}
	}
}

void vs_share_publish(struct visited *v, struct vs_local *l)
{
	(void)v;
	atomic_store_explicit(l->pend, l->pendval, memory_order_release);
}

void vs_share_prefetch(const struct visited *v, uint64_t h, const uint64_t *before)
{
	__builtin_prefetch(&v->slot[h & v->mask]);
	if (!before)
		return;
	/* the home slot's record when its hash half is the hash's: the record
	** a hit compares with, often written by another core (a miss of its own) */
	h = *before;
	uint64_t s = atomic_load_explicit((const _Atomic uint64_t *)&v->slot[h & v->mask], memory_order_acquire);
	if (!s || s >> 32 != h >> 32 || (uint32_t)s == BUSY)
		return;
	const uint8_t *rec = record(v, (uint32_t)s - 1);
	size_t len = v->raw ? v->sv_size : v->bitmap_bytes; /* a compressed one: its bitmap, compared first */
	for (size_t o = 0; o < len; o += 64)
		__builtin_prefetch(rec + o);
}

void vs_share_prefetch_state(const struct visited *v, uint32_t idx)
{
	__builtin_prefetch(&v->hashes[idx >> SIDE_BITS][idx & ((1u << SIDE_BITS) - 1)]);
	if (!v->raw) /* its address is a load of its own, not to be waited for here */
		return;
	const uint8_t *rec = record(v, idx);
	for (size_t o = 0; o < v->sv_size; o += 64)
		__builtin_prefetch(rec + o);
}

uint64_t vs_share_bound(const struct visited *v)
{
	return atomic_load_explicit(&v->an, memory_order_relaxed);
}

/* State from renumbered to: its slot, record and side entries. */
static void renumber(struct visited *v, uint32_t from, uint32_t to)
{
	uint64_t h = memo_hash(v, from);
	for (uint64_t j = h & v->mask;; j = (j + 1) & v->mask)
		if ((uint32_t)v->slot[j] == from + 1) {
			v->slot[j] = (v->slot[j] >> 32) << 32 | (to + 1);
			break;
		}
	/* to < from: its block and side chunk exist (made in order) */
	size_t c = to >> SIDE_BITS, i = to & ((1u << SIDE_BITS) - 1);
	if (v->raw)
		memcpy((uint8_t *)record(v, to), record(v, from), v->sv_size);
	else
		v->where[c][i] = v->where[from >> SIDE_BITS][from & ((1u << SIDE_BITS) - 1)];
	v->hashes[c][i] = h;
}

/* Whether number k is left in a run (VS-3). */
static int left_in_run(const struct visited *v, uint64_t k)
{
	for (const struct vs_local *l = v->locals; l; l = l->link)
		if (k >= l->next && k < l->next + l->left)
			return 1;
	return 0;
}

void vs_share_settle(struct visited *v, void (*moved)(void *ctx, uint32_t from, uint32_t to), void *ctx)
{
	uint64_t from = atomic_load(&v->an), n = share_count(v);
	/* the numbers left below n to the states above it, highest first:
	** as many of either */
	for (const struct vs_local *l = v->locals; l; l = l->link)
		for (uint64_t to = l->next; to < l->next + l->left && to < n; to++) {
			do
				from--;
			while (left_in_run(v, from));
			renumber(v, (uint32_t)from, (uint32_t)to);
			moved(ctx, (uint32_t)from, (uint32_t)to);
		}
	for (struct vs_local *l = v->locals; l; l = l->link)
		atomic_store(&l->left, 0);
	atomic_store(&v->an, n);
}

int vs_share_full(const struct visited *v)
{
	return atomic_load_explicit(&v->an, memory_order_relaxed) * 4 > (v->mask + 1) * 3;
}

unsigned vs_share_grow_begin(struct visited *v, unsigned most)
{
	if (!vs_share_full(v))
		return 0;
	uint64_t parts = (v->mask + 1) >> GROW_PART_BITS;
	v->nparts = parts < 1 ? 1 : parts < most ? (unsigned)parts : most;
	v->bound = xrealloc(v->bound, sizeof *v->bound * v->nparts);
	void *t = v->slot;
	slots_double_begin(&t, sizeof *v->slot, v->mask, v->nparts, v->bound);
	v->slot = t;
	v->mask = 2 * v->mask + 1;
	return v->nparts;
}

void vs_share_grow_part(struct visited *v, unsigned part)
{
	slots_double_part(v->slot, sizeof *v->slot, v->mask >> 1, part, v->nparts, v->bound, slot_hash, v);
}

/* }=== */
