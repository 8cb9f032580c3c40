/* The ALU of a litmus thread: alu.c applied to litmus-IR instructions, so
** litmus tests and kernels compute with the same arithmetic. */
#ifndef GPUMC_LITMUS_ALU_H
#define GPUMC_LITMUS_ALU_H

#include <stdint.h>

#include "ir/litmus.h"

/* Result of a register operation (mov, arithmetic, setp, selp). */
uint32_t lit_alu(const struct lit_ins *in, const uint32_t *regs);
/* New memory value of an atomic that read old; *writes = 0 for a failed CAS. */
uint32_t lit_atom_new(const struct lit_ins *in, uint32_t old, const uint32_t *regs, int *writes);

#endif
