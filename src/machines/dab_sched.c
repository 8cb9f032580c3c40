/*
** Determinism-aware warp schedulers of DAB (§IV-C).  With scheduler-level
** buffers the warps of one scheduler share a buffer, so the order in which
** their atomics enter it must not depend on timing.  Each policy is a rule
** for which READY warps may issue in the current state; exhaustive mode
** explores every allowed choice, concrete mode lets GTO pick among them.
** The rules as the paper states them:
**
**   SRR   strict round robin: only the next warp in order issues, any
**         instruction, "skipping threads blocked on syncthreads" (and done
**         warps); a warp blocked otherwise (a fence, a full buffer, an
**         atom's values) holds its turn, as in Fig. 7a.
**   GTRR  free (GTO) until every warp of the scheduler has reached its
**         first atomic or exited, then SRR for good.
**   GTAR  free for non-atomics; each atomic is a scheduler-level barrier:
**         when every warp is at an atomic or exited a round starts and
**         those warps issue their atomic in warp order; a warp past its
**         atomic runs freely again during the round.
**   GWAT  free for non-atomics; only the warp holding the token issues an
**         atomic; the token starts at the lowest warp and passes to the
**         next when its holder issues an atomic or exits.
**   GTO   no restriction (the nondeterministic baseline policy).
** "Atomic" means a global atom/red, the instructions DAB buffers.
**
** A warp blocked at bar.sync is released at a DAB flush (dab.c), so it is
** blocked over an interval fixed by the program.  The literal GTRR, GTAR
** and GWAT then deadlock when a warp waits at a barrier for a warp of its
** scheduler that waits at an atomic for the barrier-blocked one (specs/dab
** S6, S7).  The repaired variants gtrr-bar, gtar-bar and gwat-bar treat a
** warp blocked at a barrier like an exited one: it counts as arrived for
** the switch and the round, and the token skips it.
**
** CTA batches (§IV-C5, cta_dispatch.c): with fewer CTA slots than CTAs, a
** scheduler's warps come in batches, and "all atomics from batch b_i must
** complete before any atomics from b_i+1".  Each rule above applies to the
** current batch -- the first with a warp not done or an atomic of one not
** yet performed -- as if its warps were the scheduler's only ones (the
** token and the round-robin turn start at its first warp); a warp of a
** later batch issues no atomic, and under SRR (and GTRR once switched,
** "until the kernel ends") nothing at all.  GTO ignores batches.
**
** Component "dab_sched": a scheduler component (scheduler.h) whose slice is
** one struct dab_sched_state per scheduler (16 bytes, 8-aligned).  Actions
** are listed scheduler by scheduler, warps in id order within each.
** Invariants: SCHED-1 rr and token index a warp of their scheduler; SCHED-2
** todo names only warps of its scheduler; pads are zero.
**
** Concrete mode keeps each scheduler's set of warps that may issue
** (readyset.c), recomputed after the events that may move it: the
** unit's own warp-local issue (one: its warp's bits alone, under GTO,
** GWAT and GTAR), its own atomic's issue (own: its warp's and GWAT's
** token holder's bits alone, under GTO and GWAT) and, under SRR and
** GTRR, its own issue warp-local but for the turn (reach: REACH_OWN, its
** set alone), anything else as the driver counts it.  The full poll (fill) under
** strict round robin polls the turn's warp alone.  Invariant READY-15
** (GPUMC_CHECK_READY): that equals a poll of every warp.  READY-5:
** check_allowed.
*/
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "machines/readyset.h"
#include "machines/scheduler.h"
#include "util/strbuf.h"

/* Does warp w sit out the scheduler's order: exited (or faulted), or, for
** the -bar variants, blocked at a barrier? */
static int out_of_order(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	uint8_t st = gpu_warp(g, (uint8_t *)sv, w)->status;
	return st == W_DONE || st == W_FAULT || (g->cfg.sched_rule > DS_GWAT && gpu_at_barrier(g, (uint8_t *)sv, w));
}

/* Per-scheduler state (16 bytes). */
struct dab_sched_state {
	uint8_t rr;     /* SRR/GTRR: index of the next warp in round-robin order */
	uint8_t srr;    /* GTRR: switched to SRR for the rest of the kernel      */
	uint8_t token;  /* GWAT: index of the warp holding the atomic token      */
	uint8_t pad;
	uint32_t pad2;
	uint64_t todo;  /* GTAR: warps still to issue their atomic this round    */
};
_Static_assert(sizeof(struct dab_sched_state) == 16, "scheduler state is 16 bytes");

/* What a scheduler allows now, computed once per state. */
struct dab_sched_view {
	unsigned lo, hi;  /* the current batch: sched_warps[first + lo .. hi)     */
	int srr;          /* strict round robin applies now                     */
	unsigned rr_warp; /* SRR: the one warp that may issue (UINT32_MAX: none) */
	uint64_t round;   /* GTAR: current round (0: none)                       */
	unsigned atom_warp; /* GTAR/GWAT: the one warp that may issue an atomic  */
};

#define WARPS(c) ((const struct port_warps *)port_ops(c, P_WARPS))

static struct dab_sched_state *state(const struct comp *c, const uint8_t *sv, unsigned k)
{
	return (struct dab_sched_state *)(sv + c->off) + k;
}

/* Has warp w's batch work left: the warp not done, or an atomic of it
** not yet performed (the atomics provider's pending count or flag)? */
static int unfinished(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	const struct warp_hdr *h = gpu_warp(g, (uint8_t *)sv, w);
	return (h->status != W_DONE && h->status != W_FAULT) || h->pending;
}

/* The current batch of scheduler k, as indices into its warp list: the
** warps of the first batch with work left (all of them when every CTA is
** resident, or when none has work left).  Inline: asked at every view
** and every GWAT atomic's issue, mostly with every CTA resident. */
static inline __attribute__((always_inline)) void batch(const struct gpu *g, const uint8_t *sv, unsigned k, unsigned *lo, unsigned *hi)
{
	unsigned first = g->sched_first[k], n = g->sched_first[k + 1] - first, i = 0;
	*lo = 0;
	*hi = n;
	if (g->resident * g->cfg.sms >= g->cfg.ctas)
		return;
	while (i < n && !unfinished(g, sv, g->sched_warps[first + i]))
		i++;
	if (i == n)
		return;
	unsigned b = gpu_batch_of(g, g->sched_warps[first + i]);
	while (i > 0 && gpu_batch_of(g, g->sched_warps[first + i - 1]) == b)
		i--;
	*lo = i;
	while (i < n && gpu_batch_of(g, g->sched_warps[first + i]) == b)
		i++;
	*hi = i;
}

/* The j-th warp of the batch's order (j below its size), counting from
** index `from` (a turn or token left in an earlier batch counts from its
** first warp): past the batch's end, around once, without a division. */
static unsigned nth(const struct gpu *g, unsigned k, const struct dab_sched_view *v, unsigned from, unsigned j)
{
	unsigned i = (from >= v->lo && from < v->hi ? from : v->lo) + j;
	return g->sched_warps[g->sched_first[k] + (i < v->hi ? i : i - (v->hi - v->lo))];
}

/* Every warp of scheduler k's batch ready at an atomic or out of the
** order, and one at an atomic: the point where GTRR switches and a GTAR
** round begins (the warps at atomics, one bit each). */
static uint64_t all_at_atomic(const struct comp *c, const uint8_t *sv, unsigned k, const struct dab_sched_view *v)
{
	const struct gpu *g = c->g;
	uint64_t at = 0;
	for (unsigned i = g->sched_first[k] + v->lo; i < g->sched_first[k] + v->hi; i++) {
		unsigned w = g->sched_warps[i];
		if (gpu_warp(g, (uint8_t *)sv, w)->status == W_READY && gpu_at_global_atomic(g, sv, w))
			at |= 1ull << (i - g->sched_first[k]);
		else if (!out_of_order(g, sv, w))
			return 0;
	}
	return at;
}

static void view(const struct comp *c, const uint8_t *sv, unsigned k, struct dab_sched_view *v)
{
	const struct gpu *g = c->g;
	const struct dab_sched_state *s = state(c, sv, k);
	unsigned first = g->sched_first[k];
	batch(g, sv, k, &v->lo, &v->hi);
	unsigned n = v->hi - v->lo;
	v->srr = 0;
	v->rr_warp = v->atom_warp = UINT32_MAX;
	v->round = 0;
	switch (dab_rule(&g->cfg)) {
	case DS_GTRR:
		v->srr = s->srr || all_at_atomic(c, sv, k, v) != 0;
		break;
	case DS_SRR:
		v->srr = 1;
		break;
	case DS_GTAR:
		v->round = s->todo ? s->todo : all_at_atomic(c, sv, k, v);
		if (v->round)
			v->atom_warp = g->sched_warps[first + (unsigned)__builtin_ctzll(v->round)];
		break;
	case DS_GWAT:
		for (unsigned j = 0; j < n; j++) {
			unsigned w = nth(g, k, v, s->token, j);
			if (!out_of_order(g, sv, w)) {
				v->atom_warp = w;
				break;
			}
		}
		break;
	default:
		break;
	}
	if (v->srr) /* skip exited warps and those at a barrier, wait for others */
		for (unsigned j = 0; j < n; j++) {
			unsigned w = nth(g, k, v, s->rr, j);
			uint8_t st = gpu_warp(g, (uint8_t *)sv, w)->status;
			if (st == W_READY)
				v->rr_warp = w;
			if (st != W_DONE && st != W_FAULT && !gpu_at_barrier(g, (uint8_t *)sv, w))
				break;
		}
}

/* May warp w, at a global atomic or not (atomic), issue under view v? */
static inline int may_issue_atom(const struct gpu *g, unsigned w, const struct dab_sched_view *v, int atomic)
{
	if (v->srr)
		return w == v->rr_warp;
	switch (dab_rule(&g->cfg)) {
	case DS_GTRR: return !atomic;
	case DS_GTAR: return atomic ? w == v->atom_warp : 1;
	case DS_GWAT: return atomic ? w == v->atom_warp : 1;
	default: return 1;
	}
}

static int may_issue(const struct comp *c, const uint8_t *sv, unsigned w, const struct dab_sched_view *v)
{
	return may_issue_atom(c->g, w, v, gpu_at_global_atomic(c->g, sv, w));
}

/* Does warp w's issue depend on the scheduler's view (may_issue) or move
** its state (issued)?  Under SRR and GTRR every issue may; under GTAR
** and GWAT only an atomic (a non-atomic is always allowed and changes
** nothing); under GTO none.  enabled() and apply() skip the view where it
** does not matter: computing it was most of a DAB expansion.  atomic:
** whether w is at a global atomic. */
static inline int view_atom(unsigned r, int atomic)
{
	return r == DS_SRR || r == DS_GTRR || (r != DS_GTO && atomic);
}

/* Warp w of scheduler k issued under view v. */
static void issued(const struct comp *c, uint8_t *sv, unsigned k, unsigned w, const struct dab_sched_view *v,
                   int atomic, int buffered)
{
	const struct gpu *g = c->g;
	struct dab_sched_state *s = state(c, sv, k);
	unsigned idx = g->warp_idx[w], next = v->lo + (idx + 1 - v->lo) % (v->hi - v->lo);
	if (v->srr) {
		s->srr = dab_rule(&g->cfg) == DS_GTRR;
		s->rr = (uint8_t)next;
		return;
	}
	if (!atomic)
		return;
	if (dab_rule(&g->cfg) == DS_GTAR) /* a blocked atomic keeps its turn */
		s->todo = buffered ? v->round & ~(1ull << idx) : v->round;
	else if (dab_rule(&g->cfg) == DS_GWAT && buffered)
		s->token = (uint8_t)next;
}

/* Partial-order reduction.  Under GTO, GWAT and GTAR (and gwat-bar,
** gtar-bar) a non-atomic issue is always allowed (may_issue) and changes
** no scheduler state (issued), so nothing here disables a warp-local
** issue, and it commutes with every other warp's issue:
**   - the GWAT token holder depends only on which warps sit out the order
**     (done, faulted, or -bar: blocked at a barrier); a warp-local issue
**     leaves w READY, which is none of these, before and after;
**   - a GTAR round in progress (todo) does not look at w; a new round
**     needs every warp of the scheduler at an atomic or out of the order,
**     and w, READY at a non-atomic, is neither until it has issued, so no
**     atomic of a new round can issue before the local step (it may make
**     w arrive, enabling the round: that is after it).
** Under SRR, and GTRR (or gtrr-bar) once switched, the issue moves the
** round-robin turn, and it can be disabled by an earlier warp resuming;
** GTRR's switch, which w's step can trigger, disables other warps: not
** independent.  The flush that releases a barrier is dab.c's (it
** commutes with a warp-local issue: dab.c, por). */
static int por(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in)
{
	(void)sv, (void)w;
	unsigned r = dab_rule(&c->g->cfg);
	return in->op != OP_EXIT && (r == DS_GTO || r == DS_GWAT || r == DS_GTAR); /* a DONE warp leaves the rotation */
}

/* {=== The component ==================================================== */

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def params[] = {
	{ "scheduler", 4, 0, 7, "gto|srr|gtrr|gtar|gwat|gtrr-bar|gtar-bar|gwat-bar", GP(sched_rule),
	  "warp scheduler: gto (nondeterministic), a determinism-aware one as DAB states it, or its -bar repair (a warp at a barrier sits out)" },
};

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	unsigned nsched = g->cfg.sms * g->cfg.schedulers, most = 0;
	for (unsigned k = 0; k < nsched; k++)
		if (g->sched_first[k + 1] - g->sched_first[k] > most)
			most = g->sched_first[k + 1] - g->sched_first[k];
	if (most > 64) { /* round and token indices, GTAR's u64 round */
		diag_at(d, g->path, 0, 0, "DAB schedulers order at most 64 warps each (have %u)", most);
		return -1;
	}
	*align = 8;
	c->max_actions = g->nwarps;
	c->units[0] = (struct pool_req){ "scheduler", nsched };
	c->priv = readyset_new(nsched, g->cfg.sms, g->cfg.sched_policy ? NULL : g->warp_idx);
	return (long)(sizeof(struct dab_sched_state) * nsched);
}

/* May warp w of scheduler k issue in this state: 0 no, 1 yes, 2 yes as
** the scheduler's view allows (computed into *v once: *seen). */
static inline __attribute__((always_inline)) int allowed(const struct comp *c, const uint8_t *sv, unsigned k, unsigned w,
                                                        unsigned r, struct dab_sched_view *v, int *seen)
{
	int atomic;
	if (!sched_ready_atom(c, sv, w, &atomic))
		return 0;
	if (!view_atom(r, atomic))
		return 1;
	if (!*seen) {
		view(c, sv, k, v);
		*seen = 1;
	}
	return may_issue_atom(c->g, w, v, atomic) ? 2 : 0;
}

/* Scheduler k's warps that may issue in this state (bit i: its i-th
** warp), and those of them the view allowed, warp by warp; *v: the view
** where *seen, else computed once a warp needs it.  Inline in fill, the
** full poll (a call less, and seen a constant: DAB pagerank's listing
** 1.6% fewer instructions). */
static inline __attribute__((always_inline)) void poll(const struct comp *c, const uint8_t *sv, unsigned k,
                                                      struct dab_sched_view *v, int seen, uint64_t *may,
                                                      uint64_t *viewed)
{
	const struct gpu *g = c->g;
	unsigned r = dab_rule(&g->cfg), first = g->sched_first[k];
	uint64_t m = 0, vw = 0;
	for (unsigned i = first; i < g->sched_first[k + 1]; i++) {
		int a = allowed(c, sv, k, g->sched_warps[i], r, v, &seen);
		if (a)
			m |= 1ull << (i - first);
		if (a == 2)
			vw |= 1ull << (i - first);
	}
	*may = m;
	*viewed = vw;
}

/* Concrete mode's full poll (readyset.c).  Where strict round robin
** applies (SRR, GTRR once switched: every issue needs the view) only the
** turn's warp may issue (may_issue), so only it is polled, not every
** warp; under GPUMC_CHECK_READY each warp is polled too and a difference
** is fatal (READY-15). */
static void fill(const struct readyset_src *src, unsigned k, uint64_t *may, uint64_t *viewed)
{
	const struct comp *c = src->c;
	unsigned r = dab_rule(&c->g->cfg);
	struct dab_sched_view v;
	if (r != DS_SRR && r != DS_GTRR) {
		poll(c, src->sv, k, &v, 0, may, viewed);
		return;
	}
	view(c, src->sv, k, &v);
	if (!v.srr) {
		poll(c, src->sv, k, &v, 1, may, viewed);
		return;
	}
	unsigned w = v.rr_warp;
	*may = *viewed = w != UINT32_MAX && sched_ready(c, src->sv, w) ? 1ull << c->g->warp_idx[w] : 0;
	const struct timed_now *tn = compose_now(c);
	uint64_t m, vw;
	if (tn && tn->check && (poll(c, src->sv, k, &v, 1, &m, &vw), m != *may || vw != *viewed)) {
		fprintf(stderr, "gpumc: internal error: READY-15: scheduler %u at cycle %llu: the turn's warp gives set %#llx "
		        "(viewed %#llx), a poll of every warp %#llx (viewed %#llx)\n", k, (unsigned long long)tn->clock,
		        (unsigned long long)*may, (unsigned long long)*viewed, (unsigned long long)m, (unsigned long long)vw);
		abort();
	}
}

/* The hooks' context: readyset's, the first warp's subject and the rule
** (dab_rule: looked up once, not per warp-local issue), and whether the
** listing is the common case's copy's where unchecked and at the clock
** (fast: GTO or GWAT, no more than 64 schedulers, GTO's pick; enabled). */
struct dab_src {
	struct readyset_src src;
	unsigned s0;
	uint16_t rule, fast;
};
_Static_assert(sizeof(struct dab_src) <= sizeof(((struct readyset *)0)->ctx), "readyset's ctx holds a dab_src");

/* GWAT's token holder of scheduler k (the view's atom_warp) where every
** CTA is resident (the batch is every warp: view() without batch(), its
** half): the first warp from the token's in the order not out of it;
** else, or where none is, UINT32_MAX (view() looks).  Inline in one_out
** and own, once per atomic's arrival or issue (a call: DAB pagerank
** 0.3% of its instructions). */
static inline __attribute__((always_inline)) unsigned holder(const struct comp *c, const uint8_t *sv, unsigned k)
{
	const struct gpu *g = c->g;
	if (g->resident * g->cfg.sms < g->cfg.ctas)
		return UINT32_MAX;
	unsigned first = g->sched_first[k], n = g->sched_first[k + 1] - first, i = state(c, sv, k)->token;
	for (unsigned j = 0; j < n; j++, i = i + 1 < n ? i + 1 : 0)
		if (!out_of_order(g, sv, g->sched_warps[first + i]))
			return g->sched_warps[first + i];
	return UINT32_MAX;
}

/* one()'s rare case, off its leaf's path: warp w at an atomic (the view,
** under GWAT its holder alone where holder() knows it: view() and its
** batch were half of this call's instructions) or behind a gate: its
** bits in *may and *viewed. */
static __attribute__((noinline)) void one_out(const struct readyset_src *src, unsigned k, unsigned w, unsigned r,
                                              uint64_t *may, uint64_t *viewed)
{
	unsigned h = r == DS_GWAT ? holder(src->c, src->sv, k) : UINT32_MAX;
	int a, atomic;
	if (h != UINT32_MAX)
		a = !sched_ready_atom(src->c, src->sv, w, &atomic) ? 0 : !atomic ? 1 : w == h ? 2 : 0;
	else {
		struct dab_sched_view v;
		int seen = 0;
		a = allowed(src->c, src->sv, k, w, r, &v, &seen);
	}
	uint64_t bit = 1ull << src->c->g->warp_idx[w];
	*may = a ? *may | bit : *may & ~bit;
	*viewed = a == 2 ? *viewed | bit : *viewed & ~bit;
}

/* After a warp-local issue by warp `subject` (it stays READY, por above),
** under GTO and GWAT (and gwat-bar) only its own bits change: the token
** holder depends only on which warps sit out the order, which a warp-local
** issue changes for none.  Under GTAR (and gtar-bar) too, unless the warp
** arrives at an atomic, where a round may start: a round in progress
** (todo) is moved only by atomics, and none starts while the warp is
** READY at a non-atomic (all_at_atomic), before and after.  (SRR and GTRR
** move the turn on every issue.)  Once per issue: the common case (READY,
** at no atomic, no gate: allowed, and no view, as allowed() answers
** without its calls) a leaf.  gto_gwat: the rule is GTO or GWAT
** (one_gto_gwat, listing's common case: its tests of the rule fold). */
static inline __attribute__((always_inline)) int one_as(const struct readyset_src *src, unsigned k, uint32_t subject,
                                                       uint64_t *may, uint64_t *viewed, int gto_gwat)
{
	const struct comp *c = src->c;
	const struct gpu *g = c->g;
	const struct dab_src *d = (const struct dab_src *)src;
	unsigned r = d->rule, w = subject - d->s0;
	if ((!gto_gwat && (r == DS_SRR || r == DS_GTRR)) || gpu_warp(g, (uint8_t *)src->sv, w)->status != W_READY)
		return 0;
	if (!gpu_at_global_atomic(g, src->sv, w) && !c->nreq[P_GATE]) {
		uint64_t bit = 1ull << g->warp_idx[w];
		*may |= bit;
		*viewed &= ~bit;
		return 1;
	}
	if (!gto_gwat && r == DS_GTAR && gpu_at_global_atomic(g, src->sv, w))
		return 0;
	/* through locals, not the caller's pointers: its set, inline, stays in
	** registers (DAB pagerank 0.3% of its instructions) */
	uint64_t m = *may, v = *viewed;
	one_out(src, k, w, r, &m, &v);
	*may = m;
	*viewed = v;
	return 1;
}
static inline __attribute__((always_inline)) int one(const struct readyset_src *src, unsigned k, uint32_t subject,
                                                    uint64_t *may, uint64_t *viewed)
{
	return one_as(src, k, subject, may, viewed, 0);
}
static inline __attribute__((always_inline)) int one_gto_gwat(const struct readyset_src *src, unsigned k,
                                                             uint32_t subject, uint64_t *may, uint64_t *viewed)
{
	return one_as(src, k, subject, may, viewed, 1);
}

/* Warp w's bits of a set, READY (allowed, at an atomic or not, where
** it need not be viewed, `free`, or is the token's holder, `holder`) or
** not: own's. */
static inline void own_bits(const struct gpu *g, const uint8_t *sv, unsigned w, int free, int holder, uint64_t *may,
                            uint64_t *viewed)
{
	uint64_t bit = 1ull << g->warp_idx[w];
	int a = gpu_warp(g, (uint8_t *)sv, w)->status != W_READY ? 0
	        : !gpu_at_global_atomic(g, sv, w) || free ? 1
	        : holder ? 2 : 0;
	*may = a ? *may | bit : *may & ~bit;
	*viewed = a == 2 ? *viewed | bit : *viewed & ~bit;
}

/* After the unit's own atomic issue into DAB's buffers by warp `subject`
** (REACH_OWN, reach below: no gate), under GTO and GWAT (and gwat-bar):
** it moved the warp (its pc, status, owed count) and, buffered, GWAT's
** token, nothing another warp's bits read (DAB's room is always there:
** dab.c's always_room).  The token passed from the warp (its holder, the
** one warp whose atomic the rule allowed) to the next in the batch's
** order not out of it, the holder now, whose atomic alone the rule
** allows: the issuing warp's bits and the new holder's move, no other's.
** The batch stays (the warp has work left before and after: its atomic
** owed), but where CTAs come in batches (not all resident: holder), this
** answers 0: a full poll.  READY-1 (readyset_fill) checks it against
** one. */
static int own(const struct readyset_src *src, unsigned k, uint32_t subject, uint64_t *may, uint64_t *viewed)
{
	const struct comp *c = src->c;
	const struct gpu *g = c->g;
	const struct dab_src *d = (const struct dab_src *)src;
	unsigned r = d->rule, w = subject - d->s0;
	if (r == DS_GTO) {
		own_bits(g, src->sv, w, 1, 0, may, viewed);
		return 1;
	}
	unsigned h;
	if (r != DS_GWAT || c->nreq[P_GATE] || (h = holder(c, src->sv, k)) == UINT32_MAX)
		return 0;
	own_bits(g, src->sv, w, 0, h == w, may, viewed);
	if (h != w)
		own_bits(g, src->sv, h, 0, 1, may, viewed);
	return 1;
}

/* READY-5 (GPUMC_CHECK_READY): the bits told to the flush guard equal a
** full poll of every scheduler's set. */
static void check_allowed(const struct readyset_src *src, const struct readyset *rs, const struct timed_now *tn)
{
	for (unsigned k = 0; k < rs->n; k++) {
		uint64_t may, viewed;
		fill(src, k, &may, &viewed);
		if ((may != 0) != (rs->allowed[rs->group[k]] >> rs->gpos[k] & 1)) {
			fprintf(stderr, "gpumc: internal error: READY-5: scheduler %u at cycle %llu: the flush guard was told "
			        "its set is %sempty: an event did not signal\n", k, (unsigned long long)tn->clock,
			        may ? "" : "not ");
			abort();
		}
	}
}

/* Concrete mode: SM sm's schedulers listed, fragile those whose issue
** listed may empty their set; the flush guard may then see the SM with
** no allowed warp (fragile its told bits, readyset.allowed), or, with
** scheduler buffers, with none but those of full buffers (a set not
** emptied need not keep the SM busy).  Their issues, in [out, end), do
** so only where not warp-local (an event itself) or where a warp-local
** one may leave its warp out of the set: at a global atomic or done
** (pc_fragile), or behind a gate (one): else the next cycle need not be
** listed (READY-6 checks it).  Out of line, the issues looked at here,
** not at each visit (there it cost DAB conv 0.4% of its instructions):
** a set of one warp issuing (DAB pagerank: one issue in twelve). */
static __attribute__((noinline)) void sm_fragile(const struct comp *c, const struct timed_now *tn, unsigned sm,
                                                 uint64_t fragile, const struct action *out, const struct action *end)
{
	const struct readyset *rs = c->priv;
	if (fragile != rs->allowed[sm] && !c->g->cfg.buffer_level)
		return;
	const struct gpu *g = c->g;
	const struct dab_src *d = (const struct dab_src *)rs->ctx;
	int may = c->nreq[P_GATE] != 0;
	for (const struct action *a = out; a < end && !may; a++) {
		unsigned k = a->unit - c->unit0[0];
		may = rs->group[k] == sm && fragile >> rs->gpos[k] & 1 &&
		      g->pc_fragile[gpu_pc(g, d->src.sv, a->subject - d->s0)];
	}
	if (may)
		*tn->again = 1;
}

/* The hooks' context kept in the ready set, built at the first listing,
** not on the stack at each (a call's 7 stores: DAB pagerank 0.2% of its
** instructions), nor its constants looked up at each (the first warp's
** subject, the rule: 0.8%).  The hook one is the one the listing runs
** (listing's one_hook: the check, readyset_fill, runs it too). */
static __attribute__((noinline, cold)) void src_build(const struct comp *c)
{
	struct readyset *rs = c->priv;
	unsigned r = dab_rule(&c->g->cfg);
	int gto_gwat = r == DS_GTO || r == DS_GWAT;
	*(struct dab_src *)rs->ctx = (struct dab_src){ { c, NULL, fill, gto_gwat ? one_gto_gwat : one, NULL },
	                                               REQ(c, P_WARPS)->c->subj0[0], (uint16_t)r,
	                                               (uint16_t)(gto_gwat && rs->words == 1 && rs->gto_idx) };
	rs->own = own;
}

/* Concrete mode's listing (enabled): all, listing everything (tn->now is
** UINT64_MAX); check, tn->check; gto_gwat, the rule is GTO or GWAT
** (one); one_word, no more than 64 schedulers (readyset_due_sync's
** words).  Always inline: the common case's copy (all and check 0,
** gto_gwat and one_word 1, in enabled, where GTO's pick applies:
** readyset_list_free's fast) and the others' unchecked one (listing_any)
** fold their tests away. */
static inline __attribute__((always_inline)) unsigned listing(const struct comp *c, const uint8_t *sv,
                                                              const struct timed_now *tn, struct action *out,
                                                              unsigned s0, int all, int check,
                                                              int gto_gwat, int one_word)
{
	const struct gpu *g = c->g;
	unsigned nsched = g->cfg.sms * g->cfg.schedulers;
	struct action *o = out; /* the next action's place (not out + a count: a register less) */
	/* the hook the listing runs is the one the check runs (readyset_fill) */
	int (*const one_hook)(const struct readyset_src *, unsigned, uint32_t, uint64_t *, uint64_t *) =
		gto_gwat ? one_gto_gwat : one;
	struct readyset *rs = c->priv;
	/* the hooks' context (src_build); the state vector moves with the run */
	struct dab_src *dctx = (struct dab_src *)rs->ctx;
	dctx->src.sv = sv;
	const struct readyset_src *const ctx = &dctx->src;
	/* read once: the listing's stores (out[], an unsigned subject) may
	** alias every unsigned field, which the loop would read again; not
	** so the driver's counts and the warp lists, read through tn and g at
	** each visit (held apart, they cost registers that the visit spilled
	** and reloaded: DAB pagerank 0.6% of its instructions) */
	const unsigned u0 = c->unit0[0], kind0 = c->kind0;
	uint64_t listed = 0; /* SMs with an issue listed */
	/* listing what can issue at the clock, the due schedulers alone
	** (readyset.c, readyset_due_sync); under tn->check every one, and
	** one not due that lists an issue, or whose set's emptiness moved,
	** is fatal (READY-7) */
	const unsigned words = one_word ? 1 : rs->words;
	const int fast = !all && !check && gto_gwat && one_word; /* enabled's copy alone */
	if (!all)
		readyset_due_sync(rs, tn, u0, words, ctx, one_hook);
	/* the flush guard's bits (readyset.allowed) kept scheduler by
	** scheduler as listed; fsm: the SM of those listed so far whose issue
	** may empty their set (fragile: sm_fragile once its schedulers are
	** listed, which come in order) */
	unsigned fsm = UINT_MAX;
	uint64_t fragile = 0;
	for (unsigned x = 0; x < words; x++)
		for (uint64_t d = all || check ? ~0ull : rs->due[x]; d; d &= d - 1) {
			unsigned k = 64 * x + (unsigned)__builtin_ctzll(d), u = u0 + k;
			const struct action *const o0 = o;
			if ((all || check) && k >= nsched) /* due ones are below */
				break;
			unsigned sm = rs->group[k]; /* not k / nper: a division (readyset.h, group) */
			uint64_t bit = 1ull << rs->gpos[k]; /* its place in the SM */
			/* listing everything, an SM with an issue listed needs no
			** more than what can issue at the clock (model.h, timed_now) */
			uint64_t upto = all && (listed >> sm & 1) ? tn->clock : tn->now;
			uint64_t at = readyset_at(tn, u, sm), may, with_view, wake = tn->unit_free[u];
			int viewed;
			/* a due scheduler listing at the clock was reached by an
			** event or its wake came: its set moved or a warp of it is
			** ready, but after a busy unit's wake (unit_free), where
			** listing finds the same; the test cost every visit more
			** (DAB pagerank: none of 108,790 visits a run) */
			if (all && readyset_later(rs, tn, k, at, upto)) {
				may = rs->e[k].may;
				wake = rs->e[k].soon;
			} else if (wake > upto) /* as readyset_list_free gets it */
				readyset_get_one(rs, tn, k, u, at, &may, &with_view, ctx, one_hook, fast);
			else {
				o += readyset_list_free(rs, tn, k, u, at, upto, kind0, s0, g->sched_warps + g->sched_first[k], ctx,
				                        o, &may, &viewed, one_hook, 0, 1, fast);
				if (viewed)
					listed |= 1ull << sm;
				/* its warp-local issue may allow another warp, but under
				** GTO and GWAT (one), or empty a set of one warp */
				if (o > o0 && !gto_gwat)
					*tn->again = 1;
				if (o > o0 && !(may & (may - 1))) {
					if (fsm != sm && fragile)
						sm_fragile(c, tn, fsm, fragile, out, o);
					fragile = fsm != sm ? bit : fragile | bit;
					fsm = sm;
				}
				wake = rs->e[k].soon; /* listing nothing: none ready before (readyset_list) */
			}
			uint64_t *told = &rs->allowed[sm];
			int moved = !(*told & bit) != !may;
			/* unchecked, only due ones are listed */
			int due = all || !check || readyset_due(rs, k);
			if (!all && !due && (o > o0 || moved))
				readyset_due_missed(rs, tn, k);
			if (moved) { /* and their count of changes (allowed_scheds) */
				*told ^= bit;
				told[-(ptrdiff_t)sm - 1]++;
			}
			if (!all && due)
				readyset_due_keep(rs, k, (unsigned)(o - o0), wake, gto_gwat);
		}
	if (fragile)
		sm_fragile(c, tn, fsm, fragile, out, o);
	if (check)
		check_allowed(ctx, rs, tn);
	return (unsigned)(o - out);
}

/* listing's copies for the other cases (a rule other than GTO and GWAT,
** or past 64 schedulers; listing everything, or checked), and
** exhaustive mode's every allowed
** warp: out of line, so that enabled() is the common case's copy alone
** (inline beside them, its registers spilled more: 1.9% of its
** instructions). */
static __attribute__((noinline)) unsigned listing_any(const struct comp *c, const uint8_t *sv,
                                                      const struct timed_now *tn, struct action *out, unsigned s0,
                                                      int gto_gwat)
{
	if (tn->now != UINT64_MAX && !tn->check && !gto_gwat) /* SRR, GTRR, GTAR */
		return listing(c, sv, tn, out, s0, 0, 0, 0, 0);
	/* everything, checked, or GTO and GWAT past 64 schedulers */
	return listing(c, sv, tn, out, s0, tn->now == UINT64_MAX, tn->check, gto_gwat, 0);
}
static __attribute__((noinline)) unsigned every_allowed(const struct comp *c, const uint8_t *sv, struct action *out)
{
	const struct gpu *g = c->g;
	unsigned n = 0, r = dab_rule(&g->cfg);
	for (unsigned k = 0; k < g->cfg.sms * g->cfg.schedulers; k++) {
		struct dab_sched_view v;
		int seen = 0;
		for (unsigned i = g->sched_first[k]; i < g->sched_first[k + 1]; i++)
			if (allowed(c, sv, k, g->sched_warps[i], r, &v, &seen))
				out[n++] = sched_action(c, g->sched_warps[i]);
	}
	return n;
}

static unsigned enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                        struct action *out, int timed)
{
	(void)before;
	(void)nb;
	(void)timed;
	/* concrete mode: a busy scheduler, a warp in its latency, is not
	** asked (model.h, enabled_now), and what the state allows comes from
	** the scheduler's ready set (readyset.c) */
	const struct timed_now *tn = compose_now(c);
	if (!tn) /* exhaustive mode */
		return every_allowed(c, sv, out);
	const struct dab_src *d = (const struct dab_src *)((const struct readyset *)c->priv)->ctx;
	if (!d->src.c)
		src_build(c);
	if (tn->now != UINT64_MAX && !tn->check && d->fast)
		return listing(c, sv, tn, out, d->s0, 0, 0, 1, 1);
	return listing_any(c, sv, tn, out, d->s0, d->rule == DS_GTO || d->rule == DS_GWAT);
}

/* dab.c's FLUSH guard reads of before[] only which buffers and SMs have
** an issue, and only weakens with fewer: concrete mode tells it every
** scheduler with an allowed warp, whether or not that warp can issue now
** (as the whole list, enabled_timed, has an issue of each), in bits kept
** per scheduler as last listed (readyset.allowed): a scheduler not due
** (readyset_due_sync) is not listed, and its set, its bit with it, is
** unchanged (READY-7).  Before them, the count of their changes (listing,
** where a bit moves: there, not after the SMs', whose address cost the
** listing's loop a register). */
static const uint64_t *allowed_scheds(const struct comp *c)
{
	return ((const struct readyset *)c->priv)->allowed;
}

static const struct port_issue issue_ops = { sched_is_issue, allowed_scheds };

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_ISSUE ? &issue_ops : NULL;
}

/* Warp w's issue where the rule keeps a turn, token or round (view_atom;
** atomic: w is at a global atomic).  Out of line: its view would make
** every issue's frame large. */
static __attribute__((noinline)) void apply_viewed(const struct comp *c, uint8_t *sv, unsigned w, int atomic)
{
	const struct gpu *g = c->g;
	const struct comp *wc = REQ(c, P_WARPS)->c;
	unsigned pc = gpu_pc(g, sv, w), k = gpu_sched_of(g, w);
	struct dab_sched_view v;
	/* GWAT: issued() reads the batch alone, and only where the atomic was
	** buffered (the token's holder was asked before); the batch after
	** such an issue is the one before: the warp, in it, is still not done
	** and the others did not move */
	int gwat = dab_rule(&g->cfg) == DS_GWAT;
	if (!gwat)
		view(c, sv, k, &v);
	WARPS(c)->issue(wc, sv, w);
	/* taken by the atomics provider: moved on, or waits for its values */
	int buffered = atomic && (gpu_pc(g, sv, w) != pc || gpu_warp(g, sv, w)->status == W_ATOMIC);
	if (gwat) {
		if (!buffered)
			return;
		batch(g, sv, k, &v.lo, &v.hi);
		v.srr = 0;
	}
	issued(c, sv, k, w, &v, atomic, buffered);
}

static void apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	const struct gpu *g = c->g;
	const struct comp *wc = REQ(c, P_WARPS)->c;
	unsigned w = a->subject - wc->subj0[0], r = dab_rule(&g->cfg);
	int atomic = r != DS_GTO && gpu_at_global_atomic(g, sv, w);
	if (view_atom(r, atomic))
		apply_viewed(c, sv, w, atomic);
	else /* allowed, and issued() changes nothing */
		WARPS(c)->issue(wc, sv, w);
}

/* Concrete mode's ready sets (readyset.c): a global atomic's issue into
** DAB's buffers changes only the warp (its pc, status and owed count),
** its buffer (the warp's or its scheduler's, always_room: no other
** warp's room) and its scheduler's turn, token or round: what its own
** scheduler's set reads (the batch: its own warps' owed counts), no
** other's (REACH_OWN).  So does, under SRR and GTRR (and gtrr-bar), an
** issue warp-local but for the turn it moves and GTRR's switch (por):
** the warps port's local() (its registers and stack; an exit, which may
** free a slot or release a barrier, is not taken), which every other
** component of DAB's declares independent of it (compose.c, por_pc).
** But where a CTA gate holds warps back (slots limited), either may
** fault its warp and free its CTA's slot, which starts the next
** position's warps, other schedulers' too: its SM (t/fault-wake.sh).
** What either does to the flush guard is dab.c's, asked every cycle.
** An exit (never warp-local here: por) moves its warp (done: its own
** scheduler's batch, token holder and turn) and its CTA's barrier
** arrivals, what its SM's sets read: its SM (where no gate holds warps
** back, whose freed slot may start others: then anything).  DAB
** pagerank's 128 exits made all 32 schedulers due and poll whole, 5,248
** visits of its 5,248 after an event.  Every other issue that is not
** warp-local may reach anything (a barrier, a fence, a store). */
static int reach(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	const struct comp *wc = REQ(c, P_WARPS)->c;
	unsigned w = a->subject - wc->subj0[0], r = dab_rule(&c->g->cfg);
	int own = c->nreq[P_GATE] ? (int)gpu_sm_of(c->g, w) : REACH_OWN;
	if (REQ(c, P_ATOMICS)->c->def == &comp_dab && gpu_at_global_atomic(c->g, sv, w))
		return own;
	const struct instr *in = r == DS_SRR || r == DS_GTRR ? WARPS(c)->local(wc, sv, w) : NULL;
	if (in && in->op != OP_EXIT)
		return own;
	return c->g->prog->ins[gpu_pc(c->g, sv, w)].op == OP_EXIT && !c->nreq[P_GATE] ? (int)gpu_sm_of(c->g, w) : -1;
}

/* Why the rule holds back a ready warp's atomic (a deadlock's end state
** names the rule that made it). */
static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	static const char *const names[] = { "gto", "srr", "gtrr", "gtar", "gwat", "gtrr-bar", "gtar-bar", "gwat-bar" };
	const struct gpu *g = c->g;
	for (unsigned k = 0; k < g->cfg.sms * g->cfg.schedulers; k++) {
		struct dab_sched_view v;
		view(c, sv, k, &v);
		for (unsigned i = g->sched_first[k]; i < g->sched_first[k + 1]; i++) {
			unsigned w = g->sched_warps[i];
			if (gpu_warp(g, (uint8_t *)sv, w)->status != W_READY || may_issue(c, sv, w, &v))
				continue;
			sb_printf(out, "  scheduler %u (%s) holds warp %u: ", k, names[g->cfg.sched_rule], w);
			unsigned idx = i - g->sched_first[k];
			if (idx < v.lo || idx >= v.hi)
				sb_printf(out, "%s of batch %u wait until batch %u is done, its atomics performed\n",
				          v.srr ? "all instructions" : "the atomics", gpu_batch_of(g, w),
				          gpu_batch_of(g, g->sched_warps[g->sched_first[k] + v.lo]));
			else if (v.srr)
				sb_puts(out, "strict round robin, not its turn\n");
			else if (dab_rule(&g->cfg) == DS_GTRR)
				sb_puts(out, "atomics wait until every warp is at an atomic or exited\n");
			else if (v.atom_warp == UINT32_MAX)
				sb_puts(out, dab_rule(&g->cfg) == DS_GTAR ? "the round waits until every warp is at an atomic or exited\n"
				                                : "no warp can take the token\n");
			else
				sb_printf(out, "%s warp %u\n", dab_rule(&g->cfg) == DS_GTAR ? "this round's atomic turn is" : "the token is with",
				          v.atom_warp);
		}
	}
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	for (unsigned k = 0; k < g->cfg.sms * g->cfg.schedulers; k++) {
		const struct dab_sched_state *s = state(c, sv, k);
		unsigned n = g->sched_first[k + 1] - g->sched_first[k];
		if ((n && (s->rr >= n || s->token >= n)) || (!n && (s->rr || s->token))) {
			sb_printf(why, "SCHED-1: scheduler %u: rr %u / token %u outside its %u warps", k, s->rr, s->token, n);
			return 1;
		}
		if (n < 64 && s->todo >> n) {
			sb_printf(why, "SCHED-2: scheduler %u: round names warps beyond its %u", k, n);
			return 1;
		}
		if (s->pad || s->pad2 || s->srr > 1) {
			sb_printf(why, "SCHED-1: scheduler %u: pad or srr flag not canonical", k);
			return 1;
		}
	}
	return 0;
}

const struct comp_def comp_dab_sched = {
	.name = "dab_sched", .desc = "DAB's determinism-aware warp schedulers: SRR, GTRR, GTAR, GWAT (or GTO)",
	.params = params, .nparams = 1,
	SCHED_COMMON,
	.layout = layout, .enabled = enabled, .apply = apply, .check = check, .print = print, .por = por,
	.reach = reach, .port = port,
};

/* }=== */
