#!/bin/sh
# Coverage-guided fuzzing with clang's libFuzzer (t/fuzz-target.c): one
# harness per front end (spec, litmus), built with ASan+UBSan (float-cast-
# overflow included) from the library sources, seeded with every bundled
# spec and litmus test, with a dictionary of the spec and litmus keywords
# and every machine parameter and value (from gpumc list).
#
#   make check      a short burst per harness (GPUMC_FUZZ_SECONDS, default 5)
#   make fuzz       long runs (GPUMC_FUZZ_SECONDS, default 3600 per harness),
#                   findings and the grown corpus under build/fuzz/
# Without clang the test is skipped.
. "$srcdir/t/lib.sh"
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null 2>&1 || ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
	"$CLANG" -x c -fsanitize=fuzzer -o "$T/probe" - >/dev/null 2>&1; then
	echo "1..0 # SKIP no clang with libFuzzer (apt-get install clang)"
	exit 0
fi
secs=${GPUMC_FUZZ_SECONDS:-5}
F="$BUILDDIR/fuzz"
mkdir -p "$F"
plan 4
# build (again only when a source changed)
srcs=$(find "$srcdir/src" -name '*.c' ! -name main.c | sort)
# the libraries configure found, and MPI's headers when it found MPI (--mpi)
libs=$(sed -n 's/^LIBS = //p' "$BUILDDIR/Makefile")
mpi=$(sed -n 's/^MPI_CFLAGS = //p' "$BUILDDIR/Makefile")
flags="-std=c11 -g -O1 -D_GNU_SOURCE -ffp-contract=off -I$srcdir/src -I$BUILDDIR $mpi -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all"
for h in spec litmus; do
	def=; [ $h = litmus ] && def=-DFUZZ_LITMUS
	if [ ! -x "$F/fuzz-$h" ] || [ -n "$(find "$srcdir/src" "$srcdir/t/fuzz-target.c" -newer "$F/fuzz-$h" -name '*.[ch]' | head -1)" ]; then
		# shellcheck disable=SC2086
		"$CLANG" $flags -fsanitize=fuzzer $def -o "$F/fuzz-$h" $srcs "$srcdir/t/fuzz-target.c" $libs \
			> "$F/build-$h.log" 2>&1
	fi
	[ -x "$F/fuzz-$h" ]; ok $? "libFuzzer harness fuzz-$h built"
done
# dictionary: keywords, opcodes, and every parameter and value
{
	for w in kernel end machine set global shared check expect name note host recovery launch sync l2wb \
		copy store persist if deterministic exists '~exists' forall invariant deadlock_free recoverable \
		durable persisted idempotent fill iota random file .reg .u32 .s32 .f32 .b32 .pred '%tid' '%ctaid' \
		'%laneid' '%gtid' ld.global.u32 st.global.u32 st.global.wt.u32 ld.shared.u32 atom.global.add.u32 \
		atom.global.cas.b32 red.global.add.f32 bar.sync membar.gl membar.cta clwb sfence pcommit bra exit \
		setp.eq.u32 selp.u32 mad.lo.u32 div.u32 cvt.rn.f32.u32 GPU_PTX ScopeTree device cta warp \
		'/\' '\/' 4294967295 4294967296 -2147483649 99999999999999999999 1e40 0f7FC00000; do
		printf '"%s"\n' "$w" | sed 's/\\/\\\\/g'
	done
	"$GPUMC" list | awk '$2 ~ /^[0-9a-z-]+$/ && $3 ~ /\.\.|\|/ { print "\"" $1 "\""; n = split($3, v, /\||\.\./); for (i = 1; i <= n; i++) print "\"" v[i] "\"" }'
} | sort -u > "$F/dict"
for h in spec litmus; do
	c="$F/corpus-$h"
	mkdir -p "$c"
	if [ $h = spec ]; then
		find "$srcdir/specs" "$srcdir/t/good" "$srcdir/t/bad" "$srcdir/t/progress" -name '*.gpu' -exec cp {} "$c/" \; 2>/dev/null
	else
		find "$srcdir/specs/litmus" "$srcdir/t/litmus-bad" -name '*.litmus' -exec cp {} "$c/" \; 2>/dev/null
	fi
	(cd "$F" && ASAN_OPTIONS=detect_leaks=1 "./fuzz-$h" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
		-dict="$F/dict" -print_final_stats=1 "$c" > "$F/run-$h.log" 2>&1)
	r=$?
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$F/run-$h.log" | grep -o '[0-9]*$')
	ok $r "fuzz-$h: ${execs:-?} executions in ${secs}s, no crash, no sanitizer report, oracles hold"
	[ $r -eq 0 ] || tail -40 "$F/run-$h.log" | sed 's/^/# /'
done
