/*
** The multi-core search (parallel.h): a shared breadth-first layer.
**
** States are numbered by the shared visited set as they are found, so a
** BFS level is a range of numbers [lo, hi): the states found while the
** level before was expanded.  Each thread keeps a list of the states it
** found, and expands first those of its own list, CHUNK at a time (so
** that it mostly reads records and hash slots it wrote itself, which may
** still be in its core's cache), then takes chunks from the others' lists
** (work stealing: none idles while the level has work); the threads meet
** at a barrier when every list is used up, and the lists of the states
** found meanwhile become the next level's (4 bytes for each state of two
** levels, and 16 for each of the level and the next for the sequential
** order below, which --memory does not count).  States are expanded exactly as
** the sequential BFS expands them (explore.c), one level after another, so a
** complete run finds the same states, transitions, terminal states, crash
** images and depth at every thread count, and parent links lead back
** through earlier levels: traces are shortest paths and replay.
**
** Numbers: a thread takes state numbers RUN at once (visited.c, VS-3),
** so that what it writes per new state (record, hash, key) lies on lines
** the other threads do not write; at the level barrier the numbers its
** run left are given to the last states found (settle()), and the level
** is again the range [lo, hi).  A state's moves are made BATCH at a time,
** each successor's slot prefetched while the next is made, and then put.
**
** Rendezvous (meet): every thread stops at the level barrier, or at a
** safe point (before a put, after a new state) when another asked to
** grow the visited table or the parent links, which must not move while a
** thread uses them.  The last thread to stop does the growing (and, when
** all are at the barrier, judges and opens the next level) and wakes the
** others; the visited table's doubling, and at the barrier the ordering
** of the next level's states by finder and their parent links, it shares
** with them: they take parts in turn (share()).
**
** Everything that decides a verdict stays in explore.c (hooks): the judge
** of new terminal and faulted states (of every state when an invariant or
** race_free asks), crashes and deadlocks run at the level barrier in the
** sequential order (below); the limits under one lock.  A running state no
** property looks at (the common case) takes no lock.
** Partial-order reduction (hooks->ample set): a state of level L is
** expanded with its ample action alone when the action's successor is new
** or was found in level L too, i.e. lies in level L+1: the breadth-first
** form of the cycle proviso (PAR-4).  The sequential search asks for a new
** successor, which depends on the order inside a level; this asks what
** the levels before decide, so the reduced graph is the same at every
** thread count above one (and differs from the sequential one only where
** a level-L+1 successor was found first by another state of level L).
** Verdicts, terminal states and crash images are those of the full graph
** either way (explore.c).
**
** The sequential order (judging): the sequential search numbers the states
** of a level in the order it finds them, so that order is the one of their
** first finders: by (the finder's place in its own level, the action's
** index), lowest first.  This search keeps that key for each state of the
** next level (the least over the moves into it, whichever thread makes
** them), and at the level barrier sorts the next level by it: the level's
** rank is then the sequential search's order, and its parent links those
** of the sequential search (the parent with the least key).  The checks
** whose outcome depends on order (judging a new state: the first terminal
** state of `deterministic`, the outcome list; a crash image; a deadlock)
** are not made as the threads meet them but collected, each with its key,
** and made at the barrier in key order, stopping at the first violation:
** the sequential search's order of events.  So without reduction the
** violation reported and its trace are the sequential search's, at every
** thread count (PAR-5).
**
** What is not exact across thread counts: where a limit stops the search,
** --max-states (overshot by at most one state per thread); the events of a
** level cut short by a limit are judged in the order of the keys found so
** far.
**
** Invariants:
**   PAR-1 levels are expanded in order; no state of level L+1 is expanded
**         before every state of level L has been.
**   PAR-2 the visited table and the parent links grow, and the states
**         of the next level are renumbered, only while every thread is
**         stopped in meet() (renumbered at the level barrier alone: a
**         thread stopped at a safe point holds the number it just put).
**   PAR-3 a violation ends the search at the end of its level, not at
**         once: the states of the levels expanded, and of the next one,
**         are then the same at every thread count and in every run, and
**         so are the counts (which differ from the sequential search's,
**         which stops where the violation is).  A limit stops every
**         thread at once.
**   PAR-4 a reduced move goes from level L to level L+1: every cycle of
**         the reduced graph has a move to an earlier-or-equal level, made
**         by a state expanded in full, so no action is postponed forever.
**   PAR-5 after the barrier of level L, rank[k - lo] is state k's place in
**         the sequential search's order of level L+1 (order[] its
**         inverse), its parent link is the move with the least key, and
**         every check of level L's expansions has been made in key order;
**         key[k - hi] holds, during the expansion of level L, the least
**         key of the moves into state k of level L+1 found so far (the
**         first stored by its finder before k is published, VS-2, so
**         that no other thread sees it unset; the others lower it by
**         compare-and-swap).
*/
#include "config.h"
#include "explore/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explore/chain.h"
#include "state/hash.h"
#include "util/clock.h"
#include "util/strbuf.h"

#define CHUNK 16         /* states a thread takes from the level at once */
#define BATCH 8          /* moves made before their puts, their slots prefetched meanwhile */
#define RUN 64           /* state numbers a thread takes at once (visited.c, VS-3) */
#define MAX_THREADS 256
#define PARTS 8          /* parts per thread of the work shared at a rendezvous */
#define RANK_PART_BITS 8 /* judge_level()'s parts: of 2^8 finders at least */
#define LINE 64          /* a cache line: what one thread writes often sits alone */

/* A key (PAR-5): the finder's rank in its level << SLOT_BITS | the action's
** index + 1 (0: the check of the state's moves, made before its actions). */
#define SLOT_BITS 17
#define JUDGE (UINT64_C(1) << 63) /* in key[]: the state is to be judged */
#define NO_KEY (JUDGE - 1)

/* A check collected for the barrier: a crash (ai >= 0) or the moves (-1) of
** state idx, at key. */
struct event {
	uint64_t key;
	uint32_t idx;
	int32_t ai;
};

/* A state renumbered at the barrier (settle()). */
struct move {
	uint32_t from, to;
};

/* The next level being put in order (judge_level()): where each finder's
** states end in order[] (start), and their ranks (rank), of the level's
** states [lo, lo + n) found by ncur finders. */
struct ranking {
	uint32_t *start, *order, *rank;
	uint64_t lo, ncur;
};

/* Read-mostly fields first; the lock and the rendezvous, each written
** often by every thread, on lines of their own. */
struct par {
	const struct model *m;
	const struct explore_opts *o;
	struct explore_result *r;
	struct visited *vs;
	const struct par_hooks *h;
	struct worker *w; /* the threads' */
	unsigned nw; /* workers made (nthreads: started, fewer when one could not be) */
	unsigned nthreads, every; /* every: a thread's expansions between two checks of the limits */
	int judge_all;
	_Atomic int grow, halt, last, cut; /* halt: a limit; last: a violation */
	_Atomic int faults; /* a faulted state was found: expand() must look (set once, read per expansion) */
	/* set in meet() only (PAR-2), read freely between */
	int done;
	uint64_t lo, hi, room; /* the level's states [lo, hi); parent link room */
	uint32_t level;
	_Atomic uint64_t *key; /* PAR-5: of the next level's states, [0, nkey) */
	uint64_t nkey;
	uint32_t *rank, *order; /* PAR-5: of this level's */
	struct action *act;     /* the barrier's */
	struct move *mv;        /* settle()'s, at most RUN a thread */
	unsigned nmv;
	char pad0[LINE];
	pthread_mutex_t lock; /* the hooks, and r */
	char pad1[LINE];
	/* rendezvous */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	_Atomic uint64_t wakes; /* broadcasts on cv so far (await()) */
	unsigned stopped, waiting; /* threads in meet(); of those at the barrier */
	uint64_t gen, level_no;    /* rendezvous done; levels opened */
	/* work shared at a rendezvous (share()): jobs started, the threads
	** doing one, its parts, the next part to be taken */
	void (*job)(struct par *p, unsigned part);
	uint64_t jobs;
	unsigned busy, nparts;
	_Atomic unsigned part;
	struct ranking rk; /* judge_level()'s, for rank_part() */
	/* GPUMC_PAR_TIMES: CPU seconds of the work one thread does while the
	** others wait in meet() (serial), of the shared work (share()) done by
	** that thread (lead_help), and nanoseconds of the shared work by all
	** threads: the doubling's, the ordering's */
	int times;
	double serial, lead_help;
	_Atomic uint64_t shared_ns[2];
};

/* One per thread, each on lines of its own (xcalloc_aligned). */
struct worker {
	_Alignas(LINE) struct par *p;
	pthread_t tid;
	struct vs_local *vl;
	uint8_t *next; /* BATCH successors, made before they are put */
	uint64_t hh[BATCH]; /* their hashes */
	struct action *act;
	uint8_t *ctmp;         /* the ample hook's chain (chain.c): scratch */
	struct action *cact;
	struct hash_src hsrc; /* the state being expanded */
	uint64_t transitions, expanded, reduced; /* not yet added to r */
	uint32_t depth;
	uint64_t kbase; /* the key of the state being expanded, slot 0 */
	struct event *ev; /* this level's checks, for the barrier */
	uint64_t nev, capev;
	int cyclic; /* a move back to this level or an earlier one */
	unsigned since; /* expansions since the limits were checked */
	/* the states of this level it found (cur, to expand) and of the next
	** (nxt, written by it alone until the barrier swaps them) */
	uint32_t *cur, *nxt;
	uint64_t ncur, nnxt, capcur, capnxt;
	double waited; /* GPUMC_PAR_TIMES: wall seconds in meet(), less the work it did there */
	_Alignas(LINE) _Atomic uint64_t take; /* cur's next chunk: its own and thieves' */
};

unsigned par_threads(const struct explore_opts *o)
{
	long n = o->threads ? (long)o->threads : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

const char *par_refuse(const struct explore_opts *o, int por)
{
	/* not by default: a violation ends the multi-core search at the end
	** of its level (PAR-3), and the reduced counts differ from the sequential search's (PAR-4),
	** so the default's figures would depend on the number of cores; the
	** sequential proviso cannot be decided in parallel without expanding
	** every state of a level in full (gpumc(1), --threads) */
	if (por && !o->threads)
		return "partial-order reduction: --threads N reduces on N threads";
	if (o->search == SEARCH_DFS)
		return "depth-first search is sequential";
	if (o->compact)
		return "--compact keeps no shared states";
	if (o->check_model)
		return "--check-model";
	if (o->keep_going) /* litmus tests, the reference run of refines/equals */
		return "the outcome list keeps the sequential discovery order";
	return NULL;
}

/* {=== Rendezvous ========================================================= */

/* GPUMC_PAR_TIMES: this thread's CPU seconds (0 when not asked). */
static double cpu_now(const struct par *p)
{
	struct timespec t = { 0, 0 }, zero = { 0, 0 };
	if (p->times)
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return clock_between(zero, t);
}

/* The states found in the level ending become the ones to expand. */
static void next_level(struct par *p)
{
	for (unsigned t = 0; t < p->nw; t++) {
		struct worker *w = &p->w[t];
		uint32_t *l = w->cur;
		uint64_t cap = w->capcur;
		w->cur = w->nxt;
		w->capcur = w->capnxt;
		w->ncur = w->nnxt;
		w->nxt = l;
		w->capnxt = cap;
		w->nnxt = 0;
		atomic_store(&w->take, 0);
	}
}

/* The next level's key of state k (PAR-5), without its JUDGE bit. */
static uint64_t key_of(const struct par *p, uint64_t k)
{
	return atomic_load_explicit(&p->key[k - p->hi], memory_order_relaxed) & ~JUDGE;
}

static int key_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct event *)a)->key, y = ((const struct event *)b)->key;
	return (x > y) - (x < y);
}

/* Part i of the next level's ordering (judge_level()): the states of its
** range of finders put in order by action, their ranks and parent links
** set (distinct states for each part). */
static void rank_part(struct par *p, unsigned i)
{
	const struct ranking *g = &p->rk;
	const struct par_hooks *h = p->h;
	uint64_t r0 = g->ncur * i / p->nparts, r1 = g->ncur * (i + 1) / p->nparts;
	if (r0 == r1)
		return;
	uint64_t first = r0 ? g->start[r0 - 1] : 0;
	for (uint64_t r = r0, b = first; r < r1; b = g->start[r++])
		for (uint64_t j = b + 1; j < g->start[r]; j++) /* one finder's few, by action */
			for (uint64_t k = j; k > b && key_of(p, g->order[k - 1]) > key_of(p, g->order[k]); k--) {
				uint32_t t = g->order[k];
				g->order[k] = g->order[k - 1];
				g->order[k - 1] = t;
			}
	for (uint64_t j = first; j < g->start[r1 - 1]; j++) {
		uint64_t k = g->order[j], key = key_of(p, k);
		g->rank[k - g->lo] = (uint32_t)j;
		h->parent(h->ctx, (uint32_t)k, p->order[key >> SLOT_BITS],
		          (uint16_t)((key & ((UINT64_C(1) << SLOT_BITS) - 1)) - 1));
	}
}

/* A spin-wait's pause: the other hardware thread of the core runs. */
static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* With p->mu held: a change for the threads waiting in await(). */
static void wake(struct par *p)
{
	atomic_fetch_add_explicit(&p->wakes, 1, memory_order_relaxed);
	pthread_cond_broadcast(&p->cv);
}

/* With p->mu held: until the next wake() (or spuriously: callers look
** again), spinning a while first, as a level's work may take less than
** a millisecond and a wake-up from the futex took tens of microseconds
** on a virtual machine, twice a level; then for the lock, which the
** waker holds a moment longer.  wake() is called under p->mu, so one
** made after the last look is seen by pthread_cond_wait. */
static void await(struct par *p)
{
	enum { SPIN = 2000 };
	uint64_t seen = atomic_load_explicit(&p->wakes, memory_order_relaxed);
	pthread_mutex_unlock(&p->mu);
	unsigned i = 0;
	for (; i < SPIN && atomic_load_explicit(&p->wakes, memory_order_relaxed) == seen; i++)
		relax();
	for (; i < SPIN && pthread_mutex_trylock(&p->mu); i++)
		relax();
	if (i == SPIN)
		pthread_mutex_lock(&p->mu);
	if (atomic_load_explicit(&p->wakes, memory_order_relaxed) == seen)
		pthread_cond_wait(&p->cv, &p->mu);
}

/* Part i of the visited table's doubling (grow_table()). */
static void grow_part(struct par *p, unsigned i)
{
	vs_share_grow_part(p->vs, i);
}

/* Parts of the work shared at a rendezvous, taken in turn until none is left. */
static void help(struct par *p)
{
	double t0 = cpu_now(p);
	for (unsigned i; (i = atomic_fetch_add(&p->part, 1)) < p->nparts;)
		p->job(p, i);
	if (p->times)
		atomic_fetch_add(&p->shared_ns[p->job == rank_part], (uint64_t)((cpu_now(p) - t0) * 1e9));
}

/* With p->mu held by the last thread to stop: parts [0, nparts) of job
** done by every stopped thread, each taking parts in turn (meet()), the
** lock released meanwhile; returns when every part is done. */
static void share(struct par *p, void (*job)(struct par *p, unsigned part), unsigned nparts)
{
	p->job = job;
	p->nparts = nparts;
	atomic_store(&p->part, 0);
	p->jobs++;
	p->busy++;
	if (nparts > 1)
		wake(p);
	pthread_mutex_unlock(&p->mu);
	double t0 = cpu_now(p);
	help(p);
	p->lead_help += cpu_now(p) - t0;
	pthread_mutex_lock(&p->mu);
	p->busy--;
	while (p->busy)
		await(p);
}

/* The barrier, with the other threads stopped: the next level's states
** [hi, n) put in the sequential search's order by their keys (a counting
** sort by the finder's rank, then, by every stopped thread, by the action
** within one finder's), their parent links set, and the level's checks
** made in key order until one stops the search (PAR-5). */
static void judge_level(struct par *p, struct worker *w)
{
	const struct par_hooks *h = p->h;
	uint64_t lo = p->hi, n = vs_count(p->vs) - lo, ncur = p->hi - p->lo;
	uint32_t *start = xcalloc(ncur + 1, sizeof *start);
	uint32_t *order = xmalloc(sizeof *order * (n ? n : 1)), *rank = xmalloc(sizeof *rank * (n ? n : 1));
	for (uint64_t k = lo; k < lo + n; k++)
		start[(key_of(p, k) >> SLOT_BITS) + 1]++;
	for (uint64_t r = 0; r < ncur; r++)
		start[r + 1] += start[r];
	for (uint64_t k = lo; k < lo + n; k++)
		order[start[key_of(p, k) >> SLOT_BITS]++] = (uint32_t)k; /* start[r]: the end of r's */
	/* each finder's few in order by action, the ranks and the parent
	** links: by every stopped thread, for ranges of finders */
	p->rk = (struct ranking){ start, order, rank, lo, ncur };
	uint64_t parts = ncur >> RANK_PART_BITS;
	share(p, rank_part, parts < 1 ? 1 : parts < PARTS * p->nthreads ? (unsigned)parts : PARTS * p->nthreads);
	free(start);
	/* the checks: the threads' collected ones and the new states to be
	** judged, merged by key */
	uint64_t nev = 0;
	for (unsigned t = 0; t < p->nw; t++)
		nev += p->w[t].nev;
	struct event *ev = xmalloc(sizeof *ev * (nev ? nev : 1));
	nev = 0;
	for (unsigned t = 0; t < p->nw; t++) {
		if (p->w[t].nev) /* ev is NULL in a worker that collected none */
			memcpy(ev + nev, p->w[t].ev, sizeof *ev * p->w[t].nev);
		nev += p->w[t].nev;
		p->w[t].nev = 0;
	}
	qsort(ev, nev, sizeof *ev, key_cmp);
	pthread_mutex_lock(&p->lock);
	int stop = 0;
	for (uint64_t e = 0, i = 0; !stop;) {
		while (i < n && !(atomic_load_explicit(&p->key[order[i] - lo], memory_order_relaxed) & JUDGE))
			i++;
		if (e == nev && i == n)
			break;
		if (i == n || (e < nev && ev[e].key < key_of(p, order[i]))) {
			const uint8_t *sv = vs_local_state(p->vs, w->vl, ev[e].idx);
			if (ev[e].ai >= 0) {
				stop = h->crash(h->ctx, sv, ev[e].idx, (unsigned)ev[e].ai);
			} else {
				unsigned na = p->m->enabled(p->m, sv, p->act);
				stop = h->moves(h->ctx, sv, p->act, na, ev[e].idx);
			}
			e++;
		} else {
			stop = h->discovered(h->ctx, vs_local_state(p->vs, w->vl, order[i]), order[i]);
			i++;
		}
	}
	if (stop)
		atomic_store(p->r->verdict == V_FAIL && !p->r->limit ? &p->last : &p->halt, 1);
	pthread_mutex_unlock(&p->lock);
	free(ev);
	for (uint64_t i = 0; i < n; i++)
		atomic_store_explicit(&p->key[i], NO_KEY, memory_order_relaxed);
	free(p->rank);
	free(p->order);
	p->rank = rank;
	p->order = order;
}

/* At the barrier: state from of the next level renumbered to (visited.c,
** VS-3): its key moves, and the move is kept for its finder's list. */
static void moved(void *ctx, uint32_t from, uint32_t to)
{
	struct par *p = ctx;
	uint64_t key = atomic_load_explicit(&p->key[from - p->hi], memory_order_relaxed);
	atomic_store_explicit(&p->key[to - p->hi], key, memory_order_relaxed);
	atomic_store_explicit(&p->key[from - p->hi], NO_KEY, memory_order_relaxed);
	p->mv[p->nmv++] = (struct move){ from, to };
}

/* The next level's states numbered [hi, vs_count) again: the numbers
** the threads' runs left given to the last states found, in the lists
** too (a list rises, so the states moved, those above the count, are
** its last ones). */
static void settle(struct par *p)
{
	p->nmv = 0;
	vs_share_settle(p->vs, moved, p);
	uint64_t n = vs_count(p->vs);
	for (unsigned t = 0; t < p->nw; t++) {
		struct worker *w = &p->w[t];
		for (uint64_t i = w->nnxt; i-- > 0 && w->nxt[i] >= n;)
			for (unsigned j = 0; j < p->nmv; j++)
				if (p->mv[j].from == w->nxt[i]) {
					w->nxt[i] = p->mv[j].to;
					break;
				}
	}
}

/* Room in key[] for every state found in the next level, and more. */
static void key_room(struct par *p)
{
	uint64_t need = vs_share_bound(p->vs) - p->hi + 1;
	if (need <= p->nkey)
		return;
	uint64_t nk = p->nkey * 2 > need ? p->nkey * 2 : need < 1024 ? 1024 : need;
	p->key = xrealloc(p->key, sizeof *p->key * nk);
	for (uint64_t i = p->nkey; i < nk; i++)
		atomic_init(&p->key[i], NO_KEY);
	p->nkey = nk;
}

/* With p->mu held by the last thread to stop: the visited table doubled
** by every stopped thread (PAR-2). */
static void grow_table(struct par *p)
{
	unsigned n;
	while ((n = vs_share_grow_begin(p->vs, PARTS * p->nthreads)))
		share(p, grow_part, n);
}

/* The last thread to stop (w): grow what must grow (PAR-2); at the
** barrier, judge the level and open the next one (PAR-1, PAR-5). */
static void all_stopped(struct par *p, struct worker *w)
{
	double t0 = cpu_now(p), lead0 = p->lead_help;
	if (p->waiting == p->nthreads)
		settle(p);
	grow_table(p);
	if (p->room <= vs_share_bound(p->vs))
		p->room = p->h->reserve(p->h->ctx, vs_share_bound(p->vs) + 1);
	key_room(p);
	atomic_store(&p->grow, 0);
	if (p->waiting == p->nthreads) {
		judge_level(p, w);
		p->lo = p->hi;
		p->hi = vs_count(p->vs);
		p->level++;
		next_level(p);
		p->done = p->lo == p->hi || atomic_load(&p->halt) || atomic_load(&p->last);
		p->waiting = 0;
		p->level_no++;
	}
	p->stopped = p->waiting; /* those at the barrier stay */
	p->gen++;
	p->serial += cpu_now(p) - t0 - (p->lead_help - lead0);
	wake(p);
}

/* Stop until the others have: at the level barrier (returns when the next
** level opens) or at a safe point (returns after the growing). */
static void meet(struct worker *w, int barrier)
{
	struct par *p = w->p;
	struct timespec t0, t1, t2;
	if (p->times)
		clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_mutex_lock(&p->mu);
	uint64_t gen = p->gen, level = p->level_no;
	p->stopped++;
	p->waiting += (unsigned)barrier;
	t1 = t2 = t0;
	if (p->stopped == p->nthreads) {
		if (p->times)
			clock_gettime(CLOCK_MONOTONIC, &t1);
		all_stopped(p, w);
		if (p->times)
			clock_gettime(CLOCK_MONOTONIC, &t2);
	}
	uint64_t jobs = p->jobs;
	double helped = 0; /* GPUMC_PAR_TIMES: wall seconds in help() */
	while (barrier ? p->level_no == level : p->gen == gen) {
		if (p->jobs != jobs) { /* work to help with */
			jobs = p->jobs;
			p->busy++;
			pthread_mutex_unlock(&p->mu);
			struct timespec h0;
			if (p->times)
				clock_gettime(CLOCK_MONOTONIC, &h0);
			help(p);
			if (p->times)
				helped += clock_since(h0);
			pthread_mutex_lock(&p->mu);
			if (!--p->busy)
				wake(p);
			continue;
		}
		await(p);
	}
	pthread_mutex_unlock(&p->mu);
	if (p->times)
		w->waited += clock_since(t0) - clock_between(t1, t2) - helped;
}

/* A safe point: ask for the growing and wait for it. */
static void grow(struct worker *w)
{
	atomic_store(&w->p->grow, 1);
	meet(w, 0);
}

/* }=== */

/* {=== Expansion ========================================================== */

/* With the hooks' lock: the worker's counts go to r, so the progress line
** and the limits see them. */
static void fold(struct worker *w)
{
	struct par *p = w->p;
	p->r->transitions += w->transitions;
	p->r->expanded += w->expanded;
	p->r->reduced += w->reduced;
	if (w->depth > p->r->depth)
		p->r->depth = w->depth;
	w->transitions = w->expanded = w->reduced = 0;
}

static void lock(struct worker *w)
{
	pthread_mutex_lock(&w->p->lock);
	fold(w);
}

/* stop: the hook said the search must stop.  A limit halts every thread
** at once; a violation ends the search after this level (PAR-3). */
static void unlock(struct worker *w, int stop)
{
	struct par *p = w->p;
	if (stop)
		atomic_store(p->r->verdict == V_FAIL && !p->r->limit ? &p->last : &p->halt, 1);
	pthread_mutex_unlock(&p->lock);
}

static int halted(const struct par *p)
{
	return atomic_load_explicit(&p->halt, memory_order_relaxed);
}

/* State k goes to the next level, in its finder's list. */
static void push(struct worker *w, uint32_t k)
{
	if (w->nnxt == w->capnxt) {
		w->capnxt = w->capnxt ? 2 * w->capnxt : 1024;
		w->nxt = xrealloc(w->nxt, sizeof *w->nxt * w->capnxt);
	}
	w->nxt[w->nnxt++] = k;
}

/* A new state k of the next level, of status st, its number published. */
static void found(struct worker *w, uint32_t k, enum model_status st)
{
	struct par *p = w->p;
	const struct par_hooks *h = p->h;
	push(w, k);
	if (vs_share_full(p->vs) || k >= p->room || k - p->hi >= p->nkey)
		grow(w);
	if (p->level + 1 > w->depth)
		w->depth = p->level + 1;
	if (st == MS_FAULT && !atomic_load_explicit(&p->faults, memory_order_relaxed))
		atomic_store_explicit(&p->faults, 1, memory_order_relaxed);
	if (p->o->max_states && (uint64_t)k + 1 >= p->o->max_states) {
		lock(w);
		unlock(w, h->limits(h->ctx));
	}
}

/* Put next, reached by action ai of the state being expanded (hash hh):
** its number; *is_new says whether it was found here.  A move into the
** next level lowers the key of the state it reaches (PAR-5).  Inline,
** as the sequential search's put is (a call a move: -1.2% of the
** instructions of D2 at 8 warps, 2 threads). */
static inline __attribute__((always_inline)) uint32_t put(struct worker *w, const uint8_t *next, uint64_t hh,
                                                          unsigned ai, int *is_new)
{
	struct par *p = w->p;
	if (atomic_load_explicit(&p->grow, memory_order_relaxed))
		meet(w, 0);
	uint32_t k2 = vs_share_put(p->vs, w->vl, next, hh, is_new);
	uint64_t key = w->kbase | (ai + 1);
	if (*is_new) {
		enum model_status st = p->m->status(p->m, next);
		/* judged at the barrier, in order (PAR-5) */
		uint64_t judge = p->judge_all || st != MS_RUNNING ? JUDGE : 0;
		/* the first key, with a plain store while no other thread can
		** see the state (VS-2; a locked compare-and-swap on a line the
		** other threads write too cost 5% of the run): the usual case */
		int room = k2 - p->hi < p->nkey;
		if (room)
			atomic_store_explicit(&p->key[k2 - p->hi], key | judge, memory_order_relaxed);
		vs_share_publish(p->vs, w->vl);
		found(w, k2, st);
		if (room)
			return k2;
		/* found() made room: others may have lowered the key since */
		atomic_fetch_or_explicit(&p->key[k2 - p->hi], judge, memory_order_relaxed);
	}
	if (k2 < p->hi)
		return k2;
	if (k2 - p->hi >= p->nkey) /* found by a thread yet to make room */
		grow(w);
	_Atomic uint64_t *s = &p->key[k2 - p->hi];
	uint64_t old = atomic_load_explicit(s, memory_order_relaxed);
	while ((old & ~JUDGE) > key &&
	       !atomic_compare_exchange_weak_explicit(s, &old, (old & JUDGE) | key, memory_order_relaxed,
	                                              memory_order_relaxed))
		;
	return k2;
}

/* A check of the state being expanded (k), for the barrier: its crash
** action ai, or its moves (ai -1). */
static void defer(struct worker *w, uint32_t k, int ai)
{
	if (w->nev == w->capev) {
		w->capev = w->capev ? 2 * w->capev : 64;
		w->ev = xrealloc(w->ev, sizeof *w->ev * w->capev);
	}
	w->ev[w->nev++] = (struct event){ w->kbase | (uint64_t)(ai + 1), k, ai };
}

/* Partial-order reduction: state k, with its na > 1 actions in w->act and
** its hashes in w->hsrc, expanded with its ample action alone when
** that action's successor lies in the next level (PAR-4); 0: expand it in
** full.  Its crashes are judged as in a full expansion, after the move. */
static int reduce(struct worker *w, const uint8_t *src, uint32_t k, unsigned na)
{
	struct par *p = w->p;
	int a = p->h->ample(p->h->ctx, src, w->act, na, w->next);
	if (a < 0)
		return 0;
	unsigned more = chain_follow(p->h->chain, w->next, w->ctmp, w->cact, NULL);
	w->transitions += 1 + more;
	int is_new;
	uint32_t k2 = put(w, w->next, state_hash_step(&w->hsrc, w->next, p->m->sv_size),
	                  (unsigned)a | (more ? CHAIN_BIT : 0), &is_new);
	if (!is_new && k2 < p->hi)
		return 0;
	w->reduced++;
	for (unsigned i = 0; i < na; i++)
		if (w->act[i].kind == ACT_CRASH)
			defer(w, k, (int)i);
	return 1;
}

/* Expand state k of the current level, as explore.c's bfs() does. */
static void expand(struct worker *w, uint32_t k)
{
	struct par *p = w->p;
	const struct model *m = p->m;
	const struct par_hooks *h = p->h;
	size_t n = m->sv_size;
	/* the limits as often as the sequential search reads the clock and
	** the bytes held, counting every thread's expansions: the lock and
	** the run's counts are then touched once in many expansions, not in
	** each (--max-states is checked on every new state, in found()) */
	if (++w->since >= p->every && !pthread_mutex_trylock(&p->lock)) {
		/* not while another thread checks them: it just did, and
		** waiting for the lock put this one to sleep (a futex wait and
		** a wake-up: ~1,400 of them, ~8% of the wall time, on D2 at 10
		** warps, 2 threads); it tries again at its next expansion */
		fold(w);
		w->since = 0;
		unlock(w, h->limits(h->ctx));
		if (halted(p))
			return;
	}
	const uint8_t *src = vs_local_state(p->vs, w->vl, k);
	/* as the sequential search: no fault found, none to skip (the flag
	** was set before the barrier that opened this level) */
	if (atomic_load_explicit(&p->faults, memory_order_relaxed) && m->status(m, src) == MS_FAULT)
		return;
	w->kbase = (uint64_t)p->rank[k - p->lo] << SLOT_BITS;
	unsigned na = m->enabled(m, src, w->act), moves = 0;
	for (unsigned i = 0; i < na && !moves; i++)
		moves = w->act[i].kind != ACT_CRASH;
	if (!moves)
		defer(w, k, -1); /* the deadlock check */
	if (p->o->max_depth && p->level >= p->o->max_depth) {
		if (na)
			atomic_store(&p->cut, 1);
		return;
	}
	if (!na)
		return;
	w->expanded++;
	hash_src_set(&w->hsrc, src, vs_hash(p->vs, k, src), n);
	if (h->ample && na > 1 && reduce(w, src, k, na))
		return;
	/* the moves BATCH at a time: each successor made and its slot
	** prefetched, then each put, in the order of the actions, its slot
	** then (mostly) loaded: the miss that most of a put waited for */
	unsigned more[BATCH];
	for (unsigned i = 0, made = 0; i < na && !halted(p); i = made) {
		unsigned b = 0;
		for (; made < na && b < BATCH; made++) {
			if (w->act[made].kind == ACT_CRASH)
				continue;
			uint8_t *next = w->next + b * n;
			memcpy(next, src, n);
			m->apply(m, next, &w->act[made]);
			more[b] = h->chain && chain_after(h->chain, src, &w->act[made])
			                  ? chain_follow(h->chain, next, w->ctmp, w->cact, NULL)
			                  : 0;
			w->hh[b] = state_hash_step(&w->hsrc, next, n);
			/* and the slot before, loaded by now: its record */
			vs_share_prefetch(p->vs, w->hh[b], b ? &w->hh[b - 1] : NULL);
			b++;
		}
		for (b = 0; i < made && !halted(p); i++) {
			if (w->act[i].kind == ACT_CRASH) {
				defer(w, k, (int)i);
				continue;
			}
			w->transitions += 1 + more[b];
			int is_new;
			uint32_t k2 = put(w, w->next + b * n, w->hh[b], i | (more[b] ? CHAIN_BIT : 0), &is_new);
			w->cyclic |= !is_new && k2 < p->hi;
			b++;
		}
	}
}

/* Expand the next chunk of `from`'s list; 0: it had none left. */
static int chunk(struct worker *w, struct worker *from)
{
	uint64_t i = atomic_fetch_add_explicit(&from->take, CHUNK, memory_order_relaxed);
	if (i >= from->ncur)
		return 0;
	uint64_t end = i + CHUNK < from->ncur ? i + CHUNK : from->ncur;
	for (; i < end && !halted(w->p); i++) {
		/* the next one's record, half of them another core's, on its
		** way during this expansion */
		if (i + 1 < end)
			vs_share_prefetch_state(w->p->vs, from->cur[i + 1]);
		expand(w, from->cur[i]);
	}
	return 1;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct par *p = w->p;
	unsigned self = (unsigned)(w - p->w);
	while (!p->done) {
		/* its own list, then each other's in turn (nw, not nthreads,
		** which a failed start lowers under the rendezvous lock: a
		** worker never started has an empty list) */
		for (unsigned t = 0; t < p->nw && !halted(p);)
			if (!chunk(w, &p->w[(self + t) % p->nw]))
				t++;
		meet(w, 1);
	}
	return NULL;
}

/* }=== */

/* GPUMC_PAR_TIMES: on stderr, the search's wall and CPU seconds, the
** serial work's CPU seconds, the shared work's, each thread's wall
** seconds waiting in meet() (bench/threads.sh reads them). */
static void report_times(const struct par *p, struct timespec wall0, struct timespec cpu0)
{
	struct timespec cpu1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
	fprintf(stderr,
	        "gpumc: par-times: search %.4f s wall %.4f s cpu; serial %.4f s cpu; "
	        "shared %.4f s cpu doubling %.4f s cpu ordering; waited",
	        clock_since(wall0), clock_between(cpu0, cpu1), p->serial, (double)p->shared_ns[0] * 1e-9,
	        (double)p->shared_ns[1] * 1e-9);
	for (unsigned t = 0; t < p->nw; t++)
		fprintf(stderr, " %.4f", p->w[t].waited);
	fprintf(stderr, " s wall\n");
}

unsigned par_bfs(const struct model *m, const struct explore_opts *o, struct explore_result *r, struct visited *vs,
             unsigned nthreads, int judge_all, const struct par_hooks *h, int *cut, int *cyclic)
{
	struct par p = { .m = m, .o = o, .r = r, .vs = vs, .h = h, .nthreads = nthreads, .judge_all = judge_all,
		         .every = h->every / nthreads ? h->every / nthreads : 1 };
	const char *times = getenv("GPUMC_PAR_TIMES");
	p.times = times && *times && strcmp(times, "0");
	struct timespec wall0, cpu0;
	clock_gettime(CLOCK_MONOTONIC, &wall0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
	pthread_mutex_init(&p.lock, NULL);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	struct worker *w = xcalloc_aligned(LINE, sizeof *w * nthreads);
	p.w = w;
	p.nw = nthreads;
	/* --max-states counts states by their numbers (found()) */
	vs_share(vs, o->max_states ? 1 : RUN);
	for (unsigned t = 0; t < nthreads; t++) {
		w[t].p = &p;
		w[t].vl = vs_local_new(vs);
		/* each on lines of its own: the threads' scratch, written on
		** every move, side by side in one heap was false sharing
		** (known[] and the next thread's vector) */
		w[t].next = xcalloc_aligned(LINE, m->sv_size * BATCH);
		w[t].act = xcalloc_aligned(LINE, sizeof *w[t].act * (m->max_actions + 1));
		w[t].ctmp = xcalloc_aligned(LINE, m->sv_size);
		w[t].cact = xcalloc_aligned(LINE, sizeof *w[t].cact * (m->max_actions + 1));
		w[t].hsrc.bh = xcalloc_aligned(LINE, hash_nblocks(m->sv_size) * sizeof *w[t].hsrc.bh);
		w[t].hsrc.known = xcalloc_aligned(LINE, hash_nblocks(m->sv_size));
		w[t].since = p.every - 1; /* the limits before the first expansion */
	}
	/* level 0: the initial state */
	m->init(m, w[0].next);
	int is_new;
	uint32_t k = vs_share_put(vs, w[0].vl, w[0].next, state_hash(w[0].next, m->sv_size), &is_new);
	vs_share_publish(vs, w[0].vl);
	p.mv = xmalloc(sizeof *p.mv * RUN * nthreads);
	settle(&p); /* none to move: the state is 0 */
	p.room = h->reserve(h->ctx, 1);
	h->parent(h->ctx, k, UINT32_MAX, 0);
	p.hi = 1;
	p.rank = xcalloc(1, sizeof *p.rank);
	p.order = xmalloc(sizeof *p.order);
	p.order[0] = k;
	p.act = xmalloc(sizeof *p.act * (m->max_actions + 1));
	key_room(&p);
	push(&w[0], k);
	next_level(&p);
	p.faults = m->status(m, w[0].next) == MS_FAULT;
	p.done = h->discovered(h->ctx, w[0].next, k);
	unsigned started = 1;
	for (; started < nthreads; started++)
		if (pthread_create(&w[started].tid, NULL, work, &w[started])) {
			/* go on with the threads there are: those running may
			** already wait for the missing ones */
			pthread_mutex_lock(&p.mu);
			p.nthreads = started;
			if (p.stopped == p.nthreads)
				all_stopped(&p, &w[0]);
			pthread_mutex_unlock(&p.mu);
			fprintf(stderr, "gpumc: could not start thread %u of %u; going on with %u\n", started + 1, nthreads,
			        started);
			break;
		}
	work(&w[0]);
	if (p.times)
		report_times(&p, wall0, cpu0);
	*cyclic = 0;
	for (unsigned t = 0; t < nthreads; t++) {
		if (t && t < started)
			pthread_join(w[t].tid, NULL);
		*cyclic |= w[t].cyclic;
		lock(&w[t]);
		unlock(&w[t], 0);
		vs_local_free(vs, w[t].vl);
		free(w[t].next);
		free(w[t].act);
		free(w[t].ctmp);
		free(w[t].cact);
		free(w[t].hsrc.bh);
		free(w[t].hsrc.known);
		free(w[t].cur);
		free(w[t].nxt);
		free(w[t].ev);
	}
	free(p.key);
	free(p.mv);
	free(p.rank);
	free(p.order);
	free(p.act);
	vs_share(vs, 0);
	*cut = atomic_load(&p.cut);
	free(w);
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
	pthread_mutex_destroy(&p.lock);
	return started;
}
