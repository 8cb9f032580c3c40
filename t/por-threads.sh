#!/bin/sh
# Partial-order reduction on several threads (issue 13 item 1): the
# multi-core search's form of the cycle proviso (parallel.c, PAR-4: a
# reduced move goes to the next breadth-first level) and its judging of a
# reduced state's crashes are not what t/por.sh checks, which runs one
# thread.  Every spec of t/por.list at --threads 2 with the reduction
# must give what --por=off gives on one thread: the verdict (for a
# failure the failed property), the terminal states, the crash images and
# the final values (t/lib.sh, porfig); the state count may differ from
# the sequential reduced search's (gpumc(1), --threads) but never exceed
# the full graph's (for a failure the multi-core search ends at the end of
# its level, PAR-3: not compared).
. "$srcdir/t/lib.sh"
grep -v '^#' "$srcdir/t/por.list" | grep . > "$T/cases"
plan $(($(wc -l < "$T/cases") * 2))
while IFS='	' read -r spec opts; do
	# shellcheck disable=SC2086
	"$GPUMC" check -q --json --bfs --por=off --threads 1 $opts "$SPECS/$spec" > "$T/off" 2>/dev/null
	# shellcheck disable=SC2086
	"$GPUMC" check -q --json --bfs --threads 2 $opts "$SPECS/$spec" > "$T/on" 2>/dev/null
	grep -q '"threads":2' "$T/on"
	ok $? "$spec${opts:+ $opts}: reduced on 2 threads"
	bad=
	[ "$(porfig "$T/on")" = "$(porfig "$T/off")" ] || bad="$(porfig "$T/on"), without POR: $(porfig "$T/off")"
	case $(porfig "$T/off") in
	pass*) [ "$(jnum states "$T/on")" -le "$(jnum states "$T/off")" ] ||
		bad="$bad; $(jnum states "$T/on") states > $(jnum states "$T/off") without POR" ;;
	esac
	is "${bad:-same}" same "$spec${opts:+ $opts}: --threads 2 with POR agrees with --por=off"
done < "$T/cases"
