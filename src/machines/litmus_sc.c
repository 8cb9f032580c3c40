/*
** Sequential consistency for litmus tests (the strongest reference model).
** State: per thread pc and registers; memory row 0 global, row 1+c the
** shared memory of CTA c; a fault byte.
*/
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "machines/litmus_alu.h"
#include "machines/litmus_sc.h"
#include "util/strbuf.h"

enum { K_STEP = ACT_MODEL };

struct sc {
	const struct litmus *t;
	int nt, nl, nr;
	size_t tsize, o_mem, o_fault;
};

static uint32_t g32(const uint8_t *sv, size_t o) { uint32_t v; memcpy(&v, sv + o, 4); return v; }
static void s32(uint8_t *sv, size_t o, uint32_t v) { memcpy(sv + o, &v, 4); }

#define PC(q, t) ((size_t)(t) * (q)->tsize)
#define REG(q, t, r) ((size_t)(t) * (q)->tsize + 4 + 4 * (size_t)(r))
#define MEM(q, row, l) ((q)->o_mem + ((size_t)(row) * (q)->nl + (size_t)(l)) * 4)

static int row_of(const struct sc *q, int t, int l)
{
	return q->t->loc[l].region == SP_SHARED ? 1 + q->t->thr[t].cta : 0;
}

static void sc_init(const struct model *m, uint8_t *sv)
{
	const struct sc *q = m->priv;
	memset(sv, 0, m->sv_size);
	for (int i = 0; i < q->nt; i++)
		for (int r = 0; r < q->t->thr[i].nregs; r++)
			s32(sv, REG(q, i, r), q->t->thr[i].reginit[r]);
	for (int row = 0; row <= q->t->nctas; row++)
		for (int l = 0; l < q->nl; l++)
			s32(sv, MEM(q, row, l), q->t->loc[l].init);
}

static unsigned sc_enabled(const struct model *m, const uint8_t *sv, struct action *out)
{
	const struct sc *q = m->priv;
	unsigned n = 0;
	if (sv[q->o_fault])
		return 0;
	for (int t = 0; t < q->nt; t++)
		if (sv[PC(q, t)] < q->t->thr[t].nins) {
			out[n].kind = K_STEP;
			out[n].unit = (uint16_t)t;
			out[n].subject = 0;
			out[n].arg = 0;
			n++;
		}
	return n;
}

static void sc_apply(const struct model *m, uint8_t *sv, const struct action *a)
{
	const struct sc *q = m->priv;
	int t = a->unit;
	int pc = sv[PC(q, t)];
	const struct lit_ins *in = &q->t->thr[t].ins[pc];
	uint32_t regs[LIT_MAXR];
	for (int r = 0; r < q->nr; r++)
		regs[r] = g32(sv, REG(q, t, r));
	sv[PC(q, t)] = (uint8_t)(pc + 1);
	if (!lit_guard(in, regs) || in->op == OP_MEMBAR)
		return;
	if (!lit_is_mem(in)) {
		s32(sv, REG(q, t, in->dst), lit_alu(in, regs));
		return;
	}
	int l = litmus_addr_loc(q->t, lit_opnd_val(&in->addr, regs));
	if (l < 0) {
		sv[q->o_fault] = (uint8_t)(pc + 1);
		return;
	}
	size_t mo = MEM(q, row_of(q, t, l), l);
	uint32_t old = g32(sv, mo);
	if (in->op == OP_LD) {
		s32(sv, REG(q, t, in->dst), old);
	} else if (in->op == OP_ST) {
		s32(sv, mo, lit_opnd_val(&in->a, regs));
	} else {
		int writes;
		uint32_t nv = lit_atom_new(in, old, regs, &writes);
		if (in->dst >= 0) /* red has none */
			s32(sv, REG(q, t, in->dst), old);
		if (writes)
			s32(sv, mo, nv);
	}
}

static enum model_status sc_status(const struct model *m, const uint8_t *sv)
{
	const struct sc *q = m->priv;
	if (sv[q->o_fault])
		return MS_FAULT;
	for (int t = 0; t < q->nt; t++)
		if (sv[PC(q, t)] < q->t->thr[t].nins)
			return MS_RUNNING;
	return MS_TERMINAL;
}

static void sc_describe(const struct model *m, const uint8_t *sv, const struct action *a,
                        struct strbuf *out)
{
	const struct sc *q = m->priv;
	const struct lit_thread *th = &q->t->thr[a->unit];
	sb_printf(out, "T%d %s", th->id, th->ins[sv[PC(q, a->unit)]].text);
}

static void sc_print_state(const struct model *m, const uint8_t *sv, struct strbuf *out)
{
	const struct sc *q = m->priv;
	for (int i = 0; i < q->nt; i++) {
		sb_printf(out, "T%d pc=%d", q->t->thr[i].id, sv[PC(q, i)]);
		for (int r = 0; r < q->t->thr[i].nregs; r++)
			sb_printf(out, " %s=%u", q->t->thr[i].regname[r], g32(sv, REG(q, i, r)));
		sb_putc(out, '\n');
	}
	sb_puts(out, "memory:");
	for (int l = 0; l < q->nl; l++)
		sb_printf(out, " %s=%u", q->t->loc[l].name, g32(sv, MEM(q, row_of(q, 0, l), l)));
	sb_putc(out, '\n');
}

static int sc_lookup(const struct model *m, int tid, const char *name, long index,
                     enum vtype *type, unsigned *count, struct strbuf *err)
{
	*count = 1;
	const struct sc *q = m->priv;
	if (index >= 0) {
		sb_printf(err, "litmus locations have no index");
		return -1;
	}
	return litmus_lookup(q->t, tid, name, type, err);
}

static uint32_t sc_read(const struct model *m, const uint8_t *sv, int loc)
{
	const struct sc *q = m->priv;
	if (loc < q->nl)
		return g32(sv, MEM(q, row_of(q, 0, loc), loc));
	int i = (loc - q->nl) / LIT_MAXR, r = (loc - q->nl) % LIT_MAXR;
	return g32(sv, REG(q, i, r));
}

static void sc_loc_name(const struct model *m, int loc, struct strbuf *out)
{
	const struct sc *q = m->priv;
	litmus_loc_name(q->t, loc, out);
}

static enum vtype sc_loc_type(const struct model *m, int loc)
{
	const struct sc *q = m->priv;
	return litmus_loc_type(q->t, loc);
}

static void sc_destroy(struct model *m)
{
	free(m->priv);
	free(m);
}

struct model *litmus_sc_model(const struct litmus *t, struct strbuf *err)
{
	(void)err;
	struct sc *q = xcalloc(1, sizeof *q);
	q->t = t;
	q->nt = t->nthreads;
	q->nl = t->nlocs;
	for (int i = 0; i < q->nt; i++)
		if (t->thr[i].nregs > q->nr)
			q->nr = t->thr[i].nregs;
	q->tsize = 4 + 4 * (size_t)q->nr;
	q->o_mem = q->tsize * (size_t)q->nt;
	q->o_fault = q->o_mem + 4 * (size_t)q->nl * (size_t)(t->nctas + 1);
	struct model *m = xcalloc(1, sizeof *m);
	m->name = "sc";
	m->sv_size = q->o_fault + 4;
	m->max_actions = (unsigned)q->nt + 1;
	m->priv = q;
	m->init = sc_init;
	m->enabled = sc_enabled;
	m->apply = sc_apply;
	m->status = sc_status;
	m->describe = sc_describe;
	m->print_state = sc_print_state;
	m->lookup = sc_lookup;
	m->read = sc_read;
	m->loc_name = sc_loc_name;
	m->loc_type = sc_loc_type;
	m->destroy = sc_destroy;
	return m;
}
