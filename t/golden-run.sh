#!/bin/sh
# Concrete mode must not change when it gets faster: for every bundled spec
# (every specs/**/*.gpu, the -D variants of t/golden.list and the bench
# kernels with the variants bench/dab.sh and bench/persist.sh time), the
# whole `gpumc run --json --seed 1 --runs 3` report -- end, cycles of each
# run, every counter, the histogram of results -- less the wall-clock
# figures, equals the row of t/golden-run.tsv.  The table was made with the
# polling driver of main f9993cb; a row moves only with a bug fix that the
# commit explains.
#   regenerate: GOLDEN_UPDATE=1 srcdir=. GPUMC=build/gpumc sh t/golden-run.sh
. "$srcdir/t/lib.sh"
TABLE="$srcdir/t/golden-run.tsv"
rows() {
	{
		( cd "$srcdir" && find specs -name '*.gpu' | LC_ALL=C sort | sed 's/$/\t/' )
		grep -v '^#' "$srcdir/t/golden.list" | awk -F'\t' '$2 != "" { print "specs/" $0 }'
		cat "$srcdir/t/golden-run.list"
	} | while IFS='	' read -r spec opts; do
		case $spec in ''|\#*) continue ;; esac
		# shellcheck disable=SC2086
		( cd "$srcdir" && "$GPUMC" run --json --seed 1 --runs 3 $opts "$spec" > "$T/j" 2>/dev/null )
		rc=$?
		# a machine without timing (the weak-memory ones) reports nothing
		printf '%s\t%s\texit %s %s\n' "$spec" "${opts:--}" "$rc" \
			"$(sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//' "$T/j")"
	done
}
if [ -n "$GOLDEN_UPDATE" ]; then
	rows > "$TABLE"
	echo "wrote $(wc -l < "$TABLE") rows to $TABLE" >&2
	exit 0
fi
rows > "$T/now"
plan $(($(wc -l < "$TABLE") + 1))
[ "$(cut -f1-2 "$TABLE")" = "$(cut -f1-2 "$T/now")" ]
ok $? "the spec list and the table name the same rows"
paste "$TABLE" "$T/now" > "$T/paired"
while IFS='	' read -r s o want s2 o2 got; do
	is "$got" "$want" "run $s $o"
done < "$T/paired"
