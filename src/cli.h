/* Command-line options and the spec -> machine -> properties pipeline
** shared by every subcommand. */
#ifndef GPUMC_CLI_H
#define GPUMC_CLI_H

#include <stdint.h>

#include "explore/explore.h"
#include "spec/spec.h"

/* Exit codes (DESIGN §6). */
enum { EXIT_HOLDS = 0, EXIT_VIOLATED = 1, EXIT_INPUT = 2, EXIT_INCOMPLETE = 3 };

struct run_opts {
	struct explore_opts ex;
	const char **defines;
	int ndefines;
	int json, quiet;
	int outcomes, values;  /* check: list the outcomes; each step's changes */
	const char *dot_file;  /* check: the counterexample as a Graphviz graph */
	const char *timeline_file; /* run: the first run as a Chrome trace */
	const char *trace_file;
	unsigned runs;
	uint64_t seed;
	uint64_t max_cycles;
	int time_set, progress_set;
	int concrete;          /* run: no traces, so no bound on a state's actions */
	char **argv;           /* the command's words (argv[0] its name): a  */
	int argc;              /* --no-trace report prints the re-run        */
};

/* A loaded spec with its machine and bound properties. */
struct job {
	struct spec *spec;
	struct model *model;
	struct property *props;
	unsigned nprops;
	struct timespec start; /* job_load's start: --time counts from here, over
	                          the reference runs of refines/equals and the
	                          check itself (explore_opts.start) */
	struct explore_result ref_run; /* a reference run that used up --time: its
	                                  memory (held), released by job_free after
	                                  the report */
};

/* The default --memory: 3/4 of the least of physical memory, RLIMIT_AS
** and the cgroup limit (0: none known). */
uint64_t default_memory_limit(void);
/* A non-negative number for option opt (with K/M/G when allow_suffix);
** 0 after printing why it is not one. */
int parse_u64(const char *opt, const char *s, uint64_t *out, int allow_suffix);
void run_opts_default(struct run_opts *o);
/* Errors of path on stderr; with json also {"spec":path,"verdict":"error"}
** on stdout, so a JSON reader gets JSON. */
void print_diag(const struct diag *d, const char *path, int json);
/* Parse one option at argv[*i] (advancing *i past its argument).  Returns
** 1 if it was an option, 0 if not an option, -1 on a usage error (printed). */
int cli_option(struct run_opts *o, int argc, char **argv, int *i, const char *allowed);
/* Parse a command's options (groups as for cli_option) and its spec
** files; returns the number of files (argv entries, not copies) in
** *files, or -1 after printing a usage error.  `usage` names the command
** for the "no spec given" message. */
int cli_parse_specs(struct run_opts *o, int argc, char **argv, const char *allowed, const char *usage,
                    const char ***files);
struct strbuf;
/* The command of o->argv again, shell-quoted, without --no-trace: the
** re-run that finds the trace a --no-trace run did not keep. */
void cli_rerun(struct strbuf *out, const struct run_opts *o);
/* Load, apply -D, build the machine, resolve properties.  On error prints
** the diagnostics (or adds them to json) and returns -1. */
int job_load(struct job *j, const char *path, const struct run_opts *o, struct diag *d);
void job_free(struct job *j);
/* A command over spec files (check, run): its options, then for each file
** job_load(), vet() (optional: refuse what the command cannot do, with
** the reason in d) and one(), whose exit codes are combined. */
struct spec_cmd {
	const char *name;    /* for usage messages */
	const char *allowed; /* option groups, as for cli_option */
	int json_errors;     /* with --json, input errors also go to stdout as JSON */
	int (*vet)(const struct job *j, struct diag *d);
	int (*one)(struct job *j, const struct run_opts *o, int more); /* more: another spec follows */
	int concrete; /* run_opts.concrete */
};
int cli_each_spec(const struct spec_cmd *c, int argc, char **argv);
/* Combine exit codes of several inputs: input error > violation >
** incomplete > holds. */
int exit_combine(int a, int b);

/* One spec explored as `suite` does, its outcome in a fixed-size row (a
** suite -j worker sends it whole through a pipe; check's -D sweep prints
** it). */
struct spec_row {
	char verdict[64], machine[32], prop[25], expect[64];
	int ok, error, exit;
	unsigned long long states;
	double seconds;
	double omission; /* compact mode: bound on P[some state omitted] */
};
void spec_row_run(const char *file, const struct run_opts *o, struct spec_row *w);

int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_suite(int argc, char **argv);
int cmd_print(int argc, char **argv);

#endif
