/*
** Reports.  A counterexample is stored as action indices only; to print it
** the trace is replayed from the initial state, so descriptions are those
** of the machine itself and cannot disagree with what was explored.
*/
#include "config.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "explore/prop.h"
#include "explore/outcomes.h"
#include "explore/replay.h"
#include "util/interrupt.h"

void verdict_string(const struct explore_result *r, struct strbuf *out)
{
	switch (r->verdict) {
	case V_PASS: sb_puts(out, "pass"); break;
	case V_FAIL: sb_printf(out, "fail %s", prop_kind_name(r->failed_kind)); break;
	case V_INCOMPLETE: sb_puts(out, "incomplete"); break;
	default: sb_puts(out, "error"); break;
	}
}

void report_locs(const struct model *m, const uint8_t *sv, const int *locs, unsigned n,
                 struct strbuf *out, int json)
{
	struct strbuf name;
	sb_init(&name);
	if (json)
		sb_putc(out, '{');
	for (unsigned i = 0; i < n; i++) {
		sb_reset(&name);
		model_loc_name(m, locs[i], &name);
		uint32_t v = m->read(m, sv, locs[i]);
		enum vtype t = model_loc_type(m, locs[i]);
		const char *nm = sb_str(&name);
		if (json) {
			if (i)
				sb_putc(out, ',');
			sb_json_str(out, nm);
			sb_putc(out, ':');
			value_json(v, t, out);
		} else {
			sb_printf(out, "%s%s = ", i ? ", " : "", nm);
			value_print(v, t, out);
		}
	}
	if (json)
		sb_putc(out, '}');
	sb_free(&name);
}

/* A schedule that gives another result may pass a data race: name the
** first one along t (the states its prefixes reach), as a note. */
struct race_find {
	const struct model *m;
	struct strbuf *why;
	uint32_t at; /* steps before the first race; UINT32_MAX: none yet */
};
static void race_after(void *ctx, uint32_t i, const uint8_t *sv)
{
	struct race_find *f = ctx;
	if (f->at == UINT32_MAX && f->m->race(f->m, sv, f->why))
		f->at = i + 1;
}

static void note_race(struct strbuf *out, const struct model *m, const struct trace *t, uint8_t *sv)
{
	if (!m->race)
		return;
	struct strbuf why;
	sb_init(&why);
	struct race_find f = { m, &why, UINT32_MAX };
	struct trace p = { 0, t->step };
	trace_replay(m, &p, sv, NULL, NULL);
	if (m->race(m, sv, &why))
		f.at = 0;
	else /* one pass, each prefix's state looked at as it is reached */
		trace_replay_each(m, t, sv, NULL, NULL, race_after, &f);
	if (f.at != UINT32_MAX)
		sb_printf(out, "note: a data race, after step %u of schedule B (determinism is guaranteed to "
		          "data-race-free kernels only): %s\n", f.at, sb_str(&why));
	sb_free(&why);
}

/* One schedule replayed for printing: each step's description and what it
** changed in global memory (the observable locations whose value differs
** before and after the step).  sv ends in the schedule's last state. */
struct change {
	int loc;
	uint32_t from, to;
};
struct sched {
	char **desc;
	const char **note; /* per step: why it looks repeated (or NULL) */
	uint32_t n;
	struct change **chg; /* per step, nchg[i] entries */
	unsigned *nchg;
};

/* trace_replay_each's hook: the observable locations step i changed */
struct step_changes {
	const struct model *m;
	struct sched *s;
	const int *locs;
	unsigned nl;
	uint32_t *prev;
};
static void step_changed(void *ctx, uint32_t i, const uint8_t *sv)
{
	struct step_changes *c = ctx;
	for (unsigned k = 0; k < c->nl; k++) {
		uint32_t v = c->m->read(c->m, sv, c->locs[k]);
		if (v == c->prev[k])
			continue;
		c->s->chg[i] = xrealloc(c->s->chg[i], sizeof **c->s->chg * (c->s->nchg[i] + 1));
		c->s->chg[i][c->s->nchg[i]++] = (struct change){ c->locs[k], c->prev[k], v };
		c->prev[k] = v;
	}
}

static void sched_load(struct sched *s, const struct model *m, const struct trace *t, uint8_t *sv)
{
	s->desc = xcalloc(t->len + 1, sizeof(char *));
	s->chg = xcalloc(t->len + 1, sizeof *s->chg);
	s->nchg = xcalloc(t->len + 1, sizeof *s->nchg);
	unsigned nl = model_observables(m, NULL, 0);
	int *locs = xmalloc(sizeof(int) * (nl ? nl : 1));
	model_observables(m, locs, nl);
	uint32_t *prev = xmalloc(sizeof(uint32_t) * (nl ? nl : 1));
	struct trace init = { 0, t->step };
	trace_replay(m, &init, sv, NULL, NULL);
	for (unsigned k = 0; k < nl; k++)
		prev[k] = m->read(m, sv, locs[k]);
	/* one pass: each step's description, and what it changed read as it
	** is applied */
	struct step_changes sc = { m, s, locs, nl, prev };
	s->n = trace_replay_each(m, t, sv, s->desc, NULL, step_changed, &sc);
	free(prev);
	free(locs);
	s->note = xcalloc(s->n + 1, sizeof *s->note);
	/* a warp that issues the same atomic twice in a row was refused the
	** first time (a full DAB buffer: it waits for a flush, then issues
	** again) */
	unsigned *last = NULL, nw = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		unsigned w, pc;
		if (sscanf(s->desc[i], "warp %u (cta %*u, sm %*u) issues pc %u", &w, &pc) != 2 || w > 65535)
			continue;
		if (w >= nw) {
			last = xrealloc(last, sizeof *last * (w + 1));
			for (; nw <= w; nw++)
				last[nw] = UINT32_MAX;
		}
		if (last[w] == pc && (strstr(s->desc[i], ": red.") || strstr(s->desc[i], ": atom.")))
			s->note[i] = "   (issued again: its atomic buffer was full the first time)";
		last[w] = pc;
	}
	free(last);
}

static void sched_free(struct sched *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		free(s->desc[i]);
		free(s->chg[i]);
	}
	free(s->desc);
	free(s->note);
	free(s->chg);
	free(s->nchg);
}

static void print_change(struct strbuf *out, const struct model *m, const struct change *c, int json)
{
	struct strbuf name;
	sb_init(&name);
	model_loc_name(m, c->loc, &name);
	enum vtype t = model_loc_type(m, c->loc);
	if (json) {
		sb_puts(out, "{\"location\":");
		sb_json_str(out, sb_str(&name));
		sb_puts(out, ",\"from\":");
		value_json(c->from, t, out);
		sb_puts(out, ",\"to\":");
		value_json(c->to, t, out);
		sb_puts(out, "}");
	} else {
		sb_printf(out, "%s: ", sb_str(&name));
		value_print(c->from, t, out);
		sb_puts(out, " -> ");
		value_print(c->to, t, out);
	}
	sb_free(&name);
}

/* Steps [from, to) of a schedule; mark[i] (may be NULL) is appended to
** step i's line; values: each step's memory changes under it. */
static void print_steps(struct strbuf *out, const struct model *m, const struct trace *t, const struct sched *s,
                        uint32_t from, uint32_t to, const char *const *mark, int json, int values)
{
	if (json)
		sb_putc(out, '[');
	for (uint32_t i = from; i < to && i < s->n; i++) {
		if (json) {
			sb_printf(out, "%s{\"step\":%u,\"action\":%u,\"text\":", i > from ? "," : "", i + 1, t->step[i]);
			sb_json_str(out, s->desc[i]);
			for (unsigned k = 0; k < s->nchg[i]; k++) {
				sb_puts(out, k ? "," : ",\"changes\":[");
				print_change(out, m, &s->chg[i][k], 1);
			}
			sb_puts(out, s->nchg[i] ? "]}" : "}");
			continue;
		}
		sb_printf(out, "  %4u. %s%s%s\n", i + 1, s->desc[i], s->note[i] ? s->note[i] : "", mark && mark[i] ? mark[i] : "");
		for (unsigned k = 0; values && k < s->nchg[i]; k++) {
			sb_puts(out, "          ");
			print_change(out, m, &s->chg[i][k], 0);
			sb_putc(out, '\n');
		}
	}
	if (json)
		sb_putc(out, ']');
}

static void print_schedule(struct strbuf *out, const struct model *m, const struct trace *t, int json, int values,
                           uint8_t *sv)
{
	struct sched s;
	sched_load(&s, m, t, sv);
	print_steps(out, m, t, &s, 0, UINT32_MAX, NULL, json, values);
	sched_free(&s);
}

/* Step i's place in the other schedule: the same description, the same
** number of times seen before (a warp may issue the same text twice);
** -1 if absent. */
static int counterpart(const struct sched *a, uint32_t i, const struct sched *b)
{
	unsigned occ = 0;
	for (uint32_t k = 0; k < i; k++)
		occ += !strcmp(a->desc[k], a->desc[i]);
	for (uint32_t k = 0; k < b->n; k++)
		if (!strcmp(b->desc[k], a->desc[i]) && occ-- == 0)
			return (int)k;
	return -1;
}

static int writes(const struct sched *s, uint32_t i, int loc)
{
	for (unsigned k = 0; k < s->nchg[i]; k++)
		if (s->chg[i][k].loc == loc)
			return 1;
	return 0;
}

/* Does step i's text name the variable of loc as a memory operand
** ("[data]", "[out + %r0]")?  Steps say what they read only in their
** instruction text. */
static int names_operand(const struct model *m, const struct sched *s, uint32_t i, int loc)
{
	struct strbuf name;
	sb_init(&name);
	model_loc_name(m, loc, &name);
	const char *nm = sb_str(&name), *br = strchr(nm, '[');
	size_t l = br ? (size_t)(br - nm) : strlen(nm);
	int hit = 0;
	for (const char *p = strchr(s->desc[i], '['); p && !hit; p = strchr(p + 1, '['))
		hit = !strncmp(p + 1, nm, l) && (p[1 + l] == ']' || p[1 + l] == ' ');
	sb_free(&name);
	return hit;
}

/* The variable an instruction step accesses, from its text ("st.shared.u32
** [acc + %r0], ..." -> "acc"), into name; 1 when it writes it (st, atom,
** red), 0 for a load, -1 when the step is no memory access. */
static int text_access(const char *desc, struct strbuf *name)
{
	const char *ins = strstr(desc, ": "), *br;
	if (!ins || !(br = strchr(ins, '[')))
		return -1;
	ins += 2;
	int w = !strncmp(ins, "st.", 3) || !strncmp(ins, "red.", 4) || !strncmp(ins, "atom.", 5);
	if (!w && strncmp(ins, "ld.", 3))
		return -1;
	size_t l = strcspn(br + 1, " ]");
	sb_reset(name);
	sb_printf(name, "%.*s", (int)l, br + 1);
	return w;
}

/* The conflicting operation pair of a determinism violation: steps i < j
** of A, after the shared prefix, that B performs in the other order and
** that conflict: both change the same location (tried first for the
** locations whose final values differ: the pair that changed the
** result), or one changes a location the other names as an operand (a
** load racing a store), or, for memory the result does not show (shared
** memory), both instructions access the same variable and one writes it.
** Returns 1 with the variable in name (*rw: a read-write pair), or 0 when
** no pair explains the difference. */
static int conflict(const struct model *m, const struct sched *a, const struct sched *b, uint32_t d,
                    const int *diff, unsigned ndiff, uint32_t *ia, uint32_t *ja, int *ib, int *jb, int *rw,
                    struct strbuf *name)
{
	struct strbuf n2;
	sb_init(&n2);
	for (int pass = 0; pass < 4; pass++)
		for (uint32_t j = d + 1; j < a->n; j++)
			for (uint32_t i = j; i-- > d;) {
				int bi = counterpart(a, i, b), bj = counterpart(a, j, b);
				if (bi < 0 || bj < 0 || bj > bi)
					continue;
				if (pass == 3) {
					int wi = text_access(a->desc[i], name), wj = text_access(a->desc[j], &n2);
					if (wi < 0 || wj < 0 || !(wi || wj) || strcmp(sb_str(name), sb_str(&n2)))
						continue;
					*ia = i, *ja = j, *ib = bi, *jb = bj, *rw = !(wi && wj);
					sb_free(&n2);
					return 1;
				}
				for (int side = 0; side < 2; side++) {
					/* the writer w and the other step o */
					uint32_t w = side ? i : j, other = side ? j : i;
					for (unsigned k = 0; k < a->nchg[w]; k++) {
						int loc = a->chg[w][k].loc, hit = pass > 0;
						for (unsigned q = 0; q < ndiff && !hit; q++)
							hit = diff[q] == loc;
						if (!hit || !(pass < 2 ? writes(a, other, loc) : names_operand(m, a, other, loc)))
							continue;
						*ia = i, *ja = j, *ib = bi, *jb = bj, *rw = pass == 2;
						sb_reset(name);
						model_loc_name(m, loc, name);
						sb_free(&n2);
						return 1;
					}
				}
			}
	sb_free(&n2);
	return 0;
}

/* A determinism violation replayed: both schedules, where they diverge,
** and the conflicting pair ([x] at ia in A, ib in B; [y] at ja, jb). */
struct det {
	struct sched a, b;
	uint8_t *sva, *svb;
	uint32_t d, ia, ja;
	int ib, jb, found, rw;
	struct strbuf name; /* the variable of the pair */
};

static void det_load(struct det *x, const struct model *m, const struct explore_result *r,
                     const struct property *fp)
{
	memset(x, 0, sizeof *x);
	x->sva = xmalloc(m->sv_size);
	x->svb = xmalloc(m->sv_size);
	sched_load(&x->a, m, &r->trace2, x->sva);
	sched_load(&x->b, m, &r->trace, x->svb);
	x->d = r->diverge;
	int *diff = xmalloc(sizeof(int) * (fp->nlocs ? fp->nlocs : 1));
	unsigned ndiff = 0;
	for (unsigned k = 0; k < fp->nlocs; k++)
		if (m->read(m, x->sva, fp->locs[k]) != m->read(m, x->svb, fp->locs[k]))
			diff[ndiff++] = fp->locs[k];
	sb_init(&x->name);
	x->found = conflict(m, &x->a, &x->b, x->d, diff, ndiff, &x->ia, &x->ja, &x->ib, &x->jb, &x->rw, &x->name);
	free(diff);
}

static void det_free(struct det *x)
{
	sched_free(&x->a);
	sched_free(&x->b);
	free(x->sva);
	free(x->svb);
	sb_free(&x->name);
}

/* A determinism violation, as text: the shared prefix once, each
** schedule's suffix with its result, and the conflicting pair. */
static void print_determinism(struct strbuf *out, const struct model *m, const struct explore_result *r,
                              const struct property *fp, int values)
{
	struct det x;
	det_load(&x, m, r, fp);
	uint32_t d = x.d;
	const char **ma = xcalloc(x.a.n + 1, sizeof(char *)), **mb = xcalloc(x.b.n + 1, sizeof(char *));
	if (d < x.a.n)
		ma[d] = "   <-- schedules diverge here";
	if (d < x.b.n)
		mb[d] = "   <-- schedules diverge here";
	if (x.found) {
		ma[x.ia] = x.ia == d ? "   <-- schedules diverge here; [x]" : "   <-- [x]";
		mb[x.ib] = (uint32_t)x.ib == d ? "   <-- schedules diverge here; [x]" : "   <-- [x]";
		ma[x.ja] = x.ja == d ? "   <-- schedules diverge here; [y]" : "   <-- [y]";
		mb[x.jb] = (uint32_t)x.jb == d ? "   <-- schedules diverge here; [y]" : "   <-- [y]";
	}
	sb_printf(out, "shared prefix (%u step%s):\n", d, d == 1 ? "" : "s");
	print_steps(out, m, &r->trace2, &x.a, 0, d, NULL, 0, values);
	sb_printf(out, "schedule A from step %u (%u steps in all):\n", d + 1, r->trace2.len);
	print_steps(out, m, &r->trace2, &x.a, d, UINT32_MAX, (const char *const *)ma, 0, values);
	sb_puts(out, "  result A: ");
	report_locs(m, x.sva, fp->locs, fp->nlocs, out, 0);
	sb_printf(out, "\nschedule B from step %u (%u steps in all):\n", d + 1, r->trace.len);
	print_steps(out, m, &r->trace, &x.b, d, UINT32_MAX, (const char *const *)mb, 0, values);
	sb_puts(out, "  result B: ");
	report_locs(m, x.svb, fp->locs, fp->nlocs, out, 0);
	sb_putc(out, '\n');
	if (x.found)
		sb_printf(out, "conflicting pair: [x] and [y] %s %s; A performs [x] first (steps %u, %u), "
		               "B performs [y] first (steps %d, %d)\n",
		          x.rw ? "access" : "both write", sb_str(&x.name), x.ia + 1, x.ja + 1, x.jb + 1, x.ib + 1);
	sb_printf(out, "  the schedules share their first %u steps and diverge at step %u\n", d, d + 1);
	free(ma);
	free(mb);
	det_free(&x);
}

/* {=== Graphviz: a counterexample as steps in component lanes ========== */

void report_lane(const char *desc, struct strbuf *lane)
{
	sb_reset(lane);
	const char *sp = strchr(desc, ' ');
	size_t l = sp ? (size_t)(sp - desc) : strlen(desc);
	if (sp) {
		const char *sp2 = strpbrk(sp + 1, " :(");
		l = sp2 ? (size_t)(sp2 - desc) : strlen(desc);
	}
	sb_printf(lane, "%.*s", (int)l, desc);
}

/* Nodes "<tag><i>" for steps [from, s->n) of one schedule, grouped into
** lane clusters by name; pair marks in red. */
struct dot_lanes {
	char **name;
	struct strbuf *body;
	unsigned n;
};

static struct strbuf *lane_body(struct dot_lanes *L, const char *name)
{
	for (unsigned i = 0; i < L->n; i++)
		if (!strcmp(L->name[i], name))
			return &L->body[i];
	L->name = xrealloc(L->name, sizeof *L->name * (L->n + 1));
	L->body = xrealloc(L->body, sizeof *L->body * (L->n + 1));
	L->name[L->n] = xstrdup(name);
	sb_init(&L->body[L->n]);
	return &L->body[L->n++];
}

static void dot_steps(struct strbuf *edges, struct dot_lanes *L, const struct sched *s, const char *tag,
                      uint32_t from, uint32_t to, const char *prev, int mx, int my)
{
	struct strbuf lane, id;
	sb_init(&lane);
	sb_init(&id);
	for (uint32_t i = from; i < to && i < s->n; i++) {
		report_lane(s->desc[i], &lane);
		struct strbuf *b = lane_body(L, sb_str(&lane));
		sb_printf(b, "    %s%u [label=", tag, i + 1);
		sb_reset(&id);
		sb_printf(&id, "%u. %s%s", i + 1, s->desc[i], (int)i == mx ? "  [x]" : (int)i == my ? "  [y]" : "");
		sb_dot_str(b, sb_str(&id));
		sb_puts(b, (int)i == mx || (int)i == my ? ", color=red, penwidth=3, fontcolor=red];\n" : "];\n");
		if (prev)
			sb_printf(edges, "  %s -> %s%u;\n", prev, tag, i + 1);
		sb_reset(&lane);
		sb_printf(&lane, "%s%u", tag, i + 1);
		prev = NULL;
		if (i + 1 < to && i + 1 < s->n)
			sb_printf(edges, "  %s%u -> %s%u;\n", tag, i + 1, tag, i + 2);
	}
	sb_free(&lane);
	sb_free(&id);
}

void report_dot(struct strbuf *out, const struct job *j, const struct explore_result *r)
{
	const struct model *m = j->model;
	const struct property *fp = r->failed >= 0 ? &j->props[r->failed] : NULL;
	struct dot_lanes L = { NULL, NULL, 0 };
	struct strbuf edges, title;
	sb_init(&edges);
	sb_init(&title);
	sb_puts(out, "digraph counterexample {\n  rankdir=TB;\n  node [shape=box, style=rounded, fontsize=10];\n");
	if (r->verdict == V_FAIL && r->failed_kind == P_DETERMINISTIC && fp) {
		struct det x;
		det_load(&x, m, r, fp);
		char last[32];
		snprintf(last, sizeof last, "p%u", x.d);
		dot_steps(&edges, &L, &x.a, "p", 0, x.d, NULL, -1, -1);
		dot_steps(&edges, &L, &x.a, "a", x.d, UINT32_MAX, x.d ? last : NULL, x.found ? (int)x.ia : -1,
		          x.found ? (int)x.ja : -1);
		dot_steps(&edges, &L, &x.b, "b", x.d, UINT32_MAX, x.d ? last : NULL, x.found ? x.ib : -1,
		          x.found ? x.jb : -1);
		sb_puts(&edges, "  resA [shape=note, label=");
		sb_puts(&title, "result A: ");
		report_locs(m, x.sva, fp->locs, fp->nlocs, &title, 0);
		sb_dot_str(&edges, sb_str(&title));
		sb_printf(&edges, "];\n  a%u -> resA;\n  resB [shape=note, label=", x.a.n);
		sb_reset(&title);
		sb_puts(&title, "result B: ");
		report_locs(m, x.svb, fp->locs, fp->nlocs, &title, 0);
		sb_dot_str(&edges, sb_str(&title));
		sb_printf(&edges, "];\n  b%u -> resB;\n", x.b.n);
		if (x.found)
			sb_printf(&edges, "  a%u -> a%u [color=red, style=dashed, constraint=false, label=\"conflict on %s\"];\n",
			          x.ia + 1, x.ja + 1, sb_str(&x.name));
		det_free(&x);
	} else {
		uint8_t *sv = xmalloc(m->sv_size);
		struct sched s;
		sched_load(&s, m, &r->trace, sv);
		dot_steps(&edges, &L, &s, "s", 0, UINT32_MAX, NULL, -1, -1);
		sched_free(&s);
		free(sv);
	}
	sb_reset(&title);
	if (r->verdict == V_FAIL)
		sb_printf(&title, "%s: VIOLATED: %s", j->spec->name, fp ? fp->text : prop_kind_name(r->failed_kind));
	else
		sb_printf(&title, "%s: witness", j->spec->name);
	sb_puts(out, "  labelloc=t;\n  label=");
	sb_dot_str(out, sb_str(&title));
	sb_puts(out, ";\n");
	for (unsigned i = 0; i < L.n; i++) {
		sb_printf(out, "  subgraph cluster_%u {\n    label=", i);
		sb_dot_str(out, L.name[i]);
		sb_printf(out, ";\n    style=filled;\n    color=\"/pastel19/%u\";\n%s  }\n", i % 9 + 1, sb_str(&L.body[i]));
		free(L.name[i]);
		sb_free(&L.body[i]);
	}
	sb_puts(out, sb_str(&edges));
	sb_puts(out, "}\n");
	free(L.name);
	free(L.body);
	sb_free(&edges);
	sb_free(&title);
}

/* }=== */

void report_stats_json(struct strbuf *out, const struct explore_result *r, size_t sv_size)
{
	sb_printf(out,
	          "{\"states\":%llu,\"transitions\":%llu,\"depth\":%u,\"terminal_states\":%llu,"
	          "\"crash_images\":%llu,\"seconds\":%.6f,\"states_per_second\":%.0f,"
	          "\"bytes_per_state\":%.2f,\"state_vector_bytes\":%zu,\"memory_bytes\":%llu,"
	          "\"omission_probability\":%.3g,\"reduction\":\"%s\",\"expanded_states\":%llu,"
	          "\"reduced_states\":%llu,\"swarm_runs\":%u,\"threads\":%u,\"search_seconds\":%.6f,\"store\":\"%s\"}",
	          (unsigned long long)r->states, (unsigned long long)r->transitions, r->depth,
	          (unsigned long long)r->terminals, (unsigned long long)r->crash_images, r->seconds,
	          r->seconds > 0 ? (double)r->states / r->seconds : 0.0,
	          r->states ? (double)r->bytes / (double)r->states : 0.0, sv_size,
	          (unsigned long long)r->bytes, r->omission, r->por ? "partial-order" : "none",
	          (unsigned long long)r->expanded, (unsigned long long)r->reduced, r->swarm_runs,
	          r->threads ? r->threads : 1, r->search_seconds, r->store ? r->store : "none");
}

/* What a pass rests on: final-state properties hold on how many terminal
** states, and whether every state can still finish. */
static void report_checked(struct strbuf *out, const struct job *j, const struct explore_result *r)
{
	unsigned nfinal = 0;
	for (unsigned k = 0; k < j->nprops; k++) {
		enum prop_kind pk = j->props[k].kind;
		nfinal += pk == P_DETERMINISTIC || pk == P_EXISTS || pk == P_NOT_EXISTS || pk == P_FORALL ||
		          pk == P_PERSISTED;
	}
	if (nfinal)
		sb_printf(out, "  %u final-state propert%s checked on %llu terminal state%s\n", nfinal,
		          nfinal == 1 ? "y" : "ies", (unsigned long long)r->terminals, r->terminals == 1 ? "" : "s");
	if (r->stuck == 0)
		sb_puts(out, "  progress: every reachable state can reach a terminal state\n");
	else if (r->stuck < 0)
		sb_puts(out, "  progress: not checked (--compact keeps no states to re-expand)\n");
}

struct failed_cond {
	const struct model *m;
	const struct property *p;
};

/* The recovery's end state the judge found: it violates the property. */
static int violates(void *ctx, const uint8_t *sv)
{
	const struct failed_cond *f = ctx;
	return sv && f->p && f->p->cond && !expr_eval(f->p->cond, f->m, sv); /* no limits when reporting */
}

void report_header(struct strbuf *out, const struct job *j)
{
	sb_printf(out, "spec %s (%s), machine %s\n", j->spec->name, j->spec->path, j->model->name);
	for (unsigned k = 0; k < j->nprops; k++)
		sb_printf(out, "  check %s\n", j->props[k].text);
}

/* What survives a persistency violation: the durable image, and the image
** after the recovery program ran on it (recoverable). */
static void persist_images(struct strbuf *out, const struct model *m, const uint8_t *sv, enum prop_kind k,
                           const struct property *fp, int json)
{
	if ((k != P_RECOVERABLE && k != P_PERSISTED && k != P_DURABLE) || !m->durable)
		return;
	uint8_t *img = xmalloc(m->sv_size);
	m->durable(m, sv, img);
	unsigned nl = model_observables(m, NULL, 0);
	int *locs = xmalloc(sizeof(int) * (nl ? nl : 1));
	model_observables(m, locs, nl);
	struct strbuf why;
	sb_init(&why);
	if (k == P_RECOVERABLE && m->recover) {
		sb_puts(out, json ? ",\"durable_image\":" : "durable image after the crash: ");
		report_locs(m, img, locs, nl, out, json);
		struct failed_cond f = { m, fp };
		int rr = m->recover(m, img, violates, &f, &why);
		/* why: the reason (none for a bad end), then the steps */
		const char *steps = why.len ? strchr(sb_str(&why), '\n') : NULL;
		int reason = steps ? (int)(steps - why.s) : (int)why.len;
		if (json) {
			sb_puts(out, ",\"recovery\":");
			if (rr == RECOVER_FAIL) {
				struct strbuf r;
				sb_init(&r);
				sb_printf(&r, "%.*s", reason, why.s);
				sb_json_str(out, sb_str(&r));
				sb_free(&r);
			} else {
				sb_json_str(out, "ran");
			}
			if (steps) {
				sb_puts(out, ",\"recovery_steps\":");
				sb_json_str(out, steps + 1);
			}
			sb_puts(out, ",\"recovered_image\":");
		} else {
			sb_putc(out, '\n');
			if (rr == RECOVER_FAIL)
				sb_printf(out, "recovery program failed: %.*s\n", reason, why.s);
			else
				sb_puts(out, "recovery program ran on the durable image\n");
			if (steps)
				sb_printf(out, "one way the recovery goes:\n%s\n", steps + 1);
			sb_puts(out, "image after the crash and recovery: ");
		}
	} else {
		sb_puts(out, json ? ",\"durable_image\":"
		             : k == P_DURABLE || k == P_RECOVERABLE ? "durable image after the crash: "
		                                                    : "durable image at the end: ");
	}
	report_locs(m, img, locs, nl, out, json);
	if (!json)
		sb_printf(out, "\nbroken invariant: %s\n", fp ? fp->text : "?");
	sb_free(&why);
	free(locs);
	free(img);
}

/* On a pass: the final values when every terminal state agrees on them,
** else how many valuations there are. */
static void final_values(struct strbuf *out, const struct model *m, const struct explore_result *r, int list)
{
	if (!r->nolocs || !r->noutcomes || list)
		return;
	if (r->noutcomes == 1) {
		sb_puts(out, "final values: ");
		outcome_values(m, r, &r->outcomes[0], out, 0);
		sb_putc(out, '\n');
	} else {
		sb_printf(out, "%u distinct final valuations (list them with --outcomes)\n", r->noutcomes);
	}
}

/* --no-trace: the search kept no parent links, so no path to show. */
static void no_trace(struct strbuf *out, const struct run_opts *o)
{
	sb_puts(out, "  (no trace: --no-trace kept no parent links; the same search without it, about 6\n"
	             "  bytes a state more, shows one:\n    ");
	cli_rerun(out, o);
	sb_puts(out, "\n  or --dfs, whose trace is its stack)\n");
}

void report_check(struct strbuf *out, const struct job *j, const struct explore_result *r, const struct run_opts *o,
                  const char *const *status)
{
	int json = o->json, values = o->values;
	const struct model *m = j->model;
	struct strbuf v;
	sb_init(&v);
	verdict_string(r, &v);
	uint8_t *sv = xmalloc(m->sv_size);
	const struct property *fp = r->failed >= 0 ? &j->props[r->failed] : NULL;
	if (json) {
		sb_puts(out, "{\"spec\":");
		sb_json_str(out, j->spec->path);
		sb_puts(out, ",\"name\":");
		sb_json_str(out, j->spec->name);
		sb_puts(out, ",\"machine\":");
		sb_json_str(out, m->name);
		sb_puts(out, ",\"properties\":[");
		for (unsigned k = 0; k < j->nprops; k++) {
			if (k)
				sb_putc(out, ',');
			sb_json_str(out, j->props[k].text);
		}
		sb_puts(out, "],\"verdict\":");
		sb_json_str(out, sb_str(&v));
		sb_puts(out, ",\"expected\":");
		if (j->spec->expect)
			sb_json_str(out, j->spec->expect);
		else
			sb_puts(out, "null");
		if (r->hint) {
			sb_puts(out, ",\"hint\":");
			sb_json_str(out, r->hint);
		}
		if (r->limit) {
			sb_puts(out, ",\"limit\":");
			sb_json_str(out, r->limit);
		}
		if (r->verdict == V_FAIL) {
			sb_puts(out, ",\"failed\":{\"kind\":");
			sb_json_str(out, prop_kind_name(r->failed_kind));
			sb_puts(out, ",\"property\":");
			sb_json_str(out, fp ? fp->text : prop_kind_name(r->failed_kind));
			sb_puts(out, ",\"why\":");
			sb_json_str(out, r->why ? r->why : "");
			sb_puts(out, "}");
		}
		int has_trace = r->verdict == V_FAIL ? r->failed_kind != P_EXISTS && r->states : r->witness;
		if (has_trace && r->no_trace) {
			sb_puts(out, ",\"trace_kept\":false,\"rerun\":");
			struct strbuf cmd;
			sb_init(&cmd);
			cli_rerun(&cmd, o);
			sb_json_str(out, sb_str(&cmd));
			sb_free(&cmd);
		} else if (has_trace && r->failed_kind == P_DETERMINISTIC && r->verdict == V_FAIL) {
			/* schedule A is the one found first, as in the text report */
			sb_puts(out, ",\"trace\":");
			print_schedule(out, m, &r->trace2, 1, 0, sv);
			sb_puts(out, ",\"result\":");
			report_locs(m, sv, fp->locs, fp->nlocs, out, 1);
			sb_puts(out, ",\"trace2\":");
			print_schedule(out, m, &r->trace, 1, 0, sv);
			sb_puts(out, ",\"result2\":");
			report_locs(m, sv, fp->locs, fp->nlocs, out, 1);
			sb_printf(out, ",\"diverge_step\":%u", r->diverge + 1);
		} else if (has_trace) {
			sb_puts(out, r->verdict == V_FAIL ? ",\"trace\":" : ",\"witness\":");
			print_schedule(out, m, &r->trace, 1, 0, sv);
			struct strbuf st;
			sb_init(&st);
			model_print_state(m, sv, &st);
			sb_puts(out, ",\"final_state\":");
			sb_json_str(out, sb_str(&st));
			sb_free(&st);
			if (r->verdict == V_FAIL)
				persist_images(out, m, sv, r->failed_kind, fp, 1);
		}
		if (r->terminals == 0 && r->verdict == V_PASS)
			sb_puts(out, ",\"warning\":\"no terminal state: final-state properties hold vacuously\"");
		if (r->verdict == V_PASS && r->nolocs && r->noutcomes == 1) {
			sb_puts(out, ",\"final_values\":");
			outcome_values(m, r, &r->outcomes[0], out, 1);
		}
		if (o->outcomes) {
			sb_puts(out, ",\"outcomes\":");
			outcomes_print(m, r, out, 1);
		}
		if (r->verdict == V_FAIL && r->failed_kind == P_PROGRESS)
			sb_printf(out, ",\"cycle_step\":%u", r->cycle + 1);
		if (r->stuck >= 0)
			sb_printf(out, ",\"progress_checked\":true,\"stuck_states\":%lld", (long long)r->stuck);
		sb_puts(out, ",\"stats\":");
		report_stats_json(out, r, m->sv_size);
		sb_puts(out, "}\n");
	} else {
		if (r->verdict == V_FAIL) {
			sb_printf(out, "VIOLATED: %s: %s\n", fp ? fp->text : prop_kind_name(r->failed_kind),
			          r->why ? r->why : "");
			if (r->no_trace && r->failed_kind != P_EXISTS && r->states) {
				no_trace(out, o);
			} else if (r->failed_kind == P_DETERMINISTIC) {
				print_determinism(out, m, r, fp, values);
				note_race(out, m, &r->trace, sv);
			} else if (r->failed_kind == P_EXISTS) {
				sb_puts(out, "  (no trace: the condition holds in no final state)\n");
			} else if (r->failed_kind == P_EQUALS && r->trace.len == 0) {
				sb_printf(out, "  (no trace here: `gpumc check -D machine=%s` with an exists on that outcome shows one there)\n",
				          fp->machine);
			} else if (r->failed_kind == P_IDEMPOTENT && r->states == 0) {
				sb_puts(out, "  (found by the static analysis, before exploring; what it names is what an undo log must cover)\n");
			} else {
				sb_printf(out, "trace (%u step%s):\n", r->trace.len, r->trace.len == 1 ? "" : "s");
				print_schedule(out, m, &r->trace, 0, values, sv);
				if (r->failed_kind == P_PROGRESS)
					sb_printf(out, "  steps %u..%u form a cycle: they return to the state after step %u, and no\n"
					          "  run from these states reaches a terminal state (livelock)\n",
					          r->cycle + 1, r->trace.len, r->cycle);
				sb_puts(out, "state at the end of the trace:\n");
				model_print_state(m, sv, out);
				persist_images(out, m, sv, r->failed_kind, fp, 0);
			}
			if (j->spec->note)
				sb_printf(out, "note: %s\n", j->spec->note);
			if (m->notes)
				m->notes(m, (int)r->failed_kind, out);
			if (status) {
				sb_puts(out, "each property:\n");
				for (unsigned k = 0; k < j->nprops; k++)
					sb_printf(out, "  %s: %s\n", j->props[k].text, status[k]);
			}
		} else if (r->verdict == V_INCOMPLETE) {
			if (interrupted)
				sb_printf(out, "INCOMPLETE: interrupted by %s before the state space was exhausted; nothing violated so far\n",
				          r->limit);
			else if (r->swarm_runs)
				sb_printf(out, "INCOMPLETE: %u randomized depth-first searches (--swarm) found no violation\n",
				          r->swarm_runs);
			else
				sb_printf(out,
				          "INCOMPLETE: %s reached before the state space was exhausted; nothing violated so far\n",
				          r->limit);
			if (r->hint)
				sb_printf(out, "hint: %s\n", r->hint);
		} else {
			sb_puts(out, "all properties hold\n");
			final_values(out, m, r, o->outcomes);
		}
		if (r->terminals == 0 && r->verdict == V_PASS)
			sb_puts(out, "warning: no run of the kernel finishes (every path loops), so properties about\n"
			             "  final states hold vacuously\n");
		if (r->verdict == V_PASS)
			report_checked(out, j, r);
		if (r->witness && r->verdict != V_FAIL && r->no_trace) {
			sb_puts(out, "exists: witness found\n");
			no_trace(out, o);
		} else if (r->witness && r->verdict != V_FAIL) {
			sb_printf(out, "exists: witness found (%u step%s):\n", r->trace.len, r->trace.len == 1 ? "" : "s");
			print_schedule(out, m, &r->trace, 0, values, sv);
			sb_puts(out, "  values at the end: ");
			report_locs(m, sv, r->olocs, r->nolocs, out, 0);
			sb_putc(out, '\n');
		}
		if (o->outcomes)
			outcomes_print(m, r, out, 0);
		for (unsigned k = 0; k < j->nprops; k++)
			if (j->props[k].ref)
				sb_printf(out, "  %s: machine %s reaches %u outcome%s (%llu states)\n", j->props[k].text,
				          j->props[k].machine, j->props[k].nref, j->props[k].nref == 1 ? "" : "s",
				          (unsigned long long)j->props[k].ref_states);
		sb_printf(out, "states %llu, transitions %llu, depth %u, terminal %llu",
		          (unsigned long long)r->states, (unsigned long long)r->transitions, r->depth,
		          (unsigned long long)r->terminals);
		if (r->crash_images)
			sb_printf(out, ", crash images %llu", (unsigned long long)r->crash_images);
		sb_printf(out, "\n%.3f s, %.0f states/s, %zu-byte state vector, %.1f bytes/state stored, %.1f MB\n",
		          r->seconds, r->seconds > 0 ? (double)r->states / r->seconds : 0.0, m->sv_size,
		          r->states ? (double)r->bytes / (double)r->states : 0.0, (double)r->bytes / 1048576.0);
		if (r->omission > 0)
			sb_printf(out, "compact mode: P[some state omitted] <= %.3g\n", r->omission);
		if (r->dfs_default)
			sb_puts(out, "search: depth-first, --compact's default (--bfs: shortest counterexamples)\n");
		if (r->swarm_runs && r->verdict == V_FAIL)
			sb_printf(out, "swarm: randomized depth-first search %u found the violation\n", r->swarm_runs);
		if (r->por)
			sb_printf(out, "partial-order reduction: %llu of %llu states expanded with one action alone%s\n",
			          (unsigned long long)r->reduced, (unsigned long long)r->expanded,
			          r->chains ? ", chains of local steps merged" : "");
		else if (r->por_off)
			sb_printf(out, "no reductions applied (partial-order reduction is off for %s)\n", r->por_off);
		else
			sb_puts(out, "no reductions applied\n");
		if (r->threads > 1)
			sb_printf(out, "threads: %u over one shared visited set, breadth-first levels\n", r->threads);
		else if (r->threads_off)
			sb_printf(out, "threads: 1 of %u (%s)\n", r->threads_asked, r->threads_off);
		if (r->ranks && r->mpi_off)
			sb_printf(out, "mpi: each of %d ranks searched alone (%s)\n", r->ranks, r->mpi_off);
		else if (r->ranks)
			sb_printf(out, "mpi: %d rank%s, states partitioned by hash owner, breadth-first levels\n", r->ranks,
			          r->ranks == 1 ? "" : "s");
		sb_printf(out, "verdict: %s", sb_str(&v));
		if (j->spec->expect)
			sb_printf(out, " (expected: %s%s)", j->spec->expect,
			          strcmp(j->spec->expect, sb_str(&v)) ? ", MISMATCH" : "");
		sb_puts(out, "\n");
	}
	free(sv);
	sb_free(&v);
}
