#!/bin/sh
# Build (and, where a GPU is present, run) the CUDA litmus harness of every
# bundled test: gpumc litmus --emit-cuda, then make with nvcc.  Run from
# the build directory: ../bench/emit-cuda.sh [ARCH [RUNFLAGS]].  With a
# GPU, the outcome counts go to bench/hw/CHIP-DATE.txt (read them back with
# gpumc litmus --observed FILE specs/litmus/*/*.litmus).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-sm_75}
runflags=${2:-"-n 1000"}
dir=${TMPDIR:-/tmp}/gpumc-emit-cuda.$$
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
./gpumc litmus --emit-cuda "$dir" "$top"/specs/litmus/*/*.litmus
n=$(ls "$dir"/*.cu | wc -l)
start=$(date +%s)
make -s -k -C "$dir" -j"${JOBS:-2}" NVCC="$NVCC" ARCH="$arch" >"$dir/build.log" 2>&1 || true
built=$(cd "$dir" && for f in *.cu; do [ -x "${f%.cu}" ] && echo "$f"; done | wc -l)
echo "emit-cuda: $built of $n harnesses built with $($NVCC --version | tail -1) for $arch in $(( $(date +%s) - start )) s ($dir)"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
	chip=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' _)
	driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
	out="$top/bench/hw/$chip-$(date +%Y-%m-%d).txt"
	mkdir -p "$top/bench/hw"
	echo "# $chip, driver $driver, $(date -u), RUNFLAGS $runflags" >"$out"
	make -s -C "$dir" run RUNFLAGS="$runflags" >/dev/null
	cat "$dir/observed.txt" >>"$out"
	echo "emit-cuda: results in $out"
fi
