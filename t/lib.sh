# TAP helpers for the shell tests.  Each test script sources this, calls
# plan N, then ok/is/like; the build directory's gpumc is $GPUMC.
GPUMC=${GPUMC:-./gpumc}
srcdir=${srcdir:-.}
BUILDDIR=${BUILDDIR:-.}
SPECS="$srcdir/specs"
T=$(mktemp -d "${TMPDIR:-/tmp}/gpumc-t.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0
plan() { echo "1..$1"; }
ok() { # ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
is() { # is GOT WANT DESCRIPTION
	n=$((n + 1))
	if [ "$1" = "$2" ]; then echo "ok $n - $3"
	else echo "not ok $n - $3"; echo "# got:  '$1'"; echo "# want: '$2'"; fi
}
like() { # like TEXT-FILE EXTENDED-REGEX DESCRIPTION
	n=$((n + 1))
	if grep -Eq -- "$2" "$1"; then echo "ok $n - $3"
	else echo "not ok $n - $3"; echo "# no line matches /$2/ in:"; sed 's/^/#   /' "$1" | head -20; fi
}
# run CMD...: stdout in $T/out, stderr in $T/err, exit code in $rc
run() {
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
}
# json field extraction without jq: the first "key":number
jnum() { grep -o "\"$1\":[0-9.e+-]*" "$2" | head -1 | cut -d: -f2; }
