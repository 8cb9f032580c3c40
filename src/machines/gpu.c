/*
** Composition of the GPU machines: lays out the state vector (gpu.h) and
** routes each action to the component that owns it.  Enabled actions, in
** this order: an ISSUE for every warp its scheduler lets issue
** (scheduler.c, dab_sched.c), then on the baseline a ROP action for every
** non-empty (SM, partition) FIFO (rop.c), on DAB the FLUSH and DRAIN
** actions of the atomic buffers (dab.c).
*/
#include "config.h"
#include "machines/gpu.h"

#include <stdlib.h>
#include <string.h>

#include "machines/atomic_entry.h"
#include "machines/dab.h"
#include "machines/dab_sched.h"
#include "machines/memory.h"
#include "machines/persist.h"
#include "machines/persist_models.h"
#include "machines/idempotency.h"
#include "machines/weakmem.h"
#include "machines/registry.h"
#include "machines/rop.h"
#include "machines/scheduler.h"
#include "machines/warp.h"
#include "util/strbuf.h"

#define G(m) ((const struct gpu *)(m)->priv)

static void gpu_init(const struct model *m, uint8_t *sv)
{
	const struct gpu *g = G(m);
	memset(sv, 0, m->sv_size);
	mem_init(g, sv);
	for (unsigned w = 0; w < g->nwarps; w++)
		warp_init(g, sv, w);
	if (g->cfg.persist)
		pm_init(g, sv);
}

static unsigned enabled(const struct model *m, const uint8_t *sv, struct action *out, int timed)
{
	const struct gpu *g = G(m);
	unsigned n = sched_enabled(g, sv, out);
	if (g->cfg.dab) {
		int sm_issue[64] = { 0 };
		for (unsigned i = 0; i < n; i++)
			sm_issue[gpu_sm_of(g, out[i].subject)] = 1;
		return n + dab_enabled(g, sv, n > 0, sm_issue, out + n);
	}
	/* a partition's ROP is one unit: it serves one FIFO per cycle */
	for (unsigned q = 0; q < g->nqueues; q++)
		if (rop_count(g, sv, q))
			out[n++] = (struct action){ GPU_A_ROP, (uint16_t)(g->cfg.sms * g->cfg.schedulers + q % g->cfg.partitions),
			                            g->nwarps + q, q };
	if (g->cfg.persist)
		n += pm_enabled(g, sv, out + n, timed);
	return n;
}

static unsigned gpu_enabled(const struct model *m, const uint8_t *sv, struct action *out)
{
	return enabled(m, sv, out, 0);
}

static unsigned gpu_enabled_timed(const struct model *m, const uint8_t *sv, struct action *out)
{
	return enabled(m, sv, out, 1);
}

static void gpu_apply(const struct model *m, uint8_t *sv, const struct action *a)
{
	const struct gpu *g = G(m);
	if (a->kind == GPU_A_ISSUE && g->cfg.dab) {
		unsigned w = a->subject, pc = warp_pc(g, sv, w);
		struct dab_sched_view v;
		dab_sched_view(g, sv, gpu_sched_of(g, w), &v);
		int atomic = warp_at_global_atomic(g, sv, w);
		warp_issue(g, sv, w);
		int buffered = atomic && (warp_pc(g, sv, w) != pc || (gpu_warp(g, sv, w)->pending & 0x80));
		dab_sched_issued(g, sv, w, &v, atomic, buffered);
	} else if (a->kind == GPU_A_ISSUE) {
		warp_issue(g, sv, a->subject);
	} else if (a->kind == GPU_A_ROP) {
		rop_perform(g, sv, a->arg);
	} else if (a->kind == GPU_A_FLUSH || a->kind == GPU_A_DRAIN) {
		dab_apply(g, sv, a);
	} else {
		pm_apply(g, sv, a);
	}
}

static int gpu_still_enabled(const struct model *m, const uint8_t *sv, const struct action *a)
{
	const struct gpu *g = G(m);
	if (a->kind != GPU_A_ISSUE)
		return 1; /* FIFO heads and flushes are not taken by other units */
	unsigned w = a->subject;
	if (gpu_warp(g, (uint8_t *)sv, w)->status != W_READY)
		return 0;
	return g->cfg.dab || !warp_at_global_atomic(g, sv, w) ||
	       rop_can_accept(g, sv, w, warp_exec_mask(g, (uint8_t *)sv, w));
}

static enum model_status gpu_status(const struct model *m, const uint8_t *sv)
{
	const struct gpu *g = G(m);
	int done = 1;
	for (unsigned w = 0; w < g->nwarps; w++) {
		uint8_t st = gpu_warp(g, (uint8_t *)sv, w)->status;
		if (st == W_FAULT)
			return MS_FAULT;
		if (st != W_DONE)
			done = 0;
	}
	if (done && (g->cfg.dab ? !dab_quiescent(g, sv) : !rop_quiescent(g, sv)))
		done = 0; /* atomics still buffered or in flight */
	if (done && g->cfg.persist && !pm_host_done(g, sv))
		done = 0; /* the host still has steps to run */
	return done ? MS_TERMINAL : MS_RUNNING;
}

static void gpu_describe(const struct model *m, const uint8_t *sv, const struct action *a,
                         struct strbuf *out)
{
	const struct gpu *g = G(m);
	uint8_t *s = (uint8_t *)sv;
	if (a->kind == GPU_A_ISSUE) {
		unsigned w = a->subject, pc = warp_pc(g, sv, w);
		sb_printf(out, "warp %u (cta %u, sm %u) issues pc %u mask 0x%x: %s", w, gpu_cta_of(g, w),
		          gpu_sm_of(g, w), pc, warp_exec_mask(g, s, w), g->prog->ins[pc].text);
	} else if (a->kind == GPU_A_FLUSH || a->kind == GPU_A_DRAIN) {
		dab_describe(g, sv, a, out);
	} else if (a->kind != GPU_A_ROP) {
		pm_describe(g, sv, a, out);
	} else {
		rop_describe(g, sv, a->arg, out);
	}
}

static void print_value(const struct symbol *s, uint32_t v, struct strbuf *out)
{
	value_print(v, s->type, out);
}

static void gpu_print_state(const struct model *m, const uint8_t *sv, struct strbuf *out)
{
	const struct gpu *g = G(m);
	const struct program *p = g->prog;
	uint8_t *s = (uint8_t *)sv;
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *sym = &p->syms[i];
		if (sym->space != SP_GLOBAL)
			continue;
		sb_printf(out, "  %s =", sym->name);
		if (sym->is_array)
			sb_puts(out, " {");
		for (uint32_t k = 0; k < sym->nelems; k++) {
			sb_puts(out, k ? ", " : " ");
			print_value(sym, ((const uint32_t *)sv)[sym->base / 4 + k], out);
		}
		sb_puts(out, sym->is_array ? " }\n" : "\n");
	}
	static const char *const stname[] = { "ready", "at barrier", "waiting for atomic", "FAULT", "done",
		"waiting for a DAB flush" };
	for (unsigned w = 0; w < g->nwarps; w++) {
		struct warp_hdr *h = gpu_warp(g, s, w);
		if (h->status == W_DONE)
			continue;
		unsigned pc = warp_pc(g, sv, w);
		sb_printf(out, "  warp %u: %s at pc %u (%s)", w, stname[h->status], pc,
		          pc < (unsigned)p->nins ? p->ins[pc].text : "end");
		if (h->status == W_FAULT) {
			const struct instr *in = &p->ins[pc];
			sb_printf(out, ": %s (spec line %d)", warp_fault_name(h->fault), in->line);
		}
		sb_putc(out, '\n');
	}
	if (g->cfg.dab)
		dab_print(g, sv, out);
	if (g->cfg.persist)
		pm_print(g, sv, out);
}

static void gpu_durable(const struct model *m, const uint8_t *sv, uint8_t *img)
{
	memset(img, 0, m->sv_size);
	pm_durable(G(m), sv, img);
}

static int gpu_recover(const struct model *m, uint8_t *img, struct strbuf *why)
{
	return pm_recover(m, G(m), img, why);
}

static int gpu_reexecute(const struct model *m, uint8_t *img, struct strbuf *why)
{
	return pm_reexecute(m, G(m), img, why);
}

static int gpu_idempotent(const struct model *m, struct strbuf *why)
{
	return idem_kernel(G(m)->prog, why);
}

/* Locations: global words are 0..G-1; register r of global thread t is
** G + t*nregs + r. */
static int gpu_lookup(const struct model *m, int tid, const char *name, long index, enum vtype *type,
                      unsigned *count, struct strbuf *err)
{
	const struct gpu *g = G(m);
	const struct program *p = g->prog;
	if (tid >= 0) {
		unsigned nthreads = g->nwarps * g->cfg.threads_per_warp;
		if ((unsigned)tid >= nthreads) {
			sb_printf(err, "thread %d does not exist (the grid has %u threads)", tid, nthreads);
			return -1;
		}
		int r = program_find_reg(p, name);
		if (r < 0) {
			sb_printf(err, "unknown register '%s'", name);
			return -1;
		}
		*type = p->regs[r].type;
		*count = 1;
		return (int)(p->global_words + (unsigned)tid * (unsigned)p->nregs + (unsigned)r);
	}
	int s = program_find_sym(p, name);
	if (s < 0 || p->syms[s].space != SP_GLOBAL) {
		sb_printf(err, s < 0 ? "unknown variable '%s'" : "'%s' is in shared memory, which does not outlive the kernel", name);
		return -1;
	}
	const struct symbol *sym = &p->syms[s];
	*type = sym->type;
	if (index < 0) {
		*count = sym->nelems;
		return (int)(sym->base / 4);
	}
	if ((unsigned long)index >= sym->nelems) {
		sb_printf(err, "index %ld is outside '%s' (%u elements)", index, name, sym->nelems);
		return -1;
	}
	*count = 1;
	return (int)(sym->base / 4 + (uint32_t)index);
}

static uint32_t gpu_read(const struct model *m, const uint8_t *sv, int loc)
{
	const struct gpu *g = G(m);
	unsigned G_ = g->prog->global_words;
	if ((unsigned)loc < G_)
		return ((const uint32_t *)sv)[loc];
	unsigned k = (unsigned)loc - G_, nregs = (unsigned)g->prog->nregs;
	unsigned t = k / nregs, r = k % nregs, tpw = g->cfg.threads_per_warp;
	return gpu_regs(g, (uint8_t *)sv, t / tpw)[(size_t)r * tpw + t % tpw];
}

static void gpu_loc_name(const struct model *m, int loc, struct strbuf *out)
{
	const struct gpu *g = G(m);
	const struct program *p = g->prog;
	unsigned G_ = p->global_words;
	if ((unsigned)loc >= G_) {
		unsigned k = (unsigned)loc - G_;
		sb_printf(out, "%u:%s", k / (unsigned)p->nregs, p->regs[k % (unsigned)p->nregs].name);
		return;
	}
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *s = &p->syms[i];
		if (s->space == SP_GLOBAL && (unsigned)loc >= s->base / 4 && (unsigned)loc < s->base / 4 + s->nelems) {
			if (s->is_array)
				sb_printf(out, "%s[%u]", s->name, (unsigned)loc - s->base / 4);
			else
				sb_puts(out, s->name);
			return;
		}
	}
}

static enum vtype gpu_loc_type(const struct model *m, int loc)
{
	const struct program *p = G(m)->prog;
	if ((unsigned)loc >= p->global_words)
		return p->regs[((unsigned)loc - p->global_words) % (unsigned)p->nregs].type;
	for (int i = 0; i < p->nsyms; i++) {
		const struct symbol *s = &p->syms[i];
		if (s->space == SP_GLOBAL && (unsigned)loc >= s->base / 4 && (unsigned)loc < s->base / 4 + s->nelems)
			return s->type;
	}
	return VT_U32;
}

static unsigned gpu_default_obs(const struct model *m, int *locs, unsigned max)
{
	unsigned n = G(m)->prog->global_words;
	for (unsigned i = 0; i < n && i < max; i++)
		locs[i] = (int)i;
	return n;
}

/* {=== Concrete-mode timing ============================================== */

/* Concrete mode: the words warp w's current instruction addresses can be
** acted on by their memory controller after delay cycles. */
static void word_ready(const struct gpu *g, uint8_t *sv, unsigned w, struct timing *t, unsigned delay)
{
	uint32_t mask = warp_exec_mask(g, sv, w);
	for (unsigned l = 0; l < g->cfg.threads_per_warp; l++)
		if (mask >> l & 1) {
			t->upd[t->n].subject = g->nwarps + g->nqueues + g->cfg.sms + 1 + warp_address(g, sv, w, l) / 4;
			t->upd[t->n++].delay = delay;
		}
}

static void gpu_timing(const struct model *m, const uint8_t *sv, const struct action *a,
                       struct timing *t, uint64_t (*rnd)(void *), void *rng)
{
	const struct gpu *g = G(m);
	const struct gpu_cfg *c = &g->cfg;
	uint8_t *s = (uint8_t *)sv;
	t->busy = 1;
	t->n = 0;
	if (a->kind == GPU_A_FLUSH) {
		/* pre-flush messages, then each SM pushes one transaction per
		** cycle, partition by partition; with offset flushing SM s starts
		** at partition s mod P so the partitions are not all hit in the
		** same order */
		unsigned P = c->partitions, per_q[512], most = 0;
		dab_flush_transactions(g, sv, a, g->nqueues <= 512 ? per_q : NULL);
		for (unsigned s = 0; s < c->sms; s++) {
			if (a->arg < c->sms && s != a->arg)
				continue;
			unsigned sent = 0, start = c->offset_flush ? s % P : 0;
			for (unsigned j = 0; j < P && g->nqueues <= 512; j++) {
				unsigned p = (start + j) % P, q = s * P + p;
				if (!per_q[q])
					continue;
				sent += per_q[q];
				unsigned jit = c->icnt_jitter ? (unsigned)(rnd(rng) % (c->icnt_jitter + 1)) : 0;
				t->upd[t->n].subject = g->nwarps + q;
				t->upd[t->n++].delay = c->lat_flush + sent + c->lat_icnt + jit;
			}
			if (sent > most)
				most = sent;
		}
		t->busy = c->lat_flush + most; /* SMs push in parallel */
		/* warps released at the push (nr-of, nr-cif) wait for the acks */
		for (unsigned w = 0; w < g->nwarps && c->flush >= DF_NR_OF && t->n < TIMING_MAX_UPDATES; w++)
			if (gpu_warp(g, s, w)->status == W_FLUSHWAIT) {
				t->upd[t->n].subject = w;
				t->upd[t->n++].delay = t->busy + c->lat_icnt;
			}
		return;
	}
	if (a->kind == GPU_A_HOST || a->kind == GPU_A_EVICT)
		return; /* a host step (or an eviction, never timed): one cycle */
	if (a->kind == GPU_A_CLWB_DONE || a->kind == GPU_A_WPQ_DRAIN) {
		/* an NVM write takes lat_nvm_write; a memory controller keeps
		** NVM_BANKS of them in flight, so it starts one every
		** lat_nvm_write / NVM_BANKS cycles */
		enum { NVM_BANKS = 16 };
		t->busy = a->kind == GPU_A_WPQ_DRAIN ? (c->lat_nvm_write + NVM_BANKS - 1) / NVM_BANKS : 1;
		if (a->kind == GPU_A_CLWB_DONE) { /* the line is in the WPQ now */
			t->upd[t->n].subject = g->nwarps + g->nqueues + c->sms + 1 + a->arg;
			t->upd[t->n++].delay = c->lat_nvm_write;
		}
		return;
	}
	if (a->kind == GPU_A_DRAIN) {
		t->busy = c->lat_rop;
		/* the last entry of a flush releases the waiting warps */
		unsigned left = 0;
		for (unsigned q = 0; q < g->nqueues; q++)
			left += dab_queue_count(g, sv, q);
		for (unsigned w = 0; w < g->nwarps && left == 1 && t->n < TIMING_MAX_UPDATES; w++)
			if (gpu_warp(g, s, w)->status == W_FLUSHWAIT) {
				t->upd[t->n].subject = w;
				t->upd[t->n++].delay = c->lat_rop + c->lat_icnt;
			}
		return;
	}
	if (a->kind == GPU_A_ROP) {
		unsigned w = rop_head(g, sv, a->arg);
		t->busy = c->lat_rop;
		/* a warp waiting for this, its last atomic, hears back over the
		** interconnect */
		const struct warp_hdr *h = gpu_warp(g, s, w);
		if (h->status == W_ATOMIC && h->pending == 1) {
			t->upd[t->n].subject = w;
			t->upd[t->n++].delay = t->busy + c->lat_icnt;
		}
		return;
	}
	unsigned w = a->subject;
	const struct instr *in = &g->prog->ins[warp_pc(g, sv, w)];
	unsigned lat = c->lat_alu;
	switch (in->op) {
	case OP_LD:
	case OP_ST:
		lat = in->space == SP_SHARED ? c->lat_shared : c->lat_global;
		if (in->space == SP_GLOBAL && c->global_jitter)
			lat += (unsigned)(rnd(rng) % (c->global_jitter + 1));
		if (in->wt && c->persist) /* the data crosses, then is written */
			word_ready(g, s, w, t, c->lat_icnt + c->lat_nvm_write);
		break;
	case OP_BAR:
		lat = c->lat_bar;
		break;
	case OP_CLWB:
		/* the write-back request (or, for st.wt below, the data) crosses
		** the interconnect before the memory controller can act on it */
		if (c->persist)
			word_ready(g, s, w, t, c->lat_icnt);
		break;
	case OP_ATOM:
	case OP_RED:
		if (in->space == SP_SHARED) {
			lat = c->lat_shared;
		} else if (!c->dab) { /* DAB buffers it: no interconnect trip now */
			/* requests reach their partitions after the interconnect
			** latency plus seeded jitter: this is what orders arrivals
			** across SMs in concrete mode */
			uint32_t mask = warp_exec_mask(g, s, w);
			unsigned parts = 0;
			for (unsigned l = 0; l < c->threads_per_warp; l++)
				if (mask >> l & 1)
					parts |= 1u << mem_partition(g, warp_address(g, s, w, l));
			/* a FIFO that was empty gets a new head: it is ready once that
			** entry crossed; entries behind a head follow it in order */
			unsigned sm = gpu_sm_of(g, w);
			for (unsigned p = 0; p < c->partitions; p++)
				if (parts >> p & 1 && !rop_count(g, sv, sm * c->partitions + p)) {
					unsigned j = c->icnt_jitter ? (unsigned)(rnd(rng) % (c->icnt_jitter + 1)) : 0;
					t->upd[t->n].subject = g->nwarps + sm * c->partitions + p;
					t->upd[t->n++].delay = c->lat_icnt + j;
				}
		}
		break;
	default:
		break;
	}
	t->upd[t->n].subject = w;
	t->upd[t->n++].delay = lat;
}

enum { CT_INSTR, CT_ALU, CT_LD, CT_ST, CT_ATOM_ISSUE, CT_ATOM_LANES, CT_BAR, CT_BRANCH, CT_DIVERGE,
       CT_FLUSH, CT_FLUSH_ENTRIES, CT_FLUSH_TX, CT_N };
static const char *const gpu_counters[CT_N] = {
	"warp instructions", "alu/cvt/setp", "loads", "stores", "atomic warp-requests",
	"atomic lane-ops at ROP", "barriers", "branches", "divergent branches",
	"DAB flushes", "DAB flushed entries", "DAB flush transactions"
};

static void gpu_count(const struct model *m, const uint8_t *sv, const struct action *a, uint64_t *ct)
{
	const struct gpu *g = G(m);
	uint8_t *s = (uint8_t *)sv;
	if (a->kind == GPU_A_FLUSH) {
		ct[CT_FLUSH]++;
		ct[CT_FLUSH_ENTRIES] += dab_flush_entries(g, sv, a);
		ct[CT_FLUSH_TX] += dab_flush_transactions(g, sv, a, NULL);
		return;
	}
	if (a->kind == GPU_A_DRAIN) {
		ct[CT_ATOM_LANES]++;
		return;
	}
	if (a->kind == GPU_A_ROP) {
		ct[CT_ATOM_LANES]++;
		return;
	}
	if (a->kind != GPU_A_ISSUE)
		return;
	unsigned w = a->subject;
	const struct instr *in = &g->prog->ins[warp_pc(g, sv, w)];
	ct[CT_INSTR]++;
	switch (in->op) {
	case OP_LD: ct[CT_LD]++; break;
	case OP_ST: ct[CT_ST]++; break;
	case OP_ATOM:
	case OP_RED: ct[CT_ATOM_ISSUE]++; break;
	case OP_BAR: ct[CT_BAR]++; break;
	case OP_BRA: {
		ct[CT_BRANCH]++;
		if (in->pred >= 0) {
			uint32_t m0 = gpu_stack(g, s, w)[gpu_warp(g, s, w)->sp - 1].mask, t = 0;
			for (unsigned l = 0; l < g->cfg.threads_per_warp; l++)
				if (m0 >> l & 1 && (gpu_regs(g, s, w)[(size_t)in->pred * g->cfg.threads_per_warp + l] != 0) != in->pred_neg)
					t |= 1u << l;
			if (t && t != m0)
				ct[CT_DIVERGE]++;
		}
		break;
	}
	case OP_MEMBAR:
	case OP_EXIT:
	case OP_NOP:
		break;
	default: ct[CT_ALU]++; break;
	}
}

static unsigned gpu_pick(const struct model *m, const struct action *cand, unsigned n, uint32_t last,
                         uint64_t (*rnd)(void *), void *rng)
{
	if (G(m)->cfg.sched_policy == 1)
		return (unsigned)(rnd(rng) % n);
	return sched_pick_gto(cand, n, last);
}

/* }=== */

/* Everything a gpu owns (safe on a partly built one: calloc'd). */
static void gpu_free(struct gpu *g)
{
	free(g->pc_atomic);
	free(g->sched_warps);
	free(g->sched_first);
	free(g->warp_idx);
	if (g->own) {
		program_free(g->own);
		free(g->own);
	}
	free(g);
}

static void gpu_destroy(struct model *m)
{
	gpu_free(m->priv);
	free(m);
}

struct model *gpu_build(const struct spec *s, struct diag *d)
{
	struct gpu *g = xcalloc(1, sizeof *g);
	const struct machine_def *md = registry_find(registry_machine(s));
	if (params_apply(md, s, &g->cfg, d)) {
		gpu_free(g);
		return NULL;
	}
	struct gpu_cfg *c = &g->cfg;
	if (c->memory) {
		/* a weak memory: the kernel runs on the address-queue machine */
		struct gpu_cfg cfg = *c;
		gpu_free(g);
		return weakmem_build(s, &cfg, d);
	}
	c->dab = !strcmp(md->name, "dab");
	c->persist = !strcmp(md->name, "persist");
	g->prog = &s->prog;
	if (c->persist && c->persistency) {
		/* a persistency model rewrites a private copy of the kernel */
		g->own = xcalloc(1, sizeof *g->own);
		program_clone(g->own, &s->prog);
		struct strbuf err;
		sb_init(&err);
		if (pm_transform(g->own, c, &err)) {
			diag_at(d, s->path, 0, 0, "%s", sb_str(&err));
			sb_free(&err);
			gpu_free(g);
			return NULL;
		}
		sb_free(&err);
		g->prog = g->own;
	}
	g->nwarps = c->ctas * c->warps_per_cta;
	if (g->nwarps > 65535 || (uint64_t)g->nwarps * c->threads_per_warp > 1u << 24) {
		diag_at(d, s->path, 0, 0, "grid too large: %u warps", g->nwarps);
		gpu_free(g);
		return NULL;
	}
	if (g->prog->nins > 65534) {
		diag_at(d, s->path, 0, 0, "kernel too long (%d instructions, at most 65534)", s->prog.nins);
		gpu_free(g);
		return NULL;
	}
	g->pc_atomic = xcalloc((size_t)g->prog->nins + 1, 1);
	for (int i = 0; i < g->prog->nins; i++)
		g->pc_atomic[i] = (g->prog->ins[i].op == OP_ATOM || g->prog->ins[i].op == OP_RED) &&
		                  g->prog->ins[i].space == SP_GLOBAL;
	/* a SIMT stack never holds more than the bottom entry plus two per
	** conditional branch (a loop back-edge replaces its entry), so
	** smaller kernels get smaller state vectors */
	unsigned ncond = 0;
	for (int i = 0; i < g->prog->nins; i++)
		ncond += g->prog->ins[i].op == OP_BRA && g->prog->ins[i].pred >= 0;
	if (1 + 2 * ncond < c->stack_depth)
		c->stack_depth = 1 + 2 * ncond;
	unsigned ctas_per_sm = (c->ctas + c->sms - 1) / c->sms;
	g->warps_per_sm = ctas_per_sm * c->warps_per_cta;
	g->nqueues = c->sms * c->partitions;
	g->shared_off = (size_t)g->prog->global_words * 4;
	g->warp_off = g->shared_off + (size_t)g->prog->shared_words * 4 * c->ctas;
	g->stack_off = sizeof(struct warp_hdr);
	g->reg_off = g->stack_off + sizeof(struct stack_entry) * c->stack_depth;
	g->warp_bytes = g->reg_off + (size_t)g->prog->nregs * c->threads_per_warp * 4;
	g->rop_off = g->warp_off + g->warp_bytes * g->nwarps;
	g->rop_cap = c->icnt_queue ? c->icnt_queue : 2 * c->threads_per_warp;
	g->rop_bytes = c->dab ? 0 : 4 + sizeof(struct atomic_entry) * (size_t)g->rop_cap;
	/* 8-byte alignment: the DAB scheduler state holds a u64, and states
	** sit back to back in the visited set's arena */
	size_t end = (g->rop_off + g->rop_bytes * g->nqueues + 7) & ~(size_t)7;
	/* the warps of each scheduler, for the determinism-aware policies */
	unsigned nsched = c->sms * c->schedulers;
	g->sched_first = xcalloc(nsched + 1, sizeof(unsigned));
	g->sched_warps = xcalloc(g->nwarps + 1, sizeof(unsigned));
	g->warp_idx = xcalloc(g->nwarps + 1, sizeof(unsigned));
	for (unsigned w = 0; w < g->nwarps; w++)
		g->sched_first[gpu_sched_of(g, w) + 1]++;
	for (unsigned k = 0; k < nsched; k++)
		g->sched_first[k + 1] += g->sched_first[k];
	unsigned *fill = xcalloc(nsched + 1, sizeof(unsigned));
	for (unsigned w = 0; w < g->nwarps; w++) {
		unsigned k = gpu_sched_of(g, w);
		g->warp_idx[w] = fill[k];
		g->sched_warps[g->sched_first[k] + fill[k]++] = w;
	}
	free(fill);
	/* an atomic of a whole warp must fit where it goes, or it could never
	** issue: a deadlock the spec did not ask for */
	const char *small = NULL;
	if (c->dab && c->entries < c->threads_per_warp)
		small = "entries";
	if (!c->dab && c->icnt_queue && c->icnt_queue < c->threads_per_warp)
		small = "icnt_queue";
	if (small) {
		diag_at(d, s->path, 0, 0, "%s (%u) must hold one warp's atomic: at least threads_per_warp (%u)", small,
		        small[0] == 'e' ? c->entries : c->icnt_queue, c->threads_per_warp);
		gpu_free(g);
		return NULL;
	}
	if ((g->prog->host || g->prog->recovery) && !c->persist) {
		diag_at(d, s->path, 0, 0, "a %s block needs machine persist (machine '%s' has no persistence domain)",
		        g->prog->host ? "host" : "recovery", md->name);
		gpu_free(g);
		return NULL;
	}
	if (c->persist && g->prog->global_words > 65000) {
		diag_at(d, s->path, 0, 0, "the persist machine tracks at most 65000 global words (have %u)",
		        g->prog->global_words);
		gpu_free(g);
		return NULL;
	}
	if (c->persist && g->nwarps > 32) {
		diag_at(d, s->path, 0, 0, "the persist machine tracks at most 32 warps (have %u)", g->nwarps);
		gpu_free(g);
		return NULL;
	}
	if (c->persist)
		end += pm_layout(g, end);
	if (c->dab) {
		if (c->buffer_level && g->sched_first[1] > 64) {
			diag_at(d, s->path, 0, 0, "DAB schedulers order at most 64 warps each (have %u)", g->sched_first[1]);
			gpu_free(g);
			return NULL;
		}
		end += dab_layout(g, end);
	}
	struct model *m = xcalloc(1, sizeof *m);
	m->name = md->name;
	m->priv = g;
	m->sv_size = (end + 7) & ~(size_t)7;
	m->max_actions = g->nwarps + g->nqueues + c->sms + 1 + (c->persist ? 3 * g->prog->global_words + 2 : 0);
	if (c->persist) {
		m->durable_size = m->sv_size;
		m->durable = gpu_durable;
		if (g->prog->recovery)
			m->recover = gpu_recover;
		m->idempotent = gpu_idempotent;
		m->reexecute = gpu_reexecute;
	}
	m->init = gpu_init;
	m->enabled = gpu_enabled;
	m->apply = gpu_apply;
	m->status = gpu_status;
	m->describe = gpu_describe;
	m->print_state = gpu_print_state;
	m->lookup = gpu_lookup;
	m->read = gpu_read;
	m->loc_name = gpu_loc_name;
	m->loc_type = gpu_loc_type;
	m->default_observables = gpu_default_obs;
	m->nunits = c->sms * c->schedulers + g->nqueues + c->sms + 2;
	m->nsubjects = g->nwarps + g->nqueues + c->sms + 1 + (c->persist ? g->prog->global_words + 1 : 0);
	m->timing = gpu_timing;
	m->count = gpu_count;
	m->ncounters = CT_N;
	m->counter_names = gpu_counters;
	m->pick = gpu_pick;
	m->still_enabled = gpu_still_enabled;
	m->enabled_timed = gpu_enabled_timed;
	m->destroy = gpu_destroy;
	return m;
}
