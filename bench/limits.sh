#!/bin/sh
# Every limit stops within 5% of its value, on large state vectors and in
# every engine (issue 15).  For each engine and each limit it takes, run a
# case that would go far past the limit and print where the run stopped:
#   time    wall-clock seconds of the whole process (/usr/bin/time %e:
#           parse, search, report and the release of its memory), and
#           in the "report" column the seconds until its report (the
#           first line on stdout) arrived: the report is written before
#           the search's memory is released, which the kernel does at
#           0.1-0.3 s per GB however the process exits
#   memory  peak resident set (/usr/bin/time %M), and for check the
#           checker's own count (JSON memory_bytes) in brackets
#   states  the states (litmus: states or candidates) in the JSON
# and the ratio stop/limit; a row over 1.05 is marked OVER (time rows:
# by the report; "exit over" where the process ended later), a run that ended before its limit (no "incomplete"
# naming it) is marked "no stop".
#   sh bench/limits.sh [GPUMC]            (default ./build/gpumc)
#   TIME=5 MEM=300 sh bench/limits.sh     (seconds, MB: the limits used)
cd "$(dirname "$0")/.."
G=${1:-./build/gpumc}
TL=${TIME:-5}
ML=${MEM:-300}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
L=t/limits
# slow.gpu: 800 KB state vectors (big[200000]) and a long run
K=$L/slow.gpu
# refines: the same kernel on dab against a baseline reference run (the
# reference run and the check share one --time)
sed 's/^machine baseline/machine dab/' $K > "$T/refines.gpu"
echo "check refines baseline c" >> "$T/refines.gpu"
printf '%-24s %-13s %10s %12s %8s %8s %8s  %s\n' engine limit value stopped ratio report ratio note
# row ENGINE LIMIT(time|memory|states) VALUE OPTION-ARGS... -- COMMAND...
row() {
	eng=$1; kind=$2; val=$3; shift 3
	t0=$(date +%s%N)
	/usr/bin/time -f "%e %M" -o "$T/tm" "$@" 2> "$T/err" |
		{ IFS= read -r first; date +%s%N > "$T/rep"; printf '%s\n' "$first"; cat; } > "$T/out"
	rc=$(sed -n 's/^Command exited with non-zero status //p' "$T/tm")
	rep=$(awk -v a="$t0" -v b="$(cat "$T/rep")" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	# the last line: before it, "Command exited with non-zero status N"
	secs=$(tail -1 "$T/tm" | cut -d' ' -f1); kb=$(tail -1 "$T/tm" | cut -d' ' -f2)
	case $kind in
	time) got=$secs; lim=$val ;;
	memory) got=$(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }'); lim=$val
		own=$(grep -o '"memory_bytes":[0-9]*' "$T/out" | head -1 | cut -d: -f2)
		[ -n "$own" ] && got="$got[$(awk -v b="$own" 'BEGIN { printf "%.0f", b / 1048576 }')]" ;;
	states) got=$(grep -o '"\(states\|candidates\)":[0-9]*' "$T/out" | tail -1 | cut -d: -f2); lim=$val ;;
	esac
	ratio=$(awk -v g="${got%%[*}" -v l="$lim" 'BEGIN { printf "%.3f", g / l }')
	rratio=-
	[ "$kind" = time ] || rep=-
	[ "$kind" = time ] && rratio=$(awk -v g="$rep" -v l="$lim" 'BEGIN { printf "%.3f", g / l }')
	note=""
	awk -v r="$ratio" -v q="$rratio" -v k="$kind" 'BEGIN { exit !((k == "time" ? q : r) > 1.05) }' && note="OVER"
	[ "$kind" = time ] && awk -v r="$ratio" 'BEGIN { exit !(r > 1.05) }' && note="$note (exit over)"
	if ! grep -qi "incomplete\|\"complete\":false" "$T/out"; then note="$note no stop (rc ${rc:-0})"; fi
	printf '%-24s %-13s %10s %12s %8s %8s %8s  %s\n' "$eng" "$kind" "$lim" "$got" "$ratio" "$rep" "$rratio" "$note"
}
for e in "bfs exact|" "dfs exact|--dfs" "bfs compact|--compact --bfs" "dfs compact|--compact --dfs" \
	"swarm 4|--swarm 4" "outcomes|--outcomes"; do
	name=${e%%|*}; opt=${e#*|}
	# shellcheck disable=SC2086
	row "check $name" time "$TL" "$G" check -q --json $opt --time "$TL" $K
	# shellcheck disable=SC2086
	row "check $name" memory "$ML" "$G" check -q --json $opt --memory "${ML}M" $K
	# shellcheck disable=SC2086
	row "check $name" states 400 "$G" check -q --json $opt --max-states 400 $K
done
row "check refines ref run" time "$TL" "$G" check -q --json --time "$TL" "$T/refines.gpu"
row "check refines ref run" memory "$ML" "$G" check -q --json --memory "${ML}M" "$T/refines.gpu"
# the progress check after a DFS search (progress.gpu): with POR the search
# and the check now take 0.3-0.7 s in all, so the time row turns POR off
# (548 134 states: a search of about 0.8 s and a check as long, 1.7 s in
# all, idle machine); the memory row keeps POR (a search of 75 MB, the
# check's graph 9 MB more)
row "check progress" time 1 "$G" check -q --json --dfs --por=off --time 1 $L/progress.gpu
row "check progress" memory 84 "$G" check -q --json --dfs --memory 84M $L/progress.gpu
row "check recovery" time "$TL" "$G" check -q --json --time "$TL" $L/slow-recovery.gpu
row "check recovery" memory "$ML" "$G" check -q --json --memory "${ML}M" $L/slow-recovery.gpu
for m in ics13 ptx; do
	row "litmus $m" time "$TL" "$G" litmus --json --model $m --time "$TL" $L/eight-threads.litmus
	# ptx's axiomatic engine holds about 16 MB here and would run for an
	# hour: a --time guard ends its row (then its ratio is far below 1)
	guard=; [ $m = ptx ] && guard="--time $((TL * 4))"
	# shellcheck disable=SC2086
	row "litmus $m" memory "$ML" "$G" litmus --json --model $m --memory "${ML}M" $guard $L/eight-threads.litmus
	row "litmus $m" states 200000 "$G" litmus --json --model $m --max-states 200000 $L/eight-threads.litmus
done
row "litmus scoped-rmo" time "$TL" "$G" litmus --json --model scoped-rmo --time "$TL" $L/scoped-rmo-4x6.litmus
row "litmus scoped-rmo" memory "$ML" "$G" litmus --json --model scoped-rmo --memory "${ML}M" $L/scoped-rmo-4x6.litmus
row "litmus scoped-rmo" states 200000 "$G" litmus --json --model scoped-rmo --max-states 200000 $L/scoped-rmo-4x6.litmus
