#!/bin/sh
# GPU persistency in concrete mode: an lbm-like stencil and a
# histogram-like kernel (bench/specs/persist-*.gpu, 32 warps of 32 lanes
# on 8 SMs) under no persistency, strict persistency (clwb or write-
# through), kernel-, CTA- and (histogram: its loop) loop-level epochs (the persist machine's
# -D persistency rewrites), with durable and volatile WPQs, plus the
# histogram as a kernel-level undo-log transaction and as an idempotent
# (re-executed) one.  NVM: read 160 ns, write 480 ns at 1.2 GHz
# (lat_global 192, lat_nvm_write 576 cycles).  Prints overheads normalised
# to no persistency, the paper's orderings checked on them, and writes
# bench/out/persist.csv and (with gnuplot) bench/out/persist.png.
#   usage: sh bench/persist.sh
set -e
. "$(dirname "$0")/lib.sh"
CSV=$OUT/persist.csv
echo "kernel,model,wpq,cycles,overhead" > "$CSV"

cycles() { "$GPUMC" run --json "$@" 2>/dev/null | grep -o '"cycles":[0-9]*' | head -1 | cut -d: -f2; }

for k in lbm histo; do
	base=$(cycles -D persistency=none bench/specs/persist-$k.gpu)
	models="none strict-clwb strict-wt epoch-kernel epoch-cta"
	[ "$k" = histo ] && models="$models epoch-loop" # lbm has no loop
	for model in $models; do
		for wpq in durable volatile; do
			c=$(cycles -D persistency=$model -D wpq=$wpq bench/specs/persist-$k.gpu)
			echo "$k,$model,$wpq,$c,$(awk -v c="$c" -v b="$base" 'BEGIN { printf "%.2f", c / b }')" >> "$CSV"
		done
	done
	if [ "$k" = histo ]; then
		for tx in undo idem; do
			for wpq in durable volatile; do
				c=$(cycles -D wpq=$wpq bench/specs/persist-histo-$tx.gpu)
				echo "$k,tx-$tx,$wpq,$c,$(awk -v c="$c" -v b="$base" 'BEGIN { printf "%.2f", c / b }')" >> "$CSV"
			done
		done
	fi
done

printf '\n%-7s %-14s %14s %14s   (cycles / no persistency)\n' kernel model "durable WPQ" "volatile WPQ"
awk -F, 'NR > 1 { v[$1 "," $2 "," $3] = $5; if (!seen[$1 "," $2]++) order[++n] = $1 "," $2 }
	END { for (i = 1; i <= n; i++) { split(order[i], p, ","); printf "%-7s %-14s %14s %14s\n", p[1], p[2], v[order[i] ",durable"], v[order[i] ",volatile"] } }' "$CSV"

o() { awk -F, -v k=$1 -v m=$2 -v w=$3 '$1==k && $2==m && $3==w {print $4}' "$CSV"; }
echo
echo "orderings (the paper's trends):"
for k in lbm histo; do
	check "$k: strict persistency is the costliest (durable WPQs)" "$(o $k strict-clwb durable) >= $(o $k epoch-kernel durable) && $(o $k strict-clwb durable) >= $(o $k epoch-cta durable)"
	check "$k: kernel-level epochs are cheaper than strict" "$(o $k epoch-kernel durable) < $(o $k strict-clwb durable) && $(o $k epoch-kernel volatile) < $(o $k strict-clwb volatile)"
	for m in strict-clwb epoch-kernel epoch-cta; do
		check "$k: $m costs more with volatile WPQs (pcommit) than durable" "$(o $k $m volatile) > $(o $k $m durable)"
	done
done
check "histo: idempotent re-execution is cheaper than undo logging" "$(o histo tx-idem durable) < $(o histo tx-undo durable)"
echo "CSV: $CSV"

if command -v gnuplot >/dev/null 2>&1; then
	for k in lbm histo; do
		awk -F, -v k=$k '$1==k && $3=="durable" {d[$2]=$5} $1==k && $3=="volatile" {v[$2]=$5; if (!s[$2]++) o[++n]=$2}
			END { for (i = 1; i <= n; i++) print o[i], d[o[i]], v[o[i]] }' "$CSV" > "$OUT/persist-$k.dat"
	done
	gnuplot <<GP
set terminal png size 1000,420
set output "$OUT/persist.png"
set multiplot layout 1,2
set style data histograms
set style histogram clustered
set style fill solid 0.8
# a log axis from 0.5: a ratio of 1 (no overhead) is a visible bar, not
# one of height zero; a baseline at 1; two clearly different colours
set logscale y
set yrange [0.5:*]
set offsets 0, 0, graph 0.1, 0
set ylabel "cycles / no persistency"
set xtics rotate by -30
do for [k in "lbm histo"] {
  set title k
  plot sprintf("$OUT/persist-%s.dat", k) using 2:xtic(1) lc rgb "#1b9e77" title "durable WPQ", \
       '' using 3 lc rgb "#d95f02" title "volatile WPQ", 1 with lines dt 2 lw 2 lc rgb "black" title "no persistency"
}
unset multiplot
GP
	echo "plot: $OUT/persist.png"
else
	echo "gnuplot not installed: no plot (apt-get install gnuplot-nox)"
fi
