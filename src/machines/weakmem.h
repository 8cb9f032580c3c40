/* Kernel specs on the address-queue memory models (machine option
** -D memory=ics13|ics13-fixed). */
#ifndef GPUMC_WEAKMEM_H
#define GPUMC_WEAKMEM_H

#include "machines/gpu.h"

/* The spec's kernel, one litmus thread per GPU thread, on the ICS'13
** address-queue memory; NULL with messages in d when the kernel is out
** of the translation's reach (see weakmem.c). */
struct model *weakmem_build(const struct spec *s, const struct gpu_cfg *c, struct diag *d);

#endif
