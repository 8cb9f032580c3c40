#!/bin/sh
# Honest under any input (issue 15): hostile inputs give a positioned error
# (exit 2), a fault (exit 1) or a limit (exit 3), never a crash, a wrapped
# value or a vacuous pass.  Parser errors with a fixed message live in t/bad.
. "$srcdir/t/lib.sh"
plan 17

# 1. concrete mode: an out-of-bounds clwb / st.wt address faults the warp
# (it used to index the timing table with the raw address: heap overwrite)
for ins in "clwb [x + %r0]" "st.global.wt.u32 [x + %r0], 2"; do
	for off in 4 400000000; do
		cat > "$T/oob.gpu" <<SPEC
machine persist
set sms = 1
set ctas = 1
set threads_per_warp = 1
global .u32 x = 0
kernel
    .reg .u32 %r<2>
    mov.u32 %r0, $off
    $ins
    exit
end
check forall x == 0
SPEC
		run "$GPUMC" run "$T/oob.gpu"
		is "$rc" 1 "run: out-of-bounds '$ins' at +$off: exit 1"
		like "$T/out" "FAULT at pc 1 .*out-of-bounds" "run: '$ins' at +$off reported as a fault"
	done
done

# 2. file() data: every word a whole value of the array's type
data() { printf "%b" "$1" > "$T/d.txt"; printf 'machine baseline\nglobal .%s x[3] = file("d.txt")\nkernel\n exit\nend\n' "$2" > "$T/f.gpu"; run "$GPUMC" check -q "$T/f.gpu"; }
data '1 2 3x\n' u32
is "$rc" 2 "file(): trailing junk after a number is an error"
like "$T/err" "d.txt:1:5: error: '3x' is not an integer that fits in 32 bits" "file(): the junk word, positioned in the data file"
data '1\n010 3\n' u32
like "$T/err" "d.txt:2:1: error: '010' is not an integer" "file(): a leading zero is neither decimal nor octal: error"
data '1 2 4294967296\n' u32
like "$T/err" "d.txt:1:5: error: '4294967296' is not an integer that fits in 32 bits" "file(): a value over 32 bits is an error"
data '1 2 1.5\n' s32
like "$T/err" "'1.5' is not an integer" "file(): a fraction for an integer array is an error"
data '1 2 1e39\n' f32
like "$T/err" "'1e39' is not a finite f32 value" "file(): a value out of f32 range is an error"
data '1 2 nan\n' f32
like "$T/err" "'nan' is not a finite f32 value" "file(): NaN is an error"
data '-1 -2147483648 4294967295\n' u32
is "$rc" 0 "file(): -1, -2^31 and 2^32-1 are 32-bit words"

# 3. a long run of junk characters is reported, not recursed over
awk 'BEGIN { printf "machine baseline\nkernel\n"; for (i = 0; i < 200000; i++) printf "$"; printf "\n exit\nend\n" }' > "$T/junk.gpu"
run "$GPUMC" check -q "$T/junk.gpu"
is "$rc" 2 "200000 bad characters: exit 2, no stack overflow"
