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
# Printed per configuration: states; the medians of the CPU time (user +
# system) of the whole run at 1 and N threads and of the paired ratios
# CPU@N/CPU@1 (the work the threads add: shared-structure costs, the
# progress check's re-expansion; the load does not hide it, 1.00 = none);
# the wall speed-up that ratio implies on N idle cores, labelled an
# estimate: CPU@1 / ((CPU@N - s) / N + s), where s, the part of the run
# at N threads that is sequential, is the progress check after the search
# (JSON seconds - search_seconds), counted at its wall time, which the
# load only lengthens (so the estimate errs low), plus the CPU time of the
# search's serial work at its rendezvous (GPUMC_PAR_TIMES, gpumc(1): what
# one thread does there while the others wait, judging a level; the work
# they share there, the table's doubling, is in CPU@N), printed too as a
# percentage of CPU@1 (serial%: Amdahl's serial fraction); the time a
# thread waits at a level barrier for another's last chunk is not in it
# (wait%: the threads' mean wall time stopped at rendezvous, less the work
# they did there, over the search's wall time, which a loaded machine
# inflates); the
# measured medians of the paired speed-ups of the search phase (JSON
# search_seconds) and of the whole run's wall time; and the 1-minute load
# average when the row started.  The measured wall figures stay: on a
# loaded machine (or one with autogroup scheduling, where all the threads
# of a session share one session's fair share of the cores) a second
# thread may get no second core, and only the CPU figures are honest.
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
printf '%-18s %9s %7s %7s %8s %7s %5s %9s %8s %7s %5s %s\n' config states "cpu@1" "cpu@$nt" "cpu$nt/1" serial% \
	wait% "idle-est×" "search×" "wall×" load check
for c in "${configs[@]}"; do
	IFS='|' read -r name spec opts <<< "$c"
	: > "$tmp/c1s"; : > "$tmp/cNs"; : > "$tmp/sp"; : > "$tmp/wp"; : > "$tmp/cp"; : > "$tmp/es"; : > "$tmp/ss"
	: > "$tmp/ws"
	load=$(cut -d' ' -f1 /proc/loadavg)
	check=same
	for ((i = 0; i < repeat; i++)); do
		for t in 1 "$nt"; do
			s0=$(date +%s.%N)
			# shellcheck disable=SC2086
			GPUMC_PAR_TIMES=1 /usr/bin/time -f '%U + %S' -o "$tmp/c$t" "$GPUMC" check -q --json --por=off \
				--threads "$t" $opts "$spec" > "$tmp/j$t" 2> "$tmp/e$t"
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
		c1=$(echo "$(cat "$tmp/c1")" | bc -l) cn=$(echo "$(cat "$tmp/c$nt")" | bc -l)
		echo "$c1" >> "$tmp/c1s"
		echo "$cn" >> "$tmp/cNs"
		echo "$a / $b" | bc -l >> "$tmp/sp"
		echo "$(cat "$tmp/w1") / $(cat "$tmp/w$nt")" | bc -l >> "$tmp/wp"
		echo "$cn / $c1" | bc -l >> "$tmp/cp"
		# the serial work at the rendezvous, and the mean wait there
		ser=$(sed -n 's/.*; serial \([0-9.]*\) s cpu.*/\1/p' "$tmp/e$nt")
		ser=${ser:-0}
		echo "100 * $ser / $c1" | bc -l >> "$tmp/ss"
		sed -n 's/.*search \([0-9.]*\) s wall.*waited \(.*\) s wall$/\1 \2/p' "$tmp/e$nt" |
			awk '{ for (i = 2; i <= NF; i++) w += $i; print 100 * w / (NF - 1) / $1 }' >> "$tmp/ws"
		# the idle estimate: the sequential tail at its wall time, the serial work at its CPU time
		echo "s = $(num seconds "$tmp/j$nt") - $b + $ser; if (s > $cn) s = $cn; $c1 / (($cn - s) / $nt + s)" |
			bc -l >> "$tmp/es"
	done
	printf '%-18s %9s %7.2f %7.2f %8.3f %7.2f %5.1f %9.2f %8.2f %7.2f %5s %s\n' "$name" "$st" \
		"$(median < "$tmp/c1s")" "$(median < "$tmp/cNs")" "$(median < "$tmp/cp")" "$(median < "$tmp/ss")" \
		"$(median < "$tmp/ws")" "$(median < "$tmp/es")" "$(median < "$tmp/sp")" "$(median < "$tmp/wp")" "$load" \
		"$check"
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
