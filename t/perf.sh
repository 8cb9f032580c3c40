#!/bin/sh
# Issue 8 (speed and one of each): the progress check without re-expansion,
# parameters applied once.  Expected values are the ones t/honest.sh pins
# for the full check, and hand counts below.
. "${srcdir:-.}/t/lib.sh"
plan 14
P="$srcdir/t/progress"

# 1. The progress check decides from the moves the search made: BFS
# records them, DFS re-expands only when it saw a move back onto its
# stack.  Both orders, reduced or not, give the stuck counts of the full
# check (spin-never: ld, setp, bra twice over = 5; spin-some: 14 without
# partial-order reduction; with it, of the reduced graph's states, 10 under
# BFS and 9 under DFS, whose cycle provisos differ since warp 1's exit is
# a local step).
for o in --bfs --dfs; do
	run "$GPUMC" check -q --json --por=nochain $o "$P/spin-never.gpu" # chains: 4 stored
	is "$(jnum stuck_states "$T/out")" 5 "spin-never $o: 5 stuck states"
	run "$GPUMC" check -q --json --por=off $o "$P/spin-some.gpu"
	is "$(jnum stuck_states "$T/out")" 14 "spin-some $o --por=off: 14 stuck states"
	run "$GPUMC" check -q --json --por=nochain $o "$P/spin-some.gpu"
	stuck=10
	[ $o = --dfs ] && stuck=9
	is "$(jnum stuck_states "$T/out")" $stuck "spin-some $o (reduced): $stuck stuck states"
done
# a cycle that can still be left is no livelock, in either order
for o in --bfs --dfs; do
	run "$GPUMC" check -q --json $o "$P/spin-finishes.gpu"
	is "$(jnum stuck_states "$T/out")" 0 "spin-finishes $o: the loop can be left: 0 stuck"
done
# an acyclic graph (barrier.gpu: straight-line warps) is checked for free
# and says so; its BFS graph has moves that do not go one level deeper
# (persist T1: a write-back that may come before or after), which is no
# cycle: the recorded moves show that
run "$GPUMC" check -q --por=off "$SPECS/baseline/barrier.gpu"
like "$T/out" "progress: every reachable state can reach a terminal state" "barrier: progress checked (acyclic)"
run "$GPUMC" check -q --json --bfs "$SPECS/persist/T1.gpu"
is "$(jnum stuck_states "$T/out")" 0 "persist T1 --bfs: recorded graph, 0 stuck"
# the lasso from a recorded BFS graph replays
run "$GPUMC" check -q --bfs --por=nochain --trace "$T/s.trail" "$P/spin-some.gpu"
run "$GPUMC" replay "$T/s.trail"
like "$T/out" "replay: progress: steps 10..12 return to the state after step 9" "spin-some --bfs: the lasso replays"

# 2. registry_build applies the parameters once: -D machine=baseline on a
# DAB spec warns once about each DAB setting (it warned twice: a quiet
# first pass chose the weak-memory family)
run "$GPUMC" check -q -D machine=baseline "$SPECS/dab/D2.gpu"
is "$(grep -c "ignoring 'buffer'" "$T/err")" 1 "one warning for buffer, not two"
is "$(grep -c 'warning' "$T/err")" 4 "four settings, four warnings"
# the family is still chosen by memory=
run "$GPUMC" check -q --json --threads 1 -D memory=ics13 "$SPECS/weakmem/mp.gpu"
is "$(jnum states "$T/out")" 108 "memory=ics13 still builds the address-queue machine (108 states, golden)"
