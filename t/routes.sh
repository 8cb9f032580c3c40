#!/bin/sh
# Every bundled litmus test through both routes (t/routes.c): the litmus
# front end with `gpumc litmus --model M`, and a translation into a kernel
# spec with `gpumc check -D memory=M`, for M in sc, ics13 and ics13-fixed.
# The outcome sets must be identical wherever the translation applies.
. "$srcdir/t/lib.sh"
exec "$BUILDDIR/t/routes" $(find "$SPECS/litmus" -name '*.litmus' | LC_ALL=C sort)
