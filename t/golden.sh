#!/bin/sh
# The golden table (t/golden.tsv): for every bundled spec of
# specs/{baseline,dab,persist,weakmem} and the -D variants t/dab.sh,
# t/persist.sh and t/weakmem.sh run, under --bfs/--dfs x exact/--compact:
# verdict, states, transitions, terminal states, crash images and depth;
# and the concrete-mode cycles of `gpumc run --json --seed 1 --runs 3`.
# Counts are taken with --por=off.  A change to any machine that moves one number -- a scheduler rule that
# keeps the verdict but changes the reachable states -- turns a row red.
#
# Regenerate only when a change is meant to move the numbers, and say why
# in the commit:   GOLDEN_UPDATE=1 srcdir=. GPUMC=build/gpumc sh t/golden.sh
. "$srcdir/t/lib.sh"
LIST="$srcdir/t/golden.list"
TABLE="$srcdir/t/golden.tsv"
# one row: SPEC<TAB>OPTIONS (- for none)<TAB>MODE<TAB>figures
row() { # row SPEC MODE OPTIONS...
	spec=$1; mode=$2; shift 2
	case $mode in
	bfs) flags="--bfs" ;; dfs) flags="--dfs" ;;
	bfs-compact) flags="--bfs --compact" ;; dfs-compact) flags="--dfs --compact" ;;
	esac
	# the counts are those of the full interleaving (t/por.sh compares the
	# reduced search with it) found by the sequential search (t/threads.sh
	# compares the multi-core one, which ends a violated run at the end of
	# a level)
	flags="$flags --por=off --threads 1"
	if [ "$mode" = run ]; then
		"$GPUMC" run --json --seed 1 --runs 3 "$@" "$SPECS/$spec" > "$T/j" 2>/dev/null
		c=$(grep -o '"cycles":{[^}]*}' "$T/j" | head -1)
		r=$(grep -o '"results":.*' "$T/j" | head -1)
		printf '%s\t%s\trun\t%s %s\n' "$spec" "${*:--}" "$c" "$r"
		return
	fi
	# shellcheck disable=SC2086
	"$GPUMC" check -q --json $flags "$@" "$SPECS/$spec" > "$T/j" 2>/dev/null
	v=$(grep -o '"verdict":"[^"]*"' "$T/j" | head -1 | cut -d'"' -f4)
	printf '%s\t%s\t%s\t%s states %s transitions %s terminal %s crash %s depth %s\n' "$spec" "${*:--}" "$mode" \
		"${v:-error}" "$(jnum states "$T/j")" "$(jnum transitions "$T/j")" "$(jnum terminal_states "$T/j")" \
		"$(jnum crash_images "$T/j")" "$(jnum depth "$T/j")"
}
all() {
	while IFS='	' read -r spec opts; do
		case $spec in ''|\#*) continue ;; esac
		for mode in bfs dfs bfs-compact dfs-compact run; do
			# shellcheck disable=SC2086
			row "$spec" $mode $opts
		done
	done < "$LIST"
}
if [ -n "$GOLDEN_UPDATE" ]; then
	all > "$TABLE"
	echo "wrote $(wc -l < "$TABLE") rows to $TABLE" >&2
	exit 0
fi
all > "$T/now"
ntr=$(ls "$srcdir"/t/trails/*.trail | wc -l)
plan $(($(wc -l < "$TABLE") + 1 + 2 * ntr))
[ "$(cut -f1-3 "$TABLE")" = "$(cut -f1-3 "$T/now")" ]
ok $? "the golden list and the table name the same rows"
# one TAP line per row, naming what moved
paste "$TABLE" "$T/now" > "$T/paired"
while IFS='	' read -r s o m want s2 o2 m2 got; do
	is "$got" "$want" "$s $o $m"
done < "$T/paired"
# committed counterexample traces keep replaying to the same violation
for tr in "$srcdir"/t/trails/*.trail; do
	want=$(cat "${tr%.trail}.want")
	( cd "$srcdir" && "$GPUMC" replay "$tr" ) > "$T/out" 2>&1
	rc=$?
	is "$rc" 1 "replay $(basename "$tr"): exit 1 (violation reproduced)"
	like "$T/out" "$want" "replay $(basename "$tr"): $want"
done
