#!/bin/sh
# The shared PTX decoder (src/ir/ptx.c) as both front ends report it: a
# misspelt opcode or modifier gets "did you mean", every bad instruction
# of a file is reported with its file:line:col in one run (kernel specs
# and litmus tests alike), and the same bad instruction gives the same
# message through `gpumc check` and `gpumc litmus`.
. "$srcdir/t/lib.sh"
plan 14
# six bad instructions, the same ones in both files
cat >"$T/k.gpu" <<'SPEC'
global .u32 x = 0
kernel
    .reg .u32 %r<2>
    .reg .pred %p<1>
    mvo.u32 %r0, 1
    ld.glbal.u32 %r1, [x]
    ld.global.wb.u32 %r1, [x]
    setp.u32 %p0, %r0, 1
    membar
    atom.global.u32 %r0, [x], 1
end
check exists x == 0
SPEC
cat >"$T/l.litmus" <<'LITMUS'
GPU_PTX bad
T0                       | T1
mvo.u32 r0, 1            | ld.glbal.u32 r1, [x]
ld.global.wb.u32 r1, [x] | setp.u32 p0, r0, 1
membar                   | atom.global.u32 r0, [x], 1
exists (1:r1=0)
LITMUS
run "$GPUMC" check "$T/k.gpu"
cp "$T/err" "$T/k.err"
is "$rc" 2 "kernel spec: exit 2"
like "$T/k.err" "^$T/k.gpu:5:5: error: unknown instruction 'mvo' \(did you mean 'mov'\?\)$" \
	"kernel spec: misspelt opcode, did you mean"
like "$T/k.err" "^$T/k.gpu:6:5: error: unknown modifier '\.glbal' on 'ld' \(did you mean '\.global'\?\)$" \
	"kernel spec: misspelt modifier, did you mean"
is "$(grep -c "^$T/k.gpu:[0-9]*:5: error: " "$T/k.err")" 6 "kernel spec: all six errors, each at file:line:col"
run "$GPUMC" litmus "$T/l.litmus"
cp "$T/err" "$T/l.err"
is "$rc" 2 "litmus: exit 2"
like "$T/l.err" "^$T/l.litmus:3:1: error: unknown instruction 'mvo' \(did you mean 'mov'\?\)$" \
	"litmus: misspelt opcode, did you mean"
like "$T/l.err" "^$T/l.litmus:3:28: error: unknown modifier '\.glbal' on 'ld' \(did you mean '\.global'\?\)$" \
	"litmus: misspelt modifier, did you mean"
is "$(grep -c "^$T/l.litmus:[0-9]*:[0-9]*: error: " "$T/l.err")" 6 "litmus: all six errors, each at file:line:col"
# the same words through both front ends (in file order: row by row in the litmus file)
msgs() { sed 's/^[^:]*:[0-9]*:[0-9]*: error: //' "$1" | sort; }
is "$(msgs "$T/k.err")" "$(msgs "$T/l.err")" "both front ends give the same six messages"
# one at a time, so a difference names the instruction
same() { # same KERNEL-INSTRUCTION LITMUS-INSTRUCTION
	printf 'global .u32 x = 0\nkernel\n    .reg .u32 %%r<2>\n    %s\nend\ncheck exists x == 0\n' "$1" >"$T/1.gpu"
	printf 'GPU_PTX one\nT0\n%s\nexists (x=0)\n' "$2" >"$T/1.litmus"
	k=$("$GPUMC" check "$T/1.gpu" 2>&1 | sed 's/^[^:]*:[0-9]*:[0-9]*: error: //')
	l=$("$GPUMC" litmus "$T/1.litmus" 2>&1 | sed 's/^[^:]*:[0-9]*:[0-9]*: error: //')
	is "$k" "$l" "same message for '$2': $l"; }
same "st.global.ca.u32 [x], 1" "st.global.ca.u32 [x], 1"
same "red.global.cas.u32 [x], 1" "red.global.cas.u32 [x], 1"
same "add.eq.u32 %r0, %r1, 1" "add.eq.u32 r0, r1, 1"
same "ld.cta.u32 %r0, [x]" "ld.cta.u32 r0, [x]"
same "ld.global.volatile.cg.u32 %r0, [x]" "ld.global.volatile.cg.u32 r0, [x]"
