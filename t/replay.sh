#!/bin/sh
# --trace writes a counterexample; gpumc replay re-runs it and shows the
# same violation.
. "$srcdir/t/lib.sh"
plan 11
S="$SPECS/baseline"
run "$GPUMC" check -q --trace "$T/fp.trail" "$S/fp32-reduction.gpu"
is "$rc" 1 "fp32 reduction violated"
head -1 "$T/fp.trail" > "$T/h"
like "$T/h" "^gpumc-trace 1$" "trace file header"
run "$GPUMC" replay "$T/fp.trail"
is "$rc" 1 "replay of the determinism counterexample: exit 1"
like "$T/out" "result A: sum = 2 " "replay shows result A"
like "$T/out" "result B: sum = [01] " "replay shows result B"
run "$GPUMC" check -q --trace "$T/dl.trail" "$S/barrier-divergence-deadlock.gpu"
run "$GPUMC" replay --json "$T/dl.trail"
is "$rc" 1 "replay of the deadlock: exit 1"
like "$T/out" '"shows":"deadlock' "json replay names the deadlock"
# the JSON report names schedule A and B as the text does
"$GPUMC" check -q --json "$S/fp32-reduction.gpu" > "$T/j"
like "$T/j" '"result":\{"sum":2[,}]' "json result (schedule A) is the first found, as in the text"
# traces replay from any directory
(cd "$T" && "$GPUMC" replay fp.trail > /dev/null 2>&1); is "$?" 1 "replay from another directory"
printf 'gpumc-trace 1\nspec x\nschedule 2\n0\tstep\n' > "$T/bad.trail"
run "$GPUMC" replay "$T/bad.trail"
is "$rc" 2 "truncated trace file: exit 2"
like "$T/err" "bad.trail:[0-9]+:[0-9]+: error: " "truncated trace file: positioned message"
