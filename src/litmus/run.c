/*
** One litmus test under one model: build the machine (or call the
** axiomatic engine), collect the distinct outcomes over the condition's
** locations in a canonical order.
*/
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "litmus/run.h"
#include "explore/replay.h"
#include "machines/addrqueue.h"
#include "machines/litmus_sc.h"
#include "util/strbuf.h"

const char *const lit_models[] = {
	"sc", "ics13", "ics13-coherent", "ics13-fixed", "scoped-rmo", "ptx", NULL
};

int lit_model_known(const char *name)
{
	for (int i = 0; lit_models[i]; i++)
		if (strcmp(lit_models[i], name) == 0)
			return 1;
	return 0;
}

/* ---- the valuation model: sv is uint32_t[location id] ------------------ */

static uint32_t val_read(const struct model *m, const uint8_t *sv, int loc)
{
	(void)m;
	uint32_t v;
	memcpy(&v, sv + 4 * (size_t)loc, 4);
	return v;
}

static int val_lookup(const struct model *m, int tid, const char *name, long index,
                      enum vtype *type, unsigned *count, struct strbuf *err)
{
	*count = 1;
	if (index >= 0) {
		sb_printf(err, "litmus locations have no index");
		return -1;
	}
	return litmus_lookup(m->priv, tid, name, type, err);
}

static void val_loc_name(const struct model *m, int loc, struct strbuf *out)
{
	litmus_loc_name(m->priv, loc, out);
}

static enum vtype val_loc_type(const struct model *m, int loc)
{
	return litmus_loc_type(m->priv, loc);
}

void lit_valuation_model(const struct litmus *t, struct model *m)
{
	memset(m, 0, sizeof *m);
	m->name = "valuation";
	m->priv = (void *)t;
	m->sv_size = 4 * ((size_t)t->nlocs + LIT_MAXT * LIT_MAXR);
	m->read = val_read;
	m->lookup = val_lookup;
	m->loc_name = val_loc_name;
	m->loc_type = val_loc_type;
}

/* ---- outcomes ------------------------------------------------------------- */

static int out_less(const struct lit_run *r, const struct lit_outcome *a, const struct lit_outcome *b)
{
	for (int i = 0; i < r->nolocs; i++)
		if (a->vals[i] != b->vals[i])
			return a->vals[i] < b->vals[i];
	return 0;
}

/* Insertion sort: outcome lists are short, and it needs no context. */
static void sort_outcomes(struct lit_run *r)
{
	for (unsigned i = 1; i < r->nout; i++) {
		struct lit_outcome x = r->out[i];
		unsigned j = i;
		while (j > 0 && out_less(r, &x, &r->out[j - 1])) {
			r->out[j] = r->out[j - 1];
			j--;
		}
		r->out[j] = x;
	}
}

static int cmp_loc(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	return (a > b) - (a < b);
}

/* A trace (action indices) from the initial state, one line per step, as
** the one replayer (explore/replay.h) re-runs it. */
static char *replay(const struct model *m, const struct trace *tr)
{
	struct strbuf b;
	sb_init(&b);
	uint8_t *sv = xmalloc(m->sv_size);
	char **desc = xcalloc(tr->len ? tr->len : 1, sizeof *desc);
	uint32_t n = trace_replay(m, tr, sv, desc, NULL);
	for (uint32_t i = 0; i < n; i++) {
		sb_printf(&b, "  %3u. %s\n", i + 1, desc[i]);
		free(desc[i]);
	}
	if (n < tr->len)
		sb_printf(&b, "  (trace does not replay at step %u)\n", n + 1);
	free(desc);
	free(sv);
	char *s = xstrdup(b.len ? sb_str(&b) : "");
	sb_free(&b);
	return s;
}

static int run_explore(const struct litmus *t, struct model *m, const struct expr *cond,
                       const struct explore_opts *o, int want_witness, struct lit_run *r,
                       struct strbuf *err)
{
	struct property p;
	memset(&p, 0, sizeof p);
	p.kind = t->kind == LC_EXISTS ? P_EXISTS : t->kind == LC_FORALL ? P_FORALL : P_NOT_EXISTS;
	p.cond = (struct expr *)cond;
	p.text = t->cond_text;
	struct explore_opts opts = *o;
	opts.keep_going = 1; /* every outcome, not just the first witness */
	struct explore_result er;
	memset(&er, 0, sizeof er);
	explore(m, &p, 1, &opts, &er);
	r->states = er.states;
	r->transitions = er.transitions;
	r->seconds = er.seconds;
	int rc = 0;
	if (er.verdict == V_INCOMPLETE || er.limit) {
		r->incomplete = 1;
		r->why = xstrdup(er.limit ? er.limit : "a limit was hit");
	} else if (er.verdict == V_FAIL && (er.failed_kind == P_DEADLOCK || er.failed_kind == P_FAULT)) {
		/* deadlock or fault: a model or test error, not an outcome */
		sb_printf(err, "%s: under %s: %s", t->file, r->model, er.why ? er.why : "exploration failed");
		rc = -1;
	}
	if (want_witness && rc == 0 && er.trace.len &&
	    ((p.kind == P_EXISTS && er.witness) || (p.kind != P_EXISTS && er.verdict == V_FAIL)))
		r->witness = replay(m, &er.trace);
	/* map the explorer's outcome locations onto ours */
	int pos[LIT_MAXO];
	for (int k = 0; k < r->nolocs; k++) {
		pos[k] = -1;
		for (unsigned j = 0; j < er.nolocs; j++)
			if (er.olocs[j] == r->olocs[k])
				pos[k] = (int)j;
		if (pos[k] < 0 && rc == 0 && er.noutcomes) {
			sb_printf(err, "%s: explorer did not report location %d", t->file, r->olocs[k]);
			rc = -1;
		}
	}
	if (rc == 0)
		for (unsigned i = 0; i < er.noutcomes; i++) {
			uint32_t vals[LIT_MAXO];
			for (int k = 0; k < r->nolocs; k++)
				vals[k] = er.outcomes[i].vals[pos[k]];
			unsigned j;
			for (j = 0; j < r->nout; j++)
				if (!memcmp(r->out[j].vals, vals, sizeof(uint32_t) * (size_t)r->nolocs))
					break;
			if (j == r->nout) {
				r->out = xrealloc(r->out, (r->nout + 1) * sizeof *r->out);
				memset(&r->out[j], 0, sizeof r->out[j]);
				memcpy(r->out[j].vals, vals, sizeof(uint32_t) * (size_t)r->nolocs);
				r->out[j].sat = er.outcomes[i].sat;
				r->nout++;
			}
			r->out[j].count += er.outcomes[i].count;
		}
	explore_result_free(&er);
	return rc;
}

int lit_run_model(const struct litmus *t, const char *model, const char *chip,
                  const struct explore_opts *o, int want_witness, struct lit_run *r,
                  struct strbuf *err)
{
	memset(r, 0, sizeof *r);
	snprintf(r->model, sizeof r->model, "%s", model);
	struct model vm;
	lit_valuation_model(t, &vm);
	if (expr_resolve(t->cond, &vm, err))
		return -1;
	int locs[LIT_MAXO + 1];
	unsigned n = expr_locs(t->cond, locs, 0, LIT_MAXO + 1);
	if (n > LIT_MAXO) {
		sb_printf(err, "%s:%d:1: condition uses more than %d locations", t->file, t->cond_line, LIT_MAXO);
		return -1;
	}
	/* canonical order: memory locations, then registers by thread */
	qsort(locs, n, sizeof locs[0], cmp_loc);
	r->nolocs = (int)n;
	memcpy(r->olocs, locs, n * sizeof locs[0]);
	for (unsigned k = 0; k < n; k++) {
		struct strbuf nm, e2;
		sb_init(&nm);
		sb_init(&e2);
		litmus_loc_name(t, locs[k], &nm);
		const char *s = sb_str(&nm);
		const char *colon = strchr(s, ':');
		int tid = colon ? atoi(s) : -1;
		litmus_lookup(t, tid, colon ? colon + 1 : s, &r->otype[k], &e2);
		sb_free(&nm);
		sb_free(&e2);
	}
	int rc;
	if (strcmp(model, "scoped-rmo") == 0) {
		rc = scoped_rmo_run(t, t->cond, o, r, err);
	} else if (strcmp(model, "ptx") == 0) {
		rc = ptx_run(t, t->cond, o, r, err);
	} else {
		struct model *m;
		struct aq_params p;
		if (strcmp(model, "sc") == 0) {
			m = litmus_sc_model(t, err);
		} else if (strcmp(model, "ics13") == 0 || strcmp(model, "ics13-coherent") == 0) {
			aq_params_ics13(&p);
			p.load_array = strcmp(model, "ics13") == 0;
			m = addrqueue_model(t, &p, err);
		} else if (strcmp(model, "ics13-fixed") == 0) {
			aq_params_fixed(&p, chip);
			m = addrqueue_model(t, &p, err);
		} else {
			sb_printf(err, "unknown model '%s'", model);
			return -1;
		}
		if (!m)
			return -1;
		rc = run_explore(t, m, t->cond, o, want_witness, r, err);
		m->destroy(m);
	}
	sort_outcomes(r);
	return rc;
}

void lit_run_free(struct lit_run *r)
{
	free(r->out);
	free(r->why);
	free(r->witness);
	free(r->race);
	r->race = NULL;
	r->out = NULL;
	r->why = NULL;
	r->witness = NULL;
}

void lit_run_counts(const struct lit_run *r, unsigned *pos, unsigned *neg)
{
	*pos = *neg = 0;
	for (unsigned i = 0; i < r->nout; i++) {
		if (r->out[i].sat)
			(*pos)++;
		else
			(*neg)++;
	}
}

int lit_run_ok(const struct litmus *t, const struct lit_run *r)
{
	unsigned p, n;
	lit_run_counts(r, &p, &n);
	switch (t->kind) {
	case LC_EXISTS: return p > 0;
	case LC_NOT_EXISTS: return p == 0;
	default: return n == 0;
	}
}
