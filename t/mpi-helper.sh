#!/bin/sh
# Which gpumc-mpi `gpumc check --mpi` execs, and with what (issue 8 review,
# src/explore/mpi.c).  gpumc links no MPI: under --mpi it execs the helper
# gpumc-mpi with the command's own arguments (main's argv, not a re-read of
# /proc/self/cmdline).  The helper is the build tree's only for the build
# tree's gpumc, else the installed one (PKGLIBEXECDIR): a gpumc-mpi lying
# beside a copied gpumc is never run.
#  1. a copy of gpumc with a stray executable gpumc-mpi beside it: the
#     stray is not run (it would leave a marker), the error names the
#     installed path and exit is 2 (nothing is installed under the test's
#     PKGLIBEXECDIR, or that helper would run: then only the marker counts);
#  2. the build tree's gpumc with its gpumc-mpi (when configure found MPI
#     and a one-rank job can start here): the helper gets every argument
#     as given -- a spec path with a space, -D, --json -- and checks D1
#     under -D scheduler=gto with the sequential search's counts (not the
#     default scheduler's 67 states: the -D reached it).
. "$srcdir/t/lib.sh"
plan 5

mkdir -p "$T/copy"
cp "$GPUMC" "$T/copy/gpumc"
printf '#!/bin/sh\necho stray "$@" > "%s/marker"\n' "$T/copy" > "$T/copy/gpumc-mpi"
chmod +x "$T/copy/gpumc-mpi"
run "$T/copy/gpumc" check --mpi -q "$SPECS/dab/D1.gpu" </dev/null
is "$(test -e "$T/copy/marker" && echo ran || echo 'not run')" "not run" \
	"a gpumc-mpi beside a copied gpumc is not run"
if grep -q "no helper" "$T/err"; then
	is "$rc" 2 "the copy without an installed helper: exit 2"
	like "$T/err" "no helper /.*/gpumc-mpi .*never one beside a copied gpumc" \
		"the error names the installed helper's path and why the stray is ignored"
else
	ok 0 "# SKIP a helper is installed under PKGLIBEXECDIR"
	ok 0 "# SKIP a helper is installed under PKGLIBEXECDIR"
fi

# 2: the build tree's helper, with arguments that a re-split command
# line would get wrong (a space in a path) and options that must reach it
mkdir -p "$T/a b"
cp "$SPECS/dab/D1.gpu" "$T/a b/D1.gpu"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
run "$GPUMC" check -q --json --por=off -D scheduler=gto "$SPECS/dab/D1.gpu"
seq="$(jnum states "$T/out")/$(jnum transitions "$T/out")"
run timeout 120 "$GPUMC" check --mpi -q --json -D scheduler=gto "$T/a b/D1.gpu" </dev/null
if grep -q '"verdict"' "$T/out"; then
	is "$(jnum states "$T/out")/$(jnum transitions "$T/out")" "$seq" \
		"the build tree's gpumc-mpi checks the spec at a path with a space: the sequential search's counts ($seq)"
	ok "$([ "$seq" != 67/140 ]; echo $?)" "-D scheduler=gto reached it (D1's default scheduler has 67 states, 140 transitions)"
else
	ok 0 "# SKIP no --mpi run here (no MPI in the build, or a one-rank job cannot start): $(head -1 "$T/err")"
	ok 0 "# SKIP no --mpi run here"
fi
