/*
** The persistency models of the paper (shared/notes/persistency.md §2) as
** rewrites of the kernel, selected with -D persistency=MODEL on the
** persist machine, so one kernel can be checked and timed under each:
**
**   none          the kernel as written
**   strict-clwb   after every global store: clwb; {sfence; pcommit;} sfence
**                 (the braces only with volatile WPQs)         [Fig. 2(b)]
**   strict-wt     every global store becomes st.wt, followed by sfence
**                 (both strict models: a global atom or red is a store
**                 too, performed in the L2 and with no write-through
**                 form: sfence -- it is performed -- then clwb;
**                 {sfence; pcommit;} sfence)
**   epoch-kernel  the host ends the kernel's epoch: sync; cudaL2WB();
**                 {pcommit;} sync                              [Fig. 3(b)]
**   epoch-cta     with epoch_op=l2wb (default): before each exit:
**                 bar.sync; thread 0 of the CTA runs l2wb; {sfence;
**                 pcommit;} sfence                             [§III-B]
**                 (every warp's lane 0 when the kernel has a predicated
**                 exit, as thread 0 may be gone); a predicated exit
**                 first persists with the same guard: @p l2wb; fences.
**                 epoch_op=clwb (Algorithm 1): every exit (and the end
**                 of the kernel) goes to one post-dominating block that
**                 replays the kernel's address computation -- the
**                 use-define chains of the store addresses, with the
**                 loops and branches around them (alg1_slice) -- from
**                 the registers' initial values, each global store
**                 replayed as a clwb of its address, then sfence;
**                 {pcommit; sfence}; exit.  Stores to one line made
**                 over the kernel are so written back once, complete
**                 (the locality the paper credits for sad-1).
**                 epoch_op=clwb-at-store: the clwb right after each
**                 store instead (the address at hand, no replay; a line
**                 filled store by store is written back each time);
**                 before each exit sfence; {pcommit; sfence} (guarded
**                 like the exit).
**                 epoch_op=wt: every global store is a st.wt, and before
**                 each exit sfence (a st.wt is acknowledged once in the
**                 persistence domain).  No barrier: each warp persists
**                 its own stores, and its last sfence ends its part of
**                 the epoch ("no need for a CTA-level synchronization")
**   epoch-loop    every `scope` iterations of the outermost loop (the
**                 back-edge spanning the most code), per warp: l2wb;
**                 {sfence; pcommit;} sfence, the warp waiting for its
**                 epoch to be durable before it starts the next one (so
**                 finding F3 of Fig. 5(b) cannot arise).  No CTA barrier:
**                 loop epochs are ordered within a warp, and threads that
**                 run fewer iterations must not be waited for; and at the
**                 exits as epoch-cta: the final, partial epoch and the
**                 stores after the loop.  loop_sync=cta: the paper's
**                 per-CTA form (Fig. 5(b)) where trip counts are
**                 uniform: bar.sync; thread 0 runs l2wb; {sfence;
**                 pcommit;} sfence; bar.sync -- the second barrier is
**                 F3's fix (no warp starts the next epoch before this
**                 one is durable); with uneven trip counts it deadlocks,
**                 and a check says so
**
** Undo-log transactions depend on what the program writes and are written
** out in the spec (specs/persist/T5..T10).
** A rewritten instruction keeps the text of the one it derives from,
** marked, so traces still point at the source.
*/
#include "config.h"
#include "machines/persist_models.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

struct out {
	struct instr *ins;
	int n, cap;
	int *map; /* old index -> new index of its first instruction */
};

static void emit(struct out *o, struct instr in, const char *what)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->ins = xrealloc(o->ins, sizeof *o->ins * (size_t)o->cap);
	}
	struct strbuf t;
	sb_init(&t);
	if (what)
		sb_printf(&t, "%s   [%s]", what, in.text);
	else
		sb_puts(&t, in.text);
	in.text = xstrdup(sb_str(&t));
	sb_free(&t);
	o->ins[o->n++] = in;
}

static struct instr plain(enum opcode op, const struct instr *from)
{
	struct instr in = *from;
	in.op = op;
	in.pred = -1;
	in.dst = -1;
	in.wt = 0;
	memset(in.src, 0, sizeof in.src);
	return in;
}

/* l2wb and its fences, {sfence; pcommit;} sfence, guarded like `at`
** when guard is set. */
static void persist_l2(struct out *o, const struct instr *at, int pred, int neg, int volatile_wpq)
{
	static const enum opcode seq[] = { OP_L2WB, OP_SFENCE, OP_PCOMMIT, OP_SFENCE };
	static const char *const name[] = { "l2wb", "sfence", "pcommit", "sfence" };
	for (int i = 0; i < 4; i++) {
		if ((i == 1 || i == 2) && !volatile_wpq)
			continue;
		struct instr in = plain(seq[i], at);
		char what[48];
		in.pred = pred;
		in.pred_neg = neg;
		snprintf(what, sizeof what, "%s%s (epoch end)", pred >= 0 ? "@%p " : "", name[i]);
		emit(o, in, what);
	}
}

/* The end of a CTA's epoch: everyone's stores are in the L2 (bar.sync),
** then one thread -- thread 0, or with every_warp lane 0 of each warp --
** writes the L2 back and waits for it. */
static void cta_epoch_end(struct out *o, const struct instr *at, int pred, int volatile_wpq, int every_warp)
{
	struct instr b = plain(OP_BAR, at);
	b.barrier = 15;
	emit(o, b, "bar.sync 15 (epoch-cta)");
	struct instr sp = plain(OP_SETP, at);
	sp.type = VT_U32;
	sp.cmp = C_EQ;
	sp.dst = pred;
	sp.src[0] = (struct operand){ .kind = O_SPECIAL, .special = every_warp ? SR_LANEID : SR_TID };
	sp.src[1] = (struct operand){ .kind = O_IMM, .imm = 0 };
	emit(o, sp, every_warp ? "setp.eq.u32 %__pm_p, %laneid, 0 (epoch-cta)" : "setp.eq.u32 %__pm_p, %tid, 0 (epoch-cta)");
	struct instr l2 = plain(OP_L2WB, at);
	l2.pred = pred;
	emit(o, l2, "@%__pm_p l2wb (epoch-cta)");
	if (volatile_wpq) {
		emit(o, plain(OP_SFENCE, at), "sfence (epoch-cta)");
		emit(o, plain(OP_PCOMMIT, at), "pcommit (epoch-cta)");
	}
	emit(o, plain(OP_SFENCE, at), "sfence (epoch-cta)");
}

/* epoch-cta clwb/wt: the warp's epoch ends at exit `at` (guarded like
** it) once its write-backs are acknowledged: sfence, and with pcommit
** {pcommit; sfence}. */
static void own_epoch_end(struct out *o, const struct instr *at, int pcommit)
{
	static const enum opcode seq[] = { OP_SFENCE, OP_PCOMMIT, OP_SFENCE };
	for (int k = 0; k < (pcommit ? 3 : 1); k++) {
		struct instr f = plain(seq[k], at);
		f.pred = at->pred;
		f.pred_neg = at->pred_neg;
		emit(o, f, seq[k] == OP_PCOMMIT ? "pcommit (epoch end)" : "sfence (epoch end)");
	}
}

/* The registers an instruction reads: its guard, and its sources and
** address register -- of a global store only the address (the replay
** writes nothing back). */
static void reads(const struct instr *in, uint8_t *need)
{
	int mem = in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED || in->op == OP_CLWB;
	if (in->pred >= 0)
		need[in->pred] = 1;
	if (mem && in->addr.reg >= 0)
		need[in->addr.reg] = 1;
	if (in->op == OP_ST)
		return;
	for (int k = 0; k < 3; k++)
		if (in->src[k].kind == O_REG)
			need[in->src[k].reg] = 1;
}

/* Does the region branch b controls -- the loop body [target, b] of a
** backward branch, the skipped (b, target) of a forward one -- hold a
** replayed instruction? */
static int controls_slice(const struct program *p, int b, const uint8_t *in_slice)
{
	int t = p->ins[b].target, lo = t <= b ? t : b + 1, hi = t <= b ? b : t - 1;
	for (int k = lo; k <= hi && k < p->nins; k++)
		if (in_slice[k] && k != b)
			return 1;
	return 0;
}

/* Algorithm 1's "use-define chain of the store address", for the whole
** kernel at once: every global store and exit; to a fixed point, every
** instruction writing a register a replayed one reads (flow-insensitive:
** every write of the register, so a loop-carried address brings its loop
** counter, and so does an address copied from a register a loop later
** advances -- more is replayed than needed, never less), and every branch
** whose loop body or skipped code holds a replayed instruction (a loop
** that stores nothing and computes no address is not run again).  Loads
** come along (they are read again); an atomic cannot (replaying it would
** perform it twice): -1, with err set. */
static int alg1_slice(const struct program *p, uint8_t *in_slice, struct strbuf *err)
{
	uint8_t *need = xcalloc((size_t)p->nregs + 1, 1);
	for (int i = 0; i < p->nins; i++) {
		const struct instr *in = &p->ins[i];
		if ((in->op == OP_ST && in->space == SP_GLOBAL) || in->op == OP_EXIT) {
			in_slice[i] = 1;
			reads(in, need);
		}
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = 0; i < p->nins; i++) {
			const struct instr *in = &p->ins[i];
			if (in_slice[i])
				continue;
			if (in->op == OP_BRA ? !controls_slice(p, i, in_slice)
			                     : in->dst < 0 || !need[in->dst] || in->op == OP_ST)
				continue;
			if (in->op == OP_ATOM) {
				sb_printf(err, "persistency=epoch-cta epoch_op=clwb (Algorithm 1): line %d: a store address depends on "
				          "this atomic's result, and replaying the address chain would perform it again; "
				          "use -D epoch_op=clwb-at-store (a clwb right after each store)", in->line);
				free(need);
				return -1;
			}
			in_slice[i] = 1;
			reads(in, need);
			changed = 1;
		}
	}
	free(need);
	return 0;
}

/* The clwbs that write back global store `in`: a st.u64 at word
** granularity two, its high word another line. */
static int store_clwbs(const struct instr *in, int line_bytes)
{
	return in->width == 8 && line_bytes < 8 && in->addr.offset <= INT32_MAX - 4 ? 2 : 1;
}

/* Emit them, guarded like the store (the lanes that stored); what_hi
** names the high word's (NULL: as what). */
static void emit_store_clwbs(struct out *o, const struct instr *in, int line_bytes, const char *what,
                             const char *what_hi)
{
	struct instr cl = plain(OP_CLWB, in);
	cl.pred = in->pred;
	cl.pred_neg = in->pred_neg;
	emit(o, cl, what);
	if (store_clwbs(in, line_bytes) == 2) {
		cl.addr.offset += 4;
		emit(o, cl, what_hi ? what_hi : what);
	}
}

/* Algorithm 1's post-dominating block, appended to o: the registers the
** replay writes back to their initial value (zero), the slice in program
** order with each global store a clwb of its address (and branches and
** exits kept inside the replay: an exit ends the lane's replay), then
** the warp's epoch end and the exit. */
static void alg1_block(struct out *o, const struct program *p, const uint8_t *in_slice, int line_bytes, int pcommit)
{
	const struct instr *last = &p->ins[p->nins - 1];
	uint8_t *written = xcalloc((size_t)p->nregs + 1, 1);
	int nreset = 0;
	for (int i = 0; i < p->nins; i++)
		if (in_slice[i] && p->ins[i].dst >= 0 && p->ins[i].op != OP_ST && !written[p->ins[i].dst]++)
			nreset++;
	/* where each slice instruction lands, and the block's end */
	int *at = xmalloc(sizeof(int) * ((size_t)p->nins + 1)), n = o->n + nreset;
	for (int i = 0; i < p->nins; i++) {
		at[i] = n;
		if (in_slice[i])
			n += p->ins[i].op == OP_ST ? store_clwbs(&p->ins[i], line_bytes) : 1;
	}
	at[p->nins] = n; /* the epoch end */
	for (int r = 0; r < p->nregs; r++) {
		if (!written[r])
			continue;
		struct instr z = plain(OP_MOV, last);
		z.type = VT_U32;
		z.dst = r;
		z.src[0] = (struct operand){ .kind = O_IMM, .imm = 0 };
		struct strbuf t;
		sb_init(&t);
		sb_printf(&t, "mov.u32 %s, 0 (epoch-cta clwb: replay from the start)", p->regs[r].name);
		z.text = (char *)sb_str(&t);
		emit(o, z, NULL);
		sb_free(&t);
	}
	for (int i = 0; i < p->nins; i++) {
		const struct instr *in = &p->ins[i];
		if (!in_slice[i])
			continue;
		if (in->op == OP_ST) {
			emit_store_clwbs(o, in, line_bytes, "clwb (epoch-cta clwb: replayed address)",
			                 "clwb (epoch-cta clwb: replayed address, high word)");
			continue;
		}
		if (in->op == OP_EXIT) { /* the lane's replay is over */
			struct instr b = plain(OP_BRA, in);
			b.pred = in->pred;
			b.pred_neg = in->pred_neg;
			b.target = -2 - at[p->nins];
			emit(o, b, "bra (epoch-cta clwb: the lane's replay ends)");
			continue;
		}
		struct instr c = *in;
		if (in->op == OP_BRA)
			c.target = -2 - at[in->target < p->nins ? in->target : p->nins];
		struct strbuf t;
		sb_init(&t);
		sb_printf(&t, "%s (epoch-cta clwb: replayed)", in->text);
		c.text = (char *)sb_str(&t);
		emit(o, c, NULL);
		sb_free(&t);
	}
	struct instr ex = *last;
	ex.op = OP_EXIT;
	ex.pred = -1;
	ex.text = "exit (epoch end)";
	own_epoch_end(o, &ex, pcommit);
	emit(o, ex, NULL);
	free(at);
	free(written);
}

static int add_reg(struct program *p, const char *name, enum vtype t)
{
	p->regs = xrealloc(p->regs, sizeof *p->regs * (size_t)(p->nregs + 1));
	p->regs[p->nregs].name = xstrdup(name);
	p->regs[p->nregs].type = t;
	return p->nregs++;
}

int pm_transform(struct program *prog, const struct gpu_cfg *c, struct strbuf *err)
{
	unsigned model = c->pm_model;
	if (model == PMM_NONE)
		return 0;
	if (model == PMM_EPOCH_KERNEL) {
		if (prog->host) {
			sb_puts(err, "persistency=epoch-kernel writes the host program: the spec already has one");
			return -1;
		}
		enum host_op seq[] = { H_SYNC, H_L2WB, H_PCOMMIT, H_SYNC };
		prog->host = xcalloc(4, sizeof *prog->host);
		prog->nhost = 0;
		for (int i = 0; i < 4; i++)
			if (seq[i] != H_PCOMMIT || !c->wpq_durable)
				prog->host[prog->nhost++] =
					(struct host_step){ .op = seq[i], .sym = -1, .sym2 = -1, .index = -1, .ireg = -1, .reg = { -1, -1, -1 } };
		return 0;
	}
	/* epoch-cta clwb: Algorithm 1's replay of the address chains */
	int alg1 = model == PMM_EPOCH_CTA && c->epoch_op == PME_CLWB && prog->nins > 0;
	uint8_t *in_slice = alg1 ? xcalloc((size_t)prog->nins, 1) : NULL;
	if (alg1) {
		int bar = 0, early = 0;
		for (int i = 0; i < prog->nins; i++) {
			bar |= prog->ins[i].op == OP_BAR;
			early |= prog->ins[i].op == OP_EXIT && (i < prog->nins - 1 || prog->ins[i].pred >= 0);
		}
		if (bar && early) { /* lanes waiting at the block would never reach the barrier */
			sb_puts(err, "persistency=epoch-cta epoch_op=clwb (Algorithm 1): the kernel has bar.sync and an exit "
			             "before its end, so its lanes cannot wait for one another at one post-dominating block; "
			             "use -D epoch_op=clwb-at-store (a clwb right after each store)");
			free(in_slice);
			return -1;
		}
		if (alg1_slice(prog, in_slice, err) < 0) {
			free(in_slice);
			return -1;
		}
	}
	int pred = model == PMM_EPOCH_CTA || model == PMM_EPOCH_LOOP ? add_reg(prog, "%__pm_p", VT_PRED) : -1;
	/* epoch-loop: the outermost loop's back-edge, an iteration counter and
	** a predicate for "not yet the end of an epoch" */
	int edge = -1, iter = -1, more = -1;
	if (model == PMM_EPOCH_LOOP) {
		for (int i = 0; i < prog->nins; i++)
			if (prog->ins[i].op == OP_BRA && prog->ins[i].target <= i &&
			    (edge < 0 || i - prog->ins[i].target > edge - prog->ins[edge].target))
				edge = i;
		if (edge < 0) {
			sb_puts(err, "persistency=epoch-loop: the kernel has no loop (no backward branch)");
			free(prog->regs[--prog->nregs].name);
			return -1;
		}
		iter = add_reg(prog, "%__pm_i", VT_U32);
		more = add_reg(prog, "%__pm_q", VT_PRED);
	}
	struct out o = { NULL, 0, 0, xmalloc(sizeof(int) * (size_t)(prog->nins + 1)) };
	int volatile_wpq = !c->wpq_durable, epochs = model == PMM_EPOCH_CTA || model == PMM_EPOCH_LOOP, pred_exit = 0;
	for (int i = 0; i < prog->nins; i++)
		pred_exit |= prog->ins[i].op == OP_EXIT && prog->ins[i].pred >= 0;
	for (int i = 0; i < prog->nins; i++) {
		struct instr *in = &prog->ins[i];
		o.map[i] = o.n;
		int store = in->op == OP_ST && in->space == SP_GLOBAL;
		if (model == PMM_STRICT_WT && store) {
			struct instr wt = *in;
			wt.wt = 1;
			emit(&o, wt, "st.wt (strict-wt)");
			emit(&o, plain(OP_SFENCE, in), "sfence (strict-wt)");
			continue;
		}
		int own = model == PMM_EPOCH_CTA && c->epoch_op != PME_L2WB; /* each warp its own stores */
		if (own && store && !alg1) {
			struct instr st = *in;
			st.wt = c->epoch_op == PME_WT;
			emit(&o, st, st.wt ? "st.wt (epoch-cta wt)" : NULL);
			if (!st.wt)
				emit_store_clwbs(&o, in, (int)c->line_bytes, "clwb (epoch-cta clwb)", NULL);
			continue;
		}
		if (alg1 && in->op == OP_EXIT) { /* to the block at the end */
			if (i < prog->nins - 1 || in->pred >= 0) {
				struct instr b = plain(OP_BRA, in);
				b.pred = in->pred;
				b.pred_neg = in->pred_neg;
				b.target = prog->nins;
				emit(&o, b, "bra (epoch-cta clwb: to the epoch's end block)");
			}
			continue;
		}
		if (own && in->op == OP_EXIT) {
			own_epoch_end(&o, in, c->epoch_op != PME_WT && volatile_wpq);
			emit(&o, *in, NULL);
			continue;
		}
		if (epochs && in->op == OP_EXIT) {
			if (in->pred < 0) /* the CTA's (or the loop's final) epoch ends */
				cta_epoch_end(&o, in, pred, volatile_wpq, pred_exit);
			else /* the leaving lanes persist what they wrote */
				persist_l2(&o, in, in->pred, in->pred_neg, volatile_wpq);
			emit(&o, *in, NULL);
			continue;
		}
		if (i == edge) {
			/* before the back-edge: count the iteration; at the end of
			** an epoch persist it, and wait for everyone (F3) */
			struct instr add = plain(OP_ADD, in);
			add.type = VT_U32;
			add.dst = iter;
			add.src[0] = (struct operand){ .kind = O_REG, .reg = iter };
			add.src[1] = (struct operand){ .kind = O_IMM, .imm = 1 };
			emit(&o, add, "add.u32 %__pm_i, %__pm_i, 1 (epoch-loop)");
			struct instr cmp = plain(OP_SETP, in);
			cmp.type = VT_U32;
			cmp.cmp = C_LT;
			cmp.dst = more;
			cmp.src[0] = (struct operand){ .kind = O_REG, .reg = iter };
			cmp.src[1] = (struct operand){ .kind = O_IMM, .imm = c->scope };
			emit(&o, cmp, "setp.lt.u32 %__pm_q, %__pm_i, scope (epoch-loop)");
			struct instr skip = plain(OP_BRA, in);
			skip.pred = more;
			skip.target = -1; /* patched below: the original back-edge */
			int skip_at = o.n;
			emit(&o, skip, "@%__pm_q bra (epoch-loop)");
			struct instr zero = plain(OP_MOV, in);
			zero.type = VT_U32;
			zero.dst = iter;
			zero.src[0] = (struct operand){ .kind = O_IMM, .imm = 0 };
			emit(&o, zero, "mov.u32 %__pm_i, 0 (epoch-loop)");
			/* the warp's epoch ends: its stores are in the L2, it writes
			** the L2 back itself and waits.  No bar.sync: the order is
			** per warp ("epochs in different warps ... can be executed
			** in parallel"), and a CTA barrier here would wait for lanes
			** that left the loop, which never arrive */
			if (c->loop_sync) {
				cta_epoch_end(&o, in, pred, volatile_wpq, pred_exit);
				struct instr b = plain(OP_BAR, in);
				b.barrier = 15;
				emit(&o, b, "bar.sync 15 (epoch-loop cta: the epoch is durable)");
			} else {
				persist_l2(&o, in, -1, 0, volatile_wpq);
			}
			o.ins[skip_at].target = -2 - o.n; /* the original branch comes next */
		}
		emit(&o, *in, NULL);
		int atomic = (in->op == OP_ATOM || in->op == OP_RED) && in->space == SP_GLOBAL;
		int strict = model == PMM_STRICT_CLWB || model == PMM_STRICT_WT;
		if ((model == PMM_STRICT_CLWB && store) || (strict && atomic)) {
			const char *m = model == PMM_STRICT_CLWB ? "strict-clwb" : "strict-wt";
			char what[40];
			if (atomic) { /* write back the value it left in the L2 */
				snprintf(what, sizeof what, "sfence (%s: performed)", m);
				emit(&o, plain(OP_SFENCE, in), what);
			}
			snprintf(what, sizeof what, "clwb (%s)", m);
			emit_store_clwbs(&o, in, (int)c->line_bytes, what, NULL);
			snprintf(what, sizeof what, "sfence (%s)", m);
			if (volatile_wpq) {
				emit(&o, plain(OP_SFENCE, in), what);
				snprintf(what, sizeof what, "pcommit (%s)", m);
				emit(&o, plain(OP_PCOMMIT, in), what);
				snprintf(what, sizeof what, "sfence (%s)", m);
			}
			emit(&o, plain(OP_SFENCE, in), what);
		}
	}
	o.map[prog->nins] = o.n;
	if (alg1)
		alg1_block(&o, prog, in_slice, (int)c->line_bytes, volatile_wpq);
	else if (epochs && (!prog->nins || prog->ins[prog->nins - 1].op != OP_EXIT || prog->ins[prog->nins - 1].pred >= 0)) {
		/* the kernel runs off its end: that end closes the epoch too */
		struct instr ex = plain(OP_EXIT, prog->nins ? &prog->ins[prog->nins - 1] : &(struct instr){ .text = "" });
		ex.text = "exit (epoch end, end of kernel)";
		if (model == PMM_EPOCH_CTA && c->epoch_op != PME_L2WB)
			own_epoch_end(&o, &ex, c->epoch_op != PME_WT && volatile_wpq);
		else
			cta_epoch_end(&o, &ex, pred, volatile_wpq, pred_exit);
		emit(&o, ex, NULL);
	}
	for (int i = 0; i < o.n; i++)
		if (o.ins[i].op == OP_BRA)
			o.ins[i].target = o.ins[i].target <= -2 ? -2 - o.ins[i].target : o.map[o.ins[i].target];
	for (int i = 0; i < prog->nins; i++)
		free(prog->ins[i].text);
	free(prog->ins);
	free(o.map);
	free(in_slice);
	prog->ins = o.ins;
	prog->nins = o.n;
	program_analyse(prog);
	return 0;
}
