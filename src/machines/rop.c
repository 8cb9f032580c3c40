/*
** Atomic operations performed at the L2 slice (ROP) of the memory partition
** that owns the address, as on Fermi-to-Volta GPUs.  Each SM has one FIFO
** to each partition (the interconnect keeps an SM's requests in order); the
** partition takes the head of any SM's FIFO next, so arrival order *across*
** SMs is free.  This is the nondeterminism that makes fp32 reductions give
** different bits.
**
** A warp's atom/red becomes one entry per active lane (lanes in increasing
** order), each carrying its address and operands, so `red` is fire and
** forget: the warp goes on at once.  `atom` stalls the warp (ATOMIC) until
** the old values of all its lanes came back.  membar and bar.sync wait
** until the warp's own atomics were performed.  A warp may issue an atomic
** only when the FIFOs have room for all its lanes (the interconnect's
** back-pressure), so no issue is ever half done.
**
** A LAB (lab.c) sends combined partials into the same FIFOs (entries with
** warp AE_LAB, lane = the SM): no warp counts them, and when the last one
** of an SM is performed the SM's waiting warps re-check their fences.
** icnt_order=any is the relaxed interconnect: a partition may take any
** entry of a FIFO, not only its head (LAB's op-mismatch flushes then
** reach the L2 out of order, notes B.4 L7).
**
** Concrete timing: requests cross the interconnect model of icnt.c (one
** transaction per sector and send, icnt_bw per cycle per SM, icnt_eject
** per cycle into each partition), the same one DAB's flushes use, and a
** partition performs one transaction -- the lanes of one warp's atomic in
** one sector, consecutive in the FIFO -- per lat_rop, in one step (DAB
** §IV-F: "the baseline GPU coalesces atomics into a single transaction
** per cache sector"; GPGPU-Sim's L2 performs a sector request whole).
** Such a step is the lane steps one after another, so concrete runs stay
** among the explored ones; exploration performs one lane per step.
**
** Component "rop": ports atomics and order; requires mem (it performs
** through it) and warps (resume, registers).  Action ROP: partition p
** performs the head of FIFO q (unit: the partition, subject: the FIFO;
** arg: q + nqueues * (entry under icnt_order=any) + nqueues * cap *
** (entries of the run - 1), the run > 1 only in concrete mode).
**
** Slice: per SM x partition FIFO: count u16, pad u16, cap entries.
** Invariants:
**   ROP-1 warp_hdr.pending of a warp equals the number of its entries in
**         all FIFOs (AE_LAB entries belong to no warp);
**   ROP-2 a FIFO holds at most cap entries and its unused entries and pad
**         are zero;
**   ROP-3 (concrete mode) the kept mask of FIFOs with entries (struct rop,
**         nonempty) equals their counts, and a partition not due lists
**         nothing: it is busy, or no head arrives before its kept wake
**         (kept_sync, kept_wake, listing; GPUMC_CHECK_READY);
**   ROP-4 (concrete mode) a warp's bit in the stalled mask (struct rop) is
**         set exactly when its stall record holds a run (room;
**         GPUMC_CHECK_READY).
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machines/atomic_entry.h"
#include "machines/component.h"
#include "machines/icnt.h"
#include "machines/lanekeys.h"
#include "util/strbuf.h"

#define WARPS(c) ((const struct port_warps *)port_ops(c, P_WARPS))
#define WC(c) (REQ(c, P_WARPS)->c)

struct rop {
	unsigned cap;   /* entries per FIFO */
	size_t bytes;   /* bytes per FIFO   */
	/* gpu_partition_of as a shift and a mask when line_bytes and
	** partitions are powers of two (they are on every real GPU): room()
	** maps 32 addresses per stalled warp per cycle in concrete mode */
	unsigned line_shift, part_mask, pow2;
	/* Concrete mode: per warp, the run (0: none) in which room() last
	** said no, its pc then, and the entries its lanes need in each
	** partition.  A READY warp changes only by issuing, which needs
	** room() to say yes first (that forgets the need; lab.c asks room()
	** for every issue of an instruction that is not commutative), so a
	** warp stalled by back-pressure costs P compares a cycle, not 32
	** addresses. */
	struct stall {
		uint64_t run;
		unsigned pc, need[8];
	} *stall;
	/* and the warps whose run is not 0, a bit per place in sched_warps
	** (stalled_set), so that reach walks those of an SM, not all of its
	** warps (ROP-4) */
	uint64_t *stalled;
	struct icnt *ic; /* concrete mode: the interconnect's timing */
	/* Concrete mode: per partition, the SMs whose FIFO to it holds an
	** entry (words_sms u64 words each), so that enabled() walks those
	** and not every FIFO every cycle (10% of a baseline pagerank run).
	** Kept for the run's vector (kept_run, kept_sv: 0 and NULL outside a
	** run; an exploration's threads never write it) by push, send and
	** perform, rebuilt when a new run first lists (kept_sync); invariant
	** ROP-3, checked under GPUMC_CHECK_READY. */
	uint64_t kept_run;
	const uint8_t *kept_sv;
	unsigned words_sms;
	uint64_t *nonempty;
	/* and per partition (8 at most), whether it is due (bit p of due:
	** it may list at the clock), else the cycle it may again (wake: its
	** unit's free time, or the first arrival of a head of its FIFOs), the
	** first of those (next).  A head's arrival time (tn->ready) is set
	** only by this file's timing of a push, a send or a perform, each
	** applied next: kept_wake brings the partition's wake to the new
	** head's arrival (a push or send into an empty FIFO) or makes it
	** the unit's free time (a perform: it lists nothing while busy); one
	** appended to keeps its head and its head's arrival, so its
	** partition's wake stands (ROP-3). */
	uint64_t wake[8], next;
	unsigned due;
	/* partial-order reduction (alone): per global word, what every
	** instruction that may access it is (por_words); NULL: nothing
	** qualifies */
	uint8_t *por;
	/* concrete mode: per warp scheduler, the warps (bit: warp_idx) a
	** perform reported REACH_WAKES may have woken, until it asks (woken) */
	uint64_t *woke;
	/* stall, ic, nonempty, woke, stalled and por follow in the same block: the composer frees priv */
};
#define R(c) ((const struct rop *)(c)->priv)

static uint16_t *fifo(const struct comp *c, const uint8_t *sv, unsigned q)
{
	return (uint16_t *)(sv + c->off + R(c)->bytes * q);
}

static struct atomic_entry *entries(const struct comp *c, const uint8_t *sv, unsigned q)
{
	return (struct atomic_entry *)(sv + c->off + R(c)->bytes * q + 4);
}

/* FIFO q's count changed: its bit in the kept mask (struct rop), in the
** run's vector only. */
static void kept_mark(const struct comp *c, const uint8_t *sv, unsigned q)
{
	struct rop *r = c->priv;
	if (!r->kept_run || r->kept_sv != sv)
		return;
	unsigned P = c->g->cfg.partitions, s = q / P;
	uint64_t *w = &r->nonempty[(q % P) * r->words_sms + s / 64], bit = 1ull << s % 64;
	*w = fifo(c, sv, q)[0] ? *w | bit : *w & ~bit;
}

/* Timing of a step applied next (a perform of FIFO q: its partition's unit
** busy until at; a push or send into q empty: its new head arrives at at):
** the partition lists nothing new before at, so one not due wakes at at
** the latest, without a listing to learn it; a due one stays due (ROP-3). */
static void kept_wake(const struct comp *c, const uint8_t *sv, unsigned q, uint64_t at, int busy)
{
	struct rop *r = c->priv;
	if (!r->kept_run || r->kept_sv != sv)
		return;
	unsigned p = q % c->g->cfg.partitions;
	if (busy) /* nothing lists while the unit is busy */
		r->due &= ~(1u << p);
	else if (r->due >> p & 1 || r->wake[p] <= at)
		return;
	r->wake[p] = at;
	r->next = at < r->next ? at : r->next;
}

/* Concrete mode, as enabled() first lists: the kept mask is the run's,
** rebuilt from the counts at a new run; under tn->check compared with
** them, a difference a push, send or perform that did not mark (ROP-3):
** an internal error. */
static void kept_sync(const struct comp *c, const uint8_t *sv, const struct timed_now *tn)
{
	struct rop *r = c->priv;
	unsigned P = c->g->cfg.partitions, nw = r->words_sms;
	int fresh = r->kept_run != tn->run || r->kept_sv != sv;
	if (!fresh && !tn->check)
		return;
	for (unsigned p = 0; p < P; p++)
		for (unsigned k = 0; k < nw; k++) {
			uint64_t m = 0;
			for (unsigned s = 64 * k; s < c->g->cfg.sms && s < 64 * k + 64; s++)
				m |= (uint64_t)(fifo(c, sv, s * P + p)[0] != 0) << s % 64;
			if (!fresh && m != r->nonempty[p * nw + k]) {
				fprintf(stderr, "gpumc: internal error: ROP-3: partition %u: kept FIFOs with entries %#llx, counts %#llx at cycle %llu\n",
				        p, (unsigned long long)r->nonempty[p * nw + k], (unsigned long long)m, (unsigned long long)tn->clock);
				abort();
			}
			r->nonempty[p * nw + k] = m;
		}
	if (fresh) {
		r->due = (1u << P) - 1;
		r->next = UINT64_MAX;
	}
	r->kept_run = tn->run;
	r->kept_sv = sv;
}

/* The entries the lanes m of warp w need in each partition. */
static void needs(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m, unsigned *need)
{
	uint32_t addr[32];
	WARPS(c)->addresses(WC(c), sv, w, m, addr);
	const struct rop *r = R(c);
	memset(need, 0, sizeof *need * c->g->cfg.partitions);
	for (unsigned l = 0; m; l++, m >>= 1)
		if (m & 1)
			need[r->pow2 ? addr[l] >> r->line_shift & r->part_mask : gpu_partition_of(c->g, addr[l])]++;
}

/* Warp w's stall record holds a run (or not): its bit in the stalled mask. */
static void stalled_set(const struct comp *c, unsigned w, uint64_t run)
{
	const struct gpu *g = c->g;
	unsigned i = g->sched_first[gpu_sched_of(g, w)] + g->warp_idx[w];
	uint64_t *x = &R(c)->stalled[i / 64], bit = 1ull << i % 64;
	*x = run ? *x | bit : *x & ~bit;
}

/* Under GPUMC_CHECK_READY: the stalled mask against the records (ROP-4). */
static void stalled_check(const struct comp *c, const struct timed_now *tn)
{
	const struct gpu *g = c->g;
	for (unsigned i = 0; i < g->nwarps; i++)
		if ((R(c)->stalled[i / 64] >> i % 64 & 1) != (R(c)->stall[g->sched_warps[i]].run != 0)) {
			fprintf(stderr, "gpumc: internal error: ROP-4: warp %u: stalled bit %u, stall record of run %llu at cycle %llu\n",
			        g->sched_warps[i], (unsigned)(R(c)->stalled[i / 64] >> i % 64 & 1),
			        (unsigned long long)R(c)->stall[g->sched_warps[i]].run, (unsigned long long)tn->clock);
			abort();
		}
}

static int room(const struct comp *c, const uint8_t *sv, unsigned w, uint32_t m)
{
	const struct gpu *g = c->g;
	unsigned free_[8], sm = gpu_sm_of(g, w), P = g->cfg.partitions, cap = R(c)->cap, least = cap;
	unsigned pending = gpu_warp(g, (uint8_t *)sv, w)->pending;
	for (unsigned p = 0; p < P; p++) {
		free_[p] = cap - fifo(c, sv, sm * P + p)[0];
		least = free_[p] < least ? free_[p] : least;
	}
	/* the lanes counted only where a whole warp's might not fit (a call
	** to libgcc's popcount, without -mpopcnt) */
	unsigned tpw = g->cfg.threads_per_warp;
	unsigned lanes = pending + tpw > 255 || least < tpw ? (unsigned)__builtin_popcount(m) : 0;
	if (pending + lanes > 255)
		return 0;
	const struct timed_now *tn = compose_now(c);
	struct stall *st = tn ? &((struct rop *)c->priv)->stall[w] : NULL;
	/* fast path: every FIFO of the SM has room for all the lanes, so the
	** addresses need not be computed (this runs for every ready warp at
	** an atomic, every cycle, in concrete mode) */
	int ok = lanes <= least;
	if (!ok) {
		unsigned own[8], *need = st ? st->need : own;
		if (!st || st->run != tn->run || st->pc != gpu_pc(g, sv, w))
			needs(c, sv, w, m, need);
		ok = 1;
		for (unsigned p = 0; p < P; p++)
			ok &= need[p] <= free_[p];
	}
	if (st && (st->run || !ok)) { /* yes: the warp may issue and change (a record of no run is left as it is) */
		st->run = ok ? 0 : tn->run;
		st->pc = gpu_pc(g, sv, w);
		stalled_set(c, w, st->run);
	}
	if (st && tn->check)
		stalled_check(c, tn);
	return ok;
}

static int push(const struct comp *c, uint8_t *sv, unsigned w, uint32_t m)
{
	const struct gpu *g = c->g;
	const struct instr *in = &g->prog->ins[gpu_pc(g, sv, w)];
	struct atomic_entry e[32];
	int n = atomic_entries(c, sv, w, m, in, e);
	if (n < 0)
		return PUSH_DONE; /* the warp faulted */
	struct warp_hdr *h = gpu_warp(g, sv, w);
	/* partitions (8 at most) pushed to */
	unsigned sm = gpu_sm_of(g, w), P = g->cfg.partitions, marked = 0;
	for (int i = 0; i < n; i++) {
		unsigned p = gpu_partition_of(g, e[i].addr), q = sm * P + p;
		uint16_t *f = fifo(c, sv, q);
		entries(c, sv, q)[f[0]++] = e[i];
		h->pending++;
		marked |= 1u << p;
	}
	for (; marked; marked &= marked - 1) { /* once a FIFO, with its count final */
		unsigned p = (unsigned)__builtin_ctz(marked);
		kept_mark(c, sv, sm * P + p);
	}
	return in->op == OP_ATOM ? PUSH_WAIT_VALUES : PUSH_DONE;
}

static int owed(const struct comp *c, const uint8_t *sv, unsigned w)
{
	return gpu_warp(c->g, (uint8_t *)sv, w)->pending;
}

/* A fence (membar, sfence, bar.sync) waits while the warp has atomics in
** flight; pcommit does not wait for them. */
static int clear(const struct comp *c, const uint8_t *sv, unsigned w, enum opcode op)
{
	return op == OP_PCOMMIT || op == OP_LD || op == OP_ST || !owed(c, sv, w);
}

/* Requests cross the interconnect (icnt.c) at the SM's port rate, one
** transaction per 32-byte sector of the send, and reach their partition
** lat_icnt + jitter later: this is what orders arrivals across SMs in
** concrete mode.  A FIFO that was empty gets a new head, ready once that
** entry crossed; the entries behind it follow at their own arrivals. */
static void arrive(const struct comp *c, const uint8_t *sv, unsigned q, unsigned k, uint64_t at, struct timing *t)
{
	unsigned n = fifo(c, sv, q)[0];
	icnt_arrive(R(c)->ic, q, n + k, at);
	if (!n && !k) {
		icnt_ready(t, c->subj0[0] + q, at);
		kept_wake(c, sv, q, at, 0);
	}
}

/* A LAB's partials: one transaction each (a line's worth). */
static void timing_send(const struct comp *c, const uint8_t *sv, unsigned sm, const unsigned *need, struct timing *t,
                        uint64_t (*rnd)(void *), void *rng)
{
	const struct gpu_cfg *cf = &c->g->cfg;
	icnt_begin(R(c)->ic, t);
	for (unsigned p = 0; p < cf->partitions; p++)
		for (unsigned k = 0; k < need[p]; k++)
			arrive(c, sv, sm * cf->partitions + p, k, icnt_send(R(c)->ic, cf, sm, p, t->now, rnd, rng), t);
}

/* A warp's atom/red: its lanes coalesced into one transaction per sector
** (DAB IV-F: "the baseline GPU coalesces atomics into a single
** transaction per cache sector"; coalesce=off: one per lane), sent in the
** order of their first lanes; each lane's entry arrives with its
** sector's transaction. */
static void timing_push(const struct comp *c, const uint8_t *sv, unsigned w, struct timing *t,
                        uint64_t (*rnd)(void *), void *rng)
{
	const struct gpu *g = c->g;
	const struct gpu_cfg *cf = &g->cfg;
	uint32_t mask = WARPS(c)->exec_mask(WC(c), sv, w), addr[32];
	uint64_t at[32];
	unsigned k[8] = { 0 }, nt = 0, sm = gpu_sm_of(g, w);
	struct lane_keys sector; /* the transactions' sectors, in order */
	lane_keys_init(&sector);
	icnt_begin(R(c)->ic, t);
	WARPS(c)->addresses(WC(c), sv, w, mask, addr); /* once for the warp */
	for (uint32_t b = mask; b; b &= b - 1) { /* the lanes in order */
		uint32_t a = addr[__builtin_ctz(b)];
		int i = cf->coalesce ? lane_keys_find(&sector, a / ICNT_SECTOR) : -1; /* off: a transaction per lane */
		unsigned p = gpu_partition_of(g, a);
		if (i < 0) {
			if (cf->coalesce)
				lane_keys_add(&sector, a / ICNT_SECTOR);
			i = (int)nt;
			at[nt++] = icnt_send(R(c)->ic, cf, sm, p, t->now, rnd, rng);
		}
		arrive(c, sv, sm * cf->partitions + p, k[p]++, at[i], t);
	}
}

static int room_sent(const struct comp *c, const uint8_t *sv, unsigned sm, const unsigned *need)
{
	unsigned P = c->g->cfg.partitions;
	for (unsigned p = 0; p < P; p++)
		if (fifo(c, sv, sm * P + p)[0] + need[p] > R(c)->cap)
			return 0;
	return 1;
}

static void send(const struct comp *c, uint8_t *sv, unsigned sm, const struct atomic_entry *e)
{
	unsigned q = sm * c->g->cfg.partitions + gpu_partition_of(c->g, e->addr);
	uint16_t *f = fifo(c, sv, q);
	struct atomic_entry *x = &entries(c, sv, q)[f[0]++];
	*x = *e;
	x->warp = AE_LAB;
	x->lane = (uint8_t)sm;
	x->ret = 0;
	kept_mark(c, sv, q);
}

static unsigned in_flight(const struct comp *c, const uint8_t *sv, unsigned sm, struct atomic_entry *out,
                          unsigned max)
{
	unsigned P = c->g->cfg.partitions, n = 0;
	for (unsigned q = sm * P; q < (sm + 1) * P; q++) {
		const struct atomic_entry *e = entries(c, sv, q);
		for (unsigned i = 0; i < fifo(c, sv, q)[0]; i++)
			if (e[i].warp == AE_LAB) {
				if (out && n < max)
					out[n] = e[i];
				n++;
			}
	}
	return n;
}

/* Entries a and b came in one transaction if one warp's atomic put them
** in one sector (its lanes, consecutive in the FIFO, arrived together:
** icnt_run checks that); a LAB's partials travel one by one. */
static int same_tx(const struct comp *c, const void *a, const void *b)
{
	(void)c;
	const struct atomic_entry *x = a, *y = b;
	return x->warp != AE_LAB && x->warp == y->warp && x->addr / ICNT_SECTOR == y->addr / ICNT_SECTOR;
}

/* The FIFO, entry and run length of a ROP action (see the file top); an
** arg below nqueues, a head alone (most), without a division: each is
** asked some four times an action. */
static unsigned act_q(const struct comp *c, const struct action *a)
{
	unsigned nq = c->g->nqueues;
	return a->arg < nq ? a->arg : a->arg % nq;
}

static unsigned act_i(const struct comp *c, const struct action *a)
{
	unsigned nq = c->g->nqueues;
	return a->arg < nq ? 0 : a->arg % (nq * R(c)->cap) / nq;
}

static unsigned act_k(const struct comp *c, const struct action *a)
{
	unsigned nq = c->g->nqueues;
	return a->arg < nq ? 1 : a->arg / (nq * R(c)->cap) + 1;
}

/* {=== Partial-order reduction: performing a commutative red alone ===== */

/* Does op of type t commute with itself (old op a op b == old op b op a,
** bit for bit)?  Not f32 addition: its rounding is the nondeterminism
** the checker looks for. */
static int commutes(enum atom_op op, enum vtype t)
{
	return t != VT_F32 && (op == AT_ADD || op == AT_MIN || op == AT_MAX || op == AT_AND || op == AT_OR || op == AT_XOR);
}

/* Per global word of the kernel's variables, what every instruction that
** may access it is: POR_ATOMIC, an atom or red (no plain access races
** with one); POR_COMM too, a red of one op and type that commutes with
** itself (such entries give the word the same value in any order, and
** nothing reads it before the kernel ends).  Into out (G bytes); 0 when
** nothing qualifies (an access naming no variable could reach any word;
** host steps read and write memory between launches; the weaker memory
** models keep their own copies).  A st.u64 writes two words of the
** variable it names, each checked against that variable's bounds
** (memory.c, word): it reaches no other variable's word. */
enum { POR_ATOMIC = 1, POR_COMM = 2 };
static int por_words(const struct gpu *g, uint8_t *out)
{
	const struct program *p = g->prog;
	if (g->cfg.memory || g->cfg.icnt_order || p->nhost)
		return 0;
	int any = 0;
	for (int s = 0; s < p->nsyms; s++) {
		const struct symbol *sy = &p->syms[s];
		int atomic = sy->space == SP_GLOBAL, ok = atomic, aop = -1, type = -1;
		for (int i = 0; i < p->nins && atomic; i++) {
			const struct instr *in = &p->ins[i];
			if ((in->op != OP_LD && in->op != OP_ST && in->op != OP_ATOM && in->op != OP_RED) || in->space != SP_GLOBAL)
				continue;
			if (in->addr.sym < 0)
				return 0;
			if (in->addr.sym != s)
				continue;
			atomic = in->op == OP_ATOM || in->op == OP_RED;
			ok = ok && in->op == OP_RED && commutes(in->aop, in->type) &&
			     (aop < 0 || (aop == (int)in->aop && type == (int)in->type));
			aop = (int)in->aop;
			type = (int)in->type;
		}
		if (atomic && aop >= 0) {
			memset(out + sy->base / 4, ok ? POR_ATOMIC | POR_COMM : POR_ATOMIC, sy->nelems);
			any = 1;
		}
	}
	return any;
}

/* The head of a FIFO, a red of a POR_COMM word, taken alone
** (model.h, alone).  Before it, on any path: other FIFOs' entries, the
** same red on that word among them, commute with it; a warp's push to
** its FIFO appends behind it (room it frees enables, never disables);
** no warp reads the word.  It resumes no warp (not the last entry a
** waiting warp is owed: that warp would change what a race reads), and
** an invariant's word is visible.  Terminal states see the word, and
** they are what such a step keeps. */
static int alone(const struct comp *c, const uint8_t *sv, const struct action *a, const int *inv, unsigned ninv)
{
	const struct gpu *g = c->g;
	if (!R(c)->por || !sv)
		return R(c)->por != NULL;
	const struct atomic_entry *e = &entries(c, sv, act_q(c, a))[act_i(c, a)];
	uint32_t word = e->addr / 4;
	if (e->ret || e->warp == AE_LAB || word >= g->prog->global_words || !(R(c)->por[word] & POR_COMM))
		return 0;
	if (gpu_warp(g, (uint8_t *)sv, e->warp)->pending == 1 && WARPS(c)->waiting(WC(c), sv, e->warp))
		return 0;
	for (unsigned i = 0; i < ninv; i++)
		if ((uint32_t)inv[i] == word)
			return 0;
	return 1;
}

/* Warp w's issue of its global atom or red, alone (port_atomics.sole):
** every other warp of its SM is done, so no push but w's reaches its
** SM's FIFOs before it, and the ROP taking their heads commutes with it
** (an entry appended behind them; none is an atom of w's, READY);
** nothing else reads what it writes (w's pc, status and pending, the
** FIFOs).  Its variable takes atomics only: w at it is in no race.  Not
** a releasing one: its fence waits for w's entries the ROP performs. */
static int sole(const struct comp *c, const uint8_t *sv, unsigned w)
{
	const struct gpu *g = c->g;
	if (!R(c)->por || !sv)
		return R(c)->por != NULL;
	const struct instr *in = &g->prog->ins[gpu_pc(g, sv, w)];
	if ((in->op != OP_ATOM && in->op != OP_RED) || in->space != SP_GLOBAL || in->addr.sym < 0 ||
	    instr_releasing(in) || !(R(c)->por[g->prog->syms[in->addr.sym].base / 4] & POR_ATOMIC))
		return 0;
	for (unsigned v = 0; v < g->nwarps; v++)
		if (v != w && gpu_sm_of(g, v) == gpu_sm_of(g, w) && gpu_warp(g, (uint8_t *)sv, v)->status != W_DONE)
			return 0;
	return 1;
}

/* }=== */

static uint64_t woken(const struct comp *c, unsigned k)
{
	uint64_t *woke = &R(c)->woke[k], m = *woke;
	*woke = 0;
	return m;
}

static const struct port_atomics atomics_ops = { room, push, owed, timing_push, room_sent, send, in_flight, timing_send,
	                                               NULL, sole, woken };
static const struct port_order order_ops = { clear };

static const struct kind_def kinds[] = { { "rop", SELF | PORT(P_MEM) | PORT(P_WARPS), 0 } };

#define GP(field) offsetof(struct gpu_cfg, field)
static const struct param_def params[] = {
	{ "icnt_queue", 0, 0, 4096, NULL, GP(icnt_queue), "atomic entries each SM-to-partition FIFO holds (0: twice the lanes)" },
	{ "icnt_order", 0, 0, 1, "fifo|any", GP(icnt_order), "fifo: an SM's requests reach a partition in order; any: in any order (relaxed interconnect)" },
	ICNT_BW_PARAM,
	ICNT_EJECT_PARAM,
	{ "coalesce", 1, 0, 1, "off|on", GP(coalesce), "one interconnect transaction and one ROP operation per 32-byte sector of a warp's atomic, as the paper's baseline (concrete-mode timing)" },
};

static long layout(struct comp *c, struct gpu *g, size_t *align, struct diag *d)
{
	const struct gpu_cfg *cf = &g->cfg;
	if (cf->icnt_queue && cf->icnt_queue < cf->threads_per_warp) {
		/* an atomic of a whole warp must fit, or it could never issue: a
		** deadlock the spec did not ask for */
		diag_at(d, g->path, 0, 0, "icnt_queue (%u) must hold one warp's atomic: at least threads_per_warp (%u)",
		        cf->icnt_queue, cf->threads_per_warp);
		return -1;
	}
	unsigned cap = cf->icnt_queue ? cf->icnt_queue : 2 * cf->threads_per_warp;
	size_t stall = (sizeof(struct rop) + 7) & ~(size_t)7, ic = stall + ((sizeof(struct stall) * g->nwarps + 7) & ~(size_t)7);
	unsigned words_sms = (cf->sms + 63) / 64;
	size_t nonempty = ic + ((icnt_size(g, g->nqueues, cap) + 7) & ~(size_t)7);
	size_t woke = nonempty + sizeof(uint64_t) * cf->partitions * words_sms;
	size_t stalled = woke + sizeof(uint64_t) * cf->sms * cf->schedulers;
	size_t por = stalled + sizeof(uint64_t) * ((g->nwarps + 63) / 64);
	struct rop *r = xcalloc(1, por + g->prog->global_words);
	r->woke = (uint64_t *)((char *)r + woke);
	r->stalled = (uint64_t *)((char *)r + stalled);
	r->stall = (struct stall *)((char *)r + stall);
	r->ic = icnt_init((char *)r + ic, g, g->nqueues, cap);
	r->nonempty = (uint64_t *)((char *)r + nonempty);
	r->words_sms = words_sms;
	if (por_words(g, (uint8_t *)r + por))
		r->por = (uint8_t *)r + por;
	r->cap = cap;
	r->bytes = 4 + sizeof(struct atomic_entry) * (size_t)r->cap;
	r->pow2 = !(cf->line_bytes & (cf->line_bytes - 1)) && !(cf->partitions & (cf->partitions - 1));
	r->line_shift = (unsigned)__builtin_ctz(cf->line_bytes);
	r->part_mask = cf->partitions - 1;
	c->priv = r;
	*align = 4;
	c->max_actions = g->nqueues * (cf->icnt_order ? r->cap : 1);
	c->units[0] = (struct pool_req){ "partition", cf->partitions };
	c->subjects[0] = (struct pool_req){ "queue", g->nqueues };
	return (long)(r->bytes * g->nqueues);
}

/* Concrete mode: partition unit u performs the head of FIFO q, its whole
** transaction. */
static void list_head(const struct comp *c, const uint8_t *sv, unsigned q, unsigned u, struct action *out)
{
	const struct rop *r = c->priv;
	unsigned run = icnt_run(r->ic, c, q, fifo(c, sv, q)[0], entries(c, sv, q), sizeof(struct atomic_entry), same_tx);
	*out = (struct action){ (uint16_t)c->kind0, (uint16_t)u, c->subj0[0] + q, q + c->g->nqueues * r->cap * (run - 1) };
}

/* Concrete mode's listing (enabled): the due partitions' heads that have
** arrived while their unit is free. */
static __attribute__((noinline)) unsigned listing(const struct comp *c, const uint8_t *sv, const struct timed_now *tn,
                                                   struct action *out)
{
	unsigned n = 0, P = c->g->cfg.partitions;
	const uint64_t *ready = tn->ready + c->subj0[0], now = tn->now;
	struct rop *r = c->priv;
	kept_sync(c, sv, tn);
	if (now >= r->next) { /* the partitions whose wake came are due */
		r->next = UINT64_MAX;
		for (unsigned p = 0; p < P; p++)
			if (!(r->due >> p & 1)) {
				if (r->wake[p] <= now)
					r->due |= 1u << p;
				else if (r->wake[p] < r->next)
					r->next = r->wake[p];
			}
	}
	/* the due partitions alone; under tn->check every one, and one
	** not due that lists an issue is fatal (ROP-3) */
	for (unsigned d = tn->check ? (1u << P) - 1 : r->due & ((1u << P) - 1); d; d &= d - 1) {
		unsigned p = (unsigned)__builtin_ctz(d), u = c->unit0[0] + p, n0 = n, due = r->due >> p & 1;
		uint64_t soon = tn->unit_free[u];
		/* under GTO's pick (compose.c, m_pick: the FIFO served last
		** while its head has arrived, else the lowest) only the one
		** it takes, as the schedulers list (readyset.c): the driver
		** lists the next cycle anyway, after a perform (not
		** warp-local) */
		unsigned l = tn->last[u] - c->subj0[0], sm = l / P, pick = 0;
		if (soon <= now && !c->g->cfg.sched_policy && tn->last[u] != UINT32_MAX &&
		    r->nonempty[p * r->words_sms + sm / 64] >> sm % 64 & 1 && ready[l] <= now) {
			list_head(c, sv, l, u, out + n++);
			soon = UINT64_MAX;
		}
		if (soon <= now) {
			soon = UINT64_MAX;
			for (unsigned k = 0; k < r->words_sms && !pick; k++) /* the FIFOs with entries, in SM order */
				for (uint64_t m = r->nonempty[p * r->words_sms + k]; m; m &= m - 1) {
					unsigned q = (64 * k + (unsigned)__builtin_ctzll(m)) * P + p;
					soon = ready[q] < soon ? ready[q] : soon;
					if (ready[q] > now)
						continue;
					list_head(c, sv, q, u, out + n++);
					if ((pick = !c->g->cfg.sched_policy))
						break;
				}
		}
		if (!due && n > n0) {
			fprintf(stderr, "gpumc: internal error: ROP-3: partition %u: not due before cycle %llu, "
			        "a head arrived by %llu\n", p, (unsigned long long)r->wake[p], (unsigned long long)now);
			abort();
		}
		if (due && n == n0) { /* nothing before then, unless a FIFO of it moves */
			r->due &= ~(1u << p);
			r->wake[p] = soon;
			r->next = soon < r->next ? soon : r->next;
		}
	}
	return n;
}

/* Every action (exploration, and concrete mode's whole list). */
static __attribute__((noinline)) unsigned listing_all(const struct comp *c, const uint8_t *sv, struct action *out,
                                                       int timed)
{
	unsigned n = 0, P = c->g->cfg.partitions, cap = R(c)->cap, nq = c->g->nqueues;
	/* a partition's ROP is one unit: it serves one FIFO per cycle (its
	** head; under icnt_order=any, any entry: arg = q + nqueues * i); in
	** concrete mode the head's whole transaction */
	for (unsigned q = 0; q < nq; q++) {
		unsigned k = c->g->cfg.icnt_order ? fifo(c, sv, q)[0] : fifo(c, sv, q)[0] > 0;
		unsigned run = timed && k && !c->g->cfg.icnt_order ?
		                       icnt_run(R(c)->ic, c, q, fifo(c, sv, q)[0], entries(c, sv, q), sizeof(struct atomic_entry), same_tx) :
		                       1;
		for (unsigned i = 0; i < k && i < cap; i++)
			out[n++] = (struct action){ (uint16_t)c->kind0, (uint16_t)(c->unit0[0] + q % P), c->subj0[0] + q,
				                    q + nq * i + nq * cap * (run - 1) };
	}
	return n;
}


static unsigned enabled(const struct comp *c, const uint8_t *sv, const struct action *before, unsigned nb,
                        struct action *out, int timed)
{
	(void)before;
	(void)nb;
	/* listing what can issue now (model.h, enabled_now), partition by
	** partition (each unit's FIFOs in order): a busy partition, an empty
	** FIFO, one whose head has not arrived, is passed over before its
	** transaction is measured -- most are, most cycles; most cycles no
	** partition is due: a few compares, no call */
	const struct timed_now *tn = compose_now(c);
	if (tn && tn->now != UINT64_MAX && !c->g->cfg.icnt_order) {
		const struct rop *r = R(c);
		if (!r->due && tn->now < r->next && r->kept_run == tn->run && r->kept_sv == sv && !tn->check)
			return 0;
		return listing(c, sv, tn, out);
	}
	return listing_all(c, sv, out, timed);
}

/* Entries i..i+k-1 of FIFO q are performed, in order, and leave it
** together: one move of those behind them, not k.  A run of k > 1 is one
** warp's lanes in one sector (same_tx: never a LAB's partials), so the
** warp's count reaches 0, and resumes it, at the last of them alone;
** performing reads no FIFO. */
static void perform(const struct comp *c, uint8_t *sv, unsigned q, unsigned i, unsigned k)
{
	const struct gpu *g = c->g;
	uint16_t *f = fifo(c, sv, q);
	struct atomic_entry *e = entries(c, sv, q), head = e[i];
	unsigned n = f[0] - k; /* left */
	for (unsigned j = 0; j < k; j++)
		atomic_entry_perform(c, sv, &e[i + j]);
	memmove(e + i, e + i + k, sizeof *e * (size_t)(n - i));
	if (k == 1) /* most: a size known, no call */
		memset(&e[n], 0, sizeof *e);
	else
		memset(&e[n], 0, sizeof *e * k);
	f[0] = (uint16_t)n;
	kept_mark(c, sv, q);
	unsigned w = head.warp;
	if (w == AE_LAB) {
		/* the SM's last partial in flight: its fences may pass (scan the
		** FIFOs only when a warp of the SM waits) */
		unsigned sm = head.lane, last = UINT32_MAX;
		for (unsigned v = 0; v < g->nwarps; v++)
			if (gpu_sm_of(g, v) == sm && WARPS(c)->waiting(WC(c), sv, v) &&
			    (last != UINT32_MAX ? last : (last = !in_flight(c, sv, sm, NULL, 0))))
				WARPS(c)->resume(WC(c), sv, v);
		return;
	}
	if (!(gpu_warp(g, sv, w)->pending -= (uint8_t)k) && WARPS(c)->waiting(WC(c), sv, w))
		WARPS(c)->resume(WC(c), sv, w); /* an atom's values, or a fence */
}

/* The i-th warp of scheduler k may wake (only the first 64 of a
** scheduler: ready sets hold no more). */
static void wake(uint64_t *woke, unsigned k, unsigned i)
{
	if (i < 64)
		woke[k] |= 1ull << i;
}

/* Concrete mode's ready sets (readyset.c): performing entries of FIFO q
** frees room in its SM's FIFOs and resumes or times only warps of that SM
** (a LAB partial's: the SM it came from, q's too).  Over plain memory it
** reaches none of them when no entry is a LAB partial or a waiting warp's
** (it may resume, and is timed) or one within a warp of the 255 a warp
** may owe (room()'s own limit), and no warp of the SM may lack room: q
** had room for a whole warp's lanes already, or none of them was last
** refused by room() (stall, kept until room() says yes).  Persistency's
** gates read the L2 a perform dirties: always the SM.  Where a slot is
** held until its warps' atomics are performed (gpu.slot_holds_atomics),
** an entry of a done warp may free it (a gated CTA of the SM starts): the
** SM too, as where a warp waits at bar.sync (resumed, it arrives and may
** release the others of its CTA).  Else it only wakes those warps it may resume or give room
** (REACH_WAKES), named to the schedulers (woke: the SM's sets are polled
** for them alone, readyset.c). */
static int reach(const struct comp *c, const uint8_t *sv, const struct action *a)
{
	const struct gpu *g = c->g;
	unsigned q = act_q(c, a), sm = q / g->cfg.partitions, tpw = g->cfg.threads_per_warp, wakes = 0;
	if (REQ(c, P_MEM)->c->def != &comp_mem)
		return (int)sm;
	const struct atomic_entry *e = entries(c, sv, q);
	uint64_t *woke = R(c)->woke;
	for (unsigned i = act_i(c, a), end = i + act_k(c, a); i < end; i++) {
		unsigned w = e[i].warp;
		if (w == AE_LAB || (g->slot_holds_atomics && gpu_warp(g, (uint8_t *)sv, w)->status == W_DONE))
			return (int)sm;
		/* only the entries that bring its count to 0 resume it (perform) */
		int waits = gpu_warp(g, (uint8_t *)sv, w)->pending == end - i && WARPS(c)->waiting(WC(c), sv, w);
		/* resumed at bar.sync, it arrives and may release its CTA's warps */
		if (waits && g->prog->ins[gpu_pc(g, sv, w)].op == OP_BAR)
			return (int)sm;
		if (waits || gpu_warp(g, (uint8_t *)sv, w)->pending + tpw > 255) {
			wake(woke, gpu_sched_of(g, w), g->warp_idx[w]);
			wakes = REACH_WAKES;
		}
	}
	/* a warp refused in this run finds room when q's partition is what
	** it lacked and has it now (the others do not change); one refused
	** in an earlier run may */
	unsigned p = q % g->cfg.partitions, before = R(c)->cap - fifo(c, sv, q)[0], after = before + act_k(c, a);
	if (before < tpw) { /* the SM's warps (its schedulers' places) with a run, by the stalled mask */
		unsigned lo = g->sched_first[sm * g->cfg.schedulers], hi = g->sched_first[(sm + 1) * g->cfg.schedulers];
		for (unsigned x = lo / 64; 64 * x < hi; x++) {
			uint64_t b = R(c)->stalled[x] & ~0ull << (lo > 64 * x ? lo % 64 : 0);
			if (hi < 64 * x + 64)
				b &= (1ull << hi % 64) - 1;
			for (; b; b &= b - 1) {
				unsigned w = g->sched_warps[64 * x + (unsigned)__builtin_ctzll(b)];
				const struct stall *st = &R(c)->stall[w];
				if (st->run != R(c)->kept_run || (st->need[p] > before && st->need[p] <= after)) {
					wake(woke, gpu_sched_of(g, w), g->warp_idx[w]);
					wakes = REACH_WAKES;
				}
			}
		}
	}
	return wakes ? (int)(sm | wakes) : REACH_NONE;
}

static void apply(const struct comp *c, uint8_t *sv, const struct action *a)
{
	perform(c, sv, act_q(c, a), act_i(c, a), act_k(c, a));
}

static int quiescent(const struct comp *c, const uint8_t *sv)
{
	for (unsigned q = 0; q < c->g->nqueues; q++)
		if (fifo(c, sv, q)[0])
			return 0;
	return 1;
}

static int check(const struct comp *c, const uint8_t *sv, struct strbuf *why)
{
	const struct gpu *g = c->g;
	unsigned nw = g->nwarps, *per = xcalloc(nw + 1, sizeof *per), bad = 0;
	for (unsigned q = 0; q < g->nqueues; q++) {
		const uint16_t *f = fifo(c, sv, q);
		const struct atomic_entry *e = entries(c, sv, q);
		static const struct atomic_entry zero;
		if (f[0] > R(c)->cap || f[1]) {
			sb_printf(why, "ROP-2: FIFO %u holds %u entries (capacity %u), pad %u", q, f[0], R(c)->cap, f[1]);
			bad = 1;
		}
		for (unsigned i = 0; i < f[0] && !bad; i++)
			per[e[i].warp < nw ? e[i].warp : nw]++;
		for (unsigned i = f[0]; i < R(c)->cap && !bad; i++)
			if (memcmp(&e[i], &zero, sizeof zero)) {
				sb_printf(why, "ROP-2: FIFO %u: unused entry %u is not zero", q, i);
				bad = 1;
			}
	}
	for (unsigned w = 0; w < nw && !bad; w++)
		if (gpu_warp(g, (uint8_t *)sv, w)->pending != per[w]) {
			sb_printf(why, "ROP-1: warp %u counts %u atomics in flight, the FIFOs hold %u", w,
			          gpu_warp(g, (uint8_t *)sv, w)->pending, per[w]);
			bad = 1;
		}
	free(per);
	return bad;
}

static void describe(const struct comp *c, const uint8_t *sv, const struct action *a, struct strbuf *out)
{
	unsigned q = act_q(c, a), P = c->g->cfg.partitions;
	sb_printf(out, "partition %u ROP performs from sm %u: ", q % P, q / P);
	if (act_k(c, a) > 1)
		sb_printf(out, "%u lanes of one sector, the first ", act_k(c, a));
	atomic_entry_describe(c, &entries(c, sv, q)[act_i(c, a)], out);
}

static void timing(const struct comp *c, const uint8_t *sv, const struct action *a, struct timing *t,
                   uint64_t (*rnd)(void *), void *rng)
{
	(void)rnd;
	(void)rng;
	const struct gpu_cfg *cf = &c->g->cfg;
	const struct gpu *g = c->g;
	unsigned q = act_q(c, a), k = act_k(c, a), w = entries(c, sv, q)[act_i(c, a)].warp;
	t->busy = cf->lat_rop;
	kept_wake(c, sv, q, t->now + t->busy, 1);
	icnt_begin(R(c)->ic, t);
	uint64_t next = icnt_take(R(c)->ic, q, act_i(c, a), k, fifo(c, sv, q)[0], t->now, t->busy);
	if (next)
		icnt_ready(t, c->subj0[0] + q, next);
	/* a warp waiting for these, its last atomics (a run is one warp's),
	** hears back over the interconnect */
	if (w != AE_LAB && gpu_warp(g, (uint8_t *)sv, w)->pending == k && WARPS(c)->waiting(WC(c), sv, w)) {
		t->upd[t->n].subject = REQ(c, P_WARPS)->c->subj0[0] + w;
		t->upd[t->n++].delay = t->busy + cf->lat_icnt;
	}
}

static const char *const counters[] = { "atomic lane-ops at ROP" };

static void count(const struct comp *c, const uint8_t *sv, const struct action *a, uint64_t *ct)
{
	(void)sv;
	comp_count(c, ct, 0, act_k(c, a));
}

static const void *port(const struct comp *c, enum port p)
{
	(void)c;
	return p == P_ATOMICS ? (const void *)&atomics_ops : p == P_ORDER ? (const void *)&order_ops : NULL;
}

const struct comp_def comp_rop = {
	.name = "rop", .desc = "atomics at the L2/ROP of each partition, per-SM FIFOs, free arrival order across SMs",
	.params = params, .nparams = sizeof params / sizeof params[0],
	.provides = PORT(P_ATOMICS) | PORT(P_ORDER), .requires = PORT(P_MEM) | PORT(P_WARPS),
	.kinds = kinds, .nkinds = 1, .port_writes = SELF | PORT(P_WARPS),
	.counters = counters, .ncounters = 1,
	.layout = layout, .enabled = enabled, .apply = apply, .quiescent = quiescent, .check = check,
	.describe = describe, .timing = timing, .count = count, .port = port, .reach = reach,
	/* a FIFO entry carries its operands; a warp's slice is touched only
	** through its pending count and the resume of a waiting warp (an
	** atom's values go to a warp that waits for them); LAB partials
	** (AE_LAB) resume only waiting warps, and icnt_order=any only lets a
	** partition take another entry: the same kinds of step.  Entries write
	** words of atom/red targets, never a read-only variable; an exit
	** neither (a performed entry resumes only a warp in ATOMIC and counts
	** down `pending`, which exit leaves alone) */
	.por = compose_por_independent_of_exit, .alone = alone, .por_atomics = 1,
};
