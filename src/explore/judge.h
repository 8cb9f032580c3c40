/*
** The judge: the one place that decides what the properties say about a
** state.  The explorer asks it about every state it discovers, every state
** it expands and every crash it injects; `gpumc replay` asks it about the
** state a trace ends in, through the same functions, so a replay shows
** exactly what the search found.
**
** Where each property is judged:
**   judge_state      every reachable state: fault, invariant, race_free,
**                    persist_order (what a crash there leaves); a terminal
**                    state also: deterministic, exists, ~exists, forall,
**                    persisted
**   judge_moves      a running state whose only moves are crashes (or none)
**                    is a deadlock
**   judge_crash      a crash, on its durable image: durable, idempotent
**                    (re-execution), the recovery program, recoverable
**   judge_start      before any state: idempotent's static analysis
**   judge_finish     after the whole space: exists without a witness
**   judge_end        the end of a trace: judge_crash when its last step
**                    is a crash, else judge_state then judge_moves
**
** `deterministic` compares the results of the terminal states judged so far
** (in a replay: schedule A's, then B's).  Properties are judged in the order
** written; a judge made with keep_going = 0 stops at the first violation of
** a state, otherwise it goes on to record witnesses and results (the first
** violation is still the one returned).
*/
#ifndef GPUMC_JUDGE_H
#define GPUMC_JUDGE_H

#include <stdint.h>

#include "explore/model.h"
#include "explore/prop.h"

struct judge;

/* What a state was found to be. */
struct judgement {
	enum model_status status; /* judge_state: the state's status          */
	int witness;         /* judge_state: the first witness of an exists  */
	int cut;             /* judge_crash: the recovery hit a limit of the
	                        run (judge_set_poll): nothing decided        */
	int violated;        /* a property fails: the fields below say which
	                        (they are not set otherwise) */
	int prop;            /* index into props; -1: built in (deadlock, fault) */
	enum prop_kind kind;
	const char *why;     /* one line; valid until the judge's next call   */
};

struct judge *judge_new(const struct model *m, const struct property *props, unsigned n, int keep_going);
void judge_free(struct judge *j);
/* poll(ctx) says whether the run hit a limit; the recovery of a crash
** asks it as it explores (model.recover's bad(ctx, NULL)). */
void judge_set_poll(struct judge *j, int (*poll)(void *ctx), void *ctx);
/* Each returns v->violated. */
int judge_start(struct judge *j, struct judgement *v);
int judge_state(struct judge *j, const uint8_t *sv, struct judgement *v);
/* Must judge_state see running states too (an invariant, a race, the
** persistency order of what a crash would leave), not only final ones? */
int judge_every_state(const struct judge *j);
int judge_moves(struct judge *j, const uint8_t *sv, const struct action *act, unsigned n,
                struct judgement *v);
/* img: the durable image of the state the crash hits (m->durable()). */
int judge_crash(struct judge *j, const uint8_t *img, struct judgement *v);
int judge_finish(struct judge *j, struct judgement *v);
/* sv: the state the trace reaches; crashed: its last step is a crash
** (sv is then the state the crash hits, see trace_replay). */
int judge_end(struct judge *j, const uint8_t *sv, int crashed, struct judgement *v);

#endif
