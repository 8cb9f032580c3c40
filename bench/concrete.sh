#!/bin/sh
# Concrete-mode speed (issue 13 item 6): warp-instructions simulated per
# CPU second of `gpumc run --runs RUNS --seed 1` (RUNS, default 100, times
# the first run's warp-instructions over the process's user time, start-up
# included: enough runs that the CPU clock's 10 ms grain is a few per cent
# at most; it is floored at 5 ms), per machine across kernel
# sizes (-D ctas), beside the target.  With GPUMC_BEFORE=path/to/older/gpumc it
# also times that binary and says whether both give the same report (less
# the wall-clock figures): speed must never change a result.  Each figure
# is the best of REPEAT runs (default 3): the machine is shared.  Each is
# timed on one thread (--threads 1, where the binary takes it): a figure
# per CPU second of one core.  Then one row's wall-clock speed-up of
# --threads 2 over --threads 1 (run --threads), REPEAT pairs of runs one
# after the other, printed, never asserted: it says what a second core
# gives where there is one idle.
#   usage: sh bench/concrete.sh     (GPUMC, GPUMC_BEFORE: binaries; REPEAT, RUNS)
set -e
. "$(dirname "$0")/lib.sh"
CSV=$OUT/concrete.csv
echo "machine,kernel,ctas,warp_instructions,before_wips,after_wips,target_wips,same" > "$CSV"

# one1 BINARY: --threads 1 where BINARY's run takes it (an older one runs on one)
one1() { if "$1" run --help 2>/dev/null | grep -q -- --threads; then echo "--threads 1"; fi; }

rate() { # rate BINARY JSON-OUT SPEC OPTIONS...: warp-instructions per CPU second
	bin=$1; out=$2; shift 2
	best=
	for i in $(seq "${REPEAT:-3}"); do
		# shellcheck disable=SC2046
		/usr/bin/time -f %U -o "$out.cpu" "$bin" run $(one1 "$bin") --json --runs "${RUNS:-100}" --seed 1 "$@" 2>/dev/null > "$out.raw" || true
		s=$(tail -1 "$out.cpu")
		best=$(awk -v b="${best:-$s}" -v s="$s" 'BEGIN { print (s < b ? s : b) }')
	done
	wi=$(grep -o '"warp instructions":[0-9]*' "$out.raw" | head -1 | cut -d: -f2)
	# CPU time, not the report's wall clock: the machine is shared
	awk -v w="${wi:-0}" -v s="$best" -v n="${RUNS:-100}" 'BEGIN { printf "%.0f", n * w / (s > 0.005 ? s : 0.005) }'
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

# run --threads: wall seconds of --runs 20 at 1 and 2 threads on one row,
# in pairs (the load changes slowly: a pair sees about the same), the
# best of each; the same report at both (less the wall-clock figures)
wall() { # wall THREADS OUT: wall seconds of the row at THREADS, its report in OUT
	/usr/bin/time -f %e -o "$OUT/threads.wall" "$GPUMC" run -q --json --runs 20 --seed 1 --threads "$1" \
		-D ctas=8 bench/specs/conv.gpu 2>/dev/null |
		sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//' > "$2" || true
	tail -1 "$OUT/threads.wall"
}
w1= w2=
for i in $(seq "${REPEAT:-3}"); do
	a=$(wall 1 "$OUT/threads1.json")
	b=$(wall 2 "$OUT/threads2.json")
	w1=$(awk -v b="${w1:-$a}" -v s="$a" 'BEGIN { print (s < b ? s : b) }')
	w2=$(awk -v b="${w2:-$b}" -v s="$b" 'BEGIN { print (s < b ? s : b) }')
done
if cmp -s "$OUT/threads1.json" "$OUT/threads2.json"; then same=yes; else same=NO; fi
awk -v a="$w1" -v b="$w2" -v n="$(nproc)" -v same="$same" 'BEGIN {
	printf "run --threads: dab conv ctas 8, --runs 20: %.2f s wall at --threads 1, %.2f s at 2: %.2fx (best of pairs; %d cores online; same report: %s)\n",
		a, b, (b > 0 ? a / b : 0), n, same }'
echo "CSV: $CSV"
