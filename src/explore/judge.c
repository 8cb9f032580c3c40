/* The judge: what the properties say about a state (see judge.h). */
#include "config.h"
#include "explore/judge.h"

#include <stdlib.h>
#include <string.h>

#include "state/sideset.h"
#include "util/strbuf.h"

struct judge {
	const struct model *m;
	const struct property *props;
	unsigned n;
	int keep_going;
	int invariants;           /* some property is an invariant or comm_race_free */
	int races;                /* some property is race_free */
	int porder;               /* some property is persist_order */
	struct strbuf found;      /* what a property's check found (a race, a forbidden
	                             durable image, a broken invariant), hit() formats it */
	struct sideset **results; /* deterministic: distinct results seen, per property */
	uint8_t *witnessed;       /* exists: a witness was seen, per property */
	uint32_t *obuf;           /* one result */
	uint8_t *img, *re;        /* crash image; its re-execution */
	struct action *act;       /* judge_end: the enabled actions */
	struct strbuf why;
	int (*poll)(void *ctx); /* a limit of the run was hit (judge_set_poll) */
	void *poll_ctx;
	/* idempotent: the crash-free result over the memory locations */
	uint32_t *golden;
	int *golden_locs;
	unsigned ngolden;
};

struct judge *judge_new(const struct model *m, const struct property *props, unsigned n, int keep_going)
{
	struct judge *j = xcalloc(1, sizeof *j);
	j->m = m;
	j->props = props;
	j->n = n;
	j->keep_going = keep_going;
	j->results = xcalloc(n ? n : 1, sizeof *j->results);
	j->witnessed = xcalloc(n ? n : 1, 1);
	unsigned maxl = 0;
	for (unsigned k = 0; k < n; k++) {
		j->invariants |= props[k].kind == P_INVARIANT || props[k].kind == P_COMM_RACE;
		j->races |= props[k].kind == P_RACE_FREE && m->race;
		j->porder |= props[k].kind == P_PERSIST_ORDER && m->persist_order;
		if (props[k].kind == P_DETERMINISTIC || props[k].kind == P_REFINES || props[k].kind == P_EQUALS) {
			j->results[k] = ss_new();
			if (props[k].nlocs > maxl)
				maxl = props[k].nlocs;
		}
	}
	j->obuf = xmalloc(sizeof(uint32_t) * (maxl ? maxl : 1));
	j->img = xmalloc(m->sv_size);
	j->re = xmalloc(m->sv_size);
	sb_init(&j->why);
	sb_init(&j->found);
	return j;
}

void judge_free(struct judge *j)
{
	if (!j)
		return;
	for (unsigned k = 0; k < j->n; k++)
		if (j->results[k])
			ss_free(j->results[k]);
	free(j->results);
	free(j->witnessed);
	free(j->obuf);
	free(j->img);
	free(j->re);
	free(j->act);
	free(j->golden);
	free(j->golden_locs);
	sb_free(&j->why);
	sb_free(&j->found);
	free(j);
}

void judge_set_poll(struct judge *j, int (*poll)(void *ctx), void *ctx)
{
	j->poll = poll;
	j->poll_ctx = ctx;
}

/* prop, kind and why are set by hit(), and read only when violated. */
static void clear(struct judgement *v)
{
	v->status = MS_RUNNING;
	v->witness = v->violated = v->cut = 0;
}

/* Record a violation (the first of this call counts); returns non-zero
** when judging should stop here. */
static int hit(struct judge *j, struct judgement *v, int prop, enum prop_kind kind, const char *fmt,
               const char *arg)
{
	if (!v->violated) {
		v->violated = 1;
		v->prop = prop;
		v->kind = kind;
		sb_reset(&j->why);
		sb_printf(&j->why, fmt, arg);
		v->why = sb_str(&j->why);
	}
	return !j->keep_going;
}

/* The last property of a kind: a failure that no condition names (the
** recovery program, the re-execution) is charged to it. */
static int last_of(const struct judge *j, enum prop_kind kind)
{
	int k = -1;
	for (unsigned i = 0; i < j->n; i++)
		if (j->props[i].kind == kind)
			k = (int)i;
	return k;
}

int judge_start(struct judge *j, struct judgement *v)
{
	const struct model *m = j->m;
	clear(v);
	int k = -1;
	for (unsigned i = 0; i < j->n && k < 0; i++)
		if (j->props[i].kind == P_IDEMPOTENT)
			k = (int)i;
	if (k < 0 || !m->idempotent || !m->reexecute || !m->durable)
		return 0;
	sb_reset(&j->why);
	if (!m->idempotent(m, &j->why)) {
		/* statically not idempotent: no exploration can change that */
		v->violated = 1;
		v->prop = (int)k;
		v->kind = P_IDEMPOTENT;
		v->why = sb_str(&j->why);
		return 1;
	}
	/* the crash-free result: the kernel re-executed from the start */
	m->init(m, j->re);
	m->durable(m, j->re, j->img);
	struct strbuf why;
	sb_init(&why);
	if (!m->reexecute(m, j->img, &why)) {
		/* without a crash-free result there is nothing to confirm */
		hit(j, v, k, P_IDEMPOTENT, "the kernel does not run to completion on its own: %s", sb_str(&why));
	} else {
		j->ngolden = model_observables(m, NULL, 0);
		j->golden_locs = xmalloc(sizeof(int) * (j->ngolden ? j->ngolden : 1));
		model_observables(m, j->golden_locs, j->ngolden);
		j->golden = xmalloc(sizeof(uint32_t) * (j->ngolden ? j->ngolden : 1));
		for (unsigned i = 0; i < j->ngolden; i++)
			j->golden[i] = m->read(m, j->img, j->golden_locs[i]);
	}
	sb_free(&why);
	return v->violated;
}

/* "sum = 3, out[0] = 1": one outcome over p's locations. */
static void outcome_print(const struct model *m, const struct property *p, const uint32_t *vals,
                          struct strbuf *out)
{
	for (unsigned i = 0; i < p->nlocs; i++) {
		if (i)
			sb_puts(out, ", ");
		model_loc_name(m, p->locs[i], out);
		sb_puts(out, " = ");
		value_print(vals[i], model_loc_type(m, p->locs[i]), out);
	}
}

/* A terminal state: the final-state properties (not inlined: judge_state,
** on every state, stays small). */
static __attribute__((noinline)) void final(struct judge *j, const uint8_t *sv, struct judgement *v)
{
	const struct model *m = j->m;
	for (unsigned k = 0; k < j->n; k++) {
		const struct property *p = &j->props[k];
		switch (p->kind) {
		case P_DETERMINISTIC: {
			for (unsigned i = 0; i < p->nlocs; i++)
				j->obuf[i] = m->read(m, sv, p->locs[i]);
			int is_new;
			ss_put(j->results[k], j->obuf, sizeof(uint32_t) * p->nlocs, &is_new);
			if (is_new && ss_count(j->results[k]) == 2 &&
			    hit(j, v, (int)k, P_DETERMINISTIC, "two schedules end with different results%s", ""))
				return;
			break;
		}
		case P_REFINES:
		case P_EQUALS: {
			if (!p->ref)
				break; /* the reference run was cut short: the verdict is incomplete */
			for (unsigned i = 0; i < p->nlocs; i++)
				j->obuf[i] = m->read(m, sv, p->locs[i]);
			int is_new;
			ss_put(j->results[k], j->obuf, sizeof(uint32_t) * p->nlocs, &is_new);
			if (is_new && !ss_get(p->ref, j->obuf, sizeof(uint32_t) * p->nlocs)) {
				struct strbuf o;
				sb_init(&o);
				sb_printf(&o, "a final state with an outcome that machine %s never reaches: ", p->machine);
				outcome_print(m, p, j->obuf, &o);
				int stop = hit(j, v, (int)k, p->kind, "%s", sb_str(&o));
				sb_free(&o);
				if (stop)
					return;
			}
			break;
		}
		case P_EXISTS:
			if (!j->witnessed[k] && expr_eval(p->cond, m, sv))
				j->witnessed[k] = v->witness = 1;
			break;
		case P_NOT_EXISTS:
			if (expr_eval(p->cond, m, sv) &&
			    hit(j, v, (int)k, P_NOT_EXISTS, "a final state satisfies the condition%s", ""))
				return;
			break;
		case P_FORALL:
			if (!expr_eval(p->cond, m, sv) &&
			    hit(j, v, (int)k, P_FORALL, "a final state violates the condition%s", ""))
				return;
			break;
		case P_PERSISTED:
			if (!m->durable)
				break;
			m->durable(m, sv, j->img);
			if (!expr_eval(p->cond, m, j->img) &&
			    hit(j, v, (int)k, P_PERSISTED,
			        "the kernel finished, but what is durable violates the condition%s", ""))
				return;
			break;
		default:
			break;
		}
	}
}

int judge_every_state(const struct judge *j)
{
	return j->invariants || j->races || j->porder;
}

/* The properties of every state (judge_every_state): non-zero when one
** stops the judging. */
static __attribute__((noinline)) int every_state(struct judge *j, const uint8_t *sv, struct judgement *v)
{
	const struct model *m = j->m;
	for (unsigned k = 0; k < j->n && j->invariants; k++) {
		if (j->props[k].kind == P_INVARIANT && !expr_eval(j->props[k].cond, m, sv) &&
		    hit(j, v, (int)k, P_INVARIANT, "a reachable state violates the invariant%s", ""))
			return 1;
		if (j->props[k].kind == P_COMM_RACE && m->comm_race) {
			sb_reset(&j->found);
			if (m->comm_race(m, sv, &j->found) && hit(j, v, (int)k, P_COMM_RACE, "%s", sb_str(&j->found)))
				return 1;
		}
	}
	for (unsigned k = 0; k < j->n && j->races; k++)
		if (j->props[k].kind == P_RACE_FREE) {
			sb_reset(&j->found);
			if (m->race(m, sv, &j->found) &&
			    hit(j, v, (int)k, P_RACE_FREE, "a data race: %s", sb_str(&j->found)))
				return 1;
		}
	/* a crash may hit any state: what it would leave durable is judged
	** here, on the state (the machine keeps the record it needs) */
	for (unsigned k = 0; k < j->n && j->porder; k++)
		if (j->props[k].kind == P_PERSIST_ORDER) {
			sb_reset(&j->found);
			if (j->m->persist_order(j->m, sv, j->props[k].mode, &j->found) &&
			    hit(j, v, (int)k, P_PERSIST_ORDER, "a crash here leaves a durable image the model forbids: %s",
			        sb_str(&j->found)))
				return 1;
		}
	return 0;
}

int judge_state(struct judge *j, const uint8_t *sv, struct judgement *v)
{
	clear(v);
	v->status = j->m->status(j->m, sv);
	if (v->status == MS_FAULT) {
		/* a fault in a state that breaks the model's own invariants
		** (WARP-5: a branch the uniformity analysis called uniform split
		** a warp) is gpumc's bug, not the kernel's: a broken contract,
		** which no expect line accepts as the fault it expects */
		sb_reset(&j->found);
		if (j->m->check_state && j->m->check_state(j->m, sv, &j->found)) {
			hit(j, v, -1, P_CONTRACT, "the model broke its own invariant: %s", sb_str(&j->found));
			return 1;
		}
		hit(j, v, -1, P_FAULT, "the machine faulted%s", "");
		return 1;
	}
	/* most specs judge final states only: no loop over the properties */
	if (judge_every_state(j) && every_state(j, sv, v))
		return 1;
	if (v->status == MS_TERMINAL)
		final(j, sv, v);
	return v->violated;
}

int judge_moves(struct judge *j, const uint8_t *sv, const struct action *act, unsigned n,
                struct judgement *v)
{
	clear(v);
	/* a crash is always possible but is no progress: a running state
	** whose only way on is a crash is a deadlock */
	for (unsigned i = 0; i < n; i++)
		if (act[i].kind != ACT_CRASH)
			return 0;
	if (j->m->status(j->m, sv) == MS_RUNNING)
		hit(j, v, -1, P_DEADLOCK, "no component can move, but the kernel has not finished%s", "");
	return v->violated;
}

/* Does the state a recovery ended in violate a `recoverable` condition? */
static int recovered_bad(void *ctx, const uint8_t *sv)
{
	const struct judge *j = ctx;
	if (!sv) /* the recovery's poll: has the run hit a limit? */
		return j->poll && j->poll(j->poll_ctx);
	for (unsigned k = 0; k < j->n; k++)
		if (j->props[k].kind == P_RECOVERABLE && !expr_eval(j->props[k].cond, j->m, sv))
			return 1;
	return 0;
}

int judge_crash(struct judge *j, const uint8_t *img, struct judgement *v)
{
	const struct model *m = j->m;
	clear(v);
	memmove(j->img, img, m->durable_size);
	for (unsigned k = 0; k < j->n; k++)
		if (j->props[k].kind == P_DURABLE && !expr_eval(j->props[k].cond, m, j->img) &&
		    hit(j, v, (int)k, P_DURABLE, "a crash here leaves a durable image that violates the condition%s", ""))
			return 1;
	struct strbuf why;
	sb_init(&why);
	if (j->golden) {
		/* idempotency, confirmed: re-execution from what survived gives
		** the crash-free result */
		int k = last_of(j, P_IDEMPOTENT), stop = 0;
		memcpy(j->re, j->img, m->sv_size);
		if (!m->reexecute(m, j->re, &why))
			stop = hit(j, v, k, P_IDEMPOTENT, "re-execution after this crash fails: %s", sb_str(&why));
		else
			for (unsigned i = 0; i < j->ngolden && !stop; i++)
				if (m->read(m, j->re, j->golden_locs[i]) != j->golden[i])
					stop = hit(j, v, k, P_IDEMPOTENT,
					           "re-executing the kernel after this crash does not give the crash-free result%s",
					           "");
		sb_reset(&why);
		if (stop)
			goto out;
	}
	int r = m->recover ? m->recover(m, j->img, recovered_bad, j, &why) : RECOVER_OK;
	if (why.len && strchr(why.s, '\n')) /* the reason; the steps are for the report */
		*strchr(why.s, '\n') = 0;
	if (r == RECOVER_CUT) {
		v->cut = 1; /* a limit inside the recovery: nothing decided here */
		goto out;
	}
	if (r == RECOVER_FAIL &&
	    hit(j, v, last_of(j, P_RECOVERABLE), P_RECOVERABLE, "the recovery program fails on this crash image: %s",
	        sb_str(&why)))
		goto out;
	/* without a recovery program the image itself must satisfy them */
	for (unsigned k = 0; k < j->n && (r == RECOVER_BAD || !m->recover); k++)
		if (j->props[k].kind == P_RECOVERABLE && !expr_eval(j->props[k].cond, m, j->img) &&
		    hit(j, v, (int)k, P_RECOVERABLE, "after a crash here and recovery, the image violates the condition%s",
		        ""))
			break;
out:
	sb_free(&why);
	return v->violated;
}

int judge_finish(struct judge *j, struct judgement *v)
{
	clear(v);
	for (unsigned k = 0; k < j->n; k++)
		if (j->props[k].kind == P_EXISTS && !j->witnessed[k] &&
		    hit(j, v, (int)k, P_EXISTS, "no final state satisfies the condition%s", ""))
			break;
	for (unsigned k = 0; k < j->n && !(v->violated && !j->keep_going); k++) {
		/* equals: every outcome of the reference is reached here too */
		const struct property *p = &j->props[k];
		if (p->kind != P_EQUALS || !p->ref || ss_count(j->results[k]) == p->nref)
			continue;
		for (unsigned i = 0; i < p->nref; i++) {
			const uint32_t *o = p->ref_vals + (size_t)i * p->nlocs;
			if (ss_get(j->results[k], o, sizeof(uint32_t) * p->nlocs))
				continue;
			struct strbuf t;
			sb_init(&t);
			sb_printf(&t, "machine %s reaches ", p->machine);
			outcome_print(j->m, p, o, &t);
			sb_printf(&t, ", which machine %s never reaches", j->m->name);
			hit(j, v, (int)k, P_EQUALS, "%s", sb_str(&t));
			sb_free(&t);
			break;
		}
	}
	return v->violated;
}

int judge_end(struct judge *j, const uint8_t *sv, int crashed, struct judgement *v)
{
	const struct model *m = j->m;
	if (crashed) {
		if (!m->durable) {
			clear(v);
			return 0;
		}
		m->durable(m, sv, j->re);
		return judge_crash(j, j->re, v);
	}
	if (judge_state(j, sv, v))
		return 1;
	if (!j->act)
		j->act = xmalloc(sizeof *j->act * (m->max_actions + 1));
	struct judgement st = *v;
	if (!judge_moves(j, sv, j->act, m->enabled(m, sv, j->act), v))
		*v = st;
	return v->violated;
}
