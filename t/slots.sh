#!/bin/sh
# CTA slots on the nondeterministic machines (baseline, lab): cta_slots and
# warp_slots through cta_dispatch with the hardware's dispatcher -- the
# next CTA in id order to whichever SM frees a slot first -- explored in
# exhaustive mode and timed in concrete mode; unset, nothing changes.
. "$srcdir/t/lib.sh"
B="$SPECS/baseline"
plan 18
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
