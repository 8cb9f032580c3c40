#!/bin/sh
# Bug-finding order (issue 13 item 5): --swarm N runs N depth-first
# searches in random action orders; its verdict is a violation (with a
# trace that replays) or incomplete, never pass, and the same command
# gives the same result.  A breadth-first search that hits a limit says
# so and suggests --dfs or --swarm.
. "$srcdir/t/lib.sh"
plan 12
D2="$SPECS/dab/D2.gpu"
# a violation: found, and its trace replays to it
run "$GPUMC" check -q --swarm 3 --trace "$T/s.trail" -D flush=nr "$D2"
is "$rc" 1 "--swarm on a nondeterministic design: exit 1"
like "$T/out" '^swarm: randomized depth-first search [0-9]+ found the violation$' "the report names the run"
run "$GPUMC" replay "$T/s.trail"
like "$T/out" 'deterministic sum: two schedules end with different results' "the swarm's trace replays to the violation"
# the random order is not the natural one: the first run's trace differs from --dfs's
"$GPUMC" check -q --dfs --trace "$T/d.trail" -D flush=nr "$D2" >/dev/null 2>&1
"$GPUMC" check -q --swarm 1 --trace "$T/s1.trail" -D flush=nr "$D2" >/dev/null 2>&1
! cmp -s "$T/d.trail" "$T/s1.trail"
ok $? "--swarm 1 searches in another order than --dfs"
# no violation: incomplete, never pass, even though each run saw the whole (small) space
run "$GPUMC" check -q --swarm 4 "$SPECS/baseline/int-reduction.gpu"
is "$rc" 3 "--swarm on a spec that holds: exit 3 (incomplete)"
like "$T/out" '^INCOMPLETE: 4 randomized depth-first searches \(--swarm\) found no violation$' "and says so"
run "$GPUMC" check -q --json --swarm 4 "$SPECS/baseline/int-reduction.gpu"
like "$T/out" '"verdict":"incomplete".*"limit":"--swarm".*"swarm_runs":4' "JSON: incomplete, limit --swarm, 4 runs"
cp "$T/out" "$T/first"
run "$GPUMC" check -q --json --swarm 4 "$SPECS/baseline/int-reduction.gpu"
is "$(jnum states "$T/out") $(jnum transitions "$T/out")" "$(jnum states "$T/first") $(jnum transitions "$T/first")" \
	"the same swarm twice: the same counts"
run "$GPUMC" check -q --swarm 0 "$SPECS/baseline/int-reduction.gpu"
is "$rc" 2 "--swarm 0: usage error"
# BFS near a limit: a warning on stderr (not with -q) and a hint in the report
run "$GPUMC" check --bfs --max-states 2000 --por=off -D flush=nr -D warps_per_cta=8 "$SPECS/../bench/specs/d2-scale.gpu"
like "$T/err" 'breadth-first search has used 3/4 of --max-states without a verdict; --dfs or --swarm N' \
	"BFS at 3/4 of --max-states: a warning"
like "$T/out" '^hint: breadth-first search expands every shallow state first; --dfs or --swarm N' "and a hint"
run "$GPUMC" check -q --dfs --max-states 2000 --por=off -D warps_per_cta=8 "$SPECS/../bench/specs/d2-scale.gpu"
! grep -q '^hint:' "$T/out"
ok $? "DFS hitting a limit: no hint"
