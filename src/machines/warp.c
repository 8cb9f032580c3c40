/*
** A SIMT warp: threads_per_warp lanes executing one instruction at a time
** under an active mask, with the immediate-post-dominator reconvergence
** stack (GPGPU-Sim's model of pre-Volta hardware).
**
** Stack entries are (pc, rpc, mask); the top entry executes.  States:
**
**   READY --issue(ld/st/alu/bra/membar)--> READY          [warp_issue]
**   READY --issue(bar.sync)--> BARRIER --release--> READY [barrier.c]
**   READY --issue(atom/red global)--> ATOMIC --ROP ack--> READY [rop.c]
**   READY --issue(exit of last lanes)--> DONE
**   any   --bad address, x/0, stack overflow--> FAULT
**
** Invariants:
**   WARP-1 every entry's mask is a subset of the entry below it, and the
**          bottom entry's mask is exactly the live (not exited) lanes;
**   WARP-2 no entry has an empty mask, and no top entry has pc == rpc
**          (it would already have been popped);
**   WARP-3 a warp in BARRIER or ATOMIC keeps its pc on that instruction,
**          so the arriving lanes and addresses can be recomputed.
*/
#include "config.h"
#include "machines/warp.h"

#include <string.h>

#include "machines/alu.h"
#include "machines/barrier.h"
#include "machines/dab.h"
#include "machines/persist.h"
#include "machines/memory.h"
#include "machines/rop.h"

static const struct instr *cur(const struct gpu *g, uint8_t *sv, unsigned w)
{
	struct warp_hdr *h = gpu_warp(g, sv, w);
	return &g->prog->ins[gpu_stack(g, sv, w)[h->sp - 1].pc];
}

void warp_init(const struct gpu *g, uint8_t *sv, unsigned w)
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

unsigned warp_pc(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	uint8_t *s = (uint8_t *)sv;
	struct warp_hdr *h = gpu_warp(g, s, w);
	return h->sp ? gpu_stack(g, s, w)[h->sp - 1].pc : (unsigned)g->prog->nins;
}

uint32_t warp_live_mask(const struct gpu *g, uint8_t *sv, unsigned w)
{
	return gpu_warp(g, sv, w)->sp ? gpu_stack(g, sv, w)[0].mask : 0;
}

int warp_at_global_atomic(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	return g->pc_atomic[warp_pc(g, sv, w)]; /* one entry past the end: 0 */
}

int warp_at_global_access(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	unsigned pc = warp_pc(g, sv, w);
	if (pc >= (unsigned)g->prog->nins)
		return 0;
	const struct instr *in = &g->prog->ins[pc];
	switch (in->op) {
	case OP_LD: case OP_ST: case OP_ATOM: case OP_RED: return in->space == SP_GLOBAL;
	case OP_CLWB: case OP_L2WB: return 1;
	default: return 0;
	}
}

void warp_fault(const struct gpu *g, uint8_t *sv, unsigned w, int code)
{
	struct warp_hdr *h = gpu_warp(g, sv, w);
	h->status = W_FAULT;
	h->fault = (uint8_t)code;
}

const char *warp_fault_name(int code)
{
	switch (code) {
	case F_OOB: return "out-of-bounds memory access";
	case F_ALIGN: return "misaligned memory access (words are 4-byte aligned)";
	case F_STACK: return "SIMT reconvergence stack overflow (raise stack_depth)";
	case F_DIVZERO: return "integer division by zero (or INT_MIN / -1)";
	default: return "no fault";
	}
}

static uint32_t special(const struct gpu *g, unsigned w, unsigned lane, int sr)
{
	const struct gpu_cfg *c = &g->cfg;
	unsigned cta = gpu_cta_of(g, w), wc = w % c->warps_per_cta;
	unsigned tid = wc * c->threads_per_warp + lane;
	unsigned ntid = c->warps_per_cta * c->threads_per_warp;
	switch (sr) {
	case SR_TID: return tid;
	case SR_NTID: return ntid;
	case SR_CTAID: return cta;
	case SR_NCTAID: return c->ctas;
	case SR_LANEID: return lane;
	case SR_WARPID: return wc;
	case SR_NWARPID: return c->warps_per_cta;
	case SR_SMID: return gpu_sm_of(g, w);
	case SR_GTID: return cta * ntid + tid;
	case SR_GWARPID: return w;
	case SR_WARPSZ: return c->threads_per_warp;
	}
	return 0;
}

uint32_t warp_operand(const struct gpu *g, uint8_t *sv, unsigned w, unsigned lane,
                      const struct operand *o)
{
	switch (o->kind) {
	case O_REG: return gpu_regs(g, sv, w)[(size_t)o->reg * g->cfg.threads_per_warp + lane];
	case O_IMM: return o->imm;
	case O_SPECIAL: return special(g, w, lane, o->special);
	case O_SYM: return g->prog->syms[o->sym].base;
	default: return 0;
	}
}

static void set_reg(const struct gpu *g, uint8_t *sv, unsigned w, unsigned lane, int r, uint32_t v)
{
	gpu_regs(g, sv, w)[(size_t)r * g->cfg.threads_per_warp + lane] = v;
}

uint32_t warp_exec_mask(const struct gpu *g, uint8_t *sv, unsigned w)
{
	struct warp_hdr *h = gpu_warp(g, sv, w);
	uint32_t m = gpu_stack(g, sv, w)[h->sp - 1].mask;
	const struct instr *in = cur(g, sv, w);
	if (in->pred < 0 || in->op == OP_BRA) /* bra: the guard selects the taken lanes */
		return m;
	uint32_t r = 0;
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++)
		if (m >> l & 1) {
			int p = warp_operand(g, sv, w, l, &(struct operand){ .kind = O_REG, .reg = in->pred }) != 0;
			if (p != in->pred_neg)
				r |= 1u << l;
		}
	return r;
}

uint32_t warp_address(const struct gpu *g, uint8_t *sv, unsigned w, unsigned lane)
{
	const struct address *a = &cur(g, sv, w)->addr;
	uint32_t addr = (uint32_t)a->offset;
	if (a->sym >= 0)
		addr += g->prog->syms[a->sym].base;
	if (a->reg >= 0)
		addr += gpu_regs(g, sv, w)[(size_t)a->reg * g->cfg.threads_per_warp + lane];
	return addr;
}

/* Pop entries that reached their reconvergence point (WARP-2). */
static void reconverge(const struct gpu *g, uint8_t *sv, unsigned w)
{
	struct warp_hdr *h = gpu_warp(g, sv, w);
	struct stack_entry *st = gpu_stack(g, sv, w);
	while (h->sp > 0 && st[h->sp - 1].pc == st[h->sp - 1].rpc) {
		memset(&st[h->sp - 1], 0, sizeof *st);
		h->sp--;
	}
	if (h->sp == 0)
		h->status = W_DONE;
}

void warp_advance(const struct gpu *g, uint8_t *sv, unsigned w)
{
	struct warp_hdr *h = gpu_warp(g, sv, w);
	gpu_stack(g, sv, w)[h->sp - 1].pc++;
	h->status = W_READY;
	reconverge(g, sv, w);
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

static void branch(const struct gpu *g, uint8_t *sv, unsigned w, const struct instr *in)
{
	struct warp_hdr *h = gpu_warp(g, sv, w);
	struct stack_entry *st = gpu_stack(g, sv, w);
	struct stack_entry *top = &st[h->sp - 1];
	uint32_t m = top->mask, taken = 0;
	unsigned pc = top->pc;
	if (in->pred < 0) {
		taken = m;
	} else {
		for (unsigned l = 0; l < g->cfg.threads_per_warp; l++)
			if (m >> l & 1) {
				int p = gpu_regs(g, sv, w)[(size_t)in->pred * g->cfg.threads_per_warp + l] != 0;
				if (p != in->pred_neg)
					taken |= 1u << l;
			}
	}
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
		** diverges. */
		uint16_t r = (uint16_t)in->ipdom;
		unsigned base = top->rpc == r ? h->sp - 1u : h->sp;
		unsigned need = base + (pc + 1u != r) + 1u;
		if (need > g->cfg.stack_depth) {
			warp_fault(g, sv, w, F_STACK);
			return;
		}
		top->pc = r;
		h->sp = (uint8_t)base;
		if (pc + 1u != r) /* a non-empty fall-through path */
			st[h->sp++] = (struct stack_entry){ (uint16_t)(pc + 1), r, fall };
		st[h->sp++] = (struct stack_entry){ (uint16_t)in->target, r, taken };
	}
	reconverge(g, sv, w);
}

static void alu(const struct gpu *g, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m)
{
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
		if (!(m >> l & 1))
			continue;
		uint32_t a = warp_operand(g, sv, w, l, &in->src[0]);
		uint32_t b = warp_operand(g, sv, w, l, &in->src[1]);
		uint32_t c = warp_operand(g, sv, w, l, &in->src[2]);
		int fault = 0;
		uint32_t v = alu_exec(in, a, b, c, &fault);
		if (fault) {
			warp_fault(g, sv, w, fault);
			return;
		}
		set_reg(g, sv, w, l, in->dst, v);
	}
	warp_advance(g, sv, w);
}

/* ld/st and shared-memory atomics: performed in lane order in this step. */
static void memop(const struct gpu *g, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m)
{
	unsigned cta = gpu_cta_of(g, w);
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
		if (!(m >> l & 1))
			continue;
		int fault = 0;
		uint32_t *word = mem_word(g, sv, in->space, cta, in->addr.sym, warp_address(g, sv, w, l), &fault);
		if (!word) {
			warp_fault(g, sv, w, fault);
			return;
		}
		if (in->op == OP_LD) {
			set_reg(g, sv, w, l, in->dst, *word);
		} else if (in->op == OP_ST) {
			*word = warp_operand(g, sv, w, l, &in->src[0]);
			if (g->cfg.persist && in->space == SP_GLOBAL)
				pm_dirty(g, sv, (uint32_t)(word - (uint32_t *)sv));
		} else {
			uint32_t old = *word;
			*word = alu_atomic(in->aop, in->type, old, warp_operand(g, sv, w, l, &in->src[0]),
			                   warp_operand(g, sv, w, l, &in->src[1]));
			if (in->op == OP_ATOM)
				set_reg(g, sv, w, l, in->dst, old);
		}
	}
	warp_advance(g, sv, w);
}

/* A fence waits for the warp's own atomics: until a DAB flush made the
** buffered ones visible, or until the ROPs performed those in flight.
** Returns 1 when the warp now waits (pc stays on the fence). */
static int fence_wait(const struct gpu *g, uint8_t *sv, unsigned w)
{
	if (g->cfg.dab ? dab_fence_clear(g, sv, w) : rop_fence_clear(g, sv, w))
		return 0;
	gpu_warp(g, sv, w)->status = g->cfg.dab ? W_FLUSHWAIT : W_ATOMIC;
	return 1;
}

void warp_issue(const struct gpu *g, uint8_t *sv, unsigned w)
{
	const struct instr *in = cur(g, sv, w);
	uint32_t m = warp_exec_mask(g, sv, w);
	if (g->cfg.persist && pm_issue(g, sv, w, in, m))
		return;
	switch (in->op) {
	case OP_BRA:
		branch(g, sv, w, in);
		return;
	case OP_EXIT:
		if (m == gpu_stack(g, sv, w)[gpu_warp(g, sv, w)->sp - 1].mask) {
			lanes_exit(g, sv, w, m);
		} else {
			warp_advance(g, sv, w);
			lanes_exit(g, sv, w, m);
		}
		bar_check(g, sv, gpu_cta_of(g, w));
		return;
	case OP_BAR:
		if (!m) {
			warp_advance(g, sv, w);
			return;
		}
		if (fence_wait(g, sv, w)) /* bar.sync is a CTA fence */
			return;
		gpu_warp(g, sv, w)->status = W_BARRIER;
		bar_check(g, sv, gpu_cta_of(g, w));
		return;
	case OP_MEMBAR:
	case OP_SFENCE: /* on machines without a persistence domain, a membar */
		if (fence_wait(g, sv, w))
			return;
		warp_advance(g, sv, w);
		return;
	case OP_NOP:
	case OP_CLWB:    /* without a persistence domain (baseline, dab) the */
	case OP_PCOMMIT: /* persistency instructions have nothing to do      */
	case OP_L2WB:
		warp_advance(g, sv, w);
		return;
	case OP_LD:
	case OP_ST:
		memop(g, sv, w, in, m);
		return;
	case OP_ATOM:
	case OP_RED:
		if (!m) {
			warp_advance(g, sv, w);
		} else if (in->space == SP_SHARED) {
			memop(g, sv, w, in, m);
		} else if (g->cfg.dab) {
			dab_atomic(g, sv, w, in, m);
		} else {
			rop_send(g, sv, w, m);
		}
		return;
	default:
		alu(g, sv, w, in, m);
		return;
	}
}
