#!/bin/sh
# check refines MACHINE / check equals MACHINE: outcome sets of two
# machines on one kernel, with the reference explored first.
. "$srcdir/t/lib.sh"
plan 27

# DAB fusion combines a warp's buffered fp32 atomics to one address before
# the flush: sum + (1 + 1e8 + -1e8) instead of ((sum + 1) + 1e8) + -1e8.
# From sum = 1 the baseline (one thread, atomics in program order) ends with
# 0 and nothing else; the fused partial is 1e8 - 1e8 = 0, so DAB ends with 1.
cat > "$T/fuse.gpu" <<'SPEC'
machine dab
set fusion = on
set ctas = 1
set warps_per_cta = 1
set threads_per_warp = 1
global .f32 sum = 1.0
kernel
    red.global.add.f32 [sum], 1.0
    red.global.add.f32 [sum], 1e8
    red.global.add.f32 [sum], -1e8
    exit
end
check refines baseline sum
SPEC
run "$GPUMC" check "$T/fuse.gpu"
is "$rc" 1 "fusion: a DAB outcome the baseline cannot produce: exit 1"
like "$T/out" "^VIOLATED: refines baseline sum: a final state with an outcome that machine baseline never reaches: sum = 1 " "names the outcome"
like "$T/out" "partition 0 performs the flushed atomic" "with the trace that reaches it"
like "$T/out" "^verdict: fail refines" "verdict names refines"
run "$GPUMC" check -D fusion=off "$T/fuse.gpu"
is "$rc" 0 "no fusion: every DAB outcome is a baseline outcome"
like "$T/out" "refines baseline sum: machine baseline reaches 1 outcome \(5 states\)" "reports the reference run"
run "$GPUMC" check --dfs --compact -D fusion=off "$T/fuse.gpu"
is "$rc" 0 "the same under --dfs --compact"

# The order-sensitive fp32 reduction of specs/dab/S1: DAB fixes one order,
# the baseline reaches three sums, so DAB refines it but does not equal it.
sed -e '/^check /d' -e '/^expect /d' "$SPECS/dab/S1-atomic-order.gpu" > "$T/s1.gpu"
{ cat "$T/s1.gpu"; echo "check refines baseline sum"; } > "$T/s1r.gpu"
run "$GPUMC" check "$T/s1r.gpu"
is "$rc" 0 "S1: DAB refines the baseline"
like "$T/out" "machine baseline reaches 3 outcomes" "the baseline reaches 3 sums"
{ cat "$T/s1.gpu"; echo "check equals baseline sum"; } > "$T/s1e.gpu"
run "$GPUMC" check "$T/s1e.gpu"
is "$rc" 1 "S1: DAB does not equal the baseline"
like "$T/out" "^VIOLATED: equals baseline sum: machine baseline reaches sum = [12] \(0x[0-9a-f]+\), which machine dab never reaches" "names a baseline outcome DAB never reaches"
like "$T/out" "no trace here" "says why there is no trace"
run "$GPUMC" check -D scheduler=gto "$T/s1e.gpu"
is "$rc" 0 "S1 under GTO (not determinism-aware): DAB reaches all three baseline sums, equals holds"

# A machine equals itself; settings it has apply to the reference too.
sed -e '/^check /d' -e '/^expect /d' "$SPECS/baseline/fp32-reduction.gpu" > "$T/b.gpu"
{ cat "$T/b.gpu"; echo "check equals baseline"; } > "$T/be.gpu"
run "$GPUMC" check "$T/be.gpu"
is "$rc" 0 "baseline equals baseline (default observables)"
like "$T/out" "equals baseline: machine baseline reaches [0-9]+ outcome" "reports the reference"

# a limit in the reference run: incomplete, never pass (--por=off: the
# reduced baseline graph, 5 states, is smaller than DAB's, 9)
run "$GPUMC" check -D fusion=off --por=off --max-states 10 "$T/fuse.gpu"
is "$rc" 3 "reference cut short by --max-states: exit 3"
like "$T/out" "INCOMPLETE: --max-states in the reference run of machine baseline" "says which run hit the limit"

# the trace replays to the same violation
run "$GPUMC" check --trace "$T/fuse.trail" "$T/fuse.gpu"
run "$GPUMC" replay "$T/fuse.trail"
is "$rc" 1 "replay of the refines counterexample: exit 1"
like "$T/out" "replay: refines baseline sum: a final state with an outcome that machine baseline never reaches: sum = 1 " "replay shows the same violation"

# --json
run "$GPUMC" check --json "$T/fuse.gpu"
like "$T/out" '"failed":\{"kind":"refines"' "JSON names the failed kind"

# expect lines
{ cat "$T/fuse.gpu"; echo "expect fail refines"; } > "$T/fx.gpu"
run "$GPUMC" check "$T/fx.gpu"
like "$T/out" "\(expected: fail refines\)$" "expect fail refines parses and matches"

# errors at file:line:col
sed 's/^check refines baseline sum/check refines nosuch sum/' "$T/fuse.gpu" > "$T/e1.gpu"
run "$GPUMC" check "$T/e1.gpu"
is "$rc" 2 "unknown reference machine: exit 2"
like "$T/err" "e1.gpu:13:15: error: unknown machine 'nosuch'" "positioned at the machine's name"
sed 's/^check refines baseline sum/check refines/' "$T/fuse.gpu" > "$T/e2.gpu"
run "$GPUMC" check "$T/e2.gpu"
is "$rc" 2 "refines without a machine: exit 2"
like "$T/err" "e2.gpu:13:14: .*reference machine" "says what is missing"
sed 's/^check refines baseline sum/check equals baseline nosuch/' "$T/fuse.gpu" > "$T/e3.gpu"
run "$GPUMC" check "$T/e3.gpu"
is "$rc" 2 "unknown location: exit 2"
like "$T/err" "e3.gpu:13:23:" "positioned at the location"
