/*
** GPU persistency (Lin et al., "Exploring Memory Persistency Models for
** GPUs"; shared/notes/persistency.md §1): device memory is NVM behind a
** write-back L2 and one write-pending queue (WPQ) per memory controller.
** Loads and stores keep the SC view of memory.c (what a load returns is
** always the latest store); this file tracks, per global word, where that
** value has got to on its way to NVM:
**
**   store        -> dirty in L2                          [pm_dirty]
**   dirty        -> WPQ  with its line: an eviction      [EVICT]
**                        (any time), a completed clwb    [CLWB_DONE]
**                        or an l2wb pass                 [pm_op, l2wb]
**   st.wt        -> in transit to its memory controller   [pm_op]
**   in transit   -> WPQ  on arrival, per lane             [WT_ARRIVE]
**   WPQ          -> NVM  (any line's entry, any order)   [WPQ_DRAIN]
**   any state    -> CRASH: NVM (+ the WPQs if durable) survives
**
** and the host program beside the kernel (struct pm_host):
**
**   host         -> its next step; device work is only queued   [HOST]
**   device       -> the next queued item, in order: a launch
**                   runs the kernel afresh until it is over, a
**                   cudaL2WB or copy goes a line / word a step    [DEVICE]
**   sync         -> enabled once the device caught up
**
** The L2 line (line_bytes, a multiple of 4) is the unit of dirtiness,
** eviction, write-back and clwb: the line keeps a dirty mask of its words
** and a write-back (eviction, completed clwb, l2wb step) carries every
** dirty word at once.  A WPQ holds one entry per line: a newer write-back
** merges into it word by word, which loses no durable image (a controller
** keeps writes to one line in order, and the older entry could have
** drained first on another path); a drain writes the whole entry to NVM
** in one step.  line_bytes = 4 is word granularity, an over-approximation:
** each line step is a sequence of word steps there, so it keeps every
** crash image of longer lines and adds more (false alarms, never a missed
** bug).  What is atomic at which size: a store writes its 1, 2, 4 or 8
** bytes (naturally aligned, so within one line) in one L2 access; a line
** reaches the WPQ and NVM whole; a st.wt crosses word by word, so a
** st.wt.u64 may arrive torn.  clwb and st.wt
** are asynchronous: the warp counts them as outstanding and `sfence` (and
** `membar`, which the paper's sfence is built on) waits until they are
** acknowledged: clwb once the line reached the WPQ, st.wt once its value
** is in the persistence domain -- on arrival at the WPQ when the WPQs are
** durable, once written to NVM when they are volatile ("its
** acknowledgment is sent by the memory controller once the data is
** written to device memory").  Each lane's st.wt crosses on its own, so a
** warp-wide st.wt is not one durable write.  A newer st.wt of a word
** whose older one is still in transit replaces it (as in the WPQ: the
** older value could have arrived first on another path).  `pcommit`
** waits until every WPQ is empty.  `l2wb` walks the L2 line by line
** (line_bytes), one step each, so a crash can hit it mid-way; while it
** runs, other warps' global accesses wait (it "blocks subsequent L2
** accesses").
**
** Concrete mode (timing(), man gpumc-machines(7)) takes no crash, and
** an EVICT only when a partition's dirty lines overfill its L2 (l2_kb);
** clwb completions and st.wt arrivals use the partition's L2 unit (the
** words of a line that have crossed arrive as one request), WPQ
** drains its memory controller's, and acknowledgements cross back; an
** l2wb pass writes back every dirty line in one step, timed as the
** partitions doing it in parallel (l2wb_cost()); other warps' global
** accesses wait for the walk only, not for the l2wb's interconnect
** crossings (timing_issue()).  Its speed (issue 12): each action tells
** the ready sets which SM it may wake (reach(), own_issue()); an
** acknowledgement looks only at the warps that may wait and not at those
** whose fence clear() still refuses (struct pm_pending's waits, refused,
** pcommit); under GTO a line that cannot be its units' pick is not
** looked at (passed_over()); a line whose actions all wait sleeps in a
** heap until the first can issue (issue 13: struct pm_pending's aw and
** heap); a store asks a line count whether its line was clean
** (ndirty_words).  GPUMC_CHECK_PERSIST checks each against a scan.
**
** After a crash the spec's recovery program runs on this same machine in
** place of the host program (pm_host.rec), explored every way it can go,
** with crashes during it up to `crashes` in all (recover()).
**
** Component "persist": it wraps the mem port (a store or atomic leaves its
** word dirty) and provides order (sfence/membar wait for acks, pcommit
** for empty WPQs), pm (clwb, st.wt, l2wb), gate (the host's launch; an
** l2wb blocks L2 accesses) and the crash hooks; it requires the inner mem
** and warps.  The host program is part of it.
**
** Slice: nvm u32[G], wpq u32[G], clwb u32[lines][M] (the warps waiting
** on the line's clwb, a bit each: M = warps / 32 rounded up, so any grid
** fits) and, only when the kernel (as its persistency model rewrote it)
** has a global st.wt, wt u32[G][M] (warps waiting on that word's st.wt),
** transit u32[G] (the value of a st.wt on its way); per warp
** {outstanding u32 (a u8 wrapped past 255 st.wt words in flight and
** let sfence pass), l2wb cursor u32 (0: none, else next word + 1)}, the
** host record (struct pm_host), flags u8[G] (PM_DIRTY, PM_INWPQ,
** PM_TRANSIT).
** Invariants: PM-2 a warp's outstanding count equals the number of
** clwb/wt masks holding its bit; PM-3 the host's ninwpq equals the number
** of PM_INWPQ flags; PM-4 flags hold only PM_DIRTY, PM_INWPQ and
** PM_TRANSIT; PM-5 a word with st.wt waiters has a st.wt in transit, or
** (volatile WPQs) a WPQ entry; PM-6 the device works only on what the
** host queued: busy implies dev < pc, and a running kernel is a launch
** step in progress (or check idempotent's re-execution: dev at the end).
** (PM-7, a clwb mask only at a line's first word, is now the layout: one
** mask per line.)
**
** The exploration's hot path (issue 8): enabled() looks at each line once
** -- its flag bytes or-ed in one pass, its clwb mask walked beside them
** -- and builds the line's actions (line_actions) only when one is set;
** nothing is counted per state that the flags already say (only ninwpq,
** for pcommit; concrete mode's own list of lines with work, struct
** pm_pending, replaces the clwb and st.wt counters it once read); the
** persist_order hooks are inline tests when the spec does not check it;
** and durable() writes only the memory words, which start the image
** (durable_key: the crash images are told apart by those bytes, checked
** by --check-model's C-5).
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machines/alu.h"
#include "machines/component.h"
#include "machines/idempotency.h"
#include "machines/persist_models.h"
#include "machines/persist_order.h"
#include "state/hash.h"
#include "state/sideset.h"
#include "state/visited.h"
#include "util/env.h"
#include "util/strbuf.h"

enum { K_EVICT, K_CLWB_DONE, K_WPQ_DRAIN, K_HOST, K_WT_ARRIVE, K_DEVICE };

#define WARPS(c) ((const struct port_warps *)port_ops(c, P_WARPS))
#define WC(c) (REQ(c, P_WARPS)->c)
#define INNER(c) ((const struct port_mem *)port_ops(c, P_MEM))
#define IC(c) (REQ(c, P_MEM)->c)

enum { PM_DIRTY = 1, PM_INWPQ = 2, PM_TRANSIT = 4 };

struct pm_warp {
	uint32_t outstanding, cursor;
};

#define G_WORDS(g) ((g)->prog->global_words)

/* Fixed at layout: where each array starts in the slice (accessed on
** every step: no recomputing from G and the warp count), and the words
** of the st.wt arrays (wt, transit): G when the kernel has a global
** st.wt, else 0 (every state is 8 G bytes smaller, which hashing,
** comparing and copying it pay for). */
struct pm_layout {
	uint32_t wt_words;
	uint32_t mw;  /* u32 words of a warp mask: warps / 32, rounded up */
	uint32_t per; /* words of a line (line_bytes / 4) */
	int l2wb;     /* the kernel has an l2wb: a warp's pass may be running */
	size_t wpq, clwb, wt, transit, pw, host, flags, rec;
};

/* c->priv is a struct pm_pending, whose first member is the layout */
#define LAYOUT(c) ((const struct pm_layout *)(c)->priv)

static uint32_t wt_words(const struct comp *c)
{
	return LAYOUT(c)->wt_words;
}
static uint32_t *nvm(const struct comp *c, const uint8_t *sv)
{
	return (uint32_t *)(sv + c->off);
}
static uint32_t *wpq(const struct comp *c, const uint8_t *sv)
{
	return (uint32_t *)(sv + c->off + LAYOUT(c)->wpq);
}
/* The warps waiting on the clwb of the line starting at word first, and
** on word i's st.wt: masks of LAYOUT(c)->mw u32 words. */
static uint32_t *clwb_mask(const struct comp *c, const uint8_t *sv, uint32_t first)
{
	const struct pm_layout *l = LAYOUT(c);
	return (uint32_t *)(sv + c->off + l->clwb) + (size_t)(l->per == 1 ? first : first / l->per) * l->mw;
}
static uint32_t *wt_mask(const struct comp *c, const uint8_t *sv, uint32_t i)
{
	return (uint32_t *)(sv + c->off + LAYOUT(c)->wt) + (size_t)i * LAYOUT(c)->mw;
}
/* Does warp mask m hold a warp? */
static int waited(const struct comp *c, const uint32_t *m)
{
	if (m[0])
		return 1;
	for (uint32_t k = 1; k < LAYOUT(c)->mw; k++)
		if (m[k])
			return 1;
	return 0;
}
static uint32_t *transit(const struct comp *c, const uint8_t *sv)
{
	return (uint32_t *)(sv + c->off + LAYOUT(c)->transit);
}
static struct pm_warp *pw(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return (struct pm_warp *)(sv + c->off + LAYOUT(c)->pw) + w;
}
/* The host program and the device's stream.  The host issues its steps
** in order (pc); launch, l2wb (cudaL2WB), copy (cudaMemcpy device to
** device) and pcommit are device work the host only queues: the device
** performs them one after the other, in issue order (dev: the step it
** performs or waits to start; busy: started; run: a kernel is running;
** cursor: word cursor + 1 of a cudaL2WB or copy), and only `sync`
** (cudaDeviceSynchronize) and a recovery's `if` (which reads device
** memory) wait for the device to catch up.  Without a
** launch step the kernel runs first (run stays 0) and the host starts
** once it is over.  Also the
** number of words in a WPQ, so that pcommit's test (wpq_empty) needs no
** scan (PM-3). */
struct pm_host {
	uint16_t pc, dev;
	uint32_t cursor;
	uint8_t busy, run, rec; /* rec: the recovery program runs, not the host's */
	uint8_t fault;          /* the recovery named an element past its variable */
	uint32_t ninwpq;
};

static struct pm_host *host(const struct comp *c, const uint8_t *sv)
{
	return (struct pm_host *)(sv + c->off + LAYOUT(c)->host);
}

static uint8_t *flags(const struct comp *c, const uint8_t *sv)
{
	return (uint8_t *)sv + c->off + LAYOUT(c)->flags;
}

/* The persist_order record (persist_order.h), after the flags, 8-aligned. */
static uint8_t *rec(const struct comp *c, const uint8_t *sv)
{
	return (uint8_t *)sv + c->off + LAYOUT(c)->rec;
}

/* Does the recovery use registers %h0..%h7?  They then follow the record. */
static int uses_regs(const struct gpu *g)
{
	for (int i = 0; i < g->prog->nrecovery; i++)
		if (g->prog->recovery[i].op >= H_LD || g->prog->recovery[i].ireg >= 0 ||
		    g->prog->recovery[i].reg[1] >= 0 || g->prog->recovery[i].reg[2] >= 0)
			return 1;
	return 0;
}
static uint32_t *hreg(const struct comp *c, const uint8_t *sv)
{
	return (uint32_t *)(rec(c, sv) + po_size(c->g));
}

/* The program the host runs: its own, or after a crash the recovery. */
static const struct host_step *steps(const struct comp *c, const uint8_t *sv, int *n)
{
	const struct program *p = c->g->prog;
	int rec = host(c, sv)->rec;
	*n = rec ? p->nrecovery : p->nhost;
	return rec ? p->recovery : p->host;
}

/* Words per L2 line; the line is the unit of dirtiness, eviction,
** write-back, clwb and WPQ entries (line_bytes = 4: words alone). */
static uint32_t line_words(const struct gpu *g)
{
	return g->cfg.line_bytes / 4;
}

/* The first word of word i's line: what line actions name. */
static uint32_t line_of(const struct gpu *g, uint32_t i)
{
	return i - i % line_words(g);
}

/* One past the last word of the line that starts at word first. */
static uint32_t line_end(const struct gpu *g, uint32_t first)
{
	uint32_t end = first + line_words(g);
	return end < G_WORDS(g) ? end : G_WORDS(g);
}

/* The flag bytes f[first..end) or-ed eight at a time (end - first >= 8):
** a 128-byte line is 32 bytes, and concrete mode's l2wb passes
** (l2wb_cost, l2wb_step) look at every line of global memory. */
static uint8_t or_wide(const uint8_t *f, uint32_t first, uint32_t end)
{
	uint64_t wide = 0, x;
	uint32_t i = first;
	for (; end - i >= 8; i += 8) {
		memcpy(&x, f + i, 8);
		wide |= x;
	}
	uint8_t any = 0;
	for (; i < end; i++)
		any |= f[i];
	wide |= wide >> 32;
	wide |= wide >> 16;
	return (uint8_t)(any | wide | wide >> 8);
}

/* The flag bytes f[first..end) or-ed in one pass (end > first); short
** lines (the explorations' word lines) byte by byte, inline. */
static uint8_t or_flags(const uint8_t *f, uint32_t first, uint32_t end)
{
	if (end - first >= 16)
		return or_wide(f, first, end);
	uint8_t any = f[first];
	for (uint32_t i = first + 1; i < end; i++)
		any |= f[i];
	return any;
}

/* The flags of the words of the line starting at word first, or-ed. */
static uint8_t line_flags(const struct comp *c, const uint8_t *sv, uint32_t first)
{
	return or_flags(flags(c, sv), first, line_end(c->g, first));
}

/* Does the line starting at word first hold a word with flag f? */
static int line_has(const struct comp *c, const uint8_t *sv, uint32_t first, uint8_t f)
{
	return (line_flags(c, sv, first) & f) != 0;
}

/* Concrete mode's own bookkeeping, outside the state vector (c->priv).
** Mainly an index of the lines with work for their memory controller (a
** word in the WPQ or in transit, a clwb to complete), so that the timed
** enabled() walks these instead of every word of global memory (which
** was 80% of a persist run): a superset, a line is listed when it gets
** work and dropped when enabled() finds it has none.  Also the NVM writes
** not yet counted (tick), when each line became dirty and, per partition,
** its dirty lines: a count and a queue in the order they became dirty
** (capacity evictions: the oldest is the queue's first entry that is
** still dirty since then, where a scan of the partition's lines every
** cycle was 64% of a 64-warp lbm run).  Only a concrete run keeps it (run: that run's number, 0
** outside one; the exploration's threads never write it), and a new run
** rebuilds it from the state. */
struct pm_pending {
	struct pm_layout lay; /* first: LAYOUT() reads it through c->priv */
	uint64_t run;
	uint64_t writes[2]; /* NVM line writes and bytes since the last tick */
	uint64_t *wake;     /* per line: none of its actions can issue before */
	uint64_t minwake;   /* no listed line's wake is earlier */
	uint64_t *since;    /* per line: when it last became dirty (stamp) */
	uint64_t *acked;    /* per warp: when its latest acknowledgement reaches it */
	uint64_t stamp;
	const uint64_t *ready; /* the run's subject ready times, at cycle now */
	uint64_t now;
	uint32_t full;      /* partitions whose dirty lines may exceed the L2 */
	uint32_t passes;    /* warps in an l2wb pass (cursor set): may_issue */
	int check;          /* GPUMC_CHECK_PERSIST: may_issue checks passes by a scan */
	unsigned plant;     /* GPUMC_TEST_FAULT=persist: 1, what that check takes passes to be off by */
	int overfill;       /* a partition has more lines than its L2 holds */
	/* per partition (8 at most): its dirty lines; its queue, qcap entries
	** from qline/qstamp + partition * qcap (a line and the stamp it was
	** queued with: stale once the line is clean or dirty again since) */
	uint32_t ndirty[8], qhead[8], qn[8], qcap;
	uint32_t *qline;
	uint64_t *qstamp;
	uint32_t n;
	uint32_t *line;   /* the listed lines' first words */
	uint32_t *waits;  /* warps that may wait (a mask: may_wait) */
	uint32_t *refused; /* of them, those whose fence clear() refuses now */
	uint32_t *pcommit; /* those refused at a pcommit since their issue */
	uint32_t *acking; /* warps the action being timed acknowledges (a mask) */
	/* per line, while a partition may overfill: its dirty words, so that
	** a store asks whether its line was clean (lru_dirty) without or-ing
	** its flags (3% of a 64-warp lbm run); GPUMC_CHECK_PERSIST compares */
	uint16_t *ndirty_words;
	/* The walk of a timed enabled() looks only at the awake lines: aw,
	** in address order, those whose wake may be by the clock (new work,
	** actions listed last time, passed over), and `in`, added since (to
	** be merged in); every other listed line sleeps in a min-heap of its
	** wake (hwake, hline; hpos: a line's place in it, UINT32_MAX none),
	** so that a walk no longer passes every sleeping line (12% of a
	** 64-warp lbm run).  GPUMC_CHECK_PERSIST checks the count of sleepers
	** and every listed line's actions (check_passed_over). */
	uint32_t naw, nin, nheap;
	uint32_t *aw, *in, *tmp; /* first words; tmp: the merge's */
	uint64_t *hwake;
	uint32_t *hline, *hpos;
	uint8_t listed[]; /* per line: 1 listed, | 2 it may have work for its L2 unit, | 4 in aw or in (AWAKE) */
};
#define AWAKE 4

/* Can instruction in leave its warp waiting (warp.c's issue: a fence,
** pcommit, bar.sync, an atomic, a strong global access)? */
static int may_wait(const struct instr *in)
{
	return in->op == OP_SFENCE || in->op == OP_MEMBAR || in->op == OP_PCOMMIT || in->op == OP_BAR ||
	       in->op == OP_ATOM || in->op == OP_RED || (in->space == SP_GLOBAL && instr_strong(in));
}

static int still_refused(const struct comp *c, const uint8_t *sv, unsigned w);

/* Concrete mode: every waiting warp is in p->waits (a warp is added when
** it issues what may_wait() names, dropped once seen not waiting), so
** pm_wake() and timing() walk these instead of every warp (which was 26%
** of a 64-warp lbm strict-clwb run); and they skip the warps in
** p->refused, whose fence clear() refused with acknowledgements
** outstanding (set by clear(), dropped by the warp's next issue or its
** last acknowledgement: ack()), and, while the WPQs hold a word, those in
** p->pcommit (set by clear() at a pcommit, dropped by the warp's next
** issue).  GPUMC_CHECK_PERSIST checks both by a scan. */
static void check_waits(const struct comp *c, const uint8_t *sv)
{
	const struct pm_pending *p = c->priv;
	for (unsigned w = 0; p->check && w < c->g->nwarps; w++) {
		const char *bad = NULL;
		if (WARPS(c)->waiting(WC(c), sv, w) && !(p->waits[w / 32] >> w % 32 & 1))
			bad = "waits, but is not among the warps that may";
		else if (p->refused[w / 32] >> w % 32 & 1 && !(WARPS(c)->waiting(WC(c), sv, w) && still_refused(c, sv, w)))
			bad = "is among the refused, but clear() lets it pass";
		if (bad) {
			fprintf(stderr, "gpumc: GPUMC_CHECK_PERSIST: warp %u %s\n", w, bad);
			abort();
		}
	}
}

/* Concrete mode: the warps that may wait which pm_wake() and timing()
** look at, word k of the mask (check_waits); empty: the WPQs are empty
** (pcommit passes). */
static uint32_t wake_candidates(const struct pm_pending *p, uint32_t k, int empty)
{
	return (p->waits[k] & ~p->refused[k] & ~p->pcommit[k]) | (empty ? p->pcommit[k] : 0);
}

/* The warps in an l2wb pass (cursor set), by a scan of the warps. */
static uint32_t warp_passes(const struct comp *c, const uint8_t *sv)
{
	uint32_t n = 0;
	for (unsigned w = 0; LAYOUT(c)->l2wb && w < c->g->nwarps; w++)
		n += pw(c, sv, w)->cursor != 0;
	return n;
}

static int pm_l2wb_busy(const struct comp *c, const uint8_t *sv)
{
	const struct pm_pending *p = c->priv;
	const struct pm_host *hs = host(c, sv);
	int n;
	if (hs->busy && !hs->run && steps(c, sv, &n)[hs->dev].op == H_L2WB) /* a cudaL2WB pass */
		return 1;
	/* a warp's pass: asked for every global access of every warp, so a
	** concrete run counts the passes (p->passes, which a scan of the
	** warps each time made 44% of a 64-warp lbm run with CTA epochs);
	** an exploration scans, and not where no warp can run one */
	if (!p->run)
		return warp_passes(c, sv) != 0;
	if (p->check && p->passes + p->plant != warp_passes(c, sv)) {
		fprintf(stderr, "gpumc: GPUMC_CHECK_PERSIST: %u warps in an l2wb pass counted, %u by a scan\n",
		        p->passes + p->plant, warp_passes(c, sv));
		abort();
	}
	return p->passes != 0;
}

/* Concrete mode's heap of sleeping lines (struct pm_pending): entry i
** is line hline[i] asleep until hwake[i]; hpos follows every move. */
static void heap_put(struct pm_pending *p, uint32_t per, uint32_t i, uint64_t wake, uint32_t first)
{
	p->hwake[i] = wake;
	p->hline[i] = first;
	p->hpos[first / per] = i;
}

/* Entry i, moved up or down to where its wake belongs. */
static void heap_fix(struct pm_pending *p, uint32_t per, uint32_t i)
{
	uint64_t w = p->hwake[i];
	uint32_t l = p->hline[i];
	for (; i && p->hwake[(i - 1) / 2] > w; i = (i - 1) / 2)
		heap_put(p, per, i, p->hwake[(i - 1) / 2], p->hline[(i - 1) / 2]);
	for (;;) {
		uint32_t k = 2 * i + 1;
		if (k + 1 < p->nheap && p->hwake[k + 1] < p->hwake[k])
			k++;
		if (k >= p->nheap || p->hwake[k] >= w)
			break;
		heap_put(p, per, i, p->hwake[k], p->hline[k]);
		i = k;
	}
	heap_put(p, per, i, w, l);
}

/* Line `first` (listed, not awake) sleeps until wake. */
static void sleep_line(const struct comp *c, uint64_t wake, uint32_t first)
{
	struct pm_pending *p = c->priv;
	uint32_t per = line_words(c->g);
	heap_put(p, per, p->nheap++, wake, first);
	heap_fix(p, per, p->nheap - 1);
}

/* Line `first` out of the heap, if it sleeps there. */
static void heap_out(const struct comp *c, uint32_t first)
{
	struct pm_pending *p = c->priv;
	uint32_t per = line_words(c->g), k = first / per, i = p->hpos[k];
	if (i == UINT32_MAX)
		return;
	p->hpos[k] = UINT32_MAX;
	if (i != --p->nheap) {
		heap_put(p, per, i, p->hwake[p->nheap], p->hline[p->nheap]);
		heap_fix(p, per, i);
	}
}

/* Line `first` is awake: out of the heap (if it slept), into `in` (if
** not among the awake already). */
static void wake_line(const struct comp *c, uint32_t first)
{
	struct pm_pending *p = c->priv;
	uint32_t k = first / line_words(c->g);
	heap_out(c, first);
	if (!(p->listed[k] & AWAKE)) {
		p->listed[k] |= AWAKE;
		p->in[p->nin++] = first;
	}
}

/* The line of word i has work for its controller now (l2: for its
** partition's L2 unit, a clwb or a st.wt).  The list is kept
** in address order: the driver sorts each unit's candidates by subject
** (word), which is then one pass, where thousands of st.wt words in
** transit in list order made it quadratic. */
static void pending(const struct comp *c, uint32_t i, int l2)
{
	struct pm_pending *p = c->priv;
	if (!p->run) /* an exploration keeps no list */
		return;
	uint32_t k = i / line_words(c->g);
	p->wake[k] = p->minwake = 0; /* new work: its readiness is looked at afresh */
	if (!p->listed[k]) {
		uint32_t first = k * line_words(c->g), lo = 0, hi = p->n;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (p->line[mid] < first)
				lo = mid + 1;
			else
				hi = mid;
		}
		memmove(p->line + lo + 1, p->line + lo, sizeof *p->line * (p->n - lo));
		p->line[lo] = first;
		p->listed[k] = 1;
		p->n++;
	}
	p->listed[k] |= l2 ? 2 : 0;
	wake_line(c, k * line_words(c->g));
}

/* Concrete mode: the line starting at word first became dirty; queued
** last in its partition's order (capacity_evict).  A full queue first
** drops its stale entries (it holds twice the partition's lines, so this
** is rare). */
static void lru_dirty(const struct comp *c, uint32_t first)
{
	struct pm_pending *p = c->priv;
	uint32_t line = first / line_words(c->g), part = gpu_partition_of(c->g, first * 4);
	uint32_t *ql = p->qline + (size_t)part * p->qcap;
	uint64_t *qs = p->qstamp + (size_t)part * p->qcap;
	if (p->qn[part] == p->qcap) {
		uint32_t kept = 0;
		for (uint32_t k = 0; k < p->qn[part]; k++) {
			uint32_t at = (p->qhead[part] + k) % p->qcap;
			if (p->since[ql[at]] == qs[at]) { /* in order: the ring's start */
				ql[kept] = ql[at];
				qs[kept++] = qs[at];
			}
		}
		p->qhead[part] = 0;
		p->qn[part] = kept;
	}
	p->since[line] = ++p->stamp;
	uint32_t at = (p->qhead[part] + p->qn[part]++) % p->qcap;
	ql[at] = line;
	qs[at] = p->stamp;
	p->ndirty[part]++;
	p->full |= 1u << part;
}

/* Concrete mode: the line starting at word first is clean now (written
** back, or its last dirty word superseded by a st.wt); its queue entry is
** stale. */
static void lru_clean(const struct comp *c, uint32_t first)
{
	struct pm_pending *p = c->priv;
	if (p->run && p->overfill) {
		p->ndirty[gpu_partition_of(c->g, first * 4)]--;
		p->since[first / line_words(c->g)] = 0;
	}
}

/* Concrete mode: word's dirty flag was `was` and is now `now`: its line's
** count of dirty words (struct pm_pending, ndirty_words). */
static void dirty_count(const struct comp *c, uint32_t word, int was, int now)
{
	struct pm_pending *p = c->priv;
	if (p->run && p->overfill && !was != !now)
		p->ndirty_words[word / line_words(c->g)] += now ? 1 : (uint16_t)-1;
}

/* A store leaves word `word` dirty in the L2.  In a concrete run a line
** that was clean may overfill its partition's L2 (capacity_evict). */
static void pm_dirty(const struct comp *c, uint8_t *sv, uint32_t word)
{
	struct pm_pending *p = c->priv;
	uint32_t first = line_of(c->g, word);
	if (p->run && p->overfill) {
		int clean = !p->ndirty_words[word / line_words(c->g)];
		if (p->check && clean != !line_has(c, sv, first, PM_DIRTY)) {
			fprintf(stderr, "gpumc: GPUMC_CHECK_PERSIST: line of word %u: %u dirty words counted, flags say %s\n", word,
			        p->ndirty_words[word / line_words(c->g)], clean ? "dirty" : "clean");
			abort();
		}
		if (clean)
			lru_dirty(c, first);
		dirty_count(c, word, flags(c, sv)[word] & PM_DIRTY, 1);
	}
	flags(c, sv)[word] |= PM_DIRTY;
}

/* Word `word` now has an entry in its WPQ.  Concrete mode counts the NVM
** writes this will cost (the paper's write-endurance figure): each WPQ
** entry is one NVM line write, of the words it holds; a word merged into
** a queued entry costs nothing more.  queued (NULL: not known): whether
** the word's line has a word in its WPQ (-1: not known yet), set to 1
** after, so that a write-back's words look at the line once. */
static void into_wpq(const struct comp *c, uint8_t *sv, uint32_t word, uint32_t value, int *queued)
{
	uint8_t *f = &flags(c, sv)[word];
	struct pm_pending *p = c->priv;
	if (p->run) {
		if (!(*f & PM_INWPQ)) {
			p->writes[0] += !(queued && *queued >= 0 ? *queued : line_has(c, sv, line_of(c->g, word), PM_INWPQ));
			p->writes[1] += 4;
		}
		pending(c, word, 0);
	}
	if (queued)
		*queued = 1;
	if (!(*f & PM_INWPQ))
		host(c, sv)->ninwpq++;
	wpq(c, sv)[word] = value;
	dirty_count(c, word, *f & PM_DIRTY, 0);
	*f = (uint8_t)((*f & PM_TRANSIT) | PM_INWPQ); /* and no longer dirty */
}

/* The line starting at word first leaves the L2 for its WPQ: every word
** of its dirty mask at once, merged into the line's WPQ entry (a newer
** value replaces an older one; a controller keeps writes to one line in
** order, so the merge loses no durable image). */
static void write_back(const struct comp *c, uint8_t *sv, uint32_t first)
{
	int was = 0, queued = -1;
	for (uint32_t i = first, end = line_end(c->g, first); i < end; i++)
		if (flags(c, sv)[i] & PM_DIRTY) {
			into_wpq(c, sv, i, ((uint32_t *)sv)[i], &queued);
			po_move(c->g, rec(c, sv), PO_WPQ, PO_VIS, i);
			was = 1;
		}
	if (was)
		lru_clean(c, first);
}

/* One step of an L2 write-back pass (the l2wb instruction, cudaL2WB):
** the next line (line_bytes) is written back, so a crash can come between
** any two lines.  *cursor is the next word + 1 (0: not started); returns
** 1 when the pass is over.  A concrete run (p->run) takes no crash: there
** the pass writes back every dirty line in one step and l2wb_cost() says
** how long it takes. */
static int l2wb_step(const struct comp *c, uint8_t *sv, uint32_t *cursor)
{
	const struct gpu *g = c->g;
	uint32_t k = *cursor ? *cursor - 1u : 0, per = g->cfg.line_bytes / 4;
	if (k >= G_WORDS(g)) {
		*cursor = 0;
		return 1;
	}
	if (((const struct pm_pending *)c->priv)->run) {
		/* concrete mode: the whole pass in one step, which l2wb_cost()
		** timed; the next step ends it, and other warps' global
		** accesses wait until then */
		for (; k < G_WORDS(g); k += per)
			if (line_has(c, sv, k, PM_DIRTY)) /* most are clean: or-ed flags first */
				write_back(c, sv, k);
		*cursor = G_WORDS(g) + 1;
		return 0;
	}
	write_back(c, sv, k);
	*cursor = k + per + 1 > G_WORDS(g) + 1 ? G_WORDS(g) + 1 : k + per + 1;
	return 0;
}

/* Concrete mode: the cycles of the l2wb pass about to start, `at` cycles
** from now (an l2wb instruction's request crosses the interconnect
** first: lat_icnt; a host cudaL2WB: 0).  The pass
** runs in every partition's controller at once (the paper's l2wb), each
** writing back its own dirty lines, one a cycle as a clwb completion does.
** With l2wb_scan=dirty (the default) the L2 tracks its dirty lines, so
** the pass takes as many cycles as the partition with the most dirty
** lines has; with l2wb_scan=all it walks every line its L2 holds, a line
** a cycle, as GPGPU-Sim's pass does (l2_kb / line_bytes cycles, or the
** dirty lines where the partition holds more).  Each line's WPQ entry
** (subject) goes to NVM no sooner than lat_nvm_write after its partition
** wrote it back, as one a clwb or eviction queued (t: its updates). */
static unsigned l2wb_cost(const struct comp *c, const uint8_t *sv, struct timing *t, unsigned at)
{
	const struct gpu *g = c->g;
	unsigned rank[8] = { 0 }, most = 0; /* dirty lines so far per partition (at most 8) */
	for (uint32_t i = 0; i < G_WORDS(g); i += line_words(g))
		if (line_has(c, sv, i, PM_DIRTY)) {
			unsigned r = ++rank[gpu_partition_of(g, i * 4)];
			most = r > most ? r : most;
			if (t->n + 1 < TIMING_MAX_UPDATES) { /* one left for the pass's own subject */
				t->upd[t->n].subject = c->subj0[0] + i;
				t->upd[t->n++].delay = at + r + g->cfg.lat_nvm_write;
			}
		}
	uint64_t lines = g->cfg.l2_kb * 1024ull / g->cfg.line_bytes;
	return g->cfg.l2wb_scan && lines > most ? (unsigned)lines : most;
}

/* The warps in mask got their acknowledgement; the mask is cleared.
** Non-zero when one of them now has none outstanding (its sfence or
** membar may pass: clear()). */
static int ack(const struct comp *c, uint8_t *sv, uint32_t *mask)
{
	struct pm_pending *p = c->priv;
	int freed = 0;
	for (uint32_t k = 0; k < LAYOUT(c)->mw; k++) {
		if (!mask[k])
			continue;
		for (uint32_t b = mask[k]; b; b &= b - 1) { /* a word's mask holds a warp or two: by set bit */
			unsigned w = 32 * k + (unsigned)__builtin_ctz(b);
			if (!--pw(c, sv, w)->outstanding) {
				freed = 1;
				if (p->run) /* its fence is clear() again */
					p->refused[k] &= ~(1u << w % 32);
			}
		}
		mask[k] = 0;
	}
	return freed;
}

static int wpq_empty(const struct comp *c, const uint8_t *sv)
{
	return host(c, sv)->ninwpq == 0;
}

static int clear(const struct comp *c, const uint8_t *sv, unsigned w, enum opcode op);

/* Would resume() leave warp w waiting because clear() still says no?
** Its fence (or pcommit) is still refused: resume() would ask clear()
** again and change nothing (a .release store asks it for its fence). */
static int still_refused(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	unsigned pc = gpu_pc(g, sv, w);
	if (gpu_warp(g, (uint8_t *)sv, w)->status != W_WAIT || pc >= (unsigned)g->prog->nins)
		return 0;
	const struct instr *in = &g->prog->ins[pc];
	if (in->op == OP_SFENCE || in->op == OP_MEMBAR || in->op == OP_PCOMMIT)
		return !clear(c, sv, w, in->op);
	return in->op == OP_ST && instr_releasing(in) && !clear(c, sv, w, OP_MEMBAR);
}

/* Acknowledgements arrived or a WPQ drained: waiting warps re-check,
** in warp order, but not those whose wait clear() still refuses (most
** fences in a strict run: resuming each was 7% of a 64-warp lbm run).
** A concrete run looks only at its candidates (wake_candidates). */
static void pm_wake(const struct comp *c, uint8_t *sv)
{
	struct pm_pending *p = c->priv;
	if (!p->run) {
		for (unsigned w = 0; w < c->g->nwarps; w++)
			if (WARPS(c)->waiting(WC(c), sv, w) && !still_refused(c, sv, w))
				WARPS(c)->resume(WC(c), sv, w);
		return;
	}
	check_waits(c, sv);
	for (uint32_t k = 0, empty = wpq_empty(c, sv); k < LAYOUT(c)->mw; k++)
		for (uint32_t b = wake_candidates(p, k, (int)empty); b; b &= b - 1) {
			unsigned w = 32 * k + (unsigned)__builtin_ctz(b);
			if (!WARPS(c)->waiting(WC(c), sv, w))
				p->waits[k] &= ~(1u << w % 32);
			else if (!still_refused(c, sv, w))
				WARPS(c)->resume(WC(c), sv, w);
		}
}

/* The st.wt writes of word i are acknowledged.  Waiting warps re-check
** only when what clear() reads changed: a warp's last acknowledgement, or
** the last WPQ entry gone (pcommit); most drains change neither. */
static void wt_acked(const struct comp *c, uint8_t *sv, uint32_t i)
{
	int freed = wt_words(c) && waited(c, wt_mask(c, sv, i)) && ack(c, sv, wt_mask(c, sv, i));
	if (freed || wpq_empty(c, sv))
		pm_wake(c, sv);
}

/* The global word lane l of warp w addresses, or -1 with *fault set. */
static long lane_word_of(const struct comp *c, const uint8_t *sv, unsigned w, unsigned l, const struct instr *in,
                         int *fault)
{
	/* a byte address: its word (clwb [x + 1], st.wt.u8) */
	return INNER(c)->word(IC(c), sv, SP_GLOBAL, 0, in->addr.sym, WARPS(c)->address(WC(c), sv, w, l) & ~3u, fault);
}

/* The global word lane l of warp w addresses, or -1 after faulting it. */
static long lane_word(const struct comp *c, uint8_t *sv, unsigned w, unsigned l, const struct instr *in)
{
	int fault = 0;
	long word = lane_word_of(c, sv, w, l, in, &fault);
	if (word < 0)
		WARPS(c)->fault(WC(c), sv, w, fault);
	return word;
}

/* Warp w now waits for the acknowledgement in mask (a line's clwb, a
** word's st.wt). */
static void await(const struct comp *c, uint8_t *sv, unsigned w, uint32_t *mask)
{
	if (!(mask[w / 32] & (1u << w % 32))) {
		mask[w / 32] |= 1u << w % 32;
		pw(c, sv, w)->outstanding++;
	}
}

/* Lane l of warp w's st.wt: the L2 copy of each word it writes is clean
** (an older dirty value is superseded) and the word's new value crosses
** to its controller, st.u8/.u16 merged into the word, st.u64 as two words
** that arrive on their own (the write-through is per word: torn unless
** the WPQs are durable and both arrived).  0 after faulting the warp. */
static int st_wt(const struct comp *c, uint8_t *sv, unsigned w, unsigned l, const struct instr *in)
{
	uint32_t addr = WARPS(c)->address(WC(c), sv, w, l), at = addr & 3;
	if (in->width && addr % (unsigned)in->width) {
		WARPS(c)->fault(WC(c), sv, w, F_ALIGN);
		return 0;
	}
	for (unsigned k = 0; k < (in->width == 8 ? 2u : 1u); k++) {
		int fault = 0;
		long i = INNER(c)->word(IC(c), sv, SP_GLOBAL, 0, in->addr.sym, addr - at + 4 * k, &fault);
		if (i < 0) {
			WARPS(c)->fault(WC(c), sv, w, fault);
			return 0;
		}
		struct alu_lanes o = WARPS(c)->operand(WC(c), sv, w, &in->src[k]);
		uint32_t v = alu_lane(&o, l);
		if (in->width == 1 || in->width == 2) {
			uint32_t keep = ~(((1u << 8 * in->width) - 1) << 8 * at);
			v = (INNER(c)->load(IC(c), sv, SP_GLOBAL, 0, i) & keep) | (v << 8 * at & ~keep);
		}
		uint8_t *f = &flags(c, sv)[i];
		int was = *f & PM_DIRTY;
		INNER(c)->store(IC(c), sv, SP_GLOBAL, 0, i, v);
		po_stored(c->g, rec(c, sv), (uint32_t)i);
		po_move(c->g, rec(c, sv), PO_TRANSIT, PO_VIS, (uint32_t)i);
		*f = (uint8_t)((*f & PM_INWPQ) | PM_TRANSIT);
		dirty_count(c, (uint32_t)i, was, 0);
		if (was && !line_has(c, sv, line_of(c->g, (uint32_t)i), PM_DIRTY)) /* its line is clean now */
			lru_clean(c, line_of(c->g, (uint32_t)i));
		pending(c, (uint32_t)i, 1);
		transit(c, sv)[i] = v;
		await(c, sv, w, wt_mask(c, sv, (uint32_t)i));
	}
	return 1;
}

/* check persist_order: record the global stores of warp w's plain st
** (lanes m) before the warp performs them in lane order; 1 when the
** record is full (the warp faults). */
static int record_stores(const struct comp *c, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m)
{
	const struct gpu *g = c->g;
	long word[32];
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
		int fault = 0;
		word[l] = m >> l & 1 ? lane_word_of(c, sv, w, l, in, &fault) : -1;
		if (word[l] < 0) /* the warp faults on it */
			continue;
		unsigned ahead = 1;
		for (unsigned k = 0; k < l; k++)
			ahead += word[k] == word[l];
		if (po_issue(g, rec(c, sv), w, l, (uint32_t)word[l], gpu_pc(g, sv, w), ahead) < 0) {
			WARPS(c)->fault(WC(c), sv, w, F_WINDOW);
			return 1;
		}
	}
	return 0;
}

static int pm_op(const struct comp *c, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m)
{
	const struct gpu *g = c->g;
	struct pm_warp *p = pw(c, sv, w);
	struct pm_pending *q = c->priv;
	if (q->run) { /* a new instruction: clear() has refused nothing yet */
		q->waits[w / 32] |= may_wait(in) ? 1u << w % 32 : 0;
		q->refused[w / 32] &= ~(1u << w % 32);
		q->pcommit[w / 32] &= ~(1u << w % 32);
	}
	switch (in->op) {
	case OP_BAR:
		if (m)
			po_barrier(g, rec(c, sv), w, 0);
		return 0;
	case OP_ST:
		if (in->space == SP_GLOBAL && g->persist_order && record_stores(c, sv, w, in, m))
			return 1;
		if (!in->wt || in->space != SP_GLOBAL)
			return 0;
		/* st.wt, like clwb, is acknowledged later */
		/* fall through */
	case OP_CLWB:
		for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
			if (!(m >> l & 1))
				continue;
			if (in->op == OP_ST) {
				if (!st_wt(c, sv, w, l, in))
					return 1;
				continue;
			}
			long i = lane_word(c, sv, w, l, in);
			if (i < 0)
				return 1;
			await(c, sv, w, clwb_mask(c, sv, line_of(g, (uint32_t)i))); /* the line, whichever of its words */
			pending(c, (uint32_t)i, 1);
		}
		WARPS(c)->advance(WC(c), sv, w);
		return 1;
	case OP_L2WB:
		if (!m) /* guarded off: no pass */
			WARPS(c)->advance(WC(c), sv, w);
		else {
			uint32_t was = p->cursor != 0;
			if (l2wb_step(c, sv, &p->cursor)) {
				WARPS(c)->advance(WC(c), sv, w);
				po_barrier(g, rec(c, sv), w, 1);
			}
			if (q->run) /* a pass started or ended (pm_l2wb_busy) */
				q->passes += (p->cursor != 0) - was;
		}
		po_prune(g, rec(c, sv), flags(c, sv), PM_INWPQ);
		return 1;
	default:
		return 0;
	}
}

/* Concrete mode: the words warp w's clwb or st.wt addresses can be acted
** on by their memory controller after delay cycles.  An l2wb is two
** issues (l2wb_step): the first holds the warp (the cycles returned)
** while the partitions walk (l2wb_cost), and other warps' global accesses
** wait meanwhile (may_issue); the second, once the pass is over, holds it
** while the request crosses the interconnect and the completion crosses
** back.  The walk "blocks subsequent L2 accesses until all the cache
** lines are checked" (the paper, §V): a global access issued t cycles
** after the l2wb reaches the L2 t cycles after the l2wb's request does
** (each crosses in lat_icnt), so the accesses the walk blocks are exactly
** those issued while it runs; the crossings block nothing. */
static unsigned timing_issue(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in,
                             struct timing *t)
{
	const struct gpu_cfg *cf = &c->g->cfg;
	unsigned delay;
	if (in->op == OP_L2WB) {
		if (!WARPS(c)->exec_mask(WC(c), sv, w)) /* guarded off: no pass */
			return 0;
		return !pw(c, sv, w)->cursor ? l2wb_cost(c, sv, t, cf->lat_icnt) : 2 * cf->lat_icnt;
	}
	if ((in->op == OP_SFENCE || in->op == OP_MEMBAR) && !pw(c, sv, w)->outstanding) {
		/* nothing outstanding: it passes once the warp's latest
		** acknowledgement has crossed back (acks_cross) */
		const struct pm_pending *p = c->priv;
		uint64_t next = p->now + cf->lat_alu;
		return p->acked[w] > next ? (unsigned)(p->acked[w] - next) : 0;
	}
	if (in->op == OP_CLWB) /* the write-back request crosses the interconnect */
		delay = cf->lat_icnt;
	else if (in->op == OP_ST && in->wt && in->space == SP_GLOBAL) /* the data crosses */
		delay = cf->lat_icnt;
	else
		return 0;
	uint32_t mask = WARPS(c)->exec_mask(WC(c), sv, w);
	int fault = 0;
	for (unsigned l = 0; l < cf->threads_per_warp; l++) {
		/* a faulting lane has no word to wait for: the issue faults the warp */
		long i = mask >> l & 1 ? lane_word_of(c, sv, w, l, in, &fault) : -1;
		if (i >= 0) { /* a clwb completes for its line */
			t->upd[t->n].subject = c->subj0[0] + (in->op == OP_CLWB ? line_of(c->g, (uint32_t)i) : (unsigned)i);
			t->upd[t->n++].delay = delay;
		}
		if (i >= 0 && in->op == OP_ST && in->width == 8 && (uint32_t)i + 1 < G_WORDS(c->g)) { /* its high word */
			t->upd[t->n].subject = c->subj0[0] + (unsigned)i + 1;
			t->upd[t->n++].delay = delay;
		}
	}
	return 0;
}

/* sfence and membar wait for this warp's acknowledgements; pcommit for
** every WPQ to drain; bar.sync for neither. */
static int clear(const struct comp *c, const uint8_t *sv, unsigned w, enum opcode op)
{
	int ok = op == OP_SFENCE || op == OP_MEMBAR ? !pw(c, sv, w)->outstanding : op != OP_PCOMMIT || wpq_empty(c, sv);
	struct pm_pending *p = c->priv;
	if (!ok && p->run) { /* the warp waits: wake_candidates() may skip it */
		const struct instr *in = &c->g->prog->ins[gpu_pc(c->g, sv, w)];
		if (in->op == OP_PCOMMIT)
			p->pcommit[w / 32] |= 1u << w % 32;
		else if (in->op == OP_SFENCE || in->op == OP_MEMBAR || (in->op == OP_ST && instr_releasing(in)))
			p->refused[w / 32] |= 1u << w % 32; /* as still_refused() */
	}
	return ok;
}

static int pm_kernel_done(const struct comp *c, const uint8_t *sv);

/* Concrete mode's ready sets (gto's reach): a clwb's issue changes only
** its warp (the warp's count, the line's mask), a fence's only its warp
** (it passes or waits: clear() and the ROP's test read only its own
** counts), where every issue counted as reaching every SM recomputed all
** their sets four more times per store in a strict run (the persistency
** models' clwb; sfence; pcommit; sfence).  An l2wb closes the gate. */
static int own_issue(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in)
{
	(void)c, (void)sv, (void)w;
	return in->op == OP_CLWB || in->op == OP_SFENCE || in->op == OP_MEMBAR || in->op == OP_PCOMMIT;
}

/* A warp issues once the host launched the kernel; while an l2wb walks
** the L2, other warps' global accesses wait ("blocks subsequent L2
** accesses"). */
static int may_issue(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	const struct pm_host *hs = host(c, sv);
	const struct pm_pending *p = c->priv;
	if (!hs->run && (g->prog->launch_at >= 0 || hs->rec))
		return 0;
	if (p->run && !p->check && !p->passes && (hs->run || !hs->busy))
		return 1; /* concrete mode, asked for every warp every cycle: no pass (pm_l2wb_busy) */
	unsigned pc = gpu_pc(g, sv, w);
	if (pc >= (unsigned)g->prog->nins)
		return 1;
	const struct instr *in = &g->prog->ins[pc];
	int global = in->op == OP_CLWB ||
	             ((in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED) &&
	              in->space == SP_GLOBAL);
	return !global || !pm_l2wb_busy(c, sv);
}

/* {=== The mem port: the inner memory, and a dirty L2 word per store ==== */

static void m_store(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long word, uint32_t v)
{
	INNER(c)->store(IC(c), sv, sp, cta, word, v);
	if (sp == SP_GLOBAL) {
		pm_dirty(c, sv, (uint32_t)word);
		po_stored(c->g, rec(c, sv), (uint32_t)word);
	}
}

static uint32_t m_rmw(const struct comp *c, uint8_t *sv, enum space sp, unsigned cta, long word, enum atom_op op,
                      enum vtype t, uint32_t a, uint32_t b)
{
	uint32_t old = INNER(c)->rmw(IC(c), sv, sp, cta, word, op, t, a, b);
	if (sp == SP_GLOBAL) { /* performed in the L2 */
		pm_dirty(c, sv, (uint32_t)word);
		po_stored(c->g, rec(c, sv), (uint32_t)word);
	}
	return old;
}

/* }=== */

/* Does host step op wait for the device to catch up?  sync does, and so
** does a recovery step that reads device memory (or may: while). */
static int reads_device(enum host_op op)
{
	return op == H_SYNC || op == H_IF || op == H_LD || op == H_WHILE;
}

/* The environment actions of the line starting at word i into out: any,
** its flags (line_flags), and clwb, whether warps wait on its clwb. */
static unsigned line_actions(const struct comp *c, const uint8_t *sv, uint32_t i, uint8_t any, int clwb,
                             struct action *out, int timed)
{
	if (!any && !clwb)
		return 0; /* nothing moves */
	const struct gpu *g = c->g;
	const uint8_t *f = flags(c, sv);
	const uint32_t end = line_end(g, i);
	unsigned n = 0, part = gpu_partition_of(g, i * 4), l2 = c->unit0[0] + part, mc = c->unit0[1] + part;
	for (uint32_t k = i; any & PM_TRANSIT && k < end; k++) /* each lane's st.wt crosses alone */
		if (f[k] & PM_TRANSIT)
			out[n++] = (struct action){ (uint16_t)(c->kind0 + K_WT_ARRIVE), (uint16_t)l2, c->subj0[0] + k, k };
	if (clwb)
		out[n++] = (struct action){ (uint16_t)(c->kind0 + K_CLWB_DONE), (uint16_t)l2, c->subj0[0] + i, i };
	if (!timed && any & PM_DIRTY)
		out[n++] = (struct action){ (uint16_t)(c->kind0 + K_EVICT), UINT16_MAX, 0, i };
	if (any & PM_INWPQ)
		out[n++] = (struct action){ (uint16_t)(c->kind0 + K_WPQ_DRAIN), (uint16_t)mc, c->subj0[0] + i, i };
	return n;
}

/* Concrete run `run` lists: at its start, the list is built from the
** state and the NVM-write counts start from zero. */
static void pending_run(const struct comp *c, const uint8_t *sv, uint64_t run)
{
	struct pm_pending *p = c->priv;
	uint32_t per = line_words(c->g);
	if (p->run == run)
		return;
	p->run = run;
	p->n = p->naw = p->nin = p->nheap = 0;
	p->minwake = 0;
	p->writes[0] = p->writes[1] = 0;
	p->full = 0;
	p->passes = warp_passes(c, sv);
	uint32_t lines = (G_WORDS(c->g) + per - 1) / per, own = (lines + c->g->cfg.partitions - 1) / c->g->cfg.partitions;
	p->overfill = own > c->g->cfg.l2_kb * 1024ull / c->g->cfg.line_bytes;
	memset(p->listed, 0, (G_WORDS(c->g) + per - 1) / per);
	memset(p->hpos, 0xff, sizeof *p->hpos * ((G_WORDS(c->g) + per - 1) / per));
	memset(p->wake, 0, sizeof *p->wake * ((G_WORDS(c->g) + per - 1) / per));
	memset(p->acked, 0, sizeof *p->acked * c->g->nwarps);
	memset(p->since, 0, sizeof *p->since * ((G_WORDS(c->g) + per - 1) / per));
	memset(p->ndirty, 0, sizeof p->ndirty);
	memset(p->ndirty_words, 0, sizeof *p->ndirty_words * ((G_WORDS(c->g) + per - 1) / per));
	memset(p->qhead, 0, sizeof p->qhead);
	memset(p->qn, 0, sizeof p->qn);
	memset(p->waits, 0, sizeof *p->waits * LAYOUT(c)->mw);
	memset(p->refused, 0, sizeof *p->refused * LAYOUT(c)->mw);
	memset(p->pcommit, 0, sizeof *p->pcommit * LAYOUT(c)->mw);
	for (unsigned w = 0; w < c->g->nwarps; w++)
		if (WARPS(c)->waiting(WC(c), sv, w))
			p->waits[w / 32] |= 1u << w % 32;
	for (uint32_t i = 0; i < G_WORDS(c->g); i += per) {
		if (line_has(c, sv, i, PM_INWPQ | PM_TRANSIT) || waited(c, clwb_mask(c, sv, i)))
			pending(c, i, 1);
		if (p->overfill && line_has(c, sv, i, PM_DIRTY)) {
			lru_dirty(c, i);
			for (uint32_t k = i; k < line_end(c->g, i); k++)
				dirty_count(c, k, 0, flags(c, sv)[k] & PM_DIRTY);
		}
	}
}

/* GPUMC_CHECK_PERSIST: each unit's pick among every listed line's actions
** that can issue now is among the n in out (passed_over); the rest of
** out is scratch (max_actions holds every line's). */
static void check_passed_over(const struct comp *c, const uint8_t *sv, const struct timed_now *tn,
                              const struct action *out, unsigned n)
{
	const struct pm_pending *p = c->priv;
	struct action *all = (struct action *)out + n;
	for (uint32_t k = 0; k < p->n; k++) {
		unsigned got = line_actions(c, sv, p->line[k], line_flags(c, sv, p->line[k]),
		                            waited(c, clwb_mask(c, sv, p->line[k])), all, 1);
		for (unsigned j = 0; j < got; j++) {
			const struct action *a = &all[j];
			if (tn->ready[a->subject] > tn->now || tn->unit_free[a->unit] > tn->now)
				continue; /* cannot issue now */
			unsigned i = 0;
			while (i < n && !(out[i].unit == a->unit && (out[i].subject == a->subject ||
			                                              (out[i].subject < a->subject && (!tn->last || a->subject != tn->last[a->unit])))))
				i++;
			if (i == n) {
				fprintf(stderr, "gpumc: GPUMC_CHECK_PERSIST: cycle %llu: line %u's action on unit %u could be picked, but is not listed\n",
				        (unsigned long long)tn->now, p->line[k], a->unit);
				abort();
			}
		}
	}
}

/* Concrete mode, GTO (cfg.sched_policy 0): may the walk of pending_actions
** pass over the line starting at word first without a look?  Each unit
** issues the candidate it issued last (tn->last), else the one of the
** lowest subject (compose.c, m_pick): the line can add neither where both
** its units are busy now or already have a candidate (done, in address
** order: of a lower subject) and neither last names one of its subjects
** (a line with no work for its L2 unit, listed bit 2 clear: its
** controller alone). */
static int passed_over(const struct comp *c, const struct timed_now *tn, const uint8_t *done, uint32_t first)
{
	const struct gpu *g = c->g;
	const struct pm_pending *p = c->priv;
	unsigned part = gpu_partition_of(g, first * 4), l2 = c->unit0[0] + part, mc = c->unit0[1] + part;
	uint32_t s = c->subj0[0] + first;
	return g->cfg.sched_policy != 1 && tn->last && done[part] & 2 && tn->last[mc] != s &&
	       (!(p->listed[first / line_words(g)] & 2) ||
	        (done[part] & 1 && (tn->last[l2] < s || tn->last[l2] >= s + line_words(g))));
}

/* Lines' first words in address order (qsort, bsearch). */
static int by_word(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Line `first` leaves line[], which stays in order. */
static void line_off(struct pm_pending *p, uint32_t first)
{
	uint32_t *at = bsearch(&first, p->line, p->n, sizeof *p->line, by_word);
	memmove(at, at + 1, sizeof *at * (size_t)(p->line + --p->n - at));
}

/* Line `first` leaves the list (it has no work): out of line[], and of
** the heap when asleep, of aw or in when awake. */
static void unlist(const struct comp *c, uint32_t first)
{
	struct pm_pending *p = c->priv;
	uint32_t k = first / line_words(c->g), *at;
	line_off(p, first);
	if (!(p->listed[k] & AWAKE))
		heap_out(c, first);
	else {
		uint32_t *v = p->in, *nv = &p->nin;
		at = bsearch(&first, p->aw, p->naw, sizeof *p->aw, by_word);
		if (at) {
			v = p->aw;
			nv = &p->naw;
		} else
			for (at = p->in; *at != first; at++)
				;
		memmove(at, at + 1, sizeof *at * (size_t)(v + --*nv - at));
	}
	p->listed[k] = 0;
}

/* Concrete mode: the listed lines' actions (struct pm_pending); a line
** with none leaves the list.  The driver orders each unit's candidates by
** subject, so the list's own order does not matter.  When only what can
** issue now is asked for (enabled_now), a line's actions that cannot are
** left out, and the line sleeps until the earliest of them could
** (subject ready times and unit busy times only grow until new work comes
** to the line, which pending() marks): only the awake lines are looked
** at, in address order; and under GTO a line that cannot be its units'
** pick is passed over (passed_over: after a cudaL2WB every line waits
** for its controller, and each drain had all of them looked at, 10.7M
** looks in a 64-warp lbm epoch-kernel run, 48%); and while every line
** sleeps (p->minwake) there is no walk at all. */
static unsigned pending_actions(const struct comp *c, const uint8_t *sv, const struct timed_now *tn,
                                struct action *out)
{
	struct pm_pending *p = c->priv;
	const struct gpu *g = c->g;
	uint32_t per = line_words(g), n = 0;
	if (tn->now == UINT64_MAX) { /* everything, for the next wake-up: every line */
		for (uint32_t k = 0; k < p->n;) {
			uint32_t first = p->line[k];
			unsigned got = line_actions(c, sv, first, line_flags(c, sv, first), waited(c, clwb_mask(c, sv, first)),
			                            out + n, 1);
			if (!got)
				unlist(c, first);
			else
				k++;
			n += got;
		}
		return n;
	}
	uint8_t done[8]; /* per partition: 1 its L2 unit, 2 its controller is busy or has a candidate */
	uint64_t minwake = UINT64_MAX;
	if (tn->now < p->minwake) /* every line sleeps: no walk */
		return 0;
	for (unsigned part = 0; part < g->cfg.partitions; part++)
		done[part] = (uint8_t)((tn->unit_free[c->unit0[0] + part] > tn->now) |
		                       (tn->unit_free[c->unit0[1] + part] > tn->now) << 1);
	while (p->nheap && p->hwake[0] <= tn->now) /* due */
		wake_line(c, p->hline[0]);
	if (p->nin) { /* merged into aw, which stays in address order */
		qsort(p->in, p->nin, sizeof *p->in, by_word);
		uint32_t i = 0, j = 0, m = 0;
		while (i < p->naw || j < p->nin)
			p->tmp[m++] = j == p->nin || (i < p->naw && p->aw[i] < p->in[j]) ? p->aw[i++] : p->in[j++];
		uint32_t *x = p->aw;
		p->aw = p->tmp;
		p->tmp = x;
		p->naw = m;
		p->nin = 0;
	}
	uint32_t kept_aw = 0;
	for (uint32_t k = 0; k < p->naw; k++) {
		uint32_t first = p->aw[k], line = first / per;
		if (passed_over(c, tn, done, first)) {
			minwake = p->wake[line] < minwake ? p->wake[line] : minwake;
			p->aw[kept_aw++] = first;
			continue;
		}
		unsigned got = line_actions(c, sv, first, line_flags(c, sv, first), waited(c, clwb_mask(c, sv, first)),
		                            out + n, 1);
		if (!got) { /* off the list (and aw: not kept) */
			line_off(p, first);
			p->listed[line] = 0;
			continue;
		}
		uint64_t wake = UINT64_MAX;
		unsigned kept = 0, part = gpu_partition_of(g, first * 4);
		p->listed[line] = 1 | AWAKE;
		for (unsigned j = 0; j < got; j++) {
			struct action a = out[n + j];
			uint64_t at = tn->ready[a.subject] > tn->unit_free[a.unit] ? tn->ready[a.subject] : tn->unit_free[a.unit];
			unsigned bit = a.unit == c->unit0[0] + part ? 1 : 2;
			p->listed[line] |= bit == 1 ? 2 : 0; /* it has work for its L2 unit */
			if (at <= tn->now) {
				out[n + kept++] = a;
				done[part] |= (uint8_t)bit;
			} else if (at < wake)
				wake = at;
		}
		n += kept;
		p->wake[line] = kept ? 0 : wake;
		if (kept) {
			minwake = 0;
			p->aw[kept_aw++] = first;
		} else { /* asleep until then */
			p->listed[line] &= (uint8_t)~AWAKE;
			sleep_line(c, wake, first);
		}
	}
	p->naw = kept_aw;
	p->minwake = kept_aw ? minwake : p->nheap ? p->hwake[0] : UINT64_MAX;
	if (p->check) {
		uint32_t asleep = 0;
		for (uint32_t k = 0; k < p->n; k++)
			asleep += !(p->listed[p->line[k] / per] & AWAKE);
		if (asleep != p->nheap) {
			fprintf(stderr, "gpumc: GPUMC_CHECK_PERSIST: %u lines asleep, %u in the heap\n", asleep, p->nheap);
			abort();
		}
		check_passed_over(c, sv, tn, out, n);
	}
	return n;
}

/* Concrete mode: the L2 holds l2_kb per partition.  Where a store made
** a partition's dirty lines more than that, the one dirty the longest is
** written back (EVICT on the partition's L2 unit; LRU among dirty lines).
** Clean lines take no room here (the machine does not keep them), so
** this evicts no earlier than a real L2 would: a lower bound. */
static unsigned capacity_evict(const struct comp *c, const uint8_t *sv, struct action *out)
{
	const struct gpu *g = c->g;
	struct pm_pending *p = c->priv;
	(void)sv;
	uint32_t per = line_words(g), cap = (uint32_t)(g->cfg.l2_kb * 1024ull / g->cfg.line_bytes), n = 0;
	for (unsigned part = 0; part < g->cfg.partitions; part++) {
		if (!(p->full >> part & 1))
			continue;
		if (p->ndirty[part] <= cap) {
			p->full &= ~(1u << part);
			continue;
		}
		/* the oldest: the first entry still dirty since it was queued */
		const uint32_t *ql = p->qline + (size_t)part * p->qcap;
		const uint64_t *qs = p->qstamp + (size_t)part * p->qcap;
		while (p->qn[part] && p->since[ql[p->qhead[part]]] != qs[p->qhead[part]]) {
			p->qhead[part] = (p->qhead[part] + 1) % p->qcap;
			p->qn[part]--;
		}
		if (!p->qn[part]) /* cannot be: every dirty line has its entry */
			continue;
		uint32_t oldest = ql[p->qhead[part]] * per;
		out[n++] = (struct action){ (uint16_t)(c->kind0 + K_EVICT), (uint16_t)(c->unit0[0] + part), c->subj0[0] + oldest, oldest };
	}
	return n;
}

/* Concrete mode's line actions: capacity evictions, then the listed
** lines' (pending_actions) unless every partition and controller is busy
** (no line moves then) or no line is listed. */
static unsigned timed_lines(const struct comp *c, const uint8_t *sv, const struct timed_now *tn, struct action *out)
{
	struct pm_pending *p = c->priv;
	pending_run(c, sv, tn->run);
	p->ready = tn->ready; /* for apply: which st.wt words have crossed */
	p->now = tn->clock;
	unsigned n = p->full ? capacity_evict(c, sv, out) : 0;
	int scan = 0;
	for (unsigned k = 0; p->n && k < c->g->cfg.partitions; k++)
		scan |= tn->unit_free[c->unit0[0] + k] <= tn->now || tn->unit_free[c->unit0[1] + k] <= tn->now;
	return scan ? n + pending_actions(c, sv, tn, out + n) : n;
}

/* Environment actions: arg = word.  EVICT and CRASH have no
** concrete-mode unit (concrete runs keep dirty lines until something
** writes them back or the L2 overfills, and never crash); with `timed`
** they are left out.  An exploration looks at each line once: its
** flags in one pass and its clwb mask (walked beside it), and asks for
** its actions only when one is set. */
static unsigned enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                        struct action *out, int timed)
{
	(void)before;
	(void)nb;
	const struct gpu *g = c->g;
	const struct pm_layout *l = LAYOUT(c);
	const struct timed_now *tn = compose_now(c);
	unsigned n = 0;
	if (tn) {
		n = timed_lines(c, sv, tn, out);
	} else {
		const uint8_t *f = flags(c, sv);
		const uint32_t *cm = (const uint32_t *)(sv + c->off + l->clwb);
		const uint32_t words = G_WORDS(g), per = l->per, mw = l->mw;
		for (uint32_t i = 0; i < words; i += per, cm += mw) {
			uint8_t any = or_flags(f, i, i + per < words ? i + per : words);
			int clwb = cm[0] || (mw > 1 && waited(c, cm));
			if (any || clwb)
				n += line_actions(c, sv, i, any, clwb, out + n, timed);
		}
	}
	/* the host's next step: without a launch step, once the kernel
	** is over; a sync once the device caught up with the host */
	const struct pm_host *hs = host(c, sv);
	int ns;
	const struct host_step *hp = steps(c, sv, &ns);
	if (hs->pc < ns && (g->prog->launch_at >= 0 || hs->rec || pm_kernel_done(c, sv)) &&
	    !hs->fault && (!reads_device(hp[hs->pc].op) || (!hs->run && hs->dev > hs->pc)))
		out[n++] = (struct action){ (uint16_t)(c->kind0 + K_HOST), (uint16_t)(c->unit0[1] + g->cfg.partitions), c->subj0[1], hs->pc };
	/* the device's next step */
	if (hs->run ? pm_kernel_done(c, sv)
	            : (hs->busy || hs->dev < hs->pc) && (hp[hs->dev].op != H_PCOMMIT || wpq_empty(c, sv)))
		out[n++] = (struct action){ (uint16_t)(c->kind0 + K_DEVICE), (uint16_t)(c->unit0[1] + g->cfg.partitions), c->subj0[1], hs->dev };
	if (!timed)
		out[n++] = (struct action){ ACT_CRASH, UINT16_MAX, 0, 0 };
	return n;
}

/* The kernel is over when every warp exited and its atomics were
** performed (cudaDeviceSynchronize waits for both): every other component
** owes nothing. */
static int pm_kernel_done(const struct comp *c, const uint8_t *sv)
{
	return compose_others_quiescent(c, sv);
}

/* Done when the host ran all of its steps and the device all of its
** work (the program's end waits for the device). */
static int quiescent(const struct comp *c, const uint8_t *sv)
{
	const struct pm_host *hs = host(c, sv);
	int n;
	steps(c, sv, &n);
	return hs->pc >= n && hs->dev >= n && !hs->run;
}

/* Words of step st's variable (its element, or all of it); 0 when a
** computed element (%hK + index) lies past the variable. */
static int var_words(const struct comp *c, const uint8_t *sv, const struct host_step *st, uint32_t *first,
                     uint32_t *n)
{
	const struct symbol *s = &c->g->prog->syms[st->sym];
	uint64_t k = st->index >= 0 ? (uint64_t)st->index : 0;
	if (st->ireg >= 0)
		k += hreg(c, sv)[st->ireg];
	*first = s->base / 4 + (uint32_t)k;
	*n = st->index >= 0 ? 1 : s->nelems;
	return k < s->nelems;
}

/* Operand i (1, 2) of step st: a register, or its value (value2). */
static uint32_t host_operand(const struct comp *c, const uint8_t *sv, const struct host_step *st, int i)
{
	return st->reg[i] >= 0 ? hreg(c, sv)[st->reg[i]] : i == 1 ? st->value : st->value2;
}

/* The first step from `from` on that is device work (n: none). */
static uint16_t next_device_step(const struct comp *c, const uint8_t *sv, int from)
{
	int n, k = from;
	const struct host_step *st = steps(c, sv, &n);
	while (k < n && st[k].op != H_LAUNCH && st[k].op != H_L2WB && st[k].op != H_COPY && st[k].op != H_PCOMMIT)
		k++;
	return (uint16_t)k;
}

/* Does step st apply to CTA cta (its `where` condition)?  layout()
** checked that the variable has an element for every CTA. */
static int cta_selected(const struct comp *c, const uint8_t *sv, const struct host_step *st, unsigned cta)
{
	const struct gpu *g = c->g;
	if (!st->where)
		return 1;
	const struct symbol *s = &g->prog->syms[st->wsym];
	return alu_cmp(st->wcmp, s->type, ((const uint32_t *)sv)[s->base / 4 + cta], st->wvalue);
}

static void start_kernel(const struct comp *c, uint8_t *sv)
{
	const struct comp *wc = WC(c);
	memset(sv + wc->off, 0, wc->size); /* warps start afresh */
	wc->def->init(wc, sv);
	host(c, sv)->run = 1;
	po_launch(c->g, rec(c, sv));
}

static void init(const struct comp *c, uint8_t *sv)
{
	const struct gpu *g = c->g;
	struct pm_host *hs = host(c, sv);
	/* the initial data is in device memory, i.e. NVM */
	memcpy(nvm(c, sv), sv, 4 * (size_t)G_WORDS(g)); /* the mem slice starts the vector */
	hs->dev = next_device_step(c, sv, 0);
	/* a concrete run starts: the warps (listed before this component)
	** may ask may_issue before pending_run() sees the new run */
	struct pm_pending *p = c->priv;
	if (p->run)
		p->passes = 0;
}

/* One host step.  Device work is only queued; a host store goes through
** the L2 like a kernel's; `persist` is the host's clwb; sfence into
** persistent host memory: the variable is durable at once. */
static void host_step(const struct comp *c, uint8_t *sv)
{
	const struct gpu *g = c->g;
	struct pm_host *hs = host(c, sv);
	int ns;
	const struct host_step *st = &steps(c, sv, &ns)[hs->pc];
	uint32_t *vis = (uint32_t *)sv, first = 0, n = 0, *r = hreg(c, sv);
	if (st->sym >= 0 && st->op != H_COPY && !var_words(c, sv, st, &first, &n)) {
		hs->fault = 1; /* an element past its variable: the recovery faults */
		return;
	}
	switch (st->op) {
	case H_IF: /* recovery: the host reads device memory, so it waits for
		   ** the device like a sync (enabled once it caught up) */
	case H_WHILE:
		if (!alu_cmp(st->cmp, st->sym >= 0 ? g->prog->syms[st->sym].type : VT_U32,
		             st->sym >= 0 ? vis[first] : r[st->reg[1]], st->reg[2] >= 0 ? r[st->reg[2]] : st->value)) {
			hs->pc = (uint16_t)st->skip; /* its `end`: past it */
			hs->dev = next_device_step(c, sv, st->skip); /* the block's device work is not queued */
		}
		break;
	case H_LOOP: /* back to its while, which tests again */
		hs->pc = (uint16_t)st->skip;
		return;
	case H_LD:
		r[st->reg[0]] = vis[first];
		break;
	case H_MOV:
	case H_ADD:
	case H_SUB:
	case H_MUL: {
		uint32_t a = host_operand(c, sv, st, 1), b = host_operand(c, sv, st, 2);
		r[st->reg[0]] = st->op == H_MOV ? a : st->op == H_ADD ? a + b : st->op == H_SUB ? a - b : a * b;
		break;
	}
	case H_STORE:
		for (uint32_t k = 0; k < n; k++) {
			vis[first + k] = host_operand(c, sv, st, 1);
			pm_dirty(c, sv, first + k);
			po_stored(g, rec(c, sv), first + k);
		}
		break;
	case H_PERSIST:
		for (uint32_t k = 0; k < n; k++) {
			uint8_t *f = &flags(c, sv)[first + k];
			int was = *f & PM_DIRTY;
			nvm(c, sv)[first + k] = vis[first + k];
			po_move(g, rec(c, sv), PO_NVM, PO_VIS, first + k);
			if (*f & PM_INWPQ)
				hs->ninwpq--;
			*f &= PM_TRANSIT; /* a st.wt on its way still arrives */
			dirty_count(c, first + k, was, 0);
			if (was && !line_has(c, sv, line_of(g, first + k), PM_DIRTY))
				lru_clean(c, line_of(g, first + k));
			if (!*f && wt_words(c) && waited(c, wt_mask(c, sv, first + k))) /* its queued entry is gone */
				wt_acked(c, sv, first + k);
		}
		break;
	default: /* sync (enabled once the device caught up), end; device work: queued */
		break;
	}
	hs->pc++;
}

/* One device step.  A kernel ends when every warp exited and its atomics
** were performed; cudaL2WB writes back a line per step and cudaMemcpy
** copies a word per step (through the L2), so a crash can hit them
** mid-way (a concrete run: every dirty line at once, l2wb_cost(), and a
** destination line per step); pcommit is enabled once every WPQ is
** empty. */
static void device_step(const struct comp *c, uint8_t *sv)
{
	const struct gpu *g = c->g;
	struct pm_host *hs = host(c, sv);
	uint32_t *vis = (uint32_t *)sv;
	int ns;
	if (hs->run) { /* the kernel is over */
		hs->run = 0;
	} else {
		const struct host_step *st = &steps(c, sv, &ns)[hs->dev];
		hs->busy = 1;
		switch (st->op) {
		case H_LAUNCH: /* with `where`, only the CTAs it selects */
			start_kernel(c, sv);
			for (unsigned w = 0; w < g->nwarps; w++)
				if (!cta_selected(c, sv, st, gpu_cta_of(g, w))) {
					memset(gpu_warp(g, sv, w), 0, g->warp_bytes);
					gpu_warp(g, sv, w)->status = W_DONE;
				}
			return;
		case H_L2WB:
			if (!l2wb_step(c, sv, &hs->cursor))
				return;
			break;
		case H_COPY: {
			/* with `where`, CTA k owns the k-th equal slice of the arrays */
			uint32_t n = st->index >= 0 ? 1 : g->prog->syms[st->sym].nelems, per = n / g->cfg.ctas;
			if (!hs->cursor)
				hs->cursor = 1;
			while (st->where && hs->cursor - 1u < n && !cta_selected(c, sv, st, (hs->cursor - 1u) / per))
				hs->cursor++;
			if (hs->cursor - 1u < n) {
				/* a word a step; a concrete run (no crash between) moves
				** the destination's whole line a step, as the copy engine
				** does, while the elements are selected */
				uint32_t line = UINT32_MAX;
				do {
					uint32_t k = hs->cursor - 1u;
					uint32_t off = st->index >= 0 ? (uint32_t)st->index : k;
					uint32_t soff = st->index >= 0 ? st->value : k;
					uint32_t d = g->prog->syms[st->sym].base / 4 + off;
					if (line != UINT32_MAX && line_of(g, d) != line)
						break;
					line = line_of(g, d);
					vis[d] = vis[g->prog->syms[st->sym2].base / 4 + soff];
					pm_dirty(c, sv, d);
					po_stored(g, rec(c, sv), d);
					hs->cursor++;
				} while (((const struct pm_pending *)c->priv)->run && hs->cursor - 1u < n &&
				         (!st->where || cta_selected(c, sv, st, (hs->cursor - 1u) / per)));
				return;
			}
			hs->cursor = 0;
			break;
		}
		default: /* pcommit: the WPQs are empty */
			break;
		}
	}
	hs->busy = 0;
	hs->dev = next_device_step(c, sv, hs->dev + 1);
}

/* The st.wt of word i arrives at its controller's WPQ. */
static void wt_arrive(const struct comp *c, uint8_t *sv, uint32_t i)
{
	flags(c, sv)[i] &= (uint8_t)~PM_TRANSIT;
	into_wpq(c, sv, i, transit(c, sv)[i], NULL);
	po_move(c->g, rec(c, sv), PO_WPQ, PO_TRANSIT, i);
	transit(c, sv)[i] = 0;
	if (c->g->cfg.wpq_durable) /* in the persistence domain now */
		wt_acked(c, sv, i);
}

static void apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	uint32_t i = a->arg;
	switch (a->kind - c->kind0) {
	case K_EVICT:
		write_back(c, sv, i);
		break;
	case K_CLWB_DONE: {
		write_back(c, sv, i); /* a clean line just acknowledges */
		int freed = ack(c, sv, clwb_mask(c, sv, i));
		if (freed || wpq_empty(c, sv)) /* as wt_acked */
			pm_wake(c, sv);
		break;
	}
	case K_HOST:
		host_step(c, sv);
		break;
	case K_DEVICE:
		device_step(c, sv);
		break;
	case K_WT_ARRIVE: {
		const struct pm_pending *p = c->priv;
		wt_arrive(c, sv, i);
		/* concrete mode: the line's other words that have crossed
		** arrive with it -- a warp's st.wt to a line is one request to
		** the L2 (GPGPU-Sim: one access a line), not a word a cycle */
		for (uint32_t k = line_of(c->g, i); p->run && p->ready && k < line_end(c->g, i); k++)
			if (flags(c, sv)[k] & PM_TRANSIT && p->ready[c->subj0[0] + k] <= p->now)
				wt_arrive(c, sv, k);
		break;
	}
	case K_WPQ_DRAIN: { /* the line's entry, in one NVM write */
		uint8_t *f = flags(c, sv);
		uint32_t *q = wpq(c, sv);
		for (uint32_t k = i, end = line_end(c->g, i); k < end; k++) {
			if (!(f[k] & PM_INWPQ))
				continue;
			nvm(c, sv)[k] = q[k];
			po_move(c->g, rec(c, sv), PO_NVM, PO_WPQ, k);
			q[k] = 0;
			f[k] &= (uint8_t)~PM_INWPQ;
			host(c, sv)->ninwpq--;
			if (!(f[k] & PM_TRANSIT)) /* else a newer st.wt is still on its way */
				wt_acked(c, sv, k);
		}
		break;
	}
	default:
		break;
	}
	po_prune(c->g, rec(c, sv), flags(c, sv), PM_INWPQ);
}

static void word_name(const struct comp *c, uint32_t i, struct strbuf *out)
{
	po_word_name(c->g, i, out);
}

static void describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	const struct gpu *g = c->g;
	static const char *const hname[] = { "cudaDeviceSynchronize()", "cudaL2WB()", "pcommit",
		"launch the kernel", "cudaMemcpy", "store", "persist (host clwb; sfence: durable)", "if", "end",
		"ld", "mov", "add", "sub", "mul", "while", "end (of while)" };
	switch (a->kind == ACT_CRASH ? -1 : (int)(a->kind - c->kind0)) {
	case K_HOST:
	case K_DEVICE: {
		const struct pm_host *hs = host(c, sv);
		int dev = a->kind == c->kind0 + K_DEVICE;
		if (dev && hs->run) {
			sb_puts(out, "device: the kernel is over (every warp exited, its atomics performed)");
			return;
		}
		int ns;
		const struct host_step *st = &steps(c, sv, &ns)[a->arg];
		sb_printf(out, "%s%s step %u: %s", dev ? "device: " : "", hs->rec ? "recovery" : "host", a->arg + 1,
		          hname[st->op]);
		if (!dev && (st->op == H_LAUNCH || st->op == H_L2WB || st->op == H_COPY || st->op == H_PCOMMIT))
			sb_puts(out, " (queued for the device)");
		if (dev && st->op == H_PCOMMIT)
			sb_puts(out, " (WPQs drained)");
		if (st->op >= H_LD && st->op <= H_MUL)
			sb_printf(out, " %%h%d <-", st->reg[0]);
		if (st->sym >= 0 && st->op != H_LAUNCH) {
			sb_printf(out, " %s", g->prog->syms[st->sym].name);
			if (st->ireg >= 0) /* and the element it names now */
				sb_printf(out, "[%%h%d + %ld = %u]", st->ireg, st->index, hreg(c, sv)[st->ireg] + (uint32_t)st->index);
			else if (st->index >= 0)
				sb_printf(out, "[%ld]", st->index);
		} else if (st->op == H_IF || st->op == H_WHILE) {
			sb_printf(out, " %%h%d", st->reg[1]);
		}
		if (st->op == H_IF || st->op == H_WHILE) {
			static const char *const cmp[] = { "==", "!=", "<", "<=", ">", ">=" };
			sb_printf(out, " %s ", (unsigned)st->cmp < 6 ? cmp[st->cmp] : "?");
			if (st->reg[2] >= 0)
				sb_printf(out, "%%h%d (%u)", st->reg[2], hreg(c, sv)[st->reg[2]]);
			else
				sb_printf(out, "%u", st->value);
		}
		for (int k = 1; st->op >= H_MOV && st->op <= H_MUL && k <= (st->op == H_MOV ? 1 : 2); k++) {
			if (st->reg[k] >= 0)
				sb_printf(out, "%s %%h%d (%u)", k > 1 ? "," : "", st->reg[k], hreg(c, sv)[st->reg[k]]);
			else
				sb_printf(out, "%s %u", k > 1 ? "," : "", k == 1 ? st->value : st->value2);
		}
		if (st->op == H_STORE && st->reg[1] >= 0)
			sb_printf(out, " = %%h%d (%u)", st->reg[1], hreg(c, sv)[st->reg[1]]);
		else if (st->op == H_STORE)
			sb_printf(out, " = %u", st->value);
		if (st->op == H_COPY) {
			sb_printf(out, " <- %s", g->prog->syms[st->sym2].name);
			if (st->index >= 0)
				sb_printf(out, "[%u]", st->value);
		}
		if (dev && (st->op == H_L2WB || st->op == H_COPY)) {
			uint32_t n = st->op == H_L2WB ? G_WORDS(g) : st->index >= 0 ? 1 : g->prog->syms[st->sym].nelems;
			uint32_t k = hs->cursor ? hs->cursor - 1u : 0;
			if (k < n)
				sb_printf(out, ", word %u of %u", k + 1, n);
			else
				sb_puts(out, ", done");
		}
		return;
	}
	case K_EVICT: sb_puts(out, "L2 evicts dirty "); break;
	case K_CLWB_DONE: sb_puts(out, "clwb reaches the WPQ for "); break;
	case K_WPQ_DRAIN: sb_puts(out, "WPQ drains to NVM: "); break;
	case K_WT_ARRIVE:
		sb_puts(out, "st.wt reaches its memory controller's WPQ: ");
		word_name(c, a->arg, out);
		return;
	default: sb_puts(out, "CRASH: power fails; only the persistence domain survives"); return;
	}
	/* a line action: the words it moves (a clean line: the line) */
	uint8_t f = a->kind == c->kind0 + K_WPQ_DRAIN ? PM_INWPQ : PM_DIRTY;
	if (!line_has(c, sv, a->arg, f)) {
		word_name(c, a->arg, out);
		if (line_words(g) > 1)
			sb_puts(out, "'s line (clean)");
		return;
	}
	const char *sep = "";
	for (uint32_t i = a->arg; i < line_end(g, a->arg); i++)
		if (flags(c, sv)[i] & f) {
			sb_puts(out, sep);
			word_name(c, i, out);
			sep = ", ";
		}
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	const struct gpu *g = c->g;
	const uint8_t *f = flags(c, sv);
	for (uint32_t i = 0; i < G_WORDS(g); i++) {
		if (!f[i] && nvm(c, sv)[i] == ((const uint32_t *)sv)[i])
			continue;
		sb_puts(out, "  ");
		word_name(c, i, out);
		sb_printf(out, ": NVM %u%s", nvm(c, sv)[i], f[i] & PM_DIRTY ? ", dirty in L2" : "");
		if (f[i] & PM_INWPQ)
			sb_printf(out, ", WPQ holds %u", wpq(c, sv)[i]);
		if (f[i] & PM_TRANSIT)
			sb_printf(out, ", st.wt of %u in transit", transit(c, sv)[i]);
		sb_putc(out, '\n');
	}
}

/* Re-execute the kernel on img: warps start afresh and run along one
** schedule -- the first warp that can issue, atomics performed in order --
** which is every schedule's result for a deterministic kernel (gpumc
** check verifies that separately).  For `check idempotent`. */
static int reexecute(const struct comp *c, uint8_t *img, struct strbuf *why)
{
	const struct gpu *g = c->g;
	const struct model *m = c->m;
	struct pm_host *hs = host(c, img);
	start_kernel(c, img);
	hs->pc = hs->dev = (uint16_t)g->prog->nhost; /* the kernel alone: no host, no queued work */
	hs->busy = 0;
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	int ok = 0;
	for (unsigned long steps = 0; steps < 10000000ul; steps++) {
		unsigned n = m->enabled(m, img, act), k;
		/* progress only: warps, ROPs, clwb and WPQ completions (which
		** sfence and pcommit wait for); no evictions, no crash */
		for (k = 0; k < n; k++)
			if (act[k].kind != ACT_CRASH && !(compose_kind_flags(m, act[k].kind) & KF_ENV))
				break;
		if (k == n) {
			ok = pm_kernel_done(c, img);
			if (!ok)
				sb_puts(why, "the re-executed kernel deadlocks");
			break;
		}
		m->apply(m, img, &act[k]);
		if (m->status(m, img) == MS_FAULT) {
			sb_puts(why, "the re-executed kernel faults");
			break;
		}
	}
	free(act);
	if (!ok && !why->len)
		sb_puts(why, "the re-executed kernel does not finish");
	return ok;
}

/* {=== Recovery: a program on the machine, explored, crashes and all ===== */

/* One exploration of the recovery from a crash image.  The recovery
** program runs on the machine like the host's (its stores through the
** L2, its copies and launches device work), every way it can go; a crash
** can hit it anywhere while crashes remain, and the recovery starts again
** from what that crash left.  bad() judges every state in which the
** recovery is over. */
struct rec {
	const struct comp *c;
	int (*bad)(void *ctx, const uint8_t *sv);
	void *ctx;
	struct sideset *memo; /* (image, crashes left) already explored */
	struct strbuf *why;   /* what went wrong, then the steps there */
	uint8_t *img;         /* the bad end state */
	struct strbuf prefix; /* the steps of the recoveries this one follows */
};

struct rec_frame {
	uint8_t *sv;
	struct action *act;
	unsigned n, next; /* act[next - 1] led to the frame above */
};

struct rec_stack {
	struct rec_frame *f;
	unsigned cap, top;
};

/* The machine right after a crash that left img, the recovery at its
** first step: memory and NVM hold the durable values, caches and queues
** are empty, no warp runs. */
static void rec_start(const struct comp *c, const uint8_t *img, uint8_t *sv)
{
	const struct gpu *g = c->g;
	memcpy(sv, img, c->m->sv_size);
	memcpy(nvm(c, sv), sv, 4 * (size_t)G_WORDS(g));
	start_kernel(c, sv);
	for (unsigned w = 0; w < g->nwarps; w++) {
		memset(gpu_warp(g, sv, w), 0, g->warp_bytes);
		gpu_warp(g, sv, w)->status = W_DONE;
	}
	struct pm_host *hs = host(c, sv);
	memset(hs, 0, sizeof *hs);
	hs->rec = 1;
	hs->dev = next_device_step(c, sv, 0);
}

/* The steps of the recoveries so far and of this one, into out, a line
** each. */
static void rec_path(const struct rec *r, const struct rec_stack *k, struct strbuf *out)
{
	sb_puts(out, sb_str(&r->prefix));
	for (unsigned i = 0; i < k->top; i++) {
		const struct action *a = &k->f[i].act[k->f[i].next - 1];
		sb_puts(out, "\n    ");
		if (a->kind == ACT_CRASH)
			sb_puts(out, "CRASH: power fails again, during recovery");
		else
			model_describe(r->c->m, k->f[i].sv, a, out);
	}
}

/* Push sv: judge it first.  RECOVER_OK, or what went wrong in r. */
static int rec_push(struct rec *r, struct rec_stack *k, const uint8_t *sv)
{
	const struct model *m = r->c->m;
	if (k->top == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->f = xrealloc(k->f, sizeof *k->f * k->cap);
		for (unsigned i = k->top; i < k->cap; i++) {
			k->f[i].sv = xmalloc(m->sv_size);
			k->f[i].act = xmalloc(sizeof *k->f[i].act * (m->max_actions + 1));
		}
	}
	struct rec_frame *t = &k->f[k->top];
	memcpy(t->sv, sv, m->sv_size);
	t->n = m->enabled(m, t->sv, t->act);
	t->next = 0;
	int st = m->status(m, t->sv), moves = 0;
	for (unsigned i = 0; i < t->n; i++)
		moves += t->act[i].kind != ACT_CRASH;
	const char *fail = st == MS_FAULT ? (host(r->c, t->sv)->fault ? "the recovery faults: it names an element past its variable"
	                                                            : "the recovery faults")
	                   : st == MS_RUNNING && !moves ? "the recovery deadlocks" : NULL;
	if (fail || (st == MS_TERMINAL && r->bad(r->ctx, t->sv))) {
		if (fail)
			sb_puts(r->why, fail);
		else
			memcpy(r->img, t->sv, m->sv_size);
		sb_putc(r->why, '\n'); /* the reason, then the way there */
		rec_path(r, k, r->why);
		return fail ? RECOVER_FAIL : RECOVER_BAD;
	}
	k->top++;
	return RECOVER_OK;
}

static int rec_explore(struct rec *r, const uint8_t *img, unsigned left);

/* The crash that act[next - 1] of the top frame is: recover from what it
** leaves, once per (image, crashes left).  img: room for the key. */
static int rec_crash(struct rec *r, struct rec_stack *k, unsigned left, uint8_t *img)
{
	const struct model *m = r->c->m;
	size_t n = m->sv_size;
	int is_new;
	m->durable(m, k->f[k->top - 1].sv, img);
	img[n] = (uint8_t)(left - 1); /* the key: the image and the crashes left */
	ss_put(r->memo, img, n + 1, &is_new);
	if (!is_new)
		return RECOVER_OK;
	struct strbuf inner, outer = r->prefix;
	sb_init(&inner);
	rec_path(r, k, &inner);
	sb_puts(&inner, "\n  the recovery again, from what that crash left:");
	r->prefix = inner;
	int res = rec_explore(r, img, left - 1);
	sb_free(&r->prefix);
	r->prefix = outer;
	return res;
}

static int rec_explore(struct rec *r, const uint8_t *img, unsigned left)
{
	const struct model *m = r->c->m;
	size_t n = m->sv_size;
	/* an arena, not Judy: a limit can stop the run here, and freeing a
	** Judy set of many states node by node took most of a second */
	struct visited *seen = vs_new(n, 0);
	struct rec_stack k = { NULL, 0, 0 };
	uint8_t *next = xmalloc(n), *img2 = xmalloc(n + 1);
	int is_new;
	rec_start(r->c, img, next);
	vs_find_or_put(seen, next, state_hash(next, n), &is_new);
	int res = rec_push(r, &k, next);
	while (res == RECOVER_OK && k.top) {
		/* the run's limits reach the recovery's exploration too */
		if (r->bad(r->ctx, NULL)) {
			res = RECOVER_CUT;
			break;
		}
		struct rec_frame *t = &k.f[k.top - 1];
		if (t->next == t->n) {
			k.top--;
			continue;
		}
		const struct action *a = &t->act[t->next++];
		if (a->kind == ACT_CRASH) {
			if (left)
				res = rec_crash(r, &k, left, img2);
			continue;
		}
		memcpy(next, t->sv, n);
		m->apply(m, next, a);
		vs_find_or_put(seen, next, state_hash(next, n), &is_new);
		if (is_new)
			res = rec_push(r, &k, next);
	}
	for (unsigned i = 0; i < k.cap; i++) {
		free(k.f[i].sv);
		free(k.f[i].act);
	}
	free(k.f);
	free(next);
	free(img2);
	vs_free(seen);
	return res;
}

static int recover(const struct comp *c, uint8_t *img, int (*bad)(void *ctx, const uint8_t *sv), void *ctx,
                   struct strbuf *why)
{
	struct rec r = { c, bad, ctx, ss_new(), why, img, { 0 } };
	sb_init(&r.prefix);
	sb_puts(&r.prefix, "  the recovery:");
	int res = rec_explore(&r, img, c->g->cfg.crashes - 1);
	sb_free(&r.prefix);
	ss_free(r.memo);
	return res;
}

/* }=== */

static void durable(const struct comp *c, const uint8_t *sv, uint8_t *img)
{
	const struct gpu *g = c->g;
	memcpy(img, nvm(c, sv), 4 * (size_t)G_WORDS(g)); /* the rest of img is zero */
	if (g->cfg.wpq_durable)
		for (uint32_t i = 0; i < G_WORDS(g); i++)
			if (flags(c, sv)[i] & PM_INWPQ)
				((uint32_t *)img)[i] = wpq(c, sv)[i];
}

/* {=== Concrete mode ==================================================== */

/* The warps in mask get an acknowledgement now: it reaches them lat_icnt
** later (and they are among p->acking). */
static void ack_crosses(const struct comp *c, const uint32_t *mask)
{
	struct pm_pending *p = c->priv;
	uint64_t at = p->now + c->g->cfg.lat_icnt;
	for (uint32_t k = 0; k < LAYOUT(c)->mw; k++) {
		if (!mask[k])
			continue;
		p->acking[k] |= mask[k];
		for (uint32_t b = mask[k]; b; b &= b - 1) {
			unsigned w = 32 * k + (unsigned)__builtin_ctz(b);
			if (p->acked[w] < at)
				p->acked[w] = at;
		}
	}
}

/* The acknowledgements action a (about to be applied) sends, as apply()
** decides them: a CLWB_DONE's to its line's waiters; a WT_ARRIVE's (durable
** WPQs) to the waiters of every word of the line that has crossed by now
** (they arrive together); a WPQ_DRAIN's to the waiters of the st.wt words
** it writes to NVM.  A warp that reaches its sfence or membar after one
** was sent, with nothing outstanding, passes no sooner than it arrives
** (timing_issue): the acknowledgement crosses back whether or not the
** warp is waiting yet. */
static void acks_cross(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	const struct pm_pending *p = c->priv;
	const uint8_t *f = flags(c, sv);
	uint32_t i = a->arg;
	if (a->kind == c->kind0 + K_CLWB_DONE) {
		ack_crosses(c, clwb_mask(c, sv, i));
		return;
	}
	int arrive = a->kind == c->kind0 + K_WT_ARRIVE;
	if (!wt_words(c) || (arrive ? !c->g->cfg.wpq_durable : a->kind != c->kind0 + K_WPQ_DRAIN))
		return;
	for (uint32_t k = line_of(c->g, i); k < line_end(c->g, i); k++)
		if (arrive ? f[k] & PM_TRANSIT && (k == i || (p->ready && p->ready[c->subj0[0] + k] <= p->now))
		           : (f[k] & (PM_INWPQ | PM_TRANSIT)) == PM_INWPQ)
			ack_crosses(c, wt_mask(c, sv, k));
}

/* May the action being timed release waiting warp w from its fence?
** Its sfence or membar: if nothing is outstanding or the action
** acknowledges it (p->acking); pcommit: if the WPQs are empty after it
** (emptied) or already. */
static int released(const struct comp *c, const uint8_t *sv, unsigned w, int emptied)
{
	const struct gpu *g = c->g;
	const struct pm_pending *p = c->priv;
	unsigned pc = gpu_pc(g, sv, w);
	enum opcode op = pc < (unsigned)g->prog->nins ? g->prog->ins[pc].op : OP_EXIT;
	if (op == OP_PCOMMIT)
		return emptied || wpq_empty(c, sv);
	return (op == OP_SFENCE || op == OP_MEMBAR) && (!pw(c, sv, w)->outstanding || p->acking[w / 32] >> w % 32 & 1);
}

static void timing(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                   uint64_t (*rnd)(void *), void *rng)
{
	(void)rnd, (void)rng;
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	struct pm_pending *p = c->priv;
	int emptied = 0; /* the WPQs are empty after a: pcommit passes */
	t->busy = 1;
	t->n = 0;
	for (uint32_t k = 0; k < LAYOUT(c)->mw; k++) /* a few words: no memset call */
		p->acking[k] = 0;
	if (a->kind == c->kind0 + K_WPQ_DRAIN) {
		/* the controller moves the entry's bytes to NVM at mc_bw bytes a
		** cycle; its lat_nvm_write latency ran since it was queued */
		unsigned bytes = 0;
		for (uint32_t k = a->arg; k < line_end(g, a->arg); k++)
			bytes += flags(c, sv)[k] & PM_INWPQ ? 4 : 0;
		t->busy = (bytes + cf->mc_bw - 1) / cf->mc_bw;
		emptied = bytes / 4 == host(c, sv)->ninwpq;
		acks_cross(c, sv, a);
	} else if (a->kind == c->kind0 + K_CLWB_DONE || a->kind == c->kind0 + K_WT_ARRIVE ||
	           a->kind == c->kind0 + K_EVICT) { /* in the WPQ now */
		emptied = a->kind == c->kind0 + K_CLWB_DONE && wpq_empty(c, sv) && !line_has(c, sv, a->arg, PM_DIRTY);
		acks_cross(c, sv, a);
		t->upd[t->n].subject = c->subj0[0] + a->arg;
		t->upd[t->n++].delay = cf->lat_nvm_write;
		if (a->kind == c->kind0 + K_EVICT) /* a capacity eviction acknowledges no one */
			return;
	} else { /* a host or device step: one cycle; a cudaL2WB pass's start
		** holds the device back while the partitions write back; a
		** copy's start while its first source line is read from NVM
		** (lat_global; the copy engine pipelines the later reads, a
		** line a cycle) */
		const struct pm_host *hs = host(c, sv);
		int ns;
		enum host_op op = a->kind == c->kind0 + K_DEVICE && !hs->run && !hs->cursor ? steps(c, sv, &ns)[hs->dev].op
		                                                                           : H_SYNC;
		if (op == H_L2WB || op == H_COPY) {
			unsigned d = op == H_COPY ? cf->lat_global : l2wb_cost(c, sv, t, 0);
			t->upd[t->n].subject = c->subj0[1];
			t->upd[t->n++].delay = d ? d : 1;
		}
		return;
	}
	/* an acknowledgement (a clwb's, a st.wt's, pcommit's empty WPQs)
	** crosses the interconnect back to the warp: a warp this action may
	** release from sfence, membar or pcommit goes on lat_icnt later.  Not
	** one whose wait clear() refuses before and after it (acknowledged
	** by someone else, pcommit before non-empty WPQs): the action that
	** releases it sets its ready time again, and nothing reads it while
	** it waits (the ready sets hold only READY warps) */
	check_waits(c, sv);
	unsigned n0 = t->n;
	for (uint32_t k = 0; k < LAYOUT(c)->mw; k++)
		for (uint32_t b = wake_candidates(p, k, emptied || wpq_empty(c, sv)) | p->acking[k]; b; b &= b - 1) {
			unsigned w = 32 * k + (unsigned)__builtin_ctz(b);
			if (!WARPS(c)->waiting(WC(c), sv, w))
				p->waits[k] &= ~(1u << w % 32);
			else if (released(c, sv, w, emptied)) {
				t->upd[t->n].subject = REQ(c, P_WARPS)->c->subj0[0] + w;
				t->upd[t->n++].delay = cf->lat_icnt;
			}
		}
	for (unsigned w = 0, k = n0; p->check && w < g->nwarps; w++) /* the same as a scan of every warp */
		if (WARPS(c)->waiting(WC(c), sv, w) && released(c, sv, w, emptied) &&
		    (k >= t->n || t->upd[k++].subject != REQ(c, P_WARPS)->c->subj0[0] + w)) {
			fprintf(stderr, "gpumc: GPUMC_CHECK_PERSIST: warp %u is released, but not timed\n", w);
			abort();
		}
}

/* The SM of mask m's warps folded into sm (REACH_NONE: none yet), -1
** once two differ. */
static int mask_reach(const struct comp *c, const uint32_t *m, int sm)
{
	for (uint32_t k = 0; k < LAYOUT(c)->mw; k++)
		for (uint32_t b = m[k]; b; b &= b - 1) {
			int s = (int)gpu_sm_of(c->g, 32 * k + (unsigned)__builtin_ctz(b));
			if (sm != REACH_NONE && sm != s)
				return -1;
			sm = s;
		}
	return sm;
}

/* model.step's reach: the SM whose warps action a may wake (readyset.c keeps
** the other SMs' ready sets; every action reaching all of them was 17%
** of a 64-warp lbm strict-clwb run).  A line action wakes warps only
** through pm_wake(), which resumes the warps an acknowledgement frees
** (those of the masks it clears) and, once the WPQs are empty, those at
** pcommit anywhere; a capacity eviction or a volatile WPQ's st.wt
** arrival acknowledges no one.  The gate (may_issue) reads only the
** host's state and the warps' own l2wb passes; the ready times timing()
** sets are waiting warps', which no ready set holds.  Host and device
** steps may reach any SM. */
static int reach(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	const uint8_t *f = flags(c, sv);
	uint32_t i = a->arg, queued = 0;
	int sm = REACH_NONE;
	switch (a->kind - c->kind0) {
	case K_EVICT:
		return REACH_NONE;
	case K_CLWB_DONE: /* a clean line leaves the WPQs as they are */
		return !line_has(c, sv, i, PM_DIRTY) && wpq_empty(c, sv) ? -1 : mask_reach(c, clwb_mask(c, sv, i), sm);
	case K_WT_ARRIVE: /* the line's words that crossed arrive with it */
		for (uint32_t k = line_of(c->g, i); c->g->cfg.wpq_durable && k < line_end(c->g, i) && sm != -1; k++)
			if (f[k] & PM_TRANSIT)
				sm = mask_reach(c, wt_mask(c, sv, k), sm);
		return sm;
	case K_WPQ_DRAIN:
		for (uint32_t k = i; k < line_end(c->g, i) && sm != -1; k++)
			if (f[k] & PM_INWPQ) {
				queued++;
				if (wt_words(c) && !(f[k] & PM_TRANSIT))
					sm = mask_reach(c, wt_mask(c, sv, k), sm);
			}
		return queued == host(c, sv)->ninwpq ? -1 : sm; /* the WPQs empty: pcommit */
	default:
		return -1;
	}
}

static const char *const counters[] = { "NVM line writes", "NVM bytes written" };

/* The NVM writes the cycle's actions queued (into_wpq) into the run's
** counters. */
static void tick(const struct comp *c, const uint8_t *sv, uint64_t cycles, uint64_t *ct)
{
	(void)sv, (void)cycles;
	struct pm_pending *p = c->priv;
	for (unsigned i = 0; i < 2; i++) {
		comp_count(c, ct, i, p->writes[i]);
		p->writes[i] = 0;
	}
}

/* }=== */

/* Add mask m's warps into out[warp]. */
static void count_waiters(const struct comp *c, const uint32_t *m, unsigned *out)
{
	for (uint32_t k = 0; k < LAYOUT(c)->mw; k++)
		for (unsigned w = 32 * k, b = m[k]; b; w++, b >>= 1)
			out[w] += b & 1;
}

/* PM-2: each warp's outstanding count against the masks. */
static int check_outstanding(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	unsigned *out = xcalloc(g->nwarps, sizeof *out), bad = 0;
	for (uint32_t i = 0; i < G_WORDS(g); i++) {
		if (i == line_of(g, i))
			count_waiters(c, clwb_mask(c, sv, i), out);
		if (wt_words(c))
			count_waiters(c, wt_mask(c, sv, i), out);
	}
	for (unsigned w = 0; w < g->nwarps && !bad; w++)
		if (out[w] != pw(c, sv, w)->outstanding) {
			sb_printf(why, "PM-2: warp %u counts %u outstanding acknowledgements, the masks hold %u", w,
			          pw(c, sv, w)->outstanding, out[w]);
			bad = 1;
		}
	free(out);
	return bad;
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	uint32_t nin = 0;
	for (uint32_t i = 0; i < G_WORDS(g); i++) {
		uint8_t f = flags(c, sv)[i];
		if (f & ~(PM_DIRTY | PM_INWPQ | PM_TRANSIT)) {
			sb_printf(why, "PM-4: word %u has flags 0x%x", i, f);
			return 1;
		}
		if (wt_words(c) && waited(c, wt_mask(c, sv, i)) && !(f & PM_TRANSIT) &&
		    (g->cfg.wpq_durable || !(f & PM_INWPQ))) {
			sb_printf(why, "PM-5: warps wait on a st.wt of word %u that is neither in transit nor queued", i);
			return 1;
		}
		nin += (f & PM_INWPQ) != 0;
	}
	if (nin != host(c, sv)->ninwpq) {
		sb_printf(why, "PM-3: %u words in WPQs, the counter says %u", nin, host(c, sv)->ninwpq);
		return 1;
	}
	const struct pm_host *hs = host(c, sv);
	int ns;
	const struct host_step *hp = steps(c, sv, &ns);
	if ((hs->busy && hs->dev >= hs->pc) || (hs->run && !(hs->dev == ns || (hs->busy && hp[hs->dev].op == H_LAUNCH)))) {
		sb_printf(why, "PM-6: the device is at host step %u (busy %u, kernel running %u) with the host at %u",
		          hs->dev + 1u, hs->busy, hs->run, hs->pc + 1u);
		return 1;
	}
	return check_outstanding(c, sv, why) || po_check(g, rec(c, sv), why);
}

static int persist_order(const struct comp *c, const uint8_t *sv, int mode, struct strbuf *why)
{
	return po_violated(c->g, rec(c, sv), flags(c, sv), PM_INWPQ, mode, why);
}

/* Partial-order reduction: a warp-local issue (ALU, branch, a load of a
** read-only variable) goes through no hook here (pm_op takes only st.wt,
** clwb and l2wb) and changes nothing this component keeps, durable or not.
** Its actions read no READY warp's registers or stack: EVICT, CLWB_DONE,
** WPQ_DRAIN and WT_ARRIVE touch words and wake waiting warps; the device
** step that ends a kernel needs every warp done, and the next launch waits
** for it (in-order stream), so neither fires while w is READY; the gate
** (may_issue) closes only when no kernel runs.  Host steps do run beside
** a launched kernel (and the recovery's beside its own), and a host store
** writes global words that the kernel may only read; and while an l2wb
** walks the L2 a global load waits (may_issue), so another warp's l2wb
** could disable it: global loads are not declared independent. */
static int por(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in)
{
	(void)c, (void)sv, (void)w;
	return !(in->op == OP_LD && in->space == SP_GLOBAL) && in->op != OP_EXIT; /* exit: an epoch ends */
}

static const struct port_mem mem_ops = { mem_fwd_word, mem_fwd_load, m_store, m_rmw, NULL, NULL };
static const struct port_order order_ops = { clear };
static const struct port_pm pm_ops = { pm_op, timing_issue, own_issue };
static const struct port_gate gate_ops = { may_issue };

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	switch (p) {
	case P_MEM: return &mem_ops;
	case P_ORDER: return &order_ops;
	case P_PM: return &pm_ops;
	case P_GATE: return &gate_ops;
	default: return NULL;
	}
}

/* A persistency model rewrites a private copy of the kernel. */
static int rewrite(struct gpu *g, struct strbuf *err)
{
	if (!g->cfg.pm_model)
		return 0;
	g->own = xcalloc(1, sizeof *g->own);
	program_clone(g->own, g->prog);
	g->prog = g->own;
	return pm_transform(g->own, &g->cfg, err) ? -1 : 0;
}

/* More than `most` global words for `what`: an error at the declaration
** of the variable that goes past it. */
static long too_many_words(const struct gpu *g, uint32_t most, const char *what, struct diag *d)
{
	const struct symbol *at = NULL;
	for (int i = 0; i < g->prog->nsyms; i++) {
		const struct symbol *s = &g->prog->syms[i];
		if (s->space == SP_GLOBAL && s->base / 4 + s->nelems > most && (!at || s->base < at->base))
			at = s;
	}
	diag_at(d, g->path, at ? at->line : 0, at ? at->col : 0,
	        "%s tracks at most %u global words (%s takes the memory to %u)", what, most, at ? at->name : "it",
	        G_WORDS(g));
	return -1;
}

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	if (g->cfg.line_bytes % 4) { /* lines hold whole words */
		diag_at(d, g->path, 0, 0, "the persist machine needs line_bytes a multiple of 4 (have %u)", g->cfg.line_bytes);
		return -1;
	}
	if (g->persist_order && G_WORDS(g) > UINT16_MAX) /* its record names words in u16 */
		return too_many_words(g, UINT16_MAX, "check persist_order", d);
	for (int i = 0; i < g->prog->nrecovery; i++) {
		const struct host_step *st = &g->prog->recovery[i];
		if (st->where && g->prog->syms[st->wsym].nelems < g->cfg.ctas) {
			diag_at(d, g->path, st->line, 1, "where %s[cta]: %u CTAs, but %s has %u elements",
			        g->prog->syms[st->wsym].name, g->cfg.ctas, g->prog->syms[st->wsym].name,
			        g->prog->syms[st->wsym].nelems);
			return -1;
		}
	}
	struct pm_layout lay = { 0 }, *pl = &lay;
	size_t gw = G_WORDS(g);
	uint32_t nlines = (G_WORDS(g) + g->cfg.line_bytes / 4 - 1) / (g->cfg.line_bytes / 4);
	for (int i = 0; i < g->prog->nins; i++) {
		if (g->prog->ins[i].wt && g->prog->ins[i].space == SP_GLOBAL)
			pl->wt_words = (uint32_t)gw;
		pl->l2wb |= g->prog->ins[i].op == OP_L2WB;
	}
	pl->mw = (g->nwarps + 31) / 32;
	pl->per = g->cfg.line_bytes / 4;
	pl->wpq = 4 * gw;
	pl->clwb = pl->wpq + 4 * gw;
	pl->wt = pl->clwb + 4 * (size_t)nlines * pl->mw;
	pl->transit = pl->wt + 4 * (size_t)pl->wt_words * pl->mw;
	pl->pw = pl->transit + 4 * (size_t)pl->wt_words;
	pl->host = pl->pw + sizeof(struct pm_warp) * g->nwarps;
	pl->flags = pl->host + sizeof(struct pm_host);
	pl->rec = (pl->flags + gw + 7) & ~(size_t)7;
	*align = 8;
	/* a partition's queue: twice its lines (lru_dirty) */
	uint32_t qcap = 2 * ((nlines + g->cfg.partitions - 1) / g->cfg.partitions) + 1;
	size_t qsize = (size_t)qcap * g->cfg.partitions;
	size_t awake_at = (sizeof(struct pm_pending) + nlines + 22 * (size_t)nlines + 8 * (size_t)g->nwarps + 12 * qsize + 16 * (size_t)lay.mw + 15) & ~(size_t)7;
	struct pm_pending *p = xcalloc(1, awake_at + 28 * (size_t)nlines);
	p->wake = (uint64_t *)((uint8_t *)p + ((sizeof *p + nlines + 7) & ~(size_t)7));
	p->since = p->wake + nlines;
	p->acked = p->since + nlines;
	p->qstamp = p->acked + g->nwarps;
	p->qline = (uint32_t *)(p->qstamp + qsize);
	p->qcap = qcap;
	p->line = p->qline + qsize;
	p->waits = p->line + nlines;
	p->refused = p->waits + lay.mw;
	p->pcommit = p->refused + lay.mw;
	p->acking = p->pcommit + lay.mw;
	p->ndirty_words = (uint16_t *)(p->acking + lay.mw);
	p->hwake = (uint64_t *)((uint8_t *)p + awake_at);
	p->hline = (uint32_t *)(p->hwake + nlines);
	p->hpos = p->hline + nlines;
	p->aw = p->hpos + nlines;
	p->in = p->aw + nlines;
	p->tmp = p->in + nlines;
	p->lay = lay;
	p->check = env_on("GPUMC_CHECK_PERSIST");
	p->plant = env_fault("persist");
	c->priv = p; /* one block: the composer frees priv */
	c->durable_key = 4 * gw; /* durable() writes the memory words, which start the image */
	c->max_actions = G_WORDS(g) + 3 * nlines + 3; /* line_actions: a st.wt per word, 3 per line; host, device, crash */
	c->units[0] = (struct pool_req){ "partition", g->cfg.partitions };
	/* per partition its memory controller (WPQ drains to NVM), apart from
	** the partition's L2 side (clwb completions and st.wt arrivals, beside
	** the ROP); then the host */
	c->units[1] = (struct pool_req){ "controller", g->cfg.partitions + 1 };
	c->subjects[0] = (struct pool_req){ "word", G_WORDS(g) };
	c->subjects[1] = (struct pool_req){ "host", 1 };
	return (long)(pl->rec + po_size(g) + (uses_regs(g) ? 4 * HOST_REGS : 0));
}

/* The recovery named an element past its variable (%hK + N). */
static int faulted(const struct comp *c, const uint8_t *sv)
{
	return host(c, sv)->fault;
}

static int idempotent(const struct comp *c, struct strbuf *why)
{
	return idem_kernel(c->g->prog, why);
}

static const struct kind_def kinds[] = {
	[K_EVICT] = { "evict", SELF, KF_ENV },
	[K_CLWB_DONE] = { "clwb-done", SELF | PORT(P_WARPS), 0 },
	[K_WPQ_DRAIN] = { "wpq-drain", SELF | PORT(P_WARPS), 0 },
	[K_HOST] = { "host", SELF | PORT(P_MEM), 0 },
	[K_WT_ARRIVE] = { "wt-arrive", SELF | PORT(P_WARPS), 0 },
	[K_DEVICE] = { "device", SELF | PORT(P_MEM) | PORT(P_WARPS), 0 },
};

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def params[] = {
	{ "wpq", 0, 0, 1, "volatile|durable", GP(wpq_durable), "are the write-pending queues in the persistence domain?" },
	{ "persistency", 0, 0, 5, "none|strict-clwb|strict-wt|epoch-kernel|epoch-cta|epoch-loop", GP(pm_model), "rewrite the kernel for a persistency model (persist_models.c)" },
	{ "scope", 1, 1, 1000, NULL, GP(scope), "epoch-loop: iterations of the outermost loop per epoch" },
	{ "loop_sync", 0, 0, 1, "warp|cta", GP(loop_sync), "epoch-loop: each warp ends its epoch with its own l2wb (warp), or the CTA does, as Fig. 5 (cta: bar.sync, thread 0's l2wb, bar.sync; deadlocks where trip counts differ)" },
	{ "epoch_op", 0, 0, 3, "l2wb|clwb|wt|clwb-at-store", GP(epoch_op), "epoch-cta: how the CTA's epoch persists (clwb: Algorithm 1, the paper's default, its address chains replayed at the end; clwb-at-store: a clwb right after each store)" },
	{ "crashes", 2, 1, 8, NULL, GP(crashes), "crashes per run: the first, then up to crashes-1 during recovery" },
	{ "lat_global", 192, 1, 100000, NULL, GP(lat_global), "global access latency (NVM read 160 ns at 1.2 GHz)" },
	{ "global_jitter", 0, 0, 100000, NULL, GP(global_jitter), "random extra global latency in [0, global_jitter]" },
	{ "lat_nvm_write", 576, 1, 1000000, NULL, GP(lat_nvm_write), "cycles a memory controller needs to write a WPQ entry to NVM (480 ns)" },
	{ "l2_kb", 128, 1, 1048576, NULL, GP(l2_kb), "L2 per partition in KB (Table II: 2048 KB in 16 partitions); concrete mode evicts the line dirty the longest past it" },
	{ "mc_bw", 32, 1, 4096, NULL, GP(mc_bw), "bytes a memory controller writes to NVM per cycle (307 GB/s over 8 controllers at 1.2 GHz)" },
	{ "l2wb_scan", 0, 0, 1, "dirty|all", GP(l2wb_scan), "concrete mode: an l2wb pass costs each partition's dirty lines (dirty) or walks all its L2 lines (all, GPGPU-Sim)" },
};

const struct comp_def comp_persist = {
	.name = "persist", .desc = "L2 dirty words, evictions, clwb, st.wt, l2wb, pcommit, sfence, WPQ per memory controller, NVM, crash points, host program",
	.params = params, .nparams = sizeof params / sizeof params[0],
	.provides = PORT(P_MEM) | PORT(P_ORDER) | PORT(P_PM) | PORT(P_GATE), .requires = PORT(P_MEM) | PORT(P_WARPS),
	.kinds = kinds, .nkinds = 6, .port_writes = SELF | PORT(P_MEM) | PORT(P_WARPS),
	.layout = layout, .init = init, .enabled = enabled, .apply = apply, .quiescent = quiescent, .check = check,
	.describe = describe, .print = print, .timing = timing, .reach = reach, .durable = durable, .recover = recover,
	.counters = counters, .ncounters = 2, .tick = tick,
	.reexecute = reexecute, .idempotent = idempotent, .rewrite = rewrite, .port = port, .por = por,
	.globals_in_place = 1,
	.persist_order = persist_order, .faulted = faulted,
};
