#!/bin/sh
# gpumc set-up on a fresh Debian machine.
#   sh quickstart.sh         install what is missing, build, run the bundled spec suite
#                            (a short summary: verdict counts per area)
#   sh quickstart.sh litmus  the same set-up, then every litmus test under every model
#   sh quickstart.sh check   the same set-up, then every test, again under ASan+UBSan
set -e
cd "$(dirname "$0")"
mode=${1:-suite}
case "$mode" in
suite|litmus|check) ;;
*) echo "usage: sh quickstart.sh [litmus|check]" >&2; exit 2 ;;
esac

# Debian packages the build, the tests and the benchmarks need.
pkgs="gcc make autoconf automake libtool pkg-config libjudy-dev libxxhash-dev openmpi-bin libopenmpi-dev valgrind spin gnuplot-nox time jq graphviz clang"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "quickstart: installing:$missing"
	if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO=sudo; else
		echo "quickstart: need root (or sudo) to install:$missing" >&2; exit 2; fi
	$SUDO apt-get update -q
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi

jobs=$(nproc 2>/dev/null || echo 2)
autoreconf -fi >/dev/null
mkdir -p build
(cd build && { [ -f Makefile ] || ../configure -q; } && make -s -j"$jobs")

done_msg() {
	echo
	echo "quickstart: the program is $PWD/build/gpumc; try"
	echo "    ./build/gpumc check specs/baseline/fp32-reduction.gpu"
	echo "  or put gpumc, its man pages and the specs (under share/gpumc) on the PATH with"
	echo "    (cd build && make install)      # prefix /usr/local; ../configure --prefix=DIR to change"
}

if [ "$mode" = litmus ]; then
	./build/gpumc litmus --compare sc,ics13,ics13-fixed,scoped-rmo specs/litmus/*/*.litmus || true
	done_msg
	exit 0
fi

if [ "$mode" = suite ]; then
	echo
	rc=0
	# the whole table goes to a file; the terminal gets the summary per area
	./build/gpumc suite -j "$jobs" specs >build/suite.txt || rc=1
	sed -n '/^[a-z]* *[0-9]* specs\{0,1\}:/p; $p' build/suite.txt
	grep MISMATCH build/suite.txt || true
	echo "(the row of every spec: build/suite.txt)"
	for m in sc ics13 ics13-fixed scoped-rmo; do
		if ./build/gpumc litmus --expect -q --model "$m" specs/litmus/*/*.litmus >/dev/null 2>&1; then
			echo "litmus under $m: every declared verdict as expected"
		else
			echo "litmus under $m: MISMATCH (run: gpumc litmus --expect --model $m specs/litmus/*/*.litmus)"
			rc=1
		fi
	done
	echo "(every litmus test under every model, side by side: sh quickstart.sh litmus)"
	done_msg
	exit $rc
fi

# Tests on the normal build, then the same tests built with sanitizers.
(cd build && make -s -j"$jobs" check) || { cat build/test-suite.log 2>/dev/null | tail -60; exit 1; }
mkdir -p build-asan
(cd build-asan && { [ -f Makefile ] || ../configure -q \
	CFLAGS="-O1 -g -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	LDFLAGS="-fsanitize=address,undefined,float-cast-overflow"; } && \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 make -s -j"$jobs" check) || {
	cat build-asan/test-suite.log 2>/dev/null | tail -60; exit 1; }
echo "quickstart: all tests passed (normal and ASan+UBSan builds)"
done_msg
