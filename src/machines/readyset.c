/*
** Concrete mode's ready sets.  A warp scheduler that polled every warp
** every cycle (READY?  room for its atomic?  gates open?  the DAB rule's
** view) spent most of a DAB run on warps blocked for thousands of cycles.
** Instead each scheduler keeps the set of its warps that may issue as far
** as the state goes (timing aside: the driver's ready times and busy
** units filter it each cycle), and recomputes it only after an event that
** may change it.  The events are the state changes, as the driver counts
** them (model.h, struct timed_now):
**
**   - a warp-local issue (model.local: it writes only the warp's registers
**     and stack, the warp stays READY, and it enables or disables no other
**     action) can change only its own scheduler's set (the warp's next
**     instruction, the DAB rule's round or turn): that unit's count;
**   - every other action -- a memory or atomic instruction's issue, a reply
**     or resume (rop, dab flush, persist acks), a barrier's release, a CTA
**     launch, a gate -- may wake or block any warp: the global count.
**
** A set is valid while the sum of the two counts it was computed at is
** unchanged (both only grow).  Signalling by what the state change may
** reach, not by each component naming the warps it wakes, means no resume
** path can be missed; GPUMC_CHECK_READY=1 (t/readyset.sh) recomputes
** every set on every use and stops at the first difference.
**
** Invariant READY-1: a valid set equals the full poll of the state.
*/
#include "config.h"
#include "machines/readyset.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/strbuf.h"

struct entry {
	uint64_t at;  /* the counts' sum when computed (UINT64_MAX: never) */
	uint64_t may, viewed;
};

struct readyset {
	uint64_t run; /* the concrete run the entries are of */
	unsigned n;
	struct entry e[];
};

struct readyset *readyset_new(unsigned nsched, unsigned most_warps)
{
	if (most_warps > 64)
		return NULL;
	struct readyset *rs = xmalloc(sizeof *rs + sizeof *rs->e * nsched);
	rs->run = 0;
	rs->n = nsched;
	return rs;
}

void readyset_get(struct readyset *rs, const struct timed_now *tn, unsigned k, unsigned u, uint64_t *may,
                  uint64_t *viewed, void (*fill)(const void *ctx, unsigned k, uint64_t *may, uint64_t *viewed),
                  const void *ctx)
{
	if (rs->run != tn->run) { /* a new run: nothing known */
		rs->run = tn->run;
		for (unsigned i = 0; i < rs->n; i++)
			rs->e[i].at = UINT64_MAX;
	}
	struct entry *e = &rs->e[k];
	uint64_t at = tn->changed + tn->unit_changed[u];
	if (e->at == at && !tn->check) {
		*may = e->may;
		*viewed = e->viewed;
		return;
	}
	fill(ctx, k, may, viewed);
	if (e->at == at && (e->may != *may || e->viewed != *viewed)) {
		fprintf(stderr,
		        "gpumc: internal error: READY-1: scheduler %u at cycle %llu: event-driven set %#llx (viewed "
		        "%#llx), full poll %#llx (viewed %#llx): an event did not signal\n",
		        k, (unsigned long long)tn->clock, (unsigned long long)e->may, (unsigned long long)e->viewed,
		        (unsigned long long)*may, (unsigned long long)*viewed);
		abort();
	}
	e->at = at;
	e->may = *may;
	e->viewed = *viewed;
}
