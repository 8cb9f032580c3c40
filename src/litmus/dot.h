/* `gpumc litmus --dot`: a witness execution as a Graphviz graph (dot.c). */
#ifndef GPUMC_LITMUS_DOT_H
#define GPUMC_LITMUS_DOT_H

#include "litmus/run.h"
#include "util/strbuf.h"

/* The first outcome of r that satisfies the test's exists (or refutes its
** ~exists / forall) as events with po, rf and co edges; -1 when there is
** none to draw. */
int lit_dot(const struct litmus *t, const struct lit_run *r, struct strbuf *out);

#endif
