#!/bin/bash
# bench/callgrind.sh -- exploration cost in instructions (valgrind
# --tool=callgrind), which a shared, noisy machine does not disturb the way
# it disturbs states/s.  With two binaries it compares them row by row
# (issue 8: within 5% of the pre-component gpumc, d96fd21).
#
# Rows: the specs the issue names (baseline barrier, persist T3, dab D2)
# and the --quick rows of bench/explore.sh's Promela-twin tables, each
# `gpumc check -q --por=off` (the exact mode with the progress check, as
# gpumc check runs by default); a binary without --por=off has no
# reduction and runs without it.  --threads 1 where the binary has
# --threads (its default is every core, which callgrind serialises).
#
# usage: bench/callgrind.sh [BEFORE] AFTER   (default AFTER: ./build/gpumc)
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
if [ $# -ge 2 ]; then before=$1 after=$2; else before= after=${1:-$root/build/gpumc}; fi
command -v valgrind >/dev/null 2>&1 || { echo "callgrind.sh: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpumc-cg.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

rows=(
	"specs/baseline/barrier.gpu"
	"specs/persist/T3.gpu"
	"specs/dab/D2.gpu"
	"bench/specs/lane-reduction.gpu ctas=3 warps_per_cta=1 threads_per_warp=2 sms=3 icnt_queue=0"
	"bench/specs/lane-reduction.gpu ctas=3 warps_per_cta=1 threads_per_warp=3 sms=2 icnt_queue=0"
	"bench/specs/lane-reduction.gpu ctas=4 warps_per_cta=1 threads_per_warp=2 sms=1 icnt_queue=2"
	"bench/specs/ticket-counter.gpu ctas=3 warps_per_cta=1 threads_per_warp=2 sms=2 icnt_queue=0"
	"bench/specs/ticket-counter.gpu ctas=4 warps_per_cta=1 threads_per_warp=1 sms=1 icnt_queue=1"
)

# ir BINARY SPEC DEFINES...: instructions of one check
ir() {
	local bin=$1 spec=$2 por=()
	shift 2
	"$bin" --help 2>&1 | grep -q -- '--por' && por=(--por=off)
	# --threads defaults to every core: pin the sequential search
	"$bin" --help 2>&1 | grep -q -- '--threads' && por+=(--threads 1)
	local defs=() d
	for d in "$@"; do defs+=(-D "$d"); done
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" check -q "${por[@]}" "${defs[@]}" \
		"$root/$spec" > /dev/null 2> "$tmp/err"
	sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' "$tmp/err" | tr -d ,
}

printf '%-58s %14s %14s %8s\n' row before after ratio
for r in "${rows[@]}"; do
	set -- $r
	b=-
	[ -n "$before" ] && b=$(ir "$before" "$@")
	a=$(ir "$after" "$@")
	label="$1${2:+ $(echo "${*:2}" | sed 's/warps_per_cta/wpc/; s/threads_per_warp/tpw/; s/icnt_queue/q/')}"
	printf '%-58s %14s %14s %8s\n' "$label" "$b" "$a" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { if (b == "-" || b + 0 == 0) print "-"; else printf "%+.1f%%\n", (a / b - 1) * 100 }')"
done
