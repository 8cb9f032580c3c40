#!/bin/sh
# DAB (specs/dab): each spec's declared verdict, and the override matrix
# of issue 4 -- which schedulers, flush protocols and machines keep the
# result deterministic and which break it, with the counterexample naming
# the schedule choice or partition arrival that changed the bits.
. "$srcdir/t/lib.sh"
D="$SPECS/dab"
plan 217
v() { # v SPEC WANT OPTIONS...: verdict of gpumc check
	spec=$1; want=$2; shift 2
	got=$("$GPUMC" check -q --json "$@" "$D/$spec.gpu" 2>/dev/null | grep -o '"verdict":"[^"]*"' | cut -d'"' -f4)
	is "$got" "$want" "$spec $*: $want"
}
run "$GPUMC" suite "$D"; is "$rc" 0 "gpumc suite specs/dab: every declared verdict"
for s in srr gtrr gtar gwat; do v D1 pass -D scheduler=$s; done
v D1 "fail deterministic" -D scheduler=gto
v D1 "fail deterministic" -D machine=baseline
v D2 pass
for f in nr nr-of nr-cif; do v D2 "fail deterministic" -D flush=$f; done
for s in srr gtrr gtar; do v D2 pass -D scheduler=$s; done
v D3 pass -D fusion=on
v D3 pass -D fusion=off
v D3 pass -D buffer=warp -D fusion=off
for s in srr gtrr gtar gwat; do v D4 pass -D scheduler=$s; done
v D4 "fail deterministic" -D flush=nr
v D5 "fail deterministic"
v D6 pass
v D6 pass -D machine=dab
v D6 pass -D machine=dab -D scheduler=gto -D flush=nr-cif
v D7 pass -D scheduler=gto
v D7 pass -D scheduler=gwat
for s in gtrr gtar gwat srr; do v D8 pass -D scheduler=$s; done
v D8 "fail deterministic" -D scheduler=gto
# T1: the flush fires once every buffer is full or has no warp that can
# issue, while warps of a full buffer run on: still deterministic
for s in gwat srr gtrr gtar; do v T1-full-trigger pass -D scheduler=$s; done
v T1-full-trigger "fail deterministic" -D scheduler=gto
# T2: under SRR and GTRR, which move the turn past a refused warp, a full
# buffer waits for its scheduler to stop (flushing at once is timing)
for s in srr gtrr gtrr-bar gtar gwat; do v T2-srr-full pass -D scheduler=$s; done
v T2-srr-full "fail deterministic" -D scheduler=gto
# D9: every SM's flush FIFO holds all its warps' buffers (uneven CTAs
# overflowed them and crashed under nr)
for f in ordered nr nr-of nr-cif; do v D9 pass -D flush=$f; done
# an atomic that can never fit its buffer is an input error, not a deadlock
run "$GPUMC" check -q -D entries=1 "$D/D7.gpu"
is "$rc" 2 "entries smaller than a warp's atomic: exit 2"
like "$T/err" "entries \(1\) must hold one warp's atomic" "and the message says why"
# the counterexamples name what changed the bits
run "$GPUMC" check -D flush=nr "$D/D2.gpu"
like "$T/out" "partition 0 performs the flushed atomic from sm [01].*<-- schedules diverge here" "D2 nr: diverges at a partition arrival"
run "$GPUMC" check -D scheduler=gto "$D/D1.gpu"
like "$T/out" "warp [0-9] .* issues .*red.global.add.f32.*<-- schedules diverge here" "D1 gto: diverges at a warp's issue into the shared buffer"
run "$GPUMC" check "$D/D5.gpu"
like "$T/out" "^note: a data race, after step [0-9]* of schedule B \(determinism is guaranteed to data-race-free kernels only\): .*st.global.u32 \[data\], 7. and .*ld.global.u32 %r0, \[data\]" "D5: the report names the race that puts the kernel outside DAB's guarantee"
run "$GPUMC" check -D scheduler=gto "$D/D1.gpu"
unlike "$T/out" "data race" "D1 gto: a race-free kernel's nondeterminism names no race"
# fusion really folds entries (fewer states) yet gives the same sums
a=$("$GPUMC" check -q --json -D fusion=on "$D/D3.gpu" | grep -o '"states":[0-9]*' | cut -d: -f2)
b=$("$GPUMC" check -q --json -D fusion=off "$D/D3.gpu" | grep -o '"states":[0-9]*' | cut -d: -f2)
[ "$a" != "$b" ]; ok $? "D3: fusion changes the state space ($a vs $b states), not the result"
# M1: shared-memory atomics are outside DAB (it buffers global ones): the
# verdict fails and says why in words; SRR's fixed interleaving orders them
v M1-shared-atomics "fail deterministic"
v M1-shared-atomics pass -D scheduler=srr
v M1-shared-atomics "fail deterministic" -D machine=baseline
run "$GPUMC" check "$D/M1-shared-atomics.gpu"
like "$T/out" "^note: shared-memory atomics: outside DAB's guarantee" "M1: the report says shared-memory atomics are outside DAB's guarantee"
# V1: a volatile access is a flush point: a consumer spinning on a
# volatile flag stops at each load, so the producer's fence gets its
# flush, every run terminates and sees the add (before: no run terminated)
for s in gwat srr gtrr gtar gto; do v V1-volatile-flag pass -D scheduler=$s; done
v V1-volatile-flag "fail forall" -D flush=nr-cif
"$GPUMC" check -q --json "$D/V1-volatile-flag.gpu" > "$T/c" 2>/dev/null
is "$(jnum terminal_states "$T/c")" 1 "V1: one terminal state (the run terminates)"
# R1, R2: race_free names two co-enabled conflicting accesses (one a
# plain store) with both instructions and threads; an atomic against a
# plain load, volatile flags and accesses ordered by bar.sync are none;
# two lanes of one st to one word are one
for m in dab baseline; do
	v R1-race "fail race_free" -D machine=$m
	v R2-race-free pass -D machine=$m
done
run "$GPUMC" check "$D/R1-race.gpu"
like "$T/out" "VIOLATED: race_free: a data race: thread 0 \(warp 0 lane 0\) at pc 5 .st.global.u32 \[data\], 7. and thread 1 \(warp 1 lane 0\) at pc 2 .ld.global.u32 %r0, \[data\]." "R1: both accesses and threads named"
sed 's/^    st.shared.u32      \[word + %r1\], %tid/    st.shared.u32      [word], %tid/' "$D/R2-race-free.gpu" > "$T/R2-intra.gpu"
run "$GPUMC" check "$T/R2-intra.gpu"
like "$T/out" "VIOLATED: race_free: .*lane 0.* and .*lane 1.* store to one word in one instruction" "R2 with both lanes storing word[0]: an intra-warp race"
sed 's/^    red.global.add.u32 \[count\], 1/    st.global.u32      [count], 1/' "$D/R2-race-free.gpu" > "$T/R2-st.gpu"
run "$GPUMC" check -q "$T/R2-st.gpu"; is "$rc" 0 "R2 with a plain store to count: race-free, the fence and flag order it"
sed '/^    @%p0 bra           SPIN/d' "$T/R2-st.gpu" > "$T/R2-nospin.gpu"
run "$GPUMC" check -D machine=baseline "$T/R2-nospin.gpu"
like "$T/out" "VIOLATED: race_free: .*st.global.u32 \[count\], 1. and .*ld.global.u32 %r0, \[count\]. may each" "R2 with a plain store to count: ordered by fence and flag, a race (baseline) once the consumer stops waiting"
# race_free is judged on the machine's own schedules: dab's flush at the
# consumer's ld.volatile waits for the producer to stall, which orders
# the two accesses there (see gpumc-machines(7))
run "$GPUMC" check -q "$T/R2-nospin.gpu"; is "$rc" 0 "R2 without the spin on dab: the volatile's flush hides the race"
# F1: an add does not fuse across a max on the same address (0 +1 max 5
# +1 = 6; fused across: 5)
v F1-fusion-order pass -D fusion=on
v F1-fusion-order pass -D fusion=off
# the same past 32 entries, whose last entry for each address push()
# finds in one pass back over the buffer (a pass keeping the first entry
# instead gives 100)
cat > "$T/F1-map.gpu" <<'SPEC'
# F1 with a fuller buffer.  DAB's push finds each lane's last buffer
# entry for its address in one pass back over the buffer (dab.c,
# fuse_targets): the same rule must hold past 32 entries.  The warp's 32
# lanes first fill 64 entries of y, then add 1 to x (one entry: its lanes
# fold, +32), take the max with 100 (a new entry) and add 1 again: the
# last entry for x is the max, so the add takes a new entry and the
# buffer performs 32, max 100, +32: 132.  Folded into the first add it
# would be 64, max 100: 100.
name "F3"
machine dab
set buffer = scheduler
set entries = 128
set fusion = on
set ctas = 1
set warps_per_cta = 1
set threads_per_warp = 32

global .u32 y[64] = fill(0)
global .u32 x = 0

kernel
    .reg .u32 %r<1>
    shl.b32            %r0, %tid, 2
    red.global.add.u32 [y + %r0], 1
    red.global.add.u32 [y + %r0 + 128], 1
    red.global.add.u32 [x], 1
    red.global.max.u32 [x], 100
    red.global.add.u32 [x], 1
    exit
end

check forall x == 132
expect pass
SPEC
got=$("$GPUMC" check -q --json "$T/F1-map.gpu" 2>/dev/null | grep -o '"verdict":"[^"]*"' | cut -d'"' -f4)
is "$got" pass "F1 past 32 entries (fuse_targets' pass): pass"
# F2: fusion's one rounded .f32 sum is no sequential order's (refines
# baseline fails), and the report says fusion did it
v F2-fusion-regroup "fail refines"
v F2-fusion-regroup pass -D fusion=off
run "$GPUMC" check "$D/F2-fusion-regroup.gpu"
like "$T/out" "^note: fusion folds .f32 adds \(pc 1\) into one buffer entry" "F2: the report names fusion"
# S1, S2: the order in which each determinism-aware scheduler (DAB
# §IV-C) lets two warps of one scheduler fill the shared buffer, read off
# the rounded fp32 sum (forall sum == 3 is A0 A1 B0 B1), and the state
# counts derived by hand from each rule in the specs' comments: a rule that
# keeps the verdict but lets one more interleaving through changes them.
for s in srr gtrr gtar gwat; do
	v S1-atomic-order pass -D scheduler=$s
	v S2-blocked-atomic pass -D scheduler=$s
done
v S1-atomic-order "fail forall" -D scheduler=gto
v S2-blocked-atomic "fail forall" -D scheduler=gto
# (hand-derived counts are of the full interleaving: --por=off)
c() { # c SPEC "states N transitions T" OPTIONS...
	spec=$1; want=$2; shift 2
	"$GPUMC" check -q --json --por=off "$@" "$D/$spec.gpu" > "$T/c" 2>/dev/null
	is "states $(jnum states "$T/c") transitions $(jnum transitions "$T/c")" "$want" "$spec $*: $want"
}
c S1-atomic-order "states 18 transitions 17" -D scheduler=srr
c S1-atomic-order "states 27 transitions 35" -D scheduler=gtrr
c S1-atomic-order "states 29 transitions 39" -D scheduler=gtar
c S1-atomic-order "states 32 transitions 45" -D scheduler=gwat
c S2-blocked-atomic "states 26 transitions 25" -D scheduler=srr
# S3: SRR skips a warp blocked at bar.sync (§IV-C1); one path under SRR:
# warp 0 issues 5 instructions, warp 1 7, the barrier's flush (nothing
# buffered yet), then one flush of the fused entry and one drain
for s in srr gtrr gtar gwat gto gtrr-bar gtar-bar gwat-bar; do v S3-barrier-skip pass -D scheduler=$s; done
c S3-barrier-skip "states 16 transitions 15" -D scheduler=srr
# S4, S5: a warp at a barrier whose CTA has a warp on another scheduler;
# bar.sync is left at a flush, so the order of the atomics is fixed by the
# rule, never by the other scheduler's timing.  The sum names whose atomic
# went first (1: warp 0 after the barrier, 0: warp 2).  The paper's GTRR,
# GTAR and GWAT hold warp 2's atomic until warp 0 reaches its own; SRR and
# the -bar repairs let warp 2 go; GTO too, as the barrier's flush waits
# until warp 2 can issue no more.  Before the flush at bar.sync, S5 was
# nondeterministic under srr, gtrr and gtar, S4 under gtrr and gtar.
for spec in S4-barrier-other-cta S5-barrier-srr; do
	sed 's/^check deterministic sum/check forall sum == 1.0/' "$D/$spec.gpu" > "$T/$spec-1.gpu"
	sed 's/^check deterministic sum/check forall sum == 0.0/' "$D/$spec.gpu" > "$T/$spec-0.gpu"
	for s in gtrr gtar gwat srr gtrr-bar gtar-bar gwat-bar gto; do
		case $s in gtrr|gtar|gwat) sum=1 who="warp 0";; *) sum=0 who="warp 2";; esac
		v $spec pass -D scheduler=$s
		run "$GPUMC" check -q -D scheduler=$s "$T/$spec-$sum.gpu"; is "$rc" 0 "$spec $s: $who's atomic first (sum $sum)"
	done
done
# the -bar repairs keep every D kernel deterministic and deadlock-free
for s in gtrr-bar gtar-bar gwat-bar; do for d in D1 D2 D4 D8; do v $d pass -D scheduler=$s; done; done
# S6, S7: the paper's literal rules deadlock when a warp waits at a barrier
# for a warp of its scheduler held at an atomic; the -bar repairs do not
for s in srr gtrr gtrr-bar gtar-bar gwat-bar; do v S6-barrier-uneven pass -D scheduler=$s; done
for s in gtar gwat; do v S6-barrier-uneven "fail deadlock_free" -D scheduler=$s; done
for s in srr gtrr-bar gtar-bar gwat-bar; do v S7-barrier-first pass -D scheduler=$s; done
for s in gtrr gtar gwat; do v S7-barrier-first "fail deadlock_free" -D scheduler=$s; done
c S7-barrier-first "states 26 transitions 34" -D scheduler=gtrr-bar
run "$GPUMC" check -D scheduler=gwat "$D/S7-barrier-first.gpu"
like "$T/out" "warp 0: waiting at pc 2 \(bar.sync 0\)" "S7 gwat: the deadlock shows warp 0 at the barrier"
like "$T/out" "scheduler 0 \(gwat\) holds warp 1: the token is with warp 0" "S7 gwat: and names the rule that holds warp 1"
run "$GPUMC" check -D scheduler=gtar "$D/S6-barrier-uneven.gpu"
like "$T/out" "scheduler 0 \(gtar\) holds warp 1: the round waits until every warp is at an atomic or exited" "S6 gtar: the deadlock names the round"
# W1: a divergent bar.sync whose paths end in exit waits for every live
# lane (the bottom stack entry keeps them): the divergent-barrier deadlock
for m in dab baseline; do v W1-divergent-exit-barrier "fail deadlock_free" -D machine=$m; done
run "$GPUMC" check -q --check-model "$D/W1-divergent-exit-barrier.gpu"
like "$T/out" "verdict: fail deadlock_free" "W1: --check-model finds no broken invariant (WARP-1)"
# D1 under SRR is one path too: 3 warps x 4 instructions, one flush of the
# fused entry, one drain
c D1 "states 15 transitions 14" -D scheduler=srr
# C1: CTA batches (IV-C5): with two CTA slots, CTA 2 (batch 1) starts once
# CTA 0's slot frees while CTA 1 still owes an add; the batch barrier puts
# CTA 1's add first under every determinism-aware rule (forall sum == 1)
for s in gwat srr gtrr gtar gtrr-bar gtar-bar gwat-bar; do v C1-cta-batches pass -D scheduler=$s; done
v C1-cta-batches "fail forall" -D scheduler=gto
c C1-cta-batches "states 29 transitions 28" -D scheduler=srr
run "$GPUMC" check -q --check-model "$D/C1-cta-batches.gpu"; is "$rc" 0 "C1: --check-model (DISP-n, SCHED-n) holds"
# C2: the paper's static CTA distribution is deterministic; the free
# dispatcher (next CTA to the SM that frees a slot first) is not, and the
# counterexample diverges at the dispatcher's step
for s in gwat srr gtrr gtar gto; do v C2-cta-dispatch pass -D scheduler=$s; done
v C2-cta-dispatch "fail deterministic" -D dispatch=free
run "$GPUMC" check -D dispatch=free "$D/C2-cta-dispatch.gpu"
like "$T/out" "CTA dispatcher: cta 2 \(the next in id order\) into sm [01].*<-- schedules diverge here" "C2 free: diverges at the dispatcher's launch order"
like "$T/out" "warp 3 \(cta 2, sm 1\) issues" "C2 free: the trace names the kernel CTA a hardware position runs"
run "$GPUMC" check -q --check-model -D dispatch=free "$D/C2-cta-dispatch.gpu"
like "$T/out" "verdict: fail deterministic" "C2 free: --check-model finds no broken invariant (DISP-1, DISP-2)"
# occupancy: one warp slot holds one CTA of one warp (the same machine as
# one CTA slot); every CTA resident is a different one; a CTA larger than
# the warp slots is an input error
a=$("$GPUMC" check -q --json --por=off "$D/C2-cta-dispatch.gpu" | grep -o '"states":[0-9]*')
b=$("$GPUMC" check -q --json --por=off -D cta_slots=0 -D warp_slots=1 "$D/C2-cta-dispatch.gpu" | grep -o '"states":[0-9]*')
c=$("$GPUMC" check -q --json --por=off -D cta_slots=0 "$D/C2-cta-dispatch.gpu" | grep -o '"states":[0-9]*')
is "$b" "$a" "C2: warp_slots=1 is cta_slots=1 for one-warp CTAs"
[ "$c" != "$a" ]; ok $? "C2: every CTA resident is another state space ($c vs $a)"
run "$GPUMC" check -q -D warps_per_cta=2 -D warp_slots=1 "$D/C2-cta-dispatch.gpu"
is "$rc" 2 "a CTA larger than warp_slots: exit 2"
like "$T/err" "a CTA of 2 warps does not fit warp_slots \(1\)" "and the message says why"
# V2, V3: ld.acquire, st.release (and .relaxed) are atomic loads and
# stores, which DAB performs via a flush like volatile ones: the consumer
# stops at each ld.acquire, so the producer's release or fence gets its
# flush, and every run terminates seeing the add (before: V2 read 0, V3
# never terminated)
for s in gwat srr gtrr gtar gto; do
	v V2-release-acquire pass -D scheduler=$s
	v V3-fence-acquire-spin pass -D scheduler=$s
done
v V2-release-acquire "fail forall" -D flush=nr-cif
v V2-release-acquire pass -D machine=baseline
"$GPUMC" check -q --json "$D/V3-fence-acquire-spin.gpu" > "$T/c" 2>/dev/null
is "$(jnum terminal_states "$T/c")" 1 "V3: one terminal state (the run terminates)"
# a .release red is a fence first: with count and flag in two partitions
# the baseline performs a plain red to flag before the add to count
# (forall fails), a red.release after it (before: both failed); dab
# flushes the add first either way
sed 's/^    st.release.gpu.global.u32 \[flag\], 1/    red.release.gpu.global.add.u32 [flag], 1/' "$D/V2-release-acquire.gpu" > "$T/V2-red.gpu"
sed 's/^    st.release.gpu.global.u32 \[flag\], 1/    red.global.add.u32 [flag], 1/' "$D/V2-release-acquire.gpu" > "$T/V2-plain.gpu"
run "$GPUMC" check -q -D machine=baseline -D partitions=2 -D line_bytes=4 "$T/V2-red.gpu"; is "$rc" 0 "V2 with red.release on baseline: the add is performed first"
run "$GPUMC" check -q -D machine=baseline -D partitions=2 -D line_bytes=4 "$T/V2-plain.gpu"; is "$rc" 1 "V2 with a plain red on baseline: flag may be performed first"
run "$GPUMC" check -q -D partitions=2 -D line_bytes=4 "$T/V2-red.gpu"; is "$rc" 0 "V2 with red.release on dab: pass"
# C3: SRR runs nothing of a later batch early (IV-C5): a batch-0 CTA
# spinning on a flag that a batch-1 CTA sets spins forever under SRR (the
# progress check names the batch the scheduler holds), not under the
# others, nor under SRR with every CTA resident
for s in gwat gtrr gtar gto; do v C3-batch-flag pass -D scheduler=$s; done
v C3-batch-flag "fail progress" -D scheduler=srr
v C3-batch-flag pass -D scheduler=srr -D cta_slots=0
run "$GPUMC" check -D scheduler=srr "$D/C3-batch-flag.gpu"
like "$T/out" "scheduler 0 \(srr\) holds warp 2: all instructions of batch 1 wait until batch 0 is done" "C3 srr: the end state names the batch held back"
