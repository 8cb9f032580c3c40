/*
** The composer: one generic machine built from a wiring row of components
** (registry.c).  It lays out the state vector (each component's slice at
** its alignment, in wiring order), binds ports, allocates action kinds,
** concrete-mode units and subjects in wiring order, and forms the model:
**   enabled   every component's actions in wiring order; a component sees
**             those of the components before it (before[]);
**   apply     the owner of the action's kind;
**   status    FAULT if a component says so, TERMINAL when every component
**             is quiescent (the warps are done and nothing owes anything);
**   durable   the union of the components' durable slices.
** Locations for properties (global words, then registers of every thread)
** are machine-wide and live here too.
*/
#include "config.h"
#include "machines/component.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/trace.h"
#include "util/env.h"
#include "util/strbuf.h"

#define MAX_COMPS 32
#define MAX_POOLS 16

struct machine {
	struct gpu g;
	struct comp comps[MAX_COMPS];
	unsigned ncomps;
	unsigned nkinds;                 /* kinds from ACT_MODEL on */
	struct kind_do *kind_do;         /* by kind - ACT_MODEL */
	unsigned *kind_writes;           /* comps a kind may write (bitmask) */
	/* by pc: every component declares a warp's issue of that instruction
	** independent of itself (por, asked once per instruction: m_local
	** runs for every action of a concrete run): 0 where not, else
	** step_kind's answer (1; 2 an exit; 3 one that may fault its warp);
	** all 0 without m->local */
	uint8_t *por_pc;
	const struct instr *ins; /* g.prog->ins, one load nearer */
	const struct comp *crash;        /* the component with the crash hooks */
	/* the components with a faulted / quiescent hook, for m_status (called
	** twice per state: no NULL tests on the hot path) */
	const struct comp *faulted[MAX_COMPS], *quiescent[MAX_COMPS];
	unsigned nfaulted, nquiescent;
	/* m_terminal's: the quiescent hooks but the warps component's, whose
	** answer its own scan gives; running: the status byte of a warp it
	** last found not done */
	const struct comp *settling[MAX_COMPS];
	unsigned nsettling;
	size_t running;
	/* the components with a durable hook, for m_durable (every crash) */
	const struct comp *durable[MAX_COMPS];
	unsigned ndurable;
	/* the components with actions, in wiring order, for enabled; not
	** one its layout gave no actions (max_actions 0: cta_dispatch with
	** every CTA resident), which lists none (READY-17): silent */
	const struct comp *acting[MAX_COMPS], *silent[MAX_COMPS];
	/* acting[i]'s enabled hook, one load nearer (a listing every cycle) */
	unsigned (*acting_enabled[MAX_COMPS])(const struct comp *c, const uint8_t *sv, const struct action *before,
	                                      unsigned nb, struct action *out, int timed);
	unsigned nacting, nsilent;
	/* the first acting components that list only what can issue now
	** (comp_def.lists_now; m_enabled_now) */
	unsigned nlists_now;
	/* the components with a tick hook (concrete mode, every cycle) */
	const struct comp *ticking[MAX_COMPS];
	unsigned nticking;
	const char **counter_names;
	unsigned ncounters;
	size_t *slice_end;               /* for the canonical-padding check */
	struct alone_check *alone_check; /* WARP-8's copies (GPUMC_CHECK_READY), else NULL */
	unsigned warp0; /* the first subject of the warps issued at once (kind_do.alone) */
};

#define MC(m) ((struct machine *)(m)->priv)

/* What an action dispatches to, by its kind: the owner and the hooks
** concrete mode calls per action, resolved when the machine is built.
** Concrete mode issues only the kinds of components (ACT_CRASH has no
** unit): m_issue, m_step and m_still_enabled index it with no test. */
struct kind_do {
	const struct comp *c;
	/* its owner's issue port, NULL where it has none (m_local asks for
	** every action of a concrete run) */
	const struct port_issue *issue;
	const struct instr *(*prepare)(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
	                               uint64_t (*rnd)(void *), void *rng, uint64_t *ct);
	void (*apply)(const struct comp *c, uint8_t *sv, const struct action *a);
	/* model.issue of an action of the kind, one call, where m_issue is
	** model.issue: the owner's issue_alone (under GPUMC_CHECK_READY
	** issue_alone_checked) where alone is set, which issues at once
	** where alone[pc] of the pc its subject's warp (subject -
	** machine.warp0) issues (por_pc 1 or 3 and the owner's alone_at; the
	** machine's one table, gpu.alone) and else calls compose_issue_apart;
	** else issue_whole (comp_def's: not a warp issue, dab.c's DRAIN);
	** else compose_issue_apart.  The same parameters as model.issue's,
	** the model the comp: a jump from m_issue.  (Eight pointers, no
	** more: found by a shift, and persistency's rows ran 0.04% slower at
	** nine.) */
	int (*issue_by)(const struct comp *c, uint8_t *sv, const struct action *a, struct timing *t,
	                uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach);
	uint8_t *alone;
	int (*reach)(const struct comp *c, const uint8_t *sv, const struct action *a);
	int (*still_enabled)(const struct comp *c, const uint8_t *sv, const struct action *a);
};
_Static_assert(sizeof(struct kind_do) == 8 * sizeof(void *), "kind_do is eight pointers");

static const struct comp *owner(const struct model *m, unsigned kind)
{
	const struct machine *x = MC(m);
	unsigned k = kind - ACT_MODEL; /* below ACT_MODEL: past nkinds, one test */
	return k < x->nkinds ? x->kind_do[k].c : NULL;
}

/* The dispatch of a component's kind. */
static const struct kind_do *kind_do(const struct machine *x, unsigned kind)
{
	return &x->kind_do[kind - ACT_MODEL];
}

unsigned compose_kind_flags(const struct model *m, unsigned kind)
{
	const struct comp *c = owner(m, kind);
	return c ? c->def->kinds[kind - c->kind0].flags : 0;
}

int compose_others_quiescent(const struct comp *self, const uint8_t *sv)
{
	const struct machine *x = MC(self->m);
	for (unsigned i = 0; i < x->ncomps; i++) {
		const struct comp *c = &x->comps[i];
		if (c != self && c->def->quiescent && !c->def->quiescent(c, sv))
			return 0;
	}
	return 1;
}

/* {=== The model's functions ============================================ */

static void m_init(const struct model *m, uint8_t *sv)
{
	const struct machine *x = MC(m);
	memset(sv, 0, m->sv_size);
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def->init)
			x->comps[i].def->init(&x->comps[i], sv);
}

/* The acting components' lists, one after another; *lead: how many the
** first nlists_now gave.  Always inline: concrete mode lists once a
** cycle (m_enabled_now). */
static inline __attribute__((always_inline)) unsigned enabled(const struct model *m, const uint8_t *sv, struct action *out,
                                                              int timed, unsigned *lead)
{
	const struct machine *x = MC(m);
	const unsigned nl = x->nlists_now;
	unsigned n = 0, l = 0;
	for (unsigned i = 0; i < x->nacting; i++) {
		n += x->acting_enabled[i](x->acting[i], sv, out, n, out + n, timed);
		l = i < nl ? n : l;
	}
	*lead = l;
	return n;
}

static unsigned m_enabled(const struct model *m, const uint8_t *sv, struct action *out)
{
	unsigned lead;
	return enabled(m, sv, out, 0, &lead);
}

static unsigned m_enabled_timed(const struct model *m, const uint8_t *sv, struct action *out)
{
	unsigned lead;
	return enabled(m, sv, out, 1, &lead);
}

/* READY-17 (GPUMC_CHECK_READY): a silent component lists nothing.
** Fatal where one does. */
static void check_silent(const struct machine *x, const uint8_t *sv, struct action *out, unsigned n)
{
	for (unsigned i = 0; i < x->nsilent; i++) {
		const struct comp *c = x->silent[i];
		if (c->def->enabled(c, sv, out, n, out + n, 1)) {
			fprintf(stderr, "gpumc: internal error: READY-17: %s, laid out with no actions, lists one\n",
			        c->def->name);
			abort();
		}
	}
}

/* Concrete mode's listing: the first nlists_now components' listings
** are what can issue now, one a unit, units in increasing order and
** before the others' (wiring order allocated them): timed_now.listed_now
** (the driver checks it, READY-18). */
static unsigned m_enabled_now(const struct model *m, const uint8_t *sv, struct action *out,
                              const struct timed_now *v)
{
	struct machine *x = MC(m);
	x->g.now = v;
	unsigned lead, n = enabled(m, sv, out, 1, &lead);
	*v->listed_now = lead;
	if (v->check)
		check_silent(x, sv, out, n);
	x->g.now = NULL;
	return n;
}

static void m_apply(const struct model *m, uint8_t *sv, const struct action *a)
{
	const struct comp *c = owner(m, a->kind);
	if (c) /* ACT_CRASH is the explorer's; applying it changes nothing */
		c->def->apply(c, sv, a);
}

static enum model_status m_status(const struct model *m, const uint8_t *sv)
{
	const struct machine *x = MC(m);
	for (unsigned i = 0; i < x->nfaulted; i++)
		if (x->faulted[i]->def->faulted(x->faulted[i], sv))
			return MS_FAULT;
	for (unsigned i = 0; i < x->nquiescent; i++)
		if (!x->quiescent[i]->def->quiescent(x->quiescent[i], sv))
			return MS_RUNNING;
	return MS_TERMINAL;
}

/* status() == MS_TERMINAL, quiescence first: every component quiescent
** (the warps done) and none faulted.  A warp not done keeps the machine
** running (the warps component is quiescent only when all are): the one
** found so last time (running) first, nearly always still running, else
** the first; the warps component's hook is not asked.  READY-2 checks
** the answer (concrete.c). */
static int m_terminal(const struct model *m, const uint8_t *sv)
{
	struct machine *x = MC(m);
	const struct gpu *g = &x->g;
	if (sv[x->running] != W_DONE)
		return 0;
	size_t w = g->warp_off + offsetof(struct warp_hdr, status), end = w + g->warp_bytes * g->nwarps;
	while (w < end && sv[w] == W_DONE)
		w += g->warp_bytes;
	if (w < end) {
		x->running = w;
		return 0;
	}
	for (unsigned i = 0; i < x->nsettling; i++)
		if (!x->settling[i]->def->quiescent(x->settling[i], sv))
			return 0;
	for (unsigned i = 0; i < x->nfaulted; i++)
		if (x->faulted[i]->def->faulted(x->faulted[i], sv))
			return 0;
	return 1;
}

static void m_describe(const struct model *m, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	const struct comp *c = a->kind == ACT_CRASH ? MC(m)->crash : owner(m, a->kind);
	if (c && c->def->describe)
		c->def->describe(c, sv, a, out);
	else
		sb_printf(out, "action kind %u", a->kind);
}

static void m_print_state(const struct model *m, const uint8_t *sv, struct strbuf *out)
{
	const struct machine *x = MC(m);
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def->print)
			x->comps[i].def->print(&x->comps[i], sv, out);
}

static void m_notes(const struct model *m, int failed, struct strbuf *out)
{
	const struct machine *x = MC(m);
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def->notes)
			x->comps[i].def->notes(&x->comps[i], failed, out);
}

static int m_race(const struct model *m, const uint8_t *sv, struct strbuf *why)
{
	const struct machine *x = MC(m);
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def->race && x->comps[i].def->race(&x->comps[i], sv, why))
			return 1;
	return 0;
}

static void m_durable(const struct model *m, const uint8_t *sv, uint8_t *img)
{
	const struct machine *x = MC(m);
	memset(img, 0, m->sv_size);
	for (unsigned i = 0; i < x->ndurable; i++)
		x->durable[i]->def->durable(x->durable[i], sv, img);
}

static int m_recover(const struct model *m, uint8_t *img, int (*bad)(void *ctx, const uint8_t *sv), void *ctx,
                     struct strbuf *why)
{
	return MC(m)->crash->def->recover(MC(m)->crash, img, bad, ctx, why);
}

static int m_reexecute(const struct model *m, uint8_t *img, struct strbuf *why)
{
	return MC(m)->crash->def->reexecute(MC(m)->crash, img, why);
}

static int m_idempotent(const struct model *m, struct strbuf *why)
{
	return MC(m)->crash->def->idempotent(MC(m)->crash, why);
}

/* model.count of a, its owner c already found. */
static inline void count_by(const struct comp *c, const uint8_t *sv, const struct action *a, uint64_t *ct)
{
	if (c && c->def->count)
		c->def->count(c, sv, a, ct);
}

static void m_count(const struct model *m, const uint8_t *sv, const struct action *a, uint64_t *ct)
{
	count_by(owner(m, a->kind), sv, a, ct);
}

static void m_tick(const struct model *m, const uint8_t *sv, uint64_t cycles, uint64_t *ct)
{
	const struct machine *x = MC(m);
	for (unsigned i = 0; i < x->nticking; i++)
		x->ticking[i]->def->tick(x->ticking[i], sv, cycles, ct);
}

static int m_still_enabled(const struct model *m, const uint8_t *sv, const struct action *a)
{
	const struct kind_do *d = kind_do(MC(m), a->kind);
	return !d->still_enabled || d->still_enabled(d->c, sv, a);
}

/* Concrete-mode arbitration within a unit: GTO (the subject issued last
** while ready, else the lowest), or any ready candidate at random. */
static unsigned m_pick(const struct model *m, const struct action *cand, unsigned n, uint32_t last,
                       uint64_t (*rnd)(void *), void *rng)
{
	if (MC(m)->g.cfg.sched_policy == 1)
		return (unsigned)(rnd(rng) % n);
	unsigned best = 0;
	for (unsigned i = 0; i < n; i++) {
		if (cand[i].subject == last)
			return i;
		if (cand[i].subject < cand[best].subject)
			best = i;
	}
	return best;
}

/* Partial-order reduction: action a is a warp's issue of a warp-local
** instruction (the warps component says which are), no property observes
** the register it writes, and every component of the wiring declares the
** issue independent of itself (struct comp_def, por).  Inline: m_local
** asks for every action of a concrete run. */
static inline __attribute__((always_inline)) const struct instr *local_issue(const struct model *m, const uint8_t *sv,
                                                                            const struct action *a, long *w)
{
	const struct machine *x = MC(m);
	unsigned k = (unsigned)a->kind - ACT_MODEL; /* below ACT_MODEL: past nkinds */
	const struct port_issue *ip = k < x->nkinds ? x->kind_do[k].issue : NULL;
	if (!ip)
		return NULL;
	const struct comp *c = x->kind_do[k].c;
	*w = ip->is_issue(c, a);
	if (*w < 0)
		return NULL;
	const struct bind *wb = REQ(c, P_WARPS);
	return ((const struct port_warps *)wb->ops)->local(wb->c, sv, (unsigned)*w);
}

/* model.faulted: the warp of issue a (warp-local, so a warp's issue) faulted. */
static inline int faulted_by(const struct machine *x, const uint8_t *sv, const struct action *a)
{
	const struct kind_do *d = kind_do(x, a->kind);
	long w = d->issue->is_issue(d->c, a);
	return gpu_warp(&x->g, (uint8_t *)sv, (unsigned)w)->status == W_FAULT;
}

static int m_faulted(const struct model *m, const uint8_t *sv, const struct action *a)
{
	return faulted_by(MC(m), sv, a);
}

/* Does a property observe the register warp w's issue of in writes? */
static int observes_dst(const struct gpu *g, long w, const struct instr *in, const int *observed, unsigned nobserved)
{
	unsigned G_ = g->prog->global_words, nregs = (unsigned)g->prog->nregs, tpw = g->cfg.threads_per_warp;
	for (unsigned i = 0; i < nobserved; i++) {
		if ((unsigned)observed[i] < G_)
			continue;
		unsigned k = (unsigned)observed[i] - G_;
		if (k / nregs / tpw == (unsigned)w && (int)(k % nregs) == in->dst)
			return 1;
	}
	return 0;
}

/* m_local of an issue of in (NULL: not a warp-local one), no location
** observed: por_pc's answer, but 1 for a 3 (m_local does not ask faulted). */
static int local_kind(const struct machine *x, const struct instr *in)
{
	unsigned k = in ? x->por_pc[in - x->ins] : 0;
	return k == 3 ? 1 : (int)k;
}

static int m_local(const struct model *m, const uint8_t *sv, const struct action *a, const int *observed,
                   unsigned nobserved)
{
	const struct machine *x = MC(m);
	long w = -1; /* set where in is (local_issue) */
	const struct instr *in = local_issue(m, sv, a, &w);
	int k = local_kind(x, in);
	return k && nobserved && observes_dst(&x->g, w, in, observed, nobserved) ? 0 : k;
}

/* local_kind for m_step: 3 for a warp-local issue that may fault its
** warp (por_pc, model.step). */
static inline int step_kind(const struct machine *x, const struct instr *in)
{
	return in ? x->por_pc[in - x->ins] : 0;
}

/* model.step of a, its kind's dispatch d already found (t's busy cycles
** 1 and no update, the caller's): a warp's issue decoded once for its
** timing, count and local answer (comp_def.prepare).  Always inline:
** called apart, m_issue costs more than m_step and m_apply did. */
static inline __attribute__((always_inline)) int step_by(const struct model *m, const struct kind_do *d,
                                                         const uint8_t *sv, const struct action *a, struct timing *t,
                                                         uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach)
{
	const struct comp *c = d->c;
	int local;
	if (d->prepare) {
		const struct instr *in = d->prepare(c, sv, a, t, rnd, rng, ct);
		local = step_kind(MC(m), in); /* without m->local, por_pc is all 0 */
	} else {
		if (c->def->timing)
			c->def->timing(c, sv, a, t, rnd, rng);
		count_by(c, sv, a, ct);
		long w;
		local = m->local ? step_kind(MC(m), local_issue(m, sv, a, &w)) : 0; /* m_local, nothing observed */
	}
	if (!local)
		*reach = d->reach ? d->reach(c, sv, a) : -1;
	return local;
}

static int m_step(const struct model *m, const uint8_t *sv, const struct action *a, struct timing *t,
                  uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach)
{
	t->busy = 1;
	t->n = 0;
	return step_by(m, kind_do(MC(m), a->kind), sv, a, t, rnd, rng, ct, reach);
}

/* model.issue's step, apply and faulted of a, its kind's dispatch d
** found (t set as step_by wants). */
static inline __attribute__((always_inline)) int step_apply(const struct model *m, const struct kind_do *d,
                                                            uint8_t *sv, const struct action *a, struct timing *t,
                                                            uint64_t (*rnd)(void *), void *rng, uint64_t *ct,
                                                            int *reach)
{
	int local = step_by(m, d, sv, a, t, rnd, rng, ct, reach);
	d->apply(d->c, sv, a);
	return local == 3 ? 1 + faulted_by(MC(m), sv, a) : local;
}

/* component.h: step_apply of a (its kind's dispatch found), the t that
** model.issue was given: kind_do.issue_by's where the kind issues
** neither at once nor whole, and issue_alone's where not at once. */
int compose_issue_apart(const struct comp *c, uint8_t *sv, const struct action *a, struct timing *t,
                        uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach)
{
	const struct model *m = c->m;
	return step_apply(m, kind_do(MC(m), a->kind), sv, a, t, rnd, rng, ct, reach);
}

/* Concrete mode's one call per action (model.h, issue) where some kind
** issues at once or whole: its kind's issue_by, a jump (the model's
** dispatch one lookup, its decode of the warp's pc the component's). */
static int m_issue(const struct model *m, uint8_t *sv, const struct action *a, struct timing *t,
                   uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach)
{
	const struct kind_do *d = kind_do(MC(m), a->kind);
	t->busy = 1;
	t->n = 0;
	return d->issue_by(d->c, sv, a, t, rnd, rng, ct, reach);
}
/* model.issue where no kind issues at once or whole (persistency sees
** every issue): step_apply inline */
static int m_issue_apart(const struct model *m, uint8_t *sv, const struct action *a, struct timing *t,
                         uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach)
{
	t->busy = 1;
	t->n = 0;
	return step_apply(m, kind_do(MC(m), a->kind), sv, a, t, rnd, rng, ct, reach);
}

/* WARP-8 (GPUMC_CHECK_READY): the copies issue_alone_checked compares
** (the issuing warp's record, its owner's slice, the counters, the
** timing), allocated once, and the draws of rnd the first way made,
** made again the second (a load's jitter). */
struct alone_check {
	uint8_t *rec, *slice;
	uint64_t *ct;
	struct timing t;
	uint64_t (*rnd)(void *);
	void *rng;
	uint64_t draw[8];
	unsigned ndraws, redrawn;
	int plant; /* GPUMC_TEST_FAULT=warp-8: 1, what the answer is taken to be off by */
};

static void alone_differs(const struct action *a, const char *what)
{
	fprintf(stderr, "gpumc: internal error: WARP-8: issue_alone of kind %u, subject %u differs from prepare and apply in "
	        "%s\n", a->kind, a->subject, what);
	abort();
}

/* rnd as the issue at once draws (kept), and as prepare draws again. */
static uint64_t alone_draw(void *p)
{
	struct alone_check *k = p;
	if (k->ndraws == sizeof k->draw / sizeof *k->draw) {
		fprintf(stderr, "gpumc: internal error: WARP-8: an issue at once draws more than %u times\n", k->ndraws);
		abort();
	}
	return k->draw[k->ndraws++] = k->rnd(k->rng);
}
static uint64_t alone_redraw(void *p)
{
	struct alone_check *k = p;
	if (k->redrawn == k->ndraws) {
		fprintf(stderr, "gpumc: internal error: WARP-8: prepare draws more often than the issue at once\n");
		abort();
	}
	return k->draw[k->redrawn++];
}

/* A kind's issue_alone under GPUMC_CHECK_READY (WARP-8): it gives the
** answer, timing, counts, draws and issuing warp's record that the
** kind's prepare and apply (and faulted) give, which change nothing of
** its owner's slice (a scheduler's turn, token or round): each run on
** the same bytes (those copied back between), the second's kept.  Only
** those bytes are compared: a warp-local issue writes its warp's
** registers and stack alone (model.h, local), and a copy of the whole
** vector per issue made checked runs ~100x slower. */
static int issue_alone_checked(const struct comp *c, uint8_t *sv, const struct action *a, struct timing *t,
                               uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *reach)
{
	const struct model *m = c->m;
	struct machine *x = MC(m);
	struct alone_check *k = x->alone_check;
	const struct kind_do *d = kind_do(x, a->kind);
	if (!x->g.alone[gpu_pc(&x->g, sv, a->subject - x->warp0)])
		return compose_issue_apart(c, sv, a, t, rnd, rng, ct, reach);
	uint8_t *rec = (uint8_t *)gpu_warp(&x->g, sv, a->subject - x->warp0);
	size_t nrec = x->g.warp_bytes, nct = sizeof *ct * m->ncounters;
	memcpy(k->slice, sv + c->off, c->size);
	memcpy(k->rec, rec, nrec);
	memcpy(k->ct, ct, nct);
	k->t.busy = 1;
	k->t.n = 0;
	k->t.now = t->now; /* as model.issue was given it */
	k->t.run = t->run;
	k->rnd = rnd;
	k->rng = rng;
	k->ndraws = k->redrawn = 0;
	int once = c->def->issue_alone(c, sv, a, &k->t, alone_draw, k, k->ct, reach);
	/* the record as taken at once, then back to before for the two */
	uint8_t *after = k->rec + nrec;
	memcpy(after, rec, nrec);
	memcpy(rec, k->rec, nrec);
	int local = step_apply(m, d, sv, a, t, alone_redraw, k, ct, reach);
	if (local + k->plant != once)
		alone_differs(a, "the answer");
	if (memcmp(rec, after, nrec))
		alone_differs(a, "the warp's record");
	if (memcmp(sv + c->off, k->slice, c->size))
		alone_differs(a, "its owner's slice (moved by the apply)");
	if (memcmp(ct, k->ct, nct))
		alone_differs(a, "the counts");
	if (t->busy != k->t.busy || t->n != k->t.n || memcmp(t->upd, k->t.upd, sizeof *t->upd * t->n))
		alone_differs(a, "the timing");
	if (k->redrawn != k->ndraws)
		alone_differs(a, "its draws of rnd");
	return once;
}

/* Beyond warp-local issues: the owner's answer (component.h, alone). */
static int m_alone(const struct model *m, const uint8_t *sv, const struct action *a, const int *inv, unsigned ninv)
{
	const struct comp *c = owner(m, a->kind);
	return c && c->def->alone && c->def->alone(c, sv, a, inv, ninv);
}

int compose_por_independent(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in)
{
	(void)c, (void)sv, (void)w;
	return in->op != OP_EXIT;
}

int compose_por_independent_of_exit(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in)
{
	(void)c, (void)sv, (void)w, (void)in;
	return 1;
}

/* }=== */

/* {=== Locations: global words 0..G-1, register r of thread t at
** G + t*nregs + r ========================================================= */

static int m_lookup(const struct model *m, int tid, const char *name, long index, enum vtype *type, unsigned *count,
                    struct strbuf *err)
{
	const struct gpu *g = &MC(m)->g;
	const struct program *p = g->prog;
	if (tid >= 0) {
		unsigned nthreads = g->nwarps * g->cfg.threads_per_warp;
		if ((unsigned)tid >= nthreads) {
			sb_printf(err, "thread %d does not exist (the grid has %u threads)", tid, nthreads);
			return -1;
		}
		int r = program_find_reg(p, name);
		if (r < 0) {
			sb_printf(err, "unknown register '%s'", name);
			program_hint(p, name, 1, err);
			return -1;
		}
		*type = p->regs[r].type;
		*count = 1;
		return (int)(p->global_words + (unsigned)tid * (unsigned)p->nregs + (unsigned)r);
	}
	int s = program_find_sym(p, name);
	if (s < 0 || p->syms[s].space != SP_GLOBAL) {
		sb_printf(err, s < 0 ? "unknown variable '%s'" : "'%s' is in shared memory, which does not outlive the kernel",
		          name);
		if (s < 0)
			program_hint(p, name, 0, err);
		return -1;
	}
	const struct symbol *sym = &p->syms[s];
	*type = sym->type;
	if (index < 0) {
		*count = sym->nelems;
		return (int)(sym->base / 4);
	}
	if ((unsigned long)index >= sym->nelems) {
		sb_printf(err, "index %ld is outside '%s' (%u elements)", index, name, sym->nelems);
		return -1;
	}
	*count = 1;
	return (int)(sym->base / 4 + (uint32_t)index);
}

static uint32_t m_read(const struct model *m, const uint8_t *sv, int loc)
{
	const struct gpu *g = &MC(m)->g;
	unsigned G_ = g->prog->global_words;
	if ((unsigned)loc < G_)
		return gpu_global(g, sv, (uint32_t)loc);
	unsigned k = (unsigned)loc - G_, nregs = (unsigned)g->prog->nregs;
	unsigned t = k / nregs, r = k % nregs, tpw = g->cfg.threads_per_warp;
	const uint32_t *row = gpu_reg(g, (uint8_t *)sv, t / tpw, (int)r);
	return row ? row[t % tpw] : 0;
}

/* m_read's, the geometry read once and a global word inline */
static void m_read_locs(const struct model *m, const uint8_t *sv, const int *locs, unsigned n, uint32_t *out)
{
	const struct gpu *g = &MC(m)->g;
	const uint32_t *gword = g->gword, *ginit = g->ginit;
	unsigned G_ = g->prog->global_words;
	for (unsigned i = 0; i < n; i++)
		out[i] = (unsigned)locs[i] < G_ ? gpu_global_at(gword, ginit, sv, (uint32_t)locs[i]) : m_read(m, sv, locs[i]);
}

static const struct symbol *sym_at(const struct program *p, unsigned loc)
{
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *s = &p->syms[i];
		if (s->space == SP_GLOBAL && loc >= s->base / 4 && loc < s->base / 4 + s->nelems)
			return s;
	}
	return NULL;
}

static void m_loc_name(const struct model *m, int loc, struct strbuf *out)
{
	const struct program *p = MC(m)->g.prog;
	unsigned G_ = p->global_words;
	if ((unsigned)loc >= G_) {
		unsigned k = (unsigned)loc - G_;
		sb_printf(out, "%u:%s", k / (unsigned)p->nregs, p->regs[k % (unsigned)p->nregs].name);
		return;
	}
	const struct symbol *s = sym_at(p, (unsigned)loc);
	if (s)
		sb_puts(out, s->name);
	if (s && s->is_array) { /* one per reported word: no printf */
		sb_putc(out, '[');
		sb_put_uint(out, (unsigned)loc - s->base / 4);
		sb_putc(out, ']');
	}
}

static enum vtype m_loc_type(const struct model *m, int loc)
{
	const struct program *p = MC(m)->g.prog;
	if ((unsigned)loc >= p->global_words)
		return p->regs[((unsigned)loc - p->global_words) % (unsigned)p->nregs].type;
	const struct symbol *s = sym_at(p, (unsigned)loc);
	return s ? s->type : VT_U32;
}

static unsigned m_default_obs(const struct model *m, int *locs, unsigned max)
{
	unsigned n = MC(m)->g.prog->global_words;
	for (unsigned i = 0; i < n && i < max; i++)
		locs[i] = (int)i;
	return n;
}

/* }=== */

static int m_comm_race(const struct model *m, const uint8_t *sv, struct strbuf *why)
{
	const struct machine *x = MC(m);
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def->comm_race && x->comps[i].def->comm_race(&x->comps[i], sv, why))
			return 1;
	return 0;
}

static int m_persist_order(const struct model *m, const uint8_t *sv, int mode, struct strbuf *why)
{
	const struct machine *x = MC(m);
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def->persist_order && x->comps[i].def->persist_order(&x->comps[i], sv, mode, why))
			return 1;
	return 0;
}

/* {=== --check-model ===================================================== */

static int m_check_state(const struct model *m, const uint8_t *sv, struct strbuf *why)
{
	const struct machine *x = MC(m);
	for (unsigned i = 0; i < x->ncomps; i++) {
		const struct comp *c = &x->comps[i];
		if (c->def->check && c->def->check(c, sv, why)) {
			sb_printf(why, " (component %s)", c->def->name);
			return 1;
		}
	}
	/* padding between and after slices stays zero */
	size_t at = 0;
	for (unsigned i = 0; i <= x->ncomps; i++) {
		size_t to = i < x->ncomps ? x->comps[i].off : m->sv_size;
		for (size_t b = at; b < to; b++)
			if (sv[b]) {
				sb_printf(why, "byte %zu, padding before %s, is not zero", b,
				          i < x->ncomps ? x->comps[i].def->name : "the end of the vector");
				return 1;
			}
		if (i < x->ncomps)
			at = x->comps[i].off + x->comps[i].size;
	}
	return 0;
}

/* Did action a (taken in `before`, giving `after`) write only the slices
** its kind declared?  And POR-1: a warp-local issue (m_local) wrote only
** its warp's record, which is READY (or faulted) with the same live lanes
** (the bottom stack entry's mask), or after an exit DONE with an empty
** stack, as partial-order reduction assumes. */
static int m_check_step(const struct model *m, const uint8_t *before, const struct action *a, const uint8_t *after,
                        struct strbuf *why)
{
	const struct machine *x = MC(m);
	const struct comp *o = owner(m, a->kind);
	unsigned allowed = o ? x->kind_writes[a->kind - ACT_MODEL] : 0;
	for (unsigned i = 0; i < x->ncomps; i++) {
		const struct comp *c = &x->comps[i];
		if (allowed >> i & 1 || !c->size || !memcmp(before + c->off, after + c->off, c->size))
			continue;
		sb_printf(why, "action kind '%s' of %s wrote the slice of %s, which it does not declare",
		          o ? o->def->kinds[a->kind - o->kind0].name : "crash", o ? o->def->name : "the explorer",
		          c->def->name);
		return 1;
	}
	long w;
	const struct instr *in;
	if (!m->local || !m_local(m, before, a, NULL, 0) || !(in = local_issue(m, before, a, &w)))
		return 0;
	const struct gpu *g = &x->g;
	size_t lo = g->warp_off + g->warp_bytes * (size_t)w, hi = lo + g->warp_bytes;
	const struct warp_hdr *h = gpu_warp(g, (uint8_t *)after, (unsigned)w);
	uint8_t st = h->status;
	int others = memcmp(before, after, lo) || memcmp(before + hi, after + hi, m->sv_size - hi);
	if (!others && in->op == OP_EXIT && st == W_DONE && !h->sp)
		return 0;
	if (others || (st != W_READY && st != W_FAULT) ||
	    (st == W_READY && gpu_stack(g, (uint8_t *)before, (unsigned)w)[0].mask !=
	                          gpu_stack(g, (uint8_t *)after, (unsigned)w)[0].mask)) {
		sb_printf(why, "POR-1: warp %ld's warp-local issue changed more than its own registers and stack", w);
		return 1;
	}
	return 0;
}

/* The components a kind may write: its owner (SELF), the providers of the
** ports it names, and, transitively, what their ports may write. */
static unsigned closure(const struct machine *x, const struct comp *c, unsigned writes)
{
	unsigned set = 0, todo = 0;
	if (writes & SELF)
		set |= 1u << c->index;
	for (unsigned p = 0; p < P_NPORTS; p++)
		if (writes >> p & 1)
			for (unsigned k = 0; k < c->nreq[p]; k++)
				todo |= 1u << c->req[p][k].c->index;
	while (todo & ~set) {
		unsigned i = (unsigned)__builtin_ctz(todo & ~set);
		const struct comp *d = &x->comps[i];
		set |= 1u << i;
		unsigned w = d->def->port_writes;
		for (unsigned p = 0; p < P_NPORTS; p++)
			if (w >> p & 1)
				for (unsigned k = 0; k < d->nreq[p]; k++)
					todo |= 1u << d->req[p][k].c->index;
	}
	return set;
}

/* }=== */

static void machine_free(struct machine *x)
{
	for (unsigned i = 0; i < x->ncomps; i++) {
		free(x->comps[i].priv);
		free(x->comps[i].counter_map);
	}
	for (unsigned k = 0; x->kind_do && k < x->nkinds; k++)
		free(x->kind_do[k].alone);
	free(x->kind_do);
	if (x->alone_check) {
		free(x->alone_check->rec);
		free(x->alone_check->ct);
		free(x->alone_check->slice);
		free(x->alone_check);
	}
	free(x->kind_writes);
	free(x->por_pc);
	free(x->counter_names);
	free(x->g.pc_atomic);
	free(x->g.pc_fragile);
	free(x->g.gword);
	free(x->g.ginit);
	free(x->g.sched_warps);
	free(x->g.sched_first);
	free(x->g.warp_idx);
	free(x->g.reg_row);
	if (x->g.own) {
		program_free(x->g.own);
		free(x->g.own);
	}
	free(x);
}

static void m_destroy(struct model *m)
{
	machine_free(m->priv);
	free(m);
}

static const char *const port_names[P_NPORTS] = { "mem", "atomics", "order", "gate", "warps", "pm", "barrier", "issue", "sbuf",
	                                                      "quantum", "grid" };

/* Bind every required port of every component; -1 with a message. */
static int bind_ports(struct machine *x, const struct wiring *wr, struct diag *d, const char *path)
{
	for (unsigned i = 0; i < x->ncomps; i++) {
		struct comp *c = &x->comps[i];
		for (unsigned p = 0; p < P_NPORTS; p++) {
			if (!(c->def->requires >> p & 1))
				continue;
			const char *to = NULL;
			for (unsigned k = 0; k < wr->nwires; k++)
				if (!strcmp(wr->wires[k].from, c->def->name) && wr->wires[k].port == p)
					to = wr->wires[k].to;
			unsigned found = 0;
			for (unsigned j = 0; j < x->ncomps; j++) {
				const struct comp *pr = &x->comps[j];
				if (j == i || !(pr->def->provides >> p & 1) || (to && strcmp(to, pr->def->name)))
					continue;
				/* a provider may decline a port in this configuration
				** (cta_dispatch when every CTA is resident): nothing to ask */
				const void *ops = pr->def->port(pr, (enum port)p);
				if (!ops)
					continue;
				if (c->nreq[p] == MAX_BIND)
					break;
				c->req[p][c->nreq[p]++] = (struct bind){ pr, ops };
				found++;
			}
			if (found > 1 && !(MULTI_PORTS >> p & 1)) {
				diag_at(d, path, 0, 0, "wiring: %s's port %s has %u providers; name one in the wiring row",
				        c->def->name, port_names[p], found);
				return -1;
			}
			if (!found && !(c->def->optional >> p & 1)) {
				diag_at(d, path, 0, 0, "wiring: %s requires port %s, which no component of this machine provides%s%s",
				        c->def->name, port_names[p], to ? " as " : "", to ? to : "");
				return -1;
			}
		}
	}
	return 0;
}

/* Pools: the first component naming a pool allocates it. */
static unsigned pools(struct machine *x, int units)
{
	const char *name[MAX_POOLS];
	unsigned base[MAX_POOLS], np = 0, next = 0;
	for (unsigned i = 0; i < x->ncomps; i++) {
		struct comp *c = &x->comps[i];
		for (unsigned k = 0; k < 2; k++) {
			struct pool_req *r = units ? &c->units[k] : &c->subjects[k];
			if (!r->name)
				continue;
			unsigned j;
			for (j = 0; j < np && strcmp(name[j], r->name); j++)
				;
			if (j == np && np < MAX_POOLS) {
				name[np] = r->name;
				base[np++] = next;
				next += r->count;
			}
			(units ? c->unit0 : c->subj0)[k] = j < np ? base[j] : 0;
		}
	}
	return next;
}

static void merge_counters(struct machine *x)
{
	unsigned total = 0;
	for (unsigned i = 0; i < x->ncomps; i++)
		total += x->comps[i].def->ncounters;
	x->counter_names = xcalloc(total + 1, sizeof *x->counter_names);
	for (unsigned i = 0; i < x->ncomps; i++) {
		struct comp *c = &x->comps[i];
		c->counter_map = xcalloc(c->def->ncounters + 1, sizeof *c->counter_map);
		for (unsigned k = 0; k < c->def->ncounters; k++) {
			unsigned j;
			for (j = 0; j < x->ncounters && strcmp(x->counter_names[j], c->def->counters[k]); j++)
				;
			if (j == x->ncounters)
				x->counter_names[x->ncounters++] = c->def->counters[k];
			c->counter_map[k] = j;
		}
	}
}

/* g->pc_fragile (after pc_atomic): where a warp-local issue of the
** instruction at i (one that leaves its warp READY: por) may leave the
** warp at a global atom/red or past the end (done), either of which may
** take it out of its scheduler's set (dab_sched.c, fragile).  The warp
** goes on at a successor (i + 1; a branch's target or reconvergence
** point, warp.c's stack entries), and where that is some branch's
** reconvergence point (an entry's rpc: popped), at any pc an entry below
** may hold: some branch's target, fall-through or reconvergence point. */
static int out_of_set(const struct gpu *g, unsigned pc)
{
	return g->pc_atomic[pc] || pc == (unsigned)g->prog->nins;
}
static void pc_fragile(struct gpu *g)
{
	const struct program *p = g->prog;
	unsigned n = (unsigned)p->nins;
	uint8_t *rpc = xcalloc(n + 1, 1);
	int uncovered = 0; /* some pc an entry below may hold is at a global atomic or the end */
	rpc[n] = 1; /* the bottom entry's */
	for (unsigned i = 0; i < n; i++)
		if (p->ins[i].op == OP_BRA) {
			rpc[p->ins[i].ipdom] = 1;
			uncovered |= out_of_set(g, (unsigned)p->ins[i].target) | out_of_set(g, i + 1) |
			             out_of_set(g, (unsigned)p->ins[i].ipdom);
		}
	g->pc_fragile = xcalloc(n + 1, 1);
	for (unsigned i = 0; i < n; i++) {
		unsigned next[3] = { i + 1, i + 1, i + 1 };
		if (p->ins[i].op == OP_BRA) {
			next[1] = (unsigned)p->ins[i].target;
			next[2] = (unsigned)p->ins[i].ipdom;
		}
		for (unsigned j = 0; j < 3; j++)
			g->pc_fragile[i] |= (uint8_t)(out_of_set(g, next[j]) | (rpc[next[j]] & uncovered));
	}
	free(rpc);
}

/* The grid: warps of each scheduler, and what every component reads. */
static int grid(struct gpu *g, struct diag *d)
{
	const struct gpu_cfg *c = &g->cfg;
	g->nwarps = c->ctas * c->warps_per_cta;
	if (g->nwarps > 65535 || (uint64_t)g->nwarps * c->threads_per_warp > 1u << 24) {
		diag_at(d, g->path, 0, 0, "grid too large: %u warps", g->nwarps);
		return -1;
	}
	if (g->prog->nins > 65534) {
		diag_at(d, g->path, 0, 0, "kernel too long (%d instructions, at most 65534)", g->prog->nins);
		return -1;
	}
	g->pc_atomic = xcalloc((size_t)g->prog->nins + 1, 1);
	for (int i = 0; i < g->prog->nins; i++)
		g->pc_atomic[i] = (g->prog->ins[i].op == OP_ATOM || g->prog->ins[i].op == OP_RED) &&
		                  g->prog->ins[i].space == SP_GLOBAL;
	pc_fragile(g);
	unsigned ctas_per_sm = (c->ctas + c->sms - 1) / c->sms;
	g->warps_per_sm = ctas_per_sm * c->warps_per_cta;
	g->resident = ctas_per_sm; /* all resident, unless a dispatcher limits it */
	g->nqueues = c->sms * c->partitions;
	g->by_nqueues = fastdiv_of(g->nqueues);
	unsigned nsched = c->sms * c->schedulers;
	g->sched_first = xcalloc(nsched + 1, sizeof(unsigned));
	g->sched_warps = xcalloc(g->nwarps + 1, sizeof(unsigned));
	g->warp_idx = xcalloc(g->nwarps + 1, sizeof(unsigned));
	for (unsigned w = 0; w < g->nwarps; w++)
		g->sched_first[gpu_sched_of(g, w) + 1]++;
	for (unsigned k = 0; k < nsched; k++)
		g->sched_first[k + 1] += g->sched_first[k];
	unsigned *fill = xcalloc(nsched + 1, sizeof(unsigned));
	for (unsigned w = 0; w < g->nwarps; w++) {
		unsigned k = gpu_sched_of(g, w);
		g->warp_idx[w] = fill[k];
		g->sched_warps[g->sched_first[k] + fill[k]++] = w;
	}
	free(fill);
	return 0;
}

struct model *compose_build(const struct spec *s, const struct machine_def *md, struct diag *d)
{
	struct gpu_cfg cfg;
	memset(&cfg, 0, sizeof cfg);
	return params_apply(md, s, &cfg, d) ? NULL : compose_build_cfg(s, md, &cfg, d);
}

struct model *compose_build_cfg(const struct spec *s, const struct machine_def *md, const struct gpu_cfg *cfg,
                                struct diag *d)
{
	const struct wiring *wr = md->wiring;
	struct machine *x = xcalloc(1, sizeof *x);
	struct gpu *g = &x->g;
	struct model *m = xcalloc(1, sizeof *m);
	m->priv = x;
	m->name = md->name;
	m->destroy = m_destroy;
	g->prog = &s->prog;
	g->path = s->path;
	for (int k = 0; k < s->nprops; k++) {
		g->comm_race |= s->props[k].p.kind == P_COMM_RACE;
		g->persist_order |= s->props[k].p.kind == P_PERSIST_ORDER;
	}
	g->cfg = *cfg;
	g->by_wpc = fastdiv_of(cfg->warps_per_cta);
	g->by_sms = fastdiv_of(cfg->sms);
	g->by_partitions = fastdiv_of(cfg->partitions);
	g->by_line = fastdiv_of(cfg->line_bytes);
	g->by_schedulers = fastdiv_of(cfg->schedulers);
	x->ncomps = wr->ncomps;
	for (unsigned i = 0; i < wr->ncomps; i++) {
		x->comps[i] = (struct comp){ .def = wr->comps[i], .g = g, .m = m, .index = i };
		if (wr->comps[i]->durable)
			x->crash = x->durable[x->ndurable++] = &x->comps[i];
		if (wr->comps[i]->faulted)
			x->faulted[x->nfaulted++] = &x->comps[i];
		if (wr->comps[i]->quiescent)
			x->quiescent[x->nquiescent++] = &x->comps[i];
		if (wr->comps[i]->quiescent && wr->comps[i] != &comp_warps)
			x->settling[x->nsettling++] = &x->comps[i];
		if (wr->comps[i]->tick)
			x->ticking[x->nticking++] = &x->comps[i];
		g->globals_in_place |= wr->comps[i]->globals_in_place;
	}
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def->rewrite) {
			struct strbuf err;
			sb_init(&err);
			int bad = x->comps[i].def->rewrite(g, &err);
			if (bad)
				diag_at(d, s->path, 0, 0, "%s", sb_str(&err));
			sb_free(&err);
			if (bad)
				goto fail;
		}
	if ((g->prog->host || g->prog->recovery) && !x->crash) {
		diag_at(d, s->path, 0, 0, "a %s block needs machine persist (machine '%s' has no persistence domain)",
		        g->prog->host ? "host" : "recovery", md->name);
		goto fail;
	}
	if (grid(g, d))
		goto fail;
	/* slices in wiring order, each at its alignment; vectors end 8-aligned */
	size_t end = 0;
	unsigned max_actions = 0;
	for (unsigned i = 0; i < x->ncomps; i++) {
		struct comp *c = &x->comps[i];
		size_t align = 1;
		long size = c->def->layout ? c->def->layout(c, g, &align, d) : 0;
		if (size < 0)
			goto fail;
		end = (end + align - 1) & ~(align - 1);
		c->off = end;
		c->size = (size_t)size;
		end += c->size;
		if (c->def->place)
			c->def->place(c, g);
		max_actions += c->max_actions;
		if (c->def->enabled) {
			if (c->max_actions)
				x->acting_enabled[x->nacting] = c->def->enabled;
			*(c->max_actions ? &x->acting[x->nacting++] : &x->silent[x->nsilent++]) = c;
		}
	}
	if (bind_ports(x, wr, d, s->path))
		goto fail;
	while (x->nlists_now < x->nacting && x->acting[x->nlists_now]->def->lists_now &&
	       x->acting[x->nlists_now]->def->lists_now(x->acting[x->nlists_now]))
		x->nlists_now++;
	x->running = g->warp_off + offsetof(struct warp_hdr, status); /* warp 0's */
	m->sv_size = (end + 7) & ~(size_t)7;
	/* at most TRACE_MAX_ACTIONS where traced: job_load checks */
	m->max_actions = max_actions + 1; /* + a crash */
	/* action kinds in wiring order */
	for (unsigned i = 0; i < x->ncomps; i++)
		x->nkinds += x->comps[i].def->nkinds;
	x->kind_do = xcalloc(x->nkinds + 1, sizeof *x->kind_do);
	x->kind_writes = xcalloc(x->nkinds + 1, sizeof *x->kind_writes);
	for (unsigned i = 0, k = 0; i < x->ncomps; i++) {
		struct comp *c = &x->comps[i];
		c->kind0 = ACT_MODEL + k;
		for (unsigned j = 0; j < c->def->nkinds; j++, k++) {
			x->kind_do[k] = (struct kind_do){ c, NULL, c->def->prepare, c->def->apply, NULL, NULL, c->def->reach,
				                          c->def->still_enabled };
			x->kind_writes[k] = closure(x, c, c->def->kinds[j].writes);
			if (c->def->provides & PORT(P_ISSUE))
				x->kind_do[k].issue = c->def->port(c, P_ISSUE);
		}
	}
	m->nunits = pools(x, 1);
	m->nsubjects = pools(x, 0);
	merge_counters(x);
	m->counter_names = x->counter_names;
	m->ncounters = x->ncounters;
	m->init = m_init;
	m->enabled = m_enabled;
	m->enabled_timed = m_enabled_timed;
	m->enabled_now = m_enabled_now;
	m->apply = m_apply;
	m->status = m_status;
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def == &comp_warps)
			m->terminal = m_terminal; /* none: the driver asks status() */
	m->describe = m_describe;
	m->print_state = m_print_state;
	m->notes = m_notes;
	m->race = m_race;
	m->lookup = m_lookup;
	m->read = m_read;
	m->read_locs = m_read_locs;
	m->loc_name = m_loc_name;
	m->loc_type = m_loc_type;
	m->default_observables = m_default_obs;
	m->count = m_count;
	m->pick = m_pick;
	m->still_enabled = m_still_enabled;
	m->tick = x->nticking ? m_tick : NULL; /* none: the driver asks nothing each cycle */
	m->check_state = m_check_state;
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def->comm_race)
			m->comm_race = m_comm_race;
	for (unsigned i = 0; i < x->ncomps; i++)
		if (x->comps[i].def->persist_order)
			m->persist_order = m_persist_order;
	m->check_step = m_check_step;
	m->local = m_local;
	m->step = m_step;
	m->faulted = m_faulted;
	m->issue = m_issue_apart; /* m_issue where a kind issues at once (below) */
	/* steps alone where every component declares por_atomics and one
	** may take some (chains then follow every successor: chain_after) */
	int alone = 1, some = 0;
	for (unsigned i = 0; i < x->ncomps; i++) {
		const struct comp *c = &x->comps[i];
		if (!c->def->por)
			m->local = NULL; /* a component that did not declare independence */
		alone &= c->def->por_atomics;
		some |= c->def->alone && c->def->alone(c, NULL, NULL, NULL, 0);
	}
	m->alone = m->local && alone && some ? m_alone : NULL;
	x->por_pc = xcalloc((size_t)g->prog->nins + 1, 1);
	x->ins = g->prog->ins;
	for (int pc = 0; m->local && pc < g->prog->nins; pc++) {
		x->por_pc[pc] = 1;
		for (unsigned i = 0; i < x->ncomps && x->por_pc[pc]; i++)
			x->por_pc[pc] = (uint8_t)x->comps[i].def->por(&x->comps[i], NULL, UINT_MAX, &g->prog->ins[pc]);
		/* 2: an exit, which may end the kernel (model.h, local); 3: one
		** that may fault its warp (step_kind): an ALU op but a division
		** (by 0) cannot; a branch (stack, uniformity) or a memory access
		** may.  Decided here, not per action. */
		enum opcode op = g->prog->ins[pc].op;
		if (x->por_pc[pc])
			x->por_pc[pc] = op == OP_EXIT ? 2 : op >= OP_BRA || op == OP_DIV || op == OP_REM ? 3 : 1;
	}
	/* issues at once where por_pc says 1 or 3 (not an exit, whose answer
	** asks for more) and the kind's owner can, an issue of its P_WARPS
	** provider's warps; the table gpu.alone, the same for every such
	** kind (their owners' alone_at, warps_alone_at, asks the one warps
	** provider: scheduler.h), else the kind is not issued at once */
	const int check = env_on("GPUMC_CHECK_READY");
	for (unsigned k = 0; k < x->nkinds; k++)
		x->kind_do[k].issue_by = compose_issue_apart;
	for (unsigned k = 0; m->local && k < x->nkinds; k++) {
		struct kind_do *d = &x->kind_do[k];
		const struct comp *c = d->c;
		if (!c->def->issue_alone)
			continue;
		d->alone = xcalloc((size_t)g->prog->nins + 1, 1);
		int some = 0;
		for (int pc = 0; pc < g->prog->nins; pc++)
			some |= d->alone[pc] = (x->por_pc[pc] == 1 || x->por_pc[pc] == 3) && c->def->alone_at(c, (unsigned)pc);
		if (!some || (g->alone && memcmp(g->alone, d->alone, (size_t)g->prog->nins))) {
			/* none (persistency): not asked per issue */
			free(d->alone);
			d->alone = NULL;
			continue;
		}
		g->alone = g->alone ? g->alone : d->alone;
		m->issue = m_issue;
		x->warp0 = REQ(c, P_WARPS)->c->subj0[0]; /* the only warps provider (scheduler.h) */
		d->issue_by = c->def->issue_alone;
		if (!check)
			continue;
		d->issue_by = issue_alone_checked;
		if (!x->alone_check) {
			x->alone_check = xmalloc(sizeof *x->alone_check);
			x->alone_check->rec = xmalloc(2 * g->warp_bytes);
			x->alone_check->ct = xmalloc(sizeof *x->alone_check->ct * (x->ncounters + 1));
			x->alone_check->slice = xmalloc(m->sv_size);
			x->alone_check->plant = env_fault("warp-8");
		}
	}
	/* issue_whole for the kinds not issued at once (not warp issues) */
	for (unsigned k = 0; k < x->nkinds; k++) {
		struct kind_do *d = &x->kind_do[k];
		if (!d->alone && d->c->def->issue_whole) {
			d->issue_by = d->c->def->issue_whole;
			m->issue = m_issue;
		}
	}
	if (x->crash) {
		m->durable_size = m->sv_size;
		m->durable = m_durable;
		/* the images differ only where a durable hook writes */
		for (unsigned i = 0; i < x->ndurable; i++) {
			size_t k = x->durable[i]->durable_key ? x->durable[i]->durable_key : m->sv_size;
			m->durable_key = k > m->durable_key ? k : m->durable_key;
		}
		if (x->crash->def->recover && g->prog->recovery)
			m->recover = m_recover;
		if (x->crash->def->reexecute)
			m->reexecute = m_reexecute;
		if (x->crash->def->idempotent)
			m->idempotent = m_idempotent;
	}
	return m;
fail:
	m_destroy(m);
	return NULL;
}

/* The grid's rows: what every GPU machine takes. */
#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def grid_params[] = {
	{ "sms", 1, 1, 64, NULL, GP(sms), "streaming multiprocessors; CTA c runs on SM c mod sms" },
	{ "schedulers", 1, 1, 4, NULL, GP(schedulers), "warp schedulers per SM; warp w of a CTA goes to scheduler w mod schedulers" },
	{ "partitions", 1, 1, 8, NULL, GP(partitions), "memory partitions (L2 slice + ROP), interleaved every line_bytes" },
	{ "line_bytes", 256, 4, 65536, NULL, GP(line_bytes), "address interleaving granularity across partitions" },
	{ "ctas", 1, 1, 4096, NULL, GP(ctas), "CTAs in the grid (all resident unless the CTA or warp slots limit them)" },
	{ "warps_per_cta", 1, 1, 64, NULL, GP(warps_per_cta), "warps per CTA" },
	{ "threads_per_warp", 2, 1, 32, NULL, GP(threads_per_warp), "lanes per warp (32 on hardware; small for exhaustive runs)" },
	{ "stack_depth", 6, 1, 64, NULL, GP(stack_depth), "SIMT reconvergence stack entries per warp (at most; fewer when the kernel has few branches that may diverge, 1 when a warp has one lane)" },
	{ "lat_alu", 4, 1, 1000, NULL, GP(lat_alu), "cycles before a warp issues again after an ALU/branch instruction" },
	{ "lat_shared", 24, 1, 10000, NULL, GP(lat_shared), "shared-memory access latency" },
	{ "lat_global", 400, 1, 100000, NULL, GP(lat_global), "global-memory access latency" },
	{ "global_jitter", 200, 0, 100000, NULL, GP(global_jitter), "random extra global latency in [0, global_jitter] (cache hits and misses, seeded)" },
	{ "lat_bar", 8, 1, 10000, NULL, GP(lat_bar), "cycles before a warp issues again after bar.sync" },
	/* the interconnect and the partitions' atomic units: the ROP, DAB's
	** drains and persist's clwb requests all cross it */
	{ "lat_icnt", 120, 1, 100000, NULL, GP(lat_icnt), "SM-to-partition interconnect latency, each way" },
	{ "icnt_jitter", 40, 0, 100000, NULL, GP(icnt_jitter), "random extra interconnect delay in [0, icnt_jitter] (seeded)" },
	{ "lat_rop", 1, 1, 10000, NULL, GP(lat_rop), "ROP cycles per atomic transaction performed (one partition, one at a time; concrete mode: a coalesced sector)" },
};

static void add_rows(const struct param_def *rows, unsigned n, const struct param_def **out, unsigned *k, unsigned max)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned j;
		for (j = 0; j < *k && strcmp(out[j]->name, rows[i].name); j++)
			;
		if (j < *k)
			out[j] = &rows[i];
		else if (*k < max)
			out[(*k)++] = &rows[i];
	}
}

unsigned compose_params(const struct wiring *w, const struct param_def **out, unsigned max)
{
	unsigned k = 0;
	add_rows(grid_params, sizeof grid_params / sizeof grid_params[0], out, &k, max);
	for (unsigned i = 0; i < w->ncomps; i++)
		add_rows(w->comps[i]->params, w->comps[i]->nparams, out, &k, max);
	add_rows(w->params, w->nparams, out, &k, max);
	return k;
}
