/*
** Sequentially consistent memory (component "mem", port mem): a load or
** store takes effect in the step that issues it.  Global memory is one
** segment for the whole grid; each CTA has its own shared segment.
** Addresses are bytes, accesses are aligned 32-bit words; anything else is
** a fault the checker reports.
**
** Slice: the global words that may change, in address order, then shared
** words per CTA (4*S*ctas), at the start of the vector.  A global word's
** location id is its index (address / 4); g->gword maps it to its place.
** Read-only memory is not in the vector: a variable that no instruction
** writes (program_read_only: decided from the decoded kernel, per whole
** variable, since a computed address may reach any element) keeps its
** initial value in every state, so its words are read from g->ginit, one
** copy per model, and the vector shrinks by them: a kernel's input
** arrays cost nothing per state.  Unless a component reads the global
** words in place (persist.c, which also runs host and recovery steps that
** write memory): then every word stays in the vector at 4*w.
**
** Invariant MEM-1: words outside every declared variable do not exist (the
** segments are exactly the declared variables, so state vectors carry no
** slack).
** Invariant MEM-2: no step writes a read-only word (a store or atomic to
** its variable would have made it writable); a write that reached one
** would change the model, so it stops the program (store_at).
** Invariant MEM-3: a variable's words are all read-only or all in the
** vector, one after another (layout), so a warp's loads from one
** variable read a row, not each word's place (loads).
** Private data (c->priv, struct span): per space and variable, the
** addresses where word_of finds a word, decided at layout, so that a
** warp's loads and an atomic's addresses are tested without decoding.
*/
#include "config.h"
#include "machines/component.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machines/alu.h"
#include "util/strbuf.h"

/* Whether a lane of a (32) addresses no word x with x - lo < lim, or a
** misaligned one. */
static inline __attribute__((always_inline)) uint32_t bad_lanes(const struct alu_lanes *a, uint32_t lo, uint32_t lim)
{
	lanes4 bad = { 0, 0, 0, 0 };
	for (unsigned l = 0; l < 32; l += 4) {
		lanes4 x;
		memcpy(&x, a->r + l, sizeof x);
		x += a->base;
		bad |= (lanes4)(x - lo >= lim) | (x & 3);
	}
	return bad[0] | bad[1] | bad[2] | bad[3];
}

/* Whether a lane l of register row r (32) is not r[0] + st l.  Inline,
** st constant (0 or 4): no multiplication. */
static inline __attribute__((always_inline)) uint32_t off_stride(const uint32_t *r, uint32_t st)
{
	lanes4 o = { 0, 0, 0, 0 }, want = r[0] + (lanes4){ 0, 1, 2, 3 } * st;
	for (unsigned l = 0; l < 32; l += 4, want += 4 * st) {
		lanes4 x;
		memcpy(&x, r + l, sizeof x);
		o |= x ^ want;
	}
	return o[0] | o[1] | o[2] | o[3];
}

/* addr's word in a segment of `words` words, within variable s (NULL:
** any): its index, or -1 and *fault. */
static inline long word_of(const struct symbol *s, uint32_t words, uint32_t addr, int *fault)
{
	if (s && (addr < s->base || addr - s->base >= s->nelems * 4u)) {
		*fault = F_OOB;
		return -1;
	}
	if (addr & 3) {
		*fault = F_ALIGN;
		return -1;
	}
	if (addr / 4 >= words) {
		*fault = F_OOB;
		return -1;
	}
	return (long)(addr / 4);
}

static long word(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, int sym, uint32_t addr,
                 int *fault)
{
	(void)sv;
	const struct program *p = c->g->prog;
	uint32_t words = sp == SP_GLOBAL ? p->global_words : p->shared_words;
	long w = word_of(sym >= 0 ? &p->syms[sym] : NULL, words, addr, fault);
	return w < 0 || sp == SP_GLOBAL ? w : (long)((size_t)cta * words) + w;
}

static uint32_t load(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, long w)
{
	(void)cta;
	if (sp == SP_GLOBAL)
		return gpu_global(c->g, sv, (uint32_t)w);
	return ((const uint32_t *)(sv + c->g->shared_off))[w];
}

/* The word a store or atomic writes (MEM-2: never a read-only one). */
static uint32_t *store_at(const struct comp *c, uint8_t *sv, enum space sp, long w)
{
	if (sp == SP_SHARED)
		return (uint32_t *)(sv + c->g->shared_off) + w;
	uint32_t off = c->g->gword[w];
	if (off == GWORD_CONST) {
		fprintf(stderr, "gpumc: internal error: MEM-2: a write to read-only global word %ld\n", w);
		abort();
	}
	return (uint32_t *)(sv + off);
}

static void store(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long w, uint32_t v)
{
	(void)cta;
	*store_at(c, sv, sp, w) = v;
}

static uint32_t rmw(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long w, enum atom_op op,
                    enum vtype t, uint32_t a, uint32_t b)
{
	(void)cta;
	uint32_t *x = store_at(c, sv, sp, w), old = *x;
	*x = alu_atomic(op, t, old, a, b);
	return old;
}

/* Where word_of(s, words, x) finds a word: x - *lo < the span returned,
** x aligned.  Inside the variable and the segment at once (x - lo <
** s->nelems * 4 and x / 4 < words: no variable wraps the address space;
** with no variable named, all but 0xffffffff, misaligned anyway). */
static inline uint32_t good_span(const struct symbol *s, uint32_t words, uint32_t *lo)
{
	uint32_t span = s ? s->nelems * 4u : UINT32_MAX;
	uint64_t seg = 4ull * words;
	*lo = s ? s->base : 0;
	return *lo >= seg ? 0 : (uint32_t)(seg - *lo < span ? seg - *lo : span);
}

/* good_span of each space and variable, decided at layout (c->priv):
** space sp's variable sym at [sp * (nsyms + 1) + sym + 1], sym -1 (no
** variable named) at [sp * (nsyms + 1)]. */
struct span {
	uint32_t lo, lim;
};

static size_t span_index(const struct program *p, enum space sp, int sym)
{
	return (size_t)sp * ((size_t)p->nsyms + 1) + (size_t)(sym + 1);
}

static const struct span *span_of(const struct comp *c, enum space sp, int sym)
{
	return (const struct span *)c->priv + span_index(c->g->prog, sp, sym);
}

/* word() then load() lane by lane, what they read of the program and the
** layout read once: the stores to d[] might alias it; a good address
** tested as the whole-warp ones are, word_of asked only for a fault. */
static int loads(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, int sym,
                 const struct alu_lanes *ad, uint32_t m, uint32_t *d)
{
	const struct gpu *g = c->g;
	const struct program *p = g->prog;
	const struct symbol *s = sym >= 0 ? &p->syms[sym] : NULL;
	uint32_t words = sp == SP_GLOBAL ? p->global_words : p->shared_words;
	const uint32_t *gword = g->gword, *ginit = g->ginit;
	const struct alu_lanes a = *ad;
	const struct span *sn = span_of(c, sp, sym);
	uint32_t lo = sn->lo, lim = sn->lim;
	/* the words, from word `first`: shared memory, or one global
	** variable's, read-only or not alike (MEM-3); NULL: global words
	** with no variable named, each where gword puts it */
	const uint32_t *row = (const uint32_t *)(sv + g->shared_off) + (size_t)cta * words;
	uint32_t first = 0;
	if (sp == SP_GLOBAL && s) {
		uint32_t off = gword[lo / 4];
		row = off == GWORD_CONST ? ginit + lo / 4 : (const uint32_t *)(sv + off);
		first = lo / 4;
	} else if (sp == SP_GLOBAL) {
		row = NULL;
	}
	/* a whole warp of register addresses, all good (bad_lanes, or the
	** first and last lane of a fill or a copy): loaded without the
	** tests, else lane by lane for the first lane's fault */
	if (m == 0xffffffffu && a.r) {
		/* whether every lane reads one word (a broadcast: conv's
		** activations) or lane l the l-th word on (coalesced): one fill
		** or one copy, not 32 loads, and only the first and the last
		** lane's addresses to test (x - lo for the others lies between
		** theirs) */
		uint32_t x0 = a.base + a.r[0], st = a.r[1] - a.r[0];
		uint32_t other = (st != 0 && st != 4) || (st ? off_stride(a.r, 4) : off_stride(a.r, 0));
		/* every lane first: a.r may be d */
		if (other ? !bad_lanes(&a, lo, lim) : !(x0 & 3) && (uint64_t)(x0 - lo) + 31u * st < lim) {
			/* registers and memory are apart in the vector; two register
			** rows are one or apart, so lane l's is read before d[l] */
			if (!row)
				for (unsigned l = 0; l < 32; l++)
					d[l] = gpu_global_at(gword, ginit, sv, (a.base + a.r[l]) / 4);
			else if (other)
				for (unsigned l = 0; l < 32; l++)
					d[l] = row[(a.base + a.r[l]) / 4 - first];
			else if (st)
				memcpy(d, row + (x0 / 4 - first), 32 * sizeof *d);
			else
				for (unsigned l = 0, v = row[x0 / 4 - first]; l < 32; l++)
					d[l] = v;
			return 0;
		}
	}
	for (; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint32_t x = alu_lane(&a, l);
		if (x - lo >= lim || (x & 3)) { /* word_of says which fault */
			int f = 0;
			word_of(s, words, x, &f);
			return f;
		}
		d[l] = row ? row[x / 4 - first] : gpu_global_at(gword, ginit, sv, x / 4);
	}
	return 0;
}

/* Global addresses only: good_span, decided at layout (span_of). */
static uint32_t span(const struct comp *c, int sym, uint32_t *lo)
{
	const struct span *sn = span_of(c, SP_GLOBAL, sym);
	*lo = sn->lo;
	return sn->lim;
}

static const struct port_mem ops = { word, load, store, rmw, loads, span };

long mem_fwd_word(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, int sym, uint32_t addr,
                  int *fault)
{
	const struct bind *b = REQ(c, P_MEM);
	return ((const struct port_mem *)b->ops)->word(b->c, sv, sp, cta, sym, addr, fault);
}

uint32_t mem_fwd_load(const struct comp *c, const uint8_t *sv, enum space sp, unsigned cta, long word)
{
	const struct bind *b = REQ(c, P_MEM);
	return ((const struct port_mem *)b->ops)->load(b->c, sv, sp, cta, word);
}

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	(void)d;
	*align = 4;
	const struct program *p = g->prog;
	uint32_t G_ = p->global_words;
	struct span *t = xcalloc(2 * ((size_t)p->nsyms + 1), sizeof *t);
	for (int sp = SP_GLOBAL; sp <= SP_SHARED; sp++)
		for (int k = -1; k < p->nsyms; k++) {
			struct span *x = &t[span_index(p, (enum space)sp, k)];
			x->lim = good_span(k >= 0 ? &p->syms[k] : NULL, sp == SP_GLOBAL ? G_ : p->shared_words, &x->lo);
		}
	c->priv = t;
	g->ginit = xcalloc((size_t)G_ + 1, sizeof *g->ginit);
	g->gword = xcalloc((size_t)G_ + 1, sizeof *g->gword);
	int in_place = g->globals_in_place || p->host || p->recovery;
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *s = &p->syms[i];
		if (s->space != SP_GLOBAL)
			continue;
		memcpy(g->ginit + s->base / 4, s->init, (size_t)s->nelems * 4);
		if (!in_place && program_read_only(p, SP_GLOBAL, i))
			for (uint32_t k = 0; k < s->nelems; k++)
				g->gword[s->base / 4 + k] = GWORD_CONST;
	}
	/* the slice starts the vector (c->off 0): writable words in address order */
	uint32_t n = 0;
	for (uint32_t w = 0; w < G_; w++)
		if (g->gword[w] != GWORD_CONST)
			g->gword[w] = 4 * n++;
	g->shared_off = (size_t)n * 4;
	return (long)(g->shared_off + (size_t)p->shared_words * 4 * g->cfg.ctas);
}

static void init(const struct comp *c, uint8_t *sv)
{
	const struct gpu *g = c->g;
	if (g->shared_off == 4 * (size_t)g->prog->global_words) { /* every word writable, in place: one copy */
		memcpy(sv, g->ginit, g->shared_off);
		return;
	}
	/* a symbol is constant or writable as a whole, its writable words in
	** a row (layout numbers them in address order); a word outside every
	** symbol starts 0, as m_init's vector does: one copy a symbol, not a
	** test a word (concrete mode inits once a run) */
	const struct program *p = g->prog;
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *s = &p->syms[i];
		if (s->space == SP_GLOBAL && s->nelems && g->gword[s->base / 4] != GWORD_CONST)
			memcpy(sv + g->gword[s->base / 4], g->ginit + s->base / 4, (size_t)s->nelems * 4);
	}
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	const struct program *p = c->g->prog;
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *sym = &p->syms[i];
		if (sym->space != SP_GLOBAL)
			continue;
		sb_printf(out, "  %s =", sym->name);
		if (sym->is_array)
			sb_puts(out, " {");
		for (uint32_t k = 0; k < sym->nelems; k++) {
			sb_puts(out, k ? ", " : " ");
			value_print(gpu_global(c->g, sv, sym->base / 4 + k), sym->type, out);
		}
		sb_puts(out, sym->is_array ? " }\n" : "\n");
	}
}

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_MEM ? &ops : NULL;
}

const struct comp_def comp_mem = {
	.name = "mem", .desc = "SC global memory and per-CTA shared memory",
	.provides = PORT(P_MEM), .port_writes = SELF,
	.layout = layout, .init = init, .print = print, .port = port,
	/* no actions; its port serves the issuing warp alone */
	.por = compose_por_independent_of_exit, .por_atomics = 1,
};
