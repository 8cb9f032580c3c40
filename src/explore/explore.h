/*
** Exhaustive exploration: BFS or DFS over a model's state space, checking
** properties, with limits that end in an honest "incomplete".
**
** The explorer knows states only as byte vectors and reaches storage only
** through src/state (visited sets, outcome sets, traces).
*/
#ifndef GPUMC_EXPLORE_H
#define GPUMC_EXPLORE_H

#include <stdint.h>
#include <time.h>

#include "explore/model.h"
#include "explore/prop.h"
#include "state/trace.h"

/* SEARCH_AUTO, the default: DFS with --compact (but --mpi), else BFS
** (explore() decides; gpumc(1), --compact says why) */
enum search_kind { SEARCH_BFS, SEARCH_DFS, SEARCH_AUTO };

struct explore_opts {
	enum search_kind search;
	int compact;            /* fingerprints only (64-bit XXH3)          */
	int tree;               /* exact, tree-compressed (state/tree.c)    */
	uint64_t max_states;    /* 0: no limit                              */
	uint32_t max_depth;     /* 0: no limit                              */
	uint64_t memory;        /* bytes, 0: no limit                       */
	double time_limit;      /* seconds, 0: no limit                     */
	struct timespec start;  /* --time counts from here (CLOCK_MONOTONIC;
	                           zero: from this explore's start): the phases
	                           of one command share one budget            */
	double progress;        /* seconds between progress lines, 0: none  */
	int keep_going;         /* record outcomes after a violation?  no: stop */
	int check_model;        /* verify the model's contract on every state */
	int por;                /* partial-order reduction (default on)     */
	int no_chain;           /* --por=nochain: no chains of local steps  */
	unsigned swarm;         /* N randomized DFS runs, compact, verdict
	                           fail or incomplete (0: one exhaustive search) */
	uint64_t dfs_seed;      /* DFS in a random action order (0: natural) */
	/* outcome locations when no exists/~exists/forall names them (a
	** kernel spec's observed locations: explore/outcomes.h) */
	const int *outcome_locs;
	unsigned noutcome_locs;
	int livelock;           /* after a complete exact run: can every state still
	                           reach a terminal one? (explore/progress.h) */
	unsigned threads;       /* --threads: 0 every core, 1 the sequential search */
	int mpi;                /* --mpi: the distributed search over the MPI job's ranks */
	int no_trace;           /* --no-trace: compact BFS keeps no parent links */
};

enum verdict { V_PASS = 0, V_FAIL = 1, V_ERROR = 2, V_INCOMPLETE = 3 };

/* One distinct terminal outcome over the outcome locations. */
struct outcome {
	uint32_t *vals;  /* one value per outcome location */
	uint64_t count;  /* terminal states with these values */
	int sat;         /* the condition of the first exists/forall holds */
};

struct explore_result {
	enum verdict verdict;
	int failed;          /* index of the violated property, or -1      */
	enum prop_kind failed_kind; /* kind of what failed (deadlock and fault
	                               are built in, not in props)       */
	char *why;           /* one line: what went wrong / what was hit   */
	struct trace trace;  /* counterexample (or witness for exists)     */
	struct trace trace2; /* determinism: the other schedule            */
	uint32_t diverge;    /* determinism: first step where they differ  */
	/* statistics */
	uint64_t states, transitions, terminals, crash_images;
	uint32_t depth;
	double seconds;
	double search_seconds; /* of which the search, before the progress check */
	uint64_t bytes;      /* visited-set + trace storage at the end    */
	const char *store;   /* the visited set's storage (vs_store_name) */
	double omission;     /* compact mode: bound on P[some state omitted] */
	/* outcomes over the outcome locations (litmus-style reports) */
	int *olocs;
	unsigned nolocs;
	struct outcome *outcomes;
	unsigned noutcomes;
	const char *limit;   /* which limit ended the run (NULL: none)    */
	const char *hint;    /* what to try instead (NULL: none)          */
	/* exists: a witness was found (trace holds it) */
	int witness;
	/* partial-order reduction: applied (the option was on and the model
	** has local actions); states expanded, and of those how many with one
	** local action */
	int por;
	const char *por_off; /* POR asked for but off: the property that needs every state */
	int chains;          /* chains of local steps merged (chain.c)      */
	uint64_t expanded, reduced;
	/* --swarm: runs made (the last one found the violation, if any) */
	unsigned swarm_runs;
	/* progress: -1 not checked, else the number of stuck states; when
	** that failed, trace is a lasso whose loop is steps [cycle, len) */
	int64_t stuck;
	uint32_t cycle;
	/* --threads: the threads that searched; when fewer than asked for
	** because the options need the sequential search, why (a phrase) */
	unsigned threads, threads_asked;
	const char *threads_off;
	/* the search's memory (visited set, queue or stack, move graph, judge),
	** kept until explore_release so that a report can be printed first */
	void *held;
	/* --mpi: the ranks of the job; when they could not share the search
	** (each then searched alone), why (a phrase) */
	int ranks;
	const char *mpi_off;
	/* --no-trace took effect: the parent links were not kept, so trace,
	** trace2 and a witness are empty (a re-run without it finds them) */
	int no_trace;
	/* the search was depth-first because --compact asked for no order
	** (SEARCH_AUTO): the report says so and how to get BFS */
	int dfs_default;
};

void explore_opts_default(struct explore_opts *o);
/* Explore m checking props[0..n).  Deadlock and fault are always checked.
** Outcome locations are collected from exists/~exists/forall conditions. */
void explore(const struct model *m, struct property *props, unsigned n,
             const struct explore_opts *o, struct explore_result *r);
/* Free the search's memory (r->held) and keep the result: a command
** prints its report before, since releasing gigabytes takes a while. */
void explore_release(struct explore_result *r);
/* explore_release, then the result itself. */
void explore_result_free(struct explore_result *r);

#endif
