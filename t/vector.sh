#!/bin/sh
# Issue 13 (smaller states, vec14): bytes that are the same in every state
# stay out of the vector, and nothing the user sees changes.
#  1. A register no instruction writes has no row in the warp record
#     (program_reg_slots): it reads 0, as before, and prints with its
#     value; declaring more unused registers costs no byte.
#  2. A branch whose guard is the same in every live lane (program_divergent)
#     needs no SIMT stack entries: 16 bytes a warp fewer.  Each way a
#     register comes to differ between lanes keeps its branch divergent,
#     with the entries it needs: every kernel below diverges there (a
#     branch wrongly judged uniform faults F_UNIFORM, WARP-5) and passes.
#  3. That fault is gpumc's bug, not the kernel's: the judge reports it as
#     a broken model contract, which a spec's `expect fail fault` does not
#     accept (GPUMC_TEST_FAULT=uniform: every branch called uniform).
. "${srcdir:-.}/t/lib.sh"
plan 26
C="check -q --json --por=off --threads 1"

prelude() { # prelude NAME: one warp of two lanes, and out[2]
	cat <<EOS
name "$1"
machine baseline
set ctas = 1
set warps_per_cta = 1
set threads_per_warp = 2

global .u32 out[2]
EOS
}
kernel() { # kernel NAME REGDECL: lane 1 adds 7 to a register never written
	prelude "$1"
	cat <<EOS

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

branchk() { # branchk NAME LINES: %v computed by LINES, then a branch on %v != 0
	prelude "$1"
	cat <<EOS
global .u32 ctr = 0
global .u32 wr = 0
global .u32 ro[2] = { 0, 1 }

kernel
    .reg .u32 %a, %v
    .reg .pred %p, %q
    mul.lo.u32      %a, %tid, 4
    setp.eq.u32     %q, %tid, 1
$2
    setp.ne.u32     %p, %v, 0
    @%p bra         SKIP
    st.global.u32   [out + %a], 7
SKIP:
    st.global.u32   [wr], 1
    exit
end

check deterministic out
expect pass
EOS
}
# bytes NAME LINES: the vector bytes of branchk NAME LINES, which must pass
# with --check-model (its invariants, WARP-5 among them)
bytes() {
	branchk "$1" "$2" >"$T/$1.gpu"
	run "$GPUMC" $C --check-model "$T/$1.gpu"
	like "$T/out" '"verdict":"pass"' "$1: passes, every invariant kept"
	got=$(jnum state_vector_bytes "$T/out")
}
bytes ctaid '    mov.u32 %v, %ctaid'
uni=$got
bytes readonly '    ld.global.u32 %v, [ro + 4]'
is "$got" "$uni" "a load of a read-only word at a uniform address is uniform"
for c in "tid:    mov.u32 %v, %tid" "gtid-chain:    mul.lo.u32 %v, %gtid, 3" "guarded-write:    @%q mov.u32 %v, 5" \
	"readonly-lane-address:    ld.global.u32 %v, [ro + %a]"; do
	bytes "${c%%:*}" "${c#*:}"
	is "$got" $((uni + 16)) "${c%%:*}: divergent, two stack entries (16 bytes) more"
done
bytes region '    @!%q bra J
    mov.u32 %v, 5
J:'
is "$got" $((uni + 32)) "a write inside a divergent branch's region: both branches divergent (32 bytes)"
bytes atom '    atom.global.add.u32 %v, [ctr], 1'
bytes ld-writable '    ld.global.u32 %v, [wr]'
is "$got" $((uni + 16)) "a load of a variable an instruction writes: divergent (conservative)"
# the loop of bench/specs/lane-reduction.gpu: counter and bound uniform
run "$GPUMC" $C -D ctas=3 -D threads_per_warp=3 "$srcdir/bench/specs/lane-reduction.gpu"
is "$(jnum states "$T/out")" 271999 "lane-reduction 3/1/3: 271999 states"
is "$(jnum state_vector_bytes "$T/out")" 472 "lane-reduction 3/1/3: 472 bytes (552 with the unused %r0 and two stack entries a warp)"
# 3. a wrong uniformity judgement is never the fault a spec expects
prelude uniform-fault > "$T/uf.gpu"
cat >> "$T/uf.gpu" <<'EOS'
kernel
    .reg .u32 %r<2>
    .reg .pred %p<1>
    setp.eq.u32    %p0, %tid, 0
    @%p0 bra       SKIP
    mov.u32        %r0, 1
SKIP:
    ld.global.u32  %r1, [out + 64]
    exit
end
expect fail fault
EOS
run "$GPUMC" check --por=off "$T/uf.gpu"
like "$T/out" 'verdict: fail fault \(expected: fail fault\)$' "uniform-fault: an out-of-bounds load, the fault it expects"
GPUMC_TEST_FAULT=uniform run "$GPUMC" check --por=off "$T/uf.gpu"
like "$T/out" 'verdict: fail model_contract \(expected: fail fault, MISMATCH\)' \
	"uniform-fault, its branch called uniform: a broken model contract, not the expected fault"
like "$T/out" 'VIOLATED: model_contract: .*WARP-5: warp 0 split at a branch judged uniform' "uniform-fault: WARP-5 named"
