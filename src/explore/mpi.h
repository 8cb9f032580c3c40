/*
** The distributed search (--mpi): breadth-first over the ranks of an Open
** MPI job, each rank owning the states whose hash maps to it (mpi.c says
** how).  As with the multi-core search (parallel.h), explore.c keeps
** everything that decides a verdict and lends its checks as hooks; this
** file moves states between ranks and makes every rank agree.
**
** Every rank runs the same gpumc command on the same spec and takes part
** in every search; only rank 0 writes to standard output.
*/
#ifndef GPUMC_MPI_H
#define GPUMC_MPI_H

#include <stdint.h>

#include "explore/explore.h"
#include "explore/progress.h"
#include "state/trace.h"
#include "state/visited.h"

/* A place in the distributed search: state idx of rank `rank`, and when
** extra >= 0 one more action from it (a crash, the action a contract
** check blames).  A trace is asked for by such a place while searching;
** mpi_finish() follows the parent links across the ranks. */
struct mpi_at {
	int set;
	int rank;
	uint32_t idx;
	int extra;
};

/* What explore.c lends.  Each returns non-zero when the search must stop
** (a violation without --keep-going, or a limit inside a crash's
** recovery: explore.c records which in the result). */
struct mpi_hooks {
	void *ctx;
	/* a new state of this rank, numbered idx */
	int (*discovered)(void *ctx, const uint8_t *sv, int rank, uint32_t idx);
	/* on rank 0: a crash image new to this run, of state idx of rank
	** `rank`, by its action ai */
	int (*crash)(void *ctx, const uint8_t *img, int rank, uint32_t idx, unsigned ai);
	/* a state about to be expanded, with its enabled actions: the
	** deadlock check (and --check-model's contract) */
	int (*moves)(void *ctx, const uint8_t *sv, const struct action *act, unsigned n, int rank, uint32_t idx);
	/* bytes this rank's search holds outside mpi.c (the visited set) */
	uint64_t (*bytes)(void *ctx);
	/* seconds of --time spent */
	double (*seconds)(void *ctx);
};

/* --mpi on the command line: MPI_Init (once), rank 0 alone keeps
** standard output.  Without MPI in this gpumc it execs the helper
** gpumc-mpi on the same command: argc, argv are the command's arguments
** as main passed them on (argv[0] the command, "check"); non-zero, after
** saying why, when there is no helper. */
int mpi_start(int argc, char **argv);
/* The ranks of the job (1 without --mpi). */
int mpi_size(void);
/* Why the distributed search cannot run with these options (a phrase
** for the report: every rank then runs the sequential search alone), or
** NULL when it can. */
const char *mpi_refuse(const struct explore_opts *o);

struct mpi_run;
/* Explore m from its initial state over every rank, vs holding this
** rank's states.  r's transitions, expanded and depth count this rank's
** work; a violation found on any rank (the lowest rank's) and a limit hit
** anywhere are in r on every rank when it returns, and *at says where the
** violation (or witness) is.  *cut: some state was left unexpanded at
** --max-depth; *cyclic: some move went back to a state of the same level
** or an earlier one (both over every rank). */
struct mpi_run *mpi_bfs(const struct model *m, const struct explore_opts *o, struct explore_result *r,
                        struct visited *vs, const struct mpi_hooks *h, struct mpi_at *at, int *cut, int *cyclic);
/* The progress check of progress.h over the ranks, on the moves the
** search recorded (exact mode, o->livelock): the same stuck count, and a
** lasso through a stuck state (not always the nearest one).  limit(ctx,
** bytes) is asked every round; returns -1 when a limit stopped it (its
** name in r->limit of every rank's result), else 0. */
int mpi_progress(struct mpi_run *run, int (*limit)(void *ctx, size_t bytes), void *ctx, struct progress_result *r);
/* After explore.c's verdict: rank 0's verdict on every rank, the counts
** summed over the ranks, r->trace from *at (a violation or a witness),
** and for a determinism violation *first from *first_at (the path to the
** first terminal state).  Frees run. */
void mpi_finish(struct mpi_run *run, struct explore_result *r, struct mpi_at *at, const struct mpi_at *first_at,
                struct trace *first);

#endif
