/*
** In-place doubling of a linear-probing table.  Copying into a fresh table
** holds both at the peak, 3 times the old table (a compact table of 2^26
** slots doubling: 1.5 GB for a 1 GB result); here the block is resized
** (glibc moves a large block with mremap, no copy) and the entries are
** moved within it.
**
** Doubling moves an entry of old home j to new home j or j + n (n: the old
** size).  Processing the old half slot by slot from an empty slot e on
** (cyclically), each entry taken out of its slot and put back by the
** usual probe from its new home, keeps every entry reachable:
** Invariant SLOTS-1: when the entry at old slot i is processed, every slot
** of the cyclic run from its old home to i has been processed (the run has
** no empty slot, e is empty), so a probe from new home j meets only slots
** processed and i itself, now empty: it stops at or before i; a probe from
** j + n, or one from j that runs past the old half, meets only the upper
** half, which holds only entries already put back.  A slot once processed
** is never emptied again, so no probe run put back gets a hole.
** Rule SLOTS-2: the one probe that would wrap from the last slot to slot 0
** could land on slots not yet processed; that entry waits in a side list
** and is put back at the end, into a table with nothing left to process.
*/
#include "config.h"
#include "state/slots.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static uint64_t get(const uint8_t *t, size_t width, uint64_t i)
{
	if (width == 4) {
		uint32_t x;
		memcpy(&x, t + 4 * i, 4);
		return x;
	}
	uint64_t x;
	memcpy(&x, t + 8 * i, 8);
	return x;
}

static void set(uint8_t *t, size_t width, uint64_t i, uint64_t v)
{
	if (width == 4) {
		uint32_t x = (uint32_t)v;
		memcpy(t + 4 * i, &x, 4);
	} else {
		memcpy(t + 8 * i, &v, 8);
	}
}

void slots_double(void **tab, size_t width, uint64_t *mask, uint64_t (*hash)(const void *ctx, uint64_t value),
                  const void *ctx)
{
	const uint64_t n = *mask + 1, m = 2 * n - 1;
	uint8_t *t = xrealloc(*tab, 2 * n * width);
	memset(t + n * width, 0, n * width);
	uint64_t e = 0, *late = NULL;
	size_t nlate = 0;
	while (get(t, width, e))
		e++;
	for (uint64_t k = 1; k < n; k++) {
		uint64_t i = (e + k) & (n - 1), x = get(t, width, i);
		if (!x)
			continue;
		set(t, width, i, 0);
		uint64_t j = hash(ctx, x) & m;
		while (get(t, width, j) && j < m)
			j++;
		if (get(t, width, j)) { /* SLOTS-2 */
			late = xrealloc(late, sizeof *late * (nlate + 1));
			late[nlate++] = x;
			continue;
		}
		set(t, width, j, x);
	}
	for (size_t k = 0; k < nlate; k++) {
		uint64_t j = hash(ctx, late[k]) & m;
		while (get(t, width, j))
			j = (j + 1) & m;
		set(t, width, j, late[k]);
	}
	free(late);
	*tab = t;
	*mask = m;
}
