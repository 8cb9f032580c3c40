#!/bin/sh
# Smaller states (issue 13 item 2).  Read-only memory: a global variable
# that no instruction writes is kept out of the state vector (memory.c),
# decided per whole variable from the decoded kernel.
. "$srcdir/t/lib.sh"
plan 12
B="$srcdir/bench/specs"
vec() { "$GPUMC" check -q --json "$@" 2>/dev/null | grep -o '"state_vector_bytes":[0-9]*' | cut -d: -f2; }
states() { "$GPUMC" check -q --json "$@" 2>/dev/null | grep -o '"states":[0-9]*' | cut -d: -f2; }

# D2 reads vals[32] or vals[128] and never writes it: the same vector.
is "$(vec "$B/d2-input128.gpu")" "$(vec "$B/d2-scale.gpu")" "a read-only input array costs no vector bytes"
is "$(states --por=off "$B/d2-input128.gpu")" "$(states --por=off "$B/d2-scale.gpu")" \
	"the same states with a read-only 128-element input"

# Written variables stay: the kernel below reads in[] and writes out[]
# (a named store), so out's 64 words are in the vector and in's are not.
kern() { # kern STORE-ADDRESS: a kernel that copies in[gtid] to STORE-ADDRESS
	cat <<SPEC
machine baseline
set ctas = 1
set warps_per_cta = 2
set threads_per_warp = 1
global .u32 in[64] = { $(seq -s ", " 5 68) }
global .u32 out[64]
kernel
    .reg .u32 %r<3>
    shl.b32       %r0, %gtid, 2
    ld.global.u32 %r1, [in + %r0]
    mov.u32       %r2, out
    add.u32       %r2, %r2, %r0
    st.global.u32 $1, %r1
    exit
end
check deterministic
SPEC
}
kern "[out + %r0]" > "$T/named.gpu"
kern "[%r2]" > "$T/computed.gpu"
named=$(vec "$T/named.gpu") computed=$(vec "$T/computed.gpu")
ok "$([ -n "$named" ] && [ "$((computed - named))" -eq 256 ]; echo $?)" \
	"a store through a computed address keeps every global word (in[] too): $computed - $named = 256 bytes"
verdict "$T/named.gpu" pass
verdict "$T/computed.gpu" pass
run "$GPUMC" check -q --json "$T/named.gpu"
like "$T/out" '"out\[0\]":5,"out\[1\]":6,' "the values of read-only in[] reach out[]"
# a property may name a read-only word: read from the constant area
printf 'check forall in[1] == 6 && out[0] == 5\n' >> "$T/named.gpu"
verdict "$T/named.gpu" pass

# --check-model (contracts, invariants MEM-1/2 among them) on every state
verdict "$B/d2-input128.gpu" pass --check-model --por=off -D warps_per_cta=2

# traces and replay across a load of read-only memory: D2 without its
# reorder buffer is nondeterministic
run "$GPUMC" check -q --trace "$T/d2.trail" -D flush=nr "$B/d2-input128.gpu"
is "$rc" 1 "D2-input128 -D flush=nr: violated"
run "$GPUMC" replay "$T/d2.trail"
is "$rc" 1 "its trace replays to the violation"
like "$T/out" "result A: sum = " "replay shows result A"

# the state printer shows read-only variables with their values
like "$T/out" "vals = \\{ 100000000 \\(0x4cbebc20\\), 1 " "the state printed at the end shows the read-only input"
