#!/bin/sh
# GPU persistency (specs/persist): each spec's declared verdict, the WPQ
# configuration flipping pcommit's necessity, and the counterexample
# showing the crash point, the durable image and the broken invariant.
. "$srcdir/t/lib.sh"
P="$SPECS/persist"
plan 15
run "$GPUMC" suite "$P"; is "$rc" 0 "gpumc suite specs/persist: every declared verdict"
v() { spec=$1; want=$2; shift 2
	got=$("$GPUMC" check -q --json "$@" "$P/$spec.gpu" 2>/dev/null | grep -o '"verdict":"[^"]*"' | cut -d'"' -f4)
	is "$got" "$want" "$spec $*: $want"; }
v T1-bug-a pass -D wpq=durable
v T1-bug-a "fail durable" -D wpq=volatile
v T1 pass -D wpq=durable
v T1-wt pass -D wpq=durable
run "$GPUMC" check "$P/T1-bug-a.gpu"
like "$T/out" "CRASH: power fails" "the trace ends at the crash point"
like "$T/out" "^durable image after the crash: .*out1 = 0, out2 = 24" "the durable image: out2 survived without out1"
like "$T/out" "^broken invariant: durable out2 == 0" "the invariant that failed"
run "$GPUMC" check "$P/T3-bug.gpu"
like "$T/out" "^durable image at the end: " "persisted: the durable image when the kernel ended"
# replay re-checks what the crash left (it said "no violation" before)
"$GPUMC" check -q --trace "$T/t1.trail" "$P/T1-bug-a.gpu" > /dev/null
run "$GPUMC" replay "$T/t1.trail"
is "$rc" 1 "replay of a crash counterexample: exit 1"
# a crash is always possible but is no progress: deadlocks are still found
run "$GPUMC" check -q -D machine=persist "$SPECS/baseline/barrier-divergence-deadlock.gpu"
is "$rc" 1 "a deadlock on the persist machine is reported"
# concrete mode never takes a crash, and ends when the kernel does
run "$GPUMC" run --max-cycles 100000 "$P/T1.gpu"
is "$rc" 0 "gpumc run on persist finishes (no crash taken)"
like "$T/out" "finished after" "and says so"
# persistency properties on a machine without a persistence domain
run "$GPUMC" check -q -D machine=baseline "$P/T1.gpu"
is "$rc" 2 "durable/persisted on the baseline: input error, not a silent pass"
# crash images are counted and deduplicated
"$GPUMC" check -q --json "$P/T1.gpu" > "$T/j"
[ "$(jnum crash_images "$T/j")" -ge 2 ]; ok $? "T1: distinct crash images checked ($(jnum crash_images "$T/j"))"
