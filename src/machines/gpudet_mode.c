/*
** GPUDet's global mode machine (paper §4.1-4.2, 4.5; notes A.2, A.3, A.8):
** execution proceeds in quanta, each a PARALLEL, a COMMIT and (when some
** wavefront stopped at an atomic) a SERIAL mode, separated by global
** barriers.
**
**   PARALLEL --all wavefronts ended their quantum--> COMMIT
**   COMMIT   --every store buffer drained, some warp at an atomic--> SERIAL
**   COMMIT   --every store buffer drained, no atomic--> PARALLEL, quantum+1
**   SERIAL   --every waiting atomic performed--> PARALLEL, quantum+1
**
** PARALLEL: a wavefront issues freely (any interleaving: this component is
** the warp scheduler) until a termination event ends its quantum:
**   count     it issued `quantum` (Q) instructions in this quantum;
**   atomic    its next instruction is a global atom/red (run in SERIAL);
**   fence     its next instruction is membar, or bar.sync (GPUDet-base's
**             barrier termination), and it issued something this quantum
**             (so the next quantum starts by passing it: the stores before
**             it were committed).  With bta=on (workgroup-aware quanta,
**             BTA) bar.sync is no termination event: the workgroup's
**             barrier releases inside the quantum when all its wavefronts
**             arrived, and when one of them ended its quantum first the
**             others wait at the barrier, ended too -- the paper's
**             collective WAIT_WG decision.  Stores before the barrier stay
**             in their store buffers: the visibility gap of notes A.5.1;
**   exit      it is done; a warp waiting at bar.sync has ended too;
**   full log  its next store would not fit its store buffer (a bound of
**             the model, see gpudet_sbuf.c).
** Global stores and loads go through the store buffers (the warps use the
** sbuf port), so global memory does not change in PARALLEL mode.
**
** COMMIT: the Z-buffer units drain the logs (zbuffer.c); this component
** only waits for them and gives each wavefront its depth
**     depth = -(quantum << m) + hardware wavefront id,
** the id being the CTA's workgroup slot's (slot * warps_per_cta + the
** warp's place in its CTA), m the bits of the largest id.
**
** Workgroup distribution (notes A.5.2; parameters slots, distribution):
** with fewer slots than CTAs, the pending CTAs enter free slots at each
** quantum's start, in id order into slots in slot order (quantum); or
** under DWP slot s is refilled inside PARALLEL mode, before the quantum
** may end, from the CTAs k with k mod slots == s (dwp); or, the broken
** variant, the next CTA goes into whichever free slot (free: a choice,
** action DISPATCH).  A CTA not yet dispatched takes no part.
**
** SERIAL: the wavefronts stopped at an atomic each perform it, once, in a
** fixed order (port atomics: the lanes in lane order, directly at L2):
**   wser     W-Ser: one at a time by hardware wavefront id;
**   cuser    CU-Ser: compute unit by compute unit, and within one by
**            wavefront id (the scheduler reset; point-to-point order keeps
**            it at the partition).  The same order as W-Ser within a CU,
**            but the atomics of one CU overlap in concrete mode;
**   arrival  broken variant: any waiting atomic next (the order in which
**            requests happen to reach the L2): nondeterministic.
**
** Quantum granularity (parameter quanta): wavefront, the design; thread,
** the per-thread quantum the paper rejects (Example 1): a thread that
** issued Q instructions pauses at the global barrier, so a warp whose
** active lanes include one that is paused cannot issue, while its
** inactive lanes wait on the SIMT stack behind them: the global barrier
** never completes, a deadlock the checker reports.
**
** A quantum in which nothing was issued, committed or left for SERIAL
** mode would only repeat itself: its global barrier does not fire, so a
** kernel stuck at a workgroup barrier is reported as a deadlock.  Nor
** does it fire once every warp is done and nothing is owed: the kernel is
** over (one terminal state, not one before and one after a last barrier).
**
** Component "gpudet": a warp scheduler (scheduler.h) with the action kinds
** ISSUE (a warp's instruction), GBARRIER (a global barrier: mode change)
** and DISPATCH (a CTA into a slot inside PARALLEL mode: dwp, free);
** ports quantum (mode, depth) and atomics (serial mode); requires warps,
** mem and sbuf.
**
** Slice: { mode u8, pad u8, quantum u16 }, count u16 per warp (per lane
** too with quanta=thread), serial-done flag u8 per warp, then (2-aligned)
** the slot u16 of each CTA (NO_SLOT: not dispatched yet).
** Invariants:
**   GPUDET-1 mode is PARALLEL, COMMIT or SERIAL, and the pad is zero;
**   GPUDET-2 in SERIAL mode every store buffer is empty (a wavefront's
**            atomic follows its committed stores);
**   GPUDET-3 serial-done flags are set only in SERIAL mode;
**   GPUDET-4 no count exceeds Q, and no warp waits (atomics complete in
**            the step that issues them).
*/
#include "config.h"

#include <string.h>

#include "machines/atomic_entry.h"
#include "machines/scheduler.h"
#include "util/strbuf.h"

#define WARPS(c) ((const struct port_warps *)port_ops(c, P_WARPS))
#define WC(c) (REQ(c, P_WARPS)->c)
#define SBUF(c) ((const struct port_sbuf *)port_ops(c, P_SBUF))
#define SB(c) (REQ(c, P_SBUF)->c)

enum { QU_WAVEFRONT, QU_THREAD };
enum { SER_CU, SER_W, SER_ARRIVAL };
enum { K_ISSUE, K_GBARRIER, K_DISPATCH };
enum { DIST_QUANTUM, DIST_DWP, DIST_FREE };
#define NO_SLOT 0xffff
/* Why a wavefront's parallel mode ended (counters, descriptions). */
enum end { E_NONE, E_COUNT, E_ATOMIC, E_FENCE, E_BARRIER, E_EXIT, E_FULL, E_N };

struct hdr {
	uint8_t mode, pad;
	uint16_t quantum;
};

struct gd {
	size_t count_off, lane_off, flag_off, slot_off;
	unsigned slots; /* hardware workgroup slots */
	unsigned m;     /* depth bits of the hardware wavefront id */
};
#define GD(c) ((const struct gd *)(c)->priv)

static struct hdr *hdr(const struct comp *c, const uint8_t *sv)
{
	return (struct hdr *)(sv + c->off);
}
static uint16_t *counts(const struct comp *c, const uint8_t *sv)
{
	return (uint16_t *)(sv + c->off + GD(c)->count_off);
}
static uint16_t *lane_counts(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return (uint16_t *)(sv + c->off + GD(c)->lane_off) + (size_t)w * c->g->cfg.threads_per_warp;
}
static uint8_t *flags(const struct comp *c, const uint8_t *sv)
{
	return (uint8_t *)sv + c->off + GD(c)->flag_off;
}

/* The hardware workgroup slot of each CTA (NO_SLOT: not dispatched yet). */
static uint16_t *slot_of(const struct comp *c, const uint8_t *sv)
{
	return (uint16_t *)(sv + c->off + GD(c)->slot_off);
}

static int dispatched(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return slot_of(c, sv)[gpu_cta_of(c->g, w)] != NO_SLOT;
}

/* Is slot s free: no CTA in it, or its CTA's warps all done and their
** store buffers drained?  (The model's logs are per warp, the paper's per
** hardware wavefront: a new wavefront in a slot whose log still holds
** entries would commit with the same depth as them, in free order.  So
** such a slot is refilled after the commit, at the next quantum.) */
static int slot_free(const struct comp *c, const uint8_t *sv, unsigned s)
{
	const struct gpu *g = c->g;
	for (unsigned k = 0; k < g->cfg.ctas; k++)
		if (slot_of(c, sv)[k] == s)
			for (unsigned w = k * g->cfg.warps_per_cta; w < (k + 1) * g->cfg.warps_per_cta; w++)
				if (gpu_warp(g, (uint8_t *)sv, w)->status != W_DONE || SBUF(c)->length(SB(c), sv, w))
					return 0;
	return 1;
}

/* The CTA the distributor puts into free slot s next, or -1: the lowest
** pending one, or under DWP the lowest pending one of s's partition
** (CTA k belongs to slot k mod slots). */
static int next_cta(const struct comp *c, const uint8_t *sv, unsigned s)
{
	for (unsigned k = 0; k < c->g->cfg.ctas; k++)
		if (slot_of(c, sv)[k] == NO_SLOT && (c->g->cfg.distribution != DIST_DWP || k % GD(c)->slots == s))
			return (int)k;
	return -1;
}

/* May the distributor refill a slot inside PARALLEL mode now?  Under
** dwp and free it does so before the quantum may end. */
static int may_dispatch(const struct comp *c, const uint8_t *sv, unsigned s)
{
	return c->g->cfg.distribution != DIST_QUANTUM && slot_free(c, sv, s) && next_cta(c, sv, s) >= 0;
}

/* WORK_DISTRIBUTION at a quantum's start: every free slot, in slot
** order, takes the next CTA. */
static void distribute(const struct comp *c, uint8_t *sv)
{
	for (unsigned s = 0; s < GD(c)->slots; s++) {
		int k = slot_free(c, sv, s) ? next_cta(c, sv, s) : -1;
		if (k >= 0)
			slot_of(c, sv)[k] = (uint16_t)s;
	}
}

/* The hardware wavefront id: the slot's wavefronts, in CTA order. */
static unsigned hw_id(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return slot_of(c, sv)[gpu_cta_of(c->g, w)] * c->g->cfg.warps_per_cta + w % c->g->cfg.warps_per_cta;
}

static uint32_t top_mask(const struct comp *c, const uint8_t *sv, unsigned w)
{
	uint8_t *s = (uint8_t *)sv;
	return gpu_stack(c->g, s, w)[gpu_warp(c->g, s, w)->sp - 1].mask;
}

/* Is warp w at a global atomic some lane performs?  (A guarded-off
** atomic or fence is no termination event: the warp steps over it.) */
static int at_atomic(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return gpu_at_global_atomic(c->g, sv, w) && WARPS(c)->exec_mask(WC(c), sv, w);
}

/* Has a lane in mask m issued Q instructions (per-thread quanta)? */
static int lanes_exhausted(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m)
{
	const uint16_t *lc = lane_counts(c, sv, w);
	for (unsigned l = 0; l < c->g->cfg.threads_per_warp; l++)
		if (m >> l & 1 && lc[l] >= c->g->cfg.quantum)
			return 1;
	return 0;
}

/* Why warp w may not go on in this PARALLEL mode (E_NONE: it may). */
static enum end ended(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	uint8_t st = gpu_warp(g, (uint8_t *)sv, w)->status;
	if (st == W_DONE || st == W_FAULT || !dispatched(c, sv, w))
		return E_EXIT;
	if (st == W_BARRIER)
		return E_BARRIER;
	if (at_atomic(c, sv, w))
		return E_ATOMIC;
	const struct instr *in = &g->prog->ins[gpu_pc(g, sv, w)];
	if ((in->op == OP_MEMBAR || (in->op == OP_BAR && !g->cfg.bta)) && counts(c, sv)[w] &&
	    WARPS(c)->exec_mask(WC(c), sv, w))
		return in->op == OP_BAR ? E_BARRIER : E_FENCE;
	if (in->op == OP_ST && in->space == SP_GLOBAL &&
	    SBUF(c)->room(SB(c), sv, w) < (unsigned)__builtin_popcount(WARPS(c)->exec_mask(WC(c), sv, w)))
		return E_FULL;
	if (g->cfg.quanta == QU_THREAD ? lanes_exhausted(c, sv, w, top_mask(c, sv, w))
	                               : counts(c, sv)[w] >= g->cfg.quantum)
		return E_COUNT;
	return E_NONE;
}

/* Has warp w reached the global barrier?  Per-thread quanta: only when
** every live thread has (paused, or the whole warp ended). */
static int at_gbarrier(const struct comp *c, const uint8_t *sv, unsigned w)
{
	enum end e = ended(c, sv, w);
	if (c->g->cfg.quanta != QU_THREAD || e != E_COUNT)
		return e != E_NONE;
	const uint16_t *lc = lane_counts(c, sv, w);
	uint32_t live = gpu_stack(c->g, (uint8_t *)sv, w)[0].mask;
	for (unsigned l = 0; l < c->g->cfg.threads_per_warp; l++)
		if (live >> l & 1 && lc[l] < c->g->cfg.quantum)
			return 0;
	return 1;
}

/* SERIAL mode: does warp w still owe this quantum its atomic? */
static int serial_waiting(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return gpu_warp(c->g, (uint8_t *)sv, w)->status == W_READY && dispatched(c, sv, w) && at_atomic(c, sv, w) &&
	       !flags(c, sv)[w];
}

/* SERIAL mode: may warp w perform its atomic now? */
static int serial_next(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	if (!serial_waiting(c, sv, w))
		return 0;
	if (g->cfg.serial == SER_ARRIVAL)
		return 1;
	/* the first waiting warp in the fixed order */
	for (unsigned v = 0; v < g->nwarps; v++) {
		if (v == w || !serial_waiting(c, sv, v))
			continue;
		unsigned sv_ = gpu_sm_of(g, v), sw = gpu_sm_of(g, w), hv = hw_id(c, sv, v), hw = hw_id(c, sv, w);
		if (g->cfg.serial == SER_CU ? sv_ < sw || (sv_ == sw && hv < hw) : hv < hw)
			return 0;
	}
	return 1;
}

/* The mode that the global barrier leads to now, or -1 when it may not
** fire. */
static int barrier_to(const struct comp *c, const uint8_t *sv)
{
	const struct gpu *g = c->g;
	switch (hdr(c, sv)->mode) {
	case GM_PARALLEL: {
		/* something to commit or to serialize, or a quantum's work done
		** by warps that are not all done (once they are, and nothing is
		** owed, the kernel is over) */
		int owed = 0, issued = 0, live = 0;
		for (unsigned s = 0; s < GD(c)->slots; s++)
			if (may_dispatch(c, sv, s))
				return -1;
		for (unsigned w = 0; w < g->nwarps; w++) {
			if (!at_gbarrier(c, sv, w))
				return -1;
			uint8_t st = gpu_warp(g, (uint8_t *)sv, w)->status;
			owed |= SBUF(c)->length(SB(c), sv, w) || serial_waiting(c, sv, w);
			issued |= counts(c, sv)[w] != 0;
			live |= st != W_DONE && st != W_FAULT;
		}
		return owed || (issued && live) ? GM_COMMIT : -1;
	}
	case GM_COMMIT:
		for (unsigned w = 0; w < g->nwarps; w++)
			if (SBUF(c)->length(SB(c), sv, w))
				return -1;
		for (unsigned w = 0; w < g->nwarps; w++)
			if (serial_waiting(c, sv, w)) /* flags are clear in COMMIT mode */
				return GM_SERIAL;
		return GM_PARALLEL;
	default:
		for (unsigned w = 0; w < g->nwarps; w++)
			if (serial_next(c, sv, w))
				return -1;
		return GM_PARALLEL;
	}
}

static unsigned enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                        struct action *out, int timed)
{
	(void)before;
	(void)nb;
	(void)timed;
	const struct gpu *g = c->g;
	unsigned n = 0, mode = hdr(c, sv)->mode;
	for (unsigned w = 0; w < g->nwarps; w++) {
		if (mode == GM_PARALLEL ? gpu_warp(g, (uint8_t *)sv, w)->status == W_READY && ended(c, sv, w) == E_NONE
		                        : mode == GM_SERIAL && serial_next(c, sv, w)) {
			out[n] = sched_action(c, w);
			if (mode == GM_SERIAL) /* one serial order for the whole GPU */
				out[n].unit = (uint16_t)c->unit0[1];
			n++;
		}
	}
	/* DWP and the baseline's first-free-slot distributor refill a slot
	** inside PARALLEL mode, as soon as its CTA is done; which slot frees
	** first is timing, so under `free` every free slot is a choice */
	for (unsigned s = 0; mode == GM_PARALLEL && s < GD(c)->slots; s++)
		if (may_dispatch(c, sv, s))
			out[n++] = (struct action){ (uint16_t)(c->kind0 + K_DISPATCH), (uint16_t)c->unit0[1], c->subj0[0],
			                            (uint32_t)next_cta(c, sv, s) << 16 | s };
	int to = barrier_to(c, sv);
	if (to >= 0)
		out[n++] = (struct action){ (uint16_t)(c->kind0 + K_GBARRIER), (uint16_t)c->unit0[1], c->subj0[0],
		                            (uint32_t)to };
	return n;
}

static void apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	const struct gpu *g = c->g;
	struct hdr *h = hdr(c, sv);
	if (a->kind == c->kind0 + K_ISSUE) {
		unsigned w = a->subject - WC(c)->subj0[0];
		if (h->mode == GM_SERIAL) {
			flags(c, sv)[w] = 1;
		} else {
			counts(c, sv)[w]++;
			if (g->cfg.quanta == QU_THREAD) {
				uint32_t m = top_mask(c, sv, w);
				for (unsigned l = 0; l < g->cfg.threads_per_warp; l++)
					lane_counts(c, sv, w)[l] += m >> l & 1;
			}
		}
		WARPS(c)->issue(WC(c), sv, w);
		return;
	}
	if (a->kind == c->kind0 + K_DISPATCH) {
		slot_of(c, sv)[a->arg >> 16] = (uint16_t)(a->arg & 0xffff);
		return;
	}
	h->mode = (uint8_t)a->arg;
	if (a->arg != GM_PARALLEL)
		return;
	/* a new quantum */
	h->quantum++;
	memset(counts(c, sv), 0, GD(c)->flag_off + g->nwarps - GD(c)->count_off);
	distribute(c, sv);
}

/* {=== Ports: quantum, atomics (serial mode) ============================= */

static enum gpudet_mode mode_of(const struct comp *c, const uint8_t *sv)
{
	return (enum gpudet_mode)hdr(c, sv)->mode;
}

static int32_t depth(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return -(int32_t)((uint32_t)hdr(c, sv)->quantum << GD(c)->m) + (int32_t)hw_id(c, sv, w);
}

static const struct port_quantum quantum_ops = { mode_of, depth };

static int room(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m)
{
	(void)c;
	(void)sv;
	(void)w;
	(void)m;
	return 1;
}

/* Serial mode: the warp's atomic is performed at once, lane by lane. */
static int push(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m)
{
	const struct instr *in = &c->g->prog->ins[gpu_pc(c->g, sv, w)];
	struct atomic_entry e[32];
	for (int i = 0, n = atomic_entries(c, sv, w, m, in, e); i < n; i++) /* n < 0: the warp faulted */
		atomic_entry_perform(c, sv, &e[i]);
	return PUSH_DONE;
}

static int owed(const struct comp *c, const uint8_t *sv, unsigned w)
{
	(void)c;
	(void)sv;
	(void)w;
	return 0;
}

static void timing_push(const struct comp *c, const uint8_t *sv, unsigned w, struct timing *t,
                        uint64_t (*rnd)(void *), void *rng)
{
	(void)c;
	(void)sv;
	(void)w;
	(void)t;
	(void)rnd;
	(void)rng;
}

static const struct port_atomics atomics_ops = { .room = room, .push = push, .owed = owed, .timing_push = timing_push };

static const void *port(const struct comp *c, enum port p)
{
	switch (p) {
	case P_QUANTUM: return &quantum_ops;
	case P_ATOMICS: return &atomics_ops;
	default: return sched_port(c, p);
	}
}

/* }=== */

static const char *const mode_name[] = { "PARALLEL", "COMMIT", "SERIAL" };
static const char *const end_name[E_N] = { "running", "instruction count", "atomic", "fence", "workgroup barrier",
	                                     "kernel exit", "full store buffer" };

static void describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	if (a->kind == c->kind0 + K_ISSUE) {
		if (hdr(c, sv)->mode == GM_SERIAL)
			sb_puts(out, "SERIAL: ");
		sched_describe(c, sv, a, out);
		return;
	}
	if (a->kind == c->kind0 + K_DISPATCH) {
		sb_printf(out, "workgroup distributor: cta %u into free slot %u", a->arg >> 16, a->arg & 0xffff);
		return;
	}
	sb_printf(out, "global barrier: %s -> %s (quantum %u)", mode_name[hdr(c, sv)->mode], mode_name[a->arg],
	          hdr(c, sv)->quantum + (a->arg == GM_PARALLEL));
}

/* Serial mode's order is one unit: W-Ser waits for each atomic's round
** trip to the L2 before the next; CU-Ser issues a compute unit's atomics
** back to back (point-to-point order keeps them in order) and waits for
** the round trip only before the next compute unit's. */
static unsigned serial_busy(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	unsigned lanes = (unsigned)__builtin_popcount(WARPS(c)->exec_mask(WC(c), sv, w));
	unsigned trip = 2 * g->cfg.lat_icnt + g->cfg.lat_rop * lanes;
	if (g->cfg.serial == SER_W)
		return trip;
	for (unsigned v = 0; v < g->nwarps; v++)
		if (v != w && gpu_sm_of(g, v) == gpu_sm_of(g, w) && serial_waiting(c, sv, v))
			return lanes; /* another of this CU's atomics follows */
	return trip;
}

static void timing(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                   uint64_t (*rnd)(void *), void *rng)
{
	const struct gpu_cfg *cf = &c->g->cfg;
	if (a->kind == c->kind0 + K_ISSUE) {
		sched_timing(c, sv, a, t, rnd, rng);
		if (hdr(c, sv)->mode == GM_SERIAL)
			t->busy = serial_busy(c, sv, a->subject - WC(c)->subj0[0]);
		return;
	}
	t->busy = cf->lat_gbar ? cf->lat_gbar : 1;
	if (a->kind != c->kind0 + K_GBARRIER || a->arg != GM_COMMIT)
		return;
	/* each store buffer's first commit request crosses the interconnect:
	** the arrival order at the Z units is the seeded jitter's */
	for (unsigned w = 0; w < c->g->nwarps; w++)
		if (SBUF(c)->length(SB(c), sv, w)) {
			t->upd[t->n].subject = c->subj0[1] + w;
			t->upd[t->n++].delay = t->busy + cf->lat_icnt + (cf->icnt_jitter ? (unsigned)(rnd(rng) % (cf->icnt_jitter + 1)) : 0);
		}
}

enum { CT_QUANTA, CT_SERIAL, CT_END0, CT_CYCLES0 = CT_END0 + E_N - E_COUNT, CT_N = CT_CYCLES0 + 3 };
static const char *const counters[CT_N] = {
	"quanta", "serial atomics", "quantum ends: instruction count", "quantum ends: atomic", "quantum ends: fence",
	"quantum ends: workgroup barrier", "quantum ends: kernel exit", "quantum ends: full store buffer",
	"cycles in PARALLEL mode", "cycles in COMMIT mode", "cycles in SERIAL mode"
};

/* Time per mode (paper Fig. 7): the cycles spent in each. */
static void tick(const struct comp *c, const uint8_t *sv, uint64_t cycles, uint64_t *ct)
{
	comp_count(c, ct, CT_CYCLES0 + hdr(c, sv)->mode, cycles);
}

static void count(const struct comp *c, const uint8_t *sv, const struct action *a, uint64_t *ct)
{
	if (a->kind == c->kind0 + K_ISSUE) {
		if (hdr(c, sv)->mode == GM_SERIAL)
			comp_count(c, ct, CT_SERIAL, 1);
		sched_count(c, sv, a, ct);
		return;
	}
	if (a->kind != c->kind0 + K_GBARRIER || hdr(c, sv)->mode != GM_PARALLEL)
		return;
	comp_count(c, ct, CT_QUANTA, 1);
	for (unsigned w = 0; w < c->g->nwarps; w++) {
		enum end e = ended(c, sv, w);
		if (e != E_EXIT || counts(c, sv)[w]) /* a warp done in an earlier quantum ended nothing */
			comp_count(c, ct, CT_END0 + (unsigned)e - E_COUNT, 1);
	}
}

static int still_enabled(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	unsigned w = a->subject - WC(c)->subj0[0];
	if (a->kind == c->kind0 + K_DISPATCH)
		return may_dispatch(c, sv, a->arg & 0xffff) && next_cta(c, sv, a->arg & 0xffff) == (int)(a->arg >> 16);
	if (a->kind != c->kind0 + K_ISSUE)
		return barrier_to(c, sv) == (int)a->arg;
	return hdr(c, sv)->mode == GM_PARALLEL
	               ? gpu_warp(c->g, (uint8_t *)sv, w)->status == W_READY && ended(c, sv, w) == E_NONE
	               : hdr(c, sv)->mode == GM_SERIAL && serial_next(c, sv, w);
}

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def params[] = {
	{ "quantum", 200, 1, 65535, NULL, GP(quantum), "GPUDet quantum size Q: instructions a wavefront (or thread) issues per PARALLEL mode" },
	{ "quanta", 0, 0, 1, "wavefront|thread", GP(quanta), "GPUDet quantum granularity: wavefront (the design) or thread (rejected by the paper: Example 1 deadlocks)" },
	{ "serial", 0, 0, 2, "cuser|wser|arrival", GP(serial), "GPUDet serial-mode order of atomics: CU-Ser, W-Ser, or arrival order (broken: nondeterministic)" },
	{ "bta", 0, 0, 1, "off|on", GP(bta), "GPUDet workgroup-aware quanta: on releases a workgroup barrier inside the quantum (Barrier Termination Avoidance) instead of ending it" },
	{ "slots", 0, 0, 255, NULL, GP(slots), "GPUDet hardware workgroup slots (0: every CTA resident from the start)" },
	{ "distribution", 0, 0, 2, "quantum|dwp|free", GP(distribution), "GPUDet workgroup distribution into free slots: at each quantum's start in slot order, DWP (slot s refilled at once from CTAs k with k mod slots == s), or free (broken: the first slot to free up, in any order)" },
	{ "lat_gbar", 0, 0, 1000000, NULL, GP(lat_gbar), "GPUDet: cycles of one global barrier between modes" },
};

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	(void)d;
	struct gd *x = xcalloc(1, sizeof *x);
	size_t lanes = g->cfg.quanta == QU_THREAD ? (size_t)g->nwarps * g->cfg.threads_per_warp : 0;
	x->count_off = sizeof(struct hdr);
	x->lane_off = x->count_off + 2 * (size_t)g->nwarps;
	x->flag_off = x->lane_off + 2 * lanes;
	x->slot_off = (x->flag_off + g->nwarps + 1) & ~(size_t)1;
	x->slots = g->cfg.slots && g->cfg.slots < g->cfg.ctas ? g->cfg.slots : g->cfg.ctas;
	while ((1u << x->m) < x->slots * g->cfg.warps_per_cta)
		x->m++;
	c->priv = x;
	*align = 2;
	c->max_actions = g->nwarps + 1 + x->slots;
	c->units[0] = (struct pool_req){ "scheduler", g->cfg.sms * g->cfg.schedulers };
	c->units[1] = (struct pool_req){ "global barrier", 1 };
	c->subjects[0] = (struct pool_req){ "mode", 1 };
	c->subjects[1] = (struct pool_req){ "commit stream", g->nwarps }; /* zbuffer.c's */
	return (long)(x->slot_off + 2 * (size_t)g->cfg.ctas);
}

static void init(const struct comp *c, uint8_t *sv)
{
	for (unsigned k = 0; k < c->g->cfg.ctas; k++)
		slot_of(c, sv)[k] = NO_SLOT;
	distribute(c, sv);
}

static int quiescent(const struct comp *c, const uint8_t *sv)
{
	return hdr(c, sv)->mode == GM_PARALLEL;
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	const struct hdr *h = hdr(c, sv);
	if (h->mode > GM_SERIAL || h->pad) {
		sb_printf(why, "GPUDET-1: mode %u, pad %u", h->mode, h->pad);
		return 1;
	}
	for (unsigned w = 0; w < g->nwarps; w++) {
		if (h->mode == GM_SERIAL && SBUF(c)->length(SB(c), sv, w)) {
			sb_printf(why, "GPUDET-2: warp %u's store buffer holds entries in SERIAL mode", w);
			return 1;
		}
		if (h->mode != GM_SERIAL && flags(c, sv)[w]) {
			sb_printf(why, "GPUDET-3: warp %u is marked serial-done in %s mode", w, mode_name[h->mode]);
			return 1;
		}
		int over = counts(c, sv)[w] > g->cfg.quantum;
		for (unsigned l = 0; g->cfg.quanta == QU_THREAD && l < g->cfg.threads_per_warp; l++)
			over |= lane_counts(c, sv, w)[l] > g->cfg.quantum;
		if (over || WARPS(c)->waiting(WC(c), sv, w)) {
			sb_printf(why, "GPUDET-4: warp %u %s", w, over ? "issued more than Q instructions" : "waits");
			return 1;
		}
	}
	return 0;
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	const struct hdr *h = hdr(c, sv);
	sb_printf(out, "  gpudet: %s mode, quantum %u\n", mode_name[h->mode], h->quantum);
	for (unsigned w = 0; w < c->g->nwarps; w++) {
		enum end e = ended(c, sv, w);
		if (e != E_EXIT)
			sb_printf(out, "  warp %u: %u instructions this quantum, %s\n", w, counts(c, sv)[w], end_name[e]);
	}
}

static const struct kind_def kinds[] = {
	{ "issue", SELF | PORT(P_WARPS), 0 },
	{ "gbarrier", SELF, 0 },
	{ "dispatch", SELF, 0 },
};

const struct comp_def comp_gpudet = {
	.name = "gpudet", .desc = "GPUDet mode machine: quanta, PARALLEL/COMMIT/SERIAL with global barriers, serial atomics",
	.params = params, .nparams = sizeof params / sizeof params[0],
	.provides = PORT(P_ISSUE) | PORT(P_QUANTUM) | PORT(P_ATOMICS), .requires = PORT(P_WARPS) | PORT(P_MEM) | PORT(P_SBUF),
	.kinds = kinds, .nkinds = 3, .port_writes = SELF | PORT(P_MEM) | PORT(P_WARPS),
	.counters = counters, .ncounters = CT_N, .tick = tick,
	.layout = layout, .init = init, .enabled = enabled, .apply = apply, .quiescent = quiescent, .check = check,
	.describe = describe, .print = print, .timing = timing, .count = count, .still_enabled = still_enabled,
	.port = port,
};
