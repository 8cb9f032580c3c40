#!/bin/sh
# Differential campaign for concrete-mode speed changes (not in the suite:
# it needs an older binary): every report of `gpumc run --json --runs 3`
# (less the wall-clock figures, as bench/concrete.sh strips them), its
# standard error and exit code must be byte-identical between
# $GPUMC_BEFORE and $GPUMC, and again with $GPUMC under GPUMC_CHECK_READY=1
# (which must never report an internal error); `gpumc check` verdicts and
# state counts must not move either (warp.c, alu.c, memory.c, scheduler.c
# and dab*.c run in both modes).  Rows: every bundled spec (specs/**,
# t/good) under t/sound-lib.sh's configurations plus more (every DAB rule
# with warp and scheduler buffers, CTA batches, long latencies and jitter,
# large sizes) and random ones drawn from `gpumc list`'s parameter table;
# the baseline specs on the other machines; the bench kernels at small and
# medium sizes; random kernels (t/sound-lib.sh's, t/uniform.sh's, flag
# spins between warps, and warps faulting in CTA batches) under random
# configurations.  Prints one line
# per row that differs (its files kept under $DIFF_OUT), one per row whose
# checked run fails in $GPUMC_BEFORE too (OLD: a bug of both), and a summary.
#   GPUMC_BEFORE=old/gpumc [GPUMC=build/gpumc] [SEEDS="1 77"] [NK=120]
#   [RC=3] [DIFF_SKIP="specs machines bench kernels check"] [SHARD=i/n]
#   sh bench/concrete-diff.sh
# ROWS=file: only the rows in the file (SPEC|OPTIONS a line; the kernels'
# specs are regenerated under $DIFF_OUT/k).  LIST=1: print the rows only.
cd "$(dirname "$0")/.." || exit 2
GPUMC=${GPUMC:-./build/gpumc}
BEFORE=${GPUMC_BEFORE:?set GPUMC_BEFORE to the older gpumc}
SEEDS=${SEEDS:-"1 77"}
NK=${NK:-120}
RC=${RC:-3}
MAXC=${MAXC:-300000}
CHECK_STATES=${CHECK_STATES:-40000}
DIFF_OUT=${DIFF_OUT:-bench/out/diff}
srcdir=.
. t/lib.sh
. t/sound-lib.sh
mkdir -p "$DIFF_OUT/k" "$DIFF_OUT/bad"
skip() { case " $DIFF_SKIP " in *" $1 "*) return 0 ;; esac; return 1; }
machine_of() { sed -n 's/^machine[[:space:]]*\([a-z]*\).*/\1/p' "$1" | head -1; }
strip() { sed 's/"seconds":[0-9.e+-]*,//; s/"warp_instructions_per_second":[0-9.e+-]*,//' "$1"; }
# a check report less its timing and storage figures
cstrip() {
	sed 's/"seconds":[0-9.e+-]*,\{0,1\}//; s/"states_per_second":[0-9.e+-]*,//; s/"search_seconds":[0-9.e+-]*,\{0,1\}//
	     s/"bytes_per_state":[0-9.e+-]*,//; s/"memory_bytes":[0-9.e+-]*,//' "$1"
}

# diff_configs MACHINE: t/sound-lib.sh's configurations and more
diff_configs() {
	sound_configs "$1"
	echo '-D lat_global=3000 -D lat_icnt=2000 -D global_jitter=5000 -D icnt_jitter=3000 -D lat_alu=50 -D lat_shared=300'
	echo '-D sms=3 -D schedulers=4 -D partitions=3 -D ctas=7 -D warps_per_cta=3'
	echo '-D lat_alu=1 -D lat_shared=1 -D lat_bar=1 -D lat_global=2 -D global_jitter=3 -D lat_icnt=1 -D icnt_jitter=2'
	case $1 in
	baseline|lab|dab)
		echo '-D ctas=5 -D cta_slots=1'
		echo '-D ctas=6 -D cta_slots=2 -D sms=2 -D warp_slots=3 -D warps_per_cta=2' ;;
	esac
	case $1 in
	baseline|lab|persist)
		echo '-D icnt_order=any -D scheduler=any -D sms=2 -D schedulers=2' ;;
	esac
	case $1 in
	dab)
		for s in gto srr gtrr gtar gwat gtrr-bar gtar-bar gwat-bar; do
			echo "-D scheduler=$s -D buffer=warp -D entries=1"
			echo "-D scheduler=$s -D buffer=scheduler -D entries=2 -D schedulers=2 -D warps_per_cta=3"
			echo "-D scheduler=$s -D entries=8 -D ctas=4 -D cta_slots=1 -D lat_flush=500 -D sms=2"
		done
		echo '-D flush=nr -D buffer=warp -D offset_flush=2 -D sms=2 -D ctas=4 -D entries=3'
		echo '-D flush=nr-cif -D fusion=off -D partitions=4 -D line_bytes=4 -D icnt_eject=0'
		echo '-D flush=nr-of -D icnt_bw=4 -D icnt_eject=3 -D lat_rop=20 -D ctas=3 -D sms=3' ;;
	esac
}

# rand_configs MACHINE N SEED: N random configurations of MACHINE's
# parameters (`gpumc list`), sizes and latencies kept small enough to run
rand_configs() {
	[ -s "$T/list.$1" ] || "$GPUMC" list 2>/dev/null | awk -v m="$1" '
		/^machine / { on = ($2 == m); next }
		on && /^    [a-z_]+ +[^ ]+ +[^ ]+/ { print $1, $2, $3 }' > "$T/list.$1"
	awk -v n="$2" -v seed="$3" '
	function r(k) { return int(rand() * k) }
	function cap(k) {
		if (k ~ /^(sms|partitions|schedulers)$/) return 4
		if (k ~ /^(ctas)$/) return 8
		if (k ~ /^(warps_per_cta)$/) return 4
		if (k ~ /^(threads_per_warp|entries|icnt_queue|sbuf_entries|offset_flush)$/) return 12
		if (k ~ /^(cta_slots|slots|scope|crashes|icnt_bw|icnt_eject|lab_ways)$/) return 4
		if (k ~ /^(warp_slots)$/) return 8
		if (k ~ /^(stack_depth)$/) return 12
		if (k ~ /^(quantum)$/) return 300
		return 3000
	}
	function val(k, d, dom,   a, lo, hi, c, v, t) {
		if (dom ~ /\|/) { c = split(dom, a, "|"); return a[r(c) + 1] }
		split(dom, a, "\\.\\."); lo = a[1] + 0
		if (a[2] == "inf") return r(3) ? r(12) : "inf"
		hi = a[2] + 0; c = cap(k); if (hi > c) hi = c
		if (k == "line_bytes") { split("4 8 32 256", a, " "); return a[r(4) + 1] }
		if (k == "lab_line") { split("4 8 32 128", a, " "); return a[r(4) + 1] }
		t = r(5)
		if (t == 0) v = lo
		else if (t == 1) v = lo + 1
		else if (t == 2) v = d + 0
		else v = lo + r(hi - lo + 1)
		if (v > hi) v = hi
		if (v < lo) v = lo
		return v
	}
	{ key[NR] = $1; def[NR] = $2; dom[NR] = $3 }
	END {
		srand(seed)
		for (i = 0; i < n; i++) {
			s = ""; m = 2 + r(5)
			for (j = 0; j < m; j++) {
				x = 1 + r(NR)
				if (key[x] ~ /^(memory|lab_mutant|persistency)$/ && r(3)) continue
				s = s " -D " key[x] "=" val(key[x], def[x], dom[x])
			}
			print substr(s, 2)
		}
	}' "$T/list.$1"
}

# spin_kernel SEED: warps that wait on flags other warps set (volatile
# loads, fences), atomics between, some warps leaving early: wake-ups
# across warps, schedulers and SMs (a spin that never ends stops at
# MAXC cycles, the same in both binaries)
spin_kernel() {
	awk -v seed="$1" '
	function r(n) { return int(rand() * n) }
	function pick(s,   a, k) { k = split(s, a, " "); return a[r(k) + 1] }
	function emit(s) { body = body "    " s "\n" }
	function work(n,   i, k) {
		for (i = 0; i < n; i++) {
			k = rand()
			if (k < 0.3) emit("atom.global." pick("add add exch max") ".u32 %r1, [hot + " 4 * r(2) "], " pick("1 %tid %warpid"))
			else if (k < 0.45) emit("red.global.add.u32 [hot], 1")
			else if (k < 0.6) emit(pick("membar.gl fence.sc.gpu membar.cta"))
			else if (k < 0.75) emit("add.u32 %r2, %r2, %r1")
			else if (k < 0.85) { emit("mul.lo.u32 %a, %gtid, 4"); emit("st.global.u32 [res + %a], %r2") }
			else emit("ld.global.u32 %r2, [hot]")
		}
	}
	BEGIN {
		srand(seed); body = ""
		emit("mov.u32 %r1, 0"); emit("mov.u32 %r2, 0")
		emit("mov.u32 %g, %gtid")
		emit("shr.u32 %w, %g, " pick("0 1"))
		work(r(3))
		# the first warp (or lane group) sets the flag; the others wait for it
		emit("setp.ne.u32 %p0, %w, 0")
		emit("@%p0 bra WAIT")
		work(1 + r(3))
		if (r(2)) emit("membar.gl")
		emit("st.volatile.global.u32 [flag], 1")
		emit("bra AFTER")
		body = body "WAIT:\n"
		emit("ld.volatile.global.u32 %r3, [flag]")
		emit("setp.eq.u32 %p1, %r3, 0")
		emit("@%p1 bra WAIT")
		body = body "AFTER:\n"
		work(1 + r(4))
		if (r(2)) emit("@%p0 exit")
		if (r(2)) emit("bar.sync 0")
		work(r(3))
		emit("mul.lo.u32 %a, %gtid, 4")
		emit("st.global.u32 [res + %a], %r2")
		emit("exit")
		printf "name \"s%s\"\nmachine %s\nset ctas = %d\nset warps_per_cta = %d\nset threads_per_warp = %d\nset stack_depth = 16\n",
		       seed, pick("baseline dab dab lab persist"), 1 + r(3), 1 + r(3), 1 + r(2)
		print "global .u32 hot[2] = { 0, 5 }\nglobal .u32 flag = 0\nglobal .u32 res[4096]\n"
		print "kernel\n    .reg .u32 %r<4>\n    .reg .u32 %a, %g, %w\n    .reg .pred %p<2>"
		printf "%send\n", body
	}'
}

# fault_kernel SEED: CTAs in batches (cta_slots) whose warps fault at
# random points (an out-of-bounds load of a read-only array, an atomic
# out of bounds, a division by zero) after a random count of ALU steps,
# others exiting early or waiting on long loads: a fault frees its CTA's
# slot and starts the next position's warps (t/fault-wake.sh)
fault_kernel() {
	awk -v seed="$1" '
	function r(n) { return int(rand() * n) }
	function pick(s,   a, k) { k = split(s, a, " "); return a[r(k) + 1] }
	function emit(s) { body = body "    " s "\n" }
	BEGIN {
		srand(seed); body = ""
		# p0: the whole CTA faults (ctaid % q == 1), p1: this warp delays
		emit("rem.u32 %h, %ctaid, " 2 + r(3))
		emit("setp.eq.u32 %p0, %h, 1")
		emit("rem.u32 %g, %warpid, 2")
		emit("setp.eq.u32 %p1, %g, " r(2))
		for (i = 0; i < 1 + r(4); i++) {
			emit("@%p1 add.u32 %r0, %r0, 1")
			if (r(2)) emit("add.u32 %r1, %r1, %warpid")
		}
		k = r(4)
		if (k == 0) emit("@%p0 ld.global.u32 %r1, [ro + 400]")
		else if (k == 1) emit("@%p0 " (r(2) ? "red.global.add.u32 [ro + 400], 1" : "atom.global.add.u32 %r1, [ro + 400], 1"))
		else if (k == 2) { emit("selp.u32 %d, 0, 1, %p0"); emit("div.u32 %r1, %r1, %d") }
		else emit("@%p0 ld.global.u32 %r1, [ro + %a4]")
		if (r(2)) emit("@%p1 exit")
		emit("mul.lo.u32 %a, %ctaid, 4")
		emit("rem.u32 %a, %a, 16")
		emit("ld.global.u32 %r2, [ro + %a]")
		if (r(2)) emit("red.global.add.u32 [sum], %r2")
		else emit("atom.global.add.u32 %r2, [sum], %r2")
		if (r(3) == 0) emit("bar.sync 0")
		emit("mul.lo.u32 %a, %gtid, 4")
		emit("st.global.u32 [res + %a], %r2")
		emit("exit")
		m = pick("dab dab dab baseline lab")
		printf "name \"f%s\"\nmachine %s\nset ctas = %d\nset cta_slots = %d\nset warps_per_cta = %d\nset schedulers = %d\nset threads_per_warp = %d\n",
		       seed, m, 3 + r(4), 1 + r(2), 1 + r(3), 1 + r(2), 1 + r(2)
		if (m == "dab") printf "set scheduler = %s\nset buffer = %s\n", pick("gto srr gtrr gtar gwat gtrr-bar gtar-bar gwat-bar"), pick("warp scheduler")
		else printf "set dispatch = %s\n", pick("static free")
		print "global .u32 ro[4] = { 1, 2, 3, 4 }\nglobal .u32 sum = 0\nglobal .u32 res[4096]\n"
		print "kernel\n    .reg .u32 %r<3>\n    .reg .u32 %a, %a4, %g, %h, %d\n    .reg .pred %p<2>"
		print "    mov.u32 %a4, 400"
		printf "%send\n", body
	}'
}

# t/uniform.sh's kernel generator, as it is there
eval "$(sed -n '/^kernel() {/,/^}/p' t/uniform.sh)"

# make_kernel NAME: the random kernel NAME (sK, uK or wK), arrays widened
# so that random sizes index inside them
make_kernel() {
	k=${1#?}
	case $1 in
	s*) sound_kernel "$k" ;;
	u*) kernel "$k" ;;
	w*) spin_kernel "$k" ;;
	f*) fault_kernel "$k" ;;
	esac | sed 's/^global \.u32 spread\[8\]/global .u32 spread[4096]/; s/^global \.u32 res\[8\]/global .u32 res[4096]/' > "$DIFF_OUT/k/$1.gpu"
}

gen_rows() {
	skip specs || for spec in specs/baseline/*.gpu specs/dab/*.gpu specs/lab/*.gpu specs/gpudet/*.gpu specs/persist/*.gpu t/good/*.gpu; do
		m=$(machine_of "$spec")
		diff_configs "$m" | sed "s|^|$spec\||"
		rand_configs "$m" "$RC" "$(cksum < "$spec" | cut -d' ' -f1)" | sed "s|^|$spec\||"
	done
	skip machines || for mach in dab lab gpudet persist; do
		for spec in specs/baseline/*.gpu t/good/*.gpu; do
			diff_configs "$mach" | sed -n '1p; 3p; 7p' | sed "s|^|$spec\|-D machine=$mach |"
			rand_configs "$mach" 1 "$(cksum < "$spec" | cut -d' ' -f1)" | sed "s|^|$spec\|-D machine=$mach |"
		done
	done
	skip bench || for spec in bench/specs/*.gpu; do
		m=$(machine_of "$spec")
		for size in '-D sms=1 -D ctas=1 -D warps_per_cta=1 -D threads_per_warp=1 -D schedulers=1 -D partitions=1' \
			'-D sms=2 -D ctas=2 -D warps_per_cta=2 -D threads_per_warp=2 -D schedulers=2 -D partitions=2'; do
			diff_configs "$m" | sed "s|^|$spec\|$size |"
		done
		echo "$spec|-D ctas=2"
		rand_configs "$m" "$RC" "$(cksum < "$spec" | cut -d' ' -f1)" | sed "s|^|$spec\|-D ctas=2 |"
		case $m in
		dab) for s in gto srr gtrr gtar gwat gtrr-bar gtar-bar gwat-bar; do
			for b in warp scheduler; do echo "$spec|-D ctas=3 -D scheduler=$s -D buffer=$b -D schedulers=2"; done
		     done
		     echo "$spec|-D ctas=4 -D machine=baseline" ;;
		esac
	done
	skip kernels || for k in $(seq 1 "$NK"); do
		for g in s u w f; do
			echo "$DIFF_OUT/k/$g$k.gpu|"
			# its machine is known only once made: the configs are drawn at run time
			echo "$DIFF_OUT/k/$g$k.gpu|@rand 2 $k"
		done
	done
}

rows=0 runs=0 bad=0 old=0 checks=0 cbad=0
# cmp_row SPEC OPTIONS...: the reports of both binaries for every seed
cmp_row() {
	spec=$1; shift
	rows=$((rows + 1))
	for s in $SEEDS; do
		thr=1
		[ $((rows % 11)) -ne 0 ] || thr=2
		"$BEFORE" run -q --threads 1 --json --max-cycles "$MAXC" --runs 3 --seed "$s" "$@" "$spec" > "$T/b" 2> "$T/be" < /dev/null
		brc=$?
		"$GPUMC" run -q --threads "$thr" --json --max-cycles "$MAXC" --runs 3 --seed "$s" "$@" "$spec" > "$T/a" 2> "$T/ae" < /dev/null
		arc=$?
		GPUMC_CHECK_READY=1 "$GPUMC" run -q --threads 1 --json --max-cycles "$MAXC" --runs 3 --seed "$s" "$@" "$spec" > "$T/r" 2> "$T/re" < /dev/null
		rrc=$?
		runs=$((runs + 3))
		strip "$T/b" > "$T/b.s"; strip "$T/a" > "$T/a.s"; strip "$T/r" > "$T/r.s"
		why=
		[ "$brc" = "$arc" ] || why="$why exit $brc/$arc;"
		[ "$brc" = "$rrc" ] || why="$why exit under CHECK_READY $brc/$rrc;"
		cmp -s "$T/b.s" "$T/a.s" || why="$why report;"
		cmp -s "$T/b.s" "$T/r.s" || why="$why report under CHECK_READY;"
		cmp -s "$T/be" "$T/ae" || why="$why stderr;"
		cmp -s "$T/be" "$T/re" || why="$why stderr under CHECK_READY;"
		if [ -n "$why" ] && [ "$arc" = "$brc" ] && cmp -s "$T/b.s" "$T/a.s" && cmp -s "$T/be" "$T/ae"; then
			# only the checked run differs: is the older binary's checked run so too?
			GPUMC_CHECK_READY=1 "$BEFORE" run -q --threads 1 --json --max-cycles "$MAXC" --runs 3 --seed "$s" "$@" "$spec" > "$T/c" 2> "$T/ce" < /dev/null
			if [ "$?" = "$rrc" ] && cmp -s "$T/ce" "$T/re"; then
				old=$((old + 1))
				echo "OLD:$why (GPUMC_BEFORE's checked run too) run --runs 3 --seed $s $* $spec: $(head -c 200 "$T/re" | tr "\n" " ")"
				why=
			fi
		fi
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			d=$DIFF_OUT/bad/$bad
			mkdir -p "$d"
			cp "$T/b" "$T/a" "$T/r" "$T/be" "$T/ae" "$T/re" "$d/"
			cp "$spec" "$d/spec.gpu"
			echo "run --seed $s $* $spec" > "$d/cmd"
			echo "DIFF:$why run --runs 3 --seed $s $* $spec (threads $thr; $d)"
		fi
	done
}
# cmp_check SPEC OPTIONS...: the exhaustive verdict and counts
cmp_check() {
	spec=$1; shift
	checks=$((checks + 1))
	timeout -s KILL 120 "$BEFORE" check --threads 1 --json -q --max-states "$CHECK_STATES" "$@" "$spec" > "$T/cb" 2>&1 < /dev/null
	cbrc=$?
	[ "$cbrc" -ne 137 ] || return
	timeout -s KILL 240 "$GPUMC" check --threads 1 --json -q --max-states "$CHECK_STATES" "$@" "$spec" > "$T/ca" 2>&1 < /dev/null
	carc=$?
	if [ "$cbrc" != "$carc" ] || [ "$(cstrip "$T/cb")" != "$(cstrip "$T/ca")" ]; then
		cbad=$((cbad + 1))
		d=$DIFF_OUT/bad/c$cbad
		mkdir -p "$d"; cp "$T/cb" "$T/ca" "$d/"; cp "$spec" "$d/spec.gpu"
		echo "CHECK DIFF: exit $cbrc/$carc check $* $spec ($d)"
	fi
}

if [ -n "$ROWS" ]; then cp "$ROWS" "$T/rows"; else gen_rows > "$T/rows"; fi
[ -z "$LIST" ] || { cat "$T/rows"; exit 0; }
i=0
SHARD=${SHARD:-0/1}
si=${SHARD%/*} sn=${SHARD#*/}
while IFS='|' read -r spec opts; do
	i=$((i + 1))
	[ $((i % sn)) -eq "$si" ] || continue
	case $spec in
	"$DIFF_OUT"/k/*) name=$(basename "$spec" .gpu); [ -f "$spec" ] || make_kernel "$name" ;;
	esac
	case $opts in
	@rand*)
		# shellcheck disable=SC2086
		set -- $opts
		rand_configs "$(machine_of "$spec")" "$2" "$3" > "$T/rc"
		while read -r cfg; do
			# shellcheck disable=SC2086
			cmp_row "$spec" $cfg
		done < "$T/rc"
		continue ;;
	esac
	# shellcheck disable=SC2086
	cmp_row "$spec" $opts
done < "$T/rows"
echo "run: $rows rows x $(echo "$SEEDS" | wc -w) seeds, $runs gpumc runs of 3 seeds each: $bad differ; $old fail the check in GPUMC_BEFORE too"
skip check || {
	i=0
	for spec in specs/baseline/*.gpu specs/dab/*.gpu specs/lab/*.gpu specs/gpudet/*.gpu specs/persist/*.gpu t/good/*.gpu; do
		i=$((i + 1))
		[ $((i % sn)) -eq "$si" ] || continue
		cmp_check "$spec"
		m=$(machine_of "$spec")
		cfg=$(diff_configs "$m" | sed -n "$((i % 9 + 2))p")
		# shellcheck disable=SC2086
		cmp_check "$spec" $cfg
	done
	skip kernels || for k in $(seq 1 "$NK"); do
		[ $((k % 3)) -eq 0 ] || continue
		for g in s u w f; do
			[ -f "$DIFF_OUT/k/$g$k.gpu" ] || make_kernel "$g$k"
			cmp_check "$DIFF_OUT/k/$g$k.gpu"
		done
	done
	echo "check: $checks rows: $cbad differ"
}
[ "$bad" -eq 0 ] && [ "$cbad" -eq 0 ]
