#!/bin/sh
# The docs show what gpumc does (issue 16 item 7): every command shown in
# README.md and in the man pages' examples (a "$ gpumc ..." line in a code
# block) is run, and the lines the docs show under it must appear in its
# output, in that order, timings aside ("..." elides lines).
. "$srcdir/t/lib.sh"
# the examples run in a scratch directory that sees the checkout's specs
mkdir "$T/bin" "$T/run"
ln -s "$GPUMC" "$T/bin/gpumc"
for d in specs bench t; do ln -s "$(cd "$srcdir" && pwd)/$d" "$T/run/$d"; done
# blocks: README ``` fences, man .EX/.EE and .nf/.fi; roff escapes undone
extract() {
	awk -v F="$1" '
	function unroff(s) {
		gsub(/\\ /, " ", s); gsub(/\\-/, "-", s); gsub(/\\\(and/, "/\\\\", s); gsub(/\\\(or/, "\\\\/", s); gsub(/\\\(aq/, "\047", s)
		gsub(/\\\(dq/, "\"", s); gsub(/\\&/, "", s); gsub(/\\\(em/, "--", s)
		gsub(/\\\(ti/, "~", s); gsub(/\\\(ha/, "^", s)
		gsub(/\\e/, "\\\\", s) # last: \e makes the backslashes
		return s
	}
	/^```/ { inb = !inb; if (!inb && open) { print "@@END"; open = 0 } next }
	/^\.(EX|nf)/ { inb = 1; man = 1; next }
	/^\.(EE|fi)/ { inb = 0; if (open) { print "@@END"; open = 0 } next }
	inb {
		line = man ? unroff($0) : $0
		if (line ~ /^\$ /) {
			if (open) print "@@END"
			print "@@CMD " F ":" FNR; print substr(line, 3); open = 1
		} else if (open) print line
	}
	END { if (open) print "@@END" }' "$2"
}
: >"$T/blocks"
extract README.md "$srcdir/README.md" >>"$T/blocks"
for m in "$srcdir"/man/*.[157]; do extract "man/$(basename "$m")" "$m" >>"$T/blocks"; done
ncmd=$(grep -c '^@@CMD ' "$T/blocks")
plan "$ncmd"
# lines that change from run to run: wall-clock times and rates
norm() { sed -E '/^[0-9.]+ s(,| simulated)/d; /^Time /d; s/[0-9.]+s( +MISMATCH)?$/Ns\1/; s/ +$//'; }
rc_prev=0

k=0
while IFS= read -r hdr; do
	case "$hdr" in "@@CMD "*) ;; *) continue ;; esac
	where=${hdr#@@CMD }
	IFS= read -r cmd
	: >"$T/want"
	while IFS= read -r l && [ "$l" != "@@END" ]; do printf '%s\n' "$l" >>"$T/want"; done
	k=$((k + 1))
	case "$cmd" in
	"sh bench/"*) echo "ok $k - $where: $cmd # SKIP a benchmark, minutes long"; continue ;;
	esac
	# `$ echo $?` shows the exit status of the command before
	(cd "$T/run" && PATH="$T/bin:$PATH" sh -c "(exit $rc_prev); $cmd") >"$T/got" 2>&1
	rc_prev=$?
	norm <"$T/want" | grep -v '^ *\.\.\.$' >"$T/w"
	norm <"$T/got" >"$T/g"
	# every shown line, in order, somewhere in the output
	awk 'BEGIN { n = 0; i = 0 } FILENAME == ARGV[1] { want[n++] = $0; next } i < n && $0 == want[i] { i++ } END { if (i < n) { print want[i]; exit 1 } }' \
		"$T/w" "$T/g" >"$T/miss"
	if [ $? -eq 0 ]; then
		echo "ok $k - $where: $cmd"
	else
		echo "not ok $k - $where: $cmd"
		echo "# first line shown in the docs but not in the output (in order):"
		sed 's/^/#   /' "$T/miss"
		echo "# output:"
		sed 's/^/#   /' "$T/g" | head -40
	fi
done <"$T/blocks"
