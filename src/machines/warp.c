/*
** A SIMT warp: threads_per_warp lanes executing one instruction at a time
** under an active mask, with the immediate-post-dominator reconvergence
** stack (GPGPU-Sim's model of pre-Volta hardware).
**
** Stack entries are (pc, rpc, mask); the top entry executes.  States:
**
**   READY --issue(ld/st/alu/bra/membar)--> READY          [issue]
**   READY --issue(membar, bar.sync, a strong global ld/st, a .release
**            atom/red: an order provider says wait)--> WAIT --resume--> READY (bar.sync:
**            BARRIER)                                     [rop.c, dab.c]
**   READY --issue(bar.sync)--> BARRIER --release--> READY [barrier.c]
**   READY --issue(atom/red global)--> ATOMIC --ROP ack--> READY [rop.c]
**   READY --issue(exit of last lanes)--> DONE
**   any   --bad address, x/0, stack overflow--> FAULT
**
** Invariants:
**   WARP-1 every entry's mask is a subset of the bottom entry's, which is
**          exactly the live (not exited) lanes;
**   WARP-2 no entry has an empty mask, and no top entry has pc == rpc
**          (it would already have been popped);
**   WARP-3 a warp in BARRIER, ATOMIC or WAIT keeps its pc on that
**          instruction, so the arriving lanes and addresses can be
**          recomputed;
**   WARP-4 a DONE warp has an empty, zeroed stack; stack entries above sp
**          are zero;
**   WARP-5 only a branch that program_divergent calls divergent splits a
**          warp (one it calls uniform would fault F_UNIFORM), so a stack
**          of 1 + 2 x the divergent branches never overflows (layout);
**   WARP-6 the private table (decode) says of each instruction what its
**          operands decode to at issue (lanes_of): a register's row, an
**          immediate's or a symbol's value, a word load's or a global
**          atomic's address; and a register instruction's loop,
**          alu_kernel_of's for its opcode and type (t/golden.sh and t/golden-run.sh pin the results of
**          every kernel, t/unit.c the loops against alu_exec);
**   WARP-7 the taken lanes of a guarded branch that concrete mode's
**          warps_prepare_issue counted, kept with its state, warp and
**          pc, are its guarded lanes when that warp issues it next
**          (branch takes them instead of guarding again): model.issue's
**          apply follows its step on the same vector, and a scheduler's
**          apply issues its warp (checked under GPUMC_CHECK_READY);
**   WARP-8 warps_issue_alone, concrete mode's prepare and apply of a
**          warp-local issue at once (where gpu.alone, warps_alone_at and
**          compose.c's por_pc, says so), gives the
**          timing, counts, local answer and warp record that
**          warps_prepare_issue and the scheduler's apply give, which
**          leave the scheduler's slice as it was (compose.c checks the
**          record, slice, counts and timing under GPUMC_CHECK_READY,
**          issue_alone_checked).
*/
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "machines/alu.h"
#include "machines/component.h"
#include "machines/scheduler.h"
#include "util/strbuf.h"
#include "util/env.h"

#define MEM(c) ((const struct port_mem *)port_ops(c, P_MEM))
#define ATOMICS(c) ((const struct port_atomics *)port_ops(c, P_ATOMICS))
#define SBUF(c) ((const struct port_sbuf *)port_ops(c, P_SBUF))

/* The pc of a warp not done (gpu_pc without the test). */
static unsigned top_pc(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	uint8_t *s = (uint8_t *)sv;
	return gpu_stack(g, s, w)[gpu_warp(g, s, w)->sp - 1].pc;
}

static const struct instr *cur(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	return &g->prog->ins[top_pc(g, sv, w)];
}

static void warp_init(const struct gpu *g, uint8_t *sv, unsigned w)
{
	struct warp_hdr *h = gpu_warp(g, sv, w);
	h->status = W_READY;
	h->sp = 1;
	struct stack_entry *st = gpu_stack(g, sv, w);
	st[0].pc = 0;
	st[0].rpc = (uint16_t)g->prog->nins;
	unsigned n = g->cfg.threads_per_warp;
	st[0].mask = n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

static unsigned pc_of(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return gpu_pc(c->g, sv, w);
}

static void fault(const struct comp *c, uint8_t *sv, unsigned w, int code)
{
	struct warp_hdr *h = gpu_warp(c->g, sv, w);
	h->status = W_FAULT;
	h->fault = (uint8_t)code;
}

static const char *fault_name(int code)
{
	switch (code) {
	case F_OOB: return "out-of-bounds memory access";
	case F_ALIGN: return "misaligned memory access (aligned to its size: 4 bytes, st.u16 2, st.u64 8)";
	case F_STACK: return "SIMT reconvergence stack overflow (raise stack_depth)";
	case F_DIVZERO: return "integer division by zero (or INT_MIN / -1)";
	case F_WINDOW: return "check persist_order: a thread has more stores not yet durable than its record holds (16)";
	case F_UNIFORM: return "a branch judged uniform diverged (a gpumc bug: WARP-5)";
	default: return "no fault";
	}
}

/* The kernel CTA (%ctaid) that the dispatcher put into warp w's hardware
** position (without one: the position). */
static unsigned kernel_cta(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct bind *gb = REQ(c, P_GRID);
	unsigned p = gpu_cta_of(c->g, w);
	return gb->ops ? ((const struct port_grid *)gb->ops)->ctaid(gb->c, sv, p) : p;
}

/* Special register sr in warp w as lanes (alu.h): uniform across the warp
** but for %tid, %laneid and %gtid, which step by one per lane.  Out of
** line: inlined, its port call made lanes_of() save and restore registers
** on every call. */
static __attribute__((noinline)) struct alu_lanes special(const struct comp *cp, const uint8_t *sv, unsigned w, int sr)
{
	const struct gpu *g = cp->g;
	const struct gpu_cfg *c = &g->cfg;
	unsigned cta = kernel_cta(cp, sv, w);
	unsigned wc = w % c->warps_per_cta;
	unsigned tid0 = wc * c->threads_per_warp; /* %tid of lane 0 */
	unsigned ntid = c->warps_per_cta * c->threads_per_warp;
	switch (sr) {
	case SR_TID: return (struct alu_lanes){ NULL, tid0, 1 };
	case SR_NTID: return (struct alu_lanes){ NULL, ntid, 0 };
	case SR_CTAID: return (struct alu_lanes){ NULL, cta, 0 };
	case SR_NCTAID: return (struct alu_lanes){ NULL, c->ctas, 0 };
	case SR_LANEID: return (struct alu_lanes){ NULL, 0, 1 };
	case SR_WARPID: return (struct alu_lanes){ NULL, wc, 0 };
	case SR_NWARPID: return (struct alu_lanes){ NULL, c->warps_per_cta, 0 };
	case SR_SMID: return (struct alu_lanes){ NULL, gpu_sm_of(g, w), 0 };
	case SR_GTID: return (struct alu_lanes){ NULL, cta * ntid + tid0, 1 };
	case SR_GWARPID: return (struct alu_lanes){ NULL, cta * c->warps_per_cta + wc, 0 };
	case SR_WARPSZ: return (struct alu_lanes){ NULL, c->threads_per_warp, 0 };
	}
	return (struct alu_lanes){ NULL, 0, 0 };
}

/* Operand o of warp w in every lane, evaluated once per issue.  Inline:
** three per ALU issue. */
static inline __attribute__((always_inline)) struct alu_lanes lanes_of(const struct comp *c, const uint8_t *sv, unsigned w, const struct operand *o)
{
	const struct gpu *g = c->g;
	switch (o->kind) {
	case O_REG: return (struct alu_lanes){ gpu_reg(g, (uint8_t *)sv, w, o->reg), 0, 0 }; /* NULL: 0 */
	case O_IMM: return (struct alu_lanes){ NULL, o->imm, 0 };
	case O_SPECIAL: return special(c, sv, w, o->special);
	case O_SYM: return (struct alu_lanes){ NULL, g->prog->syms[o->sym].base, 0 };
	default: return (struct alu_lanes){ NULL, 0, 0 };
	}
}

static struct alu_lanes operand(const struct comp *c, const uint8_t *sv, unsigned w, const struct operand *o)
{
	return lanes_of(c, sv, w, o);
}

static void write_reg(const struct comp *c, uint8_t *sv, unsigned w, unsigned lane, int r, uint32_t v)
{
	gpu_reg(c->g, sv, w, r)[lane] = v;
}

/* The lanes of the top entry whose guard (predicate register) holds.
** Lanes 0..n-1 all in m (a converged warp): a bit per lane without a
** branch, four at a time, each lane's bit its mask's, in a full warp;
** else lane by lane over m's (a diverged warp has few). */
static uint32_t guarded(const struct gpu *g, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m)
{
	uint32_t r = 0;
	const uint32_t *p = gpu_reg(g, sv, w, in->pred);
	if (!p) /* never written: 0 */
		return in->pred_neg ? m : 0;
	if (m == 0xffffffffu) {
		lanes4 bit = { 1, 2, 4, 8 }, acc = { 0, 0, 0, 0 };
		for (unsigned l = 0; l < 32; l += 4, bit <<= 4) {
			lanes4 x;
			memcpy(&x, p + l, sizeof x);
			acc |= (lanes4)(x != 0) & bit;
		}
		r = acc[0] | acc[1] | acc[2] | acc[3];
		return in->pred_neg ? ~r : r;
	}
	if (m && !(m & (m + 1))) {
		for (unsigned l = 0, n = 32u - (unsigned)__builtin_clz(m); l < n; l++)
			r |= (uint32_t)(p[l] != 0) << l;
		return in->pred_neg ? ~r & m : r;
	}
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		if ((p[l] != 0) != in->pred_neg)
			r |= 1u << l;
	}
	return r;
}

/* The lanes that execute warp w's current instruction in. */
static inline __attribute__((always_inline)) uint32_t mask_of(const struct gpu *g, const uint8_t *sv, unsigned w,
                                                             const struct instr *in)
{
	uint8_t *s = (uint8_t *)sv;
	uint32_t m = gpu_stack(g, s, w)[gpu_warp(g, s, w)->sp - 1].mask;
	if (in->pred < 0 || in->op == OP_BRA) /* bra: the guard selects the taken lanes */
		return m;
	return guarded(g, s, w, in, m);
}

static uint32_t exec_mask(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return mask_of(c->g, sv, w, cur(c->g, sv, w));
}

/* The address of warp w's current instruction `in` in every lane (alu.h).
** Inline: every memory issue and the atomics' ports ask. */
static inline __attribute__((always_inline)) struct alu_lanes address_lanes(const struct comp *c, const uint8_t *sv,
                                                                        unsigned w, const struct instr *in)
{
	const struct gpu *g = c->g;
	const struct address *a = &in->addr;
	uint32_t base = (uint32_t)a->offset + (a->sym >= 0 ? g->prog->syms[a->sym].base : 0);
	const uint32_t *r = a->reg >= 0 ? gpu_reg(g, (uint8_t *)sv, w, a->reg) : NULL;
	return (struct alu_lanes){ r, base, 0 };
}

static uint32_t address(const struct comp *c, const uint8_t *sv, unsigned w, unsigned lane)
{
	struct alu_lanes a = address_lanes(c, sv, w, cur(c->g, sv, w));
	return alu_lane(&a, lane);
}

static void addresses(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m, uint32_t *out)
{
	struct alu_lanes a = address_lanes(c, sv, w, cur(c->g, sv, w));
	if (m == 0xffffffffu && a.r) { /* a whole warp: four lanes at a time */
		for (unsigned l = 0; l < 32; l += 4) {
			lanes4 x;
			memcpy(&x, a.r + l, sizeof x);
			x += a.base;
			memcpy(out + l, &x, sizeof x);
		}
		return;
	}
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		out[l] = alu_lane(&a, l);
	}
}

/* Per instruction, decoded once at layout (the component's private
** table, WARP-6): a warp-local issue (local_table), a branch that may
** diverge (program_divergent); a register instruction's loop (alu.h,
** alu_kernel_of), its register sources and destination as rows of the
** warp's registers and its other sources as values in every lane, so
** that its issue is one call without decoding anything (alu_decoded). */
enum {
	PC_LOCAL = 1, PC_DIVERGES = 2,
	PC_ALU = 4, /* kern, and it cannot fault (not div, rem) */
	PC_LOAD = 8, /* a word ld no order holds back (not strong): load_words */
	PC_BRA = 16, /* a branch: issue calls branch itself */
	PC_ATOM = 32 /* a global atom/red, not .release, without a special-register source: atom_issue, atom_lanes */
};
struct pc_info {
	alu_kernel kern;     /* a register instruction without a special-register source: its loop; else NULL */
	int32_t row[3];      /* source k a register that has a row: its first word (gpu.h reg_row); else -1 */
	int32_t dst;         /* the destination's row; -1: none */
	int32_t arow;        /* PC_LOAD, PC_ATOM: the address's register's row; -1: none */
	uint32_t abase;      /* PC_LOAD, PC_ATOM: the address's symbol's base + offset */
	uint8_t flags;
	uint32_t val[3][32]; /* source k not a row: its value (an immediate's, a symbol's, 0) in every lane */
	const struct instr *in; /* the instruction, the kernel's first argument (an ALU issue at once
	                        ** loads it here, not through g->prog); NULL past the end */
	/* the fields take 432 bytes: to 512, so that info_of's index is a
	** shift (at 432 the compiler multiplied in three instructions) */
	uint8_t pad[512 - 432];
};
_Static_assert(sizeof(struct pc_info) == 512, "pc_info is 512 bytes: info_of shifts");

/* Source k of decoded instruction d in a warp's registers regs. */
#define SRC(d, regs, k) ((d)->row[k] >= 0 ? (regs) + (d)->row[k] : (d)->val[k])

static const struct pc_info *info_of(const struct comp *c, unsigned pc)
{
	return &((const struct pc_info *)c->priv)[pc];
}

/* A global atom/red's address and sources (port_warps.atom_lanes): from
** the table where decoded (PC_ATOM), no operand's kind asked. */
static void atom_lanes(const struct comp *c, const uint8_t *sv, unsigned w, struct alu_lanes out[3])
{
	const struct gpu *g = c->g;
	unsigned pc = top_pc(g, sv, w);
	const struct pc_info *d = info_of(c, pc);
	if (d->flags & PC_ATOM) {
		const uint32_t *regs = gpu_regs(g, (uint8_t *)sv, w);
		out[0] = (struct alu_lanes){ d->arow >= 0 ? regs + d->arow : NULL, d->abase, 0 };
		out[1] = (struct alu_lanes){ SRC(d, regs, 0), 0, 0 };
		out[2] = (struct alu_lanes){ SRC(d, regs, 1), 0, 0 };
		return;
	}
	const struct instr *in = &g->prog->ins[pc];
	out[0] = address_lanes(c, sv, w, in);
	out[1] = lanes_of(c, sv, w, &in->src[0]);
	out[2] = lanes_of(c, sv, w, &in->src[1]);
}

/* After the table, in its block (c->priv, which the composer frees): the
** taken lanes of the branch warps_prepare_issue counted last, kept for its
** issue (WARP-7). */
struct branch_kept {
	const uint8_t *sv; /* the state warps_prepare_issue counted the branch in; NULL: none kept */
	unsigned w, pc;
	uint32_t taken;
	int check; /* GPUMC_CHECK_READY: WARP-7 checked */
	uint32_t plant; /* GPUMC_TEST_FAULT=warp-7: 1, the lanes WARP-7 takes the kept ones to be off by */
};
static struct branch_kept *kept_of(const struct comp *c)
{
	return (struct branch_kept *)((struct pc_info *)c->priv + c->g->prog->nins + 1);
}

/* Pop warp h's entries (its stack st) that reached their reconvergence
** point (WARP-2).  Inline: every issue of a READY warp ends here; its
** record found once by the caller (a store into the vector may alias the
** geometry, which would be read again). */
static inline __attribute__((always_inline)) void reconverge(struct warp_hdr *h, struct stack_entry *st)
{
	while (h->sp > 0 && st[h->sp - 1].pc == st[h->sp - 1].rpc) {
		memset(&st[h->sp - 1], 0, sizeof *st);
		h->sp--;
	}
	if (h->sp == 0)
		h->status = W_DONE;
}

/* Warp h (its stack st) past its instruction. */
static inline __attribute__((always_inline)) void step_over(struct warp_hdr *h, struct stack_entry *st)
{
	st[h->sp - 1].pc++;
	h->status = W_READY;
	reconverge(h, st);
}

/* Inline: most issues end here (an ALU op, a load), its record found once. */
static inline __attribute__((always_inline)) void advance(const struct comp *c, uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	struct warp_hdr *h = gpu_warp(g, sv, w);
	step_over(h, gpu_stack_of(h));
}

/* Lanes in `gone` leave the warp for good: drop them from every entry and
** remove entries left empty (WARP-1, WARP-2). */
static void lanes_exit(const struct gpu *g, uint8_t *sv, unsigned w, uint32_t gone)
{
	struct warp_hdr *h = gpu_warp(g, sv, w);
	struct stack_entry *st = gpu_stack(g, sv, w);
	unsigned k = 0;
	for (unsigned i = 0; i < h->sp; i++) {
		st[i].mask &= ~gone;
		if (st[i].mask)
			st[k++] = st[i];
	}
	for (unsigned i = k; i < h->sp; i++)
		memset(&st[i], 0, sizeof *st);
	h->sp = (uint8_t)k;
	if (k == 0)
		h->status = W_DONE;
}

/* The lanes of guarded branch `in` at pc that take it (guarded), kept by
** warps_prepare_issue where it counted them in this state (WARP-7). */
static uint32_t branch_taken(const struct comp *c, uint8_t *sv, unsigned w, const struct instr *in, unsigned pc,
                             uint32_t m)
{
	struct branch_kept *k = kept_of(c);
	if (k->sv != sv || k->w != w || k->pc != pc)
		return guarded(c->g, sv, w, in, m);
	k->sv = NULL;
	if (k->check && (k->taken ^ k->plant) != guarded(c->g, sv, w, in, m)) {
		fprintf(stderr, "gpumc: internal error: WARP-7: warp %u's branch at pc %u: taken lanes 0x%x kept, 0x%x now\n",
		        w, pc, k->taken ^ k->plant, guarded(c->g, sv, w, in, m));
		abort();
	}
	return k->taken;
}

/* Out of line: issue_other's jump, and issue's call for a branch. */
static __attribute__((noinline)) void branch(const struct comp *c, uint8_t *sv, unsigned w, const struct instr *in)
{
	const struct gpu *g = c->g;
	struct warp_hdr *h = gpu_warp(g, sv, w);
	struct stack_entry *st = gpu_stack(g, sv, w);
	struct stack_entry *top = &st[h->sp - 1];
	unsigned pc = top->pc;
	uint32_t m = top->mask, taken = in->pred < 0 ? m : branch_taken(c, sv, w, in, pc, m);
	uint32_t fall = m & ~taken;
	if (!fall) {
		top->pc = (uint16_t)in->target;
	} else if (!taken) {
		top->pc = (uint16_t)(pc + 1);
	} else {
		/* divergence: the top entry waits at the reconvergence point with
		** the full mask, above it the fall-through path, then the taken
		** path, which runs first.  When the top entry already reconverges
		** at that point (a divergent loop back-edge), it is replaced
		** rather than kept: the entry below reconverges its lanes at the
		** same pc, and the stack stays bounded however often the loop
		** diverges.  The bottom entry is never replaced (paths that
		** reconverge only at the end, in exit): it holds the live lanes
		** (WARP-1), which a barrier waits for. */
		if (!(info_of(c, pc)->flags & PC_DIVERGES)) { /* WARP-5 */
			fault(c, sv, w, F_UNIFORM);
			return;
		}
		uint16_t r = (uint16_t)in->ipdom;
		unsigned base = top->rpc == r && h->sp > 1 ? h->sp - 1u : h->sp;
		unsigned need = base + (pc + 1u != r) + 1u;
		if (need > g->cfg.stack_depth) {
			fault(c, sv, w, F_STACK);
			return;
		}
		top->pc = r;
		h->sp = (uint8_t)base;
		if (pc + 1u != r) /* a non-empty fall-through path */
			st[h->sp++] = (struct stack_entry){ (uint16_t)(pc + 1), r, fall };
		st[h->sp++] = (struct stack_entry){ (uint16_t)in->target, r, taken };
	}
	reconverge(h, st);
}

/* Register instruction `in`, decoded (d->kern), in lanes m of warp w
** (its record h): its loop, then the next pc.  Inline: most issues end
** here, the record found once by the caller. */
static inline __attribute__((always_inline)) void alu_decoded(const struct comp *c, uint8_t *sv, unsigned w,
                                                             struct warp_hdr *h, const struct instr *in,
                                                             const struct pc_info *d, uint32_t m)
{
	const struct gpu *g = c->g;
	struct stack_entry *st = gpu_stack_of(h);
	uint32_t *regs = (uint32_t *)((uint8_t *)h + g->reg_off);
	int f = d->kern(in, m, SRC(d, regs, 0), SRC(d, regs, 1), SRC(d, regs, 2), regs + d->dst);
	if (f) {
		fault(c, sv, w, f);
		return;
	}
	step_over(h, st);
}

static void alu(const struct comp *c, uint8_t *sv, unsigned w, const struct instr *in, const struct pc_info *d,
                uint32_t m)
{
	if (d->kern) {
		alu_decoded(c, sv, w, gpu_warp(c->g, sv, w), in, d, m);
		return;
	}
	/* a special-register source: lanes per issue */
	struct alu_lanes src[3]; /* written out: a loop of three cost 20 Ir an issue more */
	src[0] = lanes_of(c, sv, w, &in->src[0]), src[1] = lanes_of(c, sv, w, &in->src[1]);
	src[2] = lanes_of(c, sv, w, &in->src[2]);
	int f = alu_lanes_exec(in, m, src, gpu_reg(c->g, sv, w, in->dst));
	if (f)
		fault(c, sv, w, f);
	else
		advance(c, sv, w);
}

/* ld/st and shared-memory atomics: performed in lane order in this step. */
static void memop(const struct comp *c, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m)
{
	const struct port_mem *mem = MEM(c);
	const struct comp *mc = REQ(c, P_MEM)->c;
	/* global ld/st through a store buffer when there is one (GPUDet) */
	const struct comp *sb = in->space == SP_GLOBAL ? REQ(c, P_SBUF)->c : NULL;
	unsigned cta = gpu_cta_of(c->g, w);
	/* addresses and sources once for the warp (alu.h); a word load has no sources */
	struct alu_lanes ad = address_lanes(c, sv, w, in);
	if (in->op == OP_LD && !in->width && !sb) { /* the common case, word loads: the loop below, pruned */
		uint32_t *d = gpu_reg(c->g, sv, w, in->dst);
		if (mem->loads) {
			int f = mem->loads(mc, sv, in->space, cta, in->addr.sym, &ad, m, d);
			if (f)
				fault(c, sv, w, f);
			else
				advance(c, sv, w);
			return;
		}
		for (; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			int f = 0;
			long word = mem->word(mc, sv, in->space, cta, in->addr.sym, alu_lane(&ad, l), &f);
			if (word < 0) {
				fault(c, sv, w, f);
				return;
			}
			d[l] = mem->load(mc, sv, in->space, cta, word);
		}
		advance(c, sv, w);
		return;
	}
	struct alu_lanes s0 = lanes_of(c, sv, w, &in->src[0]), s1 = lanes_of(c, sv, w, &in->src[1]);
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		int f = 0;
		uint32_t addr = alu_lane(&ad, l), at = addr & 3;
		if (in->width && addr % (unsigned)in->width) { /* natural alignment */
			fault(c, sv, w, F_ALIGN);
			return;
		}
		long word = mem->word(mc, sv, in->space, cta, in->addr.sym, addr - (in->width ? at : 0), &f);
		long hi = in->width == 8 ? mem->word(mc, sv, in->space, cta, in->addr.sym, addr + 4, &f) : 0;
		if (word < 0 || hi < 0) {
			fault(c, sv, w, f);
			return;
		}
		if (in->width == 8) { /* st.u64: both words in this one step */
			for (int k = 0; k < 2; k++) {
				long wk = k ? hi : word;
				uint32_t vk = alu_lane(k ? &s1 : &s0, l);
				if (sb)
					SBUF(c)->store(sb, sv, w, wk, vk, 0xf);
				else
					mem->store(mc, sv, in->space, cta, wk, vk);
			}
			continue;
		}
		/* st.u8/.u16: the register's low bytes into their place in the word */
		unsigned bytes = in->width ? ((1u << in->width) - 1) << at : 0xf;
		uint32_t v = in->op == OP_ST ? alu_lane(&s0, l) << 8 * (in->width ? at : 0) : 0;
		if (sb && in->op == OP_LD) {
			write_reg(c, sv, w, l, in->dst, SBUF(c)->load(sb, sv, w, word));
		} else if (sb && in->op == OP_ST) {
			SBUF(c)->store(sb, sv, w, word, v, bytes);
		} else if (in->op == OP_ST && in->width) {
			uint32_t keep = ~sbuf_bytes(bytes);
			mem->store(mc, sv, in->space, cta, word, (mem->load(mc, sv, in->space, cta, word) & keep) | (v & ~keep));
		} else if (in->op == OP_LD) {
			write_reg(c, sv, w, l, in->dst, mem->load(mc, sv, in->space, cta, word));
		} else if (in->op == OP_ST) {
			mem->store(mc, sv, in->space, cta, word, v);
		} else {
			uint32_t old = mem->rmw(mc, sv, in->space, cta, word, in->aop, in->type,
			                        alu_lane(&s0, l), alu_lane(&s1, l));
			if (in->op == OP_ATOM)
				write_reg(c, sv, w, l, in->dst, old);
		}
	}
	advance(c, sv, w);
}

/* May warp w pass fence-like instruction op: every order provider agrees
** (the ROP or DAB for its atomics, persistency for its acknowledgements). */
static int order_clear(const struct comp *c, const uint8_t *sv, unsigned w, enum opcode op)
{
	for (unsigned i = 0; i < c->nreq[P_ORDER]; i++) {
		const struct bind *b = &c->req[P_ORDER][i];
		if (!((const struct port_order *)b->ops)->clear(b->c, sv, w, op))
			return 0;
	}
	return 1;
}

/* May warp w perform strong access `in` now: a .release store is a fence
** first, then the store. */
static int strong_clear(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in)
{
	return (!instr_releasing(in) || order_clear(c, sv, w, OP_MEMBAR)) && order_clear(c, sv, w, in->op);
}

static void arrive(const struct comp *c, uint8_t *sv, unsigned w)
{
	const struct bind *b = REQ(c, P_BARRIER);
	((const struct port_barrier *)b->ops)->arrive(b->c, sv, gpu_cta_of(c->g, w));
}

/* A barrier's fence part is clear: the warp's lanes arrive. */
static void at_barrier(const struct comp *c, uint8_t *sv, unsigned w)
{
	gpu_warp(c->g, sv, w)->status = W_BARRIER;
	arrive(c, sv, w);
}

/* Warp w's global atomic in lanes m (some) to the atomics provider: the
** warp moves on, waits for its values or for room, or faulted.  Inline:
** issue_other's and atom_issue's. */
static inline __attribute__((always_inline)) void atomic_push(const struct comp *c, uint8_t *sv, unsigned w,
                                                             uint32_t m)
{
	const struct bind *b = REQ(c, P_ATOMICS);
	int r = ((const struct port_atomics *)b->ops)->push(b->c, sv, w, m);
	struct warp_hdr *h = gpu_warp(c->g, sv, w);
	if (h->status == W_FAULT)
		return;
	if (r == PUSH_DONE)
		advance(c, sv, w);
	else
		h->status = r == PUSH_WAIT_VALUES ? W_ATOMIC : W_WAIT;
}

/* issue of anything but a decoded register instruction without
** persistency.  Out of line: inlined, its calls made every issue save
** and restore registers. */
static __attribute__((noinline)) void issue_other(const struct comp *c, uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	unsigned pc = top_pc(g, sv, w);
	const struct instr *in = &g->prog->ins[pc];
	uint32_t m = mask_of(g, sv, w, in);
	const struct bind *pm = REQ(c, P_PM);
	if (pm->ops && ((const struct port_pm *)pm->ops)->op(pm->c, sv, w, in, m))
		return;
	switch (in->op) {
	case OP_BRA:
		branch(c, sv, w, in);
		return;
	case OP_EXIT:
		if (m != gpu_stack(g, sv, w)[gpu_warp(g, sv, w)->sp - 1].mask)
			advance(c, sv, w);
		lanes_exit(g, sv, w, m);
		arrive(c, sv, w);
		return;
	case OP_BAR: /* bar.sync is a CTA fence, then the barrier */
		if (!m)
			advance(c, sv, w);
		else if (!order_clear(c, sv, w, OP_BAR))
			gpu_warp(g, sv, w)->status = W_WAIT;
		else
			at_barrier(c, sv, w);
		return;
	case OP_MEMBAR:
	case OP_SFENCE:  /* without a persistence domain, a membar */
	case OP_PCOMMIT: /* without one, nothing to wait for */
		if (!m || order_clear(c, sv, w, in->op)) /* guarded off: no fence */
			advance(c, sv, w);
		else
			gpu_warp(g, sv, w)->status = W_WAIT;
		return;
	case OP_NOP:
	case OP_CLWB: /* without a persistence domain: nothing to do */
	case OP_L2WB:
		advance(c, sv, w);
		return;
	case OP_LD:
	case OP_ST: /* a strong global access may be ordered (DAB: a flush) */
		if (m && in->space == SP_GLOBAL && instr_strong(in) && !strong_clear(c, sv, w, in))
			gpu_warp(g, sv, w)->status = W_WAIT;
		else
			memop(c, sv, w, in, m);
		return;
	case OP_ATOM:
	case OP_RED:
		if (!m) {
			advance(c, sv, w);
		} else if (in->space == SP_SHARED) {
			memop(c, sv, w, in, m);
		} else if (instr_releasing(in) && !order_clear(c, sv, w, OP_MEMBAR)) {
			/* .release: a fence first; issued again once it is clear */
			gpu_warp(g, sv, w)->status = W_WAIT;
		} else {
			atomic_push(c, sv, w, m);
		}
		return;
	default:
		alu(c, sv, w, in, info_of(c, pc), m);
		return;
	}
}

/* A decoded register instruction that cannot fault (PC_ALU), d, in
** lanes m of warp h (its stack st, its registers regs): the warp moved
** past it, then its loop (registers only, apart from the stack) called
** last, a jump. */
static inline __attribute__((always_inline)) void alu_run(struct warp_hdr *h, struct stack_entry *st, uint32_t *regs,
                                                         const struct instr *in, const struct pc_info *d, uint32_t m)
{
	step_over(h, st); /* first: fewer values live across it */
	d->kern(in, m, SRC(d, regs, 0), SRC(d, regs, 1), SRC(d, regs, 2), regs + d->dst);
}

/* alu_run of a guarded one (its lanes a call: out of issue's way). */
static __attribute__((noinline)) void alu_guarded(const struct gpu *g, uint8_t *sv, unsigned w, struct warp_hdr *h,
                                                  const struct instr *in, const struct pc_info *d)
{
	struct stack_entry *st = gpu_stack_of(h);
	uint32_t m = guarded(g, sv, w, in, st[h->sp - 1].mask);
	alu_run(h, st, (uint32_t *)((uint8_t *)h + g->reg_off), in, d, m);
}

/* The issue of PC_ALU instruction in (decoded: d) by warp w (its record
** h, stack st, top entry top): alu_run, or alu_guarded where guarded.
** Inline: issue's and warps_issue_alone's. */
static inline __attribute__((always_inline)) void alu_issue(const struct gpu *g, uint8_t *sv, unsigned w,
                                                           struct warp_hdr *h, struct stack_entry *st,
                                                           const struct stack_entry *top, const struct instr *in,
                                                           const struct pc_info *d)
{
	if (in->pred >= 0)
		alu_guarded(g, sv, w, h, in, d);
	else
		alu_run(h, st, (uint32_t *)((uint8_t *)h + g->reg_off), in, d, top->mask);
}

/* A word load no order holds back (PC_LOAD) by warp h, decoded (d):
** memop's common case with its address and destination decoded, where
** the memory loads a warp's words at once and no store buffer is read. */
static __attribute__((noinline)) void load_words(const struct comp *c, uint8_t *sv, unsigned w, struct warp_hdr *h,
                                                 const struct pc_info *d)
{
	const struct gpu *g = c->g;
	const struct port_mem *mem = MEM(c);
	struct stack_entry *st = gpu_stack_of(h), *top = &st[h->sp - 1];
	const struct instr *in = &g->prog->ins[top->pc];
	if (!mem->loads || (in->space == SP_GLOBAL && REQ(c, P_SBUF)->c)) {
		issue_other(c, sv, w);
		return;
	}
	uint32_t m = in->pred < 0 ? top->mask : guarded(g, sv, w, in, top->mask);
	uint32_t *regs = (uint32_t *)((uint8_t *)h + g->reg_off);
	struct alu_lanes ad = { d->arow >= 0 ? regs + d->arow : NULL, d->abase, 0 };
	int f = mem->loads(REQ(c, P_MEM)->c, sv, in->space, gpu_cta_of(g, w), in->addr.sym, &ad, m, regs + d->dst);
	if (f)
		fault(c, sv, w, f);
	else
		step_over(h, st);
}

/* A global atom/red (PC_ATOM) by warp h: issue_other's case, its guard
** read from the top entry, no opcode switch. */
static __attribute__((noinline)) void atom_issue(const struct comp *c, uint8_t *sv, unsigned w, struct warp_hdr *h)
{
	const struct gpu *g = c->g;
	struct stack_entry *st = gpu_stack_of(h), *top = &st[h->sp - 1];
	const struct instr *in = &g->prog->ins[top->pc];
	uint32_t m = in->pred < 0 ? top->mask : guarded(g, sv, w, in, top->mask);
	if (m)
		atomic_push(c, sv, w, m);
	else
		step_over(h, st);
}

/* Most issues are a decoded register instruction that cannot fault
** (PC_ALU): its record and table entry found once, alu_run; a word load,
** load_words; a branch, branch; a global atomic, atom_issue (not
** issue_other's prologue and switch); the rest, issue_other.  Warp w's
** record h, stack st, its top entry top and top's table entry d found by
** the caller: inline, issue's and issue_other_at_once's. */
static inline __attribute__((always_inline)) void issue_at(const struct comp *c, uint8_t *sv, unsigned w,
                                                          struct warp_hdr *h, struct stack_entry *st,
                                                          const struct stack_entry *top, const struct pc_info *d)
{
	const struct gpu *g = c->g;
	/* persistency sees every issue (port_pm.op): issue_other */
	if (d->flags & PC_ALU && !REQ(c, P_PM)->ops) {
		alu_issue(g, sv, w, h, st, top, &g->prog->ins[top->pc], d);
	} else if (d->flags & PC_LOAD && !REQ(c, P_PM)->ops) {
		load_words(c, sv, w, h, d);
	} else if (d->flags & PC_BRA && !REQ(c, P_PM)->ops) {
		branch(c, sv, w, &g->prog->ins[top->pc]);
	} else if (d->flags & PC_ATOM && !REQ(c, P_PM)->ops) {
		atom_issue(c, sv, w, h);
	} else {
		issue_other(c, sv, w);
	}
}
static void issue(const struct comp *c, uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	struct warp_hdr *h = gpu_warp(g, sv, w);
	struct stack_entry *st = gpu_stack_of(h), *top = &st[h->sp - 1];
	issue_at(c, sv, w, h, st, top, info_of(c, top->pc));
}

static int waiting(const struct comp *c, const uint8_t *sv, unsigned w)
{
	uint8_t st = gpu_warp(c->g, (uint8_t *)sv, w)->status;
	return st == W_ATOMIC || st == W_WAIT;
}

static void resume(const struct comp *c, uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	struct warp_hdr *h = gpu_warp(g, sv, w);
	if (h->status == W_ATOMIC) { /* its atom's old values */
		const struct bind *b = REQ(c, P_ATOMICS);
		if (!((const struct port_atomics *)b->ops)->owed(b->c, sv, w))
			advance(c, sv, w);
		return;
	}
	if (h->status != W_WAIT)
		return;
	enum opcode op = cur(g, sv, w)->op;
	if (op == OP_ATOM || op == OP_RED)
		h->status = W_READY; /* refused for room: issue it again */
	else if (op == OP_LD || op == OP_ST ? !strong_clear(c, sv, w, cur(g, sv, w)) : !order_clear(c, sv, w, op))
		return;
	else if (op == OP_BAR)
		at_barrier(c, sv, w);
	else if (op == OP_LD || op == OP_ST) { /* a volatile access, performed now */
		h->status = W_READY;
		memop(c, sv, w, cur(g, sv, w), exec_mask(c, sv, w));
	} else
		advance(c, sv, w);
}

/* {=== Concrete mode, description, statistics of an issue =============== */

/* timing_issue, count_issue and local of warp w at instruction in (cur),
** each decoding it once: warps_prepare_issue asks all three of one
** issue.  op is in's, read once by the caller: a call in between (rnd)
** made the compiler read it again and switch on it again. */
static inline __attribute__((always_inline)) void timing_of(const struct comp *c, const uint8_t *sv, unsigned w,
                                                           const struct instr *in, enum opcode op, struct timing *t,
                                                           uint64_t (*rnd)(void *), void *rng)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	const struct bind *pm = REQ(c, P_PM);
	unsigned lat = cf->lat_alu;
	switch (op) {
	case OP_LD:
	case OP_ST:
		lat = in->space == SP_SHARED ? cf->lat_shared : cf->lat_global;
		if (in->space == SP_GLOBAL && cf->global_jitter)
			lat += (unsigned)(rnd(rng) % (cf->global_jitter + 1));
		if (op == OP_LD && in->space == SP_GLOBAL && REQ(c, P_SBUF)->ops && exec_mask(c, sv, w))
			lat += SBUF(c)->search(REQ(c, P_SBUF)->c, sv, w,
			                       address(c, sv, w, (unsigned)__builtin_ctz(exec_mask(c, sv, w))));
		break;
	case OP_BAR:
		lat = cf->lat_bar;
		break;
	case OP_ATOM:
	case OP_RED:
		if (in->space == SP_SHARED) {
			lat = cf->lat_shared;
		} else {
			const struct bind *b = REQ(c, P_ATOMICS);
			((const struct port_atomics *)b->ops)->timing_push(b->c, sv, w, t, rnd, rng);
		}
		break;
	default:
		break;
	}
	if (pm->ops)
		lat += ((const struct port_pm *)pm->ops)->timing_issue(pm->c, sv, w, in, t);
	t->upd[t->n].subject = c->subj0[0] + w;
	t->upd[t->n++].delay = lat;
}

static void timing_issue(const struct comp *c, const uint8_t *sv, unsigned w, struct timing *t,
                         uint64_t (*rnd)(void *), void *rng)
{
	const struct instr *in = cur(c->g, sv, w);
	timing_of(c, sv, w, in, in->op, t, rnd, rng);
}

enum { CT_INSTR, CT_ALU, CT_LD, CT_ST, CT_ATOM_ISSUE, CT_BAR, CT_BRANCH, CT_DIVERGE, CT_N };
static const char *const counters[CT_N] = {
	"warp instructions", "alu/cvt/setp", "loads", "stores", "atomic warp-requests",
	"barriers", "branches", "divergent branches"
};

/* keep: warps_prepare_issue's, where a guarded branch's taken lanes are kept
** for its issue (WARP-7); NULL: count_issue's, asked alone. */
static inline __attribute__((always_inline)) void count_of(const struct comp *c, const uint8_t *sv, unsigned w,
                                                          const struct instr *in, enum opcode op, uint64_t *ct,
                                                          struct branch_kept *keep)
{
	const struct gpu *g = c->g;
	uint8_t *s = (uint8_t *)sv;
	comp_count(c, ct, CT_INSTR, 1);
	switch (op) {
	case OP_LD: comp_count(c, ct, CT_LD, 1); break;
	case OP_ST: comp_count(c, ct, CT_ST, 1); break;
	case OP_ATOM:
	case OP_RED: {
		comp_count(c, ct, CT_ATOM_ISSUE, 1);
		const struct bind *b = REQ(c, P_ATOMICS);
		if (in->space == SP_GLOBAL && ((const struct port_atomics *)b->ops)->count_push)
			((const struct port_atomics *)b->ops)->count_push(b->c, sv, w, ct);
		break;
	}
	case OP_BAR: comp_count(c, ct, CT_BAR, 1); break;
	case OP_BRA: {
		comp_count(c, ct, CT_BRANCH, 1);
		if (in->pred >= 0) {
			uint32_t m0 = gpu_stack(g, s, w)[gpu_warp(g, s, w)->sp - 1].mask, t = guarded(g, s, w, in, m0);
			if (t && t != m0)
				comp_count(c, ct, CT_DIVERGE, 1);
			if (keep)
				keep->sv = sv, keep->w = w, keep->pc = (unsigned)(in - g->prog->ins), keep->taken = t;
		}
		break;
	}
	case OP_MEMBAR:
	case OP_EXIT:
	case OP_NOP:
		break;
	default: comp_count(c, ct, CT_ALU, 1); break;
	}
}

static void count_issue(const struct comp *c, const uint8_t *sv, unsigned w, uint64_t *ct)
{
	const struct instr *in = cur(c->g, sv, w);
	count_of(c, sv, w, in, in->op, ct, NULL);
}

static void describe_issue(const struct comp *c, const uint8_t *sv, unsigned w, struct strbuf *out)
{
	const struct gpu *g = c->g;
	unsigned pc = gpu_pc(g, sv, w);
	uint32_t m = exec_mask(c, sv, w);
	const struct instr *in = &g->prog->ins[pc];
	sb_printf(out, "warp %u (cta %u, sm %u) issues pc %u mask 0x%x: %s", w, kernel_cta(c, sv, w), gpu_sm_of(g, w), pc, m,
	          in->text);
	/* a shared-memory atomic is performed here, at issue: its operands,
	** as a ROP step shows those of a global one */
	if ((in->op == OP_ATOM || in->op == OP_RED) && in->space == SP_SHARED && m) {
		struct alu_lanes v = lanes_of(c, sv, w, &in->src[0]);
		sb_puts(out, " (");
		for (unsigned l = 0, first = 1; l < g->cfg.threads_per_warp; l++) {
			if (!(m >> l & 1))
				continue;
			sb_printf(out, "%slane %u: [", first ? "" : ", ", l);
			program_addr_name(g->prog, SP_SHARED, address(c, sv, w, l), out);
			sb_puts(out, "] ");
			value_print(alu_lane(&v, l), in->type, out);
			first = 0;
		}
		sb_putc(out, ')');
	}
}

/* }=== */

/* {=== Partial-order reduction: warp-local instructions ================= */

/* Per instruction, decided once: its issue touches only the warp's own
** registers and stack (ALU, nop, branches, non-volatile loads of
** read-only variables: program_read_only, host steps writing memory only
** while no warp runs), and every pc it can lead to is inside the kernel,
** so the warp stays READY with the same live lanes (the bottom entry,
** whose rpc is the end, is neither popped nor replaced; main's SIMT rule
** that a divergent branch never replaces it keeps this so).  An
** unpredicated exit is a candidate too: taken with the whole warp
** converged (local() checks), it retires the warp, DONE with an empty
** stack; it is local only where every component declares exit
** independent of itself (component.h, compose_por_independent_of_exit):
** SPIN's twins take `done = 1` as a local step, and without this the
** exits of lane-reduction's warps multiplied its reduced graph by 3.6. */
static uint8_t *local_table(const struct program *p)
{
	uint8_t *t = xcalloc((size_t)p->nins + 1, 1);
	for (int i = 0; i < p->nins; i++) {
		const struct instr *in = &p->ins[i];
		int inside = i + 1 < p->nins;
		switch (in->op) {
		case OP_BRA:
			t[i] = inside && in->target < p->nins && in->ipdom < p->nins;
			break;
		case OP_LD: /* a strong one may wait for its order (DAB: a flush) */
			t[i] = inside && !instr_strong(in) && in->addr.sym >= 0 && program_read_only(p, in->space, in->addr.sym);
			break;
		case OP_EXIT:
			t[i] = in->pred < 0;
			break;
		case OP_BAR: case OP_MEMBAR: case OP_ST: case OP_ATOM: case OP_RED:
		case OP_CLWB: case OP_SFENCE: case OP_PCOMMIT: case OP_L2WB:
			break;
		default: /* ALU and nop */
			t[i] = inside;
			break;
		}
	}
	return t;
}

/* The next issue of warp h (its record) when it is warp-local: a READY
** warp at such an instruction (an exit with the warp converged: one
** stack entry, so every live lane leaves).  It may still fault (x/0,
** stack overflow, a bad address); the explorer does not reduce on a step
** that ends in a fault, nor on the last exit (the kernel's status
** changes). */
static inline __attribute__((always_inline)) const struct instr *local_of(const struct warp_hdr *h,
                                                                          const struct instr *in, enum opcode op,
                                                                          const struct pc_info *d)
{
	if (h->status != W_READY || !(d->flags & PC_LOCAL) || (op == OP_EXIT && h->sp != 1))
		return NULL;
	return in;
}

static const struct instr *local(const struct comp *c, const uint8_t *sv, unsigned w)
{
	unsigned pc = gpu_pc(c->g, sv, w);
	const struct instr *in = &c->g->prog->ins[pc];
	return local_of(gpu_warp(c->g, (uint8_t *)sv, w), in, in->op, info_of(c, pc));
}

/* timing_issue, count_issue, then local, of warp w at instruction in. */
static inline __attribute__((always_inline)) const struct instr *prepare_of(const struct comp *c, const uint8_t *sv,
                                                                           unsigned w, const struct instr *in,
                                                                           unsigned pc, struct timing *t,
                                                                           uint64_t (*rnd)(void *), void *rng,
                                                                           uint64_t *ct)
{
	/* found before the counts, which the compiler cannot tell from the geometry */
	const struct warp_hdr *h = gpu_warp(c->g, (uint8_t *)sv, w);
	const struct pc_info *d = info_of(c, pc);
	enum opcode op = in->op;
	timing_of(c, sv, w, in, op, t, rnd, rng);
	count_of(c, sv, w, in, op, ct, op == OP_BRA ? kept_of(c) : NULL);
	return local_of(h, in, op, d);
}

/* prepare_of of an issue other than an ALU one without persistency.  Out
** of line, with as many parameters as warps_prepare_issue (a jump, not a
** call): inlined, its calls made every issue save and restore registers. */
static __attribute__((noinline)) const struct instr *prepare_other(const struct comp *c, const uint8_t *sv, unsigned w,
                                                                   struct timing *t, uint64_t (*rnd)(void *),
                                                                   void *rng, uint64_t *ct)
{
	unsigned pc = top_pc(c->g, sv, w);
	return prepare_of(c, sv, w, &c->g->prog->ins[pc], pc, t, rnd, rng, ct);
}

/* scheduler.h: the issue of a READY warp (its stack is not empty).  An
** ALU issue without persistency (most) calls nothing: prepare_of with
** its op known. */
const struct instr *warps_prepare_issue(const struct comp *s, const uint8_t *sv, const struct action *a,
                                        struct timing *t, uint64_t (*rnd)(void *), void *rng, uint64_t *ct)
{
	const struct comp *c = REQ(s, P_WARPS)->c;
	unsigned w = a->subject - c->subj0[0];
	unsigned pc = top_pc(c->g, sv, w);
	const struct instr *in = &c->g->prog->ins[pc];
	if (in->op <= OP_SELP && !REQ(c, P_PM)->ops)
		return prepare_of(c, sv, w, in, pc, t, rnd, rng, ct);
	return prepare_other(c, sv, w, t, rnd, rng, ct);
}

/* warps_issue_alone's issue of an instruction other than a PC_ALU one
** (warp w's record h, stack st, top entry top, its table entry d):
** prepare_of, then issue_at, on warps_issue_alone's one decode.  Inline: out of line (a jump, so
** that the ALU issues saved no registers for its calls) it decoded the
** pc again, and warps_issue_alone saved six registers all the same
** (DAB pagerank 0.4% fewer instructions inline). */
static inline __attribute__((always_inline)) int issue_other_at_once(const struct comp *c, uint8_t *sv, unsigned w,
                                                                    struct warp_hdr *h, struct stack_entry *st,
                                                                    const struct stack_entry *top,
                                                                    const struct pc_info *d, struct timing *t,
                                                                    uint64_t (*rnd)(void *), void *rng, uint64_t *ct)
{
	const struct gpu *g = c->g;
	unsigned pc = top->pc;
	prepare_of(c, sv, w, &g->prog->ins[pc], pc, t, rnd, rng, ct); /* moves nothing of the warp */
	issue_at(c, sv, w, h, st, top, d);
	return 1 + (h->status == W_FAULT);
}

/* scheduler.h: prepare and apply of an issue at once where compose.c's
** por_pc says 1 or 3 (every component declares it independent of
** itself; 3: it may fault its warp) and warps_alone_at does: a
** warp-local instruction (local_table: one of its warp's registers and
** stack alone; not an exit, por_pc 2) without persistency, which sees
** every issue (port_pm.op).  Then the
** scheduler's apply is the warps' issue alone (dab_sched.c's por says
** yes only under rules whose apply needs no view for a non-atomic:
** view_atom), and the answer local_of's, 1, or 2 where it faulted its
** warp.  A decoded register instruction (PC_ALU: 1) is timing_of,
** count_of of its op's default case and issue's alu_run, on one decode;
** the others issue_other_at_once.  Asked for every issue of the
** scheduler's kind (compose.c's one lookup of the warp's pc, here), it
** gives one not at once (gpu.alone: an atomic, mostly) to
** compose_issue_apart.  WARP-8. */
int warps_alone_at(const struct comp *s, unsigned pc)
{
	const struct comp *c = REQ(s, P_WARPS)->c;
	return !REQ(c, P_PM)->ops && info_of(c, pc)->flags & PC_LOCAL;
}
int warps_issue_alone(const struct comp *s, uint8_t *sv, const struct action *a, struct timing *t,
                      uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach)
{
	const struct comp *c = REQ(s, P_WARPS)->c;
	const struct gpu *g = c->g;
	unsigned w = a->subject - c->subj0[0];
	struct warp_hdr *h = gpu_warp(g, sv, w);
	struct stack_entry *st = gpu_stack_of(h), *top = &st[h->sp - 1];
	if (!g->alone[top->pc])
		return compose_issue_apart(s, sv, a, t, rnd, rng, ct, reach);
	const struct pc_info *d = info_of(c, top->pc);
	if (!(d->flags & PC_ALU))
		return issue_other_at_once(c, sv, w, h, st, top, d, t, rnd, rng, ct);
	t->n = 1;
	t->upd[0].subject = a->subject;
	t->upd[0].delay = g->cfg.lat_alu;
	comp_count(c, ct, CT_INSTR, 1);
	comp_count(c, ct, CT_ALU, 1);
	alu_issue(g, sv, w, h, st, top, d->in, d);
	return 1;
}

/* }=== */

/* {=== Data races (race_free) ============================================ */

/* One lane's access next in a state: a word of a segment, and whether it
** is a plain store, a plain load, or synchronising (atomic or volatile). */
enum acc_kind { ACC_LD, ACC_ST, ACC_SYNC };
struct acc {
	unsigned w, lane, cta;
	enum space space;
	long word;
	enum acc_kind kind;
};

static void name_acc(const struct comp *c, const uint8_t *sv, const struct acc *a, struct strbuf *out)
{
	const struct gpu *g = c->g;
	unsigned pc = gpu_pc(g, sv, a->w);
	sb_printf(out, "thread %u (warp %u lane %u) at pc %u `%s`", a->w * g->cfg.threads_per_warp + a->lane, a->w,
	          a->lane, pc, g->prog->ins[pc].text);
}

/* Warps ready at a memory access may each perform it next: two lanes of
** different threads on one word, one a plain store, race (a barrier, a
** flag or the SIMT stack would have kept one of them from being next). */
static int race(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	const struct port_mem *mem = MEM(c);
	const struct comp *mc = REQ(c, P_MEM)->c;
	unsigned lanes = g->cfg.threads_per_warp, n = 0;
	struct acc *a = xmalloc(sizeof *a * g->nwarps * lanes);
	for (unsigned w = 0; w < g->nwarps; w++) {
		if (gpu_warp(g, (uint8_t *)sv, w)->status != W_READY || !gpu_warp(g, (uint8_t *)sv, w)->sp)
			continue;
		const struct instr *in = cur(g, sv, w);
		if (in->op != OP_LD && in->op != OP_ST && in->op != OP_ATOM && in->op != OP_RED)
			continue;
		enum acc_kind k = in->op == OP_ATOM || in->op == OP_RED || instr_strong(in) ? ACC_SYNC : in->op == OP_ST ? ACC_ST : ACC_LD;
		uint32_t m = exec_mask(c, sv, w);
		for (unsigned l = 0; l < lanes; l++) {
			int f = 0;
			long word = m >> l & 1 ? mem->word(mc, sv, in->space, gpu_cta_of(g, w), in->addr.sym,
			                                   address(c, sv, w, l), &f) : -1;
			if (word >= 0) /* a bad address faults instead */
				a[n++] = (struct acc){ w, l, gpu_cta_of(g, w), in->space, word, k };
		}
	}
	int found = 0;
	for (unsigned i = 0; i < n && !found; i++)
		for (unsigned j = i + 1; j < n && !found; j++)
			if (a[i].space == a[j].space && a[i].word == a[j].word &&
			    (a[i].space != SP_SHARED || a[i].cta == a[j].cta) && (a[i].kind == ACC_ST || a[j].kind == ACC_ST)) {
				name_acc(c, sv, &a[i], why);
				sb_puts(why, " and ");
				name_acc(c, sv, &a[j], why);
				sb_puts(why, a[i].w == a[j].w ? " store to one word in one instruction"
				                              : " may each access one word next, one a plain store");
				found = 1;
			}
	free(a);
	return found;
}

/* }=== */

static const struct port_warps ops = {
	pc_of, exec_mask, address, addresses, operand, atom_lanes, write_reg, issue, advance, fault, resume, waiting,
	timing_issue, count_issue, describe_issue, local
};

/* The per-instruction table (struct pc_info) of program g->prog, its
** registers' rows laid out, flags[pc] from local_table and
** program_divergent, one entry past the end (pc nins, a done warp); then
** no branch kept (WARP-7), checked under GPUMC_CHECK_READY. */
static struct pc_info *decode(const struct gpu *g, const uint8_t *flags)
{
	const struct program *p = g->prog;
	struct pc_info *t = xcalloc(1, ((size_t)p->nins + 1) * sizeof *t + sizeof(struct branch_kept));
	struct branch_kept *k = (struct branch_kept *)(t + p->nins + 1);
	for (int i = 0; i <= p->nins; i++) {
		t[i].flags = flags[i];
		t[i].dst = -1;
		for (int k = 0; k < 3; k++)
			t[i].row[k] = -1;
	}
	for (int i = 0; i < p->nins; i++) {
		const struct instr *in = t[i].in = &p->ins[i];
		int special = 0;
		for (int k = 0; k < 3; k++) {
			const struct operand *o = &in->src[k];
			uint32_t v = 0;
			if (o->kind == O_REG)
				t[i].row[k] = g->reg_row[o->reg];
			else if (o->kind == O_IMM)
				v = o->imm;
			else if (o->kind == O_SYM)
				v = p->syms[o->sym].base;
			else if (o->kind == O_SPECIAL)
				special = 1;
			for (int l = 0; l < 32; l++)
				t[i].val[k][l] = v;
		}
		if (in->dst >= 0)
			t[i].dst = g->reg_row[in->dst];
		if (in->op == OP_BRA)
			t[i].flags |= PC_BRA;
		if (in->op == OP_LD && !in->width && !instr_strong(in) && t[i].dst >= 0)
			t[i].flags |= PC_LOAD;
		if ((in->op == OP_ATOM || in->op == OP_RED) && in->space == SP_GLOBAL && !instr_releasing(in) && !special)
			t[i].flags |= PC_ATOM;
		if (t[i].flags & (PC_LOAD | PC_ATOM)) { /* its address, as address_lanes */
			t[i].arow = in->addr.reg >= 0 ? g->reg_row[in->addr.reg] : -1;
			t[i].abase = (uint32_t)in->addr.offset + (in->addr.sym >= 0 ? p->syms[in->addr.sym].base : 0);
		}
		if (in->op <= OP_SELP && !special && t[i].dst >= 0) {
			t[i].kern = alu_kernel_of(in, t[i].row[1] < 0);
			if (in->op != OP_DIV && in->op != OP_REM)
				t[i].flags |= PC_ALU;
		}
	}
	k->check = env_on("GPUMC_CHECK_READY");
	k->plant = (uint32_t)env_fault("warp-7");
	return t;
}

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	(void)d;
	struct gpu_cfg *cf = &g->cfg;
	/* a SIMT stack never holds more than the bottom entry plus two per
	** branch that may diverge (a loop back-edge replaces its entry), so
	** smaller kernels get smaller state vectors; a uniform branch
	** (program_divergent: lane-reduction's loop) never splits a warp
	** (WARP-5), nor does any in a warp of one lane (a branch needs lanes
	** on both paths): the bottom entry alone (ticket-counter 5/1/1: 80 of
	** 392 bytes always zero) */
	uint8_t *t = local_table(g->prog), *div = xmalloc((size_t)g->prog->nins + 1);
	program_divergent(g->prog, div);
	if (env_fault("uniform")) /* tests only: every branch called uniform (WARP-5 must catch it) */
		memset(div, 0, (size_t)g->prog->nins);
	unsigned ncond = 0;
	for (int i = 0; i < g->prog->nins && cf->threads_per_warp > 1; i++)
		if (div[i]) {
			t[i] |= PC_DIVERGES;
			ncond++;
		}
	free(div);
	if (1 + 2 * ncond < cf->stack_depth)
		cf->stack_depth = 1 + 2 * ncond;
	*align = 4;
	g->reg_off = sizeof(struct warp_hdr) + sizeof(struct stack_entry) * cf->stack_depth;
	/* rows only for registers some instruction writes: the others are 0
	** in every state (lane-reduction: its unused %r0) */
	g->reg_row = xmalloc(sizeof *g->reg_row * ((size_t)g->prog->nregs + 1));
	int nrows = program_reg_slots(g->prog, g->reg_row);
	for (int r = 0; r < g->prog->nregs; r++)
		if (g->reg_row[r] >= 0)
			g->reg_row[r] *= (int)cf->threads_per_warp;
	g->warp_bytes = g->reg_off + (size_t)nrows * cf->threads_per_warp * 4;
	c->subjects[0] = (struct pool_req){ "warp", g->nwarps };
	c->priv = decode(g, t);
	free(t);
	return (long)(g->warp_bytes * g->nwarps);
}

static void place(struct comp *c, struct gpu *g)
{
	g->warp_off = c->off;
}

static void init(const struct comp *c, uint8_t *sv)
{
	for (unsigned w = 0; w < c->g->nwarps; w++)
		warp_init(c->g, sv, w);
}

/* Does a warp's status equal st (eq) or differ from it (!eq)?  Asked at
** every state change of a concrete run (model.status): the warp records
** walked with a pointer, the geometry read once (sv may alias it), from
** the last (launched last, so the last done: quiescent's answer, no, at
** once while any runs). */
static int any_status(const struct gpu *g, const uint8_t *sv, uint8_t st, int eq)
{
	const uint8_t *first = sv + g->warp_off + offsetof(struct warp_hdr, status);
	size_t stride = g->warp_bytes;
	for (const uint8_t *p = first + stride * g->nwarps; p > first;) {
		p -= stride;
		if ((*p == st) == eq)
			return 1;
	}
	return 0;
}

static int faulted(const struct comp *c, const uint8_t *sv)
{
	return any_status(c->g, sv, W_FAULT, 1);
}

static int quiescent(const struct comp *c, const uint8_t *sv)
{
	return !any_status(c->g, sv, W_DONE, 0);
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	uint8_t *s = (uint8_t *)sv;
	for (unsigned w = 0; w < g->nwarps; w++) {
		const struct warp_hdr *h = gpu_warp(g, s, w);
		const struct stack_entry *st = gpu_stack(g, s, w);
		if (h->status > W_WAIT) {
			sb_printf(why, "warp %u: status %u is not a warp status", w, h->status);
			return 1;
		}
		if ((h->status == W_DONE) != (h->sp == 0)) {
			sb_printf(why, "WARP-4: warp %u is %s with %u stack entries", w,
			          h->status == W_DONE ? "done" : "not done", h->sp);
			return 1;
		}
		for (unsigned i = h->sp; i < g->cfg.stack_depth; i++)
			if (st[i].pc || st[i].rpc || st[i].mask) {
				sb_printf(why, "WARP-4: warp %u: stack entry %u above sp %u is not zero", w, i, h->sp);
				return 1;
			}
		for (unsigned i = 0; i < h->sp; i++) {
			if (!st[i].mask) {
				sb_printf(why, "WARP-2: warp %u: stack entry %u has an empty mask", w, i);
				return 1;
			}
			if (st[i].mask & ~st[0].mask) {
				sb_printf(why, "WARP-1: warp %u: entry %u's mask 0x%x is not within the live lanes (0x%x)", w, i,
				          st[i].mask, st[0].mask);
				return 1;
			}
		}
		if (h->sp && st[h->sp - 1].pc == st[h->sp - 1].rpc) {
			sb_printf(why, "WARP-2: warp %u: the top entry sits at its reconvergence point %u", w, st[h->sp - 1].pc);
			return 1;
		}
		if (h->status == W_FAULT && h->fault == F_UNIFORM) {
			sb_printf(why, "WARP-5: warp %u split at a branch judged uniform (pc %u)", w, gpu_pc(g, sv, w));
			return 1;
		}
		if (h->status != W_FAULT && h->fault) {
			sb_printf(why, "warp %u: fault code %u on a warp that did not fault", w, h->fault);
			return 1;
		}
	}
	return 0;
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	static const char *const stname[] = { "ready", "at barrier", "waiting for its atomic's values", "FAULT",
		"done", "waiting" };
	const struct gpu *g = c->g;
	const struct program *p = g->prog;
	for (unsigned w = 0; w < g->nwarps; w++) {
		const struct warp_hdr *h = gpu_warp(g, (uint8_t *)sv, w);
		if (h->status == W_DONE)
			continue;
		unsigned pc = gpu_pc(g, sv, w);
		sb_printf(out, "  warp %u: %s at pc %u (%s)", w, stname[h->status], pc,
		          pc < (unsigned)p->nins ? p->ins[pc].text : "end");
		if (h->status == W_FAULT)
			sb_printf(out, ": %s (spec line %d)", fault_name(h->fault), p->ins[pc].line);
		sb_putc(out, '\n');
	}
}

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_WARPS ? &ops : NULL;
}

const struct comp_def comp_warps = {
	.name = "warps", .desc = "SIMT warps with the IPDOM reconvergence stack",
	.provides = PORT(P_WARPS),
	.requires = PORT(P_MEM) | PORT(P_ATOMICS) | PORT(P_ORDER) | PORT(P_BARRIER) | PORT(P_PM) | PORT(P_SBUF) | PORT(P_GRID),
	.optional = PORT(P_PM) | PORT(P_ORDER) | PORT(P_SBUF) | PORT(P_GRID),
	.port_writes = SELF | PORT(P_MEM) | PORT(P_ATOMICS) | PORT(P_BARRIER) | PORT(P_PM) | PORT(P_SBUF),
	.counters = counters, .ncounters = CT_N,
	.layout = layout, .place = place, .init = init, .faulted = faulted, .quiescent = quiescent, .check = check,
	.print = print, .port = port, .race = race, .por = compose_por_independent_of_exit,
	/* memory only as its instructions name it; atomics through the port */
	.por_atomics = 1,
};
