/*
** Minimal fence query: the weakest fence scope per thread that forbids a
** test's weak outcome under a model (notes/litmus.md §6.6).
*/
#ifndef GPUMC_LITMUS_FENCES_H
#define GPUMC_LITMUS_FENCES_H

#include "explore/explore.h"
#include "litmus/litmus.h"

struct strbuf;

/* Print to out the minimal per-thread fence assignments that make the
** proposition unreachable; 0, 1 when a limit cut a run short, or -1 with a
** message in err (1 too has one). */
int lit_fences(const struct litmus *t, const char *model, const char *chip,
               const struct explore_opts *o, struct strbuf *out, struct strbuf *err);

#endif
