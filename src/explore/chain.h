/*
** Partial-order reduction's ample step and its chains of local steps
** (chain.c): shared by every search (explore.c's BFS and DFS, the
** multi-core BFS through its ample hook), by the progress check's
** re-expansion and by the trace expansion.
*/
#ifndef GPUMC_CHAIN_H
#define GPUMC_CHAIN_H

#include <stdint.h>

#include "explore/model.h"

struct trace;

/* A move whose action index carries this bit (parent links, recorded
** graph rows, the multi-core search's keys, a DFS frame's step) is a
** chain: the action, then chain_follow from its successor. */
#define CHAIN_BIT 0x8000u
#define CHAIN_MAX 64 /* CH-3: steps in one chain, the first included */

struct chain {
	const struct model *m;
	const int *obs; /* the locations properties observe */
	unsigned nobs;
	const int *inv; /* those of them observed in running states (model.h, alone) */
	unsigned ninv;
	unsigned max; /* steps a chain may take: CHAIN_MAX, or 1 (no chains) */
};

/* The index of an enabled action of sv that may stand for all of
** act[0..na) (local or alone, not a crash, its successor running), that
** successor left in next; or -1. */
int chain_ample(const struct chain *ch, const uint8_t *sv, const struct action *act, unsigned na, uint8_t *next);

/* sv was reached by one ample step: take further ample steps in place
** while there are, at most ch->max - 1 of them, and return how many.
** tmp: a scratch vector; act: room for max_actions + 1 actions; steps (if
** not NULL): the indices taken. */
unsigned chain_follow(const struct chain *ch, uint8_t *sv, uint8_t *tmp, struct action *act, uint16_t *steps);

/* Rule CH-5: is the successor of action a of sv worth following?  After
** a local action (the ample step, or one of a full expansion) most are;
** after any other, following costs an enabled() list that mostly finds no
** local step (D2 at 14 warps: twice the CPU for 27 states fewer) -- but
** in a machine with steps taken alone (model.h, alone) a ROP's perform
** or a warp's atomic often is one, and there every successor is followed
** (lane-reduction 4x1x4: 31 M instructions instead of 474 M, ticket-
** counter 2x1x8: 823 M instead of 1,100 M).  Following fewer successors
** is always sound (CH-2 holds for any). */
int chain_after(const struct chain *ch, const uint8_t *sv, const struct action *a);

/* A trace whose steps may carry CHAIN_BIT rewritten into plain action
** indices (re-executed from the initial state: a chain is deterministic);
** *mark, a step index into the trace (a lasso's loop start, a divergence),
** moved with it (NULL: none). */
void chain_unfold(const struct chain *ch, struct trace *t, uint32_t *mark);

#endif
