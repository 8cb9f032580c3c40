#!/bin/sh
# The ordering constraints of the address-queue engine (src/machines/
# addrqueue.c, gpumc litmus --model ics13 | ics13-coherent | ics13-fixed):
# each test in specs/litmus/aq names the constraint its verdict depends on
# (removing the constraint flips it), and is checked here under all five
# models against its "// expect:" line -- t/litmus-suite.sh checks the
# same lines for sc, ics13, ics13-fixed and scoped-rmo but not for
# ics13-coherent.  Constraints no litmus test can observe are listed in
# specs/litmus/README.md.
. "${srcdir:-.}/t/lib.sh"
A="$srcdir/specs/litmus/aq"
MODELS="sc ics13 ics13-coherent ics13-fixed scoped-rmo"
nt=$(ls "$A"/*.litmus | wc -l)
plan $((nt * 5 + 3))
for f in "$A"/*.litmus; do
	name=$(basename "$f" .litmus)
	# shellcheck disable=SC2046
	set -- $("$GPUMC" litmus --compare sc,ics13,ics13-coherent,ics13-fixed,scoped-rmo "$f" 2>&1 | tail -1)
	shift 2
	for m in $MODELS; do
		want=$(grep '^// expect:' "$f" | tr ' ' '\n' | grep "^$m=" | cut -d= -f2)
		is "$1" "$want" "$name under $m: $want"
		shift
	done
done
run "$GPUMC" litmus --expect -q --model ics13-coherent "$A"/*.litmus
is "$rc" 0 "gpumc litmus --expect --model ics13-coherent: every aq test"
# A guarded instruction waits for its guard register like any source
# (addrqueue.c issue_ok).  PTX writes predicates only with setp, whose
# sources already wait, so only the litmus parser's ld into a .pred
# register can show this wait: kept here, not among the bundled tests.
cat > "$T/guard.litmus" <<'EOL'
GPU_PTX guard-dep
initial state: x = 1, y = 0
T0                     | T1
ld.cg.pred r1, [x] ;   | ld.cg.s32 r2, [y] ;
@r1 st.cg.s32 [y], 1 ; |

ScopeTree
(device (cta (warp T0)) (cta (warp T1)))

x: global, y: global

exists
(y=0)
EOL
for m in ics13 ics13-fixed; do
	v=$("$GPUMC" litmus --compare $m "$T/guard.litmus" 2>&1 | tail -1 | awk '{print $3}')
	is "$v" Forbidden "a store guarded by a loaded predicate waits for the load ($m)"
done
