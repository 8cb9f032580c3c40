#!/bin/sh
# valgrind-clean: no invalid access and no leak on representative runs.
# Skipped where valgrind is missing or the binary is a sanitizer build (ASan
# and valgrind cannot share a process), however make check was started.
. "$srcdir/t/lib.sh"
plan 5
if ! command -v valgrind >/dev/null 2>&1 || grep -qa __asan_init "$GPUMC"; then
	for i in 1 2 3 4 5; do echo "ok $i # SKIP valgrind not available or sanitizer build"; done
	exit 0
fi
vg() { valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$@" >/dev/null 2>"$T/vg"; }
vg "$GPUMC" check -q "$SPECS/baseline/fp32-reduction.gpu"; is "$?" 1 "check with a counterexample"
vg "$GPUMC" check -q --dfs --compact "$SPECS/baseline/barrier.gpu"; is "$?" 0 "DFS compact"
vg "$GPUMC" run --runs 3 "$SPECS/baseline/fp32-reduction.gpu"; r=$?; [ $r -ne 99 ]; ok $? "concrete runs"
vg "$GPUMC" check -q "$srcdir/t/bad/undefined-label.gpu"; is "$?" 2 "input error path"
# a BFS cut short with a frontier far wider than what it expanded: the
# recorded progress graph's end row (graph_row) once wrote past its array
vg "$GPUMC" check -q --max-states 20000 "$srcdir/t/long/wide.gpu"; is "$?" 3 "BFS cut short by --max-states"
