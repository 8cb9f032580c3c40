#!/bin/sh
# gpumc set-up on a fresh Debian machine.
#   sh quickstart.sh        install what is missing, build, run the bundled spec suite
#   sh quickstart.sh check  the same set-up, then every test, again under ASan+UBSan
set -e
cd "$(dirname "$0")"
mode=${1:-suite}
case "$mode" in
suite|check) ;;
*) echo "usage: sh quickstart.sh [check]" >&2; exit 2 ;;
esac

# Debian packages the build, the tests and the benchmarks need.
pkgs="gcc make autoconf automake libtool pkg-config libjudy-dev libxxhash-dev valgrind spin gnuplot-nox time clang"
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

if [ "$mode" = suite ]; then
	echo
	rc=0
	./build/gpumc suite specs || rc=1
	echo
	./build/gpumc litmus --compare sc,ics13,ics13-fixed,scoped-rmo specs/litmus/*/*.litmus || true
	for m in sc ics13 ics13-fixed scoped-rmo; do
		if ./build/gpumc litmus --expect -q --model "$m" specs/litmus/*/*.litmus >/dev/null 2>&1; then
			echo "litmus under $m: every declared verdict as expected"
		else
			echo "litmus under $m: MISMATCH (run: gpumc litmus --expect --model $m specs/litmus/*/*.litmus)"
			rc=1
		fi
	done
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
