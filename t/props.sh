#!/bin/sh
# Every property kind, both outcomes, and every exit code.
. "$srcdir/t/lib.sh"
plan 33
S="$SPECS/baseline"
# a two-warp racy kernel written here so each property can be set
mk() { # mk FILE PROPERTY-LINES...
	f=$1; shift
	{
		printf 'set warps_per_cta = 2\nset threads_per_warp = 1\nglobal .u32 x = 0\nglobal .u32 y = 0\n'
		printf 'kernel\n .reg .u32 %%r<2>\n ld.global.u32 %%r0, [x]\n add.u32 %%r0, %%r0, 1\n st.global.u32 [x], %%r0\n'
		printf ' atom.global.add.u32 %%r1, [y], 1\n exit\nend\n'
		for l in "$@"; do printf '%s\n' "$l"; done
	} > "$f"
}
# lost update: x ends 1 or 2; y always 2
mk "$T/a.gpu" "check exists x == 1"
run "$GPUMC" check -q "$T/a.gpu"; is "$rc" 0 "exists holds (lost update reachable): exit 0"
like "$T/out" "witness found" "exists reports its witness"
mk "$T/b.gpu" "check exists x == 3"
run "$GPUMC" check -q "$T/b.gpu"; is "$rc" 1 "exists fails when no final state satisfies: exit 1"
like "$T/out" "^verdict: fail exists" "verdict names exists"
mk "$T/c.gpu" "check ~exists x == 1"
run "$GPUMC" check -q "$T/c.gpu"; is "$rc" 1 "~exists violated: exit 1"
like "$T/out" "x = 1" "~exists counterexample ends with x = 1"
mk "$T/d.gpu" "check ~exists x == 0"
run "$GPUMC" check -q "$T/d.gpu"; is "$rc" 0 "~exists holds: exit 0"
mk "$T/e.gpu" "check forall y == 2"
run "$GPUMC" check -q "$T/e.gpu"; is "$rc" 0 "forall holds for the atomic counter"
mk "$T/f.gpu" "check forall x == 2"
run "$GPUMC" check -q "$T/f.gpu"; is "$rc" 1 "forall violated by the lost update"
like "$T/out" "^verdict: fail forall" "verdict names forall"
mk "$T/g.gpu" "check invariant y <= 2 /\\ x <= 2"
run "$GPUMC" check -q "$T/g.gpu"; is "$rc" 0 "invariant holds in every state"
mk "$T/h.gpu" "check invariant y < 2"
run "$GPUMC" check -q "$T/h.gpu"; is "$rc" 1 "invariant violated"
like "$T/out" "y = 2" "invariant counterexample shows y = 2"
mk "$T/i.gpu" "check deterministic y"
run "$GPUMC" check -q "$T/i.gpu"; is "$rc" 0 "deterministic y holds"
mk "$T/j.gpu" "check deterministic x"
run "$GPUMC" check -q "$T/j.gpu"; is "$rc" 1 "deterministic x violated"
like "$T/out" "diverge at step" "determinism report names the divergence step"
mk "$T/k.gpu" "check forall 0:%r1 + 1:%r1 == 1"
run "$GPUMC" check -q "$T/k.gpu"; is "$rc" 0 "thread registers in conditions (atomics return 0 and 1)"
mk "$T/l.gpu" "check deterministic"
run "$GPUMC" check -q "$T/l.gpu"; is "$rc" 1 "deterministic with no locations covers all global memory"
# deadlock and fault are always checked
run "$GPUMC" check -q "$S/barrier-divergence-deadlock.gpu"; is "$rc" 1 "deadlock: exit 1"
like "$T/out" "^VIOLATED: deadlock_free" "deadlock reported"
printf 'global .u32 a[2]\nkernel\n .reg .u32 %%r<1>\n mov.u32 %%r0, 8\n st.global.u32 [a + %%r0], 1\nend\n' > "$T/m.gpu"
run "$GPUMC" check -q "$T/m.gpu"; is "$rc" 1 "out-of-bounds store: exit 1"
like "$T/out" "FAULT.*out-of-bounds memory access" "fault is named with its instruction"
# bounds are per variable: running off one array into the next faults
printf 'global .u32 a[2]\nglobal .u32 b = 5\nkernel\n st.global.u32 [a + 8], 1\nend\n' > "$T/n.gpu"
run "$GPUMC" check -q "$T/n.gpu"; like "$T/out" "FAULT.*out-of-bounds" "store past the end of a into b faults"
# WARP_SZ is a special register
printf 'global .u32 x = 0\nset threads_per_warp = 3\nkernel\n .reg .u32 %%r<1>\n mov.u32 %%r0, WARP_SZ\n st.global.u32 [x], %%r0\nend\ncheck forall x == 3\n' > "$T/o.gpu"
run "$GPUMC" check -q "$T/o.gpu"; is "$rc" 0 "WARP_SZ reads threads_per_warp"
# --max-depth equal to the real depth is complete in both searches
d=$("$GPUMC" check -q --json "$S/divergent-branch.gpu" | grep -o '"depth":[0-9]*' | cut -d: -f2)
run "$GPUMC" check -q --dfs --max-depth "$d" "$S/divergent-branch.gpu"; is "$rc" 0 "DFS with --max-depth = depth ($d) is complete"
run "$GPUMC" check -q --bfs --max-depth "$d" "$S/divergent-branch.gpu"; is "$rc" 0 "BFS with --max-depth = depth ($d) is complete"
# limits give incomplete, exit 3
run "$GPUMC" check -q --max-states 10 "$S/barrier.gpu"; is "$rc" 3 "--max-states: exit 3"
like "$T/out" "^INCOMPLETE: --max-states" "incomplete names the limit"
run "$GPUMC" check -q --max-depth 3 "$S/barrier.gpu"; is "$rc" 3 "--max-depth: exit 3"
run "$GPUMC" check -q --max-depth 3 --dfs "$S/barrier.gpu"; is "$rc" 3 "--max-depth with DFS: exit 3"
# usage and input errors: exit 2
run "$GPUMC" check --no-such-option "$S/barrier.gpu"; is "$rc" 2 "unknown option: exit 2"
run "$GPUMC" check "$T/does-not-exist.gpu"; is "$rc" 2 "missing file: exit 2"
# several specs: the worst code wins (violation over pass)
run "$GPUMC" check -q "$S/int-reduction.gpu" "$S/fp32-reduction.gpu"; is "$rc" 1 "pass + violation: exit 1"
