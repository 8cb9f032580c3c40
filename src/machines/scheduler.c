/*
** Warp schedulers (component "gto", and what every scheduler component
** shares).  In exhaustive mode the choice among ready warps is free: the
** real GTO scheduler's pick depends on pipeline timing the model abstracts
** away, so every warp that may issue is a successor.  In concrete mode the
** same warps are candidates and GTO chooses: keep issuing the warp issued
** last while it is ready (greedy), else the oldest (lowest id, launched
** first).
**
** A warp may issue when it is READY, when its atomic (if it is at a global
** atom/red) has room in the atomics provider (back-pressure: no issue is
** ever half done), and when every gate agrees (persistency: the kernel was
** launched, no l2wb blocks the L2).  GTO itself is the composer's
** arbitration among a unit's ready actions (compose.c, m_pick).  Action ISSUE: unit = the warp's
** scheduler, subject = the warp.  No state of its own.
**
** Concrete mode keeps each scheduler's ready set (readyset.c) and, beside
** it, which of the set's warps are at a global atomic.  Where no gate
** reads what an atomic's issue into the ROP changes, that issue moves
** only its own warp and takes room only from the SM's warps at an
** atomic: it names those of the SM's sets and its own warp to their
** schedulers (REACH_WAKES), which poll them alone (gto_woke) instead of
** every warp of the SM's four sets (baseline pagerank at 8 CTAs: 31,286
** full polls a run before, 32 after).
**
** Invariant READY-10: of a set as an event left it (gto_one, gto_woke),
** the warps at a global atomic are those kept so (checked under
** GPUMC_CHECK_READY, where each such step starts from a full poll).
*/
#include "config.h"
#include "machines/scheduler.h"

#include "machines/readyset.h"

#include <stdio.h>
#include <stdlib.h>

#define WARPS(c) ((const struct port_warps *)port_ops(c, P_WARPS))

const struct kind_def sched_kinds[1] = { { "issue", SELF | PORT(P_WARPS), 0 } };

static unsigned warp_of(const struct comp *c, const struct action *a)
{
	return a->subject - REQ(c, P_WARPS)->c->subj0[0];
}

void sched_describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	WARPS(c)->describe_issue(REQ(c, P_WARPS)->c, sv, warp_of(c, a), out);
}

void sched_timing(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                  uint64_t (*rnd)(void *), void *rng)
{
	WARPS(c)->timing_issue(REQ(c, P_WARPS)->c, sv, warp_of(c, a), t, rnd, rng);
}

void sched_count(const struct comp *c, const uint8_t *sv, const struct action *a, uint64_t *ct)
{
	WARPS(c)->count_issue(REQ(c, P_WARPS)->c, sv, warp_of(c, a), ct);
}

int sched_still_enabled(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	return sched_ready(c, sv, warp_of(c, a));
}

/* With a ready set under GTO's pick (gto_idx), a scheduler lists at a
** clock only the warp it picks, ready then, and only while it is free
** (readyset_list_free), scheduler by scheduler: one action a unit, in
** unit order (comp_def.lists_now; READY-18). */
int sched_lists_now(const struct comp *c)
{
	const struct readyset *rs = c->priv;
	return rs && rs->gto_idx;
}

long sched_is_issue(const struct comp *c, const struct action *a)
{
	return a->kind == c->kind0 ? (long)warp_of(c, a) : -1;
}

static const struct port_issue issue_ops = { sched_is_issue, NULL };

const void *sched_port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_ISSUE ? &issue_ops : NULL;
}

/* {=== gto ============================================================== */

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def gto_params[] = {
	{ "scheduler", 0, 0, 1, "gto|any", GP(sched_policy), "concrete-mode warp scheduler (exhaustive mode explores every ready warp)" },
};

static long gto_layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	(void)d;
	unsigned nsched = g->cfg.sms * g->cfg.schedulers, most = 0;
	*align = 1;
	c->max_actions = g->nwarps;
	c->units[0] = (struct pool_req){ "scheduler", nsched };
	for (unsigned k = 0; k < nsched; k++)
		if (g->sched_first[k + 1] - g->sched_first[k] > most)
			most = g->sched_first[k + 1] - g->sched_first[k];
	/* concrete mode's ready sets (readyset.c) hold up to 64 warps per
	** scheduler; past that each cycle polls every warp */
	c->priv = most <= 64 ? readyset_new(nsched, g->cfg.sms, g->cfg.sched_policy ? NULL : g->warp_idx) : NULL;
	return 0;
}

/* The warps of scheduler k the atomics provider says it may have woken
** since last asked (REACH_WAKES, *m); 0: it names none (a LAB before the
** ROP, whose performs wake). */
static int gto_woken(const struct comp *c, unsigned k, uint64_t *m)
{
	const struct bind *b = REQ(c, P_ATOMICS);
	const struct port_atomics *ops = b->ops;
	if (!ops->woken)
		return 0;
	*m = ops->woken(b->c, k);
	return 1;
}

/* Scheduler k's warps that may issue in this state (readyset.c); what
** was woken before is in it.  Of them, those at a global atomic
** (READY-10), and no warp named by an atomic issue since: every one polled. */
static void gto_fill(const struct readyset_src *src, unsigned k, uint64_t *may, uint64_t *viewed)
{
	const struct gpu *g = src->c->g;
	uint64_t m = 0, atom = 0, woken, *aux = ((struct readyset *)src->c->priv)->aux + 2 * k;
	gto_woken(src->c, k, &woken); /* forgotten: every warp is polled */
	for (unsigned i = g->sched_first[k]; i < g->sched_first[k + 1]; i++) {
		int at;
		if (sched_ready_atom(src->c, src->sv, g->sched_warps[i], &at)) {
			m |= 1ull << (i - g->sched_first[k]);
			atom |= (uint64_t)at << (i - g->sched_first[k]);
		}
	}
	aux[0] = atom;
	aux[1] = 0;
	*may = m;
	*viewed = 0;
}

/* What gto's hooks are given: the sources, whether to check them
** (timed_now.check), and the first warp's subject, at hand for the
** hooks' hot path (gto_one, once per issue). */
struct gto_src {
	struct readyset_src src;
	int check;
	unsigned s0;
};

/* READY-10 (GPUMC_CHECK_READY): of scheduler k's set *may as an event
** left it (gto_one, gto_woke: each checked, READY-1, against a full poll
** after its own single step), the warps at a global atomic are those the
** kept word says (aux[2k]), which the next atomic issue names. */
static void gto_check_atom(const struct readyset_src *src, unsigned k, uint64_t may)
{
	const struct gpu *g = src->c->g;
	const struct timed_now *tn = compose_now(src->c);
	uint64_t atom = ((const struct readyset *)src->c->priv)->aux[2 * k];
	for (; may; may &= may - 1) {
		unsigned i = (unsigned)__builtin_ctzll(may), w = g->sched_warps[g->sched_first[k] + i];
		if ((unsigned)gpu_at_global_atomic(g, src->sv, w) != (atom >> i & 1)) {
			fprintf(stderr,
			        "gpumc: internal error: READY-10: scheduler %u at cycle %llu: warp %u (its %u-th) is%s at a "
			        "global atomic, kept otherwise: an atomic's issue would not name it\n",
			        k, (unsigned long long)tn->clock, w, i, atom >> i & 1 ? " not" : "");
			abort();
		}
	}
}

/* Warp w, scheduler k's i-th, polled again: its bits of *may and of the
** set's warps at a global atomic (READY-10). */
static inline void gto_poll(const struct readyset_src *src, unsigned k, unsigned w, unsigned i, uint64_t *may)
{
	uint64_t bit = 1ull << i, *aux = ((struct readyset *)src->c->priv)->aux + 2 * k;
	int atom;
	if (sched_ready_atom(src->c, src->sv, w, &atom)) {
		*may |= bit;
		aux[0] = atom ? aux[0] | bit : aux[0] & ~bit;
	} else
		*may &= ~bit;
}

/* gto_poll out of line: gto_one's rare case, off its leaf's path. */
static __attribute__((noinline)) void gto_poll_out(const struct readyset_src *src, unsigned k, unsigned w, unsigned i,
                                                  uint64_t *may)
{
	gto_poll(src, k, w, i, may);
}

/* After a warp-local issue (model.local: it enables and disables no other
** action; an exit is local only in a kernel without bar.sync, barrier.c)
** only the issuing warp's bit changes.  Inline in gto_enabled's listing
** (readyset_list_one), once per issue: out of line it cost 1.3% of a
** baseline pagerank run. */
static inline __attribute__((always_inline)) int gto_one(const struct readyset_src *src, unsigned k, uint32_t subject,
                                                         uint64_t *may, uint64_t *viewed)
{
	const struct comp *c = src->c;
	const struct gpu *g = c->g;
	unsigned w = subject - ((const struct gto_src *)src)->s0, i = g->warp_idx[w];
	/* once per issue: the common case (READY, at no atomic, no gate:
	** sched_ready_atom's answer without its calls) a leaf */
	if (gpu_warp(g, (uint8_t *)src->sv, w)->status == W_READY && !gpu_at_global_atomic(g, src->sv, w) &&
	    !c->nreq[P_GATE]) {
		*may |= 1ull << i;
		((struct readyset *)c->priv)->aux[2 * k] &= ~(1ull << i);
	} else
		gto_poll_out(src, k, w, i, may);
	*viewed = 0;
	if (((const struct gto_src *)src)->check)
		gto_check_atom(src, k, *may);
	return 1;
}

/* After actions that only wake warps (REACH_WAKES) alone, the woken
** warps' bits: those the atomics provider names, and those the SM's
** atomic issues since named (gto_reach). */
static int gto_woke(const struct readyset_src *src, unsigned k, uint64_t *may, uint64_t *viewed)
{
	const struct gpu *g = src->c->g;
	uint64_t m, *aux = ((struct readyset *)src->c->priv)->aux + 2 * k;
	if (!gto_woken(src->c, k, &m))
		return 0;
	m |= aux[1];
	aux[1] = 0;
	for (; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctzll(m);
		gto_poll(src, k, g->sched_warps[g->sched_first[k] + i], i, may);
	}
	*viewed = 0;
	if (((const struct gto_src *)src)->check)
		gto_check_atom(src, k, *may);
	return 1;
}

/* The schedulers of SM sm (bit j: its j-th) with warps named since they
** last polled (readyset_due_sync_named): the atomics provider's woken,
** kept with those atomic issues named until polled (gto_woke, gto_fill). */
static uint64_t gto_named(const void *ctx, unsigned sm)
{
	const struct comp *c = ((const struct gto_src *)ctx)->src.c;
	uint64_t *aux = ((struct readyset *)c->priv)->aux, b = 0, m;
	unsigned nper = c->g->cfg.schedulers;
	for (unsigned j = 0, k = sm * nper; j < nper; j++, k++) {
		if (!gto_woken(c, k, &m))
			return ~0ull >> (64 - nper); /* it names none: all */
		aux[2 * k + 1] |= m;
		b |= (uint64_t)(aux[2 * k + 1] != 0) << j;
	}
	return b;
}

/* gto's listing; one_word: no more than 64 schedulers, so that the due
** set's loops fold (readyset_due_sync's words).  Always inline: gto_enabled
** has a copy for each. */
static inline __attribute__((always_inline)) unsigned gto_listing(const struct comp *c, const uint8_t *sv,
                                                                  const struct timed_now *tn, struct action *out,
                                                                  int one_word)
{
	const struct gpu *g = c->g;
	unsigned n = 0;
	if (!tn) {
		for (unsigned w = 0; w < g->nwarps; w++)
			if (sched_ready(c, sv, w))
				out[n++] = sched_action(c, w);
		return n;
	}
	/* concrete mode, scheduler by scheduler (each unit's warps in id
	** order, all model.enabled_now asks): a busy scheduler, or a warp
	** still in its latency, is not asked; what the state allows comes
	** from the scheduler's ready set (readyset.c) */
	unsigned s0 = REQ(c, P_WARPS)->c->subj0[0], u0 = c->unit0[0];
	const struct gto_src gs = { { c, sv, gto_fill, gto_one, gto_woke }, tn->check, s0 };
	const struct readyset_src *src = &gs.src;
	struct readyset *rs = c->priv;
	/* in locals: the compiler cannot tell out[] from what they point to */
	const uint64_t now = tn->now, changed = tn->changed, *sm_changed = tn->sm_changed;
	const uint64_t *unit_free = tn->unit_free + u0, *unit_changed = tn->unit_changed + u0;
	const unsigned *first = g->sched_first, *warps = g->sched_warps;
	if (!rs) { /* past 64 warps a scheduler: every warp polled */
		for (unsigned k = 0; k < g->cfg.sms * g->cfg.schedulers; k++)
			for (unsigned i = first[k]; i < first[k + 1] && unit_free[k] <= now; i++) {
				unsigned w = warps[i];
				if (tn->ready[s0 + w] <= now && sched_ready(c, sv, w))
					out[n++] = (struct action){ (uint16_t)c->kind0, (uint16_t)(u0 + k), s0 + w, 0 };
			}
		return n;
	}
	const unsigned *group = rs->group;
	if (now == UINT64_MAX) { /* everything */
		for (unsigned k = 0; k < rs->n; k++) {
			uint64_t may;
			int viewed;
			n += readyset_list(rs, tn, k, u0 + k, changed + sm_changed[group[k]] + unit_changed[k], now,
			                   c->kind0, s0, warps + first[k], src, out + n, &may, &viewed);
		}
		return n;
	}
	/* what can issue at the clock: the due schedulers alone (readyset.c,
	** readyset_due_sync), in order; under tn->check every one, and one
	** not due that lists an issue is fatal (READY-7) */
	const unsigned words = one_word ? 1 : rs->words;
	readyset_due_sync_named(rs, tn, u0, words, gto_named, &gs);
	for (unsigned x = 0; x < words; x++)
		for (uint64_t d = tn->check ? ~0ull : rs->due[x]; d; d &= d - 1) {
			unsigned k = 64 * x + (unsigned)__builtin_ctzll(d), n0 = n;
			if (k >= rs->n)
				break;
			uint64_t at = changed + sm_changed[group[k]] + unit_changed[k], may, wake = unit_free[k];
			int viewed;
			if (wake <= now) {
				n += readyset_list_one(rs, tn, k, u0 + k, at, now, c->kind0, s0, warps + first[k], src,
				                       out + n, &may, &viewed, gto_one, 1); /* gto_one inlined */
				/* listing nothing: none of its warps is ready before its
				** earliest ready time (readyset_list) */
				wake = rs->e[k].soon;
			}
			if (!readyset_due(rs, k)) {
				if (n > n0)
					readyset_due_missed(rs, tn, k);
			} else
				readyset_due_keep(rs, k, n - n0, wake, 1); /* gto_one: an issue moves its warp's bit alone */
		}
	return n;
}

static unsigned gto_enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                            struct action *out, int timed)
{
	(void)before;
	(void)nb;
	(void)timed;
	const struct timed_now *tn = compose_now(c);
	const struct readyset *rs = c->priv;
	if (tn && rs && rs->words == 1)
		return gto_listing(c, sv, tn, out, 1);
	return gto_listing(c, sv, tn, out, 0);
}

/* Concrete mode's ready sets: a global atomic's issue into the ROP's FIFOs
** changes only the warp and the room of its SM's FIFOs (rop.c, reach);
** an issue the persistency component says changes only its warp (a
** clwb, a fence: persist.c, own_issue) only the warp.  Where no gate
** reads what an atomic's issue changes, it only moves its own warp and
** takes room from the SM's warps at a global atomic: it names those of
** the SM's sets to their schedulers (REACH_WAKES: polled alone, gto_woke;
** READY-10). */
static int gto_reach(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	const struct gpu *g = c->g;
	unsigned w = warp_of(c, a), pc = gpu_pc(g, sv, w), sm = gpu_sm_of(g, w), nper = g->cfg.schedulers;
	const struct bind *pm = REQ(REQ(c, P_WARPS)->c, P_PM);
	const struct port_pm *ops = pm->ops;
	if (ops && ops->own_issue && pc < (unsigned)g->prog->nins && ops->own_issue(pm->c, sv, w, &g->prog->ins[pc]))
		return (int)sm;
	if (REQ(c, P_ATOMICS)->c->def != &comp_rop || !gpu_at_global_atomic(g, sv, w))
		return -1;
	struct readyset *rs = c->priv;
	if (!rs || c->nreq[P_GATE])
		return (int)sm;
	for (unsigned k = sm * nper; k < (sm + 1) * nper; k++)
		rs->aux[2 * k + 1] |= rs->e[k].may & rs->aux[2 * k];
	rs->aux[2 * gpu_sched_of(g, w) + 1] |= 1ull << g->warp_idx[w];
	return (int)sm | REACH_WAKES;
}

static void gto_apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	WARPS(c)->issue(REQ(c, P_WARPS)->c, sv, warp_of(c, a));
}

/* A warp's issue of an atomic, alone when the atomics provider says so
** (port_atomics.sole). */
static int gto_alone(const struct comp *c, const uint8_t *sv, const struct action *a, const int *inv, unsigned ninv)
{
	(void)inv, (void)ninv;
	const struct bind *ab = REQ(c, P_ATOMICS);
	const struct port_atomics *ops = ab->ops;
	return ops && ops->sole && ops->sole(ab->c, sv, sv ? warp_of(c, a) : 0);
}

const struct comp_def comp_gto = {
	.name = "gto", .desc = "free choice among ready warps (GTO in concrete mode)",
	.params = gto_params, .nparams = 1,
	SCHED_COMMON,
	.layout = gto_layout, .enabled = gto_enabled, .apply = gto_apply, .reach = gto_reach, .port = sched_port,
	/* whether another warp may issue depends on that warp alone; DAB's
	** schedulers (dab_sched.c) rotate on issues and declare nothing */
	.por = compose_por_independent_of_exit,
	.alone = gto_alone, .por_atomics = 1, /* its guard asks the atomics port for room */
};

/* }=== */
