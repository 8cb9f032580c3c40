#!/bin/sh
# Chains of local steps (src/explore/chain.c): only a chain's end is
# stored, but every trace lists every action, so `gpumc replay` re-runs
# each counterexample to its recorded verdict, in every search mode and
# for every property kind whose trace crosses chains: a race (state
# property), a determinism violation (two traces), a livelock (a lasso
# whose loop start moves when its chains unfold; spin-never's is a loop
# of local steps only, cut by CHAIN_MAX), and no livelock where a loop
# finishes.  And --por=nochain and --por=on
# agree on the verdicts (t/por.sh compares them over every bundled spec).
. "$srcdir/t/lib.sh"
plan 23
for mode in "--bfs" "--dfs" "--threads 2"; do
	for s in "$SPECS/dab/R1-race.gpu race_free" "$SPECS/baseline/fp32-reduction.gpu deterministic" \
		"$srcdir/t/progress/spin-some.gpu progress" "$srcdir/t/progress/spin-never.gpu progress"; do
		spec=${s% *} kind=${s##* }
		# shellcheck disable=SC2086
		run "$GPUMC" check $mode --trace "$T/tr" "$spec"
		run "$GPUMC" replay "$T/tr"
		like "$T/out" "^replay: $kind[ :].*\\(recorded verdict: fail $kind\\)\$" \
			"$(basename "$spec") $mode: the trace through chains replays to fail $kind"
	done
done
# the progress check re-expands stored states (DFS, threads, --tree) and
# follows a successor not stored along its chain (CH-4): without that,
# the chain moves are missing and a loop that finishes is a livelock
for mode in "--bfs" "--dfs" "--threads 2" "--tree"; do
	# shellcheck disable=SC2086
	run "$GPUMC" check $mode "$srcdir/t/progress/spin-finishes.gpu"
	like "$T/out" '^verdict: pass' "spin-finishes $mode: no livelock through chains"
done
# chains on and off: the same verdict and terminal states on the twins
for spec in "$srcdir/bench/specs/lane-reduction.gpu" "$srcdir/bench/specs/ticket-counter.gpu"; do
	run "$GPUMC" check --json -q "$spec"
	on="$(jnum terminal_states "$T/out") $(grep -o '"verdict":"[^"]*"' "$T/out")"
	s_on=$(jnum states "$T/out")
	run "$GPUMC" check --json -q --por=nochain "$spec"
	is "$(jnum terminal_states "$T/out") $(grep -o '"verdict":"[^"]*"' "$T/out")" "$on" "$(basename "$spec"): chains keep verdict and terminals"
	[ "$s_on" -lt "$(jnum states "$T/out")" ]
	ok $? "$(basename "$spec"): $s_on states with chains < $(jnum states "$T/out") without"
done
# --max-depth counts moves, as the depth reported does (a chain is one):
# a bound at the depth is complete; --por=bad is refused
d=$("$GPUMC" check -q --json "$srcdir/bench/specs/lane-reduction.gpu" | grep -o '"depth":[0-9]*' | cut -d: -f2)
run "$GPUMC" check -q --max-depth "$d" "$srcdir/bench/specs/lane-reduction.gpu"
like "$T/out" '^verdict: pass' "--max-depth $d (the depth with chains): complete"
run "$GPUMC" check -q --por=chains "$srcdir/bench/specs/lane-reduction.gpu"
like "$T/err" "expects on, nochain or off" "--por=chains refused"
run "$GPUMC" check -q --check-model "$srcdir/bench/specs/lane-reduction.gpu"
like "$T/out" '^partial-order reduction: [0-9]+ of [0-9]+ states expanded with one action alone$' \
	"--check-model: no chains (the contract on every state)"
