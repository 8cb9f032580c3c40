/* n / d and n % d for a divisor d fixed at set-up, by multiplications
** (Lemire, Kaser and Kurz, "Faster remainder by direct computation:
** applications to compilers and software libraries", 2019: exact for
** every 32-bit n and 32-bit d > 1; d = 1 apart).  A hardware division
** takes tens of cycles, and concrete mode's machine helpers (gpu.h: a
** warp's CTA, SM and scheduler, an address's partition) made three or
** four a warp-instruction on the DAB machine, which instruction counts do
** not show (~1% of its CPU time).  t/unit.c checks it against / and %. */
#ifndef GPUMC_FASTDIV_H
#define GPUMC_FASTDIV_H

#include <stdint.h>

__extension__ typedef unsigned __int128 fastdiv_u128;
struct fastdiv {
	uint64_t m; /* 2^64 / d rounded up; 0 for d = 1 */
	uint32_t d;
};
static inline struct fastdiv fastdiv_of(uint32_t d)
{
	return (struct fastdiv){ d > 1 ? UINT64_MAX / d + 1 : 0, d };
}
static inline uint32_t fastdiv_div(struct fastdiv f, uint32_t n)
{
	return f.m ? (uint32_t)(((fastdiv_u128)f.m * n) >> 64) : n;
}
static inline uint32_t fastdiv_mod(struct fastdiv f, uint32_t n)
{
	return f.m ? (uint32_t)(((fastdiv_u128)(f.m * n) * f.d) >> 64) : 0;
}

#endif
