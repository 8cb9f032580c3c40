#!/bin/sh
# GPU persistency (specs/persist): each spec's declared verdict, the WPQ
# configuration flipping pcommit's necessity, and the counterexample
# showing the crash point, the durable image and the broken invariant.
. "$srcdir/t/lib.sh"
P="$SPECS/persist"
plan 10
run "$GPUMC" suite "$P"; is "$rc" 0 "gpumc suite specs/persist: every declared verdict"
v() { spec=$1; want=$2; shift 2
	got=$("$GPUMC" check -q --json "$@" "$P/$spec.gpu" 2>/dev/null | grep -o '"verdict":"[^"]*"' | cut -d'"' -f4)
	is "$got" "$want" "$spec $*: $want"; }
v T1-bug-a pass -D wpq=durable
v T1-bug-a "fail recoverable" -D wpq=volatile
v T1 pass -D wpq=durable
v T1-wt pass -D wpq=durable
run "$GPUMC" check "$P/T1-bug-a.gpu"
like "$T/out" "CRASH: power fails" "the trace ends at the crash point"
like "$T/out" "^durable image after the crash: .*out1 = 0, out2 = 24" "the durable image: out2 survived without out1"
like "$T/out" "^broken invariant: recoverable out2 == 0" "the invariant that failed"
run "$GPUMC" check "$P/T3-bug.gpu"
like "$T/out" "^durable image at the end: " "persisted: the durable image when the kernel ended"
# crash images are counted and deduplicated
"$GPUMC" check -q --json "$P/T1.gpu" > "$T/j"
[ "$(jnum crash_images "$T/j")" -ge 2 ]; ok $? "T1: distinct crash images checked ($(jnum crash_images "$T/j"))"
