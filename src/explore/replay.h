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

/* trace_replay that also calls after(ctx, i, sv) once step i is applied
** (not after a crash, which is not applied): what each step changed, in
** one pass where replaying every prefix would take time quadratic in the
** trace's length. */
uint32_t trace_replay_each(const struct model *m, const struct trace *t, uint8_t *sv, char **desc, int *crashed,
                           void (*after)(void *ctx, uint32_t i, const uint8_t *sv), void *ctx);

#endif
