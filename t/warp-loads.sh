#!/bin/sh
# A whole warp's word loads (memory.c, loads): when every lane's address is
# good they are loaded without the per-lane tests, else lane by lane, the
# first faulting lane's fault reported.  Each kernel below loads with one
# full warp of 32 lanes, lane 5 (and lane 3) moved by BAD bytes.  (Planting
# a whole-warp test of alignment alone turns the out-of-bounds rows red, 1-2
# and 7-13; one without the alignment test, rows 3-4.)  Good loads from one
# variable read its row (MEM-3), read-only or in the vector: the last rows
# load a written variable behind another written one, and a read-only one
# behind them (planting a row always taken from the initial values turns
# row 16 red).  A good whole-warp load whose lanes read one word (a
# broadcast) is a fill and one whose lane l reads the l-th word on is a
# copy; other strides load lane by lane (planting the fill one word on
# turns rows 18 and 21 red, the copy one word on rows 16-17, 20 and 22, a
# stride-8 load taken for a copy row 19).  A fill or a copy tests only its
# first and last lane's address (the others lie between them): rows 23-30
# fault in them (planting the test of the first lane alone turns rows 23-24
# red; planting it without the alignment test, rows 25-26 and 29-30; no
# test at all, every one of them).  A global atomic's addresses (memory.c,
# check, DAB taking them at issue) are tested as loads' are: rows 31-34
# (planting the test without alignment turns rows 33-34 red, one that
# passes every address all four).
. "$srcdir/t/lib.sh"
plan 34

# one warp of 32 lanes, the machine of every kernel below
warp32() {
	printf 'machine baseline\nset sms = 1\nset ctas = 1\nset warps_per_cta = 1\nset threads_per_warp = 32\n'
}

# spec BAD3 BAD5 LOAD: x[32] = 1, y[32] = 2 after it, shared s[32] = 3
spec() {
	warp32 > "$T/k.gpu"
	cat >> "$T/k.gpu" <<SPEC
global .u32 x[32] = fill(1)
global .u32 y[32] = fill(2)
global .u32 out[32] = fill(0)
shared .u32 s[32]
kernel
    .reg .u32 %r<3>
    .reg .pred %p<1>
    shl.b32            %r0, %tid, 2
    mov.u32            %r2, 3
    st.shared.u32      [s + %r0], %r2
    setp.eq.u32        %p0, %tid, 3
    @%p0 add.u32       %r0, %r0, $1
    setp.eq.u32        %p0, %tid, 5
    @%p0 add.u32       %r0, %r0, $2
    $3
    shl.b32            %r0, %tid, 2
    st.global.u32      [out + %r0], %r1
    exit
end
check forall out[0] == $4 /\ out[5] == $5 /\ out[31] == $4
SPEC
}

fault() { # fault BAD3 BAD5 LOAD WHAT DESCRIPTION: the load (pc 7) faults
	spec "$1" "$2" "$3" 0 0
	run "$GPUMC" run "$T/k.gpu"
	is "$rc" 1 "run: $5: exit 1"
	like "$T/out" "FAULT at pc 7 .*$4" "run: $5: the load faults, $4"
}
fault 0 128 "ld.global.u32 %r1, [x + %r0]" "out-of-bounds" "lane 5 past x into y"
fault 0 2 "ld.global.u32 %r1, [x + %r0]" "misaligned" "lane 5 misaligned"
fault 2 128 "ld.global.u32 %r1, [x + %r0]" "misaligned" "lane 3 misaligned, lane 5 out of x"
fault 0 4294967168 "ld.global.u32 %r1, [y + %r0]" "out-of-bounds" "lane 5 back from y into x"
fault 0 4096 "ld.global.u32 %r1, [%r0]" "out-of-bounds" "lane 5 past every global word"
fault 0 128 "ld.shared.u32 %r1, [s + %r0]" "out-of-bounds" "lane 5 past the shared words"

spec 0 128 "ld.global.u32 %r1, [x + %r0]" 1 2
run "$GPUMC" check -q "$T/k.gpu"
is "$rc" 1 "check: lane 5 past x: a fault (exit 1)"

# good addresses: the values, the address register also the destination
spec 0 0 "ld.global.u32 %r1, [x + %r0]" 1 1
run "$GPUMC" run "$T/k.gpu"
is "$rc" 0 "run: every lane in x: x's values"
spec 0 0 "ld.global.u32 %r1, [x + %r0]" 1 1
sed -i 's/    ld.global.u32      %r1, \[x + %r0\]/    ld.global.u32      %r0, [x + %r0]\n    mov.u32            %r1, %r0/' "$T/k.gpu"
run "$GPUMC" run "$T/k.gpu"
is "$rc" 0 "run: the address register loaded into: each lane its own address first"

# good loads from a written variable (its row in the vector, behind z's)
# and from a read-only one declared after it (its initial values)
rows() { # rows VAR EXPECT0 EXPECT31 DESCRIPTION
	warp32 > "$T/r.gpu"
	cat >> "$T/r.gpu" <<SPEC
global .u32 z[32] = fill(0)
global .u32 y[32] = fill(2)
global .u32 x[32] = fill(7)
global .u32 out[32] = fill(0)
kernel
    .reg .u32 %r<4>
    shl.b32            %r0, %tid, 2
    st.global.u32      [z + %r0], %tid
    sub.u32            %r1, 31, %tid
    shl.b32            %r2, %r1, 2
    add.u32            %r1, %r1, 10
    st.global.u32      [y + %r2], %r1
    ld.global.u32      %r3, [$1 + %r0]
    st.global.u32      [out + %r0], %r3
    exit
end
check forall out[0] == $2 /\\ out[31] == $3
SPEC
	run "$GPUMC" check -q "$T/r.gpu"
	is "$rc" 0 "check: $4"
}
rows y 10 41 "a written variable's row, behind another: the stored values"
rows x 7 7 "a read-only variable behind written ones: its initial values"

# lanes reading in a pattern: lane l loads word (STRIDE l + OFF) / 4 of v,
# written (y, global) or stored (s, shared) as 100 + its index
pattern() { # pattern SPACE STRIDE OFF EXPECT0 EXPECT31 DESCRIPTION
	warp32 > "$T/p.gpu"
	cat >> "$T/p.gpu" <<SPEC
global .u32 v[64] = fill(0)
global .u32 out[32] = fill(0)
shared .u32 v2[64]
kernel
    .reg .u32 %r<4>
    shl.b32            %r0, %tid, 2
    add.u32            %r1, %tid, 100
    st.$1.u32      [VAR + %r0], %r1
    add.u32            %r1, %tid, 132
    st.$1.u32      [VAR + %r0 + 128], %r1
    bar.sync           0
    mul.lo.u32         %r2, %tid, $2
    ld.$1.u32      %r3, [VAR + %r2 + $3]
    st.global.u32      [out + %r0], %r3
    exit
end
check forall out[0] == $4 /\\ out[31] == $5
SPEC
	if [ "$1" = global ]; then sed -i 's/VAR/v/' "$T/p.gpu"; else sed -i 's/VAR/v2/' "$T/p.gpu"; fi
	run "$GPUMC" check -q "$T/p.gpu"
	is "$rc" 0 "check: $6"
}
pattern global 0 12 103 103 "every lane one word of a written variable: that word"
pattern global 8 4 101 163 "lanes two words apart: each its own word"
pattern global 4 8 102 133 "lane l the l-th word on, from word 2: the row from there"
pattern shared 0 8 102 102 "every lane one shared word: that word"
pattern shared 4 4 101 132 "lane l the l-th shared word on, from word 1: the row from there"

# a fill or a copy faulting: only its first and last lane tested
fault 0 0 "ld.global.u32 %r1, [x + %r0 + 64]" "out-of-bounds" "a copy whose lanes 16-31 are past x"
fault 0 0 "ld.global.u32 %r1, [x + %r0 + 2]" "misaligned" "a copy misaligned"
fault 0 0 "ld.global.u32 %r1, [x + %r2 + 125]" "out-of-bounds" "a fill past x"
fault 0 0 "ld.global.u32 %r1, [x + %r2]" "misaligned" "a fill misaligned"

# a global atomic, lane 5 moved by BAD bytes
atomic() { # atomic BAD WHAT DESCRIPTION
	warp32 > "$T/a.gpu"
	cat >> "$T/a.gpu" <<SPEC
set entries = 32
global .u32 x[32] = fill(1)
global .u32 y[32] = fill(2)
kernel
    .reg .u32 %r<1>
    .reg .pred %p<1>
    shl.b32            %r0, %tid, 2
    setp.eq.u32        %p0, %tid, 5
    @%p0 add.u32       %r0, %r0, $1
    red.global.add.u32 [x + %r0], 1
    exit
end
SPEC
	sed -i 's/^machine baseline/machine dab/' "$T/a.gpu"
	run "$GPUMC" run "$T/a.gpu"
	is "$rc" 1 "run: $3: exit 1"
	like "$T/out" "FAULT at pc 3 .*$2" "run: $3: the atomic faults, $2"
}
atomic 128 "out-of-bounds" "an atomic's lane 5 past x"
atomic 2 "misaligned" "an atomic's lane 5 misaligned"
