/*
** GPU persistency (Lin et al., "Exploring Memory Persistency Models for
** GPUs"; shared/notes/persistency.md §1): device memory is NVM behind a
** write-back L2 and one write-pending queue (WPQ) per memory controller.
** Loads and stores keep the SC view of memory.c (what a load returns is
** always the latest store); this file tracks, per global word, where that
** value has got to on its way to NVM:
**
**   store        -> dirty in L2                          [pm_dirty]
**   dirty        -> WPQ  by an eviction (any time)       [EVICT]
**                        or a completed clwb             [CLWB_DONE]
**                        or an l2wb pass                 [pm_issue, l2wb]
**   st.wt        -> WPQ directly, acked once in NVM      [pm_issue]
**   WPQ          -> NVM  (any entry, any order)          [WPQ_DRAIN]
**   any state    -> CRASH: NVM (+ the WPQs if durable) survives
**
** Lines are one word (32 bits).  A WPQ holds one entry per word: a newer
** write-back replaces the older one, which loses no durable image (the
** older value could have drained first on another path).  clwb and st.wt
** are asynchronous: the warp counts them as outstanding and `sfence` (and
** `membar`, which the paper's sfence is built on) waits until they are
** acknowledged: clwb once the line reached the WPQ, st.wt once it reached
** NVM.  `pcommit` waits until every WPQ is empty.  `l2wb` walks the L2 word
** by word, one step each, so a crash can hit it mid-way; while it runs,
** other warps' global accesses wait (it "blocks subsequent L2 accesses").
**
** State slice (at g->pm_off): nvm u32[G], wpq u32[G], clwb u32[G] and
** wt u32[G] (warps waiting on that word's clwb / st.wt), per warp
** {outstanding u8, pad u8, l2wb cursor u16 (0: none, else next word + 1)},
** flags u8[G] (PM_DIRTY, PM_INWPQ).
** Invariants: PM-1 a word is never both dirty and in the WPQ with the same
** value pending twice -- eviction moves it; PM-2 a warp's outstanding
** count equals the number of clwb/wt masks holding its bit.
*/
#include "config.h"
#include "machines/persist.h"

#include <string.h>

#include "machines/memory.h"
#include "machines/warp.h"
#include "util/strbuf.h"

enum { PM_DIRTY = 1, PM_INWPQ = 2 };

struct pm_warp {
	uint8_t outstanding, pad;
	uint16_t cursor;
};

#define G_WORDS(g) ((g)->prog->global_words)

static uint32_t *nvm(const struct gpu *g, const uint8_t *sv)
{
	return (uint32_t *)(sv + g->pm_off);
}
static uint32_t *wpq(const struct gpu *g, const uint8_t *sv)
{
	return nvm(g, sv) + G_WORDS(g);
}
static uint32_t *clwb_mask(const struct gpu *g, const uint8_t *sv)
{
	return wpq(g, sv) + G_WORDS(g);
}
static uint32_t *wt_mask(const struct gpu *g, const uint8_t *sv)
{
	return clwb_mask(g, sv) + G_WORDS(g);
}
static struct pm_warp *pw(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	return (struct pm_warp *)(wt_mask(g, sv) + G_WORDS(g)) + w;
}
/* The host after the kernel: step index, and l2wb word cursor + 1. */
struct pm_host {
	uint16_t pc, cursor;
};

static struct pm_host *host(const struct gpu *g, const uint8_t *sv)
{
	return (struct pm_host *)pw(g, sv, g->nwarps);
}

static uint8_t *flags(const struct gpu *g, const uint8_t *sv)
{
	return (uint8_t *)(host(g, sv) + 1);
}

size_t pm_layout(struct gpu *g, size_t off)
{
	g->pm_off = off;
	size_t n = 16 * (size_t)G_WORDS(g) + sizeof(struct pm_warp) * g->nwarps + sizeof(struct pm_host) +
	           G_WORDS(g);
	return (n + 7) & ~(size_t)7;
}

void pm_init(const struct gpu *g, uint8_t *sv)
{
	/* the initial data is in device memory, i.e. NVM */
	memcpy(nvm(g, sv), sv, 4 * (size_t)G_WORDS(g));
}

void pm_dirty(const struct gpu *g, uint8_t *sv, uint32_t word)
{
	flags(g, sv)[word] |= PM_DIRTY;
}

int pm_l2wb_busy(const struct gpu *g, const uint8_t *sv)
{
	for (unsigned w = 0; w < g->nwarps; w++)
		if (pw(g, sv, w)->cursor)
			return 1;
	return 0;
}

/* The dirty word leaves the L2 for its WPQ. */
static void write_back(const struct gpu *g, uint8_t *sv, uint32_t word)
{
	uint8_t *f = &flags(g, sv)[word];
	if (!(*f & PM_DIRTY))
		return;
	wpq(g, sv)[word] = ((uint32_t *)sv)[word];
	*f = (uint8_t)((*f & ~PM_DIRTY) | PM_INWPQ);
}

/* The warps in mask got their acknowledgement. */
static void ack(const struct gpu *g, uint8_t *sv, uint32_t mask)
{
	for (unsigned w = 0; mask; w++, mask >>= 1)
		if (mask & 1)
			pw(g, sv, w)->outstanding--;
}

static int wpq_empty(const struct gpu *g, const uint8_t *sv)
{
	for (uint32_t i = 0; i < G_WORDS(g); i++)
		if (flags(g, sv)[i] & PM_INWPQ)
			return 0;
	return 1;
}

/* Warps waiting at sfence/membar/pcommit whose condition now holds. */
void pm_wake(const struct gpu *g, uint8_t *sv)
{
	int empty = -1;
	for (unsigned w = 0; w < g->nwarps; w++) {
		struct warp_hdr *h = gpu_warp(g, sv, w);
		if (h->status != W_ATOMIC || h->pending)
			continue;
		enum opcode op = g->prog->ins[warp_pc(g, sv, w)].op;
		if ((op == OP_SFENCE || op == OP_MEMBAR) && !pw(g, sv, w)->outstanding) {
			warp_advance(g, sv, w);
		} else if (op == OP_PCOMMIT) {
			if (empty < 0)
				empty = wpq_empty(g, sv);
			if (empty)
				warp_advance(g, sv, w);
		}
	}
}

/* The global word lane l of warp w addresses, or -1 after faulting it. */
static long lane_word(const struct gpu *g, uint8_t *sv, unsigned w, unsigned l, const struct instr *in)
{
	int fault = 0;
	uint32_t *word = mem_word(g, sv, SP_GLOBAL, 0, in->addr.sym, warp_address(g, sv, w, l), &fault);
	if (!word) {
		warp_fault(g, sv, w, fault);
		return -1;
	}
	return word - (uint32_t *)sv;
}

/* Warp w now waits for the acknowledgement of word i in mask[i]. */
static void await(const struct gpu *g, uint8_t *sv, unsigned w, uint32_t *mask)
{
	if (!(*mask & (1u << w))) {
		*mask |= 1u << w;
		pw(g, sv, w)->outstanding++;
	}
}

int pm_issue(const struct gpu *g, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m)
{
	struct pm_warp *p = pw(g, sv, w);
	struct warp_hdr *h = gpu_warp(g, sv, w);
	switch (in->op) {
	case OP_ST:
		if (!in->wt || in->space != SP_GLOBAL)
			return 0;
		/* st.wt, like clwb, is acknowledged later */
		/* fall through */
	case OP_CLWB:
		for (unsigned l = 0; l < g->cfg.threads_per_warp; l++) {
			if (!(m >> l & 1))
				continue;
			long i = lane_word(g, sv, w, l, in);
			if (i < 0)
				return 1;
			if (in->op == OP_CLWB) {
				await(g, sv, w, &clwb_mask(g, sv)[i]);
				continue;
			}
			/* st.wt: the L2 copy stays clean, the value goes to the
			** WPQ and is acknowledged once it is in NVM */
			((uint32_t *)sv)[i] = wpq(g, sv)[i] = warp_operand(g, sv, w, l, &in->src[0]);
			flags(g, sv)[i] = PM_INWPQ;
			await(g, sv, w, &wt_mask(g, sv)[i]);
		}
		warp_advance(g, sv, w);
		return 1;
	case OP_SFENCE:
	case OP_MEMBAR:
		if (p->outstanding || h->pending) {
			h->status = W_ATOMIC; /* until the acknowledgements are in */
			return 1;
		}
		warp_advance(g, sv, w);
		return 1;
	case OP_PCOMMIT:
		if (!wpq_empty(g, sv)) {
			h->status = W_ATOMIC; /* until every WPQ drained */
			return 1;
		}
		warp_advance(g, sv, w);
		return 1;
	case OP_L2WB:
		/* one word per step: a crash can come between any two */
		if (!p->cursor) {
			p->cursor = 1;
			return 1;
		}
		if (p->cursor - 1u < G_WORDS(g)) {
			write_back(g, sv, p->cursor - 1u);
			p->cursor++;
			return 1;
		}
		p->cursor = 0;
		warp_advance(g, sv, w);
		return 1;
	default:
		return 0;
	}
}

/* Environment actions: arg = word.  EVICT has no concrete-mode unit:
** concrete runs keep dirty lines until something writes them back. */
unsigned pm_enabled(const struct gpu *g, const uint8_t *sv, struct action *out)
{
	unsigned n = 0, mc = g->cfg.sms * g->cfg.schedulers;
	const uint8_t *f = flags(g, sv);
	for (uint32_t i = 0; i < G_WORDS(g); i++) {
		unsigned p = mem_partition(g, i * 4);
		if (clwb_mask(g, sv)[i])
			out[n++] = (struct action){ GPU_A_CLWB_DONE, (uint16_t)(mc + p), g->nwarps + g->nqueues + g->cfg.sms + 1 + i, i };
		if (f[i] & PM_DIRTY)
			out[n++] = (struct action){ GPU_A_EVICT, UINT16_MAX, 0, i };
		if (f[i] & PM_INWPQ)
			out[n++] = (struct action){ GPU_A_WPQ_DRAIN, (uint16_t)(mc + p), g->nwarps + g->nqueues + g->cfg.sms + 1 + i, i };
	}
	/* the host's next step, once the kernel finished */
	const struct pm_host *hs = host(g, sv);
	if (hs->pc < g->prog->nhost && pm_kernel_done(g, sv) &&
	    (g->prog->host[hs->pc] != H_PCOMMIT || wpq_empty(g, sv)))
		out[n++] = (struct action){ GPU_A_HOST, (uint16_t)(mc + g->cfg.partitions),
		                            g->nwarps + g->nqueues + g->cfg.sms + 1 + G_WORDS(g), hs->pc };
	out[n++] = (struct action){ ACT_CRASH, UINT16_MAX, 0, 0 };
	return n;
}

int pm_kernel_done(const struct gpu *g, const uint8_t *sv)
{
	for (unsigned w = 0; w < g->nwarps; w++)
		if (gpu_warp(g, (uint8_t *)sv, w)->status != W_DONE)
			return 0;
	return 1;
}

int pm_host_done(const struct gpu *g, const uint8_t *sv)
{
	return host(g, sv)->pc >= g->prog->nhost;
}

/* One host step; cudaL2WB walks one word per step like the l2wb
** instruction, so a crash can hit it mid-way. */
static void host_step(const struct gpu *g, uint8_t *sv)
{
	struct pm_host *hs = host(g, sv);
	if (g->prog->host[hs->pc] == H_L2WB) {
		if (!hs->cursor)
			hs->cursor = 1;
		if (hs->cursor - 1u < G_WORDS(g)) {
			write_back(g, sv, hs->cursor - 1u);
			hs->cursor++;
			return;
		}
		hs->cursor = 0;
	}
	hs->pc++;
}

void pm_apply(const struct gpu *g, uint8_t *sv, const struct action *a)
{
	uint32_t i = a->arg;
	switch (a->kind) {
	case GPU_A_EVICT:
		write_back(g, sv, i);
		break;
	case GPU_A_CLWB_DONE:
		write_back(g, sv, i); /* a clean line just acknowledges */
		ack(g, sv, clwb_mask(g, sv)[i]);
		clwb_mask(g, sv)[i] = 0;
		pm_wake(g, sv);
		break;
	case GPU_A_HOST:
		host_step(g, sv);
		break;
	case GPU_A_WPQ_DRAIN:
		nvm(g, sv)[i] = wpq(g, sv)[i];
		wpq(g, sv)[i] = 0;
		flags(g, sv)[i] &= (uint8_t)~PM_INWPQ;
		ack(g, sv, wt_mask(g, sv)[i]);
		wt_mask(g, sv)[i] = 0;
		pm_wake(g, sv);
		break;
	default: /* ACT_CRASH is the explorer's; applying it changes nothing */
		break;
	}
}

static void word_name(const struct gpu *g, uint32_t i, struct strbuf *out)
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

void pm_describe(const struct gpu *g, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	static const char *const hname[] = { "cudaDeviceSynchronize()", "cudaL2WB()", "pcommit (WPQs drained)" };
	switch (a->kind) {
	case GPU_A_HOST: {
		const struct pm_host *hs = host(g, sv);
		sb_printf(out, "host step %u: %s", a->arg + 1, hname[g->prog->host[a->arg]]);
		if (g->prog->host[a->arg] == H_L2WB) {
			sb_puts(out, hs->cursor - 1u < G_WORDS(g) || !hs->cursor ? ", writes back " : ", done");
			if (hs->cursor - 1u < G_WORDS(g) || !hs->cursor)
				word_name(g, hs->cursor ? hs->cursor - 1u : 0, out);
		}
		return;
	}
	case GPU_A_EVICT: sb_puts(out, "L2 evicts dirty "); break;
	case GPU_A_CLWB_DONE: sb_puts(out, "clwb reaches the WPQ for "); break;
	case GPU_A_WPQ_DRAIN: sb_puts(out, "WPQ drains to NVM: "); break;
	default: sb_puts(out, "CRASH: power fails; only the persistence domain survives"); return;
	}
	word_name(g, a->arg, out);
}

void pm_print(const struct gpu *g, const uint8_t *sv, struct strbuf *out)
{
	const uint8_t *f = flags(g, sv);
	for (uint32_t i = 0; i < G_WORDS(g); i++) {
		if (!f[i] && nvm(g, sv)[i] == ((const uint32_t *)sv)[i])
			continue;
		sb_puts(out, "  ");
		word_name(g, i, out);
		sb_printf(out, ": NVM %u%s", nvm(g, sv)[i], f[i] & PM_DIRTY ? ", dirty in L2" : "");
		if (f[i] & PM_INWPQ)
			sb_printf(out, ", WPQ holds %u", wpq(g, sv)[i]);
		sb_putc(out, '\n');
	}
}

void pm_durable(const struct gpu *g, const uint8_t *sv, uint8_t *img)
{
	memcpy(img, nvm(g, sv), 4 * (size_t)G_WORDS(g)); /* the rest of img is zero */
	if (g->cfg.wpq_durable)
		for (uint32_t i = 0; i < G_WORDS(g); i++)
			if (flags(g, sv)[i] & PM_INWPQ)
				((uint32_t *)img)[i] = wpq(g, sv)[i];
}
