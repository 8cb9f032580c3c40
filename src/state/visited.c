/*
** Open-addressing visited set with linear probing.
**
** Exact mode slot: bits 63..32 are the high half of the state's hash (a
** cheap filter before memcmp), bits 31..0 its number + 1 (0 = empty).  The
** full hash of every state is memoized in a side array, so growing the
** table never hashes a vector again.
**
** Compact mode slot: the 64-bit fingerprint (0 mapped to 1), home slot from
** its low bits.
**
** Invariant VS-1: load factor stays below 3/4 (4/5 compact) after every
** insertion, so probes stay short.
*/
#include "config.h"
#include "state/visited.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"


struct visited {
	size_t sv_size;
	int compact;
	unsigned chunk_bits; /* 2^chunk_bits states per arena chunk, ~1 MB */
	uint64_t *slot;
	uint64_t mask; /* table size - 1 */
	uint64_t n;
	/* exact mode */
	uint8_t **chunk;
	size_t nchunks;
	uint64_t *hashes; /* memoized full hash per state, chunked like states */
};

struct visited *vs_new(size_t sv_size, int compact)
{
	struct visited *v = xcalloc(1, sizeof *v);
	v->sv_size = sv_size;
	v->compact = compact;
	v->chunk_bits = 0;
	while (v->chunk_bits < 14 && (sv_size << (v->chunk_bits + 1)) <= (1u << 20))
		v->chunk_bits++;
	v->mask = (1u << 12) - 1;
	v->slot = xcalloc(v->mask + 1, sizeof *v->slot);
	return v;
}

void vs_free(struct visited *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nchunks; i++)
		free(v->chunk[i]);
	free(v->chunk);
	free(v->hashes);
	free(v->slot);
	free(v);
}

const uint8_t *vs_state(const struct visited *v, uint32_t idx)
{
	return v->chunk[idx >> v->chunk_bits] + (size_t)(idx & ((1u << v->chunk_bits) - 1)) * v->sv_size;
}

static uint64_t home(const struct visited *v, uint64_t slotval)
{
	if (v->compact)
		return slotval & v->mask;
	return v->hashes[(uint32_t)slotval - 1] & v->mask;
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
		uint32_t hi = (uint32_t)(h >> 32);
		for (;; j = (j + 1) & v->mask) {
			uint64_t s = v->slot[j];
			if (!s)
				break;
			if ((uint32_t)(s >> 32) == hi) {
				uint32_t idx = (uint32_t)s - 1;
				if (!memcmp(vs_state(v, idx), sv, v->sv_size)) {
					*is_new = 0;
					return idx;
				}
			}
		}
		uint32_t idx = (uint32_t)v->n;
		size_t c = idx >> v->chunk_bits;
		if (c == v->nchunks) {
			v->chunk = xrealloc(v->chunk, sizeof *v->chunk * (c + 1));
			v->chunk[c] = xmalloc(v->sv_size << v->chunk_bits);
			v->hashes = xrealloc(v->hashes, sizeof *v->hashes * ((c + 1) << v->chunk_bits));
			v->nchunks++;
		}
		memcpy((uint8_t *)vs_state(v, idx), sv, v->sv_size);
		v->hashes[idx] = h;
		v->slot[j] = (uint64_t)hi << 32 | (idx + 1);
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
	b += v->nchunks * ((v->sv_size + sizeof(uint64_t)) << v->chunk_bits);
	return b;
}

double vs_omission(const struct visited *v)
{
	if (!v->compact)
		return 0;
	double n = (double)v->n;
	return n * (n - 1) / 2 / 18446744073709551616.0;
}
