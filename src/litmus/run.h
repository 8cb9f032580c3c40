/*
** Running a litmus test under one model: the distinct final outcomes over
** the condition's locations, whichever engine produced them.
*/
#ifndef GPUMC_LITMUS_RUN_H
#define GPUMC_LITMUS_RUN_H

#include <stdint.h>

#include "explore/explore.h"
#include "litmus/litmus.h"

enum { LIT_MAXO = 32 }; /* locations in a condition */

struct lit_outcome {
	uint32_t vals[LIT_MAXO];
	int sat;         /* the condition's proposition holds          */
	uint64_t count;  /* final states / consistent executions        */
};

struct lit_run {
	char model[24];
	int nolocs;
	int olocs[LIT_MAXO];
	enum vtype otype[LIT_MAXO];
	struct lit_outcome *out;
	unsigned nout;
	uint64_t states, transitions; /* operational; candidates, consistent for axiomatic */
	double seconds;
	int incomplete;  /* a limit was hit: the outcome list may be partial */
	char *why;
	char *witness;   /* the steps to a state satisfying the proposition
	                    (exists, ~exists) or violating it (forall)     */
	uint64_t races;  /* ptx: consistent executions with a data race    */
	char *race;      /* ptx: the first race found, "T0 'st ...' / T1 ..." */
	/* axiomatic (optional): called with every consistent execution's
	** whole valuation (the litmus location numbering) and whether it has
	** a data race (ptx); the kernel route of memory=ptx collects them */
	void (*each)(void *ctx, const uint32_t *valuation, int racy);
	void *each_ctx;
};

/* Models selectable with --model. */
extern const char *const lit_models[];
int lit_model_known(const char *name);

/* Run t under model (chip: NULL or fermi|kepler|maxwell for ics13-fixed).
** 0 on success; -1 with a message in err. */
int lit_run_model(const struct litmus *t, const char *model, const char *chip,
                  const struct explore_opts *o, int want_witness, struct lit_run *r,
                  struct strbuf *err);
void lit_run_free(struct lit_run *r);
/* Positive / negative outcome counts (distinct final states). */
void lit_run_counts(const struct lit_run *r, unsigned *pos, unsigned *neg);
/* Is the test's condition validated (herd's Ok)? */
int lit_run_ok(const struct litmus *t, const struct lit_run *r);

/* The axiomatic scoped-RMO engine (thesis Fig. 6.1). */
int scoped_rmo_run(const struct litmus *t, const struct expr *cond, const struct explore_opts *o,
                   struct lit_run *r, struct strbuf *err);

/* The PTX ISA memory consistency model (ptx.c). */
int ptx_run(const struct litmus *t, const struct expr *cond, const struct explore_opts *o, struct lit_run *r,
            struct strbuf *err);

/* A model whose state vector is an array of uint32 indexed by location
** id; used to evaluate conditions outside the explorer. */
void lit_valuation_model(const struct litmus *t, struct model *m);

#endif
