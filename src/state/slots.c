/*
** In-place doubling of a linear-probing table.  Copying into a fresh table
** holds both at the peak, 3 times the old table (a compact table of 2^26
** slots doubling: 1.5 GB for a 1 GB result); here the block is resized
** (glibc moves a large block with mremap, no copy) and the entries are
** moved within it.
**
** Doubling moves an entry of old home j to new home j or j + n (n: the old
** size).  The old half is processed slot by slot from an empty slot e on,
** cyclically (e + 1, ..., n - 1, 0, ..., e - 1): each entry is taken out
** of its slot and put back by the usual probe from its new home.
** Invariant SLOTS-1: a slot once processed is never emptied again, and
** every probe made meets only processed slots, slot i (the one being
** processed, just emptied) and the upper half (entries put back), so no
** probe run put back ever gets a hole:
**  - the entry at old slot i: the cyclic run from its old home j to i has
**    no empty slot, and e is empty, so j..i were processed before i; a
**    probe from j stops at or before i, unless j > i (the run wrapped),
**    when it goes on into the upper half;
**  - a probe into the upper half wraps from the last slot to slot 0 only
**    when i < e: before that, entries whose new homes lie in [H, 2n) came
**    from old slots in [H - n, n), one too few to fill [H, 2n) and the
**    entry being placed; after the wrap it meets slots 0..i - 1, processed,
**    and stops at i at the latest.
** Invariant SLOTS-2 (in parts, threads doing them at once): part p runs
** from bound[p], the first empty slot at or after p * n / nparts, to the
** next part's bound (the last part that has one wraps round to bound[0]),
** so every run of full slots (a cluster) lies in one part.  A cluster's
** entries, of homes in [a, b], go to [a, b] and [a + n, b + n] (one that
** wraps at n - 1: to [a, n + b] and [a + n, 2n) + [0, b]), since which
** slots linear probing fills depends on the homes alone and fewer entries
** fill fewer slots: parts write disjoint slots (each zeroes the upper
** slots it owns first), and each processes its clusters in SLOTS-1's
** order, so the table is the one the whole doubling makes.
**
** Growth by any factor (slots_grow, the compact visited set: a table of
** any size, not a power of two, so that it grows by less than twice).
** A value's home x * n / 2^64 only rises when n does.  After the block
** is resized to m slots (the new ones empty), the old slots are
** processed from the top down, p = n - 1, ..., 0: the value at p is
** taken out, and put at the first empty slot at or after its new home h
** when h >= p and one lies before slot m; otherwise (h < p, or its probe
** would wrap round to the slots not yet processed) it is held aside, and
** put by the usual probe once every slot has been processed.
** Invariant SLOTS-3: slots at or above p are only ever filled from then
** on (every slot emptied later lies below p), so a value put at slot j
** >= h >= p keeps [h, j) full for good: the usual probe from h finds it.
** The values held aside are put into a table whose every value is
** reachable, as any insertion.  Each value is taken out once and put
** once, so the table holds the values it held and nothing else.  Held
** aside: values of home below about (L + 1) / (m / n - 1) for a
** longest cluster L (a new home h >= h_old * m / n lies below p only
** when h_old < p is that close to slot 0), and those of the new table's
** last cluster that would wrap: a few dozen where tables hold millions
** (unit test and visited.c measure it).
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

/* The first empty slot of t at or after from, or n when none is before n. */
static uint64_t empty_from(const uint8_t *t, size_t width, uint64_t from, uint64_t n)
{
	while (from < n && get(t, width, from))
		from++;
	return from;
}

void slots_double_begin(void **tab, size_t width, uint64_t mask, unsigned nparts, uint64_t *bound)
{
	const uint64_t n = mask + 1;
	*tab = xrealloc(*tab, 2 * n * width);
	for (unsigned i = 0; i < nparts; i++)
		bound[i] = empty_from(*tab, width, n * i / nparts, n);
}

void slots_double_part(void *tab, size_t width, uint64_t mask, unsigned part, unsigned nparts, const uint64_t *bound,
                       uint64_t (*hash)(const void *ctx, uint64_t value), const void *ctx)
{
	uint8_t *t = tab;
	const uint64_t n = mask + 1, m = 2 * n - 1, e = bound[part];
	/* SLOTS-2: from its bound to the next part's; the last part with one
	** wraps round to part 0's */
	uint64_t end = part + 1 < nparts ? bound[part + 1] : n, wrap = end == n ? bound[0] : 0;
	if (e == n)
		return;
	memset(t + (n + e) * width, 0, (end - e) * width);
	memset(t + n * width, 0, wrap * width);
	for (uint64_t k = e + 1; k < end + wrap; k++) {
		uint64_t i = k & (n - 1), x = get(t, width, i);
		if (!x)
			continue;
		set(t, width, i, 0);
		uint64_t j = hash(ctx, x) & m;
		while (get(t, width, j))
			j = (j + 1) & m;
		set(t, width, j, x);
	}
}

void slots_double(void **tab, size_t width, uint64_t *mask, uint64_t (*hash)(const void *ctx, uint64_t value),
                  const void *ctx)
{
	uint64_t bound;
	slots_double_begin(tab, width, *mask, 1, &bound);
	slots_double_part(*tab, width, *mask, 0, 1, &bound, hash, ctx);
	*mask = 2 * *mask + 1;
}

size_t slots_grow(uint64_t **tab, uint64_t n, uint64_t m)
{
	uint64_t *t = *tab = xrealloc(*tab, m * sizeof *t), *aside = NULL;
	size_t naside = 0, cap = 0;
	memset(t + n, 0, (m - n) * sizeof *t);
	for (uint64_t p = n; p-- > 0;) { /* SLOTS-3 */
		uint64_t x = t[p], j;
		if (!x)
			continue;
		t[p] = 0;
		for (j = slots_home(x, m); j >= p && j < m && t[j]; j++)
			;
		if (j >= p && j < m) {
			t[j] = x;
			continue;
		}
		if (naside == cap)
			aside = xrealloc(aside, (cap = 2 * cap + 16) * sizeof *aside);
		aside[naside++] = x;
	}
	for (size_t k = 0; k < naside; k++)
		slots_put(t, m, aside[k]);
	free(aside);
	return naside;
}
