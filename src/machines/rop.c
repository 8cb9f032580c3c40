/*
** Atomic operations performed at the L2 slice (ROP) of the memory partition
** that owns the address, as on Fermi-to-Volta GPUs.  Each SM has one FIFO
** to each partition (the interconnect keeps an SM's requests in order); the
** partition takes the head of any SM's FIFO next, so arrival order *across*
** SMs is free.  This is the nondeterminism that makes fp32 reductions
** give different bits.
**
** A warp's request holds no operands: the warp stays stalled in ATOMIC with
** its pc on the instruction (WARP-3), so the ROP reads addresses and
** operands from its registers when it performs the request, lanes in
** increasing order.  The warp resumes once every partition it touched has
** answered (`pending` bits).
**
** Invariant ROP-1: a warp appears at most once in each FIFO, and in FIFO
** (s, p) iff it is in ATOMIC with pending bit p set.
*/
#include "config.h"
#include "machines/rop.h"

#include <string.h>

#include "machines/alu.h"
#include "machines/memory.h"
#include "machines/warp.h"

static uint16_t *fifo(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return (uint16_t *)(sv + g->rop_off + g->rop_bytes * q);
}

unsigned rop_count(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return fifo(g, sv, q)[0];
}

unsigned rop_head(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return fifo(g, sv, q)[1];
}

void rop_send(const struct gpu *g, uint8_t *sv, unsigned w, uint32_t m)
{
	unsigned parts = 0;
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
		if (!(m >> l & 1))
			continue;
		int fault = 0;
		uint32_t a = warp_address(g, sv, w, l);
		const struct instr *in = &g->prog->ins[warp_pc(g, sv, w)];
		if (!mem_word(g, sv, SP_GLOBAL, 0, in->addr.sym, a, &fault)) {
			warp_fault(g, sv, w, fault);
			return;
		}
		parts |= 1u << mem_partition(g, a);
	}
	struct warp_hdr *h = gpu_warp(g, sv, w);
	h->status = W_ATOMIC;
	h->pending = (uint8_t)parts;
	unsigned sm = gpu_sm_of(g, w);
	for (unsigned p = 0; p < g->cfg.partitions; p++) {
		if (!(parts >> p & 1))
			continue;
		uint16_t *f = fifo(g, sv, sm * g->cfg.partitions + p);
		f[1 + f[0]++] = (uint16_t)w;
	}
}

void rop_perform(const struct gpu *g, uint8_t *sv, unsigned q)
{
	uint16_t *f = fifo(g, sv, q);
	unsigned w = f[1], p = q % g->cfg.partitions;
	memmove(f + 1, f + 2, sizeof *f * (size_t)(f[0] - 1));
	f[f[0]--] = 0;
	const struct instr *in = &g->prog->ins[warp_pc(g, sv, w)];
	uint32_t m = warp_exec_mask(g, sv, w);
	uint32_t *regs = gpu_regs(g, sv, w);
	unsigned lanes = g->cfg.threads_per_warp;
	for (unsigned l = 0; l < lanes; l++) {
		if (!(m >> l & 1))
			continue;
		uint32_t a = warp_address(g, sv, w, l);
		if (mem_partition(g, a) != p)
			continue;
		int fault = 0;
		uint32_t *word = mem_word(g, sv, SP_GLOBAL, 0, -1, a, &fault); /* checked in rop_send */
		uint32_t old = *word;
		*word = alu_atomic(in->aop, in->type, old, warp_operand(g, sv, w, l, &in->src[0]),
		                   warp_operand(g, sv, w, l, &in->src[1]));
		if (in->op == OP_ATOM)
			regs[(size_t)in->dst * lanes + l] = old;
	}
	struct warp_hdr *h = gpu_warp(g, sv, w);
	h->pending &= (uint8_t)~(1u << p);
	if (!h->pending)
		warp_advance(g, sv, w);
}
