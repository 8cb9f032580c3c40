#!/bin/sh
# CTA slots on the nondeterministic machines (baseline, lab): cta_slots and
# warp_slots through cta_dispatch with the hardware's dispatcher -- the
# next CTA in id order to whichever SM frees a slot first -- explored in
# exhaustive mode and timed in concrete mode; unset, nothing changes.
. "$srcdir/t/lib.sh"
B="$SPECS/baseline"
plan 21
run "$GPUMC" check -q -D cta_slots=1 "$B/int-reduction.gpu"
is "$rc" 0 "baseline takes cta_slots"
verdict "$B/cta-landing.gpu" "fail deterministic"
"$GPUMC" check "$B/cta-landing.gpu" > "$T/cex" 2>&1
like "$T/cex" "CTA dispatcher: cta 2 \(the next in id order\) into sm 1.*schedules diverge here" \
	"the counterexample diverges at the dispatcher sending CTA 2 to SM 1"
verdict "$B/cta-landing.gpu" pass -D dispatch=static
verdict "$B/cta-landing.gpu" pass -D cta_slots=0
verdict "$B/cta-landing.gpu" "fail deterministic" -D cta_slots=0 -D warp_slots=1
verdict "$B/cta-landing.gpu" "fail deterministic" -D machine=lab
verdict "$B/cta-landing.gpu" pass -D machine=lab -D dispatch=static
verdict "$B/cta-second-wave.gpu" pass
verdict "$B/cta-second-wave.gpu" "fail progress" -D dispatch=static
verdict "$B/cta-second-wave.gpu" "fail progress" -D sms=1
# slots for every CTA: the same search as none (no state, no action)
states() { "$GPUMC" check -q --json --por=off "$@" 2>/dev/null | grep -o '"states":[0-9]*' | head -1; }
# (t/golden.tsv: 625 and 81 states without slots)
is "$(states -D cta_slots=2 "$B/cta-landing.gpu")" '"states":625' \
	"cta_slots = 2 on 2 SMs of 4 CTAs: the all-resident search"
is "$(states -D cta_slots=1 "$B/int-reduction.gpu")" '"states":81' \
	"int-reduction (2 CTAs on 2 SMs) with one slot: the all-resident search"
run "$GPUMC" check -q -D warp_slots=1 -D warps_per_cta=2 "$B/cta-landing.gpu"
is "$rc" 2 "a CTA larger than warp_slots is an input error"
like "$T/err" "does not fit warp_slots" "... that says so"
# concrete mode: which SM frees its slot first is timing, seed by seed
"$GPUMC" run --json --runs 8 "$B/cta-landing.gpu" > "$T/j" 2>/dev/null
is "$(grep -o '"where\[2\]":[0-9]*' "$T/j" | sort -u | tr '\n' ' ')" '"where[2]":0 "where[2]":1 ' \
	"concrete runs put CTA 2 on either SM"
"$GPUMC" run --json --runs 8 -D dispatch=static "$B/cta-landing.gpu" > "$T/j" 2>/dev/null
is "$(grep -o '"where\[2\]":[0-9]*' "$T/j" | sort -u | tr '\n' ' ')" '"where[2]":0 ' \
	"... and the static dispatcher on SM 0 only"
# a gated CTA of a static dispatcher starts when the ROP performs the last
# atomic of the CTA before it: concrete mode's ready sets hear of it
"$GPUMC" run --json --runs 3 -D sms=1 -D cta_slots=1 -D dispatch=static "$B/int-reduction.gpu" > "$T/j" 2>/dev/null
is "$(grep -o '"end":"[a-z ]*"' "$T/j" | head -1)/$(grep -o '"sum":[0-9]*' "$T/j" | sort -u | tr '\n' ' ')" '"end":"finished"/"sum":26 ' \
	"one SM, one slot, static: the second CTA runs after the first's reds"
# DAB (IV-B, IV-C5): a scheduler's buffer outlives its warps, so a CTA's
# slot frees when its warps exit and the next batch runs its non-atomic
# instructions before the last batch's atomics are flushed ("non-atomic
# instructions from b_i+1 can run earlier"); a warp buffer is the warp's
# own and keeps its slot until flushed.  CTA 1 (batch 1) reads sum before
# any flush (its warp can issue) with scheduler buffers, after the flush
# of CTA 0's add (the only way its slot frees) with warp buffers.  On the
# baseline the slot frees at exit too: the ROP may perform the red before
# or after CTA 1's load.
cat > "$T/reclaim.gpu" <<'SPEC'
machine dab
set scheduler = gwat
set entries = 4
set sms = 1
set schedulers = 1
set ctas = 2
set cta_slots = 1
set warps_per_cta = 1
set threads_per_warp = 1
global .u32 sum = 0
global .u32 seen = 9
kernel
    .reg .u32 %r<1>
    .reg .pred %p<1>
    setp.eq.u32        %p0, %ctaid, 1
    @%p0 bra           READ
    red.global.add.u32 [sum], 1
    exit
READ:
    ld.global.u32      %r0, [sum]
    st.global.u32      [seen], %r0
    exit
end
check forall seen == 1
SPEC
verdict "$T/reclaim.gpu" "fail forall" -D buffer=scheduler
verdict "$T/reclaim.gpu" pass -D buffer=warp
verdict "$T/reclaim.gpu" "fail forall" -D machine=baseline
