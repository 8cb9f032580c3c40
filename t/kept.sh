#!/bin/sh
# Concrete mode's machine-side summaries, each recomputed and compared
# where it is read when its check is on (a difference stops the run,
# exit 134), and none may change a report:
#   rop.c     the FIFOs with entries per partition and the cycle before
#             which none of a partition's heads arrives (ROP-3,
#             GPUMC_CHECK_READY);
#   persist.c the dirty words per line of a partition that may overfill
#             its L2, and the lines asleep in the heap of the timed walk
#             (their count, and every listed line's actions that can
#             issue: check_passed_over) (GPUMC_CHECK_PERSIST).
# Rows: the baseline bench kernels (the ROP), LAB specs (their partials
# go through the ROP's FIFOs), and the persist bench kernels at the
# paper's 64 warps an SM (bench/lib.sh, warps64), whose L2s overfill
# (histo's with a small l2_kb: its bins' lines are dirtied again after
# their write-back).
# Each row runs twice, checked and not, with two seeded runs each (the
# second starts from what the first left); the reports must be equal.
# (Planting a perform that does not mark its FIFO, kept_mark's call in
# rop.c's perform, turns the 6 ROP rows red (ROP-3); kept_mark keeping
# its partition's soon, the same 6; a write-back that does not count its
# words clean, dirty_count's call in persist.c's into_wpq, the 3 histo
# rows; new work that does not wake its line, wake_line's call in
# pending(), the 4 persist rows (and 86 of t/persist-pending.sh's); a
# line woken a cycle late (< for <= in pending_actions' due loop), the
# same 4 (75 there); a heap that does not sift up, heap_fix, lbm at 64
# CTAs (and 5 there).)
. "$srcdir/t/lib.sh"
eval "$(sed -n '/^warps64()/,/^}/p' "$srcdir/bench/lib.sh")"
for k in lbm histo; do
	warps64 "$srcdir/bench/specs/persist-$k.gpu" > "$T/persist-$k-64.gpu"
done
{
	for k in pagerank conv; do
		for ctas in 4 16; do
			printf '%s\t-D machine=baseline -D ctas=%s\n' "$srcdir/bench/specs/$k.gpu" "$ctas"
		done
	done
	printf '%s\t\n' "$srcdir/specs/lab/L-bypass.gpu" "$srcdir/bench/specs/lab-histogram.gpu"
	for ctas in 16 64; do
		printf '%s\t-D ctas=%s\n' "$T/persist-lbm-64.gpu" "$ctas"
		printf '%s\t-D ctas=%s -D l2_kb=4\n' "$T/persist-histo-64.gpu" "$ctas"
	done
	printf '%s\t-D l2_kb=1\n' "$srcdir/bench/specs/persist-histo.gpu"
} > "$T/rows"
plan $((2 * $(grep -c . "$T/rows")))
while IFS='	' read -r spec opts; do
	# shellcheck disable=SC2086
	GPUMC_CHECK_READY=1 GPUMC_CHECK_PERSIST=1 "$GPUMC" run --json --seed 1 --runs 2 $opts "$spec" 2> "$T/e" |
		sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//' > "$T/checked"
	rc=$(grep -c 'internal error\|GPUMC_CHECK_PERSIST' "$T/e")
	is "$rc" 0 "kept = recomputed: ${spec##*/} ${opts:--}"
	# shellcheck disable=SC2086
	"$GPUMC" run --json --seed 1 --runs 2 $opts "$spec" 2> /dev/null |
		sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//' > "$T/plain"
	cmp -s "$T/checked" "$T/plain" && [ -s "$T/plain" ]
	ok $? "same report unchecked: ${spec##*/} ${opts:--}"
done < "$T/rows"
