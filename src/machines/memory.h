/* SC global and shared memory: word arrays in the state vector. */
#ifndef GPUMC_MEMORY_H
#define GPUMC_MEMORY_H

#include "machines/gpu.h"

/* The word at byte address addr of space sp (shared: CTA cta's copy), or
** NULL with *fault set when the access is misaligned or out of bounds:
** outside the variable sym when the address names one (sym >= 0), else
** outside the segment. */
uint32_t *mem_word(const struct gpu *g, uint8_t *sv, enum space sp, unsigned cta, int sym,
                   uint32_t addr, int *fault);
/* Memory partition (L2 slice / ROP) owning a global byte address. */
unsigned mem_partition(const struct gpu *g, uint32_t addr);
void mem_init(const struct gpu *g, uint8_t *sv);

#endif
