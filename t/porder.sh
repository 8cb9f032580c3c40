#!/bin/sh
# check persist_order strict|epoch (specs/persist/O*, persist_order.c):
# the paper's mechanisms pass their model, one missing fence fails it with
# both stores named, epochs are weaker than strict, the record leaves
# other specs' state vectors alone, and bad input is refused.
. "$srcdir/t/lib.sh"
P="$SPECS/persist"
plan 46
for s in O1-strict O2-strict-bar O3-epoch; do verdict "$P/$s.gpu" pass; done
for s in O1-strict-bug O2-strict-bar-bug O3-epoch-bug; do verdict "$P/$s.gpu" "fail persist_order"; done
run "$GPUMC" check "$P/O1-strict-bug.gpu"
like "$T/out" "store B, thread 0 .* to out2\[0\], is durable but store A, thread 0 .* to out1\[0\], is not.*\(by program order\)" \
	"the counterexample names the durable store and the earlier one that is not"
like "$T/out" "WPQ drains to NVM: out2\[0\]" "and the trace ends where out2 reached NVM"
run "$GPUMC" check "$P/O2-strict-bar-bug.gpu"
like "$T/out" "to b, is durable but store A, thread 0 .* to a, is not.*\(by a bar.sync\)" "across threads: the bar.sync orders them"
# epochs are weaker than strict: O3 fails strict (nothing orders out1 and out2)
sed 's/^check persist_order epoch/check persist_order strict/; s/^expect pass/expect fail persist_order/' "$P/O3-epoch.gpu" > "$T/o3s.gpu"
verdict "$T/o3s.gpu" "fail persist_order"
# the paper's loop epochs (Fig. 5(b)): F3 (no barrier after the fence) is a
# violation of epoch order; the fixed kernel and the epoch-loop rewrite keep it
for s in T4 T4-fix models-loop; do sed 's/^check durable.*/check persist_order epoch/' "$P/$s.gpu" > "$T/$s.gpu"; done
verdict "$T/T4.gpu" "fail persist_order"
verdict "$T/T4-fix.gpu" pass
verdict "$T/models-loop.gpu" pass
verdict "$T/models-loop.gpu" pass -D scope=2
sed 's/^check persist_order epoch/check persist_order strict/' "$T/models-loop.gpu" > "$T/ml-strict.gpu"
verdict "$T/ml-strict.gpu" "fail persist_order" -D persistency=none
# the machine's contract and the record's invariant PO-1 hold
run "$GPUMC" check -q --check-model "$P/O3-epoch-bug.gpu"
is "$rc" 1 "--check-model: O3-epoch-bug still fails on its property, not the contract"
run "$GPUMC" check -q --check-model "$P/O1-strict.gpu"
is "$rc" 0 "--check-model: O1-strict"
# a trail of the violation replays to it
"$GPUMC" check -q --trace "$T/o1.trail" "$P/O1-strict-bug.gpu" > /dev/null
run "$GPUMC" replay "$T/o1.trail"
is "$rc" 1 "replay of a persist_order counterexample: exit 1"
# the record is there only when the property is asked for
sed 's/^check persist_order strict/check durable out1[0] == out1[0]/' "$P/O1-strict.gpu" > "$T/o1d.gpu"
v1=$("$GPUMC" check "$T/o1d.gpu" | grep -o '[0-9]*-byte state vector')
v2=$("$GPUMC" check "$P/O1-strict.gpu" | grep -o '[0-9]*-byte state vector')
[ -n "$v1" ] && [ "$v1" != "$v2" ]; ok $? "without persist_order the vector has no record ($v1, with it $v2)"
# more stores not yet durable than the record holds (17 stores to one
# word, none yet evicted): a clear fault
printf 'machine persist\nset threads_per_warp = 1\nglobal .u32 x = 0\nkernel\n .reg .u32 %%r<1>\n .reg .pred %%p<1>\n mov.u32 %%r0, 0\nL:\n st.global.u32 [x], %%r0\n add.u32 %%r0, %%r0, 1\n setp.lt.u32 %%p0, %%r0, 17\n @%%p0 bra L\n exit\nend\ncheck persist_order strict\n' > "$T/win.gpu"
run "$GPUMC" check -D crashes=1 "$T/win.gpu"
like "$T/out" "more stores not yet durable than its record holds" "a full record faults with a message"
# bad input: file:line:col, exit 2
printf 'machine persist\nglobal .u32 x = 0\nkernel\n exit\nend\ncheck persist_order sometimes\n' > "$T/bad.gpu"
run "$GPUMC" check "$T/bad.gpu"
is "$rc" 2 "persist_order with an unknown model: input error"
like "$T/err" "bad.gpu:6:[0-9]+: .*strict or epoch" "it names the place and the models"
# issue 12 item 6: loop epochs with different trip counts no longer
# deadlock (the epoch ends per warp), and the CTA epoch's clwb and wt options
verdict "$P/L2-loop-trips.gpu" pass
for op in clwb clwb-at-store wt l2wb; do for w in volatile durable; do
	verdict "$P/C2-cta-clwb.gpu" pass -D epoch_op=$op -D wpq=$w
done; done
sed 's/^check persist_order epoch/check persist_order strict/' "$P/C2-cta-clwb.gpu" > "$T/c2s.gpu"
verdict "$T/c2s.gpu" "fail persist_order"
# the clwb option (Algorithm 1): the clwbs in the block at the end, no
# barrier, no l2wb (t/alg1.sh: the replay); clwb-at-store: one after each store
run "$GPUMC" check "$T/c2s.gpu"
like "$T/out" "clwb \(epoch-cta clwb: replayed address\)" "the clwb option: the clwbs replayed at the end"
grep -Eq "l2wb|bar.sync" "$T/out"; is $? 1 "and no l2wb or barrier on the way"
run "$GPUMC" check -D epoch_op=clwb-at-store "$T/c2s.gpu"
like "$T/out" "clwb \(epoch-cta clwb\)" "clwb-at-store: a clwb follows the store"
# issue 12 item 4: a recovery language with registers, loops, arithmetic
# and computed elements; an undo log walked from its tail
verdict "$P/U1-log-tail.gpu" pass
verdict "$P/U1-log-tail-bug.gpu" "fail recoverable"
verdict "$P/U1-log-tail-bug.gpu" pass -D crashes=1
run "$GPUMC" check "$P/U1-log-tail-bug.gpu"
like "$T/out" "recovery step 6: store out\[%h1 \+ 0 = [0-9]\] = %h2" "the trace shows the computed element and the register's value"
like "$T/out" "power fails again, during recovery" "the bug needs the crash during recovery"
# a computed element past its variable: the recovery faults, with the reason
sed -e 's/^        ld      %h1, log_idx\[%h0\]/        add     %h1, %h0, 7/' "$P/U1-log-tail.gpu" > "$T/oob.gpu"
run "$GPUMC" check "$T/oob.gpu"
like "$T/out" "the recovery faults: it names an element past its variable" "an element past its variable is a fault of the recovery"
# bad input
printf 'machine persist\nglobal .u32 x = 0\nkernel\n exit\nend\nrecovery\n mov %%h0, 2\n while %%h0 > 0\n  launch\n end\nend\ncheck recoverable x == 0\n' > "$T/b1.gpu"
run "$GPUMC" check "$T/b1.gpu"
like "$T/err" "b1.gpu:9:[0-9]+: error: 'launch' is device work" "device work in a while body: refused with its place"
printf 'machine persist\nglobal .u32 x = 0\nkernel\n exit\nend\nrecovery\n mov %%h8, 2\nend\ncheck recoverable x == 0\n' > "$T/b2.gpu"
run "$GPUMC" check "$T/b2.gpu"
is "$rc" 2 "%h8: no such register (input error)"
printf 'machine persist\nglobal .u32 x[2] = fill(0)\nhost\n store x[%%h0] = 1\nend\nkernel\n exit\nend\ncheck persisted x[0] == 0\n' > "$T/b3.gpu"
run "$GPUMC" check "$T/b3.gpu"
like "$T/err" "b3.gpu:4:[0-9]+: error: registers are the recovery's" "the host program has no registers"
# --max-states bounds the recovery's own exploration too (it had no bound)
run "$GPUMC" check --max-states 5 "$P/R1-restart.gpu"
is "$rc" 3 "a recovery longer than --max-states: incomplete"
like "$T/out" "INCOMPLETE: --max-states \(in the recovery of a crash image\)" "and it says the limit was hit in the recovery"
