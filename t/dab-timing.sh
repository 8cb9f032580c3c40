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
#            coalesce=on 4 (partition 3's 8 entries arrive 3 cycles after
#            the first and take 8 cycles): 31 - (3 + 7) = 21 cycles fewer.
. "$srcdir/t/lib.sh"
plan 10
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
is "$((off - on))" 21 "dab: flush coalescing sends 4 transactions instead of 32: 21 cycles fewer"
# the baseline coalesces too: 4 sectors leave t0..t0 + 3, partition 3
# performs its 8 lanes by t0 + 110, 3 cycles after spread at icnt_bw 32
# (plus 16 cycles for the 4 extra ALU instructions that form the address)
is "$(cyc "$T/sectors.gpu")" "$((b32 + 19))" "baseline: a warp's lanes coalesce into one transaction per sector"
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
