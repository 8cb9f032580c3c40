/*
** Concrete mode: the model's own actions along one timed path.  Each unit
** (warp scheduler, ROP) issues at most one action per cycle, among actions
** whose subject is ready; the model's pick() chooses (GTO for warps) and
** step() says when things become ready again.  No hashing, no copies.
*/
#ifndef GPUMC_CONCRETE_H
#define GPUMC_CONCRETE_H

#include <stdint.h>

#include "explore/model.h"

struct concrete_result {
	enum model_status status; /* MS_RUNNING at the end: deadlock or cycle limit */
	int deadlock, limit;
	uint64_t cycles, actions;
	uint64_t *counters;       /* m->ncounters */
	uint64_t idle_unit_cycles; /* sum over units of cycles with nothing to issue */
	uint8_t *sv;              /* final state */
	double seconds;
};

/* 0 when m can run in concrete mode (it has timing, units and subjects),
** else -1 with the reason in why. */
int concrete_usable(const struct model *m, struct strbuf *why);
/* Called for every action a run takes, before it is applied: the cycle,
** the action, its timing and the state it is taken in (run --timeline). */
struct concrete_hook {
	void (*action)(void *ctx, uint64_t now, const struct action *a, const struct timing *t, const uint8_t *sv);
	void *ctx;
};
/* The runs one model instance has made (timed_now.run numbers them) and
** the last key any of them used (model.h: no key of one run equals one of
** another's); zeroed before the first.  One per model instance, used by
** one thread at a time: the components keep what they learn within a run
** in the model's own data, so threads never share a model. */
struct concrete_runs {
	uint64_t runs, keys;
};
/* One timed run of a model that concrete_usable() accepts, counted in
** past; hook may be NULL. */
void concrete_run(const struct model *m, struct concrete_runs *past, uint64_t seed, uint64_t max_cycles,
                  const struct concrete_hook *hook, struct concrete_result *r);
void concrete_result_free(struct concrete_result *r);

#endif
