/*
** Deterministic Atomic Buffering (Chou et al., DAB §IV-B..IV-F): global
** red/atom go to per-warp or per-scheduler atomic buffers instead of the
** ROP; buffers are flushed in a deterministic order, and each memory
** partition reorders the flushed entries round-robin by SM through its
** flush reorder buffer, so fp32 atomics round the same way every run.
**
** Buffers (§IV-B/C): entries (address, argument, opcode, valid) filled in
** issue order, lanes of one instruction by increasing thread id.  An
** instruction is buffered whole or not at all: without room the warp
** blocks (FLUSHWAIT) until a flush.  Fusion (§IV-E) folds an atomic into an
** entry with the same address and opcode.  `atom` returns a value, so its
** entries are never fused and the warp waits for the flush that performs
** them (§IV-A: "atom ... by incurring a buffer flush").
**
** Flush (§IV-D): a FLUSH is enabled when no warp can issue (every warp is
** blocked on a full buffer, at a fence, at an atomic its scheduler does not
** allow yet, at a barrier, or done) and something is buffered.  The paper's
** triggers -- all buffers full, kernel exit, a fence -- are the cases of
** this rule; it fires at a point fixed by the program, not by timing.  The
** FLUSH moves every entry, SM by SM, buffer by buffer, in entry order, into
** the FIFO from its SM to its partition (the pre-flush message is the FIFO
** length: the expected count).  A DRAIN action lets partition p perform the
** head of one FIFO:
**   ordered  only the FIFO of the SM whose turn it is (round robin over the
**            SMs that still have entries for p): the flush reorder buffer;
**   nr       any SM's head (no reorder: arrival order is free);
**   nr-of    nr, and warps resume as soon as the buffers are pushed, so a
**            next flush overlaps the previous one in the FIFOs;
**   nr-cif   nr-of, and each SM flushes on its own when its warps block.
** Warps waiting for the flush resume when it completes (ordered, nr) or
** when their SM's buffers were pushed (nr-of, nr-cif); a warp waiting for
** an `atom` result resumes once its entries were performed.
**
** State slice (at g->dab_off):
**   sched   per scheduler struct dab_sched_state (dab_sched.c)
**   bufs    per buffer: count u16, pad u16, entries x struct atomic_entry
**   prr     per partition: u16 round-robin SM of the ordered reorder buffer
**   queues  per (SM, partition): count u16, pad u16, cap x struct atomic_entry
** Invariants:
**   DAB-1 buffers are empty whenever a FIFO holds entries (ordered, nr);
**   DAB-2 a warp in FLUSHWAIT has pc on the instruction that blocked it,
**         unless its `pending` advance flag is set (its atom is buffered).
*/
#include "config.h"
#include "machines/dab.h"

#include <string.h>

#include "machines/alu.h"
#include "machines/atomic_entry.h"
#include "machines/barrier.h"
#include "machines/dab_sched.h"
#include "machines/memory.h"
#include "machines/warp.h"
#include "util/strbuf.h"

#define PEND_ADVANCE 0x80 /* warp_hdr.pending: advance past the atom on release */
#define PEND_DIRTY 0x40   /* warp_hdr.pending: atomics buffered since the last flush */
#define PEND_COUNT 0x3f   /* warp_hdr.pending: entries whose old value is owed */

struct dab_buf {
	uint16_t count, pad;
};

static struct dab_buf *buf(const struct gpu *g, const uint8_t *sv, unsigned b)
{
	return (struct dab_buf *)(sv + g->dab_buf_off + g->dab_buf_bytes * b);
}

static struct atomic_entry *buf_entries(const struct gpu *g, const uint8_t *sv, unsigned b)
{
	return (struct atomic_entry *)(sv + g->dab_buf_off + g->dab_buf_bytes * b + sizeof(struct dab_buf));
}

static uint16_t *queue(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return (uint16_t *)(sv + g->dab_q_off + g->dab_q_bytes * q);
}

static struct atomic_entry *queue_entries(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return (struct atomic_entry *)(sv + g->dab_q_off + g->dab_q_bytes * q + 4);
}

static uint16_t *prr(const struct gpu *g, const uint8_t *sv, unsigned p)
{
	return (uint16_t *)(sv + g->dab_prr_off) + p;
}

unsigned dab_queue_count(const struct gpu *g, const uint8_t *sv, unsigned q)
{
	return queue(g, sv, q)[0];
}

size_t dab_layout(struct gpu *g, size_t off)
{
	const struct gpu_cfg *c = &g->cfg;
	unsigned nsched = c->sms * c->schedulers;
	g->dab_nbufs = c->buffer_level ? nsched : g->nwarps;
	g->dab_off = off;
	g->dab_sched_off = off;
	off += sizeof(struct dab_sched_state) * nsched;
	g->dab_buf_off = off;
	g->dab_buf_bytes = sizeof(struct dab_buf) + sizeof(struct atomic_entry) * c->entries;
	off += g->dab_buf_bytes * g->dab_nbufs;
	g->dab_prr_off = off;
	off += (2 * c->partitions + 3) & ~(size_t)3;
	/* a FIFO holds at most what an SM's buffers hold, twice over when
	** flushes may overlap (nr-of, nr-cif: FLUSH waits for room) */
	unsigned per_sm = (c->buffer_level ? c->schedulers : g->warps_per_sm) * c->entries;
	g->dab_qcap = per_sm * (c->flush >= DF_NR_OF ? 2 : 1);
	g->dab_q_off = off;
	g->dab_q_bytes = 4 + sizeof(struct atomic_entry) * g->dab_qcap;
	off += g->dab_q_bytes * g->nqueues;
	return off - g->dab_off;
}

static unsigned buffer_of(const struct gpu *g, unsigned w)
{
	return g->cfg.buffer_level ? gpu_sched_of(g, w) : w;
}

static unsigned sm_of_buffer(const struct gpu *g, unsigned b)
{
	return g->cfg.buffer_level ? b / g->cfg.schedulers : gpu_sm_of(g, b);
}

static int fusable(enum atom_op op)
{
	return op == AT_ADD || op == AT_MIN || op == AT_MAX || op == AT_AND || op == AT_OR ||
	       op == AT_XOR || op == AT_EXCH;
}

/* The entry this atomic fuses into, or NULL. */
static struct atomic_entry *fuse_target(const struct gpu *g, struct atomic_entry *e, unsigned n,
                                     uint32_t addr, const struct instr *in)
{
	if (!g->cfg.fusion || in->op == OP_ATOM || !fusable(in->aop))
		return NULL;
	for (unsigned i = 0; i < n; i++)
		if (e[i].addr == addr && e[i].op == in->aop && e[i].type == in->type && !e[i].ret)
			return &e[i];
	return NULL;
}

void dab_atomic(const struct gpu *g, uint8_t *sv, unsigned w, const struct instr *in, uint32_t m)
{
	unsigned b = buffer_of(g, w), lanes = g->cfg.threads_per_warp;
	struct dab_buf *bf = buf(g, sv, b);
	struct atomic_entry *e = buf_entries(g, sv, b);
	/* check every address first: a faulting lane buffers nothing */
	unsigned need = 0;
	struct atomic_entry tmp[32];
	unsigned nt = 0;
	for (unsigned l = 0; l < lanes; l++) {
		if (!(m >> l & 1))
			continue;
		int fault = 0;
		uint32_t a = warp_address(g, sv, w, l);
		if (!mem_word(g, sv, SP_GLOBAL, 0, in->addr.sym, a, &fault)) {
			warp_fault(g, sv, w, fault);
			return;
		}
		/* lanes fusing with each other or with the buffer need no entry */
		int fuses = fuse_target(g, e, bf->count, a, in) != NULL;
		for (unsigned k = 0; k < nt && !fuses; k++)
			fuses = g->cfg.fusion && in->op != OP_ATOM && fusable(in->aop) && tmp[k].addr == a;
		tmp[nt].addr = a;
		nt++;
		if (!fuses)
			need++;
	}
	if (bf->count + need > g->cfg.entries) {
		gpu_warp(g, sv, w)->status = W_FLUSHWAIT; /* full: wait for a flush */
		return;
	}
	unsigned owed = 0;
	for (unsigned l = 0; l < lanes; l++) {
		if (!(m >> l & 1))
			continue;
		struct atomic_entry n = atomic_entry_of(g, sv, w, l, in);
		struct atomic_entry *t = fuse_target(g, e, bf->count, n.addr, in);
		if (t) {
			t->arg = alu_atomic(in->aop, in->type, t->arg, n.arg, 0);
			continue;
		}
		e[bf->count++] = n;
		owed += n.ret;
	}
	struct warp_hdr *h = gpu_warp(g, sv, w);
	h->pending |= PEND_DIRTY;
	if (owed) {
		h->status = W_FLUSHWAIT;
		h->pending |= (uint8_t)(PEND_ADVANCE | owed);
	} else {
		warp_advance(g, sv, w);
	}
}

static int anything_buffered(const struct gpu *g, const uint8_t *sv, int sm)
{
	for (unsigned b = 0; b < g->dab_nbufs; b++)
		if (buf(g, sv, b)->count && (sm < 0 || sm_of_buffer(g, b) == (unsigned)sm))
			return 1;
	return 0;
}

static int anything_in_flight(const struct gpu *g, const uint8_t *sv)
{
	for (unsigned q = 0; q < g->nqueues; q++)
		if (queue(g, sv, q)[0])
			return 1;
	return 0;
}

int dab_fence_clear(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	/* a fence orders this warp's own atomics before what follows: it
	** waits only if the warp buffered atomics since the last flush.
	** Waiting for other warps' atomics would make the flush depend on how
	** far they got: timing. */
	return !(gpu_warp(g, (uint8_t *)sv, w)->pending & PEND_DIRTY);
}

int dab_quiescent(const struct gpu *g, const uint8_t *sv)
{
	return !anything_buffered(g, sv, -1) && !anything_in_flight(g, sv);
}

/* Room in every FIFO of SM sm for its buffers (overlapping flushes). */
static int room(const struct gpu *g, const uint8_t *sv, unsigned sm)
{
	for (unsigned p = 0; p < g->cfg.partitions; p++)
		if (queue(g, sv, sm * g->cfg.partitions + p)[0] > g->dab_qcap / 2)
			return 0;
	return 1;
}

unsigned dab_enabled(const struct gpu *g, const uint8_t *sv, int any_issue, const int *sm_issue,
                     struct action *out)
{
	const struct gpu_cfg *c = &g->cfg;
	unsigned n = 0, flush_unit = c->sms * c->schedulers + g->nqueues;
	if (c->flush == DF_NR_CIF) {
		for (unsigned s = 0; s < c->sms; s++)
			if (!sm_issue[s] && anything_buffered(g, sv, (int)s) && room(g, sv, s))
				out[n++] = (struct action){ GPU_A_FLUSH, (uint16_t)flush_unit, g->nwarps + g->nqueues + 1 + s, s };
	} else if (!any_issue && anything_buffered(g, sv, -1)) {
		int ok = c->flush == DF_NR_OF;
		for (unsigned s = 0; ok && s < c->sms; s++)
			ok = room(g, sv, s);
		if (ok || !anything_in_flight(g, sv))
			out[n++] = (struct action){ GPU_A_FLUSH, (uint16_t)flush_unit, g->nwarps + g->nqueues, c->sms };
	}
	for (unsigned p = 0; p < c->partitions; p++) {
		if (c->flush == DF_ORDERED) {
			unsigned s = *prr(g, sv, p), q = s * c->partitions + p;
			if (queue(g, sv, q)[0])
				out[n++] = (struct action){ GPU_A_DRAIN, (uint16_t)(c->sms * c->schedulers + p), g->nwarps + q, q };
			continue;
		}
		for (unsigned s = 0; s < c->sms; s++) {
			unsigned q = s * c->partitions + p;
			if (queue(g, sv, q)[0])
				out[n++] = (struct action){ GPU_A_DRAIN, (uint16_t)(c->sms * c->schedulers + p), g->nwarps + q, q };
		}
	}
	return n;
}

/* Let waiting warps go: those owed atom results only once they arrived.
** A warp that waited at a fence has what it waited for -- the flush made
** its atomics visible -- so it passes the fence now; re-checking later
** would make it wait for other warps' newer atomics, a timing-dependent
** flush.  A warp blocked on a full buffer re-issues its atomic. */
static void release(const struct gpu *g, uint8_t *sv, int sm)
{
	int ctas_to_check = 0;
	for (unsigned w = 0; w < g->nwarps; w++) {
		struct warp_hdr *h = gpu_warp(g, sv, w);
		if (h->status != W_FLUSHWAIT || (sm >= 0 && gpu_sm_of(g, w) != (unsigned)sm))
			continue;
		if (h->pending & PEND_COUNT)
			continue;
		const struct instr *in = &g->prog->ins[warp_pc(g, sv, w)];
		if (h->pending & PEND_ADVANCE) {
			h->pending &= (uint8_t)~PEND_ADVANCE;
			warp_advance(g, sv, w);
		} else if (in->op == OP_MEMBAR || in->op == OP_SFENCE) {
			warp_advance(g, sv, w);
		} else if (in->op == OP_BAR) {
			h->status = W_BARRIER; /* arrive; released below */
			ctas_to_check = 1;
		} else {
			h->status = W_READY; /* re-issue the atomic */
		}
	}
	for (unsigned cta = 0; ctas_to_check && cta < g->cfg.ctas; cta++)
		bar_check(g, sv, cta);
}

/* Round-robin turn of partition p: the next SM, from `from`, with entries. */
static void next_turn(const struct gpu *g, const uint8_t *sv, unsigned p, unsigned from)
{
	unsigned S = g->cfg.sms;
	for (unsigned k = 0; k < S; k++) {
		unsigned s = (from + k) % S;
		if (queue(g, sv, s * g->cfg.partitions + p)[0]) {
			*prr(g, sv, p) = (uint16_t)s;
			return;
		}
	}
	*prr(g, sv, p) = 0;
}

/* The warps of SM sm (-1: all) have had their atomics flushed. */
static void clean(const struct gpu *g, uint8_t *sv, int sm)
{
	for (unsigned w = 0; w < g->nwarps; w++)
		if (sm < 0 || gpu_sm_of(g, w) == (unsigned)sm)
			gpu_warp(g, sv, w)->pending &= (uint8_t)~PEND_DIRTY;
}

static void flush(const struct gpu *g, uint8_t *sv, int sm)
{
	const struct gpu_cfg *c = &g->cfg;
	for (unsigned b = 0; b < g->dab_nbufs; b++) {
		unsigned s = sm_of_buffer(g, b);
		if (sm >= 0 && s != (unsigned)sm)
			continue;
		struct dab_buf *bf = buf(g, sv, b);
		struct atomic_entry *e = buf_entries(g, sv, b);
		for (unsigned i = 0; i < bf->count; i++) {
			uint16_t *qh = queue(g, sv, s * c->partitions + mem_partition(g, e[i].addr));
			queue_entries(g, sv, s * c->partitions + mem_partition(g, e[i].addr))[qh[0]++] = e[i];
		}
		memset(bf, 0, g->dab_buf_bytes);
	}
	for (unsigned p = 0; p < c->partitions; p++)
		next_turn(g, sv, p, 0);
	if (c->flush >= DF_NR_OF) {
		clean(g, sv, sm);
		release(g, sv, sm); /* warps go on while the entries travel */
	}
}

static void drain(const struct gpu *g, uint8_t *sv, unsigned q)
{
	const struct gpu_cfg *c = &g->cfg;
	uint16_t *qh = queue(g, sv, q);
	struct atomic_entry *e = queue_entries(g, sv, q), head = e[0];
	memmove(e, e + 1, sizeof *e * (size_t)(qh[0] - 1));
	memset(&e[qh[0] - 1], 0, sizeof *e);
	qh[0]--;
	if (atomic_entry_perform(g, sv, &head))
		gpu_warp(g, sv, head.warp)->pending--;
	unsigned p = q % c->partitions, s = q / c->partitions;
	if (c->flush == DF_ORDERED)
		next_turn(g, sv, p, s + 1);
	if (!anything_in_flight(g, sv)) {
		if (c->flush < DF_NR_OF)
			clean(g, sv, -1);
		release(g, sv, -1); /* the flush is complete: fences may pass */
	}
	else if (c->flush >= DF_NR_OF && head.ret)
		release(g, sv, (int)gpu_sm_of(g, head.warp));
}

void dab_apply(const struct gpu *g, uint8_t *sv, const struct action *a)
{
	if (a->kind == GPU_A_FLUSH)
		flush(g, sv, a->arg < g->cfg.sms ? (int)a->arg : -1);
	else
		drain(g, sv, a->arg);
}

void dab_describe(const struct gpu *g, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	if (a->kind == GPU_A_FLUSH) {
		if (a->arg < g->cfg.sms)
			sb_printf(out, "DAB flush of sm %u's atomic buffers", a->arg);
		else
			sb_puts(out, "DAB flush of every atomic buffer (pre-flush counts sent)");
		return;
	}
	unsigned q = a->arg;
	sb_printf(out, "partition %u performs the flushed atomic from sm %u: ", q % g->cfg.partitions,
	          q / g->cfg.partitions);
	atomic_entry_describe(queue_entries(g, sv, q), out);
}

void dab_print(const struct gpu *g, const uint8_t *sv, struct strbuf *out)
{
	for (unsigned b = 0; b < g->dab_nbufs; b++) {
		const struct dab_buf *bf = buf(g, sv, b);
		if (bf->count)
			sb_printf(out, "  %s buffer %u: %u of %u entries\n", g->cfg.buffer_level ? "scheduler" : "warp", b,
			          bf->count, g->cfg.entries);
	}
	for (unsigned q = 0; q < g->nqueues; q++)
		if (queue(g, sv, q)[0])
			sb_printf(out, "  sm %u -> partition %u: %u flushed entries in flight\n", q / g->cfg.partitions,
			          q % g->cfg.partitions, queue(g, sv, q)[0]);
}

unsigned dab_flush_entries(const struct gpu *g, const uint8_t *sv, const struct action *a)
{
	unsigned n = 0;
	for (unsigned b = 0; b < g->dab_nbufs; b++)
		if (a->arg >= g->cfg.sms || sm_of_buffer(g, b) == a->arg)
			n += buf(g, sv, b)->count;
	return n;
}

/* Interconnect transactions of a flush per (SM, partition) queue: one per
** entry, or one per 32-byte sector and buffer when flush coalescing is on
** (§IV-F).  Returns the total. */
unsigned dab_flush_transactions(const struct gpu *g, const uint8_t *sv, const struct action *a,
                                unsigned *per_queue)
{
	unsigned n = 0;
	if (per_queue)
		memset(per_queue, 0, sizeof *per_queue * g->nqueues);
	for (unsigned b = 0; b < g->dab_nbufs; b++) {
		unsigned s = sm_of_buffer(g, b);
		if (a->arg < g->cfg.sms && s != a->arg)
			continue;
		const struct dab_buf *bf = buf(g, sv, b);
		const struct atomic_entry *e = buf_entries(g, sv, b);
		for (unsigned i = 0; i < bf->count; i++) {
			int seen = 0;
			for (unsigned k = 0; g->cfg.coalesce && k < i && !seen; k++)
				seen = e[k].addr / 32 == e[i].addr / 32;
			if (seen)
				continue;
			n++;
			if (per_queue)
				per_queue[s * g->cfg.partitions + mem_partition(g, e[i].addr)]++;
		}
	}
	return n;
}
