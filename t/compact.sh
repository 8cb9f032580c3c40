#!/bin/sh
# Compact mode's memory (issue 13 item 2 step 3): the BFS frontier in
# per-level tree stores (explore.c struct frontier, rules FR-1 and FR-2)
# and --no-trace (no parent links); depth-first unless --bfs (issue 13
# item 2: <= 16 bytes a state by default).
. "$srcdir/t/lib.sh"
plan 23

# 1. --no-trace: same verdict and counts, no trace, and the report says how
# to get one (the command again without --no-trace)
f="$SPECS/baseline/barrier-divergence-deadlock.gpu"
run "$GPUMC" check --compact --bfs --no-trace --threads 1 "$f"
is "$rc" 1 "--no-trace: a violation is still one (exit 1)"
like "$T/out" "no trace: --no-trace kept no parent links" "--no-trace: the report says no trace was kept"
like "$T/out" "^    gpumc check --compact --bfs --threads 1 .*barrier-divergence-deadlock.gpu$" "--no-trace: the re-run command, without --no-trace"
if grep -q "^trace (" "$T/out"; then r=1; else r=0; fi
ok $r "--no-trace: no (empty) trace printed"
run "$GPUMC" check -q --json --compact --bfs --no-trace --threads 1 --trace "$T/t.json" "$SPECS/persist/T1-bug-a.gpu"
like "$T/out" '"trace_kept":false,"rerun":"gpumc check -q --json --compact --bfs --threads 1 --trace ' "--json: trace_kept false and the re-run"
[ ! -e "$T/t.json" ]; ok $? "--no-trace --trace FILE: no empty trace file written"
like "$T/err" "no trace kept for $T/t.json" "--trace FILE: says why there is none"
# the re-run it prints finds the trace (the spec path has no quoting issue)
cmd=$(sed -n 's/.*"rerun":"gpumc \([^"]*\)".*/\1/p' "$T/out" | sed 's/ --trace [^ ]*//')
# shellcheck disable=SC2086
run "$GPUMC" $cmd
like "$T/out" '"trace":\[' "the printed re-run shows the trace"

# 2. --no-trace drops the parent links from the bytes held (6 a state)
f="$srcdir/bench/specs/ticket-counter.gpu"
D="-D ctas=3 -D warps_per_cta=1 -D threads_per_warp=2 -D sms=2 -D icnt_queue=0"
# shellcheck disable=SC2086
run "$GPUMC" check -q --json --compact --bfs --por=off --threads 1 $D "$f"
st=$(jnum states "$T/out"); with=$(jnum memory_bytes "$T/out")
# shellcheck disable=SC2086
run "$GPUMC" check -q --json --compact --bfs --por=off --threads 1 --no-trace $D "$f"
is "$(jnum states "$T/out")" "$st" "--no-trace: the same $st states"
without=$(jnum memory_bytes "$T/out")
[ $((with - without)) -ge $((6 * st)) ]; ok $? "--no-trace: $with -> $without bytes held ($st states)"

# 3. the frontier in trees: at its widest level the FIFO of full vectors
# held 98,216 states' worth of 4 MB chunks (16 MB peak); the level trees
# hold a few bytes a state.  Peak RSS of the whole process, under 12 MB
# (library and binary pages included: about 5 MB of it)
if grep -q __asan_init "$GPUMC" 2>/dev/null; then
	ok 0 "# SKIP a sanitizer build: its shadow memory and quarantine are in the RSS"
elif [ -x /usr/bin/time ]; then
	# shellcheck disable=SC2086
	/usr/bin/time -f '%M' -o "$T/tm" "$GPUMC" check -q --json --compact --bfs --por=off --threads 1 --no-trace $D "$f" > "$T/out"
	kb=$(tail -1 "$T/tm")
	[ "$kb" -lt 12288 ]; ok $? "compact BFS peak RSS $kb KB for $st states (16 MB with the FIFO)"
else
	ok 0 "# SKIP no /usr/bin/time"
fi

# 4. FR-1: 800 KB vectors (the tree of one state costs more than a FIFO
# chunk) go to the FIFO after the first, in queue order: compact BFS stops
# where exact BFS stops, with the same transitions and depth
for m in --exact --compact; do
	"$GPUMC" check -q --json --bfs --threads 1 --por=off --max-states 60 $m "$srcdir/t/limits/slow.gpu" > "$T/$m"
done
is "$(jnum transitions "$T/--compact")/$(jnum depth "$T/--compact")" \
	"$(jnum transitions "$T/--exact")/$(jnum depth "$T/--exact")" "FR-1: compact BFS on 800 KB vectors in exact BFS's order"
# and --memory counts the trees and the FIFO (t/honest.sh: --memory 100M)
run "$GPUMC" check -q --json --compact --bfs --threads 1 --memory 30M "$srcdir/t/limits/slow.gpu"
b=$(jnum memory_bytes "$T/out")
[ "$rc" = 3 ] && [ "$b" -le $((30 * 1048576 * 105 / 100)) ]; ok $? "--compact --memory 30M on 800 KB vectors: exit 3 at $b bytes"

# 5. issue 13's compact target, <= 16 bytes a state by peak RSS (library
# and binary pages included), by default: --compact searches depth-first
# (DFS keeps no frontier) and the fingerprint table doubles in place
# (state/slots.c).  lane-reduction, 1,629,924
# states: 22.7 MB; with the old table beside the new at the last doubling
# it was 29.7 MB, 19 bytes a state
f="$srcdir/bench/specs/lane-reduction.gpu"
D="-D ctas=3 -D warps_per_cta=1 -D threads_per_warp=4 -D sms=2 -D icnt_queue=0"
if grep -q __asan_init "$GPUMC" 2>/dev/null; then
	ok 0 "# SKIP a sanitizer build: its shadow memory and quarantine are in the RSS"
elif [ -x /usr/bin/time ]; then
	# shellcheck disable=SC2086
	/usr/bin/time -f '%M' -o "$T/tm" "$GPUMC" check -q --json --compact --por=off --threads 1 $D "$f" > "$T/out"
	kb=$(tail -1 "$T/tm") st=$(jnum states "$T/out")
	[ "$st" = 1629924 ] && [ $((kb * 1024)) -le $((16 * st)) ]; ok $? "--compact (DFS): peak RSS $kb KB for $st states (<= 16 B/state)"
else
	ok 0 "# SKIP no /usr/bin/time"
fi

# 6. the order: --compact alone is depth-first and says so, with how to
# get shortest counterexamples; --bfs gives them; --mpi stays breadth-first
# (mpi.c), and --exact stays breadth-first.  Told apart by the depth
# after the first 2000 states: BFS is still at level 41, DFS's stack at 57
f="$SPECS/baseline/barrier-divergence-deadlock.gpu"
run "$GPUMC" check --compact "$f"
like "$T/out" "^search: depth-first, --compact.s default \\(--bfs: shortest counterexamples\\)$" "--compact: depth-first, and the report says so"
run "$GPUMC" check --compact --bfs "$f"
if grep -q "^search: depth-first" "$T/out"; then r=1; else r=0; fi
ok $r "--compact --bfs: no such line"
run "$GPUMC" check --compact --dfs "$f"
if grep -q "^search: depth-first" "$T/out"; then r=1; else r=0; fi
ok $r "--compact --dfs: asked for, so no such line"
f="$srcdir/bench/specs/ticket-counter.gpu"
D="-D ctas=3 -D warps_per_cta=1 -D threads_per_warp=2 -D sms=2 -D icnt_queue=0"
for m in "--dfs" "" "--bfs"; do
	# shellcheck disable=SC2086
	"$GPUMC" check -q --json --compact --por=nochain $m --threads 1 --max-states 2000 $D "$f" > "$T/o$m"
done
is "$(jnum states "$T/o")/$(jnum depth "$T/o")" "$(jnum states "$T/o--dfs")/$(jnum depth "$T/o--dfs")" \
	"--compact: the first 2000 states reach the depth of --compact --dfs's"
[ "$(jnum depth "$T/o--bfs")" -lt "$(jnum depth "$T/o")" ]; ok $? "--compact --bfs: a BFS (depth $(jnum depth "$T/o--bfs"), DFS's stack $(jnum depth "$T/o"))"

# 7. <= 16 bytes a state by the store's own count (JSON bytes_per_state,
# bench/explore.sh's compact column) on every size: the fingerprint table
# grows in place by 1.375 (state/slots.c, SLOTS-3), not 2, so its load
# stays in [0.58, 0.8].  Doubled, lane 3/1/3 (271,999 states, just past a
# doubling) took 17.53 and ticket 5/1/1 (4,135,412) 17.25
f="$srcdir/bench/specs/lane-reduction.gpu"
D="-D ctas=3 -D warps_per_cta=1 -D threads_per_warp=3 -D sms=2 -D icnt_queue=0"
# shellcheck disable=SC2086
run "$GPUMC" check -q --json --compact --por=off --threads 1 $D "$f"
bps=$(sed -n 's/.*"bytes_per_state":\([0-9.]*\).*/\1/p' "$T/out")
is "$(jnum states "$T/out")" 271999 "lane 3/1/3 --compact: the exact count of states"
awk -v b="$bps" 'BEGIN { exit !(b > 0 && b <= 16) }'; ok $? "lane 3/1/3 --compact: $bps bytes a state (<= 16)"
f="$srcdir/bench/specs/ticket-counter.gpu"
D="-D ctas=5 -D warps_per_cta=1 -D threads_per_warp=1 -D sms=2 -D icnt_queue=0"
# shellcheck disable=SC2086
run "$GPUMC" check -q --json --compact --por=off --threads 1 $D "$f"
bps=$(sed -n 's/.*"bytes_per_state":\([0-9.]*\).*/\1/p' "$T/out")
awk -v b="$bps" 'BEGIN { exit !(b > 0 && b <= 16) }'; ok $? "ticket 5/1/1 --compact: $bps bytes a state (<= 16)"
# and --memory, checked before each growth, lets the table grow while the
# grown one fits: 33M reaches 2.6 M states (doubled: 1,677,721, where a
# table of 2^22 slots, 33.5 MB, would not fit), at most 5% over
# (--memory also reads the resident size: a sanitizer build's shadow
# memory stops it at 389 K states, 5.6 MB counted)
if grep -q __asan_init "$GPUMC" 2>/dev/null; then
	ok 0 "# SKIP a sanitizer build: its shadow memory and quarantine are in the RSS"
else
	# shellcheck disable=SC2086
	run "$GPUMC" check -q --json --compact --por=off --threads 1 --memory 33M $D "$f"
	st=$(jnum states "$T/out") b=$(jnum memory_bytes "$T/out")
	[ "$rc" = 3 ] && [ "$st" -gt 2000000 ] && [ "$b" -le $((33 * 1048576 * 105 / 100)) ]
	ok $? "--compact --memory 33M: exit 3 after $st states at $b bytes"
fi
