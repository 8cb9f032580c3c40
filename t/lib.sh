# TAP helpers for the shell tests.  Each test script sources this, calls
# plan N, then ok/is/like; the build directory's gpumc is $GPUMC.
GPUMC=${GPUMC:-./gpumc}
srcdir=${srcdir:-.}
BUILDDIR=${BUILDDIR:-.}
SPECS="$srcdir/specs"
T=$(mktemp -d "${TMPDIR:-/tmp}/gpumc-t.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0
# A known bug: set TODO="reason" around the tests that show it; they are
# reported "# TODO" (a failure is expected, a pass is an unexpected pass).
TODO=
plan() { echo "1..$1"; }
ok() { # ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2${TODO:+ # TODO $TODO}"; else echo "not ok $n - $2${TODO:+ # TODO $TODO}"; fi
}
is() { # is GOT WANT DESCRIPTION
	n=$((n + 1))
	if [ "$1" = "$2" ]; then echo "ok $n - $3${TODO:+ # TODO $TODO}"
	else echo "not ok $n - $3${TODO:+ # TODO $TODO}"; echo "# got:  '$1'"; echo "# want: '$2'"; fi
}
like() { # like TEXT-FILE EXTENDED-REGEX DESCRIPTION
	n=$((n + 1))
	if grep -Eq -- "$2" "$1"; then echo "ok $n - $3${TODO:+ # TODO $TODO}"
	else echo "not ok $n - $3${TODO:+ # TODO $TODO}"; echo "# no line matches /$2/ in:"; sed 's/^/#   /' "$1" | head -20; fi
}
unlike() { # unlike TEXT-FILE EXTENDED-REGEX DESCRIPTION: no line matches
	n=$((n + 1))
	if ! grep -Eq -- "$2" "$1"; then echo "ok $n - $3${TODO:+ # TODO $TODO}"
	else echo "not ok $n - $3${TODO:+ # TODO $TODO}"; echo "# lines match /$2/:"; grep -E -- "$2" "$1" | sed 's/^/#   /' | head -20; fi
}
# run CMD...: stdout in $T/out, stderr in $T/err, exit code in $rc
run() {
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
}
# json field extraction without jq: the first "key":number
jnum() { grep -o "\"$1\":[0-9.e+-]*" "$2" | head -1 | cut -d: -f2; }
# porfig JSON-FILE: what a reduction or the thread count must not change
# (t/threads.sh, t/por-threads.sh): for a failure the failed property, else
# the verdict, terminal states, crash images and the final values
porfig() {
	pv=$(grep -o '"verdict":"[^"]*"' "$1" | head -1 | cut -d'"' -f4)
	case $pv in
	fail*) grep -o '"failed":{"kind":"[^"]*","property":"[^"]*"' "$1" | head -1 ;;
	*) printf '%s terminal %s crash %s %s' "${pv:-error}" "$(jnum terminal_states "$1")" "$(jnum crash_images "$1")" \
		"$(grep -o '"final_values":{[^}]*}' "$1")" ;;
	esac
}
# verdict SPEC WANT OPTIONS...: one test, the verdict of gpumc check on SPEC
verdict() {
	vspec=$1; vwant=$2; shift 2
	vgot=$("$GPUMC" check -q --json "$@" "$vspec" 2>/dev/null | grep -o '"verdict":"[^"]*"' | cut -d'"' -f4)
	is "$vgot" "$vwant" "$(basename "$vspec" .gpu) $*: $vwant"
}
