#!/bin/sh
# A warp-local issue that faults its warp (an out-of-bounds load of a
# read-only array) frees its CTA's slot, and under static dispatch the
# next position starts in that very step (cta_dispatch.c): its warps,
# gated until then, may issue the next cycle.  No event told their
# scheduler's ready set or due set: its own warp-local issue was all the
# driver saw, so under GPUMC_CHECK_READY the run stopped with "READY-9"
# (DAB: the scheduler waiting after its issue for the other warp's load)
# or "READY-1" (baseline: the kept set without the new warp), and
# without the check the new CTA's warp started only once the load
# returned, 430 cycles late (t/fault-skip.sh is the cycle after such a
# fault passed over; this is its scheduler never told).
. "$srcdir/t/lib.sh"
plan 16
strip() { sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//' "$1"; }
# CTA 1 faults at once, CTA 0 waits for a long load meanwhile: CTA 2
# takes CTA 1's slot on the same SM and scheduler
cat > "$T/k.gpu" <<'SPEC'
name "fault-wake"
machine dab
set sms = 1
set ctas = 3
set cta_slots = 2
set warps_per_cta = 1
set threads_per_warp = 1
global .u32 x[4] = { 5, 6, 7, 8 }
global .u32 sum = 0
kernel
    .reg .u32 %r<2>
    .reg .pred %p<1>
    setp.eq.u32 %p0, %ctaid, 1
    @%p0 ld.global.u32 %r1, [x + 100]
    shl.b32 %r0, %ctaid, 2
    ld.global.u32 %r1, [x + %r0]
    red.global.add.u32 [sum], %r1
    exit
end
SPEC
for opts in "-D scheduler=gwat" "-D scheduler=gto" "-D scheduler=gwat-bar -D schedulers=2 -D warps_per_cta=2" \
	"-D machine=baseline -D dispatch=static" "-D machine=baseline -D dispatch=static -D schedulers=2 -D warps_per_cta=2" \
	"-D machine=lab -D dispatch=static -D threads_per_warp=4" "-D scheduler=gtar" "-D buffer=warp -D scheduler=gto"; do
	# shellcheck disable=SC2086
	GPUMC_CHECK_READY=1 "$GPUMC" run --json --runs 3 $opts "$T/k.gpu" > "$T/check" 2> "$T/e"
	rc=$?
	! grep -q 'internal error' "$T/e" && [ "$rc" -lt 64 ]
	ok $? "a faulting warp-local issue starts the next CTA in its slot, under GPUMC_CHECK_READY: no internal error ($opts; exit $rc: $(head -c 160 "$T/e"))"
	# shellcheck disable=SC2086
	"$GPUMC" run --json --runs 3 $opts "$T/k.gpu" 2>/dev/null > "$T/plain"
	is "$(strip "$T/plain")" "$(strip "$T/check")" "the same report without the check ($opts)"
done
