/*
** `check persist_order strict|epoch` (issue 12 item 7; Lin et al. §II-A,
** §III; shared/notes/persistency.md §2): is what a crash leaves durable
** allowed by the persistency model?  The persist machine says *how* stores
** reach NVM; this record says *which* stores are durable, so that "does
** this mechanism implement strict persistency?" has an answer and a
** counterexample.
**
** The models, as orders over a kernel's global stores (st, st.wt):
**   strict  "the persistent memory order is identical to the volatile
**           memory order": A before B when A precedes B in its thread's
**           program order, or A's warp issued it before a bar.sync that
**           B's warp (same CTA) passed first, or A's kernel launch came
**           before B's.  The paper defines no other cross-thread order
**           (GPU consistency is "not formally defined"); a flag read
**           (reads-from) orders nothing here.
**   epoch   "the durability order of stores to different addresses is
**           only enforced between epochs": the same without program
**           order -- an epoch is the code between two bar.syncs of a CTA
**           (the persist barrier of CTA epochs and of Fig. 5), a kernel
**           launch (kernel epochs, Fig. 3), or, within a warp, the code
**           between two l2wb passes it completed (the paper's epoch
**           persist barrier: loop epochs are per warp, the epoch-loop
**           rewrite ends each with l2wb; fences).
** Stores to one word are durable in their order ("strong persistent
** atomicity"): a store is durable once its word's durable value is its own
** or a later store's.  Host and recovery stores, and atomics, are not
** recorded.  A violation: a crash now leaves B durable and an A before B
** not.
**
** Record (persist.c keeps it at the end of its slice, only when the spec
** checks persist_order):
**   launch u8, pad u8[7]                   kernel launches so far
**   gen u8[warps] (to 8)                   bar.syncs warp w issued this launch
**   wep u8[warps] (to 8)                   l2wb passes warp w completed
**   ver u16[4][G] (to 8)                   per word, the version (n-th store)
**                                          of its value in L2/memory, WPQ,
**                                          transit (st.wt) and NVM
**   per thread (warp * lanes + lane): n u8, pad u8[7], ent[PO_WINDOW]
**                                          its recorded stores, program order:
**                                          word, version, pc, gen, wep, launch
** Transitions (called from persist.c): po_issue appends a store before it
** is performed; po_stored bumps a word's version; po_move carries a
** version with a value (write-back, st.wt arrival, drain, host persist);
** po_prune drops the stores that are durable with nothing volatile before
** them.  Durability is monotone (a word's durable value only gets newer),
** so a dropped store is in no later violation: a pair (A volatile, B
** durable, A before B) appears in the state the step that made B durable
** leads to, and stays until A is durable.
** Invariant PO-1: a thread records at most PO_WINDOW stores, each with a
** version in [1, the word's visible version], and nothing past n.
*/
#include "config.h"
#include "machines/persist_order.h"

#include <string.h>

#include "explore/prop.h"
#include "util/strbuf.h"

enum { PO_WINDOW = 16 };

struct po_ent {
	uint16_t word, ver, pc;
	uint8_t gen, wep, launch, pad;
};
struct po_thr {
	uint8_t n, pad[7];
	struct po_ent e[PO_WINDOW];
};

#define R8(n) (((n) + 7) & ~(size_t)7)

static unsigned nthreads(const struct gpu *g)
{
	return g->nwarps * g->cfg.threads_per_warp;
}
static uint8_t *gen(const struct gpu *g, uint8_t *rec)
{
	(void)g;
	return rec + 8;
}
static uint8_t *wep(const struct gpu *g, uint8_t *rec)
{
	return rec + 8 + R8(g->nwarps);
}
static uint16_t *ver(const struct gpu *g, uint8_t *rec, enum po_where k)
{
	return (uint16_t *)(rec + 8 + 2 * R8(g->nwarps)) + (size_t)k * g->prog->global_words;
}
static struct po_thr *thr(const struct gpu *g, uint8_t *rec, unsigned t)
{
	return (struct po_thr *)(rec + 8 + 2 * R8(g->nwarps) + R8(8 * (size_t)g->prog->global_words)) + t;
}

size_t po_size(const struct gpu *g)
{
	if (!g->persist_order)
		return 0;
	return 8 + 2 * R8(g->nwarps) + R8(8 * (size_t)g->prog->global_words) + sizeof(struct po_thr) * nthreads(g);
}

void po_launch(const struct gpu *g, uint8_t *rec)
{
	if (!g->persist_order)
		return;
	if (rec[0] < UINT8_MAX)
		rec[0]++;
	memset(gen(g, rec), 0, g->nwarps);
	memset(wep(g, rec), 0, g->nwarps);
}

void po_barrier(const struct gpu *g, uint8_t *rec, unsigned w, int l2wb)
{
	uint8_t *k = l2wb ? wep(g, rec) : gen(g, rec);
	if (g->persist_order && k[w] < UINT8_MAX)
		k[w]++;
}

int po_issue(const struct gpu *g, uint8_t *rec, unsigned w, unsigned l, uint32_t word, unsigned pc, unsigned ahead)
{
	if (!g->persist_order)
		return 0;
	struct po_thr *t = thr(g, rec, w * g->cfg.threads_per_warp + l);
	if (t->n == PO_WINDOW)
		return -1;
	t->e[t->n++] = (struct po_ent){ (uint16_t)word, (uint16_t)(ver(g, rec, PO_VIS)[word] + ahead), (uint16_t)pc,
		                        gen(g, rec)[w], wep(g, rec)[w], rec[0], 0 };
	return 0;
}

void po_stored_rec(const struct gpu *g, uint8_t *rec, uint32_t word)
{
	ver(g, rec, PO_VIS)[word]++;
}

void po_move_rec(const struct gpu *g, uint8_t *rec, enum po_where to, enum po_where from, uint32_t word)
{
	ver(g, rec, to)[word] = ver(g, rec, from)[word];
}

/* {=== The order and the check ========================================== */

/* Is e durable: its word's durable value is its own store's or a later one's? */
static int durable(const struct gpu *g, uint8_t *rec, const uint8_t *inwpq, unsigned bit, const struct po_ent *e)
{
	enum po_where k = g->cfg.wpq_durable && inwpq[e->word] & bit ? PO_WPQ : PO_NVM;
	return ver(g, rec, k)[e->word] >= e->ver;
}

/* Must a (thread ta, i-th) be durable before b (thread tb, j-th) under mode?
** Returns what orders them (NULL: nothing). */
static const char *before(const struct gpu *g, int mode, unsigned ta, unsigned i, const struct po_ent *a, unsigned tb,
                          unsigned j, const struct po_ent *b)
{
	unsigned tpw = g->cfg.threads_per_warp, per = tpw * g->cfg.warps_per_cta;
	if (a->launch != b->launch)
		return a->launch < b->launch ? "an earlier kernel launch" : NULL;
	if (ta / per == tb / per && a->gen < b->gen)
		return "a bar.sync";
	if (ta / tpw == tb / tpw && a->wep < b->wep)
		return "the warp's l2wb (an epoch's end)";
	if (mode == PO_STRICT && ta == tb && i < j)
		return "program order";
	return NULL;
}

/* The first pair (A volatile, B durable, A before B under mode): 1 with
** *pa, *pb set. */
static int find(const struct gpu *g, uint8_t *rec, const uint8_t *inwpq, unsigned bit, int mode, unsigned tb,
                unsigned j, unsigned *pa, unsigned *pi, const char **what)
{
	const struct po_ent *b = &thr(g, rec, tb)->e[j];
	for (unsigned ta = 0; ta < nthreads(g); ta++) {
		const struct po_thr *t = thr(g, rec, ta);
		for (unsigned i = 0; i < t->n; i++) {
			const char *w = before(g, mode, ta, i, &t->e[i], tb, j, b);
			if (w && !durable(g, rec, inwpq, bit, &t->e[i])) {
				*pa = ta;
				*pi = i;
				*what = w;
				return 1;
			}
		}
	}
	return 0;
}

void po_prune_rec(const struct gpu *g, uint8_t *rec, const uint8_t *inwpq, unsigned bit)
{
	for (unsigned tb = 0; tb < nthreads(g); tb++) {
		struct po_thr *t = thr(g, rec, tb);
		unsigned keep = 0, ta, i;
		const char *w;
		for (unsigned j = 0; j < t->n; j++) {
			/* strict's order contains epoch's: what strict keeps serves both */
			if (durable(g, rec, inwpq, bit, &t->e[j]) && !find(g, rec, inwpq, bit, PO_STRICT, tb, j, &ta, &i, &w))
				continue;
			t->e[keep++] = t->e[j];
		}
		memset(&t->e[keep], 0, sizeof(struct po_ent) * (t->n - keep));
		t->n = (uint8_t)keep;
	}
}

/* "thread 1 (warp 0 lane 1), line 12 `st.global [b], 1` (b)" */
static void name_store(const struct gpu *g, unsigned t, const struct po_ent *e, struct strbuf *out)
{
	const struct instr *in = &g->prog->ins[e->pc];
	sb_printf(out, "thread %u (warp %u lane %u), line %d `%s`, to ", t, t / g->cfg.threads_per_warp,
	          t % g->cfg.threads_per_warp, in->line, in->text);
	po_word_name(g, e->word, out);
}

int po_violated(const struct gpu *g, const uint8_t *rec, const uint8_t *inwpq, unsigned bit, int mode,
                struct strbuf *why)
{
	uint8_t *r = (uint8_t *)rec; /* read only */
	for (unsigned tb = 0; tb < nthreads(g); tb++) {
		const struct po_thr *t = thr(g, r, tb);
		for (unsigned j = 0; j < t->n; j++) {
			unsigned ta, i;
			const char *what;
			if (!durable(g, r, inwpq, bit, &t->e[j]) || !find(g, r, inwpq, bit, mode, tb, j, &ta, &i, &what))
				continue;
			sb_puts(why, "store B, ");
			name_store(g, tb, &t->e[j], why);
			sb_puts(why, ", is durable but store A, ");
			name_store(g, ta, &thr(g, r, ta)->e[i], why);
			sb_printf(why, ", is not, and A precedes B under %s persistency (by %s)",
			          mode == PO_STRICT ? "strict" : "epoch", what);
			return 1;
		}
	}
	return 0;
}

/* }=== */

void po_word_name(const struct gpu *g, uint32_t i, struct strbuf *out)
{
	for (int k = 0; k < g->prog->nsyms; k++) {
		const struct symbol *s = &g->prog->syms[k];
		if (s->space == SP_GLOBAL && i >= s->base / 4 && i < s->base / 4 + s->nelems) {
			if (s->is_array)
				sb_printf(out, "%s[%u]", s->name, i - s->base / 4);
			else
				sb_puts(out, s->name);
			return;
		}
	}
}

int po_check(const struct gpu *g, const uint8_t *rec, struct strbuf *why)
{
	if (!g->persist_order)
		return 0;
	uint8_t *r = (uint8_t *)rec; /* read only */
	for (unsigned tn = 0; tn < nthreads(g); tn++) {
		const struct po_thr *t = thr(g, r, tn);
		if (t->n > PO_WINDOW) {
			sb_printf(why, "PO-1: thread %u records %u stores", tn, t->n);
			return 1;
		}
		for (unsigned j = 0; j < PO_WINDOW; j++) {
			const struct po_ent *e = &t->e[j], zero = { 0 };
			if (j >= t->n ? memcmp(e, &zero, sizeof zero) != 0
			              : !e->ver || e->ver > ver(g, r, PO_VIS)[e->word]) {
				sb_printf(why, "PO-1: thread %u's store %u has version %u (word %u is at %u)", tn, j, e->ver,
				          e->word, ver(g, r, PO_VIS)[e->word]);
				return 1;
			}
		}
	}
	return 0;
}
