#!/bin/sh
# f32 mad/fma is fused, one rounding (alu.c), in every lane however the
# warp runs it: a whole warp on a CPU with fma takes its vector instruction
# (mad_fused), a part of a warp or another CPU the library's fmaf.  With
# x = 1 + 2^-12 and y = -(1 + 2^-11), x * x + y is 2^-24 (0x33800000)
# fused and 0 rounded twice; inf * 0 + y is a NaN, PTX's canonical
# 0x7fffffff.  (Planting a * b + c, two roundings, in mad_fused turns rows
# 1, 2, 4 and 5 red; dropping its NaN canonicalisation, row 6; the partial
# warp, row 3, runs the library's fmaf either way.)
. "$srcdir/t/lib.sh"
plan 6

# fma INSTR EXPECT0 EXPECT31 DESCRIPTION: one warp of 32 lanes runs INSTR
# (%f2 from %f0 = x, %f1 = y, %f3 = inf; %p0: lanes 0-15); out[l] is lane
# l's %f2 bits (5 where INSTR left %f2 unwritten: 0)
fma() {
	cat > "$T/k.gpu" <<SPEC
machine baseline
set sms = 1
set ctas = 1
set warps_per_cta = 1
set threads_per_warp = 32
global .f32 x = 0f3F800800
global .f32 y = 0fBF801000
global .f32 inf = 0f7F800000
global .u32 out[32] = fill(5)
kernel
    .reg .u32 %r<2>
    .reg .f32 %f<4>
    .reg .pred %p<1>
    shl.b32            %r0, %tid, 2
    ld.global.f32      %f0, [x]
    ld.global.f32      %f1, [y]
    ld.global.f32      %f3, [inf]
    setp.lt.u32        %p0, %tid, 16
    $1
    mov.b32            %r1, %f2
    st.global.u32      [out + %r0], %r1
    exit
end
check forall out[0] == $2 /\\ out[31] == $3
SPEC
	run "$GPUMC" check -q "$T/k.gpu"
	is "$rc" 0 "check: $4"
}
fma "fma.rn.f32 %f2, %f0, %f0, %f1" 0x33800000 0x33800000 "a whole warp, b a register: one rounding"
fma "fma.rn.f32 %f2, %f0, 0f3F800800, %f1" 0x33800000 0x33800000 "a whole warp, b an immediate: one rounding"
fma "@%p0 fma.rn.f32 %f2, %f0, %f0, %f1" 0x33800000 0 "half a warp: one rounding in its lanes"
fma "mad.f32 %f2, %f0, %f0, %f1" 0x33800000 0x33800000 "mad.f32 is fused too"
fma "fma.rn.f32 %f0, %f0, %f0, %f1
    mov.f32 %f2, %f0" 0x33800000 0x33800000 "the destination one of the sources"
fma "fma.rn.f32 %f2, %f3, 0f00000000, %f1" 0x7fffffff 0x7fffffff "inf * 0 + y: the canonical NaN"
