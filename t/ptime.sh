#!/bin/sh
# Persistency timing in concrete mode (issue 12, "Timing that matches the
# paper"): the NVM-write counters (each WPQ entry is one NVM line write of
# the words it holds), the clwb acknowledgement's round trip, clwb
# completions apart from WPQ drains, L2 capacity evictions; every number
# derived by hand before running.
. "$srcdir/t/lib.sh"
plan 33
# spec FILE WORDS SETS BODY [HOST]: one warp of 32 lanes on the persist
# machine, 128-byte lines, global a[WORDS], %r0 the lane's byte offset
spec() {
	{
		printf 'machine persist\nset threads_per_warp = 32\nset line_bytes = 128\n%s\n' "$3"
		printf 'global .u32 a[%s] = fill(0)\nkernel\n    .reg .u32 %%r<1>\n    shl.b32 %%r0, %%tid, 2\n' "$2"
		printf '%s\n    exit\nend\n%s\ncheck deterministic a\nexpect pass\n' "$4" "$5"
	} > "$1"
}
# each OP N: OP (st or clwb) by every lane on each of the first N lines of a
each() {
	k=0
	while [ $k -lt "$2" ]; do
		if [ "$1" = st ]; then echo "    st.global.u32 [a + %r0 + $((k * 128))], 1"; else echo "    clwb [a + %r0 + $((k * 128))]"; fi
		k=$((k + 1))
	done
}
# nvm FILE OPTIONS...: "LINES BYTES" written to NVM in one run
nvm() {
	f=$1; shift
	"$GPUMC" run --json --seed 1 "$@" "$f" > "$T/j" 2>/dev/null
	echo "$(jnum 'NVM line writes' "$T/j") $(jnum 'NVM bytes written' "$T/j")"
}
cyc() { "$GPUMC" run --json --seed 1 "$@" > "$T/j" 2>/dev/null; jnum cycles "$T/j"; }

# one line of 32 words stored, then cudaL2WB and pcommit: the dirty line
# goes to its WPQ as one entry, 1 write of 128 bytes
spec "$T/line.gpu" 64 "" "$(each st 1)" "host
    launch
    sync
    l2wb
    pcommit
    sync
end"
is "$(nvm "$T/line.gpu")" "1 128" "l2wb of one dirty line: one NVM line write, 128 bytes"
# word granularity: 32 entries of one word each, the same bytes
is "$(nvm "$T/line.gpu" -D line_bytes=4)" "32 128" "line_bytes=4: 32 NVM writes, 128 bytes"
# 64-byte lines: the 32 words are two lines
is "$(nvm "$T/line.gpu" -D line_bytes=64)" "2 128" "line_bytes=64: 2 NVM writes, 128 bytes"
# strict persistency with clwb: each lane's clwb names the same line, so
# the warp's one clwb completes once for the line, then the l2wb finds
# nothing dirty: still one write
is "$(nvm "$T/line.gpu" -D persistency=strict-clwb)" "1 128" "strict-clwb, one warp-wide store: one line write"
# write-through: every lane's word crosses alone and enters the WPQ on
# arrival; words that arrive while the line's entry waits merge into it,
# so there are between 1 and 32 writes, always 128 bytes
# shellcheck disable=SC2046 # the words are the fields
set -- $(nvm "$T/line.gpu" -D persistency=strict-wt)
ok "$([ "$1" -ge 1 ] && [ "$1" -le 32 ]; echo $?)" "strict-wt: between 1 and 32 line writes (got $1)"
is "$2" 128 "strict-wt: 128 bytes"
# the text report names them too
run "$GPUMC" run --seed 1 "$T/line.gpu"
like "$T/out" "^  NVM line writes +1$" "text report: NVM line writes"
like "$T/out" "^  NVM bytes written +128$" "text report: NVM bytes written"

# the acknowledgement of a clwb crosses the interconnect back to the warp:
# 100 more cycles of lat_icnt cost st; clwb; sfence 200 (request and ack)
spec "$T/ack.gpu" 64 "set wpq = durable" "$(each st 1)
$(each clwb 1)
    sfence"
c1=$(cyc -D lat_icnt=120 "$T/ack.gpu"); c2=$(cyc -D lat_icnt=220 "$T/ack.gpu")
is "$((c2 - c1))" 200 "clwb; sfence: the request and the acknowledgement each cross the interconnect"
# clwb completions do not queue behind WPQ drains: eight lines of one
# partition stored, then clwb'd back to back; the drains come at once
# (lat_nvm_write=1) and are slow (one byte a cycle: 128 cycles a line);
# with durable WPQs the sfence waits for the clwbs only, so the drain
# bandwidth does not change the run
spec "$T/path.gpu" 256 "set partitions = 1
set wpq = durable
set lat_nvm_write = 1" "$(each st 8)
$(each clwb 8)
    sfence"
is "$(cyc -D mc_bw=1 "$T/path.gpu")" "$(cyc -D mc_bw=32 "$T/path.gpu")" "clwb completions do not wait for WPQ drains"

# L2 capacity: one partition, ten dirty 128-byte lines, nothing persists
# them.  At the paper's 128 KB a partition they all stay; in 1 KB (8
# lines) the two dirty the longest are evicted to the WPQ: 2 NVM writes of
# 128 bytes; with 64-byte lines 1 KB holds 16 of the 20: 4 writes, 256
# bytes
spec "$T/cap.gpu" 320 "set partitions = 1" "$(each st 10)"
is "$(nvm "$T/cap.gpu")" "0 0" "L2 capacity 128 KB: ten dirty lines stay"
is "$(nvm "$T/cap.gpu" -D l2_kb=1)" "2 256" "L2 capacity 1 KB: the two oldest of ten lines are evicted"
is "$(nvm "$T/cap.gpu" -D l2_kb=1 -D line_bytes=64)" "4 256" "1 KB of 64-byte lines: four of twenty evicted"

# l2wb in concrete mode (issue 12 follow-up): the L2 tracks its dirty
# lines and each partition writes back its own in parallel, a line a
# cycle, so the pass costs the most dirty lines of one partition, not a
# walk of global memory.  Eight lines stored, then l2wb: a[4096] (128
# lines) costs what a[256] (8 lines) does (the walk cost 120 more lines);
# on one partition the eight take 8 cycles, on eight partitions 1: 7 fewer;
# the request and the completion cross the interconnect: +100 lat_icnt
# costs 200
spec "$T/wb256.gpu" 256 "" "$(each st 8)
    l2wb"
sed 's/a\[256\]/a[4096]/' "$T/wb256.gpu" > "$T/wb4096.gpu"
is "$(cyc "$T/wb4096.gpu")" "$(cyc "$T/wb256.gpu")" "l2wb costs the dirty lines, not the size of global memory"
is "$(($(cyc -D partitions=1 "$T/wb256.gpu") - $(cyc -D partitions=8 "$T/wb256.gpu")))" 7 \
	"l2wb: eight dirty lines on one partition take 7 cycles more than on eight"
c1=$(cyc -D lat_icnt=120 "$T/wb256.gpu"); c2=$(cyc -D lat_icnt=220 "$T/wb256.gpu")
is "$((c2 - c1))" 200 "l2wb: the request and its completion each cross the interconnect"

# the host's copy (cudaMemcpy device to device, the undo log's) moves a
# destination line a cycle in concrete mode, as a copy engine does: 256
# words (8 lines) take 6 cycles more than 64 words (2 lines), where a word
# a cycle took 192 more
cpy() {
	printf 'machine persist\nset line_bytes = 128\nglobal .u32 a[%s] = fill(1)\nglobal .u32 b[%s] = fill(0)\n' "$1" "$1"
	printf 'kernel\n    exit\nend\nhost\n    copy b, a\n    sync\nend\ncheck deterministic b\nexpect pass\n'
}
cpy 64 > "$T/c64.gpu"; cpy 256 > "$T/c256.gpu"
is "$(($(cyc "$T/c256.gpu") - $(cyc "$T/c64.gpu")))" 6 "copy: a destination line a cycle"

# grids past 32 warps (the paper's SMs hold 64 warps each): the warps
# waiting on a clwb are a mask of as many u32 words as the grid needs.
# 40 warps of a lane, each: st; clwb; sfence; st flag -- warps 32..39 are
# in the masks' second word; were their acknowledgements lost, their
# sfence would never clear (a deadlock); before, an error (32 warps at most)
printf 'machine persist\nset ctas = 5\nset warps_per_cta = 8\nset threads_per_warp = 1\nset wpq = durable\n' > "$T/w40.gpu"
printf 'global .u32 data[40] = fill(0)\nglobal .u32 flag[40] = fill(0)\nkernel\n    .reg .u32 %%r<1>\n    shl.b32 %%r0, %%gtid, 2\n' >> "$T/w40.gpu"
printf '    st.global.u32 [data + %%r0], 7\n    clwb [data + %%r0]\n    sfence\n    st.global.u32 [flag + %%r0], 1\n    exit\nend\ncheck deterministic flag\nexpect pass\n' >> "$T/w40.gpu"
"$GPUMC" run --json "$T/w40.gpu" > "$T/j" 2>&1
like "$T/j" '"end":"finished"' "40 warps: every sfence clears (the warps past 32 get their acknowledgements)"
like "$T/j" '"flag\[39\]":1' "40 warps: the last warp's flag is stored"
# global memory past 65535 words: concrete mode runs it; an exploration,
# whose traces index a state's actions in 16 bits, says so at the
# declaration that makes memory that large; check persist_order (words
# named in 16 bits) too
printf 'machine persist\nglobal .u32 x = 0\nglobal .u32 big[70000] = fill(0)\nkernel\n    st.global.u32 [x], 1\n    exit\nend\ncheck deterministic x\nexpect pass\n' > "$T/big.gpu"
run "$GPUMC" run "$T/big.gpu"
like "$T/out" "finished after" "70001 global words: gpumc run runs it"
run "$GPUMC" check "$T/big.gpu"
like "$T/err" "big.gpu:3:13: error: machine persist may enable [0-9]+ actions in a state; an exploration's traces index at most 65536" \
	"70001 global words: gpumc check errs at the large variable's declaration"
sed 's/check deterministic x/check persist_order strict/' "$T/big.gpu" > "$T/bigpo.gpu"
run "$GPUMC" check "$T/bigpo.gpu"
like "$T/err" "bigpo.gpu:3:13: error: check persist_order tracks at most 65535 global words" \
	"70001 global words: check persist_order errs at the declaration"

# the copy's source is read from NVM (device memory; the undo log's copy
# reads the output it backs up): the first line after lat_global, the
# later reads pipelined behind it, a line a cycle -- 100 more cycles of
# NVM read latency cost the copy 100 (before: untimed, 0)
c1=$(cyc -D lat_global=192 "$T/c64.gpu"); c2=$(cyc -D lat_global=292 "$T/c64.gpu")
is "$((c2 - c1))" 100 "copy: its source lines are read from NVM (lat_global), pipelined"

# l2wb_scan=all: the pass walks every line of each partition's L2, a line
# a cycle, as GPGPU-Sim's does: eight dirty lines on eight partitions cost
# 1 cycle with the dirty-line tracking L2 (the default), 128 KB / 128 B =
# 1024 with the walk, 1023 more; in a 1 KB L2 (8 lines) 7 more
c1=$(cyc -D partitions=8 "$T/wb256.gpu"); c2=$(cyc -D partitions=8 -D l2wb_scan=all "$T/wb256.gpu")
is "$((c2 - c1))" 1023 "l2wb_scan=all: the pass walks the 1024 lines of a 128 KB partition"
c1=$(cyc -D partitions=8 -D l2_kb=1 "$T/wb256.gpu"); c2=$(cyc -D partitions=8 -D l2_kb=1 -D l2wb_scan=all "$T/wb256.gpu")
is "$((c2 - c1))" 7 "l2wb_scan=all: a 1 KB partition's 8 lines"

# a warp with 256 acknowledgements outstanding: one warp's st.wt to eight
# lines (256 words) with lat_icnt=5000, so all are in flight at once, then
# sfence: it waits for the last word to cross (5000) and its
# acknowledgement to cross back (5000): more than 10000 cycles.  (The
# count was a u8: 256 wrapped to 0, the sfence cleared at once and the run
# ended after 1737 cycles with every word still in transit.)
wt8=$(k=0; while [ $k -lt 8 ]; do echo "    st.wt.global.u32 [a + %r0 + $((k * 128))], 1"; k=$((k + 1)); done)
spec "$T/wt8.gpu" 320 "set wpq = durable" "$wt8
    sfence"
c=$(cyc -D lat_icnt=5000 "$T/wt8.gpu")
ok "$([ "$c" -gt 10000 ]; echo $?)" "sfence after 256 st.wt words waits for all 256 (no u8 wrap; $c cycles)"

# a warp's st.wt to one line is one request to the L2 (GPGPU-Sim: one
# access a line; the paper: write-through "does not incur additional
# traffic"): its 32 words arrive together, so 32 lanes cost what one does
# (st.wt; sfence, lat_global=1 so the sfence waits for the acknowledgement:
# 4 + 1 + 120 across + 120 back = 245); before, the words arrived a cycle
# apart on the partition's L2 unit: 31 cycles more
spec "$T/wt1.gpu" 32 "set partitions = 1
set wpq = durable" "    st.wt.global.u32 [a + %r0], 1
    sfence"
c1=$(cyc -D lat_global=1 -D icnt_jitter=0 -D threads_per_warp=1 "$T/wt1.gpu")
c32=$(cyc -D lat_global=1 -D icnt_jitter=0 "$T/wt1.gpu")
is "$((c32 - c1))" 0 "st.wt: a warp's words of one line arrive as one request"

# an l2wb blocks other warps' global accesses only while the partitions
# walk the L2 (the paper: it "blocks subsequent L2 accesses until all the
# cache lines are checked"), not while its request and completion cross
# the interconnect: an access issued t cycles after the l2wb reaches the
# L2 t cycles after its request does.  Warp 0 stores a line, then l2wb
# (issued at 208: a walk of 1 line, 4 + 1 cycles, then the crossings,
# 2 lat_icnt + 4); warp 1 meanwhile runs 6 dependent loads of lat_global
# (192) from cycle 13 and exits at 13 + 6 x 192 = 1165: the run is 1166
# cycles whatever lat_icnt (120 or 220) -- before, its third load waited
# for the whole l2wb (208 + 4 + 240 + 1 = 453): 1223 and 1423 cycles
{
	printf 'machine persist\nset threads_per_warp = 32\nset warps_per_cta = 2\nset partitions = 1\nset wpq = durable\n'
	printf 'global .u32 a[256] = fill(0)\nglobal .u32 b[32] = fill(0)\nkernel\n    .reg .u32 %%r<3>\n    .reg .pred %%p<1>\n'
	printf '    shr.u32 %%r1, %%tid, 5\n    setp.eq.u32 %%p0, %%r1, 0\n    @%%p0 bra W0\n    ld.global.u32 %%r2, [b]\n'
	for k in 1 2 3 4 5; do printf '    ld.global.u32 %%r2, [b + %%r2]\n'; done
	printf '    exit\nW0:\n    shl.b32 %%r0, %%tid, 2\n    st.global.u32 [a + %%r0], 1\n    l2wb\n    exit\nend\n'
	printf 'check deterministic a\nexpect pass\n'
} > "$T/blk.gpu"
is "$(cyc -D lat_icnt=120 "$T/blk.gpu")" 1166 "l2wb: another warp's load waits only for the walk (lat_icnt 120)"
is "$(cyc -D lat_icnt=220 "$T/blk.gpu")" 1166 "l2wb: the interconnect crossings block no other warp (lat_icnt 220)"

# a st.wt's acknowledgement (the paper, sec. V: "sent by the memory
# controller once the data is written to device memory"; with durable
# WPQs, once it is in the persistence domain, on arrival at the WPQ)
# crosses the interconnect back whether or not the warp waits yet.  One
# warp: st.wt at cycle 4 (it costs lat_global, 192), sfence at 196.
# Durable WPQs: the data arrives at 124, the acknowledgement reaches the
# warp at 244, when the sfence passes: exit at 244, 245 cycles, whatever
# lat_nvm_write (before: 201, the sfence found nothing outstanding at 196
# and passed while the acknowledgement was still crossing).  Volatile: the
# WPQ writes it to NVM at 124 + 576 = 700, the acknowledgement is back at
# 820: 821 cycles, 1000 more with lat_nvm_write 1576
is "$(cyc -D icnt_jitter=0 -D wpq=durable "$T/wt1.gpu")" 245 \
	"st.wt; sfence, durable WPQs: the acknowledgement on arrival crosses back (245 cycles)"
is "$(cyc -D icnt_jitter=0 -D wpq=durable -D lat_nvm_write=1576 "$T/wt1.gpu")" 245 \
	"st.wt; sfence, durable WPQs: NVM's write latency does not count"
is "$(cyc -D icnt_jitter=0 -D wpq=volatile "$T/wt1.gpu")" 821 \
	"st.wt; sfence, volatile WPQs: acknowledged once written to NVM (821 cycles)"
is "$(cyc -D icnt_jitter=0 -D wpq=volatile -D lat_nvm_write=1576 "$T/wt1.gpu")" 1821 \
	"st.wt; sfence, volatile WPQs: 1000 more cycles of NVM write latency cost 1000"
