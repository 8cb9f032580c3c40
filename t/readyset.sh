#!/bin/sh
# Concrete mode's event-driven ready sets (src/machines/readyset.c; DAB's
# schedulers and gto): with
# GPUMC_CHECK_READY=1 every scheduler recomputes its set by full polling
# on every cycle it is asked and stops with "READY-1" where the kept set
# differs (an event that wakes or blocks a warp went unsignalled).  Run
# over the rows t/golden-run.sh pins -- every bundled spec, the -D
# variants of t/golden.list, the bench kernels with their variants -- one
# seeded run each.  (Planting a missed event, e.g. counting every action
# as warp-local in concrete.c, stops pagerank at cycle 9408 here; a ROP
# perform declared to reach no set, in rop.c's reach, stops 11 rows, the
# baseline's pagerank at cycle 7219; leaving out its test of a warp near
# the 255 it may owe stops the pagerank row with icnt_queue=1024, of a
# warp last refused room the baseline's pagerank (both rows), conv and D1, of a
# waiting warp L-bypass; a waiting warp at bar.sync named alone, not its
# SM, S6 with machine=baseline (READY-1 at cycle 292).  dab.c's flush guard keeps its
# sync_ready scan the same way and stops with "DAB-SYNC": planting a key
# that never moves within a run, in sync_ready_now, stops 7 rows, D4 first.
# The driver asks still_enabled only after an issue of the cycle that was
# not warp-local, and under the check after those too, stopping with
# "READY-4" where one was disabled: planting a driver that never asks
# (no issue marks the cycle) stops the baseline's pagerank (both rows),
# conv and cnv.  DAB's schedulers tell the flush guard which of them have
# an allowed warp (dab_sched.c), checked against a full poll every cycle
# ("READY-5"): planting a bit never cleared stops 71 rows, C1 first (73
# once they are kept scheduler by scheduler, with the two rows at 80
# schedulers).
# The schedulers list only when due (readyset_due_sync), and all under the
# check ("READY-7"): planting an SM event that makes only its first
# scheduler due stops 8 rows (the baseline's pagerank first), a wake one
# cycle late 162, a calendar whose first set slot (ring_next) a wait
# placed in the ring does not lower 232 (READY-9,
# barrier-divergence-deadlock first); the ROP lists only its due
# partitions ("ROP-3"):
# planting a FIFO's change that makes its partition due only for SM 0
# stops 10 rows, fp32-reduction first.  The driver passes over the cycle after one of
# warp-local issues alone unless something may issue then, and lists it
# anyway under the check ("READY-6"): planting GTO's pick not telling of
# another ready warp (readyset_list) stops 83 rows; dab_sched not telling
# of an issue that may allow another warp, or empty every set of its SM,
# 6 (D8 first), of the latter alone 2 (C2; 3 with flushskip.gpu, once
# sm_fragile tells it);
# the driver not counting a unit with two listed, the baseline's pagerank
# with scheduler=any.  dab.c keeps its listing while the driver's
# nonlocal count and the told bits it read stay (the one scheduler the
# FLUSH guard stopped at, or all), an empty one past other actions while
# that scheduler's buffer may not be full (kept_past), and lists anyway
# under the check ("DAB-LIST"): planting a key without the count stops 69
# rows, C1 first; without the told bits, 50 (C1 first); kept_past not
# asking whether the buffer may be full, 15 (D2 first).  Fusion's kept
# filter of a buffer's addresses is checked by a full scan ("DAB-FUSE"):
# planting fresh_lanes not adding the lanes' bits stops 26 rows, D1
# first.  A guarded branch's taken lanes counted at its prepare are kept
# for its issue and guarded again under the check (warp.c, "WARP-7"):
# planting them kept with lane 0 flipped stops 86 rows,
# barrier-divergence-deadlock first.  The driver asks the model
# one step() per action, a warp's issue decoded once (warp.c,
# warps_prepare_issue), and under the check compares its warp-local answer and
# counts with model.local and model.count asked alone ("READY-8"):
# planting warps_prepare_issue calling every bar.sync warp-local stops 41 rows,
# not counting it 46, barrier-divergence-deadlock first.  A warp-local
# issue is prepared and applied at once (warp.c, warps_issue_alone), and
# under the check both ways too, their timing, counts, answer, draws and
# warp record compared ("WARP-8", compose.c): planting its timing a cycle
# late stops 42 rows, not counting it 42, its fault not answered 4 of
# t/fault-skip.sh's and 16 of t/fault-wake.sh's.  The ROP's reach
# walks the warps refused room by a mask, checked against their records
# ("ROP-4"): planting a bit never cleared stops 7 rows, D1 with
# machine=baseline first.
# A scheduler that listed an issue waits, after it, until its unit is
# free and a warp of its set may be ready (readyset.c, due_pend), and is listed
# anyway under the check ("READY-9"): planting a wake that leaves out
# the issuing warp's own ready time stops 116 rows,
# barrier-divergence-deadlock first; one that waits though the unit's
# count says its issue was not warp-local, 4 (D8 with scheduler=gwat
# first); the events since looked at after the waits, not before, 4 (the
# baseline's pagerank first); dab_sched's set of one warp that waits
# though its issue emptied it (readyset.h, due_moved), 20 (C2 first);
# one that waits after its own atomic though a warp joined its set (the
# next GWAT token holder), 26 (D1 first).  A DAB atomic's issue reaches its own
# scheduler alone (REACH_OWN, its unit's count by 2): planting it counted
# by 1, as a warp-local issue, stops 26 rows with "READY-1", C1 first.
# A DAB exit reaches its SM (dab_sched.c, reach): planting the next SM
# stops 34 rows with "READY-1", D2 first.  GWAT's token holder found
# without the view (dab_sched.c, holder) is checked by the full poll
# ("READY-1"): planting the token's warp taken though it is done stops 4
# rows, S6-barrier-uneven first.
# gto's global atomic issue into the ROP names the warps it may change
# (scheduler.c, gto_reach: REACH_WAKES) and only their schedulers are due
# (readyset_due_sync_named): planting an issue that names its own warp
# alone stops 6 rows with "READY-1", D1 with machine=baseline first;
# gto_named naming no scheduler, 6 with "READY-7"; gto_poll not keeping a
# warp's at-an-atomic bit, 14 with "READY-10", fp32-reduction first.  A
# push or a LAB's send makes its partition due only when its FIFO was
# empty (rop.c, ROP-3): planting a send that never does stops 15 rows
# with "ROP-3", L-T1 first.  The driver drops a cycle's bit from its
# events ring as it comes to that cycle (concrete.c, ev_pass), checked
# when it next looks for an event ("READY-16"): planting a driver that
# never drops one stops 258 rows, barrier-divergence-deadlock first.)
. "$srcdir/t/lib.sh"
{
	( cd "$srcdir" && find specs -name '*.gpu' | LC_ALL=C sort | sed 's/$/\t/' )
	grep -v '^#' "$srcdir/t/golden.list" | awk -F'\t' '$2 != "" { print "specs/" $0 }'
	grep -v '^#' "$srcdir/t/golden-run.list"
	printf '%s\t\n' "$T/flushskip.gpu"
} > "$T/rows"
# dab_sched's fragile sets: scheduler 0's one allowed warp (w2) reaches a
# red it has no GWAT token for (w0 holds it at bar.sync) by a warp-local
# issue while scheduler 1's buffer is full (w3 refused) and its set
# ({w1}, looping) is not empty: the SM then has no warp keeping the
# flush back, and the cycle after must be listed (READY-6 before
# dab_sched told the driver for a fragile set beside a full buffer; and
# planting a pc_fragile of none, compose.c, which sm_fragile reads)
cat > "$T/flushskip.gpu" <<'EOF'
# READY-6 probe: scheduler 0 (warps 0, 2), scheduler 1 (warps 1, 3).
# w0 waits at bar.sync holding scheduler 0's GWAT token; w2 loops
# (ALU) then reaches a red it may not issue (no token): scheduler 0's set
# empties by a warp-local issue.  w1 reds then loops long; w3's red is
# refused (one entry): scheduler 1 is full while w1 still computes.
machine dab
set scheduler = gwat
set buffer = scheduler
set schedulers = 2
set entries = 1
set fusion = off
set ctas = 1
set warps_per_cta = 4
set threads_per_warp = 1

global .u32 pre[4] = { 0, 0, 15, 2 }
global .u32 post[4] = { 0, 300, 0, 0 }
global .u32 sum = 0

kernel
    .reg .u32 %r<6>
    .reg .pred %p<1>
    setp.eq.u32        %p0, %gtid, 0
    @%p0 bra           W0
    shl.b32            %r1, %gtid, 2
    ld.global.u32      %r2, [pre + %r1]
    ld.global.u32      %r4, [post + %r1]
    mov.u32            %r3, 0
    setp.ge.u32        %p0, %r3, %r2
    @%p0 bra           ATOM
L1:
    add.u32            %r3, %r3, 1
    setp.lt.u32        %p0, %r3, %r2
    @%p0 bra           L1
ATOM:
    red.global.add.u32 [sum], 1
    mov.u32            %r3, 0
    setp.ge.u32        %p0, %r3, %r4
    @%p0 bra           DONE
L2:
    add.u32            %r3, %r3, 1
    setp.lt.u32        %p0, %r3, %r4
    @%p0 bra           L2
    bra                DONE
W0:
    bar.sync           0
DONE:
    exit
end
EOF
plan "$(grep -c . "$T/rows")"
while IFS='	' read -r spec opts; do
	[ -n "$spec" ] || continue
	# shellcheck disable=SC2086
	( cd "$srcdir" && GPUMC_CHECK_READY=1 "$GPUMC" run --json --seed 1 --runs 1 $opts "$spec" > "$T/j" 2> "$T/e" )
	rc=$?
	! grep -q 'READY-[1-9]\|DAB-SYNC' "$T/e" && [ "$rc" -lt 64 ]
	ok $? "ready sets = full poll: $spec ${opts:--} (exit $rc)"
done < "$T/rows"
