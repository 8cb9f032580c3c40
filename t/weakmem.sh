#!/bin/sh
# Kernel specs on the address-queue memory (-D memory=ics13|ics13-fixed):
# the MP stale read is unreachable on SC, reachable on ICS'13 without
# fences, unreachable with membar.gl; kernels out of the translation's
# reach are input errors naming the instruction.
. "$srcdir/t/lib.sh"
W="$SPECS/weakmem"
plan 15
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
# Folded registers (constants computed in the translation) are the
# kernel's values too: a guarded-off ld keeps the register's value (7, not
# the litmus thread's initial 0), and a mov after the last memory access
# is in the final registers.  Failed before the fix: r2 = 0, r1 = 0.
cat >"$T/folded.gpu" <<'EOS'
name "folded"
machine baseline
set sms = 2
set ctas = 2
set threads_per_warp = 1
global .u32 x = 0
global .u32 y = 0
kernel
    .reg .u32 %r<3>
    .reg .pred %p<2>
    setp.eq.u32 %p0, %ctaid, 0
    @%p0 st.global.u32 [x], 1
    @%p0 membar.gl
    @%p0 st.global.u32 [y], 1
    mov.u32 %r2, 7
    @!%p0 ld.global.u32 %r0, [y]
    setp.eq.u32 %p1, %r0, 1
    @%p1 ld.global.u32 %r2, [x]
    mov.u32 %r1, 5
end
check forall 1:%r1 == 5 /\ (1:%r0 == 1 \/ 1:%r2 == 7) /\ 0:%r2 == 7
EOS
for m in sc ics13 ics13-fixed; do verdict "$T/folded.gpu" pass -D memory=$m; done
run "$GPUMC" check -q --outcomes -D memory=ics13 "$T/folded.gpu"
like "$T/out" "1:%r1 = 5, 1:%r0 = 0, 1:%r2 = 7, 0:%r2 = 7" "the flag not seen: r2 keeps 7, r1 is 5"
like "$T/out" "1:%r1 = 5, 1:%r0 = 1, 1:%r2 = 1, 0:%r2 = 7" "the flag seen: r2 is the data (membar.gl)"
