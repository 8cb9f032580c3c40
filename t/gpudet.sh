#!/bin/sh
# GPUDet (specs/gpudet, issue 9): each spec's declared verdict, the
# variant matrix (per-thread quanta, Z unit without or with a strict depth
# test, serial order by arrival, the baseline's workgroup distributor, BTA)
# with counterexamples that name the choice that changed the result, the
# same racy kernels nondeterministic on the baseline and on DAB, byte
# stores, the component invariants, and concrete mode.
. "$srcdir/t/lib.sh"
D="$SPECS/gpudet"
plan 74
v() { # v SPEC WANT OPTIONS...: verdict of gpumc check
	spec=$1; want=$2; shift 2
	got=$("$GPUMC" check -q --json "$@" "$D/$spec.gpu" 2>/dev/null | grep -o '"verdict":"[^"]*"' | cut -d'"' -f4)
	is "$got" "$want" "$spec $*: $want"
}
states() { "$GPUMC" check -q --json "$@" 2>/dev/null | grep -o '"states":[0-9]*' | head -1 | cut -d: -f2; }

run "$GPUMC" suite "$D"; is "$rc" 0 "gpumc suite specs/gpudet: every declared verdict"

# strong determinism on racy kernels, where the baseline and DAB are not
for s in G-T2-bfs-race G-T10-racey; do
	v $s pass
	v $s pass -D quantum=3
	v $s "fail deterministic" -D machine=baseline
	v $s "fail deterministic" -D machine=dab
done
v G-T2-bfs-race pass -D sbuf_entries=1
v G-T8-serial "fail deterministic" -D machine=baseline
v G-T5-isolation "fail forall" -D machine=baseline
# limitation 1: shared memory is not buffered, a race on it stays
run "$GPUMC" check "$D/G-local-race.gpu"
like "$T/out" "st.shared.u32 \[s\], 7 +<-- schedules diverge here" "G-local-race: the schedules diverge at the shared store"

# G-T1, paper Example 1: per-thread quanta deadlock, per-wavefront do not
v G-T1-example1 pass
v G-T1-example1 "fail deadlock_free" -D quanta=thread
run "$GPUMC" check -D quanta=thread "$D/G-T1-example1.gpu"
like "$T/out" "issues pc 4 mask 0x3: ld.global" "Example 1: the deadlock comes after threads 0 and 1 used their quota inside the branch"
# 1 + 5 issues, 2 barriers (nothing to commit), 5 issues, 1 barrier, 1
# commit request (the four lanes' words are one 128-byte chunk), 1
# barrier: 16 states
is "$(states "$D/G-T1-example1.gpu")" 16 "G-T1: 16 states, derived by hand in the test's comment"

# the Z unit: smaller depth wins whatever the arrival order; the variants
v G-T4-depth pass
v G-T4-depth "fail forall" -D ztest=off
v G-T6-double-write "fail forall" -D ztest=lt
v G-T6-double-write "fail forall" -D ztest=off
v G-T12-confluence pass -D quantum=4
v G-T12-confluence "fail forall" -D ztest=off
v G-T13-coalescer "fail forall" -D ztest=off
run "$GPUMC" check -D ztest=off "$D/G-T12-confluence.gpu"
like "$T/out" "Z unit of partition [01] takes warp [0-3]'s commit request.*written" "ztest=off: the trace shows the last arrival written"
run "$GPUMC" check -D ztest=lt "$D/G-T6-double-write.gpu"
like "$T/out" "takes warp 0's commit request.*; word 0 mask 0xf = 0x2, depth 0 vs 0: rejected" "ztest=lt: wavefront 0's second write is rejected by its own first"

# serial mode: CU-Ser and W-Ser each fix an order (different ones); arrival does not
v G-T8-serial pass
v G-T8-serial "fail forall" -D serial=wser
run "$GPUMC" check -q --json -D serial=wser "$D/G-T8-serial.gpu"
like "$T/out" '"terminal_states":1' "W-Ser: one outcome too"
v G-T8-serial "fail forall" -D serial=arrival
run "$GPUMC" check -D serial=arrival "$D/G-T8-serial.gpu"
like "$T/out" "SERIAL: warp [12] .*atom.global.add" "serial=arrival: the trace shows a wavefront's atomic out of order"

# the byte-granularity limitation: the arrival order at the Z unit decides
v G-T7-bytes "fail refines"
v G-T7-bytes pass -D machine=baseline
run "$GPUMC" check "$D/G-T7-bytes.gpu"
like "$T/out" "outcome that machine baseline never reaches: word = 170" "G-T7: 0x000000AA is outside the baseline's outcomes"
like "$T/out" "takes warp 2's commit request word 0 mask 0x2 = 0xbb00, depth 2 vs 1: rejected" "G-T7: the byte of the later wavefront is rejected on depth"
run "$GPUMC" run --runs 20 "$D/G-T7-bytes.gpu"
like "$T/out" "^2 distinct results" "G-T7 concrete mode: two results over 20 seeds"

# BTA: fewer quanta for barrier-only programs; the global-visibility gap
v G-T3-bta-quanta pass -D bta=on
v G-T3-bta-quanta pass -D bta=on -D quantum=3
run "$GPUMC" run "$D/G-T3-bta-quanta.gpu"; like "$T/out" "^  quanta +2$" "G-T3 base: the barrier ends the quantum (2 quanta)"
run "$GPUMC" run -D bta=on "$D/G-T3-bta-quanta.gpu"; like "$T/out" "^  quanta +1$" "G-T3 BTA: the barrier is released inside it (1 quantum)"
v G-T9-bta-gap pass
v G-T9-bta-gap "fail refines" -D bta=on
run "$GPUMC" check -D bta=on "$D/G-T9-bta-gap.gpu"
like "$T/out" "never reaches: r = 0" "G-T9: refines names the stale read after the BTA-released barrier"

# workgroup distribution: by quantum and DWP fixed, first-free-slot not
v G-T11-distribution pass
v G-T11-distribution pass -D distribution=dwp
v G-T11-distribution "fail deterministic" -D distribution=free
run "$GPUMC" check -D distribution=free "$D/G-T11-distribution.gpu"
like "$T/out" "workgroup distributor: cta 2 into free slot [01] +<-- schedules diverge here" "free: the schedules diverge at the distribution slot"
# 16 states of quantum 0 (3 + 3 issues interleaved), 1 + 1 barriers,
# 15 more in quantum 1, 1 barrier, 2 + 1 commit states, 1 barrier: 38
is "$(states "$D/G-T11-distribution.gpu")" 38 "G-T11: 38 states, derived by hand"

# every gpudet spec and variant keeps the machine's contract on every
# state: declared slices, canonical vectors, SBUF/ZB/GPUDET invariants
run "$GPUMC" suite --check-model "$D"
is "$rc" 0 "specs/gpudet under --check-model: every verdict as declared, no contract broken"
for o in quanta=thread ztest=off ztest=lt serial=arrival serial=wser bta=on distribution=free distribution=dwp sbuf_entries=1; do
	for s in G-T2-bfs-race G-T8-serial G-T11-distribution; do
		"$GPUMC" check -q --json --check-model -D $o "$D/$s.gpu" 2>/dev/null
	done | grep -o '"verdict":"[^"]*"' >"$T/cm"
	got=$(grep -c model_contract "$T/cm")
	is "$got" 0 "--check-model -D $o: no contract broken on G-T2, G-T8, G-T11"
done

# byte stores: syntax, alignment, and the baseline's read-merge-write
cat > "$T/bytes.gpu" <<'SPEC'
machine baseline
set ctas = 1
set warps_per_cta = 1
set threads_per_warp = 2
global .u32 w = 0x11223344
kernel
    .reg .u32 %r<2>
    add.u32        %r0, %tid, 0xA0
    mov.u32        %r1, %tid
    st.global.u8   [w + %r1], %r0
    st.global.b16  [w + 2], 0xBEEF
    exit
end
check forall w == 0xBEEFA1A0
SPEC
run "$GPUMC" check -q "$T/bytes.gpu"; is "$rc" 0 "st.u8 per lane and st.b16: the low bytes land in place, the others are kept"
mutant() { # mutant NAME SED-EXPR WANT-RC DESCRIPTION: the byte-store spec edited
	sed "$2" "$T/bytes.gpu" >"$T/$1.gpu"
	run "$GPUMC" check -q "$T/$1.gpu"; is "$rc" "$3" "$4"
}
mutant mis 's/st.global.b16  \[w + 2\]/st.global.u16  [w + 1]/' 1 "st.u16 at an odd address: a fault"
like "$T/out" "misaligned" "reported as a misaligned access"
mutant ld8 's/st.global.u8   \[w + %r1\], %r0/ld.global.u8   %r0, [w]/' 2 "ld.u8: an input error"
like "$T/err" "ld8.gpu:10:5: .*'.u8'.* only valid on st" "with file:line:col and what is allowed"
mutant two 's/st.global.u8 /st.global.u8.u32 /' 2 "st.u8.u32: two types, an input error"
like "$T/err" "two.gpu:10:5: .*takes one type" "says st takes one type"
mutant ics 's/^machine baseline$/machine baseline\nset memory = ics13/' 2 "st.u8 on the ICS'13 memory: an input error, not a silent word store"
like "$T/err" "ics.gpu:11:.*byte stores are not modelled" "says so at the store's line"

# input errors
run "$GPUMC" check -q -D sbuf_entries=1 -D threads_per_warp=4 "$D/G-T1-example1.gpu"
is "$rc" 2 "a store buffer smaller than a warp's store: exit 2"
like "$T/err" "sbuf_entries \(1\) must hold one store of a whole warp" "and says why"
run "$GPUMC" check -q -D serial=any "$D/G-T8-serial.gpu"
is "$rc" 2 "an unknown serial order: exit 2"

# concrete mode: one result for GPUDet where the baseline shows several
run "$GPUMC" run --runs 20 "$D/G-T8-serial.gpu"
like "$T/out" "^1 distinct result" "G-T8 on gpudet: 1 result over 20 seeds"
run "$GPUMC" run --runs 20 -D machine=baseline "$D/G-T8-serial.gpu"
like "$T/out" "^[2-6] distinct results" "G-T8 on the baseline: several"
# 256 resident CTAs: slot ids beyond a byte (the slot table held u8 ids,
# and CTA 255 took the "not dispatched" id: it ran a quantum late and won)
cat > "$T/many.gpu" <<'SPEC'
machine gpudet
set ctas = 256
set warps_per_cta = 1
set threads_per_warp = 1
global .u32 X = 0
kernel
    .reg .pred %p<1>
    setp.ge.u32    %p0, %ctaid, 254
    @%p0 st.global.u32 [X], %ctaid
    exit
end
SPEC
run "$GPUMC" run "$T/many.gpu"
like "$T/out" "runs? +X = 254 " "256 CTAs: CTAs 254 and 255 store X in one quantum, the lower slot wins"
run "$GPUMC" run -D sbuf_entries=1 "$D/G-T2-bfs-race.gpu"
like "$T/out" "quantum ends: full store buffer +[1-9]" "a full store buffer ends the quantum (counted)"
