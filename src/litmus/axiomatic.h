/*
** The candidate-execution enumerator shared by the axiomatic litmus models
** (axiomatic.c: scoped RMO, thesis Fig. 6.1; ptx.c: the PTX ISA memory
** consistency model): per-thread executions over the value domains, then
** every rf and co; each model supplies only its consistency predicate.
*/
#ifndef GPUMC_LITMUS_AXIOMATIC_H
#define GPUMC_LITMUS_AXIOMATIC_H

#include <time.h>

#include "litmus/run.h"

enum { EV_R, EV_W, EV_F };
enum { MAXEV = 64, MAXV = 32 };

struct ev {
	int kind, loc, fence, rmw;   /* rmw: index (within the thread) of the partner */
	enum sem sem;                /* the instruction's PTX ordering and scope */
	enum scope scope;
	int ins;                     /* instruction index in the thread         */
	uint32_t val;
	uint64_t addr, data;         /* bit i: depends on the thread's event i  */
};

struct texec {
	int nev;
	struct ev ev[MAXEV / 2];
	uint32_t regs[LIT_MAXR];
};

struct tlist {
	struct texec *x;
	int n, cap;
};

struct ax {
	const struct litmus *t;
	const struct expr *cond;
	struct model vm;             /* valuation model for the condition */
	/* values each thread's stores may write, per location */
	uint32_t dom[LIT_MAXT][LIT_MAXL][MAXV];
	int ndom[LIT_MAXT][LIT_MAXL];
	int grew, overflow;
	struct tlist th[LIT_MAXT];
	/* the candidate being built */
	int (*consistent)(struct ax *a); /* the model's axioms           */
	int n;                       /* events, the init writes first     */
	int thr[MAXEV], cta[MAXEV], kind[MAXEV], loc[MAXEV], fence[MAXEV];
	enum sem sem[MAXEV];
	enum scope scope[MAXEV];
	int ins[MAXEV];              /* instruction index, -1 for init    */
	uint32_t val[MAXEV];
	int rf[MAXEV];               /* read -> write                       */
	int coidx[MAXEV];            /* position of a write in its co order */
	uint64_t po[MAXEV], ppo[MAXEV], fcta[MAXEV], fdev[MAXEV];
	int rmw_w[MAXEV];            /* read event -> its RMW write, or -1  */
	int choice[LIT_MAXT];
	int wlist[LIT_MAXL][MAXEV];
	int nw[LIT_MAXL];
	struct lit_run *r;
	uint64_t races_seen;         /* r->races at the last recorded execution */
	uint32_t *valuation;
	/* limits: --max-states counts candidate executions, --time and
	** --memory (the thread-run lists) as in the explorer */
	const struct explore_opts *o;
	struct timespec t0;
	size_t bytes;
	unsigned ticks;
	int stop;
};

/* Enumerate t's candidate executions; record the outcome of each one
** a->consistent accepts (states: candidates, transitions: consistent). */
int ax_enumerate(const struct litmus *t, const struct expr *cond, const struct explore_opts *o, struct lit_run *r,
                 int (*consistent)(struct ax *a), struct strbuf *err);

/* Is the relation (adjacency bit rows over n events) acyclic? */
int ax_acyclic(const uint64_t *rel, int n);
/* Is w1 before w2 in the candidate's coherence order? */
int ax_co_before(const struct ax *a, int w1, int w2);

#endif
