#!/bin/sh
# Every man page names each section once, and each subsection once within
# its section: a merge that kept both sides of a conflict once tripled
# gpumc-machines(7)'s PARAMETERS to PERSISTENCY sections, three diverging
# copies that no other test noticed.
. "$srcdir/t/lib.sh"
set -- "$srcdir"/man/*.[157]
plan $#
for m in "$@"; do
	awk '/^\.SH/ { sh = $0; if (seen[sh]++) print FNR ": " sh; next }
	     /^\.SS/ { k = sh " / " $0; if (seen[k]++) print FNR ": " k }' "$m" >"$T/dup"
	is "$(cat "$T/dup")" "" "$(basename "$m"): no section or subsection twice"
done
