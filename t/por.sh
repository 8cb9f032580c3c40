#!/bin/sh
# Partial-order reduction keeps what the checker reports: every bundled
# spec and -D variant of t/golden.list (and the DAB scheduler specs it
# does not list), under --bfs and --dfs, explored with --por=off and
# --por=on by t/por (t/por.c), must give the same verdict, the same number
# of distinct terminal states and crash images, and the same set of final
# valuations of global memory (a digest of the sorted set); POR may only
# lower the state count, of the whole graph and of the run that stops at
# the first violation (for a BFS that fails: of the whole graphs).
# --por=nochain (one stored state per local step, chain.c off) must agree
# with --por=on too, chains storing no more states of the whole graph.
. "$srcdir/t/lib.sh"
POR=${BUILDDIR}/t/por
cases=$(grep -v '^#' "$srcdir/t/golden.list" | grep . | tr '\t' '|')
for f in "$SPECS"/dab/S*.gpu; do
	grep -q "^${f#"$SPECS"/}	" "$srcdir/t/golden.list" && continue
	cases="$cases
${f#"$SPECS"/}|"
done
# and the specs made to catch a reduction that loses a behaviour
cases="$cases
$(grep -v '^#' "$srcdir/t/por.list" | grep . | tr '\t' '|')"
ncases=$(echo "$cases" | wc -l)
plan $((ncases * 10 + 17))
echo "$cases" > "$T/cases"
while IFS='|' read -r spec opts; do
	for search in bfs dfs; do
		# shellcheck disable=SC2086
		"$POR" --$search $opts "$SPECS/$spec" > "$T/p" 2>&1
		off=$(grep '^por off' "$T/p" | sed 's/^por off //')
		on=$(grep '^por on' "$T/p" | sed 's/^por on //')
		nc=$(grep '^por nochain' "$T/p" | sed 's/^por nochain //')
		is "$(echo "$on" | sed 's/ states [0-9]* all [0-9]*//')" "$(echo "$nc" | sed 's/ states [0-9]* all [0-9]*//')" \
			"$spec ${opts:--} --$search: chains or not: verdict, terminal states, crash images, outcomes"
		a_nc=$(echo "$nc" | sed -n 's/.* all \([0-9]*\).*/\1/p')
		# everything but the state counts must agree
		is "$(echo "$on" | sed 's/ states [0-9]* all [0-9]*//')" "$(echo "$off" | sed 's/ states [0-9]* all [0-9]*//')" \
			"$spec ${opts:--} --$search: verdict, terminal states, crash images, outcomes"
		s_on=$(echo "$on" | sed -n 's/.* states \([0-9]*\).*/\1/p')
		s_off=$(echo "$off" | sed -n 's/.* states \([0-9]*\).*/\1/p')
		# a search stopped at its first violation returns the reduced
		# graph's shortest counterexample (BFS), or reaches it after other
		# states (DFS), which may be longer or later (the local steps of a
		# warp taken first: por-chain-invariant, 3 states against 2):
		# there the whole graphs compare
		if echo "$on" | grep -q '^verdict fail'; then
			s_on=$(echo "$on" | sed -n 's/.* all \([0-9]*\).*/\1/p')
			s_off=$(echo "$off" | sed -n 's/.* all \([0-9]*\).*/\1/p')
		fi
		[ -n "$s_on" ] && [ -n "$s_off" ] && [ "$s_on" -le "$s_off" ]
		ok $? "$spec ${opts:--} --$search: $s_on states with POR <= $s_off without"
		a_on=$(echo "$on" | sed -n 's/.* all \([0-9]*\).*/\1/p')
		a_off=$(echo "$off" | sed -n 's/.* all \([0-9]*\).*/\1/p')
		[ -n "$a_on" ] && [ -n "$a_off" ] && [ "$a_on" -le "$a_off" ]
		ok $? "$spec ${opts:--} --$search: whole graph, $a_on states with POR <= $a_off without"
		[ -n "$a_nc" ] && [ "$a_on" -le "$a_nc" ]
		ok $? "$spec ${opts:--} --$search: whole graph, $a_on states with chains <= $a_nc without"
	done
done < "$T/cases"
run "$GPUMC" check -q "$srcdir/t/good/lost-update.gpu"
like "$T/out" '^verdict: pass' "lost update: both outcomes with POR"
# --check-model checks each warp-local step the reduction takes alone
# (POR-1: it wrote only its warp's registers and stack)
run "$GPUMC" check -q --check-model "$srcdir/t/good/lost-update.gpu"
like "$T/out" '^verdict: pass' "lost update under --check-model: POR-1 holds"
# a volatile load waits for a DAB flush: never warp-local (POR-1 held)
run "$GPUMC" check -q --check-model "$srcdir/t/good/por-volatile.gpu"
like "$T/out" '^verdict: pass' "volatile load on dab under --check-model: POR-1 holds"
# an exit that releases a barrier writes the released warp's record: not
# warp-local, so barrier.c refuses exits in kernels with bar.sync (letting
# them through breaks POR-1 here)
run "$GPUMC" check -q --check-model "$srcdir/t/good/por-exit-barrier.gpu"
like "$T/out" '^verdict: pass' "exit releasing a barrier under --check-model: POR-1 holds"
# a membar issued with a red still in its FIFO leaves the warp waiting:
# never warp-local (warp.c, local_table; counting it local breaks POR-1)
run "$GPUMC" check -q --check-model "$srcdir/t/good/por-membar.gpu"
like "$T/out" '^verdict: pass' "membar waiting for a red under --check-model: POR-1 holds"
# race_free keeps POR on (explore.c: a racy state stays racy after a
# local step); comm_race_free turns it off and the report says so
run "$GPUMC" check "$SPECS/dab/R1-race.gpu"
like "$T/out" '^partial-order reduction: ' "race_free: reduced"
like "$T/out" '^verdict: fail race_free' "race_free: the race found with POR"
run "$GPUMC" check "$SPECS/lab/L-T6-race.gpu"
like "$T/out" '^no reductions applied \(partial-order reduction is off for comm_race_free\)$' \
	"comm_race_free: POR off, said in the report"
# the progress check runs on the reduced graph (moves to visited states):
# a livelock some runs reach is still found
run "$GPUMC" check "$srcdir/t/progress/spin-some.gpu"
like "$T/out" '^partial-order reduction: [1-9]' "spin-some: reduced"
like "$T/out" '^verdict: fail progress' "spin-some: the livelock found with POR"
# the cycle proviso asks for a successor numbered after the state (BFS)
# or off the stack (DFS), not for a new one, and a converged warp's exit
# is local on machine baseline: lane-reduction at 3 warps kept 2019 of
# its 36714 states with --por=nochain, as many as SPIN's reduction keeps
# of its Promela twin (20680 when a local step that met a state another
# interleaving had reached expanded the state in full; 4553 with exits
# not local); chains of local steps stored 742 (chain.c).  Its ROPs now
# perform the integer reds on sum alone (rop.c, alone: every access to
# sum is that red), and a warp alone on its SM issues them alone (sole):
# 100 states with --por=nochain, 103 transitions, and 8 with chains
# (following every successor in such a machine: chain_after);
# t/good/por-ignore.gpu above checks that a local loop still yields
for search in bfs dfs; do
	run "$GPUMC" check --json -q --$search --por=nochain -D ctas=3 "$srcdir/bench/specs/lane-reduction.gpu"
	like "$T/out" '"states":100,"transitions":103,' "lane-reduction 3 warps --$search: 100 states with POR"
	run "$GPUMC" check --json -q --$search -D ctas=3 "$srcdir/bench/specs/lane-reduction.gpu"
	like "$T/out" '"states":8,"transitions":103,' "lane-reduction 3 warps --$search: 8 states with chains"
done
# the report says which reduction ran
run "$GPUMC" check -q "$SPECS/baseline/divergent-branch.gpu"
like "$T/out" '^partial-order reduction: [0-9]+ of [0-9]+ states expanded with one action alone, chains of local steps merged$' \
	"the text report states the reduction"
run "$GPUMC" check -q --por=nochain "$SPECS/baseline/divergent-branch.gpu"
like "$T/out" '^partial-order reduction: [0-9]+ of [0-9]+ states expanded with one action alone$' \
	"--por=nochain: no chains in the report"
run "$GPUMC" check -q --por=off "$SPECS/baseline/divergent-branch.gpu"
like "$T/out" '^no reductions applied$' "--por=off: no reduction"
