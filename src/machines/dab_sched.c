/*
** Determinism-aware warp schedulers of DAB (§IV-C).  With scheduler-level
** buffers the warps of one scheduler share a buffer, so the order in which
** their atomics enter it must not depend on timing.  Each policy is a rule
** for which READY warps may issue in the current state; exhaustive mode
** explores every allowed choice, concrete mode lets GTO pick among them.
**
**   SRR   strict round robin: only the next warp in order (skipping warps
**         that are blocked or done) issues, any instruction.
**   GTRR  free (GTO) until every warp of the scheduler has reached its
**         first atomic or is blocked or done, then SRR for good.
**   GTAR  free for non-atomics; each atomic is a scheduler-level barrier:
**         when every warp is at an atomic (or blocked, or done) a round
**         starts and those warps issue their atomic in warp order; a warp
**         past its atomic runs freely again during the round.
**   GWAT  free for non-atomics; only the warp holding the token issues an
**         atomic; the token passes to the next warp when its holder issues
**         an atomic or exits.
**   GTO   no restriction (the nondeterministic baseline policy).
** "Atomic" means a global atom/red, the instructions DAB buffers.
*/
#include "config.h"
#include "machines/dab_sched.h"

#include "machines/warp.h"

static struct dab_sched_state *state(const struct gpu *g, const uint8_t *sv, unsigned k)
{
	return (struct dab_sched_state *)(sv + g->dab_sched_off) + k;
}

/* Every warp of scheduler k at an atomic, blocked or done, and one at an
** atomic: the point where GTRR switches and a GTAR round begins. */
static uint64_t all_at_atomic(const struct gpu *g, const uint8_t *sv, unsigned k)
{
	uint64_t at = 0;
	for (unsigned i = g->sched_first[k]; i < g->sched_first[k + 1]; i++) {
		unsigned w = g->sched_warps[i];
		uint8_t st = gpu_warp(g, (uint8_t *)sv, w)->status;
		if (st == W_READY) {
			if (!warp_at_global_atomic(g, sv, w))
				return 0;
			at |= 1ull << (i - g->sched_first[k]);
		}
	}
	return at;
}

void dab_sched_view(const struct gpu *g, const uint8_t *sv, unsigned k, struct dab_sched_view *v)
{
	const struct dab_sched_state *s = state(g, sv, k);
	unsigned first = g->sched_first[k], n = g->sched_first[k + 1] - first;
	v->srr = 0;
	v->rr_warp = v->atom_warp = UINT32_MAX;
	v->round = 0;
	switch (g->cfg.dab_sched) {
	case DS_GTRR:
		v->srr = s->srr || all_at_atomic(g, sv, k) != 0;
		break;
	case DS_SRR:
		v->srr = 1;
		break;
	case DS_GTAR:
		v->round = s->todo ? s->todo : all_at_atomic(g, sv, k);
		if (v->round)
			v->atom_warp = g->sched_warps[first + (unsigned)__builtin_ctzll(v->round)];
		break;
	case DS_GWAT:
		for (unsigned j = 0; j < n; j++) {
			unsigned w = g->sched_warps[first + (s->token + j) % n];
			uint8_t st = gpu_warp(g, (uint8_t *)sv, w)->status;
			if (st != W_DONE && st != W_FAULT) {
				v->atom_warp = w;
				break;
			}
		}
		break;
	default:
		break;
	}
	if (v->srr)
		for (unsigned j = 0; j < n; j++) {
			unsigned w = g->sched_warps[first + (s->rr + j) % n];
			if (gpu_warp(g, (uint8_t *)sv, w)->status == W_READY) {
				v->rr_warp = w;
				break;
			}
		}
}

int dab_sched_may_issue(const struct gpu *g, const uint8_t *sv, unsigned w, const struct dab_sched_view *v)
{
	if (v->srr)
		return w == v->rr_warp;
	int atomic = warp_at_global_atomic(g, sv, w);
	switch (g->cfg.dab_sched) {
	case DS_GTRR: return !atomic;
	case DS_GTAR: return atomic ? w == v->atom_warp : 1;
	case DS_GWAT: return atomic ? w == v->atom_warp : 1;
	default: return 1;
	}
}

void dab_sched_issued(const struct gpu *g, uint8_t *sv, unsigned w, const struct dab_sched_view *v,
                      int atomic, int buffered)
{
	unsigned k = gpu_sched_of(g, w), first = g->sched_first[k], n = g->sched_first[k + 1] - first;
	struct dab_sched_state *s = state(g, sv, k);
	unsigned idx = g->warp_idx[w];
	if (v->srr) {
		s->srr = g->cfg.dab_sched == DS_GTRR;
		s->rr = (uint8_t)((idx + 1) % n);
		return;
	}
	if (!atomic)
		return;
	if (g->cfg.dab_sched == DS_GTAR) /* a blocked atomic keeps its turn */
		s->todo = buffered ? v->round & ~(1ull << idx) : v->round;
	else if (g->cfg.dab_sched == DS_GWAT && buffered)
		s->token = (uint8_t)((idx + 1) % n);
}
