#!/bin/sh
# A register instruction that can fault (div, rem: x/0) faults its warp at
# its own pc, the warp not moved past it (WARP-3), in concrete and in
# exhaustive mode: warp.c's issue moves a warp past a decoded register
# instruction before its loop only where it cannot fault (PC_ALU).
# (Planting PC_ALU on div and rem turns every row red: the warp moves on,
# lane 1's fault is lost and the kernel finishes.)
. "$srcdir/t/lib.sh"
plan 4

# div0 INSTR: one warp (of 32 lanes: $W), lane l's divisor vals[l % 4] (lane 1's 0)
W="-D sms=1 -D ctas=1 -D warps_per_cta=1 -D threads_per_warp=32"
div0() {
	cat > "$T/k.gpu" <<SPEC
machine baseline
global .u32 vals[4] = { 3, 0, 7, 11 }
global .u32 out = 0
kernel
    .reg .u32 %r<3>
    and.b32        %r0, %tid, 3
    shl.b32        %r0, %r0, 2
    ld.global.u32  %r1, [vals + %r0]
    $1
    st.global.u32  [out], %r2
    exit
end
check forall out == 0
SPEC
}
for op in div rem; do
	div0 "$op.u32 %r2, 100, %r1"
	run "$GPUMC" run --runs 1 --seed 1 $W "$T/k.gpu"
	like "$T/out" "warp 0: FAULT at pc 3 .*integer division by zero" "run: $op by 0 faults at its own pc"
	run "$GPUMC" check $W "$T/k.gpu"
	like "$T/out" "warp 0: FAULT at pc 3 .*integer division by zero" "check: $op by 0 faults at its own pc"
done
