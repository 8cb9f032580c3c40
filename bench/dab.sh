#!/bin/sh
# DAB in concrete mode at realistic scale: a PageRank-like and a
# convolution-like kernel (bench/specs/*.gpu: 8 SMs x 4 schedulers, 16 warps
# per SM, 32 lanes, ~1e5 fp32 atomics each), timed on the nondeterministic
# baseline (GTO, atomics straight to the ROPs) and on DAB across
# schedulers, buffer sizes and fusion.  Writes bench/out/dab.csv and, when
# gnuplot is installed, bench/out/dab.png; prints the table, the orderings
# the paper reports and the simulator's throughput.
#   usage: sh bench/dab.sh [SEEDS]        (default 3 seeds per point)
set -e
. "$(dirname "$0")/lib.sh"
SEEDS=${1:-3}
CSV=$OUT/dab.csv
echo "kernel,config,scheduler,entries,fusion,cycles,normalised,warp_instructions,seconds" > "$CSV"

# mean cycles, total warp instructions and seconds over SEEDS seeds
measure() { # measure SPEC ARGS...
	spec=$1; shift
	"$GPUMC" run --json --runs "$SEEDS" "$@" "$spec" 2>/dev/null | awk '
		{ if (match($0, /"cycles":\{"min":[0-9]+,"mean":[0-9.]+/)) { s = substr($0, RSTART, RLENGTH); sub(/.*"mean":/, "", s); mean = s }
		  if (match($0, /"warp instructions":[0-9]+/)) { s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); wi = s }
		  if (match($0, /"seconds":[0-9.e-]+,"warp/)) { s = substr($0, RSTART, RLENGTH); sub(/"seconds":/, "", s); sub(/,"warp/, "", s); sec = s } }
		END { printf "%s %s %s\n", mean, wi, sec }'
}

total_wi=0
total_s=0
for k in pagerank conv; do
	spec=bench/specs/$k.gpu
	set -- $(measure "$spec" -D machine=baseline)
	base=$1
	echo "$k,baseline,gto,0,off,$1,1.000,$2,$3" >> "$CSV"
	for sched in srr gtrr gtar gwat; do
		for entries in 32 64 128 256; do
			for fusion in on off; do
				set -- $(measure "$spec" -D scheduler=$sched -D entries=$entries -D fusion=$fusion)
				norm=$(awk -v c="$1" -v b="$base" 'BEGIN { printf "%.3f", c / b }')
				echo "$k,dab,$sched,$entries,$fusion,$1,$norm,$2,$3" >> "$CSV"
			done
		done
	done
done

printf '\n%-9s %-6s %8s' kernel sched baseline
for e in 32 64 128 256; do printf ' %9s' "E$e+AF"; done
for e in 32 64 128 256; do printf ' %9s' "E$e"; done
printf '   (cycles normalised to the GTO baseline, mean of %s seeds)\n' "$SEEDS"
for k in pagerank conv; do
	for sched in srr gtrr gtar gwat; do
		printf '%-9s %-6s %8s' "$k" "$sched" 1.000
		for fusion in on off; do
			for e in 32 64 128 256; do
				printf ' %9s' "$(awk -F, -v k=$k -v s=$sched -v e=$e -v f=$fusion '$1==k && $3==s && $4==e && $5==f {print $7}' "$CSV")"
			done
		done
		echo
	done
done

# the orderings of the paper (DAB §VI), checked on the numbers above
v() { awk -F, -v k=$1 -v s=$2 -v e=$3 -v f=$4 '$1==k && $3==s && $4==e && $5==f {print $6}' "$CSV"; }
echo
echo "orderings (64 entries, fusion on unless stated):"
for k in pagerank conv; do
	check "$k: SRR is the slowest DAB scheduler" "$(v $k srr 64 on) >= $(v $k gtrr 64 on) && $(v $k srr 64 on) >= $(v $k gtar 64 on) && $(v $k srr 64 on) >= $(v $k gwat 64 on)"
	check "$k: GWAT is the fastest DAB scheduler" "$(v $k gwat 64 on) <= $(v $k gtrr 64 on) && $(v $k gwat 64 on) <= $(v $k gtar 64 on)"
	check "$k: fusion helps (GWAT, 64 entries)" "$(v $k gwat 64 on) <= $(v $k gwat 64 off)"
	check "$k: larger buffers help (GWAT, 32 -> 256, fusion off)" "$(v $k gwat 32 off) >= $(v $k gwat 64 off) && $(v $k gwat 64 off) >= $(v $k gwat 128 off) && $(v $k gwat 128 off) >= $(v $k gwat 256 off)"
done
awk -F, 'NR > 1 { wi += $8; s += $9 } END { printf "\nsimulated %d warp-instructions in %.2f s: %.2f M warp-instructions/s\n", wi, s, wi / s / 1e6 }' "$CSV"
echo "CSV: $CSV"

if command -v gnuplot >/dev/null 2>&1; then
	for k in pagerank conv; do
		for s in srr gtrr gtar gwat; do
			awk -F, -v k=$k -v s=$s '$1==k && $3==s && $5=="on" {print $4, $7}' "$CSV" > "$OUT/dab-$k-$s.dat"
		done
	done
	gnuplot <<GP
set terminal png size 1000,420
set output "$OUT/dab.png"
set multiplot layout 1,2
set logscale x 2
set xlabel "atomic buffer entries (fusion on)"
set ylabel "cycles / GTO baseline"
# room above the data, so the baseline at y = 1 is not hidden on the
# border when every scheduler is near it; one distinct colour each
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
set key top right
array col[4] = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a"]
array sch[4] = ["srr", "gtrr", "gtar", "gwat"]
do for [k in "pagerank conv"] {
  set title k
  plot for [i=1:4] sprintf("$OUT/dab-%s-%s.dat", k, sch[i]) using 1:2 with linespoints lw 2 lc rgb col[i] title sch[i], \
       1 with lines dt 2 lw 2 lc rgb "black" title "GTO baseline"
}
unset multiplot
GP
	echo "plot: $OUT/dab.png"
else
	echo "gnuplot not installed: no plot (apt-get install gnuplot-nox)"
fi
