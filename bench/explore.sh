#!/bin/bash
# bench/explore.sh -- exhaustive exploration, fair and repeatable (issue 13
# item 7): gpumc side by side with SPIN on the Promela twins, a scale
# table, and the issue's done-when figures, each beside its target.
#
# 1. Twins (bench/specs/{lane-reduction,ticket-counter}.gpu and
#    bench/promela/*.pml, whose state graphs match gpumc's without
#    reduction, so both store the same states).  Per size, REPEAT paired
#    rounds (default 5); each round runs, back to back so all see the same
#    load: gpumc exact --por=off | pan -DNOREDUCE | gpumc --compact
#    --por=off | pan -DNOREDUCE -DHC4 | pan -DNOREDUCE -DCOLLAPSE | gpumc
#    with its defaults (POR on) | pan with its defaults (POR on).  The raw
#    rate runs gpumc on one core (--threads 1), as pan runs: its default,
#    every core, would add the multi-core search's own work (section 3
#    measures that) to the CPU compared with pan's.  Every
#    figure is a median: of CPU seconds (user + system of the whole
#    process: gpumc's parse and progress check included; pan's compile
#    not), of wall seconds, and of the paired ratios (SPIN CPU / gpumc CPU
#    of the same round).  Three tables: raw rate on identical graphs
#    (exact vs -DNOREDUCE, compact vs -DHC4), memory (B/state: gpumc's
#    storage, pan's "total actual memory usage"; exact, flat and --tree
#    (tree compression: one run a size, --threads 1), beside -DCOLLAPSE,
#    compact beside -DHC4; peak RSS), and time to verdict (both with their
#    reductions).
# 2. Scale table: D2 (machine dab) and the baseline's int-reduction at
#    growing warps, generated into a temp dir from the bundled specs with
#    the input array sized to the grid: states, CPU seconds, B/state, peak RSS
#    and verdict with POR (the default) and with --por=off, each stopped
#    at SCALE_TIMEOUT wall seconds (an incomplete run's states are a lower
#    bound).
#    A gnuplot PNG of states vs warps goes to $OUT/explore-states.png.
# 3. The done-when figures of issue 13, each with its target and whether
#    it is met: time to verdict vs SPIN's defaults (both twins), raw
#    states/s vs -DNOREDUCE, the 2-thread speed-up (paired runs; wall and
#    CPU), B/state exact (--tree, the exact store made for memory) and compact, D2 at 16 warps with POR, MPI at 4
#    ranks (bench/mpi.sh when there is one), concrete mode
#    (bench/concrete.sh).
#
# The machine may be shared: CPU time is the fair measure there; wall
# times and the thread speed-up need an idle machine (the load average is
# printed before and after).
#
# usage: bench/explore.sh [--quick] [--repeat N] [--no-spin]
#   --quick      (or QUICK=1) smaller sizes and fewer rows: a few minutes
#   --repeat N   (or REPEAT=N) paired rounds per measurement (default 5)
#   --no-spin    gpumc only
# environment: GPUMC (gpumc binary, default ./build/gpumc), SPIN, CC
#   (compiler for pan.c, default gcc), PAN_CFLAGS (default -O2),
#   SPIN_TIMEOUT (seconds per pan run, default 300), SCALE_TIMEOUT (seconds
#   per scale run, default 60; 5 with --quick), OUT (where the
#   PNG and the data go, default bench/out), LANE_SIZES and TICKET_SIZES
#   (the twins' sizes, ';' between them, e.g. "4 1 3 2 0;5 1 2 2 0": at
#   the default sizes SPIN's reduced runs take 0.1-0.5 s), TWINS_ONLY=1
#   (the twins' tables and their done-when figures only)
# Needs /usr/bin/time (CPU, wall, peak RSS); gnuplot for the PNG.

set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
GPUMC=${GPUMC:-$root/build/gpumc}
SPIN=${SPIN:-spin}
CC=${CC:-gcc}
PAN_CFLAGS=${PAN_CFLAGS:--O2}
SPIN_TIMEOUT=${SPIN_TIMEOUT:-300}
OUT=${OUT:-$root/bench/out}
QUICK=${QUICK:-0}
REPEAT=${REPEAT:-5}
use_spin=1
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--repeat) REPEAT=${2:-}; shift ;;
	--repeat=*) REPEAT=${1#--repeat=} ;;
	--no-spin) use_spin=0 ;;
	-h|--help) sed -n '2,/^$/{s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "explore.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
case $REPEAT in ''|*[!0-9]*|0) echo "explore.sh: --repeat needs a positive number" >&2; exit 2 ;; esac
SCALE_TIMEOUT=${SCALE_TIMEOUT:-$([ "$QUICK" = 1 ] && echo 5 || echo 60)}

[ -x "$GPUMC" ] || { echo "explore.sh: no gpumc binary at $GPUMC (build it, or set GPUMC=...)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "explore.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpumc-bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# a private copy, so a rebuild during the run cannot mix two binaries
gpumc_src=$GPUMC
cp "$GPUMC" "$tmp/gpumc" && GPUMC=$tmp/gpumc

spin_ok=0 spin_why="--no-spin given"
if [ $use_spin = 1 ]; then
	if ! command -v "$SPIN" >/dev/null 2>&1; then
		spin_why="spin is not installed (apt-get install spin)"
	elif ! command -v "$CC" >/dev/null 2>&1; then
		spin_why="no C compiler ($CC) for pan.c"
	else
		spin_ok=1
	fi
fi

# {=== Measuring ==========================================================

# timed OUTFILE CMD...: run CMD, stdout to OUTFILE; sets cpu (user +
# system s), wall (s), rss (KiB), rc
timed() {
	local out=$1
	shift
	/usr/bin/time -f '%U %S %e %M' -o "$tmp/time" "$@" > "$out" 2> "$tmp/err"
	rc=$?
	read -r u s wall rss < <(tail -n 1 "$tmp/time")
	cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f\n", u + s }')
}

# jget FILE KEY: a scalar from gpumc's one-line JSON
jget() { grep -o "\"$2\":\"\{0,1\}[^,}\"]*" "$1" | head -n 1 | sed 's/^[^:]*:"\{0,1\}//'; }
# median of the numbers on stdin ("-" when none)
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2];
		else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# div A B [FORMAT]: A / B, or - ; CPU times of 0.00 count as 0.005 (the
# clock's grain is 0.01 s)
div() {
	awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-") { print "-"; exit }
		if (b + 0 == 0) b = 0.005; printf f "\n", a / b }'
}
hnum() { # 1234567 -> 1.23M
	awk -v x="$1" 'BEGIN { if (x == "" || x == "-") { print "-"; exit }
		if (x >= 1e9) printf "%.2fG\n", x / 1e9; else if (x >= 1e6) printf "%.2fM\n", x / 1e6;
		else if (x >= 1e4) printf "%.1fK\n", x / 1e3; else printf "%d\n", x }'
}
mib() { awk -v x="$1" 'BEGIN { if (x == "" || x == "-") print "-"; else printf "%.0f\n", x / 1024 }'; }
# met VALUE OP TARGET: "met" or "NOT met"
met() {
	awk -v v="$1" -v t="$3" -v op="$2" 'BEGIN { if (v == "" || v == "-") { print "not measured"; exit }
		ok = op == ">=" ? v + 0 >= t + 0 : v + 0 <= t + 0; print ok ? "met" : "NOT met" }'
}
# in Summary: one done-when figure
summary=()
figure() { # figure TEXT VALUE OP TARGET [NOTE]
	summary+=("$(printf '%-52s %10s  target %s %-6s  %-12s %s' "$1" "$2" "$3" "$4" "$(met "$2" "$3" "$4")" "${5:-}")")
}
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'; }

# }===

# {=== 1. Twins ===========================================================

# pan_build DIR PML SPIN_DEFINES -- CC_DEFINES: spin -a and the compile
pan_build() {
	local d=$1 pml=$2
	shift 2
	local sdefs=()
	while [ "$1" != -- ]; do sdefs+=("-D$1"); shift; done
	shift
	mkdir -p "$d"
	(cd "$d" && "$SPIN" -o3 "${sdefs[@]}" -a "$pml" > spin.out 2>&1 &&
		"$CC" $PAN_CFLAGS -DSAFETY -DNOCLAIM "$@" -o pan pan.c > cc.out 2>&1)
}

# pan_run DIR W: one run of DIR/pan with -w W; sets cpu wall rss and
# p_states p_bps p_err (errors)
pan_run() {
	local to=()
	command -v timeout >/dev/null 2>&1 && to=(timeout "$SPIN_TIMEOUT")
	timed "$1/pan.out" "${to[@]}" "$1/pan" -m100000 -w"$2"
	p_states=$(awk '/states, stored/ { print $1; exit }' "$1/pan.out")
	p_err=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$1/pan.out")
	p_bps=$(awk -v n="${p_states:-0}" '/total actual memory usage/ { if (n > 0) printf "%.0f\n", $1 * 1048576 / n }' \
		"$1/pan.out")
	[ -n "$p_states" ] || p_states="failed(rc $rc)"
}

# gpumc_twin JSON OPTIONS...: one gpumc run; sets cpu wall rss g_states g_bps g_verdict
gpumc_one() {
	local j=$1
	shift
	timed "$j" "$GPUMC" check --json -q "$@"
	g_states=$(jget "$j" states)
	g_bps=$(jget "$j" bytes_per_state)
	g_verdict=$(jget "$j" verdict)
	[ -n "$g_verdict" ] || g_verdict="error($rc)"
}

# keep V STATES BPS: the last run's figures as V_cpu, V_rss, V_states,
# V_bps; its CPU and wall seconds appended to V's lists for the medians
keep() {
	printf -v "$1_cpu" %s "$cpu"
	printf -v "$1_rss" %s "$rss"
	printf -v "$1_states" %s "$2"
	printf -v "$1_bps" %s "$3"
	echo "$cpu" >> "$tmp/$1.cpu"
	echo "$wall" >> "$tmp/$1.wall"
}

# per-size results, one line per twin size, for the three tables
: > "$tmp/rate" ; : > "$tmp/mem" ; : > "$tmp/ttv"

# twin NAME "CTAS WPC T S Q": the paired rounds of one size
twin() {
	local name=$1 label
	set -- $2
	label="$name c=$1 w=$2 t=$3 s=$4 q=$5"
	local spec="$here/specs/$name.gpu" pml="$here/promela/$name.pml"
	local defs=(-D ctas=$1 -D warps_per_cta=$2 -D threads_per_warp=$3 -D sms=$4 -D icnt_queue=$5)
	local sdefs=(CTAS=$1 WPC=$2 T=$3 S=$4 Q=$5) d=$tmp/pan
	local v
	for v in ex cm por ps ns hc co; do : > "$tmp/$v.cpu"; : > "$tmp/$v.wall"; done
	: > "$tmp/r.ex"; : > "$tmp/r.cm"; : > "$tmp/r.por"
	# the state count sizes pan's hash table (-w), as a SPIN user would
	gpumc_one "$tmp/ex.json" --por=off "${defs[@]}" "$spec"
	local want=$g_states w=18
	while [ $w -lt 28 ] && [ $((1 << w)) -lt $((2 * ${want:-0})) ]; do w=$((w + 1)); done
	local spin_here=$spin_ok
	if [ $spin_ok = 1 ]; then
		pan_build "$d/ns" "$pml" "${sdefs[@]}" -- -DNOREDUCE &&
			pan_build "$d/hc" "$pml" "${sdefs[@]}" -- -DNOREDUCE -DHC4 &&
			pan_build "$d/co" "$pml" "${sdefs[@]}" -- -DNOREDUCE -DCOLLAPSE &&
			pan_build "$d/ps" "$pml" "${sdefs[@]}" -- ||
			{ spin_here=0; echo "   $label: pan did not build: $(tail -n 1 "$d"/*/cc.out 2>/dev/null | head -n 2)"; }
	fi
	local k v por_verdict ps_err=
	for v in ex ns cm hc co por ps tr; do local "${v}_cpu=-" "${v}_rss=-" "${v}_states=-" "${v}_bps=-"; done
	# the tree store's bytes do not vary from run to run: one run
	gpumc_one "$tmp/tr.json" --tree --por=off --threads 1 "${defs[@]}" "$spec"
	keep tr "$g_states" "$g_bps"
	local tr_store
	tr_store=$(jget "$tmp/tr.json" store)
	[ "$tr_states" = "$want" ] || echo "   $label: --tree stored $tr_states states, the flat store $want"
	for ((k = 0; k < REPEAT; k++)); do
		gpumc_one "$tmp/ex.json" --por=off --threads 1 "${defs[@]}" "$spec"
		keep ex "$g_states" "$g_bps"
		if [ $spin_here = 1 ]; then
			pan_run "$d/ns" $w
			keep ns "$p_states" "$p_bps"
			div "$ns_cpu" "$ex_cpu" >> "$tmp/r.ex"
		fi
		gpumc_one "$tmp/cm.json" --compact --por=off --threads 1 "${defs[@]}" "$spec"
		keep cm "$g_states" "$g_bps"
		if [ $spin_here = 1 ]; then
			pan_run "$d/hc" $w
			keep hc "$p_states" "$p_bps"
			div "$hc_cpu" "$cm_cpu" >> "$tmp/r.cm"
			pan_run "$d/co" $w
			keep co "$p_states" "$p_bps"
		fi
		gpumc_one "$tmp/por.json" "${defs[@]}" "$spec"
		keep por "$g_states" "$g_bps"
		por_verdict=$g_verdict
		if [ $spin_here = 1 ]; then
			pan_run "$d/ps" $w
			keep ps "$p_states" "$p_bps"
			ps_err=$p_err
			div "$ps_cpu" "$por_cpu" >> "$tmp/r.por"
		fi
	done
	local m_ex m_ns m_cm m_hc m_por m_ps
	m_ex=$(median < "$tmp/ex.cpu") m_cm=$(median < "$tmp/cm.cpu") m_por=$(median < "$tmp/por.cpu")
	m_ns=$(median < "$tmp/ns.cpu") m_hc=$(median < "$tmp/hc.cpu") m_ps=$(median < "$tmp/ps.cpu")
	local same=yes
	[ "$ns_states" = "$ex_states" ] || same=no
	[ "$cm_states" = "$ex_states" ] || same="$same (compact $cm_states)"
	printf '%-34s %9s %6s %9s | %6s %9s %6s %5s | %6s %9s %6s %9s %6s\n' "$label" "$(hnum "$ex_states")" "$m_ex" \
		"$(hnum "$(div "$ex_states" "$m_ex" %.0f)")" "$m_ns" "$(hnum "$(div "$ns_states" "$m_ns" %.0f)")" \
		"$(median < "$tmp/r.ex")" "${same%% *}" "$m_cm" "$(hnum "$(div "$cm_states" "$m_cm" %.0f)")" "$m_hc" \
		"$(hnum "$(div "$hc_states" "$m_hc" %.0f)")" "$(median < "$tmp/r.cm")" >> "$tmp/rate"
	printf '%-34s %9s | %8s %8s %8s %12s | %8s %8s %8s\n' "$label" "$(hnum "$ex_states")" "$ex_bps" "$tr_bps" \
		"$co_bps" "$(mib "$ex_rss")/$(mib "$tr_rss")/$(mib "$co_rss")" "$cm_bps" "$hc_bps" "$(mib "$cm_rss")/$(mib "$hc_rss")" \
		>> "$tmp/mem"
	printf '%-34s %9s %6s %6s %-10s | %9s %6s %6s %6s | %7s\n' "$label" "$(hnum "$por_states")" "$m_por" \
		"$(median < "$tmp/por.wall")" "$por_verdict" "$(hnum "$ps_states")" "$m_ps" "$(median < "$tmp/ps.wall")" \
		"${ps_err:--}" "$(median < "$tmp/r.por")" >> "$tmp/ttv"
	# the largest size of each twin feeds the summary
	last_rate=$(median < "$tmp/r.ex") last_cmp=$(median < "$tmp/r.cm") last_ttv=$(median < "$tmp/r.por")
	last_ex_bps=$ex_bps last_cm_bps=$cm_bps last_tr_bps=$tr_bps last_tr_store=$tr_store
	[ "$same" = yes ] || [ $spin_here = 0 ] || echo "   $label: state counts differ: gpumc $ex_states, pan -DNOREDUCE $ns_states${same#no}"
	[ "$g_verdict" = pass ] || echo "   $label: gpumc verdict $g_verdict"
	[ "${ps_err:-0}" = 0 ] || echo "   $label: pan reported $ps_err error(s)"
}

# sizes: "ctas warps_per_cta threads_per_warp sms icnt_queue" (icnt_queue
# 0: the machine's default, twice the lanes), smallest first; the last one
# feeds the summary
lane_sizes=("3 1 3 2 0" "4 1 2 2 0" "3 1 4 2 0")
ticket_sizes=("3 1 3 1 3" "2 1 8 2 0" "5 1 1 2 0")
if [ "$QUICK" = 1 ]; then
	lane_sizes=("3 1 3 2 0")
	ticket_sizes=("3 1 2 2 0")
fi
[ -n "${LANE_SIZES:-}" ] && IFS=';' read -r -a lane_sizes <<< "$LANE_SIZES"
[ -n "${TICKET_SIZES:-}" ] && IFS=';' read -r -a ticket_sizes <<< "$TICKET_SIZES"

twins() {
	local n
	for n in lane-reduction ticket-counter; do
		local -n sizes=${n%%-*}_sizes
		local sz
		for sz in "${sizes[@]}"; do
			twin "$n" "$sz"
		done
		eval "${n%%-*}_rate=\$last_rate ${n%%-*}_cmp=\$last_cmp ${n%%-*}_ttv=\$last_ttv"
		eval "${n%%-*}_ex_bps=\$last_ex_bps ${n%%-*}_cm_bps=\$last_cm_bps"
		eval "${n%%-*}_tr_bps=\$last_tr_bps ${n%%-*}_tr_store=\$last_tr_store"
	done
	echo
	echo "== 1a. raw rate on identical graphs (POR off on both sides, one core each: gpumc --threads 1); CPU s = median of $REPEAT, st/s = states / CPU s"
	echo "   ratio = median of the paired SPIN CPU / gpumc CPU (> 1: gpumc faster)"
	printf '%-34s %9s %6s %9s | %6s %9s %6s %5s | %6s %9s %6s %9s %6s\n' size states "CPU s" "st/s" \
		"CPU s" "st/s" ratio same "CPU s" "st/s" "CPU s" "st/s" ratio
	printf '%-34s %9s %6s %9s | %6s %9s %6s %5s | %6s %9s %6s %9s %6s\n' "" "" "gpumc" exact "SPIN" \
		"NOREDUCE" "" "" "gpumc" compact "SPIN" "HC4" ""
	cat "$tmp/rate"
	echo
	echo "== 1b. memory: B/state (gpumc: storage / states; SPIN: total actual memory usage / states), peak RSS MiB"
	echo "   exact: flat (the default store) and --tree (tree compression, --threads 1), both exact"
	printf '%-34s %9s | %8s %8s %8s %12s | %8s %8s %8s\n' size states "flat" "tree" "COLLAPSE" "RSS f/t/C" "compact" \
		"HC4" "RSS c/H"
	cat "$tmp/mem"
	echo
	echo "== 1c. time to verdict, both with their defaults (partial-order reduction on); CPU and wall s, medians"
	printf '%-34s %9s %6s %6s %-10s | %9s %6s %6s %6s | %7s\n' size "states" "CPU s" "wall" verdict "SPIN st" \
		"CPU s" wall errors "SPIN/g"
	cat "$tmp/ttv"
}

# }===

# {=== 2. Scale table =====================================================

# template KIND N FILE: the bundled spec (D2: bench/specs/d2-scale.gpu;
# int: specs/baseline/int-reduction.gpu) with its input array sized to N
# threads (one per warp: the runs set -D threads_per_warp=1) and, for int,
# the sum it must reach
template() {
	local n=$2 src=$here/specs/d2-scale.gpu
	[ "$1" = int ] && src=$root/specs/baseline/int-reduction.gpu
	awk -v n="$n" -v kind="$1" '
	/^global \.(f32|u32) vals\[/ { # D2: +-1e8 around 1.0s; int: 1..n
		printf "global .%s vals[%d] = {", kind == "d2" ? "f32" : "u32", n
		for (i = 0; i < n; i++)
			printf "%s %s", (i ? "," : ""), (kind == "int" ? i + 1 : i % 8 == 0 ? "1e8" : i % 8 == 4 ? "-1e8" : "1.0")
		print " }"
		next
	}
	/^check forall sum ==/ { print "check forall sum == " n * (n + 1) / 2; next }
	{ print }' "$src" > "$3"
}

scale_wpc=(1 2 3 4 5 6 7 8)
[ "$QUICK" = 1 ] && scale_wpc=(1 2 3 4)

scale() {
	echo
	echo "== 2. scale: 2 CTAs of 1..${scale_wpc[-1]} warps (2 SMs), inputs sized to the grid; every run stops at $SCALE_TIMEOUT s (wall)"
	printf '%-16s %6s | %9s %7s %8s %6s %-11s | %9s %7s %8s %6s %-11s\n' spec warps "POR st" "CPU s" "B/state" \
		"RSS M" verdict "off st" "CPU s" "B/state" "RSS M" verdict
	local kind wpc
	echo "# warps d2-por d2-off int-por int-off (states; an incomplete run's count is a lower bound)" \
		> "$OUT/explore-scale.dat"
	declare -A st
	for kind in d2 int; do
		for wpc in "${scale_wpc[@]}"; do
			template $kind $((2 * wpc)) "$tmp/scale.gpu"
			local row=() p
			for p in on off; do
				gpumc_one "$tmp/s.json" --por=$p --time "$SCALE_TIMEOUT" -D ctas=2 -D warps_per_cta="$wpc" \
					-D threads_per_warp=1 "$tmp/scale.gpu"
				st[$kind-$p-$wpc]=$g_states
				row+=("$(hnum "$g_states")" "$cpu" "$g_bps" "$(mib "$rss")" "$g_verdict")
			done
			printf '%-16s %6s | %9s %7s %8s %6s %-11s | %9s %7s %8s %6s %-11s\n' \
				"$([ $kind = d2 ] && echo "D2 (dab)" || echo "int-reduction")" $((2 * wpc)) "${row[@]}"
		done
	done
	for wpc in "${scale_wpc[@]}"; do
		echo "$((2 * wpc)) ${st[d2-on-$wpc]} ${st[d2-off-$wpc]} ${st[int-on-$wpc]} ${st[int-off-$wpc]}" \
			>> "$OUT/explore-scale.dat"
	done
	if command -v gnuplot >/dev/null 2>&1; then
		gnuplot > "$tmp/gp.err" 2>&1 <<EOF
set terminal png size 900,600
set output "$OUT/explore-states.png"
set title "gpumc: states vs warps (2 CTAs; --por=off stopped at $SCALE_TIMEOUT s)"
set xlabel "warps"
set ylabel "states"
set logscale y
set key top left
set grid
plot "$OUT/explore-scale.dat" using 1:2 with linespoints title "D2, POR", \
     "" using 1:3 with linespoints title "D2, --por=off", \
     "" using 1:4 with linespoints title "int-reduction, POR", \
     "" using 1:5 with linespoints title "int-reduction, --por=off"
EOF
		if [ -s "$OUT/explore-states.png" ]; then
			echo "(plot: $OUT/explore-states.png; data: $OUT/explore-scale.dat)"
		else
			echo "(gnuplot failed: $(head -n 1 "$tmp/gp.err"))"
		fi
	else
		echo "(no gnuplot: no plot; data: $OUT/explore-scale.dat)"
	fi
}

# }===

# {=== 3. The other done-when figures =====================================

# threads SPEC OPTIONS...: REPEAT paired runs at --threads 1 and 2
# (--por=off, so the work is the same); medians of the paired wall ratio
# and of the CPU inflation (CPU at 2 / CPU at 1)
threads() {
	local spec=$1 k
	shift
	: > "$tmp/tw"; : > "$tmp/tc"
	for ((k = 0; k < REPEAT; k++)); do
		gpumc_one "$tmp/t1.json" --por=off --threads 1 "$@" "$spec"
		local w1=$wall c1=$cpu s1=$g_states
		gpumc_one "$tmp/t2.json" --por=off --threads 2 "$@" "$spec"
		[ "$g_states" = "$s1" ] || echo "   --threads 2 found $g_states states, --threads 1 $s1"
		div "$w1" "$wall" >> "$tmp/tw"
		div "$cpu" "$c1" >> "$tmp/tc"
	done
	thr_wall=$(median < "$tmp/tw") thr_cpu=$(median < "$tmp/tc") thr_states=$s1
}

others() {
	echo
	echo "== 3. threads, D2 at 16 warps, MPI, concrete mode"
	local cfg="-D ctas=2 -D warps_per_cta=5" name=d2-10warps
	[ "$QUICK" = 1 ] && cfg="-D ctas=2 -D warps_per_cta=4" name=d2-8warps
	echo "load average before the thread runs: $(load)"
	# shellcheck disable=SC2086
	threads "$here/specs/d2-scale.gpu" $cfg
	echo "$name --por=off, $thr_states states: wall speed-up at 2 threads $thr_wall (median of $REPEAT pairs)," \
		"CPU at 2 / CPU at 1 = $thr_cpu; load average after: $(load)"
	figure "2-thread speed-up, wall ($name, --por=off)" "$thr_wall" ">=" 1.8 \
		"(CPU 2/1 $thr_cpu: $(div 2 "$thr_cpu") on 2 idle cores if no thread waited)"
	gpumc_one "$tmp/d16.json" -D ctas=2 -D warps_per_cta=8 "$here/specs/d2-scale.gpu"
	echo "D2 at 16 warps with POR: $g_states states, $cpu s CPU, $wall s wall, verdict $g_verdict"
	local d16=$wall
	[ "$g_verdict" = pass ] || d16=-
	figure "D2 at 16 warps, POR, wall s to verdict" "$d16" "<=" 60
	if [ -f "$here/mpi.sh" ]; then
		echo "bench/mpi.sh:"
		QUICK=$QUICK bash "$here/mpi.sh" 2>&1 | tail -n 12 | sed 's/^/   /'
		summary+=("$(printf '%-52s %10s  %s' "MPI at 4 ranks agreeing with the sequential run" "-" \
			"see bench/mpi.sh above")")
	else
		summary+=("$(printf '%-52s %10s  %s' "MPI at 4 ranks agreeing with the sequential run" "-" \
			"not measured: no bench/mpi.sh yet")")
	fi
	if [ -f "$here/concrete.sh" ]; then
		echo "bench/concrete.sh (warp-instructions per CPU second):"
		(cd "$root" && GPUMC=$GPUMC sh bench/concrete.sh 2>&1) | sed 's/^/   /'
		local csv=$root/bench/out/concrete.csv mach target
		for mach in dab baseline persist; do
			# the slowest kernel size of the machine against its target
			local worst
			worst=$(awk -F, -v m="$mach" 'NR > 1 && $1 == m && $6 != "" { r = $6 / $7; if (!n++ || r < w) w = r }
				END { if (n) printf "%.3f\n", w; else print "-" }' "$csv" 2>/dev/null)
			target=$(awk -F, -v m="$mach" 'NR > 1 && $1 == m { print $7; exit }' "$csv" 2>/dev/null)
			figure "concrete $mach: slowest size / target ($(hnum "${target:-}")/s)" "${worst:--}" ">=" 1
		done
	fi
}

# }===

echo "gpumc exploration benchmark, $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), $(nproc 2>/dev/null || echo '?') CPU(s), load $(load)"
echo "gpumc: $gpumc_src ($(date -u -r "$gpumc_src" '+built %Y-%m-%d %H:%M UTC' 2>/dev/null)); $REPEAT paired rounds per figure$([ "$QUICK" = 1 ] && echo '; QUICK')"
if [ $spin_ok = 1 ]; then
	echo "SPIN: $("$SPIN" -V 2>&1 | head -n 1); spin -o3 -a (one statement, one transition); $CC $PAN_CFLAGS -DSAFETY -DNOCLAIM"
	echo "      [-DNOREDUCE [-DHC4 | -DCOLLAPSE]]; ./pan -m100000 -wN (N: about twice gpumc's state count)"
else
	echo "SPIN: not run: $spin_why"
fi
twins
if [ "${TWINS_ONLY:-0}" != 1 ]; then
	scale
	others
fi
echo
echo "== done-when figures (issue 13)"
if [ $spin_ok = 1 ]; then
	figure "time to verdict vs SPIN defaults, lane-reduction" "$lane_ttv" ">=" 5 "(SPIN CPU / gpumc CPU, both POR)"
	figure "time to verdict vs SPIN defaults, ticket-counter" "$ticket_ttv" ">=" 5
	worst_rate=$(printf '%s\n%s\n' "$lane_rate" "$ticket_rate" | sort -g | head -n 1)
	figure "raw states/s vs SPIN -DNOREDUCE (worse twin, one core each)" "$worst_rate" ">=" 1.5 \
		"(lane $lane_rate, ticket $ticket_rate; compact vs -DHC4: $lane_cmp, $ticket_cmp)"
fi
worst_ex=$(printf '%s\n%s\n' "$lane_ex_bps" "$ticket_ex_bps" | sort -g | tail -n 1)
worst_tr=$(printf '%s\n%s\n' "$lane_tr_bps" "$ticket_tr_bps" | sort -g | tail -n 1)
worst_cm=$(printf '%s\n%s\n' "$lane_cm_bps" "$ticket_cm_bps" | sort -g | tail -n 1)
figure "B/state exact, store ${ticket_tr_store:-tree} (worse twin, largest)" "$worst_tr" "<=" 64 \
	"(--tree; the flat store: $worst_ex)"
figure "B/state compact (worse twin, largest size)" "$worst_cm" "<=" 16
printf '%s\n' "${summary[@]}"
echo "load average at the end: $(load)"
exit 0
