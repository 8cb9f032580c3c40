/*
** The PTX ISA memory consistency model (PTX ISA 6.0+, "Memory Consistency
** Model"), axiomatic, in the formalisation of Lustig, Sahasrabuddhe and
** Giroux (ASPLOS 2019, NVlabs/ptxmemorymodel ptx.als), over the candidate
** executions of the shared enumerator (axiomatic.h).  Axiomatic because
** the ISA states the model as axioms over relations; an operational PTX
** machine would have to be proved equivalent to them first.
**
** Events: reads, writes (an atom is a read and a write joined by rmw),
** fences.  Each carries the instruction's semantics and scope (ir/ptx.h:
** ld/st .weak by default, .volatile = .relaxed.sys, atom .relaxed.gpu,
** membar = fence.sc, fence = fence.acq_rel).  An atom's read is an acquire
** with .acquire/.acq_rel, its write a release with .release/.acq_rel.
**
**   morally strong  ms(X,Y): same thread; or both strong (not .weak) and
**                   each one's scope includes the other's thread (.cta: same
**                   CTA; .gpu/.sys: every thread of a test)
**   observation     obs = ms-rf, closed under obs;rmw;obs
**   release pattern prefix: release write W -> W or a po-later same-address
**                   write; acq_rel/sc fence F -> every po-later write
**   acquire pattern suffix: read R -> R itself if acquire, or a po-later
**                   same-address acquire read; R -> every po-later
**                   acq_rel/sc fence
**   sync            ms & (prefix;obs;suffix), head to tail
**   sc              Fence-SC order: a total order of the ms pairs of
**                   fence.sc (enumerated: every permutation is tried)
**   cause_base      (po* ; (sync | sc) ; po*)+
**   cause           cause_base | obs;(po-loc | cause_base)
**
** Axioms (numbered as checked in ptx_consistent):
**   1 no thin air   acyclic(rf | dep)        dep: addr, data, rmw
**   2 SC per location acyclic(ms(com) | po-loc)   com = rf | co | fr
**   3 atomicity     no rmw R->W with R ms-fr W' and W' ms-co W
**   4 coherence     same-address writes W cause W' => W co W'
**   5 causality     irreflexive((rf | fr)? ; cause)
** A consistent execution has a data race when two conflicting accesses of
** different threads are neither morally strong nor ordered by cause; the
** run counts such executions (lit_run.races) and names the first pair.
**
** One deliberate difference from ptx.als: co is a total order of each
** location's writes (herd's convention, which also defines final memory);
** ptx.als orders weak writes of different threads only within a scope.
** The two differ only on racy weak writes, which are reported as races.
*/
#include "config.h"

#include <string.h>

#include "litmus/axiomatic.h"
#include "util/strbuf.h"

#define BIT(j) (1ull << (j))

static int is_mem(const struct ax *a, int i)
{
	return a->kind[i] == EV_R || a->kind[i] == EV_W;
}

static int strong(const struct ax *a, int i)
{
	return a->kind[i] == EV_F || a->sem[i] != SEM_WEAK;
}

/* Does the scope of event i include event j's thread? */
static int includes(const struct ax *a, int i, int j)
{
	return a->scope[i] != SC_CTA || a->cta[j] < 0 || a->cta[i] < 0 || a->cta[i] == a->cta[j];
}

static int morally_strong(const struct ax *a, int i, int j)
{
	if (a->thr[i] < 0 || a->thr[j] < 0 || a->thr[i] == a->thr[j])
		return 1; /* the init writes precede every thread */
	return strong(a, i) && strong(a, j) && includes(a, i, j) && includes(a, j, i);
}

static int acquire(const struct ax *a, int i)
{
	return a->kind[i] == EV_R && (a->sem[i] == SEM_ACQUIRE || a->sem[i] == SEM_ACQ_REL);
}

static int release(const struct ax *a, int i)
{
	return a->kind[i] == EV_W && a->thr[i] >= 0 && (a->sem[i] == SEM_RELEASE || a->sem[i] == SEM_ACQ_REL);
}

/* fence.sc is an acq_rel fence with a place in Fence-SC order */
static int fence_ar(const struct ax *a, int i)
{
	return a->kind[i] == EV_F;
}

static void closure(uint64_t *rel, int n)
{
	for (int k = 0; k < n; k++)
		for (int i = 0; i < n; i++)
			if (rel[i] >> k & 1)
				rel[i] |= rel[k];
}

/* rows[i] = the composition (x;y)[i] */
static void compose(const uint64_t *x, const uint64_t *y, uint64_t *out, int n)
{
	for (int i = 0; i < n; i++) {
		uint64_t r = 0;
		for (int k = 0; k < n; k++)
			if (x[i] >> k & 1)
				r |= y[k];
		out[i] = r;
	}
}

/* Per-candidate relations that do not depend on the Fence-SC order. */
struct rels {
	uint64_t rf[MAXEV], fr[MAXEV], co[MAXEV], poloc[MAXEV], pstar[MAXEV];
	uint64_t obs[MAXEV], sync[MAXEV];
	int scf[MAXEV], nscf; /* the fence.sc events */
};

static void base_relations(const struct ax *a, struct rels *x)
{
	int n = a->n;
	memset(x, 0, sizeof *x);
	for (int i = 0; i < n; i++) {
		x->pstar[i] = a->po[i] | BIT(i);
		if (a->kind[i] == EV_F && a->sem[i] == SEM_SC)
			x->scf[x->nscf++] = i;
		for (int j = 0; j < n; j++) {
			if ((a->po[i] >> j & 1) && is_mem(a, i) && is_mem(a, j) && a->loc[i] == a->loc[j])
				x->poloc[i] |= BIT(j);
			if (a->kind[i] == EV_W && a->kind[j] == EV_W && ax_co_before(a, i, j))
				x->co[i] |= BIT(j);
		}
		if (a->kind[i] == EV_R) {
			x->rf[a->rf[i]] |= BIT(i);
			for (int j = 0; j < n; j++)
				if (a->kind[j] == EV_W && ax_co_before(a, a->rf[i], j))
					x->fr[i] |= BIT(j);
		}
	}
	/* observation: morally strong rf, then through atomics */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if ((x->rf[i] >> j & 1) && morally_strong(a, i, j))
				x->obs[i] |= BIT(j);
	for (int grew = 1; grew;) {
		grew = 0;
		for (int i = 0; i < n; i++)
			for (int r = 0; r < n; r++)
				if ((x->obs[i] >> r & 1) && a->rmw_w[r] >= 0 && (x->obs[i] | x->obs[a->rmw_w[r]]) != x->obs[i]) {
					x->obs[i] |= x->obs[a->rmw_w[r]];
					grew = 1;
				}
	}
	/* release and acquire patterns, and sync between them */
	uint64_t prefix[MAXEV] = { 0 }, suffix[MAXEV] = { 0 }, po_obs[MAXEV];
	for (int i = 0; i < n; i++) {
		if (release(a, i)) {
			prefix[i] = BIT(i);
			for (int j = 0; j < n; j++)
				if ((x->poloc[i] >> j & 1) && a->kind[j] == EV_W)
					prefix[i] |= BIT(j);
		} else if (fence_ar(a, i)) {
			for (int j = 0; j < n; j++)
				if ((a->po[i] >> j & 1) && a->kind[j] == EV_W)
					prefix[i] |= BIT(j);
		}
		if (a->kind[i] == EV_R)
			for (int j = 0; j < n; j++)
				if ((j == i && acquire(a, i)) || ((x->poloc[i] >> j & 1) && acquire(a, j)) ||
				    ((a->po[i] >> j & 1) && fence_ar(a, j)))
					suffix[i] |= BIT(j);
	}
	compose(prefix, x->obs, po_obs, n);
	compose(po_obs, suffix, x->sync, n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if ((x->sync[i] >> j & 1) && !morally_strong(a, i, j))
				x->sync[i] &= ~BIT(j);
}

/* cause under one Fence-SC order (sc rows); 0 when an axiom fails. */
static int check_order(const struct ax *a, const struct rels *x, const uint64_t *sc, uint64_t *cause)
{
	int n = a->n;
	uint64_t s[MAXEV] = { 0 }, t[MAXEV], base[MAXEV], tail[MAXEV] = { 0 };
	for (int i = 0; i < n; i++)
		s[i] = x->sync[i] | sc[i];
	compose(x->pstar, s, t, n);
	compose(t, x->pstar, base, n);
	closure(base, n);
	for (int i = 0; i < n; i++)
		tail[i] = x->poloc[i] | base[i];
	compose(x->obs, tail, cause, n);
	for (int i = 0; i < n; i++)
		cause[i] |= base[i];
	for (int i = 0; i < n; i++) {
		if (cause[i] >> i & 1)
			return 0; /* 5: irreflexive(cause) */
		for (int j = 0; j < n; j++) {
			if (!(cause[i] >> j & 1))
				continue;
			/* 4: coherence */
			if (a->kind[i] == EV_W && a->kind[j] == EV_W && a->loc[i] == a->loc[j] && !(x->co[i] >> j & 1))
				return 0;
			/* 5: causality, j (rf|fr) i with i cause j */
			if ((x->rf[j] | x->fr[j]) >> i & 1)
				return 0;
		}
	}
	return 1;
}

/* Permute the fence.sc events from k on; try each total order. */
static int try_orders(const struct ax *a, const struct rels *x, int *ord, int k, uint64_t *cause)
{
	if (k >= x->nscf) {
		uint64_t sc[MAXEV] = { 0 };
		for (int p = 0; p < x->nscf; p++)
			for (int q = p + 1; q < x->nscf; q++)
				if (morally_strong(a, ord[p], ord[q]))
					sc[ord[p]] |= BIT(ord[q]);
		return check_order(a, x, sc, cause);
	}
	for (int i = k; i < x->nscf; i++) {
		int tmp = ord[k];
		ord[k] = ord[i];
		ord[i] = tmp;
		int ok = try_orders(a, x, ord, k + 1, cause);
		ord[i] = ord[k];
		ord[k] = tmp;
		if (ok)
			return 1;
	}
	return 0;
}

static void name_event(const struct ax *a, int i, struct strbuf *out)
{
	const struct lit_thread *th = &a->t->thr[a->thr[i]];
	sb_printf(out, "T%d '%s' (line %d)", th->id, th->ins[a->ins[i]].text, th->ins[a->ins[i]].line);
}

/* Conflicting accesses of two threads, not morally strong, not ordered. */
static void find_race(const struct ax *a, const uint64_t *cause)
{
	for (int i = 0; i < a->n; i++)
		for (int j = i + 1; j < a->n; j++) {
			if (!is_mem(a, i) || !is_mem(a, j) || a->thr[i] < 0 || a->thr[i] == a->thr[j] ||
			    a->loc[i] != a->loc[j] || (a->kind[i] == EV_R && a->kind[j] == EV_R))
				continue;
			if (morally_strong(a, i, j) || (cause[i] >> j & 1) || (cause[j] >> i & 1))
				continue;
			if (a->r->races++ == 0) {
				struct strbuf sb;
				sb_init(&sb);
				name_event(a, i, &sb);
				sb_puts(&sb, " and ");
				name_event(a, j, &sb);
				a->r->race = xstrdup(sb_str(&sb));
				sb_free(&sb);
			}
			return;
		}
}

static int ptx_consistent(struct ax *a)
{
	int n = a->n;
	struct rels x;
	base_relations(a, &x);
	uint64_t rel[MAXEV];
	/* 1: no thin air */
	for (int i = 0; i < n; i++)
		rel[i] = x.rf[i] | a->ppo[i];
	if (!ax_acyclic(rel, n))
		return 0;
	/* 2: SC per location over morally strong communication */
	for (int i = 0; i < n; i++) {
		uint64_t com = x.rf[i] | x.co[i] | x.fr[i];
		rel[i] = x.poloc[i];
		for (int j = 0; j < n; j++)
			if ((com >> j & 1) && morally_strong(a, i, j))
				rel[i] |= BIT(j);
	}
	if (!ax_acyclic(rel, n))
		return 0;
	/* 3: atomicity */
	for (int r = 0; r < n; r++) {
		int w = a->kind[r] == EV_R ? a->rmw_w[r] : -1;
		for (int v = 0; w >= 0 && v < n; v++)
			if ((x.fr[r] >> v & 1) && (x.co[v] >> w & 1) && morally_strong(a, r, v) &&
			    morally_strong(a, v, w))
				return 0;
	}
	/* 4, 5 under some Fence-SC order */
	uint64_t cause[MAXEV];
	int ord[MAXEV];
	memcpy(ord, x.scf, sizeof ord);
	if (!try_orders(a, &x, ord, 0, cause))
		return 0;
	find_race(a, cause);
	return 1;
}

int ptx_run(const struct litmus *t, const struct expr *cond, const struct explore_opts *o, struct lit_run *r,
            struct strbuf *err)
{
	return ax_enumerate(t, cond, o, r, ptx_consistent, err);
}
