#!/bin/sh
# Work before exploration is linear in the input (issue 15 item 10): time
# the parse and analysis of inputs that used to be quadratic or cubic.
#   sh bench/honest-sizes.sh [GPUMC]      (default ./build/gpumc)
# Before the fix: 8000 backward branches 12 s, 200000 declarations 49 s,
# a 300000-instruction kernel 11 GB before "kernel too long".
G=${1:-./build/gpumc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
awk 'BEGIN { print "machine baseline\nset ctas = 1\nset threads_per_warp = 2\nglobal .u32 x = 0\nkernel\n .reg .pred %p<1>\n setp.eq.u32 %p0, %tid, 5"; for (i = 0; i < 8000; i++) printf "L%d: @%%p0 bra L%d\n", i, i; print " exit\nend\ncheck forall x == 0" }' > "$T/branches.gpu"
awk 'BEGIN { print "machine baseline"; for (i = 0; i < 200000; i++) printf "global .u32 v%d = 0\n", i; print "kernel\n exit\nend" }' > "$T/decls.gpu"
awk 'BEGIN { print "machine baseline\nkernel\n .reg .u32 %r<1>"; for (i = 0; i < 300000; i++) print " add.u32 %r0, %r0, 1"; print " exit\nend" }' > "$T/long.gpu"
awk 'BEGIN { print "machine baseline\nset ctas = 1\nset threads_per_warp = 1\nkernel"; for (i = 0; i < 65000; i++) printf "L%d: bra L%d\n", i, i + 1; print "L65000: exit\nend" }' > "$T/labels.gpu"
for f in branches decls long labels; do
	/usr/bin/time -f "$f: %e s, %M KB max RSS" "$G" check -q "$T/$f.gpu" >/dev/null 2>"$T/err"
	grep -v '^ ' "$T/err" | tail -1
done
