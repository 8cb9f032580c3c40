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
/* An operand's value in every lane of a warp, decided once per issue
** rather than once per lane: lane l reads base + (r ? r[l] : step * l).
** A register is its row (base 0); an immediate, a symbol or a special
** register uniform across the warp has step 0; %tid, %laneid and %gtid
** step 1; an address [sym + reg + offset] is base sym + offset, r the
** register's row. */
/* Four lanes at once (GCC's and clang's vector extension): a whole
** warp's lanes in eight vector steps, not 32 scalar (alu.c's stepping
** sources, warp.c's guards and addresses, memory.c's tests). */
typedef uint32_t lanes4 __attribute__((vector_size(16)));

struct alu_lanes {
	const uint32_t *r;
	uint32_t base, step;
};
static inline uint32_t alu_lane(const struct alu_lanes *x, unsigned l)
{
	return x->base + (x->r ? x->r[l] : x->step * l);
}
/* Register instruction `in` in the lanes of mask m, in lane order, from
** source values src[0..2], writing dst[l] (dst may be a source's row: a
** lane reads its own sources before writing).  Returns 0, or the fault of
** the first faulting lane with the lanes before it written: exactly
** alu_exec lane by lane (t/unit.c compares the two on random
** instructions). */
int alu_lanes_exec(const struct instr *in, uint32_t m, const struct alu_lanes src[3], uint32_t *dst);
/* alu_lanes_exec's loop for register instruction `in`, chosen once for
** its opcode, type and comparison (warp.c decodes each instruction at
** layout): sources a and c in lanes (those of m at least; all 32 when m
** is full), b too or, where b_uniform, its one value b[0]. */
typedef int (*alu_kernel)(const struct instr *in, uint32_t m, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                          uint32_t *dst);
alu_kernel alu_kernel_of(const struct instr *in, int b_uniform);
/* New memory value of an atomic (the old value is what atom returns). */
uint32_t alu_atomic(enum atom_op op, enum vtype t, uint32_t old, uint32_t b, uint32_t c);

#endif
