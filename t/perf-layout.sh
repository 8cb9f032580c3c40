#!/bin/sh
# Issue 8 (exploration speed back to d96fd21): the shortcuts the speed
# work takes must not change what is explored.
#  1. persist keeps its st.wt arrays (wt, transit: 8 bytes per global word)
#     only when the kernel, as its persistency model rewrote it, has a
#     global st.wt, and its host record counts only the WPQ entries (the
#     clwb and st.wt counters, which only concrete mode read, are gone: its
#     pending-line list says the same): T3 (clwb only) is d96fd21's
#     336-byte vector (the per-warp record's u32 count and cursor, 4 bytes
#     a warp more, paid for by the 8 counter bytes) less the 8 of the %r3
#     it declares and never writes (no row since vec14, t/vector.sh): 328;
#     its strict-wt rewrite (every store a st.wt) has them: 328 + 8 x 4
#     words = 360; a st.wt kernel still finds its bug.
#  2. DAB schedulers compute their view (turn, round, token) only for the
#     issues that read or move it: every rule keeps its state count
#     (D2 under SRR, GTAR, GTRR; the counts main had before the change).
#  3. cta_dispatch offers no gate when every CTA is resident: with fewer
#     slots (batches) the gate is still there.
#  4. crash images are told apart by the bytes durable() may write
#     (model.durable_key: persist's memory words), not the whole vector.
. "${srcdir:-.}/t/lib.sh"
plan 15
C="check -q --json --por=off --threads 1"

run "$GPUMC" $C "$SPECS/persist/T3.gpu"
is "$(jnum state_vector_bytes "$T/out")" 328 "T3: no st.wt arrays, no clwb/st.wt counters, no row for %r3: 328-byte vector"
is "$(jnum states "$T/out")" 8023 "T3: 8023 states"
# the set of crash images keys on the image's memory words (persist's
# durable_key): 16 distinct images as with whole vectors, and
# --check-model's C-5 finds no byte past them set (with the key planted one
# word short: 8 images, and C-5 names byte 12)
is "$(jnum crash_images "$T/out")" 16 "T3: 16 crash images, keyed on the durable words"
run "$GPUMC" check -q --check-model "$SPECS/persist/T3.gpu"
is "$rc" 0 "T3 --check-model: C-5, the durable image is zero past its key"
run "$GPUMC" $C -D persistency=strict-wt "$SPECS/persist/T3.gpu"
is "$(jnum state_vector_bytes "$T/out")" 360 "T3 strict-wt: the rewrite's st.wt brings the arrays: 360 bytes"
is "$(jnum states "$T/out")" 849 "T3 strict-wt: 849 states"
like "$T/out" '"verdict":"pass"' "T3 strict-wt: passes"
run "$GPUMC" $C "$SPECS/persist/W2-wt-lanes-bug.gpu"
like "$T/out" '"verdict":"fail durable"' "W2-wt-lanes-bug: the torn st.wt is still found"
is "$(jnum states "$T/out")" 13 "W2-wt-lanes-bug: 13 states"

for r in srr:4186 gtar:29926 gtrr:20826 gwat-bar:84886; do
	run "$GPUMC" $C -D scheduler=${r%:*} "$SPECS/dab/D2.gpu"
	is "$(jnum states "$T/out")" ${r#*:} "D2 scheduler=${r%:*}: ${r#*:} states"
done

# D2's two CTAs on one SM with one slot: two batches, the second gated
# until the first's warps are done (487 states: a scheduler buffer keeps
# their atomics, IV-C5; 671 while the slot waited for their flush, 605
# before the flush fired on full buffers beside running warps, DAB IV-D);
# all resident: 31344 (23477)
run "$GPUMC" $C -D cta_slots=1 -D sms=1 "$SPECS/dab/D2.gpu"
is "$(jnum states "$T/out")" 487 "D2 sms=1 cta_slots=1: batches gated, 487 states"
run "$GPUMC" $C -D sms=1 "$SPECS/dab/D2.gpu"
is "$(jnum states "$T/out")" 31344 "D2 sms=1: all resident, no gate, 31344 states"
