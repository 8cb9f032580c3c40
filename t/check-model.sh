#!/bin/sh
# gpumc check --check-model: every bundled spec's machine keeps its contract
# (deterministic enabled/apply, declared slices, component invariants) on
# every state, and the verdicts are the declared ones.
. "$srcdir/t/lib.sh"
plan 4
for d in baseline dab persist weakmem; do
	run "$GPUMC" suite --check-model "$SPECS/$d"
	is "$rc" 0 "specs/$d under --check-model: every verdict as declared, no contract broken"
done
