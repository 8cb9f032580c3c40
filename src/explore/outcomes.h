/*
** Outcome sets, herd-style: every distinct final valuation of a set of
** locations, with how many terminal states end with it.  `check
** --outcomes` lists them for kernel specs (the observed locations: those
** of the first `deterministic` property, else all global memory), and a
** pass prints the final values when they are unique.  Self-contained so
** that a property comparing the outcome sets of two machines can share it.
*/
#ifndef GPUMC_OUTCOMES_H
#define GPUMC_OUTCOMES_H

#include "explore/explore.h"
#include "util/strbuf.h"

/* The observed locations of a spec's properties, into *locs (caller
** frees); returns their number. */
unsigned outcome_locs(const struct model *m, const struct property *props, unsigned n, int **locs);
/* explore() that also records the outcomes over locs (when no exists or
** forall condition names the locations).  all: keep exploring after a
** violation, so the outcome set is complete. */
void outcomes_explore(const struct model *m, struct property *props, unsigned n, const int *locs, unsigned nlocs,
                      const struct explore_opts *o, int all, struct explore_result *r);
/* The outcome list (sorted by value) as text or a JSON array. */
void outcomes_print(const struct model *m, const struct explore_result *r, struct strbuf *out, int json);
/* One outcome's values: "sum = 26, out[0] = 1" (json: an object). */
void outcome_values(const struct model *m, const struct explore_result *r, const struct outcome *oc,
                    struct strbuf *out, int json);

#endif
