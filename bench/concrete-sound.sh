#!/bin/sh
# Concrete-mode soundness campaign (not in the suite; t/concrete-sound.sh is
# its quick part): every result of `gpumc run` must be reachable in
# `gpumc check` (t/sound-lib.sh).  Rows: every bundled timed spec (specs/**,
# t/good) under every configuration sound_configs lists for its machine,
# the baseline specs moved onto the other machines, the bench kernels at
# small sizes, and random kernels (scattered and colliding atomics,
# divergence, loops, barriers, fences, volatile flags) on random machines.
# Runs under GPUMC_CHECK_READY=1 (concrete.c's cross-check of the ready
# set: it aborts on a mismatch).  Prints one line per unsound row and a
# summary: rows compared, too large to exhaust, runs.
#   [SOUND_SKIP="specs machines bench"] sh bench/concrete-sound.sh [RUNS [RANDOM-KERNELS [FIRST-SEED]]]
# (defaults 40, 300, 1; from the source root, ./build/gpumc or $GPUMC)
cd "$(dirname "$0")/.." || exit 2
GPUMC=${GPUMC:-./build/gpumc}
srcdir=.
. t/lib.sh
. t/sound-lib.sh
RUNS=${1:-40}
NK=${2:-300}
K0=${3:-1}
export GPUMC_CHECK_READY=1
rows=0 big=0 bad=0 aborts=0 rejected=0

row() { # row SPEC OPTIONS...
	rspec=$1; shift
	sound "$rspec" "$RUNS" 1 "$@"
	case $sound_why in
	'') rows=$((rows + 1)) ;;
	incomplete) big=$((big + 1)) ;;
	norun) ;;
	rejected) rejected=$((rejected + 1)) ;;
	run\ exit*) aborts=$((aborts + 1)); echo "RUN FAILED: $rspec $*: $sound_why" ;;
	*) bad=$((bad + 1)); echo "UNSOUND: $rspec $*: $sound_why" ;;
	esac
}
each_config() { # each_config SPEC MACHINE EXTRA-OPTIONS...
	spec=$1; mach=$2; shift 2
	sound_configs "$mach" > "$T/configs"
	while read -r cfg; do
		# shellcheck disable=SC2086
		row "$spec" "$@" $cfg
	done < "$T/configs"
}
machine_of() { sed -n 's/^machine[[:space:]]*\([a-z]*\).*/\1/p' "$1" | head -1; }

part() { echo "$1: $rows rows sound, $big too large to exhaust, $rejected configurations refused, $bad UNSOUND, $aborts runs crashed or failed a GPUMC_CHECK_READY check"; }

# SOUND_SKIP: parts left out (specs, machines, bench)
skip() { case " $SOUND_SKIP " in *" $1 "*) return 0 ;; esac; return 1; }
skip specs || for spec in specs/baseline/*.gpu specs/dab/*.gpu specs/lab/*.gpu specs/gpudet/*.gpu specs/persist/*.gpu t/good/*.gpu; do
	each_config "$spec" "$(machine_of "$spec")"
done
part "bundled specs"
skip machines || for mach in dab lab gpudet persist; do
	for spec in specs/baseline/*.gpu t/good/*.gpu; do
		each_config "$spec" "$mach" -D machine=$mach
	done
done
part "and the baseline specs on the other machines"
skip bench || for spec in bench/specs/*.gpu; do
	for size in '-D sms=1 -D ctas=1 -D warps_per_cta=1 -D threads_per_warp=1 -D schedulers=1 -D partitions=1' \
		'-D sms=2 -D ctas=2 -D warps_per_cta=1 -D threads_per_warp=2 -D schedulers=1 -D partitions=2'; do
		# shellcheck disable=SC2086
		each_config "$spec" "$(machine_of "$spec")" $size
	done
done

part "and the bench kernels"
k=$K0
while [ "$k" -lt $((K0 + NK)) ]; do
	sound_kernel "$k" > "$T/k$k.gpu"
	spec=$T/k$k.gpu
	each_config "$spec" "$(machine_of "$spec")"
	[ -z "$KEEP" ] || cp "$T/k$k.gpu" "$KEEP/"
	k=$((k + 1))
done
part "and $NK random kernels"
