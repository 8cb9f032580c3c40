#!/bin/sh
# --threads N (issue 13 item 3): the multi-core breadth-first search over
# one shared visited set.  Every bfs row of the golden table (t/golden.tsv,
# counts of the sequential search with --por=off) at --threads 1, 2 and 3:
# the same verdict, and when the run is complete the same states,
# transitions, terminal states, crash images and depth.  A violation ends
# the multi-core search at the end of its level (parallel.c, PAR-3), where
# the sequential one stops at once: there the verdict and failed property
# are compared, the counts must be the same at 2 and 3 threads, the trace
# must replay to the verdict, and it must be the sequential search's trace,
# byte for byte (the level's checks are made in the sequential order,
# PAR-5).  Then the same rows with partial-order reduction (the
# default) at --threads 2 and 3 against the sequential reduced search:
# the same verdict (and failed property), and when it passes the same
# terminal states, crash images and final values (a violation ends the
# multi-core search at the end of its level: PAR-3); the state counts may differ from the sequential ones,
# whose cycle proviso depends on the order inside a level (parallel.c,
# PAR-4), but not between 2 and 3 threads, and never exceed the full
# graph's.  Then the limits on every thread, the fallback to one thread,
# and option errors.
. "$srcdir/t/lib.sh"
TABLE="$srcdir/t/golden.tsv"
rows=$(grep -c '	bfs	' "$TABLE")
plan $((2 * rows + 18))

figures() { # figures JSON-FILE: the golden table's figures
	v=$(grep -o '"verdict":"[^"]*"' "$1" | head -1 | cut -d'"' -f4)
	printf '%s states %s transitions %s terminal %s crash %s depth %s' "${v:-error}" "$(jnum states "$1")" \
		"$(jnum transitions "$1")" "$(jnum terminal_states "$1")" "$(jnum crash_images "$1")" "$(jnum depth "$1")"
}
grep '	bfs	' "$TABLE" > "$T/rows"
while IFS='	' read -r spec opts mode want; do
	[ "$opts" = - ] && opts=
	bad=
	for t in 1 2 3; do
		# shellcheck disable=SC2086
		"$GPUMC" check -q --json --bfs --por=off --threads $t --trace "$T/trail" $opts "$SPECS/$spec" \
			> "$T/j" 2>/dev/null
		got=$(figures "$T/j")
		case $want in
		fail*)
			# the failed property: "fail deadlock_free", "fail ~exists", ...
			[ "$(echo "$got" | cut -d' ' -f1-2)" = "$(echo "$want" | cut -d' ' -f1-2)" ] ||
				bad="$bad; --threads $t: $got"
			[ $t = 3 ] && [ "$got" != "$got2" ] && bad="$bad; --threads 2: $got2, 3: $got"
			got2=$got
			# exists and equals are decided after the whole space: no trace
			case $want in "fail exists"*|"fail equals"*) continue ;; esac
			"$GPUMC" replay "$T/trail" > "$T/rep" 2>&1
			[ $? -eq 1 ] && grep -q "recorded verdict: $(echo "$want" | cut -d' ' -f1-2)" "$T/rep" ||
				bad="$bad; --threads $t: the trace does not replay"
			# the sequential search's order of events (PAR-5): its trace
			if [ $t = 1 ]; then mv "$T/trail" "$T/trail1"
			else cmp -s "$T/trail" "$T/trail1" || bad="$bad; --threads $t: another trace than --threads 1's"
			fi
			;;
		*) [ "$got" = "$want" ] || bad="$bad; --threads $t: $got" ;;
		esac
	done
	is "${bad:-same}" same "$spec${opts:+ $opts}: --threads 1, 2, 3 agree with the sequential search"
done < "$T/rows"

# partial-order reduction on every thread
while IFS='	' read -r spec opts mode want; do
	[ "$opts" = - ] && opts=
	bad=
	for t in 1 2 3; do
		# shellcheck disable=SC2086
		"$GPUMC" check -q --json --bfs --threads $t $opts "$SPECS/$spec" > "$T/p$t" 2>/dev/null
	done
	for t in 2 3; do
		[ "$(porfig "$T/p$t")" = "$(porfig "$T/p1")" ] || bad="$bad; --threads $t: $(porfig "$T/p$t"), 1: $(porfig "$T/p1")"
	done
	[ "$(figures "$T/p2")" = "$(figures "$T/p3")" ] || bad="$bad; counts at 2: $(figures "$T/p2"), 3: $(figures "$T/p3")"
	case $want in
	fail*) ;; # the full count is where the sequential search stopped
	*) full=$(echo "$want" | sed -n 's/.* states \([0-9]*\) .*/\1/p')
		[ "$(jnum states "$T/p2")" -le "$full" ] || bad="$bad; $(jnum states "$T/p2") states > $full without POR" ;;
	esac
	is "${bad:-same}" same "$spec${opts:+ $opts}: with POR, --threads 2 and 3 agree with the sequential search"
done < "$T/rows"

# the progress check runs only when some move went back to its level or
# an earlier one (an acyclic graph has no livelock): the livelock of
# spin-some is found with and without the reduction on every thread
for por in on off; do
	run "$GPUMC" check -q --por=$por --threads 2 "$srcdir/t/progress/spin-some.gpu"
	like "$T/out" '^verdict: fail progress' "spin-some --por=$por --threads 2: the livelock found"
done

# more threads than cores: threads are preempted inside the rendezvous
run "$GPUMC" check -q --json --por=off --threads 8 "$SPECS/dab/D2.gpu"
is "$(figures "$T/out")" "$(grep '^dab/D2.gpu	-	bfs	' "$TABLE" | cut -f4)" "D2 --threads 8: the golden figures"
like "$T/out" '"threads":8' "D2 --threads 8: the JSON names the threads"
run "$GPUMC" check --por=off --threads 2 "$SPECS/dab/D2.gpu"
like "$T/out" "^threads: 2 over one shared visited set" "the report says how many threads searched"

# limits honoured by every thread (t/long/wide.gpu takes minutes)
WIDE="$srcdir/t/long/wide.gpu"
run "$GPUMC" check -q --json --por=off --threads 2 --max-states 5000 "$WIDE"
is "$rc" 3 "--max-states 5000 --threads 2: exit 3"
s=$(jnum states "$T/out")
[ "$s" -ge 5000 ] && [ "$s" -le 5001 ]
ok $? "--max-states 5000 --threads 2: 5000 states, one more at most per other thread (got $s)"
run "$GPUMC" check -q --json --por=off --threads 2 --time 0.5 "$WIDE"
is "$rc" 3 "--time 0.5 --threads 2: exit 3"
like "$T/out" '"limit":"--time"' "--time 0.5 --threads 2: the limit is named"
run "$GPUMC" check -q --json --por=off --threads 2 --memory 30M "$WIDE"
is "$rc" 3 "--memory 30M --threads 2: exit 3"
m=$(jnum memory_bytes "$T/out")
[ "$m" -le $((30 * 1048576 * 105 / 100)) ]
ok $? "--memory 30M --threads 2: at most 5% over (got $m bytes)"
"$GPUMC" check --por=off --threads 2 "$WIDE" > "$T/out" 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
is "$?" 3 "SIGINT --threads 2: exit 3"
like "$T/out" "^INCOMPLETE: interrupted by SIGINT" "SIGINT --threads 2: says it was interrupted"

# the options that need the sequential search say so, and still agree
run "$GPUMC" check --threads 2 "$SPECS/dab/D2.gpu"
like "$T/out" "^threads: 2 over one shared visited set" "POR on: two threads"
run "$GPUMC" check --por=off --dfs --threads 2 "$SPECS/dab/D2.gpu"
like "$T/out" "^threads: 1 of 2 \(depth-first search is sequential\)" "--dfs: one thread, and the report says why"
run "$GPUMC" check --threads 1 "$SPECS/dab/D2.gpu"
ok "$(grep -c '^threads:' "$T/out")" "--threads 1: no threads line"

run "$GPUMC" check --threads x "$SPECS/dab/D2.gpu"
is "$rc" 2 "--threads x: usage error"
run "$GPUMC" check --threads 1000 "$SPECS/dab/D2.gpu"
like "$T/err" "--threads is at most 256" "--threads 1000: says the bound"
