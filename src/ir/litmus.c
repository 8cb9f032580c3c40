/*
** The litmus IR's own facts: what a test owns, the numbering of its
** locations shared by every model, and the thread-local reading of an
** instruction's operands and guard.  Arithmetic is machines/alu.c's.
*/
#include "config.h"
#include "ir/litmus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

void litmus_clear(struct litmus *t)
{
	for (int i = 0; i < t->nthreads; i++)
		for (int j = 0; j < t->thr[i].nins; j++)
			free(t->thr[i].ins[j].text);
	expr_free(t->cond);
	free(t->cond_text);
	free(t->file);
}

void litmus_free(struct litmus *t)
{
	if (!t)
		return;
	litmus_clear(t);
	free(t);
}

int litmus_lookup(const struct litmus *t, int tid, const char *name,
                  enum vtype *type, struct strbuf *err)
{
	*type = VT_S32;
	if (tid < 0) {
		for (int l = 0; l < t->nlocs; l++)
			if (strcmp(t->loc[l].name, name) == 0)
				return l;
		sb_printf(err, "unknown location %s", name);
		return -1;
	}
	for (int i = 0; i < t->nthreads; i++) {
		if (t->thr[i].id != tid)
			continue;
		const struct lit_thread *th = &t->thr[i];
		const char *n = name[0] == '%' ? name + 1 : name;
		for (int r = 0; r < th->nregs; r++) {
			const char *m = th->regname[r][0] == '%' ? th->regname[r] + 1 : th->regname[r];
			if (strcmp(m, n) == 0) {
				if (th->regpred[r])
					*type = VT_PRED;
				return t->nlocs + i * LIT_MAXR + r;
			}
		}
		sb_printf(err, "T%d has no register %s", tid, name);
		return -1;
	}
	sb_printf(err, "no thread T%d", tid);
	return -1;
}

int litmus_lookup_at(const struct litmus *t, int tid, const char *name, long index,
                     enum vtype *type, struct strbuf *err)
{
	if (index < 0)
		return litmus_lookup(t, tid, name, type, err);
	char full[64];
	snprintf(full, sizeof full, "%s[%ld]", name, index);
	return litmus_lookup(t, tid, full, type, err);
}

void litmus_loc_name(const struct litmus *t, int loc, struct strbuf *out)
{
	if (loc < t->nlocs) {
		sb_puts(out, t->loc[loc].name);
		return;
	}
	int i = (loc - t->nlocs) / LIT_MAXR, r = (loc - t->nlocs) % LIT_MAXR;
	sb_printf(out, "%d:%s", t->thr[i].id, t->thr[i].regname[r]);
}

int litmus_addr_loc(const struct litmus *t, uint32_t v)
{
	if (v < LIT_ADDR_BASE || (v - LIT_ADDR_BASE) % LIT_ADDR_STRIDE)
		return -1;
	uint32_t i = (v - LIT_ADDR_BASE) / LIT_ADDR_STRIDE;
	return i < (uint32_t)t->nlocs ? (int)i : -1;
}

enum vtype litmus_loc_type(const struct litmus *t, int loc)
{
	if (loc < t->nlocs)
		return VT_S32;
	int i = (loc - t->nlocs) / LIT_MAXR, r = (loc - t->nlocs) % LIT_MAXR;
	return t->thr[i].regpred[r] ? VT_PRED : VT_S32;
}

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
	return in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM;
}
