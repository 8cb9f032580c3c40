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
** What is checked where:
**   on discovery (every new state): fault, invariants, terminal properties
**     (deterministic, exists, ~exists, forall) when the state is terminal;
**   on expansion: deadlock (running, no enabled action), crash actions
**     (durable image projected, deduplicated, recovery checked once).
** No reduction is applied: every interleaving of the machine is explored,
** so terminal states and crash images are exactly those of the machine.
*/
#include "config.h"
#include "explore/explore.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "state/hash.h"
#include "state/sideset.h"
#include "state/visited.h"
#include "util/strbuf.h"

#define NO_PARENT UINT32_MAX

struct det {
	struct sideset *seen; /* observable vector -> index+1 into traces */
	struct trace *traces;
	unsigned ntraces;
};

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
	size_t pcap;
	/* DFS stack */
	uint8_t *dsv;
	struct action *dact;
	struct frame { uint32_t nact, next; } *frames;
	size_t fcap;
	uint32_t sp;
	/* properties */
	struct det *det;
	struct sideset *outcomes, *images;
	int outcome_prop; /* first exists/~exists/forall, -1 none */
	uint32_t *obuf;
	uint8_t *img;
	int stop;
	int cut; /* a state was not expanded because of --max-depth */
	struct timespec t0;
	double next_progress;
	uint64_t expansions;
	enum search_kind search;
	size_t frontier_bytes; /* compact BFS: the queue of vectors */
	/* block hashes (state/hash.h): of the state being expanded, of a
	** successor, and in DFS of every frame */
	size_t nb;
	uint64_t *src_bh, *next_bh, *frame_bh;
	/* check idempotent: the crash-free result over the memory locations */
	uint32_t *golden;
	int *golden_locs;
	unsigned ngolden;
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

static void violation(struct ctx *c, int prop, enum prop_kind kind, uint32_t idx, int extra,
                      const char *fmt, const char *arg)
{
	struct explore_result *r = c->r;
	if (r->verdict == V_FAIL)
		return;
	r->verdict = V_FAIL;
	r->failed = prop;
	r->failed_kind = kind;
	struct strbuf b;
	sb_init(&b);
	sb_printf(&b, fmt, arg);
	r->why = xstrdup(sb_str(&b));
	sb_free(&b);
	current_path(c, idx, extra, &r->trace);
	if (!c->o->keep_going)
		c->stop = 1;
}

static void terminal(struct ctx *c, const uint8_t *sv, uint32_t idx)
{
	const struct model *m = c->m;
	c->r->terminals++;
	for (unsigned k = 0; k < c->nprops && !c->stop; k++) {
		struct property *p = &c->props[k];
		switch (p->kind) {
		case P_DETERMINISTIC: {
			struct det *d = &c->det[k];
			for (unsigned i = 0; i < p->nlocs; i++)
				c->obuf[i] = m->read(m, sv, p->locs[i]);
			int is_new;
			uintptr_t *slot = ss_put(d->seen, c->obuf, sizeof(uint32_t) * p->nlocs, &is_new);
			if (!is_new)
				break;
			*slot = d->ntraces;
			d->traces = xrealloc(d->traces, sizeof *d->traces * (d->ntraces + 1));
			memset(&d->traces[d->ntraces], 0, sizeof *d->traces);
			current_path(c, idx, -1, &d->traces[d->ntraces]);
			d->ntraces++;
			if (d->ntraces == 2 && c->r->verdict != V_FAIL) {
				violation(c, (int)k, P_DETERMINISTIC, idx, -1,
				          "two schedules end with different results%s", "");
				struct trace *a = &d->traces[0], *b = &c->r->trace;
				trace_set(&c->r->trace2, a->step, a->len);
				uint32_t i = 0;
				while (i < a->len && i < b->len && a->step[i] == b->step[i])
					i++;
				c->r->diverge = i;
			}
			break;
		}
		case P_EXISTS:
			if (!c->r->witness && expr_eval(p->cond, m, sv)) {
				c->r->witness = 1;
				if (c->r->verdict != V_FAIL)
					current_path(c, idx, -1, &c->r->trace);
			}
			break;
		case P_NOT_EXISTS:
			if (expr_eval(p->cond, m, sv))
				violation(c, (int)k, P_NOT_EXISTS, idx, -1, "a final state satisfies the condition%s", "");
			break;
		case P_FORALL:
			if (!expr_eval(p->cond, m, sv))
				violation(c, (int)k, P_FORALL, idx, -1, "a final state violates the condition%s", "");
			break;
		case P_PERSISTED:
			if (!m->durable)
				break;
			m->durable(m, sv, c->img);
			if (!expr_eval(p->cond, m, c->img))
				violation(c, (int)k, P_PERSISTED, idx, -1,
				          "the kernel finished, but what is durable violates the condition%s", "");
			break;
		default:
			break;
		}
	}
	if (c->outcome_prop >= 0 && c->r->nolocs) {
		struct explore_result *r = c->r;
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
			oc->sat = expr_eval(c->props[c->outcome_prop].cond, m, sv);
		}
		r->outcomes[*slot].count++;
	}
}

/* Checks on a newly discovered state. */
static void discovered(struct ctx *c, const uint8_t *sv, uint32_t idx)
{
	const struct model *m = c->m;
	enum model_status st = m->status(m, sv);
	if (st == MS_FAULT) {
		violation(c, -1, P_FAULT, idx, -1, "the machine faulted%s", "");
		return;
	}
	for (unsigned k = 0; k < c->nprops && !c->stop; k++)
		if (c->props[k].kind == P_INVARIANT && !expr_eval(c->props[k].cond, m, sv))
			violation(c, (int)k, P_INVARIANT, idx, -1, "a reachable state violates the invariant%s", "");
	if (st == MS_TERMINAL && !c->stop)
		terminal(c, sv, idx);
}

/* A crash in state sv: what survives is checked once per distinct image,
** after the machine's recovery, against every `recoverable` condition. */
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
	for (unsigned k = 0; k < c->nprops && !c->stop; k++)
		if (c->props[k].kind == P_DURABLE && !expr_eval(c->props[k].cond, m, c->img))
			violation(c, (int)k, P_DURABLE, idx, (int)ai,
			          "a crash here leaves a durable image that violates the condition%s", "");
	struct strbuf why;
	sb_init(&why);
	if (c->golden && !c->stop) {
		/* idempotency, confirmed: re-execution from what survived gives
		** the crash-free result */
		uint8_t *re = xmalloc(m->sv_size);
		memcpy(re, c->img, m->sv_size);
		int k = -1;
		for (unsigned i = 0; i < c->nprops; i++)
			if (c->props[i].kind == P_IDEMPOTENT)
				k = (int)i;
		if (!m->reexecute(m, re, &why))
			violation(c, k, P_IDEMPOTENT, idx, (int)ai, "re-execution after this crash fails: %s", sb_str(&why));
		else
			for (unsigned i = 0; i < c->ngolden && !c->stop; i++)
				if (m->read(m, re, c->golden_locs[i]) != c->golden[i])
					violation(c, k, P_IDEMPOTENT, idx, (int)ai,
					          "re-executing the kernel after this crash does not give the crash-free result%s", "");
		free(re);
		sb_reset(&why);
	}
	if (m->recover && !c->stop && !m->recover(m, c->img, &why)) {
		int k = -1;
		for (unsigned i = 0; i < c->nprops; i++)
			if (c->props[i].kind == P_RECOVERABLE)
				k = (int)i;
		violation(c, k, P_RECOVERABLE, idx, (int)ai, "the recovery program fails on this crash image: %s",
		          sb_str(&why));
	}
	sb_free(&why);
	for (unsigned k = 0; k < c->nprops && !c->stop; k++)
		if (c->props[k].kind == P_RECOVERABLE && !expr_eval(c->props[k].cond, m, c->img))
			violation(c, (int)k, P_RECOVERABLE, idx, (int)ai,
			          "after a crash here and recovery, the image violates the condition%s", "");
}

static int limits_hit(struct ctx *c)
{
	const struct explore_opts *o = c->o;
	if (o->max_states && vs_count(c->vs) >= o->max_states) {
		c->r->limit = "--max-states";
		return 1;
	}
	if ((c->expansions & 1023) == 0) {
		double t = elapsed(c);
		if (o->time_limit > 0 && t >= o->time_limit) {
			c->r->limit = "--time";
			return 1;
		}
		if (o->memory && mem_bytes(c) >= o->memory) {
			c->r->limit = "--memory";
			return 1;
		}
		if (o->progress > 0 && t >= c->next_progress) {
			c->next_progress = t + o->progress;
			fprintf(stderr, "gpumc: %llu states, %llu transitions, depth %u, %.0f states/s, %.1f MB\n",
			        (unsigned long long)vs_count(c->vs), (unsigned long long)c->r->transitions,
			        c->r->depth, t > 0 ? (double)vs_count(c->vs) / t : 0.0,
			        (double)mem_bytes(c) / 1048576.0);
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

/* Deadlock check at expansion. */
static int expand_check(struct ctx *c, const uint8_t *sv, const struct action *act, unsigned nact, uint32_t idx)
{
	/* a crash is always possible but is no progress: a running state
	** whose only way on is a crash is a deadlock */
	unsigned moves = 0;
	for (unsigned i = 0; i < nact; i++)
		moves += act[i].kind != ACT_CRASH;
	if (moves == 0 && c->m->status(c->m, sv) == MS_RUNNING) {
		violation(c, -1, P_DEADLOCK, idx, -1, "no component can move, but the kernel has not finished%s", "");
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
			if (o->max_states && vs_count(c->vs) >= o->max_states)
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
	c.m = m;
	c.props = props;
	c.nprops = n;
	c.o = o;
	c.r = r;
	c.svn = m->sv_size;
	c.search = o->search;
	c.vs = vs_new(m->sv_size, o->compact);
	c.nb = hash_nblocks(m->sv_size);
	c.src_bh = xmalloc(c.nb * sizeof *c.src_bh);
	c.next_bh = xmalloc(c.nb * sizeof *c.next_bh);
	c.det = xcalloc(n, sizeof *c.det);
	c.outcome_prop = -1;
	unsigned maxl = 0;
	for (unsigned k = 0; k < n; k++) {
		if (props[k].kind == P_DETERMINISTIC) {
			c.det[k].seen = ss_new();
			if (props[k].nlocs > maxl)
				maxl = props[k].nlocs;
		}
		if ((props[k].kind == P_EXISTS || props[k].kind == P_NOT_EXISTS || props[k].kind == P_FORALL) &&
		    c.outcome_prop < 0)
			c.outcome_prop = (int)k;
	}
	/* outcome locations: every location of the exists/forall conditions */
	int locs[256];
	unsigned nl = 0;
	for (unsigned k = 0; k < n; k++)
		if (props[k].kind == P_EXISTS || props[k].kind == P_NOT_EXISTS || props[k].kind == P_FORALL)
			nl = expr_locs(props[k].cond, locs, nl, 256);
	r->nolocs = nl;
	r->olocs = xmalloc(sizeof(int) * (nl ? nl : 1));
	memcpy(r->olocs, locs, sizeof(int) * nl);
	if (nl > maxl)
		maxl = nl;
	c.obuf = xmalloc(sizeof(uint32_t) * (maxl ? maxl : 1));
	c.outcomes = ss_new();
	c.images = ss_new();
	c.img = xmalloc(m->durable_size ? m->durable_size : 1);
	clock_gettime(CLOCK_MONOTONIC, &c.t0);
	c.next_progress = o->progress;
	for (unsigned k = 0; k < n && !c.stop; k++) {
		if (props[k].kind != P_IDEMPOTENT || !m->idempotent || !m->reexecute)
			continue;
		struct strbuf why;
		sb_init(&why);
		if (!m->idempotent(m, &why)) {
			/* statically not idempotent: no exploration can change that */
			r->verdict = V_FAIL;
			r->failed = (int)k;
			r->failed_kind = P_IDEMPOTENT;
			r->why = xstrdup(sb_str(&why));
			c.stop = 1;
		} else if (!c.golden) {
			/* the crash-free result: the kernel re-executed from the start */
			uint8_t *g0 = xmalloc(m->sv_size), *img = xmalloc(m->sv_size);
			m->init(m, g0);
			m->durable(m, g0, img);
			sb_reset(&why);
			if (!m->reexecute(m, img, &why)) {
				/* without a crash-free result there is nothing to confirm */
				r->verdict = V_FAIL;
				r->failed = (int)k;
				r->failed_kind = P_IDEMPOTENT;
				struct strbuf msg;
				sb_init(&msg);
				sb_printf(&msg, "the kernel does not run to completion on its own: %s", sb_str(&why));
				r->why = xstrdup(sb_str(&msg));
				sb_free(&msg);
				c.stop = 1;
			} else {
				c.ngolden = m->default_observables(m, NULL, 0);
				c.golden_locs = xmalloc(sizeof(int) * (c.ngolden ? c.ngolden : 1));
				m->default_observables(m, c.golden_locs, c.ngolden);
				c.golden = xmalloc(sizeof(uint32_t) * (c.ngolden ? c.ngolden : 1));
				for (unsigned i = 0; i < c.ngolden; i++)
					c.golden[i] = m->read(m, img, c.golden_locs[i]);
			}
			free(g0);
			free(img);
		}
		sb_free(&why);
	}
	if (!c.stop) { /* else decided before exploring (not idempotent) */
		if (o->search == SEARCH_DFS)
			dfs(&c);
		else
			bfs(&c);
	}
	free(c.golden);
	free(c.golden_locs);
	r->states = vs_count(c.vs);
	r->seconds = elapsed(&c);
	r->bytes = mem_bytes(&c);
	r->omission = vs_omission(c.vs);
	if (r->verdict != V_FAIL) {
		if (c.cut && !r->limit)
			r->limit = "--max-depth";
		if (r->limit) {
			r->verdict = V_INCOMPLETE;
		} else {
			r->verdict = V_PASS;
			for (unsigned k = 0; k < n; k++)
				if (props[k].kind == P_EXISTS && !r->witness) {
					r->verdict = V_FAIL;
					r->failed = (int)k;
					r->failed_kind = P_EXISTS;
					r->why = xstrdup("no final state satisfies the condition");
					break;
				}
		}
	}
	for (unsigned k = 0; k < n; k++) {
		for (unsigned i = 0; i < c.det[k].ntraces; i++)
			free(c.det[k].traces[i].step);
		free(c.det[k].traces);
		ss_free(c.det[k].seen);
	}
	free(c.det);
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
