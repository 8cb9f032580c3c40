#!/bin/sh
# Kernel specs on the address-queue memory (-D memory=ics13|ics13-fixed):
# the MP stale read is unreachable on SC, reachable on ICS'13 without
# fences, unreachable with membar.gl; kernels out of the translation's
# reach are input errors naming the instruction.
. "$srcdir/t/lib.sh"
W="$SPECS/weakmem"
plan 10
v() { spec=$1; want=$2; shift 2
	got=$("$GPUMC" check -q --json "$@" "$W/$spec.gpu" 2>/dev/null | grep -o '"verdict":"[^"]*"' | cut -d'"' -f4)
	is "$got" "$want" "$spec $*: $want"; }
v mp pass -D memory=sc
v mp "fail ~exists" -D memory=ics13
v mp "fail ~exists" -D memory=ics13-fixed
v mp-fenced pass -D memory=sc
v mp-fenced pass -D memory=ics13
v mp-fenced pass -D memory=ics13-fixed
run "$GPUMC" check -D memory=ics13 "$W/mp.gpu"
like "$T/out" "propagate flag=1 from T0 to T1" "the counterexample shows the flag overtaking the data"
run "$GPUMC" check -q -D memory=ics13 "$SPECS/baseline/divergent-branch.gpu"
is "$rc" 2 "a kernel with branches: input error"
like "$T/err" "memory=ics13: '@%p0 bra EVEN' -- kernels must be straight-line" "naming the branch"
run "$GPUMC" check -q -D memory=ics13 "$SPECS/baseline/barrier.gpu"
is "$rc" 2 "shared memory / too many threads: input error"
