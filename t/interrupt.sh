#!/bin/sh
# SIGINT and SIGTERM on a long run (issue 16): the statistics so far, the
# verdict "incomplete" and exit 3, in check, suite, litmus and run.
. "$srcdir/t/lib.sh"
plan 17
# interrupt SIG CMD...: start CMD, send SIG after a second, wait for it
interrupt() {
	sig=$1
	shift
	"$@" >"$T/out" 2>"$T/err" &
	pid=$!
	sleep 1
	kill "-$sig" "$pid"
	wait "$pid"
	rc=$?
}
# t/long/wide.gpu and t/long/BIG.litmus take minutes to explore
interrupt INT "$GPUMC" check "$srcdir/t/long/wide.gpu"
is "$rc" 3 "check, SIGINT: exit 3"
like "$T/out" "^INCOMPLETE: interrupted by SIGINT before the state space was exhausted" "check, SIGINT: says it was interrupted"
like "$T/out" "^states [0-9]+, transitions [0-9]+, depth [0-9]+" "check, SIGINT: statistics so far"
like "$T/out" "^verdict: incomplete" "check, SIGINT: verdict incomplete"
run "$GPUMC" check --progress=1 --time 1.5 "$srcdir/t/long/wide.gpu"
like "$T/err" "^gpumc: 1 s: [0-9]+ states, [0-9]+ transitions, depth [0-9]+, queue [0-9]+, [0-9]+ states/s" \
	"check --progress=1: progress line with elapsed time, queue size and rate"
interrupt TERM "$GPUMC" check "$srcdir/t/long/wide.gpu"
is "$rc" 3 "check, SIGTERM: exit 3"
like "$T/out" "^INCOMPLETE: interrupted by SIGTERM" "check, SIGTERM: says which signal"

mkdir "$T/s"
cp "$SPECS/baseline/int-reduction.gpu" "$T/s/a.gpu"
cp "$srcdir/t/long/wide.gpu" "$T/s/m.gpu"
cp "$SPECS/baseline/fp32-reduction.gpu" "$T/s/z.gpu"
interrupt INT "$GPUMC" suite "$T/s"
is "$rc" 3 "suite, SIGINT: exit 3"
like "$T/out" "^interrupted by SIGINT after 2 of 3 specs; verdict incomplete" "suite, SIGINT: how far it got"
like "$T/out" "^a.gpu .* pass " "suite, SIGINT: rows finished before the signal are printed"
# -j 2: the signal reaches the workers through the parent
interrupt INT "$GPUMC" suite -j 2 "$T/s"
is "$rc" 3 "suite -j 2, SIGINT: exit 3"
like "$T/out" "^interrupted by SIGINT after [23] of 3 specs; verdict incomplete" "suite -j 2, SIGINT: how far it got"
like "$T/out" "^m.gpu .* incomplete " "suite -j 2, SIGINT: the long spec's worker stopped with incomplete"

interrupt INT "$GPUMC" litmus --model ics13 "$srcdir/t/long/BIG.litmus"
is "$rc" 3 "litmus, SIGINT: exit 3"
like "$T/err" "interrupted by SIGINT; verdict incomplete" "litmus, SIGINT: verdict incomplete"

interrupt INT "$GPUMC" run --runs 100000000 "$SPECS/baseline/fp32-reduction.gpu"
is "$rc" 3 "run, SIGINT: exit 3"
like "$T/out" "^[0-9]+ runs \(seeds 1\.\.[0-9]+\): cycles min" "run, SIGINT: the runs so far are summarised"
