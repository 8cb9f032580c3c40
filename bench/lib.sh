# Sourced by the concrete-mode benchmarks (dab.sh, persist.sh): run from the
# source root with ./build/gpumc (or $GPUMC), results under bench/out.
cd "$(dirname "$0")/.."
GPUMC=${GPUMC:-./build/gpumc}
OUT=bench/out
mkdir -p "$OUT"

# check DESCRIPTION AWK-CONDITION: one line of a paper-orderings report
check() { if awk "BEGIN { exit !($2) }"; then echo "  yes  $1"; else echo "  NO   $1"; fi; }
