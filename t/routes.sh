#!/bin/sh
# Every bundled litmus test through both routes (t/routes.c): the litmus
# front end with `gpumc litmus --model M`, and a translation into a kernel
# spec with `gpumc check -D memory=M`, for M in sc, ics13, ics13-fixed and
# ptx (every test of specs/litmus/ptx with a global placement included).
# The outcome sets must be identical wherever the translation applies.
. "$srcdir/t/lib.sh"
exec "$BUILDDIR/t/routes" $(find "$SPECS/litmus" -name '*.litmus' | LC_ALL=C sort)
