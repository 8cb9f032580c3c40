#!/bin/sh
# Parser: every bad input in t/bad gives exit 2 and the exact message its
# first line declares ("# expect: LINE:COL: error: ..."); good inputs parse.
. "$srcdir/t/lib.sh"
bad=$(ls "$srcdir"/t/bad/*.gpu | wc -l)
good=$(ls "$srcdir"/t/good/*.gpu "$SPECS"/baseline/*.gpu | wc -l)
plan $((bad * 2 + good + 2))
for f in "$srcdir"/t/bad/*.gpu; do
	want=$(head -1 "$f" | sed 's/^# expect: //')
	b=$(basename "$f")
	run "$GPUMC" check -q "$f"
	is "$rc" 2 "$b: exit code 2"
	case "$want" in
	*.gpu:*) full="$(dirname "$f")/$want" ;;
	*) full="$f:$want" ;;
	esac
	if grep -qxF -- "$full" "$T/err"; then ok 0 "$b: $want"
	else ok 1 "$b: $want"; echo "# got: $(cat "$T/err")"; fi
done
for f in "$srcdir"/t/good/*.gpu "$SPECS"/baseline/*.gpu; do
	run "$GPUMC" check -q --max-states 1 "$f"
	[ "$rc" -ne 2 ] && [ ! -s "$T/err" ]
	ok $? "$(basename "$f") parses"
done
# several errors reported in one run, each with its position
printf 'frob 1\nkernel\n  mov.u32 %%r0, 1\n  bad.op\nend\n' > "$T/multi.gpu"
run "$GPUMC" check "$T/multi.gpu"
is "$(grep -c ': error: ' "$T/err")" 3 "one run reports every error"
# -D errors name the command line
run "$GPUMC" check -D nosuch=1 "$SPECS/baseline/int-reduction.gpu"
like "$T/err" "^command line: error: -D nosuch: unknown parameter 'nosuch'" "-D with an unknown key"
