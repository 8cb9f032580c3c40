#!/bin/sh
# Soundness of the kernel-spec route for cache operators: a kernel spec
# with ld.global.ca under -D memory=ics13-fixed must find the stale read
# that `gpumc litmus --model ics13-fixed` allows for the same test
# (MP-L1+membar.gls: a .ca load hits a stale per-CTA L1 line no membar
# invalidates).  Before the cache operator reached weakmem.c the spec
# passed: the route was unsound for that model.
. "$srcdir/t/lib.sh"
plan 7
S="$SPECS/weakmem/mp-l1.gpu"
L="$SPECS/litmus/cta-global/MP-L1+membar.gls.litmus"
verdict() { "$GPUMC" check -q --json "$@" 2>/dev/null | grep -o '"verdict":"[^"]*"' | cut -d'"' -f4; }
litmus() { "$GPUMC" litmus --compare "$1" "$L" | tail -1 | awk '{print $3}'; }
is "$(litmus ics13-fixed)" Allowed "litmus route: MP-L1+membar.gls Allowed under ics13-fixed"
is "$(verdict -D memory=ics13-fixed "$S")" "fail ~exists" "kernel route: ld.global.ca under ics13-fixed reaches the stale read too"
is "$(litmus ics13)" Forbidden "litmus route: Forbidden under ics13 (no L1)"
is "$(verdict -D memory=ics13 "$S")" pass "kernel route: pass under ics13"
is "$(verdict -D memory=sc "$S")" pass "kernel route: pass on SC memory"
# the same kernel without .ca keeps the fences' guarantee under ics13-fixed
is "$(verdict -D memory=ics13-fixed "$SPECS/weakmem/mp-fenced.gpu")" pass "without .ca: pass under ics13-fixed"
run "$GPUMC" check -D memory=ics13-fixed "$S"
like "$T/out" "ld.global.ca.u32 %r1, \[data\]" "the counterexample names the .ca load"
