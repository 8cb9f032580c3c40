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

unsigned sched_enabled(const struct gpu *g, const uint8_t *sv, struct action *out)
{
	unsigned n = 0;
	for (unsigned w = 0; w < g->nwarps; w++) {
		const struct warp_hdr *h = gpu_warp(g, (uint8_t *)sv, w);
		if (h->status == W_READY)
			out[n++] = (struct action){ GPU_A_ISSUE, (uint16_t)gpu_sched_of(g, w), w, 0 };
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
