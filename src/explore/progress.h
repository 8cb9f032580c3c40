/*
** The progress check (livelock): after a complete exploration, is there a
** reachable state from which no terminal state can be reached?  Such a
** state is a violation even when every final-state property "holds",
** because then they hold vacuously for the runs through it.
*/
#ifndef GPUMC_PROGRESS_H
#define GPUMC_PROGRESS_H

#include "explore/model.h"
#include "state/trace.h"
#include "state/visited.h"

struct progress_result {
	uint64_t stuck;    /* reachable states that cannot reach a terminal one */
	struct trace lasso; /* init -> a stuck state -> round a cycle of stuck states */
	uint32_t cycle;    /* the cycle: lasso steps [cycle, len) */
	uint64_t edges;    /* transitions re-generated */
	size_t bytes;      /* the graph's storage at its largest */
};

/* The moves between visited states as compressed rows: state i's moves
** are dst[row[i] .. row[i + 1]) (state numbers), taken by the actions
** via[...] (indices into its enabled list); crashes are not moves.  A
** recorded graph may start at state `from` (explore.c records from the
** first move that can close a cycle on): the moves of the states before
** it are not there (row[0 .. from) unset; no rows at all when from is the
** state count) and are found by re-expansion.  ended[0 .. nended): every
** terminal or faulted state, as the search judged them (so the check asks
** no state its status again). */
struct progress_graph {
	uint64_t *row;
	uint32_t *dst;
	uint16_t *via;
	uint64_t ne;
	uint32_t from;
	uint32_t *ended;
	uint64_t nended;
};

/* vs holds every reachable state of m (an exact, complete exploration),
** or, with reduced (not NULL), those of a complete partial-order-reduced
** one, whose chains of local steps it describes (chain.h).  rec:
** the graph the search recorded (from rec->from on), or NULL to re-expand
** every state.
** limit(ctx, bytes) is asked every 1024 states with the bytes the check
** holds: non-zero stops it.  Returns 0 when done (lasso set iff stuck),
** -1 when the limit stopped it. */
struct chain;
int progress_check(const struct model *m, struct visited *vs, const struct chain *reduced,
                   const struct progress_graph *rec,
                   int (*limit)(void *ctx, size_t bytes), void *ctx, struct progress_result *r);

#endif
