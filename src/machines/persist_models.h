/* Persistency models as kernel transformations (machine persist). */
#ifndef GPUMC_PERSIST_MODELS_H
#define GPUMC_PERSIST_MODELS_H

#include "machines/gpu.h"

enum pm_model { PMM_NONE, PMM_STRICT_CLWB, PMM_STRICT_WT, PMM_EPOCH_KERNEL, PMM_EPOCH_CTA, PMM_EPOCH_LOOP };
/* How a CTA epoch persists (-D epoch_op, Table I): l2wb, clwb (Algorithm
** 1's replay at the end), wt, and clwb-at-store (a clwb after each store). */
enum pm_epoch_op { PME_L2WB, PME_CLWB, PME_WT, PME_CLWB_AT_STORE };

/* Rewrite prog (a private copy) for the persistency model of the
** configuration; returns 0, or -1 with a message in err. */
int pm_transform(struct program *prog, const struct gpu_cfg *c, struct strbuf *err);

#endif
