#!/bin/sh
# A warp-local issue that faults (an out-of-bounds load) ends its warp as
# an exit does: its CTA's slot may free, and the next CTA is dispatched
# the cycle after.  The driver must not pass over that cycle as one after
# warp-local issues alone (concrete.c): under GPUMC_CHECK_READY it lists
# it anyway and stops with "READY-6" where it has an issue, and without
# the check the dispatch (and the report's cycles) came an event later:
# int-reduction's 32-lane warps load past vals[4], one CTA slot: "FAULT
# after 453 cycles" where listing every cycle gives 21.
. "$srcdir/t/lib.sh"
plan 4
strip() { sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//' "$1"; }
for opts in "-D ctas=4 -D warps_per_cta=1" "-D ctas=6 -D sms=2 -D warps_per_cta=2"; do
	# shellcheck disable=SC2086
	GPUMC_CHECK_READY=1 "$GPUMC" run --json --runs 3 -D cta_slots=1 -D threads_per_warp=32 $opts \
		"$SPECS/baseline/int-reduction.gpu" > "$T/check" 2> "$T/e"
	rc=$?
	! grep -q 'internal error' "$T/e" && [ "$rc" -lt 64 ]
	ok $? "a faulting warp-local issue frees a CTA slot, under GPUMC_CHECK_READY: no READY-6 ($opts; exit $rc)"
	# shellcheck disable=SC2086
	"$GPUMC" run --json --runs 3 -D cta_slots=1 -D threads_per_warp=32 $opts \
		"$SPECS/baseline/int-reduction.gpu" 2>/dev/null > "$T/plain"
	is "$(strip "$T/plain")" "$(strip "$T/check")" "the same report without the check ($opts)"
done
