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
** bar.sync (WARP-3).
*/
#include "config.h"
#include "machines/barrier.h"

#include "machines/warp.h"

void bar_check(const struct gpu *g, uint8_t *sv, unsigned cta)
{
	unsigned first = cta * g->cfg.warps_per_cta, last = first + g->cfg.warps_per_cta;
	unsigned live = 0, arrived[16] = { 0 };
	int any = 0;
	for (unsigned w = first; w < last; w++) {
		struct warp_hdr *h = gpu_warp(g, sv, w);
		if (h->status == W_FAULT)
			return; /* a faulted warp never arrives; the fault is reported */
		live += (unsigned)__builtin_popcount(warp_live_mask(g, sv, w));
		if (h->status == W_BARRIER) {
			arrived[g->prog->ins[warp_pc(g, sv, w)].barrier] +=
				(unsigned)__builtin_popcount(warp_exec_mask(g, sv, w));
			any = 1;
		}
	}
	if (!any)
		return;
	for (unsigned w = first; w < last; w++) {
		struct warp_hdr *h = gpu_warp(g, sv, w);
		if (h->status == W_BARRIER && arrived[g->prog->ins[warp_pc(g, sv, w)].barrier] == live)
			warp_advance(g, sv, w);
	}
}
