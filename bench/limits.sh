#!/bin/sh
# Every limit stops within 5% of its value, on large state vectors and in
# every engine (issue 15).  For each engine and each limit it takes, run a
# case that would go far past the limit and print where the run stopped:
#   time    wall-clock seconds of the whole process (/usr/bin/time %e:
#           parse, search, report and the release of its memory)
#   memory  peak resident set (/usr/bin/time %M), and for check the
#           checker's own count (JSON memory_bytes) in brackets
#   states  the states (litmus: states or candidates) in the JSON
# and the ratio stop/limit; a row over 1.05 is marked OVER, a run that
# ended before its limit (no "incomplete" naming it) is marked "no stop".
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
printf '%-24s %-13s %10s %12s %8s  %s\n' engine limit value stopped ratio note
# row ENGINE LIMIT(time|memory|states) VALUE OPTION-ARGS... -- COMMAND...
row() {
	eng=$1; kind=$2; val=$3; shift 3
	/usr/bin/time -f "%e %M" -o "$T/tm" "$@" > "$T/out" 2> "$T/err"
	rc=$?
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
	note=""
	awk -v r="$ratio" 'BEGIN { exit !(r > 1.05) }' && note="OVER"
	if ! grep -qi "incomplete\|\"complete\":false" "$T/out"; then note="$note no stop (rc $rc)"; fi
	printf '%-24s %-13s %10s %12s %8s  %s\n' "$eng" "$kind" "$lim" "$got" "$ratio" "$note"
}
for e in "bfs exact|" "dfs exact|--dfs" "bfs compact|--compact" "dfs compact|--compact --dfs" \
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
row "check progress" time 4.5 "$G" check -q --json --time 4.5 $L/progress.gpu
row "check progress" memory 110 "$G" check -q --json --memory 110M $L/progress.gpu
row "check recovery" time "$TL" "$G" check -q --json --time "$TL" $L/slow-recovery.gpu
row "check recovery" memory "$ML" "$G" check -q --json --memory "${ML}M" $L/slow-recovery.gpu
for m in ics13 ptx; do
	row "litmus $m" time "$TL" "$G" litmus --json --model $m --time "$TL" $L/eight-threads.litmus
	row "litmus $m" memory "$ML" "$G" litmus --json --model $m --memory "${ML}M" $L/eight-threads.litmus
	row "litmus $m" states 200000 "$G" litmus --json --model $m --max-states 200000 $L/eight-threads.litmus
done
row "litmus scoped-rmo" time "$TL" "$G" litmus --json --model scoped-rmo --time "$TL" $L/scoped-rmo-4x6.litmus
row "litmus scoped-rmo" memory "$ML" "$G" litmus --json --model scoped-rmo --memory "${ML}M" $L/scoped-rmo-4x6.litmus
row "litmus scoped-rmo" states 200000 "$G" litmus --json --model scoped-rmo --max-states 200000 $L/scoped-rmo-4x6.litmus
