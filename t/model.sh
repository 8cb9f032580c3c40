#!/bin/sh
# The explorer side of the model contract (src/explore/model.h): every
# optional hook of a model may be missing, and a command that needs one
# refuses with exit 2 instead of crashing.
. "$srcdir/t/lib.sh"
plan 6
W="$SPECS/weakmem"
# the address-queue memory has no concrete-mode timing; `run` used to
# follow its NULL timing hook into a segfault
for mem in ics13 ics13-fixed; do
	run "$GPUMC" run -D memory=$mem "$W/mp.gpu"
	is "$rc" 2 "run -D memory=$mem: no timing, refused with exit 2"
	like "$T/err" "machine $mem has no concrete-mode timing" "run -D memory=$mem: says why"
done
# the same model still explores, and its trace still replays
run "$GPUMC" check -q --trace "$T/mp.trail" -D memory=ics13 "$W/mp.gpu"
is "$rc" 1 "check -D memory=ics13: ~exists violated"
run "$GPUMC" replay "$T/mp.trail"
is "$rc" 1 "its trace replays to the violation"
