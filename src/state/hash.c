/* The GPUMC_CHECK_HASH cross-check of state/hash.h. */
#include "config.h"
#include "state/hash.h"

#include <stdio.h>
#include <stdlib.h>

int hash_check;

/* Each changed block's hash replaces its old one: the whole blocks in one
** tight loop, then the partial one.  Compiled for AVX2 too where the
** compiler can, and that one chosen when the machine has it (a block
** compared in two 32-byte compares; callgrind --threads 1 lane-reduction
** 3/1/3: 1.619G -> 1.600G instructions). */
#ifdef HAVE_TARGET_CLONES
__attribute__((target_clones("avx2", "default")))
#endif
uint64_t state_hash_step(struct hash_src *s, const uint8_t *next, size_t n)
{
	uint64_t h = s->h;
	size_t full = n / HASH_BLOCK;
	const uint8_t *x = next, *y = s->sv;
	for (size_t b = 0; b < full; b++, x += HASH_BLOCK, y += HASH_BLOCK)
		if (block64_differs(x, y))
			h += hash_src_change(s, next, n, b);
	if (full * HASH_BLOCK < n && tail_differs(next, s->sv, n))
		h += hash_src_change(s, next, n, full);
	return hash_checked(h, next, n);
}

void hash_check_init(void)
{
	const char *e = getenv("GPUMC_CHECK_HASH");
	hash_check = e && *e && *e != '0';
}

void hash_check_failed(uint64_t h, const uint8_t *sv, size_t n)
{
	fprintf(stderr, "GPUMC_CHECK_HASH: a successor's incremental hash %016llx is not its full hash %016llx\n",
	        (unsigned long long)h, (unsigned long long)state_hash(sv, n));
	abort();
}
