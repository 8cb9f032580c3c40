#!/bin/bash
# bench/mpi.sh -- the distributed search's scaling (issue 13 item 4):
# `mpirun -np N gpumc check --mpi` at N = 1, 2 and 4 ranks on one machine,
# beside the sequential search (no mpirun, --threads 1).
#
# For every configuration below, REPEAT rounds (default 3); each round runs
# the sequential search and then the three rank counts back to back, in an
# order rotated from round to round, so every count sees the same load.
# Every run is exhaustive with --por=off (the distributed search does not
# reduce) and must report the sequential run's states, transitions and
# terminal states (else the row says DIFFER).  Printed per configuration
# and rank count: the median wall time of the whole command (mpirun's
# start included), the median states/s of rank 0's search phase (JSON
# search_seconds: the exploration, the exchanges and the progress check),
# the median of the paired wall-time speed-ups against the sequential run
# of the same round, and the CPU time (user + system of every process)
# over the sequential run's, which the load does not hide.
#
# The ranks of one machine share its cores: with 2 cores, 4 ranks cannot
# run faster than 2, and MPI's busy-polling ranks take the cores from the
# ones with work.  The load average before and after is printed.
#
# usage: bench/mpi.sh [--quick] [--repeat N]
#   --quick      the smaller configuration only (seconds in all)
#   --repeat N   rounds per configuration (default 3)
# environment: GPUMC (default ./build/gpumc), MPIRUN (default mpirun)

set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
GPUMC=${GPUMC:-$root/build/gpumc}
MPIRUN=${MPIRUN:-mpirun}
repeat=3 quick=0
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--repeat) repeat=$2; shift ;;
	*) echo "usage: $0 [--quick] [--repeat N]" >&2; exit 2 ;;
	esac
	shift
done
[ -x "$GPUMC" ] || { echo "bench/mpi.sh: no $GPUMC (build first)" >&2; exit 2; }
command -v "$MPIRUN" >/dev/null || { echo "bench/mpi.sh: no $MPIRUN (apt-get install openmpi-bin)" >&2; exit 2; }
if "$GPUMC" check --mpi /dev/null 2>&1 </dev/null | grep -q "built without MPI"; then
	echo "bench/mpi.sh: $GPUMC was built without MPI (install libopenmpi-dev, configure again)" >&2
	exit 2
fi
# as root (containers) mpirun must be told; more ranks than cores; a rank
# waiting in a collective yields its core (Open MPI busy-polls otherwise:
# on a loaded 2-core machine 2 ranks took 7.6 s instead of 1.1 s for D2 at
# 8 warps)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mpi_yield_when_idle=1

# name|spec|options: D2 grown (bench/specs/d2-scale.gpu)
configs=("d2-8warps|$root/bench/specs/d2-scale.gpu|-D ctas=2 -D warps_per_cta=4")
[ $quick = 0 ] && configs+=("d2-10warps|$root/bench/specs/d2-scale.gpu|-D ctas=2 -D warps_per_cta=5")
ranks="1 2 4"

num() { grep -o "\"$1\":[0-9.e+-]*" "$2" | head -1 | cut -d: -f2; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one NAME NP SPEC OPTIONS...: a run (NP 0: sequential, no mpirun); its
# JSON in $tmp/NAME.NP.json, "wall cpu" appended to $tmp/NAME.NP.t
one() {
	local name=$1 np=$2 spec=$3
	shift 3
	local cmd=("$GPUMC" check -q --json --bfs --por=off --threads 1 "$@" "$spec")
	[ "$np" = 0 ] || cmd=("$MPIRUN" --allow-run-as-root --oversubscribe --bind-to none -np "$np" "$GPUMC" check -q \
		--json --bfs --por=off --mpi "$@" "$spec")
	/usr/bin/time -f "%e %U %S" -o "$tmp/time" "${cmd[@]}" > "$tmp/$name.$np.json" 2>/dev/null </dev/null
	awk '{ print $1, $2 + $3 }' "$tmp/time" >> "$tmp/$name.$np.t"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-12s %10s %6s %9s %12s %9s %8s  %s\n' config states ranks "wall s" "states/s" speed-up "cpu x" counts
for c in "${configs[@]}"; do
	IFS='|' read -r name spec opts <<< "$c"
	# shellcheck disable=SC2086
	for r in $(seq 1 "$repeat"); do
		one "$name" 0 "$spec" $opts
		# rotate the order of the rank counts from round to round
		set -- $ranks
		for k in $(seq 1 $(( (r - 1) % 3 ))); do set -- "$@" "$1"; shift; done
		for np in "$@"; do
			one "$name" "$np" "$spec" $opts
			# this round's speed-up: the sequential wall over this one's
			paste -d' ' <(tail -1 "$tmp/$name.0.t") <(tail -1 "$tmp/$name.$np.t") |
				awk '{ printf "%.4f\n", $1 / $3 }' >> "$tmp/$name.$np.up"
			echo "$(num search_seconds "$tmp/$name.$np.json")" >> "$tmp/$name.$np.search"
			figures=$(for f in states transitions terminal_states; do num $f "$tmp/$name.$np.json"; done)
			seqf=$(for f in states transitions terminal_states; do num $f "$tmp/$name.0.json"; done)
			[ "$figures" = "$seqf" ] || echo DIFFER >> "$tmp/$name.$np.differ"
		done
	done
	states=$(num states "$tmp/$name.0.json")
	seq_wall=$(cut -d' ' -f1 "$tmp/$name.0.t" | median)
	seq_cpu=$(cut -d' ' -f2 "$tmp/$name.0.t" | median)
	printf '%-12s %10s %6s %9s %12s %9s %8s  %s\n' "$name" "$states" "seq" "$seq_wall" \
		"$(awk -v s="$states" -v t="$seq_wall" 'BEGIN { printf "%.0f", (t > 0 ? s / t : 0) }')" 1.00 1.00 ""
	for np in $ranks; do
		wall=$(cut -d' ' -f1 "$tmp/$name.$np.t" | median)
		cpu=$(cut -d' ' -f2 "$tmp/$name.$np.t" | median)
		search=$(median < "$tmp/$name.$np.search")
		printf '%-12s %10s %6s %9s %12s %9s %8s  %s\n' "$name" "$states" "$np" "$wall" \
			"$(awk -v s="$states" -v t="$search" 'BEGIN { printf "%.0f", (t > 0 ? s / t : 0) }')" \
			"$(median < "$tmp/$name.$np.up")" "$(awk -v a="$cpu" -v b="$seq_cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" \
			"$([ -f "$tmp/$name.$np.differ" ] && echo DIFFER || echo same)"
	done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(wall: median of $repeat; states/s: rank 0's search phase; speed-up: median of the paired sequential/this wall"
echo " ratios; cpu x: CPU time of every process over the sequential run's; counts: states, transitions,"
echo " terminal states against the sequential run's)"
