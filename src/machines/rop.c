/*
** Atomic operations performed at the L2 slice (ROP) of the memory partition
** that owns the address, as on Fermi-to-Volta GPUs.  Each SM has one FIFO
** to each partition (the interconnect keeps an SM's requests in order); the
** partition takes the head of any SM's FIFO next, so arrival order *across*
** SMs is free.  This is the nondeterminism that makes fp32 reductions give
** different bits.
**
** A warp's atom/red becomes one entry per active lane (lanes in increasing
** order), each carrying its address and operands, so `red` is fire and
** forget: the warp goes on at once.  `atom` stalls the warp (ATOMIC) until
** the old values of all its lanes came back.  membar and bar.sync wait
** until the warp's own atomics were performed.  A warp may issue an atomic
** only when the FIFOs have room for all its lanes (the interconnect's
** back-pressure), so no issue is ever half done.
**
** FIFO layout (per SM x partition): count u16, pad u16, cap entries.
** Invariant ROP-1: warp_hdr.pending of a warp equals the number of its
** entries in all FIFOs.
*/
#include "config.h"
#include "machines/rop.h"

#include <string.h>

#include "machines/atomic_entry.h"
#include "machines/barrier.h"
#include "machines/memory.h"
#include "machines/persist.h"
#include "machines/warp.h"
#include "util/strbuf.h"

static uint16_t *fifo(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return (uint16_t *)(sv + g->rop_off + g->rop_bytes * q);
}

static struct atomic_entry *entries(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return (struct atomic_entry *)(sv + g->rop_off + g->rop_bytes * q + 4);
}

unsigned rop_count(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return fifo(g, sv, q)[0];
}

unsigned rop_head(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return entries(g, sv, q)[0].warp;
}

int rop_can_accept(const struct gpu *g, const uint8_t *sv, unsigned w, uint32_t m)
{
	unsigned need[8] = { 0 }, n = 0, sm = gpu_sm_of(g, w);
	/* fast path: every FIFO of the SM has room for all the lanes, so the
	** addresses need not be computed (this runs for every ready warp at
	** an atomic, every cycle, in concrete mode) */
	unsigned lanes = (unsigned)__builtin_popcount(m), room = 1;
	for (unsigned p = 0; p < g->cfg.partitions && room; p++)
		room = fifo(g, sv, sm * g->cfg.partitions + p)[0] + lanes <= g->rop_cap;
	if (room)
		return gpu_warp(g, (uint8_t *)sv, w)->pending + lanes <= 255;
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++)
		if (m >> l & 1) {
			need[mem_partition(g, warp_address(g, (uint8_t *)sv, w, l))]++;
			n++;
		}
	if (gpu_warp(g, (uint8_t *)sv, w)->pending + n > 255)
		return 0;
	for (unsigned p = 0; p < g->cfg.partitions; p++)
		if (fifo(g, sv, sm * g->cfg.partitions + p)[0] + need[p] > g->rop_cap)
			return 0;
	return 1;
}

void rop_send(const struct gpu *g, uint8_t *sv, unsigned w, uint32_t m)
{
	const struct instr *in = &g->prog->ins[warp_pc(g, sv, w)];
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
		int fault = 0;
		if (m >> l & 1 && !mem_word(g, sv, SP_GLOBAL, 0, in->addr.sym, warp_address(g, sv, w, l), &fault)) {
			warp_fault(g, sv, w, fault);
			return;
		}
	}
	struct warp_hdr *h = gpu_warp(g, sv, w);
	unsigned sm = gpu_sm_of(g, w);
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
		if (!(m >> l & 1))
			continue;
		struct atomic_entry e = atomic_entry_of(g, sv, w, l, in);
		unsigned q = sm * g->cfg.partitions + mem_partition(g, e.addr);
		uint16_t *f = fifo(g, sv, q);
		entries(g, sv, q)[f[0]++] = e;
		h->pending++;
	}
	if (in->op == OP_ATOM)
		h->status = W_ATOMIC; /* until the old values are back */
	else
		warp_advance(g, sv, w);
}

int rop_fence_clear(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	return gpu_warp(g, (uint8_t *)sv, w)->pending == 0;
}

void rop_perform(const struct gpu *g, uint8_t *sv, unsigned q)
{
	uint16_t *f = fifo(g, sv, q);
	struct atomic_entry *e = entries(g, sv, q), head = e[0];
	memmove(e, e + 1, sizeof *e * (size_t)(f[0] - 1));
	memset(&e[f[0] - 1], 0, sizeof *e);
	f[0]--;
	atomic_entry_perform(g, sv, &head);
	unsigned w = head.warp;
	struct warp_hdr *h = gpu_warp(g, sv, w);
	if (--h->pending || h->status != W_ATOMIC)
		return;
	/* the warp waited for its atomics: an atom's values, or a fence */
	if (g->prog->ins[warp_pc(g, sv, w)].op == OP_BAR) {
		h->status = W_BARRIER;
		bar_check(g, sv, gpu_cta_of(g, w));
	} else if (g->cfg.persist && g->prog->ins[warp_pc(g, sv, w)].op != OP_ATOM) {
		pm_wake(g, sv); /* a fence may wait for persist acks too */
	} else {
		warp_advance(g, sv, w);
	}
}

int rop_quiescent(const struct gpu *g, const uint8_t *sv)
{
	for (unsigned q = 0; q < g->nqueues; q++)
		if (fifo(g, sv, q)[0])
			return 0;
	return 1;
}

void rop_describe(const struct gpu *g, const uint8_t *sv, unsigned q, struct strbuf *out)
{
	sb_printf(out, "partition %u ROP performs from sm %u: ", q % g->cfg.partitions, q / g->cfg.partitions);
	atomic_entry_describe(&entries(g, sv, q)[0], out);
}
