#!/bin/sh
# Concrete-mode timing of the interconnect (icnt.c), the same for the
# baseline's atomics and DAB's flushes: one transaction per 32-byte sector
# and send, icnt_bw transactions per cycle per SM, lat_icnt to the
# partition.  Cycle counts derived by hand (jitter 0, lat_icnt 100,
# lat_rop 1, 4 partitions interleaved every 128 bytes):
#   spread:  lane l adds to word 32 l: 32 sectors, partition l mod 4.
#            icnt_bw 1: sector k leaves at t0 + k, arrives t0 + 100 + k;
#            partition 3's last (lane 31) is performed at t0 + 131.
#            icnt_bw 32: all arrive at t0 + 100, each partition performs
#            its 8 by t0 + 107: 24 cycles fewer.
#   sectors: lanes 8i..8i+7 add to consecutive words of line i: 4
#            sectors.  DAB coalesce=off sends 32 transactions (the last
#            entry of partition 3 leaves 31 cycles after the first),
#            coalesce=on 4 (partition 3's sector arrives 3 cycles after
#            the first and is one ROP operation): 31 - 3 = 28 cycles fewer
#            (21 while the ROP performed a lane a cycle).
. "$srcdir/t/lib.sh"
plan 18
cat > "$T/spread.gpu" <<'SPEC'
machine baseline
set sms = 1
set partitions = 4
set line_bytes = 128
set ctas = 1
set warps_per_cta = 1
set threads_per_warp = 32
set lat_icnt = 100
set icnt_jitter = 0
set global_jitter = 0
global .u32 x[1024] = fill(0)
kernel
    .reg .u32 %r<4>
    shl.b32            %r0, %tid, 7
    red.global.add.u32 [x + %r0], 1
    exit
end
check deterministic x
expect pass
SPEC
sed 's|    shl.b32            %r0, %tid, 7|    shr.u32            %r1, %tid, 3\n    shl.b32            %r1, %r1, 7\n    and.b32            %r2, %tid, 7\n    shl.b32            %r2, %r2, 2\n    add.u32            %r0, %r1, %r2|' \
	"$T/spread.gpu" > "$T/sectors.gpu"
cyc() { "$GPUMC" run --json --runs 1 --seed 1 "$@" 2>/dev/null | grep -o '"cycles":[0-9]*' | head -1 | cut -d: -f2; }
D="-D machine=dab -D entries=32 -D scheduler=gwat"
b1=$(cyc "$T/spread.gpu")
b32=$(cyc -D icnt_bw=32 "$T/spread.gpu")
is "$((b1 - b32))" 24 "baseline: 32 sectors from one SM take 24 cycles longer at 1 transaction/cycle than at 32"
# shellcheck disable=SC2086
d1=$(cyc $D "$T/spread.gpu")
# shellcheck disable=SC2086
d32=$(cyc $D -D icnt_bw=32 "$T/spread.gpu")
is "$((d1 - d32))" 24 "dab: the same flush pays the same interconnect bandwidth"
# shellcheck disable=SC2086
on=$(cyc $D "$T/sectors.gpu")
# shellcheck disable=SC2086
off=$(cyc $D -D coalesce=off "$T/sectors.gpu")
is "$((off - on))" 28 "dab: flush coalescing sends 4 transactions instead of 32: 28 cycles fewer"
# With 2 partitions each one's entries arrive every 2 cycles: the ROP,
# free a cycle after each drain, waits for its next head to arrive (a
# ready time past its busy-until: dab.c, rop_take), and the last (lane 31)
# is performed at t0 + 131 as with 4.
# shellcheck disable=SC2086
is "$(cyc $D -D partitions=2 "$T/spread.gpu")" "$d1" "dab: a partition's next head arriving after the ROP is free again waits for its arrival"
# the baseline coalesces too: 4 sectors leave t0..t0 + 3, partition 3
# performs its sector in one step at t0 + 103, 4 cycles before spread at
# icnt_bw 32 ends (t0 + 107; plus 16 cycles for the 4 extra ALU
# instructions that form the address)
is "$(cyc "$T/sectors.gpu")" "$((b32 + 12))" "baseline: a warp's lanes coalesce into one transaction per sector"
# The ROP performs a coalesced transaction as one operation (DAB IV-F:
# "The baseline GPU coalesces atomics into a single transaction per cache
# sector"; "buffer flushes that access the same cache sector can be
# coalesced to a single transaction", VI-B3).  line: lane l adds to word
# l, one 128-byte line in partition 0, 4 sectors.  coalesce=on: 4
# transactions leave t0..t0 + 3, arrive t0 + 100..103 and are performed
# one a cycle: the last at t0 + 103.  coalesce=off: 32 transactions, the
# last arrives and is performed at t0 + 131: 28 cycles more, on both
# machines.  (While the ROP performed a lane a cycle both took until
# t0 + 131: coalescing saved nothing behind a busy ROP.)
sed 's|    shl.b32            %r0, %tid, 7|    shl.b32            %r0, %tid, 2|' "$T/spread.gpu" > "$T/line.gpu"
is "$(($(cyc -D coalesce=off "$T/line.gpu") - $(cyc "$T/line.gpu")))" 28 \
	"baseline: the ROP performs a sector's 8 lanes as one operation: 28 cycles fewer for 32 lanes in 4 sectors"
# shellcheck disable=SC2086
is "$(($(cyc $D -D coalesce=off "$T/line.gpu") - $(cyc $D "$T/line.gpu")))" 28 \
	"dab: the same for a coalesced flush: 28 cycles fewer"
# coalesce=off: 32 transactions, partition 3's last lane arrives at
# t0 + 131 as in spread (plus the 16 ALU cycles)
is "$(cyc -D coalesce=off "$T/sectors.gpu")" "$((b1 + 16))" "baseline coalesce=off: one transaction per lane"
# per-SM flushes (nr-cif) each have their own flush engine: two SMs that
# flush at the same cycle finish with the GPU-wide nr-of flush, not one
# engine's busy time later (they queued on one engine before: 221 vs 169)
sed 's/set sms = 1/set sms = 2/; s/set ctas = 1/set ctas = 2/' "$T/spread.gpu" > "$T/spread2.gpu"
# shellcheck disable=SC2086
is "$(cyc $D -D flush=nr-cif "$T/spread2.gpu")" "$(cyc $D -D flush=nr-of "$T/spread2.gpu")" \
	"nr-cif: two SMs flush in parallel, as fast as nr-of"
# offset flushing (DAB VI-B2) as the paper states it: SM 0 (even) starts
# its flush at entry offset_flush, which reorders entries for one address:
# F1's add 1, max 5, add 1 gives 6 in program order; from entry 1 the
# flush performs max 5, add 1, add 1: 7 -- a finding, off by default
verdict "$SPECS/dab/F1-fusion-order.gpu" pass
verdict "$SPECS/dab/F1-fusion-order.gpu" "fail forall" -D offset_flush=1
run "$GPUMC" run -D offset_flush=2000 "$SPECS/dab/F1-fusion-order.gpu"
like "$T/err" "offset_flush.*(1024|range|between)" "offset_flush out of range: an error"
# the flush trigger (DAB IV-D: "all buffers are full"): warp 0 fills the
# shared scheduler buffer (32 entries) and blocks at its second red, while
# warp 1 runs a 100-iteration ALU loop.  The buffer is full, so the flush
# starts at once and overlaps the loop; warp 0's second red and exit follow
# it, and the kernel-exit flush of those 32 entries starts when warp 1
# exits (cycle 1213: 303 instructions at lat_alu 4), as the one flush of
# the spec without the second red does: 1214 + lat_flush 20 + 31 sends +
# 100 + the last entry performed = 1366 for both.  A GPU-wide "no warp can
# issue" trigger waited for warp 1: the first flush then came after the
# loop and the second red one flush later (1623, 257 cycles more).
sed 's/^machine baseline/machine dab\nset scheduler = gto\nset buffer = scheduler\nset schedulers = 1\nset entries = 32\nset fusion = off/
s/^set ctas = 1/set ctas = 1\nset warps_per_cta = 2/
s|^    shl.b32            %r0, %tid, 7|    shr.u32            %r1, %tid, 5\n    setp.ne.u32        %p0, %r1, 0\n    @%p0 bra           LOOP\n    shl.b32            %r0, %tid, 7|
s|^    exit|    exit\nLOOP:\n    add.u32            %r2, %r2, 1\n    setp.lt.u32        %p0, %r2, 100\n    @%p0 bra           LOOP\n    exit|
s|^    .reg .u32 %r<4>|    .reg .u32 %r<4>\n    .reg .pred %p<1>|' "$T/spread.gpu" | grep -v '^set warps_per_cta = 1' > "$T/one.gpu"
sed 's|^    red.global.add.u32 \[x + %r0\], 1|&\n&|' "$T/one.gpu" > "$T/two.gpu"
is "$(cyc "$T/two.gpu")" "$(cyc "$T/one.gpu")" "flush trigger: a full buffer flushes while another warp runs (the second red costs nothing)"
# The partition's ejection port (GPGPU-Sim pops one packet per memory
# sub-partition a cycle; icnt_eject = 1): a transaction that finds it
# taken waits and holds its SM's port (head of line).  hol: 2 SMs, a warp
# of 8 lanes each; lane l adds to line 4l (partition 0), except that SM
# 1's lanes 4..7 add to line 4l + 1 (partition 1).  Both send from t0,
# SM 0 first: its 8 transactions take partition 0's port at t0 + 100..107.
# SM 1's first finds it taken until t0 + 108 and holds SM 1's port; its
# next three follow at t0 + 109..111 and its 4 for partition 1, which
# then sit behind them, at t0 + 112..115.  icnt_eject = 0 (no limit): SM
# 1's 4 for partition 1 arrive and are performed at t0 + 104..107, and
# partition 0 ends at t0 + 111 (12 transactions from t0 + 100): 4 cycles
# less.  The same on DAB, whose flush (nr: no reorder, warp buffers)
# sends the same transactions.
sed 's/set sms = 1/set sms = 2/; s/set ctas = 1/set ctas = 2/; s/set threads_per_warp = 32/set threads_per_warp = 8/
s|^    shl.b32            %r0, %tid, 7|    shr.u32            %r1, %tid, 2\n    mul.lo.u32         %r1, %r1, %ctaid\n    shl.b32            %r1, %r1, 7\n    shl.b32            %r0, %tid, 9\n    add.u32            %r0, %r0, %r1|' \
	"$T/spread.gpu" > "$T/hol.gpu"
is "$(($(cyc "$T/hol.gpu") - $(cyc -D icnt_eject=0 "$T/hol.gpu")))" 4 \
	"baseline: partition 0's ejection port, taken by SM 0, holds SM 1's transactions for partition 1: 4 cycles"
W="-D machine=dab -D buffer=warp -D entries=8 -D scheduler=gwat -D fusion=off -D flush=nr"
# shellcheck disable=SC2086
is "$(($(cyc $W "$T/hol.gpu") - $(cyc $W -D icnt_eject=0 "$T/hol.gpu")))" 4 \
	"dab: the flush pays the same ejection port: 4 cycles"
# Offset flushing (DAB VI-B2: "if every buffer flushes to the same set of
# memory addresses in the same order (hence, the same memory partitions),
# the interconnect becomes congested ... each SM starts flushing at a
# different index to spread out the writes to each memory partition").
# offset: both SMs' lanes 0..3 add to lines 0, 4, 8, 12 (partition 0),
# lanes 4..7 to lines 1, 5, 9, 13 (partition 1).  Without offset both
# flush partition 0's 4 first: SM 1's wait behind SM 0's (t0 + 104..107,
# holding its port) and its partition 1 ones end at t0 + 111.  With
# offset_flush = 4, SM 0 (even) sends its partition 1 entries first: no
# port is taken twice in a cycle, all end by t0 + 107: 4 cycles less.
sed 's|^    mul.lo.u32         %r1, %r1, %ctaid|    and.b32            %r2, %tid, 3\n    shl.b32            %r2, %r2, 9|; s|^    shl.b32            %r0, %tid, 9|    mov.u32            %r0, %r2|' "$T/hol.gpu" > "$T/offset.gpu"
# shellcheck disable=SC2086
is "$(($(cyc $W "$T/offset.gpu") - $(cyc $W -D offset_flush=4 "$T/offset.gpu")))" 4 \
	"dab: offset flushing spreads the two SMs' flushes over the partitions: 4 cycles fewer"
run "$GPUMC" run -D icnt_eject=65 "$T/hol.gpu"
like "$T/err" "icnt_eject" "icnt_eject out of range: an error"
# DAB-DRAIN (dab.c): prepare keeps a DRAIN's reach for the reach that
# follows.  atomdrain: 64 lanes' atom to scattered words, 2 SMs, 2
# partitions, so atom entries drain from FIFOs that keep entries behind
# them and reach their warps' SM.  Under GPUMC_CHECK_READY the kept reach
# is found anew and compared, and a DRAIN taken in one call (DAB-WHOLE,
# issue_whole) compared with prepare, reach and apply apart: no internal
# error, the same report.
cat > "$T/atomdrain.gpu" <<'SPEC'
machine dab
set sms = 2
set partitions = 2
set ctas = 4
set warps_per_cta = 2
set threads_per_warp = 8
set entries = 16
global .u32 x[256] = fill(0)
global .u32 got[64] = fill(0)
kernel
    .reg .u32 %r<4>
    mul.lo.u32         %r0, %gtid, 37
    and.b32            %r0, %r0, 255
    shl.b32            %r0, %r0, 2
    atom.global.add.u32 %r1, [x + %r0], 1
    shl.b32            %r2, %gtid, 2
    st.global.u32      [got + %r2], %r1
    exit
end
SPEC
"$GPUMC" run --runs 2 "$T/atomdrain.gpu" 2>&1 | grep -v simulated > "$T/plain"
GPUMC_CHECK_READY=1 "$GPUMC" run --runs 2 "$T/atomdrain.gpu" 2>&1 | grep -v simulated > "$T/checked"
cmp -s "$T/plain" "$T/checked"
rc=$?
e=$(grep -m1 "internal error" "$T/checked")
ok $rc "dab: an atom's DRAIN from a FIFO that keeps entries, its reach kept by prepare, under GPUMC_CHECK_READY: no DAB-DRAIN, no DAB-WHOLE${e:+ ($e)}"
