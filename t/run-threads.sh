#!/bin/sh
# gpumc run --threads N: a sweep's runs on N threads, each on a model
# instance of its own, folded in seed order (run.c), so the report is
# byte for byte the same at every N less the wall-clock figures.  Every
# bundled spec (specs/**/*.gpu and the -D variants of t/golden.list)
# with --runs 6 --json at --threads 1, 2 and 3; the text report of a
# longer sweep, where the threads go round the window of results held
# more than once; a bench kernel under GPUMC_CHECK_READY (a kept ready set
# shared between threads, or one run's keys meeting another's, stops it);
# --timeline at 2 threads; SIGINT on 2 threads (every run started is
# folded in: the report counts them all and nothing else); -D machine=
# warnings printed once, not once per thread; option errors.
. "$srcdir/t/lib.sh"
rows() {
	( cd "$srcdir" && find specs -name '*.gpu' | LC_ALL=C sort | sed 's/$/\t/' )
	grep -v '^#' "$srcdir/t/golden.list" | awk -F'\t' '$2 != "" { print "specs/" $0 }'
}
rows > "$T/rows"
plan $(($(wc -l < "$T/rows") + 12))

# the report less the wall-clock figures
strip() { sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//; s/^[0-9.]* s simulated, [0-9]* warp-instructions\/s$//'; }
# sweep FILE THREADS OPTIONS...: `gpumc run` at THREADS, its report stripped in FILE, exit code appended
sweep() {
	f=$1; t=$2; shift 2
	( cd "$srcdir" && "$GPUMC" run --threads "$t" "$@" 2>/dev/null; echo "exit $?" ) | strip > "$f"
}

while IFS='	' read -r spec opts; do
	bad=
	for t in 1 2 3; do
		# shellcheck disable=SC2086
		sweep "$T/j$t" $t --json --runs 6 --seed 1 $opts "$spec"
		[ $t = 1 ] || cmp -s "$T/j1" "$T/j$t" || bad="$bad --threads $t"
	done
	is "${bad:-same}" same "run $spec${opts:+ $opts} --runs 6: --threads 2, 3 as 1"
done < "$T/rows"

# 40 runs on 3 threads: results held past the window (4 per thread) and
# folded late; the histogram, first seeds and cycles as on one thread
for t in 1 3; do sweep "$T/s$t" $t --runs 40 --seed 7 specs/baseline/fp32-reduction.gpu; done
cmp -s "$T/s1" "$T/s3"
ok $? "fp32-reduction --runs 40 --seed 7: the text report at --threads 3 as at 1"
grep -q "^2 distinct results" "$T/s1"
ok $? "fp32-reduction --runs 40: two results, so the fold order shows"
for t in 1 2; do sweep "$T/d$t" $t --json --runs 5 --seed 3 -D ctas=4 bench/specs/pagerank.gpu; done
cmp -s "$T/d1" "$T/d2"
ok $? "pagerank ctas=4 --runs 5: the JSON report at --threads 2 as at 1"
GPUMC_CHECK_READY=1 sweep "$T/c2" 2 --json --runs 5 --seed 3 -D ctas=4 bench/specs/pagerank.gpu
cmp -s "$T/d1" "$T/c2"
ok $? "pagerank ctas=4 --runs 5 --threads 2 under GPUMC_CHECK_READY: every kept set checked, the same report"

# --timeline: run 0's actions, described by the instance that ran it
for t in 1 2; do
	( cd "$srcdir" && "$GPUMC" run -q --threads $t --runs 4 --timeline "$T/tl$t.json" specs/dab/D1.gpu > /dev/null 2>&1 )
done
[ -s "$T/tl1.json" ] && cmp -s "$T/tl1.json" "$T/tl2.json"
ok $? "--timeline: the same file at --threads 2 as at 1"

# SIGINT: no run starts after it, those under way stop and are folded in
# (runs of a few ms: one is likely under way, and fewer than the 100000
# whose cycles JSON lists end before the signal)
"$GPUMC" run --json --threads 2 --runs 100000000 -D ctas=4 "$srcdir/bench/specs/pagerank.gpu" > "$T/out" 2> "$T/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
is $? 3 "run --threads 2, SIGINT: exit 3"
like "$T/out" '"interrupted":true' "run --threads 2, SIGINT: the report says it was interrupted"
runs=$(jnum runs "$T/out")
kept=$(grep -o '"cycles_per_run":\[[0-9,]*\]' "$T/out" | tr -cd , | wc -c)
counted=$(grep -o '"count":[0-9]*' "$T/out" | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }')
is "$runs $counted" "$((kept + 1)) $((kept + 1))" \
	"run --threads 2, SIGINT: the runs reported are those folded in, each once"

# -D machine=OTHER: the spec's own settings OTHER lacks are warned of once
run "$GPUMC" run -q --threads 3 --runs 3 -D machine=baseline "$SPECS/dab/C1-cta-batches.gpu"
is "$(grep -c "warning: ignoring 'buffer'" "$T/err")" 1 "-D machine=baseline at 3 threads: each warning once"

run "$GPUMC" run --threads 257 "$SPECS/baseline/fp32-reduction.gpu"
is "$rc" 2 "run --threads 257: exit 2"
like "$T/err" "at most 256" "run --threads 257: says the limit"
run "$GPUMC" run --help
like "$T/out" "--threads N \(the runs on N threads" "gpumc run --help: run takes --threads"
