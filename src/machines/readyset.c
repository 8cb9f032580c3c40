/*
** Concrete mode's ready sets (the warp scheduler components: dab_sched.c,
** and gto in scheduler.c).  A warp scheduler that polled every warp every
** cycle (READY?  room for its atomic?  gates open?  the DAB rule's view:
** round, token, turn, batch) spent most of a run on warps blocked for
** thousands of cycles.  Instead each scheduler keeps the set of its warps
** that may issue as far as the state goes (timing aside: the driver's
** ready times and busy units filter it each cycle), and recomputes it only
** after an event that may change it.  The events are the state changes,
** as the driver counts them (model.h, struct timed_now):
**
**   - a warp-local issue (model.local: it writes only the warp's registers
**     and stack, and it enables or disables no other action) can change
**     only its own scheduler's set (the warp's next instruction, the DAB
**     rule's round or turn): that unit's count.  The warp stays READY:
**     these sets are DAB's, and dab_sched's por refuses a local exit.
**     (model.local may answer 2, a converged warp's exit, whose warp is
**     then done: on the baseline, whose gto keeps no ready set, and
**     concrete mode asks status() again for it);
**   - an action whose component declares the one SM it may touch
**     (model.step: reach) changes only the sets of that SM's schedulers: that
**     SM's count.  They are a global atomic's issue into DAB's buffers or
**     the ROP's FIFOs (the warp, its buffer or its SM's FIFOs, its
**     scheduler's turn), a ROP performing an entry (room in its SM's
**     FIFOs, a resumed warp of that SM), a DAB drain that leaves
**     something in flight and returns a value;
**   - an action that declares it reaches no set (REACH_NONE: a DAB drain
**     of a red that leaves something in flight: memory and FIFOs only)
**     changes none;
**   - every other action -- a memory instruction's issue, a flush and its
**     last drain, a barrier's release, a CTA launch, a gate -- may wake or
**     block any warp: the global count.
**
**   - of these, a ROP's perform over plain memory only wakes warps of its
**     SM (REACH_WAKES: resumed, or given room): those it names (rop.c,
**     woken) are polled alone while such performs are all that moved
**     (the driver's sm_woke count of them: READY-1 holds them too).
**
** A set is kept while the sum of the three counts it was computed at is
** unchanged (each only grows, and each run's start past every sum of
** the runs before: a set of an earlier run is never taken for one of
** this run).  Signalling by what a state change may
** reach, not by each component naming the warps it wakes, leaves no resume
** path to miss; GPUMC_CHECK_READY=1 (t/readyset.sh) recomputes every set
** on every use and stops at the first difference.
**
** The earliest ready time of a kept set's warps is kept too: a scheduler
** whose warps are all in their latency is skipped without a look.  And a
** whole SM (a group: readyset_group_kept) whose schedulers listed nothing
** that can issue lists nothing, and is skipped without a look, while no
** event reaches it (the sum of its counts) and the clock is before soon:
** its sets' earliest ready times, and for gto, which does not list a busy
** scheduler, the cycles its busy ones are free again.  Under
** GPUMC_CHECK_READY a kept group is listed anyway, and an issue listed
** (or, dab_sched.c, a scheduler's set found empty or not otherwise than
** the flush guard was told) stops the run (READY-3).
**
** gto keeps sets only where no scheduler has more than 64 warps (one bit
** each); past that it polls every warp each cycle, as before.
**
** Under GTO's pick (cfg.sched_policy 0: the warp the unit issued last
** while it can issue, else the lowest), listing what can issue now names
** only the warp the pick takes, not every ready one (a persist row had 16
** ready warps a scheduler, listed, sorted and dropped every cycle).  The
** set's earliest ready time is then that warp's, at most the clock: once
** a warp is ready it is only ever compared with a later clock.  Another
** ready warp left unlisted is told to the driver (timed_now.again), which
** otherwise passes over the next cycle after warp-local issues alone.
**
** Invariant READY-3: a group kept quiet lists no issue.  READY-5
** (dab_sched.c): the schedulers told to the flush guard as having an
** allowed warp are those whose full poll is not empty.
**
** Invariant READY-1: a kept set equals the full poll of the state, and no
** warp of it is ready before its kept earliest ready time (or, where one
** was ready by the clock as listed, the kept time is at most that clock).
*/
#include "config.h"
#include "machines/readyset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

struct readyset *readyset_new(unsigned nsched, unsigned ngroups, const unsigned *gto_idx)
{
	size_t head = sizeof(struct readyset) + sizeof(struct readyset_entry) * nsched;
	size_t groups = sizeof(struct readyset_group) * ngroups;
	struct readyset *rs = xcalloc(1, head + groups + sizeof(uint64_t) * (ngroups + nsched));
	rs->n = nsched;
	rs->gto_idx = gto_idx;
	rs->ngroups = ngroups;
	rs->group = (struct readyset_group *)((char *)rs + head);
	rs->allowed = (uint64_t *)((char *)rs->group + groups);
	rs->nowoke = rs->allowed + ngroups;
	for (unsigned i = 0; i < nsched; i++)
		rs->e[i].at = UINT64_MAX;
	for (unsigned i = 0; i < ngroups; i++)
		rs->group[i].at = UINT64_MAX;
	return rs;
}

void readyset_group_missed(const struct timed_now *tn, unsigned gi, const char *what)
{
	fprintf(stderr, "gpumc: internal error: READY-3: scheduler group %u at cycle %llu: kept quiet, %s: an event did "
	        "not signal\n", gi, (unsigned long long)tn->clock, what);
	abort();
}

void readyset_group_keep(struct readyset *rs, const struct timed_now *tn, unsigned gi, uint64_t at, int quiet,
                         uint64_t soon, unsigned n)
{
	struct readyset_group *g = &rs->group[gi];
	if (tn->check && n && readyset_group_kept(rs, tn, gi, at))
		readyset_group_missed(tn, gi, "it lists an issue");
	/* not quiet (it listed an issue, or an event moved a set): what it
	** kept, if anything, stays unused, for it was not kept now -- its key
	** is behind (keys only grow, within a run and from run to run) or its
	** soon passed (the clock only grows within a run) */
	if (!quiet)
		return;
	g->at = at;
	g->soon = soon;
}

void readyset_fill(struct readyset *rs, const struct timed_now *tn, unsigned k, unsigned u, uint64_t at,
                   uint64_t *may, uint64_t *viewed, const struct readyset_src *src)
{
	struct readyset_entry *e = &rs->e[k];
	/* under tn->check, what the kept set, or the one event since (the
	** unit's own warp-local issue, readyset_get), would have given */
	uint64_t m = e->may, v = e->viewed;
	int one = tn->check && at == e->at + 1 && tn->unit_changed[u] == e->unit + 1 && src->one &&
	          src->one(src, k, tn->last[u], &m, &v);
	/* only wakes since: at less its SM's sm_woke is the same (each count
	** only grows; keys of an earlier run are below this run's counts) */
	uint64_t nowoke = src->woke ? at - tn->sm_woke[k / (rs->n / rs->ngroups)] : at;
	int woken = src->woke && !one && e->at != at && nowoke == rs->nowoke[k] && src->woke(src, k, &m, &v);
	if (woken && !tn->check) {
		*may = m;
		*viewed = v;
	} else
		src->fill(src, k, may, viewed);
	if (tn->check && (e->at == at || one || woken) && (m != *may || v != *viewed)) {
		fprintf(stderr,
		        "gpumc: internal error: READY-1: scheduler %u at cycle %llu: event-driven set %#llx (viewed "
		        "%#llx), full poll %#llx (viewed %#llx): an event did not signal\n",
		        k, (unsigned long long)tn->clock, (unsigned long long)m, (unsigned long long)v,
		        (unsigned long long)*may, (unsigned long long)*viewed);
		abort();
	}
	/* a kept set (recomputed only under tn->check) keeps its earliest
	** ready time, as it would unchecked: the check sees what runs */
	if (e->at != at)
		e->soon = 0;
	e->at = at;
	e->unit = tn->unit_changed[u];
	rs->nowoke[k] = nowoke;
	e->may = *may;
	e->viewed = *viewed;
}

void readyset_missed_soon(const struct timed_now *tn, unsigned k, uint64_t soon, uint64_t upto)
{
	fprintf(stderr,
	        "gpumc: internal error: READY-1: scheduler %u at cycle %llu: kept ready time %llu, but a warp is "
	        "ready by %llu\n",
	        k, (unsigned long long)tn->clock, (unsigned long long)soon, (unsigned long long)upto);
	abort();
}
