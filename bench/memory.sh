#!/bin/bash
# bench/memory.sh -- bytes per state (issue 13 item 2): gpumc's stores
# beside SPIN's on the same state graphs.
#
# For the specs with Promela twins (bench/promela/*.pml: SPIN stores
# exactly as many states as gpumc) and for D2 with its 128-element input
# (read-only memory, bench/specs/d2-input128.gpu, no twin), each at one or
# two sizes, it runs
#   gpumc   --exact (flat records), --tree (tree compression), --compact
#           (fingerprints, depth-first by default: no frontier, the DFS
#           stack holds the path), --compact --bfs (BFS frontier in
#           per-level trees, parent links), --compact --bfs --no-trace
#           (no parent links), all with
#           --por=off --threads 1 (the graphs SPIN -DNOREDUCE explores);
#   SPIN    pan -DCOLLAPSE (beside --exact/--tree) and -DHC4 (beside
#           --compact), both -DSAFETY -DNOREDUCE -DNOCLAIM, spin -o3.
# and prints states, peak RSS (/usr/bin/time %M), B/state from the peak
# RSS (everything the process held, program and libraries included), and
# B/state from the structures: gpumc's own count (JSON memory_bytes: the
# visited set, parent links, queue, recorded graph, at the end of the
# search), SPIN's "actual memory usage for states" plus its hash table,
# and the CPU seconds (user + system, /usr/bin/time) of the run.
#
# usage: bench/memory.sh [--quick] [--no-spin]
#   --quick    the smaller sizes only (about half a minute)
# environment: GPUMC (default ./build/gpumc), SPIN (spin), CC (gcc)
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
GPUMC=${GPUMC:-$here/../build/gpumc} SPIN=${SPIN:-spin} CC=${CC:-gcc}
quick=0 use_spin=1
for a in "$@"; do
	case $a in
	--quick) quick=1 ;;
	--no-spin) use_spin=0 ;;
	-h|--help) sed -n '2,/^$/{s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "memory.sh: unknown option $a (see --help)" >&2; exit 2 ;;
	esac
done
[ -x "$GPUMC" ] || { echo "memory.sh: no gpumc binary at $GPUMC" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "memory.sh: needs /usr/bin/time (peak RSS)" >&2; exit 2; }
if [ $use_spin = 1 ] && ! { command -v "$SPIN" && command -v "$CC"; } >/dev/null 2>&1; then
	echo "memory.sh: no $SPIN or $CC: SPIN rows skipped" >&2
	use_spin=0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpumc-mem.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cp "$GPUMC" "$tmp/gpumc"

fmt='%-44s %-27s %10s %9s %11s %11s %7s  %s\n'
row() { # row LABEL MODE STATES RSS_KB STRUCT_BYTES NOTE (CPU seconds in $cpu)
	local bps_rss=- bps_own=- mib=-
	if [ -n "$3" ] && [ "$3" != - ] && [ "$3" -gt 0 ] 2>/dev/null; then
		[ -n "$4" ] && bps_rss=$(awk -v k="$4" -v n="$3" 'BEGIN { printf "%.1f", k * 1024 / n }')
		[ -n "$5" ] && bps_own=$(awk -v b="$5" -v n="$3" 'BEGIN { printf "%.1f", b / n }')
	fi
	[ -n "$4" ] && mib=$(awk -v k="$4" 'BEGIN { printf "%.1f", k / 1024 }')
	printf "$fmt" "$1" "$2" "${3:--}" "$mib" "$bps_rss" "$bps_own" "${cpu:--}" "${6:-}"
}

measure() { # measure COMMAND...: peak RSS (KB) into $kb, CPU seconds into $cpu
	/usr/bin/time -f '%M %U %S' -o "$tmp/tm" "$@"
	read -r kb u sy < <(tail -1 "$tmp/tm")
	cpu=$(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.2f", u + s }')
}

gpumc_row() { # gpumc_row LABEL SPEC MODE-OPTION -D...
	local label=$1 spec=$2 mode=$3
	shift 3
	local st own v kb cpu
	measure "$tmp/gpumc" check -q --json --por=off --threads 1 $mode "$@" "$spec" > "$tmp/j" 2> /dev/null
	st=$(grep -o '"states":[0-9]*' "$tmp/j" | head -1 | cut -d: -f2)
	own=$(grep -o '"memory_bytes":[0-9]*' "$tmp/j" | head -1 | cut -d: -f2)
	v=$(grep -o '"verdict":"[a-z]*"' "$tmp/j" | head -1 | cut -d'"' -f4)
	row "$label" "gpumc $mode" "$st" "$kb" "$own" "verdict $v"
}

spin_row() { # spin_row LABEL PML FLAG STATES SPIN-DEFINES...
	local label=$1 pml=$2 flag=$3 want=$4
	shift 4
	local d="$tmp/spin" defs=()
	rm -rf "$d"
	mkdir -p "$d"
	for x in "$@"; do defs+=("-D$x"); done
	if ! (cd "$d" && "$SPIN" -o3 "${defs[@]}" -a "$pml" > spin.out 2>&1 &&
		"$CC" -O2 -DSAFETY -DNOREDUCE -DNOCLAIM -D"$flag" -DMEMLIM=16384 -o pan pan.c > cc.out 2>&1); then
		cpu= row "$label" "SPIN -D$flag" - "" "" "spin or pan.c failed"
		return
	fi
	local w=18
	while [ $w -lt 30 ] && [ $((1 << w)) -lt $((2 * ${want:-0})) ]; do w=$((w + 1)); done
	local st st_mem ht kb cpu
	measure "$d/pan" -m100000 -w$w > "$d/pan.out" 2>&1
	st=$(awk '/states, stored/ { print $1; exit }' "$d/pan.out")
	st_mem=$(awk '/actual memory usage for states/ { print $1; exit }' "$d/pan.out")
	ht=$(awk '/memory used for hash table/ { print $1; exit }' "$d/pan.out")
	local own
	own=$(awk -v a="${st_mem:-0}" -v b="${ht:-0}" 'BEGIN { printf "%.0f", (a + b) * 1048576 }')
	local same="states as gpumc"
	[ "$st" = "$want" ] || same="gpumc: $want states"
	row "$label" "SPIN -D$flag" "$st" "$kb" "$own" "$same"
}

twin() { # twin NAME "ctas wpc tpw sms q"
	local name=$1 sz=$2
	set -- $sz
	local spec="$here/specs/$name.gpu" pml="$here/promela/$name.pml"
	local label="$name ctas=$1 wpc=$2 tpw=$3 sms=$4 q=$5"
	local D=(-D ctas=$1 -D warps_per_cta=$2 -D threads_per_warp=$3 -D sms=$4 -D icnt_queue=$5)
	gpumc_row "$label" "$spec" --exact "${D[@]}"
	local n
	n=$(grep -o '"states":[0-9]*' "$tmp/j" | head -1 | cut -d: -f2)
	gpumc_row "$label" "$spec" --tree "${D[@]}"
	[ $use_spin = 1 ] && spin_row "$label" "$pml" COLLAPSE "$n" CTAS=$1 WPC=$2 T=$3 S=$4 Q=$5
	gpumc_row "$label" "$spec" --compact "${D[@]}"
	gpumc_row "$label" "$spec" "--compact --bfs" "${D[@]}"
	gpumc_row "$label" "$spec" "--compact --bfs --no-trace" "${D[@]}"
	[ $use_spin = 1 ] && spin_row "$label" "$pml" HC4 "$n" CTAS=$1 WPC=$2 T=$3 S=$4 Q=$5
}

echo "gpumc: $GPUMC; --por=off --threads 1 (SPIN: -DSAFETY -DNOREDUCE -DNOCLAIM, spin -o3, pan -m100000 -wN)"
echo "B/state RSS: peak resident set / states; B/state own: the store's own count / states"
printf "$fmt" "spec, size" "store" states "RSS MiB" "B/st RSS" "B/st own" "CPU s" ""
if [ $quick = 1 ]; then
	twin lane-reduction "3 1 2 3 0"
	twin ticket-counter "3 1 2 2 0"
	sizes=(4)
else
	twin lane-reduction "3 1 4 2 0"
	twin ticket-counter "2 1 8 2 0"
	sizes=(4 5)
fi
for w in "${sizes[@]}"; do
	for m in --exact --tree --compact "--compact --bfs" "--compact --bfs --no-trace"; do
		gpumc_row "d2-input128 wpc=$w" "$here/specs/d2-input128.gpu" "$m" -D warps_per_cta=$w
	done
done
