#!/bin/sh
# gpumc suite: every bundled spec matches its declared verdict; a spec whose
# expectation is wrong makes the suite fail.
. "$srcdir/t/lib.sh"
plan 9
run "$GPUMC" suite "$SPECS"
is "$rc" 0 "specs/: every verdict as expected"
like "$T/out" "([0-9]+) specs, \1 as expected, 0 mismatches" "summary line"
# depth-first, exact and compact, reach the same verdicts
run "$GPUMC" suite --dfs "$SPECS"
is "$rc" 0 "specs/ --dfs: every verdict as expected"
run "$GPUMC" suite --dfs --compact "$SPECS"
is "$rc" 0 "specs/ --dfs --compact: every verdict as expected"
like "$T/out" "^baseline/fp32-reduction.gpu +baseline +deterministic +sum +fail deterministic +fail deterministic" "row: spec, machine, property, expected, verdict"
mkdir "$T/s"
sed 's/^expect fail deterministic/expect pass/' "$SPECS/baseline/fp32-reduction.gpu" > "$T/s/wrong.gpu"
cp "$SPECS/baseline/int-reduction.gpu" "$T/s/"
run "$GPUMC" suite "$T/s"
is "$rc" 1 "a wrong expectation: exit 1"
like "$T/out" "MISMATCH" "mismatch flagged"
run "$GPUMC" suite --json "$SPECS/baseline"
like "$T/out" '"mismatches":0' "json summary"
run "$GPUMC" suite "$T/nonexistent"
is "$rc" 2 "missing directory: exit 2"
