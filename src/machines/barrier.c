/*
** bar.sync as PTX defines it: a barrier completes when every (non-exited)
** thread of the CTA has arrived.  Arrival is per thread, so a warp that
** reaches bar.sync under divergence contributes only its active lanes; its
** other lanes wait on the SIMT stack behind the barrier and can never
** arrive.  That is the classic divergent-barrier deadlock, and the checker
** reports it as a state with no successors.  Threads that exited are not
** waited for.  Barrier ids 0..15 are separate barriers.
**
** The last arrival releases everyone in the same step, so the barrier keeps
** no state of its own: waiting warps sit in BARRIER with their pc on the
** bar.sync (WARP-3).  Component "barrier", port barrier (arrive); it
** requires warps to move the released ones on.
*/
#include "config.h"

#include "machines/component.h"

static void arrive(const struct comp *c, uint8_t *sv, unsigned cta)
{
	const struct gpu *g = c->g;
	const struct bind *wb = REQ(c, P_WARPS);
	const struct port_warps *wp = wb->ops;
	unsigned first = cta * g->cfg.warps_per_cta, last = first + g->cfg.warps_per_cta;
	unsigned live = 0, arrived[16] = { 0 };
	int any = 0;
	for (unsigned w = first; w < last; w++) {
		struct warp_hdr *h = gpu_warp(g, sv, w);
		if (h->status == W_FAULT)
			return; /* a faulted warp never arrives; the fault is reported */
		if (h->sp)
			live += (unsigned)__builtin_popcount(gpu_stack(g, sv, w)[0].mask);
		if (h->status == W_BARRIER) {
			arrived[g->prog->ins[gpu_pc(g, sv, w)].barrier] +=
				(unsigned)__builtin_popcount(wp->exec_mask(wb->c, sv, w));
			any = 1;
		}
	}
	if (!any)
		return;
	for (unsigned w = first; w < last; w++) {
		struct warp_hdr *h = gpu_warp(g, sv, w);
		if (h->status == W_BARRIER && arrived[g->prog->ins[gpu_pc(g, sv, w)].barrier] == live)
			wp->advance(wb->c, sv, w);
	}
}

static const struct port_barrier ops = { arrive };

/* An exit is an arrival (the exited lanes are no longer waited for): it
** may release the warps of its CTA waiting at a barrier, writing their
** records, which no warp-local step may do (POR-1, compose.c; readyset.c
** counts a local issue as waking no other warp).  So an exit is declared
** independent only in a kernel without bar.sync, where no warp is ever in
** BARRIER and arrive() writes nothing (t/good/por-exit-barrier.gpu breaks
** POR-1 under --check-model without this refusal). */
static int por(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in)
{
	(void)sv, (void)w;
	if (in->op != OP_EXIT)
		return 1;
	const struct program *p = c->g->prog;
	for (int i = 0; i < p->nins; i++)
		if (p->ins[i].op == OP_BAR)
			return 0;
	return 1;
}

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_BARRIER ? &ops : NULL;
}

const struct comp_def comp_barrier = {
	.name = "barrier", .desc = "bar.sync: CTA-wide barriers 0..15, per-thread arrival",
	.provides = PORT(P_BARRIER), .requires = PORT(P_WARPS), .port_writes = PORT(P_WARPS), .port = port,
	/* arrive() reads the live lanes and the warps in BARRIER only */
	.por = por, .por_atomics = 1,
};
