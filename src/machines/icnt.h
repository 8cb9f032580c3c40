/*
** Concrete-mode timing of the SM-to-partition interconnect, one model for
** every path an atomic takes to a ROP: a warp's atom/red on the baseline
** (rop.c, lab.c's partials through it) and a DAB flush (dab.c).  Both
** machines then pay the same per-SM bandwidth, the same sector
** coalescing and the same latency; only what they send differs.
**
** Each SM has one injection port that takes icnt_bw transactions a cycle
** (DAB §V, Table I: one 40-byte flit, a 32-byte sector with its header,
** per interconnect cycle at the core clock).  A transaction is the lanes
** or entries of one send (a warp instruction, a DAB buffer) that fall in
** one 32-byte sector (§IV-F: "the baseline GPU coalesces atomics into a
** single transaction per cache sector"); it reaches its partition
** lat_icnt + [0, icnt_jitter] cycles after it left.  Every FIFO entry
** keeps the cycle its transaction arrives, in a ring beside the FIFO (the
** state vector holds no time), and a FIFO's head is ready no earlier than
** that: entries stream in at the port's rate instead of all at once.
** Arrivals are kept monotone per FIFO (an SM's requests to a partition
** stay in order).
**
** Each partition has one ejection port that takes icnt_eject transactions
** a cycle from all SMs together (GPGPU-Sim, which the paper extends, pops
** one packet per memory sub-partition a cycle from the interconnect): a
** transaction that reaches a partition whose port is taken that cycle
** waits for the next free cycle, and holds its SM's port meanwhile (an
** SM's requests leave in order, so the ones behind it wait too: head of
** line).  This is the congestion offset flushing relieves (DAB §VI-B2:
** "if every buffer flushes to the same set of memory addresses in the
** same order (hence, the same memory partitions), the interconnect
** becomes congested, which would lead to longer buffer flushes and more
** issue stalls").  The port's cycles are a calendar of ICNT_WINDOW cycles
** per partition, taken in the order the sends are timed.
**
** At the ROP a coalesced transaction is one operation (DAB §IV-F: atomics
** coalesce "into a single transaction per cache sector"; GPGPU-Sim's L2
** performs a sector request's lanes together): icnt_run tells how many
** FIFO entries from the head arrived with one transaction, so a partition
** performs them in one step of lat_rop cycles.
*/
#ifndef GPUMC_ICNT_H
#define GPUMC_ICNT_H

#include "machines/component.h"

#define ICNT_SECTOR 32u /* bytes a transaction covers */
#define ICNT_WINDOW 16384u /* cycles of a partition's ejection calendar */
/* The port's rate: a parameter of each component that sends through it. */
#define ICNT_BW_PARAM                                                                                          \
	{ "icnt_bw", 1, 1, 64, NULL, offsetof(struct gpu_cfg, icnt_bw),                                            \
	  "transactions (32-byte sectors) each SM sends into the interconnect per cycle (concrete-mode timing)" }

#define ICNT_EJECT_PARAM                                                                                       \
	{ "icnt_eject", 1, 0, 64, NULL, offsetof(struct gpu_cfg, icnt_eject),                                      \
	  "transactions each partition's ejection port takes per cycle from all SMs; 0: no limit (concrete-mode timing)" }

struct icnt {
	unsigned nq, cap, sms, bw, parts, eject;
	uint64_t run;    /* the concrete run the cycles below belong to */
	uint64_t *port;  /* per SM: injection slots used, in 1/bw cycles */
	uint64_t *arr;   /* per FIFO: cap arrival cycles, a ring         */
	uint32_t *head;  /* per FIFO: ring index of the head entry        */
	uint64_t *cal;   /* per partition, ICNT_WINDOW slots: the cycle a
	                 ** slot was last taken for ...                   */
	uint8_t *taken;  /* ... and by how many transactions              */
};

/* Bytes icnt_init needs for nq FIFOs of cap entries each. */
size_t icnt_size(const struct gpu *g, unsigned nq, unsigned cap);
/* Lay the model out in mem (icnt_size bytes, zeroed, 8-aligned). */
struct icnt *icnt_init(void *mem, const struct gpu *g, unsigned nq, unsigned cap);
/* A new run starts with idle ports (icnt_begin). */
void icnt_restart(struct icnt *ic, const struct timing *t);
/* Called first by each timing hook.  Inline, as are the FIFO helpers
** below: each drain of a FIFO asks them. */
static inline void icnt_begin(struct icnt *ic, const struct timing *t)
{
	if (ic->run != t->run)
		icnt_restart(ic, t);
}
/* The first cycle from `at` on that partition p's ejection port has room,
** taken.  A slot of the calendar is free for cycle x when it was last
** taken for another cycle: the calendar covers ICNT_WINDOW cycles ahead,
** more than a flush of every buffer spans (a farther one is not delayed). */
static inline uint64_t icnt_eject(struct icnt *ic, unsigned p, uint64_t at)
{
	if (!ic->eject)
		return at;
	for (uint64_t x = at; x < at + ICNT_WINDOW; x++) {
		size_t k = (size_t)p * ICNT_WINDOW + x % ICNT_WINDOW;
		if (ic->cal[k] != x || !ic->taken[k]) {
			ic->cal[k] = x;
			ic->taken[k] = 1;
			return x;
		}
		if (ic->taken[k] < ic->eject) {
			ic->taken[k]++;
			return x;
		}
	}
	return at;
}

/* One transaction from SM sm to partition p leaving no earlier than cycle
** from: the cycle the partition's ejection port takes it.  Inline: a
** flush sends one per sector of every buffer. */
static inline uint64_t icnt_send(struct icnt *ic, const struct gpu_cfg *cf, unsigned sm, unsigned p, uint64_t from,
                                 uint64_t (*rnd)(void *), void *rng)
{
	uint64_t *port = &ic->port[sm];
	if (*port < from * ic->bw)
		*port = from * ic->bw; /* the port was idle: no credit for it */
	/* bw 1 (the default) without a 64-bit division, tens of cycles */
	uint64_t left = ic->bw == 1 ? (*port)++ : (*port)++ / ic->bw, travel = cf->lat_icnt + (cf->icnt_jitter ? rnd(rng) % (cf->icnt_jitter + 1) : 0);
	uint64_t at = icnt_eject(ic, p, left + travel);
	/* a transaction the partition cannot take yet holds the SM's port
	** (head of line): the ones behind it leave after it */
	if (at > left + travel && *port < (at - travel) * ic->bw + 1)
		*port = (at - travel) * ic->bw + 1;
	return at;
}

/* The first cycle SM sm's port has a free slot. */
uint64_t icnt_free_at(const struct icnt *ic, unsigned sm);
/* Where FIFO q's entry pos (< cap) keeps its arrival cycle. */
static inline uint64_t *icnt_slot(const struct icnt *ic, unsigned q, unsigned pos)
{
	unsigned i = ic->head[q] + pos; /* below 2 cap: no division */
	return &ic->arr[(size_t)q * ic->cap + (i < ic->cap ? i : i - ic->cap)];
}
/* Arrivals into FIFO q from its entry pos on, one after another (a
** flush's, dab.c): the slot of the next, and the arrival before it (0
** at pos 0), kept monotone (ICNT-2). */
struct icnt_tail {
	uint64_t *x, *ring, *end, last;
};
static inline struct icnt_tail icnt_tail(const struct icnt *ic, unsigned q, unsigned pos)
{
	uint64_t *x = icnt_slot(ic, q, pos), *ring = ic->arr + (size_t)q * ic->cap;
	return (struct icnt_tail){ x, ring, ring + ic->cap, !pos ? 0 : x > ring ? x[-1] : ring[ic->cap - 1] };
}
/* The tail's next entry arrives at cycle at. */
static inline void icnt_tail_arrive(struct icnt_tail *tl, uint64_t at)
{
	*tl->x = tl->last = at > tl->last ? at : tl->last;
	tl->x = tl->x + 1 < tl->end ? tl->x + 1 : tl->ring;
}
/* The FIFO entry q[pos] arrives at cycle at. */
static inline void icnt_arrive(struct icnt *ic, unsigned q, unsigned pos, uint64_t at)
{
	struct icnt_tail tl = icnt_tail(ic, q, pos);
	icnt_tail_arrive(&tl, at);
}
/* How many of FIFO q's n entries, from its head e on (the next one stride
** bytes after the one before: a FIFO that runs down has it negative),
** arrived in the head's transaction: consecutive, with the head's arrival
** cycle, and same_tx(c, head, entry) (the provider's sender and sector);
** 1 with coalesce off.  Always inline: asked at each listing of a FIFO's
** head and after most DAB drains, and same_tx then costs no call. */
static inline __attribute__((always_inline)) unsigned icnt_run(const struct icnt *ic, const struct comp *c, unsigned q,
                                                               unsigned n, const void *e, ptrdiff_t stride,
                                                               int (*same_tx)(const struct comp *c, const void *a,
                                                                              const void *b))
{
	if (!c->g->cfg.coalesce)
		return 1;
	/* same_tx first: most heads are a transaction alone, which it tells
	** without the ring */
	unsigned k = 1;
	if (n < 2 || !same_tx(c, e, (const char *)e + stride))
		return k;
	const uint64_t *arr = ic->arr + (size_t)q * ic->cap;
	unsigned i = ic->head[q];
	uint64_t at = arr[i];
	for (i = i + 1 < ic->cap ? i + 1 : 0; k < n && same_tx(c, e, (const char *)e + stride * (ptrdiff_t)k) && arr[i] == at;
	     i = i + 1 < ic->cap ? i + 1 : 0)
		k++;
	return k;
}
/* Entries i..i+k-1 of FIFO q (n entries) leave for the ROP at cycle now,
** busy cycles long: when FIFO q can give its next entry (0: empty). */
static inline uint64_t icnt_take(struct icnt *ic, unsigned q, unsigned i, unsigned k, unsigned n, uint64_t now,
                                 unsigned busy)
{
	/* entries i..i+k-1 leave (i > 0 only on the relaxed icnt_order=any,
	** with k = 1): the ones behind them close up, as the FIFO's do */
	if (i == 0)
		ic->head[q] = (uint32_t)(ic->head[q] + k < ic->cap ? ic->head[q] + k : ic->head[q] + k - ic->cap);
	for (unsigned j = i; i && j + 1 < n; j++)
		*icnt_slot(ic, q, j) = *icnt_slot(ic, q, j + 1);
	if (n <= k)
		return 0;
	uint64_t at = *icnt_slot(ic, q, 0);
	return at > now + busy ? at : now + busy;
}
/* Sets t's ready time of FIFO subject subj, q[0] arriving at cycle at. */
static inline void icnt_ready(struct timing *t, uint32_t subj, uint64_t at)
{
	if (t->n >= TIMING_MAX_UPDATES)
		return;
	t->upd[t->n].subject = subj;
	t->upd[t->n++].delay = at > t->now ? (uint32_t)(at - t->now) : 0;
}

#endif
