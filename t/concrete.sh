#!/bin/sh
# Concrete mode: reproducible for a fixed seed, a histogram of results
# over seeds that separates order-sensitive fp32 from integer reductions.
. "$srcdir/t/lib.sh"
plan 15
S="$SPECS/baseline"
"$GPUMC" run --json --seed 7 "$S/barrier.gpu" > "$T/a"
"$GPUMC" run --json --seed 7 "$S/barrier.gpu" > "$T/b"
sed 's/"seconds":[0-9.e-]*//; s/"warp_instructions_per_second":[0-9.e+-]*//' "$T/a" > "$T/a2"
sed 's/"seconds":[0-9.e-]*//; s/"warp_instructions_per_second":[0-9.e+-]*//' "$T/b" > "$T/b2"
cmp -s "$T/a2" "$T/b2"; ok $? "same seed, same cycles, counters and result"
like "$T/a" '"end":"finished"' "barrier kernel finishes"
like "$T/a" '"warp instructions":44' "44 warp-instructions (4 warps x 11)"
run "$GPUMC" run --runs 200 --seed 1 "$S/fp32-reduction.gpu"
is "$rc" 1 "fp32 reduction: several results over seeds, exit 1"
like "$T/out" "^2 distinct results" "two distinct fp32 sums in the histogram"
run "$GPUMC" run --runs 100 --seed 1 -D ctas=2 "$S/int-reduction.gpu"
is "$rc" 0 "integer reduction: one result over 100 seeds"
like "$T/out" "^1 distinct result" "histogram has one bar"
run "$GPUMC" run "$S/barrier-divergence-deadlock.gpu"
is "$rc" 1 "divergent barrier deadlocks in concrete mode too"
like "$T/out" "DEADLOCK" "concrete run says DEADLOCK"
# a cycle limit stops at the limit, with the incomplete exit code
run "$GPUMC" run --max-cycles 100 "$S/fp32-reduction.gpu"
is "$rc" 3 "--max-cycles hit: exit 3"
like "$T/out" "cycle limit reached after 100 cycles" "stops exactly at the limit"
# more SMs do not make a latency-bound kernel slower
c1=$("$GPUMC" run --json -D ctas=16 -D sms=1 "$S/barrier.gpu" | grep -o '"cycles":[0-9]*' | head -1 | cut -d: -f2)
c4=$("$GPUMC" run --json -D ctas=16 -D sms=4 "$S/barrier.gpu" | grep -o '"cycles":[0-9]*' | head -1 | cut -d: -f2)
[ "$c4" -le "$c1" ]; ok $? "16 CTAs: 4 SMs ($c4 cycles) no slower than 1 SM ($c1 cycles)"
# a run checks no property: a spec's `refines baseline` does not make it
# explore the baseline first (at these sizes that search takes minutes)
run timeout -s KILL 60 "$GPUMC" run -D warps_per_cta=12 -D threads_per_warp=16 -D schedulers=4 \
	-D entries=64 "$SPECS/dab/F2-fusion-regroup.gpu"
is "$rc" 0 "run of a spec that refines baseline: no exhaustive search of the reference"
# a warp's atom over consecutive words: each sector's lanes are one ROP
# step (rop.c, perform: k entries at once), the warp's count down by all of
# them, so its values come back and it goes on (planting a count down by
# one a step deadlocks it)
cat > "$T/atom.gpu" <<'SPEC'
machine baseline
set sms = 1
set ctas = 1
set warps_per_cta = 2
set threads_per_warp = 32
global .u32 x[32] = iota(10, 1)
global .u32 out[64] = fill(0)
kernel
    .reg .u32 %r<3>
    shl.b32            %r0, %laneid, 2
    atom.global.add.u32 %r1, [x + %r0], 1
    shl.b32            %r2, %tid, 2
    st.global.u32      [out + %r2], %r1
    exit
end
SPEC
run "$GPUMC" run --json "$T/atom.gpu"
like "$T/out" '"end":"finished"' "two warps' atoms, 8 lanes a sector: finished"
like "$T/out" '"out\[0\]":1[01],.*"out\[63\]":4[12]' "each lane's old value back"
