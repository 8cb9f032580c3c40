/*
** The trace replayer: the one function that re-runs a trace (action
** indices, state/trace.h) on a model.  Counterexample printing, trace
** files and `gpumc replay` all go through it, so what they show is what
** the machine does.
*/
#ifndef GPUMC_REPLAY_H
#define GPUMC_REPLAY_H

#include <stdint.h>

#include "explore/model.h"
#include "state/trace.h"

/* Replay t from the initial state into sv (m->sv_size bytes); each step's
** description goes to desc[i] (caller frees) when desc is non-NULL.  A
** crash (ACT_CRASH) is, as in the explorer, not applied: it ends the trace,
** sv is the state it hits, and *crashed (when non-NULL) says so.  Returns
** the number of steps replayed: fewer than t->len when an index is not
** enabled or a crash comes before the last step. */
uint32_t trace_replay(const struct model *m, const struct trace *t, uint8_t *sv, char **desc, int *crashed);

#endif
