/*
** `check persist_order strict|epoch` on the persist machine: the record a
** crash's durable image is judged against (persist_order.c).  persist.c
** keeps it at the end of its slice and calls these where a value moves;
** every function does nothing when the spec does not check persist_order
** (po_size is then 0, so no state count moves).
*/
#ifndef GPUMC_PERSIST_ORDER_H
#define GPUMC_PERSIST_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "machines/gpu.h"

struct strbuf;

/* Where a word's value is, each with the version of the store that wrote
** it (the n-th store to that word). */
enum po_where { PO_VIS, PO_WPQ, PO_TRANSIT, PO_NVM };

/* Bytes of the record (a multiple of 8; 0 when not checked). */
size_t po_size(const struct gpu *g);
/* A kernel starts (launch): a later launch's stores follow every earlier one's. */
void po_launch(const struct gpu *g, uint8_t *rec);
/* Warp w issues a bar.sync with live lanes (l2wb 0): its CTA's later
** stores follow its earlier ones; or it completes an l2wb pass (l2wb 1):
** its own later stores follow its earlier ones. */
void po_barrier(const struct gpu *g, uint8_t *rec, unsigned w, int l2wb);
/* Lane l of warp w, at pc, is about to store to word: the store that will
** be the word's version `ahead` from now (1: the next).  0, or -1 when
** the thread has more stores not yet durable than the record holds. */
int po_issue(const struct gpu *g, uint8_t *rec, unsigned w, unsigned l, uint32_t word, unsigned pc, unsigned ahead);
/* The next three run on every step of the persist machine: inline, they
** cost a test when the spec does not check persist_order (the _rec
** functions keep the record, only when it does). */
void po_stored_rec(const struct gpu *g, uint8_t *rec, uint32_t word);
void po_move_rec(const struct gpu *g, uint8_t *rec, enum po_where to, enum po_where from, uint32_t word);
void po_prune_rec(const struct gpu *g, uint8_t *rec, const uint8_t *inwpq, unsigned bit);
/* A store to word was performed (its visible value is a new version). */
static inline void po_stored(const struct gpu *g, uint8_t *rec, uint32_t word)
{
	if (g->persist_order)
		po_stored_rec(g, rec, word);
}
/* The value at `from` moved to `to` (a write-back, an arrival, a drain). */
static inline void po_move(const struct gpu *g, uint8_t *rec, enum po_where to, enum po_where from, uint32_t word)
{
	if (g->persist_order)
		po_move_rec(g, rec, to, from, word);
}
/* Forget the stores that are durable and that no store still volatile
** precedes: they can be in no violation any more.  inwpq[word] & bit:
** the word has a WPQ entry (durable when the WPQs are). */
static inline void po_prune(const struct gpu *g, uint8_t *rec, const uint8_t *inwpq, unsigned bit)
{
	if (g->persist_order)
		po_prune_rec(g, rec, inwpq, bit);
}
/* mode PO_STRICT or PO_EPOCH: 1, both stores named in why, when a crash
** now leaves a store durable and a store it must follow not. */
int po_violated(const struct gpu *g, const uint8_t *rec, const uint8_t *inwpq, unsigned bit, int mode,
                struct strbuf *why);
/* The name of global word i ("a[3]", "flag"). */
void po_word_name(const struct gpu *g, uint32_t i, struct strbuf *out);
/* PO-1 (the record's invariant), for the persist component's check. */
int po_check(const struct gpu *g, const uint8_t *rec, struct strbuf *why);

#endif
