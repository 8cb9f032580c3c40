#!/bin/sh
# gpumc litmus --emit-cuda: the CUDA harness generator (src/litmus/emit.c),
# tested by its output: golden files for three shapes, a shape check of
# the program generated for every bundled test (each thread's asm block
# holds exactly the test's instructions, in the test's order), the
# observed-format line the program prints read back by --observed, and,
# where nvcc is installed, a compile of the golden shapes.
. "${srcdir:-.}/t/lib.sh"
L="$srcdir/specs/litmus"
G="$srcdir/t/litmus-emit"
plan 11

# golden: MP with release/acquire (immediate stores), IRIW+addrs (64-bit
# address arithmetic from a 32-bit register), the thesis's Fig. 3.2 (a
# shared location, address registers), deque-steal (guards, cas)
run "$GPUMC" litmus --emit-cuda "$T/g" "$L/ptx/MP+rel+acq.gpu.litmus" "$L/cta-global/IRIW+addrs.litmus" \
	"$L/format/SB-fig3.2.litmus" "$L/bugs/deque-steal.litmus"
is "$rc" 0 "--emit-cuda on four tests"
# MP whole; of the others, what depends on the test: the part before the
# common code, and the testing threads' cases
part() { sed -n -e '1,/^#define F_STRESS/p' -e '/^	case [0-9]*:/,/^		break;/p' "$1"; }
r=0
for f in MP+rel+acq.gpu.cu Makefile IRIW+addrs SB deque-steal; do
	case $f in
	*.cu | Makefile) cp "$T/g/$f" "$T/got" ;;
	*) part "$T/g/$f.cu" >"$T/got" && f=$f.part ;;
	esac
	if ! diff -u "$G/$f" "$T/got" >"$T/diff"; then
		sed 's/^/# /' "$T/diff" | head -20
		r=1
	fi
done
ok $r "generated programs and Makefile equal t/litmus-emit/* (the .part files: the test-specific parts)"

# every bundled test: one program each, named in the Makefile
ALL=$(ls "$L"/*/*.litmus)
run "$GPUMC" litmus --emit-cuda "$T/all" $ALL
sed 's/^/# /' "$T/err" | head
is "$rc" 0 "--emit-cuda on every bundled test"
nt=$(printf '%s\n' "$ALL" | wc -l)
ncu=$(ls "$T/all"/*.cu | wc -l)
nmk=$(awk '/^TESTS =/ { on = 1; next } on && /^$/ { exit } on' "$T/all/Makefile" | wc -l)
is "$ncu/$nmk" "$nt/$nt" "one program per bundled test, each in the Makefile's TESTS"

# shape: per thread, the instructions of the asm block (minus the lines the
# harness adds, marked // gpumc) are the test's column, mnemonic by
# mnemonic, in order.  Tests are matched to programs by their TEST name
# and configuration.
cols() { # litmus file -> "Tn mnemonic" lines in column order
	awk '
	/^T0[ \t]*[|;]/ || /^T0[ \t]*$/ { on = 1; next }
	on && (/^[ \t]*$/ || /^(ScopeTree|exists|~exists|forall|assert)/ || /^[a-z][a-z0-9_]*:/) { exit }
	on {
		n = split($0, c, "|")
		for (i = 1; i <= n; i++) {
			s = c[i]
			sub(/^[ \t]+/, "", s)
			if (s ~ /^@/) sub(/^@[^ \t]+[ \t]+/, "", s)
			split(s, w, /[ \t;]+/)
			if (w[1] != "") print "T" (i - 1), w[1]
		}
	}' "$1" | sort -s -k1,1
}
asmcols() { # cu file -> "Tn mnemonic" lines
	awk '
	/^\tcase [0-9]+: \/\* T[0-9]+ \*\/$/ { t = $4; next }
	/^\t\t\t"\\t/ && !/\/\/ gpumc/ && !/\.reg / {
		s = $0
		sub(/^\t\t\t"\\t/, "", s)
		if (s ~ /^@/) sub(/^@[^ ]+ /, "", s)
		split(s, w, /[ ;]/)
		print t, w[1]
	}' "$1" | sort -s -k1,1
}
bad=0
checked=0
for f in $ALL; do
	name=$(sed -n '1s/^GPU_PTX[ \t]*//p' "$f")
	cfg=$("$GPUMC" litmus --model sc "$f" | awk '/^Model /{print $4}')
	cols "$f" >"$T/want"
	same=1
	# two bundled tests may share a name and configuration: either program
	for cu in $(grep -l "^#define TEST \"$name\"\$" "$T"/all/*.cu); do
		grep -q "^#define CONFIG \"$cfg\"\$" "$cu" || continue
		asmcols "$cu" >"$T/got"
		cmp -s "$T/want" "$T/got" && same=0
	done
	if [ $same != 0 ]; then
		[ $bad -lt 3 ] && echo "# $f: no program with its instructions; last tried $cu" &&
			diff "$T/want" "$T/got" | head -5 | sed 's/^/# /'
		bad=$((bad + 1))
	fi
	checked=$((checked + 1))
done
ok $([ $bad = 0 ] && [ "$checked" = "$nt" ] && echo 0 || echo 1) \
	"every bundled test's asm blocks hold its instructions in order ($checked tests, $bad differ)"

# the registers and the final memory of every instance are collected
r=0
for c in "$T"/all/*.cu; do
	nreg=$(grep -c '"=r"(rg\[' "$c")
	nasm=$(grep -c 'asm volatile' "$c")
	ntd=$(sed -n 's/^#define NT //p' "$c")
	[ "$nasm" = "$ntd" ] || r=1
	grep -q 'res\[(inst \* NT + t) \* MAXR + r\] = (int)rg\[r\]' "$c" || r=1
	grep -q 'shfin\[inst \* NLOCS + l\] = \*loc\[l\]' "$c" || r=1
	[ "$nreg" -ge 0 ] || r=1
done
ok $r "one asm volatile per testing thread; registers and shared memory copied out per instance"

# the ScopeTree drives placement: MP across CTAs, SB in one CTA's warps
grep -q '^static const int tcta\[NT\] = { 0, 1 };$' "$T/g/MP+rel+acq.gpu.cu"
ok $? "MP+rel+acq.gpu: the two threads in different test CTAs"
grep -q '^static const int tcta\[NT\] = { 0, 0 };$' "$T/g/SB.cu" &&
	grep -q '^#define SHIDX { 0, -1 }$' "$T/g/SB.cu"
ok $? "SB (Fig. 3.2): one CTA; x in shared memory, y global"

# what the program prints, --observed reads: a harness result with the
# outcome on one chip
cat >"$T/obs.txt" <<'EOF'
# gpumc litmus harness: MP+rel+acq.gpu (D-cta:S-ker-Global) on NVIDIA_H100_80GB_HBM3
# 1000 iterations x 512 instances = 512000 runs, 132 blocks x 256 threads, incantations: stress bank shuffle sync
#       511000 :> 1:r1=1; 1:r2=1;
#         1000 :> 1:r1=0; 1:r2=0;
chips NVIDIA_H100_80GB_HBM3
D-cta:S-ker-Global MP+rel+acq.gpu 0  # of 512000 runs: (1:r1=1 /\ 1:r2=0)
chips NVIDIA_H100_80GB_HBM3
D-cta:S-ker-Global MP+relaxed 7  # of 512000 runs: (1:r1=1 /\ 1:r2=0)
D-cta:S-ker-Global SB+relaxed 0  # of 512000 runs: (0:r1=0 /\ 1:r2=0)
EOF
run "$GPUMC" litmus --observed "$T/obs.txt" --model sc,ptx "$L/ptx/MP+rel+acq.gpu.litmus" \
	"$L/ptx/MP+relaxed.litmus" "$L/ptx/SB+relaxed.litmus"
sed 's/^/# /' "$T/out" "$T/err"
like "$T/out" '^sc +unsound +D-cta:S-ker-Global +MP\+relaxed +observed 7 \(NVIDIA_H100_80GB_HBM3\), model forbids$' \
	"--observed reads the harness output: sc unsound on MP+relaxed seen 7 times"
like "$T/out" '^Unobserved ptx +1 tests allowed but never observed$' \
	"--observed: ptx allows SB+relaxed, never seen in this run (precision)"

# nvcc, where installed: the golden shapes compile (inline PTX through ptxas)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$NVCC" ]; then
	r=0
	for f in MP+rel+acq.gpu IRIW+addrs SB deque-steal; do
		"$NVCC" -O3 -arch=${CUDA_ARCH:-sm_75} -o "$T/g/$f" "$T/g/$f.cu" >"$T/nvcc" 2>&1 || {
			r=1
			sed 's/^/# /' "$T/nvcc" | head -5
		}
	done
	ok $r "nvcc compiles the four golden harnesses ($NVCC)"
else
	echo "ok $((n + 1)) # SKIP no nvcc"
	n=$((n + 1))
fi
