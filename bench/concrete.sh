#!/bin/sh
# Concrete-mode speed (issue 13 item 6): warp-instructions simulated per
# CPU second of `gpumc run --runs RUNS --seed 1` (RUNS, default 20, times
# the first run's warp-instructions over the process's user time, start-up
# included: enough runs that the CPU clock's 10 ms grain is a few per cent
# at most; it is floored at 5 ms), per machine across kernel
# sizes (-D ctas), beside the target.  With GPUMC_BEFORE=path/to/older/gpumc it
# also times that binary and says whether both give the same report (less
# the wall-clock figures): speed must never change a result.  Each figure
# is the best of REPEAT runs (default 3): the machine is shared.
#   usage: sh bench/concrete.sh     (GPUMC, GPUMC_BEFORE: binaries; REPEAT, RUNS)
set -e
. "$(dirname "$0")/lib.sh"
CSV=$OUT/concrete.csv
echo "machine,kernel,ctas,warp_instructions,before_wips,after_wips,target_wips,same" > "$CSV"

rate() { # rate BINARY JSON-OUT SPEC OPTIONS...: warp-instructions per CPU second
	bin=$1; out=$2; shift 2
	best=
	for i in $(seq "${REPEAT:-3}"); do
		/usr/bin/time -f %U -o "$out.cpu" "$bin" run --json --runs "${RUNS:-20}" --seed 1 "$@" 2>/dev/null > "$out.raw" || true
		s=$(tail -1 "$out.cpu")
		best=$(awk -v b="${best:-$s}" -v s="$s" 'BEGIN { print (s < b ? s : b) }')
	done
	wi=$(grep -o '"warp instructions":[0-9]*' "$out.raw" | head -1 | cut -d: -f2)
	# CPU time, not the report's wall clock: the machine is shared
	awk -v w="${wi:-0}" -v s="$best" -v n="${RUNS:-20}" 'BEGIN { printf "%.0f", n * w / (s > 0.005 ? s : 0.005) }'
	sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//' "$out.raw" > "$out"
}

printf '%-9s %-18s %5s %10s %12s %12s %8s %10s %s\n' machine kernel ctas warp-ins before/s after/s speedup target same
# machine, kernel, target, sizes (ctas), options
while read -r mach kernel target sizes opts; do
	spec=bench/specs/$kernel.gpu
	if [ "$mach" = persist ]; then
		# at the paper's 64 warps an SM (arrays for 64 CTAs of 8 warps):
		# as written (8 CTAs of 4 warps) a run is a few ms, under the clock's grain
		warps64 "$spec" > "$OUT/$kernel-64.gpu"
		spec=$OUT/$kernel-64.gpu
	fi
	for ctas in $(echo "$sizes" | tr , " "); do
		# shellcheck disable=SC2086
		after=$(rate "$GPUMC" "$OUT/after.json" -D ctas="$ctas" $opts "$spec")
		wi=$(grep -o '"warp instructions":[0-9]*' "$OUT/after.json.raw" | head -1 | cut -d: -f2)
		before=- same=- up=-
		if [ -n "$GPUMC_BEFORE" ]; then
			# shellcheck disable=SC2086
			before=$(rate "$GPUMC_BEFORE" "$OUT/before.json" -D ctas="$ctas" $opts "$spec")
			if cmp -s "$OUT/before.json" "$OUT/after.json"; then same=yes; else same=NO; fi
			up=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.1fx", a / b }')
		fi
		printf '%-9s %-18s %5s %10s %12s %12s %8s %10s %s\n' "$mach" "$kernel" "$ctas" "$wi" "$before" "$after" "$up" "$target" "$same"
		echo "$mach,$kernel,$ctas,$wi,$before,$after,$target,$same" >> "$CSV"
	done
done <<'ROWS'
dab pagerank 10000000 4,8,16
dab conv 10000000 4,8,16
baseline pagerank 5000000 4,8,16 -D machine=baseline
baseline conv 5000000 4,8,16 -D machine=baseline
persist persist-histo 1000000 16,32,64
persist persist-histo-undo 1000000 16,32,64
persist persist-lbm 1000000 16,32,64
ROWS
echo "CSV: $CSV"
