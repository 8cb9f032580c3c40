# The concrete-mode soundness oracle, sourced by t/concrete-sound.sh and
# bench/concrete-sound.sh (after t/lib.sh): every result a `gpumc run`
# reaches must be one the machine can reach.
#
# sound SPEC RUNS SEED OPTIONS...: SPEC without its check and expect lines
# (so both modes observe all of global memory and the only violations are
# deadlocks and faults) is checked exhaustively with --outcomes, then run
# RUNS times from SEED.  Every distinct result of a finished run must be
# a terminal outcome of the check (and no run may crash or report an
# internal error, as GPUMC_CHECK_READY's checks do); a run that ended in a deadlock or fault
# (then each seed is run alone to find it) must have its kind among the
# checker's violations.  A run stopped by SOUND_MAX_CYCLES (a spin that
# never ends) proves nothing and is left out.  Sets sound_why: empty when
# sound, "incomplete" when the check hit SOUND_MAX_STATES (the row proves
# nothing), "norun" when the machine has no concrete mode, "rejected" when
# the spec does not take the options, else what is wrong.
SOUND_MAX_STATES=${SOUND_MAX_STATES:-1000000}
SOUND_MAX_CYCLES=${SOUND_MAX_CYCLES:-1000000}
sound() {
	sspec=$1; sruns=$2; sseed=$3; shift 3
	sound_why=
	# a data file the spec names is read beside it
	[ "$(dirname "$sspec")" = "$T" ] ||
		for d in "$(dirname "$sspec")"/*.dat; do [ -f "$d" ] && cp "$d" "$T/"; done
	sed '/^[[:space:]]*check[[:space:]]/d; /^[[:space:]]*expect[[:space:]]/d' "$sspec" > "$T/sound.gpu"
	# SOUND_WRAP (e.g. timeout -s KILL 60): a check it kills counts as too large
	$SOUND_WRAP "$GPUMC" check --outcomes --json --max-states "$SOUND_MAX_STATES" "$@" "$T/sound.gpu" > "$T/sound.c" 2>"$T/sound.e" </dev/null
	[ $? -ne 137 ] || { sound_why=incomplete; return; }
	case $(grep -o '"verdict":"[^"]*"' "$T/sound.c" | head -1 | cut -d'"' -f4) in
	incomplete*) sound_why=incomplete; return ;;
	pass|fail*) ;;
	*) if grep -q 'error:' "$T/sound.e"; then sound_why=rejected; else
		sound_why="check failed: $(head -c 300 "$T/sound.e")"; fi; return ;;
	esac
	# the checker's violation: deadlock_free, or the fault's kind
	sbad=$(grep -o '"failed":{"kind":"[^"]*"' "$T/sound.c" | head -1 | cut -d'"' -f6)
	sed 's/.*"outcomes":\[//' "$T/sound.c" | grep -o '"values":{[^}]*}' | LC_ALL=C sort -u > "$T/sound.o"
	# no global memory: no outcome is listed, but a terminal state counts
	[ "$(jnum terminal_states "$T/sound.c")" = 0 ] || echo '"values":{}' >> "$T/sound.o"
	"$GPUMC" run --json --max-cycles "$SOUND_MAX_CYCLES" --runs "$sruns" --seed "$sseed" "$@" "$T/sound.gpu" > "$T/sound.r" 2>"$T/sound.e" </dev/null
	src=$?
	if [ "$src" -ge 128 ] || grep -q 'internal error' "$T/sound.e"; then
		sound_why="run exit $src: $(head -c 300 "$T/sound.e")"; return
	fi
	grep -q '"results":' "$T/sound.r" || { sound_why=norun; return; }
	if [ "$src" -eq 0 ]; then
		sed 's/.*"results":\[//' "$T/sound.r" | grep -o '"values":{[^}]*}' | LC_ALL=C sort -u > "$T/sound.v"
	else
		# some run deadlocked, faulted or hit a limit: each seed alone
		: > "$T/sound.v"
		s=$sseed
		while [ "$s" -lt $((sseed + sruns)) ]; do
			"$GPUMC" run --json --max-cycles "$SOUND_MAX_CYCLES" --seed "$s" "$@" "$T/sound.gpu" > "$T/sound.1" 2>/dev/null </dev/null
			send=$(grep -o '"end":"[^"]*"' "$T/sound.1" | head -1 | cut -d'"' -f4)
			case $send in
			finished) sed 's/.*"results":\[//' "$T/sound.1" | grep -o '"values":{[^}]*}' >> "$T/sound.v" ;;
			DEADLOCK) [ "$sbad" = deadlock_free ] ||
				sound_why="$sound_why seed $s deadlocks, the checker finds ${sbad:-no violation};" ;;
			FAULT) [ -n "$sbad" ] && [ "$sbad" != deadlock_free ] ||
				sound_why="$sound_why seed $s faults, the checker finds ${sbad:-no violation};" ;;
			"cycle limit reached") ;;
			*) sound_why="$sound_why seed $s ends '$send';" ;;
			esac
			s=$((s + 1))
		done
		LC_ALL=C sort -u -o "$T/sound.v" "$T/sound.v"
	fi
	LC_ALL=C sort -u -o "$T/sound.o" "$T/sound.o"
	sextra=$(LC_ALL=C comm -23 "$T/sound.v" "$T/sound.o" | head -2 | tr '\n' ' ')
	[ -z "$sextra" ] || sound_why="$sound_why unreachable result: $sextra"
}

# sound_configs MACHINE: the -D options to try on a spec of MACHINE, one
# configuration a line (the first: the spec as written).  Timing moves
# which path a run takes; the rest change the machine itself.
sound_configs() {
	echo
	echo '-D lat_alu=1 -D lat_global=1 -D global_jitter=0 -D lat_icnt=1 -D icnt_jitter=0'
	echo '-D global_jitter=1000 -D icnt_jitter=700 -D lat_rop=30'
	echo '-D schedulers=2 -D lat_shared=1'
	echo '-D sms=2 -D partitions=2 -D line_bytes=4'
	case $1 in
	baseline|lab|persist)
		echo '-D scheduler=any'
		echo '-D icnt_order=any -D icnt_queue=2'
		echo '-D coalesce=off -D icnt_bw=2 -D icnt_eject=0'
		# two schedulers' warps contend for room in one FIFO
		echo '-D schedulers=2 -D threads_per_warp=1 -D icnt_queue=1' ;;
	esac
	case $1 in
	baseline|lab)
		echo '-D cta_slots=1 -D dispatch=free'
		echo '-D sms=2 -D warp_slots=1 -D dispatch=static' ;;
	esac
	case $1 in
	dab)
		for s in gto srr gtrr gtar gwat-bar gtrr-bar gtar-bar; do echo "-D scheduler=$s"; done
		echo '-D buffer=warp -D entries=1'
		echo '-D entries=2 -D fusion=off -D coalesce=off'
		echo '-D flush=nr -D lat_flush=0'
		echo '-D flush=nr-of -D offset_flush=1 -D sms=2'
		echo '-D flush=nr-cif -D schedulers=2'
		echo '-D schedulers=2 -D entries=1 -D threads_per_warp=1'
		echo '-D cta_slots=1 -D dispatch=free' ;;
	lab)
		echo '-D lab_size=0'
		echo '-D lab_size=1 -D lab_ways=1 -D lab_line=4' ;;
	gpudet)
		echo '-D quantum=1'
		echo '-D quantum=3 -D bta=on'
		echo '-D quanta=thread'
		echo '-D serial=wser'
		echo '-D serial=arrival -D ztest=off'
		echo '-D slots=1 -D distribution=dwp'
		echo '-D slots=1 -D distribution=free -D sms=2'
		echo '-D ztest=lt -D sbuf_entries=2'
		echo '-D commit=lock -D lat_z=0 -D lat_gbar=5' ;;
	persist)
		echo '-D wpq=durable -D l2_kb=1'
		echo '-D lat_nvm_write=1 -D mc_bw=1 -D l2wb_scan=all'
		echo '-D persistency=strict-clwb'
		echo '-D persistency=epoch-cta -D epoch_op=clwb' ;;
	esac
}

# sound_kernel SEED: a random kernel for the oracle (as t/uniform.sh's); atomics to a few words (colliding) or one a
# lane (scattered), divergent branches and loops, barriers, fences, volatile
# loads and stores; no spin that waits for another warp (it may never end)
sound_kernel() {
	awk -v seed="$1" '
	function r(n) { return int(rand() * n) }
	function pick(s,   a, k) { k = split(s, a, " "); return a[r(k) + 1] }
	function src() { return rand() < 0.4 ? r(5) : pick("%tid %ctaid %warpid %r0 %r1 %r2 %gtid") }
	function emit(s) { body = body "    " s "\n" }
	function addr(n) { emit("rem.u32 %a, " src() ", " n); emit("mul.lo.u32 %a, %a, 4") }
	function block(depth, n,   i, k, L, c) {
		for (i = 0; i < n; i++) {
			k = rand()
			if (k < 0.12) emit("add.u32 " pick("%r0 %r1 %r2") ", " src() ", " src())
			else if (k < 0.20) emit("setp." pick("eq lt ne") ".u32 %p0, " src() ", " src())
			else if (k < 0.32) { addr(2); emit("atom.global." pick("add add exch max min") ".u32 " pick("%r0 %r1 %r2") ", [hot + %a], " src()) }
			else if (k < 0.40) { emit("mul.lo.u32 %a, %gtid, 4"); emit("red.global.add.u32 [spread + %a], " src()) }
			else if (k < 0.45) emit("red.comm.global.add.u32 [hot], " src())
			else if (k < 0.53) { addr(4); emit("st.global" pick(" .volatile") ".u32 [w + %a], " src()) }
			else if (k < 0.60) { addr(4); emit("ld.global" pick(" .volatile") ".u32 " pick("%r0 %r1 %r2") ", [" pick("w hot") " + %a]") }
			else if (k < 0.64) emit(pick("membar.gl membar.cta fence.sc.gpu fence.acq_rel.gpu"))
			else if (k < 0.68 && depth == 0) emit("bar.sync 0")
			else if (k < 0.72) { addr(2); emit("st.shared.u32 [sh + %a], " src()) }
			else if (k < 0.76) { addr(2); emit("ld.shared.u32 " pick("%r0 %r1 %r2") ", [sh + %a]") }
			else if (k < 0.88 && depth < 2) {
				L = "F" (++nl)
				emit("setp." pick("eq ne lt") ".u32 %p1, " pick("%tid %r0 %r1 %warpid") ", " r(3))
				emit("@" pick("%p1 !%p1") " bra " L)
				block(depth + 1, 1 + r(4))
				body = body L ":\n"
			} else if (k < 0.96 && depth < 2) {
				L = "L" (++nl); c = "%c" nl
				emit("mov.u32 " c ", 0")
				emit("and.b32 %b, " pick("%tid %r0 %ctaid") ", 1")
				body = body L ":\n"
				block(depth + 1, 1 + r(3))
				emit("add.u32 " c ", " c ", 1")
				emit("setp.le.u32 %q, " c ", %b")
				emit("@%q bra " L)
			} else emit("@%p0 exit")
		}
	}
	BEGIN {
		srand(seed)
		nl = 0; body = ""
		emit("mov.u32 %r0, %tid"); emit("mov.u32 %r1, 1"); emit("mov.u32 %r2, 2")
		emit("setp.eq.u32 %p0, %tid, 7")
		block(0, 3 + r(7))
		emit("mul.lo.u32 %a, %gtid, 4")
		emit("st.global.u32 [res + %a], %r0")
		emit("exit")
		m = pick("baseline baseline dab dab lab gpudet persist")
		printf "name \"k%s\"\nmachine %s\nset ctas = %d\nset warps_per_cta = %d\nset threads_per_warp = %d\nset stack_depth = 32\n",
		       seed, m, 1 + r(2), 1 + r(2), 1 + r(2)
		print "global .u32 hot[2] = { 0, 5 }\nglobal .u32 spread[8]\nglobal .u32 w[4]\nglobal .u32 res[8]\nshared .u32 sh[2]\n"
		print "kernel\n    .reg .u32 %r<3>\n    .reg .u32 %a, %b\n    .reg .pred %p<2>\n    .reg .pred %q"
		for (i = 1; i <= nl; i++)
			print "    .reg .u32 %c" i
		printf "%send\n", body
	}'
}
