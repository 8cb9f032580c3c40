#!/bin/sh
# GPUDet in concrete mode (issue 9 item 4): four kernels (bench/specs/
# gpudet-*.gpu: compute-bound, store-heavy, barrier-heavy, atomic-heavy;
# 4 SMs, 8 CTAs of 4 warps of 32 lanes, 6 partitions as on a GTX 480) on
# the nondeterministic baseline and on GPUDet across the quantum size Q,
# W-Ser/CU-Ser, Z-buffer/lock commit, global-barrier cost and BTA, and the
# atomic kernel on DAB.  Writes bench/out/gpudet.csv (cycles and cycles per
# mode) and, with gnuplot, bench/out/gpudet.png; prints the table, the
# paper's trends (notes A.13) checked yes/NO on these numbers, and the
# paper's figures beside.
#   usage: sh bench/gpudet.sh [SEEDS]     (default 3 seeds per point)
set -e
. "$(dirname "$0")/lib.sh"
SEEDS=${1:-3}
CSV=$OUT/gpudet.csv
echo "kernel,config,cycles,slowdown,quanta,parallel,commit,serial" > "$CSV"

# mean cycles, and the first run's quanta and cycles per mode
measure() { # measure SPEC ARGS...
	spec=$1; shift
	"$GPUMC" run --json --runs "$SEEDS" -D partitions=6 "$@" "$spec" 2>/dev/null | awk '
		function num(key,   s) { if (match($0, "\"" key "\":[0-9.]+")) { s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); return s } return 0 }
		{ if (match($0, /"cycles":\{"min":[0-9]+,"mean":[0-9.]+/)) { s = substr($0, RSTART, RLENGTH); sub(/.*"mean":/, "", s); mean = s }
		  printf "%s %s %s %s %s\n", mean, num("quanta"), num("cycles in PARALLEL mode"), num("cycles in COMMIT mode"), num("cycles in SERIAL mode") }'
}

point() { # point KERNEL CONFIG BASE ARGS...: one CSV row
	k=$1 cfg=$2 base=$3; shift 3
	set -- $(measure "bench/specs/gpudet-$k.gpu" "$@")
	echo "$k,$cfg,$1,$(awk -v c="$1" -v b="$base" 'BEGIN { printf "%.3f", c / b }'),$2,$3,$4,$5" >> "$CSV"
}

for k in compute stores barrier atomics; do
	set -- $(measure "bench/specs/gpudet-$k.gpu" -D machine=baseline)
	base=$1
	echo "$k,baseline,$1,1.000,0,0,0,0" >> "$CSV"
	for q in 100 200 600 1000; do point $k "Q$q" "$base" -D quantum=$q; done
	point $k wser "$base" -D serial=wser
	point $k lock "$base" -D commit=lock
	point $k gbar100 "$base" -D lat_gbar=100
	point $k gbar1000 "$base" -D lat_gbar=1000
	point $k bta "$base" -D bta=on
done
point atomics dab "$(awk -F, '$1=="atomics" && $2=="baseline" {print $3}' "$CSV")" -D machine=dab -D entries=64

printf '\n%-8s %9s' kernel baseline
for c in Q100 Q200 Q600 Q1000 wser lock gbar100 gbar1000 bta; do printf ' %8s' "$c"; done
printf '   (cycles / baseline; Q200 is GPUDet'"'"'s default; mean of %s seeds)\n' "$SEEDS"
for k in compute stores barrier atomics; do
	printf '%-8s %9s' "$k" "$(awk -F, -v k=$k '$1==k && $2=="baseline" {print $3}' "$CSV")"
	for c in Q100 Q200 Q600 Q1000 wser lock gbar100 gbar1000 bta; do
		printf ' %8s' "$(awk -F, -v k=$k -v c=$c '$1==k && $2==c {print $4}' "$CSV")"
	done
	echo
done
echo
printf '%-8s %-8s %7s %9s %9s %9s\n' kernel config quanta parallel commit serial
for k in compute stores barrier atomics; do
	for c in Q200 wser lock; do
		awk -F, -v k=$k -v c=$c '$1==k && $2==c { printf "%-8s %-8s %7s %9s %9s %9s\n", $1, $2, $5, $6, $7, $8 }' "$CSV"
	done
done

# the paper's trends (notes A.13), checked on the numbers above
f() { awk -F, -v k=$1 -v c=$2 -v i=$3 '$1==k && $2==c {print $i}' "$CSV"; }
echo
echo "GPUDet's trends (paper figures in brackets):"
check "overhead grows with how often quanta end: compute Q100 ($(f compute Q100 5) quanta, $(f compute Q100 4)x) >= Q1000 ($(f compute Q1000 5) quanta, $(f compute Q1000 4)x); barrier base ($(f barrier Q200 5) quanta, $(f barrier Q200 4)x) > BTA ($(f barrier bta 5) quanta, $(f barrier bta 4)x) [BTA: -20% on barrier kernels]" \
	"$(f compute Q100 3) >= $(f compute Q1000 3) && $(f compute Q100 5) > $(f compute Q1000 5) && $(f barrier Q200 3) > $(f barrier bta 3) && $(f barrier Q200 5) > $(f barrier bta 5)"
check "compute-bound near 1.0x: $(f compute Q200 4)x [as low as 1.04x]" "$(f compute Q200 4) < 1.1"
check "larger Q helps the few-store kernel: compute Q100 $(f compute Q100 4)x >= Q1000 $(f compute Q1000 4)x" "$(f compute Q100 3) >= $(f compute Q1000 3)"
check "larger Q hurts the store-heavy kernel: stores Q1000 $(f stores Q1000 4)x > Q200 $(f stores Q200 4)x [BFSr, BFSf]" "$(f stores Q1000 3) > $(f stores Q200 3)"
check "CU-Ser's serial overhead well below W-Ser's: $(f atomics Q200 8) vs $(f atomics wser 8) serial cycles [6.1x lower]" "2 * $(f atomics Q200 8) < $(f atomics wser 8)"
check "Z-buffer commit faster than a lock-based commit: stores commit $(f stores Q200 7) vs $(f stores lock 7) cycles [60% better; HT 2.3x]" "$(f stores Q200 7) < $(f stores lock 7)"
check "global barrier negligible at 100 cycles: stores $(f stores gbar100 4)x vs $(f stores Q200 4)x (under 5%)" "$(f stores gbar100 3) < 1.05 * $(f stores Q200 3)"
check "global barrier visible at 1000 cycles: stores $(f stores gbar1000 4)x vs $(f stores Q200 4)x (over 10%) [22%]" "$(f stores gbar1000 3) > 1.10 * $(f stores Q200 3)"
check "atomic-heavy: GPUDet 2-4x slower than DAB: $(f atomics Q200 3) vs $(f atomics dab 3) cycles [DAB paper]" "$(f atomics Q200 3) >= 2 * $(f atomics dab 3) && $(f atomics Q200 3) <= 4 * $(f atomics dab 3)"
awk -F, '$2=="Q200" { p *= $4; n++ } BEGIN { p = 1 } END { printf "\ngeomean slowdown at Q200 over the four kernels: %.2fx [paper: about 2x, 105%% average penalty]\n", p ^ (1 / n) }' "$CSV"
echo "CSV: $CSV"

if command -v gnuplot >/dev/null 2>&1; then
	for k in compute stores barrier atomics; do
		for q in 100 200 600 1000; do echo "$q $(f $k Q$q 4)"; done > "$OUT/gpudet-$k.dat"
	done
	gnuplot <<GP
set terminal png size 1000,420
set output "$OUT/gpudet.png"
set multiplot layout 1,2
set logscale x
set xlabel "quantum size Q (instructions)"
set ylabel "cycles / baseline"
set yrange [0:*]
set key top left
set title "GPUDet slowdown vs quantum size"
plot for [k in "compute stores barrier atomics"] sprintf("$OUT/gpudet-%s.dat", k) using 1:2 with linespoints title k, 1 with lines dt 2 title "baseline"
unset logscale x
set title "cycles per mode at Q = 200"
set style data histograms
set style histogram rowstacked
set style fill solid 0.8
set boxwidth 0.6
set ylabel "cycles"
set xlabel ""
plot "< awk -F, '\$2==\"Q200\" {print \$1, \$6, \$7, \$8}' $CSV" using 2:xtic(1) title "parallel", '' using 3 title "commit", '' using 4 title "serial"
unset multiplot
GP
	echo "plot: $OUT/gpudet.png"
else
	echo "gnuplot not installed: no plot (apt-get install gnuplot-nox)"
fi
