#!/bin/sh
# Explorer state counts against an independent enumeration (t/brute.c:
# a tsearch-based worklist sharing no code with src/state or the
# explorer), and the same counts from every search order and storage
# mode, LTSmin-style.  Counts are those of the full interleaving
# (--por=off; t/por.sh checks the reduced search against it).
. "$srcdir/t/lib.sh"
cases="int-reduction.gpu|
int-reduction.gpu|-D sms=1
int-reduction.gpu|-D partitions=2 -D line_bytes=4
fp32-reduction.gpu|
racy-store-load.gpu|
divergent-branch.gpu|
barrier.gpu|
barrier.gpu|-D sms=1 -D schedulers=2
barrier-divergence-deadlock.gpu|"
plan 38
while IFS='|' read -r spec defs; do
	f="$SPECS/baseline/$spec"
	# shellcheck disable=SC2086
	want=$("$BUILDDIR/t/brute" $defs "$f")
	ws=$(echo "$want" | cut -d' ' -f2)
	wt=$(echo "$want" | cut -d' ' -f4)
	for mode in "--bfs" "--dfs" "--bfs --compact" "--dfs --compact"; do
		# shellcheck disable=SC2086
		"$GPUMC" check -q --json --por=off $mode $defs "$f" > "$T/j" 2>/dev/null
		got=$(jnum states "$T/j")
		case "$spec" in
		fp32-reduction.gpu|racy-store-load.gpu|barrier-divergence-deadlock.gpu)
			# a violation stops the search: it may have seen fewer states
			[ "$got" -le "$ws" ] && [ "$got" -gt 0 ]; ok $? "$spec $defs $mode: stopped early at $got <= $ws states" ;;
		*)
			is "$got" "$ws" "$spec $defs $mode: $ws states (brute force)" ;;
		esac
	done
done <<EOF_CASES
$cases
EOF_CASES
# transitions agree too, and BFS and DFS count the same transitions
"$GPUMC" check -q --json --por=off "$SPECS/baseline/barrier.gpu" > "$T/b"
want=$("$BUILDDIR/t/brute" "$SPECS/baseline/barrier.gpu")
is "$(jnum transitions "$T/b")" "$(echo "$want" | cut -d' ' -f4)" "barrier.gpu: transitions match brute force"
"$GPUMC" check -q --json --por=off --dfs "$SPECS/baseline/barrier.gpu" > "$T/d"
is "$(jnum transitions "$T/d")" "$(jnum transitions "$T/b")" "barrier.gpu: DFS and BFS count the same transitions"
