#!/bin/sh
# Both searches find every kind of violation, exact and --compact, with a
# trace that replays to it.  Regressions for two blind spots issue 8 found
# by planting bugs that left every test green: DFS never reporting a
# deadlock, and invariants judged in final states only.
. "$srcdir/t/lib.sh"
plan 28
DL="$SPECS/baseline/barrier-divergence-deadlock.gpu"
MID="$srcdir/t/good/invariant-mid-run.gpu"
for mode in "--bfs" "--dfs" "--bfs --compact" "--dfs --compact"; do
	tag=$(echo "$mode" | tr -d ' -')
	# shellcheck disable=SC2086
	run "$GPUMC" check -q --json $mode --trace "$T/dl.$tag" "$DL"
	is "$rc" 1 "deadlock $mode: exit 1"
	like "$T/out" '"verdict":"fail deadlock_free"' "deadlock $mode: reported as deadlock_free"
	# the trace: the three steps that bring lanes 0-1 to the barrier
	like "$T/out" '"trace":\[(\{[^]]*\},){2}\{[^]]*bar\.sync 0"\}\]' "deadlock $mode: 3-step trace ending at bar.sync"
	run "$GPUMC" replay "$T/dl.$tag"
	like "$T/out" "^replay: deadlock_free: " "deadlock $mode: the trace replays to the deadlock"
	# shellcheck disable=SC2086
	run "$GPUMC" check -q --json $mode --trace "$T/mid.$tag" "$MID"
	like "$T/out" '"verdict":"fail invariant"' "mid-run invariant $mode: reported"
	like "$T/out" '"final_state":"  busy = 1' "mid-run invariant $mode: the trace ends where busy = 1"
	run "$GPUMC" replay "$T/mid.$tag"
	like "$T/out" "^replay: invariant busy == 0: " "mid-run invariant $mode: the trace replays to it"
done
