/*
** Kernel specs on the PTX memory model: -D memory=ptx.
**
** weakmem.c translates the kernel into a litmus test (one litmus thread
** per GPU thread, the PTX ordering and scope of each instruction kept);
** the PTX ISA model (litmus/ptx.c) is axiomatic, so there is no machine
** to step: its candidate-execution enumerator runs once, when the model is
** built, and every consistent execution's final valuation (memory and
** every thread's registers) becomes a final state.  The explorer then sees
** a graph of depth one and judges the final-outcome properties as on any
** machine: exists, ~exists, forall, deterministic, refines/equals, and
** race_free (a final state remembers whether its execution had a data
** race in the PTX sense: conflicting accesses of two threads, not morally
** strong and not ordered by causality).  Properties about intermediate
** states or crashes have no meaning here; weakmem.c refuses them.
**
** States (word 0: phase, word 1: racy, then the valuation in the litmus
** location numbering, LIT_MAXR registers per thread):
**   initial   phase 0, racy 0, memory and registers as the kernel starts
**   outcome   phase 1: one per distinct (racy, valuation) of a consistent
**             execution; terminal
** Transitions: initial -> each outcome (action arg = its index); none from
** an outcome.  States = 1 + outcomes, transitions = outcomes.
** Invariants (checked by --check-model, pm_check_state):
**   1 the phase is 0 or 1, the racy word 0 or 1
**   2 phase 0 holds the initial valuation and is not racy
**   3 a phase-1 state is one of the enumerated outcomes
** The enumeration is bounded by the test's size (weakmem.c: at most 8
** threads, 8 words, 24 instructions a thread) and stops on SIGINT; the
** explorer's --time, --memory and --max-states limits start after it.
*/
#include "config.h"
#include "machines/weakmem.h"

#include <stdlib.h>
#include <string.h>

#include "explore/explore.h"
#include "litmus/run.h"
#include "state/trace.h"
#include "util/strbuf.h"

struct pm {
	struct litmus *t;
	void (*release)(struct litmus *t);
	unsigned nv;        /* valuation words                              */
	uint32_t *init;     /* the initial valuation                        */
	uint32_t *out;      /* nout outcomes of 1 + nv words: racy, valuation */
	unsigned nout, cap;
	char *race;         /* the first data race the enumeration found    */
};

enum { PHASE = 0, RACY = 1, VAL = 2 };

static uint32_t word(const uint8_t *sv, unsigned i)
{
	uint32_t v;
	memcpy(&v, sv + 4 * (size_t)i, 4);
	return v;
}

/* ax_enumerate's callback: keep each distinct outcome once (outcome
** lists are short; a linear search is enough). */
static void collect(void *ctx, const uint32_t *valuation, int racy)
{
	struct pm *p = ctx;
	size_t w = 1 + (size_t)p->nv;
	for (unsigned k = 0; k < p->nout; k++) {
		const uint32_t *o = p->out + k * w;
		if (o[0] == (uint32_t)racy && !memcmp(o + 1, valuation, 4 * (size_t)p->nv))
			return;
	}
	if (p->nout == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->out = xrealloc(p->out, p->cap * w * sizeof *p->out);
	}
	uint32_t *o = p->out + p->nout++ * w;
	o[0] = (uint32_t)racy;
	memcpy(o + 1, valuation, 4 * (size_t)p->nv);
}

static void pm_init(const struct model *m, uint8_t *sv)
{
	const struct pm *p = m->priv;
	memset(sv, 0, m->sv_size);
	memcpy(sv + 4 * VAL, p->init, 4 * (size_t)p->nv);
}

static unsigned pm_enabled(const struct model *m, const uint8_t *sv, struct action *out)
{
	const struct pm *p = m->priv;
	if (word(sv, PHASE))
		return 0;
	for (unsigned k = 0; k < p->nout; k++)
		out[k] = (struct action){ ACT_MODEL, 0, 0, k };
	return p->nout;
}

static void pm_apply(const struct model *m, uint8_t *sv, const struct action *a)
{
	const struct pm *p = m->priv;
	uint32_t one = 1;
	memcpy(sv + 4 * PHASE, &one, 4);
	memcpy(sv + 4 * RACY, p->out + (size_t)a->arg * (1 + p->nv), 4 * (1 + (size_t)p->nv));
}

static enum model_status pm_status(const struct model *m, const uint8_t *sv)
{
	(void)m;
	return word(sv, PHASE) ? MS_TERMINAL : MS_RUNNING;
}

/* memory, then each thread's declared registers */
static void valuation(const struct pm *p, const uint8_t *sv, struct strbuf *out)
{
	const struct litmus *t = p->t;
	sb_puts(out, "memory:");
	for (int l = 0; l < t->nlocs; l++)
		sb_printf(out, " %s=%u", t->loc[l].name, word(sv, VAL + (unsigned)l));
	for (int i = 0; i < t->nthreads; i++) {
		const struct lit_thread *th = &t->thr[i];
		sb_printf(out, "; T%d:", th->id);
		for (int r = 0; r < th->nregs; r++)
			sb_printf(out, " %s=%u", th->regname[r], word(sv, VAL + (unsigned)(t->nlocs + i * LIT_MAXR + r)));
	}
}

static void pm_describe(const struct model *m, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	const struct pm *p = m->priv;
	uint8_t *after = xmalloc(m->sv_size);
	memcpy(after, sv, m->sv_size);
	pm_apply(m, after, a);
	sb_printf(out, "a consistent PTX execution (outcome %u of %u)%s: ", a->arg + 1, p->nout,
	          word(after, RACY) ? ", with a data race" : "");
	valuation(p, after, out);
	free(after);
}

static void pm_print_state(const struct model *m, const uint8_t *sv, struct strbuf *out)
{
	sb_puts(out, word(sv, PHASE) ? "final: " : "initial: ");
	valuation(m->priv, sv, out);
	sb_putc(out, '\n');
}

static int pm_race(const struct model *m, const uint8_t *sv, struct strbuf *why)
{
	const struct pm *p = m->priv;
	if (!word(sv, RACY))
		return 0;
	sb_printf(why, "an execution with this outcome has conflicting accesses of two threads that are neither "
	          "morally strong nor ordered (the first such pair found: %s)", p->race ? p->race : "?");
	return 1;
}

static int pm_lookup(const struct model *m, int tid, const char *name, long index, enum vtype *type,
                     unsigned *count, struct strbuf *err)
{
	const struct pm *p = m->priv;
	*count = 1;
	return litmus_lookup_at(p->t, tid, name, index, type, err);
}

static uint32_t pm_read(const struct model *m, const uint8_t *sv, int loc)
{
	(void)m;
	return word(sv, VAL + (unsigned)loc);
}

static void pm_loc_name(const struct model *m, int loc, struct strbuf *out)
{
	const struct pm *p = m->priv;
	litmus_loc_name(p->t, loc, out);
}

static enum vtype pm_loc_type(const struct model *m, int loc)
{
	const struct pm *p = m->priv;
	return litmus_loc_type(p->t, loc);
}

/* Every memory word: what `deterministic` compares by default. */
static unsigned pm_default_obs(const struct model *m, int *locs, unsigned max)
{
	const struct pm *p = m->priv;
	for (unsigned i = 0; i < (unsigned)p->t->nlocs && i < max; i++)
		locs[i] = (int)i;
	return (unsigned)p->t->nlocs;
}

static int pm_check_state(const struct model *m, const uint8_t *sv, struct strbuf *why)
{
	const struct pm *p = m->priv;
	uint32_t phase = word(sv, PHASE), racy = word(sv, RACY);
	if (phase > 1 || racy > 1) {
		sb_printf(why, "ptx invariant 1: phase %u, racy %u", phase, racy);
		return 1;
	}
	if (!phase && (racy || memcmp(sv + 4 * VAL, p->init, 4 * (size_t)p->nv))) {
		sb_puts(why, "ptx invariant 2: the initial state is not the initial valuation");
		return 1;
	}
	for (unsigned k = 0; phase && k < p->nout; k++)
		if (!memcmp(sv + 4 * RACY, p->out + k * (1 + (size_t)p->nv), 4 * (1 + (size_t)p->nv)))
			return 0;
	if (phase) {
		sb_puts(why, "ptx invariant 3: a final state that is no enumerated outcome");
		return 1;
	}
	return 0;
}

static void pm_destroy(struct model *m)
{
	struct pm *p = m->priv;
	p->release(p->t);
	free(p->init);
	free(p->out);
	free(p->race);
	free(p);
	free(m);
}

struct model *weakmem_ptx_model(struct litmus *t, void (*release)(struct litmus *t), struct strbuf *err)
{
	struct pm *p = xcalloc(1, sizeof *p);
	p->t = t;
	p->release = release;
	p->nv = (unsigned)(t->nlocs + t->nthreads * LIT_MAXR);
	p->init = xcalloc(p->nv, sizeof *p->init);
	for (int l = 0; l < t->nlocs; l++)
		p->init[l] = t->loc[l].init;
	for (int i = 0; i < t->nthreads; i++)
		memcpy(p->init + t->nlocs + i * LIT_MAXR, t->thr[i].reginit, sizeof t->thr[i].reginit);
	struct model *m = xcalloc(1, sizeof *m);
	m->priv = p;
	m->destroy = pm_destroy;
	struct lit_run r;
	memset(&r, 0, sizeof r);
	snprintf(r.model, sizeof r.model, "ptx");
	r.each = collect;
	r.each_ctx = p;
	struct explore_opts o;
	explore_opts_default(&o);
	int rc = ptx_run(t, NULL, &o, &r, err);
	if (rc == 0 && r.incomplete)
		sb_printf(err, "the enumeration of candidate executions stopped (%s)", r.why);
	else if (rc == 0 && !p->nout)
		sb_puts(err, "no consistent execution");
	else if (rc == 0 && p->nout > TRACE_MAX_ACTIONS)
		sb_printf(err, "%u distinct outcomes, more than %u", p->nout, TRACE_MAX_ACTIONS);
	p->race = r.race;
	r.race = NULL;
	int bad = rc || r.incomplete || !p->nout || p->nout > TRACE_MAX_ACTIONS;
	lit_run_free(&r);
	if (bad) {
		pm_destroy(m);
		return NULL;
	}
	m->name = "ptx";
	m->sv_size = (4 * (VAL + (size_t)p->nv) + 7) & ~(size_t)7;
	m->max_actions = p->nout;
	m->init = pm_init;
	m->enabled = pm_enabled;
	m->apply = pm_apply;
	m->status = pm_status;
	m->describe = pm_describe;
	m->print_state = pm_print_state;
	m->race = pm_race;
	m->lookup = pm_lookup;
	m->read = pm_read;
	m->loc_name = pm_loc_name;
	m->loc_type = pm_loc_type;
	m->default_observables = pm_default_obs;
	m->check_state = pm_check_state;
	return m;
}
