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
** NVM.  `pcommit` waits until every WPQ is empty.  `l2wb` walks the L2 line
** by line (line_bytes), one step each, so a crash can hit it mid-way;
** while it runs, other warps' global accesses wait (it "blocks subsequent
** L2 accesses").
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

#include <stdlib.h>
#include <string.h>

#include "machines/alu.h"
#include "machines/memory.h"
#include "machines/rop.h"
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
/* The host program: step index, and word cursor + 1 of a cudaL2WB or
** copy in progress.  Also the number of words in a WPQ and with a clwb
** in flight, so the environment actions need no scan when there are
** none (PM-3: they equal the counts of PM_INWPQ flags and of non-zero
** clwb masks). */
struct pm_host {
	uint16_t pc, cursor;
	uint32_t ninwpq, nclwb;
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
	/* cursors are u16 word counts (checked by gpu_build: G <= 65000) */
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

/* Word `word` now has an entry in its WPQ. */
static void into_wpq(const struct gpu *g, uint8_t *sv, uint32_t word, uint32_t value)
{
	uint8_t *f = &flags(g, sv)[word];
	if (!(*f & PM_INWPQ))
		host(g, sv)->ninwpq++;
	wpq(g, sv)[word] = value;
	*f = PM_INWPQ; /* and no longer dirty */
}

/* The dirty word leaves the L2 for its WPQ. */
static void write_back(const struct gpu *g, uint8_t *sv, uint32_t word)
{
	if (flags(g, sv)[word] & PM_DIRTY)
		into_wpq(g, sv, word, ((uint32_t *)sv)[word]);
}

/* One step of an L2 write-back pass (the l2wb instruction, cudaL2WB):
** the next line (line_bytes) is written back, so a crash can come between
** any two lines.  *cursor is the next word + 1 (0: not started); returns
** 1 when the pass is over. */
static int l2wb_step(const struct gpu *g, uint8_t *sv, uint16_t *cursor)
{
	uint32_t k = *cursor ? *cursor - 1u : 0, per = g->cfg.line_bytes / 4;
	if (k >= G_WORDS(g)) {
		*cursor = 0;
		return 1;
	}
	for (uint32_t i = k; i < k + per && i < G_WORDS(g); i++)
		write_back(g, sv, i);
	*cursor = (uint16_t)(k + per + 1 > G_WORDS(g) + 1 ? G_WORDS(g) + 1 : k + per + 1);
	return 0;
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
	return host(g, sv)->ninwpq == 0;
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
	if (!*mask && mask >= clwb_mask(g, sv) && mask < clwb_mask(g, sv) + G_WORDS(g))
		host(g, sv)->nclwb++;
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
			((uint32_t *)sv)[i] = warp_operand(g, sv, w, l, &in->src[0]);
			into_wpq(g, sv, (uint32_t)i, ((uint32_t *)sv)[i]);
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
		if (l2wb_step(g, sv, &p->cursor))
			warp_advance(g, sv, w);
		return 1;
	default:
		return 0;
	}
}

/* Environment actions: arg = word.  EVICT and CRASH have no
** concrete-mode unit (concrete runs keep dirty lines until something
** writes them back, and never crash); with `timed` they are left out. */
unsigned pm_enabled(const struct gpu *g, const uint8_t *sv, struct action *out, int timed)
{
	unsigned n = 0, mc = g->cfg.sms * g->cfg.schedulers;
	const uint8_t *f = flags(g, sv);
	const struct pm_host *cnt = host(g, sv);
	if (!timed || cnt->ninwpq || cnt->nclwb)
		for (uint32_t i = 0; i < G_WORDS(g); i++) {
			unsigned p = mem_partition(g, i * 4);
			if (clwb_mask(g, sv)[i])
				out[n++] = (struct action){ GPU_A_CLWB_DONE, (uint16_t)(mc + p),
				                            g->nwarps + g->nqueues + g->cfg.sms + 1 + i, i };
			if (f[i] & PM_DIRTY && !timed)
				out[n++] = (struct action){ GPU_A_EVICT, UINT16_MAX, 0, i };
			if (f[i] & PM_INWPQ)
				out[n++] = (struct action){ GPU_A_WPQ_DRAIN, (uint16_t)(mc + p),
				                            g->nwarps + g->nqueues + g->cfg.sms + 1 + i, i };
		}
	/* the host's next step */
	const struct pm_host *hs = host(g, sv);
	if (hs->pc < g->prog->nhost) {
		const struct host_step *st = &g->prog->host[hs->pc];
		int after = g->prog->launch_at < 0 || hs->pc > g->prog->launch_at;
		if ((!after || pm_kernel_done(g, sv)) && (st->op != H_PCOMMIT || wpq_empty(g, sv)))
			out[n++] = (struct action){ GPU_A_HOST, (uint16_t)(mc + g->cfg.partitions),
			                            g->nwarps + g->nqueues + g->cfg.sms + 1 + G_WORDS(g), hs->pc };
	}
	if (!timed)
		out[n++] = (struct action){ ACT_CRASH, UINT16_MAX, 0, 0 };
	return n;
}

/* The kernel is over when every warp exited and its atomics were
** performed (cudaDeviceSynchronize waits for both). */
int pm_kernel_done(const struct gpu *g, const uint8_t *sv)
{
	for (unsigned w = 0; w < g->nwarps; w++)
		if (gpu_warp(g, (uint8_t *)sv, w)->status != W_DONE)
			return 0;
	return rop_quiescent(g, sv);
}

int pm_kernel_launched(const struct gpu *g, const uint8_t *sv)
{
	return g->prog->launch_at < 0 || host(g, sv)->pc > g->prog->launch_at;
}

int pm_host_done(const struct gpu *g, const uint8_t *sv)
{
	return host(g, sv)->pc >= g->prog->nhost;
}

/* Words of step variable sym (element index, or all of it). */
static void var_words(const struct gpu *g, int sym, long index, uint32_t *first, uint32_t *n)
{
	const struct symbol *s = &g->prog->syms[sym];
	*first = s->base / 4 + (index >= 0 ? (uint32_t)index : 0);
	*n = index >= 0 ? 1 : s->nelems;
}

/* One host step.  cudaL2WB writes back a line per step and cudaMemcpy
** copies a word per step, so a crash can hit them mid-way; a host store
** goes through the L2 like a kernel's; `persist` is the host's clwb;
** sfence into persistent host memory: the variable is durable at once. */
static void host_step(const struct gpu *g, uint8_t *sv)
{
	struct pm_host *hs = host(g, sv);
	const struct host_step *st = &g->prog->host[hs->pc];
	uint32_t *vis = (uint32_t *)sv, first, n;
	switch (st->op) {
	case H_L2WB:
		if (!l2wb_step(g, sv, &hs->cursor))
			return;
		break;
	case H_COPY:
		/* cudaMemcpy: one word per step, through the L2 */
		n = st->index >= 0 ? 1 : g->prog->syms[st->sym].nelems;
		if (!hs->cursor)
			hs->cursor = 1;
		if (hs->cursor - 1u < n) {
			uint32_t k = hs->cursor - 1u;
			uint32_t off = st->index >= 0 ? (uint32_t)st->index : k;
			uint32_t soff = st->index >= 0 ? st->value : k;
			uint32_t d = g->prog->syms[st->sym].base / 4 + off;
			vis[d] = vis[g->prog->syms[st->sym2].base / 4 + soff];
			pm_dirty(g, sv, d);
			hs->cursor++;
			return;
		}
		hs->cursor = 0;
		break;
	case H_STORE:
		var_words(g, st->sym, st->index, &first, &n);
		for (uint32_t k = 0; k < n; k++) {
			vis[first + k] = st->value;
			pm_dirty(g, sv, first + k);
		}
		break;
	case H_PERSIST:
		var_words(g, st->sym, st->index, &first, &n);
		for (uint32_t k = 0; k < n; k++) {
			nvm(g, sv)[first + k] = vis[first + k];
			if (flags(g, sv)[first + k] & PM_INWPQ)
				hs->ninwpq--;
			flags(g, sv)[first + k] = 0;
		}
		break;
	default: /* sync, pcommit (enabled once the WPQs are empty), launch */
		break;
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
		host(g, sv)->nclwb--;
		pm_wake(g, sv);
		break;
	case GPU_A_HOST:
		host_step(g, sv);
		break;
	case GPU_A_WPQ_DRAIN:
		nvm(g, sv)[i] = wpq(g, sv)[i];
		wpq(g, sv)[i] = 0;
		flags(g, sv)[i] &= (uint8_t)~PM_INWPQ;
		host(g, sv)->ninwpq--;
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
	static const char *const hname[] = { "cudaDeviceSynchronize()", "cudaL2WB()", "pcommit (WPQs drained)",
		"launch the kernel", "cudaMemcpy", "store", "persist (host clwb; sfence: durable)" };
	switch (a->kind) {
	case GPU_A_HOST: {
		const struct pm_host *hs = host(g, sv);
		const struct host_step *st = &g->prog->host[a->arg];
		sb_printf(out, "host step %u: %s", a->arg + 1, hname[st->op]);
		if (st->op == H_COPY || st->op == H_STORE || st->op == H_PERSIST) {
			sb_printf(out, " %s", g->prog->syms[st->sym].name);
			if (st->index >= 0)
				sb_printf(out, "[%ld]", st->index);
		}
		if (st->op == H_STORE)
			sb_printf(out, " = %u", st->value);
		if (st->op == H_COPY) {
			sb_printf(out, " <- %s", g->prog->syms[st->sym2].name);
			if (st->index >= 0)
				sb_printf(out, "[%u]", st->value);
		}
		if (st->op == H_L2WB || st->op == H_COPY) {
			uint32_t n = st->op == H_L2WB ? G_WORDS(g) : st->index >= 0 ? 1 : g->prog->syms[st->sym].nelems;
			uint32_t k = hs->cursor ? hs->cursor - 1u : 0;
			if (k < n)
				sb_printf(out, ", word %u of %u", k + 1, n);
			else
				sb_puts(out, ", done");
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

/* Does recovery step st apply to CTA cta (its `where` condition)?  -1
** with why when the variable has no element for that CTA. */
static int cta_selected(const struct gpu *g, const uint8_t *img, const struct host_step *st, unsigned cta,
                        struct strbuf *why)
{
	if (!st->where)
		return 1;
	const struct symbol *s = &g->prog->syms[st->wsym];
	if (cta >= s->nelems) {
		sb_printf(why, "where %s[cta]: CTA %u has no element", s->name, cta);
		return -1;
	}
	return alu_cmp(st->wcmp, s->type, ((const uint32_t *)img)[s->base / 4 + cta], st->wvalue);
}

/* Re-execute the kernel on img (only the CTAs `where` selects): warps start
** afresh and run along one schedule -- the first warp that can issue,
** atomics performed in order -- which is every schedule's result for a
** deterministic kernel (gpumc check verifies that separately). */
static int relaunch(const struct model *m, const struct gpu *g, uint8_t *img, const struct host_step *st,
                    struct strbuf *why)
{
	for (unsigned w = 0; w < g->nwarps; w++) {
		memset(gpu_warp(g, img, w), 0, g->warp_bytes);
		int run = cta_selected(g, img, st, gpu_cta_of(g, w), why);
		if (run < 0)
			return 0;
		if (run)
			warp_init(g, img, w);
		else
			gpu_warp(g, img, w)->status = W_DONE;
	}
	host(g, img)->pc = (uint16_t)g->prog->nhost; /* the host is past its launch */
	struct action *act = xmalloc(sizeof *act * (m->max_actions + 1));
	int ok = 0;
	for (unsigned long steps = 0; steps < 10000000ul; steps++) {
		unsigned n = m->enabled(m, img, act), k;
		/* progress only: warps, ROPs, clwb and WPQ completions (which
		** sfence and pcommit wait for); no evictions, no crash */
		for (k = 0; k < n; k++)
			if (act[k].kind == GPU_A_ISSUE || act[k].kind == GPU_A_ROP || act[k].kind == GPU_A_CLWB_DONE ||
			    act[k].kind == GPU_A_WPQ_DRAIN)
				break;
		if (k == n) {
			ok = pm_kernel_done(g, img);
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

int pm_reexecute(const struct model *m, const struct gpu *g, uint8_t *img, struct strbuf *why)
{
	static const struct host_step all = { .op = H_LAUNCH, .sym = -1, .sym2 = -1, .index = -1 };
	return relaunch(m, g, img, &all, why);
}

int pm_recover(const struct model *m, const struct gpu *g, uint8_t *img, struct strbuf *why)
{
	uint32_t *mem = (uint32_t *)img, first, n;
	for (int pc = 0; pc < g->prog->nrecovery; pc++) {
		const struct host_step *st = &g->prog->recovery[pc];
		switch (st->op) {
		case H_IF:
			var_words(g, st->sym, st->index, &first, &n);
			if (!alu_cmp(st->cmp, g->prog->syms[st->sym].type, mem[first], st->value))
				pc = st->skip;
			break;
		case H_COPY: {
			if (st->index >= 0) { /* one element */
				mem[g->prog->syms[st->sym].base / 4 + (uint32_t)st->index] =
					mem[g->prog->syms[st->sym2].base / 4 + st->value];
				break;
			}
			/* with `where`, CTA c owns the c-th equal slice of the arrays */
			uint32_t total = g->prog->syms[st->sym].nelems, per = st->where ? total / g->cfg.ctas : total;
			for (unsigned c = 0; c < (st->where ? g->cfg.ctas : 1u); c++) {
				int sel = cta_selected(g, img, st, c, why);
				if (sel < 0)
					return 0;
				if (sel)
					memmove(mem + g->prog->syms[st->sym].base / 4 + c * per,
					        mem + g->prog->syms[st->sym2].base / 4 + c * per, 4 * (size_t)per);
			}
			break;
		}
		case H_STORE:
			var_words(g, st->sym, st->index, &first, &n);
			for (uint32_t k = 0; k < n; k++)
				mem[first + k] = st->value;
			break;
		case H_LAUNCH:
			if (!relaunch(m, g, img, st, why))
				return 0;
			break;
		default: /* persist, sync, l2wb, pcommit, end: the image is what counts */
			break;
		}
	}
	return 1;
}

void pm_durable(const struct gpu *g, const uint8_t *sv, uint8_t *img)
{
	memcpy(img, nvm(g, sv), 4 * (size_t)G_WORDS(g)); /* the rest of img is zero */
	if (g->cfg.wpq_durable)
		for (uint32_t i = 0; i < G_WORDS(g); i++)
			if (flags(g, sv)[i] & PM_INWPQ)
				((uint32_t *)img)[i] = wpq(g, sv)[i];
}
