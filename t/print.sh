#!/bin/sh
# gpumc print and the print/re-parse oracle (issue 15 item 15): for every
# bundled spec (specs/, t/good, t/print) the printed text
#   - is printed at all (print checks itself: the text must parse back to
#     the same decoded spec, src/spec/print.c spec_same),
#   - is a fixpoint: printing the printed spec gives the same bytes,
#   - checks to the same verdict, expectation, states, transitions,
#     terminal states and crash images as the spec as written;
# and the -D rows of t/golden.list, printed with their -D as set lines,
# check as the spec does with the -D options.
. "$srcdir/t/lib.sh"
specs=$(cd "$srcdir" && find specs t/good t/print -name '*.gpu' | sort)
nspecs=$(echo "$specs" | wc -l)
ndef=$(grep -c '	-D' "$srcdir/t/golden.list")
plan $((nspecs + ndef + 16))
# verdict, expectation and counts of gpumc check --json
key() {
	"$GPUMC" check -q --json "$@" > "$T/j" 2>/dev/null
	printf '%s %s states %s transitions %s terminal %s crash %s' \
		"$(grep -o '"verdict":"[^"]*"' "$T/j" | head -1)" "$(grep -o '"expected":"[^"]*"' "$T/j" | head -1)" \
		"$(jnum states "$T/j")" "$(jnum transitions "$T/j")" "$(jnum terminal_states "$T/j")" "$(jnum crash_images "$T/j")"
}
# same SPEC [-D ...]: print, fixpoint, same check outcome; "" when all hold
same() {
	spec=$1; shift
	if ! "$GPUMC" print "$@" "$spec" > "$T/p.gpu" 2> "$T/perr"; then
		echo "print failed: $(head -3 "$T/perr")"; return
	fi
	"$GPUMC" print "$T/p.gpu" > "$T/pp.gpu" 2>&1
	if ! cmp -s "$T/p.gpu" "$T/pp.gpu"; then
		echo "not a fixpoint: $(diff "$T/p.gpu" "$T/pp.gpu" | head -4 | tr '\n' ' ')"; return
	fi
	want=$(key "$@" "$spec"); got=$(key "$T/p.gpu")
	[ "$got" = "$want" ] || echo "printed: $got; as written: $want"
}
for s in $specs; do
	why=$(same "$srcdir/$s")
	is "$why" "" "print $s: parses back the same, fixpoint, same verdict and counts"
done
grep '	-D' "$srcdir/t/golden.list" > "$T/defs"
while IFS='	' read -r s opts; do
	# shellcheck disable=SC2086
	why=$(same "$SPECS/$s" $opts)
	is "$why" "" "print $opts $s: the -D as set lines check the same"
done < "$T/defs"
# the printed kernel is decoded, not copied: spellings become canonical
"$GPUMC" print "$srcdir/t/print/forms.gpu" > "$T/out" 2>&1
like "$T/out" '^    ld\.acquire\.sys\.global\.cv\.u32 %a2, \[w\]$' "ld.acquire.sys.global.cv keeps its ordering, scope and cache operator"
like "$T/out" '^    @!%p st\.relaxed\.gpu\.global\.u16 \[w \+ 6\], 513$' "a guarded sub-word store keeps its guard, ordering and width"
like "$T/out" '^    ld\.acquire\.gpu\.global\.u32 %b, \[d\]$' "ld.acquire.gpu keeps its ordering and scope"
like "$T/out" '^    atom\.acq_rel\.global\.add\.u32 %b, \[d\], 1$' "atom keeps .acq_rel; its default scope .gpu is left out"
like "$T/out" '^    membar\.gl$' "fence.sc.gpu is membar.gl"
like "$T/out" '^    st\.global\.u64 \[d\], {%b, %a0}$' "a 64-bit store of a register pair prints both registers"
like "$T/out" '^    st\.global\.u64 \[d\], {7, 0}$' "a 64-bit store of immediates prints both words"
"$GPUMC" print "$srcdir/t/print/recovery-forms.gpu" > "$T/out" 2>&1
like "$T/out" '^    persist seen\[%h4 \+ 1\]$' "a computed element keeps its register and offset"
like "$T/out" '^            add %h1, %h1, %h2$' "recovery steps nest by their while and if blocks"
like "$T/out" '^check persist_order strict$' "persist_order keeps its model"
"$GPUMC" print "$srcdir/t/print/forms.gpu" > "$T/out" 2>&1
like "$T/out" '^    @%p bra L24$' "branch targets get generated labels"
like "$T/out" '^check forall !\(w\[0\] == 1\) \\/ !!\(neg\[2\] == -5\) \\/ 0:%a1 - \(1 - 2\) > 0 /\\ \(w\[3\] == 1 \\/ w\[3\] == 0\)$' \
	"conditions print with the parentheses the grammar needs, no more"
# copy is device work that reads no register: a computed element was
# dropped (copy a[%h1], b[%h1] copied b[0] to a[0]), now refused
printf 'machine persist\nglobal .u32 a[2]\nglobal .u32 b[2]\nkernel\nexit\nend\nrecovery\nmov %%h1, 1\ncopy a[%%h1], b[%%h1]\nend\n' > "$T/cp.gpu"
run "$GPUMC" print "$T/cp.gpu"
is "$rc $(grep -c "cp.gpu:9:1: .*copy names elements by number" "$T/err")" "2 1" "copy with a computed element: positioned error, exit 2"
# -D overrides become set lines; one that no set line can hold is refused
run "$GPUMC" print -D threads_per_warp=3 -D 'x=a b' "$SPECS/baseline/barrier.gpu"
is "$rc $(grep -c '^set threads_per_warp = 3$' "$T/out") $(grep -c '^set x = "a b"$' "$T/out")" "0 1 1" \
	"print -D: overrides as set lines, quoted when they are not words"
run "$GPUMC" print -D 'x=say "hi"' "$SPECS/baseline/barrier.gpu"
is "$rc $(wc -c < "$T/out")" "2 0" "print -D with a '\"' in the value: exit 2, nothing printed"
# a register range whose names no instruction could write (longer than a
# name token) is refused where it is declared: the printer could not name it
long=$(printf '%0126d' 0 | tr 0 r)
printf 'kernel\n.reg .u32 %%%s<10>\nexit\nend\n' "$long" > "$T/long.gpu"
run "$GPUMC" print "$T/long.gpu"
is "$rc $(grep -c "long.gpu:2:11: .*longer than 127 characters" "$T/err")" "2 1" \
	"%NAME<N> with names over 127 characters: positioned error, exit 2"
