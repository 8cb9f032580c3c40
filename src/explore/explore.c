/*
** Exhaustive exploration.  One driver, two orders:
**
**   BFS  states are numbered in discovery order, which is also queue order,
**        so the queue is a cursor over the numbers (exact mode reads the
**        vectors back from the visited set; compact mode keeps a FIFO of
**        vectors).  Each state records its parent and the action index that
**        reached it, so traces are shortest paths.
**   DFS  a stack of frames, each with its vector and its enabled actions;
**        the trace of the current state is the stack itself, so DFS needs
**        no per-state bookkeeping beyond the visited set.
**
** What is checked where (the judge, judge.h, decides what each property
** says; the explorer decides when to ask):
**   on discovery (every new state): judge_state;
**   on expansion: judge_moves (deadlock), and for each crash action the
**     durable image is projected, deduplicated and judged once (judge_crash).
** No reduction is applied: every interleaving of the machine is explored,
** so terminal states and crash images are exactly those of the machine.
*/
#include "config.h"
#include "explore/explore.h"
#include "explore/contract.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "explore/judge.h"
#include "explore/progress.h"
#include "state/hash.h"
#include "state/sideset.h"
#include "state/visited.h"
#include "util/interrupt.h"
#include "util/strbuf.h"

#define NO_PARENT UINT32_MAX

struct ctx {
	const struct model *m;
	struct property *props;
	const struct explore_opts *o;
	struct explore_result *r;
	struct visited *vs;
	size_t svn;
	/* BFS bookkeeping */
	uint32_t *parent;
	uint16_t *pact;
	size_t pcap;
	/* DFS stack */
	uint8_t *dsv;
	struct action *dact;
	struct frame { uint32_t nact, next; } *frames;
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
	double next_progress;
	uint64_t expansions;
	uint64_t queue; /* for progress lines: BFS states waiting, DFS stack depth */
	enum search_kind search;
	size_t frontier_bytes; /* compact BFS: the queue of vectors */
	/* block hashes (state/hash.h): of the state being expanded, of a
	** successor, and in DFS of every frame */
	size_t nb;
	uint64_t *src_bh, *next_bh, *frame_bh;
};

static double elapsed(const struct ctx *c)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - c->t0.tv_sec) + (double)(t.tv_nsec - c->t0.tv_nsec) * 1e-9;
}

static size_t mem_bytes(const struct ctx *c)
{
	return vs_bytes(c->vs) + c->frontier_bytes + c->pcap * (sizeof(uint32_t) + sizeof(uint16_t)) +
	       c->fcap * (c->svn + sizeof(struct frame) + c->m->max_actions * sizeof(struct action));
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
static void current_path(const struct ctx *c, uint32_t idx, int extra, struct trace *t)
{
	uint32_t n = 0;
	uint16_t *buf;
	if (c->search == SEARCH_DFS) {
		buf = xmalloc(sizeof *buf * (c->sp + 2));
		for (uint32_t i = 0; i + 1 < c->sp; i++)
			buf[n++] = (uint16_t)(c->frames[i].next - 1);
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
	if (v->kind == P_DETERMINISTIC) {
		/* the other schedule: the first to finish */
		struct trace *a = &c->first_final, *b = &r->trace;
		trace_set(&r->trace2, a->step, a->len);
		uint32_t i = 0;
		while (i < a->len && i < b->len && a->step[i] == b->step[i])
			i++;
		r->diverge = i;
	}
	if (!c->o->keep_going)
		c->stop = 1;
}

/* A terminal state, once judged: count it and its outcome. */
static void terminal(struct ctx *c, const uint8_t *sv, uint32_t idx)
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

/* Checks on a newly discovered state. */
static void discovered(struct ctx *c, const uint8_t *sv, uint32_t idx)
{
	struct judgement v;
	if (judge_state(c->jd, sv, &v))
		violation(c, &v, idx, -1);
	if (v.witness && !c->r->witness) {
		c->r->witness = 1;
		if (c->r->verdict != V_FAIL)
			current_path(c, idx, -1, &c->r->trace);
	}
	/* a state whose invariant stopped the search was not judged final */
	if (v.status == MS_TERMINAL && !(v.violated && v.kind == P_INVARIANT && c->stop))
		terminal(c, sv, idx);
}

/* A crash in state sv: what survives is judged once per distinct image. */
static void crash(struct ctx *c, const uint8_t *sv, uint32_t idx, unsigned ai)
{
	const struct model *m = c->m;
	if (!m->durable)
		return;
	m->durable(m, sv, c->img);
	int is_new;
	ss_put(c->images, c->img, m->durable_size, &is_new);
	if (!is_new)
		return;
	c->r->crash_images++;
	struct judgement v;
	if (judge_crash(c->jd, c->img, &v))
		violation(c, &v, idx, (int)ai);
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

static int limits_hit(struct ctx *c)
{
	const struct explore_opts *o = c->o;
	if (interrupted) {
		c->r->limit = interrupt_name();
		return 1;
	}
	if (o->max_states && vs_count(c->vs) >= o->max_states) {
		c->r->limit = "--max-states";
		return 1;
	}
	/* every expansion: with large state vectors a thousand expansions
	** can overshoot --memory by gigabytes and --time by many seconds
	** (one clock read costs tens of nanoseconds, an expansion far more) */
	{
		double t = elapsed(c);
		if (o->time_limit > 0 && t >= o->time_limit) {
			c->r->limit = "--time";
			return 1;
		}
		if (memory_hit(c))
			return 1;
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

static void parent_put(struct ctx *c, uint32_t idx, uint32_t parent, uint16_t act)
{
	if (idx >= c->pcap) {
		c->pcap = c->pcap ? c->pcap * 2 : 4096;
		c->parent = xrealloc(c->parent, sizeof *c->parent * c->pcap);
		c->pact = xrealloc(c->pact, sizeof *c->pact * c->pcap);
	}
	c->parent[idx] = parent;
	c->pact[idx] = act;
}

/* Deadlock check at expansion, and the model's contract with --check-model. */
static int expand_check(struct ctx *c, const uint8_t *sv, const struct action *act, unsigned nact, uint32_t idx)
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

/* {=== BFS ================================================================ */

struct fifo {
	uint8_t *buf;
	size_t head, tail, cap, sz; /* in vectors */
};

static void fifo_push(struct fifo *f, const uint8_t *sv)
{
	if (f->tail - f->head == f->cap) {
		size_t ncap = f->cap ? f->cap * 2 : 1024;
		uint8_t *nb = xmalloc(ncap * f->sz);
		for (size_t i = f->head; i < f->tail; i++)
			memcpy(nb + (i - f->head) * f->sz, f->buf + (i % f->cap) * f->sz, f->sz);
		free(f->buf);
		f->buf = nb;
		f->tail -= f->head;
		f->head = 0;
		f->cap = ncap;
	}
	memcpy(f->buf + (f->tail++ % f->cap) * f->sz, sv, f->sz);
}

static void bfs(struct ctx *c)
{
	const struct model *m = c->m;
	const struct explore_opts *o = c->o;
	size_t n = c->svn;
	uint8_t *cur = xmalloc(n), *next = xmalloc(n);
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	struct fifo q = { NULL, 0, 0, 0, n };
	int is_new;
	m->init(m, cur);
	uint32_t idx = vs_find_or_put(c->vs, cur, state_hash_blocks(cur, n, c->src_bh), &is_new);
	parent_put(c, idx, NO_PARENT, 0);
	if (o->compact)
		fifo_push(&q, cur);
	discovered(c, cur, idx);
	uint64_t head = 0, level_end = 1;
	uint32_t level = 0; /* depth of the states being expanded */
	while (!c->stop && head < vs_count(c->vs)) {
		if (head == level_end) {
			level++;
			level_end = vs_count(c->vs);
		}
		c->queue = vs_count(c->vs) - head;
		if (limits_hit(c))
			break;
		c->expansions++;
		uint32_t h = (uint32_t)head++;
		const uint8_t *src;
		if (o->compact) {
			memcpy(cur, q.buf + (q.head++ % q.cap) * n, n);
			src = cur;
		} else {
			src = vs_state(c->vs, h); /* arena chunks never move */
		}
		if (m->status(m, src) == MS_FAULT)
			continue;
		unsigned na = m->enabled(m, src, act);
		if (!expand_check(c, src, act, na, h))
			break;
		if (na)
			state_hash_blocks(src, n, c->src_bh);
		if (o->max_depth && level >= o->max_depth) {
			if (na)
				c->cut = 1;
			continue;
		}
		for (unsigned i = 0; i < na && !c->stop; i++) {
			if (act[i].kind == ACT_CRASH) {
				crash(c, src, h, i);
				continue;
			}
			memcpy(next, src, n);
			m->apply(m, next, &act[i]);
			c->r->transitions++;
			uint32_t k = vs_find_or_put(c->vs, next, state_hash_delta(src, c->src_bh, next, n, c->next_bh),
			                            &is_new);
			if (!is_new)
				continue;
			parent_put(c, k, h, (uint16_t)i);
			if (level + 1 > c->r->depth)
				c->r->depth = level + 1;
			if (o->compact) {
				fifo_push(&q, next);
				c->frontier_bytes = q.cap * q.sz;
			}
			discovered(c, next, k);
			if ((o->max_states && vs_count(c->vs) >= o->max_states) || memory_hit(c))
				break;
		}
	}
	free(q.buf);
	free(cur);
	free(next);
	free(act);
}

/* }=== */

/* {=== DFS ================================================================ */

static uint8_t *frame_sv(struct ctx *c, uint32_t i)
{
	return c->dsv + (size_t)i * c->svn;
}

static struct action *frame_act(struct ctx *c, uint32_t i)
{
	return c->dact + (size_t)i * (c->m->max_actions + 1);
}

static void dfs_reserve(struct ctx *c, uint32_t depth)
{
	if (depth < c->fcap)
		return;
	c->fcap = c->fcap ? c->fcap * 2 : 256;
	c->dsv = xrealloc(c->dsv, c->fcap * c->svn);
	c->frame_bh = xrealloc(c->frame_bh, c->fcap * c->nb * sizeof *c->frame_bh);
	c->dact = xrealloc(c->dact, c->fcap * (c->m->max_actions + 1) * sizeof *c->dact);
	c->frames = xrealloc(c->frames, c->fcap * sizeof *c->frames);
}

/* Push the state in frame_sv(sp): list its actions. */
static int dfs_push(struct ctx *c)
{
	uint32_t f = c->sp++;
	c->frames[f].nact = c->m->enabled(c->m, frame_sv(c, f), frame_act(c, f));
	c->frames[f].next = 0;
	if (c->m->status(c->m, frame_sv(c, f)) == MS_FAULT)
		c->frames[f].nact = 0;
	if (c->sp - 1 > c->r->depth)
		c->r->depth = c->sp - 1;
	return expand_check(c, frame_sv(c, f), frame_act(c, f), c->frames[f].nact, 0);
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
		dfs_push(c);
	while (c->sp && !c->stop) {
		struct frame *fr = &c->frames[c->sp - 1];
		if (fr->next == fr->nact) {
			c->sp--;
			continue;
		}
		c->queue = c->sp;
		if (limits_hit(c))
			break;
		c->expansions++;
		uint32_t f = c->sp - 1;
		unsigned i = fr->next++;
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
		c->r->transitions++;
		uint64_t *nbh = c->frame_bh + (size_t)(f + 1) * c->nb; /* becomes the frame's if pushed */
		vs_find_or_put(c->vs, next, state_hash_delta(frame_sv(c, f), c->frame_bh + (size_t)f * c->nb, next, n, nbh),
		               &is_new);
		if (!is_new)
			continue;
		/* the path to `next` is the stack with it on top */
		c->frames[f + 1].next = 0;
		c->sp++;
		discovered(c, next, 0);
		c->sp--;
		if (c->stop)
			break;
		if (o->max_depth && f + 1 >= o->max_depth) {
			if (m->status(m, next) == MS_RUNNING)
				c->cut = 1;
			continue;
		}
		if (!dfs_push(c))
			break;
	}
}

/* }=== */

/* The progress check's limit: time and memory, its storage counted with
** the visited set's. */
static int progress_limit(void *p, size_t bytes)
{
	struct ctx *c = p;
	if (interrupted) {
		c->r->limit = interrupt_name();
		return 1;
	}
	if (c->o->time_limit > 0 && elapsed(c) >= c->o->time_limit) {
		c->r->limit = "--time";
		return 1;
	}
	if (c->o->memory && mem_bytes(c) + bytes >= c->o->memory) {
		c->r->limit = "--memory";
		return 1;
	}
	return 0;
}

/* Livelock: a reachable state from which no terminal state is reachable. */
static void progress(struct ctx *c)
{
	struct progress_result pr;
	if (progress_check(c->m, c->vs, progress_limit, c, &pr))
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
	o->search = SEARCH_BFS;
}

void explore(const struct model *m, struct property *props, unsigned n,
             const struct explore_opts *o, struct explore_result *r)
{
	struct ctx c;
	memset(&c, 0, sizeof c);
	memset(r, 0, sizeof *r);
	r->failed = -1;
	r->stuck = -1;
	c.m = m;
	c.props = props;
	c.o = o;
	c.r = r;
	c.svn = m->sv_size;
	c.search = o->search;
	c.vs = vs_new(m->sv_size, o->compact);
	c.nb = hash_nblocks(m->sv_size);
	c.src_bh = xmalloc(c.nb * sizeof *c.src_bh);
	c.next_bh = xmalloc(c.nb * sizeof *c.next_bh);
	c.jd = judge_new(m, props, n, o->keep_going);
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
	clock_gettime(CLOCK_MONOTONIC, &c.t0);
	c.next_progress = o->progress;
	struct judgement v;
	if (judge_start(c.jd, &v))
		fail(r, &v); /* decided before exploring (not idempotent): no trace */
	else if (o->search == SEARCH_DFS)
		dfs(&c);
	else
		bfs(&c);
	if (r->verdict != V_FAIL && !c.cut && !r->limit && o->livelock && !o->compact)
		progress(&c);
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
		} else {
			r->verdict = V_PASS;
			if (judge_finish(c.jd, &v))
				fail(r, &v);
		}
	}
	judge_free(c.jd);
	free(c.first_final.step);
	ss_free(c.outcomes);
	ss_free(c.images);
	free(c.img);
	free(c.obuf);
	free(c.parent);
	free(c.pact);
	free(c.dsv);
	free(c.dact);
	free(c.frames);
	free(c.frame_bh);
	free(c.src_bh);
	free(c.next_bh);
	vs_free(c.vs);
}

void explore_result_free(struct explore_result *r)
{
	free(r->why);
	free(r->trace.step);
	free(r->trace2.step);
	free(r->olocs);
	for (unsigned i = 0; i < r->noutcomes; i++)
		free(r->outcomes[i].vals);
	free(r->outcomes);
	memset(r, 0, sizeof *r);
}
