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
**     SM's count.  They are a global atomic's issue into the ROP's FIFOs
**     (the warp, its SM's FIFOs), a ROP performing an entry (room in its SM's
**     FIFOs, a resumed warp of that SM), a DAB drain that leaves
**     something in flight and returns a value;
**   - an action that declares it reaches its own unit's set alone
**     (REACH_OWN: a global atomic's issue into DAB's buffers, and under
**     SRR and GTRR an issue warp-local but for the turn: dab_sched.c)
**     changes only that set: its unit's count, by 2, so that it is never
**     taken for one warp-local issue (readyset_get_one's one, due_pend); the
**     component may say which bits it moved (struct readyset's own);
**   - an action that declares it reaches no set (REACH_NONE: a DAB drain
**     of a red that leaves something in flight: memory and FIFOs only)
**     changes none;
**   - every other action -- a memory instruction's issue, a flush and its
**     last drain, a barrier's release, a CTA launch, a gate -- may wake or
**     block any warp: the global count.
**
**   - of these, a ROP's perform over plain memory only wakes warps of its
**     SM (REACH_WAKES: resumed, but for one at bar.sync, whose arrival
**     may release others, or given room): those it names (rop.c,
**     woken) are polled alone while such performs, and gto's issues of
**     a global atomic into the ROP (which move their warp and take room
**     only from the SM's warps at an atomic: scheduler.c, gto_reach
**     names those of the kept sets), are all that moved, but for the
**     unit's own warp-local issue (its warp polled first: one): the
**     driver's sm_woke count of them.  READY-1 holds them too.
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
** whose warps are all in their latency is skipped without a look.  And
** listing what can issue at the clock costs what the schedulers that may
** issue then cost, not all of them (the due set: readyset_due_sync): a
** scheduler that listed nothing waits, not looked at, until its unit is
** free (a busy one), its set's earliest ready time, or an event that may
** move its set (the run's start, the global count, its SM's: each moves
** with the driver's reached count, so a cycle after warp-local issues
** alone looks at no SM; where only actions that name the warps they wake
** or block reached an SM, only the schedulers they named warps of:
** readyset_due_sync_named, gto's); its own count moves only with its issue, which
** it listed, staying due -- but where that issue, warp-local, can move
** no bit of its set but the issuing warp's (gto; dab_sched's GTO and
** GWAT rules, where, with no other warp in the set, the issuing warp's
** bits after it, polled then, keep the set not empty, which the flush
** guard's bit reads), it waits from the next sync until its unit is free
** and that warp or another of its set as listed is ready, unless an
** event reached it (due_pend): a scheduler issuing every few cycles
** among warps in their latencies was listed once more each time, for
** nothing.  So does dab_sched's after its own atomic's issue (REACH_OWN),
** where the bits that issue moved (struct readyset's own) keep its set
** not empty and add no warp to it (due_moved).  Its wake time waits in
** a calendar, a ring of one set of schedulers per cycle (the cycles
** ahead of the last looked at, up to RS_SPAN) and, for the rare ones
** farther, a set looked at once the first of them comes.  Under GPUMC_CHECK_READY every scheduler
** is listed anyway, and one not due that lists an issue (or, dab_sched.c,
** whose set is found empty or not otherwise than the flush guard was
** told) stops the run (READY-7; READY-9 where it waited after its
** issue).
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
** READY-10 (scheduler.c): gto's warps at a global atomic, kept beside
** its sets.  Invariant READY-7: a scheduler not due lists no issue, and its set's
** emptiness is as last listed.  Invariant READY-9: a scheduler waiting
** after its issue (warp-local, or dab_sched's own atomic's: due_pend)
** lists no issue before its wake,
** nor another set's emptiness.  READY-5
** (dab_sched.c): the schedulers told to the flush guard as having an
** allowed warp are those whose full poll is not empty.
**
** Invariant READY-14 (base18): the earliest ready time of a listed
** warp's other warps, as looked for up to the first ready (readyset_others,
** for the scheduler's wait after the issue and for telling the driver of
** another ready warp), kept for the same warp and others while nothing but
** its unit's own issues reached the scheduler (their ready times move
** only with an event, their own issues theirs: the key, its at less its
** unit's count), decides as a new look would: one ready by the clock, or
** the same earliest time (baseline pagerank at 16 CTAs: a greedy warp's
** seven others looked at on every issue).  So does, where the listing
** keeps none (dab_sched's), the one its last listing found, none ready
** then (psoon), for a listing of the same warp again right after that
** warp's issue alone, its others as then (readyset_list_free's again:
** DAB pagerank's greedy warp, up to 42,031 of its 91,346 listings; a
** checked run, listing every cycle, checks it where only that issue,
** warp-local, came since that listing: pat, punit).  Checked under GPUMC_CHECK_READY, where
** every listing looks.
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
	unsigned words = (nsched + 63) / 64;
	size_t words64 = 3 * ngroups + 1 + 4 * nsched + (4 + RS_SPAN) * words + (nsched + 1) / 2 + (nsched + 7) / 8;
	/* whole 64-byte lines: the words it adds do not shift the heap after
	** it (16 bytes cost exhaustive mode's state-vector copies 1% on a
	** bench/callgrind.sh row, misaligned) */
	struct readyset *rs = xcalloc(1, (head + sizeof(uint64_t) * words64 + 63) / 64 * 64);
	rs->n = nsched;
	rs->gto_idx = gto_idx;
	rs->ngroups = ngroups;
	rs->allowed = (uint64_t *)((char *)rs + head) + 1;
	rs->nowoke = rs->allowed + ngroups;
	rs->aux = rs->nowoke + nsched;
	rs->wake = rs->aux + 2 * nsched;
	rs->gseen = rs->wake + nsched;
	rs->gwoke = rs->gseen + ngroups;
	rs->due = rs->gwoke + ngroups;
	rs->far = rs->due + words;
	rs->pend = rs->far + words;
	rs->after = rs->pend + words;
	rs->ring = rs->after + words;
	rs->words = words;
	unsigned *group = (unsigned *)(rs->ring + RS_SPAN * words);
	unsigned char *gpos = (unsigned char *)(group + nsched);
	for (unsigned k = 0; k < nsched; k++) {
		group[k] = k / (nsched / ngroups);
		gpos[k] = (unsigned char)(k % (nsched / ngroups));
	}
	rs->group = group;
	rs->gpos = gpos;
	rs->due_run = UINT64_MAX; /* no run's: the first sync makes every scheduler due */
	for (unsigned i = 0; i < nsched; i++)
		rs->e[i].at = UINT64_MAX;
	return rs;
}

void readyset_fill(struct readyset *rs, const struct timed_now *tn, unsigned k, unsigned u, uint64_t at,
                   uint64_t *may, uint64_t *viewed, const struct readyset_src *src)
{
	struct readyset_entry *e = &rs->e[k];
	/* under tn->check, what the kept set, or the one event since (the
	** unit's own warp-local issue, readyset_get_one), would have given */
	uint64_t m = e->may, v = e->viewed;
	int one = tn->check && at == e->at + 1 && tn->unit_changed[u] == e->unit + 1 && src->one &&
	          src->one(src, k, tn->last[u], &m, &v);
	/* only wakes since, and perhaps the unit's own warp-local issue (its
	** warp's bits first): at less its SM's sm_woke and its unit's count
	** is the same (each count only grows; keys of an earlier run are
	** below this run's counts) */
	uint64_t nowoke = src->woke ? at - tn->sm_woke[rs->group[k]] - tn->unit_changed[u] : at;
	uint64_t own = tn->unit_changed[u] - e->unit;
	/* or only the unit's own issue that reached its set alone (REACH_OWN:
	** its count by 2, no other count since): some warps' bits alone */
	int some = (src->woke && !one && e->at != at && nowoke == rs->nowoke[k] &&
	            (!own || (own == 1 && src->one && src->one(src, k, tn->last[u], &m, &v))) &&
	            src->woke(src, k, &m, &v)) ||
	           (rs->own && at == e->at + 2 && own == 2 && rs->own(src, k, tn->last[u], &m, &v));
	if (some && !tn->check) {
		*may = m;
		*viewed = v;
	} else
		src->fill(src, k, may, viewed);
	if (tn->check && (e->at == at || one || some) && (m != *may || v != *viewed)) {
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

void readyset_others_check(const struct timed_now *tn, unsigned k, uint64_t kept, uint64_t found, uint64_t upto)
{
	if ((kept <= upto) == (found <= upto) && (found <= upto || kept == found))
		return;
	fprintf(stderr,
	        "gpumc: internal error: READY-14: scheduler %u at cycle %llu: the listed warp's others' earliest ready "
	        "time kept as %llu, looked for %llu (up to %llu): an event did not signal\n",
	        k, (unsigned long long)tn->clock, (unsigned long long)kept, (unsigned long long)found,
	        (unsigned long long)upto);
	abort();
}

void readyset_again_check(const struct timed_now *tn, unsigned k, const struct readyset_entry *e, uint64_t at,
                          uint64_t uc, int step, uint64_t found, uint64_t upto)
{
	if (at == e->pat && uc == e->punit)
		readyset_others_check(tn, k, e->psoon, found, upto);
	else if (step) {
		fprintf(stderr,
		        "gpumc: internal error: READY-14: scheduler %u at cycle %llu: its unit's own issue alone since its "
		        "set was computed, but not since the listing that found its others' earliest ready time\n",
		        k, (unsigned long long)tn->clock);
		abort();
	}
}

void readyset_due_restart(struct readyset *rs, const struct timed_now *tn)
{
	rs->due_run = tn->run;
	rs->due_reached = tn->reached - 1; /* the sync looks at every group */
	for (unsigned gi = 0; gi < rs->ngroups; gi++) {
		rs->gseen[gi] = ~(tn->changed + tn->sm_changed[gi]);
		rs->gwoke[gi] = tn->sm_woke[gi]; /* so not taken for wakes alone */
	}
	memset(rs->ring, 0, sizeof *rs->ring * RS_SPAN * rs->words);
	memset(rs->far, 0, sizeof *rs->far * rs->words);
	memset(rs->pend, 0, sizeof *rs->pend * rs->words);
	memset(rs->after, 0, sizeof *rs->after * rs->words);
	memset(rs->slots, 0, sizeof rs->slots);
	for (unsigned k = 0; k < rs->n; k++)
		rs->wake[k] = 0;
	rs->base = 0;
	rs->ring_next = rs->far_next = UINT64_MAX;
}

void readyset_due_wait(struct readyset *rs, unsigned k, uint64_t wake)
{
	due_wait(rs, k, wake);
}

void readyset_due_missed(const struct readyset *rs, const struct timed_now *tn, unsigned k)
{
	int after = (int)(rs->after[k / 64] >> k % 64 & 1);
	fprintf(stderr,
	        "gpumc: internal error: READY-%d: scheduler %u at cycle %llu: not due before cycle %llu%s, but it lists "
	        "an issue: an event did not signal\n",
	        after ? 9 : 7, k, (unsigned long long)tn->clock, (unsigned long long)rs->wake[k],
	        after ? " (waiting after its issue)" : "");
	abort();
}
