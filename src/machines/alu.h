/* Per-lane arithmetic: integer and IEEE single-precision, bit-exact. */
#ifndef GPUMC_ALU_H
#define GPUMC_ALU_H

#include <stdint.h>

#include "ir/program.h"

/* Result of op on a, b (c for mad/selp); *fault set to F_DIVZERO on x/0. */
uint32_t alu_op(enum opcode op, enum vtype t, uint32_t a, uint32_t b, uint32_t c, int *fault);
uint32_t alu_cvt(enum vtype dst, enum vtype src, uint32_t v, int round_nearest);
int alu_cmp(enum cmp_op c, enum vtype t, uint32_t a, uint32_t b);
/* The value a register instruction (arithmetic, cvt, setp) writes to its
** destination, from its source values a, b, c; *fault as for alu_op.
** Inline: the warp machine calls it per lane. */
static inline uint32_t alu_exec(const struct instr *in, uint32_t a, uint32_t b, uint32_t c, int *fault)
{
	if (in->op == OP_CVT)
		return alu_cvt(in->type, in->stype, a, in->cmp);
	if (in->op == OP_SETP)
		return (uint32_t)alu_cmp(in->cmp, in->type, a, b);
	return alu_op(in->op, in->type, a, b, c, fault);
}
/* New memory value of an atomic (the old value is what atom returns). */
uint32_t alu_atomic(enum atom_op op, enum vtype t, uint32_t old, uint32_t b, uint32_t c);

#endif
