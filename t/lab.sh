#!/bin/sh
# LAB (specs/lab, machine lab): every spec's declared verdict with the
# machine's contract and invariants checked on every state; final-state
# equivalence at every LAB size; lab_size=0 and unlabelled atomics are the
# baseline; planted bugs (a lost and a double-applied partial) break
# conservation LAB-1; the relaxed interconnect shows the op-mismatch
# reorder; bad .comm uses are input errors.
. "$srcdir/t/lib.sh"
D="$SPECS/lab"
plan 42
v() { spec=$1; shift; verdict "$D/$spec.gpu" "$@"; } # v SPEC WANT OPTIONS...
counts() { # counts SPEC OPTIONS...: "states N transitions T" (every interleaving)
	spec=$1; shift
	"$GPUMC" check -q --json --por=off "$@" "$spec" > "$T/c" 2>/dev/null
	echo "states $(jnum states "$T/c") transitions $(jnum transitions "$T/c")"
}
run "$GPUMC" suite --check-model "$D"
is "$rc" 0 "gpumc suite --check-model specs/lab: every verdict as declared, LAB-1/LAB-2 in every state"
# L1: integer histogram equals the baseline's at every size, line and way count
for s in 0 1 2 3 8 inf; do v L-T2 pass --check-model -D lab_size=$s; done
v L-T2 pass --check-model -D lab_line=128
v L-T2 pass --check-model -D lab_size=2 -D lab_ways=1
v L-T2 pass -D machine=baseline
v L-T9 pass -D lab_size=inf
v L-T9 pass -D lab_size=16 -D lab_ways=2
# lab_size=0 is the baseline: the same state space as machine baseline
is "$(counts "$D/L-T2.gpu" -D lab_size=0)" "$(counts "$D/L-T2.gpu" -D machine=baseline)" "L-T2 lab_size=0: the baseline's states and transitions"
# unlabelled atomics bypass the LAB: baseline specs keep their counts
for s in int-reduction fp32-reduction racy-store-load barrier; do
	is "$(counts "$SPECS/baseline/$s.gpu" -D machine=lab)" "$(counts "$SPECS/baseline/$s.gpu")" "baseline/$s on machine lab: the same states and transitions"
done
# L-T8: the hand-derived count of its comment
is "$(counts "$D/L-T8.gpu")" "states 27 transitions 39" "L-T8: states 27 transitions 39 (derived by hand)"
# planted bugs: conservation catches them, and the result goes wrong too
run "$GPUMC" check --check-model -D lab_mutant=double "$D/L-T1.gpu"
like "$T/out" "LAB-1: word 0x0: .* is 15, the baseline's 8" "L-T1 double-applied partial: LAB-1 names the word and both values"
v L-T1 "fail model_contract" --check-model -D lab_mutant=double
v L-T1 "fail forall" -D lab_mutant=double
run "$GPUMC" check --check-model -D lab_mutant=lose "$D/L-T8.gpu"
like "$T/out" "LAB-1: word 0x0: .* is 0, the baseline's 1" "L-T8 lost victim partial: LAB-1 at the eviction"
v L-T8 "fail forall" -D lab_mutant=lose
v L-T9 "fail model_contract" --check-model -D lab_mutant=lose
# L6: the fp32 regrouping is outside the baseline's outcomes; the baseline passes
run "$GPUMC" check "$D/L-T4.gpu"
like "$T/out" "x = 16777218" "L-T4: the LAB's fp32 sum 2^24 + 2"
v L-T4 pass -D lab_size=0
# L7: in-order SM-to-slice delivery is what keeps the op mismatch right
run "$GPUMC" check "$D/L-T5-reorder.gpu"
like "$T/out" "x = 12" "L-T5-reorder: max reaches the L2 before add: x = 12"
like "$T/out" "performs from sm 0: max" "and the trace shows the partition performing max first"
v L-T5 pass -D lab_size=inf
# L3: the fence flush; without it the stale value is seen
v L-T7 pass -D lab_size=inf
v L-T7 pass -D lab_size=0
run "$GPUMC" list
like "$T/out" "lab_size +8 +0\.\.inf" "gpumc list: lab_size 0..inf, default 8"
# a plain store after a red.comm to the same word (a commutative race) is
# not a lost partial: LAB-1 stops checking the word (it reported one before)
printf 'name "s"\nmachine lab\nset threads_per_warp = 1\nglobal .u32 x = 0\nkernel\n    red.comm.global.add.u32 [x], 1\n    st.global.u32 [x], 5\n    exit\nend\ncheck forall x == 6\nexpect pass\n' > "$T/store.gpu"
run "$GPUMC" check --check-model "$T/store.gpu"
is "$rc" 0 "red.comm then a plain store: x = 6 (the LAB's add lands after the store), no LAB-1 report"
# the commutative-race detector (notes B.4 L5) names both accesses
race() { # race NAME KERNEL-LINES...: a 2-warp, 1-lane kernel checked for comm_race_free
	name=$1; shift
	{ printf 'name "%s"\nmachine lab\nset warps_per_cta = 2\nset threads_per_warp = 1\nglobal .u32 x = 0\nglobal .u32 y = 0\nkernel\n    .reg .u32 %%r<1>\n    .reg .pred %%p<1>\n    setp.eq.u32 %%p0, %%warpid, 1\n' "$name"
	  for l in "$@"; do printf '    %s\n' "$l"; done
	  printf '    exit\nend\ncheck comm_race_free\n'; } > "$T/$name.gpu"
	run "$GPUMC" check "$T/$name.gpu"
}
race mixed "@%p0 red.comm.global.add.u32 [x], 2" "@!%p0 red.comm.global.max.u32 [x], 10"
like "$T/out" "commutative race on \[0x0\]: .*red.comm.global.(add|max).* and .*red.comm.global.(max|add)" "mixed comm ops on one word: both red.comm named"
race unlabelled "@%p0 atom.global.add.u32 %r0, [x], 1" "@!%p0 red.comm.global.add.u32 [x], 1"
like "$T/out" "commutative race on \[0x0\]: (.*atom.global.add.*warp 1, pc 1.* and .*red.comm.*warp 0, pc 2|.*red.comm.*warp 0, pc 2.* and .*atom.global.add.*warp 1, pc 1)" "an unlabelled atomic and a red.comm, both named"
race coenabled "@%p0 ld.global.u32 %r0, [x]" "@!%p0 red.comm.global.add.u32 [x], 1"
like "$T/out" "VIOLATED: comm_race_free: commutative race on \[0x0\]" "a plain load and a red.comm of another warp"
race clean "@%p0 ld.global.u32 %r0, [y]" "@!%p0 red.comm.global.add.u32 [x], 1"
is "$rc" 0 "a plain load of another word: no race"
v L-T6-race "fail comm_race_free" -D lab_size=0
# input errors
printf 'name "x"\nmachine lab\nglobal .u32 x = 0\nkernel\n    .reg .u32 %%r<1>\n    atom.comm.global.add.u32 %%r0, [x], 1\n    exit\nend\ncheck forall x == 1\nexpect pass\n' > "$T/atom.gpu"
run "$GPUMC" check "$T/atom.gpu"
like "$T/err" "atom.gpu:6:5: .*'.comm' atomics return no value" "atom.comm: an error at file:line:col"
sed 's/atom.comm.global.add.u32 %r0,/red.comm.global.inc.u32/' "$T/atom.gpu" > "$T/inc.gpu"
run "$GPUMC" check "$T/inc.gpu"
like "$T/err" "inc.gpu:6:5: .*'.comm' needs a combinable operation" "red.comm.inc: not combinable"
run "$GPUMC" check -D lab_size=12 "$D/L-T2.gpu"
is "$rc" 2 "lab_size not a multiple of lab_ways: exit 2"
like "$T/err" "lab_size \(12\) must be a multiple of lab_ways \(8\)" "and the message says why"
