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
** ways).  Records are appended to 4 MB arena blocks; each state's record
** address and full hash are kept in side arrays.
**
** Exact mode slot: bits 63..32 are the high half of the state's hash (a
** cheap filter before memcmp), bits 31..0 its number + 1 (0 = empty).  The
** memoized hashes let the table grow without touching a record.
**
** Compact mode slot: the 64-bit fingerprint (0 mapped to 1), home slot from
** its low bits; nothing else is stored.
**
** Invariant VS-1: load factor stays below 3/4 (4/5 compact) after every
** insertion, so probes stay short.
*/
#include "config.h"
#include "state/visited.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

#define BLOCK_BYTES (4u << 20) /* arena block */
#define SIDE_BITS 16           /* states per side-array chunk */
#define COMPRESS_FROM 1024     /* vector bytes from which records are compressed */

struct visited {
	size_t sv_size, nwords, bitmap_bytes;
	int compact, raw; /* raw: exact records are the vectors themselves */
	uint64_t *slot;
	uint64_t mask; /* table size - 1 */
	uint64_t n;
	/* exact mode: record arena and per-state side arrays (chunked, so
	** records and entries never move) */
	uint8_t **block;
	size_t nblocks, used; /* bytes used in the last block */
	uint8_t ***where;     /* where[i >> SIDE_BITS][i & mask]: record   */
	uint64_t **hashes;    /* the same shape: memoized hash            */
	size_t nside;
	size_t record_bytes;  /* arena bytes in records                   */
	uint8_t *enc, *dec;   /* scratch: the record being looked up, a decoded state */
};

struct visited *vs_new(size_t sv_size, int compact)
{
	struct visited *v = xcalloc(1, sizeof *v);
	v->sv_size = sv_size;
	v->nwords = (sv_size + 7) / 8;
	v->bitmap_bytes = (v->nwords + 7) / 8;
	v->compact = compact;
	v->raw = sv_size < COMPRESS_FROM;
	v->mask = (1u << 12) - 1;
	v->slot = xcalloc(v->mask + 1, sizeof *v->slot);
	if (!compact && !v->raw) {
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
		free(v->where[i]);
		free(v->hashes[i]);
	}
	free(v->block);
	free(v->where);
	free(v->hashes);
	free(v->slot);
	free(v->enc);
	free(v->dec);
	free(v);
}

/* Encode sv into v->enc; returns the record's length. */
static size_t encode(struct visited *v, const uint8_t *sv)
{
	uint8_t *bm = v->enc, *out = v->enc + v->bitmap_bytes;
	memset(bm, 0, v->bitmap_bytes);
	size_t k = 0;
	for (size_t w = 0; w < v->nwords; w++) {
		uint64_t x = 0;
		size_t len = w + 1 < v->nwords ? 8 : v->sv_size - 8 * w;
		memcpy(&x, sv + 8 * w, len);
		if (x) {
			bm[w >> 3] |= (uint8_t)(1u << (w & 7));
			memcpy(out + 8 * k++, &x, 8);
		}
	}
	return v->bitmap_bytes + 8 * k;
}

static const uint8_t *record(const struct visited *v, uint32_t idx)
{
	return v->where[idx >> SIDE_BITS][idx & ((1u << SIDE_BITS) - 1)];
}

static uint64_t memo_hash(const struct visited *v, uint32_t idx)
{
	return v->hashes[idx >> SIDE_BITS][idx & ((1u << SIDE_BITS) - 1)];
}

const uint8_t *vs_state(const struct visited *v, uint32_t idx)
{
	/* decode into the scratch vector: valid until the next vs_state */
	const uint8_t *rec = record(v, idx), *in = rec + v->bitmap_bytes;
	if (v->raw)
		return rec;
	uint8_t *out = v->dec;
	for (size_t w = 0; w < v->nwords; w++) {
		if (rec[w >> 3] >> (w & 7) & 1) {
			memcpy(out + 8 * w, in, 8);
			in += 8;
		} else {
			memset(out + 8 * w, 0, 8);
		}
	}
	return out;
}

static uint64_t home(const struct visited *v, uint64_t slotval)
{
	if (v->compact)
		return slotval & v->mask;
	return memo_hash(v, (uint32_t)slotval - 1) & v->mask;
}

static void grow(struct visited *v)
{
	uint64_t *old = v->slot, oldn = v->mask + 1;
	v->mask = oldn * 2 - 1;
	v->slot = xcalloc(v->mask + 1, sizeof *v->slot);
	for (uint64_t i = 0; i < oldn; i++) {
		if (!old[i])
			continue;
		uint64_t j = home(v, old[i]);
		while (v->slot[j])
			j = (j + 1) & v->mask;
		v->slot[j] = old[i];
	}
	free(old);
}

/* Store the record (len bytes at src) as state idx. */
static void append(struct visited *v, uint32_t idx, const uint8_t *src, size_t len, uint64_t h)
{
	if (!v->nblocks || v->used + len > BLOCK_BYTES) {
		v->block = xrealloc(v->block, sizeof *v->block * (v->nblocks + 1));
		v->block[v->nblocks++] = xmalloc(BLOCK_BYTES > len ? BLOCK_BYTES : len);
		v->used = 0;
	}
	uint8_t *rec = v->block[v->nblocks - 1] + v->used;
	memcpy(rec, src, len);
	v->used += len;
	v->record_bytes += len;
	size_t c = idx >> SIDE_BITS;
	if (c == v->nside) {
		v->where = xrealloc(v->where, sizeof *v->where * (c + 1));
		v->hashes = xrealloc(v->hashes, sizeof *v->hashes * (c + 1));
		v->where[c] = xmalloc(sizeof **v->where << SIDE_BITS);
		v->hashes[c] = xmalloc(sizeof **v->hashes << SIDE_BITS);
		v->nside++;
	}
	v->where[c][idx & ((1u << SIDE_BITS) - 1)] = rec;
	v->hashes[c][idx & ((1u << SIDE_BITS) - 1)] = h;
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
	size_t n = v->raw ? v->sv_size : encode(v, sv);
	size_t head = v->raw ? n : v->bitmap_bytes;
	const uint64_t *slot = v->slot, mask = v->mask;
	uint64_t j = h & mask, s;
	for (;; j = (j + 1) & mask) {
		s = slot[j];
		if (!s)
			break;
		/* equal bitmaps mean equal lengths: only then the words */
		if ((uint32_t)(s >> 32) == hi) {
			const uint8_t *rec = record(v, (uint32_t)s - 1);
			if (!memcmp(rec, k, head) && !memcmp(rec, k, n))
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
	const uint8_t *key;
	size_t len;
	uint32_t idx;
	lookup(v, sv, h, &key, &len, &idx);
	return idx;
}

uint32_t vs_find_or_put(struct visited *v, const uint8_t *sv, uint64_t h, int *is_new)
{
	uint64_t j = h & v->mask;
	if (v->compact) {
		uint64_t fp = h ? h : 1;
		for (;; j = (j + 1) & v->mask) {
			if (v->slot[j] == fp) {
				*is_new = 0;
				return 0; /* compact mode keeps no numbers for old states */
			}
			if (!v->slot[j])
				break;
		}
		v->slot[j] = fp;
	} else {
		const uint8_t *key;
		size_t len;
		uint32_t idx;
		j = lookup(v, sv, h, &key, &len, &idx);
		if (idx != UINT32_MAX) {
			*is_new = 0;
			return idx;
		}
		idx = (uint32_t)v->n;
		append(v, idx, key, len, h);
		v->slot[j] = (uint64_t)(uint32_t)(h >> 32) << 32 | (idx + 1);
	}
	*is_new = 1;
	v->n++;
	uint64_t cap = v->mask + 1;
	if (v->compact ? v->n * 5 > cap * 4 : v->n * 4 > cap * 3)
		grow(v);
	return (uint32_t)(v->n - 1);
}

uint64_t vs_count(const struct visited *v)
{
	return v->n;
}

size_t vs_bytes(const struct visited *v)
{
	size_t b = (v->mask + 1) * sizeof *v->slot;
	/* arena: the blocks filled, and what the last one holds so far (its
	** untouched pages cost nothing, and counting them would let one new
	** block overshoot a small --memory by 4 MB) */
	if (v->nblocks)
		b += (v->nblocks - 1) * (size_t)BLOCK_BYTES + v->used;
	b += v->nside * ((sizeof(uint8_t *) + sizeof(uint64_t)) << SIDE_BITS);
	return b;
}

double vs_omission(const struct visited *v)
{
	if (!v->compact)
		return 0;
	double n = (double)v->n;
	return n * (n - 1) / 2 / 18446744073709551616.0;
}
