#!/bin/sh
# program_divergent's soundness (WARP-5) on random kernels: registers from
# immediates, special registers (per lane and per warp), loads of read-only
# and written words at uniform and per-lane addresses, atomics, selp,
# guarded writes, predicated exits, nested branches and loops whose trip
# count may differ between lanes, shared memory and barriers.  With a deep
# enough stack, no division and addresses kept inside their arrays, no such
# kernel may fault: a branch judged uniform that splits a warp faults
# F_UNIFORM, a stack sized by too few divergent branches F_STACK.  Checked
# exhaustively with --check-model (WARP-5 among the invariants), and in
# concrete mode under GPUMC_CHECK_READY.
. "${srcdir:-.}/t/lib.sh"
plan 2
N=${GPUMC_UNIFORM_KERNELS:-60}

# kernel SEED: a random kernel (awk's rand, seeded)
kernel() {
	awk -v seed="$1" '
	function r(n) { return int(rand() * n) }
	function pick(s,   a, k) { k = split(s, a, " "); return a[r(k) + 1] }
	function src(   k) {
		k = rand()
		if (k < 0.3) return r(4)
		if (k < 0.35) return lanes ? pick("%tid %laneid %gtid") : r(4)
		if (k < 0.5) return pick("%ctaid %warpid %smid %ntid")
		return pick("%r0 %r1 %r2 %r3 %r4")
	}
	function guard(   k) {
		k = rand()
		if (k < 0.25) return "@" pick("%p0 %p1") " "
		if (k < 0.35) return "@!" pick("%p0 %p1") " "
		return ""
	}
	function addr() { emit("and.b32 %a, " src() ", 3"); emit("mul.lo.u32 %a, %a, 4") }
	function emit(s) { body = body "    " s "\n" }
	function dst() { last = pick("%r0 %r1 %r2 %r3 %r4"); return last }
	function pdst() { lastp = pick("%p0 %p1"); return lastp }
	function block(depth, n,   i, k, g, L, c) {
		for (i = 0; i < n; i++) {
			k = rand(); g = guard()
			if (k < 0.15) emit(g "mov.u32 " dst() ", " src())
			else if (k < 0.30) emit(g "add.u32 " dst() ", " src() ", " src())
			else if (k < 0.42) emit(g "setp." pick("eq lt ne") ".u32 " pdst() ", " (r(2) ? last : src()) ", " src())
			else if (k < 0.48) emit(g "selp.u32 " dst() ", " src() ", " src() ", " pick("%p0 %p1"))
			else if (k < 0.55) { addr(); emit(g "ld.global.u32 " dst() ", [" pick("ro ro wr") " + %a]") }
			else if (k < 0.58) emit(g "ld.global.u32 " dst() ", [ro + " 4 * r(4) "]")
			else if (k < 0.62) { addr(); emit(g "st.global.u32 [wr + %a], " src()) }
			else if (k < 0.65) emit(g "atom.global.add.u32 " dst() ", [ctr], 1")
			else if (k < 0.67 && depth > 0) emit("@" pick("%p0 %p1") " exit")
			else if (k < 0.82 && depth < 3) {
				L = "F" (++nl)
				if (r(2)) # on the value just computed
					emit("setp." pick("eq ne") ".u32 " pdst() ", " last ", " r(3))
				emit("@" (r(2) ? "!" : "") (r(2) ? lastp : pick("%p0 %p1")) " bra " L)
				block(depth + 1, 1 + r(4))
				body = body L ":\n"
			} else if (k < 0.92 && depth < 3) { # a loop of 1 or 2 trips, maybe per lane
				L = "L" (++nl); c = "%c" nl
				emit("mov.u32 " c ", 0")
				emit("and.b32 %b, " src() ", 1")
				body = body L ":\n"
				block(depth + 1, 1 + r(4))
				emit("add.u32 " c ", " c ", 1")
				emit("setp.le.u32 %q, " c ", %b")
				emit("@%q bra " L)
			} else if (k < 0.95) { addr(); emit(g "ld.shared.u32 " dst() ", [" pick("shro shw") " + %a]") }
			else if (k < 0.97) { addr(); emit(g "st.shared.u32 [shw + %a], " src()) }
			else if (k < 0.98 && depth == 0) emit("bar.sync 0")
			else emit(g "add.u32 " pick("%r0 %r1 %r2 %r3 %r4") ", " pick("%r0 %r1 %r2 %r3 %r4") ", 1")
		}
	}
	BEGIN {
		srand(seed)
		body = ""; nl = 0; last = "%r0"; lastp = "%p0"
		lanes = r(2) # else values vary between lanes only through memory and atomics
		emit("setp.lt.u32 %p0, " src() ", " 1 + r(2))
		emit("setp.lt.u32 %p1, " src() ", " 1 + r(2))
		block(0, 3 + r(8))
		emit("st.global.u32 [res], " pick("%r0 %r1 %r2 %r3 %r4"))
		emit("exit")
		printf "name \"u%s\"\nmachine %s\nset ctas = %d\nset warps_per_cta = %d\nset threads_per_warp = %d\nset stack_depth = 64\n",
		       seed, pick("baseline baseline dab lab gpudet"), 1 + r(2), 1 + r(2), 2 + r(2)
		print "global .u32 ro[4] = { 0, 1, 2, 3 }\nglobal .u32 wr[4]\nglobal .u32 ctr = 0\nglobal .u32 res = 0"
		print "shared .u32 shro[4]\nshared .u32 shw[4]\n\nkernel\n    .reg .u32 %r<5>\n    .reg .u32 %a, %b\n    .reg .pred %p<2>\n    .reg .pred %q"
		for (i = 1; i <= nl; i++)
			print "    .reg .u32 %c" i
		printf "%send\n\ncheck forall res >= 0\nexpect pass\n", body
	}'
}

bad=
badrun=
for s in $(seq 1 "$N"); do
	kernel "$s" >"$T/u$s.gpu"
	"$GPUMC" check --check-model --por=off --threads 1 --max-states 100000 "$T/u$s.gpu" >"$T/o" 2>&1
	grep -Eqi 'fault|internal|error|WARP-[0-9]' "$T/o" && { bad="$bad $s"; sed 's/^/#   /' "$T/o" | grep -Ei 'fault|internal|error|WARP-[0-9]' | head -3; }
	GPUMC_CHECK_READY=1 "$GPUMC" run --runs 2 "$T/u$s.gpu" >"$T/o" 2>&1
	grep -Eqi 'fault|internal|error' "$T/o" && { badrun="$badrun $s"; grep -Ei 'fault|internal|error' "$T/o" | sed 's/^/#   /' | head -3; }
done
is "$bad" "" "$N random kernels, check --check-model: no fault, no broken invariant"
is "$badrun" "" "$N random kernels, run under GPUMC_CHECK_READY: no fault, no internal error"
