#!/bin/sh
# DAB (specs/dab): each spec's declared verdict, and the override matrix
# of issue 4 -- which schedulers, flush protocols and machines keep the
# result deterministic and which break it, with the counterexample naming
# the schedule choice or partition arrival that changed the bits.
. "$srcdir/t/lib.sh"
D="$SPECS/dab"
plan 43
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
like "$T/out" "^note: .*outside DAB's data-race-free guarantee" "D5: the report says the kernel is outside DAB's guarantee"
# fusion really folds entries (fewer states) yet gives the same sums
a=$("$GPUMC" check -q --json -D fusion=on "$D/D3.gpu" | grep -o '"states":[0-9]*' | cut -d: -f2)
b=$("$GPUMC" check -q --json -D fusion=off "$D/D3.gpu" | grep -o '"states":[0-9]*' | cut -d: -f2)
[ "$a" != "$b" ]; ok $? "D3: fusion changes the state space ($a vs $b states), not the result"
