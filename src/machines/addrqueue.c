/*
** The ICS'13 address-queue memory model as a struct model (thesis §5.4).
**
** State vector, per thread: pc, register file, the set of registers awaiting
** a load, one FIFO per address (loads, stores, atomics, fence markers), the
** load array, the thread's view of memory, and for each address the last
** store it performed with the set of threads that have not yet received it
** (LM = a same-CTA bit is set, GM = an other-CTA bit is set).  Globally:
** the coherent memory (row 0 global, row 1+c shared memory of CTA c), the
** per-CTA L1 lines of the Fermi profile, and a fault flag.
**
** All fields are reached through memcpy accessors: the explorer may store
** vectors unaligned.
*/
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "machines/litmus_alu.h"
#include "machines/addrqueue.h"
#include "util/strbuf.h"

enum { QE_NONE, QE_LD, QE_ST, QE_ATOM, QE_FENCE };
enum { QF_BOUND = 1 };     /* entry flags                            */
enum { NOSRC = 0xff };     /* view source: the initial value          */

/* One queue or load-array entry (16 bytes in the vector). */
enum { NO_REG = 0xff }; /* qent.reg of red: no register waits */
struct qent {
	uint8_t kind, reg, po, flags, loc, fence, pad[2];
	uint32_t val, val2;  /* store value / atomic operands / bound snapshot */
};

/* A thread's view of one location: the value and which store wrote it. */
struct vcell {
	uint32_t val;
	uint8_t src_t, src_po, pad[2];
};

/* The last store a thread performed to a location, while undistributed. */
struct wcell {
	uint32_t val;
	uint8_t po, pending_mem, dst, pad;  /* dst: threads still to receive */
};

struct l1cell {
	uint32_t val;
	uint8_t valid, pad[3];
};

enum {
	K_ISSUE = ACT_MODEL, /* unit t                                      */
	K_PERFORM,           /* unit t, subject loc, arg: read source       */
	K_LALOAD,            /* unit t, subject la index, arg: read source  */
	K_FENCE,             /* unit t                                      */
	K_DELIVER,           /* unit writer, subject loc, arg destination   */
	K_L1FILL             /* unit cta, subject loc                       */
};

enum { SRC_VIEW, SRC_L1, SRC_SNAP }; /* where a load takes its value */

struct aq {
	const struct litmus *t;
	struct aq_params prm;
	int nt, nl, nr, Q, LA, nctas;
	size_t tsize;            /* bytes per thread block              */
	size_t o_regs, o_qlen, o_q, o_la, o_view, o_w; /* within a block */
	size_t o_thr, o_mem, o_l1, o_fault;
	uint8_t see[LIT_MAXT][LIT_MAXL]; /* threads a store by t to l goes to */
	uint8_t same_cta[LIT_MAXT];      /* other threads of t's CTA          */
	int ca_used[LIT_MAXL];
};

/* ---- accessors ------------------------------------------------------------ */

static size_t tb(const struct aq *q, int t) { return q->o_thr + (size_t)t * q->tsize; }

static uint8_t g8(const uint8_t *sv, size_t o) { return sv[o]; }
static void s8(uint8_t *sv, size_t o, uint8_t v) { sv[o] = v; }
static uint16_t g16(const uint8_t *sv, size_t o) { uint16_t v; memcpy(&v, sv + o, 2); return v; }
static void s16(uint8_t *sv, size_t o, uint16_t v) { memcpy(sv + o, &v, 2); }
static uint32_t g32(const uint8_t *sv, size_t o) { uint32_t v; memcpy(&v, sv + o, 4); return v; }
static void s32(uint8_t *sv, size_t o, uint32_t v) { memcpy(sv + o, &v, 4); }

#define PC(q, t) (tb(q, t) + 0)
#define NLA(q, t) (tb(q, t) + 1)
#define WAIT(q, t) (tb(q, t) + 2)
#define REG(q, t, r) (tb(q, t) + (q)->o_regs + 4 * (size_t)(r))
#define QLEN(q, t, l) (tb(q, t) + (q)->o_qlen + (size_t)(l))
#define QENT(q, t, l, i) (tb(q, t) + (q)->o_q + ((size_t)(l) * (q)->Q + (size_t)(i)) * sizeof(struct qent))
#define LAENT(q, t, i) (tb(q, t) + (q)->o_la + (size_t)(i) * sizeof(struct qent))
#define VIEW(q, t, l) (tb(q, t) + (q)->o_view + (size_t)(l) * sizeof(struct vcell))
#define WC(q, t, l) (tb(q, t) + (q)->o_w + (size_t)(l) * sizeof(struct wcell))
#define MEM(q, row, l) ((q)->o_mem + ((size_t)(row) * (q)->nl + (size_t)(l)) * 4)
#define L1(q, c, l) ((q)->o_l1 + ((size_t)(c) * (q)->nl + (size_t)(l)) * sizeof(struct l1cell))

static struct qent gent(const uint8_t *sv, size_t o) { struct qent e; memcpy(&e, sv + o, sizeof e); return e; }
static void sent(uint8_t *sv, size_t o, const struct qent *e) { memcpy(sv + o, e, sizeof *e); }
static struct vcell gview(const uint8_t *sv, size_t o) { struct vcell v; memcpy(&v, sv + o, sizeof v); return v; }
static void sview(uint8_t *sv, size_t o, const struct vcell *v) { memcpy(sv + o, v, sizeof *v); }
static struct wcell gw(const uint8_t *sv, size_t o) { struct wcell v; memcpy(&v, sv + o, sizeof v); return v; }
static void sw(uint8_t *sv, size_t o, const struct wcell *v) { memcpy(sv + o, v, sizeof *v); }
static struct l1cell gl1(const uint8_t *sv, size_t o) { struct l1cell v; memcpy(&v, sv + o, sizeof v); return v; }

static void regs_of(const struct aq *q, const uint8_t *sv, int t, uint32_t *regs)
{
	for (int r = 0; r < q->nr; r++)
		regs[r] = g32(sv, REG(q, t, r));
}

/* Memory row holding location l as seen by thread t. */
static int row_of(const struct aq *q, int t, int l)
{
	return q->t->loc[l].region == SP_SHARED ? 1 + q->t->thr[t].cta : 0;
}

/* ---- building ------------------------------------------------------------- */

void aq_params_ics13(struct aq_params *p)
{
	memset(p, 0, sizeof *p);
	p->load_array = 1;
}

void aq_params_fixed(struct aq_params *p, const char *chip)
{
	memset(p, 0, sizeof *p);
	p->load_array = 1;
	p->scoped_loads = 1;
	p->cumulative_gl = 1;
	/* Default: sound for every chip, so Fermi's incoherent L1 is on.
	** Kepler and Maxwell document L1 as disabled for global accesses. */
	p->l1 = !chip || strcmp(chip, "fermi") == 0;
}

static void aq_init(const struct model *m, uint8_t *sv)
{
	const struct aq *q = m->priv;
	const struct litmus *t = q->t;
	memset(sv, 0, m->sv_size);
	for (int i = 0; i < q->nt; i++) {
		for (int r = 0; r < t->thr[i].nregs; r++)
			s32(sv, REG(q, i, r), t->thr[i].reginit[r]);
		for (int l = 0; l < q->nl; l++) {
			struct vcell v = { t->loc[l].init, NOSRC, NOSRC, { 0, 0 } };
			sview(sv, VIEW(q, i, l), &v);
		}
	}
	for (int row = 0; row <= q->nctas; row++)
		for (int l = 0; l < q->nl; l++)
			s32(sv, MEM(q, row, l), t->loc[l].init);
}

/* ---- guards ---------------------------------------------------------------- */

/* po of the oldest pending fence of t, or -1. */
static int oldest_fence(const struct aq *q, const uint8_t *sv, int t, int *kind)
{
	if (q->nl == 0)
		return -1;
	int n = g8(sv, QLEN(q, t, 0));
	for (int i = 0; i < n; i++) {
		struct qent e = gent(sv, QENT(q, t, 0, i));
		if (e.kind == QE_FENCE) {
			if (kind)
				*kind = e.fence;
			return e.po;
		}
	}
	return -1;
}

static int all_done(const struct aq *q, const uint8_t *sv, int t)
{
	if (g8(sv, PC(q, t)) < q->t->thr[t].nins || g8(sv, NLA(q, t)))
		return 0;
	for (int l = 0; l < q->nl; l++) {
		if (g8(sv, QLEN(q, t, l)))
			return 0;
		struct wcell w = gw(sv, WC(q, t, l));
		if (w.dst || w.pending_mem)
			return 0;
	}
	return 1;
}

/* Can the issue step of t run?  (Registers ready, room in the queues.) */
static int issue_ok(const struct aq *q, const uint8_t *sv, int t)
{
	const struct lit_thread *th = &q->t->thr[t];
	int pc = g8(sv, PC(q, t));
	if (pc >= th->nins)
		return 0;
	const struct lit_ins *in = &th->ins[pc];
	unsigned wait = g16(sv, WAIT(q, t));
	if (in->pred >= 0 && (wait >> in->pred & 1))
		return 0;
	uint32_t regs[LIT_MAXR];
	regs_of(q, sv, t, regs);
	if (!lit_guard(in, regs))
		return 1;
	if (lit_srcs(in) & wait)
		return 0;
	if (in->dst >= 0 && (wait >> in->dst & 1))
		return 0; /* a later write must not be overtaken by a pending load */
	if (lit_is_mem(in)) {
		int l = litmus_addr_loc(q->t, lit_opnd_val(&in->addr, regs));
		if (l < 0)
			return 1; /* faults when applied */
		if (in->op == OP_LD && q->prm.load_array)
			return g8(sv, NLA(q, t)) < q->LA;
		return g8(sv, QLEN(q, t, l)) < q->Q;
	}
	if (in->op == OP_MEMBAR)
		for (int l = 0; l < q->nl; l++)
			if (g8(sv, QLEN(q, t, l)) >= q->Q)
				return 0;
	return 1;
}

/* May a load entry of t take its value from src now? */
static int load_src_ok(const struct aq *q, const uint8_t *sv, int t, const struct qent *e, int src)
{
	const struct lit_ins *in = &q->t->thr[t].ins[e->po];
	switch (src) {
	case SRC_VIEW:
		if (e->flags & QF_BOUND) {
			/* a load that stayed pending past membar.cta reads only a
			** value written outside its CTA (or the initial one) */
			struct vcell v = gview(sv, VIEW(q, t, e->loc));
			return v.src_t == NOSRC || q->t->thr[v.src_t].cta != q->t->thr[t].cta;
		}
		return 1;
	case SRC_L1: {
		if (!q->prm.l1 || in->cache != CO_CA || q->t->loc[e->loc].region != SP_GLOBAL)
			return 0;
		struct l1cell c = gl1(sv, L1(q, q->t->thr[t].cta, e->loc));
		return c.valid;
	}
	default:
		return (e->flags & QF_BOUND) != 0;
	}
}

/* A load-array entry may not pass an older fence, nor an older store or
** atomic to its own address (a thread reads its own writes). */
static int la_ready(const struct aq *q, const uint8_t *sv, int t, const struct qent *e)
{
	int f = oldest_fence(q, sv, t, NULL);
	if (f >= 0 && f < e->po)
		return 0;
	int n = g8(sv, QLEN(q, t, e->loc));
	for (int i = 0; i < n; i++) {
		struct qent o = gent(sv, QENT(q, t, e->loc, i));
		if ((o.kind == QE_ST || o.kind == QE_ATOM) && o.po < e->po)
			return 0;
	}
	return 1;
}

/* Fence at the head of every queue (membar.cta in the fixed model may
** leave older loads in front of it), and no older load-array entry. */
static int fence_ok(const struct aq *q, const uint8_t *sv, int t)
{
	int kind = SC_GL;
	int f = oldest_fence(q, sv, t, &kind);
	if (f < 0)
		return 0;
	int pass_loads = q->prm.scoped_loads && kind == SC_CTA;
	for (int l = 0; l < q->nl; l++) {
		int n = g8(sv, QLEN(q, t, l));
		for (int i = 0; i < n; i++) {
			struct qent e = gent(sv, QENT(q, t, l, i));
			if (e.kind == QE_FENCE)
				break;
			if (!(pass_loads && e.kind == QE_LD))
				return 0;
		}
	}
	if (!pass_loads) {
		int n = g8(sv, NLA(q, t));
		for (int i = 0; i < n; i++)
			if (gent(sv, LAENT(q, t, i)).po < f)
				return 0;
	}
	return 1;
}

static int atom_ok(const struct aq *q, const uint8_t *sv, int t, int l)
{
	/* atomics act at the coherence point: own earlier store must be there */
	struct wcell w = gw(sv, WC(q, t, l));
	return w.dst == 0 && !w.pending_mem;
}

static int deliver_ok(const struct aq *q, const uint8_t *sv, int t, int l, int u)
{
	struct wcell w = gw(sv, WC(q, t, l));
	if (!(w.dst >> u & 1))
		return 0;
	/* nothing leaves the CTA before the CTA has it (LM without GM is invalid) */
	if (!(q->same_cta[t] >> u & 1) && (w.dst & q->same_cta[t]))
		return 0;
	return 1;
}

static int cta_running(const struct aq *q, const uint8_t *sv, int c)
{
	for (int t = 0; t < q->nt; t++)
		if (q->t->thr[t].cta == c && !all_done(q, sv, t))
			return 1;
	return 0;
}

static unsigned aq_enabled(const struct model *m, const uint8_t *sv, struct action *out)
{
	const struct aq *q = m->priv;
	unsigned n = 0;
	if (g8(sv, q->o_fault))
		return 0;
#define ADD(k, u, s, a) do { out[n].kind = (k); out[n].unit = (uint16_t)(u); \
	out[n].subject = (uint32_t)(s); out[n].arg = (uint32_t)(a); n++; } while (0)
	for (int t = 0; t < q->nt; t++) {
		if (issue_ok(q, sv, t))
			ADD(K_ISSUE, t, 0, 0);
		for (int l = 0; l < q->nl; l++) {
			if (!g8(sv, QLEN(q, t, l)))
				continue;
			struct qent e = gent(sv, QENT(q, t, l, 0));
			if (e.kind == QE_ST || (e.kind == QE_ATOM && atom_ok(q, sv, t, l)))
				ADD(K_PERFORM, t, l, SRC_VIEW);
			else if (e.kind == QE_LD)
				for (int s = SRC_VIEW; s <= SRC_SNAP; s++)
					if (load_src_ok(q, sv, t, &e, s))
						ADD(K_PERFORM, t, l, s);
		}
		int nla = g8(sv, NLA(q, t));
		for (int i = 0; i < nla; i++) {
			struct qent e = gent(sv, LAENT(q, t, i));
			if (!la_ready(q, sv, t, &e))
				continue;
			for (int s = SRC_VIEW; s <= SRC_SNAP; s++)
				if (load_src_ok(q, sv, t, &e, s))
					ADD(K_LALOAD, t, i, s);
		}
		if (fence_ok(q, sv, t))
			ADD(K_FENCE, t, 0, 0);
		for (int l = 0; l < q->nl; l++)
			for (int u = 0; u < q->nt; u++)
				if (deliver_ok(q, sv, t, l, u))
					ADD(K_DELIVER, t, l, u);
	}
	if (q->prm.l1)
		for (int c = 0; c < q->nctas; c++) {
			if (!cta_running(q, sv, c))
				continue;
			for (int l = 0; l < q->nl; l++) {
				if (!q->ca_used[l])
					continue;
				struct l1cell x = gl1(sv, L1(q, c, l));
				if (!x.valid || x.val != g32(sv, MEM(q, 0, l)))
					ADD(K_L1FILL, c, l, 0);
			}
		}
#undef ADD
	return n;
}

/* ---- effects ---------------------------------------------------------------- */

static void write_mem(const struct aq *q, uint8_t *sv, int t, int l, struct wcell *w)
{
	if (w->pending_mem) {
		s32(sv, MEM(q, row_of(q, t, l), l), w->val);
		w->pending_mem = 0;
	}
}

static void finish_w(uint8_t *sv, size_t o, struct wcell *w)
{
	if (!w->dst && !w->pending_mem)
		memset(w, 0, sizeof *w); /* canonical: nothing left to distribute */
	sw(sv, o, w);
}

static void deliver(const struct aq *q, uint8_t *sv, int t, int l, int u)
{
	struct wcell w = gw(sv, WC(q, t, l));
	struct vcell v = { w.val, (uint8_t)t, w.po, { 0, 0 } };
	sview(sv, VIEW(q, u, l), &v);
	w.dst &= (uint8_t)~(1u << u);
	/* the first delivery out of the CTA reaches the coherence point (D3) */
	if (!(q->same_cta[t] >> u & 1) || !w.dst)
		write_mem(q, sv, t, l, &w);
	finish_w(sv, WC(q, t, l), &w);
}

/* Deliver every pending destination of t's store to l within mask. */
static void flush(const struct aq *q, uint8_t *sv, int t, int l, unsigned mask)
{
	for (int pass = 0; pass < 2; pass++)
		for (int u = 0; u < q->nt; u++) {
			int same = q->same_cta[t] >> u & 1;
			if (same != (pass == 0))
				continue;
			struct wcell w = gw(sv, WC(q, t, l));
			if ((w.dst & mask) >> u & 1)
				deliver(q, sv, t, l, u);
		}
}

static void perform_store(const struct aq *q, uint8_t *sv, int t, int l, uint32_t val, int po)
{
	struct vcell v = { val, (uint8_t)t, (uint8_t)po, { 0, 0 } };
	sview(sv, VIEW(q, t, l), &v);
	struct wcell w = { val, (uint8_t)po, 1, q->see[t][l], 0 };
	if (!w.dst)
		write_mem(q, sv, t, l, &w);
	finish_w(sv, WC(q, t, l), &w);
}

static uint32_t load_value(const struct aq *q, const uint8_t *sv, int t, const struct qent *e, int src)
{
	switch (src) {
	case SRC_VIEW: return gview(sv, VIEW(q, t, e->loc)).val;
	case SRC_L1: return gl1(sv, L1(q, q->t->thr[t].cta, e->loc)).val;
	default: return e->val;
	}
}

static void complete_load(const struct aq *q, uint8_t *sv, int t, int reg, uint32_t v)
{
	if (reg == NO_REG)
		return;
	s32(sv, REG(q, t, reg), v);
	s16(sv, WAIT(q, t), (uint16_t)(g16(sv, WAIT(q, t)) & ~(1u << reg)));
}

static void queue_pop(const struct aq *q, uint8_t *sv, int t, int l, int at)
{
	int n = g8(sv, QLEN(q, t, l));
	for (int i = at; i + 1 < n; i++) {
		struct qent e = gent(sv, QENT(q, t, l, i + 1));
		sent(sv, QENT(q, t, l, i), &e);
	}
	struct qent z;
	memset(&z, 0, sizeof z);
	sent(sv, QENT(q, t, l, n - 1), &z);
	s8(sv, QLEN(q, t, l), (uint8_t)(n - 1));
}

static void queue_push(const struct aq *q, uint8_t *sv, int t, int l, const struct qent *e)
{
	int n = g8(sv, QLEN(q, t, l));
	sent(sv, QENT(q, t, l, n), e);
	s8(sv, QLEN(q, t, l), (uint8_t)(n + 1));
}

static void la_remove(const struct aq *q, uint8_t *sv, int t, int at)
{
	int n = g8(sv, NLA(q, t));
	for (int i = at; i + 1 < n; i++) {
		struct qent e = gent(sv, LAENT(q, t, i + 1));
		sent(sv, LAENT(q, t, i), &e);
	}
	struct qent z;
	memset(&z, 0, sizeof z);
	sent(sv, LAENT(q, t, n - 1), &z);
	s8(sv, NLA(q, t), (uint8_t)(n - 1));
}

static void issue(const struct aq *q, uint8_t *sv, int t)
{
	const struct lit_thread *th = &q->t->thr[t];
	int pc = g8(sv, PC(q, t));
	const struct lit_ins *in = &th->ins[pc];
	uint32_t regs[LIT_MAXR];
	regs_of(q, sv, t, regs);
	s8(sv, PC(q, t), (uint8_t)(pc + 1));
	if (!lit_guard(in, regs))
		return;
	struct qent e;
	memset(&e, 0, sizeof e);
	e.po = (uint8_t)pc;
	if (in->op == OP_MEMBAR) {
		e.kind = QE_FENCE;
		e.fence = (uint8_t)in->scope;
		for (int l = 0; l < q->nl; l++)
			queue_push(q, sv, t, l, &e);
		return;
	}
	if (!lit_is_mem(in)) {
		s32(sv, REG(q, t, in->dst), lit_alu(in, regs));
		return;
	}
	int l = litmus_addr_loc(q->t, lit_opnd_val(&in->addr, regs));
	if (l < 0) {
		s8(sv, q->o_fault, (uint8_t)(pc + 1));
		return;
	}
	e.loc = (uint8_t)l;
	if (in->op == OP_ST) {
		e.kind = QE_ST;
		e.val = lit_opnd_val(&in->a, regs);
		queue_push(q, sv, t, l, &e);
		return;
	}
	e.reg = NO_REG; /* red: an atomic without a destination */
	if (in->dst >= 0) {
		e.reg = (uint8_t)in->dst;
		s16(sv, WAIT(q, t), (uint16_t)(g16(sv, WAIT(q, t)) | 1u << in->dst));
	}
	if (in->op == OP_ATOM) {
		e.kind = QE_ATOM;
		e.val = lit_opnd_val(&in->b, regs);
		e.val2 = lit_opnd_val(&in->c, regs);
		queue_push(q, sv, t, l, &e);
		return;
	}
	e.kind = QE_LD;
	if (q->prm.load_array) {
		int n = g8(sv, NLA(q, t));
		sent(sv, LAENT(q, t, n), &e);
		s8(sv, NLA(q, t), (uint8_t)(n + 1));
	} else {
		queue_push(q, sv, t, l, &e);
	}
}

static void perform_atom(const struct aq *q, uint8_t *sv, int t, int l, const struct qent *e)
{
	const struct lit_ins *in = &q->t->thr[t].ins[e->po];
	size_t mo = MEM(q, row_of(q, t, l), l);
	uint32_t old = g32(sv, mo);
	uint32_t regs[LIT_MAXR] = { 0 };
	/* operands were captured at issue: rebuild them as immediates */
	struct lit_ins tmp = *in;
	tmp.b.kind = OK_IMM;
	tmp.b.imm = e->val;
	tmp.c.kind = OK_IMM;
	tmp.c.imm = e->val2;
	int writes;
	uint32_t nv = lit_atom_new(&tmp, old, regs, &writes);
	complete_load(q, sv, t, e->reg, old);
	if (!writes)
		return;
	s32(sv, mo, nv);
	struct vcell v = { nv, (uint8_t)t, e->po, { 0, 0 } };
	sview(sv, VIEW(q, t, l), &v);
	struct wcell w = { nv, e->po, 0, q->see[t][l], 0 };
	finish_w(sv, WC(q, t, l), &w);
}

static void do_fence(const struct aq *q, uint8_t *sv, int t)
{
	int kind = SC_GL;
	int f = oldest_fence(q, sv, t, &kind);
	/* loads left in front of a membar.cta become scope-bound, keeping the
	** value they could have read now as a fallback */
	for (int l = 0; l < q->nl; l++) {
		int n = g8(sv, QLEN(q, t, l));
		for (int i = 0; i < n; i++) {
			struct qent e = gent(sv, QENT(q, t, l, i));
			if (e.kind == QE_FENCE) {
				queue_pop(q, sv, t, l, i);
				break;
			}
			if (!(e.flags & QF_BOUND)) {
				e.flags |= QF_BOUND;
				e.val = gview(sv, VIEW(q, t, l)).val;
				sent(sv, QENT(q, t, l, i), &e);
			}
		}
	}
	int nla = g8(sv, NLA(q, t));
	for (int i = 0; i < nla; i++) {
		struct qent e = gent(sv, LAENT(q, t, i));
		if (e.po < f && !(e.flags & QF_BOUND)) {
			e.flags |= QF_BOUND;
			e.val = gview(sv, VIEW(q, t, e.loc)).val;
			sent(sv, LAENT(q, t, i), &e);
		}
	}
	unsigned mask = kind == SC_CTA ? q->same_cta[t] : 0xffu;
	for (int l = 0; l < q->nl; l++)
		flush(q, sv, t, l, mask);
	if (kind != SC_CTA && q->prm.cumulative_gl) {
		/* cumulativity: writes this thread has seen reach everyone first */
		for (int l = 0; l < q->nl; l++) {
			struct vcell v = gview(sv, VIEW(q, t, l));
			if (v.src_t == NOSRC || v.src_t == t)
				continue;
			struct wcell w = gw(sv, WC(q, v.src_t, l));
			if (w.dst && w.po >= v.src_po)
				flush(q, sv, v.src_t, l, 0xffu);
		}
	}
}

static void aq_apply(const struct model *m, uint8_t *sv, const struct action *a)
{
	const struct aq *q = m->priv;
	int t = a->unit;
	switch (a->kind) {
	case K_ISSUE:
		issue(q, sv, t);
		break;
	case K_PERFORM: {
		int l = (int)a->subject;
		struct qent e = gent(sv, QENT(q, t, l, 0));
		queue_pop(q, sv, t, l, 0);
		if (e.kind == QE_ST)
			perform_store(q, sv, t, l, e.val, e.po);
		else if (e.kind == QE_ATOM)
			perform_atom(q, sv, t, l, &e);
		else
			complete_load(q, sv, t, e.reg, load_value(q, sv, t, &e, (int)a->arg));
		break;
	}
	case K_LALOAD: {
		struct qent e = gent(sv, LAENT(q, t, (int)a->subject));
		la_remove(q, sv, t, (int)a->subject);
		complete_load(q, sv, t, e.reg, load_value(q, sv, t, &e, (int)a->arg));
		break;
	}
	case K_FENCE:
		do_fence(q, sv, t);
		break;
	case K_DELIVER:
		deliver(q, sv, t, (int)a->subject, (int)a->arg);
		break;
	case K_L1FILL: {
		struct l1cell c = { g32(sv, MEM(q, 0, a->subject)), 1, { 0, 0, 0 } };
		memcpy(sv + L1(q, a->unit, a->subject), &c, sizeof c);
		break;
	}
	}
}

static enum model_status aq_status(const struct model *m, const uint8_t *sv)
{
	const struct aq *q = m->priv;
	if (g8(sv, q->o_fault))
		return MS_FAULT;
	for (int t = 0; t < q->nt; t++)
		if (!all_done(q, sv, t))
			return MS_RUNNING;
	return MS_TERMINAL;
}

/* ---- printing ---------------------------------------------------------------- */

static const char *src_name(int s)
{
	return s == SRC_VIEW ? "" : s == SRC_L1 ? " from stale L1" : " (value before the fence)";
}

static void aq_describe(const struct model *m, const uint8_t *sv, const struct action *a,
                        struct strbuf *out)
{
	const struct aq *q = m->priv;
	const struct litmus *t = q->t;
	int u = a->unit;
	switch (a->kind) {
	case K_ISSUE: {
		int pc = g8(sv, PC(q, u));
		sb_printf(out, "T%d issue %s", t->thr[u].id, t->thr[u].ins[pc].text);
		break;
	}
	case K_PERFORM: {
		struct qent e = gent(sv, QENT(q, u, a->subject, 0));
		sb_printf(out, "T%d perform %s", t->thr[u].id, t->thr[u].ins[e.po].text);
		if (e.kind == QE_LD)
			sb_printf(out, " = %u%s", load_value(q, sv, u, &e, (int)a->arg), src_name((int)a->arg));
		break;
	}
	case K_LALOAD: {
		struct qent e = gent(sv, LAENT(q, u, a->subject));
		sb_printf(out, "T%d perform %s = %u%s", t->thr[u].id, t->thr[u].ins[e.po].text,
		          load_value(q, sv, u, &e, (int)a->arg), src_name((int)a->arg));
		break;
	}
	case K_FENCE: {
		int kind = SC_GL;
		oldest_fence(q, sv, u, &kind);
		sb_printf(out, "T%d perform membar.%s", t->thr[u].id,
		          kind == SC_CTA ? "cta" : kind == SC_GL ? "gl" : "sys");
		break;
	}
	case K_DELIVER: {
		struct wcell w = gw(sv, WC(q, u, a->subject));
		sb_printf(out, "propagate %s=%u from T%d to T%d", t->loc[a->subject].name, w.val,
		          t->thr[u].id, t->thr[a->arg].id);
		break;
	}
	case K_L1FILL:
		sb_printf(out, "CTA %d L1 fill %s=%u", a->unit, t->loc[a->subject].name,
		          g32(sv, MEM(q, 0, a->subject)));
		break;
	}
}

static void aq_print_state(const struct model *m, const uint8_t *sv, struct strbuf *out)
{
	const struct aq *q = m->priv;
	const struct litmus *t = q->t;
	if (g8(sv, q->o_fault)) {
		sb_printf(out, "fault: address does not name a location\n");
		return;
	}
	for (int i = 0; i < q->nt; i++) {
		sb_printf(out, "T%d pc=%d", t->thr[i].id, g8(sv, PC(q, i)));
		for (int r = 0; r < t->thr[i].nregs; r++)
			sb_printf(out, " %s=%u", t->thr[i].regname[r], g32(sv, REG(q, i, r)));
		sb_puts(out, " view:");
		for (int l = 0; l < q->nl; l++)
			sb_printf(out, " %s=%u", t->loc[l].name, gview(sv, VIEW(q, i, l)).val);
		sb_putc(out, '\n');
	}
	sb_puts(out, "memory:");
	for (int l = 0; l < q->nl; l++)
		sb_printf(out, " %s=%u", t->loc[l].name, g32(sv, MEM(q, row_of(q, 0, l), l)));
	sb_putc(out, '\n');
}

static int aq_lookup(const struct model *m, int tid, const char *name, long index,
                     enum vtype *type, unsigned *count, struct strbuf *err)
{
	*count = 1;
	const struct aq *q = m->priv;
	return litmus_lookup_at(q->t, tid, name, index, type, err);
}

static uint32_t aq_read(const struct model *m, const uint8_t *sv, int loc)
{
	const struct aq *q = m->priv;
	if (loc < q->nl) /* shared memory: the copy of the first thread's CTA */
		return g32(sv, MEM(q, row_of(q, 0, loc), loc));
	int i = (loc - q->nl) / LIT_MAXR, r = (loc - q->nl) % LIT_MAXR;
	return g32(sv, REG(q, i, r));
}

static void aq_loc_name(const struct model *m, int loc, struct strbuf *out)
{
	const struct aq *q = m->priv;
	litmus_loc_name(q->t, loc, out);
}

static enum vtype aq_loc_type(const struct model *m, int loc)
{
	const struct aq *q = m->priv;
	return litmus_loc_type(q->t, loc);
}

const struct litmus *addrqueue_test(const struct model *m)
{
	return ((const struct aq *)m->priv)->t;
}

/* Every memory location: what `deterministic` compares by default. */
static unsigned aq_default_obs(const struct model *m, int *locs, unsigned max)
{
	const struct aq *q = m->priv;
	for (unsigned i = 0; i < (unsigned)q->nl && i < max; i++)
		locs[i] = (int)i;
	return (unsigned)q->nl;
}

static void aq_destroy(struct model *m)
{
	free(m->priv);
	free(m);
}

struct model *addrqueue_model(const struct litmus *t, const struct aq_params *p, struct strbuf *err)
{
	struct aq *q = xcalloc(1, sizeof *q);
	q->t = t;
	q->prm = *p;
	q->nt = t->nthreads;
	q->nl = t->nlocs;
	q->nctas = t->nctas;
	for (int i = 0; i < q->nt; i++) {
		int mem = 0, fences = 0, loads = 0;
		if (t->thr[i].nregs > q->nr)
			q->nr = t->thr[i].nregs;
		for (int j = 0; j < t->thr[i].nins; j++) {
			const struct lit_ins *in = &t->thr[i].ins[j];
			mem += lit_is_mem(in);
			fences += in->op == OP_MEMBAR;
			loads += in->op == OP_LD;
			if (in->op == OP_LD && in->cache == CO_CA && in->addr.kind == OK_LOC)
				q->ca_used[in->addr.loc] = 1;
			if (in->op == OP_LD && in->cache == CO_CA && in->addr.kind == OK_REG) {
				int l = litmus_addr_loc(t, t->thr[i].reginit[in->addr.reg]);
				if (l >= 0)
					q->ca_used[l] = 1;
			}
		}
		if (mem + fences > q->Q)
			q->Q = mem + fences;
		if (loads > q->LA)
			q->LA = loads;
	}
	if (q->Q > 255 || q->nt > 8) {
		sb_printf(err, "%s: test too large for the address-queue machine", t->file);
		free(q);
		return NULL;
	}
	for (int i = 0; i < q->nt; i++)
		for (int u = 0; u < q->nt; u++) {
			if (u == i)
				continue;
			int same = t->thr[i].cta == t->thr[u].cta;
			if (same)
				q->same_cta[i] |= (uint8_t)(1u << u);
			for (int l = 0; l < q->nl; l++)
				if (same || t->loc[l].region == SP_GLOBAL)
					q->see[i][l] |= (uint8_t)(1u << u);
		}
	/* per-thread block layout, 4-byte aligned fields */
	size_t o = 4; /* pc, nla, wait */
	q->o_regs = o;
	o += 4 * (size_t)q->nr;
	q->o_qlen = o;
	o += ((size_t)q->nl + 3) & ~(size_t)3;
	q->o_q = o;
	o += (size_t)q->nl * (size_t)q->Q * sizeof(struct qent);
	q->o_la = o;
	o += (size_t)q->LA * sizeof(struct qent);
	q->o_view = o;
	o += (size_t)q->nl * sizeof(struct vcell);
	q->o_w = o;
	o += (size_t)q->nl * sizeof(struct wcell);
	q->tsize = o;
	q->o_thr = 0;
	o = q->tsize * (size_t)q->nt;
	q->o_mem = o;
	o += 4 * (size_t)q->nl * (size_t)(q->nctas + 1);
	q->o_l1 = o;
	if (p->l1)
		o += sizeof(struct l1cell) * (size_t)q->nl * (size_t)q->nctas;
	q->o_fault = o;
	o += 4;

	struct model *m = xcalloc(1, sizeof *m);
	m->name = p->scoped_loads ? "ics13-fixed" : "ics13";
	m->sv_size = o;
	m->max_actions = (unsigned)(q->nt * (1 + 3 * q->nl + 3 * q->LA + 1 + q->nl * q->nt) +
	                            q->nctas * q->nl + 1);
	m->priv = q;
	m->init = aq_init;
	m->enabled = aq_enabled;
	m->apply = aq_apply;
	m->status = aq_status;
	m->describe = aq_describe;
	m->print_state = aq_print_state;
	m->lookup = aq_lookup;
	m->read = aq_read;
	m->loc_name = aq_loc_name;
	m->loc_type = aq_loc_type;
	m->default_observables = aq_default_obs;
	m->destroy = aq_destroy;
	return m;
}
