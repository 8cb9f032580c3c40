#!/bin/sh
# Kernel specs on the PTX ISA memory model (-D memory=ptx, weakmem_ptx.c):
# release/acquire at matching and mismatched scopes, fence.sc against
# fence.acq_rel, data races in the PTX sense (race_free), atomics with
# their ordering, and positioned errors for what the route cannot check.
# The verdicts were decided from the model (PTX ISA "Memory Consistency
# Model") before the checker ran; the specs' headers give the reasons.
. "$srcdir/t/lib.sh"
W="$SPECS/weakmem"
plan 26
verdict "$W/mp-rel-acq.gpu" pass
verdict "$W/mp-weak.gpu" "fail ~exists"
verdict "$W/mp-rel-acq-cta.gpu" "fail ~exists"
verdict "$W/mp-rel-acq-cta.gpu" pass -D ctas=1 -D warps_per_cta=2
verdict "$W/mp-rel-acq-guarded.gpu" pass
verdict "$W/sb-fence-sc.gpu" pass
verdict "$W/sb-relaxed.gpu" "fail ~exists"
# the fences of the thesis kernels: membar.gl is fence.sc.gpu
verdict "$W/mp.gpu" "fail ~exists" -D memory=ptx
verdict "$W/mp-fenced.gpu" pass -D memory=ptx
# fence.acq_rel does not order a store before a later load: SB's (0, 0)
sed 's/fence\.sc\.gpu/fence.acq_rel.gpu/' "$W/sb-fence-sc.gpu" > "$T/sb-acq-rel.gpu"
verdict "$T/sb-acq-rel.gpu" "fail ~exists"
# the counterexample is one consistent execution with its final values
run "$GPUMC" check "$W/mp-weak.gpu"
like "$T/out" "1\. a consistent PTX execution \(outcome [0-9]+ of 4\), with a data race: memory: data=1 flag=1; T0: .*; T1: %r0=1 %r1=0" \
	"the trace names the stale outcome and its race"
# race_free: the unguarded data read races whenever the flag is not seen
sed 's/^check ~exists.*/check race_free/; /^check forall/d; s/^expect pass/expect fail race_free/' "$W/mp-rel-acq.gpu" > "$T/mp-race.gpu"
verdict "$T/mp-race.gpu" "fail race_free"
run "$GPUMC" check "$T/mp-race.gpu"
like "$T/out" "@%p0 st.global.u32 \[data\], 1' \(line 29\) and T1 '@!%p0 ld.global.u32 %r1, \[data\]' \(line 32\)" \
	"the race names both data accesses"
# outcomes and deterministic over final values
run "$GPUMC" check --outcomes "$W/mp-rel-acq-guarded.gpu"
like "$T/out" "outcomes: 2 distinct" "guarded MP: two outcomes"
like "$T/out" "1:%r0 = 0, 1:%r1 = 7" "the guarded-off read keeps 7"
cat >"$T/atom.gpu" <<'EOF'
name "atom"
machine baseline
set memory = ptx
set sms = 2
set ctas = 2
set threads_per_warp = 1
global .u32 c = 0
global .u32 d = 0
kernel
    .reg .u32 %r<2>
    .reg .pred %p<1>
    setp.eq.u32 %p0, %ctaid, 0
    @%p0 st.global.u32 [d], 5
    atom.acq_rel.gpu.global.add.u32 %r0, [c], 1
    setp.eq.u32 %p0, %r0, 1
    @%p0 ld.global.u32 %r1, [d]
end
check forall c == 2
check deterministic c d
check ~exists 1:%r0 == 1 /\ 1:%r1 == 0
check race_free
EOF
# CTA 1's atom reads CTA 0's (an acq_rel RMW chain): it sees d = 5
verdict "$T/atom.gpu" pass
sed 's/atom\.acq_rel\.gpu/atom.relaxed.gpu/; /^check race_free/d' "$T/atom.gpu" > "$T/atom-relaxed.gpu"
verdict "$T/atom-relaxed.gpu" "fail ~exists"
sed 's/^check deterministic c d/check deterministic 0:%r0/' "$T/atom.gpu" > "$T/atom-det.gpu"
verdict "$T/atom-det.gpu" "fail deterministic"
# what the route cannot check: an error at the property or instruction
cat >"$T/bad.gpu" <<'EOF'
name "bad"
machine baseline
set memory = ptx
set ctas = 2
set threads_per_warp = 1
global .u32 x = 0
kernel
    .reg .u32 %r<1>
    ld.global.u32 %r0, [x]
end
check invariant x == 0
check forall x == 0
check durable x == 0
EOF
run "$GPUMC" check "$T/bad.gpu"
is "$rc" 2 "invariant and durable under memory=ptx: input error"
like "$T/err" "bad.gpu:11:7: error: memory=ptx: 'invariant' cannot be checked: the PTX model is axiomatic" "invariant at its line:col"
like "$T/err" "bad.gpu:13:7: error: memory=ptx: 'durable' cannot be checked" "durable at its line:col"
# refines/equals would build the reference on memory=ptx too: refused
sed 's/^check ~exists.*/check equals baseline 1:%r0, 1:%r1/' "$W/mp-weak.gpu" > "$T/equals.gpu"
run "$GPUMC" check "$T/equals.gpu"
like "$T/err" "equals.gpu:29:7: error: memory=ptx: 'equals' cannot be checked: the reference machine takes the spec's parameters" "equals at its line:col"
run "$GPUMC" check -D memory=ptx "$SPECS/baseline/divergent-branch.gpu"
like "$T/err" "error: memory=ptx: '@%p0 bra EVEN' -- kernels must be straight-line" "a branch: named, with the memory chosen"
sed 's/^    ld.global.u32 %r0, \[x\]/    sfence/; /^check invariant/d; /^check durable/d' "$T/bad.gpu" > "$T/sfence.gpu"
run "$GPUMC" check "$T/sfence.gpu"
like "$T/err" "sfence.gpu:9:1: error: memory=ptx: 'sfence' -- a persistency fence, outside the PTX memory model" "sfence refused at its line"
# the model's invariants (the file-top block of weakmem_ptx.c) hold
run "$GPUMC" check --check-model "$W/mp-rel-acq.gpu"
is "$rc" 0 "--check-model: the PTX outcome model keeps its invariants"
# the same kernel through the litmus front end gives the same outcomes
# (t/routes.c compares every bundled litmus test); here the JSON verdict
run "$GPUMC" check --json "$W/sb-fence-sc.gpu"
like "$T/out" '"states":4' "sb-fence-sc: 4 states, as derived by hand"
