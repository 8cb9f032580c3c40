#!/bin/sh
# The progress check's move graph (issue 8 perf): breadth-first search
# records the moves only from the first move that does not go one level
# deeper on (explore.c); the check re-expands the states before it and
# joins the recorded rows (progress.c append_rows), and takes the
# terminal and faulted states from the search (progress_graph.ended).
# The same stuck count as the searches that record nothing (--threads 2
# re-expands every state; --dfs likewise), with and without POR, and a
# lasso that replays.  The counts are those of the searches that record
# nothing, which main's check re-expanded in full: spin-some 14 stuck of
# 60 states (thread 0 spinning once the flag is 0 for good), spin-never 5
# of 5, self-loop 1 of 1 (L: bra L), spin-finishes none.  A join that
# drops the recorded rows' offset reports 59 and 46 stuck states here.
. "$srcdir/t/lib.sh"
P="$srcdir/t/progress"
plan 22

stuck() { # stuck OPTIONS... SPEC: "stuck N" or "pass"; the trace in $T/trail
	"$GPUMC" check -q --trace "$T/trail" "$@" > "$T/out" 2>&1
	n=$(sed -n 's/^VIOLATED: progress: \([0-9]*\) reachable state.*/\1/p' "$T/out")
	if [ -n "$n" ]; then echo "stuck $n"; elif grep -q '^verdict: pass' "$T/out"; then echo pass; else echo "error"; fi
}

for row in "spin-some:stuck 14" "spin-never:stuck 5" "self-loop:stuck 1" "spin-finishes:pass"; do
	f=${row%%:*} want=${row#*:}
	is "$(stuck --por=off --threads 1 "$P/$f.gpu")" "$want" "$f: bfs, recorded moves: $want"
	if [ "$want" != pass ]; then
		"$GPUMC" replay "$T/trail" > "$T/rep" 2>&1
		like "$T/rep" "^replay: progress: steps [0-9.]+ return" "$f: the lasso replays"
	fi
	is "$(stuck --por=off --threads 2 "$P/$f.gpu")" "$want" "$f: 2 threads, re-expanded: $want"
	is "$(stuck --por=off --dfs "$P/$f.gpu")" "$want" "$f: dfs, re-expanded: $want"
	# with POR the reduced graph has fewer states; both searches agree
	a=$(stuck --threads 1 "$P/$f.gpu")
	is "$(stuck --dfs "$P/$f.gpu" | sed 's/[0-9]*$//')" "$(echo "$a" | sed 's/[0-9]*$//')" "$f: por, bfs and dfs agree on the verdict ($a)"
done
# the reduced graph's count (--por=nochain: chains store fewer), pinned: 10 of spin-some's 43 reduced states (t/perf.sh: the BFS proviso numbers successors after the state)
is "$(stuck --por=nochain --threads 1 "$P/spin-some.gpu")" "stuck 10" "spin-some: por, bfs: stuck 10"
# a large cyclic search: recorded from deep in the graph, the same count as re-expanded
is "$(stuck --por=off --threads 1 "$srcdir/t/limits/progress.gpu")" pass "limits/progress: bfs, recorded: pass"
is "$(stuck --por=off --threads 2 "$srcdir/t/limits/progress.gpu")" pass "limits/progress: 2 threads: pass"
