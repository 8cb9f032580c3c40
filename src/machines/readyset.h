/* Concrete mode's ready sets (readyset.c): per warp scheduler, which of
** its warps may issue as far as the state goes, kept between cycles and
** recomputed only after an event that may change it. */
#ifndef GPUMC_READYSET_H
#define GPUMC_READYSET_H

#include <stdint.h>

#include "explore/model.h"

struct comp;
struct readyset_src;

struct readyset_entry {
	uint64_t at;   /* the driver's counts' sum when computed (UINT64_MAX: never; of
	                  another run: no key of this run, model.h) */
	uint64_t unit; /* of which the scheduler's own unit's count */
	uint64_t may, viewed;
	uint64_t soon; /* the earliest ready time of a warp in may, as last listed */
	/* as it last listed an issue: its unit's count after that issue, if
	** warp-local, the earliest ready time of the set's other warps (0:
	** unknown, or one ready then), and the warp listed (readyset_due_keep;
	** READY-14, readyset_list_free's again) */
	uint64_t punit, psoon;
	uint32_t psubj;
	/* the listed warp's other warps' earliest ready time as last looked
	** for (omin: up to the first ready then), for which warp (osubj) and
	** others (oset), and the key it holds for (okey: at less the unit's
	** own count, which only the unit's own issues move; 0, no run's key,
	** before the first look): READY-14; where the listing keeps none
	** (readyset_list_free's keep), under tn->check, the key after the
	** issue it last listed with psoon alone, if warp-local (pat: that
	** listing's at plus one), readyset_again_check's */
	uint32_t osubj;
	uint64_t oset;
	union {
		uint64_t okey, pat;
	};
	uint64_t omin;
};

#define RS_SPAN 128
struct readyset {
	/* warp -> its index in its scheduler, where the driver's pick within
	** a unit is GTO's (model.pick); NULL: any ready warp (readyset_list) */
	const unsigned *gto_idx;
	unsigned n, ngroups; /* schedulers, and groups of them (an SM's) */
	/* per scheduler, its group: k / (n / ngroups) without a division
	** (one per due scheduler every cycle was 8% of gto_enabled's time) */
	const unsigned *group;
	/* and its place in the group, k % (n / ngroups): its bit in allowed[]
	** (a multiply less a visit, and a register: DAB pagerank 0.4%) */
	const unsigned char *gpos;
	/* per group, its schedulers (bit j: its j-th) whose sets were not
	** empty as last listed, where the component keeps them (dab_sched.c:
	** for dab.c's guard), and before them (allowed[-1]) a count of
	** their changes, which the component moves with them */
	uint64_t *allowed;
	/* per scheduler, its entry's at less its SM's sm_woke (REACH_WAKES)
	** and its unit's count when computed, which its own warp-local issue
	** (readyset_get_one's one) leaves: apart, for the entries are read every
	** cycle */
	uint64_t *nowoke;
	/* per scheduler, two words its component keeps beside the set
	** (gto: aux[2k], those of its warps at a global atomic as last
	** polled; aux[2k + 1], those its own atomic issues named since) */
	uint64_t *aux;
	/* the due set, for components that list only due schedulers
	** (readyset_due_sync): per 64 schedulers (words of them), bit k % 64:
	** it may list an issue at the clock.  Per scheduler not due, the
	** cycle it may again (wake), the schedulers waiting so in a calendar:
	** those due before `base` + RS_SPAN in a ring of one set per cycle
	** (cycle t: slot t % RS_SPAN, its bit in `slots` set where the slot
	** may not be empty; the first such cycle: ring_next, UINT64_MAX for
	** none), the others in `far` (the earliest of their wakes:
	** far_next).  One made due by an event stays where it waits until it
	** waits again.  Per group, the driver's counts as last
	** looked (gseen) and its sm_woke then (gwoke); the run, and the driver's reached count (timed_now), as last
	** looked.  pend: the schedulers that listed an issue they may wait
	** after (readyset_due_keep); after: those waiting so (READY-9). */
	uint64_t *due, *wake, *gseen, *gwoke, *ring, *far, *pend, *after, slots[RS_SPAN / 64];
	uint64_t base, ring_next, far_next, due_run, due_reached;
	unsigned words;
	/* the component's context for its polls (readyset_src and what it
	** adds: dab_sched.c's dab_src), kept between listings, which move
	** only its state vector */
	_Alignas(8) unsigned char ctx[48];
	/* set by the component (NULL: never): after the unit's own issue that
	** reached its set alone (REACH_OWN, its count by 2) by the warp of
	** `subject`, the bits that issue may move (returns 0 where it cannot
	** say which); here, not in readyset_src, which gto builds each
	** listing */
	int (*own)(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed);
	struct readyset_entry e[];
};

/* What a scheduler component recomputes its sets from: itself, the state,
** and two polls.  fill: scheduler k's warps that may issue (bit i: its
** i-th warp, *may) and those of them whose issue depends on the
** scheduler's view (*viewed).  one (NULL: never): after one warp-local
** issue by the warp of `subject`, its bits alone, where the rule lets that
** issue change no other warp's (returns 0 where it does not).  woke
** (NULL: never): after actions that wake or block only named warps
** (REACH_WAKES) alone, the bits of those their components named (returns
** 0 where it cannot); where the unit's own warp-local issue came too, one
** and then woke (each poll of the state as it is: neither may depend on
** the other's event having come first).  (And struct readyset's own.) */
struct readyset_src {
	const struct comp *c;
	const uint8_t *sv;
	void (*fill)(const struct readyset_src *src, unsigned k, uint64_t *may, uint64_t *viewed);
	int (*one)(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed);
	int (*woke)(const struct readyset_src *src, unsigned k, uint64_t *may, uint64_t *viewed);
};

/* The sets of nsched schedulers of at most 64 warps each, and ngroups
** groups; gto_idx as struct readyset.  Freed with free(). */
struct readyset *readyset_new(unsigned nsched, unsigned ngroups, const unsigned *gto_idx);
/* What scheduler unit u of SM sm has seen happen: a set is kept while
** this sum of the driver's counts (each only grows) stays the same. */
static inline uint64_t readyset_at(const struct timed_now *tn, unsigned u, unsigned sm)
{
	return tn->changed + tn->unit_changed[u] + tn->sm_changed[sm];
}
/* Scheduler k (unit u), having seen `at` (readyset_at), at the clock tn:
** its set (*may) and those of them whose issue depends on the scheduler's
** view (*viewed), recomputed through src only when an event since the
** last call may have changed them, and on every call under tn->check,
** where a difference is a missed event: an internal error, reported and
** fatal.  readyset_fill: the full poll, where readyset_get_one took neither
** the kept set nor the one event's, or the woken warps' bits alone, or
** those of the unit's own issue that reached its set alone (rs->own). */
void readyset_fill(struct readyset *rs, const struct timed_now *tn, unsigned k, unsigned u, uint64_t at,
                   uint64_t *may, uint64_t *viewed, const struct readyset_src *src);
/* Scheduler k's entry, its set moved by the one event since (one): kept
** as computed at `at` (its unit's count unit). */
static inline void readyset_moved(struct readyset_entry *e, uint64_t at, uint64_t unit, uint64_t may, uint64_t viewed)
{
	e->soon = 0; /* as readyset_fill: a moved set's ready time is unknown */
	e->at = at;
	e->unit = unit;
	e->may = may;
	e->viewed = viewed;
}
/* Asked for every free scheduler every cycle: the kept set inline, and
** inline too after the unit's own warp-local issue, the one event that
** comes most (a scheduler issuing cycle after cycle): its warp's bits.
** readyset_get_one: with src's one given apart, which a component that
** names its own (a constant) has inlined (gto: once per issue), and
** unchecked, where the caller knows tn->check is 0 (a constant: its
** test folds, and the full poll's set comes through locals). */
static inline __attribute__((always_inline)) void
readyset_get_one(struct readyset *rs, const struct timed_now *tn, unsigned k, unsigned u, uint64_t at, uint64_t *may,
                 uint64_t *viewed, const struct readyset_src *src,
                 int (*one)(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed),
                 int unchecked)
{
	struct readyset_entry *e = &rs->e[k];
	if (unchecked || !tn->check) {
		if (e->at == at) {
			*may = e->may;
			*viewed = e->viewed;
			return;
		}
		if (at == e->at + 1 && tn->unit_changed[u] == e->unit + 1 && one) {
			uint64_t m = e->may, v = e->viewed;
			if (one(src, k, tn->last[u], &m, &v)) {
				readyset_moved(e, at, tn->unit_changed[u], m, v);
				*may = m;
				*viewed = v;
				return;
			}
		}
	}
	/* unchecked (dab_sched's listing), through locals: the caller's set
	** (inline) is then not address-taken, and stays in registers (DAB
	** pagerank 0.3% of its instructions; gto's listing, measured, is
	** better as it is) */
	uint64_t m, v;
	readyset_fill(rs, tn, k, u, at, unchecked ? &m : may, unchecked ? &v : viewed, src);
	if (unchecked) {
		*may = m;
		*viewed = v;
	}
}

/* Scheduler k's set is kept and none of its warps is ready before soon:
** nothing to list before then (ready times move only with an event).
** Never under tn->check, which lists and compares (readyset_listed). */
static inline int readyset_later(const struct readyset *rs, const struct timed_now *tn, unsigned k, uint64_t at,
                                 uint64_t upto)
{
	const struct readyset_entry *e = &rs->e[k];
	return e->at == at && !tn->check && e->soon > upto;
}
/* A kept ready time that a warp beats (READY-1 under tn->check): fatal. */
void readyset_missed_soon(const struct timed_now *tn, unsigned k, uint64_t soon, uint64_t upto)
	__attribute__((noreturn, cold));
/* Scheduler k listed n warps up to upto; soon: the earliest ready time of
** its set's warps; unchecked as readyset_get_one's. */
static inline void readyset_listed(struct readyset *rs, const struct timed_now *tn, unsigned k, uint64_t at,
                                   uint64_t upto, unsigned n, uint64_t soon, int unchecked)
{
	struct readyset_entry *e = &rs->e[k];
	if (!unchecked && tn->check && n && e->soon > upto && e->at == at)
		readyset_missed_soon(tn, k, e->soon, upto);
	e->soon = soon;
}
/* Does scheduler k's kept earliest ready time of a listed warp's others
** (readyset_others) hold for warp subj and others o at key okey? */
static inline int readyset_others_kept(const struct readyset_entry *e, uint64_t o, uint64_t okey, uint32_t subj)
{
	return e->oset == o && e->okey == okey && e->osubj == subj;
}
/* READY-14 under tn->check: a kept earliest ready time of a listed
** warp's others that a new look (found) decides otherwise is fatal.  Out
** of line: checked runs alone. */
void readyset_others_check(const struct timed_now *tn, unsigned k, uint64_t kept, uint64_t found, uint64_t upto)
	__attribute__((cold));
/* READY-14 for readyset_list_free's again, under tn->check, where it
** lists its last listed warp again, the others as then (found: their
** earliest ready time looked for): where only that warp's warp-local
** issue came since that listing (at: pat, its unit's count uc: punit),
** psoon decides as found; and step (only its unit's own issue since its
** set was computed, which again takes) only there. */
void readyset_again_check(const struct timed_now *tn, unsigned k, const struct readyset_entry *e, uint64_t at,
                          uint64_t uc, int step, uint64_t found, uint64_t upto) __attribute__((cold));
/* The earliest ready time of warps set (bits of scheduler k's warps, the
** set's but the one listed, subj), looked for until one is ready by upto;
** 0 where they are too many to look at.  Of them, those in set but not in
** o were looked at already (none ready by upto; before: their earliest
** ready time).  keep: kept for the same warp and others while only the
** unit's own issues come (READY-14; gto's, where a greedy warp issues
** again and again). */
static inline __attribute__((always_inline)) uint64_t readyset_others(struct readyset *rs, const struct timed_now *tn,
                                                                      unsigned k, unsigned u, uint64_t at,
                                                                      uint64_t upto, unsigned s0, uint32_t subj,
                                                                      const unsigned *warps, uint64_t set, uint64_t o,
                                                                      uint64_t before, int keep)
{
	uint64_t past = set & (set - 1), so = before;
	past &= past - 1;
	past &= past - 1;
	past &= past - 1; /* its fifth */
	if (past) {
		past &= past - 1;
		past &= past - 1;
		past &= past - 1; /* its eighth */
		if (past)
			return 0;
	}
	struct readyset_entry *e = &rs->e[k];
	uint64_t okey = at - tn->unit_changed[u];
	int kept = keep && readyset_others_kept(e, set, okey, subj);
	if (kept && !tn->check)
		return e->omin;
	for (; o && so > upto; o &= o - 1) {
		uint64_t ro = tn->ready[s0 + warps[__builtin_ctzll(o)]];
		so = ro < so ? ro : so;
	}
	if (kept)
		readyset_others_check(tn, k, e->omin, so, upto);
	if (keep) {
		e->oset = set;
		e->okey = okey;
		e->osubj = subj;
		e->omin = so;
	}
	return so;
}

/* Scheduler k (unit u, its warps warps[0..), subjects from s0): list its
** set's warps ready by upto as actions of kind into out, the first only,
** then those ready at the clock, when listing everything (tn->now =
** UINT64_MAX); listing what can issue now under GTO's pick (gto_idx),
** only the one it picks; returns their number, *may the set, *viewed
** whether one listed was allowed by the view.  Inline: once per free
** scheduler of every SM that issued or was woken, each cycle.
** readyset_list_one: src's one given apart (readyset_get_one), and keep:
** whether the listed warp's others' earliest ready time is kept
** (readyset_others); readyset_list_free: and free, whether its unit is
** free again the cycle after an issue (an issue keeps it busy one
** cycle, compose.c: then, with another warp ready then, it would not
** wait after the issue, due_pend, and is not told to; a unit kept busy
** longer would cost a listing more, never a missed one); and fast, where
** the caller knows that tn->check is 0, tn->now is not UINT64_MAX and
** rs->gto_idx is set (a constant 1 folds their tests). */
static inline __attribute__((always_inline)) unsigned
readyset_list_free(struct readyset *rs, const struct timed_now *tn, unsigned k, unsigned u, uint64_t at, uint64_t upto,
                   unsigned kind, unsigned s0, const unsigned *warps, const struct readyset_src *src, struct action *out,
                   uint64_t *may, int *viewed,
                   int (*one)(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed),
                   int keep, int free, int fast)
{
	uint64_t with_view, soon = UINT64_MAX;
	unsigned n = 0;
	struct readyset_entry *e = &rs->e[k];
	/* step: only the unit's own issue came since the set was last
	** computed, then at its last listing (the unit issues only what it
	** listed, free, and a listing computes it); was: the set then.
	** READY-14's again below, where no keep (the driver's counts: its
	** key, and its unit's count, each one past) */
	const int step = !keep && at == e->at + 1 && tn->unit_changed[u] == e->unit + 1;
	const uint64_t was = e->may;
	readyset_get_one(rs, tn, k, u, at, may, &with_view, src, one, fast);
	*viewed = 0;
	if (fast || (rs->gto_idx && tn->now != UINT64_MAX)) {
		/* GTO picks the warp the unit issued last while it can issue,
		** else the lowest (compose.c, m_pick): only that one is listed.
		** Its ready time stands for soon, which once a warp is ready
		** by upto is only ever compared with a clock past it. */
		uint32_t l = tn->last[u];
		uint64_t m = *may, r = 0, rest;
		unsigned i = 0;
		/* again: it lists the warp it listed last (psubj) with the
		** set's other warps as listed then (was); after that warp's
		** issue alone (step) their ready times are too (each moves only
		** with an event), their earliest as looked for then in full
		** (psoon) */
		int again = 0;
		if (l != UINT32_MAX && m >> rs->gto_idx[l - s0] & 1 && (r = tn->ready[l]) <= upto) {
			i = rs->gto_idx[l - s0];
			rest = m & ~(1ull << i);
			again = !keep && l == e->psubj && e->psoon && !((m ^ was) & ~(1ull << i));
		} else {
			/* the lowest ready; those passed over (none ready, their
			** earliest ready time soon) are the others' first */
			for (; m; m &= m - 1) {
				i = (unsigned)__builtin_ctzll(m);
				r = tn->ready[s0 + warps[i]];
				if (r <= upto)
					break;
				soon = r < soon ? r : soon;
			}
			if (!m) {
				readyset_listed(rs, tn, k, at, upto, 0, soon, fast);
				return 0;
			}
			rest = m & (m - 1);
		}
		unsigned w = warps[i];
		out[n++] = (struct action){ (uint16_t)kind, (uint16_t)u, s0 + w, 0 };
		*viewed = (int)(with_view >> i & 1);
		/* the others' earliest ready time: one ready is left for the
		** next cycle (told), and the scheduler may wait for it after
		** this issue (readyset_due_keep); looked for until one is
		** ready among seven others at most, past seven one assumed
		** ready, unlooked (a persist row's sixteen a scheduler; past
		** four, as before, listed baseline pagerank's eight at 16 CTAs
		** the next cycle for none ready, 88,196 times a run); kept
		** where keep says (READY-14) */
		uint64_t so = again && step && (fast || !tn->check)
		              ? e->psoon
		              : readyset_others(rs, tn, k, u, at, upto, s0, s0 + w, warps, *may & ~(1ull << i), rest, soon, keep);
		if (again && !fast && tn->check) /* where a checked run lists every cycle, step is rare */
			readyset_again_check(tn, k, e, at, tn->unit_changed[u], step, so, upto);
		if (so <= upto + (unsigned)free) { /* it cannot wait */
			if (so <= upto)
				*tn->again = 1;
			e->psoon = 0;
		} else {
			e->psoon = so;
			e->psubj = s0 + w;
			e->punit = tn->unit_changed[u] + 1;
			if (!keep && !fast && tn->check)
				e->pat = at + 1;
		}
		readyset_listed(rs, tn, k, at, upto, n, r, fast); /* the earliest: the others' are past upto */
		return n;
	}
	for (uint64_t m = *may; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m), w = warps[i];
		uint64_t r = tn->ready[s0 + w];
		if (r < soon)
			soon = r;
		if (r > (n && tn->now == UINT64_MAX ? tn->clock : upto))
			continue;
		out[n++] = (struct action){ (uint16_t)kind, (uint16_t)u, s0 + w, 0 };
		*viewed |= (int)(with_view >> i & 1);
	}
	rs->e[k].psoon = 0; /* which it issues is the unit's pick: it waits for none */
	readyset_listed(rs, tn, k, at, upto, n, soon, fast);
	return n;
}
static inline __attribute__((always_inline)) unsigned
readyset_list_one(struct readyset *rs, const struct timed_now *tn, unsigned k, unsigned u, uint64_t at, uint64_t upto,
                  unsigned kind, unsigned s0, const unsigned *warps, const struct readyset_src *src, struct action *out,
                  uint64_t *may, int *viewed,
                  int (*one)(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed),
                  int keep)
{
	return readyset_list_free(rs, tn, k, u, at, upto, kind, s0, warps, src, out, may, viewed, one, keep, 0, 0);
}
static inline __attribute__((always_inline)) unsigned readyset_list(struct readyset *rs, const struct timed_now *tn,
                                                                    unsigned k, unsigned u, uint64_t at, uint64_t upto,
                                                                    unsigned kind, unsigned s0, const unsigned *warps,
                                                                    const struct readyset_src *src, struct action *out,
                                                                    uint64_t *may, int *viewed)
{
	return readyset_list_one(rs, tn, k, u, at, upto, kind, s0, warps, src, out, may, viewed, src->one, 0);
}

/* The due set and its calendar (readyset.c's top comment), inline: both
** listings sync once a call (readyset_due_sync below), which out of line
** cost DAB pagerank 2.2% of its listing's instructions. */

/* Schedulers [k, k + n) due. */
static inline void due_mark(struct readyset *rs, unsigned k, unsigned n)
{
	for (unsigned i = k; i < k + n; i++)
		rs->due[i / 64] |= 1ull << i % 64;
}

/* Scheduler k's bit in the words of set m: where a waiting k is, set or
** cleared. */
static inline void due_bit(uint64_t *m, unsigned k, int on)
{
	m[k / 64] = on ? m[k / 64] | 1ull << k % 64 : m[k / 64] & ~(1ull << k % 64);
}

/* Scheduler k, waiting until wake[k], into the calendar: the ring where
** it fits, else far; a wake not after base (no caller's today: each
** passes a time past the clock) is due at once, not a ring's turn late. */
static inline void due_place(struct readyset *rs, unsigned k)
{
	uint64_t t = rs->wake[k];
	if (t <= rs->base)
		due_bit(rs->due, k, 1);
	else if (t - rs->base < RS_SPAN) {
		due_bit(rs->ring + t % RS_SPAN * rs->words, k, 1);
		rs->slots[t % RS_SPAN / 64] |= 1ull << t % 64;
		if (t < rs->ring_next)
			rs->ring_next = t;
	} else if (t != UINT64_MAX) { /* none: it waits for an event */
		due_bit(rs->far, k, 1);
		if (t < rs->far_next)
			rs->far_next = t;
	}
}

/* readyset_due_wait, inline in due_pend: once per issue that waits */
static inline __attribute__((always_inline)) void due_wait(struct readyset *rs, unsigned k, uint64_t wake)
{
	uint64_t old = rs->wake[k];
	if (old > rs->base) { /* made due by an event while it waited: out of the calendar */
		due_bit(rs->far, k, 0);
		if (old - rs->base < RS_SPAN)
			due_bit(rs->ring + old % RS_SPAN * rs->words, k, 0);
	}
	due_bit(rs->due, k, 0);
	due_bit(rs->after, k, 0); /* due_pend marks its own */
	rs->wake[k] = wake;
	due_place(rs, k);
}

/* The first cycle after t whose slot's bit is set, none popped up to t
** left (every bit set stands for a cycle in (t, t + RS_SPAN)); UINT64_MAX:
** none. */
static inline uint64_t due_ring_next(const struct readyset *rs, uint64_t t)
{
	for (uint64_t x = t + 1; x < t + 1 + RS_SPAN; x += 64 - x % 64) {
		uint64_t m = rs->slots[x % RS_SPAN / 64] >> x % 64;
		if (m)
			return x + (unsigned)__builtin_ctzll(m);
	}
	return UINT64_MAX;
}

/* The calendar up to now: the ring's slots of (base, now] and the far
** wakes by now are due, and base moves to now.  Only where a slot's
** cycle came (ring_next): a listing at a cycle no scheduler waits for,
** every third of DAB pagerank's, no longer scans the ring's words.
** words: rs->words (as in due_sync). */
static inline __attribute__((always_inline)) void due_pop(struct readyset *rs, uint64_t now, unsigned words)
{
	while (rs->ring_next <= now) {
		uint64_t t = rs->ring_next, *slot = rs->ring + t % RS_SPAN * words;
		for (unsigned x = 0; x < words; x++) {
			rs->due[x] |= slot[x];
			slot[x] = 0;
		}
		rs->slots[t % RS_SPAN / 64] &= ~(1ull << t % 64);
		rs->ring_next = due_ring_next(rs, t);
	}
	rs->base = now;
	if (now < rs->far_next)
		return;
	/* rare: a wait past the ring's span came; the others wait on, in
	** the ring where they now fit */
	rs->far_next = UINT64_MAX;
	for (unsigned x = 0; x < words; x++)
		for (uint64_t m = rs->far[x]; m; m &= m - 1) {
			unsigned k = 64 * x + (unsigned)__builtin_ctzll(m);
			rs->far[x] &= ~(1ull << k % 64);
			if (rs->wake[k] <= now)
				due_bit(rs->due, k, 1);
			else
				due_place(rs, k);
		}
}

/* Scheduler k, which listed an issue: after that issue alone (due_pend's
** test; its count by `by`: 1 warp-local, 2 its own atomic's), the bits
** it moved (hook: one or rs->own), and is its set still not empty (the
** flush guard's bit stays) with no warp in it that was not as listed
** (their ready times are in psoon)?  Its set kept either way, as
** readyset_get_one keeps it (but under tn->check, which polls it whole
** at its listing). */
static inline __attribute__((always_inline)) int
due_moved(struct readyset *rs, const struct timed_now *tn, unsigned k, unsigned u, const struct readyset_src *src,
          int (*hook)(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed),
          uint64_t by)
{
	struct readyset_entry *e = &rs->e[k];
	uint64_t at = readyset_at(tn, u, rs->group[k]), m = e->may, v = e->viewed;
	uint64_t listed = e->may;
	if (at != e->at + by || !hook(src, k, tn->last[u], &m, &v))
		return 0;
	if (!tn->check)
		readyset_moved(e, at, tn->unit_changed[u], m, v);
	return m && !(m & ~listed);
}

/* The schedulers that listed an issue that may wait (readyset_due_keep),
** marked in `after` while they wait so (READY-9):
** where that issue was warp-local (its unit's count one past the one it
** listed at, the unit's last subject the warp listed), only that warp's
** bit of its set moved, the others' ready times with it not (they move
** only with an event, and one that reached it since makes it due after
** this, readyset_due_sync): nothing to list before its unit is free and
** that warp or another is ready.  Where a flush guard reads the sets'
** emptiness (one given: dab_sched.c), a set of that warp alone waits
** only where that issue alone came and left its bit set (due_moved): the
** guard's bit stays.  And there, where that issue was its own atomic's
** (REACH_OWN: its unit's count two past), the bits it moved (rs->own)
** leave the set not empty and add no warp to it (due_moved). */
static inline __attribute__((always_inline)) void
due_pend(struct readyset *rs, const struct timed_now *tn, unsigned u0, unsigned words, const struct readyset_src *src,
         int (*one)(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed))
{
	for (unsigned x = 0; x < words; x++) {
		for (uint64_t m = rs->pend[x]; m; m &= m - 1) {
			unsigned k = 64 * x + (unsigned)__builtin_ctzll(m), u = u0 + k;
			const struct readyset_entry *e = &rs->e[k];
			uint64_t wake = tn->ready[e->psubj] < e->psoon ? tn->ready[e->psubj] : e->psoon, uc = tn->unit_changed[u];
			wake = tn->unit_free[u] > wake ? tn->unit_free[u] : wake;
			if (wake > tn->now && tn->last[u] == e->psubj &&
			    (uc == e->punit ? !one || e->may & (e->may - 1) || due_moved(rs, tn, k, u, src, one, 1)
			                    : one && uc == e->punit + 1 && rs->own && due_moved(rs, tn, k, u, src, rs->own, 2))) {
				due_wait(rs, k, wake);
				rs->after[x] |= 1ull << k % 64;
			}
		}
		rs->pend[x] = 0;
	}
}

/* A new run (tn->run): every group looked at at the next sync, and,
** the clock from 0 again, nothing waits.  Out of line: once a run. */
void readyset_due_restart(struct readyset *rs, const struct timed_now *tn) __attribute__((cold));
/* readyset_due_sync and _named: inline in both, so that the first has
** no test of named left.  words: rs->words, a constant 1 where the
** caller knows it (no more than 64 schedulers): the loops over the due
** set's words fold, and with them registers the listing would spill
** (DAB pagerank 2% of its instructions). */
static inline __attribute__((always_inline)) void
due_sync(struct readyset *rs, const struct timed_now *tn, unsigned u0, unsigned words,
         uint64_t (*named)(const void *ctx, unsigned group), const void *ctx, const struct readyset_src *src,
         int (*one)(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed))
{
	unsigned nper = rs->n / rs->ngroups;
	if (rs->due_run != tn->run)
		readyset_due_restart(rs, tn);
	due_pend(rs, tn, u0, words, src, one); /* first: an event since makes one due again */
	if (tn->reached != rs->due_reached) {
		rs->due_reached = tn->reached;
		for (unsigned gi = 0; gi < rs->ngroups; gi++) {
			uint64_t seen = tn->changed + tn->sm_changed[gi];
			if (seen != rs->gseen[gi]) {
				uint64_t woke = tn->sm_woke[gi];
				if (named && seen - rs->gseen[gi] == woke - rs->gwoke[gi])
					for (uint64_t b = named(ctx, gi); b; b &= b - 1)
						due_mark(rs, gi * nper + (unsigned)__builtin_ctzll(b), 1);
				else
					due_mark(rs, gi * nper, nper);
				rs->gseen[gi] = seen;
				rs->gwoke[gi] = woke;
			}
		}
	}
	if (tn->now > rs->base)
		due_pop(rs, tn->now, words);
}

/* Listing what can issue at the clock, first: the schedulers an event
** reached since (the run's start, the global count, their SM's count:
** each moves only with the driver's reached count) and those whose wake
** time came are due.  A scheduler's own count moves only by its issue,
** which it listed: it was due, and stays so (readyset_due_keep) unless
** it may wait.  u0: the unit of scheduler 0; words: rs->words, or a
** constant 1 where the caller knows it is (due_sync); src and its one
** (readyset_get_one's): where a flush guard reads the sets' emptiness,
** for a set of one warp that may wait after its issue (due_pend). */
static inline __attribute__((always_inline)) void
readyset_due_sync(struct readyset *rs, const struct timed_now *tn, unsigned u0, unsigned words,
                  const struct readyset_src *src,
                  int (*one)(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed))
{
	due_sync(rs, tn, u0, words, NULL, NULL, src, one);
}
/* The same, but where only actions that wake or block named warps
** (REACH_WAKES) reached a group since, only its schedulers named(ctx,
** group) says they named warps of (bit j: its j-th) are due: the others'
** sets did not move (READY-7 holds them). */
static inline __attribute__((always_inline)) void
readyset_due_sync_named(struct readyset *rs, const struct timed_now *tn, unsigned u0, unsigned words,
                        uint64_t (*named)(const void *ctx, unsigned group), const void *ctx)
{
	due_sync(rs, tn, u0, words, named, ctx, NULL, NULL);
}
static inline int readyset_due(const struct readyset *rs, unsigned k)
{
	return (int)(rs->due[k / 64] >> k % 64 & 1);
}
/* Due scheduler k listed n at the clock, having seen what it has (its
** set kept, e.at): with none listed, it lists none before wake (its
** unit's free time where busy, else its set's earliest ready time; an
** earlier wake, as dab_sched's kept set's earliest ready time for a busy
** unit, costs only a listing) while no event reaches it, and is not due
** until then.  With one listed, where its issue, if warp-local, can
** change no bit of its set but the issuing warp's (may_wait): should
** that issue be all that reached it by the next sync (and, for a set of
** that warp alone where a flush guard reads its emptiness, leave it not
** empty: due_pend), it waits until its unit is free and the issuing warp
** or another of the set as listed is ready (READY-9). */
void readyset_due_wait(struct readyset *rs, unsigned k, uint64_t wake);
static inline void readyset_due_keep(struct readyset *rs, unsigned k, unsigned n, uint64_t wake, int may_wait)
{
	if (!n)
		readyset_due_wait(rs, k, wake);
	else if (may_wait && rs->e[k].psoon)
		rs->pend[k / 64] |= 1ull << k % 64;
}
/* Under tn->check every scheduler is listed: one not due that lists an
** issue is a missed event or wake (READY-7; READY-9 where it waits
** after its issue): fatal. */
void readyset_due_missed(const struct readyset *rs, const struct timed_now *tn, unsigned k)
	__attribute__((noreturn, cold));

#endif
