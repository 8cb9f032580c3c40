#!/bin/sh
# GPUMC_CHECK_HASH=1 (state/hash.h) over every spec of the golden list
# (t/golden.list): every successor's incremental hash -- BFS's
# state_hash_step from the memoized parent hash and its block hashes, on
# one thread and on two, and DFS's state_hash_delta from the frame's block
# hashes -- is checked against the full hash, and a difference stops the
# run (abort, "GPUMC_CHECK_HASH").  A wrong incremental hash would
# otherwise store a state twice (exact mode) or drop one (compact mode):
# the counts must also be the golden table's (t/golden.tsv; on two
# threads, of the runs that pass: a violated one stops at the end of a
# level).
. "$srcdir/t/lib.sh"
LIST="$srcdir/t/golden.list"
TABLE="$srcdir/t/golden.tsv"
plan 5
export GPUMC_CHECK_HASH=1
# mode SPEC OPTIONS...: "verdict states ... depth" as golden.sh writes them; the
# run's stderr in $T/err
figures() {
	fspec=$1
	shift
	"$GPUMC" check -q --json --por=off "$@" "$SPECS/$fspec" > "$T/j" 2> "$T/err"
	v=$(grep -o '"verdict":"[^"]*"' "$T/j" | head -1 | cut -d'"' -f4)
	printf '%s states %s transitions %s terminal %s crash %s depth %s\n' "${v:-error}" "$(jnum states "$T/j")" \
		"$(jnum transitions "$T/j")" "$(jnum terminal_states "$T/j")" "$(jnum crash_images "$T/j")" "$(jnum depth "$T/j")"
}
: > "$T/bad.bfs"; : > "$T/bad.dfs"; : > "$T/bad.compact"; : > "$T/bad.t2"; : > "$T/aborts"
while IFS='	' read -r spec opts; do
	case $spec in ''|\#*) continue ;; esac
	for mode in bfs dfs bfs-compact; do
		case $mode in
		bfs) flags="--bfs --threads 1" bad=bfs ;;
		dfs) flags="--dfs" bad=dfs ;;
		bfs-compact) flags="--bfs --compact --threads 1" bad=compact ;;
		esac
		# shellcheck disable=SC2086
		got=$(figures "$spec" $flags $opts)
		want=$(awk -F'\t' -v s="$spec" -v o="${opts:--}" -v m="$mode" '$1 == s && $2 == o && $3 == m { print $4 }' "$TABLE")
		grep -q GPUMC_CHECK_HASH "$T/err" && echo "$spec $opts $mode" >> "$T/aborts"
		[ "$got" = "$want" ] || echo "$spec $opts: got '$got', golden '$want'" >> "$T/bad.$bad"
		[ $mode = bfs ] && bfs=$got
	done
	# shellcheck disable=SC2086
	got=$(figures "$spec" --bfs --threads 2 $opts)
	grep -q GPUMC_CHECK_HASH "$T/err" && echo "$spec $opts --threads 2" >> "$T/aborts"
	case $bfs in pass*) [ "$got" = "$bfs" ] || echo "$spec $opts: got '$got', one thread '$bfs'" >> "$T/bad.t2" ;; esac
done < "$LIST"
for f in aborts bad.bfs bad.dfs bad.compact bad.t2; do sed "s/^/# $f: /" "$T/$f" | head -5; done
ok "$([ ! -s "$T/aborts" ]; echo $?)" "GPUMC_CHECK_HASH: no incremental hash differs from the full one (BFS 1 and 2 threads, DFS, compact)"
ok "$([ ! -s "$T/bad.bfs" ]; echo $?)" "BFS under the check: the golden counts"
ok "$([ ! -s "$T/bad.dfs" ]; echo $?)" "DFS under the check: the golden counts"
ok "$([ ! -s "$T/bad.compact" ]; echo $?)" "BFS --compact under the check: the golden counts"
ok "$([ ! -s "$T/bad.t2" ]; echo $?)" "BFS on 2 threads under the check: the one-thread counts of every spec that passes"
