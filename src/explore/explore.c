/*
** Exhaustive exploration.  One driver, two orders:
**
**   BFS  states are numbered in discovery order, which is also queue order,
**        so the queue is a cursor over the numbers (exact mode reads the
**        vectors back from the visited set; compact mode keeps them in
**        per-level tree stores, struct frontier).  Each state records its
**        parent and the action index that reached it, so traces are
**        shortest paths (unless --no-trace).
**   DFS  a stack of frames, each with its vector and its enabled actions;
**        the trace of the current state is the stack itself, so DFS needs
**        no per-state bookkeeping beyond the visited set.
**
** What is checked where (the judge, judge.h, decides what each property
** says; the explorer decides when to ask):
**   on discovery (every new state): judge_state;
**   on expansion: judge_moves (deadlock), and for each crash action the
**     durable image is projected, deduplicated and judged once (judge_crash).
**
** Partial-order reduction (on unless --por=off, and only for models with
** a `local` hook): a state may be expanded with one enabled action alone,
** an ample set of one, when the model says the action is local (model.h:
** independent of everything else that can happen first, invisible to the
** properties, to status and to the durable image) and two provisos hold:
**   - the step does not end in a fault (a faulting step is not invisible:
**     the fault would stop the search before other paths are judged);
**   - cycle proviso: BFS: its successor is numbered after the state (new,
**     or discovered later and still waiting in the queue).  Numbers cannot
**     grow all along a cycle, so along a cycle of the reduced graph some
**     step goes to a state numbered at most its own, and that step's state
**     was expanded in full: no action is postponed forever.  DFS: its
**     successor is not on the stack (SPIN's proviso): a cycle of the
**     reduced graph closes with a step back onto the stack, whose state
**     is then expanded in full.  (Asking for a new successor, as both did
**     before, expanded in full every state whose local step met a state
**     another interleaving had reached: lane-reduction 4x1x2 kept 1.02 M
**     of its 1.60 M states, now 77 K (21 K, SPIN's count, with exits local:
**     warp.c).  The multi-core search asks for a
**     successor in the next level, which does not depend on the order
**     inside a level: parallel.c, PAR-4.)
** Every maximal path of the machine then has a reduced counterpart that
** reaches the same terminal state or deadlock, the same faults, the same
** invariant verdicts and the same crash images (crashes are judged in
** reduced states too, so a bad image is found as early as without the
** reduction; a local step leaves the durable image as it was).  The action keeps its index
** in the full enabled list, so traces and replay are unchanged.
** race_free is judged in every state (two READY warps each about to
** access one word, one a plain store) and keeps its verdict: a local step
** of w leaves every other warp as it was, and w, at a non-access or a
** non-volatile load of a variable no instruction writes (words are per
** symbol, so no store reaches it), is in no race before it; so a racy
** state s stays racy after w's local step, and the usual argument (move
** the ample step to the front of a path to s, or append it when the path
** lacks it) reaches a racy state in the reduced graph.  comm_race_free
** reads records a machine keeps about accesses (lab.c), which no
** declaration covers: POR is off for a spec that checks it, and the report
** says so (today no component of machine lab declares anything anyway).
** Chains (chain.c): the successor of a local step, ample or of a full
** expansion (CH-5), is first followed along the ample steps of its states
** (at most CHAIN_MAX in all), and only the chain's end is stored and
** judged; the proviso above is asked of that end.  A move's index then
** carries CHAIN_BIT (parent links, recorded rows, DFS frames), and the
** traces are unfolded into every action before the result is returned
** (chain_unfold): replay and the two-trace report see plain indices.
** --por=nochain stores every state the reduction reaches.
** Steps that are not warp-local may be taken alone the same way where the
** model says so (model.h, alone: on baseline a ROP performing a
** commutative red, a warp alone on its SM issuing an atomic; rop.c).
** Such a step may write a location that only terminal states are judged
** on (deterministic, exists, forall): an ample set needs visibility only
** for what running states are judged on, and the persistent set with the
** cycle proviso keeps every terminal state and deadlock (observed(): the
** invariants' locations first, passed as inv).
** With --por=off (or a model without the hook) every interleaving is
** explored, so state counts are exactly those of the machine.
*/
#include "config.h"
#include "explore/explore.h"
#include "explore/contract.h"
#include "explore/chain.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "explore/judge.h"
#include "explore/mpi.h"
#include "explore/parallel.h"
#include "explore/progress.h"
#include "state/hash.h"
#include "state/sideset.h"
#include "state/tree.h"
#include "state/visited.h"
#include "util/clock.h"
#include "util/interrupt.h"
#include "util/strbuf.h"

#define NO_PARENT UINT32_MAX

struct ctx {
	const struct model *m;
	struct property *props;
	unsigned nprops;
	const struct explore_opts *o;
	struct explore_result *r;
	struct visited *vs;
	size_t svn;
	/* BFS bookkeeping */
	uint32_t *parent;
	uint16_t *pact;
	int links; /* BFS keeps parent links (not with --no-trace, explore) */
	size_t pcap;
	/* DFS stack */
	uint8_t *dsv;
	struct action *dact;
	/* full: reduced frame's enabled count; idx: its state; chained: its
	** last move was a chain (chain.c: the trace marks it) */
	struct frame { uint32_t nact, next, full, idx, chained; } *frames;
	uint8_t *onstack; /* per state: 1 while it has a frame (the progress check's cycle test) */
	size_t oncap;
	uint16_t *dord; /* per frame: the order of its actions (indices into the frame's list) */
	uint64_t rng;   /* --swarm: randomized order (0: the natural order) */
	size_t fcap;
	uint32_t sp;
	/* properties */
	struct judge *jd;
	int has_det;              /* a deterministic property: keep first_final */
	struct trace first_final; /* the path to the first terminal state */
	struct sideset *outcomes, *images;
	int outcome_prop; /* first exists/~exists/forall, -1 none */
	uint32_t *obuf;
	uint8_t *img;
	int stop;
	int cut; /* a state was not expanded because of --max-depth */
	struct timespec t0;
	double before; /* seconds between opts.start and t0: spent on --time */
	double next_rss; /* when to read the resident size again (rss_hit) */
	int statm;       /* /proc/self/statm under --memory, else -1 */
	size_t page;
	double next_progress;
	uint64_t expansions;
	uint64_t queue; /* for progress lines: BFS states waiting, DFS stack depth */
	enum search_kind search;
	size_t frontier_bytes;     /* compact BFS: the states queued */
	struct frontier *frontier; /* those, freed by explore_release */
	/* block hashes (state/hash.h): BFS, of the state being expanded
	** (from the hash the visited set memoizes, vs_hash); DFS, of every
	** frame */
	size_t nb;
	struct hash_src hsrc;
	int hashed; /* the visited set reads hashes (not --tree's: vs_takes_hash) */
	uint64_t *frame_bh;
	int warned; /* BFS near a limit: said so once */
	unsigned long rec_steps; /* steps of the recovery of this crash image */
	/* partial-order reduction: on, and the locations properties observe */
	int por;
	int *obs;
	unsigned nobs, ninv; /* obs[0..ninv): observed in running states */
	struct chain ch;          /* chains of local steps (chain.c) */
	uint8_t *ctmp;            /* their scratch vector and action list */
	struct action *cact;
	/* the graph searched may have a cycle (only then is the progress check
	** run): BFS saw a move that does not go one level deeper, DFS a move
	** back to a state on the stack */
	int cyclic;
	/* a faulted state was discovered (judge_state read every new state's
	** status): until then no expansion asks the model for it again */
	int faults;
	/* the clock and --memory are read every `every` expansions (limits_hit) */
	unsigned every, until;
	int grow_far; /* GH-1: growth_hit has nothing to check (limits_due) */
	/* BFS with the progress check to come: the moves, recorded as they are
	** made (rows in expansion order, which is state order) from the first
	** expansion after the first move that makes the graph cyclic on (an
	** acyclic graph needs no check; the check re-expands the states
	** before g.from) */
	int record;
	struct progress_graph g;
	size_t grows, gcap;
	/* --mpi: on; the rank holding the state a hook is about; where the
	** trace and the first terminal state's path start (current_path
	** records them, mpi_finish follows the links) */
	int mpi, at_rank;
	struct mpi_at at_trace, at_first;
	struct mpi_run *mp;
};

static double elapsed(const struct ctx *c)
{
	return clock_since(c->t0);
}

static size_t mem_bytes(const struct ctx *c)
{
	/* DFS: the frames written so far (the deepest is depth + 1); the
	** doubled capacity above them is untouched address space, which
	** counted would stop a search of large vectors at its first state */
	size_t frames = c->fcap < (size_t)c->r->depth + 2 ? c->fcap : (size_t)c->r->depth + 2;
	return vs_bytes(c->vs) + c->frontier_bytes + c->pcap * (sizeof(uint32_t) + sizeof(uint16_t)) +
	       c->grows * sizeof *c->g.row + c->gcap * (sizeof *c->g.dst + sizeof *c->g.via) +
	       2 * c->g.nended * sizeof *c->g.ended + c->oncap +
	       frames * (c->svn + sizeof(struct frame) + c->nb * sizeof(uint64_t) +
	                 (c->m->max_actions + 1) * (sizeof(struct action) + sizeof(uint16_t)));
}

/* The hash of next, a successor of the state in c->hsrc, for the visited set. */
static uint64_t succ_hash(struct ctx *c, const uint8_t *next)
{
	return c->hashed ? state_hash_step(&c->hsrc, next, c->svn) : 0;
}

/* {=== Traces ============================================================= */

static void trace_set(struct trace *t, const uint16_t *steps, uint32_t n)
{
	free(t->step);
	t->len = n;
	t->step = xmalloc(sizeof *t->step * (n ? n : 1));
	if (n)
		memcpy(t->step, steps, sizeof *steps * n);
}

/* The path to the state being examined: `idx` (BFS) or the stack (DFS),
** plus one more action when extra >= 0. */
static void current_path(struct ctx *c, uint32_t idx, int extra, struct trace *t)
{
	uint32_t n = 0;
	uint16_t *buf;
	if (c->mpi) { /* the parent links are spread over the ranks */
		*(t == &c->first_final ? &c->at_first : &c->at_trace) = (struct mpi_at){ 1, c->at_rank, idx, extra };
		trace_set(t, NULL, 0);
		return;
	}
	if (c->search == SEARCH_DFS) {
		buf = xmalloc(sizeof *buf * (c->sp + 2));
		for (uint32_t i = 0; i + 1 < c->sp; i++)
			buf[n++] = (uint16_t)(c->dord[(size_t)i * (c->m->max_actions + 1) + c->frames[i].next - 1] |
			                      (c->frames[i].chained ? CHAIN_BIT : 0));
	} else if (!c->links) { /* --no-trace: the report says how to get it */
		trace_set(t, NULL, 0);
		return;
	} else {
		for (uint32_t k = idx; c->parent[k] != NO_PARENT; k = c->parent[k])
			n++;
		buf = xmalloc(sizeof *buf * (n + 2));
		uint32_t i = n;
		for (uint32_t k = idx; c->parent[k] != NO_PARENT; k = c->parent[k])
			buf[--i] = c->pact[k];
	}
	if (extra >= 0)
		buf[n++] = (uint16_t)extra;
	trace_set(t, buf, n);
	free(buf);
}

/* }=== */

/* A determinism violation: the other schedule, the first to finish, and
** the first step where the two differ. */
static void diverge(struct explore_result *r)
{
	const struct trace *a = &r->trace2, *b = &r->trace;
	uint32_t i = 0;
	while (i < a->len && i < b->len && a->step[i] == b->step[i])
		i++;
	r->diverge = i;
}

static void other_schedule(struct explore_result *r, const struct trace *a)
{
	trace_set(&r->trace2, a->step, a->len);
	diverge(r);
}

/* The verdict fails with v (callers see to it that v is the first). */
static void fail(struct explore_result *r, const struct judgement *v)
{
	r->verdict = V_FAIL;
	r->failed = v->prop;
	r->failed_kind = v->kind;
	r->why = xstrdup(v->why);
}

/* A violation found at state idx, or at its action `extra` (>= 0). */
static void violation(struct ctx *c, const struct judgement *v, uint32_t idx, int extra)
{
	struct explore_result *r = c->r;
	if (r->verdict == V_FAIL)
		return;
	fail(r, v);
	current_path(c, idx, extra, &r->trace);
	if (v->kind == P_DETERMINISTIC)
		other_schedule(r, &c->first_final);
	if (!c->o->keep_going)
		c->stop = 1;
}

/* A terminal state, once judged: count it and its outcome (not inlined:
** discovered(), on every state, stays small). */
static __attribute__((noinline)) void terminal(struct ctx *c, const uint8_t *sv, uint32_t idx)
{
	const struct model *m = c->m;
	struct explore_result *r = c->r;
	if (r->terminals++ == 0 && c->has_det)
		current_path(c, idx, -1, &c->first_final);
	if (!r->nolocs)
		return;
	for (unsigned i = 0; i < r->nolocs; i++)
		c->obuf[i] = m->read(m, sv, r->olocs[i]);
	int is_new;
	uintptr_t *slot = ss_put(c->outcomes, c->obuf, sizeof(uint32_t) * r->nolocs, &is_new);
	if (is_new) {
		*slot = r->noutcomes;
		r->outcomes = xrealloc(r->outcomes, sizeof *r->outcomes * (r->noutcomes + 1));
		struct outcome *oc = &r->outcomes[r->noutcomes++];
		oc->vals = xmalloc(sizeof(uint32_t) * r->nolocs);
		memcpy(oc->vals, c->obuf, sizeof(uint32_t) * r->nolocs);
		oc->count = 0;
		oc->sat = c->outcome_prop >= 0 && c->props[c->outcome_prop].cond &&
		          expr_eval(c->props[c->outcome_prop].cond, m, sv);
	}
	r->outcomes[*slot].count++;
}

/* BFS, recording: state idx is terminal or faulted (progress_graph.ended). */
static __attribute__((noinline)) void ended(struct ctx *c, uint32_t idx)
{
	if ((c->g.nended & (c->g.nended - 1)) == 0) /* 0, 1, 2, 4, ...: full */
		c->g.ended = xrealloc(c->g.ended, sizeof *c->g.ended * (c->g.nended ? 2 * c->g.nended : 1));
	c->g.ended[c->g.nended++] = idx;
}

/* Checks on a newly discovered state. */
static void discovered(struct ctx *c, const uint8_t *sv, uint32_t idx)
{
	struct judgement v;
	if (judge_state(c->jd, sv, &v))
		violation(c, &v, idx, -1);
	c->faults |= v.status == MS_FAULT;
	if (v.status != MS_RUNNING && c->record) /* for the progress check */
		ended(c, idx);
	if (v.witness && !c->r->witness) {
		c->r->witness = 1;
		if (c->r->verdict != V_FAIL)
			current_path(c, idx, -1, &c->r->trace);
	}
	/* a state whose invariant stopped the search was not judged final */
	if (v.status == MS_TERMINAL && !(v.violated && v.kind == P_INVARIANT && c->stop))
		terminal(c, sv, idx);
}

/* The durable image img, left by action ai of state idx: judged once per
** distinct image. */
static void crash_image(struct ctx *c, const uint8_t *img, uint32_t idx, unsigned ai)
{
	int is_new;
	ss_put(c->images, img, c->m->durable_key, &is_new);
	if (!is_new)
		return;
	c->r->crash_images++;
	struct judgement v;
	c->rec_steps = 0;
	if (judge_crash(c->jd, img, &v))
		violation(c, &v, idx, (int)ai);
	else if (v.cut)
		c->stop = 1; /* a limit inside the recovery: r->limit says which */
}

/* A crash in state sv: what survives. */
static void crash(struct ctx *c, const uint8_t *sv, uint32_t idx, unsigned ai)
{
	const struct model *m = c->m;
	if (!m->durable)
		return;
	m->durable(m, sv, c->img);
	crash_image(c, c->img, idx, ai);
}

/* BFS at 3/4 of a limit with no verdict yet: say so once (stderr), and
** suggest a search that reaches deep states sooner.  t < 0: only the
** state count (checked on every expansion, the others every 1024). */
static void near_limit(struct ctx *c, double t)
{
	const struct explore_opts *o = c->o;
	const char *which = NULL;
	if (c->warned || c->search != SEARCH_BFS || c->r->verdict == V_FAIL || o->progress <= 0)
		return;
	if (o->max_states && vs_count(c->vs) * 4 >= o->max_states * 3)
		which = "--max-states";
	else if (t >= 0 && o->memory && mem_bytes(c) / 3 >= o->memory / 4)
		which = "--memory";
	else if (t >= 0 && o->time_limit > 0 && t * 4 >= o->time_limit * 3)
		which = "--time";
	if (!which)
		return;
	c->warned = 1;
	fprintf(stderr, "gpumc: breadth-first search has used 3/4 of %s without a verdict; --dfs or --swarm N\n"
	                "  would reach deep states (and most bugs) with far fewer states\n", which);
}

/* The process's resident memory (Linux: /proc/self/statm, kept open by
** limits_init: one pread, not a stdio open and scan, every 5 ms); 0
** unknown. */
static size_t rss_bytes(const struct ctx *c)
{
	char buf[128];
	ssize_t n = c->statm >= 0 ? pread(c->statm, buf, sizeof buf - 1, 0) : -1;
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* size, then resident, in pages: strtoull, not sscanf, whose 1,300
	** instructions a read showed in bench/callgrind.sh's rows (valgrind's
	** slow run reads every 5 ms of it) */
	const char *res = strchr(buf, ' ');
	return res ? (size_t)strtoull(res, NULL, 10) * c->page : 0;
}

/* --memory by what the process holds, read every 5 ms of the search: what
** the search's own count leaves out -- a crash's recovery exploring, the
** program and the machine, the allocator's slack -- is memory too. */
static int rss_hit(struct ctx *c, double t)
{
	if (!c->o->memory || t < c->next_rss)
		return 0;
	c->next_rss = t + 0.005;
	if (rss_bytes(c) < c->o->memory)
		return 0;
	c->r->limit = "--memory";
	return 1;
}

/* --memory, also between the successors of one expansion: each new state
** of a large vector is a large step. */
static int memory_hit(struct ctx *c)
{
	if (c->o->memory && mem_bytes(c) >= c->o->memory) {
		c->r->limit = "--memory";
		return 1;
	}
	return 0;
}

/* --memory before a growth: the next new state may grow the visited
** set's table (doubled; compact: by 1.375, visited.c) or double the
** parent links at once (a table of 2^26 slots is half a gigabyte), more
** than the checks between expansions can catch; stop while the grown one
** still fits. */
static size_t frontier_grow_bytes(const struct frontier *f);

static int growth_due(struct ctx *c)
{
	size_t g = vs_grow_bytes(c->vs);
	if (c->search == SEARCH_BFS && vs_count(c->vs) + 1 > c->pcap)
		g += 2 * c->pcap * (sizeof(uint32_t) + sizeof(uint16_t));
	if (c->grows && c->g.ne + c->m->max_actions > c->gcap)
		g += 2 * c->gcap * (sizeof *c->g.dst + sizeof *c->g.via);
	if (c->frontier)
		g += frontier_grow_bytes(c->frontier);
	if (!g || mem_bytes(c) + g < c->o->memory)
		return 0;
	c->r->limit = "--memory";
	c->stop = 1;
	return 1;
}

/* Before each new state's growth: mostly nothing to check (GH-1). */
static inline int growth_hit(struct ctx *c)
{
	return c->o->memory && !c->grow_far && growth_due(c);
}

/* Rule GH-1: growth_hit, on every new state, may skip its check until the
** next limits_due (at most `every` expansions, each of at most
** max_actions + 1 new states, k in all) when even the worst growth cannot
** reach --memory: every store is in mem_bytes and grows by at most B
** bytes a state (the vector 8 times over, its slot, parent link and graph
** row and moves) and at most doubles its capacity when full; so k states
** on, the bytes held are below 2 (mem + k B) plus the stores' smallest
** sizes (under 16 MB), and the growth then asked about is at most twice
** that plus a frontier chunk (4 MB or a vector).  8 (mem + k B) + 64 MB +
** a vector below --memory is far. */
static int growth_far(const struct ctx *c)
{
	uint64_t k = (uint64_t)c->every * (c->m->max_actions + 1u);
	uint64_t b = 8 * (uint64_t)c->svn + 64 + 8 * (uint64_t)(c->m->max_actions + 2);
	return 8 * ((uint64_t)mem_bytes(c) + k * b) + (64u << 20) + c->svn < c->o->memory;
}

/* The limits every phase honours, the search's own check adding
** --max-states and progress lines: a signal, --time, and --memory with
** the extra bytes a phase holds beside the visited set. */
static int run_limits(struct ctx *c, size_t extra)
{
	if (interrupted) {
		c->r->limit = interrupt_name();
		return 1;
	}
	double t = c->before + elapsed(c);
	if (c->o->time_limit > 0 && t >= c->o->time_limit) {
		c->r->limit = "--time";
		return 1;
	}
	if (c->o->memory && mem_bytes(c) + extra >= c->o->memory) {
		c->r->limit = "--memory";
		return 1;
	}
	return rss_hit(c, t);
}

/* The judge's poll (judge_set_poll), once per step of the recovery of a
** crash image: that exploration runs under the run's limits too, and
** --max-states bounds its steps (each the expansion of one of its states). */
static int limits_poll(void *ctx)
{
	struct ctx *c = ctx;
	if (c->o->max_states && ++c->rec_steps > c->o->max_states) {
		c->r->limit = "--max-states (in the recovery of a crash image)";
		return 1;
	}
	return run_limits(ctx, 0);
}

/* limits_hit's checks (c->until counted down already) */
static int limits_due(struct ctx *c)
{
	const struct explore_opts *o = c->o;
	if (o->max_states && !c->warned)
		near_limit(c, -1);
	if (interrupted) {
		c->r->limit = interrupt_name();
		return 1;
	}
	if (o->max_states && vs_count(c->vs) >= o->max_states) {
		c->r->limit = "--max-states";
		return 1;
	}
	/* the clock and the bytes held every few expansions, as many as
	** make about 64 KB of successors at most (limits_init): a thousand
	** expansions of large vectors could overshoot --memory by gigabytes,
	** but reading them on every expansion of a small one costs 5% */
	if (c->until)
		return 0;
	c->until = c->every;
	{
		double t = c->before + elapsed(c);
		near_limit(c, t);
		if (o->time_limit > 0 && t >= o->time_limit) {
			c->r->limit = "--time";
			return 1;
		}
		if (memory_hit(c) || rss_hit(c, t))
			return 1;
		c->grow_far = growth_far(c);
		if (o->progress > 0 && t >= c->next_progress) {
			c->next_progress = t + o->progress;
			fprintf(stderr, "gpumc: %.0f s: %llu states, %llu transitions, depth %u, %s %llu, %.0f states/s, %.1f MB\n",
			        t, (unsigned long long)vs_count(c->vs), (unsigned long long)c->r->transitions,
			        c->r->depth, c->search == SEARCH_DFS ? "stack" : "queue", (unsigned long long)c->queue,
			        t > 0 ? (double)vs_count(c->vs) / t : 0.0, (double)mem_bytes(c) / 1048576.0);
		}
	}
	return 0;
}

/* Before each expansion: a signal and --max-states, and every `every`
** expansions the clock and the bytes held.  Most expansions have nothing
** to check: they cost one count down. */
static inline int limits_hit(struct ctx *c)
{
	if (--c->until && !c->o->max_states && !interrupted)
		return 0;
	return limits_due(c);
}

static void limits_init(struct ctx *c)
{
	long page = sysconf(_SC_PAGESIZE);
	c->page = page > 0 ? (size_t)page : 0;
	c->statm = c->o->memory ? open("/proc/self/statm", O_RDONLY | O_CLOEXEC) : -1;
	size_t step = c->svn * (c->m->max_actions + 1);
	c->every = step >= 65536 / 64 ? (unsigned)(65536 / step) : 64;
	if (!c->every)
		c->every = 1;
	c->until = 1;
}

/* Room for the parent links of states below n. */
static void parent_reserve(struct ctx *c, uint64_t n)
{
	if (n <= c->pcap)
		return;
	while (c->pcap < n)
		c->pcap = c->pcap ? c->pcap * 2 : 4096;
	c->parent = xrealloc(c->parent, sizeof *c->parent * c->pcap);
	c->pact = xrealloc(c->pact, sizeof *c->pact * c->pcap);
}

static void parent_put(struct ctx *c, uint32_t idx, uint32_t parent, uint16_t act)
{
	if (!c->links)
		return;
	parent_reserve(c, (uint64_t)idx + 1);
	c->parent[idx] = parent;
	c->pact[idx] = act;
}

/* Deadlock check at expansion, and the model's contract with --check-model. */
static int expand_checks(struct ctx *c, const uint8_t *sv, const struct action *act, unsigned nact, uint32_t idx)
{
	struct judgement v;
	if (c->o->check_model) {
		struct strbuf why;
		sb_init(&why);
		int bad = contract_check(c->m, sv, act, nact, &why);
		if (bad != CONTRACT_OK) {
			v = (struct judgement){ .violated = 1, .prop = -1, .kind = P_CONTRACT, .why = sb_str(&why) };
			violation(c, &v, idx, bad >= 0 ? bad : -1);
		}
		sb_free(&why);
		if (bad != CONTRACT_OK)
			return 0;
	}
	if (judge_moves(c->jd, sv, act, nact, &v)) {
		violation(c, &v, idx, -1);
		return 0;
	}
	return 1;
}

/* expand_checks, of which most expansions need none: without --check-model
** a state whose first move is not a crash is no deadlock (judge_moves) */
static inline int expand_check(struct ctx *c, const uint8_t *sv, const struct action *act, unsigned nact,
                               uint32_t idx)
{
	if (!c->o->check_model && nact && act[0].kind != ACT_CRASH)
		return 1;
	return expand_checks(c, sv, act, nact, idx);
}

/* Partial-order reduction: the index of an enabled action that may stand
** for all of act[0..na), its successor (running, not faulted) left in
** next; or -1 (chain.c).  The caller checks the cycle proviso (a new
** successor).  Called only with the reduction on and two actions or more. */
static int ample(struct ctx *c, const uint8_t *sv, const struct action *act, unsigned na, uint8_t *next)
{
	return chain_ample(&c->ch, sv, act, na, next);
}

/* A successor next reached by action i, followed along its chain of
** local steps when go (chain.c, CH-5; none without the reduction): the
** move's index, with CHAIN_BIT when it is a chain. */
static unsigned follow(struct ctx *c, uint8_t *next, unsigned i, int go)
{
	unsigned more = go ? chain_follow(&c->ch, next, c->ctmp, c->cact, NULL) : 0;
	c->r->transitions += 1 + more;
	return more ? i | CHAIN_BIT : i;
}

/* A state expanded with its ample action alone still has its crashes
** judged, at the point of the search where the full expansion takes them
** (BFS: after its successors; DFS: crashes are listed last, so when its
** frame is done).  The durable image is the same along its local steps,
** so this finds no image the fully expanded state further on would miss,
** but a bad one is found as early as without the reduction. */
static void crashes(struct ctx *c, const uint8_t *sv, uint32_t idx, const struct action *act, unsigned na)
{
	for (unsigned i = 0; i < na && !c->stop; i++)
		if (act[i].kind == ACT_CRASH)
			crash(c, sv, idx, i);
}

/* {=== BFS ================================================================ */

/* Compact BFS keeps the vectors waiting for expansion (the visited set
** holds only fingerprints) in struct frontier: each level in a tree store
** of its own, the overflow in a FIFO.  The FIFO is a queue of chunks of
** about 4 MB, so a push never copies the queue (doubling one buffer of
** 800 KB vectors copied gigabytes between two limit checks) and drained
** chunks are freed. */
struct chunk {
	struct chunk *next;
	uint8_t sv[];
};

struct fifo {
	struct chunk *head, *tail;
	size_t sz, per;       /* vector bytes, vectors per chunk  */
	size_t hpos, tpos;    /* next pop in head, next push in tail */
	size_t nchunks;
};

static void fifo_push(struct fifo *f, const uint8_t *sv)
{
	if (!f->tail || f->tpos == f->per) {
		struct chunk *k = xmalloc(sizeof *k + f->per * f->sz);
		k->next = NULL;
		if (f->tail)
			f->tail->next = k;
		else
			f->head = k;
		f->tail = k;
		f->tpos = 0;
		f->nchunks++;
	}
	memcpy(f->tail->sv + f->tpos++ * f->sz, sv, f->sz);
}

static void fifo_pop(struct fifo *f, uint8_t *sv)
{
	memcpy(sv, f->head->sv + f->hpos++ * f->sz, f->sz);
	if (f->hpos == f->per || (f->head == f->tail && f->hpos == f->tpos)) {
		struct chunk *k = f->head;
		f->head = k->next;
		f->hpos = 0;
		if (!f->head) { /* the queue is empty: the next push starts a chunk */
			f->tail = NULL;
			f->tpos = 0;
		}
		free(k);
		f->nchunks--;
	}
}

static size_t fifo_bytes(const struct fifo *f)
{
	return f->nchunks * (sizeof(struct chunk) + f->per * f->sz);
}

static void fifo_free(struct fifo *f)
{
	while (f->head) {
		struct chunk *k = f->head;
		f->head = k->next;
		free(k);
	}
}

/* The frontier: level `cur` being expanded, level `next` being filled.
** Each level goes into a tree store of its own (state/tree.c: subtrees
** shared with the other states of the level, tens of bytes a state where
** the FIFO takes the whole vector), numbered 0, 1, 2, ... in queue order
** since every state queued is new; a level's tree is freed once expanded.
** Rule FR-1 (when a tree costs more than it saves): when the tree of the
** first state queued outweighs a FIFO chunk (a vector so large that its
** tree's per-position arrays and first nodes, about 5 times the vector,
** pass 4 MB: 800 KB vectors), every later state goes to the FIFO, the
** vector size being fixed.  The FIFO's states come after that one tree
** state, so expanding cur's tree, then popping the FIFO, is queue order.
** Invariant FR-2: frontier_bytes counts all of it (--memory). */
struct frontier {
	struct tree *cur, *next;
	uint32_t pos;  /* the next state of cur's tree to expand */
	int fifo_only; /* FR-1 */
	struct fifo q;
};

static struct frontier *frontier_new(size_t n)
{
	struct frontier *f = xcalloc(1, sizeof *f);
	f->q = (struct fifo){ NULL, NULL, n, (4u << 20) / n ? (4u << 20) / n : 1, 0, 0, 0 };
	f->next = tree_new(n);
	return f;
}

/* (not inlined: bfs_new, on every state, stays small without --compact) */
static __attribute__((noinline)) void frontier_push(struct frontier *f, const uint8_t *sv)
{
	if (f->fifo_only) {
		fifo_push(&f->q, sv);
		return;
	}
	int is_new;
	tree_find_or_put(f->next, sv, &is_new);
	if (tree_count(f->next) == 1) /* FR-1 */
		f->fifo_only = tree_bytes(f->next) > sizeof(struct chunk) + f->q.per * f->q.sz;
}

/* The next state in queue order into sv. */
static void frontier_pop(struct frontier *f, uint8_t *sv)
{
	if (f->cur && f->pos < tree_count(f->cur))
		tree_decode(f->cur, f->pos++, sv);
	else
		fifo_pop(&f->q, sv);
}

/* The level queued is expanded next. */
static void frontier_level(struct frontier *f)
{
	tree_free(f->cur);
	f->cur = f->next;
	f->next = f->fifo_only ? NULL : tree_new(f->q.sz);
	f->pos = 0;
}

static size_t frontier_bytes(const struct frontier *f)
{
	return (f->cur ? tree_bytes(f->cur) : 0) + (f->next ? tree_bytes(f->next) : 0) + fifo_bytes(&f->q);
}

/* What the next push may allocate at once (growth_hit). */
static size_t frontier_grow_bytes(const struct frontier *f)
{
	if (!f->fifo_only)
		return tree_grow_bytes(f->next);
	return f->q.tpos == f->q.per || !f->q.tail ? sizeof(struct chunk) + f->q.per * f->q.sz : 0;
}

static void frontier_free(struct frontier *f)
{
	if (!f)
		return;
	tree_free(f->cur);
	tree_free(f->next);
	fifo_free(&f->q);
	free(f);
}

/* BFS, recording: state h's moves start here (h = the number of states:
** the end of the last row).  The first row says where the graph starts. */
static void graph_row(struct ctx *c, uint32_t h)
{
	if (!c->grows)
		c->g.from = h;
	if (h + 1 >= c->grows) { /* h may leap: the end row after a cut-short search is the state count */
		while (h + 1 >= c->grows)
			c->grows = c->grows ? c->grows * 2 : 4096;
		c->g.row = xrealloc(c->g.row, sizeof *c->g.row * c->grows);
	}
	c->g.row[h] = c->g.ne;
}

static void graph_grow(struct ctx *c)
{
	c->gcap = c->gcap ? c->gcap * 2 : 4096;
	c->g.dst = xrealloc(c->g.dst, sizeof *c->g.dst * c->gcap);
	c->g.via = xrealloc(c->g.via, sizeof *c->g.via * c->gcap);
}

/* BFS, recording: a move to state k by action i of the state expanded. */
static inline void graph_move(struct ctx *c, uint32_t k, unsigned i)
{
	if (c->g.ne == c->gcap)
		graph_grow(c);
	c->g.dst[c->g.ne] = k;
	c->g.via[c->g.ne++] = (uint16_t)i;
}

/* BFS: a new state k reached from h by action i. */
static inline void bfs_new(struct ctx *c, struct frontier *q, const uint8_t *next, uint32_t k, uint32_t h,
                           unsigned i, uint32_t level)
{
	parent_put(c, k, h, (uint16_t)i);
	if (level + 1 > c->r->depth)
		c->r->depth = level + 1;
	if (c->o->compact) {
		frontier_push(q, next);
		c->frontier_bytes = frontier_bytes(q);
	}
	discovered(c, next, k);
}

static void bfs(struct ctx *c)
{
	const struct model *m = c->m;
	const struct explore_opts *o = c->o;
	size_t n = c->svn;
	uint8_t *cur = xmalloc(n), *next = xmalloc(n);
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	struct frontier *q = o->compact ? c->frontier = frontier_new(n) : NULL;
	int is_new;
	m->init(m, cur);
	uint32_t idx = vs_find_or_put(c->vs, cur, state_hash(cur, n), &is_new);
	parent_put(c, idx, NO_PARENT, 0);
	if (o->compact) {
		frontier_push(q, cur);
		frontier_level(q);
	}
	discovered(c, cur, idx);
	uint64_t head = 0, level_end = 1;
	uint32_t level = 0; /* depth of the states being expanded */
	while (!c->stop && head < vs_count(c->vs)) {
		if (head == level_end) {
			level++;
			level_end = vs_count(c->vs);
			if (o->compact) {
				frontier_level(q);
				c->frontier_bytes = frontier_bytes(q);
			}
		}
		c->queue = vs_count(c->vs) - head;
		if (limits_hit(c))
			break;
		c->expansions++;
		uint32_t h = (uint32_t)head++;
		int rec = c->record && c->cyclic; /* this state's moves go into the graph */
		if (rec)
			graph_row(c, h);
		const uint8_t *src;
		if (o->compact) {
			frontier_pop(q, cur);
			c->frontier_bytes = frontier_bytes(q);
			src = cur;
		} else {
			src = vs_state(c->vs, h); /* arena chunks never move */
		}
		if (c->faults && m->status(m, src) == MS_FAULT)
			continue;
		unsigned na = m->enabled(m, src, act);
		if (!expand_check(c, src, act, na, h))
			break;
		if (o->max_depth && level >= o->max_depth) {
			if (na)
				c->cut = 1;
			continue;
		}
		if (!na)
			continue;
		c->r->expanded++;
		hash_src_set(&c->hsrc, src, vs_hash(c->vs, h, src), n);
		int a = c->por && na > 1 ? ample(c, src, act, na, next) : -1;
		if (a >= 0) {
			a = (int)follow(c, next, (unsigned)a, 1);
			uint32_t k = vs_find_or_put(c->vs, next, succ_hash(c, next), &is_new);
			if (k > h) { /* the cycle proviso holds: a state numbered after this one */
				if (rec)
					graph_move(c, k, (unsigned)a);
				c->r->reduced++;
				if (is_new)
					bfs_new(c, q, next, k, h, (unsigned)a, level);
				else
					c->cyclic |= k < level_end;
				crashes(c, src, h, act, na);
				growth_hit(c);
				continue;
			}
		}
		for (unsigned i = 0; i < na && !c->stop; i++) {
			if (act[i].kind == ACT_CRASH) {
				crash(c, src, h, i);
				continue;
			}
			memcpy(next, src, n);
			m->apply(m, next, &act[i]);
			unsigned via = follow(c, next, i, chain_after(&c->ch, src, &act[i]));
			uint32_t k = vs_find_or_put(c->vs, next, succ_hash(c, next), &is_new);
			if (rec)
				graph_move(c, k, via);
			if (!is_new) {
				c->cyclic |= k < level_end;
				continue;
			}
			bfs_new(c, q, next, k, h, via, level);
			if ((o->max_states && vs_count(c->vs) >= o->max_states) || (c->every == 1 && memory_hit(c)) ||
			    growth_hit(c))
				break;
		}
	}
	if (c->grows)
		graph_row(c, (uint32_t)vs_count(c->vs));
	free(cur);
	free(next);
	free(act);
}

/* }=== */

/* {=== The multi-core BFS (explore/parallel.c) borrows these checks ======= */

static int par_discovered(void *p, const uint8_t *sv, uint32_t idx)
{
	discovered(p, sv, idx);
	return ((struct ctx *)p)->stop;
}

static int par_crash(void *p, const uint8_t *sv, uint32_t idx, unsigned ai)
{
	crash(p, sv, idx, ai);
	return ((struct ctx *)p)->stop;
}

static int par_moves(void *p, const uint8_t *sv, const struct action *act, unsigned n, uint32_t idx)
{
	return !expand_check(p, sv, act, n, idx);
}

/* Called every c->every expansions of all threads: the clock and the
** bytes held each time. */
static int par_limits(void *p)
{
	((struct ctx *)p)->until = 1;
	return limits_hit(p);
}

static uint64_t par_reserve(void *p, uint64_t n)
{
	parent_reserve(p, n);
	return ((struct ctx *)p)->pcap;
}

static void par_parent(void *p, uint32_t idx, uint32_t from, uint16_t act)
{
	parent_put(p, idx, from, act);
}

static int par_ample(void *p, const uint8_t *sv, const struct action *act, unsigned n, uint8_t *next)
{
	return ample(p, sv, act, n, next);
}

static void par(struct ctx *c)
{
	static const struct par_hooks hooks = { NULL, par_discovered, par_crash, par_moves, par_limits, par_reserve,
		                                par_parent, par_ample, NULL, 0 };
	struct par_hooks h = hooks;
	h.ctx = c;
	if (!c->por)
		h.ample = NULL;
	else if (c->ch.max > 1)
		h.chain = &c->ch;
	h.every = c->every;
	/* the judge says which properties look at running states: a list
	** here missed persist_order, added beside it */
	c->r->threads = par_bfs(c->m, c->o, c->r, c->vs, c->r->threads, judge_every_state(c->jd), &h, &c->cut,
	                       &c->cyclic);
}

/* }=== */

#if HAVE_MPI
/* {=== The distributed BFS (explore/mpi.c) borrows them too ============== */

static int mpi_discovered(void *p, const uint8_t *sv, int rank, uint32_t idx)
{
	struct ctx *c = p;
	c->at_rank = rank;
	discovered(c, sv, idx);
	return c->stop;
}

static int mpi_crash(void *p, const uint8_t *img, int rank, uint32_t idx, unsigned ai)
{
	struct ctx *c = p;
	c->at_rank = rank;
	crash_image(c, img, idx, ai);
	return c->stop;
}

static int mpi_moves(void *p, const uint8_t *sv, const struct action *act, unsigned n, int rank, uint32_t idx)
{
	((struct ctx *)p)->at_rank = rank;
	return !expand_check(p, sv, act, n, idx);
}

static uint64_t mpi_bytes(void *p)
{
	return mem_bytes(p);
}

static double mpi_seconds(void *p)
{
	return ((struct ctx *)p)->before + elapsed(p);
}

static struct mpi_run *mpi(struct ctx *c)
{
	static const struct mpi_hooks hooks = { NULL, mpi_discovered, mpi_crash, mpi_moves, mpi_bytes, mpi_seconds };
	struct mpi_hooks h = hooks;
	h.ctx = c;
	return mpi_bfs(c->m, c->o, c->r, c->vs, &h, &c->at_trace, &c->cut, &c->cyclic);
}

/* }=== */
#endif

/* {=== DFS ================================================================ */

static uint8_t *frame_sv(struct ctx *c, uint32_t i)
{
	return c->dsv + (size_t)i * c->svn;
}

static struct action *frame_act(struct ctx *c, uint32_t i)
{
	return c->dact + (size_t)i * (c->m->max_actions + 1);
}

static uint16_t *frame_ord(struct ctx *c, uint32_t i)
{
	return c->dord + (size_t)i * (c->m->max_actions + 1);
}

/* Frame f takes its n actions in the natural order, or with shuffle and
** --swarm in a random one (xorshift64, Fisher-Yates). */
static void order(struct ctx *c, uint32_t f, uint32_t n, int shuffle)
{
	uint16_t *o = frame_ord(c, f);
	for (uint32_t i = 0; i < n; i++)
		o[i] = (uint16_t)i;
	for (uint32_t i = n; shuffle && c->rng && i > 1; i--) {
		c->rng ^= c->rng << 13;
		c->rng ^= c->rng >> 7;
		c->rng ^= c->rng << 17;
		uint32_t j = (uint32_t)(c->rng % i);
		uint16_t t = o[i - 1];
		o[i - 1] = o[j];
		o[j] = t;
	}
}

static void dfs_reserve(struct ctx *c, uint32_t depth)
{
	if (depth < c->fcap)
		return;
	c->fcap = c->fcap ? c->fcap * 2 : 256;
	c->dsv = xrealloc(c->dsv, c->fcap * c->svn);
	c->frame_bh = xrealloc(c->frame_bh, c->fcap * c->nb * sizeof *c->frame_bh);
	c->dact = xrealloc(c->dact, c->fcap * (c->m->max_actions + 1) * sizeof *c->dact);
	c->dord = xrealloc(c->dord, c->fcap * (c->m->max_actions + 1) * sizeof *c->dord);
	c->frames = xrealloc(c->frames, c->fcap * sizeof *c->frames);
}

/* State k gets (on) or loses its frame. */
static void on_stack(struct ctx *c, uint32_t k, uint8_t on)
{
	if (k >= c->oncap) {
		size_t ncap = c->oncap ? c->oncap * 2 : 4096;
		while (ncap <= k)
			ncap *= 2;
		c->onstack = xrealloc(c->onstack, ncap);
		memset(c->onstack + c->oncap, 0, ncap - c->oncap);
		c->oncap = ncap;
	}
	c->onstack[k] = on;
}

/* Push the state in frame_sv(sp), numbered idx: list its actions.  A reduced frame
** takes only its ample action (next = it, nact = it + 1) and remembers the
** full count, to expand in full if the cycle proviso fails. */
static int dfs_push(struct ctx *c, uint32_t idx)
{
	uint32_t f = c->sp++;
	struct frame *fr = &c->frames[f];
	fr->idx = idx;
	on_stack(c, idx, 1);
	fr->nact = c->m->enabled(c->m, frame_sv(c, f), frame_act(c, f));
	fr->next = fr->full = 0;
	if (c->faults && c->m->status(c->m, frame_sv(c, f)) == MS_FAULT)
		fr->nact = 0;
	if (c->sp - 1 > c->r->depth)
		c->r->depth = c->sp - 1;
	if (!expand_check(c, frame_sv(c, f), frame_act(c, f), fr->nact, 0))
		return 0;
	if (fr->nact)
		c->r->expanded++;
	dfs_reserve(c, f + 2);
	fr = &c->frames[f];
	int a = c->por && fr->nact > 1 ? chain_ample(&c->ch, frame_sv(c, f), frame_act(c, f), fr->nact, frame_sv(c, f + 1))
	                               : -1; /* its chain is followed when it is taken */
	order(c, f, fr->nact, a < 0); /* reduced: position a is action a */
	if (a >= 0) {
		fr->full = fr->nact;
		fr->next = (uint32_t)a;
		fr->nact = (uint32_t)a + 1;
	}
	return 1;
}

static void dfs(struct ctx *c)
{
	const struct model *m = c->m;
	const struct explore_opts *o = c->o;
	size_t n = c->svn;
	int is_new;
	dfs_reserve(c, 1);
	m->init(m, frame_sv(c, 0));
	vs_find_or_put(c->vs, frame_sv(c, 0), state_hash_blocks(frame_sv(c, 0), n, c->frame_bh), &is_new);
	c->sp = 1; /* discovered() reads the path from the stack */
	c->frames[0].next = 0;
	discovered(c, frame_sv(c, 0), 0);
	c->sp = 0;
	if (!c->stop)
		dfs_push(c, 0);
	while (c->sp && !c->stop) {
		struct frame *fr = &c->frames[c->sp - 1];
		if (fr->next == fr->nact) {
			if (fr->full) /* still reduced: its crashes, where they come without POR */
				crashes(c, frame_sv(c, c->sp - 1), 0, frame_act(c, c->sp - 1), fr->full);
			on_stack(c, fr->idx, 0);
			c->sp--;
			continue;
		}
		c->queue = c->sp;
		if (limits_hit(c))
			break;
		c->expansions++;
		uint32_t f = c->sp - 1;
		unsigned i = frame_ord(c, f)[fr->next++];
		struct action a = frame_act(c, f)[i];
		if (a.kind == ACT_CRASH) {
			crash(c, frame_sv(c, f), 0, i);
			continue;
		}
		dfs_reserve(c, f + 2);
		fr = &c->frames[f];
		uint8_t *next = frame_sv(c, f + 1);
		memcpy(next, frame_sv(c, f), n);
		m->apply(m, next, &a);
		/* the chain from it (chain.c): always after a reduced frame's one action */
		fr->chained = follow(c, next, 0, fr->full || chain_after(&c->ch, frame_sv(c, f), &a)) != 0;
		uint64_t *nbh = c->frame_bh + (size_t)(f + 1) * c->nb; /* becomes the frame's if pushed */
		uint32_t k = vs_find_or_put(c->vs, next,
		                            state_hash_delta(frame_sv(c, f), c->frame_bh + (size_t)f * c->nb, next, n, nbh),
		                            &is_new);
		int back = !is_new && k < c->oncap && c->onstack[k]; /* a step onto the stack */
		c->cyclic |= back;
		if (back && fr->full) { /* the cycle proviso fails: expand in full */
			fr->nact = fr->full;
			fr->next = fr->full = 0;
			order(c, f, fr->nact, 1);
		}
		if (!is_new)
			continue;
		if (fr->full)
			c->r->reduced++;
		/* the path to `next` is the stack with it on top */
		c->frames[f + 1].next = 0;
		c->sp++;
		discovered(c, next, 0);
		c->sp--;
		if (c->stop || growth_hit(c))
			break;
		if (o->max_depth && f + 1 >= o->max_depth) {
			if (m->status(m, next) == MS_RUNNING)
				c->cut = 1;
			continue;
		}
		if (!dfs_push(c, k))
			break;
	}
}

/* }=== */

/* Is property kind k judged on terminal states only (their values, or
** the durable image of one)? */
static int terminal_only(enum prop_kind k)
{
	return k == P_DETERMINISTIC || k == P_EXISTS || k == P_NOT_EXISTS || k == P_FORALL || k == P_REFINES ||
	       k == P_EQUALS || k == P_OUTCOMES || k == P_PERSISTED;
}

/* Every location a property names: the model keeps actions that write
** one out of the reduction; those observed in running states first,
** *ninv of them (model.h, alone).  0 when there are too many to list
** (then no reduction). */
static int observed(const struct property *props, unsigned n, int **out, unsigned *nout, unsigned *ninv)
{
	unsigned cap = 1024, nl = 0;
	for (unsigned k = 0; k < n; k++)
		cap += props[k].nlocs;
	int *locs = xmalloc(sizeof(int) * cap);
	for (int term = 0; term < 2; term++) {
		for (unsigned k = 0; k < n; k++) {
			if (terminal_only(props[k].kind) != term)
				continue;
			for (unsigned i = 0; i < props[k].nlocs; i++)
				locs[nl++] = props[k].locs[i];
			nl = expr_locs(props[k].cond, locs, nl, cap);
		}
		if (!term)
			*ninv = nl;
	}
	*out = locs;
	*nout = nl;
	return nl < cap;
}

/* The progress check's limit: time and memory, its storage counted with
** the visited set's. */
static int progress_limit(void *p, size_t bytes)
{
	return run_limits(p, bytes);
}

/* Livelock: a reachable state from which no terminal state is reachable. */
static void progress(struct ctx *c)
{
	struct progress_result pr;
	int stopped;
#if HAVE_MPI
	if (c->mp) /* over the ranks, on the moves their owners recorded */
		stopped = mpi_progress(c->mp, progress_limit, c, &pr);
	else
#endif
	{
		if (c->record && !c->grows) /* no rows recorded */
			c->g.from = (uint32_t)vs_count(c->vs);
		stopped = progress_check(c->m, c->vs, c->por ? &c->ch : NULL, c->record ? &c->g : NULL, progress_limit, c,
		                         &pr);
	}
	if (stopped)
		return;
	c->r->stuck = (int64_t)pr.stuck;
	if (!pr.stuck)
		return;
	char why[160];
	snprintf(why, sizeof why, "%llu reachable state%s cannot reach a terminal state: the last %u step%s repeat%s forever",
	         (unsigned long long)pr.stuck, pr.stuck == 1 ? "" : "s", pr.lasso.len - pr.cycle,
	         pr.lasso.len - pr.cycle == 1 ? "" : "s", pr.lasso.len - pr.cycle == 1 ? "s" : "");
	struct judgement v = { .violated = 1, .prop = -1, .kind = P_PROGRESS, .why = why };
	fail(c->r, &v);
	free(c->r->trace.step);
	c->r->trace = pr.lasso;
	c->r->cycle = pr.cycle;
}

void explore_opts_default(struct explore_opts *o)
{
	memset(o, 0, sizeof *o);
	o->search = SEARCH_AUTO;
	o->por = 1;
	o->threads = 1; /* the command line asks for every core (cli.c) */
}

/* --swarm N (as SPIN's swarm verification): N depth-first searches, each
** in its own random action order (seeds 1..N, so runs repeat) with
** fingerprints only and an equal share of --time; states and transitions
** add up.  The first violation is the verdict; without one the verdict is
** incomplete, even when a run saw every state: a swarm is for finding bugs
** in spaces too large to exhaust, and says nothing that a proof needs. */
static void swarm(const struct model *m, struct property *props, unsigned n, const struct explore_opts *o,
                  struct explore_result *r)
{
	struct explore_opts so = *o;
	so.swarm = 0;
	so.search = SEARCH_DFS;
	so.compact = 1;
	struct timespec t0 = o->start;
	if (!t0.tv_sec && !t0.tv_nsec)
		clock_gettime(CLOCK_MONOTONIC, &t0);
	uint64_t states = 0, transitions = 0;
	double seconds = 0, search_seconds = 0;
	for (unsigned k = 0; k < o->swarm; k++) {
		if (k)
			explore_result_free(r);
		/* each search an equal share of what the others left of --time
		** and --max-states: the limits bound the swarm, not one search */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double left = o->time_limit - clock_between(t0, now);
		so.start = now;
		so.time_limit = o->time_limit > 0 ? (left > 0 ? left : 1e-9) / (o->swarm - k) : 0;
		if (o->max_states) {
			uint64_t sl = o->max_states > states ? o->max_states - states : 0;
			so.max_states = sl / (o->swarm - k) ? sl / (o->swarm - k) : 1;
		}
		so.dfs_seed = 0x9e3779b97f4a7c15ull * (k + 1);
		explore(m, props, n, &so, r);
		states += r->states;
		transitions += r->transitions;
		seconds += r->seconds;
		search_seconds += r->search_seconds;
		r->swarm_runs = k + 1;
		if (r->verdict == V_FAIL || r->verdict == V_ERROR)
			break;
	}
	r->states = states;
	r->transitions = transitions;
	r->seconds = seconds;
	r->search_seconds = search_seconds;
	if (r->verdict == V_PASS || r->verdict == V_INCOMPLETE) {
		r->verdict = V_INCOMPLETE;
		r->limit = "--swarm";
		r->hint = "no randomized search found a violation, which proves nothing: a swarm never gives \"pass\"";
	}
}

void explore(const struct model *m, struct property *props, unsigned n,
             const struct explore_opts *o, struct explore_result *r)
{
	if (o->swarm) {
		swarm(m, props, n, o, r);
		return;
	}
	if (o->search == SEARCH_AUTO) {
		/* --compact means the largest space in the least memory: DFS
		** keeps no frontier (the stack is the trace), 13-15 bytes a
		** state where BFS's level trees and parent links cost 20-22
		** (bench/memory.sh), and reaches deep states, where most bugs
		** are, first; --bfs asks for the shortest counterexamples.
		** --mpi's search is breadth-first, so it stays. */
		struct explore_opts ao = *o;
		ao.search = o->compact && !o->mpi ? SEARCH_DFS : SEARCH_BFS;
		explore(m, props, n, &ao, r);
		r->dfs_default = ao.search == SEARCH_DFS;
		return;
	}
	struct ctx c;
	memset(&c, 0, sizeof c);
	c.statm = -1;
	memset(r, 0, sizeof *r);
	r->failed = -1;
	r->stuck = -1;
	c.m = m;
	c.props = props;
	c.nprops = n;
	c.o = o;
	c.r = r;
	c.svn = m->sv_size;
	c.search = o->search;
	c.rng = o->dfs_seed;
	c.nb = hash_nblocks(m->sv_size);
	hash_init();
	c.hsrc.bh = xmalloc(c.nb * sizeof *c.hsrc.bh);
	c.hsrc.known = xmalloc(c.nb);
	c.jd = judge_new(m, props, n, o->keep_going);
	judge_set_poll(c.jd, limits_poll, &c);
	c.outcome_prop = -1;
	for (unsigned k = 0; k < n; k++) {
		c.has_det |= props[k].kind == P_DETERMINISTIC;
		if ((props[k].kind == P_EXISTS || props[k].kind == P_NOT_EXISTS || props[k].kind == P_FORALL ||
		     props[k].kind == P_OUTCOMES) &&
		    c.outcome_prop < 0)
			c.outcome_prop = (int)k;
	}
	/* outcome locations: every location of the exists/forall conditions,
	** and those an outcomes property names (in its order) */
	unsigned cap = 256;
	for (unsigned k = 0; k < n; k++)
		if (props[k].kind == P_OUTCOMES)
			cap += props[k].nlocs;
	int *locs = xmalloc(sizeof(int) * cap);
	unsigned nl = 0;
	for (unsigned k = 0; k < n; k++)
		if (props[k].kind == P_EXISTS || props[k].kind == P_NOT_EXISTS || props[k].kind == P_FORALL)
			nl = expr_locs(props[k].cond, locs, nl, 256);
		else if (props[k].kind == P_OUTCOMES)
			for (unsigned i = 0; i < props[k].nlocs; i++)
				locs[nl++] = props[k].locs[i];
	if (c.outcome_prop < 0 && o->outcome_locs) {
		/* no condition: the caller's locations (--outcomes) */
		nl = o->noutcome_locs;
		locs = xrealloc(locs, sizeof(int) * (nl ? nl : 1));
		memcpy(locs, o->outcome_locs, sizeof(int) * nl);
	}
	r->nolocs = nl;
	r->olocs = locs;
	c.obuf = xmalloc(sizeof(uint32_t) * (nl ? nl : 1));
	c.outcomes = ss_new();
	c.images = ss_new();
	c.img = xmalloc(m->durable_size ? m->durable_size : 1);
	for (unsigned k = 0; k < n && o->por; k++)
		if (props[k].kind == P_COMM_RACE)
			r->por_off = "comm_race_free";
	if (o->mpi) {
		r->ranks = mpi_size();
		r->mpi_off = mpi_refuse(o);
		c.mpi = !r->mpi_off;
	}
	if (c.mpi && o->por && m->local && !r->por_off)
		r->por_off = "--mpi (the cycle proviso asks whether a successor is new at once; its owner, another "
		             "rank, says so only after the round's exchange)";
	c.por = r->por = o->por && m->local && !r->por_off && observed(props, n, &c.obs, &c.nobs, &c.ninv);
	/* chains (chain.c): not where each state is checked (--check-model),
	** nor beyond the index's spare bit; depth and --max-depth count moves */
	c.ch = (struct chain){ m, c.obs, c.nobs, c.obs, c.ninv,
		               c.por && !o->no_chain && !o->check_model && m->max_actions < CHAIN_BIT
		                       ? CHAIN_MAX
		                       : 1 };
	r->chains = c.ch.max > 1;
	c.ctmp = xmalloc(m->sv_size);
	c.cact = xmalloc(sizeof *c.cact * (m->max_actions + 1));
	r->threads = r->threads_asked = c.mpi ? 1 : par_threads(o);
	if (c.mpi && o->threads > 1)
		r->threads_off = "--mpi: one thread per rank";
	if (r->threads > 1 && (r->threads_off = par_refuse(o, c.por))) {
		r->threads = 1;
		if (!o->threads) /* the default, every core: the report says nothing */
			r->threads_off = NULL;
	}
	if (r->threads > 1 && o->tree && !o->compact) {
		r->threads = 1;
		r->threads_off = "--tree: its node table is not shared between threads";
	}
	c.vs = vs_new(m->sv_size, o->compact ? VS_COMPACT : o->tree ? VS_TREE : VS_EXACT);
	r->store = vs_store_name(c.vs);
	c.hashed = vs_takes_hash(c.vs);
	/* --no-trace drops the 6 bytes a state of the parent links where they
	** weigh: compact mode's sequential BFS (DFS's trace is its stack; the
	** ranks of --mpi hold their links apart) */
	c.links = !(o->no_trace && o->compact && o->search == SEARCH_BFS && !c.mpi);
	r->no_trace = !c.links;
	/* the parallel search records no graph: its progress check re-expands;
	** nor does --tree, whose point is memory (6 bytes a transition), and
	** whose progress check re-expands only when the graph has a cycle */
	c.record = o->livelock && !o->compact && !o->tree && o->search == SEARCH_BFS && r->threads <= 1 && !c.mpi;
	clock_gettime(CLOCK_MONOTONIC, &c.t0);
	if (o->start.tv_sec || o->start.tv_nsec)
		c.before = clock_between(o->start, c.t0);
	c.next_progress = o->progress;
	limits_init(&c);
	struct judgement v;
	if (judge_start(c.jd, &v))
		fail(r, &v); /* decided before exploring (not idempotent): no trace */
	else if (o->search == SEARCH_DFS)
		dfs(&c);
	else if (r->threads > 1)
		par(&c);
#if HAVE_MPI
	else if (c.mpi)
		c.mp = mpi(&c);
#endif
	else
		bfs(&c);
	r->search_seconds = elapsed(&c);
	/* an acyclic graph needs no progress check: every path from a state
	** ends, and where it ends the kernel has finished or faulted (a
	** running state without moves is a deadlock, which failed above) */
	if (r->verdict != V_FAIL && !c.cut && !r->limit && o->livelock && !o->compact) {
		if (c.cyclic)
			progress(&c);
		else
			r->stuck = 0;
	}
	r->states = vs_count(c.vs);
	r->seconds = elapsed(&c);
	r->bytes = mem_bytes(&c);
	r->omission = vs_omission(c.vs);
	if (r->verdict != V_FAIL) {
		if (c.cut && !r->limit)
			r->limit = "--max-depth";
		/* refines/equals whose reference run was cut short cannot pass */
		for (unsigned k = 0; k < n && !r->limit; k++)
			if ((props[k].kind == P_REFINES || props[k].kind == P_EQUALS) && !props[k].ref)
				r->limit = props[k].ref_limit;
		if (r->limit) {
			r->verdict = V_INCOMPLETE;
			if (o->search == SEARCH_BFS && strcmp(r->limit, "--max-depth"))
				r->hint = "breadth-first search expands every shallow state first; --dfs or --swarm N "
				          "reach deep states (and most bugs) with far fewer states";
		} else {
			r->verdict = V_PASS;
			if (judge_finish(c.jd, &v))
				fail(r, &v);
		}
	}
#if HAVE_MPI
	if (c.mp) {
		mpi_finish(c.mp, r, &c.at_trace, &c.at_first, &c.first_final);
		if (r->verdict == V_FAIL && r->failed_kind == P_DETERMINISTIC)
			other_schedule(r, &c.first_final);
	}
#endif
	/* the traces with every action (chains unfolded, CH-3) */
	chain_unfold(&c.ch, &r->trace, &r->cycle);
	if (r->trace2.len) {
		chain_unfold(&c.ch, &r->trace2, NULL);
		diverge(r);
	}
	/* released after the caller's report (explore_release) */
	struct ctx *held = xmalloc(sizeof *held);
	*held = c;
	r->held = held;
}

void explore_release(struct explore_result *r)
{
	struct ctx *c = r->held;
	if (!c)
		return;
	judge_free(c->jd);
	if (c->statm >= 0)
		close(c->statm);
	free(c->first_final.step);
	ss_free(c->outcomes);
	ss_free(c->images);
	free(c->img);
	free(c->obuf);
	free(c->obs);
	free(c->ctmp);
	free(c->cact);
	free(c->parent);
	free(c->pact);
	free(c->dsv);
	free(c->dact);
	free(c->dord);
	free(c->frames);
	free(c->onstack);
	free(c->g.row);
	free(c->g.dst);
	free(c->g.via);
	free(c->g.ended);
	free(c->frame_bh);
	free(c->hsrc.bh);
	free(c->hsrc.known);
	vs_free(c->vs);
	frontier_free(c->frontier);
	free(c);
	r->held = NULL;
}

void explore_result_free(struct explore_result *r)
{
	explore_release(r);
	free(r->why);
	free(r->trace.step);
	free(r->trace2.step);
	free(r->olocs);
	for (unsigned i = 0; i < r->noutcomes; i++)
		free(r->outcomes[i].vals);
	free(r->outcomes);
	memset(r, 0, sizeof *r);
}
