/* gpumc: explicit-state model checker for GPU hardware designs. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "explore/explore.h"
#include "litmus/litmus.h"
#include "machines/registry.h"
#include "util/interrupt.h"

static const char usage[] =
	"usage: gpumc COMMAND [options] ARGS...\n"
	"\n"
	"commands:\n"
	"  check  SPEC...     explore every interleaving and check the spec's properties\n"
	"                     (SPEC - : read the spec from standard input)\n"
	"  run    SPEC...     concrete mode: one timed path per seed (cycles, statistics, results)\n"
	"  litmus FILE...     allowed outcomes of GPU litmus tests under --model\n"
	"  suite  DIR...      check every *.gpu spec against its declared expectation\n"
	"  replay FILE        re-run a counterexample written by check --trace\n"
	"  list               machines, components, parameters and defaults\n"
	"  print  SPEC...     the spec as gpumc read it: canonical spec text, every\n"
	"                     value and decoded instruction written out (-D: as set lines)\n"
	"\n"
	"check options:\n"
	"  -D key=value       override a machine parameter (repeatable)\n"
	"  --crashes K        persist: a crash, then up to K-1 more during recovery (-D crashes=K)\n"
	"  --bfs | --dfs      search order (default bfs: shortest counterexamples; with\n"
	"                     --compact dfs: no frontier, bugs found deep first)\n"
	"  --compact          store 64-bit fingerprints only; prints the omission bound\n"
	"  --no-trace         with --compact --bfs: no parent links, 6 bytes a state less;\n"
	"                     a violation then prints the command that re-runs for its trace\n"
	"  --tree             exact, each state a tree of shared subvectors (a few bytes\n"
	"                     a state; one thread)\n"
	"  --check-model      verify the machine's contract on every state (deterministic\n"
	"                     enabled/apply, declared slices, component invariants)\n"
	"  --exact            store whole state vectors (the default)\n"
	"  --por=on|off       partial-order reduction: expand a state with one warp-local\n"
	"                     step when that is sound (default on; off: every interleaving)\n"
	"                     and store only the end of each chain of such steps\n"
	"                     (--por=nochain: store every state it reaches)\n"
	"  --threads N        search with N threads over one shared visited set (default:\n"
	"                     every core; --por=off, breadth-first, exact mode only, else\n"
	"                     one thread and the report says why)\n"
	"  --mpi              check only, under mpirun: the ranks share one breadth-first\n"
	"                     search, each owning the states whose hash maps to it; rank\n"
	"                     0 reports (--por=off; --dfs and --keep-going runs search\n"
	"                     alone on every rank); refused when built without MPI\n"
	"  --swarm N          N depth-first searches in random orders (fingerprints, equal\n"
	"                     shares of --time): finds bugs in spaces too large to\n"
	"                     exhaust; the verdict is fail or incomplete, never pass\n"
	"  --max-states N     stop after N states (K/M/G suffixes), verdict incomplete\n"
	"  --max-depth N      do not expand states deeper than N, verdict incomplete\n"
	"  --memory SIZE      stop when the checker's storage reaches SIZE (e.g. 512M;\n"
	"                     default 3/4 of physical memory)\n"
	"  --time SECONDS     stop after SECONDS\n"
	"  --progress[=S]     progress line on stderr every S seconds (--progress alone:\n"
	"                     every second; without the option: every 5 seconds)\n"
	"  --trace FILE       write the counterexample (or exists witness) for gpumc replay\n"
	"  --values           under each step of a trace, the memory it changed\n"
	"  --outcomes         every distinct final valuation of the observed locations,\n"
	"                     with how many terminal states end with it (herd-style)\n"
	"  --dot FILE         write the counterexample as a Graphviz graph (dot -Tpng)\n"
	"  --json             machine-readable output\n"
	"  -q, --quiet        no progress lines\n"
	"\n"
	"run options: -D, --runs N, --seed S, --max-cycles N (default 1G), --json,\n"
	"  --timeline FILE (the first run as Chrome trace-event JSON: chrome://tracing),\n"
	"  --threads N (the runs on N threads, default every core; the same report)\n"
	"\n"
	"suite options: -D, --bfs, --dfs, --compact, --max-states, --max-depth, --memory,\n"
	"  --time, --threads, --json, -j N (N specs at once, rows still in order)\n"
	"\n"
	"print options: -D (each override is printed as a set line)\n"
	"\n"
	"SIGINT or SIGTERM stops any command with the statistics so far, verdict\n"
	"incomplete (a second one kills at once)\n"
	"\n"
	"exit codes: 0 all properties hold, 1 a property is violated, 2 usage or input\n"
	"error, 3 incomplete (a limit was hit or the run was interrupted, nothing\n"
	"violated so far)\n"
	"see gpumc(1), gpumc-spec(5), gpumc-litmus(5), gpumc-machines(7), and to start\n"
	"gpumc-tutorial(7)\n";

/* The part of the usage text about one command: its line and its options. */
static int command_help(const char *cmd)
{
	char head[32];
	snprintf(head, sizeof head, "  %s ", cmd);
	const char *line = strstr(usage, head);
	if (!line) {
		fprintf(stderr, "gpumc: unknown command '%s'\n%s", cmd, usage);
		return EXIT_INPUT;
	}
	/* its description (continuation lines included) */
	const char *end = line;
	do
		end = strchr(end, '\n') + 1;
	while (!strncmp(end, "     ", 5));
	printf("usage: gpumc %s [options] %s\n%.*s", cmd, !strcmp(cmd, "list") ? "" : !strcmp(cmd, "suite") ? "DIR..."
	       : !strcmp(cmd, "replay") ? "FILE" : "SPEC...", (int)(end - line), line);
	char opts[32];
	snprintf(opts, sizeof opts, "\n%s options", cmd);
	const char *o = strstr(usage, opts);
	if (o) {
		const char *stop = strstr(o + 1, "\n\n");
		printf("%.*s\n", (int)(stop ? stop - o : (long)strlen(o)), o);
	}
	puts("\nexit codes: 0 holds, 1 violated, 2 usage or input error, 3 incomplete; see gpumc(1)");
	return EXIT_HOLDS;
}

static int dispatch(const char *cmd, int argc, char **argv);
static int output_checked(int rc);

int main(int argc, char **argv)
{
	interrupt_install();
	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_INPUT;
	}
	const char *cmd = argv[1];
	return output_checked(dispatch(cmd, argc, argv));
}

/* The command's exit code, unless its output could not be written (a full
** disk, a closed stdout): then a report was lost, which is an error. */
static int output_checked(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "gpumc: cannot write the output: %s\n", strerror(errno ? errno : EIO));
		return EXIT_INPUT;
	}
	return rc;
}

static int dispatch(const char *cmd, int argc, char **argv)
{
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return EXIT_HOLDS;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version") || !strcmp(cmd, "-V")) {
		puts(PACKAGE_STRING);
		return EXIT_HOLDS;
	}
	/* `gpumc check --help`, `gpumc run -V`: as for the program, per command */
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			puts(PACKAGE_STRING);
			return EXIT_HOLDS;
		}
		if ((!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) && strcmp(cmd, "litmus"))
			return command_help(cmd);
	}
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "replay"))
		return cmd_replay(argc - 1, argv + 1);
	if (!strcmp(cmd, "suite"))
		return cmd_suite(argc - 1, argv + 1);
	if (!strcmp(cmd, "litmus"))
		return litmus_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "print"))
		return cmd_print(argc - 1, argv + 1);
	if (!strcmp(cmd, "list")) {
		int json = argc > 2 && !strcmp(argv[2], "--json");
		if (argc > 2 + json) {
			fprintf(stderr, "gpumc list: unexpected argument '%s'\n", argv[2 + json]);
			return EXIT_INPUT;
		}
		registry_print(stdout, json);
		return EXIT_HOLDS;
	}
	fprintf(stderr, "gpumc: unknown command '%s'\n%s", cmd, usage);
	return EXIT_INPUT;
}
