/* The successor hash of state/hash.h, per instruction set, and the
** GPUMC_CHECK_HASH cross-check. */
#include "config.h"
#include "state/hash.h"
#include "util/env.h"

#include <stdio.h>
#include <stdlib.h>
#ifdef HAVE_AVX2
#include <immintrin.h>
#endif

int hash_check;
uint64_t hash_plant;

/* Each changed block's hash replaces its old one: the whole blocks in one
** tight loop, then the partial one, compared by the vector's last 64
** bytes when there are as many (a difference in the block before only
** costs a hash that comes out the same).  differs: the block compare of
** the instruction set compiled for.  (Blocks that apply marked dirty
** would spare the compares of the others: with AVX2 about 7 instructions
** a block, ~60 of the ~1330 a transition on lane-reduction 3/1/3; not
** worth a mark at every write of every component.) */
static inline __attribute__((always_inline)) uint64_t step(struct hash_src *s, const uint8_t *next, size_t n,
                                                           int (*differs)(const uint8_t *, const uint8_t *))
{
	uint64_t h = s->h;
	size_t full = n / HASH_BLOCK;
	const uint8_t *x = next, *y = s->sv;
	for (size_t b = 0; b < full; b++, x += HASH_BLOCK, y += HASH_BLOCK)
		if (differs(x, y))
			h += hash_src_change(s, next, n, b);
	if (full * HASH_BLOCK < n &&
	    (n >= HASH_BLOCK ? differs(next + n - HASH_BLOCK, s->sv + n - HASH_BLOCK) : memcmp(next, s->sv, n) != 0))
		h += hash_src_change(s, next, n, full);
	return hash_checked(h, next, n);
}

static uint64_t step_base(struct hash_src *s, const uint8_t *next, size_t n)
{
	return step(s, next, n, block64_differs);
}

#ifdef HAVE_AVX2
/* A block in two 32-byte compares and one test (callgrind --threads 1
** lane-reduction 3/1/3: 1.588G instructions with the four 16-byte
** compares of block64_differs, 1.540G). */
__attribute__((target("avx2"))) static inline int differs_avx2(const uint8_t *x, const uint8_t *y)
{
	__m256i d = _mm256_or_si256(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)x),
	                                             _mm256_loadu_si256((const __m256i *)y)),
	                            _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(x + 32)),
	                                             _mm256_loadu_si256((const __m256i *)(y + 32))));
	return !_mm256_testz_si256(d, d);
}

__attribute__((target("avx2"))) static uint64_t step_avx2(struct hash_src *s, const uint8_t *next, size_t n)
{
	return step(s, next, n, differs_avx2);
}

#endif

uint64_t (*state_hash_step)(struct hash_src *s, const uint8_t *next, size_t n) = step_base;

/* AVX2 where the machine has it (AVX-512's one 64-byte compare a block
** measured no faster in CPU time).  Chosen here, not by an ifunc: a
** resolver runs before the sanitizers' runtime is up (t/fuzz-lf.sh's
** harnesses crashed). */
void hash_init(void)
{
	hash_check = env_on("GPUMC_CHECK_HASH");
	hash_plant = env_fault("hash");
#ifdef HAVE_AVX2
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		state_hash_step = step_avx2;
#endif
}

void hash_check_failed(uint64_t h, const uint8_t *sv, size_t n)
{
	fprintf(stderr, "GPUMC_CHECK_HASH: a successor's incremental hash %016llx is not its full hash %016llx\n",
	        (unsigned long long)h, (unsigned long long)state_hash(sv, n));
	abort();
}
