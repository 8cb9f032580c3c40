/*
** Occupancy and CTA dispatch (DAB §IV-C5).  An SM holds at most
** `resident` CTAs at once: cta_slots, and as many whole CTAs as its
** warp_slots hold.  The hardware CTA positions of SM s are s, s + sms,
** s + 2 sms, ... (the grid's static partition, gpu.h), filled in that
** order: position j of an SM starts once fewer than `resident` of the
** SM's earlier positions are still occupied.  A position stays occupied
** until its warps are done, and where their atomics wait in buffers of
** their own (DAB's warp buffers, gpu.slot_holds_atomics) until those are
** performed too (§IV-B: "warps are kept active while the buffer is
** non-empty and wait for the flushing process before they can be
** reclaimed").  A scheduler's buffer, or the ROP's FIFOs, outlive the
** warps: the slot frees at their exit, and the next batch's non-atomic
** instructions "can run earlier" (§IV-C5).  The b-th `resident` positions
** of an SM are its batch b (gpu_batch_of); the batch barrier itself, "all
** atomics from batch b_i must complete before any atomics from b_i+1", is
** the schedulers' rule (dab_sched.c).
**
** Which kernel CTA (%ctaid) runs in a position is the dispatcher's:
**   static  position p runs CTA p: "we statically partition CTAs among each
**           scheduler in each SM".  No state and no action: a position
**           starts in the step that frees its slot.
**   free    the relaxed variant, the baseline GPU's dispatcher (the default
**           of the baseline and lab machines, registry.c): the first
**           `resident` CTAs per SM go out round robin at launch (position
**           p runs CTA p), then the next pending CTA, in id order, goes to
**           whichever SM frees a slot first -- a choice (action DISPATCH),
**           so the set of CTAs that share a scheduler's buffer, and so the
**           order of their atomics, depends on timing.
** A position not started is gated (port gate): its warps wait at pc 0.
** Threads, warps and shared memory belong to positions; a final-state
** condition on a thread's register names the thread of a position.
**
** Component "cta_dispatch": ports gate and grid (only while the slots hold
** some CTA back).  Slice (free, slots limited, only): u16 per position,
** its CTA + 1 (0: not dispatched yet).
** Invariants:
**   DISP-1 the dispatched positions of each SM are a prefix of its list,
**          and they run distinct CTAs 0 .. n-1 (n dispatched in all);
**   DISP-2 at most `resident` started positions per SM are occupied.
*/
#include "config.h"

#include <string.h>

#include "machines/component.h"
#include "util/strbuf.h"

enum { DISPATCH_STATIC, DISPATCH_FREE };

/* Do the slots hold some CTA back?  Not in the default: every CTA resident. */
static int limited(const struct gpu *g)
{
	return g->resident * g->cfg.sms < g->cfg.ctas;
}

/* Does the free dispatcher choose anything?  Not unless slots are limited:
** then it has no slice, no action and nothing to check. */
static int choosing(const struct gpu *g)
{
	return g->cfg.dispatch == DISPATCH_FREE && limited(g);
}

static uint16_t *assigned(const struct comp *c, const uint8_t *sv)
{
	return (uint16_t *)(sv + c->off);
}

/* Does position p hold its slot: started, and a warp not done, or (warp
** buffers) an atomic of one not yet performed (its pending count)? */
static int occupied(const struct gpu *g, const uint8_t *sv, unsigned p)
{
	for (unsigned w = p * g->cfg.warps_per_cta; w < (p + 1) * g->cfg.warps_per_cta; w++) {
		const struct warp_hdr *h = gpu_warp(g, (uint8_t *)sv, w);
		if ((h->status != W_DONE && h->status != W_FAULT) || (g->slot_holds_atomics && h->pending))
			return 1;
	}
	return 0;
}

/* May position p start: fewer than `resident` of its SM's earlier
** positions occupied?  (They started before it, in order.) */
static int has_slot(const struct gpu *g, const uint8_t *sv, unsigned p)
{
	unsigned busy = 0;
	for (unsigned q = p % g->cfg.sms; q < p; q += g->cfg.sms)
		busy += (unsigned)occupied(g, sv, q);
	return busy < g->resident;
}

static int started(const struct comp *c, const uint8_t *sv, unsigned p)
{
	return choosing(c->g) ? assigned(c, sv)[p] != 0 : has_slot(c->g, sv, p);
}

/* free: SM s's next position to dispatch into, when its slot is free
** (else the number of positions). */
static unsigned next_position(const struct comp *c, const uint8_t *sv, unsigned s)
{
	const struct gpu *g = c->g;
	unsigned p = s;
	while (p < g->cfg.ctas && assigned(c, sv)[p])
		p += g->cfg.sms;
	return p < g->cfg.ctas && has_slot(g, sv, p) ? p : g->cfg.ctas;
}

/* free: CTAs dispatched so far; the next one in id order is this. */
static unsigned dispatched(const struct comp *c, const uint8_t *sv)
{
	unsigned n = 0;
	for (unsigned p = 0; p < c->g->cfg.ctas; p++)
		n += assigned(c, sv)[p] != 0;
	return n;
}

static int may_issue(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return started(c, sv, gpu_cta_of(c->g, w));
}

static unsigned ctaid(const struct comp *c, const uint8_t *sv, unsigned p)
{
	return choosing(c->g) && assigned(c, sv)[p] ? assigned(c, sv)[p] - 1u : p;
}

static int pending(const struct comp *c, const uint8_t *sv, int sm)
{
	const struct gpu *g = c->g;
	if (!choosing(g))
		return 0; /* a static position starts in the step that frees its slot */
	for (unsigned s = 0; s < g->cfg.sms; s++)
		if ((sm < 0 || s == (unsigned)sm) && next_position(c, sv, s) < g->cfg.ctas)
			return 1;
	return 0;
}

static const struct port_gate gate_ops = { may_issue };
static const struct port_grid grid_ops = { ctaid, pending };

/* With every CTA resident from the start (the default) every position
** has started, runs its own CTA and nothing is pending: the gate and the
** grid would only cost a call per warp per state, so neither is offered
** (the composer binds nothing, and the callers' defaults hold). */
static const void *port(const struct comp *c, enum port p)
{
	const struct gpu *g = c->g;
	if (!limited(g))
		return NULL;
	return p == P_GATE ? (const void *)&gate_ops : p == P_GRID ? (const void *)&grid_ops : NULL;
}

/* Each SM's next position to start, where the dispatcher chooses. */
static __attribute__((noinline)) unsigned starts(const struct comp *c, const uint8_t *sv, struct action *out)
{
	const struct gpu *g = c->g;
	unsigned n = 0;
	for (unsigned s = 0; s < g->cfg.sms; s++) {
		unsigned p = next_position(c, sv, s);
		if (p < g->cfg.ctas)
			out[n++] = (struct action){ (uint16_t)c->kind0, (uint16_t)c->unit0[0], c->subj0[0], p };
	}
	return n;
}

/* A leaf where it chooses nothing (the default: every cycle concrete
** mode lists, a call that saves no registers). */
static unsigned enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                        struct action *out, int timed)
{
	(void)before, (void)nb, (void)timed;
	return choosing(c->g) ? starts(c, sv, out) : 0;
}

static void apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	assigned(c, sv)[a->arg] = (uint16_t)(dispatched(c, sv) + 1);
}

static void describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	sb_printf(out, "CTA dispatcher: cta %u (the next in id order) into sm %u, hardware position %u (the first slot freed)",
	          dispatched(c, sv), a->arg % c->g->cfg.sms, a->arg);
}

static void timing(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                   uint64_t (*rnd)(void *), void *rng)
{
	(void)c, (void)sv, (void)a, (void)rnd, (void)rng;
	t->busy = 1;
	t->n = 0;
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	const struct gpu *g = c->g;
	for (unsigned p = 0; p < g->cfg.ctas && limited(g); p++)
		if (!started(c, sv, p))
			sb_printf(out, "  position %u (sm %u): waits for a free CTA slot\n", p, p % g->cfg.sms);
		else if (choosing(g) && ctaid(c, sv, p) != p)
			sb_printf(out, "  position %u (sm %u): runs cta %u\n", p, p % g->cfg.sms, ctaid(c, sv, p));
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	unsigned n = choosing(g) ? dispatched(c, sv) : 0;
	uint8_t seen[4096] = { 0 };
	for (unsigned s = 0; s < g->cfg.sms; s++) {
		unsigned busy = 0, gap = 0;
		for (unsigned p = s; p < g->cfg.ctas; p += g->cfg.sms) {
			busy += started(c, sv, p) && occupied(g, sv, p);
			if (!choosing(g))
				continue;
			unsigned k = assigned(c, sv)[p];
			if ((k && gap) || k > n || (k && seen[k - 1]++)) {
				sb_printf(why, "DISP-1: position %u (sm %u) runs cta %d out of order or twice", p, s, (int)k - 1);
				return 1;
			}
			gap |= !k;
		}
		if (busy > g->resident) {
			sb_printf(why, "DISP-2: sm %u has %u CTAs occupying its %u slots", s, busy, g->resident);
			return 1;
		}
	}
	return 0;
}

/* A DISPATCH writes only this slice, which a started warp reads for its
** %ctaid and no more changes; whether a position may start depends on
** warps done and their atomics performed, which no warp-local issue
** changes but an exit, which may free a slot -- unless none is limited --
** and starting one disables nothing. */
static int por(const struct comp *c, const uint8_t *sv, unsigned w, const struct instr *in)
{
	(void)sv, (void)w;
	return in->op != OP_EXIT || !limited(c->g);
}

static void init(const struct comp *c, uint8_t *sv)
{
	const struct gpu *g = c->g;
	if (!choosing(g))
		return;
	/* the launch's round-robin distribution fills every slot */
	for (unsigned p = 0; p < g->cfg.ctas && p < g->resident * g->cfg.sms; p++)
		assigned(c, sv)[p] = (uint16_t)(p + 1);
}

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def params[] = {
	{ "cta_slots", 0, 0, 64, NULL, GP(cta_slots), "CTA slots per SM (0: every CTA resident from the start); the rest wait for a slot, in batches" },
	{ "warp_slots", 0, 0, 4096, NULL, GP(warp_slots), "warp slots per SM (0: no limit); an SM holds as many whole CTAs as fit" },
	{ "dispatch", 0, 0, 1, "static|free", GP(dispatch), "CTA dispatcher: static (DAB: CTA p on SM p mod sms, in id order) or free (broken: the next CTA to the SM that frees a slot first)" },
};

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	const struct gpu_cfg *cf = &g->cfg;
	unsigned k = g->resident;
	if (cf->cta_slots && cf->cta_slots < k)
		k = cf->cta_slots;
	if (cf->warp_slots) {
		if (cf->warp_slots < cf->warps_per_cta) {
			diag_at(d, g->path, 0, 0, "a CTA of %u warps does not fit warp_slots (%u): it could never start",
			        cf->warps_per_cta, cf->warp_slots);
			return -1;
		}
		if (cf->warp_slots / cf->warps_per_cta < k)
			k = cf->warp_slots / cf->warps_per_cta;
	}
	g->resident = k;
	if (!choosing(g))
		return 0;
	*align = 2;
	c->max_actions = cf->sms;
	c->units[0] = (struct pool_req){ "dispatcher", 1 };
	c->subjects[0] = (struct pool_req){ "dispatch", 1 };
	return (long)(2 * (size_t)cf->ctas);
}

static const struct kind_def kinds[] = { { "dispatch", SELF, 0 } };

const struct comp_def comp_cta_dispatch = {
	.name = "cta_dispatch", .desc = "occupancy (CTA and warp slots per SM) and the CTA dispatcher: static in id order, or free",
	.params = params, .nparams = sizeof params / sizeof params[0],
	.provides = PORT(P_GATE) | PORT(P_GRID), .kinds = kinds, .nkinds = 1, .port_writes = 0,
	.layout = layout, .init = init, .enabled = enabled, .apply = apply, .describe = describe, .timing = timing,
	.print = print, .check = check, .port = port,
	.por = por,
	/* steps alone (rop.c): it reads a warp's pending count only in DAB
	** (warp buffers), never beside the ROP; a slot freed enables, never
	** disables, and commutes with every other action enabled beside it */
	.por_atomics = 1,
};
