/*
** The two routes to a weak-memory verdict agree.  Every litmus test given
** is translated into a kernel spec (one kernel; thread g runs its litmus
** thread's instructions under a guard on %gtid) and run both ways:
** `gpumc litmus --model M` on the test and `gpumc check -D memory=M` on
** the spec, for M in sc, ics13, ics13-fixed and ptx (the instructions
** keep their PTX ordering and scope: ld.acquire.gpu, fence.acq_rel.cta,
** atom.acq_rel.gpu, ...), in the test's own
** placement and in the two global ones (D-warp:S-cta-Global,
** D-cta:S-ker-Global).  The outcome sets over the condition's locations
** must be identical.  The translation does not apply (and the case is
** counted as skipped, with the reason) when the placement is not a
** uniform grid, a location is shared, a register is both a predicate and
** a value, the condition compares with an address, or the kernel-spec
** route refuses the kernel (memory=M: an address computed from a loaded
** value, ...).  Any other refusal is a failure.
**
** usage: routes FILE...   (TAP on stdout, one line per file)
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore.h"
#include "ir/ptx.h"
#include "litmus/litmus.h"
#include "litmus/run.h"
#include "machines/registry.h"
#include "spec/spec.h"
#include "util/strbuf.h"

static const char *const models[] = { "sc", "ics13", "ics13-fixed", "ptx" };
static const char *const configs[] = { NULL, "D-warp:S-cta-Global", "D-cta:S-ker-Global" };

/* {=== The translation =================================================== */

struct tr {
	int gtid[LIT_MAXT];   /* thread index -> global thread id */
	int ctas, warps, lanes;
	char regs[64][16];    /* kernel registers, without '%'   */
	int pred[64];
	int nregs;
};

static const char *bare(const char *r)
{
	return r[0] == '%' ? r + 1 : r;
}

static int reg_of(struct tr *x, const char *name, int pred)
{
	for (int i = 0; i < x->nregs; i++)
		if (!strcmp(x->regs[i], bare(name))) {
			if (pred)
				x->pred[i] = 1;
			return i;
		}
	snprintf(x->regs[x->nregs], sizeof x->regs[0], "%s", bare(name));
	x->pred[x->nregs] = pred;
	return x->nregs++;
}

/* Place the threads on a uniform grid; -1 if they do not fit one. */
static int place(const struct litmus *t, struct tr *x)
{
	int cta_warps[LIT_MAXT][LIT_MAXT], ncw[LIT_MAXT] = { 0 }, lanes[LIT_MAXT * 2] = { 0 };
	x->ctas = t->nctas;
	for (int i = 0; i < t->nthreads; i++) {
		int c = t->thr[i].cta, w = t->thr[i].warp, k;
		for (k = 0; k < ncw[c] && cta_warps[c][k] != w; k++)
			;
		if (k == ncw[c])
			cta_warps[c][ncw[c]++] = w;
		if (w >= LIT_MAXT * 2)
			return -1;
		x->gtid[i] = lanes[w]++; /* lane for now */
	}
	x->warps = ncw[0];
	x->lanes = lanes[cta_warps[0][0]];
	for (int c = 0; c < x->ctas; c++) {
		if (ncw[c] != x->warps)
			return -1;
		for (int k = 0; k < ncw[c]; k++)
			if (lanes[cta_warps[c][k]] != x->lanes)
				return -1;
	}
	for (int i = 0; i < t->nthreads; i++) {
		int c = t->thr[i].cta, k;
		for (k = 0; cta_warps[c][k] != t->thr[i].warp; k++)
			;
		x->gtid[i] += (c * x->warps + k) * x->lanes;
	}
	return 0;
}

static void opnd(struct strbuf *b, const struct litmus *t, const struct lit_thread *th, const struct lit_opnd *o)
{
	if (o->kind == OK_REG)
		sb_printf(b, "%%%s", bare(th->regname[o->reg]));
	else if (o->kind == OK_LOC)
		sb_puts(b, t->loc[o->loc].name);
	else
		sb_printf(b, "%u", o->imm);
}

static const char *type_name(enum vtype v)
{
	return v == VT_S32 ? "s32" : v == VT_PRED ? "pred" : "u32";
}

static void insn(struct strbuf *b, const struct litmus *t, const struct lit_thread *th, const struct lit_ins *in)
{
	static const char *const cache[] = { "", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt" };
	static const char *const scope[] = { "cta", "gl", "sys" };
	static const char *const sscope[] = { "cta", "gpu", "sys" };
	static const char *const sem[] = { "", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc" };
	/* the PTX ordering as written: .weak and .volatile need no more */
	char ord[32] = "";
	if (!in->vol && in->sem != SEM_WEAK)
		snprintf(ord, sizeof ord, "%s.%s", sem[in->sem], sscope[in->scope]);
	static const char *const aop[] = { "add", "min", "max", "exch", "cas", "inc", "dec", "and", "or", "xor" };
	static const char *const cmp[] = { "eq", "ne", "lt", "le", "gt", "ge" };
	const char *vol = in->vol ? ".volatile" : "";
	switch (in->op) {
	case OP_MEMBAR:
		if (in->sem == SEM_SC)
			sb_printf(b, "membar.%s", scope[in->scope]); /* = fence.sc */
		else
			sb_printf(b, "fence%s", ord);
		return;
	case OP_LD:
		sb_printf(b, "ld%s.global%s%s.%s %%%s, [", ord, cache[in->cache], vol, type_name(in->type),
		          bare(th->regname[in->dst]));
		opnd(b, t, th, &in->addr);
		sb_puts(b, "]");
		return;
	case OP_ST:
		sb_printf(b, "st%s.global%s%s.%s [", ord, cache[in->cache], vol, type_name(in->type));
		opnd(b, t, th, &in->addr);
		sb_puts(b, "], ");
		opnd(b, t, th, &in->a);
		return;
	case OP_ATOM:
		if (in->dst >= 0)
			sb_printf(b, "atom%s.global.%s.%s %%%s, [", ord, aop[in->aop], type_name(in->type),
			          bare(th->regname[in->dst]));
		else
			sb_printf(b, "red%s.global.%s.%s [", ord, aop[in->aop], type_name(in->type));
		opnd(b, t, th, &in->addr);
		sb_puts(b, "], ");
		opnd(b, t, th, &in->b);
		if (in->aop == AT_CAS) {
			sb_puts(b, ", ");
			opnd(b, t, th, &in->c);
		}
		return;
	default:
		break;
	}
	char word[64];
	if (in->op == OP_SETP)
		snprintf(word, sizeof word, "setp.%s.%s", cmp[in->cmp], type_name(in->type));
	else
		snprintf(word, sizeof word, "%s.%s", opcode_name(in->op), type_name(in->type));
	struct ptx_insn pi;
	char msg[256];
	ptx_decode(word, PTX_KERNEL, &pi, msg, sizeof msg); /* for the operand count */
	sb_printf(b, "%s %%%s", word, bare(th->regname[in->dst]));
	const struct lit_opnd *src[3] = { &in->a, &in->b, &in->c };
	for (int i = 0; i < pi.nsrc; i++) {
		sb_puts(b, ", ");
		opnd(b, t, th, src[i]);
	}
}

static int cond_text(struct strbuf *b, const struct litmus *t, const struct tr *x, const struct expr *e)
{
	static const char *const ops[] = { [E_AND] = " /\\ ", [E_OR] = " \\/ ", [E_EQ] = " == ", [E_NE] = " != ",
		[E_LT] = " < ", [E_LE] = " <= ", [E_GT] = " > ", [E_GE] = " >= ", [E_ADD] = " + ", [E_SUB] = " - " };
	switch (e->op) {
	case E_NUM:
		if (litmus_addr_loc(t, (uint32_t)e->ival) >= 0)
			return -1; /* an address: the routes lay memory out differently */
		sb_printf(b, "%lld", (long long)e->ival);
		return 0;
	case E_LOC:
		if (e->tid < 0) {
			sb_puts(b, e->name);
			return 0;
		}
		for (int i = 0; i < t->nthreads; i++)
			if (t->thr[i].id == e->tid)
				sb_printf(b, "%d:%%%s", x->gtid[i], bare(e->name));
		return 0;
	case E_NOT:
		sb_puts(b, "!(");
		if (cond_text(b, t, x, e->l))
			return -1;
		sb_puts(b, ")");
		return 0;
	default:
		sb_puts(b, "(");
		if (cond_text(b, t, x, e->l))
			return -1;
		sb_puts(b, ops[e->op]);
		if (cond_text(b, t, x, e->r))
			return -1;
		sb_puts(b, ")");
		return 0;
	}
}

/* The kernel spec of t in out; NULL, or why the translation does not apply. */
static const char *translate(const struct litmus *t, struct tr *x, struct strbuf *out)
{
	memset(x, 0, sizeof *x);
	for (int l = 0; l < t->nlocs; l++)
		if (t->loc[l].region != SP_GLOBAL)
			return "a shared location";
	if (place(t, x))
		return "the placement is not a uniform grid";
	/* registers: predicates are written by setp and read by guards only */
	for (int i = 0; i < t->nthreads; i++) {
		const struct lit_thread *th = &t->thr[i];
		for (int r = 0; r < th->nregs; r++)
			reg_of(x, th->regname[r], th->regpred[r]);
		for (int j = 0; j < th->nins; j++) {
			const struct lit_ins *in = &th->ins[j];
			if (in->pred >= 0)
				reg_of(x, th->regname[in->pred], 1);
			if (in->op == OP_SETP)
				reg_of(x, th->regname[in->dst], 1);
		}
	}
	for (int i = 0; i < t->nthreads; i++)
		for (int j = 0; j < t->thr[i].nins; j++) {
			const struct lit_ins *in = &t->thr[i].ins[j];
			const struct lit_opnd *o[4] = { &in->addr, &in->a, &in->b, &in->c };
			if (in->dst >= 0 && in->op != OP_SETP && x->pred[reg_of(x, t->thr[i].regname[in->dst], 0)])
				return "a register is both a predicate and a value";
			for (int k = 0; k < 4; k++)
				if (o[k]->kind == OK_REG && x->pred[reg_of(x, t->thr[i].regname[o[k]->reg], 0)])
					return "a register is both a predicate and a value";
		}
	struct strbuf c;
	sb_init(&c);
	if (cond_text(&c, t, x, t->cond)) {
		sb_free(&c);
		return "the condition compares with an address";
	}
	sb_printf(out, "name \"%s\"\nmachine baseline\nset sms = %d\nset ctas = %d\nset warps_per_cta = %d\n"
	          "set threads_per_warp = %d\n", t->name, x->ctas, x->ctas, x->warps, x->lanes);
	for (int l = 0; l < t->nlocs; l++)
		sb_printf(out, "global .u32 %s = %u\n", t->loc[l].name, t->loc[l].init);
	sb_puts(out, "kernel\n    .reg .pred %sel, %q\n");
	for (int r = 0; r < x->nregs; r++)
		sb_printf(out, "    .reg .%s %%%s\n", x->pred[r] ? "pred" : "u32", x->regs[r]);
	for (int g = 0; g < t->nthreads; g++) {
		int i;
		for (i = 0; x->gtid[i] != g; i++)
			;
		const struct lit_thread *th = &t->thr[i];
		sb_printf(out, "    // T%d\n    setp.eq.u32 %%sel, %%gtid, %d\n", th->id, g);
		for (int r = 0; r < th->nregs; r++) {
			if (!th->reginit[r])
				continue;
			int l = litmus_addr_loc(t, th->reginit[r]);
			if (l >= 0)
				sb_printf(out, "    @%%sel mov.u32 %%%s, %s\n", bare(th->regname[r]), t->loc[l].name);
			else
				sb_printf(out, "    @%%sel mov.u32 %%%s, %u\n", bare(th->regname[r]), th->reginit[r]);
		}
		for (int j = 0; j < th->nins; j++) {
			const struct lit_ins *in = &th->ins[j];
			const char *guard = "%sel";
			if (in->pred >= 0) {
				const char *p = bare(th->regname[in->pred]);
				if (in->pred_neg)
					sb_printf(out, "    not.pred %%q, %%%s\n    and.pred %%q, %%q, %%sel\n", p);
				else
					sb_printf(out, "    and.pred %%q, %%sel, %%%s\n", p);
				guard = "%q";
			}
			sb_printf(out, "    @%s ", guard);
			insn(out, t, th, in);
			sb_putc(out, '\n');
		}
	}
	sb_printf(out, "end\ncheck %s %s\n",
	          t->kind == LC_EXISTS ? "exists" : t->kind == LC_FORALL ? "forall" : "~exists", sb_str(&c));
	sb_free(&c);
	return NULL;
}

/* }=== */

/* {=== Outcome sets ====================================================== */

/* text as TAP diagnostics: every line behind "#   " */
static void comment(struct strbuf *out, const char *title, const char *text)
{
	sb_printf(out, "# %s:\n", title);
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		int n = e ? (int)(e - l) : (int)strlen(l);
		sb_printf(out, "#   %.*s\n", n, l);
		l += n + (e != NULL);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "name=value; ..." per outcome, names sorted, then the outcomes sorted,
** one per line: a canonical form of an outcome set.  Register names are
** litmus ones (thread id, no '%'); kernel ids map back through x. */
static void canon(struct strbuf *out, unsigned nout, unsigned nlocs, char **names,
                  const uint32_t *(*vals)(const void *, unsigned), const void *ctx)
{
	char **lines = xcalloc(nout + 1, sizeof *lines);
	for (unsigned i = 0; i < nout; i++) {
		char **kv = xcalloc(nlocs + 1, sizeof *kv);
		const uint32_t *v = vals(ctx, i);
		for (unsigned k = 0; k < nlocs; k++) {
			struct strbuf s;
			sb_init(&s);
			sb_printf(&s, "%s=%u", names[k], v[k]);
			kv[k] = xstrdup(sb_str(&s));
			sb_free(&s);
		}
		qsort(kv, nlocs, sizeof *kv, cmp_str);
		struct strbuf l;
		sb_init(&l);
		for (unsigned k = 0; k < nlocs; k++) {
			sb_printf(&l, "%s; ", kv[k]);
			free(kv[k]);
		}
		free(kv);
		lines[i] = xstrdup(l.len ? sb_str(&l) : "");
		sb_free(&l);
	}
	qsort(lines, nout, sizeof *lines, cmp_str);
	for (unsigned i = 0; i < nout; i++) {
		sb_printf(out, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
}

static const uint32_t *lit_vals(const void *ctx, unsigned i)
{
	return ((const struct lit_run *)ctx)->out[i].vals;
}

static const uint32_t *ker_vals(const void *ctx, unsigned i)
{
	return ((const struct explore_result *)ctx)->outcomes[i].vals;
}

/* A location name in the litmus test's terms. */
static char *norm(const char *name, const struct litmus *t, const struct tr *x)
{
	struct strbuf s;
	sb_init(&s);
	const char *colon = strchr(name, ':');
	if (!colon) {
		sb_puts(&s, name);
	} else {
		int id = atoi(name), g = id;
		/* map the global thread id back once: ids and gtids overlap */
		for (int i = 0; x && i < t->nthreads; i++)
			if (x->gtid[i] == g)
				id = t->thr[i].id;
		sb_printf(&s, "%d:%s", id, bare(colon + 1));
	}
	char *r = xstrdup(sb_str(&s));
	sb_free(&s);
	return r;
}

static void explore_options(struct explore_opts *o)
{
	explore_opts_default(o);
	o->keep_going = 1;
	o->max_states = 2000000;
}

static int litmus_route(const struct litmus *t, const char *model, struct strbuf *out, struct strbuf *err)
{
	struct explore_opts o;
	explore_options(&o);
	struct lit_run r;
	if (lit_run_model(t, model, NULL, &o, 0, &r, err))
		return -1;
	if (r.incomplete) {
		sb_printf(err, "litmus route incomplete: %s", r.why);
		lit_run_free(&r);
		return -1;
	}
	char *names[LIT_MAXO];
	for (int k = 0; k < r.nolocs; k++) {
		struct strbuf s;
		sb_init(&s);
		litmus_loc_name(t, r.olocs[k], &s);
		names[k] = norm(sb_str(&s), t, NULL);
		sb_free(&s);
	}
	canon(out, r.nout, (unsigned)r.nolocs, names, lit_vals, &r);
	for (int k = 0; k < r.nolocs; k++)
		free(names[k]);
	lit_run_free(&r);
	return 0;
}

/* 0, 1 when the kernel route refuses the kernel (the translation does not
** apply: the reason is in err), -1 on any other failure. */
static int kernel_route(const struct litmus *t, const struct tr *x, const char *text, const char *model,
                        struct strbuf *out, struct strbuf *err)
{
	struct diag d;
	diag_init(&d);
	int rc = -1;
	struct model *m = NULL;
	struct spec *s = spec_parse(t->name, text, &d);
	char def[64];
	snprintf(def, sizeof def, "memory=%s", model);
	if (s && !spec_define(s, def, &d))
		m = registry_build(s, &d);
	if (!m) {
		sb_puts(err, sb_str(&d.msg));
		rc = strstr(sb_str(&d.msg), "error: memory=") ? 1 : -1;
		goto out;
	}
	struct property p = { .kind = s->props[0].p.kind, .cond = s->props[0].p.cond, .text = s->props[0].p.text };
	if (expr_resolve(p.cond, m, err))
		goto out;
	struct explore_opts o;
	explore_options(&o);
	struct explore_result er;
	memset(&er, 0, sizeof er);
	explore(m, &p, 1, &o, &er);
	if (er.limit || er.verdict == V_INCOMPLETE || er.verdict == V_ERROR ||
	    (er.verdict == V_FAIL && (er.failed_kind == P_DEADLOCK || er.failed_kind == P_FAULT))) {
		sb_printf(err, "kernel route: %s", er.why ? er.why : "no verdict");
	} else {
		char *names[64];
		for (unsigned k = 0; k < er.nolocs && k < 64; k++) {
			struct strbuf n;
			sb_init(&n);
			m->loc_name(m, er.olocs[k], &n);
			names[k] = norm(sb_str(&n), t, x);
			sb_free(&n);
		}
		canon(out, er.noutcomes, er.nolocs, names, ker_vals, &er);
		for (unsigned k = 0; k < er.nolocs && k < 64; k++)
			free(names[k]);
		rc = 0;
	}
	explore_result_free(&er);
out:
	if (m)
		m->destroy(m);
	spec_free(s);
	diag_free(&d);
	return rc;
}

/* }=== */

int main(int argc, char **argv)
{
	printf("1..%d\n", argc);
	int compared = 0, skipped = 0;
	for (int f = 1; f < argc; f++) {
		int bad = 0, here = 0;
		struct strbuf diag;
		sb_init(&diag);
		for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
			struct strbuf err;
			sb_init(&err);
			struct litmus *t = litmus_parse_file(argv[f], &err);
			if (!t) {
				sb_printf(&diag, "# %s\n", sb_str(&err));
				bad = 1;
				sb_free(&err);
				break;
			}
			const char *cfg = configs[c] ? configs[c] : "as written";
			if (configs[c])
				litmus_set_config(t, configs[c]);
			struct tr x;
			struct strbuf spec;
			sb_init(&spec);
			const char *why = translate(t, &x, &spec);
			if (why) {
				sb_printf(&diag, "# %s: skipped: %s\n", cfg, why);
				skipped++;
			}
			for (size_t k = 0; !why && k < sizeof models / sizeof models[0]; k++) {
				struct strbuf a, b;
				sb_init(&a);
				sb_init(&b);
				sb_reset(&err);
				int rk = kernel_route(t, &x, sb_str(&spec), models[k], &b, &err);
				if (rk == 1) {
					sb_printf(&diag, "# %s %s: skipped: %s", cfg, models[k], sb_str(&err));
					skipped++;
				} else if (rk < 0 || litmus_route(t, models[k], &a, &err)) {
					sb_printf(&diag, "# %s %s: failed\n", cfg, models[k]);
					comment(&diag, "error", sb_str(&err));
					comment(&diag, "the spec", sb_str(&spec));
					bad = 1;
				} else if (strcmp(sb_str(&a), sb_str(&b))) {
					sb_printf(&diag, "# %s %s: outcome sets differ\n", cfg, models[k]);
					comment(&diag, "gpumc litmus", sb_str(&a));
					comment(&diag, "gpumc check on the kernel spec", sb_str(&b));
					comment(&diag, "the spec", sb_str(&spec));
					bad = 1;
				} else {
					compared++;
					here++;
				}
				sb_free(&a);
				sb_free(&b);
			}
			sb_free(&spec);
			sb_free(&err);
			litmus_free(t);
		}
		printf("%s %d - %s: %d comparisons agree\n", bad ? "not ok" : "ok", f, argv[f], here);
		if (bad || getenv("ROUTES_VERBOSE"))
			fputs(sb_str(&diag), stdout);
		sb_free(&diag);
	}
	/* the translation must reach most of the suite, or the test proves little */
	printf("%s %d - %d comparisons, %d skipped\n", compared >= 3 * (argc - 1) ? "ok" : "not ok", argc,
	       compared, skipped);
	return 0;
}
