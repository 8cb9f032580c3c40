/*
** Kernel specs on a weak GPU memory: -D memory=ics13 (or ics13-fixed)
** replaces the SC memory of the baseline machine by the per-thread
** address-queue memory of the litmus work (addrqueue.c, thesis §5.4).
**
** The kernel is translated into one litmus thread per GPU thread (CTA and
** warp placement kept as the scope tree).  Each thread's copy is
** specialised: special registers (%tid, %ctaid, ...) are constants, and
** every value computed only from constants is folded, so addresses such as
** [a + 4*%tid] become fixed locations.  What the address-queue machine
** cannot express is an input error naming the instruction: branches and
** barriers (litmus threads are straight-line and predicated), addresses
** that depend on loaded values, f32, operations on loaded values outside
** the litmus instruction set (ir/ptx.c), shared memory, and more than 8
** threads, 8 words or 24 memory/ALU instructions per thread.  The decoded
** modifiers carry over unchanged, the cache operator included (ld.ca may
** hit a stale L1 under ics13-fixed).  Properties are then checked by the
** same explorer as every machine.
*/
#include "config.h"
#include "machines/weakmem.h"

#include <stdlib.h>
#include <string.h>

#include "ir/litmus.h"
#include "ir/ptx.h"
#include "machines/addrqueue.h"
#include "machines/alu.h"
#include "util/strbuf.h"

/* The translated test lives as long as the model: addrqueue.c keeps a
** pointer to it (t must stay the first member: wm_destroy finds the
** struct from that pointer). */
struct wm {
	struct litmus t;
	void (*destroy)(struct model *m); /* the address-queue machine's */
};

static uint32_t special_value(const struct gpu_cfg *c, unsigned gtid, int sr)
{
	unsigned tpw = c->threads_per_warp, ntid = c->warps_per_cta * tpw;
	unsigned cta = gtid / ntid, tid = gtid % ntid;
	switch (sr) {
	case SR_TID: return tid;
	case SR_NTID: return ntid;
	case SR_CTAID: return cta;
	case SR_NCTAID: return c->ctas;
	case SR_LANEID: return tid % tpw;
	case SR_WARPID: return tid / tpw;
	case SR_NWARPID: return c->warps_per_cta;
	case SR_SMID: return cta % c->sms;
	case SR_GTID: return gtid;
	case SR_GWARPID: return gtid / tpw;
	case SR_WARPSZ: return tpw;
	}
	return 0;
}

/* Make litmus thread th hold v, the folded value of register r: as its
** initial value while no emitted instruction has written r (none reads
** it before: reads of a known register are folded), else by a mov
** (placed at in's line, or the thread's end).  -1 when the thread is full. */
static int materialise(struct lit_thread *th, int r, uint32_t v, const int *written, int *stale,
                       const struct instr *in)
{
	if (!written[r]) {
		th->reginit[r] = v;
		return 0;
	}
	if (!stale[r])
		return 0;
	if (th->nins == LIT_MAXI)
		return -1;
	struct lit_ins *li = &th->ins[th->nins++];
	memset(li, 0, sizeof *li);
	li->op = OP_MOV;
	li->type = VT_U32;
	li->pred = -1;
	li->dst = r;
	li->a = (struct lit_opnd){ OK_IMM, 0, v, 0 };
	li->line = in ? in->line : 0;
	struct strbuf b;
	sb_init(&b);
	sb_printf(&b, "mov.u32 %s, %u (the folded value)", th->regname[r], v);
	li->text = xstrdup(sb_str(&b));
	sb_free(&b);
	stale[r] = 0;
	return 0;
}

static void free_test(struct wm *w)
{
	litmus_clear(&w->t);
	free(w);
}

static void release(struct litmus *t)
{
	free_test((struct wm *)(uintptr_t)t);
}

/* memory=ptx judges final outcomes only: what needs intermediate states
** or crashes is an error at the property. */
static int refused_props(const struct spec *s, struct diag *d)
{
	int bad = 0;
	for (int k = 0; k < s->nprops; k++) {
		const struct spec_prop *sp = &s->props[k];
		const char *why = NULL;
		switch (sp->p.kind) {
		case P_INVARIANT:
			why = "the PTX model is axiomatic: it has final outcomes, no intermediate states";
			break;
		case P_RECOVERABLE:
		case P_PERSISTED:
		case P_DURABLE:
		case P_IDEMPOTENT:
			why = "the PTX model has no crashes or persistence domain (machine persist)";
			break;
		case P_REFINES:
		case P_EQUALS:
			why = "the reference machine takes the spec's parameters, memory=ptx included, so it "
			      "would compare the PTX outcomes with themselves (compare with a -D memory=sc run)";
			break;
		case P_COMM_RACE:
			why = "commutative races belong to machine lab; race_free checks PTX data races";
			break;
		default:
			break;
		}
		if (why) {
			diag_at(d, s->path, sp->line, sp->col, "memory=ptx: '%s' cannot be checked: %s",
			        prop_kind_name(sp->p.kind), why);
			bad = 1;
		}
	}
	return bad;
}

static void wm_destroy(struct model *m)
{
	struct wm *w = (struct wm *)(uintptr_t)addrqueue_test(m);
	w->destroy(m);
	free_test(w);
}

struct model *weakmem_build(const struct spec *s, const struct gpu_cfg *c, struct diag *d)
{
	const struct program *p = &s->prog;
	unsigned nthreads = c->ctas * c->warps_per_cta * c->threads_per_warp;
	static const char *const names[] = { "sc", "ics13", "ics13-fixed", "ptx" };
	const char *mname = names[c->memory];
	int ptx = c->memory == 3;
#define FAIL(line, ...) do { diag_at(d, s->path, line, 1, __VA_ARGS__); goto fail; } while (0)
	struct wm *w = xcalloc(1, sizeof *w);
	struct litmus *t = &w->t;
	t->file = xstrdup(s->path);
	snprintf(t->name, sizeof t->name, "%s", s->name);
	snprintf(t->arch, sizeof t->arch, "GPU_PTX");
	t->has_scope = 1;
	t->nctas = (int)c->ctas;
	if (ptx && refused_props(s, d))
		goto fail;
	if (nthreads > LIT_MAXT)
		FAIL(0, "memory=%s: at most %d threads (the grid has %u)", mname, LIT_MAXT, nthreads);
	if (p->uses_shared)
		FAIL(0, "memory=%s: shared memory is not supported; use global variables", mname);
	if (p->nregs > LIT_MAXR)
		FAIL(0, "memory=%s: at most %d registers (the kernel declares %d)", mname, LIT_MAXR, p->nregs);
	/* locations: every global word */
	for (int k = 0; k < p->nsyms; k++) {
		const struct symbol *sy = &p->syms[k];
		for (uint32_t e = 0; e < sy->nelems; e++) {
			if (t->nlocs == LIT_MAXL)
				FAIL(sy->line, "memory=%s: at most %d global words", mname, LIT_MAXL);
			struct lit_loc *l = &t->loc[t->nlocs++];
			if (sy->is_array)
				snprintf(l->name, sizeof l->name, "%.8s[%u]", sy->name, e & 0xff);
			else
				snprintf(l->name, sizeof l->name, "%.15s", sy->name);
			l->region = SP_GLOBAL;
			l->init = sy->init[e];
			l->mapped = 1;
		}
	}
	for (unsigned g = 0; g < nthreads; g++) {
		struct lit_thread *th = &t->thr[t->nthreads++];
		th->id = (int)g;
		th->cta = (int)(g / (c->warps_per_cta * c->threads_per_warp));
		th->warp = (int)(g / c->threads_per_warp);
		th->nregs = p->nregs;
		for (int r = 0; r < p->nregs; r++) {
			snprintf(th->regname[r], sizeof th->regname[r], "%s", p->regs[r].name);
			th->regpred[r] = p->regs[r].type == VT_PRED;
		}
		int known[LIT_MAXR] = { 0 };
		uint32_t val[LIT_MAXR] = { 0 };
		/* written: an emitted instruction wrote the register, so the
		** litmus thread holds it from then on; stale: it was folded
		** since, and the litmus thread does not hold val[r] */
		int written[LIT_MAXR] = { 0 }, stale[LIT_MAXR] = { 0 };
		for (int r = 0; r < p->nregs; r++)
			known[r] = 1; /* registers start at 0 */
		for (int i = 0; i < p->nins; i++) {
			const struct instr *in = &p->ins[i];
			if (in->op == OP_BRA || in->op == OP_BAR)
				FAIL(in->line, "memory=%s: '%s' -- kernels must be straight-line (predication only)", mname, in->text);
			if (in->type == VT_F32 && in->op != OP_MEMBAR)
				FAIL(in->line, "memory=%s: '%s' -- f32 is not supported", mname, in->text);
			/* the guard, folded when its predicate is known */
			int pred = -1, pneg = 0;
			if (in->pred >= 0) {
				if (known[in->pred]) {
					if ((val[in->pred] != 0) == in->pred_neg)
						continue; /* never executes in this thread */
				} else {
					pred = in->pred;
					pneg = in->pred_neg;
				}
			}
			struct lit_opnd op[3];
			int all_known = 1;
			for (int k = 0; k < 3; k++) {
				const struct operand *o = &in->src[k];
				memset(&op[k], 0, sizeof op[k]);
				if (o->kind == O_REG && !known[o->reg]) {
					op[k] = (struct lit_opnd){ OK_REG, o->reg, 0, 0 };
					all_known = 0;
				} else if (o->kind != O_NONE) {
					uint32_t v = o->kind == O_REG ? val[o->reg] : o->kind == O_IMM ? o->imm
					             : o->kind == O_SPECIAL ? special_value(c, g, o->special)
					                                    : p->syms[o->sym].base;
					op[k] = (struct lit_opnd){ OK_IMM, 0, v, 0 };
				}
			}
			if (in->op == OP_EXIT) {
				if (pred >= 0 || i + 1 < p->nins)
					FAIL(in->line, "memory=%s: '%s' -- exit only at the end", mname, in->text);
				break;
			}
			/* a guarded write whose guard is off keeps the folded value */
			if (pred >= 0 && in->dst >= 0 && known[in->dst] &&
			    materialise(th, in->dst, val[in->dst], written, stale, in))
				FAIL(in->line, "memory=%s: more than %d instructions in a thread", mname, LIT_MAXI);
			if (in->op == OP_NOP)
				continue;
			if (in->width)
				FAIL(in->line, "memory=%s: '%s' -- byte stores are not modelled (words only)", mname, in->text);
			if (th->nins == LIT_MAXI)
				FAIL(in->line, "memory=%s: more than %d instructions in a thread", mname, LIT_MAXI);
			struct lit_ins li;
			memset(&li, 0, sizeof li);
			li.pred = pred;
			li.pred_neg = pneg;
			li.dst = -1;
			li.line = in->line;
			li.col = in->col;
			/* the decoded opcode and modifiers carry over unchanged:
			   the litmus IR speaks the kernel IR's vocabulary */
			li.op = in->op;
			li.type = in->type;
			li.cmp = in->cmp;
			li.aop = in->aop;
			li.scope = in->scope;
			li.sem = in->sem;
			li.cache = in->cache;
			li.vol = in->vol;
			if (in->op == OP_SFENCE && ptx)
				FAIL(in->line, "memory=ptx: '%s' -- a persistency fence, outside the PTX memory model "
				     "(use fence.sc or fence.acq_rel)", in->text);
			if (in->op == OP_MEMBAR || in->op == OP_SFENCE) {
				li.op = OP_MEMBAR;
			} else if (in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED) {
				/* the address must be a constant in this thread */
				if (in->addr.reg >= 0 && !known[in->addr.reg])
					FAIL(in->line, "memory=%s: '%s' -- the address depends on a loaded value", mname, in->text);
				uint32_t a = (uint32_t)in->addr.offset + (in->addr.sym >= 0 ? p->syms[in->addr.sym].base : 0) +
				             (in->addr.reg >= 0 ? val[in->addr.reg] : 0);
				if (a % 4 || a / 4 >= (uint32_t)t->nlocs)
					FAIL(in->line, "memory=%s: '%s' -- thread %u addresses byte %u, outside the variables", mname,
					     in->text, g, a);
				li.addr = (struct lit_opnd){ OK_LOC, 0, 0, (int)(a / 4) };
				if (in->op == OP_ST) {
					li.a = op[0];
				} else if (in->op != OP_LD) {
					li.op = OP_ATOM; /* red: an atom without a destination */
					li.b = op[0];
					li.c = op[1];
				}
				li.dst = in->op == OP_RED ? -1 : in->dst;
				if (li.dst >= 0)
					known[li.dst] = 0, written[li.dst] = 1, stale[li.dst] = 0;
			} else {
				/* register arithmetic: folded when every input is known */
				if (all_known && pred < 0) {
					int fault = 0;
					uint32_t v = alu_exec(in, op[0].imm, op[1].imm, op[2].imm, &fault);
					if (fault)
						FAIL(in->line, "memory=%s: '%s' divides by zero in thread %u", mname, in->text, g);
					known[in->dst] = 1;
					val[in->dst] = v;
					stale[in->dst] = 1;
					continue;
				}
				if (!ptx_litmus_op(in->op))
					FAIL(in->line, "memory=%s: '%s' -- on a loaded value only what a litmus thread "
					     "computes (%s)", mname, in->text, ptx_litmus_ops());
				li.dst = in->dst;
				li.a = op[0];
				li.b = op[1];
				li.c = op[2];
				known[in->dst] = 0, written[in->dst] = 1, stale[in->dst] = 0;
			}
			li.text = xstrdup(in->text);
			th->ins[th->nins++] = li;
		}
		/* the final registers the properties read: folded values too */
		for (int r = 0; r < p->nregs; r++)
			if (known[r] && materialise(th, r, val[r], written, stale, NULL))
				FAIL(0, "memory=%s: more than %d instructions in thread %u", mname, LIT_MAXI, g);
	}
	struct strbuf err;
	sb_init(&err);
	if (ptx) {
		struct model *m = weakmem_ptx_model(t, release, &err);
		if (!m)
			diag_at(d, s->path, 0, 0, "memory=ptx: %s", sb_str(&err));
		sb_free(&err);
		return m; /* t is the model's, or freed */
	}
	struct aq_params prm;
	if (c->memory == 1)
		aq_params_ics13(&prm);
	else
		aq_params_fixed(&prm, NULL);
	struct model *m = addrqueue_model(t, &prm, &err);
	if (!m) {
		diag_at(d, s->path, 0, 0, "memory=%s: %s", mname, sb_str(&err));
		sb_free(&err);
		goto fail;
	}
	sb_free(&err);
	w->destroy = m->destroy;
	m->destroy = wm_destroy;
	return m;
fail:
	free_test(w);
	return NULL;
#undef FAIL
}
