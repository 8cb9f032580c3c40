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
** blocks (FLUSHWAIT) until a flush.  Fusion (§IV-E) folds an atomic into
** the last entry for its address when that has the same opcode (program
** order on the address is kept).  `atom` returns a value, so its entries
** are never fused and the warp waits for the flush that performs them
** (§IV-A: "atom ... by incurring a buffer flush").
**
** Flush (§IV-D: "only when either 1) all buffers are full, 2) the kernel
** exits, or 3) a memory fence is reached"): a FLUSH is enabled when every
** buffer is ready -- full (a warp of it is blocked at an atomic it had no
** room for: the full bit) or with no warp that can issue (done, at a
** fence, at a barrier, at an atomic its scheduler does not allow yet) --
** and something is buffered, or a warp waits at a volatile access or a
** CTA at bar.sync (§IV-A: both go "via a buffer flush"; such a flush may
** be empty).  Kernel exit and a fence are cases of this rule; it fires at
** a point fixed by the program, not by timing.  Warps of a full buffer
** that are not at an atomic run on, before and during the flush; one that
** reaches an atomic during an ordered or nr flush waits for its end
** ("The buffers are then cleared and execution resumes").  Under SRR and
** GTRR, whose turn moves past the refused warp, a full buffer is ready
** only once none of its warps can issue (full_is_a_cut).  The
** FLUSH moves every entry, SM by SM, buffer by buffer, in entry order, into
** the FIFO from its SM to its partition (the pre-flush message is the FIFO
** length: the expected count).  A DRAIN action lets partition p perform the
** head of one FIFO:
**   ordered  only the FIFO of the SM whose turn it is (round robin over the
**            SMs that still have entries for p): the flush reorder buffer.
**            A turn is one message (§IV-D: "use the expected number of
**            messages from each SM to re-order the atomics in round robin
**            order"): with coalesce on, the entries of one buffer and one
**            32-byte sector that follow each other in the FIFO are one
**            transaction (§IV-F), and the turn stays while they last;
**   nr       any SM's head (no reorder: arrival order is free);
**   nr-of    nr, and warps resume as soon as the buffers are pushed, so a
**            next flush overlaps the previous one in the FIFOs;
**   nr-cif   nr-of, and each SM flushes on its own when its warps block.
** Warps waiting for the flush resume when it completes (ordered, nr) or
** when their SM's buffers were pushed (nr-of, nr-cif); a warp waiting for
** an `atom` result resumes once its entries were performed.
**
** Component "dab": ports atomics and order; requires mem, warps and issue
** (its FLUSH guard reads the issues in before[]; in concrete mode, which
** lists only what can issue now, the schedulers with an allowed warp as
** the issue port tells them: port_issue.allowed).  Actions FLUSH (unit: the
** flush engine; subject: the flush, per SM for nr-cif) and DRAIN (unit:
** the partition; subject: the FIFO; arg: q + nqueues * (entries - 1)).
** In concrete mode a DRAIN performs the head's whole transaction (the
** entries that arrived with it: icnt_run) in one step of lat_rop, as the
** baseline's ROP does (rop.c); it is that many explored drains in a row.
** model.issue takes it in one call (comp_def.issue_whole).
**
** Slice:
**   bufs    per buffer: count u16, pad u16, entries x struct atomic_entry
**   prr     per partition: u16 round-robin SM of the ordered reorder buffer
**   queues  per (SM, partition): count u16, pad u16, cap x struct atomic_entry:
**           the FIFO runs down, from its tail at entry 0 to its head at
**           entry count - 1, so a drain, most actions, moves no entry
** Invariants:
**   DAB-1 buffers are empty whenever a FIFO holds entries (ordered, nr);
**   DAB-2 a warp's owed count (warp_hdr.pending & PEND_COUNT) equals the
**         returning entries of that warp in the buffers and FIFOs;
**   DAB-3 buffers and FIFOs hold at most their capacity; unused entries
**         are zero;
**   DAB-SYNC (concrete mode) the flush guard's kept sync_ready equals a
**         full scan of the warps (sync_ready_now; GPUMC_CHECK_READY);
**   DAB-LIST (concrete mode) a kept listing of enabled() equals a fresh
**         one (list_kept: kept by the told bits it read, all (by their
**         count of changes, DAB-TOLD), one or none, and an empty one past other actions while the scheduler
**         the guard stopped at may not be full, kept_past;
**         GPUMC_CHECK_READY);
**   DAB-FUSE (concrete mode, fusion) a buffer's kept filter of its
**         addresses (fuse_kept) holds every entry's: where it says a push
**         shares no address with the buffer, a scan finds none, and where
**         it says no lane shares one with the buffer or another lane
**         (fresh_lanes), the scan gives every lane a new entry
**         (GPUMC_CHECK_READY);
**   DAB-TOLD (concrete mode) port_issue.allowed answers the same array
**         throughout a run (told), and where its count of changes stayed
**         the same its told bits did (list_kept; GPUMC_CHECK_READY);
**   READY-12 (concrete mode, ordered and nr) ordered: the partitions' kept
**         DRAINs (turns_kept) exist exactly when any FIFO holds entries;
**         and while one does, the FLUSH guard, not read, would list none
**         (GPUMC_CHECK_READY);
**   READY-13 (concrete mode, ordered) a partition's kept DRAIN equals
**         its fresh listing (turns_kept, or drained_turn after most
**         drains; GPUMC_CHECK_READY);
**   DAB-DRAIN (concrete mode) the reach prepare keeps for the DRAIN it
**         timed (drained) equals reach_of's of the same state
**         (GPUMC_CHECK_READY);
**   DAB-WHOLE (concrete mode) a DRAIN that leaves entries in flight (in
**         its FIFO or another: leaves_some) taken in one call
**         (issue_whole: drain_whole) gives the timing, counts, reach,
**         FIFO, turns, memory words and warps that prepare, reach and
**         apply give apart on the same bytes (whole_checked;
**         GPUMC_CHECK_READY);
**   DAB-WORD where memory.c provides mem, the word a drain's red
**         performs on without the port's call (perform: gword's) is
**         the one the mem port reads (word_checked; GPUMC_CHECK_READY);
**   DAB-SENT (concrete mode) a FLUSH's apply moves into each FIFO as
**         many entries as its timing sent there (sent; flush;
**         GPUMC_CHECK_READY).
*/
#include "config.h"

#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "explore/prop.h"
#include "machines/alu.h"
#include "machines/atomic_entry.h"
#include "machines/icnt.h"
#include "machines/lanekeys.h"
#include "util/strbuf.h"

#define PEND_DIRTY 0x40   /* warp_hdr.pending: atomics buffered since the last flush */
#define PEND_COUNT 0x3f   /* warp_hdr.pending: entries whose old value is owed */

enum dab_flush { DF_ORDERED, DF_NR, DF_NR_OF, DF_NR_CIF };
enum { K_FLUSH, K_DRAIN };

#define WARPS(c) ((const struct port_warps *)port_ops(c, P_WARPS))
#define WC(c) (REQ(c, P_WARPS)->c)

/* The told bits a listing read: none (mask 0, sm 0), one scheduler's,
** mask in word sm (told: the FLUSH guard stopped at it), or all (sm
** UINT_MAX). */
struct told_read {
	unsigned sm;
	uint64_t mask;
};

/* Concrete mode, fusion: a filter of the addresses in one buffer's
** entries (fuse_kept), a bit each of 4096, as of a count of entries. */
struct fuse_seen {
	uint64_t bits[64];
	unsigned n;
};

/* Layout of the slice (offsets from c->off). */
struct dab {
	size_t buf_off, buf_bytes, prr_off, q_off, q_bytes;
	/* from the vector's start (place): the turns, and per FIFO its count
	** (at most 64 SMs x 8 partitions): queue() without a product */
	size_t prr_at, q_at[64 * 8];
	unsigned nbufs, qcap;
	unsigned full_from; /* a scheduler buffer of this many entries may be full (UINT_MAX: never) */
	unsigned shared_pc; /* a shared-memory atom/red, outside DAB (nins: none) */
	unsigned fused_f32_pc; /* a global .f32 red.add fusion folds (nins: none) */
	struct icnt *ic; /* concrete mode: the interconnect (same block) */
	uint16_t *buffer; /* per warp, its buffer (same block): buffer_of without divisions */
	/* concrete mode: sync_ready(-1) as of the run and event count it was
	** computed at (sync_ready_now) */
	uint64_t sync_run, sync_at;
	int sync_val;
	/* concrete mode: enabled()'s last listing (DAB-LIST), as of the run,
	** the driver's nonlocal count and the count of changes of the
	** schedulers told (list_moved; the told bits themselves, list_told,
	** under GPUMC_CHECK_READY alone: DAB-TOLD); told: the array
	** port_issue.allowed tells them in, the same all the run (DAB-TOLD),
	** so that a kept listing asks no port.  Of the told bits the listing
	** read: read */
	uint64_t list_run, list_at, list_moved, *list_told;
	const uint64_t *told;
	struct action *list;
	unsigned list_n;
	struct told_read read, fresh_read; /* fresh_read: the listing's being made (told) */
	/* concrete mode, ordered: per partition, its DRAIN as last listed
	** (turn_has: where it has one), of the run turn_run, less those
	** marked since (turn_dirty; turns_kept) */
	struct action turn[8];
	uint32_t turn_has, turn_dirty;
	uint64_t turn_run;
	/* concrete mode: the DRAIN a, in state sv, that prepare just timed,
	** leaving entries in flight (leaves_some; sv NULL: none), for the
	** reach and apply that follow: its reach, and whether its partition's
	** kept DRAIN was up to date (ordered): apply then makes it anew
	** rather than prepare mark it (drained_turn) */
	struct drained {
		const uint8_t *sv;
		const struct action *a;
		int reach, keep;
	} drained;
	/* concrete mode: the transactions of the FLUSH (arg tx_arg) of state
	** tx_sv last timed, for its count, which follows and takes them
	** (tx_sv NULL: none kept) */
	const uint8_t *tx_sv;
	unsigned tx_arg, tx_n;
	/* concrete mode: per FIFO, how many entries the FLUSH (arg sent_arg)
	** of state sent_sv last timed sends into it, for its apply, which
	** follows and takes them (flush; sent_sv NULL: none kept) */
	const uint8_t *sent_sv;
	unsigned sent_arg, sent[64 * 8];
	/* concrete mode, fusion: the push of warp push_w in state push_sv that
	** timing_push just timed (push_sv NULL: none); per buffer, its filter
	** (seen); checking: GPUMC_CHECK_READY, as last listed (DAB-FUSE) */
	const uint8_t *push_sv;
	unsigned push_w;
	struct fuse_seen *seen;
	int checking;
};
#define D(c) ((const struct dab *)(c)->priv)

struct dab_buf {
	uint16_t count, pad;
};

static struct dab_buf *buf(const struct comp *c, const uint8_t *sv, unsigned b)
{
	return (struct dab_buf *)(sv + c->off + D(c)->buf_off + D(c)->buf_bytes * b);
}

static struct atomic_entry *buf_entries(const struct comp *c, const uint8_t *sv, unsigned b)
{
	return (struct atomic_entry *)((uint8_t *)buf(c, sv, b) + sizeof(struct dab_buf));
}

static uint16_t *queue(const struct comp *c, const uint8_t *sv, unsigned q)
{
	return (uint16_t *)(sv + D(c)->q_at[q]);
}

static struct atomic_entry *queue_entries(const struct comp *c, const uint8_t *sv, unsigned q)
{
	return (struct atomic_entry *)((uint8_t *)queue(c, sv, q) + 4);
}

/* FIFO q's head entry (q holds one), the next ones below it. */
static struct atomic_entry *queue_head(const struct comp *c, const uint8_t *sv, unsigned q)
{
	return queue_entries(c, sv, q) + queue(c, sv, q)[0] - 1;
}

static uint16_t *prr(const struct comp *c, const uint8_t *sv, unsigned p)
{
	return (uint16_t *)(sv + D(c)->prr_at) + p;
}

static unsigned buffer_of(const struct comp *c, unsigned w)
{
	return D(c)->buffer[w];
}

static unsigned sm_of_buffer(const struct comp *c, unsigned b)
{
	const struct gpu *g = c->g;
	return g->cfg.buffer_level ? fastdiv_div(g->by_schedulers, b) : gpu_sm_of(g, b);
}

static int fusable(enum atom_op op)
{
	return op == AT_ADD || op == AT_MIN || op == AT_MAX || op == AT_AND || op == AT_OR ||
	       op == AT_XOR || op == AT_EXCH;
}

/* Entries a and b of one SM's FIFO belong to one flush transaction: one
** buffer's, in one sector (flush coalescing, §IV-F).  The sector first:
** it is one compare, and scattered atomics' differ.  Inline: each drain
** and each listing of a FIFO's head asks it. */
static inline int same_tx(const struct comp *c, const void *a, const void *b)
{
	const struct atomic_entry *x = a, *y = b;
	return c->g->cfg.coalesce && x->addr / ICNT_SECTOR == y->addr / ICNT_SECTOR &&
	       (x->warp == y->warp || buffer_of(c, x->warp) == buffer_of(c, y->warp));
}

/* A map of 32-bit keys to indices of a buffer's entries (open
** addressing, at most half full): coalescing's sectors (sectors_first). */
struct entry_map {
	unsigned size;
	uint32_t key[2048];
	uint16_t at[2048]; /* 1 + the index; 0: free */
};

/* Empty, for up to n keys (n <= 1024: entries). */
static void map_reset(struct entry_map *x, unsigned n)
{
	for (x->size = 2; x->size < 2 * n; x->size *= 2)
		;
	memset(x->at, 0, sizeof *x->at * x->size);
}

/* key's slot: where it is, or the free one where it goes. */
static unsigned map_slot(const struct entry_map *x, uint32_t key)
{
	unsigned h = key * 2654435761u & (x->size - 1);
	while (x->at[h] && x->key[h] != key)
		h = (h + 1) & (x->size - 1);
	return h;
}

static void map_put(struct entry_map *x, unsigned h, uint32_t key, unsigned i)
{
	x->key[h] = key;
	x->at[h] = (uint16_t)(i + 1);
}

/* The filter's bit of address a. */
static inline unsigned seen_bit(uint32_t a)
{
	return a * 0x9e3779b1u >> 20;
}

static inline int seen_has(const struct fuse_seen *f, uint32_t a)
{
	return f->bits[seen_bit(a) / 64] >> seen_bit(a) % 64 & 1;
}

static inline void seen_add(struct fuse_seen *f, uint32_t a)
{
	f->bits[seen_bit(a) / 64] |= 1ull << seen_bit(a) % 64;
}

/* Fusion's lookups of one push, lanes n[0..nl) into buffer entries
** e[0..count), in one pass back over the buffer: per lane i, first[i], the
** first lane with its address; per such first lane, tgt[i], the entry it
** fuses into (-1: a new one), the buffer's last entry for the address if
** that has the same opcode and type and returns nothing.  Folding into an
** earlier one would move the atomic before another operation on the
** address that came first in program order (add; max; add).  The first
** lanes' addresses are a lane_keys set: an entry no lane shares an
** address with costs one test, not a compare per lane (pagerank's 64-entry
** buffers, 3 or 4 lanes a red: 2% of a run).  No pass where the buffer's
** filter (f: fuse_kept; NULL: none) has none of the addresses, unless
** checked (then the pass must find none: DAB-FUSE).  Returns the first
** lanes that take a new entry. */
static unsigned fuse_targets(const struct atomic_entry *e, unsigned count, const struct atomic_entry *n, int nl,
                             const struct instr *in, unsigned *first, int *tgt, const struct fuse_seen *f, int check)
{
	struct lane_keys k;
	unsigned lane[32]; /* per key, its first lane */
	uint32_t open = 0; /* keys whose last entry is not found yet */
	lane_keys_init(&k);
	for (int i = 0; i < nl; i++) {
		int j = lane_keys_find(&k, n[i].addr);
		if (j >= 0) {
			first[i] = lane[j];
			continue;
		}
		j = (int)lane_keys_add(&k, n[i].addr);
		lane[j] = first[i] = (unsigned)i;
		tgt[i] = -1;
		open |= 1u << j;
	}
	unsigned need = k.n;
	int absent = f != NULL;
	for (unsigned j = 0; absent && j < k.n; j++)
		absent = !seen_has(f, k.key[j]);
	if (absent && !check)
		return need;
	for (const struct atomic_entry *x = e + count; open && x-- > e;) {
		int j = lane_keys_find(&k, x->addr);
		if (j < 0 || !(open >> j & 1))
			continue;
		if (absent) {
			fprintf(stderr, "gpumc: internal error: DAB-FUSE: a buffer's kept filter lacks the address %u of "
			        "its entry %d\n", (unsigned)x->addr, (int)(x - e));
			abort();
		}
		open &= ~(1u << j);
		if (x->op == in->aop && x->type == in->type && !x->ret) {
			tgt[lane[j]] = (int)(x - e);
			need--;
		}
	}
	return need;
}

/* Concrete mode: buffer b's filter of its entries' addresses (count
** entries e), for fuse_targets, where this push of warp w is the one
** timing_push just timed (else NULL: exhaustive mode, whose threads push
** at once, keeps none).  The entries change only by a push, every one of
** which is timed in concrete mode and adds to the filter (push), or a
** fusion, which keeps the addresses, and by a flush, which empties the
** buffer (a new run's starts empty): so the filter is kept while the
** count of entries stays (one of 0 is empty); else it is made from the
** entries.  It may hold more (fresh_lanes). */
static struct fuse_seen *fuse_kept(const struct comp *c, const uint8_t *sv, unsigned w, unsigned b, unsigned count,
                                   const struct atomic_entry *e)
{
	struct dab *d = (struct dab *)c->priv;
	if (d->push_sv != sv || d->push_w != w)
		return NULL;
	d->push_sv = NULL;
	struct fuse_seen *f = &d->seen[b];
	if (f->n != count) {
		memset(f->bits, 0, sizeof f->bits);
		for (unsigned i = 0; i < count; i++)
			seen_add(f, e[i].addr);
		f->n = count;
	}
	return f;
}

/* Fusion's quick answer for a push (lanes n[0..nl)) into the buffer
** whose filter is f: 1 where no lane's bit is in f, nor two lanes share
** one -- no lane shares an address with the buffer or another lane, each
** takes a new entry (DAB-FUSE) -- and the lanes' bits are then added.
** Else 0, with the bits of the lanes before the first that met one added:
** a filter holding more than the buffer's addresses only costs a pass. */
static int fresh_lanes(struct fuse_seen *f, const struct atomic_entry *n, int nl)
{
	for (int i = 0; i < nl; i++) {
		unsigned s = seen_bit(n[i].addr);
		uint64_t bit = 1ull << s % 64;
		if (f->bits[s / 64] & bit)
			return 0;
		f->bits[s / 64] |= bit;
	}
	return 1;
}

/* Does a FIFO other than q (nqueues: any) hold entries? */
static int in_flight_but(const struct comp *c, const uint8_t *sv, unsigned q)
{
	/* the queues' counts walked with a pointer: asked at every push */
	const uint8_t *p = (const uint8_t *)queue(c, sv, 0), *end = p + D(c)->q_bytes * c->g->nqueues;
	const uint8_t *but = p + D(c)->q_bytes * q;
	for (; p < end; p += D(c)->q_bytes)
		if (*(const uint16_t *)p && p != but)
			return 1;
	return 0;
}

static int anything_in_flight(const struct comp *c, const uint8_t *sv)
{
	return in_flight_but(c, sv, c->g->nqueues);
}

/* Does a DRAIN of FIFO q's k entries of n leave entries in flight: is it
** not its flush's last, which completes it (complete)? */
static inline int leaves_some(const struct comp *c, const uint8_t *sv, unsigned q, unsigned k, unsigned n)
{
	return n > k || in_flight_but(c, sv, q);
}

static int push(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m)
{
	const struct gpu *g = c->g;
	const struct instr *in = &g->prog->ins[gpu_pc(g, sv, w)];
	unsigned b = buffer_of(c, w);
	struct dab_buf *bf = buf(c, sv, b);
	struct atomic_entry *e = buf_entries(c, sv, b), n[32];
	/* every address first: a faulting lane buffers nothing */
	int nl = atomic_entries(c, sv, w, m, in, n);
	if (nl < 0)
		return PUSH_DONE;
	/* a flush in flight: "The buffers are then cleared and execution
	** resumes" (§IV-D) -- a warp that ran on to an atomic during the flush
	** waits for its end (nr-of, nr-cif relax this: buffers refill at once);
	** none is while its buffer holds entries (DAB-1), most pushes */
	if (g->cfg.flush < DF_NR_OF && !bf->count && anything_in_flight(c, sv))
		return PUSH_REFUSED;
	/* Lanes fusing with each other or with the buffer need no entry: the
	** targets are found once (fuse_targets) rather than again at the
	** insertion: the entries this push appends carry earlier lanes'
	** addresses, so a first lane finds what it found in the buffer before,
	** and a later lane fuses where its first lane went (a red's new entry
	** fuses: same op and type, nothing returned). */
	int fuse = g->cfg.fusion && in->op != OP_ATOM && fusable(in->aop), tgt[32];
	unsigned first[32];
	struct fuse_seen *f = fuse ? fuse_kept(c, sv, w, b, bf->count, e) : NULL;
	if (f && fresh_lanes(f, n, nl)) {
		/* most pushes: every lane a new entry, nothing looked up (a red:
		** nothing owed) -- or, where they do not all fit, none */
		if (D(c)->checking && fuse_targets(e, bf->count, n, nl, in, first, tgt, NULL, 0) != (unsigned)nl) {
			fprintf(stderr, "gpumc: internal error: DAB-FUSE: a buffer's kept filter passed a push of warp %u "
			        "whose lanes share an address with each other or the buffer\n", w);
			abort();
		}
		if (bf->count + (unsigned)nl > g->cfg.entries)
			return PUSH_REFUSED; /* full: wait for a flush (the filter keeps the lanes' bits: more) */
		memcpy(e + bf->count, n, sizeof *n * (unsigned)nl);
		f->n = bf->count += (uint16_t)nl;
		gpu_warp(g, sv, w)->pending |= PEND_DIRTY;
		return PUSH_DONE;
	}
	unsigned need = fuse ? fuse_targets(e, bf->count, n, nl, in, first, tgt, f, D(c)->checking) : (unsigned)nl;
	if (bf->count + need > g->cfg.entries)
		return PUSH_REFUSED; /* full: wait for a flush */
	unsigned owed = 0;
	for (int i = 0; i < nl; i++) {
		int t = fuse ? tgt[first[i]] : -1;
		if (t >= 0) {
			e[t].arg = alu_atomic(in->aop, in->type, e[t].arg, n[i].arg, 0);
			continue;
		}
		if (fuse)
			tgt[i] = bf->count; /* a first lane's new entry */
		if (f)
			seen_add(f, n[i].addr);
		e[bf->count++] = n[i];
		owed += n[i].ret;
	}
	if (f)
		f->n = bf->count;
	struct warp_hdr *h = gpu_warp(g, sv, w);
	h->pending |= (uint8_t)(PEND_DIRTY | owed);
	return owed ? PUSH_WAIT_VALUES : PUSH_DONE;
}

static int owed(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return gpu_warp(c->g, (uint8_t *)sv, w)->pending & PEND_COUNT;
}

/* Buffered atomics leave at a flush, not one by one: nothing to time;
** the push that follows may keep its buffer's filter (fuse_kept). */
static void timing_push(const struct comp *c, const uint8_t *sv, unsigned w, struct timing *t,
                        uint64_t (*rnd)(void *), void *rng)
{
	(void)t, (void)rnd, (void)rng;
	struct dab *d = (struct dab *)c->priv;
	d->push_sv = sv;
	d->push_w = w;
}

/* The atomics port has room for everything: a full buffer refuses the
** push and the warp waits for a flush (DAB §IV-C), it is not back-pressure
** at issue. */
static int always_room(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m)
{
	(void)c, (void)sv, (void)w, (void)m;
	return 1;
}

static int anything_buffered(const struct comp *c, const uint8_t *sv, int sm)
{
	for (unsigned b = 0; b < D(c)->nbufs; b++)
		if (buf(c, sv, b)->count && (sm < 0 || sm_of_buffer(c, b) == (unsigned)sm))
			return 1;
	return 0;
}

/* Is every live warp of warp w's CTA blocked at a bar.sync? */
static int cta_at_barrier(const struct gpu *g, const uint8_t *sv, unsigned w)
{
	unsigned first = gpu_cta_of(g, w) * g->cfg.warps_per_cta;
	for (unsigned v = first; v < first + g->cfg.warps_per_cta; v++)
		if (gpu_warp(g, (uint8_t *)sv, v)->status != W_DONE && !gpu_at_barrier(g, (uint8_t *)sv, v))
			return 0;
	return 1;
}

static int clear(const struct comp *c, const uint8_t *sv, unsigned w, enum opcode op)
{
	const struct gpu *g = c->g;
	if (op == OP_PCOMMIT)
		return 1;
	/* bar.sync and volatile accesses go "via a buffer flush" (§IV-A): they
	** never pass at issue (status READY), only when a flush resumes them
	** (WAIT), a bar.sync with its whole CTA there.  So a barrier is left at
	** a flush -- a point fixed by the program -- and not when a warp of
	** another scheduler happens to arrive, and a warp spinning on a
	** volatile flag stops at each load until the flush */
	if (op == OP_BAR || op == OP_LD || op == OP_ST)
		return gpu_warp(g, (uint8_t *)sv, w)->status == W_WAIT &&
		       !(gpu_warp(g, (uint8_t *)sv, w)->pending & PEND_DIRTY) && (op != OP_BAR || cta_at_barrier(g, sv, w));
	/* a fence orders this warp's own atomics before what follows: it
	** waits only if the warp buffered atomics since the last flush.
	** Waiting for other warps' atomics would make the flush depend on how
	** far they got: timing. */
	return !(gpu_warp(g, (uint8_t *)sv, w)->pending & PEND_DIRTY);
}

/* A warp of SM sm (-1: any) waits for a flush that lets it pass with
** nothing buffered: at a volatile access, or at bar.sync with its whole
** CTA there. */
static int sync_ready(const struct comp *c, const uint8_t *sv, int sm)
{
	const struct gpu *g = c->g;
	for (unsigned w = 0; w < g->nwarps; w++) {
		if ((sm >= 0 && gpu_sm_of(g, w) != (unsigned)sm) || gpu_warp(g, (uint8_t *)sv, w)->status != W_WAIT)
			continue;
		enum opcode op = g->prog->ins[gpu_pc(g, sv, w)].op;
		if (op == OP_LD || op == OP_ST || (op == OP_BAR && cta_at_barrier(g, sv, w)))
			return 1;
	}
	return 0;
}

/* sync_ready(-1) for the flush guard, asked every idle cycle of a
** concrete run: it reads only warps' status, pc and barrier arrival, which
** change only at an action that may reach a ready set (readyset.c: the
** driver's global and per-SM counts, and its count of REACH_OWN
** actions).  Neither a warp-local issue (its warp READY before and
** after: an exit is never warp-local here, por) nor an action that
** reaches no set (REACH_NONE: memory and FIFOs only) changes it, so it
** is kept while their sum stays the same; under GPUMC_CHECK_READY it is
** recomputed and compared (invariant DAB-SYNC). */
static int sync_ready_now(const struct comp *c, const uint8_t *sv)
{
	const struct timed_now *tn = compose_now(c);
	if (!tn)
		return sync_ready(c, sv, -1);
	struct dab *d = (struct dab *)c->priv;
	uint64_t at = tn->changed + tn->own;
	for (unsigned s = 0; s < c->g->cfg.sms; s++)
		at += tn->sm_changed[s];
	int kept = d->sync_run == tn->run && d->sync_at == at;
	if (kept && !tn->check)
		return d->sync_val;
	int v = sync_ready(c, sv, -1);
	if (kept && v != d->sync_val) {
		fprintf(stderr, "gpumc: internal error: DAB-SYNC: kept sync_ready %d, full scan %d at cycle %llu: an event did not signal\n",
		        d->sync_val, v, (unsigned long long)tn->clock);
		abort();
	}
	d->sync_run = tn->run;
	d->sync_at = at;
	d->sync_val = v;
	return v;
}

static int quiescent(const struct comp *c, const uint8_t *sv)
{
	return !anything_buffered(c, sv, -1) && !anything_in_flight(c, sv);
}

/* Room in every FIFO of SM sm for its buffers (overlapping flushes). */
static int room(const struct comp *c, const uint8_t *sv, unsigned sm)
{
	const struct gpu *g = c->g;
	for (unsigned p = 0; p < g->cfg.partitions; p++)
		if (queue(c, sv, sm * g->cfg.partitions + p)[0] > D(c)->qcap / 2)
			return 0;
	return 1;
}

/* Is warp w blocked at an atomic its buffer had no room for (the paper's
** full bit, §IV-B: "If there are insufficient entries the warp is blocked
** from issuing and the full bit is set")?  A .release atomic waiting for
** its fence is not. */
static int refused(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	const struct warp_hdr *h = gpu_warp(g, (uint8_t *)sv, w);
	const struct instr *in = &g->prog->ins[gpu_pc(g, sv, w)];
	return h->status == W_WAIT && (in->op == OP_ATOM || in->op == OP_RED) && in->space == SP_GLOBAL &&
	       !(instr_releasing(in) && (h->pending & PEND_DIRTY));
}

/* Does the warp refused for room keep its place in its scheduler's order
** of atomics, so that no other atomic enters the buffer before the flush
** whatever the other warps do meanwhile?  GWAT keeps the token, GTAR the
** turn in its round (and the -bar variants); GTO imposes no order (not
** deterministic anyway).  SRR and GTRR (dab_sched.c: sched_rule 1, 2 and
** gtrr-bar 5) move the turn on every issue, the refused one's too: while
** the flush runs the other warps' steps would move it by an amount set by
** timing, so there a full buffer waits for its warps to stop, as the
** paper's SRR does ("no instruction is issued" while warp A is blocked). */
static int full_is_a_cut(const struct gpu_cfg *cf)
{
	return dab_rule(cf) != DS_SRR && dab_rule(cf) != DS_GTRR; /* gtrr-bar too */
}

/* Can scheduler buffer b be full: too few entries left for a whole warp?
** (A warp buffer with a warp that can issue is not: its one warp would be
** blocked.)  Cheap, so the scan for the full bit runs only then. */
static inline int may_be_full(const struct comp *c, const uint8_t *sv, unsigned b)
{
	return buf(c, sv, b)->count >= D(c)->full_from; /* count + threads_per_warp > entries */
}

/* Scheduler buffer b's full bit: a warp of it is blocked at an atomic
** it had no room for.  Its warps: those of the CTAs on its SM, every
** `schedulers`-th from its scheduler (gpu_sched_of). */
static int full(const struct comp *c, const uint8_t *sv, unsigned b)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	if (!may_be_full(c, sv, b))
		return 0;
	for (unsigned cta = b / cf->schedulers; cta < cf->ctas; cta += cf->sms)
		for (unsigned k = b % cf->schedulers; k < cf->warps_per_cta; k += cf->schedulers)
			if (refused(c, sv, cta * cf->warps_per_cta + k))
				return 1;
	return 0;
}

/* The SMs (one bit each) of the buffers in `issuing` that are not full. */
static uint64_t not_full(const struct comp *c, const uint8_t *sv, const uint64_t *issuing)
{
	uint64_t busy = 0;
	for (unsigned i = 0; i < 4; i++)
		for (uint64_t m = issuing[i]; m; m &= m - 1) {
			unsigned b = 64 * i + (unsigned)__builtin_ctzll(m);
			if (!full(c, sv, b))
				busy |= 1ull << sm_of_buffer(c, b);
		}
	return busy;
}

/* A warp of SM sm allowed to issue into buffer b, full maybe or not:
** marks b issuing, or sm busy; returns whether the rest can be skipped
** (only whether any such warp exists matters, but to nr-cif). */
static int allowed_into(const struct comp *c, int full, unsigned b, unsigned sm, uint64_t *sm_busy,
                        uint64_t *issuing)
{
	if (full)
		issuing[b / 64] |= 1ull << b % 64;
	else
		*sm_busy |= 1ull << sm;
	return *sm_busy && c->g->cfg.flush != DF_NR_CIF;
}

/* Concrete mode: the FLUSH guard's reading of before[] (enabled), from
** the schedulers with a warp allowed, told directly (port_issue.allowed,
** per SM): a scheduler buffer is its scheduler's index, and a warp buffer
** is never full with its warp allowed (full_from).  Where it stops at a
** scheduler (the rest skipped) the listing read that one's bit alone
** (fresh_read, for list_kept), else all of them. */
static uint64_t told(const struct comp *c, const uint8_t *sv, const uint64_t *per_sm, uint64_t *issuing)
{
	const struct gpu_cfg *cf = &c->g->cfg;
	struct told_read *read = &((struct dab *)c->priv)->fresh_read;
	uint64_t sm_busy = 0;
	*read = (struct told_read){ UINT_MAX, 0 };
	for (unsigned s = 0; s < cf->sms; s++)
		for (uint64_t m = per_sm[s]; m; m &= m - 1) {
			unsigned k = s * cf->schedulers + (unsigned)__builtin_ctzll(m);
			if (allowed_into(c, cf->buffer_level && may_be_full(c, sv, k), k, s, &sm_busy, issuing)) {
				*read = (struct told_read){ s, m & -m };
				return sm_busy;
			}
		}
	return sm_busy;
}

/* Is an empty listing where the FLUSH guard stopped at a scheduler (told)
** kept past other actions than warp-local issues, the told bit aside
** (list_kept)?  Yes while that scheduler's buffer may not be full: its SM
** stays busy, so no FLUSH (the SMs' own, nr-cif's, aside); the FIFOs stay
** empty, for this component lists nothing, so none of its FLUSHes and
** DRAINs runs before it lists again: no DRAIN either.  Most actions of a
** run (memory, atomics' issues) leave it so. */
static inline int kept_past(const struct comp *c, const uint8_t *sv)
{
	const struct dab *d = D(c);
	return !d->list_n && d->read.sm != UINT_MAX && d->read.mask && c->g->cfg.flush != DF_NR_CIF &&
	       !(c->g->cfg.buffer_level &&
	         may_be_full(c, sv, d->read.sm * c->g->cfg.schedulers + (unsigned)__builtin_ctzll(d->read.mask)));
}

/* Concrete mode lists every visited cycle, mostly after warp-local issues
** alone, which change nothing enabled() reads: not the buffers, FIFOs,
** turns and interconnect (this component's, moved only by its own actions
** and the atomics' issues), a warp's wait or place at a barrier (a warp
** stays READY), a CTA's dispatch; only which schedulers have an allowed
** warp (told, kept by them) may move.  So its listing is kept while the
** driver's nonlocal count and the told bits it read stay the same: where
** the guard stopped at a scheduler that keeps an SM busy (told), that
** one's bit alone, for with it still set the guard stops there or before
** and lists no FLUSH, whatever the others' (the DRAINs read no told bit);
** else all of them, by their count of changes (one word, not a loop over
** the SMs: DAB pagerank 0.3% of its instructions; DAB-TOLD).  Under
** GPUMC_CHECK_READY it is listed anyway and compared (invariant
** DAB-LIST).  Is the last listing kept?  past: also past the driver's
** actions since (kept_past; enabled()'s quick test asks not). */
static inline int list_kept(const struct comp *c, const uint8_t *sv, const struct timed_now *tn,
                            const uint64_t *per_sm, int past)
{
	const struct dab *d = D(c);
	if (d->list_run != tn->run || (d->list_at != tn->nonlocal && !(past && kept_past(c, sv))))
		return 0;
	if (d->read.sm != UINT_MAX)
		return !d->read.mask || (per_sm[d->read.sm] & d->read.mask);
	return d->list_moved == per_sm[-1]; /* the count of their changes (port_issue.allowed) */
}

static int same_action(const struct action *a, const struct action *b)
{
	return a->kind == b->kind && a->unit == b->unit && a->subject == b->subject && a->arg == b->arg;
}

/* The listing out[0..n) made at tn, reading the told bits fresh_read,
** kept (list_kept) or not.  A kept one stays, as of now, as kept_listing
** keeps it unchecked: what is checked is what an unchecked run keeps. */
static void list_keep(const struct comp *c, const struct timed_now *tn, const uint64_t *per_sm, int kept,
                      const struct action *out, unsigned n)
{
	struct dab *d = (struct dab *)c->priv;
	for (unsigned i = 0; kept && i <= n; i++)
		if (i == n ? n != d->list_n : i >= d->list_n || !same_action(&out[i], &d->list[i])) {
			fprintf(stderr, "gpumc: internal error: DAB-LIST: kept listing differs from the state's at cycle %llu: "
			        "an event did not signal\n", (unsigned long long)tn->clock);
			abort();
		}
	if (kept && per_sm != d->told) {
		fprintf(stderr, "gpumc: internal error: DAB-TOLD: the schedulers told moved to another array at cycle %llu\n",
		        (unsigned long long)tn->clock);
		abort();
	}
	if (kept && d->read.sm == UINT_MAX && memcmp(d->list_told, per_sm, sizeof *per_sm * c->g->cfg.sms)) {
		fprintf(stderr, "gpumc: internal error: DAB-TOLD: the schedulers told moved, their count of changes not, at "
		        "cycle %llu\n", (unsigned long long)tn->clock);
		abort();
	}
	d->list_at = tn->nonlocal;
	d->checking = tn->check;
	if (kept)
		return;
	d->list_run = tn->run;
	d->read = d->fresh_read;
	d->told = per_sm;
	d->list_moved = per_sm[-1];
	if (tn->check) /* DAB-TOLD's */
		memcpy(d->list_told, per_sm, sizeof *per_sm * c->g->cfg.sms);
	memcpy(d->list, out, sizeof *out * n);
	d->list_n = n;
}

/* The FLUSH guard (enabled): the FLUSHes into out, from before[0..nb)'s
** issues or, in concrete mode (tn), the schedulers told (per_sm). */
static unsigned list_flush(const struct comp *c, const uint8_t *sv, const struct timed_now *tn, const uint64_t *per_sm,
                           const struct action *before, unsigned nb, struct action *out)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	/* "DAB flushes buffers only when either 1) all buffers are full, 2)
	** the kernel exits, or 3) a memory fence is reached" (§IV-D): a
	** buffer is ready when it is full (a warp is blocked at an atomic it
	** had no room for) or none of its warps can issue (done, at a fence,
	** at a barrier, at an atomic its scheduler does not allow yet); the
	** flush fires when every buffer (of the SM, for nr-cif) is ready.
	** Warps of a full buffer that are not at an atomic run on meanwhile,
	** and during the flush.  Both are points fixed by the program: a full
	** buffer takes no more atomics, a buffer with no warp that can issue
	** none until a flush. */
	const struct bind *ib = REQ(c, P_ISSUE);
	const struct port_issue *ip = ib->ops;
	uint64_t sm_busy = 0; /* one bit per SM (at most 64): a warp of it can issue, its buffer not full */
	uint64_t issuing[4] = { 0 }; /* scheduler-level buffers (at most 256) with a warp that can issue */
	if (tn)
		sm_busy = told(c, sv, per_sm, issuing);
	else
		for (unsigned i = 0; i < nb; i++) {
			long w = ip->is_issue(ib->c, &before[i]);
			if (w < 0)
				continue;
			unsigned b = buffer_of(c, (unsigned)w);
			if (allowed_into(c, may_be_full(c, sv, b), b, gpu_sm_of(g, (unsigned)w), &sm_busy, issuing))
				break;
		}
	if (cf->flush == DF_NR_CIF || !sm_busy)
		sm_busy |= not_full(c, sv, issuing);
	/* nor while a CTA waits to be dispatched into a freed slot: it will
	** issue (a free dispatcher's choice is a step of its own) */
	const struct bind *gb = REQ(c, P_GRID);
	for (unsigned s = 0; gb->ops && s < cf->sms; s++)
		if (((const struct port_grid *)gb->ops)->pending(gb->c, sv, (int)s))
			sm_busy |= 1ull << s;
	int any_issue = sm_busy != 0;
	unsigned n = 0, flush_unit = c->unit0[1];
	if (cf->flush == DF_NR_CIF) {
		for (unsigned s = 0; s < cf->sms; s++)
			if (!(sm_busy >> s & 1) && (anything_buffered(c, sv, (int)s) || sync_ready(c, sv, (int)s)) && room(c, sv, s))
				out[n++] = (struct action){ (uint16_t)(c->kind0 + K_FLUSH), (uint16_t)(flush_unit + s),
				                            c->subj0[1] + 1 + s, s };
	} else if (!any_issue && (anything_buffered(c, sv, -1) || sync_ready_now(c, sv))) {
		int ok = cf->flush == DF_NR_OF;
		for (unsigned s = 0; ok && s < cf->sms; s++)
			ok = room(c, sv, s);
		if (ok || !anything_in_flight(c, sv))
			out[n++] = (struct action){ (uint16_t)(c->kind0 + K_FLUSH), (uint16_t)flush_unit, c->subj0[1], cf->sms };
	}
	return n;
}

/* Concrete mode: how many of FIFO q's n entries (n > 0) from its head
** are its head's transaction (icnt_run).  Always inline: each listing
** of a DRAIN asks it, and so does each DRAIN that keeps its partition's
** turn (drained_turn). */
static inline __attribute__((always_inline)) unsigned head_run(const struct comp *c, const uint8_t *sv, unsigned q,
                                                               unsigned n)
{
	return icnt_run(D(c)->ic, c, q, n, queue_head(c, sv, q), -(ptrdiff_t)sizeof(struct atomic_entry), same_tx);
}

/* The DRAIN of FIFO q (to partition p) into *out where it holds
** entries: in concrete mode (timed) its head's whole transaction
** (icnt_run), else one entry.  How many: 1 or 0. */
static inline __attribute__((always_inline)) unsigned drain_of(const struct comp *c, const uint8_t *sv, unsigned p,
                                                               unsigned q, int timed, struct action *out)
{
	unsigned k = queue(c, sv, q)[0];
	if (!k)
		return 0;
	k = timed ? head_run(c, sv, q, k) : 1;
	*out = (struct action){ (uint16_t)(c->kind0 + K_DRAIN), (uint16_t)(c->unit0[0] + p), c->subj0[0] + q,
	                        q + c->g->nqueues * (k - 1) };
	return 1;
}

/* Partition p's DRAINs, into out. */
static inline __attribute__((always_inline)) unsigned drains(const struct comp *c, const uint8_t *sv, unsigned p,
                                                             int timed, struct action *out)
{
	const struct gpu_cfg *cf = &c->g->cfg;
	unsigned n = 0;
	if (cf->flush == DF_ORDERED) { /* only the SM whose turn it is (the reorder buffer) */
		unsigned s = *prr(c, sv, p);
		return s < cf->sms ? drain_of(c, sv, p, s * cf->partitions + p, timed, out) : 0;
	}
	for (unsigned s = 0; s < cf->sms; s++)
		n += drain_of(c, sv, p, s * cf->partitions + p, timed, out + n);
	return n;
}

/* Concrete mode, ordered: partition p's DRAIN (at most one: its turn's)
** reads only its turn, that FIFO and the interconnect's arrivals into
** it, which only this component's FLUSH and DRAIN move (apply: FIFOs
** and turns; timing: arrivals, of the same actions).  So each is kept,
** per run, until the timing of the action whose apply moves them marks
** its partition (turn_dirty: a DRAIN its own, a FLUSH all; not apply,
** which exhaustive mode's threads run at once on the shared priv).  Most
** listings come after a DRAIN, which moved one partition of four.  Under
** GPUMC_CHECK_READY a kept one is listed anyway and compared (invariant
** READY-13).  A turn's FIFO holds entries exactly when any FIFO does
** (next_turn after each flush and message), so they also tell whether a
** flush is in flight (READY-12).  Brings them up to date. */
static void turns_kept(const struct comp *c, const uint8_t *sv, const struct timed_now *tn)
{
	struct dab *d = (struct dab *)c->priv;
	if (d->turn_run != tn->run) {
		d->turn_run = tn->run;
		d->turn_dirty = ~0u;
	}
	/* read once: the stores to turn[] may alias every field */
	const unsigned P = c->g->cfg.partitions, S = c->g->cfg.sms;
	const uint16_t *rr = prr(c, sv, 0);
	uint32_t all = (1u << P) - 1, has = d->turn_has, dirty = d->turn_dirty;
	for (uint32_t m = (tn->check ? all : dirty) & all; m; m &= m - 1) {
		unsigned p = (unsigned)__builtin_ctz(m), s = rr[p];
		struct action a = { 0 };
		int k = s < S && (int)drain_of(c, sv, p, s * P + p, 1, &a); /* the turn's FIFO alone (drains) */
		if (!(dirty >> p & 1) && (k != (int)(has >> p & 1) || (k && !same_action(&a, &d->turn[p])))) {
			fprintf(stderr, "gpumc: internal error: READY-13: partition %u's kept DRAIN differs from the state's "
			        "at cycle %llu: an apply did not mark it\n", p, (unsigned long long)tn->clock);
			abort();
		}
		d->turn[p] = a;
		has = k ? has | 1u << p : has & ~(1u << p);
	}
	d->turn_has = has;
	d->turn_dirty = 0;
}

/* The kept turns' DRAINs into out, as they are. */
static inline unsigned turns_out(const struct dab *d, struct action *out)
{
	unsigned n = 0;
	for (uint32_t has = d->turn_has; has; has &= has - 1)
		out[n++] = d->turn[__builtin_ctz(has)];
	return n;
}

/* The kept turns' DRAINs (turns_kept), into out: the whole listing
** while a flush is in flight (ordered, concrete mode). */
static inline unsigned turns_listed(const struct comp *c, const uint8_t *sv, const struct timed_now *tn,
                                    struct action *out)
{
	const struct dab *d = D(c);
	if (d->turn_dirty || d->turn_run != tn->run)
		turns_kept(c, sv, tn);
	return turns_out(d, out);
}

/* enabled() where the listing is not kept, or under GPUMC_CHECK_READY
** (a kept one then compared): out of line, for its frame would make the
** kept listing's (most calls) dear. */
static __attribute__((noinline)) unsigned listing(const struct comp *c, const uint8_t *sv,
                                                  const struct action *before, unsigned nb, struct action *out,
                                                  int timed)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	const struct bind *ib = REQ(c, P_ISSUE);
	const struct port_issue *ip = ib->ops;
	const struct timed_now *tn = timed && ip->allowed ? compose_now(c) : NULL; /* as enabled() */
	const uint64_t *per_sm = tn ? ip->allowed(ib->c) : NULL;
	int kept = tn && tn->check && list_kept(c, sv, tn, per_sm, 1); /* then compared (list_keep) */
	int ordered = tn && cf->flush == DF_ORDERED;
	if (ordered)
		turns_kept(c, sv, tn);
	/* ordered, nr: no FLUSH while one is in flight, whatever the warps
	** do, so the guard is not read then: most listings of a concrete run
	** come during a flush, listing its DRAINs (exhaustive mode's, not:
	** there the test costs more than it saves) */
	uint32_t has = D(c)->turn_has;
	int drains_only = tn && cf->flush < DF_NR_OF && (ordered ? has != 0 : anything_in_flight(c, sv));
	unsigned n = 0;
	if (!drains_only || (tn && tn->check))
		n = list_flush(c, sv, tn, per_sm, before, nb, out);
	if (drains_only) /* none read, though the check lists the guard (READY-12) */
		((struct dab *)c->priv)->fresh_read = (struct told_read){ 0, 0 };
	if (tn && tn->check && ((ordered && (has != 0) != anything_in_flight(c, sv)) || (drains_only && n))) {
		fprintf(stderr, "gpumc: internal error: READY-12: at cycle %llu the turns' FIFOs say %s in flight, the "
		        "FIFOs %s, and the guard lists %u FLUSH\n", (unsigned long long)tn->clock,
		        has ? "entries are" : "none is", anything_in_flight(c, sv) ? "some" : "none", n);
		abort();
	}
	if (ordered)
		n += turns_listed(c, sv, tn, out + n);
	else
		for (unsigned p = 0; p < cf->partitions; p++)
			n += drains(c, sv, p, timed, out + n);
	if (tn)
		list_keep(c, tn, per_sm, kept, out, n);
	return n;
}

/* The kept listing into out (list_kept), or UINT_MAX where it is not
** kept. */
static inline unsigned kept_listing(const struct comp *c, const uint8_t *sv, const struct timed_now *tn,
                                    struct action *out, int past)
{
	struct dab *d = (struct dab *)c->priv;
	if (!list_kept(c, sv, tn, d->told, past))
		return UINT_MAX;
	if (past) /* as of now: the quick test takes it next */
		d->list_at = tn->nonlocal;
	for (unsigned i = 0; i < d->list_n; i++)
		out[i] = d->list[i];
	return d->list_n;
}

/* enabled() where its listing is not kept: out of line, so that the kept
** one's (most calls) is a leaf.  While turn_has or turn_dirty say a flush
** may be in flight (ordered, concrete mode): the turns' DRAINs alone
** (READY-12), kept per partition (turns_kept) whatever else moves, such
** as the schedulers told. */
static __attribute__((noinline)) unsigned fresh_listing(const struct comp *c, const uint8_t *sv,
                                                        const struct action *before, unsigned nb,
                                                        struct action *out, int timed)
{
	const struct bind *ib = REQ(c, P_ISSUE);
	const struct port_issue *ip = ib->ops;
	/* concrete mode: the schedulers told (port_issue.allowed) */
	const struct timed_now *tn = timed && ip->allowed ? compose_now(c) : NULL;
	const struct dab *d = D(c);
	if (!tn) /* no schedulers told: listed as exhaustive mode's */
		return listing(c, sv, before, nb, out, timed);
	unsigned n = 0;
	if ((d->turn_has | d->turn_dirty) && c->g->cfg.flush == DF_ORDERED)
		n = turns_listed(c, sv, tn, out);
	if (!n)
		n = kept_listing(c, sv, tn, out, 1);
	return n != UINT_MAX ? n : listing(c, sv, before, nb, out, timed);
}

static unsigned enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                        struct action *out, int timed)
{
	/* concrete mode (a listing is kept only there, and only where the
	** issue port tells the schedulers: list_keep) */
	const struct timed_now *tn = compose_now(c);
	if (!tn || tn->check)
		return listing(c, sv, before, nb, out, timed);
	unsigned n = kept_listing(c, sv, tn, out, 0);
	if (n != UINT_MAX)
		return n;
	/* a flush in flight (ordered), every turn's DRAIN kept as of now
	** (most: drained_turn): their DRAINs are the listing (READY-12) */
	const struct dab *d = D(c);
	if (d->turn_has && !d->turn_dirty && d->turn_run == tn->run)
		return turns_out(d, out);
	return fresh_listing(c, sv, before, nb, out, timed);
}

/* The flush made the atomics of SM sm (-1: every SM) visible: its waiting
** warps re-check what they wait for (an atom's values, a fence, room in
** the buffer). */
static void release(const struct comp *c, uint8_t *sv, int sm)
{
	const struct gpu *g = c->g;
	for (unsigned w = 0; w < g->nwarps; w++)
		if ((sm < 0 || gpu_sm_of(g, w) == (unsigned)sm) && WARPS(c)->waiting(WC(c), sv, w))
			WARPS(c)->resume(WC(c), sv, w);
}

/* Round-robin turn of partition p: the next SM, from `from`, with entries.
** Inline: most drains end a message. */
static inline void next_turn(const struct comp *c, const uint8_t *sv, unsigned p, unsigned from)
{
	const struct gpu *g = c->g;
	unsigned S = g->cfg.sms;
	/* SM s's FIFO for p at q0 + s * step: walked with a pointer */
	const uint8_t *q0 = (const uint8_t *)queue(c, sv, p);
	size_t step = D(c)->q_bytes * g->cfg.partitions;
	for (unsigned k = 0, s = from < S ? from : 0; k < S; k++, s = s + 1 < S ? s + 1 : 0)
		if (*(const uint16_t *)(q0 + step * s)) {
			*prr(c, sv, p) = (uint16_t)s;
			return;
		}
	*prr(c, sv, p) = 0;
}

/* The warps of SM sm (-1: all) have had their atomics flushed. */
static void clean(const struct comp *c, uint8_t *sv, int sm)
{
	const struct gpu *g = c->g;
	for (unsigned w = 0; w < g->nwarps; w++)
		if (sm < 0 || gpu_sm_of(g, w) == (unsigned)sm)
			gpu_warp(g, sv, w)->pending &= (uint8_t)~PEND_DIRTY;
}

/* Every flushed entry was performed: the flush is complete, fences and
** barriers may pass. */
static void complete(const struct comp *c, uint8_t *sv)
{
	if (c->g->cfg.flush < DF_NR_OF)
		clean(c, sv, -1);
	release(c, sv, -1);
}

/* Offset flushing (DAB §VI-B2): "every SM with an even SM id starts
** flushing at the 32nd index" of its buffers (offset_flush = 32; 0: off),
** so the SMs do not hit the same partitions in the same order.  The
** order is fixed by the SM id and the buffer, so it stays deterministic;
** it does reorder a buffer's entries, two for one address included. */
static unsigned offset(const struct comp *c, unsigned sm, unsigned count)
{
	unsigned o = c->g->cfg.offset_flush;
	return sm % 2 == 0 && o < count ? o : 0;
}

/* Out of line: its frame would make apply()'s DRAINs (most calls) dear. */
static __attribute__((noinline)) void flush(const struct comp *c, uint8_t *sv, int sm)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	/* a FIFO runs down: what it holds moves up by what this flush puts
	** behind it (nr-of, nr-cif; the others flush into empty FIFOs), so
	** that is counted first */
	/* per FIFO (at most 64 SMs x 8 partitions: compose.c's parameter
	** table), the entries to come: concrete mode, as the FLUSH's timing
	** sent them (sent; under GPUMC_CHECK_READY counted too and compared:
	** invariant DAB-SENT) */
	unsigned at[64 * 8] = { 0 };
	struct dab *d = (struct dab *)c->priv;
	int kept = d->sent_sv == sv && (sm < 0 ? d->sent_arg >= cf->sms : d->sent_arg == (unsigned)sm);
	if (kept) /* only here: exhaustive mode, which applies from every thread at once, keeps none */
		d->sent_sv = NULL;
	for (unsigned b = 0; (!kept || d->checking) && b < d->nbufs; b++) {
		unsigned s = sm_of_buffer(c, b);
		const struct dab_buf *bf = buf(c, sv, b);
		const struct atomic_entry *e = buf_entries(c, sv, b);
		for (unsigned i = 0; (sm < 0 || s == (unsigned)sm) && i < bf->count; i++)
			at[s * cf->partitions + gpu_partition_of(g, e[i].addr)]++;
	}
	if (kept && d->checking && memcmp(at, d->sent, sizeof *at * g->nqueues)) {
		fprintf(stderr, "gpumc: internal error: DAB-SENT: a FLUSH's timing sent other counts into the FIFOs than "
		        "its buffers hold\n");
		abort();
	}
	if (kept)
		memcpy(at, d->sent, sizeof *at * g->nqueues);
	/* per FIFO, below where its next entry goes */
	struct atomic_entry *to[64 * 8];
	for (unsigned q = 0; q < g->nqueues; q++) {
		uint16_t *qh = queue(c, sv, q);
		if (at[q] && qh[0])
			memmove(queue_entries(c, sv, q) + at[q], queue_entries(c, sv, q), sizeof(struct atomic_entry) * qh[0]);
		qh[0] = (uint16_t)(qh[0] + at[q]);
		to[q] = queue_entries(c, sv, q) + at[q];
	}
	for (unsigned b = 0; b < D(c)->nbufs; b++) {
		unsigned s = sm_of_buffer(c, b), n = buf(c, sv, b)->count;
		if (sm >= 0 && s != (unsigned)sm)
			continue;
		struct atomic_entry *e = buf_entries(c, sv, b), **tq = to + s * cf->partitions;
		for (unsigned j = 0, i = offset(c, s, n); j < n; j++, i = i + 1 < n ? i + 1 : 0) /* i: (offset + j) % n */
			*--tq[gpu_partition_of(g, e[i].addr)] = e[i];
		memset(buf(c, sv, b), 0, D(c)->buf_bytes);
	}
	for (unsigned p = 0; p < cf->partitions; p++)
		next_turn(c, sv, p, 0);
	if (cf->flush >= DF_NR_OF) {
		clean(c, sv, sm);
		release(c, sv, sm); /* warps go on while the entries travel */
	} else if (!anything_in_flight(c, sv)) {
		complete(c, sv); /* nothing was buffered: a barrier's or volatile's flush */
	}
}

/* DAB-WORD (GPUMC_CHECK_READY): the word a red performs on where
** memory.c provides mem is the one the mem port reads. */
static __attribute__((noinline)) void word_checked(const struct comp *c, uint8_t *sv, const struct atomic_entry *e,
                                                   const uint32_t *x)
{
	uint32_t v = ((const struct port_mem *)port_ops(c, P_MEM))->load(REQ(c, P_MEM)->c, sv, SP_GLOBAL, 0, e->addr / 4);
	if (v != *x) {
		fprintf(stderr, "gpumc: internal error: DAB-WORD: the word of address %u holds %u, the mem port reads %u\n",
		        e->addr, *x, v);
		abort();
	}
}

/* A partition performs FIFO entry e: its warp is owed one value less
** where it returns one.  A red (most) where memory.c provides mem takes
** no port call: memory.c's rmw, on the word where it keeps it (gword;
** invariant DAB-WORD; a read-only word goes to the port, which faults
** it: MEM-2).  Inline: each drain's. */
static inline __attribute__((always_inline)) void perform(const struct comp *c, uint8_t *sv,
                                                         const struct atomic_entry *e)
{
	uint32_t off = c->g->gword[e->addr / 4];
	if (!e->ret && off != GWORD_CONST && REQ(c, P_MEM)->c->def == &comp_mem) {
		uint32_t *x = (uint32_t *)(sv + off);
		if (D(c)->checking)
			word_checked(c, sv, e, x);
		*x = alu_atomic((enum atom_op)e->op, (enum vtype)e->type, *x, e->arg, e->arg2);
		return;
	}
	if (atomic_entry_perform(c, sv, e))
		gpu_warp(c->g, sv, e->warp)->pending--;
}

/* Partition q % partitions performs the k entries at the head of FIFO q,
** one transaction's (icnt_run; exhaustive mode's k is 1): k drains of one
** in a row.  The turn stays between them (same_tx is an equivalence: one
** buffer, one sector), and only the last can empty the FIFO.  whole: the
** k are the head's whole transaction (concrete mode's, icnt_run), so the
** message is over without a look at the next, and a FIFO it empties is
** not the flush's last (leaves_some): no scan (DAB-WHOLE compares).
** Inline: most calls are one entry's. */
static inline __attribute__((always_inline)) void drain(const struct comp *c, uint8_t *sv, unsigned q, unsigned k,
                                                        int whole)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	uint16_t *qh = queue(c, sv, q);
	struct atomic_entry *e = queue_entries(c, sv, q);
	unsigned n = qh[0] - k; /* e[n]: the last performed, e[n - 1] the next head */
	/* before the performs, which do not touch the FIFO: fewer values
	** live across their calls */
	int over = cf->flush == DF_ORDERED && (whole || !(n && same_tx(c, &e[n], &e[n - 1]))); /* the message is over */
	int sm = cf->flush >= DF_NR_OF && e[n].ret ? (int)gpu_sm_of(g, e[n].warp) : -1;
	if (k == 1) { /* most: no loop, a call less */
		perform(c, sv, &e[n]);
		memset(&e[n], 0, sizeof *e);
	} else {
		for (unsigned i = n + k; i-- > n;)
			perform(c, sv, &e[i]);
		memset(&e[n], 0, sizeof *e * k);
	}
	qh[0] = (uint16_t)n;
	if (over)
		next_turn(c, sv, fastdiv_mod(c->g->by_partitions, q), fastdiv_div(c->g->by_partitions, q) + 1);
	if (!n && !whole && !anything_in_flight(c, sv)) /* q itself holds more: no scan */
		complete(c, sv);
	else if (sm >= 0)
		release(c, sv, sm);
}

/* Concrete mode, ordered: the kept DRAIN (turns_kept) of DRAIN a's
** partition p made anew after a drained its turn's FIFO and left entries
** in flight (leaves_some): from the turn the drain left, that FIFO and
** its arrivals, or none where p has no entries left, as turns_kept would
** at the next listing (READY-13).  Most listings then find every turn
** kept.  emptied: a emptied its FIFO (else p keeps entries: a test
** less). */
static inline __attribute__((always_inline)) void drained_turn(const struct comp *c, const uint8_t *sv,
                                                             const struct action *a, int emptied)
{
	struct dab *d = (struct dab *)c->priv;
	unsigned P = c->g->cfg.partitions, p = a->unit - c->unit0[0], q = *prr(c, sv, p) * P + p, n = queue(c, sv, q)[0];
	if (emptied && !n) { /* next_turn found no SM with entries for p */
		d->turn_has &= ~(1u << p);
		return;
	}
	/* drain_of's, of a's kind and unit */
	unsigned k = head_run(c, sv, q, n);
	d->turn[p] = (struct action){ a->kind, a->unit, c->subj0[0] + q, q + c->g->nqueues * (k - 1) };
	d->turn_has |= 1u << p;
}

static void apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	const struct gpu *g = c->g;
	if (a->kind == c->kind0 + K_FLUSH) {
		flush(c, sv, a->arg < g->cfg.sms ? (int)a->arg : -1);
		return;
	}
	unsigned q = fastdiv_mod(g->by_nqueues, a->arg), k = fastdiv_div(g->by_nqueues, a->arg) + 1;
	if (g->cfg.flush < DF_NR_OF)
		drain(c, sv, q, k, 0);
	else /* a returning entry releases its SM's warps as it is performed */
		while (k--)
			drain(c, sv, q, 1, 0);
	struct dab *d = (struct dab *)c->priv;
	if (d->drained.a == a && d->drained.sv == sv) { /* concrete mode: prepare's (drained) */
		d->drained.sv = NULL;
		if (d->drained.keep)
			drained_turn(c, sv, a, 1);
	}
}

/* The reach of a DRAIN of the k entries e[n - k .. n) of a FIFO that
** leaves entries in flight (leaves_some): a step performs the k entries
** of one transaction (dabpaper11); none returning a value reaches no
** scheduler, those that do their SM.  Inline: prepare asks it too. */
static inline int drained_reach(const struct comp *c, const struct atomic_entry *e, unsigned n, unsigned k)
{
	if (k == 1) /* most: no loop */
		return e[n - 1].ret ? (int)gpu_sm_of(c->g, e[n - 1].warp) : REACH_NONE;
	int sm = REACH_NONE;
	for (unsigned i = n - k; i < n; i++)
		if (e[i].ret) {
			int s = (int)gpu_sm_of(c->g, e[i].warp);
			if (sm != REACH_NONE && sm != s)
				return -1;
			sm = s;
		}
	return sm;
}

/* The reach of a FLUSH (flush): ordered and nr, one that moves entries
** moves only buffers, FIFOs and turns, which no scheduler reads (DAB's
** room is always there: always_room; a warp refused for room stays
** WAIT until the flush completes), and times only the FIFOs: it reaches
** no set.  An empty one (a barrier's or volatile's) completes at once,
** releasing every SM's waiting warps; nr-of's releases them too, and
** nr-cif's those of its SM.  READY-1 and DAB-SYNC check it under
** GPUMC_CHECK_READY: a set or sync_ready kept past a FLUSH that moved
** them differs from a full poll. */
static int flush_reach(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	const struct gpu_cfg *cf = &c->g->cfg;
	if (cf->flush < DF_NR_OF)
		return anything_buffered(c, sv, -1) ? REACH_NONE : -1;
	return a->arg < cf->sms ? (int)a->arg : -1;
}

/* Concrete mode's ready sets (readyset.c): a drain that leaves something
** in flight touches only its entry's warp (pending) and that warp's SM
** (release), and with an entry that returns no value (a red) neither:
** only memory, which no scheduler reads, and the FIFOs; the last one
** completes the flush, which touches all (a FLUSH's own: flush_reach).  Out of line: reach()'s
** kept answer (most calls) is a leaf. */
static __attribute__((noinline)) int reach_of(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	unsigned aq = fastdiv_mod(c->g->by_nqueues, a->arg), k = fastdiv_div(c->g->by_nqueues, a->arg) + 1;
	if (a->kind != c->kind0 + K_DRAIN)
		return flush_reach(c, sv, a);
	if (!leaves_some(c, sv, aq, k, queue(c, sv, aq)[0]))
		return -1;
	return drained_reach(c, queue_entries(c, sv, aq), queue(c, sv, aq)[0], k);
}

/* reach_of, as prepare found it where it kept it (drained); under
** GPUMC_CHECK_READY found anew and compared (invariant DAB-DRAIN). */
static int reach(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	const struct dab *d = D(c);
	int kept = d->drained.a == a && d->drained.sv == sv;
	if (kept && !d->checking)
		return d->drained.reach;
	int r = reach_of(c, sv, a);
	if (kept && r != d->drained.reach) {
		fprintf(stderr, "gpumc: internal error: DAB-DRAIN: prepare kept reach %d for a DRAIN whose reach is %d\n",
		        d->drained.reach, r);
		abort();
	}
	return r;
}

static void describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	const struct gpu *g = c->g;
	if (a->kind == c->kind0 + K_FLUSH) {
		if (a->arg < g->cfg.sms)
			sb_printf(out, "DAB flush of sm %u's atomic buffers", a->arg);
		else
			sb_puts(out, "DAB flush of every atomic buffer (pre-flush counts sent)");
		return;
	}
	unsigned q = a->arg % g->nqueues;
	sb_printf(out, "partition %u performs the flushed atomic from sm %u: ", q % g->cfg.partitions,
	          q / g->cfg.partitions);
	if (a->arg >= g->nqueues)
		sb_printf(out, "%u entries of one transaction, the first ", a->arg / g->nqueues + 1);
	atomic_entry_describe(c, queue_head(c, sv, q), out);
}

static void print(const struct comp *c, const uint8_t *sv, struct strbuf *out)
{
	const struct gpu *g = c->g;
	for (unsigned b = 0; b < D(c)->nbufs; b++) {
		const struct dab_buf *bf = buf(c, sv, b);
		if (bf->count)
			sb_printf(out, "  %s buffer %u: %u of %u entries\n", g->cfg.buffer_level ? "scheduler" : "warp", b,
			          bf->count, g->cfg.entries);
	}
	for (unsigned q = 0; q < g->nqueues; q++)
		if (queue(c, sv, q)[0])
			sb_printf(out, "  sm %u -> partition %u: %u flushed entries in flight\n", q / g->cfg.partitions,
			          q % g->cfg.partitions, queue(c, sv, q)[0]);
}

/* DAB buffers the atomics bound for global memory (§IV-B); a shared one
** is performed at issue, in whatever order the warps issue.  Fusion folds
** .f32 adds into one rounded sum (§IV-E), which no sequential order need
** give: say so when an outcome is not the reference machine's. */
static void notes(const struct comp *c, int failed, struct strbuf *out)
{
	const struct gpu *g = c->g;
	if (D(c)->shared_pc < (unsigned)g->prog->nins)
		sb_printf(out, "note: shared-memory atomics: outside DAB's guarantee (pc %u is performed at issue, "
		          "in no atomic buffer)\n", D(c)->shared_pc);
	if ((failed == P_REFINES || failed == P_EQUALS) && D(c)->fused_f32_pc < (unsigned)g->prog->nins)
		sb_printf(out, "note: fusion folds .f32 adds (pc %u) into one buffer entry, one rounded sum (DAB IV-E): "
		          "an outcome no sequential order of the adds gives can come from that (compare -D fusion=off)\n",
		          D(c)->fused_f32_pc);
}

/* Coalescing (§IV-F) groups a buffer's entries by 32-byte sector: the
** index in flush order of the first entry in addr's sector, j (the
** entry's own index) where it is the first, from a map of the sectors
** seen (a scan of the earlier entries for each entry was quadratic in the
** buffer size). */
static unsigned sectors_first(struct entry_map *x, uint32_t addr, unsigned j)
{
	unsigned h = map_slot(x, addr / ICNT_SECTOR);
	if (x->at[h])
		return x->at[h] - 1u;
	map_put(x, h, addr / ICNT_SECTOR, j);
	return j;
}

static unsigned flush_entries(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	const struct gpu *g = c->g;
	unsigned n = 0;
	for (unsigned b = 0; b < D(c)->nbufs; b++)
		if (a->arg >= g->cfg.sms || sm_of_buffer(c, b) == a->arg)
			n += buf(c, sv, b)->count;
	return n;
}

/* Interconnect transactions of a flush: one per entry, or one per 32-byte
** sector and buffer when flush coalescing is on (§IV-F). */
static unsigned flush_transactions(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	const struct gpu *g = c->g;
	unsigned n = 0;
	struct entry_map x;
	for (unsigned b = 0; b < D(c)->nbufs; b++) {
		if (a->arg < g->cfg.sms && sm_of_buffer(c, b) != a->arg)
			continue;
		const struct dab_buf *bf = buf(c, sv, b);
		const struct atomic_entry *e = buf_entries(c, sv, b);
		map_reset(&x, bf->count);
		for (unsigned i = 0; i < bf->count; i++)
			n += !g->cfg.coalesce || sectors_first(&x, e[i].addr, i) == i;
	}
	return n;
}

/* {=== Concrete mode, statistics ======================================== */

/* A flush sends SM by SM (in parallel), buffer by buffer, in the order
** flush() queues the entries, through the SM's interconnect port (icnt.c):
** one transaction per entry, or per sector and buffer when coalescing. */
static uint64_t timing_flush_sm(const struct comp *c, const uint8_t *sv, unsigned s, struct timing *t,
                                uint64_t (*rnd)(void *), void *rng, unsigned *tx)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	struct icnt *ic = D(c)->ic;
	unsigned P = cf->partitions, pos[8]; /* per partition, the next entry's place in its FIFO */
	struct icnt_tail tail[8]; /* ... and where its arrival goes */
	struct entry_map sec;
	for (unsigned p = 0; p < P; p++) {
		pos[p] = queue(c, sv, s * P + p)[0];
		tail[p] = icnt_tail(ic, s * P + p, pos[p]);
	}
	unsigned *sent = ((struct dab *)c->priv)->sent + s * P;
	for (unsigned p = 0; p < P; p++)
		sent[p] = pos[p];
	for (unsigned b = 0; b < D(c)->nbufs; b++) {
		if (sm_of_buffer(c, b) != s)
			continue;
		const struct dab_buf *bf = buf(c, sv, b);
		const struct atomic_entry *e = buf_entries(c, sv, b);
		uint64_t at[1024];
		map_reset(&sec, bf->count);
		unsigned n = bf->count;
		for (unsigned j = 0, i = offset(c, s, n); j < n; j++, i = i + 1 < n ? i + 1 : 0) { /* i: (offset + j) % n */
			unsigned x = cf->coalesce ? sectors_first(&sec, e[i].addr, j) : j;
			unsigned p = gpu_partition_of(g, e[i].addr), q = s * P + p, at_pos = pos[p]++;
			if (x == j)
				++*tx;
			at[j] = x < j ? at[x] : icnt_send(ic, cf, s, p, t->now + cf->lat_flush, rnd, rng);
			icnt_tail_arrive(&tail[p], at[j]);
			if (!at_pos) /* a new head */
				icnt_ready(t, c->subj0[0] + q, at[j]);
		}
	}
	for (unsigned p = 0; p < P; p++)
		sent[p] = pos[p] - sent[p];
	return icnt_free_at(ic, s);
}

/* A FLUSH's timing: the pre-flush messages (lat_flush), then the entries;
** the flush engine is busy until the last SM sent its last transaction.
** Out of line: its frame would make a DRAIN's (most calls) dear. */
static __attribute__((noinline)) void timing_flush(const struct comp *c, const uint8_t *sv, const struct action *a,
                                                   struct timing *t, uint64_t (*rnd)(void *), void *rng)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	unsigned warp0 = WC(c)->subj0[0];
	uint64_t done = t->now + cf->lat_flush;
	unsigned tx = 0;
	struct dab *x = (struct dab *)c->priv;
	for (unsigned s = 0; s < cf->sms; s++)
		if (a->arg >= cf->sms || s == a->arg) {
			uint64_t d = timing_flush_sm(c, sv, s, t, rnd, rng, &tx);
			if (d > done)
				done = d;
		} else {
			memset(x->sent + s * cf->partitions, 0, sizeof *x->sent * cf->partitions);
		}
	x->tx_sv = x->sent_sv = sv;
	x->tx_arg = x->sent_arg = a->arg;
	x->tx_n = tx;
	t->busy = (unsigned)(done - t->now);
	/* warps released at the push (nr-of, nr-cif) wait for the acks */
	for (unsigned w = 0; w < g->nwarps && cf->flush >= DF_NR_OF && t->n < TIMING_MAX_UPDATES; w++)
		if (WARPS(c)->waiting(WC(c), sv, w) && (a->arg >= cf->sms || gpu_sm_of(g, w) == a->arg)) {
			t->upd[t->n].subject = warp0 + w;
			t->upd[t->n++].delay = t->busy + cf->lat_icnt;
		}
}

/* The ROP takes FIFO q's k entries of n: busy lat_rop, and when the
** FIFO can give its next, where that is later than the partition is
** free again: a head that has arrived by then needs no ready time, the
** partition's busy-until (the driver's) holds it as long (most DRAINs
** of a flush: the turn comes back to a FIFO long after its next entry
** arrived).  Inline: every DRAIN's timing. */
static inline __attribute__((always_inline)) void rop_take(const struct comp *c, unsigned q, unsigned k, unsigned n,
                                                          struct timing *t)
{
	t->busy = c->g->cfg.lat_rop;
	uint64_t next = icnt_take(D(c)->ic, q, 0, k, n, t->now, t->busy);
	if (next > t->now + t->busy)
		icnt_ready(t, c->subj0[0] + q, next);
}

/* A DRAIN's timing of FIFO q's k entries of n, but for the release of
** the waiting warps after a flush's last (timing_of).  Inline: most
** DRAINs' prepare is this alone. */
static inline __attribute__((always_inline)) void timing_drain(const struct comp *c, unsigned q, unsigned k,
                                                              unsigned n, struct timing *t)
{
	/* the partitions whose kept DRAINs (turns_kept) the apply that
	** follows may change: marked here, for exhaustive mode, which keeps
	** none, applies from every thread at once and never times (but
	** where that apply makes it anew: prepare) */
	((struct dab *)c->priv)->turn_dirty |= 1u << fastdiv_mod(c->g->by_partitions, q);
	rop_take(c, q, k, n, t);
}

/* Inline: prepare_any asks it with count. */
static inline __attribute__((always_inline)) void timing_of(const struct comp *c, const uint8_t *sv,
                                                           const struct action *a, struct timing *t,
                                                           uint64_t (*rnd)(void *), void *rng)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	icnt_begin(D(c)->ic, t); /* t->busy 1, t->n 0 (model.step) */
	if (a->kind != c->kind0 + K_DRAIN) { /* all partitions marked (timing_drain) */
		((struct dab *)c->priv)->turn_dirty = ~0u;
		timing_flush(c, sv, a, t, rnd, rng);
		return;
	}
	unsigned q = fastdiv_mod(g->by_nqueues, a->arg), k = fastdiv_div(g->by_nqueues, a->arg) + 1;
	timing_drain(c, q, k, queue(c, sv, q)[0], t);
	/* the last entries of a flush release the waiting warps */
	int last = !leaves_some(c, sv, q, k, queue(c, sv, q)[0]);
	for (unsigned w = 0; last && w < g->nwarps && t->n < TIMING_MAX_UPDATES; w++)
		if (WARPS(c)->waiting(WC(c), sv, w)) {
			t->upd[t->n].subject = WC(c)->subj0[0] + w;
			t->upd[t->n++].delay = cf->lat_rop + cf->lat_icnt;
		}
}

static void timing(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                   uint64_t (*rnd)(void *), void *rng)
{
	timing_of(c, sv, a, t, rnd, rng);
}

enum { CT_LANES, CT_FLUSH, CT_FLUSH_ENTRIES, CT_FLUSH_TX, CT_N };
static const char *const counters[CT_N] = {
	"atomic lane-ops at ROP", "DAB flushes", "DAB flushed entries", "DAB flush transactions"
};

/* A FLUSH's counts.  Out of line: a DRAIN's (most calls) are a leaf. */
static __attribute__((noinline)) void count_flush(const struct comp *c, const uint8_t *sv, const struct action *a,
                                                  uint64_t *ct)
{
	/* the FLUSH's timing, just before (model.step), counted its
	** transactions; asked alone (GPUMC_CHECK_READY's READY-8, which
	** compares the two), they are counted again */
	struct dab *d = (struct dab *)c->priv;
	unsigned tx = d->tx_sv == sv && d->tx_arg == a->arg ? d->tx_n : flush_transactions(c, sv, a);
	d->tx_sv = NULL;
	comp_count(c, ct, CT_FLUSH, 1);
	comp_count(c, ct, CT_FLUSH_ENTRIES, flush_entries(c, sv, a));
	comp_count(c, ct, CT_FLUSH_TX, tx);
}

static void count(const struct comp *c, const uint8_t *sv, const struct action *a, uint64_t *ct)
{
	if (a->kind == c->kind0 + K_DRAIN)
		comp_count(c, ct, CT_LANES, fastdiv_div(c->g->by_nqueues, a->arg) + 1);
	else
		count_flush(c, sv, a, ct);
}

/* prepare() of a FLUSH, of a run's first timing (icnt_begin) and of a
** flush's last DRAIN (the waiting warps released).  Out of line:
** prepare's other DRAINs, most, are a leaf. */
static __attribute__((noinline)) const struct instr *prepare_any(const struct comp *c, const uint8_t *sv,
                                                                 const struct action *a, struct timing *t,
                                                                 uint64_t (*rnd)(void *), void *rng, uint64_t *ct)
{
	timing_of(c, sv, a, t, rnd, rng);
	count(c, sv, a, ct);
	return NULL;
}

/* A DRAIN's timing and count of FIFO q's k entries of n, leaving
** entries in flight (leaves_some; the interconnect timed this run): its
** reach; *keep: whether its partition's kept DRAIN was up to date
** (ordered), which the apply then makes anew (drained_turn) rather than
** this mark it.  Inline: prepare's and drain_whole's. */
static inline __attribute__((always_inline)) int drain_timed(const struct comp *c, const uint8_t *sv,
                                                            const struct action *a, struct timing *t, uint64_t *ct,
                                                            unsigned q, unsigned k, unsigned n, int *keep)
{
	const struct dab *d = D(c);
	unsigned p = a->unit - c->unit0[0];
	*keep = c->g->cfg.flush == DF_ORDERED && d->turn_run == t->run && !(d->turn_dirty >> p & 1);
	int r = drained_reach(c, queue_entries(c, sv, q), n, k);
	if (*keep)
		rop_take(c, q, k, n, t);
	else
		timing_drain(c, q, k, n, t);
	comp_count(c, ct, CT_LANES, k);
	return r;
}

/* Concrete mode's step of a FLUSH or a DRAIN in one call (comp_def.prepare):
** timing, then count; neither is a warp's issue. */
static const struct instr *prepare(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                                   uint64_t (*rnd)(void *), void *rng, uint64_t *ct)
{
	unsigned q = fastdiv_mod(c->g->by_nqueues, a->arg), k = fastdiv_div(c->g->by_nqueues, a->arg) + 1;
	if (a->kind != c->kind0 + K_DRAIN || D(c)->ic->run != t->run)
		return prepare_any(c, sv, a, t, rnd, rng, ct);
	unsigned n = queue(c, sv, q)[0];
	if (!leaves_some(c, sv, q, k, n)) /* the flush's last */
		return prepare_any(c, sv, a, t, rnd, rng, ct);
	int keep, r = drain_timed(c, sv, a, t, ct, q, k, n, &keep);
	((struct dab *)c->priv)->drained = (struct drained){ sv, a, r, keep };
	return NULL;
}

/* issue_whole's DRAIN, of the fast path (issue_whole): FIFO q's k
** entries of n, leaving entries in flight (leaves_some), the
** interconnect timed this run, ordered or nr: prepare's, then apply's.
** emptied: n is k (drain_emptied's; the others' fold the test away). */
static inline __attribute__((always_inline)) int drain_whole(const struct comp *c, uint8_t *sv,
                                                            const struct action *a, struct timing *t, uint64_t *ct,
                                                            unsigned q, unsigned k, unsigned n, int emptied)
{
	int keep, r = drain_timed(c, sv, a, t, ct, q, k, n, &keep);
	drain(c, sv, q, k, 1);
	if (keep)
		drained_turn(c, sv, a, emptied);
	return r;
}

/* issue_whole the old way: prepare, reach and apply apart.  Out of line:
** a FLUSH, a run's first timing, a flush's last DRAIN, nr-of and
** nr-cif's DRAINs (which release warps), few. */
static __attribute__((noinline)) int whole_apart(const struct comp *c, uint8_t *sv, const struct action *a,
                                                 struct timing *t, uint64_t (*rnd)(void *), void *rng, uint64_t *ct,
                                                 int *r)
{
	prepare(c, sv, a, t, rnd, rng, ct);
	*r = reach(c, sv, a);
	apply(c, sv, a);
	return 0;
}

/* DAB-WHOLE's copy of what a DRAIN of FIFO q's k entries e[0..k) (its
** last, of n) can touch, into o (restore 0) or back from it (1): the
** FIFO's count and those entries, the turns, the entries' memory words
** and the warps owed their old values.  Bytes copied. */
static size_t touched(const struct comp *c, uint8_t *sv, unsigned q, unsigned n, const struct atomic_entry *e,
                      unsigned k, uint8_t *o, int restore)
{
	const struct gpu *g = c->g;
	const struct port_mem *mem = port_ops(c, P_MEM);
	const struct comp *mc = REQ(c, P_MEM)->c;
	uint8_t *at[3] = { (uint8_t *)queue(c, sv, q), (uint8_t *)(queue_entries(c, sv, q) + (n - k)),
		           (uint8_t *)prr(c, sv, 0) };
	size_t len[3] = { 4, sizeof *e * k, 2 * g->cfg.partitions }, nb = 0;
	for (unsigned i = 0; i < 3; nb += len[i++])
		memcpy(restore ? at[i] : o + nb, restore ? o + nb : at[i], len[i]);
	for (unsigned i = 0; i < k; i++) { /* entries of one word: copies of one value (before any perform) */
		uint8_t *x = o + nb + (4 + g->warp_bytes) * i, *rec = (uint8_t *)gpu_warp(g, sv, e[i].warp);
		uint32_t w;
		if (restore) {
			memcpy(&w, x, 4);
			mem->store(mc, sv, SP_GLOBAL, 0, (long)(e[i].addr / 4), w);
		} else {
			w = mem->load(mc, sv, SP_GLOBAL, 0, (long)(e[i].addr / 4));
			memcpy(x, &w, 4);
		}
		if (e[i].ret)
			memcpy(restore ? rec : x + 4, restore ? x + 4 : rec, g->warp_bytes);
		else if (!restore)
			memset(x + 4, 0, g->warp_bytes);
	}
	return nb + (4 + g->warp_bytes) * k;
}

/* The kept state outside the vector a DRAIN of FIFO q moves: the FIFO's
** interconnect head and the kept turns. */
struct drain_kept {
	uint32_t head, has, dirty;
	struct action turn;
};
static struct drain_kept drain_kept(const struct comp *c, unsigned q)
{
	const struct dab *d = D(c);
	return (struct drain_kept){ d->ic->head[q], d->turn_has, d->turn_dirty, d->turn[q % c->g->cfg.partitions] };
}

/* DAB-WHOLE (GPUMC_CHECK_READY): drain_whole gives the timing, counts,
** reach and bytes that prepare, reach and apply give apart.  Each is run
** on the same bytes, the first's undone: what a DRAIN that leaves entries
** in flight (leaves_some) can touch (touched, drain_kept); only those are compared (a
** copy of the whole vector per DRAIN would make checked runs slow).
** Fatal where they differ. */
static __attribute__((noinline)) int whole_checked(const struct comp *c, uint8_t *sv, const struct action *a,
                                                   struct timing *t, uint64_t (*rnd)(void *), void *rng,
                                                   uint64_t *ct, unsigned q, unsigned k, unsigned n)
{
	struct dab *d = (struct dab *)c->priv;
	unsigned P = c->g->cfg.partitions, nct = c->m->ncounters;
	struct atomic_entry *e = xmalloc(sizeof *e * k);
	memcpy(e, queue_entries(c, sv, q) + (n - k), sizeof *e * k);
	size_t nb = 4 + sizeof *e * k + 2 * P + (4 + c->g->warp_bytes) * k;
	uint8_t *before = xmalloc(3 * nb), *apart = before + nb, *whole = apart + nb;
	uint64_t *cts = xmalloc(sizeof *cts * (nct + 1));
	touched(c, sv, q, n, e, k, before, 0);
	struct drain_kept kept = drain_kept(c, q);
	/* the old way, undone */
	struct timing ta = *t;
	int ra;
	memcpy(cts, ct, sizeof *ct * nct);
	whole_apart(c, sv, a, &ta, rnd, rng, cts, &ra);
	touched(c, sv, q, n, e, k, apart, 0);
	struct drain_kept kept_a = drain_kept(c, q);
	touched(c, sv, q, n, e, k, before, 1);
	d->ic->head[q] = kept.head;
	d->turn_has = kept.has;
	d->turn_dirty = kept.dirty;
	d->turn[q % P] = kept.turn;
	/* at once, kept */
	int r = drain_whole(c, sv, a, t, ct, q, k, n, n == k);
	touched(c, sv, q, n, e, k, whole, 0);
	struct drain_kept kept_w = drain_kept(c, q);
	const char *what = r != ra                             ? "the reach"
	                   : memcmp(cts, ct, sizeof *ct * nct) ? "the counts"
	                   : t->busy != ta.busy || t->n != ta.n || memcmp(t->upd, ta.upd, sizeof *t->upd * t->n)
	                           ? "the timing"
	                   : memcmp(apart, whole, nb) ? "the FIFO, turns, words or warps"
	                   : kept_a.head != kept_w.head ? "the interconnect's head"
	                   : kept_a.has != kept_w.has || kept_a.dirty != kept_w.dirty ||
	                                     ((kept_a.has >> q % P & 1) && !same_action(&kept_a.turn, &kept_w.turn))
	                           ? "the kept turns"
	                           : NULL;
	if (what) {
		fprintf(stderr, "gpumc: internal error: DAB-WHOLE: a DRAIN of FIFO %u at once differs from prepare, reach and "
		        "apply in %s\n", q, what);
		abort();
	}
	free(e);
	free(before);
	free(cts);
	return r;
}

/* issue_whole's DRAIN of FIFO q's k entries, all it holds: at once
** where other FIFOs hold entries (leaves_some; DAB pagerank 513 of 532
** a run), else, the flush's last, which completes it, apart.  Out of
** line: few, and issue_whole's copy of drain_whole, for the others (most
** calls), then folds the test of an emptied FIFO away. */
static __attribute__((noinline)) int drain_emptied(const struct comp *c, uint8_t *sv, const struct action *a,
                                                   struct timing *t, uint64_t (*rnd)(void *), void *rng,
                                                   uint64_t *ct, int *r, unsigned q, unsigned k)
{
	if (!leaves_some(c, sv, q, k, k))
		return whole_apart(c, sv, a, t, rnd, rng, ct, r);
	*r = D(c)->checking ? whole_checked(c, sv, a, t, rnd, rng, ct, q, k, k)
	                    : drain_whole(c, sv, a, t, ct, q, k, k, 1);
	return 0;
}

/* Concrete mode's FLUSH or DRAIN in one call (comp_def.issue_whole):
** most, a DRAIN that leaves entries in flight, timed, counted, its reach
** found and applied on one lookup of its FIFO; the others apart. */
static int issue_whole(const struct comp *c, uint8_t *sv, const struct action *a, struct timing *t,
                       uint64_t (*rnd)(void *), void *rng, uint64_t *ct, int *r)
{
	unsigned q = fastdiv_mod(c->g->by_nqueues, a->arg), k = fastdiv_div(c->g->by_nqueues, a->arg) + 1, n;
	if (a->kind != c->kind0 + K_DRAIN || D(c)->ic->run != t->run || c->g->cfg.flush >= DF_NR_OF)
		return whole_apart(c, sv, a, t, rnd, rng, ct, r);
	if ((n = queue(c, sv, q)[0]) <= k)
		return drain_emptied(c, sv, a, t, rnd, rng, ct, r, q, k);
	*r = D(c)->checking ? whole_checked(c, sv, a, t, rnd, rng, ct, q, k, n)
	                    : drain_whole(c, sv, a, t, ct, q, k, n, 0);
	return 0;
}

/* }=== */

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	static const struct atomic_entry zero;
	unsigned nw = g->nwarps, *ret = xcalloc(nw + 1, sizeof *ret), bad = 0;
	for (unsigned b = 0; b < D(c)->nbufs && !bad; b++) {
		const struct dab_buf *bf = buf(c, sv, b);
		const struct atomic_entry *e = buf_entries(c, sv, b);
		if (bf->count > g->cfg.entries || bf->pad) {
			sb_printf(why, "DAB-3: buffer %u holds %u entries (capacity %u)", b, bf->count, g->cfg.entries);
			bad = 1;
		}
		for (unsigned i = 0; i < bf->count && !bad; i++)
			ret[e[i].warp < nw ? e[i].warp : nw] += e[i].ret;
		for (unsigned i = bf->count; i < g->cfg.entries && !bad; i++)
			if (memcmp(&e[i], &zero, sizeof zero)) {
				sb_printf(why, "DAB-3: buffer %u: unused entry %u is not zero", b, i);
				bad = 1;
			}
	}
	for (unsigned q = 0; q < g->nqueues && !bad; q++) {
		const uint16_t *qh = queue(c, sv, q);
		const struct atomic_entry *e = queue_entries(c, sv, q);
		if (qh[0] > D(c)->qcap || qh[1]) {
			sb_printf(why, "DAB-3: FIFO %u holds %u entries (capacity %u)", q, qh[0], D(c)->qcap);
			bad = 1;
		}
		for (unsigned i = 0; i < qh[0] && !bad; i++)
			ret[e[i].warp < nw ? e[i].warp : nw] += e[i].ret;
		for (unsigned i = qh[0]; i < D(c)->qcap && !bad; i++)
			if (memcmp(&e[i], &zero, sizeof zero)) {
				sb_printf(why, "DAB-3: FIFO %u: unused entry %u is not zero", q, i);
				bad = 1;
			}
	}
	for (unsigned w = 0; w < nw && !bad; w++)
		if (owed(c, sv, w) != (int)ret[w]) {
			sb_printf(why, "DAB-2: warp %u is owed %d values, %u returning entries hold them", w, owed(c, sv, w),
			          ret[w]);
			bad = 1;
		}
	if (!bad && g->cfg.flush < DF_NR_OF && anything_in_flight(c, sv) && anything_buffered(c, sv, -1)) {
		sb_puts(why, "DAB-1: atomics buffered while a flush is in flight");
		bad = 1;
	}
	free(ret);
	return (int)bad;
}

static const struct port_atomics atomics_ops = { always_room, push, owed, timing_push, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
static const struct port_order order_ops = { clear };

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_ATOMICS ? (const void *)&atomics_ops : p == P_ORDER ? (const void *)&order_ops : NULL;
}

static const struct kind_def kinds[] = {
	[K_FLUSH] = { "flush", SELF | PORT(P_WARPS), 0 },
	[K_DRAIN] = { "drain", SELF | PORT(P_MEM) | PORT(P_WARPS), 0 },
};

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def params[] = {
	{ "buffer", 1, 0, 1, "warp|scheduler", GP(buffer_level), "atomic buffer per warp or per warp scheduler" },
	{ "entries", 4, 1, 1024, NULL, GP(entries), "entries per atomic buffer" },
	{ "fusion", 1, 0, 1, "off|on", GP(fusion), "fold atomics to the same address and opcode into one entry" },
	{ "coalesce", 1, 0, 1, "off|on", GP(coalesce), "flush one transaction per 32-byte sector and buffer: one message of the reorder buffer, one ROP operation (concrete-mode timing)" },
	ICNT_EJECT_PARAM,
	{ "offset_flush", 0, 0, 1024, NULL, GP(offset_flush), "even SMs start flushing each buffer at this entry (the paper's offset flushing: 32); 0: off" },
	{ "flush", 0, 0, 3, "ordered|nr|nr-of|nr-cif", GP(flush), "flush protocol: ordered (reorder buffers), or the relaxed variants" },
	{ "lat_flush", 20, 0, 100000, NULL, GP(lat_flush), "cycles of the pre-flush message round before entries move" },
	ICNT_BW_PARAM,
};

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	const struct gpu_cfg *cf = &g->cfg;
	if (cf->entries < cf->threads_per_warp) {
		/* an atomic of a whole warp must fit, or it could never issue */
		diag_at(d, g->path, 0, 0, "entries (%u) must hold one warp's atomic: at least threads_per_warp (%u)",
		        cf->entries, cf->threads_per_warp);
		return -1;
	}
	if (cf->sms > 64) {
		diag_at(d, g->path, 0, 0, "DAB orders the flushes of at most 64 SMs (have %u)", cf->sms);
		return -1;
	}
	/* a warp buffer is the warp's own: "warps are kept active while the
	** buffer is non-empty and wait for the flushing process before they
	** can be reclaimed" (IV-B); a scheduler's buffer outlives its warps */
	g->slot_holds_atomics = !cf->buffer_level;
	unsigned nsched = cf->sms * cf->schedulers;
	/* a FIFO holds at most what an SM's buffers hold, twice over when
	** flushes may overlap (nr-of, nr-cif: FLUSH waits for room) */
	unsigned per_sm = (cf->buffer_level ? cf->schedulers : g->warps_per_sm) * cf->entries;
	unsigned qcap = per_sm * (cf->flush >= DF_NR_OF ? 2 : 1);
	size_t head = (sizeof(struct dab) + 7) & ~(size_t)7, off = 0;
	size_t ic_bytes = (icnt_size(g, g->nqueues, qcap) + 7) & ~(size_t)7;
	unsigned max_actions = g->nqueues + cf->sms + 1;
	unsigned nbufs = cf->buffer_level ? nsched : g->nwarps;
	size_t seen_bytes = cf->fusion ? sizeof(struct fuse_seen) * nbufs : 0;
	struct dab *x = xcalloc(1, head + ic_bytes + seen_bytes + sizeof *x->list_told * cf->sms +
	                               sizeof *x->list * max_actions + sizeof *x->buffer * g->nwarps);
	x->ic = icnt_init((char *)x + head, g, g->nqueues, qcap);
	x->seen = cf->fusion ? (struct fuse_seen *)((char *)x + head + ic_bytes) : NULL;
	x->list_told = (uint64_t *)((char *)x + head + ic_bytes + seen_bytes);
	x->list = (struct action *)(x->list_told + cf->sms);
	x->buffer = (uint16_t *)(x->list + max_actions);
	for (unsigned w = 0; w < g->nwarps; w++)
		x->buffer[w] = (uint16_t)(cf->buffer_level ? gpu_sched_of(g, w) : w);
	x->list_run = x->turn_run = UINT64_MAX;
	x->qcap = qcap;
	x->nbufs = nbufs;
	x->full_from = cf->buffer_level && full_is_a_cut(cf) ? cf->entries - cf->threads_per_warp + 1 : UINT_MAX;
	x->buf_off = off;
	x->buf_bytes = sizeof(struct dab_buf) + sizeof(struct atomic_entry) * cf->entries;
	off += x->buf_bytes * x->nbufs;
	x->prr_off = off;
	off += (2 * cf->partitions + 3) & ~(size_t)3;
	x->q_off = off;
	x->q_bytes = 4 + sizeof(struct atomic_entry) * x->qcap;
	off += x->q_bytes * g->nqueues;
	x->shared_pc = x->fused_f32_pc = (unsigned)g->prog->nins;
	for (unsigned pc = (unsigned)g->prog->nins; pc-- > 0;) {
		const struct instr *in = &g->prog->ins[pc];
		if ((in->op == OP_ATOM || in->op == OP_RED) && in->space == SP_SHARED)
			x->shared_pc = pc;
		else if (in->op == OP_RED && in->aop == AT_ADD && in->type == VT_F32 && cf->fusion)
			x->fused_f32_pc = pc;
	}
	c->priv = x;
	*align = 4;
	c->max_actions = max_actions;
	c->units[0] = (struct pool_req){ "partition", cf->partitions };
	/* one flush engine for the GPU-wide flush; one per SM when each SM
	** flushes on its own (nr-cif), so they do not queue on each other */
	c->units[1] = (struct pool_req){ "flush", cf->flush == DF_NR_CIF ? cf->sms : 1 };
	c->subjects[0] = (struct pool_req){ "queue", g->nqueues };
	c->subjects[1] = (struct pool_req){ "flush", cf->sms + 1 };
	return (long)off;
}

/* The slice placed at c->off: prr_at and q_at. */
static void place(struct comp *c, struct gpu *g)
{
	struct dab *x = (struct dab *)c->priv;
	x->prr_at = c->off + x->prr_off;
	for (unsigned q = 0; q < g->nqueues; q++)
		x->q_at[q] = c->off + x->q_off + x->q_bytes * q;
}

const struct comp_def comp_dab = {
	.name = "dab", .desc = "atomic buffers, fusion, flush with pre-flush counts, per-partition flush reorder buffers; relaxed nr, nr-of, nr-cif",
	.params = params, .nparams = sizeof params / sizeof params[0],
	.provides = PORT(P_ATOMICS) | PORT(P_ORDER), .requires = PORT(P_MEM) | PORT(P_WARPS) | PORT(P_ISSUE) | PORT(P_GRID),
	.optional = PORT(P_GRID),
	.kinds = kinds, .nkinds = 2, .port_writes = SELF | PORT(P_WARPS),
	.counters = counters, .ncounters = CT_N,
	.layout = layout, .place = place, .enabled = enabled, .apply = apply, .quiescent = quiescent, .check = check,
	.describe = describe, .print = print, .notes = notes, .timing = timing, .count = count, .port = port,
	.reach = reach, .prepare = prepare, .issue_whole = issue_whole,
	/* a FLUSH clears the pending flags of the SM's warps and resumes its
	** waiting ones; a warp-local issue (READY, not waiting) reads neither
	** and touches only its own registers and stack, so the two commute.
	** The issue cannot disable the FLUSH: it leaves no warp refused, and
	** a buffer with no warp that can issue has no warp with a local issue
	** (w's own buffer is ready only when full, which w's step does not
	** change); the FLUSH disables no issue of a READY warp.  DRAINs touch
	** a warp through its owed count (an atom's warp, which waits) and the
	** resume of a waiting warp.  A volatile load is never warp-local (it
	** waits for a flush: warp.c, local_table) */
	.por = compose_por_independent,
};
