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

static const char usage[] =
	"usage: gpumc COMMAND [options] ARGS...\n"
	"\n"
	"commands:\n"
	"  check  SPEC...     explore every interleaving and check the spec's properties\n"
	"  run    SPEC...     concrete mode: one timed path per seed (cycles, statistics, results)\n"
	"  litmus FILE...     allowed outcomes of GPU litmus tests under --model\n"
	"  suite  DIR...      check every *.gpu spec against its declared expectation\n"
	"  replay FILE        re-run a counterexample written by check --trace\n"
	"  list               machines, components, parameters and defaults\n"
	"\n"
	"check options:\n"
	"  -D key=value       override a machine parameter (repeatable)\n"
	"  --bfs | --dfs      search order (default bfs: shortest counterexamples)\n"
	"  --compact          store 64-bit fingerprints only; prints the omission bound\n"
	"  --check-model      verify the machine's contract on every state (deterministic\n"
	"                     enabled/apply, declared slices, component invariants)\n"
	"  --exact            store whole state vectors (the default)\n"
	"  --max-states N     stop after N states (K/M/G suffixes), verdict incomplete\n"
	"  --max-depth N      do not expand states deeper than N, verdict incomplete\n"
	"  --memory SIZE      stop when the checker's storage reaches SIZE (e.g. 512M;\n"
	"                     default 3/4 of physical memory)\n"
	"  --time SECONDS     stop after SECONDS\n"
	"  --progress[=S]     progress line on stderr every S seconds (--progress alone:\n"
	"                     every second; without the option: every 5 seconds)\n"
	"  --trace FILE       write the counterexample for gpumc replay\n"
	"  --json             machine-readable output\n"
	"  -q, --quiet        no progress lines\n"
	"\n"
	"run options: -D, --runs N, --seed S, --max-cycles N (default 1G), --json\n"
	"\n"
	"exit codes: 0 all properties hold, 1 a property is violated, 2 usage or input\n"
	"error, 3 incomplete (a limit was hit, nothing violated so far)\n"
	"see gpumc(1), gpumc-spec(5), gpumc-litmus(5), gpumc-machines(7)\n";

/* SIGINT, SIGTERM: finish like a limit (exit 3, the report so far); a
** second one kills as usual. */
static void on_signal(int sig)
{
	explore_interrupted = sig;
}

static int dispatch(const char *cmd, int argc, char **argv);
static int output_checked(int rc);

int main(int argc, char **argv)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = (int)SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
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
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		puts(PACKAGE_STRING);
		return EXIT_HOLDS;
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
