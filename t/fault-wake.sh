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
# fault passed over; this is its scheduler never told).  The same where
# the faulting issue is not warp-local but reaches only its own
# scheduler (REACH_OWN: a DAB atomic, "READY-1"), while the new CTA's
# warp is another scheduler's: k2, CTA 1's last warp faults at an atomic
# (or at a load: k3) after the other scheduler's warps of its batch are
# done.
. "$srcdir/t/lib.sh"
plan 32
strip() { sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//' "$1"; }
# k1: CTA 1 faults at once, CTA 0 waits for a long load meanwhile: CTA 2
# takes CTA 1's slot on the same SM and scheduler
cat > "$T/k1.gpu" <<'SPEC'
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
# k2: two schedulers; CTA 0's warp 1 leaves at once, CTA 1's warp 1
# faults at once, its warp 0 three instructions later: CTA 2's warp 1
# (scheduler 1, whose batch is then CTA 2's) may issue, but the fault
# was scheduler 0's
cat > "$T/k2.gpu" <<'SPEC'
name "fault-wake-2"
machine dab
set sms = 1
set ctas = 3
set cta_slots = 2
set warps_per_cta = 2
set schedulers = 2
set threads_per_warp = 1
global .u32 x[4] = { 5, 6, 7, 8 }
global .u32 sum = 0
kernel
    .reg .u32 %r<2>
    .reg .pred %p<4>
    setp.eq.u32 %p0, %ctaid, 1
    setp.eq.u32 %p1, %warpid, 1
    and.pred %p2, %p0, %p1
    @%p2 red.global.add.u32 [x + 100], 1
    setp.eq.u32 %p3, %ctaid, 0
    and.pred %p3, %p3, %p1
    @%p3 bra OUT
    add.u32 %r0, %r0, 1
    add.u32 %r0, %r0, 1
    add.u32 %r0, %r0, 1
    @%p0 red.global.add.u32 [x + 100], 1
    shl.b32 %r0, %ctaid, 2
    ld.global.u32 %r1, [x + %r0]
    red.global.add.u32 [sum], %r1
OUT:
    exit
end
SPEC
sed 's/red.global.add.u32 \[x + 100\], 1/ld.global.u32 %r1, [x + 100]/; s/fault-wake-2/fault-wake-3/' "$T/k2.gpu" > "$T/k3.gpu"
while read -r k opts; do
	# shellcheck disable=SC2086
	GPUMC_CHECK_READY=1 "$GPUMC" run --json --runs 3 $opts "$T/$k.gpu" > "$T/check" 2> "$T/e"
	rc=$?
	! grep -q 'internal error' "$T/e" && [ "$rc" -lt 64 ]
	ok $? "$k: a faulting issue starts the next CTA in its slot, under GPUMC_CHECK_READY: no internal error ($opts; exit $rc: $(head -c 160 "$T/e"))"
	# shellcheck disable=SC2086
	"$GPUMC" run --json --runs 3 $opts "$T/$k.gpu" 2>/dev/null > "$T/plain"
	is "$(strip "$T/plain")" "$(strip "$T/check")" "$k: the same report without the check ($opts)"
done <<'ROWS'
k1 -D scheduler=gwat
k1 -D scheduler=gto
k1 -D scheduler=gwat-bar -D schedulers=2 -D warps_per_cta=2
k1 -D machine=baseline -D dispatch=static
k1 -D machine=baseline -D dispatch=static -D schedulers=2 -D warps_per_cta=2
k1 -D machine=lab -D dispatch=static -D threads_per_warp=4
k1 -D scheduler=gtar
k1 -D buffer=warp -D scheduler=gto
k2 -D scheduler=gwat
k2 -D scheduler=srr -D buffer=warp
k2 -D scheduler=gtar
k2 -D machine=baseline -D dispatch=static
k3 -D scheduler=srr
k3 -D scheduler=gtrr
k3 -D scheduler=gtrr-bar -D buffer=warp
k3 -D scheduler=gto
ROWS
