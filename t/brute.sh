#!/bin/sh
# The explorer's counts on the DAB, persist and weak-memory machines
# against t/brute's independent enumeration (a tsearch worklist sharing no
# code with src/state or src/explore; t/explore.sh does the baseline), with
# --por=off: brute enumerates the full interleaving.
#
# What is comparable.  The state graph does not depend on the properties,
# but the explorer stops at the first violation, while brute always counts
# the whole graph.  So every case is checked twice:
#   full   the spec with its `check` lines replaced by `check
#          deadlock_free`: nothing to violate but a deadlock, a fault or a
#          failing recovery program, so a pass means the explorer saw the
#          whole graph.  BFS must then give brute's states, transitions,
#          terminal states, crash images and depth; DFS the same but depth
#          (DFS reports its stack depth); and brute must have found no
#          deadlock and no fault (the explorer said deadlock_free holds).
#   as declared  the spec as written: a pass explores the whole graph (the
#          same counts); a violation stops early, so at most brute's states.
# Crashes (persist): a crash is no transition (applying ACT_CRASH changes
# nothing, and the explorer never applies it); it is counted as the number
# of distinct durable images over the states that offer it, and brute
# counts those images the same way, from model.durable.
# Every case is small (the largest, D2 with flush=nr-cif, has about 10^5
# states), so no spec is skipped.
. "$srcdir/t/lib.sh"
# the cases: the golden table's dab, persist and weak-memory rows
# (t/golden.list: every bundled spec and the variants the other tests run),
# and the DAB scheduler specs the table does not list
cases=$(grep -E '^(dab|persist|weakmem)/' "$srcdir/t/golden.list" | tr '\t' '|' | sed 's/|$/|/')
for f in "$SPECS"/dab/S*.gpu; do
	[ -f "$f" ] || continue
	grep -q "^${f#"$SPECS"/}	" "$srcdir/t/golden.list" && continue
	cases="$cases
${f#"$SPECS"/}|"
done
ncases=$(echo "$cases" | wc -l)
plan $((ncases * 5))
# fields of a gpumc --json result, in brute's order
counts() { # counts JSON-FILE [depth]
	c="states $(jnum states "$1") transitions $(jnum transitions "$1") terminal $(jnum terminal_states "$1")"
	c="$c crash_images $(jnum crash_images "$1")"
	[ -n "$2" ] && c="$c depth $(jnum depth "$1")"
	echo "$c"
}
verdict() { grep -o '"verdict":"[^"]*"' "$1" | cut -d'"' -f4; }
while IFS='|' read -r spec defs; do
	f="$SPECS/$spec"
	# shellcheck disable=SC2086
	b=$("$BUILDDIR/t/brute" $defs "$f" 2>/dev/null)
	set -- $b
	want="states $2 transitions $4 terminal $6 crash_images $8"
	wantd="$want depth ${10}"
	anomalies="deadlocks ${12} faults ${14}"
	sed -e '/^[[:space:]]*check[[:space:]]/d' -e '/^[[:space:]]*expect[[:space:]]/d' "$f" > "$T/full.gpu"
	echo "check deadlock_free" >> "$T/full.gpu"
	# shellcheck disable=SC2086
	"$GPUMC" check -q --json --por=off --bfs $defs "$T/full.gpu" > "$T/bfs" 2>/dev/null
	# shellcheck disable=SC2086
	"$GPUMC" check -q --json --por=off --dfs $defs "$T/full.gpu" > "$T/dfs" 2>/dev/null
	# shellcheck disable=SC2086
	"$GPUMC" check -q --json --por=off $defs "$f" > "$T/decl" 2>/dev/null
	if grep -q '^[[:space:]]*expect[[:space:]][[:space:]]*fail[[:space:]][[:space:]]*deadlock_free' "$f"; then
		# a declared deadlock (specs/dab/W1): both find it; the explorer
		# stops there, so at most brute's states
		is "$(verdict "$T/bfs")" "fail deadlock_free" "$spec $defs: explored, the declared deadlock"
		[ "${12}" -gt 0 ] && [ "${14}" = 0 ]; ok $? "$spec $defs: brute agrees: a deadlock, no fault"
		got=$(jnum states "$T/bfs")
		[ -n "$got" ] && [ "$got" -le "$2" ]; ok $? "$spec $defs: --bfs stopped at $got <= $2 states"
		got=$(jnum states "$T/dfs")
		[ -n "$got" ] && [ "$got" -le "$2" ]; ok $? "$spec $defs: --dfs stopped at $got <= $2 states"
	else
		is "$(verdict "$T/bfs")" pass "$spec $defs: explored in full, no deadlock or fault"
		is "$anomalies" "deadlocks 0 faults 0" "$spec $defs: brute agrees: no deadlock, no fault"
		is "$(counts "$T/bfs" d)" "$wantd" "$spec $defs: --bfs counts = brute force"
		is "$(counts "$T/dfs")" "$want" "$spec $defs: --dfs counts = brute force"
	fi
	if [ "$(verdict "$T/decl")" = pass ]; then
		is "$(counts "$T/decl" d)" "$wantd" "$spec $defs: as declared, pass: the same full counts"
	else
		got=$(jnum states "$T/decl")
		[ -n "$got" ] && [ "$got" -le "$2" ]; ok $? "$spec $defs: as declared, $(verdict "$T/decl"): stopped at $got <= $2 states"
	fi
done <<EOF_CASES
$cases
EOF_CASES
