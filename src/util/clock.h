#ifndef GPUMC_UTIL_CLOCK_H
#define GPUMC_UTIL_CLOCK_H
/* Seconds on the monotonic clock, for --time and the reports' timings. */
#include <time.h>

/* b - a in seconds. */
static inline double clock_between(struct timespec a, struct timespec b)
{
	return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
}

/* Seconds since a (CLOCK_MONOTONIC). */
static inline double clock_since(struct timespec a)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return clock_between(a, now);
}
#endif
