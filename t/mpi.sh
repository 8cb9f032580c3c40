#!/bin/sh
# --mpi (issue 13 item 4): the distributed breadth-first search over the
# ranks of an Open MPI job (src/explore/mpi.c).  Rows of the golden table
# (t/golden.tsv: the sequential search with --por=off) for the baseline,
# DAB and persistency machines under mpirun -np 1, 2 and 4: the same
# verdict, states, transitions, terminal states, crash images and depth.
# Violations (determinism, a deadlock, a recovery, a livelock found by the
# progress check over the ranks) are reported once, by rank 0, with a trace
# that replays to the verdict; --max-states stops every rank (exit 3);
# --dfs falls back to one search per rank and says so.  Without MPI in the
# build, --mpi is refused (exit 2) and the rest is skipped.
. "$srcdir/t/lib.sh"
TABLE="$srcdir/t/golden.tsv"

if "$GPUMC" check --mpi "$SPECS/dab/D1.gpu" > "$T/out" 2>&1 </dev/null; then :; fi
if grep -q "built without MPI" "$T/out"; then
	plan 2
	"$GPUMC" check --mpi "$SPECS/dab/D1.gpu" >/dev/null 2>&1 </dev/null
	is $? 2 "--mpi without MPI in the build: exit 2"
	like "$T/out" "openmpi-bin and libopenmpi-dev" "--mpi without MPI: says what to install"
	exit 0
fi
if ! command -v mpirun >/dev/null 2>&1; then
	echo "1..0 # SKIP gpumc has MPI but there is no mpirun"
	exit 0
fi

# as root (containers, CI) mpirun wants to be told; 4 ranks on fewer cores
# need --oversubscribe; no CMA single copy (ptrace is often barred in
# containers); a rank waiting in a collective yields its core (the machine
# is shared); Open MPI's allocations live to the end: no leak report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mpi_yield_when_idle=1
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
if ! mpirun --allow-run-as-root --oversubscribe -np 1 true >"$T/err" 2>&1 </dev/null; then
	echo "1..0 # SKIP mpirun cannot start a job here: $(grep -v '^-*$' "$T/err" | head -1)"
	exit 0
fi
mpi() { # mpi NP GPUMC-ARGS...: stdout in $T/out, stderr in $T/err, exit code in $rc
	np=$1
	shift
	mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$np" "$GPUMC" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
}
figures() { # figures JSON-FILE: the golden table's figures
	v=$(grep -o '"verdict":"[^"]*"' "$1" | head -1 | cut -d'"' -f4)
	printf '%s states %s transitions %s terminal %s crash %s depth %s' "${v:-error}" "$(jnum states "$1")" \
		"$(jnum transitions "$1")" "$(jnum terminal_states "$1")" "$(jnum crash_images "$1")" "$(jnum depth "$1")"
}
# complete runs: spec and -D options as in the golden table
# (D2 under gtrr has levels of several rounds: 1 MB of records a round)
rows="baseline/int-reduction.gpu	-
dab/D2.gpu	-D scheduler=gtrr
persist/T3.gpu	-
persist/O3-epoch.gpu	-"
echo "$rows" > "$T/rows"
plan $(($(wc -l < "$T/rows") * 3 + 24))

# gpumc itself does not link Open MPI (the loader would resolve its
# libraries on every run): --mpi execs the helper gpumc-mpi (mpi.c)
if readelf -d "$GPUMC" | grep -q 'NEEDED.*libmpi'; then links=yes; else links=no; fi
is "$links" no "gpumc links no libmpi (--mpi runs the helper gpumc-mpi)"

while IFS='	' read -r spec opts; do
	want=$(grep -F "$spec	$opts	bfs	" "$TABLE" | cut -f4)
	[ "$opts" = - ] && opts=
	for np in 1 2 4; do
		# shellcheck disable=SC2086
		mpi $np check -q --json --bfs --por=off --mpi $opts "$SPECS/$spec"
		is "$(figures "$T/out")" "$want" "-np $np $spec $opts: $want"
	done
done < "$T/rows"

# a violation is reported once, by rank 0, with a trace that replays
# violated NP SPEC WANT-VERDICT REPLAY-REGEX [OPTIONS...]
violated() {
	vnp=$1 vspec=$2 vwant=$3 vre=$4
	shift 4
	mpi "$vnp" check --bfs --por=off --mpi --trace "$T/trail" "$@" "$vspec"
	is "$rc" 1 "-np $vnp $(basename "$vspec") $*: exit 1"
	is "$(grep -c '^verdict:' "$T/out")" 1 "-np $vnp $(basename "$vspec"): one report"
	like "$T/out" "^verdict: $vwant" "-np $vnp $(basename "$vspec"): $vwant"
	"$GPUMC" replay "$T/trail" > "$T/rep" 2>&1
	like "$T/rep" "$vre" "-np $vnp $(basename "$vspec"): the trace replays to the violation"
}
violated 4 "$SPECS/baseline/fp32-reduction.gpu" "fail deterministic" "^replay: deterministic"
violated 2 "$SPECS/baseline/barrier-divergence-deadlock.gpu" "fail deadlock_free" "^replay: deadlock"
violated 3 "$SPECS/persist/U1-log-tail-bug.gpu" "fail recoverable" "^replay: recoverable"
violated 3 "$srcdir/t/progress/spin-some.gpu" "fail progress" "^replay: progress: steps [0-9.]+ return"
like "$T/out" "14 reachable states cannot reach a terminal state" "-np 3 spin-some: the stuck states over every rank"

# --max-states is the sum over the ranks: every rank stops
mpi 4 check --bfs --por=off --mpi --max-states 2000 "$SPECS/persist/T3.gpu"
is "$rc" 3 "-np 4 --max-states 2000: exit 3 (incomplete) on every rank"
like "$T/out" "INCOMPLETE: --max-states" "-np 4 --max-states: the limit named"
# --time on any rank stops every rank (D2 at 12 warps, 6.8 M states, takes
# far longer; at 10 warps two ranks now finish within the second)
mpi 2 check --bfs --por=off --mpi --time 1 -D ctas=2 -D warps_per_cta=6 "$srcdir/bench/specs/d2-scale.gpu"
is "$rc" 3 "-np 2 --time 1: exit 3 (incomplete) on every rank"
like "$T/out" "INCOMPLETE: --time" "-np 2 --time: the limit named"

# what the distributed search does not do: said, and searched alone
mpi 2 check --dfs --por=off --mpi "$SPECS/dab/D1.gpu"
like "$T/out" "mpi: each of 2 ranks searched alone \(depth-first search is sequential\)" \
	"-np 2 --dfs: each rank searches alone, and the report says why"
mpi 2 check --bfs --mpi "$SPECS/dab/D1.gpu"
like "$T/out" "partial-order reduction is off for --mpi" "-np 2 with POR asked for: off, and the report says why"
