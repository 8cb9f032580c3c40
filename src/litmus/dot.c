/*
** `gpumc litmus --dot FILE`: an execution of the test that satisfies its
** condition (exists; for ~exists and forall, one that refutes it), drawn
** as herd7's -show does: one node per memory event in a column per
** thread, po edges down each thread, rf from the store each load read (or
** the initial write), co from the initial write to every store of its
** location and, when the outcome names a location's final value, to the
** store that wrote it last.  The values come from the outcome: a load whose
** register the condition does not name has no rf edge.
*/
#include "config.h"
#include "litmus/dot.h"

#include <string.h>

#include "util/strbuf.h"

/* The location a memory instruction accesses, or -1 (an address in a
** register). */
static int ins_loc(const struct lit_ins *in)
{
	return in->addr.kind == OK_LOC ? in->addr.loc : -1;
}

/* The outcome's value of location id `loc`, or -1 when it does not name it. */
static long outcome_val(const struct lit_run *r, const struct lit_outcome *o, int loc)
{
	for (int k = 0; k < r->nolocs; k++)
		if (r->olocs[k] == loc)
			return (long)o->vals[k];
	return -1;
}

int lit_dot(const struct litmus *t, const struct lit_run *r, struct strbuf *out)
{
	const struct lit_outcome *o = NULL;
	for (unsigned i = 0; i < r->nout && !o; i++)
		if (t->kind == LC_EXISTS ? r->out[i].sat : !r->out[i].sat)
			o = &r->out[i];
	if (!o)
		return -1;
	sb_puts(out, "digraph execution {\n  node [shape=box, style=rounded, fontsize=10];\n  labelloc=t;\n  label=");
	struct strbuf s;
	sb_init(&s);
	sb_printf(&s, "%s under %s: ", t->name, r->model);
	for (int k = 0; k < r->nolocs; k++) {
		litmus_loc_name(t, r->olocs[k], &s);
		sb_printf(&s, "=%u%s", o->vals[k], k + 1 < r->nolocs ? " " : "");
	}
	sb_dot_str(out, sb_str(&s));
	sb_puts(out, ";\n");
	/* the initial writes, on top */
	sb_puts(out, "  { rank=source;\n");
	for (int l = 0; l < t->nlocs; l++) {
		sb_reset(&s);
		sb_printf(&s, "init: %s=%u", t->loc[l].name, t->loc[l].init);
		sb_printf(out, "    i%d [label=", l);
		sb_dot_str(out, sb_str(&s));
		sb_puts(out, ", style=dashed];\n  ");
	}
	sb_puts(out, "}\n");
	/* one column per thread, po down it */
	for (int i = 0; i < t->nthreads; i++) {
		const struct lit_thread *th = &t->thr[i];
		sb_printf(out, "  subgraph cluster_%d {\n    label=\"T%d\";\n", i, th->id);
		int prev = -1;
		for (int k = 0; k < th->nins; k++) {
			if (!lit_is_mem(&th->ins[k]))
				continue;
			sb_reset(&s);
			sb_printf(&s, "T%d: %s", th->id, th->ins[k].text);
			long v = th->ins[k].dst >= 0 ? outcome_val(r, o, t->nlocs + i * LIT_MAXR + th->ins[k].dst) : -1;
			if (v >= 0)
				sb_printf(&s, " = %ld", v);
			sb_printf(out, "    e%d_%d [label=", i, k);
			sb_dot_str(out, sb_str(&s));
			sb_puts(out, "];\n");
			if (prev >= 0)
				sb_printf(out, "    e%d_%d -> e%d_%d [label=\"po\"];\n", i, prev, i, k);
			prev = k;
		}
		sb_puts(out, "  }\n");
	}
	/* rf: a load whose value the outcome gives reads from the store of that
	** value to its location (the first, in thread order), else from init */
	for (int i = 0; i < t->nthreads; i++)
		for (int k = 0; k < t->thr[i].nins; k++) {
			const struct lit_ins *in = &t->thr[i].ins[k];
			int l = ins_loc(in);
			long v = in->dst >= 0 ? outcome_val(r, o, t->nlocs + i * LIT_MAXR + in->dst) : -1;
			if ((in->op != OP_LD && in->op != OP_ATOM) || l < 0 || v < 0)
				continue;
			int found = 0;
			for (int j = 0; j < t->nthreads && !found; j++)
				for (int q = 0; q < t->thr[j].nins && !found; q++) {
					const struct lit_ins *w = &t->thr[j].ins[q];
					if ((w->op == OP_ST || w->op == OP_ATOM) && ins_loc(w) == l && w->a.kind == OK_IMM &&
					    (long)w->a.imm == v && !(j == i && q == k)) {
						sb_printf(out, "  e%d_%d -> e%d_%d [label=\"rf\", color=red, fontcolor=red];\n", j, q, i, k);
						found = 1;
					}
				}
			if (!found && (long)t->loc[l].init == v)
				sb_printf(out, "  i%d -> e%d_%d [label=\"rf\", color=red, fontcolor=red];\n", l, i, k);
		}
	/* co: the initial write first; the store of the final value last */
	for (int l = 0; l < t->nlocs; l++) {
		long fin = outcome_val(r, o, l);
		int last_j = -1, last_q = -1;
		for (int j = 0; j < t->nthreads; j++)
			for (int q = 0; q < t->thr[j].nins; q++) {
				const struct lit_ins *w = &t->thr[j].ins[q];
				if ((w->op != OP_ST && w->op != OP_ATOM) || ins_loc(w) != l)
					continue;
				sb_printf(out, "  i%d -> e%d_%d [label=\"co\", color=blue, fontcolor=blue, style=dashed];\n", l, j, q);
				if (fin >= 0 && w->a.kind == OK_IMM && (long)w->a.imm == fin)
					last_j = j, last_q = q;
			}
		for (int j = 0; j < t->nthreads && last_j >= 0; j++)
			for (int q = 0; q < t->thr[j].nins; q++) {
				const struct lit_ins *w = &t->thr[j].ins[q];
				if ((w->op == OP_ST || w->op == OP_ATOM) && ins_loc(w) == l && !(j == last_j && q == last_q))
					sb_printf(out, "  e%d_%d -> e%d_%d [label=\"co\", color=blue, fontcolor=blue];\n", j, q,
					          last_j, last_q);
			}
	}
	sb_puts(out, "}\n");
	sb_free(&s);
	return 0;
}
