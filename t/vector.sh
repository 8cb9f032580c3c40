#!/bin/sh
# Issue 13 (smaller states, vec14): bytes that are the same in every state
# stay out of the vector, and nothing the user sees changes.
#  1. A register no instruction writes has no row in the warp record
#     (program_reg_slots): it reads 0, as before, and prints with its
#     value; declaring more unused registers costs no byte.
. "${srcdir:-.}/t/lib.sh"
plan 5
C="check -q --json --por=off --threads 1"

kernel() { # kernel NAME REGDECL: lane 1 adds 7 to a register never written
	cat <<EOS
name "$1"
machine baseline
set ctas = 1
set warps_per_cta = 1
set threads_per_warp = 2

global .u32 out[2]

kernel
    .reg .u32 $2
    .reg .u32 %a
    mul.lo.u32      %a, %tid, 4
    add.u32         %r1, %r0, 7
    st.global.u32   [out + %a], %r1
    exit
end

check forall 1:%r0 == 0 /\ 1:%r1 == 7 /\ out[1] == 7
expect pass
EOS
}
kernel four '%r<4>' >"$T/four.gpu"
kernel two '%r<2>' >"$T/two.gpu"
run "$GPUMC" $C "$T/four.gpu"
four=$(jnum state_vector_bytes "$T/out")
like "$T/out" '"verdict":"pass"' "unwritten %r0 reads 0: 1:%r0 == 0, 1:%r1 == 7"
run "$GPUMC" $C "$T/two.gpu"
is "$four" "$(jnum state_vector_bytes "$T/out")" "%r2, %r3 declared, never written: no vector bytes (2 registers x 2 lanes x 4 before)"
run "$GPUMC" check "$T/four.gpu"
like "$T/out" 'final values: 1:%r0 = 0, 1:%r1 = 7, out\[1\] = 7' "the unwritten register prints with its value"
sed 's/1:%r0 == 0/1:%r0 == 1/' "$T/four.gpu" >"$T/bad.gpu"
run "$GPUMC" check -q "$T/bad.gpu"
is "$rc" 1 "1:%r0 == 1 fails: the condition reads the 0"
run "$GPUMC" check -q --check-model "$T/four.gpu"
is "$rc" 0 "--check-model: the smaller warp record keeps every invariant"
