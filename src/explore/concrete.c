/*
** The concrete-mode driver.  Time advances cycle by cycle while some unit
** can issue, and jumps to the next ready time when none can, so long
** latencies cost nothing to simulate.  All timing state (ready times per
** subject, busy-until per unit, last subject per unit for GTO) lives here,
** outside the state vector.
**
** Each cycle asks the model only for the actions that can issue now
** (model.enabled_now: a warp in its latency, a word whose controller is
** busy, is not even looked at); the whole enabled list is computed only
** when none can, which is once per idle stretch.  Either way the same
** actions issue in the same order (t/golden-run.sh pins every bundled
** report): units in increasing order, each unit's candidates by subject,
** then in enabled() order.  Nearly always each unit has one candidate
** and the components list them in unit order: nothing to group or pick
** then (candidates: one_each); the first actions of the list where
** enabled_now says they are just that, each able to issue now
** (timed_now.listed_now: the schedulers' GTO picks), not even filtered.
**
** Idle cycles are jumped over event by event: with the state unchanged,
** what can issue changes only when a subject's ready time or a unit's
** busy-until passes, and the driver sets both, so the set of those times
** (struct events) gives the next cycle worth asking about.  The whole
** list is computed only when no such time is left (or the cycle limit is
** near), to tell a deadlock; a deadlock found that way is reported at
** the first idle cycle, as the cycle-by-cycle loop would, and the idle
** cycles are counted (tick, idle_unit_cycles) only once something issues.
**
** Nor is the cycle after one whose issues were all warp-local (model.local:
** they enable and disable no other action) looked at, unless something
** could issue then: a ready time or busy-until passing (now pushed for
** the next cycle too; a unit busy for one cycle is not, for what it has
** then is either ready then or listed now), a unit with two actions
** listed (one issued), or a component that says so (timed_now.again: a
** unit with more than it lists, an issue that may change what else can
** issue).  A warp-local issue that faulted its warp (model.faulted) is
** none: it may free a CTA's slot and start the next position's warps
** (static dispatch), so it counts as an event for every SM (the ready
** sets, readyset.c).  Such a cycle counts as
** an idle one jumped over.  Under
** GPUMC_CHECK_READY it is listed anyway, and an issue found stops the
** run (READY-6).
**
** Each action is one model.issue (timing, counts, warp-local answer,
** reach, the apply, and whether it faulted its warp); model.step and
** model.apply apart where something looks at the vector between them
** (a hook; GPUMC_CHECK_READY for every other action), in a copy of the
** loop of its own (timed_run).
**
** Invariants, checked under GPUMC_CHECK_READY (a violation is an
** internal error, fatal): READY-2, model.terminal equals status() and a
** warp-local issue changes neither (compose.c's looks at a warp it last
** found running first); READY-4, a warp-local issue disables
** no other unit's listed action of the same cycle; READY-6, above;
** READY-8, model.step's (model.issue's, every other action:
** check_issue) warp-local answer and counts equal model.local's and
** model.count's asked alone; READY-11, the skip test's quick look at the
** events (ev_at) agrees with ev_next; READY-16, the events ring holds no
** bit of a cycle passed (ev_pass drops each as the driver comes to it).
** READY-18, where enabled_now says the first actions of its list can
** issue now, one a unit in increasing unit order, before the others'
** units (timed_now.listed_now: GTO's picks), the filter (candidates)
** keeps them all and finds them so: unchecked it is not run on them.
** READY-1, -5, -7, -9, -10, -14 and -15 are the ready sets' (readyset.c,
** dab_sched.c, scheduler.c), READY-12 and -13 the DAB buffers' listing's
** (dab.c), READY-17 the composer's: a component laid out with no actions
** lists none, and is not asked (compose.c, m_enabled_now).
*/
#include "config.h"
#include "explore/concrete.h"
#include "explore/explore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/strbuf.h"
#include "util/interrupt.h"
#include "util/clock.h"
#include "util/env.h"

/* xoshiro256** seeded through splitmix64: fast, and the same sequence for
** the same seed everywhere. */
struct rng {
	uint64_t s[4];
};

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(void *p)
{
	struct rng *r = p;
	uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		r->s[i] = z ^ (z >> 31);
	}
}

/* Stable insertion sort of one unit's candidates by subject: enabled()
** lists them nearly in order, so this is one pass in practice. */
static void by_subject(struct action *a, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		struct action x = a[i];
		unsigned j = i;
		for (; j > 0 && a[j - 1].subject > x.subject; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* Of act[0..n), the actions that can issue at now (subject ready,
** unit free: the driver's ready and unit_free, not loaded through the
** timed_now the model saw), kept in order at the front of act; *wake:
** the earliest cycle one of the others can; *one_each: whether they
** come one per unit in increasing unit order, nothing to group or pick
** (nearly always).  No unit: an environment choice concrete mode does
** not take (a crash, a spontaneous eviction).  Inline: once a cycle,
** nearly always one or two actions, each of its own unit, all of them
** kept (no copy). */
static inline unsigned candidates(unsigned n, struct action *act, const uint64_t *ready, const uint64_t *unit_free,
                                  uint64_t now, uint64_t *wake, int *one_each)
{
	unsigned nc = 0, above = 0; /* above: the least unit the next one may have */
	int each = 1;
	for (unsigned i = 0; i < n; i++) {
		unsigned u = act[i].unit;
		if (u == UINT16_MAX)
			continue;
		uint64_t at = ready[act[i].subject];
		if (unit_free[u] > at)
			at = unit_free[u];
		if (at <= now) {
			each &= above <= u;
			above = u + 1;
			if (nc != i)
				act[nc] = act[i];
			nc++;
		} else if (at < *wake)
			*wake = at;
	}
	*one_each = each;
	return nc;
}

/* READY-18 (GPUMC_CHECK_READY): of act[0..n), enabled_now's list at
** now, the first lead can issue now, one a unit in increasing unit
** order, on units before the others' (timed_now.listed_now): candidates
** keeps them all (moving none: act stays as it is), one_each, and the
** others' units are past theirs.  Fatal where not. */
static void check_listed_now(unsigned n, unsigned lead, struct action *act, const uint64_t *ready,
                             const uint64_t *unit_free, uint64_t now, int plant)
{
	uint64_t wake = UINT64_MAX;
	int each = 1;
	unsigned kept = candidates(lead, act, ready, unit_free, now, &wake, &each), past = 0;
	while (kept == lead && each && lead && past < n - lead && act[lead + past].unit > act[lead - 1].unit)
		past++;
	if (kept + plant != lead || !each || (lead && past != n - lead)) {
		fprintf(stderr, "gpumc: internal error: READY-18: at cycle %llu enabled_now said its first %u actions (of %u) "
		        "can issue now, one a unit in order and before the others; %u can%s\n", (unsigned long long)now,
		        lead, n, kept, !each ? ", not one a unit in order" : kept == lead ? ", not before the others" : "");
		abort();
	}
}

/* act[0..n) grouped by unit in increasing order, each unit's actions in
** their order in act (a counting sort, stable, into sorting; act itself
** where it is so already, as the schedulers list them); per_unit:
** nunits + 1 zeros, left so. */
static struct action *by_unit(struct action *act, unsigned n, unsigned nunits, struct action *sorting,
                              unsigned *per_unit)
{
	unsigned i = 1;
	while (i < n && act[i - 1].unit <= act[i].unit)
		i++;
	if (i >= n)
		return act;
	for (i = 0; i < n; i++)
		per_unit[act[i].unit]++;
	for (unsigned u = 0, at = 0; u < nunits; u++) {
		unsigned k = per_unit[u];
		per_unit[u] = at;
		at += k;
	}
	for (i = 0; i < n; i++)
		sorting[per_unit[act[i].unit]++] = act[i];
	memset(per_unit, 0, sizeof *per_unit * nunits);
	return sorting;
}

/* The cycles at which a ready time or a busy-until passes, as a set.
** Most are a latency ahead: those before base + EV_SPAN (base: the last
** cycle asked about) are one bit each in a ring, the next found by a
** scan of a few words; the farther ones wait in a min-heap, where a time
** overwritten later stays and costs one idle look.  A time's bit is
** dropped when the driver comes to that cycle (ev_pass); a cycle it
** jumps over has none (it jumps to the first time set), so no bit
** stands for a time passed. */
#define EV_SPAN 4096
struct events {
	uint64_t base;               /* every bit set stands for a time in (base, base + EV_SPAN) */
	uint64_t ring[EV_SPAN / 64]; /* time x: bit x % EV_SPAN */
	uint64_t *t;                 /* the heap */
	size_t n, cap;
	uint64_t pushed; /* the last time put in the heap, not put twice in a row */
	int check;       /* GPUMC_CHECK_READY: READY-16 */
};

/* A time past the ring's span, into the heap. */
static void ev_push_far(struct events *e, uint64_t t)
{
	if (t == e->pushed)
		return;
	e->pushed = t;
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 256;
		e->t = xrealloc(e->t, sizeof *e->t * e->cap);
	}
	size_t i = e->n++;
	for (; i > 0 && e->t[(i - 1) / 2] > t; i = (i - 1) / 2)
		e->t[i] = e->t[(i - 1) / 2];
	e->t[i] = t;
}

/* Inline: the driver pushes one or two times per action, nearly all
** within the ring's span. */
static inline void ev_push(struct events *e, uint64_t now, uint64_t t)
{
	if (t <= now)
		return;
	if (t - e->base < EV_SPAN) /* base <= now < t */
		e->ring[t % EV_SPAN / 64] |= 1ull << t % 64;
	else
		ev_push_far(e, t);
}

/* READY-16 (GPUMC_CHECK_READY): no bit of the ring stands for a time
** in (base, now], passed (ev_pass drops each as the driver comes to
** it); a bit there would be read as that time plus EV_SPAN.  Fatal where
** one does. */
static void ev_check_passed(const struct events *e, uint64_t now)
{
	for (uint64_t x = e->base + 1; x <= now && x - e->base < EV_SPAN; x++)
		if (e->ring[x % EV_SPAN / 64] >> x % 64 & 1) {
			fprintf(stderr, "gpumc: internal error: READY-16: the events ring still holds cycle %llu at cycle %llu\n",
			        (unsigned long long)x, (unsigned long long)now);
			abort();
		}
}

/* The first time after now (UINT64_MAX: none), dropping the passed ones
** of the heap; now never goes back. */
static uint64_t ev_next(struct events *e, uint64_t now)
{
	if (e->check)
		ev_check_passed(e, now);
	e->base = now; /* the ring has no bit of (old base, now]: READY-16 */
	while (e->n && e->t[0] <= now) {
		uint64_t x = e->t[--e->n];
		size_t i = 0;
		for (;;) {
			size_t k = 2 * i + 1;
			if (k >= e->n)
				break;
			if (k + 1 < e->n && e->t[k + 1] < e->t[k])
				k++;
			if (e->t[k] >= x)
				break;
			e->t[i] = e->t[k];
			i = k;
		}
		if (e->n)
			e->t[i] = x;
	}
	uint64_t first = e->n ? e->t[0] : UINT64_MAX;
	/* every bit left is a time in (now, now + EV_SPAN): the first from now + 1 is the least */
	for (uint64_t x = now + 1; x < first && x < now + EV_SPAN; x += 64 - x % 64) {
		uint64_t m = e->ring[x % EV_SPAN / 64] >> x % 64;
		if (m)
			return x + (unsigned)__builtin_ctzll(m) < first ? x + (unsigned)__builtin_ctzll(m) : first;
	}
	return first;
}

/* Whether a time equal to now is set (ev_next(e, now - 1) == now, which
** the skip test asked before), without dropping the passed times of the
** heap when none is due: a test of now's bit, base <= now - 1 (every
** cycle the driver asks about is past the last one given to ev_next);
** base is brought up to date once it lags by half the span, lest pushes
** overflow into the heap.  Checked under GPUMC_CHECK_READY (READY-11). */
static inline int ev_at(struct events *e, uint64_t now)
{
	if (now - e->base >= EV_SPAN / 2 || (e->n && e->t[0] <= now))
		return ev_next(e, now - 1) == now;
	return (int)(e->ring[now % EV_SPAN / 64] >> now % 64 & 1);
}

/* The driver comes to cycle now (after the skip test's ev_at): its bit,
** if set, is dropped, lest it stand for now + EV_SPAN. */
static inline void ev_pass(struct events *e, uint64_t now)
{
	e->ring[now % EV_SPAN / 64] &= ~(1ull << now % 64);
}

/* READY-8 (GPUMC_CHECK_READY): an action's warp-local answer and counts,
** from model.step or model.issue (fn), equal model.local's and
** model.count's asked alone of the state before its apply (same: the
** answers agree; before: the counters before it, counted on alone;
** after: the counters it left).  Fatal where not. */
static void check_alone(const char *fn, int same, const uint64_t *before, const uint64_t *after, unsigned n,
                        uint64_t now)
{
	if (!same || memcmp(before, after, sizeof *before * n)) {
		fprintf(stderr, "gpumc: internal error: READY-8: model.%s differs from model.%s asked alone at cycle %llu\n",
		        fn, !same ? "local" : "count", (unsigned long long)now);
		abort();
	}
}

/* model.local's answer for a, alone, and model.count's counts added to
** before. */
static int ask_alone(const struct model *m, const uint8_t *sv, const struct action *a, uint64_t *before)
{
	m->count(m, sv, a, before);
	return m->local ? m->local(m, sv, a, NULL, 0) : 0;
}

/* READY-8 for model.step (a applied next to sv); before: the counters
** before the step.  Its timing is not asked again: a timing may book a
** resource (the interconnect). */
static void check_step(const struct model *m, const uint8_t *sv, const struct action *a, int local, uint64_t *before,
                       const uint64_t *after, uint64_t now)
{
	int alone = ask_alone(m, sv, a, before);
	check_alone("step", (local == 3 ? 1 : local) == alone, before, after, m->ncounters, now); /* 3: may fault */
}

/* READY-8 for model.issue (every other action under GPUMC_CHECK_READY),
** asked alone before it (counted: scratch for ct's copy).  Its timing is
** asked once, as check_step's. */
static int check_issue(const struct model *m, uint8_t *sv, const struct action *a, struct timing *t, void *rng,
                       uint64_t *ct, uint64_t *counted, int *sm, uint64_t now)
{
	memcpy(counted, ct, sizeof *ct * m->ncounters);
	int alone = ask_alone(m, sv, a, counted);
	int local = m->issue(m, sv, a, t, rng_next, rng, ct, sm);
	/* 2 for an issue that faulted its warp, which model.local calls 1 */
	check_alone("issue", local == alone || (local == 2 && alone == 1 && m->faulted(m, sv, a)), counted, ct, m->ncounters,
	            now);
	return local;
}

int concrete_usable(const struct model *m, struct strbuf *why)
{
	if (m->step && m->nunits && m->nsubjects)
		return 0;
	sb_printf(why, "machine %s has no concrete-mode timing: it can be checked (gpumc check), not run", m->name);
	return -1;
}

/* concrete_run's run number run, its first key changed; returns its last.
** Apart from concrete_run so that no pointer to the caller's count stays
** live through the loop (with one, 0.1-0.3% more instructions a run).
** check_ready: under GPUMC_CHECK_READY (2: with GPUMC_TEST_FAULT's plant
** "ready": READY-18 sees one candidate fewer than enabled_now listed);
** slow: model.step and model.apply apart (check_ready, a hook, or no
** model.issue); constants in the two unchecked copies (timed_run), so that
** the one with model.issue tests for none of the checks in its loop. */
static inline __attribute__((always_inline)) uint64_t timed_run_as(const struct model *m, uint64_t run,
                                                                   uint64_t changed, uint64_t seed,
                                                                   uint64_t max_cycles,
                                                                   const struct concrete_hook *hook,
                                                                   struct concrete_result *r, int check_ready,
                                                                   int slow)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(r, 0, sizeof *r);
	/* r->counters, not loaded through r once an action */
	uint64_t *ct = r->counters = xcalloc(m->ncounters ? m->ncounters : 1, sizeof *r->counters);
	r->sv = xmalloc(m->sv_size);
	uint8_t *sv = r->sv;
	m->init(m, sv);
	struct rng rng;
	rng_seed(&rng, seed);
	uint64_t *ready = xcalloc(m->nsubjects, sizeof *ready);
	uint64_t *unit_free = xcalloc(m->nunits, sizeof *unit_free);
	uint32_t *last = xmalloc(sizeof *last * m->nunits);
	/* what may have changed since a component last listed (readyset.c) */
	uint64_t *unit_changed = xcalloc(m->nunits, sizeof *unit_changed);
	uint64_t *sm_changed = xcalloc(m->nunits, sizeof *sm_changed); /* an SM has a unit */
	uint64_t *sm_woke = xcalloc(m->nunits, sizeof *sm_woke);
	int terminal = 0;
	int ask = 1; /* an action not warp-local, or an exit, since status() was asked */
	for (unsigned u = 0; u < m->nunits; u++)
		last[u] = UINT32_MAX;
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	struct action *sorting = xmalloc(sizeof *sorting * (m->max_actions + 1));
	uint64_t *counted = xmalloc(sizeof *counted * (m->ncounters + 1)); /* check_step's */
	/* candidates per unit, and where each unit's run starts in sorting */
	unsigned *per_unit = xcalloc(m->nunits + 1, sizeof *per_unit);
	uint64_t now = 0, idle_from = UINT64_MAX; /* idle since (UINT64_MAX: not idle) */
	uint64_t limit = max_cycles ? max_cycles : UINT64_MAX; /* the first cycle not run */
	uint64_t actions = 0, issuing = 0; /* r->actions, and the cycles that issue (or stall) */
	struct events ev = { .check = check_ready };
	struct timing t = { .run = run }; /* t.now set once a cycle: model.step writes neither */
	int again = 0, skip = 0; /* skip: nothing can issue this cycle (after a quiet one) */
	/* the driver's counts (changed, nonlocal, own, reached) kept in tn,
	** not copied into it each cycle */
	unsigned listed_now = 0; /* enabled_now's: its list's first, candidates as they are */
	struct timed_now tn = { 0, run, ready, unit_free, 0, changed, unit_changed, sm_changed, sm_woke, 0, check_ready, last,
		                &again, 0, 0, &listed_now };
	for (;;) {
		/* the run is over when the machine is: background work such as
		** WPQs draining to NVM after the kernel does not count */
		if (ask) { /* a warp-local issue other than an exit leaves its warp READY: running */
			ask = 0;
			terminal = m->terminal ? m->terminal(m, sv) : m->status(m, sv) == MS_TERMINAL;
			if (check_ready && terminal != (m->status(m, sv) == MS_TERMINAL)) {
				fprintf(stderr, "gpumc: internal error: READY-2: model.terminal differs from status at cycle %llu\n",
				        (unsigned long long)now);
				abort();
			}
		} else if (check_ready && (m->status(m, sv) == MS_TERMINAL) != terminal) {
			fprintf(stderr, "gpumc: internal error: READY-2: status changed by a warp-local issue at cycle %llu\n",
			        (unsigned long long)now);
			abort();
		}
		if (terminal)
			break;
		/* readiness changes on events: first only the actions that can
		** issue now (enabled_now); the whole list when none can, to tell a
		** deadlock or find the next cycle anything can */
		tn.now = tn.clock = now;
		uint64_t wake = UINT64_MAX;
		unsigned nc = 0;
		int one_each = 1; /* the candidates come one per unit, in order */
		uint64_t next = UINT64_MAX;
		if (m->enabled_now) {
			again = 0;
			int passes = skip && ev_at(&ev, now); /* a ready time or busy-until passes now */
			if (skip && check_ready && passes != (ev_next(&ev, now - 1) == now)) {
				fprintf(stderr, "gpumc: internal error: READY-11: at cycle %llu the events ring's bit says a time "
				        "%s, ev_next otherwise\n", (unsigned long long)now, passes ? "passes" : "does not pass");
				abort();
			}
			if (passes)
				skip = 0;
			ev_pass(&ev, now);
			if (!skip || check_ready) {
				unsigned n = m->enabled_now(m, sv, act, &tn), lead = listed_now;
				if (check_ready)
					check_listed_now(n, lead, act, ready, unit_free, now, check_ready > 1);
				/* the first lead as they are, the rest filtered (their units come after) */
				nc = lead + (n > lead ? candidates(n - lead, act + lead, ready, unit_free, now, &wake, &one_each) : 0);
			}
			if (skip && nc) {
				fprintf(stderr, "gpumc: internal error: READY-6: cycle %llu, passed over after a cycle of "
				        "warp-local issues alone, has an issue\n", (unsigned long long)now);
				abort();
			}
			skip = 0;
			next = nc ? 0 : ev_next(&ev, now);
			if (!nc && next < limit && !interrupted) {
				if (idle_from == UINT64_MAX)
					idle_from = now;
				now = next; /* nothing changes before then */
				continue;
			}
		}
		if (!nc) {
			struct timed_now all = tn;
			all.now = UINT64_MAX;
			unsigned n = m->enabled_now ? m->enabled_now(m, sv, act, &all)
			                            : (m->enabled_timed ? m->enabled_timed : m->enabled)(m, sv, act);
			wake = UINT64_MAX;
			nc = n ? candidates(n, act, ready, unit_free, now, &wake, &one_each) : 0;
			if (!nc && wake != UINT64_MAX && m->enabled_now && next < wake)
				wake = next; /* the list may leave out what cannot issue now */
			if (n == 0 || (!nc && wake == UINT64_MAX)) {
				/* a deadlock, or only untimed environment choices remain
				** (a crash): the state has been so since the idle
				** stretch began */
				if (idle_from != UINT64_MAX)
					now = idle_from;
				if (n == 0)
					break;
			}
		}
		if (idle_from != UINT64_MAX) { /* the idle stretch jumped over */
			r->idle_unit_cycles += (now - idle_from) * m->nunits;
			if (m->tick)
				m->tick(m, sv, now - idle_from, ct);
			idle_from = UINT64_MAX;
		}
		if (now >= limit || interrupted) {
			r->limit = 1;
			break;
		}
		if (!nc && wake == UINT64_MAX)
			break; /* only untimed environment choices remain (a crash) */
		if (!nc) {
			if (wake > limit)
				wake = limit; /* stop at the limit, not past it */
			r->idle_unit_cycles += (wake - now) * m->nunits;
			if (m->tick)
				m->tick(m, sv, wake - now, ct);
			now = wake;
			continue;
		}
		/* the units in increasing order, each one's candidates in subject
		** order and, within a subject, in enabled() order */
		struct action *grouped = one_each ? act : by_unit(act, nc, m->nunits, sorting, per_unit);
		/* moved: an issue this cycle was not warp-local; quiet: nor an
		** exit, and no unit has another action that can issue now */
		unsigned moved = 0, quiet = !again;
		uint64_t before = actions; /* the actions of the cycles before */
		t.now = now;
		issuing++;
		for (unsigned i = 0; i < nc;) {
			unsigned k = i++;
			if (!one_each) { /* the unit's run, picked from where longer than one */
				unsigned u = grouped[k].unit;
				while (i < nc && grouped[i].unit == u)
					i++;
				if (i - k > 1) {
					quiet = 0;
					by_subject(grouped + k, i - k);
					k += m->pick ? m->pick(m, grouped + k, i - k, last[u], rng_next, &rng) : 0;
				}
			}
			const struct action *a = &grouped[k];
			/* after warp-local issues alone it is: they disable nothing (model.local) */
			if (moved && m->still_enabled && !m->still_enabled(m, sv, a))
				continue; /* another unit took what it needed: stall */
			if (actions > before && !moved && check_ready && m->still_enabled && !m->still_enabled(m, sv, a)) {
				fprintf(stderr, "gpumc: internal error: READY-4: a warp-local issue disabled another at cycle %llu\n",
				        (unsigned long long)now);
				abort();
			}
			int sm, local;
			if (check_ready && !hook && m->issue && actions & 1) /* every other action: READY-8 */
				local = check_issue(m, sv, a, &t, &rng, ct, counted, &sm, now);
			else if (slow) { /* something looks at the vector between step and apply */
				if (check_ready)
					memcpy(counted, ct, sizeof *counted * m->ncounters);
				local = m->step(m, sv, a, &t, rng_next, &rng, ct, &sm);
				if (check_ready)
					check_step(m, sv, a, local, counted, ct, now);
				if (hook)
					hook->action(hook->ctx, now, a, &t, sv);
				m->apply(m, sv, a);
				if (local == 3) /* model.issue's answer */
					local = 1 + m->faulted(m, sv, a);
			} else
				local = m->issue(m, sv, a, &t, rng_next, &rng, ct, &sm);
			/* an issue that ended its warp (faulted) is none: its CTA's
			** slot may free, and under static dispatch the next position
			** start in this step (cta_dispatch.c), ungating warps of its
			** SM that no ready set was told of: an event for every SM
			** (a warp-local exit frees no slot: cta_dispatch's por) */
			if (local == 2 && m->faulted(m, sv, a)) {
				local = 0;
				sm = -1;
			}
			if (local) {
				unit_changed[a->unit]++;
				/* an exit: the kernel may be over */
				if (local == 2) {
					tn.nonlocal++;
					ask = 1;
					quiet = 0;
				}
			} else {
				int wakes = sm >= 0 && sm & REACH_WAKES;
				if (wakes)
					sm &= ~REACH_WAKES;
				if (sm == REACH_OWN) {
					unit_changed[a->unit] += 2;
					tn.own++;
				} else if (sm >= 0 && (unsigned)sm < m->nunits) {
					sm_changed[sm]++;
					sm_woke[sm] += (unsigned)wakes;
					tn.reached++;
				} else if (sm != REACH_NONE) {
					tn.changed++;
					tn.reached++;
				}
				tn.nonlocal++;
				ask = moved = 1;
			}
			actions++;
			unit_free[a->unit] = now + t.busy;
			last[a->unit] = a->subject;
			if (t.busy > 1) /* free next cycle: what it has then is ready then (pushed) or listed now */
				ev_push(&ev, now, now + t.busy);
			for (unsigned u = 0; u < t.n; u++) {
				ready[t.upd[u].subject] = now + t.upd[u].delay;
				ev_push(&ev, now, now + t.upd[u].delay);
			}
		}
		if (m->tick)
			m->tick(m, sv, 1, ct);
		now++;
		skip = quiet && !moved;
	}
	r->cycles = now;
	r->actions = actions;
	r->idle_unit_cycles += issuing * m->nunits - actions; /* each issuing cycle's units that issued nothing */
	r->status = m->status(m, sv);
	r->deadlock = r->status == MS_RUNNING && !r->limit;
	free(ready);
	free(unit_free);
	free(last);
	free(unit_changed);
	free(sm_changed);
	free(sm_woke);
	free(act);
	free(sorting);
	free(counted);
	free(per_unit);
	free(ev.t);
	r->seconds = clock_since(t0);
	return tn.changed + 2 * actions; /* unit_changed[u] + sm_changed[sm] is at most 2 * r->actions (REACH_OWN: 2) */
}

static uint64_t timed_run(const struct model *m, uint64_t run, uint64_t changed, uint64_t seed, uint64_t max_cycles,
                          const struct concrete_hook *hook, struct concrete_result *r)
{
	if (env_on("GPUMC_CHECK_READY"))
		return timed_run_as(m, run, changed, seed, max_cycles, hook, r, 1 + env_fault("ready"), 1);
	if (hook || !m->issue)
		return timed_run_as(m, run, changed, seed, max_cycles, hook, r, 0, 1);
	return timed_run_as(m, run, changed, seed, max_cycles, hook, r, 0, 0);
}

void concrete_run(const struct model *m, struct concrete_runs *past, uint64_t seed, uint64_t max_cycles,
                  const struct concrete_hook *hook, struct concrete_result *r)
{
	/* the counts' sums of one run are keys no other run's equal (model.h):
	** past every sum so far (from 1: UINT64_MAX + 1 is none) */
	uint64_t run = ++past->runs;
	past->keys = timed_run(m, run, past->keys + 1, seed, max_cycles, hook, r);
}

void concrete_result_free(struct concrete_result *r)
{
	free(r->counters);
	free(r->sv);
	memset(r, 0, sizeof *r);
}
