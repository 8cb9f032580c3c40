/* CTA-wide barriers (bar.sync). */
#ifndef GPUMC_BARRIER_H
#define GPUMC_BARRIER_H

#include "machines/gpu.h"

/* Release the warps of CTA cta waiting at a barrier once every live thread
** of the CTA has arrived at it. */
void bar_check(const struct gpu *g, uint8_t *sv, unsigned cta);

#endif
