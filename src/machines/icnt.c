/*
** The interconnect's concrete-mode timing (see icnt.h).  Timing only: no
** state-vector slice, no actions; rop.c and dab.c own the FIFOs and call
** these from their timing hooks, which run just before the action they
** time is applied.
** Invariants:
**   ICNT-1 an SM's port never sends more than icnt_bw transactions in a
**          cycle (port[] only grows, one slot per transaction);
**   ICNT-2 arrival cycles along a FIFO never decrease (icnt_arrive).
*/
#include "config.h"
#include "machines/icnt.h"

#include <string.h>

size_t icnt_size(const struct gpu *g, unsigned nq, unsigned cap)
{
	return sizeof(struct icnt) + sizeof(uint64_t) * (g->cfg.sms + (size_t)nq * cap) + sizeof(uint32_t) * nq;
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
	return ic;
}

void icnt_begin(struct icnt *ic, const struct timing *t)
{
	if (ic->run == t->run)
		return;
	ic->run = t->run;
	memset(ic->port, 0, sizeof *ic->port * ic->sms);
	memset(ic->head, 0, sizeof *ic->head * ic->nq);
}

uint64_t icnt_send(struct icnt *ic, const struct gpu_cfg *cf, unsigned sm, uint64_t from,
                   uint64_t (*rnd)(void *), void *rng)
{
	uint64_t *p = &ic->port[sm];
	if (*p < from * ic->bw)
		*p = from * ic->bw; /* the port was idle: no credit for it */
	uint64_t left = (*p)++ / ic->bw;
	return left + cf->lat_icnt + (cf->icnt_jitter ? rnd(rng) % (cf->icnt_jitter + 1) : 0);
}

uint64_t icnt_free_at(const struct icnt *ic, unsigned sm)
{
	return (ic->port[sm] + ic->bw - 1) / ic->bw;
}

static uint64_t *slot(struct icnt *ic, unsigned q, unsigned pos)
{
	return &ic->arr[(size_t)q * ic->cap + (ic->head[q] + pos) % ic->cap];
}

void icnt_arrive(struct icnt *ic, unsigned q, unsigned pos, uint64_t at)
{
	if (pos && *slot(ic, q, pos - 1) > at)
		at = *slot(ic, q, pos - 1);
	*slot(ic, q, pos) = at;
}

uint64_t icnt_take(struct icnt *ic, unsigned q, unsigned i, unsigned n, uint64_t now, unsigned busy)
{
	/* entry i leaves (i > 0 only on the relaxed icnt_order=any): the
	** ones behind it close up, as the FIFO's entries do */
	if (i == 0)
		ic->head[q] = (ic->head[q] + 1) % ic->cap;
	for (unsigned k = i; i && k + 1 < n; k++)
		*slot(ic, q, k) = *slot(ic, q, k + 1);
	if (n <= 1)
		return 0;
	uint64_t at = *slot(ic, q, 0);
	return at > now + busy ? at : now + busy;
}

void icnt_ready(struct timing *t, uint32_t subj, uint64_t at)
{
	if (t->n >= TIMING_MAX_UPDATES)
		return;
	t->upd[t->n].subject = subj;
	t->upd[t->n++].delay = at > t->now ? (uint32_t)(at - t->now) : 0;
}
