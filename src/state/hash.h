/* State hashing: XXH3, the one hash function of gpumc. */
#ifndef GPUMC_HASH_H
#define GPUMC_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <xxhash.h>

static inline uint64_t state_hash(const void *sv, size_t n)
{
	return XXH3_64bits(sv, n);
}

#endif
