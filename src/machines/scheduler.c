/*
** Warp schedulers of the baseline GPU.  In exhaustive mode the choice among
** ready warps is free: the real GTO scheduler's pick depends on pipeline
** timing the model abstracts away, so every ready warp is a successor.
** In concrete mode the same warps are candidates and GTO chooses: keep
** issuing the warp issued last while it is ready (greedy), else the oldest
** (lowest id, launched first).
*/
#include "config.h"
#include "machines/scheduler.h"

#include "machines/dab_sched.h"
#include "machines/persist.h"
#include "machines/rop.h"
#include "machines/warp.h"

unsigned sched_enabled(const struct gpu *g, const uint8_t *sv, struct action *out)
{
	unsigned n = 0;
	if (g->cfg.persist && !pm_kernel_launched(g, sv))
		return 0; /* the host has not launched the kernel yet */
	if (!g->cfg.dab) {
		for (unsigned w = 0; w < g->nwarps; w++) {
			const struct warp_hdr *h = gpu_warp(g, (uint8_t *)sv, w);
			if (h->status != W_READY)
				continue;
			/* an atomic waits for room in the ROP FIFOs */
			if (warp_at_global_atomic(g, sv, w) && !rop_can_accept(g, sv, w, warp_exec_mask(g, (uint8_t *)sv, w)))
				continue;
			/* an l2wb in progress blocks everyone else's L2 accesses */
			if (g->cfg.persist && warp_at_global_access(g, sv, w) && pm_l2wb_busy(g, sv) &&
			    g->prog->ins[warp_pc(g, sv, w)].op != OP_L2WB)
				continue;
			out[n++] = (struct action){ GPU_A_ISSUE, (uint16_t)gpu_sched_of(g, w), w, 0 };
		}
		return n;
	}
	/* DAB: the scheduler's determinism-aware policy filters (dab_sched.c);
	** actions stay in warp-id order */
	unsigned nsched = g->cfg.sms * g->cfg.schedulers;
	for (unsigned k = 0; k < nsched; k++) {
		struct dab_sched_view v;
		int viewed = 0;
		for (unsigned i = g->sched_first[k]; i < g->sched_first[k + 1]; i++) {
			unsigned w = g->sched_warps[i];
			if (gpu_warp(g, (uint8_t *)sv, w)->status != W_READY)
				continue;
			if (!viewed) {
				dab_sched_view(g, sv, k, &v);
				viewed = 1;
			}
			if (dab_sched_may_issue(g, sv, w, &v))
				out[n++] = (struct action){ GPU_A_ISSUE, (uint16_t)k, w, 0 };
		}
	}
	return n;
}

unsigned sched_pick_gto(const struct action *cand, unsigned n, uint32_t last)
{
	unsigned best = 0;
	for (unsigned i = 0; i < n; i++) {
		if (cand[i].subject == last)
			return i;
		if (cand[i].subject < cand[best].subject)
			best = i;
	}
	return best;
}
