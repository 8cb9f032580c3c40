/*
** The interconnect's concrete-mode timing (see icnt.h).  Timing only: no
** state-vector slice, no actions; rop.c and dab.c own the FIFOs and call
** these from their timing hooks, which run just before the action they
** time is applied.  The calls of every send and drain (icnt_send,
** icnt_arrive, icnt_run, icnt_take, ...) are inline in icnt.h; here the
** layout and a run's reset.
** Invariants:
**   ICNT-1 an SM's port never sends more than icnt_bw transactions in a
**          cycle (port[] only grows, one slot per transaction);
**   ICNT-2 arrival cycles along a FIFO never decrease (icnt_arrive,
**          icnt_tail_arrive);
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

uint64_t icnt_free_at(const struct icnt *ic, unsigned sm)
{
	return (ic->port[sm] + ic->bw - 1) / ic->bw;
}
