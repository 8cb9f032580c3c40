/* Kernel specs on the weak memory models (machine option
** -D memory=ics13|ics13-fixed|ptx). */
#ifndef GPUMC_WEAKMEM_H
#define GPUMC_WEAKMEM_H

#include "machines/gpu.h"

/* The spec's kernel, one litmus thread per GPU thread, on the ICS'13
** address-queue memory; NULL with messages in d when the kernel is out
** of the translation's reach (see weakmem.c). */
struct model *weakmem_build(const struct spec *s, const struct gpu_cfg *c, struct diag *d);

struct litmus;
struct strbuf;
/* memory=ptx (weakmem_ptx.c): the outcomes of the PTX ISA model on the
** translated test t, as a model of depth one.  Takes t, which release
** frees when the model is destroyed (or at once, on failure: NULL with
** the reason in err). */
struct model *weakmem_ptx_model(struct litmus *t, void (*release)(struct litmus *t), struct strbuf *err);

#endif
