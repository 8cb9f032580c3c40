#!/bin/sh
# Mutation fuzzing of the spec parser and machine builder (t/fuzz.c); .litmus
# seeds go through the litmus parser and every memory model instead.  Under
# the ASan+UBSan build any memory error aborts the run and fails the test.
. "$srcdir/t/lib.sh"
exec "$BUILDDIR/t/fuzz" "${GPUMC_FUZZ_ITERS:-500}" 0x5eed "$SPECS"/baseline/*.gpu "$srcdir"/t/good/*.gpu \
	"$SPECS"/dab/D4.gpu "$SPECS"/persist/T5.gpu "$SPECS"/persist/T7.gpu "$SPECS"/persist/T8.gpu \
	"$SPECS"/persist/T10-undo-k.gpu "$SPECS"/persist/models-loop.gpu "$SPECS"/weakmem/mp.gpu \
	"$srcdir"/specs/litmus/format/*.litmus "$srcdir"/specs/litmus/bugs/spinlock-cas.litmus \
	"$srcdir"/specs/litmus/cta-global/CoRR-L2-L1+membar.ctas.litmus
