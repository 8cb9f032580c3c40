#!/bin/sh
# GPU persistency (specs/persist): each spec's declared verdict, the WPQ
# configuration flipping pcommit's necessity, and the counterexample
# showing the crash point, the durable image and the broken invariant.
. "$srcdir/t/lib.sh"
P="$SPECS/persist"
plan 65
run "$GPUMC" suite "$P"; is "$rc" 0 "gpumc suite specs/persist: every declared verdict"
v() { spec=$1; want=$2; shift 2
	got=$("$GPUMC" check -q --json "$@" "$P/$spec.gpu" 2>/dev/null | grep -o '"verdict":"[^"]*"' | cut -d'"' -f4)
	is "$got" "$want" "$spec $*: $want"; }
v T1-bug-a pass -D wpq=durable
v T1-bug-a "fail durable" -D wpq=volatile
v T1 pass -D wpq=durable
v T1-wt pass -D wpq=durable
run "$GPUMC" check "$P/T1-bug-a.gpu"
like "$T/out" "CRASH: power fails" "the trace ends at the crash point"
like "$T/out" "^durable image after the crash: .*out1 = 0, out2 = 24" "the durable image: out2 survived without out1"
like "$T/out" "^broken invariant: durable out2 == 0" "the invariant that failed"
run "$GPUMC" check "$P/T3-bug.gpu"
like "$T/out" "^durable image at the end: " "persisted: the durable image when the kernel ended"
# replay re-checks what the crash left (it said "no violation" before)
"$GPUMC" check -q --trace "$T/t1.trail" "$P/T1-bug-a.gpu" > /dev/null
run "$GPUMC" replay "$T/t1.trail"
is "$rc" 1 "replay of a crash counterexample: exit 1"
# a crash is always possible but is no progress: deadlocks are still found
run "$GPUMC" check -q -D machine=persist "$SPECS/baseline/barrier-divergence-deadlock.gpu"
is "$rc" 1 "a deadlock on the persist machine is reported"
# concrete mode never takes a crash, and ends when the kernel does
run "$GPUMC" run --max-cycles 100000 "$P/T1.gpu"
is "$rc" 0 "gpumc run on persist finishes (no crash taken)"
like "$T/out" "finished after" "and says so"
# persistency properties on a machine without a persistence domain
run "$GPUMC" check -q -D machine=baseline "$P/T1.gpu"
is "$rc" 2 "durable/persisted on the baseline: input error, not a silent pass"
# persistency models as rewrites (a spec's `set persistency = strict-clwb`
# parses: values may be joined by '-')
for mw in "strict-clwb volatile" "strict-clwb durable" "strict-wt volatile" "strict-wt durable"; do
	set -- $mw; v models pass -D persistency=$1 -D wpq=$2
done
v models "fail durable" -D persistency=epoch-kernel
v models "fail durable" -D persistency=epoch-cta
v models "fail persisted" -D persistency=none
v models-loop pass
v models-loop "fail durable" -D scope=2
v models-loop "fail durable" -D persistency=none
# the paper's own figures: the counterexamples are the findings
run "$GPUMC" check "$P/T5.gpu"
like "$T/out" "^durable image after the crash: .*undo_log\[0\] = 0, .*flag = 1" "T5 (F1): the flag is durable, the log is not"
run "$GPUMC" check "$P/T7.gpu"
like "$T/out" "L2 evicts dirty out\[1\]" "T7 (F2): an output is evicted before the flag says inTx"
# idempotency: the static 'no' names the variable, the 'yes' is confirmed
run "$GPUMC" check "$P/T5-idem-check-bug.gpu"
like "$T/out" "^VIOLATED: idempotent: 'out' is read and written" "not idempotent: out is clobbered"
"$GPUMC" check -q --json "$P/T5-idem-check.gpu" > "$T/j"
[ "$(jnum crash_images "$T/j")" -ge 2 ]; ok $? "idempotent: confirmed on $(jnum crash_images "$T/j") crash images"
# recovery programs re-execute along one schedule and report their failures
printf 'machine persist\nset threads_per_warp = 2\nglobal .u32 x = 0\nkernel\n .reg .u32 %%r<1>\n .reg .pred %%p<1>\n ld.global.u32 %%r0, [x]\n setp.lt.u32 %%p0, %%tid, %%r0\n @%%p0 bra L\n bar.sync 0\nL:\n st.global.u32 [x], 1\n exit\nend\nrecovery\n launch\nend\ncheck recoverable x == 1\n' > "$T/rd.gpu"
run "$GPUMC" check "$T/rd.gpu"
like "$T/out" "recovery program fails on this crash image: the recovery deadlocks" "a re-execution that deadlocks (divergent bar.sync once x is 1) is reported"
# crash images are counted and deduplicated
"$GPUMC" check -q --json "$P/T1.gpu" > "$T/j"
[ "$(jnum crash_images "$T/j")" -ge 2 ]; ok $? "T1: distinct crash images checked ($(jnum crash_images "$T/j"))"
# guards on the persist instructions are honoured (issue 12, item 1): a
# guarded-off sfence/membar/pcommit/l2wb is no instruction for that warp
v G1-sfence-guard-bug "fail durable"
v G1-l2wb-guard-bug "fail persisted"
sed 's/@%p0 sfence/@%p0 membar.gl/' "$P/G1-sfence-guard-bug.gpu" > "$T/g1m.gpu"
run "$GPUMC" check -q "$T/g1m.gpu"; is "$rc" 1 "@%p membar.gl guarded off on warp 1: its flag can be durable before its datum"
sed 's/^    @%p0 sfence .*/    sfence\n    @%p0 pcommit\n    sfence/' "$P/G1-sfence-guard-bug.gpu" > "$T/g1q.gpu"
run "$GPUMC" check -q -D wpq=volatile "$T/g1q.gpu"; is "$rc" 1 "sfence; @%p pcommit; sfence: warp 1 skips the pcommit, its datum may still sit in a volatile WPQ"
sed 's/^    @%p0 sfence .*/    sfence\n    pcommit\n    sfence/' "$P/G1-sfence-guard-bug.gpu" > "$T/g1r.gpu"
run "$GPUMC" check -q -D wpq=volatile "$T/g1r.gpu"; is "$rc" 0 "sfence; pcommit; sfence unguarded: passes with volatile WPQs"
# st.wt crosses to its memory controller per lane (issue 12, item 2)
v W1-wt-transit-bug "fail durable"
v W1-wt-transit pass -D wpq=volatile
v W2-wt-lanes-bug "fail durable"
run "$GPUMC" check "$P/W1-wt-transit-bug.gpu"
like "$T/out" "^  data: NVM 0, st.wt of 7 in transit" "the counterexample shows the write-through still in transit"
# a st.wt of a word whose older st.wt is queued: draining the older one
# does not acknowledge the newer one still in transit
printf 'machine persist\nset partitions = 2\nset line_bytes = 4\nset threads_per_warp = 1\nset wpq = volatile\nglobal .u32 d = 0\nglobal .u32 flag = 0\nkernel\n st.wt.global.u32 [d], 1\n st.wt.global.u32 [d], 2\n sfence\n st.global.u32 [flag], 1\n clwb [flag]\n sfence\n pcommit\n sfence\n exit\nend\ncheck durable flag == 0 \\/ d == 2\n' > "$T/wt2.gpu"
run "$GPUMC" check -q "$T/wt2.gpu"; is "$rc" 0 "two st.wt to one word: sfence waits for the newer one"
run "$GPUMC" check -q --check-model "$P/W2-wt-lanes.gpu"; is "$rc" 0 "W2-wt-lanes: the persist invariants (PM-2..PM-5) hold in every state"
# launch, cudaL2WB, copy and pcommit are queued device work; only sync
# waits for them; the kernel may be launched several times (item 3)
v K1-l2wb-nosync-bug "fail durable"
run "$GPUMC" check "$P/K1-l2wb-nosync-bug.gpu"
like "$T/out" "host step 3: cudaL2WB.. .queued for the device" "the host only queues cudaL2WB"
like "$T/out" "^durable image after the crash: .*out\[1\] = 0, done = 1" "and publishes the flag before the outputs are durable"
v K2-launches-bug "fail persisted"
"$GPUMC" check -q --json "$P/K2-launches.gpu" > "$T/j"
is "$(jnum terminal_states "$T/j")" 3 "K2-launches: two launches in a row end with x = 2 in NVM, WPQ or L2 only (3 terminal states)"
run "$GPUMC" check -q --check-model "$P/K2-launches.gpu"; is "$rc" 0 "K2-launches: PM-2..PM-6 hold in every state"
# strict persistency covers atomics: an atom or red is a store (item 5)
for mw in "strict-clwb volatile" "strict-clwb durable" "strict-wt volatile" "strict-wt durable"; do
	set -- $mw; v S1-strict-atomics pass -D persistency=$1 -D wpq=$2
done
run "$GPUMC" check -q -D persistency=none "$P/S1-strict-atomics.gpu"; is "$rc" 1 "S1-strict-atomics without a persistency model fails"
# the recovery is a program on the machine, explored, with crashes during
# it up to --crashes K (item 4)
run "$GPUMC" check -q --crashes 1 "$P/R1-restart-bug.gpu"; is "$rc" 0 "R1-restart-bug: one crash, the recovery looks fine"
run "$GPUMC" check "$P/R1-restart-bug.gpu"
is "$rc" 1 "R1-restart-bug: a crash during the recovery's re-execution breaks it (default --crashes 2)"
like "$T/out" "^    CRASH: power fails again, during recovery" "the report shows the crash during recovery"
like "$T/out" "^image after the crash and recovery: .*out\[0\] = 16" "and the twice-incremented output"
run "$GPUMC" check -q --crashes 3 "$P/R1-restart.gpu"; is "$rc" 0 "R1-restart: a restartable recovery passes with 2 crashes during it"
# a recovery that publishes its commit flag before its repairs are durable
sed '/^        l2wb$/d; /^        pcommit$/d' "$P/R1-restart.gpu" | sed '/^        launch$/{n;/^        sync$/d;}' > "$T/r2.gpu"
run "$GPUMC" check -q --crashes 2 "$T/r2.gpu"; is "$rc" 1 "a recovery that does not persist its repairs before its flag fails with --crashes 2"
# epoch rewrites: the final partial loop epoch, predicated exits (item 6)
v L1-loop-tail pass
v L1-loop-tail "fail persisted" -D persistency=none
# loop_sync=cta, the paper's per-CTA loop epoch (Fig. 5(b)) with F3's
# barrier after thread 0's l2wb: passes on uniform trip counts (without
# that barrier: fail durable, seen by removing it), deadlocks on uneven ones
v models-loop pass -D loop_sync=cta
v L2-loop-trips "fail deadlock_free" -D loop_sync=cta
v C1-cta-predexit pass
# a recovery `where` variable needs an element per CTA: an input error at load time
printf 'machine persist\nset ctas = 2\nset threads_per_warp = 1\nglobal .u32 x[2] = fill(0)\nglobal .u32 flag = 0\nkernel\n exit\nend\nrecovery\n launch where flag[cta] != 2\nend\ncheck recoverable x[0] == 0\n' > "$T/wh.gpu"
run "$GPUMC" check "$T/wh.gpu"; is "$rc" 2 "where flag[cta] with one element for two CTAs: input error"
like "$T/err" "wh.gpu:10:1: error: where flag.cta.: 2 CTAs, but flag has 1 elements" "with file:line:col"
