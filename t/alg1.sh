#!/bin/sh
# Algorithm 1 of the persistency paper (CTA epochs, -D epoch_op=clwb): the
# clwbs go into one block that post-dominates the kernel, replaying each
# store address's use-define chain (loops included) from the registers'
# initial values (persist_models.c, alg1_slice / alg1_block);
# epoch_op=clwb-at-store keeps the clwb right after each store.
. "$srcdir/t/lib.sh"
P="$SPECS/persist"
plan 30
# a loop-carried address: every option persists everything
for o in clwb clwb-at-store wt l2wb; do for w in volatile durable; do
	verdict "$P/C3-alg1-loop.gpu" pass -D epoch_op=$o -D wpq=$w
done; done
# the finding: a chain that reloads an address the kernel overwrote
for w in volatile durable; do verdict "$P/C3-alg1-reload-bug.gpu" "fail persisted" -D wpq=$w; done
for o in clwb-at-store wt l2wb; do verdict "$P/C3-alg1-reload-bug.gpu" pass -D epoch_op=$o; done
run "$GPUMC" check "$P/C3-alg1-reload-bug.gpu"
like "$T/out" "clwb \(epoch-cta clwb: replayed address\) +\[st.global.u32 \[out \+ %r1\], %r2\]" \
	"the trace shows the replayed clwb, pointing at its store"
like "$T/out" "out\[0\]: NVM 0, dirty in L2" "and the result left dirty in the L2"
# the replay runs the loop again, after the kernel's own loop
run "$GPUMC" check --dfs "$P/C3-alg1-loop.gpu" -D wpq=durable
is "$rc" 0 "C3-alg1-loop: pass"
sed 's/^check persisted .*/check persisted sad[0] == 99/; s/^expect pass//' "$P/C3-alg1-loop.gpu" > "$T/loop99.gpu"
run "$GPUMC" check --dfs "$T/loop99.gpu"
nclwb=$(grep -c 'clwb (epoch-cta clwb: replayed address)' "$T/out")
is "$nclwb" 4 "the replayed loop issues one clwb per iteration (4)"
like "$T/out" "@%p0 bra LOOP \(epoch-cta clwb: replayed\)" "the loop's branch is replayed"
like "$T/out" "mov.u32 %r2, 0 \(epoch-cta clwb: replay from the start\)" "registers start the replay at their initial value"
grep -q 'add.u32 %r0, %r0, 8 (epoch-cta clwb: replayed)' "$T/out"
ok $((! $?)) "what no address needs (the reference pointer) is not replayed"
# a loop that stores nothing and computes no address (a histogram's count
# loop, its bins stored after it) is not run again
cat > "$T/count.gpu" <<'G'
machine persist
set persistency = epoch-cta
set epoch_op = clwb
set threads_per_warp = 2
set line_bytes = 4
global .u32 in[8] = { 0, 1, 1, 0, 1, 1, 1, 0 }
global .u32 bins[2] = fill(0)
kernel
    .reg .u32 %r<5>
    .reg .pred %p<2>
    shl.b32        %r0, %tid, 2
    shl.b32        %r4, %tid, 2
LOOP:
    ld.global.u32  %r3, [in + %r0]
    add.u32        %r2, %r2, %r3
    add.u32        %r0, %r0, 8
    add.u32        %r1, %r1, 1
    setp.lt.u32    %p0, %r1, 4
    @%p0 bra       LOOP
    st.global.u32  [bins + %r4], %r2
    exit
end
check persisted bins[0] == 99
G
run "$GPUMC" check --dfs "$T/count.gpu"
is "$(grep -c '(epoch-cta clwb: replayed' "$T/out")" 2 "a loop without stores: the replay is the address (shl) and one clwb"
grep -q 'bra LOOP (epoch-cta clwb: replayed)' "$T/out"
ok $((! $?)) "the count loop is not run again"
run "$GPUMC" check -q --check-model "$P/C3-alg1-loop.gpu"
is "$rc" 0 "--check-model: C3-alg1-loop keeps the machine's contract"
# concrete mode: the streaming kernel (a thread fills its own line over 32
# stores) writes each line back once with Algorithm 1; a clwb after each
# store writes it each time, and st.wt each store
for o in clwb clwb-at-store wt; do
	"$GPUMC" run --json -D persistency=epoch-cta -D epoch_op=$o -D wpq=volatile \
		"$srcdir/bench/specs/persist-sad.gpu" > "$T/$o.json" 2>/dev/null
done
a=$(jnum "NVM line writes" "$T/clwb.json") b=$(jnum "NVM line writes" "$T/clwb-at-store.json") c=$(jnum "NVM line writes" "$T/wt.json")
is "$a" 1024 "persist-sad, Algorithm 1: one NVM write per line (1024 lines)"
ok $((! (a < b && b < c))) "NVM line writes: Algorithm 1 ($a) < clwb at each store ($b) < write-through ($c)"
# where the chain cannot be replayed, or the block cannot be reached by all, an error
cat > "$T/atom.gpu" <<'G'
machine persist
set persistency = epoch-cta
set epoch_op = clwb
set threads_per_warp = 2
global .u32 ctr = 0
global .u32 out[4] = fill(0)
kernel
    .reg .u32 %r<3>
    atom.global.add.u32 %r1, [ctr], 1
    shl.b32        %r1, %r1, 2
    st.global.u32  [out + %r1], %r1
    exit
end
check persisted out[0] == 0
G
run "$GPUMC" check "$T/atom.gpu"
is "$rc" 2 "an address from an atomic's result: input error (exit 2)"
like "$T/err" "line 9: a store address depends on this atomic's result.*epoch_op=clwb-at-store" \
	"the error names the atomic's line and the option that needs no replay"
verdict "$T/atom.gpu" pass -D epoch_op=clwb-at-store
cat > "$T/bar.gpu" <<'G'
machine persist
set persistency = epoch-cta
set epoch_op = clwb
set threads_per_warp = 2
global .u32 out[2] = fill(0)
kernel
    .reg .u32 %r<2>
    .reg .pred %p<1>
    setp.eq.u32    %p0, %tid, 0
    @%p0 exit
    bar.sync       0
    shl.b32        %r0, %tid, 2
    st.global.u32  [out + %r0], %r0
    exit
end
check persisted out[1] == 4
G
run "$GPUMC" check "$T/bar.gpu"
is "$rc" 2 "bar.sync with an exit before the end: input error (exit 2)"
like "$T/err" "bar.sync and an exit before its end" "the error says why"
