/*
** The interconnect's concrete-mode timing (see icnt.h).  Timing only: no
** state-vector slice, no actions; rop.c and dab.c own the FIFOs and call
** these from their timing hooks, which run just before the action they
** time is applied.
** Invariants:
**   ICNT-1 an SM's port never sends more than icnt_bw transactions in a
**          cycle (port[] only grows, one slot per transaction);
**   ICNT-2 arrival cycles along a FIFO never decrease (icnt_arrive);
**   ICNT-3 a partition's ejection port takes at most icnt_eject
**          transactions in a cycle (taken[] counts them per cycle).
*/
#include "config.h"
#include "machines/icnt.h"

#include <string.h>

size_t icnt_size(const struct gpu *g, unsigned nq, unsigned cap)
{
	/* head[] is rounded up to an even count: the calendar after it is
	** 8-aligned (icnt_init) */
	return sizeof(struct icnt) + sizeof(uint64_t) * (g->cfg.sms + (size_t)nq * cap) +
	       sizeof(uint32_t) * (((size_t)nq + 1) / 2 * 2) + (sizeof(uint64_t) + 1) * (size_t)g->cfg.partitions * ICNT_WINDOW;
}

struct icnt *icnt_init(void *mem, const struct gpu *g, unsigned nq, unsigned cap)
{
	struct icnt *ic = mem;
	ic->nq = nq;
	ic->cap = cap;
	ic->sms = g->cfg.sms;
	ic->bw = g->cfg.icnt_bw ? g->cfg.icnt_bw : 1;
	ic->port = (uint64_t *)(ic + 1);
	ic->arr = ic->port + ic->sms;
	ic->head = (uint32_t *)(ic->arr + (size_t)nq * cap);
	ic->parts = g->cfg.partitions;
	ic->eject = g->cfg.icnt_eject;
	ic->cal = (uint64_t *)(ic->head + (nq + 1) / 2 * 2); /* see icnt_size */
	ic->taken = (uint8_t *)(ic->cal + (size_t)ic->parts * ICNT_WINDOW);
	return ic;
}

void icnt_restart(struct icnt *ic, const struct timing *t)
{
	ic->run = t->run;
	memset(ic->port, 0, sizeof *ic->port * ic->sms);
	memset(ic->head, 0, sizeof *ic->head * ic->nq);
	if (ic->eject)
		memset(ic->taken, 0, (size_t)ic->parts * ICNT_WINDOW);
}

/* The first cycle from `at` on that partition p's ejection port has room,
** taken.  A slot of the calendar is free for cycle x when it was last
** taken for another cycle: the calendar covers ICNT_WINDOW cycles ahead,
** more than a flush of every buffer spans (a farther one is not delayed). */
static uint64_t eject(struct icnt *ic, unsigned p, uint64_t at)
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

uint64_t icnt_send(struct icnt *ic, const struct gpu_cfg *cf, unsigned sm, unsigned p, uint64_t from,
                   uint64_t (*rnd)(void *), void *rng)
{
	uint64_t *port = &ic->port[sm];
	if (*port < from * ic->bw)
		*port = from * ic->bw; /* the port was idle: no credit for it */
	uint64_t left = (*port)++ / ic->bw, travel = cf->lat_icnt + (cf->icnt_jitter ? rnd(rng) % (cf->icnt_jitter + 1) : 0);
	uint64_t at = eject(ic, p, left + travel);
	/* a transaction the partition cannot take yet holds the SM's port
	** (head of line): the ones behind it leave after it */
	if (at > left + travel && *port < (at - travel) * ic->bw + 1)
		*port = (at - travel) * ic->bw + 1;
	return at;
}

uint64_t icnt_free_at(const struct icnt *ic, unsigned sm)
{
	return (ic->port[sm] + ic->bw - 1) / ic->bw;
}
