/*
** The multi-core search (--threads N): breadth-first, level by level, with
** N threads over one shared visited set (state/visited.h, shared mode).
** explore.c keeps everything that decides a verdict; it lends this search
** its checks as hooks, which run one at a time under the search's lock.
*/
#ifndef GPUMC_PARALLEL_H
#define GPUMC_PARALLEL_H

#include <stdint.h>

#include "explore/explore.h"
#include "state/visited.h"

/* What explore.c lends.  Each hook but parent runs with the search's lock
** held and returns non-zero when the search must stop (a violation
** without --keep-going, a limit: explore.c records which). */
struct par_hooks {
	void *ctx;
	/* a new state, its parent link already set */
	int (*discovered)(void *ctx, const uint8_t *sv, uint32_t idx);
	/* crash action ai of state idx */
	int (*crash)(void *ctx, const uint8_t *sv, uint32_t idx, unsigned ai);
	/* a state about to be expanded whose only moves are crashes (or none):
	** the deadlock check */
	int (*moves)(void *ctx, const uint8_t *sv, const struct action *act, unsigned n, uint32_t idx);
	/* a signal, --time, --memory, --max-states; prints the progress line */
	int (*limits)(void *ctx);
	/* with every thread stopped: room for parent links of states below n
	** at least; returns the room made */
	uint64_t (*reserve)(void *ctx, uint64_t n);
	/* with every thread stopped (at a level barrier: by any of them, for
	** distinct states at once), or before they start: state idx was
	** reached from `from` (UINT32_MAX: none) by action act; idx is below
	** the room reserved */
	void (*parent)(void *ctx, uint32_t idx, uint32_t from, uint16_t act);
	/* any thread, no lock; NULL without partial-order reduction: the index
	** of an action of act[0..n) that may stand for all (its running
	** successor left in next), or -1 (explore.c's ample) */
	int (*ample)(void *ctx, const uint8_t *sv, const struct action *act, unsigned n, uint8_t *next);
	/* with the reduction: every successor is followed along its chain of
	** local steps before it is looked up (chain.c; its index then carries
	** CHAIN_BIT: the keys of PAR-5 still name one move of the state) */
	const struct chain *chain;
	/* expansions, of all threads together, between two calls of limits */
	unsigned every;
};

/* The threads --threads asks for (0: every online core). */
unsigned par_threads(const struct explore_opts *o);
/* Why a run with these options cannot use more than one thread (a phrase
** for the report), or NULL when it can.  por: the reduction is applied. */
const char *par_refuse(const struct explore_opts *o, int por);
/* Explore m from its initial state with nthreads threads, vs empty, in
** breadth-first levels; r's transitions, expanded and depth are set here.
** judge_all: running states are judged too (invariant, race_free), not
** only terminal and faulted ones.  *cut: a state was left unexpanded at
** --max-depth.  *cyclic: some move led back to a state of its own level
** or an earlier one (else the graph searched has no cycle).  Returns the threads that ran (fewer than nthreads when the
** system would not start them all). */
unsigned par_bfs(const struct model *m, const struct explore_opts *o, struct explore_result *r, struct visited *vs,
             unsigned nthreads, int judge_all, const struct par_hooks *h, int *cut, int *cyclic);

#endif
