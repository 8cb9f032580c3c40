/*
** Side sets keyed by byte strings (libjudy JudyHS): distinct terminal
** results, outcome tuples, crash images.  Small next to the visited set,
** so the per-key cost of Judy does not matter here.
*/
#ifndef GPUMC_SIDESET_H
#define GPUMC_SIDESET_H

#include <stddef.h>
#include <stdint.h>

struct sideset;

struct sideset *ss_new(void);
void ss_free(struct sideset *s);
/* The value word of key (0 when just inserted); *is_new says which. */
uintptr_t *ss_put(struct sideset *s, const void *key, size_t len, int *is_new);
/* The value word of key, or NULL when it is not in s. */
uintptr_t *ss_get(const struct sideset *s, const void *key, size_t len);
uint64_t ss_count(const struct sideset *s);

#endif
