/*
** The scoped-RMO axiomatic model of thesis Fig. 6.1, computed by
** enumerating candidate executions; independent of the operational engine
** so it can serve as the differential oracle.
**
**   let cta_fence = membar.cta | membar.gl        (and .sys)
**   let device_fence = membar.gl                  (and .sys)
**   let cta_ghb = RMO_ghb(cta_fence) & int-cta
**   let device_ghb = RMO_ghb(device_fence) & int-dev
**   acyclic cta_ghb
**   acyclic device_ghb
**
** with RMO_ghb(F) = ppo | F | rfe | co | fr and ppo = addr | data | rmw
** (RMO orders a load only before dependent accesses).  Every candidate
** also satisfies RMO's uniproc check, acyclic(po-loc \ RR | rf | co | fr)
** (SPARC RMO lets same-address loads reorder: CoRR is allowed), and
** atomicity of RMWs.
**
** Candidates: each thread is run with every choice of value for each load
** from the location's value domain (a fixpoint of the values stores can
** write), recording events, dependencies and final registers; then rf and
** co are enumerated over the combination of thread executions.
*/
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machines/litmus_alu.h"
#include "litmus/axiomatic.h"
#include "util/strbuf.h"
#include "util/interrupt.h"
#include "util/clock.h"

/* A limit was hit: the enumeration unwinds, the run is incomplete. */
static int ax_stop(struct ax *a)
{
	if (a->stop)
		return 1;
	const char *why = NULL;
	if (interrupted)
		why = interrupt_name();
	else if (a->o->max_states && a->r->states >= a->o->max_states)
		why = "--max-states";
	else if (a->o->memory && a->bytes >= a->o->memory)
		why = "--memory";
	else if (a->o->time_limit > 0 && (a->ticks++ & 255) == 0) {
		if (clock_since(a->t0) >= a->o->time_limit)
			why = "--time";
	}
	if (!why)
		return 0;
	a->stop = 1;
	a->r->incomplete = 1;
	a->r->why = xstrdup(why);
	return 1;
}

static int set_add(uint32_t *set, int *n, uint32_t v)
{
	for (int i = 0; i < *n; i++)
		if (set[i] == v)
			return 0;
	if (*n >= MAXV)
		return -1;
	set[(*n)++] = v;
	return 1;
}

static void dom_add(struct ax *a, int ti, int l, uint32_t v)
{
	int rc = set_add(a->dom[ti][l], &a->ndom[ti][l], v);
	if (rc < 0)
		a->overflow = 1;
	else if (rc)
		a->grew = 1;
}

/* ---- per-thread executions ---------------------------------------------- */

struct tstate {
	int pc;
	uint32_t regs[LIT_MAXR];
	uint64_t taint[LIT_MAXR];
	struct texec x;
};

static int run_thread(struct ax *a, int ti, struct tstate s, int record);

static void add_ev(struct tstate *s, const struct lit_ins *in, int kind, int loc, uint32_t val, int fence,
                   uint64_t addr, uint64_t data)
{
	struct ev *e = &s->x.ev[s->x.nev++];
	e->sem = in->sem;
	e->scope = in->scope;
	e->ins = s->pc - 1;
	e->kind = kind;
	e->loc = loc;
	e->val = val;
	e->fence = fence;
	e->rmw = -1;
	e->addr = addr;
	e->data = data;
}

static uint64_t taint_of(const struct tstate *s, const struct lit_opnd *o)
{
	return o->kind == OK_REG ? s->taint[o->reg] : 0;
}

/* Run thread ti from state s, branching on each load's value; record
** complete executions when record is set, else only grow the domains.
** Returns -1 on a fault (address naming no location). */
static int run_thread(struct ax *a, int ti, struct tstate s, int record)
{
	const struct lit_thread *th = &a->t->thr[ti];
	if (ax_stop(a))
		return 0;
	while (s.pc < th->nins) {
		const struct lit_ins *in = &th->ins[s.pc++];
		if (!lit_guard(in, s.regs))
			continue;
		if (s.x.nev + 2 > MAXEV / 2)
			return -2;
		if (in->op == OP_MEMBAR) {
			add_ev(&s, in, EV_F, -1, 0, in->scope, 0, 0);
			continue;
		}
		if (!lit_is_mem(in)) {
			s.regs[in->dst] = lit_alu(in, s.regs);
			s.taint[in->dst] = taint_of(&s, &in->a) | taint_of(&s, &in->b) | taint_of(&s, &in->c);
			continue;
		}
		int l = litmus_addr_loc(a->t, lit_opnd_val(&in->addr, s.regs));
		if (l < 0)
			return -1;
		uint64_t at = taint_of(&s, &in->addr);
		if (in->op == OP_ST) {
			uint32_t v = lit_opnd_val(&in->a, s.regs);
			dom_add(a, ti, l, v);
			add_ev(&s, in, EV_W, l, v, -1, at, taint_of(&s, &in->a));
			continue;
		}
		/* a load or an atomic: branch on the value read, which comes
		** from the initial state, another thread, or an earlier store of
		** this thread (never from its own future) */
		int nd = 0;
		uint32_t vals[MAXV];
		set_add(vals, &nd, a->t->loc[l].init);
		for (int j = 0; j < a->t->nthreads; j++)
			for (int k = 0; j != ti && k < a->ndom[j][l]; k++)
				if (set_add(vals, &nd, a->dom[j][l][k]) < 0)
					a->overflow = 1;
		for (int k = 0; k < s.x.nev; k++)
			if (s.x.ev[k].kind == EV_W && s.x.ev[k].loc == l && set_add(vals, &nd, s.x.ev[k].val) < 0)
				a->overflow = 1;
		if (a->overflow)
			return -3;
		for (int i = 0; i < nd; i++) {
			struct tstate c = s;
			int r = c.x.nev;
			add_ev(&c, in, EV_R, l, vals[i], -1, at, 0);
			if (in->dst >= 0) { /* red has none */
				c.regs[in->dst] = vals[i];
				c.taint[in->dst] = 1ull << r;
			}
			if (in->op == OP_ATOM) {
				int writes;
				uint32_t nv = lit_atom_new(in, vals[i], s.regs, &writes);
				if (writes) {
					dom_add(a, ti, l, nv);
					uint64_t dt = (uint64_t)1 << r | taint_of(&s, &in->b) | taint_of(&s, &in->c);
					add_ev(&c, in, EV_W, l, nv, -1, at, dt);
					c.x.ev[r].rmw = r + 1;
					c.x.ev[r + 1].rmw = r;
				}
			}
			int rc = run_thread(a, ti, c, record);
			if (rc < 0)
				return rc;
		}
		return 0;
	}
	if (record) {
		struct tlist *L = &a->th[ti];
		if (L->n == L->cap) {
			L->cap = L->cap ? 2 * L->cap : 16;
			L->x = xrealloc(L->x, (size_t)L->cap * sizeof *L->x);
			a->bytes += (size_t)L->cap / 2 * sizeof *L->x;
		}
		memcpy(s.x.regs, s.regs, sizeof s.regs);
		L->x[L->n++] = s.x;
	}
	return 0;
}

static int thread_runs(struct ax *a, int record, struct strbuf *err)
{
	for (int i = 0; i < a->t->nthreads; i++) {
		struct tstate s;
		memset(&s, 0, sizeof s);
		memcpy(s.regs, a->t->thr[i].reginit, sizeof s.regs);
		int rc = run_thread(a, i, s, record);
		if (rc == -1) {
			sb_printf(err, "%s: T%d uses an address that names no location", a->t->file, a->t->thr[i].id);
			return -1;
		}
		if (rc == -3 || a->overflow) {
			sb_printf(err, "%s: too many distinct values for the axiomatic engine", a->t->file);
			return -1;
		}
		if (rc == -2) {
			sb_printf(err, "%s: T%d has too many events for the axiomatic engine", a->t->file, a->t->thr[i].id);
			return -1;
		}
	}
	return 0;
}

/* ---- relations and axioms ------------------------------------------------ */

/* Is the relation (adjacency bit rows) acyclic?  Kahn's algorithm. */
int ax_acyclic(const uint64_t *rel, int n)
{
	int indeg[MAXEV] = { 0 }, stack[MAXEV], top = 0, seen = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (rel[i] >> j & 1)
				indeg[j]++;
	for (int i = 0; i < n; i++)
		if (!indeg[i])
			stack[top++] = i;
	while (top) {
		int i = stack[--top];
		seen++;
		for (int j = 0; j < n; j++)
			if ((rel[i] >> j & 1) && --indeg[j] == 0)
				stack[top++] = j;
	}
	return seen == n;
}

int ax_co_before(const struct ax *a, int w1, int w2)
{
	return a->loc[w1] == a->loc[w2] && a->coidx[w1] < a->coidx[w2];
}

static int rmo_consistent(struct ax *a)
{
	int n = a->n;
	uint64_t com[MAXEV] = { 0 }, uni[MAXEV] = { 0 }, cta[MAXEV] = { 0 }, dev[MAXEV] = { 0 };
	/* rf, co, fr */
	for (int i = 0; i < n; i++) {
		if (a->kind[i] == EV_W)
			for (int j = 0; j < n; j++)
				if (a->kind[j] == EV_W && ax_co_before(a, i, j))
					com[i] |= 1ull << j;
		if (a->kind[i] == EV_R) {
			int w = a->rf[i];
			for (int j = 0; j < n; j++)
				if (a->kind[j] == EV_W && ax_co_before(a, w, j))
					com[i] |= 1ull << j; /* fr */
		}
	}
	/* atomicity: nothing co-between the RMW's source and its write */
	for (int i = 0; i < n; i++)
		if (a->kind[i] == EV_R && a->rmw_w[i] >= 0) {
			int w = a->rmw_w[i];
			if (a->coidx[w] != a->coidx[a->rf[i]] + 1)
				return 0;
		}
	/* uniproc: po-loc without read-read pairs, rf, co, fr */
	for (int i = 0; i < n; i++) {
		uni[i] = com[i];
		for (int j = 0; j < n; j++) {
			if ((a->po[i] >> j & 1) && a->loc[i] == a->loc[j] && a->loc[i] >= 0 &&
			    !(a->kind[i] == EV_R && a->kind[j] == EV_R))
				uni[i] |= 1ull << j;
		}
	}
	for (int j = 0; j < n; j++)
		if (a->kind[j] == EV_R)
			uni[a->rf[j]] |= 1ull << j;
	if (!ax_acyclic(uni, n))
		return 0;
	/* the two scoped global-happens-before relations */
	for (int i = 0; i < n; i++) {
		uint64_t base = a->ppo[i] | com[i];
		cta[i] = base | a->fcta[i];
		dev[i] = base | a->fdev[i];
	}
	for (int j = 0; j < n; j++)
		if (a->kind[j] == EV_R && a->thr[a->rf[j]] != a->thr[j]) {
			cta[a->rf[j]] |= 1ull << j; /* rfe */
			dev[a->rf[j]] |= 1ull << j;
		}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (a->cta[i] >= 0 && a->cta[j] >= 0 && a->cta[i] != a->cta[j])
				cta[i] &= ~(1ull << j); /* & int-cta (init writes belong everywhere) */
	return ax_acyclic(cta, n) && ax_acyclic(dev, n);
}

static void record(struct ax *a)
{
	const struct litmus *t = a->t;
	struct lit_run *r = a->r;
	/* final memory: the co-last write of each location */
	for (int l = 0; l < t->nlocs; l++) {
		uint32_t v = t->loc[l].init;
		int best = -1;
		for (int i = 0; i < a->n; i++)
			if (a->kind[i] == EV_W && a->loc[i] == l && a->coidx[i] > best) {
				best = a->coidx[i];
				v = a->val[i];
			}
		a->valuation[l] = v;
	}
	for (int i = 0; i < t->nthreads; i++) {
		const struct texec *x = &a->th[i].x[a->choice[i]];
		for (int reg = 0; reg < LIT_MAXR; reg++)
			a->valuation[t->nlocs + i * LIT_MAXR + reg] = x->regs[reg];
	}
	if (r->each) {
		r->each(r->each_ctx, a->valuation, r->races != a->races_seen);
		a->races_seen = r->races;
	}
	uint32_t vals[LIT_MAXO];
	for (int k = 0; k < r->nolocs; k++)
		vals[k] = a->valuation[r->olocs[k]];
	for (unsigned k = 0; k < r->nout; k++)
		if (memcmp(r->out[k].vals, vals, sizeof(uint32_t) * (size_t)r->nolocs) == 0) {
			r->out[k].count++;
			return;
		}
	r->out = xrealloc(r->out, (r->nout + 1) * sizeof *r->out);
	struct lit_outcome *o = &r->out[r->nout++];
	memset(o, 0, sizeof *o);
	memcpy(o->vals, vals, sizeof(uint32_t) * (size_t)r->nolocs);
	o->count = 1;
	o->sat = a->cond ? expr_eval(a->cond, &a->vm, (const uint8_t *)a->valuation) : 0;
}

static void enum_co(struct ax *a, int l);

/* Every order of the writes w[k..n) of location l after w[0], the init. */
static void perm(struct ax *a, int l, int k)
{
	int n = a->nw[l], *w = a->wlist[l];
	if (k >= n) {
		for (int j = 0; j < n; j++)
			a->coidx[w[j]] = j;
		enum_co(a, l + 1);
		return;
	}
	for (int i = k; i < n && !ax_stop(a); i++) {
		int tmp = w[k];
		w[k] = w[i];
		w[i] = tmp;
		perm(a, l, k + 1);
		w[i] = w[k];
		w[k] = tmp;
	}
}

/* Enumerate co location by location, then check the candidate. */
static void enum_co(struct ax *a, int l)
{
	if (l == a->t->nlocs) {
		a->r->states++;
		if (a->consistent(a)) {
			a->r->transitions++;
			record(a);
		}
		return;
	}
	perm(a, l, 1);
}

static void enum_rf(struct ax *a, int e)
{
	while (e < a->n && a->kind[e] != EV_R)
		e++;
	if (e == a->n) {
		enum_co(a, 0);
		return;
	}
	for (int w = 0; w < a->n && !ax_stop(a); w++)
		if (a->kind[w] == EV_W && a->loc[w] == a->loc[e] && a->val[w] == a->val[e]) {
			a->rf[e] = w;
			enum_rf(a, e + 1);
		}
}

static int build(struct ax *a)
{
	const struct litmus *t = a->t;
	int n = 0;
	memset(a->nw, 0, sizeof a->nw);
	for (int l = 0; l < t->nlocs; l++) {
		a->thr[n] = -1;
		a->cta[n] = -1;
		a->kind[n] = EV_W;
		a->loc[n] = l;
		a->val[n] = t->loc[l].init;
		a->fence[n] = -1;
		a->sem[n] = SEM_RELAXED;
		a->scope[n] = SC_SYS;
		a->ins[n] = -1;
		a->po[n] = a->ppo[n] = a->fcta[n] = a->fdev[n] = 0;
		a->rmw_w[n] = -1;
		a->wlist[l][a->nw[l]++] = n;
		n++;
	}
	for (int i = 0; i < t->nthreads; i++) {
		const struct texec *x = &a->th[i].x[a->choice[i]];
		int base = n;
		if (n + x->nev > MAXEV)
			return -1;
		for (int k = 0; k < x->nev; k++, n++) {
			const struct ev *e = &x->ev[k];
			a->thr[n] = i;
			a->cta[n] = t->thr[i].cta;
			a->kind[n] = e->kind;
			a->loc[n] = e->loc;
			a->val[n] = e->val;
			a->fence[n] = e->fence;
			a->sem[n] = e->sem;
			a->scope[n] = e->scope;
			a->ins[n] = e->ins;
			a->rmw_w[n] = (e->kind == EV_R && e->rmw >= 0) ? base + e->rmw : -1;
			a->po[n] = a->ppo[n] = a->fcta[n] = a->fdev[n] = 0;
			if (e->kind == EV_W)
				a->wlist[e->loc][a->nw[e->loc]++] = n;
		}
		for (int k = 0; k < x->nev; k++) {
			int ek = base + k;
			for (int j = k + 1; j < x->nev; j++) {
				int ej = base + j;
				a->po[ek] |= 1ull << ej;
				const struct ev *e = &x->ev[j];
				if ((e->addr >> k & 1) || (e->data >> k & 1) || (x->ev[k].rmw == j))
					a->ppo[ek] |= 1ull << ej;
				if (x->ev[k].kind == EV_F || e->kind == EV_F)
					continue;
				for (int f = k + 1; f < j; f++)
					if (x->ev[f].kind == EV_F) {
						a->fcta[ek] |= 1ull << ej;
						if (x->ev[f].fence != SC_CTA)
							a->fdev[ek] |= 1ull << ej;
					}
			}
		}
	}
	a->n = n;
	return 0;
}

static void combos(struct ax *a, int i)
{
	if (i == a->t->nthreads) {
		if (build(a) == 0)
			enum_rf(a, 0);
		return;
	}
	for (int k = 0; k < a->th[i].n && !ax_stop(a); k++) {
		a->choice[i] = k;
		combos(a, i + 1);
	}
}

int scoped_rmo_run(const struct litmus *t, const struct expr *cond, const struct explore_opts *o,
                   struct lit_run *r, struct strbuf *err)
{
	return ax_enumerate(t, cond, o, r, rmo_consistent, err);
}

int ax_enumerate(const struct litmus *t, const struct expr *cond, const struct explore_opts *o, struct lit_run *r,
                 int (*consistent)(struct ax *a), struct strbuf *err)
{
	struct ax *a = xcalloc(1, sizeof *a);
	int rc = -1;
	a->consistent = consistent;
	a->o = o;
	clock_gettime(CLOCK_MONOTONIC, &a->t0);
	a->t = t;
	a->cond = cond;
	a->r = r;
	lit_valuation_model(t, &a->vm);
	a->valuation = xcalloc((size_t)t->nlocs + LIT_MAXT * LIT_MAXR, sizeof(uint32_t));
	/* Value domains: iterate thread runs until no store adds a value, but
	** at most W+1 rounds for W static writes.  Data dependencies are in
	** ppo and rfe in both ghb relations, so a consistent execution has no
	** thin-air values: each value it writes derives from a chain of at most
	** W writes, all reached within W rounds.  (Counters like two threads
	** incrementing c would otherwise grow the domain forever.) */
	int writes = 0;
	for (int i = 0; i < t->nthreads; i++)
		for (int j = 0; j < t->thr[i].nins; j++)
			writes += t->thr[i].ins[j].op == OP_ST || t->thr[i].ins[j].op == OP_ATOM;
	for (int round = 0; round <= writes; round++) {
		a->grew = 0;
		if (thread_runs(a, 0, err))
			goto out;
		if (!a->grew)
			break;
	}
	if (thread_runs(a, 1, err))
		goto out;
	combos(a, 0);
	rc = 0;
out:;
	r->seconds = clock_since(a->t0);
	for (int i = 0; i < LIT_MAXT; i++)
		free(a->th[i].x);
	free(a->valuation);
	free(a);
	return rc;
}
