/* Litmus-IR register operations and atomics on the SIMT lane's ALU. */
#include "config.h"
#include "machines/litmus_alu.h"

#include "machines/alu.h"

uint32_t lit_alu(const struct lit_ins *in, const uint32_t *regs)
{
	uint32_t a = lit_opnd_val(&in->a, regs), b = lit_opnd_val(&in->b, regs);
	if (in->op == OP_SETP)
		return (uint32_t)alu_cmp(in->cmp, in->type, a, b);
	/* the litmus front end admits no division: nothing can fault */
	int fault = 0;
	return alu_op(in->op, in->type, a, b, lit_opnd_val(&in->c, regs), &fault);
}

uint32_t lit_atom_new(const struct lit_ins *in, uint32_t old, const uint32_t *regs, int *writes)
{
	uint32_t b = lit_opnd_val(&in->b, regs), c = lit_opnd_val(&in->c, regs);
	*writes = in->aop != AT_CAS || old == b;
	return alu_atomic(in->aop, in->type, old, b, c);
}
