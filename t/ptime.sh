#!/bin/sh
# Persistency timing in concrete mode (issue 12, "Timing that matches the
# paper"): the NVM-write counters (each WPQ entry is one NVM line write of
# the words it holds), derived by hand below before running.
. "$srcdir/t/lib.sh"
plan 13
# one warp of 32 lanes stores 32 consecutive words: one 128-byte line.
# The host writes the L2 back (cudaL2WB) and drains the WPQs.
cat > "$T/line.gpu" <<'G'
machine persist
set threads_per_warp = 32
set line_bytes = 128
global .u32 a[64] = fill(0)
kernel
    .reg .u32 %r<1>
    shl.b32 %r0, %tid, 2
    st.global.u32 [a + %r0], 1
    exit
end
host
    launch
    sync
    l2wb
    pcommit
    sync
end
check deterministic a
expect pass
G
nvm() { # nvm OPTIONS...: "LINES BYTES" of one run
	"$GPUMC" run --json --seed 1 "$@" "$T/line.gpu" > "$T/j" 2>/dev/null
	echo "$(jnum 'NVM line writes' "$T/j") $(jnum 'NVM bytes written' "$T/j")"
}
# the dirty line goes to its WPQ as one entry: 1 write of 32 words
is "$(nvm)" "1 128" "l2wb of one dirty line: one NVM line write, 128 bytes"
# word granularity: 32 entries of one word each, the same bytes
is "$(nvm -D line_bytes=4)" "32 128" "line_bytes=4: 32 NVM writes, 128 bytes"
# 64-byte lines: the 32 words are two lines
is "$(nvm -D line_bytes=64)" "2 128" "line_bytes=64: 2 NVM writes, 128 bytes"
# strict persistency with clwb: each lane's clwb names the same line, so
# the warp's one clwb completes once for the line, then the l2wb finds
# nothing dirty: still one write
is "$(nvm -D persistency=strict-clwb)" "1 128" "strict-clwb, one warp-wide store: one line write"
# write-through: every lane's word crosses alone and enters the WPQ on
# arrival; words that arrive while the line's entry waits merge into it,
# so there are between 1 and 32 writes, always 128 bytes
"$GPUMC" run --json --seed 1 -D persistency=strict-wt "$T/line.gpu" > "$T/j" 2>/dev/null
w=$(jnum 'NVM line writes' "$T/j")
ok "$([ "$w" -ge 1 ] && [ "$w" -le 32 ]; echo $?)" "strict-wt: between 1 and 32 line writes (got $w)"
is "$(jnum 'NVM bytes written' "$T/j")" 128 "strict-wt: 128 bytes"
# the text report names them too
run "$GPUMC" run --seed 1 "$T/line.gpu"
like "$T/out" "^  NVM line writes +1$" "text report: NVM line writes"
like "$T/out" "^  NVM bytes written +128$" "text report: NVM bytes written"
# the acknowledgement of a clwb crosses the interconnect back to the warp:
# 100 more cycles of lat_icnt cost st; clwb; sfence 200 (request and ack)
cat > "$T/ack.gpu" <<'G'
machine persist
set threads_per_warp = 32
set line_bytes = 128
set wpq = durable
global .u32 a[64] = fill(0)
kernel
    .reg .u32 %r<1>
    shl.b32 %r0, %tid, 2
    st.global.u32 [a + %r0], 1
    clwb [a + %r0]
    sfence
    exit
end
check deterministic a
expect pass
G
cyc() { "$GPUMC" run --json --seed 1 "$@" > "$T/j" 2>/dev/null; jnum cycles "$T/j"; }
c1=$(cyc -D lat_icnt=120 "$T/ack.gpu"); c2=$(cyc -D lat_icnt=220 "$T/ack.gpu")
is "$((c2 - c1))" 200 "clwb; sfence: the request and the acknowledgement each cross the interconnect"
# clwb completions do not queue behind WPQ drains: eight lines of one
# partition stored, then clwb'd back to back; the drains come at once
# (lat_nvm_write=1) and are slow (one byte a cycle: 128 cycles a line);
# with durable WPQs the sfence waits for the clwbs only, so the drain
# bandwidth does not change the run
cat > "$T/path.gpu" <<'G'
machine persist
set threads_per_warp = 32
set line_bytes = 128
set partitions = 1
set wpq = durable
set lat_nvm_write = 1
global .u32 a[256] = fill(0)
kernel
    .reg .u32 %r<1>
    shl.b32 %r0, %tid, 2
    st.global.u32 [a + %r0], 1
    st.global.u32 [a + %r0 + 128], 1
    st.global.u32 [a + %r0 + 256], 1
    st.global.u32 [a + %r0 + 384], 1
    st.global.u32 [a + %r0 + 512], 1
    st.global.u32 [a + %r0 + 640], 1
    st.global.u32 [a + %r0 + 768], 1
    st.global.u32 [a + %r0 + 896], 1
    clwb [a + %r0]
    clwb [a + %r0 + 128]
    clwb [a + %r0 + 256]
    clwb [a + %r0 + 384]
    clwb [a + %r0 + 512]
    clwb [a + %r0 + 640]
    clwb [a + %r0 + 768]
    clwb [a + %r0 + 896]
    sfence
    exit
end
check deterministic a
expect pass
G
is "$(cyc -D mc_bw=1 "$T/path.gpu")" "$(cyc -D mc_bw=32 "$T/path.gpu")" "clwb completions do not wait for WPQ drains"
# L2 capacity: one partition, ten dirty 128-byte lines, nothing persists
# them.  At the paper's 128 KB a partition they all stay; in 1 KB (8
# lines) the two dirty the longest are evicted to the WPQ: 2 NVM writes of
# 128 bytes; with 64-byte lines 1 KB holds 16 of the 20: 4 writes, 256
# bytes
cat > "$T/cap.gpu" <<'G'
machine persist
set threads_per_warp = 32
set line_bytes = 128
set partitions = 1
global .u32 a[320] = fill(0)
kernel
    .reg .u32 %r<1>
    shl.b32 %r0, %tid, 2
    st.global.u32 [a + %r0], 1
    st.global.u32 [a + %r0 + 128], 1
    st.global.u32 [a + %r0 + 256], 1
    st.global.u32 [a + %r0 + 384], 1
    st.global.u32 [a + %r0 + 512], 1
    st.global.u32 [a + %r0 + 640], 1
    st.global.u32 [a + %r0 + 768], 1
    st.global.u32 [a + %r0 + 896], 1
    st.global.u32 [a + %r0 + 1024], 1
    st.global.u32 [a + %r0 + 1152], 1
    exit
end
check deterministic a
expect pass
G
capn() { "$GPUMC" run --json --seed 1 "$@" "$T/cap.gpu" > "$T/j" 2>/dev/null; echo "$(jnum 'NVM line writes' "$T/j") $(jnum 'NVM bytes written' "$T/j")"; }
is "$(capn)" "0 0" "L2 capacity 128 KB: ten dirty lines stay"
is "$(capn -D l2_kb=1)" "2 256" "L2 capacity 1 KB: the two oldest of ten lines are evicted"
is "$(capn -D l2_kb=1 -D line_bytes=64)" "4 256" "1 KB of 64-byte lines: four of twenty evicted"
