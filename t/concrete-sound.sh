#!/bin/sh
# Concrete mode never gives a result the machine cannot reach: for every
# bundled timed spec (specs/**, t/good) as written and under two of the
# configurations t/sound-lib.sh lists for its machine (a different two
# for each spec, so every configuration is used), the baseline specs on
# the other machines, and random kernels, every result of `gpumc run
# --runs 8` is a terminal outcome of `gpumc check --outcomes`, and every
# run that deadlocks or faults does so where the checker finds it
# (t/sound-lib.sh).  The campaign behind it: bench/concrete-sound.sh.
. "$srcdir/t/lib.sh"
. "$srcdir/t/sound-lib.sh"
SOUND_MAX_STATES=200000
RUNS=8
NK=${GPUMC_SOUND_KERNELS:-12}
list=$( cd "$srcdir" && for d in specs/baseline specs/dab specs/lab specs/gpudet specs/persist t/good; do
	ls "$d"/*.gpu; done )
nspecs=$(echo "$list" | wc -l)
nbase=$(find "$SPECS"/baseline -name '*.gpu' | wc -l)
plan $((nspecs + 4 * nbase + NK + 1))
compared=0
# one_spec SPEC LABEL MACHINE I OPTIONS...: the spec as written and under
# configurations 2I+1 and 2I+2 (modulo their number) of its machine
one_spec() {
	ospec=$1; label=$2; mach=$3; i=$4; shift 4
	sound_configs "$mach" | sed 1d > "$T/configs"
	nc=$(wc -l < "$T/configs")
	bad=
	for c in 0 $((2 * i % nc + 1)) $(((2 * i + 1) % nc + 1)); do
		cfg=$([ "$c" = 0 ] || sed -n "${c}p" "$T/configs")
		# shellcheck disable=SC2086
		sound "$ospec" "$RUNS" 1 "$@" $cfg
		case $sound_why in
		'') compared=$((compared + 1)) ;;
		norun|incomplete|rejected) ;;
		*) bad="$bad [$* $cfg:$sound_why]" ;;
		esac
	done
	is "$bad" "" "$label: every concrete result is reachable"
}
machine_of() { sed -n 's/^machine[[:space:]]*\([a-z]*\).*/\1/p' "$1" | head -1; }
i=0
for f in $list; do
	one_spec "$srcdir/$f" "$f" "$(machine_of "$srcdir/$f")" $i
	i=$((i + 1))
done
for mach in dab lab gpudet persist; do
	for f in "$SPECS"/baseline/*.gpu; do
		one_spec "$f" "$(basename "$f") on $mach" "$mach" $i -D machine="$mach"
		i=$((i + 1))
	done
done
k=1
while [ "$k" -le "$NK" ]; do
	sound_kernel "$k" > "$T/kernel.gpu"
	one_spec "$T/kernel.gpu" "random kernel $k" "$(machine_of "$T/kernel.gpu")" $i
	i=$((i + 1)) k=$((k + 1))
done
# the oracle compared something: most rows are neither too large nor refused
[ "$compared" -ge $((2 * (nspecs + 4 * nbase + NK))) ]
ok $? "$compared rows compared"
