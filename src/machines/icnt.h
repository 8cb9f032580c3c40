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
*/
#ifndef GPUMC_ICNT_H
#define GPUMC_ICNT_H

#include "machines/component.h"

#define ICNT_SECTOR 32u /* bytes a transaction covers */
/* The port's rate: a parameter of each component that sends through it. */
#define ICNT_BW_PARAM                                                                                          \
	{ "icnt_bw", 1, 1, 64, NULL, offsetof(struct gpu_cfg, icnt_bw),                                            \
	  "transactions (32-byte sectors) each SM sends into the interconnect per cycle (concrete-mode timing)" }

struct icnt {
	unsigned nq, cap, sms, bw;
	uint64_t run;    /* the concrete run the cycles below belong to */
	uint64_t *port;  /* per SM: injection slots used, in 1/bw cycles */
	uint64_t *arr;   /* per FIFO: cap arrival cycles, a ring         */
	uint32_t *head;  /* per FIFO: ring index of the head entry        */
};

/* Bytes icnt_init needs for nq FIFOs of cap entries each. */
size_t icnt_size(const struct gpu *g, unsigned nq, unsigned cap);
/* Lay the model out in mem (icnt_size bytes, zeroed, 8-aligned). */
struct icnt *icnt_init(void *mem, const struct gpu *g, unsigned nq, unsigned cap);
/* Called first by each timing hook: a new run starts with idle ports. */
void icnt_begin(struct icnt *ic, const struct timing *t);
/* One transaction from SM sm leaving no earlier than cycle from: the
** cycle it arrives at its partition. */
uint64_t icnt_send(struct icnt *ic, const struct gpu_cfg *cf, unsigned sm, uint64_t from,
                   uint64_t (*rnd)(void *), void *rng);
/* The first cycle SM sm's port has a free slot. */
uint64_t icnt_free_at(const struct icnt *ic, unsigned sm);
/* The FIFO entry q[pos] arrives at cycle at. */
void icnt_arrive(struct icnt *ic, unsigned q, unsigned pos, uint64_t at);
/* Entry i of FIFO q (n entries) leaves for the ROP at cycle now, busy
** cycles long: when FIFO q can give its next entry (0: it is empty). */
uint64_t icnt_take(struct icnt *ic, unsigned q, unsigned i, unsigned n, uint64_t now, unsigned busy);
/* Sets t's ready time of FIFO subject subj, q[0] arriving at cycle at. */
void icnt_ready(struct timing *t, uint32_t subj, uint64_t at);

#endif
