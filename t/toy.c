/*
** The worked example of adding a component (gpumc-machines(7), COMPONENTS
** AND PORTS): a toy store buffer defined in this file alone, composed with
** the existing components by a wiring row defined here, explored with the
** model contract checked on every state (what `gpumc check --check-model`
** does).  Nothing in src/ knows about it.
**
** Component "storebuf": GPUDet's per-wavefront store buffer (Jooybar et
** al., ASPLOS'13, §4.3: "each wavefront has a private store buffer";
** reads look in it first), cut down to one entry and drained to memory at
** any time rather than in a commit phase.  It provides mem to the warps and
** requires mem from the SC memory ("mem"); it provides gate, so warps wait
** for it through the scheduler, and requires warps to read exec masks.
** The mem port names the CTA of an access, not its warp, so the buffer is
** kept per CTA and layout refuses a CTA of more than one single-lane warp:
** then a CTA's entry is one warp's.
**
** Slice: per CTA, an entry { valid u32, word u32, value u32 }.
** States of an entry: EMPTY (all zero), FULL(word, value).
** Transitions:
**   EMPTY --its warp's st.global (port mem store)--> FULL(word, value)
**   FULL  --action "drain" (stores the value through mem)--> EMPTY
**   ld.global of the buffered word by its warp returns the buffered value
**   (store forwarding); any other access goes to mem unchanged.
**   gate: a warp whose entry is FULL may not issue a global st (one entry),
**   atom/red (performed at the ROP after the buffered store), membar,
**   sfence, pcommit or bar.sync (a fence waits for the drain).  Exit does
**   not wait; the kernel is over when every entry drained (quiescent).
** So stores leave in program order and only a store followed by a load of
** another word is reordered: TSO.  SB's (0,0) becomes reachable, MP's
** stale read does not.
** Invariants (checked by `check`):
**   STOREBUF-1 valid is 0 or 1;
**   STOREBUF-2 an EMPTY entry is all zero (equal states, equal bytes);
**   STOREBUF-3 a FULL entry names a global word.
**
** usage: toy   (TAP on stdout)
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore/explore.h"
#include "machines/component.h"
#include "util/strbuf.h"

#define MEM(c) ((const struct port_mem *)port_ops(c, P_MEM))
#define MC_(c) (REQ(c, P_MEM)->c)

struct entry {
	uint32_t valid, word, value;
};

static struct entry *entry(const struct comp *c, const uint8_t *sv, unsigned cta)
{
	return (struct entry *)(sv + c->off) + cta;
}

/* {=== Port mem: what the warps see ====================================== */

static long word(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, int sym, uint32_t addr,
                 int *fault)
{
	return MEM(c)->word(MC_(c), sv, sp, cta, sym, addr, fault);
}

static uint32_t load(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, long w)
{
	const struct entry *e = entry(c, sv, cta);
	if (sp == SP_GLOBAL && e->valid && e->word == (uint32_t)w)
		return e->value;
	return MEM(c)->load(MC_(c), sv, sp, cta, w);
}

/* The gate keeps a warp with a FULL entry from issuing a store. */
static void store(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long w, uint32_t v)
{
	if (sp == SP_GLOBAL)
		*entry(c, sv, cta) = (struct entry){ 1, (uint32_t)w, v };
	else
		MEM(c)->store(MC_(c), sv, sp, cta, w, v);
}

/* Only shared atomics come this way (global ones go to the ROP). */
static uint32_t rmw(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long w, enum atom_op op,
                    enum vtype t, uint32_t a, uint32_t b)
{
	return MEM(c)->rmw(MC_(c), sv, sp, cta, w, op, t, a, b);
}

static const struct port_mem mem_ops = { word, load, store, rmw, NULL, NULL };

/* }=== */

static int may_issue(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	unsigned pc = gpu_pc(g, sv, w);
	if (pc >= (unsigned)g->prog->nins || !entry(c, sv, gpu_cta_of(g, w))->valid)
		return 1;
	const struct instr *in = &g->prog->ins[pc];
	int waits = in->op == OP_MEMBAR || in->op == OP_SFENCE || in->op == OP_PCOMMIT || in->op == OP_BAR ||
	            ((in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED) && in->space == SP_GLOBAL);
	const struct bind *wb = REQ(c, P_WARPS);
	return !waits || !((const struct port_warps *)wb->ops)->exec_mask(wb->c, sv, w);
}

static const struct port_gate gate_ops = { may_issue };

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_MEM ? (const void *)&mem_ops : p == P_GATE ? (const void *)&gate_ops : NULL;
}

static const struct kind_def kinds[] = { { "drain", SELF | PORT(P_MEM), 0 } };

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	if (g->cfg.warps_per_cta != 1 || g->cfg.threads_per_warp != 1) {
		diag_at(d, g->path, 0, 0, "storebuf: one single-lane warp per CTA (the mem port names the CTA, not the warp)");
		return -1;
	}
	*align = 4;
	c->max_actions = g->cfg.ctas;
	c->units[0] = c->subjects[0] = (struct pool_req){ "storebuf", g->cfg.ctas };
	return (long)(sizeof(struct entry) * g->cfg.ctas);
}

static unsigned enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                        struct action *out, int timed)
{
	(void)before;
	(void)nb;
	(void)timed;
	unsigned n = 0;
	for (unsigned k = 0; k < c->g->cfg.ctas; k++)
		if (entry(c, sv, k)->valid)
			out[n++] = (struct action){ (uint16_t)c->kind0, (uint16_t)(c->unit0[0] + k), c->subj0[0] + k, k };
	return n;
}

static void apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	struct entry *e = entry(c, sv, a->arg);
	MEM(c)->store(MC_(c), sv, SP_GLOBAL, a->arg, (long)e->word, e->value);
	memset(e, 0, sizeof *e);
}

static int quiescent(const struct comp *c, const uint8_t *sv)
{
	for (unsigned k = 0; k < c->g->cfg.ctas; k++)
		if (entry(c, sv, k)->valid)
			return 0;
	return 1;
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	for (unsigned k = 0; k < c->g->cfg.ctas; k++) {
		const struct entry *e = entry(c, sv, k);
		if (e->valid > 1)
			sb_printf(why, "STOREBUF-1: cta %u: valid is %u", k, e->valid);
		else if (!e->valid && (e->word || e->value))
			sb_printf(why, "STOREBUF-2: cta %u: an empty entry holds word %u value %u", k, e->word, e->value);
		else if (e->valid && e->word >= c->g->prog->global_words)
			sb_printf(why, "STOREBUF-3: cta %u: word %u is not a global word", k, e->word);
		else
			continue;
		return 1;
	}
	return 0;
}

static void describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	const struct entry *e = entry(c, sv, a->arg);
	sb_printf(out, "storebuf of cta %u drains word %u = %u", a->arg, e->word, e->value);
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	for (unsigned k = 0; k < c->g->cfg.ctas; k++)
		if (entry(c, sv, k)->valid)
			sb_printf(out, "  storebuf cta %u: word %u = %u\n", k, entry(c, sv, k)->word, entry(c, sv, k)->value);
}

static const struct comp_def storebuf = {
	.name = "storebuf", .desc = "one-entry store buffer per warp (toy, t/toy.c)",
	.provides = PORT(P_MEM) | PORT(P_GATE), .requires = PORT(P_MEM) | PORT(P_WARPS),
	.kinds = kinds, .nkinds = 1, .port_writes = SELF | PORT(P_MEM),
	.layout = layout, .enabled = enabled, .apply = apply, .quiescent = quiescent, .check = check,
	.describe = describe, .print = print, .port = port,
};

/* {=== Mis-declared variants, each a planted bug --check-model must catch  */

/* (a) drain stores through mem but does not declare the port */
static const struct kind_def kinds_undeclared[] = { { "drain", SELF, 0 } };

/* (b) a drain counter kept one byte past the slice layout reserved (in
** this row, the first byte of the warps' slice) */
static void apply_past_slice(const struct comp *c, uint8_t *sv, const struct action *a)
{
	apply(c, sv, a);
	sv[c->off + c->size] ^= 1;
}

/* (c) the drain clears the valid bit only (breaks STOREBUF-2) */
static void apply_keeps_entry(const struct comp *c, uint8_t *sv, const struct action *a)
{
	struct entry keep = *entry(c, sv, a->arg);
	apply(c, sv, a);
	*entry(c, sv, a->arg) = (struct entry){ 0, keep.word, keep.value };
}

static struct comp_def undeclared, past_slice, keeps_entry;

/* }=== */

/* The wiring row: what a row of registry.c would be.  The warps store
** through the buffer, the buffer and the ROP through mem; the scheduler
** finds the gate by itself (every gate provider is consulted). */
static const struct wire wires[] = {
	{ "warps", P_MEM, "storebuf" }, { "storebuf", P_MEM, "mem" }, { "rop", P_MEM, "mem" },
};

static const char header[] = "name \"toy\"\nmachine baseline\nset sms = 2\nset ctas = 2\nset threads_per_warp = 1\n";
#define BEGIN "global .u32 a[2] = fill(0)\nkernel\n    .reg .u32 %r<2>\n    .reg .pred %p<1>\n"

/* Thesis SB (Fig. 2.5): each warp stores its own word of a, then loads
** the other's. */
static const char sb[] = BEGIN "    shl.b32 %r1, %ctaid, 2\n    st.global.u32 [a+%r1], 1\n"
                         "    xor.b32 %r1, %r1, 4\n    ld.global.u32 %r0, [a+%r1]\nend\n"
                         "check exists 0:%r0 == 0 /\\ 1:%r0 == 0\n";
/* SB with membar.gl between the store and the load */
static const char sb_fenced[] = BEGIN "    shl.b32 %r1, %ctaid, 2\n    st.global.u32 [a+%r1], 1\n    membar.gl\n"
                                "    xor.b32 %r1, %r1, 4\n    ld.global.u32 %r0, [a+%r1]\nend\n"
                                "check exists 0:%r0 == 0 /\\ 1:%r0 == 0\n";
/* Thesis MP (Fig. 5.4): data = a[0], flag = a[1]; CTA 0 writes, CTA 1 reads */
static const char mp[] = BEGIN "    setp.eq.u32 %p0, %ctaid, 0\n    @%p0 st.global.u32 [a], 1\n"
                         "    @%p0 st.global.u32 [a+4], 1\n    @!%p0 ld.global.u32 %r0, [a+4]\n"
                         "    @!%p0 ld.global.u32 %r1, [a]\nend\ncheck exists 1:%r0 == 1 /\\ 1:%r1 == 0\n";
/* each warp reads back its own store, before or after the drain */
static const char fwd[] = BEGIN "    shl.b32 %r1, %ctaid, 2\n    st.global.u32 [a+%r1], 1\n"
                          "    ld.global.u32 %r0, [a+%r1]\nend\ncheck exists 0:%r0 == 0 \\/ 1:%r0 == 0\n";

struct run {
	enum verdict verdict;
	int contract;       /* the machine broke its contract */
	int witness;        /* the exists condition holds in a final state */
	uint64_t states, transitions, terminals;
	char why[512];
	char outcomes[256]; /* "v,v v,v ...": the outcome set, sorted */
};

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void outcomes(const struct explore_result *er, char *out, size_t size)
{
	char buf[32][16], *p[32];
	unsigned n = er->noutcomes < 32 ? er->noutcomes : 32;
	for (unsigned i = 0; i < n; i++) {
		p[i] = buf[i];
		snprintf(buf[i], sizeof buf[i], "%u,%u", er->outcomes[i].vals[0], er->outcomes[i].vals[1]);
	}
	qsort(p, n, sizeof *p, cmp);
	size_t at = 0;
	out[0] = 0;
	for (unsigned i = 0; i < n && at < size; i++)
		at += (size_t)snprintf(out + at, size - at, "%s%s", i ? " " : "", p[i]);
}

/* Explore header+kernel on the toy machine with storebuf variant def (NULL:
** on the registry's baseline), the contract checked on every state; -1
** when the spec or the machine was refused (the message in r->why). */
static int explore_toy(const struct comp_def *def, const char *kernel, struct run *r)
{
	memset(r, 0, sizeof *r);
	const struct comp_def *comps[] = { &comp_mem, def, &comp_warps, &comp_gto, &comp_barrier, &comp_rop };
	const struct wiring row = { comps, 6, wires, 3, NULL, 0 };
	const struct machine_def toy = { "toy", "the baseline GPU with a one-entry store buffer per warp", &row };
	char text[2048];
	snprintf(text, sizeof text, "%s%s", header, kernel);
	struct diag d;
	diag_init(&d);
	struct spec *s = spec_parse("toy.gpu", text, &d);
	struct model *m = s ? compose_build(s, def ? &toy : registry_find("baseline"), &d) : NULL;
	struct strbuf e;
	sb_init(&e);
	int rc = -1;
	if (m && !expr_resolve(s->props[0].p.cond, m, &e)) {
		struct explore_opts o;
		explore_opts_default(&o);
		o.check_model = 1;
		o.por = 0; /* the hand-derived counts are of every interleaving */
		struct explore_result er;
		explore(m, &s->props[0].p, 1, &o, &er);
		*r = (struct run){ er.verdict, er.failed_kind == P_CONTRACT && er.verdict == V_FAIL, er.witness,
		                   er.states, er.transitions, er.terminals, "", "" };
		snprintf(r->why, sizeof r->why, "%s", er.why ? er.why : "");
		outcomes(&er, r->outcomes, sizeof r->outcomes);
		explore_result_free(&er);
		rc = 0;
	}
	if (rc)
		snprintf(r->why, sizeof r->why, "not built: %s%s", sb_str(&d.msg), sb_str(&e));
	sb_free(&e);
	if (m)
		m->destroy(m);
	spec_free(s);
	diag_free(&d);
	return rc;
}

static int ntest;

static void ok(int cond, const char *what, const struct run *r)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++ntest, what);
	if (!cond)
		printf("# verdict %d contract %d witness %d states %llu terminals %llu outcomes {%s}\n# why: %s\n",
		       r->verdict, r->contract, r->witness, (unsigned long long)r->states,
		       (unsigned long long)r->terminals, r->outcomes, r->why);
}

int main(void)
{
	undeclared = past_slice = keeps_entry = storebuf;
	undeclared.kinds = kinds_undeclared;
	past_slice.apply = apply_past_slice;
	keeps_entry.apply = apply_keeps_entry;
	struct run r;

	/* SB.  Positions of a warp: 0 shl, 1 st, 2 xor, 3 ld, D (done); v its
	** loaded value, d whether its store drained.  Baseline: the store is
	** in memory once p >= 2; 16 states with neither done, 4 with one done
	** and the other before its store (v = 0), 8 with the other stored
	** (v = 0 or 1), 3 with both done ((0,0) impossible): 31, 3 final.
	** Transitions: one per warp not done: 16*2 + 12 = 44.
	** Storebuf: per warp, given the other's d_o, configurations with d = 0
	** are 2 (p < 2) + 2 (p = 2, 3) + vals(d_o) (D), with d = 1 are 2 +
	** vals(d_o), where vals(0) = 1 (v = 1 needs the other drained) and
	** vals(1) = 2; every (v0, v1) is reachable once both drained.  States
	** = 5*5 + 6*3 + 3*6 + 4*4 = 77, final 4.  Transitions, one per warp
	** not done and one per FULL entry: 2 * (7*5 + 8*3 + 2*6 + 2*4) = 158. */
	explore_toy(NULL, sb, &r);
	ok(r.verdict == V_FAIL && !r.contract && !r.witness && r.states == 31 && r.transitions == 44 &&
	   r.terminals == 3 && !strcmp(r.outcomes, "0,1 1,0 1,1"),
	   "SB on baseline: (0,0) unreachable; 31 states, 44 transitions, 3 final, as derived", &r);
	explore_toy(&storebuf, sb, &r);
	ok(r.verdict == V_PASS && r.witness && r.states == 77 && r.transitions == 158 && r.terminals == 4 &&
	   !strcmp(r.outcomes, "0,0 0,1 1,0 1,1"),
	   "SB on storebuf: (0,0) reachable, contract kept; 77 states, 158 transitions, 4 final, as derived", &r);

	/* SB + membar.gl: the fence waits for the drain, so (0,0) is gone
	** again.  Positions 0 shl, 1 st, 2 membar, 3 xor, 4 ld, D; p >= 3
	** implies drained.  With d = 0: 2 (p < 2) + 1 (p = 2); with d = 1: 1
	** (p = 2) + 2 (p = 3, 4) + vals(d_o) (D).  9 + 3*4 + 4*3 + (5*5 - 1:
	** not (0,0)) = 57, final 3. */
	explore_toy(&storebuf, sb_fenced, &r);
	ok(r.verdict == V_FAIL && !r.contract && !r.witness && r.states == 57 && r.terminals == 3 &&
	   !strcmp(r.outcomes, "0,1 1,0 1,1"),
	   "SB+membar.gl on storebuf: the fence waits for the drain, (0,0) unreachable; 57 states, 3 final", &r);

	/* MP: one entry per warp and a store waits for the drain of the one
	** before, so stores reach memory in program order (TSO): the stale
	** read (flag 1, data 0) stays unreachable, the outcome sets agree. */
	explore_toy(NULL, mp, &r);
	struct run base = r;
	explore_toy(&storebuf, mp, &r);
	ok(r.verdict == V_FAIL && !r.contract && !r.witness && !strcmp(r.outcomes, "0,0 0,1 1,1") &&
	   !strcmp(r.outcomes, base.outcomes),
	   "MP on storebuf: stores drain in program order, the stale read is unreachable (as on baseline)", &r);

	/* forwarding: a warp's load of the word it stored sees its own value,
	** drained or not */
	explore_toy(&storebuf, fwd, &r);
	ok(r.verdict == V_FAIL && !r.contract && !r.witness && !strcmp(r.outcomes, "1,1"),
	   "storebuf forwards: a warp always reads back its own buffered store", &r);

	/* the planted bugs, each reported as a broken contract naming what broke */
	explore_toy(&undeclared, sb, &r);
	ok(r.contract && strstr(r.why, "action kind 'drain' of storebuf wrote the slice of mem"),
	   "(a) drain writes mem without declaring PORT(P_MEM): contract violation names kind and component", &r);
	explore_toy(&past_slice, sb, &r);
	ok(r.contract && strstr(r.why, "action kind 'drain' of storebuf wrote the slice of warps"),
	   "(b) drain writes a byte past its slice: contract violation names the slice it hit", &r);
	explore_toy(&keeps_entry, sb, &r);
	ok(r.contract && strstr(r.why, "STOREBUF-2") && strstr(r.why, "(component storebuf)"),
	   "(c) drain leaves the word and value in an empty entry: invariant STOREBUF-2 reported", &r);
	/* wiring errors are refused with a message, never a crash */
	int bad = explore_toy(&storebuf, "set warps_per_cta = 2\n" BEGIN "    exit\nend\ncheck exists 0:%r0 == 0\n", &r);
	ok(bad && strstr(r.why, "toy.gpu: error: storebuf: one single-lane warp per CTA"),
	   "storebuf refuses two warps per CTA with a message", &r);
	printf("1..%d\n", ntest);
	return 0;
}
