/* What every warp scheduler component shares: its ISSUE action kind is a
** warp issuing its next instruction, described, timed and counted by the
** warps component.  gto (scheduler.c) and DAB's policies (dab_sched.c). */
#ifndef GPUMC_SCHEDULER_H
#define GPUMC_SCHEDULER_H

#include "machines/component.h"

extern const struct kind_def sched_kinds[1];
/* An ISSUE action of scheduler component c for warp w. */
static inline struct action sched_action(const struct comp *c, unsigned w)
{
	const struct comp *wc = REQ(c, P_WARPS)->c;
	return (struct action){ (uint16_t)c->kind0, (uint16_t)(c->unit0[0] + gpu_sched_of(c->g, w)), wc->subj0[0] + w,
	                        0 };
}
/* May warp w issue as far as the other components are concerned: READY,
** room for its atomic, and every gate open?  Asked for every warp of
** every state: inline, the status test first.  *atom: whether a READY
** warp is at a global atomic (gto's ready sets keep it, READY-10). */
static inline int sched_ready_atom(const struct comp *c, const uint8_t *sv, unsigned w, int *atom)
{
	const struct gpu *g = c->g;
	if (gpu_warp(g, (uint8_t *)sv, w)->status != W_READY)
		return 0;
	*atom = gpu_at_global_atomic(g, sv, w);
	if (*atom) {
		const struct bind *b = REQ(c, P_ATOMICS), *wb = REQ(c, P_WARPS);
		uint32_t m = ((const struct port_warps *)wb->ops)->exec_mask(wb->c, sv, w);
		if (!((const struct port_atomics *)b->ops)->room(b->c, sv, w, m))
			return 0;
	}
	for (unsigned i = 0; i < c->nreq[P_GATE]; i++) {
		const struct bind *b = &c->req[P_GATE][i];
		if (!((const struct port_gate *)b->ops)->may_issue(b->c, sv, w))
			return 0;
	}
	return 1;
}
static inline int sched_ready(const struct comp *c, const uint8_t *sv, unsigned w)
{
	int atom;
	return sched_ready_atom(c, sv, w, &atom);
}
void sched_describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out);
void sched_timing(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                  uint64_t (*rnd)(void *), void *rng);
void sched_count(const struct comp *c, const uint8_t *sv, const struct action *a, uint64_t *ct);
/* Concrete mode (comp_def.prepare): timing_issue, count_issue, then
** local, of scheduler c's issue a, the instruction decoded once.  In
** warp.c, the only warps provider, so that an issue's prepare is one
** indirect call (m_issue's), not two. */
const struct instr *warps_prepare_issue(const struct comp *c, const uint8_t *sv, const struct action *a,
                                        struct timing *t, uint64_t (*rnd)(void *), void *rng, uint64_t *ct);
/* Concrete mode (comp_def.issue_alone, alone_at): warps_prepare_issue,
** then the scheduler's apply, of a warp-local issue at once (warp.c). */
int warps_issue_alone(const struct comp *c, uint8_t *sv, const struct action *a, struct timing *t,
                      uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach);
int warps_alone_at(const struct comp *c, unsigned pc);
int sched_still_enabled(const struct comp *c, const uint8_t *sv, const struct action *a);
long sched_is_issue(const struct comp *c, const struct action *a);
int sched_lists_now(const struct comp *c);
const void *sched_port(const struct comp *c, enum port p);

/* (.port: sched_port, or the component's own with more) */
#define SCHED_COMMON                                                                                         \
	.provides = PORT(P_ISSUE), .requires = PORT(P_WARPS) | PORT(P_ATOMICS) | PORT(P_GATE),                \
	.optional = PORT(P_GATE), .kinds = sched_kinds, .nkinds = 1, .port_writes = 0,                        \
	.describe = sched_describe, .timing = sched_timing, .count = sched_count,                             \
	.prepare = warps_prepare_issue, .issue_alone = warps_issue_alone, .alone_at = warps_alone_at,          \
	.still_enabled = sched_still_enabled, .lists_now = sched_lists_now

#endif
