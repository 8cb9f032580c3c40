#!/bin/bash
# bench/threads.sh -- the multi-core search's speed-up (issue 13 item 3:
# target >= 1.8x on 2 threads).
#
# For every configuration below, REPEAT paired runs (default 5): one at
# --threads 1, then one at --threads 2, back to back, so both see the same
# load.  Each run is exhaustive, with --por=off unless the configuration
# says --por=on: without reduction both thread counts must report the same
# states and transitions, with it the same verdict and terminal states
# (the multi-core search's cycle proviso may keep other states than the
# sequential one's: parallel.c, PAR-4); else the row says DIFFER.
# Printed per configuration: states, the median states/s of the search
# phase (JSON search_seconds: the exploration, which runs on every thread)
# at 1 and 2 threads, the median of the paired speed-ups of the search,
# and the median paired speed-up of the whole run (its wall time, which
# adds the sequential progress check after the search), and the work
# inflation: the CPU time (user + system) of the run at N threads over that
# at 1, which the load does not hide (1.00: the threads add no work, so on
# N idle cores the search would run N times as fast, barriers aside).  The
# load average before and after is printed: the machine may be shared, and
# a loaded machine (or one with autogroup scheduling, where all the threads
# of a session share one session's fair share of the cores) cannot show a
# wall-clock speed-up.
#
# usage: bench/threads.sh [--quick] [--repeat N] [--threads N]
#   --quick      a smaller configuration (seconds in all)
#   --repeat N   paired runs per configuration (default 5)
#   --threads N  the second thread count (default 2)
# environment: GPUMC (default ./build/gpumc)

set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
GPUMC=${GPUMC:-$root/build/gpumc}
repeat=5 quick=0 nt=2
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--repeat) repeat=$2; shift ;;
	--threads) nt=$2; shift ;;
	*) echo "usage: $0 [--quick] [--repeat N] [--threads N]" >&2; exit 2 ;;
	esac
	shift
done
[ -x "$GPUMC" ] || { echo "bench/threads.sh: no $GPUMC (build first)" >&2; exit 2; }

# name|spec|options: D2 grown (bench/specs/d2-scale.gpu), and with the
# reduction the ticket counter (bench/specs/ticket-counter.gpu), whose
# reduced graphs stay large
tc="$root/bench/specs/ticket-counter.gpu"
configs=(
	"d2-8warps|$root/bench/specs/d2-scale.gpu|-D ctas=2 -D warps_per_cta=4"
	"ticket-3x3-por|$tc|--por=on -D ctas=3 -D threads_per_warp=3 -D sms=1 -D icnt_queue=3"
)
if [ $quick = 0 ]; then
	configs+=(
		"d2-10warps|$root/bench/specs/d2-scale.gpu|-D ctas=2 -D warps_per_cta=5"
		"d2-12warps-1sched|$root/bench/specs/d2-scale.gpu|-D ctas=3 -D warps_per_cta=4 -D schedulers=1"
		"ticket-2x8-por|$tc|--por=on -D ctas=2 -D threads_per_warp=8"
	)
fi

num() { grep -o "\"$1\":[0-9.e+-]*" "$2" | head -1 | cut -d: -f2; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "# bench/threads.sh: $repeat paired runs, --threads 1 vs --threads $nt; $(nproc) online cores"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# with autogroup scheduling a session's threads share one fair share of the
# CPUs: on a busy machine a second thread then adds no CPU at all
[ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ] &&
	echo "# kernel.sched_autogroup_enabled=1: busy sessions share the cores per session, not per thread"
printf '%-20s %10s %12s %12s %9s %9s %9s %s\n' config states "st/s@1" "st/s@$nt" "search×" "wall×" "cpu@$nt/1" check
for c in "${configs[@]}"; do
	IFS='|' read -r name spec opts <<< "$c"
	: > "$tmp/r1"; : > "$tmp/r2"; : > "$tmp/sp"; : > "$tmp/wp"; : > "$tmp/cp"
	check=same
	for ((i = 0; i < repeat; i++)); do
		for t in 1 "$nt"; do
			s0=$(date +%s.%N)
			# shellcheck disable=SC2086
			/usr/bin/time -f '%U + %S' -o "$tmp/c$t" "$GPUMC" check -q --json --por=off --threads "$t" $opts "$spec" \
				> "$tmp/j$t"
			s1=$(date +%s.%N)
			echo "$s1 - $s0" | bc -l > "$tmp/w$t"
		done
		st=$(num states "$tmp/j1")
		case $opts in
		*--por=on*) same() { num terminal_states "$1"; grep -o '"verdict":"[^"]*"' "$1"; } ;;
		*) same() { num states "$1"; num transitions "$1"; } ;;
		esac
		[ "$(same "$tmp/j1")" = "$(same "$tmp/j$nt")" ] || check=DIFFER
		a=$(num search_seconds "$tmp/j1") b=$(num search_seconds "$tmp/j$nt")
		echo "$st / $a" | bc -l >> "$tmp/r1"
		echo "$st / $b" | bc -l >> "$tmp/r2"
		echo "$a / $b" | bc -l >> "$tmp/sp"
		echo "$(cat "$tmp/w1") / $(cat "$tmp/w$nt")" | bc -l >> "$tmp/wp"
		echo "($(cat "$tmp/c$nt")) / ($(cat "$tmp/c1"))" | bc -l >> "$tmp/cp"
	done
	printf '%-20s %10s %12.0f %12.0f %9.2f %9.2f %9.2f %s\n' "$name" "$st" "$(median < "$tmp/r1")" \
		"$(median < "$tmp/r2")" "$(median < "$tmp/sp")" "$(median < "$tmp/wp")" "$(median < "$tmp/cp")" "$check"
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
