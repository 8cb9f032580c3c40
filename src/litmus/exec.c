#include "config.h"
#include "litmus/exec.h"

#include "machines/alu.h"

_Static_assert((int)CMP_EQ == (int)C_EQ && (int)CMP_LT == (int)C_LT && (int)CMP_GE == (int)C_GE,
               "lit_cmp and cmp_op list the comparisons in the same order");

uint32_t lit_opnd_val(const struct lit_opnd *o, const uint32_t *regs)
{
	switch (o->kind) {
	case OK_REG: return regs[o->reg];
	case OK_IMM: return o->imm;
	case OK_LOC: return LIT_ADDR(o->loc);
	default: return 0;
	}
}

int lit_guard(const struct lit_ins *in, const uint32_t *regs)
{
	if (in->pred < 0)
		return 1;
	return (regs[in->pred] != 0) != (in->pred_neg != 0);
}

uint32_t lit_alu(const struct lit_ins *in, const uint32_t *regs)
{
	uint32_t a = lit_opnd_val(&in->a, regs), b = lit_opnd_val(&in->b, regs);
	if (in->op == LI_MOV)
		return a;
	if (in->op == LI_SETP)
		/* lit_cmp and cmp_op list the comparisons in the same order */
		return (uint32_t)alu_cmp((enum cmp_op)in->cmp, in->is_signed ? VT_S32 : VT_U32, a, b);
	switch (in->alu) {
	case AL_ADD: return a + b;
	case AL_SUB: return a - b;
	case AL_MUL: return a * b;
	case AL_XOR: return a ^ b;
	case AL_AND: return a & b;
	default: return a | b;
	}
}

uint32_t lit_atom_new(const struct lit_ins *in, uint32_t old, const uint32_t *regs, int *writes)
{
	uint32_t b = lit_opnd_val(&in->b, regs), c = lit_opnd_val(&in->c, regs);
	*writes = 1;
	switch (in->atom) {
	case LA_CAS:
		if (old != b) {
			*writes = 0;
			return old;
		}
		return c;
	case LA_EXCH: return b;
	default: return old + b;
	}
}

static unsigned opnd_mask(const struct lit_opnd *o)
{
	return o->kind == OK_REG ? 1u << o->reg : 0;
}

unsigned lit_srcs(const struct lit_ins *in)
{
	unsigned m = opnd_mask(&in->addr) | opnd_mask(&in->a) | opnd_mask(&in->b) | opnd_mask(&in->c);
	if (in->pred >= 0)
		m |= 1u << in->pred;
	return m;
}

int lit_is_mem(const struct lit_ins *in)
{
	return in->op == LI_LD || in->op == LI_ST || in->op == LI_ATOM;
}
